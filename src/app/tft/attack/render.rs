//! The reply of `/tft attack`: the roll, adjDX with its breakdown, the special result, damage
//! before and after armor, each stop, and what happened to the target.

use super::super::shared::{faces, field};
use crate::app::reply::{Embed, Field, Tone};
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::rules::tft::Multiplier;
use crate::rules::tft::attack::{
    Adjustment, AttackOutcome, AttackSetup, Cestus, DefendAndAttack, DxReason, PreciseEffect,
    PreciseTarget, RollTable, TableSource, Technique,
};
use crate::rules::tft::damage::{DamageResolution, StopRule, StopSource};
use crate::rules::tft::gear::Breakage;
use crate::rules::tft::injury::{AttributeRoll, Condition, KnockdownReason};
use crate::rules::tft::resolve::AttackResolution;

/// Everything the reply shows.
pub(super) struct Shown<'a> {
    pub attacker: &'a str,
    pub target: &'a str,
    pub weapon: &'a str,
    pub weapon_note: Option<&'a str>,
    pub setup: &'a AttackSetup,
    pub res: &'a AttackResolution,
    pub breakage: Option<Breakage>,
    /// The 1d an unarmed attacker did to itself on a 17 or 18.
    pub self_damage: Option<u32>,
    pub target_st: i32,
    pub hits_before: i64,
    /// A lance charge's roll to keep the lance.
    pub lance: Option<&'a AttributeRoll>,
    /// The chance this attack had of landing, in percent, before the dice were rolled.
    pub hit_chance: Option<f64>,
    /// An aimed blow that landed: where, and what its hits do there.
    pub aimed: Option<&'a (PreciseTarget, Vec<PreciseEffect>)>,
    /// A Dagger Marksman's hit: the damage was really doubled.
    pub doubled_outright: bool,
    /// Whether the attacker and the target are NPCs, whose numbers are the GM's ([`screen`]).
    pub npcs: (bool, bool),
}

pub(in crate::app::tft) fn outcome_name(o: AttackOutcome) -> &'static str {
    match o {
        AttackOutcome::Triple => "Triple hit",
        AttackOutcome::Double => "Double hit",
        AttackOutcome::AutomaticHit => "Automatic hit",
        AttackOutcome::Hit => "Hit",
        AttackOutcome::Miss => "Miss",
        AttackOutcome::AutomaticMiss => "Automatic miss",
        AttackOutcome::DropWeapon => "Miss, weapon dropped",
        AttackOutcome::WeaponBreaks => "Miss, weapon breaks",
    }
}

/// The result of a bare-handed 17 or 18 (tft-rules-summary.md, "ROLLING TO HIT").
pub(in crate::app::tft) const SELF_DAMAGE: &str = "Miss, 1d damage to self";

pub(in crate::app::tft) fn outcome_tone(o: AttackOutcome) -> Tone {
    match o {
        AttackOutcome::Triple | AttackOutcome::Double => Tone::Black,
        AttackOutcome::AutomaticHit | AttackOutcome::Hit => Tone::Green,
        AttackOutcome::Miss | AttackOutcome::AutomaticMiss => Tone::Grey,
        AttackOutcome::DropWeapon | AttackOutcome::WeaponBreaks => Tone::Red,
    }
}

/// The table a roll was read on, in words; marks the project's interpretations.
pub(in crate::app::tft) fn table_text(table: &RollTable) -> String {
    let n = table.dice;
    let mut text = match table.source {
        TableSource::ThreeDice => "the 3-dice to-hit table".to_owned(),
        TableSource::FourDice => "the published 4-dice table (no double or triple)".to_owned(),
        TableSource::FourDiceWithSpecials => {
            "the 4-dice table with this server's double/triple setting".to_owned()
        }
        TableSource::Generalized => format!("the 4-dice pattern extended to {n} dice"),
        TableSource::PlainComparison => format!("no table for {n} dice: only adjDX counts"),
    };
    // rules/README.md: only the 3-dice and published 4-dice tables are printed rules.
    if table.source.is_interpretation() {
        text.push_str(" (an interpretation)");
    }
    text
}

