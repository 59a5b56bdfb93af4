//! THIZ skills: the skill table, skill names as players type them, general ratings and the rating a
//! check is made against.
//!
//! Source: thiz-rulebook.md, chapter 1 ("Table of Skills", "General Skill Ratings") and chapter 2
//! (the skill texts and "Creating Skills"). Owns [`SkillKind`] (every skill of the table with its
//! category and its [P]/[M]/magic contribution), [`SkillId`] (a skill as written on a sheet,
//! including instanced skills such as "Weapon Skill (Sword)" and referee-created skills),
//! [`GeneralRatings`] and [`base_rating`]. The calculations printed in individual skill texts live
//! in [`special`]. Must never roll dice, read a character sheet or format a message: callers pass
//! the ratings in.

pub mod special;

use std::fmt;
use std::hash::{Hash, Hasher};

use thiserror::Error;

use super::chart::Rating;

/// The five skill categories of the table, plus the magic skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Mettle,
    Efficacy,
    Expertise,
    Body,
    Awareness,
    Magic,
}

/// The three broad groups: hard skills (Mettle, Efficacy), soft skills (Expertise, Body,
/// Awareness) and magic skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    Hard,
    Soft,
    Magic,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::Mettle,
        Category::Efficacy,
        Category::Expertise,
        Category::Body,
        Category::Awareness,
        Category::Magic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::Mettle => "Mettle",
            Category::Efficacy => "Efficacy",
            Category::Expertise => "Expertise",
            Category::Body => "Body",
            Category::Awareness => "Awareness",
            Category::Magic => "Magic",
        }
    }

    /// Hard, soft or magic.
    pub fn group(self) -> Group {
        match self {
            Category::Mettle | Category::Efficacy => Group::Hard,
            Category::Expertise | Category::Body | Category::Awareness => Group::Soft,
            Category::Magic => Group::Magic,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The general rating a skill adds to: [P] Physical, [M] Mental, magic skills Magical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum General {
    Physical,
    Mental,
    Magical,
}

impl General {
    pub fn name(self) -> &'static str {
        match self {
            General::Physical => "Physical",
            General::Mental => "Mental",
            General::Magical => "Magical",
        }
    }
}

impl fmt::Display for General {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a skill is learned once, once per subject, or once per pair of weapons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instancing {
    /// One skill ("Stealth").
    Single,
    /// One instance per subject; `noun` names what the subject is ("weapon", "topic").
    PerSubject { noun: &'static str },
    /// Dual-Wield: one instance per (main hand, off hand) pair of weapons.
    WeaponPair,
}

/// Every skill of the rulebook's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkillKind {
    Reflexes,
    Speed,
    Strength,
    Toughness,
    Willpower,
    DualWield,
    Grappling,
    Tactics,
    UnarmedCombat,
    WeaponSkill,
    Appraise,
    Artisan,
    Forgery,
    Knowledge,
    LockPicking,
    Persuasion,
    Profession,
    Trade,
    Trapping,
    Acrobatics,
    Climbing,
    SleightOfHand,
    Stealth,
    Swimming,
    Throwing,
    AnimalHandling,
    FastTalk,
    FirstAid,
    MagicSense,
    Navigation,
    Perception,
    Pilot,
    PocketPicking,
    Scrutiny,
    Seduce,
    Tracking,
    WeatherSense,
    Alchemy,
    Artifice,
    Druidism,
    Elementalism,
    Insight,
    Mentalism,
    Necromancy,
    Psychokinesis,
    Reiki,
    Shamanism,
    Summoning,
}

/// One row of the skill table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillInfo {
    pub kind: SkillKind,
    pub name: &'static str,
    pub category: Category,
    pub general: General,
    pub instancing: Instancing,
}

const fn info(
    kind: SkillKind,
    name: &'static str,
    category: Category,
    general: General,
    instancing: Instancing,
) -> SkillInfo {
    SkillInfo {
        kind,
        name,
        category,
        general,
        instancing,
    }
}

use Category::{Awareness, Body, Efficacy, Expertise, Magic, Mettle};
use General::{Magical, Mental, Physical};
use Instancing::{PerSubject, Single, WeaponPair};

/// The skill table (chapter 1, "Table of Skills"), in the rulebook's order, indexed by
/// `SkillKind as usize`. Navigation and Trapping carry no tag in their chapter 2 headings; the
/// table marks both [M], which is used here.
pub const SKILLS: [SkillInfo; 48] = [
    info(SkillKind::Reflexes, "Reflexes", Mettle, Physical, Single),
    info(SkillKind::Speed, "Speed", Mettle, Physical, Single),
    info(SkillKind::Strength, "Strength", Mettle, Physical, Single),
    info(SkillKind::Toughness, "Toughness", Mettle, Physical, Single),
    info(SkillKind::Willpower, "Willpower", Mettle, Mental, Single),
    info(
        SkillKind::DualWield,
        "Dual-Wield",
        Efficacy,
        Physical,
        WeaponPair,
    ),
    info(
        SkillKind::Grappling,
        "Grappling",
        Efficacy,
        Physical,
        Single,
    ),
    info(SkillKind::Tactics, "Tactics", Efficacy, Mental, Single),
    info(
        SkillKind::UnarmedCombat,
        "Unarmed Combat",
        Efficacy,
        Physical,
        Single,
    ),
    info(
        SkillKind::WeaponSkill,
        "Weapon Skill",
        Efficacy,
        Physical,
        PerSubject { noun: "weapon" },
    ),
    info(SkillKind::Appraise, "Appraise", Expertise, Mental, Single),
    info(
        SkillKind::Artisan,
        "Artisan",
        Expertise,
        Mental,
        PerSubject { noun: "art" },
    ),
    info(SkillKind::Forgery, "Forgery", Expertise, Mental, Single),
    info(
        SkillKind::Knowledge,
        "Knowledge",
        Expertise,
        Mental,
        PerSubject { noun: "topic" },
    ),
    info(
        SkillKind::LockPicking,
        "Lock-picking",
        Expertise,
        Mental,
        Single,
    ),
    info(
        SkillKind::Persuasion,
        "Persuasion",
        Expertise,
        Mental,
        Single,
    ),
    info(
        SkillKind::Profession,
        "Profession",
        Expertise,
        Mental,
        PerSubject { noun: "profession" },
    ),
    info(
        SkillKind::Trade,
        "Trade",
        Expertise,
        Physical,
        PerSubject { noun: "trade" },
    ),
    info(SkillKind::Trapping, "Trapping", Expertise, Mental, Single),
    info(SkillKind::Acrobatics, "Acrobatics", Body, Physical, Single),
    info(SkillKind::Climbing, "Climbing", Body, Physical, Single),
    info(
        SkillKind::SleightOfHand,
        "Sleight of Hand",
        Body,
        Physical,
        Single,
    ),
    info(SkillKind::Stealth, "Stealth", Body, Physical, Single),
    info(SkillKind::Swimming, "Swimming", Body, Physical, Single),
    info(SkillKind::Throwing, "Throwing", Body, Physical, Single),
    info(
        SkillKind::AnimalHandling,
        "Animal Handling",
        Awareness,
        Mental,
        Single,
    ),
    info(SkillKind::FastTalk, "Fast Talk", Awareness, Mental, Single),
    info(SkillKind::FirstAid, "First Aid", Awareness, Mental, Single),
    info(
        SkillKind::MagicSense,
        "Magic Sense",
        Awareness,
        Physical,
        Single,
    ),
    info(
        SkillKind::Navigation,
        "Navigation",
        Awareness,
        Mental,
        Single,
    ),
    info(
        SkillKind::Perception,
        "Perception",
        Awareness,
        Physical,
        Single,
    ),
    info(
        SkillKind::Pilot,
        "Pilot",
        Awareness,
        Mental,
        PerSubject { noun: "vehicle" },
    ),
    info(
        SkillKind::PocketPicking,
        "Pocket-Picking",
        Awareness,
        Physical,
        Single,
    ),
    info(SkillKind::Scrutiny, "Scrutiny", Awareness, Mental, Single),
    info(SkillKind::Seduce, "Seduce", Awareness, Mental, Single),
    info(SkillKind::Tracking, "Tracking", Awareness, Physical, Single),
    info(
        SkillKind::WeatherSense,
        "Weather Sense",
        Awareness,
        Mental,
        Single,
    ),
    info(SkillKind::Alchemy, "Alchemy", Magic, Magical, Single),
    info(SkillKind::Artifice, "Artifice", Magic, Magical, Single),
    info(SkillKind::Druidism, "Druidism", Magic, Magical, Single),
    info(
        SkillKind::Elementalism,
        "Elementalism",
        Magic,
        Magical,
        Single,
    ),
    info(SkillKind::Insight, "Insight", Magic, Magical, Single),
    info(SkillKind::Mentalism, "Mentalism", Magic, Magical, Single),
    info(SkillKind::Necromancy, "Necromancy", Magic, Magical, Single),
    info(
        SkillKind::Psychokinesis,
        "Psychokinesis",
        Magic,
        Magical,
        Single,
    ),
    info(SkillKind::Reiki, "Reiki", Magic, Magical, Single),
    info(SkillKind::Shamanism, "Shamanism", Magic, Magical, Single),
    info(SkillKind::Summoning, "Summoning", Magic, Magical, Single),
];

/// Other spellings players use, as lower-case letters and digits only.
const ALIASES: [(&str, SkillKind); 22] = [
    ("reflex", SkillKind::Reflexes),
    ("str", SkillKind::Strength),
    ("tough", SkillKind::Toughness),
    ("will", SkillKind::Willpower),
    ("dualwielding", SkillKind::DualWield),
    ("dual", SkillKind::DualWield),
    ("grapple", SkillKind::Grappling),
    ("unarmed", SkillKind::UnarmedCombat),
    ("weapon", SkillKind::WeaponSkill),
    ("weapons", SkillKind::WeaponSkill),
    ("lockpick", SkillKind::LockPicking),
    ("persuade", SkillKind::Persuasion),
    ("sleight", SkillKind::SleightOfHand),
    ("swim", SkillKind::Swimming),
    ("throw", SkillKind::Throwing),
    ("climb", SkillKind::Climbing),
    ("pickpocket", SkillKind::PocketPicking),
    ("pickpocketing", SkillKind::PocketPicking),
    ("track", SkillKind::Tracking),
    ("weather", SkillKind::WeatherSense),
    ("navigate", SkillKind::Navigation),
    ("seduction", SkillKind::Seduce),
];

/// Letters and digits of `text`, lower-cased: "Lock-picking" and "lock picking" share a key.
fn key(text: &str) -> String {
    key_chars(text).collect()
}

/// The characters of [`key`], without building the string.
fn key_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
}

