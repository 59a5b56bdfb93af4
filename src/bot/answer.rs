//! Getting an answer to the user when Discord fails for a moment (issue 18).
//!
//! By the time a command is answered its roll may already be logged, so the answer must not be
//! lost to one failed request. The interaction callback is retried on a 5xx, a 429 or a network
//! error while Discord's 3-second deadline allows ([`ANSWER_WITHIN`]). If it is then not known
//! to have gone through (its answer never came back, or the last tries failed), the original
//! response is looked up: if it exists the user has the answer (a follow-up would show it
//! twice); if not, the answer is sent as a follow-up on the interaction's webhook, retried while
//! the token lives ([`TOKEN_LIFE`]). A follow-up needs an acknowledged interaction, so an
//! interaction no callback ever reached cannot be answered any more; that is logged. Discord refusing for
//! good (a 4xx other than 408/429) ends the attempts, logged. A retry that finds the interaction
//! already acknowledged (error 40060: an earlier attempt did reach Discord) counts as answered.
//!
//! 429s: serenity's own rate limiter (on in production) already sleeps for `Retry-After` and
//! repeats the request itself, for every route including the callback; waiting again here would
//! wait twice. So a 429 that reaches this code (the limiter is off, as against the test fake, or
//! Discord sent no `Retry-After`) is retried after this module's own short backoff, and every
//! attempt, serenity's sleep included, is cut at the deadline.

use std::hash::BuildHasher as _;
use std::time::{Duration, Instant};

use ::serenity::builder::Builder as _;
use poise::serenity_prelude as serenity;

use super::render;
use crate::app::reply::Reply;

/// How long after an interaction arrives its callback may still be sent: Discord allows 3 s
/// from its own clock, and the gateway's delivery takes some of that.
pub const ANSWER_WITHIN: Duration = Duration::from_millis(2_500);
/// From [`ANSWER_WITHIN`] until Discord's own 3 seconds (started before the interaction arrived)
/// have surely passed, with a margin: after it no callback can be taken any more.
const SETTLED: Duration = Duration::from_secs(1);
/// How long after an interaction arrives its follow-ups are still tried (the token lives 15
/// minutes).
pub const TOKEN_LIFE: Duration = Duration::from_secs(14 * 60 + 30);
/// The longest one follow-up attempt may take before it is counted as failed.
const FOLLOWUP_ATTEMPT: Duration = Duration::from_secs(10);

/// Discord's error code for a callback to an interaction already acknowledged.
const ALREADY_ACKNOWLEDGED: isize = 40_060;

/// What became of one request to Discord.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Discord has it.
    Done,
    /// Failed for now: a 5xx, a 429, a timeout, a dropped connection.
    Retry(String),
    /// Refused for good: a 4xx other than 408/429. `code` is Discord's JSON error code.
    Refused {
        status: u16,
        code: isize,
        why: String,
    },
}

/// Sorts a serenity error into [`Sent`].
pub fn classify(error: &serenity::Error) -> Sent {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(e)) => {
            let status = e.status_code.as_u16();
            let why = format!("{status} {}", e.error.message);
            if status == 429 || status == 408 || status >= 500 {
                Sent::Retry(why)
            } else {
                Sent::Refused {
                    status,
                    code: e.error.code,
                    why,
                }
            }
        }
        // The connection failed or timed out before an answer: the request may not have arrived.
        serenity::Error::Http(serenity::HttpError::Request(e)) => Sent::Retry(e.to_string()),
        // Discord accepted the request, and its answer's body did not parse: it has the message.
        serenity::Error::Json(_) => Sent::Done,
        other => Sent::Refused {
            status: 0,
            code: 0,
            why: other.to_string(),
        },
    }
}

/// The wait before retry number `attempt` (from 1): `first` doubled each time, at most `max`,
/// with "equal jitter" (between half and all of it) so many retries do not come back at once.
pub fn backoff(attempt: u32, first: Duration, max: Duration) -> Duration {
    let full = first
        .saturating_mul(1_u32 << attempt.saturating_sub(1).min(20))
        .min(max);
    let half = full / 2;
    let spread = u64::try_from(half.as_micros()).unwrap_or(u64::MAX).max(1);
    let random = std::collections::hash_map::RandomState::new().hash_one((attempt, Instant::now()));
    half + Duration::from_micros(random % spread)
}

/// How a callback ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callback {
    /// Discord acknowledged the interaction.
    Acknowledged,
    /// The deadline passed without a clear answer: it may or may not have arrived.
    Unsure(String),
    /// Discord refused it for good.
    Refused(String),
    /// Discord's deadline had passed before a first attempt: nothing was sent, so the
    /// interaction is not acknowledged and no follow-up can answer it either.
    TooLate,
}

