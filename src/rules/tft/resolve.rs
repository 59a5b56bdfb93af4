//! A whole TFT attack in one call: to-hit, then (on a hit) damage, armor, hits applied and the
//! reaction to injury.
//!
//! Owns only the order of the steps; each step's rules live in [`super::attack`],
//! [`super::damage`] and [`super::injury`]. The dice are used in the order the table would: the
//! to-hit dice, then damage, rerolls and any knockdown save.

use super::attack::{AttackRoll, AttackSetup, AttackTableSettings};
use super::damage::{Blow, DamageError, DamageResolution, Target, resolve_damage};
use crate::rules::dice::DieSource;

/// What one attack did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackResolution {
    pub roll: AttackRoll,
    /// Present when the blow landed.
    pub damage: Option<DamageResolution>,
}

/// Rolls to hit with `setup`; on a hit, rolls `blow`'s damage against `target` with the
/// multiplier the to-hit roll earned (the blow's own multiplier is replaced).
pub fn resolve_attack(
    dice: &mut impl DieSource,
    setup: &AttackSetup,
    settings: AttackTableSettings,
    blow: &Blow,
    target: &Target,
    house_rules: bool,
) -> Result<AttackResolution, DamageError> {
    let roll = setup.roll(settings, dice);
    let damage = match roll.outcome.multiplier() {
        Some(multiplier) => {
            let blow = Blow {
                multiplier,
                ..*blow
            };
            Some(resolve_damage(dice, &blow, target, house_rules)?)
        }
        None => None,
    };
    Ok(AttackResolution { roll, damage })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::tft::Multiplier;
    use crate::rules::tft::attack::{AttackOutcome, AttackSpec, Technique};
    use crate::rules::tft::damage::Defence;
    use crate::rules::tft::gear::{ArmorKind, weapon};

    fn setup(dx: i32) -> AttackSetup {
        AttackSpec {
            dx,
            armor_dx: 0,
            shield_dx: 0,
            technique: Technique::Normal,
            adjustments: vec![],
        }
        .setup()
        .unwrap()
    }

    fn target(armor: Option<ArmorKind>) -> Target {
        Target {
            defence: Defence {
                armor,
                ..Defence::default()
            },
            st: 12,
            st_left: 12,
            earlier_hits: 0,
            acrobatics_adj_dx: None,
        }
    }

    #[test]
    fn a_miss_rolls_no_damage() {
        // tft-rules-summary.md, "ROLLING TO HIT": 13 against adjDX 12 misses.
        let sword = weapon("broadsword").unwrap();
        let mut dice = ScriptedDice::new([5, 4, 4]);
        let r = resolve_attack(
            &mut dice,
            &setup(12),
            AttackTableSettings::default(),
            &Blow::weapon(sword, 14, Multiplier::Normal),
            &target(None),
            true,
        )
        .unwrap();
        assert_eq!(r.roll.outcome, AttackOutcome::Miss);
        assert!(r.damage.is_none());
        assert_eq!(dice.remaining(), 0, "no damage dice were rolled");
    }

    #[test]
    fn a_hit_rolls_damage_through_armor() {
        // 12 against adjDX 12 hits; a broadsword does 2d; chainmail stops 3 (summary, ARMOR).
        let sword = weapon("broadsword").unwrap();
        let mut dice = ScriptedDice::new([4, 4, 4, 6, 5]);
        let r = resolve_attack(
            &mut dice,
            &setup(12),
            AttackTableSettings::default(),
            &Blow::weapon(sword, 14, Multiplier::Normal),
            &target(Some(ArmorKind::Chainmail)),
            true,
        )
        .unwrap();
        assert_eq!(r.roll.outcome, AttackOutcome::Hit);
        let damage = r.damage.expect("a hit rolls damage");
        assert_eq!(damage.damage.hits, 11 - 3);
    }

    #[test]
    fn a_roll_of_four_doubles_the_blow() {
        // 4 on 3 dice is double damage (summary, "ROLLING TO HIT").
        let sword = weapon("broadsword").unwrap();
        let mut dice = ScriptedDice::new([1, 1, 2, 3, 3]);
        let r = resolve_attack(
            &mut dice,
            &setup(12),
            AttackTableSettings::default(),
            &Blow::weapon(sword, 14, Multiplier::Normal),
            &target(None),
            false,
        )
        .unwrap();
        assert_eq!(r.roll.outcome, AttackOutcome::Double);
        // House rules off: plain multiplication, 2 × (3 + 3).
        assert_eq!(r.damage.unwrap().damage.hits, 12);
    }
}
