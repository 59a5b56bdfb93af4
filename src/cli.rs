//! The command line: which mode to start (`run`, `console`, `migrate`, `backup`) and `--help`.
//!
//! Owns argument parsing and start-up wiring only; every mode's work lives in its own layer.

use std::process::ExitCode;

const USAGE: &str = "\
referee — a Discord bot for THIZ and The Fantasy Trip

Usage:
  referee [run]              connect to Discord (token from DISCORD_TOKEN or config.toml)
  referee console [options]  type slash commands on standard input, read the replies
  referee migrate            apply database migrations and exit
  referee backup PATH        copy the database to PATH while the bot runs
  referee --help             this text

Options:
  --config PATH   configuration file (default: config.toml; see config.example.toml)
";

/// Runs the command line and returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    let mode = args.first().map_or("run", String::as_str);
    match mode {
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        "run" | "console" | "migrate" | "backup" => {
            // Honest about the state of the build: these modes arrive with the store, app and bot layers.
            eprintln!("referee: `{mode}` is not available in this build yet; see README.md");
            ExitCode::from(2)
        }
        other => {
            eprintln!("referee: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
