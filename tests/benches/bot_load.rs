//! Load benchmark of the real `referee run` binary through the fake Discord's gateway, beside a
//! bare serenity + poise bot that only rolls (the floor, `floor.rs`, built into this binary).
//!
//! Run: `cargo bench --bench bot_load` (release build). It starts the fake Discord
//! (`tests/integration/fake`) and a bot on a fresh database — a temporary SQLite file, or a fresh
//! PostgreSQL database (`load_db.rs`) — and for each phase dispatches interactions open-loop (the
//! dispatcher never waits for answers, so a slow bot shows its own backlog). Each phase has bots,
//! fake and database of its own, and stops its bots when it has read their answers.
//!
//! Per phase, for all of referee's processes together, it reports:
//! - interactions per second achieved, and p50/p99/max latency from the moment the
//!   INTERACTION_CREATE frame was flushed to the moment the bot's callback request arrived;
//! - errors (no callback within 10 s, or "Something went wrong"), and the answers that were
//!   "busy" (the bot or the database turning an interaction away: answered, not an error);
//! - the bots' CPU time (summed, per interaction, and each process's) and peak resident memory
//!   (the largest process's), from /proc;
//! - the rolls logged, and the writes per second (logged rolls per second of the phase);
//! - on SQLite, the bytes the bot wrote per logged roll (`/proc/PID/io`: `write_bytes`, what it
//!   sent towards the disk — the figure issue 18's goal is about — and `wchar`, every byte handed
//!   to write(2), the HTTP requests on its sockets included);
//! - on PostgreSQL, the database server's CPU time per interaction (utime + stime, and those of
//!   reaped children, of every process whose `/proc/PID/comm` is `postgres`) and the WAL written
//!   per logged roll (`pg_stat_wal.wal_bytes`; beside it, how far `pg_current_wal_insert_lsn()`
//!   moved, page headers included). A backend reports its WAL to `pg_stat_wal` at most once a
//!   second, and the rest 10 s after it goes idle or when it disconnects: so a PostgreSQL rig
//!   waits 11 s between its setup and its phase, and the phase reads `pg_stat_wal` again once
//!   its bots have stopped and disconnected. Both figures are server-wide: whatever else the
//!   server (or another server on the machine) does meanwhile is counted too, so measure on a
//!   server nothing else uses;
//! - the CPU time the hypervisor stole from this VM meanwhile (`/proc/stat`: latency no profile
//!   of ours can explain, and the reason two runs of the same build differ) — in the whole phase,
//!   and while the slowest interaction waited (sampled every 10 ms);
//! - how often a thread pinned to each CPU, sleeping 10 ms at a time, woke more than 5 ms late
//!   (`load_proc::Stalls`): a CPU that ran nothing of ours for that long, which steal does not
//!   always show. When an interaction waited much longer than that and the samplers saw no such
//!   gap, the wait was not a stall of a CPU;
//! - the machine's idle share over the phase, and in how many spans of 100 ms it was under 5%
//!   (`load_proc::Spare`): spans in which the bot, the fake and the sender together wanted
//!   every core, so that a queue grew whatever the bot did.
//!
//! The phases are issue 18's table (item 6) and issue 33's items 5 and 6:
//! 1. `idle`: RSS of a fresh bot, connected and registered, for referee and the floor;
//! 2. `roll` and `floor`: `/roll` alone at 10,000/s, for referee and then the floor: p99, CPU per
//!    interaction (and its ratio to the floor's), peak RSS;
//! 3. `mix`: the mixed load at 5,000/s: p99, bytes written (or WAL) per logged roll;
//! 4. `tail`: `/roll` alone at 5,000/s, for referee and the floor in rounds: p50/p99/max of
//!    both, and referee's p99 over the floor's (the goal: at most 2×); over several rounds, each
//!    round's ratio and each bot's medians over the rounds (p50, p99, CPU per interaction);
//! 5. `overload`: `/roll` at 16,000/s, past what referee can answer: its peak RSS in MiB (the
//!    goal: under 64 MiB), and how many interactions were answered, answered "busy", and not
//!    answered at all. Latency and errors past saturation are expected, not a failure.
//!
//! The mix, per interaction: 35% `/check skill:Swimming`, 20% `/character show`, 10% `/luck spend
//! kind:stunt`, 15% `/tft attack`, 20% `/roll` — each by one of 20 players with their own THIZ and
//! TFT characters. The `/roll` phases send `3d6+2`, `1d100` and `2d6+1` from the same 20 players.
//!
//! Several processes (`REFEREE_LOAD_PROCESSES=N`, PostgreSQL only): N referee processes on one
//! database, process i running shard i of N (`shards = { total = N, first = i, last = i }`),
//! started together (they take turns to IDENTIFY, 5 s apart); the load waits for every shard's
//! READY and for the registration (shard 0's process makes it). The load then comes from one
//! guild on each shard — the characters, skills and luck made in every guild — and each
//! interaction goes to its guild's shard, as Discord routes it; consecutive interactions go to
//! different guilds. With one process the load comes from one guild, as before, so the figures
//! stay comparable with earlier runs. The floor is always one process.
//!
//! Environment: `REFEREE_LOAD_SECS` (seconds per phase, default 20), `REFEREE_LOAD_ROLL_RATE`
//! (default 10000), `REFEREE_LOAD_MIX_RATE` (default 5000), `REFEREE_LOAD_TAIL_RATE` (default
//! 5000), `REFEREE_LOAD_OVERLOAD_RATE` (default 16000), `REFEREE_LOAD_STORE=sqlite|postgres`
//! (referee's database, default sqlite; PostgreSQL on the tests' server,
//! `REFEREE_TEST_DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/postgres`, in a fresh
//! database per phase, dropped after it), `REFEREE_LOAD_PROCESSES` (referee processes, default 1;
//! more needs `REFEREE_LOAD_STORE=postgres`), `REFEREE_LOAD_RATES` (comma list of further mixed
//! rates, default none), `REFEREE_LOAD_SEARCH` (comma list of mixed rates tried for the highest
//! one with p99 under 50 ms, default none), `REFEREE_LOAD_ONLY=show` (the mixed phases keep one
//! kind of command, by its name or subcommand),
//! `REFEREE_LOAD_PHASES=idle,roll,floor,mix,tail,overload` (only those phases, without the
//! table: to profile one), `REFEREE_LOAD_BIN` (the path of another build of `referee` to run
//! instead of this one's, to compare two builds on one machine), `REFEREE_LOAD_TIMELINE` (a file
//! to which each phase appends a line with its start, then a line per interaction: when it was
//! sent and its latency),
//! `REFEREE_LOAD_TAIL_ROUNDS` (the tail phase's rounds, default 4: the rounds alternate which
//! bot goes first — referee, floor, floor, referee, … — and the goal is judged on the latencies
//! of all rounds pooled, each round's ratio shown beside it; one round's p99 alone, the floor's
//! above all, varies several-fold between runs on a shared 2-core machine),
//! `REFEREE_LOAD_TAIL_SLICES` (instead of rounds of fresh bots, both bots started once and given
//! this many slices of load each, `REFEREE_LOAD_SECS` long, in turn, after one slice each not
//! counted: a stall of the machine then falls on either bot alike over many short slices),
//! `REFEREE_LOAD_B_ENV` and `REFEREE_LOAD_B_BIN` (with slices: a second referee, given these
//! settings — `NAME=value`, split on spaces — or this build, takes a slice beside each of the
//! first's, before it in odd slices; its p99 is reported over the floor's, pooled, and over the
//! first referee's slice by slice. So a setting or a build is compared with the default in one
//! run, each pair of slices a second apart: this machine's own pace changed twofold within
//! minutes on one day, which runs one after another took for the setting's effect),
//! `REFEREE_LOAD_WRAP` (a command, split on spaces, that each bot is run under: `valgrind
//! --tool=callgrind` to count its instructions; the bot is then given a minute to start, and
//! stopped with SIGTERM so the tool writes its report). Bots, fake and (for PostgreSQL) the
//! database server share this machine's cores, as the issues' targets say.
//!
//! Compare builds made the same way: the `referee` that `cargo bench` builds has the features its
//! dev-dependencies ask of shared crates (tokio's, say) and is not the one `cargo build --release`
//! makes (21.5 against 21.0 MB here).

