//! The TFT character side: attributes, movement and armor encumbrance, Skill Points, talents and
//! spells, mounts, and the check of a sheet's point totals.
//!
//! Owns the numbers a sheet is made of and the rules that say whether they add up
//! (tft-rules-summary.md, "CHARACTER ATTRIBUTES" and "SECONDARY ATTRIBUTES"; tft-house-rules.txt,
//! "Skill Points", "Learning New Talents", "New and Changed Skills", "Spell Points", "Riding and
//! Mounted Combat"). Must never read or write storage, format replies, or know weapon and armor
//! tables (the gear module owns them; armor comes in here as plain penalties).

mod mounts;
mod skills;
mod spells;
mod talents;

pub use mounts::{
    LOAD_BANDS, LoadBand, MountError, MountLoad, MountPace, OVERLOAD_RATIO_TENTHS,
    OVERLOAD_WALK_MA, RIDING_LIMITS, RidingLimits, hexes_before_facing_change, minimum_move_after,
    mount_load, mount_speed_damage_bonus, turn_cost,
};
pub use skills::{
    MILITARY_DISCIPLINE_REACTION, SKI_COMBAT_DX, SKI_POLES_DX, SKI_UNTRAINED_COMBAT_DICE,
    SKI_UNTRAINED_COMBAT_DX, Skier, TALENT_CHECKS, TalentCheck, TalentRoll, WILLPOWER_IQ_BONUS,
    downhill_roll, level_snow_ma, ski_combat_dx, ski_fall_damage, ski_jump_roll, uphill_ma,
};
pub use spells::{
    NEW_SPELLS, SUMMON_LIMITS, SpellInfo, SpellKind, SpellUpkeep, SummonLimit, WallOfFireHits,
    fits_summon, new_spell, spell_distance_adjustment, wall_of_fire_hits,
};
pub use talents::{
    DISCOUNTED_COST, LearnCategory, MORE_TALENTS, StudyPlan, StudyProblem, TALENT_TABLE, Talent,
    TalentInfo, check_study, discount_by, discounted_cost, study_time_permille, talent_info,
    without_cost,
};

use std::fmt;

use thiserror::Error;

/// One of the three rolled-against attributes (IQ is spelled "1Q" in the scans).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Attribute {
    St,
    Dx,
    Iq,
}

impl Attribute {
    pub const ALL: [Attribute; 3] = [Attribute::St, Attribute::Dx, Attribute::Iq];

