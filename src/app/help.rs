//! `/help`: a short "start here" page, a page per family of commands, and a page for every
//! command and subcommand with each option — ephemeral, with buttons to move between pages.
//!
//! What the commands are and what their options mean is read from the registered commands
//! themselves: `help-catalogue.json` is the registration boiled down to names, descriptions,
//! options and choices, and a test in `bot::commands` holds it equal to what Discord receives
//! (`REFEREE_UPDATE_SNAPSHOTS=1` writes it again). What is written here is what the registration
//! does not say: who may use each command, the families, and the start page.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::invocation::{Invocation, Opts};
use super::reply::{Button, Embed, Field, Reply, Tone};
use super::{AppResult, Ctx, user};

/// A registered command or subcommand: what `/help` knows of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandDoc {
    pub name: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subcommands: Vec<CommandDoc>,
}

/// One option of a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionDoc {
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub required: bool,
    /// The menu's entries, when the option has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
}

/// Discord's option types for a subcommand and a group of them.
const SUBCOMMAND: u64 = 1;
const SUBCOMMAND_GROUP: u64 = 2;

/// The catalogue from commands as Discord receives them (the JSON of a registration).
pub fn from_registration(commands: &[Value]) -> Vec<CommandDoc> {
    fn text(v: &Value, key: &str) -> String {
        v[key].as_str().unwrap_or_default().to_owned()
    }
    fn doc(v: &Value) -> CommandDoc {
        let mut out = CommandDoc {
            name: text(v, "name"),
            description: text(v, "description"),
            options: Vec::new(),
            subcommands: Vec::new(),
        };
        for o in v["options"].as_array().into_iter().flatten() {
            match o["type"].as_u64() {
                Some(SUBCOMMAND | SUBCOMMAND_GROUP) => out.subcommands.push(doc(o)),
                _ => out.options.push(OptionDoc {
                    name: text(o, "name"),
                    description: text(o, "description"),
                    required: o["required"].as_bool().unwrap_or(false),
                    choices: o["choices"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|c| text(c, "name"))
                        .collect(),
                }),
            }
        }
        out
    }
    commands.iter().map(doc).collect()
}

/// The registered commands, as `help-catalogue.json` has them.
pub fn catalogue() -> &'static [CommandDoc] {
    static CATALOGUE: OnceLock<Vec<CommandDoc>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        // A test parses the file and holds it to the registration, so this does not fail.
        serde_json::from_str(include_str!("help-catalogue.json")).unwrap_or_default()
    })
}

/// A command Discord runs: its path ("tft attack") and its definition.
pub fn leaves() -> Vec<(String, &'static CommandDoc)> {
    let mut out = Vec::new();
    for command in catalogue() {
        if command.subcommands.is_empty() {
            out.push((command.name.clone(), command));
        }
        for sub in &command.subcommands {
            out.push((format!("{} {}", command.name, sub.name), sub));
        }
    }
    out
}

