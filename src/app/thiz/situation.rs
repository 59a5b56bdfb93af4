//! `/check situation:…`: the circumstances a sheet's weaknesses and quirks care about, the
//! modifiers they bring to a check (each named on the reply's rating line), and what they make of
//! the roll afterwards (an allergic reaction, a point of Fame kept). Also the skills a sheet's
//! weaknesses rule out, refused before anything is rolled.
//!
//! Source: thiz-rulebook.md, chapter 3 ("Allergy", "Color Blind", "Physically Dependent",
//! "Tin Ear", "Compulsion", "Dependent", "Phobia", "Restless Sleep") and chapter 4 ("Berserk",
//! "Celestial Guidance", "Expert Tracker", "Forgiving Fans", "Military Background",
//! "Polarizing Personality", "Street-Smarts", "Triage Specialist"). The numbers are
//! `rules::thiz::traits` and `bars`; this module reads the sheet and the options, and refuses a
//! circumstance that changes nothing for the check, so a player never believes a bonus applied
//! when it did not.
//!
//! Decisions:
//! - A penalty that lasts a rolled time (a thwarted Compulsion, a rebuffed Dependent, Restless
//!   Sleep's waking hours) applies to every check that names it; each such check also rolls the
//!   rule's die and shows how long the penalty lasts from when it began, for the first check to
//!   fix and the table to note.
//! - An allergen is met with a Toughness check (`/check skill:Toughness situation:allergen_skin`
//!   or `allergen_swallowed`); its failure rolls the reaction's hours.
//! - Fame is not on the sheet: `/check rating:<Fame> situation:fame` is the check Forgiving Fans
//!   (about to lose a point) or Polarizing Personality (about to gain one) makes.

use crate::app::text::escape;
use crate::app::{AppResult, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::Level;
use crate::rules::thiz::advancement::SPECIAL_BONUS;
use crate::rules::thiz::bars::{Traits, skill_bar};
use crate::rules::thiz::skills::special::trail_modifier;
use crate::rules::thiz::skills::{SkillId, SkillKind};
use crate::rules::thiz::traits::{
    Quirk, QuirkChoice, Situation, TimedPenalty, Weakness, allergy_rash, allergy_swollen_eyes,
    berserk_check_bonus, color_blind_modifier, compulsion_penalty, dependence_penalty,
    dependence_recovery, dependence_toughness_loss, dependent_penalty, expert_tracker_applies,
    fame_check_succeeds, phobia_combat_modifier, quirk_bonus, restless_sleep_penalty,
};

use super::stats::ThizChar;
use crate::app::characters::fields;

/// The farthest back a trail or a withdrawal may be counted, in hours or days.
pub const MAX_COUNT: i64 = 1000;

/// A circumstance `situation:` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Circumstance {
    City,
    Soldiers,
    Sky,
    CombatWound,
    Berserk,
    Phobia,
    Shades,
    Thwarted,
    Rebuffed,
    Waking,
    AllergenSkin,
    AllergenSwallowed,
    Fame,
    /// The trail a Tracking check follows is of mundane animals, magical creatures or human
    /// beings (what Expert Tracker's choice asks).
    Quarry(QuirkChoice),
    /// The check is the narrow use a Special on the sheet helps (chapter 10, "Training").
    Special,
}

/// Each circumstance: its word, and what it takes to matter (for the refusal).
const CIRCUMSTANCES: [(Circumstance, &str, &str); 17] = [
    (
        Circumstance::City,
        "city",
        "Perception in a city, with Street-Smarts",
    ),
    (
        Circumstance::Soldiers,
        "soldiers",
        "Fast Talk or Persuasion with friendly soldiers, with Military Background",
    ),
    (
        Circumstance::Sky,
        "sky",
        "Navigation under a visible sky in the chosen half of the day, with Celestial Guidance",
    ),
    (
        Circumstance::CombatWound,
        "combat_wound",
        "treating a wound from combat, with Triage Specialist",
    ),
    (
        Circumstance::Berserk,
        "berserk",
        "Strength or Willpower (or facing a phobia) while Berserk, with the Berserk quirk",
    ),
    (
        Circumstance::Phobia,
        "phobia",
        "a check aimed at the feared thing in combat, with a Phobia",
    ),
    (
        Circumstance::Shades,
        "shades",
        "Perception telling shades apart, with Color Blind",
    ),
    (
        Circumstance::Thwarted,
        "thwarted",
        "any check after a thwarted Compulsion",
    ),
    (
        Circumstance::Rebuffed,
        "rebuffed",
        "any check after a Dependent's person turns against them",
    ),
    (
        Circumstance::Waking,
        "waking",
        "any check in the first hours after waking, with Restless Sleep",
    ),
    (
        Circumstance::AllergenSkin,
        "allergen_skin",
        "a Toughness check against the allergen on the skin, with Allergy",
    ),
    (
        Circumstance::AllergenSwallowed,
        "allergen_swallowed",
        "a Toughness check against a swallowed allergen, with Allergy",
    ),
    (
        Circumstance::Fame,
        "fame",
        "a check against Fame, with Forgiving Fans or Polarizing Personality",
    ),
    (
        Circumstance::Quarry(QuirkChoice::MundaneAnimals),
        "mundane_animals",
        "a Tracking check with trail_hours, with Expert Tracker",
    ),
    (
        Circumstance::Quarry(QuirkChoice::MagicalCreatures),
        "magical_creatures",
        "a Tracking check with trail_hours, with Expert Tracker",
    ),
    (
        Circumstance::Quarry(QuirkChoice::HumanBeings),
        "human_beings",
        "a Tracking check with trail_hours, with Expert Tracker",
    ),
    (
        Circumstance::Special,
        "special",
        "the use of a skill a Special on the sheet helps (/character set field:specials)",
    ),
];

