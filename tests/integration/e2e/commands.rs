//! Every command and subcommand of the registration, through Discord, with the reply checked.
//!
//! Owns the per-group scripts and the coverage test: each group declares the command paths it
//! runs ([`GROUPS`]) and fails when it ran any other set, and
//! [`every_registered_command_has_an_end_to_end_test`] fails when the declared paths are not
//! exactly the registration's leaves, so a new command without a test here fails the suite.
//! Never sleeps, never edits the harness: the helpers below take a `&Session`.

use std::cell::RefCell;
use std::collections::BTreeSet;

use serde_json::Value;

use super::{GM_CHANNEL_ID, Reply, Session, custom_ids, message_text};
use crate::fake::payload::Caller;

/// The command paths each group runs (`"tft save"`, `"roll"`…).
const GROUPS: &[(&str, &[&str])] = &[
    (
        "dice",
        &[
            "roll",
            "check",
            "odds thiz",
            "odds tft",
            "odds dice",
            "help",
            "history",
        ],
    ),
    (
        "characters",
        &[
            "character create",
            "character skill",
            "character gear",
            "character set",
            "character show",
            "character validate",
            "character list",
            "character use",
            "character export",
            "character delete",
            "character restore",
            "character approve",
            "character import",
            "gm setup",
        ],
    ),
    (
        "thiz",
        &[
            "character create",
            "character skill",
            "attack",
            "gm rules",
            "wound add",
            "wound heal",
            "wound rest",
            "wound surgery",
            "wound firstaid",
            "wound dying",
            "character show",
        ],
    ),
    (
        "maneuvers",
        &[
            "character create",
            "character gear",
            "gm rules",
            "maneuver grapple",
            "maneuver escape",
            "maneuver trip",
            "maneuver disarm",
            "maneuver sunder",
            "maneuver listen",
        ],
    ),
    (
        "hazards and magic",
        &[
            "character create",
            "character skill",
            "hazard fall",
            "hazard fire",
            "hazard water",
            "hazard suffocation",
            "hazard poison",
            "magic cast",
            "magic target",
            "magic terror",
            "magic learn",
            "character show",
        ],
    ),
    (
        "tft",
        &[
            "character create",
            "character set",
            "character gear",
            "character import",
            "tft save",
            "tft attack",
            "tft hth",
            "tft dying",
            "tft bash",
            "tft job",
            "tft condition",
            "tft heal",
            "tft stand",
            "tftkit pickup",
            "tft repair",
            "tftkit check",
            "tftkit gear",
            "tftkit actions",
            "tftkit miss",
            "tftkit cast",
            "tftkit staff",
            "tft reaction",
        ],
    ),
    (
        "tftref",
        &[
            "character create",
            "character set",
            "tftref study",
            "tftref called",
            "tftref spell",
            "tftref ski",
            "tftref mount",
            "tftref price",
            "tftref time",
        ],
    ),
    (
        "luck",
        &[
            "character create",
            "character skill",
            "check",
            "luck set",
            "luck show",
            "luck award",
            "luck spend",
            "luck log",
            "luck roll",
        ],
    ),
    (
        "movement",
        &[
            "character create",
            "character skill",
            "move rate",
            "move climb",
            "move travel",
            "move animal",
            "move spot",
            "move pilot",
            "move chase",
            "move near",
            "move collide",
            "move crash",
            "advance points",
            "advance spend",
            "advance train",
            "advance craft",
            "advance work",
            "advance sleepless",
        ],
    ),
    (
        "gm",
        &[
            "character create",
            "gm setup",
            "gm rules",
            "gm hidden",
            "gm note",
            "gm roll",
            "reveal",
            "history",
        ],
    ),
    (
        "roll requests",
        &["gm setup", "character create", "gm request", "gm check"],
    ),
    (
        "saved rolls",
        &[
            "gm setup",
            "alias set",
            "alias list",
            "alias show",
            "alias delete",
            "roll",
            "gm roll",
            "character create",
            "gm request",
        ],
    ),
    (
        "quick NPCs",
        &[
            "encounter start",
            "encounter add",
            "encounter show",
            "npc save",
            "npc list",
            "npc show",
            "npc delete",
        ],
    ),
    (
        "encounter",
        &[
            "character create",
            "character skill",
            "encounter start",
            "encounter add",
            "encounter next",
            "encounter undo",
            "encounter timer",
            "encounter declare",
            "encounter act",
            "encounter move",
            "encounter show",
            "encounter remove",
            "encounter end",
            "attack",
        ],
    ),
];

/// A session that remembers which command paths it ran.
pub struct Script<'s> {
    pub s: &'s Session,
    ran: RefCell<BTreeSet<String>>,
}

impl<'s> Script<'s> {
    pub fn new(s: &'s Session) -> Self {
        Self {
            s,
            ran: RefCell::new(BTreeSet::new()),
        }
    }

    /// Runs `line` as `caller` (see [`Session::run`]) and records its command path.
    pub fn run(&self, caller: &Caller, line: &str) -> Reply<'s> {
        self.ran.borrow_mut().insert(path_of(line));
        self.s.run(caller, line)
    }

    /// Runs `line` and returns the reply's text, asserting the bot answered with a message.
    pub fn text(&self, caller: &Caller, line: &str) -> String {
        let reply = self.run(caller, line);
        assert_eq!(reply.kind(), 4, "{line}: {}", reply.callback_body());
        reply.text()
    }

    /// Asserts that this script ran exactly the paths [`GROUPS`] declares for `group`.
    fn ran_exactly(&self, group: &str) {
        let declared: BTreeSet<String> = GROUPS
            .iter()
            .find(|(name, _)| *name == group)
            .unwrap_or_else(|| panic!("no group {group} in GROUPS"))
            .1
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        assert_eq!(
            *self.ran.borrow(),
            declared,
            "group {group} ran other commands than GROUPS declares for it"
        );
    }
}

/// The command path of a console-style line: `"/tft save attribute:12"` → `"tft save"`.
pub fn path_of(line: &str) -> String {
    referee::console::parse_line(line)
        .unwrap_or_else(|e| panic!("{line:?} is not a command line: {e}"))
        .path
        .join(" ")
}

