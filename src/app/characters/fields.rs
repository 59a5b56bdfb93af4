//! Pure checks of what players type into a sheet: names, comma lists, THIZ traits, skills and
//! limbs, TFT numbers, talents, spells and gear. Each check returns the canonical text to store,
//! or a one-line reason (without a trailing full stop) saying what is accepted.
//!
//! `set` and `import` both go through [`apply`] / [`normalize`], so a sheet field accepted one way
//! is accepted the other. Never touches storage.
//!
//! Seam: `thiz` reads the weaknesses on a sheet with [`parse_weakness`], as `/character` stored
//! them; `aliases` checks a saved roll's name with [`checked_name`] and keys it with
//! [`confusable_key`], as a character's name is.

use crate::app::sheet::{Sheet, TftSheet, ThizSheet};
use crate::app::text::{escape, truncate};
use crate::rules::tft::character::{SheetTalent, Talent, talent_info};
use crate::rules::tft::gear;
use crate::rules::thiz::Location;
use crate::rules::thiz::skills::SkillId;
use crate::rules::thiz::traits::{Limb, Quirk, QuirkChoice, Weakness};

/// Longest character name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest short text field (homeland, parents, an item's name, a list entry).
pub const MAX_TEXT_CHARS: usize = 100;
/// Longest `notes`.
pub const MAX_NOTES_CHARS: usize = 1000;
/// Most entries in one list field (weaknesses, quirks, talents, spells).
pub const MAX_LIST_ENTRIES: usize = 40;
/// Longest subject in brackets ("Phobia (heights)").
pub const MAX_SUBJECT_CHARS: usize = 40;
/// Sessions a THIZ character has played: years of weekly play, and then some.
pub const MAX_SESSIONS: i64 = 10_000;
/// TFT ST, DX and IQ: monsters go far above a hero's numbers, but not this far.
pub const MAX_ATTRIBUTE: i64 = 200;
/// TFT Skill Points and MA.
pub const MAX_SP: i64 = 50;
pub const MAX_MA: i64 = 50;
pub const MAX_XP: i64 = 1_000_000_000;
/// TFT mana a staff holds at most (`rules::tft::mana::MAX_MANA`).
pub const MAX_MANA: i64 = crate::rules::tft::mana::MAX_MANA as i64;

/// The fields `set` accepts, per system.
pub const THIZ_FIELDS: [&str; 10] = [
    "homeland",
    "parents",
    "parent_skill",
    "weaknesses",
    "quirks",
    "missing_limb",
    "handedness",
    "notes",
    "sessions",
    "specials",
];
pub const TFT_FIELDS: [&str; 12] = [
    "st", "dx", "iq", "sp", "ma", "talents", "spells", "xp", "armor", "shield", "notes", "mana",
];

/// A value that clears a field.
pub fn is_clear(raw: &str) -> bool {
    matches!(
        raw.trim().to_ascii_lowercase().as_str(),
        "none" | "clear" | "-"
    )
}

/// The words a list of names treats as keywords: `/gm request characters:everyone` (the same
/// word as `gm::request::EVERYONE`, which a test holds equal).
pub const RESERVED_NAMES: [&str; 1] = ["everyone"];

/// A character's name, in the one form the guild stores and compares: a [`checked_name`], with
/// no comma (names are listed with commas) and not a keyword of a list (`everyone`).
///
/// Names that look alike though written differently are refused where a name is taken (see
/// [`confusable_key`]), since that needs the other names.
pub fn character_name(raw: &str) -> Result<String, String> {
    let name = checked_name(raw, "character")?;
    if name.contains(',') {
        return Err(
            "a character's name cannot hold a comma, since lists of names are separated by commas \
             (/gm request characters:\"Ann, Brom\"); write it without, like \"Ann the Bold\""
                .into(),
        );
    }
    if let Some(word) = RESERVED_NAMES.iter().find(|w| name.eq_ignore_ascii_case(w)) {
        return Err(format!(
            "\"{word}\" cannot be a character's name: lists of characters read it as a keyword \
             (/gm request characters:{word} asks everyone in the encounter)"
        ));
    }
    Ok(name)
}

