//! `/magic target`: the Magic Skills of chapter 2 that act on another character and carry their
//! own numbers — a Mentalism attack (against the target's Willpower, a wound of the level that
//! lifts after 10 + 1d10 minutes of rest), a Reiki strike (a bare-handed touch with Unarmed
//! Combat first, then Reiki against Toughness, a wound of the level), Reiki healing (one wound of the level's colour or lighter on the named section) and
//! Psychokinesis on a thing or a moving target (its Speed taken off; the momentum by level).
//!
//! Decisions:
//! - The wound of a Mentalism or Reiki attack lands where the caster aims (`location`, the Chest
//!   when left out) and counts as any wound: the target's condition follows it, as after an
//!   attack. The rest that lifts a Mentalism wound is shown; the GM heals it with `/wound heal`.
//! - A Reiki strike's `modifier` is the Reiki check's; the touch before it is an ordinary
//!   bare-handed hit with no modifier but the attacker's wounds. A touch that misses ends the
//!   strike: no Reiki check is rolled.
//! - Reiki healing needs no opposition; with nothing light enough on that section it is a clear
//!   answer, not a spent check.
//! - The check is logged under the caster as a `/magic` record with its input whole; it is not a
//!   luck reroll, since it writes the target's sheet (as a casting is not).

use super::hazard::{check_record, check_text, embed_reply, field, save_wounds, unlucky_line};
use std::fmt::Write as _;

use super::record::{CheckRecord, MagicRecord, ThizRecord, WoundRecord, parse_level};
use super::shared::{INPUT_LIMIT, int, level_text, mode, parse_location, tone};
use super::stats::{ThizChar, clamp_input, describe_base};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::Reply;
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::combat::{AttackInput, AttackKind, adjusted_attack};
use crate::rules::thiz::magic::{
    mentalism_rating, mentalism_wound, psychokinesis_momentum, psychokinesis_rating, reiki_heals,
    reiki_strike_rating, wound_of_level,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::wounds::DamageKind;
use crate::rules::thiz::{Level, Location};

/// What the Magic Skill does to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Mentalism,
    ReikiStrike,
    ReikiHeal,
    Psychokinesis,
}

impl std::str::FromStr for Use {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mentalism" => Ok(Use::Mentalism),
            "reiki_strike" => Ok(Use::ReikiStrike),
            "reiki_heal" => Ok(Use::ReikiHeal),
            "psychokinesis" => Ok(Use::Psychokinesis),
            other => Err(format!(
                "use must be mentalism, reiki_strike, reiki_heal or psychokinesis; you gave {:?}",
                crate::app::text::truncate(other, 40)
            )),
        }
    }
}

/// The options of `/magic target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetArgs {
    pub what: Use,
    pub target: String,
    pub character: Option<String>,
    pub location: Option<Location>,
    /// Psychokinesis on a moving target: its Speed comes off.
    pub moving: bool,
    pub modifier: i32,
    pub mode: RollMode,
}

impl TargetArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "use",
                "target",
                "character",
                "location",
                "moving",
                "modifier",
                "mode",
            ],
        )?;
        o.required("use")?;
        let what: Use = o.choice("use")?.unwrap_or(Use::Mentalism);
        let moving = o.flag("moving")?;
        if moving && what != Use::Psychokinesis {
            return Err(user(
                "moving is for use:psychokinesis: a moving target's Speed comes off the check.",
            ));
        }
        Ok(TargetArgs {
            what,
            target: o.required("target")?.trim().to_owned(),
            character: o.text("character").map(str::to_owned),
            location: o.text("location").map(parse_location).transpose()?,
            moving,
            modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            mode: mode(&o)?,
        })
    }
}

fn skill_of(what: Use) -> SkillKind {
    match what {
        Use::Mentalism => SkillKind::Mentalism,
        Use::ReikiStrike | Use::ReikiHeal => SkillKind::Reiki,
        Use::Psychokinesis => SkillKind::Psychokinesis,
    }
}

