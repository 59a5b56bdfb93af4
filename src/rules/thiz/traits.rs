//! THIZ weaknesses and quirks: the lists as data, and every effect that is a number.
//!
//! Source: thiz-rulebook.md, chapter 3 "Weaknesses" and chapter 4 "Quirks". Owns [`Weakness`],
//! [`Quirk`], their tables ([`WEAKNESSES`], [`QUIRKS`]) with kind, cost, prerequisites and a short
//! summary, and small functions for the effects that no other module applies. An effect applied
//! in combat, wounds, movement, hazards, magic or advancement lives in that module only (for
//! example Missing Limb's Speed in `combat::speed_with_missing_leg`, Night-Blind in
//! `combat::NIGHT_BLIND_PENALTY`, Weak Constitution and Iron Constitution in `hazards::poison`
//! and `movement::sprint_endurance`, Marathon Runner in `movement::jog_endurance`, Quick Study and
//! Sleepless in `advancement`, Void-Touched in `magic`); this module only points there. Must never
//! roll a check itself (durations that are a die roll take a `DieSource`), read a sheet, or hold
//! the rulebook's wording: the summaries are our own.

use std::fmt;

use thiserror::Error;

use super::chart::Level;
use super::combat::BERSERK_STRENGTH_BONUS;
use super::movement::travel::{CELESTIAL_GUIDANCE_BONUS, STREET_SMARTS_BONUS};
use super::skills::SkillKind;
use super::wounds::TRIAGE_SPECIALIST_BONUS;
use crate::rules::dice::DieSource;

/// General weaknesses are of the body, Mental of the mind, Magical come from practising magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaknessKind {
    General,
    Mental,
    Magical,
}

impl fmt::Display for WeaknessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WeaknessKind::General => "General",
            WeaknessKind::Mental => "Mental",
            WeaknessKind::Magical => "Magical",
        })
    }
}

/// Every weakness of chapter 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weakness {
    Allergy,
    ColorBlind,
    MissingLimb,
    NightBlind,
    PhysicallyDependent,
    Reckless,
    Silent,
    TinEar,
    Unlucky,
    WeakConstitution,
    Compulsion,
    Dependent,
    Hatred,
    Obsession,
    Phobia,
    Shifty,
    Tic,
    Vice,
    AlteredBiology,
    AnimalAversion,
    Disfigured,
    Haunted,
    Poltergeist,
    RestlessSleep,
    Visitation,
}

/// One weakness of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeaknessInfo {
    pub weakness: Weakness,
    pub name: &'static str,
    pub kind: WeaknessKind,
    /// The player names something when taking it (a substance, a group, a fear…), so a character
    /// may take it more than once with different subjects.
    pub takes_subject: bool,
    /// What it does, in a line.
    pub summary: &'static str,
}

const fn weak(
    weakness: Weakness,
    name: &'static str,
    kind: WeaknessKind,
    takes_subject: bool,
    summary: &'static str,
) -> WeaknessInfo {
    WeaknessInfo {
        weakness,
        name,
        kind,
        takes_subject,
        summary,
    }
}

