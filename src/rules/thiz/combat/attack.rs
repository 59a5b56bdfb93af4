//! The adjusted attack rating, the hit roll and where it lands, and the numbers that feed them:
//! Strength, Defend, Prone, sight, two weapons, Trained for War and Missing Limb.

use super::sight::{BLIND_PENALTY, NIGHT_BLIND_PENALTY};
use super::{CombatError, check};
use crate::rules::dice::DieSource;
use crate::rules::thiz::wounds::{LocationRoll, random_location};
use crate::rules::thiz::{Level, Location, Rating, resolve};

/// Attacking a Prone target with a missile (thiz-rulebook.md, "Dropping Prone").
pub const PRONE_MISSILE: i32 = -3;
/// Attacking a Prone target in melee (thiz-rulebook.md, "Dropping Prone").
pub const PRONE_MELEE: i32 = 3;
/// Two weapons without the Dual-Wield skill: on both attacks (thiz-rulebook.md, "Two-Weapon
/// Fighting").
pub const UNTRAINED_DUAL_WIELD_PENALTY: i32 = -3;
/// Two weapons without the Dual-Wield skill: to Speed until the end of the next Initiative Pass.
pub const UNTRAINED_DUAL_WIELD_SPEED: i32 = -2;
/// A weapon in the wrong hand (thiz-rulebook.md, "Dual-Wield").
pub const WRONG_HAND_PENALTY: i32 = -2;
/// Missing Limb: skills that need both arms (thiz-rulebook.md, "Missing Limb").
pub const TWO_ARM_PENALTY: i32 = -5;
/// Missing Limb: the Speed of a character missing a leg with no prosthetic.
pub const MISSING_LEG_SPEED: i32 = -2;

/// Melee (within 5 feet, location chosen) or missile (out of melee, location rolled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttackKind {
    #[default]
    Melee,
    Missile,
}

/// How well one combatant sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Vision {
    #[default]
    Clear,
    /// Night-Blind, and it is night.
    NightBlind,
    /// Blind, in complete darkness, or blinded.
    Blind,
}

/// Who can see in this attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sight {
    pub attacker: Vision,
    pub target: Vision,
}

/// Everything the adjusted attack rating is made of, as plain numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AttackInput {
    pub kind: AttackKind,
    /// The weapon skill, or General Physical when that is what the attacker checks.
    pub skill: i32,
    /// The weapon's Attack Bonus.
    pub weapon_bonus: i32,
    /// Strength, for the melee bonus.
    pub strength: i32,
    /// Berserk: the melee bonus comes per 5 points of Strength instead of 10.
    pub berserk: bool,
    /// The target's Speed (or General Physical), wound penalties already taken off.
    pub defence: i32,
    /// The target took the Defend action: its weapon skill, added for the first attack on it.
    pub defending: Option<i32>,
    /// The target's Armor Bonus at the location (see [`super::armor_at`]); 0 for a missile aimed
    /// at a location not yet rolled is the caller's choice to make after the roll.
    pub armor: i32,
    pub target_prone: bool,
    pub sight: Sight,
    /// Anything else: Tactics, wounds on the attacker, a referee's call.
    pub modifier: i32,
}

/// The adjusted attack rating with every part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdjustedAttack {
    pub skill: i32,
    pub weapon_bonus: i32,
    pub strength_bonus: i32,
    pub prone: i32,
    /// The attacker's sight penalties (blind, Night-Blind).
    pub attacker_sight: i32,
    pub modifier: i32,
    /// Everything on the attacker's side added up.
    pub attack: i32,
    pub defence: i32,
    pub defend_bonus: i32,
    /// The target's sight penalties to avoiding the attack.
    pub target_sight: i32,
    pub armor: i32,
    /// Everything on the target's side added up.
    pub defence_total: i32,
    /// `attack - defence_total`: the rating the hit is checked against.
    pub rating: Rating,
}

/// The melee attack bonus from Strength: +1 per 10 full points, per 5 while Berserk
/// (thiz-rulebook.md, "Strength" and "Berserk"; rules/README.md "Strength melee bonus").
pub fn strength_bonus(strength: i32, berserk: bool) -> i32 {
    let step = if berserk { 5 } else { 10 };
    strength.max(0) / step
}

fn sight_penalties(sight: Sight) -> (i32, i32) {
    // Both unable to see: the penalties cancel out (thiz-rulebook.md, "Sight").
    if sight.attacker == Vision::Blind && sight.target == Vision::Blind {
        return (0, 0);
    }
    // Decision: a Night-Blind target avoids attacks by sight, so its Speed takes the -2 too.
    let penalty = |vision: Vision| match vision {
        Vision::Clear => 0,
        Vision::NightBlind => NIGHT_BLIND_PENALTY,
        Vision::Blind => BLIND_PENALTY,
    };
    (penalty(sight.attacker), penalty(sight.target))
}

