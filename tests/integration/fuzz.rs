//! Random input through `app`, the way a curious or hostile player would type it (guide,
//! "Bad input gets a clear, ephemeral answer and changes nothing"; SPEC §3 on secrets).
//!
//! Each case starts from the sentinel world of the secrecy sweep and runs a random sequence of
//! commands. The commands and their options come from the registered command list
//! (`e2e/commands.snapshot.json`), so a new command or option is fuzzed without touching this
//! file. Values are drawn from pools per option type: the names in the world, names nobody has,
//! boundary numbers and numbers out of range, markup and mentions, empty and very long text,
//! broken and near-valid import files, plus random text and numbers. Some steps add an option
//! the command does not have, or garble the path; some press a luck button (real and made-up
//! roll ids) or ask for autocomplete instead.
//!
//! After every step:
//! - no panic, and never "Something went wrong" (bad input is the user's error, not ours);
//! - autocomplete offers at most 25 values of at most 100 characters, writes nothing, and
//!   offers a player no secret (never the NPC's name in a character menu, whatever they typed);
//! - a refusal is ephemeral and leaves every table of the database exactly as it was;
//! - for a player: no hidden value of the world appears in anything they receive. A sentinel
//!   the inputs themselves typed (the NPC's name, say) is no longer a secret from then on and is
//!   left out of the scan for the rest of the case.

use std::fmt::Write as _;
use std::sync::LazyLock;

use proptest::prelude::*;
use referee::app::invocation::Invocation;
use referee::app::reply::Visibility;
use referee::app::suggest::{Suggest, SuggestContext};
use referee::app::{Caller, Reply};
use serde_json::Value;

use crate::secrecy::{NPC, SENTINELS, World, scan};

/// A registered option: its name, Discord option type, choice names, and whether it is required.
struct Opt {
    name: String,
    kind: u64,
    choices: Vec<String>,
    required: bool,
}

/// A registered command: its path and its options.
struct Leaf {
    path: Vec<String>,
    options: Vec<Opt>,
}

/// Every leaf command of the registration snapshot.
static CATALOGUE: LazyLock<Vec<Leaf>> = LazyLock::new(|| {
    let all: Vec<Value> = serde_json::from_str(include_str!("e2e/commands.snapshot.json"))
        .expect("the registration snapshot is JSON");
    let mut out = Vec::new();
    for c in &all {
        walk(
            c,
            vec![c["name"].as_str().unwrap_or_default().to_owned()],
            &mut out,
        );
    }
    out
});

