//! The seam between the store's functions and the two databases: a [`Conn`] that runs the same
//! SQL on SQLite or on PostgreSQL, over a neutral [`Value`].
//!
//! SQL is written once, in the dialect both accept (`ON CONFLICT … DO NOTHING` rather than
//! `INSERT OR IGNORE`, `RETURNING`, `CASE` rather than two-argument `MAX`), with rusqlite's
//! numbered placeholders `?1`, `?2`…; on PostgreSQL they become `$1`, `$2`…. Booleans are stored
//! as integers 0/1 in both (a `bool` parameter binds as 0 or 1; a column read as `bool` accepts
//! an integer or a PostgreSQL boolean). Every statement goes through the connection's prepared
//! statement cache, on either database. Where a write is on every roll's path (the roll log, the
//! outbox) it gets its new id through [`insert_returning`], without `RETURNING` on SQLite.

use std::cell::RefCell;
use std::collections::HashMap;

use super::{Result, StoreError};

/// Called with the time one commit took (the bot's metrics); no SQL of its own. Both
/// backends call it.
pub type CommitObserver = Box<dyn Fn(std::time::Duration) + Send + Sync>;

/// Seconds since the Unix epoch, for `created_at` columns.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// One value going to or coming from the database, borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Text(&'a str),
    Bytes(&'a [u8]),
    Bool(bool),
}

/// A type that binds as a statement parameter.
pub trait Param {
    fn value(&self) -> Value<'_>;
}

/// A type that reads from a result column.
pub trait Column: Sized {
    /// The column's value as `Self`, or why not.
    fn column(v: Value<'_>) -> Result<Self, String>;
}

/// The parameters of a statement, as [`params!`] builds them.
pub type Params<'a> = &'a [&'a dyn Param];

/// Statement parameters: `params![guild, id, name]`.
#[macro_export]
#[doc(hidden)]
macro_rules! store_params {
    () => { &[] as $crate::store::sql::Params<'_> };
    ($($x:expr),+ $(,)?) => {
        &[$(&$x as &dyn $crate::store::sql::Param),+] as $crate::store::sql::Params<'_>
    };
}
pub use crate::store_params as params;

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value<'_> {
        (**self).value()
    }
}

impl Param for i64 {
    fn value(&self) -> Value<'_> {
        Value::Int(*self)
    }
}

impl Param for i32 {
    fn value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl Param for u32 {
    fn value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl Param for bool {
    fn value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl Param for str {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl Param for String {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl Param for [u8] {
    fn value(&self) -> Value<'_> {
        Value::Bytes(self)
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, Param::value)
    }
}

fn wrong(what: &str, v: Value<'_>) -> String {
    format!("expected {what}, found {v:?}")
}

impl Column for i64 {
    fn column(v: Value<'_>) -> Result<Self, String> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(wrong("an integer", other)),
        }
    }
}

impl Column for i32 {
    fn column(v: Value<'_>) -> Result<Self, String> {
        i32::try_from(i64::column(v)?).map_err(|e| e.to_string())
    }
}

impl Column for u32 {
    fn column(v: Value<'_>) -> Result<Self, String> {
        u32::try_from(i64::column(v)?).map_err(|e| e.to_string())
    }
}

impl Column for bool {
    fn column(v: Value<'_>) -> Result<Self, String> {
        match v {
            Value::Bool(b) => Ok(b),
            Value::Int(i) => Ok(i != 0),
            other => Err(wrong("a boolean", other)),
        }
    }
}

impl Column for String {
    fn column(v: Value<'_>) -> Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s.to_owned()),
            other => Err(wrong("text", other)),
        }
    }
}

impl Column for Vec<u8> {
    fn column(v: Value<'_>) -> Result<Self, String> {
        match v {
            Value::Bytes(b) => Ok(b.to_vec()),
            Value::Text(s) => Ok(s.as_bytes().to_vec()),
            other => Err(wrong("bytes", other)),
        }
    }
}

impl<T: Column> Column for Option<T> {
    fn column(v: Value<'_>) -> Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            other => T::column(other).map(Some),
        }
    }
}

