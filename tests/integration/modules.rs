//! The module layout (STYLE.md, habit 13; issue 34, item 4): no module cycle in the crate, and
//! the use-case families of `app` reach one another only through the seams in [`SEAMS`].
//!
//! A reader of paths, not a compiler. Every file under `src/` but `main.rs` (the binary, a crate
//! of its own) is a module, and so is an inline `mod tests { … }`. A module depends on another
//! when a `use` tree or a path in its code (`crate::…`, `super::…`, `self::…`, a child module,
//! or a name it imported) reaches an item defined there. A path through a `use` (a re-export, or
//! a name a parent imported) is followed to the module that defines the item. A `mod`
//! declaration is no dependency, nor is a `pub use` whose name the module's own code does not
//! use (it only passes the name on). Comments and strings are skipped. A child using its
//! parent's items while the parent uses the child's is a cycle too: what both need goes in a
//! leaf of its own.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

/// The use-case families of `app`: none imports another but through a seam.
const FAMILIES: [&str; 8] = [
    "thiz",
    "tft",
    "encounter",
    "characters",
    "luck",
    "gm",
    "rolls",
    "aliases",
];

/// The seams between families, "family -> module in `app`: why". The module says so too, in a
/// `//!` paragraph starting "Seam:" that names the family. Test modules are not held to these:
/// they check that families agree.
const SEAMS: &[&str] = &[
    "thiz -> encounter::hooks: an attack or a fall in a fight reads and changes the turn",
    "tft -> encounter::hooks: an attack, spell or action in a fight reads and changes the round",
    "tft -> encounter::state: what a figure declared fills /tft attack's options",
    "tft -> encounter::status: a figure left dying gets the status message's dying button",
    "characters -> encounter::loaded: a renamed or deleted character's fights are told",
    "gm -> encounter::loaded: characters:everyone asks who is in the channel's fight",
    "characters -> thiz::record: /character show words THIZ wounds as THIZ stores them",
    "encounter -> thiz::record: the GM's view words THIZ wounds as THIZ stores them",
    "luck -> thiz::record: luck rerolls and lowers what THIZ logged",
    "encounter -> thiz::stats: a THIZ figure's facts are read as THIZ reads its sheet",
    "luck -> thiz::stats: a reroll reads the THIZ sheet as THIZ does",
    "encounter -> thiz::care: the status message offers THIZ's dying button",
    "luck -> thiz::care: a reroll that leaves a character dying offers the dying button",
    "luck -> thiz::attack: a luck reroll of an attack replays it",
    "luck -> thiz::special: a rerolled check's special result is read again",
    "gm -> thiz::shared: a requested check takes THIZ's input limits",
    "characters -> tft::shared: a TFT sheet's house-rule gear and condition",
    "encounter -> tft::shared: a TFT figure's order and ST come from its sheet",
    "thiz -> luck::button: a THIZ roll carries luck's reroll button",
    "thiz -> characters::fields: weaknesses are read as /character stored them",
    "aliases -> characters::fields: a saved roll's name is checked and keyed as a character's is",
    "encounter -> characters::bestiary: /encounter add makes quick NPCs and copies the bestiary's",
    "rolls -> aliases: /roll and /gm roll roll a saved roll by its name",
    "gm -> aliases: a roll request's expression may be each presser's saved roll",
];

/// A module's path in the crate ("app::thiz::record"; the root is "").
type Module = String;

/// Who depends on whom, with the first line that says so ("src/x.rs:3: use …").
type Graph = BTreeMap<Module, BTreeMap<Module, String>>;

/// A token and its line.
type Tokens = Vec<(String, usize)>;

/// What the files say: their modules, the names their `use`s bind, and every path.
#[derive(Default)]
struct Tree {
    /// Every module, inline ones too.
    modules: HashSet<Module>,
    /// A name a `use` binds in a module, with its path as written there.
    names: HashMap<(Module, String), Vec<String>>,
    /// The paths a module imports with `*`.
    globs: HashMap<Module, Vec<Vec<String>>>,
    /// The names each module's code mentions outside its `use` trees.
    used: HashMap<Module, HashSet<String>>,
    paths: Vec<PathRef>,
}

