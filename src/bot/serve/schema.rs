//! The registered commands, as `referee serve` reads an interaction against them: which command
//! and subcommand it names, and its options as `app` takes them — the values the gateway's poise
//! wrappers ([`crate::bot::invoke::Args`]) would pass.
//!
//! Owns that mapping and its refusals. Pure: no I/O. The definitions are the ones poise
//! registers with Discord (`create_application_commands`, read back as JSON), so the names,
//! types and menus are exactly what Discord was told; an option name is `app`'s option name (the
//! commands' tests hold them together). The rules follow poise's, so both modes answer the same
//! interactions the same way: an unknown command or subcommand, a command without its
//! subcommand, a missing required option, a value of another type than registered, a menu
//! choice out of range, or a user, channel, role or file Discord did not resolve is [`Stale`]
//! (the "this command has changed" answer); an option that was never registered is ignored.

use poise::serenity_prelude as serenity;
use serde_json::Value;

use crate::bot::{Data, Error};

/// Discord's option types (the `type` of an application command option).
const SUBCOMMAND: u64 = 1;
const SUBCOMMAND_GROUP: u64 = 2;
const STRING: u64 = 3;
const INTEGER: u64 = 4;
const BOOLEAN: u64 = 5;
const USER: u64 = 6;
const CHANNEL: u64 = 7;
const ROLE: u64 = 8;
const MENTIONABLE: u64 = 9;
const NUMBER: u64 = 10;
const ATTACHMENT: u64 = 11;

/// Every registered command.
#[derive(Debug, Clone, Default)]
pub struct Registered {
    commands: Vec<Node>,
}

/// A command, subcommand group or subcommand.
#[derive(Debug, Clone)]
struct Node {
    name: String,
    options: Vec<Declared>,
    /// Subcommands (or groups); a node with none is a command Discord runs.
    subs: Vec<Node>,
}

/// An option as registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub kind: u64,
    pub required: bool,
    /// A fixed menu's choice names, in order: poise registers a menu as integer choices whose
    /// value is the index, and `app` takes the name.
    pub choices: Vec<String>,
    pub autocomplete: bool,
}

/// An interaction that does not fit the registered commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    /// The registered command it named, when it got that far (the metrics label).
    pub command: Option<String>,
    /// What was wrong, for the log.
    pub why: String,
}

/// A value for `app`.
#[derive(Debug, Clone)]
pub enum Given {
    Text(String),
    /// A file to read first (`/character import file:`).
    File(Box<serenity::Attachment>),
}

/// An interaction's command, found.
#[derive(Debug, Clone)]
pub struct Found {
    /// The registered path, `["character", "create"]`.
    pub path: Vec<String>,
    /// The options given, in the registered order, by their names.
    pub options: Vec<(String, Given)>,
}

impl Found {
    /// The command's registered name, `character create` (a bounded metrics label).
    pub fn label(&self) -> String {
        self.path.join(" ")
    }
}

/// An autocomplete request's focused option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus<'a> {
    pub path: Vec<String>,
    pub option: &'a Declared,
    /// What the user has typed so far.
    pub typed: String,
}

impl Registered {
    /// The commands as poise registers them.
    pub fn of(commands: &[poise::Command<Data, Error>]) -> Self {
        let commands = poise::builtins::create_application_commands(commands)
            .iter()
            .filter_map(|c| serde_json::to_value(c).ok())
            .map(|c| node(&c))
            .collect();
        Self { commands }
    }

    /// The registered name of the command `data` names, `character create` (a bounded metrics
    /// label), whatever its options; `None` when it names no registered command.
    pub fn label(&self, data: &serenity::CommandData) -> Option<String> {
        self.find(data).ok().map(|(path, _, _)| path.join(" "))
    }

