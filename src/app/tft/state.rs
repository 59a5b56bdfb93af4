//! Figures that fall, heal, drop and break: `/tft heal`, `/tft stand`, `/tftkit pickup`,
//! `/tft repair` and `/tft condition`, the refusal of an attack by a figure that cannot act, and
//! the states an attack leaves on the sheet (knocked down, a dropped or broken weapon).
//!
//! Owns the `knocked_down`, `dead` and `stable` fields of the TFT sheet and the `dropped` and
//! `broken` flags of a carried weapon. Unconscious and dying are never stored: they follow from ST left (hits and
//! fatigue against ST), so healing above 0 ST clears them and a GM's correction of the hits is
//! never out of step with them. Every number comes from `rules::tft::injury`.

use crate::store::Conn;

use super::shared::{condition_marked, field, st_left, tft_sheet};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::screen;
use crate::app::sheet::{ItemStats, Sheet, TftSheet};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::damage::DamageResolution;
use crate::rules::tft::injury::{self, Condition, Healing, MAX_HEALING, Unable};
use crate::store::GuildId;
use crate::store::characters::{self, Character, Item};

/// The most hits or fatigue a GM may set (the injury rules' own bound on hits).
const MAX_SET: i64 = 10_000;
/// The most healing potions drunk at once.
const MAX_POTIONS: i64 = 100;

/// ST left of `c`, from the store.
fn st_left_of(conn: &Conn, guild: GuildId, c: &Character, sheet: &TftSheet) -> AppResult<i32> {
    let (hits, fatigue) = characters::tft_damage(conn, guild, c.id)?;
    Ok(st_left(sheet, hits, fatigue))
}

/// Refuses an attack by a figure that cannot act, before any die is rolled.
pub(super) fn ready_to_attack(
    conn: &Conn,
    guild: GuildId,
    c: &Character,
    sheet: &TftSheet,
) -> AppResult<()> {
    ready_to_act(conn, guild, c, sheet, "attack")
}

/// Refuses `doing` (an attack, picking up a weapon) by a figure that cannot act.
pub(super) fn ready_to_act(
    conn: &Conn,
    guild: GuildId,
    c: &Character,
    sheet: &TftSheet,
    doing: &str,
) -> AppResult<()> {
    let left = st_left_of(conn, guild, c, sheet)?;
    let name = escape(&c.name);
    match injury::unable_to_attack(left, sheet.knocked_down, sheet.dead) {
        None => Ok(()),
        Some(Unable::Dying | Unable::Unconscious) if sheet.stable => Err(user(format!(
            "{name} is unconscious at {left} ST and cannot {doing} until healed (/tft heal)."
        ))),
        Some(Unable::Dead) => Err(user(format!("{name} is dead and cannot {doing}."))),
        Some(Unable::Dying) => Err(user(format!(
            "{name} is dying at {left} ST and cannot {doing}; /tft dying rolls to live."
        ))),
        Some(Unable::Unconscious) => Err(user(format!(
            "{name} is unconscious at 0 ST and cannot {doing} until healed (/tft heal)."
        ))),
        Some(Unable::KnockedDown) => Err(user(format!(
            "{name} is knocked down and must stand up first (/tft stand, which takes the turn)."
        ))),
    }
}

/// Whether a carried weapon is broken.
pub(super) fn is_broken(item: &Item) -> bool {
    serde_json::from_str::<ItemStats>(&item.stats_json).is_ok_and(|s| s.broken)
}

/// The refusal for a broken weapon.
pub(super) fn broken_refusal(owner: &str, item: &Item) -> crate::app::AppError {
    user(format!(
        "{}'s {} is broken; a GM repairs it with /tft repair, or replace it with /character gear (or choose another weapon:).",
        escape(owner),
        escape(&item.name)
    ))
}

/// Writes what a landed blow did to the target's sheet: a figure knocked down, or fallen
/// unconscious or dying (it is on the ground too), is down until it stands; a figure hurt again
/// after living through the roll to live is in danger again.
pub(super) fn record_blow(
    conn: &Conn,
    guild: GuildId,
    target: &Character,
    sheet: &TftSheet,
    damage: Option<&DamageResolution>,
) -> AppResult<()> {
    let Some(d) = damage else { return Ok(()) };
    let mut after = sheet.clone();
    if d.after.knocked_down || d.applied.condition != Condition::Conscious {
        after.knocked_down = true;
    }
    if d.applied.hits > 0 {
        after.stable = false;
    }
    save_sheet(conn, guild, target, sheet, &after)
}

