//! The common checks of the TFT summary as data: which attribute, how many dice, what modifier.
//!
//! Source: tft-rules-summary.md, "COMMON CHECKS" (and the two HTH rolls under "OPTIONS FOR FIGURES
//! IN HTH COMBAT"). Rolling one is a plain [`super::save_roll`] with the attribute plus the
//! modifier; this module only says which roll a situation calls for. It never rolls.

use crate::rules::tft::character::{Attribute, Talent};

/// What the figure is trying to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckActivity {
    SpotAmbush,
    ClimbWall,
    ClimbRope,
    ForceDoor,
    Notice,
    PickPocket,
    RecognizeSpell,
    Run,
    DrawDagger,
    LeaveHandToHand,
    /// Disbelieve one figure (an illusion): 3/IQ (tft-multiple-actions.txt, "a 3/IQ
    /// disbelieve"; tft-rules-summary.md names the option without its roll).
    Disbelieve,
}

/// Which talents a row of the table is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TalentCondition {
    /// Anyone may roll it.
    Anyone,
    /// The figure has this talent.
    With(Talent),
    /// The figure has both talents.
    WithBoth(Talent, Talent),
}

/// One row of the common checks: roll `dice` d6 against `attribute + modifier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommonCheck {
    pub activity: CheckActivity,
    /// A short label for the case, in our words.
    pub case: &'static str,
    pub attribute: Attribute,
    pub dice: u32,
    /// Added to the attribute before rolling (the summary's "+2adjDX", "DX-2").
    pub modifier: i32,
    pub talent: TalentCondition,
}

const fn row(
    activity: CheckActivity,
    case: &'static str,
    attribute: Attribute,
    dice: u32,
    modifier: i32,
    talent: TalentCondition,
) -> CommonCheck {
    CommonCheck {
        activity,
        case,
        attribute,
        dice,
        modifier,
        talent,
    }
}

use Attribute::{Dx, Iq, St};
use CheckActivity as A;
use TalentCondition::{Anyone, With, WithBoth};