/// Runs `/magic target`.
#[allow(clippy::too_many_lines)] // One transaction, read top to bottom: rate, roll, write, reply.
pub(super) fn run(ctx: &Ctx<'_>, a: &TargetArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let caster = ctx.acting_character(tx, a.character.as_deref())?;
        let target = ctx.find_character(tx, &a.target)?;
        let heal = a.what == Use::ReikiHeal;
        if caster.id == target.id && !heal {
            return Err(user(format!(
                "{} cannot turn that on themselves; name another target.",
                escape(&caster.name)
            )));
        }
        let tc = ThizChar::load(tx, caster, "/magic target")?;
        let mut tg = if tc.character.id == target.id {
            tc.clone()
        } else {
            ThizChar::load(tx, target, "/magic target")?
        };
        tc.able_to_act()?;
        let kind = skill_of(a.what);
        let base = tc.base_of(kind)?;
        let penalty = tc.check_penalty(Some(kind), None)?;
        let opposed = match a.what {
            Use::Mentalism => tg.base_of(SkillKind::Willpower)?.rating.0,
            Use::ReikiStrike => tg.base_of(SkillKind::Toughness)?.rating.0,
            Use::Psychokinesis if a.moving => tg.base_of(SkillKind::Speed)?.rating.0,
            Use::ReikiHeal | Use::Psychokinesis => 0,
        };
        let skill = base.rating.0;
        // thiz-rulebook.md, chapter 2: each of these checks the skill less the target's rating.
        let rating = match a.what {
            Use::Mentalism => mentalism_rating(skill, opposed),
            Use::ReikiStrike => reiki_strike_rating(skill, opposed),
            Use::ReikiHeal => crate::rules::thiz::magic::opposed_rating(skill, 0),
            Use::Psychokinesis => psychokinesis_rating(skill, a.moving.then_some(opposed)),
        };
        let location = a.location.unwrap_or(Location::Chest);
        let mut dice = ctx.dice();
        // Chapter 2 "Reiki": the strike must first hit with Unarmed Combat; a miss ends it.
        let touch = if a.what == Use::ReikiStrike {
            let t = reiki_touch(&tc, &tg, location, &mut dice)?;
            if !t.hit {
                drop(dice);
                return missed(ctx, tx, a, &tc, &tg, t);
            }
            Some(t)
        } else {
            None
        };
        let roll = dice.d100();
        let kind_name = kind.to_string();
        let check = check_record(
            &tc,
            &kind_name,
            Some(&kind_name),
            rating.0,
            (a.modifier, penalty),
            roll,
        )?;
        let level = parse_level(&check.level).unwrap_or(Level::Failure);
        let (who, whom) = (escape(&tc.character.name), escape(&tg.character.name));
        let mut lines = vec![format!("**{}**", level_text(level))];
        let mut wound: Option<WoundRecord> = None;
        let mut sheet = tg.wounds.clone();
        match a.what {
            Use::Mentalism => match mentalism_wound(level, &mut dice) {
                Some(w) => {
                    let added = sheet.add(location, w.level).map_err(internal)?;
                    wound = Some(record_of(added));
                    lines.push(format!(
                        "{whom} takes a {} wound on the {location}, felt like any other until {} minutes (10 + d10 {}) of rest out of combat.",
                        w.level, w.rest_minutes, w.d10
                    ));
                }
                None => lines.push(format!("{whom}'s mind holds.")),
            },
            Use::ReikiStrike => match wound_of_level(level) {
                Some(l) => {
                    let added = sheet.add(location, l).map_err(internal)?;
                    wound = Some(record_of(added));
                    lines.push(format!("The strike leaves {whom} a {l} wound on the {location}."));
                }
                None => lines.push(format!("{whom}'s body turns the strike.")),
            },
            Use::ReikiHeal => match reiki_heals(level, &sheet.at(location)) {
                Some(l) => {
                    sheet.heal(location, l).map_err(internal)?;
                    lines.push(format!("The {l} wound on {whom}'s {location} is healed."));
                }
                None if level.is_success() => lines.push(format!(
                    "Nothing on {whom}'s {location} is light enough for a {level} success to heal."
                )),
                None => lines.push("The healing does not take.".to_owned()),
            },
            Use::Psychokinesis => match psychokinesis_momentum(level) {
                Some(m) => lines.push(format!(
                    "It moves or stops up to {m} foot-pounds per second of momentum."
                )),
                None => lines.push("Nothing moves.".to_owned()),
            },
        }
        drop(dice);
        if sheet != tg.wounds {
            save_wounds(ctx, tx, &tg, &sheet)?;
            let condition = tg.record_wounds(tx, &sheet, DamageKind::Lethal)?;
            if let Some(c) = condition {
                lines.push(format!("{whom} is {}.", c.name()));
            }
            tg.wounds = sheet;
        }
        let gm_lines: Vec<String> = unlucky_line(&check, &format!("for {kind_name}"))
            .into_iter()
            .collect();
        let base_text = describe_base(&kind_name, &base);
        let versus = match (a.what, a.moving) {
            (Use::Mentalism, _) => format!(" − {whom}'s Willpower {opposed}"),
            (Use::ReikiStrike, _) => format!(" − {whom}'s Toughness {opposed}"),
            (Use::Psychokinesis, true) => format!(" − {whom}'s Speed {opposed}"),
            _ => String::new(),
        };
        ctx.log_roll(
            tx,
            Some(tc.character.id),
            "magic target",
            a.mode,
            "",
            &ThizRecord::Magic(MagicRecord {
                action: format!("{:?}", a.what).to_ascii_lowercase(),
                character_id: tc.character.id,
                character: tc.character.name.clone(),
                skill: Some(kind_name.clone()),
                required: None,
                check: check.clone(),
                void_penalty: 0,
                casting: None,
                concentration: None,
                progress_lost: false,
                wound,
                terror_d4: None,
                terror_turns: None,
                touch: touch.as_ref().map(|t| t.check.clone()),
            }),
        )?;
        let npcs = tc.character.npc || tg.character.npc;
        let mut fields: Vec<_> = touch
            .iter()
            .map(|t| field("Unarmed Combat", screen::npc(npcs, check_text(&t.text, &t.check))))
            .collect();
        fields.push(field(
            &kind_name,
            // The caster's rating and the target's opposing one: an NPC's on either side is
            // the GM's.
            screen::npc(npcs, check_text(&format!("{base_text}{versus}"), &check)),
        ));
        let title = format!("{who} turns {kind_name} on {whom}");
        let full = embed_reply(title, &lines, tone(level), fields);
        let what = format!("{kind_name} on {whom}");
        Ok(ctx.route(a.mode, &what, full).with_gm_lines(&gm_lines))
    })
}

