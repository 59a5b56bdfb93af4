//! After the blow: reaction to injury, knockdown, hits applied, hand-to-hand entry and exit,
//! fleeing, called-shot effects, and death and dying.
//!
//! Owns tft-house-rules-combat.txt "Reaction to Injuries", "Knockdown", "Hand-to-Hand Combat",
//! "Fleeing"; tft-house-rules.txt "Death and Dying"; tft-rules-summary.md "OPTIONS FOR FIGURES
//! IN HTH COMBAT" and "OTHER ATTACKS". Takes hits, ST and DX as plain numbers; never rolls damage
//! (the damage module does), never reads a character sheet, never formats text.

mod dying;
mod error;
mod hth;
mod recovery;

pub use dying::{
    Dying, DyingModifier, DyingOutcome, DyingRoll, HELP_MINUTES, Helper, RECOVERY_WEEKS, TO_LIVE,
    dx_penalty_after_weeks, original_st_modifier, roll_dying,
};
pub use error::{InjuryError, MAX_ST};
pub use hth::{
    CalledArea, CalledEffect, FreeAttacks, HthEntry, HthModifier, HthResult, called_shot_effect,
    draw_dagger, fleeing, hth_entry, hth_result, leave_hth, may_strike_at_once,
};
pub use recovery::{
    Condition, FIRST_AID_HITS, Healed, Healing, MAX_HEALING, POTION_HITS, Unable, condition_at,
    heal, unable_to_attack,
};

use crate::rules::dice::DieSource;

fn check_st(st: i32) -> Result<i32, InjuryError> {
    if (1..=MAX_ST).contains(&st) {
        Ok(st)
    } else {
        Err(InjuryError::St(st))
    }
}

fn check_hits(hits: i32) -> Result<i32, InjuryError> {
    if (0..=10_000).contains(&hits) {
        Ok(hits)
    } else {
        Err(InjuryError::Hits(hits))
    }
}

// ---------------------------------------------------------------------------------------------
// Rolls against an attribute

/// How an Nd6 roll against a number came out, with every face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeRoll {
    pub dice: u32,
    pub faces: Vec<u32>,
    pub total: i32,
    /// The number rolled against (ST, DX or adjDX).
    pub against: i32,
    pub success: bool,
    /// Set when the total fell in an automatic band and overrode the comparison.
    pub automatic: bool,
}

/// Rolls `count` dice against `against`: success at or under it, with the automatic bands of
/// /work/shared/rules/README.md ("Saving rolls with N dice": automatic success at or under
/// 3N-4, automatic failure at or over 4N+4). The saves module owns the general version; this
/// one is kept here because the injury rules may not call it.
pub fn roll_against(dice: &mut impl DieSource, count: u32, against: i32) -> AttributeRoll {
    let faces = dice.d6s(count);
    let total = faces.iter().sum::<u32>() as i32;
    let (success, automatic) = judge(count, total, against);
    AttributeRoll {
        dice: count,
        faces,
        total,
        against,
        success,
        automatic,
    }
}

/// The verdict on a total: (success, decided by an automatic band).
pub fn judge(count: u32, total: i32, against: i32) -> (bool, bool) {
    // The automatic bands live in one table, the saving rolls' (rules/README.md, "Saving rolls
    // with N dice"); a dice count outside it has no automatic results.
    let Ok(bands) = super::saves::bands(count) else {
        return (total <= against, false);
    };
    if total <= bands.success_max as i32 {
        (true, true)
    } else if total >= bands.failure_min as i32 {
        (false, true)
    } else {
        (total <= against, false)
    }
}

// ---------------------------------------------------------------------------------------------
// Reaction to injuries

/// The hits in one round that cost -2 DX and that knock a figure down, for its ST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionThresholds {
    pub minus_two_dx: i32,
    pub knockdown: i32,
}

