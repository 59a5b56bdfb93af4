//! Death and dying: the 2d roll to live, its modifiers, and the weeks of recovery.
//!
//! Source: tft-house-rules.txt, "Death and Dying".

use super::{InjuryError, MAX_ST};
use crate::rules::dice::DieSource;

/// Who is helping the dying figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Helper {
    /// A friend without healing talents: enough to let a figure below 0 ST roll at all.
    Friend,
    FirstAid,
    Physicker,
    MasterPhysicker,
}

impl Helper {
    /// Bonus as the first helper.
    pub fn first_bonus(self) -> i32 {
        match self {
            Self::Friend => 0,
            Self::FirstAid => 1,
            Self::Physicker => 2,
            Self::MasterPhysicker => 3,
        }
    }

    /// Bonus as a second helper.
    ///
    /// Decision: the source names a second physicker (+1) and master physicker (+2) only; a
    /// second helper with First Aid or no talent adds nothing.
    pub fn second_bonus(self) -> i32 {
        match self {
            Self::Friend | Self::FirstAid => 0,
            Self::Physicker => 1,
            Self::MasterPhysicker => 2,
        }
    }
}

/// The modifier of the figure's original ST: 1-8 -1, 9-11 0, 12-14 +1, 15+ +2.
pub fn original_st_modifier(st: i32) -> Result<i32, InjuryError> {
    match st {
        1..=8 => Ok(-1),
        9..=11 => Ok(0),
        12..=14 => Ok(1),
        15..=MAX_ST => Ok(2),
        _ => Err(InjuryError::St(st)),
    }
}

/// One line of the dying roll's modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DyingModifier {
    /// -1 per ST below 0.
    StBelowZero,
    FirstHelper(Helper),
    SecondHelper(Helper),
    /// +1 per 2 healing potions, at most 4 potions.
    HealingPotions,
    /// -1 per minute without help.
    MinutesUnhelped,
    OriginalSt,
}

/// The figure on the ground and the help it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dying {
    /// ST left: 0 or below.
    pub st_left: i32,
    /// Its ST before it was hurt.
    pub original_st: i32,
    pub helper: Option<Helper>,
    pub second_helper: Option<Helper>,
    pub healing_potions: u32,
    pub minutes_unhelped: u32,
}

/// How it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DyingOutcome {
    /// Below 0 ST with nobody helping: no roll, the figure dies.
    DiesUnaided,
    Rolled(DyingRoll),
}

/// The roll, every modifier, and whether the figure lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DyingRoll {
    pub faces: Vec<u32>,
    pub roll: i32,
    pub modifiers: Vec<(DyingModifier, i32)>,
    pub total: i32,
    /// 8 or more to live; a natural 2 always dies.
    pub survived: bool,
}

/// The total a dying figure needs.
pub const TO_LIVE: i32 = 8;
/// Weeks a survivor needs to recover fully, whatever its ST.
pub const RECOVERY_WEEKS: u32 = 5;
/// Minutes of uninterrupted help a dying figure needs.
pub const HELP_MINUTES: u32 = 5;

/// The DX penalty of a survivor after resting `weeks` weeks: -5, one less each week.
pub fn dx_penalty_after_weeks(weeks: u32) -> i32 {
    -(RECOVERY_WEEKS.saturating_sub(weeks) as i32)
}

/// Rolls 2d with every modifier for a figure at 0 ST or below.
///
/// Decision: "maximum of 4" healing potions is read as at most 4 potions counting (+2).
pub fn roll_dying(dice: &mut impl DieSource, who: &Dying) -> Result<DyingOutcome, InjuryError> {
    if who.st_left > 0 {
        return Err(InjuryError::NotDying(who.st_left));
    }
    if who.st_left < -MAX_ST {
        return Err(InjuryError::St(who.st_left));
    }
    let st_mod = original_st_modifier(who.original_st)?;
    if who.st_left < 0 && who.helper.is_none() {
        return Ok(DyingOutcome::DiesUnaided);
    }
    let mut modifiers = Vec::new();
    if who.st_left < 0 {
        modifiers.push((DyingModifier::StBelowZero, who.st_left));
    }
    if let Some(h) = who.helper {
        modifiers.push((DyingModifier::FirstHelper(h), h.first_bonus()));
    }
    if let Some(h) = who.second_helper {
        modifiers.push((DyingModifier::SecondHelper(h), h.second_bonus()));
    }
    let potions = who.healing_potions.min(4) as i32 / 2;
    if potions > 0 {
        modifiers.push((DyingModifier::HealingPotions, potions));
    }
    if who.minutes_unhelped > 0 {
        let minutes = who.minutes_unhelped.min(10_000) as i32;
        modifiers.push((DyingModifier::MinutesUnhelped, -minutes));
    }
    modifiers.push((DyingModifier::OriginalSt, st_mod));
    let faces = dice.d6s(2);
    let roll = faces.iter().sum::<u32>() as i32;
    let total = roll + modifiers.iter().map(|(_, v)| v).sum::<i32>();
    Ok(DyingOutcome::Rolled(DyingRoll {
        faces,
        roll,
        modifiers,
        total,
        survived: roll != 2 && total >= TO_LIVE,
    }))
}
