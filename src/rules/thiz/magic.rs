//! Magic: learning a Magic Skill, manifesting an effect at a target level, extended casting and
//! Terror (THIZ rulebook, chapter 7, with the Void-Touched quirk), and the numbers chapter 2 gives
//! particular Magic Skills: Necromancy's price, Psychokinesis's throws and pushes, Reiki's healing
//! and strikes, Mentalism's wounds of the mind.
//!
//! Owns the numbers and rolls of those rules. The example effects of each Magic Skill and what
//! they do belong to the skills chapter and the referee; this module only needs the level an
//! effect requires. Summoning's maddened creature is `skills::special::summoning_backfires`.
//! Must never do I/O nor roll through anything but the [`DieSource`] it is given.

use thiserror::Error;

use super::advancement::{NEW_SKILL_COST, NEW_SKILL_RATING, Pace, Study, StudyTime, study_time};
use super::hazards::ChartRoll;
use super::wounds::LocationWounds;
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating};

/// A mistake in what was asked of a magic rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MagicError {
    #[error("a magical effect needs a Green, Yellow, Red or Black success, not Failure")]
    NoTargetLevel,
    #[error("a tutor needs a rating of at least 7 in the Magic Skill; this one has {0}")]
    TutorTooWeak(i32),
    #[error("only one Magic Skill can be studied at a time")]
    AlreadyStudying,
    #[error("a Void-Touched character cannot learn Magic Skills")]
    VoidTouched,
}

// ---------------------------------------------------------------------------------------------
// Learning
// ---------------------------------------------------------------------------------------------

/// A tutor of a Magic Skill needs at least this rating in it.
pub const MAGIC_TUTOR_MIN_RATING: i32 = 7;

/// What learning a new Magic Skill costs and gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagicApprenticeship {
    /// Skill points spent.
    pub cost: u32,
    pub study: StudyTime,
    /// The rating held when the study ends.
    pub starting_rating: i32,
    /// Mental or Magical weaknesses the character must take on (always one).
    pub new_weaknesses: u32,
}

/// What about the student matters to learning a Magic Skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Student {
    /// Already studying another Magic Skill (only one at a time).
    pub already_studying_magic: bool,
    /// Has the Void-Touched quirk (cannot learn magic).
    pub void_touched: bool,
    /// Full time, or on the road (a third more time).
    pub pace: Pace,
    /// Has the Quick Study quirk: a third less time.
    pub quick_study: bool,
}

/// The terms of learning a new Magic Skill from a tutor with `tutor_rating` in it.
pub fn learn_magic_skill(
    tutor_rating: i32,
    student: Student,
) -> Result<MagicApprenticeship, MagicError> {
    if student.void_touched {
        return Err(MagicError::VoidTouched);
    }
    if tutor_rating < MAGIC_TUTOR_MIN_RATING {
        return Err(MagicError::TutorTooWeak(tutor_rating));
    }
    if student.already_studying_magic {
        return Err(MagicError::AlreadyStudying);
    }
    Ok(MagicApprenticeship {
        cost: NEW_SKILL_COST,
        study: study_time(Study::NewMagicSkill, student.pace, student.quick_study),
        starting_rating: NEW_SKILL_RATING,
        new_weaknesses: 1,
    })
}

// ---------------------------------------------------------------------------------------------
// Manifesting an effect
// ---------------------------------------------------------------------------------------------

/// The Void-Touched quirk: this penalty to manifest magic near such a character...
pub const VOID_TOUCHED_PENALTY: i32 = 2;
/// ...within this many feet.
pub const VOID_TOUCHED_RANGE_FEET: u32 = 20;

/// One attempt to manifest an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Manifestation {
    pub skill: i32,
    /// 2 when a Void-Touched character stands within 20 feet, else 0.
    pub void_penalty: i32,
    pub check: ChartRoll,
    pub required: Level,
    /// True when the check reached the required level.
    pub manifested: bool,
}

/// Whether a Void-Touched character `distance_ft` away is near enough to hinder magic (20 feet
/// or less).
pub fn void_touched_in_range(distance_ft: u32) -> bool {
    distance_ft <= VOID_TOUCHED_RANGE_FEET
}

