//! Initiative, the order of turns within an Initiative Pass, and acting early after a Wait.

use super::{CombatError, MAX_INITIATIVE, check};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Rating, resolve};

/// The most combatants one fight (or one side) takes.
pub const MAX_COMBATANTS: usize = 64;

/// How far initiative drops between one round of turns and the next within a pass.
const PASS_STEP: i32 = 10;

/// Which rating the initiative roll was added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitiativeBase {
    SpeedAndPerception,
    Physical,
}

/// One initiative roll, with its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitiativeRoll {
    pub die: u32,
    pub speed_plus_perception: i32,
    pub physical: i32,
    pub base: InitiativeBase,
    /// Chest wounds and any other modifier, as given.
    pub modifier: i32,
    pub total: i32,
}

/// Rolls initiative: 1d10 plus the higher of Speed + Perception and General Physical, plus
/// `modifier` (thiz-rulebook.md, "Determining Initiative and Initiative Passes").
///
/// The Chest wound penalty ([`crate::rules::thiz::wounds::WoundEffects::initiative_roll`]) goes in
/// `modifier`. Decision: the Reflexes skill says it raises initiative but gives no amount, so it
/// adds nothing here; a table that wants it passes it as a modifier. Ties between the two bases
/// count as Speed + Perception.
pub fn roll_initiative(
    speed: i32,
    perception: i32,
    physical: i32,
    modifier: i32,
    dice: &mut impl DieSource,
) -> Result<InitiativeRoll, CombatError> {
    let speed_plus_perception = check("Speed", speed)? + check("Perception", perception)?;
    let physical = check("Physical", physical)?;
    let modifier = check("the initiative modifier", modifier)?;
    let (base, rating) = if physical > speed_plus_perception {
        (InitiativeBase::Physical, physical)
    } else {
        (InitiativeBase::SpeedAndPerception, speed_plus_perception)
    };
    let face = dice.roll(10);
    Ok(InitiativeRoll {
        die: face,
        speed_plus_perception,
        physical,
        base,
        modifier,
        total: face as i32 + rating + modifier,
    })
}

/// How many turns a combatant takes in one Initiative Pass: always the first, then one more for
/// each time initiative stays above 0 after dropping by 10.
pub fn actions_in_pass(initiative: i32) -> u32 {
    if initiative <= PASS_STEP {
        1
    } else {
        // Turns at initiative, -10, -20…, while above 0: ceil(initiative / 10).
        ((initiative + PASS_STEP - 1) / PASS_STEP) as u32
    }
}

/// One turn in the pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Index into the initiatives given.
    pub combatant: usize,
    /// 1 for everyone's first turn, 2 after the first drop of 10, and so on.
    pub round: u32,
    /// The combatant's initiative at this turn.
    pub initiative: i32,
    /// Same initiative as the slot before it in this round.
    pub tied_with_previous: bool,
}

/// The order of every turn in one Initiative Pass.
///
/// Source: thiz-rulebook.md, "Determining Initiative and Initiative Passes": everyone acts once in
/// initiative order, then all subtract 10 and those still above 0 act again, until nobody is.
/// Decision: the rulebook breaks no ties; tied combatants keep the order given and are flagged
/// `tied_with_previous` so the referee can settle it.
pub fn initiative_pass(initiatives: &[i32]) -> Result<Vec<Slot>, CombatError> {
    if initiatives.is_empty() {
        return Err(CombatError::EmptySide);
    }
    if initiatives.len() > MAX_COMBATANTS {
        return Err(CombatError::TooManyCombatants {
            count: initiatives.len(),
            max: MAX_COMBATANTS,
        });
    }
    if let Some(&value) = initiatives.iter().find(|v| v.abs() > MAX_INITIATIVE) {
        return Err(CombatError::InitiativeOutOfRange { value });
    }
    let mut order: Vec<usize> = (0..initiatives.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(initiatives[i]));
    let rounds = initiatives
        .iter()
        .map(|&i| actions_in_pass(i))
        .max()
        .unwrap_or(1);
    let mut slots = Vec::new();
    for round in 1..=rounds {
        let drop = PASS_STEP * (round as i32 - 1);
        let mut previous: Option<i32> = None;
        for &combatant in &order {
            let initiative = initiatives[combatant] - drop;
            if round > 1 && initiative <= 0 {
                continue;
            }
            slots.push(Slot {
                combatant,
                round,
                initiative,
                tied_with_previous: previous == Some(initiative),
            });
            previous = Some(initiative);
        }
    }
    Ok(slots)
}

