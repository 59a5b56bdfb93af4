//! `/character create|show|list|use|set|skill|gear|validate|delete|restore|approve|export|import`.
//!
//! Besides the wrappers, owns reading an imported sheet file: its size and type are checked
//! before it is downloaded, and its text must be UTF-8. Must never read or change a sheet itself.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::app::reply::Reply;
use crate::bot::choices::{GearAction, ItemKind, MissileKind, System, WeaponQuality};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error, autocomplete, render};

/// The largest sheet file accepted; an exported sheet is a few KiB.
const MAX_IMPORT_BYTES: u32 = 64 * 1024;
/// How long the download may take: Discord wants an answer within 3 seconds of the command.
const DOWNLOAD_LIMIT: Duration = Duration::from_secs(2);

/// THIZ and TFT character sheets
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "character_create",
        "character_show",
        "character_list",
        "character_use",
        "character_set",
        "character_skill",
        "character_gear",
        "character_validate",
        "character_delete",
        "character_restore",
        "character_approve",
        "character_export",
        "character_import"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn character(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// Make a THIZ or TFT character (npc: GM only)
#[poise::command(slash_command, rename = "create")]
pub async fn character_create(
    ctx: Context<'_>,
    // A new name, so no autocomplete: suggesting existing characters would only collide.
    #[description = "The new character's name"] name: String,
    #[description = "The game system of the sheet (default: the server's, /gm setup system:…)"]
    system: Option<System>,
    #[description = "A GM-owned character only GMs can see"] npc: Option<bool>,
    #[description = "Fields to fill in now, like \"st 12, dx 13, iq 7\""] fields: Option<String>,
    #[description = "THIZ skills to fill in now, like \"Speed 4, Stealth 3\""] skills: Option<
        String,
    >,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .choice("system", system)
        .opt("npc", npc)
        .opt("fields", fields)
        .opt("skills", skills);
    invoke(ctx, &["character", "create"], args).await
}

/// Post a character's sheet in the channel
#[poise::command(slash_command, rename = "show")]
pub async fn character_show(
    ctx: Context<'_>,
    #[description = "Whose sheet (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    name: Option<String>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the sheet is too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    let args = Args::new().opt("name", name).opt("page", page);
    invoke(ctx, &["character", "show"], args).await
}

/// List the characters you may see
#[poise::command(slash_command, rename = "list")]
pub async fn character_list(
    ctx: Context<'_>,
    // app::layout::MAX_PAGE.
    #[description = "Which page, when the list is too long for one message (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
) -> Result<(), Error> {
    invoke(ctx, &["character", "list"], Args::new().opt("page", page)).await
}

/// Act as this character from now on, wherever a command names none (one per game system)
#[poise::command(slash_command, rename = "use")]
pub async fn character_use(
    ctx: Context<'_>,
    #[description = "Your character (a GM: any they run)"]
    #[autocomplete = "autocomplete::character"]
    name: String,
) -> Result<(), Error> {
    invoke(ctx, &["character", "use"], Args::new().opt("name", name)).await
}

/// Change fields of a sheet, like st, dx or notes: one, or several with fields:"st 12, dx 13"
#[poise::command(slash_command, rename = "set")]
pub async fn character_set(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    name: String,
    #[description = "The field to change"]
    #[autocomplete = "autocomplete::sheet_field"]
    field: Option<String>,
    #[description = "The new value"]
    #[autocomplete = "autocomplete::sheet_value"]
    value: Option<String>,
    #[description = "Several at once instead, like \"st 12, dx 13, iq 7\""] fields: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .opt("field", field)
        .opt("value", value)
        .opt("fields", fields);
    invoke(ctx, &["character", "set"], args).await
}

/// Set a skill's rating on a sheet (0 removes it)
#[poise::command(slash_command, rename = "skill")]
pub async fn character_skill(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    name: String,
    #[description = "The skill"]
    #[autocomplete = "autocomplete::skill"]
    skill: Option<String>,
    #[description = "Its rating (0 to 30)"]
    #[min = 0]
    #[max = 30]
    rating: Option<i64>,
    #[description = "Several at once instead, like \"Speed 4, Stealth 3\""] skills: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .opt("skill", skill)
        .opt("rating", rating)
        .opt("skills", skills);
    invoke(ctx, &["character", "skill"], args).await
}

/// Add an item, weapon, armor or shield to a sheet, or remove one
#[poise::command(slash_command, rename = "gear")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn character_gear(
    ctx: Context<'_>,
    #[description = "Whose sheet"]
    #[autocomplete = "autocomplete::character"]
    name: String,
    #[description = "Add or remove"] action: GearAction,
    // Any item, not only a weapon the attack commands accept, so no weapon autocomplete.
    #[description = "The item's name"] item: String,
    #[description = "What it is (default item)"] kind: Option<ItemKind>,
    #[description = "THIZ weapon: attack bonus (-20 to 20)"]
    #[min = -20]
    #[max = 20]
    attack_bonus: Option<i64>,
    #[description = "THIZ armor: armor bonus (0 to 20)"]
    #[min = 0]
    #[max = 20]
    armor_bonus: Option<i64>,
    #[description = "THIZ armor: the locations it covers, like chest, gut"]
    #[autocomplete = "autocomplete::location"]
    locations: Option<String>,
    #[description = "THIZ weapon: a missile weapon"] missile: Option<bool>,
    #[description = "THIZ weapon: its family (blades, pole weapons…), for Trained for War"]
    family: Option<String>,
    #[description = "THIZ missile: what it shoots (sets the suggested attack bonus)"]
    missile_kind: Option<MissileKind>,
    #[description = "THIZ weapon: made to be thrown (a missile attack with it is a throw)"]
    thrown: Option<bool>,
    #[description = "TFT weapon: how well made (fine: +1 DX; fine+1/+2: damage; fine-dx: both)"]
    quality: Option<WeaponQuality>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("name", name)
        .choice("action", Some(action))
        .opt("item", item)
        .choice("kind", kind)
        .opt("attack_bonus", attack_bonus)
        .opt("armor_bonus", armor_bonus)
        .opt("locations", locations)
        .opt("missile", missile)
        .opt("family", family)
        .choice("missile_kind", missile_kind)
        .opt("thrown", thrown)
        .choice("quality", quality);
    invoke(ctx, &["character", "gear"], args).await
}