impl SkillKind {
    /// Every skill, in table order.
    pub fn all() -> impl Iterator<Item = SkillKind> {
        SKILLS.iter().map(|i| i.kind)
    }

    /// Its row of the skill table.
    pub fn info(self) -> &'static SkillInfo {
        &SKILLS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn category(self) -> Category {
        self.info().category
    }

    pub fn general(self) -> General {
        self.info().general
    }

    pub fn instancing(self) -> Instancing {
        self.info().instancing
    }

    /// Finds a skill by its name or a common alias, ignoring case, spaces and hyphens.
    pub fn from_name(text: &str) -> Option<SkillKind> {
        let k = key(text);
        if k.is_empty() {
            return None;
        }
        SKILLS
            .iter()
            // Compared character by character: a lookup allocates only the typed key, not one
            // key per table entry (this was 13% of a /check's CPU).
            .find(|i| key_chars(i.name).eq(k.chars()))
            .map(|i| i.kind)
            .or_else(|| ALIASES.iter().find(|(a, _)| *a == k).map(|(_, s)| *s))
    }

    /// Artisan, Profession and Trade: used untrained at the general rating minus 5 (chapter 2).
    pub fn untrained_penalty(self) -> i32 {
        match self {
            SkillKind::Artisan | SkillKind::Profession | SkillKind::Trade => {
                UNTRAINED_CRAFT_PENALTY
            }
            _ => 0,
        }
    }
}

