//! `/tft attack attacker target [weapon] [facing] [defending] [dodging] [wait] [range] [prior]
//! [actions] [charge] [modifier] [mode] [parry] [shield_wall] [stance] [adjust]`: the whole TFT
//! attack, with the hits applied to the target in the same transaction as the roll's log entry.

pub(crate) mod adjust;
mod encounter;
mod house;
mod render;
mod several;

pub(super) use render::{breakdown, outcome_name, outcome_tone, table_text};

use serde_json::json;

use super::state;

use super::shared::{gear_dx, has_talent, menu, st_left, table_settings, tft_sheet};
use crate::app::encounter::hooks::{self, TftTurn};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::Reply;
use crate::app::screen;
use crate::app::sheet::{ItemStats, TftSheet};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user, weapons};
use crate::rules::dice::DieSource as _;
use crate::rules::tft::attack::{
    Adjustment, AttackKind, AttackSetup, AttackSpec, AttackTableSettings, DefendAndAttack, Mishap,
    ParryShield, PreciseTarget, Technique,
};
use crate::rules::tft::character::Talent;
use crate::rules::tft::damage::{
    AttackAllowed, Blow, Charge, Defence, DefendWith, Direction, Parry, Precise, Striker, Target,
    Toughness, defend_attack, keep_lance, parry_attack, shield_wall_stops, striker_dice,
};
use crate::rules::tft::gear::{self, FireRate, Quality, ShieldKind, Weapon, WeaponGroup};
use crate::rules::tft::injury::AttributeRoll;
use crate::rules::tft::odds::attack_odds;
use crate::rules::tft::resolve::resolve_attack;
use crate::rules::tft::{Multiplier, injury, multi};
use crate::store::Conn;
use crate::store::characters::{self, Character, Item};

/// The largest free modifier either way (the attack rules' own limit).
const MAX_MODIFIER: i64 = 40;
/// The most turns waited, earlier rolls and hexes accepted.
const MAX_WAIT: i64 = 100;
const MAX_PRIOR: i64 = 100;
const MAX_RANGE: i64 = 10_000;

/// Where the blow comes from, relative to the target's facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Facing {
    #[default]
    Front,
    Side,
    Rear,
}

/// What the target does against the blow: each adds a die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    Defending,
    Dodging,
}

/// What the attacker also does with its off hand or shield this turn
/// (tft-house-rules-combat.txt, "Parrying and Defending").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    ParryMainGauche,
    ParryWeapon,
    ParryShield,
    DefendWeapon,
    DefendShield,
}

/// A parsed `/tft attack`.
#[derive(Debug, Clone)]
pub struct Attack {
    attacker: String,
    target: String,
    weapon: Option<String>,
    facing: Facing,
    guard: Option<Guard>,
    wait: Option<u32>,
    range: Option<u32>,
    prior: u32,
    actions: Option<u32>,
    charge: Charge,
    modifier: i32,
    mode: RollMode,
    /// How the target parries this blow.
    parry: Parry,
    /// The target's neighbours in a shield wall.
    shield_wall: u32,
    stance: Option<Stance>,
    /// The named circumstances of `adjust`.
    extras: adjust::Extras,
    /// The guild plays with Bill Seurer's house rules (read when the attack runs).
    house_rules: bool,
    /// Attacks of this same command before this one, outside an encounter (which counts them
    /// itself): each is one earlier roll for a shot or a throw (`several`).
    earlier: u32,
}

const OPTIONS: [&str; 17] = [
    "attacker",
    "target",
    "weapon",
    "facing",
    "defending",
    "dodging",
    "wait",
    "range",
    "prior",
    "actions",
    "charge",
    "modifier",
    "mode",
    "parry",
    "shield_wall",
    "stance",
    "adjust",
];

