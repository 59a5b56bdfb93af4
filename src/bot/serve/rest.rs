//! What `referee serve` sends over Discord's REST API once the HTTP response has gone: a
//! deferred answer, follow-ups, and the extras a reply carries.
//!
//! Owns the choice between the HTTP response and REST for one reply ([`answer`]) and the
//! retries. The rules of [`crate::bot::answer`] hold (a failure for now — a 5xx, a 429, a
//! timeout — is retried with backoff while the interaction's token lives; a refusal for good is
//! logged and ends it), plus one: right after the HTTP response, Discord may not yet know the
//! interaction's webhook (the response is still on its way back through the proxy while a
//! follow-up is already out), so "Unknown Webhook" is retried for [`WEBHOOK_GRACE`].

use std::future::Future;
use std::time::{Duration, Instant};

use ::serenity::builder::Builder as _;
use poise::serenity_prelude as serenity;
use tokio::sync::oneshot;

use super::body;
use crate::app::Reply;
use crate::app::reply::Visibility;
use crate::bot::answer::{Sent, TOKEN_LIFE, backoff, classify};
use crate::bot::render;

/// How long after an answer the interaction's webhook may still be unknown to Discord.
pub const WEBHOOK_GRACE: Duration = Duration::from_secs(5);
/// The longest one request may take before it counts as failed for now.
const ATTEMPT: Duration = Duration::from_secs(10);
/// Discord's error code for a webhook (an interaction's token) it does not know.
const UNKNOWN_WEBHOOK: isize = 10_015;

/// Where a job's first answer goes: the HTTP response, while it still waits for one. Once the
/// response has deferred, sending here fails and the answer goes over REST.
pub type First = oneshot::Sender<Vec<u8>>;

/// Gives `reply` as the interaction's answer: in the HTTP response while it waits (`first`),
/// else over REST after the deferral the response gave (ephemeral: see [`late`]). A reply with a
/// file cannot travel in the JSON response: the response defers, as visible as the reply, and
/// the reply with its file replaces the placeholder. True once the user has it (a body handed
/// to the HTTP response counts as had).
pub async fn answer(
    http: &serenity::Http,
    token: &str,
    reply: &Reply,
    arrived: Instant,
    first: First,
) -> bool {
    let (response, edit_after) = first_body(reply);
    match first.send(response) {
        Ok(()) if edit_after => {
            edit_original(http, token, &render::edit_response(reply), arrived).await
        }
        Ok(()) => true,
        Err(_) => late(http, token, reply, arrived).await,
    }
}

/// The HTTP response's body for `reply`, and whether the reply must then replace it over REST
/// (a file: the response defers, as visible as the reply will be).
fn first_body(reply: &Reply) -> (Vec<u8>, bool) {
    if reply.file.is_none() {
        (body::message(reply), false)
    } else {
        (
            body::deferred(reply.visibility == Visibility::Ephemeral),
            true,
        )
    }
}

/// The HTTP response deferred the answer, ephemeral, before the reply was known: an ephemeral
/// reply replaces the placeholder; a public one is posted as a public follow-up (an edit cannot
/// make an ephemeral message public), and the placeholder is deleted.
pub async fn late(http: &serenity::Http, token: &str, reply: &Reply, arrived: Instant) -> bool {
    if reply.visibility == Visibility::Ephemeral {
        return edit_original(http, token, &render::edit_response(reply), arrived).await;
    }
    let sent = followup(http, token, &render::followup(reply), arrived).await;
    if sent {
        delete_original(http, token).await;
    }
    sent
}

/// Sends what `reply` carries beside itself once it is answered (as
/// [`crate::bot::answer::extras`] does): its caller's copy, ephemeral, and its notice to the
/// channel, public.
pub async fn extras(http: &serenity::Http, token: &str, reply: &Reply, arrived: Instant) {
    for (extra, what) in [
        (&reply.caller_copy, "the GM's copy of the NPC numbers"),
        (&reply.notice, "a private roll's notice to the channel"),
    ] {
        if let Some(message) = extra.as_deref()
            && !Box::pin(followup(http, token, &render::followup(message), arrived)).await
        {
            tracing::warn!("{what} could not be sent");
        }
    }
}

/// Sends a follow-up message; true once Discord has it.
pub async fn followup(
    http: &serenity::Http,
    token: &str,
    message: &serenity::CreateInteractionResponseFollowup,
    arrived: Instant,
) -> bool {
    send_until("a follow-up", arrived + TOKEN_LIFE, || async {
        message.clone().execute(http, (None, token)).await.map(drop)
    })
    .await
}

