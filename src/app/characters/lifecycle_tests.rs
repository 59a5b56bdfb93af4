//! Issue 32: luck is the GM's through a character's whole life (create, export, delete,
//! restore, import), the GM hears of each step, and names cannot impersonate one another.
//! Through `App::handle`, on a temporary database.

use std::cell::Cell;
use std::collections::BTreeMap;

use proptest::prelude::*;

use super::tests::{GUILD, ann, gm};
use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::reply::{Reply, Visibility};
use crate::app::suggest::{Suggest, SuggestContext};
use crate::app::{App, Caller};
use crate::store::CharacterId;
use crate::store::characters;
use crate::store::secrets::{self, GmProof, LedgerRow};

struct World {
    _dir: tempfile::TempDir,
    app: App,
    /// Each command its own interaction id, as in Discord (a spend is idempotent per id).
    next: Cell<u64>,
}

fn world() -> World {
    // No GM channel until a test sets one: the replies must say whether the GM was told.
    let (dir, app) = crate::app::temp_app_without_gm_channel(11);
    World {
        _dir: dir,
        app,
        next: Cell::new(1),
    }
}

impl World {
    fn run(&self, caller: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        let id = self.next.get();
        self.next.set(id + 1);
        match Command::parse(&Invocation::new(path, options)) {
            Ok(command) => self.app.handle(caller, &format!("i{id}"), command),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn create(&self, caller: &Caller, name: &str, system: &str) -> Reply {
        self.run(
            caller,
            &["character", "create"],
            &[("name", name), ("system", system)],
        )
    }

    /// Runs a command in channel 42 (where the encounter is).
    fn run_in(&self, caller: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        let id = self.next.get();
        self.next.set(id + 1);
        match Command::parse(&Invocation::new(path, options)) {
            Ok(command) => self.app.handle_in(42, caller, &format!("i{id}"), command),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn press(&self, caller: &Caller, id: &str) -> Reply {
        self.run(caller, &["button"], &[("id", id)])
    }

    fn id(&self, name: &str) -> Option<CharacterId> {
        self.app
            .store
            .read(|c| characters::by_name(c, GUILD, name))
            .unwrap()
            .map(|c| c.id)
    }

    /// Luck and ledger of a character by id, live or kept after a delete.
    fn luck_of(&self, id: CharacterId) -> (Option<i64>, Vec<LedgerRow>) {
        let gm = GmProof::verified(GUILD);
        self.app
            .store
            .read(|c| Ok((secrets::luck(c, gm, id)?, secrets::ledger(c, gm, id)?)))
            .unwrap()
    }

    /// Asks to delete `name` and presses the confirmation.
    fn delete(&self, caller: &Caller, name: &str) -> Reply {
        let ask = self.run(caller, &["character", "delete"], &[("name", name)]);
        let Some(button) = ask.buttons.first() else {
            return ask;
        };
        self.press(caller, &button.custom_id.clone())
    }

    fn export(&self, caller: &Caller, name: &str) -> Option<String> {
        let r = self.run(caller, &["character", "export"], &[("name", name)]);
        r.file.and_then(|f| String::from_utf8(f.content).ok())
    }
}

/// The ledger accounts for every change: its deltas add up to the total, and its last line is it.
fn assert_ledger_accounts(w: &World, id: CharacterId) {
    let (luck, ledger) = w.luck_of(id);
    let sum: i64 = ledger.iter().map(|r| r.delta).sum();
    assert_eq!(luck.unwrap_or(0), sum, "{ledger:?}");
    if let Some(last) = ledger.last() {
        assert_eq!(luck, Some(last.points_after), "{ledger:?}");
    }
    let mut running = 0;
    for row in &ledger {
        running += row.delta;
        assert_eq!(running, row.points_after, "{ledger:?}");
    }
}

#[test]
fn luck_cannot_be_laundered_through_export_delete_and_import() {
    let w = world();
    w.run(&gm(), &["gm", "setup"], &[("gm_channel", "555")]);
    w.create(&ann(), "Gala", "thiz");
    let gala = w.id("Gala").unwrap();
    w.run(
        &gm(),
        &["luck", "set"],
        &[("character", "Gala"), ("points", "0")],
    );
    let file = w.export(&ann(), "Gala").expect("an export");

    // The delete is told to the GM channel, and says so.
    let deleted = w.delete(&ann(), "Gala");
    assert!(deleted.content.contains("Deleted Gala"), "{deleted:?}");
    assert!(
        deleted.content.contains("The GM channel was told"),
        "{deleted:?}"
    );
    let copy = deleted.gm_copy.as_ref().expect("the GM hears of a delete");
    assert!(copy.content.contains("Ann deleted Gala"), "{copy:?}");
    assert_eq!(deleted.gm_channel, Some(555));

    // The import comes in with no luck, and the GM hears of it.
    let imported = w.run(&ann(), &["character", "import"], &[("file", &file)]);
    assert!(imported.content.contains("no luck points"), "{imported:?}");
    assert!(
        imported.content.contains("The GM channel was told"),
        "{imported:?}"
    );
    let copy = imported
        .gm_copy
        .as_ref()
        .expect("the GM hears of an import");
    assert!(
        copy.content.contains("/luck roll character:Gala"),
        "{copy:?}"
    );
    let again = w.id("Gala").unwrap();
    assert_ne!(again, gala);
    assert_eq!(w.luck_of(again).0, Some(0));
    let kinds: Vec<String> = w.luck_of(again).1.into_iter().map(|r| r.kind).collect();
    assert_eq!(kinds, ["imported"]);

    // The original cannot come back over the imported one; the reason names the fix.
    let refused = w.run(&gm(), &["character", "restore"], &[("name", "Gala")]);
    assert!(refused.content.contains("already taken"), "{refused:?}");
    assert!(refused.content.contains("new_name"), "{refused:?}");
    assert_eq!(refused.visibility, Visibility::Ephemeral);
    // Issue 59: nor under a new name that is taken or looks like one here; a free one brings
    // it back, as it was, under that name. Then it is deleted again for the rest of the story.
    for taken in ["GALA", "Gаla"] {
        let r = w.run(
            &gm(),
            &["character", "restore"],
            &[("name", "Gala"), ("new_name", taken)],
        );
        assert!(r.content.contains("cannot come back as"), "{taken}: {r:?}");
    }
    let renamed = w.run(
        &gm(),
        &["character", "restore"],
        &[("name", "Gala"), ("new_name", "Gala the Elder")],
    );
    assert!(
        renamed
            .content
            .contains("Restored Gala the Elder (it was Gala)"),
        "{renamed:?}"
    );
    assert_eq!(w.id("Gala the Elder"), Some(gala));
    assert_eq!(w.id("Gala"), Some(again));
    w.delete(&ann(), "Gala the Elder");
    // Two kept under one name: the newest deletion comes back.
    w.delete(&ann(), "Gala");
    let restored = w.run(&gm(), &["character", "restore"], &[("name", "gala")]);
    assert!(restored.content.contains("Restored Gala"), "{restored:?}");
    assert_eq!(w.id("Gala"), Some(again));
    assert_eq!(w.luck_of(again).0, Some(0));
    assert_ledger_accounts(&w, again);
    assert_ledger_accounts(&w, gala);
}

#[test]
fn a_restored_character_has_the_luck_it_was_deleted_with() {
    let w = world();
    w.create(&ann(), "Gala", "thiz");
    let gala = w.id("Gala").unwrap();
    w.run(
        &gm(),
        &["luck", "set"],
        &[("character", "Gala"), ("points", "2")],
    );
    w.delete(&ann(), "Gala");
    assert_eq!(w.id("Gala"), None);
    let restored = w.run(&gm(), &["character", "restore"], &[("name", "GALA")]);
    assert!(
        restored.content.contains("Restored Gala to <@10>"),
        "{restored:?}"
    );
    assert_eq!(w.id("Gala"), Some(gala));
    let (luck, ledger) = w.luck_of(gala);
    assert_eq!(luck, Some(2));
    let kinds: Vec<&str> = ledger.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, ["rolled", "set", "deleted", "restored"]);
    assert_ledger_accounts(&w, gala);
    // Restored once: a second restore finds nothing kept.
    let again = w.run(&gm(), &["character", "restore"], &[("name", "Gala")]);
    assert!(
        again.content.contains("No deleted character named Gala"),
        "{again:?}"
    );
}

#[test]
fn a_deleted_character_leaves_its_fight_at_once_and_the_reply_says_so() {
    let w = world();
    w.create(&ann(), "Gala", "thiz");
    w.create(&gm(), "Orc", "thiz");
    w.run_in(&gm(), &["encounter", "start"], &[("surprise", "none")]);
    w.run_in(&ann(), &["encounter", "add"], &[("character", "Gala")]);
    w.run_in(&gm(), &["encounter", "add"], &[("character", "Orc")]);
    let shown = w.run_in(&gm(), &["encounter", "show"], &[]);
    assert!(shown.all_text().contains("Gala"), "{shown:?}");
    let asked = w.run(&ann(), &["character", "delete"], &[("name", "Gala")]);
    assert!(
        asked
            .all_text()
            .contains("is in the fight in <#42> and will leave it"),
        "{asked:?}"
    );
    let done = w.press(&ann(), &asked.buttons[0].custom_id.clone());
    assert!(
        done.content.contains("Gala left the fight in <#42>"),
        "{done:?}"
    );
    let shown = w.run_in(&gm(), &["encounter", "show"], &[]);
    let text = shown.all_text();
    assert!(text.contains("Orc"), "{text}");
    assert!(!text.contains("• Gala"), "gone from the order: {text}");
    assert!(
        text.contains("Gala leaves the fight\\: the character was deleted"),
        "the encounter's log says why: {text}"
    );
    // Restored, it is not back in the fight until added.
    w.run(&gm(), &["character", "restore"], &[("name", "Gala")]);
    let shown = w.run_in(&gm(), &["encounter", "show"], &[]);
    assert!(!shown.all_text().contains("• Gala"), "{shown:?}");
}

#[test]
fn without_a_gm_channel_nothing_claims_the_gm_was_told() {
    let w = world();
    w.create(&ann(), "Gala", "thiz");
    let file = w.export(&ann(), "Gala").unwrap();
    let deleted = w.delete(&ann(), "Gala");
    assert!(deleted.content.contains("Deleted Gala"), "{deleted:?}");
    assert!(!deleted.content.contains("told"), "{deleted:?}");
    assert!(deleted.gm_copy.is_none());
    let imported = w.run(&ann(), &["character", "import"], &[("file", &file)]);
    assert!(imported.content.contains("Ask your GM"), "{imported:?}");
    assert!(!imported.content.contains("told"), "{imported:?}");
    assert!(imported.gm_copy.is_none());
}

#[test]
fn only_a_gm_restores_and_the_gms_list_shows_what_is_kept() {
    let w = world();
    w.create(&ann(), "Gala", "tft");
    w.delete(&ann(), "Gala");
    let refused = w.run(&ann(), &["character", "restore"], &[("name", "Gala")]);
    assert!(refused.content.to_lowercase().contains("gm"), "{refused:?}");
    assert_eq!(w.id("Gala"), None);
    let listed = w.run(&ann(), &["character", "list"], &[]);
    assert!(
        !listed.all_text().contains("Gala"),
        "a player's list: {listed:?}"
    );
    let listed = w.run(&gm(), &["character", "list"], &[]);
    let text = listed.all_text();
    assert!(
        text.contains("Gala · deleted by <@10> · kept 29 more days")
            || text.contains("Gala · deleted by <@10> · kept 30 more days"),
        "{text}"
    );
    // Autocomplete offers a GM the kept names, a player none.
    let offered = |c: &Caller| {
        w.app
            .suggest(c, Suggest::Deleted, "ga", &SuggestContext::default())
    };
    assert_eq!(offered(&gm()), ["Gala"]);
    assert!(offered(&ann()).is_empty());
    let none = w.run(&gm(), &["character", "restore"], &[("name", "Nobody")]);
    assert!(
        none.content.contains("No deleted character named Nobody"),
        "{none:?}"
    );
    // A name that looks like the deleted one's now stands in the way, with the reason.
    w.create(&ann(), "G\u{0430}la", "tft");
    let blocked = w.run(&gm(), &["character", "restore"], &[("name", "Gala")]);
    assert!(blocked.content.contains("looks the same"), "{blocked:?}");
    assert_eq!(w.id("Gala"), None);
}

#[test]
fn names_that_impersonate_are_refused_at_create_and_import() {
    let w = world();
    w.create(&ann(), "Zoe", "thiz");
    let cases: &[(&str, &str)] = &[
        ("\u{FF3A}\u{FF4F}\u{FF45}", "already taken"), // full-width: the same name
        ("Z\u{043E}e", "looks the same as Zoe"),       // Cyrillic о
        ("Zo\u{0435}", "looks the same as Zoe"),       // Cyrillic е
        ("Zo\u{200B}e", "U+200B"),
        ("Ann, the Bold", "comma"),
        ("everyone", "keyword"),
    ];
    for (name, why) in cases {
        let r = w.create(&ann(), name, "thiz");
        assert_eq!(r.visibility, Visibility::Ephemeral, "{name:?}");
        assert!(r.content.contains(why), "{name:?}: {r:?}");
    }
    let all = w.app.store.read(|c| characters::all(c, GUILD)).unwrap();
    assert_eq!(all.len(), 1, "only Zoe: {all:?}");
    // Full-width typed later still finds Zoe.
    assert!(w.id("\u{FF3A}\u{FF4F}\u{FF45}").is_some());
    // An import under a look-alike name is refused too.
    let mut file: serde_json::Value =
        serde_json::from_str(&w.export(&ann(), "Zoe").unwrap()).unwrap();
    file["name"] = "Z\u{043E}e".into();
    let r = w.run(
        &ann(),
        &["character", "import"],
        &[("file", &file.to_string())],
    );
    assert!(r.content.contains("looks the same as Zoe"), "{r:?}");
}

/// One step of a character's life, for the property below.
#[derive(Debug, Clone)]
enum Step {
    Create(u8),
    ExportDeleteImport(u8),
    Delete(u8),
    Restore(u8),
    Set(u8, u8),
    Award(u8, u8),
    Spend(u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0u8..3).prop_map(Step::Create),
        (0u8..3).prop_map(Step::ExportDeleteImport),
        (0u8..3).prop_map(Step::Delete),
        (0u8..3).prop_map(Step::Restore),
        (0u8..3, 0u8..12).prop_map(|(c, n)| Step::Set(c, n)),
        (0u8..3, 1u8..4).prop_map(|(c, n)| Step::Award(c, n)),
        (0u8..3).prop_map(Step::Spend),
    ]
}

const NAMES: [&str; 3] = ["Gala", "Brom", "Tess"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Over any sequence of creates, exports, deletes, restores, imports, GM sets and awards and
    /// player spends: a character's luck changes only by a GM command or a spend (or its creation
    /// roll, or an import's zero), by exactly what the command says, and its ledger accounts for
    /// every change.
    #[test]
    fn luck_changes_only_by_the_gm_and_spends(steps in proptest::collection::vec(step(), 1..14)) {
        let w = world();
        // What each character's luck must be, by id (live or kept).
        let mut model: BTreeMap<i64, i64> = BTreeMap::new();
        for s in steps {
            let before: BTreeMap<i64, i64> = model.clone();
            let mut expect = before.clone();
            match s.clone() {
                Step::Create(n) => {
                    let name = NAMES[n as usize];
                    w.create(&ann(), name, "thiz");
                    if let Some(id) = w.id(name).filter(|id| !model.contains_key(&id.0)) {
                        let rolled = w.luck_of(id).0.unwrap();
                        prop_assert!((1..=10).contains(&rolled));
                        expect.insert(id.0, rolled);
                    }
                }
                Step::ExportDeleteImport(n) => {
                    let name = NAMES[n as usize];
                    if let Some(file) = w.export(&ann(), name) {
                        w.delete(&ann(), name);
                        w.run(&ann(), &["character", "import"], &[("file", &file)]);
                        if let Some(id) = w.id(name) {
                            expect.insert(id.0, 0);
                        }
                    }
                }
                Step::Delete(n) => {
                    w.delete(&ann(), NAMES[n as usize]);
                }
                Step::Restore(n) => {
                    w.run(&gm(), &["character", "restore"], &[("name", NAMES[n as usize])]);
                }
                Step::Set(n, p) => {
                    let name = NAMES[n as usize];
                    w.run(&gm(), &["luck", "set"], &[("character", name), ("points", &p.to_string())]);
                    if let Some(id) = w.id(name) {
                        expect.insert(id.0, i64::from(p));
                    }
                }
                Step::Award(n, p) => {
                    let name = NAMES[n as usize];
                    w.run(&gm(), &["luck", "award"], &[("character", name), ("points", &p.to_string())]);
                    if let Some(id) = w.id(name) {
                        *expect.entry(id.0).or_default() += i64::from(p);
                    }
                }
                Step::Spend(n) => {
                    let name = NAMES[n as usize];
                    w.run(&ann(), &["luck", "spend"], &[("kind", "stunt"), ("points", "1"), ("character", name)]);
                    if let Some(id) = w.id(name) {
                        let e = expect.entry(id.0).or_default();
                        *e = (*e - 1).max(0);
                    }
                }
            }
            for (&id, &want) in &expect {
                let (luck, _) = w.luck_of(CharacterId(id));
                prop_assert_eq!(luck.unwrap_or(0), want, "character {} after {:?}", id, s);
                assert_ledger_accounts(&w, CharacterId(id));
            }
            model = expect;
        }
    }
}
