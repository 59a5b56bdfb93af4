//! `/luck …` and the luck buttons: spending hidden THIZ luck, and the GM's luck commands.
//!
//! Owns what a player is told about luck (only "spent", "your luck has run out" or "you have no
//! luck left", never a number) and the GM copy that carries the totals. Every spend is one
//! `BEGIN IMMEDIATE` transaction with its idempotency key (the interaction id, or the button's id
//! for a button), so repeated deliveries and double presses spend once. Must never put a luck
//! total, a ledger line or a secret luck roll in a reply a player receives.

pub mod button;
mod logged;
mod manage;
mod spend;
#[cfg(test)]
mod tests;

use super::invocation::{Invocation, Opts};
use super::reply::Reply;
use super::{AppResult, Ctx, user};
use crate::rules::thiz::luck::MAX_LUCK;
use crate::rules::thiz::{Level, Location};
use crate::store::{CharacterId, RollId};

pub use button::SpendKind;
use button::{MAX_TAG, button_id};
pub use manage::GmLuck;

pub use logged::{ATTACK_COMMANDS, CHECK_COMMANDS, RerollableCheck, WoundOnRoll};

/// `/luck …` and the luck buttons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LuckCommand {
    /// `/luck spend kind [character] [points] [roll] [location] [level]`.
    Spend {
        kind: SpendKind,
        character: Option<String>,
        /// Points named for a stunt (1 for anything else).
        points: u32,
        roll: Option<RollId>,
        /// For a wound: the section (default: the latest attack's, or the only wounded one).
        location: Option<Location>,
        /// For a wound: the colour to lower (default: the worst on that section).
        level: Option<Level>,
    },
    /// A "Spend luck" button on a roll: `luck:reroll:{roll}`, `luck:toughness:{roll}` or
    /// `luck:wound:{roll}`.
    Button {
        kind: SpendKind,
        roll: RollId,
        custom_id: String,
    },
    /// "Spend luck: lower again" on a lowered wound: `luck:lower:{character}:{section}:{tag}`,
    /// the tag making each such button spend at most once.
    LowerAgain {
        character: CharacterId,
        location: Location,
        custom_id: String,
    },
    /// `/luck roll|show|award|set|log character [points]`.
    Gm { action: GmLuck, character: String },
}

const SUBCOMMANDS: &str =
    "/luck spend, /luck roll, /luck show, /luck award, /luck set or /luck log";

impl LuckCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["luck", "spend"] => parse_spend(inv),
            ["button"] => {
                let o = Opts::new(inv, &["id"])?;
                parse_button(o.required("id")?)
            }
            ["luck", action @ ("roll" | "show" | "log")] => {
                let o = Opts::new(inv, &["character"])?;
                let character = o.required("character")?.trim().to_owned();
                let action = match *action {
                    "roll" => GmLuck::Roll,
                    "show" => GmLuck::Show,
                    _ => GmLuck::Log,
                };
                Ok(LuckCommand::Gm { action, character })
            }
            ["luck", action @ ("award" | "set")] => {
                let o = Opts::new(inv, &["character", "points"])?;
                let character = o.required("character")?.trim().to_owned();
                let action = if *action == "award" {
                    GmLuck::Award(o.required_int("points", 1, i64::from(MAX_LUCK))? as u32)
                } else {
                    GmLuck::Set(o.required_int("points", 0, i64::from(MAX_LUCK))? as u32)
                };
                Ok(LuckCommand::Gm { action, character })
            }
            _ => Err(user(format!(
                "{} is not a luck command; use {SUBCOMMANDS}.",
                super::text::escape(&inv.display_path())
            ))),
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            LuckCommand::Spend {
                kind,
                character,
                points,
                roll,
                location,
                level,
            } => spend::run(
                ctx,
                &spend::Request {
                    kind,
                    character: character.as_deref().map(spend::Whose::Named),
                    points,
                    roll,
                    location,
                    level,
                    pressed: false,
                    key: ctx.interaction_id,
                },
            ),
            LuckCommand::Button {
                kind,
                roll,
                custom_id,
            } => spend::run(
                ctx,
                &spend::Request {
                    kind,
                    character: None,
                    points: 1,
                    roll: Some(roll),
                    location: None,
                    level: None,
                    pressed: true,
                    key: &custom_id,
                },
            ),
            LuckCommand::LowerAgain {
                character,
                location,
                custom_id,
            } => spend::run(
                ctx,
                &spend::Request {
                    kind: SpendKind::Wound,
                    character: Some(spend::Whose::Id(character)),
                    points: 1,
                    roll: None,
                    location: Some(location),
                    level: None,
                    pressed: true,
                    key: &custom_id,
                },
            ),
            LuckCommand::Gm { action, character } => manage::run(ctx, action, &character),
        }
    }
}

