//! `referee serve` end to end: three real workers over one fresh PostgreSQL database behind a
//! round-robin client that signs every interaction as Discord does (`crate::fake::endpoint`);
//! the fake Discord takes their REST calls (deferred answers, follow-ups, GM channel copies).
//!
//! One worker registers the commands; one answers everything late (`REFEREE_DEFER_AFTER_MS=0`),
//! so its answers take the deferred path: the response says "thinking…" and the answer follows
//! over REST. Checked: PING gets PONG; a missing, bad, tampered or stale signature gets 401 and
//! runs nothing (the roll log is unchanged); commands, autocomplete and button presses are each
//! answered exactly once, in the response or over REST, never both; every response body fits
//! Discord's OpenAPI schema of the callback route (checked as the fake takes it); the GM copy of
//! a private roll is posted once; after one worker is killed with SIGKILL the client passes it
//! over (connection refused, as a load balancer does) and the others answer everything; the
//! survivors exit 0 on SIGTERM. A second test races luck spends through three workers at once,
//! on two guilds, through the workers' batches.

use std::time::Duration;

use serde_json::{Value, json};

use super::{GM_CHANNEL_ID, message_text};
use crate::fake::endpoint::{HttpReply, Signer, exchange, head, now, request};
use crate::fake::payload::{self, Built, Caller, option, string, subcommand};
use crate::fake::process::{BotOptions, BotProcess};
use crate::fake::{FakeDiscord, Request, TIMEOUT};

/// How long a worker may take to start (its migrations on a fresh database included).
const START: Duration = Duration::from_mins(1);

/// One `referee serve` process and its port.
pub(super) struct Worker {
    pub(super) process: BotProcess,
    pub(super) port: u16,
}

/// Starts `referee serve` on a free port over the database `url`, with `args` after the mode
/// and `env` set.
pub(super) fn spawn_worker(
    fake: &FakeDiscord,
    dir: &std::path::Path,
    name: &str,
    url: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> BotProcess {
    let mut options = BotOptions::new(fake, dir);
    options.config_name = format!("{name}.toml");
    options.mode = ["serve", "--listen", "127.0.0.1:0"]
        .iter()
        .chain(args)
        .map(|s| (*s).to_owned())
        .collect();
    options.log = "referee=info,warn".into();
    options.env.extend(
        [
            ("REFEREE_DATABASE_URL", url),
            ("DISCORD_PUBLIC_KEY", &Signer::test().public_key_hex()),
        ]
        .iter()
        .chain(env)
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    BotProcess::spawn(&options)
}

/// Waits for the worker's "listening" line and reads its port.
pub(super) fn listening(process: BotProcess) -> Worker {
    let log = process.wait_stderr("serve: listening for interactions", START);
    let port = log
        .lines()
        .find(|l| l.contains("serve: listening for interactions"))
        .and_then(|l| l.split("addr=127.0.0.1:").nth(1))
        .and_then(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|p| p.parse().ok())
        })
        .unwrap_or_else(|| panic!("no port in the worker's log:\n{log}"));
    Worker { process, port }
}

/// One interaction and the response that answered it.
pub(super) struct Answered {
    pub(super) built: Built,
    pub(super) worker: usize,
    pub(super) response: Value,
}

impl Answered {
    pub(super) fn kind(&self) -> u64 {
        self.response["type"].as_u64().unwrap_or(0)
    }

    fn text(&self) -> String {
        message_text(&self.response["data"])
    }
}

/// The load balancer: each interaction to the next worker in turn, passing over a worker that
/// refuses the connection.
pub(super) struct Client<'f> {
    fake: &'f FakeDiscord,
    ports: Vec<u16>,
    next: usize,
    signer: Signer,
    pub(super) answered: Vec<Answered>,
    /// The path interactions are posted to (a worker takes any; a proxy routes one).
    pub(super) path: &'static str,
}

impl<'f> Client<'f> {
    pub(super) fn new(fake: &'f FakeDiscord, ports: Vec<u16>) -> Self {
        Self {
            fake,
            ports,
            next: 0,
            signer: Signer::test(),
            answered: Vec::new(),
            path: "/",
        }
    }

    /// Sends `built` to the next live worker; returns its index and response.
    pub(super) fn send(&mut self, built: Built) -> &Answered {
        let mut built = built;
        for _ in 0..self.ports.len() {
            let worker = self.next;
            self.next = (self.next + 1) % self.ports.len();
            match self.try_send(worker, built) {
                Ok(i) => return &self.answered[i],
                Err(refused) => built = refused,
            }
        }
        panic!("no worker took interaction {}", built.id);
    }

