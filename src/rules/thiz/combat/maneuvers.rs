//! Maneuvers: grappling, tripping, disarming and sundering — actions meant to hinder, not harm.

use super::{CombatError, check};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating, resolve};

/// Berserk's bonus to Strength checks (thiz-rulebook.md, "Berserk").
pub const BERSERK_STRENGTH_BONUS: i32 = 3;
/// Flexible weapons (whips, flails) disarming (thiz-rulebook.md, "Disarming").
pub const FLEXIBLE_DISARM_BONUS: i32 = 3;
/// How far a disarmed weapon can fly on a Black success, in feet.
pub const DISARM_FLING_FEET: u32 = 10;

/// One maneuver check: own rating (+ bonus) against the target's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManeuverCheck {
    pub own: i32,
    pub bonus: i32,
    pub target: i32,
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    pub success: bool,
}

/// Rolls `own + bonus - target` on the chart: the shape of every maneuver check.
pub fn contest(
    own: i32,
    target: i32,
    bonus: i32,
    dice: &mut impl DieSource,
) -> Result<ManeuverCheck, CombatError> {
    let own = check("the rating", own)?;
    let target = check("the target's rating", target)?;
    let bonus = check("the modifier", bonus)?;
    let rating = Rating(own + bonus - target);
    let roll = dice.d100();
    let level = resolve(rating, roll);
    Ok(ManeuverCheck {
        own,
        bonus,
        target,
        rating,
        roll,
        level,
        success: level.is_success(),
    })
}

/// A Grappling check: Grappling (or General Physical) against the target's Speed (or General
/// Physical) (thiz-rulebook.md, "Grappling"). The same check holds the grapple on later turns,
/// when a success also allows a free Unarmed Combat attack, a throw ([`throw_distance`]) or a pin.
pub fn grapple(
    grappling: i32,
    target_speed: i32,
    modifier: i32,
    dice: &mut impl DieSource,
) -> Result<ManeuverCheck, CombatError> {
    contest(grappling, target_speed, modifier, dice)
}

/// How far a grappler throws: 5 feet per 5 full points of Strength; the target lands Prone.
pub fn throw_distance(strength: i32) -> u32 {
    (strength.max(0) / 5 * 5) as u32
}

/// How a grappled character tries to get out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EscapeKind {
    /// A Grappling check to turn the hold around.
    Reverse,
    /// A Strength check to break free (Berserk adds +3).
    BreakFree,
}

/// A grappled character's attempt, against the level the grappler last scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escape {
    pub kind: EscapeKind,
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    pub holder: Level,
    /// Only a level above the grappler's works.
    pub succeeded: bool,
}

/// Reverses or breaks a grapple (thiz-rulebook.md, "Grappling"): it works only when the level
/// beats the grappler's `holder` level. `rating` is Grappling for a reversal, Strength to break
/// free.
pub fn break_grapple(
    kind: EscapeKind,
    rating: i32,
    berserk: bool,
    holder: Level,
    dice: &mut impl DieSource,
) -> Result<Escape, CombatError> {
    let bonus = if berserk && kind == EscapeKind::BreakFree {
        BERSERK_STRENGTH_BONUS
    } else {
        0
    };
    let rating = Rating(check("the rating", rating)? + bonus);
    let roll = dice.d100();
    let level = resolve(rating, roll);
    Ok(Escape {
        kind,
        rating,
        roll,
        level,
        holder,
        succeeded: level > holder,
    })
}

/// A trip: weapon skill (or General Physical) + the weapon's trip bonus (whips, hooks: the
/// referee's number) against the target's Speed (or General Physical); success leaves the target
/// Prone (thiz-rulebook.md, "Tripping").
pub fn trip(
    skill: i32,
    target_speed: i32,
    trip_bonus: i32,
    dice: &mut impl DieSource,
) -> Result<ManeuverCheck, CombatError> {
    contest(skill, target_speed, trip_bonus, dice)
}

/// Where a disarmed weapon ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisarmResult {
    /// The check failed.
    Kept,
    /// Any success: at the target's feet.
    AtFeet,
    /// Black: flung `feet` away in `direction` (1 = north, then clockwise by eighths).
    Flung { direction: u32, feet: u32 },
}

/// A disarm attempt with its check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disarm {
    pub check: ManeuverCheck,
    pub result: DisarmResult,
}

