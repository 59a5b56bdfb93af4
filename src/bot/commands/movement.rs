//! `/move rate|climb|travel|animal|spot|pilot|chase|near|collide|crash`.

use crate::bot::autocomplete;
use crate::bot::choices::{
    Approach, Boat, CollisionKind, GapChange, Mode, Pace, Terrain, TimeOfDay, TravelLoad,
    VehicleScale,
};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ movement: rates, climbing, travel, animals, vehicles, chases and collisions
#[poise::command(
    slash_command,
    guild_only,
    rename = "move",
    subcommands(
        "move_rate",
        "move_climb",
        "move_travel",
        "move_animal",
        "move_spot",
        "move_pilot",
        "move_chase",
        "move_near",
        "move_collide",
        "move_crash"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn movement(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// How far a character (or an animal) crawls, walks, jogs, sprints, swims and climbs, and for how long
#[poise::command(slash_command, rename = "rate")]
pub async fn move_rate(
    ctx: Context<'_>,
    #[description = "Whose rates (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Carrying a heavy load (Speed 0)"] heavy: Option<bool>,
    #[description = "An animal's Speed instead of a character (-40 to 60)"]
    #[min = -40]
    #[max = 60]
    animal_speed: Option<i64>,
    #[description = "A particularly fast animal (three times the table)"] fast: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("heavy", heavy)
        .opt("animal_speed", animal_speed)
        .opt("fast", fast);
    invoke(ctx, &["move", "rate"], args).await
}

/// Climb a height: a Climbing check every 100 feet, and a fall if one fails
#[poise::command(slash_command, rename = "climb")]
pub async fn move_climb(
    ctx: Context<'_>,
    #[description = "Height to climb in feet (1 to 10000)"]
    #[min = 1]
    #[max = 10000]
    height: i64,
    #[description = "Who climbs (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "The surface's bonus or penalty (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("height", height)
        .opt("character", character)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "climb"], args).await
}

/// A day's travel on foot, mounted or by boat, with a Navigation check if asked
#[poise::command(slash_command, rename = "travel")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn move_travel(
    ctx: Context<'_>,
    #[description = "Who travels or navigates (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "The mount's or traveller's Speed instead of the character's (-40 to 60)"]
    #[min = -40]
    #[max = 60]
    speed: Option<i64>,
    #[description = "What the traveller carries or pulls"] load: Option<TravelLoad>,
    #[description = "The country crossed"] terrain: Option<Terrain>,
    #[description = "Rivers forded (0 to 50)"]
    #[min = 0]
    #[max = 50]
    fords: Option<i64>,
    #[description = "Go by boat instead"] boat: Option<Boat>,
    #[description = "Roll Navigation for the day or the night"] navigate: Option<TimeOfDay>,
    #[description = "The sky can be seen (Celestial Guidance)"] sky: Option<bool>,
    #[description = "Added to Navigation (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("speed", speed)
        .choice("load", load)
        .choice("terrain", terrain)
        .opt("fords", fords)
        .choice("boat", boat)
        .choice("navigate", navigate)
        .opt("sky", sky)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "travel"], args).await
}

/// Command an animal to do something out of the ordinary (Animal Handling)
#[poise::command(slash_command, rename = "animal")]
pub async fn move_animal(
    ctx: Context<'_>,
    #[description = "Who gives the command (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "animal"], args).await
}

/// A Perception check on the way; Street-Smarts helps in a city
#[poise::command(slash_command, rename = "spot")]
pub async fn move_spot(
    ctx: Context<'_>,
    #[description = "Who looks (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "In a city"] city: Option<bool>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("city", city)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "spot"], args).await
}