impl Circumstance {
    fn word(self) -> &'static str {
        CIRCUMSTANCES
            .iter()
            .find(|c| c.0 == self)
            .map_or("", |c| c.1)
    }

    fn needs(self) -> &'static str {
        CIRCUMSTANCES
            .iter()
            .find(|c| c.0 == self)
            .map_or("", |c| c.2)
    }

    /// Reads `situation:city,berserk` (commas or spaces between words).
    pub fn parse_list(text: &str) -> AppResult<Vec<Circumstance>> {
        let mut out = Vec::new();
        for word in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            let key = word.to_ascii_lowercase().replace('-', "_");
            let Some(c) = CIRCUMSTANCES.iter().find(|c| c.1 == key) else {
                let all: Vec<&str> = CIRCUMSTANCES.iter().map(|c| c.1).collect();
                return Err(user(format!(
                    "situation takes {}; you gave {}.",
                    all.join(", "),
                    escape(word)
                )));
            };
            if !out.contains(&c.0) {
                out.push(c.0);
            }
        }
        Ok(out)
    }
}

/// The situation a check is made in, as the options give it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conditions {
    pub circumstances: Vec<Circumstance>,
    /// Days without the substance of Physically Dependent.
    pub withdrawal: Option<u32>,
    /// Days taking it again since.
    pub recovering: Option<u32>,
    /// Full hours since the trail was left, for Tracking.
    pub trail_hours: Option<u32>,
}

impl Conditions {
    /// Whether the check names anything the sheet must be read for.
    pub fn is_empty(&self) -> bool {
        self.circumstances.is_empty()
            && self.withdrawal.is_none()
            && self.recovering.is_none()
            && self.trail_hours.is_none()
    }

    fn has(&self, c: Circumstance) -> bool {
        self.circumstances.contains(&c)
    }
}

/// What the sheet and the situation make of a check before its roll.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Before {
    /// Each modifier, named for the rating line ("Street-Smarts +3").
    pub modifiers: Vec<(String, i32)>,
    /// Lines for the reply (a penalty's duration, a phobia ignored).
    pub lines: Vec<String>,
}

impl Before {
    pub fn total(&self) -> i32 {
        self.modifiers.iter().map(|(_, m)| m).sum()
    }
}

/// The quirks on the sheet.
fn quirks(tc: &ThizChar) -> Vec<Quirk> {
    tc.sheet
        .quirks
        .iter()
        .filter_map(|q| Quirk::from_entry(q))
        .collect()
}

/// Why the sheet rules `skill` out, phrased for a refusal; `None` when it may be tested.
pub fn barred(tc: &ThizChar, skill: &SkillId) -> Option<String> {
    bar_reason(tc, skill).map(|why| {
        format!(
            "{} cannot test {}: it is ruled out by {}.",
            escape(&tc.character.name),
            escape(&skill.to_string()),
            escape(&why)
        )
    })
}

/// What on the sheet rules `skill` out ("the Tin Ear weakness", "a phobia of heights"), unescaped;
/// `None` when nothing does. The same reading `/check` and `/advance` refuse by.
pub fn bar_reason(tc: &ThizChar, skill: &SkillId) -> Option<String> {
    let weaknesses: Vec<Weakness> = tc
        .sheet
        .weaknesses
        .iter()
        .filter_map(|w| fields::parse_weakness(w))
        .collect();
    let phobias: Vec<String> = tc
        .sheet
        .weaknesses
        .iter()
        .filter(|w| fields::parse_weakness(w) == Some(Weakness::Phobia))
        .filter_map(|w| fields::weakness_subject(w))
        .map(str::to_owned)
        .collect();
    let quirks = quirks(tc);
    let traits = Traits {
        weaknesses: &weaknesses,
        quirks: &quirks,
        phobias: &phobias,
        missing_limb: tc
            .sheet
            .missing_limb
            .as_deref()
            .and_then(fields::parse_limb),
    };
    skill_bar(&traits, skill)
}

/// "situation:city changes nothing for this check (it counts for …)".
fn nothing(c: Circumstance) -> crate::app::AppError {
    user(format!(
        "situation:{} changes nothing for this check; it counts for {}.",
        c.word(),
        c.needs()
    ))
}

