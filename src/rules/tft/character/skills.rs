//! The rolls and numbers of the house rules' new and changed talents: skiing and ski jumps,
//! snowshoes, signing, sleight of hand, Willpower.
//!
//! Source: tft-house-rules.txt, "New and Changed Skills". Only what is a roll or a number is here;
//! the rest is the GM's to read. Never rolls: it says which roll to make.

use crate::rules::tft::Dice;

/// A saving roll a talent calls for: `dice` d6 against adjDX (or IQ where said) plus `modifier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TalentRoll {
    pub dice: u32,
    pub modifier: i32,
}

/// How well a figure skis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Skier {
    /// No Skiing talent: -2 MA, -4 DX on ski rolls, a 3d/adjDX roll every combat turn.
    Untrained,
    Skiing,
    MasterSkier,
}

/// The DX bonus on ski rolls for using poles.
pub const SKI_POLES_DX: i32 = 2;
/// The DX penalty of fighting on skis (not for missile and thrown weapons or spells).
pub const SKI_COMBAT_DX: i32 = -2;
/// The same without the Skiing talent, who also roll [`SKI_UNTRAINED_COMBAT_DICE`] d against
/// adjDX every combat turn to stay up.
pub const SKI_UNTRAINED_COMBAT_DX: i32 = -4;
/// Dice of the untrained skier's roll to stay up, every combat turn.
pub const SKI_UNTRAINED_COMBAT_DICE: u32 = 3;

/// The DX penalty of a blow struck on skis (tft-house-rules.txt, "Skiing").
// Decision: the untrained skier's -4 stands in for the -2, with the same exceptions (missile
// and thrown weapons, spells): the text gives the untrained their own numbers for the same rolls.
pub fn ski_combat_dx(skier: Skier) -> i32 {
    match skier {
        Skier::Untrained => SKI_UNTRAINED_COMBAT_DX,
        Skier::Skiing | Skier::MasterSkier => SKI_COMBAT_DX,
    }
}
/// The Willpower bonus on IQ rolls against control, questioning, going berserk, leading.
pub const WILLPOWER_IQ_BONUS: i32 = 2;
/// A Military Discipline group's bonus on reaction rolls.
pub const MILITARY_DISCIPLINE_REACTION: i32 = 1;

/// The roll to stay up going downhill at `multiple` times MA (None: no roll needed).
///
/// Skiing: triple MA needs 3d/adjDX, quadruple 4d and so on; a Master Skier needs the roll from
/// quadruple MA on, one die fewer. Decision: an untrained skier rolls as one with Skiing, at -4 DX
/// (the text gives the penalty, not a separate table).
pub fn downhill_roll(skier: Skier, multiple: u32) -> Option<TalentRoll> {
    match skier {
        Skier::MasterSkier if multiple >= 4 => Some(TalentRoll {
            dice: multiple - 1,
            modifier: 0,
        }),
        Skier::Skiing if multiple >= 3 => Some(TalentRoll {
            dice: multiple,
            modifier: 0,
        }),
        Skier::Untrained if multiple >= 3 => Some(TalentRoll {
            dice: multiple,
            modifier: -4,
        }),
        _ => None,
    }
}

/// Damage of a fall at `multiple` times MA: 1d-1 at triple, 2d-1 at quadruple, and so on; a
/// Master Skier takes a die less (none left: no damage). Ski-jump falls add 1 per multiple of MA.
pub fn ski_fall_damage(skier: Skier, multiple: u32, jumping: bool) -> Option<Dice> {
    let dice = multiple.checked_sub(2)?;
    let dice = if skier == Skier::MasterSkier && !jumping {
        dice.checked_sub(1)?
    } else {
        dice
    };
    if dice == 0 {
        return None;
    }
    let extra = if jumping { multiple as i32 } else { 0 };
    Some(Dice::new(dice, -1 + extra))
}

/// A Master Skier's ski jump going downhill at `multiple` times MA: 3d/adjDX at double, 4d at
/// triple, and so on (only Master Skiers jump).
pub fn ski_jump_roll(skier: Skier, multiple: u32) -> Option<TalentRoll> {
    (skier == Skier::MasterSkier && multiple >= 2).then_some(TalentRoll {
        dice: multiple + 1,
        modifier: 0,
    })
}

/// MA on level snow with skis: +4 with Skiing, double for a Master Skier, -2 untrained.
pub fn level_snow_ma(skier: Skier, ma: u32) -> u32 {
    match skier {
        Skier::Untrained => ma.saturating_sub(2),
        Skier::Skiing => ma + 4,
        Skier::MasterSkier => ma * 2,
    }
}

