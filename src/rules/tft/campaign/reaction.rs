//! The NPC reaction roll and the time actions take.
//!
//! Source: tft-rules-summary.md, "NPC REACTIONS" (1d, modifier never more than 3) and "TIME
//! REQUIRED (ACTIONS)"; tft-house-rules.txt, "Military Discipline" (+1 on reaction rolls when the
//! whole group has the talent). Never formats text.

use thiserror::Error;

use crate::rules::dice::DieSource;

/// How an NPC takes to the party, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reaction {
    Hostile,
    Unfriendly,
    Neutral,
    Friendly,
    VeryFriendly,
}

/// The reaction for each total 1..=6 (tft-rules-summary.md, "NPC REACTIONS").
pub const REACTION_TABLE: [Reaction; 6] = [
    Reaction::Hostile,
    Reaction::Unfriendly,
    Reaction::Neutral,
    Reaction::Neutral,
    Reaction::Friendly,
    Reaction::VeryFriendly,
];

/// The largest modifier the summary allows, either way.
pub const MAX_REACTION_MODIFIER: i32 = 3;

/// A modifier out of bounds.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReactionError {
    #[error("a reaction modifier is between -3 and +3; you gave {0}")]
    Modifier(i32),
}

/// One reaction roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionOutcome {
    pub face: u32,
    pub modifier: i32,
    /// Face plus modifier, held within 1..=6.
    pub total: u32,
    pub reaction: Reaction,
}

// Decision: "never more than 3" bounds the size of the modifier both ways, and a total past the
// table's ends reads the end row.
/// The reaction for a face and modifier.
pub fn reaction_for(face: u32, modifier: i32) -> Result<(u32, Reaction), ReactionError> {
    if modifier.abs() > MAX_REACTION_MODIFIER {
        return Err(ReactionError::Modifier(modifier));
    }
    let total = (face as i32 + modifier).clamp(1, 6) as u32;
    Ok((total, REACTION_TABLE[(total - 1) as usize]))
}

/// Rolls 1d for an NPC's reaction.
pub fn reaction_roll(
    modifier: i32,
    dice: &mut impl DieSource,
) -> Result<ReactionOutcome, ReactionError> {
    if modifier.abs() > MAX_REACTION_MODIFIER {
        return Err(ReactionError::Modifier(modifier));
    }
    let face = dice.roll(6);
    let (total, reaction) = reaction_for(face, modifier)?;
    Ok(ReactionOutcome {
        face,
        modifier,
        total,
        reaction,
    })
}

/// Exact chances of each reaction with a modifier, as sixths (worst first, as [`Reaction`]).
pub fn reaction_odds(modifier: i32) -> Result<[u32; 5], ReactionError> {
    let mut counts = [0; 5];
    for face in 1..=6 {
        let (_, r) = reaction_for(face, modifier)?;
        counts[r as usize] += 1;
    }
    Ok(counts)
}

/// Things that take a known number of rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimedAction {
    SearchForHidden,
    RemoveTrap,
    SpringTrap,
    ThrowMolotail,
    RemoveBackpack,
    TakeFromBackpack,
    LightTorch,
    KillHelpless,
    SpeakBriefly,
}

/// tft-rules-summary.md, "TIME REQUIRED (ACTIONS)": rounds each action takes.
pub const ACTION_ROUNDS: [(TimedAction, u32); 9] = [
    (TimedAction::SearchForHidden, 6),
    (TimedAction::RemoveTrap, 12),
    (TimedAction::SpringTrap, 1),
    (TimedAction::ThrowMolotail, 1),
    (TimedAction::RemoveBackpack, 2),
    (TimedAction::TakeFromBackpack, 6),
    (TimedAction::LightTorch, 6),
    (TimedAction::KillHelpless, 1),
    (TimedAction::SpeakBriefly, 1),
];

/// Rounds in a minute.
pub const ROUNDS_PER_MINUTE: u32 = 12;

/// Rounds an action takes.
pub fn action_rounds(action: TimedAction) -> u32 {
    ACTION_ROUNDS
        .iter()
        .find(|(a, _)| *a == action)
        .map_or(1, |(_, r)| *r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn reaction_table_edges() {
        // tft-rules-summary.md, "NPC REACTIONS".
        use Reaction::*;
        let cases = [
            (1, 0, Hostile),
            (2, 0, Unfriendly),
            (3, 0, Neutral),
            (4, 0, Neutral),
            (5, 0, Friendly),
            (6, 0, VeryFriendly),
            (1, -3, Hostile),
            (6, 3, VeryFriendly),
            (2, 3, Friendly),
            (4, 1, Friendly),
            (5, -1, Neutral),
        ];
        for (face, m, want) in cases {
            assert_eq!(reaction_for(face, m).unwrap().1, want, "{face}{m:+}");
        }
        assert_eq!(reaction_for(3, 4), Err(ReactionError::Modifier(4)));
        assert_eq!(reaction_for(3, -4), Err(ReactionError::Modifier(-4)));
        let out = reaction_roll(1, &mut ScriptedDice::new([4])).unwrap();
        assert_eq!(
            (out.face, out.total, out.reaction),
            (4, 5, Reaction::Friendly)
        );
    }

    #[test]
    fn reaction_odds_by_enumeration() {
        assert_eq!(reaction_odds(0).unwrap(), [1, 1, 2, 1, 1]);
        assert_eq!(reaction_odds(3).unwrap(), [0, 0, 1, 1, 4]);
        assert_eq!(reaction_odds(-3).unwrap(), [4, 1, 1, 0, 0]);
    }

    #[test]
    fn action_times() {
        // tft-rules-summary.md, "TIME REQUIRED (ACTIONS)"; 12 rounds are a minute.
        assert_eq!(action_rounds(TimedAction::RemoveTrap), ROUNDS_PER_MINUTE);
        assert_eq!(action_rounds(TimedAction::LightTorch), 6);
        assert_eq!(action_rounds(TimedAction::RemoveBackpack), 2);
        assert_eq!(ACTION_ROUNDS.len(), 9);
    }
}