/// Chapter 3, in the rulebook's order, indexed by `Weakness as usize`.
pub const WEAKNESSES: [WeaknessInfo; 25] = {
    use Weakness as W;
    use WeaknessKind::{General as G, Magical as X, Mental as M};
    [
        weak(
            W::Allergy,
            "Allergy",
            G,
            true,
            "A named common substance causes a rash (-3 to skills using that skin, 1d10 hours) or, if swallowed, choking and -5 to sight (1d6 hours) on a failed Toughness check.",
        ),
        weak(
            W::ColorBlind,
            "Color Blind",
            G,
            false,
            "Cannot tell colors apart: up to -3 to Perception when shades matter.",
        ),
        weak(
            W::MissingLimb,
            "Missing Limb",
            G,
            false,
            "-5 to skills needing both arms; no Dual-Wield without an arm; Speed counts as -2 without a leg unless a good prosthetic replaces it.",
        ),
        weak(
            W::NightBlind,
            "Night-Blind",
            G,
            false,
            "No Navigation by night and -2 to anything needing sight at night.",
        ),
        weak(
            W::PhysicallyDependent,
            "Physically Dependent",
            G,
            true,
            "Needs a substance: after 3 days without it, -1 to all skills, growing by 1 every 2 days; some of it may stay as lost Toughness.",
        ),
        weak(
            W::Reckless,
            "Reckless",
            G,
            false,
            "Never passes or delays a turn in combat while able to act.",
        ),
        weak(
            W::Silent,
            "Silent. Possibly Deadly.",
            G,
            false,
            "Says little or nothing, even to friends.",
        ),
        weak(
            W::TinEar,
            "Tin Ear",
            G,
            false,
            "Cannot have or check any musical skill.",
        ),
        weak(
            W::Unlucky,
            "Unlucky",
            G,
            false,
            "A check rolled 98..100 brings some mishap the referee describes.",
        ),
        weak(
            W::WeakConstitution,
            "Weak Constitution",
            G,
            false,
            "-3 to Toughness against poison; sprints as if Toughness were 3 lower.",
        ),
        weak(
            W::Compulsion,
            "Compulsion",
            M,
            true,
            "Prevented from acting out a compulsion: -3 to all skills for 1d6 hours.",
        ),
        weak(
            W::Dependent,
            "Dependent",
            M,
            true,
            "Lives for another character's approval: Willpower to cross them, -3 to all skills for 1d8 hours if they turn away.",
        ),
        weak(
            W::Hatred,
            "Hatred",
            M,
            true,
            "Hates a group: Willpower to help one of them or to spare one.",
        ),
        weak(
            W::Obsession,
            "Obsession",
            M,
            true,
            "Willpower to pass up a chance to pursue the obsession.",
        ),
        weak(
            W::Phobia,
            "Phobia",
            M,
            true,
            "Willpower or flee/freeze; -2 on checks against the feared thing in combat; bars skills that would face it.",
        ),
        weak(
            W::Shifty,
            "Shifty",
            M,
            false,
            "Persuasion, Fast Talk and Seduce succeed one level lower (a Green stays Green).",
        ),
        weak(
            W::Tic,
            "Tic",
            M,
            false,
            "Under stress, a Willpower check needing Red or better to hold back an outburst.",
        ),
        weak(
            W::Vice,
            "Vice",
            M,
            true,
            "Willpower to resist or to stop indulging a vice.",
        ),
        weak(
            W::AlteredBiology,
            "Altered Biology",
            X,
            true,
            "Lives on a strange, common substance instead of food.",
        ),
        weak(
            W::AnimalAversion,
            "Animal Aversion",
            X,
            false,
            "Animals within 20 feet shun or attack; no Animal Handling; Druidism works on mundane beasts only on Black.",
        ),
        weak(
            W::Disfigured,
            "Disfigured",
            X,
            false,
            "Magic has visibly changed the body.",
        ),
        weak(
            W::Haunted,
            "Haunted",
            X,
            false,
            "Whispering unseen voices follow the character.",
        ),
        weak(
            W::Poltergeist,
            "Poltergeist",
            X,
            false,
            "A mundane belonging goes missing whenever camp is broken after more than a night.",
        ),
        weak(
            W::RestlessSleep,
            "Restless Sleep",
            X,
            false,
            "Wakes far from bed, -2 to all skills for 1d3 hours after waking.",
        ),
        weak(
            W::Visitation,
            "Visitation",
            X,
            false,
            "Appears in the dreams of sleepers nearby.",
        ),
    ]
};

impl Weakness {
    pub fn all() -> impl Iterator<Item = Weakness> {
        WEAKNESSES.iter().map(|w| w.weakness)
    }

