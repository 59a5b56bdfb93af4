//! The real `referee` binary: `console` over standard input, `migrate`, `backup`, `--help`.

use std::io::Write;
use std::process::{Command, Stdio};

/// An empty folder to run the binary in, so that no `config.toml` is read.
fn no_config_here() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary directory"))
        .path()
}

pub(crate) fn referee() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_referee"));
    // No configuration file or environment from the developer's machine leaks into the test.
    c.env_remove("DISCORD_TOKEN")
        .env_remove("DISCORD_API_BASE")
        .env_remove("REFEREE_DB")
        .env_remove("REFEREE_DATABASE_URL")
        .env_remove("NO_COLOR")
        .current_dir(no_config_here());
    c
}

/// Runs `referee console` with `args`, feeding `input`; returns standard output's lines.
pub fn console(args: &[&str], input: &str) -> Vec<String> {
    let mut child = referee()
        .arg("console")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("the console ends");
    assert!(
        out.status.success(),
        "console failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn json_mode_prints_one_object_per_command_in_discords_shape() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite3");
    let db = db.to_str().unwrap();
    let lines = console(
        &["--json", "--seed", "7", "--db", db],
        "# a comment\n\n/help\nnot a command\n/roll expression:\"unclosed\n/dance\n",
    );
    assert_eq!(lines.len(), 4, "{lines:#?}");
    for line in &lines {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        assert!(
            v.get("content").is_some() && v.get("embeds").is_some(),
            "{v}"
        );
        assert_eq!(v["allowed_mentions"]["parse"], serde_json::json!([]));
        assert!(v.get("visibility").is_some() && v.get("gm_copy").is_some());
    }
    // Malformed lines get a one-line, ephemeral explanation.
    let bad: Vec<serde_json::Value> = lines[1..]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for v in &bad {
        assert_eq!(v["flags"], 64);
        assert_eq!(v["visibility"], "ephemeral");
        let content = v["content"].as_str().unwrap();
        assert!(!content.is_empty() && !content.contains('\n'), "{content}");
    }
    assert!(
        bad[0]["content"]
            .as_str()
            .unwrap()
            .contains("starts with /")
    );
    assert!(bad[1]["content"].as_str().unwrap().contains("never closed"));
    assert!(bad[2]["content"].as_str().unwrap().contains("/dance"));
}

/// Issue 57, item 9: `--json` prints the payload the bot sends, not a look-alike: `/help`'s 8
/// buttons in rows of at most 5, and every body (the answer, the GM copy, the encounter's status)
/// valid against Discord's OpenAPI schema for the route the bot sends it on. (Replies past the
/// length limits are compared with the bot's own bodies in `bot::serve::body`'s tests.)
#[test]
fn json_mode_prints_what_discord_gets() {
    use crate::fake::openapi::{self, BodyRoute};
    use serde_json::{Value, json};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("j.sqlite3");
    let db = db.to_str().unwrap();
    let lines = console(
        &["--json", "--gm", "--seed", "3", "--db", db],
        "/help\n/roll expression:4d6kh3\n/character create name:Vexa system:thiz\n\
         /encounter start surprise:none\n/encounter add character:Vexa\n",
    );
    assert_eq!(lines.len(), 5, "{lines:#?}");
    let bodies: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let help = &bodies[0];
    let rows: Vec<usize> = help["components"]
        .as_array()
        .expect("/help has buttons")
        .iter()
        .map(|r| r["components"].as_array().unwrap().len())
        .collect();
    assert!(rows.iter().sum::<usize>() > 5, "{rows:?}");
    assert!(rows.iter().all(|&n| (1..=5).contains(&n)), "{rows:?}");
    assert!(
        bodies
            .iter()
            .any(|b| b.get("status_message").is_some_and(Value::is_object)),
        "an encounter's status is printed"
    );
    let Some(validators) = openapi::validators() else {
        return;
    };
    for body in &bodies {
        let mut data = body.clone();
        let routed: Vec<(String, Value)> = referee::console::ROUTING_KEYS
            .iter()
            .filter_map(|k| Some(((*k).to_owned(), data.as_object_mut()?.remove(*k)?)))
            .collect();
        assert!(data["content"].as_str().unwrap().chars().count() <= 2000);
        let mut checks = vec![(BodyRoute::Callback, json!({"type": 4, "data": data}))];
        for (key, value) in routed.into_iter().filter(|(_, v)| v.is_object()) {
            checks.push(match key.as_str() {
                "gm_copy" | "status_message" => (BodyRoute::ChannelMessage, value),
                "update" => (BodyRoute::Callback, json!({"type": 7, "data": value})),
                _ => (BodyRoute::WebhookExecute, value),
            });
        }
        for (route, check) in checks {
            let errors = validators.errors(route, &check);
            assert!(errors.is_empty(), "{route:?} {check}: {errors:#?}");
        }
    }
}

