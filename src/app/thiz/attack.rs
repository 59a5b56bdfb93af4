//! `/attack`: the adjusted attack rating, the hit, where it lands, the target's Toughness check and
//! the wound written on the target's sheet, all in one transaction.
//!
//! Decisions:
//! - Without `weapon` the attacker fights bare-handed (Unarmed Combat); a weapon is an item of kind
//!   "weapon" the attacker carries, checked with Weapon Skill (its name). A weapon whose stats say
//!   `missile` makes the attack a missile attack, as does `missile:true`.
//! - A missile's location is rolled after the hit, so the armour there is not known when the die
//!   is read: the hit is read first without armour, then again, with the same d100, against the
//!   armour where it landed. If that reading fails the armour turned the missile.
//! - Wound penalties: the attacker's Head wounds count against the attack; the target's Head and
//!   leg wounds against its Speed.

use std::fmt::Write as _;

use super::record::{AttackRecord, ThizRecord, ToughnessRecord, WoundRecord, rows_from_sheet};
use super::stats::{ThizChar, clamp_input, describe_base};
use super::{INPUT_LIMIT, int, level_text, mode, parse_location, tone};
use crate::app::command::{Invocation, Opts, RollMode};
use crate::app::reply::{Button, Embed, Field, Reply, Tone};
use crate::app::sheet::ItemStats;
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::thiz::combat::{
    AdjustedAttack, Aim, AttackInput, AttackKind, adjusted_attack, roll_attack, unarmed_can_damage,
};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::wounds::take_hit;
use crate::rules::thiz::{Location, resolve};
use crate::store::characters::{self, Character};
use crate::store::{Conn, secrets};

/// The options of `/attack`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackArgs {
    pub attacker: String,
    pub target: String,
    pub weapon: Option<String>,
    pub location: Option<Location>,
    pub missile: bool,
    pub modifier: i32,
    pub mode: RollMode,
}

impl AttackArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "attacker", "target", "weapon", "location", "missile", "modifier", "mode",
            ],
        )?;
        Ok(AttackArgs {
            attacker: o.required("attacker")?.to_owned(),
            target: o.required("target")?.to_owned(),
            weapon: o.text("weapon").map(str::to_owned),
            location: o.text("location").map(parse_location).transpose()?,
            missile: o.flag("missile")?,
            modifier: int(o.int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?.unwrap_or(0)),
            mode: mode(&o)?,
        })
    }
}

/// Whether `target` is a mook: an NPC whose hidden value `mook` is true. Only a GM can have named
/// an NPC, so the GM's proof is at hand; for anyone else the answer is no.
fn is_mook(ctx: &Ctx<'_>, conn: &Conn, target: &Character) -> AppResult<bool> {
    if !target.npc {
        return Ok(false);
    }
    let Ok(gm) = ctx.gm() else {
        return Ok(false);
    };
    let value = secrets::hidden(conn, gm, target.id, "mook")?;
    Ok(value.is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "true" | "yes" | "1" | "on"
        )
    }))
}

fn refuse(e: impl std::fmt::Display) -> crate::app::AppError {
    user(format!("That attack cannot be made: {e}."))
}

/// The attacker's side of the rating, in words: "Weapon Skill (Sword) 3 + weapon 4 + Strength 1".
fn attack_text(skill: &str, a: &AdjustedAttack) -> String {
    let mut s = skill.to_owned();
    if a.weapon_bonus != 0 {
        let _ = write!(s, " · weapon {}", signed(a.weapon_bonus));
    }
    if a.strength_bonus != 0 {
        let _ = write!(s, " · Strength {}", signed(a.strength_bonus));
    }
    if a.modifier != 0 {
        let _ = write!(s, " · modifier {}", signed(a.modifier));
    }
    let _ = write!(
        s,
        " − (Speed {} · armour {}) = {}",
        a.defence, a.armor, a.rating
    );
    s
}

