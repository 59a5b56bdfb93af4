//! `/attack`.

use crate::bot::autocomplete;
use crate::bot::choices::{Burst, Mode, Sight};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// THIZ attack: hit, location, the target's Toughness check and the wound
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn attack(
    ctx: Context<'_>,
    #[description = "Who is attacked; with pair, two: \"A, B\" (B is struck with pair)"]
    #[autocomplete = "autocomplete::target"]
    target: String,
    #[description = "Who attacks (default: whose turn it is in this channel's encounter, else your character)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "The weapon used (bare-handed if left out)"]
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
    #[description = "Burst or full-auto fire (missile): lighter wounds come along"] burst: Option<
        Burst,
    >,
    #[description = "Who cannot see: at night, Night-Blind characters see badly"] sight: Option<
        Sight,
    >,
    #[description = "The target lies Prone (+3 in melee, -3 for missiles)"] prone: Option<bool>,
    #[description = "The attacker fights Berserk (the quirk): wounds ignored, more from Strength"]
    berserk: Option<bool>,
    #[description = "Two weapons: the other weapon the attacker holds"]
    #[autocomplete = "autocomplete::weapon"]
    pair: Option<String>,
    #[description = "With pair: this attack is the second weapon's"] second: Option<bool>,
    #[description = "The target raises its shield over this location this turn"]
    #[autocomplete = "autocomplete::location"]
    shield: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .opt("location", location)
        .opt("missile", missile)
        .opt("modifier", modifier)
        .choice("mode", mode)
        .choice("burst", burst)
        .choice("sight", sight)
        .opt("prone", prone)
        .opt("berserk", berserk)
        .opt("pair", pair)
        .opt("second", second)
        .opt("shield", shield);
    invoke(ctx, &["attack"], args).await
}
