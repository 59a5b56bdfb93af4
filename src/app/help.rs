//! `/help`: short, ephemeral help, one line per command or the options of one command.

use super::invocation::{Invocation, Opts};
use super::reply::{Embed, Field, Reply, Tone};
use super::{AppResult, Ctx, user};

/// Every command: its name, who may use it, what it does, and its options. The README's command
/// list says the same; a test keeps the two in step.
pub const COMMANDS: &[(&str, &str, &str, &str)] = &[
    (
        "roll",
        "anyone",
        "Roll dice: 2d6+1, 4d6kh3, 3d6!, 2d6r1, d%",
        "expression [mode] [label]",
    ),
    (
        "check",
        "player, GM",
        "THIZ check on a skill or a bare rating; what the level means; your traits' situations",
        "[skill] [rating] [character] [modifier] [hand] [mode] [label] [situation] [withdrawal] [recovering] [trail_hours]",
    ),
    (
        "attack",
        "player, GM",
        "THIZ attack: hit, location, Toughness, wound; bursts, sight, prone, Berserk, two weapons, shields",
        "attacker target [weapon] [location] [missile] [modifier] [mode] [burst] [sight] [prone] [berserk] [pair] [second] [shield]",
    ),
    (
        "maneuver grapple|escape|trip|disarm|sunder|listen",
        "player, GM",
        "THIZ maneuvers: grapple, escape a hold, trip, disarm, sunder, listen for a foe",
        "attacker target … | character …",
    ),
    (
        "tft save",
        "player, GM",
        "TFT saving roll: N dice against ST, DX, IQ or a number",
        "attribute dice [character] [modifier] [mode]",
    ),
    (
        "tft attack",
        "player, GM",
        "TFT attack: to-hit, damage, armor, injury",
        "attacker target [weapon] [facing] [defending] [dodging] [wait] [range] [prior] [actions] [charge] [modifier] [mode] [parry] [shield_wall] [stance]",
    ),
    (
        "tft hth",
        "player, GM",
        "TFT hand-to-hand: enter, leave, or draw a dagger",
        "character [modifier] [mode] [action] [half_ma]",
    ),
    (
        "tft dying",
        "GM",
        "TFT death and dying roll",
        "character [mode]",
    ),
    (
        "tft bash",
        "player, GM",
        "TFT shield bash or rush",
        "attacker target [rush] [mode]",
    ),
    (
        "tft job",
        "GM",
        "TFT: a week of a job",
        "job [character] [mode]",
    ),
    (
        "tft heal",
        "GM; owner for own potions",
        "TFT healing and rest: hits, fatigue, potions (4 hits), First Aid (1)",
        "character [hits] [fatigue] [potions] [first_aid]",
    ),
    (
        "tft stand",
        "player, GM",
        "TFT: stand up from a knockdown before attacking again",
        "[character]",
    ),
    (
        "tft repair",
        "GM",
        "TFT: mend a weapon an attack broke",
        "character weapon",
    ),
    (
        "tft condition",
        "GM",
        "TFT: correct hits and fatigue, knocked down, dead",
        "character [hits] [fatigue] [knocked_down] [dead]",
    ),
    (
        "tftkit check|gear|actions|miss|cast|pickup",
        "player, GM; anyone for gear",
        "TFT tools: common checks, gear prices and wear, multiple actions, rolling to miss, casting, picking up a dropped weapon",
        "check … | item … | first second … | [character] [prior] … | spell … | [character] [weapon]",
    ),
    (
        "tft reaction",
        "player, GM",
        "TFT: an NPC's reaction to the party, with the chances",
        "[modifier] [mode]",
    ),
    (
        "tftref study|called|spell|ski|mount|price|time",
        "player, GM",
        "TFT look-ups: talent study, called shots, spells, skiing, mounts, magic item prices, action times",
        "talent … | area … | spell … | character … | st ma dx … | magic … | action",
    ),
    (
        "odds thiz",
        "anyone",
        "Exact odds of each THIZ level",
        "rating [modifier]",
    ),
    (
        "odds tft",
        "anyone",
        "Exact odds of each TFT attack, save or roll-to-miss outcome",
        "target dice [save] [miss]",
    ),
    (
        "luck spend",
        "owner",
        "Spend hidden luck: reroll a check, a hit or a Toughness check; lower a wound; a stunt; berserk; rouse",
        "kind [character] [points] [roll] [location] [level]",
    ),
    (
        "luck roll|show|award|set|log",
        "GM",
        "Roll, read or change a character's luck",
        "character [points]",
    ),
    (
        "character create",
        "anyone",
        "Make a THIZ or TFT character (npc: GM only)",
        "name [system] [npc]",
    ),
    (
        "character show|list|validate",
        "anyone",
        "See a sheet, your characters, or what breaks the creation rules",
        "[name]",
    ),
    (
        "character set|skill|gear|delete|restore",
        "owner, GM; restore: GM",
        "Change or delete a sheet (a GM restores it)",
        "name …",
    ),
    (
        "character export|import",
        "owner, GM",
        "Save or load a sheet as JSON",
        "[name] | file",
    ),
    (
        "wound add|heal",
        "GM",
        "THIZ wounds: record one (nonlethal for bare fists), heal one location or all",
        "character location level [nonlethal] | character [location]",
    ),
    (
        "wound rest",
        "owner, GM",
        "THIZ: days of rest, each healing a wound; moves the character's Surgery day on",
        "[character] [days]",
    ),
    (
        "wound dying",
        "owner, GM",
        "THIZ: a dying character's Toughness check (Failure dies, Black is stable); also a button",
        "[character] [mode]",
    ),
    (
        "wound firstaid",
        "healer's owner, GM",
        "THIZ: First Aid stabilises a dying character on any success (Triage Specialist +3)",
        "character healer [mode]",
    ),
    (
        "wound surgery",
        "surgeon's owner, GM",
        "THIZ: Knowledge (Surgery) heals a wound of the colour rolled, one per location per day",
        "character surgeon [location] [mode]",
    ),
    (
        "hazard fall",
        "player, GM",
        "THIZ fall: checked at the height less 10, wound and stun",
        "height [character] [surface] [location] [mode]",
    ),
    (
        "hazard fire",
        "player, GM",
        "THIZ fire: the flames' hit, Toughness, wound",
        "rating [character] [fleeing] [location] [mode]",
    ),
    (
        "hazard water",
        "player, GM",
        "THIZ open water: the check to stay afloat",
        "water [character] [situation] [height] [modifier] [mode]",
    ),
    (
        "hazard suffocation",
        "player, GM",
        "THIZ suffocation: a turn without air, a chest wound past the breath",
        "turn [character] [mode]",
    ),
    (
        "hazard poison",
        "player, GM",
        "THIZ poison: Toughness against its rating, the antidote's time",
        "wound duration unit [character] [location] [modifier] [mode]",
    ),
    (
        "magic cast",
        "player, GM",
        "THIZ magic: manifest an effect, extend a casting, Necromancy's wound",
        "skill level [character] [continues] [wounded] [void_touched] [location] [modifier] [mode]",
    ),
    (
        "magic target",
        "player, GM",
        "THIZ Mentalism or a Reiki strike on someone, Reiki healing, Psychokinesis",
        "use target [character] [location] [moving] [modifier] [mode]",
    ),
    (
        "magic terror",
        "player, GM",
        "THIZ Terror: Willpower after witnessing magic, or to face its source",
        "[level] [character] [approach] [modifier] [mode]",
    ),
    (
        "magic learn",
        "player, GM",
        "THIZ: the terms of learning a Magic Skill; write it when done",
        "skill tutor_rating [character] [pace] [finished]",
    ),
    (
        "move rate|climb|travel|animal|spot|pilot|chase|near|collide|crash",
        "player, GM",
        "THIZ movement: rates and endurance, climbing, a day's travel, animals, vehicles, chases, collisions",
        "[character] …",
    ),
    (
        "advance spend|train|craft|work",
        "owner, GM",
        "THIZ time between adventures: spend skill points, study time, crafting, work for pay",
        "[skill] [character] …",
    ),
    (
        "advance points|sleepless",
        "GM",
        "Award a session's skill points; roll a Sleepless character's countdown in secret",
        "character …",
    ),
    (
        "gm setup",
        "Manage Server",
        "Set or clear the GM role and GM channel, set the default system",
        "[gm_role] [gm_channel] [system] [clear]",
    ),
    ("gm rules", "GM", "House-rule switches", "[name] [value]"),
    (
        "gm hidden|note",
        "GM",
        "Hidden values and notes on a sheet",
        "character key|text [value]",
    ),
    (
        "gm roll",
        "GM",
        "A secret roll with a public commitment",
        "expression [label]",
    ),
    (
        "gm request|check",
        "GM",
        "Ask for a check or save, a button each; or roll one in secret",
        "characters|character …",
    ),
    (
        "reveal",
        "GM",
        "Reveal a secret roll so anyone can check its commitment",
        "roll",
    ),
    (
        "history",
        "anyone",
        "The roll log (what you may see)",
        "[character] [count]",
    ),
    ("help", "anyone", "This help", "[command]"),
    (
        "encounter start|add|remove|next|undo|declare|act|move|show|timer|end",
        "GM, player",
        "Combat tracker per channel: order, turns, declared options, timed effects",
        "…",
    ),
];