/// Which database a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A PostgreSQL connection with its prepared statements, as the pool keeps it.
pub struct PgClient {
    /// Always `Some` until dropped (see the `Drop` below).
    client: Option<postgres::Client>,
    statements: HashMap<String, postgres::Statement>,
}

impl Drop for PgClient {
    fn drop(&mut self) {
        // A `postgres::Client` closes itself on a small runtime of its own, which may not
        // start on a thread that drives another (the bot's last handle on the store can be
        // dropped there at shutdown): such a drop goes to a thread of its own.
        if let Some(client) = self.client.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}

impl PgClient {
    pub(crate) fn new(client: postgres::Client) -> Self {
        Self {
            client: Some(client),
            statements: HashMap::new(),
        }
    }

    /// The client (present for the connection's whole life).
    pub(crate) fn client(&mut self) -> &mut postgres::Client {
        self.client
            .as_mut()
            .unwrap_or_else(|| unreachable!("a PgClient's client is taken only when it is dropped"))
    }

    /// The prepared statement for `sql` (written with `?N` placeholders), preparing it once.
    fn statement(&mut self, sql: &str) -> Result<postgres::Statement> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client().prepare(&to_postgres(sql))?;
        self.statements.insert(sql.to_owned(), s.clone());
        Ok(s)
    }
}

/// The pool of PostgreSQL connections.
pub(crate) type PgPool = r2d2::Pool<PgManager>;

/// Opens PostgreSQL connections for the pool (r2d2).
#[derive(Debug)]
pub(crate) struct PgManager {
    pub(crate) config: postgres::Config,
}

impl r2d2::ManageConnection for PgManager {
    type Connection = PgClient;
    type Error = postgres::Error;

    fn connect(&self) -> Result<PgClient, postgres::Error> {
        self.config.connect(postgres::NoTls).map(PgClient::new)
    }

    fn is_valid(&self, conn: &mut PgClient) -> Result<(), postgres::Error> {
        conn.client().simple_query("").map(|_| ())
    }

    fn has_broken(&self, conn: &mut PgClient) -> bool {
        conn.client.as_ref().is_none_or(postgres::Client::is_closed)
    }
}

enum Inner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<RefCell<r2d2::PooledConnection<PgManager>>>),
}

/// A connection handed to store functions: SQLite or PostgreSQL. Store functions run their SQL
/// through [`exec`], [`query_row`], [`query_opt`] and [`query_map`].
pub struct Conn(Inner);

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Conn").field(&self.dialect()).finish()
    }
}

impl Conn {
    pub(crate) fn sqlite(conn: rusqlite::Connection) -> Self {
        Self(Inner::Sqlite(conn))
    }

    pub(crate) fn postgres(conn: r2d2::PooledConnection<PgManager>) -> Self {
        Self(Inner::Postgres(Box::new(RefCell::new(conn))))
    }

    pub fn dialect(&self) -> Dialect {
        match self.0 {
            Inner::Sqlite(_) => Dialect::Sqlite,
            Inner::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The SQLite connection underneath, on SQLite (tests and SQLite-only tools).
    pub fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.0 {
            Inner::Sqlite(c) => Some(c),
            Inner::Postgres(_) => None,
        }
    }

    pub(crate) fn as_sqlite_mut(&mut self) -> Option<&mut rusqlite::Connection> {
        match &mut self.0 {
            Inner::Sqlite(c) => Some(c),
            Inner::Postgres(_) => None,
        }
    }

    /// Runs statements without parameters or results (several, separated by `;`).
    pub fn batch(&self, sql: &str) -> Result<()> {
        match &self.0 {
            Inner::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Inner::Postgres(c) => Ok(c.borrow_mut().client().batch_execute(sql)?),
        }
    }

    fn sqlite_stmt<'c>(
        c: &'c rusqlite::Connection,
        sql: &str,
    ) -> Result<rusqlite::CachedStatement<'c>> {
        Ok(c.prepare_cached(sql)?)
    }
}

fn sqlite_params(params: Params<'_>) -> Vec<SqliteParam<'_>> {
    params.iter().map(|p| SqliteParam(p.value())).collect()
}

struct SqliteParam<'a>(Value<'a>);

