//! Recovery: a day of rest at a time, and Knowledge (Surgery).

use super::{LocationRoll, WoundError, WoundSheet, check_rating, random_location};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Location, Rating, resolve};

use super::TRIAGE_SPECIALIST_BONUS;

/// The order in which tied wounds heal: Chest, Head, Gut, then the limbs (thiz-rulebook.md,
/// "Recovering from Damage"). The limbs' order among themselves is rolled, see [`rest_day`]; the
/// order written here is only the fallback.
pub const HEALING_PRIORITY: [Location; 7] = [
    Location::Chest,
    Location::Head,
    Location::Gut,
    Location::RightArm,
    Location::LeftArm,
    Location::RightLeg,
    Location::LeftLeg,
];

/// How many times the location table is rolled to pick between tied limbs before falling back to
/// [`HEALING_PRIORITY`]. Each roll lands on a limb with probability at least 1/10 of the table, so
/// the fallback practically never happens; it only keeps the loop bounded.
pub const MAX_EXTREMITY_ROLLS: usize = 100;

/// The most days of rest one call resolves.
pub const MAX_REST_DAYS: u32 = 365;

/// What one day of rest did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestOutcome {
    /// No wounds left.
    NothingToHeal,
    /// A Green wound healed with no check.
    HealedGreen {
        location: Location,
        extremity_rolls: Vec<LocationRoll>,
    },
    /// The Toughness check succeeded and the least severe wound healed.
    HealedWound {
        location: Location,
        level: Level,
        extremity_rolls: Vec<LocationRoll>,
    },
    /// The Toughness check failed: nothing healed.
    NotHealed,
}

/// One day of rest, with the Toughness check when there was one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestDay {
    /// Toughness before wounds, the Head and Gut penalty, and the roll (when checked).
    pub toughness: i32,
    pub wound_penalty: i32,
    pub check: Option<(u32, Level)>,
    pub outcome: RestOutcome,
}

/// Picks which of the tied `candidates` heals: the first vital section in priority order, else
/// a limb picked by rolling the location table until it names one of them.
///
/// Decision: with a single wounded limb nothing is rolled; a roll naming an unwounded limb or a
/// vital section is rolled again; after [`MAX_EXTREMITY_ROLLS`] rolls the fixed order decides.
fn pick(candidates: &[Location], dice: &mut impl DieSource) -> (Location, Vec<LocationRoll>) {
    let mut rolls = Vec::new();
    if let Some(&vital) = HEALING_PRIORITY
        .iter()
        .find(|l| l.is_vital() && candidates.contains(l))
    {
        return (vital, rolls);
    }
    let limbs: Vec<Location> = HEALING_PRIORITY
        .into_iter()
        .filter(|l| candidates.contains(l))
        .collect();
    if limbs.len() > 1 {
        for _ in 0..MAX_EXTREMITY_ROLLS {
            let roll = random_location(dice);
            rolls.push(roll);
            if limbs.contains(&roll.location) {
                return (roll.location, rolls);
            }
        }
    }
    (limbs.first().copied().unwrap_or(Location::Chest), rolls)
}

fn with_level(sheet: &WoundSheet, level: Level) -> Vec<Location> {
    Location::ALL
        .into_iter()
        .filter(|&l| sheet.at(l).has(level))
        .collect()
}

