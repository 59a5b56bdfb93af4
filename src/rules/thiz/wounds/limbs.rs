//! Which arms a skill is done with, and what a lost limb (a Missing Limb weakness, or a limb made
//! Useless by a Black wound) does to a check: the arm penalties of the "Damage" table, the -5 for
//! skills that need both arms, and the checks that cannot be made at all.

use super::WoundEffects;
use crate::rules::thiz::Location;
use crate::rules::thiz::combat::TWO_ARM_PENALTY;
use crate::rules::thiz::skills::SkillKind;

/// How many arms a skill is done with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmUse {
    /// Not an arm skill: no arm's wounds count.
    NoArm,
    /// Done with one hand, the one the player names (or the character's better hand).
    OneArm,
    /// Done with both arms.
    BothArms,
}

/// Skills done with one hand (thiz-rulebook.md, "Damage" table: arm wounds count against "skills
/// with arm").
///
/// Decision: the rulebook names no list. These are the skills whose every use is the work of a
/// hand: striking or parrying with a weapon, palming, picking pockets and locks, throwing, and
/// forging a document. Skills of the whole body (Acrobatics, Stealth, Unarmed Combat) and of the
/// mind are not arm skills, so an arm wound does not touch them.
pub const ONE_ARM_SKILLS: [SkillKind; 6] = [
    SkillKind::WeaponSkill,
    SkillKind::SleightOfHand,
    SkillKind::PocketPicking,
    SkillKind::LockPicking,
    SkillKind::Throwing,
    SkillKind::Forgery,
];

/// Skills that need both arms (thiz-rulebook.md, "Missing Limb": -5 to skills needing both arms;
/// Dual-Wield is forbidden without an arm).
///
/// Decision: climbing, swimming and grappling take two arms; so does wielding two weapons. Both
/// arms' wound penalties count against them.
pub const TWO_ARM_SKILLS: [SkillKind; 4] = [
    SkillKind::Climbing,
    SkillKind::Swimming,
    SkillKind::Grappling,
    SkillKind::DualWield,
];

/// How many arms `skill` is done with.
pub fn arm_use(skill: SkillKind) -> ArmUse {
    if ONE_ARM_SKILLS.contains(&skill) {
        ArmUse::OneArm
    } else if TWO_ARM_SKILLS.contains(&skill) {
        ArmUse::BothArms
    } else {
        ArmUse::NoArm
    }
}

/// A check the character's limbs do not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LimbError {
    /// A one-handed skill with the hand that is missing or Useless.
    #[error("the {0} cannot be used")]
    ArmLost(Location),
    /// A two-armed skill with neither arm.
    #[error("neither arm can be used")]
    NoArms,
    /// Dual-Wield with an arm missing or Useless.
    #[error("two weapons need two arms")]
    DualWieldForbidden,
}

/// The arms' part of a check's wound penalty (the Head's is added by the caller), or why the
/// check cannot be made.
///
/// `lost` lists the arms that are missing or Useless; `hand` is the arm a one-handed skill uses.
/// Decision: a Useless arm counts as a missing one (thiz-rulebook.md, "Damage" table: Useless;
/// "Missing Limb"), so a two-armed skill with one of them takes -5 in place of that arm's wound
/// penalty, plus the other arm's penalty.
pub fn arm_penalty(
    effects: &WoundEffects,
    lost: &[Location],
    skill: SkillKind,
    hand: Location,
) -> Result<i32, LimbError> {
    let penalty_of = |arm: Location| effects.skill_check(Some(arm)) - effects.skill_check(None);
    match arm_use(skill) {
        ArmUse::NoArm => Ok(0),
        ArmUse::OneArm if lost.contains(&hand) => Err(LimbError::ArmLost(hand)),
        ArmUse::OneArm => Ok(penalty_of(hand)),
        ArmUse::BothArms => {
            let arms = [Location::RightArm, Location::LeftArm];
            let lost_arms = arms.iter().filter(|a| lost.contains(a)).count();
            match lost_arms {
                2 => Err(LimbError::NoArms),
                1 if skill == SkillKind::DualWield => Err(LimbError::DualWieldForbidden),
                1 => Ok(TWO_ARM_PENALTY
                    + arms
                        .into_iter()
                        .filter(|a| !lost.contains(a))
                        .map(penalty_of)
                        .sum::<i32>()),
                _ => Ok(arms.into_iter().map(penalty_of).sum()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::thiz::Level;
    use crate::rules::thiz::wounds::WoundSheet;
    use Location::*;

    fn effects(wounds: &[(Location, Level)]) -> WoundEffects {
        let mut sheet = WoundSheet::new();
        for &(l, w) in wounds {
            sheet.add(l, w).unwrap();
        }
        sheet.effects()
    }

    #[test]
    fn arm_skill_tables_do_not_overlap() {
        for kind in ONE_ARM_SKILLS {
            assert!(!TWO_ARM_SKILLS.contains(&kind), "{kind}");
            assert_eq!(arm_use(kind), ArmUse::OneArm);
        }
        for kind in TWO_ARM_SKILLS {
            assert_eq!(arm_use(kind), ArmUse::BothArms);
        }
        for kind in [SkillKind::Stealth, SkillKind::Speed, SkillKind::Perception] {
            assert_eq!(arm_use(kind), ArmUse::NoArm);
        }
    }

    #[test]
    fn a_one_handed_skill_takes_that_arms_penalty_only() {
        // thiz-rulebook.md, "Damage" table: Arm -1/-2/-4 to skills with that arm.
        let e = effects(&[(RightArm, Level::Red), (LeftArm, Level::Green)]);
        let lock = SkillKind::LockPicking;
        let cases = [
            (RightArm, Ok(-4)),
            (LeftArm, Ok(-1)),
            (Head, Ok(0)), // not an arm: no arm's penalty
        ];
        for (hand, want) in cases {
            assert_eq!(arm_penalty(&e, &[], lock, hand), want, "{hand}");
        }
        assert_eq!(arm_penalty(&e, &[], SkillKind::Stealth, RightArm), Ok(0));
    }

    #[test]
    fn a_lost_arm_refuses_its_hand_and_costs_two_armed_skills_five() {
        // thiz-rulebook.md, "Missing Limb": -5 to skills needing both arms; no Dual-Wield.
        let e = effects(&[(LeftArm, Level::Black), (RightArm, Level::Yellow)]);
        let lost = [LeftArm];
        let cases = [
            (
                SkillKind::Throwing,
                LeftArm,
                Err(LimbError::ArmLost(LeftArm)),
            ),
            (SkillKind::Throwing, RightArm, Ok(-2)),
            (SkillKind::Climbing, RightArm, Ok(-5 - 2)),
            (
                SkillKind::DualWield,
                RightArm,
                Err(LimbError::DualWieldForbidden),
            ),
            (SkillKind::Perception, LeftArm, Ok(0)),
        ];
        for (skill, hand, want) in cases {
            assert_eq!(arm_penalty(&e, &lost, skill, hand), want, "{skill} {hand}");
        }
        assert_eq!(
            arm_penalty(&e, &[LeftArm, RightArm], SkillKind::Swimming, RightArm),
            Err(LimbError::NoArms)
        );
        // Both arms whole: both arms' penalties count against a two-armed skill.
        assert_eq!(arm_penalty(&e, &[], SkillKind::Climbing, RightArm), Ok(-6));
        assert_eq!(
            arm_penalty(&effects(&[]), &[], SkillKind::Climbing, LeftArm),
            Ok(0)
        );
    }
}
