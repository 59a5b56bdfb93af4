//! The special results of `/check`: what the skills chapter says a roll means beyond its level on
//! the chart, and the one line the reply shows for it.
//!
//! Source: thiz-rulebook.md, chapter 2 "Pocket-Picking" (96..100 fails and is noticed), chapter 4
//! "Light Touch" (only 98..100 is noticed), chapter 2 "Summoning" (96..100 maddens the creature)
//! and "Necromancy" (every casting costs a Green wound). Those are every roll band and fixed
//! price the Skills and Magic chapters give a single check (Unlucky's 98..100 is `check`'s and
//! stays the GM's). The rules are `rules::thiz::skills::special` and `rules::thiz::magic`; this
//! module picks the one a check calls for, applies it to the outcome, the odds and the logged
//! record, and phrases it. Never rolls, never writes.
//!
//! Seam: `luck` reads a rerolled check's special result again through [`of_record`].

use std::fmt::Write as _;

use super::record::CheckRecord;
use crate::app::AppResult;
use crate::app::reply::{Embed, Field};
use crate::app::sheet::Sheet;
use crate::rules::thiz::Level;
use crate::rules::thiz::check::{CheckError, CheckInput, CheckOutcome, resolve_check};
use crate::rules::thiz::magic::necromancy_casting_wound;
use crate::rules::thiz::odds::{FACES, Odds};
use crate::rules::thiz::skills::special::{pocket_picking, summoning_backfires};
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::{Quirk, pocket_picking_detection_roll};
use crate::store::characters;
use crate::store::{CharacterId, Conn, GuildId};

/// The name of the reply's field that carries the line.
pub const FIELD: &str = "Special result";

/// What a skill's own rule makes of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Special {
    /// The level the rule leaves in place of the chart's, when it differs.
    pub level: Option<Level>,
    /// What the reply says, in a line.
    pub line: String,
}

/// The special result of a check of `skill` by a character with `quirks`, given its outcome;
/// `None` when the skill has no rule for it.
pub fn special(
    skill: Option<SkillKind>,
    quirks: &[Quirk],
    outcome: &CheckOutcome,
) -> Option<Special> {
    match skill? {
        SkillKind::PocketPicking => {
            let light_touch = quirks.contains(&Quirk::LightTouch);
            let picked = pocket_picking(outcome.level, outcome.roll, light_touch);
            let changed = (picked.level != outcome.level).then_some(picked.level);
            if picked.detected {
                let from = pocket_picking_detection_roll(light_touch);
                let mut line =
                    format!("A roll of {from}–100: the attempt fails and the mark notices it.");
                if changed.is_some() {
                    let _ = write!(line, " (The chart alone gave {}.)", outcome.level);
                }
                Some(Special {
                    level: changed,
                    line,
                })
            } else if picked.coin_percent > 0 {
                Some(Special {
                    level: None,
                    line: format!(
                        "Unnoticed; from a purse, {}% of the coin the mark carries.",
                        picked.coin_percent
                    ),
                })
            } else {
                None
            }
        }
        SkillKind::Summoning if summoning_backfires(outcome.roll) => Some(Special {
            level: None,
            line: "A roll of 96–100: whatever answers is maddened, attacks the summoner at once and hunts them until one of the two is dead.".to_owned(),
        }),
        SkillKind::Necromancy => Some(Special {
            level: None,
            line: format!(
                "Casting Necromancy costs the caster a {} wound, whatever the result (/wound add).",
                necromancy_casting_wound(outcome.level)
            ),
        }),
        _ => None,
    }
}

/// The outcome with the level a special result leaves.
fn overridden(mut outcome: CheckOutcome, special: Option<&Special>) -> CheckOutcome {
    if let Some(level) = special.and_then(|s| s.level) {
        outcome.level = level;
    }
    outcome
}

/// A check with its special rules applied: what `/check` shows and logs.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The outcome, with the level the special rule leaves.
    pub outcome: CheckOutcome,
    pub special: Option<Special>,
    kind: Option<SkillKind>,
    quirks: Vec<Quirk>,
}

/// The quirks on a THIZ character's sheet (none for a sheet that is not THIZ).
fn quirks_of(conn: &Conn, guild: GuildId, id: CharacterId) -> AppResult<Vec<Quirk>> {
    let Some(c) = characters::by_id(conn, guild, id)? else {
        return Ok(Vec::new());
    };
    Ok(match Sheet::of(&c)? {
        Sheet::Thiz(s) => s
            .quirks
            .iter()
            .filter_map(|q| Quirk::from_entry(q))
            .collect(),
        Sheet::Tft(_) => Vec::new(),
    })
}

