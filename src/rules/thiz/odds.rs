//! Exact odds of a THIZ check, by enumerating the 100 faces of the d100.
//!
//! Source: thiz-rulebook.md, chapter 5 (the chart) with every modifier of `check` applied to each
//! face (Shifty included), so the odds are those of the level the player would actually get.
//! Reference figure (rules/README.md): rating 4 gives Black 9%, Red 12%, Yellow 20%, Green 25%,
//! Failure 34%. Owns [`Odds`] and [`check_odds`]. Never simulates, never rolls.

use super::chart::Level;
use super::check::{self, CheckError, CheckInput};

/// How many of the 100 faces give each level, and how many flag Unlucky.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Odds {
    /// Faces per level, indexed by [`Level::index`] (Failure first).
    pub counts: [u32; 5],
    /// Faces that flag an Unlucky mishap (0 unless the input is Unlucky).
    pub unlucky_faces: u32,
}

/// The number of faces of the die enumerated.
pub const FACES: u32 = 100;

impl Odds {
    /// Faces out of 100 giving exactly `level`.
    pub fn count(&self, level: Level) -> u32 {
        self.counts[level.index()]
    }

    /// Percent chance of exactly `level` (faces are out of 100, so this is the count).
    pub fn percent(&self, level: Level) -> f64 {
        f64::from(self.count(level)) * 100.0 / f64::from(FACES)
    }

    /// Faces giving `level` or better.
    pub fn at_least(&self, level: Level) -> u32 {
        self.counts[level.index()..].iter().sum()
    }

    /// Faces giving any success.
    pub fn successes(&self) -> u32 {
        self.at_least(Level::Green)
    }

    /// Levels with their counts, best first (Black down to Failure), as a player reads them.
    pub fn best_first(&self) -> [(Level, u32); 5] {
        let mut levels = Level::ALL.map(|l| (l, self.count(l)));
        levels.reverse();
        levels
    }
}

/// The exact odds of the check `input`, each of the 100 faces resolved as `check` would.
pub fn check_odds(input: &CheckInput) -> Result<Odds, CheckError> {
    input.validate()?;
    let mut counts = [0u32; 5];
    let mut unlucky_faces = 0;
    for roll in 1..=FACES {
        let out = check::resolve_unchecked(input, roll);
        counts[out.level.index()] += 1;
        unlucky_faces += u32::from(out.unlucky_flag);
    }
    Ok(Odds {
        counts,
        unlucky_faces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::thiz::chart::{self, MAX_ROW, MIN_ROW, Rating};

    #[test]
    fn reference_figure_rating_four() {
        // rules/README.md, "Reference figures": Black 9, Red 12, Yellow 20, Green 25, Failure 34.
        let odds = check_odds(&CheckInput::at(4)).unwrap();
        let want = [
            (Level::Black, 9),
            (Level::Red, 12),
            (Level::Yellow, 20),
            (Level::Green, 25),
            (Level::Failure, 34),
        ];
        for (level, n) in want {
            assert_eq!(odds.count(level), n, "{level}");
            assert!((odds.percent(level) - f64::from(n)).abs() < 1e-9);
        }
        assert_eq!(odds.successes(), 66);
        assert_eq!(odds.at_least(Level::Red), 21);
        assert_eq!(odds.best_first()[0], (Level::Black, 9));
        assert_eq!(odds.best_first()[4], (Level::Failure, 34));
        assert_eq!(odds.unlucky_faces, 0);
    }

    #[test]
    fn enumeration_matches_every_chart_row() {
        // Every row of the chart (chapter 5), including the clamped ends, sums to 100 and agrees
        // with the row's own counts.
        for r in (MIN_ROW - 3)..=(MAX_ROW + 3) {
            let odds = check_odds(&CheckInput::at(r)).unwrap();
            assert_eq!(odds.counts, chart::row(Rating(r)).counts(), "rating {r}");
            assert_eq!(odds.counts.iter().sum::<u32>(), 100);
        }
    }

    #[test]
    fn modifiers_shift_the_row() {
        // A +2 modifier at rating 2 reads the rating 4 row; a -1 wound at 5 reads row 4 too.
        let four = check_odds(&CheckInput::at(4)).unwrap();
        let plus = CheckInput {
            modifier: 2,
            ..CheckInput::at(2)
        };
        let wounded = CheckInput {
            wound_penalty: -1,
            ..CheckInput::at(5)
        };
        assert_eq!(check_odds(&plus).unwrap(), four);
        assert_eq!(check_odds(&wounded).unwrap(), four);
    }

    #[test]
    fn shifty_moves_faces_down_but_keeps_green() {
        // Chapter 3 "Shifty" at rating 4: Black 0, Red 9, Yellow 12, Green 20 + 25, Failure 34.
        let input = CheckInput {
            shifty: true,
            ..CheckInput::at(4)
        };
        let odds = check_odds(&input).unwrap();
        assert_eq!(odds.counts, [34, 45, 12, 9, 0]);
    }

    #[test]
    fn unlucky_faces_are_three() {
        // Chapter 3 "Unlucky": 98, 99, 100.
        let input = CheckInput {
            unlucky: true,
            ..CheckInput::at(0)
        };
        assert_eq!(check_odds(&input).unwrap().unlucky_faces, 3);
    }

    #[test]
    fn bad_input_is_refused() {
        assert_eq!(check_odds(&CheckInput::at(41)), Err(CheckError::Rating(41)));
    }
}
