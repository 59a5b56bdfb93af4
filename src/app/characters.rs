//! `/character …`: making, showing, editing, checking, deleting, exporting and importing sheets.
//!
//! Owns who may see and change a character here: every player character is visible to everyone
//! in the guild, an NPC only to GMs (to a player it is answered exactly like a name that does not
//! exist), and only the owner or a GM may change, check, export or delete one. Owns the export
//! format (`docs/character-format.md`). A THIZ character's secret luck is rolled when it is made,
//! in the same transaction, and never shown: no reply built here carries a hidden value.
//!
//! A delete asks first (a button), is told to the GM channel, and keeps the character for a GM
//! to restore, luck and all; an import comes in with no luck until a GM gives it some, so
//! deleting and importing again cannot mint luck (issue 32).
//!
//! Layout: [`fields`] (pure checks of typed values), [`gear`] (the gear change's types), `edit` (create, set, skill, gear, delete,
//! restore),
//! `view` (show, list, validate), `transfer` (export, import), [`bestiary`] (quick NPCs and
//! `/npc save|list|show`).

pub mod bestiary;
mod edit;
pub mod fields;
pub mod gear;
mod transfer;
mod view;

#[cfg(test)]
mod lifecycle_tests;
#[cfg(test)]
mod tests;

use super::invocation::{Invocation, Opts};
use super::layout::MAX_PAGE;
use super::reply::Reply;
use super::text::escape;
use super::{AppResult, Ctx, user};
use crate::rules::thiz::skills::SkillId;
use crate::store::CharacterId;
use crate::store::guilds::System;

pub use gear::{GearChange, GearNumbers, ItemKind, MAX_BONUS};

/// A `/character` subcommand, with its options checked.
#[derive(Debug, Clone)]
pub enum CharacterCommand {
    /// `create name [system] [npc] [fields] [skills]` (the server's default system when left
    /// out; fields and skills as `/character set` and `/character skill` read them).
    Create {
        name: String,
        system: Option<System>,
        npc: bool,
        pairs: Vec<(String, String)>,
        skills: Vec<(SkillId, i64)>,
    },
    /// `show [name] [page]`: the public sheet, posted in the channel; `page` of a sheet too long
    /// for one message.
    Show { name: Option<String>, page: usize },
    /// `use name`: the character the caller acts with in its system from now on.
    Use { name: String },
    /// `list [page]`: the characters the caller may see.
    List { page: usize },
    /// `set name field value` and/or `fields:"st 12, dx 13"`: (field, value) in order.
    Set {
        name: String,
        pairs: Vec<(String, String)>,
    },
    /// `skill name skill rating` (THIZ; 0 removes).
    Skill {
        name: String,
        skill: SkillId,
        rating: i64,
    },
    /// `skill name skills:"Speed 4, Stealth 3"`: several at once.
    Skills {
        name: String,
        list: Vec<(SkillId, i64)>,
    },
    /// `gear name action item …`.
    Gear { name: String, change: GearChange },
    /// `validate [name]`.
    Validate { name: Option<String> },
    /// `delete name`: asks first, with a button.
    Delete { name: String },
    /// The delete confirmation's buttons: delete, or keep.
    ConfirmDelete { id: CharacterId, keep: bool },
    /// `restore name [new_name]` (GM): a deleted character back, as it was (under a new name
    /// when its own is taken again).
    Restore {
        name: String,
        new_name: Option<String>,
    },
    /// `approve name [undo]` (GM): the sheet is approved (or no longer).
    Approve { name: String, undo: bool },
    /// `export [name]`.
    Export { name: Option<String> },
    /// `import file` (the file's JSON text).
    Import { file: String },
}

fn stale_button() -> crate::app::AppError {
    user("That button is not one of this bot's; nothing changed. /character delete asks again.")
}

fn name_opt(o: &Opts<'_>) -> Option<String> {
    o.text("name").map(|s| s.trim().to_owned())
}

/// The `page` option of a list too long for one message (1, the first, when left out).
fn page(o: &Opts<'_>) -> AppResult<usize> {
    Ok(o.int("page", 1, MAX_PAGE)?.unwrap_or(1) as usize)
}

/// `/character skill name skill rating`, or `name skills:"Speed 4, Stealth 3"`.
fn parse_skill(inv: &Invocation) -> AppResult<CharacterCommand> {
    let o = Opts::new(inv, &["name", "skill", "rating", "skills"])?;
    let name = required_name(&o)?;
    Ok(match o.text("skills") {
        Some(line) if o.text("skill").is_none() && o.text("rating").is_none() => {
            CharacterCommand::Skills {
                name,
                list: fields::skill_line(line).map_err(user)?,
            }
        }
        Some(_) => {
            return Err(user(
                "Give either skill:… with rating:…, or skills:\"Speed 4, Stealth 3\" for several; not both.",
            ));
        }
        None => CharacterCommand::Skill {
            name,
            skill: fields::skill(o.required("skill")?).map_err(user)?,
            rating: o.required_int("rating", 0, 30)?,
        },
    })
}

