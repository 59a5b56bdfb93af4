//! Admission control, end to end (`bot::workers`, "Admission"): while the bot cannot keep up,
//! every interaction is answered once — with its result or a quick ephemeral "busy" — or, when
//! no answer could reach Discord in time any more, dropped and counted; memory stays bounded.
//!
//! Every interaction is accounted for by what reached the fake Discord and what the bot logged:
//! an answer Discord took (the callback, or a follow-up when the bot could not be sure the
//! callback arrived), or a "dropped: …" line with its id. The fake takes a callback only within
//! Discord's 3 seconds, as Discord does, so an answer cut at the deadline is settled either way.
//! These tests were run beside three busy loops on the 2 cores (load average 10): each held.
//!
//! The overload is made without timing: another process holds the database's write lock, so
//! the one writing thread is taken by the first write (which waits for the lock until its
//! deadline) and nothing else can run; the queue limit decides the rest.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::Session;
use crate::fake::payload::Built;
use crate::faults::{Holder, rolls};

/// Answers a callback with `busy` in its text, ephemeral.
pub(super) fn is_busy(body: &serde_json::Value) -> bool {
    let content = body["data"]["content"].as_str().unwrap_or_default();
    content.contains("busy") && body["data"]["flags"].as_u64().unwrap_or(0) & 64 == 64
}

/// A session whose bot has one writing thread, a queue of `limit` per lane, and at most
/// `inflight` interactions in flight.
fn session(limit: usize, inflight: usize) -> Session {
    Session::start_with(|o| {
        o.env.push(("REFEREE_APP_THREADS".into(), "1".into()));
        // `/roll` is the write that waits for the lock here: not through the roll journal,
        // which answers it without a write (`faults::a_held_lock_leaves_plain_rolls_answered`).
        o.env.push(("REFEREE_ROLL_JOURNAL".into(), "off".into()));
        o.env
            .push(("REFEREE_QUEUE_LIMIT".into(), limit.to_string()));
        o.env
            .push(("REFEREE_MAX_INFLIGHT".into(), inflight.to_string()));
    })
}

