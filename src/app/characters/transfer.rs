//! `export` and `import`: the documented, versioned character file (docs/character-format.md).
//!
//! The file holds the public sheet only: never luck, hidden keys, GM notes or whether the
//! character is an NPC. An import is checked whole before anything is written, then written in
//! one transaction. An imported THIZ character comes in with no luck at all (a ledger line
//! says so) and the GM channel is told: luck is the GM's, and a file could otherwise turn a
//! character the GM had left with none into a fresh roll (issue 32). Decision: none, rather than
//! held for approval: the character is playable at once, and the GM gives luck with `/luck roll`
//! (the secret starting roll) or `/luck set`.

use serde::{Deserialize, Serialize};

use super::edit::{MAX_ITEMS, MAX_SKILLS, item_row, name_free, name_taken};
use super::fields;
use super::gear::{GearNumbers, ItemKind, MAX_BONUS};
use super::view::{Loaded, load};
use crate::app::reply::Reply;
use crate::app::sheet::{ItemStats, Sheet, TftSheet, ThizSheet};
use crate::app::text::escape;
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::thiz::Location;
use crate::rules::thiz::skills::SkillId;
use crate::store::characters::{self, NewCharacter, WoundRow};
use crate::store::guilds::System;
use crate::store::secrets::{self, LedgerEntry, LuckKind};

/// The `format` value of every character file.
pub const FORMAT: &str = "referee-character";
/// The version this bot writes and reads.
pub const VERSION: u64 = 1;
/// The largest file accepted, in characters.
pub const MAX_FILE_CHARS: usize = 100_000;
/// The most a reply's content may hold (Discord allows 2000; this leaves room for the note).
pub const MAX_SHOWN_CHARS: usize = 1900;
/// Wounds of one colour at one location, and TFT hits or fatigue: limits against typing errors.
pub const MAX_WOUND_COUNT: i64 = 99;
pub const MAX_HITS: i64 = 999;

/// A character file, version 1.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    pub format: String,
    pub version: u64,
    pub system: System,
    pub name: String,
    /// The `ThizSheet` or `TftSheet` fields (`app::sheet`).
    pub sheet: serde_json::Value,
    /// THIZ only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skills: Option<Vec<FileSkill>>,
    #[serde(default)]
    pub equipment: Vec<FileItem>,
    /// THIZ only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wounds: Option<Vec<FileWound>>,
    /// TFT only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<i64>,
    /// TFT only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fatigue: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSkill {
    pub skill: String,
    pub rating: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileItem {
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub stats: FileStats,
}

/// `ItemStats`, refusing fields it does not know.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FileStats {
    pub attack_bonus: i32,
    pub missile: bool,
    pub armor_bonus: i32,
    pub locations: Vec<String>,
    pub quality: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missile_kind: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub thrown: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileWound {
    pub location: String,
    pub level: String,
    pub count: i64,
}

/// The file for a loaded character: public parts only.
pub(super) fn to_file(l: &Loaded) -> CharacterFile {
    let sheet = match &l.sheet {
        Sheet::Thiz(s) => serde_json::to_value(s),
        Sheet::Tft(s) => serde_json::to_value(s),
    }
    .unwrap_or_default();
    let equipment = l
        .items
        .iter()
        .map(|i| {
            let s: ItemStats = serde_json::from_str(&i.stats_json).unwrap_or_default();
            FileItem {
                kind: i.kind.clone(),
                name: i.name.clone(),
                stats: FileStats {
                    attack_bonus: s.attack_bonus,
                    missile: s.missile,
                    armor_bonus: s.armor_bonus,
                    locations: s.locations,
                    quality: s.quality,
                    family: s.family,
                    missile_kind: s.missile_kind,
                    thrown: s.thrown,
                },
            }
        })
        .collect();
    let thiz = l.character.system == System::Thiz;
    CharacterFile {
        format: FORMAT.into(),
        version: VERSION,
        system: l.character.system,
        name: l.character.name.clone(),
        sheet,
        skills: thiz.then(|| {
            l.skills
                .iter()
                .map(|s| FileSkill {
                    skill: s.skill.clone(),
                    rating: s.rating,
                })
                .collect()
        }),
        equipment,
        wounds: thiz.then(|| {
            l.wounds
                .iter()
                .map(|w| FileWound {
                    location: w.location.clone(),
                    level: w.level.clone(),
                    count: w.count,
                })
                .collect()
        }),
        hits: (!thiz).then_some(l.damage.0),
        fatigue: (!thiz).then_some(l.damage.1),
    }
}

