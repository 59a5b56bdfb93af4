//! A THIZ character as the commands use it: sheet, parsed skills, general ratings, wounds and
//! equipment, read from the store in one go.
//!
//! Skills are stored as text; a row the skill parser does not know (a referee's own skill) still
//! counts for checks named exactly like it, but not toward the general ratings, whose category it
//! does not carry.
//!
//! Also owns what wounds and lost limbs allow: [`ThizChar::able_to_act`] (the refusal for an
//! Incapacitated or dead character) and [`ThizChar::check_penalty`] (every wound's penalty on a
//! check, refusing a check with a missing or Useless arm). Decisions:
//! - A one-handed skill uses the `hand` the player names, else the sheet's `handedness`, else the
//!   right hand.
//! - A lost limb is one the Missing Limb weakness names (`missing_limb`) or one a Black wound made
//!   Useless. A lost leg makes Speed -2 whatever the rating (thiz-rulebook.md, "Missing Limb"),
//!   wound penalties still counting on top; an Incapacitated character's Speed is 0 (the rule
//!   gives 0 for the unconscious; the dying and the stable move no more than they do).
//!
//! Seam: the `encounter` reads a THIZ figure's facts and `luck` replays a roll through
//! [`ThizChar`], so every family reads a THIZ sheet the same way.

use crate::app::sheet::{ItemStats, Sheet, ThizSheet};
use crate::app::text::escape;
use crate::app::{AppError, AppResult, user};
use crate::rules::thiz::combat::speed_with_missing_leg;
use crate::rules::thiz::combat::{ArmorAt, ArmorPiece, Shield, armor_at};
use crate::rules::thiz::skills::{
    BaseRating, BaseSource, GeneralRatings, SkillId, SkillKind, base_rating,
};
use crate::rules::thiz::traits::Weakness;
use crate::rules::thiz::wounds::{
    Condition, DamageKind, LimbError, WoundSheet, arm_penalty, current_condition, incapacitation,
};
use crate::rules::thiz::{Location, Rating};
use crate::store::characters::{self, Character, Item};
use crate::store::{Conn, conditions};

use super::record::sheet_from_rows;

/// Everything about one THIZ character a check or an attack needs.
#[derive(Debug, Clone)]
pub struct ThizChar {
    pub character: Character,
    pub sheet: ThizSheet,
    /// Skills the parser knows, with their ratings.
    pub skills: Vec<(SkillId, i32)>,
    /// Every stored skill row by its lower-case name (custom skills included).
    pub raw_skills: Vec<(String, i32)>,
    pub generals: GeneralRatings,
    pub wounds: WoundSheet,
    pub items: Vec<Item>,
    /// The condition recorded (dying, stable, unconscious, dead), before reading the wounds.
    pub recorded: Option<Condition>,
    /// The character's own day count (moved on by `/wound rest`), for Surgery's one wound per
    /// location per day.
    pub day: i64,
}

/// The answer for a TFT character given to a THIZ command.
pub fn not_thiz(c: &Character, command: &str) -> AppError {
    user(format!(
        "{} is a TFT character; {command} is for THIZ characters (TFT has /tft save and /tft attack).",
        escape(&c.name)
    ))
}

