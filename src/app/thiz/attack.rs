//! `/attack`: the adjusted attack rating, the hit, where it lands, the target's Toughness check and
//! the wound written on the target's sheet, all in one transaction; and the luck rerolls of an
//! attack's hit roll or of the target's Toughness check, which replay it from its log record.
//!
//! Decisions:
//! - Without `weapon` the attacker uses the first weapon it carries (`app::weapons`, the same
//!   default as `/tft attack` and the encounter's Attack buttons), bare-handed (Unarmed Combat)
//!   only when it carries none or `weapon:hands` says so; a weapon is an item of kind "weapon"
//!   the attacker carries, checked with Weapon Skill (its name). A weapon whose stats say
//!   `missile` makes the attack a missile attack, as does `missile:true`.
//! - A melee attack names its location; without one the Chest is assumed and the reply says so.
//! - A missile's location is rolled after the hit, so the armour there is not known when the die
//!   is read: the hit is read first without armour, then again, with the same d100, against the
//!   armour where it landed. If that reading fails the armour turned the missile.
//! - Wound penalties: the attacker's Head wounds count against the attack; the target's Head and
//!   leg wounds against its Speed.
//! - The Strength bonus to melee is +1 per 10 full points of the Strength skill itself
//!   (thiz-rulebook.md, "Berserk" and rules/README.md "Strength melee bonus"); a character who
//!   never learned Strength gets none. Decision: the General Physical rating does not stand in.
//! - Everything the attack read from the sheets is logged with it ([`AttackPlan`]), so a luck
//!   reroll resolves the same attack again with new dice: the hit (the attacker's luck; a new
//!   location and Toughness check follow) or the Toughness check alone (the target's luck). The
//!   wound the first roll left is taken off first, which needs the section to be as the attack
//!   left it; a sheet changed since is a clear refusal.
//!
//! Seam: `luck` rerolls an attack through [`AttackReroll`] and [`Replay`].

use std::fmt::Write as _;

use super::record::{
    AttackPlan, AttackRecord, SectionChange, ThizRecord, ToughnessRecord, WoundRecord, parse_level,
    rows_from_sheet, sheet_from_rows,
};
use super::shared::{INPUT_LIMIT, int, level_text, mode, parse_location, tone};
use super::stats::{ThizChar, clamp_input, describe_base};
use crate::app::encounter::hooks;
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Button, Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::sheet::ItemStats;
use crate::app::text::{escape, signed};
use crate::app::{AppError, AppResult, Ctx, user, weapons};
use crate::rules::dice::DieSource;
use crate::rules::thiz::combat::{
    AdjustedAttack, Aim, AttackInput, AttackKind, BurstWeapon, Sight, Vision, adjusted_attack,
    burst_wounds, roll_attack, trained_for_war_rating, two_weapon_ratings, unarmed_can_damage,
};
use crate::rules::thiz::magic::psychokinesis_attack_bonus;
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::{Quirk, Weakness, unlucky_mishap};
use crate::rules::thiz::wounds::{AddedWound, DamageKind, LocationWounds, WoundSheet, take_hit};
use crate::rules::thiz::{Level, Location, resolve};
use crate::store::characters::{self, Character};
use crate::store::{Conn, RollId, secrets};

/// The options of `/attack`.
// One field per Discord option; the flags are independent choices of the player.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackArgs {
    pub attacker: String,
    pub target: String,
    pub weapon: Option<String>,
    pub location: Option<Location>,
    pub missile: bool,
    pub modifier: i32,
    pub mode: RollMode,
    /// Burst fire from a firearm that can.
    pub burst: Option<Burst>,
    /// Who cannot see.
    pub sight: Option<SightOpt>,
    /// The target lies Prone.
    pub prone: bool,
    /// The attacker is Berserk (needs the quirk).
    pub berserk: bool,
    /// Fighting with two weapons: the other weapon held.
    pub pair: Option<String>,
    /// With `pair`: this attack is the second weapon's.
    pub second: bool,
    /// The location the target's shield covers this turn.
    pub shield: Option<Location>,
}

/// Burst or full-auto fire (thiz-rulebook.md, "Burst/Full-Auto Fire").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Burst {
    ThreeRound,
    FullAuto,
}

impl Burst {
    fn name(self) -> &'static str {
        match self {
            Burst::ThreeRound => "three-round",
            Burst::FullAuto => "full-auto",
        }
    }

    fn weapon(self) -> BurstWeapon {
        match self {
            Burst::ThreeRound => BurstWeapon::ThreeRound,
            Burst::FullAuto => BurstWeapon::FullAuto,
        }
    }
}

impl std::str::FromStr for Burst {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "three-round" | "three" | "3" => Ok(Burst::ThreeRound),
            "full-auto" | "full" | "auto" => Ok(Burst::FullAuto),
            other => Err(format!(
                "burst must be three-round or full-auto; you gave {:?}",
                crate::app::text::truncate(other, 40)
            )),
        }
    }
}

/// Who cannot see in an attack (thiz-rulebook.md, "Sight"; "Night-Blind").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SightOpt {
    /// It is night: Night-Blind characters see badly.
    Night,
    AttackerBlind,
    TargetBlind,
    BothBlind,
}

impl std::str::FromStr for SightOpt {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "night" => Ok(SightOpt::Night),
            "attacker-blind" => Ok(SightOpt::AttackerBlind),
            "target-blind" => Ok(SightOpt::TargetBlind),
            "both-blind" => Ok(SightOpt::BothBlind),
            other => Err(format!(
                "sight must be night, attacker-blind, target-blind or both-blind; you gave {:?}",
                crate::app::text::truncate(other, 40)
            )),
        }
    }
}

fn vision_name(v: Vision) -> &'static str {
    match v {
        Vision::Clear => "clear",
        Vision::NightBlind => "night-blind",
        Vision::Blind => "blind",
    }
}

fn vision_of(name: Option<&str>) -> Vision {
    match name {
        Some("night-blind") => Vision::NightBlind,
        Some("blind") => Vision::Blind,
        _ => Vision::Clear,
    }
}

impl AttackArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "attacker", "target", "weapon", "location", "missile", "modifier", "mode", "burst",
                "sight", "prone", "berserk", "pair", "second", "shield",
            ],
        )?;
        let pair = o.text("pair").map(str::to_owned);
        let second = o.flag("second")?;
        if second && pair.is_none() {
            return Err(user(
                "second:true is for two weapons: name the other weapon with pair:…",
            ));
        }
        Ok(AttackArgs {
            burst: o.choice("burst")?,
            sight: o.choice("sight")?,
            prone: o.flag("prone")?,
            berserk: o.flag("berserk")?,
            pair,
            second,
            shield: o.text("shield").map(parse_location).transpose()?,
            // In an encounter's channel the attacker defaults to whoever's turn it is.
            attacker: o.text("attacker").unwrap_or_default().to_owned(),
            target: o.required("target")?.to_owned(),
            weapon: o.text("weapon").map(str::to_owned),
            location: o.text("location").map(parse_location).transpose()?,
            missile: o.flag("missile")?,
            modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            mode: mode(&o)?,
        })
    }
}

/// Whether `target` is a mook: an NPC whose hidden value `mook` is true. Only a GM can have named
/// an NPC, so the GM's proof is at hand; for anyone else the answer is no.
fn is_mook(ctx: &Ctx<'_>, conn: &Conn, target: &Character) -> AppResult<bool> {
    if !target.npc {
        return Ok(false);
    }
    let Ok(gm) = ctx.gm() else {
        return Ok(false);
    };
    let value = secrets::hidden(conn, gm, target.id, "mook")?;
    Ok(value.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "true" | "yes" | "1" | "on"
        )
    }))
}

/// Whether the sheet lists `quirk` (a subject in brackets is ignored).
fn has_quirk(c: &ThizChar, quirk: Quirk) -> bool {
    c.sheet.quirks.iter().any(|q| {
        let name = q.split(['(', '[', ':']).next().unwrap_or(q);
        Quirk::from_name(name.trim()) == Some(quirk)
    })
}

fn refuse(e: impl std::fmt::Display) -> AppError {
    user(format!("That attack cannot be made: {e}."))
}

/// The attacker's side of the rating, in words: "Weapon Skill (Sword) 3 + weapon 4 + Strength 1".
/// The attack rating's sum. The attacker's part (skill, weapon, Strength, sight) and the
/// target's (Speed, sight, armour) are each the GM's when that side is an NPC, and so is the sum.
///
/// The modifier shown is the attacker's (typed, and its wound penalty: the GM's when the
/// attacker is an NPC); a Defending target's bonus (`defend`, counted in `a.modifier`) is shown
/// on the target's side, the GM's when the target is an NPC — issue 57 found an NPC's weapon
/// skill readable as the modifier's difference from the one typed.
fn attack_text(skill: &str, a: &AdjustedAttack, defend: i32, npcs: Npcs) -> String {
    let mut mine = skill.to_owned();
    if a.weapon_bonus != 0 {
        let _ = write!(mine, " · weapon {}", signed(a.weapon_bonus));
    }
    if a.strength_bonus != 0 {
        let _ = write!(mine, " · Strength {}", signed(a.strength_bonus));
    }
    if a.attacker_sight != 0 {
        let _ = write!(mine, " · sight {}", signed(a.attacker_sight));
    }
    let mut s = screen::npc(npcs.attacker, mine);
    if a.prone != 0 {
        let _ = write!(s, " · prone target {}", signed(a.prone));
    }
    let modifier = a.modifier + defend;
    if modifier != 0 {
        let _ = write!(
            s,
            " · modifier {}",
            screen::npc(npcs.attacker, signed(modifier))
        );
    }
    let mut theirs = format!("(Speed {}", a.defence);
    if defend != 0 {
        let _ = write!(theirs, " · defending {}", signed(defend));
    }
    if a.target_sight != 0 {
        let _ = write!(theirs, " · sight {}", signed(a.target_sight));
    }
    let _ = write!(theirs, " · armour {})", a.armor);
    let _ = write!(
        s,
        " − {} = {}",
        screen::npc(npcs.target, theirs),
        screen::npc(npcs.attacker || npcs.target, a.rating.to_string())
    );
    s
}

