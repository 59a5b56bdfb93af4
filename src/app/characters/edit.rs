//! `create`, `set`, `skill`, `gear` and `delete`: every change is checked first and written in
//! one transaction, so a refusal changes nothing.

use super::{GearChange, GearNumbers, ItemKind, fields};
use crate::app::command::RollMode;
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::sheet::{ItemStats, Sheet};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::gear::{self, Quality};
use crate::rules::thiz::Location;
use crate::rules::thiz::combat::{MissileKind, missile_attack_bonus};
use crate::rules::thiz::luck::roll_starting_luck;
use crate::rules::thiz::skills::SkillId;
use crate::store::characters::{self, NewCharacter};
use crate::store::guilds::System;
use crate::store::secrets::{self, LedgerEntry, LuckKind};
use crate::store::{CharacterId, Conn};

/// Most skills on one sheet, and most equipment rows: limits against runaway input.
pub const MAX_SKILLS: usize = 100;
pub const MAX_ITEMS: usize = 60;

/// A refusal that changed nothing, from a field check's reason.
fn unchanged(reason: &str) -> crate::app::AppError {
    user(format!("Nothing changed: {reason}."))
}

/// Rolls and stores a new THIZ character's secret luck (call inside the creating transaction).
/// The roll is logged blind: its result lives in the hidden table.
pub(super) fn roll_secret_luck(
    ctx: &Ctx<'_>,
    conn: &Conn,
    id: CharacterId,
    command: &str,
) -> AppResult<()> {
    // The dice guard is a temporary: released before anything else is written.
    let luck = roll_starting_luck(&mut ctx.dice()).reveal_to_gm();
    secrets::set_luck(
        conn,
        ctx.caller.guild,
        id,
        i64::from(luck),
        &LedgerEntry {
            actor: ctx.caller.user,
            kind: LuckKind::Rolled,
            reason: "starting luck, rolled in secret when the character was made",
            roll: None,
            idem_key: None,
        },
    )?;
    ctx.log_roll(
        conn,
        Some(id),
        command,
        RollMode::Blind,
        "starting luck (1d10)",
        &serde_json::json!({ "die": 10, "luck": luck }),
    )?;
    Ok(())
}

pub(super) fn name_taken(name: &str) -> crate::app::AppError {
    user(format!(
        "The name {} is already taken here (names ignore case); pick another.",
        escape(name)
    ))
}

/// `/character create name [system] [npc]`; without `system`, the server's default system
/// (`/gm setup system:…`), and the reply says so.
pub(super) fn create(
    ctx: &Ctx<'_>,
    name: &str,
    system: Option<System>,
    npc: bool,
) -> AppResult<Reply> {
    let defaulted = system.is_none();
    let system = system.unwrap_or(ctx.settings.default_system);
    if npc && !ctx.is_gm() {
        return Err(user(
            "Only a GM can make an NPC (npc:true); leave npc out to make your own character.",
        ));
    }
    let guild = ctx.caller.guild;
    let sheet = Sheet::new(system).to_json();
    ctx.app.store.write(|tx| -> AppResult<()> {
        let new = NewCharacter {
            name,
            system,
            owner_id: ctx.caller.user,
            npc,
            sheet_json: &sheet,
        };
        let id = characters::create(tx, guild, &new)?.ok_or_else(|| name_taken(name))?;
        if system == System::Thiz {
            roll_secret_luck(ctx, tx, id, "/character create")?;
        }
        Ok(())
    })?;
    let shown = escape(name);
    let (system_name, first_steps) = match system {
        System::Thiz => (
            "THIZ",
            "The referee has rolled their luck in secret.\nNext: /character skill and /character set, then /character validate.",
        ),
        System::Tft => (
            "TFT",
            "Next: /character set (st, dx, iq, talents…) and /character gear, then /character validate.",
        ),
    };
    let default = if defaulted {
        let other = match system {
            System::Thiz => "tft",
            System::Tft => "thiz",
        };
        format!(" (the server's default system; system:{other} makes the other kind)")
    } else {
        String::new()
    };
    let embed = Embed {
        title: format!("{shown} is ready"),
        description: format!(
            "A new {system_name} {}{default}.\n{first_steps}",
            if npc {
                "NPC, seen only by GMs"
            } else {
                "character"
            }
        ),
        tone: Some(Tone::Green),
        ..Embed::default()
    };
    // An NPC is a GM's secret: only the GM hears it was made.
    let reply = if npc {
        Reply::ephemeral("")
    } else {
        Reply::public("")
    };
    Ok(reply.with_embed(embed))
}

