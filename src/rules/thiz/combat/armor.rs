//! Armour and shields at a location, the rulebook's suggested equipment bonuses, and when bare
//! fists can hurt an armoured foe.

use super::{CombatError, check};
use crate::rules::thiz::Location;

/// A setting in the rulebook's material examples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialSetting {
    Medieval,
    Futuristic,
}

/// A suggested material and the Attack or Armor Bonus its hardness gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaterialSuggestion {
    pub setting: MaterialSetting,
    pub material: &'static str,
    pub bonus: i32,
}

/// The rulebook's example materials, softest first in each setting (thiz-rulebook.md, "Combat
/// Equipment"). Suggestions only: each table ranks its own setting's materials 1 to 4 or 5.
pub const MATERIAL_SUGGESTIONS: [MaterialSuggestion; 8] = [
    MaterialSuggestion {
        setting: MaterialSetting::Medieval,
        material: "Leather",
        bonus: 1,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Medieval,
        material: "Bronze",
        bonus: 2,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Medieval,
        material: "Iron",
        bonus: 3,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Medieval,
        material: "Steel",
        bonus: 4,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Futuristic,
        material: "Carbon Fiber",
        bonus: 1,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Futuristic,
        material: "Steel",
        bonus: 2,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Futuristic,
        material: "Titanium",
        bonus: 3,
    },
    MaterialSuggestion {
        setting: MaterialSetting::Futuristic,
        material: "Plasteel",
        bonus: 4,
    },
];

/// Kinds of missile, for their suggested Attack Bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissileKind {
    /// Bows and the like (missiles of hardness 1 or more).
    LowVelocity,
    /// Low velocity, made to pierce armour (bodkin points).
    LowVelocityPiercing,
    /// Bullets and faster.
    HighVelocity,
    /// Armour-piercing bullets and faster.
    HighVelocityPiercing,
}

/// Suggested Attack Bonuses of missiles (thiz-rulebook.md, "Combat Equipment").
pub const MISSILE_ATTACK_BONUSES: [(MissileKind, i32); 4] = [
    (MissileKind::LowVelocity, 1),
    (MissileKind::LowVelocityPiercing, 2),
    (MissileKind::HighVelocity, 3),
    (MissileKind::HighVelocityPiercing, 4),
];

/// The suggested Attack Bonus of a kind of missile.
pub fn missile_attack_bonus(kind: MissileKind) -> i32 {
    MISSILE_ATTACK_BONUSES
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(0, |&(_, b)| b)
}

/// A piece of armour and the locations it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmorPiece {
    pub bonus: i32,
    pub covers: Vec<Location>,
}

/// A shield and the arm that carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shield {
    pub bonus: i32,
    pub arm: Location,
}

/// The Armor Bonus at one location, with its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmorAt {
    pub location: Location,
    /// The best piece of worn armour covering it (pieces do not stack).
    pub worn: i32,
    /// The shield's bonus when it protects this location.
    pub shield: i32,
    pub total: i32,
}

/// The Armor Bonus at `location` (thiz-rulebook.md, "Shields"): worn pieces do not stack, the
/// best one counts; a shield adds its bonus to the arm carrying it, and to one more location a
/// turn, `shield_covers`, declared when an attack comes. Decision: declaring the shield's own arm
/// does not add it twice.
pub fn armor_at(
    location: Location,
    pieces: &[ArmorPiece],
    shield: Option<Shield>,
    shield_covers: Option<Location>,
) -> Result<ArmorAt, CombatError> {
    let mut worn = 0;
    for piece in pieces {
        let bonus = check("an Armor Bonus", piece.bonus)?;
        if piece.covers.contains(&location) {
            worn = worn.max(bonus);
        }
    }
    let shield = match shield {
        Some(s) if s.arm == location || shield_covers == Some(location) => {
            check("the shield's Armor Bonus", s.bonus)?
        }
        Some(s) => {
            check("the shield's Armor Bonus", s.bonus)?;
            0
        }
        None => 0,
    };
    Ok(ArmorAt {
        location,
        worn,
        shield,
        total: worn + shield,
    })
}

/// How many times the Armor Bonus Strength must reach for bare fists to hurt (thiz-rulebook.md,
/// "Unarmed Combat").
pub const UNARMED_STRENGTH_MULTIPLE: i32 = 3;

