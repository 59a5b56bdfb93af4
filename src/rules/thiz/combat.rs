//! Combat: surprise and initiative, the adjusted attack rating and the hit roll, armour and
//! shields, the maneuvers, burst fire and fighting blind.
//!
//! Owns the THIZ rulebook's chapter 6 "Combat" up to "Damage" and from "Combat Equipment" on
//! (the wounds a hit leaves, dying and recovery are [`super::wounds`]), and the combat parts of
//! the quirks and weaknesses that change a number in a fight (Berserk's Strength bonus, Trained
//! for War, Missing Limb, Night-Blind). Skill ratings arrive as plain numbers: choosing between a
//! skill and its general rating, and the untrained penalty, belong to the skills module.
//!
//! Must never do I/O, format messages, or read a character sheet; every roll comes through a
//! [`crate::rules::dice::DieSource`], and every result carries the numbers that made it.

mod armor;
mod attack;
mod burst;
mod initiative;
mod maneuvers;
mod sight;
mod surprise;

pub use armor::{
    ArmorAt, ArmorPiece, MATERIAL_SUGGESTIONS, MISSILE_ATTACK_BONUSES, MaterialSetting,
    MaterialSuggestion, MissileKind, Shield, UNARMED_STRENGTH_MULTIPLE, armor_at,
    missile_attack_bonus, unarmed_can_damage,
};
pub use attack::{
    AdjustedAttack, Aim, AttackInput, AttackKind, AttackRoll, MISSING_LEG_SPEED, PRONE_MELEE,
    PRONE_MISSILE, Sight, TWO_ARM_PENALTY, TwoWeapon, UNTRAINED_DUAL_WIELD_PENALTY,
    UNTRAINED_DUAL_WIELD_SPEED, Vision, WRONG_HAND_PENALTY, adjusted_attack, roll_attack,
    speed_with_missing_leg, strength_bonus, trained_for_war_rating, two_weapon_ratings,
};
pub use burst::{BurstWeapon, BurstWound, burst_wounds};
pub use initiative::{
    InitiativeBase, InitiativeRoll, MAX_COMBATANTS, Slot, WaitCheck, WaitRule, actions_in_pass,
    initiative_pass, roll_initiative, wait_check,
};
pub use maneuvers::{
    BERSERK_STRENGTH_BONUS, DISARM_FLING_FEET, Disarm, DisarmResult, Escape, EscapeKind,
    FLEXIBLE_DISARM_BONUS, ManeuverCheck, Sunder, SunderInput, break_grapple, contest, disarm,
    grapple, sunder, throw_distance, trip,
};
pub use sight::{
    BLIND_PENALTY, CLOSE_RANGE_FEET, Hearing, NIGHT_BLIND_PENALTY, listen, possible_locations,
};
pub use surprise::{
    LateArrival, Opening, PreparednessRoll, Side, SurpriseResult, late_arrival,
    preparedness_points, roll_preparedness, surprise,
};

/// What a player can get wrong when asking for a combat roll.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    /// A rating or bonus outside the range the bot accepts.
    #[error("{what} must be between -40 and 40; you gave {value}")]
    OutOfRange { what: &'static str, value: i32 },
    /// A side with nobody on it.
    #[error("each side needs at least one combatant")]
    EmptySide,
    /// More combatants than one fight handles.
    #[error("a fight takes at most {max} combatants; you gave {count}")]
    TooManyCombatants { count: usize, max: usize },
    /// An initiative beyond what any roll can reach.
    #[error("an initiative must be between -{max} and {max}; you gave {value}", max = MAX_INITIATIVE)]
    InitiativeOutOfRange { value: i32 },
    /// Missing Limb (an arm) forbids fighting with two weapons.
    #[error("a character missing an arm cannot fight with two weapons")]
    DualWieldForbidden,
    /// Failure is not a wound.
    #[error("burst fire needs a wound (Green, Yellow, Red or Black); {0} is not one")]
    NotAWound(crate::rules::thiz::Level),
}

/// The largest initiative (in size) accepted: a d10 plus two ratings and a modifier stays far
/// inside it.
pub const MAX_INITIATIVE: i32 = 200;

/// The largest rating, bonus or modifier (in size) a player may enter.
pub const INPUT_LIMIT: i32 = 40;

/// Checks one number a player entered against ±[`INPUT_LIMIT`].
pub(crate) fn check(what: &'static str, value: i32) -> Result<i32, CombatError> {
    if (-INPUT_LIMIT..=INPUT_LIMIT).contains(&value) {
        Ok(value)
    } else {
        Err(CombatError::OutOfRange { what, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_inside_forty_pass_and_outside_fail() {
        for (value, ok) in [(-41, false), (-40, true), (40, true), (41, false)] {
            assert_eq!(check("Speed", value).is_ok(), ok, "{value}");
        }
        assert_eq!(
            check("Speed", 99).unwrap_err().to_string(),
            "Speed must be between -40 and 40; you gave 99"
        );
    }
}
