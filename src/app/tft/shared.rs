//! What every TFT use case shares: the TFT sheet of a character, its talents, the DX its armor
//! and shield cost, its ST left, the guild's TFT table switches and house rules, and the words
//! of a reply (dice faces, fields, fixed menus).
//!
//! A leaf of the family: it imports none of the use cases, which all import it, and not the
//! family's dispatcher ([`super`]).
//!
//! Seam: the `encounter` (its TFT figures' order and ST) and `/character` (`characters`: the
//! house rules' gear, a figure's condition) read TFT sheets through it.

use crate::app::Ctx;
use crate::app::error::{AppError, AppResult, user};
use crate::app::house::house_rule;
use crate::app::reply::Field;
use crate::app::screen;
use crate::app::sheet::{Sheet, TftSheet};
use crate::app::text::escape;
use crate::rules::tft::attack::AttackTableSettings;
use crate::rules::tft::character::Talent;
use crate::rules::tft::gear;
use crate::rules::tft::injury::{self, Condition};
use crate::store::characters::Character;

/// The guild's TFT switches (`/gm rules`, whose table holds the names and defaults): the
/// attack-table settings and whether the house rules apply.
pub(super) fn table_settings(ctx: &Ctx<'_>) -> (AttackTableSettings, bool) {
    let rule = |name: &str| house_rule(&ctx.settings, name);
    (
        AttackTableSettings {
            four_dice_specials: rule("tft_four_dice_specials"),
            generalize_beyond_four: rule("tft_generalize_beyond_four"),
        },
        rule("tft_house_rules"),
    )
}

/// Whether the guild plays with Bill Seurer's house rules (`/gm rules tft_house_rules`).
pub(crate) fn house_rules(ctx: &Ctx<'_>) -> bool {
    house_rule(&ctx.settings, "tft_house_rules")
}

/// The refusal for something that exists only by the house rules, in a guild that turned
/// them off: what it is, and both ways out.
pub(crate) fn house_rule_off(what: &str) -> AppError {
    user(format!(
        "{what} is one of Bill Seurer's house rules, which are off here: leave it out, or a GM turns them on with /gm rules name:tft_house_rules value:on."
    ))
}

/// Refuses `what` when the guild plays without the house rules.
pub(crate) fn need_house_rules(ctx: &Ctx<'_>, what: &str) -> AppResult<()> {
    if house_rules(ctx) {
        Ok(())
    } else {
        Err(house_rule_off(what))
    }
}

/// The TFT sheet of `c`, or a clear refusal for a THIZ character.
pub(crate) fn tft_sheet(c: &Character) -> AppResult<TftSheet> {
    match Sheet::of(c)? {
        Sheet::Tft(s) => Ok(s),
        Sheet::Thiz(_) => Err(user(format!(
            "{} is a THIZ character; /tft commands need a TFT character (THIZ uses /check and /attack).",
            escape(&c.name)
        ))),
    }
}

/// Whether the sheet lists `talent` (names are read as the rules read them).
pub(crate) fn has_talent(sheet: &TftSheet, talent: Talent) -> bool {
    sheet
        .talents
        .iter()
        .any(|t| Talent::parse(t) == Some(talent))
}

/// The DX penalties of the armor and shield on a sheet: (armor, shield), each 0 or negative.
/// With the house rules off (`house_rules` false) the house rules' fine armor and metal small
/// shield are refused, naming the switch, as `/tft attack` refuses them: no roll reads fine
/// armor's lighter DX penalty where the table plays without it.
pub(crate) fn gear_dx(c: &Character, sheet: &TftSheet, house_rules: bool) -> AppResult<(i32, i32)> {
    if !house_rules {
        house_gear(c, sheet)?;
    }
    let (armor, shield) = sheet_gear(c, sheet)?;
    Ok((armor.map_or(0, |a| a.dx), shield.map_or(0, |s| s.dx)))
}

/// [`gear_dx`] for the encounter's order, which must always be made: with the house rules off
/// a fine armor counts as the printed armor it is made as, a metal small shield as a small one
/// (`ArmorKind::plain`), instead of a refusal.
///
/// Decision: a refusal here would stop the whole fight over one sheet, so the order reads the
/// printed counterpart; every roll the figure makes still refuses the house rules' gear.
pub(crate) fn order_gear_dx(
    c: &Character,
    sheet: &TftSheet,
    house_rules: bool,
) -> AppResult<(i32, i32)> {
    let (armor, shield) = sheet_gear(c, sheet)?;
    let armor = armor.map_or(0, |a| {
        if house_rules {
            a.dx
        } else {
            a.kind.plain().armor().dx
        }
    });
    let shield = shield.map_or(0, |s| {
        if house_rules {
            s.dx
        } else {
            s.kind.plain().shield().dx
        }
    });
    Ok((armor, shield))
}

