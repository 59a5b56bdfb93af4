//! Build script: embedded migrations, and the start-up code layout of the `referee` binary.

use std::{env, fs, path::PathBuf};

// `SECTION` is there for the integration tests, which share this module.
#[allow(dead_code)]
#[path = "link/startup_layout.rs"]
mod startup_layout;

/// The list of functions the bot runs at start-up (see the file's own header).
const STARTUP_FUNCTIONS: &str = "link/startup-functions.txt";

fn main() {
    // Migrations are embedded at compile time (rusqlite_migration `from-directory`): rebuild
    // when they change.
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed={STARTUP_FUNCTIONS}");
    println!("cargo:rerun-if-changed=link/startup_layout.rs");
    // ELF linkers on Linux read this kind of script (GNU ld and LLD do; gold does not). Optimised
    // builds only: the layout is for the binary that runs, and matching the patterns against a
    // debug build's many more sections made each debug link take 20 s instead of 1 s.
    // REFEREE_STARTUP_LAYOUT=off leaves the layout to the linker: for a linker that reads no
    // INSERT command (gold), or to measure what the layout is worth.
    println!("cargo:rerun-if-env-changed=REFEREE_STARTUP_LAYOUT");
    let wanted = env::var("REFEREE_STARTUP_LAYOUT").as_deref() != Ok("off");
    let linux = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    let optimised = env::var("OPT_LEVEL").is_ok_and(|level| level != "0");
    if wanted && linux && optimised {
        let list = fs::read_to_string(STARTUP_FUNCTIONS)
            .unwrap_or_else(|e| panic!("reading {STARTUP_FUNCTIONS}: {e}"));
        let script = startup_layout::linker_script(&list)
            .unwrap_or_else(|e| panic!("{STARTUP_FUNCTIONS}: {e}"));
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        let path = out.join("startup-layout.ld");
        fs::write(&path, script).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        // Only the `referee` binary: the tests' and benches' own binaries keep the default.
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", path.display());
    }
}
