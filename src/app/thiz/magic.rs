//! `/magic cast|terror|learn`: manifesting an effect with a Magic Skill (and building it up over
//! several checks), the Terror of those who witness one, and the terms of learning a new Magic
//! Skill (THIZ rulebook, chapter 7 and the Magic Skills of chapter 2).
//!
//! Decisions:
//! - An extended casting is continued by naming the roll it continues (`continues:N`, the `#N` of
//!   its last check): the progress is read back from that roll's record, so nothing else is kept.
//!   It must be the same character, skill and target level, and not yet cast. A blind casting's
//!   progress is the GM's to see, so only a GM can continue one.
//! - `wounded:true` on a continued casting is the Willpower check a wound calls for: it is made
//!   before this turn's check, and a failure loses the progress held (the checks made, and so the
//!   reagent used, stay spent).
//! - A Necromancy check costs its Green wound on the Chest unless `location` says where.
//! - A Summoning roll of 96–100 is shown to whoever sees the roll: the creature's fury is not a
//!   secret the rulebook keeps.
//! - `/magic learn` answers the terms of study; `finished:true` (the study done) writes the skill
//!   at its starting rating and charges its 5 skill points then, refusing (and writing nothing)
//!   when fewer are unspent. The sheet keeps no course under way, so "one Magic Skill at a time"
//!   is the table's to keep.

use std::fmt::Write as _;

use super::hazard::{
    add_wound, check_record, check_text, embed_reply, field, has_quirk, save_wounds, unlucky_line,
    wound_text,
};
use super::record::{CastingRecord, MagicRecord, ThizRecord, parse_level, parse_wound_level};
use super::shared::{INPUT_LIMIT, int, level_text, mode, parse_location, tone};
use super::stats::{ThizChar, clamp_input};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Reply, Tone, Visibility};
use crate::app::screen;
use crate::app::text::escape;
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::thiz::advancement::Pace;
use crate::rules::thiz::hazards::ChartRoll;
use crate::rules::thiz::magic::{
    ExtendedCasting, NECROMANCY_WOUND, Student, casting_rating, learn_magic_skill, manifest,
    psychokinesis_attack_bonus, psychokinesis_momentum, summoning_backfires, terror_approach_check,
    terror_check, terror_penalty, void_touched_in_range,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::Quirk;
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::{Conn, RollId, advancement, characters, rolls};

/// The farthest a Void-Touched character may be said to stand, in feet.
pub const MAX_VOID_FEET: i64 = 10_000;

/// The subcommands of `/magic`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MagicArgs {
    /// `/magic cast skill level [character] [continues] [wounded] [void_touched] [location]
    /// [modifier] [mode]`.
    Cast {
        character: Option<String>,
        skill: String,
        required: Level,
        continues: Option<RollId>,
        wounded: bool,
        void_touched_feet: Option<u32>,
        location: Location,
        modifier: i32,
        mode: RollMode,
    },
    /// `/magic terror [level] [character] [approach] [modifier] [mode]`.
    Terror {
        character: Option<String>,
        witnessed: Option<Level>,
        approach: bool,
        modifier: i32,
        mode: RollMode,
    },
    /// `/magic learn skill tutor_rating [character] [pace] [finished]`.
    Learn {
        character: Option<String>,
        skill: String,
        tutor_rating: i32,
        pace: Pace,
        finished: bool,
    },
}

fn level(o: &Opts<'_>) -> AppResult<Option<Level>> {
    o.text("level")
        .map(|typed| {
            parse_wound_level(typed).ok_or_else(|| {
                user(format!(
                    "level must be green, yellow, red or black; you gave {}",
                    escape(typed.trim())
                ))
            })
        })
        .transpose()
}

fn pace(text: Option<&str>) -> AppResult<Pace> {
    Ok(
        match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
            None | Some("full_time") => Pace::FullTime,
            Some("on_the_road") => Pace::OnTheRoad,
            Some(other) => {
                return Err(user(format!(
                    "pace must be full_time or on_the_road; you gave {}",
                    escape(other)
                )));
            }
        },
    )
}

