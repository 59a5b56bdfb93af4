//! Hand-to-hand entry and exit, fleeing, and what a called shot does.
//!
//! Sources: tft-house-rules-combat.txt, "Hand-to-Hand Combat" and "Fleeing";
//! tft-rules-summary.md, "OPTIONS FOR FIGURES IN HTH COMBAT" and "OTHER ATTACKS".

use super::{AttributeRoll, InjuryError, roll_against};
use crate::rules::dice::DieSource;

/// A modifier to the 2d roll to enter hand-to-hand combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HthModifier {
    FromCrawling,
    DuringMovement,
    DefenderHigherMa,
    DefenderHigherUc,
    AttackerHigherUc,
    LeapingFromAbove,
    FromSide,
    DefenderAgainstWall,
    FromRear,
}

impl HthModifier {
    /// Its value on the roll (tft-house-rules-combat.txt, "Hand-to-Hand Combat").
    pub fn value(self) -> i32 {
        match self {
            Self::FromCrawling | Self::DuringMovement => -2,
            Self::DefenderHigherMa | Self::DefenderHigherUc => -1,
            Self::AttackerHigherUc
            | Self::LeapingFromAbove
            | Self::FromSide
            | Self::DefenderAgainstWall => 1,
            Self::FromRear => 2,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::FromCrawling => "from crawling",
            Self::DuringMovement => "during movement",
            Self::DefenderHigherMa => "defender has higher MA",
            Self::DefenderHigherUc => "defender has higher UC skill",
            Self::AttackerHigherUc => "attacker has higher UC skill",
            Self::LeapingFromAbove => "leaping from above",
            Self::FromSide => "from the side",
            Self::DefenderAgainstWall => "defender against a wall",
            Self::FromRear => "from the rear",
        }
    }
}

/// What an attempt to enter hand-to-hand combat does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HthResult {
    /// 2 or less: the attacker is thrown back and falls.
    AttackerKnockedBackAndDown,
    /// 3-5: the attacker is thrown back.
    AttackerKnockedBack,
    /// 6-8: HTH begins; the defender has time to ready a dagger.
    DefenderReadiesDagger,
    /// 9-11: HTH begins without the defender readying a dagger.
    Initiated,
    /// 12 or more: HTH begins, the defender is stunned and at -2 DX next turn.
    DefenderStunned,
}

impl HthResult {
    pub fn initiated(self) -> bool {
        !matches!(
            self,
            Self::AttackerKnockedBack | Self::AttackerKnockedBackAndDown
        )
    }
}

/// The result for a modified 2d total.
pub fn hth_result(total: i32) -> HthResult {
    match total {
        ..=2 => HthResult::AttackerKnockedBackAndDown,
        3..=5 => HthResult::AttackerKnockedBack,
        6..=8 => HthResult::DefenderReadiesDagger,
        9..=11 => HthResult::Initiated,
        12.. => HthResult::DefenderStunned,
    }
}

/// An attempt to enter HTH, with the faces and every modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HthEntry {
    pub faces: Vec<u32>,
    pub roll: i32,
    pub modifiers: Vec<(HthModifier, i32)>,
    pub total: i32,
    pub result: HthResult,
}

/// Rolls 2d plus the modifiers to enter hand-to-hand combat.
///
/// Each modifier counts once; the two UC-skill modifiers exclude each other, and so do the side
/// and rear approaches.
pub fn hth_entry(
    dice: &mut impl DieSource,
    modifiers: &[HthModifier],
) -> Result<HthEntry, InjuryError> {
    for (i, m) in modifiers.iter().enumerate() {
        let clash = modifiers[..i].iter().any(|o| {
            o == m
                || matches!(
                    (o, m),
                    (HthModifier::DefenderHigherUc, HthModifier::AttackerHigherUc)
                        | (HthModifier::AttackerHigherUc, HthModifier::DefenderHigherUc)
                        | (HthModifier::FromSide, HthModifier::FromRear)
                        | (HthModifier::FromRear, HthModifier::FromSide)
                )
        });
        if clash {
            return Err(InjuryError::HthModifierClash(m.name()));
        }
    }
    let faces = dice.d6s(2);
    let roll = faces.iter().sum::<u32>() as i32;
    let modifiers: Vec<_> = modifiers.iter().map(|&m| (m, m.value())).collect();
    let total = roll + modifiers.iter().map(|(_, v)| v).sum::<i32>();
    Ok(HthEntry {
        faces,
        roll,
        modifiers,
        total,
        result: hth_result(total),
    })
}

