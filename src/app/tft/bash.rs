//! `/tft bash attacker target [rush] [mode]`: after a shield bash (or, with `rush`, a shield
//! rush at the end of a charge) has hit, the foe's roll against its adjDX to stay on its feet.

use serde_json::json;

use super::shared::{faces, field, gear_dx, has_talent, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::character::Talent;
use crate::rules::tft::damage::{BashResult, ShieldBash, shield_bash};

/// A parsed `/tft bash`.
#[derive(Debug, Clone)]
pub struct Bash {
    attacker: String,
    target: String,
    rush: bool,
    mode: RollMode,
}

impl Bash {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["attacker", "target", "rush", "mode"])?;
        Ok(Self {
            // Left out: the caller's TFT figure (`Ctx::acting_character`).
            attacker: o.text("attacker").unwrap_or_default().to_owned(),
            target: o.required("target")?.to_owned(),
            rush: o.flag("rush")?,
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let attacker = ctx.acting_character(tx, Some(&self.attacker))?;
            let target = ctx.find_character(tx, &self.target)?;
            crate::app::encounter::hooks::may_strike(ctx, tx, &attacker, &target)?;
            // A bash or rush is the figure's action in a fight (tft-house-rules-combat.txt).
            crate::app::encounter::hooks::tft_act_before(ctx, tx, attacker.id)?;
            let a_sheet = tft_sheet(&attacker)?;
            let t_sheet = tft_sheet(&target)?;
            if a_sheet.shield.as_deref().is_none_or(|s| s.trim().is_empty()) {
                return Err(user(format!(
                    "{} has no shield on the sheet, and a bash or rush needs one (set it with /character set).",
                    escape(&attacker.name)
                )));
            }
            let (armor, shield) = gear_dx(&target, &t_sheet, super::shared::house_rules(ctx))?;
            let foe_adj_dx = t_sheet.dx + armor + shield;
            let advanced = has_talent(&a_sheet, Talent::AdvancedShield);
            let bash = shield_bash(
                &mut ctx.dice(),
                a_sheet.st,
                t_sheet.st,
                foe_adj_dx,
                advanced,
                self.rush,
            )
            .map_err(user)?;
            let verb = if self.rush { "shield-rushes" } else { "shield-bashes" };
            let label = format!("{} {verb} {}", attacker.name, target.name);
            ctx.log_roll(
                tx,
                Some(attacker.id),
                "tft bash",
                self.mode,
                &label,
                &json!({
                    "attacker": attacker.id,
                    "target": target.id,
                    "rush": self.rush,
                    "effective_st": bash.effective_st,
                    "dice": bash.roll.dice,
                    "faces": bash.roll.faces,
                    "total": bash.roll.total,
                    "against": bash.roll.against,
                    "result": result_name(bash.result),
                }),
            )?;
            let title = format!("{} {verb} {}", escape(&attacker.name), escape(&target.name));
            let lines = crate::app::encounter::hooks::tft_cast_after(ctx, tx, attacker.id, None)?;
            let reply =
                Reply::public("").with_embed(render(title, &target.name, t_sheet.st, &bash));
            Ok((
                format!("a shield bash on {}", escape(&target.name)),
                crate::app::encounter::hooks::with_lines(reply, self.mode, &lines),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

fn result_name(r: BashResult) -> &'static str {
    match r {
        BashResult::Stands => "Stays on its feet",
        BashResult::Shaken => "Shaken: stays up, −2 DX on its next turn",
        BashResult::KnockedDown => "Knocked down",
    }
}

fn render(title: String, target: &str, target_st: i32, b: &ShieldBash) -> Embed {
    let r = &b.roll;
    Embed {
        title,
        description: format!("**{}**", result_name(b.result)),
        // Coloured for the one who bashed: a fallen foe is the success.
        tone: Some(match b.result {
            BashResult::KnockedDown => Tone::Green,
            BashResult::Shaken => Tone::Yellow,
            BashResult::Stands => Tone::Grey,
        }),
        fields: vec![
            field(
                "Roll",
                format!("{}d: {} = {}", r.dice, faces(&r.faces), r.total),
                true,
            ),
            field(
                "Against",
                format!("{}'s adjDX {}", escape(target), r.against),
                true,
            ),
            field(
                "ST",
                format!("{} against {target_st}: {} dice", b.effective_st, r.dice),
                true,
            ),
        ],
        footer: Some("Rolled after the bash or rush hit; the foe rolls to stay up.".to_owned()),
    }
}