/// Disarms a target in melee range (thiz-rulebook.md, "Disarming"): weapon skill (or General
/// Physical) against the target's weapon skill (or General Physical), +3 with a flexible weapon.
/// Decision: a Black success flings the weapon 1d10 feet (never more than 10) in a d8 direction.
pub fn disarm(
    skill: i32,
    target_skill: i32,
    flexible: bool,
    modifier: i32,
    dice: &mut impl DieSource,
) -> Result<Disarm, CombatError> {
    let modifier = check("the modifier", modifier)?;
    let bonus = modifier + if flexible { FLEXIBLE_DISARM_BONUS } else { 0 };
    let check = contest(skill, target_skill, bonus, dice)?;
    let result = match check.level {
        Level::Failure => DisarmResult::Kept,
        Level::Black => DisarmResult::Flung {
            direction: dice.roll(8),
            feet: dice.roll(DISARM_FLING_FEET),
        },
        Level::Green | Level::Yellow | Level::Red => DisarmResult::AtFeet,
    };
    Ok(Disarm { check, result })
}

/// The numbers a sunder attempt needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SunderInput {
    /// Weapon skill (or General Physical).
    pub skill: i32,
    /// The target's Speed (or General Physical).
    pub target_speed: i32,
    /// Strength (or General Physical) for the damage check.
    pub strength: i32,
    pub berserk: bool,
    /// The sundering weapon's Attack Bonus.
    pub weapon_bonus: i32,
    /// The Attack or Armor Bonus of the equipment aimed at.
    pub equipment_bonus: i32,
    /// On the hit check.
    pub modifier: i32,
}

/// A sunder attempt: the hit, the Strength check, and what is left of the equipment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sunder {
    pub hit: ManeuverCheck,
    /// Rolled only after a hit.
    pub strength: Option<ManeuverCheck>,
    /// Both checks succeeded.
    pub damaged: bool,
    /// The equipment's bonus afterwards.
    pub bonus_after: i32,
    /// Reduced to 0 or below.
    pub destroyed: bool,
    /// A Black Strength check also leaves a Green wound on the nearest location.
    pub green_wound: bool,
}