impl fmt::Display for SkillKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Chapter 2 introduction: an untrained Artisan, Trade or Profession check takes -5 on the
/// general rating it falls back to.
pub const UNTRAINED_CRAFT_PENALTY: i32 = -5;

/// The longest subject or custom skill name accepted, in characters.
pub const MAX_SUBJECT_LEN: usize = 40;

/// Why a skill name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SkillError {
    #[error("there is no skill called \"{0}\"")]
    Unknown(String),
    #[error("{skill} needs a {noun} in brackets, for example \"{skill} ({example})\"")]
    NeedsSubject {
        skill: &'static str,
        noun: &'static str,
        example: &'static str,
    },
    #[error("{0} takes no subject: leave out the part in brackets")]
    TakesNoSubject(&'static str),
    #[error(
        "Dual-Wield needs two weapons, main hand first, for example \"Dual-Wield (Rapier, Pistol)\""
    )]
    NeedsTwoWeapons,
    #[error("a skill subject or name cannot be empty")]
    EmptyName,
    #[error("a skill subject or name can be at most {MAX_SUBJECT_LEN} characters; yours has {0}")]
    NameTooLong(usize),
    #[error("a skill subject or name cannot contain \"{0}\"")]
    BadCharacter(char),
    #[error("a skill of the {category} category adds to the {expected} rating, not {given}")]
    WrongGeneral {
        category: Category,
        expected: &'static str,
        given: General,
    },
    #[error("\"{0}\" is already a skill of the rulebook")]
    NameTaken(String),
}

/// A subject of an instanced skill ("Sword"), or the name of a referee-created skill.
///
/// Whitespace is collapsed and the first letter of each word capitalized for display; comparison
/// ignores case, so "long sword" and "Long Sword" are the same subject.
#[derive(Debug, Clone, Eq)]
pub struct Subject(String);

