//! The "Spend luck" buttons: a press becomes `/button id:…` in `app`, which re-checks who pressed
//! it and what the id allows (SPEC §3). The owner's press disables the buttons on the message and
//! posts the result as a follow-up; anyone else gets an ephemeral refusal and nothing changes.
//! A roll request's button (`req:…`) instead rewrites the request message with what `app` says
//! it now reads (who has rolled), and posts the roll as the follow-up. A help page's button
//! (`help:…`) turns the help message to that page.

use poise::serenity_prelude as serenity;

use std::time::Instant;

use super::invoke::{Args, answered_as, call_app_in, caller_of};
use super::metrics::{BUTTON, Outcome};
use super::{Data, Error, answer, render};
use crate::app::reply::Reply;

/// Handles a button press. Once `app` has run, the answer is retried through Discord's passing
/// failures ([`answer`]); the GM copy goes through the outbox; an encounter in the channel has
/// its status message brought up to date.
pub async fn pressed(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let arrived = Instant::now();
    let Some(_inflight) = data.inflight.admit() else {
        super::invoke::drop_at_once(data, press.id);
        data.count(BUTTON, Outcome::Dropped, arrived);
        return Ok(());
    };
    let interaction = (press.id, press.token.as_str());
    // A help page's button turns the page, in a server or a DM: nothing is stored or rolled.
    if let Some(key) = press
        .data
        .custom_id
        .strip_prefix(crate::app::help::BUTTON_PREFIX)
    {
        turn_help_page(ctx, data, interaction, key, arrived).await;
        return Ok(());
    }
    let Some(caller) = caller_of(press.guild_id, press.member.as_ref(), &press.user) else {
        let refusal = Reply::ephemeral("These buttons work in a server's channels only.");
        let answered = answer::answer(&ctx.http, interaction, &refusal, arrived).await;
        data.count(BUTTON, answered_as(Outcome::Refused, answered), arrived);
        return Ok(());
    };
    let guild = caller.guild;
    let channel = press.channel_id.get();
    let invocation = Args::new()
        .opt("id", press.data.custom_id.as_str())
        .into_invocation(&["button"]);
    let Ok(outcome) = call_app_in(
        data,
        arrived,
        Some(channel),
        caller,
        press.id.get().to_string(),
        invocation,
    )
    .await
    else {
        data.count(BUTTON, Outcome::Dropped, arrived);
        return Ok(());
    };
    let kind = Outcome::of(&outcome);
    // The encounter's status buttons stay live: the answer is a message of its own, and the
    // status message is edited in place by the sync.
    if press
        .data
        .custom_id
        .starts_with(crate::app::encounter::status::BUTTON_PREFIX)
    {
        let reply = outcome.unwrap_or_else(|refusal| refusal);
        let answered = answer::answer(&ctx.http, interaction, &reply, arrived).await;
        data.count(BUTTON, answered_as(kind, answered), arrived);
        if answered && (reply.caller_copy.is_some() || reply.notice.is_some()) {
            answer::extras(&ctx.http, &press.token, &reply, arrived).await;
        }
        super::status::sync(ctx, data, guild, channel).await;
        return Ok(());
    }
    match outcome {
        Ok(reply) => {
            // A roll request's press rewrites the request (who has rolled); any other button is
            // used once, so its message keeps its text with every button disabled.
            let used = serenity::CreateInteractionResponse::UpdateMessage(match &reply.update {
                Some(message) => render::updated_message(message),
                None => serenity::CreateInteractionResponseMessage::new()
                    .components(render::disabled_components(&press.message)),
            });
            // Acknowledged or not sure: the result goes as a follow-up either way. Refused, or
            // too late to send at all: the press is not acknowledged, so no follow-up can go.
            match answer::callback(&ctx.http, interaction, &used, arrived).await {
                answer::Callback::Acknowledged | answer::Callback::Unsure(_) => {}
                unanswered => {
                    if let answer::Callback::Refused(why) = unanswered {
                        tracing::error!(%why, "Discord refused a button's answer");
                    }
                    data.count(BUTTON, Outcome::Unanswered, arrived);
                    return Ok(());
                }
            }
            let answered = answer::followup(
                &ctx.http,
                &press.token,
                &answer::followup_message(&reply),
                arrived,
            )
            .await;
            data.count(BUTTON, answered_as(kind, answered), arrived);
            if answered && (reply.caller_copy.is_some() || reply.notice.is_some()) {
                answer::extras(&ctx.http, &press.token, &reply, arrived).await;
            }
            super::status::sync(ctx, data, guild, channel).await;
        }
        Err(refusal) => {
            let answered = answer::answer(&ctx.http, interaction, &refusal, arrived).await;
            data.count(BUTTON, answered_as(kind, answered), arrived);
        }
    }
    Ok(())
}

/// A help button's press: the help message turns to the page (or, for a page that is gone, an
/// ephemeral answer says so).
async fn turn_help_page(
    ctx: &serenity::Context,
    data: &Data,
    interaction: (serenity::InteractionId, &str),
    key: &str,
    arrived: Instant,
) {
    let (kind, answered) = match crate::app::help::button_page(key) {
        Ok(page) => {
            let turned =
                serenity::CreateInteractionResponse::UpdateMessage(render::updated_message(&page));
            let sent = answer::callback(&ctx.http, interaction, &turned, arrived).await;
            (Outcome::Ok, matches!(sent, answer::Callback::Acknowledged))
        }
        Err(refusal) => {
            let refusal = Reply::ephemeral(refusal.to_string());
            let sent = answer::answer(&ctx.http, interaction, &refusal, arrived).await;
            (Outcome::Refused, sent)
        }
    };
    data.count(BUTTON, answered_as(kind, answered), arrived);
}
