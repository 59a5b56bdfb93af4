//! Load benchmark of the real `referee run` binary through the fake Discord's gateway.
//!
//! Run: `cargo bench --bench bot_load` (release build). It starts the fake Discord
//! (`tests/integration/fake`) and the bot on a temporary database, creates a guild's worth of
//! characters, then for each rate dispatches a mixed workload open-loop (the dispatcher never waits
//! for answers, so a slow bot shows its own backlog) and reports, per rate: interactions per
//! second achieved, p50/p99/max latency from the moment the INTERACTION_CREATE frame was flushed to
//! the moment the bot's callback request arrived, errors (no callback within 10 s, or "Something
//! went wrong"), the bot's CPU time and peak resident memory (from /proc), and the CPU time the
//! hypervisor stole from this VM meanwhile (`/proc/stat`: latency no profile of ours can explain,
//! and the reason two runs of the same build differ) — in the whole phase, and while the slowest
//! interaction waited (sampled every 10 ms), so a tail can be told from a pause of the VM. Then
//! it raises the rate to find the highest one with p99 under 50 ms, and reports the idle RSS of a
//! fresh bot.
//!
//! The mix, per interaction: 35% `/check skill:Swimming`, 20% `/character show`, 10% `/luck spend
//! kind:stunt`, 15% `/tft attack`, 20% `/roll expression:3d6+2` — each by one of 20 players with
//! their own THIZ and TFT characters.
//!
//! Environment: `REFEREE_LOAD_SECS` (seconds per rate, default 30), `REFEREE_LOAD_RATES` (comma
//! list, default `100,1000,5000`), `REFEREE_LOAD_SEARCH` (comma list of rates tried for the highest
//! rate under 50 ms, default `2000,3000,4000,5000,6000,8000,10000`; empty to skip).
//! Bot and fake share this machine's cores, as the targets say.

#[path = "../integration/fake/mod.rs"]
mod fake;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use fake::FakeDiscord;
use fake::payload::{self, Built, Caller};
use fake::process::{BotOptions, BotProcess};
use serde_json::Value;

const PLAYERS: u64 = 20;
const GM: u64 = 1;

fn env_list(name: &str, default: &str) -> Vec<u64> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_owned())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

/// One bot on one fake, with its characters made.
struct Rig {
    bot: BotProcess,
    fake: FakeDiscord,
    _dir: tempfile::TempDir,
    templates: Vec<Built>,
}

fn command(caller: &Caller, name: &str, options: Vec<Value>) -> Built {
    payload::command(caller, name, options, Value::Null)
}

fn sub(caller: &Caller, name: &str, subname: &str, options: Vec<Value>) -> Built {
    payload::command(
        caller,
        name,
        vec![payload::subcommand(subname, options)],
        Value::Null,
    )
}

/// A fresh bot on a temporary database and a load fake, once it is connected and its commands
/// are registered.
fn start_bot() -> (FakeDiscord, tempfile::TempDir, BotProcess) {
    let fake = FakeDiscord::for_load();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut options = BotOptions::new(&fake, dir.path());
    options.log = "warn".into();
    let bot = BotProcess::spawn(&options);
    fake.wait_ready(1, fake::TIMEOUT);
    fake.wait_for("the command registration", fake::TIMEOUT, |r| {
        r.method == "PUT" && r.route().contains("/commands")
    });
    (fake, dir, bot)
}

impl Rig {
    fn start() -> Self {
        let (fake, dir, bot) = start_bot();
        let mut rig = Self {
            bot,
            fake,
            _dir: dir,
            templates: Vec::new(),
        };
        rig.setup();
        rig
    }

    /// Runs one setup command and waits for its callback.
    fn must(&self, built: &Built) {
        self.fake.dispatch(built);
        self.fake.callback_for(built.id);
    }

    fn setup(&mut self) {
        let gm = Caller::gm(GM);
        for p in 0..PLAYERS {
            let player = Caller::player(100 + p);
            let thiz = format!("Thiz{p}");
            let tft = format!("Tft{p}");
            self.must(&sub(
                &player,
                "character",
                "create",
                vec![
                    payload::string("name", &thiz),
                    // Fixed menus go as the choice index: 0 is thiz.
                    payload::integer("system", 0),
                ],
            ));
            self.must(&sub(
                &player,
                "character",
                "skill",
                vec![
                    payload::string("name", &thiz),
                    payload::string("skill", "Swimming"),
                    payload::integer("rating", 4),
                ],
            ));
            self.must(&sub(
                &player,
                "character",
                "create",
                vec![payload::string("name", &tft), payload::integer("system", 1)],
            ));
            self.must(&sub(
                &player,
                "character",
                "set",
                vec![
                    payload::string("name", &tft),
                    payload::string("field", "st"),
                    payload::string("value", "12"),
                ],
            ));
            self.must(&sub(
                &gm,
                "luck",
                "set",
                vec![
                    payload::string("character", &thiz),
                    payload::integer("points", 999),
                ],
            ));
            let target = format!("Tft{}", (p + 1) % PLAYERS);
            let all = mix(&player, &thiz, &tft, &target);
            // REFEREE_LOAD_ONLY=show keeps one kind of command (by its name or subcommand), to
            // see which part of the mix limits the rate.
            match std::env::var("REFEREE_LOAD_ONLY") {
                Ok(only) => self.templates.extend(all.into_iter().filter(|b| {
                    let data = &b.json["data"];
                    data["name"] == only.as_str() || data["options"][0]["name"] == only.as_str()
                })),
                Err(_) => self.templates.extend(all),
            }
        }
    }
}

