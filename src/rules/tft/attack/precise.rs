//! Precise attacks: aiming at a head, hand, arm, leg or wing.
//!
//! Owns the DX penalty of each aimed area and what the blow does there, as data
//! (tft-rules-summary.md, "PRECISE ATTACKS" and "OTHER ATTACKS"). Never applies the effects: the
//! injury module reads them with the hits that got through.

/// An aimed area. Body blows are ordinary attacks and have no entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PreciseTarget {
    /// An accurate throw at the head (single dagger, throwing star or whip only).
    ThrownHead,
    /// An accurate throw at the hand (single dagger, throwing star or whip only).
    ThrownHand,
    /// A blow at the head.
    Head,
    /// A blow at the weapon hand.
    WeaponHand,
    /// A blow at the shield arm.
    ShieldArm,
    /// A blow at a leg.
    Leg,
    /// A blow at a wing.
    Wing,
}

/// What an aimed blow does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PreciseEffect {
    /// The target's armor does not count.
    IgnoresArmor,
    /// Damage is doubled.
    DoubleDamage,
    /// The target drops what the hand holds.
    DropsItem,
    /// The target's shield does not count, nor armor lighter than chainmail.
    IgnoresShieldAndLightArmor,
    /// The target is knocked out.
    KnockedOut,
    /// The target drops its weapon.
    DropsWeapon,
    /// The hand is useless until treated.
    HandUselessUntilTreated,
    /// The hand is disabled.
    HandDisabled,
    /// The shield can no longer be used.
    LosesShield,
    /// The arm is useless until healed, and the shield's bulk costs -2 DX until dropped.
    ArmUselessUntilHealed,
    /// The arm is disabled.
    ArmDisabled,
    /// The target drops to kneeling for at least two rounds.
    KneelsTwoRounds,
    /// The leg is useless: MA 0 in combat, MA 3 with a crutch, until treated.
    LegUseless,
    /// The target cannot fly for the rest of the combat.
    Grounded,
    /// The wing is useless until treated.
    WingUselessUntilTreated,
}

/// One effect and the hits that trigger it (`max_hits` `None`: no upper bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EffectBand {
    pub min_hits: u32,
    pub max_hits: Option<u32>,
    pub effect: PreciseEffect,
}

const fn band(min_hits: u32, max_hits: Option<u32>, effect: PreciseEffect) -> EffectBand {
    EffectBand {
        min_hits,
        max_hits,
        effect,
    }
}

/// One row of the precise-attack tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PreciseRow {
    pub target: PreciseTarget,
    pub dx: i32,
    /// Effects of any hit (whatever the number of hits).
    pub on_hit: &'static [PreciseEffect],
    /// Effects that need a number of hits.
    pub bands: &'static [EffectBand],
}

use PreciseEffect as E;

/// tft-rules-summary.md, "PRECISE ATTACKS" (thrown) and "OTHER ATTACKS".
pub const PRECISE_TABLE: [PreciseRow; 7] = [
    PreciseRow {
        target: PreciseTarget::ThrownHead,
        dx: -6,
        on_hit: &[E::IgnoresArmor, E::DoubleDamage],
        bands: &[],
    },
    PreciseRow {
        target: PreciseTarget::ThrownHand,
        dx: -6,
        on_hit: &[E::DropsItem, E::IgnoresShieldAndLightArmor],
        bands: &[],
    },
    PreciseRow {
        target: PreciseTarget::Head,
        dx: -6,
        on_hit: &[],
        // "More than 2 hits".
        bands: &[band(3, None, E::KnockedOut)],
    },
    PreciseRow {
        target: PreciseTarget::WeaponHand,
        dx: -4,
        on_hit: &[],
        bands: &[
            band(3, None, E::DropsWeapon),
            band(6, Some(7), E::HandUselessUntilTreated),
            band(8, None, E::HandDisabled),
        ],
    },
    PreciseRow {
        target: PreciseTarget::ShieldArm,
        dx: -6,
        on_hit: &[],
        bands: &[
            band(3, None, E::LosesShield),
            band(6, Some(7), E::ArmUselessUntilHealed),
            band(8, None, E::ArmDisabled),
        ],
    },
    PreciseRow {
        target: PreciseTarget::Leg,
        dx: -4,
        on_hit: &[],
        bands: &[
            band(3, None, E::KneelsTwoRounds),
            band(5, None, E::LegUseless),
        ],
    },
    PreciseRow {
        target: PreciseTarget::Wing,
        dx: -4,
        on_hit: &[],
        bands: &[
            band(4, None, E::Grounded),
            band(8, None, E::WingUselessUntilTreated),
        ],
    },
];

