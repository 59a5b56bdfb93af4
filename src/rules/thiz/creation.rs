//! THIZ character creation: the point budget and every restriction on starting skills,
//! weaknesses and quirks, checked all at once.
//!
//! Source: thiz-rulebook.md, chapter 1 "Your Character's Skills" and "Parents", chapter 2
//! ("Dual-Wield"), chapter 3 (weaknesses for magic skills and for points; the skills weaknesses
//! bar, through `bars`), chapter 4 (quirk costs and prerequisites) and chapter 10 (what
//! advancement allows once play has begun). Owns [`Draft`], [`Points`], [`Stage`], [`Violation`],
//! [`validate`] and [`validate_at`], which return every breach so a player can fix a sheet in one
//! pass. Must never change a draft, roll dice (starting luck is `luck`), or read storage.

use std::collections::HashSet;

use thiserror::Error;

use super::advancement::MAX_SKILL;
use super::bars::{self, Traits};
use super::skills::{Group, SkillId, SkillKind};
use super::traits::{Limb, Prerequisite, Quirk, Weakness, WeaknessKind};

/// Skill points every character starts with.
pub const STARTING_POINTS: i32 = 20;
/// Points granted per weakness taken beyond those magic skills require.
pub const POINTS_PER_EXTRA_WEAKNESS: i32 = 5;
/// The least points spent on hard skills, and the least on soft skills.
pub const MIN_HARD_POINTS: i32 = 5;
pub const MIN_SOFT_POINTS: i32 = 5;
/// The most points any one skill may take at creation.
pub const MAX_POINTS_PER_SKILL: i32 = 5;

/// A character as drafted: the points put in each skill (which are its starting ratings), the
/// weaknesses and quirks chosen, and the skill standing for a parent's or mentor's career.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Draft {
    pub skills: Vec<(SkillId, i32)>,
    pub weaknesses: Vec<Weakness>,
    pub quirks: Vec<Quirk>,
    pub parent_skill: Option<SkillId>,
    /// Which limb, when Missing Limb is among the weaknesses.
    pub missing_limb: Option<Limb>,
    /// The subject of each Phobia among the weaknesses ("heights").
    pub phobias: Vec<String>,
}

impl Draft {
    /// What on the draft can bar a skill (see `bars`).
    pub fn traits(&self) -> Traits<'_> {
        Traits {
            weaknesses: &self.weaknesses,
            quirks: &self.quirks,
            phobias: &self.phobias,
            missing_limb: self.missing_limb,
        }
    }
}

/// Where a character stands: still being made, or in play since its first session.
///
/// Chapter 1's limits (the 20-point budget, at least 5 hard and 5 soft, at most 5 in a skill, a
/// parent's or mentor's skill) bind the character as it is made. Once play has begun, chapter 10
/// raises skills with points earned at the end of each session, up to 30 in a skill, and new
/// skills are learned at any time; what weaknesses and quirks forbid, and the weakness each Magic
/// Skill brings, hold for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stage {
    #[default]
    Creation,
    InPlay,
}

/// The point budget of a draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Points {
    /// Points in skills (positive allocations only).
    pub skills: i32,
    /// Points paid for quirks.
    pub quirks: i32,
    /// Distinct magic skills with points: each needs a Mental or Magical weakness.
    pub magic_skills: u32,
    /// Weaknesses that grant points (General or Mental beyond those magic requires).
    pub extra_weaknesses: u32,
    /// 20 + 5 per extra weakness.
    pub budget: i32,
    /// skills + quirks.
    pub spent: i32,
    /// Points on hard skills and on soft skills.
    pub hard: i32,
    pub soft: i32,
}

