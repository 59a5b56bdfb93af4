//! `/gm setup`, `/gm rules`, `/gm hidden`, `/gm note`: the guild's settings and the GM's hidden
//! values and notes on any character (NPCs included). `/gm request`, its buttons, and `/gm check`
//! live in [`request`].
//!
//! `/gm rules` sets the house-rule switches; their list and defaults are [`super::house`]'s, which
//! every family reads. `setup` needs Manage Server; the rest need a GM, checked
//! before anything is read. Replies that hold hidden values are ephemeral, for the GM alone.
//! Must never show a hidden key or a note to a player.

pub mod request;

use super::house::{HOUSE_RULES, house_rule};
use super::invocation::{Invocation, Opts};
use super::reply::{Embed, Field, Reply, Tone};
use super::text::{escape, truncate};
use super::{AppResult, Ctx, user};
use crate::store::guilds::{self, GuildSettings, System};
use crate::store::secrets;

/// Longest hidden key and value, and note, accepted.
pub const MAX_KEY: usize = 64;
pub const MAX_VALUE: usize = 1000;
pub const MAX_NOTE: usize = 1500;

fn rule_names() -> String {
    HOUSE_RULES
        .iter()
        .map(|r| r.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Discord id option, or a request to clear it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdSetting {
    Set(u64),
    Clear,
}

/// Reads `123`, a mention (`<@&123>`, `<#123>`), or `none` to clear.
fn parse_id(name: &str, raw: &str) -> AppResult<IdSetting> {
    let t = raw.trim();
    if matches!(t.to_ascii_lowercase().as_str(), "none" | "clear" | "off") {
        return Ok(IdSetting::Clear);
    }
    let digits = t
        .trim_start_matches("<@&")
        .trim_start_matches("<#")
        .trim_end_matches('>');
    digits
        .parse::<u64>()
        .ok()
        .filter(|v| *v > 0 && i64::try_from(*v).is_ok())
        .map(IdSetting::Set)
        .ok_or_else(|| {
            user(format!(
                "{name} must be a {} or its id (or none to clear); you gave {:?}",
                if name == "gm_role" { "role" } else { "channel" },
                truncate(t, 40)
            ))
        })
}

/// `/gm …` (but `/gm roll`, which is a roll).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GmCommand {
    /// `/gm setup [gm_role] [gm_channel] [system] [clear]`; without options, shows the settings.
    Setup {
        gm_role: Option<IdSetting>,
        gm_channel: Option<IdSetting>,
        system: Option<System>,
    },
    /// `/gm rules [name] [value]`: list the switches, show one, or set one.
    Rules {
        name: Option<&'static str>,
        value: Option<bool>,
    },
    /// `/gm hidden character key [value]`: set a hidden key, or read one back (`*`: all of them).
    Hidden {
        character: String,
        key: String,
        value: Option<String>,
    },
    /// `/gm note character [text]`: add a note, or list the notes.
    Note {
        character: String,
        text: Option<String>,
    },
    /// `/gm request characters …`: ask characters for a check or a save, a button each.
    Request(request::RequestArgs),
    /// `/gm check character …`: roll a character's check or save in secret.
    Secret(request::SecretArgs),
    /// A roll request's button (`req:…`).
    Press(request::Press),
}

impl GmCommand {
    /// Parses a `/gm …` command; `accepts` is the dispatcher's parser, lent for the command a
    /// roll request asks for ([`request::Accepts`]).
    pub fn parse(inv: &Invocation, accepts: request::Accepts) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["gm", "setup"] => parse_setup(inv),
            ["gm", "rules"] => parse_rules(inv),
            ["gm", "hidden"] => parse_hidden(inv),
            ["gm", "note"] => parse_note(inv),
            ["gm", "request"] => Ok(GmCommand::Request(request::RequestArgs::parse(
                inv, accepts,
            )?)),
            ["gm", "check"] => Ok(GmCommand::Secret(request::SecretArgs::parse(inv, accepts)?)),
            _ => Err(user(format!(
                "{} is not a GM command; use /gm setup, /gm rules, /gm hidden, /gm note, /gm roll, /gm request or /gm check.",
                escape(&inv.display_path())
            ))),
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            GmCommand::Setup {
                gm_role,
                gm_channel,
                system,
            } => setup(ctx, gm_role, gm_channel, system),
            GmCommand::Rules { name, value } => rules(ctx, name, value),
            GmCommand::Hidden {
                character,
                key,
                value,
            } => hidden(ctx, &character, &key, value.as_deref()),
            GmCommand::Note { character, text } => note(ctx, &character, text.as_deref()),
            GmCommand::Request(a) => request::request(ctx, &a),
            GmCommand::Secret(a) => request::secret(ctx, &a),
            GmCommand::Press(p) => request::press(ctx, p),
        }
    }
}

