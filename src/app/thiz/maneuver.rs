//! `/maneuver grapple|escape|trip|disarm|sunder|listen`: the combat actions meant to hinder, not
//! harm (thiz-rulebook.md, chapter 6 "Maneuvers" and "Sight"), each one check on the chart,
//! logged, with what it does to the sheets written in the same transaction.
//!
//! Decisions:
//! - Every rating is the better of the skill and its general rating (the rulebook's "X or
//!   General Physical"), less wound penalties: the actor's Head (and arms for weapon work) and
//!   the target's Head and legs on Speed.
//! - An escape is measured against the level of the holder's latest grapple of the character in
//!   the roll log; without one there is nothing to escape.
//! - Sundered equipment keeps its reduced bonus on the sheet and is removed at 0 or below; a
//!   Black Strength check wounds (Green) the armour's first location, or the weapon arm — the
//!   right arm — for a weapon.
//! - A disarm aims at the target's named weapon, else its first; a trip or disarm bonus for
//!   whips and hooks is the referee's number (`bonus`), and `flexible:true` gives the +3.

use std::fmt::Write as _;

use super::record::{ManeuverRecord, ThizRecord, rows_from_sheet};
use super::shared::{INPUT_LIMIT, int, level_text, mode, tone};
use super::stats::ThizChar;
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply};
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::thiz::combat::{
    DisarmResult, EscapeKind, ManeuverCheck, SunderInput, break_grapple, disarm, grapple, listen,
    sunder, throw_distance, trip,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::{Weakness, unlucky_mishap};
use crate::rules::thiz::{Level, Location};
use crate::store::Conn;
use crate::store::characters::{self, Character};
use crate::store::rolls;

/// Which maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Grapple,
    Escape,
    Trip,
    Disarm,
    Sunder,
    Listen,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Grapple => "grapple",
            Kind::Escape => "escape",
            Kind::Trip => "trip",
            Kind::Disarm => "disarm",
            Kind::Sunder => "sunder",
            Kind::Listen => "listen",
        }
    }
}

/// What a held grapple is used for on a later turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    Hold,
    Throw,
    Pin,
}

impl std::str::FromStr for Follow {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hold" => Ok(Follow::Hold),
            "throw" => Ok(Follow::Throw),
            "pin" => Ok(Follow::Pin),
            other => Err(format!(
                "then must be hold, throw or pin; you gave {:?}",
                crate::app::text::truncate(other, 40)
            )),
        }
    }
}

/// How a grappled character gets out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct How(EscapeKind);

impl std::str::FromStr for How {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reverse" => Ok(How(EscapeKind::Reverse)),
            "break" => Ok(How(EscapeKind::BreakFree)),
            other => Err(format!(
                "how must be reverse or break; you gave {:?}",
                crate::app::text::truncate(other, 40)
            )),
        }
    }
}

/// The options of `/maneuver …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManeuverArgs {
    pub kind: Kind,
    /// Who acts (`character` for escape and listen).
    pub actor: String,
    /// Who it is aimed at (the holder, for an escape).
    pub target: Option<String>,
    /// The actor's weapon (trip, disarm, sunder).
    pub weapon: Option<String>,
    /// The target's equipment aimed at (disarm, sunder).
    pub item: Option<String>,
    pub then: Option<Follow>,
    pub how: Option<How>,
    pub flexible: bool,
    pub berserk: bool,
    /// Feet to the sound (listen).
    pub distance: Option<u32>,
    /// A referee's bonus (trip: whips and hooks).
    pub bonus: i32,
    pub modifier: i32,
    pub mode: RollMode,
}

