//! The "Spend luck" buttons: a press becomes `/button id:…` in `app`, which re-checks who pressed
//! it and what the id allows (SPEC §3). The owner's press disables the buttons on the message and
//! posts the result as a follow-up; anyone else gets an ephemeral refusal and nothing changes.

use poise::serenity_prelude as serenity;

use super::invoke::{Args, call_app_in, caller_of, send_gm_copy};
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
    let channel = press.channel_id.get();
    let invocation = Args::new()
        .opt("id", press.data.custom_id.as_str())
        .into_invocation(&["button"]);
    let outcome = call_app_in(
        data,
        Some(channel),
        caller,
        press.id.get().to_string(),
        invocation,
    )
    .await;
    // The encounter's status buttons stay live: the answer is a message of its own, and the
    // status message is edited in place by the sync.
    if press
        .data
        .custom_id
        .starts_with(crate::app::encounter::status::BUTTON_PREFIX)
    {
        let reply = outcome.unwrap_or_else(|refusal| refusal);
        respond(ctx, press, &reply).await?;
        send_gm_copy(ctx, guild, &reply).await;
        super::status::sync(ctx, data, guild, channel).await;
        return Ok(());
    }
    match outcome {
        Ok(reply) => {
            let used = serenity::CreateInteractionResponseMessage::new()
                .components(render::disabled_components(&press.message));
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
            super::status::sync(ctx, data, guild, channel).await;
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