/// Which sides of an attack are NPCs, whose numbers are the GM's ([`screen`]), and whose player
/// the target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Npcs {
    attacker: bool,
    target: bool,
    target_owner: crate::store::UserId,
}

impl Npcs {
    fn of(attacker: &Character, target: &Character) -> Self {
        Npcs {
            attacker: attacker.npc,
            target: target.npc,
            target_owner: target.owner_id,
        }
    }
}

/// The attacker's wound penalty. Berserk ignores the wounds (thiz-rulebook.md, "Berserk");
/// otherwise the Head and the arm holding the weapon count (the other arm for a second weapon),
/// and a lost arm refuses.
fn attack_penalty(
    att: &ThizChar,
    a: &AttackArgs,
    armed: bool,
    notes: &mut Vec<String>,
) -> AppResult<i32> {
    if a.berserk {
        notes.push("Berserk: wounds ignored, +1 per 5 points of Strength.".to_owned());
        return Ok(0);
    }
    let kind = if armed {
        SkillKind::WeaponSkill
    } else {
        SkillKind::UnarmedCombat
    };
    let hand = a.second.then(|| match att.hand(None) {
        Location::LeftArm => Location::RightArm,
        _ => Location::LeftArm,
    });
    att.check_penalty(Some(kind), hand)
}

/// thiz-rulebook.md, chapter 2 "Psychokinesis": +2 to attack with a thrown weapon, that is a
/// missile attack with a weapon the sheet marks `thrown` (a dagger kept for melee is thrown only
/// when the attack says missile), for a character with the skill; noted when it applies.
fn thrown_bonus(att: &ThizChar, thrown: bool, notes: &mut Vec<String>) -> AppResult<i32> {
    let psychokinesis = SkillId::single(SkillKind::Psychokinesis)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))?;
    let bonus = psychokinesis_attack_bonus(att.learned(&psychokinesis), thrown);
    if bonus != 0 {
        notes.push(format!(
            "Psychokinesis: {} to hit with a thrown weapon (in the modifier).",
            signed(bonus)
        ));
    }
    Ok(bonus)
}

/// How each side sees (thiz-rulebook.md, "Sight"; "Night-Blind" counts only at night).
fn sights(att: &ThizChar, tgt: &ThizChar, sight: Option<SightOpt>) -> (Vision, Vision) {
    let night = |c: &ThizChar| {
        if c.has_weakness(Weakness::NightBlind) {
            Vision::NightBlind
        } else {
            Vision::Clear
        }
    };
    match sight {
        None => (Vision::Clear, Vision::Clear),
        Some(SightOpt::Night) => (night(att), night(tgt)),
        Some(SightOpt::AttackerBlind) => (Vision::Blind, Vision::Clear),
        Some(SightOpt::TargetBlind) => (Vision::Clear, Vision::Blind),
        Some(SightOpt::BothBlind) => (Vision::Blind, Vision::Blind),
    }
}

/// A carried weapon and its stats; `None`: bare hands.
type Weapon<'c> = Option<(&'c crate::store::characters::Item, ItemStats)>;

/// The weapon of an attack, and the reply's word on how it was chosen: the one named (or bare
/// hands, `weapon:hands`), else the default every attack shares (`app::weapons`): the first
/// weapon carried, bare hands only when none is.
fn attack_weapon<'c>(att: &'c ThizChar, a: &AttackArgs) -> AppResult<(Weapon<'c>, Option<String>)> {
    Ok(match a.weapon.as_deref() {
        Some(w) if weapons::is_bare_hands(w) => (None, None),
        Some(w) => (Some(att.weapon(w)?), None),
        // Two weapons are both named: a default could pick the pair's own.
        None if a.pair.is_some() => (None, None),
        None => {
            let pick = weapons::default_weapon(&att.character, &att.items, 0)?;
            let found = pick
                .item
                .as_ref()
                .and_then(|p| att.items_of("weapon").find(|(i, _)| i.id == p.id));
            let name = found
                .as_ref()
                .map_or_else(|| "bare hands".to_owned(), |(i, _)| escape(&i.name));
            let note = pick
                .note()
                .map(|n| format!("No weapon named: {name}, {n}."));
            (found, note)
        }
    })
}

/// Reads both sheets into the plan the dice are rolled against, and the weapon's name.
fn plan(
    ctx: &Ctx<'_>,
    conn: &Conn,
    att: &ThizChar,
    tgt: &ThizChar,
    a: &AttackArgs,
) -> AppResult<(AttackPlan, Option<String>)> {
    let (weapon, default_note) = attack_weapon(att, a)?;
    let stats = weapon
        .as_ref()
        .map_or_else(ItemStats::default, |(_, s)| s.clone());
    let missile = a.missile || stats.missile;
    let skill = match &weapon {
        Some((item, _)) => SkillId::with_subject(SkillKind::WeaponSkill, &item.name)
            .map_err(|e| user(format!("That weapon's name cannot name a skill: {e}.")))?,
        None => SkillId::single(SkillKind::UnarmedCombat)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))?,
    };
    let base = att.base(&skill)?;
    let strength_id = SkillId::single(SkillKind::Strength)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))?;
    // A target that cannot move (Incapacitated) or has lost a leg defends with what is left.
    let speed = tgt.speed_with_legs(tgt.base_of(SkillKind::Speed)?.rating.0);
    if a.shield.is_some() && tgt.items_of("shield").next().is_none() {
        return Err(user(format!(
            "{} carries no shield to raise; leave shield out.",
            escape(&tgt.character.name)
        )));
    }
    let mut armor = [0; 7];
    for (slot, location) in armor.iter_mut().zip(Location::ALL) {
        *slot = tgt.armor_shielding(location, a.shield)?.total;
    }
    let chest_assumed = !missile && a.location.is_none();
    let aimed = if chest_assumed {
        Some(Location::Chest)
    } else {
        a.location
    };
    if a.burst.is_some() && !missile {
        return Err(user(
            "burst is for missile attacks from a firearm; this attack is melee.",
        ));
    }
    if a.berserk && !has_quirk(att, Quirk::Berserk) {
        return Err(user(format!(
            "{} has no Berserk quirk, so cannot fight Berserk.",
            escape(&att.character.name)
        )));
    }
    let mut notes: Vec<String> = default_note.into_iter().collect();
    let mut skill_rating = base.rating.0;
    if let Some((item, stats)) = &weapon
        && let Some(trained) = trained_for_war(att, item, stats, &skill, skill_rating)
    {
        notes.push(format!(
            "Trained for War: untrained with the {} but trained in its family, so {trained}.",
            escape(&item.name)
        ));
        skill_rating = trained;
    }
    if let (Some(pair), Some((item, _))) = (&a.pair, &weapon) {
        skill_rating = two_weapons(att, item, pair, a.second, skill_rating, &mut notes)?;
    } else if a.pair.is_some() {
        return Err(user(
            "Two-weapon fighting needs both weapons: name this attack's with weapon:… and the other with pair:…",
        ));
    }
    let wound_penalty = attack_penalty(att, a, weapon.is_some(), &mut notes)?;
    let thrown_bonus = thrown_bonus(att, missile && stats.thrown, &mut notes)?;
    let (attacker_sight, target_sight) = sights(att, tgt, a.sight);
    let mut skill_text = describe_base(&escape(&skill.to_string()), &base);
    if skill_rating != base.rating.0 {
        let _ = write!(skill_text, " → {skill_rating}");
    }
    let plan = AttackPlan {
        skill_text,
        skill: clamp_input(skill_rating),
        weapon_bonus: stats.attack_bonus,
        strength: clamp_input(att.learned(&strength_id).unwrap_or(0)),
        defence: clamp_input(speed + tgt.wounds.effects().speed_check()),
        modifier: clamp_input(a.modifier + wound_penalty + thrown_bonus),
        defend: 0,
        missile,
        aimed: aimed.map(|l| l.name().to_owned()),
        chest_assumed,
        armor,
        bare_hands: weapon.is_none(),
        mook: is_mook(ctx, conn, &tgt.character)?,
        toughness: clamp_input(tgt.base_of(SkillKind::Toughness)?.rating.0),
        attacker_unlucky: att.has_weakness(Weakness::Unlucky),
        target_unlucky: tgt.has_weakness(Weakness::Unlucky),
        berserk: a.berserk,
        attacker_sight: Some(vision_name(attacker_sight).to_owned()),
        target_sight: Some(vision_name(target_sight).to_owned()),
        target_prone: a.prone,
        burst: a.burst.map(|b| b.name().to_owned()),
        notes,
    };
    Ok((plan, weapon.map(|(item, _)| item.name.clone())))
}

fn input(plan: &AttackPlan, armor: i32) -> AttackInput {
    AttackInput {
        kind: if plan.missile {
            AttackKind::Missile
        } else {
            AttackKind::Melee
        },
        skill: plan.skill,
        weapon_bonus: plan.weapon_bonus,
        strength: plan.strength,
        berserk: plan.berserk,
        defence: plan.defence,
        defending: None,
        armor,
        target_prone: plan.target_prone,
        sight: Sight {
            attacker: vision_of(plan.attacker_sight.as_deref()),
            target: vision_of(plan.target_sight.as_deref()),
        },
        modifier: plan.modifier,
    }
}

/// Trained for War (thiz-rulebook.md, chapter 4): an untrained weapon of a family the character
/// is trained in is checked at General Physical + 2, capped by the best skill in that family.
/// Decision: the family is the weapon's `family` stat; the starting weapon is not recorded, so
/// any family in which the character knows a weapon counts. `None` when the quirk does not apply
/// or gives nothing better.
fn trained_for_war(
    att: &ThizChar,
    item: &crate::store::characters::Item,
    stats: &ItemStats,
    skill: &SkillId,
    rating: i32,
) -> Option<i32> {
    let family = stats.family.as_deref()?;
    if att.learned(skill).is_some() || !has_quirk(att, Quirk::TrainedForWar) {
        return None;
    }
    let best = att
        .items_of("weapon")
        .filter(|(other, s)| {
            other.name != item.name
                && s.family
                    .as_deref()
                    .is_some_and(|f| f.eq_ignore_ascii_case(family))
        })
        .filter_map(|(other, _)| {
            SkillId::with_subject(SkillKind::WeaponSkill, &other.name)
                .ok()
                .and_then(|id| att.learned(&id))
        })
        .max()?;
    let trained = trained_for_war_rating(att.generals.physical, best);
    (trained > rating).then_some(trained)
}

