//! Shards, end to end: a process runs exactly the shards its configuration names (the last one
//! included), only the process holding shard 0 registers the commands, and two processes on one
//! database answer every guild's interactions, each on the shard Discord routes it to.

use serde_json::Value;

use crate::fake::payload::{self, Caller};
use crate::fake::process::{BotOptions, BotProcess};
use crate::fake::{FakeDiscord, Request, TIMEOUT};

/// Two serenity shards in one process start 5 seconds apart.
const SHARD_START: std::time::Duration = std::time::Duration::from_secs(30);

/// A guild id that Discord routes to `shard` of `total`.
fn guild_on(shard: u32, total: u32) -> u64 {
    (1u64..1000)
        .map(|k| (k << 22) | 1)
        .find(|g| FakeDiscord::shard_of(*g, total) == shard)
        .expect("a guild on every shard")
}

/// A `/roll` in `guild`.
fn roll_in(guild: u64) -> payload::Built {
    let mut built = payload::command(
        &Caller::player(10),
        "roll",
        vec![payload::string("expression", "2d6")],
        Value::Null,
    );
    built.json["guild_id"] = Value::String(guild.to_string());
    built
}

fn registrations(fake: &FakeDiscord) -> usize {
    fake.count_requests(0, |r: &Request| {
        r.method == "PUT" && r.path.ends_with("/commands")
    })
}

fn bot(fake: &FakeDiscord, dir: &std::path::Path, name: &str, shards: &str) -> BotProcess {
    let mut options = BotOptions::new(fake, dir);
    options.config_name = format!("{name}.toml");
    options.discord_extra = format!("shards = {shards}\n");
    BotProcess::spawn(&options)
}

#[test]
fn a_process_runs_its_range_with_the_last_shard_and_leaves_registration_to_shard_zero() {
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut bot = bot(&fake, dir.path(), "b", "{ total = 3, first = 1, last = 2 }");
    fake.wait_shards(&[1, 2], SHARD_START);
    let mut shards: Vec<(u32, u32)> = fake.identified().iter().map(|(_, s, t)| (*s, *t)).collect();
    shards.sort_unstable();
    assert_eq!(shards, vec![(1, 3), (2, 3)], "exactly shards 1 and 2 of 3");
    for shard in [1, 2] {
        let roll = roll_in(guild_on(shard, 3));
        fake.dispatch_routed(&roll, 3);
        let answer = fake.callback_for(roll.id);
        assert_eq!(
            answer.body()["type"],
            4,
            "shard {shard}: {:?}",
            answer.body()
        );
    }
    assert_eq!(
        registrations(&fake),
        0,
        "shard 0 is elsewhere: no registration here"
    );
    assert!(bot.terminate(TIMEOUT).success());
}

#[test]
fn two_processes_on_one_database_answer_every_guild_once() {
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut first = bot(&fake, dir.path(), "a", "{ total = 3, first = 0, last = 0 }");
    let mut rest = bot(&fake, dir.path(), "b", "{ total = 3, first = 1, last = 2 }");
    fake.wait_shards(&[0, 1, 2], SHARD_START);
    let rolls: Vec<_> = (0..9).map(|i| roll_in(guild_on(i % 3, 3))).collect();
    for roll in &rolls {
        fake.dispatch_routed(roll, 3);
    }
    for roll in &rolls {
        let answer = fake.callback_for(roll.id);
        assert_eq!(answer.body()["type"], 4, "{:?}", answer.body());
        let callbacks = fake.count_requests(0, |r| r.is_callback_of(roll.id));
        assert_eq!(callbacks, 1, "interaction {} answered once", roll.id);
    }
    assert_eq!(
        registrations(&fake),
        1,
        "only the process holding shard 0 registers"
    );
    assert!(first.terminate(TIMEOUT).success());
    assert!(rest.terminate(TIMEOUT).success());
}

#[test]
fn auto_runs_the_shards_discord_recommends() {
    let fake = FakeDiscord::start();
    fake.recommend_shards(2);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut bot = bot(&fake, dir.path(), "auto", "\"auto\"");
    fake.wait_shards(&[0, 1], SHARD_START);
    let mut shards: Vec<(u32, u32)> = fake.identified().iter().map(|(_, s, t)| (*s, *t)).collect();
    shards.sort_unstable();
    assert_eq!(shards, vec![(0, 2), (1, 2)]);
    let roll = roll_in(guild_on(1, 2));
    fake.dispatch_routed(&roll, 2);
    assert_eq!(fake.callback_for(roll.id).body()["type"], 4);
    assert_eq!(
        registrations(&fake),
        1,
        "auto holds shard 0, so it registers"
    );
    assert!(bot.terminate(TIMEOUT).success());
}

