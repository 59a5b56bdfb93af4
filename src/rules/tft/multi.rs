//! David Bofinger's "Multiple Actions in a Turn" variant (tft-multiple-actions.txt).
//!
//! Owns the initiative sum, the meta-option table (actions, movement boost, requirements,
//! penalty multiplier) as data, which meta-options and actions a figure's adjDX allows, the
//! penalties each action takes, and the movement left. Never rolls initiative (callers pass the
//! first rolls) and never adjusts DX itself: an attack taken this way adds
//! [`crate::rules::tft::attack::Adjustment::MultipleActions`] and the ST penalty reported here.

/// The lowest and highest MA accepted.
pub const MAX_MA: u32 = 100;

/// Why a multiple-actions choice is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MultiError {
    #[error("an initiative roll is one die, 1 to 6; you gave {given}")]
    BadInitiativeRoll { given: u32 },
    #[error("there is no meta-option with {actions} action(s){}", if *.boost { " and a movement boost" } else { "" })]
    NoSuchOption { actions: u32, boost: bool },
    #[error("an engaged figure cannot take the movement boost")]
    BoostWhileEngaged,
    #[error(
        "this needs adjDX {needed} or more (over the initiative sum {sum} by more than {by}); yours is {adj_dx}"
    )]
    NotEnoughDx {
        needed: i32,
        sum: u32,
        by: i32,
        adj_dx: i32,
    },
    #[error("MA must be at most {max}; you gave {given}")]
    BadMa { max: u32, given: u32 },
}

/// The two sides' first initiative rolls added together, before rerolls and modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InitiativeSum(u32);

impl InitiativeSum {
    /// Adds the two first (unmodified) initiative rolls (README.md, "Multiple actions").
    pub fn new(first_side: u32, second_side: u32) -> Result<Self, MultiError> {
        for given in [first_side, second_side] {
            if !(1..=6).contains(&given) {
                return Err(MultiError::BadInitiativeRoll { given });
            }
        }
        Ok(Self(first_side + second_side))
    }

    pub const fn value(self) -> u32 {
        self.0
    }

    /// Whether adjDX exceeds the sum by more than `by` (strictly: README.md); `None` is no
    /// requirement at all.
    pub fn allows(self, adj_dx: i32, by: Option<i32>) -> bool {
        by.is_none_or(|by| adj_dx > self.0 as i32 + by)
    }

    fn require(self, adj_dx: i32, by: Option<i32>) -> Result<(), MultiError> {
        match by {
            Some(by) if !self.allows(adj_dx, Some(by)) => Err(MultiError::NotEnoughDx {
                needed: self.0 as i32 + by + 1,
                sum: self.0,
                by,
                adj_dx,
            }),
            _ => Ok(()),
        }
    }
}

/// One row of the meta-option table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MetaOption {
    /// Options the figure may take this turn.
    pub actions: u32,
    /// Unengaged figures move MA/3 further (rounded) — counted as one more action.
    pub movement_boost: bool,
    /// How far adjDX must exceed the initiative sum to choose this row (`None`: anyone).
    pub requirement: Option<i32>,
    /// How far adjDX must exceed the sum for Defend, Dodge, Disengage, Pick up or Stand
    /// (`None`: no requirement).
    pub action_requirement: Option<i32>,
    /// What the action penalties are multiplied by.
    pub multiplier: u32,
}

const fn row(
    actions: u32,
    movement_boost: bool,
    requirement: Option<i32>,
    action_requirement: Option<i32>,
    multiplier: u32,
) -> MetaOption {
    MetaOption {
        actions,
        movement_boost,
        requirement,
        action_requirement,
        multiplier,
    }
}

/// tft-multiple-actions.txt, "Action Segment", in order of effort.
///
/// The source's table lost its first row, standard TFT (one action, nothing required, no
/// penalty), which its text describes; it is restored here.
// Decision: the source prints an action requirement of 18 for "2 actions, normal movement", but
// its own summary says two actions (like one plus a boost) need adjDX over the sum by 10, and
// that only the three-action rows add 8 and double the penalties; the table's ×1 multiplier on
// that row agrees with the summary, so 10 is used.
pub const META_OPTIONS: [MetaOption; 5] = [
    row(1, false, None, None, 0),
    row(1, true, Some(10), Some(10), 1),
    row(2, false, None, Some(10), 1),
    row(2, true, Some(18), Some(18), 2),
    row(3, false, None, Some(18), 2),
];

