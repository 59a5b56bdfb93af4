//! The database failing under load (issue 61, item 3): three `referee console` processes — each
//! its own process, as shard-range bots and `serve` workers are — log rolls and spend luck
//! while the database goes away and comes back:
//!
//! - a PostgreSQL server stopped and started again, and one that refuses new connections (its
//!   database closed to them, every session ended), on a throwaway cluster the test makes
//!   itself with `initdb` and `pg_ctl` on a port of its own;
//! - SQLite's disk full (a small tmpfs filled to the last byte) and freed.
//!
//! Every command is answered: during the outage with the fault's own message (never "busy", never
//! "something went wrong"), after it as usual, by the same processes (they reconnect by
//! themselves). Each console answers one command at a time, so what was acknowledged is known
//! exactly: every acknowledged roll is in the log once, none that was refused is, and luck is
//! spent once for each spend acknowledged. Nothing here is timed: each phase waits for the
//! answers of the one before.
//!
//! Where the tools are missing (no `initdb`, no `mount`), the test says so loudly on the
//! terminal and does not run; under `CI=true` a missing PostgreSQL cluster fails it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

use crate::console::referee;

/// Says loudly, past the test harness's capture, that a test did not run and why.
fn did_not_run(test: &str, why: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n*** {test} DID NOT RUN: {why}. ***\n"
    );
}

