//! `/check`: a d100 against the chart, on a character's skill or a bare rating.

use std::fmt::Write as _;

use super::record::{CheckRecord, ThizRecord};
use super::shared::{INPUT_LIMIT, int, label, level_text, mode, row_text, tone};
use super::situation::{self, Before, Circumstance, Conditions};
use super::stats::{ThizChar, describe_base};
use super::{effects, special};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Visibility};
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::check::{CheckInput, CheckOutcome, roll_check};
use crate::rules::thiz::odds::Odds;
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::{Weakness, shifty_applies};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::CharacterId;

/// The options of `/check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    pub skill: Option<String>,
    pub rating: Option<i32>,
    pub character: Option<String>,
    pub modifier: i32,
    /// The arm a one-handed skill is done with (default: the sheet's better hand).
    pub hand: Option<Location>,
    pub mode: RollMode,
    pub label: String,
    /// What the sheet's weaknesses and quirks care about: `situation`, `withdrawal`,
    /// `recovering`, `trail_hours`.
    pub conditions: Conditions,
}

/// Reads `hand:right` or `hand:left` as the arm.
fn parse_hand(text: &str) -> AppResult<Location> {
    match text.trim().to_ascii_lowercase().as_str() {
        "right" | "r" | "right arm" => Ok(Location::RightArm),
        "left" | "l" | "left arm" => Ok(Location::LeftArm),
        _ => Err(user(format!(
            "hand must be right or left; you gave {}.",
            escape(text.trim())
        ))),
    }
}

impl CheckArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "skill",
                "rating",
                "character",
                "modifier",
                "hand",
                "mode",
                "label",
                "situation",
                "withdrawal",
                "recovering",
                "trail_hours",
            ],
        )?;
        let count = |name| -> AppResult<Option<u32>> {
            Ok(o.int(name, 0, situation::MAX_COUNT)?
                .map(|n| u32::try_from(n).unwrap_or(0)))
        };
        let conditions = Conditions {
            circumstances: o
                .text("situation")
                .map(Circumstance::parse_list)
                .transpose()?
                .unwrap_or_default(),
            withdrawal: count("withdrawal")?,
            recovering: count("recovering")?,
            trail_hours: count("trail_hours")?,
        };
        let skill = o.text("skill").map(|s| s.trim().to_owned());
        let rating = o.int("rating", -INPUT_LIMIT, INPUT_LIMIT)?.map(int);
        match (&skill, rating) {
            (Some(_), Some(_)) => {
                return Err(user(
                    "/check takes a skill or a rating, not both: skill:Stealth, or rating:4.",
                ));
            }
            (None, None) => {
                return Err(user(
                    "/check needs a skill or a rating: skill:Stealth (your character's), or rating:4.",
                ));
            }
            _ => {}
        }
        Ok(CheckArgs {
            skill,
            rating,
            character: o.text("character").map(str::to_owned),
            modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            hand: o.text("hand").map(parse_hand).transpose()?,
            mode: mode(&o)?,
            label: label(&o)?,
            conditions,
        })
    }
}

/// What is being checked, before the die is rolled.
struct Plan {
    character: Option<(CharacterId, String)>,
    /// "Stealth", "rating 4".
    subject: String,
    /// The canonical skill name, for a skill check.
    skill: Option<String>,
    /// How the base rating came about: "Stealth 4", "Physical 3".
    base_text: String,
    input: CheckInput,
    /// The player's own modifier; `input.modifier` adds the sheet's situational ones to it.
    modifier: i32,
    /// The sheet's situational modifiers and their lines.
    before: Before,
    /// The skill's kind, and the character's own rating in it, for the effect line.
    kind: Option<SkillKind>,
    learned: Option<i32>,
    sheet: Option<Box<ThizChar>>,
}