    /// The abbreviation players write.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::St => "ST",
            Attribute::Dx => "DX",
            Attribute::Iq => "IQ",
        }
    }

    /// Reads "st", "DX", "iq" (and the scans' "1Q").
    pub fn parse(text: &str) -> Option<Attribute> {
        match text.trim().to_ascii_lowercase().as_str() {
            "st" | "strength" => Some(Attribute::St),
            "dx" | "dexterity" => Some(Attribute::Dx),
            "iq" | "1q" | "intelligence" => Some(Attribute::Iq),
            _ => None,
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A character's attributes, with the house rules' Skill Points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attributes {
    pub st: u32,
    pub dx: u32,
    pub iq: u32,
    /// Skill Points (tft-house-rules.txt, "Skill Points"); never rolled against.
    pub sp: u32,
}

impl Attributes {
    /// The value of a rolled-against attribute.
    pub fn get(&self, attribute: Attribute) -> u32 {
        match attribute {
            Attribute::St => self.st,
            Attribute::Dx => self.dx,
            Attribute::Iq => self.iq,
        }
    }

    /// ST + DX + IQ + SP. SP count as attributes "for most purposes" (tft-house-rules.txt, "Skill
    /// Points"). Decision: that includes the attribute total used by the job bonus table.
    pub fn total(&self) -> u32 {
        self.st + self.dx + self.iq + self.sp
    }

    /// The highest of ST, DX and IQ, with which attribute it is (ties: ST, then DX). SP is left
    /// out: no roll is ever made against it.
    pub fn highest(&self) -> (Attribute, u32) {
        Attribute::ALL.into_iter().map(|a| (a, self.get(a))).fold(
            (Attribute::St, 0),
            |best, cur| if cur.1 > best.1 { cur } else { best },
        )
    }
}

/// The most Skill Points a character with this IQ may have: IQ / 4, rounded down
/// (tft-house-rules.txt, "Skill Points").
pub fn max_skill_points(iq: u32) -> u32 {
    iq / 4
}

/// How many points of talents and spells a character may know: IQ + 2 × SP
/// (tft-house-rules.txt, "Skill Points"; the same points serve as Spell Points, "Spell Points").
pub fn talent_capacity(iq: u32, sp: u32) -> u32 {
    iq + 2 * sp
}

/// Stored mana: one point is refilled by 5 ST of fatigue or half a day of contemplation
/// (tft-rules-summary.md, "SECONDARY ATTRIBUTES").
pub const MANA_REFILL_ST: u32 = 5;

// tft-rules-summary.md, "SECONDARY ATTRIBUTES": MA is DX divided by two. Decision: rounded down;
// the sheet may store another MA (races, the book's flat 10) and callers pass it instead.
/// Movement allowance from DX, per the summary: DX / 2, rounded down.
pub fn base_ma(dx: u32) -> u32 {
    dx / 2
}

/// What a piece of armor, a shield or a load does to movement and DX, as numbers from the gear
/// tables: DX and MA penalties (positive numbers are subtracted), and an MA the wearer cannot
/// exceed (the summary's armor table prints such a figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Encumbrance {
    pub dx_penalty: i32,
    pub ma_penalty: i32,
    pub ma_limit: Option<u32>,
}

/// DX and MA after everything worn is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burdened {
    pub dx: u32,
    pub adj_dx: i32,
    pub base_ma: u32,
    pub ma: u32,
    /// The DX penalties added up.
    pub dx_penalty: i32,
    /// The MA penalties added up.
    pub ma_penalty: i32,
}

/// Applies every piece worn: penalties add up, the lowest MA limit holds, and MA never drops
/// below zero (adjDX may: a roll against it then needs an automatic success).
pub fn burdened(dx: u32, base_ma: u32, worn: &[Encumbrance]) -> Burdened {
    let dx_penalty: i32 = worn.iter().map(|e| e.dx_penalty).sum();
    let ma_penalty: i32 = worn.iter().map(|e| e.ma_penalty).sum();
    let limit = worn.iter().filter_map(|e| e.ma_limit).min();
    let mut ma = (base_ma as i32 - ma_penalty).max(0) as u32;
    if let Some(limit) = limit {
        ma = ma.min(limit);
    }
    Burdened {
        dx,
        adj_dx: dx as i32 - dx_penalty,
        base_ma,
        ma,
        dx_penalty,
        ma_penalty,
    }
}

/// The attribute points a starting character spends (tft-house-rules.txt, "Skill Points": Joe the
/// Barbarian is a 32-point character).
pub const STARTING_ATTRIBUTE_POINTS: u32 = 32;
// Decision: the sources give no minimum per attribute; a real table uses the book's 8 for humans.
/// The least a starting character may have in ST, DX or IQ.
pub const MIN_STARTING_ATTRIBUTE: u32 = 8;

/// One talent on a sheet: which (when the sources describe it), what it cost, and the IQ level
/// the sheet records for it (for talents the sources do not describe).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetTalent {
    pub talent: Option<Talent>,
    pub cost: u32,
    pub iq_level: Option<u32>,
}

/// What the sheet check needs: attributes, talents, and the points spent on spells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetPoints {
    pub attributes: Attributes,
    pub talents: Vec<SheetTalent>,
    pub spell_points: u32,
}

