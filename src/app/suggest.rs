//! Autocomplete: the values offered while a character, skill, weapon, location, saved roll or
//! dice expression option is typed (SPEC §2), limited to what the caller may see.
//!
//! Owns which values are offered and in what order. Every value offered is one the command it
//! completes accepts for that option, so choosing a suggestion is never refused for it. Visibility
//! is decided by [`Ctx`] (`can_see`, `is_gm`), never here. Runs on every keystroke: at most two
//! reads of the store (the guild's settings, then one read with one or two indexed queries),
//! never a write, never a die, and never an error for the front end (a failure is logged and
//! answered with no suggestions).
//!
//! Decisions:
//! - Skills are offered for `/check`: the sheet's own rows (a referee's own skill included, since
//!   `/check` accepts it by its exact name), then the table's single skills. Skills that need a
//!   subject ("Weapon Skill") are only offered as the sheet names them, since `/check` refuses
//!   them bare; magic skills only from the sheet, since an unlearned one cannot be checked —
//!   except for `/character skill`, where learning one is the point.
//! - A named character the caller cannot see gives the generic list, exactly as if it did not
//!   exist; it never falls back to the caller's own character, which would hint that it exists.
//! - THIZ `/attack` accepts only weapons the attacker carries (rules::thiz has no weapon table),
//!   so those are all it is offered; a Weapon Skill without the weapon would be refused.
//! - TFT weapons: the attacker's carried table weapons, then every table row that has damage
//!   dice (the molotail and bola have none, and `/tft attack` refuses them), then "hands".
//! - A dice expression: the saved rolls the caller may roll, their own first, then what they
//!   rolled lately with `/roll` or `/gm roll` as the log shows it, looked for among the guild's
//!   latest [`RECENT_SCAN`] rolls only (a keystroke's read stays bounded however long the log).
//!   Blind and unrevealed secret rolls are not offered: their result is hidden in the log.

use std::collections::HashSet;

use super::sheet::Sheet;
use super::{App, AppResult, Caller, Ctx};
use crate::rules::tft::gear;
use crate::rules::thiz::Location;
use crate::rules::thiz::skills::{Category, Instancing, SkillKind};
use crate::store::characters::{self, Character};
use crate::store::guilds::System;
use crate::store::{aliases, rolls};

/// Discord's limit on autocomplete choices.
pub const MAX_SUGGESTIONS: usize = 25;
/// Discord's limit on a choice's length, in characters.
pub const MAX_CHARS: usize = 100;

/// What an autocompleted option names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suggest {
    Character,
    /// A deleted character still kept (`/character restore`): for a GM only.
    Deleted,
    Skill,
    Weapon,
    Location,
    /// A saved roll's name (`/alias show|delete`): the caller's own, then the server's.
    Alias,
    /// A dice expression (`/roll`, `/gm roll`): the saved rolls' names, then the expressions
    /// the caller rolled lately.
    Expression,
}

/// The other options already typed in the same command, which narrow a suggestion.
#[derive(Debug, Clone, Copy, Default)]
pub struct SuggestContext<'a> {
    /// The character (or attacker) option as typed so far, if any.
    pub character: Option<&'a str>,
    /// The command's path: `["attack"]`, `["tft", "attack"]`, `["check"]`…
    pub command: &'a [&'a str],
}

impl App {
    /// Up to 25 suggestions (Discord's limit), each at most 100 characters, best matches first,
    /// for the text typed so far (case-insensitive; prefix matches before substring matches).
    /// Never errors: on any failure it logs and returns an empty list.
    pub fn suggest(
        &self,
        caller: &Caller,
        what: Suggest,
        typed: &str,
        context: &SuggestContext<'_>,
    ) -> Vec<String> {
        match self.candidates(caller, what, context) {
            Ok(candidates) => rank(candidates, typed),
            Err(e) => {
                tracing::warn!(error = %e, guild = %caller.guild, ?what, "autocomplete failed");
                Vec::new()
            }
        }
    }