fn adjustment_name(a: &Adjustment) -> String {
    match *a {
        Adjustment::FromSide => "from the side".to_owned(),
        Adjustment::FromRear => "from the rear".to_owned(),
        Adjustment::PoleSetVsCharge => "pole set against the charge".to_owned(),
        Adjustment::TargetDefending => "target defending".to_owned(),
        Adjustment::TargetDodging => "target dodging".to_owned(),
        Adjustment::WaitingForOpening { turns, .. } => {
            format!("waited {turns} turn{}", plural(turns))
        }
        Adjustment::MissileRange { hexes, .. } => format!("range {hexes} hexes"),
        Adjustment::ThrownRange { spaces } => format!("thrown across {spaces} spaces"),
        Adjustment::EarlierRollsThisTurn(n) => format!("{n} earlier roll{} this turn", plural(n)),
        Adjustment::MultipleActions { multiplier } => format!("multiple actions ×{multiplier}"),
        Adjustment::Other(_) => "modifier".to_owned(),
        Adjustment::MainGaucheDefensive => "parrying with a main-gauche".to_owned(),
        Adjustment::ParryWithSecondWeapon { .. } => "parrying with a second weapon".to_owned(),
        Adjustment::ParryWithShield { .. } => "parrying with a shield".to_owned(),
        Adjustment::DefendAndAttack(DefendAndAttack::TwoWeapons) => {
            "defending with a weapon".to_owned()
        }
        Adjustment::DefendAndAttack(_) => "defending with a shield".to_owned(),
        Adjustment::SecondAttack { two_weapons } => if two_weapons {
            "second attack (Two Weapons)"
        } else {
            "second attack"
        }
        .to_owned(),
        Adjustment::Cestus(Cestus::Single) => "one cestus".to_owned(),
        Adjustment::Cestus(Cestus::Pair) => "two cesti".to_owned(),
        Adjustment::ExtraAttackers(n) => format!("{n} more attacker{}", plural(n)),
        Adjustment::LargeTarget { spaces } => format!("target of {spaces} spaces"),
        Adjustment::Precise(t) => format!("aimed at {}", precise_name(t)),
        Adjustment::OnSkis { skiing, shot } => {
            let mut name = "on skis".to_owned();
            if !skiing {
                name.push_str(" without Skiing (3d/adjDX each turn to stay up)");
            }
            if shot {
                name.push_str(", no penalty for a shot or throw");
            }
            name
        }
        other => plain_name(other).map_or_else(|| format!("{other:?}"), str::to_owned),
    }
}

fn technique_text(t: Technique) -> Option<String> {
    let c = t.criticals();
    match t {
        Technique::Normal | Technique::DaggerMarksman => None,
        Technique::WeaponMaster => Some(format!(
            "weapon master: triple on {} or less, double on {} or less (before waiting widens them)",
            c.triple_max, c.double_max
        )),
        Technique::GoodBowShot { range_hexes } => Some(format!(
            "good shot at {range_hexes} hexes: triple on {} or less, double on {} or less (before waiting widens them)",
            c.triple_max, c.double_max
        )),
    }
}

/// Where an aimed blow landed and what its hits do (tft-rules-summary.md, "PRECISE ATTACKS").
fn aimed_text(target: PreciseTarget, effects: &[PreciseEffect]) -> String {
    let at = match target {
        PreciseTarget::ThrownHead => "a thrown blow at the head",
        PreciseTarget::ThrownHand => "a thrown blow at the hand",
        PreciseTarget::Head => "the head",
        PreciseTarget::WeaponHand => "the weapon hand",
        PreciseTarget::ShieldArm => "the shield arm",
        PreciseTarget::Leg => "a leg",
        PreciseTarget::Wing => "a wing",
    };
    if effects.is_empty() {
        return format!("At {at}: nothing beyond the hits.");
    }
    let said: Vec<&str> = effects.iter().map(|e| effect_text(*e)).collect();
    format!("At {at}: {}.", said.join("; "))
}

fn effect_text(e: PreciseEffect) -> &'static str {
    match e {
        PreciseEffect::IgnoresArmor => "armor does not count",
        PreciseEffect::DoubleDamage => "damage doubled",
        PreciseEffect::DropsItem => "drops what the hand holds",
        PreciseEffect::IgnoresShieldAndLightArmor => {
            "no shield, nor armor lighter than chainmail, counts"
        }
        PreciseEffect::KnockedOut => "**knocked out**",
        PreciseEffect::DropsWeapon => "drops the weapon",
        PreciseEffect::HandUselessUntilTreated => "the hand is useless until treated",
        PreciseEffect::HandDisabled => "the hand is disabled",
        PreciseEffect::LosesShield => "loses the use of the shield",
        PreciseEffect::ArmUselessUntilHealed => {
            "the arm is useless until healed; the shield costs -2 DX until dropped"
        }
        PreciseEffect::ArmDisabled => "the arm is disabled",
        PreciseEffect::KneelsTwoRounds => "drops to kneeling for at least two rounds",
        PreciseEffect::LegUseless => "the leg is useless: MA 0 in combat, 3 with a crutch",
        PreciseEffect::Grounded => "cannot fly for the rest of the combat",
        PreciseEffect::WingUselessUntilTreated => "the wing is useless until treated",
    }
}

