//! The TFT combat round's order (tft-rules-summary.md, "Round Sequence"): which side wins the
//! initiative, the initiative sum the multiple-actions variant reads, who acts next, and the
//! hits a figure has taken this round and since its last action.
//!
//! Owns the order only. What a blow does (damage, the reaction table's thresholds) belongs to
//! [`super::injury`], which this module asks; the encounter tracker in `app` keeps the figures,
//! their sheets and the round's state, and calls in here with plain numbers and a die source.

use super::injury::{self, InjuryError, reaction_thresholds_by};
use super::multi::{InitiativeSum, MultiError};
use crate::rules::dice::DieSource;

/// The most initiative re-rolls before giving up; two fair dice tie one time in six, so a run
/// this long means a broken die source, not bad luck.
const MAX_REROLLS: usize = 64;

/// Decision: a side with the Tactics talent adds 1 to its initiative roll. tft-rules-summary.md,
/// "Roll for Initiative", names Tactics as an advantage without a number, and
/// tft-multiple-actions.txt, "Initiative Segment", confirms it modifies the roll; one point is
/// the smallest advantage, and the GM may add more with a side's own modifier.
pub const TACTICS_BONUS: i32 = 1;

/// Why an initiative or order question has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SequenceError {
    #[error("an initiative modifier must be between -6 and 6; you gave {0}")]
    Modifier(i32),
    #[error("the initiative dice kept tying; try again")]
    EndlessTie,
    #[error(transparent)]
    Multi(#[from] MultiError),
    #[error(transparent)]
    Injury(#[from] InjuryError),
}

/// One of the two sides of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side of the figure that started the fight (by convention, the players).
    First,
    Second,
}

impl Side {
    pub const fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }
}

/// What one side brings to the initiative roll.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideBonus {
    /// A figure able to act on this side has Tactics ([`TACTICS_BONUS`]).
    pub tactics: bool,
    /// Any other modifier the GM gives the side, -6 to 6.
    pub modifier: i32,
}

impl SideBonus {
    fn total(self) -> Result<i32, SequenceError> {
        if !(-6..=6).contains(&self.modifier) {
            return Err(SequenceError::Modifier(self.modifier));
        }
        Ok(self.modifier + if self.tactics { TACTICS_BONUS } else { 0 })
    }
}

/// The initiative of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Initiative {
    /// Every pair of dice rolled, first side's die first; more than one pair means ties.
    pub rolls: Vec<(u32, u32)>,
    /// Each side's bonus, added to its die.
    pub bonus: (i32, i32),
    pub winner: Side,
    /// The winner took the initiative without a contest: the other side was surprised.
    pub by_surprise: bool,
    /// The sum of the first, unmodified rolls (for multiple actions).
    pub sum: InitiativeSum,
}

/// Rolls the round's initiative: one die per side, each plus its bonus, higher wins, a tie is
/// rolled again (tft-rules-summary.md, "Roll for Initiative"). The initiative sum is the two
/// first dice, before any re-roll and before bonuses (tft-multiple-actions.txt, "Initiative
/// Segment").
///
/// Decision: a surprised side loses the initiative outright; the summary counts surprise as an
/// advantage without saying how much, and a side caught unawares moving second is the plain
/// reading. The dice are still rolled, for the initiative sum.
pub fn roll_initiative(
    bonuses: [SideBonus; 2],
    surprised: Option<Side>,
    dice: &mut impl DieSource,
) -> Result<Initiative, SequenceError> {
    let bonus = (bonuses[0].total()?, bonuses[1].total()?);
    let mut rolls = Vec::new();
    for _ in 0..MAX_REROLLS {
        let pair = (dice.roll(6), dice.roll(6));
        rolls.push(pair);
        let sum = InitiativeSum::new(rolls[0].0, rolls[0].1)?;
        if let Some(side) = surprised {
            return Ok(Initiative {
                rolls,
                bonus,
                winner: side.other(),
                by_surprise: true,
                sum,
            });
        }
        let first = pair.0 as i32 + bonus.0;
        let second = pair.1 as i32 + bonus.1;
        if first != second {
            let winner = if first > second {
                Side::First
            } else {
                Side::Second
            };
            return Ok(Initiative {
                rolls,
                bonus,
                winner,
                by_surprise: false,
                sum,
            });
        }
    }
    Err(SequenceError::EndlessTie)
}

/// The order of resolution within the action phase (tft-rules-summary.md, "Combat Order Of
/// Resolution"): pole weapons set against a charge strike first, then every normal action, then
/// the extra shots of missile weapons that fire more than once a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Phase {
    PoleAgainstCharge,
    #[default]
    Normal,
    ExtraMissile,
}

