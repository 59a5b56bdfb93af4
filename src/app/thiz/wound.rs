//! `/wound add|heal|rest|dying|firstaid|surgery`: a THIZ character's wound sheet, kept by the GM,
//! healed by rest; the dying checks, First Aid and Surgery are in `care`.
//!
//! Decisions: `/wound add` is lethal damage unless `nonlethal:true` (bare fists), so a Black on
//! Head, Chest or Gut leaves the character dying (or unconscious). `/wound heal` without a
//! location heals everything and clears every condition, death included: it is the GM's undo.
//! `/wound rest` moves the character's day count on by the days asked (Surgery's "per day"), and
//! is refused to the dying (stabilise them first) and the dead.

use std::fmt::Write as _;

use super::care::{self, Patient};
use super::record::{
    RestDayRecord, RestRecord, ThizRecord, describe_wounds, parse_wound_level, rows_from_sheet,
};
use super::shared::{level_text, parse_location};
use super::stats::{ThizChar, clamp_input};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone, Visibility};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::thiz::skills::SkillKind;
use crate::rules::thiz::wounds::{
    Condition, DamageKind, MAX_REST_DAYS, RestOutcome, WoundSheet, rest,
};
use crate::rules::thiz::{Level, Location};
use crate::store::{characters, conditions};

/// The subcommands of `/wound`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WoundArgs {
    /// `/wound add character location level [nonlethal]` (GM).
    Add {
        character: String,
        location: Location,
        level: Level,
        nonlethal: bool,
    },
    /// `/wound heal character [location]` (GM).
    Heal {
        character: String,
        location: Option<Location>,
    },
    /// `/wound rest character [days]` (owner or GM).
    Rest { character: String, days: u32 },
    /// `/wound dying character [mode]` (owner or GM), or the dying button.
    Dying {
        character: Patient,
        mode: Option<RollMode>,
    },
    /// `/wound firstaid character healer [mode]` (the healer's owner or GM).
    FirstAid {
        character: String,
        healer: String,
        mode: Option<RollMode>,
    },
    /// `/wound surgery character surgeon [location] [mode]` (the surgeon's owner or GM).
    Surgery {
        character: String,
        surgeon: String,
        location: Option<Location>,
        mode: Option<RollMode>,
    },
}

/// Rest lines shown in a reply; the rest are counted.
const MAX_REST_LINES: usize = 15;

impl WoundArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str);
        Ok(match sub {
            Some("add") => {
                let o = Opts::new(inv, &["character", "location", "level", "nonlethal"])?;
                let character = o.required("character")?.to_owned();
                let location = parse_location(o.required("location")?)?;
                let typed = o.required("level")?;
                let level = parse_wound_level(typed).ok_or_else(|| {
                    user(format!(
                        "A wound is green, yellow, red or black; you gave {}.",
                        escape(typed.trim())
                    ))
                })?;
                WoundArgs::Add {
                    character,
                    location,
                    level,
                    nonlethal: o.flag("nonlethal")?,
                }
            }
            Some("heal") => {
                let o = Opts::new(inv, &["character", "location"])?;
                WoundArgs::Heal {
                    character: o.required("character")?.to_owned(),
                    location: o.text("location").map(parse_location).transpose()?,
                }
            }
            Some("rest") => {
                let o = Opts::new(inv, &["character", "days"])?;
                let days = o.int("days", 1, i64::from(MAX_REST_DAYS))?.unwrap_or(1);
                // Without `character`, the caller's THIZ character (`Ctx::acting_character`).
                WoundArgs::Rest {
                    character: o.text("character").unwrap_or_default().to_owned(),
                    days: u32::try_from(days).unwrap_or(1),
                }
            }
            Some("dying") => {
                let o = Opts::new(inv, &["character", "mode"])?;
                WoundArgs::Dying {
                    character: Patient::Named(o.text("character").unwrap_or_default().to_owned()),
                    mode: o.choice("mode")?,
                }
            }
            Some("firstaid") => {
                let o = Opts::new(inv, &["character", "healer", "mode"])?;
                WoundArgs::FirstAid {
                    character: o.required("character")?.to_owned(),
                    healer: o.required("healer")?.to_owned(),
                    mode: o.choice("mode")?,
                }
            }
            Some("surgery") => {
                let o = Opts::new(inv, &["character", "surgeon", "location", "mode"])?;
                WoundArgs::Surgery {
                    character: o.required("character")?.to_owned(),
                    surgeon: o.required("surgeon")?.to_owned(),
                    location: o.text("location").map(parse_location).transpose()?,
                    mode: o.choice("mode")?,
                }
            }
            _ => {
                return Err(user(
                    "/wound needs one of add, heal, rest, dying, firstaid or surgery: /wound add character:… location:… level:…",
                ));
            }
        })
    }

    /// The dying button `dying:<character id>` as the command it runs; `None` for other buttons.
    pub fn parse_button(inv: &Invocation) -> Option<AppResult<Self>> {
        let id = inv.option("id")?;
        let character = care::parse_dying_button(id)?;
        Some(character.map(|id| WoundArgs::Dying {
            character: Patient::Button(id),
            mode: None,
        }))
    }
}