    /// The command `data` names, with its options as `app` takes them.
    pub fn resolve(&self, data: &serenity::CommandData) -> Result<Found, Stale> {
        let (path, node, given) = self.find(data)?;
        let label = path.join(" ");
        let stale = |why: String| Stale {
            command: Some(label.clone()),
            why,
        };
        let mut options = Vec::new();
        for declared in &node.options {
            let Some(option) = given.iter().find(|o| o.name == declared.name) else {
                if declared.required {
                    return Err(stale(format!(
                        "the required option {} is missing",
                        declared.name
                    )));
                }
                continue;
            };
            let value = value(declared, &option.value, &data.resolved)
                .map_err(|why| stale(format!("the option {}: {why}", declared.name)))?;
            options.push((declared.name.clone(), value));
        }
        Ok(Found { path, options })
    }

    /// The option an autocomplete request is about: `Ok(None)` when no option is focused or the
    /// focused one was not registered with autocomplete (Discord then does not ask).
    pub fn focus(&self, data: &serenity::CommandData) -> Result<Option<Focus<'_>>, Stale> {
        let (path, node, given) = self.find(data)?;
        let focused = given.iter().find_map(|o| match &o.value {
            serenity::CommandDataOptionValue::Autocomplete { value, .. } => Some((&o.name, value)),
            _ => None,
        });
        let Some((name, typed)) = focused else {
            return Ok(None);
        };
        Ok(node
            .options
            .iter()
            .find(|d| d.name == *name && d.autocomplete)
            .map(|option| Focus {
                path,
                option,
                typed: typed.clone(),
            }))
    }

    /// The registered command `data` runs, its path, and the options given to it.
    fn find<'d>(
        &self,
        data: &'d serenity::CommandData,
    ) -> Result<(Vec<String>, &Node, &'d [serenity::CommandDataOption]), Stale> {
        let unknown = |why: String| Stale { command: None, why };
        if data.kind != serenity::CommandType::ChatInput {
            return Err(unknown(format!("a command of type {:?}", data.kind)));
        }
        let mut node = self
            .commands
            .iter()
            .find(|c| c.name == data.name)
            .ok_or_else(|| unknown(format!("no command /{}", data.name)))?;
        let mut path = vec![node.name.clone()];
        let mut given: &[serenity::CommandDataOption] = &data.options;
        loop {
            let nested = given.iter().find_map(|o| match &o.value {
                serenity::CommandDataOptionValue::SubCommand(inner)
                | serenity::CommandDataOptionValue::SubCommandGroup(inner) => {
                    Some((&o.name, inner))
                }
                _ => None,
            });
            match nested {
                Some((name, inner)) => {
                    node = node.subs.iter().find(|s| s.name == *name).ok_or_else(|| {
                        unknown(format!("/{} has no subcommand {name}", path.join(" ")))
                    })?;
                    path.push(node.name.clone());
                    given = inner;
                }
                None if !node.subs.is_empty() => {
                    return Err(Stale {
                        command: Some(path.join(" ")),
                        why: "a command without its subcommand".to_owned(),
                    });
                }
                None => return Ok((path, node, given)),
            }
        }
    }

    /// Every option registered with autocomplete: its command's path and its definition.
    #[cfg(test)]
    pub fn autocompleted(&self) -> Vec<(Vec<String>, &Declared)> {
        fn walk<'a>(
            node: &'a Node,
            path: &mut Vec<String>,
            out: &mut Vec<(Vec<String>, &'a Declared)>,
        ) {
            path.push(node.name.clone());
            for option in node.options.iter().filter(|o| o.autocomplete) {
                out.push((path.clone(), option));
            }
            for sub in &node.subs {
                walk(sub, path, out);
            }
            path.pop();
        }
        let mut out = Vec::new();
        for command in &self.commands {
            walk(command, &mut Vec::new(), &mut out);
        }
        out
    }
}

