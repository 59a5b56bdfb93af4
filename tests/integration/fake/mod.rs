//! A fake Discord on 127.0.0.1 for end-to-end tests of the real `referee` binary.
//!
//! Owns the REST routes the bot calls (under `/api/v10`, see `rest`), the WebSocket gateway at
//! `/ws` (see `gateway`), attachment downloads at `/attachments/{id}/{name}`, the record of every
//! request, and the checks that make a test fail: an unknown route, or a body that breaks
//! Discord's OpenAPI schema (`openapi`). Never talks to the real Discord, never sleeps to wait:
//! every wait is on an event, with a timeout, and a failed wait lists what did arrive.
//!
//! The server runs on its own tokio runtime, so tests stay plain `#[test]` functions and the API
//! below is blocking. Dropping the handle (when the test is not already panicking) asserts that no
//! unknown route was hit and every checked body was valid; [`FakeDiscord::finish`] does the same
//! on demand.
//!
//! # Using it without the `e2e::Session` harness (a benchmark, a custom test)
//!
//! ```text
//! let fake = FakeDiscord::start();                       // or with_token("…")
//! let dir = tempfile::tempdir()?;
//! let mut bot = BotProcess::spawn(&BotOptions::new(&fake, dir.path()));
//! fake.wait_ready(1, TIMEOUT);                           // READY sent, a socket takes dispatches
//! let i = payload::command(&Caller::player(10), "roll",
//!                          vec![payload::string("expression", "2d6")], Value::Null);
//! fake.dispatch(&i);                                     // returns at once (open loop)
//! let cb = fake.callback_for(i.id);                      // Request: json, files, at (Instant)
//! let sent = fake.dispatches();                          // Dispatch { seq, interaction_id, flushed_at }
//! let latency = cb.at - sent[0].flushed_at;
//! bot.terminate(TIMEOUT);                                // SIGTERM → ExitStatus
//! ```

// A toolkit for every end-to-end test and benchmark: each test uses only part of it.
#![allow(dead_code)]

pub mod endpoint;
pub mod gateway;
pub mod openapi;
pub mod payload;
pub mod process;
pub mod rest;
// The load benchmark includes this module in a target without a test harness, where the test
// functions are compiled out and their imports and helpers would look unused.
#[cfg(test)]
#[allow(unused)]
mod tests;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;

/// How long any expectation waits before failing (the bot answers in milliseconds).
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The token a fake accepts unless told otherwise.
pub const TOKEN: &str = "fake-token.for-tests.only";

/// One file of a multipart body.
#[derive(Debug, Clone)]
pub struct File {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// One HTTP request the bot made, as the fake saw it.
#[derive(Debug, Clone)]
pub struct Request {
    /// Arrival order, from 0, over the fake's whole life.
    pub index: usize,
    pub method: String,
    /// The full path, e.g. `/api/v10/interactions/1/tok/callback`.
    pub path: String,
    pub query: Option<String>,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    /// The JSON body, or a multipart body's `payload_json`; `None` when there was no JSON.
    pub json: Option<Value>,
    pub files: Vec<File>,
    /// The status the fake answered.
    pub status: u16,
    /// When the request (head and body) had arrived.
    pub at: Instant,
}

impl Request {
    /// The path without `/api/v10`.
    pub fn route(&self) -> &str {
        self.path.strip_prefix("/api/v10").unwrap_or(&self.path)
    }

