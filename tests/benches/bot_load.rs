//! Load benchmark of the real `referee run` binary through the fake Discord's gateway, beside a
//! bare serenity + poise bot that only rolls (the floor, `floor.rs`, built into this binary).
//!
//! Run: `cargo bench --bench bot_load` (release build). It starts the fake Discord
//! (`tests/integration/fake`) and a bot on a temporary database, and for each phase dispatches
//! interactions open-loop (the dispatcher never waits for answers, so a slow bot shows its own
//! backlog). Per phase it reports: interactions per second achieved, p50/p99/max latency from the
//! moment the INTERACTION_CREATE frame was flushed to the moment the bot's callback request
//! arrived, errors (no callback within 10 s, or "Something went wrong"), the bot's CPU time and
//! peak resident memory (from /proc), the bytes it wrote per logged roll (`/proc/PID/io`:
//! `write_bytes`, what it sent towards the disk — the figure the goal is about — and
//! `wchar`, every byte handed to write(2), the HTTP requests on its sockets included), and the
//! CPU time the hypervisor stole from this VM meanwhile (`/proc/stat`: latency no profile of ours
//! can explain, and the reason two runs of the same build differ) — in the whole phase, and while
//! the slowest interaction waited (sampled every 10 ms).
//!
//! The phases are the table (issue 18, item 6):
//! 1. idle RSS of a fresh bot, connected and registered, for referee and the floor;
//! 2. `/roll` alone at 10,000/s, for referee and then the floor: p99, CPU per interaction (and
//!    its ratio to the floor's), peak RSS;
//! 3. the mixed load at 5,000/s: p99, bytes written per logged roll.
//!
//! The mix, per interaction: 35% `/check skill:Swimming`, 20% `/character show`, 10% `/luck spend
//! kind:stunt`, 15% `/tft attack`, 20% `/roll` — each by one of 20 players with their own THIZ and
//! TFT characters. The `/roll` phase sends `3d6+2`, `1d100` and `2d6+1` from the same 20 players.
//!
//! Environment: `REFEREE_LOAD_SECS` (seconds per phase, default 20), `REFEREE_LOAD_ROLL_RATE`
//! (default 10000), `REFEREE_LOAD_MIX_RATE` (default 5000), `REFEREE_LOAD_RATES` (comma list of
//! further mixed rates, default none), `REFEREE_LOAD_SEARCH` (comma list of mixed rates tried for
//! the highest one with p99 under 50 ms, default none), `REFEREE_LOAD_ONLY=show` (the mixed phases
//! keep one kind of command, by its name or subcommand), `REFEREE_LOAD_PHASES=idle,roll,floor,mix`
//! (only those phases, without the table: to profile one), `REFEREE_LOAD_BIN` (the path of another
//! build of `referee` to run instead of this one's, to compare two builds on one machine),
//! `REFEREE_LOAD_TIMELINE` (a file to which each phase appends a line per interaction: when it
//! was sent and its latency), `REFEREE_LOAD_WRAP` (a command, split on spaces, that each bot is
//! run under: `valgrind --tool=callgrind` to count its instructions; the bot is then given a
//! minute to start, and stopped with SIGTERM so the tool writes its report). Bot and fake share
//! this machine's cores, as the targets say.
//!
//! Compare builds made the same way: the `referee` that `cargo bench` builds has the features its
//! dev-dependencies ask of shared crates (tokio's, say) and is not the one `cargo build --release`
//! makes (21.5 against 21.0 MB here).

#[path = "../integration/fake/mod.rs"]
mod fake;
mod floor;

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

/// Which bot a rig runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bot {
    Referee,
    /// The bare serenity + poise bot of `floor.rs`: this binary run with `--floor-bot`.
    Floor,
}

/// What a rig sends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Load {
    /// `/roll` alone, by 20 players (no setup: a roll needs no character).
    Rolls,
    /// The mix of checks, sheets, luck spends, attacks and rolls, after the characters are made.
    Mixed,
}

