//! The to-hit tables: which total of N dice is a triple, a double, an automatic hit, a plain
//! comparison with adjDX, an automatic miss, a dropped weapon or a broken one.
//!
//! Owns the 3-dice table (tft-rules-summary.md, "ROLLING TO HIT"), the 4-dice table of a defended
//! or dodged attack, the interpreted table for 5 or more dice, and the widened double/triple ranges
//! of weapon masters, good bow shots and waiting for an opening. Never rolls and never adjusts DX:
//! it classifies a total it is given.

use crate::rules::tft::Multiplier;

/// The fewest dice an attack rolls (the normal 3 dice).
pub const MIN_ATTACK_DICE: u32 = 3;

/// The most dice an attack (or an odds query) may roll: far beyond any stack of defending,
/// Bladeturn and multiple actions, and small enough that 6^N fits a `u64`.
pub const MAX_ATTACK_DICE: u32 = 20;

/// What the roll did, before damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AttackOutcome {
    /// An automatic hit with triple damage (or effect).
    Triple,
    /// An automatic hit with double damage (or effect).
    Double,
    /// An automatic hit at normal damage.
    AutomaticHit,
    /// At or under adjDX: a hit.
    Hit,
    /// Over adjDX: a miss.
    Miss,
    /// A miss whatever the adjDX.
    AutomaticMiss,
    /// A miss, and the weapon is dropped.
    DropWeapon,
    /// A miss, and the weapon breaks.
    WeaponBreaks,
}

impl AttackOutcome {
    /// Every outcome, best first (the order odds are listed in).
    pub const ALL: [Self; 8] = [
        Self::Triple,
        Self::Double,
        Self::AutomaticHit,
        Self::Hit,
        Self::Miss,
        Self::AutomaticMiss,
        Self::DropWeapon,
        Self::WeaponBreaks,
    ];

    /// Whether the blow lands.
    pub const fn is_hit(self) -> bool {
        matches!(
            self,
            Self::Triple | Self::Double | Self::AutomaticHit | Self::Hit
        )
    }

    /// The damage multiplier of a hit (for the damage module); `None` for a miss.
    pub const fn multiplier(self) -> Option<Multiplier> {
        match self {
            Self::Triple => Some(Multiplier::Triple),
            Self::Double => Some(Multiplier::Double),
            Self::AutomaticHit | Self::Hit => Some(Multiplier::Normal),
            _ => None,
        }
    }

    /// Position in [`AttackOutcome::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Guild settings for the tables nobody published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttackTableSettings {
    /// On 4 or more dice, count the lowest total as triple and the next as double (shifting any
    /// widened ranges up by the extra dice). Default off: the book names no multiplier.
    pub four_dice_specials: bool,
    /// On 5 or more dice, use the generalized 4-dice pattern; off, such rolls are a plain
    /// comparison with adjDX. Default on.
    pub generalize_beyond_four: bool,
}

impl Default for AttackTableSettings {
    // README.md, "Attack rolls, 4 dice" and "5 or more dice": no multiplier by default, and the
    // generalization is the default interpretation.
    fn default() -> Self {
        Self {
            four_dice_specials: false,
            generalize_beyond_four: true,
        }
    }
}

/// The highest 3-dice totals that do triple and double damage.
///
/// Normal blows: triple on 3, double on 4. Weapon masters and good bow shots: triple on 3-4,
/// double on 5-7. Waiting for an opening can raise both by up to 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CriticalRange {
    pub triple_max: u32,
    pub double_max: u32,
}

impl CriticalRange {
    /// tft-rules-summary.md, "ROLLING TO HIT": 3 is triple, 4 is double.
    pub const NORMAL: Self = Self {
        triple_max: 3,
        double_max: 4,
    };
    /// tft-house-rules-combat.txt, "Good Bow Shots" (as fencing hits): 3-4 triple, 5-7 double.
    pub const WEAPON_MASTER: Self = Self {
        triple_max: 4,
        double_max: 7,
    };

