//! Autocomplete through the real commands: characters are made with `App::handle`, and every
//! suggestion is fed back to the command it completes to show it is accepted.

use std::collections::BTreeSet;

use super::{MAX_CHARS, MAX_SUGGESTIONS, Suggest, SuggestContext, rank};
use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::reply::Reply;
use crate::app::{App, Caller};
use crate::store::characters;
use crate::store::{GuildId, UserId};

const GUILD: GuildId = GuildId(1);
const OTHER_GUILD: GuildId = GuildId(2);

struct World {
    _dir: tempfile::TempDir,
    app: App,
}

fn world() -> World {
    let (dir, app) = crate::app::temp_app(5);
    World { _dir: dir, app }
}

fn member(guild: GuildId, user: u64, name: &str) -> Caller {
    Caller {
        guild,
        user: UserId(user),
        name: name.into(),
        roles: vec![],
        manage_server: false,
    }
}

fn ann() -> Caller {
    member(GUILD, 10, "Ann")
}

fn bob() -> Caller {
    member(GUILD, 11, "Bob")
}

fn gm() -> Caller {
    Caller {
        manage_server: true,
        ..member(GUILD, 99, "Gina")
    }
}

/// Every letter, and nothing typed: together they reach every candidate.
fn probes() -> Vec<String> {
    std::iter::once(String::new())
        .chain(('a'..='z').map(String::from))
        .collect()
}

impl World {
    fn run(&self, caller: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        match Command::parse(&Invocation::new(path, options)) {
            Ok(command) => self.app.handle(caller, "i1", command),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    /// Runs a setup command that must succeed.
    fn ok(&self, caller: &Caller, path: &[&str], options: &[(&str, &str)]) {
        let text = self.run(caller, path, options).all_text();
        for failure in [
            "There is no",
            "refused",
            "Nothing changed",
            "Something went wrong",
            "Only a GM",
        ] {
            assert!(
                !text.contains(failure),
                "{path:?} {options:?} failed: {text}"
            );
        }
    }

    fn create(&self, caller: &Caller, name: &str, system: &str) {
        self.ok(
            caller,
            &["character", "create"],
            &[("name", name), ("system", system)],
        );
    }

    fn npc(&self, name: &str) {
        self.ok(
            &gm(),
            &["character", "create"],
            &[("name", name), ("system", "thiz"), ("npc", "true")],
        );
    }

    fn skill(&self, caller: &Caller, name: &str, skill: &str) {
        self.ok(
            caller,
            &["character", "skill"],
            &[("name", name), ("skill", skill), ("rating", "3")],
        );
    }

    fn weapon(&self, caller: &Caller, name: &str, item: &str) {
        self.ok(
            caller,
            &["character", "gear"],
            &[
                ("name", name),
                ("action", "add"),
                ("item", item),
                ("kind", "weapon"),
            ],
        );
    }

    fn suggest(&self, caller: &Caller, what: Suggest, typed: &str) -> Vec<String> {
        self.app
            .suggest(caller, what, typed, &SuggestContext::default())
    }

    fn suggest_for(
        &self,
        caller: &Caller,
        what: Suggest,
        typed: &str,
        character: &str,
        command: &[&str],
    ) -> Vec<String> {
        let context = SuggestContext {
            character: Some(character),
            command,
        };
        self.app.suggest(caller, what, typed, &context)
    }

    /// Everything offered for any probe.
    fn everything(
        &self,
        caller: &Caller,
        what: Suggest,
        character: &str,
        command: &[&str],
    ) -> BTreeSet<String> {
        probes()
            .iter()
            .flat_map(|p| self.suggest_for(caller, what, p, character, command))
            .collect()
    }
}

/// A roll that went through answers with an embed; a refusal is a bare ephemeral line.
fn accepted(reply: &Reply, what: &str) {
    assert!(
        !reply.embeds.is_empty(),
        "{what} was refused: {}",
        reply.content
    );
}

// ---- characters --------------------------------------------------------------------------------

#[test]
fn players_never_see_an_npc_and_gms_do() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    w.create(&bob(), "Bran", "tft");
    w.npc("Zorblax");
    let mut typed = probes();
    typed.extend(["Zorblax", "zorblax", "ZORB", "blax", " zorblax "].map(String::from));
    for t in &typed {
        for caller in [ann(), bob()] {
            let got = w.suggest(&caller, Suggest::Character, t);
            assert!(
                got.iter().all(|s| !s.to_lowercase().contains("zorb")),
                "{t:?}: {got:?}"
            );
        }
    }
    assert_eq!(w.suggest(&ann(), Suggest::Character, ""), ["Vexa", "Bran"]);
    assert_eq!(w.suggest(&gm(), Suggest::Character, "zor"), ["Zorblax"]);
    assert_eq!(
        w.suggest(&gm(), Suggest::Character, ""),
        ["Bran", "Vexa", "Zorblax"]
    );

    // A GM by the guild's GM role (not Manage Server) sees it too, decided as Ctx::is_gm does.
    let ranger = Caller {
        roles: vec![77],
        ..member(GUILD, 12, "Cy")
    };
    assert!(w.suggest(&ranger, Suggest::Character, "zor").is_empty());
    w.ok(&gm(), &["gm", "setup"], &[("gm_role", "77")]);
    assert_eq!(w.suggest(&ranger, Suggest::Character, "zor"), ["Zorblax"]);
}

#[test]
fn another_guilds_characters_never_appear() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    let stranger = member(OTHER_GUILD, 10, "Ann elsewhere");
    w.create(&stranger, "Vesper", "thiz");
    w.create(&stranger, "Velvet", "tft");
    for t in probes() {
        let got = w.suggest(&ann(), Suggest::Character, &t);
        assert!(got.iter().all(|s| s == "Vexa"), "{t:?}: {got:?}");
    }
    assert_eq!(w.suggest(&ann(), Suggest::Character, "ve"), ["Vexa"]);
    assert_eq!(
        w.suggest(&stranger, Suggest::Character, "ve"),
        ["Velvet", "Vesper"]
    );
    // Naming the other guild's character does not reach its sheet either.
    let stranger_gm = Caller {
        manage_server: true,
        ..stranger.clone()
    };
    w.skill(&stranger_gm, "Vesper", "Knowledge (Starlore)");
    let got = w.everything(&gm(), Suggest::Skill, "Vesper", &["check"]);
    assert!(got.iter().all(|s| !s.contains("Starlore")), "{got:?}");
}

