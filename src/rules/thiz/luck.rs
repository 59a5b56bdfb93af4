//! THIZ luck points: the secret starting roll, spending (reroll, lower a wound, luck stunts and
//! the quirks that spend luck), Luck Everlasting, and regaining luck.
//!
//! Source: thiz-rulebook.md, chapter 1 "Luck" (the referee's secret 1d10), chapter 10 "Luck"
//! (spending and awards), chapter 4 "Luck Everlasting", "Berserk", "Sleepless", and the decisions
//! of rules/README.md ("Luck to lower a wound", "Luck stunt").
//!
//! # Secrecy by construction
//!
//! Only the referee may know a character's luck; the player learns it only when it hits zero.
//! The types make that hard to get wrong:
//! - the total lives in [`HiddenLuck`], which has no `Display` and whose `Debug` prints
//!   `HiddenLuck(<hidden>)`, so it cannot slip into a message or a log line by accident. The
//!   number comes out only through [`HiddenLuck::reveal_to_gm`], a name that shows at the call
//!   site who the number is for;
//! - a spend returns a [`SpendOutcome`] split in two: a [`PlayerView`] that can say only "spent",
//!   "your luck has run out" or "you have no luck left" (and what the spend did), and has no field
//!   from which the total could be read, and a [`GmView`] with the totals and every secret roll;
//! - a luck stunt's player view says only whether the stunt worked: the rating the referee rolled
//!   at is min(named, total), so showing it (or the roll) could reveal the total.
//!
//! Must never roll anything but the d10 and d100s named here, read or write storage, or format a
//! message.

use std::fmt;

use thiserror::Error;

use super::chart::{Level, Rating, resolve};
use crate::rules::dice::DieSource;

/// The most luck points a character can hold; a limit against typing errors, far above play.
pub const MAX_LUCK: u32 = 999;

/// A luck total, known only to the referee.
///
/// Deliberately has no `Display`, and its `Debug` hides the number. Read it with
/// [`HiddenLuck::reveal_to_gm`] and only where the referee is the audience (or to store it).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HiddenLuck(u32);

impl fmt::Debug for HiddenLuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HiddenLuck(<hidden>)")
    }
}

impl HiddenLuck {
    /// Wraps a total (set by the referee or read back from storage).
    pub fn new(points: u32) -> Result<HiddenLuck, LuckError> {
        if points > MAX_LUCK {
            return Err(LuckError::TooMuch(points));
        }
        Ok(HiddenLuck(points))
    }

    /// The total, for the referee's eyes or for storage only.
    pub fn reveal_to_gm(self) -> u32 {
        self.0
    }

    /// True at zero: the one fact about luck a player may be told.
    pub fn is_exhausted(self) -> bool {
        self.0 == 0
    }
}

/// Why luck could not be spent or set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum LuckError {
    #[error("luck can be at most {MAX_LUCK} points; {0} is too many")]
    TooMuch(u32),
    #[error("a luck stunt needs at least 1 luck point named")]
    StuntNeedsPoints,
    #[error("luck can only lower a wound; Failure is not a wound level")]
    NotAWound,
}

/// Rolls a new character's luck: 1d10, kept secret by the referee (chapter 1, "Luck").
pub fn roll_starting_luck(dice: &mut impl DieSource) -> HiddenLuck {
    HiddenLuck(dice.roll(10))
}

/// What a player spends luck on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LuckUse {
    /// One point: roll a check again (the caller rerolls it through `check`).
    Reroll,
    /// One point: a wound of this level becomes one level lighter.
    LowerWound(Level),
    /// The points the player names for a feat only luck could pull off.
    Stunt { named: u32 },
    /// One point: Berserk, fighting on past a fatal blow.
    KeepFighting,
    /// One point: Sleepless, waking from the long sleep (at the referee's word).
    Rouse,
}

/// What the spend did, safe to show the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The check may be rolled again.
    Reroll,
    /// The wound is now `to` (`None`: the wound is gone).
    WoundLowered {
        from: Level,
        to: Option<Level>,
    },
    /// The stunt succeeded or not; nothing else about the roll is shown.
    Stunt {
        succeeded: bool,
    },
    KeepFighting,
    Rouse,
}

