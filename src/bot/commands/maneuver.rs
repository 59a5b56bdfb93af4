//! `/maneuver grapple|escape|trip|disarm|sunder|listen`.

use crate::bot::autocomplete;
use crate::bot::choices::{EscapeHow, GrappleThen, Mode};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ maneuvers: grapple, escape, trip, disarm, sunder, listen for a hidden foe
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "maneuver_grapple",
        "maneuver_escape",
        "maneuver_trip",
        "maneuver_disarm",
        "maneuver_sunder",
        "maneuver_listen"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn maneuver(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Grapple someone (Grappling against their Speed); again next turn to hold, throw or pin
#[poise::command(slash_command, rename = "grapple")]
pub async fn maneuver_grapple(
    ctx: Context<'_>,
    #[description = "Who is grappled"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "Who grapples (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "Already holding on: hold (free punch), throw or pin"] then: Option<
        GrappleThen,
    >,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .choice("then", then)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "grapple"], args).await
}

/// Get out of a grapple: reverse it (Grappling) or break free (Strength)
#[poise::command(slash_command, rename = "escape")]
pub async fn maneuver_escape(
    ctx: Context<'_>,
    #[description = "Who holds them"]
    #[autocomplete = "autocomplete::character"]
    holder: String,
    #[description = "Who is held (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "reverse the hold, or break free (default)"] how: Option<EscapeHow>,
    #[description = "Fighting Berserk: +3 to break free"] berserk: Option<bool>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("holder", holder)
        .choice("how", how)
        .opt("berserk", berserk)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "escape"], args).await
}

/// Trip someone (weapon skill against their Speed): they fall Prone
#[poise::command(slash_command, rename = "trip")]
pub async fn maneuver_trip(
    ctx: Context<'_>,
    #[description = "Who is tripped"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "Who trips (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "The weapon used (bare-handed if left out)"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: Option<String>,
    #[description = "The GM's bonus for a whip or a hooked weapon"]
    #[min = -40]
    #[max = 40]
    bonus: Option<i64>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .opt("bonus", bonus)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "trip"], args).await
}

/// Knock a weapon from someone's grasp (weapon skill against theirs)
#[poise::command(slash_command, rename = "disarm")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn maneuver_disarm(
    ctx: Context<'_>,
    #[description = "Whose weapon"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "Who disarms (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "The weapon used (bare-handed if left out)"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: Option<String>,
    #[description = "The target's weapon to knock away (default: their first)"] item: Option<
        String,
    >,
    #[description = "A flexible weapon (whip, flail): +3"] flexible: Option<bool>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .opt("item", item)
        .opt("flexible", flexible)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "disarm"], args).await
}

/// Sunder a weapon or a piece of armour: a hit, then Strength, cuts its bonus
#[poise::command(slash_command, rename = "sunder")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn maneuver_sunder(
    ctx: Context<'_>,
    #[description = "Whose equipment"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "The weapon that strikes"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: String,
    #[description = "The target's weapon, armour or shield aimed at"] item: String,
    #[description = "Who strikes (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "Fighting Berserk: +3 to Strength"] berserk: Option<bool>,
    #[description = "Added to the hit check (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .opt("item", item)
        .opt("berserk", berserk)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "sunder"], args).await
}

/// Unable to see: place a foe by the sound they made (Perception)
#[poise::command(slash_command, rename = "listen")]
pub async fn maneuver_listen(
    ctx: Context<'_>,
    #[description = "Who listens (default: your THIZ character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Feet to the sound (default 30; 15 or less narrows it to places)"]
    #[min = 0]
    #[max = 10000]
    distance: Option<i64>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("distance", distance)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["maneuver", "listen"], args).await
}