/// Runs `/attack`.
#[allow(clippy::too_many_lines)] // One transaction, read top to bottom: plan, roll, write, reply.
pub(super) fn run(ctx: &Ctx<'_>, a: &AttackArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let attacker = ctx.acting_character(tx, Some(&a.attacker))?;
        let target = ctx.find_character(tx, &a.target)?;
        if attacker.id == target.id {
            return Err(user(format!(
                "{} cannot attack themselves; name another target.",
                escape(&attacker.name)
            )));
        }
        let att = ThizChar::load(tx, attacker, "/attack")?;
        let tgt = ThizChar::load(tx, target, "/attack")?;
        let mook = is_mook(ctx, tx, &tgt.character)?;

        let weapon = a.weapon.as_deref().map(|w| att.weapon(w)).transpose()?;
        let stats = weapon
            .as_ref()
            .map_or_else(ItemStats::default, |(_, s)| s.clone());
        let missile = a.missile || stats.missile;
        let skill = match &weapon {
            Some((item, _)) => SkillId::with_subject(SkillKind::WeaponSkill, &item.name)
                .map_err(|e| user(format!("That weapon's name cannot name a skill: {e}.")))?,
            None => SkillId::single(SkillKind::UnarmedCombat)
                .map_err(|e| crate::app::AppError::Internal(anyhow::anyhow!("{e}")))?,
        };
        let base = att.base(&skill)?;
        let strength = att.base_of(SkillKind::Strength)?.rating.0;
        let speed = tgt.base_of(SkillKind::Speed)?.rating.0;
        let aim = match (missile, a.location) {
            (false, loc) => Aim::Melee(loc.unwrap_or(Location::Chest)),
            (true, Some(loc)) => Aim::CalledShot(loc),
            (true, None) => Aim::Missile,
        };
        let armor_before = match aim {
            Aim::Melee(l) | Aim::CalledShot(l) => tgt.armor_at(l)?.total,
            Aim::Missile | Aim::BlindMelee => 0,
        };
        let input = AttackInput {
            kind: if missile {
                AttackKind::Missile
            } else {
                AttackKind::Melee
            },
            skill: clamp_input(base.rating.0),
            weapon_bonus: stats.attack_bonus,
            strength: clamp_input(strength),
            defence: clamp_input(speed + tgt.wounds.effects().speed_check()),
            armor: armor_before,
            modifier: clamp_input(a.modifier + att.wounds.effects().skill_check(None)),
            ..AttackInput::default()
        };
        let adjusted = adjusted_attack(&input).map_err(refuse)?;

        let mut dice = ctx.dice();
        let roll = roll_attack(adjusted.rating, aim, &mut dice);
        let mut notes = Vec::new();
        let (adjusted, level, hit) = match (aim, roll.location) {
            (Aim::Missile, Some(loc)) => {
                let armor = tgt.armor_at(loc)?.total;
                let again = adjusted_attack(&AttackInput { armor, ..input }).map_err(refuse)?;
                let level = resolve(again.rating, roll.roll);
                if !level.is_success() {
                    notes.push(format!("It struck the {loc}, but the armour turned it."));
                }
                (again, level, level.is_success().then_some(level))
            }
            _ => (adjusted, roll.level, roll.hit),
        };
        if matches!(aim, Aim::CalledShot(_)) && roll.level.is_success() && hit.is_none() {
            notes.push("A called shot needs Black: it missed.".to_owned());
        }

        let mut sheet = tgt.wounds.clone();
        let mut toughness = None;
        let mut wound = None;
        let (mut mook_defeated, mut incapacitated) = (false, false);
        if let (Some(hit_level), Some(location)) = (hit, roll.location) {
            let armor_here = tgt.armor_at(location)?.total;
            if weapon.is_none() && !unarmed_can_damage(strength, armor_here, 0, mook) {
                notes.push(format!(
                    "Bare hands cannot hurt through that armour (Strength must be at least {}).",
                    3 * armor_here
                ));
            } else {
                let t = tgt.base_of(SkillKind::Toughness)?.rating.0;
                let out = take_hit(
                    &mut sheet,
                    location,
                    hit_level,
                    clamp_input(t),
                    false,
                    &mut dice,
                )
                .map_err(refuse)?;
                toughness = Some(out.check);
                wound = out.added;
                mook_defeated = mook && out.defeats_mook;
                incapacitated = out.incapacitated;
            }
        }
        drop(dice);
        if wound.is_some() {
            characters::set_wounds(
                tx,
                ctx.caller.guild,
                tgt.character.id,
                &rows_from_sheet(&sheet),
            )?;
        }

        let record = AttackRecord {
            attacker_id: att.character.id,
            attacker: att.character.name.clone(),
            target_id: tgt.character.id,
            target: tgt.character.name.clone(),
            weapon: weapon.as_ref().map(|(i, _)| i.name.clone()),
            missile,
            called_shot: matches!(aim, Aim::CalledShot(_)),
            rating: adjusted.rating.0,
            roll: roll.roll,
            level: level.name().to_owned(),
            hit: hit.map(|l| l.name().to_owned()),
            location: roll.location.map(|l| l.name().to_owned()),
            location_roll: roll.location_roll.map(|l| l.roll),
            toughness: toughness.map(|t| ToughnessRecord {
                rating: t.rating.0,
                roll: t.roll,
                level: t.level.name().to_owned(),
            }),
            wound: wound.map(|w| WoundRecord {
                location: w.location.name().to_owned(),
                inflicted: w.inflicted.name().to_owned(),
                recorded: w.recorded.name().to_owned(),
            }),
            mook_defeated,
            incapacitated,
        };
        let roll_id = ctx.log_roll(
            tx,
            Some(att.character.id),
            "attack",
            a.mode,
            "",
            &ThizRecord::Attack(record),
        )?;

        // The reply.
        let (an, tn) = (escape(&att.character.name), escape(&tgt.character.name));
        let title = match &weapon {
            Some((item, _)) => format!("{an} attacks {tn} with {}", escape(&item.name)),
            None => format!("{an} attacks {tn} bare-handed"),
        };
        let mut lines = Vec::new();
        match (hit, roll.location) {
            (Some(h), Some(l)) => lines.push(format!("**Hit**: {} on the {l}.", level_text(h))),
            _ => lines.push("**Miss.**".to_owned()),
        }
        lines.extend(notes);
        let skill_text = describe_base(&escape(&skill.to_string()), &base);
        let mut fields = vec![
            Field {
                name: "Attack".to_owned(),
                value: attack_text(&skill_text, &adjusted),
                inline: false,
            },
            Field {
                name: "Roll".to_owned(),
                value: format!("d100: {} → {}", roll.roll, level_text(level)),
                inline: true,
            },
        ];
        if let Some(l) = roll.location {
            let how = match (roll.location_roll, aim) {
                (Some(r), _) => format!("{l} (rolled {})", r.roll),
                (None, Aim::CalledShot(_)) => format!("{l} (called)"),
                (None, _) => l.to_string(),
            };
            fields.push(Field {
                name: "Location".to_owned(),
                value: how,
                inline: true,
            });
        }
        if let Some(t) = toughness {
            fields.push(Field {
                name: "Toughness".to_owned(),
                value: format!(
                    "rating {}, d100: {} → {}",
                    t.rating,
                    t.roll,
                    level_text(t.level)
                ),
                inline: false,
            });
        }
        if hit.is_some() {
            let value = match wound {
                Some(w) if w.recorded == w.inflicted => {
                    format!("{} on the {}", w.recorded, w.location)
                }
                Some(w) => format!(
                    "{} on the {} (stacked up to {})",
                    w.inflicted, w.location, w.recorded
                ),
                None => "none: shrugged off".to_owned(),
            };
            fields.push(Field {
                name: "Wound".to_owned(),
                value,
                inline: true,
            });
        }
        if mook_defeated {
            lines.push(format!("{tn} is defeated."));
        } else if incapacitated {
            lines.push(format!("{tn} is incapacitated."));
        }
        let mut full = Reply::public("").with_embed(Embed {
            title,
            description: lines.join("\n"),
            tone: Some(hit.map_or(Tone::Grey, tone)),
            fields,
            footer: None,
        });
        if wound.is_some() {
            full = full.with_button(Button {
                custom_id: format!("luck:wound:{roll_id}"),
                label: "Spend luck: lower wound".to_owned(),
                disabled: false,
            });
        }
        let what = format!("an attack on {tn}");
        Ok(ctx.route(a.mode, &what, full))
    })
}

