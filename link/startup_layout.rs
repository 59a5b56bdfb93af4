//! The linker script that lays out referee's start-up code, made from
//! `link/startup-functions.txt` (see that file's header). Shared by `build.rs`, which writes it,
//! and the integration tests, which check it.

/// The output section the start-up functions are gathered in, ahead of `.text`.
pub const SECTION: &str = ".text.referee_startup";

/// A linker script for GNU ld and LLD that places the listed functions together, in the list's
/// order, ahead of the rest of the code; or the first line that is not a symbol pattern.
///
/// `INSERT BEFORE .text` adds one output section to the linker's default layout instead of
/// replacing it. Each of the list's [`entries`] becomes an input-section pattern: functions are
/// in sections of their own, and `*` in a line stands for rustc's hash.
pub fn linker_script(list: &str) -> Result<String, String> {
    let mut script = format!("SECTIONS\n{{\n  {SECTION} :\n  {{\n");
    for (number, name) in entries(list) {
        // A linker script token takes these characters bare; anything else would change the
        // script's meaning, so refuse it rather than let the link fail obscurely.
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '*'))
        {
            return Err(format!("line {number}: not a symbol pattern: {name}"));
        }
        // LLVM puts a function it knows to be cold (`#[cold]`, as the slow paths of `Vec` and
        // hash tables are) in `.text.unlikely.<symbol>`, any other in `.text.<symbol>`.
        script.push_str("    *(.text.");
        script.push_str(name);
        script.push_str(" .text.unlikely.");
        script.push_str(name);
        script.push_str(")\n");
    }
    script.push_str("  }\n}\nINSERT BEFORE .text;\n");
    Ok(script)
}

/// The names in a list, with their line numbers (from 1): every line but blank ones and those
/// that start with `#`, trimmed.
pub fn entries(list: &str) -> impl Iterator<Item = (usize, &str)> {
    list.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, name)| !name.is_empty() && !name.starts_with('#'))
}
