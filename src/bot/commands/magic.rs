//! `/magic cast|target|terror|learn`.

use crate::bot::autocomplete;
use crate::bot::choices::{MagicUse, Mode, StudyPace, WoundLevel};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ magic: cast an effect, turn a skill on someone, resist Terror, learn a Magic Skill
#[poise::command(
    slash_command,
    guild_only,
    subcommands("magic_cast", "magic_target", "magic_terror", "magic_learn"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn magic(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Mentalism or a Reiki strike against someone, Reiki healing, Psychokinesis on a moving target
#[poise::command(slash_command, rename = "target")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn magic_target(
    ctx: Context<'_>,
    #[description = "What the skill does"] r#use: MagicUse,
    #[description = "Who it is turned on (or healed)"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "Who uses the skill (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Where a wound lands or is healed (default Chest)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Psychokinesis: the target is moving (its Speed comes off)"] moving: Option<
        bool,
    >,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("use", Some(r#use))
        .opt("target", target)
        .opt("character", character)
        .opt("location", location)
        .opt("moving", moving)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["magic", "target"], args).await
}

/// Cast with a Magic Skill at the level the effect needs, or keep building up a casting
#[poise::command(slash_command, rename = "cast")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn magic_cast(
    ctx: Context<'_>,
    #[description = "The Magic Skill cast with"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "The level of success the effect needs"] level: WoundLevel,
    #[description = "Who casts (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "The roll number of this casting's last check, to extend it"]
    #[min = 1]
    continues: Option<i64>,
    #[description = "Wounded since the last check: a Willpower check to keep the progress"]
    wounded: Option<bool>,
    #[description = "Feet to the nearest Void-Touched character (-2 within 20)"]
    #[min = 0]
    #[max = 10000]
    void_touched: Option<i64>,
    #[description = "Where Necromancy's Green wound goes (default Chest)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "Added to the check (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .choice("level", Some(level))
        .opt("character", character)
        .opt("continues", continues)
        .opt("wounded", wounded)
        .opt("void_touched", void_touched)
        .opt("location", location)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["magic", "cast"], args).await
}

/// Willpower against Terror after witnessing magic, or to face its source
#[poise::command(slash_command, rename = "terror")]
pub async fn magic_terror(
    ctx: Context<'_>,
    #[description = "The level the witnessed effect needed (-1 Green to -4 Black)"] level: Option<
        WoundLevel,
    >,
    #[description = "Who witnessed it (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Already terrified: the check to move towards or target the source"]
    approach: Option<bool>,
    #[description = "Added to the check (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("level", level)
        .opt("character", character)
        .opt("approach", approach)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["magic", "terror"], args).await
}

/// The terms of learning a new Magic Skill from a tutor; write it when the study is done
#[poise::command(slash_command, rename = "learn")]
pub async fn magic_learn(
    ctx: Context<'_>,
    #[description = "The Magic Skill to learn"]
    #[autocomplete = "autocomplete::skill"]
    skill: String,
    #[description = "The tutor's rating in it (7 or more)"]
    #[min = -40]
    #[max = 40]
    tutor_rating: i64,
    #[description = "Who learns (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Full time, or on the road (a third longer)"] pace: Option<StudyPace>,
    #[description = "The study is done: pay 5 skill points and write the skill at rating 1"]
    finished: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("tutor_rating", tutor_rating)
        .opt("character", character)
        .choice("pace", pace)
        .opt("finished", finished);
    invoke(ctx, &["magic", "learn"], args).await
}
