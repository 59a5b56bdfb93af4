//! `/help`: short, ephemeral help.

use super::command::{Invocation, Opts};
use super::reply::Reply;
use super::{AppResult, Ctx};

/// `/help [command]`.
#[derive(Debug, Clone)]
pub struct HelpCommand {
    pub command: Option<String>,
}

impl HelpCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["command"])?;
        Ok(Self {
            command: o.text("command").map(str::to_owned),
        })
    }

    pub fn run(self, _ctx: &Ctx<'_>) -> AppResult<Reply> {
        Ok(Reply::ephemeral(
            "Commands: /roll /check /attack /tft /odds /luck /character /wound /gm /reveal /history /help",
        ))
    }
}
