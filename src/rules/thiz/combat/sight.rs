//! Fighting without sight: the penalties, and finding a target by sound.

use super::{CombatError, check};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating, resolve};

/// A combatant who cannot see: to attacks, and to the Speed that avoids attacks
/// (thiz-rulebook.md, "Sight"). When attacker and target are both unable to see, they cancel.
pub const BLIND_PENALTY: i32 = -5;
/// Night-Blind at night: to any action that needs sight (thiz-rulebook.md, "Night-Blind").
pub const NIGHT_BLIND_PENALTY: i32 = -2;
/// Within this distance a blind character narrows the target down to squares.
pub const CLOSE_RANGE_FEET: u32 = 15;

/// How many adjacent places a close target may be in after a listening check: 4, 3, 2, 1 for
/// Green to Black (thiz-rulebook.md, "Sight"); `None` on a Failure.
pub fn possible_locations(level: Level) -> Option<u8> {
    match level {
        Level::Failure => None,
        Level::Green => Some(4),
        Level::Yellow => Some(3),
        Level::Red => Some(2),
        Level::Black => Some(1),
    }
}

/// A blind character's check to place a target that made a sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hearing {
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    /// Within [`CLOSE_RANGE_FEET`].
    pub close: bool,
    /// Any success: the referee gives a direction (far) or places (close).
    pub heard: bool,
    /// Close only: how many possible places the referee names.
    pub possible_locations: Option<u8>,
}

/// Perception (or General Physical) to place a sound (thiz-rulebook.md, "Sight"). Far away, a
/// success earns a direction, more exact for better levels; close, it earns a few possible places.
pub fn listen(
    perception: i32,
    distance_feet: u32,
    dice: &mut impl DieSource,
) -> Result<Hearing, CombatError> {
    let rating = Rating(check("Perception", perception)?);
    let roll = dice.d100();
    let level = resolve(rating, roll);
    let close = distance_feet <= CLOSE_RANGE_FEET;
    Ok(Hearing {
        rating,
        roll,
        level,
        close,
        heard: level.is_success(),
        possible_locations: if close {
            possible_locations(level)
        } else {
            None
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn places_narrow_with_the_level() {
        let got: Vec<Option<u8>> = Level::ALL.into_iter().map(possible_locations).collect();
        assert_eq!(got, [None, Some(4), Some(3), Some(2), Some(1)]);
    }

    #[test]
    fn close_and_far_listening() {
        // 15 feet or less is close (thiz-rulebook.md, "Sight"). Rating 0: Red ≤17, Green ≤54.
        let h = listen(0, 15, &mut ScriptedDice::new([17])).unwrap();
        assert_eq!((h.close, h.possible_locations), (true, Some(2)));
        let h = listen(0, 16, &mut ScriptedDice::new([17])).unwrap();
        assert_eq!(
            (h.close, h.heard, h.possible_locations),
            (false, true, None)
        );
        let h = listen(0, 5, &mut ScriptedDice::new([55])).unwrap();
        assert_eq!((h.heard, h.possible_locations), (false, None));
    }
}