impl ManeuverArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str).unwrap_or_default();
        let kind = match sub {
            "grapple" => Kind::Grapple,
            "escape" => Kind::Escape,
            "trip" => Kind::Trip,
            "disarm" => Kind::Disarm,
            "sunder" => Kind::Sunder,
            "listen" => Kind::Listen,
            _ => {
                return Err(user(
                    "Use /maneuver grapple, escape, trip, disarm, sunder or listen.",
                ));
            }
        };
        let allowed: &[&str] = match kind {
            Kind::Grapple => &["attacker", "target", "then", "modifier", "mode"],
            Kind::Escape => &["character", "holder", "how", "berserk", "modifier", "mode"],
            Kind::Trip => &["attacker", "target", "weapon", "bonus", "modifier", "mode"],
            Kind::Disarm => &[
                "attacker", "target", "weapon", "item", "flexible", "modifier", "mode",
            ],
            Kind::Sunder => &[
                "attacker", "target", "weapon", "item", "berserk", "modifier", "mode",
            ],
            Kind::Listen => &["character", "distance", "modifier", "mode"],
        };
        let o = Opts::new(inv, allowed)?;
        // Left out, the actor is the caller's THIZ character (`Ctx::acting_character`).
        let named = |name: &str| o.text(name).unwrap_or_default().to_owned();
        let (actor, target) = match kind {
            Kind::Escape => (named("character"), Some(o.required("holder")?.to_owned())),
            Kind::Listen => (named("character"), None),
            _ => (named("attacker"), Some(o.required("target")?.to_owned())),
        };
        if kind == Kind::Sunder && o.text("item").is_none() {
            return Err(user(
                "A sunder names what it aims at: item:… (the target's weapon or armour).",
            ));
        }
        if kind == Kind::Sunder && o.text("weapon").is_none() {
            return Err(user(
                "A sunder needs the weapon that strikes: weapon:… (its Attack Bonus is what it cuts).",
            ));
        }
        let flag = |name: &str| -> AppResult<bool> {
            if allowed.contains(&name) {
                o.flag(name)
            } else {
                Ok(false)
            }
        };
        let number = |name: &str, min: i64, max: i64| -> AppResult<Option<i64>> {
            if allowed.contains(&name) {
                o.int(name, min, max)
            } else {
                Ok(None)
            }
        };
        Ok(ManeuverArgs {
            kind,
            actor,
            target,
            weapon: o.text("weapon").map(str::to_owned),
            item: o.text("item").map(str::to_owned),
            then: if allowed.contains(&"then") {
                o.choice("then")?
            } else {
                None
            },
            how: if allowed.contains(&"how") {
                o.choice("how")?
            } else {
                None
            },
            flexible: flag("flexible")?,
            berserk: flag("berserk")?,
            distance: number("distance", 0, 10_000)?.map(|d| d as u32),
            bonus: int(number("bonus", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            mode: mode(&o)?,
        })
    }
}

fn refuse(e: impl std::fmt::Display) -> AppError {
    user(format!("That maneuver cannot be made: {e}."))
}

fn single(kind: SkillKind) -> AppResult<SkillId> {
    SkillId::single(kind).map_err(|e| AppError::Internal(anyhow::anyhow!("{e}")))
}

/// A rating less the character's Head wounds (and Berserk ignores them all).
fn rating_of(c: &ThizChar, skill: &SkillId, berserk: bool) -> AppResult<i32> {
    let base = c.base(skill)?.rating.0;
    let wounds = if berserk {
        0
    } else {
        c.wounds.effects().skill_check(None)
    };
    Ok(base + wounds)
}

/// The target's Speed, with its Head and leg wounds.
fn speed_of(c: &ThizChar) -> AppResult<i32> {
    Ok(c.base_of(SkillKind::Speed)?.rating.0 + c.wounds.effects().speed_check())
}

/// The actor's weapon skill for `weapon`, or General Physical bare-handed.
fn weapon_rating(c: &ThizChar, weapon: Option<&str>) -> AppResult<(i32, i32, String)> {
    match weapon {
        Some(w) => {
            let (item, stats) = c.weapon(w)?;
            let id = SkillId::with_subject(SkillKind::WeaponSkill, &item.name)
                .map_err(|e| user(format!("That weapon's name cannot name a skill: {e}.")))?;
            Ok((
                rating_of(c, &id, false)?,
                stats.attack_bonus,
                item.name.clone(),
            ))
        }
        None => Ok((
            c.generals.physical + c.wounds.effects().skill_check(None),
            0,
            "bare hands".to_owned(),
        )),
    }
}

/// The maneuver's target: in an encounter, a player may name one of its NPCs, as with /attack
/// (its numbers stay the GM's: `check_text` marks them); another player's character only in a
/// fight both are in (`may_strike`; escaping a hold is no blow).
fn target_of(
    ctx: &Ctx<'_>,
    tx: &Conn,
    a: &ManeuverArgs,
    actor: &Character,
) -> AppResult<Option<Character>> {
    let target = a
        .target
        .as_deref()
        .map(|t| crate::app::encounter::hooks::target(ctx, tx, t))
        .transpose()?;
    if let Some(t) = &target
        && a.kind != Kind::Escape
    {
        crate::app::encounter::hooks::may_strike(ctx, tx, actor, t)?;
    }
    Ok(target)
}

