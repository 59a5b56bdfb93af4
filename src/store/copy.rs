//! Moving up: copies a SQLite database into an empty PostgreSQL one (`referee migrate --to`),
//! every table whole, and checks that each table holds as many rows on both sides.

use super::sql::{Column, Param, Value};
use super::{Dialect, Result, Store, StoreError, exec, params, query_map, query_row};

/// Every table, parents before the tables whose foreign keys name them.
pub const TABLES: &[&str] = &[
    "guilds",
    "characters",
    "skills",
    "equipment",
    "wounds",
    "tft_damage",
    "hidden_values",
    "gm_notes",
    "luck",
    "luck_ledger",
    "rolls",
    "secret_rolls",
    "thiz_condition",
    "surgery_treated",
    "advancement",
    "encounters",
    "encounter_spawned",
    "roll_requests",
    "roll_request_characters",
    "outbox",
    "roll_id_leases",
    "id_counters",
    "character_approvals",
    "roll_aliases",
    "active_characters",
    "npc_templates",
];

/// One value of any column, owned (the copy does not know the columns' types).
#[derive(Debug, Clone, PartialEq)]
enum Owned {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Column for Owned {
    fn column(v: Value<'_>) -> Result<Self, String> {
        Ok(match v {
            Value::Null => Owned::Null,
            Value::Int(i) => Owned::Int(i),
            Value::Bool(b) => Owned::Int(i64::from(b)),
            Value::Text(s) => Owned::Text(s.to_owned()),
            Value::Bytes(b) => Owned::Bytes(b.to_vec()),
        })
    }
}

impl Param for Owned {
    fn value(&self) -> Value<'_> {
        match self {
            Owned::Null => Value::Null,
            Owned::Int(i) => Value::Int(*i),
            Owned::Text(s) => Value::Text(s),
            Owned::Bytes(b) => Value::Bytes(b),
        }
    }
}

fn count(store: &Store, table: &str) -> Result<u64> {
    // `table` is one of [`TABLES`], never user input.
    store
        .read(|c| {
            query_row(
                c,
                &format!("SELECT COUNT(*) FROM {table}"),
                params![],
                |r| r.get::<i64>(0),
            )
        })
        .map(|n| n as u64)
}

/// Copies the SQLite database `from` into the PostgreSQL database `to`, which must hold no row
/// yet (its schema is already migrated: [`Store::open`] did it). Reads `from` in one snapshot
/// and writes `to` in one transaction, so a failure leaves `to` empty. Returns each table's
/// row count, checked equal on both sides.
pub fn sqlite_to_postgres(from: &Store, to: &Store) -> Result<Vec<(&'static str, u64)>> {
    if from.dialect() != Dialect::Sqlite || to.dialect() != Dialect::Postgres {
        return Err(StoreError::Unsupported(
            "migrate --to copies a SQLite database into a PostgreSQL one".to_owned(),
        ));
    }
    let known: Vec<String> = from.read(|c| {
        query_map(
            c,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             ORDER BY name",
            params![],
            |r| r.get(0),
        )
    })?;
    if let Some(t) = known.iter().find(|t| !TABLES.contains(&t.as_str())) {
        return Err(StoreError::Unsupported(format!(
            "the copy does not know the table {t}: update store::copy::TABLES"
        )));
    }
    for table in TABLES {
        if count(to, table)? > 0 {
            return Err(StoreError::Unsupported(format!(
                "{} is not empty ({table} has rows): migrate only into an empty database",
                to.path().display()
            )));
        }
    }
    // One snapshot of the source: every table as of one moment.
    let data = from.read(|c| {
        c.batch("BEGIN")?;
        let out = TABLES
            .iter()
            .map(|table| {
                let columns: Vec<String> = query_map(
                    c,
                    "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
                    params![*table],
                    |r| r.get(0),
                )?;
                let list = columns.join(", ");
                let n = columns.len();
                let rows = query_map(c, &format!("SELECT {list} FROM {table}"), params![], |r| {
                    (0..n)
                        .map(|i| r.get::<Owned>(i))
                        .collect::<Result<Vec<_>>>()
                })?;
                Ok((*table, list, n, rows))
            })
            .collect::<Result<Vec<_>>>();
        c.batch("ROLLBACK")?;
        out
    })?;
    to.write(|tx| {
        for (table, list, n, rows) in &data {
            let marks: Vec<String> = (1..=*n).map(|i| format!("?{i}")).collect();
            let sql = format!("INSERT INTO {table} ({list}) VALUES ({})", marks.join(", "));
            for row in rows {
                let ps: Vec<&dyn Param> = row.iter().map(|v| v as &dyn Param).collect();
                exec(tx, &sql, &ps)?;
            }
        }
        // The outbox's ids go on after the copied ones (they are messages' nonces).
        tx.batch(
            "SELECT setval(pg_get_serial_sequence('outbox', 'id'),
                           COALESCE((SELECT MAX(id) FROM outbox), 0) + 1, false)",
        )?;
        Ok::<_, StoreError>(())
    })?;
    let mut counts = Vec::new();
    for (table, _, _, rows) in &data {
        let there = count(to, table)?;
        if there != rows.len() as u64 {
            return Err(StoreError::Corrupt(format!(
                "{table}: {} rows read, {there} in the copy",
                rows.len()
            )));
        }
        counts.push((*table, there));
    }
    Ok(counts)
}
