//! `/help`.

use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// What each command does, shown only to you
#[poise::command(slash_command)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "One command to explain, like check or luck spend"] command: Option<String>,
) -> Result<(), Error> {
    invoke(ctx, &["help"], Args::new().opt("command", command)).await
}