/// `/character set field:` autocomplete: the sheet fields of both systems that hold `typed`,
/// those starting with it first.
pub fn field_suggestions(typed: &str) -> Vec<String> {
    let typed = fields::field_key(typed);
    let mut all: Vec<&str> = fields::THIZ_FIELDS
        .iter()
        .chain(fields::TFT_FIELDS.iter())
        .copied()
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|f| seen.insert(*f) && f.contains(typed.as_str()));
    let (mut first, rest): (Vec<&str>, Vec<&str>) =
        all.into_iter().partition(|f| f.starts_with(typed.as_str()));
    first.extend(rest);
    first.into_iter().map(str::to_owned).collect()
}

/// `/character set name field value`, or `fields:"st 12, dx 13, iq 7"` (also `st:12 dx:13`)
/// for several at once, or both (the single field first).
fn parse_set(inv: &Invocation) -> AppResult<CharacterCommand> {
    let o = Opts::new(inv, &["name", "field", "value", "fields"])?;
    let name = required_name(&o)?;
    let mut pairs = Vec::new();
    match (o.text("field"), o.text("value")) {
        (Some(field), Some(value)) => pairs.push((field.trim().to_owned(), value.to_owned())),
        (None, None) => {}
        (Some(_), None) => return Err(user("field needs a value: give value:… with it.")),
        (None, Some(_)) => return Err(user("value needs a field: give field:… with it.")),
    }
    if let Some(line) = o.text("fields") {
        pairs.extend(fields::field_line(line).map_err(user)?);
    }
    if pairs.is_empty() {
        return Err(user(
            "Give field:… and value:…, or several at once with fields:\"st 12, dx 13, iq 7\".",
        ));
    }
    Ok(CharacterCommand::Set { name, pairs })
}

fn required_name(o: &Opts<'_>) -> AppResult<String> {
    Ok(o.required("name")?.trim().to_owned())
}