/// A command (or subcommand) from its registration JSON.
fn node(json: &Value) -> Node {
    let mut options = Vec::new();
    let mut subs = Vec::new();
    for option in json["options"].as_array().into_iter().flatten() {
        match option["type"].as_u64() {
            Some(SUBCOMMAND | SUBCOMMAND_GROUP) => subs.push(node(option)),
            kind => options.push(Declared {
                name: text(option, "name"),
                kind: kind.unwrap_or(STRING),
                required: option["required"] == true,
                choices: option["choices"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| text(c, "name"))
                    .collect(),
                autocomplete: option["autocomplete"] == true,
            }),
        }
    }
    Node {
        name: text(json, "name"),
        options,
        subs,
    }
}

fn text(json: &Value, key: &str) -> String {
    json[key].as_str().unwrap_or_default().to_owned()
}

/// One option's value as `app` takes it, if it has the registered type.
fn value(
    declared: &Declared,
    given: &serenity::CommandDataOptionValue,
    resolved: &serenity::CommandDataResolved,
) -> Result<Given, String> {
    use serenity::CommandDataOptionValue as V;
    let text = |s: String| Ok(Given::Text(s));
    if !declared.choices.is_empty() {
        return match given {
            V::Integer(i) => usize::try_from(*i)
                .ok()
                .and_then(|i| declared.choices.get(i))
                .map_or_else(
                    || Err(format!("choice {i} is out of range")),
                    |c| text(c.clone()),
                ),
            _ => Err("a menu takes one of its choices".to_owned()),
        };
    }
    let unresolved = |what: &str| Err(format!("Discord did not resolve the {what}"));
    match (declared.kind, given) {
        (STRING, V::String(s)) => text(s.clone()),
        (INTEGER, V::Integer(i)) => text(i.to_string()),
        (BOOLEAN, V::Boolean(b)) => text(b.to_string()),
        (NUMBER, V::Number(n)) => text(n.to_string()),
        (USER | MENTIONABLE, V::User(id)) if resolved.users.contains_key(id) => {
            text(id.get().to_string())
        }
        (CHANNEL, V::Channel(id)) if resolved.channels.contains_key(id) => {
            text(id.get().to_string())
        }
        (ROLE | MENTIONABLE, V::Role(id)) if resolved.roles.contains_key(id) => {
            text(id.get().to_string())
        }
        (ATTACHMENT, V::Attachment(id)) => resolved.attachments.get(id).map_or_else(
            || unresolved("file"),
            |a| Ok(Given::File(Box::new(a.clone()))),
        ),
        (USER | CHANNEL | ROLE | MENTIONABLE, V::User(_) | V::Channel(_) | V::Role(_)) => {
            unresolved("id")
        }
        (kind, other) => Err(format!(
            "registered as type {kind}, sent as {}",
            sent(other)
        )),
    }
}

/// What a value was sent as, for the log.
fn sent(value: &serenity::CommandDataOptionValue) -> &'static str {
    use serenity::CommandDataOptionValue as V;
    match value {
        V::Autocomplete { .. } => "text being typed",
        V::Boolean(_) => "a boolean",
        V::Integer(_) => "an integer",
        V::Number(_) => "a number",
        V::String(_) => "text",
        V::SubCommand(_) | V::SubCommandGroup(_) => "a subcommand",
        V::Attachment(_) => "a file",
        V::Channel(_) => "a channel",
        V::Mentionable(_) => "a mention",
        V::Role(_) => "a role",
        V::User(_) => "a user",
        _ => "something unknown",
    }
}

#[cfg(test)]
mod tests {
    use poise::ChoiceParameter as _;
    use serde_json::json;

    use super::*;

    fn registered() -> Registered {
        Registered::of(&crate::bot::commands())
    }

    fn data(json: Value) -> serenity::CommandData {
        serde_json::from_value(json).expect("command data serenity reads")
    }

    fn command(name: &str, options: Value) -> serenity::CommandData {
        let mut d = json!({ "id": "1", "name": name, "type": 1 });
        d["options"] = options;
        data(d)
    }