/// JSON text safe inside a Markdown code block: a backtick (only ever inside a string) is
/// written as the JSON escape `\u0060`, so a name cannot close the block.
fn code_safe(json: &str) -> String {
    json.replace('`', "\\u0060")
}

/// The reply content for an export: the JSON in a code block, cut with a note when too long.
pub(super) fn export_content(file: &CharacterFile) -> String {
    let fence = |json: &str| format!("```json\n{json}\n```");
    let pretty = code_safe(&serde_json::to_string_pretty(file).unwrap_or_default());
    if fence(&pretty).chars().count() <= MAX_SHOWN_CHARS {
        return fence(&pretty);
    }
    let compact = code_safe(&serde_json::to_string(file).unwrap_or_default());
    if fence(&compact).chars().count() <= MAX_SHOWN_CHARS {
        return fence(&compact);
    }
    let total = compact.chars().count();
    let note = format!(
        "This sheet's file is {total} characters, too long for one message: the start is shown. \
         The attached file holds all of it."
    );
    let room = MAX_SHOWN_CHARS.saturating_sub(note.chars().count() + 16);
    let cut: String = compact.chars().take(room).collect();
    format!("{note}\n{}", fence(&format!("{cut}…")))
}

/// The attachment's name: the character's name with anything but letters, digits, `-` and `_`
/// made `_` (so no path or markup can hide in it), then `.referee.json`.
fn file_name(name: &str) -> String {
    let stem: String = name
        .chars()
        .take(60)
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{stem}.referee.json")
}

/// `/character export [name]`: owner or GM; ephemeral.
pub(super) fn export(ctx: &Ctx<'_>, name: Option<&str>) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let loaded = ctx.app.store.read(|conn| {
        Ok(ctx
            .acting_character(conn, name)
            .and_then(|c| load(conn, guild, c)))
    })??;
    let file = to_file(&loaded);
    let json = serde_json::to_string_pretty(&file).map_err(anyhow::Error::from)?;
    Ok(Reply::ephemeral(export_content(&file)).with_file(file_name(&loaded.character.name), json))
}

/// A checked import, ready to write.
#[derive(Debug)]
pub(super) struct Import {
    pub name: String,
    pub system: System,
    pub sheet: Sheet,
    pub skills: Vec<(String, i64)>,
    pub items: Vec<(ItemKind, String, ItemStats)>,
    pub wounds: Vec<WoundRow>,
    pub damage: (i64, i64),
}

/// A serde message about the file, safe to show: backticks become quotes and markdown is escaped.
fn serde_reason(e: &serde_json::Error) -> String {
    escape(&e.to_string().replace('`', "\""))
}

fn refused(reason: impl std::fmt::Display) -> AppError {
    user(format!("Import refused, nothing was created: {reason}."))
}

fn in_range(field: &str, v: i64, min: i64, max: i64) -> AppResult<i64> {
    if (min..=max).contains(&v) {
        Ok(v)
    } else {
        Err(refused(format!(
            "{field} must be between {min} and {max}; the file has {v}"
        )))
    }
}