/// What on a sheet breaks the creation rules
#[poise::command(slash_command, rename = "validate")]
pub async fn character_validate(
    ctx: Context<'_>,
    #[description = "Whose sheet (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    name: Option<String>,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["character", "validate"],
        Args::new().opt("name", name),
    )
    .await
}

/// Delete a character (asks first; a GM can restore it for 30 days)
#[poise::command(slash_command, rename = "delete")]
pub async fn character_delete(
    ctx: Context<'_>,
    #[description = "The character to delete"]
    #[autocomplete = "autocomplete::character"]
    name: String,
) -> Result<(), Error> {
    invoke(ctx, &["character", "delete"], Args::new().opt("name", name)).await
}

/// Bring back a deleted character, as it was (GM)
#[poise::command(slash_command, rename = "restore")]
pub async fn character_restore(
    ctx: Context<'_>,
    #[description = "The deleted character's name (/character list shows a GM the deleted ones)"]
    #[autocomplete = "autocomplete::deleted_character"]
    name: String,
    #[description = "Bring it back under this name (when its own is taken again)"] new_name: Option<
        String,
    >,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["character", "restore"],
        Args::new().opt("name", name).opt("new_name", new_name),
    )
    .await
}

/// Approve a sheet: its player then changes it only through advancement (GM)
#[poise::command(slash_command, rename = "approve")]
pub async fn character_approve(
    ctx: Context<'_>,
    #[description = "The character whose sheet is approved"]
    #[autocomplete = "autocomplete::character"]
    name: String,
    #[description = "Take the approval back"] undo: Option<bool>,
) -> Result<(), Error> {
    invoke(
        ctx,
        &["character", "approve"],
        Args::new().opt("name", name).opt("undo", undo),
    )
    .await
}

/// Save a sheet as a JSON file
#[poise::command(slash_command, rename = "export")]
pub async fn character_export(
    ctx: Context<'_>,
    #[description = "Whose sheet (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    name: Option<String>,
) -> Result<(), Error> {
    invoke(ctx, &["character", "export"], Args::new().opt("name", name)).await
}