/// Whether the attacker may also strike on the turn HTH began: only when it began during
/// movement and the attacker had moved half its MA or less.
pub fn may_strike_at_once(during_movement: bool, moved_at_most_half_ma: bool) -> bool {
    during_movement && moved_at_most_half_ma
}

/// Trying to leave HTH: 4d against adjDX, without the +4 DX figures get in HTH (the caller
/// passes adjDX without it). Success puts the figure crawling in an adjacent hex.
pub fn leave_hth(dice: &mut impl DieSource, adj_dx: i32) -> AttributeRoll {
    roll_against(dice, 4, adj_dx)
}

/// Drawing a dagger while in HTH: 3d against DX (tft-rules-summary.md, "OPTIONS FOR FIGURES IN
/// HTH COMBAT").
pub fn draw_dagger(dice: &mut impl DieSource, dx: i32) -> AttributeRoll {
    roll_against(dice, 3, dx)
}

/// The free attacks a fleeing figure gives away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreeAttacks {
    /// One per adjacent foe, on top of their own actions.
    pub attacks: u32,
    pub dx_bonus: i32,
}

/// Fleeing while engaged (tft-house-rules-combat.txt, "Fleeing"): every adjacent foe gets one
/// free attack at +4 DX.
pub fn fleeing(adjacent_foes: u32) -> Result<FreeAttacks, InjuryError> {
    if adjacent_foes > 6 {
        return Err(InjuryError::Neighbours(adjacent_foes));
    }
    Ok(FreeAttacks {
        attacks: adjacent_foes,
        dx_bonus: 4,
    })
}

/// A called target for a blow (tft-rules-summary.md, "OTHER ATTACKS").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CalledArea {
    Head,
    WeaponHand,
    ShieldArm,
    Leg,
    Wing,
}

impl CalledArea {
    /// The adjDX for aiming there.
    pub fn dx_adjust(self) -> i32 {
        match self {
            Self::Head | Self::ShieldArm => -6,
            Self::WeaponHand | Self::Leg | Self::Wing => -4,
        }
    }
}

/// What hits on a called area do; each effect includes the lighter ones of its area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CalledEffect {
    /// Too few hits for anything beyond the hits themselves.
    None,
    /// Head, 3 or more hits.
    KnockedOut,
    /// Weapon hand, 3-5.
    DropsWeapon,
    /// Weapon hand, 6-7: also no use of the hand until treated.
    HandUselessUntilTreated,
    /// Weapon hand, 8 or more.
    HandDisabled,
    /// Shield arm, 3-5.
    LosesShield,
    /// Shield arm, 6-7: no use of the arm until healed, -2 adjDX from the shield until dropped.
    ArmUselessUntilHealed,
    /// Shield arm, 8 or more.
    ArmDisabled,
    /// Leg, 3-4: down to kneeling for at least two rounds.
    Kneels,
    /// Leg, 5 or more: MA 0 in combat, 3 on a crutch, until treated.
    LegUseless,
    /// Wing, 4-7: cannot fly for the rest of the combat.
    Grounded,
    /// Wing, 8 or more: useless until treated.
    WingUseless,
}

/// The effect of `hits` on a called area.
pub fn called_shot_effect(area: CalledArea, hits: i32) -> CalledEffect {
    use CalledEffect as E;
    match (area, hits) {
        (CalledArea::Head, 3..) => E::KnockedOut,
        (CalledArea::WeaponHand, 8..) => E::HandDisabled,
        (CalledArea::WeaponHand, 6..=7) => E::HandUselessUntilTreated,
        (CalledArea::WeaponHand, 3..=5) => E::DropsWeapon,
        (CalledArea::ShieldArm, 8..) => E::ArmDisabled,
        (CalledArea::ShieldArm, 6..=7) => E::ArmUselessUntilHealed,
        (CalledArea::ShieldArm, 3..=5) => E::LosesShield,
        (CalledArea::Leg, 5..) => E::LegUseless,
        (CalledArea::Leg, 3..=4) => E::Kneels,
        (CalledArea::Wing, 8..) => E::WingUseless,
        (CalledArea::Wing, 4..=7) => E::Grounded,
        _ => E::None,
    }
}