/// Runs `/maneuver …`.
pub(super) fn run(ctx: &Ctx<'_>, a: &ManeuverArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let actor = ctx.acting_character(tx, Some(&a.actor))?;
        let target = target_of(ctx, tx, a, &actor)?;
        if target.as_ref().is_some_and(|t| t.id == actor.id) {
            return Err(user(format!(
                "{} cannot {} themselves; name someone else.",
                escape(&actor.name),
                a.kind.name()
            )));
        }
        // In a fight, a maneuver is the figure's action (listening is not).
        let acts = a.kind != Kind::Listen;
        if acts {
            crate::app::encounter::hooks::thiz_act_before(ctx, tx, actor.id)?;
        }
        let command = format!("/maneuver {}", a.kind.name());
        let act = ThizChar::load(tx, actor, &command)?;
        let tgt = target
            .map(|t| ThizChar::load(tx, t, &command))
            .transpose()?;
        let mut dice = ctx.dice();
        let (check, lines) = match (a.kind, &tgt) {
            (Kind::Grapple, Some(t)) => {
                let own = rating_of(&act, &single(SkillKind::Grappling)?, false)?;
                let check = grapple(own, speed_of(t)?, a.modifier, &mut dice).map_err(refuse)?;
                let lines = grapple_lines(&act, t, &check, a.then);
                (check, lines)
            }
            (Kind::Escape, Some(holder)) => escape_grapple(ctx, tx, &act, holder, a, &mut dice)?,
            (Kind::Trip, Some(t)) => {
                let (own, _, with) = weapon_rating(&act, a.weapon.as_deref())?;
                let check =
                    trip(own, speed_of(t)?, a.bonus + a.modifier, &mut dice).map_err(refuse)?;
                let line = if check.success {
                    format!("{} trips {} with {with}: they fall Prone.", n(&act), n(t))
                } else {
                    format!("{} keeps their feet.", n(t))
                };
                (check, vec![line])
            }
            (Kind::Disarm, Some(t)) => disarm_target(&act, t, a, &mut dice)?,
            (Kind::Sunder, Some(t)) => sunder_item(ctx, tx, &act, t, a, &mut dice)?,
            (Kind::Listen, None) => listen_for(&act, a, &mut dice)?,
            _ => return Err(user("That maneuver needs a target.")),
        };
        drop(dice);
        let record = ManeuverRecord {
            maneuver: a.kind.name().to_owned(),
            actor_id: act.character.id,
            actor: act.character.name.clone(),
            target_id: tgt.as_ref().map(|t| t.character.id),
            target: tgt.as_ref().map(|t| t.character.name.clone()),
            rating: check.rating.0,
            roll: check.roll,
            level: check.level.name().to_owned(),
            success: check.success,
            outcome: lines.join(" "),
        };
        ctx.log_roll(
            tx,
            Some(act.character.id),
            &command,
            a.mode,
            "",
            &ThizRecord::Maneuver(record),
        )?;
        let title = match &tgt {
            Some(t) => format!("{} tries to {} {}", n(&act), a.kind.name(), n(t)),
            None => format!("{} listens", n(&act)),
        };
        let full = Reply::public("").with_embed(Embed {
            title,
            description: format!("**{}**\n{}", level_text(check.level), lines.join("\n")),
            tone: Some(tone(check.level)),
            fields: vec![Field {
                name: "Check".to_owned(),
                value: check_text(
                    a.kind,
                    &check,
                    (
                        act.character.npc,
                        tgt.as_ref().is_some_and(|t| t.character.npc),
                    ),
                ),
                inline: false,
            }],
            footer: None,
        });
        let what = format!("a {}", a.kind.name());
        let gm_lines = unlucky_lines(&act, a.kind, check.roll);
        let turn = if acts {
            crate::app::encounter::hooks::thiz_act_after(ctx, tx, act.character.id)?
        } else {
            Vec::new()
        };
        let full = crate::app::encounter::hooks::with_lines(full, a.mode, &turn);
        Ok(ctx.route(a.mode, &what, full).with_gm_lines(&gm_lines))
    })
}

/// thiz-rulebook.md, "Sight": Perception to place a sound; close, a few places, far, a direction.
fn listen_for(
    act: &ThizChar,
    a: &ManeuverArgs,
    dice: &mut impl crate::rules::dice::DieSource,
) -> AppResult<(ManeuverCheck, Vec<String>)> {
    let own = rating_of(act, &single(SkillKind::Perception)?, false)?;
    let distance = a.distance.unwrap_or(30);
    let heard = listen(own + a.modifier, distance, dice).map_err(refuse)?;
    let line = match (heard.heard, heard.possible_locations) {
        (false, _) => "Nothing placed: the sound gives nothing away.".to_owned(),
        (true, Some(1)) => "The GM names the one place the target is.".to_owned(),
        (true, Some(k)) => format!("The GM names {k} neighbouring places the target may be in."),
        (true, None) => format!(
            "Beyond {} feet: the GM gives the sound's direction{}.",
            crate::rules::thiz::combat::CLOSE_RANGE_FEET,
            if heard.level >= Level::Red {
                ", and closely"
            } else {
                ""
            }
        ),
    };
    let check = ManeuverCheck {
        own,
        bonus: a.modifier,
        target: 0,
        rating: heard.rating,
        roll: heard.roll,
        level: heard.level,
        success: heard.heard,
    };
    Ok((check, vec![line]))
}