/// Which rule decides whether a waiting character may act before their trigger.
///
/// Decision: the sources disagree. The Combat chapter (thiz-rulebook.md, "Wait") checks Speed,
/// any success acts first and a failure acts after the trigger; the Reflexes skill (Skills
/// chapter, "Reflexes") checks Reflexes, needs Yellow, and a failure acts at the end of the
/// Initiative Pass. The Reflexes passage is the more detailed one (it names the level needed
/// and where a failed check puts the action) and is the skill written for exactly this, so it
/// is the default the tracker uses; the Combat chapter's reading stays available as
/// [`WaitRule::CombatChapter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WaitRule {
    /// Speed, any success; a failure acts after the trigger.
    CombatChapter,
    /// Reflexes, Yellow or better; a failure acts at the end of the Initiative Pass.
    #[default]
    ReflexesSkill,
}

impl WaitRule {
    /// The lowest level that lets the character act first.
    pub fn needs(self) -> Level {
        match self {
            WaitRule::CombatChapter => Level::Green,
            WaitRule::ReflexesSkill => Level::Yellow,
        }
    }
}

/// A check to act before a waited-for trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitCheck {
    pub rule: WaitRule,
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    pub acts_first: bool,
}

/// Rolls to act before the trigger; `rating` is Speed or Reflexes as `rule` says.
pub fn wait_check(
    rating: i32,
    rule: WaitRule,
    dice: &mut impl DieSource,
) -> Result<WaitCheck, CombatError> {
    let rating = Rating(check("the rating", rating)?);
    let roll = dice.d100();
    let level = resolve(rating, roll);
    Ok(WaitCheck {
        rule,
        rating,
        roll,
        level,
        acts_first: level >= rule.needs(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn initiative_compares_the_sum_with_general_physical() {
        // thiz-rulebook.md, "Determining Initiative and Initiative Passes": d10 + the higher of
        // Speed + Perception and General Physical. The sum above, equal to and below Physical 8,
        // and the case: Speed 1 + Perception 1 = 2 against Physical 8 adds 8, not 16.
        for (speed, perception, physical, base, added) in [
            (5, 4, 8, InitiativeBase::SpeedAndPerception, 9),
            (4, 4, 8, InitiativeBase::SpeedAndPerception, 8),
            (4, 3, 8, InitiativeBase::Physical, 8),
            (1, 1, 8, InitiativeBase::Physical, 8),
            (0, 0, 0, InitiativeBase::SpeedAndPerception, 0),
            (0, 0, 1, InitiativeBase::Physical, 1),
        ] {
            let r = roll_initiative(speed, perception, physical, 0, &mut ScriptedDice::new([3]))
                .unwrap();
            assert_eq!(
                (r.base, r.total),
                (base, 3 + added),
                "Speed {speed} Perception {perception} Physical {physical}"
            );
        }
    }

    #[test]
    fn initiative_adds_the_better_base() {
        // thiz-rulebook.md, "Determining Initiative": 1d10 + max(Speed + Perception, Physical).
        let mut dice = ScriptedDice::new([7, 7, 1]);
        let r = roll_initiative(3, 2, 5, 0, &mut dice).unwrap();
        assert_eq!((r.base, r.total), (InitiativeBase::SpeedAndPerception, 12));
        let r = roll_initiative(3, 2, 6, -1, &mut dice).unwrap();
        assert_eq!((r.base, r.total), (InitiativeBase::Physical, 12));
        let r = roll_initiative(0, 0, 0, 0, &mut dice).unwrap();
        assert_eq!(r.total, 1);
        assert!(roll_initiative(41, 0, 0, 0, &mut dice).is_err());
    }

    #[test]
    fn actions_per_pass_at_each_step_of_ten() {
        // Turns while initiative stays above 0 after each drop of 10; the first is always taken.
        for (initiative, actions) in [
            (-5, 1),
            (0, 1),
            (1, 1),
            (10, 1),
            (11, 2),
            (20, 2),
            (21, 3),
            (30, 3),
            (31, 4),
        ] {
            assert_eq!(
                actions_in_pass(initiative),
                actions,
                "initiative {initiative}"
            );
        }
    }

    #[test]
    fn pass_order_runs_by_initiative_then_drops_ten() {
        let slots = initiative_pass(&[12, 25, 5, 12]).unwrap();
        let order: Vec<(usize, u32, i32)> = slots
            .iter()
            .map(|s| (s.combatant, s.round, s.initiative))
            .collect();
        assert_eq!(
            order,
            [
                (1, 1, 25),
                (0, 1, 12),
                (3, 1, 12),
                (2, 1, 5),
                (1, 2, 15),
                (0, 2, 2),
                (3, 2, 2),
                (1, 3, 5),
            ]
        );
        assert!(slots[2].tied_with_previous && !slots[1].tied_with_previous);
        // Each combatant's number of slots matches actions_in_pass.
        for (i, init) in [12, 25, 5, 12].into_iter().enumerate() {
            let count = slots.iter().filter(|s| s.combatant == i).count() as u32;
            assert_eq!(count, actions_in_pass(init));
        }
    }

    #[test]
    fn a_chest_wound_can_cost_a_turn_in_the_pass() {
        // thiz-rulebook.md, "Determining Initiative and Initiative Passes": a turn for every 10
        // points above 0; the Chest wound's penalty goes in the modifier. d10 1 + 10 = 11 gives a
        // second turn; with -1 for the Chest it is 10, one turn.
        for (modifier, turns) in [(0, 2), (-1, 1)] {
            let r = roll_initiative(5, 5, 0, modifier, &mut ScriptedDice::new([1])).unwrap();
            assert_eq!(actions_in_pass(r.total), turns, "modifier {modifier}");
            let slots = initiative_pass(&[r.total, 10]).unwrap();
            assert_eq!(slots.len() as u32, turns + 1);
            // Ties keep the order given and are flagged for the referee.
            assert_eq!(slots[1].tied_with_previous, modifier == -1);
        }
    }

    #[test]
    fn pass_refuses_bad_input() {
        assert_eq!(initiative_pass(&[]), Err(CombatError::EmptySide));
        assert!(initiative_pass(&[200]).is_ok());
        assert_eq!(
            initiative_pass(&[201]),
            Err(CombatError::InitiativeOutOfRange { value: 201 })
        );
        assert!(initiative_pass(&vec![1; MAX_COMBATANTS + 1]).is_err());
    }

    #[test]
    fn waiting_characters_act_first_by_the_chosen_rule() {
        // thiz-rulebook.md "Wait" (Speed, any success) and "Reflexes" (Yellow or better).
        // Rating 0: Yellow ≤33, Green ≤54; rating 4: Yellow ≤41 (Black 9 + Red 12 + Yellow 20).
        for (rule, rating, roll, first) in [
            (WaitRule::CombatChapter, 0, 54, true),
            (WaitRule::CombatChapter, 0, 55, false),
            (WaitRule::ReflexesSkill, 0, 33, true),
            (WaitRule::ReflexesSkill, 0, 34, false),
            (WaitRule::ReflexesSkill, 4, 41, true),
            (WaitRule::ReflexesSkill, 4, 42, false),
        ] {
            let w = wait_check(rating, rule, &mut ScriptedDice::new([roll])).unwrap();
            assert_eq!(w.acts_first, first, "{rule:?} rating {rating} roll {roll}");
        }
        // The Reflexes skill's passage is the more detailed one: it is the default.
        assert_eq!(WaitRule::default(), WaitRule::ReflexesSkill);
        assert_eq!(WaitRule::default().needs(), Level::Yellow);
    }
}
