//! `/wound add|heal|rest|dying|firstaid|surgery`.

use crate::bot::autocomplete;
use crate::bot::choices::{Mode, WoundLevel};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ wounds: add and heal them (GM), rest, dying checks, First Aid and Surgery
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "wound_add",
        "wound_heal",
        "wound_rest",
        "wound_dying",
        "wound_firstaid",
        "wound_surgery"
    ),
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
    #[description = "Bare fists: a Black on head, chest or gut knocks out instead of killing"]
    nonlethal: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("location", location)
        .choice("level", Some(level))
        .opt("nonlethal", nonlethal);
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
    #[description = "Who rests (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Days of rest (1 to 365, default 1)"]
    #[min = 1]
    #[max = 365]
    days: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character).opt("days", days);
    invoke(ctx, &["wound", "rest"], args).await
}

/// A dying THIZ character's Toughness check: Failure dies, Black is stable
#[poise::command(slash_command, rename = "dying")]
pub async fn wound_dying(
    ctx: Context<'_>,
    #[description = "Who is dying (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Who sees the roll (default public; yourself for NPCs)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character).choice("mode", mode);
    invoke(ctx, &["wound", "dying"], args).await
}

/// First Aid to stabilise a dying THIZ character: any success does it
#[poise::command(slash_command, rename = "firstaid")]
pub async fn wound_firstaid(
    ctx: Context<'_>,
    #[description = "Who is dying"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Who gives First Aid (your character, or any for a GM)"]
    #[autocomplete = "autocomplete::character"]
    healer: String,
    #[description = "Who sees the roll (default public; yourself for NPCs)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("healer", healer)
        .choice("mode", mode);
    invoke(ctx, &["wound", "firstaid"], args).await
}

/// Knowledge (Surgery): heal a wound of the colour rolled, one per location per day
#[poise::command(slash_command, rename = "surgery")]
pub async fn wound_surgery(
    ctx: Context<'_>,
    #[description = "Who is operated on"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Who operates (your character, or any for a GM)"]
    #[autocomplete = "autocomplete::character"]
    surgeon: String,
    #[description = "Only this location (default: the first that matches)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Who sees the roll (default public; yourself for NPCs)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("surgeon", surgeon)
        .opt("location", location)
        .choice("mode", mode);
    invoke(ctx, &["wound", "surgery"], args).await
}
