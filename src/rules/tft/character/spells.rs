//! The house rules' new and changed spells as numbers, and the distance adjustments of the spell
//! types.
//!
//! Sources: tft-house-rules.txt, "New and Changed Spells" (IQ level, type, ST cost, upkeep, the
//! rolls a spell calls for, the Wall of Fire example); tft-rules-summary.md, "CASTING SPELLS BY
//! TYPE". Only what is a number is kept; what a spell does in play is the GM's to read. Never
//! rolls.

/// The spell types of the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpellKind {
    Missile,
    Thrown,
    Creation,
    Special,
}

/// What keeping a spell going costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpellUpkeep {
    None,
    /// ST each turn it is kept up.
    PerTurn(u32),
    /// ST for each hour back to the moment to be forgotten (Amnesia).
    PerHourBack(u32),
}

/// One new or changed spell, as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpellInfo {
    pub name: &'static str,
    pub iq: u32,
    pub kind: SpellKind,
    /// ST to cast.
    pub cast_st: u32,
    pub upkeep: SpellUpkeep,
    /// Dice of the roll the spell asks of its targets or attackers ("5d/adjDX to hit"), if any.
    pub roll_dice: Option<u32>,
}

impl SpellInfo {
    /// Whether the spell exists only by the house rules: every spell of "New and Changed
    /// Spells" but the one the text marks a modification (Summon Myrmidon, a spell of the
    /// original game that the house rules only change).
    pub fn is_house_rule(&self) -> bool {
        self.name != "Summon Myrmidon"
    }
}

/// The house rules' spell of this name (compared without case, spaces or punctuation).
pub fn new_spell(name: &str) -> Option<&'static SpellInfo> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let wanted = key(name);
    NEW_SPELLS.iter().find(|s| key(s.name) == wanted)
}

const fn spell(
    name: &'static str,
    iq: u32,
    kind: SpellKind,
    cast_st: u32,
    upkeep: SpellUpkeep,
    roll_dice: Option<u32>,
) -> SpellInfo {
    SpellInfo {
        name,
        iq,
        kind,
        cast_st,
        upkeep,
        roll_dice,
    }
}

use SpellKind::{Creation as C, Thrown as T};
use SpellUpkeep::{None as Once, PerHourBack, PerTurn};

// tft-house-rules.txt, "New and Changed Spells", in the text's order (by IQ level).
// Amnesia: the subject remembers on 5d/IQ the next day and 3d/IQ later (roll_dice keeps the 5).
// Bladeturn and Spellturn: attackers roll 5d against adjDX. Control Missile: 3d/adjDX to aim the
// turned missile. Control Will: 4d to resist.
/// The new and changed spells, by IQ level.
pub const NEW_SPELLS: [SpellInfo; 20] = [
    spell("Flame Shield", 9, T, 2, PerTurn(1), None),
    spell("Deflect Missiles", 9, T, 1, PerTurn(1), None),
    spell("Summon Small Animal", 9, C, 2, PerTurn(1), None),
    spell("Complex Image", 10, C, 2, Once, None),
    spell("Summon Myrmidon", 10, C, 2, PerTurn(1), None),
    spell("Wall of Fire", 11, C, 3, Once, None),
    spell("Acute Hearing", 11, T, 2, Once, None),
    spell("Levitate", 11, T, 2, PerTurn(1), None),
    spell("Summon Animal", 11, C, 3, PerTurn(1), None),
    spell("Summon Warrior", 12, C, 3, PerTurn(1), None),
    spell("3-Hex Wall of Fire", 13, C, 5, Once, None),
    spell("Summon Large Animal", 13, C, 4, PerTurn(1), None),
    spell("Amnesia", 14, T, 4, PerHourBack(2), Some(5)),
    spell("Bladeturn", 14, T, 4, PerTurn(1), Some(5)),
    spell("Summon Veteran", 15, C, 4, PerTurn(1), None),
    spell("Control Missile", 15, T, 3, PerTurn(1), Some(3)),
    spell("Summon Great Animal", 15, C, 5, PerTurn(1), None),
    spell("Spellturn", 15, T, 4, PerTurn(1), Some(5)),
    spell("Control Will", 16, T, 5, PerTurn(1), Some(4)),
    spell("7-Hex Wall of Fire", 17, C, 7, Once, None),
];