#[test]
fn prefix_matches_come_first_own_characters_first_ignoring_case() {
    let w = world();
    w.create(&bob(), "Astor", "thiz");
    w.create(&bob(), "Tori", "thiz");
    w.create(&ann(), "Torvald", "thiz");
    w.create(&ann(), "Mentor", "thiz");
    let want = ["Torvald", "Tori", "Mentor", "Astor"];
    for typed in ["tor", "TOR", "Tor", "  tOr "] {
        assert_eq!(
            w.suggest(&ann(), Suggest::Character, typed),
            want,
            "{typed:?}"
        );
    }
    assert!(w.suggest(&ann(), Suggest::Character, "torx").is_empty());
}

#[test]
fn at_most_25_suggestions_of_at_most_100_characters() {
    let w = world();
    for i in 0..30 {
        w.create(&ann(), &format!("Hero {i:02}"), "thiz");
    }
    let got = w.suggest(&ann(), Suggest::Character, "hero");
    assert_eq!(got.len(), MAX_SUGGESTIONS);
    assert_eq!(got[0], "Hero 00");
    // The skill catalogue alone is longer than Discord's limit.
    assert_eq!(w.suggest(&ann(), Suggest::Skill, "").len(), MAX_SUGGESTIONS);

    // Values Discord cannot show are dropped, never cut (a cut value would not be accepted).
    let long = "x".repeat(MAX_CHARS + 1);
    let edge = "x".repeat(MAX_CHARS);
    let got = rank(vec![long, edge.clone(), String::new(), "X".repeat(3)], "x");
    assert_eq!(got, [edge, "XXX".to_owned()]);
    // Duplicates (ignoring case) are offered once, in their first spelling.
    assert_eq!(
        rank(
            vec!["Sword".into(), "sword".into(), "Broadsword".into()],
            "sw"
        ),
        ["Sword", "Broadsword"]
    );
}

// ---- skills ------------------------------------------------------------------------------------