impl Subject {
    pub fn new(text: &str) -> Result<Subject, SkillError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return Err(SkillError::EmptyName);
        }
        let mut out = String::new();
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
        }
        if let Some(bad) = out
            .chars()
            .find(|c| c.is_control() || "()[]{}:,/<>@#`*_~|\\".contains(*c))
        {
            return Err(SkillError::BadCharacter(bad));
        }
        let len = out.chars().count();
        if len > MAX_SUBJECT_LEN {
            return Err(SkillError::NameTooLong(len));
        }
        Ok(Subject(out))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl PartialEq for Subject {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_lowercase() == other.0.to_lowercase()
    }
}

impl Hash for Subject {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_lowercase().hash(state);
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A skill the referee added to the pool (chapter 2, "Creating Skills"): a name, a category and
/// the general rating it adds to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CustomSkill {
    name: Subject,
    category: Category,
    general: General,
}

impl CustomSkill {
    /// A new skill. Magic skills add to Magical; every other category adds to Physical or Mental.
    pub fn new(name: &str, category: Category, general: General) -> Result<Self, SkillError> {
        let name = Subject::new(name)?;
        if SkillKind::from_name(name.as_str()).is_some() {
            return Err(SkillError::NameTaken(name.0));
        }
        let ok = (category == Category::Magic) == (general == General::Magical);
        if !ok {
            let expected = if category == Category::Magic {
                "Magical"
            } else {
                "Physical or Mental"
            };
            return Err(SkillError::WrongGeneral {
                category,
                expected,
                given: general,
            });
        }
        Ok(CustomSkill {
            name,
            category,
            general,
        })
    }