    /// Both ceilings raised by `by` (waiting for an opening traded for a wider range).
    pub const fn widened(self, by: u32) -> Self {
        Self {
            triple_max: self.triple_max + by,
            double_max: self.double_max + by,
        }
    }
}

impl Default for CriticalRange {
    fn default() -> Self {
        Self::NORMAL
    }
}

/// Which table a roll was read on: the bot shows it, since two of them are interpretations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableSource {
    /// The published 3-dice table.
    ThreeDice,
    /// The published 4-dice table (Advanced Melee), no multipliers.
    FourDice,
    /// The 4-dice table with the guild setting: lowest total triple, next double.
    FourDiceWithSpecials,
    /// An interpretation for 5+ dice: the 4-dice pattern generalized (README.md).
    Generalized,
    /// 5+ dice with the generalization turned off: only adjDX decides.
    PlainComparison,
}

impl TableSource {
    /// Whether the table is the project's interpretation rather than a published one.
    pub const fn is_interpretation(self) -> bool {
        matches!(
            self,
            Self::FourDiceWithSpecials | Self::Generalized | Self::PlainComparison
        )
    }
}

/// The thresholds of one roll: totals are tested in the order of the fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RollTable {
    pub dice: u32,
    pub source: TableSource,
    /// Totals at or under this are triple (none if `None`).
    pub triple_max: Option<u32>,
    /// Totals at or under this (and over `triple_max`) are double.
    pub double_max: Option<u32>,
    /// Totals at or under this (and over the above) are automatic hits.
    pub automatic_hit_max: Option<u32>,
    /// Totals from here to `drop_min - 1` are automatic misses.
    pub automatic_miss_min: Option<u32>,
    /// Totals from here to `break_min - 1` drop the weapon.
    pub drop_min: Option<u32>,
    /// Totals from here up break the weapon.
    pub break_min: Option<u32>,
}

impl RollTable {
    /// The table for `dice` dice (at least [`MIN_ATTACK_DICE`]) with the given critical range.
    ///
    /// Criticals above a defended roll's automatic-hit totals are the 3-dice ranges shifted up
    /// by the extra dice, so the 4-dice setting "4 triple, 5 double" is the normal range shifted.
    pub fn new(dice: u32, criticals: CriticalRange, settings: AttackTableSettings) -> Self {
        let dice = dice.max(MIN_ATTACK_DICE);
        let shift = dice - MIN_ATTACK_DICE;
        let source = match dice {
            3 => TableSource::ThreeDice,
            4 if settings.four_dice_specials => TableSource::FourDiceWithSpecials,
            4 => TableSource::FourDice,
            _ if !settings.generalize_beyond_four => TableSource::PlainComparison,
            _ => TableSource::Generalized,
        };
        // Decision: a widened range can reach past the automatic hits (a waiting weapon master
        // doubles on 6-8); those totals hit automatically, as every other double and triple does.
        let (triple_max, double_max) = match source {
            TableSource::ThreeDice | TableSource::FourDiceWithSpecials => (
                Some(criticals.triple_max + shift),
                Some(criticals.double_max + shift),
            ),
            TableSource::Generalized if settings.four_dice_specials => (
                Some(criticals.triple_max + shift),
                Some(criticals.double_max + shift),
            ),
            _ => (None, None),
        };
        let (automatic_hit_max, automatic_miss_min, drop_min, break_min) = match dice {
            // tft-rules-summary.md, "ROLLING TO HIT": 5 hits; 16 misses; 17 drops; 18 breaks.
            3 => (Some(5), Some(16), Some(17), Some(18)),
            // README.md, "Attack rolls, 4 dice": 4-5 hit; 20 misses; 21-22 drop; 23-24 break.
            4 => (Some(5), Some(20), Some(21), Some(23)),
            // README.md, "5 or more dice" (an interpretation): N, N+1 hit; 5N misses;
            // 5N+1..5N+2 drop; 5N+3 up break.
            n if settings.generalize_beyond_four => {
                (Some(n + 1), Some(5 * n), Some(5 * n + 1), Some(5 * n + 3))
            }
            // Decision: with the generalization off there is no table at all, so only adjDX counts.
            _ => (None, None, None, None),
        };
        Self {
            dice,
            source,
            triple_max,
            double_max,
            automatic_hit_max,
            automatic_miss_min,
            drop_min,
            break_min,
        }
    }

