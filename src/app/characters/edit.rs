//! `create`, `set`, `skill`, `gear` and `delete`: every change is checked first and written in
//! one transaction, so a refusal changes nothing.

use std::fmt::Write as _;

use super::fields;
use super::gear::{GearChange, GearNumbers, ItemKind};
use crate::app::invocation::RollMode;
use crate::app::reply::{Button, Embed, Reply, Tone};
use crate::app::sheet::{ItemStats, Sheet};
use crate::app::text::{escape, truncate};
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::gear::{self, Quality};
use crate::rules::thiz::Location;
use crate::rules::thiz::combat::{MissileKind, missile_attack_bonus};
use crate::rules::thiz::luck::roll_starting_luck;
use crate::rules::thiz::skills::SkillId;
use crate::store::characters::{self, Character, NewCharacter};
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
/// What `/character create` fills in beside the name: fields and skills, checked before the
/// character is made, so a bad one makes nothing.
pub(super) struct Filled {
    pub pairs: Vec<(String, String)>,
    pub skills: Vec<(SkillId, i64)>,
}

impl Filled {
    /// A new sheet of `system` with the fields filled in, checked as `/character set` checks
    /// them; the skills checked against the system.
    pub(super) fn sheet(&self, ctx: &Ctx<'_>, system: System) -> AppResult<Sheet> {
        let mut sheet = Sheet::new(system);
        let house_rules = crate::app::tft::shared::house_rules(ctx);
        for (field, value) in &self.pairs {
            let key = fields::field_key(field);
            fields::apply(&mut sheet, field, value)
                .map_err(|e| unchanged(&format!("{}: {e}", escape(&key))))?;
            if let Sheet::Tft(s) = &sheet
                && !house_rules
            {
                house_gear_set(s, &key)?;
            }
        }
        if !self.skills.is_empty() && system != System::Thiz {
            return Err(user(
                "skills are THIZ's; a TFT figure takes talents: fields:\"talents Sword, Shield\". Nothing was made.",
            ));
        }
        if self.skills.len() > MAX_SKILLS {
            return Err(unchanged(&format!(
                "a sheet holds at most {MAX_SKILLS} skills"
            )));
        }
        Ok(sheet)
    }

    /// "\nFilled in: st 12, Speed 4." (empty when nothing was).
    fn line(&self) -> String {
        let mut filled_in: Vec<String> = self
            .pairs
            .iter()
            .map(|(f, v)| format!("{} {}", escape(&fields::field_key(f)), escape(v.trim())))
            .collect();
        filled_in.extend(
            self.skills
                .iter()
                .filter(|(_, r)| *r > 0)
                .map(|(s, r)| format!("{} {r}", escape(&s.to_string()))),
        );
        if filled_in.is_empty() {
            String::new()
        } else {
            format!("\nFilled in: {}.", filled_in.join(", "))
        }
    }
}

