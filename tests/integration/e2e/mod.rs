//! End-to-end tests of the real `referee run` binary against the fake Discord (`crate::fake`).
//!
//! Owns the [`Session`] harness and the tests in its submodules. Never sleeps: every step waits on
//! an event the fake records, with a timeout, and a failure prints what the fake saw and the bot's
//! standard error.
//!
//! # Writing a test
//!
//! ```text
//! let s = Session::start();                     // fake + bot + temp db; waits for READY and the
//!                                               // command registration
//! let alice = s.player(10);                     // Caller: a member without Manage Server
//! let gm = s.gm(1);                             // Caller: a member with Manage Server ("32")
//! let r = s.run(&alice, "/roll expression:2d6+1 mode:private");
//! r.kind();            // the callback type: 4 message, 5 defer, 7 update, 8 autocomplete
//! r.text();            // content + embed titles, descriptions, fields, footers (one string)
//! r.ephemeral();       // flags & 64
//! r.custom_ids();      // the buttons' custom ids
//! r.followup(0);       // the first follow-up (POST /webhooks/{app}/{token}), waited for
//! r.edit();            // the first PATCH of @original (a deferred answer's content), waited for
//! r.channel_message(GM_CHANNEL_ID);  // the first message in that channel after the dispatch
//! let p = s.press(&alice, &r.message(), "luck:reroll:2");   // a button press → Reply
//! let choices = s.autocomplete(&alice, "/check skill:Sw", "skill");  // data.choices
//! s.console(&gm, "/gm setup gm_channel:700000000000000002");  // `referee console` on the db
//! s.restart();         // SIGTERM (asserts exit 0), start again on the same database
//! ```
//!
//! `run` reads the line with the console's own parser (`referee::console::parse_line`) and types
//! each option from the command definitions the bot registered: integers, booleans, numbers,
//! fixed menus (a choice's name becomes its value), users, channels and roles (with
//! `data.resolved`), and attachments (the value is a file path: the fake serves the file and the
//! payload points at it). An option the bot did not register fails the test at once.
//!
//! Every session is independent (its own fake, port, process and database), so tests run in
//! parallel. Dropping a session kills the bot, then checks the fake: an unknown route or a body
//! that breaks Discord's OpenAPI schema fails the test.

// A harness for every end-to-end test to come: each test uses only part of it.
#![allow(dead_code)]

mod buttons;
mod characters;
mod commands;
mod crash;
mod delivery;
mod gateway;
mod heal;
mod lifecycle;
mod malformed;
mod metrics;
mod modes;
mod nginx;
mod overload;
mod roll;
mod secrecy;
mod serve;
mod shards;

use std::path::Path;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::fake::payload::{self, Built, Caller};
use crate::fake::process::{BotOptions, BotProcess};
use crate::fake::{FakeDiscord, Request, TIMEOUT};

pub use crate::fake::payload::{CHANNEL_ID, GM_CHANNEL_ID, GUILD_ID};

/// The roll number of the first "Roll #n" footer in `text`.
pub fn roll_number_in(text: &str) -> Option<u64> {
    text.split_once("Roll #").and_then(|(_, rest)| {
        rest.split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
    })
}

/// A fake Discord, the bot connected to it, and the bot's temporary directory.
pub struct Session {
    // Field order is drop order: the bot dies before the fake's final checks run.
    bot: BotProcess,
    pub fake: FakeDiscord,
    options: BotOptions,
    /// The commands as last registered (the PUT body).
    commands: Vec<Value>,
    /// Bot processes started so far.
    starts: usize,
    _dir: tempfile::TempDir,
}

impl Session {
    /// A fake and a bot registering its commands globally.
    pub fn start() -> Self {
        Self::start_with(|_| {})
    }

    /// Like [`Session::start`], after `configure` has changed the bot's options (for example
    /// `dev_guild_id`).
    pub fn start_with(configure: impl FnOnce(&mut BotOptions)) -> Self {
        let fake = FakeDiscord::start();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut options = BotOptions::new(&fake, dir.path());
        configure(&mut options);
        let bot = BotProcess::spawn(&options);
        let mut session = Self {
            bot,
            fake,
            options,
            commands: Vec::new(),
            starts: 1,
            _dir: dir,
        };
        session.wait_started();
        session
    }

