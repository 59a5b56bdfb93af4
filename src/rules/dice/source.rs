//! The die source: the one seam through which randomness reaches the rules.

use rand::{RngExt as _, SeedableRng as _, rngs::ChaCha8Rng};

/// Something that rolls one die at a time.
///
/// Every rule that rolls takes `&mut impl DieSource` (or `&mut dyn DieSource`), so tests can
/// script exact faces and production can use the thread-local generator.
pub trait DieSource {
    /// A face of a die with `sides` faces: uniform in `1..=sides`. `sides` is at least 1.
    fn roll(&mut self, sides: u32) -> u32;

    /// A d100 roll, 1..=100.
    fn d100(&mut self) -> u32 {
        self.roll(100)
    }

    /// The sum of `count` six-sided dice, and the faces in the order rolled.
    fn d6s(&mut self, count: u32) -> Vec<u32> {
        (0..count).map(|_| self.roll(6)).collect()
    }
}

impl<T: DieSource + ?Sized> DieSource for &mut T {
    fn roll(&mut self, sides: u32) -> u32 {
        (**self).roll(sides)
    }
}

/// Production dice: the thread-local generator of `rand` (`rand::rng()`), uniform without bias.
#[derive(Debug, Default, Clone, Copy)]
pub struct ThreadDice;

impl DieSource for ThreadDice {
    // The one sanctioned call of the thread generator (clippy.toml disallows it elsewhere).
    #[allow(clippy::disallowed_methods)]
    fn roll(&mut self, sides: u32) -> u32 {
        rand::rng().random_range(1..=sides.max(1))
    }
}

/// Reproducible dice from a seed (ChaCha8): for `referee console --seed N` and statistical tests.
#[derive(Debug)]
pub struct SeededDice(ChaCha8Rng);

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl DieSource for SeededDice {
    fn roll(&mut self, sides: u32) -> u32 {
        self.0.random_range(1..=sides.max(1))
    }
}

/// Dice that return the faces they were given, in order: for tests that assert exact outcomes.
///
/// A face larger than the die asked for is a mistake in the test script, and so is running out of
/// faces: both panic with a message naming the roll, which is what a test wants.
#[derive(Debug, Clone)]
pub struct ScriptedDice {
    faces: Vec<u32>,
    next: usize,
}

impl ScriptedDice {
    pub fn new(faces: impl IntoIterator<Item = u32>) -> Self {
        Self {
            faces: faces.into_iter().collect(),
            next: 0,
        }
    }

    /// How many scripted faces have not been rolled yet.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl DieSource for ScriptedDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let Some(&face) = self.faces.get(self.next) else {
            panic!(
                "scripted dice ran out: roll #{} (a d{sides}) has no face",
                self.next + 1
            );
        };
        assert!(
            (1..=sides).contains(&face),
            "scripted face {face} does not fit a d{sides} (roll #{})",
            self.next + 1
        );
        self.next += 1;
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_dice_return_faces_in_order() {
        let mut dice = ScriptedDice::new([3, 100, 1]);
        assert_eq!(dice.roll(6), 3);
        assert_eq!(dice.d100(), 100);
        assert_eq!(dice.remaining(), 1);
        assert_eq!(dice.roll(20), 1);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    #[should_panic(expected = "does not fit a d6")]
    fn scripted_face_too_big_for_the_die_is_caught() {
        ScriptedDice::new([7]).roll(6);
    }

    #[test]
    fn seeded_dice_repeat_and_stay_in_range() {
        let a: Vec<u32> = (0..50)
            .map({
                let mut d = SeededDice::new(7);
                move |_| d.roll(6)
            })
            .collect();
        let b: Vec<u32> = (0..50)
            .map({
                let mut d = SeededDice::new(7);
                move |_| d.roll(6)
            })
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|f| (1..=6).contains(f)));
        let mut t = ThreadDice;
        assert!((0..200).map(|_| t.roll(10)).all(|f| (1..=10).contains(&f)));
    }
}
