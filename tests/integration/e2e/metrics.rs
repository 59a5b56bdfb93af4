//! The operator's metrics, end to end (`bot::metrics`, issue 18 item 7): the bot started with
//! `[metrics] listen = "127.0.0.1:0"` serves `GET /metrics` in the Prometheus text format, and
//! its counters move by exactly what the fake Discord saw happen.
//!
//! No timing: every scrape that waits for a count polls until the count is there (the bot counts
//! an interaction just after Discord took its answer), with a timeout; the overload is made as in
//! `overload.rs`, by another process holding the database's write lock.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use super::Session;
use super::overload::{account, is_busy, strip_ansi};
use crate::fake::payload::Built;
use crate::faults::Holder;

/// One scrape: each sample (`name{labels}` as written) and its value.
type Samples = BTreeMap<String, f64>;

/// A session whose bot serves metrics on a free loopback port, with one writing thread and a
/// queue of one per lane (so an overload is easy to make).
fn session() -> Session {
    Session::start_with(|o| {
        o.config_extra
            .push_str("\n[metrics]\nlisten = \"127.0.0.1:0\"\n");
        o.env.push(("REFEREE_APP_THREADS".into(), "1".into()));
        o.env.push(("REFEREE_QUEUE_LIMIT".into(), "1".into()));
        // The overload below makes `/roll` wait for the write lock: not through the roll
        // journal, which answers it without a write.
        o.env.push(("REFEREE_ROLL_JOURNAL".into(), "off".into()));
    })
}

/// The address the bot logged for its metrics.
fn metrics_addr(s: &mut Session) -> SocketAddr {
    let stderr = strip_ansi(&s.bot().stderr());
    let line = stderr
        .lines()
        .find(|l| l.contains("metrics: serving"))
        .unwrap_or_else(|| panic!("no metrics address in:\n{stderr}"));
    let at = line.find("addr=").expect("the addr field") + "addr=".len();
    line[at..]
        .split_whitespace()
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("not an address: {line}"))
}

/// A plain HTTP/1.1 GET: (status, content type, body).
fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect to the metrics");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send the request");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .expect("read the response");
    let (head, body) = response
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers: {response:?}"));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head}"));
    let content_type = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-type")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    (status, content_type, body.to_owned())
}

/// Whether `name` is a valid metric or label name (`[a-zA-Z_:][a-zA-Z0-9_:]*`, no colon in a
/// label's).
fn valid_name(name: &str, colon: bool) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || (colon && c == ':');
    name.chars()
        .next()
        .is_some_and(|c| !c.is_ascii_digit() && ok(c))
        && name.chars().all(ok)
}

/// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` samples belong
/// to the histogram.
fn family_of<'a>(name: &'a str, types: &BTreeMap<String, String>) -> &'a str {
    for suffix in ["_bucket", "_sum", "_count"] {
        if let Some(base) = name.strip_suffix(suffix)
            && types.get(base).is_some_and(|t| t == "histogram")
        {
            return base;
        }
    }
    name
}

/// Checks `text` against the Prometheus text exposition format (version 0.0.4) and returns its
/// samples: every line is a `# HELP`, a `# TYPE` (before the family's samples, once), or a
/// sample `name{label="value",…} number`; each sample's family has HELP and TYPE.
fn parse_exposition(text: &str) -> Samples {
    let mut types: BTreeMap<String, String> = BTreeMap::new();
    let mut helps: BTreeMap<String, String> = BTreeMap::new();
    let mut samples = Samples::new();
    assert!(text.ends_with('\n'), "the text ends with a newline");
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').expect("a HELP text");
            assert!(valid_name(name, true), "{line}");
            assert!(!help.is_empty(), "{line}");
            assert!(
                helps.insert(name.into(), help.into()).is_none(),
                "two HELP: {line}"
            );
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("a TYPE");
            assert!(valid_name(name, true), "{line}");
            assert!(
                ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                "{line}"
            );
            assert!(
                types.insert(name.into(), kind.into()).is_none(),
                "two TYPE: {line}"
            );
        } else {
            assert!(
                !line.starts_with('#') && !line.is_empty(),
                "stray line {line:?}"
            );
            let (series, value) = line.rsplit_once(' ').expect("a sample's value");
            let value: f64 = match value {
                "+Inf" => f64::INFINITY,
                "-Inf" => f64::NEG_INFINITY,
                v => v.parse().unwrap_or_else(|_| panic!("not a number: {line}")),
            };
            let name = match series.split_once('{') {
                Some((name, labels)) => {
                    let labels = labels.strip_suffix('}').expect("labels close");
                    check_labels(labels, line);
                    name
                }
                None => series,
            };
            assert!(valid_name(name, true), "{line}");
            let family = family_of(name, &types);
            assert!(types.contains_key(family), "no TYPE before {line}");
            assert!(helps.contains_key(family), "no HELP for {line}");
            assert!(
                samples.insert(series.into(), value).is_none(),
                "twice: {line}"
            );
        }
    }
    samples
}

