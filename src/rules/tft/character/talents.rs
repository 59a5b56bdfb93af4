//! Talents the sources say something about: learning categories, IQ levels, costs and
//! prerequisites, and the check a GM makes before a character starts studying one.
//!
//! Source: tft-house-rules.txt, "Learning New Talents" and "New and Changed Skills"; costs of the
//! classic talents come from the Joe the Barbarian example under "Skill Points". Talents the
//! sources do not describe are not listed: callers give their cost and IQ level themselves.
//! Never rolls and never reads a sheet.

use std::fmt;

/// A talent named by the rule sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Talent {
    Acrobatics,
    AcuteHearing,
    AdvancedShield,
    Alchemist,
    Alertness,
    ArchitectBuilder,
    Armorer,
    AssessValue,
    AxeMace,
    Axeplay,
    Bow,
    Captain,
    Chemist,
    Climbing,
    Crossbow,
    DaggerMarksmanship,
    DetectTraps,
    Disguise,
    Diver,
    ExpertHorsemanship,
    Fencing,
    FirstAid,
    Goldsmith,
    Horsemanship,
    Literacy,
    MasterArmorer,
    MasterPhysicker,
    MasterSkier,
    MasterThief,
    MasterVet,
    Mechanician,
    MilitaryDiscipline,
    Mimic,
    MissileWeapons,
    Naturalist,
    Physicker,
    PoleWeaponMaster,
    PoleWeapons,
    RecognizeValue,
    RemoveTraps,
    Running,
    Scholar,
    Seamanship,
    Shield,
    SignLanguage,
    SilentMovement,
    Skiing,
    SleightOfHand,
    Snowshoe,
    Spying,
    Swimming,
    Sword,
    Tactics,
    Thief,
    Toughness,
    TwoWeapons,
    Ventriloquist,
    Vet,
    Veteran,
    Warrior,
    Willpower,
    Woodsman,
}

impl Talent {
    /// Whether the talent exists only by tft-house-rules.txt, "New and Changed Skills" (the
    /// new ones; Two Weapons is only changed there).
    pub fn is_house_rule(self) -> bool {
        matches!(
            self,
            Self::Snowshoe
                | Self::SignLanguage
                | Self::MilitaryDiscipline
                | Self::Willpower
                | Self::SleightOfHand
                | Self::Skiing
                | Self::AdvancedShield
                | Self::PoleWeaponMaster
                | Self::Axeplay
                | Self::FirstAid
                | Self::MasterSkier
                | Self::MasterVet
        )
    }