fn timed(name: &str, p: TimedPenalty, die: u32, since: &str) -> ((String, i32), String) {
    (
        (name.to_owned(), p.modifier),
        format!(
            "{name}: {} to every skill for {} hours from {since} (1d{die}).",
            p.modifier, p.hours
        ),
    )
}

/// The modifiers and lines of a check of `kind` (`None` for a bare rating) by `tc` in situation
/// `s`; refuses any part of the situation that changes nothing. Rolls the dice of the penalties
/// that last a rolled time.
pub fn before(
    tc: &ThizChar,
    (kind, skill): (Option<SkillKind>, Option<&str>),
    s: &Conditions,
    dice: &mut impl DieSource,
) -> AppResult<Before> {
    let mut out = Before::default();
    let quirks = quirks(tc);
    let has_quirk = |q| quirks.contains(&q);
    let berserk = s.has(Circumstance::Berserk) && has_quirk(Quirk::Berserk);
    for &c in &s.circumstances {
        let quirk_situation = match c {
            Circumstance::City => Some((Quirk::StreetSmarts, Situation::InACity)),
            Circumstance::Soldiers => {
                Some((Quirk::MilitaryBackground, Situation::FriendlySoldiers))
            }
            Circumstance::Sky => {
                Some((Quirk::CelestialGuidance, Situation::SkyVisibleInChosenTime))
            }
            Circumstance::CombatWound => Some((Quirk::TriageSpecialist, Situation::CombatWound)),
            _ => None,
        };
        let applied = if let Some((quirk, situation)) = quirk_situation {
            let bonus = match kind {
                Some(k) if has_quirk(quirk) => quirk_bonus(quirk, k, situation),
                _ => 0,
            };
            // Chapter 4 "Celestial Guidance": the bonus is for the time chosen, so the rating
            // line names it ("Celestial Guidance (night)"); without a choice there is none.
            let named = if quirk.choices().is_empty() {
                quirk.name().to_owned()
            } else if let Some(choice) = quirk_choice(tc, quirk) {
                format!("{} ({})", quirk.name(), choice.name())
            } else if bonus != 0 {
                return Err(unchosen(quirk));
            } else {
                quirk.name().to_owned()
            };
            if bonus != 0 {
                out.modifiers.push((named, bonus));
            }
            bonus != 0
        } else {
            match c {
                Circumstance::Berserk => {
                    let bonus = kind.map_or(0, |k| berserk_check_bonus(k, berserk));
                    if bonus != 0 {
                        out.modifiers.push(("Berserk".to_owned(), bonus));
                    }
                    let phobia = s.has(Circumstance::Phobia) && tc.has_weakness(Weakness::Phobia);
                    bonus != 0 || (berserk && phobia)
                }
                Circumstance::Phobia => {
                    let phobia = tc.has_weakness(Weakness::Phobia);
                    let m = phobia_combat_modifier(phobia, berserk);
                    if m != 0 {
                        out.modifiers.push(("Phobia".to_owned(), m));
                    } else if phobia {
                        out.lines.push("Berserk: the phobia is ignored.".to_owned());
                    }
                    phobia
                }
                Circumstance::Shades => {
                    let m = if kind == Some(SkillKind::Perception) {
                        color_blind_modifier(tc.has_weakness(Weakness::ColorBlind))
                    } else {
                        0
                    };
                    if m != 0 {
                        out.modifiers.push(("Color Blind".to_owned(), m));
                    }
                    m != 0
                }
                Circumstance::Thwarted | Circumstance::Rebuffed | Circumstance::Waking => {
                    timed_penalty(tc, c, dice, &mut out)
                }
                Circumstance::AllergenSkin | Circumstance::AllergenSwallowed => {
                    kind == Some(SkillKind::Toughness) && tc.has_weakness(Weakness::Allergy)
                }
                Circumstance::Fame => {
                    kind.is_none()
                        && (has_quirk(Quirk::ForgivingFans)
                            || has_quirk(Quirk::PolarizingPersonality))
                }
                Circumstance::Special => special(tc, skill, &mut out),
                // Read by `trail` below, where Expert Tracker's choice meets it.
                Circumstance::Quarry(_) => {
                    kind == Some(SkillKind::Tracking)
                        && s.trail_hours.is_some()
                        && has_quirk(Quirk::ExpertTracker)
                }
                _ => false,
            }
        };
        if !applied {
            return Err(nothing(c));
        }
    }
    dependence(tc, s, &mut out)?;
    trail(tc, kind, s, &mut out)?;
    Ok(out)
}

