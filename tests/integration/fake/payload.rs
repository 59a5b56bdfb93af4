//! Builders for the interaction payloads the fake dispatches, and for Message objects.
//!
//! Owns the JSON shape of what Discord would send the bot: a slash command (options may nest
//! subcommands), an autocomplete (one focused option) and a button click (with the full message),
//! always in a guild with a `member` and `app_permissions`. Every builder deserializes its JSON
//! into serenity's own `Interaction` before handing it out and panics with the serde error when it
//! does not fit: serenity would otherwise drop the event silently and the bot would never answer.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

/// The application (and bot user) id the fake announces in READY.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_001;
/// The guild every payload comes from.
pub const GUILD_ID: u64 = 800_000_000_000_000_001;
/// The channel every payload comes from.
pub const CHANNEL_ID: u64 = 700_000_000_000_000_001;
/// A second channel, free for a test to make the GM channel.
pub const GM_CHANNEL_ID: u64 = 700_000_000_000_000_002;
/// Every permission bit Discord defines today: what the bot itself holds (`app_permissions`).
pub const ALL_PERMISSIONS: u64 = (1 << 51) - 1;
/// Manage Server.
pub const MANAGE_GUILD: u64 = 1 << 5;
/// View Channel | Send Messages: what a plain player holds.
pub const PLAYER_PERMISSIONS: u64 = (1 << 10) | (1 << 11);

/// Fresh snowflakes, unique in the whole test process (so two fakes never share an id).
pub fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1_300_000_000_000_000_000);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The member who runs a command or presses a button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub user_id: u64,
    pub name: String,
    pub roles: Vec<u64>,
    /// The member's permissions in the channel (a bit set; `MANAGE_GUILD` makes a GM).
    pub permissions: u64,
}

impl Caller {
    /// A player: may view and send messages, nothing else.
    pub fn player(user_id: u64) -> Self {
        Self {
            user_id,
            name: format!("player{user_id}"),
            roles: Vec::new(),
            permissions: PLAYER_PERMISSIONS,
        }
    }

    /// A GM: a player with Manage Server.
    pub fn gm(user_id: u64) -> Self {
        Self {
            name: format!("gm{user_id}"),
            permissions: PLAYER_PERMISSIONS | MANAGE_GUILD,
            ..Self::player(user_id)
        }
    }

    fn member(&self) -> Value {
        json!({
            "user": user(self.user_id, &self.name),
            "roles": self.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": self.permissions.to_string(),
        })
    }
}

/// A Discord user object.
pub fn user(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
    })
}

/// One built interaction: its id, token and JSON (already checked against serenity's types).
#[derive(Debug, Clone)]
pub struct Built {
    pub id: u64,
    pub token: String,
    pub json: Value,
}

/// An option of a slash command: `{"name","type","value"}`.
pub fn option(name: &str, kind: u64, value: Value) -> Value {
    let mut o = json!({ "name": name, "type": kind });
    o["value"] = value;
    o
}

/// A string option (type 3).
pub fn string(name: &str, value: &str) -> Value {
    option(name, 3, Value::from(value))
}

/// An integer option (type 4).
pub fn integer(name: &str, value: i64) -> Value {
    option(name, 4, Value::from(value))
}

/// A subcommand (type 1) holding `options`.
pub fn subcommand(name: &str, options: Vec<Value>) -> Value {
    let mut o = json!({ "name": name, "type": 1 });
    o["options"] = Value::Array(options);
    o
}

/// A subcommand group (type 2) holding subcommands.
pub fn group(name: &str, subcommands: Vec<Value>) -> Value {
    let mut o = json!({ "name": name, "type": 2 });
    o["options"] = Value::Array(subcommands);
    o
}