    /// The name players write.
    pub fn name(self) -> &'static str {
        // Every variant appears in this list; importing them by name would repeat the list.
        #[allow(clippy::enum_glob_use)]
        use Talent::*;
        match self {
            Acrobatics => "Acrobatics",
            AcuteHearing => "Acute Hearing",
            AdvancedShield => "Advanced Shield",
            Alchemist => "Alchemist",
            Alertness => "Alertness",
            ArchitectBuilder => "Architect/Builder",
            Armorer => "Armorer",
            AssessValue => "Assess Value",
            AxeMace => "Axe/Mace",
            Axeplay => "Axeplay",
            Bow => "Bow",
            Captain => "Captain",
            Chemist => "Chemist",
            Climbing => "Climbing",
            Crossbow => "Crossbow",
            DaggerMarksmanship => "Dagger Marksmanship",
            DetectTraps => "Detect Traps",
            Disguise => "Disguise",
            Diver => "Diver",
            ExpertHorsemanship => "Expert Horsemanship",
            Fencing => "Fencing",
            FirstAid => "First Aid",
            Goldsmith => "Goldsmith",
            Horsemanship => "Horsemanship",
            Literacy => "Literacy",
            MasterArmorer => "Master Armorer",
            MasterPhysicker => "Master Physicker",
            MasterSkier => "Master Skier",
            MasterThief => "Master Thief",
            MasterVet => "Master Vet",
            Mechanician => "Mechanician",
            MilitaryDiscipline => "Military Discipline",
            Mimic => "Mimic",
            MissileWeapons => "Missile Weapons",
            Naturalist => "Naturalist",
            Physicker => "Physicker",
            PoleWeaponMaster => "Pole Weapon Master",
            PoleWeapons => "Pole Weapons",
            RecognizeValue => "Recognize Value",
            RemoveTraps => "Remove Traps",
            Running => "Running",
            Scholar => "Scholar",
            Seamanship => "Seamanship",
            Shield => "Shield",
            SignLanguage => "Sign Language",
            SilentMovement => "Silent Movement",
            Skiing => "Skiing",
            SleightOfHand => "Sleight of Hand",
            Snowshoe => "Snowshoe",
            Spying => "Spying",
            Swimming => "Swimming",
            Sword => "Sword",
            Tactics => "Tactics",
            Thief => "Thief",
            Toughness => "Toughness",
            TwoWeapons => "Two Weapons",
            Ventriloquist => "Ventriloquist",
            Vet => "Vet",
            Veteran => "Veteran",
            Warrior => "Warrior",
            Willpower => "Willpower",
            Woodsman => "Woodsman",
        }
    }

    /// Every talent, in name order.
    pub const ALL: [Talent; 62] = {
        // Every variant appears in this list; importing them by name would repeat the list.
        #[allow(clippy::enum_glob_use)]
        use Talent::*;
        [
            Acrobatics,
            AcuteHearing,
            AdvancedShield,
            Alchemist,
            Alertness,
            ArchitectBuilder,
            Armorer,
            AssessValue,
            AxeMace,
            Axeplay,
            Bow,
            Captain,
            Chemist,
            Climbing,
            Crossbow,
            DaggerMarksmanship,
            DetectTraps,
            Disguise,
            Diver,
            ExpertHorsemanship,
            Fencing,
            FirstAid,
            Goldsmith,
            Horsemanship,
            Literacy,
            MasterArmorer,
            MasterPhysicker,
            MasterSkier,
            MasterThief,
            MasterVet,
            Mechanician,
            MilitaryDiscipline,
            Mimic,
            MissileWeapons,
            Naturalist,
            Physicker,
            PoleWeaponMaster,
            PoleWeapons,
            RecognizeValue,
            RemoveTraps,
            Running,
            Scholar,
            Seamanship,
            Shield,
            SignLanguage,
            SilentMovement,
            Skiing,
            SleightOfHand,
            Snowshoe,
            Spying,
            Swimming,
            Sword,
            Tactics,
            Thief,
            Toughness,
            TwoWeapons,
            Ventriloquist,
            Vet,
            Veteran,
            Warrior,
            Willpower,
            Woodsman,
        ]
    };

    /// Reads a talent name, ignoring case, spaces, hyphens and slashes ("acute hearing", "Axe"),
    /// with or without the cost a sheet writes after it ("Acrobatics (2)").
    pub fn parse(text: &str) -> Option<Talent> {
        let key = normalize(without_cost(text));
        if key == "axe" || key == "mace" {
            return Some(Talent::AxeMace);
        }
        Talent::ALL.into_iter().find(|t| normalize(t.name()) == key)
    }
}

/// The name part of a talent as a sheet stores it: a trailing cost in brackets ("(2)") is
/// dropped; any other text is left for the name lookup to refuse.
pub fn without_cost(text: &str) -> &str {
    let text = text.trim();
    let Some(open) = text.rfind('(') else {
        return text;
    };
    match text[open + 1..].strip_suffix(')') {
        Some(cost)
            if !cost.trim().is_empty() && cost.trim().bytes().all(|b| b.is_ascii_digit()) =>
        {
            text[..open].trim_end()
        }
        _ => text,
    }
}

fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl fmt::Display for Talent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a talent may be learned (tft-house-rules.txt, "Learning New Talents", categories 1 to 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LearnCategory {
    /// Alone at the normal time; a teacher cuts the time by a quarter.
    SelfTaught,
    /// Alone takes a quarter longer.
    SlowerAlone,
    /// Alone takes twice as long.
    HardAlone,
    /// Only with an instructor.
    InstructorOnly,
    /// Only with an instructor and training on the job.
    InstructorAndJob,
}

impl LearnCategory {
    /// The category number the house rules use (1 to 5).
    pub fn number(self) -> u32 {
        self as u32 + 1
    }
}

/// What the sources say about one talent. `None` means the sources are silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TalentInfo {
    pub talent: Talent,
    pub category: Option<LearnCategory>,
    /// The IQ a character needs to learn it.
    pub iq: Option<u32>,
    /// Its cost in IQ points.
    pub cost: Option<u32>,
    pub prerequisites: &'static [Talent],
    /// The adjDX the house rules ask for.
    pub min_adj_dx: Option<i32>,
}

