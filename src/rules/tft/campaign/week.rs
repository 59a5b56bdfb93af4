//! A week of work: the roll to find the job, the risk roll, the experience bonus, a disaster's
//! save and damage, a thief's arrest, and the week's pay with its bonuses.
//!
//! Source: tft-house-rules.txt, "Jobs" and its sub-sections (Risk, Roll to Find, Minimum Weeks,
//! Pay, Lifestyle, XP/Week, the mercenaries' bonuses, Mercenary Officers, Thieves, Miscellaneous
//! Jobs). Dice are rolled in this order, so scripted tests can follow it: roll to find, minimum
//! weeks, risk (3d), the disaster's save (3d) and damage, the arrest roll (3d), the pay's dice.

use thiserror::Error;

use super::jobs::{
    FindRoll, Job, JobFamily, Lifestyle, OfficerRank, PayRule, Weeks, lifestyle_cost,
    rank_modification, xp_bonus, xp_bonus_halves,
};
use super::thieves::{adjusted_disaster, limited_pay_increase, thief_adjustment};
use crate::rules::dice::DieSource;
use crate::rules::tft::character::{Attributes, Talent};
use crate::rules::tft::saves::{SaveOutcome, save_roll, sum_counts};

/// What the mercenary carries into battle on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mount {
    #[default]
    OnFoot,
    /// +25% pay, -2 IQ on the roll to find.
    Mounted,
    /// +50% pay, one more die on the roll to find.
    Flying,
}

/// A mercenary's pay factors (tft-house-rules.txt, "Mercenaries", Bonuses; "Mercenary Officers").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MercenaryOptions {
    pub rank: Option<OfficerRank>,
    pub weapon_talents: u32,
    pub combat_talents: u32,
    pub rapid_fire_missile: bool,
    /// Reptile Man, Gargoyle or Giant.
    pub large_race: bool,
    /// Hits the armor stops.
    pub armor_points: u32,
    pub mount: Mount,
    /// A wizard hiring out as a mercenary: +$1 (tft-house-rules.txt, "Wizards"). Count the
    /// wizard's spells into `combat_talents` with [`wizard_combat_talents`].
    pub wizard: bool,
}

/// Combat talents of a wizard working as a mercenary: two spells count as one talent
/// (tft-house-rules.txt, "Wizards"; an odd spell counts nothing).
pub fn wizard_combat_talents(combat_talents: u32, spells: u32) -> u32 {
    combat_talents + spells / 2
}

/// Everything about the worker a week of a job needs.
// Each flag is an independent yes/no the GM answers; an enum per flag would say no more.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobWeekOptions {
    pub attributes: Attributes,
    pub talents: Vec<Talent>,
    /// Wizards' ranks up to Dominium Liminus need the Aid spell.
    pub knows_aid: bool,
    /// True when the character is looking for the job this week (rolls to find it first).
    pub looking_for_work: bool,
    pub mercenary: MercenaryOptions,
    /// A thief's MA (for the risk reduction); [`JobWeekOptions::new`] starts from DX / 2.
    pub ma: u32,
    /// Spells a wizard working as a thief may count, 1/4 each.
    pub fitting_spells: u32,
    /// Works from an own shop: +25% pay (at least $5) and a better lifestyle.
    pub self_employed: bool,
    /// Arranges food and lodging: no lifestyle provided, a third of its cost added to the pay.
    pub own_lodging: bool,
    /// Experience a week where the table lost the figure.
    pub xp_per_week: Option<u32>,
}

impl JobWeekOptions {
    /// Options for a character with these attributes and nothing else.
    pub fn new(attributes: Attributes) -> Self {
        Self {
            attributes,
            talents: Vec::new(),
            knows_aid: false,
            looking_for_work: false,
            mercenary: MercenaryOptions::default(),
            ma: crate::rules::tft::character::base_ma(attributes.dx),
            fitting_spells: 0,
            self_employed: false,
            own_lodging: false,
            xp_per_week: None,
        }
    }
}

/// A requirement of the job the worker does not meet.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JobRequirement {
    #[error("ST + DX must be at least {needs}; it is {has}")]
    StDx { needs: u32, has: u32 },
    #[error("ST + DX + IQ must be at least {needs}; it is {has}")]
    AttributeTotal { needs: u32, has: u32 },
    #[error("IQ must be at least {needs}; it is {has}")]
    Iq { needs: u32, has: u32 },
    #[error("needs {needs} weapon talent(s); has {has}")]
    WeaponTalents { needs: u32, has: u32 },
    #[error("needs {needs} combat talent(s); has {has}")]
    CombatTalents { needs: u32, has: u32 },
    #[error("needs the {0} talent")]
    Talent(Talent),
    #[error("needs the Aid spell")]
    AidSpell,
}

/// Why a week cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JobError {
    #[error("the character does not qualify: {}", join(.0))]
    Requirements(Vec<JobRequirement>),
}

