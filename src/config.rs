//! The configuration file (`config.toml`) and its environment overrides.
//!
//! Owns the shape of the configuration: `config.example.toml` is its documentation, and a test
//! parses that file, so every key there exists here and the other way round. Never logs the token.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The whole configuration. Every section and key is optional; defaults are in `config.example.toml`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub database: DatabaseConfig,
    pub discord: DiscordConfig,
    pub dice: DiceConfig,
    pub delivery: DeliveryConfig,
    pub metrics: MetricsConfig,
}

/// Where the database lives: a SQLite file (the default), or a PostgreSQL server that several
/// processes share (`url`, which wins over `path` when set).
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    pub path: PathBuf,
    /// A `postgres://` URL; `REFEREE_DATABASE_URL` overrides it.
    pub url: Option<String>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self {
            path: PathBuf::from("referee.sqlite3"),
            url: None,
        }
    }
}

impl DatabaseConfig {
    /// What to open: the PostgreSQL URL when one is set, else the SQLite file (`Store::open`
    /// takes either).
    pub fn location(&self) -> PathBuf {
        self.url
            .as_ref()
            .map_or_else(|| self.path.clone(), PathBuf::from)
    }
}

impl std::fmt::Debug for DatabaseConfig {
    // The URL may carry a password: never log it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseConfig")
            .field("path", &self.path)
            .field("url", &self.url.as_deref().map(crate::store::redact))
            .finish()
    }
}

/// How the bot reaches Discord.
#[derive(Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct DiscordConfig {
    /// The bot token; `DISCORD_TOKEN` overrides it.
    pub token: Option<String>,
    /// A base URL that replaces `https://discord.com` (tests point it at a local fake);
    /// `DISCORD_API_BASE` overrides it.
    pub api_base: Option<String>,
    /// Register commands in this one guild (instant) instead of globally.
    pub dev_guild_id: Option<u64>,
    /// Which of the bot's shards this process runs (one shard unless told otherwise).
    pub shards: Shards,
    /// Whether this process registers the commands; unset, the process holding shard 0 does
    /// (`referee run`), or none does (`referee serve`, which registers only when told).
    pub register_commands: Option<bool>,
    /// The application's public key, hex, from the developer portal: `referee serve` checks
    /// every request's signature with it. `DISCORD_PUBLIC_KEY` overrides it.
    pub public_key: Option<String>,
}

/// The shards one process runs: Discord closes a gateway connection that carries more than
/// 2,500 guilds, so a bigger bot splits its guilds over shards, and shards over processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "ShardsToml")]
pub enum Shards {
    /// Shard 0 of 1: every guild on one connection.
    #[default]
    Single,
    /// As many shards as Discord recommends (Get Gateway Bot), all in this process.
    Auto,
    /// Shards `first` to `last`, both included, of `total`.
    Range { total: u32, first: u32, last: u32 },
}

/// How `shards` is written: `"auto"` or `{ total = N, first = A, last = B }`.
#[derive(Deserialize)]
#[serde(untagged)]
enum ShardsToml {
    Word(String),
    Range(RangeToml),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeToml {
    total: u32,
    first: u32,
    last: u32,
}

impl TryFrom<ShardsToml> for Shards {
    type Error = String;

    fn try_from(value: ShardsToml) -> Result<Self, String> {
        match value {
            ShardsToml::Word(w) if w == "auto" => Ok(Self::Auto),
            ShardsToml::Word(w) if w == "single" => Ok(Self::Single),
            ShardsToml::Word(w) => Err(format!(
                "shards must be \"auto\" or {{ total = N, first = A, last = B }}, not \"{w}\""
            )),
            ShardsToml::Range(RangeToml { total, first, last }) => {
                if total == 0 {
                    Err("shards.total must be at least 1".into())
                } else if first > last {
                    Err(format!(
                        "shards.first ({first}) is after shards.last ({last})"
                    ))
                } else if last >= total {
                    Err(format!(
                        "shards.last ({last}) must be below shards.total ({total}): shards are numbered from 0"
                    ))
                } else {
                    Ok(Self::Range { total, first, last })
                }
            }
        }
    }
}

impl Shards {
    /// The shards this process runs, `first..=last`, and the total; `None` for [`Shards::Auto`],
    /// whose count comes from Discord at start.
    pub fn range(self) -> Option<(std::ops::RangeInclusive<u32>, u32)> {
        match self {
            Self::Single => Some((0..=0, 1)),
            Self::Auto => None,
            Self::Range { total, first, last } => Some((first..=last, total)),
        }
    }

