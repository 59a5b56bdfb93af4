//! `/odds thiz|tft|dice`.

use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Exact odds of every outcome of a THIZ check or a TFT roll
#[poise::command(
    slash_command,
    guild_only,
    subcommands("odds_thiz", "odds_tft", "odds_dice"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn odds(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Exact odds of each THIZ level for a rating
#[poise::command(slash_command, rename = "thiz")]
pub async fn odds_thiz(
    ctx: Context<'_>,
    #[description = "The rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    rating: i64,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("rating", rating).opt("modifier", modifier);
    invoke(ctx, &["odds", "thiz"], args).await
}

/// Exact odds of each TFT attack or saving roll outcome
#[poise::command(slash_command, rename = "tft")]
pub async fn odds_tft(
    ctx: Context<'_>,
    #[description = "The number to roll under or on, usually adjusted DX (-100 to 100)"]
    #[min = -100]
    #[max = 100]
    target: i64,
    #[description = "Dice rolled: 3 to 20 for an attack, 1 to 12 for a save"]
    #[min = 1]
    #[max = 20]
    dice: i64,
    #[description = "Odds of a saving roll instead of an attack"] save: Option<bool>,
    #[description = "Odds of a roll to miss a figure in the line of fire (3 dice)"] miss: Option<
        bool,
    >,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("target", target)
        .opt("dice", dice)
        .opt("save", save)
        .opt("miss", miss);
    invoke(ctx, &["odds", "tft"], args).await
}

/// Exact odds of any dice roll: every total, with a chart
#[poise::command(slash_command, rename = "dice")]
pub async fn odds_dice(
    ctx: Context<'_>,
    #[description = "The dice, like 4d6kh3, 2d20kh1+5, 6d10 t7 or 3d6!"] expression: String,
    #[description = "A total to give the chance of: exactly, or more, or less"]
    #[min = -1_000_000]
    #[max = 1_000_000]
    at: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("expression", expression).opt("at", at);
    invoke(ctx, &["odds", "dice"], args).await
}
