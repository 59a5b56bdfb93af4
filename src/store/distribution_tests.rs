//! Ready to distribute by guild (issue 61, item 5; `docs/scale-out.md`): every guild-owned table
//! is keyed and indexed with `guild_id` first, every statement the store issues on one filters
//! by `guild_id`, and what does neither is named here with its reason.
//!
//! - **The schema** is read as the migrations leave it: a fresh SQLite database (`PRAGMA
//!   table_info`, `index_list`, `index_info`) and, where a server answers, a fresh PostgreSQL
//!   one (`information_schema`, `pg_index`). A table is guild-owned unless [`GLOBAL_TABLES`]
//!   names it. A guild-owned table has a `guild_id` column; its primary key and every unique key
//!   start with it (a sharded cluster enforces uniqueness within a shard only, so a key must
//!   hold the distribution column); every other index starts with it too, unless
//!   [`INDEXES_ACROSS_GUILDS`] names it.
//! - **The statements** are every SQL string literal in `src/store/**/*.rs` outside tests (a
//!   literal that starts with SELECT, INSERT, UPDATE, DELETE or WITH: the store writes each
//!   statement whole, as one literal, and runs it through `sql::exec` and its siblings). Each
//!   reference to a guild-owned table must be pinned to one guild: a SELECT, UPDATE or DELETE by
//!   a `guild_id = …` (or `IN`) comparison with something other than another table's `guild_id`,
//!   or a join on `guild_id` to a reference so pinned; an INSERT by naming `guild_id` among its
//!   columns. A table written as a format argument (`{table}`) counts as guild-owned. What is not
//!   pinned must be named in [`CROSS_GUILD`], and what is named must need it.
//!
//! The parser is small and knows its limits: it reads comparisons, not logic, so `guild_id = ?1
//! OR TRUE` would pass it. It is a net for the statement someone forgot to scope, not a proof.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{Dialect, Store, query_map, testdb};

/// Tables that belong to no guild, each with why.
const GLOBAL_TABLES: &[(&str, &str)] = &[
    (
        "referee_migrations",
        "PostgreSQL's migration bookkeeping (pg::migrate): which migrations ran. Read and \
         written only by the migration runner, under its own advisory lock",
    ),
    (
        "sqlite_sequence",
        "SQLite's own: the counter behind the outbox's AUTOINCREMENT ids",
    ),
];

/// A guild-owned table whose primary key may lead with another column on one database, and why.
const KEY_EXCEPTIONS: &[(&str, Dialect, &str)] = &[(
    "outbox",
    Dialect::Sqlite,
    "only a rowid key (`id INTEGER PRIMARY KEY`) can be AUTOINCREMENT, which keeps the ids \
     unique and never reused (they are messages' nonces); a SQLite file is never distributed, \
     and PostgreSQL's key is (guild_id, id) (migration 15)",
)];

/// Indexes of guild-owned tables that do not lead with `guild_id`, each with the statement it
/// serves.
const INDEXES_ACROSS_GUILDS: &[(&str, &str)] = &[(
    "outbox_due",
    "the delivery sweep's (outbox::due, outbox::next_due): every guild's copies due next, in one \
     scan",
)];

/// A statement allowed to span guilds.
struct Named {
    /// The file under `src/store/`.
    file: &'static str,
    /// The function whose body holds the literal.
    function: &'static str,
    /// How the statement begins (whitespace collapsed).
    starts: &'static str,
    why: &'static str,
}