/// One player's share of the mix (templates, re-sent with fresh ids): 7 checks, 4 sheets, 2 luck
/// spends, 3 TFT attacks and 4 rolls in 20.
fn mix(player: &Caller, thiz: &str, tft: &str, target: &str) -> Vec<Built> {
    use payload::{integer, string};
    let check = || {
        command(
            player,
            "check",
            vec![string("skill", "Swimming"), string("character", thiz)],
        )
    };
    let bare = |rating: i64| command(player, "check", vec![integer("rating", rating)]);
    let show = |name: &str| sub(player, "character", "show", vec![string("name", name)]);
    let spend = || {
        // A fixed menu sends its choice index: 2 is stunt.
        let options = vec![
            integer("kind", 2),
            string("character", thiz),
            integer("points", 1),
        ];
        sub(player, "luck", "spend", options)
    };
    let attack = |weapon: &str| {
        let options = vec![
            string("attacker", tft),
            string("target", target),
            string("weapon", weapon),
        ];
        sub(player, "tft", "attack", options)
    };
    let roll = |dice: &str| command(player, "roll", vec![string("expression", dice)]);
    vec![
        check(),
        check(),
        check(),
        bare(4),
        bare(2),
        bare(6),
        bare(-3),
        show(thiz),
        show(tft),
        show(thiz),
        show(tft),
        spend(),
        spend(),
        attack("Broadsword"),
        attack("Dagger"),
        attack("Broadsword"),
        roll("3d6+2"),
        roll("1d100"),
        roll("4d6kh3"),
        roll("2d6+1"),
    ]
}

const ID_MARK: &str = "REFEREE-LOAD-ID";
const TOKEN_MARK: &str = "REFEREE-LOAD-TOKEN";

/// A template as JSON text with marks where the id and token go, so that each dispatch is two
/// string replacements rather than a clone and a serialization of a JSON tree (the dispatcher
/// shares the machine with the bot, so its CPU is kept small).
fn text_template(template: &Built) -> String {
    let mut json = template.json.clone();
    json["id"] = Value::from(ID_MARK);
    json["token"] = Value::from(TOKEN_MARK);
    json.to_string()
}

/// A copy of a text template with a fresh interaction id and token: `(id, JSON text)`.
fn fresh(template: &str) -> (u64, String) {
    let id = payload::next_id();
    let text = template.replacen(ID_MARK, &id.to_string(), 1).replacen(
        TOKEN_MARK,
        &format!("itoken-{id}"),
        1,
    );
    (id, text)
}

/// Resident memory now and at its peak (kB), and CPU time used (user + system), of `pid`.
fn proc_stats(pid: u32) -> (u64, u64, Duration) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at ") " with the state
    // letter, field 3 of the whole line; utime and stime are fields 14 and 15, so 11 and 12
    // here. Every field is kept (tty and tpgid can be -1), so the positions hold.
    let after = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |n: usize| -> u64 { fields.get(n).and_then(|f| f.parse().ok()).unwrap_or(0) };
    let ticks = field(11) + field(12);
    // Clock ticks are 100 per second on Linux.
    (
        kb("VmRSS:"),
        kb("VmHWM:"),
        Duration::from_millis(ticks * 10),
    )
}

/// The machine's CPU time taken by the hypervisor for other guests ("steal", the 8th number of
/// `/proc/stat`'s `cpu` line), summed over all CPUs. On a shared VM it is time this benchmark's
/// processes were ready to run but could not: it shows up as latency no profile of ours explains.
fn steal() -> Duration {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: u64 = stat
        .lines()
        .find(|l| l.starts_with("cpu "))
        .and_then(|l| l.split_whitespace().nth(8))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// `/proc/stat`'s steal, sampled every 10 ms on a thread of its own while a phase runs, so that
/// the slowest interaction can be set beside what the hypervisor took while it waited.
struct StealSampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Vec<(Instant, Duration)>>,
}

