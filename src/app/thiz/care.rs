//! `/wound dying|firstaid|surgery` and the dying button: a dying character's Toughness checks, and
//! the checks that stabilise and heal them (thiz-rulebook.md, "Damage" and "Recovering from
//! Damage").
//!
//! Each roll is one transaction: read the characters, refuse what the rules or permissions do not
//! allow (nothing changes, nothing is logged), roll, write the condition or the wounds, log the
//! roll. Decisions:
//! - A character is dying when a Black wound on Head, Chest or Gut incapacitates them and they
//!   are not recorded stable or unconscious (see `rules::thiz::wounds::current_condition`). One
//!   dying check is one combat turn's (the Decision in `rules::thiz::wounds::dying_check`): the
//!   GM or the owner calls for each, by command or by the button the reply offers while the
//!   character is still dying.
//! - First Aid stabilises only the dying; the healer must be able to act. Triage Specialist's +3
//!   applies to First Aid and Surgery alike: the bot records only combat wounds.
//! - Surgery's "day" is the patient's own day count, moved on by each day of `/wound rest`
//!   (`ThizChar::day`): one wound per location per day of the patient's, whatever the calendar
//!   says, because a session can cover weeks or a day can span sessions. Only a healed wound uses
//!   up its location for the day.
//! - Without a `mode`, these rolls are public for player characters and go to the caller alone
//!   (still logged) when an NPC takes part, as `/wound rest` does.
//!
//! Seam: the dying button ([`dying_button`]) is also put on the `encounter`'s status message and
//! on a `luck` reroll that leaves a character dying.

use std::fmt::Write as _;

use super::record::{DyingRecord, ThizRecord, TreatmentRecord, rows_from_sheet};
use super::shared::{level_text, row_text, tone};
use super::stats::{ThizChar, clamp_input, describe_base};
use crate::app::invocation::RollMode;
use crate::app::reply::{Button, Embed, Field, Reply};
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::thiz::chart;
use crate::rules::thiz::skills::{BaseRating, SkillId, SkillKind};
use crate::rules::thiz::traits::{Quirk, Weakness, unlucky_mishap};
use crate::rules::thiz::wounds::{
    Condition, DamageKind, DyingOutcome, SurgeryDay, WoundError, condition_after, dying_check,
    first_aid, surgery,
};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::characters::{self, Character};
use crate::store::{CharacterId, Conn, conditions};

/// The prefix of a dying button's custom id: `dying:<character id>`.
pub const DYING_BUTTON: &str = "dying:";

/// The button that rolls the next dying check of `character` (owner, or GM for an NPC).
pub fn dying_button(character: CharacterId) -> Button {
    Button {
        custom_id: format!("{DYING_BUTTON}{}", character.0),
        label: "Dying check".to_owned(),
        disabled: false,
    }
}

/// Reads a dying button's custom id; `None` when it is not one.
pub fn parse_dying_button(id: &str) -> Option<AppResult<CharacterId>> {
    let rest = id.trim().strip_prefix(DYING_BUTTON)?;
    Some(
        rest.parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .map(CharacterId)
            .ok_or_else(|| user("That button is no longer valid; use /wound dying instead.")),
    )
}

/// Who a dying check is for: a name typed, or the id a button carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Patient {
    Named(String),
    Button(CharacterId),
}

/// The mode asked for, else public, or self when an NPC takes part.
fn mode_for(asked: Option<RollMode>, npc: bool) -> RollMode {
    asked.unwrap_or(if npc {
        RollMode::SelfOnly
    } else {
        RollMode::Public
    })
}

/// The character a dying button names, if the presser may act for them. A character that is
/// gone answers as a stale button; an NPC's button, which the channel sees on an attack or the
/// encounter's status, is the GM's, and a player is told so without its name or numbers.
fn pressed(ctx: &Ctx<'_>, conn: &Conn, id: CharacterId) -> AppResult<Character> {
    let stale = || user("That button is no longer valid; use /wound dying instead.");
    let c = characters::by_id(conn, ctx.caller.guild, id)?.ok_or_else(stale)?;
    if !ctx.can_see(&c) {
        return Err(user(
            "That dying check is the GM's button: it is for a figure the GM plays, and only a GM rolls it. Nothing was rolled.",
        ));
    }
    if !ctx.can_act(&c) {
        return Err(user(format!(
            "{} belongs to another player; only they or a GM can roll their dying checks.",
            escape(&c.name)
        )));
    }
    Ok(c)
}

