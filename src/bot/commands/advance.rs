//! `/advance points|spend|train|craft|work|sleepless`.

use crate::bot::autocomplete;
use crate::bot::choices::{Mode, Study};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ time between adventures: skill points, study, crafting and work
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "advance_points",
        "advance_spend",
        "advance_train",
        "advance_craft",
        "advance_work",
        "advance_sleepless"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn advance(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// GM: award a session's skill points (1 for attending, more per skill used, at most 10)
#[poise::command(slash_command, rename = "points")]
pub async fn advance_points(
    ctx: Context<'_>,
    #[description = "Who earns them"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Skills used once or twice: 1 point each (0 to 10)"]
    #[min = 0]
    #[max = 10]
    light: Option<i64>,
    #[description = "Points of each moderate use, 2 to 4, like 3,2"] moderate: Option<String>,
    #[description = "Skills used heavily: 5 points each (0 to 10)"]
    #[min = 0]
    #[max = 10]
    heavy: Option<i64>,
    #[description = "Untrained skills used with success: 2 points each (0 to 10)"]
    #[min = 0]
    #[max = 10]
    untrained: Option<i64>,
    #[description = "Missed the session (no attendance point)"] absent: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("light", light)
        .opt("moderate", moderate)
        .opt("heavy", heavy)
        .opt("untrained", untrained)
        .opt("absent", absent);
    invoke(ctx, &["advance", "points"], args).await
}

/// Spend skill points: raise a skill one point per rating, or learn a new one for 5
#[poise::command(slash_command, rename = "spend")]
pub async fn advance_spend(
    ctx: Context<'_>,
    #[description = "The skill to raise or learn"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "Whose points (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "The rating to reach (default one higher; 1 to 30)"]
    #[min = 1]
    #[max = 30]
    rating: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("character", character)
        .opt("rating", rating);
    invoke(ctx, &["advance", "spend"], args).await
}

/// How long study with a tutor takes: a new Magic Skill or a Special
#[poise::command(slash_command, rename = "train")]
pub async fn advance_train(
    ctx: Context<'_>,
    #[description = "What is studied"] study: Study,
    #[description = "Who studies (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Studying while travelling (a third longer)"] road: Option<bool>,
    #[description = "The tutor's rating in the skill (0 to 30; 7 or more to teach)"]
    #[min = 0]
    #[max = 30]
    tutor: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("study", Some(study))
        .opt("character", character)
        .opt("road", road)
        .opt("tutor", tutor);
    invoke(ctx, &["advance", "train"], args).await
}

/// One crafting attempt: start a piece with a target, or go on with the one under way
#[poise::command(slash_command, rename = "craft")]
pub async fn advance_craft(
    ctx: Context<'_>,
    #[description = "The Artisan, Trade or Profession skill, for a new piece"]
    #[autocomplete = "autocomplete::skill"]
    skill: Option<String>,
    #[description = "Who crafts (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "A new piece's target score (1 to 1000)"]
    #[min = 1]
    #[max = 1000]
    target: Option<i64>,
    #[description = "Time per attempt, in the referee's unit (1 to 365)"]
    #[min = 1]
    #[max = 365]
    period: Option<i64>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("character", character)
        .opt("target", target)
        .opt("period", period)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["advance", "craft"], args).await
}

/// Weeks of work for pay: each week's check sets how well the character lives
#[poise::command(slash_command, rename = "work")]
pub async fn advance_work(
    ctx: Context<'_>,
    #[description = "The skill worked with"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "Who works (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Weeks worked (1 to 12)"]
    #[min = 1]
    #[max = 12]
    weeks: Option<i64>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("character", character)
        .opt("weeks", weeks)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["advance", "work"], args).await
}

/// GM: roll a Sleepless character's days until a full night's sleep, in secret
#[poise::command(slash_command, rename = "sleepless")]
pub async fn advance_sleepless(
    ctx: Context<'_>,
    #[description = "The Sleepless character"]
    #[autocomplete = "autocomplete::character"]
    character: String,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character);
    invoke(ctx, &["advance", "sleepless"], args).await
}