fn precise_name(t: PreciseTarget) -> &'static str {
    match t {
        PreciseTarget::ThrownHead | PreciseTarget::Head => "the head",
        PreciseTarget::ThrownHand => "the hand",
        PreciseTarget::WeaponHand => "the weapon hand",
        PreciseTarget::ShieldArm => "the shield arm",
        PreciseTarget::Leg => "a leg",
        PreciseTarget::Wing => "a wing",
    }
}

/// The names of the adjustments that carry no number.
fn plain_name(a: Adjustment) -> Option<&'static str> {
    Some(match a {
        Adjustment::TargetDown => "target down",
        Adjustment::AttackingUpward => "attacking upward",
        Adjustment::AttackingDownward => "attacking downward",
        Adjustment::Dazzled => "dazzled",
        Adjustment::HurtSinceLastAction => "hurt since the last action",
        Adjustment::BoundByRope => "bound by rope",
        Adjustment::OpportunityFire => "opportunity fire",
        Adjustment::TwoSpaceJab => "two-space jab",
        Adjustment::AttackerInShadow => "in shadow",
        Adjustment::AttackerInFire => "in fire",
        Adjustment::AttackerInDeepWater => "in deep water",
        Adjustment::AttackerHalfHidden => "half hidden",
        Adjustment::WallOfFire => "wall of fire",
        Adjustment::SnowshoesVsFoeWithout => "on snowshoes",
        Adjustment::SharingHexWithBody => "sharing a hex with a body",
        Adjustment::TargetInShadow => "target in shadow",
        Adjustment::TargetInvisible => "target invisible",
        Adjustment::TargetBlurred => "target blurred",
        Adjustment::TargetHalfHiddenOrProne => "target half hidden or prone",
        Adjustment::TargetHeadAndShouldersOnly => "only head and shoulders showing",
        Adjustment::CrossbowOnSupport => "crossbow on a support",
        Adjustment::CrossbowProne => "crossbow prone",
        Adjustment::FleeingTarget => "fleeing target",
        Adjustment::Bladeturn => "Bladeturn",
        _ => return None,
    })
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "DX 13, armor -3, from the side +2, target defending +1 die = adjDX 12 on 4 dice".
pub(in crate::app::tft) fn breakdown(setup: &AttackSetup) -> String {
    let mut parts = vec![format!("DX {}", setup.dx)];
    for line in &setup.lines {
        let name = match line.reason {
            DxReason::Armor => "armor".to_owned(),
            DxReason::Shield => "shield".to_owned(),
            DxReason::Adjustment(a) => adjustment_name(&a),
        };
        let mut part = name;
        if line.dx != 0 || line.dice == 0 {
            part.push(' ');
            part.push_str(&signed(line.dx));
        }
        if line.dice > 0 {
            let noun = if line.dice == 1 { "die" } else { "dice" };
            part = format!("{part} +{} {noun}", line.dice);
        }
        parts.push(part);
    }
    format!(
        "{} = **{}** on {} dice",
        parts.join(", "),
        setup.adj_dx,
        setup.dice
    )
}

fn stop_name(source: StopSource) -> String {
    match source {
        StopSource::Armor(kind) => kind.armor().name.to_owned(),
        StopSource::Shield(kind) => kind.shield().name.to_owned(),
        StopSource::ShieldWall => "shield wall".to_owned(),
        StopSource::PackOnBack => "pack".to_owned(),
        StopSource::Parry(_) => "parry".to_owned(),
        StopSource::Toughness(_) => "toughness".to_owned(),
        StopSource::Natural => "natural armor".to_owned(),
    }
}

fn stop_rule(rule: StopRule) -> &'static str {
    match rule {
        StopRule::Full => "",
        StopRule::Worn(_) => " (worn)",
        StopRule::IgnoredByMultiplier => " (ignored by the special hit)",
        StopRule::HalvedByMultiplier => " (halved by the special hit)",
        StopRule::WrongSide => " (facing the other way)",
        StopRule::IgnoredByPreciseThrow => " (passed by a precise throw)",
    }
}