/// Why `tc` cannot be the subject of a dying check or First Aid: they are not dying.
fn not_dying(tc: &ThizChar, what: &str) -> AppError {
    let who = escape(&tc.character.name);
    match tc.condition() {
        Some(Condition::Dead) => user(format!("{who} is dead; {what} cannot help.")),
        Some(c @ (Condition::Stable | Condition::Unconscious)) => user(format!(
            "{who} is {} and not dying; {what} is only for the dying.",
            c.name()
        )),
        Some(Condition::Dying) | None => user(format!(
            "{who} is not dying (no Black wound on the Head, Chest or Gut); {what} is only for the dying."
        )),
    }
}

/// "Toughness 3 · wounds -4 → -1".
fn rating_line(base: &str, penalty: i32, bonus: Option<(&str, i32)>, rating: i32) -> String {
    let mut s = base.to_owned();
    if penalty != 0 {
        let _ = write!(s, " · wounds {}", signed(penalty));
    }
    if let Some((name, b)) = bonus.filter(|(_, b)| *b != 0) {
        let _ = write!(s, " · {name} {}", signed(b));
    }
    let _ = write!(s, " → {rating}");
    s
}

/// The embed of one of these rolls: the outcome, the d100, the rating and the chart row. The row
/// is read at the roller's rating: an NPC's is the GM's (`app::screen`).
fn roll_embed(
    title: String,
    description: String,
    (rating, npc): (i32, bool),
    roll: u32,
    level: Level,
) -> Embed {
    let row = chart::row(Rating(rating));
    Embed {
        title,
        description,
        tone: Some(tone(level)),
        fields: vec![
            Field {
                name: "Roll".to_owned(),
                value: format!("d100: {roll} → {}", level_text(level)),
                inline: true,
            },
            Field {
                name: "Row".to_owned(),
                value: screen::npc(npc, row_text(row)),
                inline: false,
            },
        ],
        footer: None,
    }
}

fn with_rating(mut embed: Embed, rating: String, npc: bool) -> Embed {
    embed.fields.insert(
        1,
        Field {
            name: "Rating".to_owned(),
            value: screen::npc(npc, rating),
            inline: true,
        },
    );
    embed
}

/// The rating of a healer's skill: its base, the healer's wound penalty, and Triage Specialist.
struct Skill {
    base: BaseRating,
    text: String,
    penalty: i32,
    triage: bool,
}

impl Skill {
    fn of(tc: &ThizChar, id: &SkillId) -> AppResult<Skill> {
        let base = tc.base(id)?;
        let penalty = tc.check_penalty(id.kind(), None)?;
        let triage = tc
            .sheet
            .quirks
            .iter()
            .any(|q| Quirk::from_entry(q) == Some(Quirk::TriageSpecialist));
        Ok(Skill {
            text: describe_base(&escape(&id.to_string()), &base),
            base,
            penalty,
            triage,
        })
    }

    /// The rating before Triage Specialist, kept within ±40.
    fn rating(&self) -> i32 {
        clamp_input(self.base.rating.0 + self.penalty)
    }
}

/// Unlucky (thiz-rulebook.md, "Unlucky"): 98–100 on any check of the character's flags a mishap
/// to the GM alone.
fn unlucky(tc: &ThizChar, roll: u32, what: &str) -> Vec<String> {
    unlucky_mishap(tc.has_weakness(Weakness::Unlucky), roll)
        .then(|| {
            format!(
                "Unlucky: {} rolled {roll} {what}, a mishap is due whatever the level.",
                escape(&tc.character.name)
            )
        })
        .into_iter()
        .collect()
}

fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("{e}"))
}