/// What the player is told. It has no field that holds or bounds the luck total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerView {
    /// Luck was spent and had its effect.
    Spent(Effect),
    /// Luck was spent and had its effect, and the character's luck has now run out.
    RanOut(Effect),
    /// The character has no luck left; nothing happened.
    NoLuckLeft,
}

/// The referee's secret roll for the stunt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StuntRoll {
    pub named: u32,
    /// min(named, total before spending): rules/README.md, "Luck stunt".
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
}

/// One secret Luck Everlasting roll, made for one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EverlastingRoll {
    /// The total at the moment of the roll, used as the rating.
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    /// Black: the point worked but was not spent.
    pub kept: bool,
}

/// What the referee sees: the totals and every secret roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmView {
    pub before: HiddenLuck,
    pub after: HiddenLuck,
    /// Points the spend used (for a stunt, the named points capped at the total).
    pub used: u32,
    /// Points actually taken off (fewer than `used` when Luck Everlasting kept some).
    pub deducted: u32,
    pub stunt: Option<StuntRoll>,
    pub everlasting: Vec<EverlastingRoll>,
}

/// The result of a spend, split by audience.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendOutcome {
    pub player: PlayerView,
    pub gm: GmView,
}

/// Rules/README.md "Luck to lower a wound": Black→Red, Red→Yellow, Yellow→Green, Green→none.
pub fn lowered_wound(level: Level) -> Result<Option<Level>, LuckError> {
    match level {
        Level::Failure => Err(LuckError::NotAWound),
        Level::Green => Ok(None),
        other => Ok(Some(other.lower())),
    }
}

/// The rating a stunt is rolled at: the points named, but no more than the total.
pub fn stunt_rating(named: u32, luck: HiddenLuck) -> Rating {
    Rating(named.min(luck.0) as i32)
}

/// Spends luck. `everlasting` is whether the character has the Luck Everlasting quirk.
///
/// Dice, in order: for a stunt, the referee's d100 at [`stunt_rating`]; then, with Luck
/// Everlasting, one d100 per point used, each against the total at that moment (a Black keeps
/// that point).
// Decision: Luck Everlasting is rolled once per point, since the quirk speaks of each point spent;
// a stunt of 3 points gets three rolls, each at the total as it then stands.
// Decision: with no luck at all a stunt is refused rather than rolled at rating 0, since no point
// could be spent on it.
pub fn spend(
    luck: HiddenLuck,
    purpose: LuckUse,
    everlasting: bool,
    dice: &mut impl DieSource,
) -> Result<SpendOutcome, LuckError> {
    // Reject malformed requests before anything is rolled or spent.
    let wound = match purpose {
        LuckUse::LowerWound(level) => Some((level, lowered_wound(level)?)),
        LuckUse::Stunt { named: 0 } => return Err(LuckError::StuntNeedsPoints),
        _ => None,
    };
    if luck.is_exhausted() {
        return Ok(SpendOutcome {
            player: PlayerView::NoLuckLeft,
            gm: GmView {
                before: luck,
                after: luck,
                used: 0,
                deducted: 0,
                stunt: None,
                everlasting: Vec::new(),
            },
        });
    }
    let (used, stunt) = match purpose {
        LuckUse::Stunt { named } => {
            let rating = stunt_rating(named, luck);
            let roll = dice.d100();
            let level = resolve(rating, roll);
            let used = named.min(luck.0);
            (
                used,
                Some(StuntRoll {
                    named,
                    rating,
                    roll,
                    level,
                }),
            )
        }
        _ => (1, None),
    };
    let effect = match (purpose, wound, stunt) {
        (LuckUse::Reroll, ..) => Effect::Reroll,
        (LuckUse::LowerWound(_), Some((from, to)), _) => Effect::WoundLowered { from, to },
        (LuckUse::Stunt { .. }, _, Some(s)) => Effect::Stunt {
            succeeded: s.level.is_success(),
        },
        (LuckUse::KeepFighting, ..) => Effect::KeepFighting,
        _ => Effect::Rouse,
    };
    let mut total = luck.0;
    let mut everlasting_rolls = Vec::new();
    for _ in 0..used {
        if everlasting {
            let rating = Rating(total as i32);
            let roll = dice.d100();
            let level = resolve(rating, roll);
            let kept = level == Level::Black;
            everlasting_rolls.push(EverlastingRoll {
                rating,
                roll,
                level,
                kept,
            });
            if kept {
                continue;
            }
        }
        total -= 1;
    }
    let after = HiddenLuck(total);
    let player = if after.is_exhausted() {
        PlayerView::RanOut(effect)
    } else {
        PlayerView::Spent(effect)
    };
    Ok(SpendOutcome {
        player,
        gm: GmView {
            before: luck,
            after,
            used,
            deducted: luck.0 - total,
            stunt,
            everlasting: everlasting_rolls,
        },
    })
}