/// A figure waiting for its action, as the order sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contender {
    /// Its adjDX at this moment, every penalty counted (see [`current_adj_dx`]).
    pub adj_dx: i32,
    /// It has already acted in `phase` this round.
    pub acted: bool,
    /// Killed, unconscious or knocked down: it does not act this round.
    pub down: bool,
    pub phase: Phase,
}

/// Who acts next, and the dice that broke a tie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Next {
    /// Index into the contenders.
    pub index: usize,
    /// The figures that tied on adjDX (indexes) and each round of tie-breaking dice, in the same
    /// order; empty when nobody tied.
    pub tied: Vec<usize>,
    pub tie_rolls: Vec<Vec<u32>>,
}

/// The next figure to act: of those still to act and on their feet, the earliest phase, then
/// the highest adjDX at this moment, ties broken by a die each, rolled again among those still
/// tied (tft-rules-summary.md, "Actions": "Figures act in the order of their adjDX, highest
/// first; ties are resolved by die roll", and adjDX is read again after every action). A figure
/// killed or knocked down before its turn does not act that round (same section). `None` when
/// nobody is left to act.
pub fn next_to_act(
    contenders: &[Contender],
    dice: &mut impl DieSource,
) -> Result<Option<Next>, SequenceError> {
    let waiting = || {
        contenders
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.acted && !c.down)
    };
    let Some(best) = waiting()
        .map(|(_, c)| (c.phase, std::cmp::Reverse(c.adj_dx)))
        .min()
    else {
        return Ok(None);
    };
    let mut tied: Vec<usize> = waiting()
        .filter(|(_, c)| (c.phase, std::cmp::Reverse(c.adj_dx)) == best)
        .map(|(i, _)| i)
        .collect();
    if tied.len() == 1 {
        return Ok(Some(Next {
            index: tied[0],
            tied: Vec::new(),
            tie_rolls: Vec::new(),
        }));
    }
    let all_tied = tied.clone();
    let mut tie_rolls = Vec::new();
    for _ in 0..MAX_REROLLS {
        let faces: Vec<u32> = tied.iter().map(|_| dice.roll(6)).collect();
        let high = faces.iter().copied().max().unwrap_or(0);
        let still: Vec<usize> = tied
            .iter()
            .zip(&faces)
            .filter(|&(_, &f)| f == high)
            .map(|(&i, _)| i)
            .collect();
        tie_rolls.push(faces);
        if still.len() == 1 {
            return Ok(Some(Next {
                index: still[0],
                tied: all_tied,
                tie_rolls,
            }));
        }
        tied = still;
    }
    Err(SequenceError::EndlessTie)
}

/// A figure's adjDX with the reaction to the hits it has taken since its last action: -2 once
/// they reach the reaction table's threshold for its ST (tft-rules-summary.md, "Actions": 5 or
/// more hits since the last action; tft-house-rules-combat.txt, "Reaction to Injuries", raises the
/// 5 for ST 20 and over).
///
/// Decision: the summary counts the hits "since its last action" and the house rules' table
/// gives the number by ST; the bot uses both, the table's threshold over the summary's window.
///
/// With the house rules off (`house_rules` false) the threshold is 5 at any ST.
pub fn current_adj_dx(
    adj_dx: i32,
    st: i32,
    hits_since_action: i32,
    house_rules: bool,
) -> Result<i32, SequenceError> {
    let thresholds = reaction_thresholds_by(st, house_rules)?;
    Ok(if hits_since_action >= thresholds.minus_two_dx {
        adj_dx - 2
    } else {
        adj_dx
    })
}

/// The hits one figure has taken, counted the two ways the round needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Since the round began: 8 or more (more with ST 20 and over) knock it down.
    pub round: i32,
    /// Since its last action: 5 or more (more with ST 20 and over) cost -2 adjDX.
    pub since_action: i32,
}

/// What a blow did to the round's count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    pub tally: Tally,
    /// This blow took the round's hits to the knockdown threshold (it was not there before).
    pub knocked_down: bool,
    /// The figure is now at -2 adjDX until it acts.
    pub minus_two_dx: bool,
}

impl Tally {
    /// Counts `hits` (after armor) taken by a figure of `st` (tft-house-rules-combat.txt,
    /// "Knockdown": 8 or more cumulative hits from any source in one round knock a figure off its
    /// feet; "Reaction to Injuries" raises the 8 for ST 20 and over).
    /// With the house rules off (`house_rules` false) the thresholds are 5 and 8 at any ST.
    pub fn take(self, hits: i32, st: i32, house_rules: bool) -> Result<Taken, SequenceError> {
        let before = injury::reaction_by(st, self.round, house_rules)?;
        let tally = Self {
            round: self.round.saturating_add(hits.max(0)),
            since_action: self.since_action.saturating_add(hits.max(0)),
        };
        let after = injury::reaction_by(st, tally.round.min(10_000), house_rules)?;
        let minus_two = tally.since_action >= after.thresholds.minus_two_dx;
        Ok(Taken {
            tally,
            knocked_down: after.knocked_down && !before.knocked_down,
            minus_two_dx: minus_two,
        })
    }