    pub fn info(self) -> &'static WeaknessInfo {
        &WEAKNESSES[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn kind(self) -> WeaknessKind {
        self.info().kind
    }

    /// Finds a weakness by name, ignoring case, spaces and punctuation.
    pub fn from_name(text: &str) -> Option<Weakness> {
        let k = key(text);
        WEAKNESSES
            .iter()
            .find(|w| key(w.name) == k || (k == "silent" && w.weakness == Weakness::Silent))
            .map(|w| w.weakness)
    }
}

impl fmt::Display for Weakness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn key(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Every quirk of chapter 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quirk {
    Berserk,
    CelestialGuidance,
    ExoticAccent,
    ExpertTracker,
    ForgivingFans,
    IronConstitution,
    LightTouch,
    LuckEverlasting,
    MarathonRunner,
    MilitaryBackground,
    PolarizingPersonality,
    QuickStudy,
    Sleepless,
    StreetSmarts,
    TrainedForWar,
    TriageSpecialist,
    VoidTouched,
}

/// Something a quirk needs (or forbids) on the sheet at creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prerequisite {
    /// At least 1 point in one of these skills (a quirk that improves a skill needs the skill).
    Skill(&'static [SkillKind]),
    /// At least 1 point in some Weapon Skill.
    AnyWeaponSkill,
    /// Cannot be taken together with this quirk.
    NotWith(Quirk),
}

/// One quirk of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuirkInfo {
    pub quirk: Quirk,
    pub name: &'static str,
    /// Skill points it costs at creation.
    pub cost: u32,
    pub prerequisites: &'static [Prerequisite],
    /// What it does, in a line.
    pub summary: &'static str,
}

/// What a quirk costs unless chapter 4 prints another price above it: 2 skill points.
// Decision: chapter 1 ("Your Character's Skills") says adding a quirk costs 5 skill points;
// chapter 4 ("Quirks"), the chapter that describes each quirk, says most cost 2 and prints a cost
// above the five that differ (Berserk, Polarizing Personality, Quick Study, Sleepless,
// Void-Touched: 5 each). The detailed chapter wins. Recorded in docs/rulings.md.
pub const QUIRK_COST: u32 = 2;
/// The price chapter 4 prints above the quirks that cost more: 5 skill points.
pub const COSTLY_QUIRK_COST: u32 = 5;

/// A quirk at the usual price.
const fn quirk(
    quirk: Quirk,
    name: &'static str,
    prerequisites: &'static [Prerequisite],
    summary: &'static str,
) -> QuirkInfo {
    QuirkInfo {
        quirk,
        name,
        cost: QUIRK_COST,
        prerequisites,
        summary,
    }
}

/// A quirk whose price chapter 4 prints above its description.
const fn costly(
    quirk: Quirk,
    name: &'static str,
    prerequisites: &'static [Prerequisite],
    summary: &'static str,
) -> QuirkInfo {
    QuirkInfo {
        quirk,
        name,
        cost: COSTLY_QUIRK_COST,
        prerequisites,
        summary,
    }
}

/// Chapter 4, in the rulebook's order, indexed by `Quirk as usize`.
// Decision: chapter 4 requires a skill a quirk improves to be known at creation; the skill each
// quirk improves is named here. Quirks that change no skill check (Iron Constitution, Marathon
// Runner, Quick Study…) need nothing. Military Background asks for the Weapon Skill of the
// homeland's army, which the bot cannot know: any Weapon Skill is accepted, and its bonus improves
// Fast Talk or Persuasion, so one of those is needed too.
pub const QUIRKS: [QuirkInfo; 17] = {
    use Prerequisite::{AnyWeaponSkill, NotWith, Skill};
    use Quirk as Q;
    [
        costly(
            Q::Berserk,
            "Berserk",
            &[],
            "Spend a luck point to fight on past a fatal blow: wounds ignored, +3 to Strength and Willpower, melee bonus per 5 Strength; hunts the hated, then anyone.",
        ),
        quirk(
            Q::CelestialGuidance,
            "Celestial Guidance",
            &[Skill(&[SkillKind::Navigation])],
            "+3 to Navigation by day or by night (chosen) while the sky is visible.",
        ),
        quirk(
            Q::ExoticAccent,
            "Exotic Accent",
            &[],
            "No one can place the accent: homeland gives no bonus or penalty with NPCs.",
        ),
        quirk(
            Q::ExpertTracker,
            "Expert Tracker",
            &[Skill(&[SkillKind::Tracking])],
            "Trails of one chosen kind of creature count as 3 hours fresher.",
        ),
        quirk(
            Q::ForgivingFans,
            "Forgiving Fans",
            &[NotWith(Q::PolarizingPersonality)],
            "About to lose Fame: a Black on a check against Fame keeps it.",
        ),
        quirk(
            Q::IronConstitution,
            "Iron Constitution",
            &[],
            "A quarter more time to find a poison's antidote.",
        ),
        quirk(
            Q::LightTouch,
            "Light Touch",
            &[Skill(&[SkillKind::PocketPicking])],
            "Pocket-picking is noticed only on 98..100 instead of 96..100.",
        ),
        quirk(
            Q::LuckEverlasting,
            "Luck Everlasting",
            &[],
            "Each luck point spent is kept if the referee's secret roll against current luck comes up Black.",
        ),
        quirk(
            Q::MarathonRunner,
            "Marathon Runner",
            &[],
            "Jogs 3 hours and sprints 3 minutes longer (still at most 16 hours of jogging a day).",
        ),
        quirk(
            Q::MilitaryBackground,
            "Military Background",
            &[
                AnyWeaponSkill,
                Skill(&[SkillKind::FastTalk, SkillKind::Persuasion]),
            ],
            "+3 to Fast Talk and Persuasion with friendly rank-and-file soldiers.",
        ),
        costly(
            Q::PolarizingPersonality,
            "Polarizing Personality",
            &[NotWith(Q::ForgivingFans)],
            "Everyone loves or hates the character; a Black against new Fame adds a point.",
        ),
        costly(
            Q::QuickStudy,
            "Quick Study",
            &[],
            "Studying takes a third less time.",
        ),
        costly(
            Q::Sleepless,
            "Sleepless",
            &[],
            "Two hours of sleep a night, until a secret 1d8+4 days pass and a long, deep sleep comes.",
        ),
        quirk(
            Q::StreetSmarts,
            "Street-Smarts",
            &[Skill(&[SkillKind::Perception])],
            "+3 to Perception in a city.",
        ),
        quirk(
            Q::TrainedForWar,
            "Trained for War",
            &[AnyWeaponSkill],
            "+2 to the Physical rating with untrained weapons of the starting weapon's family, capped by the best skill in that family.",
        ),
        quirk(
            Q::TriageSpecialist,
            "Triage Specialist",
            &[Skill(&[SkillKind::FirstAid])],
            "+3 to First Aid and other checks treating wounds from combat.",
        ),
        costly(
            Q::VoidTouched,
            "Void-Touched",
            &[],
            "Immune to all magic; -2 to magic within 20 feet; can never learn magic; magical beings loathe the character.",
        ),
    ]
};

impl Quirk {
    pub fn all() -> impl Iterator<Item = Quirk> {
        QUIRKS.iter().map(|q| q.quirk)
    }