/// Two-weapon fighting (thiz-rulebook.md, "Two-Weapon Fighting"): the rating this attack is
/// made at, and a note for the reply. `this` is the weapon of this attack, `other` the one held
/// in the other hand; `second` says this attack is the second weapon's.
fn two_weapons(
    att: &ThizChar,
    this: &crate::store::characters::Item,
    other: &str,
    second: bool,
    this_rating: i32,
    notes: &mut Vec<String>,
) -> AppResult<i32> {
    let (other_item, _) = att.weapon(other)?;
    if other_item.name == this.name {
        return Err(user(
            "pair names the other weapon held; it cannot be the one attacking.",
        ));
    }
    let other_skill = SkillId::with_subject(SkillKind::WeaponSkill, &other_item.name)
        .map_err(|e| user(format!("That weapon's name cannot name a skill: {e}.")))?;
    let other_rating = att.base(&other_skill)?.rating.0;
    let (main, off) = if second {
        (&other_item.name, &this.name)
    } else {
        (&this.name, &other_item.name)
    };
    let dual = SkillId::dual_wield(main, off)
        .ok()
        .and_then(|id| att.learned(&id));
    let missing_arm = att
        .sheet
        .missing_limb
        .as_deref()
        .is_some_and(|l| l.to_ascii_lowercase().contains("arm"));
    let (main_rating, second_rating) = if second {
        (other_rating, this_rating)
    } else {
        (this_rating, other_rating)
    };
    let pair =
        two_weapon_ratings(main_rating, second_rating, dual, false, missing_arm).map_err(refuse)?;
    let rating = if second { pair.second } else { pair.main };
    let mut note = format!(
        "Two weapons ({} and {}): the {} weapon at {rating}",
        escape(main),
        escape(off),
        if second { "second" } else { "main" },
    );
    if pair.untrained != 0 {
        let _ = write!(
            note,
            "; no Dual-Wield, so {} on both attacks and {} Speed until the end of the next Initiative Pass",
            pair.untrained, pair.speed
        );
    }
    if second {
        note.push_str("; the second weapon strikes after the lowest initiative's turn");
    }
    note.push('.');
    notes.push(note);
    Ok(rating)
}

fn aim(plan: &AttackPlan) -> Aim {
    match (plan.missile, plan.aimed_at()) {
        (false, loc) => Aim::Melee(loc.unwrap_or(Location::Chest)),
        (true, Some(loc)) => Aim::CalledShot(loc),
        (true, None) => Aim::Missile,
    }
}

/// The armour the hit was read against: where it was aimed, or where a missile landed.
fn armor_read(plan: &AttackPlan, location: Option<Location>) -> i32 {
    match aim(plan) {
        Aim::Melee(l) | Aim::CalledShot(l) => plan.armor_at(l),
        Aim::Missile | Aim::BlindMelee => location.map_or(0, |l| plan.armor_at(l)),
    }
}

/// The record of an attack before its dice: who, with what, and the plan.
fn blank_record(
    att: &Character,
    tgt: &Character,
    weapon: Option<String>,
    plan: AttackPlan,
) -> AttackRecord {
    AttackRecord {
        attacker_id: att.id,
        attacker: att.name.clone(),
        target_id: tgt.id,
        target: tgt.name.clone(),
        weapon,
        missile: plan.missile,
        called_shot: plan.missile && plan.aimed.is_some(),
        rating: 0,
        roll: 0,
        level: Level::Failure.name().to_owned(),
        hit: None,
        location: None,
        location_roll: None,
        toughness: None,
        wound: None,
        mook_defeated: false,
        incapacitated: false,
        condition: None,
        plan: Some(plan),
        burst_wounds: Vec::new(),
        changes: Vec::new(),
        rerolls: None,
        rerolled: None,
    }
}

/// Rolls the hit (and a missile's location) into `rec`.
fn strike(rec: &mut AttackRecord, plan: &AttackPlan, dice: &mut impl DieSource) -> AppResult<()> {
    let aim = aim(plan);
    let first = adjusted_attack(&input(plan, armor_read(plan, None))).map_err(refuse)?;
    let roll = roll_attack(first.rating, aim, dice);
    let (rating, level, hit) = match (aim, roll.location) {
        (Aim::Missile, Some(loc)) => {
            let again = adjusted_attack(&input(plan, plan.armor_at(loc))).map_err(refuse)?;
            let level = resolve(again.rating, roll.roll);
            (again.rating, level, level.is_success().then_some(level))
        }
        _ => (first.rating, roll.level, roll.hit),
    };
    rec.rating = rating.0;
    rec.roll = roll.roll;
    level.name().clone_into(&mut rec.level);
    rec.hit = hit.map(|l| l.name().to_owned());
    rec.location = roll.location.map(|l| l.name().to_owned());
    rec.location_roll = roll.location_roll.map(|l| l.roll);
    Ok(())
}

/// Takes the hit in `rec` onto `sheet`: the target's Toughness check, the wound, and a burst's
/// further wounds; every section written is recorded before and after.
fn take(
    rec: &mut AttackRecord,
    plan: &AttackPlan,
    sheet: &mut WoundSheet,
    dice: &mut impl DieSource,
) -> AppResult<()> {
    rec.toughness = None;
    rec.wound = None;
    rec.burst_wounds = Vec::new();
    rec.changes = Vec::new();
    let hit = rec.hit.as_deref().and_then(parse_level);
    let location = rec.location.as_deref().and_then(Location::parse);
    let (Some(hit), Some(location)) = (hit, location) else {
        rec.mook_defeated = false;
        rec.incapacitated = sheet.is_incapacitated();
        return Ok(());
    };
    if plan.bare_hands && !unarmed_can_damage(plan.strength, plan.armor_at(location), 0, plan.mook)
    {
        return Ok(());
    }
    let before = sheet.clone();
    let out = take_hit(sheet, location, hit, plan.toughness, false, dice).map_err(refuse)?;
    rec.toughness = Some(ToughnessRecord {
        rating: out.check.rating.0,
        roll: out.check.roll,
        level: out.check.level.name().to_owned(),
    });
    rec.wound = out.added.map(wound_record);
    if let (Some(added), Some(burst)) = (out.added, plan.burst.as_deref()) {
        let weapon = burst.parse::<Burst>().map_err(user)?.weapon();
        for extra in burst_wounds(added.inflicted, weapon, dice).map_err(refuse)? {
            let w = sheet
                .add(extra.location.location, extra.level)
                .map_err(refuse)?;
            rec.burst_wounds.push(wound_record(w));
        }
    }
    for l in Location::ALL {
        if before.at(l) != sheet.at(l) {
            rec.changes.push(SectionChange {
                location: l.name().to_owned(),
                before: before.at(l).into(),
                after: sheet.at(l).into(),
            });
        }
    }
    rec.mook_defeated = plan.mook && sheet.defeats_mook();
    rec.incapacitated = sheet.is_incapacitated();
    Ok(())
}

fn wound_record(w: AddedWound) -> WoundRecord {
    WoundRecord {
        location: w.location.name().to_owned(),
        inflicted: w.inflicted.name().to_owned(),
        recorded: w.recorded.name().to_owned(),
    }
}

/// Runs `/attack`.
/// One attack, rolled and written in `tx`, its reply routed by its mode.
pub(super) fn run_in(ctx: &Ctx<'_>, tx: &Conn, a: &AttackArgs) -> AppResult<Reply> {
    let named = hooks::attacker_name(ctx, tx, &a.attacker)?;
    let attacker = ctx.acting_character(tx, Some(&named))?;
    // In an encounter, a player may name one of its NPCs (whose numbers stay hidden).
    let target = hooks::target(ctx, tx, &a.target)?;
    if attacker.id == target.id {
        return Err(user(format!(
            "{} cannot attack themselves; name another target.",
            escape(&attacker.name)
        )));
    }
    hooks::may_strike(ctx, tx, &attacker, &target)?;
    let npcs = Npcs::of(&attacker, &target);
    let att = ThizChar::load(tx, attacker, "/attack")?;
    let tgt = ThizChar::load(tx, target, "/attack")?;
    // A dying, unconscious or dead character cannot attack (thiz-rulebook.md, "Damage").
    att.able_to_act()?;
    // The encounter's turn and the target's declared Defend and Prone.
    let turn = hooks::thiz_before(ctx, tx, att.character.id, tgt.character.id, a.second)?;
    let (a, defend) = &thiz_args(a, &turn, &tgt)?;
    let (mut plan, weapon) = plan(ctx, tx, &att, &tgt, a)?;
    plan.defend = *defend;
    let mut rec = blank_record(&att.character, &tgt.character, weapon, plan.clone());
    let mut sheet = tgt.wounds.clone();
    {
        let mut dice = ctx.dice();
        strike(&mut rec, &plan, &mut dice)?;
        take(&mut rec, &plan, &mut sheet, &mut dice)?;
    }
    if !rec.changes.is_empty() {
        characters::set_wounds(
            tx,
            ctx.caller.guild,
            tgt.character.id,
            &rows_from_sheet(&sheet),
        )?;
    }
    rec.condition = tgt
        .record_wounds(tx, &sheet, damage_kind(&plan))?
        .map(|c| c.name().to_owned());
    let roll_id = ctx.log_roll(
        tx,
        Some(att.character.id),
        "attack",
        a.mode,
        "",
        &ThizRecord::Attack(rec.clone()),
    )?;
    let mut lines = hooks::thiz_after(
        ctx,
        tx,
        (att.character.id, tgt.character.id),
        (*defend > 0, a.second),
        rec.condition.as_deref(),
    )?;
    if *defend > 0 {
        lines.insert(
            0,
            format!(
                "{} defends: {} (counted on its side of the attack).",
                escape(&tgt.character.name),
                screen::npc(npcs.target, format!("+{defend} to Speed"))
            ),
        );
    }
    Ok(hooks::with_lines(
        routed(ctx, a.mode, &rec, roll_id, None, npcs),
        a.mode,
        &lines,
    ))
}

