//! The fake's HTTP side: the REST routes under `/api/v10`, attachment downloads, and the router
//! that also mounts the gateway.
//!
//! Owns the answers to each route and the recording of every request (JSON or multipart body,
//! files, arrival time). Checks the `Authorization` header on `/api/v10` (401 when it is not
//! `Bot <token>`), validates message bodies against the OpenAPI schemas as they arrive, and
//! answers any other route with a JSON 404 that the test later fails on. Never blocks a request
//! on a test: answers are immediate.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::openapi::{self, BodyRoute};
use super::payload::{self, APPLICATION_ID, CHANNEL_ID, GUILD_ID};
use super::{FaultKind, File, Request, Shared};

/// Bodies above this are refused (the bot never sends anything near it).
const MAX_BODY: usize = 64 << 20;

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/ws", get(super::gateway::upgrade))
        .route("/attachments/{id}/{name}", get(attachment))
        .fallback(any)
        .with_state(shared)
}

async fn attachment(
    State(shared): State<Arc<Shared>>,
    Path((id, name)): Path<(u64, String)>,
) -> Response {
    match shared.lock().attachments.get(&id) {
        Some((stored, bytes)) if *stored == name => (StatusCode::OK, bytes.clone()).into_response(),
        _ => (StatusCode::NOT_FOUND, "no such attachment").into_response(),
    }
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Every route but `/ws` and the attachments: record, check, answer.
async fn any(State(shared): State<Arc<Shared>>, request: axum::extract::Request) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_BODY)
        .await
        .unwrap_or_default();
    let at = Instant::now();
    let headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let header_value = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let content_type = header_value("content-type").unwrap_or_default();
    let (json, files) = decode_body(&content_type, &bytes);
    let method = parts.method.as_str().to_owned();
    let path = parts.uri.path().to_owned();

    let authorized =
        header_value("authorization").as_deref() == Some(format!("Bot {}", shared.token).as_str());
    let fault = if authorized && path.starts_with("/api/v10/") {
        shared.lock().fault_for(&method, &path["/api/v10".len()..])
    } else {
        None
    };
    let mut hang = false;
    let (status, answer, problem) = if !path.starts_with("/api/v10/") {
        (StatusCode::NOT_FOUND, Some(not_found()), true)
    } else if !authorized {
        (
            StatusCode::UNAUTHORIZED,
            Some(json!({"message": "401: Unauthorized", "code": 0})),
            false,
        )
    } else if let Some(fault) = fault.as_ref().filter(|f| **f != FaultKind::Hang) {
        let (status, body) = fault_answer(fault);
        (status, Some(body), false)
    } else {
        let route = &path["/api/v10".len()..];
        hang = fault.is_some();
        match answer(&shared, &method, route, json.as_ref()) {
            Some((status, body)) => (status, body, false),
            None => (StatusCode::NOT_FOUND, Some(not_found()), true),
        }
    };

    let invalid = if shared.load {
        Vec::new()
    } else {
        check_body(&method, &path, json.as_ref(), status)
    };
    {
        let mut log = shared.lock();
        let index = log.requests.len();
        if problem {
            log.unknown.push(format!("{method} {path}"));
        }
        log.invalid.extend(invalid);
        log.requests.push(Request {
            index,
            method,
            path,
            query: parts.uri.query().map(str::to_owned),
            headers: if shared.load { Vec::new() } else { headers },
            json,
            files,
            // A hung request took effect but was never answered.
            status: if hang { 0 } else { status.as_u16() },
            at,
        });
    }
    shared.changed.notify_all();
    if hang {
        tokio::time::sleep(HANG).await;
    }
    if let Some(FaultKind::TooManyRequests { retry_after }) = &fault {
        let body = answer.unwrap_or_default().to_string();
        return (
            status,
            [
                (header::CONTENT_TYPE, "application/json".to_owned()),
                (header::RETRY_AFTER, format!("{}", retry_after.ceil())),
            ],
            body,
        )
            .into_response();
    }
    match answer {
        Some(body) => json_response(status, &body),
        None => (status, Body::empty()).into_response(),
    }
}

/// How long a hung request is held before the fake answers it after all.
const HANG: std::time::Duration = std::time::Duration::from_mins(1);