/// The thresholds for a figure's ST (tft-house-rules-combat.txt, "Reaction to Injuries").
///
/// The printed table runs in bands of ten from 20 to 109, after one band of 1-19; its -2 DX
/// column climbs by 2 and 3 in turn (5, 7, 10, 12, ...) and its knockdown column by 4. The
/// table ends with "...", so the same steps continue past 109.
pub fn reaction_thresholds(st: i32) -> Result<ReactionThresholds, InjuryError> {
    let st = check_st(st)?;
    let band = if st < 20 { 0 } else { st / 10 - 1 };
    Ok(ReactionThresholds {
        minus_two_dx: 5 + 5 * band / 2,
        knockdown: 8 + 4 * band,
    })
}

/// The thresholds with the house rules on (their chart, by ST) or off.
///
/// Decision: tft-house-rules-combat.txt, "Reaction to Injuries" supersedes the original chart
/// with its bands by ST; with the house rules off the summary's single numbers stand for every
/// figure, whatever its ST: 5 hits since its last action cost -2 DX (tft-rules-summary.md,
/// "Common DX Adjustments" and "ACTIONS") and 8 hits in a round knock it down (the number the
/// house rules' "Knockdown" keeps for figures under ST 20).
pub fn reaction_thresholds_by(
    st: i32,
    house_rules: bool,
) -> Result<ReactionThresholds, InjuryError> {
    if house_rules {
        return reaction_thresholds(st);
    }
    check_st(st)?;
    Ok(ReactionThresholds {
        minus_two_dx: 5,
        knockdown: 8,
    })
}

/// What the round's hits do to a figure by the reaction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reaction {
    pub thresholds: ReactionThresholds,
    /// Hits taken this round, this blow included.
    pub round_hits: i32,
    /// At -2 DX for its next action.
    pub minus_two_dx: bool,
    pub knocked_down: bool,
}

/// The reaction to `round_hits` hits taken in one round (cumulative, from any source).
/// The reaction to `round_hits` hits taken in one round (cumulative, from any source), with the
/// house rules on or off (see [`reaction_thresholds_by`]).
pub fn reaction_by(st: i32, round_hits: i32, house_rules: bool) -> Result<Reaction, InjuryError> {
    let thresholds = reaction_thresholds_by(st, house_rules)?;
    let round_hits = check_hits(round_hits)?;
    Ok(Reaction {
        thresholds,
        round_hits,
        minus_two_dx: round_hits >= thresholds.minus_two_dx,
        knocked_down: round_hits >= thresholds.knockdown,
    })
}

// ---------------------------------------------------------------------------------------------
// Knockdown by strong attackers and powerful blows

/// Why a figure must roll to stay on its feet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnockdownReason {
    /// The attacker's ST is 30 or more (3d), 50 or more (4d), 80 or more (5d).
    StrongAttacker { attacker_st: i32 },
    /// The blow did more damage before armor than the figure's ST.
    PowerfulBlow { damage_before_armor: i32 },
    /// A lance hit in a charge (tft-house-rules.txt, "Lance and Pike Rules": 4d/ST).
    Lance,
}

/// Dice for the strong-attacker roll (tft-house-rules-combat.txt, "Knockdown").
///
/// Decision: the steps stop at ST 80 (5d); the source names no further step.
pub fn strong_attacker_dice(attacker_st: i32) -> Option<u32> {
    match attacker_st {
        80.. => Some(5),
        50..80 => Some(4),
        30..50 => Some(3),
        _ => None,
    }
}

/// Dice for the powerful-blow roll (same section): needs damage before armor above the
/// target's ST; 3d, then one more die for each 4 points past 14 (15-18: 4d, 19-22: 5d, ...).
pub fn powerful_blow_dice(damage_before_armor: i32, target_st: i32) -> Option<u32> {
    if damage_before_armor <= target_st {
        return None;
    }
    let over = (damage_before_armor - 14).max(0);
    Some(3 + (over as u32).div_ceil(4))
}