/// Checks a character file whole, without touching storage.
pub(super) fn check(text: &str) -> AppResult<Import> {
    let len = text.chars().count();
    if len > MAX_FILE_CHARS {
        return Err(refused(format!(
            "the file has {len} characters; a character file has at most {MAX_FILE_CHARS}"
        )));
    }
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| refused(format!("the file is not valid JSON ({})", serde_reason(&e))))?;
    let Some(obj) = value.as_object() else {
        return Err(refused("the file must be a JSON object"));
    };
    if obj.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(refused(format!(
            "this is not a referee character file (its \"format\" must be \"{FORMAT}\")"
        )));
    }
    match obj.get("version").and_then(serde_json::Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(refused(format!(
                "the file is version {v} of the format; this bot reads version {VERSION}"
            )));
        }
        None => return Err(refused("the file has no whole-number \"version\"")),
    }
    let system_text = obj.get("system").and_then(|s| s.as_str()).unwrap_or("");
    if System::parse(system_text).is_none_or(|s| s.as_str() != system_text) {
        return Err(refused(format!(
            "unknown system \"{}\"; it must be \"thiz\" or \"tft\"",
            escape(system_text)
        )));
    }
    let file: CharacterFile = serde_json::from_value(value)
        .map_err(|e| refused(format!("bad field: {}", serde_reason(&e))))?;
    let name = fields::character_name(&file.name).map_err(|e| refused(format!("name: {e}")))?;
    let sheet = match file.system {
        System::Thiz => Sheet::Thiz(
            serde_json::from_value::<ThizSheet>(file.sheet.clone())
                .map_err(|e| refused(format!("sheet: {}", serde_reason(&e))))?,
        ),
        System::Tft => Sheet::Tft(
            serde_json::from_value::<TftSheet>(file.sheet.clone())
                .map_err(|e| refused(format!("sheet: {}", serde_reason(&e))))?,
        ),
    };
    let sheet = fields::normalize(&sheet).map_err(refused)?;
    let thiz = file.system == System::Thiz;
    let only = |present: bool, field: &str, system: &str| {
        if present {
            Err(refused(format!(
                "{field} belongs to {system} characters only"
            )))
        } else {
            Ok(())
        }
    };
    only(!thiz && file.skills.is_some(), "skills", "THIZ")?;
    only(!thiz && file.wounds.is_some(), "wounds", "THIZ")?;
    only(thiz && file.hits.is_some(), "hits", "TFT")?;
    only(thiz && file.fatigue.is_some(), "fatigue", "TFT")?;
    Ok(Import {
        name,
        system: file.system,
        skills: check_skills(file.skills.as_deref().unwrap_or_default())?,
        items: check_items(file.system, &file.equipment)?,
        wounds: check_wounds(file.wounds.as_deref().unwrap_or_default())?,
        damage: (
            in_range("hits", file.hits.unwrap_or(0), 0, MAX_HITS)?,
            in_range("fatigue", file.fatigue.unwrap_or(0), 0, MAX_HITS)?,
        ),
        sheet,
    })
}

fn check_skills(skills: &[FileSkill]) -> AppResult<Vec<(String, i64)>> {
    if skills.len() > MAX_SKILLS {
        return Err(refused(format!(
            "a sheet holds at most {MAX_SKILLS} skills"
        )));
    }
    let mut seen: Vec<SkillId> = Vec::new();
    let mut out = Vec::new();
    for (i, s) in skills.iter().enumerate() {
        let id = fields::skill(&s.skill).map_err(|e| refused(format!("skills[{i}]: {e}")))?;
        in_range(&format!("skills[{i}].rating"), s.rating, 1, 30)?;
        if seen.contains(&id) {
            return Err(refused(format!("skills[{i}]: {id} is listed twice")));
        }
        out.push((id.to_string(), s.rating));
        seen.push(id);
    }
    Ok(out)
}

fn check_items(
    system: System,
    items: &[FileItem],
) -> AppResult<Vec<(ItemKind, String, ItemStats)>> {
    if items.len() > MAX_ITEMS {
        return Err(refused(format!("a sheet holds at most {MAX_ITEMS} items")));
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |e: String| refused(format!("equipment[{i}]: {e}"));
        let kind: ItemKind = item.kind.parse().map_err(at)?;
        let name = fields::item_name(&item.name).map_err(at)?;
        let s = &item.stats;
        let numbers = GearNumbers {
            attack_bonus: (s.attack_bonus != 0).then_some(s.attack_bonus),
            armor_bonus: (s.armor_bonus != 0).then_some(s.armor_bonus),
            locations: (!s.locations.is_empty()).then(|| s.locations.join(", ")),
            missile: s.missile.then_some(true),
            family: s.family.clone(),
            missile_kind: s.missile_kind.clone(),
            thrown: s.thrown.then_some(true),
            quality: s.quality.clone(),
        };
        let bonus = MAX_BONUS as i32;
        if !(-bonus..=bonus).contains(&s.attack_bonus) || !(0..=bonus).contains(&s.armor_bonus) {
            return Err(at(format!(
                "attack_bonus must be within ±{bonus} and armor_bonus within 0..{bonus}"
            )));
        }
        if s.quality.is_some() && !(system == System::Tft && kind == ItemKind::Weapon) {
            return Err(at("quality is for TFT weapons only".into()));
        }
        // The quality is read and checked against the weapon as /character gear reads it.
        // Decision: an import keeps the house rules' gear whatever the switch says, so that a
        // sheet exported from a table that plays them comes back whole; with the switch off
        // every roll ignores or refuses it (`app::tft::gear_dx`, `/tft attack`).
        let (name, stats) = item_row(system, &name, kind, &numbers, true).map_err(|e| match e {
            AppError::User(m) => refused(format!("equipment[{i}]: {m}")),
            other @ (AppError::Internal(_) | AppError::Store(_)) => other,
        })?;
        out.push((kind, name, stats));
    }
    Ok(out)
}