/// The statements that touch guild-owned tables across guilds, each with why. Every one is
/// named in `docs/scale-out.md`, which says what a sharded cluster does with it.
const CROSS_GUILD: &[Named] = &[
    Named {
        file: "outbox.rs",
        function: "recover",
        starts: "UPDATE outbox SET ready = 1 WHERE ready = 0",
        why: "start-up: releases the copies every guild's commands held when the last process \
              died",
    },
    Named {
        file: "outbox.rs",
        function: "due",
        starts: "SELECT id, guild_id, channel_id, body, attempts FROM outbox",
        why: "the delivery task's sweep: the copies due now, in every guild, oldest first",
    },
    Named {
        file: "outbox.rs",
        function: "next_due",
        starts: "SELECT MIN(next_at_ms) FROM outbox",
        why: "the delivery task's timer: when the next copy of any guild is due",
    },
    Named {
        file: "outbox.rs",
        function: "unreported_guilds",
        starts: "SELECT DISTINCT guild_id FROM outbox",
        why: "which guilds have a refused copy their GM has not been told of",
    },
    Named {
        file: "outbox.rs",
        function: "depth",
        starts: "SELECT COUNT(*) FILTER",
        why: "metrics: copies waiting and failed, over all guilds",
    },
    Named {
        file: "outbox.rs",
        function: "oldest_waiting",
        starts: "SELECT MIN(created_at) FROM outbox",
        why: "metrics: the age of the oldest copy waiting, over all guilds",
    },
    Named {
        file: "encounters.rs",
        function: "channels",
        starts: "SELECT guild_id, channel_id FROM encounters",
        why: "start-up: every channel with an encounter row, whose status message may need \
              bringing up to date",
    },
    Named {
        file: "journal.rs",
        function: "release",
        starts: "DELETE FROM roll_id_leases WHERE holder = ?1",
        why: "the roll journal (SQLite only): a holder's id leases, in every guild it rolled \
              in, go when it closes or once its journal is replayed",
    },
    Named {
        file: "journal.rs",
        function: "replay",
        starts: "SELECT DISTINCT holder FROM roll_id_leases",
        why: "the roll journal (SQLite only): which journals hold leases, to replay the dead \
              ones",
    },
    Named {
        file: "rolls.rs",
        function: "insert",
        starts: "SELECT id FROM rolls WHERE rowid = last_insert_rowid()",
        why: "SQLite only: reads back the id of the row this connection just inserted (the \
              insert names the guild), by its rowid",
    },
    Named {
        file: "copy.rs",
        function: "count",
        starts: "SELECT COUNT(*) FROM {table}",
        why: "referee migrate --to: each table's rows, counted whole on both sides",
    },
    Named {
        file: "copy.rs",
        function: "sqlite_to_postgres",
        starts: "SELECT {list} FROM {table}",
        why: "referee migrate --to: reads every table whole",
    },
    Named {
        file: "copy.rs",
        function: "sqlite_to_postgres",
        starts: "INSERT INTO {table} ({list})",
        why: "referee migrate --to: writes every row back, columns as the source has them",
    },
    Named {
        file: "copy.rs",
        function: "sqlite_to_postgres",
        starts: "SELECT setval(pg_get_serial_sequence('outbox', 'id')",
        why: "referee migrate --to: the outbox's id sequence goes on above every copied id",
    },
];

// ---- The schema ---------------------------------------------------------------------------------

/// A key or index: its name, its key columns in order, whether it is unique or the primary key.
#[derive(Debug, Clone)]
struct Index {
    name: String,
    columns: Vec<String>,
    unique: bool,
    primary: bool,
}

#[derive(Debug, Clone)]
struct Table {
    name: String,
    columns: Vec<String>,
    indexes: Vec<Index>,
}

fn reason<'a>(list: &'a [(&str, &str)], name: &str) -> Option<&'a str> {
    list.iter().find(|(n, _)| *n == name).map(|(_, why)| *why)
}

/// What is wrong with `tables` (as `dialect` has them), one line each.
fn schema_problems(tables: &[Table], dialect: Dialect) -> Vec<String> {
    let mut problems = Vec::new();
    for t in tables {
        if reason(GLOBAL_TABLES, &t.name).is_some() {
            continue;
        }
        let name = &t.name;
        if !t.columns.iter().any(|c| c == "guild_id") {
            problems.push(format!(
                "{name} has no guild_id column: give it one, or name it in GLOBAL_TABLES"
            ));
            continue;
        }
        let led = |i: &Index| i.columns.first().is_some_and(|c| c == "guild_id");
        let excepted = KEY_EXCEPTIONS
            .iter()
            .any(|(n, d, _)| n == name && *d == dialect);
        match t.indexes.iter().find(|i| i.primary) {
            None => problems.push(format!("{name} has no primary key")),
            Some(pk) if !led(pk) && !excepted => problems.push(format!(
                "{name}'s primary key ({}) does not start with guild_id",
                pk.columns.join(", ")
            )),
            Some(_) => {}
        }
        for i in t.indexes.iter().filter(|i| !i.primary) {
            if led(i) {
                continue;
            }
            if i.unique {
                problems.push(format!(
                    "{name}'s unique key {} ({}) does not start with guild_id",
                    i.name,
                    i.columns.join(", ")
                ));
            } else if reason(INDEXES_ACROSS_GUILDS, &i.name).is_none() {
                problems.push(format!(
                    "{name}'s index {} ({}) does not start with guild_id: lead it with \
                     guild_id, or name it in INDEXES_ACROSS_GUILDS",
                    i.name,
                    i.columns.join(", ")
                ));
            }
        }
        if !t.indexes.iter().any(led) {
            problems.push(format!("{name} has no index led by guild_id"));
        }
    }
    problems
}

