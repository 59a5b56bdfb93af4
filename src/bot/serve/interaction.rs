//! One verified interaction, from its body to its answer: PING, a slash command, a button
//! press, an autocomplete request, or something that does not parse.
//!
//! Commands and buttons run as the gateway runs them — the same admission ([`Inflight`]), app
//! threads, `app` calls, rendering and GM channel outbox — in a task of their own, and their
//! first answer goes in the HTTP response if it is ready within the endpoint's deferral time
//! ([`DEFER_AFTER`]). Past that the response defers — a command's "thinking…" only the caller
//! sees (its visibility is not known yet), a button's plain acknowledgement — and the task
//! answers over REST when `app` is done ([`super::rest`]). Autocomplete cannot be deferred: its
//! suggestions are answered within Discord's window, or none are.
//!
//! [`Inflight`]: crate::bot::invoke::Inflight

use std::sync::Arc;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serde::Deserialize as _;
use tokio::sync::oneshot;

use super::body;
use super::rest::{self, First};
use super::schema::{Found, Given, Registered, Stale};
use crate::app::invocation::Invocation;
use crate::app::{Caller, Reply};
use crate::bot::answer::ANSWER_WITHIN;
use crate::bot::buttons;
use crate::bot::inflight::InflightGuard;
use crate::bot::invoke::{
    Args, Dropped, answered_as, call_app_in, caller_of, command_caller, gm_notice,
};
use crate::bot::metrics::{BUTTON, Outcome, UNKNOWN_COMMAND};
use crate::bot::workers::BUSY;
use crate::bot::{Data, Error, autocomplete, render, stale, status};

/// How long the HTTP response waits for a command's or a button's answer before it defers: the
/// time the gateway's callback has ([`ANSWER_WITHIN`]), since this response is that callback.
pub const DEFER_AFTER: Duration = ANSWER_WITHIN;
/// The environment variable that sets [`DEFER_AFTER`] in milliseconds (0: always defer; for
/// tests, and for a slow link between Discord and the workers).
pub const DEFER_ENV: &str = "REFEREE_DEFER_AFTER_MS";

/// The answer to an interaction that does not parse but names itself.
pub const UNREADABLE: &str = "referee could not read that request from Discord, so nothing was done; try again (reload Discord if it keeps happening).";
/// The answer to a command run outside a server.
const NOT_IN_A_GUILD: &str = "referee works in a server's channels, not in direct messages.";
/// The answer to a button pressed outside a server.
const BUTTONS_NOT_IN_A_GUILD: &str = "These buttons work in a server's channels only.";

/// What the endpoint shares with every interaction.
pub struct Endpoint {
    pub data: Data,
    pub http: Arc<serenity::Http>,
    /// The commands, to register them again after a stale interaction.
    pub commands: Vec<poise::Command<Data, Error>>,
    pub registered: Registered,
    pub defer_after: Duration,
}

/// What the HTTP response carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// An interaction response, JSON.
    Json(Vec<u8>),
    /// Not an interaction at all (400), and why.
    BadRequest(&'static str),
}

/// The deferral time `REFEREE_DEFER_AFTER_MS` sets, else [`DEFER_AFTER`].
pub fn defer_after_from(setting: Option<&str>) -> Duration {
    setting
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(DEFER_AFTER, Duration::from_millis)
        .min(DEFER_AFTER)
}

/// Answers one interaction whose signature has been verified.
pub async fn handle(endpoint: &Arc<Endpoint>, raw: &[u8], arrived: Instant) -> Answer {
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(raw) else {
        return Answer::BadRequest("the body is not JSON");
    };
    // PING first: whatever else it carries, Discord wants PONG.
    if json["type"] == 1 {
        return Answer::Json(body::pong());
    }
    let interaction = match serenity::Interaction::deserialize(&json) {
        Ok(interaction) => interaction,
        Err(e) => return unreadable(&json, &e),
    };
    Answer::Json(match interaction {
        serenity::Interaction::Ping(_) => body::pong(),
        serenity::Interaction::Command(command) => run_command(endpoint, command, arrived).await,
        serenity::Interaction::Component(press) => press_button(endpoint, press, arrived).await,
        serenity::Interaction::Autocomplete(request) => complete(endpoint, &request, arrived).await,
        // No command of this bot opens a modal.
        _ => body::message(&Reply::ephemeral(UNREADABLE)),
    })
}