    /// `"POST /api/v10/…"`.
    pub fn line(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// True for `method` on a route (without `/api/v10`) starting with `prefix`.
    pub fn is(&self, method: &str, prefix: &str) -> bool {
        self.method == method && self.route().starts_with(prefix)
    }

    /// The JSON body; panics (naming the request) when there is none.
    pub fn body(&self) -> &Value {
        self.json
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no JSON body", self.line()))
    }

    /// Is this the interaction callback of `interaction_id`?
    pub fn is_callback_of(&self, interaction_id: u64) -> bool {
        self.method == "POST"
            && self
                .route()
                .starts_with(&format!("/interactions/{interaction_id}/"))
            && self.route().ends_with("/callback")
    }

    /// Is this a follow-up (`POST /webhooks/{app}/{token}`) for the interaction `token`?
    pub fn is_followup_of(&self, token: &str) -> bool {
        self.method == "POST" && self.route().starts_with("/webhooks/") && {
            let mut parts = self.route().split('/').skip(3);
            parts.next() == Some(token) && parts.next().is_none()
        }
    }

    /// Is this a message posted in `channel_id` (`POST /channels/{id}/messages`)?
    pub fn is_channel_message(&self, channel_id: u64) -> bool {
        self.method == "POST" && self.route() == format!("/channels/{channel_id}/messages")
    }

    fn summary(&self) -> String {
        let body = self
            .json
            .as_ref()
            .map(|j| {
                let s = j.to_string();
                if s.len() > 300 {
                    format!("{}…", &s[..s.floor_char_boundary(300)])
                } else {
                    s
                }
            })
            .unwrap_or_default();
        format!("#{} {} → {} {body}", self.index, self.line(), self.status)
    }
}

/// One INTERACTION_CREATE the gateway wrote.
#[derive(Debug, Clone)]
pub struct Dispatch {
    pub seq: u64,
    pub interaction_id: u64,
    /// When the frame had been flushed to the socket (latency is measured from here).
    pub flushed_at: Instant,
}

/// What the gateway connection tasks are told to do.
#[derive(Debug)]
pub(crate) enum Outgoing {
    Dispatch {
        interaction_id: u64,
        payload: Value,
    },
    /// A payload already serialized (the load benchmark's fast path).
    DispatchText {
        interaction_id: u64,
        payload: String,
    },
    Close,
    /// A gateway opcode frame (op 7 RECONNECT, op 9 INVALID SESSION); `forget_session` makes the
    /// session unknown to a later RESUME, as a non-resumable op 9 does at Discord.
    Control {
        frame: Value,
        forget_session: bool,
    },
}

/// Everything the fake has seen, behind one lock, with one condition variable for the waits.
#[derive(Default)]
pub(crate) struct Log {
    pub requests: Vec<Request>,
    pub unknown: Vec<String>,
    pub invalid: Vec<String>,
    pub dispatches: Vec<Dispatch>,
    /// IDENTIFYs answered with READY, over all connections.
    pub identifies: usize,
    /// When each READY was sent (IDENTIFY answered), in order.
    pub ready_at: Vec<Instant>,
    /// RESUMEs answered with RESUMED, and when.
    pub resumed_at: Vec<Instant>,
    /// Each IDENTIFY answered: when, and the `[shard, total]` it named (`[0, 1]` when absent).
    pub identified: Vec<(Instant, u32, u32)>,
    /// The connection that takes each shard's dispatches (set by READY or RESUMED).
    pub shard_live: HashMap<u32, (u64, mpsc::UnboundedSender<Outgoing>)>,
    /// The shard each session was identified for (a RESUME keeps it).
    pub session_shards: HashMap<String, u32>,
    /// The `shards` Get Gateway Bot recommends (0 is read as 1).
    pub recommended_shards: u32,
    /// Gateway connections still to refuse (HTTP 503 on `/ws`), and when each refusal was.
    pub refuse_upgrades: usize,
    pub refused_at: Vec<Instant>,
    /// When each control frame ([`FakeDiscord::invalidate_session`], [`FakeDiscord::reconnect`])
    /// was flushed.
    pub control_at: Vec<Instant>,
    /// Sessions started, for RESUME: session id → last sequence number.
    pub sessions: HashMap<String, u64>,
    /// The connection that receives dispatches: (its generation, its sender).
    pub live: Option<(u64, mpsc::UnboundedSender<Outgoing>)>,
    pub connections: u64,
    /// Files served at `/attachments/{id}/{name}`.
    pub attachments: HashMap<u64, (String, Vec<u8>)>,
    /// The `@original` message of each interaction token: its id in `messages`.
    pub originals: HashMap<String, u64>,
    /// Messages by id, as created through the fake.
    pub messages: HashMap<u64, Value>,
    /// Faults to inject, each with how many matching requests it has seen (see [`Fault`]).
    pub faults: Vec<(Fault, u64)>,
    /// Tokens of interactions Discord has acknowledged (a callback went through, or hung after
    /// arriving): a second callback gets 400/40060, and a follow-up needs one (else 404/10015).
    /// Not kept by a load fake.
    pub acknowledged: std::collections::HashSet<String>,
    /// Messages created with `enforce_nonce`: (channel, nonce) → message id.
    pub nonces: HashMap<(u64, String), u64>,
    /// Tokens of interactions sent to an HTTP Interactions Endpoint (`referee serve`; see
    /// `endpoint`): until their response is taken, their webhook is unknown (404/10015).
    pub http_tokens: std::collections::HashSet<String>,
}

/// Which requests a [`Fault`] hits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultTarget {
    /// `POST /interactions/{id}/{token}/callback`.
    Callback,
    /// `POST /webhooks/{app}/{token}` (follow-ups).
    Followup,
    /// `POST /channels/{id}/messages` in this channel.
    ChannelMessages(u64),
}

/// What a faulted request gets.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultKind {
    /// 500 Internal Server Error; the request had no effect.
    ServerError,
    /// 429 with `retry_after` (seconds) in the body and `Retry-After` in the headers; no effect.
    TooManyRequests { retry_after: f64 },
    /// 403 Missing Access (code 50001); no effect.
    Forbidden,
    /// The request takes effect but its answer never comes back (the connection is held open
    /// for a minute). Recorded with status 0.
    Hang,
}

