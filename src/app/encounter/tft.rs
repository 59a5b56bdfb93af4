//! TFT round order: initiative per side (Tactics, surprise), the initiative sum, then actions in
//! adjDX order re-read before every turn, with the round's hit counts (tft-rules-summary.md,
//! "Round Sequence"; tft-multiple-actions.txt). The rules are `rules::tft::sequence`'s; this
//! keeps the figures and asks it.
//!
//! Decisions:
//! - The side that wins the initiative chooses who moves first (tft-rules-summary.md, "Roll for
//!   Initiative"): the status asks it with two buttons, pressed by a player with a figure on
//!   that side or a GM (the only one for the foes, the NPCs' side). The choice is shown and
//!   changes no order the bot keeps: movement is at the table, actions go by adjDX.
//! - A figure dead, dying or unconscious leaves the order; a figure knocked down stays out for
//!   the rest of the round and is back the next (its action is to stand up).

use std::collections::HashMap;

use super::state::{State, Surprise, Team, TftRound};
use crate::app::sheet::TftSheet;
use crate::app::tft::shared::{has_talent, order_gear_dx, st_left, tft_sheet};
use crate::app::{AppError, AppResult, user};
use crate::rules::dice::DieSource;
use crate::rules::tft::character::Talent;
use crate::rules::tft::injury::{self, Condition};
use crate::rules::tft::multi::{self, InitiativeSum, MetaOption};
use crate::rules::tft::sequence::{
    Contender, Phase, Side, SideBonus, Tally, current_adj_dx, next_to_act, roll_initiative,
};
use crate::store::characters::{self, Character};
use crate::store::{CharacterId, Conn};

/// What the order reads from one TFT sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
// What a sheet says, one flag per state the order and the status read.
#[allow(clippy::struct_excessive_bools)]
pub struct Facts {
    /// adjDX: DX with armor and shield.
    pub adj_dx: i32,
    pub st: i32,
    pub tactics: bool,
    /// Dead, dying or unconscious.
    pub out: bool,
    pub knocked_down: bool,
    pub hurt: bool,
    pub dying: bool,
    /// Dead by the sheet.
    pub dead: bool,
    /// At 0 ST or below and out of danger (lived through the roll to live).
    pub stable: bool,
    /// Hits and fatigue taken, and the ST left after them (the GM's view).
    pub hits: i64,
    pub fatigue: i64,
    pub st_left: i32,
    /// The guild plays with Bill Seurer's house rules (`tft_house_rules`): reaction to injury
    /// by the ST chart, else 5 and 8 hits at any ST.
    pub house_rules: bool,
}

pub type AllFacts = HashMap<CharacterId, Facts>;

/// Reads the facts of a TFT character.
pub fn facts(conn: &Conn, c: &Character) -> AppResult<Facts> {
    let sheet: TftSheet = tft_sheet(c)?;
    let settings = crate::store::guilds::get(conn, c.guild_id)?;
    let house_rules = crate::app::house::house_rule(&settings, "tft_house_rules");
    let (armor, shield) = order_gear_dx(c, &sheet, house_rules)?;
    let (hits, fatigue) = characters::tft_damage(conn, c.guild_id, c.id)?;
    let left = st_left(&sheet, hits, fatigue);
    let condition = injury::condition_at(left);
    Ok(Facts {
        house_rules,
        adj_dx: sheet.dx + armor + shield,
        st: sheet.st,
        tactics: has_talent(&sheet, Talent::Tactics),
        out: sheet.dead || condition != Condition::Conscious,
        knocked_down: sheet.knocked_down,
        hurt: hits > 0,
        dying: !sheet.dead && !sheet.stable && condition == Condition::Dying,
        dead: sheet.dead,
        stable: sheet.stable,
        hits,
        fatigue,
        st_left: left,
    })
}

fn refuse(e: impl std::fmt::Display) -> AppError {
    user(format!("The order cannot be made: {e}."))
}

fn tally(f: &super::state::Figure) -> Tally {
    Tally {
        round: f.hits_round,
        since_action: f.hits_since,
    }
}

/// A figure's adjDX now: its sheet's, less 2 after enough hits since its last action.
pub fn adj_dx_now(f: &super::state::Figure, x: Facts) -> AppResult<i32> {
    current_adj_dx(x.adj_dx, x.st, f.hits_since, x.house_rules).map_err(refuse)
}

/// The round's initiative sum, once rolled.
pub fn sum(state: &State) -> Option<InitiativeSum> {
    state
        .tft
        .as_ref()
        .and_then(|r| InitiativeSum::new(r.rolls.first()?.0, r.rolls.first()?.1).ok())
}