/// Bare fists knock out; anything else can kill (thiz-rulebook.md, "Damage").
fn damage_kind(plan: &AttackPlan) -> DamageKind {
    if plan.bare_hands {
        DamageKind::NonLethal
    } else {
        DamageKind::Lethal
    }
}

/// Which check of a logged attack luck rolls again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackReroll {
    /// The attacker's hit roll; the location and the Toughness check follow anew.
    Hit,
    /// The target's Toughness check against the same hit.
    Toughness,
}

impl AttackReroll {
    fn name(self) -> &'static str {
        match self {
            AttackReroll::Hit => "hit",
            AttackReroll::Toughness => "toughness",
        }
    }
}

/// A logged attack, checked ready to be rolled again: its record, with the wound it left taken
/// off the target's sheet (in memory; nothing is written until [`Replay::run`]).
pub struct Replay {
    record: AttackRecord,
    plan: AttackPlan,
    /// The target's wounds with the first roll's undone: what the reroll starts from.
    before: WoundSheet,
    sheet: WoundSheet,
    which: AttackReroll,
}

impl Replay {
    /// Prepares the reroll of roll `id`, whose record is `record`; refuses attacks logged without
    /// their plan, a Toughness reroll where no Toughness check was made, and a target whose
    /// wounds on that section have changed since.
    pub fn new(
        conn: &Conn,
        guild: crate::store::GuildId,
        id: RollId,
        record: AttackRecord,
        which: AttackReroll,
    ) -> AppResult<Replay> {
        let plan = record.plan.clone().ok_or_else(|| {
            user(format!(
                "Roll #{id} was logged before attacks could be rerolled; ask the GM to adjust it by hand."
            ))
        })?;
        if which == AttackReroll::Toughness && record.toughness.is_none() {
            return Err(user(format!(
                "Roll #{id} called for no Toughness check, so there is none to reroll."
            )));
        }
        let mut sheet = sheet_from_rows(&characters::wounds(conn, guild, record.target_id)?)?;
        for change in &record.changes {
            let location = Location::parse(&change.location).ok_or_else(|| {
                AppError::Internal(anyhow::anyhow!(
                    "roll #{id}: location {:?}",
                    change.location
                ))
            })?;
            if sheet.at(location) != LocationWounds::from(change.after) {
                return Err(user(format!(
                    "{}'s wounds on the {location} have changed since roll #{id}, so it can no longer be rerolled.",
                    escape(&record.target)
                )));
            }
            sheet.set_at(location, change.before.into());
        }
        Ok(Replay {
            record,
            plan,
            before: sheet.clone(),
            sheet,
            which,
        })
    }

    /// Whose luck pays: the attacker for the hit, the target for the Toughness check.
    pub fn payer(&self) -> crate::store::CharacterId {
        match self.which {
            AttackReroll::Hit => self.record.attacker_id,
            AttackReroll::Toughness => self.record.target_id,
        }
    }

    /// Rolls again, writes the target's wounds and logs the new attack as a child of `id`, under
    /// its mode; the reply (routed as the original was) starts with `luck_line`.
    pub fn run(
        mut self,
        ctx: &Ctx<'_>,
        conn: &Conn,
        dice: &mut impl DieSource,
        id: RollId,
        mode: RollMode,
        luck_line: &str,
    ) -> AppResult<Reply> {
        let rec = &mut self.record;
        if self.which == AttackReroll::Hit {
            strike(rec, &self.plan, dice)?;
        }
        take(rec, &self.plan, &mut self.sheet, dice)?;
        rec.rerolls = Some(id.0);
        rec.rerolled = Some(self.which.name().to_owned());
        characters::set_wounds(
            conn,
            ctx.caller.guild,
            rec.target_id,
            &rows_from_sheet(&self.sheet),
        )?;
        // The target's condition from the sheet the first roll found (its wounds undone).
        let target = characters::by_id(conn, ctx.caller.guild, rec.target_id)?
            .ok_or_else(|| user(format!("{} is no longer here.", escape(&rec.target))))?;
        let mut tgt = ThizChar::load(conn, target.clone(), "/attack")?;
        tgt.wounds = self.before;
        rec.condition = tgt
            .record_wounds(conn, &self.sheet, damage_kind(&self.plan))?
            .map(|c| c.name().to_owned());
        let new_id = ctx.log_reroll(
            conn,
            Some(rec.attacker_id),
            "attack",
            mode,
            "",
            &ThizRecord::Attack(rec.clone()),
            Some(id),
        )?;
        let attacker = characters::by_id(conn, ctx.caller.guild, rec.attacker_id)?
            .ok_or_else(|| user(format!("{} is no longer here.", escape(&rec.attacker))))?;
        let npcs = Npcs::of(&attacker, &target);
        Ok(routed(ctx, mode, rec, new_id, Some(luck_line), npcs))
    }
}

/// The attack's reply, routed by its mode, with the GM's Unlucky notes. The numbers of an NPC on
/// either side are marked for the GM's screen ([`screen`]): the channel and the player see who
/// hit whom and the wound; the GM sees the rest.
fn routed(
    ctx: &Ctx<'_>,
    mode: RollMode,
    rec: &AttackRecord,
    roll_id: RollId,
    luck_line: Option<&str>,
    npcs: Npcs,
) -> Reply {
    let full = full_reply(rec, roll_id, luck_line, npcs);
    let what = format!("an attack on {}", escape(&rec.target));
    let mut reply = ctx
        .route(mode, &what, full)
        .with_gm_lines(&unlucky_lines(rec));
    // Decision: a GM's private or self-only attack that lands on a player's figure still tells
    // that player (SPEC §3: the target's owner always sees their own figure and gets its luck);
    // the channel learns only that it was struck, and the player's button shows them the rest.
    // A blind roll stays the GM's alone: its result is hidden from everyone by its meaning.
    let quiet = matches!(mode, RollMode::Private | RollMode::SelfOnly);
    if quiet && rec.hit.is_some() && !npcs.target && npcs.target_owner != ctx.caller.user {
        let tn = escape(&rec.target);
        reply.notice = Some(Box::new(
            Reply::public(format!(
                "{tn} was struck by an attack the GM rolled in private. {tn}'s player: the button shows you what it did."
            ))
            .with_button(Button {
                custom_id: format!("{SEE_PREFIX}{roll_id}"),
                label: crate::app::text::truncate(&format!("What happened to {}", rec.target), 80),
                disabled: false,
            }),
        ));
    }
    reply
}

/// The button of a private attack's notice: `see:<roll>` shows the struck figure's player what
/// the attack did, with their luck buttons.
pub const SEE_PREFIX: &str = "see:";

/// The roll a notice's button names, if `id` is one.
pub fn parse_see_button(id: &str) -> Option<AppResult<RollId>> {
    let rest = id.strip_prefix(SEE_PREFIX)?;
    Some(
        rest.parse::<i64>()
            .map(RollId)
            .map_err(|_| user("That button is no longer valid.")),
    )
}

/// A notice's button pressed: the attack as its target's player may see it (the attacker's
/// numbers screened if an NPC's), with the target's luck buttons, to the presser alone. Only the
/// target's player or a GM may look; anyone else is told whose it is.
pub(super) fn see(ctx: &Ctx<'_>, id: RollId) -> AppResult<Reply> {
    ctx.app
        .store
        .read(|conn| -> crate::store::Result<AppResult<Reply>> { Ok(see_in(ctx, conn, id)) })?
}

fn see_in(ctx: &Ctx<'_>, conn: &Conn, id: RollId) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let stale = || user("That button is no longer valid: the roll it showed is gone.");
    let row = crate::store::rolls::get(conn, guild, id)?.ok_or_else(stale)?;
    let Some(ThizRecord::Attack(rec)) = row.public_json.as_deref().and_then(ThizRecord::from_json)
    else {
        return Err(stale());
    };
    let target = characters::by_id(conn, guild, rec.target_id)?.ok_or_else(stale)?;
    if target.owner_id != ctx.caller.user && !ctx.is_gm() {
        return Err(user(format!(
            "Only {}'s player (or a GM) sees what that attack did.",
            escape(&target.name)
        )));
    }
    let attacker = characters::by_id(conn, guild, rec.attacker_id)?.ok_or_else(stale)?;
    let mut reply = full_reply(&rec, id, None, Npcs::of(&attacker, &target));
    reply.visibility = crate::app::reply::Visibility::Ephemeral;
    reply.buttons.retain(|b| {
        b.custom_id.starts_with("luck:toughness:") || b.custom_id.starts_with("luck:wound:")
    });
    // A view of a roll the GM has whole: screened here, so no copy goes to the GM again.
    let open = crate::app::house::house_rule(&ctx.settings, crate::app::house::NPC_NUMBERS_OPEN);
    if !ctx.is_gm() && !open {
        reply = screen::screened(&reply);
    }
    Ok(reply)
}

/// Unlucky (thiz-rulebook.md, "Unlucky"): a 98–100 on any check flags a mishap to the GM, the
/// attacker's hit roll and the target's Toughness check alike.
fn unlucky_lines(rec: &AttackRecord) -> Vec<String> {
    let Some(plan) = &rec.plan else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if unlucky_mishap(plan.attacker_unlucky, rec.roll) {
        lines.push(format!(
            "Unlucky: {} rolled {} to hit, a mishap is due whatever the level.",
            escape(&rec.attacker),
            rec.roll
        ));
    }
    if let Some(t) = &rec.toughness
        && unlucky_mishap(plan.target_unlucky, t.roll)
    {
        lines.push(format!(
            "Unlucky: {} rolled {} for Toughness, a mishap is due whatever the level.",
            escape(&rec.target),
            t.roll
        ));
    }
    lines
}