/// One bot on one fake, with what its load needs made.
struct Rig {
    bot: BotProcess,
    fake: FakeDiscord,
    /// The bot's database (`None` for the floor, which keeps none).
    db: Option<std::path::PathBuf>,
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

/// `REFEREE_LOAD_WRAP`, split on spaces: the command each bot runs under, if any.
fn wrap() -> Option<Vec<String>> {
    let wrap: Vec<String> = std::env::var("REFEREE_LOAD_WRAP")
        .ok()?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    (!wrap.is_empty()).then_some(wrap)
}

/// A fresh bot on a temporary database and a load fake, once it is connected and its commands
/// are registered.
fn start_bot(
    which: Bot,
) -> (
    FakeDiscord,
    tempfile::TempDir,
    BotProcess,
    Option<std::path::PathBuf>,
) {
    let fake = FakeDiscord::for_load();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut options = BotOptions::new(&fake, dir.path());
    options.log = "warn".into();
    let wrap = wrap();
    // `program` run under REFEREE_LOAD_WRAP's tool, if any.
    let wrapped = |program: &std::ffi::OsStr| match &wrap {
        Some(wrap) => {
            let mut command = std::process::Command::new(&wrap[0]);
            command.args(&wrap[1..]).arg(program);
            command
        }
        None => std::process::Command::new(program),
    };
    let (bot, db) = match which {
        // REFEREE_LOAD_BIN: another build of referee, to compare two builds on one machine.
        Bot::Referee => {
            let binary = std::env::var_os("REFEREE_LOAD_BIN")
                .unwrap_or_else(|| env!("CARGO_BIN_EXE_referee").into());
            let bot = BotProcess::spawn_binary_command(&options, wrapped(&binary));
            (bot, Some(options.db()))
        }
        Bot::Floor => {
            let this = std::env::current_exe().expect("this benchmark's path");
            let mut command = wrapped(this.as_os_str());
            command.arg("--floor-bot");
            (BotProcess::spawn_command(command, &options), None)
        }
    };
    let startup = if wrap.is_some() {
        Duration::from_mins(1)
    } else {
        fake::TIMEOUT
    };
    fake.wait_ready(1, startup);
    fake.wait_for("the command registration", startup, |r| {
        r.method == "PUT" && r.route().contains("/commands")
    });
    (fake, dir, bot, db)
}

impl Drop for Rig {
    /// Under `REFEREE_LOAD_WRAP` the bot is stopped with SIGTERM, so the tool it runs under
    /// writes its report (otherwise it is killed when `bot` drops).
    fn drop(&mut self) {
        if wrap().is_some() {
            self.bot.terminate(Duration::from_mins(2));
        }
    }
}

impl Rig {
    fn start(which: Bot, load: Load) -> Self {
        let (fake, dir, bot, db) = start_bot(which);
        let mut rig = Self {
            bot,
            fake,
            db,
            _dir: dir,
            templates: Vec::new(),
        };
        match load {
            Load::Rolls => {
                for p in 0..PLAYERS {
                    let player = Caller::player(100 + p);
                    for dice in ["3d6+2", "1d100", "2d6+1"] {
                        rig.templates.push(command(
                            &player,
                            "roll",
                            vec![payload::string("expression", dice)],
                        ));
                    }
                }
            }
            Load::Mixed => rig.setup(),
        }
        rig
    }