/// The largest penalty multiplier of the table.
pub fn max_multiplier() -> u32 {
    META_OPTIONS.iter().map(|m| m.multiplier).max().unwrap_or(0)
}

/// The meta-options a figure may choose (engaged figures get no movement boost).
pub fn available_meta_options(adj_dx: i32, sum: InitiativeSum, engaged: bool) -> Vec<MetaOption> {
    META_OPTIONS
        .iter()
        .filter(|m| !(engaged && m.movement_boost) && sum.allows(adj_dx, m.requirement))
        .copied()
        .collect()
}

/// Picks the row for `actions` actions (with or without the boost), if the figure may take it.
pub fn choose_meta_option(
    actions: u32,
    movement_boost: bool,
    adj_dx: i32,
    sum: InitiativeSum,
    engaged: bool,
) -> Result<MetaOption, MultiError> {
    let option = META_OPTIONS
        .iter()
        .find(|m| m.actions == actions && m.movement_boost == movement_boost)
        .ok_or(MultiError::NoSuchOption {
            actions,
            boost: movement_boost,
        })?;
    if engaged && movement_boost {
        return Err(MultiError::BoostWhileEngaged);
    }
    sum.require(adj_dx, option.requirement)?;
    Ok(*option)
}

/// The options of Advanced Melee, grouped as the variant treats them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Defend,
    Dodge,
    Disengage,
    PickUp,
    StandUp,
    Attack,
    Charge,
    Jab,
    Throw,
    HandToHandAttack,
    Shoot,
    Disbelieve,
    DrawDagger,
    Pin,
    CastSpell,
    /// Any other option (move, ready a weapon, drop...): no requirement, no penalty.
    // Decision: the summary says every roll-free action needs the adjDX, but the precise text
    // names only Defend, Dodge, Disengage, Pick up and Stand; the precise text is followed.
    Other,
}

/// What one action costs under a meta-option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActionTerms {
    /// How far adjDX must exceed the initiative sum (`None`: no requirement).
    pub requirement: Option<i32>,
    /// ST taken off (for weapon ST minimums and the like).
    pub st_penalty: i32,
    /// IQ taken off (for the spells a wizard can cast).
    pub iq_penalty: i32,
    /// Dice added to the action's roll.
    pub extra_dice: u32,
}

/// The requirement and penalties of `action` under `option` (tft-multiple-actions.txt).
pub fn action_terms(action: Action, option: &MetaOption) -> ActionTerms {
    let m = option.multiplier;
    let per_unit = match action {
        Action::Defend | Action::Dodge | Action::Disengage | Action::PickUp | Action::StandUp => {
            return ActionTerms {
                requirement: option.action_requirement,
                ..ActionTerms::default()
            };
        }
        Action::Attack
        | Action::Charge
        | Action::Jab
        | Action::Throw
        | Action::HandToHandAttack
        | Action::Shoot => (4, 0, 1),
        Action::Disbelieve | Action::DrawDagger | Action::Pin => (0, 0, 2),
        Action::CastSpell => (0, 4, 1),
        Action::Other => (0, 0, 0),
    };
    let (st, iq, dice) = per_unit;
    ActionTerms {
        requirement: None,
        st_penalty: st * m as i32,
        iq_penalty: iq * m as i32,
        extra_dice: dice * m,
    }
}

/// Checks the action's requirement and returns its terms.
pub fn check_action(
    action: Action,
    option: &MetaOption,
    adj_dx: i32,
    sum: InitiativeSum,
) -> Result<ActionTerms, MultiError> {
    let terms = action_terms(action, option);
    sum.require(adj_dx, terms.requirement)?;
    Ok(terms)
}