/// A path in a module's code or `use` trees.
struct PathRef {
    scope: Module,
    segments: Vec<String>,
    glob: bool,
    /// The name a `pub use` binds: a dependency only if the module's own code uses it too.
    reexport: Option<String>,
    /// Where it is, quoted: "src/app/x.rs:3: use …".
    line: String,
}

fn child(module: &str, name: &str) -> Module {
    if module.is_empty() {
        name.to_owned()
    } else {
        format!("{module}::{name}")
    }
}

fn parent(module: &str) -> Module {
    module.rsplit_once("::").map_or("", |(p, _)| p).to_owned()
}

/// The file's module: `src/app/thiz.rs` and `src/app/thiz/mod.rs` are `app::thiz`, `src/lib.rs`
/// the root.
fn module_of(path: &str) -> Module {
    let path = path.trim_start_matches("src/").trim_end_matches(".rs");
    let mut parts: Vec<&str> = path.split('/').collect();
    if matches!(parts.last(), Some(&("mod" | "lib"))) {
        parts.pop();
    }
    parts.join("::")
}

fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$')
}

/// Identifiers, `::` and single punctuation, each with its line; comments, strings, characters,
/// lifetimes and numbers are dropped.
fn tokens(src: &str) -> Tokens {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let word = |i: usize| at(i).is_alphanumeric() || at(i) == '_';
    let word_end = |mut j: usize| {
        while word(j) {
            j += 1;
        }
        j
    };
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < c.len() {
        let start = i;
        match (at(i), at(i + 1)) {
            ('/', '/') => {
                i = c[i..]
                    .iter()
                    .position(|&x| x == '\n')
                    .map_or(c.len(), |n| i + n);
            }
            ('/', '*') => i = comment_end(&c, i),
            ('"', _) => i = string_end(&c, i + 1, 0),
            // An escaped character ('\n', '\'', '\u{1F}'): its closing quote is past the escape.
            ('\'', '\\') => {
                let rest = c.get(i + 3..).unwrap_or_default();
                i += 4 + rest.iter().position(|&x| x == '\'').unwrap_or(0);
            }
            ('\'', _) if at(i + 2) == '\'' => i += 3,
            ('\'', _) => i = word_end(i + 1), // a lifetime
            (':', ':') => {
                out.push(("::".to_owned(), line));
                i += 2;
            }
            (ch, _) if ch.is_alphabetic() || ch == '_' || ch == '$' => {
                i = word_end(i + 1);
                let w: String = c[start..i].iter().collect();
                let hashes = c[i..].iter().take_while(|&&x| x == '#').count();
                if matches!(w.as_str(), "r" | "br" | "cr") && at(i + hashes) == '"' {
                    i = string_end(&c, i + hashes + 1, hashes);
                } else if matches!(w.as_str(), "b" | "c") && at(i) == '"' {
                    i = string_end(&c, i + 1, 0);
                } else if w == "r" && hashes == 1 {
                    i += 1; // a raw identifier: read next
                } else {
                    out.push((w, line));
                }
            }
            (ch, _) if ch.is_ascii_digit() => i = word_end(i),
            (ch, _) if ch.is_whitespace() => i += 1,
            (ch, _) => {
                out.push((ch.to_string(), line));
                i += 1;
            }
        }
        let end = i.min(c.len());
        line += c[start..end].iter().filter(|&&x| x == '\n').count();
    }
    out
}

/// Past the end of the (nested) block comment at `i`.
fn comment_end(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i + 1 < c.len() {
        match (c[i], c[i + 1]) {
            ('/', '*') => (depth, i) = (depth + 1, i + 2),
            ('*', '/') if depth == 1 => return i + 2,
            ('*', '/') => (depth, i) = (depth - 1, i + 2),
            _ => i += 1,
        }
    }
    c.len()
}

/// Past the quote (and `hashes` hashes, for a raw string) that ends the string begun before `i`.
fn string_end(c: &[char], mut i: usize, hashes: usize) -> usize {
    while i < c.len() {
        match c[i] {
            '\\' if hashes == 0 => i += 2,
            '"' if c[i + 1..].iter().take(hashes).all(|&x| x == '#') => return i + 1 + hashes,
            _ => i += 1,
        }
    }
    c.len()
}

