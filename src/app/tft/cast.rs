//! `/tftkit cast spell [character] [target] [st] [kind] [distance] [damage] [modifier] [mode]
//! [renew] [mana]`: a spell cast from the caster's sheet — the roll against adjDX, the ST it costs
//! paid as fatigue on the sheet or (`mana:`) from the staff's mana, a missile spell's range and
//! damage against the target — in one transaction with the roll's log entry.
//!
//! Every number comes from `rules::tft` (the attack table and adjustments, `casting`, the
//! damage rules); this file reads the sheets and writes what the cast did.

use serde_json::json;

use super::attack::{acrobatics, outcome_name, table_text, target_defence};
use super::shared::{faces, field, gear_dx, has_talent, menu, st_left, table_settings, tft_sheet};
use super::state;
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::attack::{Adjustment, AttackSpec, Technique};
use crate::rules::tft::casting::{CastOutcome, cast_outcome, may_cast};
use crate::rules::tft::character::{NEW_SPELLS, SpellInfo, SpellKind, SpellUpkeep, Talent};
use crate::rules::tft::damage::{Blow, DamageResolution, Precise, Striker, Target, resolve_damage};
use crate::rules::tft::mana::{self, Payment, Staff};
use crate::rules::tft::{Dice, Multiplier};
use crate::store::characters;

const KINDS: [(&str, SpellKind); 4] = [
    ("missile", SpellKind::Missile),
    ("thrown", SpellKind::Thrown),
    ("creation", SpellKind::Creation),
    ("special", SpellKind::Special),
];

/// The most ST one spell may be given, the longest distance, the largest modifier.
const MAX_ST: i64 = 100;
const MAX_DISTANCE: i64 = 10_000;
const MAX_MODIFIER: i64 = 40;

/// A parsed `/tftkit cast`.
#[derive(Debug, Clone)]
pub struct Cast {
    spell: String,
    character: Option<String>,
    target: Option<String>,
    st: Option<u32>,
    kind: Option<SpellKind>,
    distance: Option<u32>,
    damage: Option<Dice>,
    modifier: i32,
    mode: RollMode,
    /// Renew a continuing spell that lapsed this round instead of casting (no roll).
    renew: bool,
    /// ST paid from the staff's mana instead of fatigue (tft-rules-summary.md, MANA).
    mana: u32,
}

