//! `/tftref study|called|spell|ski|mount|price|time`: TFT look-ups kept out of `/tft`, whose options are near
//! Discord's 4000-character limit for one command: talent study, called shots, spells, skiing,
//! mounts, prices, time.

use crate::bot::autocomplete;
use crate::bot::choices::{CalledArea, MountPace, SpellKind, TimedAction, WallEnded};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// TFT look-ups: talent study, called shots, spells, skiing, mounts, prices, time
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "tftref_study",
        "tftref_called",
        "tftref_spell",
        "tftref_ski",
        "tftref_mount",
        "tftref_price",
        "tftref_time"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn tftref(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// TFT: may a character learn a talent now, at what cost and how fast
#[poise::command(slash_command, rename = "study")]
pub async fn tftref_study(
    ctx: Context<'_>,
    // More talents than Discord's 25 choices, so text; app names the bad one.
    #[description = "The talent, like Sword, Climbing or Physicker"] talent: String,
    #[description = "Who studies (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Someone who knows the talent teaches"] instructor: Option<bool>,
    #[description = "Training on the job as well"] on_the_job: Option<bool>,
    #[description = "Other talents studied at the same time, comma-separated"] also: Option<String>,
    #[description = "The cost your book lists, if the bot shows none (1 to 10)"]
    #[min = 1]
    #[max = 10]
    cost: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("talent", talent)
        .opt("character", character)
        .opt("instructor", instructor)
        .opt("on_the_job", on_the_job)
        .opt("also", also)
        .opt("cost", cost);
    invoke(ctx, &["tftref", "study"], args).await
}

/// TFT called shot: the aim at a head, hand, arm, leg or wing, and what the hits do
#[poise::command(slash_command, rename = "called")]
pub async fn tftref_called(
    ctx: Context<'_>,
    #[description = "Where the blow is aimed"] area: CalledArea,
    #[description = "Hits that got through, for their effect (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    hits: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().choice("area", Some(area)).opt("hits", hits);
    invoke(ctx, &["tftref", "called"], args).await
}

/// TFT spell: IQ and ST cost, adjDX for distance, summon limits, Wall of Fire hits
#[poise::command(slash_command, rename = "spell")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tftref_spell(
    ctx: Context<'_>,
    // The house rules' new spells; other spells go by kind.
    #[description = "A spell of the house rules, like Levitate or Summon Warrior"] spell: Option<
        String,
    >,
    #[description = "The spell's type, for a spell the bot does not list"] kind: Option<SpellKind>,
    #[description = "Megahexes (missile) or hexes between (thrown) to the target (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    distance: Option<i64>,
    #[description = "A summoned creature's ST (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    st: Option<i64>,
    #[description = "A summoned creature's DX (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    dx: Option<i64>,
    #[description = "A summoned creature's IQ (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    iq: Option<i64>,
    #[description = "A summoned creature's size in hexes (default 1; 0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    hexes: Option<i64>,
    #[description = "Wall of Fire hexes moved through this turn (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    through: Option<i64>,
    #[description = "Where the move ended: in the wall, next to it, or away"] ended: Option<
        WallEnded,
    >,
    #[description = "Hits the figure's armor stops (0 to 1000)"]
    #[min = 0]
    #[max = 1000]
    armor: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("spell", spell)
        .choice("kind", kind)
        .opt("distance", distance)
        .opt("st", st)
        .opt("dx", dx)
        .opt("iq", iq)
        .opt("hexes", hexes)
        .opt("through", through)
        .choice("ended", ended)
        .opt("armor", armor);
    invoke(ctx, &["tftref", "spell"], args).await
}

/// TFT skiing: MA on snow and uphill, downhill rolls, falls and jumps
#[poise::command(slash_command, rename = "ski")]
pub async fn tftref_ski(
    ctx: Context<'_>,
    #[description = "Who skis (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Going downhill at this many times MA (1 to 20)"]
    #[min = 1]
    #[max = 20]
    multiple: Option<i64>,
    #[description = "A ski jump (Master Skier)"] jump: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("multiple", multiple)
        .opt("jump", jump);
    invoke(ctx, &["tftref", "ski"], args).await
}

/// TFT mount: MA and adjDX under a load, turns, the least move, the charge bonus
#[poise::command(slash_command, rename = "mount")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tftref_mount(
    ctx: Context<'_>,
    #[description = "The mount's ST (1 to 10000)"]
    #[min = 1]
    #[max = 10000]
    st: i64,
    #[description = "Its MA unladen (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    ma: i64,
    #[description = "Its DX (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    dx: i64,
    #[description = "Kilograms carried, rider included (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    load: Option<i64>,
    #[description = "The chart's pace, run overloaded, or pushed"] pace: Option<MountPace>,
    #[description = "Hexes moved this turn (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    hexes: Option<i64>,
    #[description = "Changes of facing this turn (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    facing: Option<i64>,
    #[description = "Hexes moved last turn (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    last: Option<i64>,
    #[description = "Hexes come in a fairly straight line (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    straight: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("st", st)
        .opt("ma", ma)
        .opt("dx", dx)
        .opt("load", load)
        .choice("pace", pace)
        .opt("hexes", hexes)
        .opt("facing", facing)
        .opt("last", last)
        .opt("straight", straight);
    invoke(ctx, &["tftref", "mount"], args).await
}

/// TFT: a magic item's price under the house rules, and its making time
#[poise::command(slash_command, rename = "price")]
pub async fn tftref_price(
    ctx: Context<'_>,
    #[description = "The magic item, like Sleep, Iron Flesh or Fireball rod"] magic: String,
    #[description = "A rod's points (1 to 100)"]
    #[min = 1]
    #[max = 100]
    points: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("magic", magic).opt("points", points);
    invoke(ctx, &["tftref", "price"], args).await
}

/// TFT: the rounds an action takes (searching, traps, backpacks, torches…)
#[poise::command(slash_command, rename = "time")]
pub async fn tftref_time(
    ctx: Context<'_>,
    #[description = "The action"] action: TimedAction,
) -> Result<(), Error> {
    let args = Args::new().choice("action", Some(action));
    invoke(ctx, &["tftref", "time"], args).await
}
