//! The registered commands against `app` and Discord: every `/help` path is a command and back,
//! option names, menus and number ranges are the ones `app` parses, and names, descriptions and
//! counts are within Discord's limits. Pure: the commands are read as the JSON Discord receives.

use std::collections::BTreeSet;

use serde_json::Value;

use super::all;
use crate::app::command::Command;
use crate::app::invocation::{Invocation, RollMode};
use crate::bot::choices;

/// Discord's option types, as they appear in the JSON.
const SUBCOMMAND: u64 = 1;
const SUBCOMMAND_GROUP: u64 = 2;
const STRING: u64 = 3;
const INTEGER: u64 = 4;
const BOOLEAN: u64 = 5;
/// The largest integer Discord takes (2^53 - 1).
const DISCORD_INTEGER_MAX: i64 = (1 << 53) - 1;

/// The commands as registered with Discord.
fn registered() -> Vec<Value> {
    let commands = poise::builtins::create_application_commands(&all());
    commands
        .iter()
        .map(|c| serde_json::to_value(c).expect("a command serializes"))
        .collect()
}

/// A command Discord runs: its path and its options.
struct Leaf {
    path: Vec<String>,
    options: Vec<Value>,
}

impl Leaf {
    fn path(&self) -> String {
        self.path.join(" ")
    }
}

fn options(v: &Value) -> Vec<Value> {
    v["options"].as_array().cloned().unwrap_or_default()
}

/// A bound of a number option (poise sends them as floats, like -40.0).
#[allow(clippy::cast_possible_truncation)] // the bounds are small whole numbers
fn bound(v: &Value, key: &str) -> Option<i64> {
    v[key].as_f64().map(|f| f as i64)
}

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

fn leaves() -> Vec<Leaf> {
    let mut out = Vec::new();
    for command in registered() {
        let name = text(&command, "name");
        let subs: Vec<Value> = options(&command)
            .into_iter()
            .filter(|o| o["type"] == SUBCOMMAND)
            .collect();
        if subs.is_empty() {
            out.push(Leaf {
                path: vec![name.clone()],
                options: options(&command),
            });
        }
        for sub in subs {
            out.push(Leaf {
                path: vec![name.clone(), text(&sub, "name")],
                options: options(&sub),
            });
        }
    }
    out
}

/// A value `app` accepts for an option, by its name and type; `flags` is every boolean's value
/// and `pick` the index of every menu's choice (its last when shorter).
fn plausible(option: &Value, flags: bool, pick: usize) -> String {
    let name = text(option, "name");
    // poise sends a menu as integer choices; the choice's name is what `app` parses.
    if let Some(choices) = option["choices"].as_array().filter(|c| !c.is_empty()) {
        return text(&choices[pick.min(choices.len() - 1)], "name");
    }
    match option["type"].as_u64() {
        Some(BOOLEAN) => return flags.to_string(),
        Some(INTEGER) => {
            let wanted = match name.as_str() {
                "dice" => 3,
                "rating" => 4,
                "target" => 12,
                _ => 1,
            };
            let min = bound(option, "min_value").unwrap_or(i64::MIN);
            let max = bound(option, "max_value").unwrap_or(i64::MAX);
            return wanted.clamp(min, max).to_string();
        }
        Some(7 | 8) => return "123".to_owned(),
        Some(11) => return "{}".to_owned(),
        _ => {}
    }
    match name.as_str() {
        "expression" => "2d6",
        "attacker" | "target" | "character" | "name" => "Vexa",
        "weapon" => "broadsword",
        "location" | "locations" => "head",
        "skill" => "Stealth",
        "attribute" => "dx",
        "job" => "Garrison",
        "talent" | "also" => "Sword",
        "spell" => "Levitate",
        "magic" => "Sleep",
        "field" => "st",
        "value" => "12",
        "key" => "countdown",
        "item" => "rope",
        "command" => "check",
        _ => "something",
    }
    .to_owned()
}