impl Cast {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "spell",
                "character",
                "target",
                "st",
                "kind",
                "distance",
                "damage",
                "modifier",
                "mode",
                "renew",
                "mana",
            ],
        )?;
        let spell = o.required("spell")?.trim().to_owned();
        if spell.is_empty() {
            return Err(user(
                "spell needs the name of a spell on the caster's sheet.",
            ));
        }
        let damage = match o.text("damage") {
            None => None,
            Some(d) => Some(Dice::parse(d).ok_or_else(|| {
                user(format!(
                    "damage takes dice as the spell gives them, like 2d-2 (1 to 100 dice); you gave \"{}\".",
                    escape(d.trim())
                ))
            })?),
        };
        Ok(Self {
            spell,
            character: o.text("character").map(str::to_owned),
            target: o.text("target").map(str::to_owned),
            st: o.int("st", 1, MAX_ST)?.map(|n| n as u32),
            kind: o
                .text("kind")
                .map(|k| menu("kind", k, &KINDS))
                .transpose()?,
            distance: o.int("distance", 0, MAX_DISTANCE)?.map(|n| n as u32),
            damage,
            modifier: o.int("modifier", -MAX_MODIFIER, MAX_MODIFIER)?.unwrap_or(0) as i32,
            mode: o.mode()?,
            renew: o.flag("renew")?,
            mana: o.int("mana", 1, MAX_ST)?.map_or(0, |n| n as u32),
        })
    }

    /// `renew:true`: keeps a continuing spell up for one more round, paying its upkeep as
    /// fatigue, no roll (tft-rules-summary.md, "RENEW SPELLS"; the upkeep from tft-house-rules.txt,
    /// "New and Changed Spells"). Only in a TFT fight, for a spell that lapsed as this round
    /// began (see `encounter::hooks::tft_renew`); a refusal changes nothing.
    fn renew(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        if self.target.is_some()
            || self.st.is_some()
            || self.kind.is_some()
            || self.distance.is_some()
            || self.damage.is_some()
            || self.modifier != 0
        {
            return Err(user(
                "renew:true takes only spell, character, mana and mode: renewing costs the spell's upkeep and rolls nothing.",
            ));
        }
        let (_, house_rules) = table_settings(ctx);
        let guild = ctx.caller.guild;
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let caster = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&caster)?;
            state::ready_to_act(tx, guild, &caster, &sheet, "renew a spell")?;
            let known = known_spell(&caster, &sheet, &self.spell)?;
            let upkeep = NEW_SPELLS
                .iter()
                .filter(|_| house_rules)
                .find(|i| same_name(i.name, &known))
                .and_then(|i| match i.upkeep {
                    SpellUpkeep::PerTurn(st) => Some(st),
                    _ => None,
                })
                .ok_or_else(|| {
                    user(format!(
                        "The bot keeps the upkeep only of the house rules' continuing spells (tft-house-rules.txt), and {} is not one{}; the GM keeps its count.",
                        escape(&known),
                        if house_rules { "" } else { " here (the house rules are off)" }
                    ))
                })?;
            let (hits, fatigue) = characters::tft_damage(tx, guild, caster.id)?;
            let left = st_left(&sheet, hits, fatigue);
            draw_check(&caster, &sheet, &known, self.mana, upkeep)?;
            if i64::from(upkeep - self.mana) > i64::from(left) {
                return Err(user(format!(
                    "{} has too little ST left to renew {} ({upkeep} ST).",
                    escape(&caster.name),
                    escape(&known)
                )));
            }
            let line = crate::app::encounter::hooks::tft_renew(ctx, tx, caster.id, &known, upkeep)?;
            let payment = mana::pay(upkeep, self.mana);
            let fatigue_after = fatigue + i64::from(payment.fatigue);
            characters::set_tft_damage(tx, guild, caster.id, hits, fatigue_after)?;
            let left_after = st_left(&sheet, hits, fatigue_after);
            if left_after <= 0 {
                state::record_fall(tx, guild, &caster)?;
            }
            let staff = super::staff::spend_mana(tx, guild, caster.id, payment.mana)?;
            let embed = Embed {
                title: format!("{} renews {}", escape(&caster.name), escape(&known)),
                description: line,
                tone: Some(Tone::Info),
                fields: vec![field(
                    "Caster",
                    paid_text(
                        caster.npc,
                        &Paid {
                            payment,
                            staff,
                            left,
                            left_after,
                        },
                        left_after <= 0,
                    ),
                    false,
                )],
                footer: None,
            };
            Ok((
                format!("{}'s spell", escape(&caster.name)),
                Reply::public("").with_embed(embed),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }

    #[allow(clippy::too_many_lines)] // one transaction, read top to bottom
    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        if self.renew {
            return self.renew(ctx);
        }
        let (settings, house_rules) = table_settings(ctx);
        let guild = ctx.caller.guild;
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let caster = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&caster)?;
            state::ready_to_attack(tx, guild, &caster, &sheet)?;
            let known = known_spell(&caster, &sheet, &self.spell)?;
            // tft-house-rules.txt, "New and Changed Spells": their numbers only under the house
            // rules; without them the caster gives kind and st, as for any other spell.
            let info: Option<&SpellInfo> = NEW_SPELLS
                .iter()
                .filter(|_| house_rules)
                .find(|i| same_name(i.name, &known));
            let kind = self.kind.or(info.map(|i| i.kind)).ok_or_else(|| {
                user(format!(
                    "The bot has no numbers for {}: give its kind (missile, thrown, creation, special) and st.",
                    escape(&known)
                ))
            })?;
            let cost = self.st.or(info.map(|i| i.cast_st)).ok_or_else(|| {
                user(format!(
                    "The bot has no ST cost for {}: give st, the ST it costs (a missile spell's power).",
                    escape(&known)
                ))
            })?;
            let target = self.missile_target(ctx, tx, kind)?;
            if let Some((t, _)) = &target {
                crate::app::encounter::hooks::may_strike(ctx, tx, &caster, t)?;
            }
            if let Some((t, _)) = target.as_ref().filter(|_| !house_rules) {
                // The target's fine armor would stop as only the house rules say: refused
                // before any die is rolled, as `/tft attack` does.
                super::shared::house_gear(t, &tft_sheet(t)?)?;
            }
            let (hits, fatigue) = characters::tft_damage(tx, guild, caster.id)?;
            let left = st_left(&sheet, hits, fatigue);
            // In an encounter: the turn, and the declared multiple actions' IQ and dice.
            let turn = crate::app::encounter::hooks::tft_cast_before(ctx, tx, caster.id)?;
            draw_check(&caster, &sheet, &known, self.mana, cost)?;
            // What the staff pays is not fatigue: only the rest needs the ST left.
            let from_st = cost - self.mana;
            may_cast(left, sheet.iq - turn.iq_penalty, info.map(|i| i.iq), from_st).map_err(|e| {
                user(format!("{} cannot cast {}: {e}.", escape(&caster.name), escape(&known)))
            })?;
            let (armor_dx, shield_dx) = gear_dx(&caster, &sheet, house_rules)?;
            let mut adjustments = Vec::new();
            match (kind, self.distance) {
                (SpellKind::Missile, Some(hexes)) => adjustments.push(Adjustment::MissileRange {
                    hexes,
                    // tft-house-rules-combat.txt, "Long Range Shots": the table past 30
                    // hexes only under the house rules.
                    missile_weapons_talent: house_rules
                        && has_talent(&sheet, Talent::MissileWeapons),
                    shooting_twice: false,
                }),
                (SpellKind::Thrown, Some(hexes)) => adjustments.push(Adjustment::ThrownRange {
                    spaces: hexes.saturating_sub(1),
                }),
                _ => {}
            }
            if self.modifier != 0 {
                adjustments.push(Adjustment::Other(self.modifier));
            }
            if turn.multiplier > 0 {
                adjustments.push(Adjustment::MultipleActions {
                    multiplier: turn.multiplier,
                });
            }
            let setup = AttackSpec {
                dx: sheet.dx,
                armor_dx,
                shield_dx,
                technique: Technique::Normal,
                adjustments,
            }
            .setup()
            .map_err(user)?;
            let mut dice = ctx.dice();
            let roll = setup.roll(settings, &mut dice);
            let outcome = cast_outcome(kind, roll.outcome, cost);
            // A missile spell that works does its damage to the target named.
            let mut struck: Option<Struck> = None;
            let mut target_lines = Vec::new();
            if let (true, Some((t, damage))) = (outcome.works, target.as_ref()) {
                let t_sheet = tft_sheet(t)?;
                let (t_hits, t_fatigue) = characters::tft_damage(tx, guild, t.id)?;
                let blow = Blow {
                    striker: Striker::Dice(*damage),
                    multiplier: outcome.multiplier,
                    attacker_st: sheet.st,
                    precise: Precise::None,
                    dagger_marksmanship: false,
                    halfling: false,
                };
                let hit = Target {
                    defence: target_defence(t, &t_sheet)?,
                    st: t_sheet.st,
                    st_left: st_left(&t_sheet, t_hits, t_fatigue),
                    // In a fight, the hits it took earlier this round count to knock it down.
                    earlier_hits: crate::app::encounter::hooks::tft_earlier_hits(ctx, tx, t.id)?,
                    acrobatics_adj_dx: acrobatics(t, &t_sheet, house_rules)?,
                };
                let res = resolve_damage(&mut dice, &blow, &hit, house_rules).map_err(user)?;
                let new = i64::from(res.applied.hits);
                if new > 0 {
                    characters::set_tft_damage(tx, guild, t.id, t_hits + new, t_fatigue)?;
                }
                state::record_blow(tx, guild, t, &t_sheet, Some(&res))?;
                let down = res.after.knocked_down
                    || res.applied.condition != crate::rules::tft::injury::Condition::Conscious;
                target_lines = crate::app::encounter::hooks::tft_hits(
                    ctx, tx, t.id, new, t_sheet.st, down,
                )?;
                struck = Some(Struck {
                    name: t.name.clone(),
                    npc: t.npc,
                    st: t_sheet.st,
                    hits_before: t_hits,
                    res,
                });
            }
            drop(dice);
            // tft-house-rules.txt, "New and Changed Spells": a spell with an upkeep a turn is a
            // continuing one; in a fight the tracker keeps it up to the end of the round.
            let upkeep = match info.map(|i| i.upkeep) {
                Some(SpellUpkeep::PerTurn(st)) if outcome.works => Some((known.as_str(), st)),
                _ => None,
            };
            let mut lines =
                crate::app::encounter::hooks::tft_cast_after(ctx, tx, caster.id, upkeep)?;
            lines.extend(target_lines);
            // The caster pays, read again in case it struck itself.
            let (hits, fatigue) = characters::tft_damage(tx, guild, caster.id)?;
            let payment = mana::pay(outcome.st_paid, self.mana);
            let fatigue_after = fatigue + i64::from(payment.fatigue);
            characters::set_tft_damage(tx, guild, caster.id, hits, fatigue_after)?;
            let caster_left = st_left(&sheet, hits, fatigue_after);
            if outcome.caster_falls || caster_left <= 0 {
                state::record_fall(tx, guild, &caster)?;
            }
            // Last, on the sheet as it is now (a fall above rewrote it).
            let staff = super::staff::spend_mana(tx, guild, caster.id, payment.mana)?;
            let label = format!("{} casts {}", caster.name, known);
            ctx.log_roll(
                tx,
                Some(caster.id),
                "tft cast",
                self.mode,
                &label,
                &json!({
                    "caster": caster.id,
                    "spell": known,
                    "kind": kind_name(kind),
                    "adj_dx": setup.adj_dx,
                    "faces": roll.faces,
                    "total": roll.total,
                    "outcome": outcome_name(roll.outcome),
                    "works": outcome.works,
                    "st_paid": outcome.st_paid,
                    "mana_paid": payment.mana,
                    "fatigue": fatigue_after,
                    "target": target.as_ref().map(|(t, _)| t.id),
                    "hits": struck.as_ref().map(|s| s.res.applied.hits),
                }),
            )?;
            let mut fields = vec![
                // Every die rolled: multiple actions add one (tft-multiple-actions.txt).
                field(
                    "Roll",
                    format!(
                        "{}d: {} = {}",
                        roll.faces.len(),
                        faces(&roll.faces),
                        roll.total
                    ),
                    true,
                ),
                field("Result", outcome_name(roll.outcome), true),
                // The caster's DX and armor: an NPC's are the GM's (app::screen).
                field(
                    "adjDX",
                    screen::npc(caster.npc, super::attack::breakdown(&setup)),
                    false,
                ),
                field(
                    "Spell",
                    format!(
                        "{} ({} spell, {cost} ST{})",
                        escape(&known),
                        kind_name(kind),
                        info.map_or(String::new(), |i| format!(", IQ {}", i.iq))
                    ),
                    false,
                ),
                field("Effect", effect_text(kind, outcome), false),
                field(
                    "Caster",
                    paid_text(
                        caster.npc,
                        &Paid {
                            payment,
                            staff,
                            left: st_left(&sheet, hits, fatigue),
                            left_after: caster_left,
                        },
                        outcome.caster_falls || caster_left <= 0,
                    ),
                    false,
                ),
            ];
            if let Some(s) = &struck {
                fields.extend(damage_fields(s));
            }
            let tone = match (outcome.works, outcome.multiplier) {
                (true, Multiplier::Normal) => Tone::Green,
                (true, _) => Tone::Black,
                (false, _) if outcome.caster_falls => Tone::Red,
                (false, _) => Tone::Grey,
            };
            let embed = Embed {
                title: label.clone(),
                description: format!(
                    "**{}**",
                    if outcome.works { "The spell works" } else { "The spell fails" }
                ),
                tone: Some(tone),
                fields,
                footer: Some(format!("Read on {}.", table_text(&roll.table))),
            };
            Ok((
                format!("{}'s spell", escape(&caster.name)),
                crate::app::encounter::hooks::with_lines(
                    Reply::public("").with_embed(embed),
                    RollMode::Public,
                    &lines,
                ),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }

    /// The target of a missile spell and the damage it rolls; refused for other spells, or a
    /// target without the spell's damage dice.
    fn missile_target(
        &self,
        ctx: &Ctx<'_>,
        tx: &crate::store::Conn,
        kind: SpellKind,
    ) -> AppResult<Option<(crate::store::characters::Character, Dice)>> {
        match (&self.target, self.damage) {
            (None, None) => Ok(None),
            (_, Some(_)) | (Some(_), None) if kind != SpellKind::Missile => Err(user(
                "target and damage are for missile spells; other spells' effects are the GM's to apply.",
            )),
            (None, Some(_)) => Err(user(
                "damage needs the target the missile spell is cast at.",
            )),
            (Some(_), None) => Err(user(
                "A missile spell at a target needs its damage, like damage:2d-2.",
            )),
            (Some(name), Some(d)) => {
                let t = ctx.find_character(tx, name)?;
                tft_sheet(&t)?;
                Ok(Some((t, d)))
            }
        }
    }
}