    /// Rows in the bot's roll log (0 for the floor).
    fn logged_rolls(&self) -> u64 {
        let Some(db) = &self.db else { return 0 };
        let conn =
            rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .expect("open the bot's database to count its rolls");
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM rolls", [], |r| r.get(0))
            .expect("count the roll log");
        rows.unsigned_abs()
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
        // A fixed menu sends its choice index: 3 is stunt (`bot::choices::LuckKind`).
        let options = vec![
            integer("kind", 3),
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

/// Bytes `pid` has written: `(wchar, write_bytes)` of `/proc/PID/io` — every byte handed to
/// write(2) and friends, and the bytes it sent to the block layer (page-cache pages it dirtied).
fn proc_io(pid: u32) -> (u64, u64) {
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap_or_default();
    let field = |key: &str| {
        io.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    (field("wchar:"), field("write_bytes:"))
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
    /// How many warning lines the bot logged, and the first kinds of them.
    warnings: String,
    /// Rows the phase added to the roll log.
    logged: u64,
    /// Bytes handed to write(2), and bytes that reached the block layer, during the phase.
    wchar: u64,
    write_bytes: u64,
}

/// The bot's warnings and errors, counted by their message (the text after the level and
/// target, up to the first field), most frequent first: `"" ` when there are none.
fn warnings(stderr: &str) -> String {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in stderr.lines() {
        let Some(at) = line.find(" WARN ").or_else(|| line.find(" ERROR ")) else {
            continue;
        };
        let rest = &line[at..];
        let message = rest.split_once(": ").map_or(rest, |(_, m)| m);
        let message = message.split(" interaction=").next().unwrap_or(message);
        *counts
            .entry(message.chars().take(100).collect())
            .or_default() += 1;
    }
    let mut counts: Vec<(String, usize)> = counts.into_iter().collect();
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
        .iter()
        .take(4)
        .map(|(m, n)| format!("{n} × {m:?}"))
        .collect::<Vec<_>>()
        .join("; ")
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

/// Waits until `total` interaction callbacks came after request `first`, or 10 s.
fn wait_for_answers(rig: &Rig, first: usize, total: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answered = rig.fake.count_requests(first, |r| {
            r.method == "POST" && r.route().starts_with("/interactions/")
        });
        if answered >= total || Instant::now() > deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Dispatches `rate` interactions per second for `secs` seconds, open-loop, then collects.
fn phase(rig: &Rig, rate: u64, secs: u64) -> Outcome {
    let logged_before = rig.logged_rolls();
    let (_, _, cpu_before) = proc_stats(rig.bot.pid());
    let io_before = proc_io(rig.bot.pid());
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
    wait_for_answers(rig, first_request, total);
    // CPU is read before the record is copied out for the analysis, which is not the fake's.
    let (_, peak_rss_kb, cpu_after) = proc_stats(rig.bot.pid());
    let io_after = proc_io(rig.bot.pid());
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
    if let Some(path) = std::env::var_os("REFEREE_LOAD_TIMELINE") {
        write_timeline(&path, start, &ids, &flushed, &answered);
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
        logged: rig.logged_rolls().saturating_sub(logged_before),
        warnings: warnings(&rig.bot.stderr()),
        wchar: io_after.0.saturating_sub(io_before.0),
        write_bytes: io_after.1.saturating_sub(io_before.1),
    }
}

/// `REFEREE_LOAD_TIMELINE`: one line per interaction, appended to `path` — when it was flushed
/// (ms since the phase began) and its latency (ms, empty if unanswered) — to see when in a phase
/// the slow ones came.
fn write_timeline(
    path: &std::ffi::OsStr,
    start: Instant,
    ids: &[u64],
    flushed: &HashMap<u64, Instant>,
    answered: &HashMap<u64, (Instant, bool)>,
) {
    use std::fmt::Write as _;
    let mut text = String::new();
    for id in ids {
        let Some(sent) = flushed.get(id) else {
            continue;
        };
        let at = sent.saturating_duration_since(start).as_secs_f64() * 1e3;
        let latency = answered.get(id).map_or(String::new(), |(answered, _)| {
            format!(
                "{:.3}",
                answered.saturating_duration_since(*sent).as_secs_f64() * 1e3
            )
        });
        let _ = writeln!(text, "{at:.3} {latency}");
    }
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
    if let Err(e) = appended {
        eprintln!("REFEREE_LOAD_TIMELINE {}: {e}", path.display());
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
    if o.logged > 0 {
        println!(
            "        logged {} rolls; wrote {} B ({:.0} B per logged roll) through write(2), {} B ({:.0} B per logged roll) to the block layer",
            o.logged,
            o.wchar,
            o.wchar as f64 / o.logged as f64,
            o.write_bytes,
            o.write_bytes as f64 / o.logged as f64
        );
    }
    if !o.warnings.is_empty() {
        println!("        the bot's warnings: {}", o.warnings);
    }
    if o.refused > 0 {
        println!(
            "        {} refusals, e.g. {:?}",
            o.refused, o.sample_refusal
        );
    }
}

/// A fresh bot's resident memory 2 s after it is connected and registered (kB), printed with
/// where it is.
fn idle(which: Bot, name: &str) -> u64 {
    let (_fake, _dir, bot, _) = start_bot(which);
    std::thread::sleep(Duration::from_secs(2));
    let (rss, hwm, cpu) = proc_stats(bot.pid());
    println!(
        "idle {name} (connected, commands registered, 2 s later): RSS {rss} kB, peak {hwm} kB, CPU so far {cpu:?}"
    );
    // Where the resident memory is: the heap and stacks (anonymous) or the mapped binary and
    // libraries (file-backed).
    let rollup =
        std::fs::read_to_string(format!("/proc/{}/smaps_rollup", bot.pid())).unwrap_or_default();
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
    rss
}

fn cpu_per(o: &Outcome) -> f64 {
    1e6 * o.cpu.as_secs_f64() / o.sent.max(1) as f64
}

/// The table (issue 18, item 6), in Markdown: idle RSS, `/roll` for referee and the
/// floor, and the mix.
fn print_table(idle: (u64, u64), roll: &Outcome, roll_floor: &Outcome, mixed: &Outcome) {
    let (idle_referee, idle_floor) = idle;
    println!();
    println!(
        "| phase | bot | sent/s | answered/s | p99 | errors | CPU per interaction | × floor | peak RSS | written to disk per logged roll (and every write(2), sockets too) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    println!(
        "| idle | referee | | | | | | | {idle_referee} kB | |\n| idle | floor | | | | | | | {idle_floor} kB | |"
    );
    let row = |phase: &str, bot: &str, o: &Outcome, ratio: Option<f64>| {
        let written = if o.logged > 0 {
            format!(
                "{:.0} B ({:.0} B)",
                o.write_bytes as f64 / o.logged as f64,
                o.wchar as f64 / o.logged as f64
            )
        } else {
            String::new()
        };
        println!(
            "| {phase} | {bot} | {} | {:.0} | {:.2?} | {} | {:.0} µs | {} | {} kB | {written} |",
            o.rate,
            o.achieved,
            o.p99,
            o.errors,
            cpu_per(o),
            ratio.map_or(String::new(), |r| format!("{r:.2}")),
            o.peak_rss_kb
        );
    };
    row(
        "/roll",
        "referee",
        roll,
        Some(cpu_per(roll) / cpu_per(roll_floor)),
    );
    row("/roll", "floor", roll_floor, None);
    row("mixed", "referee", mixed, None);
}

fn main() {
    // The floor bot: this binary re-run by the benchmark (see `floor.rs`).
    if std::env::args().any(|a| a == "--floor-bot") {
        floor::run();
        return;
    }
    // `cargo bench` passes --bench; `cargo test --benches` would pass nothing: run only for bench.
    if !std::env::args().any(|a| a == "--bench") {
        println!("bot_load: run with `cargo bench --bench bot_load`");
        return;
    }
    let first = |name: &str, default: &str| env_list(name, default).first().copied().unwrap_or(0);
    let secs = first("REFEREE_LOAD_SECS", "20");
    let roll_rate = first("REFEREE_LOAD_ROLL_RATE", "10000");
    let mix_rate = first("REFEREE_LOAD_MIX_RATE", "5000");
    let rates = env_list("REFEREE_LOAD_RATES", "");
    let search = env_list("REFEREE_LOAD_SEARCH", "");

    // REFEREE_LOAD_PHASES=idle,roll,floor,mix (some of them, say to profile one phase): the
    // others are skipped, and the table is not printed.
    let phases = std::env::var("REFEREE_LOAD_PHASES").ok();
    let wanted = |p: &str| {
        phases
            .as_deref()
            .is_none_or(|ps| ps.split(',').any(|x| x == p))
    };
    if phases.is_some() {
        let run = |which, load, rate, name: &str| {
            if wanted(name) {
                print!("{name:<7} ");
                report(&phase(&Rig::start(which, load), rate, secs), secs);
            }
        };
        if wanted("idle") {
            idle(Bot::Referee, "referee");
            idle(Bot::Floor, "floor");
        }
        run(Bot::Referee, Load::Rolls, roll_rate, "roll");
        run(Bot::Floor, Load::Rolls, roll_rate, "floor");
        run(Bot::Referee, Load::Mixed, mix_rate, "mix");
        return;
    }

    let idle_referee = idle(Bot::Referee, "referee");
    let idle_floor = idle(Bot::Floor, "floor");

    println!("/roll alone:");
    let roll = phase(&Rig::start(Bot::Referee, Load::Rolls), roll_rate, secs);
    print!("referee ");
    report(&roll, secs);
    let roll_floor = phase(&Rig::start(Bot::Floor, Load::Rolls), roll_rate, secs);
    print!("floor   ");
    report(&roll_floor, secs);

    println!("the mix:");
    let mixed = phase(&Rig::start(Bot::Referee, Load::Mixed), mix_rate, secs);
    print!("referee ");
    report(&mixed, secs);

    print_table((idle_referee, idle_floor), &roll, &roll_floor, &mixed);

    for rate in rates {
        let o = phase(&Rig::start(Bot::Referee, Load::Mixed), rate, secs);
        report(&o, secs);
    }
    if !search.is_empty() {
        println!("highest mixed rate with p99 under 50 ms (10 s each):");
        let mut best = None;
        for rate in search {
            let o = phase(&Rig::start(Bot::Referee, Load::Mixed), rate, 10);
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