/// What every interaction carries, whatever its type (not yet checked: the caller adds to it).
fn base(kind: u64, caller: &Caller, data: Value) -> Built {
    let id = next_id();
    let token = format!("itoken-{id}");
    let mut json = json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": kind,
        "guild_id": GUILD_ID.to_string(),
        "channel_id": CHANNEL_ID.to_string(),
        "member": caller.member(),
        "token": token,
        "version": 1,
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": ALL_PERMISSIONS.to_string(),
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": 0,
        "attachment_size_limit": 26_214_400,
    });
    json["data"] = data;
    Built { id, token, json }
}

/// A slash command `/name` with `options` (top-level options, or one subcommand / group).
/// `resolved` is Discord's `data.resolved` (attachments, users…), `Value::Null` for none.
pub fn command(caller: &Caller, name: &str, options: Vec<Value>, resolved: Value) -> Built {
    let mut data = json!({
        "id": command_id(name).to_string(),
        "name": name,
        "type": 1,
    });
    data["options"] = Value::Array(options);
    if !resolved.is_null() {
        data["resolved"] = resolved;
    }
    let built = base(2, caller, data);
    checked(&built.json);
    built
}

/// An autocomplete request: like [`command`], with `"focused": true` on the option named
/// `focused` (searched through nested subcommands).
pub fn autocomplete(caller: &Caller, name: &str, mut options: Vec<Value>, focused: &str) -> Built {
    assert!(
        mark_focused(&mut options, focused),
        "no option named {focused} in {options:?}"
    );
    let data = json!({
        "id": command_id(name).to_string(),
        "name": name,
        "type": 1,
        "options": options,
    });
    let built = base(4, caller, data);
    checked(&built.json);
    built
}

fn mark_focused(options: &mut [Value], focused: &str) -> bool {
    options.iter_mut().any(|o| {
        if o["type"] == 1 || o["type"] == 2 {
            o.get_mut("options")
                .and_then(Value::as_array_mut)
                .is_some_and(|inner| mark_focused(inner, focused))
        } else if o["name"] == focused {
            o["focused"] = Value::Bool(true);
            // Discord sends what the user has typed so far as a string, whatever the type.
            if !o["value"].is_string() {
                o["value"] = Value::String(o["value"].to_string());
            }
            true
        } else {
            false
        }
    })
}

/// A button press on `message` (a full Message object, e.g. from [`message`]).
pub fn button(caller: &Caller, message: Value, custom_id: &str) -> Built {
    let mut built = base(
        3,
        caller,
        json!({ "custom_id": custom_id, "component_type": 2 }),
    );
    built.json["message"] = message;
    checked(&built.json);
    built
}

/// A Message object as Discord returns it: the content, embeds, components and flags of `body`
/// (a message body the bot sent: callback `data`, webhook or channel message body).
pub fn message(id: u64, channel_id: u64, body: &Value) -> Value {
    let pick = |key: &str, default: Value| {
        body.get(key)
            .filter(|v| !v.is_null())
            .cloned()
            .unwrap_or(default)
    };
    json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": {
            "id": APPLICATION_ID.to_string(),
            "username": "referee",
            "discriminator": "0",
            "avatar": null,
            "bot": true,
        },
        "content": pick("content", json!("")),
        "timestamp": "2024-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": pick("embeds", json!([])),
        "components": pick("components", json!([])),
        "pinned": false,
        "type": 0,
        "flags": pick("flags", json!(0)),
        "application_id": APPLICATION_ID.to_string(),
        "webhook_id": APPLICATION_ID.to_string(),
    })
}

/// A stable id per command name, as Discord gives each registered command one.
pub fn command_id(name: &str) -> u64 {
    // FNV-1a: stable across runs, distinct enough for a handful of names.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    1_100_000_000_000_000_000 + hash % 100_000_000_000_000_000
}

/// Panics, with serde's error and the payload, unless `json` is an `Interaction` serenity reads.
pub fn checked(json: &Value) {
    if let Err(e) = serde_json::from_value::<serenity::all::Interaction>(json.clone()) {
        panic!(
            "serenity 0.12 cannot read this interaction ({e}); the bot would ignore it:\n{json:#}"
        );
    }
}