/// Works out the check's input from the options and (when named) the character's sheet.
fn plan(ctx: &Ctx<'_>, conn: &crate::store::Conn, a: &CheckArgs) -> AppResult<Plan> {
    let modifier = a.modifier;
    if let (Some(rating), None, true) = (a.rating, &a.character, a.conditions.is_empty()) {
        return Ok(Plan {
            character: None,
            subject: format!("rating {rating}"),
            skill: None,
            base_text: format!("rating {rating}"),
            input: CheckInput {
                modifier,
                ..CheckInput::at(rating)
            },
            modifier,
            before: Before::default(),
            kind: None,
            learned: None,
            sheet: None,
        });
    }
    let c = ctx.acting_character(conn, a.character.as_deref())?;
    let tc = ThizChar::load(conn, c, "/check")?;
    tc.able_to_act()?;
    let unlucky = tc.has_weakness(Weakness::Unlucky);
    let who = Some((tc.character.id, tc.character.name.clone()));
    if let Some(rating) = a.rating {
        let before = situation::before(&tc, (None, None), &a.conditions, &mut ctx.dice())?;
        return Ok(Plan {
            character: who,
            subject: format!("rating {rating}"),
            skill: None,
            base_text: format!("rating {rating}"),
            input: CheckInput {
                base: Rating(rating),
                modifier: modifier.saturating_add(before.total()),
                wound_penalty: tc.check_penalty(None, None)?.clamp(-40, 0),
                unlucky,
                shifty: false,
            },
            modifier,
            before,
            kind: None,
            learned: None,
            sheet: Some(Box::new(tc)),
        });
    }
    let typed = a.skill.as_deref().unwrap_or_default();
    let (skill, base, base_text, kind, learned) = match SkillId::parse(typed) {
        Ok(id) => {
            if let Some(refusal) = situation::barred(&tc, &id) {
                return Err(user(refusal));
            }
            let base = tc.base(&id)?;
            let name = id.to_string();
            let mut text = describe_base(&escape(&name), &base);
            let mut rating = base.rating;
            if id.kind() == Some(SkillKind::Speed) && tc.leg_lost() {
                // thiz-rulebook.md, "Missing Limb": a lost leg makes Speed -2 whatever it was.
                rating = Rating(tc.speed_with_legs(rating.0));
                text = format!("Speed {rating} (a leg lost)");
            }
            let learned = tc.learned(&id);
            (name, rating, text, id.kind(), learned)
        }
        Err(e) => {
            let Some(r) = tc.custom(typed) else {
                return Err(user(format!(
                    "Unknown skill: {}. Name it as on the sheet, like skill:Stealth or skill:\"Weapon Skill (Sword)\".{}",
                    escape(&e.to_string()),
                    crate::app::text::did_you_mean_skill(typed)
                )));
            };
            (
                typed.to_owned(),
                Rating(r),
                format!("{} {r}", escape(typed)),
                None,
                Some(r),
            )
        }
    };
    let wound_penalty = tc.check_penalty(kind, a.hand)?;
    let before = situation::before(&tc, (kind, Some(&skill)), &a.conditions, &mut ctx.dice())?;
    Ok(Plan {
        character: who,
        subject: skill.clone(),
        skill: Some(skill),
        base_text,
        input: CheckInput {
            base,
            modifier: modifier.saturating_add(before.total()),
            wound_penalty: wound_penalty.clamp(-40, 0),
            unlucky,
            shifty: tc.has_weakness(Weakness::Shifty) && kind.is_some_and(shifty_applies),
        },
        modifier,
        before,
        kind,
        learned,
        sheet: Some(Box::new(tc)),
    })
}

/// Runs `/check`: plans, rolls, logs and routes in one transaction.
pub(super) fn run(ctx: &Ctx<'_>, a: &CheckArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let plan = plan(ctx, tx, a)?;
        let rolled = roll_check(&plan.input, &mut ctx.dice()).map_err(|e| user(format!("{e}.")))?;
        let character = plan.character.as_ref().map(|(id, n)| (*id, n.as_str()));
        let skill = plan.skill.as_deref();
        let special = special::apply(tx, ctx.caller.guild, character.map(|c| c.0), skill, rolled)?;
        let outcome = special.outcome;
        let odds = special
            .odds(&plan.input)
            .map_err(|e| user(format!("{e}.")))?;
        let mut record = CheckRecord::new(character, &plan.subject, skill, &outcome);
        special.mark(&mut record);
        let roll_id = ctx.log_roll(
            tx,
            character.map(|(id, _)| id),
            "check",
            a.mode,
            &a.label,
            &ThizRecord::Check(record),
        )?;
        let mut shown = embed(ctx, &plan, &outcome, &odds, &a.label);
        special.show(&mut shown);
        let effects = effect_lines(ctx, &plan, &a.conditions, &outcome);
        if !effects.is_empty() {
            // What the level means for the skill reads the rating (a lift, a jump's length).
            shown.fields.push(Field {
                name: effects::FIELD.to_owned(),
                value: screen::npc(plan.npc(), effects.join("\n")),
                inline: false,
            });
        }
        let mut full = Reply::public("").with_embed(shown);
        if plan.character.is_some() {
            // An NPC's luck is the GM's to spend.
            let mut reroll = crate::app::luck::button::reroll_button(roll_id);
            reroll.label = screen::npc(plan.npc(), reroll.label);
            full = full.with_button(reroll);
        }
        let what = format!("a check on {}", escape(&plan.subject));
        let routed = ctx.route(a.mode, &what, full);
        Ok(if outcome.unlucky_flag {
            flag_unlucky(ctx, routed, &plan, &outcome)
        } else {
            routed
        })
    })
}