/// Sends the interaction's initial response, retried until [`ANSWER_WITHIN`] after `arrived`.
pub async fn callback(
    http: &serenity::Http,
    interaction: (serenity::InteractionId, &str),
    response: &serenity::CreateInteractionResponse,
    arrived: Instant,
) -> Callback {
    let deadline = arrived + ANSWER_WITHIN;
    let mut attempt = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            if attempt > 0 {
                return Callback::Unsure("no time left before Discord's deadline".to_owned());
            }
            // Logged as a drop, with its id, like the other interactions that never get an
            // answer: the callers count it (`Outcome::Unanswered`), and the log says which.
            tracing::warn!(
                interaction = %interaction.0,
                "dropped: an answer was ready only after Discord's deadline; it was not sent (the bot is behind)"
            );
            return Callback::TooLate;
        }
        let sent = tokio::time::timeout(left, response.clone().execute(http, interaction)).await;
        let why = match sent {
            Err(_) => return Callback::Unsure("the callback got no answer in time".to_owned()),
            Ok(Ok(())) => return Callback::Acknowledged,
            Ok(Err(e)) => match classify(&e) {
                Sent::Done => return Callback::Acknowledged,
                Sent::Refused { code, .. } if code == ALREADY_ACKNOWLEDGED => {
                    return Callback::Acknowledged;
                }
                Sent::Refused { why, .. } => return Callback::Refused(why),
                Sent::Retry(why) => why,
            },
        };
        attempt += 1;
        let wait = backoff(
            attempt,
            Duration::from_millis(25),
            Duration::from_millis(400),
        );
        tracing::debug!(attempt, %why, "the interaction callback failed; retrying");
        if Instant::now() + wait >= deadline {
            return Callback::Unsure(why);
        }
        tokio::time::sleep(wait).await;
    }
}

/// Sends a follow-up message on the interaction's webhook, retried until [`TOKEN_LIFE`] after
/// `arrived`. True once Discord has it.
pub async fn followup(
    http: &serenity::Http,
    token: &str,
    message: &serenity::CreateInteractionResponseFollowup,
    arrived: Instant,
) -> bool {
    let end = arrived + TOKEN_LIFE;
    let mut attempt = 0;
    loop {
        let left = end
            .saturating_duration_since(Instant::now())
            .min(FOLLOWUP_ATTEMPT);
        if left.is_zero() {
            tracing::warn!("a follow-up could not be sent before the interaction's token expired");
            return false;
        }
        let sent = tokio::time::timeout(left, message.clone().execute(http, (None, token))).await;
        let why = match sent {
            Err(_) => "the follow-up got no answer in time".to_owned(),
            Ok(Ok(_)) => return true,
            Ok(Err(e)) => match classify(&e) {
                Sent::Done => return true,
                Sent::Refused { why, .. } => {
                    // 404 Unknown Webhook: the interaction was never acknowledged, so it has no
                    // webhook; nothing more can reach this user.
                    tracing::warn!(%why, "Discord refused a follow-up");
                    return false;
                }
                Sent::Retry(why) => why,
            },
        };
        attempt += 1;
        let wait = backoff(attempt, Duration::from_millis(250), Duration::from_secs(10));
        tracing::debug!(attempt, %why, "a follow-up failed; retrying");
        if Instant::now() + wait >= end {
            tracing::warn!(%why, "a follow-up could not be sent before the interaction's token expired");
            return false;
        }
        tokio::time::sleep(wait).await;
    }
}

/// Sends what the reply carries beside itself, once it is answered: its [`Reply::caller_copy`]
/// (the NPC numbers a GM's public roll kept from the channel) as an ephemeral follow-up, and its
/// [`Reply::notice`] (a private roll's word to a struck figure's player) as a public one. Each
/// that cannot be sent is logged.
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

/// A reply as the initial response (a new message), with its file.
pub fn response_message(reply: &Reply) -> serenity::CreateInteractionResponse {
    serenity::CreateInteractionResponse::Message(render::interaction_message(reply))
}

/// Answers an interaction with `reply`: the callback, retried; if that is not sure to have
/// arrived, the same reply as a follow-up. True when the user is known to have it.
pub async fn answer(
    http: &serenity::Http,
    interaction: (serenity::InteractionId, &str),
    reply: &Reply,
    arrived: Instant,
) -> bool {
    match callback(http, interaction, &response_message(reply), arrived).await {
        Callback::Acknowledged => true,
        Callback::Refused(why) => {
            tracing::error!(
                interaction = %interaction.0,
                %why,
                "dropped: Discord refused an interaction's answer"
            );
            false
        }
        // Looking the answer up and sending a follow-up would be two requests Discord can only
        // refuse, made when the bot is already behind.
        Callback::TooLate => false,
        // Boxed: the rare path's futures would otherwise make every command's future (which
        // poise allocates and moves for each interaction) about 3.5 KB larger.
        Callback::Unsure(why) => {
            let answered = Box::pin(unsure(http, interaction.1, reply, arrived, why)).await;
            if !answered {
                // Neither the callback nor a follow-up is known to have reached Discord: logged
                // as a drop, with its id, as every interaction that goes unanswered is.
                tracing::warn!(
                    interaction = %interaction.0,
                    "dropped: the answer reached Discord neither as the callback nor as a follow-up"
                );
            }
            answered
        }
    }
}

