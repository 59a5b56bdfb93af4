//! A THIZ character as the commands use it: sheet, parsed skills, general ratings, wounds and
//! equipment, read from the store in one go.
//!
//! Skills are stored as text; a row the skill parser does not know (a referee's own skill) still
//! counts for checks named exactly like it, but not toward the general ratings, whose category it
//! does not carry.

use crate::app::sheet::{ItemStats, Sheet, ThizSheet};
use crate::app::text::escape;
use crate::app::{AppError, AppResult, user};
use crate::rules::thiz::combat::{ArmorAt, ArmorPiece, Shield, armor_at};
use crate::rules::thiz::skills::{
    BaseRating, BaseSource, GeneralRatings, SkillId, SkillKind, base_rating,
};
use crate::rules::thiz::traits::Weakness;
use crate::rules::thiz::wounds::WoundSheet;
use crate::rules::thiz::{Location, Rating};
use crate::store::Conn;
use crate::store::characters::{self, Character, Item};

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
        Ok(ThizChar {
            character: c,
            sheet,
            skills,
            raw_skills,
            generals,
            wounds,
            items,
        })
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
        armor_at(location, &pieces, shield, None).map_err(|e| {
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
    use super::*;
    use crate::rules::thiz::skills::General;

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