/// Every leaf of the registered commands: a command, subcommand or group's subcommand.
pub fn leaves(commands: &[Value]) -> BTreeSet<String> {
    fn walk(prefix: &str, item: &Value, out: &mut BTreeSet<String>) {
        let name = item["name"].as_str().unwrap_or("?");
        let here = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix} {name}")
        };
        let subs: Vec<&Value> = item["options"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| o["type"] == 1 || o["type"] == 2)
            .collect();
        if subs.is_empty() {
            out.insert(here);
        } else {
            for sub in subs {
                walk(&here, sub, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    for command in commands {
        walk("", command, &mut out);
    }
    out
}

/// The integer right after the first `prefix` in `text` (a leading minus included).
pub fn number_after(text: &str, prefix: &str) -> i64 {
    let rest = text
        .split_once(prefix)
        .unwrap_or_else(|| panic!("no {prefix:?} in {text}"))
        .1;
    let digits: String = rest
        .chars()
        .enumerate()
        .take_while(|(i, c)| c.is_ascii_digit() || (*i == 0 && *c == '-'))
        .map(|(_, c)| c)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {prefix:?} in {text}"))
}

/// The reply is one short line only its caller sees: how a refusal looks.
pub fn assert_refusal(reply: &Reply, line: &str) {
    assert_eq!(reply.kind(), 4, "{line}: {}", reply.callback_body());
    assert!(reply.ephemeral(), "{line}: a refusal is ephemeral");
    let text = reply.content();
    assert!(
        !text.is_empty() && !text.contains('\n'),
        "{line}: a refusal is one line: {text:?}"
    );
    assert!(
        reply.data()["embeds"]
            .as_array()
            .is_none_or(std::vec::Vec::is_empty),
        "{line}: a refusal is plain text: {}",
        reply.callback_body()
    );
}

#[test]
fn every_registered_command_has_an_end_to_end_test() {
    let s = Session::start();
    let registered = leaves(s.commands());
    let declared: BTreeSet<String> = GROUPS
        .iter()
        .flat_map(|(_, paths)| paths.iter().map(|p| (*p).to_owned()))
        .collect();
    let untested: Vec<_> = registered.difference(&declared).collect();
    let unknown: Vec<_> = declared.difference(&registered).collect();
    assert!(
        untested.is_empty() && unknown.is_empty(),
        "commands registered without an end-to-end test: {untested:?}; \
         tested but not registered: {unknown:?}"
    );
    assert_eq!(
        declared.len(),
        registered.len(),
        "as many command paths exercised as registered"
    );
    assert!(registered.len() > 30, "{registered:?}");
}

/// The dice, the total and its parts: "3d6 (3, 5, 2) + 1" and "Total: **11**".
fn dice_and_total(text: &str) -> (Vec<i64>, i64) {
    let list = text
        .split_once("d6 (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .unwrap_or_else(|| panic!("no dice list in {text}"))
        .0;
    let dice = list
        .split(',')
        .map(|d| {
            d.trim()
                .parse()
                .unwrap_or_else(|_| panic!("a die {d:?} in {text}"))
        })
        .collect();
    (dice, number_after(text, "Total: **"))
}

/// An odds reply's chart: one PNG file in the multipart body, named in the message's
/// attachments, beside the embed that keeps the numbers in words.
fn assert_odds_chart(files: &[crate::fake::File], data: &Value) {
    assert_eq!(files.len(), 1, "one chart: {data}");
    let chart = &files[0];
    assert_eq!(chart.filename.as_deref(), Some("odds.png"));
    assert!(
        chart.bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "a PNG: {:?}",
        &chart.bytes[..chart.bytes.len().min(8)]
    );
    assert!(chart.bytes.len() < 60_000, "{} bytes", chart.bytes.len());
    assert_eq!(data["attachments"][0]["filename"], "odds.png", "{data}");
    assert!(
        data["embeds"][0]["fields"]
            .as_array()
            .is_some_and(|f| f.len() >= 5)
    );
}

#[test]
fn dice_odds_help_and_history() {
    let s = Session::start();
    let x = Script::new(&s);
    let alys = s.player(10);

    let reply = x.run(&alys, "/roll expression:3d6+2 label:stats");
    assert!(!reply.ephemeral(), "a public roll");
    let text = reply.text();
    assert!(text.contains("3d6+2"), "{text}");
    let (dice, total) = dice_and_total(&text);
    assert_eq!(dice.len(), 3, "{text}");
    assert!(dice.iter().all(|d| (1..=6).contains(d)), "{text}");
    assert!((5..=20).contains(&total), "{text}");
    assert_eq!(total, dice.iter().sum::<i64>() + 2, "{text}");

    let text = x.text(&alys, "/check rating:4 modifier:-1");
    assert!(text.contains("rating 4 check"), "{text}");
    let d100 = number_after(&text, "Roll: d100: ");
    assert!((1..=100).contains(&d100), "{text}");
    assert!(
        ["Black", "Red", "Yellow", "Green", "Failure"]
            .iter()
            .any(|level| text.contains(&format!("**{level}"))),
        "a THIZ level: {text}"
    );

    let odds = x.run(&alys, "/odds thiz rating:4");
    assert_eq!(odds.kind(), 4, "{}", odds.callback_body());
    assert_odds_chart(&odds.callback.files, odds.data());
    let text = odds.text();
    for level in ["Black", "Red", "Yellow", "Green", "Failure"] {
        assert!(
            text.contains(&format!("{level}: ")),
            "the odds name {level}: {text}"
        );
    }
    assert!(text.contains("rating 4"), "{text}");
    assert!(text.contains("Any success: 66%"), "{text}");

    let odds = x.run(&alys, "/odds tft target:12 dice:3");
    assert_odds_chart(&odds.callback.files, odds.data());
    let text = odds.text();
    assert!(text.contains("3 dice against adjDX 12"), "{text}");
    assert!(text.contains("Hits **74.07%**"), "{text}");

    // The dice language as players of Avrae and Dice Maiden type it, and its exact odds.
    let text = x.text(
        &alys,
        "/roll expression:\"(Axe) 1d20+5 ! at the troll; 6 4d6 k3\"",
    );
    assert!(text.contains("read as `1d20 + 5; 6 4d6kh3`"), "{text}");
    assert!(
        text.contains("**Axe**") && text.contains("*at the troll*"),
        "{text}"
    );
    assert!(text.contains("6. 4d6kh3 ("), "six sets, one a line: {text}");
    let odds = x.run(&alys, "/odds dice expression:2d6 at:7");
    let files = &odds.callback.files;
    assert_eq!(files.len(), 1, "one chart");
    assert_eq!(files[0].filename.as_deref(), Some("odds.png"));
    assert!(files[0].bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let text = odds.text();
    assert!(text.contains("Odds of `2d6`"), "{text}");
    assert!(text.contains("16.67%") && text.contains("58.33%"), "{text}");
    let refused = x.run(&alys, "/odds dice expression:\"1d20; 2d6\"");
    assert!(refused.ephemeral(), "a refusal is for the asker only");

    // /help opens on the start page; its buttons turn the same message to each family's page,
    // and between them the pages name every registered command.
    let help = x.run(&alys, "/help");
    assert!(help.ephemeral(), "help answers the asker only");
    let mut text = help.text();
    assert!(text.contains("start here"), "{text}");
    let message = help.message();
    let pages: Vec<String> = help
        .custom_ids()
        .into_iter()
        .filter(|id| id.starts_with("help:") && id != "help:start")
        .collect();
    assert!(pages.len() >= 7, "a button per family: {pages:?}");
    for id in &pages {
        let page = s.press(&alys, &message, id);
        assert_eq!(page.kind(), 7, "{id} turns the help message in place");
        text.push_str(&page.text());
    }
    for command in s.commands() {
        let name = command["name"].as_str().expect("a name");
        assert!(
            text.contains(&format!("`/{name}")),
            "help lists /{name}: {text}"
        );
    }
    let text = x.text(&alys, "/help command:roll");
    assert!(text.contains("/roll expression [mode] [label]"), "{text}");
    assert!(text.contains("**Keep/drop**"), "the dice page: {text}");
    let text = x.text(&alys, "/help command:\"tft attack\"");
    assert!(text.contains("adjust (optional)"), "{text}");

    let text = x.text(&alys, "/history");
    assert!(
        text.contains("roll · public · “stats”: `3d6 + 2` → **")
            && text.contains(&format!("**{total}**")),
        "the log has the roll and its total: {text}"
    );
    assert!(text.contains("check · public"), "{text}");
    x.ran_exactly("dice");
}

/// A delete asks first, with a button (issue 32); the press deletes, tells the GM channel, and a
/// GM can bring the character back. Ends with Alys deleted again, for the import.
fn delete_restore_and_delete_again(s: &Session, x: &Script<'_>, alys: &Caller, bram: &Caller) {
    let gm = s.gm(1);
    x.text(&gm, &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"));
    let asked = x.run(alys, "/character delete name:Alys");
    assert!(asked.ephemeral(), "{}", asked.callback_body());
    assert!(asked.text().contains("Delete Alys?"), "{}", asked.text());
    let text = x.text(alys, "/character list");
    assert!(text.contains("Alys"), "asking deletes nothing: {text}");
    let confirm = asked
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("chardel:") && !id.ends_with(":keep"))
        .unwrap_or_else(|| panic!("a delete button: {}", asked.callback_body()));
    let stranger = s.press(bram, &asked.message(), &confirm);
    assert!(stranger.ephemeral(), "{}", stranger.callback_body());
    assert!(
        stranger.text().contains("belongs to another player"),
        "{}",
        stranger.text()
    );
    let pressed = s.press(alys, &asked.message(), &confirm);
    assert_eq!(
        pressed.kind(),
        7,
        "the press answers by updating its message: {}",
        pressed.callback_body()
    );
    let done = message_text(pressed.followup(0).body());
    assert!(
        done.contains("Deleted Alys") && done.contains("The GM channel was told"),
        "{done}"
    );
    let told = message_text(pressed.channel_message(GM_CHANNEL_ID).body());
    assert!(told.contains("deleted Alys"), "{told}");
    let text = x.text(alys, "/character list");
    assert!(!text.contains("Alys"), "deleted: {text}");
    let text = x.text(&gm, "/character list");
    assert!(
        text.contains("Alys · deleted by"),
        "a GM sees what is kept: {text}"
    );
    let text = x.text(&gm, "/character restore name:Alys");
    assert!(text.contains("Restored Alys"), "{text}");
    let text = x.text(alys, "/character show name:Alys");
    assert!(
        text.contains("Skills: Swimming 4"),
        "restored as it was: {text}"
    );
    let asked = x.run(alys, "/character delete name:Alys");
    let confirm = asked
        .custom_ids()
        .into_iter()
        .next()
        .expect("a delete button");
    let pressed = s.press(alys, &asked.message(), &confirm);
    assert_eq!(pressed.kind(), 7, "{}", pressed.callback_body());
}

#[test]
fn character_sheets_from_create_to_import() {
    let s = Session::start();
    let x = Script::new(&s);
    let alys = s.player(10);
    let bram = s.player(20);

    let created = x.run(&alys, "/character create name:Alys system:thiz");
    assert!(!created.ephemeral(), "{}", created.callback_body());
    let text = created.text();
    assert!(
        text.contains("Alys is ready") && text.contains("THIZ"),
        "{text}"
    );
    x.text(&bram, "/character create name:Bram system:tft");

    let text = x.text(&alys, "/character skill name:Alys skill:Swimming rating:4");
    assert!(text.contains("Alys: Swimming is now 4"), "{text}");
    let text = x.text(
        &alys,
        "/character gear name:Alys action:add item:Sword kind:weapon attack_bonus:4",
    );
    assert!(text.contains("Alys now carries Sword"), "{text}");
    let text = x.text(
        &alys,
        "/character set name:Alys field:notes value:\"Sings badly\"",
    );
    assert!(text.contains("notes is now Sings badly"), "{text}");

    let text = x.text(&alys, "/character show name:Alys");
    for field in [
        "Alys",
        "Skills: Swimming 4",
        "Equipment: Sword (weapon, +4 attack)",
        "Notes: Sings badly",
        "THIZ character",
    ] {
        assert!(text.contains(field), "the sheet shows {field:?}: {text}");
    }
    let text = x.text(&alys, "/character validate name:Alys");
    assert!(
        text.contains("Alys") && text.contains("problems to fix"),
        "{text}"
    );

    // Issue 57: a GM approves Bram's sheet; then his player's ST is held (refused, changing
    // nothing) while his notes are not; the GM takes the approval back and ST is his again.
    let gm = s.gm(1);
    let text = x.text(&gm, "/character approve name:Bram");
    assert!(text.contains("Bram's sheet is approved"), "{text}");
    assert_refusal(
        &x.run(&bram, "/character set name:Bram field:st value:14"),
        "ST of an approved sheet",
    );
    let text = x.text(&bram, "/character set name:Bram field:notes value:Tall");
    assert!(text.contains("notes is now Tall"), "{text}");
    let text = x.text(&gm, "/character approve name:Bram undo:true");
    assert!(text.contains("no longer approved"), "{text}");
    let text = x.text(&bram, "/character set name:Bram field:st value:14");
    assert!(text.contains("st is now 14"), "{text}");

    // Issue 59: a chosen character is the one a command without a name takes.
    let text = x.text(&alys, "/character use name:Alys");
    assert!(text.contains("You now act as Alys in THIZ"), "{text}");
    assert_refusal(
        &x.run(&alys, "/character use name:Bram"),
        "belongs to another player",
    );

    let listed = x.run(&alys, "/character list");
    let text = listed.text();
    assert!(text.contains("Alys · THIZ (yours)"), "{text}");
    assert!(text.contains("Bram · TFT"), "{text}");

    let export = x.run(&alys, "/character export name:Alys");
    assert_eq!(export.kind(), 4, "{}", export.callback_body());
    let file = export
        .callback
        .files
        .first()
        .unwrap_or_else(|| panic!("export attaches a file: {}", export.callback_body()));
    let filename = file.filename.clone().unwrap_or_default();
    assert!(
        std::path::Path::new(&filename)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json")),
        "a .json file: {filename:?}"
    );
    let json: Value = serde_json::from_slice(&file.bytes).expect("the exported file is JSON");
    assert_eq!(json["format"], "referee-character", "{json}");
    assert_eq!(json["name"], "Alys", "the file names the character: {json}");
    assert_eq!(json["skills"][0]["skill"], "Swimming", "{json}");
    assert!(json.get("luck").is_none(), "no luck in an export: {json}");

    delete_restore_and_delete_again(&s, &x, &alys, &bram);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(&filename);
    std::fs::write(&path, &file.bytes).expect("write the exported file");
    let text = x.text(&alys, &format!("/character import file:{}", path.display()));
    assert!(text.contains("Imported Alys"), "{text}");
    assert!(
        text.contains("no luck points"),
        "a file brings no luck: {text}"
    );
    let text = x.text(&alys, "/character show name:Alys");
    assert!(
        text.contains("Skills: Swimming 4") && text.contains("Notes: Sings badly"),
        "the imported sheet is the exported one: {text}"
    );
    x.ran_exactly("characters");
}

#[test]
fn thiz_maneuvers() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, bram) = (s.player(10), s.player(20));
    x.text(&alys, "/character create name:Alys system:thiz");
    x.text(&bram, "/character create name:Bram system:thiz");
    x.text(
        &alys,
        "/character gear name:Alys action:add item:Sword kind:weapon attack_bonus:3",
    );
    x.text(
        &bram,
        "/character gear name:Bram action:add item:Dagger kind:weapon attack_bonus:1",
    );
    // Issue 57: outside a fight, refused until the table allows players to strike each other.
    assert_refusal(
        &x.run(&alys, "/maneuver grapple attacker:Alys target:Bram"),
        "a grapple of another player's character outside a fight",
    );
    x.text(
        &s.gm(1),
        "/gm rules name:players_strike_anywhere value:true",
    );
    for (line, title) in [
        (
            "/maneuver grapple attacker:Alys target:Bram",
            "Alys tries to grapple Bram",
        ),
        (
            "/maneuver trip attacker:Alys target:Bram weapon:Sword",
            "Alys tries to trip Bram",
        ),
        (
            "/maneuver disarm attacker:Alys target:Bram weapon:Sword",
            "Alys tries to disarm Bram",
        ),
        (
            "/maneuver sunder attacker:Alys target:Bram weapon:Sword item:Dagger",
            "Alys tries to sunder Bram",
        ),
        (
            "/maneuver listen character:Alys distance:10",
            "Alys listens",
        ),
    ] {
        let reply = x.run(&alys, line);
        assert!(!reply.ephemeral(), "{line}: a maneuver is public");
        let text = reply.text();
        assert!(
            text.contains(title) && text.contains("d100: "),
            "{line}: {text}"
        );
    }
    // The escape is measured against the grapple above: it either needs beating or there was
    // none to escape (when the grapple failed).
    let reply = x.run(
        &bram,
        "/maneuver escape character:Bram holder:Alys how:break",
    );
    let text = reply.text();
    assert!(
        text.contains("Bram tries to escape Alys") || text.contains("holds no grapple on Bram"),
        "{text}"
    );
    // Another player's character cannot act.
    let refused = x.run(&bram, "/maneuver grapple attacker:Alys target:Bram");
    super::commands::assert_refusal(&refused, "grapple as someone else");
    x.ran_exactly("maneuvers");
}

#[test]
fn thiz_attacks_and_wounds() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, bram, gm) = (s.player(10), s.player(20), s.gm(1));
    x.text(&alys, "/character create name:Alys system:thiz");
    x.text(&bram, "/character create name:Bram system:thiz");
    x.text(&bram, "/character skill name:Bram skill:Toughness rating:3");
    // Alys strikes Bram outside a fight: refused, until the table allows it (issue 57).
    super::commands::assert_refusal(
        &x.run(&alys, "/attack attacker:Alys target:Bram"),
        "a player's attack on another's character outside a fight",
    );
    x.text(&gm, "/gm rules name:players_strike_anywhere value:true");

    let attack = x.run(&alys, "/attack attacker:Alys target:Bram");
    assert!(!attack.ephemeral(), "an attack is public");
    let text = attack.text();
    assert!(text.contains("Alys attacks Bram"), "{text}");
    let d100 = number_after(&text, "d100: ");
    assert!((1..=100).contains(&d100), "{text}");

    let text = x.text(&gm, "/wound add character:Bram location:head level:red");
    assert!(
        text.contains("Bram is wounded") && text.contains("A Red wound on the Head"),
        "{text}"
    );
    let text = x.text(&bram, "/character show name:Bram");
    // The attack may have wounded Bram too, so the head may list more colours after the worst.
    let head = text
        .lines()
        .find_map(|l| l.split_once("Head: ").map(|(_, colours)| colours));
    assert!(
        head.is_some_and(|colours| colours.split(", ").any(|c| c == "Red")),
        "the sheet has the wound, in /wound's words: {text}"
    );
    let text = x.text(&gm, "/wound heal character:Bram location:head");
    assert!(
        text.contains("Bram is healed") && text.contains("The Red wound on the Head is healed"),
        "{text}"
    );
    // The attack may have left Bram dying (a Black on the chest), and the dying cannot rest: heal
    // every wound first, which also ends any condition.
    x.text(&gm, "/wound heal character:Bram");
    x.text(
        &gm,
        "/wound add character:Bram location:\"left arm\" level:yellow",
    );
    let rest = x.run(&bram, "/wound rest character:Bram days:3");
    let text = rest.text();
    assert!(text.contains("Bram rests"), "{text}");
    assert!(
        text.contains("Toughness 3") && text.contains("Day 1: ") && text.contains("Wounds now: "),
        "{text}"
    );

    // A Black on the chest: Bram is dying. The dice are the bot's own, so each step may end
    // Bram's dying (Surgery can heal the Black, First Aid stabilise): what each reply says is
    // checked, not which outcome it had.
    let text = x.text(&gm, "/wound add character:Bram location:chest level:black");
    assert!(text.contains("Incapacitated: dying."), "{text}");
    let text = x.text(&alys, "/wound surgery character:Bram surgeon:Alys");
    assert!(text.contains("Alys operates on Bram"), "{text}");
    let text = x.text(&alys, "/wound firstaid character:Bram healer:Alys");
    assert!(
        text.contains("Bram") && text.contains("First Aid"),
        "{text}"
    );
    let text = x.text(&bram, "/wound dying character:Bram");
    assert!(
        text.contains("Bram: dying check")
            || text.contains("Bram is stable and not dying")
            || text.contains("Bram is not dying"),
        "{text}"
    );
    x.ran_exactly("thiz");
}