/// A fault injected into matching requests: of every `one_in` matching requests, the last one
/// fails (1 = every one; 5 = 20%), counted over the fault's life, retries included, so the
/// pattern is the same on every run.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    pub target: FaultTarget,
    pub kind: FaultKind,
    pub one_in: u64,
}

impl Fault {
    pub fn new(target: FaultTarget, kind: FaultKind, one_in: u64) -> Self {
        Self {
            target,
            kind,
            one_in: one_in.max(1),
        }
    }

    fn matches(&self, method: &str, route: &str) -> bool {
        if method != "POST" {
            return false;
        }
        let segments: Vec<&str> = route.trim_start_matches('/').split('/').collect();
        match (&self.target, segments.as_slice()) {
            (FaultTarget::Callback, ["interactions", _, _, "callback"])
            | (FaultTarget::Followup, ["webhooks", _, _]) => true,
            (FaultTarget::ChannelMessages(id), ["channels", channel, "messages"]) => {
                *channel == id.to_string()
            }
            _ => false,
        }
    }
}

impl Log {
    /// The fault this request gets, if any (counting it against every matching fault).
    pub(crate) fn fault_for(&mut self, method: &str, route: &str) -> Option<FaultKind> {
        let mut hit = None;
        for (fault, seen) in &mut self.faults {
            if fault.matches(method, route) {
                *seen += 1;
                if hit.is_none() && *seen % fault.one_in == 0 {
                    hit = Some(fault.kind.clone());
                }
            }
        }
        hit
    }
}

impl Log {
    /// An empty log with room for `n` requests, dispatches and messages, so that a long load
    /// run never grows a vector or rehashes a map while the lock is held (a 100,000-entry
    /// vector's growth held every request and dispatch for ~20 ms; measured by the bot's slow
    /// callbacks arriving in bursts).
    fn with_room(n: usize) -> Self {
        Self {
            requests: Vec::with_capacity(n),
            dispatches: Vec::with_capacity(n),
            originals: HashMap::with_capacity(n),
            messages: HashMap::with_capacity(n),
            ..Self::default()
        }
    }
}

/// Requests a load fake has room for before its record grows (a 30-s phase at 5,000/s is
/// 150,000; the memory is only reserved, and touched as it fills).
const LOAD_ROOM: usize = 1 << 18;

pub(crate) struct Shared {
    /// A fake for the load benchmark ([`FakeDiscord::for_load`]), whose CPU would be counted
    /// against the bot's latency: bodies are not checked against the OpenAPI schemas, and the
    /// record keeps what the benchmark reads (route, arrival, JSON body) but no headers and no
    /// `@original` messages, which the benchmark never reads back.
    pub load: bool,
    pub token: String,
    pub base: String,
    pub log: Mutex<Log>,
    pub changed: Condvar,
}

impl Shared {
    pub fn lock(&self) -> MutexGuard<'_, Log> {
        // A poisoned lock means a test thread panicked mid-update; the log is still readable.
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The handle on one running fake. Cheap to share by reference; dropping it stops the server.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    runtime: Option<tokio::runtime::Runtime>,
    port: u16,
}

impl FakeDiscord {
    /// Starts a fake that accepts [`TOKEN`].
    pub fn start() -> Self {
        Self::with_token(TOKEN)
    }

