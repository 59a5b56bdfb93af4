//! The command line: which mode to start (`run`, `serve`, `register`, `console`, `migrate`,
//! `backup`, `completions`),
//! on clap's derive, so every mode has `--help` (which never starts anything), the binary has
//! `--version`, and shells get completions.
//!
//! Owns argument parsing and start-up wiring only; every mode's work lives in its own layer.
//! Exit codes: 0 done, 1 a failure (printed as one `referee: …` line), 2 a usage error (clap's).

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand};

use crate::config::Config;
use crate::console::{self, ConsoleOptions};
use crate::store::Store;

/// The configuration file read when `--config` is not given (and only if it exists).
const DEFAULT_CONFIG: &str = "config.toml";

/// referee — a Discord bot for THIZ and The Fantasy Trip
#[derive(Debug, Parser)]
#[command(
    name = "referee",
    version,
    about,
    after_help = "DB is a SQLite file or a postgres:// URL, wherever one is taken.\n\n\
Configuration: config.toml (see config.example.toml); DISCORD_TOKEN, DISCORD_API_BASE, \
DISCORD_PUBLIC_KEY, REFEREE_DB and REFEREE_DATABASE_URL override it. RUST_LOG sets the log level; NO_COLOR turns \
colour off (logs are coloured only on a terminal)."
)]
pub struct Cli {
    /// The configuration file (default: config.toml, when there is one; a file named here must exist)
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub mode: Option<Mode>,
}

/// What to start.
#[derive(Debug, Subcommand)]
pub enum Mode {
    /// Connect to Discord's gateway (the default)
    Run,
    /// Serve Discord's HTTP Interactions Endpoint instead of connecting to the gateway
    ///
    /// Any number of workers behind a reverse proxy (TLS), sharing one database, act as one bot
    /// (docs/http-interactions.md).
    #[command(
        after_help = "Needs DISCORD_TOKEN and DISCORD_PUBLIC_KEY (the application's \
public key, hex). Every request's Ed25519 signature is checked; a missing, bad or stale one \
(over 5 minutes from this clock) is answered 401. GET /healthz answers 200 for health checks. \
Set the developer portal's Interactions Endpoint URL to the proxy's https:// address. \
SIGINT/SIGTERM finish the interactions in flight, then exit."
    )]
    Serve {
        /// The address and port to listen on (port 0: any free one, logged)
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// Register the slash commands at start (one worker, or `referee register`, does)
        #[arg(long)]
        register: bool,
    },
    /// Register the slash commands (globally, or in discord.dev_guild_id) and exit
    Register,
    /// Type slash commands, read the replies (a prompt with history on a terminal; one
    /// command per line when piped)
    Console(ConsoleOptions),
    /// Apply database migrations and exit; with --to, copy the SQLite database into an empty
    /// PostgreSQL one
    Migrate {
        /// The database (default: from the configuration)
        #[arg(long, value_name = "DB")]
        db: Option<PathBuf>,
        /// An empty PostgreSQL database to copy into (postgres://…)
        #[arg(long, value_name = "URL")]
        to: Option<String>,
    },
    /// Copy the database to PATH, safely while the bot runs
    Backup {
        /// The database (default: from the configuration)
        #[arg(long, value_name = "DB")]
        db: Option<PathBuf>,
        /// Overwrite PATH if it exists
        #[arg(long)]
        force: bool,
        /// Where the copy goes
        path: PathBuf,
    },
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell)
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// Runs the command line and returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    let cli = match Cli::try_parse_from(std::iter::once("referee".to_owned()).chain(args.to_vec()))
    {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to standard output and succeed; a usage error is 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("referee: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// The configuration: the file named by `--config` (which must exist), or `config.toml` if there
/// is one, or the defaults; the environment over it.
fn load_config(path: Option<&Path>) -> anyhow::Result<Config> {
    match path {
        Some(path) if !path.exists() => anyhow::bail!(
            "the configuration file {} does not exist (config.example.toml shows one)",
            path.display()
        ),
        Some(path) => Ok(Config::load(path)?),
        None => Ok(Config::load(Path::new(DEFAULT_CONFIG))?),
    }
}

/// A SQLite database in a folder that does not exist is refused in one line that says what to
/// do, before SQLite's own error (which names neither the folder nor the fix).
fn check_folder(db: &Path) -> anyhow::Result<()> {
    if crate::store::is_postgres_url(&db.to_string_lossy()) {
        return Ok(());
    }
    match db.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) if !folder.is_dir() => anyhow::bail!(
            "the database's folder {} does not exist: create it (mkdir -p {}) or name another database with --db",
            folder.display(),
            folder.display()
        ),
        _ => Ok(()),
    }
}