/// MA uphill on skis: half (Skiing), two thirds (Master Skier), rounded down.
// Decision: the untrained skier climbs as one with Skiing, from the reduced MA.
pub fn uphill_ma(skier: Skier, ma: u32) -> u32 {
    match skier {
        Skier::Untrained => ma.saturating_sub(2) / 2,
        Skier::Skiing => ma / 2,
        Skier::MasterSkier => ma * 2 / 3,
    }
}

/// Rolls the talents of "New and Changed Skills" ask for, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TalentCheck {
    /// Without Snowshoe, moving over half MA (or any move in combat) on snowshoes: 2d/adjDX.
    SnowshoesUntrained,
    /// Signing a complicated message: 3d/adjDX.
    SignComplexMessage,
    /// Making a small object vanish: 3d/adjDX.
    SleightOfHand,
    /// Seeing through sleight of hand: 5d/IQ.
    SeeThroughSleight,
    /// The same with Alertness: 4d/IQ.
    SeeThroughSleightAlert,
    /// Untrained on skis, every combat turn: 3d/adjDX.
    SkisUntrainedCombat,
}

/// Dice of each roll in [`TalentCheck`].
pub const TALENT_CHECKS: [(TalentCheck, u32); 6] = [
    (TalentCheck::SnowshoesUntrained, 2),
    (TalentCheck::SignComplexMessage, 3),
    (TalentCheck::SleightOfHand, 3),
    (TalentCheck::SeeThroughSleight, 5),
    (TalentCheck::SeeThroughSleightAlert, 4),
    (TalentCheck::SkisUntrainedCombat, SKI_UNTRAINED_COMBAT_DICE),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downhill_rolls_both_sides() {
        // tft-house-rules.txt, "Skiing" and "Master Skier".
        assert_eq!(downhill_roll(Skier::Skiing, 2), None);
        assert_eq!(
            downhill_roll(Skier::Skiing, 3),
            Some(TalentRoll {
                dice: 3,
                modifier: 0
            })
        );
        assert_eq!(
            downhill_roll(Skier::Skiing, 4),
            Some(TalentRoll {
                dice: 4,
                modifier: 0
            })
        );
        assert_eq!(downhill_roll(Skier::MasterSkier, 3), None);
        assert_eq!(
            downhill_roll(Skier::MasterSkier, 4),
            Some(TalentRoll {
                dice: 3,
                modifier: 0
            })
        );
        assert_eq!(
            downhill_roll(Skier::Untrained, 3),
            Some(TalentRoll {
                dice: 3,
                modifier: -4
            })
        );
    }

    #[test]
    fn combat_on_skis_by_talent() {
        // tft-house-rules.txt, "Skiing": combat at -2 DX; without the talent -4.
        assert_eq!(ski_combat_dx(Skier::Untrained), -4);
        assert_eq!(ski_combat_dx(Skier::Skiing), -2);
        assert_eq!(ski_combat_dx(Skier::MasterSkier), -2);
    }

    #[test]
    fn fall_damage_and_jumps() {
        // "Skiing": 1d-1 at triple, 2d-1 at quadruple; "Master Skier": a die less, jumps +1 per
        // multiple of MA, 3d at double and 4d at triple.
        assert_eq!(ski_fall_damage(Skier::Skiing, 2, false), None);
        assert_eq!(
            ski_fall_damage(Skier::Skiing, 3, false),
            Some(Dice::new(1, -1))
        );
        assert_eq!(
            ski_fall_damage(Skier::Skiing, 4, false),
            Some(Dice::new(2, -1))
        );
        assert_eq!(ski_fall_damage(Skier::MasterSkier, 3, false), None);
        assert_eq!(
            ski_fall_damage(Skier::MasterSkier, 4, false),
            Some(Dice::new(1, -1))
        );
        assert_eq!(
            ski_fall_damage(Skier::MasterSkier, 3, true),
            Some(Dice::new(1, 2))
        );
        assert_eq!(
            ski_jump_roll(Skier::MasterSkier, 2),
            Some(TalentRoll {
                dice: 3,
                modifier: 0
            })
        );
        assert_eq!(
            ski_jump_roll(Skier::MasterSkier, 3),
            Some(TalentRoll {
                dice: 4,
                modifier: 0
            })
        );
        assert_eq!(ski_jump_roll(Skier::Skiing, 3), None);
    }

    #[test]
    fn snow_movement() {
        assert_eq!(
            [Skier::Untrained, Skier::Skiing, Skier::MasterSkier].map(|s| level_snow_ma(s, 10)),
            [8, 14, 20]
        );
        assert_eq!(
            [Skier::Untrained, Skier::Skiing, Skier::MasterSkier].map(|s| uphill_ma(s, 10)),
            [4, 5, 6]
        );
        assert_eq!(
            TALENT_CHECKS
                .iter()
                .find(|(c, _)| *c == TalentCheck::SeeThroughSleight)
                .map(|c| c.1),
            Some(5)
        );
    }
}