/// Chapter 10 "Training": a Special gives +3 to the narrow use it was trained for. The player
/// names that use with `situation:special`; the rating line says which Special counted. `false`
/// when the sheet holds no Special in `skill`.
fn special(tc: &ThizChar, skill: Option<&str>, out: &mut Before) -> bool {
    let Some(skill) = skill else {
        return false;
    };
    let key = crate::store::characters::name_key(skill);
    let uses: Vec<&str> = tc
        .sheet
        .specials
        .iter()
        .filter_map(|s| fields::parse_special(s))
        .filter(|(id, _)| crate::store::characters::name_key(&id.to_string()) == key)
        .map(|(_, what)| what)
        .collect();
    if uses.is_empty() {
        return false;
    }
    out.modifiers.push((
        format!("Special ({})", escape(&uses.join(" or "))),
        SPECIAL_BONUS,
    ));
    true
}

/// The choice recorded for `quirk` on the sheet ("Expert Tracker (human beings)"), if any.
fn quirk_choice(tc: &ThizChar, quirk: Quirk) -> Option<QuirkChoice> {
    tc.sheet
        .quirks
        .iter()
        .filter(|q| Quirk::from_entry(q) == Some(quirk))
        .find_map(|q| QuirkChoice::of_entry(q))
}

/// The refusal for a quirk whose choice the sheet does not record.
fn unchosen(quirk: Quirk) -> crate::app::AppError {
    let options: Vec<String> = quirk
        .choices()
        .iter()
        .map(|c| format!("\"{} ({})\"", quirk.name(), c.name()))
        .collect();
    user(format!(
        "{} counts only for the side chosen for it, and the sheet records none: add it with /character set field:quirks value:{}.",
        quirk.name(),
        options.join(" or ")
    ))
}

/// A penalty that lasts a rolled time, when the sheet has its weakness: the modifier, and a line
/// with its hours.
fn timed_penalty(
    tc: &ThizChar,
    c: Circumstance,
    dice: &mut impl DieSource,
    out: &mut Before,
) -> bool {
    let (weakness, name, sides, since) = match c {
        Circumstance::Thwarted => (Weakness::Compulsion, "Compulsion thwarted", 6, "then"),
        Circumstance::Rebuffed => (Weakness::Dependent, "Dependent rebuffed", 8, "then"),
        _ => (Weakness::RestlessSleep, "Restless Sleep", 3, "waking"),
    };
    if !tc.has_weakness(weakness) {
        return false;
    }
    let p = match c {
        Circumstance::Thwarted => compulsion_penalty(dice),
        Circumstance::Rebuffed => dependent_penalty(dice),
        _ => restless_sleep_penalty(dice),
    };
    let (m, line) = timed(name, p, sides, since);
    out.modifiers.push(m);
    out.lines.push(line);
    true
}

/// Tracking: the age of the trail, fresher for an Expert Tracker on the trail of the kind of
/// creature the quirk was taken for (chapter 4, "Expert Tracker").
fn trail(
    tc: &ThizChar,
    kind: Option<SkillKind>,
    s: &Conditions,
    out: &mut Before,
) -> AppResult<()> {
    if let Some(hours) = s.trail_hours {
        if kind != Some(SkillKind::Tracking) {
            return Err(user(
                "trail_hours is the age of the trail a Tracking check follows; name skill:Tracking.",
            ));
        }
        let quarry = s.circumstances.iter().find_map(|c| match c {
            Circumstance::Quarry(q) => Some(*q),
            _ => None,
        });
        let tracker = quirks(tc).contains(&Quirk::ExpertTracker);
        let chosen = quirk_choice(tc, Quirk::ExpertTracker);
        let expert = expert_tracker_applies(chosen, quarry);
        if tracker && !expert {
            out.lines.push(match (chosen, quarry) {
                (None, _) => format!(
                    "Expert Tracker gives nothing until its kind of creature is chosen: /character set field:quirks value:\"Expert Tracker ({})\" (or {} or {}).",
                    QuirkChoice::HumanBeings.name(),
                    QuirkChoice::MundaneAnimals.name(),
                    QuirkChoice::MagicalCreatures.name()
                ),
                (Some(c), None) => format!(
                    "Expert Tracker ({0}) counts on a trail of {0} only: name it with situation:{1}.",
                    c.name(),
                    c.name().replace(' ', "_")
                ),
                (Some(c), Some(q)) => format!(
                    "Expert Tracker ({}) does not help on a trail of {}.",
                    c.name(),
                    q.name()
                ),
            });
        }
        let m = trail_modifier(hours, expert);
        if m != 0 {
            let name = if expert {
                format!(
                    "trail {hours} h old, Expert Tracker ({})",
                    quarry.map_or("", QuirkChoice::name)
                )
            } else {
                format!("trail {hours} h old")
            };
            out.modifiers.push((name, m));
        }
    }
    Ok(())
}

