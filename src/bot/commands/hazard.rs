//! `/hazard fall|fire|water|suffocation|poison`.

use crate::bot::autocomplete;
use crate::bot::choices::{Mode, Surface, TimeUnit, WaterSituation, WoundLevel};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ hazards: falls, fire, open water, suffocation and poison
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "hazard_fall",
        "hazard_fire",
        "hazard_water",
        "hazard_suffocation",
        "hazard_poison"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn hazard(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// A fall: checked at the height less 10 feet, the wound written on the sheet
#[poise::command(slash_command, rename = "fall")]
pub async fn hazard_fall(
    ctx: Context<'_>,
    #[description = "How far they fall, in feet"]
    #[min = 0]
    #[max = 100_000]
    height: i64,
    #[description = "Who falls (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "What they land on (default unyielding)"] surface: Option<Surface>,
    #[description = "Where they are hurt (default: rolled)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("height", height)
        .opt("character", character)
        .choice("surface", surface)
        .opt("location", location)
        .choice("mode", mode);
    invoke(ctx, &["hazard", "fall"], args).await
}

/// Fire attacks like a weapon; the victim checks Toughness
#[poise::command(slash_command, rename = "fire")]
pub async fn hazard_fire(
    ctx: Context<'_>,
    #[description = "The fire's rating: candle -5, torch 0, bonfire 15-20, lava 25-30"]
    #[min = -40]
    #[max = 40]
    rating: i64,
    #[description = "Who is caught (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "They can move away: their Speed lowers the fire's rating"] fleeing: Option<
        bool,
    >,
    #[description = "Where the flames strike (default: rolled)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("rating", rating)
        .opt("character", character)
        .opt("fleeing", fleeing)
        .opt("location", location)
        .choice("mode", mode);
    invoke(ctx, &["hazard", "fire"], args).await
}

/// Stay afloat: twice Swimming, less armour and the water's rating
#[poise::command(slash_command, rename = "water")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn hazard_water(
    ctx: Context<'_>,
    #[description = "The water's rating: calm 0, current 10, whitewater 25, hurricane 50"]
    #[min = 0]
    #[max = 60]
    water: i64,
    #[description = "Who is in the water (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "What calls for the check (no check is rolled if it needs none)"]
    situation: Option<WaterSituation>,
    #[description = "For a dive: its height in feet"]
    #[min = 0]
    #[max = 100_000]
    height: Option<i64>,
    #[description = "Added to the check (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("water", water)
        .opt("character", character)
        .choice("situation", situation)
        .opt("height", height)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["hazard", "water"], args).await
}

/// A turn without air: past 6 + Physical turns, a check for a chest wound
#[poise::command(slash_command, rename = "suffocation")]
pub async fn hazard_suffocation(
    ctx: Context<'_>,
    #[description = "Which turn without air this is (the count the referee keeps)"]
    #[min = 1]
    #[max = 1000]
    turn: i64,
    #[description = "Who cannot breathe (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("turn", turn)
        .opt("character", character)
        .choice("mode", mode);
    invoke(ctx, &["hazard", "suffocation"], args).await
}

/// Poison: Toughness against its wound rating, and the time left for the antidote
#[poise::command(slash_command, rename = "poison")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn hazard_poison(
    ctx: Context<'_>,
    #[description = "The poison's wound rating"] wound: WoundLevel,
    #[description = "How long before it acts"]
    #[min = 1]
    #[max = 1000]
    duration: i64,
    #[description = "The unit of that duration"] unit: TimeUnit,
    #[description = "Who is poisoned (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Where its wound lands (default Gut)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Added to the check (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("wound", Some(wound))
        .opt("duration", duration)
        .choice("unit", Some(unit))
        .opt("character", character)
        .opt("location", location)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["hazard", "poison"], args).await
}
