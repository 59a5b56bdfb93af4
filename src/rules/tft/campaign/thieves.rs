//! Thieves' risk reductions and pay increases.
//!
//! Source: tft-house-rules.txt, "Thieves" (the reduction table, the cap in parentheses, the pay
//! limit) and "Wizards" (a wizard working as a thief counts fitting spells as 1/4 each). Values
//! are kept in quarters so the sum is exact before its fraction is dropped. Never rolls.

use crate::rules::tft::character::Talent;

/// One talent's worth to a thief: risk reduction in quarters and extra pay in $.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThiefTalentFactor {
    pub talent: Talent,
    pub quarters: i32,
    pub pay: u32,
}

const fn f(talent: Talent, quarters: i32, pay: u32) -> ThiefTalentFactor {
    ThiefTalentFactor {
        talent,
        quarters,
        pay,
    }
}

/// tft-house-rules.txt, "Thieves": the talents that lower a thief's risk or raise the pay.
pub const THIEF_TALENT_FACTORS: [ThiefTalentFactor; 16] = [
    f(Talent::MasterThief, 3, 3),
    f(Talent::DetectTraps, 2, 0),
    f(Talent::Alertness, 2, 0),
    f(Talent::AcuteHearing, 2, 0),
    f(Talent::Spying, 3, 1),
    f(Talent::Literacy, 1, 0),
    f(Talent::Mimic, 1, 0),
    f(Talent::SilentMovement, 3, 0),
    f(Talent::Climbing, 1, 1),
    f(Talent::RemoveTraps, 2, 0),
    f(Talent::Acrobatics, 2, 1),
    f(Talent::ArchitectBuilder, 2, 0),
    f(Talent::Ventriloquist, 1, 0),
    f(Talent::Disguise, 3, 0),
    f(Talent::RecognizeValue, 0, 1),
    f(Talent::AssessValue, 0, 2),
];

// tft-house-rules.txt, "Thieves": MA 14 or more +1, MA 12 +1/2, MA 8 -1/4, MA 6 or less -3/4.
// Decision: MA 13 counts as 12 and MA 7 as 8 (the rows in between), MA 9 to 11 count nothing.
/// The risk reduction of a thief's MA, in quarters.
pub fn ma_quarters(ma: u32) -> i32 {
    match ma {
        14.. => 4,
        12 | 13 => 2,
        9..=11 => 0,
        7 | 8 => -1,
        _ => -3,
    }
}

/// A thief's total adjustment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThiefAdjustment {
    /// The sum of every reduction, in quarters.
    pub quarters: i32,
    /// What is added to the upper risk number: the sum with its fraction dropped.
    pub risk_shift: i32,
    /// The extra pay the talents give, before the limit of half the fixed pay.
    pub pay_increase: u32,
}

/// Adds up a thief's talents, MA and fitting spells (each spell 1/4).
// Decision: "drop any fractions" truncates toward zero, so a net -3/4 changes nothing.
pub fn thief_adjustment(talents: &[Talent], ma: u32, fitting_spells: u32) -> ThiefAdjustment {
    let mut quarters = ma_quarters(ma) + fitting_spells as i32;
    let mut pay_increase = 0;
    for factor in THIEF_TALENT_FACTORS
        .iter()
        .filter(|f| talents.contains(&f.talent))
    {
        quarters += factor.quarters;
        pay_increase += factor.pay;
    }
    ThiefAdjustment {
        quarters,
        risk_shift: quarters / 4,
        pay_increase,
    }
}

/// The upper risk number after the adjustment, never above the job's cap.
pub fn adjusted_disaster(disaster: u32, risk_shift: i32, cap: Option<u32>) -> u32 {
    let shifted = (disaster as i32 + risk_shift).max(3) as u32;
    cap.map_or(shifted, |c| shifted.min(c.max(disaster)))
}

/// The pay increase allowed: at most half the fixed pay (rounded down).
pub fn limited_pay_increase(increase: u32, fixed_pay: u32) -> u32 {
    increase.min(fixed_pay / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ma_edges() {
        // tft-house-rules.txt, "Thieves", the MA rows.
        let cases = [
            (15, 4),
            (14, 4),
            (13, 2),
            (12, 2),
            (11, 0),
            (9, 0),
            (8, -1),
            (7, -1),
            (6, -3),
            (0, -3),
        ];
        for (ma, q) in cases {
            assert_eq!(ma_quarters(ma), q, "MA {ma}");
        }
    }

    #[test]
    fn fractions_are_dropped_after_summing() {
        // Alertness 1/2 + Climbing 1/4 + MA 10: 3/4 → no shift; add Literacy: 1 → +1.
        let a = thief_adjustment(&[Talent::Alertness, Talent::Climbing], 10, 0);
        assert_eq!((a.quarters, a.risk_shift, a.pay_increase), (3, 0, 1));
        let a = thief_adjustment(
            &[Talent::Alertness, Talent::Climbing, Talent::Literacy],
            10,
            0,
        );
        assert_eq!((a.quarters, a.risk_shift), (4, 1));
        // A slow thief: MA 6 -3/4 alone is dropped to 0; with MA 6 and no talent nothing moves.
        assert_eq!(thief_adjustment(&[], 6, 0).risk_shift, 0);
        // Fitting spells count 1/4 each (tft-house-rules.txt, "Wizards").
        assert_eq!(thief_adjustment(&[], 10, 8).risk_shift, 2);
        // Master Thief + Spying + Assess Value pay: 3 + 1 + 2.
        assert_eq!(
            thief_adjustment(
                &[Talent::MasterThief, Talent::Spying, Talent::AssessValue],
                10,
                0
            )
            .pay_increase,
            6
        );
    }

    #[test]
    fn cap_and_pay_limit_both_sides() {
        // tft-house-rules.txt, "Thieves": never above the number in parentheses.
        assert_eq!(adjusted_disaster(14, 1, Some(15)), 15);
        assert_eq!(adjusted_disaster(14, 2, Some(15)), 15);
        assert_eq!(adjusted_disaster(14, 3, None), 17);
        assert_eq!(adjusted_disaster(14, -1, Some(15)), 13);
        // The pay increase is at most half the fixed pay.
        assert_eq!(limited_pay_increase(5, 10), 5);
        assert_eq!(limited_pay_increase(6, 10), 5);
        assert_eq!(limited_pay_increase(2, 5), 2);
        assert_eq!(limited_pay_increase(3, 5), 2);
    }
}