/// What a `use` tree's path binds.
enum Bind {
    Name(String),
    Glob,
    /// `use … as _`.
    Nothing,
}

/// Reads one use tree from `i`, adding its paths and what they bind; returns where it ends.
fn use_tree(
    toks: &Tokens,
    mut i: usize,
    mut path: Vec<String>,
    out: &mut Vec<(Vec<String>, Bind)>,
) -> usize {
    let tok = |i: usize| toks.get(i).map_or("", |t| t.0.as_str());
    loop {
        match tok(i) {
            "::" => i += 1,
            "*" => {
                out.push((path, Bind::Glob));
                return i + 1;
            }
            "{" => {
                i += 1;
                while !matches!(tok(i), "}" | "") {
                    let end = use_tree(toks, i, path.clone(), out);
                    // Past the comma, or past what is no path (an attribute's `#`).
                    i = if end == i || tok(end) == "," {
                        end + 1
                    } else {
                        end
                    };
                }
                return i + 1;
            }
            t if is_ident(t) => {
                path.push(t.to_owned());
                i += 1;
                if tok(i) == "::" {
                    continue;
                }
                if path.last().is_some_and(|s| s == "self") {
                    path.pop();
                }
                let mut name = path.last().cloned().unwrap_or_default();
                if tok(i) == "as" {
                    (name, i) = (tok(i + 1).to_owned(), i + 2);
                }
                let bind = if name == "_" {
                    Bind::Nothing
                } else {
                    Bind::Name(name)
                };
                out.push((path, bind));
                return i;
            }
            _ => return i,
        }
    }
}

