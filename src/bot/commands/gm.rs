//! `/gm setup|rules|hidden|note|roll|request|check`.

use poise::serenity_prelude as serenity;

use crate::bot::autocomplete;
use crate::bot::choices::{HouseRule, Mode, SetupClear, System};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// GM tools: server setup, house rules, hidden values, notes, secret rolls and roll requests
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "gm_setup",
        "gm_rules",
        "gm_hidden",
        "gm_note",
        "gm_roll",
        "gm_request",
        "gm_check"
    ),
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
    #[description = "The dice, like 2d6+1 or 1d8+4, or a saved roll's name"]
    #[autocomplete = "autocomplete::expression"]
    expression: String,
    #[description = "What the roll is for"] label: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("expression", expression)
        .opt("label", label);
    invoke(ctx, &["gm", "roll"], args).await
}

/// GM: ask characters for a check, a save or dice; each player rolls with a button
#[poise::command(slash_command, rename = "request")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn gm_request(
    ctx: Context<'_>,
    // One option with a comma-separated list: any number of names (up to 20) without twenty
    // options, and the same text the console types.
    #[description = "Who rolls: names separated by commas, or everyone (this channel's encounter, else every player)"]
    #[autocomplete = "autocomplete::characters"]
    characters: String,
    #[description = "THIZ: the skill to check"]
    #[autocomplete = "autocomplete::skill"]
    skill: Option<String>,
    #[description = "THIZ: a bare rating instead of a skill (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    rating: Option<i64>,
    #[description = "TFT: st, dx, iq, or a number from 1 to 100"] attribute: Option<String>,
    #[description = "TFT: how many dice (1 to 12)"]
    #[min = 1]
    #[max = 12]
    dice: Option<i64>,
    #[description = "Or any dice, or a saved roll's name (each player's own, else the server's)"]
    expression: Option<String>,
    #[description = "Added to the rating or the attribute (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the results (default public; blind: only you)"] mode: Option<Mode>,
    #[description = "What the roll is for"] label: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("characters", characters)
        .opt("skill", skill)
        .opt("rating", rating)
        .opt("attribute", attribute)
        .opt("dice", dice)
        .opt("expression", expression)
        .opt("modifier", modifier)
        .choice("mode", mode)
        .opt("label", label);
    invoke(ctx, &["gm", "request"], args).await
}

/// GM: roll a character's check or save from their sheet, in secret (only you see it)
#[poise::command(slash_command, rename = "check")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn gm_check(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "THIZ: the skill to check"]
    #[autocomplete = "autocomplete::skill"]
    skill: Option<String>,
    #[description = "THIZ: a bare rating instead of a skill (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    rating: Option<i64>,
    #[description = "TFT: st, dx, iq, or a number from 1 to 100"] attribute: Option<String>,
    #[description = "TFT: how many dice (1 to 12)"]
    #[min = 1]
    #[max = 12]
    dice: Option<i64>,
    #[description = "Added to the rating or the attribute (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "What the roll is for"] label: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("skill", skill)
        .opt("rating", rating)
        .opt("attribute", attribute)
        .opt("dice", dice)
        .opt("modifier", modifier)
        .opt("label", label);
    invoke(ctx, &["gm", "check"], args).await
}