pub(super) fn run(ctx: &Ctx<'_>, a: &WoundArgs) -> AppResult<Reply> {
    match a {
        WoundArgs::Add {
            character,
            location,
            level,
            nonlethal,
        } => {
            let kind = if *nonlethal {
                DamageKind::NonLethal
            } else {
                DamageKind::Lethal
            };
            add(ctx, character, *location, *level, kind)
        }
        WoundArgs::Heal {
            character,
            location,
        } => heal(ctx, character, *location),
        WoundArgs::Rest { character, days } => rest_days(ctx, character, *days),
        WoundArgs::Dying { character, mode } => care::dying(ctx, character, *mode),
        WoundArgs::FirstAid {
            character,
            healer,
            mode,
        } => care::firstaid(ctx, character, healer, *mode),
        WoundArgs::Surgery {
            character,
            surgeon,
            location,
            mode,
        } => care::surgery_on(ctx, character, surgeon, *location, *mode),
    }
}

/// NPCs' wounds are the GM's business: their replies go to the GM alone.
fn visibility(tc: &ThizChar) -> Visibility {
    if tc.character.npc {
        Visibility::Ephemeral
    } else {
        Visibility::Public
    }
}

fn sheet_reply(
    tc: &ThizChar,
    title: String,
    description: String,
    sheet: &WoundSheet,
    condition: Option<Condition>,
) -> Reply {
    let mut status = describe_wounds(sheet);
    let effects = sheet.effects();
    match condition {
        Some(Condition::Dead) => status.push_str("\nDead."),
        Some(c) => {
            let _ = write!(status, "\nIncapacitated: {}.", c.name());
        }
        None => {}
    }
    if !effects.useless.is_empty() {
        let limbs: Vec<&str> = effects.useless.iter().map(|l| l.name()).collect();
        let _ = write!(status, "\nUseless: {}.", limbs.join(", "));
    }
    Reply {
        visibility: visibility(tc),
        buttons: if condition == Some(Condition::Dying) {
            vec![care::dying_button(tc.character.id)]
        } else {
            Vec::new()
        },
        ..Reply::public("").with_embed(Embed {
            title,
            description,
            tone: Some(Tone::Info),
            fields: vec![Field {
                name: "Wounds now".to_owned(),
                value: status,
                inline: false,
            }],
            footer: None,
        })
    }
}

fn save(
    ctx: &Ctx<'_>,
    conn: &crate::store::Conn,
    tc: &ThizChar,
    sheet: &WoundSheet,
) -> AppResult<()> {
    characters::set_wounds(
        conn,
        ctx.caller.guild,
        tc.character.id,
        &rows_from_sheet(sheet),
    )?;
    Ok(())
}

