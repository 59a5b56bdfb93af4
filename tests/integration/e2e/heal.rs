//! A bot started on a database it cannot write (issue 33): it answers each write with what the
//! operator must do and changes nothing, picks the file up by itself once it is writable (no
//! restart), and shuts down cleanly either way, with no panic in its log.

use std::time::{Duration, Instant};

use super::Session;
use crate::faults::{Mount, left_by_a_killed_bot, rolls};

/// A session whose database folder is a file system of its own, mounted read-only before the
/// bot starts, with the files a killed bot leaves (the database, its WAL and WAL index); `None`
/// where no tmpfs can be mounted (not root). The configuration lives elsewhere.
fn started_read_only() -> Option<(Session, Mount, tempfile::TempDir)> {
    let elsewhere = tempfile::tempdir().expect("a temporary directory");
    let config = elsewhere.path().join("config.toml");
    let mut mount = None;
    let s = Session::start_with(|options| {
        options.config_name = config.display().to_string();
        let Some(m) = Mount::on(&options.dir) else {
            return;
        };
        left_by_a_killed_bot(&options.db());
        m.remount("ro");
        mount = Some(m);
    });
    Some((s, mount?, elsewhere))
}

#[test]
fn a_bot_started_read_only_writes_once_the_file_is_writable_without_a_restart() {
    let Some((mut s, mount, _config)) = started_read_only() else {
        return;
    };
    let alice = s.player(10);
    let db = s.options().db();
    for _ in 0..3 {
        let refused = s.run(&alice, "/roll expression:1d6");
        assert!(refused.ephemeral(), "{}", refused.text());
        assert!(refused.text().contains("read-only"), "{}", refused.text());
    }
    // Reads answer meanwhile.
    let odds = s.run(&alice, "/odds thiz rating:4");
    assert!(odds.text().contains("Black"), "{}", odds.text());

    mount.remount("rw");
    // The first write after the fix may still meet the old connection; within a few it works.
    let until = Instant::now() + Duration::from_secs(10);
    let mut answered = Vec::new();
    while Instant::now() < until {
        let reply = s.run(&alice, "/roll expression:1d6");
        if reply.text().contains("Roll #") {
            answered.push(reply.text());
            break;
        }
        assert!(reply.text().contains("read-only"), "{}", reply.text());
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        answered.len(),
        1,
        "no roll was logged once the file was writable"
    );
    let more = s.run(&alice, "/roll expression:1d6");
    assert!(more.text().contains("Roll #"), "{}", more.text());
    assert_eq!(
        rolls(&db),
        3,
        "the one before, both after the fix, none refused"
    );

    let status = s.stop();
    assert!(status.success(), "{status}");
    let log = s.bot().stderr();
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn a_bot_shut_down_while_read_only_exits_cleanly_without_a_panic() {
    let Some((mut s, mount, _config)) = started_read_only() else {
        return;
    };
    let alice = s.player(10);
    let refused = s.run(&alice, "/roll expression:1d6");
    assert!(refused.text().contains("read-only"), "{}", refused.text());
    let status = s.stop();
    mount.remount("rw");
    assert!(status.success(), "{status}");
    let log = s.bot().stderr();
    assert!(!log.contains("panicked"), "{log}");
}
