//! The real `referee run` (or `referee serve`) process, pointed at a fake Discord.
//!
//! Owns spawning the binary with a clean environment (no proxies, a temp database, a test
//! configuration), capturing its standard error for failure messages, SIGTERM, and killing it on
//! drop. Never leaves a process behind and never waits without a timeout.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How the bot is started.
#[derive(Debug, Clone)]
pub struct BotOptions {
    /// `DISCORD_API_BASE`.
    pub api_base: String,
    /// `DISCORD_TOKEN`.
    pub token: String,
    /// Holds `db.sqlite3` and `config.toml`.
    pub dir: PathBuf,
    /// `discord.dev_guild_id` in the configuration file (commands registered in that guild).
    pub dev_guild_id: Option<u64>,
    /// `RUST_LOG` for the bot (the load benchmark turns debug logging off).
    pub log: String,
    /// More lines for the `[discord]` table (e.g. `shards = { total = 3, first = 0, last = 0 }`).
    pub discord_extra: String,
    /// The configuration file's name in `dir`, so processes sharing a database can differ.
    pub config_name: String,
    /// More environment variables for the bot (`REFEREE_APP_THREADS`, `RUST_BACKTRACE`…).
    pub env: Vec<(String, String)>,
    /// More TOML appended to the configuration file (a `[delivery]` section, say).
    pub config_extra: String,
    /// The mode and its arguments after `--config …` (`run`; `serve --listen …`).
    pub mode: Vec<String>,
}

impl BotOptions {
    /// Options for the bot against `fake`, with its database and configuration in `dir`.
    pub fn new(fake: &super::FakeDiscord, dir: &Path) -> Self {
        Self {
            api_base: fake.base().to_owned(),
            token: fake.token().to_owned(),
            dir: dir.to_owned(),
            dev_guild_id: None,
            log: "referee=debug,warn".to_owned(),
            discord_extra: String::new(),
            config_name: "config.toml".to_owned(),
            env: Vec::new(),
            config_extra: String::new(),
            mode: vec!["run".to_owned()],
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.join("db.sqlite3")
    }

    pub fn config(&self) -> PathBuf {
        self.dir.join(&self.config_name)
    }
}

/// Standard error so far, and whether the stream has ended.
#[derive(Default)]
struct Captured {
    text: String,
    closed: bool,
}

/// A running `referee run`. Killed (and reaped) on drop.
pub struct BotProcess {
    child: Child,
    stderr: Arc<(Mutex<Captured>, Condvar)>,
    status: Option<ExitStatus>,
}

impl BotProcess {
    /// Spawns `referee --config <dir>/config.toml run`. The configuration file is always written
    /// (empty unless `dev_guild_id` is set), so no developer's `config.toml` leaks in.
    pub fn spawn(options: &BotOptions) -> Self {
        Self::spawn_binary(options, std::path::Path::new(env!("CARGO_BIN_EXE_referee")))
    }

    /// [`BotProcess::spawn`] with another build of `referee` (the load benchmark compares two).
    pub fn spawn_binary(options: &BotOptions, binary: &std::path::Path) -> Self {
        Self::spawn_binary_command(options, Command::new(binary))
    }

    /// [`BotProcess::spawn_binary`] with the program already in `command`: `referee`, or a tool
    /// that runs it (the load benchmark's `REFEREE_LOAD_WRAP`).
    pub fn spawn_binary_command(options: &BotOptions, mut command: Command) -> Self {
        let mut config = options
            .dev_guild_id
            .map(|guild| format!("dev_guild_id = {guild}\n"))
            .unwrap_or_default();
        config.push_str(&options.discord_extra);
        if !config.is_empty() {
            config.insert_str(0, "[discord]\n");
        }
        config.push_str(&options.config_extra);
        std::fs::write(options.config(), config).expect("write the test config.toml");
        command
            .arg("--config")
            .arg(options.config())
            .args(&options.mode);
        Self::spawn_command(command, options)
    }

    /// Spawns `command` (another bot: the benchmark's bare floor bot) with the same environment
    /// as [`BotProcess::spawn`] gives `referee run`: the fake's token and base URL, the database
    /// path, `RUST_LOG`, the extra variables, no proxies, standard error captured.
    pub fn spawn_command(mut command: Command, options: &BotOptions) -> Self {
        command
            .env("DISCORD_TOKEN", &options.token)
            .env("DISCORD_API_BASE", &options.api_base)
            .env("REFEREE_DB", options.db())
            .env("RUST_LOG", &options.log)
            .envs(options.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // reqwest honours proxies; a proxy would take the bot's requests away from the fake.
        for var in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"] {
            command.env_remove(var).env_remove(var.to_lowercase());
        }
        let mut child = command.spawn().expect("spawn the bot");
        let stderr = Arc::new((Mutex::new(Captured::default()), Condvar::new()));
        let mut pipe = child.stderr.take().expect("piped stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                let n = pipe.read(&mut buf).unwrap_or(0);
                let (lock, cv) = &*sink;
                let mut c = lock
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if n == 0 {
                    c.closed = true;
                    cv.notify_all();
                    return;
                }
                c.text.push_str(&String::from_utf8_lossy(&buf[..n]));
                cv.notify_all();
            }
        });
        Self {
            child,
            stderr,
            status: None,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything the bot has written to standard error so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .text
            .clone()
    }

    /// Waits until standard error contains `needle`; panics with what it holds on timeout.
    pub fn wait_stderr(&self, needle: &str, timeout: Duration) -> String {
        let (lock, cv) = &*self.stderr;
        let deadline = Instant::now() + timeout;
        let mut c = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if c.text.contains(needle) {
                return c.text.clone();
            }
            let now = Instant::now();
            assert!(
                now < deadline && !c.closed,
                "the bot's stderr never said {needle:?}; it said:\n{}",
                c.text
            );
            c = cv
                .wait_timeout(c, deadline - now)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(&mut self, timeout: Duration) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM {} failed", self.pid());
        self.wait_exit(timeout)
    }

    /// SIGKILL (`kill -9`: no shutdown, no drain) and waits for the exit status.
    pub fn kill(&mut self, timeout: Duration) -> ExitStatus {
        let _ = self.child.kill();
        self.wait_exit(timeout)
    }

    /// Waits for the process to exit on its own; panics (with its stderr) on timeout.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(status) = self.status {
            return status;
        }
        // The stderr pipe closes when the process ends: wait on that event, then reap.
        assert!(
            self.wait_stderr_closed(timeout),
            "the bot did not exit within {timeout:?}; stderr:\n{}",
            self.stderr()
        );
        let status = self.child.wait().expect("reap the bot");
        self.status = Some(status);
        status
    }

    /// Waits until the stderr pipe is closed; false on timeout.
    fn wait_stderr_closed(&self, timeout: Duration) -> bool {
        let (lock, cv) = &*self.stderr;
        let deadline = Instant::now() + timeout;
        let mut c = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while !c.closed {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            c = cv
                .wait_timeout(c, deadline - now)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        true
    }

    /// Has the process exited (without waiting)?
    pub fn exited(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if std::thread::panicking() {
            eprintln!(
                "---- referee stderr (pid {}) ----\n{}\n---- end of referee stderr ----",
                self.child.id(),
                self.stderr()
            );
        }
    }
}
