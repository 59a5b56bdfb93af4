//! Advancement and time between adventures: skill points from a session, what they buy, tutors
//! and Specials, study time, weekly work for pay, and crafting (THIZ rulebook, chapter 10, and
//! the Quick Study and Sleepless quirks).
//!
//! Owns the arithmetic and the rolls; the character sheet is the caller's. Luck (also in
//! chapter 10) is not here: the luck module owns it. Must never do I/O nor roll through anything
//! but the [`DieSource`] it is given.

use thiserror::Error;

use super::hazards::ChartRoll;
use super::skills::SkillId;
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating};

/// A mistake in the numbers given to an advancement rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AdvancementError {
    #[error("a moderate use of a skill earns 2, 3 or 4 points; you gave {0}")]
    ModerateOutOfRange(u32),
    #[error("a skill can only be raised to a higher rating; it is {from} and you asked for {to}")]
    NotARaise { from: i32, to: i32 },
    #[error("no skill can be raised above {max}; you asked for {0}", max = MAX_SKILL)]
    AboveMaximum(i32),
    #[error("a crafting target score must be at least 1; you gave {0}")]
    TargetTooLow(i32),
    #[error("a crafting target score must be at most {max}; you gave {0}", max = MAX_CRAFT_TARGET)]
    TargetTooHigh(i32),
}

// ---------------------------------------------------------------------------------------------
// Skill points from a session
// ---------------------------------------------------------------------------------------------

/// Points for turning up to the session.
pub const ATTENDANCE_POINTS: u32 = 1;
/// The most points one session can give.
pub const MAX_SESSION_POINTS: u32 = 10;
/// Points for a skill used once or twice.
pub const LIGHT_USE_POINTS: u32 = 1;
/// Points for a skill used heavily.
pub const HEAVY_USE_POINTS: u32 = 5;
/// Points for succeeding with a skill the character is not trained in.
pub const UNTRAINED_SUCCESS_POINTS: u32 = 2;

/// How much one skill was used in a session, as the referee judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillUse {
    /// Used once or twice.
    Light,
    /// Used between the extremes: the referee gives 2, 3 or 4.
    Moderate(u32),
    /// A horde of Mooks, a sea crossed and recrossed.
    Heavy,
    /// Succeeded at a skill the character has no training in.
    UntrainedSuccess,
}

impl SkillUse {
    fn points(self) -> Result<u32, AdvancementError> {
        match self {
            SkillUse::Light => Ok(LIGHT_USE_POINTS),
            SkillUse::Moderate(n @ 2..=4) => Ok(n),
            SkillUse::Moderate(n) => Err(AdvancementError::ModerateOutOfRange(n)),
            SkillUse::Heavy => Ok(HEAVY_USE_POINTS),
            SkillUse::UntrainedSuccess => Ok(UNTRAINED_SUCCESS_POINTS),
        }
    }
}

/// The skill points a session gives, with its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionAward {
    pub attendance: u32,
    /// Points per skill use listed, in order.
    pub per_use: Vec<u32>,
    /// Everything added before the cap.
    pub uncapped: u32,
    /// What the character receives: at most [`MAX_SESSION_POINTS`].
    pub total: u32,
}

/// Skill points at the end of a session: one for attending, plus one award per skill used,
/// at most ten in all.
pub fn session_award(attended: bool, uses: &[SkillUse]) -> Result<SessionAward, AdvancementError> {
    let per_use = uses
        .iter()
        .map(|u| u.points())
        .collect::<Result<Vec<_>, _>>()?;
    let attendance = if attended { ATTENDANCE_POINTS } else { 0 };
    let uncapped = per_use
        .iter()
        .fold(attendance, |sum, p| sum.saturating_add(*p));
    Ok(SessionAward {
        attendance,
        per_use,
        uncapped,
        total: uncapped.min(MAX_SESSION_POINTS),
    })
}

// ---------------------------------------------------------------------------------------------
// Spending skill points
// ---------------------------------------------------------------------------------------------

