//! The skills a character's weaknesses and quirks rule out, and the quirks those rule out in turn.
//!
//! Source: thiz-rulebook.md, chapter 3 ("Missing Limb", "Tin Ear", "Phobia", "Animal Aversion")
//! and chapter 4 (the "Quirks" introduction, "Void-Touched"). Owns [`Traits`], [`skill_bar`] and
//! the word tables that decide which skills a phobia or Tin Ear reaches. Creation and in-play
//! validation (`creation`) call it; it never reads a sheet, rolls dice, or decides anything the
//! referee should decide beyond these tables (a phobia of something not in [`PHOBIAS`] bars
//! nothing, and the referee may rule more).

use super::skills::{SkillId, SkillKind};
use super::traits::{Limb, Quirk, Weakness};

/// What about a character can bar a skill.
#[derive(Debug, Clone, Copy, Default)]
pub struct Traits<'a> {
    pub weaknesses: &'a [Weakness],
    pub quirks: &'a [Quirk],
    /// The subject of each Phobia, as written ("heights", "deep water").
    pub phobias: &'a [String],
    /// Which limb Missing Limb took.
    pub missing_limb: Option<Limb>,
}

/// What a phobia's subject rules out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every instance of these skills.
    Skills(&'static [SkillKind]),
    /// Every Magic Skill.
    Magic,
    /// Pilot for a vessel on water (see [`WATERCRAFT`]).
    Watercraft,
    /// Any skill whose name holds one of these words ("Knowledge (Surgery)").
    Named(&'static [&'static str]),
}

/// One row of the phobia table: the words of a subject, and what such a fear rules out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhobiaBar {
    pub words: &'static [&'static str],
    pub reach: &'static [Reach],
}

/// Chapter 3, "Phobia": a character cannot learn skills that would bring them often up against
/// what they fear. The rulebook names heights (Climbing) and water (Swimming, piloting
/// watercraft).
// Decision: the rulebook gives only those two examples and leaves the rest to the table. The bot
// also bars the plain cases of its other examples and of common fears, so validation catches them:
// magic (every Magic Skill, which manipulate it; Magic Sense only notices it and stays allowed),
// animals (Animal Handling), blood (First Aid and surgery, which treat open wounds) and the dead
// (Necromancy and Shamanism, which deal with them). Any other subject bars nothing here.
pub const PHOBIAS: [PhobiaBar; 6] = [
    PhobiaBar {
        words: &[
            "height",
            "heights",
            "acrophobia",
            "falling",
            "cliff",
            "cliffs",
        ],
        reach: &[Reach::Skills(&[SkillKind::Climbing])],
    },
    PhobiaBar {
        words: &[
            "water", "sea", "seas", "ocean", "oceans", "river", "rivers", "lake", "lakes",
            "drowning",
        ],
        reach: &[Reach::Skills(&[SkillKind::Swimming]), Reach::Watercraft],
    },
    PhobiaBar {
        words: &[
            "magic", "magical", "sorcery", "spells", "wizards", "witches",
        ],
        reach: &[Reach::Magic],
    },
    PhobiaBar {
        words: &["animal", "animals", "beast", "beasts"],
        reach: &[Reach::Skills(&[SkillKind::AnimalHandling])],
    },
    PhobiaBar {
        words: &["blood", "wounds", "gore"],
        reach: &[
            Reach::Skills(&[SkillKind::FirstAid]),
            Reach::Named(&["surgery"]),
        ],
    },
    PhobiaBar {
        words: &[
            "dead", "undead", "corpse", "corpses", "ghost", "ghosts", "spirits",
        ],
        reach: &[Reach::Skills(&[
            SkillKind::Necromancy,
            SkillKind::Shamanism,
        ])],
    },
];

/// Words naming a vessel on water, for a Pilot skill's subject.
pub const WATERCRAFT: [&str; 22] = [
    "boat",
    "boats",
    "ship",
    "ships",
    "schooner",
    "brigantine",
    "brigandine",
    "galley",
    "galleon",
    "frigate",
    "caravel",
    "longship",
    "canoe",
    "kayak",
    "raft",
    "barge",
    "skiff",
    "rowboat",
    "sailboat",
    "yacht",
    "submarine",
    "watercraft",
];