    /// Whether this process holds shard 0 (the one that registers commands by default).
    pub fn holds_shard_zero(self) -> bool {
        self.range().is_none_or(|(range, _)| range.contains(&0))
    }
}

impl std::fmt::Debug for DiscordConfig {
    // The token must never reach a log line, even through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordConfig")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("api_base", &self.api_base)
            .field("dev_guild_id", &self.dev_guild_id)
            .field("shards", &self.shards)
            .field("register_commands", &self.register_commands)
            // Public by design: it only checks signatures.
            .field("public_key", &self.public_key)
            .finish()
    }
}

/// Limits on `/roll` expressions, so one message cannot make the bot roll forever.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct DiceConfig {
    pub max_dice: u32,
    pub max_sides: u32,
    pub max_terms: u32,
    pub max_explosions: u32,
    pub max_length: usize,
    pub max_repeats: u32,
    pub max_rolls: u32,
}

impl Default for DiceConfig {
    fn default() -> Self {
        Self {
            max_dice: 100,
            max_sides: 1000,
            max_terms: 20,
            max_explosions: 100,
            max_length: 200,
            max_repeats: 20,
            max_rolls: 4,
        }
    }
}

impl DiceConfig {
    /// The limits the dice parser enforces.
    pub fn limits(&self) -> crate::rules::dice::expr::Limits {
        crate::rules::dice::expr::Limits {
            max_dice: self.max_dice,
            max_sides: self.max_sides,
            max_terms: self.max_terms,
            max_explosions: self.max_explosions,
            max_length: self.max_length,
            max_repeats: self.max_repeats,
            max_rolls: self.max_rolls,
        }
    }
}

/// How the bot retries the GM channel's copies while Discord fails (the outbox, issue 18):
/// exponential backoff with jitter from `retry_first_ms`, doubling up to `retry_max_ms`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct DeliveryConfig {
    pub retry_first_ms: u64,
    pub retry_max_ms: u64,
}

impl Default for DeliveryConfig {
    fn default() -> Self {
        Self {
            retry_first_ms: 1_000,
            retry_max_ms: 300_000,
        }
    }
}

/// The optional metrics endpoint (Prometheus text format, `bot::metrics`): off unless `listen`
/// is set.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    /// Where to serve `GET /metrics`, an IP address and port (port 0: any free one, logged).
    pub listen: Option<std::net::SocketAddr>,
    /// Whether `listen` may be an address other than loopback. Off: the endpoint has no
    /// authentication and no TLS, so by default only this machine can read it.
    pub allow_remote: bool,
}

impl MetricsConfig {
    /// Refuses a `listen` address off this machine unless `allow_remote` says so.
    fn check(&self) -> Result<(), String> {
        match self.listen {
            Some(addr) if !addr.ip().is_loopback() && !self.allow_remote => Err(format!(
                "metrics.listen = \"{addr}\" is not a loopback address: the metrics have no \
                 authentication, so serve them on 127.0.0.1 (or [::1]), or set \
                 metrics.allow_remote = true to serve them beyond this machine"
            )),
            _ => Ok(()),
        }
    }
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid configuration: {message}")]
    Parse { path: PathBuf, message: String },
}