/// An interaction serenity cannot read (issue 33, item 6): if it names itself (an id and a
/// token) it gets an ephemeral answer — an empty list for autocomplete — and is logged; else
/// it is no interaction.
fn unreadable(json: &serde_json::Value, error: &serde_json::Error) -> Answer {
    let (Some(id), Some(_token)) = (json["id"].as_str(), json["token"].as_str()) else {
        return Answer::BadRequest("not an interaction");
    };
    tracing::warn!(interaction = id, kind = %json["type"], %error,
        "an interaction this bot cannot read; answered that nothing was done");
    Answer::Json(if json["type"] == 4 {
        body::no_choices()
    } else {
        body::message(&Reply::ephemeral(UNREADABLE))
    })
}

/// A slash command: checked against the registered commands, then run in a task of its own.
async fn run_command(
    endpoint: &Arc<Endpoint>,
    interaction: serenity::CommandInteraction,
    arrived: Instant,
) -> Vec<u8> {
    let data = &endpoint.data;
    let found = match endpoint.registered.resolve(&interaction.data) {
        Ok(found) => found,
        Err(stale) => return changed(endpoint, &interaction, &stale, arrived),
    };
    let label = found.label();
    let Some(inflight) = admit(data, &label, arrived) else {
        return body::message(&Reply::ephemeral(BUSY));
    };
    let Some(caller) = command_caller(&interaction) else {
        data.count(&label, Outcome::Refused, arrived);
        return body::message(&Reply::ephemeral(NOT_IN_A_GUILD));
    };
    let (first, response) = oneshot::channel();
    let job = CommandJob {
        endpoint: Arc::clone(endpoint),
        interaction,
        caller,
        found,
        arrived,
        first,
        _inflight: inflight,
    };
    respond(endpoint, response, job.run(), arrived, || {
        body::deferred(true)
    })
    .await
}

/// A button press, run in a task of its own.
async fn press_button(
    endpoint: &Arc<Endpoint>,
    press: serenity::ComponentInteraction,
    arrived: Instant,
) -> Vec<u8> {
    let data = &endpoint.data;
    let Some(inflight) = admit(data, BUTTON, arrived) else {
        return body::message(&Reply::ephemeral(BUSY));
    };
    let Some(caller) = caller_of(press.guild_id, press.member.as_ref(), &press.user) else {
        data.count(BUTTON, Outcome::Refused, arrived);
        return body::message(&Reply::ephemeral(BUTTONS_NOT_IN_A_GUILD));
    };
    let (first, response) = oneshot::channel();
    let job = ButtonJob {
        endpoint: Arc::clone(endpoint),
        press,
        caller,
        arrived,
        first,
        _inflight: inflight,
    };
    respond(endpoint, response, job.run(), arrived, body::acknowledged).await
}

/// Starts `job` and waits for its first answer ([`first_answer`]); with no deferral time at all
/// (`REFEREE_DEFER_AFTER_MS=0`) the response defers before the job starts, so its answer goes
/// over REST however quick it is.
async fn respond(
    endpoint: &Endpoint,
    response: oneshot::Receiver<Vec<u8>>,
    job: impl std::future::Future<Output = ()> + Send + 'static,
    arrived: Instant,
    deferred: impl FnOnce() -> Vec<u8>,
) -> Vec<u8> {
    if endpoint.defer_after.is_zero() {
        drop(response);
        tokio::spawn(job);
        return deferred();
    }
    tokio::spawn(job);
    first_answer(response, arrived + endpoint.defer_after, deferred).await
}

/// One more interaction in flight, unless the limit is reached: then it is turned away at once
/// with "busy" (the HTTP request must be answered anyway, and that answer costs no more than
/// the refusal), counted with the refusals of a full queue.
fn admit(data: &Data, label: &str, arrived: Instant) -> Option<InflightGuard> {
    let admitted = data.inflight.admit();
    if admitted.is_none() {
        data.workers
            .admission
            .count(crate::bot::workers::Refused::Full);
        data.count(label, Outcome::Busy, arrived);
        tracing::warn!("answered busy: too many interactions in flight");
    }
    admitted
}

