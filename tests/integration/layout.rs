//! The start-up code layout (`link/`, used by `build.rs` for optimised builds): the committed
//! list makes a linker script, and what is not a symbol pattern is refused. What the layout is
//! worth is measured by `cargo bench --bench bot_load` (idle RSS).

#[path = "../../link/startup_layout.rs"]
mod startup_layout;

use startup_layout::{SECTION, linker_script};

fn committed_list() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/link/startup-functions.txt"
    ))
    .expect("link/startup-functions.txt is in the repository")
}

/// The names in a list: its lines but blank ones and comments.
fn names(list: &str) -> Vec<&str> {
    startup_layout::entries(list)
        .map(|(_, name)| name)
        .collect()
}

#[test]
fn the_committed_list_makes_one_pattern_per_name() {
    let list = committed_list();
    let names = names(&list);
    assert!(
        names.len() > 500,
        "the list names {} functions; it should hold every function run at start-up",
        names.len()
    );
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "the list repeats a name");
    // It is this program's list: the binary's own main and the store's start are in it.
    for own in ["7referee4main17h", "7referee5store"] {
        assert!(
            names.iter().any(|n| n.contains(own)),
            "no function of referee matching {own} in the list"
        );
    }

    let script = linker_script(&list).expect("the committed list is valid");
    assert!(script.starts_with(&format!("SECTIONS\n{{\n  {SECTION} :")));
    assert!(script.trim_end().ends_with("INSERT BEFORE .text;"));
    let patterns: Vec<&str> = script
        .lines()
        .filter(|l| l.trim_start().starts_with("*("))
        .collect();
    assert_eq!(patterns.len(), names.len());
    // In the list's order, each name both as a plain and as a cold function's section.
    for (pattern, name) in patterns.iter().zip(&names) {
        assert_eq!(
            pattern.trim(),
            format!("*(.text.{name} .text.unlikely.{name})")
        );
    }
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    let script = linker_script("# a comment\n\n  main  \n# another\n_ZN3foo3bar17h*\n").unwrap();
    let patterns: Vec<&str> = script
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("*("))
        .collect();
    assert_eq!(
        patterns,
        [
            "*(.text.main .text.unlikely.main)",
            "*(.text._ZN3foo3bar17h* .text.unlikely._ZN3foo3bar17h*)"
        ]
    );
    // An empty list still makes a whole script, with an empty section.
    let empty = linker_script("").unwrap();
    assert!(!empty.contains("*("), "{empty}");
    assert!(
        empty.trim_end().ends_with("INSERT BEFORE .text;"),
        "{empty}"
    );
}

#[test]
fn what_is_not_a_symbol_pattern_is_refused_with_its_line() {
    // Each of these would change the script's meaning: end the pattern, open a block, start a
    // comment or an expression.
    for bad in ["a b", "a)", "a(", "}", "a;", "/*a", "a,b", "\"a\"", "é"] {
        let list = format!("# header\nmain\n{bad}\n");
        let err = linker_script(&list).expect_err(bad);
        assert!(
            err.starts_with("line 3: not a symbol pattern"),
            "{bad:?}: {err}"
        );
    }
}