/// Parses `leaf` in `app` with the option sets a player might send, each with `overrides` set:
/// the required options only, every option, and every option but one; booleans all false, then
/// all true; each menu at its first choice, then its second, and so on. With `all_required`,
/// only the sets that hold every required option.
fn attempts(
    leaf: &Leaf,
    overrides: &[(&str, String)],
    all_required: bool,
) -> Vec<Result<(), String>> {
    let longest_menu = leaf
        .options
        .iter()
        .map(|o| o["choices"].as_array().map_or(0, Vec::len))
        .max()
        .unwrap_or(0)
        .max(1);
    let variants = [false, true]
        .into_iter()
        .flat_map(|flags| (0..longest_menu).map(move |pick| (flags, pick)));
    let mut out = Vec::new();
    for (flags, pick) in variants {
        let value = |o: &Value| {
            let name = text(o, "name");
            let given = overrides.iter().find(|(n, _)| *n == name);
            (
                name,
                given.map_or_else(|| plausible(o, flags, pick), |(_, v)| v.clone()),
            )
        };
        let overridden = |o: &Value| overrides.iter().any(|(n, _)| o["name"] == *n);
        let required = |o: &Value| o["required"] == true;
        let mut sets: Vec<Vec<&Value>> = vec![
            leaf.options
                .iter()
                .filter(|o| required(o) || overridden(o))
                .collect(),
            leaf.options.iter().collect(),
        ];
        // The required options with one optional one: menus whose choices each take a
        // different optional option (a luck stunt takes points and nothing else).
        for added in leaf
            .options
            .iter()
            .filter(|o| !required(o) && !overridden(o))
        {
            sets.push(
                leaf.options
                    .iter()
                    .filter(|o| required(o) || overridden(o) || std::ptr::eq(*o, added))
                    .collect(),
            );
        }
        for left_out in &leaf.options {
            if overridden(left_out) || (all_required && required(left_out)) {
                continue;
            }
            sets.push(
                leaf.options
                    .iter()
                    .filter(|o| !std::ptr::eq(*o, left_out))
                    .collect(),
            );
        }
        for set in sets {
            let options = set.into_iter().map(value).collect();
            let inv = Invocation {
                path: leaf.path.clone(),
                options,
            };
            out.push(Command::parse(&inv).map(|_| ()).map_err(|e| e.to_string()));
        }
    }
    out
}

/// The distinct refusals among `results`, for a failure message.
fn refusals(results: &[Result<(), String>]) -> BTreeSet<&str> {
    results
        .iter()
        .filter_map(|r| r.as_ref().err().map(String::as_str))
        .collect()
}

#[test]
fn every_help_path_is_registered_and_every_command_is_in_help() {
    let help: BTreeSet<String> = crate::app::help::WHO
        .iter()
        .flat_map(|(paths, _)| crate::app::help::expand(paths))
        .collect();
    let registered: BTreeSet<String> = leaves().iter().map(Leaf::path).collect();
    assert_eq!(registered, help);
    // Every command but /help works only in a server (app needs the guild).
    for command in registered_commands_but_help() {
        assert_eq!(command["contexts"], serde_json::json!([0]), "{command}");
    }
}

/// `/help` reads the commands from `src/app/help-catalogue.json`: it must be the registration.
/// `REFEREE_UPDATE_SNAPSHOTS=1 cargo test --locked --lib bot::commands` writes it again.
#[test]
fn the_help_catalogue_is_the_registration() {
    let docs = crate::app::help::from_registration(&registered());
    if std::env::var_os("REFEREE_UPDATE_SNAPSHOTS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/app/help-catalogue.json");
        let text = serde_json::to_string_pretty(&docs).expect("the catalogue serializes");
        std::fs::write(path, text + "\n").expect("write the catalogue");
        return;
    }
    assert_eq!(
        crate::app::help::catalogue(),
        docs.as_slice(),
        "src/app/help-catalogue.json is not the registration: run \
         REFEREE_UPDATE_SNAPSHOTS=1 cargo test --locked --lib bot::commands"
    );
}

/// The README's command tables list every registered command once, and nothing else: the first
/// code span of each row is a command (`/luck roll|show` names several subcommands).
#[test]
fn the_readme_lists_each_registered_command_once() {
    let readme = include_str!("../../../README.md");
    let mut listed: Vec<String> = Vec::new();
    for row in readme.lines().filter(|l| l.starts_with("| `/")) {
        let Some(span) = row.split('`').nth(1) else {
            continue;
        };
        let span = span.replace("\\|", "|");
        let words: Vec<&str> = span.trim_start_matches('/').split(' ').collect();
        let head = words[0];
        let registered_subs = leaves()
            .iter()
            .any(|l| l.path.len() > 1 && l.path[0] == head);
        match words.get(1) {
            Some(subs) if registered_subs => {
                listed.extend(subs.split('|').map(|s| format!("{head} {s}")));
            }
            _ => listed.push(head.to_owned()),
        }
    }
    let mut sorted = listed.clone();
    sorted.sort();
    let mut twice = sorted.clone();
    twice.dedup();
    let repeated: Vec<&String> = sorted
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| &w[0])
        .collect();
    assert!(repeated.is_empty(), "README.md lists twice: {repeated:?}");
    let registered: BTreeSet<String> = leaves().iter().map(Leaf::path).collect();
    let listed: BTreeSet<String> = twice.into_iter().collect();
    assert_eq!(
        listed.difference(&registered).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "README.md lists commands that are not registered"
    );
    assert_eq!(
        registered.difference(&listed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "README.md does not list these registered commands"
    );
}

