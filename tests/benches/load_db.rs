//! The load benchmark's database (`REFEREE_LOAD_STORE`): the SQLite file in a rig's temporary
//! folder, or a fresh PostgreSQL database made for one rig and dropped with it; and what the
//! benchmark reads there — the rows of the roll log and, on PostgreSQL, the WAL the server wrote.
//!
//! The PostgreSQL server is the tests' (`REFEREE_TEST_DATABASE_URL`, default
//! `referee::store::testdb::DEFAULT_URL`); each database is `referee_load_<pid>_<n>_<nanos>`.
//! Never touches a database it did not make; never leaves one behind (dropped `WITH (FORCE)`, so
//! a bot still connected cannot keep it alive).

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where referee keeps its data during a run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Store {
    Sqlite,
    Postgres,
}

impl Store {
    /// `REFEREE_LOAD_STORE`: `sqlite` (the default) or `postgres`.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var("REFEREE_LOAD_STORE").as_deref() {
            Err(_) | Ok("" | "sqlite") => Ok(Self::Sqlite),
            Ok("postgres") => Ok(Self::Postgres),
            Ok(other) => Err(format!(
                "REFEREE_LOAD_STORE={other:?}: it is sqlite (the default) or postgres"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "SQLite",
            Self::Postgres => "PostgreSQL",
        }
    }
}

/// A rig's database.
pub enum Database {
    /// The floor bot keeps none.
    None,
    /// The file referee opens (`REFEREE_DB`), in the rig's temporary folder.
    Sqlite(PathBuf),
    Postgres(Box<PgDatabase>),
}

/// The WAL the PostgreSQL server has written so far, two ways (bytes, server-wide).
#[derive(Clone, Copy, Default)]
pub struct Wal {
    /// `pg_stat_wal.wal_bytes`: the WAL records' bytes as the backends report them (each at most
    /// once a second, and an idle one up to 10 s later; read after the bots have disconnected,
    /// their backends having then reported all).
    pub stat: u64,
    /// `pg_current_wal_insert_lsn()`: where the next record goes, up to date at once (page
    /// headers included).
    pub insert: u64,
}

impl Database {
    /// Rows in referee's roll log (0 for the floor).
    pub fn logged_rolls(&self) -> u64 {
        match self {
            Self::None => 0,
            Self::Sqlite(path) => {
                let conn = rusqlite::Connection::open_with_flags(
                    path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                )
                .expect("open the bot's database to count its rolls");
                let rows: i64 = conn
                    .query_row("SELECT count(*) FROM rolls", [], |r| r.get(0))
                    .expect("count the roll log");
                rows.unsigned_abs()
            }
            Self::Postgres(db) => db.logged_rolls(),
        }
    }

    /// The server's WAL so far (`None` but on PostgreSQL).
    pub fn wal(&self) -> Option<Wal> {
        match self {
            Self::Postgres(db) => Some(db.wal()),
            _ => None,
        }
    }
}

/// The server `REFEREE_LOAD_STORE=postgres` uses: the tests'.
fn server_url() -> String {
    std::env::var("REFEREE_TEST_DATABASE_URL")
        .unwrap_or_else(|_| referee::store::testdb::DEFAULT_URL.to_owned())
}

/// `url` naming database `name` instead of its own (a query string is kept).
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let host = base.find("://").map_or(0, |i| i + 3);
    let base = base[host..]
        .find('/')
        .map_or(base, |slash| &base[..host + slash]);
    match query {
        Some(query) => format!("{base}/{name}?{query}"),
        None => format!("{base}/{name}"),
    }
}

fn connect(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap_or_else(|e| {
        panic!(
            "REFEREE_LOAD_STORE=postgres: cannot connect to {} ({e}); start a server or set \
             REFEREE_TEST_DATABASE_URL",
            shown(url)
        )
    })
}

/// `url` with its password, if any, replaced by `***` (for messages).
fn shown(url: &str) -> String {
    let host = url.find("://").map_or(0, |i| i + 3);
    match url[host..].find('@').map(|at| host + at) {
        Some(at) => match url[host..at].find(':') {
            Some(colon) => format!("{}:***{}", &url[..host + colon], &url[at..]),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// A fresh PostgreSQL database, dropped (with any connection left to it) when this is dropped.
pub struct PgDatabase {
    /// A connection to the server's own database, kept open so that reading the WAL during a
    /// phase starts no backend (whose CPU the phase would count).
    admin: Mutex<postgres::Client>,
    name: String,
    url: String,
}

impl PgDatabase {
    pub fn create() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let server = server_url();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "referee_load_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = connect(&server);
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("cannot create the load database {name}: {e}"));
        let url = with_database(&server, &name);
        Self {
            admin: Mutex::new(admin),
            name,
            url,
        }
    }

    fn admin(&self) -> std::sync::MutexGuard<'_, postgres::Client> {
        self.admin
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The database's URL, for the bots' `REFEREE_DATABASE_URL`.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn logged_rolls(&self) -> u64 {
        let rows: i64 = connect(&self.url)
            .query_one("SELECT count(*) FROM rolls", &[])
            .and_then(|row| row.try_get(0))
            .expect("count the roll log");
        rows.unsigned_abs()
    }

    fn wal(&self) -> Wal {
        let row = self
            .admin()
            .query_one(
                "SELECT (SELECT wal_bytes FROM pg_stat_wal)::bigint, \
                 (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint",
                &[],
            )
            .expect("read pg_stat_wal and the WAL insert position");
        let read = |n: usize| row.get::<_, i64>(n).unsigned_abs();
        Wal {
            stat: read(0),
            insert: read(1),
        }
    }

    /// Waits (up to `timeout`) until no connection to the database remains, the bots having
    /// stopped: their backends then have reported their statistics (`pg_stat_wal`).
    pub fn wait_disconnected(&self, timeout: Duration) {
        let mut client = self.admin();
        let deadline = Instant::now() + timeout;
        loop {
            let left: i64 = client
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1",
                    &[&self.name],
                )
                .and_then(|row| row.try_get(0))
                .expect("count the connections to the load database");
            if left == 0 {
                // A backend leaves pg_stat_activity as it exits, about when it reports.
                std::thread::sleep(Duration::from_millis(100));
                return;
            }
            if Instant::now() > deadline {
                eprintln!(
                    "{left} connection(s) to {} still open after {timeout:?}: pg_stat_wal may \
                     miss their last second",
                    self.name
                );
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let dropped = self.admin().batch_execute(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
        if let Err(e) = dropped {
            eprintln!("could not drop the load database {}: {e}", self.name);
        }
    }
}