/// What a summoning spell may bring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummonLimit {
    /// An animal with at most these attributes (and of one hex, when `one_hex`).
    Animal {
        max_st: u32,
        max_dx: u32,
        max_iq: u32,
        one_hex: bool,
    },
    /// A human fighter with exactly this ST + DX and IQ, and at least `min_st` ST.
    Fighter {
        st_plus_dx: u32,
        iq: u32,
        min_st: u32,
    },
}

// tft-house-rules.txt, "New and Changed Spells": the summoning spells' limits. The Myrmidon's
// text sets no least ST (0 here).
/// The limits of each summoning spell, by spell name.
pub const SUMMON_LIMITS: [(&str, SummonLimit); 7] = [
    (
        "Summon Small Animal",
        SummonLimit::Animal {
            max_st: 11,
            max_dx: 14,
            max_iq: 6,
            one_hex: true,
        },
    ),
    (
        "Summon Myrmidon",
        SummonLimit::Fighter {
            st_plus_dx: 24,
            iq: 8,
            min_st: 0,
        },
    ),
    (
        "Summon Animal",
        SummonLimit::Animal {
            max_st: 20,
            max_dx: 14,
            max_iq: 6,
            one_hex: true,
        },
    ),
    (
        "Summon Warrior",
        SummonLimit::Fighter {
            st_plus_dx: 28,
            iq: 9,
            min_st: 14,
        },
    ),
    (
        "Summon Large Animal",
        SummonLimit::Animal {
            max_st: 30,
            max_dx: 15,
            max_iq: 6,
            one_hex: false,
        },
    ),
    (
        "Summon Veteran",
        SummonLimit::Fighter {
            st_plus_dx: 32,
            iq: 9,
            min_st: 16,
        },
    ),
    (
        "Summon Great Animal",
        SummonLimit::Animal {
            max_st: 50,
            max_dx: 15,
            max_iq: 6,
            one_hex: false,
        },
    ),
];

/// Whether a creature with these attributes fits a summoning spell's limits (`hexes`: its size).
pub fn fits_summon(limit: SummonLimit, st: u32, dx: u32, iq: u32, hexes: u32) -> bool {
    match limit {
        SummonLimit::Animal {
            max_st,
            max_dx,
            max_iq,
            one_hex,
        } => st <= max_st && dx <= max_dx && iq <= max_iq && (!one_hex || hexes == 1),
        SummonLimit::Fighter {
            st_plus_dx,
            iq: want_iq,
            min_st,
        } => st + dx == st_plus_dx && iq == want_iq && st >= min_st,
    }
}

/// The DX adjustment for the distance to a spell's target (tft-rules-summary.md, "CASTING SPELLS
/// BY TYPE"): missile spells -1 for every two megahexes, thrown spells -1 for each hex between
/// caster and target, creation spells none; special spells say in their text (0 here).
/// `distance` is in megahexes for missile spells and in hexes between for thrown ones.
// Decision: an odd megahex left over costs nothing ("every two").
pub fn spell_distance_adjustment(kind: SpellKind, distance: u32) -> i32 {
    match kind {
        SpellKind::Missile => -((distance / 2) as i32),
        SpellKind::Thrown => -(distance as i32),
        SpellKind::Creation | SpellKind::Special => 0,
    }
}

/// The hits a Wall of Fire does in one turn and what gets through armor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallOfFireHits {
    pub total: u32,
    pub through_armor: u32,
}