// tft-rules-summary.md, "COMMON CHECKS".
// Decision: the summary lists spot-ambush rolls only for Naturalist, Alertness or both; a figure
// with neither gets no row (the GM decides). Hidden and invisible figures are listed with Acute
// Hearing in the talent column: we read them as the roll for a figure with that talent.
// Decision: "Locked +1d" under Force Door adds one die to either way of forcing.
// Decision: Pick Pocket reads as 5d/DX for anyone, 3d/DX for a Thief, and +1 more with a
// distraction. Run "Moving" reads as a slippery floor that moves (a deck at sea): 4d/DX.
/// The common checks, grouped by activity in the summary's order.
pub const COMMON_CHECKS: [CommonCheck; 29] = [
    row(
        A::SpotAmbush,
        "with Naturalist",
        Iq,
        3,
        0,
        With(Talent::Naturalist),
    ),
    row(
        A::SpotAmbush,
        "with Alertness",
        Iq,
        3,
        0,
        With(Talent::Alertness),
    ),
    row(
        A::SpotAmbush,
        "with Naturalist and Alertness",
        Iq,
        2,
        0,
        WithBoth(Talent::Naturalist, Talent::Alertness),
    ),
    row(A::ClimbWall, "wall", Dx, 4, 0, Anyone),
    row(
        A::ClimbWall,
        "wall, with Climbing",
        Dx,
        4,
        2,
        With(Talent::Climbing),
    ),
    row(A::ClimbRope, "rope", Dx, 2, 0, Anyone),
    row(
        A::ClimbRope,
        "rope, with Climbing",
        Dx,
        2,
        2,
        With(Talent::Climbing),
    ),
    row(A::ForceDoor, "with a crowbar", St, 3, 0, Anyone),
    row(A::ForceDoor, "by kicking", St, 5, 0, Anyone),
    row(A::ForceDoor, "locked, with a crowbar", St, 4, 0, Anyone),
    row(A::ForceDoor, "locked, by kicking", St, 6, 0, Anyone),
    row(A::Notice, "contact poison", Iq, 5, 0, Anyone),
    row(A::Notice, "food poison", Iq, 3, 0, Anyone),
    row(
        A::Notice,
        "food poison, with Alertness",
        Iq,
        3,
        1,
        With(Talent::Alertness),
    ),
    row(
        A::Notice,
        "food poison, with Detect Traps",
        Iq,
        3,
        1,
        With(Talent::DetectTraps),
    ),
    row(
        A::Notice,
        "food poison, with Alertness and Detect Traps",
        Iq,
        3,
        2,
        WithBoth(Talent::Alertness, Talent::DetectTraps),
    ),
    row(A::Notice, "trap", Iq, 3, 0, Anyone),
    row(
        A::Notice,
        "trap, with Alertness",
        Iq,
        3,
        1,
        With(Talent::Alertness),
    ),
    row(
        A::Notice,
        "trap, with Detect Traps",
        Iq,
        3,
        1,
        With(Talent::DetectTraps),
    ),
    row(
        A::Notice,
        "trap, with Alertness and Detect Traps",
        Iq,
        3,
        2,
        WithBoth(Talent::Alertness, Talent::DetectTraps),
    ),
    row(
        A::Notice,
        "hidden figure, with Acute Hearing",
        Iq,
        4,
        0,
        With(Talent::AcuteHearing),
    ),
    row(
        A::Notice,
        "invisible figure, with Acute Hearing",
        Iq,
        4,
        0,
        With(Talent::AcuteHearing),
    ),
    row(A::PickPocket, "without the Thief talent", Dx, 5, 0, Anyone),
    row(A::PickPocket, "with Thief", Dx, 3, 0, With(Talent::Thief)),
    row(
        A::PickPocket,
        "with Thief and a distraction",
        Dx,
        3,
        1,
        With(Talent::Thief),
    ),
    row(
        A::RecognizeSpell,
        "spell at or under the reader's IQ (-1 per IQ level above it)",
        Iq,
        5,
        0,
        Anyone,
    ),
    row(A::Run, "broken ground", Dx, 3, -2, Anyone),
    row(A::Run, "darkness", Dx, 3, 0, Anyone),
    row(A::Run, "broken ground in darkness", Dx, 4, 0, Anyone),
];

/// The two HTH rolls of the summary's option list (3/DX to draw a dagger, 4/DX to get out), and the
/// slippery floors of "Run". Kept apart from [`COMMON_CHECKS`] only to keep that table's length
/// readable; [`checks_for`] searches both.
pub const MORE_CHECKS: [CommonCheck; 5] = [
    row(A::Run, "slippery floor", Dx, 3, 0, Anyone),
    row(A::Run, "slippery moving floor", Dx, 4, 0, Anyone),
    row(A::DrawDagger, "in hand-to-hand", Dx, 3, 0, Anyone),
    row(
        A::LeaveHandToHand,
        "to an adjacent free hex",
        Dx,
        4,
        0,
        Anyone,
    ),
    row(A::Disbelieve, "one figure", Iq, 3, 0, Anyone),
];

/// Every row for one activity.
pub fn checks_for(activity: CheckActivity) -> impl Iterator<Item = &'static CommonCheck> {
    COMMON_CHECKS
        .iter()
        .chain(MORE_CHECKS.iter())
        .filter(move |c| c.activity == activity)
}

/// Rolls a common check for a figure whose attribute is `attribute_value`, with `extra` more
/// modifiers from the situation.
pub fn roll_common_check(
    check: &CommonCheck,
    attribute_value: i32,
    extra: i32,
    dice: &mut impl crate::rules::dice::DieSource,
) -> Result<super::SaveOutcome, super::SaveError> {
    super::save_roll(check.dice, attribute_value + check.modifier + extra, dice)
}

