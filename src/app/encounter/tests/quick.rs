//! Quick NPCs and the bestiary (issue 59): `/encounter add name:… skills:… weapon:…` makes a
//! hidden NPC sheet and numbered copies in one line; `/npc save|list|show` keeps NPCs for the
//! next fight, and `/encounter add npc:…` copies the bestiary's. Their numbers reach the GM
//! alone: sentinel numbers (a skill of 27, ST 19) are never in what a player or the channel
//! reads.

use super::*;
use crate::app::sheet::ItemStats;

/// A skill rating and TFT attributes no figure here has but the quick NPC: any of them in a
/// player's text is a leak.
// As a reply writes it (brackets escaped for Discord markdown).
const SKILL_SENTINEL: &str = r"Weapon Skill \(Sword\) 27";
const THIZ_NUMBERS: [&str; 3] = ["27", "Speed 13", "+7"];
const TFT_NUMBERS: [&str; 4] = ["19", "17", "23", "chainmail"];

fn sheet_of(t: &Table, name: &str) -> characters::Character {
    t.app
        .store
        .read(|c| characters::by_name(c, G, name))
        .unwrap()
        .unwrap_or_else(|| panic!("no character {name}"))
}

fn skills_of(t: &Table, name: &str) -> Vec<(String, i64)> {
    let id = sheet_of(t, name).id;
    t.app
        .store
        .read(|c| characters::skills(c, G, id))
        .unwrap()
        .into_iter()
        .map(|s| (s.skill, s.rating))
        .collect()
}

fn items_of(t: &Table, name: &str) -> Vec<(String, String, ItemStats)> {
    let id = sheet_of(t, name).id;
    t.app
        .store
        .read(|c| characters::items(c, G, id))
        .unwrap()
        .into_iter()
        .map(|i| (i.kind, i.name, serde_json::from_str(&i.stats_json).unwrap()))
        .collect()
}

fn names_in_fight(t: &Table) -> Vec<String> {
    t.state().figures.iter().map(|f| f.name.clone()).collect()
}

fn all_names(t: &Table) -> Vec<String> {
    t.app
        .store
        .read(|c| characters::all(c, G))
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect()
}

/// The options of one `/encounter add`.
type Opts = &'static [(&'static str, &'static str)];

#[track_caller]
fn no_numbers(what: &str, text: &str, numbers: &[&str]) {
    for n in numbers {
        assert!(!text.contains(n), "{n} in {what}: {text}");
    }
}

fn thiz_bandits(t: &Table) -> Reply {
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(
        GM,
        &["encounter", "add"],
        &[
            ("name", "Bandit"),
            ("count", "3"),
            ("skills", "Speed 13, Weapon Skill (Sword) 27"),
            ("weapon", "Sword +7"),
            ("armor", "Leather +2 (chest, gut)"),
        ],
    )
}

/// The issue's line: a THIZ NPC with skills and a weapon, three numbered copies; the channel
/// reads who joined, the GM alone what the sheet holds.
#[test]
fn a_quick_thiz_npc_is_a_hidden_sheet_copied_three_times() {
    let t = Table::new(7);
    let r = thiz_bandits(&t);
    assert_eq!(r.visibility, Visibility::Public);
    assert_eq!(
        r.content,
        "Bandit 1 joins the foes.\nBandit 2 joins the foes.\nBandit 3 joins the foes."
    );
    assert_eq!(names_in_fight(&t), ["Bandit 1", "Bandit 2", "Bandit 3"]);
    let base = sheet_of(&t, "Bandit");
    assert!(base.npc, "the sheet is hidden");
    assert_eq!(base.owner_id, UserId(GM), "and the GM's");
    for name in ["Bandit", "Bandit 1", "Bandit 3"] {
        assert_eq!(
            skills_of(&t, name),
            [
                ("Speed".to_owned(), 13),
                ("Weapon Skill (Sword)".to_owned(), 27)
            ],
            "{name}"
        );
        let items = items_of(&t, name);
        assert_eq!(items.len(), 2, "{name}: {items:?}");
        assert_eq!(
            (items[0].0.as_str(), items[0].1.as_str()),
            ("weapon", "Sword")
        );
        assert_eq!(items[0].2.attack_bonus, 7);
        assert_eq!(
            (items[1].0.as_str(), items[1].1.as_str()),
            ("armor", "Leather")
        );
        assert_eq!(items[1].2.armor_bonus, 2);
        assert_eq!(items[1].2.locations, ["Chest", "Gut"]);
    }
    // The GM's follow-up has the numbers; the channel's reply has none.
    let gm = r.caller_copy.as_ref().expect("the GM's note").all_text();
    assert!(gm.contains(SKILL_SENTINEL), "{gm}");
    assert!(gm.contains("Sword (weapon, +7)"), "{gm}");
    no_numbers("the channel's reply", &r.channel_text(), &THIZ_NUMBERS);
    // The copies go at the end; the sheet stays for the next fight.
    t.ok(GM, &["encounter", "end"], &[]);
    let names = all_names(&t);
    assert!(names.contains(&"Bandit".to_owned()), "{names:?}");
    assert!(!names.contains(&"Bandit 1".to_owned()), "{names:?}");
}