impl rusqlite::ToSql for SqliteParam<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self.0 {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(i),
            Value::Bool(b) => ValueRef::Integer(i64::from(b)),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Bytes(b) => ValueRef::Blob(b),
        }))
    }
}

#[derive(Debug)]
struct PgParam<'a>(Value<'a>);

impl postgres::types::ToSql for PgParam<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::Type;
        let v = self.0;
        match (v, ty) {
            (Value::Null, _) => Ok(postgres::types::IsNull::Yes),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT2) => i16::try_from(i)?.to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (i != 0).to_sql(ty, out),
            (Value::Bool(b), &Type::BOOL) => b.to_sql(ty, out),
            (Value::Bool(b), &Type::INT8) => i64::from(b).to_sql(ty, out),
            (Value::Bool(b), &Type::INT4) => i32::from(b).to_sql(ty, out),
            (Value::Text(s), _) => s.to_sql(ty, out),
            (Value::Bytes(b), &Type::BYTEA) => b.to_sql(ty, out),
            (v, ty) => Err(format!("cannot bind {v:?} as {ty}").into()),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// A result row, on either database.
pub enum Row<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Postgres(&'a postgres::Row),
}

impl Row<'_> {
    /// Column `i` as `T`.
    pub fn get<T: Column>(&self, i: usize) -> Result<T> {
        let v = self.value(i)?;
        T::column(v).map_err(|e| StoreError::Corrupt(format!("column {i}: {e}")))
    }

    fn value(&self, i: usize) -> Result<Value<'_>> {
        match self {
            Row::Sqlite(r) => {
                use rusqlite::types::ValueRef;
                Ok(match r.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(i) => Value::Int(i),
                    ValueRef::Text(t) => Value::Text(
                        std::str::from_utf8(t).map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    ),
                    ValueRef::Blob(b) => Value::Bytes(b),
                    ValueRef::Real(f) => {
                        return Err(StoreError::Corrupt(format!("unexpected real {f}")));
                    }
                })
            }
            Row::Postgres(r) => pg_value(r, i),
        }
    }
}

fn pg_value(r: &postgres::Row, i: usize) -> Result<Value<'_>> {
    use postgres::types::Type;
    let ty = r
        .columns()
        .get(i)
        .ok_or_else(|| StoreError::Corrupt(format!("no column {i}")))?
        .type_()
        .clone();
    let v = match ty {
        Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Value::Int),
        Type::INT4 => r
            .try_get::<_, Option<i32>>(i)?
            .map(|v| Value::Int(i64::from(v))),
        Type::INT2 => r
            .try_get::<_, Option<i16>>(i)?
            .map(|v| Value::Int(i64::from(v))),
        Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(Value::Bool),
        Type::BYTEA => r.try_get::<_, Option<&[u8]>>(i)?.map(Value::Bytes),
        _ => r.try_get::<_, Option<&str>>(i)?.map(Value::Text),
    };
    Ok(v.unwrap_or(Value::Null))
}

/// `sql` with SQLite's `?N` placeholders as PostgreSQL's `$N` (outside quoted strings).
pub fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    for ch in sql.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                out.push(ch);
            }
            '?' if !quoted => out.push('$'),
            _ => out.push(ch),
        }
    }
    out
}

