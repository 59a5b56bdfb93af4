//! The resolution chart: a d100 roll and a rating give a [`Level`] of success.
//!
//! Source: THIZ rulebook, chapter 5 "The Resolution Chart" and Appendix A. The rulebook prints
//! four renditions that disagree in two cells; the data file `data/thiz-resolution-chart.csv`
//! follows the self-consistent threshold tables (rules/README.md, "The chart"). A roll equal to a
//! column's number earns that column. Ratings below -30 use the -30 row, above 30 the 30 row.

use std::fmt;
use std::sync::LazyLock;

/// The lowest rating with a row of its own; lower ratings read this row.
pub const MIN_ROW: i32 = -30;
/// The highest rating with a row of its own; higher ratings read this row.
pub const MAX_ROW: i32 = 30;

/// A level of success, ordered Failure < Green < Yellow < Red < Black (rules/README.md, "Level order").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Failure,
    Green,
    Yellow,
    Red,
    Black,
}

impl Level {
    /// All levels from worst to best.
    pub const ALL: [Level; 5] = [
        Level::Failure,
        Level::Green,
        Level::Yellow,
        Level::Red,
        Level::Black,
    ];

    /// The name players know the level by.
    pub fn name(self) -> &'static str {
        match self {
            Level::Failure => "Failure",
            Level::Green => "Green",
            Level::Yellow => "Yellow",
            Level::Red => "Red",
            Level::Black => "Black",
        }
    }

    /// True for every level but Failure.
    pub fn is_success(self) -> bool {
        self != Level::Failure
    }

    /// One level lower; Failure stays Failure. Where a rule keeps Green as Green (Shifty), it says so
    /// itself rather than calling this.
    pub fn lower(self) -> Level {
        match self {
            Level::Black => Level::Red,
            Level::Red => Level::Yellow,
            Level::Yellow => Level::Green,
            Level::Green | Level::Failure => Level::Failure,
        }
    }

    /// One level higher; Black stays Black.
    pub fn higher(self) -> Level {
        match self {
            Level::Failure => Level::Green,
            Level::Green => Level::Yellow,
            Level::Yellow => Level::Red,
            Level::Red | Level::Black => Level::Black,
        }
    }

    /// 0 for Failure up to 4 for Black.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rating to check against: a skill, a general rating, or an adjusted rating after modifiers.
/// Any integer is a rating; the chart clamps it to its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rating(pub i32);

impl Rating {
    /// The rating whose chart row is read (clamped to -30..=30).
    pub fn row_rating(self) -> i32 {
        self.0.clamp(MIN_ROW, MAX_ROW)
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::ops::Add<i32> for Rating {
    type Output = Rating;
    fn add(self, rhs: i32) -> Rating {
        Rating(self.0.saturating_add(rhs))
    }
}

/// One row of the chart: the highest roll that earns each success level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The ratings this row covers, as printed.
    pub rating_min: i32,
    pub rating_max: i32,
    pub black: u32,
    pub red: u32,
    pub yellow: u32,
    pub green: u32,
}

impl Row {
    /// The level a d100 roll earns on this row.
    pub fn level(&self, roll: u32) -> Level {
        if roll <= self.black {
            Level::Black
        } else if roll <= self.red {
            Level::Red
        } else if roll <= self.yellow {
            Level::Yellow
        } else if roll <= self.green {
            Level::Green
        } else {
            Level::Failure
        }
    }

    /// How many of the 100 faces earn each level, indexed by [`Level::index`].
    pub fn counts(&self) -> [u32; 5] {
        [
            100 - self.green,
            self.green - self.yellow,
            self.yellow - self.red,
            self.red - self.black,
            self.black,
        ]
    }

    /// The highest roll earning `level`, or `None` for Failure (which is everything above green).
    pub fn threshold(&self, level: Level) -> Option<u32> {
        match level {
            Level::Black => Some(self.black),
            Level::Red => Some(self.red),
            Level::Yellow => Some(self.yellow),
            Level::Green => Some(self.green),
            Level::Failure => None,
        }
    }
}

const CSV: &str = include_str!("../../../data/thiz-resolution-chart.csv");
const ROWS: usize = (MAX_ROW - MIN_ROW + 1) as usize;

/// The chart, one entry per rating from -30 to 30 (printed bands expanded).
static CHART: LazyLock<[Row; ROWS]> = LazyLock::new(|| parse(CSV));

fn parse(csv: &str) -> [Row; ROWS] {
    let mut table: [Option<Row>; ROWS] = [None; ROWS];
    for line in csv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
    {
        let v: Vec<i64> = line
            .split(',')
            .map(|c| {
                c.trim()
                    .parse()
                    .expect("the embedded chart holds only numbers")
            })
            .collect();
        let row = Row {
            rating_min: v[0] as i32,
            rating_max: v[1] as i32,
            black: v[2] as u32,
            red: v[3] as u32,
            yellow: v[4] as u32,
            green: v[5] as u32,
        };
        for r in row.rating_min..=row.rating_max {
            let slot = &mut table[(r - MIN_ROW) as usize];
            assert!(slot.is_none(), "the chart covers rating {r} twice");
            *slot = Some(row);
        }
    }
    table.map(|r| r.expect("the embedded chart covers every rating from -30 to 30"))
}

/// The chart row read for a rating (clamped to -30..=30).
pub fn row(rating: Rating) -> &'static Row {
    &CHART[(rating.row_rating() - MIN_ROW) as usize]
}

