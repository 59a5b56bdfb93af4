//! The fake's WebSocket gateway at `/ws`: HELLO, IDENTIFY → READY, heartbeats, RESUME, and
//! INTERACTION_CREATE dispatches with increasing sequence numbers.
//!
//! Owns one task per connection. The newest connection that has been READY (or RESUMED) takes
//! the dispatches; a restarted bot simply connects again. Never validates IDENTIFY strictly
//! (serenity's presence fields are odd) and never sends anything serenity would treat as fatal.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::payload::{self, APPLICATION_ID};
use super::{Dispatch, Outgoing, Shared};

/// Long enough that no heartbeat happens in a short test (serenity may still send one at once).
const HEARTBEAT_INTERVAL_MS: u64 = 45_000;

pub(crate) async fn upgrade(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    {
        let mut log = shared.lock();
        if log.refuse_upgrades > 0 {
            log.refuse_upgrades -= 1;
            log.refused_at.push(Instant::now());
            drop(log);
            shared.changed.notify_all();
            return axum::http::StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    }
    ws.on_upgrade(move |socket| connection(shared, socket))
}

/// Records a READY sent for IDENTIFY `frame` as session `id` on connection `live`.
fn ready_sent(
    shared: &Shared,
    frame: &Value,
    id: &str,
    live: (u64, mpsc::UnboundedSender<Outgoing>),
) {
    let (shard_id, total) = shard_of_identify(frame);
    let mut log = shared.lock();
    log.identifies += 1;
    log.ready_at.push(Instant::now());
    log.identified.push((Instant::now(), shard_id, total));
    log.shard_live.insert(shard_id, live.clone());
    log.session_shards.insert(id.to_owned(), shard_id);
    log.sessions.insert(id.to_owned(), 1);
    log.live = Some(live);
    drop(log);
    shared.changed.notify_all();
}

/// The `[shard, total]` an IDENTIFY names; `(0, 1)` when it names none.
fn shard_of_identify(frame: &Value) -> (u32, u32) {
    let pair = frame["d"]["shard"].as_array().and_then(|a| {
        let shard = u32::try_from(a.first()?.as_u64()?).ok()?;
        let total = u32::try_from(a.get(1)?.as_u64()?).ok()?;
        Some((shard, total))
    });
    pair.unwrap_or((0, 1))
}

/// Records a dispatch flushed to the socket just now, on `session`.
fn dispatched(shared: &Shared, session: Option<&str>, seq: u64, interaction_id: u64) {
    let flushed_at = Instant::now();
    let mut log = shared.lock();
    if let Some(id) = session {
        log.sessions.insert(id.to_owned(), seq);
    }
    log.dispatches.push(Dispatch {
        seq,
        interaction_id,
        flushed_at,
    });
    drop(log);
    shared.changed.notify_all();
}

/// Records a control frame sent, and forgets `forget` (a session a non-resumable op 9 ended).
fn sent_control(shared: &Shared, forget: Option<&str>) {
    let mut log = shared.lock();
    log.control_at.push(Instant::now());
    if let Some(id) = forget {
        log.sessions.remove(id);
    }
    drop(log);
    shared.changed.notify_all();
}

/// The READY event's `d`.
pub fn ready(session_id: &str, resume_url: &str) -> Value {
    json!({
        "v": 10,
        "user": {
            "id": APPLICATION_ID.to_string(),
            "username": "referee",
            "discriminator": "0",
            "global_name": null,
            "avatar": null,
            "bot": true,
            "verified": true,
            "mfa_enabled": false,
            "flags": 0,
        },
        "guilds": [],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": [0, 1],
        "application": { "id": APPLICATION_ID.to_string(), "flags": 0 },
    })
}

fn text(v: &Value) -> Message {
    Message::Text(v.to_string().into())
}

/// The INTERACTION_CREATE frame for a dispatch, numbered `seq`: `(interaction id, frame)`.
fn dispatch_frame(seq: u64, outgoing: Outgoing) -> (u64, Message) {
    match outgoing {
        Outgoing::Dispatch {
            interaction_id,
            payload,
        } => (
            interaction_id,
            text(&json!({"op": 0, "s": seq, "t": "INTERACTION_CREATE", "d": payload})),
        ),
        // Already JSON text: spliced in as it is (the load benchmark's fast path).
        Outgoing::DispatchText {
            interaction_id,
            payload,
        } => (
            interaction_id,
            Message::Text(
                format!(r#"{{"op":0,"s":{seq},"t":"INTERACTION_CREATE","d":{payload}}}"#).into(),
            ),
        ),
        Outgoing::Close | Outgoing::Control { .. } => unreachable!("not a dispatch"),
    }
}

async fn connection(shared: Arc<Shared>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let generation = {
        let mut log = shared.lock();
        log.connections += 1;
        log.connections
    };
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}});
    if sink.send(text(&hello)).await.is_err() {
        return;
    }
    let mut session: Option<String> = None;
    let mut seq: u64 = 0;
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { break };
                let frame: Value = match message {
                    Message::Text(t) => serde_json::from_str(t.as_str()).unwrap_or(Value::Null),
                    Message::Binary(b) => serde_json::from_slice(&b).unwrap_or(Value::Null),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let reply = match frame["op"].as_u64() {
                    Some(1) => Some(json!({"op": 11})),
                    Some(2) => {
                        let id = format!("fake-session-{}", payload::next_id());
                        seq = 1;
                        let ready = json!({
                            "op": 0, "s": seq, "t": "READY",
                            "d": ready(&id, &format!("{}/ws", shared.base.replacen("http", "ws", 1))),
                        });
                        if sink.send(text(&ready)).await.is_err() { break; }
                        ready_sent(&shared, &frame, &id, (generation, tx.clone()));
                        session = Some(id);
                        None
                    }
                    Some(6) => {
                        let wanted = frame["d"]["session_id"].as_str().unwrap_or_default().to_owned();
                        let known = shared.lock().sessions.get(&wanted).copied();
                        if let Some(last) = known {
                            seq = last + 1;
                            let resumed = json!({"op": 0, "s": seq, "t": "RESUMED", "d": {}});
                            if sink.send(text(&resumed)).await.is_err() { break; }
                            let mut log = shared.lock();
                            log.sessions.insert(wanted.clone(), seq);
                            log.resumed_at.push(Instant::now());
                            if let Some(&shard) = log.session_shards.get(&wanted) {
                                log.shard_live.insert(shard, (generation, tx.clone()));
                            }
                            log.live = Some((generation, tx.clone()));
                            drop(log);
                            shared.changed.notify_all();
                            session = Some(wanted);
                            None
                        } else {
                            // Unknown session: make the client IDENTIFY afresh.
                            Some(json!({"op": 9, "d": false}))
                        }
                    }
                    _ => None,
                };
                if let Some(reply) = reply
                    && sink.send(text(&reply)).await.is_err()
                {
                    break;
                }
            }
            outgoing = rx.recv() => {
                match outgoing {
                    Some(outgoing @ (Outgoing::Dispatch { .. } | Outgoing::DispatchText { .. })) => {
                        seq += 1;
                        let (interaction_id, frame) = dispatch_frame(seq, outgoing);
                        // `send` flushes: the frame is on the socket when it returns.
                        if sink.send(frame).await.is_err() { break; }
                        dispatched(&shared, session.as_deref(), seq, interaction_id);
                    }
                    Some(Outgoing::Control { frame, forget_session }) => {
                        if sink.send(text(&frame)).await.is_err() { break; }
                        sent_control(&shared, session.as_deref().filter(|_| forget_session));
                    }
                    Some(Outgoing::Close) | None => {
                        // 4000 is Discord's "unknown error, reconnect": serenity resumes after
                        // it, while a close without a code leaves it reading a dead socket.
                        let frame = CloseFrame { code: 4000, reason: "fake: dropped".into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break;
                    }
                }
            }
        }
    }
    let mut log = shared.lock();
    if log.live.as_ref().is_some_and(|(g, _)| *g == generation) {
        log.live = None;
    }
    log.shard_live.retain(|_, (g, _)| *g != generation);
    drop(log);
    shared.changed.notify_all();
}