#[test]
fn thiz_hazards_and_magic() {
    let s = Session::start();
    let x = Script::new(&s);
    let (mira, bram) = (s.player(10), s.player(20));
    x.text(&mira, "/character create name:Mira system:thiz");
    x.text(
        &mira,
        "/character skill name:Mira skill:Necromancy rating:5",
    );

    let fall = x.run(&mira, "/hazard fall character:Mira height:10");
    assert!(!fall.ephemeral(), "a hazard is public by default");
    let text = fall.text();
    assert!(
        text.contains("Mira falls 10 feet") && text.contains("No harm"),
        "{text}"
    );
    let text = x.text(&mira, "/hazard fire character:Mira rating:15 location:head");
    assert!(text.contains("Mira is caught by fire"), "{text}");
    let d100 = number_after(&text, "d100: ");
    assert!((1..=100).contains(&d100), "{text}");
    let text = x.text(&mira, "/hazard water character:Mira water:10 mode:self");
    assert!(text.contains("Mira in the water"), "{text}");
    let text = x.text(&mira, "/hazard suffocation character:Mira turn:1");
    assert!(text.contains("Turn 1 without air"), "{text}");
    let text = x.text(
        &mira,
        "/hazard poison character:Mira wound:green duration:5 unit:minutes",
    );
    assert!(text.contains("Mira is poisoned"), "{text}");
    // Necromancy always costs a Green wound, here on the left leg; the sheet shows it.
    let text = x.text(
        &mira,
        "/magic cast character:Mira skill:Necromancy level:red location:\"left leg\"",
    );
    assert!(text.contains("Necromancy takes its toll"), "{text}");
    let text = x.text(&mira, "/character show name:Mira");
    assert!(text.contains("Left Leg: "), "{text}");
    let text = x.text(
        &mira,
        "/magic target use:reiki_heal target:Mira character:Mira",
    );
    assert!(
        // The hazards above may have left Mira dying; then she cannot act.
        text.contains("Mira turns Reiki on Mira")
            || text.contains("cannot check")
            || text.contains("cannot act"),
        "{text}"
    );
    let text = x.text(&mira, "/magic terror character:Mira level:yellow");
    assert!(text.contains("Mira witnesses magic"), "{text}");
    let text = x.text(
        &mira,
        "/magic learn character:Mira skill:Insight tutor_rating:7",
    );
    assert!(text.contains("= 180 days"), "{text}");
    let refused = x.run(&bram, "/hazard fall character:Mira height:40");
    assert_refusal(&refused, "another player's character");
    x.ran_exactly("hazards and magic");
}