impl Tree {
    /// Reads one file: its inline modules, its `use` trees and the paths in its code.
    fn read(&mut self, file: &str, src: &str) {
        let module = module_of(file);
        let lines: Vec<&str> = src.lines().collect();
        let quote = |line: usize| format!("{file}:{line}: {}", lines[line - 1].trim());
        let toks = tokens(src);
        let tok = |i: usize| toks.get(i).map_or("", |t| t.0.as_str());
        self.modules.insert(module.clone());
        let (mut scopes, mut depth, mut i, mut public) = (vec![(module, 0)], 0, 0, false);
        while i < toks.len() {
            let scope = scopes.last().expect("the file's scope").0.clone();
            // A use of a name: a type or a constant anywhere, a function or a module where it is
            // called or a path goes on (a variable or a field of that name is none).
            let lower = tok(i).starts_with(char::is_lowercase);
            if is_ident(tok(i)) && (!lower || matches!(tok(i + 1), "(" | "::" | "!")) {
                let used = self.used.entry(scope.clone()).or_default();
                used.insert(tok(i).to_owned());
            }
            match tok(i) {
                "{" => {
                    depth += 1;
                    if i >= 2 && tok(i - 2) == "mod" {
                        let inline = child(&scope, tok(i - 1));
                        self.modules.insert(inline.clone());
                        scopes.push((inline, depth));
                    }
                }
                "}" => {
                    if scopes.len() > 1 && scopes.last().is_some_and(|s| s.1 == depth) {
                        scopes.pop();
                    }
                    depth -= 1;
                }
                "pub" => {
                    // A visibility's path (`pub(in crate::app)`) is no dependency.
                    if tok(i + 1) == "(" {
                        i += toks[i..].iter().position(|t| t.0 == ")").unwrap_or(0);
                    }
                    public = tok(i + 1) == "use";
                }
                "use" => {
                    let mut uses = Vec::new();
                    let end = use_tree(&toks, i + 1, Vec::new(), &mut uses);
                    let line = quote(toks[i].1);
                    for (segments, bind) in uses {
                        self.bind(&scope, segments, bind, public, &line);
                    }
                    (i, public) = (end, false);
                    continue;
                }
                t if is_ident(t) && tok(i + 1) == "::" && (i == 0 || tok(i - 1) != "::") => {
                    let mut segments = vec![t.to_owned()];
                    while tok(i + 1) == "::" && is_ident(tok(i + 2)) {
                        segments.push(tok(i + 2).to_owned());
                        i += 2;
                    }
                    let (glob, reexport, line) = (false, None, quote(toks[i].1));
                    self.paths.push(PathRef {
                        scope,
                        segments,
                        glob,
                        reexport,
                        line,
                    });
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Notes what one path of a `use` tree binds in `scope`, and the path.
    fn bind(&mut self, scope: &str, segments: Vec<String>, bind: Bind, public: bool, line: &str) {
        let (glob, mut reexport) = (matches!(bind, Bind::Glob), None);
        match bind {
            Bind::Name(name) => {
                let key = (scope.to_owned(), name.clone());
                self.names.insert(key, segments.clone());
                reexport = public.then_some(name);
            }
            Bind::Glob => {
                let globs = self.globs.entry(scope.to_owned()).or_default();
                globs.push(segments.clone());
            }
            Bind::Nothing => {}
        }
        let (scope, line) = (scope.to_owned(), line.to_owned());
        self.paths.push(PathRef {
            scope,
            segments,
            glob,
            reexport,
            line,
        });
    }

    /// The module defining what a path read in `scope` names, following `use`s, and whether the
    /// path names that module itself. `None`: not this crate's (std, another crate) or not a
    /// path into a module (a variable, a local item).
    fn resolve(&self, scope: &str, path: &[String], depth: usize) -> Option<(Module, bool)> {
        let (first, rest) = path.split_first()?;
        let bound =
            |module: &str, name: &str| self.names.get(&(module.to_owned(), name.to_owned()));
        let mut module = match first.as_str() {
            _ if depth > 16 => return None,
            "crate" | "$crate" => String::new(),
            "self" => scope.to_owned(),
            "super" => parent(scope),
            name if self.modules.contains(&child(scope, name)) => child(scope, name),
            name if bound(scope, name).is_some() => {
                let whole = [bound(scope, name)?.as_slice(), rest].concat();
                return self.resolve(scope, &whole, depth + 1);
            }
            // Through a glob (`use super::*`, but not a glob's own path: `use Level::*` is no
            // module): a child module or a name the glob's module binds.
            _ if depth > 0 => return None,
            name => {
                return self.globs.get(scope)?.iter().find_map(|glob| {
                    let (from, _) = self.resolve(scope, glob, depth + 1)?;
                    let known =
                        self.modules.contains(&child(&from, name)) || bound(&from, name).is_some();
                    known.then(|| self.resolve(&from, path, depth + 1))?
                });
            }
        };
        for (k, segment) in rest.iter().enumerate() {
            if segment == "super" {
                module = parent(&module);
            } else if self.modules.contains(&child(&module, segment)) {
                module = child(&module, segment);
            } else if let Some(target) = bound(&module, segment) {
                let whole = [target.as_slice(), &rest[k + 1..]].concat();
                return self.resolve(&module, &whole, depth + 1);
            } else {
                return Some((module, false));
            }
        }
        Some((module, true))
    }

    /// The module graph: a path to an item makes an edge; a `use` of a module alone does not
    /// (the paths through the name it binds do), nor a name only passed on.
    fn graph(&self) -> Graph {
        let mut graph = Graph::new();
        for p in &self.paths {
            let Some((target, whole_module)) = self.resolve(&p.scope, &p.segments, 0) else {
                continue;
            };
            let used = |name: &String| self.used.get(&p.scope).is_some_and(|u| u.contains(name));
            let passed_on = p.reexport.as_ref().is_some_and(|name| !used(name));
            if target != p.scope && (p.glob || !whole_module) && !passed_on {
                let edges = graph.entry(p.scope.clone()).or_default();
                edges.entry(target).or_insert_with(|| p.line.clone());
            }
        }
        graph
    }
}

/// The graph of files given as (path from the crate's folder, source).
fn graph_of(files: &[(String, String)]) -> Graph {
    let mut tree = Tree::default();
    for (path, src) in files {
        tree.read(path, src);
    }
    tree.graph()
}

/// The crate's files: every `.rs` under `src/` but `main.rs`, as (path, source).
fn crate_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut files, mut dirs) = (Vec::new(), vec![root.join("src")]);
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            let name = path.strip_prefix(root).expect("under the root");
            let name = name.to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && name != "src/main.rs" {
                let src = std::fs::read_to_string(&path).expect("a source file");
                files.push((name, src));
            }
        }
    }
    files.sort();
    files
}