/// The answer to a request a fault hits (all but a hang, which is answered normally, late).
fn fault_answer(fault: &FaultKind) -> (StatusCode, Value) {
    match fault {
        FaultKind::ServerError => (
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({"message": "500: Internal Server Error", "code": 0}),
        ),
        FaultKind::TooManyRequests { retry_after } => (
            StatusCode::TOO_MANY_REQUESTS,
            json!({"message": "You are being rate limited.", "retry_after": retry_after,
                   "global": false}),
        ),
        FaultKind::Forbidden => (
            StatusCode::FORBIDDEN,
            json!({"message": "Missing Access", "code": 50001}),
        ),
        FaultKind::Hang => (StatusCode::NO_CONTENT, Value::Null),
    }
}

/// A webhook's message (an interaction's `@original` or a follow-up): read, edited or deleted.
fn webhook_message(
    shared: &Shared,
    method: &str,
    token: &str,
    which: &str,
    body: &Value,
) -> Option<(StatusCode, Option<Value>)> {
    let mut log = shared.lock();
    let id = if which == "@original" {
        log.originals.get(token).copied()
    } else {
        which.parse::<u64>().ok()
    };
    let Some(stored) = id.and_then(|id| log.messages.get_mut(&id)) else {
        // Discord's answer for a response or message that does not exist.
        return (method == "GET" && which == "@original").then(|| {
            (
                StatusCode::NOT_FOUND,
                Some(json!({"message": "Unknown Message", "code": 10008})),
            )
        });
    };
    match method {
        "GET" => Some((StatusCode::OK, Some(stored.clone()))),
        "PATCH" => {
            if let Some(fields) = body.as_object() {
                for (k, v) in fields {
                    stored[k] = v.clone();
                }
            }
            Some((StatusCode::OK, Some(stored.clone())))
        }
        "DELETE" => Some((StatusCode::NO_CONTENT, None)),
        _ => None,
    }
}

fn not_found() -> Value {
    json!({"message": "404: Not Found", "code": 0})
}

/// The answer to an authorized `/api/v10` request: `None` for a route the fake does not serve;
/// `Some((status, None))` for an empty body.
fn answer(
    shared: &Shared,
    method: &str,
    route: &str,
    body: Option<&Value>,
) -> Option<(StatusCode, Option<Value>)> {
    let segments: Vec<&str> = route.trim_start_matches('/').split('/').collect();
    let ok = |v: Value| Some((StatusCode::OK, Some(v)));
    let ws = || format!("{}/ws", shared.base.replacen("http", "ws", 1));
    let empty_object = json!({});
    let body_or_empty = body.unwrap_or(&empty_object);
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({ "url": ws() })),
        ("GET", ["gateway", "bot"]) => ok(json!({
            "url": ws(),
            "shards": shared.lock().recommended_shards.max(1),
            "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1
            },
        })),
        ("GET", ["oauth2", "applications", "@me"]) => ok(json!({
            "id": APPLICATION_ID.to_string(),
            "name": "referee",
            "icon": null,
            "description": "",
            "bot_public": true,
            "bot_require_code_grant": false,
            "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
            "flags": 0,
            "owner": payload::user(1, "owner"),
        })),
        ("PUT", ["applications", _app, "commands"]) => ok(echo_commands(body_or_empty, None)),
        ("PUT", ["applications", _app, "guilds", guild, "commands"]) => {
            ok(echo_commands(body_or_empty, Some(guild)))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            Some(callback(shared, id, token, body_or_empty))
        }
        ("POST", ["webhooks", _app, token]) => {
            if !shared.load && !shared.lock().acknowledged.contains(*token) {
                // An interaction never acknowledged has no webhook.
                return Some((
                    StatusCode::NOT_FOUND,
                    Some(json!({"message": "Unknown Webhook", "code": 10015})),
                ));
            }
            ok(new_message(shared, CHANNEL_ID, body_or_empty))
        }
        (_, ["webhooks", _app, token, "messages", which]) => {
            {
                let log = shared.lock();
                if log.http_tokens.contains(*token) && !log.acknowledged.contains(*token) {
                    // Sent over HTTP, its response not yet taken: Discord knows no webhook yet.
                    return Some((
                        StatusCode::NOT_FOUND,
                        Some(json!({"message": "Unknown Webhook", "code": 10015})),
                    ));
                }
            }
            webhook_message(shared, method, token, which, body_or_empty)
        }
        ("POST", ["channels", channel, "messages"]) => {
            post_channel_message(shared, channel.parse().ok()?, body_or_empty)
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            // An edit of a message the bot posted in that channel: its fields replaced.
            let mut log = shared.lock();
            let stored = log.messages.get_mut(&message.parse::<u64>().ok()?)?;
            if stored["channel_id"] != json!(*channel) {
                return None;
            }
            if let Some(fields) = body_or_empty.as_object() {
                for (k, v) in fields {
                    stored[k] = v.clone();
                }
            }
            ok(stored.clone())
        }
        ("GET", ["channels", channel]) => ok(json!({
            "id": channel,
            "type": 0,
            "guild_id": GUILD_ID.to_string(),
            "name": format!("channel-{channel}"),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
        })),
        ("GET", ["guilds", _guild, "members", user]) => ok(json!({
            "user": payload::user(user.parse().ok()?, &format!("user{user}")),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
        })),
        _ => None,
    }
}