/// Every command path help knows, expanded: "character set|skill" gives "character",
/// "character set" and "character skill". For "did you mean".
pub fn topics() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (name, ..) in COMMANDS {
        let mut words = name.splitn(2, ' ');
        let first = words.next().unwrap_or_default();
        if !out.iter().any(|t| t == first) {
            out.push(first.to_owned());
        }
        if let Some(rest) = words.next() {
            for sub in rest.split('|') {
                out.push(format!("{first} {sub}"));
            }
        }
    }
    out
}

/// `/help [command]`.
#[derive(Debug, Clone)]
pub struct HelpCommand {
    pub command: Option<String>,
}

impl HelpCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["command"])?;
        Ok(Self {
            command: o
                .text("command")
                .map(|c| c.trim().trim_start_matches('/').to_lowercase()),
        })
    }

    pub fn run(self, _ctx: &Ctx<'_>) -> AppResult<Reply> {
        let Some(wanted) = self.command else {
            let lines: Vec<String> = COMMANDS
                .iter()
                .map(|(name, _, what, _)| format!("`/{name}` — {what}"))
                .collect();
            return Ok(Reply::ephemeral("").with_embed(Embed {
                title: "referee commands".into(),
                description: lines.join("\n"),
                tone: Some(Tone::Info),
                fields: Vec::new(),
                footer: Some("Roll modes: public, private (you + GM), blind (GM only), self (you only); private and blind need a GM channel (/gm setup gm_channel:). /help command:check for details.".into()),
            }));
        };
        let matches: Vec<_> = COMMANDS
            .iter()
            .filter(|(name, ..)| {
                name.split(['|', ' ']).any(|w| w == wanted)
                    || *name == wanted
                    || name.starts_with(&wanted)
            })
            .collect();
        if matches.is_empty() {
            let topics = topics();
            return Err(user(format!(
                "There is no command {}. /help lists them.{}",
                super::text::escape(&wanted),
                super::text::did_you_mean(&wanted, topics.iter().map(String::as_str))
            )));
        }
        Ok(Reply::ephemeral("").with_embed(Embed {
            title: format!("/help {}", super::text::escape(&wanted)),
            description: String::new(),
            tone: Some(Tone::Info),
            fields: matches
                .iter()
                .map(|(name, who, what, options)| Field {
                    name: format!("/{name} {options}"),
                    value: format!("{what}. Who: {who}."),
                    inline: false,
                })
                .collect(),
            footer: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_lists_every_command() {
        let readme = include_str!("../../README.md");
        for (name, ..) in COMMANDS {
            let (head, rest) = name.split_once(' ').unwrap_or((name, ""));
            assert!(
                readme.contains(&format!("/{head}")),
                "README.md does not list /{head}"
            );
            for sub in rest.split('|').filter(|s| !s.is_empty()) {
                assert!(
                    readme.contains(sub),
                    "README.md does not mention /{head} {sub}"
                );
            }
        }
    }
}