/// What a missile spell did to its target, for the reply.
struct Struck {
    name: String,
    /// The target is an NPC: its ST, hits and armor are the GM's.
    npc: bool,
    st: i32,
    hits_before: i64,
    res: DamageResolution,
}

/// What a caster paid for a spell, and from where.
struct Paid {
    payment: Payment,
    /// The staff before and after, when mana was drawn.
    staff: Option<(Staff, Staff)>,
    left: i32,
    left_after: i32,
}

/// "pays 3 ST as fatigue: 12 → 9 ST left", or with mana drawn "pays 2 ST from the staff's mana
/// (5 → 3 stored) and 1 ST as fatigue: 12 → 11 ST left": what the caster paid is the spell's,
/// the ST and mana it had and has left are its sheet's (an NPC's the GM's); that it falls
/// everyone sees.
fn paid_text(npc: bool, p: &Paid, falls: bool) -> String {
    let st = screen::npc(npc, format!("{} → {} ST left", p.left, p.left_after));
    let fell = if falls { " and falls" } else { "" };
    match p.staff {
        Some((before, after)) => format!(
            "pays {} ST from the staff's mana {} and {} ST as fatigue: {st}{fell}",
            p.payment.mana,
            screen::npc(
                npc,
                format!("({} → {} stored)", before.stored(), after.stored())
            ),
            p.payment.fatigue,
        ),
        None => format!("pays {} ST as fatigue: {st}{fell}", p.payment.fatigue),
    }
}

