//! Quick NPCs and the bestiary (issue 59): an NPC made in one line, and `/npc save|list|show`,
//! a guild's NPCs kept under a name (a template: the sheet, skills and gear as they were when
//! saved) for numbered copies.
//!
//! Owns what a quick NPC's line may hold (fields, THIZ skills, weapons, armour) and how it
//! becomes a sheet (checked as `/character create`, `set` and `gear` check it, so a bad entry
//! makes nothing), and the template's JSON. Every NPC made here is a hidden sheet, GM-owned
//! (`npc:true`); every template is a hidden value: all of it is read only after
//! [`Ctx::gm`], and answers are ephemeral. No reply built here goes to a player.
//!
//! Seam: `encounter` makes the quick NPC of `/encounter add name:…` ([`Quick`], [`quick_parts`],
//! [`make_quick`]) and copies a bestiary entry for `/encounter add npc:…` ([`template`],
//! [`make_copy`]), as `/character create` and `/npc save` make them.

use serde::{Deserialize, Serialize};

use super::edit::{Filled, item_row, name_free, name_taken, roll_secret_luck};
use super::fields;
use super::gear::{GearNumbers, ItemKind, MAX_BONUS};
use crate::app::invocation::{Invocation, Opts};
use crate::app::layout::{MAX_PAGE, line_fields, paged, pick};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::sheet::{ItemStats, Sheet};
use crate::app::text::escape;
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::thiz::Location;
use crate::rules::thiz::skills::SkillId;
use crate::store::bestiary::{self, NewTemplate, TemplateRow};
use crate::store::characters::{self, Character, NewCharacter};
use crate::store::guilds::System;
use crate::store::{CharacterId, Conn};

/// The most templates one server keeps: a limit against runaway input.
pub const MAX_TEMPLATES: u64 = 200;
/// The most weapons one `weapon:` line lists.
pub const MAX_WEAPONS: usize = 5;
/// The template JSON's version (`template_json`'s `version`).
const FORMAT: u32 = 1;

/// What `/encounter add name:… skills:… weapon:… armor:… fields:… st:… dx:… iq:…` fills in,
/// read but not yet checked against a system (the encounter's decides).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quick {
    /// Sheet fields in order (`fields:`, then `st`, `dx`, `iq`), as `/character set` takes them.
    pub pairs: Vec<(String, String)>,
    /// THIZ skills, as `/character skill skills:…` reads them.
    pub skills: Vec<(SkillId, i64)>,
    /// `weapon:`: comma-separated; THIZ `Sword +2` (or `Bow +1 missile`), TFT `broadsword`.
    pub weapons: Option<String>,
    /// `armor:`: THIZ `Leather +2` (every location) or `Leather +2 (chest, gut)`; TFT the
    /// armor table's name, the sheet's `armor` field.
    pub armor: Option<String>,
}

impl Quick {
    /// The quick options of an `/encounter add` (`None` when none was given). A field named
    /// twice (`st:12` and `fields:"st 13"`) is refused.
    pub fn parse(o: &Opts<'_>) -> AppResult<Option<Quick>> {
        let mut q = Quick::default();
        if let Some(line) = o.text("fields") {
            q.pairs = fields::field_line(line).map_err(user)?;
        }
        for field in ["st", "dx", "iq"] {
            if let Some(v) = o.int(field, 1, fields::MAX_ATTRIBUTE)? {
                q.pairs.push((field.to_owned(), v.to_string()));
            }
        }
        let mut keys: Vec<String> = q.pairs.iter().map(|(f, _)| fields::field_key(f)).collect();
        keys.sort();
        if let Some([twice, ..]) = keys.windows(2).find(|w| w[0] == w[1]) {
            return Err(user(format!(
                "{} is given twice; give each field once. Nothing was made.",
                escape(twice)
            )));
        }
        if let Some(line) = o.text("skills") {
            q.skills = fields::skill_line(line).map_err(user)?;
        }
        q.weapons = o.text("weapon").map(|w| w.trim().to_owned());
        q.armor = o.text("armor").map(|a| a.trim().to_owned());
        Ok((q != Quick::default()).then_some(q))
    }
}