/// Waits for a job's first answer until `until`; then takes the response's own deferral, and
/// the job, finding the channel closed, answers over REST.
async fn first_answer(
    mut response: oneshot::Receiver<Vec<u8>>,
    until: Instant,
    deferred: impl FnOnce() -> Vec<u8>,
) -> Vec<u8> {
    match tokio::time::timeout_at(until.into(), &mut response).await {
        Ok(Ok(body)) => body,
        // The job ended without an answer: it panicked (the panic hook logged it).
        Ok(Err(_)) => body::message(&Reply::ephemeral(render::SOMETHING_WENT_WRONG)),
        Err(_) => {
            // Closed first, so an answer sent from now on fails and goes over REST; one sent
            // just before is still here.
            response.close();
            response.try_recv().unwrap_or_else(|_| deferred())
        }
    }
}

/// An interaction that does not fit the registered commands: "this command has changed", as
/// the gateway answers it ([`stale`]), and the commands registered again.
fn changed(
    endpoint: &Arc<Endpoint>,
    interaction: &serenity::CommandInteraction,
    stale: &Stale,
    arrived: Instant,
) -> Vec<u8> {
    tracing::warn!(
        command = %interaction.data.name,
        options = %serde_json::to_string(&interaction.data.options).unwrap_or_default(),
        what = %stale.why,
        "an interaction's options do not fit the command"
    );
    endpoint.data.count(
        stale.command.as_deref().unwrap_or(UNKNOWN_COMMAND),
        Outcome::Stale,
        arrived,
    );
    register_again(endpoint);
    body::message(&Reply::ephemeral(stale::CHANGED))
}

/// Registers the commands again in the background (at most once a minute per worker).
fn register_again(endpoint: &Arc<Endpoint>) {
    let endpoint = Arc::clone(endpoint);
    tokio::spawn(async move {
        stale::register_again(
            &endpoint.data.registration,
            &endpoint.http,
            &endpoint.commands,
        )
        .await;
    });
}

/// Autocomplete: the focused option's suggestions, within Discord's window, else none.
async fn complete(
    endpoint: &Arc<Endpoint>,
    request: &serenity::CommandInteraction,
    arrived: Instant,
) -> Vec<u8> {
    let focus = match endpoint.registered.focus(&request.data) {
        Ok(Some(focus)) => focus,
        Ok(None) => return body::no_choices(),
        Err(stale) => {
            tracing::warn!(command = %request.data.name, what = %stale.why,
                "an autocomplete request does not fit the command");
            register_again(endpoint);
            return body::no_choices();
        }
    };
    let Some(kind) = super::complete::kind(&focus.path, &focus.option.name) else {
        tracing::warn!(command = %focus.path.join(" "), option = %focus.option.name,
            "an option with autocomplete has no suggestions here");
        return body::no_choices();
    };
    let Some(_inflight) = endpoint.data.inflight.admit() else {
        return body::no_choices();
    };
    let until = arrived + ANSWER_WITHIN;
    let suggestions = autocomplete::complete(&endpoint.data, request, kind, &focus.typed);
    match tokio::time::timeout_at(until.into(), suggestions).await {
        Ok(choices) => body::choices(choices),
        Err(_) => body::no_choices(),
    }
}

/// A slash command's work after its checks.
struct CommandJob {
    endpoint: Arc<Endpoint>,
    interaction: serenity::CommandInteraction,
    caller: Caller,
    found: Found,
    arrived: Instant,
    first: First,
    _inflight: InflightGuard,
}

