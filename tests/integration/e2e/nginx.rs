//! `referee serve` behind a real nginx (issue 61, item 4): three workers over one fresh
//! PostgreSQL database, nginx in front with the configuration `docs/http-interactions.md`
//! documents (its upstream's addresses set to the workers' ports, and plain HTTP on a loopback
//! port in place of TLS), one worker killed with SIGKILL mid-load. Every interaction sent through
//! nginx is answered, exactly once, and run once (the roll log); nginx passes the dead worker
//! over by itself; a bad signature still gets 401 through it and runs nothing.
//!
//! nginx is Debian's package, which `.ci/run` installs when it is missing. Without it the test
//! says so loudly on the terminal and does not run; under `CI=true` it fails.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::serve::{
    Client, exactly_once, listening, registration, roll, rolls, spawn_worker, wait_rest,
};
use crate::fake::endpoint::{Signer, request};
use crate::fake::payload::{self, Caller};
use crate::fake::{FakeDiscord, TIMEOUT};

/// nginx's program: on the PATH, or where Debian puts it.
fn nginx_binary() -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/sbin")])
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
}

/// The nginx configuration `docs/http-interactions.md` documents (its fenced `nginx` block).
fn documented() -> String {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/http-interactions.md"),
    )
    .expect("docs/http-interactions.md");
    let start = doc.find("```nginx\n").expect("an nginx block in the doc") + "```nginx\n".len();
    let end = start + doc[start..].find("```").expect("the block's end");
    doc[start..end].to_owned()
}

/// The documented configuration made runnable here: the upstream's three addresses become the
/// workers' ports, `listen 443 ssl` a loopback port of plain HTTP (the certificates go), and the
/// lines around it put its files in `dir`, log each request's upstream, and run it as root when
/// the test is root (nginx's workers would otherwise be `nobody`, kept out of `dir`).
fn runnable(doc: &str, workers: &[u16], port: u16, dir: &Path) -> String {
    let mut upstreams = 0;
    let mut body = String::new();
    for line in doc.lines() {
        let mut line = line.to_owned();
        if line.trim_start().starts_with("ssl_certificate") {
            continue;
        }
        if line.trim() == "listen 443 ssl;" {
            line = format!("    listen 127.0.0.1:{port};");
        }
        for (i, worker) in workers.iter().enumerate() {
            let documented = format!("server 127.0.0.1:{}", 8081 + i);
            if line.contains(&documented) {
                line = line.replace(&documented, &format!("server 127.0.0.1:{worker}"));
                upstreams += 1;
            }
        }
        body.push_str(&line);
        body.push('\n');
    }
    assert_eq!(
        upstreams,
        workers.len(),
        "the documented upstream names {} workers:\n{doc}",
        workers.len()
    );
    let d = dir.display();
    let root = crate::db_outage::is_root();
    format!(
        "{user}worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n\
         log_format upstreams '$request_uri $status $upstream_addr';\n\
         access_log {d}/access.log upstreams;\n\
         client_body_temp_path {d}/body;\nproxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\nuwsgi_temp_path {d}/uwsgi;\nscgi_temp_path {d}/scgi;\n\
         {body}}}\n",
        user = if root { "user root;\n" } else { "" },
    )
}