/// A pilot's check to manoeuvre, or to stop a wrecked vehicle; the vehicle's rate at a Speed
#[poise::command(slash_command, rename = "pilot")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn move_pilot(
    ctx: Context<'_>,
    #[description = "The Pilot skill, like Pilot (Cart)"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "Who pilots (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "How fast (flat-out costs 3)"] pace: Option<Pace>,
    #[description = "The vehicle's Speed, to show its rate (0 to 60)"]
    #[min = 0]
    #[max = 60]
    speed: Option<i64>,
    #[description = "What kind of craft"] scale: Option<VehicleScale>,
    #[description = "The vehicle was wrecked while moving"] wrecked: Option<bool>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("character", character)
        .choice("pace", pace)
        .opt("speed", speed)
        .choice("scale", scale)
        .opt("wrecked", wrecked)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "pilot"], args).await
}

/// A chase between two vehicles: is it one, who may change the gap, and the gap after
#[poise::command(slash_command, rename = "chase")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn move_chase(
    ctx: Context<'_>,
    #[description = "The first vehicle's Speed (0 to 60)"]
    #[min = 0]
    #[max = 60]
    first_speed: i64,
    #[description = "The second vehicle's Speed (0 to 60)"]
    #[min = 0]
    #[max = 60]
    second_speed: i64,
    #[description = "What kind of craft"] scale: Option<VehicleScale>,
    #[description = "The first mover's initiative (-100 to 100)"]
    #[min = -100]
    #[max = 100]
    first_initiative: Option<i64>,
    #[description = "The second mover's initiative (-100 to 100)"]
    #[min = -100]
    #[max = 100]
    second_initiative: Option<i64>,
    #[description = "The gap in feet (0 to 100000)"]
    #[min = 0]
    #[max = 100_000]
    gap: Option<i64>,
    #[description = "What the leader does with the gap (default close)"] change: Option<GapChange>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("first_speed", first_speed)
        .opt("second_speed", second_speed)
        .choice("scale", scale)
        .opt("first_initiative", first_initiative)
        .opt("second_initiative", second_initiative)
        .opt("gap", gap)
        .choice("change", change);
    invoke(ctx, &["move", "chase"], args).await
}

/// Two vehicles about to collide: both pilots check, and the better chooses how they pass
#[poise::command(slash_command, rename = "near")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn move_near(
    ctx: Context<'_>,
    #[description = "The other pilot's rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    other_rating: i64,
    #[description = "Your Pilot skill, like Pilot (Cart)"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "How they meet (default crossing)"] approach: Option<Approach>,
    #[description = "Who pilots (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "How fast (flat-out costs 3)"] pace: Option<Pace>,
    #[description = "Added to your rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("other_rating", other_rating)
        .opt("skill", skill)
        .choice("approach", approach)
        .opt("character", character)
        .choice("pace", pace)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["move", "near"], args).await
}

/// A collision's hit: rated by the Speeds involved, before each victim's Toughness
#[poise::command(slash_command, rename = "collide")]
pub async fn move_collide(
    ctx: Context<'_>,
    #[description = "What hit what"] kind: CollisionKind,
    #[description = "The striking vehicle's Speed (0 to 60)"]
    #[min = 0]
    #[max = 60]
    speed: i64,
    #[description = "The other vehicle's or the pedestrian's Speed (-40 to 60)"]
    #[min = -40]
    #[max = 60]
    other_speed: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("kind", Some(kind))
        .opt("speed", speed)
        .opt("other_speed", other_speed)
        .choice("mode", mode);
    invoke(ctx, &["move", "collide"], args).await
}

/// A wrecked vehicle's hit on one occupant
#[poise::command(slash_command, rename = "crash")]
pub async fn move_crash(
    ctx: Context<'_>,
    #[description = "The vehicle's Speed when it was wrecked (0 to 60)"]
    #[min = 0]
    #[max = 60]
    vehicle_speed: i64,
    #[description = "The occupant (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Armor Bonus where they were struck (0 to 40)"]
    #[min = 0]
    #[max = 40]
    armour: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("vehicle_speed", vehicle_speed)
        .opt("character", character)
        .opt("armour", armour)
        .choice("mode", mode);
    invoke(ctx, &["move", "crash"], args).await
}