/// The key a bestiary entry is found by: the confusable key of the name folded to lowercase
/// first, so "Goblin", "GOBLIN" and "Gоblin" with a Cyrillic о are one entry (the skeleton alone
/// reads a capital I as a small l, which would keep "GOBLIN" apart from "Goblin").
fn key(name: &str) -> String {
    fields::confusable_key(&characters::name_key(name))
}

/// A quick NPC's `name:`, checked as a character's name is (numbered copies add " 1", " 2"…).
pub fn npc_name(raw: &str) -> AppResult<String> {
    fields::character_name(raw).map_err(user)
}

/// One carried item of a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct PartItem {
    kind: String,
    name: String,
    stats: ItemStats,
}

/// A whole NPC sheet: what a template keeps and a copy is made of. Stored as the template's
/// JSON; `version` lets a later shape read an older one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parts {
    version: u32,
    /// The sheet's JSON (its fields), as `characters.sheet_json` holds it.
    sheet: String,
    skills: Vec<(String, i64)>,
    items: Vec<PartItem>,
}

/// A bestiary entry, read for a GM.
#[derive(Debug, Clone)]
pub struct Template {
    pub name: String,
    pub system: System,
    pub parts: Parts,
}

/// "Sword +2" → ("Sword", 2, false); "Bow +1 missile" → ("Bow", 1, true).
fn thiz_weapon(entry: &str) -> Result<(String, i32, bool), String> {
    let mut words: Vec<&str> = entry.split_whitespace().collect();
    let missile = words
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("missile"));
    if missile {
        words.pop();
    }
    let bonus = match words.last() {
        Some(w) if w.starts_with(['+', '-']) => {
            let n: i64 = w
                .parse()
                .map_err(|_| format!("\"{}\" in weapon is not a bonus like +2", escape(w)))?;
            if n.abs() > MAX_BONUS {
                return Err(format!(
                    "a weapon's bonus is at most {} either way; \"{}\" is more",
                    MAX_BONUS,
                    escape(w)
                ));
            }
            words.pop();
            n as i32
        }
        _ => 0,
    };
    let name = fields::item_name(&words.join(" "))?;
    Ok((name, bonus, missile))
}

/// "Leather +2" → every location; "Leather +2 (chest, gut)" → those.
fn thiz_armor(raw: &str) -> Result<(String, GearNumbers), String> {
    let (body, locations) = match raw
        .trim()
        .strip_suffix(')')
        .and_then(|r| r.rsplit_once('('))
    {
        Some((body, locations)) => (body.trim(), locations.trim().to_owned()),
        None => (
            raw.trim(),
            Location::ALL
                .iter()
                .map(|l| l.name())
                .collect::<Vec<_>>()
                .join(", "),
        ),
    };
    let (name, bonus, missile) = thiz_weapon(body)?;
    if missile || bonus < 0 {
        return Err(format!(
            "armor reads like Leather +2 or Leather +2 (chest, gut), not \"{}\"",
            escape(raw.trim())
        ));
    }
    Ok((
        name,
        GearNumbers {
            armor_bonus: Some(bonus),
            locations: Some(locations),
            ..GearNumbers::default()
        },
    ))
}