fn join(items: &[JobRequirement]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every requirement of `job` the worker misses (empty: qualified). Years of service for officers
/// are the GM's to check.
pub fn check_requirements(job: &Job, opts: &JobWeekOptions) -> Vec<JobRequirement> {
    let a = opts.attributes;
    let mut out = Vec::new();
    let rank = opts
        .mercenary
        .rank
        .filter(|_| job.family == JobFamily::Mercenary)
        .map(rank_modification);
    if let Some(min) = job.min_st_dx {
        let needs = min + rank.map_or(0, |r| r.extra_min_st_dx);
        if a.st + a.dx < needs {
            out.push(JobRequirement::StDx {
                needs,
                has: a.st + a.dx,
            });
        }
    }
    if let Some(needs) = job.min_attribute_total.filter(|&n| a.st + a.dx + a.iq < n) {
        out.push(JobRequirement::AttributeTotal {
            needs,
            has: a.st + a.dx + a.iq,
        });
    }
    if let Some(needs) = job.min_iq.filter(|&n| a.iq < n) {
        out.push(JobRequirement::Iq { needs, has: a.iq });
    }
    let m = opts.mercenary;
    if m.weapon_talents < job.min_weapon_talents {
        out.push(JobRequirement::WeaponTalents {
            needs: job.min_weapon_talents,
            has: m.weapon_talents,
        });
    }
    if m.combat_talents < job.min_combat_talents {
        out.push(JobRequirement::CombatTalents {
            needs: job.min_combat_talents,
            has: m.combat_talents,
        });
    }
    let needed = job
        .requires
        .iter()
        .copied()
        .chain(rank.and_then(|r| r.needs));
    for talent in needed.filter(|t| !opts.talents.contains(t)) {
        out.push(JobRequirement::Talent(talent));
    }
    if job.needs_aid_spell && !opts.knows_aid {
        out.push(JobRequirement::AidSpell);
    }
    out
}

/// The roll to find the job after rank and mount: dice and the IQ it is rolled against.
pub fn find_roll(job: &Job, opts: &JobWeekOptions) -> Option<(u32, i32)> {
    let FindRoll { dice, iq_modifier } = job.find?;
    let mut dice = dice;
    let mut modifier = iq_modifier;
    if job.family == JobFamily::Mercenary {
        if let Some(r) = opts.mercenary.rank.map(rank_modification) {
            dice += r.find_extra_dice;
            modifier += r.find_iq_modifier;
        }
        match opts.mercenary.mount {
            Mount::OnFoot => {}
            Mount::Mounted => modifier -= 2,
            Mount::Flying => dice += 1,
        }
    }
    Some((dice, opts.attributes.iq as i32 + modifier))
}

/// How the week's pay was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayBreakdown {
    /// Base pay after an officer's increase (and the dice, for pay with dice).
    pub base: u32,
    pub max: Option<u32>,
    /// Faces of the pay's dice, if it has any.
    pub pay_faces: Vec<u32>,
    /// Mercenary bonuses, thief pay increase (already limited), or a talent's extra.
    pub bonuses: u32,
    /// True when the maximum cut the pay.
    pub capped: bool,
    /// Percent added for a mount (mercenaries).
    pub mount_percent: u32,
    pub self_employed_extra: u32,
    /// A third of the lifestyle's cost, when the worker lodges elsewhere and the cost is known.
    pub lodging_extra: Option<u32>,
    pub total: u32,
}

fn percent_up(value: u32, percent: u32) -> u32 {
    // Decision: every percentage of pay is rounded down to whole dollars.
    value * (100 + percent) / 100
}

fn mercenary_bonuses(job: &Job, m: &MercenaryOptions, st_dx: u32) -> u32 {
    // tft-house-rules.txt, "Mercenaries", Bonuses.
    let min =
        job.min_st_dx.unwrap_or(0) + m.rank.map_or(0, |r| rank_modification(r).extra_min_st_dx);
    let surplus = st_dx.saturating_sub(min);
    let mut bonus = m.combat_talents.saturating_sub(job.min_combat_talents) / 2;
    bonus += match surplus {
        10.. => 2,
        5..=9 => 1,
        _ => 0,
    };
    bonus += u32::from(m.rapid_fire_missile);
    bonus += u32::from(m.wizard);
    bonus += if m.large_race { 2 } else { 0 };
    bonus += match m.armor_points {
        7.. => 2,
        5 | 6 => 1,
        _ => 0,
    };
    bonus
}

