//! Reachability of the rules: every public function of `rules::thiz` is called from `app`
//! (directly, or through another rules function that is), or carries a written reason beside it.
//!
//! A rule no command reaches is a rule players cannot use. This is a text scan, not a compiler
//! pass: it reads `src/rules/<system>/**/*.rs` for `pub fn NAME` (test modules cut off), and
//! counts NAME as reached when `app` code names it as a call (`NAME(`, `::NAME`, `.NAME(`) or
//! when the body of a reached rules function does. Private helpers (`fn`, `pub(super) fn`) are
//! walked through too, so a rule called by a helper of a reached function is reached, but only
//! public functions must be. Method names shared by several types (`new`,
//! `at`…) are matched by name alone, so this can only err towards "reached"; a free function no
//! one calls is always caught. The reason is a `// Not reached: …` comment among the lines just
//! above the function (its doc comment and attributes).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The marker of a written reason.
const REASON: &str = "// Not reached:";

/// Systems whose unreached functions fail the test; the others are listed only.
const ENFORCED: &[&str] = &["thiz", "tft"];
const LISTED: &[&str] = &[];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's lines without its test code: an inline `#[cfg(test)] mod … {` runs to the end of the
/// file, as this code base lays them out; `#[cfg(test)] mod x;` (a test file of its own) is
/// skipped, and so is any other single item under `#[cfg(test)]`.
fn code_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a source file");
    let mut lines = Vec::new();
    let mut all = text.lines();
    while let Some(line) = all.next() {
        if !line.trim_start().starts_with("#[cfg(test)]") {
            lines.push(line.to_owned());
            continue;
        }
        match all.next() {
            Some(next) if next.trim_end().ends_with('{') => break,
            _ => {}
        }
    }
    lines
}

fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// One function: where it is, its name, whether it is public, whether a reason is written above
/// it, and the code of its body.
struct PubFn {
    file: PathBuf,
    line: usize,
    name: String,
    public: bool,
    reason: bool,
    body: String,
}

/// The name of the function a line declares, and whether it is public (`pub fn`, `pub const
/// fn`); restricted (`pub(super) fn`) and private ones are helpers.
fn fn_name(line: &str) -> Option<(String, bool)> {
    let code = strip_comment(line).trim_start();
    let (rest, public) = if let Some(rest) = code
        .strip_prefix("pub fn ")
        .or_else(|| code.strip_prefix("pub const fn "))
    {
        (rest, true)
    } else {
        let code = code
            .strip_prefix("pub(crate) ")
            .or_else(|| code.strip_prefix("pub(super) "))
            .unwrap_or(code);
        let code = code.strip_prefix("const ").unwrap_or(code);
        (code.strip_prefix("fn ")?, false)
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some((name, public))
}

/// The functions of one file, with their bodies found by counting braces.
fn pub_fns(path: &Path) -> Vec<PubFn> {
    let lines = code_lines(path);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, public)) = fn_name(line) else {
            continue;
        };
        let mut reason = false;
        for above in lines[..i].iter().rev() {
            let t = above.trim_start();
            if t.starts_with("///") || t.starts_with("#[") || t.starts_with("//") {
                reason |= t.starts_with(REASON);
            } else {
                break;
            }
        }
        let mut depth = 0i32;
        let mut started = false;
        let mut body = String::new();
        'outer: for l in &lines[i..] {
            let code = strip_comment(l);
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    ';' if !started && depth == 0 => break 'outer,
                    _ => {}
                }
            }
            body.push_str(code);
            body.push('\n');
            if started && depth <= 0 {
                break;
            }
        }
        out.push(PubFn {
            file: path.to_owned(),
            line: i + 1,
            name,
            public,
            reason,
            body,
        });
    }
    out
}