    pub fn info(self) -> &'static QuirkInfo {
        &QUIRKS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn cost(self) -> u32 {
        self.info().cost
    }

    /// Finds a quirk by name, ignoring case, spaces and punctuation.
    pub fn from_name(text: &str) -> Option<Quirk> {
        let k = key(text);
        QUIRKS.iter().find(|q| key(q.name) == k).map(|q| q.quirk)
    }

    /// The quirk of a sheet's entry, its chosen subject in brackets ignored
    /// ("Celestial Guidance (night)" → Celestial Guidance).
    pub fn from_entry(entry: &str) -> Option<Quirk> {
        Quirk::from_name(entry.split(['(', '[', ':']).next().unwrap_or(entry))
    }

    /// The subjects chapter 4 has the player choose between for this quirk; empty for a quirk
    /// taken without a choice.
    pub fn choices(self) -> &'static [QuirkChoice] {
        use QuirkChoice as C;
        match self {
            Quirk::CelestialGuidance => &[C::Day, C::Night],
            Quirk::ExpertTracker => &[C::MundaneAnimals, C::MagicalCreatures, C::HumanBeings],
            _ => &[],
        }
    }
}

/// The subject a quirk was taken for, where chapter 4 has the player choose: Celestial Guidance
/// by day or by night, Expert Tracker for one kind of creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuirkChoice {
    Day,
    Night,
    MundaneAnimals,
    MagicalCreatures,
    HumanBeings,
}

impl QuirkChoice {
    /// The choice as written on the sheet, in brackets after the quirk.
    pub fn name(self) -> &'static str {
        match self {
            QuirkChoice::Day => "day",
            QuirkChoice::Night => "night",
            QuirkChoice::MundaneAnimals => "mundane animals",
            QuirkChoice::MagicalCreatures => "magical creatures",
            QuirkChoice::HumanBeings => "human beings",
        }
    }

    /// Other words a player may type for it.
    fn words(self) -> &'static [&'static str] {
        match self {
            QuirkChoice::Day => &["day", "sun", "daytime"],
            QuirkChoice::Night => &["night", "stars", "nighttime"],
            QuirkChoice::MundaneAnimals => &["mundaneanimals", "animals", "animal"],
            QuirkChoice::MagicalCreatures => &["magicalcreatures", "magical", "creatures"],
            QuirkChoice::HumanBeings => &["humanbeings", "humans", "human", "people"],
        }
    }

    /// Reads the choice typed for `quirk` (case, spaces and punctuation ignored); `None` when
    /// it is not one of that quirk's choices.
    pub fn parse(quirk: Quirk, text: &str) -> Option<QuirkChoice> {
        let k = key(text);
        quirk
            .choices()
            .iter()
            .copied()
            .find(|c| c.words().contains(&k.as_str()))
    }

    /// The choice recorded in a sheet's entry ("Expert Tracker (human beings)"), if any.
    pub fn of_entry(entry: &str) -> Option<QuirkChoice> {
        let quirk = Quirk::from_entry(entry)?;
        let at = entry.find(['(', '[', ':'])?;
        QuirkChoice::parse(quirk, &entry[at + 1..])
    }
}