const fn info(
    talent: Talent,
    category: Option<LearnCategory>,
    iq: Option<u32>,
    cost: Option<u32>,
    prerequisites: &'static [Talent],
    min_adj_dx: Option<i32>,
) -> TalentInfo {
    TalentInfo {
        talent,
        category,
        iq,
        cost,
        prerequisites,
        min_adj_dx,
    }
}

use LearnCategory::{HardAlone, InstructorAndJob, InstructorOnly, SelfTaught, SlowerAlone};

// tft-house-rules.txt, "Learning New Talents": the category examples (the scan shows the numbers
// 1 to 4 as garbage; the order of the example lines gives them). "Fencing needs Sword" is the
// text's own example of a prerequisite. Costs of Sword, Axe/Mace, Shield, Horsemanship,
// Alertness, Swimming and Running come from the Joe the Barbarian example under "Skill Points".
// "New and Changed Skills" gives IQ level, cost, prerequisites and adjDX of the new talents.
/// The talents the sources describe, in name order.
pub const TALENT_TABLE: [TalentInfo; 37] = {
    // The table names most variants; importing them by name would repeat the table.
    #[allow(clippy::enum_glob_use)]
    use Talent::*;
    [
        info(AcuteHearing, Some(SelfTaught), None, None, &[], None),
        info(AdvancedShield, None, Some(10), Some(2), &[Shield], Some(13)),
        info(Alertness, None, None, Some(2), &[], None),
        info(Armorer, Some(HardAlone), None, None, &[], None),
        info(AxeMace, None, None, Some(2), &[], None),
        info(Axeplay, None, Some(10), Some(3), &[AxeMace], Some(14)),
        info(Bow, Some(SlowerAlone), None, None, &[], None),
        info(Captain, Some(InstructorAndJob), None, None, &[], None),
        info(Climbing, Some(SelfTaught), None, None, &[], None),
        info(Crossbow, Some(SlowerAlone), None, None, &[], None),
        info(Diver, Some(SlowerAlone), None, None, &[], None),
        info(ExpertHorsemanship, Some(HardAlone), None, None, &[], None),
        info(Fencing, Some(InstructorOnly), None, None, &[Sword], None),
        info(FirstAid, None, Some(10), Some(1), &[], None),
        info(Horsemanship, Some(SlowerAlone), None, Some(1), &[], None),
        info(Literacy, Some(InstructorOnly), None, None, &[], None),
        info(MasterArmorer, Some(InstructorOnly), None, None, &[], None),
        info(
            MasterPhysicker,
            Some(InstructorAndJob),
            None,
            None,
            &[],
            None,
        ),
        info(MasterSkier, None, Some(11), Some(1), &[Skiing], None),
        info(MasterVet, None, Some(14), Some(2), &[Vet], None),
        info(Mechanician, Some(InstructorOnly), None, None, &[], None),
        info(MilitaryDiscipline, None, Some(8), Some(1), &[], None),
        info(Physicker, Some(InstructorOnly), None, None, &[], None),
        info(
            PoleWeaponMaster,
            None,
            Some(10),
            Some(3),
            &[PoleWeapons],
            Some(14),
        ),
        info(RecognizeValue, Some(InstructorOnly), None, None, &[], None),
        info(Running, Some(SelfTaught), None, Some(2), &[], None),
        info(Seamanship, Some(InstructorAndJob), None, None, &[], None),
        info(Shield, None, None, Some(1), &[], None),
        info(SignLanguage, None, Some(8), Some(1), &[], None),
        info(SilentMovement, Some(SelfTaught), None, None, &[], None),
        info(Skiing, None, Some(9), Some(1), &[], None),
        info(SleightOfHand, None, Some(9), Some(1), &[], Some(13)),
        info(Snowshoe, None, Some(8), Some(1), &[], None),
        info(Swimming, Some(SelfTaught), None, Some(1), &[], None),
        info(Sword, Some(SlowerAlone), None, Some(2), &[], None),
        info(Tactics, Some(HardAlone), None, None, &[], None),
        info(Thief, Some(HardAlone), None, None, &[], None),
    ]
};