impl CommandJob {
    /// Runs the command in `app`, answers (see [`rest::answer`]), then what follows an answer:
    /// the reply's extras, a GM's notice of failed copies, the channel's encounter status.
    async fn run(self) {
        let Self {
            endpoint,
            interaction,
            caller,
            found,
            arrived,
            first,
            _inflight,
        } = self;
        let (data, http) = (&endpoint.data, &*endpoint.http);
        let label = found.label();
        let token = interaction.token.as_str();
        // Only when this guild has a failure to tell: a cheap check on every command.
        let notice_for = data.outbox.has_notice(caller.guild).then(|| caller.clone());
        let (guild, channel) = (caller.guild, interaction.channel_id.get());
        let outcome = match invocation(found).await {
            Ok(invocation) => call_app_in(
                data,
                arrived,
                Some(channel),
                caller,
                interaction.id.get().to_string(),
                invocation,
            )
            .await
            .unwrap_or_else(busy),
            Err(refusal) => Err(Reply::ephemeral(refusal)),
        };
        let kind = Outcome::of(&outcome);
        let reply = outcome.unwrap_or_else(|refusal| refusal);
        let answered = rest::answer(http, token, &reply, arrived, first).await;
        data.count(&label, answered_as(kind, answered), arrived);
        if answered {
            rest::extras(http, token, &reply, arrived).await;
            if let Some(caller) = notice_for
                && let Some(notice) = gm_notice(data, caller).await
                && !rest::followup(http, token, &render::followup(&notice), arrived).await
            {
                tracing::warn!(%guild, "the GM could not be told of failed GM channel copies");
            }
        }
        status::sync(http, data, guild, channel).await;
    }
}

/// The answer to an interaction that waited too long for the gateway's callback: not too long
/// for an answer over REST, so "busy" rather than nothing.
// `Err` is the refusal as a reply, the same type as `Ok` (see `App::run`).
#[allow(clippy::result_large_err)]
fn busy(_: Dropped) -> Result<Reply, Reply> {
    Err(Reply::ephemeral(BUSY))
}

/// The `app` call for a found command, its file read first (`/character import`), or the
/// refusal to show.
async fn invocation(found: Found) -> Result<Invocation, String> {
    let mut args = Args::new();
    for (name, given) in found.options {
        let text = match given {
            Given::Text(text) => text,
            Given::File(file) => crate::bot::commands::import_text(&file).await?,
        };
        args = args.opt(&name, text);
    }
    let path: Vec<&str> = found.path.iter().map(String::as_str).collect();
    Ok(args.into_invocation(&path))
}

/// A button press's work after its checks.
struct ButtonJob {
    endpoint: Arc<Endpoint>,
    press: serenity::ComponentInteraction,
    caller: Caller,
    arrived: Instant,
    first: First,
    _inflight: InflightGuard,
}

