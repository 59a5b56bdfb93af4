//! `/tft attack` in an encounter's channel (issue 20): the attacker defaults to whoever's turn
//! it is; the target's declared defending or dodging, the attacker's declared charge and
//! multiple actions fill options left out; the attacker's −2 adjDX after 5 hits since its last
//! action, its earlier shots this turn, and the hits the target took earlier this round (the
//! cumulative knockdown) come from the encounter. See `app::encounter::hooks`.

use super::{Attack, Chosen, Guard};
use crate::app::encounter::hooks::{self, TftTurn};
use crate::app::encounter::state::Declared;
use crate::app::reply::Reply;
use crate::app::{AppResult, Ctx};
use crate::rules::tft::attack::Adjustment;
use crate::rules::tft::damage::Charge;
use crate::rules::tft::gear::Weapon;
use crate::store::Conn;

impl Attack {
    /// Runs `/tft attack`, with what the channel's encounter adds.
    pub fn run(mut self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let turn = ctx
            .app
            .store
            .read(|conn| -> crate::store::Result<_> { Ok(self.prepare(ctx, conn)) })??;
        self.run_turn(ctx, &turn)
    }

    /// Fills the options the encounter knows and the caller left out.
    fn prepare(&mut self, ctx: &Ctx<'_>, conn: &Conn) -> AppResult<TftTurn> {
        self.attacker = hooks::attacker_name(ctx, conn, &self.attacker)?;
        let attacker = ctx.acting_character(conn, Some(&self.attacker))?;
        let target = hooks::target(ctx, conn, &self.target)?;
        let turn = hooks::tft_before(ctx, conn, attacker.id, target.id, self.actions)?;
        if self.guard.is_none() {
            self.guard = match turn.guard {
                Some(Declared::Defending) => Some(Guard::Defending),
                Some(Declared::Dodging) => Some(Guard::Dodging),
                _ => None,
            };
        }
        if self.charge == Charge::None && turn.charge {
            self.charge = Charge::Charging;
        }
        if self.actions.is_none() {
            self.actions = turn.multiplier;
        }
        Ok(turn)
    }
}

/// The adjustments the encounter adds: −2 adjDX after enough hits since the last action, and
/// a missile's earlier shots this turn when `prior:` was left out.
pub(super) fn more(mut out: Vec<Adjustment>, turn: &TftTurn, chosen: &Chosen) -> Vec<Adjustment> {
    if turn.hurt {
        out.push(Adjustment::HurtSinceLastAction);
    }
    let missile = chosen.weapon.is_some_and(Weapon::is_missile);
    let given = out
        .iter()
        .any(|a| matches!(a, Adjustment::EarlierRollsThisTurn(_)));
    if missile && !given && turn.rolls_this_turn > 0 {
        out.push(Adjustment::EarlierRollsThisTurn(turn.rolls_this_turn));
    }
    out
}