/// The two changed talents the table above leaves out because their only data is a note:
/// Two Weapons (IQ 11, 3 points) and Willpower (IQ 9, 1 point). Kept in their own table so the
/// main one stays in strict name order with the others in between.
pub const MORE_TALENTS: [TalentInfo; 2] = [
    info(Talent::TwoWeapons, None, Some(11), Some(3), &[], None),
    info(Talent::Willpower, None, Some(9), Some(1), &[], None),
];

/// What the sources say about a talent, if anything.
pub fn talent_info(talent: Talent) -> Option<&'static TalentInfo> {
    TALENT_TABLE
        .iter()
        .chain(MORE_TALENTS.iter())
        .find(|i| i.talent == talent)
}

/// What a talent costs for one who knows the talent of [`discount_by`].
pub const DISCOUNTED_COST: u32 = 1;

/// The talent whose knowledge brings `talent`'s cost down to [`DISCOUNTED_COST`], per "New and
/// Changed Skills": First Aid for Physicker, and each of Master Vet and Master Physicker for the
/// other.
pub fn discount_by(talent: Talent) -> Option<Talent> {
    match talent {
        Talent::Physicker => Some(Talent::FirstAid),
        Talent::MasterVet => Some(Talent::MasterPhysicker),
        Talent::MasterPhysicker => Some(Talent::MasterVet),
        _ => None,
    }
}

/// The cost of a talent once the discounts of "New and Changed Skills" apply ([`discount_by`]).
pub fn discounted_cost(talent: Talent, listed_cost: u32, known: &[Talent]) -> u32 {
    if discount_by(talent).is_some_and(|t| known.contains(&t)) {
        listed_cost.min(DISCOUNTED_COST)
    } else {
        listed_cost
    }
}

/// How a character means to learn a talent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StudyPlan {
    pub instructor: bool,
    pub on_the_job: bool,
    /// Willpower: new talents and spells take a tenth less time.
    pub willpower: bool,
}

/// Why a talent cannot be studied this way or now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StudyProblem {
    #[error("{talent} can only be learned with an instructor")]
    NeedsInstructor { talent: Talent },
    #[error("{talent} needs an instructor and training on the job")]
    NeedsJobTraining { talent: Talent },
    #[error("{talent} needs {missing} first")]
    MissingPrerequisite { talent: Talent, missing: Talent },
    #[error("{talent} cannot be studied together with its prerequisite {prerequisite}")]
    StudiedWithPrerequisite {
        talent: Talent,
        prerequisite: Talent,
    },
    #[error("{talent} needs IQ {needs}; the character has {has}")]
    IqTooLow {
        talent: Talent,
        needs: u32,
        has: u32,
    },
    #[error("{talent} needs adjDX {needs}; the character has {has}")]
    AdjDxTooLow {
        talent: Talent,
        needs: i32,
        has: i32,
    },
    #[error("the character already knows {talent}")]
    AlreadyKnown { talent: Talent },
}

/// The time to learn a talent, in thousandths of the normal time (1000 = normal), or why it cannot
/// be learned that way (tft-house-rules.txt, "Learning New Talents"; Willpower under "New and
/// Changed Skills").
pub fn study_time_permille(
    talent: Talent,
    category: LearnCategory,
    plan: StudyPlan,
) -> Result<u32, StudyProblem> {
    let base = match (category, plan.instructor) {
        (SelfTaught, true) => 750,
        (SlowerAlone | HardAlone | InstructorOnly, true) | (SelfTaught, false) => 1000,
        (SlowerAlone, false) => 1250,
        (HardAlone, false) => 2000,
        (InstructorOnly | InstructorAndJob, false) => {
            return Err(StudyProblem::NeedsInstructor { talent });
        }
        (InstructorAndJob, true) if plan.on_the_job => 1000,
        (InstructorAndJob, true) => return Err(StudyProblem::NeedsJobTraining { talent }),
    };
    Ok(if plan.willpower { base * 9 / 10 } else { base })
}