/// `/wound dying character [mode]` and the dying button: one Toughness check of a dying character.
pub(super) fn dying(ctx: &Ctx<'_>, patient: &Patient, mode: Option<RollMode>) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let c = match patient {
            Patient::Named(name) => ctx.acting_character(tx, Some(name))?,
            Patient::Button(id) => pressed(ctx, tx, *id)?,
        };
        let tc = ThizChar::load(tx, c, "/wound dying")?;
        if tc.condition() != Some(Condition::Dying) {
            return Err(not_dying(&tc, "a dying check"));
        }
        let who = escape(&tc.character.name);
        let mode = mode_for(mode, tc.character.npc);
        let toughness = tc.base_of(SkillKind::Toughness)?;
        let penalty = tc.check_penalty(Some(SkillKind::Toughness), None)?;
        let rating = clamp_input(toughness.rating.0 + penalty);
        let check = dying_check(Rating(rating), &mut ctx.dice());
        let now = condition_after(check.outcome);
        conditions::set(tx, ctx.caller.guild, tc.character.id, Some(now.name()))?;
        let outcome = match check.outcome {
            DyingOutcome::Dies => "dies",
            DyingOutcome::StillDying => "still dying",
            DyingOutcome::Stable => "stable",
        };
        let roll_id = ctx.log_roll(
            tx,
            Some(tc.character.id),
            "wound dying",
            mode,
            "",
            &ThizRecord::Dying(DyingRecord {
                character_id: tc.character.id,
                character: tc.character.name.clone(),
                toughness: toughness.rating.0,
                wound_penalty: penalty,
                rating,
                roll: check.roll,
                level: check.level.name().to_owned(),
                outcome: outcome.to_owned(),
            }),
        )?;
        let description = match check.outcome {
            DyingOutcome::Dies => format!("**{who} dies.**"),
            DyingOutcome::StillDying => {
                format!("**{who} is still dying**: another check next turn, unless First Aid stabilises them.")
            }
            DyingOutcome::Stable => format!("**{who} is stable**: no more dying checks."),
        };
        let embed = roll_embed(
            format!("{who}: dying check"),
            description,
            (rating, tc.character.npc),
            check.roll,
            check.level,
        );
        let base = describe_base("Toughness", &toughness);
        let mut full = Reply::public("").with_embed(with_rating(
            embed,
            rating_line(&base, penalty, None, rating),
            tc.character.npc,
        ));
        if now == Condition::Dying {
            full = full.with_button(dying_button(tc.character.id));
        }
        // The dying check is a resolution check: luck may roll it again (chapter 10, "Luck").
        // An NPC's luck is the GM's secret: its button goes to the GM alone ([`screen`]).
        let mut reroll = crate::app::luck::button::reroll_button(roll_id);
        reroll.label = screen::npc(tc.character.npc, reroll.label);
        full = full.with_button(reroll);
        Ok(ctx
            .route(mode, &format!("a dying check for {who}"), full)
            .with_gm_lines(&unlucky(&tc, check.roll, "on a dying check")))
    })
}

/// Loads the patient (any character the caller may see) and the healer (one the caller acts for,
/// able to act), refusing a TFT character of either side.
fn patient_and_healer(
    ctx: &Ctx<'_>,
    tx: &Conn,
    patient: &str,
    healer: &str,
    command: &str,
) -> AppResult<(ThizChar, ThizChar)> {
    let h = ctx.acting_character(tx, Some(healer))?;
    let p = ctx.find_character(tx, patient)?;
    let healer = ThizChar::load(tx, h, command)?;
    let patient = ThizChar::load(tx, p, command)?;
    healer.able_to_act()?;
    Ok((patient, healer))
}

/// `/wound firstaid character healer [mode]`: any success stabilises a dying patient.
pub(super) fn firstaid(
    ctx: &Ctx<'_>,
    patient: &str,
    healer: &str,
    mode: Option<RollMode>,
) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let (pt, ht) = patient_and_healer(ctx, tx, patient, healer, "/wound firstaid")?;
        if pt.condition() != Some(Condition::Dying) {
            return Err(not_dying(&pt, "First Aid"));
        }
        let (pn, hn) = (escape(&pt.character.name), escape(&ht.character.name));
        let mode = mode_for(mode, pt.character.npc || ht.character.npc);
        let id = SkillId::single(SkillKind::FirstAid).map_err(internal)?;
        let skill = Skill::of(&ht, &id)?;
        let aid = first_aid(Rating(skill.rating()), skill.triage, &mut ctx.dice());
        if aid.stabilised {
            conditions::set(
                tx,
                ctx.caller.guild,
                pt.character.id,
                Some(Condition::Stable.name()),
            )?;
        }
        ctx.log_roll(
            tx,
            Some(ht.character.id),
            "wound firstaid",
            mode,
            "",
            &ThizRecord::FirstAid(
                treatment(&ht, &pt, &skill, aid.rating.0, aid.roll, aid.level)
                    .with_first_aid(aid.stabilised),
            ),
        )?;
        let description = if aid.stabilised {
            format!("**{hn} stabilises {pn}**: no more dying checks.")
        } else {
            format!("**{hn} fails to stabilise {pn}**, who is still dying.")
        };
        let embed = roll_embed(
            format!("{hn} gives {pn} First Aid"),
            description,
            (aid.rating.0, ht.character.npc),
            aid.roll,
            aid.level,
        );
        let line = rating_line(
            &skill.text,
            skill.penalty,
            Some(("Triage Specialist", aid.triage_bonus)),
            aid.rating.0,
        );
        let mut full = Reply::public("").with_embed(with_rating(embed, line, ht.character.npc));
        if !aid.stabilised {
            full = full.with_button(dying_button(pt.character.id));
        }
        Ok(ctx
            .route(mode, &format!("First Aid on {pn}"), full)
            .with_gm_lines(&unlucky(&ht, aid.roll, "for First Aid")))
    })
}

