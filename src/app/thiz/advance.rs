//! `/advance points|spend|train|craft|work|sleepless`: time between adventures at the table
//! (rules in `rules::thiz::advancement`).
//!
//! Owns the character's unspent skill points and the piece of work under way (the `advancement`
//! table, through `store::advancement`), spending points on the skills table, and the rolls of a
//! week's work, a crafting attempt and the Sleepless countdown. Awarding points and the Sleepless
//! roll are the GM's; the rest is the owner's or a GM's. Never decides a rule.

use serde::{Deserialize, Serialize};

use super::movement::{Planned, finish, has_quirk, load, pick};
use super::shared::{INPUT_LIMIT, int, level_text, mode, tone};
use super::situation::bar_reason;
use super::stats::{ThizChar, describe_base};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::thiz::advancement::{
    Craft, CraftState, Income, MAX_CRAFT_TARGET, MAX_SESSION_POINTS, NEW_SKILL_COST,
    NEW_SKILL_RATING, Pace, SPECIAL_BONUS, SkillUse, Study, can_tutor, craft_rating, raise_cost,
    session_award, sleepless_days, study_time, work_week,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::Quirk;
use crate::store::advancement::{self, Advancement};
use crate::store::characters;
use crate::store::{Conn, secrets};

/// The most weeks of work rolled at once.
pub const MAX_WEEKS: i64 = 12;
/// The longest time per crafting attempt, in the referee's unit.
pub const MAX_PERIOD: i64 = 365;
/// The most uses of one kind listed in an award.
pub const MAX_USES: i64 = 10;

/// What `/advance` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdvanceArgs {
    Points {
        character: String,
        attended: bool,
        uses: Vec<SkillUse>,
    },
    Spend {
        skill: String,
        character: Option<String>,
        rating: Option<i32>,
    },
    Train {
        study: Study,
        character: Option<String>,
        road: bool,
        tutor: Option<i32>,
    },
    Craft {
        skill: Option<String>,
        character: Option<String>,
        target: Option<(i32, u32)>,
        modifier: i32,
        mode: RollMode,
    },
    Work {
        skill: String,
        character: Option<String>,
        weeks: u32,
        modifier: i32,
        mode: RollMode,
    },
    Sleepless {
        character: String,
    },
}

fn count(o: &Opts<'_>, name: &str) -> AppResult<usize> {
    Ok(usize::try_from(o.int(name, 0, MAX_USES)?.unwrap_or(0)).unwrap_or_default())
}

