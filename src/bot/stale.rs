//! Interactions that do not fit the commands this bot registered: an unknown command or
//! subcommand, a missing or mistyped option, a choice out of range. Discord sends them when a
//! user's client still has an older copy of the commands (after an update, say).
//!
//! Each gets one ephemeral line ([`CHANGED`]) — or, for an autocomplete request, an empty list —
//! is logged with what was wrong, and makes the bot register its commands again (at most once per
//! [`REREGISTER_EVERY`](super::REREGISTER_EVERY); a bulk overwrite that Discord leaves as it is
//! when nothing differs). When they last were is kept in [`super::Registration`], in the handlers'
//! shared data.

use std::time::Instant;

use poise::serenity_prelude as serenity;

use super::{Data, Error, Registration, render};
use crate::app::Reply;

/// The answer to an interaction that does not fit the registered commands.
pub const CHANGED: &str = "This command has changed since your Discord app loaded it; try again (reload Discord if it keeps happening).";

/// Answers `error` if it is a stale or malformed interaction; otherwise hands it back.
pub async fn answer(
    error: poise::FrameworkError<'_, Data, Error>,
) -> Option<poise::FrameworkError<'_, Data, Error>> {
    match error {
        poise::FrameworkError::UnknownInteraction {
            framework,
            interaction,
            ..
        } => {
            tracing::warn!(
                command = %interaction.data.name,
                options = %options_of(interaction),
                "an interaction names a command or subcommand this bot does not have"
            );
            let response = if interaction.data.autocomplete().is_some() {
                serenity::CreateInteractionResponse::Autocomplete(
                    serenity::CreateAutocompleteResponse::new(),
                )
            } else {
                serenity::CreateInteractionResponse::Message(
                    serenity::CreateInteractionResponseMessage::new()
                        .content(CHANGED)
                        .ephemeral(true)
                        .allowed_mentions(serenity::CreateAllowedMentions::new()),
                )
            };
            if let Err(e) = interaction
                .create_response(&framework.serenity_context.http, response)
                .await
            {
                tracing::warn!(error = %e, "cannot answer a stale interaction");
            }
            framework.user_data.count(
                super::metrics::UNKNOWN_COMMAND,
                super::metrics::Outcome::Stale,
                Instant::now(),
            );
            reregister(framework).await;
            None
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            tracing::warn!(
                command = %ctx.command().qualified_name,
                options = %options_of(ctx.interaction),
                what = description,
                "an interaction's options do not fit the command"
            );
            if ctx.interaction_type == poise::CommandInteractionType::Autocomplete {
                let _ = ctx
                    .interaction
                    .create_response(
                        &ctx.framework.serenity_context.http,
                        serenity::CreateInteractionResponse::Autocomplete(
                            serenity::CreateAutocompleteResponse::new(),
                        ),
                    )
                    .await;
            } else {
                tell(poise::Context::Application(ctx)).await;
            }
            reregister(ctx.framework).await;
            None
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            tracing::warn!(
                command = %ctx.command().qualified_name,
                input = ?input,
                error = %error,
                "an option did not parse"
            );
            tell(ctx).await;
            reregister(ctx.framework()).await;
            None
        }
        poise::FrameworkError::SubcommandRequired { ctx, .. } => {
            tracing::warn!(
                command = %ctx.command().qualified_name,
                "an interaction names a command without its subcommand"
            );
            tell(ctx).await;
            reregister(ctx.framework()).await;
            None
        }
        other => Some(other),
    }
}

/// After every command: one that returned without answering (Discord ran a parent command,
/// whose subcommand it did not send) gets [`CHANGED`], so no interaction goes unanswered.
pub async fn unanswered(ctx: poise::Context<'_, Data, Error>) {
    let poise::Context::Application(actx) = ctx else {
        return;
    };
    if actx
        .has_sent_initial_response
        .load(std::sync::atomic::Ordering::SeqCst)
    {
        return;
    }
    tracing::warn!(
        command = %ctx.command().qualified_name,
        options = %options_of(actx.interaction),
        "an interaction names a command without its subcommand"
    );
    tell(ctx).await;
    reregister(ctx.framework()).await;
}

/// Sends [`CHANGED`], ephemeral (and counts it).
async fn tell(ctx: poise::Context<'_, Data, Error>) {
    if let Err(e) = ctx
        .send(render::create_reply(&Reply::ephemeral(CHANGED)))
        .await
    {
        tracing::warn!(error = %e, "cannot answer a stale interaction");
    }
    ctx.data().count(
        &ctx.command().qualified_name,
        super::metrics::Outcome::Stale,
        Instant::now(),
    );
}

/// The options of an interaction as it came, for the log: names, types and values.
fn options_of(interaction: &serenity::CommandInteraction) -> String {
    serde_json::to_string(&interaction.data.options).unwrap_or_default()
}

/// Registers the commands again, unless that was done less than
/// [`REREGISTER_EVERY`](super::REREGISTER_EVERY) ago.
async fn reregister(framework: poise::FrameworkContext<'_, Data, Error>) {
    register_again(
        &framework.user_data.registration,
        &framework.serenity_context.http,
        &framework.options.commands,
    )
    .await;
}

/// Registers `commands` again where `registration` says, unless that was done less than
/// [`REREGISTER_EVERY`] ago (`referee serve` calls this for its stale interactions).
pub async fn register_again(
    registration: &Registration,
    http: &serenity::Http,
    commands: &[poise::Command<Data, Error>],
) {
    if !registration.claim() {
        return;
    }
    let done = match registration.dev_guild {
        Some(guild) => {
            poise::builtins::register_in_guild(http, commands, serenity::GuildId::new(guild)).await
        }
        None => poise::builtins::register_globally(http, commands).await,
    };
    match done {
        Ok(()) => tracing::info!(
            commands = commands.len(),
            "registered the commands again after a stale interaction"
        ),
        Err(e) => tracing::warn!(error = %e, "cannot register the commands again"),
    }
}