/// Points to learn a new skill (mundane or magic) after creation.
pub const NEW_SKILL_COST: u32 = 5;
/// The rating a newly learnt skill starts at.
pub const NEW_SKILL_RATING: i32 = 1;
/// The best rating a person can reach in a skill (chapter 1).
pub const MAX_SKILL: i32 = 30;

/// Skill points to raise a known skill from `from` to `to`: one point per rating.
pub fn raise_cost(from: i32, to: i32) -> Result<u32, AdvancementError> {
    if to <= from {
        return Err(AdvancementError::NotARaise { from, to });
    }
    if to > MAX_SKILL {
        return Err(AdvancementError::AboveMaximum(to));
    }
    Ok(to.abs_diff(from))
}

// ---------------------------------------------------------------------------------------------
// Tutors, Specials and study time
// ---------------------------------------------------------------------------------------------

/// A tutor needs at least this rating in the skill taught.
pub const TUTOR_MIN_RATING: i32 = 7;
/// The usual bonus a Special gives to its narrow use of a skill.
pub const SPECIAL_BONUS: i32 = 3;
/// Days in a month of study.
pub const DAYS_PER_MONTH: u32 = 30;

/// What is wrong with a character's Specials (chapter 7 "Learning New Magic Skills", chapter 10
/// "Training").
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecialBreach {
    /// A Special is gained in a skill the character has.
    #[error("a Special in {0} needs the skill, which the sheet does not have")]
    SkillUnknown(SkillId),
    /// A Magic Skill holds one Special; a new one takes the old one's place.
    #[error("{0} has {1} Specials; a Magic Skill holds one (a new one replaces the old)")]
    MoreThanOneInMagic(SkillId, usize),
}

/// The breaches of a character's Specials, each named by its skill, against the skills `known`.
// Decision: chapter 7 limits a Magic Skill to one Special; chapter 10 sets no such limit for a
// mundane skill, so several Specials in one mundane skill (a +3 each to different uses) stand.
pub fn special_breaches(specials: &[SkillId], known: &[SkillId]) -> Vec<SpecialBreach> {
    let mut out = Vec::new();
    let mut seen: Vec<&SkillId> = Vec::new();
    for s in specials {
        if seen.contains(&s) {
            continue;
        }
        seen.push(s);
        if !known.contains(s) {
            out.push(SpecialBreach::SkillUnknown(s.clone()));
        }
        let n = specials.iter().filter(|o| *o == s).count();
        if s.is_magic() && n > 1 {
            out.push(SpecialBreach::MoreThanOneInMagic(s.clone(), n));
        }
    }
    out
}

/// Whether someone with `rating` in a skill may teach it.
pub fn can_tutor(rating: i32) -> bool {
    rating >= TUTOR_MIN_RATING
}

/// Something a character studies with a tutor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Study {
    /// A new Magic Skill: six months, ending at rating 1 and with a new weakness.
    NewMagicSkill,
    /// A Special in a Magic Skill already known: three months.
    MagicSpecial,
    /// A Special in a mundane skill: two months.
    MundaneSpecial,
}

impl Study {
    /// The full-time length in days.
    pub fn base_days(self) -> u32 {
        match self {
            Study::NewMagicSkill => 6 * DAYS_PER_MONTH,
            Study::MagicSpecial => 3 * DAYS_PER_MONTH,
            Study::MundaneSpecial => 2 * DAYS_PER_MONTH,
        }
    }
}

/// How the student fits study into their days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pace {
    /// Every day with the tutor.
    #[default]
    FullTime,
    /// Travelling or adventuring, studying some each day: a third more time.
    OnTheRoad,
}

/// How long a course of study takes, step by step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StudyTime {
    pub base_days: u32,
    /// A third more when studying on the road (0 otherwise).
    pub travel_extra_days: u32,
    /// A third less for the Quick Study quirk (0 otherwise).
    pub quick_study_saving_days: u32,
    pub total_days: u32,
}

impl StudyTime {
    /// The total in whole weeks and the days left over.
    pub fn weeks_and_days(&self) -> (u32, u32) {
        (self.total_days / 7, self.total_days % 7)
    }
}

