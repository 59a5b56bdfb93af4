//! The wound sheet: which wounds each body section carries, how a new wound stacks, and what the
//! wounds cost the character.

use super::WoundError;
use crate::rules::thiz::{Level, Location};

/// The penalty each wound colour sets on its location (thiz-rulebook.md, "Damage" table).
///
/// Decision: Black has no number in the table (it makes the location Incapacitated or Useless);
/// it counts -4 here as well, so that a penalty never shrinks as a wound grows worse.
pub const WOUND_PENALTIES: [(Level, i32); 4] = [
    (Level::Green, -1),
    (Level::Yellow, -2),
    (Level::Red, -4),
    (Level::Black, -4),
];

/// The penalty a wound colour sets on its location; 0 for Failure (no wound).
pub fn penalty_for(level: Level) -> i32 {
    WOUND_PENALTIES
        .iter()
        .find(|(l, _)| *l == level)
        .map_or(0, |&(_, p)| p)
}

/// The wounds on one body section: any number of Greens, at most one each of the other colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LocationWounds {
    pub greens: u32,
    pub yellow: bool,
    pub red: bool,
    pub black: bool,
}

impl LocationWounds {
    /// True when the section carries a wound of this colour.
    pub fn has(&self, level: Level) -> bool {
        match level {
            Level::Failure => false,
            Level::Green => self.greens > 0,
            Level::Yellow => self.yellow,
            Level::Red => self.red,
            Level::Black => self.black,
        }
    }

    /// The most severe wound on the section.
    pub fn worst(&self) -> Option<Level> {
        Level::ALL.into_iter().rev().find(|&l| self.has(l))
    }

    /// How many wounds the section carries.
    pub fn count(&self) -> u32 {
        self.greens + u32::from(self.yellow) + u32::from(self.red) + u32::from(self.black)
    }

    fn set(&mut self, level: Level, present: bool) {
        match level {
            Level::Failure => {}
            Level::Green => {
                self.greens = if present {
                    self.greens.saturating_add(1)
                } else {
                    self.greens.saturating_sub(1)
                };
            }
            Level::Yellow => self.yellow = present,
            Level::Red => self.red = present,
            Level::Black => self.black = present,
        }
    }
}

/// What a recorded wound became on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddedWound {
    pub location: Location,
    /// The colour the hit inflicted.
    pub inflicted: Level,
    /// The colour written down after stepping up past colours the section already had.
    pub recorded: Level,
}

/// How wounds leave one body section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocationStatus {
    Unhurt,
    /// A penalty (negative) from the worst Green, Yellow or Red wound.
    Penalty(i32),
    /// A Black wound on Head, Chest or Gut.
    Incapacitated,
    /// A Black wound on an arm or leg.
    Useless,
}

/// Everything the wounds on a sheet do to the character, as penalties (negative numbers).
///
/// Source: thiz-rulebook.md, "Damage" table; rules/README.md "Wound penalties" (per location the
/// worst wound counts; locations add up).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WoundEffects {
    /// Head: every skill check.
    pub all_skills: i32,
    /// Chest: initiative.
    pub initiative: i32,
    /// Gut: Toughness.
    pub toughness: i32,
    /// Right Arm: skills used with that arm.
    pub right_arm: i32,
    /// Left Arm: skills used with that arm.
    pub left_arm: i32,
    /// Both legs together: Speed.
    pub speed: i32,
    /// A Black wound on Head, Chest or Gut.
    pub incapacitated: bool,
    /// Limbs made Useless by a Black wound, in [`Location::ALL`] order.
    pub useless: Vec<Location>,
}

impl WoundEffects {
    /// No effects at all: what a Berserk character uses until the combat ends (thiz-rulebook.md,
    /// "Berserk": wound effects are ignored).
    pub fn none() -> Self {
        Self::default()
    }

    /// The penalty on a Toughness check: Head (all skills) plus Gut.
    pub fn toughness_check(&self) -> i32 {
        self.all_skills + self.toughness
    }

    /// The penalty on a skill check using `arm` (or no particular arm): Head plus that arm.
    pub fn skill_check(&self, arm: Option<Location>) -> i32 {
        let arm_penalty = match arm {
            Some(Location::RightArm) => self.right_arm,
            Some(Location::LeftArm) => self.left_arm,
            _ => 0,
        };
        self.all_skills + arm_penalty
    }

    /// The penalty on Speed when it is checked or used to avoid attacks: Head plus legs.
    ///
    /// Decision: Speed is a skill, so the Head's "all skills" applies to it like any other.
    pub fn speed_check(&self) -> i32 {
        self.all_skills + self.speed
    }