/// The adjusted attack rating (thiz-rulebook.md, "Determining a Hit"): (skill + Attack Bonus +
/// Strength bonus in melee) − (Speed + Armor Bonus), with Defend, Prone, sight and modifiers.
pub fn adjusted_attack(input: &AttackInput) -> Result<AdjustedAttack, CombatError> {
    let skill = check("the attack skill", input.skill)?;
    let weapon_bonus = check("the Attack Bonus", input.weapon_bonus)?;
    let strength = check("Strength", input.strength)?;
    let defence = check("the target's Speed", input.defence)?;
    let defend_bonus = match input.defending {
        Some(s) => check("the defender's weapon skill", s)?,
        None => 0,
    };
    let armor = check("the Armor Bonus", input.armor)?;
    let modifier = check("the modifier", input.modifier)?;
    let strength_bonus = match input.kind {
        AttackKind::Melee => strength_bonus(strength, input.berserk),
        AttackKind::Missile => 0,
    };
    let prone = match (input.target_prone, input.kind) {
        (false, _) => 0,
        (true, AttackKind::Melee) => PRONE_MELEE,
        (true, AttackKind::Missile) => PRONE_MISSILE,
    };
    let (attacker_sight, target_sight) = sight_penalties(input.sight);
    let attack = skill + weapon_bonus + strength_bonus + prone + attacker_sight + modifier;
    let defence_total = defence + defend_bonus + target_sight + armor;
    Ok(AdjustedAttack {
        skill,
        weapon_bonus,
        strength_bonus,
        prone,
        attacker_sight,
        modifier,
        attack,
        defence,
        defend_bonus,
        target_sight,
        armor,
        defence_total,
        rating: Rating(attack - defence_total),
    })
}

/// Where an attack is aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// A melee attack names its location.
    Melee(Location),
    /// A missile lands where the location table says.
    Missile,
    /// A missile at a named location: only a Black success hits.
    CalledShot(Location),
    /// A blind melee attack at a guessed square: a hit lands on a rolled location.
    BlindMelee,
}

/// The hit check and where it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackRoll {
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    /// The hit's level when it hit (the level the target's Toughness is checked against).
    pub hit: Option<Level>,
    pub location: Option<Location>,
    /// The location roll, for missiles and blind attacks that hit.
    pub location_roll: Option<LocationRoll>,
}

/// Rolls the hit check (thiz-rulebook.md, "Determining a Hit": any success hits) and, on a hit,
/// the location (thiz-rulebook.md, "Attack": missiles roll the table; a called shot needs Black).
/// Decision: the location is rolled only after a hit, so a miss rolls one die.
pub fn roll_attack(rating: Rating, aim: Aim, dice: &mut impl DieSource) -> AttackRoll {
    let roll = dice.d100();
    let level = resolve(rating, roll);
    let needed = match aim {
        Aim::CalledShot(_) => Level::Black,
        Aim::Melee(_) | Aim::Missile | Aim::BlindMelee => Level::Green,
    };
    let mut out = AttackRoll {
        rating,
        roll,
        level,
        hit: None,
        location: None,
        location_roll: None,
    };
    if level < needed {
        return out;
    }
    out.hit = Some(level);
    match aim {
        Aim::Melee(location) | Aim::CalledShot(location) => out.location = Some(location),
        Aim::Missile | Aim::BlindMelee => {
            let rolled = random_location(dice);
            out.location = Some(rolled.location);
            out.location_roll = Some(rolled);
        }
    }
    out
}

/// The ratings for attacking with two weapons in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoWeapon {
    /// The main-hand attack's rating (before the adjusted-attack arithmetic).
    pub main: i32,
    /// The second weapon's rating; its attack resolves after the lowest initiative's turn.
    pub second: i32,
    /// The -3 on both attacks without Dual-Wield, else 0.
    pub untrained: i32,
    /// The -2 to both when the weapons are held in the wrong hands, else 0.
    pub wrong_hand: i32,
    /// The -2 to Speed until the end of the next Initiative Pass without Dual-Wield, else 0.
    pub speed: i32,
}