/// The boost of an unengaged figure: MA/3, rounded to the nearest hex.
// Decision: "round off" is read as rounding to the nearest whole hex (11/3 gives 4).
pub fn movement_boost(ma: u32) -> u32 {
    (ma + 1) / 3
}

/// Hexes the figure may move: the least any chosen option allows, plus the boost if taken.
pub fn movement_allowance(
    ma: u32,
    option_allowances: &[u32],
    option: &MetaOption,
    engaged: bool,
) -> Result<u32, MultiError> {
    if ma > MAX_MA {
        return Err(MultiError::BadMa {
            max: MAX_MA,
            given: ma,
        });
    }
    if engaged && option.movement_boost {
        return Err(MultiError::BoostWhileEngaged);
    }
    let least = option_allowances.iter().copied().min().unwrap_or(ma);
    let boost = if option.movement_boost {
        movement_boost(ma)
    } else {
        0
    };
    Ok(least + boost)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(a: u32, b: u32) -> InitiativeSum {
        InitiativeSum::new(a, b).unwrap()
    }

    #[test]
    fn initiative_sum_and_its_limits() {
        // README.md, "Multiple actions": the two first rolls added.
        assert_eq!(sum(1, 1).value(), 2);
        assert_eq!(sum(6, 6).value(), 12);
        assert_eq!(sum(3, 4).value(), 7);
        assert_eq!(
            InitiativeSum::new(0, 3),
            Err(MultiError::BadInitiativeRoll { given: 0 })
        );
        assert_eq!(
            InitiativeSum::new(3, 7),
            Err(MultiError::BadInitiativeRoll { given: 7 })
        );
    }

    #[test]
    fn exceed_is_strict() {
        // README.md: "exceed" is strictly greater. Sum 7, by 10: 17 fails, 18 passes.
        let s = sum(3, 4);
        assert!(!s.allows(17, Some(10)));
        assert!(s.allows(18, Some(10)));
        assert!(s.allows(-5, None));
    }

    #[test]
    fn table_is_ordered_and_complete() {
        // tft-multiple-actions.txt, "Action Segment": effort grows down the table.
        let effort: Vec<_> = META_OPTIONS
            .iter()
            .map(|m| m.actions + u32::from(m.movement_boost))
            .collect();
        assert_eq!(effort, [1, 2, 2, 3, 3]);
        let mult: Vec<_> = META_OPTIONS.iter().map(|m| m.multiplier).collect();
        assert_eq!(mult, [0, 1, 1, 2, 2]);
        // The three-action rows add 8 to the requirements (the text's summary).
        assert_eq!(META_OPTIONS[3].action_requirement, Some(18));
        assert_eq!(META_OPTIONS[4].action_requirement, Some(18));
        assert_eq!(META_OPTIONS[2].action_requirement, Some(10));
        assert_eq!(max_multiplier(), 2);
    }

    #[test]
    fn choosing_meta_options() {
        let s = sum(4, 4);
        // Standard TFT: anyone.
        assert_eq!(
            choose_meta_option(1, false, 1, s, true),
            Ok(META_OPTIONS[0])
        );
        // Boost: adjDX over 8 + 10, so 18 fails and 19 passes.
        assert_eq!(
            choose_meta_option(1, true, 18, s, false),
            Err(MultiError::NotEnoughDx {
                needed: 19,
                sum: 8,
                by: 10,
                adj_dx: 18
            })
        );
        assert_eq!(
            choose_meta_option(1, true, 19, s, false),
            Ok(META_OPTIONS[1])
        );
        assert_eq!(
            choose_meta_option(1, true, 30, s, true),
            Err(MultiError::BoostWhileEngaged)
        );
        // Two actions, three actions: no meta-option requirement.
        assert_eq!(
            choose_meta_option(2, false, 5, s, true),
            Ok(META_OPTIONS[2])
        );
        assert_eq!(
            choose_meta_option(3, false, 5, s, true),
            Ok(META_OPTIONS[4])
        );
        // Two plus boost: over 8 + 18.
        assert!(choose_meta_option(2, true, 26, s, false).is_err());
        assert_eq!(
            choose_meta_option(2, true, 27, s, false),
            Ok(META_OPTIONS[3])
        );
        assert_eq!(
            choose_meta_option(4, false, 40, s, false),
            Err(MultiError::NoSuchOption {
                actions: 4,
                boost: false
            })
        );
        assert!(choose_meta_option(3, true, 40, s, false).is_err());
    }

    #[test]
    fn available_options() {
        let s = sum(2, 3);
        let count = |adj_dx, engaged| available_meta_options(adj_dx, s, engaged).len();
        assert_eq!(count(15, false), 3); // 15 is not over 5 + 10
        assert_eq!(count(16, false), 4);
        assert_eq!(count(23, false), 4); // 23 is not over 5 + 18
        assert_eq!(count(24, false), 5);
        assert_eq!(count(24, true), 3);
    }

    #[test]
    fn action_penalties() {
        // tft-multiple-actions.txt, "Action Penalties", times the row's multiplier.
        let one = META_OPTIONS[2];
        let two = META_OPTIONS[4];
        let t = |a, m: &MetaOption| {
            let x = action_terms(a, m);
            (x.requirement, x.st_penalty, x.iq_penalty, x.extra_dice)
        };
        assert_eq!(t(Action::Attack, &META_OPTIONS[0]), (None, 0, 0, 0));
        for a in [
            Action::Attack,
            Action::Charge,
            Action::Jab,
            Action::Throw,
            Action::HandToHandAttack,
            Action::Shoot,
        ] {
            assert_eq!(t(a, &one), (None, 4, 0, 1), "{a:?}");
            assert_eq!(t(a, &two), (None, 8, 0, 2), "{a:?}");
        }
        for a in [Action::Disbelieve, Action::DrawDagger, Action::Pin] {
            assert_eq!(t(a, &one), (None, 0, 0, 2), "{a:?}");
            assert_eq!(t(a, &two), (None, 0, 0, 4), "{a:?}");
        }
        assert_eq!(t(Action::CastSpell, &one), (None, 0, 4, 1));
        assert_eq!(t(Action::CastSpell, &two), (None, 0, 8, 2));
        for a in [
            Action::Defend,
            Action::Dodge,
            Action::Disengage,
            Action::PickUp,
            Action::StandUp,
        ] {
            assert_eq!(t(a, &one), (Some(10), 0, 0, 0), "{a:?}");
            assert_eq!(t(a, &two), (Some(18), 0, 0, 0), "{a:?}");
            assert_eq!(t(a, &META_OPTIONS[0]), (None, 0, 0, 0), "{a:?}");
        }
        assert_eq!(t(Action::Other, &two), (None, 0, 0, 0));
    }

    #[test]
    fn checking_actions() {
        let s = sum(5, 5);
        let row = META_OPTIONS[2];
        assert!(check_action(Action::Defend, &row, 20, s).is_err());
        assert!(check_action(Action::Defend, &row, 21, s).is_ok());
        assert_eq!(
            check_action(Action::Attack, &row, 3, s).unwrap().extra_dice,
            1
        );
    }

    #[test]
    fn movement() {
        // tft-multiple-actions.txt: MA/3 round off; the least of the options' movement.
        let boosted = [(9, 3), (10, 3), (11, 4), (12, 4), (0, 0)];
        for (ma, boost) in boosted {
            assert_eq!(movement_boost(ma), boost, "{ma}");
        }
        // A 2-hex Prepare and a 5-hex Dodge: 2, plus 4 with the boost at MA 12.
        assert_eq!(
            movement_allowance(12, &[2, 5], &META_OPTIONS[2], false),
            Ok(2)
        );
        assert_eq!(movement_allowance(12, &[2], &META_OPTIONS[1], false), Ok(6));
        assert_eq!(
            movement_allowance(12, &[2], &META_OPTIONS[1], true),
            Err(MultiError::BoostWhileEngaged)
        );
        assert_eq!(movement_allowance(10, &[], &META_OPTIONS[0], false), Ok(10));
        assert!(movement_allowance(100, &[], &META_OPTIONS[0], false).is_ok());
        assert!(movement_allowance(101, &[], &META_OPTIONS[0], false).is_err());
    }
}
