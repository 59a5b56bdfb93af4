//! `/roll`.

use crate::bot::autocomplete;
use crate::bot::choices::Mode;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Roll dice: 2d6+1, 4d6 k3, (1d8+3)*2, 6 4d6, 1d20; 2d6, 5d10 t8, 3df, +d20 — /help roll for all
#[poise::command(slash_command, guild_only)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "The dice, like 2d6+1, 4d6 k3, 1d20+5 ! Attack, 6 4d6 or 3df, or a saved roll's name"]
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