/// A name a player gives something the guild keeps (a character, a saved roll), in the one form
/// the guild stores and compares; `noun` names the thing in the reasons ("a character's name
/// can be at most 64 characters").
///
/// - Unicode's compatibility form (NFKC): full-width "Ｚｏｅ" is stored as "Zoe", a ligature as
///   its letters; runs of whitespace become one space.
/// - 1 to 64 characters, with at least one letter or digit.
/// - No control, format or invisible characters (zero-width spaces and joiners, direction
///   marks, fillers, variation selectors): by general category (Cc, Cf, Cs, Co, Cn, line and
///   paragraph separators), and letters and marks must be allowed in identifiers by Unicode's
///   general security profile (UTS 39, Identifier_Status), which leaves out the invisible
///   letters and marks a category alone lets through.
pub fn checked_name(raw: &str, noun: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization as _;
    use unicode_properties::{GeneralCategoryGroup as G, UnicodeGeneralCategory as _};
    use unicode_security::GeneralSecurityProfile as _;

    let nfkc: String = raw.nfkc().collect();
    let name = nfkc.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = name.chars().count();
    if len == 0 {
        return Err(format!(
            "a {noun} needs a name of 1 to {MAX_NAME_CHARS} characters"
        ));
    }
    if len > MAX_NAME_CHARS {
        return Err(format!(
            "a {noun}'s name can be at most {MAX_NAME_CHARS} characters; that one has {len}"
        ));
    }
    for c in name.chars() {
        let allowed = match c.general_category_group() {
            G::Letter | G::Mark | G::Number => c.identifier_allowed(),
            G::Punctuation | G::Symbol => true,
            G::Separator => c == ' ',
            G::Other => false,
        };
        if !allowed {
            return Err(format!(
                "a {noun}'s name cannot hold invisible, control or formatting characters, \
                 and this one holds U+{:04X}; type the name with letters, digits, spaces and punctuation",
                u32::from(c)
            ));
        }
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(format!(
            "a {noun}'s name needs at least one letter or digit"
        ));
    }
    Ok(name)
}