#[test]
fn a_named_characters_skills_come_first_and_check_accepts_every_one() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    w.skill(&ann(), "Vexa", "Stealth");
    w.skill(&ann(), "Vexa", "Weapon Skill (Sword)");
    w.skill(&ann(), "Vexa", "Necromancy");
    let got = w.suggest_for(&ann(), Suggest::Skill, "", "vexa", &["check"]);
    assert_eq!(
        got[..3],
        ["Necromancy", "Stealth", "Weapon Skill (Sword)"],
        "{got:?}"
    );
    // Among the prefix matches, the sheet's come before the catalogue's.
    let s = w.suggest_for(&ann(), Suggest::Skill, "s", "Vexa", &["check"]);
    assert_eq!(s[0], "Stealth", "{s:?}");
    let sheet_pos = s.iter().position(|x| x == "Weapon Skill (Sword)").unwrap();
    let last_prefix = s.iter().rposition(|x| x.to_lowercase().starts_with('s'));
    assert!(last_prefix < Some(sheet_pos), "{s:?}");
    // Without a character named, the caller's most recently used one is read.
    let mine = w.app.suggest(
        &ann(),
        Suggest::Skill,
        "necro",
        &SuggestContext {
            character: None,
            command: &["check"],
        },
    );
    assert_eq!(mine, ["Necromancy"]);

    for skill in w.everything(&ann(), Suggest::Skill, "Vexa", &["check"]) {
        let reply = w.run(
            &ann(),
            &["check"],
            &[("skill", &skill), ("character", "Vexa"), ("mode", "self")],
        );
        accepted(&reply, &skill);
    }
}

#[test]
fn the_catalogue_is_accepted_for_a_character_with_no_skills() {
    let w = world();
    w.create(&ann(), "Blank", "thiz");
    let offered = w.everything(&ann(), Suggest::Skill, "", &["check"]);
    assert!(offered.contains("Stealth") && offered.contains("Lock-picking"));
    // Bare "Weapon Skill" needs a subject and an unlearned magic skill cannot be checked.
    assert!(!offered.contains("Weapon Skill") && !offered.contains("Necromancy"));
    for skill in &offered {
        let reply = w.run(
            &ann(),
            &["check"],
            &[("skill", skill), ("character", "Blank"), ("mode", "self")],
        );
        accepted(&reply, skill);
    }
    // Learning a skill is where a magic one is offered, and /character skill accepts them all.
    let learnable = w.everything(&ann(), Suggest::Skill, "Blank", &["character", "skill"]);
    assert!(learnable.contains("Necromancy"), "{learnable:?}");
    for skill in &learnable {
        w.skill(&ann(), "Blank", skill);
    }
    let blank = w
        .app
        .store
        .read(|c| characters::by_name(c, GUILD, "Blank"))
        .unwrap()
        .expect("Blank exists");
    let learned = w
        .app
        .store
        .read(|c| characters::skills(c, GUILD, blank.id))
        .unwrap();
    assert_eq!(learned.len(), learnable.len());
}

#[test]
fn an_npcs_sheet_never_leaks_to_a_player() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    w.npc("Zorblax");
    w.skill(&gm(), "Zorblax", "Knowledge (Zorbcraft)");
    w.weapon(&gm(), "Zorblax", "Zorbsword");
    let generic = w.everything(&ann(), Suggest::Skill, "", &["check"]);
    for typed in ["Zorblax", "zorblax", "Zorb", "nobody"] {
        let skills = w.everything(&ann(), Suggest::Skill, typed, &["check"]);
        assert_eq!(skills, generic, "{typed:?}");
        let weapons = w.everything(&ann(), Suggest::Weapon, typed, &["attack"]);
        assert!(weapons.is_empty(), "{typed:?}: {weapons:?}");
    }
    let seen = w.suggest_for(&gm(), Suggest::Skill, "", "Zorblax", &["check"]);
    assert_eq!(seen[0], "Knowledge (Zorbcraft)");
    let arms = w.suggest_for(&gm(), Suggest::Weapon, "", "Zorblax", &["attack"]);
    assert_eq!(arms, ["Zorbsword"]);
}