/// The Quick Study quirk: `days` of study cut by a third, rounded up to whole days so the cut
/// never exceeds a third.
pub fn quick_study_days(days: u32) -> u32 {
    days.saturating_mul(2).div_ceil(3)
}

/// The time a course of study takes: a third more on the road, a third less with Quick Study.
// Decision: the rulebook's magic example ("6 months + 3 additional months ... a total of 12
// months") contradicts its own "1/3rd more time" twice over; the rule as stated (repeated for
// mundane training, whose "11 weeks" fits it) gives 8 months on the road. Study is counted in
// 30-day months and rounded up to whole days, since study is not done until the time is served.
pub fn study_time(study: Study, pace: Pace, quick_study: bool) -> StudyTime {
    let base_days = study.base_days();
    let travelled = if pace == Pace::OnTheRoad {
        base_days.saturating_mul(4).div_ceil(3)
    } else {
        base_days
    };
    let total_days = if quick_study {
        quick_study_days(travelled)
    } else {
        travelled
    };
    StudyTime {
        base_days,
        travel_extra_days: travelled - base_days,
        quick_study_saving_days: travelled - total_days,
        total_days,
    }
}

// ---------------------------------------------------------------------------------------------
// Professions: a week's work for pay
// ---------------------------------------------------------------------------------------------

/// What a week of work pays, on the rulebook's relative scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Income {
    /// Failure: a week on hay in the stables.
    Stables,
    /// Green: gruel and a common room.
    CommonRoom,
    /// Yellow: decent meals and a private room.
    PrivateRoom,
    /// Red: lavish meals and a private room.
    Lavish,
    /// Black: feasts and a suite, or a long-wanted toy.
    Feasts,
}

impl Income {
    /// The pay a level of success earns.
    pub fn for_level(level: Level) -> Income {
        match level {
            Level::Failure => Income::Stables,
            Level::Green => Income::CommonRoom,
            Level::Yellow => Income::PrivateRoom,
            Level::Red => Income::Lavish,
            Level::Black => Income::Feasts,
        }
    }
}

/// One week of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkWeek {
    pub check: ChartRoll,
    pub income: Income,
}

/// A week's work: a check against the skill employed sets the pay.
pub fn work_week(rating: Rating, dice: &mut impl DieSource) -> WorkWeek {
    let check = ChartRoll::roll(rating, dice);
    WorkWeek {
        check,
        income: Income::for_level(check.level),
    }
}

// ---------------------------------------------------------------------------------------------
// Crafting
// ---------------------------------------------------------------------------------------------

/// Crafting with only a general rating (no training in the Artisan, Trade or Profession used)
/// costs this much (chapter 2, introduction).
pub const UNTRAINED_CRAFT_PENALTY: i32 = 5;
/// The largest target score accepted (the rulebook's hardest example is 12).
pub const MAX_CRAFT_TARGET: i32 = 1000;

/// The rating a crafting check uses, with the penalty shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CraftRating {
    pub rating: Rating,
    /// 5 when no skill was trained and the general rating had to stand in, else 0.
    pub untrained_penalty: i32,
}

/// The rating for crafting: the better of the skill and the general rating when trained, the
/// general rating less five when not.
pub fn craft_rating(skill: Option<i32>, general: i32) -> CraftRating {
    match skill {
        Some(s) => CraftRating {
            rating: Rating(s.max(general)),
            untrained_penalty: 0,
        },
        None => CraftRating {
            rating: Rating(general.saturating_sub(UNTRAINED_CRAFT_PENALTY)),
            untrained_penalty: UNTRAINED_CRAFT_PENALTY,
        },
    }
}

/// Points a crafting check takes off the target: 0 for Failure up to 4 for Black.
pub fn craft_points(level: Level) -> i32 {
    level.index() as i32
}

/// Where a piece of work stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CraftState {
    InProgress,
    /// The score reached exactly zero.
    Complete,
    /// The score went below zero: an exceptional piece.
    Exceptional,
}

/// A piece of work under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Craft {
    pub target: i32,
    /// What is left of the target score; done at zero or below.
    pub remaining: i32,
    /// The referee's time per attempt, in whatever unit they named (hours, days, weeks).
    pub period: u32,
    pub attempts: u32,
}

