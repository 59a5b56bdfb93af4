//! `/history`: the roll log, filtered by what the caller may see.
//!
//! A player sees their own rolls of every mode, except the results of their blind rolls; other
//! people's public rolls; and secret GM rolls as their commitment until revealed. Never another
//! player's private, self or blind rolls, and nothing about an NPC: a roll with an NPC is left
//! out, as if it were not there. A GM sees everything, hidden results included (read with the
//! GM proof).

use std::collections::HashMap;

use super::shown::Rolled;
use crate::app::layout::{list_embed, paged, pick};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::{escape, truncate};
use crate::app::{AppResult, Ctx, user};
use crate::store::characters::{self, Character};
use crate::store::rolls::{self, Mode, RollRow};
use crate::store::secrets::GmProof;
use crate::store::{CharacterId, Conn};

/// The command name `/roll` logs under.
pub(super) const ROLL: &str = "roll";
/// The command name `/gm roll` logs under.
pub(super) const GM_ROLL: &str = "gm roll";

/// How many of the latest rolls of everyone a player's view is picked from (their own rolls are
/// read separately, so none of those is ever missed).
const SCAN: u32 = 500;

/// `/history [character] [count] [page]`.
// Decision (issue 57): 25 rolls with long names, labels and results can pass one message; the
// lines are never cut: the description holds what it can, fields the rest, and past one message
// the first page ends with "and N more … /history count:25 page:2".
pub(super) fn history(
    ctx: &Ctx<'_>,
    character: Option<&str>,
    count: u32,
    page: usize,
) -> AppResult<Reply> {
    let gm = if ctx.is_gm() { Some(ctx.gm()?) } else { None };
    // Every roll answered before this, the roll journal's too (`store::journal`).
    ctx.app.store.settle_journal();
    let (title, lines) = ctx
        .app
        .store
        .read(|conn| Ok(collect(ctx, conn, character, count, gm)))??;
    let embed = Embed {
        title,
        description: "No rolls to show yet.".to_owned(),
        tone: Some(Tone::Info),
        fields: Vec::new(),
        footer: Some(if gm.is_some() {
            "GM view: every roll, hidden results included".to_owned()
        } else {
            "Your rolls and the public ones".to_owned()
        }),
    };
    let embed = if lines.is_empty() {
        embed
    } else {
        list_embed(embed, &lines, "Earlier rolls")
    };
    let asked = character.map_or(String::new(), |c| {
        format!(" {}", crate::app::text::typed_option("character", c))
    });
    let pages = paged(&embed, |p| {
        format!("/history{asked} count:{count} page:{p}")
    });
    Ok(Reply::ephemeral("").with_embed(pick(pages, page, "The list").map_err(user)?))
}

fn collect(
    ctx: &Ctx<'_>,
    conn: &Conn,
    character: Option<&str>,
    count: u32,
    gm: Option<GmProof>,
) -> AppResult<(String, Vec<String>)> {
    let guild = ctx.caller.guild;
    let character = character.map(|n| ctx.find_character(conn, n)).transpose()?;
    let only = character.as_ref().map(|c| c.id);
    let names: HashMap<CharacterId, Character> = characters::all(conn, guild)?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();

    let rows = if gm.is_some() {
        rolls::recent(conn, guild, None, only, count)?
    } else {
        let me = ctx.caller.user;
        let mut rows = rolls::recent(conn, guild, Some(me), only, count)?;
        rows.extend(
            rolls::recent(conn, guild, None, only, SCAN)?
                .into_iter()
                .filter(|r| r.user != me && matches!(r.mode, Mode::Public | Mode::Secret)),
        );
        rows.retain(|r| {
            r.character
                .is_none_or(|id| names.get(&id).is_some_and(|c| !c.npc))
        });
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        rows.dedup_by_key(|r| r.id);
        rows.truncate(count as usize);
        rows
    };

    let mut lines = Vec::with_capacity(rows.len());
    for row in &rows {
        let result = match gm {
            Some(gm) => gm_result(conn, gm, row)?,
            None => player_result(row),
        };
        lines.push(line(ctx, row, &names, &result));
    }
    let title = match &character {
        Some(c) => format!("Rolls of {}", escape(&c.name)),
        None => "Recent rolls".to_owned(),
    };
    Ok((title, lines))
}