/// `program`, to be run as the `postgres` user when `as_postgres` (PostgreSQL's tools refuse to
/// run a cluster as root).
fn tool(as_postgres: bool, program: &Path) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Runs `program` with `args` ([`tool`]); panics with its output when it fails.
fn run_tool(as_postgres: bool, program: &Path, args: &[&str]) {
    let mut c = tool(as_postgres, program);
    let out = c
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", program.display()));
    assert!(
        out.status.success(),
        "{} {args:?} failed: {}{}",
        program.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether this process runs as root.
pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// PostgreSQL's server programs: `pg_config --bindir`, else the newest under /usr/lib/postgresql.
fn pg_bindir() -> Option<PathBuf> {
    let from_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let mut installed: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .collect();
    installed.sort();
    from_config
        .into_iter()
        .chain(installed.into_iter().rev())
        .find(|b| b.join("initdb").is_file() && b.join("pg_ctl").is_file())
}

/// A throwaway PostgreSQL cluster: its own data folder and port on 127.0.0.1, trust
/// authentication, one database `referee`; stopped and removed when dropped.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
    _root: tempfile::TempDir,
}

impl Cluster {
    /// Makes and starts one; `None` (said loudly) without PostgreSQL's programs, a failure under
    /// `CI=true`.
    fn create(test: &str) -> Option<Cluster> {
        let Some(bin) = pg_bindir() else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and no initdb/pg_ctl (pg_config --bindir, /usr/lib/postgresql/*/bin)"
            );
            did_not_run(
                test,
                "no initdb or pg_ctl was found to make a PostgreSQL cluster",
            );
            return None;
        };
        let root = tempfile::tempdir().expect("a temporary folder");
        let as_postgres = is_root();
        if as_postgres {
            // The cluster's folder is the postgres user's, as initdb requires.
            run_tool(
                false,
                Path::new("chown"),
                &["postgres", root.path().to_str().unwrap()],
            );
        }
        let data = root.path().join("data");
        run_tool(
            as_postgres,
            &bin.join("initdb"),
            &[
                "-D",
                data.to_str().unwrap(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let cluster = Cluster {
            bin,
            data,
            port,
            as_postgres,
            _root: root,
        };
        cluster.start();
        cluster.admin("CREATE DATABASE referee");
        Some(cluster)
    }

    fn pg_ctl(&self, args: &[&str]) {
        let mut all = vec!["-D", self.data.to_str().unwrap(), "-w"];
        all.extend_from_slice(args);
        run_tool(self.as_postgres, &self.bin.join("pg_ctl"), &all);
    }

    fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.data.display()
        );
        let log = self.data.join("server.log");
        self.pg_ctl(&["-o", &options, "-l", log.to_str().unwrap(), "start"]);
    }

    fn stop(&self) {
        self.pg_ctl(&["-m", "fast", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/referee", self.port)
    }

    /// Runs `sql` on the `postgres` database (not the one the consoles use).
    fn admin(&self, sql: &str) {
        let mut client = postgres::Client::connect(
            &format!(
                "host=127.0.0.1 port={} user=postgres dbname=postgres",
                self.port
            ),
            postgres::NoTls,
        )
        .expect("connect to the cluster");
        client
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// How many rolls the log of `guild` holds under each label.
    fn labels(&self, guild: u64) -> std::collections::HashMap<String, i64> {
        let mut client = postgres::Client::connect(&self.url(), postgres::NoTls).expect("connect");
        client
            .query(
                "SELECT label, COUNT(*) FROM rolls WHERE guild_id = $1 GROUP BY label",
                &[&i64::try_from(guild).unwrap()],
            )
            .expect("read the log")
            .into_iter()
            .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1)))
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = tool(self.as_postgres, &self.bin.join("pg_ctl"))
            .args(["-D", self.data.to_str().unwrap(), "-m", "immediate", "stop"])
            .output();
    }
}

/// A `referee console --json` process: one command in, one JSON reply out.
struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    out: BufReader<ChildStdout>,
}

impl Console {
    fn open(db: &str, guild: u64, who: &str) -> Console {
        let guild = guild.to_string();
        let mut args = vec!["console", "--json", "--db", db, "--guild", &guild];
        if who == "gm" {
            args.push("--gm");
        } else {
            args.extend(["--user", who]);
        }
        let mut child = referee()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the console starts");
        let stdin = child.stdin.take();
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        Console { child, stdin, out }
    }

    /// Types `line` and reads its answer.
    fn ask(&mut self, line: &str) -> Value {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{line}").expect("type");
        stdin.flush().expect("flush");
        let mut answer = String::new();
        let n = self.out.read_line(&mut answer).expect("read the answer");
        assert!(n > 0, "the console ended without answering {line}");
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{line}: {e}: {answer}"))
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// All the text of a JSON reply.
fn text(v: &Value) -> String {
    v.to_string()
}

fn is_ephemeral(v: &Value) -> bool {
    v["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

/// What one console did in a phase: the labels of the rolls acknowledged, and of those refused.
#[derive(Default)]
struct Tally {
    rolled: Vec<String>,
    refused: Vec<String>,
    spent: usize,
}

/// Each console, on a thread of its own, logs `rolls` rolls labelled `<phase><console>n<n>` and
/// spends one point of luck; `expect_fault` names the message every answer must carry during an
/// outage (`None`: every answer must be the roll or the spend).
fn phase(
    consoles: &mut [Console],
    names: &[&str],
    label: &str,
    rolls: usize,
    expect_fault: Option<&str>,
) -> Vec<Tally> {
    std::thread::scope(|s| {
        let runs: Vec<_> = consoles
            .iter_mut()
            .zip(names)
            .enumerate()
            .map(|(i, (console, name))| {
                s.spawn(move || {
                    let mut t = Tally::default();
                    for n in 0..rolls {
                        let l = format!("{label}{i}n{n}");
                        let v = console.ask(&format!("/roll expression:1d6 label:{l}"));
                        match expect_fault {
                            None => {
                                assert!(!is_ephemeral(&v), "{l}: {v}");
                                assert!(text(&v).contains(&l), "{l}: {v}");
                                t.rolled.push(l);
                            }
                            Some(fault) => {
                                assert!(is_ephemeral(&v), "{l}: {v}");
                                assert!(text(&v).contains(fault), "{l}: {v}");
                                t.refused.push(l);
                            }
                        }
                    }
                    let v =
                        console.ask(&format!("/luck spend kind:stunt points:1 character:{name}"));
                    match expect_fault {
                        None => {
                            assert!(text(&v).contains("Luck spent"), "{name}: {v}");
                            t.spent += 1;
                        }
                        Some(fault) => assert!(text(&v).contains(fault), "{name}: {v}"),
                    }
                    t
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a console"))
            .collect()
    })
}

/// The fault message's own words ([`referee::app::fault_message`]).
const UNREACHABLE: &str = "cannot reach its database server, so nothing was saved";

const PLAYERS: [(&str, &str); 3] = [("10", "Vexa"), ("11", "Bran"), ("12", "Cato")];
const LUCK: usize = 4;

/// Each player's THIZ character with `LUCK` points, in `guild` of `db`.
fn set_up(db: &str, guild: u64) {
    let mut gm = Console::open(db, guild, "gm");
    for (user, name) in PLAYERS {
        let mut player = Console::open(db, guild, user);
        let v = player.ask(&format!("/character create name:{name} system:thiz"));
        assert!(!is_ephemeral(&v), "{v}");
        let v = gm.ask(&format!("/luck set character:{name} points:{LUCK}"));
        assert!(text(&v).contains(name), "{v}");
    }
}

/// Every roll acknowledged is logged once and none refused is; each character's luck is what
/// its acknowledged spends left.
fn check(labels: &std::collections::HashMap<String, i64>, tallies: &[Tally], db: &str, guild: u64) {
    for t in tallies {
        for l in &t.rolled {
            assert_eq!(labels.get(l), Some(&1), "acknowledged roll {l}");
        }
        for l in &t.refused {
            assert_eq!(labels.get(l), None, "refused roll {l} was logged");
        }
    }
    let mut gm = Console::open(db, guild, "gm");
    let spent: usize = tallies.iter().map(|t| t.spent).sum();
    for (_, name) in PLAYERS {
        let v = gm.ask(&format!("/luck show character:{name}"));
        let left = LUCK - spent / PLAYERS.len();
        assert!(
            text(&v).contains(&format!("has {left} luck point")),
            "{name}: {v}"
        );
    }
}

#[test]
fn a_postgresql_server_stopped_or_refusing_gets_clear_answers_and_loses_nothing() {
    let Some(pg) = Cluster::create("THE POSTGRESQL OUTAGE TEST") else {
        return;
    };
    let url = pg.url();
    let guild = 61;
    set_up(&url, guild);
    let mut consoles: Vec<Console> = PLAYERS
        .iter()
        .map(|(user, _)| Console::open(&url, guild, user))
        .collect();
    let names: Vec<&str> = PLAYERS.iter().map(|(_, n)| *n).collect();
    let mut all = phase(&mut consoles, &names, "before", 20, None);

    // The server stops: every command is answered with what is wrong, nothing is written.
    pg.stop();
    all.extend(phase(
        &mut consoles,
        &names,
        "stopped",
        2,
        Some(UNREACHABLE),
    ));
    // It starts again: the same processes carry on by themselves.
    pg.start();
    all.extend(phase(&mut consoles, &names, "restarted", 20, None));

    // The database refuses new connections, then every session is ended: two calls, so the
    // refusal is committed before any session ends (a pool reconnecting at once is refused),
    // and the second waits until each session has exited, so none can still answer a command.
    pg.admin("ALTER DATABASE referee ALLOW_CONNECTIONS false");
    pg.admin(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity \
         WHERE datname = 'referee' AND pid <> pg_backend_pid()",
    );
    all.extend(phase(
        &mut consoles,
        &names,
        "refused",
        2,
        Some(UNREACHABLE),
    ));
    pg.admin("ALTER DATABASE referee ALLOW_CONNECTIONS true");
    all.extend(phase(&mut consoles, &names, "allowed", 20, None));

    drop(consoles);
    check(&pg.labels(guild), &all, &url, guild);
    // Three spends were acknowledged for each character: before, restarted, allowed.
    assert_eq!(
        all.iter().map(|t| t.spent).sum::<usize>(),
        3 * PLAYERS.len()
    );
}

/// A small tmpfs of the test's own, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts one of `size` (as `mount -o size=`) or says why it cannot.
    fn mount(size: &str) -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|e| format!("mount does not start: {e}"))?;
        if out.status.success() {
            Ok(SmallDisk { dir })
        } else {
            Err(format!(
                "mount -t tmpfs failed ({})",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Fills the disk to its last byte with one file, which is returned.
    fn fill(&self) -> PathBuf {
        let path = self.dir.path().join("filler");
        let mut f = std::fs::File::create(&path).expect("the filler");
        let block = vec![0u8; 64 * 1024];
        loop {
            match f.write(&block) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
        // The last partial block, byte by byte.
        while f.write(&[0]).is_ok_and(|n| n == 1) {}
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .output();
    }
}

/// tmpfs "full": the rolls answered while the disk is full are either logged or refused as
/// full; the three consoles each meet the full disk, and carry on once it is freed.
#[test]
fn sqlites_disk_full_under_three_consoles_is_answered_and_recovered() {
    let disk = match SmallDisk::mount("8m") {
        Ok(d) => d,
        Err(why) => {
            did_not_run(
                "THE SQLITE FULL-DISK TEST",
                &format!("{why}; it needs root and a tmpfs of its own"),
            );
            return;
        }
    };
    let db = disk.dir.path().join("referee.sqlite3");
    let db = db.to_str().unwrap().to_owned();
    let guild = 62;
    set_up(&db, guild);
    let mut consoles: Vec<Console> = PLAYERS
        .iter()
        .map(|(user, _)| Console::open(&db, guild, user))
        .collect();
    let names: Vec<&str> = PLAYERS.iter().map(|(_, n)| *n).collect();
    let mut all = phase(&mut consoles, &names, "before", 20, None);

    let filler = disk.fill();
    // A full disk may still take a roll where the log has room inside its files; each console
    // rolls until it is told the disk is full (a write needing new room always is).
    let full: Vec<Tally> = std::thread::scope(|s| {
        let runs: Vec<_> = consoles
            .iter_mut()
            .enumerate()
            .map(|(i, console)| {
                s.spawn(move || {
                    let mut t = Tally::default();
                    for n in 0..20_000 {
                        let l = format!("full{i}n{n}");
                        let v = console.ask(&format!("/roll expression:1d6 label:{l}"));
                        if is_ephemeral(&v) {
                            assert!(
                                text(&v).contains("is full, so nothing was saved"),
                                "{l}: {v}"
                            );
                            t.refused.push(l);
                            return t;
                        }
                        assert!(text(&v).contains(&l), "{l}: {v}");
                        t.rolled.push(l);
                    }
                    panic!("console {i} was never told the disk is full");
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a console"))
            .collect()
    });
    all.extend(full);
    std::fs::remove_file(filler).expect("free the disk");
    all.extend(phase(&mut consoles, &names, "freed", 20, None));
    drop(consoles);

    let store = referee::store::Store::open(std::path::Path::new(&db)).expect("open");
    let labels: std::collections::HashMap<String, i64> = store
        .read(|c| {
            referee::store::rolls::recent(c, referee::store::GuildId(guild), None, None, 100_000)
        })
        .expect("read the log")
        .into_iter()
        .fold(std::collections::HashMap::new(), |mut m, r| {
            *m.entry(r.label).or_insert(0) += 1;
            m
        });
    check(&labels, &all, &db, guild);
    assert_eq!(
        all.iter().map(|t| t.spent).sum::<usize>(),
        2 * PLAYERS.len()
    );
}