/// The damage's fields. The blow's dice and bonus are the attacker's numbers; the stops, the
/// damage before them (which with the hits would give the stops away) and the target's ST are
/// the target's.
fn damage_fields(
    d: &DamageResolution,
    target_st: i32,
    hits_before: i64,
    (attacker_npc, target_npc): (bool, bool),
) -> Vec<Field> {
    let roll = &d.damage;
    let mut rolled = format!("{}: {} = {}", roll.dice, faces(&roll.faces), roll.roll);
    for r in &roll.rerolls {
        rolled = format!("{rolled} (a 1 rolled again: {})", r.now);
    }
    if roll.factor > 1 {
        rolled = format!("{rolled} ×{}", roll.factor);
    }
    if roll.added_after > 0 {
        rolled = format!("{rolled} +{}", roll.added_after);
    }
    let special = match (roll.multiplier, roll.house_rules) {
        (Multiplier::Normal, _) => None,
        (Multiplier::Double, true) => Some("Double (house rule): armor and shields do not count"),
        (Multiplier::Triple, true) => {
            Some("Triple (house rule): one more die, armor and shields do not count")
        }
        (Multiplier::Double, false) => Some("Double: damage ×2"),
        (Multiplier::Triple, false) => Some("Triple: damage ×3"),
    };
    let stops = if roll.stops.is_empty() {
        "none".to_owned()
    } else {
        let list: Vec<String> = roll
            .stops
            .iter()
            .map(|s| format!("{} {}{}", stop_name(s.source), s.counted, stop_rule(s.rule)))
            .collect();
        format!("{} = {}", list.join(", "), roll.stopped)
    };
    let mut fields = vec![field("Damage", screen::npc(attacker_npc, rolled), false)];
    if let Some(s) = special {
        fields.push(field("Special", s, false));
    }
    fields.push(field(
        "Before armor",
        screen::npc(target_npc, roll.before_armor.to_string()),
        true,
    ));
    fields.push(field("Stops", screen::npc(target_npc, stops), true));
    // Decision (issue 57): against an NPC a player reads whether the blow got through, not the
    // hits: with the blow's own total beside them, the hits would give its armour away (12
    // rolled, 10 hits: armour 2). The GM's copy has the number.
    let hits = if target_npc {
        let words = if roll.hits > 0 {
            "the blow gets through"
        } else {
            "none: the blow is stopped"
        };
        format!("{words} {}", screen::npc(true, format!("({})", roll.hits)))
    } else {
        roll.hits.to_string()
    };
    fields.push(field("Hits", hits, true));
    fields.push(field(
        "Target",
        target_text(d, target_st, hits_before, target_npc),
        false,
    ));
    fields
}

fn target_text(d: &DamageResolution, target_st: i32, hits_before: i64, npc: bool) -> String {
    let a = &d.applied;
    let mut lines = vec![screen::npc(
        npc,
        format!(
            "ST {target_st}: {} → {} left ({} hits taken in all)",
            a.st_before,
            a.st_left,
            hits_before + i64::from(a.hits)
        ),
    )];
    if d.after.minus_two_dx {
        lines.push("−2 DX on its next action".to_owned());
    }
    if let Some(save) = &d.after.save {
        let why: Vec<&str> = save
            .reasons
            .iter()
            .map(|r| match r {
                KnockdownReason::StrongAttacker { .. } => "a strong attacker",
                KnockdownReason::PowerfulBlow { .. } => "a powerful blow",
                KnockdownReason::Lance => "a lance",
            })
            .collect();
        let r = &save.roll;
        let against = format!(
            "{}{}",
            r.against,
            if save.used_adj_dx {
                " (adjDX, Acrobatics)"
            } else {
                ""
            }
        );
        lines.push(format!(
            "Knockdown save ({}): {}d {} = {} against {}: {}",
            why.join(", "),
            r.dice,
            faces(&r.faces),
            r.total,
            screen::npc(npc, against),
            if r.success { "stays up" } else { "falls" }
        ));
    }
    if d.after.knocked_down {
        lines.push("**Knocked down**".to_owned());
    }
    match a.condition {
        Condition::Conscious => {}
        Condition::Unconscious => lines.push("**Unconscious** at 0 ST".to_owned()),
        Condition::Dying => {
            lines.push("**Dying**: below 0 ST (roll with /tft dying)".to_owned());
        }
    }
    lines.join("\n")
}

