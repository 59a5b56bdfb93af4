//! THIZ turn order: Preparedness and surprise, initiative per figure, Initiative Passes with a
//! turn for every 10 points, Wait checks, and figures joining late (thiz-rulebook.md, "How
//! Combat Works", "Determine Surprise", "Determining Initiative and Initiative Passes", "Wait").
//!
//! Decisions:
//! - Initiative is rolled when the fight begins, and the surprise opening (a free Turn, or an
//!   ambush's whole Initiative Pass) takes its order from it; the first Initiative Pass rolls
//!   again, as every pass does.
//! - A figure down (dying, unconscious, stable or dead), by an attack or by anything else written
//!   on its sheet, leaves the order as soon as the encounter is read again; it comes back at the
//!   next pass if healed (`/encounter add` says so on the status at once).
//! - Defend and Wait last until the figure's next turn; Prone lasts until it declares otherwise.

use std::collections::HashMap;

use super::state::{Figure, Slot, State, Surprise, Team};
use crate::app::thiz::stats::ThizChar;
use crate::app::{AppError, AppResult, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::combat::{
    Opening, Side, WaitRule, initiative_pass, late_arrival, roll_initiative, surprise, wait_check,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::wounds::Condition;
use crate::store::characters::Character;
use crate::store::{CharacterId, Conn};

/// What the order reads from one THIZ sheet.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
// What a sheet says, one flag per state the order and the status read.
#[allow(clippy::struct_excessive_bools)]
pub struct Facts {
    /// Speed and Perception as a check uses them (each at least General Physical), for the
    /// Preparedness check.
    // Decision: Preparedness is a check "against Speed + Perception" (thiz-rulebook.md,
    // "Determine Surprise"), so the Skills chapter's rule for checks applies to each skill, as
    // before; initiative, a roll plus a sum, takes the ratings as they are
    // ([`initiative_ratings`]).
    pub speed: i32,
    pub perception: i32,
    /// Speed and Perception as the sheet rates them, for initiative (see [`initiative_ratings`]).
    pub own_speed: i32,
    pub own_perception: i32,
    pub physical: i32,
    /// Reflexes as a check uses it now (at least General Physical, wound penalties counted),
    /// for the Wait check.
    pub reflexes: i32,
    /// The Chest wounds' initiative penalty (0 or negative).
    pub chest: i32,
    pub down: bool,
    pub dying: bool,
    pub wounded: bool,
    /// Dying, stable, unconscious or dead, as the sheet records it (`None`: able to act).
    pub condition: Option<Condition>,
    /// The wounds by location, for the GM's view.
    pub wounds: crate::rules::thiz::wounds::WoundSheet,
}

/// Reads the facts of a THIZ character.
pub fn facts(conn: &Conn, c: Character) -> AppResult<Facts> {
    let t = ThizChar::load(conn, c, "/encounter")?;
    let condition = t.condition();
    let (own_speed, own_perception) = initiative_ratings(&t)?;
    Ok(Facts {
        speed: t.base_of(SkillKind::Speed)?.rating.0,
        perception: t.base_of(SkillKind::Perception)?.rating.0,
        own_speed,
        own_perception,
        physical: t.generals.physical,
        reflexes: t.base_of(SkillKind::Reflexes)?.rating.0
            + t.check_penalty(Some(SkillKind::Reflexes), None)
                .unwrap_or(0),
        chest: t.initiative_penalty(),
        down: condition.is_some(),
        dying: condition == Some(Condition::Dying),
        wounded: t.wounds != crate::rules::thiz::wounds::WoundSheet::default(),
        condition,
        wounds: t.wounds.clone(),
    })
}

/// The Speed and Perception that initiative adds up: each skill's own rating on the sheet.
///
/// Decision: thiz-rulebook.md, "Determining Initiative and Initiative Passes", adds 1d10 to the
/// higher of Speed + Perception and General Physical. The Skills chapter's rule that a skill
/// counts at least its general rating is for resolution checks, and initiative is not one (it
/// is a roll plus a sum, with General Physical already the floor of the comparison), so each
/// skill counts as rated: Speed 1 and Perception 1 with General Physical 8 give 8, not 16. A
/// skill missing from the sheet counts 0 (thiz-rulebook.md, "Your Character's Skills": every
/// skill starts at zero); the untrained -5 is for Artisan, Trade and Profession
/// checks only and never applies here.
fn initiative_ratings(t: &ThizChar) -> AppResult<(i32, i32)> {
    let own = |kind: SkillKind| -> AppResult<i32> {
        let id = SkillId::single(kind)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("skill {kind}: {e}")))?;
        Ok(t.learned(&id).unwrap_or(0))
    };
    Ok((own(SkillKind::Speed)?, own(SkillKind::Perception)?))
}

pub type AllFacts = HashMap<CharacterId, Facts>;

fn refuse(e: impl std::fmt::Display) -> AppError {
    user(format!("The order cannot be made: {e}."))
}