/// Puts a figure on the ground (a caster fallen prone, or out of ST): down until it stands.
pub(super) fn record_fall(conn: &Conn, guild: GuildId, c: &Character) -> AppResult<()> {
    let sheet = tft_sheet(c)?;
    let after = TftSheet {
        knocked_down: true,
        ..sheet.clone()
    };
    save_sheet(conn, guild, c, &sheet, &after)
}

/// Whether a carried weapon lies where it was dropped.
pub(super) fn is_dropped(item: &Item) -> bool {
    serde_json::from_str::<ItemStats>(&item.stats_json).is_ok_and(|s| s.dropped)
}

/// The refusal for a dropped weapon.
pub(super) fn dropped_refusal(owner: &str, item: &Item) -> crate::app::AppError {
    user(format!(
        "{}'s {} was dropped; pick it up first with /tftkit pickup (which takes the turn), or choose another weapon:.",
        escape(owner),
        escape(&item.name)
    ))
}

/// Marks the carried weapon `item` dropped (tft-rules-summary.md, "ROLLING TO HIT": 17, drop
/// weapon); a weapon from the table, not carried, has nothing to mark.
pub(super) fn record_drop(
    conn: &Conn,
    guild: GuildId,
    owner: &Character,
    item: Option<i64>,
) -> AppResult<()> {
    mark_weapon(conn, guild, owner, item, |s| s.dropped = true)
}

/// Marks the carried weapon `item` broken (a weapon from the table, not carried, has nothing
/// to mark).
pub(super) fn record_break(
    conn: &Conn,
    guild: GuildId,
    owner: &Character,
    item: Option<i64>,
) -> AppResult<()> {
    mark_weapon(conn, guild, owner, item, |s| s.broken = true)
}

fn mark_weapon(
    conn: &Conn,
    guild: GuildId,
    owner: &Character,
    item: Option<i64>,
    mark: impl FnOnce(&mut ItemStats),
) -> AppResult<()> {
    let Some(item) = item else { return Ok(()) };
    let Some(found) = characters::items(conn, guild, owner.id)?
        .into_iter()
        .find(|i| i.id == item)
    else {
        return Ok(());
    };
    restat(conn, guild, owner, &found, mark)
}

/// Writes `item`'s stats back with `change` made to them.
fn restat(
    conn: &Conn,
    guild: GuildId,
    owner: &Character,
    item: &Item,
    change: impl FnOnce(&mut ItemStats),
) -> AppResult<()> {
    let mut stats: ItemStats = serde_json::from_str(&item.stats_json).unwrap_or_default();
    change(&mut stats);
    let json = serde_json::to_string(&stats).map_err(|e| anyhow::anyhow!(e))?;
    characters::set_item_stats(conn, guild, owner.id, item.id, &json)?;
    Ok(())
}

pub(super) fn save_sheet(
    conn: &Conn,
    guild: GuildId,
    c: &Character,
    before: &TftSheet,
    after: &TftSheet,
) -> AppResult<()> {
    if before != after {
        characters::set_sheet(conn, guild, c.id, &Sheet::Tft(after.clone()).to_json())?;
    }
    Ok(())
}

/// Public for a player character; only the caller sees a reply about an NPC.
fn reply_about(c: &Character, embed: Embed) -> Reply {
    if c.npc {
        Reply::ephemeral("").with_embed(embed)
    } else {
        Reply::public("").with_embed(embed)
    }
}

/// The figure's hits, ST left and condition after a change; an NPC's numbers marked as the
/// GM's (`app::screen`), so no copy of the reply a player could read carries them.
fn state_embed(
    title: String,
    description: String,
    c: &Character,
    sheet: &TftSheet,
    (hits, fatigue): (i64, i64),
) -> Embed {
    let left = st_left(sheet, hits, fatigue);
    Embed {
        title,
        description,
        tone: Some(Tone::Info),
        fields: vec![
            field(
                "Hits",
                screen::npc(
                    c.npc,
                    format!("{hits} taken, {left} ST left · fatigue {fatigue}"),
                ),
                false,
            ),
            field("Condition", condition_marked(sheet, left, c.npc), false),
        ],
        footer: None,
    }
}