fn add(
    ctx: &Ctx<'_>,
    name: &str,
    location: Location,
    level: Level,
    kind: DamageKind,
) -> AppResult<Reply> {
    ctx.gm()?;
    ctx.app.store.write(|tx| {
        let c = ctx.find_character(tx, name)?;
        let tc = ThizChar::load(tx, c, "/wound add")?;
        let mut sheet = tc.wounds.clone();
        let added = sheet
            .add(location, level)
            .map_err(|e| user(format!("{e}.")))?;
        save(ctx, tx, &tc, &sheet)?;
        let condition = tc.record_wounds(tx, &sheet, kind)?;
        let mut description = format!("A {} wound on the {location}", added.inflicted);
        if added.recorded != added.inflicted {
            let _ = write!(description, ", stacked up to {}", added.recorded);
        }
        description.push('.');
        let title = format!("{} is wounded", escape(&tc.character.name));
        Ok(sheet_reply(&tc, title, description, &sheet, condition))
    })
}

fn heal(ctx: &Ctx<'_>, name: &str, location: Option<Location>) -> AppResult<Reply> {
    ctx.gm()?;
    ctx.app.store.write(|tx| {
        let c = ctx.find_character(tx, name)?;
        let tc = ThizChar::load(tx, c, "/wound heal")?;
        let who = escape(&tc.character.name);
        let mut sheet = tc.wounds.clone();
        let description = if let Some(l) = location {
            let Some(worst) = sheet.at(l).worst() else {
                return Err(user(format!("{who} has no wound on the {l} to heal.")));
            };
            sheet.heal(l, worst).map_err(|e| user(format!("{e}.")))?;
            format!("The {worst} wound on the {l} is healed.")
        } else {
            if sheet.is_empty() {
                return Err(user(format!("{who} has no wounds to heal.")));
            }
            sheet = WoundSheet::new();
            "Every wound is healed.".to_owned()
        };
        save(ctx, tx, &tc, &sheet)?;
        let condition = if location.is_none() {
            conditions::set(tx, ctx.caller.guild, tc.character.id, None)?;
            None
        } else {
            tc.record_wounds(tx, &sheet, DamageKind::Lethal)?
        };
        Ok(sheet_reply(
            &tc,
            format!("{who} is healed"),
            description,
            &sheet,
            condition,
        ))
    })
}

fn rest_days(ctx: &Ctx<'_>, name: &str, days: u32) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let c = ctx.acting_character(tx, Some(name))?;
        let tc = ThizChar::load(tx, c, "/wound rest")?;
        let who = escape(&tc.character.name);
        match tc.condition() {
            Some(Condition::Dying) => {
                return Err(user(format!(
                    "{who} is dying: stabilise them (/wound firstaid) or roll /wound dying before resting."
                )));
            }
            Some(Condition::Dead) => {
                return Err(user(format!("{who} is dead; rest heals no more.")));
            }
            _ => {}
        }
        if tc.wounds.is_empty() {
            return Err(user(format!(
                "{who} has no wounds: there is nothing to rest off."
            )));
        }
        let toughness = clamp_input(tc.base_of(SkillKind::Toughness)?.rating.0);
        let mut sheet = tc.wounds.clone();
        let log = rest(&mut sheet, days, toughness, &mut ctx.dice())
            .map_err(|e| user(format!("{e}.")))?;
        save(ctx, tx, &tc, &sheet)?;
        let condition = tc.record_wounds(tx, &sheet, DamageKind::Lethal)?;
        conditions::advance_day(tx, ctx.caller.guild, tc.character.id, i64::from(days))?;

        let mut records = Vec::new();
        let mut lines = Vec::new();
        for (n, day) in log.iter().enumerate() {
            let healed = match &day.outcome {
                RestOutcome::HealedGreen { location, .. } => {
                    Some(format!("Green on the {location}"))
                }
                RestOutcome::HealedWound {
                    location, level, ..
                } => Some(format!("{level} on the {location}")),
                RestOutcome::NotHealed | RestOutcome::NothingToHeal => None,
            };
            let check = day
                .check
                .map(|(roll, level)| format!("Toughness d100: {roll} → {}; ", level_text(level)))
                .unwrap_or_default();
            let result = healed
                .as_ref()
                .map_or_else(|| "nothing healed".to_owned(), |h| format!("healed {h}"));
            lines.push(format!("Day {}: {check}{result}", n + 1));
            records.push(RestDayRecord {
                roll: day.check.map(|(r, _)| r),
                level: day.check.map(|(_, l)| l.name().to_owned()),
                healed,
            });
        }
        if lines.len() > MAX_REST_LINES {
            let more = lines.len() - MAX_REST_LINES;
            lines.truncate(MAX_REST_LINES);
            lines.push(format!("…and {more} more days."));
        }
        let rested = records.len();
        if (rested as u64) < u64::from(days) {
            lines.push(format!("Healed in full after {rested} days."));
        }
        let mode = if tc.character.npc {
            RollMode::SelfOnly
        } else {
            RollMode::Public
        };
        ctx.log_roll(
            tx,
            Some(tc.character.id),
            "wound rest",
            mode,
            "",
            &ThizRecord::Rest(RestRecord {
                character_id: tc.character.id,
                character: tc.character.name.clone(),
                toughness,
                days_asked: days,
                days: records,
            }),
        )?;
        let mut full = sheet_reply(
            &tc,
            format!("{who} rests"),
            format!("Toughness {toughness}.\n{}", lines.join("\n")),
            &sheet,
            condition,
        );
        full.visibility = Visibility::Public;
        Ok(ctx.route(mode, &format!("a rest for {who}"), full))
    })
}