/// Marks who is out of the round from the sheets, with an event for each newly out.
fn refresh(state: &mut State, facts: &AllFacts, new_round: bool) {
    let mut newly = Vec::new();
    for f in &mut state.figures {
        let out = facts.get(&f.id).is_none_or(|x| x.out);
        // Knocked down during the round (the attack hook marks it): out until the round ends.
        let down = out || (f.down && !new_round);
        if down && !f.down {
            newly.push(f.name.clone());
        }
        f.down = down;
    }
    for name in newly {
        state.event(format!("{name} is down and does not act this round."));
    }
}

/// A new round: initiative per side, counts reset, the first to act.
fn new_round(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    state.round += 1;
    state.opening = false;
    for f in &mut state.figures {
        let t = tally(f).new_round();
        f.hits_round = t.round;
        f.hits_since = t.since_action;
        f.acted = false;
        f.meta = None;
        f.rolls_this_turn = 0;
        f.twice = false;
        f.declared = None;
    }
    refresh(state, facts, true);
    let bonus = |team: Team| SideBonus {
        tactics: state
            .figures
            .iter()
            .any(|f| f.team == team && !f.down && facts.get(&f.id).is_some_and(|x| x.tactics)),
        modifier: 0,
    };
    // Surprise shapes the first round only.
    let surprised = match state.surprise {
        Surprise::Ambush(team) if state.round == 1 => Some(match team {
            Team::Party => Side::Second,
            Team::Foes => Side::First,
        }),
        _ => None,
    };
    let init = roll_initiative([bonus(Team::Party), bonus(Team::Foes)], surprised, dice)
        .map_err(refuse)?;
    let winner = match init.winner {
        Side::First => Team::Party,
        Side::Second => Team::Foes,
    };
    let round = TftRound {
        rolls: init.rolls,
        bonus: init.bonus,
        winner,
        by_surprise: init.by_surprise,
        sum: init.sum.value(),
        moves_first: None,
    };
    state.event(format!(
        "Round {}: the {} win the initiative{} ({}) and choose who moves first.",
        state.round,
        winner.name(),
        if init.by_surprise { " by surprise" } else { "" },
        dice_text(&round, false)
    ));
    state.tft = Some(round);
    state.order.clear();
    state.turn = 0;
    if !pick_next(state, facts, dice)? {
        state.event("Nobody is able to act this round.");
    }
    Ok(())
}

/// Both sides' initiative dice, each with its bonus, every re-roll of a tie, and the sum:
/// "party 5 +1, foes 3; sum 8" (tft-rules-summary.md, "Roll for Initiative": the dice are rolled
/// openly at the table).
///
/// The bonuses (Tactics, a GM's modifier) come from the sheets: `bonuses` false leaves them out,
/// for what players read.
pub fn dice_text(r: &TftRound, bonuses: bool) -> String {
    let side = |team: &str, die: u32, bonus: i32| {
        if bonus == 0 || !bonuses {
            format!("{team} {die}")
        } else {
            format!("{team} {die} {}", crate::app::text::signed(bonus))
        }
    };
    let rolls: Vec<String> = r
        .rolls
        .iter()
        .map(|&(p, f)| {
            format!(
                "{}, {}",
                side("party", p, r.bonus.0),
                side("foes", f, r.bonus.1)
            )
        })
        .collect();
    format!("{}; initiative sum {}", rolls.join(", tied, then "), r.sum)
}