/// Load a sheet from a JSON file made by export
#[poise::command(slash_command, rename = "import")]
pub async fn character_import(
    ctx: Context<'_>,
    #[description = "The JSON file (at most 64 KiB)"] file: serenity::Attachment,
) -> Result<(), Error> {
    match import_text(&file).await {
        Ok(text) => invoke(ctx, &["character", "import"], Args::new().opt("file", text)).await,
        Err(refusal) => {
            ctx.send(render::create_reply(&Reply::ephemeral(refusal)))
                .await?;
            Ok(())
        }
    }
}

/// The text of an imported sheet file, or the refusal to show (`referee serve` imports
/// through this too): its size and type checked, then downloaded.
pub async fn import_text(file: &serenity::Attachment) -> Result<String, String> {
    acceptable(file.size, file.content_type.as_deref())?;
    download(file).await
}

/// Whether a file, by what Discord says of it, may be a sheet: small, and text if its type is
/// known (a missing type is left to the UTF-8 check after the download).
fn acceptable(size: u32, content_type: Option<&str>) -> Result<(), String> {
    if size > MAX_IMPORT_BYTES {
        return Err(format!(
            "That file is {} KiB; a sheet file can be at most 64 KiB. Nothing was imported.",
            size.div_ceil(1024)
        ));
    }
    let kind = content_type
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase());
    match kind {
        Some(t) if !(t.starts_with("text/") || t == "application/json") => Err(format!(
            "That file is {t}, not text; import takes the JSON file /character export makes. Nothing was imported."
        )),
        _ => Ok(()),
    }
}

/// Downloads the file, within [`DOWNLOAD_LIMIT`], as text.
async fn download(file: &serenity::Attachment) -> Result<String, String> {
    match tokio::time::timeout(DOWNLOAD_LIMIT, file.download()).await {
        Ok(Ok(bytes)) => as_text(bytes),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "cannot download an imported sheet");
            Err("Discord did not hand over the file; try the import again.".to_owned())
        }
        Err(_) => Err("The file took too long to download; try the import again.".to_owned()),
    }
}

/// The downloaded bytes as text: the size is checked again, since the bytes are what counts.
fn as_text(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() > MAX_IMPORT_BYTES as usize {
        return Err(
            "That file is over 64 KiB; a sheet file is smaller. Nothing was imported.".to_owned(),
        );
    }
    String::from_utf8(bytes).map_err(|_| {
        "That file is not UTF-8 text; import takes the JSON file /character export makes. Nothing was imported."
            .to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_sixty_four_kib_is_refused_before_download() {
        assert_eq!(
            acceptable(MAX_IMPORT_BYTES, Some("application/json")),
            Ok(())
        );
        let refusal = acceptable(MAX_IMPORT_BYTES + 1, Some("application/json"))
            .expect_err("one byte over the limit");
        assert!(
            refusal.contains("65 KiB") && refusal.contains("64 KiB"),
            "{refusal}"
        );
    }

    #[test]
    fn only_text_types_are_downloaded() {
        for ok in [
            Some("application/json"),
            Some("application/json; charset=utf-8"),
            Some("text/plain; charset=utf-8"),
            Some("TEXT/PLAIN"),
            None,
        ] {
            assert_eq!(acceptable(10, ok), Ok(()), "{ok:?}");
        }
        for bad in ["image/png", "application/octet-stream", "application/zip"] {
            let refusal = acceptable(10, Some(bad)).expect_err("a binary type");
            assert!(refusal.contains(bad), "{refusal}");
        }
    }

    #[test]
    fn downloaded_bytes_must_be_small_utf8() {
        assert_eq!(as_text(b"{\"v\":1}".to_vec()), Ok("{\"v\":1}".to_owned()));
        assert_eq!(as_text("é".as_bytes().to_vec()), Ok("é".to_owned()));
        assert!(as_text(vec![0xff, 0xfe, 0x00]).is_err());
        let at = vec![b' '; MAX_IMPORT_BYTES as usize];
        assert!(as_text(at).is_ok());
        let over = vec![b' '; MAX_IMPORT_BYTES as usize + 1];
        assert!(as_text(over).is_err());
    }
}