/// The same line leaves THIZ armour on every location when none is named, and a missile weapon
/// as such; count defaults to one copy.
#[test]
fn a_quick_thiz_npc_reads_missiles_and_armour_everywhere() {
    let t = Table::new(7);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(
        GM,
        &["encounter", "add"],
        &[
            ("name", "Archer"),
            ("weapon", "Short Bow +1 missile, Dagger"),
            ("armor", "Leather +1"),
        ],
    );
    assert_eq!(names_in_fight(&t), ["Archer 1"]);
    let items = items_of(&t, "Archer");
    assert_eq!(items[0].1, "Short Bow");
    assert!(items[0].2.missile);
    assert_eq!(items[0].2.attack_bonus, 1);
    assert_eq!(
        (items[1].1.as_str(), items[1].2.attack_bonus),
        ("Dagger", 0)
    );
    assert_eq!(items[2].2.locations.len(), 7, "{:?}", items[2]);
}

/// TFT: ST, DX and IQ as options or a fields line, armour and a weapon of the table.
#[test]
fn a_quick_tft_npc_takes_attributes_armour_and_a_weapon() {
    let t = Table::new(7);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    let r = t.ok(
        GM,
        &["encounter", "add"],
        &[
            ("name", "Orc"),
            ("count", "2"),
            ("st", "19"),
            ("dx", "17"),
            ("iq", "23"),
            ("armor", "chainmail"),
            ("weapon", "broadsword"),
        ],
    );
    assert_eq!(names_in_fight(&t), ["Orc 1", "Orc 2"]);
    let sheet: TftSheet = serde_json::from_str(&sheet_of(&t, "Orc 2").sheet_json).unwrap();
    assert_eq!((sheet.st, sheet.dx, sheet.iq), (19, 17, 23));
    assert_eq!(sheet.armor.as_deref(), Some("Chainmail"));
    assert_eq!(items_of(&t, "Orc 1")[0].1, "Broadsword");
    no_numbers("the channel's reply", &r.channel_text(), &TFT_NUMBERS);
    let gm = r.caller_copy.as_ref().expect("the GM's note").all_text();
    assert!(gm.contains("st 19, dx 17, iq 23"), "{gm}");
    // A fields line does the same.
    t.ok(
        GM,
        &["encounter", "add"],
        &[("name", "Wolf"), ("fields", "st 12, dx 14, talents Sword")],
    );
    let sheet: TftSheet = serde_json::from_str(&sheet_of(&t, "Wolf 1").sheet_json).unwrap();
    assert_eq!((sheet.st, sheet.dx, sheet.iq), (12, 14, 8));
    assert_eq!(sheet.talents, ["Sword"]);
}

/// Bad input is refused in one ephemeral line, and nothing is made: no sheet, no copy, no
/// change to the fight.
#[test]
fn a_bad_quick_npc_makes_nothing() {
    let t = Table::new(7);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    let before = all_names(&t);
    let cases: &[(u64, Opts, &str)] = &[
        (ANN, &[("name", "Bandit")], "only a GM"),
        (
            GM,
            &[("name", "Bandit"), ("skills", "Speed 31")],
            "Speed 31",
        ),
        (GM, &[("name", "Bandit"), ("skills", "Sped 4")], "Sped"),
        (
            GM,
            &[("name", "Bandit"), ("weapon", "Sword +99")],
            "at most 20",
        ),
        (GM, &[("name", "Bandit"), ("weapon", "Sword +x")], "+x"),
        (
            GM,
            &[("name", "Bandit"), ("armor", "Leather +2 (elbow)")],
            "elbow",
        ),
        (GM, &[("name", "Bandit"), ("fields", "st 12")], "st"),
        (GM, &[("name", "Bandit"), ("st", "12")], "st"),
        (GM, &[("skills", "Speed 4")], "name:"),
        (GM, &[("name", "Bandit"), ("npc", "Goblin")], "not two"),
        (GM, &[("name", "Bandit"), ("character", "Alys")], "not two"),
        (GM, &[("name", "Bandit"), ("st", "0")], "st"),
        (GM, &[("name", "Bad, Name")], "comma"),
    ];
    for (who, opts, says) in cases {
        let msg = t.refused(*who, &["encounter", "add"], opts);
        assert!(msg.contains(says), "{opts:?}: {msg}");
        assert!(!msg.contains("Something went wrong"), "{opts:?}: {msg}");
        assert_eq!(all_names(&t), before, "{opts:?} made a character");
    }
    // A TFT fight: skills are THIZ's, and ST named twice is refused.
    let t = Table::new(7);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    let tft_cases: &[(Opts, &str)] = &[
        (&[("name", "Orc"), ("skills", "Speed 4")], "THIZ"),
        (
            &[("name", "Orc"), ("st", "12"), ("fields", "st 13")],
            "twice",
        ),
        (
            &[
                ("name", "Orc"),
                ("armor", "leather"),
                ("fields", "armor leather"),
            ],
            "twice",
        ),
        (&[("name", "Orc"), ("weapon", "laser sword")], "laser"),
        (&[("name", "Orc"), ("armor", "tinfoil")], "tinfoil"),
    ];
    for (opts, says) in tft_cases {
        let msg = t.refused(GM, &["encounter", "add"], opts);
        assert!(msg.contains(says), "{opts:?}: {msg}");
        assert!(all_names(&t).is_empty(), "{opts:?} made a character");
    }
    // A name that is taken: the sheet of that name is there already.
    let t = thiz_table(7);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    let msg = t.refused(GM, &["encounter", "add"], &[("name", "Goblin")]);
    assert!(msg.contains("npc:Goblin"), "{msg}");
}