#[cfg(test)]
mod tests {
    use super::super::record::sheet_from_rows;
    use super::super::testkit::Kit;
    use super::*;
    use crate::store::CharacterId;

    fn sheet(kit: &Kit, id: CharacterId) -> WoundSheet {
        sheet_from_rows(&kit.wounds(id)).unwrap()
    }

    #[test]
    fn gm_adds_and_stacks_wounds() {
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let opts = [
            ("character", "vexa"),
            ("location", "gut"),
            ("level", "yellow"),
        ];
        let reply = kit.run(&kit.gm(), &["wound", "add"], &opts);
        assert_eq!(
            reply.embeds[0].description, "A Yellow wound on the Gut.",
            "{reply:?}"
        );
        assert_eq!(reply.visibility, Visibility::Public);
        let reply = kit.run(&kit.gm(), &["wound", "add"], &opts);
        assert_eq!(
            reply.embeds[0].description,
            "A Yellow wound on the Gut, stacked up to Red."
        );
        assert_eq!(reply.embeds[0].fields[0].value, "Gut: Red, Yellow");
        let s = sheet(&kit, vexa);
        assert!(s.at(Location::Gut).yellow && s.at(Location::Gut).red);
        // NPC wounds answer the GM alone.
        kit.thiz("Ghoul", kit.gm_id(), true);
        let reply = kit.run(
            &kit.gm(),
            &["wound", "add"],
            &[
                ("character", "Ghoul"),
                ("location", "head"),
                ("level", "black"),
            ],
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(reply.embeds[0].fields[0].value.contains("Incapacitated"));
    }

    #[test]
    fn gm_heals_the_worst_wound_or_all() {
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.wound(vexa, "gut", "yellow");
        kit.wound(vexa, "gut", "green");
        kit.wound(vexa, "left leg", "green");
        let reply = kit.run(
            &kit.gm(),
            &["wound", "heal"],
            &[("character", "Vexa"), ("location", "gut")],
        );
        assert_eq!(
            reply.embeds[0].description,
            "The Yellow wound on the Gut is healed."
        );
        assert_eq!(sheet(&kit, vexa).total(), 2);
        let reply = kit.run(
            &kit.gm(),
            &["wound", "heal"],
            &[("character", "Vexa"), ("location", "head")],
        );
        assert_eq!(reply.content, "Vexa has no wound on the Head to heal.");
        let reply = kit.run(&kit.gm(), &["wound", "heal"], &[("character", "Vexa")]);
        assert_eq!(reply.embeds[0].fields[0].value, "no wounds");
        assert!(kit.wounds(vexa).is_empty());
        let reply = kit.run(&kit.gm(), &["wound", "heal"], &[("character", "Vexa")]);
        assert_eq!(reply.content, "Vexa has no wounds to heal.");
    }

    #[test]
    fn rest_heals_greens_first_and_logs_the_roll() {
        let kit = Kit::new(3);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Toughness", 30);
        kit.wound(vexa, "chest", "green");
        kit.wound(vexa, "gut", "yellow");
        let reply = kit.run(
            &kit.player(),
            &["wound", "rest"],
            &[("character", "Vexa"), ("days", "2")],
        );
        let d = &reply.embeds[0].description;
        assert!(
            d.starts_with(
                "Toughness 30.\nDay 1: healed Green on the Chest\nDay 2: Toughness d100: "
            ),
            "{d}"
        );
        assert_eq!(kit.roll_count(), 1);
        let Some(ThizRecord::Rest(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!()
        };
        assert_eq!((rec.days_asked, rec.days.len(), rec.toughness), (2, 2, 30));
        assert!(sheet(&kit, vexa).total() <= 1);
        assert!(!sheet(&kit, vexa).at(Location::Chest).has(Level::Green));
    }

    /// Who runs it, the command path, its options, and what the refusal must say.
    type Case<'a> = (
        crate::app::Caller,
        &'a [&'a str],
        &'a [(&'a str, &'a str)],
        &'a str,
    );

