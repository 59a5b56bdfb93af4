//! THIZ turn order: Preparedness and surprise, initiative per figure, Initiative Passes with a
//! turn for every 10 points, Wait checks, and figures joining late (thiz-rulebook.md, "How
//! Combat Works", "Determine Surprise", "Determining Initiative and Initiative Passes", "Wait").
//!
//! Decisions:
//! - Initiative is rolled when the fight begins, and the surprise opening (a free Turn, or an
//!   ambush's whole Initiative Pass) takes its order from it; the first Initiative Pass rolls
//!   again, as every pass does.
//! - A figure down (dying, unconscious, stable or dead) leaves the order; it comes back at the
//!   next pass if healed.
//! - Defend and Wait last until the figure's next turn; Prone lasts until it declares otherwise.

use std::collections::HashMap;

use super::state::{Figure, Slot, State, Surprise, Team};
use crate::app::thiz::stats::ThizChar;
use crate::app::{AppError, AppResult, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::combat::{
    Opening, Side, WaitRule, initiative_pass, late_arrival, roll_initiative, surprise, wait_check,
};
use crate::rules::thiz::skills::SkillKind;
use crate::rules::thiz::wounds::Condition;
use crate::store::characters::Character;
use crate::store::{CharacterId, Conn};

/// What the order reads from one THIZ sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
// What a sheet says, one flag per state the order and the status read.
#[allow(clippy::struct_excessive_bools)]
pub struct Facts {
    pub speed: i32,
    pub perception: i32,
    pub physical: i32,
    /// The Chest wounds' initiative penalty (0 or negative).
    pub chest: i32,
    pub down: bool,
    pub dying: bool,
    pub wounded: bool,
}

/// Reads the facts of a THIZ character.
pub fn facts(conn: &Conn, c: Character) -> AppResult<Facts> {
    let t = ThizChar::load(conn, c, "/encounter")?;
    let condition = t.condition();
    Ok(Facts {
        speed: t.base_of(SkillKind::Speed)?.rating.0,
        perception: t.base_of(SkillKind::Perception)?.rating.0,
        physical: t.generals.physical,
        chest: t.initiative_penalty(),
        down: condition.is_some(),
        dying: condition == Some(Condition::Dying),
        wounded: t.wounds != crate::rules::thiz::wounds::WoundSheet::default(),
    })
}

pub type AllFacts = HashMap<CharacterId, Facts>;

fn refuse(e: impl std::fmt::Display) -> AppError {
    user(format!("The order cannot be made: {e}."))
}

/// Marks who is down from the sheets, with an event for each newly down.
pub fn refresh_down(state: &mut State, facts: &AllFacts) {
    let mut newly = Vec::new();
    for f in &mut state.figures {
        let down = facts.get(&f.id).is_none_or(|x| x.down);
        if down && !f.down {
            newly.push(f.name.clone());
        }
        f.down = down;
    }
    for name in newly {
        state.event(format!("{name} is down and leaves the order."));
    }
}

/// Rolls initiative for every figure able to act (and not joining late).
fn roll_all(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    for f in &mut state.figures {
        f.initiative = None;
        if f.down || f.late {
            continue;
        }
        let Some(x) = facts.get(&f.id) else { continue };
        let r =
            roll_initiative(x.speed, x.perception, x.physical, x.chest, dice).map_err(refuse)?;
        let (base, value) = if r.base == crate::rules::thiz::combat::InitiativeBase::Physical {
            ("General Physical", r.physical)
        } else {
            ("Speed + Perception", r.speed_plus_perception)
        };
        let chest = if r.modifier == 0 {
            String::new()
        } else {
            format!(" {} (Chest)", r.modifier)
        };
        f.detail = format!("d10 {} + {base} {value}{chest} = {}", r.die, r.total);
        f.initiative = Some(r.total);
    }
    Ok(())
}

/// The slots of a pass among `who` (indexes into `state.figures`), `first_only` keeping each
/// figure's first turn alone (a surprise Turn).
fn slots(state: &State, who: &[usize], first_only: bool) -> AppResult<Vec<Slot>> {
    if who.is_empty() {
        return Ok(Vec::new());
    }
    let values: Vec<i32> = who
        .iter()
        .map(|&i| state.figures[i].initiative.unwrap_or(0))
        .collect();
    Ok(initiative_pass(&values)
        .map_err(refuse)?
        .into_iter()
        .filter(|s| !first_only || s.round == 1)
        .map(|s| Slot {
            figure: state.figures[who[s.combatant]].id,
            step: s.round,
        })
        .collect())
}

fn able(state: &State, team: Option<Team>) -> Vec<usize> {
    state
        .figures
        .iter()
        .enumerate()
        .filter(|(_, f)| f.initiative.is_some() && team.is_none_or(|t| f.team == t))
        .map(|(i, _)| i)
        .collect()
}

fn side_team(side: Side) -> Team {
    match side {
        Side::First => Team::Party,
        Side::Second => Team::Foes,
    }
}

/// Starts the fight: surprise (as the start asked), initiative, and the first turn.
pub fn begin(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    refresh_down(state, facts);
    roll_all(state, facts, dice)?;
    let speed_perception = |team: Team| -> Vec<i32> {
        state
            .figures
            .iter()
            .filter(|f| f.team == team && f.initiative.is_some())
            .filter_map(|f| facts.get(&f.id).map(|x| x.speed + x.perception))
            .collect()
    };
    let opening = match state.surprise {
        Surprise::None => None,
        Surprise::Ambush(team) => Some((team, false)),
        Surprise::Check => {
            let (party, foes) = (speed_perception(Team::Party), speed_perception(Team::Foes));
            if party.is_empty() || foes.is_empty() {
                state.event("No surprise check: one side has nobody able to fight.");
                None
            } else {
                let r = surprise(&party, &foes, dice).map_err(refuse)?;
                match r.opening {
                    Opening::FreeTurn(side) => Some((side_team(side), true)),
                    Opening::FreeInitiativePass(side) => Some((side_team(side), false)),
                    Opening::Undecided => {
                        state.event(
                            "Preparedness kept tying: the referee decides who is surprised.",
                        );
                        None
                    }
                }
            }
        }
    };
    if let Some((team, one_turn)) = opening {
        let who = able(state, Some(team));
        state.order = slots(state, &who, one_turn)?;
        if !state.order.is_empty() {
            state.opening = true;
            state.turn = 0;
            state.event(if one_turn {
                format!("Surprise: the {} take a free Turn.", team.name())
            } else {
                format!(
                    "Ambush: the {} take a whole Initiative Pass first.",
                    team.name()
                )
            });
            start_turn(state);
            return Ok(());
        }
    }
    new_pass(state, facts, dice, false)
}

/// Begins the next Initiative Pass: everyone able rolls again.
fn new_pass(
    state: &mut State,
    facts: &AllFacts,
    dice: &mut impl DieSource,
    reroll: bool,
) -> AppResult<()> {
    state.opening = false;
    state.round += 1;
    for f in &mut state.figures {
        f.late = false;
    }
    if reroll || state.round > 1 {
        roll_all(state, facts, dice)?;
    }
    let who = able(state, None);
    state.order = slots(state, &who, false)?;
    state.turn = 0;
    skip_down(state);
    start_turn(state);
    Ok(())
}

/// Moves past slots of figures that are down or gone.
fn skip_down(state: &mut State) {
    while let Some(slot) = state.order.get(state.turn) {
        match state.figure(slot.figure) {
            Some(f) if !f.down => break,
            _ => state.turn += 1,
        }
    }
}

/// The current figure's Defend and Wait end as its turn comes.
fn start_turn(state: &mut State) {
    if let Some(slot) = state.current_slot()
        && let Some(f) = state.figure_mut(slot.figure)
        && matches!(
            f.declared,
            Some(super::state::Declared::Defend | super::state::Declared::Wait)
        )
    {
        f.declared = None;
        f.defend_used = false;
    }
}

/// The next turn: the next slot of the pass whose figure can act, or a new pass.
pub fn advance(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    refresh_down(state, facts);
    state.turn += 1;
    skip_down(state);
    if state.turn >= state.order.len() {
        if state.figures.iter().all(|f| f.down) {
            state.order.clear();
            state.turn = 0;
            state.event("Nobody is left able to act; the GM ends the fight.");
            return Ok(());
        }
        new_pass(state, facts, dice, true)?;
    } else {
        start_turn(state);
    }
    state.turns += 1;
    Ok(())
}

/// A waiting figure acts before its trigger if its Speed check succeeds (thiz-rulebook.md,
/// "Wait"); otherwise it acts after the trigger. Either way it takes a turn next, after the
/// current one; returns whether it acted first.
pub fn act_on_wait(
    state: &mut State,
    id: CharacterId,
    speed: i32,
    dice: &mut impl DieSource,
) -> AppResult<(bool, String)> {
    let check = wait_check(speed, WaitRule::default(), dice).map_err(refuse)?;
    let slot = Slot {
        figure: id,
        step: state.current_slot().map_or(1, |s| s.step),
    };
    let at = if check.acts_first {
        state.turn
    } else {
        (state.turn + 1).min(state.order.len())
    };
    state.order.insert(at, slot);
    if let Some(f) = state.figure_mut(id) {
        f.declared = None;
    }
    let detail = format!(
        "Speed {}: rolled {} ({})",
        check.rating.0,
        check.roll,
        check.level.name()
    );
    Ok((check.acts_first, detail))
}

/// A figure joining a fight under way names a target; the better prepared gets a free action
/// (thiz-rulebook.md, "Determine Surprise"). The newcomer takes turns from the next pass.
pub fn join_late(
    newcomer: &mut Figure,
    newcomer_facts: Facts,
    target: &Figure,
    target_facts: Facts,
    dice: &mut impl DieSource,
) -> AppResult<String> {
    let r = late_arrival(
        newcomer_facts.speed + newcomer_facts.perception,
        target_facts.speed + target_facts.perception,
        dice,
    )
    .map_err(refuse)?;
    newcomer.late = true;
    Ok(match r.free_action {
        Some(Side::First) => format!(
            "{} arrives better prepared and takes a free action against {}.",
            newcomer.name, target.name
        ),
        Some(Side::Second) => format!(
            "{} is better prepared and takes a free action against {}.",
            target.name, newcomer.name
        ),
        None => format!(
            "{} and {} are equally prepared: no free action.",
            newcomer.name, target.name
        ),
    })
}