/// Sunders a weapon or a location's armour (thiz-rulebook.md, "Sundering"): a hit check, then a
/// Strength check; both successful cut the equipment's bonus by the weapon's Attack Bonus, and at
/// 0 or below it is destroyed. Decision: a missed hit check rolls no Strength check.
pub fn sunder(input: &SunderInput, dice: &mut impl DieSource) -> Result<Sunder, CombatError> {
    let weapon_bonus = check("the Attack Bonus", input.weapon_bonus)?;
    let equipment_bonus = check("the equipment's bonus", input.equipment_bonus)?;
    let hit = contest(input.skill, input.target_speed, input.modifier, dice)?;
    let strength = if hit.success {
        let bonus = if input.berserk {
            BERSERK_STRENGTH_BONUS
        } else {
            0
        };
        Some(contest(input.strength, 0, bonus, dice)?)
    } else {
        None
    };
    let damaged = strength.is_some_and(|s| s.success);
    let bonus_after = if damaged {
        equipment_bonus - weapon_bonus
    } else {
        equipment_bonus
    };
    Ok(Sunder {
        hit,
        strength,
        damaged,
        bonus_after,
        destroyed: damaged && bonus_after <= 0,
        green_wound: strength.is_some_and(|s| s.level == Level::Black),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn contests_subtract_the_target() {
        // Rating 5 - 3 = 2: Green ≤60.
        for (roll, ok) in [(60, true), (61, false)] {
            let c = grapple(5, 3, 0, &mut ScriptedDice::new([roll])).unwrap();
            assert_eq!((c.rating, c.success), (Rating(2), ok));
            let c = trip(4, 3, 1, &mut ScriptedDice::new([roll])).unwrap();
            assert_eq!((c.rating, c.success), (Rating(2), ok));
        }
        assert!(grapple(41, 0, 0, &mut ScriptedDice::new([1])).is_err());
    }

    #[test]
    fn throws_go_five_feet_per_five_strength() {
        // thiz-rulebook.md, "Grappling".
        for (strength, feet) in [
            (-2, 0),
            (4, 0),
            (5, 5),
            (9, 5),
            (10, 10),
            (14, 10),
            (15, 15),
        ] {
            assert_eq!(throw_distance(strength), feet, "{strength}");
        }
    }

    #[test]
    fn escaping_needs_a_better_level_than_the_grappler() {
        // thiz-rulebook.md, "Grappling": only a level above the grappler's works. Rating 0:
        // Red ≤17, Yellow 18..33.
        for (roll, holder, ok) in [
            (17, Level::Yellow, true),
            (18, Level::Yellow, false),
            (33, Level::Green, true),
        ] {
            let e = break_grapple(
                EscapeKind::Reverse,
                0,
                false,
                holder,
                &mut ScriptedDice::new([roll]),
            )
            .unwrap();
            assert_eq!(e.succeeded, ok, "roll {roll} vs {holder}");
        }
        // Berserk adds 3 to breaking free only.
        let e = break_grapple(
            EscapeKind::BreakFree,
            0,
            true,
            Level::Green,
            &mut ScriptedDice::new([1]),
        )
        .unwrap();
        assert_eq!(e.rating, Rating(3));
        let e = break_grapple(
            EscapeKind::Reverse,
            0,
            true,
            Level::Green,
            &mut ScriptedDice::new([1]),
        )
        .unwrap();
        assert_eq!(e.rating, Rating(0));
    }

    #[test]
    fn disarm_results_by_level() {
        // thiz-rulebook.md, "Disarming". Rating 0: Black ≤7, Green ≤54.
        let d = disarm(2, 2, false, 0, &mut ScriptedDice::new([7, 3, 10])).unwrap();
        assert_eq!(
            d.result,
            DisarmResult::Flung {
                direction: 3,
                feet: 10
            }
        );
        let d = disarm(2, 2, false, 0, &mut ScriptedDice::new([8])).unwrap();
        assert_eq!(d.result, DisarmResult::AtFeet);
        let d = disarm(2, 2, false, 0, &mut ScriptedDice::new([55])).unwrap();
        assert_eq!(d.result, DisarmResult::Kept);
        // A whip: +3 makes the rating 3 (Green ≤63).
        let d = disarm(2, 2, true, 0, &mut ScriptedDice::new([63])).unwrap();
        assert_eq!(
            (d.check.rating, d.result),
            (Rating(3), DisarmResult::AtFeet)
        );
    }

    #[test]
    fn rulebook_sunder_example() {
        // thiz-rulebook.md, "Sundering": a steel lucerne hammer (Attack Bonus 3) hits a bronze
        // helmet (Armor Bonus 1); a Green Strength check takes it to -2, destroyed.
        let input = SunderInput {
            skill: 5,
            target_speed: 2,
            strength: 4,
            weapon_bonus: 3,
            equipment_bonus: 1,
            ..SunderInput::default()
        };
        // Hit: rating 3, roll 20 succeeds. Strength 4: roll 50 is Green.
        let s = sunder(&input, &mut ScriptedDice::new([20, 50])).unwrap();
        assert_eq!(s.strength.map(|c| c.level), Some(Level::Green));
        assert_eq!(
            (s.damaged, s.bonus_after, s.destroyed, s.green_wound),
            (true, -2, true, false)
        );
    }

    #[test]
    fn sunder_thresholds() {
        let input = SunderInput {
            skill: 2,
            strength: 0,
            weapon_bonus: 2,
            equipment_bonus: 3,
            ..SunderInput::default()
        };
        // Miss (rating 2, roll 61): no Strength roll.
        let mut dice = ScriptedDice::new([61]);
        let s = sunder(&input, &mut dice).unwrap();
        assert_eq!((s.strength, s.damaged, s.bonus_after), (None, false, 3));
        // Hit, Strength fails (rating 0, 55): nothing.
        let s = sunder(&input, &mut ScriptedDice::new([1, 55])).unwrap();
        assert!(!s.damaged && s.bonus_after == 3);
        // Hit, Strength Black (7): 3 - 2 = 1 left, not destroyed, a Green wound.
        let s = sunder(&input, &mut ScriptedDice::new([1, 7])).unwrap();
        assert_eq!(
            (s.bonus_after, s.destroyed, s.green_wound),
            (1, false, true)
        );
        // Equipment at exactly the weapon's bonus ends at 0: destroyed.
        let even = SunderInput {
            equipment_bonus: 2,
            ..input
        };
        let s = sunder(&even, &mut ScriptedDice::new([1, 54])).unwrap();
        assert_eq!((s.bonus_after, s.destroyed), (0, true));
    }
}