/// Refuses, before any die is rolled, `wanted` mana for a spell costing `cost` that the staff
/// on the caster's sheet cannot give.
fn draw_check(
    caster: &crate::store::characters::Character,
    sheet: &crate::app::sheet::TftSheet,
    spell: &str,
    wanted: u32,
    cost: u32,
) -> AppResult<()> {
    // A refusal is the caller's alone, and only a GM acts for an NPC.
    mana::check_spend(sheet.staff(), wanted, cost).map_err(|e| {
        user(format!(
            "{} cannot draw {wanted} mana for {}: {e}. Nothing was rolled.",
            escape(&caster.name),
            escape(spell)
        ))
    })
}

/// The damage a missile spell did, as `/tft attack` shows a blow's: the dice for everyone, the
/// hits for everyone but against an NPC (then only whether it got through), the damage before
/// armor, the armor's stops and the ST left the target's (an NPC's the GM's, so a player reads
/// nothing of the NPC's sheet, nor a number from which its armour follows).
fn damage_fields(s: &Struck) -> Vec<Field> {
    let d = &s.res.damage;
    let a = &s.res.applied;
    vec![
        field("Damage", format!("{}: {}", d.dice, faces(&d.faces)), false),
        field(
            "Before armor",
            screen::npc(s.npc, d.before_armor.to_string()),
            true,
        ),
        field("Stops", screen::npc(s.npc, d.stopped.to_string()), true),
        field(
            "Hits",
            // Against an NPC the hits are the GM's: beside the dice they would give its armour
            // away (issue 57; `/tft attack` shows a blow's the same way).
            if s.npc {
                format!(
                    "{} to {} {}",
                    if d.hits > 0 {
                        "the spell gets through"
                    } else {
                        "none: stopped"
                    },
                    escape(&s.name),
                    screen::npc(true, format!("({} hits)", d.hits))
                )
            } else {
                format!(
                    "**{} hit{}** to {}",
                    d.hits,
                    if d.hits == 1 { "" } else { "s" },
                    escape(&s.name)
                )
            },
            true,
        ),
        field(
            "Target",
            screen::npc(
                s.npc,
                format!(
                    "ST {}: {} → {} left ({} taken in all)",
                    s.st,
                    a.st_before,
                    a.st_left,
                    s.hits_before + i64::from(a.hits)
                ),
            ),
            false,
        ),
    ]
}