/// The special rules of a rolled check: the character's quirks are read only when the skill has
/// a rule that uses them.
pub fn apply(
    conn: &Conn,
    guild: GuildId,
    character: Option<CharacterId>,
    skill: Option<&str>,
    outcome: CheckOutcome,
) -> AppResult<Applied> {
    let kind = skill
        .and_then(|s| SkillId::parse(s).ok())
        .and_then(|s| s.kind());
    let quirks = match (kind, character) {
        (Some(SkillKind::PocketPicking), Some(id)) => quirks_of(conn, guild, id)?,
        _ => Vec::new(),
    };
    let special = special(kind, &quirks, &outcome);
    Ok(Applied {
        outcome: overridden(outcome, special.as_ref()),
        special,
        kind,
        quirks,
    })
}

impl Applied {
    /// The exact odds of the level the player gets: every face resolved as the check would be,
    /// then read by the skill's rule.
    pub fn odds(&self, input: &CheckInput) -> Result<Odds, CheckError> {
        let mut counts = [0u32; 5];
        let mut unlucky_faces = 0;
        for roll in 1..=FACES {
            let out = resolve_check(input, roll)?;
            let out = overridden(out, special(self.kind, &self.quirks, &out).as_ref());
            counts[out.level.index()] += 1;
            unlucky_faces += u32::from(out.unlucky_flag);
        }
        Ok(Odds {
            counts,
            unlucky_faces,
        })
    }

    /// Notes on the logged record what a luck reroll needs to read its new roll the same way.
    pub fn mark(&self, record: &mut CheckRecord) {
        record.light_touch = self.quirks.contains(&Quirk::LightTouch);
    }

    /// Adds the special line to the result embed.
    pub fn show(&self, embed: &mut Embed) {
        if let Some(s) = &self.special {
            embed.fields.push(Field {
                name: FIELD.to_owned(),
                value: s.line.clone(),
                inline: false,
            });
        }
    }
}

/// The special result of a logged check read again with `outcome` (a luck reroll's): the skill
/// and quirks come from the record, as they were when the check was made.
pub fn of_record(record: &CheckRecord, outcome: &CheckOutcome) -> Option<Special> {
    let kind = record
        .skill
        .as_deref()
        .and_then(|s| SkillId::parse(s).ok())
        .and_then(|s| s.kind());
    let quirks: &[Quirk] = if record.light_touch {
        &[Quirk::LightTouch]
    } else {
        &[]
    };
    special(kind, quirks, outcome)
}

#[cfg(test)]
mod tests {
    use super::super::record::ThizRecord;
    use super::super::testkit::Kit;
    use super::*;
    use crate::rules::dice::{DieSource, SeededDice};
    use crate::rules::thiz::{Rating, resolve};

    /// The level the chart gives `roll` at `rating`.
    fn chart(rating: i32, roll: u32) -> Level {
        resolve(Rating(rating), roll)
    }