impl AdvanceArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str).unwrap_or_default();
        let unknown = || {
            user(format!(
                "There is no command {}. /advance has points, spend, train, craft, work and sleepless.",
                escape(&inv.display_path())
            ))
        };
        if inv.path.len() != 2 {
            return Err(unknown());
        }
        let modifier = |o: &Opts<'_>| -> AppResult<i32> {
            Ok(int(o
                .int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?
                .unwrap_or(0)))
        };
        let character = |o: &Opts<'_>| o.text("character").map(str::to_owned);
        Ok(match sub {
            "points" => parse_points(inv)?,
            "spend" => {
                let o = Opts::new(inv, &["skill", "character", "rating"])?;
                AdvanceArgs::Spend {
                    skill: o.required("skill")?.trim().to_owned(),
                    character: character(&o),
                    rating: o.int("rating", 1, 30)?.map(int),
                }
            }
            "train" => {
                let o = Opts::new(inv, &["study", "character", "road", "tutor"])?;
                let studies = [
                    ("magic_skill", Study::NewMagicSkill),
                    ("magic_special", Study::MagicSpecial),
                    ("special", Study::MundaneSpecial),
                ];
                AdvanceArgs::Train {
                    study: pick(&o, "study", &studies)?.ok_or_else(|| {
                        user("/advance train needs the option study: magic_skill, magic_special or special.")
                    })?,
                    character: character(&o),
                    road: o.flag("road")?,
                    tutor: o.int("tutor", 0, 30)?.map(int),
                }
            }
            "craft" => {
                let o = Opts::new(
                    inv,
                    &["skill", "character", "target", "period", "modifier", "mode"],
                )?;
                let target = o.int("target", 1, i64::from(MAX_CRAFT_TARGET))?.map(int);
                let period = o.int("period", 1, MAX_PERIOD)?;
                if target.is_none() && period.is_some() {
                    return Err(user(
                        "period goes with a new piece's target: target:3 period:2.",
                    ));
                }
                AdvanceArgs::Craft {
                    skill: o.text("skill").map(|s| s.trim().to_owned()),
                    character: character(&o),
                    target: target.map(|t| (t, u32::try_from(period.unwrap_or(1)).unwrap_or(1))),
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "work" => {
                let o = Opts::new(inv, &["skill", "character", "weeks", "modifier", "mode"])?;
                AdvanceArgs::Work {
                    skill: o.required("skill")?.trim().to_owned(),
                    character: character(&o),
                    weeks: u32::try_from(o.int("weeks", 1, MAX_WEEKS)?.unwrap_or(1)).unwrap_or(1),
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "sleepless" => {
                let o = Opts::new(inv, &["character"])?;
                AdvanceArgs::Sleepless {
                    character: o.required("character")?.to_owned(),
                }
            }
            _ => return Err(unknown()),
        })
    }
}

fn parse_points(inv: &Invocation) -> AppResult<AdvanceArgs> {
    let o = Opts::new(
        inv,
        &[
            "character",
            "absent",
            "light",
            "moderate",
            "heavy",
            "untrained",
        ],
    )?;
    // Decision: attendance is the default (absent:true takes it away); moderate uses are listed
    // by their points since the referee picks 2, 3 or 4 for each.
    let mut uses = vec![SkillUse::Light; count(&o, "light")?];
    uses.extend(vec![SkillUse::Heavy; count(&o, "heavy")?]);
    uses.extend(vec![SkillUse::UntrainedSuccess; count(&o, "untrained")?]);
    for part in o.text("moderate").unwrap_or_default().split([',', ' ']) {
        if part.trim().is_empty() {
            continue;
        }
        let n: u32 = part.trim().parse().map_err(|_| {
            user(format!(
                "moderate lists the points of each moderate use, 2 to 4, like moderate:\"3,2\"; you gave {:?}",
                part.trim()
            ))
        })?;
        uses.push(SkillUse::Moderate(n));
    }
    Ok(AdvanceArgs::Points {
        character: o.required("character")?.to_owned(),
        attended: !o.flag("absent")?,
        uses,
    })
}

/// A piece of work under way, as kept in `advancement.craft_json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Work {
    skill: String,
    target: i32,
    remaining: i32,
    period: u32,
    attempts: u32,
}

impl Work {
    fn of(id: &SkillId, piece: &Craft) -> Work {
        Work {
            skill: id.to_string(),
            target: piece.target,
            remaining: piece.remaining,
            period: piece.period,
            attempts: piece.attempts,
        }
    }

    fn to_json(&self) -> AppResult<String> {
        Ok(serde_json::to_string(self).map_err(anyhow::Error::from)?)
    }
}

fn field(name: &str, value: String) -> Field {
    Field {
        name: name.to_owned(),
        value,
        inline: false,
    }
}

fn info(title: String, description: String, fields: Vec<Field>) -> Reply {
    Reply::public("").with_embed(Embed {
        title,
        description,
        tone: Some(Tone::Info),
        fields,
        footer: None,
    })
}

/// Runs `/advance …`.
pub(super) fn run(ctx: &Ctx<'_>, a: &AdvanceArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| match a {
        AdvanceArgs::Points {
            character,
            attended,
            uses,
        } => award(ctx, tx, character, *attended, uses),
        AdvanceArgs::Spend {
            skill,
            character,
            rating,
        } => spend(ctx, tx, skill, character.as_deref(), *rating),
        AdvanceArgs::Train {
            study,
            character,
            road,
            tutor,
        } => {
            if let Some(t) = tutor.filter(|t| !can_tutor(*t)) {
                return Err(user(format!(
                    "A tutor needs a rating of at least 7 in what they teach; {t} is too low."
                )));
            }
            let tc = load(ctx, tx, character.as_deref())?;
            let pace = if *road { Pace::OnTheRoad } else { Pace::FullTime };
            let quick = has_quirk(&tc, Quirk::QuickStudy);
            let t = study_time(*study, pace, quick);
            let (weeks, days) = t.weeks_and_days();
            let what = match study {
                Study::NewMagicSkill => "a new Magic Skill (it starts at 1, with a new weakness)",
                Study::MagicSpecial => "a Special in a Magic Skill",
                Study::MundaneSpecial => "a Special in a skill",
            };
            let mut fields = vec![field(
                "Time",
                format!(
                    "{} days with a tutor · on the road +{} · Quick Study −{}",
                    t.base_days, t.travel_extra_days, t.quick_study_saving_days
                ),
            )];
            // Chapter 10 "Training": a Special is usually +3 to one narrow use of the skill.
            if *study != Study::NewMagicSkill {
                fields.push(field(
                    "Afterwards",
                    format!(
                        "record it with /character set field:specials value:\"Skill: its use\"; /check situation:special adds its +{SPECIAL_BONUS}"
                    ),
                ));
            }
            Ok(info(
                format!("{}: studying {what}", escape(&tc.character.name)),
                format!("**{} days** ({weeks} weeks and {days} days)", t.total_days),
                fields,
            ))
        }
        AdvanceArgs::Craft {
            skill,
            character,
            target,
            modifier,
            mode,
        } => craft(ctx, tx, skill.as_deref(), character.as_deref(), *target, *modifier, *mode),
        AdvanceArgs::Work {
            skill,
            character,
            weeks,
            modifier,
            mode,
        } => work(ctx, tx, skill, character.as_deref(), *weeks, *modifier, *mode),
        AdvanceArgs::Sleepless { character } => {
            let proof = ctx.gm()?;
            let c = ctx.find_character(tx, character)?;
            let tc = ThizChar::load(tx, c, "/advance sleepless")?;
            let roll = sleepless_days(&mut ctx.dice());
            secrets::set_hidden(tx, proof, tc.character.id, "sleepless", &roll.days.to_string())?;
            let record = super::record::ActionRecord {
                action: "sleepless".to_owned(),
                character_id: Some(tc.character.id),
                character: Some(tc.character.name.clone()),
                checks: Vec::new(),
                dice: vec![roll.die],
                outcome: format!("{} days", roll.days),
            };
            // Decision: logged blind, so the roll sits in the hidden table; the countdown itself is
            // the hidden value `sleepless`, which `/luck spend kind:rouse` and `/gm hidden` read.
            ctx.log_roll(
                tx,
                Some(tc.character.id),
                "advance",
                RollMode::Blind,
                "",
                &super::record::ThizRecord::Advance(record),
            )?;
            Ok(Reply::ephemeral(format!(
                "{} lasts {} days before a full night's sleep (1d8+4, d8 {}); kept as the hidden value sleepless.",
                escape(&tc.character.name),
                roll.days,
                roll.die
            )))
        }
    })
}