/// One way a sheet breaks the rules. Talent breaches name the entry's position in the list.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SheetViolation {
    #[error(
        "a starting character has {required} attribute points; this one has {total} (ST+DX+IQ+SP)"
    )]
    AttributeTotal { total: u32, required: u32 },
    #[error("{attribute} must be at least {minimum} at the start; it is {value}")]
    AttributeTooLow {
        attribute: Attribute,
        value: u32,
        minimum: u32,
    },
    #[error("characters start with no Skill Points; this one has {sp}")]
    StartingSkillPoints { sp: u32 },
    #[error("Skill Points may not exceed IQ / 4 = {max}; the sheet has {sp}")]
    TooManySkillPoints { sp: u32, max: u32 },
    #[error("talents and spells use {used} points but IQ + 2 x SP allows only {capacity}")]
    TooManyTalentPoints { used: u32, capacity: u32 },
    #[error("talent #{index} needs IQ {needs}; the character has {iq}")]
    TalentIqTooHigh { index: usize, needs: u32, iq: u32 },
    #[error("talent #{index} ({talent}) needs {missing}, which the sheet does not have")]
    MissingPrerequisite {
        index: usize,
        talent: Talent,
        missing: Talent,
    },
    #[error("talent #{index} ({talent}) needs DX {needs}; the character has {dx}")]
    DxTooLow {
        index: usize,
        talent: Talent,
        needs: i32,
        dx: u32,
    },
    #[error("talent #{index} ({talent}) is listed twice")]
    Duplicate { index: usize, talent: Talent },
}

/// Every breach of the point rules on a sheet at any time (SP cap, talent capacity, IQ levels,
/// prerequisites, duplicates), all at once. Empty: the sheet is fine.
pub fn validate_sheet(sheet: &SheetPoints) -> Vec<SheetViolation> {
    let a = sheet.attributes;
    let mut out = Vec::new();
    let max = max_skill_points(a.iq);
    if a.sp > max {
        out.push(SheetViolation::TooManySkillPoints { sp: a.sp, max });
    }
    let used = sheet.talents.iter().map(|t| t.cost).sum::<u32>() + sheet.spell_points;
    let capacity = talent_capacity(a.iq, a.sp);
    if used > capacity {
        out.push(SheetViolation::TooManyTalentPoints { used, capacity });
    }
    let known: Vec<Talent> = sheet.talents.iter().filter_map(|t| t.talent).collect();
    for (index, entry) in sheet.talents.iter().enumerate() {
        let info = entry.talent.and_then(talent_info);
        if let Some(needs) = entry
            .iq_level
            .or(info.and_then(|i| i.iq))
            .filter(|&n| n > a.iq)
        {
            out.push(SheetViolation::TalentIqTooHigh {
                index,
                needs,
                iq: a.iq,
            });
        }
        let Some(talent) = entry.talent else { continue };
        if sheet.talents[..index]
            .iter()
            .any(|t| t.talent == Some(talent))
        {
            out.push(SheetViolation::Duplicate { index, talent });
        }
        let Some(info) = info else { continue };
        for &missing in info.prerequisites.iter().filter(|p| !known.contains(p)) {
            out.push(SheetViolation::MissingPrerequisite {
                index,
                talent,
                missing,
            });
        }
        // Decision: the adjDX a new talent asks for is checked against the sheet's DX, as a sheet
        // records no armor; a GM checks the worn adjDX in play.
        if let Some(needs) = info.min_adj_dx.filter(|&n| (a.dx as i32) < n) {
            out.push(SheetViolation::DxTooLow {
                index,
                talent,
                needs,
                dx: a.dx,
            });
        }
    }
    out
}