/// The key two names collide under when they look alike: the UTS 39 confusable skeleton of the
/// name (taken before case is folded, so a capital I and a small l meet), lowercase, without its
/// spaces ("Zoe", "ZOE", "Zоe" with a Cyrillic о, and "Z oe" share
/// one). From the `unicode-security` crate's skeleton, not a table of our own.
pub fn confusable_key(name: &str) -> String {
    unicode_security::skeleton(name)
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

/// Free text: collapsed to single spaces (notes keep their line breaks), at most `max` characters.
pub fn text(field: &str, raw: &str, max: usize) -> Result<String, String> {
    let cleaned = raw
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned();
    let len = cleaned.chars().count();
    if len == 0 {
        return Err(format!("{field} cannot be empty; use none to clear it"));
    }
    if len > max {
        return Err(format!(
            "{field} can be at most {max} characters; yours has {len}"
        ));
    }
    if cleaned.chars().any(|c| c.is_control() && c != '\n') {
        return Err(format!("{field} cannot contain control characters"));
    }
    Ok(cleaned)
}

/// Splits a comma-separated list, keeping commas inside brackets ("Phobia (rats, mice), Tic").
/// Entries are trimmed; empty ones are dropped.
pub fn split_list(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut current = String::new();
    for c in raw.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// "Name (subject)" → ("Name", Some("subject")); also "Name: subject" and square brackets.
fn name_and_subject(entry: &str) -> (&str, Option<&str>) {
    match entry.find(['(', '[', ':']) {
        Some(at) => {
            let rest = entry[at + 1..].trim();
            let rest = rest
                .strip_suffix(')')
                .or_else(|| rest.strip_suffix(']'))
                .unwrap_or(rest)
                .trim();
            (entry[..at].trim(), Some(rest))
        }
        None => (entry.trim(), None),
    }
}

fn subject(entry: &str, raw: &str) -> Result<String, String> {
    let cleaned = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = cleaned.chars().count();
    if len == 0 {
        return Err(format!("{entry}: the part in brackets is empty"));
    }
    if len > MAX_SUBJECT_CHARS {
        return Err(format!(
            "{entry}: the part in brackets can be at most {MAX_SUBJECT_CHARS} characters"
        ));
    }
    if cleaned
        .chars()
        .any(|c| c.is_control() || "()[]:".contains(c))
    {
        return Err(format!(
            "{entry}: the part in brackets cannot hold brackets"
        ));
    }
    Ok(cleaned)
}

/// A THIZ weakness as stored: its rulebook name, with the subject in brackets where given.
pub fn weakness(entry: &str) -> Result<String, String> {
    let (name, subj) = name_and_subject(entry);
    let w = Weakness::from_name(name).ok_or_else(|| {
        format!("there is no weakness called \"{}\" (the names of the rulebook's chapter 3 are accepted)", escape(name))
    })?;
    match subj {
        Some(s) => Ok(format!("{} ({})", w.name(), subject(w.name(), s)?)),
        None => Ok(w.name().to_owned()),
    }
}

/// The weakness a stored entry names.
pub fn parse_weakness(stored: &str) -> Option<Weakness> {
    Weakness::from_name(name_and_subject(stored).0)
}

/// The subject of a stored weakness entry ("Phobia (heights)" → "heights").
pub fn weakness_subject(stored: &str) -> Option<&str> {
    name_and_subject(stored).1.filter(|s| !s.is_empty())
}

/// A THIZ quirk as stored: its rulebook name, with the subject chosen for it in brackets where
/// chapter 4 has the player choose one ("Celestial Guidance (night)").
pub fn quirk(entry: &str) -> Result<String, String> {
    let (name, subj) = name_and_subject(entry);
    let q = Quirk::from_name(name).ok_or_else(|| {
        format!(
            "there is no quirk called \"{}\" (the names of the rulebook's chapter 4 are accepted)",
            escape(name)
        )
    })?;
    let options = || {
        q.choices()
            .iter()
            .map(|c| format!("{} ({})", q.name(), c.name()))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    match subj {
        None => Ok(q.name().to_owned()),
        Some(_) if q.choices().is_empty() => Err(format!(
            "{} is taken without a choice in brackets; write it as {}",
            q.name(),
            q.name()
        )),
        Some(s) => QuirkChoice::parse(q, s)
            .map(|c| format!("{} ({})", q.name(), c.name()))
            .ok_or_else(|| {
                format!(
                    "{} is taken for one of its choices, not \"{}\": write {}",
                    q.name(),
                    escape(s),
                    options()
                )
            }),
    }
}

/// A THIZ Special as stored: "Skill: its use", the skill in its canonical spelling
/// ("artisan (goldsmithing): rings" → "Artisan (Goldsmithing): rings").
pub fn special(entry: &str) -> Result<String, String> {
    let Some((skill_part, use_part)) = entry.split_once(':') else {
        return Err(format!(
            "a Special is written as the skill, a colon and the use it helps, like \"Artisan (Goldsmithing): rings\"; you gave \"{}\"",
            escape(entry.trim())
        ));
    };
    let id = skill(skill_part)?;
    let what = use_part.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = what.chars().count();
    if len == 0 || len > MAX_SUBJECT_CHARS {
        return Err(format!(
            "{id}: the use a Special helps is 1 to {MAX_SUBJECT_CHARS} characters, like \"rings\" or \"disarming\""
        ));
    }
    if what.chars().any(|c| c.is_control() || "()[]:".contains(c)) {
        return Err(format!(
            "{id}: the use a Special helps cannot hold brackets or colons"
        ));
    }
    Ok(format!("{id}: {what}"))
}

/// The skill and the use of a stored Special ("Artisan (Goldsmithing): rings").
pub fn parse_special(stored: &str) -> Option<(SkillId, &str)> {
    let (skill_part, use_part) = stored.split_once(':')?;
    Some((SkillId::parse(skill_part.trim()).ok()?, use_part.trim()))
}

/// The quirk a stored entry names, its choice ignored.
pub fn parse_quirk(stored: &str) -> Option<Quirk> {
    Quirk::from_name(name_and_subject(stored).0)
}

/// A THIZ skill as a player types it.
pub fn skill(raw: &str) -> Result<SkillId, String> {
    SkillId::parse(raw).map_err(|e| {
        format!(
            "{}{}",
            escaped_error(&e, raw),
            crate::app::text::did_you_mean_skill(raw)
        )
    })
}

/// The missing limb: an arm or a leg, stored as the location's name ("Left Arm").
pub fn limb(raw: &str) -> Result<String, String> {
    match Location::parse(raw) {
        Some(l) if l.is_arm() || l.is_leg() => Ok(l.name().to_owned()),
        _ => Err(format!(
            "missing_limb must be an arm or a leg: left arm, right arm, left leg or right leg; you gave \"{}\"",
            escape(raw.trim())
        )),
    }
}

/// The better hand: "right" or "left".
pub fn handedness(raw: &str) -> Result<String, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "right" | "r" => Ok("right".to_owned()),
        "left" | "l" => Ok("left".to_owned()),
        _ => Err(format!(
            "handedness must be right or left; you gave \"{}\"",
            escape(raw.trim())
        )),
    }
}

/// Which limb a stored missing limb is.
pub fn parse_limb(stored: &str) -> Option<Limb> {
    let l = Location::parse(stored)?;
    if l.is_arm() {
        Some(Limb::Arm)
    } else if l.is_leg() {
        Some(Limb::Leg)
    } else {
        None
    }
}

/// The most a single talent may cost, in IQ points.
const MAX_TALENT_COST: u32 = 10;

/// A TFT talent as stored: its name, followed by " (cost)" when the cost differs from the table's
/// or the table gives none ("Acute Hearing (3)").
pub fn talent(entry: &str) -> Result<String, String> {
    let (name, cost) = name_and_subject(entry);
    let t = Talent::parse(name)
        .ok_or_else(|| format!("there is no talent called \"{}\"", escape(name)))?;
    let listed = talent_info(t).and_then(|i| i.cost);
    let cost = match cost {
        None => None,
        Some(c) => Some(
            c.parse::<u32>()
                .ok()
                .filter(|c| (1..=MAX_TALENT_COST).contains(c))
                .ok_or_else(|| {
                    format!("{}: the cost in brackets must be a whole number from 1 to {MAX_TALENT_COST}", t.name())
                })?,
        ),
    };
    match (cost, listed) {
        (Some(c), Some(l)) if c == l => Ok(t.name().to_owned()),
        (Some(c), _) => Ok(format!("{} ({c})", t.name())),
        (None, Some(_)) => Ok(t.name().to_owned()),
        (None, None) => Err(format!(
            "the rules list no cost for {0}: write it with its cost, like \"{0} (2)\"",
            t.name()
        )),
    }
}

/// A stored talent, for the point check.
pub fn parse_talent(stored: &str) -> Option<SheetTalent> {
    let (name, cost) = name_and_subject(stored);
    let t = Talent::parse(name)?;
    let cost = cost
        .and_then(|c| c.parse().ok())
        .or_else(|| talent_info(t).and_then(|i| i.cost))?;
    Some(SheetTalent {
        talent: Some(t),
        cost,
        iq_level: None,
    })
}

/// A TFT spell: free text (the sources list only some spells), one IQ point each.
pub fn spell(entry: &str) -> Result<String, String> {
    text("a spell's name", entry, MAX_TEXT_CHARS)
}

/// A rules error about what a player typed, with their text escaped for Discord markdown.
fn escaped_error(e: &impl std::fmt::Display, raw: &str) -> String {
    let raw = raw.trim();
    let message = e.to_string();
    if raw.is_empty() {
        message
    } else {
        message.replace(raw, &escape(raw))
    }
}

/// A TFT armor by the table's name.
pub fn armor(raw: &str) -> Result<String, String> {
    gear::armor(raw)
        .map(|a| a.name.to_owned())
        .map_err(|e| escaped_error(&e, raw))
}

/// A TFT shield by the table's name.
pub fn shield(raw: &str) -> Result<String, String> {
    gear::shield(raw)
        .map(|s| s.name.to_owned())
        .map_err(|e| escaped_error(&e, raw))
}

/// A TFT weapon by the table's name.
pub fn weapon(raw: &str) -> Result<String, String> {
    gear::weapon(raw)
        .map(|w| w.name.to_owned())
        .map_err(|e| escaped_error(&e, raw))
}

/// An item's name in the equipment list.
pub fn item_name(raw: &str) -> Result<String, String> {
    text("item", raw, MAX_TEXT_CHARS)
}

fn number(field: &str, raw: &str, min: i64, max: i64) -> Result<i64, String> {
    let value: i64 = raw.trim().trim_start_matches('+').parse().map_err(|_| {
        format!(
            "{field} must be a whole number between {min} and {max}; you gave \"{}\"",
            escape(raw.trim())
        )
    })?;
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{field} must be between {min} and {max}; you gave {value}"
        ))
    }
}