/// Chapter 3, "Tin Ear": a character cannot have any skill of the musical arts.
// Decision: the skill table has no music skill, so music comes in as the subject of an Artisan,
// Profession, Trade or Knowledge skill, or as a referee's own skill. A skill is musical when its
// name holds one of these words.
pub const MUSICAL: [&str; 24] = [
    "music",
    "musical",
    "musician",
    "musicianship",
    "song",
    "songs",
    "singing",
    "singer",
    "bard",
    "bardic",
    "choir",
    "lute",
    "harp",
    "lyre",
    "flute",
    "fife",
    "drum",
    "drums",
    "drumming",
    "fiddle",
    "violin",
    "piano",
    "bagpipes",
    "trumpet",
];

/// The words of a text, lowercased ("Pilot (Fishing Boat)" → pilot, fishing, boat).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn names_any(text: &str, table: &[&str]) -> bool {
    words(text).any(|w| table.contains(&w.as_str()))
}

/// Is this skill one of the musical arts?
pub fn is_musical(skill: &SkillId) -> bool {
    names_any(&skill.to_string(), &MUSICAL)
}

/// Is this a Pilot skill for a vessel on water?
pub fn is_watercraft_pilot(skill: &SkillId) -> bool {
    skill.is(SkillKind::Pilot) && names_any(&skill.to_string(), &WATERCRAFT)
}

/// The row of [`PHOBIAS`] a phobia's subject falls under, if any.
pub fn phobia_bar(subject: &str) -> Option<&'static PhobiaBar> {
    PHOBIAS.iter().find(|p| names_any(subject, p.words))
}

fn reaches(reach: Reach, skill: &SkillId) -> bool {
    match reach {
        Reach::Skills(kinds) => kinds.iter().any(|&k| skill.is(k)),
        Reach::Magic => skill.is_magic(),
        Reach::Watercraft => is_watercraft_pilot(skill),
        Reach::Named(table) => names_any(&skill.to_string(), table),
    }
}

/// Does a phobia of `subject` rule out `skill`?
pub fn phobia_bars(subject: &str, skill: &SkillId) -> bool {
    phobia_bar(subject).is_some_and(|p| p.reach.iter().any(|&r| reaches(r, skill)))
}

/// Why `skill` is ruled out for a character with `traits`, phrased to follow "ruled out by";
/// `None` when nothing bars it. The first reason found is given.
pub fn skill_bar(traits: &Traits<'_>, skill: &SkillId) -> Option<String> {
    let has = |w| traits.weaknesses.contains(&w);
    // Chapter 4 "Void-Touched": no Magic Skill, ever.
    if traits.quirks.contains(&Quirk::VoidTouched) && skill.is_magic() {
        return Some("the Void-Touched quirk".to_owned());
    }
    // Chapter 3 "Animal Aversion": no Animal Handling.
    if has(Weakness::AnimalAversion) && skill.is(SkillKind::AnimalHandling) {
        return Some("the Animal Aversion weakness".to_owned());
    }
    // Chapter 3 "Missing Limb": no Dual-Wield without an arm.
    if has(Weakness::MissingLimb)
        && traits.missing_limb == Some(Limb::Arm)
        && skill.is(SkillKind::DualWield)
    {
        return Some("a missing arm".to_owned());
    }
    // Chapter 3 "Tin Ear": no skill of the musical arts.
    if has(Weakness::TinEar) && is_musical(skill) {
        return Some("the Tin Ear weakness".to_owned());
    }
    // Chapter 3 "Phobia": no skill that meets the feared thing often.
    if has(Weakness::Phobia) {
        for subject in traits.phobias {
            if phobia_bars(subject, skill) {
                return Some(format!("a phobia of {subject}"));
            }
        }
    }
    None
}

