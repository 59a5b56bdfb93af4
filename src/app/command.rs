//! The command model: a slash command as a path and named options, parsed into the typed
//! command of the module that runs it.
//!
//! The option names are the public interface (SPEC §2): the console types them, the bot passes
//! Discord's options through the same parser, so both front ends accept and refuse exactly the
//! same things. Each use-case module owns its typed command and parses its own options with
//! [`Opts`], which refuses unknown options and out-of-range numbers with a one-line answer.

use std::str::FromStr;

use super::reply::Reply;
use super::{AppResult, Ctx, characters, encounter, gm, help, luck, rolls, tft, thiz, user};
use crate::store::guilds::System;

/// A command as typed: its path (`["character", "create"]`) and its options in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Invocation {
    pub path: Vec<String>,
    pub options: Vec<(String, String)>,
}

impl Invocation {
    pub fn new(path: &[&str], options: &[(&str, &str)]) -> Self {
        Self {
            path: path.iter().map(|s| (*s).to_owned()).collect(),
            options: options
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// The value of an option, if given.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// "/character create", for messages.
    pub fn display_path(&self) -> String {
        format!("/{}", self.path.join(" "))
    }
}

/// How a roll is shown (SPEC §2, "Roll modes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RollMode {
    /// The channel sees it.
    #[default]
    Public,
    /// The roller sees it, and a copy goes to the GM channel.
    Private,
    /// Only the GM sees the result; the roller is told it was rolled.
    Blind,
    /// Only the roller sees it; it is still logged for the GM.
    #[serde(rename = "self")]
    SelfOnly,
}

impl RollMode {
    pub const NAMES: [&'static str; 4] = ["public", "private", "blind", "self"];

    pub fn store_mode(self) -> crate::store::rolls::Mode {
        use crate::store::rolls::Mode;
        match self {
            RollMode::Public => Mode::Public,
            RollMode::Private => Mode::Private,
            RollMode::Blind => Mode::Blind,
            RollMode::SelfOnly => Mode::SelfOnly,
        }
    }
}

impl FromStr for RollMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "public" => RollMode::Public,
            "private" => RollMode::Private,
            "blind" => RollMode::Blind,
            "self" => RollMode::SelfOnly,
            other => {
                return Err(format!(
                    "mode must be public, private, blind or self; you gave {other:?}"
                ));
            }
        })
    }
}

/// The options of one invocation, checked against the names a command accepts.
pub struct Opts<'a> {
    command: String,
    options: &'a [(String, String)],
}

impl<'a> Opts<'a> {
    /// Refuses any option not in `accepted`, naming the ones that are.
    pub fn new(inv: &'a Invocation, accepted: &[&str]) -> AppResult<Self> {
        let command = inv.display_path();
        for (name, _) in &inv.options {
            if !accepted.contains(&name.as_str()) {
                let list = if accepted.is_empty() {
                    "it takes no options".to_owned()
                } else {
                    format!("it accepts {}", accepted.join(", "))
                };
                return Err(user(format!("{command} has no option {name:?}; {list}.")));
            }
        }
        Ok(Self {
            command,
            options: &inv.options,
        })
    }

    /// An optional text option (empty counts as absent).
    pub fn text(&self, name: &str) -> Option<&'a str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }

    /// A required text option.
    pub fn required(&self, name: &str) -> AppResult<&'a str> {
        self.text(name).ok_or_else(|| {
            user(format!(
                "{} needs the option {name}, like {name}:value.",
                self.command
            ))
        })
    }

    /// An optional whole number within `min..=max`.
    pub fn int(&self, name: &str, min: i64, max: i64) -> AppResult<Option<i64>> {
        let Some(raw) = self.text(name) else {
            return Ok(None);
        };
        let value: i64 = raw.trim().trim_start_matches('+').parse().map_err(|_| {
            user(format!(
                "{name} must be a whole number between {min} and {max}; you gave {:?}",
                raw.trim()
            ))
        })?;
        if !(min..=max).contains(&value) {
            return Err(user(format!(
                "{name} must be between {min} and {max}; you gave {value}"
            )));
        }
        Ok(Some(value))
    }

    /// A required whole number within `min..=max`.
    pub fn required_int(&self, name: &str, min: i64, max: i64) -> AppResult<i64> {
        self.required(name)?;
        Ok(self.int(name, min, max)?.unwrap_or_default())
    }

    /// An optional true/false (true, false, yes, no, 1, 0); absent is false.
    pub fn flag(&self, name: &str) -> AppResult<bool> {
        match self.text(name).map(|v| v.trim().to_ascii_lowercase()) {
            None => Ok(false),
            Some(v) if matches!(v.as_str(), "true" | "yes" | "1" | "on") => Ok(true),
            Some(v) if matches!(v.as_str(), "false" | "no" | "0" | "off") => Ok(false),
            Some(v) => Err(user(format!(
                "{name} must be true or false; you gave {v:?}"
            ))),
        }
    }

    /// An optional value of a fixed menu.
    pub fn choice<T: FromStr<Err = String>>(&self, name: &str) -> AppResult<Option<T>> {
        self.text(name).map(|v| v.parse().map_err(user)).transpose()
    }

    /// The roll mode (public when absent).
    pub fn mode(&self) -> AppResult<RollMode> {
        Ok(self.choice("mode")?.unwrap_or_default())
    }
}

/// Every command, by the module that runs it.
#[derive(Debug, Clone)]
pub enum Command {
    /// `/roll`, `/gm roll`, `/reveal`, `/history`.
    Rolls(rolls::RollsCommand),
    /// `/check`, `/attack`, `/wound …`, `/odds thiz`, `/move …`, `/advance …`.
    Thiz(thiz::ThizCommand),
    /// `/tft …`, `/odds tft`.
    Tft(tft::TftCommand),
    /// `/character …`.
    Character(characters::CharacterCommand),
    /// `/luck …`, and the luck buttons.
    Luck(luck::LuckCommand),
    /// `/gm setup`, `/gm rules`, `/gm hidden`, `/gm note`, `/gm request`, `/gm check`, and the
    /// roll request buttons.
    Gm(gm::GmCommand),
    /// `/help`.
    Help(help::HelpCommand),
    /// `/encounter …`, and the status message's buttons.
    Encounter(encounter::EncounterCommand),
    /// A command given a roll mode: the mode is checked against the guild's GM channel before
    /// the command runs ([`Ctx::check_mode`]).
    Moded(RollMode, Box<Command>),
}

impl Command {
    /// Parses an invocation into a typed command, or says what is wrong.
    pub fn parse(inv: &Invocation) -> AppResult<Command> {
        let command = Self::parse_family(inv)?;
        // The family's parser has already refused a mode that is not one of the four.
        Ok(match inv.option("mode").and_then(|m| m.parse().ok()) {
            Some(mode) => Command::Moded(mode, Box::new(command)),
            None => command,
        })
    }