/// The rating a Magic Skill is checked at to manifest an effect.
pub fn casting_rating(skill: i32, void_touched_nearby: bool) -> Rating {
    Rating(skill.saturating_sub(void_penalty(void_touched_nearby)))
}

/// The Void-Touched penalty: 2 when such a character is within 20 feet, else 0.
pub fn void_penalty(void_touched_nearby: bool) -> i32 {
    if void_touched_nearby {
        VOID_TOUCHED_PENALTY
    } else {
        0
    }
}

/// Try to manifest an effect that needs `required`: a check against the Magic Skill.
pub fn manifest(
    skill: i32,
    required: Level,
    void_touched_nearby: bool,
    dice: &mut impl DieSource,
) -> Result<Manifestation, MagicError> {
    if !required.is_success() {
        return Err(MagicError::NoTargetLevel);
    }
    let check = ChartRoll::roll(casting_rating(skill, void_touched_nearby), dice);
    Ok(Manifestation {
        skill,
        void_penalty: void_penalty(void_touched_nearby),
        check,
        required,
        manifested: check.level >= required,
    })
}

/// Every attempt at a Necromancy spell, whatever its level, costs the caster a wound of this
/// colour (skills chapter, "Necromancy").
pub const NECROMANCY_WOUND: Level = Level::Green;
/// A Summoning check rolling this or more angers what was summoned, which turns on the Summoner
/// (skills chapter, "Summoning").
pub const SUMMONING_BACKFIRE_ROLL: u32 = 96;

/// Whether a Summoning check's d100 `roll` brings a maddened creature down on the Summoner,
/// whatever the level it earned.
pub fn summoning_backfires(roll: u32) -> bool {
    roll >= SUMMONING_BACKFIRE_ROLL
}

// ---------------------------------------------------------------------------------------------
// Extended casting
// ---------------------------------------------------------------------------------------------

/// Each further check after the first costs this many percent more reagent.
pub const EXTRA_REAGENT_PERCENT: u32 = 25;

/// Percent of the normal reagent an extended casting of `checks` checks has used (100 for one).
pub fn reagent_percent(checks: u32) -> u32 {
    100u32.saturating_add(EXTRA_REAGENT_PERCENT.saturating_mul(checks.saturating_sub(1)))
}

/// A spell being built up over several checks: two results of one level make one of the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtendedCasting {
    pub required: Level,
    /// Partial results held, counted by level index (Failure's slot stays 0).
    pub held: [u32; 5],
    pub checks: u32,
    pub cast: bool,
}

/// Where an extended casting stands after one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastingStep {
    pub level: Level,
    /// Pairs merged after this check, as the level each pair became (lowest first).
    pub merged_into: Merges,
    /// Partial results held afterwards, by level index.
    pub held: [u32; 5],
    pub checks: u32,
    /// Reagent used so far, in percent of one casting.
    pub reagent_percent: u32,
    pub cast: bool,
}

/// A short list of levels (merges from one check never exceed four: Green up to Black).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Merges {
    levels: [Option<Level>; 4],
}

impl Merges {
    fn push(&mut self, level: Level) {
        if let Some(slot) = self.levels.iter_mut().find(|s| s.is_none()) {
            *slot = Some(level);
        }
    }

    /// The levels in order.
    pub fn iter(&self) -> impl Iterator<Item = Level> + '_ {
        self.levels.iter().flatten().copied()
    }
}

/// Why an extended casting lost its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// Concentration broken.
    Concentration,
    /// Reagent ran out or the focus was lost.
    Reagent,
    /// Wounded and failed the Willpower check.
    Wound,
}

/// The Willpower check after a wound during an extended casting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WoundConcentration {
    pub check: ChartRoll,
    /// True when the check failed and the progress is lost.
    pub progress_lost: bool,
}

impl ExtendedCasting {
    /// Begin building up a spell that needs `required`.
    pub fn new(required: Level) -> Result<ExtendedCasting, MagicError> {
        if !required.is_success() {
            return Err(MagicError::NoTargetLevel);
        }
        Ok(ExtendedCasting {
            required,
            held: [0; 5],
            checks: 0,
            cast: false,
        })
    }

