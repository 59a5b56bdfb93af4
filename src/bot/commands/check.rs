//! `/check`.

use crate::bot::autocomplete;
use crate::bot::choices::{Hand, Mode};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ check: d100 on the resolution chart, for a skill or a bare rating
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn check(
    ctx: Context<'_>,
    #[description = "A skill of your character"]
    #[autocomplete = "autocomplete::skill"]
    skill: Option<String>,
    #[description = "A bare rating instead of a skill (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    rating: Option<i64>,
    #[description = "Whose check (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Added to the rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "The hand a one-handed skill uses (default: the sheet's handedness, else right)"]
    hand: Option<Hand>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
    #[description = "What the check is for"] label: Option<String>,
    #[description = "What your traits care about: city, soldiers, sky, berserk, phobia, waking, fame…"]
    situation: Option<String>,
    #[description = "Physically Dependent: days without the substance"]
    #[min = 0]
    #[max = 1000]
    withdrawal: Option<i64>,
    #[description = "Physically Dependent: days taking it again since"]
    #[min = 0]
    #[max = 1000]
    recovering: Option<i64>,
    #[description = "Tracking: full hours since the trail was left"]
    #[min = 0]
    #[max = 1000]
    trail_hours: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("skill", skill)
        .opt("rating", rating)
        .opt("character", character)
        .opt("modifier", modifier)
        .choice("hand", hand)
        .choice("mode", mode)
        .opt("label", label)
        .opt("situation", situation)
        .opt("withdrawal", withdrawal)
        .opt("recovering", recovering)
        .opt("trail_hours", trail_hours);
    invoke(ctx, &["check"], args).await
}