/// The schema of a SQLite store, as SQLite describes it.
fn sqlite_schema(store: &Store) -> Vec<Table> {
    store
        .read(|c| {
            let c = c.as_sqlite().expect("a SQLite store");
            let names: Vec<String> = c
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            let mut tables = Vec::new();
            for name in names {
                let mut info: Vec<(String, i64)> = c
                    .prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid")?
                    .query_map([&name], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<_, _>>()?;
                let columns = info.iter().map(|(c, _)| c.clone()).collect();
                info.retain(|(_, pk)| *pk > 0);
                info.sort_by_key(|(_, pk)| *pk);
                let mut indexes = Vec::new();
                if !info.is_empty() {
                    indexes.push(Index {
                        name: format!("{name} primary key"),
                        columns: info.into_iter().map(|(c, _)| c).collect(),
                        unique: true,
                        primary: true,
                    });
                }
                let list: Vec<(String, bool, String)> = c
                    .prepare("SELECT name, \"unique\", origin FROM pragma_index_list(?1)")?
                    .query_map([&name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<Result<_, _>>()?;
                for (index, unique, origin) in list {
                    if origin == "pk" {
                        continue; // The primary key, read above.
                    }
                    let columns: Vec<Option<String>> = c
                        .prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")?
                        .query_map([&index], |r| r.get(0))?
                        .collect::<Result<_, _>>()?;
                    indexes.push(Index {
                        name: index,
                        columns: columns
                            .into_iter()
                            .map(|c| c.unwrap_or_else(|| "<expression>".to_owned()))
                            .collect(),
                        unique,
                        primary: false,
                    });
                }
                tables.push(Table {
                    name,
                    columns,
                    indexes,
                });
            }
            Ok(tables)
        })
        .expect("read SQLite's schema")
}

/// The schema of a PostgreSQL store, from its catalog.
fn postgres_schema(store: &Store) -> Vec<Table> {
    store
        .read(|c| {
            let columns: Vec<(String, String)> = query_map(
                c,
                "SELECT table_name::text, column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let indexes: Vec<(String, String, bool, bool, String)> = query_map(
                c,
                "SELECT t.relname::text, i.relname::text, x.indisunique, x.indisprimary,
                        (SELECT string_agg(a.attname::text, ',' ORDER BY k.n)
                           FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                           LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                          WHERE k.n <= x.indnkeyatts)
                   FROM pg_index x
                   JOIN pg_class i ON i.oid = x.indexrelid
                   JOIN pg_class t ON t.oid = x.indrelid
                   JOIN pg_namespace s ON s.oid = t.relnamespace
                  WHERE s.nspname = current_schema()
                  ORDER BY t.relname, i.relname",
                &[],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )?;
            let mut tables: BTreeMap<String, Table> = BTreeMap::new();
            for (table, column) in columns {
                tables
                    .entry(table.clone())
                    .or_insert_with(|| Table {
                        name: table,
                        columns: Vec::new(),
                        indexes: Vec::new(),
                    })
                    .columns
                    .push(column);
            }
            for (table, name, unique, primary, cols) in indexes {
                if let Some(t) = tables.get_mut(&table) {
                    t.indexes.push(Index {
                        name,
                        columns: cols.split(',').map(str::to_owned).collect(),
                        unique,
                        primary,
                    });
                }
            }
            Ok(tables.into_values().collect())
        })
        .expect("read PostgreSQL's schema")
}

// ---- The statements -----------------------------------------------------------------------------

/// One SQL string literal of the store.
#[derive(Debug, Clone)]
struct Statement {
    /// The file, relative to `src/store/`.
    file: String,
    line: usize,
    /// The function whose body holds it (the last `fn` before it).
    function: String,
    /// The statement, whitespace collapsed.
    sql: String,
}

fn store_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/store") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every SQL statement the store issues: the SQL literals of `src/store/**/*.rs`, but for test
/// files (`*tests.rs`, `testdb.rs`) and each file's `mod tests`.
fn store_statements() -> Vec<Statement> {
    let dir = store_dir();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path
            .strip_prefix(&dir)
            .expect("under src/store")
            .to_string_lossy()
            .replace('\\', "/");
        if file.ends_with("tests.rs") || file == "testdb.rs" {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("read a store file");
        let code = source
            .find("#[cfg(test)]\nmod tests")
            .map_or(source.as_str(), |end| &source[..end]);
        out.extend(sql_literals(&file, code));
    }
    out
}

/// The SQL statements among the string literals of `code`.
fn sql_literals(file: &str, code: &str) -> Vec<Statement> {
    rust_strings(code)
        .into_iter()
        .filter_map(|(at, text)| {
            let sql = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let first = sql.split([' ', '(']).next()?.to_ascii_uppercase();
            if !["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "REPLACE"]
                .contains(&first.as_str())
            {
                return None;
            }
            let before = &code[..at];
            let function = before
                .rmatch_indices("fn ")
                .filter(|(i, _)| !before[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
                .find_map(|(i, _)| {
                    let name: String = before[i + 3..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    (!name.is_empty()).then_some(name)
                })
                .unwrap_or_default();
            Some(Statement {
                file: file.to_owned(),
                line: before.matches('\n').count() + 1,
                function,
                sql,
            })
        })
        .collect()
}

/// The string literals of Rust source `code` (plain and raw), each with its byte offset, escapes
/// undone; comments and character literals skipped.
fn rust_strings(code: &str) -> Vec<(usize, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = code[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            }
            b'\'' => {
                // A character literal ('x', '\n', '"'), or a lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i = code[i + 2..].find('\'').map_or(b.len(), |n| i + 2 + n + 1);
                } else {
                    let width = code[i + 1..].chars().next().map_or(1, char::len_utf8);
                    i += if b.get(i + 1 + width) == Some(&b'\'') {
                        width + 2
                    } else {
                        1
                    };
                }
            }
            b'r' if !b[..i]
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                && matches!(b.get(i + 1), Some(b'"' | b'#')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let end = code[open + 1..]
                    .find(&close)
                    .map_or(b.len(), |n| open + 1 + n);
                out.push((i, code[open + 1..end].to_owned()));
                i = end + close.len();
            }
            b'"' => {
                let (text, end) = plain_string(code, i + 1);
                out.push((i, text));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The plain string literal whose text starts at `start`: its text, and where the source goes
/// on after its closing quote.
fn plain_string(code: &str, start: usize) -> (String, usize) {
    let mut text = String::new();
    let mut chars = code[start..].char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return (text, start + at + 1),
            '\\' => match chars.next() {
                Some((_, 'n')) => text.push('\n'),
                Some((_, 't')) => text.push('\t'),
                Some((_, '\n')) => {
                    // A line continuation: the newline and the next line's indentation go.
                    while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
                }
                Some((_, other)) => text.push(other),
                None => {}
            },
            c => text.push(c),
        }
    }
    (text, code.len())
}

// ---- The guild filter -----------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A name or keyword, maybe qualified (`o.guild_id`), or a format argument (`{table}`).
    Word(String),
    /// A parameter (`?1`, `$1`), a quoted string or a number.
    Value,
    Punct(char),
}

fn tokens(sql: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '\'' => {
                // A quoted string ('' inside is a quote).
                while let Some(c) = chars.next() {
                    if c == '\'' && chars.next_if_eq(&'\'').is_none() {
                        break;
                    }
                }
                out.push(Token::Value);
            }
            '?' | '$' => {
                while chars.next_if(char::is_ascii_digit).is_some() {}
                out.push(Token::Value);
            }
            '{' => {
                let mut word = String::from('{');
                for c in chars.by_ref() {
                    word.push(c);
                    if c == '}' {
                        break;
                    }
                }
                out.push(Token::Word(word));
            }
            '"' => {
                let word: String = chars.by_ref().take_while(|c| *c != '"').collect();
                out.push(Token::Word(word));
            }
            c if c.is_ascii_digit() => {
                while chars
                    .next_if(|c| c.is_ascii_alphanumeric() || *c == '.')
                    .is_some()
                {}
                out.push(Token::Value);
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = String::from(c);
                while let Some(c) = chars.next_if(|c| c.is_alphanumeric() || "_.".contains(*c)) {
                    word.push(c);
                }
                out.push(Token::Word(word));
            }
            c => out.push(Token::Punct(c)),
        }
    }
    out
}

/// Words that end a table reference rather than name its alias.
const CLAUSE_WORDS: &[&str] = &[
    "WHERE",
    "JOIN",
    "INNER",
    "LEFT",
    "RIGHT",
    "FULL",
    "CROSS",
    "ON",
    "USING",
    "ORDER",
    "GROUP",
    "HAVING",
    "LIMIT",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "SET",
    "VALUES",
    "DEFAULT",
    "RETURNING",
    "SELECT",
    "WINDOW",
    "OFFSET",
    "NATURAL",
];

fn is_word(t: Option<&Token>, word: &str) -> bool {
    matches!(t, Some(Token::Word(w)) if w.eq_ignore_ascii_case(word))
}

/// A table a statement reads or writes.
#[derive(Debug)]
struct Reference {
    table: String,
    alias: Option<String>,
    /// The (sub)query it belongs to.
    scope: usize,
    /// An INSERT's target: its column list (empty when it has none).
    inserted: Option<Vec<String>>,
}

/// A `guild_id` column in a comparison.
#[derive(Debug)]
struct GuildColumn {
    /// Its qualifier (`o` in `o.guild_id`).
    qualifier: Option<String>,
}

/// A comparison with a `guild_id` column on one side.
#[derive(Debug)]
struct GuildTest {
    column: GuildColumn,
    scope: usize,
    /// The other side, when it is another `guild_id` column (a join).
    joined: Option<GuildColumn>,
}

fn guild_column(t: Option<&Token>) -> Option<GuildColumn> {
    let Some(Token::Word(w)) = t else {
        return None;
    };
    match w.rsplit_once('.') {
        Some((q, c)) if c.eq_ignore_ascii_case("guild_id") => (!q.eq_ignore_ascii_case("excluded"))
            .then(|| GuildColumn {
                qualifier: Some(q.to_owned()),
            }),
        None if w.eq_ignore_ascii_case("guild_id") => Some(GuildColumn { qualifier: None }),
        _ => None,
    }
}

/// The table references and `guild_id` comparisons of a statement.
fn analyse(sql: &str) -> (Vec<Reference>, Vec<GuildTest>) {
    let toks = tokens(sql);
    let mut refs = Vec::new();
    let mut tests = Vec::new();
    // The scope of each open parenthesis: a subquery's own, or its parent's.
    let mut stack = vec![0];
    let mut next_scope = 1;
    let mut i = 0;
    while i < toks.len() {
        let scope = *stack.last().unwrap_or(&0);
        match &toks[i] {
            Token::Punct('(') => {
                if is_word(toks.get(i + 1), "SELECT") || is_word(toks.get(i + 1), "WITH") {
                    stack.push(next_scope);
                    next_scope += 1;
                } else {
                    stack.push(scope);
                }
            }
            Token::Punct(')') if stack.len() > 1 => {
                stack.pop();
            }
            Token::Word(w)
                if ["UNION", "INTERSECT", "EXCEPT"].contains(&w.to_ascii_uppercase().as_str()) =>
            {
                if let Some(top) = stack.last_mut() {
                    *top = next_scope;
                    next_scope += 1;
                }
            }
            Token::Word(w) if w.eq_ignore_ascii_case("FROM") || w.eq_ignore_ascii_case("JOIN") => {
                i = read_references(&toks, i + 1, scope, &mut refs);
                continue;
            }
            Token::Word(w)
                if w.eq_ignore_ascii_case("UPDATE") && !is_word(toks.get(i + 1), "SET") =>
            {
                i = read_references(&toks, i + 1, scope, &mut refs);
                continue;
            }
            Token::Word(w) if w.eq_ignore_ascii_case("INTO") => {
                i = read_insert(&toks, i + 1, scope, &mut refs);
                continue;
            }
            Token::Punct('=') => {
                let left = guild_column(i.checked_sub(1).and_then(|l| toks.get(l)));
                match (left, guild_column(toks.get(i + 1))) {
                    (Some(column), joined @ Some(_)) => tests.push(GuildTest {
                        column,
                        scope,
                        joined,
                    }),
                    (Some(column), None) | (None, Some(column)) => tests.push(GuildTest {
                        column,
                        scope,
                        joined: None,
                    }),
                    (None, None) => {}
                }
            }
            Token::Word(w) if w.eq_ignore_ascii_case("IN") => {
                if let Some(column) = guild_column(i.checked_sub(1).and_then(|l| toks.get(l))) {
                    tests.push(GuildTest {
                        column,
                        scope,
                        joined: None,
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    (refs, tests)
}

/// Reads an INSERT's target from `toks[i]` on (`t (a, b, …)`, or `t` alone); returns where
/// reading goes on.
fn read_insert(toks: &[Token], mut i: usize, scope: usize, refs: &mut Vec<Reference>) -> usize {
    let Some(Token::Word(table)) = toks.get(i) else {
        return i;
    };
    i += 1;
    let mut columns = Vec::new();
    if toks.get(i) == Some(&Token::Punct('(')) {
        i += 1;
        while let Some(t) = toks.get(i) {
            i += 1;
            match t {
                Token::Punct(')') => break,
                Token::Word(c) => columns.push(c.clone()),
                _ => {}
            }
        }
    }
    refs.push(Reference {
        table: table.clone(),
        alias: None,
        scope,
        inserted: Some(columns),
    });
    i
}

/// Reads the table references from `toks[i]` on (`a`, `a x`, `a AS x`, separated by commas);
/// returns where reading goes on.
fn read_references(toks: &[Token], mut i: usize, scope: usize, refs: &mut Vec<Reference>) -> usize {
    loop {
        let Some(Token::Word(table)) = toks.get(i) else {
            return i; // A subquery, read as such.
        };
        if toks.get(i + 1) == Some(&Token::Punct('(')) {
            return i + 1; // A function (pragma_table_info(…)): no table.
        }
        i += 1;
        if is_word(toks.get(i), "AS") {
            i += 1;
        }
        let alias = match toks.get(i) {
            Some(Token::Word(a)) if !CLAUSE_WORDS.iter().any(|k| a.eq_ignore_ascii_case(k)) => {
                i += 1;
                Some(a.clone())
            }
            _ => None,
        };
        refs.push(Reference {
            table: table.clone(),
            alias,
            scope,
            inserted: None,
        });
        if toks.get(i) != Some(&Token::Punct(',')) {
            return i;
        }
        i += 1;
    }
}

/// How a table a statement names is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Guild,
    Global,
}

/// Why `sql` is not pinned to one guild, if it is not. `owner` says whose each table is (`None`:
/// the schema has no such table).
fn guild_filter_problem(sql: &str, owner: &dyn Fn(&str) -> Option<Owner>) -> Option<String> {
    let (refs, tests) = analyse(sql);
    let guild_owned = |r: &Reference| -> Result<bool, String> {
        if r.table.starts_with('{') {
            return Ok(true); // A format argument: any table, so held to the rule.
        }
        let catalog = ["sqlite_", "pg_", "information_schema."]
            .iter()
            .any(|p| r.table.to_ascii_lowercase().starts_with(p));
        match owner(&r.table) {
            _ if catalog => Ok(false),
            Some(o) => Ok(o == Owner::Guild),
            None => Err(format!(
                "names the table {}, which the schema does not have",
                r.table
            )),
        }
    };
    // Which references a comparison's column may belong to.
    let covers = |c: &GuildColumn, scope: usize, r: &Reference| match &c.qualifier {
        Some(q) => r.alias.as_deref() == Some(q.as_str()) || (r.alias.is_none() && r.table == *q),
        None => r.scope == scope,
    };
    let mut pinned: BTreeSet<usize> = BTreeSet::new();
    for (n, r) in refs.iter().enumerate() {
        if r.inserted.is_none()
            && tests
                .iter()
                .any(|t| t.joined.is_none() && covers(&t.column, t.scope, r))
        {
            pinned.insert(n);
        }
    }
    // A join on guild_id to a pinned reference pins the other side too.
    loop {
        let before = pinned.len();
        for t in &tests {
            let Some(other) = &t.joined else { continue };
            let side = |c: &GuildColumn| -> Vec<usize> {
                (0..refs.len())
                    .filter(|n| refs[*n].inserted.is_none() && covers(c, t.scope, &refs[*n]))
                    .collect()
            };
            let (a, b) = (side(&t.column), side(other));
            if a.iter().any(|n| pinned.contains(n)) || b.iter().any(|n| pinned.contains(n)) {
                pinned.extend(a.into_iter().chain(b));
            }
        }
        if pinned.len() == before {
            break;
        }
    }
    for (n, r) in refs.iter().enumerate() {
        match guild_owned(r) {
            Err(e) => return Some(e),
            Ok(false) => {}
            Ok(true) => match &r.inserted {
                Some(columns) if !columns.iter().any(|c| c == "guild_id") => {
                    return Some(format!("inserts into {} without naming guild_id", r.table));
                }
                None if !pinned.contains(&n) => {
                    return Some(format!(
                        "reads or writes {} without a guild_id filter",
                        r.table
                    ));
                }
                Some(_) | None => {}
            },
        }
    }
    None
}

/// What is wrong with the store's statements, given the tables the schema has, one line each:
/// statements not pinned to a guild and not named, and names that match no such statement.
fn statement_problems(
    statements: &[Statement],
    named: &[Named],
    owner: &dyn Fn(&str) -> Option<Owner>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut used = vec![0; named.len()];
    for s in statements {
        let name = named.iter().position(|n| {
            n.file == s.file && n.function == s.function && s.sql.starts_with(n.starts)
        });
        if let Some(n) = name {
            used[n] += 1;
        }
        match (guild_filter_problem(&s.sql, owner), name) {
            (Some(problem), None) => problems.push(format!(
                "src/store/{}:{} (fn {}) {problem}: filter it by guild_id, or name it in \
                 CROSS_GUILD with why — {}",
                s.file, s.line, s.function, s.sql
            )),
            (None, Some(n)) => problems.push(format!(
                "src/store/{}:{} (fn {}) is pinned to a guild, yet CROSS_GUILD names it ({}): \
                 drop the name",
                s.file, s.line, s.function, named[n].starts
            )),
            (Some(_), Some(_)) | (None, None) => {}
        }
    }
    for (n, count) in named.iter().zip(used) {
        if count != 1 {
            problems.push(format!(
                "CROSS_GUILD's {} (fn {}, \"{}\") matches {count} statements, not one",
                n.file, n.function, n.starts
            ));
        }
    }
    problems
}

fn owner_in(tables: &[Table]) -> impl Fn(&str) -> Option<Owner> + '_ {
    move |name: &str| {
        if reason(GLOBAL_TABLES, name).is_some() {
            Some(Owner::Global)
        } else {
            tables
                .iter()
                .any(|t| t.name == name)
                .then_some(Owner::Guild)
        }
    }
}

// ---- The tests ----------------------------------------------------------------------------------

#[test]
fn every_guild_owned_table_is_keyed_and_indexed_by_guild_first() {
    for t in testdb::backends() {
        let tables = match t.store.dialect() {
            Dialect::Sqlite => sqlite_schema(&t.store),
            Dialect::Postgres => postgres_schema(&t.store),
        };
        assert!(
            tables.iter().any(|t| t.name == "rolls") && tables.iter().any(|t| t.name == "outbox"),
            "{}: the schema was read: {tables:?}",
            t.name
        );
        let problems = schema_problems(&tables, t.store.dialect());
        assert!(problems.is_empty(), "{}:\n{}", t.name, problems.join("\n"));
        for (index, _) in INDEXES_ACROSS_GUILDS {
            assert!(
                tables
                    .iter()
                    .flat_map(|t| &t.indexes)
                    .any(|i| i.name == *index),
                "{}: INDEXES_ACROSS_GUILDS names {index}, which is no more",
                t.name
            );
        }
    }
}

#[test]
fn every_statement_on_a_guild_owned_table_filters_by_guild_or_is_named() {
    let test = testdb::sqlite();
    let tables = sqlite_schema(&test.store);
    let statements = store_statements();
    assert!(
        statements.len() > 100
            && statements.iter().any(|s| s.file == "journal.rs")
            && statements.iter().any(|s| s.function == "next_id"),
        "the store's statements were found: {}",
        statements.len()
    );
    let problems = statement_problems(&statements, CROSS_GUILD, &owner_in(&tables));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for n in CROSS_GUILD {
        assert!(
            !n.why.trim().is_empty(),
            "{} {}: say why",
            n.file,
            n.function
        );
    }
}

/// The tables `docs/scale-out.md` sorts (the rows of its table headed `| table |`, each starting
/// with a table's name in backticks) are the schema's, and it names every cross-guild statement
/// as `module::function`.
#[test]
fn the_scale_out_doc_names_every_table_and_cross_guild_statement() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scale-out.md");
    let doc = std::fs::read_to_string(path).expect("docs/scale-out.md");
    let listed: BTreeSet<String> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| table |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .map(str::to_owned)
        .collect();
    let test = testdb::sqlite();
    let mut schema: BTreeSet<String> = sqlite_schema(&test.store)
        .into_iter()
        .map(|t| t.name)
        .collect();
    schema.insert("referee_migrations".to_owned()); // PostgreSQL's alone.
    assert_eq!(
        listed, schema,
        "docs/scale-out.md's tables against the schema's"
    );
    for n in CROSS_GUILD {
        let module = n.file.trim_end_matches(".rs");
        let name = format!("{module}::{}", n.function);
        assert!(
            doc.contains(&name),
            "docs/scale-out.md does not name {name}"
        );
    }
}

// ---- The checks can fail ------------------------------------------------------------------------

fn table(name: &str, columns: &[&str], indexes: &[(&str, &[&str], bool, bool)]) -> Table {
    Table {
        name: name.to_owned(),
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        indexes: indexes
            .iter()
            .map(|(n, cols, unique, primary)| Index {
                name: (*n).to_owned(),
                columns: cols.iter().map(|c| (*c).to_owned()).collect(),
                unique: *unique,
                primary: *primary,
            })
            .collect(),
    }
}

#[test]
fn the_schema_check_fails_a_key_or_index_not_led_by_guild() {
    let good = table(
        "notes",
        &["guild_id", "id", "at"],
        &[
            ("pk", &["guild_id", "id"], true, true),
            ("notes_by_time", &["guild_id", "at"], false, false),
        ],
    );
    assert!(schema_problems(std::slice::from_ref(&good), Dialect::Postgres).is_empty());
    let cases = [
        (
            table("notes", &["id"], &[("pk", &["id"], true, true)]),
            "no guild_id column",
        ),
        (
            table(
                "notes",
                &["guild_id", "id"],
                &[("pk", &["id", "guild_id"], true, true)],
            ),
            "primary key (id, guild_id) does not start with guild_id",
        ),
        (
            table(
                "notes",
                &["guild_id", "id", "name"],
                &[
                    ("pk", &["guild_id", "id"], true, true),
                    ("notes_name", &["name"], true, false),
                ],
            ),
            "unique key notes_name (name)",
        ),
        (
            table(
                "notes",
                &["guild_id", "id", "at"],
                &[
                    ("pk", &["guild_id", "id"], true, true),
                    ("notes_by_time", &["at"], false, false),
                ],
            ),
            "index notes_by_time (at) does not start with guild_id",
        ),
        (table("notes", &["guild_id", "id"], &[]), "no primary key"),
        (
            // The outbox's exception is SQLite's alone.
            table(
                "outbox",
                &["guild_id", "id"],
                &[("pk", &["id"], true, true)],
            ),
            "outbox's primary key (id)",
        ),
    ];
    for (bad, want) in cases {
        let problems = schema_problems(&[good.clone(), bad], Dialect::Postgres);
        assert!(
            problems.iter().any(|p| p.contains(want)),
            "{want:?} not in {problems:?}"
        );
    }
    let sqlite_outbox = table(
        "outbox",
        &["guild_id", "id"],
        &[
            ("pk", &["id"], true, true),
            ("outbox_interaction", &["guild_id", "id"], false, false),
        ],
    );
    assert!(schema_problems(&[sqlite_outbox], Dialect::Sqlite).is_empty());
}

fn toy_owner(name: &str) -> Option<Owner> {
    match name {
        "rolls" | "luck" | "outbox" | "characters" => Some(Owner::Guild),
        "referee_migrations" => Some(Owner::Global),
        _ => None,
    }
}

#[test]
fn the_statement_check_fails_a_statement_not_pinned_to_a_guild() {
    let pinned = [
        "SELECT id FROM rolls WHERE guild_id = ?1 AND id = ?2",
        "UPDATE luck SET points = points - ?3 WHERE guild_id = ?1 AND character_id = ?2",
        "INSERT INTO rolls (guild_id, id) VALUES (?1, (SELECT MAX(id) FROM rolls WHERE guild_id = ?1))",
        "SELECT c.name FROM rolls r JOIN characters c ON c.guild_id = r.guild_id AND c.id = r.character_id \
         WHERE r.guild_id = ?1",
        "SELECT x FROM (SELECT id AS x FROM rolls WHERE guild_id = ?1) AS t WHERE x > 3",
        "SELECT MAX(m) FROM (SELECT MAX(id) AS m FROM rolls WHERE guild_id = ?1 UNION ALL \
         SELECT MAX(id) FROM outbox WHERE guild_id = ?1) AS t",
        "SELECT version FROM referee_migrations",
        "SELECT name FROM sqlite_master WHERE type = 'table'",
        "SELECT name FROM pragma_table_info(?1)",
        "SELECT COALESCE(MAX(id), 0) FROM {table} WHERE guild_id = ?1",
    ];
    for sql in pinned {
        assert_eq!(guild_filter_problem(sql, &toy_owner), None, "{sql}");
    }
    let unpinned = [
        (
            "DELETE FROM outbox WHERE id = ?1",
            "outbox without a guild_id filter",
        ),
        ("SELECT COUNT(*) FROM rolls", "rolls without"),
        (
            "INSERT INTO luck (character_id, points) VALUES (?1, ?2)",
            "inserts into luck",
        ),
        ("INSERT INTO luck VALUES (?1, ?2, ?3)", "inserts into luck"),
        (
            // The outer query is scoped, the subquery is not.
            "UPDATE outbox SET x = 1 WHERE guild_id = ?1 AND channel_id = \
             (SELECT channel_id FROM outbox AS o WHERE o.id = ?2)",
            "outbox without",
        ),
        (
            // Joined on guild_id, but no side is pinned to one.
            "SELECT c.name FROM rolls r JOIN characters c ON c.guild_id = r.guild_id",
            "without a guild_id filter",
        ),
        (
            "SELECT x FROM rolls WHERE guild_id = ?1 UNION ALL SELECT x FROM outbox",
            "outbox without",
        ),
        ("SELECT * FROM {table}", "{table} without"),
        (
            "SELECT * FROM mystery WHERE guild_id = ?1",
            "the schema does not have",
        ),
        (
            "SELECT o.id FROM outbox AS o WHERE excluded.guild_id = ?1",
            "outbox without",
        ),
    ];
    for (sql, want) in unpinned {
        let problem = guild_filter_problem(sql, &toy_owner);
        assert!(
            problem.as_deref().is_some_and(|p| p.contains(want)),
            "{sql}: {problem:?}, wanted {want:?}"
        );
    }
}

#[test]
fn named_statements_must_be_cross_guild_and_found_once() {
    let code = r##"
        // "SELECT * FROM rolls" in a comment is no statement.
        fn sweep(conn: &Conn) {
            exec(conn, "DELETE FROM outbox \
                        WHERE ready = 0", params![]);
            let q = '"';
            query(conn, r#"SELECT id FROM rolls WHERE guild_id = ?1"#);
        }
        fn forgot(conn: &Conn) {
            exec(conn, "UPDATE luck SET points = 0", params![]);
        }
    "##;
    let statements = sql_literals("toy.rs", code);
    let sqls: Vec<(&str, &str)> = statements
        .iter()
        .map(|s| (s.function.as_str(), s.sql.as_str()))
        .collect();
    assert_eq!(
        sqls,
        [
            ("sweep", "DELETE FROM outbox WHERE ready = 0"),
            ("sweep", "SELECT id FROM rolls WHERE guild_id = ?1"),
            ("forgot", "UPDATE luck SET points = 0"),
        ]
    );
    let named = [
        Named {
            file: "toy.rs",
            function: "sweep",
            starts: "DELETE FROM outbox",
            why: "a sweep",
        },
        Named {
            file: "toy.rs",
            function: "sweep",
            starts: "SELECT id FROM rolls",
            why: "needlessly",
        },
        Named {
            file: "toy.rs",
            function: "gone",
            starts: "SELECT",
            why: "stale",
        },
    ];
    let problems = statement_problems(&statements, &named, &toy_owner);
    let expect = [
        "toy.rs:10 (fn forgot) reads or writes luck without a guild_id filter",
        "(fn sweep) is pinned to a guild, yet CROSS_GUILD names it",
        "CROSS_GUILD's toy.rs (fn gone, \"SELECT\") matches 0",
    ];
    assert_eq!(problems.len(), expect.len(), "{problems:#?}");
    for want in expect {
        assert!(
            problems.iter().any(|p| p.contains(want)),
            "{want:?} not in {problems:#?}"
        );
    }
}