/// One attempt at a piece of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CraftStep {
    pub level: Level,
    pub points: i32,
    pub remaining: i32,
    /// Time spent so far, in the period's unit.
    pub elapsed: u32,
    pub state: CraftState,
}

impl Craft {
    /// Start a piece of work with the referee's target score and time per attempt.
    pub fn new(target: i32, period: u32) -> Result<Craft, AdvancementError> {
        if target < 1 {
            return Err(AdvancementError::TargetTooLow(target));
        }
        if target > MAX_CRAFT_TARGET {
            return Err(AdvancementError::TargetTooHigh(target));
        }
        Ok(Craft {
            target,
            remaining: target,
            period,
            attempts: 0,
        })
    }

    /// Where the work stands now.
    pub fn state(&self) -> CraftState {
        // Decision: "exceed the target score" is read as taking it below zero; reaching exactly
        // zero makes an ordinary piece.
        match self.remaining {
            r if r > 0 => CraftState::InProgress,
            0 => CraftState::Complete,
            _ => CraftState::Exceptional,
        }
    }

    /// Count one attempt that earned `level`: a period passes; a Failure keeps the progress made
    /// but adds none.
    // Decision: attempts on a finished piece are still counted and still lower the score; the
    // caller stops when the state is no longer InProgress.
    pub fn record(&mut self, level: Level) -> CraftStep {
        let points = craft_points(level);
        self.remaining -= points;
        self.attempts = self.attempts.saturating_add(1);
        CraftStep {
            level,
            points,
            remaining: self.remaining,
            elapsed: self.attempts.saturating_mul(self.period),
            state: self.state(),
        }
    }

    /// Roll one attempt against `rating` and count it.
    pub fn attempt(&mut self, rating: Rating, dice: &mut impl DieSource) -> (ChartRoll, CraftStep) {
        let check = ChartRoll::roll(rating, dice);
        (check, self.record(check.level))
    }
}

// ---------------------------------------------------------------------------------------------
// Sleep: the Sleepless quirk
// ---------------------------------------------------------------------------------------------

/// Hours of sleep most people need each day.
pub const NORMAL_SLEEP_HOURS: u32 = 8;
/// Hours a Sleepless character needs on most nights.
pub const SLEEPLESS_HOURS: u32 = 2;

/// The referee's secret roll for a Sleepless character: 1d8 + 4 days until a full night's sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SleeplessRoll {
    pub die: u32,
    pub days: u32,
}

