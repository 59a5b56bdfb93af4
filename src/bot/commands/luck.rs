//! `/luck spend|roll|show|award|set|log`.

use crate::bot::autocomplete;
use crate::bot::choices::{LuckKind, WoundLevel};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Hidden luck: spend it, or (GM) roll, read and change it
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "luck_spend",
        "luck_roll",
        "luck_show",
        "luck_award",
        "luck_set",
        "luck_log"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn luck(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Spend your character's hidden luck: reroll a check or attack, lower a wound, a stunt
#[poise::command(slash_command, rename = "spend")]
pub async fn luck_spend(
    ctx: Context<'_>,
    #[description = "What the luck is for"] kind: LuckKind,
    #[description = "Whose luck (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Points to spend (a stunt needs them; 1 to 999)"]
    #[min = 1]
    #[max = 999]
    points: Option<i64>,
    #[description = "The roll number (default: the character's latest roll)"]
    #[min = 1]
    roll: Option<i64>,
    #[description = "For a wound: where (default: the latest attack's, or the only wounded place)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "For a wound: which colour to lower (default: the worst there)"] level: Option<
        WoundLevel,
    >,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("kind", Some(kind))
        .opt("character", character)
        .opt("points", points)
        .opt("roll", roll)
        .opt("location", location)
        .choice("level", level);
    invoke(ctx, &["luck", "spend"], args).await
}

/// GM: roll a character's luck secretly (1d10)
#[poise::command(slash_command, rename = "roll")]
pub async fn luck_roll(
    ctx: Context<'_>,
    #[description = "Whose luck"]
    #[autocomplete = "autocomplete::character"]
    character: String,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["luck", "roll"],
        Args::new().opt("character", character),
    )
    .await
}

/// GM: how much luck a character has, shown only to you
#[poise::command(slash_command, rename = "show")]
pub async fn luck_show(
    ctx: Context<'_>,
    #[description = "Whose luck"]
    #[autocomplete = "autocomplete::character"]
    character: String,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["luck", "show"],
        Args::new().opt("character", character),
    )
    .await
}

/// GM: give a character luck points
#[poise::command(slash_command, rename = "award")]
pub async fn luck_award(
    ctx: Context<'_>,
    #[description = "Whose luck"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Points to add (1 to 999)"]
    #[min = 1]
    #[max = 999]
    points: i64,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("points", points);
    invoke(ctx, &["luck", "award"], args).await
}

/// GM: set a character's luck to a number
#[poise::command(slash_command, rename = "set")]
pub async fn luck_set(
    ctx: Context<'_>,
    #[description = "Whose luck"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "The new total (0 to 999)"]
    #[min = 0]
    #[max = 999]
    points: i64,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("points", points);
    invoke(ctx, &["luck", "set"], args).await
}

/// GM: a character's luck ledger, shown only to you
#[poise::command(slash_command, rename = "log")]
pub async fn luck_log(
    ctx: Context<'_>,
    #[description = "Whose luck"]
    #[autocomplete = "autocomplete::character"]
    character: String,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["luck", "log"],
        Args::new().opt("character", character),
    )
    .await
}