/// How long after its dispatch Discord takes an interaction's callback.
const CALLBACK_WINDOW: std::time::Duration = std::time::Duration::from_secs(3);

/// An interaction callback: the first acknowledges the interaction (and a new message, type 4,
/// becomes its `@original`, which the load benchmark never reads); a second gets Discord's
/// 400/40060; one past the 3 seconds after the dispatch gets Discord's 404/10062, as the
/// interaction has expired (not under load, where the benchmark measures late answers too).
fn callback(shared: &Shared, id: &str, token: &str, body: &Value) -> (StatusCode, Option<Value>) {
    if !shared.load
        && let Ok(id) = id.parse::<u64>()
        && shared
            .lock()
            .dispatches
            .iter()
            .rev()
            .find(|d| d.interaction_id == id)
            .is_some_and(|d| d.flushed_at.elapsed() > CALLBACK_WINDOW)
    {
        return (
            StatusCode::NOT_FOUND,
            Some(json!({"message": "Unknown interaction", "code": 10062})),
        );
    }
    if !shared.load && !shared.lock().acknowledged.insert(token.to_owned()) {
        return (
            StatusCode::BAD_REQUEST,
            Some(json!({"message": "Interaction has already been acknowledged.", "code": 40060})),
        );
    }
    if body["type"] == 4 && !shared.load {
        let id = store_message(shared, CHANNEL_ID, &body["data"]);
        shared.lock().originals.insert(token.to_owned(), id);
    }
    (StatusCode::NO_CONTENT, None)
}

/// A message posted in a channel. With `enforce_nonce`, a nonce seen in the channel returns
/// that message instead of a second one (as Discord does for a few minutes).
fn post_channel_message(
    shared: &Shared,
    channel: u64,
    body: &Value,
) -> Option<(StatusCode, Option<Value>)> {
    let nonce = (body["enforce_nonce"] == true)
        .then(|| match &body["nonce"] {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .flatten();
    if let Some(nonce) = &nonce {
        let log = shared.lock();
        if let Some(id) = log.nonces.get(&(channel, nonce.clone())) {
            return Some((StatusCode::OK, Some(log.messages.get(id)?.clone())));
        }
    }
    let message = new_message(shared, channel, body);
    if let Some(nonce) = nonce
        && let Some(id) = message["id"].as_str().and_then(|i| i.parse().ok())
    {
        shared.lock().nonces.insert((channel, nonce), id);
    }
    Some((StatusCode::OK, Some(message)))
}

/// The registration PUT's commands, answered the way Discord does: each with an id.
fn echo_commands(body: &Value, guild: Option<&str>) -> Value {
    let commands = body.as_array().cloned().unwrap_or_default();
    Value::Array(
        commands
            .into_iter()
            .map(|mut c| {
                let name = c["name"].as_str().unwrap_or_default().to_owned();
                c["id"] = json!(payload::command_id(&name).to_string());
                c["application_id"] = json!(APPLICATION_ID.to_string());
                c["version"] = json!("1");
                if c.get("type").is_none_or(Value::is_null) {
                    c["type"] = json!(1);
                }
                if let Some(g) = guild {
                    c["guild_id"] = json!(g);
                }
                c
            })
            .collect(),
    )
}

/// Creates a message from a body, as Discord would, and returns it.
fn new_message(shared: &Shared, channel_id: u64, body: &Value) -> Value {
    let id = payload::next_id();
    let message = payload::message(id, channel_id, body);
    shared.lock().messages.insert(id, message.clone());
    message
}

/// Creates a message from a body and returns only its id (an interaction's `@original`, which
/// nobody reads back at once: one copy, in `messages`).
fn store_message(shared: &Shared, channel_id: u64, body: &Value) -> u64 {
    let id = payload::next_id();
    let message = payload::message(id, channel_id, body);
    shared.lock().messages.insert(id, message);
    id
}

/// Validates a body the bot sent on a checked route; returns the failure report, if any.
fn check_body(method: &str, path: &str, json: Option<&Value>, status: StatusCode) -> Vec<String> {
    if status == StatusCode::UNAUTHORIZED {
        return Vec::new();
    }
    let Some(route) = body_route(method, path) else {
        return Vec::new();
    };
    let Some(validators) = openapi::validators() else {
        return Vec::new();
    };
    let Some(json) = json else {
        return vec![format!("{method} {path}: no JSON body")];
    };
    let errors = validators.errors(route, json);
    if errors.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "{method} {path}\n  body: {json}\n  errors:\n    {}",
            errors.join("\n    ")
        )]
    }
}