impl Plan {
    /// Whether the check is an NPC's: its rating, row and odds are the GM's ([`screen`]).
    fn npc(&self) -> bool {
        self.sheet.as_ref().is_some_and(|s| s.character.npc)
    }
}

/// The result embed everyone who may see the roll gets; an NPC's numbers marked for the GM.
fn embed(ctx: &Ctx<'_>, plan: &Plan, outcome: &CheckOutcome, odds: &Odds, label: &str) -> Embed {
    let who = plan
        .character
        .as_ref()
        .map_or_else(|| escape(&ctx.caller.name), |(_, n)| escape(n));
    let mut description = format!("**{}**", level_text(outcome.level));
    if outcome.shifty_lowered {
        let _ = write!(
            description,
            " (Shifty: the chart gave {}, read one lower)",
            outcome.chart_level
        );
    }
    if !label.is_empty() {
        let _ = write!(description, "\n{}", escape(label));
    }
    let mut rating = plan.base_text.clone();
    if plan.modifier != 0 {
        let _ = write!(rating, " · modifier {}", signed(plan.modifier));
    }
    for (name, m) in &plan.before.modifiers {
        let _ = write!(rating, " · {name} {}", signed(*m));
    }
    if outcome.input.wound_penalty != 0 {
        let _ = write!(rating, " · wounds {}", signed(outcome.input.wound_penalty));
    }
    let _ = write!(rating, " → {}", outcome.adjusted);
    let field = |name: &str, value: String, inline: bool| Field {
        name: name.to_owned(),
        value,
        inline,
    };
    Embed {
        // A bare rating names its number: an NPC's is the GM's.
        title: format!(
            "{who}: {} check",
            screen::npc(plan.npc() && plan.skill.is_none(), escape(&plan.subject))
        ),
        description,
        tone: Some(tone(outcome.level)),
        fields: vec![
            field("Roll", format!("d100: {}", outcome.roll), true),
            field("Rating", screen::npc(plan.npc(), rating), true),
            field(
                &format!("Row {}", outcome.row_rating),
                screen::npc(plan.npc(), row_text(&outcome.row)),
                false,
            ),
            field("Odds", screen::npc(plan.npc(), odds_text(odds)), false),
        ],
        footer: None,
    }
}

/// What the check means beyond its level: the situation's lines, then the skill's effect and what
/// the situation makes of the roll. Fast Talk's minutes roll a d10 on a success.
fn effect_lines(
    ctx: &Ctx<'_>,
    plan: &Plan,
    conditions: &Conditions,
    outcome: &CheckOutcome,
) -> Vec<String> {
    let mut lines = plan.before.lines.clone();
    if let Some(kind) = plan.kind {
        let d10 = (kind == SkillKind::FastTalk && outcome.level.is_success())
            .then(|| ctx.dice().roll(10));
        lines.extend(effects::line(&effects::Checked {
            kind,
            level: outcome.level,
            rating: plan.input.base.0,
            learned: plan.learned,
            d10,
        }));
    }
    if let Some(tc) = &plan.sheet {
        lines.extend(situation::after(
            tc,
            conditions,
            outcome.level,
            &mut ctx.dice(),
        ));
    }
    lines
}