impl ThizChar {
    /// Loads `c`, refusing a TFT character with a clear answer naming `command`.
    pub fn load(conn: &Conn, c: Character, command: &str) -> AppResult<ThizChar> {
        let sheet = match Sheet::of(&c)? {
            Sheet::Thiz(s) => s,
            Sheet::Tft(_) => return Err(not_thiz(&c, command)),
        };
        let rows = characters::skills(conn, c.guild_id, c.id)?;
        let mut skills = Vec::new();
        let mut raw_skills = Vec::new();
        for row in rows {
            let rating = i32::try_from(row.rating).unwrap_or(0);
            if let Ok(id) = SkillId::parse(&row.skill) {
                skills.push((id, rating));
            }
            raw_skills.push((characters::name_key(&row.skill), rating));
        }
        let generals = GeneralRatings::from_skills(skills.iter().map(|(s, r)| (s, *r)));
        let wounds = sheet_from_rows(&characters::wounds(conn, c.guild_id, c.id)?)?;
        let items = characters::items(conn, c.guild_id, c.id)?;
        let row = conditions::get(conn, c.guild_id, c.id)?;
        let recorded =
            match row.condition.as_deref() {
                None => None,
                Some(text) => Some(Condition::from_name(text).ok_or_else(|| {
                    AppError::Internal(anyhow::anyhow!("stored condition {text:?}"))
                })?),
            };
        Ok(ThizChar {
            character: c,
            sheet,
            skills,
            raw_skills,
            generals,
            wounds,
            items,
            recorded,
            day: row.day,
        })
    }

    /// The condition the character is in now: dying, stable, unconscious or dead, or `None`.
    pub fn condition(&self) -> Option<Condition> {
        current_condition(self.recorded, self.wounds.is_incapacitated())
    }