/// The embed's fields: the rating's sum, the roll, where it landed, Toughness and the wound.
fn fields(
    rec: &AttackRecord,
    plan: Option<&AttackPlan>,
    (hit, level): (Option<Level>, Level),
    location: Option<Location>,
    npcs: Npcs,
) -> Vec<Field> {
    let mut fields = Vec::new();
    if let Some(p) = plan
        && let Ok(adjusted) = adjusted_attack(&input(p, armor_read(p, location)))
    {
        fields.push(Field {
            name: "Attack".to_owned(),
            value: attack_text(&p.skill_text, &adjusted, p.defend, npcs),
            inline: false,
        });
    }
    fields.push(Field {
        name: "Roll".to_owned(),
        value: format!("d100: {} → {}", rec.roll, level_text(level)),
        inline: true,
    });
    if let Some(l) = location {
        let how = match (rec.location_roll, rec.called_shot) {
            (Some(r), _) => format!("{l} (rolled {r})"),
            (None, true) => format!("{l} (called)"),
            (None, false) => l.to_string(),
        };
        fields.push(Field {
            name: "Location".to_owned(),
            value: how,
            inline: true,
        });
    }
    if let Some(t) = &rec.toughness {
        let t_level = parse_level(&t.level).unwrap_or(Level::Failure);
        fields.push(Field {
            name: "Toughness".to_owned(),
            value: format!(
                "rating {}, d100: {} → {}",
                screen::npc(npcs.target, t.rating.to_string()),
                t.roll,
                level_text(t_level)
            ),
            inline: false,
        });
    }
    if hit.is_some() {
        let value = match &rec.wound {
            Some(w) if w.recorded == w.inflicted => {
                format!("{} on the {}", w.recorded, w.location)
            }
            Some(w) => format!(
                "{} on the {} (stacked up to {})",
                w.inflicted, w.location, w.recorded
            ),
            None => "none: shrugged off".to_owned(),
        };
        fields.push(Field {
            name: "Wound".to_owned(),
            value,
            inline: true,
        });
    }
    fields
}

/// The whole reply, as the channel sees a public attack.
fn full_reply(rec: &AttackRecord, roll_id: RollId, luck_line: Option<&str>, npcs: Npcs) -> Reply {
    let (an, tn) = (escape(&rec.attacker), escape(&rec.target));
    let mut title = match &rec.weapon {
        Some(w) => format!("{an} attacks {tn} with {}", escape(w)),
        None => format!("{an} attacks {tn} bare-handed"),
    };
    match rec.rerolled.as_deref() {
        Some("hit") => title.push_str(" (hit rerolled)"),
        Some(_) => title.push_str(" (Toughness rerolled)"),
        None => {}
    }
    let hit = rec.hit.as_deref().and_then(parse_level);
    let level = parse_level(&rec.level).unwrap_or(Level::Failure);
    let location = rec.location.as_deref().and_then(Location::parse);
    let plan = rec.plan.as_ref();
    let mut lines: Vec<String> = luck_line.map(str::to_owned).into_iter().collect();
    match (hit, location) {
        (Some(h), Some(l)) => lines.push(format!("**Hit**: {} on the {l}.", level_text(h))),
        _ => lines.push("**Miss.**".to_owned()),
    }
    if let (Some(l), None) = (location, hit)
        && rec.missile
        && !rec.called_shot
    {
        lines.push(format!("It struck the {l}, but the armour turned it."));
    }
    if rec.called_shot && level.is_success() && hit.is_none() {
        lines.push("A called shot needs Black: it missed.".to_owned());
    }
    if let (Some(p), Some(_), Some(l)) = (plan, hit, location)
        && rec.toughness.is_none()
        && p.bare_hands
    {
        lines.push(format!(
            "Bare hands cannot hurt through that armour ({}).",
            screen::npc(
                npcs.target,
                format!("Strength must be at least {}", 3 * p.armor_at(l))
            )
        ));
    }
    if let Some(p) = plan {
        if p.chest_assumed {
            lines.push("No location was named, so the Chest was assumed.".to_owned());
        }
        // The notes tell how the attacker's rating was reached (Trained for War, two weapons).
        lines.extend(
            p.notes
                .iter()
                .map(|n| screen::npc(npcs.attacker, n.as_str())),
        );
    }
    if !rec.burst_wounds.is_empty() {
        let extra: Vec<String> = rec
            .burst_wounds
            .iter()
            .map(|w| format!("{} on the {}", w.recorded, w.location))
            .collect();
        lines.push(format!("The burst adds {}.", extra.join(", ")));
    }
    let fields = fields(rec, plan, (hit, level), location, npcs);
    if rec.mook_defeated {
        lines.push(format!("{tn} is defeated."));
    } else if rec.wound.is_some() {
        match rec.condition.as_deref() {
            Some("dying") => lines.push(format!(
                "{tn} is dying: a Toughness check each turn until a Black success, First Aid, or death."
            )),
            Some("unconscious") => lines.push(format!("{tn} is knocked out.")),
            Some(other) if rec.incapacitated => lines.push(format!("{tn} is {other}.")),
            _ if rec.incapacitated => lines.push(format!("{tn} is incapacitated.")),
            _ => {}
        }
    }
    let mut reply = Reply::public("").with_embed(Embed {
        title,
        description: lines.join("\n"),
        tone: Some(hit.map_or(Tone::Grey, tone)),
        fields,
        footer: None,
    });
    for button in buttons(rec, roll_id, plan.is_some(), npcs) {
        reply = reply.with_button(button);
    }
    reply
}

/// The attack's buttons: the attacker's luck on the hit, the target's on Toughness and the
/// wound, and a dying target's check. An NPC's are the GM's ([`screen`]).
fn buttons(rec: &AttackRecord, roll_id: RollId, planned: bool, npcs: Npcs) -> Vec<Button> {
    let mut out = Vec::new();
    if planned {
        out.push(Button {
            custom_id: format!("luck:reroll:{roll_id}"),
            label: screen::npc(npcs.attacker, "Spend luck: reroll hit"),
            disabled: false,
        });
    }
    if rec.wound.is_some() {
        out.push(Button {
            custom_id: format!("luck:toughness:{roll_id}"),
            label: screen::npc(npcs.target, "Spend luck: reroll Toughness"),
            disabled: false,
        });
        out.push(Button {
            custom_id: format!("luck:wound:{roll_id}"),
            label: screen::npc(npcs.target, "Spend luck: lower wound"),
            disabled: false,
        });
    }
    if rec.condition.as_deref() == Some("dying") && !rec.mook_defeated {
        let mut dying = super::care::dying_button(rec.target_id);
        dying.label = screen::npc(npcs.target, dying.label);
        out.push(dying);
    }
    out
}

/// The THIZ attack as the encounter shapes it: a Prone target is attacked as Prone, and a
/// Defending target adds its weapon skill to its Speed (thiz-rulebook.md, "Defend": its best
/// Weapon Skill, or Unarmed Combat, since the bot does not track the weapon in hand). The
/// Defend bonus goes in as a negative modifier, the same sum; returns it too.
fn thiz_args(
    a: &AttackArgs,
    turn: &hooks::ThizTurn,
    target: &ThizChar,
) -> AppResult<(AttackArgs, i32)> {
    use crate::rules::thiz::skills::SkillKind;
    let mut a = a.clone();
    a.prone |= turn.prone;
    if !turn.defend {
        return Ok((a, 0));
    }
    let weapon = target
        .skills
        .iter()
        .filter(|(id, _)| id.kind() == Some(SkillKind::WeaponSkill))
        .map(|(_, r)| *r)
        .max();
    let skill = match weapon {
        Some(r) => r,
        None => target.base_of(SkillKind::UnarmedCombat)?.rating.0,
    };
    a.modifier -= skill.max(0);
    Ok((a, skill.max(0)))
}

#[cfg(test)]
mod tests {
    use super::super::record::{ThizRecord, sheet_from_rows};
    use super::super::testkit::Kit;
    use super::super::testkit::seed_for;
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::dice::{DieSource, SeededDice};
    use crate::rules::thiz::wounds::{location_for_roll, wound_from_hit};
    use crate::rules::thiz::{Level, Rating};

    /// A seed whose first d100 passes `first` and second passes `second`.
    fn seed_where(first: impl Fn(u32) -> bool, second: impl Fn(u32) -> bool) -> u64 {
        (0..100_000u64)
            .find(|s| {
                let mut d = SeededDice::new(*s);
                first(d.d100()) && second(d.d100())
            })
            .unwrap()
    }

    fn dice(seed: u64, n: usize) -> Vec<u32> {
        let mut d = SeededDice::new(seed);
        (0..n).map(|_| d.d100()).collect()
    }