/// Issue 57: a backup names what is missing in one line before anything is opened, so a
/// mistyped source creates no empty database (which SQLite's open would, then back up as if
/// it were the real one) and a missing target folder is not SQLite's bare "Error code 14".
fn check_backup(db: &Path, path: &Path) -> anyhow::Result<()> {
    check_folder(db)?;
    if !crate::store::is_postgres_url(&db.to_string_lossy()) && !db.is_file() {
        anyhow::bail!(
            "there is no database at {}: nothing was backed up and nothing was created (name it with --db or REFEREE_DB)",
            db.display()
        );
    }
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(folder) if !folder.is_dir() => anyhow::bail!(
            "the folder {} for the copy does not exist: nothing was written (create it with mkdir -p {})",
            folder.display(),
            folder.display()
        ),
        _ => Ok(()),
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    let mode = cli.mode.unwrap_or(Mode::Run);
    // Completions need neither logging nor a configuration.
    let config = || -> anyhow::Result<Config> {
        init_logging();
        load_config(cli.config.as_deref())
    };
    match mode {
        Mode::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "referee",
                &mut std::io::stdout(),
            );
            Ok(ExitCode::SUCCESS)
        }
        Mode::Console(options) => {
            let config = config()?;
            let db = options.db.clone().unwrap_or(config.database.location());
            check_folder(&db)?;
            let stdin = std::io::stdin();
            if stdin.is_terminal() && !options.json {
                interactive(&options, &db, config.dice.limits())?;
            } else {
                console::run(
                    &options,
                    &db,
                    config.dice.limits(),
                    stdin.lock(),
                    std::io::stdout().lock(),
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Mode::Migrate { db, to } => {
            let config = config()?;
            let db = db.unwrap_or(config.database.location());
            check_folder(&db)?;
            migrate(&db, to.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        Mode::Backup { db, force, path } => {
            let config = config()?;
            let db = db.unwrap_or(config.database.location());
            check_backup(&db, &path)?;
            if path.exists() && !force {
                anyhow::bail!(
                    "{} exists already; nothing was written (--force overwrites it)",
                    path.display()
                );
            }
            let store = Store::open(&db)?;
            if path.exists() {
                // Overwritten only once the new copy is whole: written beside it, then renamed.
                let mut partial = path.clone().into_os_string();
                partial.push(".partial");
                let partial = PathBuf::from(partial);
                let _ = std::fs::remove_file(&partial);
                store.backup(&partial)?;
                std::fs::rename(&partial, &path)?;
            } else {
                store.backup(&path)?;
            }
            println!("backed up {} to {}", store.path().display(), path.display());
            Ok(ExitCode::SUCCESS)
        }
        Mode::Run => {
            let config = config()?;
            check_folder(&config.database.location())?;
            runtime()?.block_on(crate::bot::run(config))?;
            Ok(ExitCode::SUCCESS)
        }
        Mode::Serve { listen, register } => {
            let config = config()?;
            check_folder(&config.database.location())?;
            let options = crate::bot::ServeOptions { listen, register };
            runtime()?.block_on(crate::bot::serve(config, options))?;
            Ok(ExitCode::SUCCESS)
        }
        Mode::Register => {
            let config = config()?;
            println!("{}", runtime()?.block_on(crate::bot::register(&config))?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The runtime of the modes that talk to Discord.
fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // `app` runs on the bot's own threads (bot::workers); this pool only serves tokio's
        // occasional blocking work (a DNS lookup, say).
        .max_blocking_threads(4)
        .build()
}

fn migrate(db: &Path, to: Option<&str>) -> anyhow::Result<()> {
    let store = Store::open(db)?;
    println!(
        "{}: schema at version {}",
        store.path().display(),
        Store::latest_version()
    );
    if let Some(to) = to {
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
    Ok(())
}

/// The console for a person at a terminal: a prompt, line editing and history (this session's),
/// `/quit`, `/exit` or Ctrl-D to leave; Ctrl-C clears the line.
fn interactive(
    options: &ConsoleOptions,
    db: &Path,
    limits: crate::rules::dice::expr::Limits,
) -> anyhow::Result<()> {
    use rustyline::error::ReadlineError;
    let mut session = console::Session::open(options, db, limits)?;
    let mut editor = rustyline::DefaultEditor::new()?;
    eprintln!(
        "referee console on {}: type a slash command (/help lists them); /quit or Ctrl-D leaves.",
        db.display()
    );
    loop {
        match editor.readline("referee> ") {
            Ok(line) => {
                if console::QUIT.contains(&line.trim()) {
                    return Ok(());
                }
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                print!("{}", session.line(&line));
            }
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
    }
}

/// A panic's message, from its payload (a `&str` or a `String`, as `panic!` makes them).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Every panic, caught or not, is logged with its message and where it happened (issue 33: a
/// caught one was logged as "a command panicked", with neither), then the default hook runs.
fn log_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let location = info.location().map_or_else(String::new, |l| {
            format!("{}:{}:{}", l.file(), l.line(), l.column())
        });
        tracing::error!(%location, message = panic_message(info.payload()), "panic");
        default(info);
    }));
}

fn init_logging() {
    log_panics();
    // Logs go to standard error so the console's replies on standard output stay clean; colour
    // only when that is a terminal and NO_COLOR is unset (https://no-color.org).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let colour = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("referee").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_line_parses_every_mode() {
        assert!(parse(&[]).unwrap().mode.is_none(), "no mode is run");
        let cli = parse(&["--config", "x.toml", "console", "--gm", "--seed", "4"]).unwrap();
        assert_eq!(cli.config.as_deref(), Some(Path::new("x.toml")));
        let Some(Mode::Console(o)) = cli.mode else {
            panic!("console");
        };
        assert!(o.gm);
        assert_eq!((o.seed, o.guild, o.user, o.channel), (Some(4), 1, 1, 1));
        // --config is global: after the mode too.
        let cli = parse(&["backup", "out.db", "--force", "--config", "y.toml"]).unwrap();
        assert_eq!(cli.config.as_deref(), Some(Path::new("y.toml")));
        assert!(matches!(cli.mode, Some(Mode::Backup { force: true, .. })));
        assert!(matches!(
            parse(&["completions", "bash"]).unwrap().mode,
            Some(Mode::Completions { .. })
        ));
        let Some(Mode::Serve { listen, register }) = parse(&["serve"]).unwrap().mode else {
            panic!("serve");
        };
        assert_eq!(listen.to_string(), "127.0.0.1:8080", "the default");
        assert!(!register, "a worker registers only when told");
        assert!(matches!(
            parse(&["serve", "--listen", "0.0.0.0:9000", "--register"]).unwrap().mode,
            Some(Mode::Serve { listen, register: true }) if listen.port() == 9000
        ));
        assert!(matches!(
            parse(&["register"]).unwrap().mode,
            Some(Mode::Register)
        ));
    }

    #[test]
    fn help_and_version_stop_before_anything_starts() {
        for args in [
            &["--help"][..],
            &["--version"],
            &["run", "--help"],
            &["serve", "--help"],
            &["register", "--help"],
            &["console", "--help"],
            &["migrate", "--help"],
            &["backup", "--help"],
            &["completions", "--help"],
        ] {
            let e = parse(args).expect_err("help is not a mode");
            assert_eq!(e.exit_code(), 0, "{args:?}");
        }
        for args in [
            &["dance"][..],
            &["console", "--guild", "x"],
            &["backup"],
            &["serve", "--listen", "localhost"],
            &["serve", "--listen"],
        ] {
            let e = parse(args).expect_err("a usage error");
            assert_eq!(e.exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn a_missing_config_file_named_on_the_command_line_is_an_error() {
        let e = load_config(Some(Path::new("/no/such/referee.toml"))).unwrap_err();
        assert!(
            e.to_string()
                .contains("/no/such/referee.toml does not exist"),
            "{e}"
        );
    }

    #[test]
    fn a_database_in_a_missing_folder_is_refused_in_one_line() {
        let e = check_folder(Path::new("/no/such/folder/referee.sqlite3")).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("/no/such/folder does not exist"), "{text}");
        assert!(!text.contains('\n'), "{text}");
        check_folder(Path::new("referee.sqlite3")).expect("the working directory");
        check_folder(Path::new("postgres://u@h/db")).expect("a URL has no folder");
    }

    #[test]
    fn a_panics_message_is_read_from_either_payload() {
        let text: Box<dyn std::any::Any + Send> = Box::new("boom");
        assert_eq!(panic_message(text.as_ref()), "boom");
        let owned: Box<dyn std::any::Any + Send> = Box::new(format!("boom {}", 2));
        assert_eq!(panic_message(owned.as_ref()), "boom 2");
        let other: Box<dyn std::any::Any + Send> = Box::new(7_u8);
        assert_eq!(panic_message(other.as_ref()), "(no message)");
    }

    #[test]
    fn clap_finds_no_fault_in_the_definition() {
        Cli::command().debug_assert();
    }
}