/// Replaces the interaction's original response (a deferred answer's placeholder, or a pressed
/// button's message); true once Discord has it.
pub async fn edit_original(
    http: &serenity::Http,
    token: &str,
    edit: &serenity::EditInteractionResponse,
    arrived: Instant,
) -> bool {
    send_until("the answer", arrived + TOKEN_LIFE, || async {
        edit.clone().execute(http, token).await.map(drop)
    })
    .await
}

/// Deletes the interaction's original response (a placeholder whose answer went as a
/// follow-up); a failure leaves it, logged.
pub async fn delete_original(http: &serenity::Http, token: &str) {
    let end = Instant::now() + WEBHOOK_GRACE * 2;
    send_until("deleting a placeholder", end, || {
        http.delete_original_interaction_response(token)
    })
    .await;
}

/// Runs `send` until Discord takes it (true), refuses it for good, or `end` passes (false):
/// retrying what fails for now, and "Unknown Webhook" within [`WEBHOOK_GRACE`].
async fn send_until<F, Fut>(what: &str, end: Instant, mut send: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<()>>,
{
    let grace = Instant::now() + WEBHOOK_GRACE;
    let mut attempt = 0;
    loop {
        let left = end.saturating_duration_since(Instant::now()).min(ATTEMPT);
        if left.is_zero() {
            tracing::warn!("{what} could not be sent before the interaction's token expired");
            return false;
        }
        let why = match tokio::time::timeout(left, send()).await {
            Err(_) => "no answer in time".to_owned(),
            Ok(Ok(())) => return true,
            Ok(Err(e)) => match classify(&e) {
                Sent::Done => return true,
                Sent::Refused { code, why, .. }
                    if code == UNKNOWN_WEBHOOK && Instant::now() < grace =>
                {
                    why
                }
                Sent::Refused { why, .. } => {
                    tracing::warn!(%why, "Discord refused {what}");
                    return false;
                }
                Sent::Retry(why) => why,
            },
        };
        attempt += 1;
        let wait = backoff(attempt, Duration::from_millis(50), Duration::from_secs(10));
        if Instant::now() + wait >= end {
            tracing::warn!(%why, "{what} could not be sent before the interaction's token expired");
            return false;
        }
        tracing::debug!(attempt, %why, "{what} failed; retrying");
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client whose every request would fail at once (a proxy on the discard port).
    fn unreachable() -> serenity::Http {
        let http = serenity::HttpBuilder::new("token")
            .proxy("http://127.0.0.1:9")
            .ratelimiter_disabled(true)
            .build();
        http.set_application_id(serenity::ApplicationId::new(1));
        http
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    }

    #[test]
    fn a_reply_goes_in_the_http_response_while_it_waits() {
        let (first, mut response) = oneshot::channel();
        let reply = Reply::public("You rolled 7.");
        let had = runtime().block_on(answer(
            &unreachable(),
            "token",
            &reply,
            Instant::now(),
            first,
        ));
        assert!(had);
        let body: serde_json::Value =
            serde_json::from_slice(&response.try_recv().expect("a body")).expect("JSON");
        assert_eq!(body["type"], 4);
        assert_eq!(body["data"]["content"], "You rolled 7.");
    }

    #[test]
    fn a_reply_with_a_file_defers_as_visible_as_itself_and_is_edited_in() {
        let file = Some(crate::app::reply::ReplyFile {
            name: "gala.json".into(),
            content: "{}".into(),
        });
        for (mut reply, flags) in [
            (Reply::ephemeral("Your sheet."), serde_json::json!(64)),
            (Reply::public("The sheet."), serde_json::Value::Null),
        ] {
            reply.file.clone_from(&file);
            let (response, edit_after) = first_body(&reply);
            let body: serde_json::Value = serde_json::from_slice(&response).expect("JSON");
            assert_eq!(body["type"], 5);
            assert_eq!(
                body["data"]["flags"].as_u64().unwrap_or(0) & 64,
                flags.as_u64().unwrap_or(0)
            );
            assert!(edit_after);
        }
        let (response, edit_after) = first_body(&Reply::public("no file"));
        assert!(!edit_after);
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&response).expect("JSON")["type"],
            4
        );
    }
}
