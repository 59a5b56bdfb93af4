//! The command line: which mode to start (`run`, `console`, `migrate`, `backup`) and `--help`.
//!
//! Owns argument parsing and start-up wiring only; every mode's work lives in its own layer.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::config::Config;
use crate::console::{self, ConsoleOptions};
use crate::store::Store;

const USAGE: &str = "\
referee — a Discord bot for THIZ and The Fantasy Trip

Usage:
  referee [--config PATH] [run]              connect to Discord (the default)
  referee [--config PATH] console [options]  type slash commands on standard input, read the replies
  referee [--config PATH] migrate [--db DB] [--to URL]
                                             apply database migrations and exit; with --to, copy
                                             the SQLite database into an empty PostgreSQL one
  referee [--config PATH] backup [--db DB] PATH
                                             copy the database to PATH, safely while the bot runs
  referee --help                             this text

Console options:
  --guild ID   the guild to act in (default 1)
  --user ID    who you are (default 1)
  --gm         act as a GM (Manage Server)
  --seed N     reproducible dice
  --json       one JSON object per reply (Discord's interaction-response data, plus routing)
  --db DB      the database file or postgres:// URL (default: from the configuration,
               referee.sqlite3)
  --channel ID the channel you type in (default 1; an encounter lives in a channel)

DB is a SQLite file or a postgres:// URL, wherever one is taken.

Configuration: config.toml (see config.example.toml); DISCORD_TOKEN, DISCORD_API_BASE,
REFEREE_DB and REFEREE_DATABASE_URL override it. RUST_LOG sets the log level.
";

/// Runs the command line and returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    match dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("referee: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn dispatch(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut args = args.to_vec();
    let mut config_path = PathBuf::from("config.toml");
    if args.first().map(String::as_str) == Some("--config") {
        if args.len() < 2 {
            anyhow::bail!("--config needs a path");
        }
        config_path = PathBuf::from(args.remove(1));
        args.remove(0);
    }
    let mode = args.first().map_or("run", String::as_str);
    if matches!(mode, "-h" | "--help" | "help") {
        print!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    init_logging();
    let config = Config::load(&config_path)?;
    match mode {
        "console" => {
            let options = ConsoleOptions::parse(&args[1..]).map_err(anyhow::Error::msg)?;
            let db = options.db.clone().unwrap_or(config.database.location());
            let stdin = std::io::stdin();
            console::run(
                &options,
                &db,
                config.dice.limits(),
                stdin.lock(),
                std::io::stdout().lock(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        "migrate" => {
            let flags = Flags::parse(&args[1..], &["--db", "--to"])?;
            if let Some(extra) = flags.positional.first() {
                anyhow::bail!("migrate takes no {extra}: referee migrate [--db DB] [--to URL]");
            }
            let db = flags
                .get("--db")
                .map_or(config.database.location(), PathBuf::from);
            let store = Store::open(&db)?;
            println!(
                "{}: schema at version {}",
                store.path().display(),
                Store::latest_version()
            );
            if let Some(to) = flags.get("--to") {
                if !crate::store::is_postgres_url(to) {
                    anyhow::bail!("--to takes a postgres:// URL");
                }
                let target = Store::open_url(to)?;
                let counts = crate::store::copy::sqlite_to_postgres(&store, &target)?;
                for (table, n) in counts {
                    println!("{table}: {n} rows copied");
                }
                println!(
                    "copied {} into {}; point database.url at it",
                    store.path().display(),
                    target.path().display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        "backup" => {
            let flags = Flags::parse(&args[1..], &["--db"])?;
            let [dest] = flags.positional.as_slice() else {
                anyhow::bail!("backup needs a destination path: referee backup [--db DB] PATH");
            };
            let db = flags
                .get("--db")
                .map_or(config.database.location(), PathBuf::from);
            let store = Store::open(&db)?;
            store.backup(std::path::Path::new(dest))?;
            println!("backed up {} to {dest}", store.path().display());
            Ok(ExitCode::SUCCESS)
        }
        "run" => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                // `app` runs on the bot's own threads (bot::workers); this pool only serves
                // tokio's occasional blocking work (a DNS lookup, say).
                .max_blocking_threads(4)
                .build()?;
            runtime.block_on(crate::bot::run(config))?;
            Ok(ExitCode::SUCCESS)
        }
        other => {
            eprintln!("referee: unknown command `{other}`\n\n{USAGE}");
            Ok(ExitCode::from(2))
        }
    }
}

/// A mode's `--name value` options (only the names given) and its other arguments.
struct Flags {
    values: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Flags {
    fn parse(args: &[String], names: &[&str]) -> anyhow::Result<Self> {
        let mut flags = Flags {
            values: Vec::new(),
            positional: Vec::new(),
        };
        let mut args = args.iter();
        while let Some(a) = args.next() {
            if names.contains(&a.as_str()) {
                let Some(v) = args.next() else {
                    anyhow::bail!("{a} needs a value");
                };
                flags.values.push((a.clone(), v.clone()));
            } else if a.starts_with("--") {
                anyhow::bail!("unknown option {a}");
            } else {
                flags.positional.push(a.clone());
            }
        }
        Ok(flags)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn init_logging() {
    // Logs go to standard error so the console's replies on standard output stay clean.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
