//! The bot's life against the fake: start and command registration (with a committed snapshot),
//! a rejected token, SIGTERM, and a restart on the same database.

use serde_json::Value;

use super::{GUILD_ID, Session};
use crate::fake::process::{BotOptions, BotProcess};
use crate::fake::{FakeDiscord, TIMEOUT};

const SNAPSHOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/integration/e2e/commands.snapshot.json"
);

/// Every text Discord limits, checked through options, subcommands and choices.
fn check_limits(path: &str, item: &Value, problems: &mut Vec<String>) {
    let name = item["name"].as_str().unwrap_or_default();
    let here = format!("{path} {name}");
    let valid_name = !name.is_empty()
        && name.chars().count() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid_name {
        problems.push(format!("{here}: the name is not a Discord command name"));
    }
    let description = item["description"].as_str().unwrap_or_default();
    if description.is_empty() || description.chars().count() > 100 {
        problems.push(format!(
            "{here}: the description has {} characters (1 to 100)",
            description.chars().count()
        ));
    }
    let options = item["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        problems.push(format!("{here}: {} options (at most 25)", options.len()));
    }
    // Discord refuses a required option after an optional one.
    let mut optional_seen = false;
    for option in &options {
        let required = option["required"].as_bool().unwrap_or(false);
        if required && optional_seen {
            problems.push(format!(
                "{here}: required {} after an optional option",
                option["name"]
            ));
        }
        optional_seen |= !required;
        check_limits(&here, option, problems);
    }
    let choices = item["choices"].as_array().cloned().unwrap_or_default();
    if choices.len() > 25 {
        problems.push(format!("{here}: {} choices (at most 25)", choices.len()));
    }
    for choice in &choices {
        let n = choice["name"].as_str().unwrap_or_default().chars().count();
        if n == 0 || n > 100 {
            problems.push(format!(
                "{here}: the choice {} has {n} characters",
                choice["name"]
            ));
        }
    }
}

#[test]
fn registration_fits_discords_limits_and_matches_the_snapshot() {
    let s = Session::start();
    let registration = s.registration();
    assert_eq!(
        registration.route(),
        format!(
            "/applications/{}/commands",
            crate::fake::payload::APPLICATION_ID
        ),
        "without dev_guild_id the commands are registered globally"
    );
    let commands = s.commands();
    assert!(!commands.is_empty(), "the bot registered no command");
    let mut problems = Vec::new();
    for command in commands {
        check_limits("", command, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let registered = Value::Array(commands.to_vec());
    let pretty = serde_json::to_string_pretty(&registered).expect("JSON") + "\n";
    if std::env::var_os("REFEREE_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(SNAPSHOT, &pretty).expect("write the snapshot");
        eprintln!("updated {SNAPSHOT}");
    }
    let snapshot = std::fs::read_to_string(SNAPSHOT).unwrap_or_else(|e| {
        panic!("cannot read {SNAPSHOT} ({e}); run with REFEREE_UPDATE_SNAPSHOTS=1 to write it")
    });
    let expected: Value = serde_json::from_str(&snapshot).expect("the snapshot is JSON");
    assert!(
        expected == registered,
        "the registered commands differ from {SNAPSHOT}; if the change is meant, run \
         REFEREE_UPDATE_SNAPSHOTS=1 cargo test --test integration registration and commit the \
         file.\nregistered now:\n{pretty}"
    );
}

#[test]
fn dev_guild_id_registers_the_commands_in_that_guild_only() {
    let s = Session::start_with(|o| o.dev_guild_id = Some(GUILD_ID));
    assert_eq!(
        s.registration().route(),
        format!(
            "/applications/{}/guilds/{GUILD_ID}/commands",
            crate::fake::payload::APPLICATION_ID
        )
    );
    let global = s
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT" && !r.route().contains("/guilds/"))
        .count();
    assert_eq!(global, 0, "nothing is registered globally");
    // The commands answer there as anywhere.
    let reply = s.run(&s.player(10), "/roll expression:1d2");
    assert!(reply.text().contains("Total: **"), "{}", reply.text());
}

#[test]
fn a_rejected_token_stops_the_bot_with_a_message_naming_the_token() {
    let fake = FakeDiscord::with_token("the-right-token");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut options = BotOptions::new(&fake, dir.path());
    options.token = "a-wrong-token".into();
    let mut bot = BotProcess::spawn(&options);
    let status = bot.wait_exit(TIMEOUT);
    let stderr = bot.stderr();
    assert!(
        !status.success(),
        "a rejected token must fail the start; stderr:\n{stderr}"
    );
    assert!(
        stderr.contains("DISCORD_TOKEN") && stderr.contains("401"),
        "the message names the token and the refusal:\n{stderr}"
    );
    assert!(
        !stderr.contains("a-wrong-token"),
        "the token itself never reaches the log:\n{stderr}"
    );
    let requests = fake.requests();
    assert!(
        requests.iter().all(|r| r.status == 401),
        "nothing but refused requests: {requests:?}"
    );
    assert_eq!(
        fake.identifies(),
        0,
        "no gateway session with a rejected token"
    );
}

#[test]
fn sigterm_after_a_command_exits_zero() {
    let mut s = Session::start();
    let reply = s.run(&s.player(10), "/roll expression:3d6");
    assert_eq!(reply.kind(), 4);
    let status = s.stop();
    assert!(
        status.success(),
        "SIGTERM ends the bot with status 0, got {status}; stderr:\n{}",
        s.bot().stderr()
    );
}

/// The "Roll #n" footer of a `/roll` reply.
fn roll_number(text: &str) -> u64 {
    super::roll_number_in(text).unwrap_or_else(|| panic!("no roll number in {text}"))
}

#[test]
fn a_restart_on_the_same_database_keeps_characters_and_the_roll_log() {
    let mut s = Session::start();
    let gm = s.gm(1);
    let owner = s.player(10);
    let created = s.run(&owner, "/character create name:Gala system:thiz");
    assert!(
        created.text().contains("Gala is ready"),
        "{}",
        created.text()
    );
    s.run(&owner, "/character skill name:Gala skill:Swimming rating:4");
    let before = s.run(&owner, "/check skill:Swimming character:Gala");
    assert!(
        before.text().contains("Gala: Swimming check"),
        "{}",
        before.text()
    );
    let numbered = s.run(&owner, "/roll expression:1d6");
    let last_before = roll_number(&numbered.text());

    s.restart();
    let after = s.run(&owner, "/check skill:Swimming character:Gala");
    assert!(
        after.text().contains("Gala: Swimming check"),
        "the sheet survives the restart: {}",
        after.text()
    );
    let numbered = s.run(&owner, "/roll expression:1d6");
    assert_eq!(
        roll_number(&numbered.text()),
        last_before + 2,
        "the roll log continues after the restart (a check, then this roll)"
    );
    let history = s.run(&gm, "/history").text();
    assert_eq!(
        history.matches("Gala · check").count(),
        2,
        "both checks are in the log: {history}"
    );
}
