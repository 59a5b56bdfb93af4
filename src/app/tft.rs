//! The Fantasy Trip use cases: saving rolls, the whole attack, HTH entry, death and dying,
//! shield bash and rush, a week of a job, talent study, the exact odds of attacks and saves, and
//! figures that fall, heal and break (knocked down, unconscious, dying, dead; broken weapons).
//!
//! Owns reading a TFT character's numbers from its sheet and the store (attributes, armor,
//! shield, weapons, hits taken), the guild's TFT table switches, and turning each rules outcome
//! into a reply. Every number comes from `rules::tft`; this module must never compute a rule
//! itself, never show another guild's data, and never apply anything before the whole input has
//! been checked (each roll and its writes happen in one transaction).
//!
//! Tones, across these commands: Black for a special success (automatic success, double or
//! triple), Green for a success, Grey for a failure, Red for a failure with a mishap (automatic
//! failure, a dropped or broken weapon, a figure that dies).

mod actions;
mod attack;
mod bash;
mod called;
mod cast;
mod check;
mod goods;
mod hth_follow;
mod injury;
mod job;
mod lookup;
mod miss;
mod mount;
mod odds;
mod reaction;
mod save;
pub mod shared;
mod ski;
mod spell;
mod staff;
mod state;
mod study;
#[cfg(test)]
mod tests;
mod thief;

use super::invocation::Invocation;
use super::reply::Reply;
use super::text::escape;
use super::{AppResult, Ctx, user};
use crate::rules::tft::character::Talent;
use shared::need_house_rules;

/// Autocomplete for `/tft attack adjust:`: the list typed so far with its last entry completed.
pub fn adjust_suggestions(typed: &str) -> Vec<String> {
    attack::adjust::suggestions(typed)
}

/// Autocomplete for a TFT sheet's talents (`/character set field:talents value:`): the list
/// typed so far with its last entry completed from the talents the rules know, each with its
/// cost when the rules give one.
pub fn talent_suggestions(typed: &str) -> Vec<String> {
    let (done, current) = match typed.rfind(',') {
        Some(i) => (typed[..i].trim(), typed[i + 1..].trim()),
        None => ("", typed.trim()),
    };
    let current = current.to_ascii_lowercase();
    let written: Vec<Option<Talent>> = done.split(',').map(Talent::parse).collect();
    let (mut prefix, inner): (Vec<Talent>, Vec<Talent>) = Talent::ALL
        .into_iter()
        .filter(|t| !written.contains(&Some(*t)))
        .filter(|t| t.name().to_ascii_lowercase().contains(current.as_str()))
        .partition(|t| t.name().to_ascii_lowercase().starts_with(current.as_str()));
    prefix.extend(inner);
    // A talent the rules give no cost for must be written with one: it is offered at the
    // costs talents commonly have, for the player to pick the one their book gives.
    prefix
        .into_iter()
        .flat_map(
            |t| match crate::rules::tft::character::talent_info(t).and_then(|i| i.cost) {
                Some(cost) => vec![format!("{} ({cost})", t.name())],
                None => (1..=3).map(|c| format!("{} ({c})", t.name())).collect(),
            },
        )
        .map(|entry| {
            if done.is_empty() {
                entry
            } else {
                format!("{done}, {entry}")
            }
        })
        .filter(|s| s.chars().count() <= 100)
        .take(25)
        .collect()
}