/// One full day of rest (thiz-rulebook.md, "Recovering from Damage").
///
/// While Greens remain, one Green heals without a check. Then each day Toughness is checked (with
/// the sheet's Head and Gut penalties); any success heals the least severe wound. Ties go Chest,
/// Head, Gut, then a limb rolled on the location table. Decision: a day heals one wound at most,
/// so the first day without Greens is the first day with a check; a Green is picked among
/// locations by the same priority as other wounds.
pub fn rest_day(
    sheet: &mut WoundSheet,
    toughness: i32,
    dice: &mut impl DieSource,
) -> Result<RestDay, WoundError> {
    let toughness = check_rating("Toughness", toughness)?;
    let wound_penalty = sheet.effects().toughness_check();
    let mut day = RestDay {
        toughness,
        wound_penalty,
        check: None,
        outcome: RestOutcome::NothingToHeal,
    };
    let greens = with_level(sheet, Level::Green);
    if !greens.is_empty() {
        let (location, extremity_rolls) = pick(&greens, dice);
        sheet.heal(location, Level::Green)?;
        day.outcome = RestOutcome::HealedGreen {
            location,
            extremity_rolls,
        };
        return Ok(day);
    }
    let Some(level) = [Level::Yellow, Level::Red, Level::Black]
        .into_iter()
        .find(|&l| !with_level(sheet, l).is_empty())
    else {
        return Ok(day);
    };
    let roll = dice.d100();
    let checked = resolve(Rating(toughness) + wound_penalty, roll);
    day.check = Some((roll, checked));
    day.outcome = if checked.is_success() {
        let (location, extremity_rolls) = pick(&with_level(sheet, level), dice);
        sheet.heal(location, level)?;
        RestOutcome::HealedWound {
            location,
            level,
            extremity_rolls,
        }
    } else {
        RestOutcome::NotHealed
    };
    Ok(day)
}

/// Several days of rest in a row; stops early once the sheet is clean.
pub fn rest(
    sheet: &mut WoundSheet,
    days: u32,
    toughness: i32,
    dice: &mut impl DieSource,
) -> Result<Vec<RestDay>, WoundError> {
    if !(1..=MAX_REST_DAYS).contains(&days) {
        return Err(WoundError::DaysOutOfRange {
            days,
            max: MAX_REST_DAYS,
        });
    }
    check_rating("Toughness", toughness)?;
    let mut log = Vec::new();
    for _ in 0..days {
        if sheet.is_empty() {
            break;
        }
        log.push(rest_day(sheet, toughness, dice)?);
    }
    Ok(log)
}

/// The sections already healed by Surgery today (one wound per section per day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SurgeryDay {
    treated: [bool; 7],
}

impl SurgeryDay {
    /// A new day: nothing treated yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A day on which Surgery already healed a wound on each of `locations` (for a stored day).
    pub fn with_treated(locations: impl IntoIterator<Item = Location>) -> Self {
        let mut day = Self::new();
        for l in locations {
            day.mark(l);
        }
        day
    }

    /// True when Surgery already healed a wound on `location` today.
    pub fn treated(&self, location: Location) -> bool {
        self.treated[location as usize]
    }

    fn mark(&mut self, location: Location) {
        self.treated[location as usize] = true;
    }
}

/// A Knowledge (Surgery) attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surgery {
    pub rating: Rating,
    pub triage_bonus: i32,
    pub roll: u32,
    pub level: Level,
    /// The wound healed: one whose colour equals the level rolled.
    pub healed: Option<(Location, Level)>,
}