impl Attack {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &OPTIONS)?;
        let facing = match o.text("facing") {
            None => Facing::Front,
            Some(f) => menu(
                "facing",
                f,
                &[
                    ("front", Facing::Front),
                    ("side", Facing::Side),
                    ("rear", Facing::Rear),
                ],
            )?,
        };
        let guard = match (o.flag("defending")?, o.flag("dodging")?) {
            (true, true) => {
                return Err(user(
                    "Choose defending or dodging, not both: either adds one die to the roll.",
                ));
            }
            (true, false) => Some(Guard::Defending),
            (false, true) => Some(Guard::Dodging),
            (false, false) => None,
        };
        let charge = match o.text("charge") {
            None => Charge::None,
            Some(c) => menu(
                "charge",
                c,
                &[
                    ("none", Charge::None),
                    ("charging", Charge::Charging),
                    ("off-centre", Charge::ChargingOffCentre),
                    ("receiving", Charge::Receiving),
                    ("receiving-rider", Charge::ReceivingRider),
                ],
            )?,
        };
        let parry = match o.text("parry") {
            None => Parry::None,
            Some(p) => menu(
                "parry",
                p,
                &[
                    ("none", Parry::None),
                    ("main-gauche", Parry::MainGauche),
                    ("second-weapon", Parry::SecondWeapon),
                    ("shield", Parry::Shield),
                    ("full", Parry::Full),
                ],
            )?,
        };
        let stance = match o.text("stance") {
            None => None,
            Some(t) => Some(menu(
                "stance",
                t,
                &[
                    ("parry-main-gauche", Stance::ParryMainGauche),
                    ("parry-weapon", Stance::ParryWeapon),
                    ("parry-shield", Stance::ParryShield),
                    ("defend-weapon", Stance::DefendWeapon),
                    ("defend-shield", Stance::DefendShield),
                ],
            )?),
        };
        let shield_wall = o.int("shield_wall", 0, i64::from(u32::MAX))?.unwrap_or(0) as u32;
        shield_wall_stops(shield_wall).map_err(|e| user(format!("shield_wall: {e}")))?;
        let max_actions = i64::from(multi::max_multiplier());
        Ok(Self {
            // In an encounter's channel the attacker defaults to whoever's turn it is.
            attacker: o.text("attacker").unwrap_or_default().to_owned(),
            target: o.required("target")?.to_owned(),
            weapon: o.text("weapon").map(|w| w.trim().to_owned()),
            facing,
            guard,
            wait: o
                .int("wait", 0, MAX_WAIT)?
                .filter(|&t| t > 0)
                .map(|t| t as u32),
            range: o.int("range", 0, MAX_RANGE)?.map(|r| r as u32),
            prior: o.int("prior", 0, MAX_PRIOR)?.unwrap_or(0) as u32,
            actions: o.int("actions", 1, max_actions)?.map(|a| a as u32),
            charge,
            modifier: o.int("modifier", -MAX_MODIFIER, MAX_MODIFIER)?.unwrap_or(0) as i32,
            mode: o.mode()?,
            parry,
            shield_wall,
            stance,
            extras: o
                .text("adjust")
                .map(adjust::parse)
                .transpose()?
                .unwrap_or_default(),
            house_rules: true,
            earlier: 0,
        })
    }

    fn run_turn(mut self, ctx: &Ctx<'_>, turn: &TftTurn) -> AppResult<Reply> {
        let (settings, house_rules) = table_settings(ctx);
        self.house_rules = house_rules;
        let (what, full) = ctx
            .app
            .store
            .write(|tx| self.resolve(ctx, tx, turn, settings))?;
        Ok(ctx.route(self.mode, &what, full))
    }

    /// One attack, rolled and written in `tx`: what the reply names it ("an attack on Orc")
    /// and the reply before it is routed by its mode.
    #[allow(clippy::too_many_lines)] // One attack, read top to bottom: roll, write, reply.
    fn resolve(
        &self,
        ctx: &Ctx<'_>,
        tx: &Conn,
        turn: &TftTurn,
        settings: AttackTableSettings,
    ) -> AppResult<(String, Reply)> {
        let house_rules = self.house_rules;
        let guild = ctx.caller.guild;
        let attacker = ctx.acting_character(tx, Some(&self.attacker))?;
        // In an encounter, a player may name one of its NPCs (whose numbers stay hidden).
        let target = hooks::target(ctx, tx, &self.target)?;
        hooks::may_strike(ctx, tx, &attacker, &target)?;
        let a_sheet = tft_sheet(&attacker)?;
        let t_sheet = tft_sheet(&target)?;
        state::ready_to_attack(tx, guild, &attacker, &a_sheet)?;
        let items = characters::items(tx, guild, attacker.id)?;
        let st_less = a_sheet.st - self.attack_st(&attacker, &a_sheet)?;
        let chosen = choose_weapon(&attacker, &items, self.weapon.as_deref(), st_less)?;
        let chosen = self.without_house_rules(chosen)?;
        if !self.house_rules {
            super::shared::house_gear(&attacker, &a_sheet)?;
            super::shared::house_gear(&target, &t_sheet)?;
        }
        let (armor_dx, shield_dx) = gear_dx(&attacker, &a_sheet, self.house_rules)?;
        let adjustments = more(
            self.adjustments(&chosen, &attacker, &a_sheet)?,
            turn,
            &chosen,
        );
        let mut spec = AttackSpec {
            dx: a_sheet.dx,
            armor_dx,
            shield_dx,
            technique: Technique::Normal,
            adjustments: self.plain_adjustments(adjustments)?,
        };
        // The plain adjDX decides whether the archer may shoot twice or take a good shot.
        let plain = spec.setup().map_err(user)?;
        spec.technique = self.technique(&chosen, &attacker, &a_sheet, &plain)?;
        let reload = reload_turns(&chosen, plain.adj_dx, a_sheet.st);
        if let Some((weapon, _)) = reload {
            hooks::tft_reloading(ctx, tx, attacker.id, weapon)?;
        }
        let setup = spec.setup().map_err(user)?;
        let attacker_st = self.attack_st(&attacker, &a_sheet)?;
        let blow = self.blow(&chosen, attacker_st, setup.technique);
        // Refuse what the damage rules would refuse before any die is rolled.
        check_striker(&blow.striker, attacker_st, a_sheet.st)?;
        injury::reaction_thresholds(t_sheet.st).map_err(user)?;
        let (hits_before, fatigue) = characters::tft_damage(tx, guild, target.id)?;
        let struck = Target {
            defence: self.defence(&target, &t_sheet, ctx.is_gm())?,
            st: t_sheet.st,
            st_left: st_left(&t_sheet, hits_before, fatigue),
            earlier_hits: turn.earlier_hits,
            acrobatics_adj_dx: acrobatics(&target, &t_sheet, self.house_rules)?,
        };
        let aimed = self.aimed(&chosen);
        let (res, breakage, self_damage, lance) = {
            let mut dice = ctx.dice();
            let res = resolve_attack(&mut dice, &setup, settings, &blow, &struck, house_rules)
                .map_err(user)?;
            let mishap = chosen.kind().mishap(res.roll.outcome);
            let breakage =
                (mishap == Mishap::WeaponBreaks).then(|| chosen.quality.roll_breakage(&mut dice));
            // tft-rules-summary.md, "ROLLING TO HIT": bare hands on 17 or 18 miss and do 1d
            // to the attacker. Decision: the attacker hurts itself, so its armor stops none.
            let self_damage = (mishap == Mishap::SelfDamage).then(|| dice.roll(6));
            let rider = (a_sheet.st, a_sheet.dx + armor_dx + shield_dx);
            let lance = self.keep_lance(res.roll.is_hit(), &chosen, rider, &mut dice);
            (res, breakage, self_damage, lance)
        };
        let new_hits = res.damage.as_ref().map_or(0, |d| i64::from(d.applied.hits));
        let aimed_effects = aimed
            .filter(|_| res.roll.is_hit())
            .map(|t| (t, t.effects(new_hits as u32)));
        if new_hits > 0 {
            characters::set_tft_damage(tx, guild, target.id, hits_before + new_hits, fatigue)?;
        }
        state::record_blow(tx, guild, &target, &t_sheet, res.damage.as_ref())?;
        let down = res.damage.as_ref().is_some_and(|d| {
            d.after.knocked_down || d.applied.condition != injury::Condition::Conscious
        });
        let lines = hooks::tft_after(
            ctx,
            tx,
            &hooks::TftBlow {
                attacker: attacker.id,
                target: target.id,
                hits: new_hits as i32,
                target_st: t_sheet.st,
                down,
                reload,
                shooting_twice: self.extras.shooting_twice,
            },
        )?;
        if breakage.is_some_and(|b| b.broken) {
            state::record_break(tx, guild, &attacker, chosen.item)?;
        }
        if chosen.kind().mishap(res.roll.outcome) == Mishap::DropWeapon {
            state::record_drop(tx, guild, &attacker, chosen.item)?;
        }
        let mut lines = lines;
        lines.extend(hurt_self(ctx, tx, attacker.id, a_sheet.st, self_damage)?);
        let label = format!("{} attacks {}", attacker.name, target.name);
        ctx.log_roll(
            tx,
            Some(attacker.id),
            "tft attack",
            self.mode,
            &label,
            &json!({
                "attacker": attacker.id,
                "target": target.id,
                "weapon": chosen.name,
                "adj_dx": setup.adj_dx,
                "dice": setup.dice,
                "faces": res.roll.faces,
                "total": res.roll.total,
                "outcome": self_damage
                    .map_or(outcome_name(res.roll.outcome), |_| render::SELF_DAMAGE),
                "before_armor": res.damage.as_ref().map(|d| d.damage.before_armor),
                "hits": new_hits,
                "hits_taken": hits_before + new_hits,
                "weapon_broken": breakage.map(|b| b.broken),
                "self_damage": self_damage,
                "lance_kept": lance.as_ref().map(|l| l.success),
                "doubled_outright": res.roll.doubled_outright(),
                "aim": aimed.map(|t| format!("{t:?}")),
            }),
        )?;
        let shown = render::Shown {
            attacker: &attacker.name,
            target: &target.name,
            weapon: &chosen.name,
            weapon_note: chosen.note.as_deref(),
            setup: &setup,
            res: &res,
            breakage,
            self_damage,
            target_st: t_sheet.st,
            hits_before,
            lance: lance.as_ref(),
            hit_chance: attack_odds(&setup, settings).ok().map(|o| o.hit_percent()),
            aimed: aimed_effects.as_ref(),
            doubled_outright: res.roll.doubled_outright(),
            npcs: (attacker.npc, target.npc),
        };
        // A target left below 0 ST is offered its dying roll (`/tft dying`) as a button.
        let dying = res
            .damage
            .as_ref()
            .is_some_and(|d| d.applied.condition == injury::Condition::Dying);
        let mut reply = hooks::with_lines(
            Reply::public("").with_embed(render::embed(&shown)),
            RollMode::Public,
            &lines,
        );
        if dying {
            // An NPC's dying roll is the GM's: its button reaches the GM alone.
            let mut button = crate::app::encounter::status::tft_dying_button(target.id);
            button.label = screen::npc(target.npc, button.label);
            reply = reply.with_button(button);
        }
        Ok((format!("an attack on {}", escape(&target.name)), reply))
    }

    /// tft-house-rules.txt, "Lance and Pike Rules": a rider whose lance charge hits rolls 3d
    /// against the lower of ST and adjDX to keep the lance.
    /// `rider` is (ST, adjDX).
    fn keep_lance(
        &self,
        hit: bool,
        chosen: &Chosen,
        (st, adj_dx): (i32, i32),
        dice: &mut impl crate::rules::dice::DieSource,
    ) -> Option<AttributeRoll> {
        let lance = chosen.weapon.is_some_and(|w| w.group == WeaponGroup::Lance);
        let charging = matches!(self.charge, Charge::Charging | Charge::ChargingOffCentre);
        (hit && lance && charging).then(|| keep_lance(dice, st, adj_dx))
    }

    /// The blow: the chosen weapon (or bare hands) at this attack's ST, with a precise throw's
    /// and a Dagger Marksman's doubling and a halfling's extra point.
    fn blow(&self, chosen: &Chosen, attacker_st: i32, technique: Technique) -> Blow {
        Blow {
            striker: chosen.striker(self.charge),
            multiplier: Multiplier::Normal,
            attacker_st,
            precise: self.aimed(chosen).map_or(Precise::None, Precise::of),
            dagger_marksmanship: technique == Technique::DaggerMarksman,
            halfling: self.extras.halfling,
        }
    }

    /// The row of the precise-attack table this blow is aimed by. tft-rules-summary.md,
    /// "PRECISE ATTACKS": a thrown dagger or throwing star, or a whip, aimed at the head or hand
    /// reads the THROWN rows; every other aimed blow the OTHER ATTACKS rows.
    fn aimed(&self, chosen: &Chosen) -> Option<PreciseTarget> {
        let aim = self.extras.aim?;
        let name = chosen.weapon.map(|w| w.name);
        let thrown = name == Some("Whip")
            || (self.range.is_some() && matches!(name, Some("Dagger" | "Sha-ken")));
        Some(match aim {
            adjust::Aim::Head if thrown => PreciseTarget::ThrownHead,
            adjust::Aim::Hand if thrown => PreciseTarget::ThrownHand,
            adjust::Aim::Head => PreciseTarget::Head,
            adjust::Aim::Hand => PreciseTarget::WeaponHand,
            adjust::Aim::Arm => PreciseTarget::ShieldArm,
            adjust::Aim::Leg => PreciseTarget::Leg,
            adjust::Aim::Wing => PreciseTarget::Wing,
        })
    }

    /// The double/triple range the blow is struck with: a declared good shot, a weapon master's
    /// blow with the weapon of its talent, or a Dagger Marksman's thrown dagger.
    ///
    /// tft-house-rules-combat.txt, "Weapon Master Skills" (Fencing, Axeplay and Pole Weapon
    /// Master), "Good Bow Shots" and "Dagger Marksmanship". Decision: Fencing covers the
    /// swords-and-knives table, Axeplay the axes and maces, Pole Weapon Master the pole
    /// weapons; a sling's good shot takes the turn of waiting on the player's word.
    ///
    /// "Good Bow Shots" also: a bow's good shot is taken instead of the second shot, so the two
    /// are never declared together; a sling's turn of waiting for its good shot is not waiting
    /// for an opening and earns none of that option's bonuses.
    // Decision: a sling's good shot with `wait` is refused rather than read as its one turn, so
    // no waiting bonus or widening can ride on it; the player is told to leave `wait` out.
    fn technique(
        &self,
        chosen: &Chosen,
        c: &Character,
        sheet: &TftSheet,
        plain: &AttackSetup,
    ) -> AppResult<Technique> {
        let weapon = chosen.weapon;
        let rate = weapon.and_then(|w| w.fire_rate);
        if self.extras.shooting_twice {
            let fast = match rate {
                Some(r @ FireRate::TwiceAt { .. }) => r.fast(plain.adj_dx, sheet.st),
                _ => false,
            };
            if !fast {
                return Err(user(format!(
                    "{} cannot shoot twice this turn with {}: {}",
                    escape(&c.name),
                    escape(&chosen.name),
                    rate_text(rate)
                )));
            }
        }
        if self.extras.good_shot && self.extras.shooting_twice {
            return Err(user(
                "A good shot is taken instead of the second shot: adjust takes good-shot or shooting-twice, not both.",
            ));
        }
        if self.extras.good_shot {
            let Some(range_hexes) = self
                .range
                .filter(|_| weapon.is_some_and(Weapon::is_missile))
            else {
                return Err(user(
                    "good-shot is a bow or sling shot at a range: give range and a missile weapon.",
                ));
            };
            let sling = weapon.is_some_and(|w| w.name == "Sling");
            if sling && self.wait.is_some() {
                return Err(user(
                    "A sling's good shot already waits its one turn, and that turn is not waiting for an opening: no waiting bonus. Leave wait out.",
                ));
            }
            let bow_ok = matches!(rate, Some(r @ FireRate::TwiceAt { .. }) if r.fast(plain.adj_dx, sheet.st))
                && has_talent(sheet, Talent::MissileWeapons);
            if !(sling || bow_ok) {
                return Err(user(format!(
                    "{} cannot take a good shot with {}: a bow needs Missile Weapons and the adjDX to shoot twice ({}); crossbows never can.",
                    escape(&c.name),
                    escape(&chosen.name),
                    rate_text(rate)
                )));
            }
            return Ok(Technique::GoodBowShot { range_hexes });
        }
        let master = match weapon.map(|w| w.group) {
            Some(WeaponGroup::SwordKnife) => has_talent(sheet, Talent::Fencing),
            Some(WeaponGroup::AxeMace) => has_talent(sheet, Talent::Axeplay),
            Some(WeaponGroup::Pole) => has_talent(sheet, Talent::PoleWeaponMaster),
            _ => false,
        };
        // Decision: without the house rules a master strikes a normal blow. Their ranges (3-4
        // triple, 5-6 double, and 5-7 for a good shot) are tft-house-rules-combat.txt's, and
        // tft-rules-summary.md has no Fencing or weapon-master talent to fall back on.
        if master && self.house_rules {
            return Ok(Technique::WeaponMaster);
        }
        let thrown_dagger = self.range.is_some() && weapon.is_some_and(|w| w.name == "Dagger");
        if thrown_dagger && has_talent(sheet, Talent::DaggerMarksmanship) {
            return Ok(Technique::DaggerMarksman);
        }
        Ok(Technique::Normal)
    }

    /// The target's defence: its armor and shield, and this blow's parry and shield wall.
    /// `gm`: the caller is a GM (who may read an NPC's talents).
    fn defence(&self, c: &Character, sheet: &TftSheet, gm: bool) -> AppResult<Defence> {
        let talents: Vec<Talent> = sheet
            .talents
            .iter()
            .filter_map(|t| Talent::parse(t))
            .collect();
        Ok(Defence {
            parry: self.parry,
            shield_wall_neighbours: self.shield_wall_of(c, &talents, gm)?,
            toughness: Toughness::of_talents(&talents),
            natural: self.extras.natural,
            armor_wear: self.extras.armor_wear,
            pack_on_back: self.extras.pack,
            ..defence(c, sheet, self.facing)?
        })
    }

    /// The neighbours whose shields add to the target's in a shield wall.
    /// tft-house-rules-combat.txt, "Shield Wall": only soldiers with Military Discipline form
    /// one, so a target without the talent is refused one.
    // Decision: a player who puts a GM's NPC in a wall it cannot form gets no refusal, which would
    // tell them a talent on its sheet (SPEC §3); the wall just adds nothing, as the GM's copy of
    // the stops shows.
    fn shield_wall_of(&self, c: &Character, talents: &[Talent], gm: bool) -> AppResult<u32> {
        if self.shield_wall == 0 || talents.contains(&Talent::MilitaryDiscipline) {
            return Ok(self.shield_wall);
        }
        if c.npc && !gm {
            return Ok(0);
        }
        Err(user(format!(
            "{} lacks Military Discipline, the talent a shield wall asks for; leave shield_wall out.",
            escape(&c.name)
        )))
    }

    /// The attacker's ST for this blow. tft-multiple-actions.txt, "Action Segment": an attack
    /// taken among several actions loses 4 ST per step of the penalty multiplier.
    // Decision: the lowered ST counts for everything the blow does with ST (the weapon's
    // minimum, bare-hand damage, a strong attacker's knockdown), not only the minimum.
    fn attack_st(&self, c: &Character, sheet: &TftSheet) -> AppResult<i32> {
        let penalty = self.actions.map_or(0, |m| {
            multi::META_OPTIONS
                .iter()
                .find(|o| o.multiplier == m)
                .map_or(0, |o| {
                    multi::action_terms(multi::Action::Attack, o).st_penalty
                })
        });
        let st = sheet.st - penalty;
        if penalty > 0 && st < 1 {
            return Err(user(format!(
                "{} has ST {}; multiple actions take {penalty} ST off each attack, leaving none to strike with.",
                escape(&c.name),
                sheet.st,
            )));
        }
        Ok(st)
    }

    /// The typed adjustments this attack's options ask for.
    fn adjustments(
        &self,
        chosen: &Chosen,
        c: &Character,
        sheet: &TftSheet,
    ) -> AppResult<Vec<Adjustment>> {
        let mut out = Vec::new();
        if let Some(stance) = self.stance {
            out.push(stance_adjustment(stance, c, sheet)?);
        }
        // tft-rules-summary.md, "DX adjustments": the side and rear bonuses are for melee and
        // thrown attacks; a missile shot's facing only decides which stops the target has.
        let missile = chosen.weapon.is_some_and(Weapon::is_missile);
        match self.facing {
            Facing::Front => {}
            _ if missile => {}
            Facing::Side => out.push(Adjustment::FromSide),
            Facing::Rear => out.push(Adjustment::FromRear),
        }
        // tft-house-rules-combat.txt, "Pole Weapons" (and the summary's list): a pole weapon set
        // against a charge also strikes at +2 DX, besides its charge damage.
        if matches!(self.charge, Charge::Receiving | Charge::ReceivingRider)
            && chosen.weapon.is_some_and(Weapon::is_pole)
        {
            out.push(Adjustment::PoleSetVsCharge);
        }
        match self.guard {
            Some(Guard::Defending) => out.push(Adjustment::TargetDefending),
            Some(Guard::Dodging) => out.push(Adjustment::TargetDodging),
            None => {}
        }
        match (self.wait, self.extras.widen) {
            (Some(turns), widen) => out.push(Adjustment::WaitingForOpening {
                turns,
                widen,
                house_rules: self.house_rules,
            }),
            (None, 0) => {}
            (None, _) => {
                return Err(user(
                    "widen trades a waiting bonus for wider double/triple ranges: give wait too.",
                ));
            }
        }
        if let Some(hexes) = self.range {
            out.push(range_adjustment(
                chosen,
                hexes,
                sheet,
                self.extras.shooting_twice,
                self.house_rules,
            )?);
        }
        // tft-house-rules.txt, "Skiing": missile and thrown weapons take no penalty on skis.
        let shot = missile || (self.range.is_some() && chosen.weapon.is_some_and(|w| w.thrown));
        self.extra_adjustments(&mut out, c, sheet, shot)?;
        if let Some(target) = self.aimed(chosen) {
            out.push(Adjustment::Precise(target));
        }
        let prior = self.prior + if shot { self.earlier } else { 0 };
        if prior > 0 {
            out.push(Adjustment::EarlierRollsThisTurn(prior));
        }
        if let Some(multiplier) = self.actions {
            out.push(Adjustment::MultipleActions { multiplier });
        }
        let other = self.modifier + chosen.quality.dx_bonus();
        if other != 0 {
            out.push(Adjustment::Other(other));
        }
        Ok(out)
    }
}

