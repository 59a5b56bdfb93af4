//! `/gm request`, its buttons and `/gm check`, through `App::handle` on a seeded die.

use super::*;
use crate::app::invocation::Invocation;
use crate::app::{App, Caller};
use crate::store::characters::NewCharacter;
use crate::store::rolls::{self, Mode};
use crate::store::{GuildId, UserId, conditions};

const GUILD: GuildId = GuildId(1);

struct World {
    _dir: tempfile::TempDir,
    app: App,
    gala: CharacterId,
    brom: CharacterId,
    tor: CharacterId,
    n: std::cell::Cell<u32>,
}

fn caller(user: u64, name: &str, gm: bool) -> Caller {
    Caller {
        guild: GUILD,
        user: UserId(user),
        name: name.into(),
        roles: vec![],
        manage_server: gm,
    }
}

fn gm() -> Caller {
    caller(1, "Gemma", true)
}
fn ann() -> Caller {
    caller(10, "Ann", false)
}
fn bob() -> Caller {
    caller(11, "Bob", false)
}

impl World {
    /// Ann plays Gala (THIZ, Swimming 4) and Tor (TFT, DX 12); Bob plays Brom (THIZ); the GM
    /// has an NPC, Grut.
    fn new() -> Self {
        let (dir, app) = crate::app::temp_app(7);
        let create = |name: &str, system: System, owner: u64, npc: bool, sheet: &str| {
            app.store
                .write(|tx| {
                    characters::create(
                        tx,
                        GUILD,
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
        };
        let gala = create("Gala", System::Thiz, 10, false, "{}");
        let brom = create("Brom", System::Thiz, 11, false, "{}");
        let tor = create(
            "Tor",
            System::Tft,
            10,
            false,
            r#"{"st": 10, "dx": 12, "iq": 10}"#,
        );
        create("Grut", System::Thiz, 1, true, "{}");
        app.store
            .write(|tx| characters::set_skill(tx, GUILD, gala, "Swimming", 4))
            .unwrap();
        World {
            _dir: dir,
            app,
            gala,
            brom,
            tor,
            n: std::cell::Cell::new(0),
        }
    }

    /// Runs a command as `who` under a fresh interaction id; a parse error becomes its reply.
    // `App::run`'s own shape: a reply either way.
    #[allow(clippy::result_large_err)]
    fn run(&self, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> Result<Reply, Reply> {
        self.n.set(self.n.get() + 1);
        self.app.run(
            who,
            &format!("t{}", self.n.get()),
            &Invocation::new(path, options),
        )
    }

    fn ok(&self, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        self.run(who, path, options)
            .unwrap_or_else(|r| panic!("{path:?} {options:?} was refused: {}", r.all_text()))
    }

    fn refused(&self, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> String {
        let before = self.state();
        let r = self.run(who, path, options).err().unwrap_or_else(|| {
            panic!("{path:?} {options:?} was accepted");
        });
        assert_eq!(r.visibility, Visibility::Ephemeral, "{}", r.content);
        assert!(r.embeds.is_empty() && r.update.is_none(), "{r:?}");
        assert!(!r.content.contains('\n'), "one line: {}", r.content);
        assert_eq!(self.state(), before, "a refusal changes nothing");
        r.content
    }

    #[allow(clippy::result_large_err)] // as `run`
    fn press(&self, who: &Caller, id: &str) -> Result<Reply, Reply> {
        self.run(who, &["button"], &[("id", id)])
    }

    /// Every request row and character row, and the number of rolls logged.
    fn state(&self) -> (Vec<(RequestRow, Vec<EntryRow>)>, usize) {
        self.app
            .store
            .read(|c| {
                let mut out = Vec::new();
                for id in 1.. {
                    let Some(row) = requests::get(c, GUILD, id)? else {
                        break;
                    };
                    out.push((row, requests::entries(c, GUILD, id)?));
                }
                Ok((out, rolls::recent(c, GUILD, None, None, 1000)?.len()))
            })
            .unwrap()
    }

    fn rolls(&self) -> usize {
        self.state().1
    }

    fn entries(&self, id: i64) -> Vec<EntryRow> {
        self.app
            .store
            .read(|c| requests::entries(c, GUILD, id))
            .unwrap()
    }

    /// A request from the GM for Gala and Brom: a Swimming check in `mode`.
    fn swimming(&self, mode: &str) -> Reply {
        self.ok(
            &gm(),
            &["gm", "request"],
            &[
                ("characters", "Gala, brom"),
                ("skill", "swimming"),
                ("mode", mode),
            ],
        )
    }
}

fn ids(reply: &Reply) -> Vec<String> {
    reply.buttons.iter().map(|b| b.custom_id.clone()).collect()
}

fn field<'a>(reply: &'a Reply, name: &str) -> &'a str {
    reply.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == name)
        .map_or_else(
            || panic!("no field {name} in {reply:?}"),
            |f| f.value.as_str(),
        )
}

#[test]
fn a_request_names_each_character_with_a_button_for_its_owner() {
    let w = World::new();
    let r = w.swimming("public");
    assert_eq!(
        r.visibility,
        Visibility::Public,
        "the table sees the request"
    );
    assert_eq!(r.embeds[0].title, "Roll request: a Swimming check");
    assert_eq!(field(&r, "Waiting for"), "Gala, Brom");
    assert_eq!(field(&r, "Rolled"), "nobody");
    assert_eq!(
        ids(&r),
        [
            format!("req:1:{}", w.gala),
            format!("req:1:{}", w.brom),
            "req:1:close".to_owned()
        ]
    );
    assert_eq!(r.buttons[0].label, "Roll for Gala");
    // A name given twice is asked once; a second request has its own number.
    let again = w.ok(
        &gm(),
        &["gm", "request"],
        &[
            ("characters", "Gala,Gala"),
            ("rating", "3"),
            ("modifier", "-2"),
            ("label", "the ledge"),
        ],
    );
    assert_eq!(
        again.embeds[0].title,
        "Roll request: a check at rating 3, modifier -2 (the ledge)"
    );
    assert_eq!(
        ids(&again),
        [format!("req:2:{}", w.gala), "req:2:close".into()]
    );
}

#[test]
fn the_owner_rolls_with_their_own_sheet_and_the_request_shows_it() {
    let w = World::new();
    w.swimming("public");
    let before = w.rolls();
    let r = w
        .press(&ann(), &format!("req:1:{}", w.gala))
        .unwrap_or_else(|r| panic!("{}", r.content));
    // The roll is Gala's /check on her sheet: her Swimming 4, in public, logged once.
    assert_eq!(r.visibility, Visibility::Public);
    assert_eq!(r.embeds[0].title, "Gala: Swimming check");
    assert!(field(&r, "Rating").starts_with("Swimming 4"), "{r:?}");
    assert_eq!(w.rolls(), before + 1);
    let logged = w
        .app
        .store
        .read(|c| rolls::recent(c, GUILD, None, None, 1))
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(
        (logged.user, logged.character, logged.command.as_str()),
        (UserId(10), Some(w.gala), "check")
    );
    // The request now reads: Gala rolled, Brom waiting; only Brom's button and the close remain.
    let shown = r.update.as_deref().expect("the request message is updated");
    assert_eq!(shown.visibility, Visibility::Public);
    assert_eq!(field(shown, "Rolled"), "Gala");
    assert_eq!(field(shown, "Waiting for"), "Brom");
    assert_eq!(
        ids(shown),
        [format!("req:1:{}", w.brom), "req:1:close".to_owned()]
    );
    assert_eq!(w.entries(1)[0].rolled_by, Some(UserId(10)));

    // A GM may press for a player; once everyone has rolled the request closes itself.
    let r = w.press(&gm(), &format!("req:1:{}", w.brom)).unwrap();
    let shown = r.update.as_deref().unwrap();
    assert_eq!(field(shown, "Rolled"), "Gala, Brom");
    assert_eq!(field(shown, "Waiting for"), "nobody");
    assert!(shown.buttons.is_empty(), "{shown:?}");
    assert!(
        shown.embeds[0]
            .description
            .contains("Everyone asked has rolled")
    );
    assert!(w.state().0[0].0.closed);
}

#[test]
fn another_player_pressing_is_refused_and_nothing_changes() {
    let w = World::new();
    w.swimming("public");
    let text = w.refused(&bob(), &["button"], &[("id", &format!("req:1:{}", w.gala))]);
    assert_eq!(
        text,
        "That button is for Gala's player (or a GM); press the one with your character's name."
    );
    // Made-up ids: another request, a character not asked, an NPC, nonsense.
    let grut = w
        .app
        .store
        .read(|c| characters::by_name(c, GUILD, "Grut"))
        .unwrap()
        .unwrap()
        .id;
    for id in [
        format!("req:9:{}", w.gala),
        format!("req:1:{}", w.tor),
        format!("req:1:{grut}"),
        "req:1:x".to_owned(),
        "req:0:1".to_owned(),
        "req:".to_owned(),
    ] {
        let text = w.refused(&ann(), &["button"], &[("id", &id)]);
        assert!(!text.contains("Grut"), "{id}: {text}");
    }
    // A player cannot close the request.
    let text = w.refused(&ann(), &["button"], &[("id", "req:1:close")]);
    assert_eq!(text, "Only a GM can close a roll request.");
}

#[test]
fn a_second_press_does_not_roll_again() {
    let w = World::new();
    w.swimming("private");
    let id = format!("req:1:{}", w.gala);
    let first = w.press(&ann(), &id).unwrap();
    assert!(first.gm_copy.is_some(), "a private roll copies the GM");
    let rolled = w.rolls();
    for who in [ann(), gm()] {
        let text = w.refused(&who, &["button"], &[("id", &id)]);
        assert_eq!(text, "Gala has already rolled for this request.");
    }
    // The same delivery again (same interaction id) is refused the same way.
    let again = w.app.run(
        &ann(),
        "t-same",
        &Invocation::new(&["button"], &[("id", &id)]),
    );
    assert!(again.is_err());
    assert_eq!(w.rolls(), rolled);
}

#[test]
fn racing_presses_roll_exactly_once() {
    let w = World::new();
    w.swimming("public");
    let before = w.rolls();
    let id = format!("req:1:{}", w.gala);
    let wins = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|n| {
                let (app, id) = (&w.app, &id);
                s.spawn(move || {
                    let who = if n % 2 == 0 { ann() } else { gm() };
                    app.run(
                        &who,
                        &format!("race-{n}"),
                        &Invocation::new(&["button"], &[("id", id)]),
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
    assert_eq!(wins, 1);
    assert_eq!(w.rolls(), before + 1);
}

#[test]
fn blind_results_never_reach_the_player_or_the_request_message() {
    let w = World::new();
    w.swimming("blind");
    let r = w.press(&ann(), &format!("req:1:{}", w.gala)).unwrap();
    let copy = r.gm_copy.as_deref().expect("the GM gets the result");
    let copy_text = copy.all_text();
    assert!(copy_text.contains("d100: "), "{copy_text}");
    assert!(copy_text.contains("Blind roll by Ann"), "{copy_text}");
    // What Ann and the channel see: that it was rolled, never how it went.
    let seen = r.caller_text();
    assert!(
        seen.contains("You rolled a check on Swimming blind"),
        "{seen}"
    );
    for word in [
        "d100", "Black", "Red", "Yellow", "Green", "Failure", "Row", "Odds",
    ] {
        assert!(!seen.contains(word), "{word} in {seen}");
    }
    let shown = r.update.as_deref().unwrap();
    assert_eq!(field(shown, "Rolled"), "Gala");
    assert!(shown.gm_copy.is_none());
    // The log keeps the result in the hidden table.
    let row = w
        .app
        .store
        .read(|c| rolls::recent(c, GUILD, None, None, 1))
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(row.mode, Mode::Blind);
    assert!(row.public_json.is_none());
}

#[test]
fn a_refused_roll_releases_the_claim() {
    let w = World::new();
    w.swimming("public");
    let id = format!("req:1:{}", w.gala);
    w.app
        .store
        .write(|tx| conditions::set(tx, GUILD, w.gala, Some("dead")))
        .unwrap();
    let text = w.refused(&ann(), &["button"], &[("id", &id)]);
    assert!(text.contains("Gala is dead"), "{text}");
    assert_eq!(w.entries(1)[0].rolled_by, None);
    w.app
        .store
        .write(|tx| conditions::set(tx, GUILD, w.gala, None))
        .unwrap();
    assert!(w.press(&ann(), &id).is_ok(), "pressing again rolls");
}

#[test]
fn a_closed_request_takes_no_more_presses() {
    let w = World::new();
    w.swimming("public");
    let r = w.press(&gm(), "req:1:close").unwrap();
    assert_eq!(r.visibility, Visibility::Ephemeral);
    assert_eq!(r.content, "Roll request #1 is closed.");
    let shown = r.update.as_deref().unwrap();
    assert!(shown.buttons.is_empty(), "no buttons on a closed request");
    assert!(shown.embeds[0].description.contains("Closed by the GM"));
    assert_eq!(field(shown, "Waiting for"), "Gala, Brom");
    let text = w.refused(&ann(), &["button"], &[("id", &format!("req:1:{}", w.gala))]);
    assert_eq!(text, "Roll request #1 is closed.");
    let text = w.refused(&gm(), &["button"], &[("id", "req:1:close")]);
    assert_eq!(text, "Roll request #1 is already closed.");
}

#[test]
fn a_tft_save_request_rolls_against_the_pressers_sheet() {
    let w = World::new();
    let r = w.ok(
        &gm(),
        &["gm", "request"],
        &[("characters", "Tor"), ("attribute", "DX"), ("dice", "3")],
    );
    assert_eq!(r.embeds[0].title, "Roll request: a 3-dice save against DX");
    let r = w.press(&ann(), &format!("req:1:{}", w.tor)).unwrap();
    assert_eq!(r.embeds[0].title, "Tor: 3d against DX");
    assert_eq!(field(&r, "Target"), "DX 12");
}

/// Who runs it, its options, and what the refusal says.
type Case<'a> = (&'a Caller, &'a [(&'a str, &'a str)], &'a str);

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let w = World::new();
    let req = &["gm", "request"][..];
    let cases: [Case<'_>; 10] = [
        (
            &ann(),
            &[("characters", "Gala"), ("skill", "Swimming")],
            "only a GM can do that",
        ),
        (
            &ann(),
            &[("characters", "Grut"), ("skill", "Swimming")],
            "only a GM can do that",
        ),
        (
            &gm(),
            &[("characters", "Nobody"), ("skill", "Swimming")],
            "There is no character named Nobody here",
        ),
        (
            &gm(),
            &[("characters", "Gala, Grut"), ("skill", "Swimming")],
            "Grut is an NPC",
        ),
        (
            &gm(),
            &[("characters", "Gala, Tor"), ("skill", "Swimming")],
            "Tor is a TFT character",
        ),
        (
            &gm(),
            &[("characters", "Gala"), ("attribute", "dx"), ("dice", "3")],
            "Gala is a THIZ character",
        ),
        (&gm(), &[("characters", "Gala")], "needs what to roll"),
        (
            &gm(),
            &[
                ("characters", "Gala"),
                ("skill", "Swimming"),
                ("rating", "3"),
            ],
            "not several",
        ),
        (
            &gm(),
            &[("characters", "Gala"), ("rating", "3"), ("dice", "3")],
            "dice goes with attribute",
        ),
        (
            &gm(),
            &[("characters", " , "), ("rating", "3")],
            "separated by commas",
        ),
    ];
    for (who, options, expected) in cases {
        let text = w.refused(who, req, options);
        assert!(text.contains(expected), "{options:?}: {text}");
    }
    let text = w.refused(&gm(), req, &[("characters", "Gala"), ("skill", "Flapping")]);
    assert!(text.starts_with("Unknown skill"), "{text}");
    let text = w.refused(&gm(), req, &[("characters", "Gala"), ("rating", "41")]);
    assert!(text.contains("rating must be between -40 and 40"), "{text}");
    let many = vec!["Gala"; MAX_CHARACTERS + 1].join(",");
    let text = w.refused(&gm(), req, &[("characters", &many), ("rating", "1")]);
    assert!(text.contains("at most 20 characters"), "{text}");
    // At the limit the request is accepted (Gala once).
    let at = vec!["Gala"; MAX_CHARACTERS].join(",");
    assert!(
        w.run(&gm(), req, &[("characters", &at), ("rating", "1")])
            .is_ok()
    );
}

#[test]
fn the_gm_rolls_a_players_check_in_secret() {
    let w = World::new();
    let r = w.ok(
        &gm(),
        &["gm", "check"],
        &[("character", "Gala"), ("skill", "Swimming")],
    );
    assert_eq!(r.visibility, Visibility::Ephemeral, "for the GM alone");
    assert!(r.gm_copy.is_none() && r.buttons.is_empty(), "{r:?}");
    assert!(
        r.content.starts_with("Secret roll for Gala"),
        "{}",
        r.content
    );
    assert_eq!(r.embeds[0].title, "Gala: Swimming check");
    assert!(r.all_text().contains("d100: "));
    // Logged blind: Ann's history says a blind roll was made, never its result.
    let row = w
        .app
        .store
        .read(|c| rolls::recent(c, GUILD, None, None, 1))
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!((row.mode, row.user), (Mode::Blind, UserId(1)));
    assert!(row.public_json.is_none());
    let history = w.ok(&ann(), &["history"], &[]).all_text();
    assert!(!history.contains("d100"), "{history}");

    // A save from a TFT sheet, and the refusals.
    let r = w.ok(
        &gm(),
        &["gm", "check"],
        &[("character", "Tor"), ("attribute", "st"), ("dice", "4")],
    );
    assert_eq!(r.embeds[0].title, "Tor: 4d against ST");
    let text = w.refused(
        &ann(),
        &["gm", "check"],
        &[("character", "Gala"), ("skill", "Swimming")],
    );
    assert!(text.contains("only a GM"), "{text}");
    let text = w.refused(
        &gm(),
        &["gm", "check"],
        &[("character", "Tor"), ("skill", "Swimming")],
    );
    assert!(text.contains("Tor is a TFT character"), "{text}");
}

#[test]
fn the_characters_list_autocompletes_its_last_name() {
    let w = World::new();
    let offered = |who: &Caller, typed: &str| suggest_characters(&w.app, who, typed);
    // Nothing typed: everyone, then every player character (never the NPC Grut).
    assert_eq!(offered(&gm(), ""), ["everyone", "Brom", "Gala", "Tor"]);
    // The last name completes after the names already typed, which are not offered again.
    assert_eq!(offered(&gm(), "Gala, b"), ["Gala, Brom"]);
    assert_eq!(offered(&gm(), "gala,"), ["gala, Brom", "gala, Tor"]);
    // Prefix matches before the others.
    assert_eq!(offered(&gm(), "o"), ["Brom", "Tor"]);
    assert_eq!(offered(&gm(), "r"), ["Brom", "Tor"]);
    assert!(offered(&gm(), "gru").is_empty(), "no NPC");
    // A player cannot request, so is offered nothing.
    assert!(offered(&ann(), "").is_empty());
}

#[test]
#[allow(clippy::result_large_err)] // `run_in` answers as `App::run` does
fn everyone_asks_the_encounters_player_characters_or_else_the_servers_players() {
    let w = World::new();
    let channel = 42;
    let run_in = |who: &Caller, path: &[&str], options: &[(&str, &str)]| {
        w.n.set(w.n.get() + 1);
        w.app.run_in(
            Some(channel),
            who,
            &format!("c{}", w.n.get()),
            &Invocation::new(path, options),
        )
    };
    run_in(
        &gm(),
        &["encounter", "start"],
        &[("system", "thiz"), ("surprise", "none")],
    )
    .unwrap_or_else(|r| panic!("{}", r.all_text()));
    for name in ["Gala", "Grut"] {
        run_in(&gm(), &["encounter", "add"], &[("character", name)])
            .unwrap_or_else(|r| panic!("{name}: {}", r.all_text()));
    }
    let asked = run_in(
        &gm(),
        &["gm", "request"],
        &[("characters", "everyone"), ("skill", "Swimming")],
    )
    .unwrap_or_else(|r| panic!("{}", r.all_text()));
    let text = asked.all_text();
    assert!(text.contains("Roll for Gala"), "{text}");
    for absent in ["Brom", "Tor", "Grut"] {
        assert!(!text.contains(absent), "{absent} is not asked: {text}");
    }
    // Issue 59: another channel has no encounter, so everyone is the server's players with a
    // character of the request's system: Gala's and Brom's (THIZ), not Tor (TFT) nor Grut (an
    // NPC).
    let elsewhere = w
        .app
        .run_in(
            Some(7),
            &gm(),
            "everywhere",
            &Invocation::new(
                &["gm", "request"],
                &[("characters", "everyone"), ("skill", "Swimming")],
            ),
        )
        .unwrap_or_else(|r| panic!("{}", r.all_text()));
    let text = elsewhere.all_text();
    for asked in ["Roll for Gala", "Roll for Brom"] {
        assert!(text.contains(asked), "{asked}: {text}");
    }
    for absent in ["Tor", "Grut"] {
        assert!(!text.contains(absent), "{absent} is not asked: {text}");
    }
}

/// `/gm request expression:init+1`: each presser rolls `/roll` with their own saved roll `init`,
/// else the server's, labelled with the character's name; the request tracks it as any other.
#[test]
fn a_dice_request_rolls_each_pressers_saved_roll() {
    let w = World::new();
    w.ok(
        &ann(),
        &["alias", "set"],
        &[("name", "init"), ("expression", "1d20+3")],
    );
    w.ok(
        &gm(),
        &["alias", "set"],
        &[("name", "init"), ("expression", "1d20"), ("server", "true")],
    );
    // Any character is asked for dice, whatever its system: Tor is TFT's.
    let r = w.ok(
        &gm(),
        &["gm", "request"],
        &[
            ("characters", "Gala, Brom, Tor"),
            ("expression", "init+1"),
            ("label", "initiative"),
        ],
    );
    assert_eq!(
        r.embeds[0].title,
        "Roll request: a roll of `init+1` (initiative)"
    );
    let gala = w.press(&ann(), &format!("req:1:{}", w.gala)).unwrap();
    assert_eq!(gala.embeds[0].title, "Gala · initiative");
    assert!(
        gala.embeds[0]
            .description
            .starts_with("init → `1d20+3+1`\nAnn rolled"),
        "Ann's own: {:?}",
        gala.embeds[0]
    );
    let brom = w.press(&bob(), &format!("req:1:{}", w.brom)).unwrap();
    assert!(
        brom.embeds[0].description.starts_with("init → `1d20+1`"),
        "Bob has none: the server's: {:?}",
        brom.embeds[0]
    );
    let shown = brom.update.as_deref().unwrap();
    assert_eq!(field(shown, "Rolled"), "Gala, Brom");
    assert_eq!(field(shown, "Waiting for"), "Tor");
    // Plain dice, with no label: the character's name is the roll's.
    w.ok(
        &gm(),
        &["gm", "request"],
        &[("characters", "Gala"), ("expression", "2d6")],
    );
    let r = w.press(&ann(), &format!("req:2:{}", w.gala)).unwrap();
    assert_eq!(r.embeds[0].title, "Gala");
}

/// A saved roll nobody pressing has is refused at the press, which is then free again; dice no
/// one can read, or a dice request with a check's options, are refused at once.
#[test]
fn a_dice_request_is_refused_as_roll_would_refuse_it() {
    let w = World::new();
    w.ok(
        &gm(),
        &["gm", "request"],
        &[("characters", "Gala"), ("expression", "loot")],
    );
    let id = format!("req:1:{}", w.gala);
    let text = w.refused(&ann(), &["button"], &[("id", &id)]);
    assert!(text.contains("Can't roll that"), "{text}");
    assert_eq!(w.entries(1)[0].rolled_by, None, "the claim is released");
    w.ok(
        &ann(),
        &["alias", "set"],
        &[("name", "loot"), ("expression", "1d6")],
    );
    assert!(w.press(&ann(), &id).is_ok(), "with a saved roll, it rolls");

    let req = &["gm", "request"][..];
    let cases: [Case<'_>; 5] = [
        (
            &gm(),
            &[("characters", "Gala"), ("expression", "1d20+")],
            "Can't ask for that roll",
        ),
        (
            &gm(),
            &[("characters", "Gala"), ("expression", "3d6x")],
            "Can't ask for that roll",
        ),
        (
            &gm(),
            &[
                ("characters", "Gala"),
                ("expression", "1d20"),
                ("skill", "Swimming"),
            ],
            "not several",
        ),
        (
            &gm(),
            &[
                ("characters", "Gala"),
                ("expression", "1d20"),
                ("modifier", "2"),
            ],
            "put the modifier in it",
        ),
        (
            &ann(),
            &[("characters", "Gala"), ("expression", "1d20")],
            "only a GM can do that",
        ),
    ];
    for (who, options, expected) in cases {
        let text = w.refused(who, req, options);
        assert!(text.contains(expected), "{options:?}: {text}");
    }
    // /gm check rolls a sheet: it takes no expression.
    let text = w.refused(
        &gm(),
        &["gm", "check"],
        &[("character", "Gala"), ("expression", "1d20")],
    );
    assert!(text.contains("has no option \"expression\""), "{text}");
}
