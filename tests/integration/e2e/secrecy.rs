//! The SPEC §3 secrecy sweep over Discord: the console sweep (`crate::secrecy`) repeated against
//! the real bot. A GM seeds every hidden value with a sentinel through Discord; a player runs
//! every command and option combination the console sweep runs, presses every luck button id and
//! asks for autocomplete; then EVERY body the bot sent that a player can receive — callbacks,
//! follow-ups, webhook edits, channel messages outside the GM channel, attached files — is
//! scanned. No sentinel may appear. The same sweep as the GM must find them all, which shows the
//! sentinels were stored and the scan can fail.
//!
//! Owns only these tests. Never sleeps: every send waits for its callback (and a button's
//! follow-up), and a last private roll's GM copy shows earlier sends are in.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::{GM_CHANNEL_ID, Session, message_text};
use crate::fake::payload::{self, CHANNEL_ID, Caller};
use crate::fake::{Request, TIMEOUT};

/// Luck is set to these; a player's spends during the sweep only lower them, so any number from
/// [`LUCK_FLOOR`] up to the higher one is a luck total (checked at the end of the sweep).
const LUCK_ALYS: u32 = 737;
const LUCK_BRAM: u32 = 626;
const LUCK_FLOOR: u32 = 560;
const HIDDEN: &str = "SENTINELHIDDENVALUE";
const NOTE: &str = "SENTINELGMNOTE";
const NPC: &str = "Zorvakhnpc";
const NPC_HIDDEN: &str = "SENTINELNPCHIDDEN";
/// A GM's secret roll of 1d2+424200 totals one of these; a player's blind roll of 1d2+515100
/// one of those (the expressions themselves hold neither as a whole number).
const SECRET_ROLL: [&str; 2] = ["424201", "424202"];
const BLIND_ROLL: [&str; 2] = ["515101", "515102"];
/// A name no character has, to compare an NPC's answers with.
const NOBODY: &str = "Qxqxnobody";

const WORD_SENTINELS: [&str; 8] = [
    HIDDEN,
    NOTE,
    NPC,
    NPC_HIDDEN,
    SECRET_ROLL[0],
    SECRET_ROLL[1],
    BLIND_ROLL[0],
    BLIND_ROLL[1],
];

/// Who sent an interaction, and whether its line named the NPC (whose name then comes back).
struct Sent {
    gm: bool,
    names_npc: bool,
}

/// A seeded session and the record of every interaction sent through it.
struct Sweep {
    s: Session,
    gm: Caller,
    alys: Caller,
    bram: Caller,
    sent: HashMap<String, Sent>,
}

impl Sweep {
    /// Sends `line` as `caller` and returns the callback's body. Dispatches directly rather than
    /// through `Session::run`, which copies the whole request log on every call.
    fn send(&mut self, caller: &Caller, line: &str) -> Value {
        let built = if line == ROLE_LINE {
            role_line(caller)
        } else {
            self.s.build(caller, line)
        };
        self.record(caller, &built.token, line.contains(NPC));
        self.s.fake.dispatch(&built);
        self.s.fake.callback_for(built.id).body().clone()
    }

    fn record(&mut self, caller: &Caller, token: &str, names_npc: bool) {
        let gm = caller.permissions & payload::MANAGE_GUILD != 0;
        self.sent.insert(token.to_owned(), Sent { gm, names_npc });
    }

    /// A setup step that must succeed: its text has `expect`.
    fn setup(&mut self, caller: &Caller, line: &str, expect: &str) {
        let body = self.send(caller, line);
        let text = message_text(&body["data"]);
        assert!(text.contains(expect), "setup {line}: {text}");
    }

