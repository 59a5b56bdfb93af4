//! An encounter read for a change and saved back on the version it was read at: where it is
//! ([`At`]), what was read ([`Loaded`]: its row, its state, what the sheets say now), and the
//! questions other commands ask of the channels' encounters.
//!
//! A leaf of the family: the commands ([`super`]) and the hooks ([`super::hooks`]) import it;
//! it imports neither.
//!
//! Seam: `/character` (`characters`: a renamed or deleted figure's fights) and a roll request
//! (`gm`: `characters:everyone`) ask here.

use std::collections::HashMap;

use super::state::{self, State, Stored, Undo};
use super::{tft, thiz};
use crate::app::{AppError, AppResult, Ctx, user};
use crate::store::characters;
use crate::store::encounters::{self, EncounterRow};
use crate::store::guilds::System;
use crate::store::{CharacterId, Conn, GuildId};

/// Where an encounter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct At {
    pub guild: GuildId,
    pub channel: u64,
}

/// An encounter read for a change: its row, parsed state, and what the sheets say now.
pub(crate) struct Loaded {
    pub row: EncounterRow,
    pub state: State,
    /// Every figure's sheet as read with the state.
    pub facts: Facts,
    /// What the last "next" changed, while it may still be taken back.
    pub undo: Option<Box<Undo>>,
}

/// Reads the channel's encounter. A fight under way first takes out of the order every figure
/// its sheet now says is down, whatever wrote it there (see [`notice_down`]); the change is
/// saved with the next change of the encounter, and every read until then makes the same one.
pub(crate) fn load(conn: &Conn, at: At) -> AppResult<Option<Loaded>> {
    load_as(conn, at, true)
}

/// [`load`], with `notice` false leaving the figures' down flags as stored: for the attack
/// hooks, which take their target out with the attack's own words.
pub(crate) fn load_as(conn: &Conn, at: At, notice: bool) -> AppResult<Option<Loaded>> {
    let Some(row) = encounters::get(conn, at.guild, at.channel)? else {
        return Ok(None);
    };
    let Stored { mut state, undo } = serde_json::from_str(&row.state_json)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("encounter state: {e}")))?;
    let facts = read_facts(conn, at, row.system, &state)?;
    if notice && !row.ended {
        notice_down(&mut state, &facts);
    }
    Ok(Some(Loaded {
        row,
        state,
        facts,
        undo,
    }))
}

/// Takes out of the order every standing figure that can no longer act by its sheet: THIZ
/// incapacitated or dead, TFT dead, dying or unconscious (or deleted). One check for every way
/// a sheet changes (an attack, `/wound add`, a hazard, a spell, a GM's condition, TFT hits from
/// any command), run whenever the encounter is read, so none of them needs to know the
/// encounter. A TFT figure knocked down by an attack is taken out by the attack's hook, for the
/// round. Decision: the sheet's knocked-down flag alone does not take it out, since it stays
/// set until the figure stands up, which is its action the next round. Before the fight begins nothing
/// is taken out: the first turn reads the sheets afresh.
fn notice_down(state: &mut State, facts: &Facts) {
    if !state.begun() {
        return;
    }
    match facts {
        Facts::Thiz(m) => thiz::refresh_down(state, m),
        Facts::Tft(m) => {
            let newly: Vec<(CharacterId, String)> = state
                .figures
                .iter()
                .filter(|f| !f.down && m.get(&f.id).is_none_or(|x| x.out))
                .map(|f| (f.id, f.name.clone()))
                .collect();
            for (id, name) in newly {
                state.take_out(id);
                state.event(format!("{name} is down and does not act this round."));
            }
            // tft-rules-summary.md, "RENEW SPELLS": a caster who dies or falls unconscious
            // keeps no spell up (whatever took it out of the order first).
            let out: Vec<(CharacterId, String)> = state
                .figures
                .iter()
                .filter(|f| m.get(&f.id).is_none_or(|x| x.out))
                .map(|f| (f.id, f.name.clone()))
                .collect();
            for (id, name) in out {
                for t in state.end_upkeep_of(id) {
                    state.event(format!("{name}'s {} ends with its caster down.", t.what));
                }
            }
        }
    }
}

/// Saves the changed state on the version it was read at.
pub(crate) fn save(conn: &Conn, at: At, loaded: &Loaded) -> AppResult<i64> {
    // An undo made for an earlier version is dead once anything else is saved: it goes.
    let undo = loaded
        .undo
        .as_deref()
        .filter(|u| u.version == loaded.row.version + 1);
    let json = serde_json::to_string(&state::StoredRef {
        state: &loaded.state,
        undo,
    })
    .map_err(|e| AppError::Internal(anyhow::anyhow!("encounter state: {e}")))?;
    encounters::save(conn, at.guild, at.channel, loaded.row.version, &json)?.ok_or_else(|| {
        user("The encounter changed while you were at it; look at its status and try again.")
    })
}

/// The characters in the channel's encounter under way (empty when there is none), for
/// commands that act on "everyone in the fight".
pub fn figures_in_channel(ctx: &Ctx<'_>, channel: u64) -> AppResult<Vec<CharacterId>> {
    let at = At {
        guild: ctx.caller.guild,
        channel,
    };
    ctx.app
        .store
        .read(|conn| {
            Ok(match encounters::get(conn, at.guild, at.channel)? {
                Some(row) if !row.ended => serde_json::from_str::<State>(&row.state_json)
                    .map(|s| s.figures.iter().map(|f| f.id).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            })
        })
        .map_err(Into::into)
}

/// Facts of every figure, by system.
pub(crate) enum Facts {
    Thiz(thiz::AllFacts),
    Tft(tft::AllFacts),
}

fn read_facts(conn: &Conn, at: At, system: System, state: &State) -> AppResult<Facts> {
    let mut out = match system {
        System::Thiz => Facts::Thiz(HashMap::new()),
        System::Tft => Facts::Tft(HashMap::new()),
    };
    for f in &state.figures {
        // A character deleted since it joined is simply out of the fight.
        let Some(c) = characters::by_id(conn, at.guild, f.id)? else {
            continue;
        };
        match &mut out {
            Facts::Thiz(m) => {
                m.insert(f.id, thiz::facts(conn, c)?);
            }
            Facts::Tft(m) => {
                m.insert(f.id, tft::facts(conn, &c)?);
            }
        }
    }
    Ok(out)
}

/// The channels whose encounter under way has `figure` in it.
pub(crate) fn channels_with(
    conn: &Conn,
    guild: GuildId,
    figure: CharacterId,
) -> AppResult<Vec<u64>> {
    let mut out = Vec::new();
    for row in encounters::active(conn, guild)? {
        let Ok(stored) = serde_json::from_str::<Stored>(&row.state_json) else {
            continue;
        };
        if stored.state.figure(figure).is_some() {
            out.push(row.channel_id);
        }
    }
    Ok(out)
}

/// Takes `figure` out of every encounter under way, with a line in each one's log saying why
/// (`/character delete`: a deleted character leaves its fight at once, not as a silent "down").
/// The channels it left.
pub(crate) fn leave_all(
    conn: &Conn,
    guild: GuildId,
    figure: CharacterId,
    why: &str,
) -> AppResult<Vec<u64>> {
    let channels = channels_with(conn, guild, figure)?;
    for &channel in &channels {
        let at = At { guild, channel };
        let Some(mut l) = load(conn, at)? else {
            continue;
        };
        if let Some(f) = l.state.remove(figure) {
            l.state
                .event(format!("{} leaves the fight: {why}.", f.name));
            save(conn, at, &l)?;
        }
    }
    Ok(channels)
}