/// A treatment's log record, without the First Aid or Surgery details.
fn treatment(
    healer: &ThizChar,
    patient: &ThizChar,
    skill: &Skill,
    rating: i32,
    roll: u32,
    level: Level,
) -> TreatmentRecord {
    TreatmentRecord {
        healer_id: healer.character.id,
        healer: healer.character.name.clone(),
        patient_id: patient.character.id,
        patient: patient.character.name.clone(),
        skill: skill.base.rating.0,
        wound_penalty: skill.penalty,
        triage_bonus: if skill.triage {
            crate::rules::thiz::wounds::TRIAGE_SPECIALIST_BONUS
        } else {
            0
        },
        rating,
        roll,
        level: level.name().to_owned(),
        stabilised: None,
        location: None,
        healed: None,
        day: None,
    }
}

impl TreatmentRecord {
    fn with_first_aid(self, stabilised: bool) -> Self {
        TreatmentRecord {
            stabilised: Some(stabilised),
            ..self
        }
    }
}

/// `/wound surgery character surgeon [location] [mode]`: Knowledge (Surgery) heals a wound of the
/// colour rolled, one per location per day of the patient's.
pub(super) fn surgery_on(
    ctx: &Ctx<'_>,
    patient: &str,
    surgeon: &str,
    location: Option<Location>,
    mode: Option<RollMode>,
) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let (pt, st) = patient_and_healer(ctx, tx, patient, surgeon, "/wound surgery")?;
        let (pn, sn) = (escape(&pt.character.name), escape(&st.character.name));
        if pt.condition() == Some(Condition::Dead) {
            return Err(user(format!("{pn} is dead; Surgery cannot help.")));
        }
        match location {
            Some(l) if pt.wounds.at(l).count() == 0 => {
                return Err(user(format!("{pn} has no wound on the {l} to treat.")));
            }
            None if pt.wounds.is_empty() => {
                return Err(user(format!("{pn} has no wounds to treat.")));
            }
            _ => {}
        }
        let mut day = SurgeryDay::with_treated(
            conditions::treated(tx, ctx.caller.guild, pt.character.id, pt.day)?
                .iter()
                .filter_map(|l| Location::parse(l)),
        );
        if location.is_none()
            && Location::ALL
                .into_iter()
                .all(|l| pt.wounds.at(l).count() == 0 || day.treated(l))
        {
            return Err(user(format!(
                "Every wounded location of {pn} has had Surgery today; rest a day (/wound rest) first."
            )));
        }
        let mode = mode_for(mode, pt.character.npc || st.character.npc);
        let id = SkillId::with_subject(SkillKind::Knowledge, "Surgery").map_err(internal)?;
        let skill = Skill::of(&st, &id)?;
        let mut sheet = pt.wounds.clone();
        let out = surgery(
            &mut sheet,
            location,
            skill.rating(),
            skill.triage,
            &mut day,
            &mut ctx.dice(),
        )
        .map_err(|e| match e {
            WoundError::AlreadyTreated(l) => user(format!(
                "The {l} of {pn} has already had Surgery today; rest a day (/wound rest) first."
            )),
            other => user(format!("{other}.")),
        })?;
        if let Some((l, _)) = out.healed {
            characters::set_wounds(tx, ctx.caller.guild, pt.character.id, &rows_from_sheet(&sheet))?;
            let key = l.name().to_ascii_lowercase();
            conditions::mark_treated(tx, ctx.caller.guild, pt.character.id, pt.day, &key)?;
            pt.record_wounds(tx, &sheet, DamageKind::Lethal)?;
        }
        let healed = out.healed.map(|(l, w)| format!("{w} on the {l}"));
        ctx.log_roll(
            tx,
            Some(st.character.id),
            "wound surgery",
            mode,
            "",
            &ThizRecord::Surgery(TreatmentRecord {
                location: location.map(|l| l.name().to_owned()),
                healed: healed.clone(),
                day: Some(pt.day),
                ..treatment(&st, &pt, &skill, out.rating.0, out.roll, out.level)
            }),
        )?;
        let description = match (&healed, out.level.is_success()) {
            (Some(h), _) => format!("**{sn} heals {pn}'s {h} wound.**"),
            (None, true) => format!(
                "{sn}'s {} matches no wound of {pn}'s{}: nothing healed.",
                level_text(out.level),
                location.map_or_else(String::new, |l| format!(" on the {l}"))
            ),
            (None, false) => format!("{sn} fails: nothing healed."),
        };
        let embed = roll_embed(
            format!("{sn} operates on {pn}"),
            description,
            (out.rating.0, st.character.npc),
            out.roll,
            out.level,
        );
        let line = rating_line(
            &skill.text,
            skill.penalty,
            Some(("Triage Specialist", out.triage_bonus)),
            out.rating.0,
        );
        let full = Reply::public("").with_embed(with_rating(embed, line, st.character.npc));
        Ok(ctx
            .route(mode, &format!("Surgery on {pn}"), full)
            .with_gm_lines(&unlucky(&st, out.roll, "for Surgery")))
    })
}