/// A bot on PostgreSQL database `url`, running `shards`.
fn pg_bot(
    fake: &FakeDiscord,
    dir: &std::path::Path,
    name: &str,
    shards: &str,
    url: &str,
) -> BotProcess {
    let mut options = BotOptions::new(fake, dir);
    options.config_name = format!("{name}.toml");
    options.discord_extra = format!("shards = {shards}\n");
    options
        .env
        .push(("REFEREE_DATABASE_URL".into(), url.to_owned()));
    options.log = "referee=info,warn".into();
    BotProcess::spawn(&options)
}

/// Every roll in `rolls` answered exactly once, with a roll (not a refusal).
fn answered_once(fake: &FakeDiscord, rolls: &[payload::Built]) {
    for roll in rolls {
        let answer = fake.callback_for(roll.id);
        assert_eq!(answer.body()["type"], 4, "{:?}", answer.body());
        let text = answer.body().to_string();
        assert!(text.contains("Roll #"), "{text}");
        assert_eq!(
            fake.count_requests(0, |r| r.is_callback_of(roll.id)),
            1,
            "interaction {} answered once",
            roll.id
        );
    }
}

/// Three processes on disjoint shard ranges over one PostgreSQL database: they take turns to
/// IDENTIFY (the fake's IDENTIFY times are at least Discord's 5-second window apart, whatever
/// order the processes start in), answer every guild's interactions exactly once, and when one
/// is killed with SIGKILL under load the others never stop answering; restarted, it takes its
/// shard back.
#[test]
fn three_processes_on_postgres_take_turns_to_identify_and_survive_a_kill() {
    let Some(db) = referee::store::testdb::PgTestDb::create() else {
        return; // said loudly by `create`; a failure under CI=true
    };
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let range = |i: u32| format!("{{ total = 3, first = {i}, last = {i} }}");
    let mut bots: Vec<BotProcess> = (0..3)
        .map(|i| pg_bot(&fake, dir.path(), &format!("p{i}"), &range(i), db.url()))
        .collect();
    fake.wait_shards(&[0, 1, 2], std::time::Duration::from_mins(1));
    let mut times: Vec<std::time::Instant> = fake.identified().iter().map(|(t, ..)| *t).collect();
    times.sort_unstable();
    for pair in times.windows(2) {
        let gap = pair[1] - pair[0];
        eprintln!("shards: IDENTIFY gap {:.2} s", gap.as_secs_f64());
        // Each process holds its turn until 5 s after its shard's READY, which the fake sends
        // as it answers the IDENTIFY: the next IDENTIFY cannot come sooner.
        assert!(
            gap >= std::time::Duration::from_millis(4_900),
            "two IDENTIFYs {gap:?} apart"
        );
    }
    // Shard 0's process registers once its shard is READY (checked at the end, after all the
    // traffic: only that one process ever registers).
    fake.wait_for_n(1, "the registration", TIMEOUT, |r| {
        r.method == "PUT" && r.path.ends_with("/commands")
    });

    let rolls: Vec<_> = (0..9).map(|i| roll_in(guild_on(i % 3, 3))).collect();
    for roll in &rolls {
        fake.dispatch_routed(roll, 3);
    }
    answered_once(&fake, &rolls);

    // Load on shards 0 and 2 while shard 1's process dies.
    let load: Vec<_> = (0..30)
        .map(|i| roll_in(guild_on(if i % 2 == 0 { 0 } else { 2 }, 3)))
        .collect();
    for (n, roll) in load.iter().enumerate() {
        fake.dispatch_routed(roll, 3);
        if n == 10 {
            assert!(!bots[1].kill(TIMEOUT).success(), "kill -9");
        }
    }
    answered_once(&fake, &load);

    let before = fake.identified().len();
    bots[1] = pg_bot(&fake, dir.path(), "p1", &range(1), db.url());
    fake.wait_log_identified(before + 1, std::time::Duration::from_mins(1));
    fake.wait_shards(&[1], std::time::Duration::from_mins(1));
    let back: Vec<_> = (0..3).map(|_| roll_in(guild_on(1, 3))).collect();
    for roll in &back {
        fake.dispatch_routed(roll, 3);
    }
    answered_once(&fake, &back);
    for bot in &mut bots {
        assert!(bot.terminate(TIMEOUT).success());
    }
    // The restarted process runs shard 1, not 0: it does not register either.
    assert_eq!(registrations(&fake), 1, "only shard 0's process registers");
}