    /// The penalty on initiative: the Chest alone.
    ///
    /// Decision: initiative is not a skill check, so the Head does not apply to it.
    pub fn initiative_roll(&self) -> i32 {
        self.initiative
    }
}

/// The wounds of one character, per body section.
///
/// Stacking (thiz-rulebook.md, "Damage"): Greens pile up without limit; a second Yellow, Red or
/// Black on the same section steps up to the next colour (and on, if that one is taken too), the
/// first wound staying where it is; a Black that finds a Black already there adds nothing more.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WoundSheet {
    sections: [LocationWounds; 7],
}

fn slot(location: Location) -> usize {
    Location::ALL
        .iter()
        .position(|&l| l == location)
        .unwrap_or_default()
}

fn require_wound(level: Level) -> Result<Level, WoundError> {
    if level == Level::Failure {
        Err(WoundError::NotAWound(level))
    } else {
        Ok(level)
    }
}

impl WoundSheet {
    /// A sheet without wounds.
    pub fn new() -> Self {
        Self::default()
    }

    /// The wounds on one section.
    pub fn at(&self, location: Location) -> LocationWounds {
        self.sections[slot(location)]
    }

    /// Writes a section's wounds as they are (for loading a stored sheet).
    pub fn set_at(&mut self, location: Location, wounds: LocationWounds) {
        self.sections[slot(location)] = wounds;
    }

    /// True when no section carries a wound.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// How many wounds the sheet carries.
    pub fn total(&self) -> u32 {
        self.sections.iter().map(LocationWounds::count).sum()
    }

    /// Records a wound, stepping it up past colours the section already has.
    pub fn add(&mut self, location: Location, level: Level) -> Result<AddedWound, WoundError> {
        let inflicted = require_wound(level)?;
        let section = &mut self.sections[slot(location)];
        let mut recorded = inflicted;
        if recorded != Level::Green {
            while recorded != Level::Black && section.has(recorded) {
                recorded = recorded.higher();
            }
        }
        section.set(recorded, true);
        Ok(AddedWound {
            location,
            inflicted,
            recorded,
        })
    }

    /// Removes one wound of the given colour.
    pub fn heal(&mut self, location: Location, level: Level) -> Result<(), WoundError> {
        let level = require_wound(level)?;
        let section = &mut self.sections[slot(location)];
        if !section.has(level) {
            return Err(WoundError::NoSuchWound { location, level });
        }
        section.set(level, false);
        Ok(())
    }

    /// Replaces one wound by a wound one colour lower, for luck's "lower a wound" (rules/README.md,
    /// "Luck to lower a wound": Black→Red, Red→Yellow, Yellow→Green, Green→no wound).
    ///
    /// Returns the colour now recorded, or `None` when a Green was removed. Decision: if the
    /// section already has the lower colour, the wound keeps going down to the first free colour
    /// (Green is always free) rather than stepping back up, which would make the luck point buy
    /// nothing.
    pub fn lower(&mut self, location: Location, from: Level) -> Result<Option<Level>, WoundError> {
        self.heal(location, from)?;
        let section = &mut self.sections[slot(location)];
        let mut to = from.lower();
        while to > Level::Green && section.has(to) {
            to = to.lower();
        }
        if to == Level::Failure {
            return Ok(None);
        }
        section.set(to, true);
        Ok(Some(to))
    }

    /// What the wounds on one section do.
    pub fn status(&self, location: Location) -> LocationStatus {
        match self.at(location).worst() {
            None | Some(Level::Failure) => LocationStatus::Unhurt,
            Some(Level::Black) if location.is_vital() => LocationStatus::Incapacitated,
            Some(Level::Black) => LocationStatus::Useless,
            Some(level) => LocationStatus::Penalty(penalty_for(level)),
        }
    }

    /// The penalty set by one section's worst wound.
    pub fn penalty_at(&self, location: Location) -> i32 {
        self.at(location).worst().map_or(0, penalty_for)
    }

    /// What all the wounds do, location by location added up.
    pub fn effects(&self) -> WoundEffects {
        let mut effects = WoundEffects::none();
        for location in Location::ALL {
            let penalty = self.penalty_at(location);
            match location {
                Location::Head => effects.all_skills += penalty,
                Location::Chest => effects.initiative += penalty,
                Location::Gut => effects.toughness += penalty,
                Location::RightArm => effects.right_arm += penalty,
                Location::LeftArm => effects.left_arm += penalty,
                Location::RightLeg | Location::LeftLeg => effects.speed += penalty,
            }
            match self.status(location) {
                LocationStatus::Incapacitated => effects.incapacitated = true,
                LocationStatus::Useless => effects.useless.push(location),
                LocationStatus::Unhurt | LocationStatus::Penalty(_) => {}
            }
        }
        effects
    }