#[cfg(test)]
mod tests {
    use super::super::record::sheet_from_rows;
    use super::super::testkit::seed_for;
    use super::super::testkit::{GUILD, Kit};
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::thiz::resolve;

    fn recorded(kit: &Kit, id: CharacterId) -> Option<String> {
        kit.app
            .store
            .read(|c| conditions::get(c, GUILD, id))
            .unwrap()
            .condition
    }

    /// Vexa (the player's, Toughness 4) with a Black wound on the Chest: dying.
    fn dying_vexa(kit: &Kit) -> CharacterId {
        let id = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(id, "Toughness", 4);
        kit.wound(id, "chest", "black");
        id
    }

    fn one_line_refusal(reply: &Reply, want: &str) {
        assert_eq!(reply.visibility, Visibility::Ephemeral, "{reply:?}");
        assert!(reply.content.contains(want), "{}", reply.content);
        assert!(!reply.content.contains('\n'), "{}", reply.content);
    }

    #[test]
    fn dying_checks_at_each_threshold() {
        // thiz-rulebook.md, "Damage": Failure dies, Black needs no more checks. Toughness 4 (the
        // Chest's wound counts against initiative, not Toughness): Black ≤9, Red ≤21, Green ≤66.
        let cases = [
            (9, "Black", "stable", "Vexa is stable", false),
            (10, "Red", "still dying", "Vexa is still dying", true),
            (66, "Green", "still dying", "Vexa is still dying", true),
            (67, "Failure", "dies", "Vexa dies", false),
        ];
        for (roll, level, outcome, says, button) in cases {
            let kit = Kit::new(seed_for(&[&|r| r == roll]));
            let id = dying_vexa(&kit);
            let reply = kit.run(&kit.player(), &["wound", "dying"], &[("character", "vexa")]);
            let e = &reply.embeds[0];
            assert_eq!(e.title, "Vexa: dying check", "{reply:?}");
            assert!(e.description.contains(says), "{roll}: {e:?}");
            assert_eq!(e.fields[1].value, "Toughness 4 → 4");
            assert_eq!(reply.visibility, Visibility::Public);
            assert_eq!(
                reply
                    .buttons
                    .iter()
                    .find(|b| b.custom_id.starts_with("dying:"))
                    .map(|b| b.custom_id.clone()),
                button.then(|| format!("dying:{}", id.0)),
                "{roll}"
            );
            assert_eq!(
                reply.buttons.last().map(|b| b.custom_id.as_str()),
                Some("luck:reroll:1"),
                "{roll}"
            );
            let want = match outcome {
                "dies" => "dead",
                "stable" => "stable",
                _ => "dying",
            };
            assert_eq!(recorded(&kit, id).as_deref(), Some(want), "{roll}");
            let Some(ThizRecord::Dying(rec)) =
                ThizRecord::from_json(&kit.last_roll_json().unwrap())
            else {
                panic!("{roll}: not a dying record");
            };
            assert_eq!(
                (
                    rec.rating,
                    rec.roll,
                    rec.level.as_str(),
                    rec.outcome.as_str()
                ),
                (4, roll, level, outcome)
            );
            assert_eq!((rec.toughness, rec.wound_penalty), (4, 0));
        }
    }

    #[test]
    fn the_head_and_gut_count_against_the_dying_check() {
        let kit = Kit::new(1);
        let id = dying_vexa(&kit);
        kit.wound(id, "head", "green");
        kit.wound(id, "gut", "yellow");
        let reply = kit.run(&kit.gm(), &["wound", "dying"], &[("character", "Vexa")]);
        assert_eq!(
            reply.embeds[0].fields[1].value,
            "Toughness 4 · wounds -3 → 1"
        );
    }

    #[test]
    fn the_dying_button_rolls_for_the_owner_or_a_gm_only() {
        let kit = Kit::new(seed_for(&[&|r| (10..=66).contains(&r)]));
        let id = dying_vexa(&kit);
        let button = dying_button(id);
        assert_eq!(button.custom_id, format!("dying:{}", id.0));
        let press = |caller: &crate::app::Caller, custom: &str| {
            kit.run(caller, &["button"], &[("id", custom)])
        };
        one_line_refusal(
            &press(&kit.other(), &button.custom_id),
            "Vexa belongs to another player; only they or a GM can roll their dying checks.",
        );
        for bad in ["dying:x", "dying:-1", "dying:0", "dying:999"] {
            one_line_refusal(&press(&kit.player(), bad), "That button is no longer valid");
        }
        assert_eq!(kit.roll_count(), 0);
        let reply = press(&kit.player(), &button.custom_id);
        assert_eq!(reply.embeds[0].title, "Vexa: dying check", "{reply:?}");
        assert_eq!(
            reply.buttons[..1],
            *std::slice::from_ref(&button),
            "still dying: the button again"
        );
        // An NPC's button: a player is told it is the GM's (not that it is stale), without the
        // NPC's name; a GM rolls it, to themselves.
        let ghoul = kit.thiz("Ghoul", kit.gm_id(), true);
        kit.wound(ghoul, "head", "black");
        let npc = dying_button(ghoul).custom_id;
        let refused = press(&kit.player(), &npc);
        one_line_refusal(&refused, "That dying check is the GM's button");
        assert!(!refused.all_text().contains("Ghoul"), "{refused:?}");
        let reply = press(&kit.gm(), &npc);
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert_eq!(reply.embeds[0].title, "Ghoul: dying check");
        assert_eq!(kit.roll_count(), 2);
        // Other buttons still go to luck.
        let luck = press(&kit.player(), "luck:reroll:1");
        assert!(!luck.content.contains("dying"), "{luck:?}");
    }

