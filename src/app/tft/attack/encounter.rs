//! `/tft attack` in an encounter's channel (issue 20): the attacker defaults to whoever's turn
//! it is; the target's declared defending or dodging, the attacker's declared charge and
//! multiple actions fill options left out; the attacker's −2 adjDX after 5 hits since its last
//! action, its earlier shots this turn, and the hits the target took earlier this round (the
//! cumulative knockdown) come from the encounter. See `app::encounter::hooks`.

use super::{Attack, Guard};
use crate::app::encounter::hooks::{self, TftTurn};
use crate::app::encounter::state::Declared;
use crate::app::reply::Reply;
use crate::app::{AppResult, Ctx};
use crate::rules::tft::damage::Charge;
use crate::store::Conn;

impl Attack {
    /// Runs `/tft attack`, with what the channel's encounter adds.
    pub fn run(mut self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let targets = hooks::target_list(&self.target)?;
        if targets.len() > 1 {
            return self.run_several(ctx, &targets);
        }
        self.target.clone_from(&targets[0]);
        let turn = ctx
            .app
            .store
            .read(|conn| -> crate::store::Result<_> { Ok(self.prepare(ctx, conn)) })??;
        self.run_turn(ctx, &turn)
    }

    /// Fills the options the encounter knows and the caller left out.
    pub(super) fn prepare(&mut self, ctx: &Ctx<'_>, conn: &Conn) -> AppResult<TftTurn> {
        self.attacker = hooks::attacker_name(ctx, conn, &self.attacker)?;
        let attacker = ctx.acting_character(conn, Some(&self.attacker))?;
        let target = hooks::target(ctx, conn, &self.target)?;
        let turn = hooks::tft_before(
            ctx,
            conn,
            attacker.id,
            target.id,
            (self.actions, self.extras.shooting_twice),
        )?;
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