fn parse_spend(inv: &Invocation) -> AppResult<LuckCommand> {
    let o = Opts::new(
        inv,
        &["kind", "character", "points", "roll", "location", "level"],
    )?;
    o.required("kind")?;
    let kind: SpendKind = o.choice("kind")?.unwrap_or(SpendKind::Stunt);
    let points = o.int("points", 1, i64::from(MAX_LUCK))?;
    let roll = o.int("roll", 1, i64::MAX)?.map(RollId);
    let points = match (kind, points) {
        (SpendKind::Stunt, Some(p)) => p as u32,
        (SpendKind::Stunt, None) => {
            return Err(user(
                "A luck stunt needs the points you put on it, like points:2 (at least 1).",
            ));
        }
        (_, None | Some(1)) => 1,
        (SpendKind::Wound, Some(p)) => {
            return Err(user(format!(
                "Each luck point lowers a wound one colour; spend them one at a time (you gave points:{p})."
            )));
        }
        (_, Some(p)) => {
            return Err(user(format!(
                "A {} costs exactly 1 luck point; leave points out (you gave {p}).",
                kind.name()
            )));
        }
    };
    if !kind.takes_roll() && roll.is_some() {
        return Err(user(format!(
            "roll is for kind:reroll, kind:toughness or kind:wound; a {} is not spent on an earlier roll.",
            kind.name()
        )));
    }
    let location = o.text("location").map(parse_location).transpose()?;
    let level = o.text("level").map(parse_wound_level).transpose()?;
    if kind != SpendKind::Wound && (location.is_some() || level.is_some()) {
        return Err(user(
            "location and level are for kind:wound, to say which wound luck lowers.",
        ));
    }
    Ok(LuckCommand::Spend {
        kind,
        character: o.text("character").map(|c| c.trim().to_owned()),
        points,
        roll,
        location,
        level,
    })
}

fn parse_location(text: &str) -> AppResult<Location> {
    Location::parse(text).ok_or_else(|| user(super::text::no_such_location(text)))
}

fn parse_wound_level(text: &str) -> AppResult<Level> {
    crate::app::thiz::record::parse_wound_level(text).ok_or_else(|| {
        user(format!(
            "level must be green, yellow, red or black; you gave {}.",
            super::text::escape(&super::text::truncate(text.trim(), 40))
        ))
    })
}

fn parse_button(id: &str) -> AppResult<LuckCommand> {
    let stale = || user("That button is no longer valid; use /luck spend instead.");
    let id = id.trim();
    let parts: Vec<&str> = id.split(':').collect();
    let positive = |text: &str| text.parse::<i64>().ok().filter(|n| *n > 0);
    match parts.as_slice() {
        ["luck", "lower", character, slot, tag] if !tag.is_empty() && tag.len() <= MAX_TAG => {
            let character = positive(character).ok_or_else(stale)?;
            let location = slot
                .parse::<usize>()
                .ok()
                .and_then(|i| Location::ALL.get(i).copied())
                .ok_or_else(stale)?;
            Ok(LuckCommand::LowerAgain {
                character: CharacterId(character),
                location,
                custom_id: id.to_owned(),
            })
        }
        ["luck", kind, roll] => {
            let kind = match *kind {
                "reroll" => SpendKind::Reroll,
                "toughness" => SpendKind::Toughness,
                "wound" => SpendKind::Wound,
                _ => return Err(stale()),
            };
            let roll = RollId(positive(roll).ok_or_else(stale)?);
            Ok(LuckCommand::Button {
                kind,
                roll,
                custom_id: button_id(kind, roll),
            })
        }
        _ => Err(stale()),
    }
}

#[cfg(test)]
mod parse_tests {
    use super::button::lower_again_id;
    use super::*;

    fn parse(path: &[&str], opts: &[(&str, &str)]) -> AppResult<LuckCommand> {
        LuckCommand::parse(&Invocation::new(path, opts))
    }

    fn err(path: &[&str], opts: &[(&str, &str)]) -> String {
        parse(path, opts).expect_err("should refuse").to_string()
    }

    #[test]
    fn spend_options() {
        assert_eq!(
            parse(&["luck", "spend"], &[("kind", "stunt"), ("points", "3")]).unwrap(),
            LuckCommand::Spend {
                kind: SpendKind::Stunt,
                character: None,
                points: 3,
                roll: None,
                location: None,
                level: None,
            }
        );
        assert_eq!(
            parse(
                &["luck", "spend"],
                &[("kind", "Reroll"), ("roll", "12"), ("character", " Vexa ")]
            )
            .unwrap(),
            LuckCommand::Spend {
                kind: SpendKind::Reroll,
                character: Some("Vexa".into()),
                points: 1,
                roll: Some(RollId(12)),
                location: None,
                level: None,
            }
        );
        assert!(err(&["luck", "spend"], &[]).contains("needs the option kind"));
        assert!(
            err(&["luck", "spend"], &[("kind", "dance")])
                .contains("reroll, toughness, wound, stunt, berserk or rouse")
        );
        assert!(err(&["luck", "spend"], &[("kind", "stunt")]).contains("points:2"));
        assert!(
            err(&["luck", "spend"], &[("kind", "stunt"), ("points", "0")])
                .contains("between 1 and 999")
        );
        assert!(parse(&["luck", "spend"], &[("kind", "stunt"), ("points", "999")]).is_ok());
        assert!(
            err(&["luck", "spend"], &[("kind", "stunt"), ("points", "1000")])
                .contains("between 1 and 999")
        );
        assert!(
            err(&["luck", "spend"], &[("kind", "wound"), ("points", "2")])
                .contains("one at a time")
        );
        assert!(
            err(&["luck", "spend"], &[("kind", "reroll"), ("points", "2")])
                .contains("exactly 1 luck point")
        );
        assert!(
            err(
                &["luck", "spend"],
                &[("kind", "stunt"), ("points", "1"), ("roll", "3")]
            )
            .contains("roll is for")
        );
        assert!(err(&["luck", "spend"], &[("kind", "reroll"), ("roll", "0")]).contains("roll"));
        assert!(err(&["luck", "spend"], &[("kind", "reroll"), ("luck", "1")]).contains("accepts"));
    }

