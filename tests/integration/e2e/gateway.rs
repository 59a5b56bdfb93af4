//! The gateway's faults, end to end: op 7 RECONNECT, op 9 INVALID SESSION both ways, and a
//! dropped socket. The bot must come back on the same session where Discord lets it (RESUME)
//! and start a new one at once where it does not, and answer the next interaction either way.
//! Figures (how long each took) are printed for the notes, never asserted: no test here depends
//! on timing to pass.

use std::time::{Duration, Instant};

use super::Session;

/// serenity's warning when a shard restart waited out its 5-second shutdown timeout (the gap
/// `bot::run::prime_shard_restarts` removes).
const SHUTDOWN_TIMEOUT_WARNING: &str = "reached timeout";

fn session() -> Session {
    Session::start_with(|options| options.log = "referee=debug,serenity=info,warn".into())
}

/// The first instant of `times` at or after `since`.
fn after(times: &[Instant], since: Instant) -> Option<Instant> {
    times.iter().copied().find(|t| *t >= since)
}

/// The wait beyond serenity's spacing of 5 seconds between one IDENTIFY and the next (the most
/// Discord asks for before a new session): `ready` less the later of `from` and 5 s after the
/// previous READY.
fn beyond_spacing(label: &str, from: Instant, previous_ready: Instant, ready: Option<Instant>) {
    let spaced = previous_ready + Duration::from_secs(5);
    gap(label, from.max(spaced), ready);
}

fn gap(label: &str, from: Instant, to: Option<Instant>) {
    if let Some(to) = to {
        let ms = to.duration_since(from).as_secs_f64() * 1000.0;
        // Measured, for the notes; run with `--nocapture` to see it.
        eprintln!("gateway: {label}: {ms:.1} ms");
    }
}

/// Rolls once and asserts the answer came (the gateway carries dispatches again).
fn answers(s: &mut Session) {
    let alice = s.player(10);
    let reply = s.run(&alice, "/roll expression:2d6");
    assert!(reply.text().contains("2d6"), "{}", reply.text());
}

#[test]
fn a_non_resumable_invalid_session_starts_a_new_session_at_once() {
    let mut s = session();
    answers(&mut s);
    assert_eq!(s.fake.identifies(), 1);
    s.fake.invalidate_session(false);
    s.fake.wait_ready(2, Duration::from_secs(20));
    answers(&mut s);
    let (ready, _, control) = s.fake.gateway_times();
    gap(
        "op 9 (not resumable) to READY",
        control[0],
        after(&ready, control[0]),
    );
    beyond_spacing(
        "op 9 (not resumable) to READY, beyond the 5 s IDENTIFY spacing",
        control[0],
        ready[0],
        after(&ready, control[0]),
    );
    let stderr = s.bot().stderr();
    assert!(
        !stderr.contains(SHUTDOWN_TIMEOUT_WARNING),
        "the restart waited out serenity's shutdown timeout:\n{stderr}"
    );
    // A second one in the same process is as quick (the primed confirmation is not used up).
    let second = Instant::now();
    s.fake.invalidate_session(false);
    s.fake.wait_ready(3, Duration::from_secs(20));
    answers(&mut s);
    let (ready, ..) = s.fake.gateway_times();
    gap(
        "second op 9 (not resumable) to READY",
        second,
        after(&ready, second),
    );
    beyond_spacing(
        "second op 9 to READY, beyond the 5 s IDENTIFY spacing",
        second,
        ready[1],
        after(&ready, second),
    );
    let stderr = s.bot().stderr();
    assert!(!stderr.contains(SHUTDOWN_TIMEOUT_WARNING), "{stderr}");
}

#[test]
fn a_resumable_invalid_session_and_a_reconnect_resume_the_same_session() {
    let mut s = session();
    answers(&mut s);
    s.fake.invalidate_session(true);
    s.fake.wait_resumed(1, Duration::from_secs(20));
    answers(&mut s);
    let (_, resumed, control) = s.fake.gateway_times();
    gap(
        "op 9 (resumable) to RESUMED",
        control[0],
        after(&resumed, control[0]),
    );

    s.fake.reconnect();
    s.fake.wait_resumed(2, Duration::from_secs(20));
    answers(&mut s);
    let (_, resumed, control) = s.fake.gateway_times();
    gap("op 7 to RESUMED", control[1], after(&resumed, control[1]));

    s.fake.drop_gateway();
    let dropped = Instant::now();
    s.fake.wait_resumed(3, Duration::from_secs(20));
    answers(&mut s);
    let (_, resumed, _) = s.fake.gateway_times();
    gap(
        "dropped socket to RESUMED",
        dropped,
        after(&resumed, dropped),
    );

    assert_eq!(
        s.fake.identifies(),
        1,
        "every one of these resumes the first session"
    );
}

#[test]
fn a_refused_reconnect_comes_back_once_the_gateway_answers() {
    let mut s = session();
    answers(&mut s);
    let dropped = Instant::now();
    s.fake.drop_gateway_refusing(2);
    // Resumed where serenity still could, else a new session: either way the next roll answers.
    s.fake.wait_log_ready_or_resumed(Duration::from_secs(30));
    answers(&mut s);
    assert_eq!(
        s.fake.refused(),
        2,
        "both refusals were met before it came back"
    );
    let (ready, resumed, _) = s.fake.gateway_times();
    let back = [after(&ready, dropped), after(&resumed, dropped)]
        .into_iter()
        .flatten()
        .min();
    gap(
        "dropped and 2 refused connections to READY or RESUMED",
        dropped,
        back,
    );
}