// ---------------------------------------------------------------------------------------------
// /tft heal

// Decision: the sources give no rate of natural healing and no rate of fatigue recovery by rest
// (tft-rules-summary.md says only that a spell's ST is fatigue marked as hits; the house rules
// give the 5 weeks of the survivor's recovery and the healing potion's 4 ST). So the bot heals
// nothing by itself: rest and natural healing are the `hits` and `fatigue` the GM gives
// `/tft heal`, and only the numbers the sources print (a potion's 4, First Aid's 1) are counted
// by the bot (docs/rulings.md).
/// A parsed `/tft heal character [hits] [fatigue] [potions] [first_aid]`.
#[derive(Debug, Clone)]
pub struct Heal {
    character: String,
    healing: Healing,
}

impl Heal {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &["character", "hits", "fatigue", "potions", "first_aid"],
        )?;
        let max = i64::from(MAX_HEALING);
        let healing = Healing {
            hits: o.int("hits", 0, max)?.unwrap_or(0) as i32,
            fatigue: o.int("fatigue", 0, max)?.unwrap_or(0) as i32,
            potions: o.int("potions", 0, MAX_POTIONS)?.unwrap_or(0) as i32,
            first_aid: o.flag("first_aid")?,
        };
        if healing == Healing::default() {
            return Err(user(
                "Say what heals: hits:, fatigue:, potions: (4 hits each) or first_aid:true (1 hit).",
            ));
        }
        Ok(Self {
            character: o.required("character")?.to_owned(),
            healing,
        })
    }

    /// tft-house-rules.txt, "First Aid": the talent is the house rules'; potions, hits and
    /// fatigue are not.
    pub(super) fn house_rule(&self) -> Option<&'static str> {
        self.healing.first_aid.then_some("First Aid")
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        // Decision: healing is the GM's to give, as `/wound heal` is for THIZ (SPEC §2); the
        // sources give no rate for rest, so the GM states it. One exception (issue 32): a
        // player's figure drinks its own healing potions, potions:N alone, from the "Healing
        // Potion" items on its sheet (tft-rules-summary.md, "EQUIPMENT": a potion restores 4
        // ST), which the drink uses up; only while it is awake (above 0 ST: a figure out cold
        // drinks nothing itself, someone gives it, and that is the GM's /tft heal). A GM's
        // potions stay as they were: given, from no sheet.
        let own_potions = !ctx.is_gm();
        if own_potions
            && (self.healing.potions == 0
                || self.healing
                    != (Healing {
                        potions: self.healing.potions,
                        ..Healing::default()
                    }))
        {
            return Err(user(
                "Only a GM heals hits, fatigue and First Aid with /tft heal; a player's figure drinks its own healing potions with potions:N alone.",
            ));
        }
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = if own_potions {
                ctx.acting_character(tx, Some(&self.character))?
            } else {
                ctx.find_character(tx, &self.character)?
            };
            let sheet = tft_sheet(&c)?;
            let name = escape(&c.name);
            if sheet.dead {
                return Err(user(format!(
                    "{name} is dead; healing cannot help (a GM undoes a death with /tft condition dead:false)."
                )));
            }
            let (hits, fatigue) = characters::tft_damage(tx, guild, c.id)?;
            if hits <= 0 && fatigue <= 0 {
                return Err(user(format!("{name} has no hits or fatigue to heal.")));
            }
            if own_potions {
                drink_own(tx, &c, &sheet, (hits, fatigue), self.healing.potions)?;
            }
            let clamp = |n: i64| n.clamp(0, MAX_SET) as i32;
            let healed = injury::heal(clamp(hits), clamp(fatigue), self.healing).map_err(user)?;
            let (hits_after, fatigue_after) = (
                i64::from(healed.hits_after),
                i64::from(healed.fatigue_after),
            );
            characters::set_tft_damage(tx, guild, c.id, hits_after, fatigue_after)?;
            let mut after = sheet.clone();
            if st_left(&after, hits_after, fatigue_after) > 0 {
                // Back above 0 ST: awake, and out of the dying rules.
                after.stable = false;
            }
            save_sheet(tx, guild, &c, &sheet, &after)?;
            let mut parts = Vec::new();
            if self.healing.hits > 0 {
                parts.push(format!("{} hits", self.healing.hits));
            }
            if self.healing.potions > 0 {
                parts.push(format!(
                    "{} healing potion{} ({} hits){}",
                    self.healing.potions,
                    if self.healing.potions == 1 { "" } else { "s" },
                    self.healing.potions * injury::POTION_HITS,
                    if own_potions {
                        ", drunk from the sheet"
                    } else {
                        ""
                    }
                ));
            }
            if self.healing.first_aid {
                parts.push(format!("First Aid ({} hit)", injury::FIRST_AID_HITS));
            }
            if self.healing.fatigue > 0 {
                parts.push(format!("{} fatigue", self.healing.fatigue));
            }
            let description = format!(
                "Healed: {}. {}.",
                parts.join(", "),
                screen::npc(
                    c.npc,
                    format!(
                        "Hits {} → {}, fatigue {} → {}",
                        healed.hits_before,
                        healed.hits_after,
                        healed.fatigue_before,
                        healed.fatigue_after
                    )
                )
            );
            Ok(reply_about(
                &c,
                state_embed(
                    format!("{name} heals"),
                    description,
                    &c,
                    &after,
                    (hits_after, fatigue_after),
                ),
            ))
        })
    }
}