impl Attack {
    /// The adjustments `adjust` names: a second attack (Two Weapons from the sheet), skis (the
    /// Skiing talent from the sheet; `shot`: a missile or thrown weapon), and the plain ones;
    /// snowshoes need their talent.
    fn extra_adjustments(
        &self,
        out: &mut Vec<Adjustment>,
        c: &Character,
        sheet: &TftSheet,
        shot: bool,
    ) -> AppResult<()> {
        if self.extras.second_attack {
            out.push(Adjustment::SecondAttack {
                two_weapons: has_talent(sheet, Talent::TwoWeapons),
            });
        }
        if self.extras.skis {
            out.push(Adjustment::OnSkis {
                skiing: has_talent(sheet, Talent::Skiing) || has_talent(sheet, Talent::MasterSkier),
                shot,
            });
        }
        for a in &self.extras.adjustments {
            if *a == Adjustment::SnowshoesVsFoeWithout && !has_talent(sheet, Talent::Snowshoe) {
                return Err(user(format!(
                    "{} lacks the Snowshoe talent that fighting on snowshoes at +2 asks for.",
                    escape(&c.name)
                )));
            }
            out.push(*a);
        }
        Ok(())
    }
}

/// A weapon that must be reloaded between shots (a crossbow): its name and the turns one shot
/// takes, the shot's own turn included (tft-rules-summary.md, "MISSILE WEAPONS": a light
/// crossbow fires once in 2 turns, once a turn at adjDX 14 or more; a heavy one once in 3, once
/// in 2 at adjDX 16 or more). `None` for any other weapon, or one that fires every turn.
///
/// Decision: the table ties the faster rate to adjDX alone (ST counts only for the Great Bow's
/// second shot), read as for shooting twice: the shot's adjDX before the technique.
fn reload_turns(chosen: &Chosen, adj_dx: i32, st: i32) -> Option<(&'static str, u32)> {
    let w = chosen.weapon?;
    match w.fire_rate {
        Some(
            rate @ FireRate::Reload {
                turns, fast_turns, ..
            },
        ) => {
            let n = if rate.fast(adj_dx, st) {
                fast_turns
            } else {
                turns
            };
            (n > 1).then_some((w.name, n))
        }
        _ => None,
    }
}

