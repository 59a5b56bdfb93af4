//! The "Spend luck" buttons: a press becomes `/button id:…` in `app`, which re-checks who pressed
//! it and what the id allows (SPEC §3). The owner's press disables the buttons on the message and
//! posts the result as a follow-up; anyone else gets an ephemeral refusal and nothing changes.
//! A roll request's button (`req:…`) instead rewrites the request message with what `app` says
//! it now reads (who has rolled), and posts the roll as the follow-up.

use poise::serenity_prelude as serenity;

use super::invoke::{Args, call_app, caller_of, send_gm_copy};
use super::{Data, Error, render};
use crate::app::reply::Reply;

/// Handles a button press.
pub async fn pressed(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let _inflight = data.inflight.enter();
    let Some(caller) = caller_of(press.guild_id, press.member.as_ref(), &press.user) else {
        let refusal = Reply::ephemeral("These buttons work in a server's channels only.");
        return respond(ctx, press, &refusal).await;
    };
    let guild = caller.guild;
    let invocation = Args::new()
        .opt("id", press.data.custom_id.as_str())
        .into_invocation(&["button"]);
    let Ok(outcome) = call_app(data, caller, press.id.get().to_string(), invocation).await else {
        return Ok(());
    };
    match outcome {
        Ok(reply) => {
            // A roll request's press rewrites the request (who has rolled); any other button is
            // used once, so its message keeps its text with every button disabled.
            let used = match &reply.update {
                Some(message) => render::updated_message(message),
                None => serenity::CreateInteractionResponseMessage::new()
                    .components(render::disabled_components(&press.message)),
            };
            press
                .create_response(
                    &ctx.http,
                    serenity::CreateInteractionResponse::UpdateMessage(used),
                )
                .await?;
            press
                .create_followup(&ctx.http, render::followup(&reply))
                .await?;
            send_gm_copy(ctx, guild, &reply).await;
            Ok(())
        }
        Err(refusal) => respond(ctx, press, &refusal).await,
    }
}

async fn respond(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    reply: &Reply,
) -> Result<(), Error> {
    press
        .create_response(
            &ctx.http,
            serenity::CreateInteractionResponse::Message(render::interaction_message(reply)),
        )
        .await?;
    Ok(())
}