    /// Count one check's result and merge pairs upward until the required level is reached.
    // Decision: a Failure adds nothing but does not wipe what is held; the rulebook names only
    // broken concentration, lost reagent or focus, and a failed Willpower check after a wound as
    // losing progress.
    pub fn record(&mut self, level: Level) -> CastingStep {
        self.checks = self.checks.saturating_add(1);
        let mut merged_into = Merges::default();
        if !self.cast && level.is_success() {
            if level >= self.required {
                self.cast = true;
            } else {
                self.held[level.index()] += 1;
                // Only levels below the required one merge; reaching the required one casts.
                let mut lvl = Level::Green;
                while lvl < self.required {
                    let i = lvl.index();
                    if self.held[i] >= 2 {
                        self.held[i] -= 2;
                        let up = lvl.higher();
                        merged_into.push(up);
                        if up >= self.required {
                            self.cast = true;
                            break;
                        }
                        self.held[up.index()] += 1;
                    }
                    // lvl < required <= Black, so this always climbs.
                    lvl = lvl.higher();
                }
            }
        }
        CastingStep {
            level,
            merged_into,
            held: self.held,
            checks: self.checks,
            reagent_percent: reagent_percent(self.checks),
            cast: self.cast,
        }
    }

    /// Roll one check against the Magic Skill and count it.
    pub fn check(
        &mut self,
        skill: i32,
        void_touched_nearby: bool,
        dice: &mut impl DieSource,
    ) -> (ChartRoll, CastingStep) {
        let roll = ChartRoll::roll(casting_rating(skill, void_touched_nearby), dice);
        (roll, self.record(roll.level))
    }

    /// Lose all progress (the checks made and reagent spent stay spent).
    pub fn interrupt(&mut self, _why: Interruption) {
        if !self.cast {
            self.held = [0; 5];
        }
    }

