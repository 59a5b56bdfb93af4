//! `/attack`.

use crate::bot::autocomplete;
use crate::bot::choices::Mode;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ attack: hit, location, the target's Toughness check and the wound
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn attack(
    ctx: Context<'_>,
    #[description = "Who attacks"]
    #[autocomplete = "autocomplete::character"]
    attacker: String,
    #[description = "Who is attacked"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "The weapon used (default: the attacker's first)"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: Option<String>,
    #[description = "Where the blow is aimed (melee: Chest if left out; a missile called shot needs Black)"]
    #[autocomplete = "autocomplete::location"]
    location: Option<String>,
    #[description = "A missile attack: the location is rolled"] missile: Option<bool>,
    #[description = "Added to the attack rating (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .opt("location", location)
        .opt("missile", missile)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["attack"], args).await
}