/// `/advance points` (GM): a session's award added to the unspent points.
fn award(
    ctx: &Ctx<'_>,
    tx: &Conn,
    character: &str,
    attended: bool,
    uses: &[SkillUse],
) -> AppResult<Reply> {
    ctx.gm()?;
    let tc = load(ctx, tx, Some(character))?;
    let award = session_award(attended, uses).map_err(|e| user(format!("{e}.")))?;
    let mut kept = advancement::get(tx, ctx.caller.guild, tc.character.id)?;
    kept.skill_points = kept.skill_points.saturating_add(i64::from(award.total));
    advancement::put(tx, ctx.caller.guild, tc.character.id, &kept)?;
    // Decision: an award closes a session (thiz-rulebook.md, chapter 10), so it counts one more
    // session played: from then on /character validate checks what advancement allows instead
    // of the creation limits.
    let mut sheet = tc.sheet.clone();
    sheet.sessions = sheet.sessions.saturating_add(1);
    characters::set_sheet(
        tx,
        ctx.caller.guild,
        tc.character.id,
        &crate::app::sheet::Sheet::Thiz(sheet).to_json(),
    )?;
    let capped = if award.uncapped > award.total {
        format!(
            " ({} earned; a session gives at most {MAX_SESSION_POINTS})",
            award.uncapped
        )
    } else {
        String::new()
    };
    Ok(info(
        format!("{}: skill points", escape(&tc.character.name)),
        format!(
            "**+{}**{capped} · {} unspent",
            award.total, kept.skill_points
        ),
        vec![field(
            "Award",
            format!(
                "attendance {} · uses {}",
                award.attendance,
                if award.per_use.is_empty() {
                    "none".to_owned()
                } else {
                    award
                        .per_use
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" + ")
                }
            ),
        )],
    ))
}

