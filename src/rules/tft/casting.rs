//! Casting a spell: what each roll of the to-hit table does to a spell, and the ST it costs.
//!
//! Source: tft-rules-summary.md, "ROLLING TO HIT" (the spell columns of rows 3, 4, 16, 17 and
//! 18), "CASTING SPELLS BY TYPE" (a failed creation spell costs 1 ST) and "STRENGTH" (a spell's
//! ST is fatigue, marked against ST as hits are). The roll itself is the attack's: 3 dice
//! against adjDX on the attack module's table. Never rolls, never reads a sheet.

use super::Multiplier;
use super::attack::AttackOutcome;
use super::character::SpellKind;

/// What a cast did, read from the to-hit roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastOutcome {
    /// The spell takes effect (hits its target, or appears).
    pub works: bool,
    /// A missile spell's damage, or another spell's effect, multiplied (3: triple, 4: double).
    pub multiplier: Multiplier,
    /// ST the caster pays.
    pub st_paid: u32,
    /// A missile spell that missed flies on in a straight line.
    pub flies_on: bool,
    /// The caster falls prone (a missile spell on 18).
    pub caster_falls: bool,
}

/// What a roll read as `outcome` on the 3-dice table does to a spell of `kind` costing `cost`.
///
/// Decision: a missile spell that misses was still cast, so it costs its full ST whatever the
/// miss (the summary's 17 and 18 say "full ST", and the missile flies on after a plain miss or
/// a 16). A thrown, creation or special spell that fails costs 1 ST: the summary gives 1 ST on
/// 16 and 17 and for any failed creation spell, and names no other cost of a failure; its 18
/// names only missile spells, so the others read 18 as 17.
pub fn cast_outcome(kind: SpellKind, outcome: AttackOutcome, cost: u32) -> CastOutcome {
    let missile = kind == SpellKind::Missile;
    let works = outcome.is_hit();
    let multiplier = outcome.multiplier().unwrap_or(Multiplier::Normal);
    let st_paid = if works || missile { cost } else { cost.min(1) };
    CastOutcome {
        works,
        multiplier,
        st_paid,
        flies_on: missile && matches!(outcome, AttackOutcome::Miss | AttackOutcome::AutomaticMiss),
        caster_falls: missile && outcome == AttackOutcome::WeaponBreaks,
    }
}

/// Why a caster may not cast a spell now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CastError {
    #[error("the spell costs {cost} ST and the caster has {left} left")]
    TooTired { cost: u32, left: i32 },
    #[error("the spell needs IQ {needs}; the caster has {has}")]
    IqTooLow { needs: u32, has: i32 },
}

/// Whether a caster with `st_left` ST left and `iq` may cast a spell of IQ level `spell_iq`
/// costing `cost`.
///
/// Decision: the summary treats a spell's ST as hits, and a figure at 0 ST falls unconscious;
/// a caster may spend its ST down to 0 (and fall), never below it, so a spell costing more than
/// the ST left cannot be cast.
pub fn may_cast(st_left: i32, iq: i32, spell_iq: Option<u32>, cost: u32) -> Result<(), CastError> {
    if let Some(needs) = spell_iq
        && iq < needs as i32
    {
        return Err(CastError::IqTooLow { needs, has: iq });
    }
    if i64::from(cost) > i64::from(st_left) {
        return Err(CastError::TooTired {
            cost,
            left: st_left,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttackOutcome as O;

    #[test]
    fn each_row_of_the_table_for_each_kind() {
        // tft-rules-summary.md, "ROLLING TO HIT": rows 3, 4, 5, 6-15, 16, 17, 18; a spell of 3 ST.
        let m = SpellKind::Missile;
        let t = SpellKind::Thrown;
        let c = SpellKind::Creation;
        let cases = [
            (m, O::Triple, true, Multiplier::Triple, 3, false, false),
            (m, O::Double, true, Multiplier::Double, 3, false, false),
            (
                m,
                O::AutomaticHit,
                true,
                Multiplier::Normal,
                3,
                false,
                false,
            ),
            (m, O::Hit, true, Multiplier::Normal, 3, false, false),
            (m, O::Miss, false, Multiplier::Normal, 3, true, false),
            (
                m,
                O::AutomaticMiss,
                false,
                Multiplier::Normal,
                3,
                true,
                false,
            ),
            (m, O::DropWeapon, false, Multiplier::Normal, 3, false, false),
            (
                m,
                O::WeaponBreaks,
                false,
                Multiplier::Normal,
                3,
                false,
                true,
            ),
            (t, O::Triple, true, Multiplier::Triple, 3, false, false),
            (t, O::Hit, true, Multiplier::Normal, 3, false, false),
            (t, O::Miss, false, Multiplier::Normal, 1, false, false),
            (
                t,
                O::AutomaticMiss,
                false,
                Multiplier::Normal,
                1,
                false,
                false,
            ),
            (c, O::DropWeapon, false, Multiplier::Normal, 1, false, false),
            (
                c,
                O::WeaponBreaks,
                false,
                Multiplier::Normal,
                1,
                false,
                false,
            ),
        ];
        for (kind, outcome, works, multiplier, st_paid, flies_on, caster_falls) in cases {
            assert_eq!(
                cast_outcome(kind, outcome, 3),
                CastOutcome {
                    works,
                    multiplier,
                    st_paid,
                    flies_on,
                    caster_falls
                },
                "{kind:?} {outcome:?}"
            );
        }
        // A failed 1-ST spell still costs its 1; nothing costs more than the spell.
        assert_eq!(cast_outcome(t, O::Miss, 1).st_paid, 1);
    }

    #[test]
    fn casting_down_to_zero_st_but_not_below() {
        // tft-rules-summary.md, "STRENGTH": a spell's ST is marked as hits; 0 ST falls.
        assert_eq!(may_cast(4, 10, None, 4), Ok(()));
        assert_eq!(
            may_cast(3, 10, None, 4),
            Err(CastError::TooTired { cost: 4, left: 3 })
        );
        assert_eq!(
            may_cast(-1, 10, None, 1),
            Err(CastError::TooTired { cost: 1, left: -1 })
        );
        // tft-house-rules.txt, "New and Changed Spells": Bladeturn is an IQ 14 spell.
        assert_eq!(may_cast(10, 14, Some(14), 4), Ok(()));
        assert_eq!(
            may_cast(10, 13, Some(14), 4),
            Err(CastError::IqTooLow { needs: 14, has: 13 })
        );
    }
}