    /// `caller` presses a luck button with `custom_id` on a message of its own; waits for the
    /// follow-up when the press was taken.
    fn press(&mut self, caller: &Caller, custom_id: &str) -> Value {
        let body = json!({
            "content": "",
            "components": [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Spend luck", "custom_id": custom_id}
            ]}],
        });
        let message = payload::message(payload::next_id(), CHANNEL_ID, &body);
        let reply = self.s.press(caller, &message, custom_id);
        let token = reply.interaction.token.clone();
        let answer = if reply.kind() == 7 {
            // Taken: the buttons are disabled and the result follows.
            reply.followup(0).body().clone()
        } else {
            reply.callback_body().clone()
        };
        self.record(caller, &token, false);
        answer
    }

    /// The sentinel world, all through Discord: a GM channel, two players' characters, an NPC,
    /// luck, hidden keys, notes, a GM secret roll and a player's blind roll.
    fn seeded() -> Self {
        let s = Session::start();
        let mut w = Self {
            gm: s.gm(1),
            alys: s.player(10),
            bram: s.player(20),
            s,
            sent: HashMap::new(),
        };
        let (gm, alys, bram) = (w.gm.clone(), w.alys.clone(), w.bram.clone());
        w.setup(
            &gm,
            &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"),
            "Settings saved",
        );
        w.setup(&alys, "/character create name:Alys system:thiz", "Alys");
        w.setup(&alys, "/character create name:Tor system:tft", "Tor");
        w.setup(&bram, "/character create name:Bram system:thiz", "Bram");
        w.setup(
            &gm,
            &format!("/character create name:{NPC} system:thiz npc:true"),
            NPC,
        );
        for (who, line) in [
            (&alys, "/character skill name:Alys skill:Swimming rating:4"),
            (&alys, "/character skill name:Alys skill:Toughness rating:3"),
            (&bram, "/character skill name:Bram skill:Toughness rating:2"),
        ] {
            w.setup(who, line, "is now");
        }
        w.setup(
            &gm,
            &format!("/luck set character:Alys points:{LUCK_ALYS}"),
            &LUCK_ALYS.to_string(),
        );
        w.setup(
            &gm,
            &format!("/luck set character:Bram points:{LUCK_BRAM}"),
            &LUCK_BRAM.to_string(),
        );
        for c in ["Alys", "Bram", "Tor", NPC] {
            let value = if c == NPC { NPC_HIDDEN } else { HIDDEN };
            w.setup(
                &gm,
                &format!("/gm hidden character:{c} key:sleepless value:{value}"),
                value,
            );
            w.setup(&gm, &format!("/gm note character:{c} text:{NOTE}"), "Noted");
        }
        w.setup(
            &gm,
            "/gm roll expression:1d2+424200 label:ambush",
            "Commitment",
        );
        w.setup(&alys, "/roll expression:1d2+515100 mode:blind", "blind");
        w
    }

    /// Waits until everything sent so far has arrived: a private roll's GM copy comes right
    /// after its callback, so once it is in, earlier interactions' sends are too.
    fn barrier(&mut self) {
        let from = self.s.fake.requests().len();
        let gm = self.gm.clone();
        self.send(&gm, "/roll expression:1d2+909000 mode:private");
        self.s
            .fake
            .wait_for_from(from, "the barrier's GM copy", TIMEOUT, |r| {
                r.is_channel_message(GM_CHANNEL_ID)
            });
    }
}

/// The line that names a role, built here: the harness's role options (`Session::typed_value`,
/// not ours to edit) leave out the `colors` object serenity 0.12 requires, and the payload
/// check refuses them.
const ROLE_LINE: &str = "/gm setup gm_role:5";

fn role_line(caller: &Caller) -> payload::Built {
    let role = json!({
        "id": "5", "name": "role-5", "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false, "position": 1, "permissions": "0", "managed": false,
        "mentionable": true, "flags": 0,
    });
    payload::command(
        caller,
        "gm",
        vec![payload::subcommand(
            "setup",
            vec![payload::option("gm_role", 8, json!("5"))],
        )],
        json!({ "roles": { "5": role } }),
    )
}

