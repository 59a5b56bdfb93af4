//! Whether the database's directory may have changed since the writer last looked: the cheap
//! half of the writer's file check (`sqlite::Sqlite::unhealthy`).
//!
//! Before each group the writer makes sure the path still names the file its connection has
//! open (a removed or replaced file must not take writes that nobody will read). That was a
//! `statx` of the path every time: a walk of every component of the path, at every group, for a
//! file that is almost never touched. At 5,000 `/roll` a second on SQLite, its share of
//! referee's CPU was 1.5–2% (`perf record`), and in-run A/B slices (`cargo bench --bench
//! bot_load`, `REFEREE_LOAD_B_ENV`, one build, the check on and skipped) put referee's median p50
//! at 270 µs with it against 250 µs without.
//!
//! On Linux a [`DirWatch`] asks the kernel (inotify) to note every name created, removed or
//! renamed in the file's directory, and the directory itself removed or moved; a read of that
//! note, non-blocking, is all a group pays while nothing happened. The kernel queues the note in
//! the same call that removes or renames a file, so a group that begins after that call
//! returns sees it and does the full check: no write goes into a removed file that a check by
//! `statx` would have refused. What no note covers (a directory further up renamed or replaced, a
//! file system mounted over the directory) is caught by a full check at least once every
//! [`FULL_CHECK_EVERY`]. Anywhere the watch cannot be had (another system, the user's limit of
//! inotify instances reached), the writer checks the path every time, as before.

use std::path::Path;
use std::time::{Duration, Instant};

/// The longest the writer goes without a full check of the path, whatever the watch says.
pub const FULL_CHECK_EVERY: Duration = Duration::from_secs(1);

/// A watch on the directory of the database file (see the module's docs).
pub struct DirWatch {
    #[cfg(target_os = "linux")]
    fd: rustix::fd::OwnedFd,
    /// When the last full check was due: a note was read, or the watch began.
    checked: Instant,
    /// [`FULL_CHECK_EVERY`], shorter in tests.
    every: Duration,
}

impl DirWatch {
    /// Watches the directory that holds `file`; `None` where it cannot (see the module's docs).
    pub fn new(file: &Path) -> Option<Self> {
        Self::with_interval(file, FULL_CHECK_EVERY)
    }

    #[cfg(target_os = "linux")]
    fn with_interval(file: &Path, every: Duration) -> Option<Self> {
        use rustix::fs::inotify::{CreateFlags, WatchFlags, add_watch, init};
        let dir = match file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let fd = init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)
            .map_err(|e| tracing::debug!("no watch on the database's directory: {e}"))
            .ok()?;
        let flags = WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::ONLYDIR;
        add_watch(&fd, dir, flags)
            .map_err(|e| tracing::debug!("no watch on {}: {e}", dir.display()))
            .ok()?;
        Some(Self {
            fd,
            checked: Instant::now(),
            every,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn with_interval(_file: &Path, _every: Duration) -> Option<Self> {
        None
    }

    /// Whether the path needs no full check now: nothing was created, removed or renamed in
    /// the directory since the last call, and the last full check is less than
    /// [`FULL_CHECK_EVERY`] old. Reads (and so forgets) every note; when it returns `false`
    /// the caller checks the path.
    pub fn quiet(&mut self) -> bool {
        if self.noted() || self.checked.elapsed() >= self.every {
            self.checked = Instant::now();
            return false;
        }
        true
    }

    /// Whether the kernel noted anything since the last read: reads every note queued. An
    /// error other than "nothing to read" counts as a note (the caller then checks).
    #[cfg(target_os = "linux")]
    fn noted(&self) -> bool {
        // Room for several notes; one is 16 bytes and the name, at most 256.
        let mut buf = [0u8; 4096];
        let mut noted = false;
        loop {
            match rustix::io::read(&self.fd, &mut buf) {
                Ok(0) => return true,
                Ok(_) => noted = true,
                Err(rustix::io::Errno::AGAIN) => return noted,
                Err(rustix::io::Errno::INTR) => {}
                Err(_) => return true,
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn noted(&self) -> bool {
        true
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A watch on a fresh directory holding `db`, with a full check due every `every`.
    fn watch(every: Duration) -> (tempfile::TempDir, std::path::PathBuf, DirWatch) {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("db.sqlite3");
        std::fs::write(&db, b"x").expect("file");
        let watch = DirWatch::with_interval(&db, every).expect("inotify on Linux");
        (dir, db, watch)
    }

    const LONG: Duration = Duration::from_hours(1);

    #[test]
    fn nothing_done_in_the_directory_is_quiet() {
        let (_dir, db, mut watch) = watch(LONG);
        assert!(watch.quiet());
        // Writing to a file, or reading it, is not a change of names.
        std::fs::write(&db, b"more").expect("write");
        std::fs::read(&db).expect("read");
        assert!(watch.quiet());
    }

    #[test]
    fn each_change_of_names_is_seen_once_by_the_next_call() {
        type Change = fn(&Path, &Path);
        let changes: [(&str, Change); 5] = [
            ("removed", |db, _| std::fs::remove_file(db).expect("remove")),
            ("renamed away", |db, other| {
                std::fs::rename(db, other).expect("rename");
            }),
            ("replaced by a rename", |db, other| {
                std::fs::write(other, b"y").expect("other");
                std::fs::rename(other, db).expect("rename over");
            }),
            ("another file created", |_, other| {
                std::fs::write(other, b"y").expect("create");
            }),
            ("a directory made beside it", |_, other| {
                std::fs::create_dir(other).expect("mkdir");
            }),
        ];
        for (what, change) in changes {
            let (dir, db, mut watch) = watch(LONG);
            assert!(watch.quiet(), "{what}: quiet before");
            change(&db, &dir.path().join("other"));
            assert!(!watch.quiet(), "{what}: seen by the next call");
            assert!(watch.quiet(), "{what}: seen once");
        }
    }

    #[test]
    fn the_directory_itself_moved_or_removed_is_seen() {
        let parent = tempfile::tempdir().expect("parent");
        let inner = parent.path().join("data");
        std::fs::create_dir(&inner).expect("inner");
        let db = inner.join("db.sqlite3");
        std::fs::write(&db, b"x").expect("file");
        let mut watch = DirWatch::with_interval(&db, LONG).expect("watch");
        assert!(watch.quiet());
        std::fs::rename(&inner, parent.path().join("moved")).expect("move the directory");
        assert!(!watch.quiet(), "the directory moved");
        std::fs::remove_dir_all(parent.path().join("moved")).expect("remove it");
        assert!(!watch.quiet(), "the directory removed");
    }

    /// The interval's passing is set rather than slept, so a busy machine cannot make the
    /// first call late.
    #[test]
    fn a_full_check_falls_due_after_the_interval_with_no_change() {
        let every = Duration::from_secs(10);
        let (_dir, _db, mut watch) = watch(every);
        assert!(watch.quiet(), "just made");
        watch.checked = Instant::now()
            .checked_sub(every)
            .expect("the clock has run longer than the interval");
        assert!(!watch.quiet(), "due after the interval");
        assert!(watch.quiet(), "and not again at once");
    }

    #[test]
    fn a_file_with_no_directory_part_watches_the_current_one() {
        // Relative paths name a file in the current directory; watching it must work.
        assert!(DirWatch::with_interval(Path::new("db.sqlite3"), LONG).is_some());
    }
}