/// Unlucky (thiz-rulebook.md, "Unlucky"): 98–100 on the actor's check flags a mishap to the GM
/// alone.
fn unlucky_lines(act: &ThizChar, kind: Kind, roll: u32) -> Vec<String> {
    unlucky_mishap(act.has_weakness(Weakness::Unlucky), roll)
        .then(|| {
            format!(
                "Unlucky: {} rolled {roll} on the {}, a mishap is due whatever the level.",
                n(act),
                kind.name()
            )
        })
        .into_iter()
        .collect()
}

/// The check in words: "Grappling 5 − Speed 2 = 3 · d100: 40". Each side's rating, and the sum,
/// is the GM's where that side is an NPC ([`screen`]).
fn check_text(kind: Kind, check: &ManeuverCheck, (actor_npc, target_npc): (bool, bool)) -> String {
    let (own, theirs) = match kind {
        Kind::Grapple => ("Grappling", Some("Speed")),
        Kind::Escape | Kind::Listen => ("rating", None),
        Kind::Trip | Kind::Sunder => ("weapon skill", Some("Speed")),
        Kind::Disarm => ("weapon skill", Some("their weapon skill")),
    };
    let mut s = screen::npc(actor_npc, format!("{own} {}", check.own));
    if check.bonus != 0 {
        let _ = write!(s, " · bonus {}", signed(check.bonus));
    }
    if let Some(theirs) = theirs {
        let _ = write!(
            s,
            " − {}",
            screen::npc(target_npc, format!("{theirs} {}", check.target))
        );
    }
    let _ = write!(
        s,
        " = {} · d100: {}",
        screen::npc(actor_npc || target_npc, check.rating.to_string()),
        check.roll
    );
    s
}

fn n(c: &ThizChar) -> String {
    escape(&c.character.name)
}

/// thiz-rulebook.md, "Grappling": a success grapples; on later turns a success also allows a
/// free Unarmed Combat attack, a throw of 5 feet per 5 full points of Strength, or a pin.
fn grapple_lines(
    act: &ThizChar,
    t: &ThizChar,
    check: &ManeuverCheck,
    then: Option<Follow>,
) -> Vec<String> {
    if !check.success {
        return vec![format!("{} slips the grapple.", n(t))];
    }
    let strength = single(SkillKind::Strength)
        .ok()
        .and_then(|id| act.learned(&id))
        .unwrap_or(0);
    let line = match then {
        None => format!(
            "{} grapples {}. Next turn, a new check holds on and allows a free Unarmed Combat attack, a throw or a pin.",
            n(act),
            n(t)
        ),
        Some(Follow::Hold) => format!(
            "{} holds on and may make a free Unarmed Combat attack.",
            n(act)
        ),
        Some(Follow::Throw) => format!(
            "{} throws {} {} feet; they land Prone.",
            n(act),
            n(t),
            throw_distance(strength)
        ),
        Some(Follow::Pin) => format!("{} pins {} to the floor.", n(act), n(t)),
    };
    vec![line]
}

/// The level of `holder`'s latest grapple of `held`, from the roll log.
fn holder_level(
    ctx: &Ctx<'_>,
    conn: &Conn,
    holder: &Character,
    held: &Character,
) -> AppResult<Option<Level>> {
    for row in rolls::recent(conn, ctx.caller.guild, None, Some(holder.id), 200)? {
        if row.command != "/maneuver grapple" {
            continue;
        }
        let Some(json) = row.public_json.as_deref() else {
            continue;
        };
        if let Some(ThizRecord::Maneuver(m)) = ThizRecord::from_json(json)
            && m.target_id == Some(held.id)
        {
            return Ok(m
                .success
                .then(|| super::record::parse_level(&m.level))
                .flatten());
        }
    }
    Ok(None)
}