#[test]
fn thiz_movement_and_time_between_adventures() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, gm) = (s.player(10), s.gm(1));
    x.text(&alys, "/character create name:Alys system:thiz");
    x.text(&alys, "/character skill name:Alys skill:Speed rating:12");
    let text = x.text(&alys, "/move rate");
    assert!(text.contains("Movement rating 12"), "{text}");
    let text = x.text(&alys, "/move climb height:150");
    assert!(text.contains("Alys: climbing 150 ft"), "{text}");
    let text = x.text(&alys, "/move travel speed:6 load:rider");
    assert!(text.contains("12 miles"), "{text}");
    assert!(
        x.text(&alys, "/move animal")
            .contains("commanding an animal")
    );
    assert!(x.text(&alys, "/move spot city:true").contains("Perception"));
    let text = x.text(&alys, "/move pilot skill:\"Pilot (Cart)\" speed:12");
    assert!(text.contains("Shooting from it: -12"), "{text}");
    let text = x.text(&alys, "/move chase first_speed:12 second_speed:10");
    assert!(text.contains("roll initiative"), "{text}");
    let text = x.text(&alys, "/move near skill:\"Pilot (Cart)\" other_rating:3");
    assert!(text.contains("The other pilot"), "{text}");
    let text = x.text(&alys, "/move collide kind:head_on speed:12 other_speed:8");
    assert!(text.contains("Collision at rating 20"), "{text}");
    let text = x.text(&alys, "/move crash vehicle_speed:15");
    assert!(text.contains("thrown about in a crash"), "{text}");

    let refused = x.run(&alys, "/advance points character:Alys heavy:1");
    assert_refusal(&refused, "/advance points as a player");
    let text = x.text(&gm, "/advance points character:Alys heavy:1");
    assert!(text.contains("6 unspent"), "{text}");
    let text = x.text(&alys, "/advance spend skill:Climbing");
    assert!(
        text.contains("learnt at 1") && text.contains("1 unspent"),
        "{text}"
    );
    let text = x.text(&alys, "/advance train study:special tutor:7");
    assert!(text.contains("60 days"), "{text}");
    let text = x.text(
        &alys,
        "/advance craft skill:\"Trade (Carpentry)\" target:1000",
    );
    assert!(text.contains("crafting"), "{text}");
    let text = x.text(&alys, "/advance work skill:\"Trade (Carpentry)\" weeks:2");
    assert!(text.contains("2 week(s) of work"), "{text}");
    let secret = x.run(&gm, "/advance sleepless character:Alys");
    assert!(secret.ephemeral(), "the countdown is the GM's");
    x.ran_exactly("movement");
}