/// The week's pay for `job` (rolling the dice of pay with dice).
pub fn weekly_pay(job: &Job, opts: &JobWeekOptions, dice: &mut impl DieSource) -> PayBreakdown {
    let a = opts.attributes;
    let mut pay_faces = Vec::new();
    let mut base = match job.pay {
        PayRule::None => 0,
        PayRule::Fixed(n) => n,
        PayRule::HalfIq => a.iq / 2,
        PayRule::Iq => a.iq,
        PayRule::TwiceIq => a.iq * 2,
        PayRule::PlusDx(n) => n + a.dx,
        PayRule::PlusDice(n, d) => {
            let (faces, total) = d.roll(dice);
            pay_faces = faces;
            (n as i32 + total).max(0) as u32
        }
    };
    let mut max = job.max_pay;
    let mut bonuses = 0;
    let mut mount_percent = 0;
    match job.family {
        JobFamily::Mercenary => {
            let m = opts.mercenary;
            if let Some(r) = m.rank.map(rank_modification) {
                base = percent_up(base, r.pay_percent);
                max = max.map(|x| percent_up(x, r.pay_percent));
            }
            bonuses = mercenary_bonuses(job, &m, a.st + a.dx);
            mount_percent = match m.mount {
                Mount::OnFoot => 0,
                Mount::Mounted => 25,
                Mount::Flying => 50,
            };
        }
        JobFamily::Thief => {
            let adj = thief_adjustment(&opts.talents, opts.ma, opts.fitting_spells);
            bonuses = limited_pay_increase(adj.pay_increase, base);
        }
        JobFamily::Wizard | JobFamily::Miscellaneous => {
            if let Some((talent, extra)) = job.pay_extra
                && opts.talents.contains(&talent)
            {
                bonuses = extra;
            }
        }
    }
    let uncapped = base + bonuses;
    let capped_pay = max.map_or(uncapped, |m| uncapped.min(m));
    // Decision: the mount's increase comes after the cap ("after all other bonuses"), so a mounted
    // mercenary can earn more than the printed maximum.
    let mut total = percent_up(capped_pay, mount_percent);
    let self_employed_extra = if opts.self_employed {
        (total / 4).max(5)
    } else {
        0
    };
    total += self_employed_extra;
    let lodging_extra = if opts.own_lodging {
        lifestyle_cost(provided_lifestyle(job, opts))
            .total
            .map(|t| t / 3)
    } else {
        None
    };
    total += lodging_extra.unwrap_or(0);
    PayBreakdown {
        base,
        max,
        pay_faces,
        bonuses,
        capped: capped_pay < uncapped,
        mount_percent,
        self_employed_extra,
        lodging_extra,
        total,
    }
}

/// The lifestyle the job gives this worker (before any own lodging).
pub fn provided_lifestyle(job: &Job, opts: &JobWeekOptions) -> Lifestyle {
    let mut l = match (job.family, opts.mercenary.rank) {
        (JobFamily::Mercenary, Some(rank)) => rank_modification(rank).lifestyle,
        _ => job.lifestyle,
    };
    if opts.self_employed {
        l = l.better();
    }
    l
}

/// A disaster: the save against the highest attribute and the damage that followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disaster {
    pub save: SaveOutcome,
    /// Each roll of the damage dice: faces and total (at least 0).
    pub damage_rolls: Vec<(Vec<u32>, u32)>,
    pub damage: u32,
}

/// One week of a job, with every roll and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobWeek {
    /// The roll to find the job, when the character was looking.
    pub find: Option<SaveOutcome>,
    pub found: bool,
    /// Minimum weeks rolled when the job was found (faces, total).
    pub min_weeks: Option<(Vec<u32>, i32)>,
    /// The 3d risk roll.
    pub risk_faces: Vec<u32>,
    pub risk_roll: u32,
    /// The upper risk number used (after a thief's reductions).
    pub disaster_at: u32,
    /// The risk roll was at or under the lower number.
    pub special: bool,
    pub xp_bonus: u32,
    pub disaster: Option<Disaster>,
    /// A thief's 3d/IQ roll against arrest after a disaster.
    pub arrest: Option<SaveOutcome>,
    pub arrested: bool,
    pub pay: Option<PayBreakdown>,
    /// The job's weekly experience, earned when no disaster struck.
    pub xp_per_week: u32,
    /// Weekly experience plus the bonus.
    pub xp_total: u32,
    /// The lifestyle provided (None when the worker lodges elsewhere or found nothing).
    pub lifestyle: Option<Lifestyle>,
}

impl JobWeek {
    fn not_found(find: Option<SaveOutcome>) -> Self {
        Self {
            find,
            found: false,
            min_weeks: None,
            risk_faces: Vec::new(),
            risk_roll: 0,
            disaster_at: 0,
            special: false,
            xp_bonus: 0,
            disaster: None,
            arrest: None,
            arrested: false,
            pay: None,
            xp_per_week: 0,
            xp_total: 0,
            lifestyle: None,
        }
    }
}