/// Whether an unarmed attack can wound (thiz-rulebook.md, "Unarmed Combat" and the Unarmed Combat
/// skill): always against no armour or a mook; against an armoured Adversary only with Strength
/// at least triple the Armor Bonus, or a fist weapon of Attack Bonus 1 or more.
/// Decision: "triple" is read as "at least triple"; the limit names Adversaries only, so armoured
/// mooks can be hurt.
pub fn unarmed_can_damage(
    strength: i32,
    armor: i32,
    fist_weapon_bonus: i32,
    target_is_mook: bool,
) -> bool {
    armor <= 0
        || target_is_mook
        || fist_weapon_bonus >= 1
        || strength >= UNARMED_STRENGTH_MULTIPLE * armor
}

#[cfg(test)]
mod tests {
    use super::*;
    use Location::*;

    #[test]
    fn material_tables_rise_in_each_setting() {
        for setting in [MaterialSetting::Medieval, MaterialSetting::Futuristic] {
            let bonuses: Vec<i32> = MATERIAL_SUGGESTIONS
                .iter()
                .filter(|m| m.setting == setting)
                .map(|m| m.bonus)
                .collect();
            assert_eq!(bonuses, [1, 2, 3, 4]);
        }
        // thiz-rulebook.md, "Combat Equipment": a Titanium sword +3, bronze armour +2.
        let find = |s, m| {
            MATERIAL_SUGGESTIONS
                .iter()
                .find(|x| x.setting == s && x.material == m)
                .map(|x| x.bonus)
        };
        assert_eq!(find(MaterialSetting::Futuristic, "Titanium"), Some(3));
        assert_eq!(find(MaterialSetting::Medieval, "Bronze"), Some(2));
    }

    #[test]
    fn missile_bonuses() {
        let kinds: Vec<i32> = MISSILE_ATTACK_BONUSES.iter().map(|(_, b)| *b).collect();
        assert_eq!(kinds, [1, 2, 3, 4]);
        assert_eq!(missile_attack_bonus(MissileKind::LowVelocityPiercing), 2);
        assert_eq!(missile_attack_bonus(MissileKind::HighVelocityPiercing), 4);
    }

    #[test]
    fn worn_armour_takes_the_best_and_shields_add() {
        // thiz-rulebook.md, "Shields".
        let pieces = [
            ArmorPiece {
                bonus: 2,
                covers: vec![Chest, Gut, LeftArm],
            },
            ArmorPiece {
                bonus: 3,
                covers: vec![Chest],
            },
        ];
        let shield = Some(Shield {
            bonus: 1,
            arm: LeftArm,
        });
        let at = |l, covers| armor_at(l, &pieces, shield, covers).unwrap();
        assert_eq!(at(Chest, None).total, 3);
        assert_eq!(
            at(LeftArm, None),
            ArmorAt {
                location: LeftArm,
                worn: 2,
                shield: 1,
                total: 3
            }
        );
        assert_eq!(at(Gut, None).total, 2);
        assert_eq!(at(Gut, Some(Gut)).total, 3);
        assert_eq!(at(LeftArm, Some(LeftArm)).total, 3);
        assert_eq!(at(Head, Some(Gut)).total, 0);
        assert_eq!(at(Head, Some(Head)).total, 1);
        assert!(
            armor_at(
                Head,
                &[ArmorPiece {
                    bonus: 41,
                    covers: vec![]
                }],
                None,
                None
            )
            .is_err()
        );
    }

    #[test]
    fn fists_against_armour() {
        // thiz-rulebook.md, "Unarmed Combat": Strength triple the Armor Bonus, or a fist weapon.
        for (strength, armor, fist, mook, want) in [
            (0, 0, 0, false, true),
            (5, 2, 0, false, false),
            (6, 2, 0, false, true),
            (5, 2, 1, false, true),
            (5, 2, 0, true, true),
            (8, 3, 0, false, false),
            (9, 3, 0, false, true),
        ] {
            assert_eq!(
                unarmed_can_damage(strength, armor, fist, mook),
                want,
                "{strength} {armor} {fist} {mook}"
            );
        }
    }
}