#[test]
#[allow(clippy::too_many_lines)] // One script, read top to bottom: every /tft and /tftkit path.
fn tft_saves_attacks_hth_dying_bash_jobs_and_figures_that_fall() {
    let s = Session::start();
    let x = Script::new(&s);
    let alys = s.player(10);
    x.text(&alys, "/character create name:Tor system:tft");
    x.text(&alys, "/character create name:Ulf system:tft");
    for (field, value) in [
        ("st", "12"),
        ("dx", "11"),
        ("talents", "\"Sword, Shield\""),
        ("shield", "\"Small Shield\""),
        ("spells", "Light"),
    ] {
        let text = x.text(
            &alys,
            &format!("/character set name:Tor field:{field} value:{value}"),
        );
        assert!(text.contains(&format!("Tor: {field} is now")), "{text}");
    }
    let text = x.text(
        &alys,
        "/character gear name:Tor action:add item:Broadsword kind:weapon",
    );
    assert!(text.contains("Tor now carries Broadsword"), "{text}");

    let text = x.text(&alys, "/tft save attribute:st dice:3 character:Tor");
    assert!(
        text.contains("Tor: 3d against ST") && text.contains("Target: ST 12"),
        "{text}"
    );
    let total = number_after(&text, "Total: ");
    assert!((3..=18).contains(&total), "{text}");

    let text = x.text(&alys, "/tftkit check check:climb-rope character:Tor");
    assert!(
        text.contains("Tor: climb-rope (rope): 2d against DX"),
        "{text}"
    );

    let text = x.text(
        &alys,
        "/tftkit gear item:broadsword quality:fine character:Tor",
    );
    assert!(text.contains("Second weapon: Tor (ST 12) may"), "{text}");

    let text = x.text(
        &alys,
        "/tftkit actions first:3 second:4 take:2 character:Tor",
    );
    assert!(text.contains("Each attack: -4 ST, +1 dice"), "{text}");

    let text = x.text(&alys, "/tftkit miss character:Tor prior:1");
    assert!(text.contains("Tor rolls to miss"), "{text}");

    let text = x.text(
        &alys,
        "/tftkit cast spell:Light character:Tor kind:special st:1",
    );
    assert!(
        text.contains("Tor casts Light") && text.contains("Caster: pays 1 ST as fatigue: 12 → 11"),
        "{text}"
    );
    // Tor's staff (tft-rules-summary.md, MANA): the spell's ST from its mana, then refilled.
    x.text(&alys, "/character set name:Tor field:mana value:3");
    let text = x.text(
        &alys,
        "/tftkit cast spell:Light character:Tor kind:special st:1 mana:1",
    );
    assert!(
        text.contains("pays 1 ST from the staff's mana (3 → 2 stored) and 0 ST as fatigue"),
        "{text}"
    );
    let text = x.text(&alys, "/tftkit staff by:contemplation character:Tor");
    assert!(
        text.contains("1 point of mana put back by 1 half day of contemplation")
            && text.contains("Staff: 2 → 3 stored, of 3"),
        "{text}"
    );

    // A 17 drops and an 18 breaks the weapon that rolled it, so this attack takes a dagger from
    // the table (nothing carried to mark) and the Broadsword attack below always runs.
    let text = x.text(
        &alys,
        "/tft attack attacker:Tor target:Ulf weapon:dagger adjust:\"invisible, attackers:2\"",
    );
    assert!(
        text.contains("target invisible -6, 2 more attackers +2"),
        "{text}"
    );

    let text = x.text(&alys, "/tft attack attacker:Tor target:Ulf");
    assert!(text.contains("Tor attacks Ulf"), "{text}");
    assert!(text.contains("Weapon: Broadsword"), "{text}");
    let roll_line = text
        .lines()
        .find(|l| l.starts_with("Roll: 3d: "))
        .unwrap_or_else(|| panic!("a 3-dice roll: {text}"));
    let roll = number_after(roll_line, "= ");
    assert!((3..=18).contains(&roll), "{text}");

    let text = x.text(&alys, "/tft hth character:Tor");
    assert!(text.contains("Tor tries to enter HTH"), "{text}");
    assert!(text.contains("Roll: 2d: "), "{text}");

    let text = x.text(&alys, "/tft bash attacker:Tor target:Ulf");
    assert!(text.contains("Tor shield-bashes Ulf"), "{text}");
    assert!(text.contains("Against: Ulf's adjDX"), "{text}");

    let text = x.text(&alys, "/tft job job:Garrison character:Tor");
    assert!(text.contains("Tor: a week as Garrison"), "{text}");
    assert!(text.contains("Pay: $"), "{text}");
    let text = x.text(&alys, "/tft job job:thief character:Tor");
    assert!(
        text.contains("Tor: a week as a thief")
            && text.contains("Arrest (only after a disaster): 3d"),
        "{text}"
    );

    // Only a figure at 0 ST or below rolls to live; no command deals hits on demand, so the
    // dying figure comes from a sheet file with its hits taken.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("dyer.json");
    std::fs::write(
        &path,
        r#"{"format":"referee-character","version":1,"system":"tft","name":"Dyer","sheet":{"st":8},"hits":9}"#,
    )
    .expect("write a sheet file");
    let text = x.text(&alys, &format!("/character import file:{}", path.display()));
    assert!(text.contains("Imported Dyer"), "{text}");
    let text = x.text(&alys, "/tft dying character:Dyer helper:physicker");
    assert!(text.contains("Dyer fights for life"), "{text}");
    assert!(
        text.contains("**Lives**") || text.contains("**Dies**"),
        "{text}"
    );
    let roll = number_after(&text, "Roll: 2d: ");
    assert!((1..=6).contains(&roll), "{text}");

    // Figures that fall, heal and break: a GM's correction drops Ulf (ST 8) to 0 ST, so he
    // cannot attack; a potion (4 hits) wakes him; he stands before fighting again.
    let gm = s.gm(1);
    let text = x.text(&gm, "/tft condition character:Ulf hits:8 knocked_down:true");
    assert!(
        text.contains("Ulf set") && text.contains("Unconscious at 0 ST"),
        "{text}"
    );
    let text = x.text(&alys, "/tft attack attacker:Ulf target:Tor weapon:dagger");
    assert!(text.contains("Ulf is unconscious at 0 ST"), "{text}");
    let text = x.text(&gm, "/tft heal character:Ulf potions:1");
    assert!(
        text.contains("Ulf heals") && text.contains("Hits 8 → 4"),
        "{text}"
    );
    let text = x.text(&alys, "/tft stand character:Ulf");
    assert!(text.contains("Ulf stands up"), "{text}");
    // Tor's broadsword is dropped only on a 17; either way Alys gets a one-line answer.
    let text = x.text(&alys, "/tftkit pickup character:Tor");
    assert!(
        text.contains("Tor picks up the") || text.contains("Tor has dropped no weapon"),
        "{text}"
    );
    // Tor's broadsword breaks only on an 18; either way the GM gets a one-line answer.
    let text = x.text(&gm, "/tft repair character:Tor weapon:Broadsword");
    assert!(text.contains("Tor's Broadsword is"), "{text}");
    let text = x.text(&alys, "/tft reaction modifier:3");
    assert!(
        text.contains("Chances: Neutral 1/6, Friendly 1/6, Very friendly 4/6"),
        "{text}"
    );
    let text = x.text(&alys, "/tft hth character:Tor action:leave");
    assert!(
        text.contains("Tor: leave HTH") && text.contains("Roll: 4d: "),
        "{text}"
    );
    x.ran_exactly("tft");
}

#[test]
fn tftref_study_called_shots_and_spells() {
    let s = Session::start();
    let x = Script::new(&s);
    let alys = s.player(10);
    x.text(&alys, "/character create name:Tor system:tft");
    x.text(&alys, "/character set name:Tor field:talents value:Sword");
    // Fencing builds on Sword and needs an instructor.
    let text = x.text(
        &alys,
        "/tftref study talent:Fencing character:Tor instructor:true",
    );
    assert!(
        text.contains("Tor studies Fencing") && text.contains("May start now"),
        "{text}"
    );
    let text = x.text(&alys, "/tftref called area:leg hits:5");
    assert!(
        text.contains("Aim: -4 adjDX") && text.contains("leg is useless"),
        "{text}"
    );
    let text = x.text(&alys, "/tftref spell spell:Levitate distance:3");
    assert!(text.contains("Distance: -3 adjDX"), "{text}");
    let text = x.text(&alys, "/tftref ski character:Tor multiple:3");
    assert!(
        text.contains("Tor on skis") && text.contains("A fall: 1d-1"),
        "{text}"
    );
    let text = x.text(&alys, "/tftref mount st:20 ma:24 dx:10 load:100 straight:9");
    assert!(text.contains("Melee damage: +2"), "{text}");
    let text = x.text(&alys, "/tftref price magic:\"Fireball rod\" points:3");
    assert!(text.contains("$1800 for 3 points"), "{text}");
    let text = x.text(&alys, "/tftref time action:remove-trap");
    assert!(text.contains("12 rounds (1 minute)"), "{text}");
    x.ran_exactly("tftref");
}