/// What a 17 or 18 did to the weapon: broken or held (by its quality die), or dropped.
fn mishap_fields(s: &Shown<'_>) -> Vec<Field> {
    let mut fields = Vec::new();
    if let Some(b) = s.breakage {
        let die = b
            .die
            .map_or(String::new(), |d| format!(" (quality die {d})"));
        let what = if b.broken { "breaks" } else { "holds" };
        fields.push(field("Weapon", format!("It {what}{die}."), false));
    }
    if s.res.roll.outcome == AttackOutcome::DropWeapon && s.self_damage.is_none() {
        // tft-rules-summary.md, "ROLLING TO HIT": a dropped weapon is picked up, an action of
        // its own, before it strikes again.
        fields.push(field(
            "Dropped",
            "Pick it up with /tftkit pickup (an action) before striking with it again.",
            false,
        ));
    }
    fields
}

pub(super) fn embed(s: &Shown<'_>) -> Embed {
    let roll = &s.res.roll;
    let mut weapon = escape(s.weapon);
    if let Some(note) = s.weapon_note {
        weapon = format!("{weapon} ({note})");
    }
    let result = if s.self_damage.is_some() {
        SELF_DAMAGE
    } else {
        outcome_name(roll.outcome)
    };
    let mut fields = vec![
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
        field("Result", result, true),
        field("adjDX", screen::npc(s.npcs.0, breakdown(s.setup)), false),
        field("Weapon", weapon, false),
    ];
    fields.extend(mishap_fields(s));
    if let Some(l) = s.lance {
        fields.push(field(
            "Lance",
            format!(
                "{}: {}d: {} = {} against {} (the lower of ST and adjDX)",
                if l.success { "kept" } else { "dropped" },
                l.dice,
                faces(&l.faces),
                l.total,
                screen::npc(s.npcs.0, l.against.to_string())
            ),
            false,
        ));
    }
    if let Some(hurt) = s.self_damage {
        fields.push(field(
            "Attacker",
            format!(
                "{} takes {hurt} hit{} (1d)",
                escape(s.attacker),
                if hurt == 1 { "" } else { "s" }
            ),
            false,
        ));
    }
    let description = match &s.res.damage {
        Some(d) => format!(
            "**{}**: {} hit{} to {}.",
            outcome_name(roll.outcome),
            d.damage.hits,
            if d.damage.hits == 1 { "" } else { "s" },
            escape(s.target)
        ),
        None => format!("**{result}**."),
    };
    if let Some(d) = &s.res.damage {
        fields.extend(damage_fields(d, s.target_st, s.hits_before, s.npcs));
    }
    if let Some((target, effects)) = s.aimed {
        fields.push(field("Aimed", aimed_text(*target, effects), false));
    }
    if s.doubled_outright {
        fields.push(field(
            "Dagger Marksmanship",
            "the hit's damage is really doubled",
            false,
        ));
    }
    if let Some(t) = technique_text(s.setup.technique) {
        fields.push(field("Technique", t, false));
    }
    Embed {
        title: format!("{} attacks {}", escape(s.attacker), escape(s.target)),
        description,
        tone: Some(outcome_tone(roll.outcome)),
        fields,
        // The chance to hit follows from the attacker's adjDX.
        footer: Some(match s.hit_chance {
            Some(p) => format!(
                "Read on {}; {}.",
                table_text(&roll.table),
                screen::npc(s.npcs.0, format!("the chance to hit was {p:.1}%"))
            ),
            None => format!("Read on {}.", table_text(&roll.table)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tft::attack::{AttackSpec, AttackTableSettings, CriticalRange, Technique};

    #[test]
    fn breakdown_names_every_line() {
        let setup = AttackSpec {
            dx: 13,
            armor_dx: -3,
            shield_dx: 0,
            technique: Technique::Normal,
            adjustments: vec![Adjustment::FromSide, Adjustment::TargetDodging],
        }
        .setup()
        .unwrap();
        assert_eq!(
            breakdown(&setup),
            "DX 13, armor -3, from the side +2, target dodging +1 die = **12** on 4 dice"
        );
    }

    #[test]
    fn interpretations_are_marked() {
        let s = AttackTableSettings::default();
        let three = RollTable::new(3, CriticalRange::NORMAL, s);
        let five = RollTable::new(5, CriticalRange::NORMAL, s);
        assert!(!table_text(&three).contains("interpretation"));
        assert!(table_text(&five).contains("interpretation"));
    }
}