/// Why every skill of `kind` is ruled out, for a kind learned without a subject; `None` for an
/// instanced kind (one of its subjects may still be allowed) or when nothing bars it.
pub fn kind_bar(traits: &Traits<'_>, kind: SkillKind) -> Option<String> {
    let skill = SkillId::single(kind).ok()?;
    skill_bar(traits, &skill)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> SkillId {
        SkillId::parse(s).unwrap()
    }

    fn phobia(subjects: &[String]) -> Traits<'_> {
        Traits {
            weaknesses: &[Weakness::Phobia],
            phobias: subjects,
            ..Traits::default()
        }
    }

    #[test]
    fn phobias_bar_the_skills_that_face_the_fear() {
        // thiz-rulebook.md, chapter 3 "Phobia": heights bar Climbing; water bars Swimming and
        // piloting watercraft. The other rows are the decision on PHOBIAS.
        let cases = [
            ("heights", "climbing", true),
            ("heights", "acrobatics", false),
            ("great heights", "climbing", true),
            ("water", "swimming", true),
            ("deep water", "swimming", true),
            ("water", "pilot (schooner)", true),
            ("water", "pilot (fishing boat)", true),
            ("water", "pilot (wagon)", false),
            ("water", "climbing", false),
            ("waterfowl", "swimming", false),
            ("magic", "necromancy", true),
            ("magic", "magic sense", false),
            ("animals", "animal handling", true),
            ("blood", "first aid", true),
            ("blood", "knowledge (surgery)", true),
            ("blood", "profession (surgery)", true),
            ("blood", "knowledge (history)", false),
            ("the dead", "shamanism", true),
            ("the dead", "summoning", false),
            ("gold", "appraise", false),
            ("spiders", "climbing", false),
        ];
        for (subject, skill, barred) in cases {
            let subjects = [subject.to_owned()];
            assert_eq!(
                skill_bar(&phobia(&subjects), &id(skill)).is_some(),
                barred,
                "phobia of {subject}, {skill}"
            );
        }
        let subjects = ["heights".to_owned()];
        assert_eq!(
            skill_bar(&phobia(&subjects), &id("climbing")).as_deref(),
            Some("a phobia of heights")
        );
        // A phobia subject without the weakness on the sheet bars nothing.
        let none = Traits {
            phobias: &subjects,
            ..Traits::default()
        };
        assert_eq!(skill_bar(&none, &id("climbing")), None);
    }

    #[test]
    fn tin_ear_bars_the_musical_arts() {
        // thiz-rulebook.md, chapter 3 "Tin Ear": no skill of the musical arts (decision on
        // MUSICAL for what counts).
        let tin = Traits {
            weaknesses: &[Weakness::TinEar],
            ..Traits::default()
        };
        let cases = [
            ("artisan (music)", true),
            ("artisan (lute making)", true),
            ("profession (musician)", true),
            ("knowledge (bardic lore)", true),
            ("artisan (singing)", true),
            ("artisan (painting)", false),
            ("perception", false),
            ("trade (drum making)", true),
            ("knowledge (history)", false),
        ];
        for (skill, barred) in cases {
            assert_eq!(skill_bar(&tin, &id(skill)).is_some(), barred, "{skill}");
            assert_eq!(
                skill_bar(&Traits::default(), &id(skill)),
                None,
                "{skill} without Tin Ear"
            );
        }
    }

    #[test]
    fn the_older_bars_still_hold() {
        // Chapter 4 "Void-Touched", chapter 3 "Animal Aversion" and "Missing Limb".
        let void = Traits {
            quirks: &[Quirk::VoidTouched],
            ..Traits::default()
        };
        assert!(skill_bar(&void, &id("insight")).is_some());
        assert!(skill_bar(&void, &id("magic sense")).is_none());
        let arm = Traits {
            weaknesses: &[Weakness::MissingLimb],
            missing_limb: Some(Limb::Arm),
            ..Traits::default()
        };
        assert!(skill_bar(&arm, &id("dual-wield (sword, axe)")).is_some());
        let leg = Traits {
            missing_limb: Some(Limb::Leg),
            ..arm
        };
        assert!(skill_bar(&leg, &id("dual-wield (sword, axe)")).is_none());
    }

    #[test]
    fn kinds_are_barred_only_when_learned_without_a_subject() {
        let subjects = ["blood".to_owned()];
        let t = phobia(&subjects);
        assert!(kind_bar(&t, SkillKind::FirstAid).is_some());
        assert!(kind_bar(&t, SkillKind::Perception).is_none());
        let subjects = ["water".to_owned()];
        assert!(kind_bar(&phobia(&subjects), SkillKind::Pilot).is_none());
    }

    #[test]
    fn tables_hold_lowercase_single_words() {
        let all = PHOBIAS
            .iter()
            .flat_map(|p| p.words.iter())
            .chain(WATERCRAFT.iter())
            .chain(MUSICAL.iter());
        for w in all {
            assert!(
                w.chars().all(|c| c.is_ascii_lowercase()),
                "{w} would never match a word"
            );
        }
    }
}
