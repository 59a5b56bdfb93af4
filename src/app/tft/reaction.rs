//! `/tft reaction [modifier] [mode]`: the 1d roll of how an NPC takes to the party, with the
//! exact chances of each reaction at that modifier. Usually the GM's roll, so blind suits it.

use serde_json::json;

use super::shared::field;
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::signed;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::campaign::{MAX_REACTION_MODIFIER, Reaction, reaction_odds, reaction_roll};

/// A parsed `/tft reaction`.
#[derive(Debug, Clone)]
pub struct NpcReaction {
    modifier: i32,
    mode: RollMode,
}

impl NpcReaction {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["modifier", "mode"])?;
        let max = i64::from(MAX_REACTION_MODIFIER);
        Ok(Self {
            modifier: o.int("modifier", -max, max)?.unwrap_or(0) as i32,
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let odds = reaction_odds(self.modifier).map_err(user)?;
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let r = reaction_roll(self.modifier, &mut ctx.dice()).map_err(user)?;
            ctx.log_roll(
                tx,
                None,
                "tft reaction",
                self.mode,
                "an NPC reaction",
                &json!({
                    "face": r.face,
                    "modifier": r.modifier,
                    "total": r.total,
                    "reaction": name(r.reaction),
                }),
            )?;
            let chances: Vec<String> = REACTIONS
                .iter()
                .zip(odds)
                .filter(|(_, sixths)| *sixths > 0)
                .map(|(r, sixths)| format!("{} {sixths}/6", name(*r)))
                .collect();
            let embed = Embed {
                title: "An NPC's reaction".to_owned(),
                description: format!("**{}**", name(r.reaction)),
                tone: Some(match r.reaction {
                    Reaction::Hostile => Tone::Red,
                    Reaction::Unfriendly => Tone::Grey,
                    Reaction::Neutral | Reaction::Friendly => Tone::Green,
                    Reaction::VeryFriendly => Tone::Black,
                }),
                fields: vec![
                    field(
                        "Roll",
                        format!("1d: {} {} = {}", r.face, signed(r.modifier), r.total),
                        true,
                    ),
                    field("Chances", chances.join(", "), false),
                ],
                footer: None,
            };
            Ok((
                "an NPC reaction".to_owned(),
                Reply::public("").with_embed(embed),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

/// The reactions in the order `reaction_odds` counts them, worst first.
const REACTIONS: [Reaction; 5] = [
    Reaction::Hostile,
    Reaction::Unfriendly,
    Reaction::Neutral,
    Reaction::Friendly,
    Reaction::VeryFriendly,
];

fn name(r: Reaction) -> &'static str {
    match r {
        Reaction::Hostile => "Hostile",
        Reaction::Unfriendly => "Unfriendly",
        Reaction::Neutral => "Neutral",
        Reaction::Friendly => "Friendly",
        Reaction::VeryFriendly => "Very friendly",
    }
}
