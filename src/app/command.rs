//! The dispatcher: an [`Invocation`] parsed into the typed command of the family that runs it,
//! and run.
//!
//! Sits on top of the families: it imports each of them, and none imports it (the types they
//! share, [`Invocation`], [`Opts`] and [`RollMode`], are in [`super::invocation`]). Each family
//! owns its typed command and parses its own options; this module only routes a path to it.

use super::context::Ctx;
use super::error::{AppResult, user};
use super::invocation::{Invocation, RollMode};
use super::reply::Reply;
use super::{aliases, characters, encounter, gm, help, luck, rolls, tft, thiz};
use crate::store::guilds::System;

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
    /// `/alias …`: saved rolls.
    Aliases(aliases::AliasCommand),
    /// `/npc …`: the bestiary.
    Npc(characters::bestiary::NpcCommand),
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
            ["roll"] | ["gm", "roll"] | ["reveal"] | ["history"] | ["odds", "dice"] => {
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
            // A roll request is refused at once if the command it asks for would be.
            ["gm", ..] => Command::Gm(gm::GmCommand::parse(inv, |inv| {
                Command::parse(inv).map(|_| ())
            })?),
            ["help"] => Command::Help(help::HelpCommand::parse(inv)?),
            ["encounter", ..] => Command::Encounter(encounter::EncounterCommand::parse(inv)?),
            ["alias", ..] => Command::Aliases(aliases::AliasCommand::parse(inv)?),
            ["npc", ..] => Command::Npc(characters::bestiary::NpcCommand::parse(inv)?),
            ["odds"] => {
                return Err(user(
                    "/odds needs a system: /odds thiz rating:4, /odds tft target:12 dice:3, or /odds dice expression:4d6kh3",
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

    /// Runs the command. The dispatcher lends itself to it, for the commands that run another
    /// ([`Ctx::run_command`]).
    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        ctx.dispatch
            .set(Some(|ctx, inv| Command::parse(inv)?.run(ctx)));
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
            Command::Aliases(c) => c.run(ctx),
            Command::Npc(c) => c.run(ctx),
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