/// Every reason the character cannot start studying `talent` now (empty: go ahead).
///
/// `known` are the talents the character has; `also_studying` the ones it studies at the same
/// time (a prerequisite may not be among them); `iq` and `adj_dx` the character's.
pub fn check_study(
    talent: Talent,
    known: &[Talent],
    also_studying: &[Talent],
    iq: u32,
    adj_dx: i32,
) -> Vec<StudyProblem> {
    let mut problems = Vec::new();
    if known.contains(&talent) {
        problems.push(StudyProblem::AlreadyKnown { talent });
    }
    let Some(info) = talent_info(talent) else {
        return problems;
    };
    for &prerequisite in info.prerequisites {
        if also_studying.contains(&prerequisite) {
            problems.push(StudyProblem::StudiedWithPrerequisite {
                talent,
                prerequisite,
            });
        } else if !known.contains(&prerequisite) {
            problems.push(StudyProblem::MissingPrerequisite {
                talent,
                missing: prerequisite,
            });
        }
    }
    if let Some(needs) = info.iq.filter(|&n| iq < n) {
        problems.push(StudyProblem::IqTooLow {
            talent,
            needs,
            has: iq,
        });
    }
    if let Some(needs) = info.min_adj_dx.filter(|&n| adj_dx < n) {
        problems.push(StudyProblem::AdjDxTooLow {
            talent,
            needs,
            has: adj_dx,
        });
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_rules_new_talents_are_marked() {
        // tft-house-rules.txt, "New and Changed Skills": the twelve new talents under IQ 8 to
        // 14; Two Weapons is only modified there, and the rest are the original game's.
        let house: Vec<&str> = Talent::ALL
            .iter()
            .filter(|t| t.is_house_rule())
            .map(|t| t.name())
            .collect();
        assert_eq!(house.len(), 12, "{house:?}");
        for plain in [
            Talent::TwoWeapons,
            Talent::Sword,
            Talent::Fencing,
            Talent::Shield,
            Talent::Physicker,
            Talent::Vet,
        ] {
            assert!(!plain.is_house_rule(), "{plain:?}");
        }
    }

    #[test]
    fn tables_are_in_name_order_and_unique() {
        let names: Vec<_> = Talent::ALL.iter().map(|t| t.name()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        let table: Vec<_> = TALENT_TABLE.iter().map(|i| i.talent.name()).collect();
        let mut sorted = table.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(table, sorted);
        for t in Talent::ALL {
            assert_eq!(Talent::parse(t.name()), Some(t));
        }
        assert_eq!(Talent::parse("acute-hearing"), Some(Talent::AcuteHearing));
        assert_eq!(Talent::parse("Axe"), Some(Talent::AxeMace));
        assert_eq!(Talent::parse("Basket weaving"), None);
    }

    #[test]
    fn names_parse_with_or_without_their_cost() {
        // A sheet stores a talent as its name, followed by " (cost)" when the cost is not the
        // table's (app::characters::fields::talent); both forms name the same talent.
        let cases: &[(&str, Option<Talent>)] = &[
            ("Acrobatics", Some(Talent::Acrobatics)),
            ("Acrobatics (2)", Some(Talent::Acrobatics)),
            ("acrobatics(3)", Some(Talent::Acrobatics)),
            ("Advanced Shield ( 10 )", Some(Talent::AdvancedShield)),
            ("Acute Hearing (3)", Some(Talent::AcuteHearing)),
            ("Axe/Mace (2)", Some(Talent::AxeMace)),
            // Not a cost: the brackets stay part of the name, which names no talent.
            ("Acrobatics (tumbling)", None),
            ("Acrobatics (2", None),
            ("(2)", None),
        ];
        for (text, want) in cases {
            assert_eq!(Talent::parse(text), *want, "{text}");
        }
        assert_eq!(without_cost(" Sword (1) "), "Sword");
        assert_eq!(without_cost("Sword"), "Sword");
    }

    #[test]
    fn categories_follow_the_examples() {
        // tft-house-rules.txt, "Learning New Talents", examples of categories 1..5.
        let cat = |t| {
            talent_info(t)
                .and_then(|i| i.category)
                .map(LearnCategory::number)
        };
        assert_eq!(cat(Talent::Running), Some(1));
        assert_eq!(cat(Talent::Sword), Some(2));
        assert_eq!(cat(Talent::Thief), Some(3));
        assert_eq!(cat(Talent::Physicker), Some(4));
        assert_eq!(cat(Talent::Snowshoe), None);
        assert_eq!(cat(Talent::Tactics), Some(3));
        assert_eq!(cat(Talent::Fencing), Some(4));
        assert_eq!(cat(Talent::Seamanship), Some(5));
    }

    #[test]
    fn study_time_by_category_both_ways() {
        // tft-house-rules.txt, "Learning New Talents": 1: teacher -25%; 2: alone +25%; 3: alone x2;
        // 4: teacher only; 5: teacher and on-the-job only. Willpower: 10% less.
        let t = Talent::Sword;
        let alone = StudyPlan::default();
        let taught = StudyPlan {
            instructor: true,
            ..alone
        };
        let cases = [
            (SelfTaught, alone, Ok(1000)),
            (SelfTaught, taught, Ok(750)),
            (SlowerAlone, alone, Ok(1250)),
            (SlowerAlone, taught, Ok(1000)),
            (HardAlone, alone, Ok(2000)),
            (HardAlone, taught, Ok(1000)),
            (
                InstructorOnly,
                alone,
                Err(StudyProblem::NeedsInstructor { talent: t }),
            ),
            (InstructorOnly, taught, Ok(1000)),
            (
                InstructorAndJob,
                taught,
                Err(StudyProblem::NeedsJobTraining { talent: t }),
            ),
            (
                InstructorAndJob,
                StudyPlan {
                    on_the_job: true,
                    ..taught
                },
                Ok(1000),
            ),
            (
                SelfTaught,
                StudyPlan {
                    willpower: true,
                    ..taught
                },
                Ok(675),
            ),
            (
                HardAlone,
                StudyPlan {
                    willpower: true,
                    ..alone
                },
                Ok(1800),
            ),
        ];
        for (category, plan, want) in cases {
            assert_eq!(
                study_time_permille(t, category, plan),
                want,
                "{category:?} {plan:?}"
            );
        }
    }

    #[test]
    fn sword_and_fencing_cannot_be_studied_together() {
        // tft-house-rules.txt, "Learning New Talents": the text's own example.
        let p = check_study(Talent::Fencing, &[], &[Talent::Sword], 12, 12);
        assert_eq!(
            p,
            vec![StudyProblem::StudiedWithPrerequisite {
                talent: Talent::Fencing,
                prerequisite: Talent::Sword
            }]
        );
        let p = check_study(Talent::Fencing, &[], &[], 12, 12);
        assert_eq!(
            p,
            vec![StudyProblem::MissingPrerequisite {
                talent: Talent::Fencing,
                missing: Talent::Sword
            }]
        );
        assert!(check_study(Talent::Fencing, &[Talent::Sword], &[], 12, 12).is_empty());
    }

    #[test]
    fn iq_and_adj_dx_limits_both_sides() {
        // tft-house-rules.txt, "New and Changed Skills": Advanced Shield is IQ 10, needs Shield
        // and adjDX 13.
        let known = [Talent::Shield];
        assert!(check_study(Talent::AdvancedShield, &known, &[], 10, 13).is_empty());
        assert_eq!(
            check_study(Talent::AdvancedShield, &known, &[], 9, 12),
            vec![
                StudyProblem::IqTooLow {
                    talent: Talent::AdvancedShield,
                    needs: 10,
                    has: 9
                },
                StudyProblem::AdjDxTooLow {
                    talent: Talent::AdvancedShield,
                    needs: 13,
                    has: 12
                },
            ]
        );
        assert_eq!(
            check_study(Talent::Shield, &known, &[], 10, 10),
            vec![StudyProblem::AlreadyKnown {
                talent: Talent::Shield
            }]
        );
    }

    #[test]
    fn discounts_of_first_aid_and_the_master_healers() {
        // tft-house-rules.txt, "New and Changed Skills", First Aid and Master Vet.
        assert_eq!(
            discounted_cost(Talent::Physicker, 2, &[Talent::FirstAid]),
            1
        );
        assert_eq!(discounted_cost(Talent::Physicker, 2, &[]), 2);
        assert_eq!(
            discounted_cost(Talent::MasterVet, 2, &[Talent::MasterPhysicker]),
            1
        );
        assert_eq!(
            discounted_cost(Talent::MasterPhysicker, 3, &[Talent::MasterVet]),
            1
        );
        assert_eq!(discounted_cost(Talent::Sword, 2, &[Talent::FirstAid]), 2);
        assert_eq!(discount_by(Talent::Physicker), Some(Talent::FirstAid));
        assert_eq!(discount_by(Talent::FirstAid), None);
    }
}