/// thiz-rulebook.md, "Grappling": reversing (Grappling) or breaking free (Strength, +3 Berserk)
/// works only on a level above the holder's.
fn escape_grapple(
    ctx: &Ctx<'_>,
    conn: &Conn,
    act: &ThizChar,
    holder: &ThizChar,
    a: &ManeuverArgs,
    dice: &mut impl crate::rules::dice::DieSource,
) -> AppResult<(ManeuverCheck, Vec<String>)> {
    let level = holder_level(ctx, conn, &holder.character, &act.character)?.ok_or_else(|| {
        user(format!(
            "{} holds no grapple on {} in the log: /maneuver grapple first.",
            n(holder),
            n(act)
        ))
    })?;
    let How(kind) = a.how.unwrap_or(How(EscapeKind::BreakFree));
    let skill = match kind {
        EscapeKind::Reverse => SkillKind::Grappling,
        EscapeKind::BreakFree => SkillKind::Strength,
    };
    let rating = rating_of(act, &single(skill)?, a.berserk)? + a.modifier;
    let out = break_grapple(kind, rating, a.berserk, level, dice).map_err(refuse)?;
    let line = match (out.succeeded, kind) {
        (true, EscapeKind::Reverse) => {
            format!(
                "{} turns the hold around: now they grapple {}.",
                n(act),
                n(holder)
            )
        }
        (true, EscapeKind::BreakFree) => format!("{} breaks free.", n(act)),
        (false, _) => format!("Not enough: it must beat {}'s {} hold.", n(holder), level),
    };
    let check = ManeuverCheck {
        own: out.rating.0,
        bonus: 0,
        target: 0,
        rating: out.rating,
        roll: out.roll,
        level: out.level,
        success: out.succeeded,
    };
    Ok((check, vec![line]))
}

/// thiz-rulebook.md, "Disarming": weapon skill against the target's, +3 with a flexible weapon.
fn disarm_target(
    act: &ThizChar,
    t: &ThizChar,
    a: &ManeuverArgs,
    dice: &mut impl crate::rules::dice::DieSource,
) -> AppResult<(ManeuverCheck, Vec<String>)> {
    let (own, _, _) = weapon_rating(act, a.weapon.as_deref())?;
    let aimed = match a.item.as_deref() {
        Some(name) => Some(t.weapon(name)?.0.name.clone()),
        None => t.items_of("weapon").next().map(|(i, _)| i.name.clone()),
    };
    let Some(aimed) = aimed else {
        return Err(user(format!("{} holds no weapon to knock away.", n(t))));
    };
    let (theirs, _, _) = weapon_rating(t, Some(&aimed))?;
    let out = disarm(own, theirs, a.flexible, a.modifier, dice).map_err(refuse)?;
    let aimed = escape(&aimed);
    let line = match out.result {
        DisarmResult::Kept => format!("{} keeps hold of the {aimed}.", n(t)),
        DisarmResult::AtFeet => format!("The {aimed} drops at {}'s feet.", n(t)),
        DisarmResult::Flung { direction, feet } => format!(
            "The {aimed} flies {feet} feet to the {}.",
            [
                "north",
                "north-east",
                "east",
                "south-east",
                "south",
                "south-west",
                "west",
                "north-west"
            ][(direction.clamp(1, 8) - 1) as usize]
        ),
    };
    Ok((out.check, vec![line]))
}