/// The name of a healing potion carried on a sheet (tft-rules-summary.md, "EQUIPMENT").
const HEALING_POTION: &str = "healing potion";

/// A player's figure drinks `count` of its own healing potions: refused out cold or without
/// enough of them carried; otherwise they leave the sheet (the caller's transaction heals).
fn drink_own(
    tx: &Conn,
    c: &Character,
    sheet: &TftSheet,
    (hits, fatigue): (i64, i64),
    count: i32,
) -> AppResult<()> {
    let name = escape(&c.name);
    let left = st_left(sheet, hits, fatigue);
    if left <= 0 {
        return Err(user(format!(
            "{name} is out cold at {left} ST and cannot drink; another figure gives the potion, and a GM records it with /tft heal."
        )));
    }
    let carried = characters::items(tx, c.guild_id, c.id)?
        .iter()
        .filter(|i| characters::name_key(&i.name) == HEALING_POTION)
        .count();
    let carried = u32::try_from(carried).unwrap_or(u32::MAX);
    let wanted = u32::try_from(count).unwrap_or(0);
    if carried < wanted {
        return Err(user(format!(
            "{name} carries {} and cannot drink {wanted}; a potion on the sheet is an item named Healing Potion (/character gear action:add item:\"Healing Potion\").",
            crate::app::text::count(carried, "healing potion", "healing potions")
        )));
    }
    for _ in 0..wanted {
        characters::remove_item(tx, c.guild_id, c.id, HEALING_POTION)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// /tft stand

/// A parsed `/tft stand [character]`.
#[derive(Debug, Clone)]
pub struct Stand {
    character: Option<String>,
}

impl Stand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["character"])?;
        Ok(Self {
            character: o.text("character").map(str::to_owned),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let name = escape(&c.name);
            let left = st_left_of(tx, guild, &c, &sheet)?;
            match injury::unable_to_attack(left, sheet.knocked_down, sheet.dead) {
                Some(Unable::KnockedDown) => {}
                // Down only by the tracker's count (a GM's `/encounter timer … what:"knocked
                // down"`): standing ends that.
                None => {
                    let lines = crate::app::encounter::hooks::tft_stood_up(ctx, tx, c.id)?;
                    if lines.is_empty() {
                        return Err(user(format!("{name} is not knocked down.")));
                    }
                    let (hits, fatigue) = characters::tft_damage(tx, guild, c.id)?;
                    return Ok(reply_about(
                        &c,
                        state_embed(
                            format!("{name} stands up"),
                            format!(
                                "Standing takes this turn; the figure may attack from the next.\n{}",
                                lines.join("\n")
                            ),
                            &c,
                            &sheet,
                            (hits, fatigue),
                        ),
                    ));
                }
                Some(Unable::Dead) => return Err(user(format!("{name} is dead."))),
                Some(Unable::Dying | Unable::Unconscious) => {
                    return Err(user(format!(
                        "{name} is out cold at {left} ST and cannot stand until healed above 0 ST."
                    )));
                }
            }
            let after = TftSheet {
                knocked_down: false,
                ..sheet.clone()
            };
            save_sheet(tx, guild, &c, &sheet, &after)?;
            let (hits, fatigue) = characters::tft_damage(tx, guild, c.id)?;
            let mut said = "Standing takes this turn; the figure may attack from the next.".to_owned();
            for line in crate::app::encounter::hooks::tft_stood_up(ctx, tx, c.id)? {
                said.push('\n');
                said.push_str(&line);
            }
            Ok(reply_about(
                &c,
                state_embed(format!("{name} stands up"), said, &c, &after, (hits, fatigue)),
            ))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// /tftkit pickup

/// A parsed `/tftkit pickup [character] [weapon]`.
#[derive(Debug, Clone)]
pub struct Pickup {
    character: Option<String>,
    weapon: Option<String>,
}

impl Pickup {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["character", "weapon"])?;
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            weapon: o.text("weapon").map(|w| w.trim().to_owned()),
        })
    }

    /// tft-rules-summary.md, "OPTIONS FOR ENGAGED FIGURES" ("PICK UP DROPPED WEAPON") and
    /// "READY NEW WEAPON" for a disengaged one: picking a dropped weapon up is the figure's
    /// option for the turn, so it strikes with it from the next.
    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let name = escape(&c.name);
            let items = characters::items(tx, guild, c.id)?;
            let dropped: Vec<&Item> = items
                .iter()
                .filter(|i| i.kind == "weapon" && is_dropped(i))
                .collect();
            let item = match self.weapon.as_deref() {
                Some(wanted) => {
                    let Some(item) = items
                        .iter()
                        .find(|i| i.kind == "weapon" && i.name.eq_ignore_ascii_case(wanted))
                    else {
                        return Err(user(format!(
                            "{name} carries no weapon named {}; /character show lists the equipment.",
                            escape(wanted)
                        )));
                    };
                    if !is_dropped(item) {
                        return Err(user(format!(
                            "{name}'s {} was not dropped; nothing to pick up.",
                            escape(&item.name)
                        )));
                    }
                    item
                }
                None => match dropped.as_slice() {
                    [] => {
                        return Err(user(format!(
                            "{name} has dropped no weapon; nothing to pick up."
                        )));
                    }
                    [one] => one,
                    more => {
                        let names: Vec<String> = more.iter().map(|i| escape(&i.name)).collect();
                        return Err(user(format!(
                            "{name} dropped {}; say which with weapon:.",
                            names.join(" and ")
                        )));
                    }
                },
            };
            // A figure that cannot act cannot bend for it either (a knocked-down one stands
            // first).
            ready_to_act(tx, guild, &c, &sheet, "pick anything up")?;
            // In a fight: the figure's turn (a player's, on it), and one of its actions, as a
            // spell or a disbelief is (tft-multiple-actions.txt, "Action Requirements").
            crate::app::encounter::hooks::tft_plain_action_before(
                ctx,
                tx,
                c.id,
                crate::rules::tft::multi::Action::PickUp,
            )?;
            restat(tx, guild, &c, item, |s| s.dropped = false)?;
            crate::app::encounter::hooks::tft_cast_after(ctx, tx, c.id, None)?;
            Ok(reply_about(
                &c,
                Embed {
                    title: format!("{name} picks up the {}", escape(&item.name)),
                    description: "Picking it up takes this turn; the figure strikes with it from the next."
                        .to_owned(),
                    tone: Some(Tone::Info),
                    fields: Vec::new(),
                    footer: None,
                },
            ))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// /tft repair