    /// The figure acted: hits before now no longer cost it DX.
    pub const fn acted(self) -> Self {
        Self {
            round: self.round,
            since_action: 0,
        }
    }

    /// A new round: the knockdown count starts again (the DX count runs to the next action).
    pub const fn new_round(self) -> Self {
        Self {
            round: 0,
            since_action: self.since_action,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn contender(adj_dx: i32) -> Contender {
        Contender {
            adj_dx,
            acted: false,
            down: false,
            phase: Phase::Normal,
        }
    }

    /// Bonuses, dice, winner, pairs rolled, initiative sum.
    type InitiativeCase = ([SideBonus; 2], &'static [u32], Side, usize, u32);

    // tft-rules-summary.md, "Roll for Initiative": higher die wins, ties rolled again; the sum
    // (tft-multiple-actions.txt, "Initiative Segment") is the first, unmodified pair.
    #[test]
    fn initiative_table() {
        let none = SideBonus::default();
        let tactics = SideBonus {
            tactics: true,
            modifier: 0,
        };
        let plus = |m| SideBonus {
            tactics: false,
            modifier: m,
        };
        #[rustfmt::skip]
        let cases: &[InitiativeCase] = &[
            // bonuses, dice, winner, pairs rolled, sum
            ([none, none], &[4, 3], Side::First, 1, 7),
            ([none, none], &[3, 4], Side::Second, 1, 7),
            ([none, none], &[3, 3, 1, 6], Side::Second, 2, 6),   // tie, rolled again
            ([tactics, none], &[3, 4, 2, 1], Side::First, 2, 7), // 4 vs 4: tie
            ([tactics, none], &[3, 3], Side::First, 1, 6),       // 4 vs 3
            ([none, tactics], &[4, 3, 5, 5], Side::Second, 2, 7),
            ([plus(2), none], &[1, 3, 6, 1], Side::First, 2, 4), // 3 vs 3 ties, then 8 vs 1
            ([plus(-1), none], &[4, 3, 2, 2], Side::Second, 2, 7),
        ];
        for (bonuses, faces, winner, pairs, sum) in cases {
            let mut dice = ScriptedDice::new(faces.iter().copied());
            let out = roll_initiative(*bonuses, None, &mut dice).unwrap();
            assert_eq!(out.winner, *winner, "{bonuses:?} {faces:?}");
            assert_eq!(out.rolls.len(), *pairs, "{bonuses:?} {faces:?}");
            assert_eq!(out.sum.value(), *sum, "{bonuses:?} {faces:?}");
            assert!(!out.by_surprise);
        }
    }

    #[test]
    fn a_surprised_side_moves_second_whatever_the_dice() {
        for (faces, surprised) in [([6, 1], Side::First), ([1, 6], Side::Second)] {
            let mut dice = ScriptedDice::new(faces);
            let out =
                roll_initiative([SideBonus::default(); 2], Some(surprised), &mut dice).unwrap();
            assert_eq!(out.winner, surprised.other());
            assert!(out.by_surprise);
            assert_eq!(out.sum.value(), 7);
        }
    }

    #[test]
    fn modifiers_past_six_are_refused() {
        for (m, ok) in [(-7, false), (-6, true), (6, true), (7, false)] {
            let bonus = SideBonus {
                tactics: false,
                modifier: m,
            };
            let mut dice = ScriptedDice::new([6, 1, 1, 6, 2, 5]);
            let out = roll_initiative([bonus, SideBonus::default()], None, &mut dice);
            assert_eq!(out.is_ok(), ok, "{m}");
        }
    }

    // tft-rules-summary.md, "Actions": highest adjDX first; ties by die; adjDX read again after
    // each action; a figure down before its turn does not act.
    #[test]
    fn order_table() {
        let down = Contender {
            down: true,
            ..contender(15)
        };
        let acted = Contender {
            acted: true,
            ..contender(16)
        };
        let pole = Contender {
            phase: Phase::PoleAgainstCharge,
            ..contender(8)
        };
        let extra = Contender {
            phase: Phase::ExtraMissile,
            ..contender(20)
        };
        #[rustfmt::skip]
        let cases: &[(&[Contender], &[u32], Option<usize>)] = &[
            (&[contender(12), contender(13)], &[], Some(1)),
            (&[contender(13), contender(12)], &[], Some(0)),
            (&[contender(12), contender(12)], &[2, 5], Some(1)),       // tie: die decides
            (&[contender(12), contender(12)], &[4, 4, 6, 1], Some(0)), // tie again: rolled again
            (&[contender(12), contender(12), contender(12)], &[6, 6, 1, 3, 5], Some(1)),
            (&[down, contender(10)], &[], Some(1)),                    // down: skipped
            (&[acted, contender(10)], &[], Some(1)),                   // acted: skipped
            (&[contender(14), pole], &[], Some(1)),                    // pole vs charge first
            (&[extra, contender(9)], &[], Some(1)),                    // extra shots last
            (&[extra, acted], &[], Some(0)),
            (&[down, acted], &[], None),
            (&[], &[], None),
        ];
        for (contenders, faces, want) in cases {
            let mut dice = ScriptedDice::new(faces.iter().copied());
            let next = next_to_act(contenders, &mut dice).unwrap();
            assert_eq!(
                next.as_ref().map(|n| n.index),
                *want,
                "{contenders:?} {faces:?}"
            );
        }
    }

    #[test]
    fn a_tie_reports_its_dice() {
        let mut dice = ScriptedDice::new([3, 3, 2, 5]);
        let next = next_to_act(&[contender(11), contender(11)], &mut dice)
            .unwrap()
            .unwrap();
        assert_eq!(next.index, 1);
        assert_eq!(next.tied, vec![0, 1]);
        assert_eq!(next.tie_rolls, vec![vec![3, 3], vec![2, 5]]);
    }

    #[test]
    fn adj_dx_is_read_again_after_each_action() {
        // Three figures: A 14, B 12, C 11. A acts and wounds C's rival B for 5 hits: B drops to
        // 10 and C now goes before B.
        let mut figures = [contender(14), contender(12), contender(11)];
        let mut dice = ScriptedDice::new([]);
        let first = next_to_act(&figures, &mut dice).unwrap().unwrap();
        assert_eq!(first.index, 0);
        figures[0].acted = true;
        figures[1].adj_dx = current_adj_dx(12, 12, 5, true).unwrap();
        let second = next_to_act(&figures, &mut dice).unwrap().unwrap();
        assert_eq!(second.index, 2);
    }

    // tft-rules-summary.md, "Actions" (5 or more hits since the last action: -2 adjDX) and
    // tft-house-rules-combat.txt, "Reaction to Injuries" (7 for ST 20-29, 10 for ST 30-39).
    #[test]
    fn five_hits_penalty_table() {
        #[rustfmt::skip]
        let cases = [
            // st, hits since last action, adjDX 12 becomes
            (12, 4, 12), (12, 5, 10),
            (19, 4, 12), (19, 5, 10),
            (20, 6, 12), (20, 7, 10),
            (30, 9, 12), (30, 10, 10),
        ];
        for (st, hits, want) in cases {
            assert_eq!(
                current_adj_dx(12, st, hits, true).unwrap(),
                want,
                "ST {st}, {hits} hits"
            );
        }
        // House rules off: the original 5 hits at any ST.
        for (st, hits, want) in [(30, 4, 12), (30, 5, 10)] {
            assert_eq!(
                current_adj_dx(12, st, hits, false).unwrap(),
                want,
                "off: ST {st}"
            );
        }
        assert!(current_adj_dx(12, 0, 5, true).is_err());
    }

    // tft-house-rules-combat.txt, "Knockdown": 8 or more cumulative hits in one round knock a
    // figure down; 12 for ST 20-29 ("Reaction to Injuries").
    #[test]
    fn knockdown_counts_the_whole_round() {
        #[rustfmt::skip]
        let cases: &[(i32, &[i32], bool)] = &[
            (12, &[7], false), (12, &[8], true),
            (12, &[3, 4], false), (12, &[3, 5], true),
            (12, &[4, 4, 4], true),
            (20, &[11], false), (20, &[6, 6], true),
            (12, &[0, 0], false),
        ];
        for (st, blows, down) in cases {
            let mut tally = Tally::default();
            let mut fell = 0;
            for &hits in *blows {
                let taken = tally.take(hits, *st, true).unwrap();
                fell += u32::from(taken.knocked_down);
                tally = taken.tally;
            }
            assert_eq!(fell == 1, *down, "ST {st}, blows {blows:?}");
            assert!(fell <= 1, "knocked down once, not again by each later blow");
        }
    }

    #[test]
    fn the_counts_reset_at_the_right_moments() {
        let taken = Tally::default().take(5, 12, true).unwrap();
        assert!(taken.minus_two_dx);
        let acted = taken.tally.acted();
        assert_eq!(
            acted,
            Tally {
                round: 5,
                since_action: 0
            }
        );
        let next_round = taken.tally.new_round();
        assert_eq!(
            next_round,
            Tally {
                round: 0,
                since_action: 5
            }
        );
        // Hits from last round and this one add for the DX penalty, not for the knockdown.
        let before = Tally {
            round: 0,
            since_action: 4,
        };
        let taken = before.take(1, 12, true).unwrap();
        assert!(taken.minus_two_dx);
        assert!(!taken.knocked_down);
    }
}
