//! The slash commands: one file per top-level command, each command a thin wrapper that names
//! its options as `app` does and hands them to [`invoke`](super::invoke::invoke).
//!
//! The first `///` line of each command is what players read in Discord (≤ 100 characters);
//! every option has a description.

mod check;
mod help;
mod roll;

use super::{Data, Error};

/// Every command, registered from this one list.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        // Player
        roll::roll(),
        check::check(),
        help::help(),
    ]
}