/// Hits from Wall of Fire in one turn (tft-house-rules.txt, "Wall of Fire"): 4 for moving through
/// a wall hex (or being in it when it is made), 6 for ending the move in one, 2 for ending next to
/// one; they add up within the turn and armor stops hits from the total once (the damage
/// module's pooled hits).
pub fn wall_of_fire_hits(
    passed_through: u32,
    ended_in: bool,
    ended_adjacent: bool,
    armor_stops: u32,
) -> WallOfFireHits {
    let through = i32::try_from(passed_through.saturating_mul(4)).unwrap_or(i32::MAX / 2);
    let ended = if ended_in {
        6
    } else if ended_adjacent {
        2
    } else {
        0
    };
    let stops = i32::try_from(armor_stops).unwrap_or(i32::MAX);
    let pooled = crate::rules::tft::damage::pooled_hits(&[through, ended], stops);
    WallOfFireHits {
        total: pooled.total.unsigned_abs(),
        through_armor: pooled.hits.unsigned_abs(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // tft-house-rules.txt, "New and Changed Spells": the new spells are the house rules' own;
    // Summon Myrmidon is marked "(modification)", a spell of the original game.
    #[test]
    fn new_spells_are_house_rules_and_the_modified_one_is_not() {
        let cases = [
            ("Bladeturn", Some(true)),
            ("flame shield", Some(true)),
            ("7-hex wall of fire", Some(true)),
            ("Summon Myrmidon", Some(false)),
            ("summon  myrmidon!", Some(false)),
            ("Fireball", None),
        ];
        for (name, house) in cases {
            assert_eq!(
                new_spell(name).map(SpellInfo::is_house_rule),
                house,
                "{name}"
            );
        }
        assert_eq!(NEW_SPELLS.iter().filter(|s| !s.is_house_rule()).count(), 1);
    }

    #[test]
    fn summon_limits_both_sides() {
        // tft-house-rules.txt, "Summon Small Animal", "Summon Warrior".
        let small = SUMMON_LIMITS[0].1;
        assert!(fits_summon(small, 11, 14, 6, 1));
        assert!(!fits_summon(small, 12, 14, 6, 1));
        assert!(!fits_summon(small, 11, 15, 6, 1));
        assert!(!fits_summon(small, 11, 14, 7, 1));
        assert!(!fits_summon(small, 11, 14, 6, 2));
        let warrior = SUMMON_LIMITS[3].1;
        assert!(fits_summon(warrior, 14, 14, 9, 1));
        assert!(!fits_summon(warrior, 13, 15, 9, 1));
        assert!(!fits_summon(warrior, 15, 14, 9, 1));
        for (name, _) in SUMMON_LIMITS {
            assert!(NEW_SPELLS.iter().any(|s| s.name == name), "{name}");
        }
    }

    #[test]
    fn wall_of_fire_example() {
        // tft-house-rules.txt, "Wall of Fire": through a wall and stopping next to it in chainmail
        // (stops 3): 6 hits, 3 get through; stopping in another wall hex: 10 hits, 7 through.
        assert_eq!(
            wall_of_fire_hits(1, false, true, 3),
            WallOfFireHits {
                total: 6,
                through_armor: 3
            }
        );
        assert_eq!(
            wall_of_fire_hits(1, true, false, 3),
            WallOfFireHits {
                total: 10,
                through_armor: 7
            }
        );
        assert_eq!(
            wall_of_fire_hits(0, false, false, 3),
            WallOfFireHits {
                total: 0,
                through_armor: 0
            }
        );
    }

    #[test]
    fn distance_adjustments_both_sides() {
        // tft-rules-summary.md, "CASTING SPELLS BY TYPE".
        assert_eq!(
            [0, 1, 2, 3, 4].map(|d| spell_distance_adjustment(SpellKind::Missile, d)),
            [0, 0, -1, -1, -2]
        );
        assert_eq!(spell_distance_adjustment(SpellKind::Thrown, 0), 0);
        assert_eq!(spell_distance_adjustment(SpellKind::Thrown, 3), -3);
        assert_eq!(spell_distance_adjustment(SpellKind::Creation, 9), 0);
    }

    #[test]
    fn spell_table_is_in_iq_order_and_sane() {
        for w in NEW_SPELLS.windows(2) {
            assert!(w[0].iq <= w[1].iq, "{} before {}", w[0].name, w[1].name);
        }
        for s in NEW_SPELLS {
            assert!(
                (9..=17).contains(&s.iq) && (1..=7).contains(&s.cast_st),
                "{}",
                s.name
            );
        }
        let bladeturn = NEW_SPELLS
            .iter()
            .find(|s| s.name == "Bladeturn")
            .copied()
            .unwrap();
        assert_eq!(
            (bladeturn.iq, bladeturn.cast_st, bladeturn.roll_dice),
            (14, 4, Some(5))
        );
    }
}