/// One breach of the creation rules, phrased for the player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Violation {
    #[error("{spent} skill points spent but only {budget} available")]
    TooManyPoints { spent: i32, budget: i32 },
    #[error(
        "at least {MIN_HARD_POINTS} points must go to hard skills (Mettle, Efficacy); you have {points}"
    )]
    TooFewHardPoints { points: i32 },
    #[error(
        "at least {MIN_SOFT_POINTS} points must go to soft skills (Expertise, Body, Awareness); you have {points}"
    )]
    TooFewSoftPoints { points: i32 },
    #[error("{skill} has {points} points; no skill may start above {MAX_POINTS_PER_SKILL}")]
    SkillOverCap { skill: SkillId, points: i32 },
    #[error("{skill} is at {rating}; no skill can be raised above {MAX_SKILL}")]
    SkillOverMaximum { skill: SkillId, rating: i32 },
    #[error("{skill} has {points} points; points cannot be negative")]
    NegativePoints { skill: SkillId, points: i32 },
    #[error("{skill} is listed more than once")]
    DuplicateSkill { skill: SkillId },
    #[error("name a skill for a parent's or mentor's career and put at least 1 point in it")]
    NoParentSkill,
    #[error("the parent or mentor skill {skill} needs at least 1 point")]
    ParentSkillUnfunded { skill: SkillId },
    #[error(
        "{magic_skills} magic skill(s) need as many Mental or Magical weaknesses; you have {have}"
    )]
    MissingMagicWeakness { magic_skills: u32, have: u32 },
    #[error(
        "{weakness} is a Magical weakness, taken only for a magic skill, and no magic skill needs it"
    )]
    UnneededMagicalWeakness { weakness: Weakness },
    #[error("{weakness} is taken more than once")]
    DuplicateWeakness { weakness: Weakness },
    #[error("{quirk} is taken more than once")]
    DuplicateQuirk { quirk: Quirk },
    #[error("{quirk} needs at least 1 point in {}", names(.skills))]
    QuirkNeedsSkill {
        quirk: Quirk,
        skills: &'static [SkillKind],
    },
    #[error("{quirk} needs at least 1 point in a Weapon Skill")]
    QuirkNeedsWeaponSkill { quirk: Quirk },
    #[error("{quirk} cannot be taken together with {other}")]
    QuirksExclude { quirk: Quirk, other: Quirk },
    #[error("{skill} cannot be learned by a character with {reason}")]
    ForbiddenSkill { skill: SkillId, reason: String },
    #[error("{quirk} improves {skill}, which a character with {reason} cannot learn")]
    QuirkBarred {
        quirk: Quirk,
        skill: SkillKind,
        reason: String,
    },
    #[error(
        "{skill} needs training in both weapons: put at least 1 point in Weapon Skill ({weapon})"
    )]
    DualWieldUntrained { skill: SkillId, weapon: String },
    #[error("Missing Limb needs to say which limb is missing: an arm or a leg")]
    MissingLimbUnnamed,
}

