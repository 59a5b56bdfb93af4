//! Encounter use-case tests: whole THIZ and TFT fights through `app` on seeded dice, with a
//! restart (the store reopened) in the middle; permissions and bad input; racing presses of
//! "next"; the status message's secrecy.

use std::path::Path;
use std::sync::Arc;

use super::state::{State, Team};
use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::reply::{Reply, Visibility};
use crate::app::sheet::{Sheet, TftSheet};
use crate::app::{App, Caller, Dice};
use crate::rules::dice::expr::Limits;
use crate::rules::thiz::combat::initiative_pass;
use crate::store::characters::{self, NewCharacter, WoundRow};
use crate::store::guilds::System;
use crate::store::{CharacterId, GuildId, Store, UserId, encounters};

const G: GuildId = GuildId(1);
const CH: u64 = 500;
const ANN: u64 = 10;
const BOB: u64 = 11;
const GM: u64 = 99;

struct Table {
    dir: tempfile::TempDir,
    app: Arc<App>,
}

fn open(path: &Path, seed: u64) -> Arc<App> {
    let store = Store::open(path).expect("the database");
    Arc::new(App::new(
        Arc::new(store),
        Dice::seeded(seed),
        Limits::default(),
    ))
}

fn caller(user: u64) -> Caller {
    Caller {
        guild: G,
        user: UserId(user),
        name: format!("user {user}"),
        roles: vec![],
        manage_server: user == GM,
    }
}

impl Table {
    /// A table in a guild with a GM channel, as set up by the README's steps.
    fn new(seed: u64) -> Table {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let app = open(&dir.path().join("t.sqlite3"), seed);
        app.store
            .write(|tx| {
                let mut s = crate::store::guilds::get(tx, G)?;
                s.gm_channel_id = Some(crate::app::TEST_GM_CHANNEL);
                crate::store::guilds::put(tx, G, &s)
            })
            .expect("the guild's settings");
        Table { dir, app }
    }

    /// Closes the app and opens the same database again, as a restarted bot does.
    fn restart(&mut self, seed: u64) {
        let path = self.dir.path().join("t.sqlite3");
        self.app = open(&path, seed);
    }

