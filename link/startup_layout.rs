//! The linker script that lays out referee's start-up code, made from
//! `link/startup-functions.txt` (see that file's header). Shared by `build.rs`, which writes it,
//! and the integration tests, which check it.

/// The output section the start-up functions are gathered in, ahead of `.text`.
pub const SECTION: &str = ".text.referee_startup";

/// A linker script for GNU ld and LLD that places the listed functions together, in the list's
/// order, ahead of the rest of the code; or the first line that is not a symbol pattern.
///
/// `INSERT BEFORE .text` adds one output section to the linker's default layout instead of
/// replacing it. Each line of the list becomes an input-section pattern: functions are in
/// sections of their own, and `*` in a line stands for rustc's hash. Blank lines and lines that
/// start with `#` are skipped.
pub fn linker_script(list: &str) -> Result<String, String> {
    let mut script = format!("SECTIONS\n{{\n  {SECTION} :\n  {{\n");
    for (number, line) in list.lines().enumerate() {
        let name = line.trim();
        if name.is_empty() || name.starts_with('#') {
            continue;
        }
        // A linker script token takes these characters bare; anything else would change the
        // script's meaning, so refuse it rather than let the link fail obscurely.
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '*'))
        {
            return Err(format!("line {}: not a symbol pattern: {name}", number + 1));
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