    /// The outcome of a total against adjDX.
    pub fn classify(&self, total: u32, adj_dx: i32) -> AttackOutcome {
        let at_most = |limit: Option<u32>| limit.is_some_and(|l| total <= l);
        let at_least = |limit: Option<u32>| limit.is_some_and(|l| total >= l);
        if at_most(self.triple_max) {
            AttackOutcome::Triple
        } else if at_most(self.double_max) {
            AttackOutcome::Double
        } else if at_most(self.automatic_hit_max) {
            AttackOutcome::AutomaticHit
        } else if at_least(self.break_min) {
            AttackOutcome::WeaponBreaks
        } else if at_least(self.drop_min) {
            AttackOutcome::DropWeapon
        } else if at_least(self.automatic_miss_min) {
            AttackOutcome::AutomaticMiss
        } else if i64::from(total) <= i64::from(adj_dx) {
            AttackOutcome::Hit
        } else {
            AttackOutcome::Miss
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttackOutcome::*;

    fn table(dice: u32, crit: CriticalRange, specials: bool, generalize: bool) -> RollTable {
        RollTable::new(
            dice,
            crit,
            AttackTableSettings {
                four_dice_specials: specials,
                generalize_beyond_four: generalize,
            },
        )
    }

    #[test]
    fn defaults_follow_readme() {
        // README.md, "Attack rolls, 4 dice" / "5 or more dice".
        let s = AttackTableSettings::default();
        assert!(!s.four_dice_specials);
        assert!(s.generalize_beyond_four);
    }

    #[test]
    fn three_dice_every_total() {
        // tft-rules-summary.md, "ROLLING TO HIT", against adjDX 12: both sides of each edge.
        let t = table(3, CriticalRange::NORMAL, false, true);
        assert_eq!(t.source, TableSource::ThreeDice);
        let expected = [
            (3, Triple),
            (4, Double),
            (5, AutomaticHit),
            (6, Hit),
            (12, Hit),
            (13, Miss),
            (15, Miss),
            (16, AutomaticMiss),
            (17, DropWeapon),
            (18, WeaponBreaks),
        ];
        for (total, outcome) in expected {
            assert_eq!(t.classify(total, 12), outcome, "total {total}");
        }
        // 5 hits even at adjDX 1; 16 misses even at adjDX 20; 15 hits at adjDX 15.
        assert_eq!(t.classify(5, 1), AutomaticHit);
        assert_eq!(t.classify(6, 5), Miss);
        assert_eq!(t.classify(15, 15), Hit);
        assert_eq!(t.classify(16, 20), AutomaticMiss);
    }

    #[test]
    fn four_dice_edges() {
        // README.md, "Attack rolls, 4 dice": 4-5 automatic hits, 20 miss, 21-22 drop, 23-24 break.
        let t = table(4, CriticalRange::NORMAL, false, true);
        assert_eq!(t.source, TableSource::FourDice);
        let expected = [
            (4, AutomaticHit),
            (5, AutomaticHit),
            (6, Hit),
            (19, Hit),
            (20, AutomaticMiss),
            (21, DropWeapon),
            (22, DropWeapon),
            (23, WeaponBreaks),
            (24, WeaponBreaks),
        ];
        for (total, outcome) in expected {
            assert_eq!(t.classify(total, 25), outcome, "total {total}");
        }
        assert_eq!(t.classify(6, 5), Miss);
        // The guild setting: 4 triple, 5 double.
        let s = table(4, CriticalRange::NORMAL, true, true);
        assert_eq!(s.source, TableSource::FourDiceWithSpecials);
        assert_eq!(
            [s.classify(4, 0), s.classify(5, 0), s.classify(6, 0)],
            [Triple, Double, Miss]
        );
    }

    #[test]
    fn five_or_more_dice_generalized_and_plain() {
        // README.md, "5 or more dice": N, N+1 hit; 5N miss; 5N+1..5N+2 drop; 5N+3 up break.
        for n in 5..=8 {
            let t = table(n, CriticalRange::NORMAL, false, true);
            assert_eq!(t.source, TableSource::Generalized);
            assert!(t.source.is_interpretation());
            assert_eq!(t.classify(n + 1, 0), AutomaticHit);
            assert_eq!(t.classify(n + 2, 0), Miss);
            assert_eq!(t.classify(5 * n - 1, 99), Hit);
            assert_eq!(t.classify(5 * n, 99), AutomaticMiss);
            assert_eq!(t.classify(5 * n + 1, 99), DropWeapon);
            assert_eq!(t.classify(5 * n + 2, 99), DropWeapon);
            assert_eq!(t.classify(5 * n + 3, 99), WeaponBreaks);
            // With specials: N triple, N+1 double.
            let s = table(n, CriticalRange::NORMAL, true, true);
            assert_eq!([s.classify(n, 0), s.classify(n + 1, 0)], [Triple, Double]);
            // Generalization off: nothing automatic.
            let p = table(n, CriticalRange::NORMAL, true, false);
            assert_eq!(p.source, TableSource::PlainComparison);
            assert_eq!(p.classify(n, n as i32 - 1), Miss);
            assert_eq!(p.classify(6 * n, 6 * n as i32), Hit);
        }
        assert!(!TableSource::ThreeDice.is_interpretation());
        assert!(!TableSource::FourDice.is_interpretation());
    }

    #[test]
    fn widened_ranges_from_the_house_rules() {
        // tft-house-rules-combat.txt, "Good Bow Shots": 3-4 triple, 5-7 double.
        let m = table(3, CriticalRange::WEAPON_MASTER, false, true);
        let got: Vec<_> = (3..=8).map(|t| m.classify(t, 8)).collect();
        assert_eq!(got, [Triple, Triple, Double, Double, Double, Hit]);
        // "Waiting For An Opening": a normal blow after two turns: triple 3-5, double 6.
        let w = table(3, CriticalRange::NORMAL.widened(2), false, true);
        let got: Vec<_> = (3..=7).map(|t| w.classify(t, 7)).collect();
        assert_eq!(got, [Triple, Triple, Triple, Double, Hit]);
        // A weapon master after one turn: triple 3-5, double 6-8 (automatic even over adjDX).
        let wm = table(3, CriticalRange::WEAPON_MASTER.widened(1), false, true);
        let got: Vec<_> = (3..=9).map(|t| wm.classify(t, 4)).collect();
        assert_eq!(got, [Triple, Triple, Triple, Double, Double, Double, Miss]);
        // On 4 dice with specials the range shifts up one; without, it is gone.
        let s4 = table(4, CriticalRange::WEAPON_MASTER, true, true);
        assert_eq!([s4.classify(5, 0), s4.classify(8, 0)], [Triple, Double]);
        assert_eq!(s4.classify(9, 0), Miss);
        let n4 = table(4, CriticalRange::WEAPON_MASTER, false, true);
        assert_eq!(n4.classify(5, 0), AutomaticHit);
    }

    #[test]
    fn outcome_helpers() {
        let hits: Vec<_> = AttackOutcome::ALL.iter().map(|o| o.is_hit()).collect();
        assert_eq!(hits, [true, true, true, true, false, false, false, false]);
        assert_eq!(Triple.multiplier(), Some(Multiplier::Triple));
        assert_eq!(Double.multiplier(), Some(Multiplier::Double));
        assert_eq!(Hit.multiplier(), Some(Multiplier::Normal));
        assert_eq!(DropWeapon.multiplier(), None);
        for (i, o) in AttackOutcome::ALL.iter().enumerate() {
            assert_eq!(o.index(), i);
        }
    }
}