/// Every command and option combination of the console sweep, as lines, on the player's own
/// character, another player's and the NPC.
#[allow(clippy::too_many_lines)] // One list, read top to bottom: every line a player can type.
fn player_lines() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for mode in ["public", "private", "blind", "self"] {
        v.push(format!("/roll expression:2d6+1 mode:{mode}"));
        v.push(format!("/check rating:4 mode:{mode}"));
        v.push(format!("/check skill:Swimming character:Alys mode:{mode}"));
        v.push(format!("/tft save attribute:12 dice:3 mode:{mode}"));
        v.push(format!("/hazard fall height:40 mode:{mode}"));
        v.push(format!("/tft reaction mode:{mode}"));
        v.push(format!("/magic terror level:red mode:{mode}"));
    }
    for c in ["Alys", "Bram", NPC, "Tor"] {
        v.push(format!("/character show name:{c}"));
        v.push(format!("/character validate name:{c}"));
        v.push(format!("/character export name:{c}"));
        v.push(format!("/check skill:Swimming character:{c}"));
        v.push(format!("/attack attacker:Alys target:{c}"));
        v.push(format!("/attack attacker:{c} target:Alys"));
        v.push(format!("/maneuver grapple attacker:Alys target:{c}"));
        v.push(format!("/maneuver escape character:{c} holder:Alys"));
        v.push(format!("/maneuver listen character:{c}"));
        v.push(format!("/tft save attribute:st dice:3 character:{c}"));
        v.push(format!("/tft attack attacker:Tor target:{c}"));
        v.push(format!("/tft attack attacker:{c} target:Tor"));
        v.push(format!("/tft heal character:{c} hits:1"));
        v.push(format!("/tft stand character:{c}"));
        v.push(format!("/tftref study talent:Sword character:{c}"));
        v.push(format!("/tft hth action:leave character:{c}"));
        v.push(format!("/tftref ski character:{c}"));
        v.push(format!("/tft repair character:{c} weapon:dagger"));
        v.push(format!("/tft condition character:{c} dead:true"));
        v.push(format!("/history character:{c}"));
        for kind in ["reroll", "toughness", "wound", "stunt", "berserk", "rouse"] {
            v.push(format!("/luck spend kind:{kind} character:{c}"));
        }
        v.push(format!(
            "/luck spend kind:wound character:{c} location:head level:red"
        ));
        for sub in ["roll", "show", "log"] {
            v.push(format!("/luck {sub} character:{c}"));
        }
        for sub in ["award", "set"] {
            v.push(format!("/luck {sub} character:{c} points:3"));
        }
        v.push(format!("/gm hidden character:{c} key:sleepless"));
        v.push(format!("/gm note character:{c}"));
        v.push(format!("/wound add character:{c} location:head level:red"));
        v.push(format!("/wound rest character:{c} days:1"));
        v.push(format!("/hazard fall character:{c} height:40"));
        v.push(format!("/hazard fire character:{c} rating:10 fleeing:true"));
        v.push(format!("/hazard water character:{c} water:10"));
        v.push(format!("/hazard suffocation character:{c} turn:9"));
        v.push(format!(
            "/hazard poison character:{c} wound:red duration:5 unit:minutes"
        ));
        v.push(format!(
            "/magic cast character:{c} skill:Necromancy level:red"
        ));
        v.push(format!("/magic terror character:{c} level:black"));
        v.push(format!(
            "/magic target use:mentalism target:Alys character:{c}"
        ));
        v.push(format!("/magic target use:reiki_heal target:{c}"));
        v.push(format!(
            "/magic learn character:{c} skill:Insight tutor_rating:8"
        ));
        // `/move rate` is swept in process (tests/integration/secrecy.rs): its feet per minute
        // (250 to 1150) fall among this sweep's numeric luck sentinels.
        v.push(format!("/move climb character:{c} height:150"));
        v.push(format!("/move travel character:{c} navigate:night"));
        v.push(format!("/move animal character:{c}"));
        v.push(format!("/move spot character:{c} city:true"));
        v.push(format!(
            "/move pilot character:{c} skill:\"Pilot (Cart)\" wrecked:true"
        ));
        v.push(format!(
            "/move near character:{c} skill:\"Pilot (Cart)\" other_rating:3"
        ));
        v.push(format!("/move crash character:{c} vehicle_speed:20"));
        v.push(format!("/advance points character:{c} heavy:2"));
        v.push(format!("/advance spend character:{c} skill:Swimming"));
        v.push(format!("/advance train character:{c} study:special"));
        v.push(format!(
            "/advance craft character:{c} skill:\"Trade (Carpentry)\" target:3"
        ));
        v.push(format!(
            "/advance work character:{c} skill:\"Trade (Carpentry)\""
        ));
        v.push(format!("/advance sleepless character:{c}"));
        v.push(format!("/character set name:{c} field:notes value:hi"));
    }
    for line in [
        "/move chase first_speed:12 second_speed:10 gap:50",
        "/move collide kind:head_on speed:12 other_speed:8",
        "/luck spend kind:stunt points:5",
        "/luck spend kind:reroll",
        "/character list",
        "/character show",
        "/history",
        "/history count:25",
        "/reveal roll:1",
        "/gm roll expression:1d6",
        "/gm rules",
        ROLE_LINE,
        "/odds thiz rating:4",
        "/odds tft target:12 dice:3",
        "/tftref called area:head hits:3",
        "/tftref spell spell:Levitate distance:3",
        "/tftref mount st:20 ma:24 dx:10",
        "/tftref price magic:Sleep",
        "/tftref time action:torch",
        "/help",
    ] {
        v.push(line.to_owned());
    }
    for id in 1..=12 {
        v.push(format!("/luck spend kind:reroll roll:{id}"));
    }
    v
}