pub(super) fn create(
    ctx: &Ctx<'_>,
    name: &str,
    system: Option<System>,
    npc: bool,
    filled: &Filled,
) -> AppResult<Reply> {
    let defaulted = system.is_none();
    let system = system.unwrap_or(ctx.settings.default_system);
    if npc && !ctx.is_gm() {
        return Err(user(
            "Only a GM can make an NPC (npc:true); leave npc out to make your own character.",
        ));
    }
    let guild = ctx.caller.guild;
    let sheet = filled.sheet(ctx, system)?.to_json();
    ctx.app.store.write(|tx| -> AppResult<()> {
        let new = NewCharacter {
            name,
            system,
            owner_id: ctx.caller.user,
            npc,
            sheet_json: &sheet,
        };
        name_free(tx, guild, name, None)?;
        let id = characters::create(tx, guild, &new)?.ok_or_else(|| name_taken(name))?;
        if system == System::Thiz {
            roll_secret_luck(ctx, tx, id, "/character create")?;
        }
        for (skill, rating) in &filled.skills {
            if *rating > 0 {
                characters::set_skill(tx, guild, id, &skill.to_string(), *rating)?;
            }
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
    let filled_line = filled.line();
    let embed = Embed {
        title: format!("{shown} is ready"),
        description: format!(
            "A new {system_name} {}{default}.{filled_line}\n{first_steps}",
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

/// `/character set name field value`: owner or GM. With the house rules off, the house rules'
/// fine armor and metal small shield are refused (tft-house-rules.txt, "Fine Armor",
/// "Shields").
pub(super) fn set(ctx: &Ctx<'_>, name: &str, pairs: &[(String, String)]) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let house_rules = crate::app::tft::shared::house_rules(ctx);
    let many = pairs.len() > 1;
    let (who, shown) = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        let mut sheet = Sheet::of(&c)?;
        let mut shown = Vec::with_capacity(pairs.len());
        // Several fields are written together or not at all: the first that cannot be, the
        // reason (and which one, when there are several).
        for (field, value) in pairs {
            let key = fields::field_key(field);
            let which = |e: &str| {
                if many {
                    unchanged(&format!("{}: {e}", escape(&key)))
                } else {
                    unchanged(e)
                }
            };
            if LOCKED_FIELDS.contains(&key.as_str()) {
                held(ctx, tx, &c, &key)?;
            }
            fields::apply(&mut sheet, field, value).map_err(|e| which(&e))?;
            if let Sheet::Tft(s) = &sheet
                && !house_rules
            {
                house_gear_set(s, &key)?;
            }
            shown.push(format!(
                "{} is now {}",
                escape(&key),
                escape(&fields::describe(&sheet, field))
            ));
        }
        characters::set_sheet(tx, guild, c.id, &sheet.to_json())?;
        Ok((c.name, shown))
    })?;
    let said = format!("{}: {}.", escape(&who), shown.join("; "));
    Ok(told_the_gm(ctx, Reply::ephemeral(said.clone()), &said))
}

/// The fields of an approved sheet its player no longer sets (while the guild's switch
/// `sheets_lock_when_approved` is on): what the creation rules and the points count, which
/// advancement changes. A player still sets the descriptive ones (homeland, parents, notes)
/// and what a figure wears (TFT armor and shield).
pub(super) const LOCKED_FIELDS: [&str; 16] = [
    "parent_skill",
    "weaknesses",
    "quirks",
    "missing_limb",
    "handedness",
    "sessions",
    "specials",
    "st",
    "dx",
    "iq",
    "sp",
    "ma",
    "talents",
    "spells",
    "xp",
    "mana",
];

/// Refuses a player's change of `what` on an approved sheet while the guild holds approved
/// sheets (issue 57: a player raised ST and DX to 14/14 after play had begun, and nothing
/// asked). A GM changes anything.
fn held(ctx: &Ctx<'_>, tx: &Conn, c: &Character, what: &str) -> AppResult<()> {
    if ctx.is_gm()
        || !crate::app::house::house_rule(
            &ctx.settings,
            crate::app::house::SHEETS_LOCK_WHEN_APPROVED,
        )
        || characters::approved_by(tx, ctx.caller.guild, c.id)?.is_none()
    {
        return Ok(());
    }
    Err(user(format!(
        "{}'s sheet was approved by a GM, so its {} changes through advancement now (/advance spend for THIZ skills), or a GM changes it. Nothing was changed.",
        escape(&c.name),
        escape(what)
    )))
}

/// A player's change to a sheet, told to the GM channel too (issue 57: the GM hears of every
/// change a player makes); a GM's own is not copied. Without a GM channel the copy has nowhere
/// to go, and the reply claims none (`App` drops a player's copy then).
fn told_the_gm(ctx: &Ctx<'_>, reply: Reply, said: &str) -> Reply {
    if ctx.is_gm() {
        return reply;
    }
    reply.with_gm_copy(Reply::public(format!(
        "Sheet change by {}: {said}",
        escape(&ctx.caller.name)
    )))
}

/// `/character approve name [undo]` (GM): approves the sheet (or takes the approval back).
/// While the guild's switch `sheets_lock_when_approved` is on, an approved sheet's attributes,
/// traits and skills change by its player only through advancement ([`held`]).
// Decision (issue 57): approval is a GM's command per character, not a date or a first roll,
// since a table decides when play has begun; the switch is on by default, so a server that
// never set it holds every sheet a GM has approved, and none before.
pub(super) fn approve(ctx: &Ctx<'_>, name: &str, undo: bool) -> AppResult<Reply> {
    ctx.gm()?;
    let guild = ctx.caller.guild;
    let c = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        let by = (!undo).then_some(ctx.caller.user);
        characters::set_approval(tx, guild, c.id, by)?;
        Ok(c)
    })?;
    let held =
        crate::app::house::house_rule(&ctx.settings, crate::app::house::SHEETS_LOCK_WHEN_APPROVED);
    let name = escape(&c.name);
    Ok(Reply::public(match (undo, held) {
        (true, _) => format!(
            "{name}'s sheet is no longer approved: its player may change it again with /character set and /character skill."
        ),
        (false, true) => format!(
            "{name}'s sheet is approved: from now on its player changes its attributes, traits and skills only through advancement (/advance), and a GM changes anything."
        ),
        (false, false) => format!(
            "{name}'s sheet is approved. The server does not hold approved sheets (/gm rules sheets_lock_when_approved is off), so its player may still change it."
        ),
    }))
}

/// `/character skill name skill rating`: THIZ, owner or GM; 0 removes the skill.
/// `/character use name`: the caller acts with `name` in its system from now on, wherever a
/// command names no character (as Avrae's active character); another character named in a
/// command does not change it.
pub(super) fn use_character(ctx: &Ctx<'_>, name: &str) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let c = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        characters::set_active(tx, guild, ctx.caller.user, c.system, c.id)?;
        Ok(c)
    })?;
    let system = match c.system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    };
    Ok(Reply::ephemeral(format!(
        "You now act as {} in {system}: commands that name no character take {}. /character use changes it.",
        escape(&c.name),
        if c.npc { "this NPC" } else { "them" }
    )))
}