/// The items a quick NPC's `weapon:` and (THIZ) `armor:` give it, checked as `/character gear`
/// checks them.
fn quick_items(ctx: &Ctx<'_>, system: System, q: &Quick) -> AppResult<Vec<PartItem>> {
    let house_rules = crate::app::tft::shared::house_rules(ctx);
    let nothing = |e: String| user(format!("{e}. Nothing was made."));
    let mut wanted: Vec<(String, ItemKind, GearNumbers)> = Vec::new();
    if let Some(line) = &q.weapons {
        let entries: Vec<&str> = line
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        if entries.is_empty() || entries.len() > MAX_WEAPONS {
            return Err(user(format!(
                "weapon lists 1 to {MAX_WEAPONS} weapons, comma-separated, like weapon:\"Sword +2, Bow +1 missile\" (THIZ) or weapon:\"broadsword, dagger\" (TFT). Nothing was made."
            )));
        }
        for entry in entries {
            match system {
                System::Thiz => {
                    let (name, bonus, missile) = thiz_weapon(entry).map_err(nothing)?;
                    let numbers = GearNumbers {
                        attack_bonus: Some(bonus),
                        missile: missile.then_some(true),
                        ..GearNumbers::default()
                    };
                    wanted.push((name, ItemKind::Weapon, numbers));
                }
                System::Tft => {
                    let name = fields::item_name(entry).map_err(nothing)?;
                    wanted.push((name, ItemKind::Weapon, GearNumbers::default()));
                }
            }
        }
    }
    if let (System::Thiz, Some(raw)) = (system, &q.armor) {
        let (name, numbers) = thiz_armor(raw).map_err(nothing)?;
        wanted.push((name, ItemKind::Armor, numbers));
    }
    wanted
        .into_iter()
        .map(|(item, kind, numbers)| {
            let (name, stats) = item_row(system, &item, kind, &numbers, house_rules)?;
            Ok(PartItem {
                kind: kind.as_str().to_owned(),
                name,
                stats,
            })
        })
        .collect()
}

/// A quick NPC's whole sheet for `system`, every entry checked; a refusal names the entry and
/// makes nothing.
pub fn quick_parts(ctx: &Ctx<'_>, system: System, q: &Quick) -> AppResult<Parts> {
    let mut pairs = q.pairs.clone();
    if let (System::Tft, Some(armor)) = (system, &q.armor) {
        if pairs.iter().any(|(f, _)| fields::field_key(f) == "armor") {
            return Err(user(
                "armor is given twice (armor:… and in fields); give it once. Nothing was made.",
            ));
        }
        pairs.push(("armor".to_owned(), armor.clone()));
    }
    let filled = Filled {
        pairs,
        skills: q.skills.clone(),
    };
    let sheet = filled.sheet(ctx, system)?;
    let items = quick_items(ctx, system, q)?;
    Ok(Parts {
        version: FORMAT,
        sheet: sheet.to_json(),
        skills: q
            .skills
            .iter()
            .filter(|(_, r)| *r > 0)
            .map(|(s, r)| (s.to_string(), *r))
            .collect(),
        items,
    })
}

/// Writes a new hidden NPC named `name` (owned by the calling GM) from `parts`; `Ok(None)` when
/// the name is taken. A THIZ NPC's luck is rolled in secret, as for every new THIZ character.
fn write_npc(
    ctx: &Ctx<'_>,
    tx: &Conn,
    name: &str,
    system: System,
    parts: &Parts,
) -> AppResult<Option<CharacterId>> {
    let guild = ctx.caller.guild;
    let new = NewCharacter {
        name,
        system,
        owner_id: ctx.caller.user,
        npc: true,
        sheet_json: &parts.sheet,
    };
    let Some(id) = characters::create(tx, guild, &new)? else {
        return Ok(None);
    };
    if system == System::Thiz {
        roll_secret_luck(ctx, tx, id, "/encounter add")?;
    }
    for (skill, rating) in &parts.skills {
        characters::set_skill(tx, guild, id, skill, *rating)?;
    }
    for item in &parts.items {
        let json = serde_json::to_string(&item.stats).map_err(anyhow::Error::from)?;
        characters::add_item(tx, guild, id, &item.kind, &item.name, &json)?;
    }
    Ok(Some(id))
}

