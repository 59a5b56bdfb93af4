//! `/alias set|list|show|delete`: saved rolls, a dice expression kept under a name — a player's
//! own, or the server's (set by a GM) — and their expansion when a roll names one.
//!
//! Owns what a saved roll's name may be (a character's name, [`fields::checked_name`], that
//! begins with a letter, holds none of the dice language's marks and does not read as dice, so
//! `/roll d20` stays a roll), the limits on how many there are ([`MAX_PLAYER`], [`MAX_SERVER`]),
//! which one a name means (the player's own before the server's) and the text a roll of one
//! rolls ([`expand`]). The expression is checked by the dice parser when it is saved, and again
//! when it is rolled. Must never run a GM's change for a player: `server:true` checks the GM on
//! every set and delete.
//!
//! Seam: `rolls` (`/roll`, `/gm roll`) rolls a saved roll by its name through [`expand`] and
//! [`noted`], at the top of each roll and nowhere else; `gm` (a roll request's `expression`)
//! asks [`may_name`] whether dice it cannot read may be a saved roll's name, which each press's
//! `/roll` then expands for the presser.

mod tail;
#[cfg(test)]
mod tests;

use std::fmt::Write as _;

use super::characters::fields;
use super::invocation::{Invocation, Opts};
use super::layout::{line_fields, paged, pick};
use super::reply::{Embed, Reply, Tone};
use super::text::{did_you_mean, escape};
use super::{AppResult, Ctx, user};
use crate::rules::dice::expr::{self, Limits};
use crate::store::aliases::{self, AliasRow, NewAlias, Owner};
use tail::{SYNTAX, Tail, after_name, first_word, reads_as_dice};

/// The most saved rolls one player keeps in a server.
pub const MAX_PLAYER: u64 = 50;
/// The most saved rolls a server keeps for everyone.
pub const MAX_SERVER: u64 = 100;

/// `/alias set|list|show|delete`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AliasCommand {
    /// Save (or replace) a roll under a name; `server`: the server's, for a GM.
    Set {
        name: String,
        expression: String,
        server: bool,
    },
    /// The caller's saved rolls and the server's.
    List { page: usize },
    /// One saved roll, as `/roll` would use it.
    Show { name: String },
    /// Delete one of the caller's, or (`server`, a GM) one of the server's.
    Delete { name: String, server: bool },
}

impl AliasCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["alias", "set"] => {
                let o = Opts::new(inv, &["name", "expression", "server"])?;
                Ok(Self::Set {
                    name: o.required("name")?.to_owned(),
                    expression: o.required("expression")?.trim().to_owned(),
                    server: o.flag("server")?,
                })
            }
            ["alias", "list"] => {
                let o = Opts::new(inv, &["page"])?;
                let page = o.int("page", 1, super::layout::MAX_PAGE)?;
                Ok(Self::List {
                    page: page.map_or(1, |p| usize::try_from(p).unwrap_or(1)),
                })
            }
            ["alias", "show"] => {
                let o = Opts::new(inv, &["name"])?;
                Ok(Self::Show {
                    name: o.required("name")?.to_owned(),
                })
            }
            ["alias", "delete"] => {
                let o = Opts::new(inv, &["name", "server"])?;
                Ok(Self::Delete {
                    name: o.required("name")?.to_owned(),
                    server: o.flag("server")?,
                })
            }
            _ => Err(user(format!(
                "There is no command {}. /help command:alias lists the saved-roll commands.",
                escape(&inv.display_path())
            ))),
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            Self::Set {
                name,
                expression,
                server,
            } => set(ctx, &name, &expression, server),
            Self::List { page } => list(ctx, page),
            Self::Show { name } => show(ctx, &name),
            Self::Delete { name, server } => delete(ctx, &name, server),
        }
    }
}

/// A saved roll found at the start of what was typed, and the text to roll for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    /// The saved roll's name, as it was set.
    pub name: String,
    /// Whether it is the server's (else the caller's own).
    pub server: bool,
    /// What to roll: its expression with the typed tail applied (`1d20+5+2 ! Attack`).
    pub text: String,
}

impl Expanded {
    /// "attack → `1d20+5+2`": what the roll's reply says of it.
    pub fn note(&self) -> String {
        format!("{} → {}", escape(&self.name), code(&self.text))
    }
}

