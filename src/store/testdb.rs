//! Databases for tests: a fresh SQLite file and, when a PostgreSQL server answers, a fresh
//! PostgreSQL database, so one test runs against both backends ([`backends`]).
//!
//! The PostgreSQL database is `referee_test_<pid>_<n>_<time>` on the server named by
//! `REFEREE_TEST_DATABASE_URL` (default [`DEFAULT_URL`]), created for the test and dropped after
//! it. When no server answers, the PostgreSQL run is skipped with a loud message on the
//! terminal (written past the test harness's capture, with how many were skipped so far), except
//! under `CI=true`, where a missing server fails the test.

// Test helpers: a failure to set up a test's database panics, as a test's setup does.
#![allow(clippy::missing_panics_doc)]

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::Store;

/// The server the PostgreSQL tests use when `REFEREE_TEST_DATABASE_URL` is unset.
pub const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

static NEXT: AtomicU64 = AtomicU64::new(0);

/// How many tests of this process found no PostgreSQL server and ran on SQLite alone.
static SKIPPED: AtomicU64 = AtomicU64::new(0);

/// How many tests of this process skipped PostgreSQL so far (see [`PgTestDb::create`]).
pub fn skipped() -> u64 {
    SKIPPED.load(Ordering::Relaxed)
}

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A fresh PostgreSQL database, dropped when this is dropped.
pub struct PgTestDb {
    admin: postgres::Config,
    name: String,
    config: postgres::Config,
    url: String,
}

impl PgTestDb {
    /// Creates a fresh database, or `None` (said loudly) when no server answers. Under
    /// `CI=true` a missing server panics instead.
    pub fn create() -> Option<Self> {
        let url =
            std::env::var("REFEREE_TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned());
        let mut admin: postgres::Config = match url.parse() {
            Ok(c) => c,
            Err(e) => panic!("REFEREE_TEST_DATABASE_URL {url:?} is not a PostgreSQL URL: {e}"),
        };
        admin.connect_timeout(Duration::from_secs(3));
        let mut client = match admin.connect(postgres::NoTls) {
            Ok(c) => c,
            Err(e) => {
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "CI=true and no PostgreSQL server answers at {url}: {e}"
                );
                let skipped = SKIPPED.fetch_add(1, Ordering::Relaxed) + 1;
                // Written to the process's standard error itself, past the test harness's
                // capture (which `eprintln!` goes to, shown only for a failing test): a skipped
                // run is seen where `cargo test` is read, never taken for a passing one.
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "\n*** POSTGRESQL TESTS DID NOT RUN: {skipped} so far in this test binary; no \
                     server answers at {} ({e}). Set REFEREE_TEST_DATABASE_URL or start one; only \
                     SQLite was tested. ***\n",
                    super::pg::redact(&url)
                );
                return None;
            }
        };
        let name = unique("referee_test");
        if let Err(e) = client.batch_execute(&format!("CREATE DATABASE {name}")) {
            panic!("cannot create the test database {name}: {e}");
        }
        let mut config = admin.clone();
        config.dbname(&name);
        let url = match url.rfind('/') {
            Some(slash) if slash > "postgres://".len() => format!("{}/{name}", &url[..slash]),
            _ => format!("{url}/{name}"),
        };
        Some(Self {
            admin,
            name,
            config,
            url,
        })
    }

    /// The database's URL (with the server's credentials, for a child process).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Opens the store on it (applying the migrations).
    pub fn open(&self) -> Store {
        Store::open_postgres(self.config.clone(), &self.name).expect("open the test database")
    }
}

impl Drop for PgTestDb {
    fn drop(&mut self) {
        if let Ok(mut c) = self.admin.connect(postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// A fresh folder under the system's temporary folder, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new() -> Self {
        let dir = std::env::temp_dir().join(unique("referee-test"));
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        Self(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Default for TempDir {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A store for a test, with what keeps its database alive. Dropped in field order: the store
/// closes before its database goes.
pub struct TestStore {
    /// "sqlite" or "postgres", for assertion messages.
    pub name: &'static str,
    pub store: Store,
    _dir: Option<TempDir>,
    _pg: Option<PgTestDb>,
}

/// A fresh SQLite store.
pub fn sqlite() -> TestStore {
    let dir = TempDir::new();
    let store = Store::open(&dir.path().join("t.sqlite3")).expect("open a SQLite store");
    TestStore {
        name: "sqlite",
        store,
        _dir: Some(dir),
        _pg: None,
    }
}

/// A fresh PostgreSQL store, or `None` (said loudly) when no server answers.
pub fn postgres() -> Option<TestStore> {
    let db = PgTestDb::create()?;
    let store = db.open();
    Some(TestStore {
        name: "postgres",
        store,
        _dir: None,
        _pg: Some(db),
    })
}

/// A fresh store on each backend there is: SQLite always, PostgreSQL when a server answers.
pub fn backends() -> Vec<TestStore> {
    let mut all = vec![sqlite()];
    all.extend(postgres());
    all
}