impl PreciseTarget {
    /// This target's row of [`PRECISE_TABLE`].
    pub fn row(self) -> &'static PreciseRow {
        // The table has one row per variant in declaration order (a test checks it).
        &PRECISE_TABLE[self as usize]
    }

    /// The DX adjustment for aiming here.
    pub fn dx(self) -> i32 {
        self.row().dx
    }

    /// Every effect of a hit here that did `hits` hits (after armor), in table order.
    pub fn effects(self, hits: u32) -> Vec<PreciseEffect> {
        let row = self.row();
        let mut out = row.on_hit.to_vec();
        out.extend(
            row.bands
                .iter()
                .filter(|b| hits >= b.min_hits && b.max_hits.is_none_or(|m| hits <= m))
                .map(|b| b.effect),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_covers_every_target_in_order() {
        let all = [
            PreciseTarget::ThrownHead,
            PreciseTarget::ThrownHand,
            PreciseTarget::Head,
            PreciseTarget::WeaponHand,
            PreciseTarget::ShieldArm,
            PreciseTarget::Leg,
            PreciseTarget::Wing,
        ];
        for (i, t) in all.iter().enumerate() {
            assert_eq!(PRECISE_TABLE[i].target, *t);
            // Bands ascend by their first hit.
            let mins: Vec<_> = t.row().bands.iter().map(|b| b.min_hits).collect();
            assert!(mins.is_sorted(), "{t:?}");
        }
    }

    #[test]
    fn penalties() {
        // tft-rules-summary.md, "PRECISE ATTACKS" and "OTHER ATTACKS".
        let dx: Vec<_> = PRECISE_TABLE.iter().map(|r| r.target.dx()).collect();
        assert_eq!(dx, [-6, -6, -6, -4, -6, -4, -4]);
    }

    #[test]
    fn effects_at_each_threshold() {
        use PreciseEffect::*;
        use PreciseTarget as T;
        // tft-rules-summary.md, "OTHER ATTACKS": both sides of every hit count.
        let cases: [(T, u32, &[PreciseEffect]); 17] = [
            (T::ThrownHead, 0, &[IgnoresArmor, DoubleDamage]),
            (T::ThrownHand, 1, &[DropsItem, IgnoresShieldAndLightArmor]),
            (T::Head, 2, &[]),
            (T::Head, 3, &[KnockedOut]),
            (T::WeaponHand, 2, &[]),
            (T::WeaponHand, 3, &[DropsWeapon]),
            (T::WeaponHand, 5, &[DropsWeapon]),
            (T::WeaponHand, 6, &[DropsWeapon, HandUselessUntilTreated]),
            (T::WeaponHand, 7, &[DropsWeapon, HandUselessUntilTreated]),
            (T::WeaponHand, 8, &[DropsWeapon, HandDisabled]),
            (T::ShieldArm, 2, &[]),
            (T::ShieldArm, 7, &[LosesShield, ArmUselessUntilHealed]),
            (T::ShieldArm, 8, &[LosesShield, ArmDisabled]),
            (T::Leg, 4, &[KneelsTwoRounds]),
            (T::Leg, 5, &[KneelsTwoRounds, LegUseless]),
            (T::Wing, 3, &[]),
            (T::Wing, 8, &[Grounded, WingUselessUntilTreated]),
        ];
        for (target, hits, want) in cases {
            assert_eq!(target.effects(hits), want, "{target:?} {hits}");
        }
        assert_eq!(T::Wing.effects(4), [Grounded]);
        assert_eq!(T::Leg.effects(2), []);
    }
}