/// Knowledge (Surgery) on a patient (thiz-rulebook.md, "Recovering from Damage"): the level rolled
/// heals a wound of the same colour, at most one per section per day.
///
/// `location` is the section the surgeon works on; with `None` the first matching section in
/// [`HEALING_PRIORITY`] order is healed. Decision: only a wound actually healed uses up the
/// section for the day; a failed attempt does not. `triage_specialist` adds +3 (combat wounds).
pub fn surgery(
    sheet: &mut WoundSheet,
    location: Option<Location>,
    surgery: i32,
    triage_specialist: bool,
    day: &mut SurgeryDay,
    dice: &mut impl DieSource,
) -> Result<Surgery, WoundError> {
    let surgery = check_rating("Knowledge (Surgery)", surgery)?;
    if let Some(l) = location.filter(|&l| day.treated(l)) {
        return Err(WoundError::AlreadyTreated(l));
    }
    let triage_bonus = if triage_specialist {
        TRIAGE_SPECIALIST_BONUS
    } else {
        0
    };
    let rating = Rating(surgery) + triage_bonus;
    let roll = dice.d100();
    let level = resolve(rating, roll);
    let target = HEALING_PRIORITY
        .into_iter()
        .filter(|&l| location.is_none_or(|want| want == l))
        .find(|&l| !day.treated(l) && sheet.at(l).has(level));
    let healed = match target {
        Some(l) => {
            sheet.heal(l, level)?;
            day.mark(l);
            Some((l, level))
        }
        None => None,
    };
    Ok(Surgery {
        rating,
        triage_bonus,
        roll,
        level,
        healed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use Level::*;
    use Location::*;

    fn sheet(wounds: &[(Location, Level)]) -> WoundSheet {
        let mut s = WoundSheet::new();
        for &(l, w) in wounds {
            s.add(l, w).unwrap();
        }
        s
    }

    #[test]
    fn priority_table_is_chest_head_gut_then_limbs() {
        assert_eq!(HEALING_PRIORITY[..3], [Chest, Head, Gut]);
        for l in Location::ALL {
            assert_eq!(HEALING_PRIORITY.iter().filter(|&&p| p == l).count(), 1);
        }
    }

    #[test]
    fn a_green_heals_each_day_without_a_check() {
        // thiz-rulebook.md, "Recovering from Damage": one Green per full day of rest.
        let mut s = sheet(&[(Gut, Green), (Chest, Green), (Chest, Red)]);
        let mut dice = ScriptedDice::new([]);
        let day = rest_day(&mut s, 0, &mut dice).unwrap();
        assert_eq!(day.check, None);
        assert!(matches!(
            day.outcome,
            RestOutcome::HealedGreen {
                location: Chest,
                ..
            }
        ));
        let day = rest_day(&mut s, 0, &mut dice).unwrap();
        assert!(matches!(
            day.outcome,
            RestOutcome::HealedGreen { location: Gut, .. }
        ));
        assert_eq!(s.total(), 1);
    }

    #[test]
    fn after_greens_toughness_heals_the_least_severe_wound() {
        // Toughness 4 - 4 (Red on the Gut) = 0: Green up to 54, Failure from 55.
        let mut s = sheet(&[(Gut, Red), (LeftLeg, Yellow)]);
        let mut dice = ScriptedDice::new([55, 54]);
        let day = rest_day(&mut s, 4, &mut dice).unwrap();
        assert_eq!(day.wound_penalty, -4);
        assert_eq!(day.check, Some((55, Failure)));
        assert_eq!(day.outcome, RestOutcome::NotHealed);
        let day = rest_day(&mut s, 4, &mut dice).unwrap();
        assert_eq!(
            day.outcome,
            RestOutcome::HealedWound {
                location: LeftLeg,
                level: Yellow,
                extremity_rolls: vec![]
            }
        );
        assert!(s.at(Gut).red);
    }

    #[test]
    fn ties_heal_chest_then_head_then_gut() {
        // thiz-rulebook.md, "Recovering from Damage": Chest, Head, Gut, extremities.
        let mut s = sheet(&[
            (Gut, Yellow),
            (Head, Yellow),
            (RightArm, Yellow),
            (Chest, Yellow),
        ]);
        let mut dice = ScriptedDice::new([1, 1, 1]);
        let mut order = Vec::new();
        for _ in 0..3 {
            if let RestOutcome::HealedWound { location, .. } =
                rest_day(&mut s, 30, &mut dice).unwrap().outcome
            {
                order.push(location);
            }
        }
        assert_eq!(order, [Chest, Head, Gut]);
    }

    #[test]
    fn tied_limbs_are_picked_by_rolling_the_location_table() {
        // Rolls: 50 (Chest, not a limb) and 5 (Left Leg, unwounded) are rolled again; 85 is the
        // Right Arm. The d100 for Toughness comes first.
        let mut s = sheet(&[(RightArm, Red), (RightLeg, Red)]);
        let mut dice = ScriptedDice::new([1, 50, 5, 85]);
        let day = rest_day(&mut s, 0, &mut dice).unwrap();
        let RestOutcome::HealedWound {
            location,
            extremity_rolls,
            ..
        } = day.outcome
        else {
            panic!("expected a healed wound, got {:?}", day.outcome);
        };
        assert_eq!(location, RightArm);
        let rolled: Vec<u32> = extremity_rolls.iter().map(|r| r.roll).collect();
        assert_eq!(rolled, [50, 5, 85]);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn limb_rolls_are_bounded() {
        let mut s = sheet(&[(LeftArm, Green), (LeftLeg, Green)]);
        let mut dice = ScriptedDice::new([50; MAX_EXTREMITY_ROLLS]);
        let day = rest_day(&mut s, 0, &mut dice).unwrap();
        let RestOutcome::HealedGreen {
            location,
            extremity_rolls,
        } = day.outcome
        else {
            panic!("expected a healed Green");
        };
        assert_eq!(extremity_rolls.len(), MAX_EXTREMITY_ROLLS);
        assert_eq!(location, LeftArm);
    }

    #[test]
    fn rest_days_are_bounded_and_stop_when_clean() {
        let mut s = sheet(&[(Head, Green), (Head, Green)]);
        let mut dice = ScriptedDice::new([]);
        assert_eq!(rest(&mut s, 10, 0, &mut dice).unwrap().len(), 2);
        assert!(s.is_empty());
        for (days, ok) in [(0, false), (1, true), (365, true), (366, false)] {
            assert_eq!(
                rest(&mut WoundSheet::new(), days, 0, &mut dice).is_ok(),
                ok,
                "{days}"
            );
        }
    }

    #[test]
    fn surgery_heals_a_wound_of_the_colour_rolled() {
        // thiz-rulebook.md, "Recovering from Damage", Knowledge (Surgery). Rating 4 row:
        // Black ≤9, Red ≤21, Yellow ≤41, Green ≤66.
        let cases = [
            (9, Some((Chest, Black))),
            (10, None),
            (21, None),
            (22, Some((Chest, Yellow))),
            (41, Some((Chest, Yellow))),
            (42, Some((Head, Green))),
            (67, None),
        ];
        for (roll, want) in cases {
            let mut s = sheet(&[(Chest, Black), (Chest, Yellow), (Head, Green)]);
            let mut day = SurgeryDay::new();
            let out = surgery(
                &mut s,
                None,
                4,
                false,
                &mut day,
                &mut ScriptedDice::new([roll]),
            )
            .unwrap();
            assert_eq!(out.healed, want, "roll {roll}");
            assert_eq!(s.total(), 3 - u32::from(want.is_some()));
        }
    }

    #[test]
    fn surgery_once_per_location_per_day() {
        let mut s = sheet(&[(Gut, Green), (Gut, Green), (LeftArm, Green)]);
        let mut day = SurgeryDay::new();
        let mut dice = ScriptedDice::new([60, 60, 60]);
        let first = surgery(&mut s, Some(Gut), 4, false, &mut day, &mut dice).unwrap();
        assert_eq!(first.healed, Some((Gut, Green)));
        assert_eq!(
            surgery(&mut s, Some(Gut), 4, false, &mut day, &mut dice),
            Err(WoundError::AlreadyTreated(Gut))
        );
        // A stored day reads back the same.
        let again = SurgeryDay::with_treated([Gut]);
        assert!(again.treated(Gut) && !again.treated(LeftArm));
        assert_eq!(again, day);
        // Without a named section, the Gut is skipped and the arm is healed.
        let next = surgery(&mut s, None, 4, false, &mut day, &mut dice).unwrap();
        assert_eq!(next.healed, Some((LeftArm, Green)));
        // Triage Specialist: +3 turns rating 0's Failure at 60 into a Green (row 3: Green ≤63).
        let mut day = SurgeryDay::new();
        let out = surgery(
            &mut s,
            None,
            0,
            true,
            &mut day,
            &mut ScriptedDice::new([60]),
        )
        .unwrap();
        assert_eq!((out.rating, out.level), (Rating(3), Green));
        assert_eq!(out.healed, Some((Gut, Green)));
    }
}