/// `/character set name field value`: owner or GM.
pub(super) fn set(ctx: &Ctx<'_>, name: &str, field: &str, value: &str) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let (who, shown) = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        let mut sheet = Sheet::of(&c)?;
        fields::apply(&mut sheet, field, value).map_err(|e| unchanged(&e))?;
        characters::set_sheet(tx, guild, c.id, &sheet.to_json())?;
        Ok((c.name, fields::describe(&sheet, field)))
    })?;
    Ok(Reply::ephemeral(format!(
        "{}: {} is now {}.",
        escape(&who),
        escape(&fields::field_key(field)),
        escape(&shown)
    )))
}

/// `/character skill name skill rating`: THIZ, owner or GM; 0 removes the skill.
pub(super) fn skill(ctx: &Ctx<'_>, name: &str, skill: &SkillId, rating: i64) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let skill_name = skill.to_string();
    let who = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        Sheet::of(&c)?.thiz()?;
        let skills = characters::skills(tx, guild, c.id)?;
        let has = skills.iter().any(|s| {
            SkillId::parse(&s.skill).is_ok_and(|id| &id == skill)
                || characters::name_key(&s.skill) == characters::name_key(&skill_name)
        });
        if rating == 0 && !has {
            return Err(user(format!(
                "{} has no {}; nothing to remove.",
                escape(&c.name),
                escape(&skill_name)
            )));
        }
        if !has && skills.len() >= MAX_SKILLS {
            return Err(unchanged(&format!(
                "a sheet holds at most {MAX_SKILLS} skills"
            )));
        }
        characters::set_skill(tx, guild, c.id, &skill_name, rating)?;
        Ok(c.name)
    })?;
    Ok(Reply::ephemeral(if rating == 0 {
        format!("{}: {} removed.", escape(&who), escape(&skill_name))
    } else {
        format!("{}: {} is now {rating}.", escape(&who), escape(&skill_name))
    }))
}

/// Refuses the numbers that do not belong to this kind of item.
fn refuse_numbers(numbers: &GearNumbers, allowed: &[&str], what: &str) -> AppResult<()> {
    let given = [
        ("attack_bonus", numbers.attack_bonus.is_some()),
        ("armor_bonus", numbers.armor_bonus.is_some()),
        ("locations", numbers.locations.is_some()),
        ("missile", numbers.missile.is_some()),
        ("family", numbers.family.is_some()),
        ("missile_kind", numbers.missile_kind.is_some()),
        ("quality", numbers.quality.is_some()),
    ];
    match given
        .iter()
        .find(|(name, is_given)| *is_given && !allowed.contains(name))
    {
        Some((name, _)) => Err(unchanged(&format!("{name} does not apply to {what}"))),
        None => Ok(()),
    }
}

/// A TFT weapon's quality as typed, checked against what the weapon may be made as
/// (tft-house-rules.txt, "Fine Weapons"): its stored name, or `None` for plain.
fn weapon_quality(weapon: &str, typed: &str) -> AppResult<Option<String>> {
    let quality = Quality::parse(typed).ok_or_else(|| {
        unchanged(&format!(
            "quality must be plain, good, fine (+1 DX), fine+1, fine+2 (damage), fine-dx+1 or fine-dx+2, not \"{}\"",
            escape(typed)
        ))
    })?;
    let row = gear::weapon(weapon).map_err(|e| unchanged(&e.to_string()))?;
    quality.check(row).map_err(|e| unchanged(&e.to_string()))?;
    Ok((quality != Quality::Plain).then(|| quality.name().to_owned()))
}

/// A missile weapon's kind as typed.
fn missile_kind(kind: &str) -> AppResult<MissileKind> {
    match kind {
        "low" => Ok(MissileKind::LowVelocity),
        "piercing" => Ok(MissileKind::LowVelocityPiercing),
        "high" => Ok(MissileKind::HighVelocity),
        "armour-piercing" | "armor-piercing" => Ok(MissileKind::HighVelocityPiercing),
        other => Err(unchanged(&format!(
            "missile_kind must be low, piercing, high or armour-piercing, not \"{}\"",
            escape(other)
        ))),
    }
}

fn locations(raw: &str) -> AppResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for entry in fields::split_list(raw) {
        let loc = Location::parse(&entry).ok_or_else(|| {
            unchanged(&format!(
                "there is no location \"{}\"; use head, chest, gut, left arm, right arm, left leg, right leg",
                escape(&entry)
            ))
        })?;
        let name = loc.name().to_owned();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    Ok(out)
}