/// The saved roll `typed` starts with, if any, and what to roll for it: `attack+2` with the
/// caller's `attack` saved as `1d20+5 ! Attack` rolls `1d20+5+2 ! Attack` (see
/// [`tail::apply_tail`]). The caller's own saved roll wins over the server's of the same name,
/// and a longer name over a shorter one it starts with. `None` when `typed` names none (then it
/// is dice): text that starts with dice, a number or a mark is never looked up, so a plain
/// `/roll 2d6` reads nothing. A saved roll followed by anything but arithmetic and a `! comment`
/// is refused, saying what may follow.
pub fn expand(ctx: &Ctx<'_>, typed: &str) -> AppResult<Option<Expanded>> {
    if !may_name(typed) {
        return Ok(None);
    }
    let (guild, caller) = (ctx.caller.guild, ctx.caller.user);
    let rows = ctx.app.store.read(|c| aliases::visible(c, guild, caller))?;
    let mut best: Option<(&AliasRow, &str)> = None;
    // Own rows come first: a server's of the same length never replaces one.
    for row in &rows {
        if let Some(rest) = after_name(typed, &row.name)
            && best.is_none_or(|(b, _)| row.name.chars().count() > b.name.chars().count())
        {
            best = Some((row, rest));
        }
    }
    let Some((row, rest)) = best else {
        return Ok(None);
    };
    let tail = Tail::parse(rest).map_err(|e| {
        user(format!(
            "{} is a saved roll ({}): {e}.",
            escape(&row.name),
            code(&row.expression)
        ))
    })?;
    Ok(Some(Expanded {
        name: row.name.clone(),
        server: row.owner == Owner::Server,
        text: tail.applied_to(&row.expression),
    }))
}

/// Whether `typed` may start with a saved roll's name: its first word begins with a letter and
/// does not read as dice (no name does: [`checked_name`]).
pub fn may_name(typed: &str) -> bool {
    let word = first_word(typed);
    word.starts_with(char::is_alphabetic) && !reads_as_dice(word)
}

/// What to roll: the saved roll's text when one was named, else what was typed.
pub fn text<'a>(expanded: Option<&'a Expanded>, typed: &'a str) -> &'a str {
    expanded.map_or(typed, |e| e.text.as_str())
}

/// A roll's heading, with the saved roll's note on a line before it when one was rolled.
pub fn noted(expanded: Option<&Expanded>, heading: &str) -> String {
    match expanded {
        Some(e) => format!("{}\n{heading}", e.note()),
        None => heading.to_owned(),
    }
}

/// `text` as a code span: its backticks turned into quotes, which a span cannot hold.
fn code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

/// A saved roll's name as stored: a character's name ([`fields::checked_name`]) that begins
/// with a letter, holds none of [`SYNTAX`] and does not read as dice (its first word, or the
/// whole name to the dice parser, alone or before a roll: a word the dice language knows stays
/// the language's).
pub fn checked_name(raw: &str, limits: &Limits) -> Result<String, String> {
    let name = fields::checked_name(raw, "saved roll")?;
    if !name.starts_with(char::is_alphabetic) {
        return Err(format!(
            "a saved roll's name begins with a letter, like attack or init; {} does not",
            escape(&name)
        ));
    }
    if let Some(mark) = name.chars().find(|c| SYNTAX.contains(c)) {
        return Err(format!(
            "a saved roll's name cannot hold {}, which dice use (attack+2 adds 2 to the roll attack); use letters, digits, spaces and other punctuation",
            escape(&mark.to_string())
        ));
    }
    if reads_as_dice(first_word(&name)) || expr::parse(&name, limits).is_ok() {
        return Err(format!(
            "{} reads as dice, and /roll {} must stay that roll; pick a word, like attack",
            escape(&name),
            escape(&name)
        ));
    }
    // A word the dice language reads before a roll (a flag such as `s` in `s 4d6`).
    if expr::parse(&format!("{name} 1d6"), limits).is_ok() {
        return Err(format!(
            "{} is a word of the dice language (/roll {} 1d6 reads it); pick another, like attack",
            escape(&name),
            escape(&name)
        ));
    }
    Ok(name)
}

/// Whose saved roll a set or delete changes: the server's needs a GM, checked here.
fn owner(ctx: &Ctx<'_>, server: bool) -> AppResult<Owner> {
    if server {
        ctx.gm()?;
        Ok(Owner::Server)
    } else if ctx.caller.user.0 == 0 {
        // The store keeps the server's under user 0, which Discord never hands out; only a
        // console started with `--user 0` could claim it.
        Err(user(
            "User 0 keeps no saved rolls of its own; start the console with another --user.",
        ))
    } else {
        Ok(Owner::Player(ctx.caller.user))
    }
}

fn whose(owner: Owner) -> &'static str {
    match owner {
        Owner::Server => "the server's",
        Owner::Player(_) => "yours",
    }
}