/// `/npc save|list|show`: the GM keeps an NPC sheet under a name, sees it listed and shown with
/// its numbers; `/encounter add npc:` copies it when no sheet has that name.
#[test]
fn the_bestiary_keeps_an_npc_for_numbered_copies() {
    let t = Table::new(7);
    thiz_bandits(&t);
    t.ok(GM, &["encounter", "end"], &[]);
    let saved = t.ok(
        GM,
        &["npc", "save"],
        &[("name", "Raider"), ("character", "Bandit")],
    );
    assert_eq!(saved.visibility, Visibility::Ephemeral);
    assert!(saved.content.contains("Raider"), "{}", saved.content);
    assert!(saved.content.contains(SKILL_SENTINEL), "{}", saved.content);
    let list = t.ok(GM, &["npc", "list"], &[]);
    assert_eq!(list.visibility, Visibility::Ephemeral);
    assert!(
        list.all_text().contains("**Raider** (THIZ)"),
        "{}",
        list.all_text()
    );
    let shown = t.ok(GM, &["npc", "show"], &[("name", "raider")]);
    assert_eq!(shown.visibility, Visibility::Ephemeral);
    assert!(
        shown.all_text().contains(SKILL_SENTINEL),
        "{}",
        shown.all_text()
    );
    // The template is the sheet as it was: a later change to the sheet is not in it.
    t.ok(
        GM,
        &["character", "skill"],
        &[("name", "Bandit"), ("skill", "Speed"), ("rating", "2")],
    );
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    let r = t.ok(
        GM,
        &["encounter", "add"],
        &[("npc", "Raider"), ("count", "4")],
    );
    assert_eq!(
        names_in_fight(&t),
        ["Raider 1", "Raider 2", "Raider 3", "Raider 4"]
    );
    assert_eq!(skills_of(&t, "Raider 4")[0], ("Speed".to_owned(), 13));
    assert!(sheet_of(&t, "Raider 1").npc);
    assert_eq!(items_of(&t, "Raider 2").len(), 2);
    no_numbers("the channel's reply", &r.channel_text(), &THIZ_NUMBERS);
    // A THIZ copy has luck of its own, rolled in secret.
    let id = sheet_of(&t, "Raider 3").id;
    let luck = t
        .app
        .store
        .read(|c| crate::store::secrets::luck(c, crate::store::secrets::GmProof::verified(G), id))
        .unwrap();
    assert!(luck.is_some(), "no luck rolled");
    // The copies of the bestiary go at the end too, its entry stays.
    t.ok(GM, &["encounter", "end"], &[]);
    assert!(t.id("Raider 1").is_none());
    assert!(
        t.ok(GM, &["npc", "list"], &[])
            .all_text()
            .contains("Raider")
    );
}