impl CharacterCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        // `/character show Alys` (a value without its option name) must not run
        // `/character show` for the caller's own character: extra words are an unknown command.
        if inv.path.len() > 2 {
            return Err(user(format!(
                "There is no command {}. Options are written with their name, like /character show name:Alys; /help lists the commands.",
                escape(&inv.display_path())
            )));
        }
        let sub = inv.path.get(1).map(String::as_str).unwrap_or_default();
        Ok(match sub {
            "create" => {
                let o = Opts::new(inv, &["name", "system", "npc", "fields", "skills"])?;
                let name = fields::character_name(o.required("name")?).map_err(user)?;
                let system = o
                    .text("system")
                    .map(|raw| {
                        System::parse(raw).ok_or_else(|| {
                            user(format!(
                                "system must be thiz or tft; you gave \"{}\"",
                                escape(raw.trim())
                            ))
                        })
                    })
                    .transpose()?;
                CharacterCommand::Create {
                    name,
                    system,
                    npc: o.flag("npc")?,
                    pairs: o
                        .text("fields")
                        .map(fields::field_line)
                        .transpose()
                        .map_err(user)?
                        .unwrap_or_default(),
                    skills: o
                        .text("skills")
                        .map(fields::skill_line)
                        .transpose()
                        .map_err(user)?
                        .unwrap_or_default(),
                }
            }
            "show" => {
                let o = Opts::new(inv, &["name", "page"])?;
                CharacterCommand::Show {
                    name: name_opt(&o),
                    page: page(&o)?,
                }
            }
            "use" => CharacterCommand::Use {
                name: required_name(&Opts::new(inv, &["name"])?)?,
            },
            "list" => CharacterCommand::List {
                page: page(&Opts::new(inv, &["page"])?)?,
            },
            "set" => parse_set(inv)?,
            "skill" => parse_skill(inv)?,
            "gear" => parse_gear(inv)?,
            "validate" => CharacterCommand::Validate {
                name: name_opt(&Opts::new(inv, &["name"])?),
            },
            "delete" => CharacterCommand::Delete {
                name: required_name(&Opts::new(inv, &["name"])?)?,
            },
            "restore" => {
                let o = Opts::new(inv, &["name", "new_name"])?;
                CharacterCommand::Restore {
                    name: required_name(&o)?,
                    new_name: o
                        .text("new_name")
                        .map(|n| fields::character_name(n).map_err(user))
                        .transpose()?,
                }
            }
            "approve" => {
                let o = Opts::new(inv, &["name", "undo"])?;
                CharacterCommand::Approve {
                    name: required_name(&o)?,
                    undo: o.flag("undo")?,
                }
            }
            "export" => CharacterCommand::Export {
                name: name_opt(&Opts::new(inv, &["name"])?),
            },
            "import" => {
                let o = Opts::new(inv, &["file"])?;
                CharacterCommand::Import {
                    file: o.required("file")?.to_owned(),
                }
            }
            _ => {
                return Err(user(
                    "/character takes create, show, list, set, skill, gear, validate, delete, restore, approve, export or import.",
                ));
            }
        })
    }

    /// A press of the delete confirmation's buttons (`chardel:<id>` or `chardel:<id>:keep`), or
    /// `None` for any other button.
    pub fn parse_button(inv: &Invocation) -> Option<AppResult<Self>> {
        let rest = inv.option("id")?.strip_prefix(edit::DELETE_BUTTON)?;
        let (id, keep) = match rest.split_once(':') {
            Some((id, "keep")) => (id, true),
            Some(_) => return Some(Err(stale_button())),
            None => (rest, false),
        };
        Some(
            id.parse::<i64>()
                .map(|id| CharacterCommand::ConfirmDelete {
                    id: CharacterId(id),
                    keep,
                })
                .map_err(|_| stale_button()),
        )
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            CharacterCommand::Create {
                name,
                system,
                npc,
                pairs,
                skills,
            } => edit::create(ctx, &name, system, npc, &edit::Filled { pairs, skills }),
            CharacterCommand::Show { name, page } => view::show(ctx, name.as_deref(), page),
            CharacterCommand::List { page } => view::list(ctx, page),
            CharacterCommand::Use { name } => edit::use_character(ctx, &name),
            CharacterCommand::Set { name, pairs } => edit::set(ctx, &name, &pairs),
            CharacterCommand::Skill {
                name,
                skill,
                rating,
            } => edit::skill(ctx, &name, &skill, rating),
            CharacterCommand::Skills { name, list } => edit::skills(ctx, &name, &list),
            CharacterCommand::Gear { name, change } => edit::gear(ctx, &name, &change),
            CharacterCommand::Validate { name } => view::validate(ctx, name.as_deref()),
            CharacterCommand::Delete { name } => edit::delete(ctx, &name),
            CharacterCommand::ConfirmDelete { id, keep } => edit::confirm_delete(ctx, id, keep),
            CharacterCommand::Restore { name, new_name } => {
                edit::restore(ctx, &name, new_name.as_deref())
            }
            CharacterCommand::Approve { name, undo } => edit::approve(ctx, &name, undo),
            CharacterCommand::Export { name } => transfer::export(ctx, name.as_deref()),
            CharacterCommand::Import { file } => transfer::import(ctx, &file),
        }
    }
}

fn parse_gear(inv: &Invocation) -> AppResult<CharacterCommand> {
    let o = Opts::new(
        inv,
        &[
            "name",
            "action",
            "item",
            "kind",
            "attack_bonus",
            "armor_bonus",
            "locations",
            "missile",
            "family",
            "missile_kind",
            "thrown",
            "quality",
        ],
    )?;
    let name = required_name(&o)?;
    let action = o.required("action")?.trim().to_ascii_lowercase();
    let item = fields::item_name(o.required("item")?).map_err(user)?;
    let numbers = GearNumbers {
        attack_bonus: o
            .int("attack_bonus", -MAX_BONUS, MAX_BONUS)?
            .map(|n| n as i32),
        armor_bonus: o.int("armor_bonus", 0, MAX_BONUS)?.map(|n| n as i32),
        locations: o.text("locations").map(str::to_owned),
        missile: o.text("missile").map(|_| o.flag("missile")).transpose()?,
        family: o.text("family").map(|f| f.trim().to_owned()),
        missile_kind: o
            .text("missile_kind")
            .map(|k| k.trim().to_ascii_lowercase()),
        thrown: o.text("thrown").map(|_| o.flag("thrown")).transpose()?,
        quality: o.text("quality").map(|q| q.trim().to_ascii_lowercase()),
    };
    let change = match action.as_str() {
        "add" => GearChange::Add {
            item,
            kind: o.choice("kind")?.unwrap_or(ItemKind::Item),
            numbers,
        },
        "remove" => {
            if o.text("kind").is_some() || numbers != GearNumbers::default() {
                return Err(user(
                    "action:remove takes only the item's name; leave out kind and the numbers.",
                ));
            }
            GearChange::Remove { item }
        }
        other => {
            return Err(user(format!(
                "action must be add or remove; you gave \"{}\"",
                escape(other)
            )));
        }
    };
    Ok(CharacterCommand::Gear { name, change })
}
