//! `/tft attack adjust:…`: the named circumstances of an attack that have no option of their
//! own (Discord caps a command's size, and `/tft` is near it), written as a comma-separated list
//! with autocomplete: "invisible, second-attack, aim:head, attackers:2".
//!
//! Owns the names and what each one asks of the rules (a DX adjustment, an aimed blow, a change
//! to the damage or the target's stops); [`suggestions`] offers them while the list is typed.
//! Every number comes from `rules::tft`; nothing here is a rule.

use crate::app::text::escape;
use crate::app::{AppResult, user};
use crate::rules::tft::attack::{Adjustment, Cestus};
use crate::rules::tft::gear::Wear;

/// Where an aimed blow is aimed (tft-rules-summary.md, "PRECISE ATTACKS", "OTHER ATTACKS").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    Head,
    /// The weapon hand (the hand of a thrown precise attack).
    Hand,
    /// The shield arm.
    Arm,
    Leg,
    Wing,
}

/// What one name asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A DX adjustment with no number of its own.
    Plain(Adjustment),
    /// The second attack of the turn (the Two Weapons talent is read from the sheet).
    SecondAttack,
    /// A named number: `attackers:N`, `large:N`, `widen:N`, `natural:N`.
    Count(Counted),
    GoodShot,
    ShootingTwice,
    /// On skis (the penalty hangs on the Skiing talent and the weapon, read by the caller).
    Skis,
    Halfling,
    ArmorWear(Wear),
    Pack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    ExtraAttackers,
    LargeTarget,
    Widen,
    Natural,
}

/// The names `adjust` accepts, with a few words each (the autocomplete list shows them).
const NAMES: &[(&str, Kind)] = &[
    ("second-attack", Kind::SecondAttack),
    ("cestus", Kind::Plain(Adjustment::Cestus(Cestus::Single))),
    ("cestus-pair", Kind::Plain(Adjustment::Cestus(Cestus::Pair))),
    ("upward", Kind::Plain(Adjustment::AttackingUpward)),
    ("downward", Kind::Plain(Adjustment::AttackingDownward)),
    ("dazzled", Kind::Plain(Adjustment::Dazzled)),
    ("hurt", Kind::Plain(Adjustment::HurtSinceLastAction)),
    ("bound", Kind::Plain(Adjustment::BoundByRope)),
    ("jab", Kind::Plain(Adjustment::TwoSpaceJab)),
    ("in-shadow", Kind::Plain(Adjustment::AttackerInShadow)),
    ("in-fire", Kind::Plain(Adjustment::AttackerInFire)),
    ("deep-water", Kind::Plain(Adjustment::AttackerInDeepWater)),
    ("half-hidden", Kind::Plain(Adjustment::AttackerHalfHidden)),
    ("wall-of-fire", Kind::Plain(Adjustment::WallOfFire)),
    ("snowshoes", Kind::Plain(Adjustment::SnowshoesVsFoeWithout)),
    ("skis", Kind::Skis),
    ("body-hex", Kind::Plain(Adjustment::SharingHexWithBody)),
    ("opportunity-fire", Kind::Plain(Adjustment::OpportunityFire)),
    ("target-shadow", Kind::Plain(Adjustment::TargetInShadow)),
    ("invisible", Kind::Plain(Adjustment::TargetInvisible)),
    ("blurred", Kind::Plain(Adjustment::TargetBlurred)),
    ("target-down", Kind::Plain(Adjustment::TargetDown)),
    ("prone", Kind::Plain(Adjustment::TargetHalfHiddenOrProne)),
    (
        "head-only",
        Kind::Plain(Adjustment::TargetHeadAndShouldersOnly),
    ),
    (
        "crossbow-support",
        Kind::Plain(Adjustment::CrossbowOnSupport),
    ),
    ("crossbow-prone", Kind::Plain(Adjustment::CrossbowProne)),
    ("fleeing", Kind::Plain(Adjustment::FleeingTarget)),
    ("bladeturn", Kind::Plain(Adjustment::Bladeturn)),
    ("attackers", Kind::Count(Counted::ExtraAttackers)),
    ("large", Kind::Count(Counted::LargeTarget)),
    ("widen", Kind::Count(Counted::Widen)),
    ("natural", Kind::Count(Counted::Natural)),
    ("good-shot", Kind::GoodShot),
    ("shooting-twice", Kind::ShootingTwice),
    ("halfling", Kind::Halfling),
    ("armor-worn", Kind::ArmorWear(Wear::Worn)),
    ("armor-battered", Kind::ArmorWear(Wear::Battered)),
    ("pack", Kind::Pack),
];