    /// Waits for this start's READY and command registration.
    fn wait_started(&mut self) {
        self.fake.wait_ready(self.starts, TIMEOUT);
        let put = self
            .fake
            .wait_for_n(
                self.starts,
                "the command registration",
                TIMEOUT,
                is_registration,
            )
            .pop()
            .expect("wait_for_n returns as many as asked");
        self.commands = put.body().as_array().cloned().unwrap_or_default();
    }

    /// The bot process (its stderr, pid…).
    pub fn bot(&mut self) -> &mut BotProcess {
        &mut self.bot
    }

    pub fn options(&self) -> &BotOptions {
        &self.options
    }

    /// The commands the bot registered, as it sent them.
    pub fn commands(&self) -> &[Value] {
        &self.commands
    }

    /// The latest registration request.
    pub fn registration(&self) -> Request {
        self.fake
            .requests()
            .into_iter()
            .rev()
            .find(is_registration)
            .expect("a registration happened at start")
    }

    // Methods rather than free functions, so tests read `s.player(10)` and a later session can
    // give its callers roles without changing every test.
    #[allow(clippy::unused_self)]
    pub fn player(&self, user_id: u64) -> Caller {
        Caller::player(user_id)
    }

    #[allow(clippy::unused_self)] // see `player`
    pub fn gm(&self, user_id: u64) -> Caller {
        Caller::gm(user_id)
    }

    /// The interaction payload for a console-style line, typed from the registered commands.
    pub fn build(&self, caller: &Caller, line: &str) -> Built {
        let (name, options, resolved) = self.typed(line, None);
        payload::command(caller, &name, options, resolved)
    }