    pub fn name(&self) -> &Subject {
        &self.name
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Inner {
    Single(SkillKind),
    Subject(SkillKind, Subject),
    DualWield { main: Subject, off: Subject },
    Custom(CustomSkill),
}

/// A skill as written on a sheet: "Stealth", "Weapon Skill (Sword)", "Dual-Wield (Rapier,
/// Pistol)", "Knowledge (Surgery)" or a referee-created skill.
///
/// Built by [`SkillId::parse`] or the constructors, which keep it consistent with the table (an
/// instanced skill always has its subject). Displays canonically.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SkillId(Inner);

impl SkillId {
    /// A skill without subject ("Stealth").
    pub fn single(kind: SkillKind) -> Result<SkillId, SkillError> {
        match kind.instancing() {
            Instancing::Single => Ok(SkillId(Inner::Single(kind))),
            Instancing::PerSubject { noun } => Err(SkillError::NeedsSubject {
                skill: kind.name(),
                noun,
                example: example_subject(kind),
            }),
            Instancing::WeaponPair => Err(SkillError::NeedsTwoWeapons),
        }
    }

    /// An instanced skill with its subject ("Knowledge", "Surgery").
    pub fn with_subject(kind: SkillKind, subject: &str) -> Result<SkillId, SkillError> {
        match kind.instancing() {
            Instancing::PerSubject { .. } => {
                Ok(SkillId(Inner::Subject(kind, Subject::new(subject)?)))
            }
            Instancing::Single => Err(SkillError::TakesNoSubject(kind.name())),
            Instancing::WeaponPair => Self::parse_pair(subject),
        }
    }

    /// Dual-Wield with the main-hand weapon first.
    pub fn dual_wield(main: &str, off: &str) -> Result<SkillId, SkillError> {
        Ok(SkillId(Inner::DualWield {
            main: Subject::new(main)?,
            off: Subject::new(off)?,
        }))
    }

    pub fn custom(skill: CustomSkill) -> SkillId {
        SkillId(Inner::Custom(skill))
    }

    fn parse_pair(inside: &str) -> Result<SkillId, SkillError> {
        let parts: Vec<&str> = inside
            .split([',', '/', '&', '+', ';'])
            .map(str::trim)
            .collect();
        match parts.as_slice() {
            [main, off] if !main.is_empty() && !off.is_empty() => Self::dual_wield(main, off),
            _ => Err(SkillError::NeedsTwoWeapons),
        }
    }

    /// Reads a skill as a player types it: case does not matter, and a subject may follow in
    /// round or square brackets or after a colon ("weapon skill (sword)", "Knowledge: Surgery",
    /// "dual-wield [rapier, pistol]").
    pub fn parse(text: &str) -> Result<SkillId, SkillError> {
        Self::parse_with(text, &[])
    }

    /// As [`SkillId::parse`], also knowing the referee's own skills.
    pub fn parse_with(text: &str, custom: &[CustomSkill]) -> Result<SkillId, SkillError> {
        let text = text.trim();
        let (name, subject) = match text.find(['(', '[', ':']) {
            Some(at) => {
                let rest = text[at + 1..].trim();
                let rest = rest
                    .strip_suffix(')')
                    .or_else(|| rest.strip_suffix(']'))
                    .unwrap_or(rest);
                (text[..at].trim(), Some(rest.trim()))
            }
            None => (text, None),
        };
        let Some(kind) = SkillKind::from_name(name) else {
            let wanted = Subject::new(text).map_err(|_| SkillError::Unknown(text.to_owned()))?;
            return custom
                .iter()
                .find(|c| c.name == wanted)
                .map(|c| SkillId::custom(c.clone()))
                .ok_or_else(|| SkillError::Unknown(text.to_owned()));
        };
        match subject {
            None => Self::single(kind),
            Some(s) => Self::with_subject(kind, s),
        }
    }

    /// The table skill this is an instance of; `None` for a referee-created skill.
    pub fn kind(&self) -> Option<SkillKind> {
        match &self.0 {
            Inner::Single(k) | Inner::Subject(k, _) => Some(*k),
            Inner::DualWield { .. } => Some(SkillKind::DualWield),
            Inner::Custom(_) => None,
        }
    }

    /// The subject of an instanced skill.
    pub fn subject(&self) -> Option<&Subject> {
        match &self.0 {
            Inner::Subject(_, s) => Some(s),
            _ => None,
        }
    }

    /// The (main hand, off hand) weapons of a Dual-Wield skill.
    pub fn weapons(&self) -> Option<(&Subject, &Subject)> {
        match &self.0 {
            Inner::DualWield { main, off } => Some((main, off)),
            _ => None,
        }
    }

    /// The weapon of a Weapon Skill.
    pub fn weapon(&self) -> Option<&Subject> {
        match &self.0 {
            Inner::Subject(SkillKind::WeaponSkill, s) => Some(s),
            _ => None,
        }
    }

    pub fn category(&self) -> Category {
        match &self.0 {
            Inner::Custom(c) => c.category,
            Inner::Single(k) | Inner::Subject(k, _) => k.category(),
            Inner::DualWield { .. } => SkillKind::DualWield.category(),
        }
    }

    pub fn group(&self) -> Group {
        self.category().group()
    }

    /// The general rating this skill adds to and falls back on.
    pub fn general(&self) -> General {
        match &self.0 {
            Inner::Custom(c) => c.general,
            Inner::Single(k) | Inner::Subject(k, _) => k.general(),
            Inner::DualWield { .. } => SkillKind::DualWield.general(),
        }
    }

    pub fn is_magic(&self) -> bool {
        self.category() == Category::Magic
    }

    /// Is this `kind`, whatever its subject?
    pub fn is(&self, kind: SkillKind) -> bool {
        self.kind() == Some(kind)
    }
}

impl fmt::Display for SkillId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Inner::Single(k) => f.write_str(k.name()),
            Inner::Subject(k, s) => write!(f, "{} ({s})", k.name()),
            Inner::DualWield { main, off } => write!(f, "Dual-Wield ({main}, {off})"),
            Inner::Custom(c) => write!(f, "{}", c.name),
        }
    }
}

fn example_subject(kind: SkillKind) -> &'static str {
    match kind {
        SkillKind::WeaponSkill => "Sword",
        SkillKind::Artisan => "Painting",
        SkillKind::Knowledge => "History",
        SkillKind::Profession => "Surgery",
        SkillKind::Trade => "Carpentry",
        SkillKind::Pilot => "Schooner",
        _ => "Rapier, Pistol",
    }
}

/// The three general ratings (chapter 1, "General Skill Ratings").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GeneralRatings {
    pub physical: i32,
    pub mental: i32,
    pub magical: i32,
}

impl GeneralRatings {
    /// Sums the ratings of the skills adding to each general rating and divides by ten, rounding
    /// down.
    // Decision: a negative sum (possible only through penalties such as Physically Dependent)
    // rounds toward minus infinity, which is what "rounding down" says.
    pub fn from_skills<'a>(skills: impl IntoIterator<Item = (&'a SkillId, i32)>) -> Self {
        let (mut p, mut m, mut g) = (0i64, 0i64, 0i64);
        for (skill, rating) in skills {
            let r = i64::from(rating);
            match skill.general() {
                General::Physical => p += r,
                General::Mental => m += r,
                General::Magical => g += r,
            }
        }
        let tenth = |sum: i64| sum.div_euclid(10) as i32;
        GeneralRatings {
            physical: tenth(p),
            mental: tenth(m),
            magical: tenth(g),
        }
    }

    pub fn get(&self, general: General) -> i32 {
        match general {
            General::Physical => self.physical,
            General::Mental => self.mental,
            General::Magical => self.magical,
        }
    }
}