/// The level of success of a d100 `roll` (1..=100) against `rating`.
pub fn resolve(rating: Rating, roll: u32) -> Level {
    row(rating).level(roll)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every printed band, as (min, max, black, red, yellow, green): the canonical CSV in
    /// rules/ of the shared folder, restated here so that a broken data file fails.
    const PRINTED: [(i32, i32, u32, u32, u32, u32); 29] = [
        (-30, -26, 4, 10, 18, 30),
        (-25, -21, 4, 10, 19, 31),
        (-20, -16, 4, 11, 20, 32),
        (-15, -11, 4, 11, 21, 33),
        (-10, -10, 4, 12, 22, 34),
        (-9, -9, 5, 12, 23, 36),
        (-8, -8, 5, 13, 24, 38),
        (-7, -7, 5, 13, 25, 40),
        (-6, -6, 6, 14, 26, 42),
        (-5, -5, 6, 14, 27, 44),
        (-4, -4, 6, 15, 28, 46),
        (-3, -3, 6, 15, 29, 48),
        (-2, -2, 7, 16, 30, 50),
        (-1, -1, 7, 16, 31, 52),
        (0, 0, 7, 17, 33, 54),
        (1, 1, 7, 18, 35, 57),
        (2, 2, 8, 19, 37, 60),
        (3, 3, 8, 20, 39, 63),
        (4, 4, 9, 21, 41, 66),
        (5, 5, 9, 22, 43, 69),
        (6, 6, 10, 23, 45, 72),
        (7, 7, 10, 25, 47, 75),
        (8, 8, 11, 27, 49, 78),
        (9, 9, 12, 29, 51, 81),
        (10, 10, 13, 31, 53, 84),
        (11, 15, 14, 33, 56, 88),
        (16, 20, 15, 35, 59, 92),
        (21, 25, 16, 37, 62, 96),
        (26, 30, 18, 40, 66, 96),
    ];

    /// Every rating of every band, at each column's number (earns the column) and one above
    /// (earns the next column down): chapter 5 and Appendix A; rules/README.md "The chart".
    #[test]
    fn every_row_at_each_threshold_and_one_above() {
        for (min, max, black, red, yellow, green) in PRINTED {
            for r in min..=max {
                let rating = Rating(r);
                let cases = [
                    (1, Level::Black),
                    (black, Level::Black),
                    (black + 1, Level::Red),
                    (red, Level::Red),
                    (red + 1, Level::Yellow),
                    (yellow, Level::Yellow),
                    (yellow + 1, Level::Green),
                    (green, Level::Green),
                    (green + 1, Level::Failure),
                    (100, Level::Failure),
                ];
                for (roll, want) in cases {
                    assert_eq!(resolve(rating, roll), want, "rating {r}, roll {roll}");
                }
            }
        }
    }

    #[test]
    fn ratings_beyond_thirty_are_clamped() {
        // -31 reads the -30 row, 31 the 30 row (rules/README.md).
        for (r, row_of) in [
            (-31, -30),
            (-30, -30),
            (30, 30),
            (31, 30),
            (-1000, -30),
            (1000, 30),
        ] {
            assert_eq!(row(Rating(r)), row(Rating(row_of)), "rating {r}");
            for roll in 1..=100 {
                assert_eq!(resolve(Rating(r), roll), resolve(Rating(row_of), roll));
            }
        }
        assert_eq!(row(Rating(-30)).green, 30);
        assert_eq!(row(Rating(30)).black, 18);
        assert_eq!(row(Rating(i32::MIN)).green, 30);
        assert_eq!(row(Rating(i32::MAX)).black, 18);
    }

    #[test]
    fn swimming_at_four_rolling_forty_is_yellow() {
        // Chapter 5, "Reading the Resolution Chart": Swimming 4, roll 40 → Yellow.
        assert_eq!(resolve(Rating(4), 40), Level::Yellow);
    }

    #[test]
    fn rating_four_counts_match_the_reference_figures() {
        // rules/README.md reference figures: rating 4 → Black 9, Red 12, Yellow 20, Green 25, Failure 34.
        assert_eq!(row(Rating(4)).counts(), [34, 25, 20, 12, 9]);
    }

    #[test]
    fn chart_is_monotone() {
        // Columns rise left to right within a row, and no column falls as the rating rises.
        let mut prev: Option<&Row> = None;
        for r in MIN_ROW..=MAX_ROW {
            let row = row(Rating(r));
            assert!(row.black < row.red && row.red < row.yellow && row.yellow < row.green);
            assert!(row.green <= 100);
            if let Some(p) = prev {
                assert!(row.black >= p.black && row.red >= p.red);
                assert!(row.yellow >= p.yellow && row.green >= p.green);
            }
            prev = Some(row);
        }
    }

    #[test]
    fn level_order_and_steps() {
        assert!(Level::Failure < Level::Green && Level::Green < Level::Yellow);
        assert!(Level::Yellow < Level::Red && Level::Red < Level::Black);
        assert_eq!(Level::Black.lower(), Level::Red);
        assert_eq!(Level::Green.lower(), Level::Failure);
        assert_eq!(Level::Failure.lower(), Level::Failure);
        assert_eq!(Level::Failure.higher(), Level::Green);
        assert_eq!(Level::Black.higher(), Level::Black);
    }
}
