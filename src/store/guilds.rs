//! Guild settings: GM role and channel, default system, house-rule switches.

use std::collections::BTreeMap;

use super::{Conn, GuildId, Result, StoreError, exec, now, params, query_opt};

/// The game system of a character or a guild's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    Thiz,
    Tft,
}

impl System {
    pub fn as_str(self) -> &'static str {
        match self {
            System::Thiz => "thiz",
            System::Tft => "tft",
        }
    }

    pub fn parse(s: &str) -> Option<System> {
        match s.trim().to_ascii_lowercase().as_str() {
            "thiz" => Some(System::Thiz),
            "tft" | "the fantasy trip" => Some(System::Tft),
            _ => None,
        }
    }
}

/// One guild's settings. A guild never configured reads as the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuildSettings {
    pub gm_role_id: Option<u64>,
    pub gm_channel_id: Option<u64>,
    pub default_system: System,
    /// House-rule switches by name; a name absent here takes its default in `app`.
    pub rules: BTreeMap<String, bool>,
}

impl Default for GuildSettings {
    fn default() -> Self {
        Self {
            gm_role_id: None,
            gm_channel_id: None,
            default_system: System::Thiz,
            rules: BTreeMap::new(),
        }
    }
}

/// Reads a guild's settings (defaults when the guild has none stored).
pub fn get(conn: &Conn, guild: GuildId) -> Result<GuildSettings> {
    let row = query_opt(
        conn,
        "SELECT gm_role_id, gm_channel_id, default_system, rules_json FROM guilds WHERE guild_id = ?1",
        params![guild],
        |r| {
            Ok((
                r.get::<Option<i64>>(0)?,
                r.get::<Option<i64>>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
            ))
        },
    )?;
    let Some((role, channel, system, rules)) = row else {
        return Ok(GuildSettings::default());
    };
    Ok(GuildSettings {
        gm_role_id: role.map(|v| v as u64),
        gm_channel_id: channel.map(|v| v as u64),
        default_system: System::parse(&system)
            .ok_or_else(|| StoreError::Corrupt(format!("guild system {system:?}")))?,
        rules: serde_json::from_str(&rules)
            .map_err(|e| StoreError::Corrupt(format!("guild rules: {e}")))?,
    })
}

/// Stores a guild's settings, replacing what was there.
pub fn put(conn: &Conn, guild: GuildId, settings: &GuildSettings) -> Result<()> {
    let rules = serde_json::to_string(&settings.rules)
        .map_err(|e| StoreError::Corrupt(format!("guild rules: {e}")))?;
    exec(conn,
        "INSERT INTO guilds (guild_id, gm_role_id, gm_channel_id, default_system, rules_json, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id,
             gm_channel_id = excluded.gm_channel_id, default_system = excluded.default_system,
             rules_json = excluded.rules_json",
        params![
            guild,
            settings.gm_role_id.map(|v| v as i64),
            settings.gm_channel_id.map(|v| v as i64),
            settings.default_system.as_str(),
            rules,
            now()
        ],
    )?;
    Ok(())
}