/// The row to store for an added item: its name, kind and stats, checked for the system.
pub(super) fn item_row(
    system: System,
    item: &str,
    kind: ItemKind,
    n: &GearNumbers,
) -> AppResult<(String, ItemStats)> {
    let mut stats = ItemStats::default();
    let name = match (system, kind) {
        (System::Thiz, ItemKind::Weapon) => {
            refuse_numbers(
                n,
                &["attack_bonus", "missile", "family", "missile_kind"],
                "a weapon",
            )?;
            stats.missile = n.missile.unwrap_or(false) || n.missile_kind.is_some();
            // thiz-rulebook.md, "Combat Equipment": a missile's suggested Attack Bonus by what it
            // shoots, unless the referee gives one.
            let suggested = match n.missile_kind.as_deref() {
                None => None,
                Some(kind) => Some(missile_kind(kind)?),
            };
            stats.attack_bonus = n
                .attack_bonus
                .or(suggested.map(missile_attack_bonus))
                .unwrap_or(0);
            stats.missile_kind.clone_from(&n.missile_kind);
            stats.family = match n.family.as_deref() {
                Some(f) if f.is_empty() || f.chars().count() > 40 => {
                    return Err(unchanged(
                        "family is a short name, like blades or pole weapons",
                    ));
                }
                other => other.map(str::to_owned),
            };
            item.to_owned()
        }
        (System::Thiz, ItemKind::Armor) => {
            refuse_numbers(n, &["armor_bonus", "locations"], "armor")?;
            stats.armor_bonus = n.armor_bonus.unwrap_or(0);
            stats.locations = n
                .locations
                .as_deref()
                .map(locations)
                .transpose()?
                .unwrap_or_default();
            item.to_owned()
        }
        (System::Thiz, ItemKind::Shield) => {
            refuse_numbers(n, &["armor_bonus"], "a shield")?;
            stats.armor_bonus = n.armor_bonus.unwrap_or(0);
            item.to_owned()
        }
        (_, ItemKind::Item) => {
            refuse_numbers(n, &[], "a plain item")?;
            item.to_owned()
        }
        (System::Tft, ItemKind::Weapon) => {
            refuse_numbers(
                n,
                &["quality"],
                "a TFT weapon (its numbers come from the weapon table)",
            )?;
            let name = fields::weapon(item).map_err(|e| unchanged(&e))?;
            stats.quality = n
                .quality
                .as_deref()
                .map(|q| weapon_quality(&name, q))
                .transpose()?
                .flatten();
            name
        }
        (System::Tft, ItemKind::Armor | ItemKind::Shield) => {
            return Err(user(format!(
                "A TFT character wears armor and a shield on the sheet: use /character set field:{} value:….",
                kind.as_str()
            )));
        }
    };
    Ok((name, stats))
}

/// `/character gear name action item …`: owner or GM.
pub(super) fn gear(ctx: &Ctx<'_>, name: &str, change: &GearChange) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    ctx.app.store.write(|tx| -> AppResult<Reply> {
        let c = ctx.acting_character(tx, Some(name))?;
        let who = escape(&c.name);
        match change {
            GearChange::Add {
                item,
                kind,
                numbers,
            } => {
                let (item, stats) = item_row(c.system, item, *kind, numbers)?;
                if characters::items(tx, guild, c.id)?.len() >= MAX_ITEMS {
                    return Err(unchanged(&format!(
                        "a sheet holds at most {MAX_ITEMS} items; remove one first"
                    )));
                }
                let json = serde_json::to_string(&stats).map_err(anyhow::Error::from)?;
                characters::add_item(tx, guild, c.id, kind.as_str(), &item, &json)?;
                Ok(Reply::ephemeral(format!(
                    "{who} now carries {} ({}).",
                    escape(&item),
                    kind.as_str()
                )))
            }
            GearChange::Remove { item } => {
                if !characters::remove_item(tx, guild, c.id, item)? {
                    return Err(user(format!(
                        "{who} carries no item named {}; /character show lists their equipment.",
                        escape(item)
                    )));
                }
                Ok(Reply::ephemeral(format!(
                    "{who} no longer carries {}.",
                    escape(item)
                )))
            }
        }
    })
}

/// `/character delete name`: owner or GM; everything on the sheet goes with it.
pub(super) fn delete(ctx: &Ctx<'_>, name: &str) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let who = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        characters::delete(tx, guild, c.id)?;
        Ok(c.name)
    })?;
    Ok(Reply::ephemeral(format!(
        "Deleted {} and everything on their sheet.",
        escape(&who)
    )))
}
