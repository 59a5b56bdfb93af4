//! The HTTP server of `referee serve`: hyper's HTTP/1.1 on the `--listen` address, behind the
//! operator's reverse proxy (which terminates TLS; docs/http-interactions.md).
//!
//! Owns the HTTP rules. `POST` (any path) is an interaction: the signature headers are checked
//! first ([`verify::precheck`]: present, well-formed, fresh) and a failure is 401 before the
//! body is even read; the body is read up to [`MAX_BODY`] (413 past it) within [`BODY_WAIT`],
//! its signature verified (401), and only then parsed ([`interaction::handle`]). `GET /healthz`
//! answers 200 for the proxy's health checks and tells nothing; anything else is 405. At
//! shutdown the listener closes, and the requests in flight are finished before the
//! connections close (hyper's graceful shutdown), for at most [`CLOSE_WAIT`].

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode, header};

use super::interaction::{self, Endpoint};
use super::verify::{self, PublicKey};

/// The largest body taken. An interaction is a few KiB; a button's carries its whole message.
pub const MAX_BODY: usize = 1 << 20;
/// How long a client may take to send its request's head, then its body.
const HEADER_WAIT: Duration = Duration::from_secs(10);
pub const BODY_WAIT: Duration = Duration::from_secs(10);
/// How long a shutdown waits for the requests in flight to be answered.
const CLOSE_WAIT: Duration = Duration::from_secs(10);
/// The path of the health check.
pub const HEALTH: &str = "/healthz";

/// Serves `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn serve(
    listener: tokio::net::TcpListener,
    endpoint: Arc<Endpoint>,
    key: Arc<PublicKey>,
    shutdown: impl Future<Output = ()>,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "serve: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Small responses: no waiting for more to send.
        let _ = stream.set_nodelay(true);
        let (endpoint, key) = (Arc::clone(&endpoint), Arc::clone(&key));
        let service = hyper::service::service_fn(move |request| {
            let (endpoint, key) = (Arc::clone(&endpoint), Arc::clone(&key));
            async move { Ok::<_, Infallible>(respond(&endpoint, &key, request).await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(HEADER_WAIT)
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "serve: a connection failed");
            }
        });
    }
    drop(listener);
    tracing::info!(
        connections = graceful.count(),
        "serve: no longer listening; finishing the requests in flight"
    );
    if tokio::time::timeout(CLOSE_WAIT, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("serve: connections still open at shutdown");
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The answer to one request.
async fn respond(
    endpoint: &Arc<Endpoint>,
    key: &PublicKey,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let arrived = Instant::now();
    if request.method() != Method::POST {
        return if request.uri().path() == HEALTH
            && (request.method() == Method::GET || request.method() == Method::HEAD)
        {
            plain(StatusCode::OK, "ok\n")
        } else {
            let mut response = plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "POST interactions here (GET /healthz for health checks)\n",
            );
            response
                .headers_mut()
                .insert(header::ALLOW, header::HeaderValue::from_static("POST"));
            response
        };
    }
    let headers = request.headers();
    let signed = match verify::precheck(
        headers
            .get("x-signature-ed25519")
            .map(header::HeaderValue::as_bytes),
        headers
            .get("x-signature-timestamp")
            .map(header::HeaderValue::as_bytes),
        verify::now(),
    ) {
        Ok(signed) => signed,
        Err(refusal) => return unauthorized(refusal),
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return too_large();
    }
    let read = Limited::new(request.into_body(), MAX_BODY).collect();
    let raw = match tokio::time::timeout(BODY_WAIT, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "serve: a request's body could not be read");
            return plain(StatusCode::BAD_REQUEST, "the body could not be read\n");
        }
        Err(_) => return plain(StatusCode::REQUEST_TIMEOUT, "the body took too long\n"),
    };
    if let Err(refusal) = key.verify(&signed, &raw) {
        return unauthorized(refusal);
    }
    match interaction::handle(endpoint, &raw, arrived).await {
        interaction::Answer::Json(body) => {
            let mut response = Response::new(Full::new(Bytes::from(body)));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("application/json"),
            );
            response
        }
        interaction::Answer::BadRequest(why) => {
            tracing::warn!(why, "serve: a signed request that is no interaction");
            plain(StatusCode::BAD_REQUEST, "not an interaction\n")
        }
    }
}

/// 401, before anything of the request is parsed. Logged at debug: Discord itself sends bad
/// signatures to check an endpoint, and anyone can send more.
fn unauthorized(refusal: verify::Refusal) -> Response<Full<Bytes>> {
    tracing::debug!(%refusal, "serve: refused a request");
    plain(StatusCode::UNAUTHORIZED, "invalid request signature\n")
}

fn too_large() -> Response<Full<Bytes>> {
    plain(StatusCode::PAYLOAD_TOO_LARGE, "the body is too large\n")
}