    fn parse_family(inv: &Invocation) -> AppResult<Command> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        // A dying button (`dying:<character>`) rolls a dying check; a request's button is below;
        // every other button is luck's.
        if path == ["button"]
            && let Some(args) = thiz::WoundArgs::parse_button(inv)
        {
            return Ok(Command::Thiz(thiz::ThizCommand::Wound(args?)));
        }
        // A roll request's button (`req:<request>:<character>` or `req:<request>:close`).
        if path == ["button"]
            && let Some(press) = gm::request::Press::parse_button(inv)
        {
            return Ok(Command::Gm(gm::GmCommand::Press(press?)));
        }
        // A private attack's notice (`see:<roll>`).
        if path == ["button"]
            && let Some(roll) = inv.option("id").and_then(thiz::attack::parse_see_button)
        {
            return Ok(Command::Thiz(thiz::ThizCommand::See(roll?)));
        }
        // The delete confirmation (`chardel:<character>[:keep]`).
        if path == ["button"]
            && let Some(command) = characters::CharacterCommand::parse_button(inv)
        {
            return Ok(Command::Character(command?));
        }
        // A help page's button (`help:<page>`).
        if path == ["button"]
            && let Some(command) = help::HelpCommand::parse_button(inv)
        {
            return Ok(Command::Help(command));
        }
        if path == ["button"]
            && let Some(command) = encounter::EncounterCommand::parse_button(inv)
        {
            return Ok(Command::Encounter(command?));
        }
        Ok(match path.as_slice() {
            ["roll"] | ["gm", "roll"] | ["reveal"] | ["history"] => {
                Command::Rolls(rolls::RollsCommand::parse(inv)?)
            }
            ["check"]
            | ["attack"]
            | ["wound", ..]
            | ["maneuver", ..]
            | ["hazard", ..]
            | ["magic", ..]
            | ["odds", "thiz"]
            | ["move", ..]
            | ["advance", ..] => Command::Thiz(thiz::ThizCommand::parse(inv)?),
            ["tft" | "tftkit" | "tftref", ..] | ["odds", "tft"] => {
                Command::Tft(tft::TftCommand::parse(inv)?)
            }
            ["character", ..] => Command::Character(characters::CharacterCommand::parse(inv)?),
            ["luck", ..] | ["button"] => Command::Luck(luck::LuckCommand::parse(inv)?),
            ["gm", ..] => Command::Gm(gm::GmCommand::parse(inv)?),
            ["help"] => Command::Help(help::HelpCommand::parse(inv)?),
            ["encounter", ..] => Command::Encounter(encounter::EncounterCommand::parse(inv)?),
            ["odds"] => {
                return Err(user(
                    "/odds needs a system: /odds thiz rating:4, or /odds tft target:12 dice:3",
                ));
            }
            _ => {
                let topics: Vec<String> = help::topics().iter().map(|t| format!("/{t}")).collect();
                return Err(user(format!(
                    "There is no command {}. /help lists them.{}",
                    super::text::escape(&inv.display_path()),
                    super::text::did_you_mean(
                        &inv.display_path(),
                        topics.iter().map(String::as_str)
                    )
                )));
            }
        })
    }

    /// Runs the command.
    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            Command::Rolls(c) => c.run(ctx),
            Command::Thiz(c) => {
                ctx.seen.borrow_mut().rolls = true;
                ctx.system.set(Some(System::Thiz));
                c.run(ctx)
            }
            Command::Tft(c) => {
                ctx.seen.borrow_mut().rolls = true;
                ctx.system.set(Some(System::Tft));
                c.run(ctx)
            }
            Command::Character(c) => c.run(ctx),
            // Luck is THIZ's (a TFT sheet has none).
            Command::Luck(c) => {
                ctx.system.set(Some(System::Thiz));
                c.run(ctx)
            }
            Command::Gm(c) => c.run(ctx),
            Command::Help(c) => c.run(ctx),
            Command::Encounter(c) => c.run(ctx),
            Command::Moded(mode, c) => {
                ctx.check_mode(mode)?;
                c.run(ctx)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opts_refuse_unknown_options_and_bad_numbers() {
        let inv = Invocation::new(&["check"], &[("ratin", "4")]);
        let err = Opts::new(&inv, &["rating", "modifier"]).err().unwrap();
        assert!(
            err.to_string().contains("accepts rating, modifier"),
            "{err}"
        );

        let inv = Invocation::new(&["check"], &[("rating", "41"), ("modifier", "x")]);
        let o = Opts::new(&inv, &["rating", "modifier"]).unwrap();
        assert!(o.int("rating", -40, 40).is_err());
        assert!(o.int("modifier", -40, 40).is_err());
        let inv = Invocation::new(&["check"], &[("rating", "40"), ("modifier", "+2")]);
        let o = Opts::new(&inv, &["rating", "modifier"]).unwrap();
        assert_eq!(o.int("rating", -40, 40).unwrap(), Some(40));
        assert_eq!(o.int("modifier", -40, 40).unwrap(), Some(2));
        assert_eq!(o.int("absent", -40, 40).unwrap(), None);
        assert!(o.required("absent").is_err());
    }

    #[test]
    fn modes_parse_and_refuse() {
        assert_eq!("Blind".parse::<RollMode>(), Ok(RollMode::Blind));
        assert_eq!("self".parse::<RollMode>(), Ok(RollMode::SelfOnly));
        assert!("loud".parse::<RollMode>().is_err());
    }

    /// A refusal case: as a GM, the command, its options, what the refusal must say.
    type Case<'a> = (bool, &'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

    /// Misspelt names and the nearest a refusal must offer.
    const MISSPELT: &[Case<'static>] = &[
        (false, &["chek"], &[], "Did you mean /check?"),
        (
            false,
            &["check"],
            &[("character", "Gala of Iondren"), ("skill", "Sped")],
            "Did you mean Speed?",
        ),
        (
            false,
            &["check"],
            &[("character", "Gala of Iondren"), ("skill", "Perceptoin")],
            "Did you mean Perception?",
        ),
        (
            false,
            &["check"],
            &[("character", "Gala"), ("rating", "4")],
            "Did you mean Gala of Iondren?",
        ),
        (
            false,
            &["character", "skill"],
            &[
                ("name", "Gala of Iondren"),
                ("skill", "stelth"),
                ("rating", "2"),
            ],
            "Did you mean Stealth?",
        ),
        (
            true,
            &["gm", "rules"],
            &[("name", "tft_house_rule"), ("value", "on")],
            "Did you mean tft\\_house\\_rules?",
        ),
        (
            false,
            &["attack"],
            &[("target", "Gala of Iondren"), ("location", "haed")],
            "Did you mean Head?",
        ),
        (
            false,
            &["help"],
            &[("command", "chek")],
            "Did you mean check?",
        ),
        (
            true,
            &["gm", "request"],
            &[("characters", "Gala of Iondren"), ("skill", "Stelth")],
            "Did you mean Stealth?",
        ),
        (
            false,
            &["magic", "learn"],
            &[
                ("character", "Gala of Iondren"),
                ("skill", "Elementalsm"),
                ("tutor_rating", "3"),
            ],
            "Did you mean Elementalism?",
        ),
        (
            true,
            &["check"],
            &[("character", "Grubnk"), ("rating", "4")],
            "Did you mean Grubnak?",
        ),
    ];

    /// Issue 34: a misspelt command, skill, character, house rule, location or help topic is
    /// refused with the nearest names (one edit, a transposition, a prefix).
    #[test]
    fn refusals_say_what_was_meant() {
        let (_dir, app) = crate::app::temp_app(1);
        let caller = |gm: bool| crate::app::Caller {
            guild: crate::store::GuildId(1),
            user: crate::store::UserId(if gm { 9 } else { 10 }),
            name: "Ann".into(),
            roles: vec![],
            manage_server: gm,
        };
        let run = |gm: bool, path: &[&str], options: &[(&str, &str)]| match Command::parse(
            &Invocation::new(path, options),
        ) {
            Ok(c) => app.handle(&caller(gm), "i", c).content,
            Err(e) => e.to_string(),
        };
        run(
            false,
            &["character", "create"],
            &[("name", "Gala of Iondren"), ("system", "thiz")],
        );
        run(
            true,
            &["character", "create"],
            &[("name", "Grubnak"), ("system", "thiz"), ("npc", "true")],
        );
        let table = MISSPELT;
        for (gm, path, options, want) in table {
            let said = run(*gm, path, options);
            assert!(said.contains(want), "{path:?} {options:?}: {said}");
        }
        // A player is never offered an NPC's name.
        let said = run(
            false,
            &["check"],
            &[("character", "Grubnk"), ("rating", "4")],
        );
        assert!(!said.contains("Grubnak"), "{said}");
    }

    #[test]
    fn unknown_commands_are_refused() {
        let err = Command::parse(&Invocation::new(&["dance"], &[]))
            .err()
            .unwrap();
        assert!(err.to_string().contains("There is no command /dance"));
    }

    /// A value typed without its option name (`/character show Alys`) becomes an extra path
    /// word: every command family refuses it rather than running the shorter command.
    #[test]
    fn extra_words_after_a_command_are_refused() {
        for path in [
            &["character", "show", "alys"][..],
            &["character", "list", "x"],
            &["check", "swimming"],
            &["roll", "2d6"],
            &["luck", "show", "alys"],
            &["gm", "rules", "x"],
            &["tft", "save", "dx"],
            &["odds", "thiz", "4"],
            &["wound", "add", "x"],
            &["history", "x"],
            &["help", "roll"],
        ] {
            let err = Command::parse(&Invocation::new(path, &[]))
                .err()
                .unwrap_or_else(|| panic!("{path:?} was accepted"));
            assert!(
                err.to_string().contains(&format!("/{}", path.join(" "))),
                "{path:?}: {err}"
            );
        }
    }
}