    /// Vexa (player's: Sword 3, Strength 10, a +4 sword) and Bran (other's: Speed 4, Toughness 2,
    /// armour +1 on the chest).
    fn fighters(kit: &Kit) {
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Weapon Skill (Sword)", 3);
        kit.skill(vexa, "Strength", 10);
        kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 4}"#);
        kit.item(
            vexa,
            "weapon",
            "Bow",
            r#"{"attack_bonus": 1, "missile": true}"#,
        );
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "Speed", 4);
        kit.skill(bran, "Toughness", 2);
        kit.item(
            bran,
            "armor",
            "Breastplate",
            r#"{"armor_bonus": 1, "locations": ["chest", "gut"]}"#,
        );
    }

    #[test]
    fn melee_hit_wounds_the_target_and_offers_luck() {
        // Sword 3 + weapon 4 + Strength 1 − (Speed 4 + armour 1) = 3. A hit on row 3 needs ≤63;
        // then Toughness 2 must fail to beat the hit.
        let seed = seed_where(
            |r| resolve(Rating(3), r).is_success(),
            |r| resolve(Rating(2), r) == Level::Failure,
        );
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "bran"),
                ("weapon", "sword"),
            ],
        );
        let [hit_roll, t_roll] = dice(seed, 2)[..] else {
            unreachable!()
        };
        let hit = resolve(Rating(3), hit_roll);
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Vexa attacks Bran with Sword", "{reply:?}");
        assert_eq!(
            e.fields[0].value,
            r"Weapon Skill \(Sword\) 3 · weapon +4 · Strength +1 − (Speed 4 · armour 1) = 3"
        );
        assert!(
            e.description
                .contains(&format!("{} on the Chest", level_text(hit))),
            "{e:?}"
        );
        assert_eq!(e.tone, Some(tone(hit)));
        let toughness = e.fields.iter().find(|f| f.name == "Toughness").unwrap();
        assert_eq!(
            toughness.value,
            format!("rating 2, d100: {t_roll} → Failure")
        );
        let sheet = sheet_from_rows(&kit.wounds(crate::store::CharacterId(2))).unwrap();
        assert!(sheet.at(Location::Chest).has(hit), "{sheet:?}");
        let buttons: Vec<(&str, &str)> = reply
            .buttons
            .iter()
            .map(|b| (b.custom_id.as_str(), b.label.as_str()))
            .collect();
        assert_eq!(
            buttons,
            [
                ("luck:reroll:1", "Spend luck: reroll hit"),
                ("luck:toughness:1", "Spend luck: reroll Toughness"),
                ("luck:wound:1", "Spend luck: lower wound"),
            ]
        );
        assert!(
            e.description
                .contains("No location was named, so the Chest was assumed."),
            "{e:?}"
        );
        let Some(ThizRecord::Attack(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!()
        };
        assert_eq!(
            rec.wound(),
            Some((crate::store::CharacterId(2), Location::Chest, hit))
        );
        assert_eq!(wound_from_hit(hit, Level::Failure), Some(hit));
    }

    /// thiz-rulebook.md, chapter 2 "Psychokinesis": +2 to attacks with a thrown weapon for a
    /// character with the skill (rating 1 or more). Thrown: a missile attack with a weapon the
    /// sheet marks `thrown`; the same javelin in melee, a bow, or no Psychokinesis get nothing.
    #[test]
    fn psychokinesis_adds_two_to_a_thrown_weapon_only() {
        let cases: [(Option<i64>, &str, bool, bool); 6] = [
            (Some(1), "Javelin", true, true),
            (Some(6), "Javelin", true, true),
            (Some(0), "Javelin", true, false),
            (None, "Javelin", true, false),
            (Some(1), "Javelin", false, false),
            (Some(1), "Bow", true, false),
        ];
        for (pk, weapon, missile, bonus) in cases {
            let kit = Kit::new(1);
            fighters(&kit);
            let vexa = crate::store::CharacterId(1);
            kit.item(
                vexa,
                "weapon",
                "Javelin",
                r#"{"attack_bonus": 2, "thrown": true}"#,
            );
            if let Some(r) = pk {
                kit.skill(vexa, "Psychokinesis", r);
            }
            let mut opts = vec![
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", weapon),
                ("location", "chest"),
            ];
            if missile {
                opts.push(("missile", "true"));
            }
            let reply = kit.run(&kit.player(), &["attack"], &opts);
            let text = reply.all_text();
            let case = format!("{pk:?} {weapon} missile {missile}");
            assert_eq!(
                text.contains("Psychokinesis: +2 to hit with a thrown weapon"),
                bonus,
                "{case}: {text}"
            );
            assert_eq!(text.contains("modifier +2"), bonus, "{case}: {text}");
        }
    }

    #[test]
    fn a_miss_changes_no_sheet_and_has_no_button() {
        let seed = seed_where(|r| resolve(Rating(3), r) == Level::Failure, |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Sword"),
                ("mode", "self"),
            ],
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(reply.embeds[0].description.contains("Miss"), "{reply:?}");
        assert_eq!(reply.embeds[0].tone, Some(Tone::Grey));
        // A miss can still be rerolled with the attacker's luck; nothing else is offered.
        let ids: Vec<&str> = reply.buttons.iter().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids, ["luck:reroll:1"]);
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
        assert_eq!(kit.roll_count(), 1);
    }

    #[test]
    fn missiles_roll_a_location_and_called_shots_need_black() {
        // Bow: Sword skill does not apply; Weapon Skill (Bow) untrained → Physical 1 (Strength 10,
        // Sword 3 → 13/10). 1 + 1 − (4 + armour where it lands).
        let seed = seed_where(|r| r <= 5, |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[("attacker", "Vexa"), ("target", "Bran"), ("weapon", "bow")],
        );
        let rolls = dice(seed, 2);
        let loc = location_for_roll(rolls[1]);
        let e = &reply.embeds[0];
        let location = e.fields.iter().find(|f| f.name == "Location").unwrap();
        assert_eq!(
            location.value,
            format!("{loc} (rolled {})", rolls[1]),
            "{e:?}"
        );
        // Called shot on a roll that is a success but not Black: a miss.
        let seed = seed_where(|r| (20..=40).contains(&r), |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        kit.skill(crate::store::CharacterId(1), "Weapon Skill (Bow)", 20);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Bow"),
                ("location", "head"),
            ],
        );
        let e = &reply.embeds[0];
        assert!(e.description.contains("called shot needs Black"), "{e:?}");
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
    }

    fn attack_sword(kit: &Kit, location: &str) -> Reply {
        kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Sword"),
                ("location", location),
            ],
        )
    }

    fn set_luck(kit: &Kit, name: &str, points: &str) {
        let r = kit.run(
            &kit.gm(),
            &["luck", "set"],
            &[("character", name), ("points", points)],
        );
        assert!(r.visibility == Visibility::Ephemeral, "{r:?}");
    }

    fn luck_of(kit: &Kit, name: &str) -> String {
        kit.run(&kit.gm(), &["luck", "show"], &[("character", name)])
            .content
    }

    /// thiz-rulebook.md, chapter 10 "Luck": a luck point re-rolls a resolution check, and an
    /// attack's hit is one. The wound the first roll left comes off; the new roll's stands.
    #[test]
    fn luck_rerolls_an_attacks_hit_and_undoes_its_wound() {
        // Hit (row 3 ≤ 63, on the gut: armour 1 → rating 3), Toughness 2 fails; the reroll misses.
        let seed = seed_for(&[
            &|r| resolve(Rating(3), r).is_success(),
            &|r| resolve(Rating(2), r) == Level::Failure,
            &|r| resolve(Rating(3), r) == Level::Failure,
        ]);
        let kit = Kit::new(seed);
        fighters(&kit);
        set_luck(&kit, "Vexa", "2");
        let first = attack_sword(&kit, "gut");
        assert!(
            first.embeds[0].description.contains("on the Gut"),
            "{first:?}"
        );
        assert!(!kit.wounds(crate::store::CharacterId(2)).is_empty());
        // Bran's player may not spend Vexa's luck on Vexa's hit.
        let refused = kit.run_as(&kit.other(), "p0", &["button"], &[("id", "luck:reroll:1")]);
        assert!(
            refused.content.contains("only they can spend"),
            "{refused:?}"
        );
        let again = kit.run_as(&kit.player(), "p1", &["button"], &[("id", "luck:reroll:1")]);
        let e = &again.embeds[0];
        assert!(e.title.ends_with("(hit rerolled)"), "{e:?}");
        assert!(
            e.description.contains("luck rerolls the hit (roll #1)"),
            "{e:?}"
        );
        assert!(e.description.contains("**Miss.**"), "{e:?}");
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
        assert!(luck_of(&kit, "Vexa").contains("1 luck point"));
        let Some(ThizRecord::Attack(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!()
        };
        assert_eq!(
            (rec.rerolls, rec.rerolled.as_deref()),
            (Some(1), Some("hit"))
        );
        // The same roll takes luck once.
        let twice = kit.run_as(
            &kit.player(),
            "p2",
            &["luck", "spend"],
            &[("kind", "reroll"), ("roll", "1")],
        );
        assert!(twice.content.contains("already used"), "{twice:?}");
        assert!(luck_of(&kit, "Vexa").contains("1 luck point"));
    }

    /// The Toughness check against a hit is a resolution check too: the target's luck rolls it
    /// again, and a wound changed since the attack is a clear refusal.
    #[test]
    fn luck_rerolls_the_targets_toughness_check() {
        // A Green hit at rating 3 (armour 1 on the chest counted); Toughness 2 fails, leaving a
        // Green wound; the rerolled Toughness, Yellow or better, beats the Green hit.
        let seed = seed_for(&[
            &|r| resolve(Rating(3), r) == Level::Green,
            &|r| resolve(Rating(2), r) == Level::Failure,
            &|r| resolve(Rating(2), r) >= Level::Yellow,
        ]);
        let kit = Kit::new(seed);
        fighters(&kit);
        set_luck(&kit, "Bran", "1");
        let first = attack_sword(&kit, "chest");
        let bran = crate::store::CharacterId(2);
        assert_eq!(kit.wounds(bran).len(), 1, "{first:?}");
        // Vexa's player cannot pay with Bran's luck.
        let refused = kit.run_as(
            &kit.player(),
            "t0",
            &["luck", "spend"],
            &[("kind", "toughness"), ("roll", "1")],
        );
        assert!(
            refused.content.contains("belongs to another player"),
            "{refused:?}"
        );
        let again = kit.run_as(
            &kit.other(),
            "t1",
            &["button"],
            &[("id", "luck:toughness:1")],
        );
        let e = &again.embeds[0];
        assert!(e.title.ends_with("(Toughness rerolled)"), "{again:?}");
        assert!(
            e.description
                .contains("Bran: luck rerolls the Toughness check"),
            "{e:?}"
        );
        // Issue 57: the channel reads "Luck spent."; Bran's player alone hears it ran out,
        // and no button to spend Bran's luck again follows.
        assert!(e.description.contains("Luck spent."), "{e:?}");
        assert!(!again.channel_text().contains("run out"), "{again:?}");
        assert!(
            again
                .caller_copy
                .as_deref()
                .is_some_and(|c| c.content.contains("Bran's luck has run out")),
            "{again:?}"
        );
        assert!(
            again
                .buttons
                .iter()
                .all(|b| !b.custom_id.starts_with("luck:toughness:")
                    && !b.custom_id.starts_with("luck:wound:")),
            "{:?}",
            again.buttons
        );
        let wound = e.fields.iter().find(|f| f.name == "Wound").unwrap();
        assert_eq!(wound.value, "none: shrugged off");
        assert!(kit.wounds(bran).is_empty());

        // A sheet changed since the attack: nothing is spent.
        let kit = Kit::new(seed);
        fighters(&kit);
        set_luck(&kit, "Bran", "1");
        attack_sword(&kit, "chest");
        kit.wound(bran, "chest", "red");
        let stale = kit.run_as(
            &kit.other(),
            "t2",
            &["luck", "spend"],
            &[("kind", "toughness")],
        );
        assert!(
            stale
                .content
                .contains("wounds on the Chest have changed since roll #1"),
            "{stale:?}"
        );
        assert!(luck_of(&kit, "Bran").contains("1 luck point"));
    }

    /// thiz-rulebook.md, "Unlucky": 98–100 on any check flags a mishap to the referee, the hit
    /// roll and the Toughness check too; only the GM copy says so.
    #[test]
    fn unlucky_flags_attack_and_toughness_rolls_for_the_gm_only() {
        let cases: [(u32, u32, bool, bool); 4] = [
            (97, 50, false, false),
            (98, 50, true, false),
            (40, 97, false, false),
            (40, 98, false, true),
        ];
        for (hit, toughness, attacker_flag, target_flag) in cases {
            // Ratings high enough that 40 always hits and the Toughness check is made.
            let seed = seed_for(&[&|r| r == hit, &|r| r == toughness]);
            let kit = Kit::new(seed);
            fighters(&kit);
            let unlucky = r#"{"weaknesses": ["Unlucky"]}"#;
            kit.sheet(crate::store::CharacterId(1), unlucky);
            kit.sheet(crate::store::CharacterId(2), unlucky);
            kit.skill(crate::store::CharacterId(1), "Weapon Skill (Sword)", 30);
            let reply = attack_sword(&kit, "head");
            let gm = reply
                .gm_copy
                .as_ref()
                .map(|c| c.all_text())
                .unwrap_or_default();
            assert_eq!(
                gm.contains("Vexa rolled") && gm.contains("to hit"),
                attacker_flag,
                "{hit}/{toughness}: {reply:?}"
            );
            assert_eq!(
                gm.contains("Bran rolled") && gm.contains("for Toughness"),
                target_flag,
                "{hit}/{toughness}: {reply:?}"
            );
            assert!(!reply.caller_text().contains("Unlucky"), "{reply:?}");
        }
    }

    /// rules/README.md "Strength melee bonus": +1 per 10 full points of Strength itself; a
    /// character who has not learned Strength gets nothing from General Physical.
    #[test]
    fn strength_bonus_counts_the_strength_skill_itself() {
        for (strength, bonus) in [
            (None, ""),
            (Some(9), ""),
            (Some(10), " · Strength +1"),
            (Some(19), " · Strength +1"),
            (Some(20), " · Strength +2"),
        ] {
            let kit = Kit::new(1);
            let vexa = kit.thiz("Vexa", kit.player_id(), false);
            kit.skill(vexa, "Weapon Skill (Sword)", 3);
            if let Some(s) = strength {
                kit.skill(vexa, "Strength", s);
            }
            kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 4}"#);
            kit.thiz("Bran", kit.other_id(), false);
            let reply = attack_sword(&kit, "head");
            let attack = &reply.embeds[0].fields[0].value;
            assert!(
                attack.starts_with(&format!(r"Weapon Skill \(Sword\) 3 · weapon +4{bonus} −")),
                "{strength:?}: {attack}"
            );
        }
    }

    fn attack_with(kit: &Kit, extra: &[(&str, &str)]) -> Reply {
        let mut opts = vec![
            ("attacker", "Vexa"),
            ("target", "Bran"),
            ("weapon", "Sword"),
            ("location", "head"),
        ];
        opts.extend_from_slice(extra);
        kit.run(&kit.player(), &["attack"], &opts)
    }

    /// thiz-rulebook.md, "Dropping Prone" (+3 in melee) and "Sight" (-5 to the blind attacker,
    /// -5 to the blind target's Speed, cancelling when both are blind); "Night-Blind" (-2).
    #[test]
    fn prone_and_sight_change_the_rating() {
        // Sword 3 + 4 + Strength 1 − (Speed 4 + armour 0 on the head) = 4.
        let cases: [(&[(&str, &str)], &str); 6] = [
            (&[], "− (Speed 4 · armour 0) = 4"),
            (
                &[("prone", "true")],
                "· prone target +3 − (Speed 4 · armour 0) = 7",
            ),
            (
                &[("sight", "attacker-blind")],
                "· sight -5 − (Speed 4 · armour 0) = -1",
            ),
            (
                &[("sight", "target-blind")],
                "− (Speed 4 · sight -5 · armour 0) = 9",
            ),
            (&[("sight", "both-blind")], "− (Speed 4 · armour 0) = 4"),
            (
                &[("sight", "night")],
                "− (Speed 4 · sight -2 · armour 0) = 6",
            ),
        ];
        for (extra, want) in cases {
            let kit = Kit::new(1);
            fighters(&kit);
            kit.sheet(
                crate::store::CharacterId(2),
                r#"{"weaknesses": ["Night-Blind"]}"#,
            );
            let reply = attack_with(&kit, extra);
            let attack = &reply.embeds[0].fields[0].value;
            assert!(attack.ends_with(want), "{extra:?}: {attack}");
        }
    }

    /// thiz-rulebook.md, "Burst/Full-Auto Fire": a Red wound brings a Yellow and a Green, each on
    /// a location rolled on the missile table; a melee attack cannot burst.
    #[test]
    fn a_burst_adds_the_lighter_wounds() {
        // Gun: Weapon Skill (Gun) 30 + 3 − (Speed 4 + armour 1 on the chest) = 28; the d100s
        // are the hit (≤ 20: Red or Black), the location (50–60: Chest), Toughness 2 (≥ 90: a
        // Failure), then one location per extra wound.
        let seed = seed_for(&[
            &|r| r <= 20,
            &|r| (50..=60).contains(&r),
            &|r| r >= 90,
            &|_| true,
            &|_| true,
        ]);
        let kit = Kit::new(seed);
        fighters(&kit);
        let vexa = crate::store::CharacterId(1);
        kit.skill(vexa, "Weapon Skill (Gun)", 30);
        kit.item(
            vexa,
            "weapon",
            "Gun",
            r#"{"attack_bonus": 3, "missile": true}"#,
        );
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Gun"),
                ("burst", "full-auto"),
            ],
        );
        let Some(ThizRecord::Attack(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!()
        };
        let first = parse_level(&rec.wound.as_ref().expect("a wound").inflicted).unwrap();
        let extra: Vec<Level> = rec
            .burst_wounds
            .iter()
            .map(|w| parse_level(&w.inflicted).unwrap())
            .collect();
        let mut want = Vec::new();
        let mut l = first.lower();
        while l != Level::Failure {
            want.push(l);
            l = l.lower();
        }
        assert_eq!(extra, want, "{reply:?}");
        assert!(
            first >= Level::Red,
            "a roll of 20 or less at 28 is Red or Black"
        );
        assert!(
            reply.embeds[0].description.contains("The burst adds"),
            "{reply:?}"
        );
        let sheet = sheet_from_rows(&kit.wounds(crate::store::CharacterId(2))).unwrap();
        assert_eq!(sheet.total() as usize, 1 + extra.len());
        // Melee cannot burst.
        let refused = attack_with(&kit, &[("burst", "three-round")]);
        assert!(
            refused.content.contains("burst is for missile attacks"),
            "{refused:?}"
        );
    }

    /// thiz-rulebook.md, "Berserk": only with the quirk; wounds ignored, +1 per 5 full points of
    /// Strength instead of 10.
    #[test]
    fn berserk_needs_the_quirk_and_ignores_wounds() {
        let kit = Kit::new(1);
        fighters(&kit);
        let refused = attack_with(&kit, &[("berserk", "true")]);
        assert!(refused.content.contains("no Berserk quirk"), "{refused:?}");
        assert_eq!(kit.roll_count(), 0);
        kit.sheet(crate::store::CharacterId(1), r#"{"quirks": ["Berserk"]}"#);
        kit.wound(crate::store::CharacterId(1), "head", "red");
        let calm = attack_with(&kit, &[]);
        assert!(
            calm.embeds[0].fields[0].value.contains("· modifier -4"),
            "{calm:?}"
        );
        let wild = attack_with(&kit, &[("berserk", "true")]);
        let attack = &wild.embeds[0].fields[0].value;
        assert!(attack.contains("· Strength +2"), "{attack}");
        assert!(!attack.contains("modifier"), "{attack}");
        assert!(
            wild.embeds[0]
                .description
                .contains("Berserk: wounds ignored")
        );
    }

    /// thiz-rulebook.md, "Two-Weapon Fighting": with Dual-Wield the second weapon uses the lower
    /// of its skill and Dual-Wield; without it, -3 on both attacks and -2 Speed.
    #[test]
    fn two_weapons_with_and_without_dual_wield() {
        let kit = Kit::new(1);
        fighters(&kit);
        let vexa = crate::store::CharacterId(1);
        kit.item(vexa, "weapon", "Dagger", r#"{"attack_bonus": 2}"#);
        kit.skill(vexa, "Weapon Skill (Dagger)", 5);
        let main = attack_with(&kit, &[("pair", "Dagger")]);
        let text = main.embeds[0].fields[0].value.clone();
        assert!(text.ends_with("= 1"), "3 − 3 + 4 + 1 − 4: {text}");
        assert!(
            main.embeds[0]
                .description
                .contains("no Dual-Wield, so -3 on both attacks and -2 Speed"),
            "{main:?}"
        );
        kit.skill(vexa, "Dual-Wield (Sword, Dagger)", 2);
        let second = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Dagger"),
                ("pair", "Sword"),
                ("second", "true"),
                ("location", "head"),
            ],
        );
        let e = &second.embeds[0];
        // The lower of Dagger 5 and Dual-Wield 2, + 2 + Strength 1 − 4 = 1.
        assert!(e.fields[0].value.ends_with("= 1"), "{e:?}");
        assert!(e.description.contains("the second weapon at 2"), "{e:?}");
        let refused = attack_with(&kit, &[("second", "true")]);
        assert!(
            refused.content.contains("name the other weapon with pair"),
            "{refused:?}"
        );
        let same = attack_with(&kit, &[("pair", "Sword")]);
        assert!(
            same.content.contains("cannot be the one attacking"),
            "{same:?}"
        );
    }

    /// thiz-rulebook.md, "Damage": a Black on the Head from a weapon leaves the target dying,
    /// with the dying check's button on the reply; a dying character cannot attack; bare fists
    /// knock out instead.
    #[test]
    fn a_black_head_wound_leaves_the_target_dying() {
        // Sword 30 at the head (armour 0): ≤ 5 is Black at rating 33; Toughness 2 fails on ≥ 90.
        let seed = seed_for(&[&|r| r <= 5, &|r| r >= 90]);
        // weapon:hands: bare fists (without weapon:, the first weapon carried is used).
        for (weapon, condition) in [
            (Some("Sword"), "is dying"),
            (Some("hands"), "is knocked out"),
        ] {
            let kit = Kit::new(seed);
            fighters(&kit);
            let vexa = crate::store::CharacterId(1);
            kit.skill(vexa, "Weapon Skill (Sword)", 30);
            kit.skill(vexa, "Unarmed Combat", 30);
            let mut opts = vec![
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("location", "head"),
            ];
            if let Some(w) = weapon {
                opts.push(("weapon", w));
            }
            let reply = kit.run(&kit.player(), &["attack"], &opts);
            let e = &reply.embeds[0];
            assert!(
                e.description.contains(&format!("Bran {condition}")),
                "{e:?}"
            );
            let dying_button = reply.buttons.iter().any(|b| {
                b.custom_id
                    == super::super::care::dying_button(crate::store::CharacterId(2)).custom_id
            });
            assert_eq!(dying_button, weapon == Some("Sword"), "{reply:?}");
            // Bran cannot strike back.
            let back = kit.run(
                &kit.other(),
                &["attack"],
                &[("attacker", "Bran"), ("target", "Vexa")],
            );
            assert_eq!(back.visibility, Visibility::Ephemeral, "{back:?}");
            assert!(back.content.contains("cannot act"), "{back:?}");
        }
    }

    /// The arm holding the weapon counts its wounds; a Useless weapon arm refuses the attack.
    #[test]
    fn the_weapon_arm_counts_and_a_useless_one_refuses() {
        let kit = Kit::new(1);
        fighters(&kit);
        let vexa = crate::store::CharacterId(1);
        kit.wound(vexa, "right arm", "yellow");
        let reply = attack_with(&kit, &[]);
        assert!(
            reply.embeds[0].fields[0].value.contains("· modifier -2"),
            "{reply:?}"
        );
        kit.wound(vexa, "right arm", "black");
        let refused = attack_with(&kit, &[]);
        assert!(
            refused.content.contains("cannot use the Right Arm"),
            "{refused:?}"
        );
        assert_eq!(kit.roll_count(), 1);
    }

    /// thiz-rulebook.md, "Trained for War": an untrained weapon of the family the character
    /// knows is checked at General Physical + 2, never above the best skill in that family.
    #[test]
    fn trained_for_war_lifts_an_untrained_weapon_of_a_known_family() {
        for (quirk, best, want) in [(false, 6, None), (true, 6, Some(3)), (true, 1, None)] {
            let kit = Kit::new(1);
            fighters(&kit);
            let vexa = crate::store::CharacterId(1);
            kit.skill(vexa, "Weapon Skill (Sword)", best);
            kit.item(
                vexa,
                "weapon",
                "Sword",
                r#"{"attack_bonus": 4, "family": "blades"}"#,
            );
            kit.item(
                vexa,
                "weapon",
                "Dagger",
                r#"{"attack_bonus": 1, "family": "Blades"}"#,
            );
            if quirk {
                kit.sheet(vexa, r#"{"quirks": ["Trained for War"]}"#);
            }
            let reply = kit.run(
                &kit.player(),
                &["attack"],
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("weapon", "Dagger"),
                    ("location", "head"),
                ],
            );
            let e = &reply.embeds[0];
            let note = e.description.contains("Trained for War");
            assert_eq!(note, want.is_some(), "{quirk} {best}: {e:?}");
            if let Some(rating) = want {
                // General Physical 1 + 2 = 3, below Sword 6: the attack reads 3.
                assert!(e.description.contains(&format!("so {rating}.")), "{e:?}");
                assert!(
                    e.fields[0].value.starts_with("Physical 1 → 3 · weapon +1"),
                    "{e:?}"
                );
            }
        }
    }

    /// thiz-rulebook.md, "Combat Equipment": a missile's suggested Attack Bonus by what it
    /// shoots (low 1, piercing 2, high 3, armour-piercing 4) unless the referee names one.
    #[test]
    fn a_missile_kind_gives_its_suggested_attack_bonus() {
        let cases = [
            (vec![("missile_kind", "low")], Some(1)),
            (vec![("missile_kind", "piercing")], Some(2)),
            (vec![("missile_kind", "high")], Some(3)),
            (vec![("missile_kind", "armour-piercing")], Some(4)),
            (
                vec![("missile_kind", "high"), ("attack_bonus", "1")],
                Some(1),
            ),
            (vec![("missile_kind", "laser")], None),
        ];
        for (extra, bonus) in cases {
            let kit = Kit::new(1);
            fighters(&kit);
            let mut opts = vec![
                ("name", "Vexa"),
                ("action", "add"),
                ("item", "Gun"),
                ("kind", "weapon"),
            ];
            opts.extend(extra.iter().copied());
            let added = kit.run(&kit.player(), &["character", "gear"], &opts);
            let reply = kit.run(
                &kit.player(),
                &["attack"],
                &[("attacker", "Vexa"), ("target", "Bran"), ("weapon", "Gun")],
            );
            if let Some(b) = bonus {
                let attack = &reply.embeds[0].fields[0].value;
                assert!(
                    attack.contains(&format!("· weapon +{b}")),
                    "{extra:?}: {attack}"
                );
                assert!(
                    reply.embeds[0].fields.iter().any(|f| f.name == "Location")
                        || reply.embeds[0].description.contains("Miss"),
                    "a missile: {reply:?}"
                );
            } else {
                assert!(
                    added
                        .content
                        .contains("missile_kind must be low, piercing, high or armour-piercing"),
                    "{added:?}"
                );
                assert!(
                    reply.content.contains("carries no weapon called Gun"),
                    "{reply:?}"
                );
            }
        }
    }

    /// thiz-rulebook.md, "Shields": the shield adds its bonus to its arm and to one location
    /// declared against an attack this turn.
    #[test]
    fn a_raised_shield_covers_the_declared_location() {
        let kit = Kit::new(1);
        fighters(&kit);
        let refused = attack_with(&kit, &[("shield", "head")]);
        assert!(
            refused.content.contains("Bran carries no shield"),
            "{refused:?}"
        );
        assert_eq!(kit.roll_count(), 0);
        kit.item(
            crate::store::CharacterId(2),
            "shield",
            "Buckler",
            r#"{"armor_bonus": 2, "locations": ["left arm"]}"#,
        );
        for (shield, armour) in [(None, 0), (Some("head"), 2), (Some("gut"), 0)] {
            let mut extra = Vec::new();
            if let Some(l) = shield {
                extra.push(("shield", l));
            }
            let reply = attack_with(&kit, &extra);
            let attack = &reply.embeds[0].fields[0].value;
            assert!(
                attack.contains(&format!("· armour {armour})")),
                "{shield:?}: {attack}"
            );
        }
    }

    #[test]
    fn mooks_fall_to_a_vital_wound_worse_than_green() {
        let seed = seed_where(|r| r <= 3, |r| r == 100);
        let kit = Kit::new(seed);
        fighters(&kit);
        let goon = kit.thiz("Goon", kit.gm_id(), true);
        kit.hidden(goon, "mook", "true");
        let reply = kit.run(
            &kit.gm(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Goon"),
                ("weapon", "Sword"),
                ("location", "gut"),
            ],
        );
        let e = &reply.embeds[0];
        assert!(e.description.contains("Goon is defeated"), "{e:?}");
        // The hidden value itself never shows.
        assert!(!reply.all_text().contains("mook"));
    }

    #[test]
    fn bad_input_and_permissions_change_nothing() {
        let kit = Kit::new(1);
        fighters(&kit);
        kit.tft("Rook", kit.player_id());
        kit.thiz("Ghoul", kit.gm_id(), true);
        let cases: [(&[(&str, &str)], &str); 10] = [
            (
                &[("attacker", "Bran"), ("target", "Vexa")],
                "Bran belongs to another player",
            ),
            (
                &[("attacker", "Nobody"), ("target", "Bran")],
                "There is no character named Nobody",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Ghoul")],
                "There is no character named Ghoul",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Rook")],
                "Rook is a TFT character",
            ),
            (
                &[("attacker", "Rook"), ("target", "Bran")],
                "Rook is a TFT character",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Vexa")],
                "cannot attack themselves",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Bran"), ("weapon", "Axe")],
                "carries no weapon called Axe; they carry Sword, Bow",
            ),
            (
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("location", "tail"),
                ],
                "no body location tail",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Bran"), ("modifier", "50")],
                "modifier must be between -40 and 40",
            ),
            (&[("attacker", "Vexa")], "needs the option target"),
        ];
        for (opts, want) in cases {
            let reply = kit.run(&kit.player(), &["attack"], opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
            assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
        }
        assert_eq!(kit.roll_count(), 0);
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
        // A GM may attack with anyone's character, NPCs included.
        let reply = kit.run(
            &kit.gm(),
            &["attack"],
            &[("attacker", "Ghoul"), ("target", "Vexa")],
        );
        assert!(
            reply.embeds[0]
                .title
                .starts_with("Ghoul attacks Vexa bare-handed"),
            "{reply:?}"
        );
    }
}