/// The IQ adjustment for recognizing a spell: -1 for each IQ level of the spell above the reader's
/// IQ, nothing when it is at or under (tft-rules-summary.md, "COMMON CHECKS", Recognize Spell).
pub fn recognize_spell_modifier(spell_iq: i32, reader_iq: i32) -> i32 {
    -(spell_iq - reader_iq).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_activity_has_rows_and_rows_are_grouped() {
        use CheckActivity::*;
        for a in [
            SpotAmbush,
            ClimbWall,
            ClimbRope,
            ForceDoor,
            Notice,
            PickPocket,
            RecognizeSpell,
            Run,
            DrawDagger,
            LeaveHandToHand,
            Disbelieve,
        ] {
            assert!(checks_for(a).count() > 0, "{a:?}");
        }
        // Grouped: once an activity is left it does not come back.
        let all: Vec<_> = COMMON_CHECKS
            .iter()
            .chain(MORE_CHECKS.iter())
            .map(|c| c.activity)
            .collect();
        for (i, a) in all.iter().enumerate() {
            if let Some(j) = all[..i].iter().rposition(|b| b == a) {
                assert!(all[j..i].iter().all(|b| b == a), "{a:?} split");
            }
        }
        for c in COMMON_CHECKS.iter().chain(MORE_CHECKS.iter()) {
            assert!((1..=6).contains(&c.dice), "{}", c.case);
        }
    }

    #[test]
    fn rows_match_the_summary() {
        // tft-rules-summary.md, "COMMON CHECKS".
        let find = |case: &str| {
            COMMON_CHECKS
                .iter()
                .chain(MORE_CHECKS.iter())
                .find(|c| c.case == case)
                .copied()
                .unwrap()
        };
        let kick = find("by kicking");
        assert_eq!(
            (kick.attribute, kick.dice, kick.modifier),
            (Attribute::St, 5, 0)
        );
        assert_eq!(find("locked, by kicking").dice, 6);
        let wall = find("wall, with Climbing");
        assert_eq!(
            (wall.attribute, wall.dice, wall.modifier),
            (Attribute::Dx, 4, 2)
        );
        assert_eq!(find("rope").dice, 2);
        assert_eq!(find("broken ground").modifier, -2);
        assert_eq!(find("contact poison").dice, 5);
        assert_eq!(find("with Naturalist and Alertness").dice, 2);
        assert_eq!(find("trap, with Alertness and Detect Traps").modifier, 2);
        assert_eq!(find("without the Thief talent").dice, 5);
        assert_eq!(find("in hand-to-hand").dice, 3);
        assert_eq!(find("to an adjacent free hex").dice, 4);
    }

    #[test]
    fn rolling_a_check_adds_its_modifier() {
        use crate::rules::dice::ScriptedDice;
        // "Climb Walls": 4d/DX, +2 with Climbing. DX 11 + 2 = 13: a 13 succeeds, a 14 fails.
        let wall = checks_for(CheckActivity::ClimbWall)
            .find(|c| c.modifier == 2)
            .copied()
            .unwrap();
        let out = roll_common_check(&wall, 11, 0, &mut ScriptedDice::new([4, 4, 4, 1])).unwrap();
        assert_eq!((out.total, out.target, out.succeeded()), (13, 13, true));
        let out = roll_common_check(&wall, 11, 0, &mut ScriptedDice::new([4, 4, 4, 2])).unwrap();
        assert!(!out.succeeded());
    }

    #[test]
    fn recognize_spell_penalty_edges() {
        // tft-rules-summary.md, "COMMON CHECKS": -1 adjIQ per IQ level above the reader's.
        assert_eq!(recognize_spell_modifier(12, 12), 0);
        assert_eq!(recognize_spell_modifier(11, 12), 0);
        assert_eq!(recognize_spell_modifier(13, 12), -1);
        assert_eq!(recognize_spell_modifier(16, 12), -4);
    }
}
