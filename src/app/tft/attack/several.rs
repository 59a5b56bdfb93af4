//! `/tft attack` on several targets (issue 59, item 6): `target:"Orc 1, Orc 2"` makes one attack
//! on each, in the order named, in one transaction, and the message holds them all.
//!
//! TFT gives a figure one action a turn (tft-rules-summary.md, the turn sequence), so a player
//! names several targets only where the rules give several attacks: a bow fast enough to shoot
//! twice (tft-rules-summary.md, "MISSILE WEAPONS": two shots a round at the adjDX its row names;
//! `adjust:shooting-twice`), or multiple actions (tft-multiple-actions.txt: each declared action
//! may be an attack). Each later shot or throw is one more earlier roll to hit
//! (tft-house-rules-combat.txt, "Rolling to Miss and Multiple Rolls to Hit"), which an
//! encounter counts by itself and this command counts outside one. A GM may strike more (SPEC
//! §3: a GM may override anything), and the message says it was the GM's call.
//!
//! Decision: a refusal of any one attack (a target that does not exist, a turn used up) refuses
//! the whole command and changes nothing, since the attacks are one transaction.

use super::super::shared::table_settings;
use super::Attack;
use crate::app::reply::Reply;
use crate::app::text::{count, escape};
use crate::app::{AppResult, Ctx, user};

impl Attack {
    /// Runs `/tft attack` on each of `targets` in turn (two or more), as one message.
    pub(super) fn run_several(self, ctx: &Ctx<'_>, targets: &[String]) -> AppResult<Reply> {
        let (settings, house_rules) = table_settings(ctx);
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let mut parts = Vec::with_capacity(targets.len() + 1);
            for (i, name) in targets.iter().enumerate() {
                let mut one = self.clone();
                one.target.clone_from(name);
                one.house_rules = house_rules;
                let turn = one.prepare(ctx, tx)?;
                if i == 0
                    && let Some(line) = one.allowance(ctx, targets.len())?
                {
                    parts.push(Reply::public(line));
                }
                // An encounter counts the rolls of this turn itself (`TftTurn::rolls_this_turn`).
                one.earlier = if turn.counted { 0 } else { i as u32 };
                let (what, full) = one.resolve(ctx, tx, &turn, settings)?;
                parts.push(ctx.route(one.mode, &what, full));
            }
            Reply::join(parts).ok_or_else(|| user("Name the targets."))
        })
    }

    /// Whether this attack may strike `n` targets: the attacks its turn gives (one, one more
    /// for a bow's second shot, one more for each declared multiple action); `Some` line when
    /// a GM strikes more, which says so; a player's is refused with the ways to get more.
    fn allowance(&self, ctx: &Ctx<'_>, n: usize) -> AppResult<Option<String>> {
        // `prepare` filled `actions` from the declared meta-option when it was left out.
        let actions = self.actions.map_or(1, |m| m + 1);
        let allowed = actions + u32::from(self.extras.shooting_twice);
        if n <= allowed as usize {
            return Ok(None);
        }
        let gives = count(allowed, "attack", "attacks");
        if ctx.is_gm() {
            return Ok(Some(format!(
                "GM's call: {n} targets, where this turn gives {gives} (TFT: one action a turn; a bow shooting twice or declared multiple actions give more)."
            )));
        }
        Err(user(format!(
            "This attack may strike {gives}, not {n} targets: TFT gives a figure one action a turn. More targets take a bow fast enough to shoot twice (adjust:shooting-twice, two targets) or multiple actions (in a fight /encounter declare actions:2 or 3; outside one actions:1 for two attacks, actions:2 for three). Named: {}.",
            escape(&self.target)
        )))
    }
}