/// The sets of modules that reach one another (strongly connected, more than one module).
fn cycles(graph: &Graph) -> Vec<BTreeSet<Module>> {
    let reach = |from: &Module| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![from]);
        while let Some(m) = todo.pop() {
            for next in graph.get(m).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut found: Vec<BTreeSet<Module>> = Vec::new();
    for (m, r) in &reaches {
        if r.contains(*m) && !found.iter().any(|c| c.contains(*m)) {
            let back = |o: &&Module| reaches.get(*o).is_some_and(|r| r.contains(*m));
            found.push(r.iter().filter(back).cloned().collect());
        }
    }
    found
}

/// Each cycle: its modules, and one line for each of the edges between them.
fn describe(graph: &Graph, cycles: &[BTreeSet<Module>]) -> String {
    let mut lines = Vec::new();
    for cycle in cycles {
        let names: Vec<&str> = cycle.iter().map(String::as_str).collect();
        lines.push(format!("a module cycle through {}:", names.join(", ")));
        for from in cycle {
            for (to, line) in graph[from].iter().filter(|(to, _)| cycle.contains(*to)) {
                lines.push(format!("  {from} -> {to}    {line}"));
            }
        }
    }
    lines.join("\n")
}

/// The `app` family a module belongs to, if any.
fn family(module: &str) -> Option<&str> {
    let name = module.strip_prefix("app::")?.split("::").next()?;
    FAMILIES.into_iter().find(|f| *f == name)
}

/// A seam as (family, module, why).
fn seam(line: &str) -> (&str, String, &str) {
    let (from, rest) = line.split_once(" -> ").expect("family -> module: why");
    let (to, why) = rest.split_once(": ").expect("module: why");
    (from, format!("app::{to}"), why)
}

/// The edges from one family to another that are not seams, and the seams no edge uses.
fn unsanctioned(graph: &Graph) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut used = BTreeSet::new();
    for (from, edges) in graph {
        // A test module (`tests`, `…_tests`, `testkit`) checks that families agree.
        let last = from.rsplit("::").next().unwrap_or_default();
        let test = last.ends_with("tests") || last == "testkit";
        for (to, line) in edges {
            let Some((a, b)) = family(from).zip(family(to)).filter(|(a, b)| a != b) else {
                continue;
            };
            match SEAMS
                .iter()
                .position(|s| seam(s).0 == a && seam(s).1 == *to)
            {
                Some(i) => {
                    used.insert(i);
                }
                None if !test => {
                    wrong.push(format!("{from} -> {to} ({a} -> {b}) is no seam    {line}"));
                }
                None => {}
            }
        }
    }
    let unused = (0..SEAMS.len()).filter(|i| !used.contains(i));
    wrong.extend(unused.map(|i| format!("the seam {} is no longer used", SEAMS[i])));
    wrong
}

#[test]
fn the_crate_has_no_module_cycle() {
    let graph = graph_of(&crate_files());
    // The reader reads: the dispatcher reaches the families and the command types.
    let command = &graph["app::command"];
    assert!(command.contains_key("app::thiz") && command.contains_key("app::invocation"));
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "{}", describe(&graph, &cycles));
}

#[test]
fn families_meet_only_at_their_seams() {
    let files = crate_files();
    let wrong = unsanctioned(&graph_of(&files));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Each seam is named where it is, for whoever opens the module.
    for line in SEAMS {
        let (from, to, _) = seam(line);
        let (path, src) = files
            .iter()
            .find(|(p, _)| module_of(p) == to)
            .unwrap_or_else(|| panic!("no file for {to}"));
        let doc: Vec<&str> = src.lines().filter_map(|l| l.strip_prefix("//!")).collect();
        let said = doc.join(" ");
        let said = said.split("Seam:").nth(1).unwrap_or_default();
        assert!(
            said.contains(from),
            "{path}: no //! \"Seam:\" paragraph naming {from}"
        );
    }
}

