//! Burst and full-auto fire: one wound brings the colours below it along.

use super::CombatError;
use crate::rules::dice::DieSource;
use crate::rules::thiz::Level;
use crate::rules::thiz::wounds::{LocationRoll, random_location};

/// What the firearm can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BurstWeapon {
    /// Three-round burst: at most three wounds in all.
    ThreeRound,
    /// Longer bursts and full-auto: every colour below.
    FullAuto,
}

impl BurstWeapon {
    /// The most wounds one attack inflicts, the first included.
    pub fn max_wounds(self) -> usize {
        match self {
            BurstWeapon::ThreeRound => 3,
            BurstWeapon::FullAuto => 4,
        }
    }
}

/// An extra wound from a burst, with the location rolled for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BurstWound {
    pub level: Level,
    pub location: LocationRoll,
}

/// The extra wounds a burst adds to a `wound` it inflicted (thiz-rulebook.md, "Burst/Full-Auto
/// Fire"): one of each colour below it, each on a location rolled on the missile table; a
/// three-round burst stops at three wounds in all (Black brings Red and Yellow).
///
/// Decision: the first wound stays where the attack landed and only the extra ones roll a
/// location; the extra wounds follow the Toughness check already made for the first and are not
/// checked again.
pub fn burst_wounds(
    wound: Level,
    weapon: BurstWeapon,
    dice: &mut impl DieSource,
) -> Result<Vec<BurstWound>, CombatError> {
    if wound == Level::Failure {
        return Err(CombatError::NotAWound(wound));
    }
    let mut extra = Vec::new();
    let mut level = wound.lower();
    while level != Level::Failure && extra.len() + 1 < weapon.max_wounds() {
        extra.push(BurstWound {
            level,
            location: random_location(dice),
        });
        level = level.lower();
    }
    Ok(extra)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::thiz::Location;
    use Level::*;

    #[test]
    fn each_colour_below_comes_along() {
        // thiz-rulebook.md, "Burst/Full-Auto Fire": Red brings Yellow and Green; three-round
        // Black brings only Red and Yellow.
        let cases: [(Level, BurstWeapon, &[Level]); 8] = [
            (Green, BurstWeapon::FullAuto, &[]),
            (Yellow, BurstWeapon::FullAuto, &[Green]),
            (Red, BurstWeapon::FullAuto, &[Yellow, Green]),
            (Black, BurstWeapon::FullAuto, &[Red, Yellow, Green]),
            (Green, BurstWeapon::ThreeRound, &[]),
            (Yellow, BurstWeapon::ThreeRound, &[Green]),
            (Red, BurstWeapon::ThreeRound, &[Yellow, Green]),
            (Black, BurstWeapon::ThreeRound, &[Red, Yellow]),
        ];
        for (wound, weapon, want) in cases {
            let mut dice = ScriptedDice::new([50; 3]);
            let extra = burst_wounds(wound, weapon, &mut dice).unwrap();
            let levels: Vec<Level> = extra.iter().map(|w| w.level).collect();
            assert_eq!(levels, want, "{wound} {weapon:?}");
            assert_eq!(
                dice.remaining(),
                3 - want.len(),
                "one location roll per extra wound"
            );
        }
    }

    #[test]
    fn extra_wounds_roll_their_locations() {
        let extra =
            burst_wounds(Red, BurstWeapon::FullAuto, &mut ScriptedDice::new([100, 1])).unwrap();
        let at: Vec<Location> = extra.iter().map(|w| w.location.location).collect();
        assert_eq!(at, [Location::Head, Location::LeftLeg]);
        assert_eq!(
            burst_wounds(Failure, BurstWeapon::FullAuto, &mut ScriptedDice::new([])),
            Err(CombatError::NotAWound(Failure))
        );
    }
}