/// Runs one week of `job` for a worker: every roll, the experience and the pay.
///
/// Decisions: a week with a disaster is not a "successful" week, so it earns no weekly
/// experience (the bonus of a special roll still counts); an arrested thief is paid nothing; the
/// save after a disaster is 3d against the highest of ST, DX and IQ, with the automatic results
/// of any saving roll; the roll to find is a saving roll too.
pub fn run_job_week(
    job: &Job,
    opts: &JobWeekOptions,
    dice: &mut impl DieSource,
) -> Result<JobWeek, JobError> {
    let missing = check_requirements(job, opts);
    if !missing.is_empty() {
        return Err(JobError::Requirements(missing));
    }
    let mut find = None;
    let mut min_weeks = None;
    if opts.looking_for_work {
        if let Some((n, target)) = find_roll(job, opts) {
            let roll = roll_save(n, target, dice);
            let found = roll.succeeded();
            find = Some(roll);
            if !found {
                return Ok(JobWeek::not_found(find));
            }
        }
        min_weeks = match job.weeks {
            Weeks::Any => None,
            Weeks::Rolled(d) | Weeks::WarDuration(d) => Some(d.roll(dice)),
        };
    }
    let risk_faces = dice.d6s(3);
    let risk_roll: u32 = risk_faces.iter().sum();
    let disaster_at = if job.family == JobFamily::Thief {
        let adj = thief_adjustment(&opts.talents, opts.ma, opts.fitting_spells);
        adjusted_disaster(job.risk.disaster, adj.risk_shift, job.risk_cap)
    } else {
        job.risk.disaster
    };
    let special = risk_roll <= job.risk.special;
    let bonus = if special {
        xp_bonus(risk_roll, opts.attributes.total())
    } else {
        0
    };
    let mut disaster = None;
    let mut arrest = None;
    if risk_roll >= disaster_at {
        let (_, highest) = opts.attributes.highest();
        let save = roll_save(3, highest as i32, dice);
        let dmg = if save.succeeded() {
            job.damage_save
        } else {
            job.damage_fail
        };
        let damage_rolls: Vec<(Vec<u32>, u32)> = (0..dmg.times)
            .map(|_| {
                let (faces, total) = dmg.dice.roll(dice);
                (faces, total.max(0) as u32)
            })
            .collect();
        let damage = damage_rolls.iter().map(|r| r.1).sum();
        disaster = Some(Disaster {
            save,
            damage_rolls,
            damage,
        });
        if job.family == JobFamily::Thief {
            arrest = Some(roll_save(3, opts.attributes.iq as i32, dice));
        }
    }
    let arrested = arrest.as_ref().is_some_and(|a| !a.succeeded());
    let pay = (!arrested).then(|| weekly_pay(job, opts, dice));
    let xp_per_week = if disaster.is_none() {
        job.xp_per_week.or(opts.xp_per_week).unwrap_or(0)
    } else {
        0
    };
    Ok(JobWeek {
        find,
        found: true,
        min_weeks,
        risk_faces,
        risk_roll,
        disaster_at,
        special,
        xp_bonus: bonus,
        disaster,
        arrest,
        arrested,
        pay,
        xp_per_week,
        xp_total: xp_per_week + bonus,
        lifestyle: (!opts.own_lodging).then(|| provided_lifestyle(job, opts)),
    })
}

/// A thief's week when the job's row is not known: tft-house-rules.txt prints the thieves' table
/// ("Thieves") through OCR that lost its names, risk numbers, pay, experience and weeks, so only
/// the rolls can be made: the 3d risk roll, then the 3d/IQ roll against arrest, which counts
/// only when the GM reads the risk roll as a disaster (at or above the job's upper risk number
/// plus the thief's [`super::thieves::thief_adjustment`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThiefRolls {
    pub risk_faces: Vec<u32>,
    pub risk_roll: u32,
    pub arrest: SaveOutcome,
}

/// Rolls a thief's week without its job's row, for a thief of `iq`: risk first, then arrest,
/// the order [`run_job_week`] rolls them in.
pub fn thief_rolls(iq: u32, dice: &mut impl DieSource) -> ThiefRolls {
    let risk_faces = dice.d6s(3);
    let risk_roll = risk_faces.iter().sum();
    ThiefRolls {
        risk_faces,
        risk_roll,
        arrest: roll_save(3, iq.min(200) as i32, dice),
    }
}

fn roll_save(n: u32, target: i32, dice: &mut impl DieSource) -> SaveOutcome {
    // The dice counts here come from the tables (2 to 5) and targets from attributes, both inside
    // what save_roll accepts; clamp the target so an absurd attribute cannot make it refuse.
    let target = target.clamp(-200, 200);
    match save_roll(n.clamp(1, 12), target, dice) {
        Ok(out) => out,
        // Unreachable with the clamps above; answer with a plain failure rather than panic.
        Err(_) => SaveOutcome {
            dice: n,
            faces: Vec::new(),
            total: 0,
            target,
            result: crate::rules::tft::saves::SaveResult::Failure,
        },
    }
}

/// Exact chances of a risk roll x/y on 3d, as counts over 216.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiskOdds {
    pub outcomes: u64,
    /// Rolls at or under x.
    pub special: u64,
    /// Rolls at or over y.
    pub disaster: u64,
    /// Rolls that are both (x ≥ y).
    pub both: u64,
    /// Expected bonus multiple of the attribute total, in halves, times 216.
    pub bonus_halves_sum: u64,
}

