//! The `referee` binary: a thin shell over the library (see `referee --help`).

use std::process::ExitCode;

/// The bot allocates and frees for every interaction on several threads (the event is parsed on
/// one tokio thread, the answer sent from another, the command run on an app thread); glibc's
/// malloc spent about a fifth of the bot's CPU at 10,000 `/roll` a second, much of it merging
/// and splitting free chunks. With jemalloc (one arena: `.cargo/config.toml`) the bot took
/// 93–97 µs of CPU per interaction instead of 108–112, and its heap under that load 13–18 MB
/// instead of 25 (`cargo bench --bench bot_load`). The library's own tests keep the system's.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    referee::cli::main(&args)
}