/// Physically Dependent: the penalty of `withdrawal` days without, less what `recovering` days
/// taking it again have given back.
fn dependence(tc: &ThizChar, s: &Conditions, out: &mut Before) -> AppResult<()> {
    let Some(days) = s.withdrawal else {
        if s.recovering.is_some() {
            return Err(user(
                "recovering counts the days taking the substance again after withdrawal:N days without it; give both.",
            ));
        }
        return Ok(());
    };
    if !tc.has_weakness(Weakness::PhysicallyDependent) {
        return Err(user(format!(
            "withdrawal counts for Physically Dependent, which {} does not have.",
            escape(&tc.character.name)
        )));
    }
    let worst = dependence_penalty(days);
    let now = dependence_recovery(worst, s.recovering.unwrap_or(0));
    if now != 0 {
        out.modifiers.push(("Dependence".to_owned(), now));
    }
    let loss = dependence_toughness_loss(worst);
    if loss != 0 {
        out.lines.push(format!(
            "Physically Dependent: once the penalty is gone, Toughness stays {loss} for good."
        ));
    }
    Ok(())
}

/// What the situation makes of the rolled level: an allergic reaction, a point of Fame.
pub fn after(
    tc: &ThizChar,
    s: &Conditions,
    level: Level,
    dice: &mut impl DieSource,
) -> Vec<String> {
    let mut lines = Vec::new();
    let failed = !level.is_success();
    if s.has(Circumstance::AllergenSkin) {
        lines.push(if failed {
            let p = allergy_rash(dice);
            format!(
                "Allergy: a rash; {} to skills using that skin for {} hours (1d10).",
                p.modifier, p.hours
            )
        } else {
            "Allergy: the skin does not react.".to_owned()
        });
    }
    if s.has(Circumstance::AllergenSwallowed) {
        lines.push(if failed {
            let p = allergy_swollen_eyes(dice);
            format!(
                "Allergy: the airway closes (/hazard suffocation until someone helps); if they live, {} to tasks needing sight for {} hours (1d6).",
                p.modifier, p.hours
            )
        } else {
            "Allergy: the body keeps it down.".to_owned()
        });
    }
    if s.has(Circumstance::Fame) {
        let black = fame_check_succeeds(level);
        let has = |q: Quirk| {
            tc.sheet
                .quirks
                .iter()
                .any(|n| Quirk::from_entry(n) == Some(q))
        };
        if has(Quirk::ForgivingFans) {
            lines.push(if black {
                "Forgiving Fans: the point of Fame is kept.".to_owned()
            } else {
                "Forgiving Fans: not a Black; the point of Fame is lost.".to_owned()
            });
        }
        if has(Quirk::PolarizingPersonality) {
            lines.push(if black {
                "Polarizing Personality: one more point of Fame.".to_owned()
            } else {
                "Polarizing Personality: not a Black; no extra point.".to_owned()
            });
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;
    use crate::app::Reply;
    use crate::app::reply::Visibility;
    use crate::rules::dice::{DieSource, SeededDice};

    /// A seed whose first d100 is `roll`.
    fn seed_for(roll: u32) -> u64 {
        (0..100_000u64)
            .find(|s| SeededDice::new(*s).d100() == roll)
            .unwrap()
    }

    /// A kit with Vexa (the player's) whose sheet holds `json`, and her skills.
    fn vexa(seed: u64, json: &str, skills: &[(&str, i64)]) -> Kit {
        let kit = Kit::new(seed);
        let id = kit.thiz("Vexa", kit.player_id(), false);
        kit.sheet(id, json);
        for (s, r) in skills {
            kit.skill(id, s, *r);
        }
        kit
    }

    fn field(reply: &Reply, name: &str) -> String {
        reply.embeds[0]
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.value.clone())
            .unwrap_or_default()
    }

    fn refused(kit: &Kit, opts: &[(&str, &str)], says: &str) {
        let before = kit.roll_count();
        let reply = kit.run(&kit.player(), &["check"], opts);
        assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
        assert!(reply.content.contains(says), "{opts:?}: {}", reply.content);
        assert!(!reply.content.contains('\n'), "{}", reply.content);
        assert_eq!(kit.roll_count(), before, "{opts:?}");
    }

    #[test]
    fn check_shows_what_the_level_means_for_the_skill() {
        // thiz-rulebook.md, chapter 2 "Strength" (by rating) and "Lock-Picking" (by level).
        let kit = vexa(seed_for(1), "{}", &[("Strength", 3), ("Lock-Picking", 0)]);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Strength")]);
        assert!(
            field(&reply, "Effect")
                .starts_with("Strength 3: lifts 130 lb overhead, 260 lb from the ground"),
            "{reply:?}"
        );
        let kit = vexa(seed_for(1), "{}", &[("Lock-Picking", 0)]);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Lock-Picking")]);
        assert_eq!(
            field(&reply, "Effect"),
            "Lock-Picking Black: one pin set in 10 seconds."
        );
        let reply = kit.run(&kit.player(), &["check"], &[("rating", "3")]);
        assert_eq!(field(&reply, "Effect"), "");
    }

    #[test]
    fn a_skill_the_sheet_rules_out_is_refused() {
        // thiz-rulebook.md, chapter 3 "Tin Ear" (no musical skill, not even a test) and "Phobia".
        let kit = vexa(1, r#"{"weaknesses": ["Tin Ear", "Phobia (heights)"]}"#, &[]);
        refused(
            &kit,
            &[("skill", "Artisan (Lute)")],
            "it is ruled out by the Tin Ear weakness.",
        );
        refused(&kit, &[("skill", "Climbing")], "a phobia of heights");
        // The next skill over is fine.
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Artisan (Pottery)")]);
        assert_eq!(reply.visibility, Visibility::Public, "{}", reply.content);
        let reply = kit.run(&kit.player(), &["check"], &[("skill", "Swimming")]);
        assert_eq!(reply.visibility, Visibility::Public, "{}", reply.content);
    }

    #[test]
    fn quirk_bonuses_apply_only_where_the_sheet_and_the_skill_say() {
        // thiz-rulebook.md, chapter 4 "Street-Smarts" (+3 Perception in a city), "Military
        // Background", "Celestial Guidance".
        let kit = vexa(
            1,
            r#"{"quirks": ["Street-Smarts", "Military Background"]}"#,
            &[("Perception", 3), ("Stealth", 3)],
        );
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("skill", "Perception"), ("situation", "city")],
        );
        assert!(field(&reply, "Rating").contains("Perception 3 · Street-Smarts +3 → 6"));
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("skill", "Fast Talk"), ("situation", "soldiers")],
        );
        assert!(field(&reply, "Rating").contains("Military Background +3"));
        refused(
            &kit,
            &[("skill", "Stealth"), ("situation", "city")],
            "situation:city changes nothing for this check",
        );
        refused(
            &kit,
            &[("skill", "Navigation"), ("situation", "sky")],
            "with Celestial Guidance",
        );
        refused(
            &kit,
            &[("skill", "Stealth"), ("situation", "rain")],
            "situation takes city",
        );
    }

    #[test]
    fn berserk_phobia_and_colour_blindness() {
        // Chapter 4 "Berserk": +3 Strength and Willpower, phobias ignored; chapter 3 "Phobia"
        // (-2 aimed at the feared thing), "Color Blind" (-3 Perception on shades).
        let kit = vexa(
            1,
            r#"{"quirks": ["Berserk"], "weaknesses": ["Phobia (spiders)", "Color Blind"]}"#,
            &[("Strength", 2), ("Perception", 2)],
        );
        let rating =
            |opts: &[(&str, &str)]| field(&kit.run(&kit.player(), &["check"], opts), "Rating");
        assert!(
            rating(&[("skill", "Strength"), ("situation", "berserk")]).contains("Berserk +3 → 5")
        );
        refused(
            &kit,
            &[("skill", "Perception"), ("situation", "berserk")],
            "while Berserk",
        );
        assert!(
            rating(&[("skill", "Perception"), ("situation", "phobia")]).contains("Phobia -2 → 0")
        );
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("skill", "Perception"), ("situation", "phobia,berserk")],
        );
        assert!(!field(&reply, "Rating").contains("Phobia"));
        assert!(field(&reply, "Effect").contains("the phobia is ignored"));
        assert!(
            rating(&[("skill", "Perception"), ("situation", "shades")])
                .contains("Color Blind -3 → -1")
        );
        refused(
            &kit,
            &[("skill", "Strength"), ("situation", "shades")],
            "Perception telling shades",
        );
    }

    #[test]
    fn penalties_that_last_a_rolled_time() {
        // Chapter 3 "Restless Sleep" (-2, 1d3 hours), "Compulsion" (-3, 1d6), "Dependent" (-3, 1d8).
        let kit = vexa(
            3,
            r#"{"weaknesses": ["Restless Sleep", "Compulsion (three knocks)"]}"#,
            &[("Stealth", 4)],
        );
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("skill", "Stealth"), ("situation", "waking thwarted")],
        );
        let rating = field(&reply, "Rating");
        assert!(
            rating.contains("Restless Sleep -2 · Compulsion thwarted -3 → -1"),
            "{rating}"
        );
        let effect = field(&reply, "Effect");
        assert!(effect.contains("hours from waking (1d3)"), "{effect}");
        assert!(effect.contains("hours from then (1d6)"), "{effect}");
        refused(
            &kit,
            &[("skill", "Stealth"), ("situation", "rebuffed")],
            "Dependent",
        );
        // A bare rating takes them too, and needs the character's sheet for it.
        let reply = kit.run(
            &kit.player(),
            &["check"],
            &[("rating", "4"), ("situation", "waking")],
        );
        assert!(field(&reply, "Rating").contains("rating 4 · Restless Sleep -2 → 2"));
    }

    #[test]
    fn dependence_grows_after_three_days_and_shrinks_by_two_a_day() {
        // Chapter 3 "Physically Dependent": -1 after 3 days, one more every 2; 11 days → -5, and
        // -2 Toughness for good; back by 2 a day taking it again.
        let kit = vexa(
            1,
            r#"{"weaknesses": ["Physically Dependent (leaves)"]}"#,
            &[("Stealth", 4)],
        );
        let rating = |days: &str, back: Option<&str>| {
            let mut opts = vec![("skill", "Stealth"), ("withdrawal", days)];
            if let Some(b) = back {
                opts.push(("recovering", b));
            }
            let reply = kit.run(&kit.player(), &["check"], &opts);
            (field(&reply, "Rating"), field(&reply, "Effect"))
        };
        assert!(!rating("3", None).0.contains("Dependence"));
        assert!(rating("4", None).0.contains("Dependence -1 → 3"));
        let (r, e) = rating("11", None);
        assert!(r.contains("Dependence -5"), "{r}");
        assert!(e.contains("Toughness stays -2 for good"), "{e}");
        assert!(rating("11", Some("2")).0.contains("Dependence -1"));
        assert!(!rating("11", Some("3")).0.contains("Dependence"));
        // 8 days is -3, nothing past 3; 9 days is -4, one point of Toughness.
        assert!(!rating("8", None).1.contains("Toughness"));
        assert!(rating("9", None).1.contains("Toughness stays -1"));
        refused(
            &kit,
            &[("skill", "Stealth"), ("recovering", "2")],
            "give both",
        );
        let other = vexa(1, "{}", &[("Stealth", 4)]);
        refused(
            &other,
            &[("skill", "Stealth"), ("withdrawal", "5")],
            "does not have",
        );
    }

    #[test]
    fn a_trail_costs_one_an_hour_and_expert_trackers_three_less() {
        // Chapter 2 "Tracking" (-1 per hour) and chapter 4 "Expert Tracker" (3 hours fresher).
        let kit = vexa(
            1,
            r#"{"quirks": ["Expert Tracker (human beings)"]}"#,
            &[("Tracking", 5)],
        );
        let rating = |h: &str| {
            field(
                &kit.run(
                    &kit.player(),
                    &["check"],
                    &[
                        ("skill", "Tracking"),
                        ("trail_hours", h),
                        ("situation", "human_beings"),
                    ],
                ),
                "Rating",
            )
        };
        assert!(!rating("3").contains("trail"));
        assert!(rating("4").contains("trail 4 h old, Expert Tracker (human beings) -1 → 4"));
        let plain = vexa(1, "{}", &[("Tracking", 5)]);
        let reply = plain.run(
            &plain.player(),
            &["check"],
            &[("skill", "Tracking"), ("trail_hours", "1")],
        );
        assert!(field(&reply, "Rating").contains("trail 1 h old -1 → 4"));
        refused(
            &plain,
            &[("skill", "Stealth"), ("trail_hours", "1")],
            "name skill:Tracking",
        );
    }

    /// Chapter 4 "Expert Tracker": the player chooses mundane animals, magical creatures or
    /// human beings, and only trails of that kind count 3 hours fresher. A 4-hour trail: -1 for
    /// the chosen quarry, -4 for any other, unnamed, or with no choice recorded.
    #[test]
    fn expert_tracker_helps_on_the_chosen_quarry_only() {
        let cases = [
            (
                "Expert Tracker (human beings)",
                Some("human_beings"),
                "→ 4",
                "Expert Tracker (human beings) -1",
            ),
            (
                "Expert Tracker (human beings)",
                Some("mundane_animals"),
                "→ 1",
                "does not help on a trail of mundane animals",
            ),
            (
                "Expert Tracker (human beings)",
                None,
                "→ 1",
                "name it with situation:human_beings",
            ),
            (
                "Expert Tracker (magical creatures)",
                Some("magical_creatures"),
                "→ 4",
                "Expert Tracker (magical creatures) -1",
            ),
            (
                "Expert Tracker (mundane animals)",
                Some("magical_creatures"),
                "→ 1",
                "does not help on a trail of magical creatures",
            ),
            (
                "Expert Tracker",
                Some("human_beings"),
                "→ 1",
                "until its kind of creature is chosen",
            ),
        ];
        for (quirk, quarry, total, says) in cases {
            let kit = vexa(
                1,
                &format!(r#"{{"quirks": ["{quirk}"]}}"#),
                &[("Tracking", 5)],
            );
            let mut opts = vec![("skill", "Tracking"), ("trail_hours", "4")];
            if let Some(q) = quarry {
                opts.push(("situation", q));
            }
            let reply = kit.run(&kit.player(), &["check"], &opts);
            let text = reply.all_text();
            assert!(
                field(&reply, "Rating").contains(total),
                "{quirk} {quarry:?}: {text}"
            );
            assert!(text.contains(says), "{quirk} {quarry:?}: {text}");
        }
        // Naming the quarry without the quirk, or without a trail, changes nothing: refused.
        let plain = vexa(1, "{}", &[("Tracking", 5)]);
        refused(
            &plain,
            &[
                ("skill", "Tracking"),
                ("trail_hours", "4"),
                ("situation", "human_beings"),
            ],
            "situation:human_beings changes nothing",
        );
        let kit = vexa(
            1,
            r#"{"quirks": ["Expert Tracker (human beings)"]}"#,
            &[("Tracking", 5)],
        );
        refused(
            &kit,
            &[("skill", "Tracking"), ("situation", "human_beings")],
            "changes nothing",
        );
    }

    /// thiz-rulebook.md, chapter 10 "Training": a Special gives +3 to its narrow use of the skill.
    /// `situation:special` adds it to a check of that skill (its instance: Goldsmithing, not
    /// Pottery), and only when named.
    #[test]
    fn a_special_adds_three_to_its_use_when_named() {
        let kit = vexa(
            1,
            r#"{"specials": ["Artisan (Goldsmithing): rings", "Artisan (Goldsmithing): chains"]}"#,
            &[("Artisan (Goldsmithing)", 2), ("Artisan (Pottery)", 2)],
        );
        let rating =
            |opts: &[(&str, &str)]| field(&kit.run(&kit.player(), &["check"], opts), "Rating");
        let cases: [(&[(&str, &str)], &str); 3] = [
            (
                &[
                    ("skill", "artisan (goldsmithing)"),
                    ("situation", "special"),
                ],
                "Artisan (Goldsmithing) 2 · Special (rings or chains) +3 → 5",
            ),
            (
                &[("skill", "Artisan (Goldsmithing)")],
                "Artisan (Goldsmithing) 2 → 2",
            ),
            (&[("skill", "Artisan (Pottery)")], "Artisan (Pottery) 2 → 2"),
        ];
        for (opts, want) in cases {
            let got = rating(opts);
            assert!(got.contains(&escape_parens(want)), "{opts:?}: {got}");
        }
        refused(
            &kit,
            &[("skill", "Artisan (Pottery)"), ("situation", "special")],
            "situation:special changes nothing for this check",
        );
        refused(
            &kit,
            &[("rating", "2"), ("situation", "special")],
            "situation:special changes nothing",
        );
    }

    /// The rating line escapes a skill's brackets for Discord.
    fn escape_parens(s: &str) -> String {
        let (skill, rest) = s.split_once(" 2").unwrap();
        format!("{} 2{rest}", crate::app::text::escape(skill))
    }

    /// Chapter 4 "Celestial Guidance": +3 to Navigation in the time chosen; the rating line
    /// names it, and a sheet without the choice gets nothing and is told how to record it.
    #[test]
    fn celestial_guidance_names_its_chosen_time() {
        for (quirk, says) in [
            (
                "Celestial Guidance (night)",
                Some("Celestial Guidance (night) +3 → 5"),
            ),
            (
                "Celestial Guidance (day)",
                Some("Celestial Guidance (day) +3 → 5"),
            ),
            ("Celestial Guidance", None),
        ] {
            let kit = vexa(
                1,
                &format!(r#"{{"quirks": ["{quirk}"]}}"#),
                &[("Navigation", 2)],
            );
            let opts = [("skill", "Navigation"), ("situation", "sky")];
            match says {
                Some(line) => {
                    let reply = kit.run(&kit.player(), &["check"], &opts);
                    assert!(field(&reply, "Rating").contains(line), "{quirk}: {reply:?}");
                }
                None => refused(&kit, &opts, "value:\"Celestial Guidance (day)\" or"),
            }
        }
    }

    #[test]
    fn an_allergen_and_fame_read_the_roll() {
        // Chapter 3 "Allergy": a failed Toughness brings the reaction; chapter 4 "Forgiving Fans":
        // only a Black keeps the Fame. Toughness 0 reads 80 as a failure, 1 as Black.
        let sheet = r#"{"weaknesses": ["Allergy (cats)"], "quirks": ["Forgiving Fans"]}"#;
        for (roll, rash) in [(90, true), (1, false)] {
            let kit = vexa(seed_for(roll), sheet, &[("Toughness", 0)]);
            let reply = kit.run(
                &kit.player(),
                &["check"],
                &[("skill", "Toughness"), ("situation", "allergen_skin")],
            );
            let effect = field(&reply, "Effect");
            assert_eq!(effect.contains("a rash; -3"), rash, "{roll}: {effect}");
            let reply = kit.run(
                &kit.player(),
                &["check"],
                &[("skill", "Toughness"), ("situation", "allergen_swallowed")],
            );
            assert!(field(&reply, "Effect").starts_with("Allergy:"));
        }
        for (roll, kept) in [(1, true), (50, false)] {
            let kit = vexa(seed_for(roll), sheet, &[]);
            let reply = kit.run(
                &kit.player(),
                &["check"],
                &[("rating", "3"), ("situation", "fame")],
            );
            assert_eq!(field(&reply, "Effect").contains("is kept"), kept, "{roll}");
        }
        let kit = vexa(1, sheet, &[("Stealth", 2)]);
        refused(
            &kit,
            &[("skill", "Stealth"), ("situation", "allergen_skin")],
            "Toughness check",
        );
        refused(
            &kit,
            &[("skill", "Stealth"), ("situation", "fame")],
            "against Fame",
        );
    }
}