/// Takes out of the order every figure whose sheet says it is down (dying, unconscious, stable
/// or dead) and was standing, with an event for each; see [`State::take_out`].
pub fn refresh_down(state: &mut State, facts: &AllFacts) {
    let newly: Vec<(CharacterId, String)> = state
        .figures
        .iter()
        .filter(|f| !f.down && facts.get(&f.id).is_none_or(|x| x.down))
        .map(|f| (f.id, f.name.clone()))
        .collect();
    for (id, name) in newly {
        state.take_out(id);
        state.event(format!("{name} is down and leaves the order."));
    }
}

/// At the start of the fight and of every Initiative Pass: who is down is what the sheets say
/// now, so a figure healed since it went down is back (and one newly down is out).
fn reread_down(state: &mut State, facts: &AllFacts) {
    refresh_down(state, facts);
    for f in &mut state.figures {
        f.down = facts.get(&f.id).is_none_or(|x| x.down);
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
        let r = roll_initiative(x.own_speed, x.own_perception, x.physical, x.chest, dice)
            .map_err(refuse)?;
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

/// The Preparedness rolls of the surprise check, a line each, for the GM alone: the sheets'
/// Speed + Perception are in them. The rolls come in the order `begin` gave the ratings (each
/// side's figures able to fight, in join order); a tie-break re-checks only the best prepared,
/// so its lines give the rolls by side.
fn preparedness_lines(
    state: &State,
    r: &crate::rules::thiz::combat::SurpriseResult,
) -> Vec<(String, String)> {
    let roll = |p: &crate::rules::thiz::combat::PreparednessRoll| {
        format!(
            "d100 {} against {}: {}, {}",
            p.roll,
            p.rating.0,
            p.level.name(),
            crate::app::text::count(u32::from(p.points), "point", "points")
        )
    };
    let mut lines = Vec::new();
    for (team, rolls) in [(Team::Party, &r.first), (Team::Foes, &r.second)] {
        let names = state
            .figures
            .iter()
            .filter(|f| f.team == team && f.initiative.is_some())
            .map(|f| f.name.as_str());
        for (name, p) in names.zip(rolls.iter()) {
            lines.push((name.to_owned(), format!("Preparedness {}", roll(p))));
        }
    }
    for (i, (party, foes)) in r.tie_breaks.iter().enumerate() {
        for (team, rolls) in [(Team::Party, party), (Team::Foes, foes)] {
            let all: Vec<String> = rolls.iter().map(roll).collect();
            lines.push((
                format!("Tie-break {}, the {}", i + 1, team.name()),
                all.join("; "),
            ));
        }
    }
    lines
}

/// Starts the fight: surprise (as the start asked), initiative, and the first turn.
pub fn begin(state: &mut State, facts: &AllFacts, dice: &mut impl DieSource) -> AppResult<()> {
    reread_down(state, facts);
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
                state.preparedness = preparedness_lines(state, &r);
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
    reread_down(state, facts);
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

/// The current figure's Defend and Wait end as its turn comes, and it has attacked nothing yet
/// in it.
fn start_turn(state: &mut State) {
    let Some(slot) = state.current_slot() else {
        return;
    };
    let Some(f) = state.figure_mut(slot.figure) else {
        return;
    };
    f.rolls_this_turn = 0;
    f.twice = false;
    if matches!(
        f.declared,
        Some(super::state::Declared::Defend | super::state::Declared::Wait)
    ) {
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
        if state
            .figures
            .iter()
            .all(|f| facts.get(&f.id).is_none_or(|x| x.down))
        {
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

/// A waiting figure checks Reflexes to act before its trigger: Yellow or better, it takes a
/// turn now, before the current one; otherwise its turn goes to the end of the Initiative Pass
/// (see [`WaitRule`] for why the Reflexes skill's text rules). Returns whether it acted first,
/// and the check for whoever may see the rating.
pub fn act_on_wait(
    state: &mut State,
    id: CharacterId,
    reflexes: i32,
    dice: &mut impl DieSource,
) -> AppResult<(bool, String)> {
    let rule = WaitRule::default();
    let check = wait_check(reflexes, rule, dice).map_err(refuse)?;
    let at = if check.acts_first {
        state.turn
    } else {
        state.order.len()
    };
    let step = if check.acts_first {
        state.current_slot().map(|s| s.step)
    } else {
        state.order.last().map(|s| s.step)
    };
    let slot = Slot {
        figure: id,
        step: step.unwrap_or(1),
    };
    state.order.insert(at, slot);
    if let Some(f) = state.figure_mut(id) {
        f.declared = None;
        // The turn it takes now (or at the end of the pass) is a new one.
        f.rolls_this_turn = 0;
        f.twice = false;
    }
    let detail = format!(
        "Reflexes {}: rolled {} ({}; {} or better acts first)",
        check.rating.0,
        check.roll,
        check.level.name(),
        rule.needs().name()
    );
    Ok((check.acts_first, detail))
}

/// A figure joining a fight under way names a target; the better prepared gets a free action
/// (thiz-rulebook.md, "Determine Surprise"). The newcomer takes turns from the next pass.
pub fn join_late(
    newcomer: &mut Figure,
    newcomer_facts: &Facts,
    target: &Figure,
    target_facts: &Facts,
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
