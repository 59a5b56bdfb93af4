//! `/tft job job [character] [looking] [weapon_talents] [combat_talents] [mode]`: one week of a
//! job for a character, every roll shown. Nothing is written to the sheet: the GM records the
//! experience and any hits.

use serde_json::json;

use super::shared::{faces, field, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::sheet::TftSheet;
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::campaign::{
    self, Job, JobFamily, JobWeek, JobWeekOptions, Lifestyle, MERCENARY_JOBS, MISC_JOBS,
    OfficerRank, WIZARD_RANKS, lifestyle_cost,
};
use crate::rules::tft::character::{Attributes, Talent};
use crate::rules::tft::gear;
use crate::rules::tft::saves::SaveOutcome;

/// The most talents of a kind accepted.
const MAX_TALENTS: i64 = 50;

/// A parsed `/tft job`.
#[derive(Debug, Clone)]
pub struct JobWeekCommand {
    job: &'static Job,
    character: Option<String>,
    looking: bool,
    weapon_talents: Option<u32>,
    combat_talents: Option<u32>,
    /// A mercenary officer's rank (tft-house-rules.txt, "Mercenary Officers").
    rank: Option<OfficerRank>,
    /// Arranges food and lodging: a third of the provided lifestyle's cost added to the pay.
    own_lodging: bool,
    /// Works from an own shop (tft-house-rules.txt, the jobs' notes on merchants).
    self_employed: bool,
    mode: RollMode,
}

impl JobWeekCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "job",
                "character",
                "looking",
                "weapon_talents",
                "combat_talents",
                "rank",
                "own_lodging",
                "self_employed",
                "mode",
            ],
        )?;
        let name = o.required("job")?;
        let job = campaign::job_by_name(name).ok_or_else(|| {
            user(format!(
                "There is no job called \"{}\"; the jobs are {}.",
                escape(name.trim()),
                job_names()
            ))
        })?;
        let rank = o
            .text("rank")
            .map(|r| match r.trim().to_ascii_lowercase().as_str() {
                "sergeant" => Ok(OfficerRank::Sergeant),
                "lieutenant" => Ok(OfficerRank::Lieutenant),
                "captain" => Ok(OfficerRank::Captain),
                _ => Err(user(format!(
                    "rank must be sergeant, lieutenant or captain; you gave \"{}\".",
                    escape(r.trim())
                ))),
            })
            .transpose()?;
        if rank.is_some() && job.family != JobFamily::Mercenary {
            return Err(user(format!(
                "rank is a mercenary officer's; {} is not a mercenary job, so nothing was rolled.",
                job.name
            )));
        }
        Ok(Self {
            job,
            rank,
            own_lodging: o.flag("own_lodging")?,
            self_employed: o.flag("self_employed")?,
            character: o.text("character").map(str::to_owned),
            looking: o.flag("looking")?,
            weapon_talents: o.int("weapon_talents", 0, MAX_TALENTS)?.map(|n| n as u32),
            combat_talents: o.int("combat_talents", 0, MAX_TALENTS)?.map(|n| n as u32),
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let opts = self.options(&sheet);
            let week = campaign::run_job_week(self.job, &opts, &mut ctx.dice()).map_err(|e| {
                user(format!(
                    "{} cannot work as {}: {e}.",
                    escape(&c.name),
                    self.job.name
                ))
            })?;
            let label = format!("a week as {}", self.job.name);
            ctx.log_roll(
                tx,
                Some(c.id),
                "tft job",
                self.mode,
                &label,
                &json!({
                    "job": self.job.name,
                    "found": week.found,
                    "risk_faces": week.risk_faces,
                    "risk_roll": week.risk_roll,
                    "special": week.special,
                    "disaster": week.disaster.as_ref().map(|d| d.damage),
                    "arrested": week.arrested,
                    "pay": week.pay.as_ref().map(|p| p.total),
                    "xp": week.xp_total,
                }),
            )?;
            let lodging = self
                .own_lodging
                .then(|| campaign::provided_lifestyle(self.job, &opts));
            Ok((
                label,
                Reply::public("").with_embed(render(&c.name, self.job, &week, lodging)),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }

    /// The worker as the job rules need it, from the sheet and the options.
    fn options(&self, sheet: &TftSheet) -> JobWeekOptions {
        let n = |v: i32| v.max(0) as u32;
        let mut opts = JobWeekOptions::new(Attributes {
            st: n(sheet.st),
            dx: n(sheet.dx),
            iq: n(sheet.iq),
            sp: n(sheet.sp),
        });
        opts.talents = sheet
            .talents
            .iter()
            .filter_map(|t| Talent::parse(t))
            .collect();
        opts.knows_aid = sheet
            .spells
            .iter()
            .any(|s| s.trim().eq_ignore_ascii_case("aid"));
        opts.looking_for_work = self.looking;
        opts.mercenary.rank = self.rank;
        opts.own_lodging = self.own_lodging;
        opts.self_employed = self.self_employed;
        let (weapons, combat) = talent_counts(sheet);
        // Decision: a sheet that lists spells is a wizard's; hiring out as a mercenary, it earns
        // the wizard's extra $1 and two of its spells count as one combat talent
        // (tft-house-rules.txt, "Wizards"). A combat_talents: given by hand is taken as is.
        opts.mercenary.wizard = !sheet.spells.is_empty();
        let combat = campaign::wizard_combat_talents(combat, sheet.spells.len() as u32);
        opts.mercenary.weapon_talents = self.weapon_talents.unwrap_or(weapons);
        opts.mercenary.combat_talents = self.combat_talents.unwrap_or(combat);
        opts.mercenary.armor_points = sheet
            .armor
            .as_deref()
            .and_then(|a| gear::armor(a).ok())
            .map_or(0, |a| a.stops.max(0) as u32);
        if let Some(ma) = sheet.ma {
            opts.ma = ma.max(0) as u32;
        }
        opts
    }
}

/// Every job's name, for the refusal.
fn job_names() -> String {
    MERCENARY_JOBS
        .iter()
        .chain(WIZARD_RANKS.iter())
        .chain(MISC_JOBS.iter())
        .map(|j| j.name)
        // The thieves' rows are lost in the scan; `job:thief` makes the rolls that are left
        // (`super::thief`).
        .chain(std::iter::once("thief"))
        .collect::<Vec<_>>()
        .join(", ")
}

// Decision: the jobs tables ask for "weapon" and "combat" talents without listing them. Weapon
// talents are the talents for a kind of weapon (and any sheet talent naming weapons, such as
// Missile Weapons); combat talents are every fighting talent, the weapon ones included. Either
// count can be given with weapon_talents: and combat_talents:.
const WEAPON_TALENTS: [Talent; 7] = [
    Talent::Sword,
    Talent::AxeMace,
    Talent::Bow,
    Talent::Crossbow,
    Talent::PoleWeapons,
    Talent::MissileWeapons,
    Talent::DaggerMarksmanship,
];
const OTHER_COMBAT_TALENTS: [Talent; 13] = [
    Talent::Shield,
    Talent::AdvancedShield,
    Talent::Fencing,
    Talent::Axeplay,
    Talent::PoleWeaponMaster,
    Talent::TwoWeapons,
    Talent::Acrobatics,
    Talent::Tactics,
    Talent::MilitaryDiscipline,
    Talent::Captain,
    Talent::Warrior,
    Talent::Veteran,
    Talent::Toughness,
];

/// (weapon talents, combat talents) on a sheet.
fn talent_counts(sheet: &TftSheet) -> (u32, u32) {
    let mut weapons = 0;
    let mut other = 0;
    for name in &sheet.talents {
        match Talent::parse(name) {
            Some(t) if WEAPON_TALENTS.contains(&t) => weapons += 1,
            Some(t) if OTHER_COMBAT_TALENTS.contains(&t) => other += 1,
            None if name.to_ascii_lowercase().contains("weapon") => weapons += 1,
            Some(_) | None => {}
        }
    }
    (weapons, weapons + other)
}

fn lifestyle_name(l: Lifestyle) -> &'static str {
    match l {
        Lifestyle::Bare => "bare",
        Lifestyle::Subsistence => "subsistence",
        Lifestyle::Poor => "poor",
        Lifestyle::LowMiddle => "low middle",
        Lifestyle::Middle => "middle",
        Lifestyle::HighMiddle => "high middle",
        Lifestyle::High => "high",
        Lifestyle::VeryHigh => "very high",
    }
}

fn save_text(s: &SaveOutcome) -> String {
    format!(
        "{}d: {} = {} against {}: {}",
        s.dice,
        faces(&s.faces),
        s.total,
        s.target,
        super::save::result_name(s.result).to_lowercase()
    )
}

fn week_fields(job: &Job, w: &JobWeek, own_lodging: Option<Lifestyle>) -> Vec<Field> {
    let mut fields = Vec::new();
    if let Some(find) = &w.find {
        fields.push(field("Roll to find", save_text(find), false));
    }
    if !w.found {
        return fields;
    }
    if let Some((f, total)) = &w.min_weeks {
        fields.push(field(
            "Least weeks",
            format!("{} = {total}", faces(f)),
            true,
        ));
    }
    let odds = campaign::risk_odds(job.risk.special, w.disaster_at);
    let percent = |ways: u64| format!("{:.1}%", ways as f64 * 100.0 / odds.outcomes as f64);
    fields.push(field(
        "Risk",
        format!(
            "3d: {} = {} (bonus at {} or less: {}; disaster at {} or more: {})",
            faces(&w.risk_faces),
            w.risk_roll,
            job.risk.special,
            percent(odds.special),
            w.disaster_at,
            percent(odds.disaster)
        ),
        false,
    ));
    if let Some(d) = &w.disaster {
        let rolls: Vec<String> = d
            .damage_rolls
            .iter()
            .map(|(f, t)| format!("{} = {t}", faces(f)))
            .collect();
        fields.push(field("Disaster save", save_text(&d.save), false));
        fields.push(field(
            "Damage",
            format!("{} → {} hits", rolls.join("; "), d.damage),
            false,
        ));
    }
    if let Some(a) = &w.arrest {
        fields.push(field("Arrest", save_text(a), false));
    }
    let pay = match &w.pay {
        Some(p) => {
            let mut text = format!("${}", p.total);
            let mut parts = Vec::new();
            if p.capped {
                parts.push("the job's most".to_owned());
            }
            if p.self_employed_extra > 0 {
                parts.push(format!("${} from an own shop", p.self_employed_extra));
            }
            match (p.lodging_extra, own_lodging) {
                (Some(extra), Some(l)) => parts.push(format!(
                    "${extra} for lodging on their own: a third of the {} lifestyle's {}",
                    lifestyle_name(l),
                    cost_text(l)
                )),
                (None, Some(l)) => parts.push(format!(
                    "nothing added for lodging on their own: the {} lifestyle has no cost in the tables",
                    lifestyle_name(l)
                )),
                _ => {}
            }
            if !parts.is_empty() {
                text = format!("{text} ({})", parts.join("; "));
            }
            text
        }
        None => "none (arrested)".to_owned(),
    };
    fields.push(field("Pay", pay, true));
    let xp = if w.xp_bonus > 0 {
        format!(
            "{} ({} a week + {} bonus)",
            w.xp_total, w.xp_per_week, w.xp_bonus
        )
    } else {
        w.xp_total.to_string()
    };
    fields.push(field("XP", xp, true));
    if let Some(l) = w.lifestyle {
        fields.push(field(
            "Lifestyle",
            format!("{} ({})", lifestyle_name(l), cost_text(l)),
            true,
        ));
    } else if own_lodging.is_some() {
        fields.push(field(
            "Lifestyle",
            "none provided: lodges on their own",
            true,
        ));
    }
    fields
}

/// A lifestyle's cost as the house rules' table gives it: "$30 (room $14, board $16)".
fn cost_text(lifestyle: Lifestyle) -> String {
    let cost = lifestyle_cost(lifestyle);
    match (cost.total, cost.room, cost.board) {
        (Some(total), Some(room), Some(board)) => {
            format!("${total}: room ${room}, board ${board}")
        }
        (Some(total), _, _) => format!("${total}"),
        _ => "no cost in the tables".to_owned(),
    }
}

/// The week's embed; `own_lodging`: the lifestyle the job would have given, when the worker lodges on their own.
fn render(name: &str, job: &Job, w: &JobWeek, own_lodging: Option<Lifestyle>) -> Embed {
    let (description, tone) = if !w.found {
        ("**No work found** this week.".to_owned(), Tone::Grey)
    } else if w.arrested {
        ("**Disaster, and arrested.**".to_owned(), Tone::Red)
    } else if w.disaster.is_some() {
        ("**Disaster.**".to_owned(), Tone::Red)
    } else if w.special {
        ("**A fine week**: bonus experience.".to_owned(), Tone::Black)
    } else {
        ("**A steady week.**".to_owned(), Tone::Green)
    };
    Embed {
        title: format!("{}: a week as {}", escape(name), job.name),
        description,
        tone: Some(tone),
        fields: week_fields(job, w, own_lodging),
        footer: Some(
            "Nothing was written to the sheet: record the XP and any hits yourself.".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talents_are_counted_by_kind() {
        let sheet = TftSheet {
            talents: vec![
                "Sword".into(),
                "Shield".into(),
                "Missile Weapons".into(),
                "Literacy".into(),
            ],
            ..TftSheet::default()
        };
        assert_eq!(talent_counts(&sheet), (2, 3));
    }

    #[test]
    fn a_wizard_counts_two_spells_as_one_combat_talent() {
        // tft-house-rules.txt, "Wizards": 2 spells count as 1 skill for a mercenary, and the
        // pay rises by $1. An odd spell counts nothing: 3 spells add 1, 4 add 2.
        let command = |combat: Option<u32>| JobWeekCommand {
            job: campaign::job_by_name("garrison").unwrap(),
            character: None,
            looking: false,
            weapon_talents: None,
            combat_talents: combat,
            rank: None,
            own_lodging: false,
            self_employed: false,
            mode: RollMode::Public,
        };
        for (spells, combat_talents, wizard) in [(0, 1, false), (3, 2, true), (4, 3, true)] {
            let sheet = TftSheet {
                talents: vec!["Sword".into()],
                spells: (0..spells).map(|i| format!("Spell {i}")).collect(),
                ..TftSheet::default()
            };
            let opts = command(None).options(&sheet);
            assert_eq!(
                opts.mercenary.combat_talents, combat_talents,
                "{spells} spells"
            );
            assert_eq!(opts.mercenary.wizard, wizard, "{spells} spells");
        }
        let sheet = TftSheet {
            spells: vec!["Aid".into(), "Blur".into()],
            ..TftSheet::default()
        };
        assert_eq!(command(Some(5)).options(&sheet).mercenary.combat_talents, 5);
    }

    #[test]
    fn job_names_list_every_family() {
        let names = job_names();
        assert!(names.starts_with("Garrison, "));
        assert!(names.contains("Probationer") && names.contains("Scribe"));
    }
}