/// A Reiki strike's Unarmed Combat check to touch the target, and how its rating was made.
struct Touch {
    check: CheckRecord,
    text: String,
    hit: bool,
}

/// Chapter 2 "Reiki": before the Reiki check the striker must hit with Unarmed Combat, an
/// ordinary bare-handed melee attack (chapter 6 "Determining a Hit": Unarmed Combat, or General
/// Physical, with the Strength bonus, against the target's Speed and the armour where aimed; any
/// success hits). The attacker's wound penalty for the skill counts, as in `/attack`.
// Decision: only the touch is Unarmed Combat's; the wound is the Reiki check's, so the rule that
// bare fists cannot hurt armour without triple its bonus in Strength ("Unarmed Combat") is not
// applied: the armour makes the touch harder to land, and Reiki then works through it.
fn reiki_touch(
    tc: &ThizChar,
    tg: &ThizChar,
    location: Location,
    dice: &mut impl DieSource,
) -> AppResult<Touch> {
    let unarmed = tc.base_of(SkillKind::UnarmedCombat)?;
    let penalty = tc.check_penalty(Some(SkillKind::UnarmedCombat), None)?;
    let strength = SkillId::single(SkillKind::Strength)
        .ok()
        .and_then(|id| tc.learned(&id))
        .unwrap_or(0);
    let speed = tg.speed_with_legs(tg.base_of(SkillKind::Speed)?.rating.0)
        + tg.wounds.effects().speed_check();
    let armor = tg.armor_at(location)?.total;
    let adjusted = adjusted_attack(&AttackInput {
        kind: AttackKind::Melee,
        skill: clamp_input(unarmed.rating.0),
        strength: clamp_input(strength),
        defence: clamp_input(speed),
        armor: clamp_input(armor),
        ..AttackInput::default()
    })
    .map_err(|e| user(format!("That strike cannot be made: {e}.")))?;
    let roll = dice.d100();
    let check = check_record(
        tc,
        "Unarmed Combat to touch",
        Some("Unarmed Combat"),
        adjusted.rating.0,
        (0, penalty),
        roll,
    )?;
    let hit = parse_level(&check.level).is_some_and(Level::is_success);
    let mut text = describe_base("Unarmed Combat", &unarmed);
    if adjusted.strength_bonus != 0 {
        let _ = write!(text, " · Strength {}", signed(adjusted.strength_bonus));
    }
    let _ = write!(
        text,
        " − ({}'s Speed {} · armour {}) = {}",
        escape(&tg.character.name),
        adjusted.defence,
        adjusted.armor,
        adjusted.rating.0
    );
    Ok(Touch { check, text, hit })
}