#[test]
fn luck_from_set_to_log() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, gm) = (s.player(10), s.gm(1));
    x.text(&alys, "/character create name:Alys system:thiz");
    x.text(&alys, "/character skill name:Alys skill:Swimming rating:4");

    let set = x.run(&gm, "/luck set character:Alys points:7");
    assert!(set.ephemeral(), "luck is the GM's secret");
    assert!(
        set.text().contains("Alys now has 7 luck points"),
        "{}",
        set.text()
    );
    let text = x.text(&gm, "/luck show character:Alys");
    assert!(text.contains("Alys has 7 luck points"), "{text}");
    let text = x.text(&gm, "/luck award character:Alys points:2");
    assert!(text.contains("Alys now has 9 luck points"), "{text}");

    let check = x.run(&alys, "/check skill:Swimming character:Alys");
    assert!(
        check.text().contains("Alys: Swimming check"),
        "{}",
        check.text()
    );
    assert!(
        check
            .custom_ids()
            .iter()
            .any(|id| id.starts_with("luck:reroll:")),
        "a check offers its owner the reroll button: {:?}",
        check.custom_ids()
    );
    let spend = x.run(&alys, "/luck spend kind:reroll character:Alys");
    let text = spend.text();
    assert!(
        text.contains("Alys: Swimming rerolled") && text.contains("Luck spent"),
        "{text}"
    );
    assert!(
        !text.contains("luck point"),
        "the player is not told the total: {text}"
    );
    let text = x.text(&gm, "/luck show character:Alys");
    assert!(text.contains("Alys has 8 luck points"), "one spent: {text}");

    // The same spend through the check's own button: the press takes the buttons away and the
    // result follows.
    let check = x.run(&alys, "/check skill:Swimming character:Alys");
    let id = check
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("luck:reroll:"))
        .unwrap_or_else(|| panic!("a reroll button: {}", check.callback_body()));
    let pressed = s.press(&alys, &check.message(), &id);
    assert_eq!(pressed.kind(), 7, "{}", pressed.callback_body());
    let result = message_text(pressed.followup(0).body());
    assert!(result.contains("Alys: Swimming rerolled"), "{result}");
    let text = x.text(&gm, "/luck show character:Alys");
    assert!(text.contains("Alys has 7 luck points"), "two spent: {text}");

    let text = x.text(&gm, "/luck log character:Alys");
    assert!(text.contains("Alys's luck ledger"), "{text}");
    assert!(text.contains("+2 → 9 · awarded"), "{text}");
    assert!(text.contains("-1 → 8 · spent: reroll"), "{text}");
    assert!(text.contains("-1 → 7 · spent: reroll"), "{text}");

    let text = x.text(&gm, "/luck roll character:Alys");
    let rolled = number_after(&text, "for Alys's luck: ");
    assert!((1..=10).contains(&rolled), "1d10: {text}");
    let text = x.text(&gm, "/luck show character:Alys");
    assert!(
        text.contains(&format!("Alys has {rolled} luck point")),
        "the roll is the new total: {text}"
    );
    x.ran_exactly("luck");
}

#[test]
fn gm_tools_secret_rolls_and_reveal() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, gm) = (s.player(10), s.gm(1));
    x.text(&alys, "/character create name:Alys system:thiz");

    let text = x.text(
        &gm,
        &format!("/gm setup gm_channel:{GM_CHANNEL_ID} system:tft"),
    );
    assert!(text.contains("Settings saved"), "{text}");
    assert!(text.contains(&GM_CHANNEL_ID.to_string()), "{text}");
    assert!(text.contains("Default system: tft"), "{text}");

    let text = x.text(&gm, "/gm rules");
    assert!(text.contains("tft_house_rules: on"), "{text}");
    let text = x.text(&gm, "/gm rules name:tft_house_rules value:false");
    assert!(text.contains("tft_house_rules is now off"), "{text}");
    let text = x.text(&gm, "/gm rules");
    assert!(text.contains("tft_house_rules: off"), "{text}");

    let text = x.text(&gm, "/gm hidden character:Alys key:sleepless value:9");
    assert!(text.contains("Hidden sleepless on Alys is now 9"), "{text}");
    let text = x.text(&gm, "/gm hidden character:Alys key:sleepless");
    assert!(text.contains("Hidden sleepless on Alys: 9"), "{text}");
    let text = x.text(&gm, "/gm note character:Alys text:\"Owes the guild\"");
    assert!(text.contains("Noted on Alys"), "{text}");
    let text = x.text(&gm, "/gm note character:Alys");
    assert!(text.contains("1. Owes the guild"), "{text}");

    let secret = x.run(&gm, "/gm roll expression:1d2+424200 label:ambush");
    assert!(!secret.ephemeral(), "the commitment is public");
    let public = secret.text();
    assert!(
        !public.contains("42420"),
        "the result stays secret: {public}"
    );
    let number = number_after(&public, "Roll #");
    let commitment = public
        .split_once("Commitment: `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map_or_else(
            || panic!("no commitment in {public}"),
            |(hex, _)| hex.to_owned(),
        );
    assert_eq!(commitment.len(), 64, "a SHA-256 in hex: {commitment}");
    let copy = message_text(secret.channel_message(GM_CHANNEL_ID).body());
    let total = number_after(&copy, "Total: **");
    assert!((424_201..=424_202).contains(&total), "{copy}");

    let revealed = x.run(&gm, &format!("/reveal roll:{number}"));
    assert!(!revealed.ephemeral(), "a reveal is public");
    let text = revealed.text();
    assert!(
        text.contains(&format!("Secret roll #{number} revealed")),
        "{text}"
    );
    assert!(text.contains(&format!("Total: **{total}**")), "{text}");
    assert!(text.contains(&commitment), "the same commitment: {text}");

    let text = x.text(&gm, "/history");
    assert!(
        text.contains(&format!("**#{number}**")) && text.contains("(revealed)"),
        "{text}"
    );

    // Discord's channel picker cannot say "none": `clear:` forgets the GM channel.
    let text = x.text(&gm, "/gm setup clear:gm_channel");
    assert!(text.contains("Settings saved"), "{text}");
    assert!(text.contains("GM channel: none"), "{text}");
    assert!(!text.contains(&GM_CHANNEL_ID.to_string()), "{text}");
    x.ran_exactly("gm");
}

/// The values an autocomplete answer offers (each choice types its own name).
fn offered(choices: &[Value]) -> Vec<String> {
    choices
        .iter()
        .map(|c| {
            assert_eq!(c["name"], c["value"], "a suggestion types the value itself");
            c["name"].as_str().expect("a name").to_owned()
        })
        .collect()
}