/// Roll the days a Sleepless character lasts before sleeping a full, heavy 8 hours.
pub fn sleepless_days(dice: &mut impl DieSource) -> SleeplessRoll {
    let face = dice.roll(8);
    SleeplessRoll {
        die: face,
        days: face.saturating_add(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn specials_need_their_skill_and_a_magic_skill_holds_one() {
        // thiz-rulebook.md, chapter 10 "Training" (a Special for any skill the character has)
        // and chapter 7 "Learning New Magic Skills" (one Special per Magic Skill).
        let id = |s: &str| SkillId::parse(s).unwrap();
        let known = [id("Artisan (Goldsmithing)"), id("Elementalism")];
        let cases: [(&[&str], Vec<SpecialBreach>); 5] = [
            (&["Artisan (Goldsmithing)"], vec![]),
            (
                &["Artisan (Goldsmithing)", "Artisan (Goldsmithing)"],
                vec![],
            ),
            (&["Elementalism"], vec![]),
            (
                &["Elementalism", "Elementalism"],
                vec![SpecialBreach::MoreThanOneInMagic(id("Elementalism"), 2)],
            ),
            (
                &["Artisan (Pottery)"],
                vec![SpecialBreach::SkillUnknown(id("Artisan (Pottery)"))],
            ),
        ];
        for (specials, want) in cases {
            let specials: Vec<SkillId> = specials.iter().map(|s| id(s)).collect();
            assert_eq!(special_breaches(&specials, &known), want, "{specials:?}");
        }
    }
    use crate::rules::thiz::chart::row;

    #[test]
    fn session_award_adds_attendance_and_uses_and_caps_at_ten() {
        // thiz-rulebook.md, "The Benefits of Experience": 1 for attending, 1 for a light use,
        // 2-4 between, 5 for heavy use, 2 for an untrained success, at most 10.
        use SkillUse::*;
        let cases: [(bool, &[SkillUse], u32, u32); 6] = [
            (true, &[], 1, 1),
            (false, &[Light], 1, 1),
            (true, &[Light, Moderate(3)], 5, 5),
            (true, &[Heavy, UntrainedSuccess, Light], 9, 9),
            (true, &[Heavy, Moderate(4)], 10, 10),
            (true, &[Heavy, Heavy], 11, 10),
        ];
        for (attended, uses, uncapped, total) in cases {
            let award = session_award(attended, uses).unwrap();
            assert_eq!((award.uncapped, award.total), (uncapped, total), "{uses:?}");
        }
        assert_eq!(
            session_award(true, &[Heavy, UntrainedSuccess])
                .unwrap()
                .per_use,
            [5, 2]
        );
    }

    #[test]
    fn moderate_use_is_two_to_four() {
        // thiz-rulebook.md, "The Benefits of Experience": the middle awards are 2, 3 or 4.
        for (n, ok) in [(1, false), (2, true), (4, true), (5, false)] {
            let r = session_award(true, &[SkillUse::Moderate(n)]);
            assert_eq!(r.is_ok(), ok, "moderate {n}");
        }
        assert_eq!(
            session_award(true, &[SkillUse::Moderate(5)]),
            Err(AdvancementError::ModerateOutOfRange(5))
        );
    }

    #[test]
    fn raising_costs_a_point_per_rating_up_to_thirty() {
        // thiz-rulebook.md, "The Benefits of Experience": one-to-one; chapter 1: 30 is the top.
        assert_eq!(raise_cost(3, 4), Ok(1));
        assert_eq!(raise_cost(-2, 3), Ok(5));
        assert_eq!(raise_cost(29, 30), Ok(1));
        assert_eq!(raise_cost(29, 31), Err(AdvancementError::AboveMaximum(31)));
        assert_eq!(
            raise_cost(4, 4),
            Err(AdvancementError::NotARaise { from: 4, to: 4 })
        );
        assert_eq!((NEW_SKILL_COST, NEW_SKILL_RATING), (5, 1));
    }

    #[test]
    fn tutors_need_seven() {
        // thiz-rulebook.md, "Training" and "Learning New Magic Skills": a tutor has at least 7.
        assert!(!can_tutor(6));
        assert!(can_tutor(7));
        assert!(can_tutor(30));
        assert_eq!(SPECIAL_BONUS, 3);
    }

    #[test]
    fn study_times() {
        // thiz-rulebook.md, "Training": a mundane Special takes 2 months, 11 weeks on the road;
        // "Learning New Magic Skills": 6 months, a third more on the road; a magic Special 3
        // months; "Quick Study": a third less.
        let cases = [
            (Study::MundaneSpecial, false, false, 60),
            (Study::MundaneSpecial, true, false, 80),
            (Study::NewMagicSkill, false, false, 180),
            (Study::NewMagicSkill, true, false, 240),
            (Study::NewMagicSkill, false, true, 120),
            (Study::NewMagicSkill, true, true, 160),
            (Study::MagicSpecial, false, false, 90),
            (Study::MundaneSpecial, false, true, 40),
            (Study::MundaneSpecial, true, true, 54), // 80 x 2/3 = 53.3, rounded up
        ];
        for (study, road, quick, days) in cases {
            let pace = if road {
                Pace::OnTheRoad
            } else {
                Pace::FullTime
            };
            let t = study_time(study, pace, quick);
            assert_eq!(t.total_days, days, "{study:?} road {road} quick {quick}");
            assert_eq!(
                t.base_days + t.travel_extra_days - t.quick_study_saving_days,
                t.total_days
            );
        }
        // "Quick Study" on any length of study: 180 days become 120; 10 become 6⅔, so 7.
        assert_eq!(quick_study_days(180), 120);
        assert_eq!(quick_study_days(10), 7);
        // The printed "11 weeks" for a mundane Special on the road.
        assert_eq!(
            study_time(Study::MundaneSpecial, Pace::OnTheRoad, false)
                .weeks_and_days()
                .0,
            11
        );
    }

    #[test]
    fn income_follows_the_level() {
        // thiz-rulebook.md, "Professions": Failure through Black pay stables through feasts.
        let want = [
            Income::Stables,
            Income::CommonRoom,
            Income::PrivateRoom,
            Income::Lavish,
            Income::Feasts,
        ];
        for (level, income) in Level::ALL.into_iter().zip(want) {
            assert_eq!(Income::for_level(level), income);
        }
        let r = row(Rating(2));
        let mut dice = ScriptedDice::new([r.green, r.green + 1]);
        assert_eq!(work_week(Rating(2), &mut dice).income, Income::CommonRoom);
        assert_eq!(work_week(Rating(2), &mut dice).income, Income::Stables);
    }

    #[test]
    fn carpentry_shed_worked_example() {
        // thiz-rulebook.md, "Crafting": target 3, two days an attempt; Yellow leaves 1 after two
        // days, Red takes it to -2 after four: the shed is done.
        let mut shed = Craft::new(3, 2).unwrap();
        let first = shed.record(Level::Yellow);
        assert_eq!(
            (first.points, first.remaining, first.elapsed, first.state),
            (2, 1, 2, CraftState::InProgress)
        );
        let second = shed.record(Level::Red);
        assert_eq!(
            (second.points, second.remaining, second.elapsed),
            (3, -2, 4)
        );
        assert_ne!(second.state, CraftState::InProgress);
        // Decision: below zero counts as exceeding the target.
        assert_eq!(second.state, CraftState::Exceptional);
    }

    #[test]
    fn crafting_points_and_thresholds() {
        // thiz-rulebook.md, "Crafting": 1-4 points for Green-Black; failure keeps progress; zero
        // or lower completes.
        let points: Vec<i32> = Level::ALL.into_iter().map(craft_points).collect();
        assert_eq!(points, [0, 1, 2, 3, 4]);
        let mut work = Craft::new(2, 6).unwrap();
        assert_eq!(work.record(Level::Failure).remaining, 2);
        assert_eq!(work.record(Level::Green).state, CraftState::InProgress);
        let last = work.record(Level::Green);
        assert_eq!((last.state, last.elapsed), (CraftState::Complete, 18));
        assert_eq!(Craft::new(0, 1), Err(AdvancementError::TargetTooLow(0)));
        assert!(Craft::new(1, 1).is_ok());
        assert!(Craft::new(1000, 1).is_ok());
        assert_eq!(
            Craft::new(1001, 1),
            Err(AdvancementError::TargetTooHigh(1001))
        );
        let mut dagger = Craft::new(2, 6).unwrap();
        let mut dice = ScriptedDice::new([1]);
        let (check, step) = dagger.attempt(Rating(0), &mut dice);
        assert_eq!(check.level, Level::Black);
        assert_eq!(step.state, CraftState::Exceptional);
    }

    #[test]
    fn untrained_crafting_uses_general_rating_less_five() {
        // thiz-rulebook.md, chapter 2 introduction: untrained Artisan/Trade/Profession take -5.
        assert_eq!(craft_rating(None, 3).rating, Rating(-2));
        assert_eq!(craft_rating(Some(1), 3).rating, Rating(3));
        assert_eq!(craft_rating(Some(6), 3).rating, Rating(6));
        assert_eq!(craft_rating(Some(6), 3).untrained_penalty, 0);
    }

    #[test]
    fn sleepless_lasts_five_to_twelve_days() {
        // thiz-rulebook.md, "Sleepless": the referee rolls 1d8+4.
        let mut dice = ScriptedDice::new([1, 8]);
        assert_eq!(sleepless_days(&mut dice).days, 5);
        assert_eq!(
            sleepless_days(&mut dice),
            SleeplessRoll { die: 8, days: 12 }
        );
        assert_eq!((SLEEPLESS_HOURS, NORMAL_SLEEP_HOURS), (2, 8));
    }
}