/// A running nginx, stopped when dropped.
struct Nginx {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Nginx {
    fn start(binary: &Path, dir: &Path, workers: &[u16]) -> Nginx {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, runnable(&documented(), workers, port, dir)).expect("nginx.conf");
        let child = Command::new(binary)
            .arg("-p")
            .arg(dir)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-c")
            .arg(&conf)
            .args(["-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let nginx = Nginx {
            child,
            port,
            dir: dir.to_owned(),
        };
        // Up once it answers the health check through to a worker.
        let deadline = Instant::now() + TIMEOUT;
        while !request(port, "GET", "/healthz", &[], b"").is_ok_and(|r| r.status == 200) {
            assert!(
                Instant::now() < deadline,
                "nginx never answered: {}",
                std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        nginx
    }

    /// The access log: (request path, status, upstream addresses tried in order).
    fn log(&self) -> Vec<(String, u16, Vec<String>)> {
        std::fs::read_to_string(self.dir.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let mut parts = l.splitn(3, ' ');
                let path = parts.next()?.to_owned();
                let status = parts.next()?.parse().ok()?;
                let tried = parts
                    .next()?
                    .split([',', ':', ' '])
                    .filter(|p| !p.is_empty() && *p != "127.0.0.1")
                    .map(str::to_owned)
                    .collect();
                Some((path, status, tried))
            })
            .collect()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A line of nginx configuration without its comment and indentation.
fn bare(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// The README's shorter nginx example says nothing the tested configuration does not: each of
/// its lines is one of `docs/http-interactions.md`'s.
#[test]
fn the_readmes_nginx_example_is_the_tested_configuration() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let start = readme
        .find("    upstream referee {")
        .expect("the README's nginx example");
    let example: Vec<&str> = readme[start..]
        .lines()
        .take_while(|l| l.starts_with("    ") || l.is_empty())
        .map(bare)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(example.len() > 10, "{example:?}");
    let doc = documented();
    let tested: Vec<&str> = doc.lines().map(bare).collect();
    for line in example {
        assert!(
            tested.contains(&line),
            "README line {line:?} is not in the tested configuration"
        );
    }
}

/// The rolls sent through nginx.
const ROLLS: usize = 30;
/// The roll before which a worker dies.
const KILL_AT: usize = 12;

/// PING through the proxy gets PONG; a tampered body's signature is refused through it too,
/// and runs nothing.
fn through_the_proxy(port: u16, url: &str, alice: &Caller) {
    let keys = Signer::test();
    let hello = serde_json::to_vec(&json!({
        "id": payload::next_id().to_string(),
        "application_id": payload::APPLICATION_ID.to_string(),
        "type": 1,
        "token": "ping-token",
        "version": 1,
    }))
    .expect("JSON");
    let answer =
        request(port, "POST", "/interactions", &keys.headers(&hello), &hello).expect("PONG");
    assert_eq!((answer.status, answer.json()), (200, json!({"type": 1})));
    let before = rolls(url);
    let body = serde_json::to_vec(&roll(alice, "1d6", None, None).json).expect("JSON");
    let mut tampered = body.clone();
    tampered.extend_from_slice(b" ");
    let refused = request(
        port,
        "POST",
        "/interactions",
        &keys.headers(&body),
        &tampered,
    )
    .expect("an answer");
    assert_eq!(refused.status, 401, "{}", refused.text());
    assert_eq!(rolls(url), before, "a bad signature ran nothing");
}

/// Which worker answered each roll, from nginx's own log (the last address it tried): each took
/// a share before the kill, the dead one none after it.
fn shares(nginx: &Nginx, ports: &[u16], dead: u16) {
    let served: Vec<String> = nginx
        .log()
        .into_iter()
        .filter(|(path, status, _)| path == "/interactions" && *status == 200)
        .filter_map(|(_, _, tried)| tried.last().cloned())
        .collect();
    assert_eq!(
        served.len(),
        ROLLS + 1,
        "the PING and the rolls: {served:?}"
    );
    let rolls_served = &served[1..];
    for port in ports {
        assert!(
            rolls_served[..KILL_AT].contains(&port.to_string()),
            "worker {port} took a share before the kill: {rolls_served:?}"
        );
    }
    assert!(
        !rolls_served[KILL_AT..].contains(&dead.to_string()),
        "the dead worker answered: {rolls_served:?}"
    );
}

#[test]
fn three_workers_behind_nginx_answer_every_interaction_once_past_a_kill() {
    let Some(binary) = nginx_binary() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and no nginx: .ci/run installs Debian's nginx-light when it is missing"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "\n*** THE NGINX PROXY TEST DID NOT RUN: no nginx on this machine (apt-get install \
             nginx-light, or run .ci/run, which installs it). ***\n"
        );
        return;
    };
    let Some(db) = referee::store::testdb::PgTestDb::create() else {
        return; // said loudly by `create`; a failure under CI=true
    };
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (d, url) = (dir.path(), db.url());
    let processes = vec![
        spawn_worker(&fake, d, "w0", url, &["--register"], &[]),
        spawn_worker(&fake, d, "w1", url, &[], &[]),
        spawn_worker(&fake, d, "w2", url, &[], &[]),
    ];
    let mut workers: Vec<_> = processes.into_iter().map(listening).collect();
    let _ = registration(&fake);
    let ports: Vec<u16> = workers.iter().map(|w| w.port).collect();
    let proxy_dir = d.join("nginx");
    std::fs::create_dir(&proxy_dir).expect("nginx's folder");
    let nginx = Nginx::start(&binary, &proxy_dir, &ports);

    let alice = Caller::player(10);
    through_the_proxy(nginx.port, url, &alice);
    let before = rolls(url);
    let mut client = Client::new(&fake, vec![nginx.port]);
    client.path = "/interactions";
    for i in 0..ROLLS {
        if i == KILL_AT {
            assert!(!workers[1].process.kill(TIMEOUT).success(), "kill -9");
        }
        let answered = client.send(roll(&alice, &format!("{}d6", i % 4 + 1), None, None));
        assert!(matches!(answered.kind(), 4 | 5), "{}", answered.response);
    }
    for a in client.answered.iter().filter(|a| a.kind() == 5) {
        wait_rest(&fake, &a.built.token, 1);
    }
    assert_eq!(
        rolls(url) - before,
        ROLLS as i64,
        "each roll run exactly once"
    );
    exactly_once(&fake, &client.answered);

    shares(&nginx, &ports, ports[1]);
    for worker in [0, 2] {
        let status = workers[worker].process.terminate(TIMEOUT);
        assert!(
            status.success(),
            "worker {worker} exits 0 on SIGTERM: {status}"
        );
    }
}