/// A missile weapon's rate of fire in words (tft-rules-summary.md, "MISSILE WEAPONS").
fn rate_text(rate: Option<FireRate>) -> String {
    match rate {
        Some(FireRate::TwiceAt { adj_dx, st: None }) => {
            format!("it shoots twice a turn at adjDX {adj_dx} or more")
        }
        Some(FireRate::TwiceAt {
            adj_dx,
            st: Some(st),
        }) => format!("it shoots twice a turn at adjDX {adj_dx} and ST {st} or more"),
        Some(FireRate::Reload {
            turns,
            fast_turns,
            adj_dx,
        }) => format!(
            "it shoots once in {turns} turns, once in {fast_turns} at adjDX {adj_dx} or more"
        ),
        None => "it is not a bow or sling".to_owned(),
    }
}

/// The DX cost of attacking while parrying or defending, as the shield rules allow it, or a
/// refusal where they allow no attack (a tower shield, a full parry, defending without the
/// talent).
fn stance_adjustment(stance: Stance, c: &Character, sheet: &TftSheet) -> AppResult<Adjustment> {
    let shield = match sheet.shield.as_deref().filter(|s| !s.trim().is_empty()) {
        Some(name) => Some(
            gear::shield(name)
                .map_err(|e| super::shared::gear_error(c, &e))?
                .kind,
        ),
        None => None,
    };
    let two_weapons = has_talent(sheet, Talent::TwoWeapons);
    let advanced_shield = has_talent(sheet, Talent::AdvancedShield);
    let no_shield = || {
        user(format!(
            "{} carries no shield to parry or defend with; set one with /character set.",
            escape(&c.name)
        ))
    };
    let small = |kind: ShieldKind| kind.is_small();
    let (allowed, adjustment) = match stance {
        Stance::ParryMainGauche => (
            parry_attack(Parry::MainGauche, shield, two_weapons, advanced_shield),
            Adjustment::MainGaucheDefensive,
        ),
        Stance::ParryWeapon => (
            parry_attack(Parry::SecondWeapon, shield, two_weapons, advanced_shield),
            Adjustment::ParryWithSecondWeapon { two_weapons },
        ),
        Stance::ParryShield => {
            let kind = shield.ok_or_else(no_shield)?;
            (
                parry_attack(Parry::Shield, shield, two_weapons, advanced_shield),
                Adjustment::ParryWithShield {
                    shield: if small(kind) {
                        ParryShield::Small
                    } else {
                        ParryShield::Large
                    },
                    advanced_shield,
                },
            )
        }
        Stance::DefendWeapon => (
            Ok(defend_attack(
                DefendWith::Weapon,
                two_weapons,
                advanced_shield,
            )),
            Adjustment::DefendAndAttack(DefendAndAttack::TwoWeapons),
        ),
        Stance::DefendShield => {
            let kind = shield.ok_or_else(no_shield)?;
            (
                Ok(defend_attack(
                    DefendWith::Shield(kind),
                    two_weapons,
                    advanced_shield,
                )),
                Adjustment::DefendAndAttack(if small(kind) {
                    DefendAndAttack::AdvancedShieldSmall
                } else {
                    DefendAndAttack::AdvancedShieldLarge
                }),
            )
        }
    };
    match allowed.map_err(user)? {
        AttackAllowed::At(_) => Ok(adjustment),
        AttackAllowed::NoAttack => Err(user(format!(
            "{} cannot attack while {}: {}",
            escape(&c.name),
            stance_name(stance),
            match stance {
                Stance::DefendWeapon => "defending with a weapon and attacking needs Two Weapons.",
                Stance::DefendShield => {
                    "defending with a shield and attacking needs Advanced Shield, and never a tower shield."
                }
                _ => "a tower shield parries without attacking.",
            }
        ))),
    }
}

