//! `/tftkit check|gear|actions|miss|cast|pickup|staff`: The Fantasy Trip's table aids beside `/tft` (Discord caps
//! one command, its subcommands and options at 4000 characters, and `/tft` is near it).

use crate::bot::autocomplete;
use crate::bot::choices::{CommonCheck, Mode, SpellKind, StaffRefill, TakeActions};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// The Fantasy Trip: common checks, gear, multiple actions, rolls to miss, casting, staffs, pickup
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "tftkit_check",
        "tftkit_gear",
        "tftkit_actions",
        "tftkit_miss",
        "tftkit_cast",
        "tftkit_pickup",
        "tftkit_staff"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn tftkit(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// TFT common check: climb, force a door, notice a trap, pick a pocket and the like
#[poise::command(slash_command, rename = "check")]
pub async fn tftkit_check(
    ctx: Context<'_>,
    #[description = "What the figure tries"] check: CommonCheck,
    #[description = "Words of the situation, like trap, locked or distraction"] case: Option<
        String,
    >,
    #[description = "Who rolls (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "For recognize-spell: the spell's IQ level (1 to 40)"]
    #[min = 1]
    #[max = 40]
    spell_iq: Option<i64>,
    #[description = "Added to the number (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("check", Some(check))
        .opt("case", case)
        .opt("character", character)
        .opt("spell_iq", spell_iq)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["tftkit", "check"], args).await
}

/// TFT gear: price, mending, wear and splitting of a weapon, armor or shield
#[poise::command(slash_command, rename = "gear")]
pub async fn tftkit_gear(
    ctx: Context<'_>,
    #[description = "A weapon, armor or shield, like broadsword, fine chainmail or large shield"]
    item: String,
    #[description = "A weapon's quality: plain, good, fine, fine+1, fine+2, fine-dx+1, fine-dx+2"]
    quality: Option<String>,
    #[description = "A fine weapon made of silver (twice the price)"] silver: Option<bool>,
    #[description = "Hits the armor or shield has taken since new or mended (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    hits: Option<i64>,
    #[description = "Whether this figure may carry the weapon as a second weapon"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("item", item)
        .opt("quality", quality)
        .opt("silver", silver)
        .opt("hits", hits)
        .opt("character", character);
    invoke(ctx, &["tftkit", "gear"], args).await
}

/// TFT multiple actions: the options a figure's adjDX allows this turn, and their costs
#[poise::command(slash_command, rename = "actions")]
pub async fn tftkit_actions(
    ctx: Context<'_>,
    #[description = "The first side's initiative die (1 to 6)"]
    #[min = 1]
    #[max = 6]
    first: i64,
    #[description = "The second side's initiative die (1 to 6)"]
    #[min = 1]
    #[max = 6]
    second: i64,
    #[description = "The meta-option to take: its costs and movement"] take: Option<TakeActions>,
    #[description = "The figure is engaged (no movement boost)"] engaged: Option<bool>,
    #[description = "Who acts (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("first", first)
        .opt("second", second)
        .choice("take", take)
        .opt("engaged", engaged)
        .opt("character", character);
    invoke(ctx, &["tftkit", "actions"], args).await
}

/// TFT roll to miss: a shot past a figure in the line of fire
#[poise::command(slash_command, rename = "miss")]
pub async fn tftkit_miss(
    ctx: Context<'_>,
    #[description = "Who shoots (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Figures already rolled for by this shooter this turn (0 to 100)"]
    #[min = 0]
    #[max = 100]
    prior: Option<i64>,
    #[description = "Added to adjusted DX (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("prior", prior)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["tftkit", "miss"], args).await
}

/// TFT casting: a spell from the sheet, its ST paid as fatigue or from a staff's mana
#[poise::command(slash_command, rename = "cast")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tftkit_cast(
    ctx: Context<'_>,
    #[description = "A spell on the caster's sheet"] spell: String,
    #[description = "Who casts (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "A missile spell's target (its hits are applied)"]
    #[autocomplete = "autocomplete::character"]
    target: Option<String>,
    #[description = "ST spent (default: the house rules' cost; a missile spell's power) (1 to 100)"]
    #[min = 1]
    #[max = 100]
    st: Option<i64>,
    #[description = "The spell's type, for a spell the bot does not list"] kind: Option<SpellKind>,
    #[description = "Hexes to the target (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    distance: Option<i64>,
    #[description = "A missile spell's damage, like 2d-2"] damage: Option<String>,
    #[description = "Added to adjusted DX (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
    #[description = "In a fight: keep up a continuing spell that lapsed this round, for its upkeep"]
    renew: Option<bool>,
    #[description = "ST paid from the staff's mana instead of fatigue (1 to 100)"]
    #[min = 1]
    #[max = 100]
    mana: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("spell", spell)
        .opt("character", character)
        .opt("target", target)
        .opt("st", st)
        .choice("kind", kind)
        .opt("distance", distance)
        .opt("damage", damage)
        .opt("modifier", modifier)
        .choice("mode", mode)
        .opt("renew", renew)
        .opt("mana", mana);
    invoke(ctx, &["tftkit", "cast"], args).await
}

/// TFT: pick up a dropped weapon (takes the turn)
#[poise::command(slash_command, rename = "pickup")]
pub async fn tftkit_pickup(
    ctx: Context<'_>,
    #[description = "Who picks it up (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "The dropped weapon, as carried (default: the one dropped)"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("weapon", weapon);
    invoke(ctx, &["tftkit", "pickup"], args).await
}

/// TFT: refill a staff's mana, a point for 5 ST of fatigue or a half day of contemplation
#[poise::command(slash_command, rename = "staff")]
pub async fn tftkit_staff(
    ctx: Context<'_>,
    #[description = "5 ST of fatigue a point, or a half day of contemplation a point"]
    by: StaffRefill,
    #[description = "Points of mana put back (default 1) (1 to 100)"]
    #[min = 1]
    #[max = 100]
    points: Option<i64>,
    #[description = "Whose staff (default: your latest character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("by", Some(by))
        .opt("points", points)
        .opt("character", character);
    invoke(ctx, &["tftkit", "staff"], args).await
}