    fn texts(found: &Found) -> Vec<(&str, &str)> {
        found
            .options
            .iter()
            .map(|(n, v)| match v {
                Given::Text(t) => (n.as_str(), t.as_str()),
                Given::File(_) => (n.as_str(), "<file>"),
            })
            .collect()
    }

    #[test]
    fn options_become_what_the_poise_wrappers_pass() {
        let r = registered();
        // /check: integers as numbers, a menu's index as its choice's name (the wrappers'
        // `Args::choice`), in the registered order whatever order they came in.
        let found = r
            .resolve(&command(
                "check",
                json!([
                    { "name": "label", "type": 3, "value": "sneak" },
                    { "name": "mode", "type": 4, "value": 1 },
                    { "name": "rating", "type": 4, "value": -4 },
                ]),
            ))
            .expect("fits");
        assert_eq!(found.path, ["check"]);
        assert_eq!(found.label(), "check");
        let mode = crate::bot::choices::Mode::list()
            .get(1)
            .map(|c| c.name.to_string())
            .expect("a second mode");
        assert_eq!(
            texts(&found),
            [
                ("rating", "-4"),
                ("mode", mode.as_str()),
                ("label", "sneak")
            ]
        );
        // A subcommand, a boolean.
        let found = r
            .resolve(&command(
                "character",
                json!([{ "name": "create", "type": 1, "options": [
                    { "name": "name", "type": 3, "value": "Gala of Iondren" },
                    { "name": "npc", "type": 5, "value": true },
                ]}]),
            ))
            .expect("fits");
        assert_eq!(found.path, ["character", "create"]);
        assert_eq!(found.label(), "character create");
        assert_eq!(
            texts(&found),
            [("name", "Gala of Iondren"), ("npc", "true")]
        );
    }

    #[test]
    fn channels_roles_and_files_need_discords_resolved_data() {
        let r = registered();
        let setup = |resolved: Value| {
            let mut d = json!({ "id": "1", "name": "gm", "type": 1, "options": [
                { "name": "setup", "type": 1, "options": [
                    { "name": "gm_channel", "type": 7, "value": "700" },
                    { "name": "gm_role", "type": 8, "value": "800" },
                ]}
            ]});
            d["resolved"] = resolved;
            r.resolve(&data(d))
        };
        let found = setup(json!({
            "channels": { "700": { "id": "700", "name": "gm", "type": 0, "permissions": "0" } },
            "roles": { "800": { "id": "800", "name": "GM", "color": 0,
                "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
                "hoist": false,
                "position": 1, "permissions": "0", "managed": false, "mentionable": true,
                "flags": 0 } },
        }))
        .expect("resolved");
        let mut got = texts(&found);
        got.sort_unstable();
        assert_eq!(got, [("gm_channel", "700"), ("gm_role", "800")]);
        let stale = setup(json!({})).expect_err("nothing resolved");
        assert_eq!(stale.command.as_deref(), Some("gm setup"));

        let import = |resolved: Value| {
            let mut d = json!({ "id": "1", "name": "character", "type": 1, "options": [
                { "name": "import", "type": 1, "options": [
                    { "name": "file", "type": 11, "value": "900" },
                ]}
            ]});
            d["resolved"] = resolved;
            r.resolve(&data(d))
        };
        let found = import(json!({ "attachments": { "900": {
            "id": "900", "filename": "gala.json", "size": 10,
            "url": "http://127.0.0.1:9/a", "proxy_url": "http://127.0.0.1:9/a" } } }))
        .expect("resolved");
        assert!(
            matches!(&found.options[..], [(name, Given::File(f))] if name == "file" && f.filename == "gala.json"),
            "{found:?}"
        );
        assert!(import(json!({})).is_err(), "a file Discord did not resolve");
    }