/// Saving refuses what it should, changing nothing: a player character, a name in the bestiary
/// already (unless `replace:true`), a sheet that is not there; a TFT fight refuses a THIZ entry.
#[test]
fn the_bestiary_refuses_what_it_should() {
    let t = thiz_table(7);
    let msg = t.refused(GM, &["npc", "save"], &[("name", "Alys")]);
    assert!(msg.contains("player character"), "{msg}");
    let msg = t.refused(GM, &["npc", "show"], &[("name", "Goblin")]);
    assert!(msg.contains("no NPC named Goblin"), "{msg}");
    t.ok(GM, &["npc", "save"], &[("name", "Goblin")]);
    let msg = t.refused(GM, &["npc", "save"], &[("name", "GOBLIN")]);
    assert!(msg.contains("replace:true"), "{msg}");
    let again = t.ok(
        GM,
        &["npc", "save"],
        &[
            ("name", "GOBLIN"),
            ("character", "Goblin"),
            ("replace", "true"),
        ],
    );
    assert!(again.content.starts_with("Replaced"), "{}", again.content);
    let msg = t.refused(GM, &["npc", "save"], &[("name", "Troll")]);
    assert!(msg.contains("no character named Troll"), "{msg}");
    let msg = t.refused(GM, &["npc", "list"], &[("page", "2")]);
    assert!(msg.contains("1 page"), "{msg}");
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    // The sheet named Goblin goes first; with it gone, the bestiary's THIZ Goblin is refused here.
    let id = t.id("Goblin").unwrap();
    t.app
        .store
        .write(|tx| characters::delete(tx, G, id))
        .unwrap();
    let msg = t.refused(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    assert!(msg.contains("THIZ NPC; this encounter is TFT"), "{msg}");
    let msg = t.refused(GM, &["encounter", "add"], &[("npc", "Nobody")]);
    assert!(msg.contains("Nor does the bestiary"), "{msg}");
}

/// Players never reach the bestiary or the quick NPCs' numbers: every answer they can receive
/// (the add, the status, the fight's show, `/npc` of any kind, an attack on a copy) is scanned
/// for the sentinel numbers, and `/npc` answers a player the same whatever the name.
/// `/npc delete`: the GM's alone; the bestiary forgets the NPC, the sheet stays; a name it does
/// not keep is refused, and so is a player, whether the name exists or not.
#[test]
fn the_bestiary_forgets_an_npc_the_gm_deletes() {
    let t = thiz_table(7);
    t.ok(GM, &["npc", "save"], &[("name", "Goblin")]);
    for name in ["Goblin", "Nothing"] {
        let msg = t.refused(ANN, &["npc", "delete"], &[("name", name)]);
        assert!(!msg.contains(name) || msg.contains("GM"), "{msg}");
    }
    let gone = t.ok(GM, &["npc", "delete"], &[("name", "goblin")]);
    assert_eq!(gone.visibility, Visibility::Ephemeral);
    assert!(
        gone.content.contains("no longer keeps Goblin"),
        "{}",
        gone.content
    );
    let listed = t.ok(GM, &["npc", "list"], &[]).all_text();
    assert!(listed.contains("The bestiary is empty"), "{listed}");
    assert!(
        t.id("Goblin").is_some(),
        "the sheet it was saved from stays"
    );
    let msg = t.refused(GM, &["npc", "delete"], &[("name", "Goblin")]);
    assert!(msg.contains("no NPC called Goblin"), "{msg}");
}

#[test]
fn players_never_read_a_quick_npcs_numbers_or_the_bestiary() {
    let t = thiz_table(7);
    let added = thiz_bandits(&t);
    t.ok(GM, &["npc", "save"], &[("name", "Bandit")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let mut seen = vec![
        ("the add's channel reply", added.channel_text()),
        ("the status message", t.status_text()),
    ];
    for player in [ANN, BOB] {
        for (path, opts) in [
            (&["encounter", "show"][..], &[][..]),
            (&["npc", "list"], &[]),
            (&["npc", "show"], &[("name", "Bandit")]),
            (
                &["npc", "save"],
                &[("name", "Mine"), ("character", "Bandit")],
            ),
            (&["encounter", "add"], &[("npc", "Bandit")]),
            (
                &["encounter", "add"],
                &[("name", "Mine"), ("skills", "Speed 27")],
            ),
            (&["attack"], &[("target", "Bandit 1")]),
            (&["character", "show"], &[("name", "Bandit")]),
        ] {
            let r = match t.run(player, path, opts) {
                Ok(r) | Err(r) => r,
            };
            seen.push(("a player's answer", r.caller_text()));
        }
        // The bestiary answers a player alike for a name it has and one it has not.
        let has = t.run(player, &["npc", "show"], &[("name", "Bandit")]);
        let hasnt = t.run(player, &["npc", "show"], &[("name", "Nobody")]);
        assert_eq!(has.unwrap_err().content, hasnt.unwrap_err().content);
    }
    for (what, text) in &seen {
        no_numbers(what, text, &THIZ_NUMBERS);
    }
    // The GM's view has them, so the scan can fail.
    let gm = t.ok(GM, &["npc", "show"], &[("name", "Bandit")]).all_text();
    assert!(THIZ_NUMBERS.iter().all(|n| gm.contains(n)), "{gm}");
}