/// Saved rolls through Discord: a player's and the server's, `/roll attack+2` rolling the saved
/// expression with the tail, the expression and name menus, a player refused the server's, a
/// secret roll that names its saved roll to the GM channel alone, a roll request's press rolling
/// the presser's own, and a deleted one gone.
#[test]
fn saved_rolls_are_set_rolled_offered_listed_and_deleted() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, gm) = (s.player(10), s.gm(1));
    x.text(&gm, &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"));

    let set = x.run(&alys, "/alias set name:attack expression:1d20+5");
    assert!(set.ephemeral(), "a player's saved rolls are theirs");
    assert!(set.text().contains("Saved attack"), "{}", set.text());
    let text = x.text(&gm, "/alias set name:init expression:1d20+2 server:true");
    assert!(text.contains("for the whole server"), "{text}");

    let reply = x.run(&alys, "/roll expression:attack+2");
    assert!(!reply.ephemeral(), "a public roll");
    let text = reply.text();
    assert!(text.contains("attack → `1d20+5+2`"), "{text}");
    let die = number_after(&text, "1d20 (");
    assert!((1..=20).contains(&die), "{text}");
    assert_eq!(number_after(&text, "Total: **"), die + 7, "{text}");

    let names = offered(&s.autocomplete(&alys, "/roll expression:AT", "expression"));
    assert_eq!(names, ["attack"]);
    let names = offered(&s.autocomplete(&alys, "/roll expression:in", "expression"));
    assert_eq!(names, ["init"]);
    let recent = offered(&s.autocomplete(&alys, "/roll expression:1d20", "expression"));
    let squeezed: Vec<String> = recent.iter().map(|r| r.replace(' ', "")).collect();
    assert_eq!(
        squeezed,
        ["1d20+5+2"],
        "the roll just made, as logged: {recent:?}"
    );
    let names = offered(&s.autocomplete(&alys, "/alias show name:i", "name"));
    assert_eq!(names, ["init"]);
    let names = offered(&s.autocomplete(&alys, "/alias delete name:i", "name"));
    assert!(
        names.is_empty(),
        "a player deletes none of the server's: {names:?}"
    );

    let text = x.text(&alys, "/alias list");
    assert!(
        text.contains("**attack**: `1d20+5`") && text.contains("**init**: `1d20+2`"),
        "{text}"
    );
    let text = x.text(&alys, "/alias show name:init");
    assert!(text.contains("init (the server's): `1d20+2`"), "{text}");

    let line = "/alias set name:init expression:1d20+20 server:true";
    assert_refusal(&x.run(&alys, line), line);
    let line = "/alias set name:d20 expression:1d20";
    let refused = x.run(&alys, line);
    assert_refusal(&refused, line);
    assert!(
        refused.text().contains("reads as dice"),
        "{}",
        refused.text()
    );

    let secret = x.run(&gm, "/gm roll expression:init+1");
    let public = secret.text();
    assert!(
        !public.contains("init") && !public.contains("1d20"),
        "the channel sees the commitment only: {public}"
    );
    let copy = message_text(secret.channel_message(GM_CHANNEL_ID).body());
    assert!(copy.contains("init → `1d20+2+1`"), "{copy}");

    // A roll request for dice: Alys's press rolls her own saved roll.
    x.text(&alys, "/character create name:Gala system:thiz");
    let request = x.run(&gm, "/gm request characters:Gala expression:attack+1");
    assert!(
        request
            .text()
            .contains("Roll request: a roll of `attack+1`"),
        "{}",
        request.text()
    );
    let button = request.custom_ids()[0].clone();
    let press = s.press(&alys, &request.message(), &button);
    assert_eq!(press.kind(), 7, "the press rewrites the request");
    assert!(press.text().contains("Rolled: Gala"), "{}", press.text());
    let text = message_text(press.followup(0).body());
    assert!(text.contains("attack → `1d20+5+1`"), "{text}");

    let text = x.text(&alys, "/alias delete name:attack");
    assert!(text.contains("Deleted attack"), "{text}");
    let line = "/roll expression:attack";
    assert_refusal(&x.run(&alys, line), line);
    x.ran_exactly("saved rolls");
}

/// Quick NPCs and the bestiary through Discord (issue 59): three bandits made in one line, the
/// channel told who joined and the GM alone, in an ephemeral follow-up, what their sheet holds
/// (a skill of 27, a weapon's +7: sentinels); the bestiary saved, listed and shown to the GM,
/// refused to a player, and copied into the fight; a bad line refused, making nothing.
#[test]
fn quick_npcs_join_in_one_line_and_the_bestiary_keeps_them() {
    let s = Session::start();
    let x = Script::new(&s);
    let (alys, gm) = (s.player(10), s.gm(1));
    x.text(&gm, "/encounter start surprise:none");
    let line = r#"/encounter add name:Bandit count:3 skills:"Speed 13, Weapon Skill (Sword) 27" weapon:"Sword +7""#;
    let add = x.run(&gm, line);
    assert!(!add.ephemeral(), "the channel sees who joined");
    let text = add.text();
    assert!(
        text.contains("Bandit 1 joins the foes.") && text.contains("Bandit 3 joins the foes."),
        "{text}"
    );
    for secret in ["27", "Speed 13", "+7"] {
        assert!(!text.contains(secret), "{secret} in the channel: {text}");
    }
    let note = add.followup(0);
    assert_eq!(
        note.body()["flags"].as_u64().map(|f| f & 64),
        Some(64),
        "the sheet's numbers come to the GM alone: {}",
        note.body()
    );
    let note = message_text(note.body());
    assert!(
        note.contains("27") && note.contains("Sword (weapon, +7)"),
        "{note}"
    );

    let line = r#"/encounter add name:Thug skills:"Sped 4""#;
    assert_refusal(&x.run(&gm, line), line);
    let line = "/npc list";
    assert_refusal(&x.run(&alys, line), line);
    let line = "/npc show name:Bandit";
    let refused = x.run(&alys, line);
    assert_refusal(&refused, line);
    assert!(!refused.text().contains("27"), "{}", refused.text());

    let saved = x.run(&gm, "/npc save name:Raider character:Bandit");
    assert!(saved.ephemeral(), "the bestiary is the GM's");
    assert!(
        saved.text().contains("The bestiary now keeps Raider"),
        "{}",
        saved.text()
    );
    let list = x.run(&gm, "/npc list");
    assert!(list.ephemeral());
    assert!(list.text().contains("**Raider** (THIZ)"), "{}", list.text());
    let shown = x.run(&gm, "/npc show name:raider");
    assert!(shown.ephemeral());
    assert!(shown.text().contains("27"), "{}", shown.text());

    let text = x.text(&gm, "/encounter add npc:Raider count:2");
    assert!(
        text.contains("Raider 1 joins the foes.") && text.contains("Raider 2 joins the foes."),
        "{text}"
    );
    let status = x.text(&alys, "/encounter show");
    assert!(
        status.contains("Raider 2") && status.contains("Bandit 1"),
        "{status}"
    );
    for secret in ["27", "Speed 13", "+7"] {
        assert!(
            !status.contains(secret),
            "{secret} in a player's status: {status}"
        );
    }
    // The bestiary forgets it; the copies in the fight stay; a second delete is refused.
    let gone = x.run(&gm, "/npc delete name:Raider");
    assert!(gone.ephemeral());
    assert!(
        gone.text().contains("no longer keeps Raider"),
        "{}",
        gone.text()
    );
    assert!(!x.text(&gm, "/npc list").contains("Raider"));
    assert_refusal(&x.run(&gm, "/npc delete name:Raider"), "delete twice");
    assert!(x.text(&alys, "/encounter show").contains("Raider 2"));
    x.ran_exactly("quick NPCs");
}