#[path = "../integration/fake/mod.rs"]
mod fake;
mod floor;
mod load_db;
mod load_proc;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use fake::FakeDiscord;
use fake::payload::{self, Built, Caller};
use fake::process::{BotOptions, BotProcess};
use load_db::{Database, PgDatabase, Store, Wal};
use load_proc::{
    BUSY_IDLE, BUSY_WINDOW, SAMPLE_STEP, STALL_OVER, Spare, Stalls, StealSampler, postgres_cpu,
    proc_io, proc_stats, steal, steal_between,
};
use serde_json::Value;

const PLAYERS: u64 = 20;
const GM: u64 = 1;
/// How long after its last transaction an idle PostgreSQL backend has reported its statistics
/// (`PGSTAT_IDLE_INTERVAL`, 10 s, and a margin).
const PG_STATS_IDLE: Duration = Duration::from_secs(11);

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
    /// A second referee for the tail's slices (`REFEREE_LOAD_B_ENV`, `REFEREE_LOAD_B_BIN`): a
    /// setting or build compared with the first in the same run, slice by slice.
    RefereeB,
}

/// What a rig sends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Load {
    /// `/roll` alone, by 20 players (no setup: a roll needs no character).
    Rolls,
    /// The mix of checks, sheets, luck spends, attacks and rolls, after the characters are made.
    Mixed,
}

/// How referee is run: `REFEREE_LOAD_STORE` and `REFEREE_LOAD_PROCESSES`. (The floor is one
/// process without a database, whatever they say.)
#[derive(Clone, Copy)]
struct Setup {
    store: Store,
    /// Processes on one database, process i running shard i of this many; with 1, no shards
    /// are configured, as before this setting existed.
    processes: u32,
}

impl Setup {
    fn from_env() -> Result<Self, String> {
        let store = Store::from_env()?;
        let processes = match std::env::var("REFEREE_LOAD_PROCESSES") {
            Err(_) => 1,
            Ok(n) => n
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("REFEREE_LOAD_PROCESSES={n:?}: a number, 1 or more"))?,
        };
        if processes > 1 && store != Store::Postgres {
            return Err(format!(
                "REFEREE_LOAD_PROCESSES={processes} runs several referee processes on one \
                 database, which this benchmark does on PostgreSQL only: set \
                 REFEREE_LOAD_STORE=postgres (SQLite is measured with one process)"
            ));
        }
        Ok(Self { store, processes })
    }
}

/// Bots on one fake, with what their load needs made. A rig runs one phase.
struct Rig {
    // Fields drop in this order: the bots are gone before their database is dropped.
    bots: Vec<BotProcess>,
    fake: FakeDiscord,
    db: Database,
    _dir: tempfile::TempDir,
    /// The shards the bots run between them, which the interactions are routed over.
    shards: u32,
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

/// Bot process `i` of `processes` against `fake`, on `db`: referee (`REFEREE_LOAD_BIN`'s build,
/// if set) or the floor, under `REFEREE_LOAD_WRAP`'s tool, if any.
fn spawn(
    which: Bot,
    fake: &FakeDiscord,
    dir: &std::path::Path,
    db: &Database,
    (i, processes): (u32, u32),
) -> BotProcess {
    let mut options = BotOptions::new(fake, dir);
    options.log = "warn".into();
    if processes > 1 {
        options.config_name = format!("process{i}.toml");
        options.discord_extra =
            format!("shards = {{ total = {processes}, first = {i}, last = {i} }}\n");
    }
    if let Database::Postgres(pg) = db {
        options
            .env
            .push(("REFEREE_DATABASE_URL".into(), pg.url().to_owned()));
    }
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
    match which {
        // REFEREE_LOAD_BIN: another build of referee, to compare two builds on one machine.
        // REFEREE_LOAD_B_BIN and REFEREE_LOAD_B_ENV: the second referee's build and settings.
        Bot::Referee | Bot::RefereeB => {
            let b = matches!(which, Bot::RefereeB);
            if b {
                options.env.extend(b_env());
            }
            let binary = b
                .then(|| std::env::var_os("REFEREE_LOAD_B_BIN"))
                .flatten()
                .or_else(|| std::env::var_os("REFEREE_LOAD_BIN"))
                .unwrap_or_else(|| env!("CARGO_BIN_EXE_referee").into());
            BotProcess::spawn_binary_command(&options, wrapped(&binary))
        }
        Bot::Floor => {
            let this = std::env::current_exe().expect("this benchmark's path");
            let mut command = wrapped(this.as_os_str());
            command.arg("--floor-bot");
            BotProcess::spawn_command(command, &options)
        }
    }
}

/// `REFEREE_LOAD_B_ENV`: the settings (`NAME=value`, split on spaces) of the second referee
/// the tail's slices compare with the first.
fn b_env() -> Vec<(String, String)> {
    std::env::var("REFEREE_LOAD_B_ENV")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Whether the tail's slices run a second referee beside the first (`REFEREE_LOAD_B_ENV` or
/// `REFEREE_LOAD_B_BIN` set).
fn with_b() -> bool {
    std::env::var_os("REFEREE_LOAD_B_ENV").is_some()
        || std::env::var_os("REFEREE_LOAD_B_BIN").is_some()
}

/// Fresh bots on a fresh database and a load fake, once every shard is connected and the
/// commands are registered: a rig without templates yet.
fn start_bots(which: Bot, setup: Setup) -> Rig {
    let fake = FakeDiscord::for_load();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let processes = match which {
        Bot::Referee | Bot::RefereeB => setup.processes,
        Bot::Floor => 1,
    };
    let db = match (which, setup.store) {
        (Bot::Floor, _) => Database::None,
        (Bot::Referee | Bot::RefereeB, Store::Sqlite) => {
            Database::Sqlite(BotOptions::new(&fake, dir.path()).db())
        }
        (Bot::Referee | Bot::RefereeB, Store::Postgres) => {
            Database::Postgres(Box::new(PgDatabase::create()))
        }
    };
    // Started together: on a fresh PostgreSQL database they share its migration.
    let bots = (0..processes)
        .map(|i| spawn(which, &fake, dir.path(), &db, (i, processes)))
        .collect();
    let startup = if wrap().is_some() {
        Duration::from_mins(1)
    } else {
        fake::TIMEOUT
    };
    if processes == 1 {
        fake.wait_ready(1, startup);
    } else {
        // The processes take turns to IDENTIFY, each holding its turn 5 s after its READY.
        let all: Vec<u32> = (0..processes).collect();
        fake.wait_shards(&all, startup + Duration::from_secs(6) * processes);
    }
    fake.wait_for("the command registration", startup, |r| {
        r.method == "PUT" && r.route().contains("/commands")
    });
    Rig {
        bots,
        fake,
        db,
        _dir: dir,
        shards: processes,
        templates: Vec::new(),
    }
}

/// The guilds the load comes from: with one shard the fake's usual guild (as before this
/// setting existed); with more, one guild on each shard, as Discord routes them
/// ([`FakeDiscord::shard_of`]).
fn guilds(shards: u32) -> Vec<u64> {
    if shards == 1 {
        return vec![payload::GUILD_ID];
    }
    (0..shards)
        .map(|shard| {
            // `shards` consecutive values of `guild >> 22` cover every shard.
            (0..u64::from(shards))
                .map(|k| payload::GUILD_ID + (k << 22))
                .find(|g| FakeDiscord::shard_of(*g, shards) == shard)
                .expect("a guild on every shard")
        })
        .collect()
}

/// `built`, sent from `guild`.
fn in_guild(mut built: Built, guild: u64) -> Built {
    built.json["guild_id"] = Value::String(guild.to_string());
    built
}

/// The shard a template's guild is routed to, of `shards`.
fn shard_of(template: &Built, shards: u32) -> u32 {
    let guild = template.json["guild_id"]
        .as_str()
        .and_then(|g| g.parse().ok())
        .expect("a guild interaction");
    FakeDiscord::shard_of(guild, shards)
}

/// The guilds' templates taken in turn, so that consecutive interactions go to different
/// guilds (and shards).
fn interleave(per_guild: Vec<Vec<Built>>) -> Vec<Built> {
    let mut lists: Vec<_> = per_guild.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        out.extend(lists.iter_mut().filter_map(Iterator::next));
        if out.len() == before {
            return out;
        }
    }
}

/// The `/roll` templates of one guild: three expressions from each of the 20 players.
fn rolls(guild: u64) -> Vec<Built> {
    let mut out = Vec::new();
    for p in 0..PLAYERS {
        let player = Caller::player(100 + p);
        for dice in ["3d6+2", "1d100", "2d6+1"] {
            let roll = command(&player, "roll", vec![payload::string("expression", dice)]);
            out.push(in_guild(roll, guild));
        }
    }
    out
}

impl Drop for Rig {
    /// Under `REFEREE_LOAD_WRAP` the bots still running are stopped with SIGTERM, so the tool
    /// they run under writes its report (otherwise they are killed when `bots` drops).
    fn drop(&mut self) {
        if wrap().is_some() {
            for bot in &mut self.bots {
                if bot.exited().is_none() {
                    bot.terminate(Duration::from_mins(2));
                }
            }
        }
    }
}

impl Rig {
    fn start(which: Bot, load: Load, setup: Setup) -> Self {
        let mut rig = start_bots(which, setup);
        let per_guild = guilds(rig.shards)
            .into_iter()
            .map(|guild| match load {
                Load::Rolls => rolls(guild),
                Load::Mixed => rig.setup(guild),
            })
            .collect();
        rig.templates = interleave(per_guild);
        if matches!(rig.db, Database::Postgres(_)) {
            // A backend reports its WAL to pg_stat_wal at most once a second, and what it has
            // not reported when it goes idle 10 s later: without this wait, the WAL of the
            // start-up and the setup would be counted in the phase.
            std::thread::sleep(PG_STATS_IDLE);
        }
        rig
    }