    /// Every value that may be offered, best first, before matching what was typed.
    fn candidates(
        &self,
        caller: &Caller,
        what: Suggest,
        context: &SuggestContext<'_>,
    ) -> AppResult<Vec<String>> {
        // A location depends on nothing about the caller: the store is not touched at all.
        let ctx = || Ctx::new(self, caller, "autocomplete");
        match what {
            Suggest::Location => Ok(Location::ALL.iter().map(|l| l.name().to_owned()).collect()),
            Suggest::Character => visible_characters(&ctx()?),
            Suggest::Deleted => deleted_characters(&ctx()?),
            Suggest::Skill => skills(&ctx()?, context),
            Suggest::Weapon => weapons(&ctx()?, context),
            Suggest::Alias => {
                let ctx = ctx()?;
                // A player deletes only their own; a GM the server's too (with server:true).
                let deleting = matches!(context.command, ["alias", "delete"]) && !ctx.is_gm();
                let (saved, _) = saved_rolls(&ctx, false)?;
                Ok(saved
                    .into_iter()
                    .filter(|a| !deleting || a.owner != aliases::Owner::Server)
                    .map(|a| a.name)
                    .collect())
            }
            Suggest::Expression => {
                let (saved, recent) = saved_rolls(&ctx()?, true)?;
                Ok(saved.into_iter().map(|a| a.name).chain(recent).collect())
            }
        }
    }
}

/// The commands whose logged expressions `/roll` takes again, as `rolls` logs them (the
/// suggestion tests roll each and find it offered).
const ROLL_COMMANDS: [&str; 2] = ["roll", "gm roll"];
/// How many of the guild's latest rolls are looked through for the caller's expressions, and
/// the most of those offered.
const RECENT_SCAN: u32 = 500;
const RECENT_MAX: u32 = 25;

/// The saved rolls the caller may roll (their own, then the server's) and, with `recent`, the
/// expressions of their latest rolls, newest first, read in one go. A recent expression is the
/// roll as the log shows it (`1d20+7`), which `/roll` reads again.
fn saved_rolls(ctx: &Ctx<'_>, recent: bool) -> AppResult<(Vec<aliases::AliasRow>, Vec<String>)> {
    let (guild, user) = (ctx.caller.guild, ctx.caller.user);
    let (saved, shown) = ctx.app.store.read(|c| {
        let saved = aliases::visible(c, guild, user)?;
        let shown = if recent {
            rolls::recent_shown(c, guild, user, ROLL_COMMANDS, RECENT_SCAN, RECENT_MAX)?
        } else {
            Vec::new()
        };
        Ok((saved, shown))
    })?;
    let expressions = shown
        .iter()
        .filter_map(|json| {
            let value: serde_json::Value = serde_json::from_str(json).ok()?;
            value.get("expression")?.as_str().map(str::to_owned)
        })
        .collect();
    Ok((saved, expressions))
}

/// The guild's characters the caller may see, the caller's own first.
fn visible_characters(ctx: &Ctx<'_>) -> AppResult<Vec<String>> {
    let all = ctx
        .app
        .store
        .read(|c| characters::all(c, ctx.caller.guild))?;
    let (own, others): (Vec<Character>, Vec<Character>) = all
        .into_iter()
        .filter(|c| ctx.can_see(c))
        .partition(|c| !c.npc && c.owner_id == ctx.caller.user);
    Ok(own.into_iter().chain(others).map(|c| c.name).collect())
}

/// The deleted characters a GM may restore, newest deletion first; nothing for a player.
fn deleted_characters(ctx: &Ctx<'_>) -> AppResult<Vec<String>> {
    if !ctx.is_gm() {
        return Ok(Vec::new());
    }
    let kept = ctx
        .app
        .store
        .read(|c| characters::deleted(c, ctx.caller.guild))?;
    Ok(kept.into_iter().map(|d| d.character.name).collect())
}