/// The adjDX tie-break, each round of dice by name: "Orc 1 3, Orc 2 5" ("; then …" when the
/// highest tied again and those re-rolled).
fn tie_text(state: &State, tied: &[usize], rounds: &[Vec<u32>]) -> String {
    let mut among = tied.to_vec();
    let mut out = Vec::new();
    for faces in rounds {
        out.push(
            among
                .iter()
                .zip(faces)
                .map(|(&i, d)| format!("{} {d}", state.figures[i].name))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let high = faces.iter().copied().max().unwrap_or(0);
        among = among
            .iter()
            .zip(faces)
            .filter(|&(_, &d)| d == high)
            .map(|(&i, _)| i)
            .collect();
    }
    out.join("; then ")
}

/// Picks who acts next by adjDX now; `Ok(false)` when nobody is left this round.
fn pick_next(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<bool> {
    let mut contenders = Vec::with_capacity(state.figures.len());
    for f in &state.figures {
        let x = facts.get(&f.id).copied().unwrap_or_default();
        contenders.push(Contender {
            adj_dx: adj_dx_now(f, x)?,
            acted: f.acted,
            down: f.down,
            phase: Phase::Normal,
        });
    }
    let Some(next) = next_to_act(&contenders, dice).map_err(refuse)? else {
        return Ok(false);
    };
    let id = state.figures[next.index].id;
    if !next.tied.is_empty() {
        let names: Vec<String> = next
            .tied
            .iter()
            .map(|&i| state.figures[i].name.clone())
            .collect();
        state.event(format!(
            "{} tied on adjDX; the dice ({}) gave the turn to {}.",
            names.join(", "),
            tie_text(state, &next.tied, &next.tie_rolls),
            state.figures[next.index].name
        ));
    }
    state.order.push(super::state::Slot {
        figure: id,
        step: 1,
    });
    state.turn = state.order.len() - 1;
    if let Some(f) = state.figure_mut(id) {
        f.rolls_this_turn = 0;
        f.twice = false;
    }
    Ok(true)
}

/// Starts the fight: the first round's initiative and the first to act.
pub fn begin(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    state.round = 0;
    new_round(state, facts, dice)
}

/// Ends the current figure's turn and picks the next (a new round when all have acted).
pub fn advance(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    if let Some(slot) = state.current_slot()
        && let Some(f) = state.figure_mut(slot.figure)
    {
        f.acted = true;
        let t = tally(f).acted();
        f.hits_since = t.since_action;
    }
    refresh(state, facts, false);
    if !pick_next(state, facts, dice)? {
        if state
            .figures
            .iter()
            .all(|f| facts.get(&f.id).is_none_or(|x| x.out))
        {
            state.order.clear();
            state.turn = 0;
            state.event("Nobody is left able to act; the GM ends the fight.");
        } else {
            new_round(state, facts, dice)?;
        }
    }
    state.turns += 1;
    Ok(())
}

/// Counts `hits` taken by the figure `id` this round; returns a public line when the round's
/// hits knock it down or its adjDX drops.
pub fn take_hits(
    state: &mut State,
    id: CharacterId,
    hits: i32,
    st: i32,
    house_rules: bool,
) -> AppResult<Vec<String>> {
    let Some(f) = state.figure_mut(id) else {
        return Ok(Vec::new());
    };
    let taken = tally(f).take(hits, st, house_rules).map_err(refuse)?;
    f.hits_round = taken.tally.round;
    f.hits_since = taken.tally.since_action;
    let mut lines = Vec::new();
    if taken.knocked_down {
        f.down = true;
        // An NPC's count may hold hits only the GM knows of (a correction with /tft condition),
        // and the line goes to the status everyone reads: it says what happened, not how many.
        lines.push(if f.npc {
            format!("{} is knocked down by the hits it took this round.", f.name)
        } else {
            format!(
                "{} has taken {} hits this round and is knocked down.",
                f.name, f.hits_round
            )
        });
    }
    if taken.minus_two_dx {
        lines.push(format!("{} is at −2 adjDX until it acts.", f.name));
    }
    Ok(lines)
}

/// The meta-option a figure chooses for the round (multiple actions), checked against its
/// adjDX now and the round's initiative sum.
pub fn choose_meta(
    state: &State,
    f: &super::state::Figure,
    x: Facts,
    actions: u32,
    boost: bool,
    engaged: bool,
) -> AppResult<MetaOption> {
    let sum = sum(state).ok_or_else(|| user("The round's initiative is not rolled yet."))?;
    let adj = adj_dx_now(f, x)?;
    multi::choose_meta_option(actions, boost, adj, sum, engaged).map_err(|e| {
        user(format!(
            "{} may not take {}{} this round: {e}.",
            crate::app::text::escape(&f.name),
            crate::app::text::count(actions, "action", "actions"),
            if boost {
                " with the movement boost"
            } else {
                ""
            }
        ))
    })
}

/// The meta-option row a figure chose, if any.
pub fn meta_of(f: &super::state::Figure) -> Option<MetaOption> {
    let (actions, boost) = f.meta?;
    multi::META_OPTIONS
        .iter()
        .find(|m| m.actions == actions && m.movement_boost == boost)
        .copied()
}

/// The movement boost of a figure in hexes: MA/3 (tft-multiple-actions.txt), its MA read from
/// the sheet after armor; `None` when the sheet gives no MA.
pub fn boost_hexes(c: &Character) -> AppResult<Option<u32>> {
    let sheet: TftSheet = tft_sheet(c)?;
    let Some(ma) = sheet.ma else {
        return Ok(None);
    };
    let ma = match sheet.armor.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(name) => crate::rules::tft::gear::armor(name).map_or(ma, |a| a.ma_for(ma)),
        None => ma,
    };
    Ok(Some(multi::movement_boost(ma.max(0) as u32)))
}
