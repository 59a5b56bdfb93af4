//! `/tftkit check check [case] [character] [spell_iq] [modifier] [mode]`: one of the summary's
//! common checks by name (climb, force a door, notice a trap…), the row picked by the figure's
//! talents, rolled as a saving roll.
//!
//! Owns choosing the row among those the figure's talents allow; the rows, dice and modifiers
//! are `rules::tft::saves::checks`' own.

use serde_json::json;

use super::save::{bands_text, result_name, result_tone};
use super::shared::{faces, field, gear_dx, has_talent, menu, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply};
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::character::{Attribute, Talent};
use crate::rules::tft::multi::Action;
use crate::rules::tft::saves::save_odds;
use crate::rules::tft::saves::{
    CheckActivity, CommonCheck, TalentCondition, checks_for, recognize_spell_modifier,
    roll_common_check,
};

/// The largest modifier either way (as `/tft save`).
const MAX_MODIFIER: i64 = 40;
/// The highest spell IQ accepted.
const MAX_SPELL_IQ: i64 = 40;

/// What `check:` accepts, in the summary's order.
pub const ACTIVITIES: [(&str, CheckActivity); 11] = [
    ("spot-ambush", CheckActivity::SpotAmbush),
    ("climb-wall", CheckActivity::ClimbWall),
    ("climb-rope", CheckActivity::ClimbRope),
    ("force-door", CheckActivity::ForceDoor),
    ("notice", CheckActivity::Notice),
    ("pick-pocket", CheckActivity::PickPocket),
    ("recognize-spell", CheckActivity::RecognizeSpell),
    ("run", CheckActivity::Run),
    ("draw-dagger", CheckActivity::DrawDagger),
    ("leave-hth", CheckActivity::LeaveHandToHand),
    ("disbelieve", CheckActivity::Disbelieve),
];

/// A parsed `/tft check`.
#[derive(Debug, Clone)]
pub struct Check {
    activity: CheckActivity,
    name: &'static str,
    case: Option<String>,
    character: Option<String>,
    spell_iq: Option<i32>,
    modifier: i32,
    mode: RollMode,
}

