//! `/encounter start|add|remove|next|undo|declare|act|move|show|timer|end`.

use crate::bot::autocomplete;
use crate::bot::choices::System;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// How the first round opens.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Surprise {
    #[name = "check"]
    Check,
    #[name = "none"]
    None,
    #[name = "ambush-party"]
    AmbushParty,
    #[name = "ambush-foes"]
    AmbushFoes,
}

/// Which side a figure fights on.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Side {
    #[name = "party"]
    Party,
    #[name = "foes"]
    Foes,
}

/// An option a figure declares.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Declared {
    #[name = "defend"]
    Defend,
    #[name = "wait"]
    Wait,
    #[name = "prone"]
    Prone,
    #[name = "defending"]
    Defending,
    #[name = "dodging"]
    Dodging,
    #[name = "charge"]
    Charge,
    #[name = "none"]
    None,
}

/// Combat tracker for this channel: order, turns, declared options
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "encounter_start",
        "encounter_add",
        "encounter_remove",
        "encounter_next",
        "encounter_undo",
        "encounter_declare",
        "encounter_act",
        "encounter_move",
        "encounter_show",
        "encounter_timer",
        "encounter_end"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn encounter(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// GM: start an encounter in this channel
#[poise::command(slash_command, rename = "start")]
pub async fn encounter_start(
    ctx: Context<'_>,
    #[description = "thiz or tft (default: the server's)"] system: Option<System>,
    #[description = "Surprise: check Preparedness, none, or an ambush by one side"]
    surprise: Option<Surprise>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("system", system)
        .choice("surprise", surprise);
    invoke(ctx, &["encounter", "start"], args).await
}

/// Add a character, or (GM) numbered copies of an NPC sheet, the bestiary's, or a new NPC
#[poise::command(slash_command, rename = "add")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn encounter_add(
    ctx: Context<'_>,
    #[description = "A character as it is (default: your own of the encounter's system)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "GM: an NPC sheet or the bestiary's NPC to copy as Name 1, Name 2…"]
    #[autocomplete = "autocomplete::character"]
    npc: Option<String>,
    #[description = "How many copies of the NPC (1 to 20)"]
    #[min = 1]
    #[max = 20]
    count: Option<i64>,
    #[description = "Which side (default: characters party, NPCs foes)"] side: Option<Side>,
    #[description = "THIZ, joining a fight under way: the figure it goes for (Preparedness)"]
    #[autocomplete = "autocomplete::character"]
    target: Option<String>,
    #[description = "GM: a new NPC, made here as a hidden sheet, copied as Name 1, Name 2…"]
    name: Option<String>,
    #[description = "New THIZ NPC: skills, like \"Speed 4, Weapon Skill (Sword) 5\""]
    skills: Option<String>,
    // A list for a new NPC, not a carried weapon to pick: no autocomplete.
    #[description = "New NPC: weapons, like \"Sword +2\" (THIZ) or \"broadsword\" (TFT)"]
    weapon: Option<String>,
    #[description = "New NPC: armour, like \"Leather +2\" (THIZ) or \"leather\" (TFT)"]
    armor: Option<String>,
    #[description = "New NPC: sheet fields, like \"st 12, dx 11, iq 8\" or \"talents Sword\""]
    fields: Option<String>,
    // app::characters::fields::MAX_ATTRIBUTE.
    #[description = "New TFT NPC: ST"]
    #[min = 1]
    #[max = 200]
    st: Option<i64>,
    #[description = "New TFT NPC: DX"]
    #[min = 1]
    #[max = 200]
    dx: Option<i64>,
    #[description = "New TFT NPC: IQ"]
    #[min = 1]
    #[max = 200]
    iq: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("npc", npc)
        .opt("count", count)
        .choice("side", side)
        .opt("target", target)
        .opt("name", name)
        .opt("skills", skills)
        .opt("weapon", weapon)
        .opt("armor", armor)
        .opt("fields", fields)
        .opt("st", st)
        .opt("dx", dx)
        .opt("iq", iq);
    invoke(ctx, &["encounter", "add"], args).await
}