    /// Starts a fake that accepts `Bot <token>` and answers 401 to anything else.
    pub fn with_token(token: &str) -> Self {
        Self::build(token, false)
    }

    /// A fake for the load benchmark: the same routes, without the OpenAPI body checks, without
    /// re-checking each dispatched payload against serenity's types (the end-to-end tests make
    /// both; the benchmark's templates are checked once when built, and here that CPU would be
    /// taken from the bot, which shares the machine), and with a lean record (see
    /// `Shared::load`).
    pub fn for_load() -> Self {
        Self::build(TOKEN, true)
    }

    fn build(token: &str, load: bool) -> Self {
        // Warn about a missing spec now, once, rather than in the middle of a request.
        let _ = openapi::validators();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("fake-discord")
            .enable_all()
            .build()
            .expect("a tokio runtime for the fake");
        // Bound with std, so starting a fake inside an async test does not nest runtimes.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let port = listener.local_addr().expect("local address").port();
        let shared = Arc::new(Shared {
            load,
            token: token.to_owned(),
            base: format!("http://127.0.0.1:{port}"),
            log: Mutex::new(if load {
                Log::with_room(LOAD_ROOM)
            } else {
                Log::default()
            }),
            changed: Condvar::new(),
        });
        let app = rest::router(shared.clone());
        runtime.spawn(async move {
            use axum::serve::ListenerExt;
            let listener = tokio::net::TcpListener::from_std(listener).expect("a tokio listener");
            // Nagle's algorithm plus the peer's delayed ACK would hold small frames back by
            // tens of milliseconds, and the fake, not the bot, would dominate every latency.
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            let _ = axum::serve(listener, app).await;
        });
        Self {
            shared,
            runtime: Some(runtime),
            port,
        }
    }

    /// `http://127.0.0.1:PORT`: what `DISCORD_API_BASE` is set to.
    pub fn base(&self) -> &str {
        &self.shared.base
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The token this fake accepts (without `Bot `).
    pub fn token(&self) -> &str {
        &self.shared.token
    }

    /// A copy of every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.shared.lock().requests.clone()
    }