fn registered_commands_but_help() -> Vec<Value> {
    registered()
        .into_iter()
        .filter(|c| c["name"] != "help")
        .collect()
}

/// Every command, subcommand and option in one list, each with where it sits.
fn everything() -> Vec<(String, Value)> {
    fn walk(at: &str, v: &Value, out: &mut Vec<(String, Value)>) {
        let here = format!("{at} {}", text(v, "name")).trim().to_owned();
        out.push((here.clone(), v.clone()));
        for o in options(v) {
            walk(&here, &o, out);
        }
    }
    let mut out = Vec::new();
    for command in registered() {
        walk("", &command, &mut out);
    }
    out
}

#[test]
fn names_and_descriptions_fit_discord() {
    let valid_name = |n: &str| {
        (1..=32).contains(&n.chars().count())
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    };
    for (at, v) in everything() {
        let name = text(&v, "name");
        let description = text(&v, "description");
        assert!(valid_name(&name), "{at}: name {name:?}");
        assert!(
            (1..=100).contains(&description.chars().count()),
            "{at}: description {description:?}"
        );
        assert!(
            !description.contains('`'),
            "{at}: plain words, no backticks"
        );
        let choices = v["choices"].as_array().map_or(0, Vec::len);
        assert!(choices <= 25, "{at}: {choices} choices");
        for choice in v["choices"].as_array().into_iter().flatten() {
            let n = text(choice, "name");
            assert!((1..=100).contains(&n.chars().count()), "{at}: choice {n:?}");
        }
        let count = options(&v).len();
        assert!(count <= 25, "{at}: {count} options");
        // Discord refuses a required option after an optional one.
        let required: Vec<bool> = options(&v).iter().map(|o| o["required"] == true).collect();
        assert!(
            required.windows(2).all(|w| w[0] || !w[1]),
            "{at}: required options come first"
        );
    }
}