impl MagicArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str);
        let accepted: &[&str] = match sub {
            Some("cast") => &[
                "skill",
                "level",
                "character",
                "continues",
                "wounded",
                "void_touched",
                "location",
                "modifier",
                "mode",
            ],
            Some("terror") => &["level", "character", "approach", "modifier", "mode"],
            Some("learn") => &["skill", "tutor_rating", "character", "pace", "finished"],
            _ => &[],
        };
        if accepted.is_empty() || inv.path.len() != 2 {
            return Err(user(format!(
                "There is no command {}. /magic takes cast, target, terror or learn.",
                escape(&inv.display_path())
            )));
        }
        let o = Opts::new(inv, accepted)?;
        let character = o.text("character").map(str::to_owned);
        let modifier = || -> AppResult<i32> {
            Ok(int(o
                .int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?
                .unwrap_or(0)))
        };
        Ok(match sub {
            Some("cast") => {
                o.required("level")?;
                MagicArgs::Cast {
                    character,
                    skill: o.required("skill")?.trim().to_owned(),
                    required: level(&o)?.unwrap_or(Level::Green),
                    continues: o.int("continues", 1, i64::MAX)?.map(RollId),
                    wounded: o.flag("wounded")?,
                    void_touched_feet: o
                        .int("void_touched", 0, MAX_VOID_FEET)?
                        .map(|f| u32::try_from(f).unwrap_or(0)),
                    location: o
                        .text("location")
                        .map(parse_location)
                        .transpose()?
                        .unwrap_or(Location::Chest),
                    modifier: modifier()?,
                    mode: mode(&o)?,
                }
            }
            Some("terror") => {
                let witnessed = level(&o)?;
                let approach = o.flag("approach")?;
                if witnessed.is_none() && !approach {
                    return Err(user(
                        "/magic terror needs the level the witnessed effect needed (level:red), or approach:true for the check to move towards its source.",
                    ));
                }
                MagicArgs::Terror {
                    character,
                    witnessed,
                    approach,
                    modifier: modifier()?,
                    mode: mode(&o)?,
                }
            }
            _ => MagicArgs::Learn {
                character,
                skill: o.required("skill")?.trim().to_owned(),
                tutor_rating: int(o.required_int("tutor_rating", -INPUT_LIMIT, INPUT_LIMIT)?),
                pace: pace(o.text("pace"))?,
                finished: o.flag("finished")?,
            },
        })
    }
}

/// Runs `/magic …`.
pub(super) fn run(ctx: &Ctx<'_>, a: &MagicArgs) -> AppResult<Reply> {
    match a {
        MagicArgs::Cast { .. } => cast(ctx, a),
        MagicArgs::Terror {
            character,
            witnessed,
            approach,
            modifier,
            mode,
        } => terror(
            ctx,
            character.as_deref(),
            *witnessed,
            *approach,
            *modifier,
            *mode,
        ),
        MagicArgs::Learn {
            character,
            skill,
            tutor_rating,
            pace,
            finished,
        } => learn(
            ctx,
            character.as_deref(),
            skill,
            *tutor_rating,
            *pace,
            *finished,
        ),
    }
}

/// A Magic Skill as typed, or a clear refusal.
fn magic_skill(typed: &str) -> AppResult<SkillId> {
    let id = SkillId::parse(typed).map_err(|e| {
        user(format!(
            "Unknown skill: {}. Name a Magic Skill, like skill:Elementalism.{}",
            escape(&e.to_string()),
            crate::app::text::did_you_mean_skill(typed)
        ))
    })?;
    if !id.is_magic() {
        return Err(user(format!(
            "{} is not a Magic Skill: /magic takes Alchemy, Artifice, Druidism, Elementalism, Insight, Mentalism, Necromancy, Psychokinesis, Reiki, Shamanism or Summoning.",
            escape(&id.to_string())
        )));
    }
    Ok(id)
}

/// The progress an earlier check of the same casting left, read from its log record.
fn progress(
    ctx: &Ctx<'_>,
    conn: &Conn,
    id: RollId,
    tc: &ThizChar,
    skill: &str,
    required: Level,
) -> AppResult<ExtendedCasting> {
    let row = rolls::get(conn, ctx.caller.guild, id)?
        .ok_or_else(|| user(format!("There is no roll #{id} here.")))?;
    let json = if let Some(json) = row.public_json {
        json
    } else {
        let gm = ctx.gm().map_err(|_| {
            user(format!(
                "Roll #{id} was blind: only the GM can continue that casting."
            ))
        })?;
        rolls::secret(conn, gm, id)?
            .map(|s| s.result_json)
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("roll #{id}: no result")))?
    };
    let not_it = || {
        user(format!(
            "Roll #{id} is not a casting of {} by {} needing {}; continue the last check of the same casting.",
            escape(skill),
            escape(&tc.character.name),
            level_text(required)
        ))
    };
    let Some(ThizRecord::Magic(rec)) = ThizRecord::from_json(&json) else {
        return Err(not_it());
    };
    let Some(casting) = rec.casting.filter(|_| {
        rec.action == "cast"
            && rec.character_id == tc.character.id
            && rec.skill.as_deref() == Some(skill)
            && rec.required.as_deref().and_then(parse_level) == Some(required)
    }) else {
        return Err(not_it());
    };
    if casting.cast {
        return Err(user(format!(
            "Roll #{id} already cast the spell; a new casting starts without continues."
        )));
    }
    let mut spell = ExtendedCasting::new(required).map_err(|e| user(format!("{e}.")))?;
    spell.held = casting.held;
    spell.checks = casting.checks;
    Ok(spell)
}

/// "2× Green, 1× Yellow", or "nothing".
fn held_text(held: &[u32; 5]) -> String {
    let parts: Vec<String> = Level::ALL
        .iter()
        .zip(held)
        .filter(|(_, n)| **n > 0)
        .map(|(l, n)| format!("{n}× {l}"))
        .collect();
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(", ")
    }
}