#[cfg(test)]
mod tests {
    use super::super::record::{ThizRecord, sheet_from_rows};
    use super::super::testkit::Kit;
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::dice::{DieSource, SeededDice};
    use crate::rules::thiz::wounds::{location_for_roll, wound_from_hit};
    use crate::rules::thiz::{Level, Rating};

    /// A seed whose first d100 passes `first` and second passes `second`.
    fn seed_where(first: impl Fn(u32) -> bool, second: impl Fn(u32) -> bool) -> u64 {
        (0..100_000u64)
            .find(|s| {
                let mut d = SeededDice::new(*s);
                first(d.d100()) && second(d.d100())
            })
            .unwrap()
    }

    fn dice(seed: u64, n: usize) -> Vec<u32> {
        let mut d = SeededDice::new(seed);
        (0..n).map(|_| d.d100()).collect()
    }

    /// Vexa (player's: Sword 3, Strength 10, a +4 sword) and Bran (other's: Speed 4, Toughness 2,
    /// armour +1 on the chest).
    fn fighters(kit: &Kit) {
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Weapon Skill (Sword)", 3);
        kit.skill(vexa, "Strength", 10);
        kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 4}"#);
        kit.item(
            vexa,
            "weapon",
            "Bow",
            r#"{"attack_bonus": 1, "missile": true}"#,
        );
        let bran = kit.thiz("Bran", kit.other_id(), false);
        kit.skill(bran, "Speed", 4);
        kit.skill(bran, "Toughness", 2);
        kit.item(
            bran,
            "armor",
            "Breastplate",
            r#"{"armor_bonus": 1, "locations": ["chest", "gut"]}"#,
        );
    }

    #[test]
    fn melee_hit_wounds_the_target_and_offers_luck() {
        // Sword 3 + weapon 4 + Strength 1 − (Speed 4 + armour 1) = 3. A hit on row 3 needs ≤63;
        // then Toughness 2 must fail to beat the hit.
        let seed = seed_where(
            |r| resolve(Rating(3), r).is_success(),
            |r| resolve(Rating(2), r) == Level::Failure,
        );
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "bran"),
                ("weapon", "sword"),
            ],
        );
        let [hit_roll, t_roll] = dice(seed, 2)[..] else {
            unreachable!()
        };
        let hit = resolve(Rating(3), hit_roll);
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Vexa attacks Bran with Sword", "{reply:?}");
        assert_eq!(
            e.fields[0].value,
            r"Weapon Skill \(Sword\) 3 · weapon +4 · Strength +1 − (Speed 4 · armour 1) = 3"
        );
        assert!(
            e.description
                .contains(&format!("{} on the Chest", level_text(hit))),
            "{e:?}"
        );
        assert_eq!(e.tone, Some(tone(hit)));
        let toughness = e.fields.iter().find(|f| f.name == "Toughness").unwrap();
        assert_eq!(
            toughness.value,
            format!("rating 2, d100: {t_roll} → Failure")
        );
        let sheet = sheet_from_rows(&kit.wounds(crate::store::CharacterId(2))).unwrap();
        assert!(sheet.at(Location::Chest).has(hit), "{sheet:?}");
        assert_eq!(reply.buttons[0].custom_id, "luck:wound:1");
        assert_eq!(reply.buttons[0].label, "Spend luck: lower wound");
        let Some(ThizRecord::Attack(rec)) = ThizRecord::from_json(&kit.last_roll_json().unwrap())
        else {
            panic!()
        };
        assert_eq!(
            rec.wound(),
            Some((crate::store::CharacterId(2), Location::Chest, hit))
        );
        assert_eq!(wound_from_hit(hit, Level::Failure), Some(hit));
    }

    #[test]
    fn a_miss_changes_no_sheet_and_has_no_button() {
        let seed = seed_where(|r| resolve(Rating(3), r) == Level::Failure, |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Sword"),
                ("mode", "self"),
            ],
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(reply.embeds[0].description.contains("Miss"), "{reply:?}");
        assert_eq!(reply.embeds[0].tone, Some(Tone::Grey));
        assert!(reply.buttons.is_empty());
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
        assert_eq!(kit.roll_count(), 1);
    }

    #[test]
    fn missiles_roll_a_location_and_called_shots_need_black() {
        // Bow: Sword skill does not apply; Weapon Skill (Bow) untrained → Physical 1 (Strength 10,
        // Sword 3 → 13/10). 1 + 1 − (4 + armour where it lands).
        let seed = seed_where(|r| r <= 5, |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[("attacker", "Vexa"), ("target", "Bran"), ("weapon", "bow")],
        );
        let rolls = dice(seed, 2);
        let loc = location_for_roll(rolls[1]);
        let e = &reply.embeds[0];
        let location = e.fields.iter().find(|f| f.name == "Location").unwrap();
        assert_eq!(
            location.value,
            format!("{loc} (rolled {})", rolls[1]),
            "{e:?}"
        );
        // Called shot on a roll that is a success but not Black: a miss.
        let seed = seed_where(|r| (20..=40).contains(&r), |_| true);
        let kit = Kit::new(seed);
        fighters(&kit);
        kit.skill(crate::store::CharacterId(1), "Weapon Skill (Bow)", 20);
        let reply = kit.run(
            &kit.player(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Bran"),
                ("weapon", "Bow"),
                ("location", "head"),
            ],
        );
        let e = &reply.embeds[0];
        assert!(e.description.contains("called shot needs Black"), "{e:?}");
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
    }

    #[test]
    fn mooks_fall_to_a_vital_wound_worse_than_green() {
        let seed = seed_where(|r| r <= 3, |r| r == 100);
        let kit = Kit::new(seed);
        fighters(&kit);
        let goon = kit.thiz("Goon", kit.gm_id(), true);
        kit.hidden(goon, "mook", "true");
        let reply = kit.run(
            &kit.gm(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Goon"),
                ("weapon", "Sword"),
                ("location", "gut"),
            ],
        );
        let e = &reply.embeds[0];
        assert!(e.description.contains("Goon is defeated"), "{e:?}");
        // The hidden value itself never shows.
        assert!(!reply.all_text().contains("mook"));
    }

    #[test]
    fn bad_input_and_permissions_change_nothing() {
        let kit = Kit::new(1);
        fighters(&kit);
        kit.tft("Rook", kit.player_id());
        kit.thiz("Ghoul", kit.gm_id(), true);
        let cases: [(&[(&str, &str)], &str); 10] = [
            (
                &[("attacker", "Bran"), ("target", "Vexa")],
                "Bran belongs to another player",
            ),
            (
                &[("attacker", "Nobody"), ("target", "Bran")],
                "There is no character named Nobody",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Ghoul")],
                "There is no character named Ghoul",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Rook")],
                "Rook is a TFT character",
            ),
            (
                &[("attacker", "Rook"), ("target", "Bran")],
                "Rook is a TFT character",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Vexa")],
                "cannot attack themselves",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Bran"), ("weapon", "Axe")],
                "carries no weapon called Axe; they carry Sword, Bow",
            ),
            (
                &[
                    ("attacker", "Vexa"),
                    ("target", "Bran"),
                    ("location", "tail"),
                ],
                "no body location tail",
            ),
            (
                &[("attacker", "Vexa"), ("target", "Bran"), ("modifier", "50")],
                "modifier must be between -40 and 40",
            ),
            (&[("attacker", "Vexa")], "needs the option target"),
        ];
        for (opts, want) in cases {
            let reply = kit.run(&kit.player(), &["attack"], opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
            assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
        }
        assert_eq!(kit.roll_count(), 0);
        assert!(kit.wounds(crate::store::CharacterId(2)).is_empty());
        // A GM may attack with anyone's character, NPCs included.
        let reply = kit.run(
            &kit.gm(),
            &["attack"],
            &[("attacker", "Ghoul"), ("target", "Vexa")],
        );
        assert!(
            reply.embeds[0]
                .title
                .starts_with("Ghoul attacks Vexa bare-handed"),
            "{reply:?}"
        );
    }
}
