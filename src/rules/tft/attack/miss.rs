//! Rolling to miss: a shot or missile spell passing a figure in the way.
//!
//! Owns the 3-dice table of tft-rules-summary.md, "ROLLING TO MISS". Never adjusts DX (the
//! caller passes adjDX, with [`super::Adjustment::EarlierRollsThisTurn`] applied) and never
//! computes damage.

use crate::rules::dice::DieSource;
use crate::rules::tft::Multiplier;

/// What a roll to miss did to the figure in the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MissOutcome {
    /// Missed whatever the adjDX.
    AutomaticMiss,
    /// At or under adjDX: missed.
    Missed,
    /// Over adjDX: the figure in the way takes the shot.
    Hit,
    /// Hit whatever the adjDX.
    AutomaticHit,
    /// Hit for double damage.
    Double,
    /// Hit for triple damage.
    Triple,
}

impl MissOutcome {
    /// Every outcome, from the best for the figure in the way.
    pub const ALL: [Self; 6] = [
        Self::AutomaticMiss,
        Self::Missed,
        Self::Hit,
        Self::AutomaticHit,
        Self::Double,
        Self::Triple,
    ];

    /// The multiplier of the blow on the figure in the way; `None` if it was missed.
    pub const fn multiplier(self) -> Option<Multiplier> {
        match self {
            Self::AutomaticMiss | Self::Missed => None,
            Self::Hit | Self::AutomaticHit => Some(Multiplier::Normal),
            Self::Double => Some(Multiplier::Double),
            Self::Triple => Some(Multiplier::Triple),
        }
    }
}

/// A roll to miss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissRoll {
    pub faces: Vec<u32>,
    pub total: u32,
    pub adj_dx: i32,
    pub outcome: MissOutcome,
}

/// The outcome of a 3-dice total rolled to miss against adjDX.
pub fn classify_miss(total: u32, adj_dx: i32) -> MissOutcome {
    // tft-rules-summary.md, "ROLLING TO MISS": 3 misses; 4-13 miss at or under adjDX;
    // 14 hits; 15-16 double; 17-18 triple.
    match total {
        ..=3 => MissOutcome::AutomaticMiss,
        4..=13 if i64::from(total) <= i64::from(adj_dx) => MissOutcome::Missed,
        4..=13 => MissOutcome::Hit,
        14 => MissOutcome::AutomaticHit,
        15 | 16 => MissOutcome::Double,
        _ => MissOutcome::Triple,
    }
}

/// Rolls 3 dice to miss a figure in the line of fire.
pub fn roll_to_miss(adj_dx: i32, dice: &mut impl DieSource) -> MissRoll {
    let faces = dice.d6s(3);
    let total = faces.iter().sum();
    MissRoll {
        outcome: classify_miss(total, adj_dx),
        faces,
        total,
        adj_dx,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use MissOutcome::*;

    #[test]
    fn every_edge() {
        // tft-rules-summary.md, "ROLLING TO MISS", against adjDX 10.
        let cases = [
            (3, AutomaticMiss),
            (4, Missed),
            (10, Missed),
            (11, Hit),
            (13, Hit),
            (14, AutomaticHit),
            (15, Double),
            (16, Double),
            (17, Triple),
            (18, Triple),
        ];
        for (total, outcome) in cases {
            assert_eq!(classify_miss(total, 10), outcome, "{total}");
        }
        // 3 misses at adjDX 0; 14 hits at adjDX 20; 13 misses at adjDX 13.
        assert_eq!(classify_miss(3, 0), AutomaticMiss);
        assert_eq!(classify_miss(4, 3), Hit);
        assert_eq!(classify_miss(13, 13), Missed);
        assert_eq!(classify_miss(14, 20), AutomaticHit);
    }

    #[test]
    fn roll_and_multipliers() {
        let r = roll_to_miss(12, &mut ScriptedDice::new([6, 5, 6]));
        assert_eq!((r.faces, r.total, r.outcome), (vec![6, 5, 6], 17, Triple));
        let m: Vec<_> = MissOutcome::ALL.iter().map(|o| o.multiplier()).collect();
        assert_eq!(
            m,
            [
                None,
                None,
                Some(Multiplier::Normal),
                Some(Multiplier::Normal),
                Some(Multiplier::Double),
                Some(Multiplier::Triple)
            ]
        );
    }
}