/// A blind roll request answered through Discord by a second user: a refused press by the wrong
/// player, the owner's press rewriting the request (checked against Discord's OpenAPI spec as an
/// update callback), the result only in the GM channel, a second press refused; then the GM's
/// secret roll from a sheet.
#[test]
fn roll_requests_are_answered_by_each_player() {
    let s = Session::start();
    let x = Script::new(&s);
    let (ann, bob, gm) = (s.player(10), s.player(11), s.gm(1));
    x.text(&gm, &format!("/gm setup gm_channel:{GM_CHANNEL_ID}"));
    x.text(&ann, "/character create name:Gala system:thiz");
    x.text(&bob, "/character create name:Brom system:thiz");

    let line = "/gm request characters:\"Gala, Brom\" skill:Swimming mode:blind";
    let request = x.run(&gm, line);
    assert_eq!(request.kind(), 4, "{}", request.callback_body());
    assert!(!request.ephemeral(), "the table sees the request");
    let text = request.text();
    assert!(text.contains("Roll request: a Swimming check"), "{text}");
    assert!(text.contains("Waiting for: Gala, Brom"), "{text}");
    let ids = request.custom_ids();
    let (gala, brom, close) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
    assert!(
        gala.starts_with("req:") && close.ends_with(":close"),
        "{ids:?}"
    );
    let message = request.message();

    let wrong = s.press(&ann, &message, &brom);
    assert_refusal(&wrong, "Ann presses Brom's button");
    assert!(
        wrong.text().contains("for Brom's player"),
        "{}",
        wrong.text()
    );

    let press = s.press(&bob, &message, &brom);
    assert_eq!(press.kind(), 7, "the press rewrites the request");
    let shown = press.text();
    assert!(shown.contains("Rolled: Brom"), "{shown}");
    assert!(shown.contains("Waiting for: Gala"), "{shown}");
    assert!(
        !shown.contains("d100"),
        "no blind result on the request: {shown}"
    );
    assert_eq!(
        press.custom_ids(),
        [gala.clone(), close],
        "Brom's button is gone"
    );
    let followup = press.followup(0);
    assert_eq!(
        followup.body()["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "only Bob hears that he rolled"
    );
    let told = message_text(followup.body());
    assert!(
        told.contains("You rolled a check on Swimming blind"),
        "{told}"
    );
    assert!(!told.contains("d100"), "{told}");
    let copy = message_text(press.channel_message(GM_CHANNEL_ID).body());
    assert!(
        copy.contains("Blind roll by") && copy.contains("d100: "),
        "{copy}"
    );

    let again = s.press(&bob, &message, &brom);
    assert_refusal(&again, "Bob presses twice");
    assert!(again.text().contains("already rolled"), "{}", again.text());

    let secret = x.run(&gm, "/gm check character:Gala skill:Swimming");
    assert!(secret.ephemeral(), "for the GM alone");
    assert!(
        secret.text().contains("Secret roll for Gala"),
        "{}",
        secret.text()
    );
    x.ran_exactly("roll requests");
}

/// Issue 57, item 6, through Discord: at 25 figures the GM's `/encounter show` carries every
/// figure in what the bot sends, its numbers over "GM: the numbers (1/n)" fields of whole lines
/// within Discord's 1,024 characters; and the channel's status message names every figure.
#[test]
fn the_gms_screen_at_twenty_five_figures_names_every_figure() {
    let s = Session::start();
    let gm = s.gm(1);
    s.run(&gm, "/character create name:Goblin system:thiz npc:true");
    s.run(&gm, "/character skill name:Goblin skill:Speed rating:12");
    s.run(&gm, "/encounter start system:thiz surprise:none");
    s.run(&gm, "/encounter add npc:Goblin count:20");
    s.run(&gm, "/encounter add npc:Goblin count:5");
    let from = s.fake.requests().len();
    s.run(&gm, "/encounter next");
    let names: Vec<String> = (1..=25).map(|i| format!("Goblin {i}")).collect();
    let shown = s.run(&gm, "/encounter show");
    assert!(shown.ephemeral(), "{}", shown.callback_body());
    let fields = shown.data()["embeds"][0]["fields"]
        .as_array()
        .expect("the GM's screen has fields")
        .clone();
    let numbers: Vec<&Value> = fields
        .iter()
        .filter(|f| f["name"].as_str().unwrap().starts_with("GM: the numbers"))
        .collect();
    assert!(numbers.len() >= 2, "{fields:#?}");
    let mut numbered: Vec<String> = Vec::new();
    for f in &numbers {
        let value = f["value"].as_str().unwrap();
        assert!(
            value.chars().count() <= 1024 && !value.ends_with('…'),
            "{value}"
        );
        numbered.extend(
            value
                .lines()
                .filter_map(|l| l.split_once(": ").map(|(name, _)| name.to_owned())),
        );
    }
    numbered.sort_by_key(|n| number_after(n, "Goblin "));
    assert_eq!(numbered, names, "every figure on the GM's screen, once");
    let status = s.fake.wait_for_from(
        from,
        "the status at Initiative Pass 1",
        crate::fake::TIMEOUT,
        |r| {
            (r.method == "POST" || r.method == "PATCH")
                && r.route()
                    .starts_with(&format!("/channels/{}/messages", super::CHANNEL_ID))
                && message_text(r.body()).contains("Initiative Pass 1")
        },
    );
    let text = message_text(status.body());
    for name in &names {
        assert!(text.contains(&format!(" {name} [")), "{name} not in {text}");
    }
}

/// The encounter tracker through Discord: the status message is posted once, then edited in
/// place (PATCH, validated against the OpenAPI spec) as the buttons and commands move the fight
/// on; a stale "next" press changes nothing.
#[test]
fn encounter_status_message_is_edited_in_place() {
    let s = Session::start();
    let x = Script::new(&s);
    let gm = s.gm(1);
    let ann = s.player(10);
    x.run(&ann, "/character create name:Alys system:thiz");
    x.run(&ann, "/character skill name:Alys skill:Speed rating:4");
    x.run(&gm, "/character create name:Goblin system:thiz npc:true");
    x.run(&gm, "/character skill name:Goblin skill:Speed rating:30");
    let started = x.run(&gm, "/encounter start system:thiz surprise:none");
    assert_eq!(started.kind(), 4, "{}", started.callback_body());
    let posted = started.channel_message(super::CHANNEL_ID);
    let status = message_text(posted.body());
    assert!(status.contains("getting ready"), "{status}");
    assert_refusal(&x.run(&ann, "/encounter end"), "/encounter end");
    x.run(&ann, "/encounter add character:Alys");
    x.run(&gm, "/encounter add npc:Goblin count:2");
    // The status is synced after each reply, so an edit may trail its command: wait for the
    // one that shows what is expected.
    let edits = |from: usize, showing: &str| {
        s.fake
            .wait_for_from(from, "the status edited", crate::fake::TIMEOUT, |r| {
                r.is(
                    "PATCH",
                    &format!("/channels/{}/messages/", super::CHANNEL_ID),
                ) && message_text(r.body()).contains(showing)
            })
    };
    let from = s.fake.requests().len();
    let begin = x.run(&gm, "/encounter next");
    assert!(begin.text().contains("turn"), "{}", begin.text());
    let edited = edits(from, "Initiative Pass 1");
    let text = message_text(edited.body());
    assert!(text.contains("Goblin 1") && text.contains("Alys"), "{text}");
    // The Goblins' Speed 30 puts them first; the numbers stay off the players' message.
    assert!(!text.contains("30"), "{text}");
    let next_id = custom_ids(edited.body())
        .into_iter()
        .find(|id| id.starts_with("enc:next:"))
        .unwrap_or_else(|| panic!("a Next button: {text}"));
    let message = crate::fake::payload::message(1, super::CHANNEL_ID, edited.body());
    // A player cannot move a goblin's turn on.
    let refused = s.press(&ann, &message, &next_id);
    assert!(refused.ephemeral(), "{}", refused.callback_body());
    let from = s.fake.requests().len();
    let pressed = s.press(&gm, &message, &next_id);
    assert_eq!(pressed.kind(), 4, "{}", pressed.callback_body());
    assert!(!pressed.ephemeral());
    let moved = format!("enc:next:{}", number_after(&next_id, "enc:next:") + 1);
    let after = s
        .fake
        .wait_for_from(from, "the status moved on", crate::fake::TIMEOUT, |r| {
            r.is(
                "PATCH",
                &format!("/channels/{}/messages/", super::CHANNEL_ID),
            ) && custom_ids(r.body()).contains(&moved)
        });
    assert_ne!(
        message_text(after.body()),
        text,
        "the press moved the turn on"
    );
    // The same button again: the turn has moved on.
    let stale = s.press(&gm, &message, &next_id);
    assert!(
        stale.ephemeral() && stale.text().contains("moved on"),
        "{}",
        stale.text()
    );
    // Right after that Next a GM may take it back, once: the turn is the one before it again.
    let undone = x.run(&gm, "/encounter undo");
    assert!(!undone.ephemeral(), "{}", undone.text());
    assert_refusal(&x.run(&gm, "/encounter undo"), "/encounter undo");
    x.run(&gm, "/encounter next");
    let shown = x.run(&gm, "/encounter show");
    assert!(
        shown.ephemeral() && shown.text().contains("GM: the numbers"),
        "{}",
        shown.text()
    );
    let timer = x.run(
        &gm,
        "/encounter timer figure:\"Goblin 2\" what:stunned count:2",
    );
    assert!(
        timer.text().contains("Goblin 2: stunned for 2 turns"),
        "{}",
        timer.text()
    );
    x.run(&gm, "/encounter declare option:defend figure:\"Goblin 2\"");
    assert_refusal(&x.run(&ann, "/encounter act figure:Alys"), "/encounter act");
    x.run(&gm, "/attack target:Alys");
    x.run(&gm, "/encounter move figure:\"Goblin 2\" position:9");
    x.run(&gm, "/encounter remove figure:\"Goblin 2\"");
    let from = s.fake.requests().len();
    x.run(&gm, "/encounter end");
    let last = edits(from, "Encounter over");
    assert!(
        custom_ids(last.body()).is_empty(),
        "an ended encounter has no buttons"
    );
    assert!(message_text(last.body()).contains("Encounter over"));
    x.ran_exactly("encounter");
}