/// The character a suggestion is about, with the rows it needs, read in one go: the one named
/// if the caller may see it, or else (none named) the caller's most recently used one.
fn subject<T>(
    ctx: &Ctx<'_>,
    context: &SuggestContext<'_>,
    rows: impl FnOnce(&crate::store::Conn, &Character) -> crate::store::Result<T>,
) -> AppResult<Option<(Character, T)>> {
    let guild = ctx.caller.guild;
    let named = context.character.filter(|n| !n.trim().is_empty());
    Ok(ctx.app.store.read(|conn| {
        let found = match named {
            Some(name) => characters::by_name(conn, guild, name)?.filter(|c| ctx.can_see(c)),
            None => characters::owned_by(conn, guild, ctx.caller.user)?
                .into_iter()
                .next(),
        };
        found.map(|c| rows(conn, &c).map(|r| (c, r))).transpose()
    })?)
}

/// The character's skills (THIZ) or talents (TFT), then the catalogue.
fn skills(ctx: &Ctx<'_>, context: &SuggestContext<'_>) -> AppResult<Vec<String>> {
    let learning = matches!(context.command, ["character", "skill"]);
    let found = subject(ctx, context, |conn, c| match c.system {
        System::Thiz => characters::skills(conn, c.guild_id, c.id),
        System::Tft => Ok(Vec::new()),
    })?;
    let mut out = Vec::new();
    if let Some((c, rows)) = found {
        match Sheet::of(&c)? {
            Sheet::Thiz(_) => out.extend(rows.into_iter().map(|r| r.skill)),
            Sheet::Tft(s) if !s.talents.is_empty() => return Ok(s.talents),
            Sheet::Tft(_) => {}
        }
    }
    out.extend(catalogue(learning));
    Ok(out)
}

/// The table's skills that can be named without a subject; magic ones only when `learning`.
fn catalogue(learning: bool) -> impl Iterator<Item = String> {
    SkillKind::all()
        .filter(move |k| {
            k.instancing() == Instancing::Single && (learning || k.category() != Category::Magic)
        })
        .map(|k| k.name().to_owned())
}

/// Weapons for `/tft …` (the weapon table) or THIZ `/attack` (what the attacker carries).
fn weapons(ctx: &Ctx<'_>, context: &SuggestContext<'_>) -> AppResult<Vec<String>> {
    let tft = context.command.first() == Some(&"tft");
    let found = subject(ctx, context, |conn, c| {
        characters::items(conn, c.guild_id, c.id)
    })?;
    let carried = found
        .filter(|(c, _)| (c.system == System::Tft) == tft)
        .map(|(_, items)| items)
        .unwrap_or_default();
    if !tft {
        return Ok(carried
            .into_iter()
            .filter(|i| i.kind.eq_ignore_ascii_case("weapon"))
            .map(|i| i.name)
            .collect());
    }
    // `/tft attack` looks a carried weapon up in the table, and refuses a row without dice.
    let usable = |name: &str| gear::weapon(name).is_ok_and(|w| w.dice().is_some());
    let mut out: Vec<String> = carried
        .into_iter()
        .filter(|i| i.kind == "weapon" && usable(&i.name))
        .map(|i| i.name)
        .collect();
    out.extend(
        gear::weapons()
            .iter()
            .filter(|w| w.dice().is_some())
            .map(|w| w.name.to_owned()),
    );
    out.push("hands".to_owned());
    Ok(out)
}

/// Keeps the candidates matching `typed` (case-insensitive), prefix matches first, each group in
/// the candidates' order; drops duplicates (ignoring case) and values Discord cannot show.
fn rank(candidates: Vec<String>, typed: &str) -> Vec<String> {
    let needle = typed.trim().to_lowercase();
    let mut seen = HashSet::new();
    let (mut prefix, mut inner) = (Vec::new(), Vec::new());
    for candidate in candidates {
        let len = candidate.chars().count();
        if len == 0 || len > MAX_CHARS {
            continue;
        }
        let key = candidate.to_lowercase();
        if key.starts_with(&needle) {
            if seen.insert(key) {
                prefix.push(candidate);
            }
        } else if key.contains(&needle) && seen.insert(key) {
            inner.push(candidate);
        }
    }
    prefix.extend(inner);
    prefix.truncate(MAX_SUGGESTIONS);
    prefix
}

#[cfg(test)]
mod tests;