/// Autocomplete requests a player may make that could offer the NPC or its secrets:
/// `(line, focused option)`.
fn autocomplete_lines() -> Vec<(String, &'static str)> {
    let mut v = Vec::new();
    for typed in ["Z", "Zorv", "a", "o"] {
        v.push((format!("/check character:{typed}"), "character"));
        v.push((format!("/character show name:{typed}"), "name"));
        v.push((
            format!("/luck spend kind:reroll character:{typed}"),
            "character",
        ));
        v.push((format!("/attack attacker:Alys target:{typed}"), "target"));
        v.push((format!("/tft attack attacker:Tor target:{typed}"), "target"));
        v.push((format!("/history character:{typed}"), "character"));
        v.push((format!("/gm hidden character:{typed} key:x"), "character"));
        // A player's expression menu offers their own rolls and saved rolls, never the GM's.
        v.push((format!("/roll expression:{typed}"), "expression"));
        v.push((format!("/alias show name:{typed}"), "name"));
    }
    for typed in ["1", "4242", "d"] {
        v.push((format!("/roll expression:{typed}"), "expression"));
    }
    v.push((format!("/check character:{NPC} skill:S"), "skill"));
    v
}

/// Every string in a JSON value (numbers are flags and colours, not text a reader sees).
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// What a reader can see of a request: its JSON's strings and its text files. A picture (an
/// odds chart) is not read: its compressed bytes would match a sentinel by chance, and a chart
/// draws only the numbers of the public embed beside it (`app::chart`).
fn readable(r: &Request) -> String {
    let mut parts = Vec::new();
    if let Some(json) = &r.json {
        strings(json, &mut parts);
    }
    for file in &r.files {
        if let Ok(text) = std::str::from_utf8(&file.bytes) {
            parts.push(text.to_owned());
        } else {
            assert!(
                file.bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
                "a file that is neither text nor a picture: {:?}",
                file.filename
            );
        }
    }
    parts.join("\n")
}

/// The sentinels in `text`, each as a whole word: a luck total, roll result or name glued to
/// other letters or digits (a commitment's hex, a longer number) is not that value.
fn sentinels_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if WORD_SENTINELS.contains(&word) {
            found.push(word.to_owned());
        } else if let Ok(n) = word.parse::<u32>()
            && (LUCK_FLOOR..=LUCK_ALYS.max(LUCK_BRAM)).contains(&n)
        {
            found.push(word.to_owned());
        }
    }
    found
}

