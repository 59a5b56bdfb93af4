//! `/reveal`.

use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// Reveal a secret GM roll so anyone can check its commitment
#[poise::command(slash_command, guild_only)]
pub async fn reveal(
    ctx: Context<'_>,
    #[description = "The roll number, shown as Roll #12 under the commitment"]
    #[min = 1]
    roll: i64,
) -> Result<(), Error> {
    invoke(ctx, &["reveal"], Args::new().opt("roll", roll)).await
}