    #[test]
    fn what_poise_would_refuse_is_stale() {
        let r = registered();
        #[rustfmt::skip]
        let cases: Vec<(&str, serenity::CommandData, Option<&str>)> = vec![
            ("an unknown command", command("teleport", json!([])), None),
            ("an unknown subcommand",
                command("character", json!([{ "name": "fly", "type": 1, "options": [] }])), None),
            ("a command without its subcommand", command("character", json!([])),
                Some("character")),
            ("a missing required option", command("roll", json!([])), Some("roll")),
            ("an option of the wrong type",
                command("roll", json!([{ "name": "expression", "type": 4, "value": 4 }])),
                Some("roll")),
            ("a number sent as text",
                command("check", json!([{ "name": "rating", "type": 3, "value": "four" }])),
                Some("check")),
            ("a choice out of range", command("roll", json!([
                { "name": "expression", "type": 3, "value": "1d6" },
                { "name": "mode", "type": 4, "value": 99 }])), Some("roll")),
            ("a negative choice", command("roll", json!([
                { "name": "expression", "type": 3, "value": "1d6" },
                { "name": "mode", "type": 4, "value": -1 }])), Some("roll")),
            ("a choice sent by its old text value", command("roll", json!([
                { "name": "expression", "type": 3, "value": "1d6" },
                { "name": "mode", "type": 3, "value": "private" }])), Some("roll")),
            ("a value still being typed", command("roll", json!([
                { "name": "expression", "type": 3, "value": "1d", "focused": true }])),
                Some("roll")),
            ("a user command", data(json!({ "id": "1", "name": "roll", "type": 2 })), None),
        ];
        for (what, d, command) in cases {
            let stale = r.resolve(&d).expect_err(what);
            assert_eq!(stale.command.as_deref(), command, "{what}: {stale:?}");
            assert!(!stale.why.is_empty(), "{what}");
        }
    }

    #[test]
    fn an_option_never_registered_is_ignored_as_poise_does() {
        let found = registered()
            .resolve(&command(
                "roll",
                json!([
                    { "name": "expression", "type": 3, "value": "2d6" },
                    { "name": "colour", "type": 3, "value": "red" },
                ]),
            ))
            .expect("fits");
        assert_eq!(texts(&found), [("expression", "2d6")]);
    }

    #[test]
    fn the_focused_option_is_found_only_where_autocomplete_was_registered() {
        let r = registered();
        let focus = r
            .focus(&command(
                "character",
                json!([{ "name": "show", "type": 1, "options": [
                    { "name": "name", "type": 3, "value": "Ga", "focused": true },
                ]}]),
            ))
            .expect("fits")
            .expect("focused");
        assert_eq!(focus.path, ["character", "show"]);
        assert_eq!(focus.option.name, "name");
        assert_eq!(focus.typed, "Ga");
        // /roll label has no autocomplete: nothing to offer.
        let none = r
            .focus(&command(
                "roll",
                json!([{ "name": "label", "type": 3, "value": "st", "focused": true }]),
            ))
            .expect("fits");
        assert_eq!(none, None);
        // /roll expression has (saved rolls, recent rolls).
        let some = r
            .focus(&command(
                "roll",
                json!([{ "name": "expression", "type": 3, "value": "1d", "focused": true }]),
            ))
            .expect("fits")
            .expect("focused");
        assert_eq!(some.option.name, "expression");
        assert!(r.focus(&command("teleport", json!([]))).is_err());
    }

    #[test]
    fn every_registered_command_path_is_found() {
        let r = registered();
        let mut leaves = 0;
        for (path, _) in r.autocompleted() {
            let (top, subs) = path.split_first().expect("a path");
            let mut options = json!([]);
            for sub in subs.iter().rev() {
                options = json!([{ "name": sub, "type": 1, "options": options }]);
            }
            let stale = r.resolve(&command(top, options)).err();
            // Found: at most a required option is missing.
            assert!(
                stale.as_ref().is_none_or(|s| s.why.contains("required")),
                "{path:?}: {stale:?}"
            );
            leaves += 1;
        }
        assert!(leaves > 50, "only {leaves} options with autocomplete");
    }
}