#[allow(clippy::too_many_lines)] // one casting, read top to bottom
fn cast(ctx: &Ctx<'_>, a: &MagicArgs) -> AppResult<Reply> {
    let MagicArgs::Cast {
        character,
        skill,
        required,
        continues,
        wounded,
        void_touched_feet,
        location,
        modifier,
        mode,
    } = a
    else {
        return Err(AppError::Internal(anyhow::anyhow!("cast called for {a:?}")));
    };
    let (required, modifier, mode) = (*required, *modifier, *mode);
    if *wounded && continues.is_none() {
        return Err(user(
            "wounded:true is the Willpower check of a casting under way; name the roll it continues with continues:N.",
        ));
    }
    let id = magic_skill(skill)?;
    let skill_name = id.to_string();
    ctx.app.store.write(|tx| {
        let c = ctx.acting_character(tx, character.as_deref())?;
        // In a fight, each casting check takes the caster's turn (it builds up turn by turn).
        crate::app::encounter::hooks::thiz_act_before(ctx, tx, c.id)?;
        let tc = ThizChar::load(tx, c, "/magic cast")?;
        let who = escape(&tc.character.name);
        let rating = clamp_input(tc.base(&id)?.rating.0);
        let wound_penalty = tc.wounds.effects().skill_check(None);
        let adjust = modifier + wound_penalty;
        let void_nearby = void_touched_feet.is_some_and(void_touched_in_range);
        let mut spell = match continues {
            Some(prev) => progress(ctx, tx, *prev, &tc, &skill_name, required)?,
            None => ExtendedCasting::new(required).map_err(|e| user(format!("{e}.")))?,
        };
        let mut lines = Vec::new();
        let mut fields = Vec::new();
        let mut gm_lines = Vec::new();
        let mut sheet = tc.wounds.clone();
        let mut concentration = None;
        let mut progress_lost = false;
        let (roll, step) = {
            let mut dice = ctx.dice();
            if *wounded {
                let willpower = clamp_input(tc.base_of(SkillKind::Willpower)?.rating.0);
                let kept = spell.wounded(Rating(willpower.saturating_add(adjust)), &mut dice);
                let check = check_record(
                    &tc,
                    "Willpower to keep casting",
                    Some("Willpower"),
                    willpower,
                    (modifier, wound_penalty),
                    kept.check.roll,
                )?;
                fields.push(field(
                    "Willpower (wounded)",
                    screen::npc(
                        tc.character.npc,
                        check_text(&format!("Willpower {willpower}"), &check),
                    ),
                ));
                if let Some(line) = unlucky_line(&check, "for Willpower") {
                    gm_lines.push(line);
                }
                progress_lost = kept.progress_lost;
                lines.push(if progress_lost {
                    format!("The wound breaks {who}'s concentration: the progress is lost.")
                } else {
                    format!("{who} keeps their concentration through the wound.")
                });
                concentration = Some(check);
            }
            let skill_at = rating.saturating_add(adjust);
            let (roll, step): (ChartRoll, _) = if continues.is_some() {
                spell.check(skill_at, void_nearby, &mut dice)
            } else {
                let m = manifest(skill_at, required, void_nearby, &mut dice)
                    .map_err(|e| user(format!("{e}.")))?;
                (m.check, spell.record(m.check.level))
            };
            (roll, step)
        };
        let base = casting_rating(rating, void_nearby).0;
        let check = check_record(
            &tc,
            &skill_name,
            Some(&skill_name),
            base,
            (modifier, wound_penalty),
            roll.roll,
        )?;
        let mut base_text = format!("{} {rating}", escape(&skill_name));
        if void_nearby {
            base_text.push_str(" · Void-Touched nearby -2");
        }
        fields.push(field(
            "Casting",
            screen::npc(tc.character.npc, check_text(&base_text, &check)),
        ));
        if let Some(line) = unlucky_line(&check, "casting") {
            gm_lines.push(line);
        }
        let extended = continues.is_some() || !step.cast;
        if step.cast {
            lines.insert(
                0,
                format!(
                    "**Cast**: the effect needing a {} manifests.",
                    level_text(required)
                ),
            );
        } else {
            lines.insert(
                0,
                format!(
                    "**Not yet**: the effect needs a {}; {} rolled a {}.",
                    level_text(required),
                    who,
                    level_text(roll.level)
                ),
            );
        }
        if extended {
            let mut value = format!(
                "check {}; held: {}; reagent used: {}% of one casting",
                step.checks,
                held_text(&step.held),
                step.reagent_percent
            );
            let merged: Vec<String> = step.merged_into.iter().map(|l| l.to_string()).collect();
            if !merged.is_empty() {
                let _ = write!(value, "; pairs merged into {}", merged.join(", "));
            }
            fields.push(field("Extended casting", value));
        }
        let mut wound = None;
        if id.kind() == Some(SkillKind::Necromancy) {
            let w = add_wound(&mut sheet, *location, NECROMANCY_WOUND)?;
            lines.push(format!("Necromancy takes its toll: {}.", wound_text(&w)));
            wound = Some(w);
        }
        if id.kind() == Some(SkillKind::Summoning) && summoning_backfires(roll.roll) {
            lines.push(format!(
                "A roll of {}: whatever answers is maddened and will hunt {who} until one of them is dead.",
                roll.roll
            ));
        }
        if id.kind() == Some(SkillKind::Psychokinesis) {
            lines.extend(psychokinesis_line(roll.level, rating));
        }
        if wound.is_some() {
            save_wounds(ctx, tx, &tc, &sheet)?;
        }
        let roll_id = ctx.log_roll(
            tx,
            Some(tc.character.id),
            "magic cast",
            mode,
            "",
            &ThizRecord::Magic(MagicRecord {
                action: "cast".to_owned(),
                character_id: tc.character.id,
                character: tc.character.name.clone(),
                skill: Some(skill_name.clone()),
                required: Some(required.name().to_owned()),
                check,
                void_penalty: base - rating,
                casting: Some(CastingRecord {
                    held: step.held,
                    checks: step.checks,
                    cast: step.cast,
                    reagent_percent: step.reagent_percent,
                    continues: continues.map(|r| r.0),
                }),
                concentration,
                progress_lost,
                wound,
                terror_d4: None,
                terror_turns: None,
                touch: None,
            }),
        )?;
        if !step.cast {
            lines.push(format!(
                "To keep building it up next turn: /magic cast skill:{} level:{} continues:{roll_id}",
                escape(&skill_name),
                required.name().to_ascii_lowercase()
            ));
        }
        let title = format!("{who} casts with {}", escape(&skill_name));
        let tone = if step.cast { tone(required) } else { Tone::Grey };
        let full = embed_reply(title, &lines, tone, fields);
        let turn = crate::app::encounter::hooks::thiz_act_after(ctx, tx, tc.character.id)?;
        let full = crate::app::encounter::hooks::with_lines(full, mode, &turn);
        let what = format!("a casting by {who}");
        Ok(ctx.route(mode, &what, full).with_gm_lines(&gm_lines))
    })
}