    fn refused(kit: &Kit, cases: &[Case<'_>]) {
        for (caller, path, opts, want) in cases {
            let reply = kit.run(caller, path, opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{path:?} {opts:?}");
            assert!(
                reply.content.contains(want),
                "{path:?} {opts:?}: {}",
                reply.content
            );
        }
    }

    fn setup() -> (Kit, CharacterId) {
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.thiz("Bran", kit.other_id(), false);
        kit.tft("Rook", kit.player_id());
        kit.wound(vexa, "gut", "yellow");
        (kit, vexa)
    }

    #[test]
    fn add_and_heal_refuse_bad_input_and_players() {
        let (kit, vexa) = setup();
        let (add, heal) = (&["wound", "add"][..], &["wound", "heal"][..]);
        let red_gut = |who| [("character", who), ("location", "gut"), ("level", "red")];
        refused(
            &kit,
            &[
                (kit.player(), add, &red_gut("Vexa"), "only a GM can do that"),
                (
                    kit.player(),
                    heal,
                    &[("character", "Vexa")],
                    "only a GM can do that",
                ),
                (
                    kit.gm(),
                    add,
                    &[
                        ("character", "Vexa"),
                        ("location", "tail"),
                        ("level", "red"),
                    ],
                    "no body location tail",
                ),
                (
                    kit.gm(),
                    add,
                    &[
                        ("character", "Vexa"),
                        ("location", "gut"),
                        ("level", "failure"),
                    ],
                    "A wound is green, yellow, red or black",
                ),
                (
                    kit.gm(),
                    add,
                    &red_gut("Nobody"),
                    "There is no character named Nobody",
                ),
                (kit.gm(), add, &red_gut("Rook"), "Rook is a TFT character"),
                (
                    kit.gm(),
                    heal,
                    &[("character", "Vexa"), ("location", "elbow")],
                    "no body location elbow",
                ),
                (
                    kit.player(),
                    &["wound"],
                    &[],
                    "/wound needs one of add, heal, rest, dying, firstaid or surgery",
                ),
            ],
        );
        assert_eq!(kit.wounds(vexa).len(), 1);
    }

    #[test]
    fn rest_refuses_bad_input_and_others() {
        let (kit, vexa) = setup();
        let rest = &["wound", "rest"][..];
        refused(
            &kit,
            &[
                (
                    kit.other(),
                    rest,
                    &[("character", "Vexa")],
                    "Vexa belongs to another player",
                ),
                (
                    kit.player(),
                    rest,
                    &[("character", "Vexa"), ("days", "0")],
                    "days must be between 1 and 365",
                ),
                (
                    kit.player(),
                    rest,
                    &[("character", "Vexa"), ("days", "366")],
                    "days must be between 1 and 365",
                ),
                (
                    kit.player(),
                    rest,
                    &[("character", "Bran")],
                    "Bran belongs to another player",
                ),
                (
                    kit.player(),
                    rest,
                    &[("character", "Rook")],
                    "Rook is a TFT character",
                ),
            ],
        );
        assert_eq!(kit.wounds(vexa).len(), 1);
        assert_eq!(kit.roll_count(), 0);
        let reply = kit.run(&kit.gm(), rest, &[("character", "Bran")]);
        assert_eq!(
            reply.content,
            "Bran has no wounds: there is nothing to rest off."
        );
    }
}