fn list(
    field: &str,
    raw: &str,
    check: impl Fn(&str) -> Result<String, String>,
) -> Result<Vec<String>, String> {
    if is_clear(raw) {
        return Ok(Vec::new());
    }
    checked_list(field, &split_list(raw), check)
}

fn checked_list(
    field: &str,
    entries: &[String],
    check: impl Fn(&str) -> Result<String, String>,
) -> Result<Vec<String>, String> {
    if entries.len() > MAX_LIST_ENTRIES {
        return Err(format!(
            "{field} can hold at most {MAX_LIST_ENTRIES} entries; you gave {}",
            entries.len()
        ));
    }
    entries.iter().map(|e| check(e)).collect()
}

fn optional(
    raw: &str,
    check: impl Fn(&str) -> Result<String, String>,
) -> Result<Option<String>, String> {
    if is_clear(raw) {
        Ok(None)
    } else {
        check(raw).map(Some)
    }
}

fn short(field: &'static str) -> impl Fn(&str) -> Result<String, String> {
    move |raw| text(field, raw, MAX_TEXT_CHARS)
}

fn notes(raw: &str) -> Result<String, String> {
    text("notes", raw, MAX_NOTES_CHARS)
}

/// Sessions played: 0 (still being made) up to [`MAX_SESSIONS`].
fn sessions(raw: &str) -> Result<u32, String> {
    let n = if is_clear(raw) {
        0
    } else {
        number("sessions", raw, 0, MAX_SESSIONS)?
    };
    u32::try_from(n).map_err(|_| format!("sessions must be between 0 and {MAX_SESSIONS}"))
}

fn parent_skill(raw: &str) -> Result<String, String> {
    skill(raw).map(|s| s.to_string())
}

/// The most fields one `fields:` line sets.
pub const MAX_FIELD_LINE: usize = 20;