/// Which checked route a request is on.
pub fn body_route(method: &str, path: &str) -> Option<BodyRoute> {
    let route = path.strip_prefix("/api/v10/")?;
    let segments: Vec<&str> = route.split('/').collect();
    match (method, segments.as_slice()) {
        ("POST", ["interactions", _, _, "callback"]) => Some(BodyRoute::Callback),
        ("POST", ["webhooks", _, _]) => Some(BodyRoute::WebhookExecute),
        ("PATCH", ["webhooks", _, _, "messages", _]) => Some(BodyRoute::WebhookEdit),
        ("POST", ["channels", _, "messages"]) => Some(BodyRoute::ChannelMessage),
        ("PATCH", ["channels", _, "messages", _]) => Some(BodyRoute::ChannelMessageEdit),
        ("PUT", ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]) => {
            Some(BodyRoute::Commands)
        }
        _ => None,
    }
}

/// Splits a body into its JSON (plain, or a multipart `payload_json`) and its files.
pub fn decode_body(content_type: &str, bytes: &[u8]) -> (Option<Value>, Vec<File>) {
    if let Some(boundary) = content_type
        .strip_prefix("multipart/form-data")
        .and_then(|rest| {
            rest.split(';')
                .find_map(|p| p.trim().strip_prefix("boundary="))
        })
    {
        let boundary = boundary.trim_matches('"');
        let mut json = None;
        let mut files = Vec::new();
        for part in multipart_parts(bytes, boundary) {
            if part.field == "payload_json" {
                json = serde_json::from_slice(&part.bytes).ok();
            } else {
                files.push(part);
            }
        }
        (json, files)
    } else if bytes.is_empty() {
        (None, Vec::new())
    } else {
        // A body that is not JSON is kept as a string, so the failure shows what came.
        let json = serde_json::from_slice(bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()));
        (Some(json), Vec::new())
    }
}

/// The parts of a `multipart/form-data` body (RFC 7578), each as a [`File`].
fn multipart_parts(body: &[u8], boundary: &str) -> Vec<File> {
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    let mut parts = Vec::new();
    let mut rest = body;
    // Skip the preamble up to the first delimiter.
    let Some(start) = find(rest, delimiter) else {
        return parts;
    };
    rest = &rest[start + delimiter.len()..];
    while !rest.starts_with(b"--") {
        let rest_trimmed = rest.strip_prefix(b"\r\n").unwrap_or(rest);
        let Some(end) = find(rest_trimmed, delimiter) else {
            break;
        };
        let part = &rest_trimmed[..end];
        let part = part.strip_suffix(b"\r\n").unwrap_or(part);
        if let Some(head_end) = find(part, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&part[..head_end]);
            let mut file = File {
                field: String::new(),
                filename: None,
                content_type: None,
                bytes: part[head_end + 4..].to_vec(),
            };
            for line in head.lines() {
                let (name, value) = line.split_once(':').unwrap_or((line, ""));
                if name.eq_ignore_ascii_case("content-disposition") {
                    for param in value.split(';').map(str::trim) {
                        if let Some(v) = param.strip_prefix("name=") {
                            v.trim_matches('"').clone_into(&mut file.field);
                        } else if let Some(v) = param.strip_prefix("filename=") {
                            file.filename = Some(v.trim_matches('"').to_owned());
                        }
                    }
                } else if name.eq_ignore_ascii_case("content-type") {
                    file.content_type = Some(value.trim().to_owned());
                }
            }
            parts.push(file);
        }
        rest = &rest_trimmed[end + delimiter.len()..];
    }
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
