//! THIZ use cases: `/check`, `/attack`, `/wound add|heal|rest|dying|firstaid|surgery` (and the
//! dying button) and `/odds thiz` (SPEC §2).
//!
//! Owns the composition of the THIZ rules with the store: reading a character's skills, wounds,
//! weaknesses and equipment, rolling through the context's dice, writing wounds and the roll log
//! in one transaction, and the replies. The log's JSON shape is [`record::ThizRecord`], which the
//! luck commands read to reroll a check or lower a wound. Never decides a rule itself (that is
//! `rules::thiz`) and never reads a hidden value without the GM's proof.
//!
//! Decisions made here:
//! - `/check rating:N character:X` checks X at the bare rating N, with X's wound penalty and
//!   weaknesses; `rating:N` alone needs no character and offers no luck button.
//! - A target is a **mook** when it is an NPC whose hidden value `mook` is true (`/gm hidden`).
//!   Only GMs can name NPCs, so the hidden value is read with their proof.
//! - `/wound heal character` without a location heals every wound; with one, the worst wound
//!   there. `/wound add|heal|rest` answer in the channel for player characters and only to the GM
//!   for NPCs.

pub mod advance;
pub mod attack;
mod care;
mod check;
mod effects;
mod hazard;
mod magic;
mod maneuver;
pub mod movement;
mod odds;
pub mod record;
mod several;
pub mod shared;
mod situation;
pub mod special;
mod spell;
pub mod stats;
mod wound;

#[cfg(test)]
mod testkit;

use super::invocation::{Invocation, Opts};
use super::reply::Reply;
use super::{AppResult, Ctx, user};
use shared::{INPUT_LIMIT, int};

pub use attack::AttackArgs;
pub use care::dying_button;
pub use check::CheckArgs;
pub use hazard::HazardArgs;
pub use magic::MagicArgs;
pub use maneuver::ManeuverArgs;
pub use wound::WoundArgs;

/// `/check`, `/attack`, `/wound …` and `/odds thiz`.
#[derive(Debug, Clone)]
pub enum ThizCommand {
    /// `/check [skill] [rating] [character] [modifier] [mode] [label]`.
    Check(CheckArgs),
    /// `/attack attacker target [weapon] [location] [missile] [modifier] [mode]`.
    Attack(AttackArgs),
    /// `/wound add|heal|rest …`.
    Wound(WoundArgs),
    /// `/maneuver grapple|escape|trip|disarm|sunder|listen …`.
    Maneuver(ManeuverArgs),
    /// `/hazard fall|fire|water|suffocation|poison …`.
    Hazard(HazardArgs),
    /// `/magic cast|terror|learn …`.
    Magic(MagicArgs),
    /// `/magic target use target …`: Mentalism, Reiki or Psychokinesis on another character.
    MagicTarget(spell::TargetArgs),
    /// `/odds thiz rating [modifier]`.
    Odds { rating: i32, modifier: i32 },
    /// `/move …`.
    Move(movement::MoveArgs),
    /// `/advance …`.
    Advance(advance::AdvanceArgs),
    /// A private attack's notice button (`see:<roll>`): what it did, for the target's player.
    See(crate::store::RollId),
}