    /// Refuses anything an Incapacitated or dead character would do (a check, an attack), with a
    /// one-line answer saying why; the dying Toughness check itself does not call this.
    pub fn able_to_act(&self) -> AppResult<()> {
        let who = escape(&self.character.name);
        let vital = || {
            Location::ALL
                .into_iter()
                .filter(|l| l.is_vital() && self.wounds.at(*l).black)
                .map(Location::name)
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match self.condition() {
            None => Ok(()),
            Some(Condition::Dead) => Err(user(format!("{who} is dead and can do nothing more."))),
            Some(Condition::Dying) => Err(user(format!(
                "{who} is dying and cannot act: roll /wound dying, or stabilise them with /wound firstaid."
            ))),
            Some(c @ (Condition::Stable | Condition::Unconscious)) => Err(user(format!(
                "{who} is {} and cannot act until the Black wound on the {} heals.",
                c.name(),
                vital()
            ))),
        }
    }

    /// The arms the character cannot use: the one Missing Limb names, and any made Useless.
    pub fn lost_arms(&self) -> Vec<Location> {
        self.lost_limbs()
            .into_iter()
            .filter(|l| l.is_arm())
            .collect()
    }

    /// True when a leg is missing or Useless.
    pub fn leg_lost(&self) -> bool {
        self.lost_limbs().iter().any(|l| l.is_leg())
    }

    fn lost_limbs(&self) -> Vec<Location> {
        let mut lost = self.wounds.effects().useless;
        if self.has_weakness(Weakness::MissingLimb)
            && let Some(limb) = self.sheet.missing_limb.as_deref().and_then(Location::parse)
            && !lost.contains(&limb)
        {
            lost.push(limb);
        }
        lost
    }

    /// The arm a one-handed skill uses: `asked`, else the sheet's better hand, else the right.
    pub fn hand(&self, asked: Option<Location>) -> Location {
        let better = match self.sheet.handedness.as_deref() {
            Some("left") => Location::LeftArm,
            _ => Location::RightArm,
        };
        asked.unwrap_or(better)
    }

    /// Every wound's penalty on a check of `skill` (`None`: a bare rating or a referee's own
    /// skill) done with `hand` where it takes one (thiz-rulebook.md, "Damage" table): the Head on
    /// all of them; the arm or arms an arm skill uses; the legs on Speed; the Gut on Toughness.
    /// Refuses a check the arms do not allow, in one line.
    pub fn check_penalty(
        &self,
        skill: Option<SkillKind>,
        hand: Option<Location>,
    ) -> AppResult<i32> {
        let effects = self.wounds.effects();
        let Some(kind) = skill else {
            return Ok(effects.skill_check(None));
        };
        let hand = self.hand(hand);
        let arms = arm_penalty(&effects, &self.lost_arms(), kind, hand).map_err(|e| {
            let who = escape(&self.character.name);
            let other = match hand {
                Location::LeftArm => "right",
                _ => "left",
            };
            match e {
                LimbError::ArmLost(arm) => user(format!(
                    "{who} cannot use the {arm} (missing or Useless) for {kind}; name the other hand with hand:{other}."
                )),
                LimbError::NoArms | LimbError::DualWieldForbidden => {
                    user(format!("{who} cannot check {kind}: {e}."))
                }
            }
        })?;
        Ok(arms
            + match kind {
                SkillKind::Speed => effects.speed_check(),
                SkillKind::Toughness => effects.toughness_check(),
                _ => effects.skill_check(None),
            })
    }

    /// The penalty on initiative: the Chest's wounds alone.
    pub fn initiative_penalty(&self) -> i32 {
        self.wounds.effects().initiative_roll()
    }

    /// Speed as the body allows it (before wound penalties): 0 when Incapacitated, -2 with a leg
    /// lost, else `speed`.
    pub fn speed_with_legs(&self, speed: i32) -> i32 {
        if self.condition().is_some() {
            0
        } else {
            speed_with_missing_leg(speed, self.leg_lost())
        }
    }

    /// Records what the wound sheet `sheet` (the character's wounds after a change) makes of the
    /// character. A new Black on Head, Chest or Gut makes them dying from lethal damage (even if
    /// they were stable) or unconscious from bare fists (unless already dying); otherwise the
    /// condition stays as it was, or is cleared once the wounds no longer incapacitate (death
    /// stays). Call it in the transaction that writes `sheet`; returns the condition now.
    pub fn record_wounds(
        &self,
        conn: &Conn,
        sheet: &WoundSheet,
        kind: DamageKind,
    ) -> AppResult<Option<Condition>> {
        let new_black = Location::ALL
            .into_iter()
            .any(|l| l.is_vital() && sheet.at(l).black && !self.wounds.at(l).black);
        let now = if !new_black || self.condition() == Some(Condition::Dead) {
            current_condition(self.recorded, sheet.is_incapacitated())
        } else {
            let new = Condition::from(incapacitation(kind));
            match (self.condition(), new) {
                (Some(Condition::Dying), Condition::Unconscious) => Some(Condition::Dying),
                _ => Some(new),
            }
        };
        // A condition that no longer holds is cleared, so the record never goes stale.
        let stored = now.map(Condition::name);
        if stored != self.recorded.map(Condition::name) {
            conditions::set(conn, self.character.guild_id, self.character.id, stored)?;
        }
        Ok(now)
    }

    /// The learned rating of `skill`, if the character has it.
    pub fn learned(&self, skill: &SkillId) -> Option<i32> {
        self.skills
            .iter()
            .find(|(s, _)| s == skill)
            .map(|(_, r)| *r)
    }

    /// The base rating for a check on `skill` (better of skill and general rating, untrained -5,
    /// magic must be learned), as a user error when it cannot be attempted.
    pub fn base(&self, skill: &SkillId) -> AppResult<BaseRating> {
        base_rating(skill, self.learned(skill), &self.generals).map_err(|e| {
            user(format!(
                "{} cannot check that: {e}.",
                escape(&self.character.name)
            ))
        })
    }

    /// The base rating of a single-instance skill such as Speed or Toughness.
    pub fn base_of(&self, kind: SkillKind) -> AppResult<BaseRating> {
        let id = SkillId::single(kind)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("skill {kind}: {e}")))?;
        self.base(&id)
    }

    /// A referee's own skill stored on the sheet under exactly this name.
    pub fn custom(&self, name: &str) -> Option<i32> {
        let key = characters::name_key(name);
        self.raw_skills
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, r)| *r)
    }

    /// Whether the sheet lists `weakness` (a subject in brackets is ignored).
    pub fn has_weakness(&self, weakness: Weakness) -> bool {
        self.sheet.weaknesses.iter().any(|w| {
            let name = w.split(['(', '[', ':']).next().unwrap_or(w);
            Weakness::from_name(name) == Some(weakness)
        })
    }

    /// Items of one kind with their stats (unreadable stats count as none).
    pub fn items_of(&self, kind: &str) -> impl Iterator<Item = (&Item, ItemStats)> {
        self.items
            .iter()
            .filter(move |i| i.kind.eq_ignore_ascii_case(kind))
            .map(|i| (i, serde_json::from_str(&i.stats_json).unwrap_or_default()))
    }

    /// The weapon named `name` the character carries.
    pub fn weapon(&self, name: &str) -> AppResult<(&Item, ItemStats)> {
        let key = characters::name_key(name);
        if let Some(found) = self
            .items_of("weapon")
            .find(|(i, _)| characters::name_key(&i.name) == key)
        {
            return Ok(found);
        }
        let carried: Vec<String> = self
            .items_of("weapon")
            .map(|(i, _)| escape(&i.name))
            .collect();
        let list = if carried.is_empty() {
            "no weapons at all (add one with /character gear)".to_owned()
        } else {
            carried.join(", ")
        };
        Err(user(format!(
            "{} carries no weapon called {}; they carry {list}.",
            escape(&self.character.name),
            escape(name.trim())
        )))
    }

    /// The Armor Bonus at `location`: the best worn piece covering it, plus a shield on its arm.
    ///
    /// Decision: a shield's arm is the first arm named in its `locations`, else the left arm.
    pub fn armor_at(&self, location: Location) -> AppResult<ArmorAt> {
        self.armor_shielding(location, None)
    }

    /// [`ThizChar::armor_at`] with the shield raised to cover `shield_covers` this turn as well
    /// as its own arm (thiz-rulebook.md, "Shields").
    pub fn armor_shielding(
        &self,
        location: Location,
        shield_covers: Option<Location>,
    ) -> AppResult<ArmorAt> {
        let pieces: Vec<ArmorPiece> = self
            .items_of("armor")
            .map(|(_, s)| ArmorPiece {
                bonus: s.armor_bonus,
                covers: s
                    .locations
                    .iter()
                    .filter_map(|l| Location::parse(l))
                    .collect(),
            })
            .collect();
        let shield = self
            .items_of("shield")
            .map(|(_, s)| Shield {
                bonus: s.armor_bonus,
                arm: s
                    .locations
                    .iter()
                    .filter_map(|l| Location::parse(l))
                    .find(|l| l.is_arm())
                    .unwrap_or(Location::LeftArm),
            })
            .max_by_key(|s| s.bonus);
        armor_at(location, &pieces, shield, shield_covers).map_err(|e| {
            user(format!(
                "{}'s armour cannot be used: {e}.",
                escape(&self.character.name)
            ))
        })
    }
}