impl StealSampler {
    fn start() -> Self {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut samples = vec![(Instant::now(), steal())];
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
                samples.push((Instant::now(), steal()));
            }
            samples
        });
        Self { stop, thread }
    }

    fn finish(self) -> Vec<(Instant, Duration)> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

/// Steal between two instants, from the samples (the last sample at or before each).
fn steal_between(samples: &[(Instant, Duration)], from: Instant, to: Instant) -> Duration {
    let at = |t: Instant| {
        samples
            .iter()
            .take_while(|(when, _)| *when <= t)
            .last()
            .or(samples.first())
            .map_or(Duration::ZERO, |(_, s)| *s)
    };
    at(to).saturating_sub(at(from))
}

struct Outcome {
    rate: u64,
    sent: usize,
    achieved: f64,
    p50: Duration,
    p99: Duration,
    max: Duration,
    errors: usize,
    /// Answers that were a refusal rather than a result (should be none).
    refused: usize,
    sample_refusal: String,
    cpu: Duration,
    /// CPU of this process: the fake Discord and the dispatcher.
    fake_cpu: Duration,
    /// The rate the dispatcher kept up.
    dispatched: f64,
    /// CPU time the hypervisor gave to others during the phase (see [`steal`]).
    steal: Duration,
    /// The slowest interaction's wait, and the steal during it (plus 10 ms either side, the
    /// sampling step).
    worst: (Duration, Duration),
    peak_rss_kb: u64,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The interaction callbacks among a phase's requests.
struct Answers {
    /// Interaction id → (arrival, whether it said "Something went wrong").
    by_id: HashMap<u64, (Instant, bool)>,
    /// Answers that were a refusal rather than a result (should be none), and one of them.
    refused: usize,
    sample_refusal: String,
    /// The last arrival.
    last: Option<Instant>,
}

fn answers(requests: &[fake::Request]) -> Answers {
    let mut out = Answers {
        by_id: HashMap::new(),
        refused: 0,
        sample_refusal: String::new(),
        last: None,
    };
    for r in requests {
        let route = r.route();
        if r.method != "POST" || !route.starts_with("/interactions/") {
            continue;
        }
        let Some(id) = route.split('/').nth(2).and_then(|v| v.parse::<u64>().ok()) else {
            continue;
        };
        let data = r.json.as_ref().map(|b| &b["data"]);
        let content = data.and_then(|d| d["content"].as_str()).unwrap_or_default();
        let failed = content.contains("Something went wrong");
        // Every command of the mix answers with an embed; a bare ephemeral text is a refusal.
        if data.is_some_and(|d| d["embeds"].as_array().is_none_or(Vec::is_empty)) {
            out.refused += 1;
            if out.sample_refusal.is_empty() {
                content.clone_into(&mut out.sample_refusal);
            }
        }
        out.last = Some(out.last.map_or(r.at, |l| l.max(r.at)));
        out.by_id.insert(id, (r.at, failed));
    }
    out
}

/// Dispatches `rate` interactions per second for `secs` seconds, open-loop, then collects.
fn phase(rig: &Rig, rate: u64, secs: u64) -> Outcome {
    let (_, _, cpu_before) = proc_stats(rig.bot.pid());
    let (_, _, fake_cpu_before) = proc_stats(std::process::id());
    let steal_before = steal();
    let sampler = StealSampler::start();
    let texts: Vec<String> = rig.templates.iter().map(text_template).collect();
    let total = (rate * secs) as usize;
    let interval = Duration::from_secs_f64(1.0 / rate as f64);
    let first_request = rig.fake.request_count();
    let start = Instant::now();
    let mut ids = Vec::with_capacity(total);
    for n in 0..total {
        let due = start + interval * n as u32;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        }
        let (id, text) = fresh(&texts[n % texts.len()]);
        ids.push(id);
        rig.fake.dispatch_text(id, text);
    }
    let elapsed_send = start.elapsed();
    // Wait for the last answers (or the timeout), then read the record once.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answered = rig.fake.count_requests(first_request, |r| {
            r.method == "POST" && r.route().starts_with("/interactions/")
        });
        if answered >= total || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // CPU is read before the record is copied out for the analysis, which is not the fake's.
    let (_, peak_rss_kb, cpu_after) = proc_stats(rig.bot.pid());
    let (_, _, fake_cpu_after) = proc_stats(std::process::id());
    let stolen = steal().saturating_sub(steal_before);
    let steal_samples = sampler.finish();
    let requests = rig.fake.requests();
    let flushed: HashMap<u64, Instant> = rig
        .fake
        .dispatches()
        .into_iter()
        .map(|d| (d.interaction_id, d.flushed_at))
        .collect();
    let Answers {
        by_id: answered,
        refused,
        sample_refusal,
        last,
    } = answers(&requests[first_request..]);
    let last = last.unwrap_or(start).max(start);
    let mut latencies = Vec::with_capacity(total);
    let mut errors = 0;
    let mut worst = (Duration::ZERO, Duration::ZERO);
    let step = Duration::from_millis(10);
    for id in &ids {
        match (flushed.get(id), answered.get(id)) {
            (Some(sent), Some((at, failed))) => {
                let latency = at.saturating_duration_since(*sent);
                if latency > worst.0 {
                    worst = (
                        latency,
                        steal_between(
                            &steal_samples,
                            sent.checked_sub(step).unwrap_or(*sent),
                            *at + step,
                        ),
                    );
                }
                latencies.push(latency);
                if *failed {
                    errors += 1;
                }
            }
            _ => errors += 1,
        }
    }
    latencies.sort_unstable();
    let span = last.saturating_duration_since(start).max(elapsed_send);
    Outcome {
        rate,
        sent: total,
        achieved: latencies.len() as f64 / span.as_secs_f64(),
        p50: percentile(&latencies, 50.0),
        p99: percentile(&latencies, 99.0),
        max: latencies.last().copied().unwrap_or_default(),
        errors,
        refused,
        sample_refusal,
        cpu: cpu_after.saturating_sub(cpu_before),
        fake_cpu: fake_cpu_after.saturating_sub(fake_cpu_before),
        dispatched: total as f64 / elapsed_send.as_secs_f64(),
        steal: stolen,
        worst,
        peak_rss_kb,
    }
}