/// Whether `code` calls or names `name` as a function: `name(`, `::name`, `.name(`.
fn names(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    let mut start = 0;
    while let Some(pos) = code[start..].find(name) {
        let at = start + pos;
        let end = at + name.len();
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let after_ok =
            end == bytes.len() || !(bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_');
        if before_ok && after_ok {
            let rest = code[end..].trim_start();
            let path_before = at >= 2 && &bytes[at - 2..at] == b"::";
            let method_before = at >= 1 && bytes[at - 1] == b'.';
            if rest.starts_with('(') || rest.starts_with("::<") || path_before || method_before {
                return true;
            }
            // Passed as a value: `.map(name)`, `map_or(x, name)`.
            if rest.starts_with(')') || rest.starts_with(',') {
                return true;
            }
        }
        start = end;
    }
    false
}

/// The unreached public functions of `rules/<system>`: (without a reason, with one).
fn unreached(system: &str) -> (Vec<String>, Vec<String>) {
    let mut rules_files = Vec::new();
    rust_files(&root().join("src/rules").join(system), &mut rules_files);
    let fns: Vec<PubFn> = rules_files.iter().flat_map(|f| pub_fns(f)).collect();
    assert!(
        !fns.is_empty(),
        "no public function found under src/rules/{system}"
    );

    let mut app_files = Vec::new();
    rust_files(&root().join("src/app"), &mut app_files);
    let app: String = app_files
        .iter()
        .flat_map(|f| code_lines(f))
        .map(|l| strip_comment(&l).to_owned() + "\n")
        .collect();

    let mut reached: BTreeSet<usize> = (0..fns.len())
        .filter(|&i| names(&app, &fns[i].name))
        .collect();
    // Through reached rules functions, until nothing changes.
    loop {
        let before = reached.len();
        let bodies: Vec<&str> = reached.iter().map(|&i| fns[i].body.as_str()).collect();
        for (i, f) in fns.iter().enumerate() {
            if !reached.contains(&i) && bodies.iter().any(|b| names(b, &f.name)) {
                reached.insert(i);
            }
        }
        if reached.len() == before {
            break;
        }
    }
    let mut missing = BTreeSet::new();
    let mut excused = Vec::new();
    for (i, f) in fns.iter().enumerate() {
        if reached.contains(&i) || !f.public {
            continue;
        }
        let place = format!(
            "{}:{} {}",
            f.file.strip_prefix(root()).unwrap_or(&f.file).display(),
            f.line,
            f.name
        );
        if f.reason {
            excused.push(place);
        } else {
            missing.insert(place);
        }
    }
    (missing.into_iter().collect(), excused)
}

#[test]
fn every_rule_is_reached_from_a_command_or_says_why_not() {
    for system in ENFORCED {
        let (missing, excused) = unreached(system);
        eprintln!(
            "rules::{system}: {} public functions unreached with a written reason",
            excused.len()
        );
        assert!(
            missing.is_empty(),
            "rules::{system}: {} public functions no command reaches and no `{REASON}` comment \
             explains:\n{}",
            missing.len(),
            missing.join("\n")
        );
    }
    for system in LISTED {
        let (missing, _) = unreached(system);
        eprintln!(
            "rules::{system} (listed, not yet enforced): {} public functions no command reaches:\n{}",
            missing.len(),
            missing.join("\n")
        );
    }
}

#[test]
fn the_scan_finds_calls_and_only_calls() {
    let cases = [
        ("let x = fall_damage(3);", "fall_damage", true),
        ("hazards::fall_damage", "fall_damage", true),
        ("sheet.lower(loc)", "lower", true),
        ("rows.iter().map(parse_level)", "parse_level", true),
        ("let fall_damage_total = 3;", "fall_damage", false),
        ("my_fall_damage(3)", "fall_damage", false),
        ("\"fall_damage\"", "fall_damage", false),
        ("let s = \"2× Green\"; x::fall_damage", "fall_damage", true),
    ];
    for (code, name, want) in cases {
        assert_eq!(names(code, name), want, "{code} / {name}");
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("x.rs");
    std::fs::write(
        &file,
        "/// Doc.\n// Not reached: only the GM's table.\npub fn a() -> u32 {\n    b()\n}\n\
         pub fn b() -> u32 { 1 }\n#[cfg(test)]\nmod helpers;\npub fn c();\n#[cfg(test)]\nmod tests {\n    pub fn d() {}\n}\n",
    )
    .expect("write");
    let fns = pub_fns(&file);
    let got: Vec<(&str, bool)> = fns.iter().map(|f| (f.name.as_str(), f.reason)).collect();
    assert_eq!(got, [("a", true), ("b", false), ("c", false)]);
    assert!(names(&fns[0].body, "b"));
    // A private helper is a step on the way (a reached function calls it, it calls a rule), never
    // a function that must be reached itself.
    assert_eq!(
        fn_name("    fn helper(x: u32) {"),
        Some(("helper".to_owned(), false))
    );
    assert_eq!(
        fn_name("pub(super) fn step() {"),
        Some(("step".to_owned(), false))
    );
    assert_eq!(fn_name("pub const fn k() {"), Some(("k".to_owned(), true)));
    assert_eq!(fn_name("let f = 3;"), None);
}