impl ButtonJob {
    /// Runs the press in `app` and answers as the gateway does ([`buttons::Answer`]): a
    /// message, or the pressed message rewritten and the result as a follow-up. After a
    /// deferral (the press acknowledged), the message goes as a follow-up and the rewrite as an
    /// edit.
    async fn run(self) {
        let Self {
            endpoint,
            press,
            caller,
            arrived,
            first,
            _inflight,
        } = self;
        let (data, http) = (&endpoint.data, &*endpoint.http);
        let token = press.token.as_str();
        let (guild, channel) = (caller.guild, press.channel_id.get());
        let outcome = call_app_in(
            data,
            arrived,
            Some(channel),
            caller,
            press.id.get().to_string(),
            buttons::invocation(&press),
        )
        .await
        .unwrap_or_else(busy);
        let kind = Outcome::of(&outcome);
        let (answered, reply, sync) = match buttons::Answer::of(&press.data.custom_id, outcome) {
            buttons::Answer::Message { reply, status } => {
                let answered = first.send(body::message(&reply)).is_ok()
                    || rest::followup(http, token, &render::followup(&reply), arrived).await;
                (answered, status.then_some(reply), status)
            }
            buttons::Answer::Turn(page) => {
                let answered = first
                    .send(body::update(render::updated_message(&page)))
                    .is_ok()
                    || rest::edit_original(http, token, &render::edit_response(&page), arrived)
                        .await;
                (answered, None, false)
            }
            buttons::Answer::Update { update, reply } => {
                let rewrite = buttons::updated(&press.message, update.as_ref());
                if first.send(body::update(rewrite)).is_err() {
                    let edit = match &update {
                        Some(update) => render::edit_response(update),
                        None => serenity::EditInteractionResponse::new()
                            .components(render::disabled_components(&press.message)),
                    };
                    if !rest::edit_original(http, token, &edit, arrived).await {
                        tracing::warn!("a pressed button's message could not be rewritten");
                    }
                }
                let answered =
                    rest::followup(http, token, &render::followup(&reply), arrived).await;
                (answered, Some(reply), true)
            }
        };
        data.count(BUTTON, answered_as(kind, answered), arrived);
        if answered && let Some(reply) = &reply {
            rest::extras(http, token, reply, arrived).await;
        }
        if sync {
            status::sync(http, data, guild, channel).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parsed(answer: &Answer) -> serde_json::Value {
        match answer {
            Answer::Json(body) => serde_json::from_slice(body).expect("JSON"),
            Answer::BadRequest(why) => panic!("a bad request: {why}"),
        }
    }

    #[test]
    fn an_unreadable_interaction_that_names_itself_is_answered_ephemerally() {
        let error = serde_json::from_str::<u8>("x").expect_err("an error");
        let command = json!({"id": "1", "token": "t", "type": 2, "data": "garbage"});
        let body = parsed(&unreadable(&command, &error));
        assert_eq!(body["type"], 4);
        assert_eq!(body["data"]["flags"], 64);
        assert_eq!(body["data"]["content"], UNREADABLE);
        let press = json!({"id": "1", "token": "t", "type": 3});
        assert_eq!(parsed(&unreadable(&press, &error))["type"], 4);
        let complete = json!({"id": "1", "token": "t", "type": 4});
        assert_eq!(
            parsed(&unreadable(&complete, &error)),
            json!({"type": 8, "data": {"choices": []}})
        );
        for nameless in [
            json!({"token": "t", "type": 2}),
            json!({"id": "1", "type": 2}),
            json!({"id": 1, "token": "t", "type": 2}),
            json!([1, 2]),
            json!("text"),
        ] {
            assert_eq!(
                unreadable(&nameless, &error),
                Answer::BadRequest("not an interaction"),
                "{nameless}"
            );
        }
    }

    #[test]
    fn the_deferral_time_is_the_callbacks_unless_set_shorter() {
        for (setting, want) in [
            (None, DEFER_AFTER),
            (Some("0"), Duration::ZERO),
            (Some("250"), Duration::from_millis(250)),
            (Some("999999"), DEFER_AFTER),
            (Some("soon"), DEFER_AFTER),
            (Some("-1"), DEFER_AFTER),
        ] {
            assert_eq!(defer_after_from(setting), want, "{setting:?}");
        }
    }

    #[test]
    fn a_found_command_becomes_the_invocation_its_poise_wrapper_makes() {
        use poise::ChoiceParameter as _;
        let registered = Registered::of(&crate::bot::commands());
        let mode = crate::bot::choices::Mode::list().len() - 1;
        let data: serenity::CommandData = serde_json::from_value(json!({
            "id": "1", "name": "check", "type": 1, "options": [
                { "name": "label", "type": 3, "value": "sneak" },
                { "name": "mode", "type": 4, "value": mode },
                { "name": "rating", "type": 4, "value": -4 },
            ]
        }))
        .expect("command data");
        let found = registered.resolve(&data).expect("fits");
        let got = runtime()
            .block_on(invocation(found))
            .expect("no file to read");
        // What `commands/check.rs` passes for the same options.
        let want = Args::new()
            .opt("rating", Some(-4_i64))
            .choice("mode", crate::bot::choices::Mode::from_index(mode))
            .opt("label", Some("sneak".to_owned()))
            .into_invocation(&["check"]);
        assert_eq!(got, want);
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    }

    #[test]
    fn the_response_takes_the_answer_ready_in_time_else_its_deferral() {
        let rt = runtime();
        // Ready before the deadline.
        let (first, response) = oneshot::channel();
        first.send(b"now".to_vec()).expect("sent");
        let got = rt.block_on(first_answer(response, Instant::now(), || b"later".to_vec()));
        assert_eq!(got, b"now");
        // Not ready by the deadline: the deferral, and the job's later answer is refused.
        let (first, response) = oneshot::channel();
        let got = rt.block_on(first_answer(response, Instant::now(), || b"later".to_vec()));
        assert_eq!(got, b"later");
        assert!(first.send(b"too late".to_vec()).is_err(), "goes over REST");
        // The job ended without answering.
        let (first, response) = oneshot::channel::<Vec<u8>>();
        drop(first);
        let got = rt.block_on(first_answer(
            response,
            Instant::now() + Duration::from_mins(1),
            || b"later".to_vec(),
        ));
        let body: serde_json::Value = serde_json::from_slice(&got).expect("JSON");
        assert_eq!(body["data"]["content"], render::SOMETHING_WENT_WRONG);
    }
}