/// `aim:` values.
const AIMS: [(&str, Aim); 5] = [
    ("head", Aim::Head),
    ("hand", Aim::Hand),
    ("arm", Aim::Arm),
    ("leg", Aim::Leg),
    ("wing", Aim::Wing),
];

/// The most of any count (the attack rules' own limit on counted things).
const MAX_COUNT: i64 = 100;

/// Everything `adjust` asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // one flag per name the list may hold
pub struct Extras {
    /// DX adjustments as the rules name them.
    pub adjustments: Vec<Adjustment>,
    pub second_attack: bool,
    pub aim: Option<Aim>,
    /// Of a waiting bonus, how much is traded for wider double/triple ranges.
    pub widen: u32,
    pub good_shot: bool,
    pub shooting_twice: bool,
    /// The attacker fights on skis.
    pub skis: bool,
    pub halfling: bool,
    /// The target's natural armor (or Stone/Iron Flesh).
    pub natural: i32,
    pub armor_wear: Wear,
    pub pack: bool,
}

/// Reads the comma-separated list; an unknown or repeated name is refused, naming the list.
pub fn parse(text: &str) -> AppResult<Extras> {
    let mut out = Extras::default();
    let mut seen: Vec<String> = Vec::new();
    for raw in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let lower = raw.to_ascii_lowercase();
        let (name, value) = match lower.split_once(':') {
            Some((n, v)) => (n.trim().to_owned(), Some(v.trim().to_owned())),
            None => (lower.clone(), None),
        };
        if seen.contains(&name) {
            return Err(user(format!(
                "adjust names {} twice; give each circumstance once.",
                escape(&name)
            )));
        }
        seen.push(name.clone());
        if name == "aim" {
            let v = value.unwrap_or_default();
            out.aim = Some(
                AIMS.iter()
                    .find(|(n, _)| *n == v)
                    .map(|(_, a)| *a)
                    .ok_or_else(|| {
                        user(format!(
                            "aim takes head, hand, arm, leg or wing, like aim:head; you gave \"{}\".",
                            escape(&v)
                        ))
                    })?,
            );
            continue;
        }
        let Some(&(_, kind)) = NAMES.iter().find(|(n, _)| *n == name) else {
            // The nearest names first (issue 34), then the whole list.
            let near = crate::app::text::did_you_mean(&name, NAMES.iter().map(|(n, _)| *n));
            return Err(user(format!(
                "adjust has no \"{}\".{near} It takes {}, aim:head|hand|arm|leg|wing, separated by commas.",
                escape(raw),
                listing()
            )));
        };
        let count = || -> AppResult<u32> {
            let v = value.as_deref().unwrap_or("");
            v.parse::<i64>()
                .ok()
                .filter(|n| (1..=MAX_COUNT).contains(n))
                .map(|n| n as u32)
                .ok_or_else(|| {
                    user(format!(
                        "{name} takes a number from 1 to {MAX_COUNT}, like {name}:2; you gave \"{}\".",
                        escape(v)
                    ))
                })
        };
        if value.is_some() && !matches!(kind, Kind::Count(_)) {
            return Err(user(format!("{name} takes no number; write it as {name}.")));
        }
        match kind {
            Kind::Plain(a) => out.adjustments.push(a),
            Kind::SecondAttack => out.second_attack = true,
            Kind::Count(Counted::ExtraAttackers) => {
                out.adjustments.push(Adjustment::ExtraAttackers(count()?));
            }
            Kind::Count(Counted::LargeTarget) => {
                out.adjustments
                    .push(Adjustment::LargeTarget { spaces: count()? });
            }
            Kind::Count(Counted::Widen) => out.widen = count()?,
            Kind::Count(Counted::Natural) => out.natural = count()? as i32,
            Kind::GoodShot => out.good_shot = true,
            Kind::ShootingTwice => out.shooting_twice = true,
            Kind::Skis => out.skis = true,
            Kind::Halfling => out.halfling = true,
            Kind::ArmorWear(w) => out.armor_wear = w,
            Kind::Pack => out.pack = true,
        }
    }
    Ok(out)
}

