//! The `referee` binary: a thin shell over the library (see `referee --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    referee::cli::main(&args)
}