    /// A wound during an extended casting in combat: a Willpower check, and on a failure the
    /// progress is lost.
    pub fn wounded(&mut self, willpower: Rating, dice: &mut impl DieSource) -> WoundConcentration {
        let check = ChartRoll::roll(willpower, dice);
        let progress_lost = !check.level.is_success();
        if progress_lost {
            self.interrupt(Interruption::Wound);
        }
        WoundConcentration {
            check,
            progress_lost,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Terror
// ---------------------------------------------------------------------------------------------

/// The penalty on every check while filled with Terror.
pub const TERROR_CHECK_PENALTY: i32 = 3;

/// The Willpower penalty for witnessing an effect that needed `required`: 1 for Green up to 4
/// for Black (0 for Failure, which no effect needs).
pub fn terror_penalty(required: Level) -> i32 {
    required.index() as i32
}

/// A check against Terror.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrorCheck {
    pub willpower: i32,
    pub penalty: i32,
    pub check: ChartRoll,
    /// When the check failed: the d4 rolled and the turns of Terror (1 + d4).
    pub terror: Option<Terror>,
}

/// A spell of Terror.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terror {
    pub d4: u32,
    pub turns: u32,
    /// The penalty on all checks until it ends.
    pub check_penalty: i32,
}

/// Check Willpower after witnessing an effect that needed `required`.
pub fn terror_check(
    willpower: i32,
    required: Level,
    dice: &mut impl DieSource,
) -> Result<TerrorCheck, MagicError> {
    if !required.is_success() {
        return Err(MagicError::NoTargetLevel);
    }
    let penalty = terror_penalty(required);
    let check = ChartRoll::roll(Rating(willpower.saturating_sub(penalty)), dice);
    let terror = (!check.level.is_success()).then(|| {
        let d4 = dice.roll(4);
        Terror {
            d4,
            turns: 1 + d4,
            check_penalty: TERROR_CHECK_PENALTY,
        }
    });
    Ok(TerrorCheck {
        willpower,
        penalty,
        check,
        terror,
    })
}

/// The extra Willpower check a terrified character makes to approach or target the source.
// Decision: the Terror's -3 applies to all checks, and this is a check, so it applies here too.
pub fn terror_approach_check(willpower: i32, dice: &mut impl DieSource) -> ChartRoll {
    ChartRoll::roll(Rating(willpower.saturating_sub(TERROR_CHECK_PENALTY)), dice)
}

// ---------------------------------------------------------------------------------------------
// The Magic Skills of chapter 2 that carry numbers
// ---------------------------------------------------------------------------------------------

/// A check made against a Magic Skill less the target's own rating ("Mentalism - target's
/// Willpower"), as chapter 2 writes several of them.
pub fn opposed_rating(skill: i32, targets_rating: i32) -> Rating {
    Rating(skill.saturating_sub(targets_rating))
}

/// A wound equal to a check's level of success: Green to Black; none on a failure. Mentalism's
/// and Reiki's attacks wound this way.
pub fn wound_of_level(level: Level) -> Option<Level> {
    level.is_success().then_some(level)
}

/// Necromancy: every attempt to cast, whatever its result, leaves the caster a Green wound
/// (chapter 2, "Necromancy").
pub const NECROMANCY_CASTING_WOUND: Level = Level::Green;

/// The wound a Necromancy check costs the caster: Green for any result, success or failure.
pub fn necromancy_casting_wound(_result: Level) -> Level {
    NECROMANCY_CASTING_WOUND
}

/// Psychokinesis: the bonus its practitioners get to every check to attack with a thrown weapon.
pub const PSYCHOKINESIS_THROWN_BONUS: i32 = 2;

/// Psychokinesis: the bonus to an attack check, for a character with `psychokinesis` (their
/// rating, if they have the skill) attacking with a thrown weapon or not.
// Decision: "characters with this skill" means a rating of at least 1; a Magic Skill cannot be
// used at all until it is learned, so a general Magical rating gives no bonus.
pub fn psychokinesis_attack_bonus(psychokinesis: Option<i32>, thrown: bool) -> i32 {
    if thrown && psychokinesis.is_some_and(|r| r >= 1) {
        PSYCHOKINESIS_THROWN_BONUS
    } else {
        0
    }
}

/// Psychokinesis: the change of momentum, in foot-pounds per second, a check achieves: 50, 100,
/// 200 or 400 for Green to Black; `None` on a failure.
pub fn psychokinesis_momentum(level: Level) -> Option<u32> {
    level.index().checked_sub(1).map(|i| [50, 100, 200, 400][i])
}

/// Psychokinesis: the rating to move or stop something; a moving target takes its Speed off.
pub fn psychokinesis_rating(psychokinesis: i32, target_speed: Option<i32>) -> Rating {
    opposed_rating(psychokinesis, target_speed.unwrap_or(0))
}

/// Reiki healing: the wound a check of `level` heals on the declared section, one wound of the
/// level's colour or lower; `None` when the check failed or nothing there is light enough.
// Decision: where several wounds qualify (a Yellow success on a section with a Yellow and a
// Green), the most severe one is healed: the healer would choose it.
pub fn reiki_heals(level: Level, section: &LocationWounds) -> Option<Level> {
    if !level.is_success() {
        return None;
    }
    Level::ALL
        .into_iter()
        .rev()
        .filter(|&l| l.is_success() && l <= level)
        .find(|&l| section.has(l))
}

/// Reiki strike: after an Unarmed Combat hit, a check against Reiki less the target's Toughness.
pub fn reiki_strike_rating(reiki: i32, target_toughness: i32) -> Rating {
    opposed_rating(reiki, target_toughness)
}

/// Mentalism in combat: a check against Mentalism less the target's Willpower.
pub fn mentalism_rating(mentalism: i32, target_willpower: i32) -> Rating {
    opposed_rating(mentalism, target_willpower)
}

/// A Mentalism wound: felt like any other wound until the victim has rested out of combat for
/// 10 + 1d10 minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MindWound {
    /// The colour, equal to the check's level (on a section the caster chooses).
    pub level: Level,
    /// The d10 rolled and the minutes of rest that end it.
    pub d10: u32,
    pub rest_minutes: u32,
}