/// `fields:"st 12, dx 13, homeland Iron Hills"`: comma-separated, each a field and its value
/// (`st 12`, `st: 12` or `st=12`); without commas, `st:12 dx:13 iq:7` (every word a `field:value`).
/// A value cannot hold a comma here: `field:`/`value:` take any text. Refused whole, naming the
/// entry that does not read (the reason is a whole sentence, shown as it is).
pub fn field_line(line: &str) -> Result<Vec<(String, String)>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let entries: Vec<&str> = if !line.contains(',') && words.iter().all(|w| w.contains([':', '=']))
    {
        words
    } else {
        line.split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect()
    };
    if entries.is_empty() || entries.len() > MAX_FIELD_LINE {
        return Err(format!(
            "fields lists 1 to {MAX_FIELD_LINE} fields with their values, comma-separated, like fields:\"st 12, dx 13, iq 7\"."
        ));
    }
    entries
        .iter()
        .map(|entry| {
            let cut = entry
                .find([':', '=', ' '])
                .filter(|&i| i > 0)
                .ok_or_else(|| {
                    format!(
                        "\"{}\" in fields needs a field and a value, like st 12; nothing was changed.",
                        escape(entry)
                    )
                })?;
            let (field, value) = entry.split_at(cut);
            let value = value[1..].trim_start_matches([':', '=', ' ']).trim();
            if value.is_empty() {
                return Err(format!(
                    "\"{}\" in fields has no value; nothing was changed.",
                    escape(entry)
                ));
            }
            Ok((field.trim().to_owned(), value.to_owned()))
        })
        .collect()
}

/// The most skills one `skills:` line sets.
pub const MAX_SKILL_LINE: usize = 25;

/// `skills:"Speed 4, Stealth 3, Weapon Skill (Sword) 2"`: each entry a skill and its rating
/// (0 to 30, the last word), comma-separated (issue 59: a sheet in one line, not one command a
/// skill). Refused whole at the first entry that does not read, naming it.
pub fn skill_line(line: &str) -> Result<Vec<(SkillId, i64)>, String> {
    let entries: Vec<&str> = line
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if entries.is_empty() || entries.len() > MAX_SKILL_LINE {
        return Err(format!(
            "skills lists 1 to {MAX_SKILL_LINE} skills with their ratings, comma-separated, like skills:\"Speed 4, Stealth 3\"."
        ));
    }
    let mut out: Vec<(SkillId, i64)> = Vec::new();
    for entry in entries {
        let bad = || {
            format!(
                "\"{}\" is not a skill and a rating from 0 to 30, like Stealth 3; nothing was changed.",
                escape(&truncate(entry, 60))
            )
        };
        let (named, rating) = entry.rsplit_once(char::is_whitespace).ok_or_else(bad)?;
        let rating: i64 = rating.parse().map_err(|_| bad())?;
        if !(0..=30).contains(&rating) {
            return Err(bad());
        }
        let skill = skill(named.trim())?;
        if out.iter().any(|(s, _)| *s == skill) {
            return Err(format!(
                "{} is named twice in skills; nothing was changed.",
                escape(&skill.to_string())
            ));
        }
        out.push((skill, rating));
    }
    Ok(out)
}

/// A field's name as `set` knows it: lowercase, with underscores ("Parent skill" → parent_skill).
pub fn field_key(field: &str) -> String {
    field.trim().to_ascii_lowercase().replace([' ', '-'], "_")
}

/// Sets one field of a sheet from what a player typed; the sheet is unchanged on error.
pub fn apply(sheet: &mut Sheet, field: &str, value: &str) -> Result<(), String> {
    let field_key = field_key(field);
    match sheet {
        Sheet::Thiz(s) => apply_thiz(s, &field_key, value),
        Sheet::Tft(s) => apply_tft(s, &field_key, value),
    }
}

/// A field's current value as text, for the `set` confirmation ("none" when empty).
pub fn describe(sheet: &Sheet, field: &str) -> String {
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_owned());
    let many = |v: &[String]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join(", ")
        }
    };
    match (sheet, field_key(field).as_str()) {
        (Sheet::Thiz(s), "homeland") => opt(&s.homeland),
        (Sheet::Thiz(s), "parents") => opt(&s.parents),
        (Sheet::Thiz(s), "parent_skill") => opt(&s.parent_skill),
        (Sheet::Thiz(s), "weaknesses") => many(&s.weaknesses),
        (Sheet::Thiz(s), "quirks") => many(&s.quirks),
        (Sheet::Thiz(s), "missing_limb") => opt(&s.missing_limb),
        (Sheet::Thiz(s), "handedness") => opt(&s.handedness),
        (Sheet::Thiz(s), "notes") => opt(&s.notes),
        (Sheet::Thiz(s), "sessions") => s.sessions.to_string(),
        (Sheet::Thiz(s), "specials") => many(&s.specials),
        (Sheet::Tft(s), "st") => s.st.to_string(),
        (Sheet::Tft(s), "dx") => s.dx.to_string(),
        (Sheet::Tft(s), "iq") => s.iq.to_string(),
        (Sheet::Tft(s), "sp") => s.sp.to_string(),
        (Sheet::Tft(s), "ma") => s.ma.map_or_else(|| "from DX".to_owned(), |m| m.to_string()),
        (Sheet::Tft(s), "xp") => s.xp.to_string(),
        (Sheet::Tft(s), "talents") => many(&s.talents),
        (Sheet::Tft(s), "spells") => many(&s.spells),
        (Sheet::Tft(s), "armor") => opt(&s.armor),
        (Sheet::Tft(s), "shield") => opt(&s.shield),
        (Sheet::Tft(s), "notes") => opt(&s.notes),
        (Sheet::Tft(s), "mana") => mana_text(s),
        _ => String::new(),
    }
}