/// A tree as (path, source) pairs.
fn files(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let owned = |(p, s): &(&str, &str)| ((*p).to_owned(), (*s).to_owned());
    pairs.iter().map(owned).collect()
}

/// The modules `module` depends on.
fn edges(graph: &Graph, module: &str) -> Vec<String> {
    graph
        .get(module)
        .map(|e| e.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_reader_follows_re_exports_and_skips_comments_and_strings() {
    let tree = files(&[
        ("src/lib.rs", "pub mod app;"),
        (
            "src/app/mod.rs",
            "pub mod command;\npub mod invocation;\npub mod thiz;\n\
             pub use command::Command;\npub use invocation::Invocation;\n\
             pub fn run(_: Command) {}\n",
        ),
        ("src/app/invocation.rs", "pub struct Invocation;\n"),
        (
            "src/app/command.rs",
            "use super::{invocation::{self, Invocation}, thiz};\n\
             pub enum Command { Thiz(thiz::ThizCommand) }\n",
        ),
        (
            "src/app/thiz.rs",
            "use crate::app::Invocation as Inv;\n\
             // use crate::app::Command;\n\
             const S: &str = \"crate::app::Command\"; const C: char = '\"';\n\
             /* use /* super::command::Command; */ */ pub struct ThizCommand;\n\
             pub(in crate::app) fn f(command: u8) -> &'static str { r#\"super::Command\"# }\n\
             mod tests { use super::super::command::*; }\n",
        ),
    ]);
    let graph = graph_of(&tree);
    // `app` uses `Command`, and only passes `Invocation` on.
    assert_eq!(edges(&graph, "app"), ["app::command"]);
    // `invocation::{self, …}` names a module, no dependency; `thiz::ThizCommand` is one.
    assert_eq!(
        edges(&graph, "app::command"),
        ["app::invocation", "app::thiz"]
    );
    // Through the re-export, to where `Invocation` is; comments and strings are not read.
    assert_eq!(edges(&graph, "app::thiz"), ["app::invocation"]);
    // An inline test module is a module of its own.
    assert_eq!(edges(&graph, "app::thiz::tests"), ["app::command"]);
    assert!(cycles(&graph).is_empty());
}

/// Issue 34, item 4: the check fails on a deliberately added back-import, naming the modules
/// and the line.
#[test]
fn a_back_import_is_reported_with_its_modules_and_line() {
    let with = |path: &str, line: &str| {
        let mut tree = crate_files();
        let file = tree.iter_mut().find(|(p, _)| p == path).expect(path);
        file.1.push_str(line);
        graph_of(&tree)
    };
    // The shared command types importing the dispatcher (through the re-export in `app`).
    let graph = with("src/app/invocation.rs", "\nuse super::Command;\n");
    let found = cycles(&graph);
    let report = describe(&graph, &found);
    let cycle = found.iter().find(|c| c.contains("app::invocation"));
    assert!(
        cycle.is_some_and(|c| c.contains("app::command")),
        "{report}"
    );
    assert!(
        report.contains("app::invocation -> app::command    src/app/invocation.rs:"),
        "{report}"
    );
    assert!(report.contains("use super::Command;"), "{report}");

    // A family's shared leaf importing its dispatcher: a cycle inside the family.
    let graph = with("src/app/thiz/shared.rs", "\nuse super::ThizCommand;\n");
    let found = cycles(&graph);
    let cycle = found.iter().find(|c| c.contains("app::thiz::shared"));
    let report = describe(&graph, &found);
    assert!(cycle.is_some_and(|c| c.contains("app::thiz")), "{report}");

    // A family reaching a sibling outside the seams.
    let graph = with(
        "src/app/rolls.rs",
        "\nfn f() { crate::app::luck::LuckCommand::parse; }\n",
    );
    let wrong = unsanctioned(&graph);
    let seam = "app::rolls -> app::luck (rolls -> luck) is no seam";
    assert!(wrong.iter().any(|w| w.starts_with(seam)), "{wrong:?}");
}
