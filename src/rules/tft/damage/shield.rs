//! Shield bash, shield rush, shield wall; parrying and defending; keeping hold of a lance.
//!
//! Sources: tft-house-rules-combat.txt, "Advanced Shield Rules" and "Parrying and Defending";
//! tft-rules-summary.md, "Common DX Adjustments" (main-gauche used defensively);
//! tft-house-rules.txt, "Lance and Pike Rules". Returns stops and DX penalties as numbers; the
//! attack module applies the penalties.

use super::DamageError;
use crate::rules::dice::DieSource;
use crate::rules::tft::gear::{MAIN_GAUCHE_STOPS, ShieldKind};
use crate::rules::tft::injury::{AttributeRoll, MAX_ST, roll_against};

/// How the target parries this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Parry {
    #[default]
    None,
    /// A main-gauche in the off hand: stops 1, -1 DX on the attack.
    MainGauche,
    /// A second weapon while attacking with the first: stops 2.
    SecondWeapon,
    /// The shield while attacking with a weapon: stops 2.
    Shield,
    /// Both weapons, or weapon and shield, without attacking: stops 4.
    Full,
}

impl Parry {
    /// Extra hits stopped.
    pub fn stops(self) -> i32 {
        match self {
            Self::None => 0,
            Self::MainGauche => MAIN_GAUCHE_STOPS,
            Self::SecondWeapon | Self::Shield => 2,
            Self::Full => 4,
        }
    }

    /// Whether this parry exists only by tft-house-rules-combat.txt, "Parrying": the second
    /// weapon's, the shield's and the full parry. The main-gauche's is tft-rules-summary.md's
    /// ("ARMOR AND SHIELDS": it stops 1).
    pub fn is_house_rule(self) -> bool {
        matches!(self, Self::SecondWeapon | Self::Shield | Self::Full)
    }

    pub(super) fn check(self, shield: Option<ShieldKind>) -> Result<(), DamageError> {
        if self == Self::Shield && shield.is_none() {
            Err(DamageError::NeedsShield)
        } else {
            Ok(())
        }
    }
}

/// Whether the parrying or defending figure may also attack, and at what DX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttackAllowed {
    At(i32),
    NoAttack,
}

/// The attack a parrying figure may still make (tft-house-rules-combat.txt, "Parrying").
///
/// Decision: the Two Weapons talent's own text mentions a -2 DX shield-type parry, but the
/// "Parrying and Defending" rules say they supersede all earlier ones, so a Two Weapons figure
/// parries with its second weapon at no DX cost.
pub fn parry_attack(
    parry: Parry,
    shield: Option<ShieldKind>,
    two_weapons: bool,
    advanced_shield: bool,
) -> Result<AttackAllowed, DamageError> {
    parry.check(shield)?;
    Ok(match parry {
        Parry::None => AttackAllowed::At(0),
        Parry::MainGauche => AttackAllowed::At(-1),
        Parry::SecondWeapon => AttackAllowed::At(if two_weapons { 0 } else { -4 }),
        Parry::Shield => match shield {
            Some(ShieldKind::Tower) | None => AttackAllowed::NoAttack,
            Some(kind) => {
                let base = if kind.is_small() { -3 } else { -4 };
                AttackAllowed::At(base + i32::from(advanced_shield))
            }
        },
        Parry::Full => AttackAllowed::NoAttack,
    })
}

/// What a defending figure defends with (attackers from the front roll one more die).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefendWith {
    Weapon,
    Shield(ShieldKind),
}

/// The attack a defending figure may still make (tft-house-rules-combat.txt, "Defending"):
/// with Two Weapons at -2; with Advanced Shield at -2 (small) or -3 (large); never with a tower
/// shield or without the talent.
pub fn defend_attack(with: DefendWith, two_weapons: bool, advanced_shield: bool) -> AttackAllowed {
    match with {
        DefendWith::Weapon if two_weapons => AttackAllowed::At(-2),
        DefendWith::Shield(kind) if advanced_shield && kind != ShieldKind::Tower => {
            AttackAllowed::At(if kind.is_small() { -2 } else { -3 })
        }
        _ => AttackAllowed::NoAttack,
    }
}

/// Extra stops a shield gets in a shield wall: one per neighbour also in it
/// (tft-house-rules-combat.txt, "Shield Wall"; needs Military Discipline).
pub fn shield_wall_stops(neighbours: u32) -> Result<i32, DamageError> {
    if neighbours > 6 {
        Err(DamageError::Neighbours(neighbours))
    } else {
        Ok(neighbours as i32)
    }
}

/// Dice the foe rolls against adjDX to stay up, by ST (tft-house-rules-combat.txt, "Shield
/// Bash"): 2d if stronger, 3d if equal or up to 4 weaker, 4d if 5 or more weaker, 5d at half
/// the attacker's ST or less.
///
/// Decision: where "half or less" and "up to 4 weaker" both fit (weak attackers), the half rule
/// wins, as the more particular one.
pub fn bash_dice(attacker_st: i32, foe_st: i32) -> u32 {
    if foe_st * 2 <= attacker_st {
        5
    } else if foe_st <= attacker_st - 5 {
        4
    } else if foe_st <= attacker_st {
        3
    } else {
        2
    }
}

/// What a bash or rush did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BashResult {
    Stands,
    /// Made the roll exactly: -2 DX on its next turn.
    Shaken,
    KnockedDown,
}

/// A shield bash or rush that hit, and the foe's roll to stay up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldBash {
    /// The attacker's ST for the comparison, bonuses included.
    pub effective_st: i32,
    pub roll: AttributeRoll,
    pub result: BashResult,
}

/// The foe's roll after a shield bash (or, with `rush`, a shield rush at the end of a charge)
/// hits.
///
/// Advanced Shield adds 3 ST for the comparison; a rush adds 3, or 5 with Advanced Shield.
/// Decision: the rush's 5 replaces (does not add to) the talent's 3. Decision: the source says
/// the foe is shaken when the roll equals "the attacker's adjDX"; the roll is made against the
/// foe's adjDX, and a roll made exactly is what that clause means, so the foe's adjDX is used.
pub fn shield_bash(
    dice: &mut impl DieSource,
    attacker_st: i32,
    foe_st: i32,
    foe_adj_dx: i32,
    advanced_shield: bool,
    rush: bool,
) -> Result<ShieldBash, DamageError> {
    for st in [attacker_st, foe_st] {
        if !(1..=MAX_ST).contains(&st) {
            return Err(DamageError::St(st));
        }
    }
    let bonus = match (rush, advanced_shield) {
        (true, true) => 5,
        (true, false) | (false, true) => 3,
        (false, false) => 0,
    };
    let effective_st = attacker_st + bonus;
    let roll = roll_against(dice, bash_dice(effective_st, foe_st), foe_adj_dx);
    let result = if !roll.success {
        BashResult::KnockedDown
    } else if roll.total == foe_adj_dx {
        BashResult::Shaken
    } else {
        BashResult::Stands
    };
    Ok(ShieldBash {
        effective_st,
        roll,
        result,
    })
}

/// The rider's roll to keep hold of the lance after a charge: 3d against the lower of ST and
/// adjDX (tft-house-rules.txt, "Lance and Pike Rules").
pub fn keep_lance(dice: &mut impl DieSource, st: i32, adj_dx: i32) -> AttributeRoll {
    roll_against(dice, 3, st.min(adj_dx))
}
