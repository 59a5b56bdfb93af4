//! The slash commands: one file per top-level command, each command a thin wrapper that names
//! its options as `app` does and hands them to [`invoke`](super::invoke::invoke).
//!
//! The first `///` line of each command is what players read in Discord (≤ 100 characters);
//! every option has a description. The tests below hold the registered commands to `app`'s
//! command list, option names, menus and number ranges, and to Discord's limits. Must never
//! decide anything a command does: that is `app`'s.

mod advance;
mod alias;
mod attack;
mod character;
mod check;
mod encounter;
mod gm;
mod hazard;
mod help;
mod history;
mod luck;
mod magic;
mod maneuver;
mod movement;
mod npc;
mod odds;
mod reveal;
mod roll;
mod tft;
mod tftkit;
mod tftref;
mod wound;

use super::{Data, Error};

/// `/character import`'s file reading, which `referee serve` shares.
pub use character::import_text;

/// Every command, registered from this one list.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        // Player
        roll::roll(),
        alias::alias(),
        check::check(),
        attack::attack(),
        maneuver::maneuver(),
        tft::tft(),
        tftkit::tftkit(),
        tftref::tftref(),
        odds::odds(),
        luck::luck(),
        character::character(),
        wound::wound(),
        hazard::hazard(),
        magic::magic(),
        movement::movement(),
        advance::advance(),
        history::history(),
        help::help(),
        encounter::encounter(),
        // GM
        gm::gm(),
        npc::npc(),
        reveal::reveal(),
        // Admin: `/gm setup` (Manage Server) is a subcommand of `/gm`, where GMs look for it.
    ]
}

#[cfg(test)]
mod tests;