/// GM: take a figure out of the encounter
#[poise::command(slash_command, rename = "remove")]
pub async fn encounter_remove(
    ctx: Context<'_>,
    #[description = "The figure's name"] figure: String,
) -> Result<(), Error> {
    let args = Args::new().opt("figure", figure);
    invoke(ctx, &["encounter", "remove"], args).await
}

/// End this turn (or, GM, begin the fight)
#[poise::command(slash_command, rename = "next")]
pub async fn encounter_next(ctx: Context<'_>) -> Result<(), Error> {
    invoke(ctx, &["encounter", "next"], Args::new()).await
}

/// GM: take back the last Next (or Begin), if nothing else has changed since
#[poise::command(slash_command, rename = "undo")]
pub async fn encounter_undo(ctx: Context<'_>) -> Result<(), Error> {
    invoke(ctx, &["encounter", "undo"], Args::new()).await
}

/// Declare a figure's option (THIZ defend/wait/prone; TFT defending/dodging/charge, actions)
#[poise::command(slash_command, rename = "declare")]
pub async fn encounter_declare(
    ctx: Context<'_>,
    #[description = "The option (none clears it)"] option: Option<Declared>,
    #[description = "Whose (default: yours, or for a GM whoever's turn it is)"] figure: Option<
        String,
    >,
    #[description = "TFT multiple actions this round (1 to 3), checked against the initiative sum"]
    #[min = 1]
    #[max = 3]
    actions: Option<i64>,
    #[description = "TFT: with the movement boost (MA/3)"] boost: Option<bool>,
    #[description = "TFT: the figure is engaged (no movement boost)"] engaged: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("option", option)
        .opt("figure", figure)
        .opt("actions", actions)
        .opt("boost", boost)
        .opt("engaged", engaged);
    invoke(ctx, &["encounter", "declare"], args).await
}

/// THIZ: a waiting figure acts now (a Speed check to act before its trigger)
#[poise::command(slash_command, rename = "act")]
pub async fn encounter_act(
    ctx: Context<'_>,
    #[description = "The waiting figure"] figure: String,
) -> Result<(), Error> {
    let args = Args::new().opt("figure", figure);
    invoke(ctx, &["encounter", "act"], args).await
}

/// GM, THIZ: move a figure's next turn to another place in this pass's order
#[poise::command(slash_command, rename = "move")]
pub async fn encounter_move(
    ctx: Context<'_>,
    #[description = "The figure"] figure: String,
    #[description = "Its new place in the order (1 = first)"]
    #[min = 1]
    #[max = 256]
    position: i64,
) -> Result<(), Error> {
    let args = Args::new().opt("figure", figure).opt("position", position);
    invoke(ctx, &["encounter", "move"], args).await
}

/// The encounter's order (a GM also sees the numbers)
#[poise::command(slash_command, rename = "show")]
pub async fn encounter_show(
    ctx: Context<'_>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the status is too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    invoke(ctx, &["encounter", "show"], Args::new().opt("page", page)).await
}

/// What a timed effect counts.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Per {
    #[name = "turn"]
    Turn,
    #[name = "round"]
    Round,
}

/// GM: a timed effect on a figure (stun, spell upkeep, reload), counted down by the tracker
#[poise::command(slash_command, rename = "timer")]
pub async fn encounter_timer(
    ctx: Context<'_>,
    #[description = "The figure"] figure: String,
    #[description = "What it is, like stunned or Light spell"]
    #[max_length = 60]
    what: String,
    #[description = "How many turns or rounds it lasts (0 ends it)"]
    #[min = 0]
    #[max = 1000]
    count: i64,
    #[description = "Count the figure's own turns (the default) or rounds (THIZ: passes)"]
    per: Option<Per>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("figure", figure)
        .opt("what", what)
        .opt("count", count)
        .choice("per", per);
    invoke(ctx, &["encounter", "timer"], args).await
}

/// GM: end the encounter (NPC copies go too, unless kept)
#[poise::command(slash_command, rename = "end")]
pub async fn encounter_end(
    ctx: Context<'_>,
    #[description = "Keep the NPC copies it made"] keep: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new().opt("keep", keep);
    invoke(ctx, &["encounter", "end"], args).await
}