/// A Reiki strike whose touch missed: no Reiki check, no wound; the touch is logged and shown.
fn missed(
    ctx: &Ctx<'_>,
    tx: &crate::store::Conn,
    a: &TargetArgs,
    tc: &ThizChar,
    tg: &ThizChar,
    touch: Touch,
) -> AppResult<Reply> {
    let (who, whom) = (escape(&tc.character.name), escape(&tg.character.name));
    let lines = vec![
        format!("**{}**", level_text(Level::Failure)),
        format!("{who}'s touch misses {whom}, so Reiki is not checked."),
    ];
    let gm_lines: Vec<String> = unlucky_line(&touch.check, "for Unarmed Combat")
        .into_iter()
        .collect();
    let fields = vec![field(
        "Unarmed Combat",
        screen::npc(
            tc.character.npc || tg.character.npc,
            check_text(&touch.text, &touch.check),
        ),
    )];
    ctx.log_roll(
        tx,
        Some(tc.character.id),
        "magic target",
        a.mode,
        "",
        &ThizRecord::Magic(MagicRecord {
            action: "reikistrike".to_owned(),
            character_id: tc.character.id,
            character: tc.character.name.clone(),
            skill: Some("Unarmed Combat".to_owned()),
            required: None,
            check: touch.check,
            void_penalty: 0,
            casting: None,
            concentration: None,
            progress_lost: false,
            wound: None,
            terror_d4: None,
            terror_turns: None,
            touch: None,
        }),
    )?;
    let full = embed_reply(
        format!("{who} turns Reiki on {whom}"),
        &lines,
        tone(Level::Failure),
        fields,
    );
    Ok(ctx
        .route(a.mode, &format!("Reiki on {whom}"), full)
        .with_gm_lines(&gm_lines))
}

fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("{e}"))
}

