//! `/tftkit miss [character] [prior] [modifier] [mode]`: a shooter's 3 dice to miss a figure in the
//! line of fire (tft-rules-summary.md, "ROLLING TO MISS"). Reports what the figure in the way
//! suffers; the damage of a shot that hits it is a `/tft attack` on that figure.

use serde_json::json;

use super::odds::{miss_name, miss_tone};
use super::shared::{faces, field, gear_dx, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply};
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx};
use crate::rules::tft::Multiplier;
use crate::rules::tft::attack::roll_to_miss;

/// The largest modifier either way, and the most earlier rolls (as `/tft attack`).
const MAX_MODIFIER: i64 = 40;
const MAX_PRIOR: i64 = 100;

/// A parsed `/tft miss`.
#[derive(Debug, Clone)]
pub struct Miss {
    character: Option<String>,
    prior: i32,
    modifier: i32,
    mode: RollMode,
}

impl Miss {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["character", "prior", "modifier", "mode"])?;
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            prior: o.int("prior", 0, MAX_PRIOR)?.unwrap_or(0) as i32,
            modifier: o.int("modifier", -MAX_MODIFIER, MAX_MODIFIER)?.unwrap_or(0) as i32,
            mode: o.mode()?,
        })
    }

    /// tft-house-rules-combat.txt, "Rolling to Miss and Multiple Rolls to Hit": the -1 per
    /// earlier roll is the house rules'; the roll to miss itself is the summary's.
    pub(super) fn house_rule(&self) -> Option<&'static str> {
        (self.prior > 0).then_some("The -1 per earlier roll this turn (prior)")
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let (armor, shield) = gear_dx(&c, &sheet, super::shared::house_rules(ctx))?;
            // The roll is against adjDX, less one per figure already rolled for this turn
            // (tft-rules-summary.md, "ROLLING TO MISS").
            let mut parts = vec![format!("DX {}", sheet.dx)];
            for (name, n) in [
                ("armor", armor),
                ("shield", shield),
                ("earlier rolls", -self.prior),
                ("modifier", self.modifier),
            ] {
                if n != 0 {
                    parts.push(format!("{name} {}", signed(n)));
                }
            }
            let adj_dx = sheet.dx + armor + shield - self.prior + self.modifier;
            let roll = roll_to_miss(adj_dx, &mut ctx.dice());
            let label = format!("{} rolls to miss", c.name);
            ctx.log_roll(
                tx,
                Some(c.id),
                "tft miss",
                self.mode,
                &label,
                &json!({
                    "adj_dx": adj_dx,
                    "faces": roll.faces,
                    "total": roll.total,
                    "outcome": miss_name(roll.outcome),
                }),
            )?;
            let effect = match roll.outcome.multiplier() {
                None => "The shot passes the figure in the way.",
                Some(Multiplier::Normal) => "The figure in the way takes the shot.",
                Some(Multiplier::Double) => "The figure in the way takes the shot, double damage.",
                Some(Multiplier::Triple) => "The figure in the way takes the shot, triple damage.",
            };
            let tone = miss_tone(roll.outcome);
            let embed = Embed {
                title: escape(&label),
                description: format!("**{}**. {effect}", miss_name(roll.outcome)),
                tone: Some(tone),
                fields: vec![
                    field(
                        "Roll",
                        format!("3d: {} = {}", faces(&roll.faces), roll.total),
                        true,
                    ),
                    field(
                        "adjDX",
                        format!("{} = **{adj_dx}**", parts.join(", ")),
                        false,
                    ),
                ],
                footer: Some(
                    "3 always misses; 14 always hits; 15-16 double, 17-18 triple damage."
                        .to_owned(),
                ),
            };
            Ok((label, Reply::public("").with_embed(embed)))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}
