//! The encounter's status message: after every command and button in a channel, ask `app`
//! whether the channel's encounter shows something new, then post the message (the first time)
//! or edit it in place, and tell `app` what it shows now.
//!
//! One sync per channel at a time (a lock per channel), so two commands finishing together
//! cannot leave an older status over a newer one: the second sync reads the state after both.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use poise::serenity_prelude as serenity;

use super::{Data, render};
use crate::store::GuildId;

/// The most posts or edits one sync makes (the state may change again while it edits).
const MAX_ROUNDS: usize = 3;

static LOCKS: LazyLock<Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn lock_for(channel: u64) -> Arc<tokio::sync::Mutex<()>> {
    let mut locks = LOCKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(locks.entry(channel).or_default())
}

/// Brings the channel's status message up to date; failures are logged, never answered (the
/// command's own reply went out already).
pub async fn sync(http: &serenity::Http, data: &Data, guild: GuildId, channel: u64) {
    // Most channels have no encounter: known without the database or a thread hop.
    if !data.app.may_have_encounter(guild, channel) {
        return;
    }
    // Boxed: every command awaits `sync`, and this part's future would make each command's
    // future larger (see `answer::answer`).
    Box::pin(sync_channel(http, data, guild, channel)).await;
}

/// [`sync`] for a channel that may have an encounter.
async fn sync_channel(http: &serenity::Http, data: &Data, guild: GuildId, channel: u64) {
    let lock = lock_for(channel);
    let _held = lock.lock().await;
    for _ in 0..MAX_ROUNDS {
        let app = Arc::clone(&data.app);
        // A read (most channels have no encounter): on the read-only threads, never queued
        // behind writes.
        let update = match data
            .workers
            .run_read(move || app.encounter_status(guild, channel))
            .await
        {
            Ok(Ok(Some(update))) => update,
            Ok(Ok(None)) => return,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, %guild, channel, "cannot read the encounter status");
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the encounter status panicked");
                return;
            }
        };
        let target = serenity::ChannelId::new(channel);
        let edited = match update.message_id {
            Some(id) => target
                .edit_message(
                    http,
                    serenity::MessageId::new(id),
                    render::edit_message(&update.reply),
                )
                .await
                .map(|m| m.id.get())
                .ok(),
            None => None,
        };
        // A message deleted (or never posted) is posted anew.
        let id = match edited {
            Some(id) => id,
            None => match target
                .send_message(http, render::create_message(&update.reply))
                .await
            {
                Ok(m) => m.id.get(),
                Err(e) => {
                    tracing::warn!(error = %e, %guild, channel, "cannot post the encounter status");
                    return;
                }
            },
        };
        let app = Arc::clone(&data.app);
        let shown = update.shown;
        if let Ok(Err(e)) = data
            .workers
            .run(move || app.encounter_status_shown(guild, channel, id, &shown))
            .await
        {
            tracing::warn!(error = %e, %guild, channel, "cannot record the encounter status");
            return;
        }
    }
}