    /// Sends `built` to `worker`, which must take it.
    fn send_to(&mut self, worker: usize, built: Built) -> &Answered {
        match self.try_send(worker, built) {
            Ok(i) => &self.answered[i],
            Err(refused) => panic!("worker {worker} refused interaction {}", refused.id),
        }
    }

    /// `built` back when the worker refuses the connection.
    fn try_send(&mut self, worker: usize, built: Built) -> Result<usize, Built> {
        self.fake.expect_http(&built.token);
        let body = serde_json::to_vec(&built.json).expect("JSON");
        let headers = self.signer.headers(&body);
        let reply = match request(self.ports[worker], "POST", self.path, &headers, &body) {
            Ok(reply) => reply,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => return Err(built),
            Err(e) => panic!("worker {worker} failed interaction {}: {e}", built.id),
        };
        assert_eq!(reply.status, 200, "worker {worker}: {}", reply.text());
        let response = reply.json();
        self.fake.take_response(&built.json, &response);
        self.answered.push(Answered {
            built,
            worker,
            response,
        });
        Ok(self.answered.len() - 1)
    }
}

/// The index of `choice` among the choices of `/command … option` as registered.
pub(super) fn choice(commands: &[Value], path: &[&str], option: &str, choice: &str) -> i64 {
    let mut node = commands
        .iter()
        .find(|c| c["name"] == path[0])
        .unwrap_or_else(|| panic!("no /{}", path[0]));
    for sub in &path[1..] {
        node = node["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == *sub))
            .unwrap_or_else(|| panic!("no {sub}"));
    }
    let choices = node["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .and_then(|o| o["choices"].as_array())
        .unwrap_or_else(|| panic!("no menu {option}"));
    choices
        .iter()
        .find(|c| c["name"] == choice)
        .and_then(|c| c["value"].as_i64())
        .unwrap_or_else(|| panic!("no choice {choice} in {choices:?}"))
}

pub(super) fn roll(
    caller: &Caller,
    expression: &str,
    mode: Option<i64>,
    label: Option<&str>,
) -> Built {
    let mut options = vec![string("expression", expression)];
    if let Some(mode) = mode {
        options.push(payload::integer("mode", mode));
    }
    if let Some(label) = label {
        options.push(string("label", label));
    }
    payload::command(caller, "roll", options, Value::Null)
}

/// Rows in the roll log.
pub(super) fn rolls(url: &str) -> i64 {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    client
        .query_one("SELECT count(*) FROM rolls", &[])
        .expect("count the rolls")
        .get(0)
}

/// Successful REST answers to the interaction `token`: (edits of `@original`, follow-ups).
fn rest_answers(fake: &FakeDiscord, token: &str) -> (usize, usize) {
    let ok = |r: &Request| r.status == 200;
    let edits = fake.count_requests(0, |r| {
        ok(r) && r.method == "PATCH" && r.route().ends_with(&format!("/{token}/messages/@original"))
    });
    let followups = fake.count_requests(0, |r| ok(r) && r.is_followup_of(token));
    (edits, followups)
}

/// Waits until the interaction `token` has had `n` successful REST answers.
pub(super) fn wait_rest(fake: &FakeDiscord, token: &str, n: usize) {
    let what = format!("{n} REST answer(s) to {token}");
    fake.wait_for_n(n, &what, TIMEOUT, |r| {
        r.status == 200
            && (r.is_followup_of(token)
                || (r.method == "PATCH"
                    && r.route().ends_with(&format!("/{token}/messages/@original"))))
    });
}

#[test]
fn three_workers_answer_every_signed_interaction_once_and_survive_a_kill() {
    let Some(db) = referee::store::testdb::PgTestDb::create() else {
        return; // said loudly by `create`; a failure under CI=true
    };
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (d, url) = (dir.path(), db.url());
    // Started together: they share the migration of the fresh database. w0 registers the
    // commands; w2 answers everything late, so its answers take the deferred path.
    let processes = vec![
        spawn_worker(&fake, d, "w0", url, &["--register"], &[]),
        spawn_worker(&fake, d, "w1", url, &[], &[]),
        spawn_worker(&fake, d, "w2", url, &[], &[("REFEREE_DEFER_AFTER_MS", "0")]),
    ];
    let mut workers: Vec<Worker> = processes.into_iter().map(listening).collect();
    let registration = registration(&fake);
    let mut client = Client::new(&fake, workers.iter().map(|w| w.port).collect());

    http_rules(&workers);
    let gm = Caller::gm(1);
    let alice = Caller::player(10);
    let setup = client.send_to(0, gm_setup(&gm));
    assert_eq!(setup.kind(), 4, "{}", setup.response);
    let public = client.send_to(1, roll(&alice, "2d6", None, None));
    assert_eq!(public.kind(), 4, "{}", public.response);
    assert!(public.text().contains("Roll #"), "{}", public.text());
    bad_signatures_run_nothing(&fake, &workers, db.url(), &alice);

    let private = choice(&registration, &["roll"], "mode", "private");
    let hidden = client.send_to(2, roll(&alice, "1d20", Some(private), Some("hushed")));
    assert_eq!(
        hidden.kind(),
        5,
        "the late worker defers: {}",
        hidden.response
    );
    assert_eq!(
        hidden.response["data"]["flags"], 64,
        "ephemeral: its visibility is unknown yet"
    );
    let token = hidden.built.token.clone();
    wait_rest(&fake, &token, 1);
    let edited = fake.original(&token).expect("the answer edited in");
    assert!(message_text(&edited).contains("Roll #"), "{edited}");
    // The GM's copy, posted once by the worker that ran the roll.
    fake.wait_channel(GM_CHANNEL_ID, "the private roll's GM copy", TIMEOUT, |m| {
        m.iter().any(|m| message_text(m).contains("hushed"))
    });

    characters_and_buttons(&mut client, &registration, &alice);
    odds_chart_is_edited_in(&mut client, &alice);
    assert_eq!(
        fake.count_requests(0, is_registration),
        1,
        "only the worker told to registers"
    );

    let before = rolls(db.url());
    load_past_a_kill(&mut client, &mut workers[1], &registration, &alice);
    stale_and_unreadable(&mut client, &alice);
    an_encounter_crosses_workers(&mut client, &registration, &gm, &alice);

    // Every deferred answer arrives (a deferred roll is logged before its answer is sent);
    // then the survivors stop, and nothing more can come.
    for a in client.answered.iter().filter(|a| matches!(a.kind(), 5 | 6)) {
        wait_rest(&fake, &a.built.token, 1);
    }
    assert_eq!(rolls(db.url()) - before, 24, "each roll run exactly once");
    for worker in [0, 2] {
        let status = workers[worker].process.terminate(TIMEOUT);
        assert!(
            status.success(),
            "worker {worker} exits 0 on SIGTERM: {status}"
        );
    }
    exactly_once(&fake, &client.answered);
    let mut kinds = std::collections::BTreeMap::new();
    for a in &client.answered {
        *kinds.entry((a.worker, a.kind())).or_insert(0) += 1;
    }
    eprintln!("serve: (worker, response type) → interactions: {kinds:?}");
    let copies = fake
        .channel_messages(GM_CHANNEL_ID)
        .iter()
        .filter(|m| message_text(m).contains("hushed"))
        .count();
    assert_eq!(copies, 1, "the private roll's GM copy, once");
    assert_eq!(
        fake.count_requests(0, |r| r.route().ends_with("/callback")),
        0,
        "every first answer went in an HTTP response"
    );
}

/// The load: 24 rolls round the workers. After the 9th, `victim` dies without a word (the late
/// worker's answers still on their way over REST), and the client passes it over.
fn load_past_a_kill(
    client: &mut Client<'_>,
    victim: &mut Worker,
    registration: &[Value],
    alice: &Caller,
) {
    let modes = [None, Some(choice(registration, &["roll"], "mode", "self"))];
    let dead = client
        .ports
        .iter()
        .position(|p| *p == victim.port)
        .expect("the victim is one of the workers");
    let mut served = vec![0; client.ports.len()];
    for i in 0..24 {
        if i == 9 {
            assert!(!victim.process.kill(TIMEOUT).success(), "kill -9");
        }
        let answered = client.send(roll(alice, &format!("{}d6", i % 5 + 1), modes[i % 2], None));
        assert!(i < 9 || answered.worker != dead, "the dead worker answered");
        assert!(matches!(answered.kind(), 4 | 5), "{}", answered.response);
        served[answered.worker] += 1;
    }
    assert!(
        served.iter().all(|n| *n > 0),
        "each worker took a share: {served:?}"
    );
}

/// PING gets PONG from every worker; the health check answers; another method or a body over
/// the limit is refused.
fn http_rules(workers: &[Worker]) {
    let signer = Signer::test();
    for worker in workers {
        let hello = serde_json::to_vec(&json!({
            "id": payload::next_id().to_string(),
            "application_id": payload::APPLICATION_ID.to_string(),
            "type": 1,
            "token": "ping-token",
            "version": 1,
        }))
        .expect("JSON");
        let answer = post(worker.port, &signer.headers(&hello), &hello);
        assert_eq!((answer.status, answer.json()), (200, json!({"type": 1})));
        let health = request(worker.port, "GET", "/healthz", &[], b"").expect("a health check");
        assert_eq!((health.status, health.text().trim()), (200, "ok"));
    }
    let port = workers[0].port;
    let get = request(port, "GET", "/", &[], b"").expect("an answer");
    assert_eq!(get.status, 405, "{}", get.text());
    // Declared over the limit: refused before a byte of it is read (none is sent).
    let huge = head("POST", "/", &signer.headers(b"{}"), 2 << 20);
    let too_large = exchange(port, &huge, b"").expect("an answer");
    assert_eq!(too_large.status, 413, "{}", too_large.text());
}

fn post(port: u16, headers: &[(String, String)], body: &[u8]) -> HttpReply {
    request(port, "POST", "/", headers, body).expect("an answer")
}

/// What a forged request is, its headers and its body.
type Forgery<'a> = (&'a str, Vec<(String, String)>, &'a [u8]);

/// A /roll with every way of getting its signature wrong: each 401, and nothing runs.
fn bad_signatures_run_nothing(fake: &FakeDiscord, workers: &[Worker], url: &str, alice: &Caller) {
    let rolls_before = rolls(url);
    let built = roll(alice, "3d6", None, Some("forged"));
    let body = serde_json::to_vec(&built.json).expect("JSON");
    let tampered = String::from_utf8(body.clone())
        .expect("UTF-8")
        .replace("3d6", "9d6")
        .into_bytes();
    let (signer, stranger) = (Signer::test(), Signer::stranger());
    let at = |seconds: i64| seconds.to_string();
    let headers = |signature: String, timestamp: String| {
        vec![
            ("X-Signature-Ed25519".to_owned(), signature),
            ("X-Signature-Timestamp".to_owned(), timestamp),
        ]
    };
    let now = now();
    let good = signer.sign(&at(now), &body);
    let cases: Vec<Forgery> = vec![
        ("no signature headers", Vec::new(), &body),
        (
            "no timestamp",
            headers(good.clone(), at(now))[..1].to_vec(),
            &body,
        ),
        (
            "no signature",
            headers(good.clone(), at(now))[1..].to_vec(),
            &body,
        ),
        (
            "another key",
            headers(stranger.sign(&at(now), &body), at(now)),
            &body,
        ),
        ("a tampered body", headers(good.clone(), at(now)), &tampered),
        (
            "a signature that is not hex",
            headers("zz".repeat(64), at(now)),
            &body,
        ),
        (
            "a stale timestamp",
            headers(signer.sign(&at(now - 600), &body), at(now - 600)),
            &body,
        ),
        (
            "a future timestamp",
            headers(signer.sign(&at(now + 600), &body), at(now + 600)),
            &body,
        ),
    ];
    for (i, (what, headers, body)) in cases.into_iter().enumerate() {
        let reply = post(workers[i % workers.len()].port, &headers, body);
        assert_eq!(reply.status, 401, "{what}: {}", reply.text());
    }
    assert_eq!(rolls(url), rolls_before, "a refused request rolled");
    let id = built.id.to_string();
    assert_eq!(
        fake.count_requests(0, |r| r.path.contains(&built.token) || r.path.contains(&id)),
        0,
        "a refused request reached Discord"
    );
}

/// `/gm setup gm_channel:` the GM channel, as Discord sends it (the channel resolved).
fn gm_setup(gm: &Caller) -> Built {
    let channel = GM_CHANNEL_ID.to_string();
    let mut channels = serde_json::Map::new();
    channels.insert(
        channel.clone(),
        json!({"id": channel, "name": "gm", "type": 0,
               "permissions": payload::ALL_PERMISSIONS.to_string()}),
    );
    payload::command(
        gm,
        "gm",
        vec![subcommand(
            "setup",
            vec![option("gm_channel", 7, json!(channel))],
        )],
        json!({ "channels": channels }),
    )
}

/// A character made, suggested by autocomplete, and deleted by its button — the delete and
/// the press on the late worker, so both take the deferred path.
fn characters_and_buttons(client: &mut Client<'_>, registration: &[Value], alice: &Caller) {
    let thiz = choice(registration, &["character", "create"], "system", "thiz");
    let create = vec![subcommand(
        "create",
        vec![string("name", "Corra"), payload::integer("system", thiz)],
    )];
    let created = client.send_to(0, payload::command(alice, "character", create, Value::Null));
    assert!(created.text().contains("Corra"), "{}", created.response);
    let typed = vec![subcommand("show", vec![string("name", "Co")])];
    let suggested = client.send_to(1, payload::autocomplete(alice, "character", typed, "name"));
    assert_eq!(suggested.kind(), 8, "{}", suggested.response);
    assert!(
        suggested.response["data"]["choices"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["name"] == "Corra")),
        "{}",
        suggested.response
    );
    let delete = vec![subcommand("delete", vec![string("name", "Corra")])];
    let asked = client.send_to(2, payload::command(alice, "character", delete, Value::Null));
    let (kind, token, data) = (
        asked.kind(),
        asked.built.token.clone(),
        asked.response["data"].clone(),
    );
    let fake = client.fake;
    let message = if kind == 5 {
        wait_rest(fake, &token, 1);
        fake.original(&token).expect("the question edited in")
    } else {
        payload::message(payload::next_id(), payload::CHANNEL_ID, &data)
    };
    assert!(
        message_text(&message).contains("Delete Corra?"),
        "{message}"
    );
    let confirm = super::custom_ids(&message)
        .into_iter()
        .find(|id| id.starts_with("chardel:") && !id.ends_with(":keep"))
        .unwrap_or_else(|| panic!("a delete button: {message}"));
    let pressed = client.send_to(2, payload::button(alice, message, &confirm));
    let (kind, token) = (pressed.kind(), pressed.built.token.clone());
    assert!(matches!(kind, 6 | 7), "{}", pressed.response);
    let followup = fake.wait_for("the press's result", TIMEOUT, |r| {
        r.status == 200 && r.is_followup_of(&token)
    });
    let done = message_text(followup.body());
    assert!(done.contains("Deleted Corra"), "{done}");
    keep_in_the_response(client, alice, thiz);
    if kind == 6 {
        // Acknowledged first: the pressed message's buttons are then disabled by an edit.
        wait_rest(fake, &token, 2);
        let rewritten = fake.original(&token).expect("the pressed message");
        assert!(
            rewritten["components"][0]["components"]
                .as_array()
                .is_some_and(|b| b.iter().all(|b| b["disabled"] == true)),
            "{rewritten}"
        );
    }
}

/// `/odds thiz` on a worker that answers in time: its chart is a file, which an HTTP response
/// cannot carry, so the response defers (public, as the odds are) and the answer, embed and PNG,
/// is edited in over REST as a multipart body.
fn odds_chart_is_edited_in(client: &mut Client<'_>, alice: &Caller) {
    let thiz = vec![subcommand("thiz", vec![payload::integer("rating", 4)])];
    let asked = client.send_to(1, payload::command(alice, "odds", thiz, Value::Null));
    assert_eq!(asked.kind(), 5, "deferred for its file: {}", asked.response);
    assert_eq!(
        asked.response["data"]["flags"].as_u64().unwrap_or(0) & 64,
        0
    );
    let token = asked.built.token.clone();
    let edit = client.fake.wait_for("the odds edited in", TIMEOUT, |r| {
        r.status == 200
            && r.method == "PATCH"
            && r.route().ends_with(&format!("/{token}/messages/@original"))
    });
    assert!(
        message_text(edit.body()).contains("Any success: 66%"),
        "{}",
        edit.body()
    );
    assert_eq!(edit.files.len(), 1, "{}", edit.body());
    assert_eq!(edit.files[0].filename.as_deref(), Some("odds.png"));
    assert!(edit.files[0].bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
}

/// A delete asked and kept on a worker that answers in the response: the press rewrites its
/// message there (type 7) and its result follows at once, while Discord may still be taking
/// that response.
fn keep_in_the_response(client: &mut Client<'_>, alice: &Caller, thiz: i64) {
    let create = vec![subcommand(
        "create",
        vec![string("name", "Bram"), payload::integer("system", thiz)],
    )];
    client.send_to(0, payload::command(alice, "character", create, Value::Null));
    let delete = vec![subcommand("delete", vec![string("name", "Bram")])];
    let asked = client.send_to(0, payload::command(alice, "character", delete, Value::Null));
    assert_eq!(asked.kind(), 4, "{}", asked.response);
    let message = payload::message(
        payload::next_id(),
        payload::CHANNEL_ID,
        &asked.response["data"],
    );
    let keep = super::custom_ids(&message)
        .into_iter()
        .find(|id| id.ends_with(":keep"))
        .unwrap_or_else(|| panic!("a keep button: {message}"));
    let kept = client.send_to(0, payload::button(alice, message, &keep));
    assert_eq!(kept.kind(), 7, "{}", kept.response);
    let token = kept.built.token.clone();
    client.fake.wait_for("the keep's result", TIMEOUT, |r| {
        r.status == 200 && r.is_followup_of(&token)
    });
}

/// An encounter started on one worker and joined on another: the second worker's command brings
/// the channel's status message up to date too (no worker keeps the channels with an encounter
/// in memory, where one started elsewhere would go unseen).
fn an_encounter_crosses_workers(
    client: &mut Client<'_>,
    registration: &[Value],
    gm: &Caller,
    alice: &Caller,
) {
    let system = choice(registration, &["encounter", "start"], "system", "thiz");
    let surprise = choice(registration, &["encounter", "start"], "surprise", "none");
    let start = vec![subcommand(
        "start",
        vec![
            payload::integer("system", system),
            payload::integer("surprise", surprise),
        ],
    )];
    let from = client.fake.request_count();
    client.send_to(0, payload::command(gm, "encounter", start, Value::Null));
    let channel = format!("/channels/{}/messages", payload::CHANNEL_ID);
    let posted = client
        .fake
        .wait_for_from(from, "the encounter's status", TIMEOUT, |r| {
            r.status == 200 && r.is("POST", &channel)
        });
    assert!(
        message_text(posted.body()).contains("getting ready"),
        "{}",
        posted.body()
    );
    let from = client.fake.request_count();
    let add = vec![subcommand("add", vec![string("character", "Bram")])];
    client.send_to(2, payload::command(alice, "encounter", add, Value::Null));
    client.fake.wait_for_from(
        from,
        "the status edited by the other worker",
        TIMEOUT,
        |r| {
            r.status == 200
                && r.is("PATCH", &format!("{channel}/"))
                && message_text(r.body()).contains("Bram")
        },
    );
}

/// A command this bot does not have, and an interaction that does not parse but names itself:
/// each one ephemeral answer; the stale one makes a worker register the commands again.
fn stale_and_unreadable(client: &mut Client<'_>, alice: &Caller) {
    let stale = client.send(payload::command(alice, "teleport", vec![], Value::Null));
    assert_eq!(stale.response["data"]["flags"], 64, "{}", stale.response);
    assert!(
        stale.text().starts_with("This command has changed"),
        "{}",
        stale.text()
    );
    client
        .fake
        .wait_for_n(2, "the commands registered again", TIMEOUT, is_registration);
    let mut broken = roll(alice, "1d6", None, None);
    broken.json["data"]["options"] = json!("not a list");
    let unreadable = client.send(broken);
    assert_eq!(unreadable.kind(), 4, "{}", unreadable.response);
    assert_eq!(unreadable.response["data"]["flags"], 64);
    assert!(
        unreadable.text().contains("could not read"),
        "{}",
        unreadable.text()
    );
}

/// Each interaction answered once: in its response, or — deferred — by exactly one edit or
/// follow-up (a public answer's placeholder deleted), a button's rewrite and result apart.
pub(super) fn exactly_once(fake: &FakeDiscord, answered: &[Answered]) {
    for a in answered {
        let token = &a.built.token;
        let (edits, followups) = rest_answers(fake, token);
        let deleted = fake.count_requests(0, |r| {
            r.method == "DELETE" && r.route().ends_with(&format!("/{token}/messages/@original"))
        });
        // The caller's own note after a message (issue 57: a spend that took the last luck
        // point tells its player so, ephemerally) is a follow-up beside the answer, not a
        // second answer.
        let notes = fake
            .requests()
            .iter()
            .filter(|r| r.status == 200 && r.is_followup_of(token))
            .filter(|r| {
                r.json.as_ref().is_some_and(|body| {
                    body["flags"] == 64 && message_text(body).contains("luck has run out")
                })
            })
            .count();
        let want = match a.kind() {
            // A message, suggestions: the response was the answer.
            4 | 8 => (0, notes, 0),
            // Thinking: an ephemeral answer edited in, or a public one followed up.
            5 if followups == 1 => (0, 1, 1),
            5 => (1, 0, 0),
            // A press acknowledged: its message rewritten, its result followed up.
            6 => (1, 1, 0),
            // A press that rewrote its message in the response: its result followed up.
            7 => (0, 1, 0),
            other => panic!("an answer of type {other}: {}", a.response),
        };
        assert_eq!(
            (edits, followups, deleted),
            want,
            "interaction {} (type {}) on worker {}: edits, follow-ups, deletions",
            a.built.id,
            a.kind(),
            a.worker
        );
    }
}

/// The commands the registering worker put, once it has.
pub(super) fn registration(fake: &FakeDiscord) -> Vec<Value> {
    fake.wait_for("the registration", TIMEOUT, is_registration)
        .body()
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn is_registration(r: &Request) -> bool {
    r.method == "PUT" && r.route().starts_with("/applications/") && r.route().ends_with("/commands")
}

/// `referee register` registers the commands (in the development guild when one is set) and
/// exits 0; `referee serve` without the public key stops at once with one line naming
/// `DISCORD_PUBLIC_KEY`, before anything reaches Discord.
#[test]
fn register_registers_and_exits_and_serve_needs_the_public_key() {
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut options = BotOptions::new(&fake, dir.path());
    options.dev_guild_id = Some(payload::GUILD_ID);
    options.mode = vec!["register".into()];
    let status = BotProcess::spawn(&options).wait_exit(TIMEOUT);
    assert!(status.success(), "referee register: {status}");
    let put = fake.wait_for("the registration", TIMEOUT, is_registration);
    assert!(
        put.route()
            .ends_with(&format!("/guilds/{}/commands", payload::GUILD_ID)),
        "{}",
        put.line()
    );
    assert!(
        put.body().as_array().is_some_and(|c| c.len() > 10),
        "the commands"
    );

    let before = fake.request_count();
    options.dev_guild_id = None;
    options.mode = vec!["serve".into(), "--listen".into(), "127.0.0.1:0".into()];
    // Empty is unset (whatever the test's own environment holds).
    options
        .env
        .push(("DISCORD_PUBLIC_KEY".into(), String::new()));
    let mut serve = BotProcess::spawn(&options);
    let status = serve.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(1), "{status}");
    let said = serve.stderr();
    assert!(said.contains("DISCORD_PUBLIC_KEY"), "{said}");
    assert_eq!(fake.request_count(), before, "nothing reached Discord");
}

/// `command` in guild `guild` (the payload's own guild when it is [`payload::GUILD_ID`]).
fn in_guild(mut built: Built, guild: u64) -> Built {
    built.json["guild_id"] = Value::String(guild.to_string());
    built
}

/// Luck left and stunts spent in `guild`, read from the database: (points left, spends in the
/// ledger).
fn luck_in(url: &str, guild: u64) -> (i64, i64) {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    let guild = guild as i64;
    let left: i64 = client
        .query_one("SELECT points FROM luck WHERE guild_id = $1", &[&guild])
        .expect("the luck row")
        .get(0);
    let spent: i64 = client
        .query_one(
            "SELECT count(*) FROM luck_ledger WHERE guild_id = $1 AND kind = 'spent: stunt'",
            &[&guild],
        )
        .expect("the ledger")
        .get(0);
    (left, spent)
}

/// Alice's THIZ character Vexa made in `guild`, and given `luck` points by the GM.
fn vexa_with_luck(
    client: &mut Client<'_>,
    (gm, alice): (&Caller, &Caller),
    thiz: i64,
    guild: u64,
    luck: i64,
) {
    let create = vec![subcommand(
        "create",
        vec![string("name", "Vexa"), payload::integer("system", thiz)],
    )];
    let made = client.send(in_guild(
        payload::command(alice, "character", create, Value::Null),
        guild,
    ));
    assert!(made.text().contains("Vexa"), "{}", made.response);
    let set = vec![subcommand(
        "set",
        vec![
            string("character", "Vexa"),
            payload::integer("points", luck),
        ],
    )];
    let set = client.send(in_guild(
        payload::command(gm, "luck", set, Value::Null),
        guild,
    ));
    assert_eq!(set.kind(), 4, "{}", set.response);
}

/// What each interaction's user was told: the response's message, or the one edited in over
/// REST when the response deferred.
fn told(fake: &FakeDiscord, answered: &[Answered]) -> Vec<String> {
    answered
        .iter()
        .map(|a| match a.kind() {
            5 => message_text(&fake.original(&a.built.token).expect("the answer edited in")),
            _ => a.text(),
        })
        .collect()
}

/// Three workers over `url`, the first registering the commands, each batching on one thread
/// (so what waits for it goes in one batch).
fn one_thread_workers(fake: &FakeDiscord, d: &std::path::Path, url: &str) -> Vec<Worker> {
    ["w0", "w1", "w2"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let register: &[&str] = if i == 0 { &["--register"] } else { &[] };
            spawn_worker(
                fake,
                d,
                name,
                url,
                register,
                &[("REFEREE_APP_THREADS", "1")],
            )
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(listening)
        .collect()
}

/// The luck race through the bots themselves, which write in batches (`store::pg`): three
/// workers take luck spends for the same character in two guilds at the same moment, each
/// worker from its own client thread, so one worker's batch holds a guild another's wants (and
/// its spend is turned away from the batch and run after it). Each character holds 5 points
/// and 12 spends are asked of it: exactly 5 are spent in each guild, each with its ledger line,
/// none below zero, and every interaction is answered exactly once.
#[test]
fn luck_spent_through_three_batching_workers_at_once_is_spent_exactly_once() {
    const LUCK: i64 = 5;
    /// Client threads per worker, and spends each sends: a worker then has several spends of
    /// both guilds waiting at once, which its one batching thread takes in one batch.
    const CLIENTS: usize = 4;
    const SPENDS: usize = 3;
    let Some(db) = referee::store::testdb::PgTestDb::create() else {
        return; // said loudly by `create`; a failure under CI=true
    };
    let fake = FakeDiscord::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (d, url) = (dir.path(), db.url());
    let workers = one_thread_workers(&fake, d, url);
    let registration = registration(&fake);
    let thiz = choice(&registration, &["character", "create"], "system", "thiz");
    let stunt = choice(&registration, &["luck", "spend"], "kind", "stunt");
    let (gm, alice) = (Caller::gm(1), Caller::player(10));
    let guilds = [payload::GUILD_ID, payload::GUILD_ID + 1];
    let ports: Vec<u16> = workers.iter().map(|w| w.port).collect();
    let mut setup = Client::new(&fake, ports.clone());
    for guild in guilds {
        vexa_with_luck(&mut setup, (&gm, &alice), thiz, guild, LUCK);
        assert_eq!(
            luck_in(url, guild),
            (LUCK, 0),
            "guild {guild} before the race"
        );
    }
    let spend = || {
        vec![subcommand(
            "spend",
            vec![
                payload::integer("kind", stunt),
                payload::integer("points", 1),
                string("character", "Vexa"),
            ],
        )]
    };
    let start = std::sync::Barrier::new(ports.len() * CLIENTS);
    let answered: Vec<Answered> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..ports.len() * CLIENTS)
            .map(|w| (w, &ports[w % ports.len()]))
            .map(|(w, port)| {
                let (fake, start, spend, alice) = (&fake, &start, &spend, &alice);
                scope.spawn(move || {
                    let mut client = Client::new(fake, vec![*port]);
                    start.wait();
                    for n in 0..SPENDS {
                        let guild = guilds[(n + w) % guilds.len()];
                        let built = payload::command(alice, "luck", spend(), Value::Null);
                        client.send(in_guild(built, guild));
                    }
                    client.answered
                })
            })
            .collect();
        racers
            .into_iter()
            .flat_map(|r| r.join().expect("a racer"))
            .collect()
    });
    for a in answered.iter().filter(|a| a.kind() == 5) {
        wait_rest(&fake, &a.built.token, 1);
    }
    for guild in guilds {
        assert_eq!(
            luck_in(url, guild),
            (0, LUCK),
            "guild {guild}: every point spent once, each with its ledger line"
        );
    }
    exactly_once(&fake, &answered);
    assert_eq!(answered.len(), SPENDS * CLIENTS * ports.len());
    // What each player was told: a spend turned away from a batch was run again, not answered
    // "busy", so every answer is a spend or "no luck left".
    let told = told(&fake, &answered);
    let none_left = told.iter().filter(|t| t.contains("no luck left")).count();
    assert_eq!(
        none_left,
        answered.len() - 2 * LUCK as usize,
        "all but the 10 spends found no luck: {told:?}"
    );
    assert!(
        told.iter()
            .all(|t| !t.contains("very busy") && !t.contains("went wrong")),
        "{told:?}"
    );
}