fn names(skills: &[SkillKind]) -> String {
    skills
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Counts the budget (chapter 1 "Your Character's Skills", chapter 3 introduction).
///
/// Each magic skill takes one Mental or Magical weakness. Magical weaknesses are used for that
/// first, then Mental ones; every General weakness and every Mental one left over grants 5
/// points. A Magical weakness never grants points.
pub fn points(draft: &Draft) -> Points {
    let funded = || draft.skills.iter().filter(|(_, p)| *p > 0);
    let magic_skills = funded()
        .filter(|(s, _)| s.is_magic())
        .map(|(s, _)| s)
        .collect::<HashSet<_>>()
        .len() as u32;
    let count = |k| draft.weaknesses.iter().filter(|w| w.kind() == k).count() as u32;
    let (general, mental, magical) = (
        count(WeaknessKind::General),
        count(WeaknessKind::Mental),
        count(WeaknessKind::Magical),
    );
    let mental_for_magic = mental.min(magic_skills.saturating_sub(magical));
    let extra_weaknesses = general + mental - mental_for_magic;
    let sum = |g: Option<Group>| -> i32 {
        funded()
            .filter(|(s, _)| g.is_none_or(|g| s.group() == g))
            .map(|(_, p)| *p)
            .sum()
    };
    let skills = sum(None);
    let quirks = draft.quirks.iter().map(|q| q.cost() as i32).sum();
    let budget = STARTING_POINTS + POINTS_PER_EXTRA_WEAKNESS * extra_weaknesses as i32;
    Points {
        skills,
        quirks,
        magic_skills,
        extra_weaknesses,
        budget,
        spent: skills + quirks,
        hard: sum(Some(Group::Hard)),
        soft: sum(Some(Group::Soft)),
    }
}

/// Every breach of the creation rules in `draft`, in a stable order; empty when it is legal.
pub fn validate(draft: &Draft) -> Vec<Violation> {
    validate_at(draft, Stage::Creation)
}

/// Every breach of the rules that bind a character at `stage`, in a stable order.
pub fn validate_at(draft: &Draft, stage: Stage) -> Vec<Violation> {
    let mut out = Vec::new();
    let p = points(draft);
    if stage == Stage::Creation {
        check_points(draft, &p, &mut out);
    }
    check_skills(draft, stage, &mut out);
    check_weaknesses(draft, &p, &mut out);
    check_quirks(draft, &mut out);
    out
}

/// Points in `skill`, 0 if absent.
fn points_in(draft: &Draft, skill: &SkillId) -> i32 {
    draft
        .skills
        .iter()
        .filter(|(s, _)| s == skill)
        .map(|(_, p)| *p)
        .max()
        .unwrap_or(0)
}

/// Does the draft have at least 1 point in a skill of this kind (any subject)?
fn knows(draft: &Draft, kind: SkillKind) -> bool {
    draft.skills.iter().any(|(s, p)| *p > 0 && s.is(kind))
}

fn check_points(draft: &Draft, p: &Points, out: &mut Vec<Violation>) {
    if p.spent > p.budget {
        out.push(Violation::TooManyPoints {
            spent: p.spent,
            budget: p.budget,
        });
    }
    if p.hard < MIN_HARD_POINTS {
        out.push(Violation::TooFewHardPoints { points: p.hard });
    }
    if p.soft < MIN_SOFT_POINTS {
        out.push(Violation::TooFewSoftPoints { points: p.soft });
    }
    match &draft.parent_skill {
        None => out.push(Violation::NoParentSkill),
        Some(skill) if points_in(draft, skill) < 1 => {
            out.push(Violation::ParentSkillUnfunded {
                skill: skill.clone(),
            });
        }
        Some(_) => {}
    }
}

fn check_skills(draft: &Draft, stage: Stage, out: &mut Vec<Violation>) {
    let mut seen = HashSet::new();
    let traits = draft.traits();
    for (skill, pts) in &draft.skills {
        if !seen.insert(skill) {
            out.push(Violation::DuplicateSkill {
                skill: skill.clone(),
            });
        }
        match stage {
            Stage::Creation => {
                if *pts > MAX_POINTS_PER_SKILL {
                    out.push(Violation::SkillOverCap {
                        skill: skill.clone(),
                        points: *pts,
                    });
                }
                if *pts < 0 {
                    out.push(Violation::NegativePoints {
                        skill: skill.clone(),
                        points: *pts,
                    });
                }
            }
            // Chapter 10: raised one point at a time up to the best a person can reach (30).
            // Decision: a rating below 0 is allowed in play, where rules such as Physically
            // Dependent lower a skill for good.
            Stage::InPlay => {
                if *pts > MAX_SKILL {
                    out.push(Violation::SkillOverMaximum {
                        skill: skill.clone(),
                        rating: *pts,
                    });
                }
            }
        }
        if *pts < 1 {
            continue;
        }
        if let Some(reason) = bars::skill_bar(&traits, skill) {
            out.push(Violation::ForbiddenSkill {
                skill: skill.clone(),
                reason,
            });
        }
        // Chapter 2 "Dual-Wield": both weapons must be trained.
        if let Some((main, off)) = skill.weapons() {
            for weapon in [main, off] {
                let trained = draft
                    .skills
                    .iter()
                    .any(|(s, p)| *p > 0 && s.weapon() == Some(weapon));
                if !trained {
                    out.push(Violation::DualWieldUntrained {
                        skill: skill.clone(),
                        weapon: weapon.to_string(),
                    });
                }
            }
        }
    }
}

fn check_weaknesses(draft: &Draft, p: &Points, out: &mut Vec<Violation>) {
    let mind_or_magic = draft
        .weaknesses
        .iter()
        .filter(|w| w.kind() != WeaknessKind::General)
        .count() as u32;
    if mind_or_magic < p.magic_skills {
        out.push(Violation::MissingMagicWeakness {
            magic_skills: p.magic_skills,
            have: mind_or_magic,
        });
    }
    // Magical weaknesses beyond the magic skills' needs: extras may only be General or Mental.
    let magical: Vec<Weakness> = draft
        .weaknesses
        .iter()
        .copied()
        .filter(|w| w.kind() == WeaknessKind::Magical)
        .collect();
    for weakness in magical.iter().skip(p.magic_skills as usize) {
        out.push(Violation::UnneededMagicalWeakness {
            weakness: *weakness,
        });
    }
    // Decision: a weakness that names a subject (Phobia of heights, Phobia of water) may be taken
    // more than once; any other twice is a mistake.
    let mut seen = HashSet::new();
    for w in &draft.weaknesses {
        if !seen.insert(w) && !w.info().takes_subject {
            out.push(Violation::DuplicateWeakness { weakness: *w });
        }
    }
    if draft.weaknesses.contains(&Weakness::MissingLimb) && draft.missing_limb.is_none() {
        out.push(Violation::MissingLimbUnnamed);
    }
}

fn check_quirks(draft: &Draft, out: &mut Vec<Violation>) {
    let mut seen = HashSet::new();
    let traits = draft.traits();
    for &quirk in &draft.quirks {
        if !seen.insert(quirk) {
            out.push(Violation::DuplicateQuirk { quirk });
            continue;
        }
        for pre in quirk.info().prerequisites {
            match *pre {
                Prerequisite::Skill(skills) => {
                    // Chapter 4, "Quirks": a weakness that keeps a skill from being learned keeps
                    // the quirks that improve it too. Where every skill the quirk improves is
                    // barred, that is the breach to report, not the missing skill.
                    let barred: Vec<(SkillKind, String)> = skills
                        .iter()
                        .filter_map(|&k| bars::kind_bar(&traits, k).map(|r| (k, r)))
                        .collect();
                    if barred.len() == skills.len() {
                        for (skill, reason) in barred {
                            out.push(Violation::QuirkBarred {
                                quirk,
                                skill,
                                reason,
                            });
                        }
                    } else if !skills.iter().any(|&k| knows(draft, k)) {
                        out.push(Violation::QuirkNeedsSkill { quirk, skills });
                    }
                }
                Prerequisite::AnyWeaponSkill => {
                    if !knows(draft, SkillKind::WeaponSkill) {
                        out.push(Violation::QuirkNeedsWeaponSkill { quirk });
                    }
                }
                Prerequisite::NotWith(other) => {
                    // Report the pair once, from the quirk listed first.
                    let first = draft.quirks.iter().position(|q| *q == quirk);
                    let second = draft.quirks.iter().position(|q| *q == other);
                    if let (Some(a), Some(b)) = (first, second)
                        && a < b
                    {
                        out.push(Violation::QuirksExclude { quirk, other });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> SkillId {
        SkillId::parse(s).unwrap()
    }

    /// A legal 20-point character: 10 hard, 10 soft, parent skill Trade (Carpentry).
    fn legal() -> Draft {
        Draft {
            skills: vec![
                (id("weapon skill (sword)"), 5),
                (id("toughness"), 5),
                (id("stealth"), 5),
                (id("trade (carpentry)"), 5),
            ],
            parent_skill: Some(id("trade (carpentry)")),
            ..Draft::default()
        }
    }

    fn with(mut d: Draft, f: impl FnOnce(&mut Draft)) -> Draft {
        f(&mut d);
        d
    }

    #[test]
    fn legal_character_has_no_violations() {
        assert_eq!(validate(&legal()), vec![]);
        let p = points(&legal());
        assert_eq!((p.spent, p.budget, p.hard, p.soft), (20, 20, 10, 10));
    }

    #[test]
    fn twenty_points_ok_twenty_one_breach() {
        // thiz-rulebook.md, chapter 1 "Your Character's Skills": 20 points.
        let ok = with(legal(), |d| d.skills[2].1 = 4);
        assert_eq!(validate(&ok), vec![]);
        let over = with(legal(), |d| d.skills.push((id("climbing"), 1)));
        assert_eq!(
            validate(&over),
            vec![Violation::TooManyPoints {
                spent: 21,
                budget: 20
            }]
        );
    }

    #[test]
    fn extra_weaknesses_add_five_each() {
        // Chapter 1 and chapter 3: +5 per General or Mental weakness beyond magic's needs.
        let base = with(legal(), |d| d.skills.push((id("climbing"), 5)));
        assert_eq!(
            validate(&base)[0],
            Violation::TooManyPoints {
                spent: 25,
                budget: 20
            }
        );
        let general = with(base.clone(), |d| d.weaknesses.push(Weakness::Unlucky));
        assert_eq!(validate(&general), vec![]);
        let mental = with(base.clone(), |d| d.weaknesses.push(Weakness::Shifty));
        assert_eq!(validate(&mental), vec![]);
        let over = with(general, |d| d.skills.push((id("swimming"), 1)));
        assert_eq!(
            validate(&over),
            vec![Violation::TooManyPoints {
                spent: 26,
                budget: 25
            }]
        );
    }

    #[test]
    fn hard_and_soft_minimums() {
        // Chapter 1: at least 5 on hard and 5 on soft. 4 breaches, 5 is fine.
        let hard4 = with(legal(), |d| {
            d.skills[0].1 = 4;
            d.skills[1].1 = 0;
        });
        assert_eq!(
            validate(&hard4),
            vec![Violation::TooFewHardPoints { points: 4 }]
        );
        let hard5 = with(legal(), |d| d.skills[1].1 = 0);
        assert_eq!(validate(&hard5), vec![]);
        let soft4 = with(legal(), |d| {
            d.skills[2].1 = 0;
            d.skills[3].1 = 4;
        });
        assert_eq!(
            validate(&soft4),
            vec![Violation::TooFewSoftPoints { points: 4 }]
        );
        let soft5 = with(legal(), |d| d.skills[2].1 = 0);
        assert_eq!(validate(&soft5), vec![]);
        // Magic points count as neither.
        let magic = with(legal(), |d| {
            d.skills[3].1 = 1;
            d.skills[2] = (id("alchemy"), 4);
            d.weaknesses.push(Weakness::Haunted);
        });
        assert_eq!(
            validate(&magic),
            vec![Violation::TooFewSoftPoints { points: 1 }]
        );
    }

    #[test]
    fn five_per_skill() {
        // Chapter 1: no more than 5 points on one skill.
        let six = with(legal(), |d| {
            d.skills[0].1 = 6;
            d.skills[1].1 = 4;
        });
        assert_eq!(
            validate(&six),
            vec![Violation::SkillOverCap {
                skill: id("weapon skill (sword)"),
                points: 6
            }]
        );
        let neg = with(legal(), |d| d.skills.push((id("climbing"), -1)));
        assert_eq!(
            validate(&neg),
            vec![Violation::NegativePoints {
                skill: id("climbing"),
                points: -1
            }]
        );
        let dup = with(legal(), |d| {
            d.skills[2] = (id("Trade: carpentry"), 0);
        });
        assert_eq!(
            validate(&dup),
            vec![Violation::DuplicateSkill {
                skill: id("trade (carpentry)")
            }]
        );
    }

    #[test]
    fn parent_or_mentor_skill() {
        // Chapter 1 "Parents": at least one point in a skill of a parent's or mentor's career.
        let none = with(legal(), |d| d.parent_skill = None);
        assert_eq!(validate(&none), vec![Violation::NoParentSkill]);
        let zero = with(legal(), |d| d.parent_skill = Some(id("knowledge (law)")));
        assert_eq!(
            validate(&zero),
            vec![Violation::ParentSkillUnfunded {
                skill: id("knowledge (law)")
            }]
        );
        let one = with(legal(), |d| {
            d.skills[2].1 = 4;
            d.skills.push((id("knowledge (law)"), 1));
            d.parent_skill = Some(id("Knowledge: LAW"));
        });
        assert_eq!(validate(&one), vec![]);
    }

    #[test]
    fn one_mental_or_magical_weakness_per_magic_skill() {
        // Chapter 1 and chapter 3: each magic skill needs a Mental or Magical weakness; those
        // grant no points.
        let two_magic = with(legal(), |d| {
            d.skills[0].1 = 3;
            d.skills[1].1 = 2;
            d.skills.push((id("alchemy"), 3));
            d.skills.push((id("reiki"), 2));
        });
        assert_eq!(
            validate(&two_magic),
            vec![Violation::MissingMagicWeakness {
                magic_skills: 2,
                have: 0
            }]
        );
        let one = with(two_magic.clone(), |d| d.weaknesses.push(Weakness::Haunted));
        assert_eq!(
            validate(&one),
            vec![Violation::MissingMagicWeakness {
                magic_skills: 2,
                have: 1
            }]
        );
        let two = with(one.clone(), |d| d.weaknesses.push(Weakness::Shifty));
        assert_eq!(validate(&two), vec![]);
        assert_eq!(points(&two).budget, 20);
        // A General weakness does not cover a magic skill, but grants its 5 points.
        let general = with(one, |d| d.weaknesses.push(Weakness::Unlucky));
        assert_eq!(points(&general).budget, 25);
        assert_eq!(
            validate(&general),
            vec![Violation::MissingMagicWeakness {
                magic_skills: 2,
                have: 1
            }]
        );
        // A third, Mental, weakness is an extra: +5.
        let three = with(two.clone(), |d| d.weaknesses.push(Weakness::Tic));
        assert_eq!(points(&three).budget, 25);
        // Magical weaknesses cover magic skills first, freeing the Mental one as an extra.
        let spare = with(two, |d| d.weaknesses.push(Weakness::Poltergeist));
        assert_eq!(validate(&spare), vec![]);
        assert_eq!(points(&spare).budget, 25);
        // A Magical weakness no magic skill needs is not allowed.
        let third = with(spare, |d| d.weaknesses.push(Weakness::Disfigured));
        assert_eq!(
            validate(&third),
            vec![Violation::UnneededMagicalWeakness {
                weakness: Weakness::Disfigured
            }]
        );
    }

    #[test]
    fn quirks_cost_what_chapter_4_prints() {
        // thiz-rulebook.md, chapter 4 "Quirks": 2 points unless a cost is printed above the quirk
        // (5 for Berserk, Polarizing Personality, Quick Study, Sleepless, Void-Touched). Decision
        // in traits::QUIRK_COST: chapter 1's flat 5 is not followed. 20 spent is legal, 21 not.
        let two = with(legal(), |d| {
            d.skills[2].1 = 3;
            d.quirks.push(Quirk::IronConstitution);
        });
        assert_eq!(validate(&two), vec![]);
        assert_eq!(points(&two).spent, 20);
        let two_over = with(two, |d| d.skills[2].1 = 4);
        assert_eq!(
            validate(&two_over),
            vec![Violation::TooManyPoints {
                spent: 21,
                budget: 20
            }]
        );
        let five = with(legal(), |d| {
            d.skills[2].1 = 0;
            d.quirks.push(Quirk::Sleepless);
        });
        assert_eq!(validate(&five), vec![]);
        let five_over = with(five, |d| d.skills[2].1 = 1);
        assert_eq!(
            validate(&five_over),
            vec![Violation::TooManyPoints {
                spent: 21,
                budget: 20
            }]
        );
    }

    #[test]
    fn quirks_need_their_skills() {
        // Chapter 4: a quirk that improves a skill needs it known at creation.
        let street = with(legal(), |d| {
            d.skills[2].1 = 0;
            d.quirks.push(Quirk::StreetSmarts);
        });
        assert_eq!(
            validate(&street),
            vec![Violation::QuirkNeedsSkill {
                quirk: Quirk::StreetSmarts,
                skills: &[SkillKind::Perception]
            }]
        );
        let fixed = with(street, |d| {
            d.skills[3].1 = 4;
            d.skills[2] = (id("perception"), 1);
        });
        assert_eq!(validate(&fixed), vec![]);
        assert_eq!(points(&fixed).spent, 17);
        let war = with(legal(), |d| {
            d.skills[0] = (id("grappling"), 5);
            d.skills[1].1 = 0;
            d.quirks.push(Quirk::TrainedForWar);
        });
        assert_eq!(
            validate(&war),
            vec![Violation::QuirkNeedsWeaponSkill {
                quirk: Quirk::TrainedForWar
            }]
        );
        let fans = with(legal(), |d| {
            d.skills[1].1 = 0;
            d.skills[2].1 = 0;
            d.quirks = vec![Quirk::PolarizingPersonality, Quirk::ForgivingFans];
        });
        assert_eq!(
            validate(&fans),
            vec![Violation::QuirksExclude {
                quirk: Quirk::PolarizingPersonality,
                other: Quirk::ForgivingFans
            }]
        );
        let twice = with(legal(), |d| {
            d.skills[1].1 = 0;
            d.skills[2].1 = 0;
            d.quirks = vec![Quirk::QuickStudy, Quirk::QuickStudy];
        });
        assert_eq!(
            validate(&twice),
            vec![Violation::DuplicateQuirk {
                quirk: Quirk::QuickStudy
            }]
        );
    }

    #[test]
    fn skills_barred_by_traits() {
        // Chapter 4 "Void-Touched", chapter 3 "Animal Aversion", "Missing Limb"; chapter 2
        // "Dual-Wield" needs both weapons.
        let void = with(legal(), |d| {
            d.skills[3].1 = 0;
            d.skills[2].1 = 0;
            d.skills.push((id("perception"), 5));
            d.skills.push((id("insight"), 1));
            d.skills[1].1 = 4;
            d.weaknesses.push(Weakness::Haunted);
            d.quirks.push(Quirk::VoidTouched);
            d.parent_skill = Some(id("perception"));
        });
        assert_eq!(
            validate(&void),
            vec![Violation::ForbiddenSkill {
                skill: id("insight"),
                reason: "the Void-Touched quirk".into()
            }]
        );
        let dual = with(legal(), |d| {
            d.skills[1] = (id("dual-wield (sword, axe)"), 4);
            d.skills.push((id("weapon skill (axe)"), 1));
        });
        assert_eq!(validate(&dual), vec![]);
        let untrained = with(dual.clone(), |d| d.skills[4].1 = 0);
        assert_eq!(
            validate(&untrained),
            vec![Violation::DualWieldUntrained {
                skill: id("dual-wield (sword, axe)"),
                weapon: "Axe".into()
            }]
        );
        let armless = with(dual.clone(), |d| {
            d.weaknesses.push(Weakness::MissingLimb);
            d.missing_limb = Some(Limb::Arm);
        });
        assert_eq!(
            validate(&armless),
            vec![Violation::ForbiddenSkill {
                skill: id("dual-wield (sword, axe)"),
                reason: "a missing arm".into()
            }]
        );
        let legless = with(dual.clone(), |d| {
            d.weaknesses.push(Weakness::MissingLimb);
            d.missing_limb = Some(Limb::Leg);
        });
        assert_eq!(validate(&legless), vec![]);
        let unnamed = with(dual, |d| d.weaknesses.push(Weakness::MissingLimb));
        assert_eq!(validate(&unnamed), vec![Violation::MissingLimbUnnamed]);
        let animals = with(legal(), |d| {
            d.skills[2] = (id("animal handling"), 5);
            d.weaknesses = vec![Weakness::AnimalAversion];
        });
        assert!(validate(&animals).contains(&Violation::ForbiddenSkill {
            skill: id("animal handling"),
            reason: "the Animal Aversion weakness".into()
        }));
    }

    #[test]
    fn phobia_and_tin_ear_bar_skills_and_their_quirks() {
        // Chapter 3 "Phobia" (heights bar Climbing) and "Tin Ear" (no musical skill); chapter 4
        // "Quirks": a skill a weakness bars bars the quirks improving it.
        let climber = with(legal(), |d| {
            d.skills[2] = (id("climbing"), 5);
            d.weaknesses.push(Weakness::Phobia);
            d.phobias.push("heights".into());
        });
        assert_eq!(
            validate(&climber),
            vec![Violation::ForbiddenSkill {
                skill: id("climbing"),
                reason: "a phobia of heights".into()
            }]
        );
        let spiders = with(climber.clone(), |d| d.phobias = vec!["spiders".into()]);
        assert_eq!(validate(&spiders), vec![]);
        let singer = with(legal(), |d| {
            d.skills[2] = (id("artisan (singing)"), 5);
            d.weaknesses.push(Weakness::TinEar);
        });
        assert_eq!(
            validate(&singer),
            vec![Violation::ForbiddenSkill {
                skill: id("artisan (singing)"),
                reason: "the Tin Ear weakness".into()
            }]
        );
        let painter = with(singer, |d| d.skills[2] = (id("artisan (painting)"), 5));
        assert_eq!(validate(&painter), vec![]);
        // Triage Specialist improves First Aid, which a fear of blood bars: the quirk is barred
        // (and the missing First Aid is not reported on top).
        let medic = with(legal(), |d| {
            d.skills[2].1 = 3;
            d.weaknesses.push(Weakness::Phobia);
            d.phobias.push("blood".into());
            d.quirks.push(Quirk::TriageSpecialist);
        });
        assert_eq!(
            validate(&medic),
            vec![Violation::QuirkBarred {
                quirk: Quirk::TriageSpecialist,
                skill: SkillKind::FirstAid,
                reason: "a phobia of blood".into()
            }]
        );
        assert_eq!(
            validate(&medic)[0].to_string(),
            "Triage Specialist improves First Aid, which a character with a phobia of blood cannot learn"
        );
        // Military Background improves Fast Talk or Persuasion: one barred skill is not enough.
        let fearless = with(medic, |d| d.phobias = vec!["heights".into()]);
        assert_eq!(
            validate(&fearless),
            vec![Violation::QuirkNeedsSkill {
                quirk: Quirk::TriageSpecialist,
                skills: &[SkillKind::FirstAid]
            }]
        );
    }

    #[test]
    fn in_play_the_creation_limits_give_way_to_advancement() {
        // thiz-rulebook.md, chapter 10 "The Benefits of Experience": after creation skills rise
        // with earned points up to 30 (advancement::MAX_SKILL) and new skills are learned, so
        // the budget, the 5-per-skill cap, the hard/soft minimums and the parent skill are
        // creation's alone. Bars and magic weaknesses still hold.
        let veteran = with(legal(), |d| {
            d.skills[0].1 = 30;
            d.skills.push((id("climbing"), 12));
            d.parent_skill = None;
        });
        assert_eq!(
            validate(&veteran),
            vec![
                Violation::TooManyPoints {
                    spent: 57,
                    budget: 20
                },
                Violation::NoParentSkill,
                Violation::SkillOverCap {
                    skill: id("weapon skill (sword)"),
                    points: 30
                },
                Violation::SkillOverCap {
                    skill: id("climbing"),
                    points: 12
                },
            ]
        );
        assert_eq!(validate_at(&veteran, Stage::InPlay), vec![]);
        let over = with(veteran.clone(), |d| d.skills[0].1 = 31);
        assert_eq!(
            validate_at(&over, Stage::InPlay),
            vec![Violation::SkillOverMaximum {
                skill: id("weapon skill (sword)"),
                rating: 31
            }]
        );
        let afraid = with(veteran, |d| {
            d.weaknesses.push(Weakness::Phobia);
            d.phobias.push("heights".into());
            d.skills.push((id("necromancy"), 1));
            d.skills.push((id("alchemy"), 1));
        });
        assert_eq!(
            validate_at(&afraid, Stage::InPlay),
            vec![
                Violation::ForbiddenSkill {
                    skill: id("climbing"),
                    reason: "a phobia of heights".into()
                },
                Violation::MissingMagicWeakness {
                    magic_skills: 2,
                    have: 1
                },
            ]
        );
    }

    #[test]
    fn every_violation_at_once() {
        let empty = Draft {
            weaknesses: vec![
                Weakness::Reckless,
                Weakness::Reckless,
                Weakness::Phobia,
                Weakness::Phobia,
            ],
            ..Draft::default()
        };
        let got = validate(&empty);
        assert_eq!(
            got,
            vec![
                Violation::TooFewHardPoints { points: 0 },
                Violation::TooFewSoftPoints { points: 0 },
                Violation::NoParentSkill,
                Violation::DuplicateWeakness {
                    weakness: Weakness::Reckless
                },
            ]
        );
        assert_eq!(
            got[0].to_string(),
            "at least 5 points must go to hard skills (Mettle, Efficacy); you have 0"
        );
        assert_eq!(
            Violation::QuirkNeedsSkill {
                quirk: Quirk::MilitaryBackground,
                skills: &[SkillKind::FastTalk, SkillKind::Persuasion]
            }
            .to_string(),
            "Military Background needs at least 1 point in Fast Talk or Persuasion"
        );
    }
}