/// `/alias set`: saves or replaces a saved roll, within the limit of its owner.
fn set(ctx: &Ctx<'_>, raw_name: &str, expression: &str, server: bool) -> AppResult<Reply> {
    let owner = owner(ctx, server)?;
    let limits = ctx.app.limits();
    let name = checked_name(raw_name, limits).map_err(user)?;
    expr::parse(expression, limits).map_err(|e| {
        user(format!(
            "Can't save that roll: {e}. A saved roll is dice that /roll reads, like 1d20+5."
        ))
    })?;
    let key = match_key(&name);
    let guild = ctx.caller.guild;
    let (max, full) = match owner {
        Owner::Server => (MAX_SERVER, "The server has"),
        Owner::Player(_) => (MAX_PLAYER, "You have"),
    };
    let (before, theirs) = ctx.app.store.write(|tx| -> AppResult<_> {
        let rows = aliases::visible(tx, guild, ctx.caller.user)?;
        let before = find(&rows, owner, &name);
        // The server's of that name, which the caller's own is rolled instead of.
        let theirs = (owner != Owner::Server)
            .then(|| find(&rows, Owner::Server, &name))
            .flatten();
        if let Some(old) = &before
            && old.name.to_lowercase() != name.to_lowercase()
        {
            return Err(user(format!(
                "{} looks like {} saved roll {}; set {} to replace it, or pick a name that reads differently.",
                escape(&name),
                if owner == Owner::Server { "the server's" } else { "your" },
                escape(&old.name),
                escape(&old.name)
            )));
        }
        if before.is_none() && aliases::count(tx, guild, owner)? >= max {
            return Err(user(format!(
                "{full} {max} saved rolls, the most there may be; delete one first with /alias delete{}.",
                if server { " server:true" } else { "" }
            )));
        }
        aliases::put(
            tx,
            guild,
            &NewAlias {
                owner,
                name: &name,
                // A saved roll keeps the key it was stored under (see `match_key`).
                key: before.as_ref().map_or(&key, |b| &b.key),
                expression,
                by: ctx.caller.user,
            },
        )?;
        Ok((before, theirs))
    })?;
    let shown = escape(&name);
    let mut out = match (&before, owner) {
        (Some(old), _) => format!(
            "Saved {shown} ({}): {} (was {}).",
            whose(owner),
            code(expression),
            code(&old.expression)
        ),
        (None, Owner::Server) => format!(
            "Saved {shown} for the whole server: {}. Anyone without a saved roll of that name rolls it with /roll expression:{shown}.",
            code(expression)
        ),
        (None, Owner::Player(_)) => format!(
            "Saved {shown}: {}. Roll it with /roll expression:{shown}, or add to it: {shown}+2.",
            code(expression)
        ),
    };
    if let Some(theirs) = theirs {
        let _ = write!(
            out,
            " Yours is rolled instead of the server's {} ({}).",
            escape(&theirs.name),
            code(&theirs.expression)
        );
    }
    Ok(Reply::ephemeral(out))
}

/// The key a typed name is found by: its canonical form's confusable key (no dice checks, so a
/// saved roll can always be shown and deleted by the name it has).
fn key_of(raw: &str) -> AppResult<(String, String)> {
    let name = fields::checked_name(raw, "saved roll").map_err(user)?;
    Ok((match_key(&name), name))
}

/// The key two saved-roll names are one name under: the confusable skeleton of the name in
/// capitals, lowercased, so case never matters and a capital I still meets a small l ("Init",
/// "INIT" and "init" are one name). Rows are matched by this key of their stored name, never by
/// the key they were stored under: rows saved before it (under the skeleton of the name as
/// typed, where "Init" and "init" differed) are found by it all the same, with no migration.
fn match_key(name: &str) -> String {
    fields::confusable_key(&name.to_uppercase())
}

/// `owner`'s saved roll among `rows` whose name is `name` (see [`match_key`]).
fn find(rows: &[AliasRow], owner: Owner, name: &str) -> Option<AliasRow> {
    let key = match_key(name);
    rows.iter()
        .find(|r| r.owner == owner && match_key(&r.name) == key)
        .cloned()
}

/// "No saved roll named …", with the nearest names the caller may use.
fn not_found(name: &str, rows: &[AliasRow], whose: &str) -> AppResult<Reply> {
    Err(user(format!(
        "{whose} no saved roll named {}. /alias list shows them.{}",
        escape(name),
        did_you_mean(name, rows.iter().map(|r| r.name.as_str()))
    )))
}