fn parse_setup(inv: &Invocation) -> AppResult<GmCommand> {
    let o = Opts::new(inv, &["gm_role", "gm_channel", "system", "clear"])?;
    let system = o
        .text("system")
        .map(|s| {
            System::parse(s).ok_or_else(|| {
                user(format!(
                    "system must be thiz or tft; you gave {:?}",
                    truncate(s.trim(), 40)
                ))
            })
        })
        .transpose()?;
    let mut gm_role = o
        .text("gm_role")
        .map(|v| parse_id("gm_role", v))
        .transpose()?;
    let mut gm_channel = o
        .text("gm_channel")
        .map(|v| parse_id("gm_channel", v))
        .transpose()?;
    // `clear:` exists for Discord, whose role and channel pickers cannot say "none".
    if let Some(raw) = o.text("clear") {
        let (role, channel) = match raw.trim().to_ascii_lowercase().as_str() {
            "gm_role" => (true, false),
            "gm_channel" => (false, true),
            "both" => (true, true),
            _ => {
                return Err(user(format!(
                    "clear must be gm_role, gm_channel or both; you gave {:?}",
                    truncate(raw.trim(), 40)
                )));
            }
        };
        for (cleared, slot, name) in [
            (role, &mut gm_role, "gm_role"),
            (channel, &mut gm_channel, "gm_channel"),
        ] {
            if !cleared {
                continue;
            }
            if matches!(slot, Some(IdSetting::Set(_))) {
                return Err(user(format!("Set {name} or clear it, not both at once.")));
            }
            *slot = Some(IdSetting::Clear);
        }
    }
    Ok(GmCommand::Setup {
        gm_role,
        gm_channel,
        system,
    })
}

fn parse_rules(inv: &Invocation) -> AppResult<GmCommand> {
    let o = Opts::new(inv, &["name", "value"])?;
    let name = o
        .text("name")
        .map(|n| {
            let key = n.trim().to_ascii_lowercase();
            HOUSE_RULES
                .iter()
                .find(|r| r.name == key)
                .map(|r| r.name)
                .ok_or_else(|| {
                    user(format!(
                        "There is no house rule {:?}; the switches are {}.{}",
                        truncate(n.trim(), 40),
                        rule_names(),
                        super::text::did_you_mean(n, HOUSE_RULES.iter().map(|r| r.name))
                    ))
                })
        })
        .transpose()?;
    let value = match o.text("value") {
        Some(_) => Some(o.flag("value")?),
        None => None,
    };
    if name.is_none() && value.is_some() {
        return Err(user(format!(
            "Say which switch to set, like name:tft_house_rules value:off; the switches are {}.",
            rule_names()
        )));
    }
    Ok(GmCommand::Rules { name, value })
}

fn parse_hidden(inv: &Invocation) -> AppResult<GmCommand> {
    let o = Opts::new(inv, &["character", "key", "value"])?;
    let character = o.required("character")?.trim().to_owned();
    let key = o.required("key")?.trim().to_owned();
    if key.chars().count() > MAX_KEY {
        return Err(user(format!(
            "key can be at most {MAX_KEY} characters; yours has {}.",
            key.chars().count()
        )));
    }
    let value = o.text("value").map(str::to_owned);
    if let Some(v) = &value {
        if key == "*" {
            return Err(user(
                "key:* reads every hidden key back; name one key to set a value.",
            ));
        }
        if v.chars().count() > MAX_VALUE {
            return Err(user(format!(
                "value can be at most {MAX_VALUE} characters; yours has {}.",
                v.chars().count()
            )));
        }
    }
    Ok(GmCommand::Hidden {
        character,
        key,
        value,
    })
}

fn parse_note(inv: &Invocation) -> AppResult<GmCommand> {
    let o = Opts::new(inv, &["character", "text"])?;
    let character = o.required("character")?.trim().to_owned();
    let text = o.text("text").map(|t| t.trim().to_owned());
    if let Some(t) = &text
        && t.chars().count() > MAX_NOTE
    {
        return Err(user(format!(
            "A note can be at most {MAX_NOTE} characters; yours has {}.",
            t.chars().count()
        )));
    }
    Ok(GmCommand::Note { character, text })
}

fn apply(slot: &mut Option<u64>, setting: Option<IdSetting>) {
    match setting {
        Some(IdSetting::Set(v)) => *slot = Some(v),
        Some(IdSetting::Clear) => *slot = None,
        None => {}
    }
}