/// Where the rating of a check came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseSource {
    /// The skill's own rating.
    Skill,
    /// The governing general rating, higher than the skill (or the skill was never learned).
    General(General),
}

/// The rating a check on a skill starts from, before situational modifiers and wounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaseRating {
    /// The rating used.
    pub rating: Rating,
    pub source: BaseSource,
    /// The skill's own rating, if learned.
    pub skill: Option<i32>,
    /// The governing general rating (`None` for magic skills, which have no fallback).
    pub general: Option<(General, i32)>,
    /// The -5 of an untrained Artisan, Trade or Profession check, already in `rating`; else 0.
    pub untrained_penalty: i32,
}

/// Why a character cannot check a skill at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CannotAttempt {
    #[error("{0} is a magic skill: it cannot be used until it has been learned")]
    UnlearnedMagic(String),
}

/// The rating a check on `skill` is made against (chapter 2, introduction).
///
/// `learned` is the character's rating in the skill, or `None` if they never learned it. A
/// non-magic skill uses the higher of its rating and its governing general rating; an untrained
/// Artisan, Trade or Profession falls back to the general rating minus 5. A magic skill must have
/// been learned and uses its own rating.
// Decision: the -5 applies only when the skill was never learned, as the text ties it to being
// untrained; a trained character still takes the better of skill and general rating.
// Decision: a learned magic skill checks at its own rating only; the text names the general
// fallback as something magic skills do not have.
pub fn base_rating(
    skill: &SkillId,
    learned: Option<i32>,
    generals: &GeneralRatings,
) -> Result<BaseRating, CannotAttempt> {
    if skill.is_magic() {
        let Some(r) = learned else {
            return Err(CannotAttempt::UnlearnedMagic(skill.to_string()));
        };
        return Ok(BaseRating {
            rating: Rating(r),
            source: BaseSource::Skill,
            skill: Some(r),
            general: None,
            untrained_penalty: 0,
        });
    }
    let general = skill.general();
    let general_rating = generals.get(general);
    let untrained_penalty = match (learned, skill.kind()) {
        (None, Some(kind)) => kind.untrained_penalty(),
        _ => 0,
    };
    let fallback = general_rating + untrained_penalty;
    let (rating, source) = match learned {
        Some(r) if r >= fallback => (r, BaseSource::Skill),
        _ => (fallback, BaseSource::General(general)),
    };
    Ok(BaseRating {
        rating: Rating(rating),
        source,
        skill: learned,
        general: Some((general, general_rating)),
        untrained_penalty,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> SkillId {
        SkillId::parse(text).unwrap()
    }

    #[test]
    fn table_is_in_enum_order_and_complete() {
        // thiz-rulebook.md, "Table of Skills": 5 Mettle, 5 Efficacy, 9 Expertise, 6 Body,
        // 12 Awareness, 11 Magic skills.
        for (i, row) in SKILLS.iter().enumerate() {
            assert_eq!(row.kind as usize, i, "{}", row.name);
        }
        let count = |c| SKILLS.iter().filter(|s| s.category == c).count();
        let want = [
            (Category::Mettle, 5),
            (Category::Efficacy, 5),
            (Category::Expertise, 9),
            (Category::Body, 6),
            (Category::Awareness, 12),
            (Category::Magic, 11),
        ];
        for (c, n) in want {
            assert_eq!(count(c), n, "{c}");
        }
        // Magic skills and only they add to Magical.
        for s in SKILLS {
            assert_eq!(s.category == Category::Magic, s.general == General::Magical);
        }
    }

    #[test]
    fn every_name_and_alias_reads_back() {
        for s in SKILLS {
            assert_eq!(SkillKind::from_name(s.name), Some(s.kind), "{}", s.name);
        }
        // An alias never shadows another skill's own name.
        for (alias, kind) in ALIASES {
            assert!(SKILLS.iter().all(|s| key(s.name) != alias), "{alias}");
            assert_eq!(SkillKind::from_name(alias), Some(kind));
        }
        assert_eq!(SkillKind::from_name(""), None);
        assert_eq!(SkillKind::from_name("--"), None);
    }

    #[test]
    fn physical_and_mental_tags_follow_the_table() {
        // thiz-rulebook.md, "Table of Skills": the [P] and [M] marks.
        let mental = [
            SkillKind::Willpower,
            SkillKind::Tactics,
            SkillKind::Appraise,
            SkillKind::Artisan,
            SkillKind::Forgery,
            SkillKind::Knowledge,
            SkillKind::LockPicking,
            SkillKind::Persuasion,
            SkillKind::Profession,
            SkillKind::Trapping,
            SkillKind::AnimalHandling,
            SkillKind::FastTalk,
            SkillKind::FirstAid,
            SkillKind::Navigation,
            SkillKind::Pilot,
            SkillKind::Scrutiny,
            SkillKind::Seduce,
            SkillKind::WeatherSense,
        ];
        for s in SKILLS.iter().filter(|s| s.category != Category::Magic) {
            let want = if mental.contains(&s.kind) {
                General::Mental
            } else {
                General::Physical
            };
            assert_eq!(s.general, want, "{}", s.name);
        }
        assert_eq!(SkillKind::Trade.general(), General::Physical);
    }

    #[test]
    fn parsing_as_players_type() {
        // Chapter 2: instanced skills (Weapon Skill, Dual-Wield, Knowledge, Artisan, Profession,
        // Trade, Pilot) carry a subject.
        let cases = [
            ("weapon skill (sword)", "Weapon Skill (Sword)"),
            ("Weapon Skill: long sword", "Weapon Skill (Long Sword)"),
            ("WEAPON [Axe]", "Weapon Skill (Axe)"),
            ("Knowledge: Surgery", "Knowledge (Surgery)"),
            ("knowledge(history)", "Knowledge (History)"),
            ("dual-wield (rapier, pistol)", "Dual-Wield (Rapier, Pistol)"),
            ("Dual Wielding [Falchion/Axe]", "Dual-Wield (Falchion, Axe)"),
            ("lock picking", "Lock-picking"),
            ("LOCKPICKING", "Lock-picking"),
            ("pocket-picking", "Pocket-Picking"),
            ("first aid", "First Aid"),
            ("persuade", "Persuasion"),
            ("  stealth ", "Stealth"),
            ("pilot: schooner", "Pilot (Schooner)"),
            ("trade (blacksmithing)", "Trade (Blacksmithing)"),
            ("artisan (painting)", "Artisan (Painting)"),
            ("profession: AK-47 repair", "Profession (AK-47 Repair)"),
            ("necromancy", "Necromancy"),
        ];
        for (typed, canonical) in cases {
            assert_eq!(id(typed).to_string(), canonical, "{typed}");
            // Printing then parsing gives the same skill back.
            assert_eq!(id(canonical), id(typed), "{typed}");
        }
        assert_eq!(id("weapon skill (SWORD)"), id("Weapon Skill (sword)"));
        assert_ne!(id("weapon skill (sword)"), id("weapon skill (axe)"));
        assert_ne!(
            id("dual-wield (rapier, pistol)"),
            id("dual-wield (pistol, rapier)")
        );
    }

    #[test]
    fn parsing_errors_explain_themselves() {
        let cases: [(&str, SkillError); 7] = [
            ("swordplay", SkillError::Unknown("swordplay".into())),
            (
                "knowledge",
                SkillError::NeedsSubject {
                    skill: "Knowledge",
                    noun: "topic",
                    example: "History",
                },
            ),
            ("stealth (rooftops)", SkillError::TakesNoSubject("Stealth")),
            ("dual-wield (rapier)", SkillError::NeedsTwoWeapons),
            ("dual-wield", SkillError::NeedsTwoWeapons),
            ("weapon skill ()", SkillError::EmptyName),
            ("knowledge: a`b", SkillError::BadCharacter('`')),
        ];
        for (typed, want) in cases {
            assert_eq!(SkillId::parse(typed), Err(want), "{typed}");
        }
        // Subject length: 40 characters is fine, 41 is not.
        let forty = "a".repeat(MAX_SUBJECT_LEN);
        assert!(SkillId::with_subject(SkillKind::Knowledge, &forty).is_ok());
        assert_eq!(
            SkillId::with_subject(SkillKind::Knowledge, &format!("{forty}a")),
            Err(SkillError::NameTooLong(41))
        );
        let msg = SkillError::NeedsSubject {
            skill: "Knowledge",
            noun: "topic",
            example: "History",
        }
        .to_string();
        assert_eq!(
            msg,
            "Knowledge needs a topic in brackets, for example \"Knowledge (History)\""
        );
    }

    #[test]
    fn referee_created_skills() {
        // Chapter 2, "Creating Skills": a referee skill works like any other skill.
        let riding = CustomSkill::new("riding", Category::Body, General::Physical).unwrap();
        let blood = CustomSkill::new("Blood Magic", Category::Magic, General::Magical).unwrap();
        let pool = [riding.clone(), blood];
        let r = SkillId::parse_with("RIDING", &pool).unwrap();
        assert_eq!(r.to_string(), "Riding");
        assert_eq!(r.category(), Category::Body);
        assert_eq!(r.group(), Group::Soft);
        assert_eq!(r.general(), General::Physical);
        assert_eq!(r.kind(), None);
        assert!(
            SkillId::parse_with("blood magic", &pool)
                .unwrap()
                .is_magic()
        );
        assert!(SkillId::parse("riding").is_err());
        // A magic skill adds to Magical, any other to Physical or Mental.
        assert!(CustomSkill::new("x", Category::Magic, General::Mental).is_err());
        assert!(CustomSkill::new("x", Category::Body, General::Magical).is_err());
        assert!(CustomSkill::new("x", Category::Expertise, General::Mental).is_ok());
        assert!(matches!(
            CustomSkill::new("stealth", Category::Body, General::Physical),
            Err(SkillError::NameTaken(_))
        ));
    }

    #[test]
    fn general_ratings_are_a_tenth_rounded_down() {
        // Chapter 1, "General Skill Ratings": sum the tagged skills, divide by ten, round down.
        let cases = [
            (vec![("stealth", 5), ("speed", 4)], (0, 0, 0)),
            (vec![("stealth", 5), ("speed", 5)], (1, 0, 0)),
            (vec![("stealth", 9), ("speed", 10)], (1, 0, 0)),
            (vec![("stealth", 10), ("speed", 10)], (2, 0, 0)),
            (vec![("willpower", 5), ("trade (smithing)", 5)], (0, 0, 0)),
            (
                vec![("willpower", 5), ("knowledge (x)", 5), ("trade (y)", 10)],
                (1, 1, 0),
            ),
            (vec![("alchemy", 9)], (0, 0, 0)),
            (vec![("alchemy", 5), ("reiki", 5)], (0, 0, 1)),
            (vec![("toughness", -1)], (-1, 0, 0)),
        ];
        for (skills, (p, m, g)) in cases {
            let ids: Vec<(SkillId, i32)> = skills.iter().map(|(s, r)| (id(s), *r)).collect();
            let got = GeneralRatings::from_skills(ids.iter().map(|(s, r)| (s, *r)));
            assert_eq!(
                got,
                GeneralRatings {
                    physical: p,
                    mental: m,
                    magical: g
                },
                "{skills:?}"
            );
        }
    }

    #[test]
    fn base_rating_takes_the_better_of_skill_and_general() {
        // Chapter 2 introduction: no Unarmed Combat and Physical 4 → checks at 4.
        let g = GeneralRatings {
            physical: 4,
            mental: 2,
            magical: 1,
        };
        let cases: [(&str, Option<i32>, i32, BaseSource, i32); 10] = [
            (
                "unarmed combat",
                None,
                4,
                BaseSource::General(General::Physical),
                0,
            ),
            (
                "unarmed combat",
                Some(3),
                4,
                BaseSource::General(General::Physical),
                0,
            ),
            ("unarmed combat", Some(4), 4, BaseSource::Skill, 0),
            ("unarmed combat", Some(5), 5, BaseSource::Skill, 0),
            (
                "persuasion",
                Some(1),
                2,
                BaseSource::General(General::Mental),
                0,
            ),
            // Untrained Artisan/Trade/Profession: general rating - 5.
            (
                "trade (carpentry)",
                None,
                -1,
                BaseSource::General(General::Physical),
                -5,
            ),
            (
                "knowledge (law)",
                None,
                2,
                BaseSource::General(General::Mental),
                0,
            ),
            (
                "profession (surgery)",
                None,
                -3,
                BaseSource::General(General::Mental),
                -5,
            ),
            // Trained, even below the general rating: no -5, the better of the two.
            (
                "profession (surgery)",
                Some(1),
                2,
                BaseSource::General(General::Mental),
                0,
            ),
            ("artisan (painting)", Some(3), 3, BaseSource::Skill, 0),
        ];
        for (skill, learned, want, source, penalty) in cases {
            let b = base_rating(&id(skill), learned, &g).unwrap();
            assert_eq!(b.rating, Rating(want), "{skill} {learned:?}");
            assert_eq!(b.source, source, "{skill} {learned:?}");
            assert_eq!(b.untrained_penalty, penalty, "{skill} {learned:?}");
        }
    }

    #[test]
    fn magic_skills_have_no_fallback() {
        // Chapter 2 introduction: magic skills cannot be used until learned.
        let g = GeneralRatings {
            physical: 4,
            mental: 4,
            magical: 3,
        };
        let err = base_rating(&id("summoning"), None, &g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Summoning is a magic skill: it cannot be used until it has been learned"
        );
        let b = base_rating(&id("summoning"), Some(1), &g).unwrap();
        assert_eq!(
            (b.rating, b.source, b.general),
            (Rating(1), BaseSource::Skill, None)
        );
    }
}