fn check_wounds(wounds: &[FileWound]) -> AppResult<Vec<WoundRow>> {
    let mut out: Vec<WoundRow> = Vec::new();
    for (i, w) in wounds.iter().enumerate() {
        let at = |e: String| refused(format!("wounds[{i}]: {e}"));
        let location = Location::parse(&w.location)
            .ok_or_else(|| at(format!("there is no location \"{}\"", escape(&w.location))))?
            .name()
            .to_owned();
        let level = w.level.trim().to_ascii_lowercase();
        if !matches!(level.as_str(), "green" | "yellow" | "red" | "black") {
            return Err(at("level must be green, yellow, red or black".into()));
        }
        in_range(&format!("wounds[{i}].count"), w.count, 1, MAX_WOUND_COUNT)?;
        if out
            .iter()
            .any(|o| o.location == location && o.level == level)
        {
            return Err(at(format!("{location} {level} is listed twice")));
        }
        out.push(WoundRow {
            location,
            level,
            count: w.count,
        });
    }
    Ok(out)
}

/// `/character import file`: the character belongs to the caller.
pub(super) fn import(ctx: &Ctx<'_>, text: &str) -> AppResult<Reply> {
    let imp = check(text)?;
    let guild = ctx.caller.guild;
    let sheet_json = imp.sheet.to_json();
    ctx.app.store.write(|tx| -> AppResult<()> {
        let new = NewCharacter {
            name: &imp.name,
            system: imp.system,
            owner_id: ctx.caller.user,
            npc: false,
            sheet_json: &sheet_json,
        };
        name_free(tx, guild, &imp.name, None)?;
        let id = characters::create(tx, guild, &new)?.ok_or_else(|| name_taken(&imp.name))?;
        for (skill, rating) in &imp.skills {
            characters::set_skill(tx, guild, id, skill, *rating)?;
        }
        for (kind, name, stats) in &imp.items {
            let json = serde_json::to_string(stats).map_err(anyhow::Error::from)?;
            characters::add_item(tx, guild, id, kind.as_str(), name, &json)?;
        }
        characters::set_wounds(tx, guild, id, &imp.wounds)?;
        match imp.system {
            System::Thiz => secrets::set_luck(
                tx,
                guild,
                id,
                0,
                &LedgerEntry {
                    actor: ctx.caller.user,
                    kind: LuckKind::Imported,
                    reason: "/character import: no luck comes with a file; the GM gives it",
                    roll: None,
                    idem_key: None,
                },
            )?,
            System::Tft => characters::set_tft_damage(tx, guild, id, imp.damage.0, imp.damage.1)?,
        }
        Ok(())
    })?;
    let name = escape(&imp.name);
    let told = ctx.settings.gm_channel_id.is_some();
    let mut text = format!("Imported {name}; they are yours.");
    if imp.system == System::Thiz {
        text.push_str(" Luck is the referee's: a file brings none, so ");
        text.push_str(&name);
        text.push_str(" has no luck points until a GM gives some.");
        if told {
            text.push_str(" The GM channel was told.");
        } else {
            text.push_str(" Ask your GM.");
        }
    }
    text.push_str(" /character show shows the sheet.");
    let reply = Reply::ephemeral(text);
    if !told {
        return Ok(reply);
    }
    let copy = if imp.system == System::Thiz {
        format!(
            "{} imported {name} (THIZ) from a file. It has no luck points: /luck roll character:{name} rolls its starting luck in secret, or /luck set character:{name} points:… sets it.",
            escape(&ctx.caller.name)
        )
    } else {
        format!(
            "{} imported {name} (TFT) from a file.",
            escape(&ctx.caller.name)
        )
    };
    Ok(reply.with_gm_copy(Reply::public(copy)))
}