fn walk(c: &Value, path: Vec<String>, out: &mut Vec<Leaf>) {
    let options = c["options"].as_array().cloned().unwrap_or_default();
    // Types 1 and 2 are subcommands and subcommand groups.
    let subs: Vec<&Value> = options
        .iter()
        .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        .collect();
    if subs.is_empty() {
        let options = options
            .iter()
            .map(|o| {
                let choices = o["choices"]
                    .as_array()
                    .map(|cs| {
                        cs.iter()
                            .filter_map(|ch| ch["name"].as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
                Opt {
                    name: o["name"].as_str().unwrap_or_default().to_owned(),
                    kind: o["type"].as_u64().unwrap_or(3),
                    choices,
                    required: o["required"].as_bool().unwrap_or(false),
                }
            })
            .collect();
        out.push(Leaf { path, options });
    } else {
        for s in subs {
            let mut p = path.clone();
            p.push(s["name"].as_str().unwrap_or_default().to_owned());
            walk(s, p, out);
        }
    }
}

/// The channel every step is typed in.
const CHANNEL: u64 = 42;

/// Marks a pool entry to be replaced by the step's random text or number.
const FREE: &str = "\u{0}free";

const TEXTS: &[&str] = &[
    "Alys",
    "Bram",
    "Tor",
    NPC,
    "alys",
    "  Tor  ",
    "Qxqxnobody",
    "Swimming",
    "Toughness",
    "swimming",
    "Broadsword",
    "Dagger",
    "Head",
    "left arm",
    "Torso",
    "",
    "   ",
    "@everyone",
    "<@&5>",
    "<@10>",
    "**bold**",
    "`tick`",
    "||spoiler||",
    "\u{200b}",
    "Ωmega ✓",
    "2d6+1",
    "d%",
    "4d6kh3",
    "3d6!",
    "1d2",
    "999d999",
    "1d0",
    "(",
    "1d6+",
    "-5",
    "0",
    "ST",
    "DX",
    "IQ",
    "Homeland",
    "notes",
    "sleepless",
    "luck",
    "a\nb",
    FREE,
    FREE,
    FREE,
];
const INTS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "4",
    "5",
    "9",
    "10",
    "12",
    "40",
    "41",
    "-40",
    "-41",
    "100",
    "101",
    "1000",
    "-1000",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "4.5",
    "+2",
    "x",
    "",
    " 7 ",
    FREE,
    FREE,
];
const CHARACTERS: &[&str] = &["Alys", "Bram", "Tor", NPC, "tor", "Qxqxnobody", FREE];
/// `/gm request characters:` lists.
const CHARACTER_LISTS: &[&str] = &[
    "Alys, Bram",
    "Alys",
    "Tor",
    "everyone",
    "Alys, Zorvakhnpc",
    "Bram,,Alys",
    ",",
    "Alys, Qxqxnobody",
    FREE,
];
const SKILLS: &[&str] = &[
    "Swimming",
    "Toughness",
    "Climbing",
    "swimming",
    "Nope",
    "",
    FREE,
];
const DICE: &[&str] = &[
    "2d6+1", "1d100", "d%", "4d6kh3", "3d6!", "1d2+3", "2d6-1d4", "1000d6", "1d0", "1d", "d", "",
    "(1d6", "1d6*2", FREE,
];
const LOCATIONS: &[&str] = &[
    "Head",
    "Torso",
    "Gut",
    "Left Arm",
    "right leg",
    "tail",
    "",
    FREE,
];
const WEAPONS: &[&str] = &["Broadsword", "Dagger", "Mace", "Club", "", FREE];
const ADJUSTS: &[&str] = &[
    "invisible, aim:head",
    "second-attack, attackers:2",
    "widen:1",
    "good-shot, shooting-twice",
    "natural:3, armor-worn, pack, halfling",
    "flying",
    "attackers:0",
    "",
    FREE,
];
const SPELLS: &[&str] = &[
    "Light",
    "Bladeturn",
    "Fireball",
    "2d-2",
    "1d",
    "0d",
    "",
    FREE,
];
const ATTRIBUTES: &[&str] = &["st", "dx", "iq", "DX", "12", "0", "luck", FREE];
const SMALL: &[&str] = &["0", "1", "2", "3", "4", "-1", "-3", "7", "12", "20", FREE];

/// The pool made for an option of this name, if there is one.
fn fitting(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "character" | "name" | "attacker" | "target" | "helper" | "healer" | "surgeon"
        | "figure" | "npc" => CHARACTERS,
        "characters" => CHARACTER_LISTS,
        "skill" => SKILLS,
        "expression" => DICE,
        "location" | "locations" => LOCATIONS,
        "weapon" | "item" => WEAPONS,
        "attribute" => ATTRIBUTES,
        "adjust" => ADJUSTS,
        "spell" | "damage" => SPELLS,
        "rating" | "modifier" | "points" | "dice" | "days" | "count" | "roll" | "range"
        | "prior" | "actions" | "wait" | "potions" | "minutes" | "attack_bonus" | "armor_bonus" => {
            SMALL
        }
        _ => return None,
    })
}

const BOOLS: &[&str] = &["true", "false", "True", "yes", "1", "maybe", ""];
const IDS: &[&str] = &["5", "123456789012345678", "0", "-1", "none", "abc", ""];
const FILES: &[&str] = &[
    "{not json",
    "[1, 2]",
    "{}",
    "null",
    "{\"version\": 1}",
    "{\"version\": 99, \"name\": \"X\", \"system\": \"thiz\"}",
    "{\"version\": 1, \"name\": \"\", \"system\": \"tft\"}",
    FREE,
];