fn setup(
    ctx: &Ctx<'_>,
    gm_role: Option<IdSetting>,
    gm_channel: Option<IdSetting>,
    system: Option<System>,
) -> AppResult<Reply> {
    if !ctx.caller.manage_server {
        return Err(user("Only a member with Manage Server can run /gm setup."));
    }
    let guild = ctx.caller.guild;
    let changed = gm_role.is_some() || gm_channel.is_some() || system.is_some();
    let settings = ctx.app.store.write(|tx| -> AppResult<GuildSettings> {
        let mut s = guilds::get(tx, guild)?;
        if changed {
            apply(&mut s.gm_role_id, gm_role);
            apply(&mut s.gm_channel_id, gm_channel);
            if let Some(system) = system {
                s.default_system = system;
            }
            guilds::put(tx, guild, &s)?;
        }
        Ok(s)
    })?;
    let field = |name: &str, value: String| Field {
        name: name.into(),
        value,
        inline: true,
    };
    Ok(Reply::ephemeral("").with_embed(Embed {
        title: if changed {
            "Settings saved".into()
        } else {
            "This server's settings".into()
        },
        description: String::new(),
        tone: Some(Tone::Info),
        fields: vec![
            field(
                "GM role",
                settings.gm_role_id.map_or_else(
                    || "none (Manage Server only)".into(),
                    |r| format!("<@&{r}>"),
                ),
            ),
            field(
                "GM channel",
                settings
                    .gm_channel_id
                    .map_or_else(|| "none".into(), |c| format!("<#{c}>")),
            ),
            field("Default system", settings.default_system.as_str().into()),
        ],
        footer: None,
    }))
}

fn on_off(v: bool) -> &'static str {
    if v { "on" } else { "off" }
}

fn rules(ctx: &Ctx<'_>, name: Option<&'static str>, value: Option<bool>) -> AppResult<Reply> {
    ctx.gm()?;
    let guild = ctx.caller.guild;
    match (name, value) {
        (Some(name), Some(value)) => {
            ctx.app.store.write(|tx| -> AppResult<()> {
                let mut s = guilds::get(tx, guild)?;
                s.rules.insert(name.to_owned(), value);
                guilds::put(tx, guild, &s)?;
                Ok(())
            })?;
            Ok(Reply::ephemeral(format!(
                "{name} is now {}.",
                on_off(value)
            )))
        }
        (Some(name), None) => Ok(Reply::ephemeral(format!(
            "{name} is {}.",
            on_off(house_rule(&ctx.settings, name))
        ))),
        (None, _) => {
            let lines: Vec<String> = HOUSE_RULES
                .iter()
                .map(|r| {
                    format!(
                        "{}: {} (default {}): {}",
                        r.name,
                        on_off(house_rule(&ctx.settings, r.name)),
                        on_off(r.default),
                        r.about
                    )
                })
                .collect();
            Ok(Reply::ephemeral("").with_embed(Embed {
                title: "House rules".into(),
                description: format!(
                    "{}\nChange one with /gm rules name:… value:on|off.",
                    lines.join("\n")
                ),
                tone: Some(Tone::Info),
                fields: Vec::new(),
                footer: None,
            }))
        }
    }
}

fn hidden(ctx: &Ctx<'_>, character: &str, key: &str, value: Option<&str>) -> AppResult<Reply> {
    let gm = ctx.gm()?;
    ctx.app.store.write(|tx| {
        let c = ctx.find_character(tx, character)?;
        let name = escape(&c.name);
        let shown_key = escape(key);
        Ok(match value {
            Some(v) => {
                secrets::set_hidden(tx, gm, c.id, key, v)?;
                Reply::ephemeral(format!(
                    "Hidden {shown_key} on {name} is now {}.",
                    escape(v)
                ))
            }
            None if key == "*" => {
                let all = secrets::all_hidden(tx, gm, c.id)?;
                if all.is_empty() {
                    Reply::ephemeral(format!("{name} has no hidden values."))
                } else {
                    let lines: Vec<String> = all
                        .iter()
                        .map(|(k, v)| format!("{}: {}", escape(k), escape(&truncate(v, 200))))
                        .collect();
                    Reply::ephemeral("").with_embed(Embed {
                        title: format!("{name}'s hidden values"),
                        description: truncate(&lines.join("\n"), 4000),
                        tone: Some(Tone::Info),
                        fields: Vec::new(),
                        footer: None,
                    })
                }
            }
            None => Reply::ephemeral(match secrets::hidden(tx, gm, c.id, key)? {
                Some(v) => format!("Hidden {shown_key} on {name}: {}", escape(&v)),
                None => format!("{name} has no hidden {shown_key}; key:* lists the ones set."),
            }),
        })
    })
}

fn note(ctx: &Ctx<'_>, character: &str, text: Option<&str>) -> AppResult<Reply> {
    let gm = ctx.gm()?;
    ctx.app.store.write(|tx| {
        let c = ctx.find_character(tx, character)?;
        let name = escape(&c.name);
        if let Some(text) = text {
            secrets::add_note(tx, gm, c.id, ctx.caller.user, text)?;
            return Ok(Reply::ephemeral(format!("Noted on {name}.")));
        }
        let notes = secrets::notes(tx, gm, c.id)?;
        if notes.is_empty() {
            return Ok(Reply::ephemeral(format!(
                "{name} has no GM notes; add one with text:…"
            )));
        }
        let lines: Vec<String> = notes
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}. {}", i + 1, escape(n)))
            .collect();
        Ok(Reply::ephemeral("").with_embed(Embed {
            title: format!("GM notes on {name}"),
            description: truncate(&lines.join("\n"), 4000),
            tone: Some(Tone::Info),
            fields: Vec::new(),
            footer: None,
        }))
    })
}

#[cfg(test)]
mod tests;