/// "Black 9% · Red 12% · Yellow 20% · Green 25% · Failure 34%".
pub(super) fn odds_text(odds: &Odds) -> String {
    odds.best_first()
        .iter()
        .map(|(level, n)| format!("{level} {n}%"))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Adds the Unlucky mishap to what the GM gets, never to what the player sees: the existing GM
/// copy (private, blind), or a new one (public, self).
fn flag_unlucky(ctx: &Ctx<'_>, mut reply: Reply, plan: &Plan, outcome: &CheckOutcome) -> Reply {
    let who = plan
        .character
        .as_ref()
        .map_or_else(|| escape(&ctx.caller.name), |(_, n)| escape(n));
    let flag = Field {
        name: "Unlucky".to_owned(),
        value: format!(
            "{who} is Unlucky and rolled {}: a mishap is due, whatever the level.",
            outcome.roll
        ),
        inline: false,
    };
    let mut copy = match reply.gm_copy.take() {
        Some(copy) => *copy,
        None => Reply {
            content: format!("Unlucky roll by {}", escape(&ctx.caller.name)),
            embeds: reply.embeds.clone(),
            buttons: Vec::new(),
            visibility: Visibility::Public,
            gm_copy: None,
            gm_channel: None,
            file: None,
            update: None,
            caller_copy: None,
            notice: None,
            mention: None,
        },
    };
    match copy.embeds.first_mut() {
        Some(e) => e.fields.push(flag),
        None => {
            copy.embeds.push(Embed {
                title: "Unlucky".to_owned(),
                tone: Some(tone(Level::Black)),
                fields: vec![flag],
                ..Embed::default()
            });
        }
    }
    reply.with_gm_copy(copy)
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;
    use super::*;
    use crate::app::reply::Tone;
    use crate::rules::dice::{DieSource, SeededDice};
    use crate::rules::thiz::resolve;

    const SEED: u64 = 7;

    fn first_d100() -> u32 {
        SeededDice::new(SEED).d100()
    }

    #[test]
    fn bare_rating_reads_the_chart_for_the_seeded_roll() {
        let kit = Kit::new(SEED);
        let reply = kit.run(&kit.player(), &["check"], &[("rating", "4")]);
        let roll = first_d100();
        let level = resolve(Rating(4), roll);
        let e = &reply.embeds[0];
        assert_eq!(e.tone, Some(tone(level)), "{reply:?}");
        assert!(e.description.contains(&level_text(level)), "{e:?}");
        assert_eq!(e.fields[0].value, format!("d100: {roll}"));
        assert_eq!(e.fields[2].name, "Row 4");
        assert_eq!(
            e.fields[3].value,
            "Black 9% · Red 12% · Yellow 20% · Green 25% · Failure 34%"
        );
        assert!(reply.buttons.is_empty(), "a bare rating has no luck button");
        assert_eq!(reply.visibility, Visibility::Public);
        assert_eq!(kit.roll_count(), 1);
        let logged = kit.last_roll_json().unwrap();
        let Some(ThizRecord::Check(rec)) = ThizRecord::from_json(&logged) else {
            panic!("{logged}");
        };
        assert_eq!(
            (rec.roll, rec.base, rec.level.as_str()),
            (roll, 4, level.name())
        );
    }

    #[test]
    fn skill_check_uses_skill_wounds_and_offers_luck() {
        let kit = Kit::new(SEED);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Stealth", 6);
        kit.wound(vexa, "head", "yellow");
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[
                ("skill", "stealth"),
                ("modifier", "-1"),
                ("label", "past the *guards*"),
            ],
        );
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Vexa: Stealth check");
        assert_eq!(e.fields[1].value, "Stealth 6 · modifier -1 · wounds -2 → 3");
        assert!(e.description.contains(r"past the \*guards\*"), "{e:?}");
        let level = resolve(Rating(3), first_d100());
        assert_eq!(e.tone, Some(tone(level)));
        assert_eq!(reply.buttons.len(), 1);
        assert_eq!(reply.buttons[0].custom_id, "luck:reroll:1");
        assert_eq!(reply.buttons[0].label, "Spend luck: reroll");
    }

    #[test]
    fn untrained_skill_falls_back_to_the_general_rating() {
        let kit = Kit::new(SEED);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        // Physical skills summing to 35 → Physical 3; Climbing unlearned checks at 3.
        kit.skill(vexa, "Strength", 20);
        kit.skill(vexa, "Speed", 15);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "climbing")]);
        assert_eq!(
            reply.embeds[0].fields[1].value, "Physical 3 → 3",
            "{reply:?}"
        );
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Necromancy")]);
        assert!(
            reply
                .content
                .contains("cannot be used until it has been learned"),
            "{reply:?}"
        );
        assert_eq!(kit.roll_count(), 1);
    }

    #[test]
    fn shifty_and_unlucky_come_from_the_sheet() {
        // Find a seed whose first d100 is 98..100 so the Unlucky flag shows.
        let seed = (0..10_000u64)
            .find(|s| SeededDice::new(*s).d100() >= 98)
            .unwrap();
        let kit = Kit::new(seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.sheet(vexa, r#"{"weaknesses": ["Unlucky", "Shifty"]}"#);
        kit.skill(vexa, "Persuasion", 30);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Persuasion")]);
        let player_text = Reply {
            gm_copy: None,
            ..reply.clone()
        }
        .all_text();
        assert!(!player_text.contains("Unlucky"), "{player_text}");
        let copy = reply.gm_copy.expect("the GM hears of the mishap");
        assert!(copy.all_text().contains("a mishap is due"));
        let logged = kit.last_roll_json().unwrap();
        let Some(ThizRecord::Check(rec)) = ThizRecord::from_json(&logged) else {
            panic!("{logged}");
        };
        assert!(rec.shifty && rec.unlucky && rec.unlucky_flag());
        // Private: the flag joins the existing GM copy, and the player's reply stays clean.
        let kit = Kit::new(seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.sheet(vexa, r#"{"weaknesses": ["Unlucky"]}"#);
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("rating", "2"), ("character", "vexa"), ("mode", "private")],
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(!reply.embeds[0].fields.iter().any(|f| f.name == "Unlucky"));
        let copy = reply.gm_copy.unwrap();
        assert!(copy.content.starts_with("Private roll by"));
        assert!(copy.embeds[0].fields.iter().any(|f| f.name == "Unlucky"));
    }

    #[test]
    fn blind_checks_hide_the_result_from_the_roller() {
        let kit = Kit::new(SEED);
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("rating", "4"), ("mode", "blind")],
        );
        assert!(reply.embeds.is_empty());
        assert!(reply.content.contains("blind"));
        let copy = reply.gm_copy.unwrap();
        assert_eq!(
            copy.embeds[0].fields[0].value,
            format!("d100: {}", first_d100())
        );
        assert_eq!(kit.roll_count(), 1);
    }

    #[test]
    fn bad_input_is_refused_and_changes_nothing() {
        let kit = Kit::new(SEED);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.thiz("Bran", kit.other_id(), false);
        kit.tft("Rook", kit.player_id());
        kit.thiz("Ghoul", kit.gm_id(), true);
        kit.skill(vexa, "Stealth", 4);
        let cases: [(&[(&str, &str)], &str); 13] = [
            (
                &[("rating", "41")],
                "rating must be between -40 and 40; you gave 41",
            ),
            (
                &[("rating", "-41")],
                "rating must be between -40 and 40; you gave -41",
            ),
            (
                &[("rating", "4"), ("modifier", "41")],
                "modifier must be between -40 and 40",
            ),
            (&[("rating", "four")], "rating must be a whole number"),
            (
                &[("rating", "4"), ("skill", "Stealth")],
                "a skill or a rating, not both",
            ),
            (&[], "needs a skill or a rating"),
            (
                &[("skill", "Stealth"), ("character", "Nobody")],
                "There is no character named Nobody",
            ),
            (
                &[("skill", "Stealth"), ("character", "Bran")],
                "Bran belongs to another player",
            ),
            (
                &[("skill", "Stealth"), ("character", "Ghoul")],
                "There is no character named Ghoul",
            ),
            (
                &[("skill", "Stealth"), ("character", "Rook")],
                "Rook is a TFT character",
            ),
            (
                &[("skill", "Basket Weaving"), ("character", "Vexa")],
                "Unknown skill",
            ),
            (
                &[("rating", "4"), ("mode", "loud")],
                "mode must be public, private, blind or self",
            ),
            (
                &[("rating", "4"), ("colour", "red")],
                "has no option \"colour\"",
            ),
        ];
        for (opts, want) in cases {
            let reply = kit.run(&kit.player(), &["check"], opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
            assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
            assert!(!reply.content.contains('\n'), "one line: {}", reply.content);
        }
        let long = "x".repeat(101);
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("rating", "1"), ("label", &long)],
        );
        assert!(reply.content.contains("at most 100"), "{}", reply.content);
        assert_eq!(kit.roll_count(), 0);
    }

    #[test]
    fn gms_check_for_anyone_and_players_for_their_own() {
        let kit = Kit::new(SEED);
        kit.thiz("Vexa", kit.player_id(), false);
        kit.thiz("Ghoul", kit.gm_id(), true);
        for name in ["Vexa", "Ghoul"] {
            let reply = kit.run(
                &kit.gm(),
                &["check"],
                &[("skill", "Speed"), ("character", name)],
            );
            assert_eq!(
                reply.embeds[0].title,
                format!("{name}: Speed check"),
                "{reply:?}"
            );
        }
        let reply = kit.run(&kit.other(), &["check"], &[("skill", "Speed")]);
        assert!(reply.content.contains("You have no character yet"));
        assert_eq!(kit.roll_count(), 2);
        // A failure reads grey.
        let kit = Kit::new(SEED);
        let reply = kit.run(&kit.player(), &["check"], &[("rating", "-40")]);
        let level = resolve(Rating(-40), first_d100());
        assert_eq!(
            reply.embeds[0].tone == Some(Tone::Grey),
            level == Level::Failure
        );
    }
}