/// The `/tft`, `/tftkit` and `/tftref` subcommands and `/odds tft`.
#[derive(Debug, Clone)]
pub enum TftCommand {
    /// `/tft save`: N dice against ST, DX, IQ or a number.
    Save(save::Save),
    /// `/tft attack`: to-hit, damage, armor, hits applied, reaction.
    Attack(attack::Attack),
    /// `/tft hth`: the 2d roll to enter hand-to-hand combat.
    Hth(injury::Hth),
    /// `/tft dying`: the 2d roll of a figure at 0 ST or below.
    Dying(injury::DyingRoll),
    /// `/tft bash`: the foe's roll to stay up after a shield bash or rush.
    Bash(bash::Bash),
    /// `/tftkit check`: a common check by name (climb, force a door, notice a trap…).
    Check(check::Check),
    /// `/tftkit gear`: prices, mending, wear and splitting of weapons, armor and shields.
    Gear(lookup::Lookup),
    /// `/tftkit actions`: the multiple-actions meta-options a figure may take this turn.
    Actions(actions::Actions),
    /// `/tftkit miss`: a shooter's roll to miss a figure in the line of fire.
    Miss(miss::Miss),
    /// `/tftkit cast`: a spell cast from the sheet, its ST paid as fatigue or from a staff.
    Cast(cast::Cast),
    /// `/tft job`: a week of work.
    Job(job::JobWeekCommand),
    /// `/tft job job:thief`: a thief's week as far as the house rules' scan can be read.
    ThiefWeek(thief::ThiefWeek),
    /// `/tft heal`: hits and fatigue taken off (GM).
    Heal(state::Heal),
    /// `/tft stand`: up from a knockdown.
    Stand(state::Stand),
    /// `/tftkit pickup`: a dropped weapon picked up.
    Pickup(state::Pickup),
    /// `/tftkit staff`: a staff refilled with mana, by fatigue or contemplation.
    Staff(staff::Refilling),
    /// `/tft repair`: a broken weapon mended (GM).
    Repair(state::Repair),
    /// `/tft condition`: a GM's correction of hits, fatigue and states.
    Condition(state::SetCondition),
    /// `/odds tft`: exact odds of an attack or a saving roll.
    Odds(odds::Odds),
    /// `/tft reaction`: an NPC's 1d reaction roll and its chances.
    Reaction(reaction::NpcReaction),
    /// `/tftref study`: whether, at what cost and how fast a talent can be learned.
    Study(study::Study),
    /// `/tftref called`: a called shot's aim and what its hits do.
    Called(called::Called),
    /// `/tftref price`: a magic item's price.
    Price(goods::Price),
    /// `/tftref time`: the rounds an action takes.
    Time(goods::Time),
    /// `/tftref ski`: a skier's MA, downhill rolls and falls.
    Ski(ski::Ski),
    /// `/tftref mount`: a mount's load and running limits.
    Mount(mount::Mount),
    /// `/tftref spell`: a spell's numbers, its distance adjustment, summons and Wall of Fire.
    Spell(spell::Spell),
}

/// `/tft job job:thief` (or `thieves`): the thieves' week, whose table the scan lost.
fn is_thief(inv: &Invocation) -> bool {
    inv.options
        .iter()
        .any(|(k, v)| k == "job" && thief::NAMES.contains(&v.trim().to_ascii_lowercase().as_str()))
}

/// The subcommands, for messages.
const SUBCOMMANDS: &str =
    "save, attack, hth, dying, bash, job, heal, stand, repair, condition, reaction";
/// The look-ups' subcommands (`/tftref`), for messages.
const REF_SUBCOMMANDS: &str = "study, called, spell, ski, mount, price, time";
/// The `/tftkit` subcommands, for messages.
const KIT_SUBCOMMANDS: &str = "check, gear, actions, miss, cast, pickup, staff";