impl Config {
    /// Parses configuration text.
    pub fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let parse_error = |message: String| ConfigError::Parse {
            path: path.to_owned(),
            message,
        };
        let config: Self = toml::from_str(text).map_err(|e| parse_error(e.to_string()))?;
        config.metrics.check().map_err(parse_error)?;
        Ok(config)
    }

    /// Reads `path` if it exists (a missing file means all defaults), then applies the
    /// environment overrides `DISCORD_TOKEN`, `DISCORD_API_BASE`, `DISCORD_PUBLIC_KEY`,
    /// `REFEREE_DB` and `REFEREE_DATABASE_URL`.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let mut config = match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::default(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        config.apply_env(|k| std::env::var(k).ok());
        Ok(config)
    }

    /// Applies environment overrides read through `var` (a seam so tests need not touch the
    /// process environment). Empty values are ignored.
    pub fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) {
        let var = |k: &str| var(k).filter(|v| !v.trim().is_empty());
        if let Some(token) = var("DISCORD_TOKEN") {
            self.discord.token = Some(token);
        }
        if let Some(base) = var("DISCORD_API_BASE") {
            self.discord.api_base = Some(base);
        }
        if let Some(key) = var("DISCORD_PUBLIC_KEY") {
            self.discord.public_key = Some(key);
        }
        if let Some(db) = var("REFEREE_DB") {
            self.database.path = PathBuf::from(db);
        }
        if let Some(url) = var("REFEREE_DATABASE_URL") {
            self.database.url = Some(url);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../config.example.toml");

    #[test]
    fn the_example_parses_and_states_the_defaults() {
        // Every key of the example is a real key (deny_unknown_fields), and the values it shows
        // are the defaults the code uses when the key is absent.
        let example = Config::parse(EXAMPLE, Path::new("config.example.toml")).unwrap();
        let mut want = Config::default();
        want.discord.dev_guild_id = example.discord.dev_guild_id;
        assert_eq!(example, want);
    }

    #[test]
    fn the_example_names_every_key() {
        for key in [
            "[database]",
            "path",
            "url",
            "[discord]",
            "token",
            "api_base",
            "dev_guild_id",
            "shards",
            "register_commands",
            "public_key",
            "[dice]",
            "max_dice",
            "max_sides",
            "max_terms",
            "max_explosions",
            "max_length",
            "max_repeats",
            "max_rolls",
            "[delivery]",
            "retry_first_ms",
            "retry_max_ms",
            "[metrics]",
            "listen",
            "allow_remote",
        ] {
            assert!(
                EXAMPLE.contains(key),
                "config.example.toml does not mention {key}"
            );
        }
    }

    #[test]
    fn a_database_url_wins_over_the_path_and_is_never_shown() {
        let mut c =
            Config::parse("[database]\npath = \"a.db\"\n", Path::new("config.toml")).unwrap();
        assert_eq!(c.database.location(), PathBuf::from("a.db"));
        c.apply_env(|k| {
            (k == "REFEREE_DATABASE_URL").then(|| "postgres://u:hunter2@h/db".to_owned())
        });
        assert_eq!(
            c.database.location(),
            PathBuf::from("postgres://u:hunter2@h/db")
        );
        assert!(!format!("{c:?}").contains("hunter2"));
    }

    #[test]
    fn dice_defaults_are_the_parsers_defaults() {
        assert_eq!(
            DiceConfig::default().limits(),
            crate::rules::dice::expr::Limits::default()
        );
    }

    #[test]
    fn shards_are_checked_at_both_sides_of_each_limit() {
        let parse = |v: &str| {
            Config::parse(&format!("[discord]\nshards = {v}\n"), Path::new("s.toml"))
                .map(|c| c.discord.shards)
        };
        let range = |total, first, last| Shards::Range { total, first, last };
        #[rustfmt::skip]
        let cases: &[(&str, Option<Shards>)] = &[
            ("\"auto\"", Some(Shards::Auto)),
            ("\"single\"", Some(Shards::Single)),
            ("\"all\"", None),
            ("{ total = 1, first = 0, last = 0 }", Some(range(1, 0, 0))),
            ("{ total = 0, first = 0, last = 0 }", None),
            ("{ total = 3, first = 0, last = 2 }", Some(range(3, 0, 2))),
            ("{ total = 3, first = 0, last = 3 }", None),   // last is below total
            ("{ total = 3, first = 2, last = 2 }", Some(range(3, 2, 2))),
            ("{ total = 3, first = 2, last = 1 }", None),   // first after last
            ("{ total = 3, first = 1 }", None),
            ("{ total = 3, first = 1, last = 1, step = 1 }", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).ok(), *want, "shards = {text}");
        }
        let err = parse("{ total = 3, first = 0, last = 3 }").unwrap_err();
        assert!(err.to_string().contains("numbered from 0"), "{err}");
    }

    #[test]
    fn a_range_includes_its_last_shard_and_only_shard_zero_registers_by_default() {
        let range = |total, first, last| Shards::Range { total, first, last };
        assert_eq!(Shards::Single.range(), Some((0..=0, 1)));
        assert_eq!(range(3, 1, 2).range(), Some((1..=2, 3)));
        assert_eq!(range(3, 1, 2).range().unwrap().0.count(), 2);
        assert!(Shards::Single.holds_shard_zero());
        assert!(Shards::Auto.holds_shard_zero());
        assert!(range(3, 0, 0).holds_shard_zero());
        assert!(!range(3, 1, 2).holds_shard_zero());
    }

    #[test]
    fn metrics_are_off_by_default_and_stay_on_loopback_unless_allowed() {
        let parse = |text: &str| Config::parse(text, Path::new("m.toml")).map(|c| c.metrics);
        assert_eq!(parse("").unwrap().listen, None, "off by default");
        #[rustfmt::skip]
        let cases: &[(&str, Option<&str>)] = &[
            ("listen = \"127.0.0.1:9184\"", Some("127.0.0.1:9184")),
            ("listen = \"127.0.0.1:0\"", Some("127.0.0.1:0")),
            ("listen = \"127.255.0.9:9184\"", Some("127.255.0.9:9184")),
            ("listen = \"[::1]:9184\"", Some("[::1]:9184")),
            ("listen = \"0.0.0.0:9184\"", None),
            ("listen = \"10.0.0.5:9184\"", None),
            ("listen = \"[::]:9184\"", None),
            ("listen = \"0.0.0.0:9184\"\nallow_remote = true", Some("0.0.0.0:9184")),
            ("listen = \"10.0.0.5:9184\"\nallow_remote = true", Some("10.0.0.5:9184")),
            ("listen = \"localhost:9184\"", None),    // an IP address, not a host name
            ("listen = \"127.0.0.1\"", None),          // the port is required
            ("listen = \"127.0.0.1:9184\"\nport = 1", None),
        ];
        for (text, want) in cases {
            let got = parse(&format!("[metrics]\n{text}\n"));
            assert_eq!(
                got.as_ref()
                    .ok()
                    .and_then(|m| m.listen)
                    .map(|a| a.to_string())
                    .as_deref(),
                *want,
                "{text}: {got:?}"
            );
        }
        let err = parse("[metrics]\nlisten = \"0.0.0.0:9184\"\n").unwrap_err();
        assert!(err.to_string().contains("allow_remote"), "{err}");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let err = Config::parse("[dice]\nmax_dic = 5\n", Path::new("x.toml")).unwrap_err();
        assert!(err.to_string().contains("max_dic"), "{err}");
    }

    #[test]
    fn environment_overrides_file_values_and_ignores_empty_ones() {
        let mut c = Config::parse(
            "[discord]\ntoken = \"file\"\n[database]\npath = \"a.db\"\n",
            Path::new("c.toml"),
        )
        .unwrap();
        c.apply_env(|k| match k {
            "DISCORD_TOKEN" => Some("env".into()),
            "DISCORD_PUBLIC_KEY" => Some("ab12".into()),
            "REFEREE_DB" => Some(String::new()),
            _ => None,
        });
        assert_eq!(c.discord.token.as_deref(), Some("env"));
        assert_eq!(c.discord.public_key.as_deref(), Some("ab12"));
        assert_eq!(c.database.path, PathBuf::from("a.db"));
    }

    #[test]
    fn debug_output_hides_the_token() {
        let mut c = Config::default();
        c.discord.token = Some("SECRET-TOKEN-123".into());
        let shown = format!("{c:?}");
        assert!(!shown.contains("SECRET-TOKEN-123"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }
}
