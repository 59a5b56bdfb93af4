//! The Fantasy Trip, with Bill Seurer's house rules and David Bofinger's multiple actions.
//!
//! Owns every TFT calculation and roll: saving rolls and common checks, attack resolution and
//! adjDX, damage, weapons, armor and shields, what happens after a blow, multiple actions, the
//! character side and the campaign tables, and exact odds. Pure: numbers and a
//! [`crate::rules::dice::DieSource`] in, outcomes out. House-rule branches name their source file.

pub mod attack;
pub mod campaign;
pub mod casting;
pub mod character;
pub mod damage;
pub mod gear;
pub mod injury;
pub mod mana;
pub mod multi;
pub mod odds;
pub mod resolve;
pub mod saves;
pub mod sequence;

use std::fmt;

use crate::rules::dice::DieSource;

/// A TFT dice amount as the books write it: "2d+1", "1d-2", "3d".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    pub count: u32,
    pub adds: i32,
}

impl Dice {
    pub const fn new(count: u32, adds: i32) -> Self {
        Self { count, adds }
    }

    /// Rolls the dice: the faces in order and the total (faces plus adds; may be below zero, as
    /// in "1d-2" rolling 1 — callers clamp where a rule says damage is at least zero).
    pub fn roll(&self, dice: &mut impl DieSource) -> (Vec<u32>, i32) {
        let faces = dice.d6s(self.count);
        let total = faces.iter().sum::<u32>() as i32 + self.adds;
        (faces, total)
    }

    pub fn min(&self) -> i32 {
        self.count as i32 + self.adds
    }

    pub fn max(&self) -> i32 {
        6 * self.count as i32 + self.adds
    }

    /// Reads dice as the books write them ("2d-2", "1d", "3d+1"; spaces and case ignored), with
    /// 1 to 100 dice and adds within ±1000.
    pub fn parse(text: &str) -> Option<Self> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        let (count, rest) = t.split_once('d')?;
        let count: u32 = count.parse().ok().filter(|n| (1..=100).contains(n))?;
        let adds: i32 = match rest {
            "" => 0,
            r if r.starts_with('+') || r.starts_with('-') => r.parse().ok()?,
            _ => return None,
        };
        (-1000..=1000)
            .contains(&adds)
            .then_some(Self::new(count, adds))
    }

    /// The same dice with `n` more added ("+1 damage" effects).
    pub fn plus(self, n: i32) -> Self {
        Self::new(self.count, self.adds + n)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d", self.count)?;
        match self.adds {
            0 => Ok(()),
            a if a > 0 => write!(f, "+{a}"),
            a => write!(f, "{a}"),
        }
    }
}

/// How a special attack roll multiplies the blow (tft-rules-summary.md, to-hit table; the house
/// rules change what "double" and "triple" mean, see the damage module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Multiplier {
    #[default]
    Normal,
    Double,
    Triple,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn dice_notation_and_range() {
        assert_eq!(Dice::new(2, 1).to_string(), "2d+1");
        assert_eq!(Dice::new(1, -2).to_string(), "1d-2");
        assert_eq!(Dice::new(3, 0).to_string(), "3d");
        assert_eq!((Dice::new(1, -2).min(), Dice::new(1, -2).max()), (-1, 4));
        let (faces, total) = Dice::new(2, 1).roll(&mut ScriptedDice::new([6, 2]));
        assert_eq!((faces, total), (vec![6, 2], 9));
    }

    #[test]
    fn dice_parse_both_sides_of_their_limits() {
        for (text, want) in [
            ("2d-2", Some(Dice::new(2, -2))),
            (" 1D ", Some(Dice::new(1, 0))),
            ("3d + 1", Some(Dice::new(3, 1))),
            ("100d+1000", Some(Dice::new(100, 1000))),
            ("1d-1000", Some(Dice::new(1, -1000))),
            ("0d", None),
            ("101d", None),
            ("1d+1001", None),
            ("d6", None),
            ("2d6", None),
            ("two", None),
        ] {
            assert_eq!(Dice::parse(text), want, "{text}");
        }
    }
}