#[test]
fn a_tft_characters_talents_replace_the_catalogue() {
    let w = world();
    w.create(&bob(), "Bran", "tft");
    let before = w.suggest_for(&bob(), Suggest::Skill, "", "Bran", &["check"]);
    assert_eq!(before, w.suggest(&bob(), Suggest::Skill, ""));
    w.ok(
        &bob(),
        &["character", "set"],
        &[
            ("name", "Bran"),
            ("field", "talents"),
            ("value", "Sword, Acute Hearing (3)"),
        ],
    );
    let got = w.suggest_for(&bob(), Suggest::Skill, "", "Bran", &["check"]);
    assert_eq!(got, ["Sword", "Acute Hearing (3)"]);
}

// ---- weapons and locations ---------------------------------------------------------------------

#[test]
fn thiz_weapons_are_the_carried_ones_and_attack_accepts_them() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    w.create(&bob(), "Orrin", "thiz");
    w.weapon(&ann(), "Vexa", "Sword");
    w.weapon(&ann(), "Vexa", "Long Bow");
    w.ok(
        &ann(),
        &["character", "gear"],
        &[("name", "Vexa"), ("action", "add"), ("item", "Rope")],
    );
    w.skill(&ann(), "Vexa", "Weapon Skill (Axe)");
    let got = w.suggest_for(&ann(), Suggest::Weapon, "", "Vexa", &["attack"]);
    assert_eq!(got, ["Sword", "Long Bow"]);
    assert_eq!(
        w.suggest_for(&ann(), Suggest::Weapon, "BOW", "Vexa", &["attack"]),
        ["Long Bow"]
    );
    for weapon in &got {
        let reply = w.run(
            &ann(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Orrin"),
                ("weapon", weapon),
                ("mode", "self"),
            ],
        );
        accepted(&reply, weapon);
        assert!(reply.embeds[0].title.ends_with(&format!("with {weapon}")));
    }
}

#[test]
fn tft_weapons_carried_first_and_tft_attack_accepts_every_one() {
    let w = world();
    w.create(&bob(), "Bran", "tft");
    w.create(&ann(), "Rook", "tft");
    // Strong enough for every row, so only the weapon's name is being tested.
    w.ok(
        &bob(),
        &["character", "set"],
        &[("name", "Bran"), ("field", "st"), ("value", "40")],
    );
    w.weapon(&bob(), "Bran", "Mace");
    // A carried name that is not a table row (stored by an older version, say) is not offered.
    let bran = w
        .app
        .store
        .read(|c| characters::by_name(c, GUILD, "Bran"))
        .unwrap()
        .expect("Bran exists");
    w.app
        .store
        .write(|tx| characters::add_item(tx, GUILD, bran.id, "weapon", "Excalibur", "{}"))
        .unwrap();
    let command = ["tft", "attack"];
    let first = w.suggest_for(&bob(), Suggest::Weapon, "", "Bran", &command);
    assert_eq!(first[0], "Mace", "{first:?}");
    let offered = w.everything(&bob(), Suggest::Weapon, "Bran", &command);
    assert!(offered.contains("Broadsword") && offered.contains("hands"));
    assert!(!offered.contains("Excalibur") && !offered.contains("Molotail"));
    for weapon in &offered {
        let reply = w.run(
            &bob(),
            &command,
            &[
                ("attacker", "Bran"),
                ("target", "Rook"),
                ("weapon", weapon),
                ("mode", "self"),
            ],
        );
        accepted(&reply, weapon);
    }
}

#[test]
fn locations_are_accepted_by_attack_and_wound() {
    let w = world();
    w.create(&ann(), "Vexa", "thiz");
    w.create(&bob(), "Orrin", "thiz");
    let all = w.suggest(&ann(), Suggest::Location, "");
    assert_eq!(all.len(), 7);
    assert_eq!(
        w.suggest(&ann(), Suggest::Location, "ARM"),
        ["Right Arm", "Left Arm"]
    );
    assert_eq!(
        w.suggest(&ann(), Suggest::Location, "l"),
        ["Left Arm", "Left Leg", "Right Leg"]
    );
    for location in &all {
        let attack = w.run(
            &ann(),
            &["attack"],
            &[
                ("attacker", "Vexa"),
                ("target", "Orrin"),
                ("location", location),
                ("mode", "self"),
            ],
        );
        accepted(&attack, location);
        for (sub, extra) in [("add", Some(("level", "green"))), ("heal", None)] {
            let mut options = vec![("character", "Orrin"), ("location", location.as_str())];
            options.extend(extra);
            let wound = w.run(&gm(), &["wound", sub], &options);
            accepted(&wound, location);
        }
    }
}