    /// thiz-rulebook.md, chapter 10 "Luck": the dying check is a resolution check, so luck
    /// rolls it again: a death (67) rerolled to a Black (9) leaves the character stable; once the
    /// condition has moved on, the old roll cannot be rerolled.
    #[test]
    fn luck_rerolls_a_dying_check() {
        let kit = Kit::new(seed_for(&[&|r| r == 67, &|r| r == 9]));
        let id = dying_vexa(&kit);
        let gm = kit.run(
            &kit.gm(),
            &["luck", "set"],
            &[("character", "Vexa"), ("points", "2")],
        );
        assert_eq!(gm.visibility, Visibility::Ephemeral);
        let first = kit.run(&kit.player(), &["wound", "dying"], &[("character", "vexa")]);
        assert!(
            first.embeds[0].description.contains("Vexa dies"),
            "{first:?}"
        );
        assert_eq!(recorded(&kit, id).as_deref(), Some("dead"));
        let again = kit.run_as(&kit.player(), "l1", &["button"], &[("id", "luck:reroll:1")]);
        let e = &again.embeds[0];
        assert_eq!(e.title, "Vexa: dying check rerolled: Black", "{again:?}");
        assert!(e.description.contains("Vexa is stable"), "{e:?}");
        assert_eq!(recorded(&kit, id).as_deref(), Some("stable"));
        // A stable character's old check (its outcome was death) is out of date.
        kit.run(&kit.gm(), &["wound", "heal"], &[("character", "vexa")]);
        kit.wound(id, "chest", "black");
        kit.run(&kit.player(), &["wound", "dying"], &[("character", "vexa")]);
        let stale = kit.run_as(
            &kit.player(),
            "l2",
            &["luck", "spend"],
            &[("kind", "reroll"), ("roll", "2")],
        );
        assert!(
            stale
                .content
                .contains("condition has changed since roll #2")
                || stale.content.contains("already used")
                || stale.content.contains("luck rerolls only the latest"),
            "{stale:?}"
        );
    }

