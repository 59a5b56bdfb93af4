//! Optional metrics for the server operator, in the Prometheus text format (issue 18, item 7),
//! served on a loopback address (`[metrics]` in the configuration; off by default).
//!
//! Two kinds of numbers:
//! - **Counted as they happen**, on the hot path: each interaction's outcome by command
//!   ([`Metrics::interaction`]: a lookup of the label pair's counter under a read lock, no
//!   allocation once the pair has been seen, and one atomic add), its latency from arrival to answer sent (a histogram: a few atomic adds), each group
//!   commit's time (the store's [`crate::store::Store::observe_commits`] hook), and the gateway's
//!   new and resumed sessions. Labels are bounded: a command's label is the name poise registered
//!   (never user input), `button` for a button press, `unknown` for a command this bot does not
//!   have; an outcome is one of [`Outcome`]'s.
//! - **Read when scraped** ([`Server`]): the app queues' depths, the interactions in flight,
//!   admission control's refusals (its own atomics, [`super::workers::Admission`]), the writes
//!   committed, and the outbox's depth and age (a read on the read-only lane, at most once per
//!   scrape). Nothing of that costs the hot path anything.
//!
//! The endpoint is `GET /metrics` on `[metrics] listen`, served with the hyper that serenity's
//! HTTP client already brings (HTTP/1.1 only); any other path is a 404.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use prometheus::{
    Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

use super::inflight::Inflight;
use super::workers::Workers;
use crate::app::{App, Reply};

/// What became of one interaction, as the `outcome` label says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The command did its work and the user has the answer.
    Ok,
    /// `app` refused it (a mistake, a permission): nothing changed, the user was told why.
    Refused,
    /// Turned away before or while running (full queue, waited too long, database locked by
    /// another program): answered "busy", nothing changed.
    Busy,
    /// Turned away too late for any answer to reach Discord: nothing sent.
    Dropped,
    /// An internal failure or a database fault: answered with what went wrong.
    Error,
    /// It did not fit the registered commands (a Discord client with an old copy of them).
    Stale,
    /// It ran, but Discord did not take its answer within the interaction's life.
    Unanswered,
}

impl Outcome {
    /// Every outcome, in the order of its label.
    pub const ALL: [Self; 7] = [
        Self::Ok,
        Self::Refused,
        Self::Busy,
        Self::Dropped,
        Self::Error,
        Self::Stale,
        Self::Unanswered,
    ];

    /// The `outcome` label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Refused => "refused",
            Self::Busy => "busy",
            Self::Dropped => "dropped",
            Self::Error => "error",
            Self::Stale => "stale",
            Self::Unanswered => "unanswered",
        }
    }

    /// The outcome of `app`'s answer: its result, or one of the refusals the bot and `app`
    /// give when busy or failing (told apart by their fixed texts, which only they use).
    // `Err` is a refusal as a reply, the same type as `Ok` (see `App::run`).
    #[allow(clippy::result_large_err)]
    pub fn of(result: &Result<Reply, Reply>) -> Self {
        let Err(refusal) = result else {
            return Self::Ok;
        };
        let text = refusal.content.as_str();
        if text == super::workers::BUSY || text == crate::app::BUSY {
            Self::Busy
        } else if text == crate::app::SOMETHING_WENT_WRONG
            || text == super::render::SOMETHING_WENT_WRONG
            || is_fault(text)
        {
            Self::Error
        } else {
            Self::Refused
        }
    }
}

/// Whether `text` is one of `app`'s database fault messages ([`crate::app::fault_message`]):
/// each tells the server operator what to do.
fn is_fault(text: &str) -> bool {
    text.contains("nothing was saved: the server operator must")
}

/// The label of a command that is not one of this bot's.
pub const UNKNOWN_COMMAND: &str = "unknown";
/// The label of a button press.
pub const BUTTON: &str = "button";

/// Latency buckets, in seconds: fine below Discord's 3-second deadline, where answers fall.
const LATENCY_BUCKETS: &[f64] = &[
    0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0,
];
/// Group commit buckets, in seconds: a commit is an fsync of the WAL, usually well under 10 ms.
const COMMIT_BUCKETS: &[f64] = &[
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];
/// The longest a scrape waits for the outbox's depth; past it, the last values stay.
const OUTBOX_WAIT: Duration = Duration::from_secs(1);
/// The longest a client may take to send its request's headers.
const HEADER_WAIT: Duration = Duration::from_secs(10);