/// Makes the quick NPC `name` (GM): a hidden NPC sheet the GM can reuse (`npc:<name>`, `/npc
/// save`). Refused, making nothing, when the name is taken or looks like one that is.
pub fn make_quick(
    ctx: &Ctx<'_>,
    tx: &Conn,
    name: &str,
    system: System,
    parts: &Parts,
) -> AppResult<Character> {
    ctx.gm()?;
    if let Some(c) = characters::by_name(tx, ctx.caller.guild, name)?.filter(|c| ctx.can_see(c)) {
        return Err(user(format!(
            "There is a character named {} here already: npc:{} adds copies of an NPC sheet as it is, or pick another name. Nothing was made.",
            escape(&c.name),
            escape(&c.name)
        )));
    }
    name_free(tx, ctx.caller.guild, name, None)?;
    let id = write_npc(ctx, tx, name, system, parts)?.ok_or_else(|| name_taken(name))?;
    let c = characters::by_id(tx, ctx.caller.guild, id)?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("new NPC {id} vanished")))?;
    ctx.saw(&c);
    Ok(c)
}

/// A copy of the bestiary's `t` named `name` (a numbered copy for an encounter); `Ok(None)` when
/// the name is taken.
pub fn make_copy(
    ctx: &Ctx<'_>,
    tx: &Conn,
    t: &Template,
    name: &str,
) -> AppResult<Option<CharacterId>> {
    ctx.gm()?;
    write_npc(ctx, tx, name, t.system, &t.parts)
}

fn read_template(row: TemplateRow) -> AppResult<Template> {
    let parts: Parts = serde_json::from_str(&row.template_json).map_err(|e| {
        AppError::Internal(anyhow::anyhow!("template {} is corrupt: {e}", row.name))
    })?;
    Ok(Template {
        name: row.name,
        system: row.system,
        parts,
    })
}

/// The bestiary's entry named `name` (GM only), if there is one.
pub fn template(ctx: &Ctx<'_>, conn: &Conn, name: &str) -> AppResult<Option<Template>> {
    ctx.gm()?;
    bestiary::get(conn, ctx.caller.guild, &key(name))?
        .map(read_template)
        .transpose()
}

/// The sheet, skills and gear of a stored character, as a template keeps them.
fn parts_of(conn: &Conn, c: &Character) -> AppResult<Parts> {
    let guild = c.guild_id;
    let skills = characters::skills(conn, guild, c.id)?
        .into_iter()
        .filter(|s| s.rating > 0)
        .map(|s| (s.skill, s.rating))
        .collect();
    let items = characters::items(conn, guild, c.id)?
        .into_iter()
        .map(|i| {
            let stats: ItemStats = serde_json::from_str(&i.stats_json).unwrap_or_default();
            PartItem {
                kind: i.kind,
                name: i.name,
                stats,
            }
        })
        .collect();
    Ok(Parts {
        version: FORMAT,
        sheet: c.sheet_json.clone(),
        skills,
        items,
    })
}

/// A sheet's numbers in a few lines, for the GM alone: fields that are set, skills, gear.
pub fn summary(system: System, parts: &Parts) -> AppResult<Vec<String>> {
    let sheet = Sheet::of(&Character {
        guild_id: crate::store::GuildId(0),
        id: CharacterId(0),
        name: String::new(),
        system,
        owner_id: crate::store::UserId(0),
        npc: true,
        sheet_json: parts.sheet.clone(),
        created_at: 0,
        updated_at: 0,
    })?;
    let mut lines = Vec::new();
    let names: &[&str] = match system {
        System::Thiz => &fields::THIZ_FIELDS,
        System::Tft => &fields::TFT_FIELDS,
    };
    let set: Vec<String> = names
        .iter()
        .filter_map(|f| {
            let v = fields::describe(&sheet, f);
            let always = matches!(*f, "st" | "dx" | "iq");
            (always || !matches!(v.as_str(), "none" | "0" | "from DX" | ""))
                .then(|| format!("{f} {}", escape(&v)))
        })
        .collect();
    if !set.is_empty() {
        lines.push(set.join(", "));
    }
    if !parts.skills.is_empty() {
        let skills: Vec<String> = parts
            .skills
            .iter()
            .map(|(s, r)| format!("{} {r}", escape(s)))
            .collect();
        lines.push(format!("Skills: {}", skills.join(", ")));
    }
    if !parts.items.is_empty() {
        let items: Vec<String> = parts.items.iter().map(item_text).collect();
        lines.push(format!("Gear: {}", items.join("; ")));
    }
    if lines.is_empty() {
        lines.push("A blank sheet: nothing filled in.".to_owned());
    }
    Ok(lines)
}