/// Who may use each command, by path; `a|b` after the command names several subcommands. A test
/// holds this to the registered commands: each one here exactly once.
pub const WHO: &[(&str, &str)] = &[
    ("roll", "anyone"),
    ("alias list|show", "anyone"),
    (
        "alias set|delete",
        "anyone for their own; a GM for the server's (server:true)",
    ),
    ("check", "player, GM"),
    ("attack", "player, GM"),
    (
        "maneuver grapple|escape|trip|disarm|sunder|listen",
        "player, GM",
    ),
    ("tft save|attack|hth|bash|stand|reaction", "player, GM"),
    ("tft dying|job|repair|condition", "GM"),
    ("tft heal", "GM; an owner for their own figure's potions"),
    ("tftkit check|actions|miss|cast", "player, GM"),
    ("tftkit pickup|staff", "owner, GM"),
    ("tftkit gear", "anyone"),
    ("tftref study|ski", "player, GM"),
    ("tftref called|spell|mount|price|time", "anyone"),
    ("odds thiz|tft|dice", "anyone"),
    ("luck spend", "the character's owner"),
    ("luck roll|show|award|set|log", "GM"),
    ("character create|show|list|validate", "anyone (an NPC: GM)"),
    ("character use", "owner, GM"),
    ("character set|skill|gear|delete|export|import", "owner, GM"),
    ("character restore|approve", "GM"),
    ("wound add|heal", "GM"),
    ("wound rest|dying", "owner, GM"),
    ("wound firstaid|surgery", "the healer's owner, GM"),
    ("hazard fall|fire|water|suffocation|poison", "player, GM"),
    ("magic cast|target|terror|learn", "player, GM"),
    (
        "move rate|climb|travel|animal|spot|pilot|chase|near|collide|crash",
        "player, GM",
    ),
    ("advance spend|train|craft|work", "owner, GM"),
    ("advance points|sleepless", "GM"),
    ("gm setup", "Manage Server"),
    ("gm rules|hidden|note|roll|request|check", "GM"),
    ("reveal", "GM"),
    ("npc save|list|show|delete", "GM"),
    ("history", "anyone"),
    ("help", "anyone"),
    ("encounter start|remove|undo|move|timer|end", "GM"),
    (
        "encounter add|declare|next|act",
        "GM; a player for their own character",
    ),
    ("encounter show", "anyone; a GM sees the numbers"),
];

/// Who may use the command at `path`.
pub fn who(path: &str) -> Option<&'static str> {
    WHO.iter()
        .find(|(paths, _)| expand(paths).iter().any(|p| p == path))
        .map(|(_, who)| *who)
}

/// `tft save|attack` gives `tft save` and `tft attack`; `roll` gives `roll`.
pub fn expand(paths: &str) -> Vec<String> {
    match paths.split_once(' ') {
        None => vec![paths.to_owned()],
        Some((head, subs)) => subs.split('|').map(|s| format!("{head} {s}")).collect(),
    }
}

/// A page of help with its commands: the families, in the order of the buttons.
pub struct Family {
    pub key: &'static str,
    pub label: &'static str,
    pub about: &'static str,
    pub commands: &'static [&'static str],
}

pub const FAMILIES: &[Family] = &[
    Family {
        key: "dice",
        label: "Dice",
        about: "Rolls anyone can make, saved rolls, exact odds, the roll log, and this help.",
        commands: &["roll", "alias", "odds", "history", "help"],
    },
    Family {
        key: "characters",
        label: "Characters",
        about: "Sheets for THIZ and TFT, and luck: a number only the GM sees, that the owner spends.",
        commands: &["character", "luck"],
    },
    Family {
        key: "thiz",
        label: "THIZ",
        about: "Checks against the resolution chart, attacks, maneuvers and wounds.",
        commands: &["check", "attack", "maneuver", "wound"],
    },
    Family {
        key: "thiz-world",
        label: "THIZ world",
        about: "Hazards, magic, movement and time between adventures.",
        commands: &["hazard", "magic", "move", "advance"],
    },
    Family {
        key: "tft",
        label: "TFT",
        about: "The Fantasy Trip with the house rules: saves, attacks, casting, and look-ups.",
        commands: &["tft", "tftkit", "tftref"],
    },
    Family {
        key: "encounter",
        label: "Encounters",
        about: "A fight in a channel: the order, whose turn it is, declared options and timers.",
        commands: &["encounter"],
    },
    Family {
        key: "gm",
        label: "GM",
        about: "Set up the server, keep secrets, roll in secret, ask players to roll, keep a bestiary.",
        commands: &["gm", "reveal", "npc"],
    },
];

/// The start page's button.
const START: &str = "start";
/// The buttons' ids: `help:<page>`.
pub const BUTTON_PREFIX: &str = "help:";

