//! From a Discord interaction to an `app` call and back: the caller, the options, the blocking
//! hop to the store, and the reply.
//!
//! Every command and button goes through here, so the rules of sending (no mentions, ephemeral
//! errors, an answer that survives Discord's passing failures) hold everywhere.

use std::sync::Arc;
use std::time::Instant;

use poise::serenity_prelude as serenity;

use super::metrics::Outcome;
use super::workers::{BUSY, Refused};
use super::{Context, Data, Error, answer, render};
use crate::app::invocation::Invocation;
use crate::app::reply::Reply;
use crate::app::{App, Caller, Ran};
use crate::store::{GuildId, UserId};

/// A command's options as `app` names them, built from typed poise parameters. Absent options
/// are left out, exactly as when the console's user does not type them.
#[derive(Debug, Default)]
pub struct Args(Vec<(String, String)>);

/// A value that can be given as an option.
pub trait ArgValue {
    fn arg(self) -> Option<String>;
}

macro_rules! arg_by_display {
    ($($t:ty),*) => {$(
        impl ArgValue for $t {
            fn arg(self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
arg_by_display!(String, &str, i64, i32, u32, u64, bool);

impl ArgValue for serenity::ChannelId {
    fn arg(self) -> Option<String> {
        Some(self.get().to_string())
    }
}

impl ArgValue for serenity::RoleId {
    fn arg(self) -> Option<String> {
        Some(self.get().to_string())
    }
}

impl<T: ArgValue> ArgValue for Option<T> {
    fn arg(self) -> Option<String> {
        self.and_then(ArgValue::arg)
    }
}

impl Args {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an option when it has a value.
    pub fn opt(mut self, name: &str, value: impl ArgValue) -> Self {
        if let Some(v) = value.arg() {
            self.0.push((name.to_owned(), v));
        }
        self
    }

    /// Adds a fixed-menu option (its choice name is the value `app` parses).
    pub fn choice<T: poise::ChoiceParameter>(mut self, name: &str, value: Option<T>) -> Self {
        if let Some(v) = value {
            self.0.push((name.to_owned(), v.name().to_owned()));
        }
        self
    }

    pub fn into_invocation(self, path: &[&str]) -> Invocation {
        Invocation {
            path: path.iter().map(|p| (*p).to_owned()).collect(),
            options: self.0,
        }
    }
}

/// The caller as `app` knows them, from an interaction's guild and member. `None` outside a
/// guild (every command is guild-only, so poise refuses those first).
pub fn caller_of(
    guild: Option<serenity::GuildId>,
    member: Option<&serenity::Member>,
    user: &serenity::User,
) -> Option<Caller> {
    let guild = guild?;
    let member = member?;
    let manage_server = member
        .permissions
        .is_some_and(|p| p.manage_guild() || p.administrator());
    Some(Caller {
        guild: GuildId(guild.get()),
        user: UserId(user.id.get()),
        name: member.display_name().to_owned(),
        roles: member.roles.iter().map(|r| r.get()).collect(),
        manage_server,
    })
}

/// The caller of a slash command or an autocomplete request (see [`caller_of`]).
pub fn command_caller(interaction: &serenity::CommandInteraction) -> Option<Caller> {
    caller_of(
        interaction.guild_id,
        interaction.member.as_deref(),
        &interaction.user,
    )
}

/// The interaction was turned away too late for any answer to reach Discord: nothing is sent,
/// and [`super::workers::Admission`] has counted it.
#[derive(Debug)]
pub struct Dropped;

/// Runs `invocation` in `app` on the bot's app threads ([`super::workers`]). A panic in `app`
/// becomes an internal error, still answered; a full queue or a job that waited too long is
/// answered "busy" ([`BUSY`]) while that can reach Discord, else [`Dropped`]. `channel` is where it was run (an encounter lives there).
// `Err` is the refusal as a reply, the same type as `Ok` (see `App::run`).
#[allow(clippy::result_large_err)]
pub async fn call_app_in(
    data: &Data,
    arrived: Instant,
    channel: Option<u64>,
    caller: Caller,
    interaction_id: String,
    invocation: Invocation,
) -> Result<Result<Reply, Reply>, Dropped> {
    let deadline = arrived + super::workers::WRITE_DEADLINE;
    let app: Arc<App> = Arc::clone(&data.app);
    let job = Arc::new((caller, interaction_id, invocation));
    let id = Arc::clone(&job);
    let ran = if crate::app::journals(&job.2) && app.store().journaling() {
        // A plain roll goes to the roll journal, without the writing lane (`store::journal`).
        let (app, job) = (Arc::clone(&app), Arc::clone(&job));
        data.workers
            .run_light_for(arrived, move || {
                app.run_journal_job(deadline, channel, &job.0, &job.1, &job.2)
            })
            .await
    } else if crate::app::reads_only(&job.2) {
        let (app, job) = (Arc::clone(&app), Arc::clone(&job));
        data.workers
            .run_read_for(arrived, move || {
                app.run_job(deadline, true, channel, &job.0, &job.1, &job.2)
            })
            .await
    } else {
        Ok(Ran::NeedsWriter)
    };
    let ran = match ran {
        Ok(Ran::NeedsWriter) => {
            data.workers
                .run_for(arrived, move || {
                    app.run_job(deadline, false, channel, &job.0, &job.1, &job.2)
                })
                .await
        }
        other => other,
    };
    match ran {
        Ok(Ran::Done(result)) => Ok(result),
        Err(refused @ (Refused::Full | Refused::Late { .. })) => {
            if data.workers.admission.count(refused) {
                tracing::debug!(interaction = %id.1, ?refused, "answered busy");
                Ok(Err(Reply::ephemeral(BUSY)))
            } else {
                tracing::warn!(interaction = %id.1, "dropped: waited too long for any answer to reach Discord");
                Err(Dropped)
            }
        }
        Ok(Ran::NeedsWriter) | Err(Refused::Panicked) => {
            tracing::error!("a command panicked");
            Ok(Err(Reply::ephemeral(render::SOMETHING_WENT_WRONG)))
        }
    }
}

/// The whole life of a slash command: caller, app, reply; the GM copy goes through the outbox
/// (`app` wrote it with the roll; [`super::deliver`] posts it). Once `app` has run, the answer
/// is sent whatever Discord does for a moment ([`answer`]), and this returns `Ok`: an error
/// here would make poise answer "Something went wrong" to a command that did its work.
pub async fn invoke(ctx: Context<'_>, path: &[&str], args: Args) -> Result<(), Error> {
    // When the door saw it: a wait for a slot counts towards its deadlines.
    let arrived = super::inflight::arrived();
    let poise::Context::Application(actx) = ctx else {
        return Ok(());
    };
    let interaction = actx.interaction;
    // A registered command's name, never user input: a bounded metrics label.
    let command: &str = &ctx.command().qualified_name;
    // Admitted (counted in flight) at the gateway's door, before poise saw it (`door`).
    let Some(caller) = command_caller(interaction) else {
        ctx.send(render::create_reply(&Reply::ephemeral(
            "referee works in a server's channels, not in direct messages.",
        )))
        .await?;
        ctx.data().count(command, Outcome::Refused, arrived);
        return Ok(());
    };
    let data = ctx.data();
    // Only when this guild has a failure to tell: a cheap check on every command.
    let notice_for = data.outbox.has_notice(caller.guild).then(|| caller.clone());
    let guild = caller.guild;
    let channel = interaction.channel_id.get();
    let Ok(outcome) = call_app_in(
        data,
        arrived,
        Some(channel),
        caller,
        interaction.id.get().to_string(),
        args.into_invocation(path),
    )
    .await
    else {
        // Dropped (and counted): no answer could reach Discord in time. Marked answered, so
        // poise's hooks do not try one either.
        actx.has_sent_initial_response
            .store(true, std::sync::atomic::Ordering::SeqCst);
        data.count(command, Outcome::Dropped, arrived);
        return Ok(());
    };
    let kind = Outcome::of(&outcome);
    let reply = outcome.unwrap_or_else(|refusal| refusal);
    let http = &ctx.serenity_context().http;
    let answered =
        answer::answer(http, (interaction.id, &interaction.token), &reply, arrived).await;
    // Answered here, not through poise: tell poise, so its hooks (`stale::unanswered`) do not
    // answer a second time.
    actx.has_sent_initial_response
        .store(true, std::sync::atomic::Ordering::SeqCst);
    data.count(command, answered_as(kind, answered), arrived);
    if answered && (reply.caller_copy.is_some() || reply.notice.is_some()) {
        answer::extras(http, &interaction.token, &reply, arrived).await;
    }
    if answered && let Some(caller) = notice_for {
        // Boxed, as is the status's work: the rare paths' futures would make every command's
        // future larger (see `answer::answer`).
        Box::pin(tell_gm(data, http, caller, &interaction.token, arrived)).await;
    }
    super::status::sync(http, data, guild, channel).await;
    Ok(())
}

/// The outcome to count for an interaction whose answer was `kind`: unless Discord never took
/// it.
pub fn answered_as(kind: Outcome, answered: bool) -> Outcome {
    if answered { kind } else { Outcome::Unanswered }
}

/// If `caller` is a GM of a guild with GM channel copies Discord refused, tells them once, in
/// an ephemeral follow-up (see [`super::deliver`] for why there).
async fn tell_gm(
    data: &Data,
    http: &serenity::Http,
    caller: Caller,
    token: &str,
    arrived: Instant,
) {
    let guild = caller.guild;
    if let Some(notice) = gm_notice(data, caller).await
        && !answer::followup(http, token, &render::followup(&notice), arrived).await
    {
        tracing::warn!(%guild, "the GM could not be told of failed GM channel copies");
    }
}

/// The notice of GM channel copies Discord refused, if `caller` is a GM of a guild that has
/// one untold; reading it marks it told.
pub async fn gm_notice(data: &Data, caller: Caller) -> Option<Reply> {
    let guild = caller.guild;
    let app = Arc::clone(&data.app);
    match data.workers.run(move || app.outbox_notice(&caller)).await {
        Ok(Ok(Some(notice))) => {
            data.outbox.told(guild);
            Some(notice)
        }
        Ok(Ok(None)) => None,
        Ok(Err(e)) => {
            tracing::error!(error = %e, %guild, "cannot read failed GM channel copies");
            None
        }
        Err(e) => {
            tracing::error!(error = %e, %guild, "reading failed GM channel copies panicked");
            None
        }
    }
}