/// Exact odds of the risk roll of a job, by enumeration of 3d.
pub fn risk_odds(special: u32, disaster: u32) -> RiskOdds {
    let counts = sum_counts(3);
    let mut odds = RiskOdds {
        outcomes: 216,
        special: 0,
        disaster: 0,
        both: 0,
        bonus_halves_sum: 0,
    };
    for (roll, &ways) in counts.iter().enumerate() {
        let roll = roll as u32;
        let s = ways > 0 && roll <= special;
        let d = ways > 0 && roll >= disaster;
        if s {
            odds.special += ways;
            odds.bonus_halves_sum += ways * u64::from(xp_bonus_halves(roll));
        }
        if d {
            odds.disaster += ways;
        }
        if s && d {
            odds.both += ways;
        }
    }
    odds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::tft::Dice;
    use crate::rules::tft::campaign::jobs::{
        JobDamage, MERCENARY_JOBS, MISC_JOBS, Risk, WIZARD_RANKS, job_by_name,
    };
    use crate::rules::tft::saves::SaveResult;

    fn joe() -> JobWeekOptions {
        // Joe the Barbarian (tft-house-rules.txt, "Skill Points"): ST 11, DX 12, IQ 9.
        let mut o = JobWeekOptions::new(Attributes {
            st: 11,
            dx: 12,
            iq: 9,
            sp: 0,
        });
        o.mercenary.weapon_talents = 2;
        o
    }

    fn job(name: &str) -> &'static Job {
        job_by_name(name).unwrap()
    }

    #[test]
    fn special_week_edges_and_bonus() {
        // tft-house-rules.txt, "Risk": at or under x earns the bonus; Garrison is 4/17.
        let w = run_job_week(job("Garrison"), &joe(), &mut ScriptedDice::new([1, 1, 2])).unwrap();
        assert_eq!((w.risk_roll, w.special, w.xp_bonus), (4, true, 4 * 32));
        assert!(w.disaster.is_none());
        let w = run_job_week(job("Garrison"), &joe(), &mut ScriptedDice::new([1, 2, 2])).unwrap();
        assert_eq!((w.risk_roll, w.special, w.xp_bonus), (5, false, 0));
        assert_eq!(w.pay.map(|p| p.total), Some(5));
        assert_eq!(w.lifestyle, Some(Lifestyle::Poor));
    }

    #[test]
    fn disaster_edges_save_and_damage() {
        // tft-house-rules.txt, "Risk": at or over y is a disaster; a save against the highest
        // attribute (DX 12) picks Damage-Save (1d+1) or Damage-Fail (2x(2d-1)).
        let w = run_job_week(job("Garrison"), &joe(), &mut ScriptedDice::new([6, 6, 4])).unwrap();
        assert!(w.disaster.is_none());
        assert_eq!(w.xp_per_week, 0); // the table lost mercenaries' weekly XP
        let w = run_job_week(
            job("Garrison"),
            &joe(),
            &mut ScriptedDice::new([6, 6, 5, 3, 3, 3, 4]),
        )
        .unwrap();
        let d = w.disaster.unwrap();
        assert_eq!(
            (d.save.total, d.save.result, d.damage),
            (9, SaveResult::Success, 5)
        );
        let w = run_job_week(
            job("Garrison"),
            &joe(),
            &mut ScriptedDice::new([6, 6, 5, 6, 5, 2, 1, 1, 6, 6]),
        )
        .unwrap();
        let d = w.disaster.unwrap();
        assert_eq!(d.save.result, SaveResult::Failure);
        assert_eq!(d.damage_rolls, vec![(vec![1, 1], 1), (vec![6, 6], 11)]);
        assert_eq!(d.damage, 12);
        // Damage never goes below zero: War 1's 3d-3 on three 1s.
        let mut o = joe();
        o.mercenary.weapon_talents = 1;
        let w = run_job_week(
            job("War 1"),
            &o,
            &mut ScriptedDice::new([3, 3, 3, 6, 6, 6, 1, 1, 1]),
        )
        .unwrap();
        assert!(w.special && w.disaster.is_some()); // 9 is both at or under 11 and at or over 9
        assert_eq!(w.disaster.unwrap().damage, 0);
        assert_eq!(w.xp_bonus, 32 / 2 * 2);
    }

    #[test]
    fn weekly_xp_only_without_disaster() {
        let mut o = joe();
        o.xp_per_week = Some(3);
        let w = run_job_week(job("Garrison"), &o, &mut ScriptedDice::new([1, 1, 1])).unwrap();
        assert_eq!((w.xp_per_week, w.xp_bonus, w.xp_total), (3, 160, 163));
        let w = run_job_week(
            job("Garrison"),
            &o,
            &mut ScriptedDice::new([6, 6, 6, 1, 1, 1, 1]),
        )
        .unwrap();
        assert_eq!(w.xp_per_week, 0);
        // Wizards have 2 a week of their own.
        let mut wiz = JobWeekOptions::new(Attributes {
            st: 10,
            dx: 10,
            iq: 12,
            sp: 0,
        });
        wiz.knows_aid = true;
        let w = run_job_week(&WIZARD_RANKS[2], &wiz, &mut ScriptedDice::new([3, 3, 3])).unwrap();
        assert_eq!((w.xp_per_week, w.pay.unwrap().total), (2, 5));
    }

    #[test]
    fn roll_to_find_both_sides_and_weeks() {
        // tft-house-rules.txt, "Roll to Find" and "Minimum Weeks": Garrison 2d/IQ, 1d weeks.
        let mut o = joe();
        o.looking_for_work = true;
        let w = run_job_week(
            job("Garrison"),
            &o,
            &mut ScriptedDice::new([4, 5, 3, 3, 3, 3]),
        )
        .unwrap();
        assert!(w.found);
        assert_eq!(w.min_weeks, Some((vec![3], 3)));
        let w = run_job_week(job("Garrison"), &o, &mut ScriptedDice::new([5, 5])).unwrap();
        assert!(!w.found && w.pay.is_none() && w.risk_faces.is_empty());
        // Mounted: IQ - 2 (so 9 no longer finds it at 7 either side); flying: one more die.
        o.mercenary.mount = Mount::Mounted;
        assert_eq!(find_roll(job("Garrison"), &o), Some((2, 7)));
        o.mercenary.mount = Mount::Flying;
        assert_eq!(find_roll(job("Garrison"), &o), Some((3, 9)));
        o.mercenary.mount = Mount::OnFoot;
        o.mercenary.rank = Some(OfficerRank::Captain);
        assert_eq!(find_roll(job("Active"), &o), Some((4, 8)));
        // Wizards have no roll to find.
        assert_eq!(find_roll(&WIZARD_RANKS[0], &o), None);
    }

    #[test]
    fn mercenary_bonuses_cap_and_mount() {
        // tft-house-rules.txt, "Mercenaries", Bonuses. Caravan: base $20, max $25, min ST+DX 28.
        let mut o = JobWeekOptions::new(Attributes {
            st: 15,
            dx: 18,
            iq: 10,
            sp: 0,
        });
        o.mercenary = MercenaryOptions {
            weapon_talents: 1,
            combat_talents: 2,
            ..MercenaryOptions::default()
        };
        let pay = |o: &JobWeekOptions| weekly_pay(job("Caravan"), o, &mut ScriptedDice::new([]));
        assert_eq!(pay(&o).total, 21); // ST+DX 33 is 5 over: +1
        o.attributes.dx = 17;
        assert_eq!(pay(&o).total, 20); // 4 over: nothing
        o.attributes.dx = 22;
        assert_eq!(pay(&o).total, 21); // 9 over: +1
        o.attributes.dx = 23;
        assert_eq!(pay(&o).total, 22); // 10 over: +2
        o.mercenary.combat_talents = 3;
        assert_eq!(pay(&o).total, 22); // one beyond the minimum: nothing yet
        o.mercenary.combat_talents = 4;
        assert_eq!(pay(&o).total, 23); // two beyond: +1
        o.mercenary.armor_points = 4;
        assert_eq!(pay(&o).total, 23);
        o.mercenary.armor_points = 5;
        assert_eq!(pay(&o).total, 24);
        o.mercenary.armor_points = 7;
        let p = pay(&o);
        assert_eq!((p.total, p.capped), (25, false));
        o.mercenary.rapid_fire_missile = true;
        o.mercenary.large_race = true;
        o.mercenary.wizard = true;
        let p = pay(&o);
        assert_eq!((p.bonuses, p.total, p.capped), (9, 25, true));
        assert_eq!(
            (wizard_combat_talents(1, 3), wizard_combat_talents(1, 4)),
            (2, 3)
        );
        o.mercenary.mount = Mount::Mounted;
        assert_eq!(pay(&o).total, 31); // 25 + 25%, rounded down
        o.mercenary.mount = Mount::Flying;
        assert_eq!(pay(&o).total, 37);
    }

    #[test]
    fn officers_pay_minimums_and_talents() {
        // tft-house-rules.txt, "Mercenary Officers": a sergeant of Guard 1 earns $10 base and up
        // to $15, needs ST+DX 28; a lieutenant needs Tactics.
        let mut o = JobWeekOptions::new(Attributes {
            st: 14,
            dx: 14,
            iq: 10,
            sp: 0,
        });
        o.mercenary = MercenaryOptions {
            rank: Some(OfficerRank::Sergeant),
            weapon_talents: 1,
            combat_talents: 1,
            ..MercenaryOptions::default()
        };
        let p = weekly_pay(job("Guard 1"), &o, &mut ScriptedDice::new([]));
        assert_eq!((p.base, p.max, p.total), (10, Some(15), 10));
        assert!(check_requirements(job("Guard 1"), &o).is_empty());
        o.attributes.st = 13;
        assert_eq!(
            check_requirements(job("Guard 1"), &o),
            vec![JobRequirement::StDx { needs: 28, has: 27 }]
        );
        o.mercenary.rank = Some(OfficerRank::Lieutenant);
        let err = run_job_week(job("Guard 1"), &o, &mut ScriptedDice::new([])).unwrap_err();
        assert_eq!(
            err,
            JobError::Requirements(vec![
                JobRequirement::StDx { needs: 30, has: 27 },
                JobRequirement::Talent(Talent::Tactics)
            ])
        );
        assert!(err.to_string().contains("needs the Tactics talent"));
        assert_eq!(provided_lifestyle(job("Guard 1"), &o), Lifestyle::LowMiddle);
        o.mercenary.rank = Some(OfficerRank::Captain);
        assert_eq!(provided_lifestyle(job("Guard 1"), &o), Lifestyle::Middle);
    }

    #[test]
    fn a_thiefs_rolls_without_the_row_risk_then_arrest_against_iq() {
        // tft-house-rules.txt, "Thieves": a 3d/IQ roll against arrest; a saving roll's automatic
        // results hold (3d: 5 or less succeeds, 16 or more fails, whatever the IQ).
        use crate::rules::tft::saves::SaveResult as R;
        let cases = [
            // (risk faces, arrest faces, IQ) → (risk roll, arrest result)
            ([6, 6, 5], [4, 4, 4], 12, 17, R::Success),
            ([1, 1, 1], [4, 4, 5], 12, 3, R::Failure),
            ([3, 3, 3], [6, 6, 6], 30, 9, R::AutomaticFailure),
            ([3, 3, 3], [6, 5, 5], 30, 9, R::AutomaticFailure),
            ([3, 3, 3], [5, 5, 5], 30, 9, R::Success),
            ([3, 3, 3], [1, 2, 2], 4, 9, R::AutomaticSuccess),
            ([3, 3, 3], [2, 2, 2], 4, 9, R::Failure),
        ];
        for (risk, arrest, iq, total, result) in cases {
            let mut dice = ScriptedDice::new(risk.into_iter().chain(arrest));
            let r = thief_rolls(iq, &mut dice);
            assert_eq!((r.risk_faces, r.risk_roll), (risk.to_vec(), total));
            assert_eq!(
                (r.arrest.target, r.arrest.result),
                (iq as i32, result),
                "{arrest:?} vs {iq}"
            );
            assert_eq!(dice.remaining(), 0);
        }
    }

    fn thief_job() -> Job {
        // The thieves' rows did not survive the scan; a GM-made thief job with risk 5/14 and a
        // cap of 15 stands in.
        Job {
            name: "Burglary",
            family: JobFamily::Thief,
            risk: Risk {
                special: 5,
                disaster: 14,
            },
            damage_fail: JobDamage {
                times: 2,
                dice: Dice::new(2, -1),
            },
            damage_save: JobDamage {
                times: 1,
                dice: Dice::new(1, 2),
            },
            risk_cap: Some(15),
            pay: PayRule::Fixed(10),
            ..MISC_JOBS[0]
        }
    }

    #[test]
    fn thieves_risk_reduction_and_arrest() {
        // tft-house-rules.txt, "Thieves": reductions raise the upper number up to the cap; after
        // a disaster a 3d/IQ roll avoids arrest.
        let mut o = JobWeekOptions::new(Attributes {
            st: 10,
            dx: 13,
            iq: 11,
            sp: 0,
        });
        o.talents = vec![
            Talent::Literacy,
            Talent::Alertness,
            Talent::Climbing,
            Talent::MasterThief,
            Talent::Spying,
        ];
        o.ma = 10;
        let job = Job {
            requires: &[],
            ..thief_job()
        };
        let w = run_job_week(&job, &o, &mut ScriptedDice::new([5, 5, 4])).unwrap();
        assert_eq!((w.disaster_at, w.risk_roll), (15, 14)); // 10 quarters: +2, capped at 15
        assert!(w.disaster.is_none());
        assert_eq!(w.pay.map(|p| (p.bonuses, p.total)), Some((5, 15))); // +$5 allowed of $5
        let w = run_job_week(
            &job,
            &o,
            &mut ScriptedDice::new([5, 5, 5, 3, 3, 3, 5, 4, 4, 4]),
        )
        .unwrap();
        assert!(w.disaster.is_some());
        let arrest = w.arrest.unwrap();
        assert_eq!((arrest.total, arrest.target), (12, 11));
        assert!(w.arrested && w.pay.is_none());
        let w = run_job_week(
            &job,
            &o,
            &mut ScriptedDice::new([5, 5, 5, 3, 3, 3, 5, 4, 4, 3]),
        )
        .unwrap();
        assert!(!w.arrested && w.pay.is_some());
    }

    #[test]
    fn misc_pay_rules() {
        // tft-house-rules.txt, "Miscellaneous Jobs".
        let mut o = JobWeekOptions::new(Attributes {
            st: 9,
            dx: 11,
            iq: 13,
            sp: 0,
        });
        o.talents = vec![Talent::Chemist];
        let pay = |name: &str, o: &JobWeekOptions, faces: &[u32]| {
            weekly_pay(job(name), o, &mut ScriptedDice::new(faces.to_vec())).total
        };
        assert_eq!(pay("Scribe", &o, &[]), 6);
        assert_eq!(pay("Scholar", &o, &[]), 13);
        assert_eq!(pay("Sage", &o, &[]), 26);
        assert_eq!(pay("Chemist", &o, &[]), 26);
        o.talents.push(Talent::Alchemist);
        assert_eq!(pay("Chemist", &o, &[]), 31);
        assert_eq!(pay("Master Healer", &o, &[1, 2, 3, 4]), 22);
        // Self-employed: +25% but at least $5, and a better lifestyle.
        o.self_employed = true;
        assert_eq!(pay("Scribe", &o, &[]), 11);
        assert_eq!(pay("Sage", &o, &[]), 32);
        assert_eq!(provided_lifestyle(job("Scribe"), &o), Lifestyle::LowMiddle);
        assert!(
            check_requirements(job("Scribe"), &o)
                .contains(&JobRequirement::Talent(Talent::Literacy))
        );
    }

    #[test]
    fn own_lodging_adds_a_third_of_a_known_cost() {
        // tft-house-rules.txt, "Lifestyle": a third of the provided lifestyle's total.
        let rich = Job {
            lifestyle: Lifestyle::High,
            requires: &[],
            ..MISC_JOBS[0]
        };
        let mut o = JobWeekOptions::new(Attributes {
            st: 9,
            dx: 11,
            iq: 12,
            sp: 0,
        });
        o.own_lodging = true;
        let p = weekly_pay(&rich, &o, &mut ScriptedDice::new([]));
        assert_eq!((p.lodging_extra, p.total), (Some(46), 52));
        let p = weekly_pay(
            &Job {
                requires: &[],
                ..MISC_JOBS[0]
            },
            &o,
            &mut ScriptedDice::new([]),
        );
        // A poor lifestyle ($30) adds $10.
        assert_eq!((p.lodging_extra, p.total), (Some(10), 16));
    }

    #[test]
    fn every_lifestyle_costs_its_room_and_board_and_a_third_rounds_down() {
        // tft-house-rules.txt, "Lifestyles" (the rows the scan displaced included): (lifestyle,
        // total, a third added to the pay when lodging on one's own, rounded down).
        use Lifestyle::{Bare, High, HighMiddle, LowMiddle, Middle, Poor, Subsistence, VeryHigh};
        let rows = [
            (Bare, None, None),
            (Subsistence, Some(15), Some(5)),
            (Poor, Some(30), Some(10)),
            (LowMiddle, Some(45), Some(15)),
            (Middle, Some(65), Some(21)),
            (HighMiddle, Some(100), Some(33)),
            (High, Some(140), Some(46)),
            (VeryHigh, Some(200), Some(66)),
        ];
        for (l, total, third) in rows {
            let c = lifestyle_cost(l);
            assert_eq!(c.total, total, "{l:?}");
            assert_eq!(c.total.map(|t| t / 3), third, "{l:?}");
            if let (Some(t), Some(r), Some(b)) = (c.total, c.room, c.board) {
                assert_eq!(r + b, t, "{l:?}: room and board make the total");
            }
        }
    }

    #[test]
    fn wizard_rank_requirements() {
        // tft-house-rules.txt, "Wizards": Neophyte needs IQ 9, ST+DX+IQ 32 and the Aid spell.
        let o = JobWeekOptions::new(Attributes {
            st: 10,
            dx: 10,
            iq: 12,
            sp: 0,
        });
        assert_eq!(
            check_requirements(&WIZARD_RANKS[2], &o),
            vec![JobRequirement::AidSpell]
        );
        let weak = JobWeekOptions::new(Attributes {
            st: 8,
            dx: 8,
            iq: 8,
            sp: 0,
        });
        assert_eq!(
            check_requirements(&WIZARD_RANKS[2], &weak),
            vec![
                JobRequirement::AttributeTotal { needs: 32, has: 24 },
                JobRequirement::Iq { needs: 9, has: 8 },
                JobRequirement::AidSpell,
            ]
        );
    }

    #[test]
    fn exact_risk_odds() {
        // 3d: 3..4 = 4 rolls, 17..18 = 4 rolls; War 1 (11/9): ≤11 = 135, ≥9 = 160, both 79.
        let o = risk_odds(4, 17);
        assert_eq!((o.special, o.disaster, o.both, o.outcomes), (4, 4, 0, 216));
        assert_eq!(o.bonus_halves_sum, 10 + 3 * 8);
        let war = MERCENARY_JOBS[5].risk;
        let o = risk_odds(war.special, war.disaster);
        assert_eq!((o.special, o.disaster, o.both), (135, 160, 79));
    }
}
