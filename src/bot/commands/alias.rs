//! `/alias set|list|show|delete`: saved rolls.

use crate::bot::autocomplete;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Saved rolls: keep a roll under a name, then /roll it by name (attack+2)
#[poise::command(
    slash_command,
    guild_only,
    subcommands("alias_set", "alias_list", "alias_show", "alias_delete"),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn alias(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Save a roll under a name (or replace it): then /roll attack, or /roll attack+2
#[poise::command(slash_command, rename = "set")]
pub async fn alias_set(
    ctx: Context<'_>,
    #[description = "The name, like attack (a word, not dice)"] name: String,
    #[description = "The dice, like 1d20+5"] expression: String,
    #[description = "GM: the server's, for everyone without one of that name (default yours)"]
    server: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .opt("expression", expression)
        .opt("server", server);
    invoke(ctx, &["alias", "set"], args).await
}

/// Your saved rolls and the server's
#[poise::command(slash_command, rename = "list")]
pub async fn alias_list(
    ctx: Context<'_>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the list is too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    invoke(ctx, &["alias", "list"], Args::new().opt("page", page)).await
}

/// One saved roll, yours before the server's
#[poise::command(slash_command, rename = "show")]
pub async fn alias_show(
    ctx: Context<'_>,
    #[description = "The saved roll's name"]
    #[autocomplete = "autocomplete::alias"]
    name: String,
) -> Result<(), Error> {
    invoke(ctx, &["alias", "show"], Args::new().opt("name", name)).await
}

/// Delete one of your saved rolls, or (GM) one of the server's
#[poise::command(slash_command, rename = "delete")]
pub async fn alias_delete(
    ctx: Context<'_>,
    #[description = "The saved roll's name"]
    #[autocomplete = "autocomplete::alias"]
    name: String,
    #[description = "GM: delete the server's of that name (default yours)"] server: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new().opt("name", name).opt("server", server);
    invoke(ctx, &["alias", "delete"], args).await
}
