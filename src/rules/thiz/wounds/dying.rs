//! Incapacitation, the dying character's Toughness checks, and First Aid to stabilise them.

use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating, resolve};

/// The Triage Specialist quirk's bonus to First Aid and other checks treating combat wounds
/// (thiz-rulebook.md, "Triage Specialist"). Whether a wound came from combat is the caller's call.
pub const TRIAGE_SPECIALIST_BONUS: i32 = 3;

/// Whether the damage could kill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageKind {
    /// Weapons, spells, anything but bare fists.
    Lethal,
    /// Bare fists.
    NonLethal,
}

/// What an Incapacitated character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incapacitation {
    /// Non-lethal damage: cannot act, Speed counts as 0.
    Unconscious,
    /// Lethal damage: checks Toughness until dead or stable.
    Dying,
}

/// What incapacitation means for the kind of damage that caused it (thiz-rulebook.md, "Damage").
pub fn incapacitation(kind: DamageKind) -> Incapacitation {
    match kind {
        DamageKind::Lethal => Incapacitation::Dying,
        DamageKind::NonLethal => Incapacitation::Unconscious,
    }
}

/// Where an Incapacitated (or dead) character stands (thiz-rulebook.md, "Damage").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Lethal damage: checks Toughness until dead or stable.
    Dying,
    /// Stopped dying (a Black on the dying check, or First Aid); still Incapacitated.
    Stable,
    /// Non-lethal damage: cannot act, Speed counts as 0; no dying checks.
    Unconscious,
    /// Failed a dying check.
    Dead,
}

impl Condition {
    pub const ALL: [Condition; 4] = [
        Condition::Dying,
        Condition::Stable,
        Condition::Unconscious,
        Condition::Dead,
    ];

    /// The name as stored and shown: "dying", "stable", "unconscious", "dead".
    pub fn name(self) -> &'static str {
        match self {
            Condition::Dying => "dying",
            Condition::Stable => "stable",
            Condition::Unconscious => "unconscious",
            Condition::Dead => "dead",
        }
    }

    /// Reads a stored name.
    pub fn from_name(text: &str) -> Option<Condition> {
        Condition::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text.trim()))
    }
}

impl From<Incapacitation> for Condition {
    fn from(i: Incapacitation) -> Self {
        match i {
            Incapacitation::Dying => Condition::Dying,
            Incapacitation::Unconscious => Condition::Unconscious,
        }
    }
}

/// The condition a character is in, from the one recorded and whether the wounds incapacitate.
///
/// Decision: death stays whatever the wounds. Otherwise a character whose wounds no longer
/// incapacitate (no Black on Head, Chest or Gut) is in no condition, whatever was recorded; one
/// who is incapacitated is dying unless recorded as stable or unconscious, because lethal damage
/// is the rule's default and an attack or a GM's wound that says nothing more is lethal.
pub fn current_condition(recorded: Option<Condition>, incapacitated: bool) -> Option<Condition> {
    match (recorded, incapacitated) {
        (Some(Condition::Dead), _) => Some(Condition::Dead),
        (_, false) => None,
        (Some(c @ (Condition::Stable | Condition::Unconscious)), true) => Some(c),
        (Some(Condition::Dying) | None, true) => Some(Condition::Dying),
    }
}

/// The condition a dying check leaves: Failure dead, Black stable, else still dying.
pub fn condition_after(outcome: DyingOutcome) -> Condition {
    match outcome {
        DyingOutcome::Dies => Condition::Dead,
        DyingOutcome::StillDying => Condition::Dying,
        DyingOutcome::Stable => Condition::Stable,
    }
}

/// How one dying check went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DyingOutcome {
    /// Failure: the character dies.
    Dies,
    /// Green, Yellow or Red: still dying, check again.
    StillDying,
    /// Black: no more checks are needed.
    Stable,
}

/// One Toughness check of a dying character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DyingCheck {
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    pub outcome: DyingOutcome,
}

/// A dying character's Toughness check (`toughness` already adjusted for wounds).
///
/// Source: thiz-rulebook.md, "Damage": Failure dies, Black ends the checks. Decision: the text
/// does not say how often; the check is made once per combat turn (every 5 seconds) until the
/// character dies, rolls Black, or is stabilised by First Aid.
pub fn dying_check(toughness: Rating, dice: &mut impl DieSource) -> DyingCheck {
    let roll = dice.d100();
    let level = resolve(toughness, roll);
    let outcome = match level {
        Level::Failure => DyingOutcome::Dies,
        Level::Black => DyingOutcome::Stable,
        Level::Green | Level::Yellow | Level::Red => DyingOutcome::StillDying,
    };
    DyingCheck {
        rating: toughness,
        roll,
        level,
        outcome,
    }
}