#[test]
fn each_command_stays_within_discords_4000_characters() {
    fn chars(v: &Value) -> usize {
        let own = ["name", "description"]
            .iter()
            .map(|k| text(v, k).chars().count())
            .sum::<usize>();
        let choices: usize = v["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| text(c, "name").chars().count() + text(c, "value").chars().count())
            .sum();
        own + choices + options(v).iter().map(chars).sum::<usize>()
    }
    for command in registered() {
        let n = chars(&command);
        assert!(n <= 4000, "/{}: {n} characters", text(&command, "name"));
        assert!(n > 0);
    }
}

#[test]
fn option_names_are_the_ones_app_parses() {
    for leaf in leaves() {
        assert!(
            leaf.options
                .iter()
                .all(|o| o["type"] != SUBCOMMAND && o["type"] != SUBCOMMAND_GROUP),
            "{}: no deeper nesting",
            leaf.path()
        );
        for result in attempts(&leaf, &[], false) {
            if let Err(e) = result {
                assert!(!e.contains("has no option"), "/{}: {e}", leaf.path());
            }
        }
    }
}

#[test]
fn plausible_options_parse_in_app() {
    for leaf in leaves() {
        let results = attempts(&leaf, &[], false);
        assert!(
            results.iter().any(Result::is_ok),
            "/{}: nothing parses: {:?}",
            leaf.path(),
            refusals(&results)
        );
    }
}

#[test]
fn every_choice_is_a_value_app_parses() {
    let mut seen = 0;
    for leaf in leaves() {
        for option in &leaf.options {
            let name = text(option, "name");
            for choice in option["choices"].as_array().into_iter().flatten() {
                let value = text(choice, "name");
                let results = attempts(&leaf, &[(name.as_str(), value.clone())], false);
                assert!(
                    results.iter().any(Result::is_ok),
                    "/{} {name}:{value} does not parse: {:?}",
                    leaf.path(),
                    refusals(&results)
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 30, "only {seen} choices checked");
}

#[test]
fn number_ranges_are_app_ranges() {
    let mut checked = 0;
    for leaf in leaves() {
        for option in leaf
            .options
            .iter()
            .filter(|o| o["type"] == INTEGER && o["choices"].as_array().is_none_or(Vec::is_empty))
        {
            let name = text(option, "name");
            let at = format!("/{} {name}", leaf.path());
            let min = bound(option, "min_value").unwrap_or_else(|| panic!("{at} has a min"));
            let bounds = [Some(min), bound(option, "max_value")];
            for edge in bounds.into_iter().flatten() {
                let results = attempts(&leaf, &[(name.as_str(), edge.to_string())], false);
                assert!(
                    results.iter().any(Result::is_ok),
                    "{at}:{edge} is refused by app: {:?}",
                    refusals(&results)
                );
            }
            // Discord's own ceiling (2^53 - 1, which poise sets when no max is given) is no
            // range of app's.
            let max = bound(option, "max_value").filter(|&m| m < DISCORD_INTEGER_MAX);
            let beyond = [Some(min - 1), max.map(|m| m + 1)];
            for outside in beyond.into_iter().flatten() {
                let results = attempts(&leaf, &[(name.as_str(), outside.to_string())], true);
                assert!(
                    results.iter().all(Result::is_err),
                    "{at}:{outside} is accepted by app, so Discord's range is too narrow"
                );
                assert!(
                    results
                        .iter()
                        .any(|r| r.as_ref().is_err_and(|e| e.contains(&name))),
                    "{at}:{outside}: {:?}",
                    refusals(&results)
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} bounds checked");
}

#[test]
fn character_skill_weapon_and_location_options_autocomplete() {
    let mut seen = 0;
    for leaf in leaves() {
        for option in &leaf.options {
            let name = text(option, "name");
            let expected = match name.as_str() {
                "character" | "attacker" | "target" | "holder" | "healer" | "surgeon" | "skill"
                | "location" | "locations" => option["type"] == STRING,
                // A new NPC's weapons are a list typed for it, not a carried one to pick.
                "weapon" => option["type"] == STRING && leaf.path() != "encounter add",
                // The other weapon of a two-weapon attack, the location a shield covers.
                "pair" | "shield" => leaf.path() == "attack",
                // The list of characters a GM asks for a roll.
                "characters" => leaf.path() == "gm request",
                // TFT attack circumstances, and a sheet value (talents for a TFT sheet).
                "adjust" => leaf.path() == "tft attack",
                "value" | "field" => leaf.path() == "character set",
                // The NPC sheet an encounter copies.
                "npc" => leaf.path() == "encounter add",
                // A new character's name is not one to pick from; a saved roll's is, to show
                // or delete it.
                "name" => {
                    (leaf.path[0] == "character" && leaf.path() != "character create")
                        || matches!(leaf.path().as_str(), "alias show" | "alias delete")
                }
                // Saved rolls and recent rolls, where a roll is typed.
                "expression" => matches!(leaf.path().as_str(), "roll" | "gm roll"),
                _ => false,
            };
            assert_eq!(
                option["autocomplete"] == true,
                expected,
                "/{} {name}",
                leaf.path()
            );
            seen += usize::from(expected);
        }
    }
    assert!(seen >= 30, "only {seen} options autocomplete");
}

#[test]
fn the_menus_are_app_menus() {
    use poise::ChoiceParameter;
    for mode in choices::Mode::list().iter() {
        assert!(mode.name.parse::<RollMode>().is_ok(), "{}", mode.name);
    }
    for system in choices::System::list().iter() {
        assert!(crate::store::guilds::System::parse(&system.name).is_some());
    }
    for kind in choices::LuckKind::list().iter() {
        assert!(kind.name.parse::<crate::app::luck::SpendKind>().is_ok());
    }
    for kind in choices::ItemKind::list().iter() {
        assert!(crate::app::characters::ItemKind::parse(&kind.name).is_some());
    }
    let ours: BTreeSet<String> = choices::HouseRule::list()
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let apps: BTreeSet<String> = crate::app::house::HOUSE_RULES
        .iter()
        .map(|r| r.name.to_owned())
        .collect();
    assert_eq!(ours, apps, "every house rule, and only those");
    assert_eq!(choices::Mode::list().len(), RollMode::NAMES.len());
}

#[test]
fn typed_values_reach_app_under_their_names() {
    use poise::ChoiceParameter;
    // What a command builds from its typed parameters is what the console would type.
    let inv = crate::bot::invoke::Args::new()
        .choice("mode", Some(choices::Mode::SelfOnly))
        .choice("kind", None::<choices::ItemKind>)
        .opt("missile", Some(true))
        .opt("modifier", None::<i64>)
        .opt("points", 3_i64)
        .into_invocation(&["x"]);
    assert_eq!(
        inv.options,
        vec![
            ("mode".to_owned(), "self".to_owned()),
            ("missile".to_owned(), "true".to_owned()),
            ("points".to_owned(), "3".to_owned()),
        ]
    );
    assert_eq!(choices::Charge::OffCentre.name(), "off-centre");
}