/// Expert Tracker: whether the quirk, taken for `chosen`, helps follow a trail of `quarry`; only
/// the kind of creature chosen is tracked as fresher (chapter 4, "Expert Tracker").
pub fn expert_tracker_applies(chosen: Option<QuirkChoice>, quarry: Option<QuirkChoice>) -> bool {
    chosen.is_some() && chosen == quarry
}

impl fmt::Display for Quirk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---- Effects on checks -------------------------------------------------------------------------

/// Unlucky: the lowest d100 roll that brings a mishap (98..100).
pub const UNLUCKY_FROM: u32 = 98;

/// Unlucky: does this roll of a check flag a mishap for the referee? Any check, any result.
pub fn unlucky_mishap(unlucky: bool, roll: u32) -> bool {
    unlucky && roll >= UNLUCKY_FROM
}

/// Shifty: the skills whose level is read one lower.
pub fn shifty_applies(skill: SkillKind) -> bool {
    matches!(
        skill,
        SkillKind::Persuasion | SkillKind::FastTalk | SkillKind::Seduce
    )
}

/// Shifty: one level lower, but Green stays Green and Failure stays Failure (rules/README.md,
/// "Level order").
pub fn shifty_level(level: Level) -> Level {
    match level {
        Level::Failure | Level::Green => level,
        other => other.lower(),
    }
}

/// Light Touch: the lowest roll at which pocket-picking is noticed (96, or 98 with the quirk).
pub fn pocket_picking_detection_roll(light_touch: bool) -> u32 {
    if light_touch { 98 } else { 96 }
}

/// Which limb a Missing Limb weakness took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limb {
    Arm,
    Leg,
}

/// Color Blind: the modifier to Perception when telling shades apart.
pub fn color_blind_modifier(color_blind: bool) -> i32 {
    if color_blind { -3 } else { 0 }
}

/// Phobia: the modifier to checks aimed at the feared thing in combat (after passing Willpower).
pub fn phobia_combat_modifier(phobia: bool, berserk: bool) -> i32 {
    // Berserk lets the character ignore phobias.
    if phobia && !berserk { -2 } else { 0 }
}

/// Tic: the level of Willpower needed to hold back an outburst.
pub const TIC_WILLPOWER_NEEDS: Level = Level::Red;

/// Physically Dependent: the modifier to all skills after `days` without the substance: none for
/// up to 3 days, then -1, one more every 2 days (11 days → -5, the rulebook's example).
pub fn dependence_penalty(days: u32) -> i32 {
    if days <= 3 {
        0
    } else {
        -(1 + ((days - 3) / 2).min(1000) as i32)
    }
}

/// Physically Dependent: the permanent Toughness loss once recovered, the part of the worst
/// penalty beyond 3 (a -5 leaves -2).
pub fn dependence_toughness_loss(worst_penalty: i32) -> i32 {
    -(worst_penalty.unsigned_abs().saturating_sub(3).min(1000) as i32)
}

/// Physically Dependent: how the penalty shrinks by 2 a day once the substance is taken again.
pub fn dependence_recovery(penalty: i32, days_taking: u32) -> i32 {
    (penalty + 2 * days_taking.min(1000) as i32).min(0)
}

/// A temporary penalty to all skills from a weakness, with its rolled duration in hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedPenalty {
    pub modifier: i32,
    /// The die rolled for the duration.
    pub die: u32,
    pub hours: u32,
}

/// Compulsion thwarted: -3 to all skills for 1d6 hours.
pub fn compulsion_penalty(dice: &mut impl DieSource) -> TimedPenalty {
    let d = dice.roll(6);
    TimedPenalty {
        modifier: -3,
        die: d,
        hours: d,
    }
}

/// Dependent rebuffed: -3 to all skills for 1d8 hours.
pub fn dependent_penalty(dice: &mut impl DieSource) -> TimedPenalty {
    let d = dice.roll(8);
    TimedPenalty {
        modifier: -3,
        die: d,
        hours: d,
    }
}

/// Restless Sleep: -2 to all skills for 1d3 hours after waking.
pub fn restless_sleep_penalty(dice: &mut impl DieSource) -> TimedPenalty {
    let d = dice.roll(3);
    TimedPenalty {
        modifier: -2,
        die: d,
        hours: d,
    }
}

/// Allergy by touch: -3 to skills using that skin for 1d10 hours (after a failed Toughness).
pub fn allergy_rash(dice: &mut impl DieSource) -> TimedPenalty {
    let d = dice.roll(10);
    TimedPenalty {
        modifier: -3,
        die: d,
        hours: d,
    }
}