/// The start page: what a player and a GM do first.
const START_TEXT: &str = "\
**Playing**
1. Make a character: `/character create name:Gala system:thiz` (or `system:tft`; \
`fields:\"st 12, dx 13\"` and `skills:\"Speed 4\"` fill it in at once), then \
`/character set` and `/character skill`. `/character show` shows your sheet.
2. Roll: `/roll expression:2d6+1`; a THIZ check `/check skill:Stealth`; a TFT save \
`/tft save attribute:dx dice:3`. Save a roll you make often: \
`/alias set name:attack expression:1d20+5`, then `/roll expression:attack+2`.
3. Fight: `/attack target:Goblin` in THIZ, `/tft attack target:Goblin` in TFT. Your own \
character is used unless you name one.
4. Luck is the GM's secret: you never see the number, but `/luck spend` (or the button under a \
roll) spends it.

**Running the game (GM)**
1. `/gm setup gm_role:@GM gm_channel:#gm-only system:thiz` (needs Manage Server); `/gm rules` \
switches the house rules.
2. `/luck roll character:Gala` gives a character hidden luck; `/gm hidden` and `/gm note` keep \
other secrets.
3. `/gm roll expression:1d100` rolls in secret with a public commitment; `/reveal` shows it. \
`/gm request characters:Gala skill:Perception` asks a player to roll.
4. NPCs: `/encounter start`, then `/encounter add name:Goblin count:3 weapon:Spear` makes a \
hidden NPC sheet and three copies (`skills:` and `fields:` fill in more); `/npc save name:Goblin` \
keeps it in the bestiary for `/encounter add npc:Goblin count:4` in the next fight.

**Who sees a roll** (`mode:`): public; private (you and the GM); blind (the GM only); self (you \
only). Private and blind need a GM channel.

The buttons open a page per family; `/help command:check` explains one command.";

/// `/help [command]`, or a press of one of its buttons (`help:<page>`).
#[derive(Debug, Clone)]
pub struct HelpCommand {
    pub command: Option<String>,
    /// A button's page: "start" or a family's key.
    pub page: Option<String>,
}

impl HelpCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["command"])?;
        Ok(Self {
            command: o.text("command").map(normalise),
            page: None,
        })
    }

    /// A help button's press, or `None` when the id is not help's.
    pub fn parse_button(inv: &Invocation) -> Option<Self> {
        let page = inv.option("id")?.strip_prefix(BUTTON_PREFIX)?;
        Some(Self {
            command: None,
            page: Some(page.to_owned()),
        })
    }

    pub fn run(self, _ctx: &Ctx<'_>) -> AppResult<Reply> {
        match (self.page, self.command) {
            (Some(key), _) => button_page(&key),
            (None, None) => Ok(start_page()),
            (None, Some(wanted)) => page(&wanted),
        }
    }
}