fn stance_name(stance: Stance) -> &'static str {
    match stance {
        Stance::ParryMainGauche => "parrying with a main-gauche",
        Stance::ParryWeapon => "parrying with a second weapon",
        Stance::ParryShield => "parrying with a shield",
        Stance::DefendWeapon => "defending with a weapon",
        Stance::DefendShield => "defending with a shield",
    }
}

/// The 1d a bare-handed fumble does to the attacker, added to its hits. Read after the target's
/// write, in case a figure struck at itself.
/// In a fight they count in its round's hits (`encounter::hooks::tft_hits`); returns the
/// encounter's lines.
fn hurt_self(
    ctx: &Ctx<'_>,
    tx: &crate::store::Conn,
    attacker: crate::store::CharacterId,
    st: i32,
    hurt: Option<u32>,
) -> AppResult<Vec<String>> {
    let Some(hurt) = hurt else {
        return Ok(Vec::new());
    };
    let guild = ctx.caller.guild;
    let (hits, fatigue) = characters::tft_damage(tx, guild, attacker)?;
    characters::set_tft_damage(tx, guild, attacker, hits + i64::from(hurt), fatigue)?;
    hooks::tft_hits(ctx, tx, attacker, i64::from(hurt), st, false)
}
/// Refuses a weapon the attacker cannot wield at this attack's ST (`sheet_st` less any
/// multiple-actions penalty), saying why the ST is lower than the sheet's.
fn check_striker(striker: &Striker, st: i32, sheet_st: i32) -> AppResult<()> {
    striker_dice(striker, st).map(|_| ()).map_err(|e| {
        if st < sheet_st {
            let less = sheet_st - st;
            user(format!(
                "{e} (ST {sheet_st}, less {less} for multiple actions)"
            ))
        } else {
            user(e)
        }
    })
}