/// `/alias show`: one saved roll, the caller's own before the server's.
fn show(ctx: &Ctx<'_>, raw_name: &str) -> AppResult<Reply> {
    let (key, name) = key_of(raw_name)?;
    let rows = ctx
        .app
        .store
        .read(|c| aliases::visible(c, ctx.caller.guild, ctx.caller.user))?;
    let mut found = rows.iter().filter(|r| match_key(&r.name) == key);
    let Some(row) = found.next() else {
        return not_found(&name, &rows, "There is");
    };
    let mut text = format!(
        "{} ({}): {}. /roll expression:{} rolls it.",
        escape(&row.name),
        whose(row.owner),
        code(&row.expression),
        escape(&row.name)
    );
    if let Some(theirs) = found.next() {
        let _ = write!(
            text,
            " The server's {} ({}) is not rolled for you while yours is.",
            escape(&theirs.name),
            code(&theirs.expression)
        );
    }
    Ok(Reply::ephemeral(text))
}

/// `/alias delete`: deletes one of the caller's saved rolls, or (a GM) one of the server's.
fn delete(ctx: &Ctx<'_>, raw_name: &str, server: bool) -> AppResult<Reply> {
    let owner = owner(ctx, server)?;
    let (_, name) = key_of(raw_name)?;
    let guild = ctx.caller.guild;
    let gone = ctx.app.store.write(|tx| -> AppResult<Option<AliasRow>> {
        let row = find(&aliases::visible(tx, guild, ctx.caller.user)?, owner, &name);
        if let Some(row) = &row {
            aliases::delete(tx, guild, owner, &row.key)?;
        }
        Ok(row)
    })?;
    let Some(row) = gone else {
        let (rows, theirs) = ctx.app.store.read(|c| {
            let rows = aliases::visible(c, guild, ctx.caller.user)?;
            let theirs = find(&rows, Owner::Server, &name);
            Ok((rows, theirs))
        })?;
        if !server && theirs.is_some() {
            return Err(user(format!(
                "You have no saved roll named {n}; the server's {n} is deleted by a GM, with /alias delete name:{n} server:true.",
                n = escape(&name)
            )));
        }
        let theirs: Vec<AliasRow> = rows.into_iter().filter(|r| r.owner == owner).collect();
        let who_has = if server { "The server has" } else { "You have" };
        return not_found(&name, &theirs, who_has);
    };
    Ok(Reply::ephemeral(format!(
        "Deleted {} ({}), which was {}.",
        escape(&row.name),
        whose(owner),
        code(&row.expression)
    )))
}

/// `/alias list`: the caller's saved rolls, then the server's, each with its expression.
fn list(ctx: &Ctx<'_>, page: usize) -> AppResult<Reply> {
    let rows = ctx
        .app
        .store
        .read(|c| aliases::visible(c, ctx.caller.guild, ctx.caller.user))?;
    let (own, server): (Vec<&AliasRow>, Vec<&AliasRow>) =
        rows.iter().partition(|r| r.owner != Owner::Server);
    let line = |r: &AliasRow| format!("**{}**: {}", escape(&r.name), code(&r.expression));
    let own_lines: Vec<String> = own.iter().map(|r| line(r)).collect();
    let server_lines: Vec<String> = server
        .iter()
        .map(|r| {
            let mut l = line(r);
            if own.iter().any(|o| match_key(&o.name) == match_key(&r.name)) {
                l.push_str(" (yours is rolled instead)");
            }
            l
        })
        .collect();
    let or_none = |lines: Vec<String>, none: &str| {
        if lines.is_empty() {
            vec![none.to_owned()]
        } else {
            lines
        }
    };
    let mut fields = line_fields(
        &format!("Yours ({} of {MAX_PLAYER})", own.len()),
        &or_none(own_lines, "None yet."),
        false,
    );
    fields.extend(line_fields(
        &format!("The server's ({} of {MAX_SERVER})", server.len()),
        &or_none(server_lines, "None yet; a GM saves them with server:true."),
        false,
    ));
    let description = if rows.is_empty() {
        "No saved rolls yet. /alias set name:attack expression:1d20+5 saves one; /roll expression:attack rolls it."
    } else {
        "/roll expression:name rolls one; name+2 adds to it. Yours are rolled before the server's of the same name."
    };
    let embed = Embed {
        title: "Saved rolls".to_owned(),
        description: description.to_owned(),
        tone: Some(Tone::Info),
        fields,
        footer: None,
    };
    let pages = paged(&embed, |p| format!("/alias list page:{p}"));
    let embed = pick(pages, page, "The list").map_err(user)?;
    Ok(Reply::ephemeral("").with_embed(embed))
}