/// A First Aid check to stabilise an Incapacitated character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstAid {
    /// First Aid as given, plus the Triage Specialist bonus when it applies.
    pub rating: Rating,
    pub triage_bonus: i32,
    pub roll: u32,
    pub level: Level,
    /// Any success stabilises.
    pub stabilised: bool,
}

/// Rolls First Aid to stabilise; `triage_specialist` adds the quirk's +3 (combat wounds only).
pub fn first_aid(
    first_aid: Rating,
    triage_specialist: bool,
    dice: &mut impl DieSource,
) -> FirstAid {
    let triage_bonus = if triage_specialist {
        TRIAGE_SPECIALIST_BONUS
    } else {
        0
    };
    let rating = first_aid + triage_bonus;
    let roll = dice.d100();
    let level = resolve(rating, roll);
    FirstAid {
        rating,
        triage_bonus,
        roll,
        level,
        stabilised: level.is_success(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn fists_knock_out_and_weapons_kill() {
        // thiz-rulebook.md, "Damage": non-lethal (bare fists) → unconscious; lethal → dying.
        assert_eq!(
            incapacitation(DamageKind::NonLethal),
            Incapacitation::Unconscious
        );
        assert_eq!(incapacitation(DamageKind::Lethal), Incapacitation::Dying);
    }

    #[test]
    fn dying_check_at_each_threshold() {
        // thiz-rulebook.md, "Damage": Failure dies, Black stops the checks. Rating 4 row:
        // Black ≤9, Red ≤21, Green ≤66.
        for (roll, outcome) in [
            (9, DyingOutcome::Stable),
            (10, DyingOutcome::StillDying),
            (21, DyingOutcome::StillDying),
            (66, DyingOutcome::StillDying),
            (67, DyingOutcome::Dies),
        ] {
            let check = dying_check(Rating(4), &mut ScriptedDice::new([roll]));
            assert_eq!(check.outcome, outcome, "roll {roll}");
        }
    }

    #[test]
    fn first_aid_stabilises_on_any_success_and_triage_adds_three() {
        // thiz-rulebook.md, "Damage" (any success) and "Triage Specialist" (+3).
        // Rating 0: Green up to 54. Rating 3: Green up to 63.
        for (rating, triage, roll, ok) in [
            (0, false, 54, true),
            (0, false, 55, false),
            (0, true, 63, true),
            (0, true, 64, false),
        ] {
            let aid = first_aid(Rating(rating), triage, &mut ScriptedDice::new([roll]));
            assert_eq!(
                aid.stabilised, ok,
                "rating {rating} triage {triage} roll {roll}"
            );
            assert_eq!(aid.triage_bonus, if triage { 3 } else { 0 });
        }
    }

    #[test]
    fn the_condition_follows_the_wounds_and_the_record() {
        // thiz-rulebook.md, "Damage"; the Decision on current_condition.
        use Condition::*;
        let cases = [
            (None, false, None),
            (None, true, Some(Dying)),
            (Some(Dying), true, Some(Dying)),
            (Some(Dying), false, None),
            (Some(Stable), true, Some(Stable)),
            (Some(Stable), false, None),
            (Some(Unconscious), true, Some(Unconscious)),
            (Some(Unconscious), false, None),
            (Some(Dead), true, Some(Dead)),
            (Some(Dead), false, Some(Dead)),
        ];
        for (recorded, incapacitated, want) in cases {
            assert_eq!(
                current_condition(recorded, incapacitated),
                want,
                "{recorded:?} {incapacitated}"
            );
        }
        assert_eq!(condition_after(DyingOutcome::Dies), Dead);
        assert_eq!(condition_after(DyingOutcome::StillDying), Dying);
        assert_eq!(condition_after(DyingOutcome::Stable), Stable);
        for c in Condition::ALL {
            assert_eq!(Condition::from_name(&c.name().to_uppercase()), Some(c));
        }
        assert_eq!(Condition::from_name("asleep"), None);
        assert_eq!(Condition::from(Incapacitation::Unconscious), Unconscious);
    }
}