/// "  /Tft   Attack " → "tft attack".
fn normalise(text: &str) -> String {
    text.trim()
        .trim_start_matches('/')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The page a help button opens: the start page or a family's.
pub fn button_page(key: &str) -> AppResult<Reply> {
    if key == START {
        return Ok(start_page());
    }
    FAMILIES
        .iter()
        .find(|f| f.key == key)
        .map(family_page)
        .ok_or_else(|| user("That help page is gone; /help opens the current ones."))
}

/// The page `/help command:` names: a command or subcommand (also by its last word alone, when
/// only one command has it), a family, or the start page.
pub fn page(wanted: &str) -> AppResult<Reply> {
    if wanted == START {
        return Ok(start_page());
    }
    if wanted == "dice" {
        return Ok(with_buttons(
            Reply::ephemeral("").with_embed(info("Dice: what /roll reads".into(), DICE.into())),
            "",
        ));
    }
    if let Some(command) = catalogue().iter().find(|c| c.name == wanted) {
        return Ok(command_page(command));
    }
    if let Some((path, doc)) = leaves().into_iter().find(|(path, _)| path == wanted) {
        return Ok(leaf_page(&path, doc));
    }
    if let Some(family) = FAMILIES.iter().find(|f| f.key == wanted) {
        return Ok(family_page(family));
    }
    let by_word: Vec<_> = leaves()
        .into_iter()
        .filter(|(path, _)| path.rsplit(' ').next() == Some(wanted))
        .collect();
    match by_word.as_slice() {
        [(path, doc)] => return Ok(leaf_page(path, doc)),
        [] => {}
        several => {
            let names: Vec<String> = several.iter().map(|(p, _)| format!("/{p}")).collect();
            return Err(user(format!(
                "Several commands end in {}: {}. Ask for one, like /help command:\"{}\".",
                super::text::escape(wanted),
                names.join(", "),
                several[0].0
            )));
        }
    }
    let mut topics = topics();
    topics.extend(FAMILIES.iter().map(|f| f.key.to_owned()));
    Err(user(format!(
        "There is no command {}. /help lists them.{}",
        super::text::escape(wanted),
        super::text::did_you_mean(wanted, topics.iter().map(String::as_str))
    )))
}

/// Every command and subcommand path ("luck", "luck spend"), for "did you mean".
pub fn topics() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for command in catalogue() {
        out.push(command.name.clone());
        for sub in &command.subcommands {
            out.push(format!("{} {}", command.name, sub.name));
        }
    }
    out
}

fn info(title: String, description: String) -> Embed {
    Embed {
        title,
        description,
        tone: Some(Tone::Info),
        fields: Vec::new(),
        footer: None,
    }
}

/// A button per page, the one shown disabled.
fn page_buttons(showing: &str) -> Vec<Button> {
    std::iter::once((START, "Start here"))
        .chain(FAMILIES.iter().map(|f| (f.key, f.label)))
        .map(|(key, label)| Button {
            custom_id: format!("{BUTTON_PREFIX}{key}"),
            label: label.to_owned(),
            disabled: key == showing,
        })
        .collect()
}

fn with_buttons(mut reply: Reply, showing: &str) -> Reply {
    reply.buttons = page_buttons(showing);
    reply
}

pub fn start_page() -> Reply {
    with_buttons(
        Reply::ephemeral("").with_embed(info("referee: start here".into(), START_TEXT.into())),
        START,
    )
}