/// A parsed `/tft repair character weapon`.
#[derive(Debug, Clone)]
pub struct Repair {
    character: String,
    weapon: String,
}

impl Repair {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["character", "weapon"])?;
        Ok(Self {
            character: o.required("character")?.to_owned(),
            weapon: o.required("weapon")?.trim().to_owned(),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        // Decision: mending a weapon takes a smith's time and money, which the GM rules on; the
        // owner can always replace it (/character gear remove, then add).
        ctx.gm()?;
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = ctx.find_character(tx, &self.character)?;
            tft_sheet(&c)?;
            let name = escape(&c.name);
            let items = characters::items(tx, guild, c.id)?;
            let Some(item) = items
                .iter()
                .find(|i| i.kind == "weapon" && i.name.eq_ignore_ascii_case(&self.weapon))
            else {
                return Err(user(format!(
                    "{name} carries no weapon named {}; /character show lists the equipment.",
                    escape(&self.weapon)
                )));
            };
            if !is_broken(item) {
                return Err(user(format!(
                    "{name}'s {} is not broken.",
                    escape(&item.name)
                )));
            }
            restat(tx, guild, &c, item, |s| s.broken = false)?;
            Ok(reply_about(
                &c,
                Embed {
                    title: format!("{name}'s {} is repaired", escape(&item.name)),
                    description: "It can be used again.".to_owned(),
                    tone: Some(Tone::Info),
                    fields: Vec::new(),
                    footer: None,
                },
            ))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// /tft condition

/// A parsed `/tft condition character [hits] [fatigue] [knocked_down] [dead]`: a GM's
/// correction, setting the numbers and states as given.
#[derive(Debug, Clone)]
pub struct SetCondition {
    character: String,
    hits: Option<i64>,
    fatigue: Option<i64>,
    knocked_down: Option<bool>,
    dead: Option<bool>,
}

impl SetCondition {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &["character", "hits", "fatigue", "knocked_down", "dead"],
        )?;
        let flag = |name| o.text(name).map(|_| o.flag(name)).transpose();
        let parsed = Self {
            character: o.required("character")?.to_owned(),
            hits: o.int("hits", 0, MAX_SET)?,
            fatigue: o.int("fatigue", 0, MAX_SET)?,
            knocked_down: flag("knocked_down")?,
            dead: flag("dead")?,
        };
        if parsed.hits.is_none()
            && parsed.fatigue.is_none()
            && parsed.knocked_down.is_none()
            && parsed.dead.is_none()
        {
            return Err(user(
                "Say what to set: hits:, fatigue:, knocked_down: or dead:.",
            ));
        }
        Ok(parsed)
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        ctx.gm()?;
        let guild = ctx.caller.guild;
        ctx.app.store.write(|tx| -> AppResult<Reply> {
            let c = ctx.find_character(tx, &self.character)?;
            let sheet = tft_sheet(&c)?;
            let (hits_before, fatigue) = characters::tft_damage(tx, guild, c.id)?;
            let hits = self.hits.unwrap_or(hits_before);
            let fatigue = self.fatigue.unwrap_or(fatigue);
            characters::set_tft_damage(tx, guild, c.id, hits, fatigue)?;
            // Decision: in a fight, hits a GM adds are hits taken now (a hazard or a wall of
            // fire applied by hand) and count in the round's hits; a correction down takes
            // them off the counts again.
            let lines = crate::app::encounter::hooks::tft_hits(
                ctx,
                tx,
                c.id,
                hits - hits_before,
                sheet.st,
                false,
            )?;
            let mut after = sheet.clone();
            if self.hits.is_some() || self.fatigue.is_some() {
                // New numbers: any earlier roll to live no longer speaks for them.
                after.stable = false;
            }
            if let Some(down) = self.knocked_down {
                after.knocked_down = down;
            }
            if let Some(dead) = self.dead {
                after.dead = dead;
            }
            save_sheet(tx, guild, &c, &sheet, &after)?;
            Ok(crate::app::encounter::hooks::with_lines(
                Reply::ephemeral("").with_embed(state_embed(
                    format!("{} set", escape(&c.name)),
                    "The GM's correction is saved.".to_owned(),
                    &c,
                    &after,
                    (hits, fatigue),
                )),
                crate::app::invocation::RollMode::Public,
                &lines,
            ))
        })
    }
}