impl ThizCommand {
    /// Parses `/check`, `/attack`, `/wound …` or `/odds thiz`.
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        Ok(match path.as_slice() {
            ["check"] => ThizCommand::Check(CheckArgs::parse(inv)?),
            ["attack"] => ThizCommand::Attack(AttackArgs::parse(inv)?),
            ["wound", ..] => ThizCommand::Wound(WoundArgs::parse(inv)?),
            ["maneuver", ..] => ThizCommand::Maneuver(ManeuverArgs::parse(inv)?),
            ["hazard", ..] => ThizCommand::Hazard(HazardArgs::parse(inv)?),
            ["magic", "target"] => ThizCommand::MagicTarget(spell::TargetArgs::parse(inv)?),
            ["magic", ..] => ThizCommand::Magic(MagicArgs::parse(inv)?),
            ["move", ..] => ThizCommand::Move(movement::MoveArgs::parse(inv)?),
            ["advance", ..] => ThizCommand::Advance(advance::AdvanceArgs::parse(inv)?),
            ["odds", "thiz"] => {
                let o = Opts::new(inv, &["rating", "modifier"])?;
                ThizCommand::Odds {
                    rating: int(o.required_int("rating", -INPUT_LIMIT, INPUT_LIMIT)?),
                    modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
                }
            }
            _ => {
                return Err(user(format!(
                    "There is no command {}. /help lists them.",
                    super::text::escape(&inv.display_path())
                )));
            }
        })
    }

    /// Runs the command.
    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            ThizCommand::Check(a) => check::run(ctx, &a),
            ThizCommand::Attack(a) => several::run(ctx, &a),
            ThizCommand::See(id) => attack::see(ctx, id),
            ThizCommand::Wound(a) => wound::run(ctx, &a),
            ThizCommand::Maneuver(a) => maneuver::run(ctx, &a),
            ThizCommand::Hazard(a) => hazard::run(ctx, &a),
            ThizCommand::Magic(a) => magic::run(ctx, &a),
            ThizCommand::MagicTarget(a) => spell::run(ctx, &a),
            ThizCommand::Odds { rating, modifier } => odds::run(rating, modifier),
            ThizCommand::Move(a) => movement::run(ctx, &a),
            ThizCommand::Advance(a) => advance::run(ctx, &a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shared::parse_location;
    use super::*;
    use crate::rules::thiz::Location;

    #[test]
    fn parse_refuses_unknown_paths_and_bad_odds() {
        let bad = ThizCommand::parse(&Invocation::new(&["odds", "thiz"], &[("rating", "41")]));
        assert_eq!(
            bad.err().unwrap().to_string(),
            "rating must be between -40 and 40; you gave 41"
        );
        let missing = ThizCommand::parse(&Invocation::new(&["odds", "thiz"], &[]));
        assert!(
            missing
                .err()
                .unwrap()
                .to_string()
                .contains("needs the option rating")
        );
        assert!(ThizCommand::parse(&Invocation::new(&["wound", "poke"], &[])).is_err());
        assert!(parse_location("tail").is_err());
        assert_eq!(parse_location("R arm").unwrap(), Location::RightArm);
    }

    /// A command path and its options.
    type Run<'a> = (&'a [&'a str], Vec<(&'a str, &'a str)>);

    #[test]
    fn player_replies_never_carry_hidden_values() {
        use super::testkit::{GUILD, Kit};
        use crate::store::secrets::{self, GmProof, LedgerEntry, LuckKind};
        let kit = Kit::new(11);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        let bran = kit.thiz("Bran", kit.other_id(), false);
        let npc = kit.thiz("Zzyzx", kit.gm_id(), true);
        kit.skill(vexa, "Stealth", 5);
        kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 3}"#);
        kit.wound(vexa, "left leg", "green");
        kit.wound(vexa, "gut", "yellow");
        for id in [vexa, bran, npc] {
            kit.hidden(id, "mook", "SENTINEL-HIDDEN");
            kit.app
                .store
                .write(|tx| {
                    secrets::add_note(
                        tx,
                        GmProof::verified(GUILD),
                        id,
                        kit.gm_id(),
                        "SENTINEL-NOTE",
                    )?;
                    let entry = LedgerEntry {
                        actor: kit.gm_id(),
                        kind: LuckKind::Set,
                        reason: "test",
                        roll: None,
                        idem_key: None,
                    };
                    secrets::set_luck(tx, GUILD, id, 4242, &entry)
                })
                .unwrap();
        }
        let mut texts = Vec::new();
        for mode in ["public", "private", "blind", "self"] {
            let runs: [Run<'_>; 5] = [
                (&["check"], vec![("skill", "Stealth"), ("mode", mode)]),
                (
                    &["check"],
                    vec![("rating", "3"), ("character", "Vexa"), ("mode", mode)],
                ),
                (&["check"], vec![("rating", "3"), ("mode", mode)]),
                (
                    &["attack"],
                    vec![
                        ("attacker", "Vexa"),
                        ("target", "Bran"),
                        ("weapon", "Sword"),
                        ("mode", mode),
                    ],
                ),
                (&["odds", "thiz"], vec![("rating", "3")]),
            ];
            for (path, opts) in runs {
                let reply = kit.run(&kit.player(), path, &opts);
                texts.push(
                    Reply {
                        gm_copy: None,
                        ..reply
                    }
                    .all_text(),
                );
            }
        }
        let rest = kit.run(
            &kit.player(),
            &["wound", "rest"],
            &[("character", "Vexa"), ("days", "3")],
        );
        texts.push(
            Reply {
                gm_copy: None,
                ..rest
            }
            .all_text(),
        );
        for text in &texts {
            for secret in ["SENTINEL", "4242", "Zzyzx", "mook"] {
                assert!(!text.contains(secret), "{secret} leaked in {text}");
            }
        }
    }
}