/// "5 (3 stored)": a staff's M and the mana in it now; "none" without a staff.
pub fn mana_text(s: &TftSheet) -> String {
    let staff = s.staff();
    if staff.mana == 0 {
        "none".to_owned()
    } else {
        format!("{} ({} stored)", staff.mana, staff.stored())
    }
}

fn apply_thiz(s: &mut ThizSheet, field: &str, value: &str) -> Result<(), String> {
    match field {
        "homeland" => s.homeland = optional(value, short("homeland"))?,
        "parents" => s.parents = optional(value, short("parents"))?,
        "parent_skill" => s.parent_skill = optional(value, parent_skill)?,
        "weaknesses" => s.weaknesses = list("weaknesses", value, weakness)?,
        "quirks" => s.quirks = list("quirks", value, quirk)?,
        "missing_limb" => s.missing_limb = optional(value, limb)?,
        "handedness" => s.handedness = optional(value, handedness)?,
        "notes" => s.notes = optional(value, notes)?,
        "sessions" => s.sessions = sessions(value)?,
        "specials" => s.specials = list("specials", value, special)?,
        other => {
            return Err(format!(
                "a THIZ sheet has no field \"{}\"; the fields are {}",
                escape(other),
                THIZ_FIELDS.join(", ")
            ));
        }
    }
    Ok(())
}

fn apply_tft(s: &mut TftSheet, field: &str, value: &str) -> Result<(), String> {
    let attribute = |name| number(name, value, 1, MAX_ATTRIBUTE).map(|n| n as i32);
    match field {
        "st" => s.st = attribute("st")?,
        "dx" => s.dx = attribute("dx")?,
        "iq" => s.iq = attribute("iq")?,
        "sp" => s.sp = number("sp", value, 0, MAX_SP)? as i32,
        "ma" if is_clear(value) => s.ma = None,
        "ma" => s.ma = Some(number("ma", value, 0, MAX_MA)? as i32),
        "xp" => s.xp = number("xp", value, 0, MAX_XP)?,
        "talents" => s.talents = list("talents", value, talent)?,
        "spells" => s.spells = list("spells", value, spell)?,
        "armor" => s.armor = optional(value, armor)?,
        "shield" => s.shield = optional(value, shield)?,
        "notes" => s.notes = optional(value, notes)?,
        // A staff set (or set again) is full: setting it is how a GM gives or restores one.
        "mana" => {
            s.mana = if is_clear(value) {
                0
            } else {
                number("mana", value, 0, MAX_MANA)? as u32
            };
            s.mana_spent = 0;
        }
        other => {
            return Err(format!(
                "a TFT sheet has no field \"{}\"; the fields are {}",
                escape(other),
                TFT_FIELDS.join(", ")
            ));
        }
    }
    Ok(())
}

fn each_optional(
    value: Option<&String>,
    check: impl Fn(&str) -> Result<String, String>,
) -> Result<Option<String>, String> {
    value.map(|v| check(v)).transpose()
}