/// The interaction ids in the bot's "dropped" log lines.
fn dropped_ids(stderr: &str) -> HashSet<u64> {
    strip_ansi(stderr)
        .lines()
        .filter(|l| l.contains("dropped: "))
        .filter_map(|l| {
            let at = l.find("interaction=")? + "interaction=".len();
            l[at..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .ok()
        })
        .collect()
}

/// Waits until each interaction has an answer Discord took — its callback, or a follow-up on its
/// token when the bot could not be sure the callback arrived — or was logged as dropped; returns the
/// answers' bodies (a follow-up's as a callback's `data`) and the dropped count, and prints where
/// each interaction went. Panics after `limit`, and if any interaction was answered twice, or
/// answered and dropped.
pub(super) fn account(
    s: &mut Session,
    sent: &[Built],
    limit: Duration,
) -> (Vec<serde_json::Value>, usize) {
    let until = Instant::now() + limit;
    loop {
        let dropped = dropped_ids(&s.bot().stderr());
        let mut answers: HashMap<u64, Vec<serde_json::Value>> = HashMap::new();
        let by_token: HashMap<&str, u64> = sent.iter().map(|b| (b.token.as_str(), b.id)).collect();
        let mut followups = 0;
        // Only what Discord took is an answer: a refused request (a follow-up of an interaction
        // that was never acknowledged gets 404) is an attempt.
        for r in s
            .fake
            .requests()
            .iter()
            .filter(|r| (200..300).contains(&r.status))
        {
            let segments: Vec<&str> = r.path.split('/').collect();
            match segments.as_slice() {
                ["", "api", "v10", "interactions", id, _token, "callback"] => {
                    if let Ok(id) = id.parse::<u64>() {
                        let mut body = r.body().clone();
                        body["_status"] = r.status.into();
                        answers.entry(id).or_default().push(body);
                    }
                }
                ["", "api", "v10", "webhooks", _app, token] if r.method == "POST" => {
                    if let Some(id) = by_token.get(token) {
                        followups += 1;
                        let body = serde_json::json!({
                            "type": 4, "data": r.body().clone(), "_status": r.status, "_via": "follow-up"
                        });
                        answers.entry(*id).or_default().push(body);
                    }
                }
                _ => {}
            }
        }
        let mut answered = Vec::new();
        let mut open = 0;
        for built in sent {
            match answers.get(&built.id) {
                Some(bodies) => {
                    assert_eq!(
                        bodies.len(),
                        1,
                        "interaction {} answered twice: {bodies:?}",
                        built.id
                    );
                    if dropped.contains(&built.id) {
                        let log = strip_ansi(&s.bot().stderr());
                        let lines: Vec<&str> = log
                            .lines()
                            .filter(|l| l.contains(&built.id.to_string()))
                            .collect();
                        panic!(
                            "{} answered and dropped: {bodies:?}; the bot's log of it: {lines:#?}",
                            built.id
                        );
                    }
                    answered.push(bodies[0].clone());
                }
                None if dropped.contains(&built.id) => {}
                None => open += 1,
            }
        }
        if open == 0 {
            let dropped = sent.len() - answered.len();
            eprintln!(
                "accounting: {} interactions: {} answered by callback, {followups} by follow-up, {dropped} dropped and logged",
                sent.len(),
                answered.len() - followups
            );
            return (answered, dropped);
        }
        assert!(
            Instant::now() < until,
            "{open} of {} interactions neither answered nor dropped ({} answered by callback, \
             {followups} by follow-up, {} dropped so far)",
            sent.len(),
            answered.len() - followups,
            dropped.len()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `text` without its terminal colour codes (`ESC [ … m`).
pub(super) fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The `full=… late=… dropped=…` counts the bot logs at shutdown.
fn admission_counts(stderr: &str) -> (u64, u64, u64) {
    let plain = strip_ansi(stderr);
    let line = plain
        .lines()
        .rev()
        .find(|l| l.contains("admission:"))
        .unwrap_or_else(|| panic!("no admission line in:\n{stderr}"));
    let field = |name: &str| -> u64 {
        let at = line.find(&format!("{name}=")).expect("the field") + name.len() + 1;
        line[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .expect("a count")
    };
    (field("full"), field("late"), field("dropped"))
}

#[test]
fn a_full_queue_answers_busy_at_once_and_every_interaction_is_accounted_for() {
    let mut s = session(2, 1000);
    let alice = s.player(10);
    s.run(&alice, "/roll expression:1d6");
    let db = s.options().db();
    let before = rolls(&db);
    let holder = Holder::take(&db);
    let sent: Vec<Built> = (0..10)
        .map(|_| {
            let built = s.build(&alice, "/roll expression:1d6");
            s.fake.dispatch(&built);
            built
        })
        .collect();
    let (answered, dropped) = account(&mut s, &sent, Duration::from_mins(1));
    holder.release();
    assert_eq!(answered.len() + dropped, sent.len());
    for body in &answered {
        assert!(is_busy(body), "every one was turned away: {body}");
    }
    assert_eq!(rolls(&db), before, "nothing turned away was logged");
    // Still serving once the lock is free.
    let after = s.run(&alice, "/roll expression:1d6");
    assert!(!after.text().contains("busy"), "{}", after.text());
    assert!(s.stop().success());
    let (full, late, counted_dropped) = admission_counts(&s.bot().stderr());
    // One write ran (and met the lock); at most two more waited in the queue; the rest were
    // refused at once.
    assert!(full >= 7, "full {full}");
    assert_eq!(
        full + late + counted_dropped,
        9,
        "each turned-away interaction counted once"
    );
    assert_eq!(counted_dropped as usize, dropped);
}

/// Resident memory's high-water mark of process `pid`, in KiB (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The stated bound on the bot's peak resident memory through the overload below.
const PEAK_RSS_BOUND_KIB: u64 = 128 * 1024;

#[test]
fn an_overload_is_turned_away_with_memory_bounded() {
    let mut s = session(64, 256);
    let alice = s.player(10);
    s.run(&alice, "/roll expression:1d6");
    let db = s.options().db();
    let holder = Holder::take(&db);
    let count: usize = std::env::var("REFEREE_TEST_OVERLOAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let sent: Vec<Built> = (0..count)
        .map(|_| {
            let built = s.build(&alice, "/roll expression:1d6");
            s.fake.dispatch(&built);
            built
        })
        .collect();
    let (answered, dropped) = account(&mut s, &sent, Duration::from_mins(5));
    holder.release();
    let pid = s.bot().pid();
    let peak = peak_rss_kib(pid);
    eprintln!(
        "overload: {} interactions, {} answered (busy), {dropped} dropped, peak RSS {peak:?} KiB",
        sent.len(),
        answered.len()
    );
    assert_eq!(answered.len() + dropped, sent.len());
    assert!(answered.iter().all(is_busy));
    if let Some(peak) = peak {
        assert!(peak < PEAK_RSS_BOUND_KIB, "peak RSS {peak} KiB");
    }
    assert!(s.stop().success());
}