/// The bot's metrics: the registry and the handles the hot path counts on.
pub struct Metrics {
    registry: Registry,
    interactions: IntCounterVec,
    latency: Histogram,
    commit: Histogram,
    gateway: IntCounterVec,
    queue: IntGaugeVec,
    inflight: IntGauge,
    shed: IntCounterVec,
    dropped: IntCounter,
    writes: IntCounter,
    outbox_waiting: IntGauge,
    outbox_failed: IntGauge,
    outbox_age: IntGauge,
    /// One scrape at a time: counters read from atomics are brought up by the difference.
    scrape: tokio::sync::Mutex<()>,
}

/// A metric's name and help; every name starts `referee_`.
fn opts(name: &str, help: &str) -> Opts {
    Opts::new(name, help)
}

impl Metrics {
    /// A registry with every metric of the bot.
    ///
    /// # Panics
    /// Never: the names and labels are fixed and valid (a test builds it).
    pub fn new() -> Self {
        let registry = Registry::new();
        let counter_vec = |name: &str, help: &str, labels: &[&str]| {
            let c = IntCounterVec::new(opts(name, help), labels).expect("a valid counter");
            registry.register(Box::new(c.clone())).expect("a new name");
            c
        };
        let counter = |name: &str, help: &str| {
            let c = IntCounter::with_opts(opts(name, help)).expect("a valid counter");
            registry.register(Box::new(c.clone())).expect("a new name");
            c
        };
        let gauge = |name: &str, help: &str| {
            let g = IntGauge::with_opts(opts(name, help)).expect("a valid gauge");
            registry.register(Box::new(g.clone())).expect("a new name");
            g
        };
        let histogram = |name: &str, help: &str, buckets: &[f64]| {
            let h = Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets.to_vec()))
                .expect("a valid histogram");
            registry.register(Box::new(h.clone())).expect("a new name");
            h
        };
        let queue = IntGaugeVec::new(
            opts(
                "referee_queue_depth",
                "Jobs waiting for an app thread, by lane (write: commands that write; read: read-only commands).",
            ),
            &["lane"],
        )
        .expect("a valid gauge");
        registry
            .register(Box::new(queue.clone()))
            .expect("a new name");
        let metrics = Self {
            interactions: counter_vec(
                "referee_interactions_total",
                "Interactions (slash commands and button presses) by command and outcome.",
                &["command", "outcome"],
            ),
            latency: histogram(
                "referee_interaction_duration_seconds",
                "Time from an interaction's arrival to its answer sent (answered interactions only).",
                LATENCY_BUCKETS,
            ),
            commit: histogram(
                "referee_db_commit_seconds",
                "Time one group commit of the database took (COMMIT of one or more writes).",
                COMMIT_BUCKETS,
            ),
            gateway: counter_vec(
                "referee_gateway_sessions_total",
                "Gateway sessions: new (READY, the first one at start included) and resumed (RESUMED).",
                &["kind"],
            ),
            inflight: gauge(
                "referee_interactions_in_flight",
                "Interactions being handled right now, those waiting at the door for a slot included.",
            ),
            shed: counter_vec(
                "referee_shed_total",
                "Interactions turned away with a quick \"busy\": queue_full (refused at once) or late (waited too long to start).",
                &["reason"],
            ),
            dropped: counter(
                "referee_dropped_total",
                "Interactions dropped unanswered: too late for any answer to reach Discord, or too many in flight.",
            ),
            writes: counter(
                "referee_db_writes_total",
                "Writes committed to the database (group commits are counted by referee_db_commit_seconds_count).",
            ),
            outbox_waiting: gauge(
                "referee_outbox_waiting",
                "GM channel copies waiting in the outbox to be delivered.",
            ),
            outbox_failed: gauge(
                "referee_outbox_failed",
                "GM channel copies Discord refused for good (kept until told to a GM).",
            ),
            outbox_age: gauge(
                "referee_outbox_oldest_age_seconds",
                "How long the oldest copy waiting in the outbox has waited (0 when none waits).",
            ),
            queue,
            registry,
            scrape: tokio::sync::Mutex::new(()),
        };
        for lane in ["write", "read"] {
            metrics.queue.with_label_values(&[lane]);
        }
        for reason in ["queue_full", "late"] {
            metrics.shed.with_label_values(&[reason]);
        }
        for kind in ["new", "resumed"] {
            metrics.gateway.with_label_values(&[kind]);
        }
        metrics
    }

    /// Counts one interaction of `command` (a registered command's name, [`BUTTON`] or
    /// [`UNKNOWN_COMMAND`]) and, when it ran and was answered, its latency since `arrived` (a
    /// stale interaction's answer comes from poise, which does not say when it arrived).
    pub fn interaction(&self, command: &str, outcome: Outcome, arrived: Instant) {
        // The latency first: a scrape that sees an interaction counted also sees its latency.
        if !matches!(
            outcome,
            Outcome::Dropped | Outcome::Unanswered | Outcome::Stale
        ) {
            self.latency.observe(arrived.elapsed().as_secs_f64());
        }
        self.interactions
            .with_label_values(&[command, outcome.label()])
            .inc();
    }

    /// One group commit took `took`.
    pub fn commit(&self, took: Duration) {
        self.commit.observe(took.as_secs_f64());
    }

    /// A gateway session began: new (`resumed` false) or resumed.
    pub fn session(&self, resumed: bool) {
        let kind = if resumed { "resumed" } else { "new" };
        self.gateway.with_label_values(&[kind]).inc();
    }

    /// The text exposition of every metric, after reading what is read at scrape time.
    pub async fn scrape(&self, sources: &Sources) -> String {
        let _one = self.scrape.lock().await;
        let (write, read) = sources.workers.queue_depths();
        self.queue
            .with_label_values(&["write"])
            .set(gauge_value(write));
        self.queue
            .with_label_values(&["read"])
            .set(gauge_value(read));
        self.inflight.set(gauge_value(sources.inflight.current()));
        let (full, late, dropped) = sources.workers.admission.counts();
        catch_up(&self.shed.with_label_values(&["queue_full"]), full);
        catch_up(&self.shed.with_label_values(&["late"]), late);
        catch_up(&self.dropped, dropped);
        catch_up(&self.writes, sources.app.store().commit_counts().0);
        self.read_outbox(sources).await;
        let mut text = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut text) {
            tracing::error!(error = %e, "metrics: cannot encode");
        }
        String::from_utf8(text).unwrap_or_default()
    }

    async fn read_outbox(&self, sources: &Sources) {
        let app = Arc::clone(&sources.app);
        let read = sources.workers.run_read(move || {
            let depth = app.outbox_depth()?;
            let age = app.outbox_oldest_age()?;
            crate::app::AppResult::Ok((depth, age))
        });
        match tokio::time::timeout(OUTBOX_WAIT, read).await {
            Ok(Ok(Ok((depth, age)))) => {
                self.outbox_waiting.set(clamp(depth.waiting));
                self.outbox_failed.set(clamp(depth.failed));
                self.outbox_age.set(clamp(age.unwrap_or(0)));
            }
            Ok(Ok(Err(e))) => tracing::warn!(error = %e, "metrics: cannot read the outbox"),
            Ok(Err(e)) => tracing::warn!(error = %e, "metrics: cannot read the outbox"),
            Err(_) => tracing::warn!("metrics: the outbox's depth took too long to read"),
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

fn gauge_value(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn clamp(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Brings `counter` up to `total` (a count kept elsewhere, which only grows).
fn catch_up(counter: &IntCounter, total: u64) {
    let shown = counter.get();
    if total > shown {
        counter.inc_by(total - shown);
    }
}

/// What a scrape reads besides the counters.
pub struct Sources {
    pub app: Arc<App>,
    pub workers: Arc<Workers>,
    pub inflight: Arc<Inflight>,
}

/// The metrics endpoint, bound and serving.
pub struct Server {
    /// The address it listens on (the port chosen by the system when configured as 0).
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Binds `addr` and serves `GET /metrics` until dropped.
    ///
    /// # Errors
    /// When the address cannot be bound (in use, not this machine's).
    pub async fn start(
        addr: SocketAddr,
        metrics: Arc<Metrics>,
        sources: Sources,
    ) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let sources = Arc::new(sources);
        let task = tokio::spawn(async move {
            loop {
                let stream = match listener.accept().await {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        tracing::warn!(error = %e, "metrics: accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let (metrics, sources) = (Arc::clone(&metrics), Arc::clone(&sources));
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| {
                        let (metrics, sources) = (Arc::clone(&metrics), Arc::clone(&sources));
                        async move {
                            Ok::<_, std::convert::Infallible>(
                                respond(&metrics, &sources, &request).await,
                            )
                        }
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    // A client that never finishes its request does not hold a task for ever.
                    if let Err(e) = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HEADER_WAIT)
                        .serve_connection(io, service)
                        .await
                    {
                        tracing::debug!(error = %e, "metrics: a connection failed");
                    }
                });
            }
        });
        Ok(Self { addr, task })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The answer to one request: the metrics for `GET /metrics`, else 404 (or 405).
async fn respond(
    metrics: &Metrics,
    sources: &Sources,
    request: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    let plain = |status: StatusCode, body: &'static str| {
        let mut response = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
        *response.status_mut() = status;
        response
    };
    if request.uri().path() != "/metrics" {
        return plain(
            StatusCode::NOT_FOUND,
            "not found: the metrics are at /metrics\n",
        );
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "GET only\n");
    }
    let text = metrics.scrape(sources).await;
    let mut response = Response::new(Full::new(Bytes::from(text)));
    if let Ok(value) = hyper::header::HeaderValue::from_str(prometheus::TEXT_FORMAT) {
        response
            .headers_mut()
            .insert(hyper::header::CONTENT_TYPE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Fault;

    #[test]
    fn each_answer_maps_to_its_outcome() {
        let faults = [
            Fault::ReadOnly,
            Fault::Full,
            Fault::Missing,
            Fault::Unreachable,
        ]
        .map(|f| crate::app::fault_message(f, "/var/lib/referee/db.sqlite3"));
        #[rustfmt::skip]
        let cases: Vec<(Result<Reply, Reply>, Outcome)> = vec![
            (Ok(Reply::public("You rolled 7.")), Outcome::Ok),
            (Ok(Reply::ephemeral(super::super::workers::BUSY)), Outcome::Ok),
            (Err(Reply::ephemeral("No character named Bob.")), Outcome::Refused),
            (Err(Reply::ephemeral("")), Outcome::Refused),
            (Err(Reply::ephemeral(super::super::workers::BUSY)), Outcome::Busy),
            (Err(Reply::ephemeral(crate::app::BUSY)), Outcome::Busy),
            (Err(Reply::ephemeral(crate::app::SOMETHING_WENT_WRONG)), Outcome::Error),
            (Err(Reply::ephemeral(super::super::render::SOMETHING_WENT_WRONG)), Outcome::Error),
            (Err(Reply::ephemeral(faults[0].clone())), Outcome::Error),
            (Err(Reply::ephemeral(faults[1].clone())), Outcome::Error),
            (Err(Reply::ephemeral(faults[2].clone())), Outcome::Error),
            (Err(Reply::ephemeral(faults[3].clone())), Outcome::Error),
            // A refusal that merely mentions the server's operator is still a refusal.
            (Err(Reply::ephemeral("Ask the server operator.")), Outcome::Refused),
        ];
        for (result, want) in cases {
            assert_eq!(Outcome::of(&result), want, "{result:?}");
        }
    }

    #[test]
    fn every_outcome_has_its_own_label() {
        let labels: std::collections::HashSet<&str> =
            Outcome::ALL.iter().map(|o| o.label()).collect();
        assert_eq!(labels.len(), Outcome::ALL.len());
        for label in labels {
            assert!(
                label.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{label}"
            );
        }
    }

    #[test]
    fn counts_show_in_the_text_format_with_help_and_type() {
        let metrics = Metrics::new();
        let now = Instant::now();
        metrics.interaction("roll", Outcome::Ok, now);
        metrics.interaction("roll", Outcome::Ok, now);
        metrics.interaction("character create", Outcome::Refused, now);
        metrics.interaction(BUTTON, Outcome::Dropped, now);
        metrics.commit(Duration::from_micros(300));
        metrics.session(false);
        let mut text = Vec::new();
        TextEncoder::new()
            .encode(&metrics.registry.gather(), &mut text)
            .expect("encoded");
        let text = String::from_utf8(text).expect("utf-8");
        for line in [
            "# TYPE referee_interactions_total counter",
            "referee_interactions_total{command=\"roll\",outcome=\"ok\"} 2",
            "referee_interactions_total{command=\"character create\",outcome=\"refused\"} 1",
            "referee_interactions_total{command=\"button\",outcome=\"dropped\"} 1",
            "# TYPE referee_interaction_duration_seconds histogram",
            // The dropped one has no latency.
            "referee_interaction_duration_seconds_count 3",
            "referee_db_commit_seconds_count 1",
            "referee_db_commit_seconds_bucket{le=\"0.0005\"} 1",
            "referee_db_commit_seconds_bucket{le=\"0.00025\"} 0",
            "referee_gateway_sessions_total{kind=\"new\"} 1",
            "referee_gateway_sessions_total{kind=\"resumed\"} 0",
            "referee_shed_total{reason=\"queue_full\"} 0",
            "referee_queue_depth{lane=\"write\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in:\n{text}");
        }
    }

    #[test]
    fn a_counter_kept_elsewhere_is_caught_up_never_back() {
        let counter = IntCounter::new("c", "c").expect("a counter");
        for (total, want) in [(0, 0), (3, 3), (3, 3), (2, 3), (10, 10)] {
            catch_up(&counter, total);
            assert_eq!(counter.get(), want, "after {total}");
        }
    }
}