pub(super) fn skill(ctx: &Ctx<'_>, name: &str, skill: &SkillId, rating: i64) -> AppResult<Reply> {
    skills(ctx, name, &[(skill.clone(), rating)])
}

/// `/character skill name skill rating`, or `skills:"Speed 4, Stealth 3"`: THIZ, owner or GM;
/// 0 removes a skill. Several in one line are written together or not at all (the first that
/// cannot be, the reason).
pub(super) fn skills(ctx: &Ctx<'_>, name: &str, list: &[(SkillId, i64)]) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let who = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = ctx.acting_character(tx, Some(name))?;
        Sheet::of(&c)?.thiz()?;
        held(ctx, tx, &c, "skills")?;
        for (skill, rating) in list {
            let skill_name = skill.to_string();
            let skills = characters::skills(tx, guild, c.id)?;
            let has = skills.iter().any(|s| {
                SkillId::parse(&s.skill).is_ok_and(|id| &id == skill)
                    || characters::name_key(&s.skill) == characters::name_key(&skill_name)
            });
            if *rating == 0 && !has {
                return Err(user(format!(
                    "{} has no {}; nothing to remove, and nothing was changed.",
                    escape(&c.name),
                    escape(&skill_name)
                )));
            }
            if !has && skills.len() >= MAX_SKILLS {
                return Err(unchanged(&format!(
                    "a sheet holds at most {MAX_SKILLS} skills"
                )));
            }
            characters::set_skill(tx, guild, c.id, &skill_name, *rating)?;
        }
        Ok(c.name)
    })?;
    let said: Vec<String> = list
        .iter()
        .map(|(skill, rating)| {
            let skill_name = escape(&skill.to_string());
            if *rating == 0 {
                format!("{skill_name} removed")
            } else {
                format!("{skill_name} is now {rating}")
            }
        })
        .collect();
    let said = format!("{}: {}.", escape(&who), said.join("; "));
    Ok(told_the_gm(ctx, Reply::ephemeral(said.clone()), &said))
}