    /// Stops the bots (SIGKILL, or SIGTERM under `REFEREE_LOAD_WRAP`) and, on PostgreSQL,
    /// waits until their connections are gone, so that their backends have reported the WAL
    /// they wrote (`pg_stat_wal`).
    fn stop(&mut self) {
        for bot in &mut self.bots {
            if wrap().is_some() {
                bot.terminate(Duration::from_mins(2));
            } else {
                bot.kill(fake::TIMEOUT);
            }
        }
        if let Database::Postgres(db) = &self.db {
            db.wait_disconnected(fake::TIMEOUT);
        }
    }

    /// Each bot's CPU time so far.
    fn cpus(&self) -> Vec<Duration> {
        self.bots.iter().map(|b| proc_stats(b.pid()).2).collect()
    }

    /// Every bot's standard error so far.
    fn stderr(&self) -> String {
        self.bots.iter().map(BotProcess::stderr).collect()
    }

    /// Runs one setup command from `guild` and waits for its callback.
    fn must(&self, guild: u64, built: Built) {
        let built = in_guild(built, guild);
        self.fake.dispatch_routed(&built, self.shards);
        self.fake.callback_for(built.id);
    }

    /// Makes each player's characters in `guild`; returns the guild's templates of the mix.
    fn setup(&self, guild: u64) -> Vec<Built> {
        let mut templates = Vec::new();
        for p in 0..PLAYERS {
            let player = Caller::player(100 + p);
            let thiz = format!("Thiz{p}");
            let tft = format!("Tft{p}");
            for built in characters(&player, &thiz, &tft) {
                self.must(guild, built);
            }
            let target = format!("Tft{}", (p + 1) % PLAYERS);
            let all = mix(&player, &thiz, &tft, &target);
            // REFEREE_LOAD_ONLY=show keeps one kind of command (by its name or subcommand), to
            // see which part of the mix limits the rate.
            let kept = match std::env::var("REFEREE_LOAD_ONLY") {
                Ok(only) => all
                    .into_iter()
                    .filter(|b| {
                        let data = &b.json["data"];
                        data["name"] == only.as_str() || data["options"][0]["name"] == only.as_str()
                    })
                    .collect(),
                Err(_) => all,
            };
            templates.extend(kept.into_iter().map(|b| in_guild(b, guild)));
        }
        templates
    }
}

/// The commands that make one player's characters: `thiz`, a THIZ character with Swimming 4 and
/// 999 luck (set by the GM), and `tft`, a TFT one with ST 12.
fn characters(player: &Caller, thiz: &str, tft: &str) -> Vec<Built> {
    use payload::{integer, string};
    vec![
        // Fixed menus go as the choice index: 0 is thiz, 1 tft.
        sub(
            player,
            "character",
            "create",
            vec![string("name", thiz), integer("system", 0)],
        ),
        sub(
            player,
            "character",
            "skill",
            vec![
                string("name", thiz),
                string("skill", "Swimming"),
                integer("rating", 4),
            ],
        ),
        sub(
            player,
            "character",
            "create",
            vec![string("name", tft), integer("system", 1)],
        ),
        sub(
            player,
            "character",
            "set",
            vec![
                string("name", tft),
                string("field", "st"),
                string("value", "12"),
            ],
        ),
        sub(
            &Caller::gm(GM),
            "luck",
            "set",
            vec![string("character", thiz), integer("points", 999)],
        ),
    ]
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

/// The counters a phase reads before and after it, and reports the difference of.
#[derive(Clone, Copy, Default)]
struct Counters {
    /// CPU time of all the bot processes.
    bot_cpu: Duration,
    /// `(wchar, write_bytes)` of all the bot processes (see [`proc_io`]).
    io: (u64, u64),
    /// CPU of this process: the fake Discord and the dispatcher.
    fake_cpu: Duration,
    /// CPU time the hypervisor gave to others (see [`steal`]).
    steal: Duration,
    /// PostgreSQL only: the server's CPU time (see [`postgres_cpu`]) and WAL.
    server_cpu: Duration,
    wal: Wal,
}

impl Counters {
    fn read(rig: &Rig) -> Self {
        let mut c = Self {
            fake_cpu: proc_stats(std::process::id()).2,
            steal: steal(),
            ..Self::default()
        };
        for bot in &rig.bots {
            c.bot_cpu += proc_stats(bot.pid()).2;
            let (wchar, write_bytes) = proc_io(bot.pid());
            c.io.0 += wchar;
            c.io.1 += write_bytes;
        }
        if let Some(wal) = rig.db.wal() {
            c.server_cpu = postgres_cpu();
            c.wal = wal;
        }
        c
    }

    /// What was counted from `before` to `self`.
    fn since(self, before: Self) -> Self {
        Self {
            bot_cpu: self.bot_cpu.saturating_sub(before.bot_cpu),
            io: (
                self.io.0.saturating_sub(before.io.0),
                self.io.1.saturating_sub(before.io.1),
            ),
            fake_cpu: self.fake_cpu.saturating_sub(before.fake_cpu),
            steal: self.steal.saturating_sub(before.steal),
            server_cpu: self.server_cpu.saturating_sub(before.server_cpu),
            wal: Wal {
                stat: self.wal.stat.saturating_sub(before.wal.stat),
                insert: self.wal.insert.saturating_sub(before.wal.insert),
            },
        }
    }
}

struct Outcome {
    rate: u64,
    sent: usize,
    /// The CPU time of each bot process (referee's, or the floor).
    cpus: Vec<Duration>,
    /// On PostgreSQL (the WAL and server CPU figures mean something).
    postgres: bool,
    achieved: f64,
    p50: Duration,
    p99: Duration,
    max: Duration,
    errors: usize,
    /// Interactions that got a callback, and those of them that were "busy".
    answered: usize,
    busy: usize,
    /// Other answers that were a refusal rather than a result (should be none), and one of them.
    refused: usize,
    sample_refusal: String,
    /// The counters over the phase; `wal.stat` read once the bots had disconnected.
    delta: Counters,
    /// The rate the dispatcher kept up.
    dispatched: f64,
    /// From the first dispatch to the last answer (or the last dispatch, if later).
    span: Duration,
    /// The slowest interaction's wait, and the steal during it (plus 10 ms either side, the
    /// sampling step).
    worst: (Duration, Duration),
    /// The machine's stalls while the phase ran (see [`Stalls`]).
    stalls: Stalls,
    /// The CPU the machine had to spare meanwhile (see [`Spare`]).
    spare: Spare,
    /// The largest peak resident memory of the bot processes.
    peak_rss_kb: u64,
    /// How many warning lines the bots logged, and the first kinds of them.
    warnings: String,
    /// Rows the phase added to the roll log.
    logged: u64,
    /// Every answered interaction's latency, sorted (the tail's rounds pool them).
    latencies: Vec<Duration>,
}

impl Outcome {
    /// The bots' CPU time per interaction sent (µs).
    fn cpu_per(&self) -> f64 {
        1e6 * self.delta.bot_cpu.as_secs_f64() / self.sent.max(1) as f64
    }

    /// The database server's CPU time per interaction sent (µs).
    fn server_cpu_per(&self) -> f64 {
        1e6 * self.delta.server_cpu.as_secs_f64() / self.sent.max(1) as f64
    }

    /// Logged rolls per second of the phase.
    fn writes_per_sec(&self) -> f64 {
        self.logged as f64 / self.span.as_secs_f64().max(1e-9)
    }

    /// `bytes` per logged roll.
    fn per_roll(&self, bytes: u64) -> f64 {
        bytes as f64 / self.logged.max(1) as f64
    }
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
        // The door's report of its drops (at most one line a second) counts each drop.
        if let (Some(waiting), Some(full)) =
            (field(rest, "events_waiting"), field(rest, "in_flight"))
        {
            *counts
                .entry("dropped at the door: too many events waiting".into())
                .or_default() += waiting;
            *counts
                .entry("dropped at the door: too many interactions in flight and waiting".into())
                .or_default() += full;
            continue;
        }
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
        .filter(|(_, n)| *n > 0)
        .take(4)
        .map(|(m, n)| format!("{n} × {m:?}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The number after `name=` in a log line, if there is one.
fn field(line: &str, name: &str) -> Option<usize> {
    let at = line.find(&format!("{name}="))? + name.len() + 1;
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
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
    /// Answers that said the bot or the database was busy.
    busy: usize,
    /// Other answers that were a refusal rather than a result (should be none), and one of them.
    refused: usize,
    sample_refusal: String,
    /// The last arrival.
    last: Option<Instant>,
}

fn answers(requests: &[fake::Request]) -> Answers {
    let mut out = Answers {
        by_id: HashMap::new(),
        busy: 0,
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
        if content == referee::bot::workers::BUSY || content == referee::app::BUSY {
            out.busy += 1;
        } else if data.is_some_and(|d| d["embeds"].as_array().is_none_or(Vec::is_empty)) {
            // Every command of the mix answers with an embed; a bare ephemeral text is a refusal.
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

/// What a phase sent: the interaction ids in order, when it began, how long the sending took,
/// and where the phase's requests begin in the fake's record.
struct Sent {
    ids: Vec<u64>,
    start: Instant,
    elapsed: Duration,
    first_request: usize,
    first_dispatch: usize,
}

/// Dispatches `rate` interactions per second for `secs` seconds, open-loop, each on its guild's
/// shard.
fn send(rig: &Rig, rate: u64, secs: u64) -> Sent {
    let texts: Vec<(u32, String)> = rig
        .templates
        .iter()
        .map(|t| (shard_of(t, rig.shards), text_template(t)))
        .collect();
    let total = (rate * secs) as usize;
    let interval = Duration::from_secs_f64(1.0 / rate as f64);
    let first_request = rig.fake.request_count();
    let first_dispatch = rig.fake.dispatch_count();
    let start = Instant::now();
    let mut ids = Vec::with_capacity(total);
    for n in 0..total {
        let due = start + interval * n as u32;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        }
        let (shard, template) = &texts[n % texts.len()];
        let (id, text) = fresh(template);
        ids.push(id);
        rig.fake.dispatch_text_to_shard(*shard, id, text);
    }
    Sent {
        ids,
        start,
        elapsed: start.elapsed(),
        first_request,
        first_dispatch,
    }
}

/// The latencies of what was sent (sorted), how many failed (no answer, or "Something went
/// wrong"), the slowest wait with the steal during it, and the answers.
fn latencies(
    rig: &Rig,
    sent: &Sent,
    steal_samples: &[(Instant, Duration)],
) -> (Vec<Duration>, usize, (Duration, Duration), Answers) {
    let requests = rig.fake.requests_from(sent.first_request);
    let flushed: HashMap<u64, Instant> = rig
        .fake
        .dispatches_from(sent.first_dispatch)
        .into_iter()
        .map(|d| (d.interaction_id, d.flushed_at))
        .collect();
    let answers = answers(&requests);
    let mut latencies = Vec::with_capacity(sent.ids.len());
    let mut errors = 0;
    let mut worst = (Duration::ZERO, Duration::ZERO);
    let step = SAMPLE_STEP;
    for id in &sent.ids {
        match (flushed.get(id), answers.by_id.get(id)) {
            (Some(at_sent), Some((at, failed))) => {
                let latency = at.saturating_duration_since(*at_sent);
                if latency > worst.0 {
                    let from = at_sent.checked_sub(step).unwrap_or(*at_sent);
                    worst = (latency, steal_between(steal_samples, from, *at + step));
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
        write_timeline(&path, sent.start, &sent.ids, &flushed, &answers.by_id);
    }
    latencies.sort_unstable();
    (latencies, errors, worst, answers)
}

/// Runs `rig`'s load at `rate` per second for `secs` seconds, open-loop, then stops its bots
/// and collects.
fn phase(mut rig: Rig, rate: u64, secs: u64) -> Outcome {
    measure(&mut rig, rate, secs, true)
}

/// Runs `rig`'s load at `rate` per second for `secs` seconds, open-loop, and collects; stops
/// its bots first if `stop` (else they run on, for the next slice of an interleaved tail).
fn measure(rig: &mut Rig, rate: u64, secs: u64, stop: bool) -> Outcome {
    let logged_before = rig.db.logged_rolls();
    let cpus_before = rig.cpus();
    let before = Counters::read(rig);
    let sampler = StealSampler::start();
    let sent = send(rig, rate, secs);
    wait_for_answers(rig, sent.first_request, sent.ids.len());
    // Counters are read before the record is copied out for the analysis, which is not the
    // fake's.
    let mut delta = Counters::read(rig).since(before);
    let cpus = rig
        .cpus()
        .iter()
        .zip(cpus_before)
        .map(|(after, before)| after.saturating_sub(before))
        .collect();
    let peak_rss_kb = rig
        .bots
        .iter()
        .map(|b| proc_stats(b.pid()).1)
        .max()
        .unwrap_or(0);
    let (steal_samples, stalls, spare) = sampler.finish();
    let logged = rig.db.logged_rolls().saturating_sub(logged_before);
    let warnings = warnings(&rig.stderr());
    if stop {
        rig.stop();
    }
    if let Some(wal) = rig.db.wal() {
        delta.wal.stat = wal.stat.saturating_sub(before.wal.stat);
    }
    let (latencies, errors, worst, answers) = latencies(rig, &sent, &steal_samples);
    let last = answers.last.unwrap_or(sent.start).max(sent.start);
    let span = last.saturating_duration_since(sent.start).max(sent.elapsed);
    Outcome {
        rate,
        sent: sent.ids.len(),
        cpus,
        postgres: matches!(rig.db, Database::Postgres(_)),
        achieved: latencies.len() as f64 / span.as_secs_f64(),
        p50: percentile(&latencies, 50.0),
        p99: percentile(&latencies, 99.0),
        max: latencies.last().copied().unwrap_or_default(),
        errors,
        answered: latencies.len(),
        busy: answers.busy,
        refused: answers.refused,
        sample_refusal: answers.sample_refusal,
        delta,
        dispatched: sent.ids.len() as f64 / sent.elapsed.as_secs_f64(),
        span,
        worst,
        stalls,
        spare,
        peak_rss_kb,
        warnings,
        logged,
        latencies,
    }
}
/// `REFEREE_LOAD_TIMELINE`: one line per interaction, appended to `path` — when it was flushed
/// (ms since the phase began) and its latency (ms, empty if unanswered) — to see when in a phase
/// the slow ones came, after a line `# began N µs after the Unix epoch` (to line the phase up
/// with what the bot logged at the same time).
fn write_timeline(
    path: &std::ffi::OsStr,
    start: Instant,
    ids: &[u64],
    flushed: &HashMap<u64, Instant>,
    answered: &HashMap<u64, (Instant, bool)>,
) {
    use std::fmt::Write as _;
    let mut text = String::new();
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .saturating_sub(start.elapsed());
    let _ = writeln!(text, "# began {} µs after the Unix epoch", unix.as_micros());
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
    let processes = if o.cpus.len() > 1 {
        let each: Vec<String> = o.cpus.iter().map(|c| format!("{c:.2?}")).collect();
        format!(" ({} processes: {})", o.cpus.len(), each.join(", "))
    } else {
        String::new()
    };
    println!(
        "{:>6}/s for {secs:>2} s: sent {:>6}, answered {:>8.0}/s, p50 {:>9.3?}, p99 {:>9.3?}, max {:>9.3?}, errors {:>5}, bot CPU{processes} {:>7.2?} ({:>4.0}% of one core, {:>4.0} µs per interaction), peak RSS {:>6} kB",
        o.rate,
        o.sent,
        o.achieved,
        o.p50,
        o.p99,
        o.max,
        o.errors,
        o.delta.bot_cpu,
        100.0 * o.delta.bot_cpu.as_secs_f64() / secs as f64,
        o.cpu_per(),
        o.peak_rss_kb
    );
    println!(
        "        dispatched {:.0}/s; fake + dispatcher CPU {:.2?}; stolen by the hypervisor {:.2?}, of which {:.2?} while the slowest interaction ({:.2?}) waited; CPUs stalled {} times (a pinned thread's {:?} sleep more than {:?} late: {:.2?} in all, longest {:.2?}); the machine idle {:.0}% of the time, under {:.0}% in {} of {} spans of {:?}",
        o.dispatched,
        o.delta.fake_cpu,
        o.delta.steal,
        o.worst.1,
        o.worst.0,
        o.stalls.count,
        SAMPLE_STEP,
        STALL_OVER,
        o.stalls.total,
        o.stalls.longest,
        100.0 * o.spare.idle_share,
        100.0 * BUSY_IDLE,
        o.spare.busy_windows,
        o.spare.windows,
        BUSY_WINDOW
    );
    if o.answered < o.sent || o.busy > 0 {
        println!(
            "        answered {} of {} ({} of them busy), {} unanswered",
            o.answered,
            o.sent,
            o.busy,
            o.sent - o.answered
        );
    }
    if o.postgres {
        println!(
            "        logged {} rolls ({:.0} writes/s); WAL {:.0} B per logged roll (pg_stat_wal; the insert position moved {:.0} B per logged roll); database server CPU {:.2?} ({:.0}% of one core, {:.0} µs per interaction)",
            o.logged,
            o.writes_per_sec(),
            o.per_roll(o.delta.wal.stat),
            o.per_roll(o.delta.wal.insert),
            o.delta.server_cpu,
            100.0 * o.delta.server_cpu.as_secs_f64() / secs as f64,
            o.server_cpu_per()
        );
    } else if o.logged > 0 {
        let (wchar, write_bytes) = o.delta.io;
        println!(
            "        logged {} rolls ({:.0} writes/s); wrote {wchar} B ({:.0} B per logged roll) through write(2), {write_bytes} B ({:.0} B per logged roll) to the block layer",
            o.logged,
            o.writes_per_sec(),
            o.per_roll(wchar),
            o.per_roll(write_bytes)
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

/// The tail phase over its rounds (`REFEREE_LOAD_TAIL_ROUNDS`): each round's outcomes, referee's
/// and the floor's.
struct Tail {
    rounds: Vec<(Outcome, Outcome)>,
    /// The second referee's slice beside each round's (`REFEREE_LOAD_B_ENV`), if it ran.
    b: Vec<Outcome>,
}

impl Tail {
    /// Every latency of one bot's rounds, pooled and sorted.
    fn pooled(&self, bot: impl Fn(&(Outcome, Outcome)) -> &Outcome) -> Vec<Duration> {
        let mut all: Vec<Duration> = self
            .rounds
            .iter()
            .flat_map(|r| bot(r).latencies.iter().copied())
            .collect();
        all.sort_unstable();
        all
    }

    /// Referee's p99 over the floor's, of the pooled latencies (the goal: at most 2×).
    fn ratio(&self) -> f64 {
        p99_ratio(
            percentile(&self.pooled(|r| &r.0), 99.0),
            percentile(&self.pooled(|r| &r.1), 99.0),
        )
    }

    /// The table's rows: the last round's outcomes.
    fn last(&self) -> &(Outcome, Outcome) {
        self.rounds.last().expect("at least one round")
    }
}

/// The tail: referee's and the floor's latency at one rate, and referee's p99 over the floor's
/// (issue 33, item 5: at most 2×), each round's and, over several rounds, of all of them pooled.
fn report_tail(tail: &Tail) {
    let (referee, floor) = (tail.pooled(|r| &r.0), tail.pooled(|r| &r.1));
    let rounds = tail.rounds.len();
    let mut ratios: Vec<f64> = tail.rounds.iter().map(|(r, f)| tail_ratio(r, f)).collect();
    ratios.sort_by(f64::total_cmp);
    let (rate, pooled) = (tail.last().0.rate, if rounds > 1 { " pooled" } else { "" });
    let p99 = (percentile(&referee, 99.0), percentile(&floor, 99.0));
    println!(
        "tail at {rate}/s{pooled}: p50 {:.3?} (floor {:.3?}), p99 {:.3?} (floor {:.3?}), max {:.3?} (floor {:.3?}); referee's p99 is {:.2}× the floor's (goal ≤ 2×)",
        percentile(&referee, 50.0),
        percentile(&floor, 50.0),
        p99.0,
        p99.1,
        referee.last().copied().unwrap_or_default(),
        floor.last().copied().unwrap_or_default(),
        p99_ratio(p99.0, p99.1)
    );
    if rounds > 1 {
        let text: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "        each round's ratio, sorted: {} (median {:.2}; {} of {rounds} at most 2×)",
            text.join(", "),
            ratios[rounds / 2],
            ratios.iter().filter(|&&r| r <= 2.0).count()
        );
        let mut bots = vec![
            (
                "referee",
                tail.rounds.iter().map(|r| &r.0).collect::<Vec<_>>(),
            ),
            ("floor", tail.rounds.iter().map(|r| &r.1).collect()),
        ];
        if !tail.b.is_empty() {
            bots.push(("referee-b", tail.b.iter().collect()));
        }
        let text: Vec<String> = bots
            .iter()
            .map(|(name, outcomes)| {
                let (p50, p99, cpu) = medians(outcomes);
                format!("{name} p50 {p50:.3?}, p99 {p99:.3?}, CPU {cpu:.0} µs")
            })
            .collect();
        println!("        medians over the rounds: {}", text.join("; "));
    }
    report_b(tail, &floor);
}

/// The medians of `outcomes`' p50, p99 and CPU per interaction (µs), each over the rounds: a
/// bot's pace in a run, which a few slow rounds (a stall of the machine) do not move.
fn medians(outcomes: &[&Outcome]) -> (Duration, Duration, f64) {
    fn median<T: Copy>(mut values: Vec<T>, order: impl Fn(&T, &T) -> std::cmp::Ordering) -> T {
        values.sort_by(order);
        values[values.len() / 2]
    }
    (
        median(outcomes.iter().map(|o| o.p50).collect(), Ord::cmp),
        median(outcomes.iter().map(|o| o.p99).collect(), Ord::cmp),
        median(
            outcomes.iter().map(|o| o.cpu_per()).collect(),
            f64::total_cmp,
        ),
    )
}

/// The second referee beside the first (`REFEREE_LOAD_B_ENV`): its pooled p99 over the floor's,
/// and slice by slice over the first's (each pair adjacent in time).
fn report_b(tail: &Tail, floor: &[Duration]) {
    if tail.b.is_empty() {
        return;
    }
    let mut b: Vec<Duration> = tail
        .b
        .iter()
        .flat_map(|o| o.latencies.iter().copied())
        .collect();
    b.sort_unstable();
    let mut over: Vec<f64> = tail
        .rounds
        .iter()
        .zip(&tail.b)
        .map(|((r, _), b)| p99_ratio(b.p99, r.p99))
        .collect();
    over.sort_by(f64::total_cmp);
    let text: Vec<String> = over.iter().map(|r| format!("{r:.2}")).collect();
    println!(
        "referee-b ({}): pooled p50 {:.3?}, p99 {:.3?}, {:.2}× the floor's; its p99 over referee's, slice by slice, sorted: {} (median {:.2}; lower in {} of {})",
        ["REFEREE_LOAD_B_ENV", "REFEREE_LOAD_B_BIN"]
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .collect::<Vec<_>>()
            .join(", "),
        percentile(&b, 50.0),
        percentile(&b, 99.0),
        p99_ratio(percentile(&b, 99.0), percentile(floor, 99.0)),
        text.join(", "),
        over[over.len() / 2],
        over.iter().filter(|&&r| r < 1.0).count(),
        over.len()
    );
}

fn tail_ratio(referee: &Outcome, floor: &Outcome) -> f64 {
    p99_ratio(referee.p99, floor.p99)
}

/// Referee's p99 over the floor's.
fn p99_ratio(referee: Duration, floor: Duration) -> f64 {
    referee.as_secs_f64() / floor.as_secs_f64().max(1e-9)
}

fn mib(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

/// Overload (issue 33, item 6): memory stays bounded and the excess is turned away. Latency and
/// errors past saturation are expected.
fn report_overload(o: &Outcome) {
    let per = if o.cpus.len() > 1 {
        " in the largest process"
    } else {
        ""
    };
    println!(
        "overload at {}/s: peak RSS {:.1} MiB{per} (goal < 64 MiB); of {} sent, {} answered ({} of them busy), {} unanswered — slow answers and errors past saturation are expected",
        o.rate,
        mib(o.peak_rss_kb),
        o.sent,
        o.answered,
        o.busy,
        o.sent - o.answered
    );
}

/// Fresh bots' resident memory 2 s after they are connected and registered (kB), printed with
/// where it is; returns the largest.
fn idle(which: Bot, setup: Setup, name: &str) -> u64 {
    let which_bot = which;
    let rig = start_bots(which, setup);
    std::thread::sleep(Duration::from_secs(2));
    let mut largest = 0;
    for (i, bot) in rig.bots.iter().enumerate() {
        let (rss, hwm, cpu) = proc_stats(bot.pid());
        let which = if rig.bots.len() > 1 {
            format!("{name} process {i} of {}", rig.bots.len())
        } else {
            name.to_owned()
        };
        println!(
            "idle {which} (connected, commands registered, 2 s later): RSS {rss} kB, peak {hwm} kB, CPU so far {cpu:?}"
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
        if matches!(which_bot, Bot::Referee) {
            layout_covers_start_up(bot.pid());
        }
        largest = largest.max(rss);
    }
    largest
}

/// The most of the binary's code (kB) an idle referee may keep resident outside the start-up
/// layout's packed section (`link/startup-functions.txt`, `build.rs`). Start-up code that the list
/// no longer names is scattered over the rest of the code, and the kernel maps 64 KB windows
/// around each page it touches: on 2026-12-08 a stale list left 5,892 kB there, the list made
/// again 184–248 kB.
const IDLE_CODE_OUTSIDE_LAYOUT_KB: u64 = 1024;

/// Fails the run when the idle bot's resident code outside the packed start-up section exceeds
/// [`IDLE_CODE_OUTSIDE_LAYOUT_KB`]: the list must be made again (`bash
/// scripts/startup-order.sh`). Measured (the pages present, `/proc/PID/pagemap`), not timed. A
/// build without the layout (REFEREE_STARTUP_LAYOUT=off, or a bot under a wrapping tool) is only
/// reported.
fn layout_covers_start_up(pid: u32) {
    let Some((inside, outside)) = load_proc::resident_code(pid) else {
        println!(
            "        resident code: the start-up layout's section was not found (a build without it)"
        );
        return;
    };
    println!(
        "        resident code: {inside} kB in the start-up layout's section, {outside} kB in the rest (at most {IDLE_CODE_OUTSIDE_LAYOUT_KB} kB)"
    );
    if std::env::var_os("REFEREE_LOAD_WRAP").is_none() {
        assert!(
            outside <= IDLE_CODE_OUTSIDE_LAYOUT_KB,
            "idle referee keeps {outside} kB of code resident outside its start-up layout (at most {IDLE_CODE_OUTSIDE_LAYOUT_KB} kB): the list no longer covers what start-up runs; run bash scripts/startup-order.sh"
        );
    }
}

/// Everything the full run measures, for the table.
struct Results {
    /// Idle RSS (kB): referee (its largest process) and the floor.
    idle: (u64, u64),
    roll: Outcome,
    roll_floor: Outcome,
    mixed: Outcome,
    tail: Tail,
    overload: Outcome,
}

/// One row of the table for `store`; `ratio` is the CPU per interaction over the floor's.
fn row(store: Store, (phase, bot): (&str, &str), o: &Outcome, ratio: Option<f64>) {
    let store = if o.postgres {
        format!(
            "{:.0} B ({:.0} B) | {:.0} µs",
            o.per_roll(o.delta.wal.stat),
            o.per_roll(o.delta.wal.insert),
            o.server_cpu_per()
        )
    } else if store == Store::Postgres {
        // The floor, in a table with two columns for PostgreSQL.
        " | ".to_owned()
    } else if o.logged > 0 {
        format!(
            "{:.0} B ({:.0} B)",
            o.per_roll(o.delta.io.1),
            o.per_roll(o.delta.io.0)
        )
    } else {
        String::new()
    };
    let writes = if o.logged > 0 {
        format!("{:.0}", o.writes_per_sec())
    } else {
        String::new()
    };
    println!(
        "| {phase} | {bot} | {} | {:.0} | {:.2?} | {:.2?} | {:.2?} | {} | {} | {:.0} µs | {} | {} kB | {writes} | {store} |",
        o.rate,
        o.achieved,
        o.p50,
        o.p99,
        o.max,
        o.errors,
        o.busy,
        o.cpu_per(),
        ratio.map_or(String::new(), |r| format!("{r:.2}")),
        o.peak_rss_kb,
    );
}

/// The issues' table (issue 18, item 6; issue 33, items 5 and 6), in Markdown.
fn print_table(r: &Results, setup: Setup) {
    let (idle_referee, idle_floor) = r.idle;
    let (store, empty) = match setup.store {
        Store::Sqlite => (
            "written to disk per logged roll (and every write(2), sockets too) |",
            "|",
        ),
        Store::Postgres => (
            "WAL per logged roll, pg_stat_wal (insert position) | database server CPU per interaction |",
            "| |",
        ),
    };
    println!();
    println!(
        "| phase | bot | sent/s | answered/s | p50 | p99 | max | errors | busy | CPU per interaction | × floor | peak RSS | writes/s | {store}"
    );
    println!(
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|{}",
        if setup.store == Store::Postgres {
            "---|"
        } else {
            ""
        }
    );
    println!("| idle | referee | | | | | | | | | | {idle_referee} kB | | {empty}");
    println!("| idle | floor | | | | | | | | | | {idle_floor} kB | | {empty}");
    let ratio = |o: &Outcome, floor: &Outcome| Some(o.cpu_per() / floor.cpu_per().max(1e-9));
    let row = |name, o, ratio| row(setup.store, name, o, ratio);
    row(("/roll", "referee"), &r.roll, ratio(&r.roll, &r.roll_floor));
    row(("/roll", "floor"), &r.roll_floor, None);
    row(("mixed", "referee"), &r.mixed, None);
    let (tail, tail_floor) = r.tail.last();
    row(("tail /roll", "referee"), tail, ratio(tail, tail_floor));
    row(("tail /roll", "floor"), tail_floor, None);
    row(("overload /roll", "referee"), &r.overload, None);
    println!(
        "\ntail: referee's p99 is {:.2}× the floor's (goal ≤ 2×); overload: peak RSS {:.1} MiB (goal < 64 MiB), {} of {} answered, {} busy",
        r.tail.ratio(),
        mib(r.overload.peak_rss_kb),
        r.overload.answered,
        r.overload.sent,
        r.overload.busy
    );
}

/// What a run does: the environment, read once.
struct Settings {
    secs: u64,
    roll_rate: u64,
    mix_rate: u64,
    tail_rate: u64,
    tail_rounds: u64,
    /// `REFEREE_LOAD_TAIL_SLICES`: the tail's slices per bot, interleaved (0: rounds).
    tail_slices: u64,
    overload_rate: u64,
    rates: Vec<u64>,
    search: Vec<u64>,
    setup: Setup,
}

impl Settings {
    fn from_env(setup: Setup) -> Self {
        let first =
            |name: &str, default: &str| env_list(name, default).first().copied().unwrap_or(0);
        Self {
            secs: first("REFEREE_LOAD_SECS", "20"),
            roll_rate: first("REFEREE_LOAD_ROLL_RATE", "10000"),
            mix_rate: first("REFEREE_LOAD_MIX_RATE", "5000"),
            tail_rate: first("REFEREE_LOAD_TAIL_RATE", "5000"),
            tail_rounds: first("REFEREE_LOAD_TAIL_ROUNDS", "4").max(1),
            tail_slices: first("REFEREE_LOAD_TAIL_SLICES", "0"),
            overload_rate: first("REFEREE_LOAD_OVERLOAD_RATE", "16000"),
            rates: env_list("REFEREE_LOAD_RATES", ""),
            search: env_list("REFEREE_LOAD_SEARCH", ""),
            setup,
        }
    }

    /// A phase of `load` at `rate` for `bot`, on a rig of its own.
    fn run(&self, bot: Bot, load: Load, rate: u64) -> Outcome {
        self.run_for(bot, load, rate, self.secs)
    }

    fn run_for(&self, bot: Bot, load: Load, rate: u64, secs: u64) -> Outcome {
        phase(Rig::start(bot, load, self.setup), rate, secs)
    }
}

/// `REFEREE_LOAD_PHASES=idle,roll,floor,mix,tail,overload` (some of them, say to profile one):
/// those phases only, without the table.
fn run_listed(s: &Settings, phases: &str) {
    let wanted = |p: &str| phases.split(',').any(|x| x.trim() == p);
    let secs = s.secs;
    if wanted("idle") {
        idle(Bot::Referee, s.setup, "referee");
        idle(Bot::Floor, s.setup, "floor");
    }
    for (name, bot, load, rate) in [
        ("roll", Bot::Referee, Load::Rolls, s.roll_rate),
        ("floor", Bot::Floor, Load::Rolls, s.roll_rate),
        ("mix", Bot::Referee, Load::Mixed, s.mix_rate),
    ] {
        if wanted(name) {
            print!("{name:<7} ");
            report(&s.run(bot, load, rate), secs);
        }
    }
    if wanted("tail") {
        report_tail(&tail(s));
    }
    if wanted("overload") {
        overload(s);
    }
}

/// The tail phase: `/roll` at the tail rate for referee and the floor, each reported, for
/// `tail_rounds` rounds. Odd rounds run the floor first (referee, floor, floor, referee, …), so
/// a machine that grows busier or quieter over the run weighs on both alike.
fn tail(s: &Settings) -> Tail {
    if s.tail_slices > 0 {
        return tail_slices(s);
    }
    println!(
        "the tail, /roll alone at {}/s ({} round{}):",
        s.tail_rate,
        s.tail_rounds,
        if s.tail_rounds == 1 { "" } else { "s" }
    );
    let one = |bot: Bot, name: &str| {
        let outcome = s.run(bot, Load::Rolls, s.tail_rate);
        print!("{name:<7} ");
        report(&outcome, s.secs);
        outcome
    };
    let rounds = (0..s.tail_rounds)
        .map(|round| {
            in_turn(
                round,
                || one(Bot::Referee, "referee"),
                || one(Bot::Floor, "floor"),
            )
        })
        .collect();
    Tail {
        rounds,
        b: Vec::new(),
    }
}

/// Round (or slice) `n` of the tail: referee's outcome and the floor's, the floor going first in
/// odd ones (referee, floor, floor, referee, …), so a machine that grows busier or quieter
/// weighs on both alike.
fn in_turn(
    n: u64,
    mut referee: impl FnMut() -> Outcome,
    mut floor: impl FnMut() -> Outcome,
) -> (Outcome, Outcome) {
    if n.is_multiple_of(2) {
        let r = referee();
        (r, floor())
    } else {
        let f = floor();
        (referee(), f)
    }
}

/// The tail in interleaved slices (`REFEREE_LOAD_TAIL_SLICES`): both bots start once, each on
/// a fake of its own, and run side by side, idle but for the slice of load each takes in turn
/// (referee, floor, floor, referee, …), `REFEREE_LOAD_SECS` seconds each. So a stall of the
/// machine (a hypervisor's steal lasts from tens of milliseconds to a second here) falls on
/// either bot alike over many short slices, where a round of fresh bots gives each bot a few
/// long stretches. Each bot first takes one slice that is not counted (its connections, caches
/// and threads warm up). Each pair of slices is reported, and pooled, as the rounds are.
fn tail_slices(s: &Settings) -> Tail {
    println!(
        "the tail, /roll alone at {}/s ({} interleaved slices of {} s per bot, after one not counted):",
        s.tail_rate, s.tail_slices, s.secs
    );
    let mut referee = Rig::start(Bot::Referee, Load::Rolls, s.setup);
    let mut floor = Rig::start(Bot::Floor, Load::Rolls, s.setup);
    let mut b = with_b().then(|| Rig::start(Bot::RefereeB, Load::Rolls, s.setup));
    // A slice not counted is still written to `REFEREE_LOAD_TIMELINE`, first for each bot.
    let slice = |rig: &mut Rig, name: &str, counted: bool| {
        let outcome = measure(rig, s.tail_rate, s.secs, false);
        if counted {
            print!("{name:<7} ");
            report(&outcome, s.secs);
        }
        outcome
    };
    slice(&mut referee, "referee", false);
    slice(&mut floor, "floor", false);
    if let Some(b) = b.as_mut() {
        slice(b, "referee-b", false);
    }
    let mut b_slices = Vec::new();
    let rounds = (0..s.tail_slices)
        .map(|n| {
            // The second referee, if any, runs between the first and the floor, before the
            // first in odd slices: each of its slices lies beside one of the first's.
            let mut beside = |first: bool| {
                if let Some(b) = b.as_mut()
                    && first == n.is_multiple_of(2)
                {
                    b_slices.push(slice(b, "referee-b", true));
                }
            };
            in_turn(
                n,
                || {
                    beside(false);
                    let r = slice(&mut referee, "referee", true);
                    beside(true);
                    r
                },
                || slice(&mut floor, "floor", true),
            )
        })
        .collect();
    referee.stop();
    floor.stop();
    if let Some(b) = b.as_mut() {
        b.stop();
    }
    Tail {
        rounds,
        b: b_slices,
    }
}

/// The overload phase: `/roll` at the overload rate for referee, reported.
fn overload(s: &Settings) -> Outcome {
    println!("overload, /roll alone at {}/s:", s.overload_rate);
    let o = s.run(Bot::Referee, Load::Rolls, s.overload_rate);
    print!("referee ");
    report(&o, s.secs);
    report_overload(&o);
    o
}

/// Every phase, the table, then `REFEREE_LOAD_RATES` and `REFEREE_LOAD_SEARCH`.
fn run_full(s: &Settings) {
    let secs = s.secs;
    let idle_referee = idle(Bot::Referee, s.setup, "referee");
    let idle_floor = idle(Bot::Floor, s.setup, "floor");

    println!("/roll alone:");
    let roll = s.run(Bot::Referee, Load::Rolls, s.roll_rate);
    print!("referee ");
    report(&roll, secs);
    let roll_floor = s.run(Bot::Floor, Load::Rolls, s.roll_rate);
    print!("floor   ");
    report(&roll_floor, secs);

    println!("the mix:");
    let mixed = s.run(Bot::Referee, Load::Mixed, s.mix_rate);
    print!("referee ");
    report(&mixed, secs);

    let tail = tail(s);
    report_tail(&tail);
    let overload = overload(s);

    let results = Results {
        idle: (idle_referee, idle_floor),
        roll,
        roll_floor,
        mixed,
        tail,
        overload,
    };
    print_table(&results, s.setup);

    for &rate in &s.rates {
        report(&s.run(Bot::Referee, Load::Mixed, rate), secs);
    }
    if !s.search.is_empty() {
        search(s);
    }
}

/// `REFEREE_LOAD_SEARCH`: the highest of the mixed rates listed that keeps p99 under 50 ms with
/// no error (10 s each, in the order given, stopping at the first that does not).
fn search(s: &Settings) {
    println!("highest mixed rate with p99 under 50 ms (10 s each):");
    let mut best = None;
    for &rate in &s.search {
        let o = s.run_for(Bot::Referee, Load::Mixed, rate, 10);
        report(&o, 10);
        if o.p99 < Duration::from_millis(50) && o.errors == 0 && o.achieved >= 0.95 * rate as f64 {
            best = Some(rate);
        } else {
            break;
        }
    }
    match best {
        Some(rate) => println!("highest sustained rate with p99 < 50 ms and no error: {rate}/s"),
        None => println!("no rate tried kept p99 under 50 ms"),
    }
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
    let setup = Setup::from_env().unwrap_or_else(|e| {
        eprintln!("bot_load: {e}");
        std::process::exit(2);
    });
    let settings = Settings::from_env(setup);
    println!(
        "referee on {}, {} process{}{}",
        setup.store.name(),
        setup.processes,
        if setup.processes == 1 { "" } else { "es" },
        if setup.processes > 1 {
            format!(
                ", process i running shard i of {0}, the load from {0} guilds (one per shard)",
                setup.processes
            )
        } else {
            String::new()
        }
    );
    match std::env::var("REFEREE_LOAD_PHASES") {
        Ok(phases) => run_listed(&settings, &phases),
        Err(_) => run_full(&settings),
    }
}