/// The range adjustment for the weapon: missile weapons by hexes, thrown ones by the spaces
/// between thrower and target (one fewer than the hexes to it).
fn range_adjustment(
    chosen: &Chosen,
    hexes: u32,
    sheet: &TftSheet,
    shooting_twice: bool,
    house_rules: bool,
) -> AppResult<Adjustment> {
    match chosen.weapon {
        // tft-house-rules-combat.txt, "Long Range Shots": the table past 30 hexes is the house
        // rules'. Decision: without them every range keeps the normal 1 per 6 hexes, since the
        // summary's own two rates disagree (see `MISSILE_HEXES_PER_DX`).
        Some(w) if w.is_missile() => Ok(Adjustment::MissileRange {
            hexes,
            missile_weapons_talent: house_rules && has_talent(sheet, Talent::MissileWeapons),
            shooting_twice,
        }),
        Some(w) if w.thrown => Ok(Adjustment::ThrownRange {
            spaces: hexes.saturating_sub(1),
        }),
        _ => Err(user(format!(
            "range is for missile and thrown weapons; {} is used hand to hand, so leave range out.",
            escape(&chosen.name)
        ))),
    }
}

/// The adjustments the encounter adds: −2 adjDX after enough hits since the last action, and
/// a missile's earlier shots this turn when `prior:` was left out.
fn more(mut out: Vec<Adjustment>, turn: &TftTurn, chosen: &Chosen) -> Vec<Adjustment> {
    if turn.hurt {
        out.push(Adjustment::HurtSinceLastAction);
    }
    let missile = chosen.weapon.is_some_and(Weapon::is_missile);
    let given = out
        .iter()
        .any(|a| matches!(a, Adjustment::EarlierRollsThisTurn(_)));
    if missile && !given && turn.rolls_this_turn > 0 {
        out.push(Adjustment::EarlierRollsThisTurn(turn.rolls_this_turn));
    }
    out
}

/// The weapon an attack uses.
#[derive(Debug, Clone)]
struct Chosen {
    /// `None`: bare hands.
    weapon: Option<&'static Weapon>,
    quality: Quality,
    /// How the reply names it.
    name: String,
    /// Why this one, when it was picked for the caller.
    note: Option<String>,
    /// The carried item, when it is one (a break is marked on it).
    item: Option<i64>,
}