    #[test]
    fn wound_and_quirk_options() {
        assert_eq!(
            parse(
                &["luck", "spend"],
                &[
                    ("kind", "wound"),
                    ("location", "left arm"),
                    ("level", "Red")
                ]
            )
            .unwrap(),
            LuckCommand::Spend {
                kind: SpendKind::Wound,
                character: None,
                points: 1,
                roll: None,
                location: Some(Location::LeftArm),
                level: Some(Level::Red),
            }
        );
        assert!(
            err(
                &["luck", "spend"],
                &[("kind", "wound"), ("location", "tail")]
            )
            .contains("no body location tail")
        );
        assert!(
            err(
                &["luck", "spend"],
                &[("kind", "wound"), ("level", "failure")]
            )
            .contains("green, yellow, red or black")
        );
        assert!(
            err(
                &["luck", "spend"],
                &[("kind", "reroll"), ("location", "head")]
            )
            .contains("location and level are for kind:wound")
        );
        assert!(
            err(&["luck", "spend"], &[("kind", "berserk"), ("roll", "4")]).contains("roll is for")
        );
    }

    #[test]
    fn gm_options() {
        assert_eq!(
            parse(
                &["luck", "award"],
                &[("character", "Vexa"), ("points", "2")]
            )
            .unwrap(),
            LuckCommand::Gm {
                action: GmLuck::Award(2),
                character: "Vexa".into()
            }
        );
        assert_eq!(
            parse(&["luck", "set"], &[("character", "Vexa"), ("points", "0")]).unwrap(),
            LuckCommand::Gm {
                action: GmLuck::Set(0),
                character: "Vexa".into()
            }
        );
        assert!(
            err(
                &["luck", "award"],
                &[("character", "Vexa"), ("points", "0")]
            )
            .contains("between 1")
        );
        assert!(
            err(&["luck", "set"], &[("character", "Vexa"), ("points", "-1")]).contains("between 0")
        );
        assert!(
            err(&["luck", "set"], &[("character", "Vexa")]).contains("needs the option points")
        );
        assert!(err(&["luck", "show"], &[]).contains("needs the option character"));
        assert!(
            err(&["luck", "show"], &[("character", "V"), ("points", "1")])
                .contains("accepts character")
        );
        assert!(err(&["luck"], &[]).contains("/luck spend"));
        assert!(err(&["luck", "steal"], &[]).contains("/luck spend"));
    }

    #[test]
    fn buttons() {
        assert_eq!(
            parse(&["button"], &[("id", "luck:wound:7")]).unwrap(),
            LuckCommand::Button {
                kind: SpendKind::Wound,
                roll: RollId(7),
                custom_id: "luck:wound:7".into()
            }
        );
        assert_eq!(button_id(SpendKind::Reroll, RollId(3)), "luck:reroll:3");
        assert_eq!(
            parse(&["button"], &[("id", "luck:toughness:9")]).unwrap(),
            LuckCommand::Button {
                kind: SpendKind::Toughness,
                roll: RollId(9),
                custom_id: "luck:toughness:9".into()
            }
        );
        let again = lower_again_id(CharacterId(4), Location::LeftArm, "i 9/x");
        assert_eq!(again, "luck:lower:4:4:i9x");
        assert_eq!(
            parse(&["button"], &[("id", &again)]).unwrap(),
            LuckCommand::LowerAgain {
                character: CharacterId(4),
                location: Location::LeftArm,
                custom_id: again.clone()
            }
        );
        assert!(lower_again_id(CharacterId(4), Location::Head, &"9".repeat(500)).len() <= 100);
        for bad in [
            "luck:lower:4:7:x",
            "luck:lower:4:x:x",
            "luck:lower:0:1:x",
            "luck:lower:4:1:",
            "luck:lower:4:1",
            "luck:stunt:1",
            "luck:reroll:x",
            "luck:reroll:0",
            "luck:reroll:1:2",
            "other",
        ] {
            assert!(
                err(&["button"], &[("id", bad)]).contains("no longer valid"),
                "{bad}"
            );
        }
    }
}