fn listing() -> String {
    NAMES
        .iter()
        .map(|(n, k)| match k {
            Kind::Count(_) => format!("{n}:N"),
            _ => (*n).to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every value autocomplete may offer for one entry: the plain names, `name:1` for the counted
/// ones, and each aim.
fn entries() -> Vec<String> {
    let mut out: Vec<String> = NAMES
        .iter()
        .map(|(n, k)| match k {
            Kind::Count(_) => format!("{n}:1"),
            _ => (*n).to_owned(),
        })
        .collect();
    out.extend(AIMS.iter().map(|(n, _)| format!("aim:{n}")));
    out
}

/// Autocomplete for `adjust`: the entries already written are kept, and the one being typed is
/// completed from the names (prefix matches first). At most 25, each at most 100 characters.
pub fn suggestions(typed: &str) -> Vec<String> {
    let (done, current) = match typed.rfind(',') {
        Some(i) => (typed[..i].trim(), typed[i + 1..].trim()),
        None => ("", typed.trim()),
    };
    let current = current.to_ascii_lowercase();
    let written: Vec<String> = done
        .split(',')
        .map(|s| {
            let s = s.trim().to_ascii_lowercase();
            s.split(':').next().unwrap_or("").to_owned()
        })
        .collect();
    let all = entries();
    let fresh = |e: &&String| {
        !written
            .iter()
            .any(|w| Some(w.as_str()) == e.split(':').next())
    };
    let (mut prefix, inner): (Vec<&String>, Vec<&String>) = all
        .iter()
        .filter(fresh)
        .filter(|e| e.contains(current.as_str()))
        .partition(|e| e.starts_with(current.as_str()));
    prefix.extend(inner);
    prefix
        .into_iter()
        .map(|e| {
            if done.is_empty() {
                e.clone()
            } else {
                format!("{done}, {e}")
            }
        })
        .filter(|s| s.chars().count() <= 100)
        .take(25)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_what_they_say() {
        let e = parse("Invisible, second-attack , aim:head, attackers:2, natural:3, armor-worn")
            .unwrap();
        assert_eq!(
            e.adjustments,
            [Adjustment::TargetInvisible, Adjustment::ExtraAttackers(2)]
        );
        assert!(e.second_attack);
        assert_eq!(e.aim, Some(Aim::Head));
        assert_eq!((e.natural, e.armor_wear), (3, Wear::Worn));
        assert_eq!(parse("").unwrap(), Extras::default());
    }

    #[test]
    fn bad_lists_are_refused_in_one_line() {
        for (text, says) in [
            ("flying", "adjust has no \"flying\""),
            // Issue 34: a misspelling names the nearest (an edit, a transposition, a prefix).
            ("invisble", "Did you mean invisible?"),
            ("invisilbe", "Did you mean invisible?"),
            ("cestus-pai", "Did you mean cestus\\-pair?"),
            ("invisible, invisible", "twice"),
            ("attackers", "from 1 to 100"),
            ("attackers:0", "from 1 to 100"),
            ("attackers:101", "from 1 to 100"),
            ("aim:foot", "aim takes head"),
            ("invisible:2", "takes no number"),
        ] {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
            assert!(!err.contains('\n'));
        }
        assert!(parse("attackers:100").is_ok());
        assert!(parse("attackers:1").is_ok());
    }

    #[test]
    fn every_suggestion_parses() {
        for e in entries() {
            assert!(parse(&e).is_ok(), "{e}");
        }
        let s = suggestions("invisible, aim:h");
        assert_eq!(s.first().map(String::as_str), Some("invisible, aim:head"));
        assert!(s.iter().all(|x| parse(x).is_ok()), "{s:?}");
        // A name already written is not offered again.
        assert!(
            !suggestions("invisible, inv")
                .iter()
                .any(|x| x.ends_with("invisible, invisible"))
        );
        assert_eq!(suggestions("").len(), 25);
    }
}