/// "#12 · Vexa · check · private · “label”: result".
fn line(
    ctx: &Ctx<'_>,
    row: &RollRow,
    names: &HashMap<CharacterId, Character>,
    result: &str,
) -> String {
    let who = match row.character.and_then(|id| names.get(&id)) {
        Some(c) => escape(&c.name),
        None if row.user == ctx.caller.user => "you".to_owned(),
        // Rendered by Discord as the member's name; every message is sent with no mentions allowed.
        None => format!("<@{}>", row.user),
    };
    let mut s = format!(
        "**#{}** · {who} · {} · {}",
        row.id,
        escape(&row.command),
        row.mode.as_str()
    );
    if !row.label.is_empty() {
        s.push_str(" · “");
        s.push_str(&escape(&truncate(&row.label, 60)));
        s.push('”');
    }
    s.push_str(": ");
    s.push_str(result);
    s
}

/// What a player may read of a row they are allowed to list.
fn player_result(row: &RollRow) -> String {
    match row.mode {
        Mode::Blind => "blind roll — result hidden".to_owned(),
        Mode::Secret => match &row.public_json {
            Some(json) => format!("{} (revealed)", summary(&row.command, json)),
            None => commitment_note(row),
        },
        // `collect` lists private and self rolls only to their roller, public ones to everyone.
        Mode::Public | Mode::Private | Mode::SelfOnly => row.public_json.as_deref().map_or_else(
            || "result not recorded".to_owned(),
            |j| summary(&row.command, j),
        ),
    }
}

/// What a GM reads: every result, hidden ones from the hidden table.
fn gm_result(conn: &Conn, gm: GmProof, row: &RollRow) -> AppResult<String> {
    if !row.mode.hides_result() {
        return Ok(row.public_json.as_deref().map_or_else(
            || "result not recorded".to_owned(),
            |j| summary(&row.command, j),
        ));
    }
    let Some(secret) = rolls::secret(conn, gm, row.id)? else {
        return Ok("result not recorded".to_owned());
    };
    let result = summary(&row.command, &secret.result_json);
    Ok(match (row.mode, secret.revealed_at) {
        (Mode::Secret, Some(_)) => format!("{result} (revealed)"),
        (Mode::Secret, None) => format!("{result} (not revealed yet)"),
        _ => result,
    })
}

fn commitment_note(row: &RollRow) -> String {
    match &row.commitment {
        Some(c) => format!("secret roll — commitment `{c}`"),
        None => "secret roll — result hidden".to_owned(),
    }
}

/// One line's worth of a logged result. `/roll` and `/gm roll` results are read in their own
/// shape; other commands' results are read generically: a `"summary"` text if they log one,
/// else a `"total"` number.
fn summary(command: &str, json: &str) -> String {
    if (command == ROLL || command == GM_ROLL)
        && let Ok(rolled) = serde_json::from_str::<Rolled>(json)
    {
        return rolled.summary();
    }
    let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    if let Some(text) = value.get("summary").and_then(serde_json::Value::as_str) {
        return escape(&truncate(text, 120));
    }
    if let Some(total) = value.get("total").and_then(serde_json::Value::as_i64) {
        return format!("total **{total}**");
    }
    // THIZ checks and attacks log their d100 and the level it earned.
    if let (Some(roll), Some(level)) = (
        value.get("roll").and_then(serde_json::Value::as_i64),
        value.get("level").and_then(serde_json::Value::as_str),
    ) {
        return format!("d100 {roll} → **{}**", escape(level));
    }
    "rolled".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_of_each_shape() {
        let rolled = r#"{"expression":"2d6","terms":[],"total":7}"#;
        assert_eq!(summary("roll", rolled), "`2d6` → **7**");
        assert_eq!(
            summary("check", r#"{"kind":"check","roll":84,"level":"Failure"}"#),
            "d100 84 → **Failure**"
        );
        assert_eq!(summary("gm roll", rolled), "`2d6` → **7**");
        assert_eq!(
            summary("check", r#"{"summary":"Green on 42 *nice*"}"#),
            r"Green on 42 \*nice\*"
        );
        assert_eq!(summary("tft save", r#"{"total":11}"#), "total **11**");
        assert_eq!(summary("attack", "not json"), "rolled");
    }
}
