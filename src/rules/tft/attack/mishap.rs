//! What a to-hit outcome means for each kind of attack: weapons, bare hands and spells.
//!
//! Owns the columns of tft-rules-summary.md, "ROLLING TO HIT", beyond the weapon column: a
//! fumble hurts an unarmed attacker and costs a caster ST. Never applies the cost (the caller
//! marks ST or rolls the 1d) and never changes which outcome a roll gives.

use super::AttackOutcome;

/// Who or what is attacking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AttackKind {
    /// A weapon, melee, thrown or missile.
    #[default]
    Weapon,
    /// Bare hands or natural weapons (claws, teeth).
    Unarmed,
    /// A missile spell.
    MissileSpell,
    /// A thrown spell.
    ThrownSpell,
    /// A creation spell.
    CreationSpell,
    /// A special spell.
    SpecialSpell,
}

/// The side effect of a missed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mishap {
    /// Nothing beyond the miss.
    None,
    /// The weapon is dropped.
    DropWeapon,
    /// The weapon breaks.
    WeaponBreaks,
    /// The attacker takes 1d damage.
    SelfDamage,
    /// The missile spell misses and flies on in a straight line.
    SpellContinues,
    /// The spell costs 1 ST and does nothing.
    OneStNoEffect,
    /// The spell costs its full ST and fails.
    FullStFails,
    /// The spell costs its full ST, does nothing, and the caster falls prone.
    FullStCasterProne,
}

impl AttackKind {
    /// The mishap of `outcome` for this kind of attack.
    pub fn mishap(self, outcome: AttackOutcome) -> Mishap {
        use AttackKind as K;
        use AttackOutcome as O;
        // A plain miss of a creation spell still costs 1 ST (tft-rules-summary.md, "CASTING
        // SPELLS BY TYPE").
        match (outcome, self) {
            (O::AutomaticMiss, K::MissileSpell) => Mishap::SpellContinues,
            (O::Miss, K::CreationSpell)
            | (
                O::AutomaticMiss | O::DropWeapon | O::WeaponBreaks,
                K::ThrownSpell | K::CreationSpell | K::SpecialSpell,
            ) => Mishap::OneStNoEffect,
            (O::DropWeapon | O::WeaponBreaks, K::Unarmed) => Mishap::SelfDamage,
            (O::DropWeapon, K::Weapon) => Mishap::DropWeapon,
            (O::WeaponBreaks, K::Weapon) => Mishap::WeaponBreaks,
            (O::DropWeapon, K::MissileSpell) => Mishap::FullStFails,
            (O::WeaponBreaks, K::MissileSpell) => Mishap::FullStCasterProne,
            _ => Mishap::None,
        }
    }
}

// Decision: the summary gives thrown and creation spells no line for 18 and special spells only
// a line for 16; they all cost 1 ST with no effect, as on their listed rolls.

#[cfg(test)]
mod tests {
    use super::*;
    use AttackKind as K;
    use AttackOutcome as O;

    #[test]
    fn every_column() {
        // tft-rules-summary.md, "ROLLING TO HIT", rolls 16, 17 and 18 by column.
        let cases = [
            (
                K::Weapon,
                [Mishap::None, Mishap::DropWeapon, Mishap::WeaponBreaks],
            ),
            (
                K::Unarmed,
                [Mishap::None, Mishap::SelfDamage, Mishap::SelfDamage],
            ),
            (
                K::MissileSpell,
                [
                    Mishap::SpellContinues,
                    Mishap::FullStFails,
                    Mishap::FullStCasterProne,
                ],
            ),
            (K::ThrownSpell, [Mishap::OneStNoEffect; 3]),
            (K::CreationSpell, [Mishap::OneStNoEffect; 3]),
            (K::SpecialSpell, [Mishap::OneStNoEffect; 3]),
        ];
        for (kind, want) in cases {
            let got = [O::AutomaticMiss, O::DropWeapon, O::WeaponBreaks].map(|o| kind.mishap(o));
            assert_eq!(got, want, "{kind:?}");
        }
    }

    #[test]
    fn hits_and_plain_misses() {
        for kind in [K::Weapon, K::Unarmed, K::MissileSpell, K::ThrownSpell] {
            assert_eq!(kind.mishap(O::Miss), Mishap::None, "{kind:?}");
            assert_eq!(kind.mishap(O::Triple), Mishap::None, "{kind:?}");
        }
        // "CASTING SPELLS BY TYPE": a failed creation spell costs 1 ST.
        assert_eq!(K::CreationSpell.mishap(O::Miss), Mishap::OneStNoEffect);
        assert_eq!(K::CreationSpell.mishap(O::Hit), Mishap::None);
    }
}