/// `/advance work`: weeks of work, a check each.
fn work(
    ctx: &Ctx<'_>,
    tx: &Conn,
    skill: &str,
    character: Option<&str>,
    weeks: u32,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let tc = load(ctx, tx, character)?;
    let p = skill_plan(&tc, skill, modifier)?;
    let mut outs = Vec::new();
    let mut lines = Vec::new();
    let mut best = Income::Stables;
    for week in 1..=weeks {
        let w = work_week(p.rating(), &mut ctx.dice());
        let out = p.outcome(w.check)?;
        lines.push(format!(
            "week {week}: d100 {} → {} · {}",
            out.roll,
            level_text(out.level),
            income_text(w.income)
        ));
        best = best.max(w.income);
        outs.push(out);
    }
    let records = outs.iter().map(|o| p.record(&tc, o)).collect();
    let last = outs
        .last()
        .map_or(crate::rules::thiz::Level::Failure, |o| o.level);
    finish(
        ctx,
        tx,
        mode,
        &tc,
        "work",
        records,
        Vec::new(),
        &lines.join("; "),
        Embed {
            title: format!("{}: {weeks} week(s) of work", escape(&tc.character.name)),
            description: format!("Best week: **{}**", income_text(best)),
            tone: Some(tone(last)),
            fields: vec![field(
                &p.subject,
                format!("{}\n{}", p.base_text(), lines.join("\n")),
            )],
            footer: None,
        },
        &outs,
    )
}

fn income_text(income: Income) -> &'static str {
    match income {
        Income::Stables => "a week on hay in the stables",
        Income::CommonRoom => "gruel and a common room",
        Income::PrivateRoom => "decent meals and a private room",
        Income::Lavish => "lavish meals and a private room",
        Income::Feasts => "feasts and a suite",
    }
}

/// A skill as typed, parsed.
fn parse_skill(skill: &str) -> AppResult<SkillId> {
    SkillId::parse(skill).map_err(|e| {
        user(format!(
            "Unknown skill: {}. Name it as on the sheet, like skill:\"Trade (Carpentry)\".{}",
            escape(&e.to_string()),
            crate::app::text::did_you_mean_skill(skill)
        ))
    })
}

/// A check on a named skill (the better of it and its general rating, untrained −5 where due).
fn skill_plan(tc: &ThizChar, skill: &str, modifier: i32) -> AppResult<Planned> {
    let id = parse_skill(skill)?;
    let base = tc.base(&id)?;
    let name = id.to_string();
    Ok(Planned::new(
        tc,
        &name,
        describe_base(&name, &base),
        base.rating.0,
        modifier,
        tc.wounds.effects().skill_check(None),
    ))
}