    /// Dispatches `line` as `caller` and waits for the interaction's callback.
    pub fn run(&self, caller: &Caller, line: &str) -> Reply<'_> {
        let built = self.build(caller, line);
        self.send(built)
    }

    /// Dispatches a built interaction (a slash command, a button…) and waits for its callback.
    pub fn send(&self, built: Built) -> Reply<'_> {
        self.send_with(built, FakeDiscord::dispatch)
    }

    /// Dispatches an interaction serenity cannot read, and waits for its callback.
    pub fn send_unreadable(&self, built: Built) -> Reply<'_> {
        self.send_with(built, FakeDiscord::dispatch_unreadable)
    }

    fn send_with(&self, built: Built, dispatch: fn(&FakeDiscord, &Built)) -> Reply<'_> {
        let from = self.fake.requests().len();
        dispatch(&self.fake, &built);
        let callback = self.fake.callback_for(built.id);
        Reply {
            session: self,
            interaction: built,
            callback,
            from,
        }
    }

    /// An autocomplete request for `line` with `focused` as the option being typed; returns
    /// the `data.choices` of the type 8 callback.
    pub fn autocomplete(&self, caller: &Caller, line: &str, focused: &str) -> Vec<Value> {
        let (name, options, _) = self.typed(line, Some(focused));
        let reply = self.send(payload::autocomplete(caller, &name, options, focused));
        assert_eq!(
            reply.kind(),
            8,
            "an autocomplete answer: {}",
            reply.callback_body()
        );
        reply.data()["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// `caller` presses the button `custom_id` on `message` (a Message object, e.g.
    /// [`Reply::message`]).
    pub fn press(&self, caller: &Caller, message: &Value, custom_id: &str) -> Reply<'_> {
        self.send(payload::button(caller, message.clone(), custom_id))
    }

    /// Runs one line in `referee console --json` on the session's database, as `caller` in the
    /// session's guild; returns the reply object (Discord's data plus `visibility`, `gm_copy`).
    /// For setting things up that the bot has no command for yet.
    pub fn console(&self, caller: &Caller, line: &str) -> Value {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
        command
            .arg("--config")
            .arg(self.options.config())
            .args(["console", "--json", "--guild", &GUILD_ID.to_string()])
            .args(["--user", &caller.user_id.to_string()])
            .arg("--db")
            .arg(self.options.db())
            .env_remove("DISCORD_TOKEN")
            .env_remove("DISCORD_API_BASE")
            .env_remove("REFEREE_DB")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if caller.permissions & payload::MANAGE_GUILD != 0 {
            command.arg("--gm");
        }
        let mut child = command.spawn().expect("referee console starts");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            writeln!(stdin, "{line}").expect("write the line");
        }
        let out = child.wait_with_output().expect("the console ends");
        assert!(
            out.status.success(),
            "referee console failed on {line:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "the console's answer to {line:?} is not one JSON object ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        })
    }

    /// SIGTERM; waits for the exit status.
    pub fn stop(&mut self) -> ExitStatus {
        self.bot.terminate(TIMEOUT)
    }

    /// Stops the bot (asserting exit status 0) and starts it again on the same database and
    /// configuration; waits for its READY and registration.
    pub fn restart(&mut self) {
        let status = self.stop();
        assert!(
            status.success(),
            "the bot exits 0 on SIGTERM, got {status}; stderr:\n{}",
            self.bot.stderr()
        );
        self.bot = BotProcess::spawn(&self.options);
        self.starts += 1;
        self.wait_started();
    }

    /// The command definition `/name`, as registered.
    pub fn command(&self, name: &str) -> &Value {
        self.commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| {
                panic!(
                    "the bot registered no /{name}; it registered: {:?}",
                    self.commands
                        .iter()
                        .map(|c| c["name"].as_str().unwrap_or("?"))
                        .collect::<Vec<_>>()
                )
            })
    }

    /// Parses `line` and types its options: `(command name, options tree, data.resolved)`.
    /// `raw` names an option kept as typed text (the focused option of an autocomplete).
    fn typed(&self, line: &str, raw: Option<&str>) -> (String, Vec<Value>, Value) {
        let invocation = referee::console::parse_line(line)
            .unwrap_or_else(|e| panic!("{line:?} is not a command line: {e}"));
        let (top, subpath) = invocation
            .path
            .split_first()
            .expect("parse_line gives a path");
        let mut definitions = self.command(top)["options"].clone();
        for part in subpath {
            definitions = find(&definitions, part, line)
                .filter(|o| o["type"] == 1 || o["type"] == 2)
                .unwrap_or_else(|| panic!("/{top} has no subcommand {part} ({line:?})"))["options"]
                .clone();
        }
        let mut resolved = Map::new();
        let mut options: Vec<Value> = invocation
            .options
            .iter()
            .map(|(name, value)| {
                let definition = find(&definitions, name, line)
                    .unwrap_or_else(|| panic!("{line:?}: the bot registered no option {name}"));
                let kind = definition["type"].as_u64().unwrap_or(3);
                if raw == Some(name.as_str()) {
                    // Discord only asks about options registered with autocomplete, and poise
                    // silently ignores any other: fail here rather than time out.
                    assert!(
                        definition["autocomplete"] == true,
                        "{line:?}: the option {name} was not registered with autocomplete"
                    );
                    return payload::option(name, kind, Value::from(value.as_str()));
                }
                let typed = self.typed_value(definition, value, &mut resolved, line);
                payload::option(name, kind, typed)
            })
            .collect();
        for (depth, part) in subpath.iter().enumerate().rev() {
            // The innermost level is a subcommand (1), any level above it a group (2).
            let kind = if depth + 1 == subpath.len() { 1 } else { 2 };
            options = vec![json!({ "name": part, "type": kind, "options": options })];
        }
        let resolved = if resolved.is_empty() {
            Value::Null
        } else {
            Value::Object(resolved)
        };
        (top.clone(), options, resolved)
    }

    /// One option's value as Discord sends it, adding to `data.resolved` when Discord would.
    fn typed_value(
        &self,
        definition: &Value,
        value: &str,
        resolved: &mut Map<String, Value>,
        line: &str,
    ) -> Value {
        let name = definition["name"].as_str().unwrap_or("?");
        if let Some(choices) = definition["choices"].as_array().filter(|c| !c.is_empty()) {
            // A fixed menu: the user picks a choice by its name; Discord sends its value.
            return choices
                .iter()
                .find(|c| c["name"] == value || c["value"].as_str() == Some(value))
                .unwrap_or_else(|| {
                    panic!("{line:?}: {value:?} is not a choice of {name}: {choices:?}")
                })["value"]
                .clone();
        }
        let id = || -> u64 {
            value
                .parse()
                .unwrap_or_else(|_| panic!("{line:?}: {name} takes an id, not {value:?}"))
        };
        let mut add = |section: &str, key: String, object: Value| {
            resolved
                .entry(section)
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .expect("a resolved section is an object")
                .insert(key, object);
        };
        match definition["type"].as_u64() {
            Some(4) => Value::from(
                value
                    .parse::<i64>()
                    .unwrap_or_else(|_| panic!("{line:?}: {name} takes an integer, not {value:?}")),
            ),
            Some(10) => Value::from(
                value
                    .parse::<f64>()
                    .unwrap_or_else(|_| panic!("{line:?}: {name} takes a number, not {value:?}")),
            ),
            Some(5) => Value::from(
                value
                    .parse::<bool>()
                    .unwrap_or_else(|_| panic!("{line:?}: {name} takes true/false, not {value:?}")),
            ),
            Some(6) => {
                let user = id();
                add(
                    "users",
                    user.to_string(),
                    payload::user(user, &format!("user{user}")),
                );
                add(
                    "members",
                    user.to_string(),
                    json!({"roles": [], "joined_at": "2024-01-01T00:00:00.000000+00:00",
                           "deaf": false, "mute": false, "flags": 0,
                           "permissions": payload::PLAYER_PERMISSIONS.to_string()}),
                );
                Value::from(user.to_string())
            }
            Some(7) => {
                let channel = id();
                add(
                    "channels",
                    channel.to_string(),
                    json!({"id": channel.to_string(), "name": format!("channel-{channel}"),
                           "type": 0, "permissions": payload::ALL_PERMISSIONS.to_string()}),
                );
                Value::from(channel.to_string())
            }
            Some(8) => {
                let role = id();
                add(
                    "roles",
                    role.to_string(),
                    json!({"id": role.to_string(), "name": format!("role-{role}"), "color": 0,
                           "colors": {"primary_color": 0, "secondary_color": null,
                                      "tertiary_color": null},
                           "hoist": false, "position": 1, "permissions": "0",
                           "managed": false, "mentionable": true, "flags": 0}),
                );
                Value::from(role.to_string())
            }
            Some(11) => {
                let path = Path::new(value);
                let bytes = std::fs::read(path).unwrap_or_else(|e| {
                    panic!("{line:?}: cannot read the attachment {value}: {e}")
                });
                let filename = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("file")
                    .to_owned();
                let size = bytes.len();
                let (attachment, url) = self.fake.add_attachment(&filename, bytes);
                add(
                    "attachments",
                    attachment.to_string(),
                    json!({"id": attachment.to_string(), "filename": filename, "size": size,
                           "url": url, "proxy_url": url}),
                );
                Value::from(attachment.to_string())
            }
            _ => Value::from(value),
        }
    }
}