/// Allergy swallowed: -5 to tasks needing sight for 1d6 hours (after surviving the choking).
pub fn allergy_swollen_eyes(dice: &mut impl DieSource) -> TimedPenalty {
    let d = dice.roll(6);
    TimedPenalty {
        modifier: -5,
        die: d,
        hours: d,
    }
}

/// Berserk: the bonus to checks of this skill while berserk (+3 Strength and Willpower).
/// The +3 is combat's [`BERSERK_STRENGTH_BONUS`], which the rule gives Willpower too. (Berserk's
/// melee bonus is [`crate::rules::thiz::combat::strength_bonus`]; ignoring wounds is
/// [`crate::rules::thiz::wounds::WoundEffects::none`] and the `berserk` flag of
/// [`crate::rules::thiz::wounds::take_hit`].)
pub fn berserk_check_bonus(skill: SkillKind, berserk: bool) -> i32 {
    if berserk && matches!(skill, SkillKind::Strength | SkillKind::Willpower) {
        BERSERK_STRENGTH_BONUS
    } else {
        0
    }
}

/// The situational quirk bonuses, +3 each when their situation holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    /// Celestial Guidance: navigating in the chosen half of the day, sky visible.
    SkyVisibleInChosenTime,
    /// Street-Smarts: Perception in a city.
    InACity,
    /// Military Background: Fast Talk or Persuasion with friendly rank-and-file soldiers.
    FriendlySoldiers,
    /// Triage Specialist: treating a wound taken from combat.
    CombatWound,
}

/// Military Background: the bonus with friendly rank-and-file soldiers.
pub const MILITARY_BACKGROUND_BONUS: i32 = 3;

/// The bonus a quirk gives to a check of `skill` in `situation`; 0 if it does not apply. The
/// numbers are those of the modules that own the rules: movement's travel (Celestial Guidance,
/// Street-Smarts) and wounds (Triage Specialist).
pub fn quirk_bonus(quirk: Quirk, skill: SkillKind, situation: Situation) -> i32 {
    let (applies, bonus) = match (quirk, situation) {
        (Quirk::CelestialGuidance, Situation::SkyVisibleInChosenTime) => {
            (skill == SkillKind::Navigation, CELESTIAL_GUIDANCE_BONUS)
        }
        (Quirk::StreetSmarts, Situation::InACity) => {
            (skill == SkillKind::Perception, STREET_SMARTS_BONUS)
        }
        (Quirk::MilitaryBackground, Situation::FriendlySoldiers) => (
            matches!(skill, SkillKind::FastTalk | SkillKind::Persuasion),
            MILITARY_BACKGROUND_BONUS,
        ),
        // "First Aid or other checks treating combat wounds": the caller says it is treatment.
        (Quirk::TriageSpecialist, Situation::CombatWound) => (true, TRIAGE_SPECIALIST_BONUS),
        _ => (false, 0),
    };
    if applies { bonus } else { 0 }
}

/// Forgiving Fans / Polarizing Personality: the Fame check needs Black.
pub fn fame_check_succeeds(level: Level) -> bool {
    level == Level::Black
}

/// Why a name is not a weakness or quirk.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TraitError {
    #[error("there is no weakness called \"{0}\"")]
    UnknownWeakness(String),
    #[error("there is no quirk called \"{0}\"")]
    UnknownQuirk(String),
}

impl std::str::FromStr for Weakness {
    type Err = TraitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Weakness::from_name(s).ok_or_else(|| TraitError::UnknownWeakness(s.to_owned()))
    }
}