fn report(o: &Outcome, secs: u64) {
    println!(
        "{:>6}/s for {secs:>2} s: sent {:>6}, answered {:>8.0}/s, p50 {:>9.3?}, p99 {:>9.3?}, max {:>9.3?}, errors {:>5}, bot CPU {:>7.2?} ({:>4.0}% of one core, {:>4.0} µs per interaction), peak RSS {:>6} kB",
        o.rate,
        o.sent,
        o.achieved,
        o.p50,
        o.p99,
        o.max,
        o.errors,
        o.cpu,
        100.0 * o.cpu.as_secs_f64() / secs as f64,
        1e6 * o.cpu.as_secs_f64() / o.sent.max(1) as f64,
        o.peak_rss_kb
    );
    println!(
        "        dispatched {:.0}/s; fake + dispatcher CPU {:.2?}; stolen by the hypervisor {:.2?}, of which {:.2?} while the slowest interaction ({:.2?}) waited",
        o.dispatched, o.fake_cpu, o.steal, o.worst.1, o.worst.0
    );
    if o.refused > 0 {
        println!(
            "        {} refusals, e.g. {:?}",
            o.refused, o.sample_refusal
        );
    }
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` would pass nothing: run only for bench.
    if !std::env::args().any(|a| a == "--bench") {
        println!("bot_load: run with `cargo bench --bench bot_load`");
        return;
    }
    let secs = env_list("REFEREE_LOAD_SECS", "30")
        .first()
        .copied()
        .unwrap_or(30);
    let rates = env_list("REFEREE_LOAD_RATES", "100,1000,5000");
    let search = env_list("REFEREE_LOAD_SEARCH", "2000,3000,4000,5000,6000,8000,10000");

    // Idle memory: a fresh bot, connected and registered, before any command.
    {
        let (_fake, _dir, bot) = start_bot();
        std::thread::sleep(Duration::from_secs(2));
        let (rss, hwm, cpu) = proc_stats(bot.pid());
        println!(
            "idle bot (connected, commands registered, 2 s later): RSS {rss} kB, peak {hwm} kB, CPU so far {cpu:?}"
        );
        // Where the resident memory is: the heap and stacks (anonymous) or the mapped binary and
        // libraries (file-backed).
        let rollup = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", bot.pid()))
            .unwrap_or_default();
        let parts: Vec<&str> = rollup
            .lines()
            .filter(|l| {
                [
                    "Rss:",
                    "Anonymous:",
                    "Private_Clean:",
                    "Shared_Clean:",
                    "Private_Dirty:",
                ]
                .iter()
                .any(|key| l.starts_with(key))
            })
            .collect();
        println!("        {}", parts.join("; "));
    }

    for rate in rates {
        let rig = Rig::start();
        let o = phase(&rig, rate, secs);
        report(&o, secs);
    }
    if !search.is_empty() {
        println!("highest rate with p99 under 50 ms (10 s each):");
        let mut best = None;
        for rate in search {
            let rig = Rig::start();
            let o = phase(&rig, rate, 10);
            report(&o, 10);
            if o.p99 < Duration::from_millis(50)
                && o.errors == 0
                && o.achieved >= 0.95 * rate as f64
            {
                best = Some(rate);
            } else {
                break;
            }
        }
        match best {
            Some(rate) => {
                println!("highest sustained rate with p99 < 50 ms and no error: {rate}/s");
            }
            None => println!("no rate tried kept p99 under 50 ms"),
        }
    }
}