/// Checks a whole sheet (from an import) field by field, as `set` would, and returns it in
/// canonical form. The reason names the field.
pub fn normalize(sheet: &Sheet) -> Result<Sheet, String> {
    fn at(field: &'static str) -> impl Fn(String) -> String {
        move |e| format!("sheet.{field}: {e}")
    }
    Ok(match sheet {
        Sheet::Thiz(s) => Sheet::Thiz(ThizSheet {
            homeland: each_optional(s.homeland.as_ref(), short("homeland"))
                .map_err(at("homeland"))?,
            parents: each_optional(s.parents.as_ref(), short("parents")).map_err(at("parents"))?,
            parent_skill: each_optional(s.parent_skill.as_ref(), parent_skill)
                .map_err(at("parent_skill"))?,
            weaknesses: checked_list("weaknesses", &s.weaknesses, weakness)
                .map_err(at("weaknesses"))?,
            quirks: checked_list("quirks", &s.quirks, quirk).map_err(at("quirks"))?,
            missing_limb: each_optional(s.missing_limb.as_ref(), limb)
                .map_err(at("missing_limb"))?,
            handedness: each_optional(s.handedness.as_ref(), handedness)
                .map_err(at("handedness"))?,
            notes: each_optional(s.notes.as_ref(), notes).map_err(at("notes"))?,
            sessions: sessions(&s.sessions.to_string()).map_err(at("sessions"))?,
            specials: checked_list("specials", &s.specials, special).map_err(at("specials"))?,
        }),
        Sheet::Tft(s) => {
            let within = |field: &'static str, v: i64, min: i64, max: i64| {
                number(field, &v.to_string(), min, max).map_err(at(field))
            };
            within("st", s.st.into(), 1, MAX_ATTRIBUTE)?;
            within("dx", s.dx.into(), 1, MAX_ATTRIBUTE)?;
            within("iq", s.iq.into(), 1, MAX_ATTRIBUTE)?;
            within("sp", s.sp.into(), 0, MAX_SP)?;
            if let Some(ma) = s.ma {
                within("ma", ma.into(), 0, MAX_MA)?;
            }
            within("xp", s.xp, 0, MAX_XP)?;
            within("mana", s.mana.into(), 0, MAX_MANA)?;
            within("mana_spent", s.mana_spent.into(), 0, MAX_MANA)?;
            Sheet::Tft(TftSheet {
                talents: checked_list("talents", &s.talents, talent).map_err(at("talents"))?,
                spells: checked_list("spells", &s.spells, spell).map_err(at("spells"))?,
                armor: each_optional(s.armor.as_ref(), armor).map_err(at("armor"))?,
                shield: each_optional(s.shield.as_ref(), shield).map_err(at("shield"))?,
                notes: each_optional(s.notes.as_ref(), notes).map_err(at("notes"))?,
                ..s.clone()
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_at_the_limit_and_one_over() {
        assert_eq!(
            character_name("  Gala   of Iondren ").unwrap(),
            "Gala of Iondren"
        );
        assert!(character_name(&"a".repeat(64)).is_ok());
        assert!(character_name(&"a".repeat(65)).unwrap_err().contains("64"));
        assert!(character_name("   ").is_err());
        assert!(character_name("a\u{7}b").is_err());
    }

    /// Issue 32, item 5: names that hide characters, or break a list or a keyword, are refused;
    /// full-width and other compatibility forms are stored in their plain form.
    #[test]
    fn names_refuse_invisible_characters_commas_and_keywords() {
        let table: &[(&str, Result<&str, &str>)] = &[
            ("Zoe", Ok("Zoe")),
            ("\u{FF3A}\u{FF4F}\u{FF45}", Ok("Zoe")), // full-width: NFKC folds it
            ("Zo\u{00E9}", Ok("Zo\u{00E9}")),
            ("Ze\u{0301}", Ok("Z\u{00E9}")), // a combining accent composes
            ("Brom \"Iron\" Hand", Ok("Brom \"Iron\" Hand")),
            ("Gala 2", Ok("Gala 2")),
            ("\u{5C0F}\u{660E}", Ok("\u{5C0F}\u{660E}")),
            ("Zo\u{200B}e", Err("U+200B")), // zero-width space
            ("Zo\u{200D}e", Err("U+200D")), // zero-width joiner
            ("Zo\u{2060}e", Err("U+2060")), // word joiner
            ("Zo\u{202E}e", Err("U+202E")), // right-to-left override
            ("Zo\u{FEFF}e", Err("U+FEFF")), // byte order mark
            ("Zo\u{034F}e", Err("U+034F")), // combining grapheme joiner (a mark)
            ("Zo\u{FE0F}e", Err("U+FE0F")), // variation selector (a mark)
            ("Zo\u{3164}e", Err("U+1160")), // Hangul filler (a letter; NFKC makes it U+1160)
            ("Zo\u{E000}e", Err("U+E000")), // private use
            ("Zo\u{2028}e", Ok("Zo e")),    // a line separator is whitespace: one space
            ("Ann, the Bold", Err("comma")),
            ("Ann\u{FF0C} the Bold", Err("comma")), // a full-width comma is a comma
            ("everyone", Err("keyword")),
            ("EVERYONE", Err("keyword")),
            ("everyone else", Ok("everyone else")),
            ("...", Err("letter or digit")),
        ];
        for (raw, want) in table {
            let got = character_name(raw);
            match want {
                Ok(name) => assert_eq!(got.as_deref(), Ok(*name), "{raw:?}"),
                Err(part) => {
                    let e = got.expect_err(raw);
                    assert!(e.contains(part), "{raw:?}: {e}");
                }
            }
        }
        assert_eq!(RESERVED_NAMES, [crate::app::gm::request::EVERYONE]);
    }

    /// Names that look alike share a key; names that read differently do not.
    #[test]
    fn confusable_names_share_a_key() {
        let zoe = confusable_key("Zoe");
        for alike in ["zoe", "ZOE", "Z\u{043E}e", "Zo\u{0435}", "Z oe"] {
            assert_eq!(confusable_key(alike), zoe, "{alike:?}");
        }
        for other in ["Zoey", "Zara", "Joe"] {
            assert_ne!(confusable_key(other), zoe, "{other:?}");
        }
        assert_eq!(confusable_key("Iorn"), confusable_key("lorn"));
    }

    #[test]
    fn lists_split_outside_brackets() {
        assert_eq!(
            split_list("Phobia (rats, mice), Tic ,, Vice"),
            vec!["Phobia (rats, mice)", "Tic", "Vice"]
        );
        assert!(split_list(" , ").is_empty());
    }

    #[test]
    fn weaknesses_and_quirks_are_canonical() {
        assert_eq!(weakness("phobia (heights)").unwrap(), "Phobia (heights)");
        assert_eq!(weakness("night blind").unwrap(), "Night-Blind");
        assert!(weakness("Clumsy").unwrap_err().contains("no weakness"));
        assert!(weakness("Phobia ()").is_err());
        assert_eq!(parse_weakness("Phobia (heights)"), Some(Weakness::Phobia));
        assert_eq!(quirk("light touch").unwrap(), "Light Touch");
        assert!(quirk("Flying").is_err());
    }

    #[test]
    fn limbs_are_arms_or_legs() {
        assert_eq!(limb("left arm").unwrap(), "Left Arm");
        assert_eq!(parse_limb("Left Arm"), Some(Limb::Arm));
        assert_eq!(parse_limb("Right Leg"), Some(Limb::Leg));
        assert!(limb("head").is_err());
        assert_eq!(handedness(" Left ").unwrap(), "left");
        assert_eq!(handedness("r").unwrap(), "right");
        assert!(handedness("both").is_err());
    }

    #[test]
    fn talents_take_the_table_cost_or_a_given_one() {
        assert_eq!(talent("sword").unwrap(), "Sword");
        assert_eq!(parse_talent("Sword").unwrap().cost, 2);
        assert_eq!(talent("Sword (3)").unwrap(), "Sword (3)");
        assert_eq!(talent("Sword (2)").unwrap(), "Sword");
        assert_eq!(parse_talent("Sword (3)").unwrap().cost, 3);
        assert!(talent("Acute Hearing").unwrap_err().contains("(2)"));
        assert_eq!(talent("acute hearing (2)").unwrap(), "Acute Hearing (2)");
        assert!(talent("Sword (0)").is_err());
        assert!(talent("Sword (11)").is_err());
        assert!(talent("Juggling").is_err());
    }

    #[test]
    fn apply_changes_only_the_field_and_refuses_unknown_ones() {
        let mut sheet = Sheet::new(crate::store::guilds::System::Tft);
        apply(&mut sheet, "ST", "12").unwrap();
        apply(&mut sheet, "armor", "chain").unwrap();
        let before = sheet.clone();
        assert!(
            apply(&mut sheet, "st", "201")
                .unwrap_err()
                .contains("between 1 and 200")
        );
        assert!(apply(&mut sheet, "st", "0").is_err());
        assert!(apply(&mut sheet, "armor", "mithril").is_err());
        let err = apply(&mut sheet, "luck", "5").unwrap_err();
        assert!(err.contains("st, dx, iq"), "{err}");
        assert_eq!(sheet, before);
        let tft = before.tft().unwrap();
        assert_eq!((tft.st, tft.armor.as_deref()), (12, Some("Chainmail")));
        apply(&mut sheet, "armor", "none").unwrap();
        assert_eq!(sheet.tft().unwrap().armor, None);
    }

    #[test]
    fn text_limits() {
        assert!(text("notes", &"x".repeat(MAX_NOTES_CHARS), MAX_NOTES_CHARS).is_ok());
        assert!(text("notes", &"x".repeat(MAX_NOTES_CHARS + 1), MAX_NOTES_CHARS).is_err());
        assert_eq!(text("notes", "a  b\nc", 10).unwrap(), "a b\nc");
    }

    #[test]
    fn normalize_canonicalizes_and_names_the_field() {
        let sheet = Sheet::Thiz(ThizSheet {
            weaknesses: vec!["tic".into()],
            ..ThizSheet::default()
        });
        let Sheet::Thiz(s) = normalize(&sheet).unwrap() else {
            panic!("system changed")
        };
        assert_eq!(s.weaknesses, vec!["Tic"]);
        let bad = Sheet::Tft(TftSheet {
            st: 0,
            ..TftSheet::default()
        });
        assert!(normalize(&bad).unwrap_err().starts_with("sheet.st:"));
    }
}