    /// (quirks, roll, a line at all, the level it leaves, noticed).
    type Case<'a> = (&'a [Quirk], u32, bool, Option<Level>, bool);

    fn outcome(rating: i32, roll: u32) -> CheckOutcome {
        resolve_check(&CheckInput::at(rating), roll).unwrap()
    }

    #[test]
    fn pocket_picking_bands_with_and_without_light_touch() {
        // thiz-rulebook.md, chapter 2 "Pocket-Picking": 96..100 fails and is noticed; chapter 4
        // "Light Touch": only 98..100. Rating 30 reads Green up to 96, so 96 is where the level
        // changes.
        let pp = Some(SkillKind::PocketPicking);
        let light = [Quirk::LightTouch];
        // (quirks, roll, a line at all, the level it leaves, noticed). 97 is a Failure on the
        // chart: unnoticed with Light Touch, it has nothing to say.
        let cases: [Case<'_>; 8] = [
            (&[], 95, true, None, false),
            (&[], 96, true, Some(Level::Failure), true),
            (&[], 97, true, None, true),
            (&[], 100, true, None, true),
            (&light, 96, true, None, false),
            (&light, 97, false, None, false),
            (&light, 98, true, None, true),
            (&light, 100, true, None, true),
        ];
        for (quirks, roll, some, level, noticed) in cases {
            let s = special(pp, quirks, &outcome(30, roll));
            assert_eq!(s.is_some(), some, "{roll} {quirks:?}");
            let s = s.unwrap_or(Special {
                level: None,
                line: String::new(),
            });
            assert_eq!(s.level, level, "{roll} {quirks:?}");
            assert_eq!(s.line.contains("notices"), noticed, "{roll}: {}", s.line);
        }
        assert_eq!(chart(30, 96), Level::Green);
        let s = special(pp, &[], &outcome(30, 96)).unwrap();
        assert_eq!(
            s.line,
            "A roll of 96–100: the attempt fails and the mark notices it. (The chart alone gave Green.)"
        );
        assert_eq!(
            special(pp, &light, &outcome(30, 98)).unwrap().line,
            "A roll of 98–100: the attempt fails and the mark notices it."
        );
        // An unnoticed success says what it takes; an unnoticed failure says nothing.
        let s = special(pp, &[], &outcome(30, 5)).unwrap();
        assert_eq!(
            s.line,
            "Unnoticed; from a purse, 100% of the coin the mark carries."
        );
        assert_eq!(special(pp, &[], &outcome(-30, 90)), None);
    }

    #[test]
    fn summoning_maddens_on_96_to_100_and_necromancy_always_costs() {
        // thiz-rulebook.md, chapter 2 "Summoning" (96..100) and "Necromancy" (a Green wound).
        let sum = Some(SkillKind::Summoning);
        for (roll, maddened) in [(1, false), (95, false), (96, true), (100, true)] {
            let s = special(sum, &[], &outcome(10, roll));
            assert_eq!(s.is_some(), maddened, "{roll}");
            assert!(s.is_none_or(|s| s.level.is_none() && s.line.contains("maddened")));
        }
        for roll in [1, 100] {
            let s = special(Some(SkillKind::Necromancy), &[], &outcome(5, roll)).unwrap();
            assert_eq!(s.level, None);
            assert!(s.line.contains("a Green wound"), "{}", s.line);
        }
        assert_eq!(
            special(Some(SkillKind::Stealth), &[], &outcome(5, 99)),
            None
        );
        assert_eq!(special(None, &[], &outcome(5, 99)), None);
    }

    /// A seed whose first d100 is `roll`.
    fn seed_for(roll: u32) -> u64 {
        (0..100_000u64)
            .find(|s| SeededDice::new(*s).d100() == roll)
            .unwrap()
    }

    fn logged(kit: &Kit) -> super::super::record::CheckRecord {
        let json = kit.last_roll_json().unwrap();
        let Some(ThizRecord::Check(rec)) = ThizRecord::from_json(&json) else {
            panic!("{json}");
        };
        rec
    }

    #[test]
    fn check_shows_a_noticed_pocket_picking_and_logs_the_failure() {
        // Pocket-Picking 30 rolls 96: the chart's Green becomes a noticed Failure.
        let kit = Kit::new(seed_for(96));
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Pocket-Picking", 30);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "pocket-picking")]);
        let e = &reply.embeds[0];
        assert!(e.description.starts_with("**Failure"), "{e:?}");
        let line = e.fields.iter().find(|f| f.name == FIELD).unwrap();
        assert!(line.value.contains("the mark notices it"), "{line:?}");
        assert!(
            line.value.contains("The chart alone gave Green"),
            "{line:?}"
        );
        // The odds are those of the level read: 96 moved from Green to Failure.
        let odds = e.fields.iter().find(|f| f.name == "Odds").unwrap();
        assert!(odds.value.contains("Failure 5%"), "{odds:?}");
        let rec = logged(&kit);
        assert_eq!(
            (rec.roll, rec.chart_level.as_str(), rec.level.as_str()),
            (96, "Green", "Failure")
        );
        assert!(!rec.light_touch);
        let special = of_record(&rec, &rec.outcome().unwrap()).unwrap();
        assert_eq!(special.level, Some(Level::Failure));
    }

    #[test]
    fn light_touch_keeps_96_unnoticed_and_the_log_remembers_it() {
        let kit = Kit::new(seed_for(96));
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Pocket-Picking", 30);
        kit.sheet(vexa, r#"{"quirks": ["Light Touch"]}"#);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Pocket-Picking")]);
        let e = &reply.embeds[0];
        assert!(e.description.starts_with("**Green"), "{e:?}");
        let line = e.fields.iter().find(|f| f.name == FIELD).unwrap();
        assert!(line.value.contains("40% of the coin"), "{line:?}");
        let odds = e.fields.iter().find(|f| f.name == "Odds").unwrap();
        assert!(odds.value.contains("Failure 4%"), "{odds:?}");
        let rec = logged(&kit);
        assert!(rec.light_touch);
        assert_eq!(rec.level, "Green");
        // A reroll read from the record uses Light Touch's band: 96 unnoticed, 98 noticed.
        let at = |roll| of_record(&rec, &resolve_check(&rec.input(), roll).unwrap());
        assert!(at(96).unwrap().line.contains("40% of the coin"));
        assert!(at(98).unwrap().line.contains("notices"));
    }

    #[test]
    fn check_warns_of_a_maddened_summoning() {
        let kit = Kit::new(seed_for(97));
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Summoning", 6);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "summoning")]);
        let e = &reply.embeds[0];
        assert_eq!(e.tone, Some(super::super::shared::tone(chart(6, 97))));
        let line = e.fields.iter().find(|f| f.name == FIELD).unwrap();
        assert!(line.value.contains("maddened"), "{line:?}");
        assert_eq!(logged(&kit).level, chart(6, 97).name());
        // Any other roll, or a bare rating, shows no such line.
        let kit = Kit::new(seed_for(50));
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Summoning", 6);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "summoning")]);
        assert!(!reply.embeds[0].fields.iter().any(|f| f.name == FIELD));
        let reply = kit.run(&kit.player(), &["check"], &[("rating", "6")]);
        assert!(!reply.embeds[0].fields.iter().any(|f| f.name == FIELD));
    }
}
