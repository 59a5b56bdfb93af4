//! `/history`.

use crate::bot::autocomplete;
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// The roll log: the latest rolls you may see
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Only this character's rolls"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "How many rolls (1 to 25, default 10)"]
    #[min = 1]
    #[max = 25]
    count: Option<i64>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the rolls are too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("count", count)
        .opt("page", page);
    invoke(ctx, &["history"], args).await
}