// ---- saved rolls and expressions ---------------------------------------------------------------

impl World {
    fn alias(&self, caller: &Caller, name: &str, expression: &str, server: bool) {
        let server = if server { "true" } else { "false" };
        self.ok(
            caller,
            &["alias", "set"],
            &[
                ("name", name),
                ("expression", expression),
                ("server", server),
            ],
        );
    }

    fn suggest_in(
        &self,
        caller: &Caller,
        what: Suggest,
        typed: &str,
        command: &[&str],
    ) -> Vec<String> {
        let context = SuggestContext {
            character: None,
            command,
        };
        self.app.suggest(caller, what, typed, &context)
    }
}

/// `/roll expression:` offers the caller's saved rolls, the server's, then what the caller
/// rolled lately, newest first; never another player's saved rolls or rolls, nor a blind
/// roll's; and `/roll` accepts every one of them.
#[test]
fn an_expression_offers_saved_rolls_then_recent_rolls_and_roll_accepts_each() {
    let w = world();
    w.alias(&ann(), "attack", "1d20+5", false);
    w.alias(&gm(), "init", "1d20", true);
    w.alias(&bob(), "bobs roll", "1d4", false);
    for (who, expression, mode) in [
        (ann(), "2d6+1", "public"),
        (ann(), "4d6kh3", "self"),
        (ann(), "1d8+100", "blind"),
        (bob(), "3d10", "public"),
        (ann(), "1d12", "private"),
    ] {
        let reply = w.run(
            &who,
            &["roll"],
            &[("expression", expression), ("mode", mode)],
        );
        assert!(reply.all_text().contains("rolled"), "{}", reply.all_text());
    }
    // A recent roll is offered as the log spells it ("read as").
    let read = |e: &str| {
        crate::rules::dice::expr::parse(e, &crate::rules::dice::expr::Limits::default())
            .unwrap()
            .to_string()
    };
    let offered = w.suggest_in(&ann(), Suggest::Expression, "", &["roll"]);
    assert_eq!(
        offered,
        [
            "attack",
            "init",
            &read("1d12"),
            &read("4d6kh3"),
            &read("2d6+1")
        ]
    );
    assert_eq!(
        w.suggest_in(&ann(), Suggest::Expression, "D6", &["roll"]),
        [read("4d6kh3"), read("2d6+1")]
    );
    for value in &offered {
        let reply = w.run(
            &ann(),
            &["roll"],
            &[("expression", value), ("mode", "self")],
        );
        accepted(&reply, value);
    }
    // Another guild's saved rolls and rolls never appear.
    let stranger = member(OTHER_GUILD, 10, "Ann elsewhere");
    assert!(
        w.suggest_in(&stranger, Suggest::Expression, "", &["roll"])
            .is_empty()
    );
}

/// `/alias show` offers the caller's saved rolls and the server's; `/alias delete` a player's
/// own only (they may delete no other), and a GM the server's too.
#[test]
fn saved_roll_names_are_offered_to_those_who_may_use_them() {
    let w = world();
    w.alias(&ann(), "attack", "1d20+5", false);
    w.alias(&gm(), "init", "1d20", true);
    w.alias(&bob(), "bobs roll", "1d4", false);
    let show = ["alias", "show"];
    let delete = ["alias", "delete"];
    assert_eq!(
        w.suggest_in(&ann(), Suggest::Alias, "", &show),
        ["attack", "init"]
    );
    assert_eq!(
        w.suggest_in(&ann(), Suggest::Alias, "", &delete),
        ["attack"]
    );
    assert_eq!(w.suggest_in(&gm(), Suggest::Alias, "", &delete), ["init"]);
    assert_eq!(w.suggest_in(&ann(), Suggest::Alias, "IN", &show), ["init"]);
    for name in w.suggest_in(&ann(), Suggest::Alias, "", &show) {
        let reply = w.run(&ann(), &["alias", "show"], &[("name", &name)]);
        assert!(reply.content.contains("rolls it"), "{}", reply.content);
    }
}
