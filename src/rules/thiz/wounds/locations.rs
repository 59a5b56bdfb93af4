//! The random body-location table (d100), read for missile hits and wherever a rule says to roll
//! a location.

use crate::rules::dice::DieSource;
use crate::rules::thiz::Location;

/// The missile hit-location table: (highest roll, location), in rising order of rolls.
///
/// Source: thiz-rulebook.md, "Attack". The printed table gives 90 to both Right Arm and Head;
/// rules/README.md ("Missile hit locations") decides 81..90 Right Arm, 91..100 Head.
pub const MISSILE_LOCATIONS: [(u32, Location); 7] = [
    (10, Location::LeftLeg),
    (20, Location::RightLeg),
    (45, Location::Gut),
    (70, Location::Chest),
    (80, Location::LeftArm),
    (90, Location::RightArm),
    (100, Location::Head),
];

/// A d100 rolled on the location table and the location it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocationRoll {
    pub roll: u32,
    pub location: Location,
}

/// The location a d100 roll names. Rolls outside 1..=100 are read as the nearest end.
pub fn location_for_roll(roll: u32) -> Location {
    MISSILE_LOCATIONS
        .iter()
        .find(|(max, _)| roll <= *max)
        .map_or(Location::Head, |&(_, location)| location)
}

/// Rolls a d100 on the location table.
pub fn random_location(dice: &mut impl DieSource) -> LocationRoll {
    let roll = dice.d100();
    LocationRoll {
        roll,
        location: location_for_roll(roll),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use Location::*;

    #[test]
    fn table_covers_one_to_hundred_in_order() {
        let mut previous = 0;
        for (max, _) in MISSILE_LOCATIONS {
            assert!(max > previous);
            previous = max;
        }
        assert_eq!(previous, 100);
        // Every location appears exactly once.
        for loc in Location::ALL {
            assert_eq!(
                MISSILE_LOCATIONS.iter().filter(|(_, l)| *l == loc).count(),
                1
            );
        }
    }

    #[test]
    fn each_band_edge_reads_the_right_location() {
        // thiz-rulebook.md, "Attack" table, with rules/README.md's 90 → Right Arm, 91 → Head.
        let cases = [
            (1, LeftLeg),
            (10, LeftLeg),
            (11, RightLeg),
            (20, RightLeg),
            (21, Gut),
            (45, Gut),
            (46, Chest),
            (70, Chest),
            (71, LeftArm),
            (80, LeftArm),
            (81, RightArm),
            (90, RightArm),
            (91, Head),
            (100, Head),
        ];
        for (roll, want) in cases {
            assert_eq!(location_for_roll(roll), want, "roll {roll}");
        }
    }

    #[test]
    fn random_location_uses_the_die() {
        let mut dice = ScriptedDice::new([46, 91]);
        assert_eq!(
            random_location(&mut dice),
            LocationRoll {
                roll: 46,
                location: Chest
            }
        );
        assert_eq!(random_location(&mut dice).location, Head);
    }
}