/// Chapter 10: the referee awards luck for daring stunts, good role-play or adding to the fun
/// (usually one point at a time). Capped at [`MAX_LUCK`].
pub fn award(luck: HiddenLuck, points: u32) -> HiddenLuck {
    HiddenLuck(luck.0.saturating_add(points).min(MAX_LUCK))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn luck(n: u32) -> HiddenLuck {
        HiddenLuck::new(n).unwrap()
    }

    #[test]
    fn starting_luck_is_a_secret_d10() {
        // thiz-rulebook.md, chapter 1 "Luck": 1d10.
        for face in [1, 10] {
            let got = roll_starting_luck(&mut ScriptedDice::new([face]));
            assert_eq!(got.reveal_to_gm(), face);
        }
    }

    #[test]
    fn the_total_never_shows() {
        // Chapter 10 "Luck": only the referee knows the number.
        let secret = luck(7);
        assert_eq!(format!("{secret:?}"), "HiddenLuck(<hidden>)");
        let out = spend(secret, LuckUse::Reroll, false, &mut ScriptedDice::new([])).unwrap();
        let debug = format!("{out:?}");
        assert!(!debug.contains('7') && !debug.contains('6'), "{debug}");
    }

    #[test]
    fn player_learns_only_zero() {
        // Chapter 10: the player hears the total only when it reaches zero. Every total above 1
        // looks the same to the player.
        for total in 2..=10 {
            let out = spend(
                luck(total),
                LuckUse::Reroll,
                false,
                &mut ScriptedDice::new([]),
            )
            .unwrap();
            assert_eq!(out.player, PlayerView::Spent(Effect::Reroll), "{total}");
            assert_eq!(out.gm.after.reveal_to_gm(), total - 1);
        }
        let last = spend(luck(1), LuckUse::Reroll, false, &mut ScriptedDice::new([])).unwrap();
        assert_eq!(last.player, PlayerView::RanOut(Effect::Reroll));
        let none = spend(luck(0), LuckUse::Reroll, false, &mut ScriptedDice::new([])).unwrap();
        assert_eq!(none.player, PlayerView::NoLuckLeft);
        assert_eq!(none.gm.deducted, 0);
    }

    #[test]
    fn lowering_wounds() {
        // rules/README.md "Luck to lower a wound".
        let cases = [
            (Level::Black, Some(Level::Red)),
            (Level::Red, Some(Level::Yellow)),
            (Level::Yellow, Some(Level::Green)),
            (Level::Green, None),
        ];
        for (from, to) in cases {
            let out = spend(
                luck(3),
                LuckUse::LowerWound(from),
                false,
                &mut ScriptedDice::new([]),
            )
            .unwrap();
            assert_eq!(
                out.player,
                PlayerView::Spent(Effect::WoundLowered { from, to })
            );
        }
        assert_eq!(
            spend(
                luck(3),
                LuckUse::LowerWound(Level::Failure),
                false,
                &mut ScriptedDice::new([])
            ),
            Err(LuckError::NotAWound)
        );
    }

    #[test]
    fn stunts_roll_at_the_smaller_of_named_and_total() {
        // rules/README.md "Luck stunt": rating min(N, total); the named points (at most the
        // total) are spent whatever the result. Rating 3 green is 63, rating 5 green is 69.
        let cases = [
            // (total, named, roll, rating, success, after)
            (5, 3, 63, 3, true, 2),
            (5, 3, 64, 3, false, 2),
            (5, 5, 69, 5, true, 0),
            (3, 5, 64, 3, false, 0),
            (3, 5, 63, 3, true, 0),
        ];
        for (total, named, roll, rating, ok, after) in cases {
            let out = spend(
                luck(total),
                LuckUse::Stunt { named },
                false,
                &mut ScriptedDice::new([roll]),
            )
            .unwrap();
            let s = out.gm.stunt.unwrap();
            assert_eq!(s.rating, Rating(rating), "{total}/{named}");
            assert_eq!(out.gm.after.reveal_to_gm(), after);
            let effect = Effect::Stunt { succeeded: ok };
            let want = if after == 0 {
                PlayerView::RanOut(effect)
            } else {
                PlayerView::Spent(effect)
            };
            assert_eq!(out.player, want, "{total}/{named} roll {roll}");
        }
        assert_eq!(
            spend(
                luck(3),
                LuckUse::Stunt { named: 0 },
                false,
                &mut ScriptedDice::new([])
            ),
            Err(LuckError::StuntNeedsPoints)
        );
        let broke = spend(
            luck(0),
            LuckUse::Stunt { named: 2 },
            false,
            &mut ScriptedDice::new([]),
        )
        .unwrap();
        assert_eq!(broke.player, PlayerView::NoLuckLeft);
    }

    #[test]
    fn luck_everlasting_keeps_a_point_on_black() {
        // Chapter 4 "Luck Everlasting": a Black against the current total keeps the point, in
        // secret. Rating 1: Black is 1..7; rating 2: 1..8.
        let kept = spend(luck(1), LuckUse::Reroll, true, &mut ScriptedDice::new([7])).unwrap();
        assert_eq!(kept.player, PlayerView::Spent(Effect::Reroll));
        assert_eq!(kept.gm.after.reveal_to_gm(), 1);
        assert!(kept.gm.everlasting[0].kept);
        let lost = spend(luck(1), LuckUse::Reroll, true, &mut ScriptedDice::new([8])).unwrap();
        assert_eq!(lost.player, PlayerView::RanOut(Effect::Reroll));
        assert!(!lost.gm.everlasting[0].kept);
        // A 2-point stunt at total 2: stunt roll, then one roll per point at the running total.
        let out = spend(
            luck(2),
            LuckUse::Stunt { named: 2 },
            true,
            &mut ScriptedDice::new([1, 9, 7]),
        )
        .unwrap();
        let ratings: Vec<i32> = out.gm.everlasting.iter().map(|e| e.rating.0).collect();
        assert_eq!(ratings, [2, 1]);
        assert_eq!(out.gm.deducted, 1);
        assert_eq!(out.gm.used, 2);
        assert_eq!(out.gm.after.reveal_to_gm(), 1);
        assert_eq!(
            out.player,
            PlayerView::Spent(Effect::Stunt { succeeded: true })
        );
    }

    #[test]
    fn awards_and_limits() {
        // Chapter 10: the referee awards extra points.
        assert_eq!(award(luck(0), 1).reveal_to_gm(), 1);
        assert_eq!(award(luck(998), 5).reveal_to_gm(), MAX_LUCK);
        assert!(HiddenLuck::new(999).is_ok());
        assert_eq!(HiddenLuck::new(1000), Err(LuckError::TooMuch(1000)));
        let out = spend(
            luck(4),
            LuckUse::KeepFighting,
            false,
            &mut ScriptedDice::new([]),
        )
        .unwrap();
        assert_eq!(out.player, PlayerView::Spent(Effect::KeepFighting));
        let out = spend(luck(4), LuckUse::Rouse, false, &mut ScriptedDice::new([])).unwrap();
        assert_eq!(out.gm.deducted, 1);
    }
}