    /// Requests to routes the fake does not serve (each also answered with a JSON 404).
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.lock().unknown.clone()
    }

    /// Bodies that broke Discord's OpenAPI schema: path, body and errors.
    pub fn invalid_bodies(&self) -> Vec<String> {
        self.shared.lock().invalid.clone()
    }

    /// Every INTERACTION_CREATE flushed so far.
    pub fn dispatches(&self) -> Vec<Dispatch> {
        self.shared.lock().dispatches.clone()
    }

    /// The requests from the `first`th on (a load phase's, without copying what came before).
    pub fn requests_from(&self, first: usize) -> Vec<Request> {
        let log = self.shared.lock();
        log.requests.get(first..).unwrap_or_default().to_vec()
    }

    /// The INTERACTION_CREATEs flushed from the `first`th on.
    pub fn dispatches_from(&self, first: usize) -> Vec<Dispatch> {
        let log = self.shared.lock();
        log.dispatches.get(first..).unwrap_or_default().to_vec()
    }

    /// How many INTERACTION_CREATEs were flushed so far.
    pub fn dispatch_count(&self) -> usize {
        self.shared.lock().dispatches.len()
    }

    /// IDENTIFYs answered with READY so far (one per bot start, plus forced re-identifies).
    pub fn identifies(&self) -> usize {
        self.shared.lock().identifies
    }

    /// Empties and returns the recorded problems (unknown routes, invalid bodies), for a test
    /// that provokes one on purpose.
    pub fn take_problems(&self) -> Vec<String> {
        let mut log = self.shared.lock();
        let mut out = std::mem::take(&mut log.unknown);
        out.append(&mut log.invalid);
        out
    }

    /// Panics if any unknown route was hit or any checked body was invalid.
    pub fn finish(&self) {
        let log = self.shared.lock();
        let mut problems = String::new();
        for u in &log.unknown {
            let _ = writeln!(problems, "unknown route: {u}");
        }
        for i in &log.invalid {
            let _ = writeln!(problems, "body against Discord's OpenAPI schema: {i}");
        }
        assert!(
            problems.is_empty(),
            "the fake Discord saw problems:\n{problems}"
        );
    }

    /// Waits until `pred` holds for the log, and returns what `pred` found.
    fn wait_log<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut pred: impl FnMut(&Log) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + timeout;
        let mut log = self.shared.lock();
        loop {
            if let Some(found) = pred(&log) {
                return found;
            }
            let now = Instant::now();
            if now >= deadline {
                let arrived: Vec<String> = log.requests.iter().map(Request::summary).collect();
                panic!(
                    "timed out after {timeout:?} waiting for {what}; {} request(s) arrived:\n{}\n\
                     gateway: {} IDENTIFY(s), {} dispatch(es)",
                    arrived.len(),
                    arrived.join("\n"),
                    log.identifies,
                    log.dispatches.len()
                );
            }
            log = self
                .shared
                .changed
                .wait_timeout(log, deadline - now)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }

    /// Waits for the first request (from index `from` on) for which `pred` holds.
    pub fn wait_for_from(
        &self,
        from: usize,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&Request) -> bool,
    ) -> Request {
        self.wait_log(timeout, what, |log| {
            log.requests.iter().skip(from).find(|r| pred(r)).cloned()
        })
    }

    /// Waits for the first request for which `pred` holds.
    pub fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&Request) -> bool,
    ) -> Request {
        self.wait_for_from(0, what, timeout, pred)
    }

    /// Waits until `n` requests satisfy `pred`; returns them.
    pub fn wait_for_n(
        &self,
        n: usize,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&Request) -> bool,
    ) -> Vec<Request> {
        self.wait_log(timeout, what, |log| {
            let found: Vec<Request> = log.requests.iter().filter(|r| pred(r)).cloned().collect();
            (found.len() >= n).then_some(found)
        })
    }

    /// The callback of interaction `interaction_id` (within [`TIMEOUT`]).
    pub fn callback_for(&self, interaction_id: u64) -> Request {
        self.wait_for(
            &format!("the callback of interaction {interaction_id}"),
            TIMEOUT,
            |r| r.is_callback_of(interaction_id),
        )
    }

    /// The `n`th (from 0) follow-up for interaction `token` (within [`TIMEOUT`]).
    pub fn followup_for(&self, token: &str, n: usize) -> Request {
        self.wait_for_n(n + 1, &format!("follow-up #{n} of {token}"), TIMEOUT, |r| {
            r.is_followup_of(token)
        })
        .swap_remove(n)
    }

    /// Waits until `count` IDENTIFYs have been answered and a connection takes dispatches.
    pub fn wait_ready(&self, count: usize, timeout: Duration) {
        self.wait_log(timeout, &format!("{count} gateway READY(s)"), |log| {
            (log.identifies >= count && log.live.is_some()).then_some(())
        });
    }

    /// Sends an interaction over the live gateway connection (waiting up to [`TIMEOUT`] for one).
    /// Returns at once: the dispatch's flush time is recorded in [`FakeDiscord::dispatches`].
    /// The payload is checked against serenity's `Interaction` first (but for
    /// [`FakeDiscord::for_load`]).
    pub fn dispatch(&self, payload: &payload::Built) {
        if !self.shared.load {
            payload::checked(&payload.json);
        }
        self.live_sender()
            .send(Outgoing::Dispatch {
                interaction_id: payload.id,
                payload: payload.json.clone(),
            })
            .expect("the gateway connection is open");
    }

    /// Sends an interaction serenity cannot read (asserted), as Discord might: for the test that
    /// such an interaction is still answered.
    pub fn dispatch_unreadable(&self, payload: &payload::Built) {
        assert!(
            serde_json::from_value::<serenity::all::Interaction>(payload.json.clone()).is_err(),
            "serenity reads this interaction: {:#}",
            payload.json
        );
        self.live_sender()
            .send(Outgoing::Dispatch {
                interaction_id: payload.id,
                payload: payload.json.clone(),
            })
            .expect("the gateway connection is open");
    }

    /// Sends an interaction given as JSON text, unchecked: for the load benchmark, whose payloads
    /// are copies of templates built (and checked) by [`payload`] with a fresh id and token.
    /// Records the flush time like [`FakeDiscord::dispatch`].
    #[allow(dead_code)]
    pub fn dispatch_text(&self, interaction_id: u64, payload: String) {
        self.live_sender()
            .send(Outgoing::DispatchText {
                interaction_id,
                payload,
            })
            .expect("the gateway connection is open");
    }

    /// The live gateway connection's queue (waiting up to [`TIMEOUT`] for one).
    fn live_sender(&self) -> mpsc::UnboundedSender<Outgoing> {
        self.wait_log(TIMEOUT, "a gateway connection to dispatch on", |log| {
            log.live.as_ref().map(|(_, tx)| tx.clone())
        })
    }

    /// How many requests from the `from`th on match `pred`, without copying the record.
    #[allow(dead_code)]
    pub fn count_requests(&self, from: usize, pred: impl Fn(&Request) -> bool) -> usize {
        let log = self.shared.lock();
        log.requests
            .get(from..)
            .map_or(0, |r| r.iter().filter(|r| pred(r)).count())
    }

    /// How many requests have been recorded.
    #[allow(dead_code)]
    pub fn request_count(&self) -> usize {
        self.shared.lock().requests.len()
    }

    /// The interaction `token`'s original response (what its user sees), if it exists.
    pub fn original(&self, token: &str) -> Option<Value> {
        let log = self.shared.lock();
        let id = log.originals.get(token)?;
        log.messages.get(id).cloned()
    }

    /// Replaces the injected faults (an empty list: Discord works again).
    pub fn set_faults(&self, faults: Vec<Fault>) {
        self.shared.lock().faults = faults.into_iter().map(|f| (f, 0)).collect();
        self.shared.changed.notify_all();
    }

    /// Messages that exist in `channel_id` (created by a post, not doubled by a repeated nonce),
    /// oldest first.
    pub fn channel_messages(&self, channel_id: u64) -> Vec<Value> {
        messages_in(&self.shared.lock(), channel_id)
    }

    /// Waits until `pred` holds for the messages of `channel_id`; returns them.
    pub fn wait_channel(
        &self,
        channel_id: u64,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&[Value]) -> bool,
    ) -> Vec<Value> {
        self.wait_log(timeout, what, |log| {
            let out = messages_in(log, channel_id);
            pred(&out).then_some(out)
        })
    }

    /// Waits until `pred` holds for the whole record of requests (a count of answers, say).
    pub fn wait_requests<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut pred: impl FnMut(&[Request]) -> Option<T>,
    ) -> T {
        self.wait_log(timeout, what, |log| pred(&log.requests))
    }

    /// Closes the live gateway socket (the bot should RESUME or reconnect).
    pub fn drop_gateway(&self) {
        if let Some((_, tx)) = self.shared.lock().live.take() {
            let _ = tx.send(Outgoing::Close);
        }
    }

    /// Sends op 9 INVALID SESSION on the live connection (`resumable` is its `d`), and stops
    /// dispatching until the bot is READY or RESUMED again.
    pub fn invalidate_session(&self, resumable: bool) {
        self.control(json!({"op": 9, "d": resumable}), !resumable);
    }

    /// Sends op 7 RECONNECT on the live connection (the bot should RESUME on a new one).
    pub fn reconnect(&self) {
        self.control(json!({"op": 7, "d": null}), false);
    }

    fn control(&self, frame: Value, forget_session: bool) {
        let tx = self.live_sender();
        self.shared.lock().live = None;
        let _ = tx.send(Outgoing::Control {
            frame,
            forget_session,
        });
    }

    /// Makes Get Gateway Bot recommend `shards` shards (for `shards = "auto"`).
    pub fn recommend_shards(&self, shards: u32) {
        self.shared.lock().recommended_shards = shards;
    }

    /// Every IDENTIFY answered: when, shard, total.
    pub fn identified(&self) -> Vec<(Instant, u32, u32)> {
        self.shared.lock().identified.clone()
    }

    /// Waits until `count` IDENTIFYs have been answered.
    pub fn wait_log_identified(&self, count: usize, timeout: Duration) {
        self.wait_log(timeout, &format!("{count} IDENTIFYs"), |log| {
            (log.identified.len() >= count).then_some(())
        });
    }

    /// Waits until every one of `shards` has a connection that takes dispatches.
    pub fn wait_shards(&self, shards: &[u32], timeout: Duration) {
        self.wait_log(timeout, &format!("shards {shards:?} READY"), |log| {
            shards
                .iter()
                .all(|s| log.shard_live.contains_key(s))
                .then_some(())
        });
    }

    /// The shard Discord routes guild `guild`'s events to: `(guild >> 22) % total`.
    pub fn shard_of(guild: u64, total: u32) -> u32 {
        ((guild >> 22) % u64::from(total)) as u32
    }

    /// Sends an interaction on the connection of the shard its guild belongs to (`total` shards),
    /// like Discord; waits up to [`TIMEOUT`] for that shard to be connected.
    pub fn dispatch_routed(&self, payload: &payload::Built, total: u32) {
        let guild = payload.json["guild_id"]
            .as_str()
            .and_then(|g| g.parse().ok())
            .expect("a guild interaction");
        self.shard_sender(Self::shard_of(guild, total))
            .send(Outgoing::Dispatch {
                interaction_id: payload.id,
                payload: payload.json.clone(),
            })
            .expect("the shard's connection is open");
    }

    /// [`FakeDiscord::dispatch_text`] on the connection of `shard` (the caller routes: the load
    /// benchmark works out each template's shard once, with [`FakeDiscord::shard_of`]).
    pub fn dispatch_text_to_shard(&self, shard: u32, interaction_id: u64, payload: String) {
        self.shard_sender(shard)
            .send(Outgoing::DispatchText {
                interaction_id,
                payload,
            })
            .expect("the shard's connection is open");
    }

    /// The queue of `shard`'s connection (waiting up to [`TIMEOUT`] for one).
    fn shard_sender(&self, shard: u32) -> mpsc::UnboundedSender<Outgoing> {
        self.wait_log(TIMEOUT, &format!("shard {shard} connected"), |log| {
            log.shard_live.get(&shard).map(|(_, tx)| tx.clone())
        })
    }

    /// Closes the live gateway socket and refuses the next `attempts` connections (Discord's
    /// gateway unreachable for a moment).
    pub fn drop_gateway_refusing(&self, attempts: usize) {
        self.shared.lock().refuse_upgrades = attempts;
        self.drop_gateway();
    }

    /// How many gateway connections have been refused so far.
    pub fn refused(&self) -> usize {
        self.shared.lock().refused_at.len()
    }

    /// READY times, RESUMED times and control-frame times so far (see [`Log`]).
    pub fn gateway_times(&self) -> (Vec<Instant>, Vec<Instant>, Vec<Instant>) {
        let log = self.shared.lock();
        (
            log.ready_at.clone(),
            log.resumed_at.clone(),
            log.control_at.clone(),
        )
    }

    /// Waits until the gateway has answered a READY or RESUMED after the last refusal, and a
    /// connection takes dispatches.
    pub fn wait_log_ready_or_resumed(&self, timeout: Duration) {
        self.wait_log(timeout, "READY or RESUMED after the refusals", |log| {
            let last_refusal = log.refused_at.last().copied()?;
            let back = log
                .ready_at
                .iter()
                .chain(&log.resumed_at)
                .any(|t| *t > last_refusal);
            (back && log.live.is_some()).then_some(())
        });
    }

    /// Waits until `count` RESUMEs have been answered and a connection takes dispatches.
    pub fn wait_resumed(&self, count: usize, timeout: Duration) {
        self.wait_log(timeout, &format!("{count} gateway RESUMED(s)"), |log| {
            (log.resumed_at.len() >= count && log.live.is_some()).then_some(())
        });
    }

    /// Makes `bytes` downloadable at the returned URL (`{base}/attachments/{id}/{name}`);
    /// returns `(id, url)`.
    pub fn add_attachment(&self, name: &str, bytes: Vec<u8>) -> (u64, String) {
        let id = payload::next_id();
        self.shared
            .lock()
            .attachments
            .insert(id, (name.to_owned(), bytes));
        (id, format!("{}/attachments/{id}/{name}", self.base()))
    }
}

/// The messages of `channel_id`, oldest first.
fn messages_in(log: &Log, channel_id: u64) -> Vec<Value> {
    let mut out: Vec<(u64, Value)> = log
        .messages
        .iter()
        .filter(|(_, m)| m["channel_id"].as_str().and_then(|c| c.parse().ok()) == Some(channel_id))
        .map(|(id, m)| (*id, m.clone()))
        .collect();
    out.sort_by_key(|(id, _)| *id);
    out.into_iter().map(|(_, m)| m).collect()
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            // Never blocks, so the handle may be dropped inside an async test too.
            rt.shutdown_background();
        }
        if !std::thread::panicking() {
            self.finish();
        }
    }
}