impl TftCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        Ok(match path.as_slice() {
            ["tft", "save"] => TftCommand::Save(save::Save::parse(inv)?),
            ["tft", "attack"] => TftCommand::Attack(attack::Attack::parse(inv)?),
            ["tft", "hth"] => TftCommand::Hth(injury::Hth::parse(inv)?),
            ["tft", "dying"] => TftCommand::Dying(injury::DyingRoll::parse(inv)?),
            ["tft", "bash"] => TftCommand::Bash(bash::Bash::parse(inv)?),
            ["tftkit", "check"] => TftCommand::Check(check::Check::parse(inv)?),
            ["tftkit", "gear"] => TftCommand::Gear(lookup::Lookup::parse(inv)?),
            ["tftkit", "actions"] => TftCommand::Actions(actions::Actions::parse(inv)?),
            ["tftkit", "miss"] => TftCommand::Miss(miss::Miss::parse(inv)?),
            ["tftkit", "cast"] => TftCommand::Cast(cast::Cast::parse(inv)?),
            ["tft", "job"] if is_thief(inv) => TftCommand::ThiefWeek(thief::ThiefWeek::parse(inv)?),
            ["tft", "job"] => TftCommand::Job(job::JobWeekCommand::parse(inv)?),
            ["tft", "heal"] => TftCommand::Heal(state::Heal::parse(inv)?),
            ["tft", "stand"] => TftCommand::Stand(state::Stand::parse(inv)?),
            ["tftkit", "pickup"] => TftCommand::Pickup(state::Pickup::parse(inv)?),
            ["tftkit", "staff"] => TftCommand::Staff(staff::Refilling::parse(inv)?),
            ["tft", "repair"] => TftCommand::Repair(state::Repair::parse(inv)?),
            ["tft", "condition"] => TftCommand::Condition(state::SetCondition::parse(inv)?),
            ["odds", "tft"] => TftCommand::Odds(odds::Odds::parse(inv)?),
            ["tft", "reaction"] => TftCommand::Reaction(reaction::NpcReaction::parse(inv)?),
            ["tftref", "study"] => TftCommand::Study(study::Study::parse(inv)?),
            ["tftref", "called"] => TftCommand::Called(called::Called::parse(inv)?),
            ["tftref", "spell"] => TftCommand::Spell(spell::Spell::parse(inv)?),
            ["tftref", "ski"] => TftCommand::Ski(ski::Ski::parse(inv)?),
            ["tftref", "price"] => TftCommand::Price(goods::Price::parse(inv)?),
            ["tftref", "time"] => TftCommand::Time(goods::Time::parse(inv)?),
            ["tftref", "mount"] => TftCommand::Mount(mount::Mount::parse(inv)?),
            ["tftref"] => {
                return Err(user(format!(
                    "/tftref needs a subcommand: {REF_SUBCOMMANDS}."
                )));
            }
            ["tft"] => {
                return Err(user(format!("/tft needs a subcommand: {SUBCOMMANDS}.")));
            }
            ["tftkit", ..] => {
                return Err(user(format!(
                    "/tftkit needs a subcommand: {KIT_SUBCOMMANDS}."
                )));
            }
            _ => {
                return Err(user(format!(
                    "There is no command {}; /tft has {SUBCOMMANDS}.",
                    escape(&inv.display_path())
                )));
            }
        })
    }

    /// What this command asks for that exists only by Bill Seurer's house rules, when all of
    /// it or one option does. `/tft attack` and `/tftkit cast` check theirs as they run.
    fn house_rule(&self) -> Option<&'static str> {
        match self {
            // tft-house-rules.txt, "Death and Dying"; "Jobs" and "Lifestyles"; "Learning New
            // Talents"; "Skiing"; "Riding and Mounted Combat"; "New Costs of Magic Items".
            // tft-house-rules-combat.txt, "Shield Bash" and "Shield Rush".
            TftCommand::Dying(_) => Some("The dying roll (Death and Dying)"),
            TftCommand::Bash(_) => Some("The shield bash and rush"),
            TftCommand::Job(_) | TftCommand::ThiefWeek(_) => Some("A week of a job"),
            TftCommand::Study(_) => Some("Talent study (Learning New Talents)"),
            TftCommand::Ski(_) => Some("Skiing"),
            TftCommand::Mount(_) => Some("Riding and mounted combat"),
            TftCommand::Price(_) => Some("The magic item prices"),
            TftCommand::Hth(c) => c.house_rule(),
            TftCommand::Gear(c) => c.house_rule(),
            TftCommand::Miss(c) => c.house_rule(),
            TftCommand::Heal(c) => c.house_rule(),
            TftCommand::Spell(c) => c.house_rule(),
            _ => None,
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        if let Some(what) = self.house_rule() {
            need_house_rules(ctx, what)?;
        }
        match self {
            TftCommand::Save(c) => c.run(ctx),
            TftCommand::Attack(c) => c.run(ctx),
            TftCommand::Hth(c) => c.run(ctx),
            TftCommand::Dying(c) => c.run(ctx),
            TftCommand::Bash(c) => c.run(ctx),
            TftCommand::Check(c) => c.run(ctx),
            TftCommand::Gear(c) => c.run(ctx),
            TftCommand::Actions(c) => c.run(ctx),
            TftCommand::Miss(c) => c.run(ctx),
            TftCommand::Cast(c) => c.run(ctx),
            TftCommand::Job(c) => c.run(ctx),
            TftCommand::ThiefWeek(c) => c.run(ctx),
            TftCommand::Heal(c) => c.run(ctx),
            TftCommand::Stand(c) => c.run(ctx),
            TftCommand::Pickup(c) => c.run(ctx),
            TftCommand::Staff(c) => c.run(ctx),
            TftCommand::Repair(c) => c.run(ctx),
            TftCommand::Condition(c) => c.run(ctx),
            TftCommand::Odds(c) => Ok(c.run(ctx)),
            TftCommand::Reaction(c) => c.run(ctx),
            TftCommand::Study(c) => c.run(ctx),
            TftCommand::Called(c) => Ok(c.run()),
            TftCommand::Spell(c) => Ok(c.run()),
            TftCommand::Ski(c) => c.run(ctx),
            TftCommand::Price(c) => Ok(c.run()),
            TftCommand::Time(c) => Ok(c.run()),
            TftCommand::Mount(c) => c.run(),
        }
    }
}
