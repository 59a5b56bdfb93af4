//! `/wound add|heal|rest`.

use crate::bot::autocomplete;
use crate::bot::choices::WoundLevel;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ wounds: add and heal them (GM), rest to recover
#[poise::command(
    slash_command,
    guild_only,
    subcommands("wound_add", "wound_heal", "wound_rest"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn wound(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// GM: put a wound on a THIZ character
#[poise::command(slash_command, rename = "add")]
pub async fn wound_add(
    ctx: Context<'_>,
    #[description = "Who is wounded"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Where: head, chest, gut, an arm or a leg"]
    #[autocomplete = "autocomplete::location"]
    location: String,
    #[description = "How bad the wound is"] level: WoundLevel,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("location", location)
        .choice("level", Some(level));
    invoke(ctx, &["wound", "add"], args).await
}

/// GM: heal a THIZ character's wounds, at one location or all
#[poise::command(slash_command, rename = "heal")]
pub async fn wound_heal(
    ctx: Context<'_>,
    #[description = "Who is healed"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Only this location (default: all)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("location", location);
    invoke(ctx, &["wound", "heal"], args).await
}

/// Rest a THIZ character for some days, rolling each day's healing
#[poise::command(slash_command, rename = "rest")]
pub async fn wound_rest(
    ctx: Context<'_>,
    #[description = "Who rests"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Days of rest (1 to 365, default 1)"]
    #[min = 1]
    #[max = 365]
    days: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character).opt("days", days);
    invoke(ctx, &["wound", "rest"], args).await
}