/// The callback may have arrived (its answer lost, or an attempt that failed took effect):
/// then the user has the message, and a follow-up would show it twice. Else the follow-up.
async fn unsure(
    http: &serenity::Http,
    token: &str,
    reply: &Reply,
    arrived: Instant,
    why: String,
) -> bool {
    // A callback still on its way may yet be taken until Discord's deadline; after it, whether
    // the answer is there is settled, and a follow-up cannot show it twice.
    tokio::time::sleep_until((arrived + ANSWER_WITHIN + SETTLED).into()).await;
    if landed(http, token, arrived).await == Some(true) {
        return true;
    }
    tracing::warn!(%why, "the interaction callback did not go through; sending the answer as a follow-up");
    followup(http, token, &render::followup(reply), arrived).await
}

/// Whether the interaction's original response exists (its callback arrived after all):
/// `Some(false)` when Discord says there is none, `None` when it cannot tell in time.
async fn landed(http: &serenity::Http, token: &str, arrived: Instant) -> Option<bool> {
    let end = arrived + ANSWER_WITHIN * 4;
    let mut attempt = 0;
    loop {
        let left = end
            .saturating_duration_since(Instant::now())
            .min(FOLLOWUP_ATTEMPT);
        if left.is_zero() {
            return None;
        }
        match tokio::time::timeout(left, http.get_original_interaction_response(token)).await {
            Ok(Ok(_)) => return Some(true),
            Ok(Err(e)) => match classify(&e) {
                Sent::Done => return Some(true),
                Sent::Refused { .. } => return Some(false),
                Sent::Retry(_) => {}
            },
            Err(_) => {}
        }
        attempt += 1;
        let wait = backoff(attempt, Duration::from_millis(50), Duration::from_secs(1));
        if Instant::now() + wait >= end {
            return None;
        }
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_ready_only_after_the_deadline_is_not_sent_at_all() {
        // A proxy on the discard port: any request this made would fail, not reach Discord.
        let http = serenity::HttpBuilder::new("token")
            .proxy("http://127.0.0.1:9")
            .ratelimiter_disabled(true)
            .build();
        let response = response_message(&Reply::ephemeral("late"));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let interaction = (serenity::InteractionId::new(1), "token");
        for (ago, want) in [
            (
                ANSWER_WITHIN + Duration::from_millis(1),
                Some(Callback::TooLate),
            ),
            (ANSWER_WITHIN * 3, Some(Callback::TooLate)),
            // With time left it tries: the request fails on the discard port and is retried
            // until the deadline, so the outcome is unsure, not too late.
            (
                ANSWER_WITHIN.saturating_sub(Duration::from_millis(200)),
                None,
            ),
        ] {
            let arrived = Instant::now()
                .checked_sub(ago)
                .expect("an instant in the past");
            let got = runtime.block_on(callback(&http, interaction, &response, arrived));
            match want {
                Some(want) => assert_eq!(got, want, "{ago:?} ago"),
                None => assert!(matches!(got, Callback::Unsure(_)), "{ago:?} ago: {got:?}"),
            }
        }
    }

    #[test]
    fn backoff_doubles_within_jitter_and_stops_at_the_cap() {
        let first = Duration::from_millis(100);
        let max = Duration::from_secs(2);
        // (attempt, the full wait before jitter)
        let cases = [
            (1, 100),
            (2, 200),
            (3, 400),
            (4, 800),
            (5, 1_600),
            (6, 2_000),
            (30, 2_000),
        ];
        for (attempt, full) in cases {
            for _ in 0..50 {
                let wait = backoff(attempt, first, max);
                let full = Duration::from_millis(full);
                assert!(
                    wait >= full / 2 && wait <= full,
                    "attempt {attempt}: {wait:?} not within [{:?}, {full:?}]",
                    full / 2
                );
            }
        }
    }

    #[test]
    fn jitter_spreads_the_waits() {
        let waits: std::collections::HashSet<Duration> = (0..50)
            .map(|_| backoff(3, Duration::from_millis(100), Duration::from_secs(1)))
            .collect();
        assert!(waits.len() > 1, "50 waits were all {waits:?}");
    }
}