/// The spell as the caster's sheet names it, or the refusal listing what the sheet has.
fn known_spell(
    caster: &crate::store::characters::Character,
    sheet: &crate::app::sheet::TftSheet,
    spell: &str,
) -> AppResult<String> {
    sheet
        .spells
        .iter()
        .find(|s| same_name(s, spell))
        .cloned()
        .ok_or_else(|| {
            user(format!(
                "{} does not know {}; the sheet lists {}. Add spells with /character set field:spells.",
                escape(&caster.name),
                escape(spell),
                if sheet.spells.is_empty() {
                    "none".to_owned()
                } else {
                    escape(&sheet.spells.join(", "))
                }
            ))
        })
}

/// Spell names compare without case, spaces or punctuation.
fn same_name(a: &str, b: &str) -> bool {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    key(a) == key(b)
}

fn kind_name(kind: SpellKind) -> &'static str {
    match kind {
        SpellKind::Missile => "missile",
        SpellKind::Thrown => "thrown",
        SpellKind::Creation => "creation",
        SpellKind::Special => "special",
    }
}

fn effect_text(kind: SpellKind, o: CastOutcome) -> String {
    let times = match o.multiplier {
        Multiplier::Normal => "",
        Multiplier::Double => " ×2",
        Multiplier::Triple => " ×3",
    };
    match (o.works, kind) {
        (true, SpellKind::Missile) => format!("hits{times} (damage{times})"),
        (true, _) => format!("takes effect{times}"),
        (false, _) if o.caster_falls => "no effect, and the caster falls prone".to_owned(),
        (false, _) if o.flies_on => "misses and flies on in a straight line".to_owned(),
        (false, _) => "no effect".to_owned(),
    }
}