/// Psychokinesis: the momentum this check's level moves, and the thrown-weapon bonus the skill
/// gives its practitioner (thiz-rulebook.md, chapter 2 "Psychokinesis").
// `/attack` adds the thrown-weapon bonus itself (a missile attack with a weapon marked `thrown`);
// each casting still says it, so a player learns what the skill gives.
fn psychokinesis_line(level: Level, rating: i32) -> Option<String> {
    let bonus = psychokinesis_attack_bonus(Some(rating), true);
    let momentum = psychokinesis_momentum(level)?;
    let mut line =
        format!("Psychokinesis {level}: a change of momentum of up to {momentum} ft·lb/s.");
    if bonus != 0 {
        let _ = write!(
            line,
            " Thrown weapons get +{bonus} to hit for a Psychokinetic."
        );
    }
    Some(line)
}

fn terror(
    ctx: &Ctx<'_>,
    character: Option<&str>,
    witnessed: Option<Level>,
    approach: bool,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let c = ctx.acting_character(tx, character)?;
        let tc = ThizChar::load(tx, c, "/magic terror")?;
        let who = escape(&tc.character.name);
        let willpower = clamp_input(tc.base_of(SkillKind::Willpower)?.rating.0);
        let wound_penalty = tc.wounds.effects().skill_check(None);
        let at = willpower.saturating_add(modifier + wound_penalty);
        let mut lines = Vec::new();
        let mut d4 = None;
        let mut turns = None;
        let (check, base_text, title, level) = if approach {
            let roll = terror_approach_check(at, &mut ctx.dice());
            let base = willpower - crate::rules::thiz::magic::TERROR_CHECK_PENALTY;
            let check = check_record(
                &tc,
                "Willpower to face the Terror",
                Some("Willpower"),
                base,
                (modifier, wound_penalty),
                roll.roll,
            )?;
            lines.push(if roll.level.is_success() {
                format!("{who} masters their Terror enough to move towards its source or target it.")
            } else {
                format!("{who} cannot bring themselves to it, and does nothing this turn.")
            });
            (
                check,
                format!("Willpower {willpower} · Terror -3"),
                format!("{who} faces their Terror"),
                roll.level,
            )
        } else {
            let required = witnessed.unwrap_or(Level::Green);
            let out = terror_check(at, required, &mut ctx.dice())
                .map_err(|e| user(format!("{e}.")))?;
            let penalty = terror_penalty(required);
            let check = check_record(
                &tc,
                "Willpower against Terror",
                Some("Willpower"),
                willpower - penalty,
                (modifier, wound_penalty),
                out.check.roll,
            )?;
            match out.terror {
                None => lines.push(format!("{who} keeps their nerve.")),
                Some(t) => {
                    d4 = Some(t.d4);
                    turns = Some(t.turns);
                    lines.push(format!(
                        "{who} is filled with Terror for {} turns (1 + d4 {}): {} to every check until it ends, and a Willpower check (approach:true) before moving towards its source or targeting it.",
                        t.turns, t.d4, -t.check_penalty
                    ));
                }
            }
            (
                check,
                format!(
                    "Willpower {willpower} · {} effect -{penalty}",
                    level_text(required)
                ),
                format!("{who} witnesses magic"),
                out.check.level,
            )
        };
        let fields = vec![field(
            "Willpower",
            screen::npc(tc.character.npc, check_text(&base_text, &check)),
        )];
        let gm_lines: Vec<String> = unlucky_line(&check, "for Willpower").into_iter().collect();
        let roll_id = ctx.log_roll(
            tx,
            Some(tc.character.id),
            "magic terror",
            mode,
            "",
            &ThizRecord::Magic(MagicRecord {
                action: if approach { "approach" } else { "terror" }.to_owned(),
                character_id: tc.character.id,
                character: tc.character.name.clone(),
                skill: None,
                required: witnessed.map(|l| l.name().to_owned()),
                check,
                void_penalty: 0,
                casting: None,
                concentration: None,
                progress_lost: false,
                wound: None,
                terror_d4: d4,
                terror_turns: turns,
                touch: None,
            }),
        )?;
        // A Terror check is a resolution check: luck may roll it again (chapter 10, "Luck").
        // An NPC's luck is the GM's secret: its button goes to the GM alone ([`screen`]).
        let mut reroll = crate::app::luck::button::reroll_button(roll_id);
        reroll.label = screen::npc(tc.character.npc, reroll.label);
        let full = embed_reply(title, &lines, tone(level), fields).with_button(reroll);
        let what = format!("a Terror check for {who}");
        Ok(ctx.route(mode, &what, full).with_gm_lines(&gm_lines))
    })
}