/// With the house rules off: refuses the house rules' armor or shield just written to `field`.
fn house_gear_set(s: &crate::app::sheet::TftSheet, field: &str) -> AppResult<()> {
    let house = match field {
        "armor" => s
            .armor
            .as_deref()
            .and_then(|a| gear::armor(a).ok())
            .filter(|a| a.kind.is_fine())
            .map(|a| a.name),
        "shield" => s
            .shield
            .as_deref()
            .and_then(|x| gear::shield(x).ok())
            .filter(|x| x.kind != x.kind.plain())
            .map(|x| x.name),
        _ => None,
    };
    match house {
        Some(name) => Err(crate::app::tft::shared::house_rule_off(name)),
        None => Ok(()),
    }
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
        ("thrown", numbers.thrown.is_some()),
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

/// Whether a THIZ weapon is marked thrown. A thrown weapon is the missile itself, so it shoots
/// nothing: `missile_kind` beside it is refused.
fn thrown(n: &GearNumbers) -> AppResult<bool> {
    if n.thrown == Some(true) && n.missile_kind.is_some() {
        return Err(unchanged(
            "missile_kind is what a missile weapon shoots; a thrown weapon is the missile itself, so give thrown or missile_kind, not both",
        ));
    }
    Ok(n.thrown.unwrap_or(false))
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
///
/// With `house_rules` false (a table without them), a TFT weapon of the house rules (the Great
/// Bow, the lance, the pike) and any weapon quality but plain (good and fine weapons) are
/// refused, naming the switch (tft-house-rules.txt, "Equipment").
pub(super) fn item_row(
    system: System,
    item: &str,
    kind: ItemKind,
    n: &GearNumbers,
    house_rules: bool,
) -> AppResult<(String, ItemStats)> {
    let mut stats = ItemStats::default();
    let name = match (system, kind) {
        (System::Thiz, ItemKind::Weapon) => {
            refuse_numbers(
                n,
                &[
                    "attack_bonus",
                    "missile",
                    "family",
                    "missile_kind",
                    "thrown",
                ],
                "a weapon",
            )?;
            stats.thrown = thrown(n)?;
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
            if !house_rules {
                if let Some(w) = gear::weapon(&name).ok().filter(|w| w.house_rule) {
                    return Err(crate::app::tft::shared::house_rule_off(&format!(
                        "The {}",
                        w.name
                    )));
                }
                if let Some(q) = n
                    .quality
                    .as_deref()
                    .filter(|q| Quality::parse(q).is_some_and(|q| q != Quality::Plain))
                {
                    return Err(crate::app::tft::shared::house_rule_off(&format!(
                        "A weapon's quality ({}: good and fine weapons)",
                        escape(q.trim())
                    )));
                }
            }
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
    let reply = ctx.app.store.write(|tx| -> AppResult<Reply> {
        let c = ctx.acting_character(tx, Some(name))?;
        let who = escape(&c.name);
        match change {
            GearChange::Add {
                item,
                kind,
                numbers,
            } => {
                let house_rules = crate::app::tft::shared::house_rules(ctx);
                let (item, stats) = item_row(c.system, item, *kind, numbers, house_rules)?;
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
    })?;
    let said = reply.content.clone();
    Ok(told_the_gm(ctx, reply, &said))
}

/// `/character delete name`: owner or GM. Asks first, with a button: the delete itself is
/// [`confirm_delete`].
pub(super) fn delete(ctx: &Ctx<'_>, name: &str) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let (c, channels) = ctx.app.store.read(|conn| {
        Ok(ctx.acting_character(conn, Some(name)).and_then(|c| {
            let channels = crate::app::encounter::loaded::channels_with(conn, guild, c.id)?;
            Ok((c, channels))
        }))
    })??;
    let shown = escape(&c.name);
    let mut description = format!(
        "{shown} leaves this server's list. The sheet, notes and luck are kept for {KEPT_DAYS} days, \
         and only a GM can bring {shown} back (/character restore), just as {shown} was."
    );
    for channel in channels {
        let _ = write!(
            description,
            "\n{shown} is in the fight in <#{channel}> and will leave it."
        );
    }
    Ok(Reply::ephemeral("")
        .with_embed(Embed {
            title: format!("Delete {shown}?"),
            description,
            tone: Some(Tone::Red),
            ..Embed::default()
        })
        .with_button(Button {
            custom_id: format!("{DELETE_BUTTON}{}", c.id.0),
            label: truncate(&format!("Delete {}", c.name), 80),
            disabled: false,
        })
        .with_button(Button {
            custom_id: format!("{DELETE_BUTTON}{}:keep", c.id.0),
            label: "Keep".to_owned(),
            disabled: false,
        }))
}

/// The custom-id prefix of the delete confirmation's buttons: `chardel:<id>` deletes,
/// `chardel:<id>:keep` keeps.
pub const DELETE_BUTTON: &str = "chardel:";

/// How long a deleted character is kept for a GM to restore, in days.
pub const KEPT_DAYS: i64 = characters::KEPT_FOR_SECS / 86_400;

/// The answer to a press on a delete button for a character that is not there to delete.
fn gone() -> crate::app::AppError {
    user(
        "That character is deleted already (or was never here), so nothing changed; /character list shows the ones here.",
    )
}

/// A press of the delete confirmation's buttons (`keep` true: "Keep").
pub(super) fn confirm_delete(ctx: &Ctx<'_>, id: CharacterId, keep: bool) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    if keep {
        let c = ctx
            .app
            .store
            .read(|conn| characters::by_id(conn, guild, id))?
            .filter(|c| ctx.can_see(c))
            .ok_or_else(gone)?;
        return Ok(Reply::ephemeral(format!(
            "Kept {}; nothing was deleted.",
            escape(&c.name)
        )));
    }
    let (c, channels) = ctx.app.store.write(|tx| -> AppResult<_> {
        let c = characters::by_id(tx, guild, id)?
            .filter(|c| ctx.can_see(c))
            .ok_or_else(gone)?;
        if !ctx.can_act(&c) {
            return Err(user(format!(
                "{} belongs to another player; only they or a GM can delete it.",
                escape(&c.name)
            )));
        }
        let channels =
            crate::app::encounter::loaded::leave_all(tx, guild, c.id, "the character was deleted")?;
        if !characters::soft_delete(tx, guild, c.id, ctx.caller.user)? {
            return Err(gone());
        }
        mark(
            ctx,
            tx,
            c.id,
            LuckKind::Deleted,
            "/character delete: kept for a GM to restore",
        )?;
        Ok((c, channels))
    })?;
    let shown = escape(&c.name);
    let mut lines = vec![format!(
        "Deleted {shown}. A GM can bring {shown} back within {KEPT_DAYS} days with /character restore name:{shown}."
    )];
    for channel in &channels {
        lines.push(format!("{shown} left the fight in <#{channel}>."));
    }
    let told = ctx.settings.gm_channel_id.is_some();
    if told {
        lines.push("The GM channel was told.".to_owned());
    }
    let system = match c.system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    };
    let kind = if c.npc { "NPC" } else { "character" };
    let copy = Reply::public(format!(
        "{} deleted {shown} ({system} {kind}, <@{}>'s). It is kept for {KEPT_DAYS} days, luck and notes as they are now: /character restore name:{shown} brings it back.",
        escape(&ctx.caller.name),
        c.owner_id.0
    ));
    let reply = Reply::ephemeral(lines.join("\n"));
    Ok(if told {
        reply.with_gm_copy(copy)
    } else {
        reply
    })
}

/// A line in the GM's luck log that changes nothing: a delete or a restore.
fn mark(ctx: &Ctx<'_>, tx: &Conn, id: CharacterId, kind: LuckKind, reason: &str) -> AppResult<()> {
    let entry = LedgerEntry {
        actor: ctx.caller.user,
        kind,
        reason,
        roll: None,
        idem_key: None,
    };
    Ok(secrets::mark_ledger(tx, ctx.caller.guild, id, &entry)?)
}

/// `/character restore name`: a GM brings a deleted character back, as it was when deleted (its
/// luck included), under its own name if that is still free and looks like no other.
pub(super) fn restore(ctx: &Ctx<'_>, name: &str, new_name: Option<&str>) -> AppResult<Reply> {
    ctx.gm()?;
    let guild = ctx.caller.guild;
    let key = characters::name_key(name);
    let c = ctx.app.store.write(|tx| -> AppResult<_> {
        let kept = characters::deleted(tx, guild)?;
        let Some(d) = kept
            .into_iter()
            .find(|d| characters::name_key(&d.character.name) == key)
        else {
            return Err(user(format!(
                "No deleted character named {} is kept here (deleted characters are kept {KEPT_DAYS} days); /character list shows a GM the ones that are.",
                escape(name.trim())
            )));
        };
        let mut c = d.character;
        // Issue 59: a name taken again since is no dead end; new_name brings it back as another.
        let as_name = new_name.unwrap_or(&c.name).to_owned();
        name_free(tx, guild, &as_name, None).map_err(|e| {
            let why = e.to_string();
            let why = why.trim_start_matches("Nothing changed: ");
            user(if new_name.is_some() {
                format!("{} cannot come back as {}: {why}", escape(&c.name), escape(&as_name))
            } else {
                format!(
                    "{} cannot come back under its name: {why} Name another with new_name:….",
                    escape(&c.name)
                )
            })
        })?;
        if !characters::restore(tx, guild, c.id, new_name)? {
            return Err(name_taken(&as_name));
        }
        mark(ctx, tx, c.id, LuckKind::Restored, "/character restore: back as it was when deleted")?;
        let was = std::mem::replace(&mut c.name, as_name);
        Ok((c, was))
    })?;
    let (c, was) = c;
    let renamed = if was == c.name {
        String::new()
    } else {
        format!(" (it was {})", escape(&was))
    };
    Ok(Reply::ephemeral(format!(
        "Restored {}{renamed} to <@{}>, as it was when deleted: sheet, notes and luck. It is not back in any fight; /encounter add puts it in one.",
        escape(&c.name),
        c.owner_id.0
    )))
}

/// Refuses a name that another character here has, or one that looks the same (the confusable
/// skeleton of `fields::confusable_key`): "Zoe" beside "Zoe", "ZOE", "Zоe" (Cyrillic о).
/// `except` is the character being renamed or restored.
pub(super) fn name_free(
    conn: &Conn,
    guild: crate::store::GuildId,
    name: &str,
    except: Option<CharacterId>,
) -> AppResult<()> {
    let key = characters::name_key(name);
    let look = fields::confusable_key(name);
    for other in characters::all(conn, guild)? {
        if Some(other.id) == except {
            continue;
        }
        if characters::name_key(&other.name) == key {
            return Err(name_taken(name));
        }
        if fields::confusable_key(&other.name) == look {
            return Err(user(format!(
                "The name {} looks the same as {}, who is here already; pick a name that reads differently.",
                escape(name),
                escape(&other.name)
            )));
        }
    }
    Ok(())
}