/// The interaction token a request answers: `/interactions/{id}/{token}/callback` or
/// `/webhooks/{app}/{token}[/…]`.
fn token_of(r: &Request) -> Option<&str> {
    let mut parts = r.route().trim_start_matches('/').split('/');
    match parts.next()? {
        "interactions" | "webhooks" => parts.nth(1),
        _ => None,
    }
}

fn ephemeral(body: Option<&Value>) -> bool {
    body.is_some_and(|b| {
        let flags = b["data"]["flags"].as_u64().or_else(|| b["flags"].as_u64());
        flags.unwrap_or(0) & 64 != 0
    })
}

/// Every body a player can receive, as `(description, readable text, names_npc)`: everything
/// the bot sent except the command registration, the GM channel, and a GM's ephemeral answers
/// (a GM's public answers reach the players in the channel).
fn player_visible(w: &Sweep) -> Vec<(String, String, bool)> {
    let requests = w.s.fake.requests();
    // Whether each GM interaction's original response was ephemeral, for its later edits.
    let mut gm_original_ephemeral: HashMap<String, bool> = HashMap::new();
    for r in &requests {
        if let Some(token) = token_of(r)
            && r.route().ends_with("/callback")
        {
            gm_original_ephemeral.insert(token.to_owned(), ephemeral(r.json.as_ref()));
        }
    }
    let gm_channel = format!("/channels/{GM_CHANNEL_ID}/");
    let mut out = Vec::new();
    for r in &requests {
        if r.method == "GET"
            || (r.json.is_none() && r.files.is_empty())
            || (r.method == "PUT" && r.route().ends_with("/commands"))
            || r.route().starts_with(&gm_channel)
        {
            continue;
        }
        let sent = token_of(r).and_then(|t| w.sent.get(t).map(|s| (t, s)));
        if let Some((token, sent)) = sent
            && sent.gm
        {
            let is_edit = r.method == "PATCH";
            let hidden = if is_edit {
                gm_original_ephemeral.get(token).copied().unwrap_or(false)
            } else {
                ephemeral(r.json.as_ref())
            };
            if hidden {
                continue;
            }
        }
        let names_npc = sent.is_some_and(|(_, s)| s.names_npc);
        out.push((r.line(), readable(r), names_npc));
    }
    out
}

/// Runs the whole sweep as `player`; returns how many interactions it sent. With `compare_npc`,
/// every line naming the NPC must answer as the same line naming nobody (true for a player,
/// not for a GM, who sees the NPC).
fn sweep_as(w: &mut Sweep, player: &Caller, compare_npc: bool) -> usize {
    let mut count = 0;
    let mut differ = Vec::new();
    for line in player_lines() {
        let body = w.send(player, &line);
        count += 1;
        let text = message_text(&body["data"]);
        assert!(
            !text.contains("Something went wrong"),
            "{line}: an internal error: {text}"
        );
        if compare_npc && line.contains(NPC) {
            // Naming the NPC must answer exactly as naming nobody does.
            let other_line = line.replace(NPC, NOBODY);
            let other = message_text(&w.send(player, &other_line)["data"]);
            count += 1;
            if text.replace(NPC, NOBODY) != other {
                differ.push(format!("{line}: {text:?}\n  vs {other_line}: {other:?}"));
            }
        }
    }
    for id in 1..=12 {
        for kind in ["reroll", "toughness", "wound", "lower:3:0:x"] {
            let body = w.press(player, &format!("luck:{kind}:{id}"));
            count += 1;
            // A taken press answers in a follow-up (a message body), a refusal in the callback.
            let text = message_text(&body["data"]) + &message_text(&body);
            assert!(
                !text.contains("Something went wrong"),
                "button {id}: {text}"
            );
        }
    }
    for (line, focused) in autocomplete_lines() {
        w.s.autocomplete(player, &line, focused);
        count += 1;
    }
    assert!(
        differ.is_empty(),
        "an NPC answers unlike a missing character:\n{}",
        differ.join("\n")
    );
    count
}

