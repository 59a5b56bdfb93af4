//! `/npc save|list|show|delete`: the bestiary, a server's NPCs kept under a name (GM only).

use crate::bot::autocomplete;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// GM: the bestiary, NPCs kept under a name for /encounter add npc:… count:…
#[poise::command(
    slash_command,
    guild_only,
    subcommands("npc_save", "npc_list", "npc_show", "npc_delete"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn npc(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// GM: keep an NPC sheet in the bestiary under a name
#[poise::command(slash_command, rename = "save")]
pub async fn npc_save(
    ctx: Context<'_>,
    #[description = "The name to keep it under, like Goblin"] name: String,
    #[description = "The NPC sheet to keep (default: the one with that name)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Save over the bestiary's NPC of that name"] replace: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .opt("character", character)
        .opt("replace", replace);
    invoke(ctx, &["npc", "save"], args).await
}

/// GM: the bestiary's NPCs
#[poise::command(slash_command, rename = "list")]
pub async fn npc_list(
    ctx: Context<'_>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the list is too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    invoke(ctx, &["npc", "list"], Args::new().opt("page", page)).await
}

/// GM: one of the bestiary's NPCs, with its numbers (only you see it)
#[poise::command(slash_command, rename = "show")]
pub async fn npc_show(
    ctx: Context<'_>,
    #[description = "The bestiary's name for it"] name: String,
) -> Result<(), Error> {
    invoke(ctx, &["npc", "show"], Args::new().opt("name", name)).await
}

/// GM: remove an NPC from the bestiary (its sheets and copies stay)
#[poise::command(slash_command, rename = "delete")]
pub async fn npc_delete(
    ctx: Context<'_>,
    #[description = "The bestiary's name for it"] name: String,
) -> Result<(), Error> {
    invoke(ctx, &["npc", "delete"], Args::new().opt("name", name)).await
}