/// `/advance spend`: raise a known skill, or learn a new mundane one, from unspent points.
fn spend(
    ctx: &Ctx<'_>,
    tx: &Conn,
    skill: &str,
    character: Option<&str>,
    rating: Option<i32>,
) -> AppResult<Reply> {
    let tc = load(ctx, tx, character)?;
    let id = parse_skill(skill)?;
    let name = id.to_string();
    // thiz-rulebook.md, chapter 3 "Phobia" and "Tin Ear" (and the other bars of
    // `rules::thiz::bars`): a skill the sheet rules out cannot be learnt, nor raised, since it
    // could never be tested.
    if let Some(why) = bar_reason(&tc, &id) {
        return Err(user(format!(
            "{} cannot {} {}: it is ruled out by {}. No points were spent.",
            escape(&tc.character.name),
            if tc.learned(&id).is_some() {
                "raise"
            } else {
                "learn"
            },
            escape(&name),
            escape(&why)
        )));
    }
    let (cost, from, to) = match tc.learned(&id) {
        Some(from) => {
            let to = rating.unwrap_or(from.saturating_add(1));
            let cost = raise_cost(from, to).map_err(|e| user(format!("{e}.")))?;
            (cost, Some(from), to)
        }
        // Decision: a new Magic Skill costs its 5 points like any new skill (thiz-rulebook.md,
        // chapter 7 "Learning New Magic Skills") but also a tutor of 7 and months of study, which
        // this command cannot check; `/magic learn … finished:true` checks the tutor and charges
        // the points, so the skill is sent there.
        None if id.is_magic() => {
            return Err(user(format!(
                "{} is a Magic Skill: it needs a tutor and months of study besides its {NEW_SKILL_COST} points; when the study is done, /magic learn skill:{} tutor_rating:N finished:true charges the points and writes it.",
                escape(&name),
                escape(&name)
            )));
        }
        None => {
            if rating.is_some_and(|r| r != NEW_SKILL_RATING) {
                return Err(user(format!(
                    "A new skill starts at {NEW_SKILL_RATING}; leave rating out or give rating:1."
                )));
            }
            (NEW_SKILL_COST, None, NEW_SKILL_RATING)
        }
    };
    let mut kept = advancement::get(tx, ctx.caller.guild, tc.character.id)?;
    if kept.skill_points < i64::from(cost) {
        return Err(user(format!(
            "{} has {} unspent skill points; that costs {cost}.",
            escape(&tc.character.name),
            kept.skill_points
        )));
    }
    kept.skill_points -= i64::from(cost);
    advancement::put(tx, ctx.caller.guild, tc.character.id, &kept)?;
    characters::set_skill(tx, ctx.caller.guild, tc.character.id, &name, i64::from(to))?;
    let change = match from {
        Some(f) => format!("{f} → {to}"),
        None => format!("learnt at {to}"),
    };
    Ok(info(
        format!("{}: {}", escape(&tc.character.name), escape(&name)),
        format!(
            "**{change}** for {cost} points · {} unspent",
            kept.skill_points
        ),
        Vec::new(),
    ))
}