/// `name="value",…` with escaped values.
fn check_labels(labels: &str, line: &str) {
    let mut rest = labels;
    while !rest.is_empty() {
        let (name, after) = rest.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
        assert!(valid_name(name, false), "label {name} in {line}");
        // The value runs to the first quote not escaped.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end.unwrap_or_else(|| panic!("an unclosed label value in {line}"));
        rest = after[end + 1..]
            .strip_prefix(',')
            .unwrap_or(&after[end + 1..]);
    }
}

/// Scrapes until `ready` holds for the samples (the bot counts just after Discord took an
/// answer), then returns them.
fn scrape_until(addr: SocketAddr, what: &str, ready: impl Fn(&Samples) -> bool) -> Samples {
    let until = Instant::now() + Duration::from_mins(1);
    loop {
        let (status, content_type, body) = get(addr, "/metrics");
        assert_eq!(status, 200, "{body}");
        assert!(content_type.starts_with("text/plain"), "{content_type}");
        assert!(content_type.contains("version=0.0.4"), "{content_type}");
        let samples = parse_exposition(&body);
        if ready(&samples) {
            return samples;
        }
        assert!(Instant::now() < until, "never {what}:\n{body}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A count (a counter, a gauge of items, a histogram's count): a whole number; 0 if absent.
fn value(samples: &Samples, series: &str) -> u64 {
    let v = samples.get(series).copied().unwrap_or(0.0);
    assert!(
        v >= 0.0 && v.fract().abs() < f64::EPSILON,
        "{series} = {v} is not a count"
    );
    v as u64
}

fn interactions(samples: &Samples, command: &str, outcome: &str) -> u64 {
    value(
        samples,
        &format!("referee_interactions_total{{command=\"{command}\",outcome=\"{outcome}\"}}"),
    )
}

/// Every interaction counted, whatever its command and outcome.
fn all_interactions(samples: &Samples) -> u64 {
    samples
        .keys()
        .filter(|k| k.starts_with("referee_interactions_total{"))
        .map(|k| value(samples, k))
        .sum()
}

#[test]
fn metrics_count_exactly_what_the_bot_did_in_the_prometheus_text_format() {
    let mut s = session();
    let addr = metrics_addr(&mut s);
    assert!(addr.ip().is_loopback(), "{addr}");
    let alice = s.player(10);

    // Nothing yet: every family is there, the gateway has one new session.
    let start = scrape_until(addr, "the first session", |m| {
        value(m, "referee_gateway_sessions_total{kind=\"new\"}") == 1
    });
    for name in [
        "referee_interaction_duration_seconds_count",
        "referee_db_commit_seconds_count",
        "referee_queue_depth{lane=\"write\"}",
        "referee_queue_depth{lane=\"read\"}",
        "referee_interactions_in_flight",
        "referee_shed_total{reason=\"queue_full\"}",
        "referee_shed_total{reason=\"late\"}",
        "referee_dropped_total",
        "referee_db_writes_total",
        "referee_outbox_waiting",
        "referee_outbox_failed",
        "referee_outbox_oldest_age_seconds",
        "referee_gateway_sessions_total{kind=\"resumed\"}",
    ] {
        assert!(start.contains_key(name), "no {name} in {start:?}");
    }
    assert_eq!(all_interactions(&start), 0);
    assert_eq!(
        value(&start, "referee_interaction_duration_seconds_count"),
        0
    );

    // Two rolls, one refused roll, one /help.
    for line in ["/roll expression:1d6", "/roll expression:2d6+1"] {
        let r = s.run(&alice, line);
        assert!(!r.ephemeral(), "{}", r.text());
    }
    let refused = s.run(&alice, "/roll expression:1d6+banana");
    assert!(refused.ephemeral() && !is_busy(refused.callback_body()));
    s.run(&alice, "/help");
    let m = scrape_until(addr, "four interactions", |m| all_interactions(m) == 4);
    assert_eq!(interactions(&m, "roll", "ok"), 2);
    assert_eq!(interactions(&m, "roll", "refused"), 1);
    assert_eq!(interactions(&m, "help", "ok"), 1);
    assert_eq!(value(&m, "referee_interaction_duration_seconds_count"), 4);
    assert_eq!(
        value(
            &m,
            "referee_interaction_duration_seconds_bucket{le=\"+Inf\"}"
        ),
        4
    );
    assert!(m["referee_interaction_duration_seconds_sum"] > 0.0);
    // Both rolls were logged: at least two writes, in at least one timed group commit.
    assert!(value(&m, "referee_db_writes_total") >= 2, "{m:?}");
    assert!(value(&m, "referee_db_commit_seconds_count") >= 1, "{m:?}");
    assert_eq!(value(&m, "referee_shed_total{reason=\"queue_full\"}"), 0);
    assert_eq!(value(&m, "referee_dropped_total"), 0);
    assert_eq!(value(&m, "referee_outbox_waiting"), 0);

    // An op 7 RECONNECT: the session is resumed, not new.
    s.fake.reconnect();
    s.fake.wait_resumed(1, Duration::from_secs(20));
    let m = scrape_until(addr, "the resumed session", |m| {
        value(m, "referee_gateway_sessions_total{kind=\"resumed\"}") == 1
    });
    assert_eq!(value(&m, "referee_gateway_sessions_total{kind=\"new\"}"), 1);

    // Overload: another process holds the write lock, so the one writing thread waits (until
    // its write deadline, then "busy"); the queue of one takes at most one more; the rest are
    // refused at once. Whatever waited in the queue started too late to run.
    let holder = Holder::take(&s.options().db());
    let sent: Vec<Built> = (0..3)
        .map(|_| {
            let built = s.build(&alice, "/roll expression:1d6");
            s.fake.dispatch(&built);
            built
        })
        .collect();
    let (answered, dropped) = account(&mut s, &sent, Duration::from_mins(1));
    holder.release();
    assert!(answered.iter().all(is_busy), "{answered:?}");
    let busy = answered.len() as u64;
    let m = scrape_until(addr, "the overload counted", |m| {
        all_interactions(m) == 4 + 3
    });
    assert_eq!(interactions(&m, "roll", "busy"), busy);
    assert_eq!(interactions(&m, "roll", "dropped"), dropped as u64);
    assert_eq!(interactions(&m, "roll", "ok"), 2, "none of them ran");
    assert_eq!(value(&m, "referee_dropped_total"), dropped as u64);
    // The first ran and met the lock (the database's "busy"); the other two were turned away
    // by admission control, each counted once.
    assert_eq!(
        value(&m, "referee_shed_total{reason=\"queue_full\"}")
            + value(&m, "referee_shed_total{reason=\"late\"}")
            + value(&m, "referee_dropped_total"),
        2,
        "{m:?}"
    );
    assert_eq!(
        value(&m, "referee_interaction_duration_seconds_count"),
        4 + busy,
        "a latency for each answer, none for a dropped one"
    );

    // Only /metrics is served.
    let (status, _, _) = get(addr, "/");
    assert_eq!(status, 404);
    assert!(s.stop().success());
}

#[test]
fn without_a_metrics_section_nothing_is_served() {
    let mut s = Session::start();
    let stderr = strip_ansi(&s.bot().stderr());
    assert!(!stderr.contains("metrics: serving"), "{stderr}");
    assert!(s.stop().success());
}

#[test]
fn the_exposition_checker_refuses_what_is_not_the_text_format() {
    let good = "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\"} 2\n";
    assert_eq!(parse_exposition(good).get("a_total{x=\"1\"}"), Some(&2.0));
    for bad in [
        "a_total 2\n",                                                 // no TYPE
        "# TYPE a_total counter\na_total 2\n",                         // no HELP
        "# HELP a_total A.\n# TYPE a_total counter\na_total two\n",    // not a number
        "# HELP a_total A.\n# TYPE a_total kind\na_total 2\n",         // no such type
        "# HELP a_total A.\n# TYPE a_total counter\na_total{x=1} 2\n", // unquoted value
        "# HELP a_total A.\n# TYPE a_total counter\n1a_total 2\n",     // bad name
    ] {
        assert!(
            std::panic::catch_unwind(|| parse_exposition(bad)).is_err(),
            "accepted {bad:?}"
        );
    }
}