impl Chosen {
    /// The column of the to-hit table this attack reads its mishaps from.
    fn kind(&self) -> AttackKind {
        match self.weapon {
            Some(_) => AttackKind::Weapon,
            None => AttackKind::Unarmed,
        }
    }

    fn striker(&self, charge: Charge) -> Striker {
        match self.weapon {
            Some(weapon) => Striker::Weapon {
                weapon,
                quality: self.quality,
                charge,
            },
            None => Striker::BareHands,
        }
    }
}

/// Picks the weapon: the one named (from the attacker's equipment, else the weapon table, or
/// bare hands), or else the default every attack shares ([`weapons::default_weapon`]: the first
/// carried weapon the attacker can use at this attack's ST, `st_less` below the sheet's).
fn choose_weapon(
    attacker: &Character,
    items: &[Item],
    requested: Option<&str>,
    st_less: i32,
) -> AppResult<Chosen> {
    let owner = attacker.name.as_str();
    let Some(name) = requested else {
        let pick = weapons::default_weapon(attacker, items, st_less)?;
        let mut chosen = match &pick.item {
            Some(item) => carried_weapon(item, owner)?,
            None => bare_hands(),
        };
        chosen.note = pick.note();
        return Ok(chosen);
    };
    if weapons::is_bare_hands(name) {
        return Ok(bare_hands());
    }
    let carried: Vec<&Item> = items.iter().filter(|i| i.kind == "weapon").collect();
    if let Some(item) = carried.iter().find(|i| i.name.eq_ignore_ascii_case(name)) {
        return carried_weapon(item, owner);
    }
    let weapon = gear::weapon(name).map_err(|e| {
        user(format!(
            "{}; weapon takes a row of the weapon table (broadsword, dagger, longbow…) or hands.",
            escape(&e.to_string())
        ))
    })?;
    Ok(Chosen {
        weapon: Some(weapon),
        quality: Quality::Plain,
        name: weapon.name.to_owned(),
        note: None,
        item: None,
    })
}

fn bare_hands() -> Chosen {
    Chosen {
        weapon: None,
        quality: Quality::Plain,
        name: "bare hands".to_owned(),
        note: None,
        item: None,
    }
}

/// A carried weapon: its table row (the item's name) and quality (its stats).
fn carried_weapon(item: &Item, owner: &str) -> AppResult<Chosen> {
    if state::is_broken(item) {
        return Err(state::broken_refusal(owner, item));
    }
    if state::is_dropped(item) {
        return Err(state::dropped_refusal(owner, item));
    }
    let weapon = gear::weapon(&item.name).map_err(|e| {
        user(format!(
            "{}'s weapon \"{}\" is not a row of the weapon table ({}); name one with weapon:…",
            escape(owner),
            escape(&item.name),
            escape(&e.to_string())
        ))
    })?;
    let stats: ItemStats = serde_json::from_str(&item.stats_json).unwrap_or_default();
    let quality = match stats.quality.as_deref() {
        None => Quality::Plain,
        Some(q) => parse_quality(q).ok_or_else(|| {
            user(format!(
                "{}'s {} has quality \"{}\"; a weapon is plain, good, fine, fine+1, fine+2, fine-dx+1 or fine-dx+2.",
                escape(owner),
                escape(&item.name),
                escape(q)
            ))
        })?,
    };
    quality.check(weapon).map_err(user)?;
    let name = match quality {
        Quality::Plain => weapon.name.to_owned(),
        Quality::Good => format!("good {}", weapon.name),
        Quality::Fine(_) => format!("fine {}", weapon.name),
    };
    Ok(Chosen {
        weapon: Some(weapon),
        quality,
        name,
        note: None,
        item: Some(item.id),
    })
}

/// A weapon's quality as the equipment stats spell it.
pub(super) fn parse_quality(text: &str) -> Option<Quality> {
    Quality::parse(text)
}

/// The target's armor and shield, facing the blow.
fn defence(c: &Character, sheet: &TftSheet, facing: Facing) -> AppResult<Defence> {
    let armor = match sheet.armor.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(name) => Some(
            gear::armor(name)
                .map_err(|e| super::shared::gear_error(c, &e))?
                .kind,
        ),
        None => None,
    };
    let shield = match sheet.shield.as_deref().filter(|s| !s.trim().is_empty()) {
        Some(name) => Some(
            gear::shield(name)
                .map_err(|e| super::shared::gear_error(c, &e))?
                .kind,
        ),
        None => None,
    };
    Ok(Defence {
        armor,
        shield,
        direction: match facing {
            Facing::Front => Direction::Front,
            Facing::Side => Direction::Side,
            Facing::Rear => Direction::Rear,
        },
        ..Defence::default()
    })
}

/// A target's stops against a blow from the front: armor, shield and toughness from its
/// talents (a spell's target, say).
pub(super) fn target_defence(c: &Character, sheet: &TftSheet) -> AppResult<Defence> {
    let talents: Vec<Talent> = sheet
        .talents
        .iter()
        .filter_map(|t| Talent::parse(t))
        .collect();
    Ok(Defence {
        toughness: Toughness::of_talents(&talents),
        ..defence(c, sheet, Facing::Front)?
    })
}