/// Ratings for two-weapon fighting (thiz-rulebook.md, "Two-Weapon Fighting", "Dual-Wield",
/// "Missing Limb"). With Dual-Wield the second weapon uses the lower of its skill and Dual-Wield;
/// without it both attacks take -3 and Speed -2. A character missing an arm cannot do it.
/// Decision: the wrong-hand -2 applies to both attacks when the pair is held the other way round.
pub fn two_weapon_ratings(
    main_skill: i32,
    second_skill: i32,
    dual_wield: Option<i32>,
    wrong_hand: bool,
    missing_arm: bool,
) -> Result<TwoWeapon, CombatError> {
    if missing_arm {
        return Err(CombatError::DualWieldForbidden);
    }
    let main_skill = check("the main weapon's skill", main_skill)?;
    let second_skill = check("the second weapon's skill", second_skill)?;
    let wrong_hand = if wrong_hand { WRONG_HAND_PENALTY } else { 0 };
    let (second_base, untrained, speed) = match dual_wield {
        Some(dw) => (second_skill.min(check("Dual-Wield", dw)?), 0, 0),
        None => (
            second_skill,
            UNTRAINED_DUAL_WIELD_PENALTY,
            UNTRAINED_DUAL_WIELD_SPEED,
        ),
    };
    Ok(TwoWeapon {
        main: main_skill + untrained + wrong_hand,
        second: second_base + untrained + wrong_hand,
        untrained,
        wrong_hand,
        speed,
    })
}

/// The rating for an untrained weapon of the starting weapon's family with Trained for War:
/// General Physical + 2, but not above the best skill in that family (thiz-rulebook.md, "Trained
/// for War"). Decision: the cap never drops the rating below plain General Physical, which the
/// character could use anyway.
pub fn trained_for_war_rating(physical: i32, best_in_family: i32) -> i32 {
    physical.max((physical + 2).min(best_in_family))
}