impl std::str::FromStr for Quirk {
    type Err = TraitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quirk::from_name(s).ok_or_else(|| TraitError::UnknownQuirk(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_quirks_read_their_choice_and_only_it() {
        // thiz-rulebook.md, chapter 4 "Celestial Guidance" (day or night) and "Expert Tracker"
        // (mundane animals, magical creatures or human beings); other quirks take no choice.
        use QuirkChoice as C;
        let cases = [
            (Quirk::CelestialGuidance, "night", Some(C::Night)),
            (Quirk::CelestialGuidance, " Day ", Some(C::Day)),
            (Quirk::CelestialGuidance, "stars", Some(C::Night)),
            (Quirk::CelestialGuidance, "dusk", None),
            (Quirk::CelestialGuidance, "human beings", None),
            (Quirk::ExpertTracker, "Human Beings", Some(C::HumanBeings)),
            (
                Quirk::ExpertTracker,
                "magical creatures",
                Some(C::MagicalCreatures),
            ),
            (Quirk::ExpertTracker, "animals", Some(C::MundaneAnimals)),
            (Quirk::ExpertTracker, "night", None),
            (Quirk::Berserk, "night", None),
        ];
        for (quirk, typed, want) in cases {
            assert_eq!(
                QuirkChoice::parse(quirk, typed),
                want,
                "{quirk:?} {typed:?}"
            );
        }
        assert_eq!(Quirk::Berserk.choices(), &[] as &[QuirkChoice]);
        assert_eq!(
            Quirk::from_entry("Celestial Guidance (night)"),
            Some(Quirk::CelestialGuidance)
        );
        assert_eq!(
            QuirkChoice::of_entry("Expert Tracker (human beings)"),
            Some(C::HumanBeings)
        );
        assert_eq!(QuirkChoice::of_entry("Expert Tracker"), None);
        for (chosen, quarry, applies) in [
            (Some(C::HumanBeings), Some(C::HumanBeings), true),
            (Some(C::HumanBeings), Some(C::MundaneAnimals), false),
            (Some(C::HumanBeings), None, false),
            (None, Some(C::HumanBeings), false),
            (None, None, false),
        ] {
            assert_eq!(
                expert_tracker_applies(chosen, quarry),
                applies,
                "{chosen:?} {quarry:?}"
            );
        }
    }
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn weakness_table_is_complete_and_ordered() {
        // thiz-rulebook.md, chapter 3: 10 General, 8 Mental, 7 Magical weaknesses.
        for (i, w) in WEAKNESSES.iter().enumerate() {
            assert_eq!(w.weakness as usize, i, "{}", w.name);
            assert!(!w.summary.is_empty());
            assert_eq!(Weakness::from_name(w.name), Some(w.weakness));
        }
        let n = |k| WEAKNESSES.iter().filter(|w| w.kind == k).count();
        assert_eq!(n(WeaknessKind::General), 10);
        assert_eq!(n(WeaknessKind::Mental), 8);
        assert_eq!(n(WeaknessKind::Magical), 7);
        assert_eq!(Weakness::Shifty.kind(), WeaknessKind::Mental);
        assert_eq!(Weakness::Unlucky.kind(), WeaknessKind::General);
        assert_eq!("night blind".parse(), Ok(Weakness::NightBlind));
        assert!("clumsy".parse::<Weakness>().is_err());
    }

    #[test]
    fn quirk_table_is_complete_and_ordered() {
        // Chapter 4: 17 quirks.
        for (i, q) in QUIRKS.iter().enumerate() {
            assert_eq!(q.quirk as usize, i, "{}", q.name);
            assert_eq!(Quirk::from_name(q.name), Some(q.quirk));
        }
        assert_eq!("street smarts".parse(), Ok(Quirk::StreetSmarts));
        assert_eq!(
            Quirk::ForgivingFans.info().prerequisites,
            &[Prerequisite::NotWith(Quirk::PolarizingPersonality)]
        );
        assert_eq!(
            Quirk::TrainedForWar.info().prerequisites,
            &[Prerequisite::AnyWeaponSkill]
        );
    }

    #[test]
    fn quirk_costs_follow_chapter_4() {
        // thiz-rulebook.md, chapter 4 "Quirks": 2 points unless a cost is printed above the
        // quirk; five quirks print 5. Decision on QUIRK_COST: chapter 1's flat 5 is not followed.
        let cases = [
            (Quirk::Berserk, 5),
            (Quirk::CelestialGuidance, 2),
            (Quirk::ExoticAccent, 2),
            (Quirk::ExpertTracker, 2),
            (Quirk::ForgivingFans, 2),
            (Quirk::IronConstitution, 2),
            (Quirk::LightTouch, 2),
            (Quirk::LuckEverlasting, 2),
            (Quirk::MarathonRunner, 2),
            (Quirk::MilitaryBackground, 2),
            (Quirk::PolarizingPersonality, 5),
            (Quirk::QuickStudy, 5),
            (Quirk::Sleepless, 5),
            (Quirk::StreetSmarts, 2),
            (Quirk::TrainedForWar, 2),
            (Quirk::TriageSpecialist, 2),
            (Quirk::VoidTouched, 5),
        ];
        assert_eq!(cases.len(), QUIRKS.len(), "every quirk is listed");
        for (quirk, cost) in cases {
            assert_eq!(quirk.cost(), cost, "{quirk}");
        }
    }

    #[test]
    fn unlucky_flags_98_to_100() {
        // Chapter 3, "Unlucky": 98..100 on any check.
        for (roll, want) in [(1, false), (97, false), (98, true), (100, true)] {
            assert_eq!(unlucky_mishap(true, roll), want, "{roll}");
            assert!(!unlucky_mishap(false, roll));
        }
    }

    #[test]
    fn shifty_lowers_but_keeps_green() {
        // Chapter 3, "Shifty"; rules/README.md "Level order".
        let cases = [
            (Level::Black, Level::Red),
            (Level::Red, Level::Yellow),
            (Level::Yellow, Level::Green),
            (Level::Green, Level::Green),
            (Level::Failure, Level::Failure),
        ];
        for (from, to) in cases {
            assert_eq!(shifty_level(from), to);
        }
        assert!(shifty_applies(SkillKind::Seduce));
        assert!(!shifty_applies(SkillKind::Scrutiny));
    }

    #[test]
    fn numeric_weaknesses() {
        // Chapter 3: Light Touch 98 vs 96; Phobia -2 unless Berserk. (Weak Constitution,
        // Missing Limb and Night-Blind are tested where they are applied.)
        assert_eq!(pocket_picking_detection_roll(false), 96);
        assert_eq!(pocket_picking_detection_roll(true), 98);
        assert_eq!(phobia_combat_modifier(true, false), -2);
        assert_eq!(phobia_combat_modifier(true, true), 0);
    }

    #[test]
    fn physical_dependence() {
        // Chapter 3, "Physically Dependent": more than 3 days → -1, +1 every 2 days; 11 days is
        // -5, which leaves Toughness 2 lower; recovery 2 a day.
        let cases = [
            (0, 0),
            (3, 0),
            (4, -1),
            (5, -2),
            (6, -2),
            (7, -3),
            (9, -4),
            (11, -5),
        ];
        for (days, want) in cases {
            assert_eq!(dependence_penalty(days), want, "{days} days");
        }
        assert_eq!(dependence_toughness_loss(-5), -2);
        assert_eq!(dependence_toughness_loss(-3), 0);
        assert_eq!(dependence_toughness_loss(-4), -1);
        assert_eq!(dependence_recovery(-5, 2), -1);
        assert_eq!(dependence_recovery(-5, 3), 0);
    }

    #[test]
    fn timed_penalties_roll_their_dice() {
        let mut d = ScriptedDice::new([6, 8, 3, 10, 1]);
        assert_eq!(compulsion_penalty(&mut d).hours, 6);
        assert_eq!(dependent_penalty(&mut d).hours, 8);
        assert_eq!(restless_sleep_penalty(&mut d).modifier, -2);
        assert_eq!(allergy_rash(&mut d).hours, 10);
        assert_eq!(allergy_swollen_eyes(&mut d).modifier, -5);
    }

    #[test]
    fn quirk_numbers() {
        // Chapter 4: Berserk +3; situational +3s; Fame checks need Black. (Berserk's melee
        // bonus, Trained for War, Iron Constitution, Marathon Runner, Quick Study and
        // Void-Touched are tested where they are applied.)
        assert_eq!(berserk_check_bonus(SkillKind::Strength, true), 3);
        assert_eq!(berserk_check_bonus(SkillKind::Willpower, true), 3);
        assert_eq!(berserk_check_bonus(SkillKind::Speed, true), 0);
        assert_eq!(berserk_check_bonus(SkillKind::Strength, false), 0);
        let s = Situation::InACity;
        assert_eq!(
            quirk_bonus(Quirk::StreetSmarts, SkillKind::Perception, s),
            3
        );
        assert_eq!(quirk_bonus(Quirk::StreetSmarts, SkillKind::Scrutiny, s), 0);
        let sky = Situation::SkyVisibleInChosenTime;
        assert_eq!(
            quirk_bonus(Quirk::CelestialGuidance, SkillKind::Navigation, sky),
            3
        );
        let mil = Situation::FriendlySoldiers;
        assert_eq!(
            quirk_bonus(Quirk::MilitaryBackground, SkillKind::FastTalk, mil),
            3
        );
        assert_eq!(
            quirk_bonus(Quirk::MilitaryBackground, SkillKind::Seduce, mil),
            0
        );
        let cw = Situation::CombatWound;
        assert_eq!(
            quirk_bonus(Quirk::TriageSpecialist, SkillKind::FirstAid, cw),
            3
        );
        assert_eq!(
            quirk_bonus(Quirk::StreetSmarts, SkillKind::Perception, cw),
            0
        );
        assert_eq!(
            quirk_bonus(Quirk::MilitaryBackground, SkillKind::Persuasion, mil),
            3
        );
        assert!(fame_check_succeeds(Level::Black));
        assert!(!fame_check_succeeds(Level::Red));
    }
}