/// Every breach on a starting character: the attribute total and minimums, no SP yet, and
/// everything [`validate_sheet`] checks.
pub fn validate_starting(sheet: &SheetPoints) -> Vec<SheetViolation> {
    let a = sheet.attributes;
    let mut out = Vec::new();
    if a.total() != STARTING_ATTRIBUTE_POINTS {
        out.push(SheetViolation::AttributeTotal {
            total: a.total(),
            required: STARTING_ATTRIBUTE_POINTS,
        });
    }
    for attribute in Attribute::ALL {
        let value = a.get(attribute);
        if value < MIN_STARTING_ATTRIBUTE {
            out.push(SheetViolation::AttributeTooLow {
                attribute,
                value,
                minimum: MIN_STARTING_ATTRIBUTE,
            });
        }
    }
    if a.sp > 0 {
        out.push(SheetViolation::StartingSkillPoints { sp: a.sp });
    }
    out.extend(validate_sheet(sheet));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joe_talents() -> Vec<SheetTalent> {
        // tft-house-rules.txt, "Skill Points": Sword (2), Axe (2), Shield (1), Horsemanship (1),
        // Alertness (2), Swimming (1).
        [
            (Talent::Sword, 2),
            (Talent::AxeMace, 2),
            (Talent::Shield, 1),
            (Talent::Horsemanship, 1),
            (Talent::Alertness, 2),
            (Talent::Swimming, 1),
        ]
        .into_iter()
        .map(|(t, cost)| SheetTalent {
            talent: Some(t),
            cost,
            iq_level: None,
        })
        .collect()
    }

    #[test]
    fn joe_the_barbarian_starts_valid_and_buys_a_skill_point_for_running() {
        // tft-house-rules.txt, "Skill Points", the Joe the Barbarian example.
        let start = SheetPoints {
            attributes: Attributes {
                st: 11,
                dx: 12,
                iq: 9,
                sp: 0,
            },
            talents: joe_talents(),
            spell_points: 0,
        };
        assert_eq!(start.attributes.total(), 32);
        assert!(
            validate_starting(&start).is_empty(),
            "{:?}",
            validate_starting(&start)
        );
        // With IQ 9 and no SP, Running (2) would not fit: 11 points against 9.
        let mut greedy = start.clone();
        greedy.talents.push(SheetTalent {
            talent: Some(Talent::Running),
            cost: 2,
            iq_level: None,
        });
        assert_eq!(
            validate_sheet(&greedy),
            vec![SheetViolation::TooManyTalentPoints {
                used: 11,
                capacity: 9
            }]
        );
        // With one SP it fits exactly: 9 + 2 x 1 = 11; SP 1 is within 9 / 4 = 2.
        let mut later = greedy.clone();
        later.attributes.sp = 1;
        assert!(validate_sheet(&later).is_empty());
        // He is no longer a starting character: 33 points and an SP.
        assert_eq!(
            validate_starting(&later),
            vec![
                SheetViolation::AttributeTotal {
                    total: 33,
                    required: 32
                },
                SheetViolation::StartingSkillPoints { sp: 1 },
            ]
        );
    }

    #[test]
    fn skill_point_cap_both_sides() {
        // tft-house-rules.txt, "Skill Points": at most IQ/4 rounded down.
        let cases = [(7, 1), (8, 2), (11, 2), (12, 3), (25, 6)];
        for (iq, max) in cases {
            assert_eq!(max_skill_points(iq), max, "IQ {iq}");
        }
        let sheet = |iq, sp| SheetPoints {
            attributes: Attributes {
                st: 10,
                dx: 10,
                iq,
                sp,
            },
            talents: vec![],
            spell_points: 0,
        };
        assert!(validate_sheet(&sheet(12, 3)).is_empty());
        assert_eq!(
            validate_sheet(&sheet(11, 3)),
            vec![SheetViolation::TooManySkillPoints { sp: 3, max: 2 }]
        );
        assert_eq!(talent_capacity(12, 3), 18);
    }

    #[test]
    fn spell_points_share_the_capacity() {
        // tft-house-rules.txt, "Spell Points": skill points serve for spells as well.
        let mut s = SheetPoints {
            attributes: Attributes {
                st: 8,
                dx: 12,
                iq: 12,
                sp: 0,
            },
            talents: vec![],
            spell_points: 12,
        };
        assert!(validate_sheet(&s).is_empty());
        s.spell_points = 13;
        assert_eq!(
            validate_sheet(&s),
            vec![SheetViolation::TooManyTalentPoints {
                used: 13,
                capacity: 12
            }]
        );
    }

    #[test]
    fn every_breach_is_reported_at_once() {
        let sheet = SheetPoints {
            attributes: Attributes {
                st: 7,
                dx: 12,
                iq: 9,
                sp: 3,
            },
            talents: vec![
                SheetTalent {
                    talent: Some(Talent::Axeplay),
                    cost: 3,
                    iq_level: None,
                },
                SheetTalent {
                    talent: None,
                    cost: 2,
                    iq_level: Some(11),
                },
                SheetTalent {
                    talent: Some(Talent::Axeplay),
                    cost: 3,
                    iq_level: None,
                },
            ],
            spell_points: 10,
        };
        let v = validate_starting(&sheet);
        assert_eq!(
            v,
            vec![
                SheetViolation::AttributeTotal {
                    total: 31,
                    required: 32
                },
                SheetViolation::AttributeTooLow {
                    attribute: Attribute::St,
                    value: 7,
                    minimum: 8
                },
                SheetViolation::StartingSkillPoints { sp: 3 },
                SheetViolation::TooManySkillPoints { sp: 3, max: 2 },
                SheetViolation::TooManyTalentPoints {
                    used: 18,
                    capacity: 15
                },
                SheetViolation::TalentIqTooHigh {
                    index: 0,
                    needs: 10,
                    iq: 9
                },
                SheetViolation::MissingPrerequisite {
                    index: 0,
                    talent: Talent::Axeplay,
                    missing: Talent::AxeMace
                },
                SheetViolation::DxTooLow {
                    index: 0,
                    talent: Talent::Axeplay,
                    needs: 14,
                    dx: 12
                },
                SheetViolation::TalentIqTooHigh {
                    index: 1,
                    needs: 11,
                    iq: 9
                },
                SheetViolation::TalentIqTooHigh {
                    index: 2,
                    needs: 10,
                    iq: 9
                },
                SheetViolation::Duplicate {
                    index: 2,
                    talent: Talent::Axeplay
                },
                SheetViolation::MissingPrerequisite {
                    index: 2,
                    talent: Talent::Axeplay,
                    missing: Talent::AxeMace
                },
                SheetViolation::DxTooLow {
                    index: 2,
                    talent: Talent::Axeplay,
                    needs: 14,
                    dx: 12
                },
            ]
        );
        assert!(v[4].to_string().contains("IQ + 2 x SP allows only 15"));
    }

    #[test]
    fn starting_minimum_both_sides() {
        let s = |st, dx, iq| SheetPoints {
            attributes: Attributes { st, dx, iq, sp: 0 },
            talents: vec![],
            spell_points: 0,
        };
        assert!(validate_starting(&s(8, 16, 8)).is_empty());
        assert_eq!(
            validate_starting(&s(7, 17, 8)),
            vec![SheetViolation::AttributeTooLow {
                attribute: Attribute::St,
                value: 7,
                minimum: 8
            }]
        );
    }

    #[test]
    fn ma_and_armor_encumbrance() {
        // tft-rules-summary.md, "SECONDARY ATTRIBUTES": MA is DX / 2.
        assert_eq!((base_ma(12), base_ma(13), base_ma(0)), (6, 6, 0));
        // Penalties add up; the tightest MA limit holds; MA stops at zero.
        let chain = Encumbrance {
            dx_penalty: 3,
            ma_penalty: 0,
            ma_limit: Some(6),
        };
        let shield = Encumbrance {
            dx_penalty: 1,
            ma_penalty: 0,
            ma_limit: None,
        };
        let b = burdened(12, 10, &[chain, shield]);
        assert_eq!((b.adj_dx, b.ma, b.dx_penalty), (8, 6, 4));
        // tft-house-rules.txt, "Fine Chainmail": -2 DX and -2 MA.
        let fine = Encumbrance {
            dx_penalty: 2,
            ma_penalty: 2,
            ma_limit: None,
        };
        let b = burdened(12, 10, &[fine]);
        assert_eq!((b.adj_dx, b.ma), (10, 8));
        let heavy = Encumbrance {
            dx_penalty: 20,
            ma_penalty: 20,
            ma_limit: None,
        };
        let b = burdened(12, 10, &[heavy]);
        assert_eq!((b.adj_dx, b.ma), (-8, 0));
        assert!(burdened(12, 10, &[]).ma == 10);
    }

    #[test]
    fn attributes_helpers() {
        let a = Attributes {
            st: 11,
            dx: 12,
            iq: 12,
            sp: 1,
        };
        assert_eq!(a.total(), 36);
        assert_eq!(a.highest(), (Attribute::Dx, 12));
        assert_eq!(Attribute::parse("1Q"), Some(Attribute::Iq));
        assert_eq!(Attribute::parse("luck"), None);
        assert_eq!(MANA_REFILL_ST, 5);
    }
}