/// The options of a command, as typed: "target [attacker] [weapon]".
fn synopsis(doc: &CommandDoc) -> String {
    doc.options
        .iter()
        .map(|o| {
            if o.required {
                o.name.clone()
            } else {
                format!("[{}]", o.name)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line for each command Discord runs under `command`.
fn lines(command: &CommandDoc) -> Vec<String> {
    let line = |path: String, doc: &CommandDoc| {
        let options = synopsis(doc);
        let space = if options.is_empty() { "" } else { " " };
        format!("`/{path}{space}{options}` — {}", doc.description)
    };
    if command.subcommands.is_empty() {
        return vec![line(command.name.clone(), command)];
    }
    command
        .subcommands
        .iter()
        .map(|sub| line(format!("{} {}", command.name, sub.name), sub))
        .collect()
}

fn family_page(family: &Family) -> Reply {
    let mut text = vec![family.about.to_owned(), String::new()];
    for name in family.commands {
        if let Some(command) = catalogue().iter().find(|c| c.name == *name) {
            text.extend(lines(command));
        }
    }
    text.push(String::new());
    text.push("Required options first, [optional] ones after. `/help command:\"tft attack\"` explains each option.".into());
    with_buttons(
        Reply::ephemeral("").with_embed(info(format!("Help: {}", family.label), text.join("\n"))),
        family.key,
    )
}

fn command_page(command: &CommandDoc) -> Reply {
    if command.subcommands.is_empty() {
        return leaf_page(&command.name, command);
    }
    let mut text = vec![command.description.clone(), String::new()];
    text.extend(lines(command));
    text.push(String::new());
    text.push(format!(
        "`/help command:\"{} {}\"` explains each option.",
        command.name, command.subcommands[0].name
    ));
    with_buttons(
        Reply::ephemeral("").with_embed(info(format!("/{}", command.name), text.join("\n"))),
        "",
    )
}

/// The dice language, for `/help command:roll` and `/help command:dice`.
pub const DICE: &str = "\
**Dice** `2d6` `d20` `d%` (d100) `4dF` (Fate: -, 0, +)
**Arithmetic** `+ - * /` with parentheses: `(1d8+3)*2`; `/` rounds down; `1d20 >= 15` is 1 or 0
**Keep/drop** `4d6kh3` or `4d6 k3` (highest 3) · `kl1` · `km2` (middle) · `1d20 adv1` `dis1` (a die more, the worst/best dropped before explosions) · `4d6 d1` or `dl1` (drop lowest) · `dh1` · `k>3` `p<3` (by value)
**Rerolls** `2d6r1` (1s once) · `rr<3` or `ir2` (until above 2) · `rg5` `irg5` (5 or more) · `ra6` (a 6 adds one more die)
**Explode** `3d6!` or `3d6 e` (on the highest face, again and again) · `e8` (8 or more) · cap 100
**Min/max** `8d6mi2` `4d6ma5` (each die)
**Successes** `6d10 t7` (7 or more) · `f1` (1s take one away) · `tl3` (3 or less) · `ds10` (10s count two) · `c` (with f1: each 10 cancels a 1) · `b1` (count botches)
**Implode** `4d6 i1` (each 1 subtracts a fresh die, once)
**Sets** `(1d4, 3, 2d6kl1)kh1` (the best of them)
**Several** `6 4d6` (6 sets) · `1d20+5; 2d6+3` (up to 4 rolls)
**Words** `(Attack) 1d20+5` label · `1d20+5 ! with the axe` comment · `1d6 [fire]` note · `s 4d6` total only · `nr 4d6` dice only · `p 1d20` only you see it
**Aliases** `dndstats` `+d20` `-d20` `+d%` `-d%` `4cod` `4codr` `4wod8` `4wod8c` `sr6` `6yz` `3wh4+` `sp4` `dd34`
Each reply says how it read your roll (`4d6 k3` → `4d6kh3`). `/odds dice` gives the exact odds of any roll, with a chart.";

fn leaf_page(path: &str, doc: &CommandDoc) -> Reply {
    let options = synopsis(doc);
    let space = if options.is_empty() { "" } else { " " };
    let mut text = format!("`/{path}{space}{options}`\n{}", doc.description);
    if let Some(who) = who(path) {
        text.push_str("\nWho: ");
        text.push_str(who);
        text.push('.');
    }
    if doc.options.is_empty() {
        text.push_str("\nIt takes no options.");
    }
    if path == "roll" {
        text.push_str("\n\n");
        text.push_str(DICE);
    }
    let fields = doc
        .options
        .iter()
        .map(|o| Field {
            name: if o.required {
                o.name.clone()
            } else {
                format!("{} (optional)", o.name)
            },
            value: if o.choices.is_empty() {
                o.description.clone()
            } else {
                format!("{} — one of: {}", o.description, o.choices.join(", "))
            },
            inline: false,
        })
        .collect();
    let mut embed = info(format!("/{path}"), text);
    embed.fields = fields;
    with_buttons(Reply::ephemeral("").with_embed(embed), "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::AppError;

    /// Discord's limits on an embed and its buttons (the API's "Embed limits" and components).
    fn within_discords_limits(what: &str, reply: &Reply) {
        assert_eq!(reply.embeds.len(), 1, "{what}: one embed");
        let e = &reply.embeds[0];
        let count = |s: &str| s.chars().count();
        assert!(count(&e.title) <= 256, "{what}: title {}", count(&e.title));
        assert!(
            count(&e.description) <= 4096,
            "{what}: description {}",
            count(&e.description)
        );
        assert!(e.fields.len() <= 25, "{what}: {} fields", e.fields.len());
        for f in &e.fields {
            assert!(count(&f.name) <= 256, "{what}: field name {}", f.name);
            assert!(count(&f.value) <= 1024, "{what}: field {} value", f.name);
        }
        let total = count(&e.title)
            + count(&e.description)
            + e.fields
                .iter()
                .map(|f| count(&f.name) + count(&f.value))
                .sum::<usize>()
            + e.footer.as_deref().map_or(0, count);
        assert!(total <= 6000, "{what}: {total} characters in all");
        assert!(reply.buttons.len() <= 25, "{what}: buttons");
        for b in &reply.buttons {
            assert!(
                count(&b.label) <= 80 && count(&b.custom_id) <= 100,
                "{what}"
            );
        }
        assert_eq!(
            reply.visibility,
            crate::app::reply::Visibility::Ephemeral,
            "{what}: help is shown to the asker only"
        );
    }

    #[test]
    fn the_start_page_is_short_and_opens_every_family() {
        let start = start_page();
        within_discords_limits("start", &start);
        let e = &start.embeds[0];
        let length = e.title.chars().count() + e.description.chars().count();
        assert!(length <= 2000, "the start page is {length} characters");
        let ids: Vec<&str> = start.buttons.iter().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids.len(), FAMILIES.len() + 1);
        for f in FAMILIES {
            assert!(
                ids.contains(&format!("help:{}", f.key).as_str()),
                "{}",
                f.key
            );
        }
        // The page shown is the one button that cannot be pressed.
        let disabled: Vec<&str> = start
            .buttons
            .iter()
            .filter(|b| b.disabled)
            .map(|b| b.custom_id.as_str())
            .collect();
        assert_eq!(disabled, ["help:start"]);
    }

    /// Every `/command option:value` the start page shows is a registered command with those
    /// options, so a newcomer who copies one is not refused.
    #[test]
    fn the_start_pages_examples_are_real_commands() {
        let mut checked = 0;
        for example in START_TEXT.split('`').skip(1).step_by(2) {
            let Some(example) = example.strip_prefix('/') else {
                continue;
            };
            let words: Vec<&str> = example.split(' ').collect();
            let (path, options): (Vec<&str>, Vec<&str>) =
                words.iter().partition(|w| !w.contains(':'));
            let path = path.join(" ");
            let (_, doc) = leaves()
                .into_iter()
                .find(|(p, _)| *p == path)
                .unwrap_or_else(|| panic!("/{path} is not a registered command"));
            for option in options {
                let name = option.split(':').next().unwrap_or_default();
                assert!(
                    doc.options.iter().any(|o| o.name == name),
                    "/{path} has no option {name}"
                );
            }
            checked += 1;
        }
        assert!(checked >= 15, "only {checked} examples found");
    }

    #[test]
    fn every_command_and_subcommand_has_its_page_within_limits() {
        let mut pages = 0;
        for command in catalogue() {
            let reply = page(&command.name).expect("a command's page");
            within_discords_limits(&command.name, &reply);
            assert_eq!(reply.embeds[0].title, format!("/{}", command.name));
            for sub in &command.subcommands {
                let path = format!("{} {}", command.name, sub.name);
                let reply = page(&path).expect("a subcommand's page");
                within_discords_limits(&path, &reply);
                let e = &reply.embeds[0];
                assert_eq!(e.title, format!("/{path}"));
                // Every option is on it, with what it means.
                assert_eq!(e.fields.len(), sub.options.len(), "{path}");
                for (field, option) in e.fields.iter().zip(&sub.options) {
                    assert!(field.name.starts_with(&option.name), "{path}");
                    assert!(field.value.contains(&option.description), "{path}");
                }
                assert!(e.description.contains("Who: "), "{path}");
                pages += 1;
            }
            // A command's page names every subcommand with all its options.
            let text = &page(&command.name).unwrap().embeds[0].description;
            for line in lines(command)
                .iter()
                .filter(|_| !command.subcommands.is_empty())
            {
                assert!(text.contains(line.as_str()), "{}: {line}", command.name);
            }
        }
        assert!(pages > 80, "{pages} subcommand pages");
    }

    #[test]
    fn each_family_page_lists_every_subcommand_and_option_of_its_commands() {
        let mut seen = std::collections::BTreeSet::new();
        for family in FAMILIES {
            let reply = button_page(family.key).expect("a family page");
            within_discords_limits(family.key, &reply);
            let text = &reply.embeds[0].description;
            for name in family.commands {
                assert!(seen.insert(*name), "{name} is in two families");
                let command = catalogue().iter().find(|c| c.name == *name).unwrap();
                for line in lines(command) {
                    assert!(text.contains(&line), "{}: {line}", family.key);
                }
            }
            let pressed = button_page(family.key).unwrap();
            let disabled: Vec<&str> = pressed
                .buttons
                .iter()
                .filter(|b| b.disabled)
                .map(|b| b.label.as_str())
                .collect();
            assert_eq!(disabled, [family.label]);
        }
        let registered: std::collections::BTreeSet<&str> =
            catalogue().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(seen, registered, "every command is in one family");
    }

    #[test]
    fn who_names_every_command_once() {
        let mut named: Vec<String> = WHO.iter().flat_map(|(p, _)| expand(p)).collect();
        named.sort();
        let before = named.len();
        named.dedup();
        assert_eq!(before, named.len(), "a command is in WHO twice");
        let mut registered: Vec<String> = leaves().into_iter().map(|(p, _)| p).collect();
        registered.sort();
        assert_eq!(named, registered);
    }

    #[test]
    fn a_topic_is_found_by_its_path_its_last_word_or_a_near_spelling() {
        // Typed any way: a slash, capitals, extra spaces.
        let title = |wanted: &str| page(&normalise(wanted)).map(|r| r.embeds[0].title.clone());
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("/Tft   Attack", Ok("/tft attack")),
            ("tft attack", Ok("/tft attack")),
            ("encounter", Ok("/encounter")),
            ("grapple", Ok("/maneuver grapple")),
            ("restore", Ok("/character restore")),
            ("thiz-world", Ok("Help: THIZ world")),
            ("gm", Ok("/gm")),
            ("start", Ok("referee: start here")),
            // A last word several commands share: each is named.
            ("cast", Err("/tftkit cast")),
            ("cast", Err("/magic cast")),
            // Misspelt: one edit, a transposition, a prefix's near miss.
            ("chek", Err("Did you mean check?")),
            ("luck sepnd", Err("luck spend")),
            ("encountr", Err("encounter")),
        ];
        for (wanted, expected) in cases {
            match (title(wanted), expected) {
                (Ok(got), Ok(want)) => assert_eq!(&got, want, "{wanted}"),
                (Err(AppError::User(got)), Err(want)) => {
                    assert!(got.contains(want), "{wanted}: {got}");
                }
                (got, want) => panic!("{wanted}: {got:?}, expected {want:?}"),
            }
        }
    }

    #[test]
    fn a_button_opens_its_page_and_a_foreign_id_is_not_helps() {
        let inv = |id: &str| Invocation::new(&["button"], &[("id", id)]);
        let press = HelpCommand::parse_button(&inv("help:tft")).expect("help's button");
        assert_eq!(press.page.as_deref(), Some("tft"));
        assert!(HelpCommand::parse_button(&inv("chardel:4")).is_none());
        // The family's button opens the family; the command of the same name is /help's.
        assert_eq!(button_page("tft").unwrap().embeds[0].title, "Help: TFT");
        assert_eq!(page("tft").unwrap().embeds[0].title, "/tft");
        assert!(button_page("nowhere").is_err());
    }
}