/// The armor and shield rows of the gear on a sheet.
pub(super) fn sheet_gear(
    c: &Character,
    sheet: &TftSheet,
) -> AppResult<(Option<&'static gear::Armor>, Option<&'static gear::Shield>)> {
    let armor = match sheet.armor.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(name) => Some(gear::armor(name).map_err(|e| gear_error(c, &e))?),
        None => None,
    };
    let shield = match sheet.shield.as_deref().filter(|s| !s.trim().is_empty()) {
        Some(name) => Some(gear::shield(name).map_err(|e| gear_error(c, &e))?),
        None => None,
    };
    Ok((armor, shield))
}

/// Refuses the house rules' fine armor and metal small shield on a sheet (tft-house-rules.txt,
/// "Fine Armor", "Shields") in a guild that plays without them.
pub(crate) fn house_gear(c: &Character, sheet: &TftSheet) -> AppResult<()> {
    let (armor, shield) = sheet_gear(c, sheet)?;
    if let Some(a) = armor.filter(|a| a.kind.is_fine()) {
        return Err(house_rule_off(&format!("{}'s {}", escape(&c.name), a.name)));
    }
    if let Some(s) = shield.filter(|s| s.kind == gear::ShieldKind::MetalSmall) {
        return Err(house_rule_off(&format!("{}'s {}", escape(&c.name), s.name)));
    }
    Ok(())
}

pub(super) fn gear_error(c: &Character, e: &gear::GearError) -> AppError {
    user(format!(
        "{}'s sheet: {}. Fix it with /character set.",
        escape(&c.name),
        escape(&e.to_string())
    ))
}

/// ST left: the attribute less hits and fatigue taken.
pub(crate) fn st_left(sheet: &TftSheet, hits: i64, fatigue: i64) -> i32 {
    let left = i64::from(sheet.st) - hits - fatigue;
    // The injury rules accept down to -1000; anything lower is as dead as -1000.
    left.clamp(-1000, 1000) as i32
}

/// Dice faces as players read them: "4 + 2 + 6".
pub(super) fn faces(faces: &[u32]) -> String {
    if faces.is_empty() {
        return "none".to_owned();
    }
    faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

pub(super) fn field(name: &str, value: impl Into<String>, inline: bool) -> Field {
    Field {
        name: name.to_owned(),
        value: value.into(),
        inline,
    }
}

/// Reads a fixed menu option, case-insensitively, answering with the accepted values.
pub(super) fn menu<T: Copy>(name: &str, given: &str, values: &[(&str, T)]) -> AppResult<T> {
    let key = given.trim().to_ascii_lowercase();
    values
        .iter()
        .find(|(n, _)| *n == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
            user(format!(
                "{name} must be one of {}; you gave \"{}\"",
                names.join(", "),
                escape(given.trim())
            ))
        })
}

/// The figure's state in a few words, for `/character show` and the replies of
/// `/tft heal` and the rest (`state`).
pub(crate) fn condition_text(sheet: &TftSheet, st_left: i32) -> String {
    condition_marked(sheet, st_left, false)
}

/// [`condition_text`] with the ST left marked as the GM's when the figure is an NPC
/// (`app::screen`): the state itself (dying, knocked down) is what anyone at the table sees.
pub(super) fn condition_marked(sheet: &TftSheet, st_left: i32, npc: bool) -> String {
    if sheet.dead {
        return "Dead".to_owned();
    }
    let at = screen::npc(npc, format!("{st_left} ST"));
    let mut text = match injury::condition_at(st_left) {
        Condition::Conscious => "Conscious".to_owned(),
        Condition::Unconscious | Condition::Dying if sheet.stable => {
            format!("Unconscious at {at}, out of danger (lived through the roll to live)")
        }
        Condition::Unconscious => format!("Unconscious at {at} (/tft dying rolls to live)"),
        Condition::Dying => format!("Dying at {at} (/tft dying rolls to live)"),
    };
    if sheet.knocked_down {
        text.push_str(", knocked down (/tft stand)");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::guilds::GuildSettings;

    #[test]
    fn gm_switch_defaults_are_the_rules_defaults() {
        // rules/README.md: no multipliers on 4 dice, the generalization beyond 4 dice on, the
        // house rules on. `/gm rules` owns the names; the rules own the table defaults.
        let settings = GuildSettings::default();
        let table = AttackTableSettings::default();
        assert_eq!(
            house_rule(&settings, "tft_four_dice_specials"),
            table.four_dice_specials
        );
        assert_eq!(
            house_rule(&settings, "tft_generalize_beyond_four"),
            table.generalize_beyond_four
        );
        assert!(house_rule(&settings, "tft_house_rules"));
    }
}