/// With Acrobatics, the target's adjDX for its knockdown saves.
pub(super) fn acrobatics(
    c: &Character,
    sheet: &TftSheet,
    house_rules: bool,
) -> AppResult<Option<i32>> {
    if !has_talent(sheet, Talent::Acrobatics) {
        return Ok(None);
    }
    let (armor, shield) = gear_dx(c, sheet, house_rules)?;
    Ok(Some(sheet.dx + armor + shield))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tft::gear::FineGrade;

    fn item(kind: &str, name: &str, stats: &str) -> Item {
        Item {
            id: 1,
            kind: kind.into(),
            name: name.into(),
            stats_json: stats.into(),
        }
    }

    fn ann(st: i32) -> Character {
        Character {
            guild_id: crate::store::GuildId(1),
            id: crate::store::CharacterId(1),
            name: "Ann".into(),
            system: crate::store::guilds::System::Tft,
            owner_id: crate::store::UserId(1),
            npc: false,
            sheet_json: format!(r#"{{"st":{st},"dx":12,"iq":8}}"#),
            created_at: 0,
            updated_at: 0,
        }
    }

    #[test]
    fn the_first_carried_weapon_is_the_default() {
        let items = [
            item("item", "rope", "{}"),
            item("weapon", "Broadsword", r#"{"quality":"good"}"#),
            item("weapon", "dagger", "{}"),
        ];
        let c = choose_weapon(&ann(12), &items, None, 0).unwrap();
        assert_eq!(
            c.weapon.unwrap().name,
            gear::weapon("broadsword").unwrap().name
        );
        assert_eq!(c.quality, Quality::Good);
        assert!(c.note.unwrap().contains("first of 2"));
        let c = choose_weapon(&ann(12), &items, Some("DAGGER"), 0).unwrap();
        assert_eq!(c.weapon.unwrap().name, gear::weapon("dagger").unwrap().name);
        assert!(c.note.is_none());
        // tft-rules-summary.md, "WEAPONS": the Broadsword needs ST 12; at 11 the Dagger is used,
        // and the reply's note says why.
        let c = choose_weapon(&ann(11), &items, None, 0).unwrap();
        assert_eq!(c.weapon.unwrap().name, gear::weapon("dagger").unwrap().name);
        assert!(c.note.unwrap().contains("Broadsword needs ST 12"));
    }

    #[test]
    fn weapons_by_table_name_or_bare_hands() {
        let c = choose_weapon(&ann(12), &[], Some("hands"), 0).unwrap();
        assert!(c.weapon.is_none());
        let c = choose_weapon(&ann(12), &[], Some("shortsword"), 0).unwrap();
        assert_eq!(c.quality, Quality::Plain);
        // Nothing carried: bare hands, and the reply says so.
        let c = choose_weapon(&ann(12), &[], None, 0).unwrap();
        assert!(c.weapon.is_none());
        assert_eq!(c.note.as_deref(), Some("no weapon carried, so bare hands"));
        let err = choose_weapon(&ann(12), &[], Some("banana"), 0)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("banana") && err.contains("weapon table"),
            "{err}"
        );
    }

    #[test]
    fn stance_dx_agrees_with_the_shield_rules() {
        // tft-house-rules-combat.txt, "Parrying and Defending": the DX each stance costs, as
        // parry_attack and defend_attack give it, is the DX its adjustment shows.
        use crate::rules::tft::damage::{AttackAllowed, defend_attack, parry_attack};
        for two in [false, true] {
            for adv in [false, true] {
                for kind in [ShieldKind::Small, ShieldKind::Large] {
                    let small = if kind.is_small() {
                        ParryShield::Small
                    } else {
                        ParryShield::Large
                    };
                    let cases = [
                        (
                            parry_attack(Parry::MainGauche, Some(kind), two, adv).unwrap(),
                            Adjustment::MainGaucheDefensive,
                        ),
                        (
                            parry_attack(Parry::SecondWeapon, Some(kind), two, adv).unwrap(),
                            Adjustment::ParryWithSecondWeapon { two_weapons: two },
                        ),
                        (
                            parry_attack(Parry::Shield, Some(kind), two, adv).unwrap(),
                            Adjustment::ParryWithShield {
                                shield: small,
                                advanced_shield: adv,
                            },
                        ),
                        (
                            defend_attack(DefendWith::Weapon, two, adv),
                            Adjustment::DefendAndAttack(DefendAndAttack::TwoWeapons),
                        ),
                        (
                            defend_attack(DefendWith::Shield(kind), two, adv),
                            Adjustment::DefendAndAttack(if kind.is_small() {
                                DefendAndAttack::AdvancedShieldSmall
                            } else {
                                DefendAndAttack::AdvancedShieldLarge
                            }),
                        ),
                    ];
                    for (allowed, adj) in cases {
                        if let AttackAllowed::At(dx) = allowed {
                            assert_eq!(dx, adj.dx(), "{adj:?} two={two} adv={adv}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn only_military_discipline_forms_a_shield_wall() {
        // tft-house-rules-combat.txt, "Shield Wall": soldiers with Military Discipline. Rows:
        // neighbours, the target's talent, an NPC, a GM calling, and the neighbours counted.
        type Row<'a> = (&'a str, &'a [Talent], bool, bool, Option<u32>);
        let md = [Talent::MilitaryDiscipline];
        let cases: [Row<'_>; 7] = [
            ("0", &[], false, false, Some(0)),
            ("1", &md, false, false, Some(1)),
            ("2", &md, true, false, Some(2)),
            ("1", &[], false, false, None),
            ("1", &[], false, true, None),
            ("1", &[], true, true, None),
            // A player is not told an NPC's talents: its wall adds nothing.
            ("1", &[], true, false, Some(0)),
        ];
        for (wall, talents, npc, gm, want) in cases {
            let inv = Invocation::new(
                &["tft", "attack"],
                &[("attacker", "Ann"), ("target", "Bo"), ("shield_wall", wall)],
            );
            let attack = Attack::parse(&inv).unwrap();
            let target = Character { npc, ..ann(12) };
            let got = attack.shield_wall_of(&target, talents, gm);
            match want {
                Some(n) => assert_eq!(got.unwrap(), n, "{wall} {talents:?} {npc} {gm}"),
                None => assert!(
                    got.unwrap_err()
                        .to_string()
                        .contains("lacks Military Discipline"),
                    "{wall} {talents:?} {npc} {gm}"
                ),
            }
        }
    }

    #[test]
    fn qualities_parse() {
        assert_eq!(parse_quality("Plain"), Some(Quality::Plain));
        assert_eq!(
            parse_quality("fine+2"),
            Some(Quality::Fine(FineGrade::Damage2))
        );
        assert_eq!(parse_quality("shiny"), None);
        let items = [item("weapon", "broadsword", r#"{"quality":"shiny"}"#)];
        let err = choose_weapon(&ann(12), &items, Some("broadsword"), 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("quality"), "{err}");
    }
}
