//! Discord's side of an HTTP Interactions Endpoint (`referee serve`): a test key that signs
//! interactions as Discord does, a small blocking HTTP/1.1 client that POSTs them to a worker,
//! and [`FakeDiscord::take_response`], which takes a worker's response the way Discord takes an
//! interaction callback — checked against the OpenAPI schema of the callback route (a failure
//! fails the test when the fake is dropped), the interaction acknowledged (a second answer is a
//! failure too), and the message it makes kept as its `@original` — so the worker's later REST
//! calls (an edit of a deferred answer, a follow-up) find what Discord would have.
//!
//! Never waits without a timeout: every socket has [`super::TIMEOUT`] to read and write.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::TcpStream;

use ed25519_dalek::{Signer as _, SigningKey};
use serde_json::{Value, json};

use super::openapi::{self, BodyRoute};
use super::payload::{self, CHANNEL_ID};
use super::{FakeDiscord, TIMEOUT};

/// The application's signing key in tests: a fixed seed, so no randomness is needed.
pub struct Signer(SigningKey);

impl Signer {
    pub fn test() -> Self {
        Self(SigningKey::from_bytes(&[42; 32]))
    }

    /// Another key, for signatures the workers must refuse.
    pub fn stranger() -> Self {
        Self(SigningKey::from_bytes(&[43; 32]))
    }

    /// The public key as the developer portal shows it (`DISCORD_PUBLIC_KEY`).
    pub fn public_key_hex(&self) -> String {
        hex::encode(self.0.verifying_key().as_bytes())
    }

    /// `X-Signature-Ed25519` for `body` sent at `timestamp`.
    pub fn sign(&self, timestamp: &str, body: &[u8]) -> String {
        let mut message = timestamp.as_bytes().to_vec();
        message.extend_from_slice(body);
        hex::encode(self.0.sign(&message).to_bytes())
    }

    /// Both signature headers for `body`, signed now.
    pub fn headers(&self, body: &[u8]) -> Vec<(String, String)> {
        let timestamp = now().to_string();
        vec![
            (
                "X-Signature-Ed25519".to_owned(),
                self.sign(&timestamp, body),
            ),
            ("X-Signature-Timestamp".to_owned(), timestamp),
        ]
    }
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// A worker's HTTP response.
#[derive(Debug, Clone)]
pub struct HttpReply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl HttpReply {
    /// The body as JSON; panics, showing it, when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "the {} response is not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends one request to `127.0.0.1:port` on a connection of its own and reads the response.
/// An error when the connection fails (refused: nobody listens; reset: the worker died).
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<HttpReply> {
    exchange(port, &head(method, path, headers, body.len()), body)
}

/// A request's head (`Connection: close`), declaring a body of `length` bytes.
pub fn head(method: &str, path: &str, headers: &[(String, String)], length: usize) -> String {
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\nConnection: close\r\n"
    );
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    head.push_str("\r\n");
    head
}

/// Sends `head` and `body` on a connection of their own and reads the response.
pub fn exchange(port: u16, head: &str, body: &[u8]) -> std::io::Result<HttpReply> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    stream.set_nodelay(true)?;
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    parse_response(&raw).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!(
                "not an HTTP response: {:?}",
                String::from_utf8_lossy(&raw[..raw.len().min(200)])
            ),
        )
    })
}

/// Status and body of a whole HTTP/1.1 response (the connection closed after it).
fn parse_response(raw: &[u8]) -> Option<HttpReply> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let body = raw[end + 4..].to_vec();
    let chunked = head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:") && l.contains("chunked"));
    let body = if chunked { dechunk(&body)? } else { body };
    Some(HttpReply { status, body })
}

fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = raw.windows(2).position(|w| w == b"\r\n")?;
        let size =
            usize::from_str_radix(std::str::from_utf8(&raw[..line_end]).ok()?.trim(), 16).ok()?;
        raw = &raw[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = raw.get(size + 2..)?;
    }
}

impl FakeDiscord {
    /// `token`'s interaction is being sent over HTTP: until its response is taken, Discord knows
    /// no webhook for it (an edit of its `@original` gets 404/10015, as a follow-up does).
    pub fn expect_http(&self, token: &str) {
        self.shared.lock().http_tokens.insert(token.to_owned());
    }

    /// Takes a worker's HTTP response to `interaction` as Discord takes a callback (see the
    /// module's documentation).
    pub fn take_response(&self, interaction: &Value, response: &Value) {
        let id = interaction["id"].as_str().unwrap_or("?").to_owned();
        let token = interaction["token"].as_str().unwrap_or_default().to_owned();
        let errors = openapi::validators()
            .map(|v| v.errors(BodyRoute::Callback, response))
            .unwrap_or_default();
        let mut log = self.shared.lock();
        if !errors.is_empty() {
            log.invalid.push(format!(
                "the HTTP response to interaction {id}\n  body: {response}\n  errors:\n    {}",
                errors.join("\n    ")
            ));
        }
        if response["type"] == 1 {
            // PONG: a PING has nothing to acknowledge.
            return;
        }
        if !log.acknowledged.insert(token.clone()) {
            log.invalid
                .push(format!("interaction {id} was answered twice: {response}"));
        }
        let data = &response["data"];
        let original = match response["type"].as_u64() {
            Some(4) => Some(payload::message(payload::next_id(), CHANNEL_ID, data)),
            // Discord shows "thinking…" until the answer is edited in.
            Some(5) => Some(payload::message(
                payload::next_id(),
                CHANNEL_ID,
                &json!({"content": "", "flags": data["flags"].clone()}),
            )),
            // A button's message is the press's `@original`; an update rewrites it.
            Some(6 | 7) => {
                let mut message = interaction["message"].clone();
                if response["type"] == 7
                    && let Some(fields) = data.as_object()
                {
                    for (k, v) in fields {
                        message[k] = v.clone();
                    }
                }
                Some(message)
            }
            _ => None,
        };
        if let Some(message) = original
            && let Some(message_id) = message["id"].as_str().and_then(|i| i.parse::<u64>().ok())
        {
            log.messages.insert(message_id, message);
            log.originals.insert(token, message_id);
        }
        drop(log);
        self.shared.changed.notify_all();
    }
}