    /// True when a Head, Chest or Gut wound is worse than Green: a mook is defeated.
    pub fn defeats_mook(&self) -> bool {
        Location::ALL
            .into_iter()
            .filter(|l| l.is_vital())
            .any(|l| self.at(l).worst().is_some_and(|w| w > Level::Green))
    }

    /// True when a Black wound on Head, Chest or Gut has incapacitated the character.
    pub fn is_incapacitated(&self) -> bool {
        Location::ALL
            .into_iter()
            .any(|l| self.status(l) == LocationStatus::Incapacitated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Level::*;
    use Location::*;

    #[test]
    fn penalty_table_is_in_order_and_covers_each_colour() {
        // thiz-rulebook.md, "Damage" table: -1/-2/-4 for G/Y/R.
        let levels: Vec<Level> = WOUND_PENALTIES.iter().map(|(l, _)| *l).collect();
        assert_eq!(levels, [Green, Yellow, Red, Black]);
        assert_eq!(penalty_for(Failure), 0);
        assert_eq!(penalty_for(Green), -1);
        assert_eq!(penalty_for(Yellow), -2);
        assert_eq!(penalty_for(Red), -4);
        assert_eq!(penalty_for(Black), -4);
    }

    #[test]
    fn stacking_rules() {
        // thiz-rulebook.md, "Damage": any number of Greens; one each of Y/R/B; a second of a
        // colour steps up. Each row: wounds already there, new wound, colour recorded.
        let cases: [(&[Level], Level, Level); 9] = [
            (&[], Green, Green),
            (&[Green, Green], Green, Green),
            (&[], Yellow, Yellow),
            (&[Yellow], Yellow, Red),
            (&[Yellow, Red], Yellow, Black),
            (&[Red], Red, Black),
            (&[Red], Yellow, Yellow),
            (&[Black], Black, Black),
            (&[Green], Yellow, Yellow),
        ];
        for (before, new, want) in cases {
            let mut sheet = WoundSheet::new();
            for &w in before {
                sheet.add(Gut, w).unwrap();
            }
            let added = sheet.add(Gut, new).unwrap();
            assert_eq!(added.recorded, want, "{before:?} + {new}");
            assert_eq!(added.inflicted, new);
            assert!(sheet.at(Gut).has(want));
            // The earlier wounds stay.
            for &w in before {
                assert!(sheet.at(Gut).has(w), "{before:?} + {new} lost {w}");
            }
        }
    }

    #[test]
    fn greens_pile_up_and_other_locations_are_separate() {
        let mut sheet = WoundSheet::new();
        for _ in 0..5 {
            sheet.add(LeftLeg, Green).unwrap();
        }
        sheet.add(RightLeg, Yellow).unwrap();
        sheet.add(LeftLeg, Yellow).unwrap();
        assert_eq!(sheet.at(LeftLeg).greens, 5);
        assert!(sheet.at(LeftLeg).yellow && sheet.at(RightLeg).yellow);
        assert!(!sheet.at(LeftLeg).red);
        assert_eq!(sheet.total(), 7);
    }

    #[test]
    fn failure_is_not_a_wound() {
        let mut sheet = WoundSheet::new();
        assert_eq!(
            sheet.add(Head, Failure),
            Err(WoundError::NotAWound(Failure))
        );
        assert!(sheet.is_empty());
    }

    #[test]
    fn each_location_penalises_its_own_thing() {
        // thiz-rulebook.md, "Damage" table: Head all skills, Chest initiative, Gut Toughness,
        // Arm skills with that arm, Leg Speed; -1/-2/-4 for G/Y/R.
        for (level, p) in [(Green, -1), (Yellow, -2), (Red, -4)] {
            for location in Location::ALL {
                let mut sheet = WoundSheet::new();
                sheet.add(location, level).unwrap();
                let e = sheet.effects();
                let got = [
                    e.all_skills,
                    e.initiative,
                    e.toughness,
                    e.right_arm,
                    e.left_arm,
                    e.speed,
                ];
                let want = match location {
                    Head => [p, 0, 0, 0, 0, 0],
                    Chest => [0, p, 0, 0, 0, 0],
                    Gut => [0, 0, p, 0, 0, 0],
                    RightArm => [0, 0, 0, p, 0, 0],
                    LeftArm => [0, 0, 0, 0, p, 0],
                    RightLeg | LeftLeg => [0, 0, 0, 0, 0, p],
                };
                assert_eq!(got, want, "{level} on {location}");
                assert_eq!(sheet.status(location), LocationStatus::Penalty(p));
                assert!(!e.incapacitated && e.useless.is_empty());
            }
        }
    }

    #[test]
    fn worst_wound_per_location_counts_and_locations_add() {
        // rules/README.md, "Wound penalties": no adding within a location, adding across them.
        let mut sheet = WoundSheet::new();
        sheet.add(RightLeg, Green).unwrap();
        sheet.add(RightLeg, Green).unwrap();
        sheet.add(RightLeg, Yellow).unwrap();
        assert_eq!(sheet.effects().speed, -2);
        sheet.add(LeftLeg, Red).unwrap();
        assert_eq!(sheet.effects().speed, -6);
        sheet.add(Head, Green).unwrap();
        assert_eq!(sheet.effects().speed_check(), -7);
        sheet.add(Gut, Yellow).unwrap();
        assert_eq!(sheet.effects().toughness_check(), -3);
        sheet.add(RightArm, Red).unwrap();
        assert_eq!(sheet.effects().skill_check(Some(RightArm)), -5);
        assert_eq!(sheet.effects().skill_check(Some(LeftArm)), -1);
        assert_eq!(sheet.effects().skill_check(None), -1);
        sheet.add(Chest, Green).unwrap();
        assert_eq!(sheet.effects().initiative_roll(), -1);
    }

    #[test]
    fn black_incapacitates_vitals_and_makes_limbs_useless() {
        // thiz-rulebook.md, "Damage" table, Black column.
        for location in Location::ALL {
            let mut sheet = WoundSheet::new();
            sheet.add(location, Black).unwrap();
            let e = sheet.effects();
            if location.is_vital() {
                assert_eq!(sheet.status(location), LocationStatus::Incapacitated);
                assert!(e.incapacitated && sheet.is_incapacitated());
                assert!(e.useless.is_empty());
            } else {
                assert_eq!(sheet.status(location), LocationStatus::Useless);
                assert!(!e.incapacitated && !sheet.is_incapacitated());
                assert_eq!(e.useless, [location]);
            }
        }
        // Red is the step below: no status yet.
        let mut sheet = WoundSheet::new();
        sheet.add(Head, Red).unwrap();
        assert!(!sheet.is_incapacitated());
    }

    #[test]
    fn mooks_fall_to_worse_than_green_on_head_chest_gut() {
        // thiz-rulebook.md, "Damage": a mook with a wound above Green on Head/Chest/Gut is defeated.
        for location in Location::ALL {
            for level in [Green, Yellow, Red, Black] {
                let mut sheet = WoundSheet::new();
                sheet.add(location, level).unwrap();
                let want = location.is_vital() && level > Green;
                assert_eq!(sheet.defeats_mook(), want, "{level} on {location}");
            }
        }
        let mut sheet = WoundSheet::new();
        for _ in 0..10 {
            sheet.add(Head, Green).unwrap();
        }
        assert!(!sheet.defeats_mook());
    }

    #[test]
    fn lower_replaces_a_wound_by_the_next_colour_down() {
        // rules/README.md, "Luck to lower a wound".
        for (from, want) in [
            (Black, Some(Red)),
            (Red, Some(Yellow)),
            (Yellow, Some(Green)),
            (Green, None),
        ] {
            let mut sheet = WoundSheet::new();
            sheet.add(Chest, from).unwrap();
            assert_eq!(sheet.lower(Chest, from), Ok(want), "{from}");
            assert!(!sheet.at(Chest).has(from));
            assert_eq!(sheet.total(), u32::from(want.is_some()));
        }
    }

    #[test]
    fn lower_skips_colours_already_taken() {
        // Decision in WoundSheet::lower: Red lowered beside a Yellow becomes Green.
        let mut sheet = WoundSheet::new();
        sheet.add(Chest, Yellow).unwrap();
        sheet.add(Chest, Red).unwrap();
        assert_eq!(sheet.lower(Chest, Red), Ok(Some(Green)));
        let w = sheet.at(Chest);
        assert!(w.yellow && !w.red && w.greens == 1);
        // A Yellow lowered beside Greens just adds another Green.
        assert_eq!(sheet.lower(Chest, Yellow), Ok(Some(Green)));
        assert_eq!(sheet.at(Chest).greens, 2);
    }

    #[test]
    fn lower_or_heal_a_missing_wound_is_an_error() {
        let mut sheet = WoundSheet::new();
        sheet.add(Head, Yellow).unwrap();
        let err = sheet.lower(Head, Red).unwrap_err();
        assert_eq!(err.to_string(), "the Head has no Red wound");
        assert_eq!(
            sheet.heal(Gut, Yellow),
            Err(WoundError::NoSuchWound {
                location: Gut,
                level: Yellow
            })
        );
        assert!(sheet.at(Head).yellow);
        assert_eq!(sheet.heal(Head, Yellow), Ok(()));
        assert!(sheet.is_empty());
    }
}