#[test]
fn migrate_then_backup_make_a_sound_copy() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.sqlite3");
    let copy = dir.path().join("copy.sqlite3");
    let out = referee()
        .env("REFEREE_DB", &db)
        .arg("migrate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("schema at version"));
    let out = referee()
        .env("REFEREE_DB", &db)
        .args(["backup", copy.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}

#[test]
fn help_and_unknown_modes() {
    let out = referee().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for mode in [
        "run",
        "serve",
        "register",
        "console",
        "migrate",
        "backup",
        "completions",
    ] {
        assert!(help.contains(mode), "--help lists {mode}: {help}");
    }
    let out = referee().arg("dance").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = referee()
        .args(["console", "--guild", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--guild"),
        "the bad option is named"
    );
}

/// Issue 57 (item 8): a backup of a database that does not exist fails in one line and
/// creates nothing (neither the source nor the copy); one into a folder that does not exist
/// names the folder in one line, and writes nothing.
#[test]
fn a_backup_refuses_a_missing_source_or_target_folder_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nothere.sqlite3");
    let backup = |copy: &std::path::Path| {
        referee()
            .args([
                "backup",
                "--db",
                db.to_str().unwrap(),
                copy.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    // One line on standard error, exit 1, nothing claimed on standard output.
    let refused = |out: &std::process::Output| -> String {
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stdout).is_empty(),
            "no success claimed"
        );
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        err
    };
    let err = refused(&backup(&dir.path().join("b2.sqlite3")));
    assert!(
        err.contains("no database at") && err.contains("nothere.sqlite3"),
        "{err}"
    );
    let made: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(made.is_empty(), "nothing created: {made:?}");

    // The source exists now; the copy's folder does not.
    let out = referee()
        .args(["migrate", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let copy = dir.path().join("missing-folder").join("b2.sqlite3");
    let err = refused(&backup(&copy));
    assert!(
        err.contains("missing-folder for the copy does not exist"),
        "{err}"
    );
    assert!(!err.contains("Error code"), "no raw SQLite error: {err}");
    assert!(!dir.path().join("missing-folder").exists());
    // And the same source backs up once the folder is there.
    std::fs::create_dir(dir.path().join("missing-folder")).unwrap();
    let out = backup(&copy);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(copy.is_file());
}

/// Issue 34: `--version`; `--help` for every mode starts nothing (no database is made, even
/// with a token set); completions; a missing `--config` file and a missing database folder are
/// one clear line each; `backup` does not overwrite without `--force`; piped logs carry no
/// colour codes.
#[test]
fn the_command_line_behaves_as_clis_do() {
    let out = referee().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("referee {}", env!("CARGO_PKG_VERSION"))
    );
    let dir = tempfile::tempdir().unwrap();
    for mode in [
        "run",
        "serve",
        "register",
        "console",
        "migrate",
        "backup",
        "completions",
    ] {
        let out = referee()
            .current_dir(dir.path())
            .env("DISCORD_TOKEN", "not-a-token")
            .env("DISCORD_PUBLIC_KEY", "00")
            .args([mode, "--help"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode} --help");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage: referee"),
            "{mode} --help"
        );
    }
    let made: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(made.is_empty(), "--help made files: {made:?}");
    let out = referee().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("_referee()"));

    let missing = dir.path().join("nope.toml");
    let out = referee()
        .args(["--config", missing.to_str().unwrap(), "migrate"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.toml does not exist"), "{err}");

    let db = dir.path().join("no-folder").join("r.sqlite3");
    let out = referee()
        .args(["migrate", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("no-folder does not exist"), "{err}");

    let db = dir.path().join("b.sqlite3");
    let made = referee()
        .args(["migrate", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(made.status.success());
    let copy = dir.path().join("copy.sqlite3");
    std::fs::write(&copy, "keep me").unwrap();
    let backup = |force: bool| {
        let mut c = referee();
        c.args([
            "backup",
            "--db",
            db.to_str().unwrap(),
            copy.to_str().unwrap(),
        ]);
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    let out = backup(false);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), "keep me");
    assert!(backup(true).status.success());
    assert_ne!(std::fs::read(&copy).unwrap(), b"keep me");

    // A warning logged with its output piped: no escape codes.
    let out = referee()
        .env("RUST_LOG", "info")
        .args(["migrate", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains('\u{1b}'),
        "colour codes in piped logs: {err:?}"
    );
}

/// `/quit` (or `/exit`) ends a console session; the lines after it are not run.
#[test]
fn quit_ends_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("q.sqlite3");
    let lines = console(
        &["--db", db.to_str().unwrap(), "--seed", "1"],
        "/roll expression:1d6\n/quit\n/roll expression:2d8\n",
    );
    let text = lines.join("\n");
    assert!(text.contains("1d6"), "{text}");
    assert!(!text.contains("2d8"), "ran past /quit: {text}");
}

/// The console knows `/alias`: a saved roll set in one session is rolled by name in the next
/// (the same database), by its owner only.
#[test]
fn saved_rolls_are_kept_between_console_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite3");
    let db = db.to_str().unwrap();
    let text = console(
        &["--db", db, "--user", "10"],
        "/alias set name:attack expression:1d20+5\n/alias list\n",
    )
    .join("\n");
    assert!(text.contains("Saved attack"), "{text}");
    assert!(text.contains("Yours (1 of 50)"), "{text}");
    let text = console(
        &["--db", db, "--user", "10", "--seed", "2"],
        "/roll expression:attack+2\n",
    )
    .join("\n");
    assert!(text.contains("attack → `1d20+5+2`"), "{text}");
    let text = console(&["--db", db, "--user", "11"], "/roll expression:attack\n").join("\n");
    assert!(text.contains("Can't roll that"), "another user's: {text}");
}

/// Two console processes spending one character's luck at once on one database file: exactly
/// the total is spent, never more (SPEC §4; WAL with `BEGIN IMMEDIATE` across processes).
#[test]
fn two_processes_on_one_database_never_overspend() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shared.sqlite3");
    let db = db.to_str().unwrap().to_owned();
    console(
        &["--db", &db, "--user", "10"],
        "/character create name:Vexa system:thiz\n",
    );
    console(
        &["--db", &db, "--gm"],
        "/luck set character:Vexa points:5\n",
    );
    let spends = "/luck spend kind:stunt points:1 character:Vexa\n".repeat(12);
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let (db, spends) = (db.clone(), spends.clone());
            std::thread::spawn(move || console(&["--db", &db, "--user", "10", "--json"], &spends))
        })
        .collect();
    let lines: Vec<String> = runs.into_iter().flat_map(|r| r.join().unwrap()).collect();
    assert_eq!(lines.len(), 24);
    let spent = lines
        .iter()
        .filter(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let text = v.to_string();
            !text.contains("no luck left") && !text.contains("Something went wrong")
        })
        .count();
    assert_eq!(spent, 5, "{lines:#?}");
    let shown = console(&["--db", &db, "--gm"], "/luck show character:Vexa\n");
    assert!(
        shown.iter().any(|l| l.contains("has 0 luck points")),
        "{shown:?}"
    );
}

/// `docs/encounter-examples.md`: both scripts still run through the console, from
/// `/encounter start` to `/encounter end`, and say what the document shows (each key line is
/// in the real output and in the document, so neither drifts silently).
#[test]
fn the_encounter_examples_still_run_as_documented() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/encounter-examples.md")).unwrap();
    let cases: [(&str, &str, &[&str]); 2] = [
        (
            "thiz",
            "6",
            &[
                "The fight begins: Alys's turn.",
                "Goblin 2 defends: +3 to Speed",
                "== Goblin 2 attacks Alys with Spear ==",
                "Goblin 1 is dying: a Toughness check each turn",
                "Goblin 1 is dying and leaves the order.",
                "[Dying check: Goblin 1] (/button id:dying:3)",
                "The encounter is over after 3 turns.",
                "== Encounter over (THIZ) ==",
            ],
        ),
        (
            "tft",
            "7",
            &[
                "Kara declares 2 actions.",
                "adjDX: DX 16, multiple actions ×1 +1 die = **16** on 4 dice",
                "== Orc 1 attacks Kara ==",
                "== Encounter (TFT): round 2 ==",
                "== Encounter over (TFT) ==",
            ],
        ),
    ];
    for (name, seed, keys) in cases {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("e.sqlite3");
        let script =
            std::fs::read_to_string(format!("{root}/docs/encounter-examples/{name}.script"))
                .unwrap();
        let out = console(
            &["--gm", "--seed", seed, "--db", db.to_str().unwrap()],
            &script,
        );
        let text = out.join("\n");
        for key in keys {
            assert!(
                text.contains(key),
                "{name}: the output lacks {key:?}:\n{text}"
            );
            assert!(doc.contains(key), "{name}: the document lacks {key:?}");
        }
        // The document holds this output whole, line for line.
        for line in out.iter().filter(|l| !l.trim().is_empty()) {
            assert!(
                doc.contains(&format!("    {line}")),
                "{name}: docs/encounter-examples.md is out of date at {line:?}"
            );
        }
    }
}