/// One step: who, which command, which options with which values, and how to garble it.
#[derive(Debug, Clone)]
struct Step {
    who: u8,
    leaf: u16,
    /// Per option: whether to give it (even = yes) and which pool entry.
    picks: Vec<(u8, u16)>,
    /// 0..=12 as is; 13 adds an unknown option; 14 drops the last path segment; 15 adds one;
    /// 16 presses a luck, dying or roll request button instead; 17 asks for autocomplete instead.
    garble: u8,
    text: String,
    number: i64,
}

fn step() -> impl Strategy<Value = Step> {
    (
        any::<u8>(),
        any::<u16>(),
        prop::collection::vec((any::<u8>(), any::<u16>()), 14),
        0_u8..18,
        "\\PC{0,30}",
        any::<i64>(),
    )
        .prop_map(|(who, leaf, picks, garble, text, number)| Step {
            who,
            leaf,
            picks,
            garble,
            text,
            number,
        })
}

impl Step {
    /// The invocation this step types. `exported` is a real export file of the world, which
    /// near-valid import files are made from.
    fn invocation(&self, exported: &str) -> Invocation {
        let leaf = &CATALOGUE[usize::from(self.leaf) % CATALOGUE.len()];
        let mut path = leaf.path.clone();
        let mut options = Vec::new();
        for (i, opt) in leaf.options.iter().enumerate() {
            let (give, pick) = self.picks.get(i).copied().unwrap_or((0, 0));
            // A required option is left out now and then, an optional one about half the time.
            if give % if opt.required { 16 } else { 2 } == 1 {
                continue;
            }
            let (choices, pick) = (&opt.choices, usize::from(pick));
            // Most of the time a value made for this option's name, else any of its type.
            let fitting = if give % 4 == 0 {
                None
            } else {
                fitting(&opt.name)
            };
            let value = match opt.kind {
                _ if !choices.is_empty() => {
                    let n = choices.len() + 2;
                    match pick % n {
                        k if k < choices.len() => choices[k].clone(),
                        k if k == choices.len() => "nope".to_owned(),
                        _ => String::new(),
                    }
                }
                4 | 10 => self.pooled(fitting.unwrap_or(INTS), pick),
                5 => self.pooled(BOOLS, pick),
                7 | 8 => self.pooled(IDS, pick),
                11 => match pick % (FILES.len() + 2) {
                    k if k < FILES.len() => self.pooled(&FILES[k..=k], 0),
                    k if k == FILES.len() => exported.to_owned(),
                    // A real export with the name replaced by random text.
                    _ => exported.replacen("\"Tor\"", &serde_json::json!(self.text).to_string(), 1),
                },
                _ => self.pooled(fitting.unwrap_or(TEXTS), pick),
            };
            options.push((opt.name.clone(), value));
        }
        if self.garble == 16 {
            // A luck, dying, request, notice or delete button, as Discord would deliver its custom id:
            // real and made-up roll and character ids.
            let (kind, n) = self.picks[0];
            let kind = [
                "reroll",
                "toughness",
                "wound",
                "stunt",
                "",
                "lower:1:3",
                "lower:2:9",
                "dying",
                "req",
                "see",
                "chardel",
            ][usize::from(kind) % 11];
            let roll = self.pooled(SMALL, usize::from(n));
            let id = match (kind, n % 5) {
                // The encounter's status buttons, on real and stale versions.
                ("", 0) => format!("enc:next:{}", self.text),
                ("", 1) => format!("enc:next:{roll}"),
                ("", 2) => format!("enc:attack:{roll}"),
                ("", 3) => format!("enc:end:{roll}"),
                // A target button: as made now (turn count and attacks so far, issue 32), and
                // the older form without them.
                ("", 4) if self.number % 2 == 0 => {
                    format!("enc:hit:{roll}:{roll}:{roll}:{}", self.number.rem_euclid(3))
                }
                ("", 4) => format!("enc:hit:{roll}:{roll}"),
                ("dying", 1) => format!("enc:dying:{roll}"),
                ("dying", 0) => format!("dying:{}", self.text),
                ("dying", _) => format!("dying:{roll}"),
                // A roll request's button: the world's requests 1 and 2, and made-up ones.
                ("req", 0) => format!("req:{roll}:close"),
                ("req", 1) => format!("req:{}", self.text),
                ("req", _) => format!("req:{}:{roll}", n % 3),
                // A private attack's notice: real and made-up rolls, and garbage.
                ("see", 0) => format!("see:{}", self.text),
                ("see", _) => format!("see:{roll}"),
                // The delete confirmation: real and made-up characters, keep, and garbage.
                ("chardel", 0) => format!("chardel:{}", self.text),
                ("chardel", 1) => format!("chardel:{roll}:keep"),
                ("chardel", 2) => format!("chardel:{roll}:{}", self.text),
                ("chardel", _) => format!("chardel:{roll}"),
                (_, 0) => format!("luck:{kind}:{}", self.text),
                (_, 1) => format!("luck:{kind}:{roll}:{roll}"),
                _ => format!("luck:{kind}:{roll}"),
            };
            return Invocation::new(&["button"], &[("id", &id)]);
        }
        match self.garble {
            13 => options.push(("bogus".to_owned(), self.text.clone())),
            14 if path.len() > 1 => {
                path.pop();
            }
            15 => path.push(self.text.clone()),
            _ => {}
        }
        Invocation { path, options }
    }

