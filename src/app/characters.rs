//! Placeholder: this module's commands are being written.

use super::command::Invocation;
use super::reply::Reply;
use super::{AppResult, Ctx, user};

/// This module's commands.
#[derive(Debug, Clone)]
pub enum CharacterCommand {}

impl CharacterCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        Err(user(format!(
            "{} is not available yet.",
            inv.display_path()
        )))
    }

    pub fn run(self, _ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {}
    }
}