/// Mentalism's wound from a check of `level`: `None` on a failure, otherwise the wound and the
/// rest (10 + 1d10 minutes, rolled here) that lifts it.
pub fn mentalism_wound(level: Level, dice: &mut impl DieSource) -> Option<MindWound> {
    let level = wound_of_level(level)?;
    let d10 = dice.roll(10);
    Some(MindWound {
        level,
        d10,
        rest_minutes: 10 + d10,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::thiz::chart::row;

    fn face(rating: i32, level: Level) -> u32 {
        row(Rating(rating)).threshold(level).unwrap_or(100)
    }

    #[test]
    fn bertold_extended_casting_worked_example() {
        // thiz-rulebook.md, "Extended Casting": Bertold needs Red; Green, then Yellow (not yet),
        // then Green: two Greens make a Yellow, two Yellows a Red, and the spell is cast.
        let mut spell = ExtendedCasting::new(Level::Red).unwrap();
        let first = spell.record(Level::Green);
        assert!(!first.cast);
        assert_eq!(first.held, [0, 1, 0, 0, 0]);
        let second = spell.record(Level::Yellow);
        assert!(!second.cast);
        assert_eq!(second.held, [0, 1, 1, 0, 0]);
        let third = spell.record(Level::Green);
        assert!(third.cast);
        assert_eq!(
            third.merged_into.iter().collect::<Vec<_>>(),
            [Level::Yellow, Level::Red]
        );
        assert_eq!(third.checks, 3);
        // Two further checks beyond the first: 25% more reagent each.
        assert_eq!(third.reagent_percent, 150);
    }

    #[test]
    fn bertold_with_rolled_dice() {
        // The same example rolled: Artifice 4 against a Red target.
        let mut dice = ScriptedDice::new([
            face(4, Level::Green),
            face(4, Level::Yellow),
            face(4, Level::Green),
        ]);
        let mut spell = ExtendedCasting::new(Level::Red).unwrap();
        let results: Vec<bool> = (0..3)
            .map(|_| spell.check(4, false, &mut dice).1.cast)
            .collect();
        assert_eq!(results, [false, false, true]);
    }

    #[test]
    fn one_check_at_or_above_the_target_casts_at_once() {
        // thiz-rulebook.md, "Manifesting Magical Effects": reaching the target level succeeds.
        for (required, level, cast) in [
            (Level::Red, Level::Yellow, false),
            (Level::Red, Level::Red, true),
            (Level::Red, Level::Black, true),
            (Level::Green, Level::Green, true),
            (Level::Green, Level::Failure, false),
        ] {
            let mut spell = ExtendedCasting::new(required).unwrap();
            assert_eq!(spell.record(level).cast, cast, "{level:?} for {required:?}");
        }
    }

    #[test]
    fn extended_casting_matches_a_binary_sum() {
        // "Two of a level make one of the next" means a spell is cast exactly when the results
        // add up to the target's worth, counting Green 1, Yellow 2, Red 4, Black 8. Check every
        // sequence of up to six checks against that independent count.
        fn worth(level: Level) -> u32 {
            match level {
                Level::Failure => 0,
                Level::Green => 1,
                Level::Yellow => 2,
                Level::Red => 4,
                Level::Black => 8,
            }
        }
        for required in [Level::Green, Level::Yellow, Level::Red, Level::Black] {
            for code in 0..5u32.pow(6) {
                let mut spell = ExtendedCasting::new(required).unwrap();
                let mut sum = 0;
                let mut c = code;
                for _ in 0..6 {
                    let level = Level::ALL[(c % 5) as usize];
                    c /= 5;
                    sum += worth(level);
                    let step = spell.record(level);
                    assert_eq!(
                        step.cast,
                        sum >= worth(required),
                        "{required:?} code {code}"
                    );
                }
            }
        }
    }

    #[test]
    fn failures_keep_progress_but_interruptions_lose_it() {
        // thiz-rulebook.md, "Extended Casting": broken concentration, lost reagent or a failed
        // Willpower check after a wound lose all progress.
        let mut spell = ExtendedCasting::new(Level::Yellow).unwrap();
        spell.record(Level::Green);
        spell.record(Level::Failure);
        assert_eq!(spell.held[Level::Green.index()], 1);
        spell.interrupt(Interruption::Concentration);
        assert_eq!(spell.held, [0; 5]);
        assert!(!spell.record(Level::Green).cast);

        // A wound: a Willpower success keeps progress, a failure loses it.
        let mut dice = ScriptedDice::new([face(2, Level::Green), face(2, Level::Green) + 1]);
        let kept = spell.wounded(Rating(2), &mut dice);
        assert!(!kept.progress_lost);
        assert_eq!(spell.held[Level::Green.index()], 1);
        let lost = spell.wounded(Rating(2), &mut dice);
        assert!(lost.progress_lost);
        assert_eq!(spell.held, [0; 5]);
    }

    #[test]
    fn reagent_grows_a_quarter_per_extra_check() {
        // thiz-rulebook.md, "Extended Casting": 25% more reagent for each additional check.
        assert_eq!(reagent_percent(0), 100);
        assert_eq!(reagent_percent(1), 100);
        assert_eq!(reagent_percent(2), 125);
        assert_eq!(reagent_percent(5), 200);
    }

    #[test]
    fn failure_is_no_target() {
        assert_eq!(
            ExtendedCasting::new(Level::Failure),
            Err(MagicError::NoTargetLevel)
        );
        let mut dice = ScriptedDice::new([]);
        assert_eq!(
            manifest(3, Level::Failure, false, &mut dice),
            Err(MagicError::NoTargetLevel)
        );
        assert_eq!(
            terror_check(3, Level::Failure, &mut dice),
            Err(MagicError::NoTargetLevel)
        );
    }

    #[test]
    fn manifesting_and_void_touched() {
        // thiz-rulebook.md, "Manifesting Magical Effects" and "Void-Touched" (-2 within 20 ft).
        assert_eq!(casting_rating(5, false), Rating(5));
        assert_eq!(casting_rating(5, true), Rating(3));
        assert!(void_touched_in_range(20));
        assert!(!void_touched_in_range(21));
        let mut dice = ScriptedDice::new([face(3, Level::Red), face(3, Level::Red) + 1]);
        let hit = manifest(5, Level::Red, true, &mut dice).unwrap();
        assert!(hit.manifested);
        assert_eq!((hit.check.rating, hit.void_penalty), (Rating(3), 2));
        assert!(!manifest(5, Level::Red, true, &mut dice).unwrap().manifested);
    }

    #[test]
    fn learning_a_magic_skill() {
        // thiz-rulebook.md, "Learning New Magic Skills": 5 points, a tutor of 7+, six months,
        // one at a time, rating 1, a new weakness; Void-Touched cannot learn magic.
        let plain = Student::default();
        let terms = learn_magic_skill(7, plain).unwrap();
        assert_eq!(
            (
                terms.cost,
                terms.study.total_days,
                terms.starting_rating,
                terms.new_weaknesses
            ),
            (5, 180, 1, 1)
        );
        assert_eq!(
            learn_magic_skill(6, plain),
            Err(MagicError::TutorTooWeak(6))
        );
        assert_eq!(
            learn_magic_skill(
                9,
                Student {
                    already_studying_magic: true,
                    ..plain
                }
            ),
            Err(MagicError::AlreadyStudying)
        );
        assert_eq!(
            learn_magic_skill(
                9,
                Student {
                    void_touched: true,
                    ..plain
                }
            ),
            Err(MagicError::VoidTouched)
        );
        let road = learn_magic_skill(
            9,
            Student {
                pace: Pace::OnTheRoad,
                ..plain
            },
        )
        .unwrap();
        assert_eq!(road.study.total_days, 240);
    }

    #[test]
    fn summoning_backfires_from_ninety_six() {
        // Skills chapter, "Summoning": a 96-100 on the check maddens what was summoned.
        assert!(!summoning_backfires(95));
        assert!(summoning_backfires(96));
        assert!(summoning_backfires(100));
        assert_eq!(NECROMANCY_WOUND, Level::Green);
    }

    #[test]
    fn terror_penalty_and_duration() {
        // thiz-rulebook.md, "Terror": -1 to -4 for Green to Black; a failure brings 1+1d4 turns
        // at -3 to all checks.
        let penalties: Vec<i32> = Level::ALL.into_iter().map(terror_penalty).collect();
        assert_eq!(penalties, [0, 1, 2, 3, 4]);

        let mut dice = ScriptedDice::new([face(1, Level::Green), face(1, Level::Green) + 1, 4]);
        let brave = terror_check(5, Level::Black, &mut dice).unwrap();
        assert_eq!(brave.check.rating, Rating(1));
        assert_eq!(brave.terror, None);
        let scared = terror_check(5, Level::Black, &mut dice).unwrap();
        assert_eq!(
            scared.terror,
            Some(Terror {
                d4: 4,
                turns: 5,
                check_penalty: 3
            })
        );
        let mut dice = ScriptedDice::new([50]);
        assert_eq!(terror_approach_check(4, &mut dice).rating, Rating(1));
    }

    #[test]
    fn necromancy_always_costs_a_green_wound() {
        // thiz-rulebook.md, chapter 2 "Necromancy": any casting, regardless of success.
        for level in Level::ALL {
            assert_eq!(necromancy_casting_wound(level), Level::Green, "{level}");
        }
    }

    #[test]
    fn psychokinesis_throws_and_pushes() {
        // thiz-rulebook.md, chapter 2 "Psychokinesis": +2 to thrown-weapon attacks for those
        // with the skill; 50/100/200/400 ft-lb/s for Green to Black; less the Speed of a moving
        // target.
        let bonus = [
            (Some(1), true, 2),
            (Some(0), true, 0),
            (None, true, 0),
            (Some(9), false, 0),
        ];
        for (rating, thrown, want) in bonus {
            assert_eq!(
                psychokinesis_attack_bonus(rating, thrown),
                want,
                "{rating:?} {thrown}"
            );
        }
        let momentum: Vec<Option<u32>> =
            Level::ALL.into_iter().map(psychokinesis_momentum).collect();
        assert_eq!(momentum, [None, Some(50), Some(100), Some(200), Some(400)]);
        assert_eq!(psychokinesis_rating(6, None), Rating(6));
        assert_eq!(psychokinesis_rating(6, Some(4)), Rating(2));
    }

    #[test]
    fn reiki_heals_one_wound_up_to_its_level() {
        // thiz-rulebook.md, chapter 2 "Reiki": one wound of the level's colour or lower (a
        // Yellow heals a Yellow or a Green); the most severe such wound (decision above).
        let section = |greens, yellow, red| LocationWounds {
            greens,
            yellow,
            red,
            black: false,
        };
        let cases = [
            (Level::Failure, section(1, false, false), None),
            (Level::Green, section(1, false, false), Some(Level::Green)),
            (Level::Green, section(0, true, false), None),
            (Level::Yellow, section(0, true, false), Some(Level::Yellow)),
            (Level::Yellow, section(2, true, false), Some(Level::Yellow)),
            (Level::Yellow, section(2, false, true), Some(Level::Green)),
            (Level::Red, section(0, false, true), Some(Level::Red)),
            (Level::Black, section(0, false, false), None),
        ];
        for (level, wounds, want) in cases {
            assert_eq!(reiki_heals(level, &wounds), want, "{level} on {wounds:?}");
        }
    }

    #[test]
    fn reiki_and_mentalism_wound_by_level_against_the_targets_rating() {
        // thiz-rulebook.md, chapter 2 "Reiki" (Reiki - target's Toughness) and "Mentalism"
        // (Mentalism - target's Willpower): a wound equal to the level; Mentalism's lasts until
        // 10 + 1d10 minutes of rest.
        assert_eq!(reiki_strike_rating(5, 3), Rating(2));
        assert_eq!(reiki_strike_rating(3, 5), Rating(-2));
        assert_eq!(mentalism_rating(7, 7), Rating(0));
        for level in Level::ALL {
            let want = (level != Level::Failure).then_some(level);
            assert_eq!(wound_of_level(level), want, "{level}");
        }
        let mut dice = ScriptedDice::new([1, 10]);
        assert_eq!(mentalism_wound(Level::Failure, &mut dice), None);
        let low = mentalism_wound(Level::Red, &mut dice).unwrap();
        assert_eq!((low.level, low.d10, low.rest_minutes), (Level::Red, 1, 11));
        let high = mentalism_wound(Level::Green, &mut dice).unwrap();
        assert_eq!((high.level, high.rest_minutes), (Level::Green, 20));
        // Through the chart: Mentalism 7 against Willpower 3 reads the rating 4 row.
        let mut dice = ScriptedDice::new([face(4, Level::Yellow), 5]);
        let check = ChartRoll::roll(mentalism_rating(7, 3), &mut dice);
        let wound = mentalism_wound(check.level, &mut dice).unwrap();
        assert_eq!((wound.level, wound.rest_minutes), (Level::Yellow, 15));
    }
}