/// Scans every body the players could receive; returns the leaks.
fn leaks(w: &Sweep) -> Vec<String> {
    let mut leaks = Vec::new();
    for (what, text, names_npc) in player_visible(w) {
        for s in sentinels_in(&text) {
            if names_npc && s == NPC {
                continue;
            }
            let shown: String = text.chars().take(600).collect();
            leaks.push(format!("{s} in {what}: {shown}"));
        }
    }
    leaks
}

/// The luck totals stayed within the range the scan treats as luck.
fn assert_luck_within_scan(w: &mut Sweep) {
    let gm = w.gm.clone();
    for c in ["Alys", "Bram"] {
        let text = message_text(&w.send(&gm, &format!("/luck show character:{c}"))["data"]);
        let n = super::commands::number_after(&text, &format!("{c} has "));
        assert!(
            (i64::from(LUCK_FLOOR)..=i64::from(LUCK_ALYS)).contains(&n),
            "{c}'s luck {n} left the scanned range: {text}"
        );
    }
}

fn player_sweep(which: fn(&Sweep) -> Caller) {
    let mut w = Sweep::seeded();
    let player = which(&w);
    let count = sweep_as(&mut w, &player, true);
    assert!(count > 150, "the sweep sent {count} interactions");
    w.barrier();
    let visible = player_visible(&w);
    assert!(
        visible.len() > count,
        "{} bodies scanned for {count} interactions",
        visible.len()
    );
    assert!(
        visible
            .iter()
            .any(|(_, text, _)| text.contains("\"format\": \"referee-character\"")),
        "an exported file was among the scanned bodies"
    );
    let gm_channel: String =
        w.s.fake
            .requests()
            .iter()
            .filter(|r| r.is_channel_message(GM_CHANNEL_ID))
            .map(readable)
            .collect();
    assert!(
        BLIND_ROLL.iter().any(|b| gm_channel.contains(b)),
        "the blind roll's result went to the GM channel, which the scan leaves out"
    );
    let leaks = leaks(&w);
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    assert_luck_within_scan(&mut w);
}

#[test]
fn a_player_never_receives_a_hidden_value_over_discord() {
    player_sweep(|w| w.alys.clone());
}

#[test]
fn another_player_never_receives_a_hidden_value_over_discord() {
    player_sweep(|w| w.bram.clone());
}

#[test]
fn the_same_sweep_as_gm_finds_every_sentinel_over_discord() {
    let mut w = Sweep::seeded();
    let gm = w.gm.clone();
    // First luck and the log, before the sweep changes luck and pushes the seeded secret and
    // blind rolls out of the latest 25.
    for line in [
        "/luck show character:Alys",
        "/luck show character:Bram",
        "/history count:25",
    ] {
        w.send(&gm, line);
    }
    sweep_as(&mut w, &gm, false);
    w.barrier();
    // Everything the GM received: answers to the GM's interactions and the GM channel.
    let gm_channel = format!("/channels/{GM_CHANNEL_ID}/");
    let seen: HashSet<String> =
        w.s.fake
            .requests()
            .iter()
            .filter(|r| {
                r.route().starts_with(&gm_channel)
                    || token_of(r)
                        .and_then(|t| w.sent.get(t))
                        .is_some_and(|s| s.gm)
            })
            .flat_map(|r| sentinels_in(&readable(r)))
            .collect();
    let missing: Vec<&str> = WORD_SENTINELS
        .iter()
        .copied()
        .filter(|s| !SECRET_ROLL.contains(s) && !BLIND_ROLL.contains(s))
        .filter(|s| !seen.contains(*s))
        .collect();
    assert!(missing.is_empty(), "the GM never saw {missing:?}");
    for luck in [LUCK_ALYS, LUCK_BRAM] {
        assert!(
            seen.contains(&luck.to_string()),
            "the GM never saw the luck total {luck}"
        );
    }
    assert!(
        SECRET_ROLL.iter().any(|s| seen.contains(*s)),
        "no secret roll result"
    );
    assert!(
        BLIND_ROLL.iter().any(|s| seen.contains(*s)),
        "no blind roll result"
    );
}