fn item_text(i: &PartItem) -> String {
    let s = &i.stats;
    let mut notes = vec![i.kind.clone()];
    if s.attack_bonus != 0 {
        notes.push(format!("{:+}", s.attack_bonus));
    }
    if s.missile {
        notes.push("missile".to_owned());
    }
    if s.armor_bonus != 0 {
        notes.push(format!("armour {:+}", s.armor_bonus));
    }
    if !s.locations.is_empty() && s.locations.len() < Location::ALL.len() {
        notes.push(s.locations.join(", "));
    }
    if let Some(q) = &s.quality {
        notes.push(q.clone());
    }
    format!("{} ({})", escape(&i.name), notes.join(", "))
}

/// A `/npc` subcommand, with its options checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NpcCommand {
    /// `save name [character] [replace]`: the NPC sheet `character` (default: the one named
    /// `name`) kept in the bestiary as `name`.
    Save {
        name: String,
        character: Option<String>,
        replace: bool,
    },
    /// `list [page]`.
    List { page: usize },
    /// `show name`.
    Show { name: String },
    /// `delete name`: the bestiary forgets it (sheets and copies made from it stay).
    Delete { name: String },
}

impl NpcCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = if inv.path.len() == 2 {
            inv.path[1].as_str()
        } else {
            ""
        };
        Ok(match sub {
            "save" => {
                let o = Opts::new(inv, &["name", "character", "replace"])?;
                NpcCommand::Save {
                    name: fields::character_name(o.required("name")?).map_err(user)?,
                    character: o.text("character").map(|c| c.trim().to_owned()),
                    replace: o.flag("replace")?,
                }
            }
            "list" => NpcCommand::List {
                page: Opts::new(inv, &["page"])?
                    .int("page", 1, MAX_PAGE)?
                    .unwrap_or(1) as usize,
            },
            "show" => NpcCommand::Show {
                name: Opts::new(inv, &["name"])?
                    .required("name")?
                    .trim()
                    .to_owned(),
            },
            "delete" => NpcCommand::Delete {
                name: Opts::new(inv, &["name"])?
                    .required("name")?
                    .trim()
                    .to_owned(),
            },
            _ => {
                return Err(user(format!(
                    "There is no command {}. /npc takes save, list, show or delete.",
                    escape(&inv.display_path())
                )));
            }
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        // Every template is an NPC's numbers: the GM's alone, whatever the subcommand.
        ctx.gm()?;
        match self {
            NpcCommand::Save {
                name,
                character,
                replace,
            } => save(ctx, &name, character.as_deref(), replace),
            NpcCommand::List { page } => list(ctx, page),
            NpcCommand::Show { name } => show(ctx, &name),
            NpcCommand::Delete { name } => delete(ctx, &name),
        }
    }
}

fn system_name(system: System) -> &'static str {
    match system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    }
}