    // `Err` is the refusal as a reply, as `App::run` gives it.
    #[allow(clippy::result_large_err)]
    fn run(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> Result<Reply, Reply> {
        self.app
            .run_in(Some(CH), &caller(user), "i", &Invocation::new(path, opts))
    }

    fn ok(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> Reply {
        self.run(user, path, opts)
            .unwrap_or_else(|e| panic!("{path:?} {opts:?} refused: {}", e.content))
    }

    fn refused(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> String {
        let before = self.row();
        let r = self
            .run(user, path, opts)
            .err()
            .unwrap_or_else(|| panic!("{path:?} {opts:?} was accepted"));
        assert_eq!(r.visibility, Visibility::Ephemeral);
        assert_eq!(self.row(), before, "a refusal changed the encounter");
        r.content
    }

    fn row(&self) -> Option<(i64, String)> {
        self.app
            .store
            .read(|c| encounters::get(c, G, CH))
            .unwrap()
            .map(|r| (r.version, r.state_json))
    }

    fn state(&self) -> State {
        serde_json::from_str(&self.row().expect("an encounter").1).unwrap()
    }

    fn version(&self) -> i64 {
        self.row().expect("an encounter").0
    }

    fn character(
        &self,
        name: &str,
        system: System,
        owner: u64,
        npc: bool,
        sheet: &str,
    ) -> CharacterId {
        self.app
            .store
            .write(|tx| {
                characters::create(
                    tx,
                    G,
                    &NewCharacter {
                        name,
                        system,
                        owner_id: UserId(owner),
                        npc,
                        sheet_json: sheet,
                    },
                )
            })
            .unwrap()
            .unwrap()
    }

    fn skill(&self, id: CharacterId, skill: &str, rating: i64) {
        self.app
            .store
            .write(|tx| characters::set_skill(tx, G, id, skill, rating))
            .unwrap();
    }

    fn id(&self, name: &str) -> Option<CharacterId> {
        self.app
            .store
            .read(|c| characters::by_name(c, G, name))
            .unwrap()
            .map(|c| c.id)
    }

    fn current(&self) -> String {
        self.state().current().expect("someone's turn").name.clone()
    }

    fn status_text(&self) -> String {
        self.app
            .encounter_status(G, CH)
            .unwrap()
            .expect("a status to show")
            .reply
            .all_text()
    }
}

fn thiz_table(seed: u64) -> Table {
    let t = Table::new(seed);
    let alys = t.character("Alys", System::Thiz, ANN, false, "{}");
    t.skill(alys, "Speed", 4);
    t.skill(alys, "Perception", 3);
    t.skill(alys, "Weapon Skill (Sword)", 5);
    let bren = t.character("Bren", System::Thiz, BOB, false, "{}");
    t.skill(bren, "Speed", 2);
    t.skill(bren, "Perception", 2);
    let goblin = t.character("Goblin", System::Thiz, GM, true, "{}");
    t.skill(goblin, "Speed", 13);
    t.skill(goblin, "Perception", 11);
    t.skill(goblin, "Weapon Skill (Spear)", 3);
    t
}

/// Issue 59: each "next" pings the player whose figure's turn comes, and only them: never for
/// an NPC, never the player who moved the turn on, never while the server's switch is off.
#[test]
fn a_players_turn_pings_that_player_alone() {
    let t = thiz_table(11);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(BOB, &["encounter", "add"], &[("character", "Bren")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    let owner = |name: &str| match name {
        "Alys" => Some(ANN),
        "Bren" => Some(BOB),
        _ => None,
    };
    let mut pinged = std::collections::BTreeSet::new();
    let mut npc_turns = 0;
    for _ in 0..12 {
        let said = t.ok(GM, &["encounter", "next"], &[]);
        let now = t.current();
        if let Some(user) = owner(&now) {
            assert_eq!(said.mention, Some(user), "{now}: {said:?}");
            assert!(said.content.starts_with(&format!("<@{user}> ")), "{said:?}");
            pinged.insert(user);
        } else {
            npc_turns += 1;
            assert_eq!(said.mention, None, "an NPC's turn pings nobody: {said:?}");
            assert!(!said.content.contains("<@"), "{said:?}");
        }
    }
    assert_eq!(pinged.len(), 2, "both players were told their turn");
    assert!(npc_turns > 0, "the goblin had turns");
    // A player who ends their own turn into their own next one is not pinged by themselves.
    let now = t.current();
    if let Some(user) = owner(&now) {
        let said = t.ok(user, &["encounter", "next"], &[]);
        if t.current() == now {
            assert_eq!(said.mention, None);
        }
    }
    // The server's switch off: nobody is pinged.
    t.ok(
        GM,
        &["gm", "rules"],
        &[("name", "turn_pings"), ("value", "false")],
    );
    for _ in 0..6 {
        let said = t.ok(GM, &["encounter", "next"], &[]);
        assert_eq!(said.mention, None, "{said:?}");
        assert!(!said.content.contains("<@"), "{said:?}");
    }
}

/// The order of a THIZ pass: every figure able to act, in initiative order, a turn for every
/// 10 points (thiz-rulebook.md, "Determining Initiative and Initiative Passes").
fn assert_thiz_order(s: &State) {
    let able: Vec<_> = s
        .figures
        .iter()
        .filter(|f| f.initiative.is_some())
        .collect();
    let values: Vec<i32> = able.iter().map(|f| f.initiative.unwrap()).collect();
    let want: Vec<(CharacterId, u32)> = initiative_pass(&values)
        .unwrap()
        .into_iter()
        .map(|slot| (able[slot.combatant].id, slot.round))
        .collect();
    let got: Vec<(CharacterId, u32)> = s.order.iter().map(|o| (o.figure, o.step)).collect();
    assert_eq!(got, want);
}

#[test]
#[allow(clippy::too_many_lines)] // One fight, read top to bottom.
fn a_whole_thiz_fight_with_a_restart() {
    let mut t = thiz_table(11);
    // Bad input before anything exists changes nothing.
    assert!(
        t.refused(GM, &["encounter", "next"], &[])
            .contains("no encounter")
    );
    assert!(
        t.refused(ANN, &["encounter", "start"], &[])
            .contains("only a GM")
    );
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    assert!(
        t.refused(GM, &["encounter", "start"], &[])
            .contains("already under way")
    );
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    // A player adds only their own character; an NPC sheet is the GM's.
    assert!(
        t.refused(ANN, &["encounter", "add"], &[("character", "Bren")])
            .contains("not your character")
    );
    assert!(
        t.refused(ANN, &["encounter", "add"], &[("npc", "Goblin")])
            .contains("only a GM")
    );
    t.ok(BOB, &["encounter", "add"], &[("character", "Bren")]);
    let added = t.ok(
        GM,
        &["encounter", "add"],
        &[("npc", "Goblin"), ("count", "2")],
    );
    assert!(added.content.contains("Goblin 1") && added.content.contains("Goblin 2"));
    assert!(t.id("Goblin 1").is_some() && t.id("Goblin 2").is_some());
    let s = t.state();
    assert_eq!(s.figures.len(), 4);
    assert_eq!(s.figures[2].team, Team::Foes);
    assert!(!s.begun());
    // Only a GM begins.
    assert!(
        t.refused(ANN, &["encounter", "next"], &[])
            .contains("Only a GM")
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert_eq!(s.round, 1);
    assert_thiz_order(&s);
    // The goblins' Speed + Perception 24 beats anything a d10 gives Alys (at most 17): they
    // go first, and take a turn for every 10 points (25..34: three or four).
    assert!(
        s.order[0].figure != t.id("Alys").unwrap() && s.order[1].figure != t.id("Alys").unwrap()
    );
    let g1 = s
        .figure(t.id("Goblin 1").unwrap())
        .unwrap()
        .initiative
        .unwrap();
    assert_eq!(
        s.order
            .iter()
            .filter(|o| o.figure == t.id("Goblin 1").unwrap())
            .count() as u32,
        crate::rules::thiz::combat::actions_in_pass(g1)
    );

    // A goblin's turn: a player may neither move it on nor attack with it or out of turn.
    let first = t.current();
    assert!(first.starts_with("Goblin"));
    assert!(t.refused(ANN, &["encounter", "next"], &[]).contains("turn"));
    assert!(
        t.refused(
            ANN,
            &["attack"],
            &[("attacker", "Alys"), ("target", "Bren")]
        )
        .contains("turn")
    );
    // The GM declares Defend for the goblin, then attacks with it (the attacker by default).
    t.ok(GM, &["encounter", "declare"], &[("option", "defend")]);
    assert_eq!(
        t.state().current().unwrap().declared,
        Some(super::state::Declared::Defend)
    );
    let hit = t.ok(GM, &["attack"], &[("target", "Alys")]);
    assert!(hit.all_text().contains(&first), "{}", hit.all_text());

    // Restart in the middle: the encounter is as it was.
    let before = t.row();
    t.restart(12);
    assert_eq!(t.row(), before);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.state().turns, 1);

    // Move on to Alys's turn; her attack on the defending goblin counts its Defend once.
    while t.current() != "Alys" {
        t.ok(GM, &["encounter", "next"], &[]);
    }
    // (An NPC is the GM's to name, so the GM rolls Alys's blow.) If the goblin's Defend still
    // stands (a later turn of its own ends it), its Spear skill 3 adds to its Speed, once.
    let defending = t
        .state()
        .figure(t.id(&first).unwrap())
        .unwrap()
        .declared
        .is_some();
    let r = t.ok(GM, &["attack"], &[("target", first.as_str())]);
    assert!(r.all_text().contains("Alys"));
    assert_eq!(
        r.all_text().contains("defends: +3"),
        defending,
        "{}",
        r.all_text()
    );
    // thiz-rulebook.md, "Determining Initiative and Initiative Passes": a turn is one action,
    // so a second attack in it is refused (changing nothing); the Defend was used by the first.
    let again = t.refused(ANN, &["attack"], &[("target", first.as_str())]);
    assert!(
        again.contains("Alys has already acted this turn"),
        "{again}"
    );
    let goblin = t.state().figure(t.id(&first).unwrap()).cloned().unwrap();
    assert_eq!(goblin.defend_used, defending, "{goblin:?}");
    // A goblin falls (a Black wound to the Chest): it leaves the order at the next turn.
    let g2 = t.id("Goblin 2").unwrap();
    t.app
        .store
        .write(|tx| {
            characters::set_wounds(
                tx,
                G,
                g2,
                &[WoundRow {
                    location: "chest".into(),
                    level: "black".into(),
                    count: 1,
                }],
            )
        })
        .unwrap();
    t.ok(ANN, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(s.figure(g2).unwrap().down);
    assert!(t.status_text().contains("Goblin 2"));
    // Play on to the next pass: Goblin 2 takes no turn in it.
    let round = s.round;
    while t.state().round == round {
        let who = t.current();
        let user = match who.as_str() {
            "Alys" => ANN,
            "Bren" => BOB,
            _ => GM,
        };
        t.ok(user, &["encounter", "next"], &[]);
    }
    let s = t.state();
    assert_thiz_order(&s);
    assert!(s.order.iter().all(|o| o.figure != g2));
    // Only a GM ends it; the NPC copies go with it.
    assert!(
        t.refused(ANN, &["encounter", "end"], &[])
            .contains("only a GM")
    );
    let over = t.ok(GM, &["encounter", "end"], &[]);
    assert!(over.content.contains("over"));
    assert!(t.id("Goblin 1").is_none() && t.id("Goblin").is_some());
    assert!(t.status_text().contains("Encounter over"));
}

#[test]
fn thiz_initiative_adds_the_skills_as_rated_not_raised_to_general_physical() {
    // (name, the sheet's skills, what initiative adds)
    type Case<'a> = (&'a str, &'a [(&'a str, i64)], &'a str);
    // thiz-rulebook.md, "Determining Initiative and Initiative Passes": d10 + the higher of
    // Speed + Perception and General Physical, each skill as the sheet rates it (a skill not on
    // the sheet is 0). General Physical is the [P] skills' sum / 10 (Strength and Toughness
    // fill it up to 8 here).
    let t = Table::new(2);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    let cases: [Case; 5] = [
        // The case: 1 + 1 against Physical 8 adds 8, not 16.
        (
            "Low",
            &[
                ("Speed", 1),
                ("Perception", 1),
                ("Strength", 40),
                ("Toughness", 38),
            ],
            "General Physical 8",
        ),
        // The sum above, equal to and below General Physical 8 (a tie counts as the sum).
        (
            "Above",
            &[
                ("Speed", 6),
                ("Perception", 3),
                ("Strength", 40),
                ("Toughness", 31),
            ],
            "Speed + Perception 9",
        ),
        (
            "Equal",
            &[
                ("Speed", 5),
                ("Perception", 3),
                ("Strength", 40),
                ("Toughness", 32),
            ],
            "Speed + Perception 8",
        ),
        (
            "Below",
            &[
                ("Speed", 4),
                ("Perception", 3),
                ("Strength", 40),
                ("Toughness", 33),
            ],
            "General Physical 8",
        ),
        // Untrained in both: 0 + 0 against Physical 3.
        ("Untrained", &[("Strength", 30)], "General Physical 3"),
    ];
    for (name, skills, _) in &cases {
        let id = t.character(name, System::Thiz, ANN, false, "{}");
        for (skill, rating) in *skills {
            t.skill(id, skill, *rating);
        }
        t.ok(GM, &["encounter", "add"], &[("character", name)]);
    }
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    for (name, _, base) in cases {
        let f = s.figures.iter().find(|f| f.name == name).unwrap();
        assert!(
            f.detail.contains(&format!("+ {base} =")),
            "{name}: {}",
            f.detail
        );
        let value: i32 = base.rsplit(' ').next().unwrap().parse().unwrap();
        let die = f.initiative.unwrap() - value;
        assert!((1..=10).contains(&die), "{name}: {}", f.detail);
    }
}

#[test]
fn thiz_surprise_shapes_the_first_round() {
    // thiz-rulebook.md, "Determine Surprise": an ambush gives one side a whole pass first.
    let t = thiz_table(3);
    t.ok(GM, &["encounter", "start"], &[("surprise", "ambush-party")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(s.opening);
    assert!(
        s.order
            .iter()
            .all(|o| s.figure(o.figure).unwrap().team == Team::Party)
    );
    assert!(t.status_text().contains("surprise"));
    // After the ambush pass, the first Initiative Pass has everyone.
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(!s.opening);
    assert_eq!(s.round, 1);
    assert!(
        s.order
            .iter()
            .any(|o| s.figure(o.figure).unwrap().team == Team::Foes)
    );
}

#[test]
fn a_waiting_figure_checks_reflexes_to_act_first() {
    let t = thiz_table(5);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Bren")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let waiter = t.current();
    let owner = if waiter == "Alys" { ANN } else { BOB };
    t.ok(owner, &["encounter", "declare"], &[("option", "wait")]);
    t.ok(owner, &["encounter", "next"], &[]);
    let other = t.current();
    assert_ne!(other, waiter);
    // Someone else's player cannot make the waiting figure act.
    let stranger = if owner == ANN { BOB } else { ANN };
    assert!(
        t.refused(stranger, &["encounter", "act"], &[("figure", &waiter)])
            .contains("not your character")
    );
    let before = t.state();
    let r = t.ok(owner, &["encounter", "act"], &[("figure", &waiter)]);
    let first = r.content.contains("before");
    assert!(r.content.contains("Reflexes"), "{}", r.content);
    // thiz-rulebook.md, "Reflexes": Yellow or better acts now, before the current turn;
    // otherwise at the end of the Initiative Pass.
    let s = t.state();
    assert_eq!(s.order.len(), before.order.len() + 1);
    let at = if first { s.turn } else { s.order.len() - 1 };
    assert_eq!(s.figure(s.order[at].figure).unwrap().name, waiter);
    assert!(
        t.refused(owner, &["encounter", "act"], &[("figure", &waiter)])
            .contains("not waiting")
    );
}

#[test]
fn an_npcs_wait_check_shows_its_reflexes_to_the_gm_alone() {
    let t = thiz_table(8);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    // Speed 13 + Perception 11: the goblin goes first.
    assert_eq!(t.current(), "Goblin 1");
    t.ok(GM, &["encounter", "declare"], &[("option", "wait")]);
    t.ok(GM, &["encounter", "next"], &[]);
    assert_eq!(t.current(), "Alys");
    let r = t.ok(GM, &["encounter", "act"], &[("figure", "Goblin 1")]);
    assert!(r.content.contains("Goblin 1"), "{}", r.content);
    assert!(!r.content.contains("Reflexes"), "{}", r.content);
    let copy = r.gm_copy.expect("the GM's copy");
    assert!(copy.content.contains("Reflexes"), "{}", copy.content);
}

fn tft_table(seed: u64) -> Table {
    let t = Table::new(seed);
    let sheet = |st: i32, dx: i32| {
        Sheet::Tft(TftSheet {
            st,
            dx,
            iq: 10,
            ..TftSheet::default()
        })
        .to_json()
    };
    t.character("Kara", System::Tft, ANN, false, &sheet(16, 16));
    t.character("Orc", System::Tft, GM, true, &sheet(12, 11));
    t
}

#[test]
#[allow(clippy::too_many_lines)] // One fight, read top to bottom.
fn a_whole_tft_fight_with_multiple_actions_and_a_restart() {
    let mut t = tft_table(21);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    // A THIZ character cannot join a TFT fight.
    t.character("Thea", System::Thiz, ANN, false, "{}");
    assert!(
        t.refused(ANN, &["encounter", "add"], &[("character", "Thea")])
            .contains("TFT")
    );
    t.ok(ANN, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc"), ("count", "2")]);
    // Declaring before the initiative is rolled is refused.
    assert!(
        t.refused(
            ANN,
            &["encounter", "declare"],
            &[("figure", "Kara"), ("actions", "2")]
        )
        .contains("not rolled")
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    assert_eq!(s.round, 1);
    let round = s.tft.clone().unwrap();
    assert_eq!(round.sum, round.rolls[0].0 + round.rolls[0].1);
    // tft-rules-summary.md, "Actions": highest adjDX first: Kara (16) before the orcs (11).
    assert_eq!(t.current(), "Kara");
    // tft-multiple-actions.txt: two actions with the boost need adjDX over the sum by 18.
    let sum = round.sum as i32;
    let boosted = t.run(
        ANN,
        &["encounter", "declare"],
        &[("actions", "2"), ("boost", "true")],
    );
    assert_eq!(boosted.is_ok(), 16 > sum + 18);
    t.ok(ANN, &["encounter", "declare"], &[("actions", "2")]);
    // Two attacks, each at the declared penalty (x1: one more die, 4 ST less); a third refused.
    // An NPC is the GM's to name (players cannot see NPC sheets), so the GM rolls Kara's blows.
    let orc1 = t.id("Orc 1").unwrap();
    for _ in 0..2 {
        let r = t.ok(
            GM,
            &["tft", "attack"],
            &[("target", "Orc 1"), ("weapon", "hands")],
        );
        assert!(r.all_text().contains("Kara"), "{}", r.all_text());
        assert!(
            r.all_text().contains("4d") || r.all_text().contains("4 dice"),
            "{}",
            r.all_text()
        );
    }
    // A player's third is refused; a GM's goes ahead, and says it was the GM's call (issue 57).
    assert!(
        t.refused(
            ANN,
            &["tft", "attack"],
            &[("target", "Orc 1"), ("weapon", "hands")]
        )
        .contains("taken them all")
    );
    assert!(
        t.refused(
            GM,
            &["tft", "attack"],
            &[("target", "Orc 2"), ("weapon", "hands"), ("actions", "2")]
        )
        .contains("does not match")
    );
    let call = t
        .ok(
            GM,
            &["tft", "attack"],
            &[("target", "Orc 1"), ("weapon", "hands")],
        )
        .all_text();
    assert!(
        call.contains("GM's call: Kara acts again this turn")
            && call.contains("action 3 of the turn"),
        "{call}"
    );
    let s = t.state();
    assert_eq!(s.figure(orc1).unwrap().hits_round, {
        // The round's count is the hits the sheet took.
        t.app
            .store
            .read(|c| characters::tft_damage(c, G, orc1))
            .unwrap()
            .0 as i32
    });
    t.restart(22);
    t.ok(ANN, &["encounter", "next"], &[]);
    let s = t.state();
    assert!(s.figure(t.id("Kara").unwrap()).unwrap().acted);
    let now = t.current();
    assert!(now.starts_with("Orc"));
    // Out of turn for a player: Kara has acted this round.
    assert!(
        t.refused(
            ANN,
            &["tft", "attack"],
            &[("attacker", "Kara"), ("target", "Kara")]
        )
        .contains("turn")
    );
    // Play to the next round: initiative rolled again, everyone able acts again.
    while t.state().round == 1 {
        t.ok(GM, &["encounter", "next"], &[]);
    }
    let s = t.state();
    assert_eq!(s.round, 2);
    assert!(s.figures.iter().all(|f| !f.acted));
    assert!(s.figures.iter().all(|f| f.hits_round == 0));
    t.ok(GM, &["encounter", "end"], &[]);
}

#[test]
fn tft_hits_since_the_last_action_cost_two_adj_dx_from_five() {
    // tft-rules-summary.md, "Actions": 5 or more hits since the figure's last action: -2 adjDX.
    let t = tft_table(1);
    t.ok(GM, &["encounter", "start"], &[("system", "tft")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Kara")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Orc")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let kara = t.id("Kara").unwrap();
    let orc = t.id("Orc 1").unwrap();
    for (hits, hurt) in [(4, false), (5, true)] {
        let mut s = t.state();
        s.figure_mut(kara).unwrap().hits_since = hits;
        let json = serde_json::to_string(&s).unwrap();
        let v = t.version();
        t.app
            .store
            .write(|tx| encounters::save(tx, G, CH, v, &json))
            .unwrap();
        let turn = t
            .app
            .store
            .read(|c| {
                let caller = caller(GM);
                let mut ctx = crate::app::Ctx::new(&t.app, &caller, "x").unwrap();
                ctx.channel = Some(CH);
                Ok(super::hooks::tft_before(&ctx, c, kara, orc, (None, false)))
            })
            .unwrap()
            .unwrap();
        assert_eq!(turn.hurt, hurt, "{hits} hits");
    }
}

#[test]
fn fifty_racing_presses_of_next_move_one_turn() {
    let t = thiz_table(9);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Bren")]);
    t.ok(
        GM,
        &["encounter", "add"],
        &[("npc", "Goblin"), ("count", "3")],
    );
    t.ok(GM, &["encounter", "next"], &[]);
    let version = t.version();
    let turns = t.state().turns;
    let id = format!("enc:next:{version}");
    let ok = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..50)
            .map(|i| {
                let app = Arc::clone(&t.app);
                let id = id.clone();
                // Two GMs and the players press at once.
                let user = [GM, GM + 1, ANN, BOB][i % 4];
                scope.spawn(move || {
                    let mut who = caller(user);
                    who.manage_server = user >= GM;
                    app.run_in(
                        Some(CH),
                        &who,
                        &format!("press-{i}"),
                        &Invocation::new(&["button"], &[("id", &id)]),
                    )
                    .is_ok()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .filter(|ok| *ok)
            .count()
    });
    assert_eq!(ok, 1);
    assert_eq!(t.version(), version + 1);
    assert_eq!(t.state().turns, turns + 1);
}

#[test]
fn undo_puts_back_exactly_the_state_before_the_last_next() {
    for (system, seed) in [("thiz", 51), ("tft", 52)] {
        let t = if system == "thiz" {
            thiz_table(seed)
        } else {
            tft_table(seed)
        };
        t.ok(
            GM,
            &["encounter", "start"],
            &[("system", system), ("surprise", "none")],
        );
        for name in ["Alys", "Bren", "Kara"] {
            if t.id(name).is_some() {
                t.ok(GM, &["encounter", "add"], &[("character", name)]);
            }
        }
        let npc = if system == "thiz" { "Goblin" } else { "Orc" };
        t.ok(GM, &["encounter", "add"], &[("npc", npc), ("count", "2")]);
        // Nothing to take back before any Next.
        assert!(
            t.refused(
                GM,
                &["button"],
                &[("id", &format!("enc:undo:{}", t.version()))]
            )
            .contains("no Next")
        );
        // Begin, then several Nexts (a THIZ pass ends and initiative is rolled again on the way).
        for presses in [0, 1, 2, 5] {
            for _ in 0..presses {
                t.ok(GM, &["encounter", "next"], &[]);
            }
            let before = t.state();
            let before_json = serde_json::to_value(&before).unwrap();
            t.ok(GM, &["encounter", "next"], &[]);
            assert_ne!(t.state(), before);
            let update = t.app.encounter_status(G, CH).unwrap().unwrap();
            let undo_id = format!("enc:undo:{}", t.version());
            assert!(
                update.reply.buttons.iter().any(|b| b.custom_id == undo_id),
                "{:?}",
                update.reply.buttons
            );
            // A GM's alone.
            assert!(
                t.refused(ANN, &["button"], &[("id", &undo_id)])
                    .contains("only a GM")
            );
            let r = t.ok(GM, &["button"], &[("id", &undo_id)]);
            assert!(r.content.contains("takes back"), "{}", r.content);
            let after = t.state();
            assert_eq!(after, before, "{system}: field by field");
            assert_eq!(serde_json::to_value(&after).unwrap(), before_json);
            // One level: a second Undo has nothing to take back, and no button offers it.
            let again = format!("enc:undo:{}", t.version());
            assert!(
                t.refused(GM, &["button"], &[("id", &again)])
                    .contains("no Next")
            );
            let update = t.app.encounter_status(G, CH).unwrap().unwrap();
            assert!(
                update
                    .reply
                    .buttons
                    .iter()
                    .all(|b| !b.custom_id.starts_with("enc:undo"))
            );
            // The fight goes on from there.
            t.ok(GM, &["encounter", "next"], &[]);
        }
        // The typed command does the same as the button.
        let before = t.state();
        t.ok(GM, &["encounter", "next"], &[]);
        assert!(
            t.refused(ANN, &["encounter", "undo"], &[])
                .contains("only a GM")
        );
        t.ok(GM, &["encounter", "undo"], &[]);
        assert_eq!(t.state(), before);
        assert!(
            t.refused(GM, &["encounter", "undo"], &[])
                .contains("no Next")
        );
        // Anything else changed since the Next: the Undo is refused, and changes nothing.
        t.ok(GM, &["encounter", "next"], &[]);
        let stale = format!("enc:undo:{}", t.version());
        let option = if system == "thiz" { "prone" } else { "dodging" };
        t.ok(GM, &["encounter", "declare"], &[("option", option)]);
        assert!(
            t.refused(GM, &["button"], &[("id", &stale)])
                .contains("earlier turn")
        );
        let now = format!("enc:undo:{}", t.version());
        assert!(
            t.refused(GM, &["button"], &[("id", &now)])
                .contains("no Next")
        );
    }
}

#[test]
fn the_status_never_shows_an_npcs_numbers_to_players() {
    let t = thiz_table(4);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "next"], &[]);
    let s = t.state();
    let goblin = s.figures.iter().find(|f| f.npc).unwrap();
    let secret = goblin.detail.clone();
    assert!(secret.contains("Speed + Perception 24"), "{secret}");
    let public = t.status_text();
    assert!(!public.contains("24"), "{public}");
    assert!(!public.contains(&secret));
    let players = t.ok(ANN, &["encounter", "show"], &[]);
    assert!(!players.all_text().contains("24"));
    let gm = t.ok(GM, &["encounter", "show"], &[]);
    assert_eq!(gm.visibility, Visibility::Ephemeral);
    assert!(gm.all_text().contains(&secret));
}

#[test]
fn the_watched_set_of_encounter_channels_follows_start_and_the_shown_end() {
    const OTHER: u64 = CH + 1;
    let mut t = thiz_table(6);
    // Not watched: every channel may have one (the console, the app's own tests).
    assert!(t.app.may_have_encounter(G, OTHER));
    t.app.watch_encounter_channels().unwrap();
    assert!(!t.app.may_have_encounter(G, CH));
    assert!(!t.app.may_have_encounter(G, OTHER));
    t.ok(GM, &["encounter", "start"], &[]);
    assert!(t.app.may_have_encounter(G, CH));
    assert!(!t.app.may_have_encounter(G, OTHER));
    assert!(!t.app.may_have_encounter(GuildId(G.0 + 1), CH));
    // A restarted bot loads it from the database.
    t.restart(6);
    t.app.watch_encounter_channels().unwrap();
    assert!(t.app.may_have_encounter(G, CH));
    // Ended, it stays until its message shows the end.
    t.ok(GM, &["encounter", "end"], &[]);
    assert!(t.app.may_have_encounter(G, CH));
    let over = t
        .app
        .encounter_status(G, CH)
        .unwrap()
        .expect("the end to show");
    t.app
        .encounter_status_shown(G, CH, 77, &over.shown)
        .unwrap();
    assert!(!t.app.may_have_encounter(G, CH));
    assert!(t.row().is_none());
}

#[test]
fn status_updates_only_when_it_changes_and_buttons_carry_the_version() {
    let t = thiz_table(6);
    assert_eq!(t.app.encounter_status(G, CH).unwrap(), None);
    t.ok(GM, &["encounter", "start"], &[]);
    let update = t.app.encounter_status(G, CH).unwrap().unwrap();
    assert_eq!(update.message_id, None);
    assert!(
        update
            .reply
            .buttons
            .iter()
            .any(|b| b.custom_id == format!("enc:next:{}", t.version()))
    );
    t.app
        .encounter_status_shown(G, CH, 77, &update.shown)
        .unwrap();
    assert_eq!(t.app.encounter_status(G, CH).unwrap(), None);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    let again = t.app.encounter_status(G, CH).unwrap().unwrap();
    assert_eq!(again.message_id, Some(77));
    // A status shown from before the end (a sync racing the end) does not forget the ended
    // encounter: the next sync still shows the end.
    let before_end = t.app.encounter_status(G, CH).unwrap().unwrap();
    t.ok(GM, &["encounter", "end"], &[]);
    t.app
        .encounter_status_shown(G, CH, 77, &before_end.shown)
        .unwrap();
    let over = t
        .app
        .encounter_status(G, CH)
        .unwrap()
        .expect("the end to show");
    assert!(over.reply.all_text().contains("Encounter over"));
    t.app
        .encounter_status_shown(G, CH, 77, &over.shown)
        .unwrap();
    assert_eq!(t.app.encounter_status(G, CH).unwrap(), None);
    assert!(t.row().is_none(), "forgotten once the end is shown");
    t.ok(GM, &["encounter", "start"], &[]);
    t.ok(GM, &["encounter", "add"], &[("character", "Alys")]);
    // A stale button changes nothing.
    assert!(
        t.refused(GM, &["button"], &[("id", "enc:next:1")])
            .contains("moved on")
    );
    // Outside a channel the command says where it belongs.
    let r = t
        .app
        .run(
            &caller(GM),
            "i",
            &Invocation::new(&["encounter", "show"], &[]),
        )
        .unwrap_err();
    assert!(r.content.contains("channel"));
    assert!(Command::parse(&Invocation::new(&["encounter", "dance"], &[])).is_err());
}

mod auto_timers;
mod down;
mod gm_view;
mod hits;
mod integrity;
mod players;
mod quick;
mod several;
mod shown;
mod timed;
mod trust;
