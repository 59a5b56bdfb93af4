//! The GM's luck commands: roll (a secret 1d10), show, award, set, and the ledger.
//!
//! Every reply here holds hidden values, so each one checks `ctx.gm()` first and answers the GM
//! ephemerally.

use std::fmt::Write as _;

use serde_json::json;

use crate::app::invocation::RollMode;
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::{escape, truncate};
use crate::app::{AppResult, Ctx, user};
use crate::rules::thiz::luck::{HiddenLuck, award, roll_starting_luck};
use crate::store::characters::Character;
use crate::store::guilds::System;
use crate::store::secrets::{self, LedgerEntry, LedgerRow, LuckKind};

/// The ledger lines shown at most (the newest).
const LEDGER_LINES: usize = 25;

/// The GM's luck commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmLuck {
    /// Roll 1d10 in secret, replacing the total.
    Roll,
    /// Tell the GM the total.
    Show,
    /// Add points.
    Award(u32),
    /// Set the total.
    Set(u32),
    /// Show the ledger.
    Log,
}

pub(super) fn run(ctx: &Ctx<'_>, action: GmLuck, character: &str) -> AppResult<Reply> {
    let gm = ctx.gm()?;
    let guild = ctx.caller.guild;
    ctx.app.store.write(|tx| {
        let c = ctx.find_character(tx, character)?;
        thiz_only(&c)?;
        let name = escape(&c.name);
        let entry = |kind, reason| LedgerEntry {
            actor: ctx.caller.user,
            kind,
            reason,
            roll: None,
            idem_key: None,
        };
        Ok(match action {
            GmLuck::Roll => {
                // What the roll replaces, said to the GM (issue 59: it was replaced silently).
                let replaced = match secrets::luck(tx, gm, c.id)? {
                    Some(before) => format!(" It replaces the {} {name} had.", points_text(before)),
                    None => String::new(),
                };
                let points = roll_starting_luck(&mut ctx.dice()).reveal_to_gm();
                secrets::set_luck(
                    tx,
                    guild,
                    c.id,
                    i64::from(points),
                    &entry(LuckKind::Rolled, "/luck roll"),
                )?;
                ctx.log_roll(
                    tx,
                    Some(c.id),
                    "luck roll",
                    RollMode::Blind,
                    "luck",
                    &json!({ "d10": points }),
                )?;
                Reply::ephemeral(format!(
                    "Rolled 1d10 in secret for {name}'s luck: {points}. {name} now has {}.{replaced}",
                    points_text(i64::from(points))
                ))
            }
            GmLuck::Show => Reply::ephemeral(match secrets::luck(tx, gm, c.id)? {
                Some(points) => format!("{name} has {}.", points_text(points)),
                None => {
                    format!("{name}'s luck was never rolled; /luck roll character:{name} rolls it.")
                }
            }),
            GmLuck::Award(points) => {
                let before = current(tx, gm, &c)?;
                let after = award(before, points).reveal_to_gm();
                let added = i64::from(after) - i64::from(before.reveal_to_gm());
                secrets::award_luck(
                    tx,
                    guild,
                    c.id,
                    added,
                    &entry(LuckKind::Awarded, "/luck award"),
                )?;
                Reply::ephemeral(format!(
                    "Awarded {name} {}; {name} now has {}.",
                    points_text(i64::from(points)),
                    points_text(i64::from(after))
                ))
            }
            GmLuck::Set(points) => {
                secrets::set_luck(
                    tx,
                    guild,
                    c.id,
                    i64::from(points),
                    &entry(LuckKind::Set, "/luck set"),
                )?;
                Reply::ephemeral(format!(
                    "{name} now has {}.",
                    points_text(i64::from(points))
                ))
            }
            GmLuck::Log => ledger_reply(&name, &secrets::ledger(tx, gm, c.id)?),
        })
    })
}

fn thiz_only(c: &Character) -> AppResult<()> {
    if c.system == System::Thiz {
        Ok(())
    } else {
        Err(user(format!(
            "Luck points are a THIZ rule; {} is a TFT character.",
            escape(&c.name)
        )))
    }
}

fn current(
    conn: &crate::store::Conn,
    gm: secrets::GmProof,
    c: &Character,
) -> AppResult<HiddenLuck> {
    let points = secrets::luck(conn, gm, c.id)?.unwrap_or(0);
    HiddenLuck::new(points.clamp(0, i64::from(u32::MAX)) as u32)
        .map_err(|e| crate::app::AppError::Internal(e.into()))
}

fn points_text(n: i64) -> String {
    if n == 1 {
        "1 luck point".to_owned()
    } else {
        format!("{n} luck points")
    }
}

/// One ledger row as the GM reads it.
fn ledger_line(row: &LedgerRow) -> String {
    let delta = if row.delta > 0 {
        format!("+{}", row.delta)
    } else {
        row.delta.to_string()
    };
    let mut line = format!("{delta} → {} · {}", row.points_after, row.kind);
    if !row.reason.is_empty() {
        line.push_str(" · ");
        // Reasons are the app's own words, never user text.
        line.push_str(&truncate(&row.reason, 80));
    }
    // Who made the change (issue 59): a mention, shown as the member's name and pinging nobody
    // (every reply allows no mentions).
    let _ = write!(line, " · by <@{}>", row.actor.0);
    line
}

fn ledger_reply(name: &str, rows: &[LedgerRow]) -> Reply {
    if rows.is_empty() {
        return Reply::ephemeral(format!("{name}'s luck ledger is empty."));
    }
    let shown = &rows[rows.len().saturating_sub(LEDGER_LINES)..];
    let title = if shown.len() < rows.len() {
        format!(
            "{name}'s luck ledger (the last {} of {})",
            shown.len(),
            rows.len()
        )
    } else {
        format!("{name}'s luck ledger")
    };
    Reply::ephemeral("").with_embed(Embed {
        title,
        description: shown.iter().map(ledger_line).collect::<Vec<_>>().join("\n"),
        tone: Some(Tone::Info),
        fields: Vec::new(),
        footer: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{RollId, UserId};

    #[test]
    fn ledger_lines_and_the_cut() {
        let row = |delta, after| LedgerRow {
            actor: UserId(1),
            delta,
            points_after: after,
            kind: "spent: reroll".into(),
            reason: "roll #3".into(),
            roll: Some(RollId(3)),
            at: 0,
        };
        assert_eq!(
            ledger_line(&row(-1, 4)),
            "-1 → 4 · spent: reroll · roll #3 · by <@1>"
        );
        assert_eq!(
            ledger_line(&row(2, 6)),
            "+2 → 6 · spent: reroll · roll #3 · by <@1>"
        );
        let rows: Vec<_> = (0..30).map(|i| row(1, i)).collect();
        let reply = ledger_reply("Vexa", &rows);
        assert!(reply.embeds[0].title.contains("last 25 of 30"));
        assert_eq!(reply.embeds[0].description.lines().count(), 25);
        assert!(ledger_reply("Vexa", &[]).content.contains("empty"));
    }
}