/// `/advance craft`: start a piece (with target) or go on with the one under way; one attempt.
#[allow(clippy::too_many_arguments)]
fn craft(
    ctx: &Ctx<'_>,
    tx: &Conn,
    skill: Option<&str>,
    character: Option<&str>,
    target: Option<(i32, u32)>,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let tc = load(ctx, tx, character)?;
    let mut kept: Advancement = advancement::get(tx, ctx.caller.guild, tc.character.id)?;
    let under_way: Option<Work> = kept
        .craft_json
        .as_deref()
        .and_then(|j| serde_json::from_str(j).ok());
    let (skill_name, mut piece) = match (target, under_way) {
        (Some((t, period)), _) => {
            let skill = skill.ok_or_else(|| {
                user("A new piece needs the skill it is made with: skill:\"Trade (Carpentry)\".")
            })?;
            let piece = Craft::new(t, period).map_err(|e| user(format!("{e}.")))?;
            (skill.to_owned(), piece)
        }
        (None, Some(w)) => {
            let mut piece = Craft::new(w.target, w.period).map_err(|e| user(format!("{e}.")))?;
            piece.remaining = w.remaining;
            piece.attempts = w.attempts;
            (w.skill, piece)
        }
        (None, None) => {
            return Err(user(format!(
                "{} has no work under way: start one with target:N (and period:N, skill:…).",
                escape(&tc.character.name)
            )));
        }
    };
    let id = parse_skill(&skill_name)?;
    // Decision: crafting is the work of an Artisan, Trade or Profession skill (the untrained -5
    // names these three); one piece is under way per character, and a new target replaces it.
    if !(id.is(SkillKind::Artisan) || id.is(SkillKind::Trade) || id.is(SkillKind::Profession)) {
        return Err(user(format!(
            "Crafting uses an Artisan, Trade or Profession skill; {} is none of those.",
            escape(&id.to_string())
        )));
    }
    let general = tc.generals.get(id.general());
    let r = craft_rating(tc.learned(&id), general);
    let text = match tc.learned(&id) {
        Some(_) => format!("{} {}", id, r.rating),
        None => format!(
            "{} {general} untrained -{}",
            id.general().name(),
            r.untrained_penalty
        ),
    };
    let p = Planned::new(
        &tc,
        &id.to_string(),
        text,
        r.rating.0,
        modifier,
        tc.wounds.effects().skill_check(None),
    );
    let (chart, step) = piece.attempt(p.rating(), &mut ctx.dice());
    let out = p.outcome(chart)?;
    let state = match step.state {
        CraftState::InProgress => format!("{} to go", step.remaining),
        CraftState::Complete => "finished".to_owned(),
        CraftState::Exceptional => "finished: an exceptional piece".to_owned(),
    };
    // A finished piece is forgotten; one under way is kept for the next attempt.
    kept.craft_json = if step.state == CraftState::InProgress {
        Some(Work::of(&id, &piece).to_json()?)
    } else {
        None
    };
    advancement::put(tx, ctx.caller.guild, tc.character.id, &kept)?;
    finish(
        ctx,
        tx,
        mode,
        &tc,
        "craft",
        vec![p.record(&tc, &out)],
        Vec::new(),
        &state,
        Embed {
            title: format!("{}: crafting", escape(&tc.character.name)),
            description: format!(
                "**{}** — {} point(s) · {state}",
                level_text(out.level),
                step.points
            ),
            tone: Some(tone(out.level)),
            fields: vec![
                field(&p.subject, p.line(&out)),
                field(
                    "Progress",
                    format!(
                        "target {} · attempt {} · {} period(s) spent",
                        piece.target, piece.attempts, step.elapsed
                    ),
                ),
            ],
            footer: None,
        },
        &[out],
    )
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{GUILD, Kit};
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::dice::{DieSource, SeededDice};
    use crate::store::CharacterId;
    use crate::store::secrets::GmProof;

    fn points(kit: &Kit, id: CharacterId) -> i64 {
        kit.app
            .store
            .read(|c| advancement::get(c, GUILD, id))
            .unwrap()
            .skill_points
    }

    fn skills(kit: &Kit, id: CharacterId) -> Vec<(String, i64)> {
        kit.app
            .store
            .read(|c| characters::skills(c, GUILD, id))
            .unwrap()
            .into_iter()
            .map(|s| (s.skill, s.rating))
            .collect()
    }

    /// An award closes a session: from then on validate checks advancement, not the creation
    /// cap of 5 per skill (thiz-rulebook.md, chapters 1 and 10).
    #[test]
    fn an_award_ends_creation_for_validate() {
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Swimming", 7);
        let validate = |kit: &Kit| {
            kit.run(
                &kit.player(),
                &["character", "validate"],
                &[("name", "Vexa")],
            )
            .all_text()
        };
        let before = validate(&kit);
        assert!(
            before.contains("Swimming"),
            "the creation cap flags 7: {before}"
        );
        kit.run(
            &kit.gm(),
            &["advance", "points"],
            &[("character", "Vexa"), ("light", "1")],
        );
        let after = validate(&kit);
        assert!(
            !after.contains("Swimming"),
            "in play, 7 is allowed: {after}"
        );
        let show = kit
            .run(&kit.player(), &["character", "show"], &[("name", "Vexa")])
            .all_text();
        assert!(show.contains("Sessions played: 1"), "{show}");
    }

    #[test]
    fn the_gm_awards_points_capped_at_ten_and_players_cannot() {
        // "The Benefits of Experience": 1 for attending, 5 per heavy use, at most 10.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let opts = [("character", "Vexa"), ("heavy", "2")];
        let refused = kit.run(&kit.player(), &["advance", "points"], &opts);
        assert_eq!(refused.visibility, Visibility::Ephemeral);
        assert_eq!(points(&kit, vexa), 0);
        let award = kit.run(&kit.gm(), &["advance", "points"], &opts);
        assert!(award.all_text().contains("11 earned"), "{award:?}");
        assert_eq!(points(&kit, vexa), 10);
        kit.run(
            &kit.gm(),
            &["advance", "points"],
            &[
                ("character", "Vexa"),
                ("moderate", "3,2"),
                ("absent", "true"),
            ],
        );
        assert_eq!(points(&kit, vexa), 15);
        let bad = kit.run(
            &kit.gm(),
            &["advance", "points"],
            &[("character", "Vexa"), ("moderate", "5")],
        );
        assert!(bad.content.contains("2, 3 or 4"), "{bad:?}");
        assert_eq!(points(&kit, vexa), 15);
    }

    #[test]
    fn spending_raises_a_point_per_rating_and_learns_for_five() {
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Stealth", 3);
        let spend = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["advance", "spend"], opts);
        let poor = spend(&[("skill", "Stealth")]);
        assert!(
            poor.content
                .contains("has 0 unspent skill points; that costs 1")
        );
        kit.run(
            &kit.gm(),
            &["advance", "points"],
            &[("character", "Vexa"), ("heavy", "1")],
        );
        assert_eq!(points(&kit, vexa), 6);
        spend(&[("skill", "Stealth"), ("rating", "5")]);
        assert_eq!(points(&kit, vexa), 4);
        let short = spend(&[("skill", "Climbing")]);
        assert!(short.content.contains("costs 5"), "{short:?}");
        kit.run(&kit.gm(), &["advance", "points"], &[("character", "Vexa")]);
        spend(&[("skill", "Climbing")]);
        assert_eq!(points(&kit, vexa), 0);
        let mut got = skills(&kit, vexa);
        got.sort();
        assert_eq!(got, [("Climbing".to_owned(), 1), ("Stealth".to_owned(), 5)]);
        let down = spend(&[("skill", "Stealth"), ("rating", "4")]);
        assert!(down.content.contains("only be raised"), "{down:?}");
    }

    /// thiz-rulebook.md, chapter 3 "Phobia" (a fear of heights precludes Climbing, of water
    /// Swimming) and "Tin Ear" (no skill of the musical arts): `/advance spend` refuses them with
    /// the reason and spends nothing, and still sells the skills next to them.
    #[test]
    fn spending_refuses_what_a_phobia_or_tin_ear_rules_out() {
        let cases = [
            ("Phobia (heights)", "Climbing", Some("a phobia of heights")),
            ("Phobia (heights)", "Swimming", None),
            ("Phobia (water)", "Swimming", Some("a phobia of water")),
            ("Phobia (water)", "Climbing", None),
            ("Tin Ear", "Artisan (Music)", Some("the Tin Ear weakness")),
            ("Tin Ear", "Artisan (Goldsmithing)", None),
        ];
        for (weakness, skill, barred) in cases {
            let kit = Kit::new(1);
            let vexa = kit.thiz("Vexa", kit.player_id(), false);
            kit.sheet(vexa, &format!(r#"{{"weaknesses": ["{weakness}"]}}"#));
            kit.run(
                &kit.gm(),
                &["advance", "points"],
                &[("character", "Vexa"), ("heavy", "1")],
            );
            let reply = kit.run(&kit.player(), &["advance", "spend"], &[("skill", skill)]);
            if let Some(why) = barred {
                assert_eq!(reply.visibility, Visibility::Ephemeral, "{skill}");
                assert_eq!(
                    reply.content,
                    format!(
                        "Vexa cannot learn {}: it is ruled out by {why}. No points were spent.",
                        escape(skill)
                    )
                );
                assert_eq!(points(&kit, vexa), 6, "{weakness} {skill}");
                assert!(skills(&kit, vexa).is_empty(), "{weakness} {skill}");
            } else {
                assert_eq!(points(&kit, vexa), 1, "{weakness} {skill}: {reply:?}");
                assert_eq!(skills(&kit, vexa), [(skill.to_owned(), 1)]);
            }
        }
        // A barred skill already on the sheet is not raised either.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Climbing", 2);
        kit.sheet(vexa, r#"{"weaknesses": ["Phobia (heights)"]}"#);
        kit.run(
            &kit.gm(),
            &["advance", "points"],
            &[("character", "Vexa"), ("light", "1")],
        );
        let reply = kit.run(
            &kit.player(),
            &["advance", "spend"],
            &[("skill", "Climbing")],
        );
        assert!(
            reply.content.starts_with("Vexa cannot raise Climbing"),
            "{reply:?}"
        );
        assert_eq!(points(&kit, vexa), 2);
        assert_eq!(skills(&kit, vexa), [("Climbing".to_owned(), 2)]);
    }

    #[test]
    fn study_time_with_a_tutor() {
        // "Training": a tutor needs 7; a new Magic Skill takes 6 months, a third more on the
        // road, a third less for Quick Study.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let train = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["advance", "train"], opts);
        let weak = train(&[("study", "special"), ("tutor", "6")]);
        assert!(weak.content.contains("at least 7"));
        let ok = train(&[("study", "special"), ("tutor", "7"), ("road", "true")]);
        assert!(
            description(&ok).contains("80 days** (11 weeks and 3 days)"),
            "{ok:?}"
        );
        kit.sheet(vexa, r#"{"quirks": ["Quick Study"]}"#);
        let quick = train(&[("study", "magic_skill")]);
        assert!(description(&quick).contains("120 days"), "{quick:?}");
        // Chapter 10 "Training": a Special's +3 is reachable, and the reply says how.
        assert!(!quick.all_text().contains("field:specials"), "{quick:?}");
        assert!(
            ok.all_text()
                .contains("/check situation:special adds its +3"),
            "{ok:?}"
        );
    }

    fn description(reply: &Reply) -> String {
        reply
            .embeds
            .first()
            .map(|e| e.description.clone())
            .unwrap_or_default()
    }

    #[test]
    fn crafting_goes_on_until_the_target_is_spent() {
        // "Crafting": 1-4 points for Green-Black; done at zero; the work is kept between attempts.
        // Untrained Trade: Mental 0 - 5. A first d100 that fails at -5 keeps all the target.
        let seed = (0..10_000u64)
            .find(|s| {
                let mut d = SeededDice::new(*s);
                !crate::rules::thiz::resolve(crate::rules::thiz::Rating(-5), d.d100()).is_success()
            })
            .unwrap();
        let kit = Kit::new(seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let craft = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["advance", "craft"], opts);
        let none = craft(&[]);
        assert!(none.content.contains("no work under way"));
        let not_craft = craft(&[("skill", "Stealth"), ("target", "3")]);
        assert!(not_craft.content.contains("Artisan, Trade or Profession"));
        assert_eq!(kit.roll_count(), 0);
        let first = craft(&[
            ("skill", "Trade (Carpentry)"),
            ("target", "3"),
            ("period", "2"),
        ]);
        assert!(description(&first).contains("3 to go"), "{first:?}");
        let kept = kit
            .app
            .store
            .read(|c| advancement::get(c, GUILD, vexa))
            .unwrap();
        assert!(kept.craft_json.unwrap().contains("\"attempts\":1"));
        // Trained at 30, every roll but 100 succeeds; the piece is soon done and forgotten.
        kit.skill(vexa, "Trade (Carpentry)", 30);
        for _ in 0..3 {
            if kit
                .app
                .store
                .read(|c| advancement::get(c, GUILD, vexa))
                .unwrap()
                .craft_json
                .is_none()
            {
                break;
            }
            craft(&[]);
        }
        let done = kit
            .app
            .store
            .read(|c| advancement::get(c, GUILD, vexa))
            .unwrap();
        assert!(done.craft_json.is_none(), "{done:?}");
    }

    #[test]
    fn weeks_of_work_and_the_secret_sleepless_roll() {
        let kit = Kit::new(4);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Profession (Surgery)", 4);
        let work = kit.run(
            &kit.player(),
            &["advance", "work"],
            &[("skill", "Profession (Surgery)"), ("weeks", "3")],
        );
        assert_eq!(
            work.embeds[0].fields[0].value.lines().count(),
            4,
            "{work:?}"
        );
        let refused = kit.run(
            &kit.player(),
            &["advance", "sleepless"],
            &[("character", "Vexa")],
        );
        assert_eq!(refused.visibility, Visibility::Ephemeral);
        let rolls = kit.roll_count();
        let gm = kit.run(
            &kit.gm(),
            &["advance", "sleepless"],
            &[("character", "Vexa")],
        );
        assert_eq!(gm.visibility, Visibility::Ephemeral);
        assert_eq!(kit.roll_count(), rolls + 1);
        let days: u32 = kit
            .app
            .store
            .read(|c| secrets::hidden(c, GmProof::verified(GUILD), vexa, "sleepless"))
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        assert!((5..=12).contains(&days));
        assert!(gm.content.contains(&format!("lasts {days} days")));
    }
}
