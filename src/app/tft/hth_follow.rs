//! `/tft hth action:leave|dagger`: the rolls of a figure already in hand-to-hand combat (4d
//! against adjDX to get out, 3d to draw a dagger), and the entry roll's "strike at once" line.

use serde_json::json;

use super::shared::{faces, field, gear_dx, tft_sheet};
use crate::app::invocation::RollMode;
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx};
use crate::rules::tft::injury::{self, AttributeRoll, HthResult};

/// What a figure does about hand-to-hand combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HthAction {
    /// The 2d roll to close.
    Enter,
    /// 4d against adjDX to break away.
    Leave,
    /// 3d to draw a dagger while grappling.
    Dagger,
}

pub const ACTIONS: [(&str, HthAction); 3] = [
    ("enter", HthAction::Enter),
    ("leave", HthAction::Leave),
    ("dagger", HthAction::Dagger),
];

/// Rolls `action` (leave or dagger) for the acting character.
pub fn run(
    ctx: &Ctx<'_>,
    character: Option<&str>,
    action: HthAction,
    mode: RollMode,
) -> AppResult<Reply> {
    let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
        let c = ctx.acting_character(tx, character)?;
        let sheet = tft_sheet(&c)?;
        let (armor, shield) = gear_dx(&c, &sheet, super::shared::house_rules(ctx))?;
        // The sheet's DX never includes the +4 of HTH, so this adjDX is the one both rolls want.
        let adj_dx = sheet.dx + armor + shield;
        let (label, roll, done, failed) = match action {
            HthAction::Leave => (
                "leave HTH",
                injury::leave_hth(&mut ctx.dice(), adj_dx),
                "**Breaks free**: crawling, in an adjacent hex",
                "**Still held** in HTH",
            ),
            // Decision: the summary's "3d against DX" to draw a dagger is rolled against adjDX,
            // as every TFT DX roll is (docs/rulings.md, "TFT DX saves are rolled against adjDX").
            HthAction::Dagger | HthAction::Enter => (
                "draw a dagger in HTH",
                injury::draw_dagger(&mut ctx.dice(), adj_dx),
                "**Dagger drawn**: it may strike from next turn",
                "**No dagger** this turn",
            ),
        };
        ctx.log_roll(
            tx,
            Some(c.id),
            "tft hth",
            mode,
            label,
            &json!({
                "action": label,
                "faces": roll.faces,
                "total": roll.total,
                "against": roll.against,
                "success": roll.success,
            }),
        )?;
        let embed = Embed {
            title: format!("{}: {label}", escape(&c.name)),
            description: (if roll.success { done } else { failed }).to_owned(),
            tone: Some(if roll.success {
                Tone::Green
            } else {
                Tone::Grey
            }),
            fields: roll_fields(&roll),
            footer: None,
        };
        Ok((
            format!("a roll to {label}"),
            Reply::public("").with_embed(embed),
        ))
    })?;
    Ok(ctx.route(mode, &what, full))
}

fn roll_fields(roll: &AttributeRoll) -> Vec<Field> {
    let mut total = roll.total.to_string();
    if roll.automatic {
        total.push_str(if roll.success {
            " (automatic success)"
        } else {
            " (automatic failure)"
        });
    }
    vec![
        field(
            "Roll",
            format!("{}d: {} = {}", roll.dice, faces(&roll.faces), roll.total),
            true,
        ),
        field("Against", format!("adjDX {}", roll.against), true),
        field("Total", total, true),
    ]
}

/// Whether the attacker may also strike on the turn HTH began, for the entry reply; `None` when
/// no HTH began.
pub fn strike_field(result: HthResult, during_movement: bool, half_ma: bool) -> Option<Field> {
    if !result.initiated() {
        return None;
    }
    let text = if injury::may_strike_at_once(during_movement, half_ma) {
        "yes: HTH began during movement, after half MA or less"
    } else if during_movement {
        "no: more than half MA was spent (half_ma:true if not)"
    } else {
        "no: only when HTH begins during movement"
    };
    Some(field("Strike this turn", text, false))
}
