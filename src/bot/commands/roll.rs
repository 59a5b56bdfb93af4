//! `/roll`.

use crate::bot::autocomplete;
use crate::bot::choices::Mode;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Roll dice: 2d6+1, 1d100, 4d6kh3, 3d6!, d%
#[poise::command(slash_command, guild_only)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "The dice, like 2d6+1, 4d6kh3, 3d6! or d%, or a saved roll's name (attack+2)"]
    #[autocomplete = "autocomplete::expression"]
    expression: String,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
    #[description = "What the roll is for"] label: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("expression", expression)
        .choice("mode", mode)
        .opt("label", label);
    invoke(ctx, &["roll"], args).await
}