fn save(ctx: &Ctx<'_>, name: &str, character: Option<&str>, replace: bool) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let key = key(name);
    let (c, parts, replaced) = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.find_character(tx, character.unwrap_or(name))?;
        if !c.npc {
            return Err(user(format!(
                "{} is a player character; the bestiary keeps NPC sheets (/character create npc:true, or /encounter add name:…). Nothing was saved.",
                escape(&c.name)
            )));
        }
        let old = bestiary::get(tx, guild, &key)?;
        if let Some(old) = &old {
            if !replace {
                return Err(user(format!(
                    "The bestiary has {} already; replace:true saves over it. Nothing was saved.",
                    escape(&old.name)
                )));
            }
        } else if bestiary::count(tx, guild)? >= MAX_TEMPLATES {
            return Err(user(format!(
                "The bestiary holds at most {MAX_TEMPLATES} NPCs; nothing was saved."
            )));
        }
        let parts = parts_of(tx, &c)?;
        let json = serde_json::to_string(&parts).map_err(anyhow::Error::from)?;
        bestiary::put(
            tx,
            guild,
            &NewTemplate {
                name,
                key: &key,
                system: c.system,
                template_json: &json,
                by: ctx.caller.user,
            },
        )?;
        Ok((c, parts, old.is_some()))
    })?;
    let shown = escape(name);
    let mut lines = summary(c.system, &parts)?;
    lines.insert(
        0,
        format!(
            "{} {shown} ({}), from the sheet of {}: /encounter add npc:{shown} count:4 adds numbered copies. Only GMs see the bestiary.",
            if replaced {
                "Replaced the bestiary's"
            } else {
                "The bestiary now keeps"
            },
            system_name(c.system),
            escape(&c.name)
        ),
    );
    Ok(Reply::ephemeral(lines.join("\n")))
}

/// `/npc delete name`: the bestiary forgets an NPC; the sheets it was saved from, and copies
/// already in a fight, are left as they are.
fn delete(ctx: &Ctx<'_>, name: &str) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let key = key(name);
    let gone = ctx.app.store.write(|tx| -> AppResult<_> {
        let old = bestiary::get(tx, guild, &key)?;
        if old.is_some() {
            bestiary::delete(tx, guild, &key)?;
        }
        Ok(old)
    })?;
    match gone {
        Some(old) => Ok(Reply::ephemeral(format!(
            "The bestiary no longer keeps {}. Sheets it was saved from, and copies in a fight, are unchanged.",
            escape(&old.name)
        ))),
        None => Err(user(format!(
            "The bestiary has no NPC called {}; /npc list shows what it keeps. Nothing was deleted.",
            escape(name)
        ))),
    }
}

fn list(ctx: &Ctx<'_>, page: usize) -> AppResult<Reply> {
    let rows = ctx.app.store.read(|c| bestiary::all(c, ctx.caller.guild))?;
    let lines: Vec<String> = rows
        .iter()
        .map(|r| format!("**{}** ({})", escape(&r.name), system_name(r.system)))
        .collect();
    let description = if rows.is_empty() {
        "The bestiary is empty. /npc save name:Goblin keeps an NPC sheet here; /encounter add name:Goblin skills:… makes one in a fight.".to_owned()
    } else {
        format!(
            "{} of at most {MAX_TEMPLATES}. /npc show name:… shows one; /encounter add npc:… count:… adds copies. Only GMs see this.",
            rows.len()
        )
    };
    let embed = Embed {
        title: "Bestiary".to_owned(),
        description,
        tone: Some(Tone::Info),
        fields: if lines.is_empty() {
            Vec::new()
        } else {
            line_fields("NPCs", &lines, false)
        },
        footer: None,
    };
    let pages = paged(&embed, |p| format!("/npc list page:{p}"));
    let embed = pick(pages, page, "The bestiary").map_err(user)?;
    Ok(Reply::ephemeral("").with_embed(embed))
}

fn show(ctx: &Ctx<'_>, name: &str) -> AppResult<Reply> {
    let key = key(name);
    let row = ctx
        .app
        .store
        .read(|c| bestiary::get(c, ctx.caller.guild, &key))?
        .ok_or_else(|| {
            user(format!(
                "The bestiary has no NPC named {}; /npc list shows what it keeps.",
                escape(name)
            ))
        })?;
    let t = read_template(row)?;
    let lines = summary(t.system, &t.parts)?;
    let embed = Embed {
        title: format!("{} ({})", escape(&t.name), system_name(t.system)),
        description: lines.join("\n"),
        tone: Some(Tone::Info),
        fields: Vec::new(),
        footer: Some(format!(
            "/encounter add npc:{} count:… adds numbered copies. Only GMs see this.",
            t.name
        )),
    };
    Ok(Reply::ephemeral("").with_embed(embed))
}