fn learn(
    ctx: &Ctx<'_>,
    character: Option<&str>,
    skill: &str,
    tutor_rating: i32,
    pace: Pace,
    finished: bool,
) -> AppResult<Reply> {
    let id = magic_skill(skill)?;
    let skill_name = id.to_string();
    ctx.app.store.write(|tx| {
        let c = ctx.acting_character(tx, character)?;
        let tc = ThizChar::load(tx, c, "/magic learn")?;
        let who = escape(&tc.character.name);
        if let Some(r) = tc.learned(&id) {
            return Err(user(format!(
                "{who} already knows {} (rating {r}); raise it with skill points instead.",
                escape(&skill_name)
            )));
        }
        let student = Student {
            already_studying_magic: false,
            void_touched: has_quirk(&tc, Quirk::VoidTouched),
            pace,
            quick_study: has_quirk(&tc, Quirk::QuickStudy),
        };
        let terms = learn_magic_skill(tutor_rating, student)
            .map_err(|e| user(format!("{who} cannot learn {}: {e}.", escape(&skill_name))))?;
        // thiz-rulebook.md, chapter 3 "Phobia": a fear of magic rules the Magic Skills out.
        if let Some(why) = super::situation::bar_reason(&tc, &id) {
            return Err(user(format!(
                "{who} cannot learn {}: it is ruled out by {}.",
                escape(&skill_name),
                escape(&why)
            )));
        }
        let study = terms.study;
        let mut how = format!("{} days", study.base_days);
        if study.travel_extra_days > 0 {
            let _ = write!(how, " + {} on the road", study.travel_extra_days);
        }
        if study.quick_study_saving_days > 0 {
            let _ = write!(how, " − {} Quick Study", study.quick_study_saving_days);
        }
        let (weeks, days) = study.weeks_and_days();
        let mut kept = advancement::get(tx, ctx.caller.guild, tc.character.id)?;
        let cost = i64::from(terms.cost);
        if finished && kept.skill_points < cost {
            return Err(user(format!(
                "{who} has {} unspent skill points; learning {} costs {cost}. Nothing was written.",
                kept.skill_points,
                escape(&skill_name)
            )));
        }
        let mut lines = vec![
            format!(
                "Cost: {} skill points ({who} has {} unspent).",
                terms.cost, kept.skill_points
            ),
            format!(
                "Study: every day with a tutor, {how} = {} days ({weeks} weeks {days} days); one Magic Skill at a time.",
                study.total_days
            ),
            format!(
                "Afterwards: {} at rating {}, and {} new Mental or Magical weakness.",
                escape(&skill_name),
                terms.starting_rating,
                terms.new_weaknesses
            ),
        ];
        if finished {
            // thiz-rulebook.md, chapter 7 "Learning New Magic Skills": the study ends with the
            // skill, bought like any new skill for its points (chapter 10).
            kept.skill_points -= cost;
            advancement::put(tx, ctx.caller.guild, tc.character.id, &kept)?;
            characters::set_skill(
                tx,
                ctx.caller.guild,
                tc.character.id,
                &skill_name,
                i64::from(terms.starting_rating),
            )?;
            lines.push(format!(
                "Written on the sheet: {} {}, for {cost} skill points ({} unspent). Add the weakness with /character set.",
                escape(&skill_name),
                terms.starting_rating,
                kept.skill_points
            ));
        }
        let reply = embed_reply(
            format!("{who} learns {}", escape(&skill_name)),
            &lines,
            Tone::Info,
            Vec::new(),
        );
        Ok(Reply {
            visibility: if tc.character.npc {
                Visibility::Ephemeral
            } else {
                Visibility::Public
            },
            ..reply
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::hazard::tests::{Refusal, seed_for};
    use super::super::record::sheet_from_rows;
    use super::super::testkit::Kit;
    use super::*;
    use crate::rules::thiz::resolve;
    use crate::store::CharacterId;

    fn mage(kit: &Kit, skill: &str, rating: i64) -> CharacterId {
        let id = kit.thiz("Mira", kit.player_id(), false);
        kit.skill(id, skill, rating);
        id
    }

    fn last(kit: &Kit) -> MagicRecord {
        match ThizRecord::from_json(&kit.last_roll_json().unwrap()) {
            Some(ThizRecord::Magic(rec)) => rec,
            other => panic!("{other:?}"),
        }
    }

    fn cast(kit: &Kit, opts: &[(&str, &str)]) -> Reply {
        kit.run(&kit.player(), &["magic", "cast"], opts)
    }

    /// thiz-rulebook.md, "Manifesting Magical Effects": the effect occurs at its level or better.
    #[test]
    fn an_effect_manifests_at_its_level_and_not_below() {
        for (level, manifests) in [(Level::Yellow, false), (Level::Red, true)] {
            let seed = seed_for(&[&|r| resolve(Rating(4), r) == level]);
            let kit = Kit::new(seed);
            mage(&kit, "Elementalism", 4);
            let reply = cast(&kit, &[("skill", "elementalism"), ("level", "red")]);
            let e = &reply.embeds[0];
            assert_eq!(e.description.contains("**Cast**"), manifests, "{e:?}");
            assert_eq!(
                e.description.contains("continues:1"),
                !manifests,
                "a failed casting says how to extend it: {e:?}"
            );
            let rec = last(&kit);
            assert_eq!(rec.check.base, 4);
            assert_eq!(rec.casting.unwrap().cast, manifests);
        }
    }

    /// thiz-rulebook.md, chapter 2 "Psychokinesis": 50, 100, 200, 400 ft·lb/s for Green to
    /// Black, nothing on a failure; +2 to thrown-weapon attacks for anyone with the skill.
    #[test]
    fn psychokinesis_says_the_momentum_its_level_moves() {
        for (level, says) in [
            (Level::Failure, None),
            (Level::Green, Some("up to 50 ft·lb/s")),
            (Level::Red, Some("up to 200 ft·lb/s")),
            (Level::Black, Some("up to 400 ft·lb/s")),
        ] {
            let seed = seed_for(&[&|r| resolve(Rating(4), r) == level]);
            let kit = Kit::new(seed);
            mage(&kit, "Psychokinesis", 4);
            let reply = cast(&kit, &[("skill", "psychokinesis"), ("level", "green")]);
            let text = &reply.embeds[0].description;
            match says {
                Some(s) => {
                    assert!(text.contains(s), "{level:?}: {text}");
                    assert!(text.contains("Thrown weapons get +2"), "{text}");
                }
                None => assert!(!text.contains("momentum"), "{text}"),
            }
        }
        assert_eq!(
            psychokinesis_line(Level::Green, 0).map(|l| l.contains("+2")),
            Some(false)
        );
    }

    /// thiz-rulebook.md, "Extended Casting", Bertold's example: Green, Yellow, Green make a Red,
    /// each check after the first costing a quarter more reagent.
    #[test]
    fn bertold_extends_a_casting_over_three_turns() {
        let seed = seed_for(&[
            &|r| resolve(Rating(4), r) == Level::Green,
            &|r| resolve(Rating(4), r) == Level::Yellow,
            &|r| resolve(Rating(4), r) == Level::Green,
        ]);
        let kit = Kit::new(seed);
        mage(&kit, "Artifice", 4);
        let first = cast(&kit, &[("skill", "Artifice"), ("level", "red")]);
        assert!(first.embeds[0].description.contains("Not yet"), "{first:?}");
        let second = cast(
            &kit,
            &[("skill", "Artifice"), ("level", "red"), ("continues", "1")],
        );
        let field = |r: &Reply| {
            r.embeds[0]
                .fields
                .iter()
                .find(|f| f.name == "Extended casting")
                .map(|f| f.value.clone())
                .unwrap_or_default()
        };
        assert!(
            field(&second).contains("held: 1× Green, 1× Yellow; reagent used: 125%"),
            "{second:?}"
        );
        let third = cast(
            &kit,
            &[("skill", "Artifice"), ("level", "red"), ("continues", "2")],
        );
        assert!(
            third.embeds[0].description.contains("**Cast**"),
            "{third:?}"
        );
        assert!(
            field(&third)
                .contains("reagent used: 150% of one casting; pairs merged into Yellow, Red"),
            "{third:?}"
        );
        assert_eq!(last(&kit).casting.unwrap().continues, Some(2));
        // A cast spell, another skill or another level cannot be continued.
        for (opts, want) in [
            (
                [("skill", "Artifice"), ("level", "red"), ("continues", "3")],
                "already cast",
            ),
            (
                [
                    ("skill", "Artifice"),
                    ("level", "black"),
                    ("continues", "2"),
                ],
                "not a casting of Artifice",
            ),
            (
                [("skill", "Artifice"), ("level", "red"), ("continues", "99")],
                "no roll #99",
            ),
        ] {
            let reply = cast(&kit, &opts);
            assert!(reply.content.contains(want), "{opts:?}: {reply:?}");
        }
        assert_eq!(kit.roll_count(), 3);
    }

    /// "Extended Casting": a wound calls for a Willpower check; failing it loses the progress.
    #[test]
    fn a_failed_willpower_check_after_a_wound_loses_the_progress() {
        let seed = seed_for(&[
            &|r| resolve(Rating(4), r) == Level::Green,
            &|r| resolve(Rating(0), r) == Level::Failure,
            &|r| resolve(Rating(4), r) == Level::Green,
        ]);
        let kit = Kit::new(seed);
        mage(&kit, "Artifice", 4);
        cast(&kit, &[("skill", "Artifice"), ("level", "yellow")]);
        let reply = cast(
            &kit,
            &[
                ("skill", "Artifice"),
                ("level", "yellow"),
                ("continues", "1"),
                ("wounded", "true"),
            ],
        );
        let e = &reply.embeds[0];
        assert!(e.description.contains("progress is lost"), "{e:?}");
        assert!(e.description.contains("Not yet"), "{e:?}");
        let rec = last(&kit);
        assert!(rec.progress_lost);
        assert_eq!(rec.casting.unwrap().held, [0, 1, 0, 0, 0]);
        let refused = cast(
            &kit,
            &[("skill", "Artifice"), ("level", "red"), ("wounded", "true")],
        );
        assert!(refused.content.contains("continues:N"), "{refused:?}");
    }

    /// Skills chapter, "Necromancy" and "Summoning"; chapter 3 "Void-Touched".
    #[test]
    fn necromancy_costs_a_green_wound_summoning_backfires_void_touched_hinders() {
        let seed = seed_for(&[&|r| r == 100]);
        let kit = Kit::new(seed);
        let id = mage(&kit, "Necromancy", 6);
        let reply = cast(
            &kit,
            &[
                ("skill", "Necromancy"),
                ("level", "green"),
                ("location", "gut"),
            ],
        );
        assert!(
            reply.embeds[0]
                .description
                .contains("a Green wound on the Gut"),
            "{reply:?}"
        );
        let sheet = sheet_from_rows(&kit.wounds(id)).unwrap();
        assert_eq!(sheet.at(Location::Gut).greens, 1);

        for (roll, backfires) in [(95, false), (96, true)] {
            let seed = seed_for(&[&|r| r == roll]);
            let kit = Kit::new(seed);
            mage(&kit, "Summoning", 6);
            let reply = cast(&kit, &[("skill", "Summoning"), ("level", "green")]);
            assert_eq!(
                reply.embeds[0].description.contains("maddened"),
                backfires,
                "{roll}: {reply:?}"
            );
        }

        for (feet, base) in [("20", 4), ("21", 6)] {
            let kit = Kit::new(1);
            mage(&kit, "Insight", 6);
            cast(
                &kit,
                &[
                    ("skill", "Insight"),
                    ("level", "green"),
                    ("void_touched", feet),
                ],
            );
            let rec = last(&kit);
            assert_eq!(rec.check.base, base, "{feet} feet");
        }
    }

    /// thiz-rulebook.md, "Terror": Willpower less 1 (Green) to 4 (Black); a failure brings
    /// 1 + d4 turns of Terror at -3.
    #[test]
    fn terror_at_the_witnessed_level() {
        for terrified in [false, true] {
            let seed = seed_for(&[&|r| resolve(Rating(1), r).is_success() != terrified]);
            let kit = Kit::new(seed);
            mage(&kit, "Willpower", 5);
            let reply = kit.run(&kit.player(), &["magic", "terror"], &[("level", "black")]);
            let e = &reply.embeds[0];
            assert_eq!(
                e.description.contains("filled with Terror"),
                terrified,
                "{e:?}"
            );
            let rec = last(&kit);
            assert_eq!(rec.check.base, 1);
            assert_eq!(rec.terror_turns.is_some(), terrified);
            if let (Some(turns), Some(d4)) = (rec.terror_turns, rec.terror_d4) {
                assert_eq!(turns, 1 + d4);
            }
        }
        let kit = Kit::new(2);
        mage(&kit, "Willpower", 5);
        kit.run(&kit.player(), &["magic", "terror"], &[("approach", "true")]);
        assert_eq!(last(&kit).check.base, 2);
        let bare = kit.run(&kit.player(), &["magic", "terror"], &[]);
        assert!(bare.content.contains("needs the level"), "{bare:?}");
    }

    /// thiz-rulebook.md, "Learning New Magic Skills": a tutor of 7 or more, 5 points, six months
    /// (a third more on the road), rating 1 and a new weakness; Void-Touched cannot learn.
    #[test]
    fn learning_a_magic_skill() {
        let kit = Kit::new(1);
        let id = mage(&kit, "Stealth", 3);
        let learn = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["magic", "learn"], opts);
        let weak = learn(&[("skill", "Druidism"), ("tutor_rating", "6")]);
        assert!(
            weak.content
                .contains("at least 7 in the Magic Skill; this one has 6"),
            "{weak:?}"
        );
        let terms = learn(&[("skill", "Druidism"), ("tutor_rating", "7")]);
        let text = terms.embeds[0].description.clone();
        assert!(
            text.contains("Cost: 5 skill points (Mira has 0 unspent)."),
            "{text}"
        );
        assert!(text.contains("= 180 days"), "{text}");
        let road = learn(&[
            ("skill", "Druidism"),
            ("tutor_rating", "7"),
            ("pace", "on_the_road"),
        ]);
        assert!(
            road.embeds[0].description.contains("= 240 days"),
            "{road:?}"
        );
        let mundane = learn(&[("skill", "Stealth"), ("tutor_rating", "9")]);
        assert!(mundane.content.contains("not a Magic Skill"), "{mundane:?}");
        let skills = |kit: &Kit| {
            kit.app
                .store
                .read(|c| characters::skills(c, crate::app::thiz::testkit::GUILD, id))
                .unwrap()
                .len()
        };
        assert_eq!(skills(&kit), 1, "terms alone write nothing");
        give_points(&kit, id, 5);
        learn(&[
            ("skill", "Druidism"),
            ("tutor_rating", "7"),
            ("finished", "true"),
        ]);
        assert_eq!(skills(&kit), 2);
        let again = learn(&[("skill", "Druidism"), ("tutor_rating", "7")]);
        assert!(
            again.content.contains("already knows Druidism"),
            "{again:?}"
        );
        // Chapter 3 "Phobia": a fear of magic rules every Magic Skill out (bars::PHOBIAS).
        kit.sheet(id, r#"{"weaknesses": ["Phobia (magic)"]}"#);
        give_points(&kit, id, 5);
        let afraid = learn(&[
            ("skill", "Insight"),
            ("tutor_rating", "9"),
            ("finished", "true"),
        ]);
        assert_eq!(
            afraid.content,
            "Mira cannot learn Insight: it is ruled out by a phobia of magic."
        );
        assert_eq!((skills(&kit), points(&kit, id)), (2, 5));
        kit.sheet(id, r#"{"weaknesses": [], "quirks": ["Void-Touched"]}"#);
        let void = learn(&[("skill", "Insight"), ("tutor_rating", "9")]);
        assert!(void.content.contains("Void-Touched"), "{void:?}");
        assert_eq!(kit.roll_count(), 0);
    }

    fn give_points(kit: &Kit, id: CharacterId, points: i64) {
        kit.app
            .store
            .write(|c| {
                advancement::put(
                    c,
                    crate::app::thiz::testkit::GUILD,
                    id,
                    &advancement::Advancement {
                        skill_points: points,
                        craft_json: None,
                    },
                )
            })
            .unwrap();
    }

    fn points(kit: &Kit, id: CharacterId) -> i64 {
        kit.app
            .store
            .read(|c| advancement::get(c, crate::app::thiz::testkit::GUILD, id))
            .unwrap()
            .skill_points
    }

    /// thiz-rulebook.md, chapter 7 "Learning New Magic Skills": the skill costs 5 skill points
    /// besides the tutor and the months. 4 unspent is refused with nothing written; 5 and 6
    /// learn it and leave 0 and 1.
    #[test]
    fn finishing_a_magic_skill_charges_five_points() {
        for (unspent, learns, left) in [(0, false, 0), (4, false, 4), (5, true, 0), (6, true, 1)] {
            let kit = Kit::new(1);
            let id = mage(&kit, "Stealth", 3);
            give_points(&kit, id, unspent);
            let reply = kit.run(
                &kit.player(),
                &["magic", "learn"],
                &[
                    ("skill", "Druidism"),
                    ("tutor_rating", "7"),
                    ("finished", "true"),
                ],
            );
            let known = kit
                .app
                .store
                .read(|c| characters::skills(c, crate::app::thiz::testkit::GUILD, id))
                .unwrap()
                .iter()
                .any(|s| s.skill == "Druidism");
            assert_eq!(known, learns, "{unspent}: {reply:?}");
            assert_eq!(points(&kit, id), left, "{unspent}");
            if learns {
                assert!(reply.all_text().contains("for 5 skill points"), "{reply:?}");
            } else {
                assert_eq!(reply.visibility, Visibility::Ephemeral, "{unspent}");
                assert!(
                    reply.content.contains(&format!(
                        "Mira has {unspent} unspent skill points; learning Druidism costs 5"
                    )),
                    "{reply:?}"
                );
            }
        }
    }

    #[test]
    fn refusals_change_nothing() {
        let kit = Kit::new(1);
        mage(&kit, "Elementalism", 4);
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "Elementalism", 4);
        let cases: [Refusal<'_>; 5] = [
            (
                "cast",
                &[
                    ("skill", "Elementalism"),
                    ("level", "red"),
                    ("character", "Bran"),
                ],
                "belongs to another player",
            ),
            (
                "cast",
                &[("skill", "Necromancy"), ("level", "red")],
                "cannot be used until it has been learned",
            ),
            (
                "cast",
                &[("skill", "Elementalism"), ("level", "failure")],
                "level must be green",
            ),
            (
                "cast",
                &[("skill", "Elementalism")],
                "needs the option level",
            ),
            (
                "learn",
                &[
                    ("skill", "Insight"),
                    ("tutor_rating", "7"),
                    ("pace", "slow"),
                ],
                "pace must be",
            ),
        ];
        for (sub, opts, want) in cases {
            let reply = kit.run(&kit.player(), &["magic", sub], opts);
            assert!(
                reply.content.contains(want),
                "{sub} {opts:?}: {}",
                reply.content
            );
        }
        assert_eq!(kit.roll_count(), 0);
    }
}