    /// The autocomplete request of an autocomplete step: what is completed, the text typed so
    /// far, and the character option typed beside it.
    fn suggestion(&self) -> (Suggest, String, Option<String>) {
        let (what, typed) = self.picks[0];
        let (with, character) = self.picks[1];
        let what = [
            Suggest::Character,
            Suggest::Skill,
            Suggest::Weapon,
            Suggest::Location,
            Suggest::Deleted,
            Suggest::Alias,
            Suggest::Expression,
        ][usize::from(what) % 7];
        let pool = match what {
            Suggest::Character | Suggest::Deleted | Suggest::Alias => CHARACTERS,
            Suggest::Skill => SKILLS,
            Suggest::Weapon => WEAPONS,
            Suggest::Location => LOCATIONS,
            Suggest::Expression => DICE,
        };
        let mut typed = self.pooled(pool, usize::from(typed));
        // Often only the start of it, as typed while the menu is open.
        typed.truncate(
            typed
                .char_indices()
                .nth(usize::from(with % 4) + 1)
                .map_or(typed.len(), |(i, _)| i),
        );
        let character = (with % 2 == 0).then(|| self.pooled(CHARACTERS, usize::from(character)));
        (what, typed, character)
    }

    fn pooled(&self, pool: &[&str], pick: usize) -> String {
        match pool[pick % pool.len()] {
            FREE if pool == INTS => self.number.to_string(),
            FREE if pool == SMALL => (self.number % 50).to_string(),
            FREE => self.text.clone(),
            v => v.to_owned(),
        }
    }
}

/// Every row of every table, in a stable order: equal strings mean an unchanged database.
fn snapshot(w: &World) -> String {
    let conn = rusqlite::Connection::open(w.app.store().path()).expect("open a second connection");
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
        })
        .expect("list tables");
    tables.retain(|t| !t.starts_with("sqlite_"));
    let mut out = String::new();
    for t in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{t}\""))
            .expect("select all");
        let columns = stmt.column_count();
        let mut rows: Vec<String> = stmt
            .query_map([], |r| {
                let mut row = String::new();
                for i in 0..columns {
                    let _ = write!(row, "{:?}|", r.get_ref(i)?);
                }
                Ok(row)
            })
            .and_then(Iterator::collect)
            .expect("read rows");
        rows.sort();
        out.push_str(&t);
        out.push('\n');
        out.push_str(&rows.join("\n"));
        out.push('\n');
    }
    out
}