fn find<'a>(definitions: &'a Value, name: &str, line: &str) -> Option<&'a Value> {
    let found = definitions
        .as_array()
        .and_then(|all| all.iter().find(|o| o["name"] == name));
    if found.is_none() {
        eprintln!(
            "{line:?}: no {name} among {:?}",
            definitions
                .as_array()
                .map(|all| all.iter().map(|o| o["name"].clone()).collect::<Vec<_>>())
        );
    }
    found
}

/// Is this the command registration (global or in a guild)?
fn is_registration(r: &Request) -> bool {
    r.method == "PUT" && r.route().starts_with("/applications/") && r.route().ends_with("/commands")
}

/// The answer to one dispatched interaction.
pub struct Reply<'s> {
    session: &'s Session,
    pub interaction: Built,
    /// The `POST /interactions/{id}/{token}/callback` request.
    pub callback: Request,
    /// How many requests had arrived when the interaction was dispatched.
    from: usize,
}

impl Reply<'_> {
    /// The callback's body: `{"type": …, "data": …}`.
    pub fn callback_body(&self) -> &Value {
        self.callback.body()
    }

    /// The callback type: 4 message, 5 deferred, 7 update message, 8 autocomplete result.
    pub fn kind(&self) -> u64 {
        self.callback_body()["type"].as_u64().unwrap_or(0)
    }

    /// The callback's `data`.
    pub fn data(&self) -> &Value {
        &self.callback_body()["data"]
    }

    pub fn content(&self) -> &str {
        self.data()["content"].as_str().unwrap_or("")
    }

    /// Everything a reader sees, as one string (see [`message_text`]).
    pub fn text(&self) -> String {
        message_text(self.data())
    }

    /// Only the caller sees it (flags has 64).
    pub fn ephemeral(&self) -> bool {
        self.data()["flags"].as_u64().unwrap_or(0) & 64 != 0
    }

    /// The custom ids of the message's buttons, in order.
    pub fn custom_ids(&self) -> Vec<String> {
        custom_ids(self.data())
    }

    /// The message as Discord would hold it (for [`Session::press`]).
    pub fn message(&self) -> Value {
        payload::message(payload::next_id(), CHANNEL_ID, self.data())
    }

    /// The `n`th (from 0) follow-up message of this interaction, waited for.
    pub fn followup(&self, n: usize) -> Request {
        self.session.fake.followup_for(&self.interaction.token, n)
    }

    /// The first edit of the original response (`PATCH …/messages/@original`), waited for: where
    /// the content of a deferred (type 5) answer arrives.
    pub fn edit(&self) -> Request {
        let token = &self.interaction.token;
        self.session.fake.wait_for_from(
            self.from,
            &format!("an edit of the original response of {token}"),
            TIMEOUT,
            |r| {
                r.method == "PATCH"
                    && r.route().starts_with("/webhooks/")
                    && r.route().ends_with(&format!("/{token}/messages/@original"))
            },
        )
    }

    /// The first message posted in `channel_id` since this interaction was dispatched.
    pub fn channel_message(&self, channel_id: u64) -> Request {
        self.session.fake.wait_for_from(
            self.from,
            &format!("a message in channel {channel_id}"),
            TIMEOUT,
            |r| r.is_channel_message(channel_id),
        )
    }

    /// From the dispatch's flush to the callback's arrival.
    pub fn latency(&self) -> Duration {
        let flushed = self
            .session
            .fake
            .dispatches()
            .into_iter()
            .find(|d| d.interaction_id == self.interaction.id)
            .map_or_else(Instant::now, |d| d.flushed_at);
        self.callback.at.saturating_duration_since(flushed)
    }
}

/// A message body's readable text: content, then each embed's title, description, fields
/// (`name: value`) and footer, one per line.
pub fn message_text(body: &Value) -> String {
    let mut lines = Vec::new();
    let mut push = |v: &Value| {
        if let Some(s) = v.as_str().filter(|s| !s.is_empty()) {
            lines.push(s.to_owned());
        }
    };
    push(&body["content"]);
    for embed in body["embeds"].as_array().into_iter().flatten() {
        push(&embed["title"]);
        push(&embed["description"]);
        for field in embed["fields"].as_array().into_iter().flatten() {
            push(&Value::from(format!(
                "{}: {}",
                field["name"].as_str().unwrap_or(""),
                field["value"].as_str().unwrap_or("")
            )));
        }
        push(&embed["footer"]["text"]);
    }
    lines.join("\n")
}

/// The custom ids of every button in a message body.
pub fn custom_ids(body: &Value) -> Vec<String> {
    body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["custom_id"].as_str().map(str::to_owned))
        .collect()
}