/// The figure hit, for the after-the-blow rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Struck {
    /// Its ST (the full attribute: sets the reaction band and is rolled against).
    pub st: i32,
    /// Hits it already took this round, before this blow.
    pub earlier_hits: i32,
    /// With Acrobatics it may roll the knockdown saves against adjDX instead.
    pub acrobatics_adj_dx: Option<i32>,
}

/// The knockdown save a figure rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockdownSave {
    pub reasons: Vec<KnockdownReason>,
    /// True when Acrobatics made adjDX the better number.
    pub used_adj_dx: bool,
    pub roll: AttributeRoll,
}

/// Everything after a blow lands: the reaction, any save and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AfterBlow {
    pub reaction: Reaction,
    pub save: Option<KnockdownSave>,
    /// Down, by the reaction table or a failed save.
    pub knocked_down: bool,
    pub minus_two_dx: bool,
}

/// Works out the reaction to a blow and rolls any knockdown save.
///
/// Decision: when several reasons call for a save (strong attacker, powerful blow, lance) the
/// figure rolls once, with the most dice any of them asks for; and a figure already knocked
/// down by the reaction table rolls nothing, since the powerful-blow rule only covers blows the
/// table does not. Decision: with Acrobatics the figure rolls against the higher of ST and
/// adjDX, the choice any player would make.
///
/// The reaction table is the house rules', or the original numbers when they are off (see
/// [`reaction_thresholds_by`]).
pub fn after_blow_by(
    dice: &mut impl DieSource,
    struck: &Struck,
    hits: i32,
    damage_before_armor: i32,
    attacker_st: Option<i32>,
    lance: bool,
    house_rules: bool,
) -> Result<AfterBlow, InjuryError> {
    let earlier = check_hits(struck.earlier_hits)?;
    let hits = check_hits(hits)?;
    let reaction = reaction_by(struck.st, earlier + hits, house_rules)?;
    let mut reasons = Vec::new();
    let mut count = 0;
    if let Some(st) = attacker_st
        && let Some(n) = strong_attacker_dice(st)
    {
        reasons.push(KnockdownReason::StrongAttacker { attacker_st: st });
        count = count.max(n);
    }
    if let Some(n) = powerful_blow_dice(damage_before_armor, struck.st) {
        reasons.push(KnockdownReason::PowerfulBlow {
            damage_before_armor,
        });
        count = count.max(n);
    }
    if lance {
        reasons.push(KnockdownReason::Lance);
        count = count.max(4);
    }
    let save = if reasons.is_empty() || reaction.knocked_down {
        None
    } else {
        let dx = struck.acrobatics_adj_dx.filter(|&dx| dx > struck.st);
        let roll = roll_against(dice, count, dx.unwrap_or(struck.st));
        Some(KnockdownSave {
            reasons,
            used_adj_dx: dx.is_some(),
            roll,
        })
    };
    let failed = save.as_ref().is_some_and(|s| !s.roll.success);
    Ok(AfterBlow {
        knocked_down: reaction.knocked_down || failed,
        minus_two_dx: reaction.minus_two_dx,
        reaction,
        save,
    })
}

// ---------------------------------------------------------------------------------------------
// Hits applied

/// ST left and the resulting condition (tft-rules-summary.md, "STRENGTH"; tft-house-rules.txt,
/// "Death and Dying").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitsApplied {
    pub st_before: i32,
    pub hits: i32,
    pub st_left: i32,
    pub condition: Condition,
}

/// Takes `hits` off `st_left`.
pub fn apply_hits(st_left: i32, hits: i32) -> Result<HitsApplied, InjuryError> {
    let hits = check_hits(hits)?;
    if !(-MAX_ST..=MAX_ST).contains(&st_left) {
        return Err(InjuryError::St(st_left));
    }
    let after = st_left - hits;
    let condition = condition_at(after);
    Ok(HitsApplied {
        st_before: st_left,
        hits,
        st_left: after,
        condition,
    })
}

#[cfg(test)]
mod tests;
