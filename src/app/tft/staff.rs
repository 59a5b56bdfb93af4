//! `/tftkit staff by [points] [character]`: a wizard's staff refilled with mana, by fatigue (5 ST
//! a point) or contemplation (a half day a point), and the mana a spell draws from it
//! (`/tftkit cast mana:`).
//!
//! Owns the `mana_spent` field of the TFT sheet; the sheet's `mana` (the staff's M) is the GM's,
//! set with `/character set field:mana`. Every number comes from `rules::tft::mana`.

use super::shared::{field, menu, st_left, tft_sheet};
use super::state;
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::screen;
use crate::app::sheet::TftSheet;
use crate::app::text::escape;
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::tft::mana::{self, Refill, Staff};
use crate::store::characters;
use crate::store::{CharacterId, Conn, GuildId};

const WAYS: [(&str, Refill); 2] = [
    ("fatigue", Refill::Fatigue),
    ("contemplation", Refill::Contemplation),
];

/// The most points refilled at once: a staff's largest M.
const MAX_POINTS: i64 = mana::MAX_MANA as i64;

/// A parsed `/tftkit staff`.
#[derive(Debug, Clone)]
pub struct Refilling {
    how: Refill,
    points: u32,
    character: Option<String>,
}

impl Refilling {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["by", "points", "character"])?;
        Ok(Self {
            how: menu("by", o.required("by")?, &WAYS)?,
            points: o.int("points", 1, MAX_POINTS)?.map_or(1, |n| n as u32),
            character: o.text("character").map(str::to_owned),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let name = escape(&c.name);
            let doing = match self.how {
                Refill::Fatigue => "pour ST into a staff",
                Refill::Contemplation => "contemplate",
            };
            state::ready_to_act(tx, guild, &c, &sheet, doing)?;
            // Decision: neither way is among a turn's options (tft-rules-summary.md, "OPTIONS
            // FOR ENGAGED FIGURES" and those for disengaged ones), and contemplation takes half
            // a day, so a figure in a fight here refills after it; a GM may rule otherwise.
            let mut lines = Vec::new();
            if crate::app::encounter::hooks::in_fight(ctx, tx, c.id)? {
                if !ctx.is_gm() {
                    return Err(user(format!(
                        "{name} is in the fight here; refilling a staff is no action of a turn, so it waits until the fight ends. Nothing changed."
                    )));
                }
                lines.push("GM's call: refilled during the fight.".to_owned());
            }
            let (hits, fatigue) = characters::tft_damage(tx, guild, c.id)?;
            let left = st_left(&sheet, hits, fatigue);
            let done = mana::refill(sheet.staff(), self.points, self.how, left).map_err(|e| {
                user(format!(
                    "{name} cannot refill the staff with {}: {e}. Nothing changed.",
                    crate::app::text::count(self.points, "mana", "mana")
                ))
            })?;
            let fatigue_after = fatigue + i64::from(done.fatigue);
            let left_after = st_left(&sheet, hits, fatigue_after);
            if done.fatigue > 0 {
                characters::set_tft_damage(tx, guild, c.id, hits, fatigue_after)?;
                if left_after <= 0 {
                    state::record_fall(tx, guild, &c)?;
                }
            }
            let before = sheet.staff();
            set_spent(tx, guild, c.id, done.staff.spent)?;
            let how = match self.how {
                Refill::Fatigue => format!("{} ST of fatigue", done.fatigue),
                Refill::Contemplation => crate::app::text::count(
                    done.half_days,
                    "half day of contemplation",
                    "half days of contemplation",
                ),
            };
            let mut fields = vec![field(
                "Staff",
                screen::npc(
                    c.npc,
                    format!(
                        "{} → {} stored, of {}",
                        before.stored(),
                        done.staff.stored(),
                        done.staff.mana
                    ),
                ),
                false,
            )];
            if done.fatigue > 0 {
                fields.push(field(
                    "ST",
                    format!(
                        "{}{}",
                        screen::npc(c.npc, format!("{left} → {left_after} ST left")),
                        if left_after <= 0 { ", and falls" } else { "" }
                    ),
                    false,
                ));
            }
            let mut description = format!(
                "{} put back by {how}.",
                crate::app::text::count(self.points, "point of mana", "points of mana")
            );
            for l in lines {
                description.push('\n');
                description.push_str(&l);
            }
            let embed = Embed {
                title: format!("{name} refills the staff"),
                description,
                tone: Some(Tone::Info),
                fields,
                footer: None,
            };
            // A reply about an NPC is the GM's alone.
            Ok(if c.npc {
                Reply::ephemeral("").with_embed(embed)
            } else {
                Reply::public("").with_embed(embed)
            })
        })
    }
}

/// Takes `points` of mana from the staff of the character `id`, read again from the store (an
/// earlier write of this transaction may have changed its sheet): the staff before and after, or
/// `None` when nothing was drawn. The caller checked the staff holds them (`mana::check_spend`).
pub(super) fn spend_mana(
    conn: &Conn,
    guild: GuildId,
    id: CharacterId,
    points: u32,
) -> AppResult<Option<(Staff, Staff)>> {
    if points == 0 {
        return Ok(None);
    }
    let before = sheet_of(conn, guild, id)?.staff();
    let spent = (before.spent + points).min(before.mana);
    Ok(Some((before, set_spent(conn, guild, id, spent)?)))
}

/// Writes the mana spent from the staff of `id`, on its sheet as stored now.
fn set_spent(conn: &Conn, guild: GuildId, id: CharacterId, spent: u32) -> AppResult<Staff> {
    let c = characters::by_id(conn, guild, id)?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("character {id:?} vanished")))?;
    let sheet = tft_sheet(&c)?;
    let after = TftSheet {
        mana_spent: spent,
        ..sheet.clone()
    };
    state::save_sheet(conn, guild, &c, &sheet, &after)?;
    Ok(after.staff())
}

fn sheet_of(conn: &Conn, guild: GuildId, id: CharacterId) -> AppResult<TftSheet> {
    let c = characters::by_id(conn, guild, id)?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("character {id:?} vanished")))?;
    tft_sheet(&c)
}