/// thiz-rulebook.md, "Sundering": a hit, then Strength; both cut the equipment's bonus by the
/// weapon's Attack Bonus, 0 or below destroys it, and a Black Strength check leaves a Green wound.
fn sunder_item(
    ctx: &Ctx<'_>,
    conn: &Conn,
    act: &ThizChar,
    t: &ThizChar,
    a: &ManeuverArgs,
    dice: &mut impl crate::rules::dice::DieSource,
) -> AppResult<(ManeuverCheck, Vec<String>)> {
    let (skill, weapon_bonus, _) = weapon_rating(act, a.weapon.as_deref())?;
    let wanted = characters::name_key(a.item.as_deref().unwrap_or_default());
    let (item, stats) = t
        .items
        .iter()
        .find(|i| characters::name_key(&i.name) == wanted && i.kind != "item")
        .map(|i| {
            (
                i.clone(),
                serde_json::from_str::<crate::app::sheet::ItemStats>(&i.stats_json)
                    .unwrap_or_default(),
            )
        })
        .ok_or_else(|| {
            user(format!(
                "{} has no weapon, armour or shield called {}.",
                n(t),
                escape(a.item.as_deref().unwrap_or_default())
            ))
        })?;
    let is_weapon = item.kind.eq_ignore_ascii_case("weapon");
    let equipment_bonus = if is_weapon {
        stats.attack_bonus
    } else {
        stats.armor_bonus
    };
    let strength = rating_of(act, &single(SkillKind::Strength)?, a.berserk)?;
    let out = sunder(
        &SunderInput {
            skill,
            target_speed: speed_of(t)?,
            strength,
            berserk: a.berserk,
            weapon_bonus,
            equipment_bonus,
            modifier: a.modifier,
        },
        dice,
    )
    .map_err(refuse)?;
    let guild = ctx.caller.guild;
    let name = escape(&item.name);
    let mut lines = Vec::new();
    if !out.hit.success {
        lines.push(format!("The blow misses the {name}."));
    } else if !out.damaged {
        lines.push(format!("The {name} takes the blow unharmed."));
    } else if out.destroyed {
        characters::remove_item(conn, guild, t.character.id, &item.name)?;
        lines.push(format!("The {name} is destroyed."));
    } else {
        let mut stats = stats.clone();
        if is_weapon {
            stats.attack_bonus = out.bonus_after;
        } else {
            stats.armor_bonus = out.bonus_after;
        }
        let json = serde_json::to_string(&stats).map_err(anyhow::Error::from)?;
        characters::set_item_stats(conn, guild, t.character.id, item.id, &json)?;
        lines.push(format!(
            "The {name} is damaged: {}.",
            screen::npc(
                t.character.npc,
                format!("its bonus is now {}", out.bonus_after)
            )
        ));
    }
    if out.green_wound {
        let location = if is_weapon {
            Location::RightArm
        } else {
            stats
                .locations
                .iter()
                .find_map(|l| Location::parse(l))
                .unwrap_or(Location::Chest)
        };
        let mut sheet = t.wounds.clone();
        let added = sheet
            .add(location, Level::Green)
            .map_err(|e| AppError::Internal(e.into()))?;
        characters::set_wounds(conn, guild, t.character.id, &rows_from_sheet(&sheet))?;
        lines.push(format!(
            "The force of it leaves a {} wound on {}'s {location}.",
            added.recorded,
            n(t)
        ));
    }
    if let Some(s) = out.strength {
        lines.push(format!(
            "Strength: {} at {}, {}.",
            s.roll,
            screen::npc(act.character.npc, s.rating.to_string()),
            level_text(s.level)
        ));
    }
    Ok((out.hit, lines))
}

#[cfg(test)]
mod tests {
    use super::super::record::sheet_from_rows;
    use super::super::testkit::seed_for;
    use super::super::testkit::{GUILD, Kit};
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::thiz::{Rating, resolve};
    use crate::store::CharacterId;

    /// Vexa (player's: Grappling 5, Strength 10, Sword 4 with a +3 sword) and Bran (other's:
    /// Speed 2, Strength 3, Grappling 1, Dagger 1, a +2 helm on the head).
    fn world(seed: u64) -> Kit {
        let kit = Kit::new(seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Grappling", 5);
        kit.skill(vexa, "Strength", 10);
        kit.skill(vexa, "Weapon Skill (Sword)", 4);
        kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 3}"#);
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "Speed", 2);
        kit.skill(bran, "Strength", 3);
        kit.skill(bran, "Grappling", 1);
        kit.skill(bran, "Weapon Skill (Dagger)", 1);
        kit.item(bran, "weapon", "Dagger", r#"{"attack_bonus": 2}"#);
        kit.item(
            bran,
            "armor",
            "Helm",
            r#"{"armor_bonus": 2, "locations": ["head"]}"#,
        );
        kit
    }

    fn run(kit: &Kit, caller: &crate::app::Caller, sub: &str, opts: &[(&str, &str)]) -> Reply {
        kit.run(caller, &["maneuver", sub], opts)
    }