/// How a base rating came about, for a reply: "Stealth 4", "Physical 3 (untrained)".
pub fn describe_base(skill: &str, base: &BaseRating) -> String {
    match base.source {
        BaseSource::Skill => format!("{skill} {}", base.rating),
        BaseSource::General(g) => {
            let untrained = if base.untrained_penalty == 0 {
                String::new()
            } else {
                format!(" {} untrained", base.untrained_penalty)
            };
            let general = base.general.map_or(base.rating.0, |(_, r)| r);
            format!("{} {general}{untrained}", g.name())
        }
    }
}

/// Keeps a number the rules check against ±40 inside that range. Only wound penalties added to a
/// player's ±40 input can go beyond it, and the chart reads every rating past ±30 the same.
pub fn clamp_input(value: i32) -> i32 {
    value.clamp(-40, 40)
}

/// A rating as shown: "4".
pub fn rating_text(r: Rating) -> String {
    r.0.to_string()
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;
    use super::*;
    use crate::app::reply::{Reply, Visibility};
    use crate::rules::thiz::skills::General;
    use crate::store::CharacterId;

    /// Runs `/check` as the player and returns the "Rating" field of the result.
    fn rating_field(kit: &Kit, opts: &[(&str, &str)]) -> String {
        let reply = kit.run(&kit.player(), &["check"], opts);
        reply
            .embeds
            .first()
            .and_then(|e| e.fields.get(1))
            // Markdown escapes ("Lock\\-picking") are the renderer's business, not this test's.
            .map_or_else(
                || panic!("{opts:?}: no result: {reply:?}"),
                |f| f.value.replace('\\', ""),
            )
    }

    /// Asserts `/check` with `opts` is refused in one ephemeral line containing `want`.
    fn refused(kit: &Kit, opts: &[(&str, &str)], want: &str) -> Reply {
        let before = kit.roll_count();
        let reply = kit.run(&kit.player(), &["check"], opts);
        assert_eq!(
            reply.visibility,
            Visibility::Ephemeral,
            "{opts:?}: {reply:?}"
        );
        assert!(reply.content.contains(want), "{opts:?}: {}", reply.content);
        assert!(!reply.content.contains('\n'), "one line: {}", reply.content);
        assert_eq!(kit.roll_count(), before, "a refusal logs nothing");
        reply
    }

    fn vexa(kit: &Kit) -> CharacterId {
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        for (skill, rating) in [
            ("Lock-picking", 6),
            ("Stealth", 6),
            ("Speed", 6),
            ("Toughness", 6),
            ("Climbing", 6),
        ] {
            kit.skill(vexa, skill, rating);
        }
        vexa
    }

    #[test]
    fn each_wound_location_penalises_its_own_checks() {
        // thiz-rulebook.md, "Damage" table: Head all skills, Arm skills with that arm, Leg Speed,
        // Gut Toughness (-1/-2/-4 for G/Y/R).
        let kit = Kit::new(5);
        let id = vexa(&kit);
        kit.wound(id, "head", "green");
        kit.wound(id, "right arm", "red");
        kit.wound(id, "left arm", "yellow");
        kit.wound(id, "left leg", "yellow");
        kit.wound(id, "gut", "red");
        let cases: [(&[(&str, &str)], &str); 7] = [
            // The right hand by default: Head -1, Right Arm -4.
            (
                &[("skill", "Lock-picking")],
                "Lock-picking 6 · wounds -5 → 1",
            ),
            (
                &[("skill", "Lock-picking"), ("hand", "left")],
                "Lock-picking 6 · wounds -3 → 3",
            ),
            (
                &[("skill", "Lock-picking"), ("hand", "right")],
                "Lock-picking 6 · wounds -5 → 1",
            ),
            // Not an arm skill: the Head alone.
            (&[("skill", "Stealth")], "Stealth 6 · wounds -1 → 5"),
            // Both arms for Climbing.
            (&[("skill", "Climbing")], "Climbing 6 · wounds -7 → -1"),
            (&[("skill", "Speed")], "Speed 6 · wounds -3 → 3"),
            (&[("skill", "Toughness")], "Toughness 6 · wounds -5 → 1"),
        ];
        for (opts, want) in cases {
            assert_eq!(rating_field(&kit, opts), want, "{opts:?}");
        }
        // A left-handed sheet uses the left hand unless told otherwise.
        kit.sheet(id, r#"{"handedness": "left"}"#);
        assert_eq!(
            rating_field(&kit, &[("skill", "Lock-picking")]),
            "Lock-picking 6 · wounds -3 → 3"
        );
        refused(
            &kit,
            &[("skill", "Stealth"), ("hand", "both")],
            "hand must be right or left",
        );
    }

    #[test]
    fn a_useless_or_missing_arm_refuses_its_skills() {
        // thiz-rulebook.md, "Damage" table (Black on an arm: Useless) and "Missing Limb".
        let kit = Kit::new(5);
        let id = vexa(&kit);
        kit.wound(id, "right arm", "black");
        refused(
            &kit,
            &[("skill", "Lock-picking")],
            "Vexa cannot use the Right Arm (missing or Useless) for Lock-picking; name the other hand with hand:left.",
        );
        // The other hand works; a skill of no arm is not touched; two arms take -5.
        assert_eq!(
            rating_field(&kit, &[("skill", "Lock-picking"), ("hand", "left")]),
            "Lock-picking 6 → 6"
        );
        assert_eq!(rating_field(&kit, &[("skill", "Stealth")]), "Stealth 6 → 6");
        assert_eq!(
            rating_field(&kit, &[("skill", "Climbing")]),
            "Climbing 6 · wounds -5 → 1"
        );
        // A missing left arm as well: no hand is left for Lock-picking, no arm for Climbing.
        kit.sheet(
            id,
            r#"{"weaknesses": ["Missing Limb"], "missing_limb": "Left Arm"}"#,
        );
        refused(
            &kit,
            &[("skill", "Lock-picking"), ("hand", "left")],
            "cannot use the Left Arm",
        );
        refused(&kit, &[("skill", "Climbing")], "neither arm can be used");
    }

    #[test]
    fn a_lost_leg_makes_speed_minus_two() {
        // thiz-rulebook.md, "Missing Limb": Speed -2 whatever the rating.
        let kit = Kit::new(5);
        let id = vexa(&kit);
        kit.sheet(
            id,
            r#"{"weaknesses": ["Missing Limb"], "missing_limb": "Right Leg"}"#,
        );
        assert_eq!(
            rating_field(&kit, &[("skill", "Speed")]),
            "Speed -2 (a leg lost) → -2"
        );
        // Without the weakness the named limb is only a note: Speed stays.
        kit.sheet(id, r#"{"missing_limb": "Right Leg"}"#);
        assert_eq!(rating_field(&kit, &[("skill", "Speed")]), "Speed 6 → 6");
        // A Useless leg counts as lost, and its wound still counts.
        kit.wound(id, "left leg", "black");
        assert_eq!(
            rating_field(&kit, &[("skill", "Speed")]),
            "Speed -2 (a leg lost) · wounds -4 → -6"
        );
    }

    #[test]
    fn an_incapacitated_or_dead_character_cannot_check() {
        // thiz-rulebook.md, "Damage": Black on Head, Chest or Gut incapacitates.
        let kit = Kit::new(5);
        let id = vexa(&kit);
        kit.wound(id, "chest", "red");
        assert_eq!(rating_field(&kit, &[("skill", "Stealth")]), "Stealth 6 → 6");
        kit.wound(id, "chest", "black");
        for opts in [
            &[("skill", "Stealth")][..],
            &[("skill", "Toughness")],
            &[("rating", "4"), ("character", "Vexa")],
        ] {
            refused(
                &kit,
                opts,
                "Vexa is dying and cannot act: roll /wound dying",
            );
        }
        // A bare rating names no character and is not refused.
        assert_eq!(rating_field(&kit, &[("rating", "4")]), "rating 4 → 4");
        for (condition, want) in [
            (
                "stable",
                "Vexa is stable and cannot act until the Black wound on the Chest heals.",
            ),
            ("unconscious", "Vexa is unconscious and cannot act"),
            ("dead", "Vexa is dead and can do nothing more."),
        ] {
            kit.app
                .store
                .write(|tx| conditions::set(tx, super::super::testkit::GUILD, id, Some(condition)))
                .unwrap();
            refused(&kit, &[("skill", "Stealth")], want);
        }
    }

    #[test]
    fn base_descriptions() {
        let skill = BaseRating {
            rating: Rating(4),
            source: BaseSource::Skill,
            skill: Some(4),
            general: Some((General::Physical, 2)),
            untrained_penalty: 0,
        };
        assert_eq!(describe_base("Stealth", &skill), "Stealth 4");
        let untrained = BaseRating {
            rating: Rating(-3),
            source: BaseSource::General(General::Mental),
            skill: None,
            general: Some((General::Mental, 2)),
            untrained_penalty: -5,
        };
        assert_eq!(describe_base("Trade", &untrained), "Mental 2 -5 untrained");
        assert_eq!(clamp_input(-44), -40);
        assert_eq!(clamp_input(7), 7);
    }
}