/// Speed with Missing Limb: a missing leg without a prosthetic makes it -2 whatever it was.
pub fn speed_with_missing_leg(speed: i32, missing_leg_without_prosthetic: bool) -> i32 {
    if missing_leg_without_prosthetic {
        MISSING_LEG_SPEED
    } else {
        speed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn melee(skill: i32, weapon_bonus: i32, defence: i32, armor: i32) -> AttackInput {
        AttackInput {
            skill,
            weapon_bonus,
            defence,
            armor,
            ..AttackInput::default()
        }
    }

    #[test]
    fn rulebook_sword_example() {
        // thiz-rulebook.md, "Determining a Hit": Sword 3 + bonus 4 − (Speed 4 + armor 1) = 2.
        let a = adjusted_attack(&melee(3, 4, 4, 1)).unwrap();
        assert_eq!((a.attack, a.defence_total, a.rating), (7, 5, Rating(2)));
    }

    #[test]
    fn strength_bonus_steps() {
        // thiz-rulebook.md, "Strength" (1 at 10, 1 at 15, 2 at 20) and "Berserk" (per 5).
        for (strength, berserk, bonus) in [
            (-3, false, 0),
            (4, false, 0),
            (5, false, 0),
            (9, false, 0),
            (10, false, 1),
            (15, false, 1),
            (19, false, 1),
            (20, false, 2),
            (4, true, 0),
            (5, true, 1),
            (9, true, 1),
            (10, true, 2),
            (15, true, 3),
            (20, true, 4),
            (-3, true, 0),
        ] {
            assert_eq!(
                strength_bonus(strength, berserk),
                bonus,
                "{strength} {berserk}"
            );
        }
    }

    #[test]
    fn strength_counts_in_melee_only() {
        let mut input = melee(3, 0, 0, 0);
        input.strength = 20;
        assert_eq!(adjusted_attack(&input).unwrap().rating, Rating(5));
        input.kind = AttackKind::Missile;
        assert_eq!(adjusted_attack(&input).unwrap().rating, Rating(3));
    }

    /// A change to the base input and the rating it should give.
    type Case = (fn(&mut AttackInput), i32);

    #[test]
    fn defend_prone_and_sight() {
        // thiz-rulebook.md "Defend" (+weapon skill), "Dropping Prone" (melee +3, missile -3),
        // "Sight" (-5 each, cancelling), "Night-Blind" (-2).
        let base = melee(5, 0, 2, 0);
        let missile = |i: &mut AttackInput| {
            i.target_prone = true;
            i.kind = AttackKind::Missile;
        };
        let both_blind = |i: &mut AttackInput| {
            i.sight = Sight {
                attacker: Vision::Blind,
                target: Vision::Blind,
            };
        };
        let cases: [Case; 9] = [
            (|_| {}, 3),
            (|i| i.defending = Some(4), -1),
            (|i| i.target_prone = true, 6),
            (missile, 0),
            (|i| i.sight.attacker = Vision::Blind, -2),
            (|i| i.sight.target = Vision::Blind, 8),
            (both_blind, 3),
            (|i| i.sight.attacker = Vision::NightBlind, 1),
            (|i| i.sight.target = Vision::NightBlind, 5),
        ];
        for (n, (change, want)) in cases.into_iter().enumerate() {
            let mut input = base;
            change(&mut input);
            assert_eq!(
                adjusted_attack(&input).unwrap().rating,
                Rating(want),
                "case {n}"
            );
        }
    }

    #[test]
    fn out_of_range_inputs_are_refused() {
        assert!(adjusted_attack(&melee(41, 0, 0, 0)).is_err());
        assert!(adjusted_attack(&melee(0, 0, 0, -41)).is_err());
        assert!(adjusted_attack(&melee(40, 40, -40, -40)).is_ok());
    }

    #[test]
    fn any_success_hits_where_aimed() {
        // Rating 2: Black ≤8, Green ≤60.
        let r = roll_attack(
            Rating(2),
            Aim::Melee(Location::Gut),
            &mut ScriptedDice::new([60]),
        );
        assert_eq!(
            (r.hit, r.location),
            (Some(Level::Green), Some(Location::Gut))
        );
        let r = roll_attack(
            Rating(2),
            Aim::Melee(Location::Gut),
            &mut ScriptedDice::new([61]),
        );
        assert_eq!((r.hit, r.location), (None, None));
    }

    #[test]
    fn missiles_roll_a_location_after_a_hit() {
        let r = roll_attack(Rating(2), Aim::Missile, &mut ScriptedDice::new([30, 91]));
        assert_eq!(r.location, Some(Location::Head));
        assert_eq!(r.location_roll.map(|l| l.roll), Some(91));
        let mut dice = ScriptedDice::new([61]);
        assert_eq!(
            roll_attack(Rating(2), Aim::Missile, &mut dice).location_roll,
            None
        );
        assert_eq!(dice.remaining(), 0);
        let r = roll_attack(Rating(2), Aim::BlindMelee, &mut ScriptedDice::new([1, 10]));
        assert_eq!(r.location, Some(Location::LeftLeg));
    }

    #[test]
    fn called_shots_need_black() {
        // thiz-rulebook.md, "Attack": a declared location needs Black or the attack misses.
        for (roll, hit) in [(8, Some(Level::Black)), (9, None), (60, None)] {
            let r = roll_attack(
                Rating(2),
                Aim::CalledShot(Location::Head),
                &mut ScriptedDice::new([roll]),
            );
            assert_eq!(r.hit, hit, "roll {roll}");
            assert_eq!(r.location, hit.map(|_| Location::Head));
        }
    }

    #[test]
    fn two_weapons_with_and_without_dual_wield() {
        // thiz-rulebook.md, "Two-Weapon Fighting" and "Dual-Wield".
        let trained = two_weapon_ratings(6, 5, Some(3), false, false).unwrap();
        assert_eq!((trained.main, trained.second, trained.speed), (6, 3, 0));
        let trained = two_weapon_ratings(6, 2, Some(3), false, false).unwrap();
        assert_eq!(trained.second, 2);
        let untrained = two_weapon_ratings(6, 5, None, false, false).unwrap();
        assert_eq!(
            (untrained.main, untrained.second, untrained.speed),
            (3, 2, -2)
        );
        let swapped = two_weapon_ratings(6, 5, Some(5), true, false).unwrap();
        assert_eq!((swapped.main, swapped.second), (4, 3));
        assert_eq!(
            two_weapon_ratings(6, 5, Some(5), false, true),
            Err(CombatError::DualWieldForbidden)
        );
    }

    #[test]
    fn trained_for_war_and_missing_leg() {
        // thiz-rulebook.md, "Trained for War": Physical + 2, capped at the family's best.
        for (physical, best, want) in [(3, 7, 5), (3, 5, 5), (3, 4, 4), (3, 3, 3), (3, 1, 3)] {
            assert_eq!(
                trained_for_war_rating(physical, best),
                want,
                "{physical} {best}"
            );
        }
        // thiz-rulebook.md, "Missing Limb": Speed -2 without a prosthetic; -5 to skills that need
        // both arms.
        assert_eq!(speed_with_missing_leg(6, true), -2);
        assert_eq!(speed_with_missing_leg(-5, true), -2);
        assert_eq!(speed_with_missing_leg(6, false), 6);
        assert_eq!(TWO_ARM_PENALTY, -5);
    }
}