    fn last(kit: &Kit) -> ManeuverRecord {
        match ThizRecord::from_json(&kit.last_roll_json().unwrap()) {
            Some(ThizRecord::Maneuver(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    /// thiz-rulebook.md, "Grappling": Grappling 5 − Speed 2 = rating 3; any success holds.
    #[test]
    fn grapple_succeeds_on_any_success_at_grappling_minus_speed() {
        for wanted in [true, false] {
            let seed = seed_for(&[&|r| resolve(Rating(3), r).is_success() == wanted]);
            let kit = world(seed);
            let reply = run(
                &kit,
                &kit.player(),
                "grapple",
                &[("attacker", "Vexa"), ("target", "Bran")],
            );
            let m = last(&kit);
            assert_eq!((m.rating, m.success), (3, wanted), "{reply:?}");
            let text = reply.all_text();
            assert!(
                text.contains("Grappling 5 − Speed 2 = 3 · d100: "),
                "{text}"
            );
            assert_eq!(text.contains("Vexa grapples Bran"), wanted, "{text}");
            assert_eq!(text.contains("Bran slips the grapple"), !wanted, "{text}");
        }
    }

    /// A throw goes 5 feet per 5 full points of Strength: 9 throws 5 feet, 10 throws 10.
    #[test]
    fn a_held_throw_goes_by_strength() {
        let seed = seed_for(&[&|r| r <= 5]);
        for (strength, feet) in [(9, 5), (10, 10)] {
            let kit = world(seed);
            kit.skill(CharacterId(1), "Strength", strength);
            let reply = run(
                &kit,
                &kit.player(),
                "grapple",
                &[("attacker", "Vexa"), ("target", "Bran"), ("then", "throw")],
            );
            assert!(
                reply
                    .all_text()
                    .contains(&format!("Vexa throws Bran {feet} feet; they land Prone.")),
                "{reply:?}"
            );
        }
    }

    /// An escape must beat the holder's level: a Green hold is broken by Yellow, not by Green.
    #[test]
    fn an_escape_must_beat_the_holders_level() {
        // The grapple at rating 3 scores Green; Bran's Strength 3 then rolls Green or Yellow.
        for (escape_level, free) in [(Level::Green, false), (Level::Yellow, true)] {
            let seed = seed_for(&[&|r| resolve(Rating(3), r) == Level::Green, &|r| {
                resolve(Rating(3), r) == escape_level
            }]);
            let kit = world(seed);
            let none = run(
                &kit,
                &kit.other(),
                "escape",
                &[("character", "Bran"), ("holder", "Vexa")],
            );
            assert!(none.content.contains("holds no grapple"), "{none:?}");
            assert_eq!(kit.roll_count(), 0);
            run(
                &kit,
                &kit.player(),
                "grapple",
                &[("attacker", "Vexa"), ("target", "Bran")],
            );
            let out = run(
                &kit,
                &kit.other(),
                "escape",
                &[("character", "Bran"), ("holder", "Vexa")],
            );
            assert_eq!(out.all_text().contains("Bran breaks free"), free, "{out:?}");
            assert_eq!(
                out.all_text().contains("must beat Vexa's Green hold"),
                !free,
                "{out:?}"
            );
        }
    }

    /// thiz-rulebook.md, "Disarming": weapon skill against the target's; any success drops the
    /// weapon at their feet, Black flings it up to 10 feet.
    #[test]
    fn disarm_by_level() {
        // Sword 4 − Dagger 1 = 3.
        let cases = [
            (Level::Failure, "Bran keeps hold of the Dagger"),
            (Level::Green, "The Dagger drops at Bran's feet"),
            (Level::Black, "The Dagger flies"),
        ];
        for (level, want) in cases {
            let seed = seed_for(&[&|r| resolve(Rating(3), r) == level]);
            let kit = world(seed);
            let reply = run(
                &kit,
                &kit.player(),
                "disarm",
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("weapon", "Sword"),
                ],
            );
            assert!(reply.all_text().contains(want), "{level}: {reply:?}");
        }
    }

    /// thiz-rulebook.md, "Sundering": a hit (Sword 4 − Speed 2 = 2) and Strength 10; the helm's
    /// +2 less the sword's +3 is -1, so it is destroyed; a Black Strength check also leaves a
    /// Green wound on the head. A missed hit leaves the helm as it was.
    #[test]
    fn sunder_cuts_the_bonus_and_can_wound() {
        let items = |kit: &Kit| {
            kit.app
                .store
                .read(|c| characters::items(c, GUILD, CharacterId(2)))
                .unwrap()
                .into_iter()
                .map(|i| i.name)
                .collect::<Vec<_>>()
        };
        let seed = seed_for(&[&|r| resolve(Rating(2), r).is_success(), &|r| {
            resolve(Rating(10), r) == Level::Black
        }]);
        let kit = world(seed);
        let opts = [
            ("attacker", "Vexa"),
            ("target", "Bran"),
            ("weapon", "Sword"),
            ("item", "helm"),
        ];
        let reply = run(&kit, &kit.player(), "sunder", &opts);
        assert!(
            reply.all_text().contains("The Helm is destroyed"),
            "{reply:?}"
        );
        assert_eq!(items(&kit), ["Dagger"]);
        let sheet = sheet_from_rows(&kit.wounds(CharacterId(2))).unwrap();
        assert_eq!(sheet.at(Location::Head).greens, 1);

        // A weaker blow (a +1 club) only dents it: +2 → +1.
        let seed = seed_for(&[&|r| resolve(Rating(2), r).is_success(), &|r| {
            resolve(Rating(10), r) == Level::Green
        }]);
        let kit = world(seed);
        kit.item(CharacterId(1), "weapon", "Club", r#"{"attack_bonus": 1}"#);
        kit.skill(CharacterId(1), "Weapon Skill (Club)", 4);
        let reply = run(
            &kit,
            &kit.player(),
            "sunder",
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Club"),
                ("item", "Helm"),
            ],
        );
        assert!(reply.all_text().contains("its bonus is now 1"), "{reply:?}");
        let helm = kit
            .app
            .store
            .read(|c| characters::items(c, GUILD, CharacterId(2)))
            .unwrap()
            .into_iter()
            .find(|i| i.name == "Helm")
            .unwrap();
        assert!(helm.stats_json.contains(r#""armor_bonus":1"#), "{helm:?}");
        assert!(kit.wounds(CharacterId(2)).is_empty());

        // A miss changes nothing.
        let seed = seed_for(&[&|r| resolve(Rating(2), r) == Level::Failure]);
        let kit = world(seed);
        let reply = run(&kit, &kit.player(), "sunder", &opts);
        assert!(reply.all_text().contains("misses the Helm"), "{reply:?}");
        assert_eq!(items(&kit), ["Dagger", "Helm"]);
    }

    /// thiz-rulebook.md, "Sight": within 15 feet a success names 4, 3, 2 or 1 places; farther,
    /// a direction.
    #[test]
    fn listening_close_and_far() {
        // Vexa has no Perception: the better of it and General Physical, as for any skill.
        let kit0 = world(1);
        let tc = kit0
            .app
            .store
            .read(|c| {
                let ch = characters::by_id(c, GUILD, CharacterId(1))?.unwrap();
                Ok(ThizChar::load(c, ch, "test").unwrap())
            })
            .unwrap();
        let rating = tc
            .base(&single(SkillKind::Perception).unwrap())
            .unwrap()
            .rating;
        let cases = [
            ("15", Level::Black, "the one place"),
            ("15", Level::Red, "2 neighbouring places"),
            ("15", Level::Green, "4 neighbouring places"),
            ("16", Level::Green, "the sound's direction."),
            ("16", Level::Failure, "Nothing placed"),
        ];
        for (distance, level, want) in cases {
            let seed = seed_for(&[&|r| resolve(rating, r) == level]);
            let kit = world(seed);
            let reply = run(
                &kit,
                &kit.player(),
                "listen",
                &[("character", "Vexa"), ("distance", distance)],
            );
            assert!(
                reply.all_text().contains(want),
                "{distance} {level}: {reply:?}"
            );
        }
    }

    /// thiz-rulebook.md, "Unlucky": 98–100 on a maneuver flags a mishap, to the GM only.
    #[test]
    fn unlucky_maneuvers_flag_the_gm() {
        for (roll, flagged) in [(97, false), (98, true)] {
            let kit = world(seed_for(&[&|r| r == roll]));
            kit.sheet(CharacterId(1), r#"{"weaknesses": ["Unlucky"]}"#);
            let reply = run(
                &kit,
                &kit.player(),
                "trip",
                &[("attacker", "Vexa"), ("target", "Bran")],
            );
            let gm = reply
                .gm_copy
                .as_ref()
                .map(|c| c.all_text())
                .unwrap_or_default();
            assert_eq!(
                gm.contains("Unlucky: Vexa rolled"),
                flagged,
                "{roll}: {reply:?}"
            );
            assert!(!reply.caller_text().contains("Unlucky"), "{reply:?}");
        }
    }

    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

    #[test]
    fn bad_input_changes_nothing() {
        let kit = world(1);
        kit.tft("Rook", kit.player_id());
        let cases: [Case<'_>; 7] = [
            (
                "grapple",
                &[("attacker", "Vexa")],
                "needs the option target",
            ),
            (
                "grapple",
                &[("attacker", "Vexa"), ("target", "Vexa")],
                "cannot grapple themselves",
            ),
            (
                "grapple",
                &[("attacker", "Bran"), ("target", "Vexa")],
                "belongs to another player",
            ),
            (
                "trip",
                &[("attacker", "Rook"), ("target", "Bran")],
                "Rook is a TFT character",
            ),
            (
                "sunder",
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("weapon", "Sword"),
                ],
                "names what it aims at",
            ),
            (
                "sunder",
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("weapon", "Sword"),
                    ("item", "cloak"),
                ],
                "no weapon, armour or shield called cloak",
            ),
            (
                "grapple",
                &[("attacker", "Vexa"), ("target", "Bran"), ("then", "kiss")],
                "then must be hold, throw or pin",
            ),
        ];
        for (sub, opts, want) in cases {
            let reply = run(&kit, &kit.player(), sub, opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{sub} {opts:?}");
            assert!(
                reply.content.contains(want),
                "{sub} {opts:?}: {}",
                reply.content
            );
        }
        assert_eq!(kit.roll_count(), 0);
        let bad = kit.run(&kit.player(), &["maneuver", "juggle"], &[]);
        assert!(bad.content.contains("/maneuver grapple"), "{bad:?}");
    }
}
