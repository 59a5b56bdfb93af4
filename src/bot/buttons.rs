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
use crate::app::invocation::Invocation;
use crate::app::reply::Reply;

/// Handles a button press. Once `app` has run, the answer is retried through Discord's passing
/// failures ([`answer`]); the GM copy goes through the outbox; an encounter in the channel has
/// its status message brought up to date.
pub async fn pressed(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    // When the door saw it: a wait for a slot counts towards its deadlines.
    let arrived = super::inflight::arrived();
    // Admitted (counted in flight) at the gateway's door (`door`).
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
    let Ok(outcome) = call_app_in(
        data,
        arrived,
        Some(channel),
        caller,
        press.id.get().to_string(),
        invocation(press),
    )
    .await
    else {
        data.count(BUTTON, Outcome::Dropped, arrived);
        return Ok(());
    };
    let kind = Outcome::of(&outcome);
    match Answer::of(&press.data.custom_id, outcome) {
        Answer::Message { reply, status } => {
            let answered = answer::answer(&ctx.http, interaction, &reply, arrived).await;
            data.count(BUTTON, answered_as(kind, answered), arrived);
            if status {
                if answered && (reply.caller_copy.is_some() || reply.notice.is_some()) {
                    answer::extras(&ctx.http, &press.token, &reply, arrived).await;
                }
                super::status::sync(&ctx.http, data, guild, channel).await;
            }
        }
        Answer::Turn(page) => {
            let turned =
                serenity::CreateInteractionResponse::UpdateMessage(render::updated_message(&page));
            let sent = answer::callback(&ctx.http, interaction, &turned, arrived).await;
            let answered = matches!(sent, answer::Callback::Acknowledged);
            data.count(BUTTON, answered_as(kind, answered), arrived);
        }
        Answer::Update { update, reply } => {
            let used = serenity::CreateInteractionResponse::UpdateMessage(updated(
                &press.message,
                update.as_ref(),
            ));
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
            let answered =
                answer::followup(&ctx.http, &press.token, &render::followup(&reply), arrived).await;
            data.count(BUTTON, answered_as(kind, answered), arrived);
            if answered && (reply.caller_copy.is_some() || reply.notice.is_some()) {
                answer::extras(&ctx.http, &press.token, &reply, arrived).await;
            }
            super::status::sync(&ctx.http, data, guild, channel).await;
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

/// The `app` call a press makes: `/button id:…`, its custom id.
pub fn invocation(press: &serenity::ComponentInteraction) -> Invocation {
    Args::new()
        .opt("id", press.data.custom_id.as_str())
        .into_invocation(&["button"])
}

/// How a press is answered once `app` has run (the gateway's [`pressed`] and `referee serve`
/// both follow it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A message of its own as the press's response: a refusal, or the answer of an encounter
    /// status button (`status`: whose buttons stay live, and whose status message is then
    /// brought up to date).
    Message { reply: Reply, status: bool },
    /// The pressed message rewritten as the press's response — to `update` (a roll request's
    /// new text), or with every button disabled when `None` (a button is used once) — then
    /// `reply` as a follow-up, and the channel's status brought up to date.
    Update { update: Option<Reply>, reply: Reply },
    /// A help page's button: the pressed message becomes the page, nothing follows.
    Turn(Reply),
}

impl Answer {
    /// The answer to the press of `custom_id` that `app` answered with `outcome`.
    pub fn of(custom_id: &str, outcome: Result<Reply, Reply>) -> Self {
        // The encounter's status buttons stay live: the answer is a message of its own, and the
        // status message is edited in place by the sync.
        if custom_id.starts_with(crate::app::help::BUTTON_PREFIX) {
            return match outcome {
                Ok(page) => Self::Turn(page),
                Err(refusal) => Self::Message {
                    reply: refusal,
                    status: false,
                },
            };
        }
        if custom_id.starts_with(crate::app::encounter::status::BUTTON_PREFIX) {
            return Self::Message {
                reply: outcome.unwrap_or_else(|refusal| refusal),
                status: true,
            };
        }
        match outcome {
            Ok(mut reply) => Self::Update {
                update: reply.update.take().map(|update| *update),
                reply,
            },
            Err(refusal) => Self::Message {
                reply: refusal,
                status: false,
            },
        }
    }
}

/// The pressed `message`'s new body for [`Answer::Update`].
pub fn updated(
    message: &serenity::Message,
    update: Option<&Reply>,
) -> serenity::CreateInteractionResponseMessage {
    // A roll request's press rewrites the request (who has rolled); any other button is used
    // once, so its message keeps its text with every button disabled.
    match update {
        Some(update) => render::updated_message(update),
        None => serenity::CreateInteractionResponseMessage::new()
            .components(render::disabled_components(message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_is_answered_by_its_kind_and_outcome() {
        let status = format!("{}x", crate::app::encounter::status::BUTTON_PREFIX);
        let mut rewritten = Reply::ephemeral("Rolled.");
        rewritten.update = Some(Box::new(Reply::public("2 of 3 have rolled")));
        #[rustfmt::skip]
        let cases = [
            (status.as_str(), Ok(Reply::public("Next turn.")),
                Answer::Message { reply: Reply::public("Next turn."), status: true }),
            (status.as_str(), Err(Reply::ephemeral("Not yours.")),
                Answer::Message { reply: Reply::ephemeral("Not yours."), status: true }),
            ("luck:reroll:2", Err(Reply::ephemeral("Not yours.")),
                Answer::Message { reply: Reply::ephemeral("Not yours."), status: false }),
            ("luck:reroll:2", Ok(Reply::public("Rerolled.")),
                Answer::Update { update: None, reply: Reply::public("Rerolled.") }),
            ("help:tft", Ok(Reply::ephemeral("TFT page")),
                Answer::Turn(Reply::ephemeral("TFT page"))),
            ("help:gone", Err(Reply::ephemeral("That help page is gone")),
                Answer::Message { reply: Reply::ephemeral("That help page is gone"), status: false }),
            ("req:1", Ok(rewritten),
                Answer::Update {
                    update: Some(Reply::public("2 of 3 have rolled")),
                    reply: Reply::ephemeral("Rolled."),
                }),
        ];
        for (custom_id, outcome, want) in cases {
            assert_eq!(Answer::of(custom_id, outcome), want, "{custom_id}");
        }
    }
}