fn record_of(w: crate::rules::thiz::wounds::AddedWound) -> WoundRecord {
    WoundRecord {
        location: w.location.name().to_owned(),
        inflicted: w.inflicted.name().to_owned(),
        recorded: w.recorded.name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::sheet_from_rows;
    use super::super::testkit::Kit;
    use super::super::testkit::seed_for;
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::thiz::{Rating, resolve};
    use crate::store::CharacterId;

    /// Mira (the player's: Mentalism 6, Reiki 5, Psychokinesis 4) and Bran (another's:
    /// Willpower 2, Toughness 3, Speed 1).
    fn world(seed: u64) -> Kit {
        let kit = Kit::new(seed);
        let mira = kit.thiz("Mira", kit.player_id(), false);
        kit.skill(mira, "Mentalism", 6);
        kit.skill(mira, "Reiki", 5);
        kit.skill(mira, "Psychokinesis", 4);
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "Willpower", 2);
        kit.skill(bran, "Toughness", 3);
        kit.skill(bran, "Speed", 1);
        kit
    }

    fn target(kit: &Kit, opts: &[(&str, &str)]) -> Reply {
        let mut all = vec![("character", "Mira"), ("target", "Bran")];
        all.extend_from_slice(opts);
        kit.run(&kit.player(), &["magic", "target"], &all)
    }

    fn bran(kit: &Kit) -> crate::rules::thiz::wounds::WoundSheet {
        sheet_from_rows(&kit.wounds(CharacterId(2))).unwrap()
    }

    /// chapter 2, "Mentalism": Mentalism 6 − Willpower 2 = 4; the wound is the level, on the
    /// location aimed at; a failure leaves the mind whole.
    #[test]
    fn mentalism_wounds_at_its_level_against_willpower() {
        for level in [Level::Failure, Level::Green, Level::Red] {
            let seed = seed_for(&[&|r| resolve(Rating(4), r) == level]);
            let kit = world(seed);
            let reply = target(&kit, &[("use", "mentalism"), ("location", "head")]);
            let text = reply.all_text();
            assert!(text.contains("Willpower 2"), "{text}");
            let sheet = bran(&kit);
            if level == Level::Failure {
                assert!(text.contains("Bran's mind holds"), "{text}");
                assert!(sheet.is_empty());
            } else {
                assert!(sheet.at(Location::Head).has(level), "{level}: {sheet:?}");
                assert!(text.contains("minutes (10 + d10"), "{text}");
            }
        }
    }

    /// chapter 2, "Reiki": the strike first hits with Unarmed Combat (chapter 6, "Determining a
    /// Hit": Unarmed Combat 4 − (Speed 1 + armour) = 3, or 1 behind Bran's +2 gut plate), and
    /// only then checks Reiki 5 − Toughness 3 = 2, wounding at its level.
    #[test]
    fn a_reiki_strike_must_touch_before_it_wounds() {
        // (armour on the gut, touch roll, Reiki roll's level or None: no second check).
        type Roll = Box<dyn Fn(u32) -> bool>;
        let touch_at = |rating: i32, hit: bool| -> Roll {
            Box::new(move |r| resolve(Rating(rating), r).is_success() == hit)
        };
        let cases: [(bool, Roll, Option<Level>); 5] = [
            (false, touch_at(3, true), Some(Level::Yellow)),
            (false, touch_at(3, true), Some(Level::Failure)),
            (false, touch_at(3, false), None),
            // A roll that would touch at 3 but not at 1: the armour turns it.
            (
                true,
                Box::new(|r| {
                    resolve(Rating(3), r).is_success() && !resolve(Rating(1), r).is_success()
                }),
                None,
            ),
            (true, touch_at(1, true), Some(Level::Red)),
        ];
        for (armoured, touch, reiki) in cases {
            let reiki_roll = move |r: u32| reiki.is_none_or(|l| resolve(Rating(2), r) == l);
            let seed = seed_for(&[&*touch, &reiki_roll]);
            let kit = world(seed);
            kit.skill(CharacterId(1), "Unarmed Combat", 4);
            if armoured {
                kit.item(
                    CharacterId(2),
                    "armor",
                    "Gut plate",
                    r#"{"armor_bonus": 2, "locations": ["gut"]}"#,
                );
            }
            let reply = target(&kit, &[("use", "reiki_strike"), ("location", "gut")]);
            let text = reply.all_text();
            let case = format!("armour {armoured}, Reiki {reiki:?}");
            let rating = if armoured { 1 } else { 3 };
            assert!(
                text.contains(&format!(
                    "Unarmed Combat 4 − (Bran's Speed 1 · armour {}) = {rating}",
                    if armoured { 2 } else { 0 }
                )),
                "{case}: {text}"
            );
            assert_eq!(kit.roll_count(), 1, "{case}");
            let rec = match ThizRecord::from_json(&kit.last_roll_json().unwrap()) {
                Some(ThizRecord::Magic(rec)) => rec,
                other => panic!("{other:?}"),
            };
            match reiki {
                None => {
                    assert!(
                        text.contains("touch misses Bran, so Reiki is not checked"),
                        "{case}: {text}"
                    );
                    assert!(!text.contains("Toughness"), "{case}: {text}");
                    assert_eq!(rec.check.skill.as_deref(), Some("Unarmed Combat"));
                    assert!(rec.touch.is_none());
                    assert!(bran(&kit).is_empty(), "{case}");
                }
                Some(level) => {
                    assert!(text.contains("Bran's Toughness 3"), "{case}: {text}");
                    assert_eq!(rec.check.skill.as_deref(), Some("Reiki"));
                    assert_eq!(rec.touch.map(|t| t.base), Some(rating));
                    let sheet = bran(&kit);
                    if level == Level::Failure {
                        assert!(sheet.is_empty(), "{case}");
                    } else {
                        assert!(sheet.at(Location::Gut).has(level), "{case}: {sheet:?}");
                    }
                }
            }
        }
    }

    /// chapter 2, "Reiki": the healing heals one wound of its colour or lighter on the section
    /// named.
    #[test]
    fn reiki_heals() {
        // Healing at Reiki 5: a Green success heals a Green but not a Yellow.
        for (wound, level, healed) in [
            ("green", Level::Green, true),
            ("yellow", Level::Green, false),
            ("yellow", Level::Yellow, true),
        ] {
            let seed = seed_for(&[&|r| resolve(Rating(5), r) == level]);
            let kit = world(seed);
            kit.wound(CharacterId(2), "gut", wound);
            let reply = target(&kit, &[("use", "reiki_heal"), ("location", "gut")]);
            assert_eq!(bran(&kit).is_empty(), healed, "{wound}/{level}: {reply:?}");
        }
    }

    /// chapter 2, "Psychokinesis": 50/100/200/400 foot-pounds per second by level; a moving
    /// target's Speed comes off.
    #[test]
    fn psychokinesis_moves_by_level_and_minus_a_moving_speed() {
        let seed = seed_for(&[&|r| resolve(Rating(3), r) == Level::Red]);
        let kit = world(seed);
        let reply = target(&kit, &[("use", "psychokinesis"), ("moving", "true")]);
        let text = reply.all_text();
        assert!(text.contains("Speed 1"), "{text}");
        assert!(text.contains("up to 200 foot-pounds"), "{text}");
        assert!(bran(&kit).is_empty());
    }

    #[test]
    fn bad_input_changes_nothing() {
        let kit = world(1);
        let cases: [(&[(&str, &str)], &str); 4] = [
            (
                &[("use", "mentalism"), ("target", "Mira")],
                "cannot turn that on themselves",
            ),
            (&[("use", "juggling")], "use must be mentalism"),
            (
                &[("use", "mentalism"), ("moving", "true")],
                "moving is for use:psychokinesis",
            ),
            (
                &[("use", "mentalism"), ("character", "Bran")],
                "belongs to another player",
            ),
        ];
        for (opts, want) in cases {
            let mut all = vec![("character", "Mira"), ("target", "Bran")];
            for (k, v) in opts {
                all.retain(|(n, _)| n != k);
                all.push((*k, *v));
            }
            let reply = kit.run(&kit.player(), &["magic", "target"], &all);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
            assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
        }
        assert_eq!(kit.roll_count(), 0);
    }
}