/// Runs `steps` on a fresh sentinel world. `players_only` keeps the GM out, so every reply can
/// be scanned for sentinels.
fn run_case(steps: &[Step], players_only: bool) -> Result<(), TestCaseError> {
    let w = World::seeded();
    let exported = {
        let r = w.run(&w.alys, &["character", "export"], &[("name", "Tor")]);
        r.content
            .strip_prefix("```json\n")
            .and_then(|s| s.strip_suffix("\n```"))
            .unwrap_or_default()
            .to_owned()
    };
    prop_assert!(exported.contains("\"Tor\""), "no export to mutate");
    let mut tainted: Vec<&str> = Vec::new();
    let mut before = snapshot(&w);
    for (n, step) in steps.iter().enumerate() {
        let who: &Caller = match step.who % if players_only { 2 } else { 3 } {
            0 => &w.alys,
            1 => &w.bram,
            _ => &w.gm,
        };
        if step.garble == 17 {
            let (what, typed, character) = step.suggestion();
            let leaf = &CATALOGUE[usize::from(step.leaf) % CATALOGUE.len()];
            let command: Vec<&str> = leaf.path.iter().map(String::as_str).collect();
            let context = SuggestContext {
                character: character.as_deref(),
                command: &command,
            };
            let offered = w.app.suggest(who, what, &typed, &context);
            let asked = format!("{what:?} {typed:?} beside {character:?} in {command:?}");
            prop_assert!(
                offered.len() <= 25,
                "{} suggestions for {asked}",
                offered.len()
            );
            for value in &offered {
                prop_assert!(
                    value.chars().count() <= 100,
                    "{value:?} is too long, for {asked}"
                );
                // What was typed into the menu is no reason to offer a secret. No player's
                // character can take the NPC's name (names are unique), so a character menu must
                // never offer it, whatever earlier steps typed.
                let leaks: Vec<_> = scan(value)
                    .into_iter()
                    .filter(|s| !tainted.contains(s) || (*s == NPC && what == Suggest::Character))
                    .collect();
                prop_assert!(
                    !players_only || leaks.is_empty(),
                    "{leaks:?} offered to user {} for {asked}",
                    who.user
                );
            }
            prop_assert!(
                snapshot(&w) == before,
                "autocomplete changed the database: {asked}"
            );
            continue;
        }
        let inv = step.invocation(&exported);
        let typed = format!("{inv:?}");
        tainted.extend(SENTINELS.iter().filter(|s| typed.contains(*s)));
        // In a channel, so the encounter commands (and the rolls that know one) run for real.
        let result = w.app.run_in(Some(CHANNEL), who, &format!("fuzz-{n}"), &inv);
        let (ok, reply): (bool, Reply) = match result {
            Ok(r) => (true, r),
            Err(r) => (false, r),
        };
        let text = reply.caller_text();
        prop_assert!(
            !text.contains("Something went wrong"),
            "internal error for {typed} as user {}: {text}",
            who.user
        );
        if ok {
            before = snapshot(&w);
        } else {
            prop_assert_eq!(
                reply.visibility,
                Visibility::Ephemeral,
                "a refusal in public: {} -> {}",
                typed,
                text
            );
            let after = snapshot(&w);
            prop_assert!(
                after == before,
                "a refused {typed} changed the database: {text}"
            );
        }
        if players_only {
            let leaks: Vec<_> = scan(&text)
                .into_iter()
                .filter(|s| !tainted.contains(s))
                .collect();
            prop_assert!(
                leaks.is_empty(),
                "{leaks:?} leaked to user {} by {typed}: {text}",
                who.user
            );
        }
    }
    Ok(())
}

proptest! {
    // Each case builds a world on disk; 48 cases of up to 24 steps take a few seconds.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn players_typing_anything_get_clean_answers_and_no_secret(
        steps in prop::collection::vec(step(), 1..24)
    ) {
        run_case(&steps, true)?;
    }

    #[test]
    fn anyone_typing_anything_gets_a_clean_answer_and_a_refusal_changes_nothing(
        steps in prop::collection::vec(step(), 1..24)
    ) {
        run_case(&steps, false)?;
    }
}

/// The catalogue really is the registered command list, so the fuzz reaches every command.
#[test]
fn the_catalogue_holds_every_registered_command() {
    let paths: Vec<String> = CATALOGUE.iter().map(|l| l.path.join(" ")).collect();
    for expected in [
        "roll",
        "check",
        "tft attack",
        "luck spend",
        "character import",
        "gm roll",
        "gm request",
        "gm check",
        "reveal",
        "wound dying",
        "wound firstaid",
        "wound surgery",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "{expected} missing from {paths:?}"
        );
    }
    assert!(CATALOGUE.len() >= 35, "{} commands", CATALOGUE.len());
}
