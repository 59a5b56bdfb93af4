//! `/luck …` and the luck buttons: spending hidden THIZ luck, and the GM's luck commands.
//!
//! Owns what a player is told about luck (only "spent", "your luck has run out" or "you have no
//! luck left", never a number) and the GM copy that carries the totals. Every spend is one
//! `BEGIN IMMEDIATE` transaction with its idempotency key (the interaction id, or the button's id
//! for a button), so repeated deliveries and double presses spend once. Must never put a luck
//! total, a ledger line or a secret luck roll in a reply a player receives.

mod logged;
mod manage;
mod spend;
#[cfg(test)]
mod tests;

use std::str::FromStr;

use super::command::{Invocation, Opts};
use super::reply::Reply;
use super::{AppResult, Ctx, user};
use crate::rules::thiz::luck::MAX_LUCK;
use crate::store::RollId;

pub use logged::{ATTACK_COMMANDS, CHECK_COMMANDS, RerollableCheck, WoundOnRoll};

/// What luck is spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpendKind {
    /// Roll an earlier check again.
    Reroll,
    /// Lower a wound an attack left by one colour.
    Wound,
    /// A feat only luck could pull off; the referee rolls for it in secret.
    Stunt,
}

impl SpendKind {
    fn name(self) -> &'static str {
        match self {
            SpendKind::Reroll => "reroll",
            SpendKind::Wound => "wound",
            SpendKind::Stunt => "stunt",
        }
    }
}

impl FromStr for SpendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reroll" => Ok(SpendKind::Reroll),
            "wound" => Ok(SpendKind::Wound),
            "stunt" => Ok(SpendKind::Stunt),
            other => Err(format!(
                "kind must be reroll, wound or stunt; you gave {:?}",
                super::text::truncate(other, 40)
            )),
        }
    }
}

/// The GM's luck commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmLuck {
    /// Roll 1d10 in secret, replacing the total.
    Roll,
    /// Tell the GM the total.
    Show,
    /// Add points.
    Award(u32),
    /// Set the total.
    Set(u32),
    /// Show the ledger.
    Log,
}

/// `/luck …` and the luck buttons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LuckCommand {
    /// `/luck spend kind [character] [points] [roll]`.
    Spend {
        kind: SpendKind,
        character: Option<String>,
        /// Points named for a stunt (1 for a reroll or a wound).
        points: u32,
        roll: Option<RollId>,
    },
    /// A "Spend luck" button: `luck:reroll:{roll}` or `luck:wound:{roll}`.
    Button {
        kind: SpendKind,
        roll: RollId,
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
            } => spend::run(
                ctx,
                &spend::Request {
                    kind,
                    character: character.as_deref(),
                    points,
                    roll,
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
                    pressed: true,
                    key: &custom_id,
                },
            ),
            LuckCommand::Gm { action, character } => manage::run(ctx, action, &character),
        }
    }
}

fn parse_spend(inv: &Invocation) -> AppResult<LuckCommand> {
    let o = Opts::new(inv, &["kind", "character", "points", "roll"])?;
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
        (_, Some(p)) => {
            return Err(user(format!(
                "A {} costs exactly 1 luck point; leave points out (you gave {p}).",
                kind.name()
            )));
        }
    };
    if kind == SpendKind::Stunt && roll.is_some() {
        return Err(user(
            "roll is for kind:reroll or kind:wound; a stunt is not spent on an earlier roll.",
        ));
    }
    Ok(LuckCommand::Spend {
        kind,
        character: o.text("character").map(|c| c.trim().to_owned()),
        points,
        roll,
    })
}

/// The custom id of a "Spend luck" button for `roll`.
pub fn button_id(kind: SpendKind, roll: RollId) -> String {
    format!("luck:{}:{}", kind.name(), roll.0)
}

fn parse_button(id: &str) -> AppResult<LuckCommand> {
    let stale = || user("That button is no longer valid; use /luck spend instead.");
    let mut parts = id.trim().split(':');
    let (Some("luck"), Some(kind), Some(roll), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(stale());
    };
    let kind = match kind {
        "reroll" => SpendKind::Reroll,
        "wound" => SpendKind::Wound,
        _ => return Err(stale()),
    };
    let roll = roll
        .parse::<i64>()
        .ok()
        .filter(|r| *r > 0)
        .ok_or_else(stale)?;
    Ok(LuckCommand::Button {
        kind,
        roll: RollId(roll),
        custom_id: button_id(kind, RollId(roll)),
    })
}

#[cfg(test)]
mod parse_tests {
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
                roll: None
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
                roll: Some(RollId(12))
            }
        );
        assert!(err(&["luck", "spend"], &[]).contains("needs the option kind"));
        assert!(err(&["luck", "spend"], &[("kind", "dance")]).contains("reroll, wound or stunt"));
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
        for bad in [
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
