//! `/gm setup|rules|hidden|note|roll`.

use poise::serenity_prelude as serenity;

use crate::bot::autocomplete;
use crate::bot::choices::{HouseRule, SetupClear, System};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// GM tools: server setup, house rules, hidden values, notes and secret rolls
#[poise::command(
    slash_command,
    guild_only,
    subcommands("gm_setup", "gm_rules", "gm_hidden", "gm_note", "gm_roll"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn gm(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Set or clear the GM role and the GM channel, set the default system (Manage Server)
#[poise::command(slash_command, rename = "setup")]
pub async fn gm_setup(
    ctx: Context<'_>,
    #[description = "The role whose members are GMs"] gm_role: Option<serenity::RoleId>,
    #[description = "The channel for private and blind rolls"] gm_channel: Option<
        serenity::ChannelId,
    >,
    #[description = "The system new characters use by default"] system: Option<System>,
    #[description = "Forget the GM role, the GM channel, or both"] clear: Option<SetupClear>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("gm_role", gm_role)
        .opt("gm_channel", gm_channel)
        .choice("system", system)
        .choice("clear", clear);
    invoke(ctx, &["gm", "setup"], args).await
}

/// GM: list the house-rule switches, or turn one on or off
#[poise::command(slash_command, rename = "rules")]
pub async fn gm_rules(
    ctx: Context<'_>,
    #[description = "The switch to show or change"] name: Option<HouseRule>,
    #[description = "On or off (leave out to see it)"] value: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new().choice("name", name).opt("value", value);
    invoke(ctx, &["gm", "rules"], args).await
}

/// GM: set a hidden value on a sheet, or read it back
#[poise::command(slash_command, rename = "hidden")]
pub async fn gm_hidden(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "The value's name (* lists them all)"] key: String,
    #[description = "The value to keep (leave out to read it)"] value: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("key", key)
        .opt("value", value);
    invoke(ctx, &["gm", "hidden"], args).await
}

/// GM: add a note to a sheet, or read its notes
#[poise::command(slash_command, rename = "note")]
pub async fn gm_note(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "The note to add (leave out to read them)"] text: Option<String>,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character).opt("text", text);
    invoke(ctx, &["gm", "note"], args).await
}

/// GM: a secret roll with a public commitment, for /reveal later
#[poise::command(slash_command, rename = "roll")]
pub async fn gm_roll(
    ctx: Context<'_>,
    #[description = "The dice, like 2d6+1 or 1d8+4"] expression: String,
    #[description = "What the roll is for"] label: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("expression", expression)
        .opt("label", label);
    invoke(ctx, &["gm", "roll"], args).await
}