fn pg_params(params: Params<'_>) -> Vec<PgParam<'_>> {
    params.iter().map(|p| PgParam(p.value())).collect()
}

fn pg_refs<'a>(params: &'a [PgParam<'a>]) -> Vec<&'a (dyn postgres::types::ToSql + Sync)> {
    params
        .iter()
        .map(|p| p as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

/// Runs one statement; returns the rows it changed.
pub fn exec(conn: &Conn, sql: &str, params: Params<'_>) -> Result<usize> {
    match &conn.0 {
        Inner::Sqlite(c) => {
            let ps = sqlite_params(params);
            Ok(Conn::sqlite_stmt(c, sql)?.execute(rusqlite::params_from_iter(ps.iter()))?)
        }
        Inner::Postgres(c) => {
            let mut c = c.borrow_mut();
            let st = c.statement(sql)?;
            let ps = pg_params(params);
            Ok(c.client().execute(&st, &pg_refs(&ps))? as usize)
        }
    }
}

/// Every row of a query, each through `f`.
pub fn query_map<T>(
    conn: &Conn,
    sql: &str,
    params: Params<'_>,
    mut f: impl FnMut(&Row<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    match &conn.0 {
        Inner::Sqlite(c) => {
            let ps = sqlite_params(params);
            let mut st = Conn::sqlite_stmt(c, sql)?;
            let mut rows = st.query(rusqlite::params_from_iter(ps.iter()))?;
            let mut out = Vec::new();
            while let Some(r) = rows.next()? {
                out.push(f(&Row::Sqlite(r))?);
            }
            Ok(out)
        }
        Inner::Postgres(c) => {
            let mut c = c.borrow_mut();
            let st = c.statement(sql)?;
            let ps = pg_params(params);
            let rows = c.client().query(&st, &pg_refs(&ps))?;
            rows.iter().map(|r| f(&Row::Postgres(r))).collect()
        }
    }
}

/// The first row of a query through `f`, or `None` when there is none.
pub fn query_opt<T>(
    conn: &Conn,
    sql: &str,
    params: Params<'_>,
    f: impl FnOnce(&Row<'_>) -> Result<T>,
) -> Result<Option<T>> {
    match &conn.0 {
        Inner::Sqlite(c) => {
            let ps = sqlite_params(params);
            let mut st = Conn::sqlite_stmt(c, sql)?;
            let mut rows = st.query(rusqlite::params_from_iter(ps.iter()))?;
            match rows.next()? {
                Some(r) => f(&Row::Sqlite(r)).map(Some),
                None => Ok(None),
            }
        }
        Inner::Postgres(c) => {
            let mut c = c.borrow_mut();
            let st = c.statement(sql)?;
            let ps = pg_params(params);
            // `query` rather than `query_opt`: a statement may return more rows (take the first).
            let rows = c.client().query(&st, &pg_refs(&ps))?;
            rows.first().map(|r| f(&Row::Postgres(r))).transpose()
        }
    }
}

/// The one row a query returns through `f` ([`StoreError::NoRow`] when there is none).
pub fn query_row<T>(
    conn: &Conn,
    sql: &str,
    params: Params<'_>,
    f: impl FnOnce(&Row<'_>) -> Result<T>,
) -> Result<T> {
    query_opt(conn, sql, params, f)?.ok_or(StoreError::NoRow)
}

/// An INSERT that gives back an integer of the row it wrote (its id). PostgreSQL runs
/// `returning`, the insert with its `RETURNING` clause: one round trip. SQLite runs `insert`, the
/// same without the clause, then `read_back` on the same connection.
///
/// Decision (measured): SQLite gathers a `RETURNING` clause's rows in a temporary b-tree that it
/// builds and tears down at every execution: 11,000 of the 57,000 instructions the roll log's
/// insert took (callgrind over `cargo bench --bench app`, /roll).
pub fn insert_returning(
    conn: &Conn,
    insert: &str,
    returning: &str,
    read_back: &str,
    params: Params<'_>,
) -> Result<i64> {
    match conn.dialect() {
        Dialect::Sqlite => {
            exec(conn, insert, params)?;
            query_row(conn, read_back, &[], |r| r.get(0))
        }
        Dialect::Postgres => query_row(conn, returning, params, |r| r.get(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_strings() {
        let cases = [
            ("SELECT ?1, ?2", "SELECT $1, $2"),
            ("SELECT '?1', ?1", "SELECT '?1', $1"),
            ("x = ?10", "x = $10"),
        ];
        for (sql, want) in cases {
            assert_eq!(to_postgres(sql), want, "{sql}");
        }
    }

    #[test]
    fn booleans_read_from_integers_and_booleans() {
        assert_eq!(bool::column(Value::Int(1)), Ok(true));
        assert_eq!(bool::column(Value::Int(0)), Ok(false));
        assert_eq!(bool::column(Value::Bool(true)), Ok(true));
        assert!(bool::column(Value::Text("1")).is_err());
        assert_eq!(Option::<i64>::column(Value::Null), Ok(None));
    }
}