impl Check {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &["check", "case", "character", "spell_iq", "modifier", "mode"],
        )?;
        let activity = menu("check", o.required("check")?, &ACTIVITIES)?;
        let name = ACTIVITIES
            .iter()
            .find(|(_, a)| *a == activity)
            .map_or("check", |(n, _)| n);
        let spell_iq = o.int("spell_iq", 1, MAX_SPELL_IQ)?.map(|n| n as i32);
        match (activity, spell_iq) {
            (CheckActivity::RecognizeSpell, None) => {
                return Err(user(
                    "recognize-spell needs spell_iq: the IQ level of the spell seen.",
                ));
            }
            (CheckActivity::RecognizeSpell, Some(_)) | (_, None) => {}
            (_, Some(_)) => {
                return Err(user(
                    "spell_iq is only for check:recognize-spell; leave it out.",
                ));
            }
        }
        Ok(Self {
            activity,
            name,
            case: o
                .text("case")
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty()),
            character: o.text("character").map(str::to_owned),
            spell_iq,
            modifier: o.int("modifier", -MAX_MODIFIER, MAX_MODIFIER)?.unwrap_or(0) as i32,
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let allowed = |t: TalentCondition| match t {
                TalentCondition::Anyone => true,
                TalentCondition::With(a) => has_talent(&sheet, a),
                TalentCondition::WithBoth(a, b) => has_talent(&sheet, a) && has_talent(&sheet, b),
            };
            let rows: Vec<&CommonCheck> = checks_for(self.activity)
                .filter(|r| allowed(r.talent))
                .collect();
            let row = pick_row(&rows, self.case.as_deref())
                .map_err(|why| user(format!("{} for {}: {why}", self.name, escape(&c.name))))?;
            let (action, more_dice) = in_the_fight(ctx, tx, c.id, self.activity)?;
            let mut row = *row;
            row.dice += more_dice;
            let row = &row;
            // The attribute, and what changes it ("DX 12", "armor -2", "check +2").
            let mut parts = Vec::new();
            let mut base = match row.attribute {
                Attribute::St => sheet.st,
                Attribute::Dx => sheet.dx,
                Attribute::Iq => sheet.iq,
            };
            parts.push(format!("{} {base}", row.attribute.name()));
            // As /tft save: a DX roll is made against adjDX (docs/rulings.md).
            if row.attribute == Attribute::Dx {
                let (armor, shield) = gear_dx(&c, &sheet, super::shared::house_rules(ctx))?;
                for (name, dx) in [("armor", armor), ("shield", shield)] {
                    if dx != 0 {
                        parts.push(format!("{name} {}", signed(dx)));
                        base += dx;
                    }
                }
            }
            if row.modifier != 0 {
                parts.push(format!("{} {}", row.case, signed(row.modifier)));
            }
            let mut extra = self.modifier;
            if let Some(spell_iq) = self.spell_iq {
                let m = recognize_spell_modifier(spell_iq, sheet.iq);
                if m != 0 {
                    parts.push(format!("spell IQ {spell_iq} {}", signed(m)));
                }
                extra += m;
            }
            if self.modifier != 0 {
                parts.push(format!("modifier {}", signed(self.modifier)));
            }
            let outcome = roll_common_check(row, base, extra, &mut ctx.dice()).map_err(user)?;
            if action.is_some() {
                crate::app::encounter::hooks::tft_cast_after(ctx, tx, c.id, None)?;
            }
            let more = if more_dice > 0 {
                format!(" (multiple actions: +{more_dice} dice)")
            } else {
                String::new()
            };
            let (dice, attribute) = (row.dice, row.attribute.name());
            let label = format!(
                "{} ({}): {dice}d against {attribute}{more}",
                self.name, row.case
            );
            ctx.log_roll(
                tx,
                Some(c.id),
                "tft check",
                self.mode,
                &label,
                &json!({
                    "check": self.name,
                    "case": row.case,
                    "dice": outcome.dice,
                    "faces": outcome.faces,
                    "total": outcome.total,
                    "target": outcome.target,
                    "result": result_name(outcome.result),
                }),
            )?;
            let target = if parts.len() == 1 {
                parts.join("")
            } else {
                format!("{} = {}", parts.join(", "), outcome.target)
            };
            let chance = save_odds(outcome.dice, outcome.target)
                .map(|o| format!(" The chance was {:.1}%.", o.success_percent()))
                .unwrap_or_default();
            let embed = Embed {
                title: format!("{}: {label}", escape(&c.name)),
                description: format!("**{}**", result_name(outcome.result)),
                tone: Some(result_tone(outcome.result)),
                fields: vec![
                    field("Dice", faces(&outcome.faces), true),
                    field("Total", outcome.total.to_string(), true),
                    field("Target", target, true),
                ],
                footer: Some(format!("{}{chance}", bands_text(outcome.dice))),
            };
            Ok((label, Reply::public("").with_embed(embed)))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

/// In a fight, disbelieving and drawing a dagger are actions: with several declared they roll
/// more dice (see `encounter::hooks::tft_action_before`). The action, if this is one, and the
/// dice it adds.
fn in_the_fight(
    ctx: &Ctx<'_>,
    tx: &crate::store::Conn,
    who: crate::store::CharacterId,
    activity: CheckActivity,
) -> AppResult<(Option<Action>, u32)> {
    let action = match activity {
        CheckActivity::Disbelieve => Action::Disbelieve,
        CheckActivity::DrawDagger => Action::DrawDagger,
        _ => return Ok((None, 0)),
    };
    let more = crate::app::encounter::hooks::tft_action_before(ctx, tx, who, action)?;
    Ok((Some(action), more))
}

/// The talents a row asks for.
fn talents_asked(t: TalentCondition) -> Vec<Talent> {
    match t {
        TalentCondition::Anyone => vec![],
        TalentCondition::With(a) => vec![a],
        TalentCondition::WithBoth(a, b) => vec![a, b],
    }
}

/// The situation of a row: its label before the talents ("trap" of "trap, with Alertness"); a
/// label that is only talents is the plain situation.
fn situation(case: &str) -> &str {
    if case.starts_with("with ") {
        ""
    } else {
        case.split(", with ").next().unwrap_or(case)
    }
}

/// Words that name no situation ("with a crowbar" is "crowbar"), left out on both sides.
const FILLER: [&str; 13] = [
    "a", "an", "the", "with", "by", "and", "in", "on", "of", "at", "door", "run", "running",
];

/// Short forms a player may type, and the label words they stand for; an activity's own
/// "both" is its summary row of that name (tft-rules-summary.md, "COMMON CHECKS").
const SHORT_FORMS: [(Option<CheckActivity>, &str, &[&str]); 9] = [
    (None, "kick", &["kicking"]),
    (None, "kicked", &["kicking"]),
    (None, "lock", &["locked"]),
    (None, "dark", &["darkness"]),
    (None, "slip", &["slippery"]),
    (
        Some(CheckActivity::Run),
        "both",
        &["broken", "ground", "darkness"],
    ),
    (
        Some(CheckActivity::SpotAmbush),
        "both",
        &["naturalist", "alertness"],
    ),
    (
        Some(CheckActivity::Notice),
        "both",
        &["alertness", "detect", "traps"],
    ),
    (None, "broken", &["broken", "ground"]),
];

/// The words of a label or of what a player typed, lower-cased, fillers left out and short
/// forms spelled out ("kick the locked door" is {kicking, locked}).
fn words(activity: CheckActivity, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
    {
        if FILLER.contains(&w.as_str()) {
            continue;
        }
        let long = SHORT_FORMS
            .iter()
            .find(|(a, short, _)| a.is_none_or(|a| a == activity) && *short == w);
        match long {
            Some((_, _, long)) => out.extend(long.iter().map(|l| (*l).to_owned())),
            None => out.push(w),
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether every word of `wanted` is a word of `label` ("trap" is not "traps").
fn names(activity: CheckActivity, label: &str, wanted: &str) -> bool {
    let have = words(activity, label);
    words(activity, wanted).iter().all(|w| have.contains(w))
}

/// Whether every word of `plain`'s label is one of `other`'s: `other` adds a circumstance to it
/// ("darkness" to "broken ground in darkness", "locked" to "with a crowbar").
fn within(activity: CheckActivity, plain: &str, other: &str) -> bool {
    names(activity, other, plain)
}

/// Whether `better` replaces `plain` for a figure allowed both: the same situation, for more
/// talents, those of `plain` among them (or `plain` is for anyone and `better` is only talents,
/// as "with Thief" replaces "without the Thief talent").
fn replaces(better: &CommonCheck, plain: &CommonCheck) -> bool {
    let (b, p) = (talents_asked(better.talent), talents_asked(plain.talent));
    b.len() > p.len()
        && p.iter().all(|t| b.contains(t))
        && (situation(better.case) == situation(plain.case)
            || (p.is_empty() && better.case.starts_with("with ")))
}

/// The row to roll among those the figure's talents allow, narrowed by `case` (words of the
/// row's label, or their short forms: [`words`]). A row for more talents replaces the plainer row
/// it extends ("wall" by "wall, with Climbing"); of the rows left, one whose words are all in
/// every other's is the plain situation (the others add a circumstance to name: "darkness" is
/// darkness alone, "broken ground in darkness" the summary's "Both").
// Decision: the summary lists each talent's row beside the plain one; a figure with the talent
// rolls the better row, unless the player names the plain one with case.
fn pick_row<'a>(rows: &[&'a CommonCheck], case: Option<&str>) -> Result<&'a CommonCheck, String> {
    let Some(activity) = rows.first().map(|r| r.activity) else {
        return Err(
            "no row of the common checks fits this figure's talents; the GM decides the roll"
                .to_owned(),
        );
    };
    let named: Vec<&CommonCheck> = rows
        .iter()
        .copied()
        .filter(|r| case.is_none_or(|w| names(activity, r.case, w)))
        .collect();
    let kept: Vec<&CommonCheck> = named
        .iter()
        .copied()
        .filter(|r| !named.iter().any(|r2| replaces(r2, r)))
        .collect();
    if let [only] = kept.as_slice() {
        return Ok(only);
    }
    if let Some(plain) = kept
        .iter()
        .find(|r| kept.iter().all(|o| within(activity, r.case, o.case)))
    {
        return Ok(plain);
    }
    let listed = |rs: &[&CommonCheck]| {
        rs.iter()
            .map(|r| format!("\"{}\" ({}d/{})", r.case, r.dice, r.attribute.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if kept.is_empty() {
        return Err(format!(
            "no case matches \"{}\"; case may be {}",
            escape(case.unwrap_or_default()),
            listed(rows)
        ));
    }
    Err(format!("name the situation with case: {}", listed(&kept)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(activity: CheckActivity, talents: &[Talent]) -> Vec<&'static CommonCheck> {
        checks_for(activity)
            .filter(|r| match r.talent {
                TalentCondition::Anyone => true,
                TalentCondition::With(a) => talents.contains(&a),
                TalentCondition::WithBoth(a, b) => talents.contains(&a) && talents.contains(&b),
            })
            .collect()
    }

    #[test]
    fn talent_rows_replace_the_plain_ones() {
        // tft-rules-summary.md, "COMMON CHECKS": each case, without and with the talent.
        use CheckActivity as A;
        use Talent as T;
        let cases: [(A, &[Talent], Option<&str>, &str); 9] = [
            (A::ClimbWall, &[], None, "wall"),
            (
                A::SpotAmbush,
                &[T::Naturalist, T::Alertness],
                None,
                "with Naturalist and Alertness",
            ),
            (A::ClimbWall, &[T::Climbing], None, "wall, with Climbing"),
            (A::PickPocket, &[], None, "without the Thief talent"),
            (A::PickPocket, &[T::Thief], None, "with Thief"),
            (
                A::PickPocket,
                &[T::Thief],
                Some("distraction"),
                "with Thief and a distraction",
            ),
            (A::Notice, &[], Some("trap"), "trap"),
            (
                A::Notice,
                &[T::Alertness],
                Some("trap"),
                "trap, with Alertness",
            ),
            (
                A::Notice,
                &[T::Alertness, T::DetectTraps],
                Some("trap"),
                "trap, with Alertness and Detect Traps",
            ),
        ];
        for (activity, talents, case, want) in cases {
            let got = pick_row(&rows(activity, talents), case).unwrap();
            assert_eq!(got.case, want, "{activity:?} {talents:?} {case:?}");
        }
    }

    #[test]
    fn every_row_is_rolled_by_its_own_label() {
        // tft-rules-summary.md, "COMMON CHECKS": each row, named as the bot lists it, is the row
        // rolled by a figure with just the talents it asks for (one with more rolls the better
        // row: `talent_rows_replace_the_plain_ones`).
        for row in crate::rules::tft::saves::COMMON_CHECKS
            .iter()
            .chain(crate::rules::tft::saves::MORE_CHECKS.iter())
        {
            let rows = rows(row.activity, &talents_asked(row.talent));
            let got = pick_row(&rows, Some(row.case)).unwrap();
            assert_eq!(got.case, row.case);
        }
    }

    #[test]
    fn doors_and_running_take_short_forms_and_combinations() {
        // tft-rules-summary.md, "COMMON CHECKS", Force Door (crowbar 3d/ST, kick 5d/ST, locked one
        // die more) and Run (broken ground 3d/DX-2, darkness 3d/DX, both 4d/DX, slippery floor
        // 3d/DX, moving 4d/DX).
        use CheckActivity as A;
        let cases: [(A, &str, &str, u32, i32); 19] = [
            (A::ForceDoor, "crowbar", "with a crowbar", 3, 0),
            (A::ForceDoor, "with a crowbar", "with a crowbar", 3, 0),
            (A::ForceDoor, "kick", "by kicking", 5, 0),
            (A::ForceDoor, "Kicking", "by kicking", 5, 0),
            (
                A::ForceDoor,
                "locked crowbar",
                "locked, with a crowbar",
                4,
                0,
            ),
            (
                A::ForceDoor,
                "crowbar, locked",
                "locked, with a crowbar",
                4,
                0,
            ),
            (
                A::ForceDoor,
                "kick the locked door",
                "locked, by kicking",
                6,
                0,
            ),
            (
                A::ForceDoor,
                "locked, by kicking",
                "locked, by kicking",
                6,
                0,
            ),
            (A::Run, "broken ground", "broken ground", 3, -2),
            (A::Run, "broken", "broken ground", 3, -2),
            (A::Run, "darkness", "darkness", 3, 0),
            (A::Run, "dark", "darkness", 3, 0),
            (A::Run, "both", "broken ground in darkness", 4, 0),
            (
                A::Run,
                "darkness and broken ground",
                "broken ground in darkness",
                4,
                0,
            ),
            (
                A::Run,
                "broken ground in the dark",
                "broken ground in darkness",
                4,
                0,
            ),
            (A::Run, "slippery floor", "slippery floor", 3, 0),
            (A::Run, "slippery", "slippery floor", 3, 0),
            (A::Run, "moving", "slippery moving floor", 4, 0),
            (
                A::Run,
                "moving slippery floor",
                "slippery moving floor",
                4,
                0,
            ),
        ];
        for (activity, case, want, dice, modifier) in cases {
            let got = pick_row(&rows(activity, &[]), Some(case)).unwrap();
            assert_eq!(
                (got.case, got.dice, got.modifier),
                (want, dice, modifier),
                "{case}"
            );
        }
        // What names two rows still asks which.
        for (activity, case) in [
            (A::ForceDoor, "locked"),
            (A::ForceDoor, "door"),
            (A::Notice, "alertness"),
            (A::Notice, "poison"),
        ] {
            let talents = [Talent::Alertness];
            let err = pick_row(&rows(activity, &talents), Some(case)).unwrap_err();
            assert!(
                err.contains("name the situation with case"),
                "{case}: {err}"
            );
        }
        let err = pick_row(&rows(A::ForceDoor, &[]), Some("battering ram")).unwrap_err();
        assert!(err.contains("no case matches"), "{err}");
    }

    #[test]
    fn unclear_or_unknown_cases_are_refused() {
        let err = pick_row(&rows(CheckActivity::Notice, &[]), None).unwrap_err();
        assert!(err.contains("\"contact poison\" (5d/IQ)"), "{err}");
        let err = pick_row(&rows(CheckActivity::Notice, &[]), Some("dragon")).unwrap_err();
        assert!(err.contains("no case matches"), "{err}");
        let err = pick_row(&rows(CheckActivity::SpotAmbush, &[]), None).unwrap_err();
        assert!(err.contains("GM decides"), "{err}");
    }
}