    /// thiz-rulebook.md, "Unlucky": 98–100 on the dying check flags a mishap to the GM only.
    #[test]
    fn an_unlucky_dying_check_flags_the_gm() {
        for (roll, flagged) in [(97, false), (98, true)] {
            let kit = Kit::new(seed_for(&[&|r| r == roll]));
            let id = dying_vexa(&kit);
            kit.sheet(id, r#"{"weaknesses": ["Unlucky"]}"#);
            let reply = kit.run(&kit.player(), &["wound", "dying"], &[("character", "vexa")]);
            let gm = reply
                .gm_copy
                .as_ref()
                .map(|c| c.all_text())
                .unwrap_or_default();
            assert_eq!(
                gm.contains("Unlucky: Vexa rolled"),
                flagged,
                "{roll}: {reply:?}"
            );
            assert!(!reply.caller_text().contains("Unlucky"), "{reply:?}");
        }
    }

    #[test]
    fn first_aid_stabilises_on_any_success() {
        // thiz-rulebook.md, "Damage" (First Aid, any success) and "Triage Specialist" (+3).
        // First Aid 1; with Triage Specialist the row of 4. Each side of the Green threshold.
        let green = |r: i32| chart::row(Rating(r)).threshold(Level::Green).unwrap();
        let (plain, triaged) = (green(1), green(4));
        for (roll, triage, stabilised) in [
            (plain, false, true),
            (plain + 1, false, false),
            (triaged, true, true),
            (triaged + 1, true, false),
        ] {
            let kit = Kit::new(seed_for(&[&|r| r == roll]));
            let vexa = dying_vexa(&kit);
            let medic = kit.thiz("Medic", kit.player_id(), false);
            kit.skill(medic, "First Aid", 1);
            if triage {
                kit.sheet(medic, r#"{"quirks": ["Triage Specialist"]}"#);
            }
            let reply = kit.run(
                &kit.player(),
                &["wound", "firstaid"],
                &[("character", "Vexa"), ("healer", "Medic")],
            );
            let e = &reply.embeds[0];
            assert_eq!(e.title, "Medic gives Vexa First Aid", "{reply:?}");
            let rating = if triage {
                "First Aid 1 · Triage Specialist +3 → 4"
            } else {
                "First Aid 1 → 1"
            };
            assert_eq!(e.fields[1].value, rating);
            assert_eq!(
                recorded(&kit, vexa).as_deref(),
                stabilised.then_some("stable"),
                "{roll} {triage}"
            );
            assert_eq!(reply.buttons.is_empty(), stabilised);
            let Some(ThizRecord::FirstAid(rec)) =
                ThizRecord::from_json(&kit.last_roll_json().unwrap())
            else {
                panic!("not a First Aid record");
            };
            assert_eq!((rec.roll, rec.stabilised), (roll, Some(stabilised)));
            if stabilised {
                // Stable: no more dying checks, no more First Aid, and still no acting.
                let again = kit.run(&kit.player(), &["wound", "dying"], &[("character", "Vexa")]);
                one_line_refusal(&again, "Vexa is stable and not dying");
                let check = kit.run(
                    &kit.player(),
                    &["check"],
                    &[("skill", "Stealth"), ("character", "Vexa")],
                );
                one_line_refusal(&check, "Vexa is stable and cannot act");
            }
        }
    }

    /// A command path, its options, and what its refusal must say.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

    #[test]
    fn treating_refuses_bad_input_and_others_and_changes_nothing() {
        let kit = Kit::new(1);
        let vexa = dying_vexa(&kit);
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "First Aid", 5);
        let medic = kit.thiz("Medic", kit.player_id(), false);
        kit.wound(medic, "gut", "black");
        kit.thiz("Well", kit.player_id(), false);
        kit.tft("Rook", kit.player_id());
        let cases: [Case<'_>; 12] = [
            (
                &["wound", "dying"],
                &[("character", "Bran")],
                "Bran belongs to another player",
            ),
            (
                &["wound", "dying"],
                &[("character", "Well")],
                "Well is not dying",
            ),
            (
                &["wound", "dying"],
                &[("character", "Rook")],
                "Rook is a TFT character",
            ),
            // Without character: the player's latest THIZ character (Well, made last).
            (&["wound", "dying"], &[], "Well is not dying"),
            (
                &["wound", "dying"],
                &[("character", "Vexa"), ("mode", "loud")],
                "mode must be public, private, blind or self",
            ),
            (
                &["wound", "firstaid"],
                &[("character", "Vexa"), ("healer", "Bran")],
                "Bran belongs to another player",
            ),
            (
                &["wound", "firstaid"],
                &[("character", "Vexa"), ("healer", "Medic")],
                "Medic is dying and cannot act",
            ),
            (
                &["wound", "firstaid"],
                &[("character", "Well"), ("healer", "Vexa")],
                "Vexa is dying and cannot act",
            ),
            (
                &["wound", "firstaid"],
                &[("character", "Nobody"), ("healer", "Well")],
                "There is no character named Nobody",
            ),
            (
                &["wound", "surgery"],
                &[("character", "Well"), ("surgeon", "Well")],
                "Well has no wounds to treat",
            ),
            (
                &["wound", "surgery"],
                &[
                    ("character", "Vexa"),
                    ("surgeon", "Well"),
                    ("location", "gut"),
                ],
                "Vexa has no wound on the Gut to treat",
            ),
            (
                &["wound", "rest"],
                &[("character", "Vexa")],
                "Vexa is dying: stabilise them",
            ),
        ];
        for (path, opts, want) in cases {
            one_line_refusal(&kit.run(&kit.player(), path, opts), want);
        }
        assert_eq!(kit.roll_count(), 0);
        assert_eq!(recorded(&kit, vexa), None);
        assert_eq!(kit.wounds(vexa).len(), 1);
        // The dead are past treating.
        kit.app
            .store
            .write(|tx| conditions::set(tx, GUILD, vexa, Some("dead")))
            .unwrap();
        for (path, opts, want) in [
            (
                &["wound", "dying"][..],
                &[("character", "Vexa")][..],
                "Vexa is dead",
            ),
            (
                &["wound", "surgery"],
                &[("character", "Vexa"), ("surgeon", "Well")],
                "Vexa is dead; Surgery cannot help",
            ),
            (&["wound", "rest"], &[("character", "Vexa")], "Vexa is dead"),
        ] {
            one_line_refusal(&kit.run(&kit.player(), path, opts), want);
        }
        assert_eq!(kit.roll_count(), 0);
    }

    #[test]
    fn surgery_heals_once_per_location_per_day() {
        // thiz-rulebook.md, "Recovering from Damage": a success level that matches a wound heals
        // it; one wound per body location per day. Knowledge (Surgery) 4: Green 42..=66.
        let green = |r: u32| resolve(Rating(4), r) == Level::Green;
        let kit = Kit::new(seed_for(&[&green, &green]));
        let pat = kit.thiz("Pat", kit.other_id(), false);
        let three_greens = crate::store::characters::WoundRow {
            location: "gut".into(),
            level: "green".into(),
            count: 3,
        };
        kit.app
            .store
            .write(|tx| characters::set_wounds(tx, GUILD, pat, &[three_greens]))
            .unwrap();
        let doc = kit.thiz("Doc", kit.player_id(), false);
        kit.skill(doc, "Knowledge (Surgery)", 4);
        let operate = |opts: &[(&str, &str)]| {
            let mut all = vec![("character", "Pat"), ("surgeon", "Doc")];
            all.extend_from_slice(opts);
            kit.run(&kit.player(), &["wound", "surgery"], &all)
        };
        let reply = operate(&[("location", "gut")]);
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Doc operates on Pat", "{reply:?}");
        assert!(
            e.description.contains("heals Pat's Green on the Gut wound"),
            "{e:?}"
        );
        assert_eq!(e.fields[1].value, r"Knowledge \(Surgery\) 4 → 4");
        assert_eq!(
            sheet_from_rows(&kit.wounds(pat))
                .unwrap()
                .at(Location::Gut)
                .greens,
            2
        );
        // The Gut is done for today: named or not, nothing is rolled.
        one_line_refusal(
            &operate(&[("location", "gut")]),
            "The Gut of Pat has already had Surgery today; rest a day (/wound rest) first.",
        );
        one_line_refusal(
            &operate(&[]),
            "Every wounded location of Pat has had Surgery today",
        );
        assert_eq!(kit.roll_count(), 1);
        let Some(ThizRecord::Surgery(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!("not a Surgery record");
        };
        assert_eq!(
            (rec.healed.as_deref(), rec.day),
            (Some("Green on the Gut"), Some(0))
        );
        // A day of rest (its own Green healed without a roll) and the Gut can be treated again.
        let rest = kit.run(&kit.other(), &["wound", "rest"], &[("character", "Pat")]);
        assert!(
            rest.embeds[0].description.contains("healed Green"),
            "{rest:?}"
        );
        let reply = operate(&[]);
        assert!(
            reply.embeds[0].description.contains("Green on the Gut"),
            "{reply:?}"
        );
        assert!(sheet_from_rows(&kit.wounds(pat)).unwrap().is_empty());
    }

    #[test]
    fn wounds_set_and_clear_the_condition() {
        // thiz-rulebook.md, "Damage": lethal → dying, bare fists → unconscious.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let add = |opts: &[(&str, &str)]| {
            let mut all = vec![
                ("character", "Vexa"),
                ("location", "head"),
                ("level", "black"),
            ];
            all.extend_from_slice(opts);
            kit.run(&kit.gm(), &["wound", "add"], &all)
        };
        let reply = add(&[("nonlethal", "true")]);
        assert!(
            reply.embeds[0].fields[0]
                .value
                .ends_with("Incapacitated: unconscious."),
            "{reply:?}"
        );
        assert!(reply.buttons.is_empty());
        assert_eq!(recorded(&kit, vexa).as_deref(), Some("unconscious"));
        let dying = kit.run(&kit.player(), &["wound", "dying"], &[("character", "Vexa")]);
        one_line_refusal(&dying, "Vexa is unconscious and not dying");
        // A lethal Black elsewhere: dying, with the button.
        let reply = kit.run(
            &kit.gm(),
            &["wound", "add"],
            &[
                ("character", "Vexa"),
                ("location", "gut"),
                ("level", "black"),
            ],
        );
        assert!(
            reply.embeds[0].fields[0]
                .value
                .ends_with("Incapacitated: dying."),
            "{reply:?}"
        );
        assert_eq!(reply.buttons, [dying_button(vexa)]);
        // Healing one location leaves the other Black: still dying; healing all clears it.
        kit.run(
            &kit.gm(),
            &["wound", "heal"],
            &[("character", "Vexa"), ("location", "gut")],
        );
        assert_eq!(recorded(&kit, vexa).as_deref(), Some("dying"));
        kit.run(
            &kit.gm(),
            &["wound", "heal"],
            &[("character", "Vexa"), ("location", "head")],
        );
        assert_eq!(recorded(&kit, vexa), None);
        assert!(
            kit.run(
                &kit.player(),
                &["check"],
                &[("rating", "1"), ("character", "Vexa")]
            )
            .content
            .is_empty()
        );
    }
}
