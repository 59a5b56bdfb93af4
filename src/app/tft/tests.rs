//! Command-level tests of the TFT use cases: each command's happy path with seeded dice, its bad
//! input (answered in one line, changing nothing) and who may run it.

use crate::app::command::{Command, Invocation};
use crate::app::reply::{Reply, Tone, Visibility};
use crate::app::sheet::{Sheet, TftSheet, ThizSheet};
use crate::app::{App, Caller};
use crate::store::characters::{self, NewCharacter};
use crate::store::guilds::{self, GuildSettings, System};
use crate::store::{CharacterId, GuildId, StoreError, UserId, rolls};

const ANN: u64 = 10;
const BOB: u64 = 11;
const GM: u64 = 99;

struct World {
    _dir: tempfile::TempDir,
    app: App,
}

fn world() -> World {
    let (dir, app) = crate::app::temp_app(7);
    World { _dir: dir, app }
}

fn caller(user: u64) -> Caller {
    Caller {
        guild: GuildId(1),
        user: UserId(user),
        name: if user == GM { "Gem" } else { "Ann" }.into(),
        roles: vec![],
        manage_server: user == GM,
    }
}

fn fighter(st: i32, dx: i32) -> TftSheet {
    TftSheet {
        st,
        dx,
        iq: 10,
        ..TftSheet::default()
    }
}

impl World {
    fn add(&self, name: &str, owner: u64, npc: bool, sheet: &Sheet) -> CharacterId {
        let system = match sheet {
            Sheet::Thiz(_) => System::Thiz,
            Sheet::Tft(_) => System::Tft,
        };
        self.app
            .store
            .write(|tx| -> Result<_, StoreError> {
                Ok(characters::create(
                    tx,
                    GuildId(1),
                    &NewCharacter {
                        name,
                        system,
                        owner_id: UserId(owner),
                        npc,
                        sheet_json: &sheet.to_json(),
                    },
                )?
                .unwrap())
            })
            .unwrap()
    }

    fn tft(&self, name: &str, owner: u64, sheet: TftSheet) -> CharacterId {
        self.add(name, owner, false, &Sheet::Tft(sheet))
    }

    fn give(&self, id: CharacterId, kind: &str, name: &str, stats: &str) {
        self.app
            .store
            .write(|tx| characters::add_item(tx, GuildId(1), id, kind, name, stats))
            .unwrap();
    }

    fn run(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> Reply {
        match Command::parse(&Invocation::new(path, opts)) {
            Ok(c) => self.app.handle(&caller(user), "i1", c),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn hits(&self, id: CharacterId) -> i64 {
        self.app
            .store
            .read(|c| characters::tft_damage(c, GuildId(1), id))
            .unwrap()
            .0
    }

    fn set_hits(&self, id: CharacterId, hits: i64) {
        self.app
            .store
            .write(|tx| characters::set_tft_damage(tx, GuildId(1), id, hits, 0))
            .unwrap();
    }

    fn rolls(&self) -> usize {
        self.app
            .store
            .read(|c| rolls::recent(c, GuildId(1), None, None, 1000))
            .unwrap()
            .len()
    }

    fn set_rule(&self, name: &str, on: bool) {
        self.app
            .store
            .write(|tx| {
                let mut s: GuildSettings = guilds::get(tx, GuildId(1))?;
                s.rules.insert(name.to_owned(), on);
                guilds::put(tx, GuildId(1), &s)
            })
            .unwrap();
    }
}

/// The one-line refusal of a reply, or a panic naming what came instead.
fn refusal(reply: &Reply) -> &str {
    assert_eq!(reply.visibility, Visibility::Ephemeral, "{reply:?}");
    assert!(reply.embeds.is_empty(), "expected a refusal, got {reply:?}");
    assert!(!reply.content.contains('\n'), "{}", reply.content);
    &reply.content
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

// ---------------------------------------------------------------------------------------------
// /tft save

#[test]
fn save_against_the_sheet_is_rolled_logged_and_shown() {
    let w = world();
    w.tft("Vexa", ANN, fighter(11, 13));
    let r = w.run(
        ANN,
        &["tft", "save"],
        &[
            ("attribute", "dx"),
            ("dice", "3"),
            ("character", "vexa"),
            ("modifier", "-2"),
        ],
    );
    assert_eq!(r.visibility, Visibility::Public);
    let e = &r.embeds[0];
    assert_eq!(e.title, "Vexa: 3d against DX");
    assert_eq!(field(&r, "Target"), "DX 13 -2 = 11");
    let dice: Vec<u32> = field(&r, "Dice")
        .split(" + ")
        .map(|f| f.parse().unwrap())
        .collect();
    assert_eq!(dice.len(), 3);
    let total: u32 = field(&r, "Total").parse().unwrap();
    assert_eq!(total, dice.iter().sum::<u32>());
    let expected = match total {
        ..=5 => "Automatic success",
        16.. => "Automatic failure",
        t if t <= 11 => "Success",
        _ => "Failure",
    };
    assert_eq!(e.description, format!("**{expected}**"));
    assert!(e.tone.is_some());
    assert_eq!(w.rolls(), 1);
}

#[test]
fn save_against_a_number_needs_no_character() {
    let w = world();
    let r = w.run(ANN, &["tft", "save"], &[("attribute", "12"), ("dice", "4")]);
    assert!(r.embeds[0].title.starts_with("Saving roll: 4d against 12"));
    assert_eq!(field(&r, "Dice").split(" + ").count(), 4);
    assert_eq!(w.rolls(), 1);
}

#[test]
fn save_refuses_bad_input_and_changes_nothing() {
    let w = world();
    w.tft("Vexa", ANN, fighter(11, 13));
    w.tft("Brom", BOB, fighter(12, 12));
    w.add("Gala", ANN, false, &Sheet::Thiz(ThizSheet::default()));
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("attribute", "dx"), ("dice", "0")],
            "dice must be between 1 and 12; you gave 0",
        ),
        (
            &[("attribute", "dx"), ("dice", "13")],
            "dice must be between 1 and 12; you gave 13",
        ),
        (
            &[("attribute", "luck"), ("dice", "3")],
            "attribute must be st, dx, iq or a number",
        ),
        (
            &[("attribute", "dx"), ("dice", "3"), ("character", "Nobody")],
            "There is no character named Nobody",
        ),
        (
            &[("attribute", "dx"), ("dice", "3"), ("character", "Brom")],
            "Brom belongs to another player",
        ),
        (
            &[("attribute", "dx"), ("dice", "3"), ("character", "Gala")],
            "Gala is a THIZ character",
        ),
        (&[("attribute", "dx")], "needs the option dice"),
        (
            &[("attribute", "dx"), ("dice", "3"), ("mode", "loud")],
            "mode must be public",
        ),
        (
            &[("attribute", "dx"), ("dice", "3"), ("skill", "x")],
            "has no option \"skill\"",
        ),
    ];
    for (opts, want) in cases {
        let r = w.run(ANN, &["tft", "save"], opts);
        let msg = refusal(&r);
        assert!(msg.contains(want), "{opts:?}: {msg}");
    }
    assert_eq!(w.rolls(), 0, "a refusal logs nothing");
}

#[test]
fn a_gm_rolls_for_anyone_and_blind_hides_the_result() {
    let w = world();
    w.tft("Brom", BOB, fighter(12, 12));
    let r = w.run(
        GM,
        &["tft", "save"],
        &[
            ("attribute", "st"),
            ("dice", "3"),
            ("character", "Brom"),
            ("mode", "blind"),
        ],
    );
    assert_eq!(r.visibility, Visibility::Ephemeral);
    assert!(r.embeds.is_empty());
    assert!(r.content.contains("only the GM sees"), "{}", r.content);
    let copy = r.gm_copy.as_ref().unwrap();
    assert_eq!(copy.embeds[0].title, "Brom: 3d against ST");
}

// ---------------------------------------------------------------------------------------------
// /tft attack

#[test]
fn attacks_apply_their_hits_to_the_target() {
    let w = world();
    let ann = w.tft("Vexa", ANN, fighter(14, 16));
    w.give(ann, "weapon", "broadsword", "{}");
    let target = w.tft(
        "Brom",
        BOB,
        TftSheet {
            armor: Some("leather".into()),
            ..fighter(60, 10)
        },
    );
    let mut applied = 0;
    let mut landed = 0;
    for _ in 0..12 {
        let r = w.run(
            ANN,
            &["tft", "attack"],
            &[("attacker", "Vexa"), ("target", "Brom")],
        );
        let e = &r.embeds[0];
        assert_eq!(e.title, "Vexa attacks Brom");
        assert!(field(&r, "adjDX").starts_with("DX 16 = **16** on 3 dice"));
        assert_eq!(field(&r, "Weapon"), "Broadsword");
        if let Some(h) = e.fields.iter().find(|f| f.name == "Hits") {
            landed += 1;
            applied += h.value.parse::<i64>().unwrap();
            assert!(field(&r, "Stops").starts_with("Leather"), "{r:?}");
            assert!(field(&r, "Target").starts_with("ST 60: "), "{r:?}");
        } else {
            assert!(matches!(e.tone, Some(Tone::Grey | Tone::Red)), "{r:?}");
        }
        assert_eq!(w.hits(target), applied);
    }
    assert!(landed > 0, "DX 16 should land some blows in 12 tries");
    assert_eq!(w.rolls(), 12);
}

#[test]
fn attack_adjustments_show_in_the_breakdown() {
    let w = world();
    let ann = w.tft(
        "Vexa",
        ANN,
        TftSheet {
            armor: Some("chainmail".into()),
            ..fighter(12, 14)
        },
    );
    w.give(ann, "weapon", "longbow", "{}");
    w.tft("Brom", BOB, fighter(12, 12));
    let r = w.run(
        ANN,
        &["tft", "attack"],
        &[
            ("attacker", "Vexa"),
            ("target", "Brom"),
            ("dodging", "true"),
            ("range", "13"),
            ("prior", "1"),
            ("modifier", "+1"),
        ],
    );
    assert_eq!(
        field(&r, "adjDX"),
        "DX 14, armor -3, target dodging +1 die, range 13 hexes -2, 1 earlier roll this turn -1, modifier +1 = **9** on 4 dice"
    );
    assert!(r.embeds[0].footer.as_ref().unwrap().contains("4-dice"));
}

#[test]
fn attack_refuses_bad_input_and_changes_nothing() {
    let w = world();
    let ann = w.tft("Vexa", ANN, fighter(12, 14));
    w.give(ann, "weapon", "broadsword", "{}");
    let brom = w.tft("Brom", BOB, fighter(12, 12));
    w.add("Gala", ANN, false, &Sheet::Thiz(ThizSheet::default()));
    w.add("Orc", GM, true, &Sheet::Tft(fighter(12, 10)));
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("attacker", "Vexa"), ("target", "Nobody")],
            "There is no character named Nobody",
        ),
        (
            &[("attacker", "Vexa"), ("target", "Orc")],
            "There is no character named Orc",
        ),
        (
            &[("attacker", "Brom"), ("target", "Vexa")],
            "Brom belongs to another player",
        ),
        (
            &[("attacker", "Gala"), ("target", "Brom")],
            "Gala is a THIZ character",
        ),
        (
            &[("attacker", "Vexa"), ("target", "Gala")],
            "Gala is a THIZ character",
        ),
        (
            &[
                ("attacker", "Vexa"),
                ("target", "Brom"),
                ("weapon", "banana"),
            ],
            "no weapon called \"banana\"",
        ),
        (
            &[
                ("attacker", "Vexa"),
                ("target", "Brom"),
                ("defending", "yes"),
                ("dodging", "yes"),
            ],
            "not both",
        ),
        (
            &[
                ("attacker", "Vexa"),
                ("target", "Brom"),
                ("defending", "yes"),
                ("facing", "rear"),
            ],
            "only adds a die against attacks from the front",
        ),
        (
            &[("attacker", "Vexa"), ("target", "Brom"), ("range", "5")],
            "range is for missile and thrown weapons",
        ),
        (
            &[
                ("attacker", "Vexa"),
                ("target", "Brom"),
                ("facing", "above"),
            ],
            "facing must be one of front, side, rear",
        ),
        (
            &[("attacker", "Vexa"), ("target", "Brom"), ("actions", "9")],
            "actions must be between 1 and 2",
        ),
        (
            &[("attacker", "Vexa"), ("target", "Brom"), ("modifier", "41")],
            "modifier must be between -40 and 40",
        ),
        (
            &[
                ("attacker", "Vexa"),
                ("target", "Brom"),
                ("weapon", "halberd"),
            ],
            "needs ST",
        ),
    ];
    for (opts, want) in cases {
        let r = w.run(ANN, &["tft", "attack"], opts);
        let msg = refusal(&r);
        assert!(msg.contains(want), "{opts:?}: {msg}");
    }
    assert_eq!(w.hits(brom), 0);
    assert_eq!(w.rolls(), 0);
}

#[test]
fn a_gm_attacks_with_any_character_and_npcs() {
    let w = world();
    w.add("Orc", GM, true, &Sheet::Tft(fighter(14, 12)));
    w.tft("Vexa", ANN, fighter(12, 14));
    let r = w.run(
        GM,
        &["tft", "attack"],
        &[
            ("attacker", "Orc"),
            ("target", "Vexa"),
            ("weapon", "club"),
            ("mode", "private"),
        ],
    );
    assert_eq!(r.embeds[0].title, "Orc attacks Vexa");
    assert_eq!(r.visibility, Visibility::Ephemeral);
    assert!(r.gm_copy.is_some());
}

#[test]
fn house_rule_switches_pick_the_table() {
    let w = world();
    let ann = w.tft("Vexa", ANN, fighter(12, 14));
    w.give(ann, "weapon", "dagger", "{}");
    w.tft("Brom", BOB, fighter(12, 12));
    w.set_rule("tft_generalize_beyond_four", false);
    let r = w.run(
        ANN,
        &["tft", "attack"],
        &[
            ("attacker", "Vexa"),
            ("target", "Brom"),
            ("defending", "true"),
            ("actions", "1"),
        ],
    );
    let footer = r.embeds[0].footer.as_ref().unwrap();
    assert!(
        footer.contains("only adjDX counts (an interpretation)"),
        "{footer}"
    );
}

// ---------------------------------------------------------------------------------------------
// /tft hth, /tft dying, /tft bash, /tft job

#[test]
fn hth_entry_adds_its_modifiers() {
    let w = world();
    w.tft("Vexa", ANN, fighter(12, 14));
    let r = w.run(
        ANN,
        &["tft", "hth"],
        &[("facing", "rear"), ("uc", "attacker"), ("modifier", "-1")],
    );
    assert_eq!(
        field(&r, "Modifiers"),
        "from the rear +2, attacker better at UC +1, modifier -1"
    );
    let roll: i32 = field(&r, "Roll")
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(field(&r, "Total"), (roll + 2).to_string());
    let r = w.run(ANN, &["tft", "hth"], &[("uc", "nobody")]);
    assert!(refusal(&r).contains("uc must be one of attacker, defender"));
    assert_eq!(w.rolls(), 1);
}

#[test]
fn dying_needs_a_figure_at_zero_or_below() {
    let w = world();
    let id = w.tft("Vexa", ANN, fighter(12, 14));
    let r = w.run(ANN, &["tft", "dying"], &[]);
    assert!(refusal(&r).contains("Vexa has 12 ST left"));
    w.set_hits(id, 14);
    let r = w.run(ANN, &["tft", "dying"], &[]);
    assert!(
        r.embeds[0]
            .description
            .starts_with("**Dies**: below 0 ST (-2)"),
        "{r:?}"
    );
    // The dead stay dead: no second roll until a GM undoes it.
    let r = w.run(ANN, &["tft", "dying"], &[]);
    assert!(refusal(&r).contains("Vexa is dead"), "{r:?}");
    let r = w.run(
        GM,
        &["tft", "condition"],
        &[("character", "Vexa"), ("dead", "false")],
    );
    assert!(r.embeds[0].title.contains("Vexa set"), "{r:?}");
    let r = w.run(
        ANN,
        &["tft", "dying"],
        &[("helper", "physicker"), ("potions", "2")],
    );
    assert!(field(&r, "Modifiers").contains("helper +2, healing potions +1, original ST +1"));
    let r = w.run(ANN, &["tft", "dying"], &[("second", "physicker")]);
    assert!(refusal(&r).contains("name the first with helper"));
    let r = w.run(ANN, &["tft", "dying"], &[("helper", "priest")]);
    assert!(refusal(&r).contains("helper must be one of friend, first-aid"));
    assert_eq!(w.rolls(), 2);
    assert_eq!(w.hits(id), 14, "a roll to live changes no hits");
}

#[test]
fn bash_needs_a_shield_and_rolls_the_foe() {
    let w = world();
    w.tft("Vexa", ANN, fighter(12, 14));
    w.tft(
        "Hild",
        ANN,
        TftSheet {
            shield: Some("large".into()),
            talents: vec!["Advanced Shield".into()],
            ..fighter(14, 12)
        },
    );
    w.tft("Brom", BOB, fighter(12, 11));
    let r = w.run(
        ANN,
        &["tft", "bash"],
        &[("attacker", "Vexa"), ("target", "Brom")],
    );
    assert!(refusal(&r).contains("Vexa has no shield"));
    let r = w.run(
        ANN,
        &["tft", "bash"],
        &[("attacker", "Hild"), ("target", "Brom"), ("rush", "true")],
    );
    assert_eq!(r.embeds[0].title, "Hild shield-rushes Brom");
    // ST 14 with Advanced Shield's rush bonus is 19, against ST 12: 4 dice.
    assert_eq!(field(&r, "ST"), "19 against 12: 4 dice");
    assert_eq!(field(&r, "Against"), "Brom's adjDX 11");
    let r = w.run(
        BOB,
        &["tft", "bash"],
        &[("attacker", "Hild"), ("target", "Brom")],
    );
    assert!(refusal(&r).contains("Hild belongs to another player"));
    assert_eq!(w.rolls(), 1);
}

#[test]
fn a_week_of_work() {
    let w = world();
    w.tft(
        "Vexa",
        ANN,
        TftSheet {
            talents: vec!["Literacy".into()],
            ..fighter(12, 12)
        },
    );
    let r = w.run(
        ANN,
        &["tft", "job"],
        &[("job", "scribe"), ("looking", "no")],
    );
    assert_eq!(r.embeds[0].title, "Vexa: a week as Scribe");
    assert!(field(&r, "Risk").starts_with("3d: "));
    assert!(
        r.embeds[0]
            .footer
            .as_ref()
            .unwrap()
            .contains("Nothing was written")
    );
    let r = w.run(ANN, &["tft", "job"], &[("job", "juggler")]);
    let msg = refusal(&r);
    assert!(
        msg.contains("no job called \"juggler\"") && msg.contains("Garrison"),
        "{msg}"
    );
    let r = w.run(
        ANN,
        &["tft", "job"],
        &[("job", "garrison"), ("weapon_talents", "0")],
    );
    assert!(refusal(&r).contains("Vexa cannot work as Garrison"));
    assert_eq!(w.rolls(), 1);
}

// ---------------------------------------------------------------------------------------------
// /odds tft

#[test]
fn attack_odds_name_every_outcome() {
    let w = world();
    let r = w.run(ANN, &["odds", "tft"], &[("target", "12"), ("dice", "3")]);
    // 3d: 3 triple (1/216), 4 double (3/216), 5 automatic (6/216), 6..12 hits (150/216),
    // 13..15 misses (46/216), 16 (6/216), 17 (3/216), 18 (1/216).
    assert_eq!(field(&r, "Triple hit"), "0.46%");
    assert_eq!(field(&r, "Double hit"), "1.39%");
    assert_eq!(field(&r, "Automatic hit"), "2.78%");
    assert_eq!(field(&r, "Hit"), "69.44%");
    assert_eq!(field(&r, "Miss"), "21.30%");
    assert_eq!(field(&r, "Automatic miss"), "2.78%");
    assert_eq!(field(&r, "Miss, weapon dropped"), "1.39%");
    assert_eq!(field(&r, "Miss, weapon breaks"), "0.46%");
    assert_eq!(r.embeds[0].description, "Hits **74.07%** of the time.");
    assert!(
        !r.embeds[0]
            .footer
            .as_ref()
            .unwrap()
            .contains("interpretation")
    );
    let r = w.run(ANN, &["odds", "tft"], &[("target", "12"), ("dice", "5")]);
    assert!(
        r.embeds[0]
            .footer
            .as_ref()
            .unwrap()
            .contains("interpretation")
    );
    assert_eq!(w.rolls(), 0, "odds roll nothing");
}

#[test]
fn save_odds_and_their_limits() {
    let w = world();
    let r = w.run(
        ANN,
        &["odds", "tft"],
        &[("target", "10"), ("dice", "3"), ("save", "true")],
    );
    // 3..5 automatic (10/216), 6..10 success (98/216), 11..15 failure (98/216), 16+ (10/216).
    assert_eq!(field(&r, "Automatic success"), "4.63%");
    assert_eq!(field(&r, "Success"), "45.37%");
    assert_eq!(field(&r, "Failure"), "45.37%");
    assert_eq!(field(&r, "Automatic failure"), "4.63%");
    let r = w.run(ANN, &["odds", "tft"], &[("target", "10"), ("dice", "21")]);
    assert_eq!(refusal(&r), "dice must be between 3 and 20; you gave 21");
    let r = w.run(ANN, &["odds", "tft"], &[("dice", "3")]);
    assert!(refusal(&r).contains("needs the option target"));
}

#[test]
fn unknown_subcommands_are_refused() {
    let w = world();
    let r = w.run(ANN, &["tft", "dance"], &[]);
    assert!(refusal(&r).contains("/tft has save, attack"));
    let r = w.run(ANN, &["tft"], &[]);
    assert!(refusal(&r).contains("/tft needs a subcommand"));
}

// ---------------------------------------------------------------------------------------------
// Figures that fall, heal and break: /tft attack's states, /tft heal, stand, repair, condition

impl World {
    fn sheet(&self, id: CharacterId) -> TftSheet {
        let c = self
            .app
            .store
            .read(|c| characters::by_id(c, GuildId(1), id))
            .unwrap()
            .unwrap();
        match Sheet::of(&c).unwrap() {
            Sheet::Tft(s) => s,
            Sheet::Thiz(_) => panic!("not TFT"),
        }
    }

    fn damage(&self, id: CharacterId) -> (i64, i64) {
        self.app
            .store
            .read(|c| characters::tft_damage(c, GuildId(1), id))
            .unwrap()
    }

    fn item_stats(&self, id: CharacterId) -> Vec<String> {
        self.app
            .store
            .read(|c| characters::items(c, GuildId(1), id))
            .unwrap()
            .into_iter()
            .map(|i| i.stats_json)
            .collect()
    }

    /// A GM's `/tft condition` with `opts` for `name`.
    fn set(&self, name: &str, opts: &[(&str, &str)]) {
        let mut all = vec![("character", name)];
        all.extend_from_slice(opts);
        let r = self.run(GM, &["tft", "condition"], &all);
        assert!(r.embeds.len() == 1, "{r:?}");
    }

    fn attack(&self, user: u64, attacker: &str, target: &str) -> Reply {
        self.run(
            user,
            &["tft", "attack"],
            &[("attacker", attacker), ("target", target)],
        )
    }
}

/// Options as a test passes them.
type Opts<'a> = &'a [(&'a str, &'a str)];

fn show_field(w: &World, name: &str, field_name: &str) -> String {
    let r = w.run(GM, &["character", "show"], &[("name", name)]);
    field(&r, field_name).to_owned()
}

#[test]
fn who_may_attack_turns_at_zero_st_below_it_knocked_down_and_dead() {
    // tft-rules-summary.md "STRENGTH" and "STAND UP"; tft-house-rules.txt "Death and Dying":
    // 1 ST left still fights, 0 is unconscious, below 0 is dying, a knocked-down figure stands
    // first, the dead do nothing. A refusal is one ephemeral line and changes nothing.
    let w = world();
    let vexa = w.tft("Vexa", ANN, fighter(12, 12));
    w.give(vexa, "weapon", "broadsword", "{}");
    w.tft("Brom", BOB, fighter(200, 8));
    let cases: &[(Opts, Option<&str>)] = &[
        (&[("hits", "11")], None),
        (&[("hits", "12")], Some("Vexa is unconscious at 0 ST")),
        (&[("hits", "13")], Some("Vexa is dying at -1 ST")),
        (
            &[("hits", "8"), ("fatigue", "4")],
            Some("unconscious at 0 ST"),
        ),
        (
            &[("hits", "0"), ("fatigue", "0"), ("knocked_down", "true")],
            Some("Vexa is knocked down and must stand up first"),
        ),
        (
            &[("knocked_down", "false"), ("dead", "true")],
            Some("Vexa is dead"),
        ),
        (&[("dead", "false")], None),
    ];
    for (opts, refused) in cases {
        w.set("Vexa", opts);
        let before = (w.rolls(), w.damage(vexa), w.sheet(vexa));
        let r = w.attack(ANN, "Vexa", "Brom");
        match refused {
            Some(want) => {
                assert!(refusal(&r).contains(want), "{opts:?}: {r:?}");
                assert_eq!((w.rolls(), w.damage(vexa), w.sheet(vexa)), before);
            }
            None => assert_eq!(r.embeds[0].title, "Vexa attacks Brom", "{opts:?}"),
        }
    }
}

#[test]
fn a_blow_that_drops_a_figure_leaves_it_down_and_unable_to_strike_back() {
    let w = world();
    let vexa = w.tft("Vexa", ANN, fighter(14, 16));
    w.give(vexa, "weapon", "broadsword", "{}");
    let brom = w.tft("Brom", BOB, fighter(10, 12));
    w.give(brom, "weapon", "dagger", "{}");
    w.set_hits(brom, 9);
    let mut tries = 0;
    while w.hits(brom) == 9 {
        tries += 1;
        assert!(tries < 200, "DX 16 lands a blow in 200 tries");
        w.attack(ANN, "Vexa", "Brom");
    }
    let left = 10 - w.hits(brom);
    assert!(left <= 0);
    let s = w.sheet(brom);
    assert!(s.knocked_down && !s.dead, "{s:?}");
    let shown = show_field(&w, "Brom", "Condition");
    let want = if left == 0 {
        "Unconscious at 0 ST"
    } else {
        "Dying at"
    };
    assert!(shown.starts_with(want), "{shown}");
    assert!(shown.contains("knocked down"), "{shown}");
    let rolls = w.rolls();
    let r = w.attack(BOB, "Brom", "Vexa");
    assert!(refusal(&r).contains("Brom is"), "{r:?}");
    assert_eq!(w.rolls(), rolls);
    let r = w.run(BOB, &["tft", "stand"], &[("character", "Brom")]);
    assert!(refusal(&r).contains("cannot stand until healed"), "{r:?}");
}

#[test]
fn a_knockdown_is_recorded_and_standing_up_clears_it() {
    // tft-house-rules-combat.txt "Knockdown": 8 hits in a round knock a ST 1-19 figure down,
    // and a ST 30+ attacker forces a 3d/ST save; summary "STAND UP": a turn to rise.
    let w = world();
    let vexa = w.tft("Vexa", ANN, fighter(30, 18));
    w.give(vexa, "weapon", "broadsword", "{}");
    let brom = w.tft("Brom", BOB, fighter(40, 12));
    w.give(brom, "weapon", "dagger", "{}");
    let mut tries = 0;
    while !w.sheet(brom).knocked_down {
        tries += 1;
        assert!(
            tries < 300,
            "a ST 30 attacker knocks a figure down in 300 tries"
        );
        w.set("Brom", &[("hits", "0")]);
        w.attack(ANN, "Vexa", "Brom");
    }
    assert!(w.hits(brom) < 40, "still conscious");
    assert!(show_field(&w, "Brom", "Condition").contains("knocked down"));
    let r = w.attack(BOB, "Brom", "Vexa");
    assert!(refusal(&r).contains("knocked down"), "{r:?}");
    // Only the owner or a GM stands it up.
    let r = w.run(ANN, &["tft", "stand"], &[("character", "Brom")]);
    assert!(refusal(&r).contains("belongs to another player"));
    let r = w.run(BOB, &["tft", "stand"], &[("character", "Brom")]);
    assert_eq!(r.embeds[0].title, "Brom stands up");
    assert!(!w.sheet(brom).knocked_down);
    assert_eq!(show_field(&w, "Brom", "Condition"), "Conscious");
    let r = w.run(BOB, &["tft", "stand"], &[("character", "Brom")]);
    assert!(refusal(&r).contains("Brom is not knocked down"));
    let r = w.attack(BOB, "Brom", "Vexa");
    assert_eq!(r.embeds[0].title, "Brom attacks Vexa");
}

#[test]
fn healing_wakes_a_figure_above_zero_st_and_not_before() {
    // House rules "Death and Dying": 0 ST is out; the summary's healing potion is 4 ST and
    // house rules "First Aid" heals 1.
    let w = world();
    let brom = w.tft("Brom", BOB, fighter(10, 12));
    w.give(brom, "weapon", "dagger", "{}");
    w.tft("Vexa", ANN, fighter(12, 12));
    w.set("Brom", &[("hits", "11"), ("fatigue", "3")]);
    let heal = |opts: &[(&str, &str)]| {
        let mut all = vec![("character", "Brom")];
        all.extend_from_slice(opts);
        w.run(GM, &["tft", "heal"], &all)
    };
    // -1 ST → First Aid → 0 ST: still out.
    let r = heal(&[("first_aid", "true"), ("fatigue", "3")]);
    assert_eq!(r.embeds[0].title, "Brom heals");
    assert_eq!(w.damage(brom), (10, 0));
    assert!(
        field(&r, "Condition").starts_with("Unconscious at 0 ST"),
        "{r:?}"
    );
    assert!(refusal(&w.attack(BOB, "Brom", "Vexa")).contains("unconscious"));
    // One more hit off → 1 ST: awake and fighting.
    heal(&[("hits", "1")]);
    assert_eq!(w.damage(brom), (9, 0));
    assert_eq!(show_field(&w, "Brom", "Condition"), "Conscious");
    assert_eq!(
        w.attack(BOB, "Brom", "Vexa").embeds[0].title,
        "Brom attacks Vexa"
    );
    // Two potions are 8 hits; hits never go below 0.
    let r = heal(&[("potions", "2")]);
    assert!(
        r.embeds[0]
            .description
            .contains("2 healing potions (8 hits)"),
        "{r:?}"
    );
    assert_eq!(w.damage(brom), (1, 0));
    heal(&[("hits", "5")]);
    assert_eq!(w.damage(brom), (0, 0));
}

#[test]
fn heal_refuses_bad_input_and_changes_nothing() {
    let w = world();
    let brom = w.tft("Brom", BOB, fighter(10, 12));
    w.tft("Whole", BOB, fighter(10, 12));
    w.add("Gala", ANN, false, &Sheet::Thiz(ThizSheet::default()));
    w.set("Brom", &[("hits", "4")]);
    let cases: &[(u64, Opts, &str)] = &[
        (BOB, &[("character", "Brom"), ("hits", "1")], "GM"),
        (GM, &[("character", "Brom")], "Say what heals"),
        (
            GM,
            &[("character", "Brom"), ("hits", "-1")],
            "hits must be between 0",
        ),
        (
            GM,
            &[("character", "Brom"), ("potions", "101")],
            "potions must be between 0 and 100",
        ),
        (
            GM,
            &[("character", "Brom"), ("first_aid", "maybe")],
            "first_aid must be true or false",
        ),
        (
            GM,
            &[("character", "Brom"), ("hits", "1"), ("st", "3")],
            "has no option \"st\"",
        ),
        (
            GM,
            &[("character", "Nobody"), ("hits", "1")],
            "There is no character named Nobody",
        ),
        (
            GM,
            &[("character", "Gala"), ("hits", "1")],
            "Gala is a THIZ character",
        ),
        (
            GM,
            &[("character", "Whole"), ("hits", "1")],
            "Whole has no hits or fatigue to heal",
        ),
        (GM, &[("hits", "1")], "needs the option character"),
    ];
    for (who, opts, want) in cases {
        let r = w.run(*who, &["tft", "heal"], opts);
        assert!(refusal(&r).contains(want), "{opts:?}: {r:?}");
    }
    w.set("Brom", &[("dead", "true")]);
    let r = w.run(
        GM,
        &["tft", "heal"],
        &[("character", "Brom"), ("hits", "4")],
    );
    assert!(refusal(&r).contains("Brom is dead"), "{r:?}");
    assert_eq!(w.damage(brom), (4, 0));
    // Corrections are the GM's too.
    let r = w.run(
        BOB,
        &["tft", "condition"],
        &[("character", "Brom"), ("dead", "false")],
    );
    assert!(refusal(&r).contains("GM"), "{r:?}");
    let r = w.run(GM, &["tft", "condition"], &[("character", "Brom")]);
    assert!(refusal(&r).contains("Say what to set"), "{r:?}");
    let r = w.run(
        GM,
        &["tft", "condition"],
        &[("character", "Brom"), ("hits", "10001")],
    );
    assert!(
        refusal(&r).contains("hits must be between 0 and 10000"),
        "{r:?}"
    );
    assert!(w.sheet(brom).dead);
}

#[test]
fn the_roll_to_live_leaves_the_figure_dead_or_out_of_danger() {
    // House rules "Death and Dying": 8 or more on 2d lives; a 2 always dies.
    let w = world();
    let brom = w.tft("Brom", BOB, fighter(10, 12));
    let (mut lived, mut died) = (false, false);
    let mut tries = 0;
    while !(lived && died) {
        tries += 1;
        assert!(tries < 100);
        w.set(
            "Brom",
            &[("hits", "11"), ("dead", "false"), ("knocked_down", "false")],
        );
        let r = w.run(
            GM,
            &["tft", "dying"],
            &[("character", "Brom"), ("helper", "physicker")],
        );
        let survived = r.embeds[0].description.starts_with("**Lives**");
        let s = w.sheet(brom);
        assert_eq!(
            (s.dead, s.stable, s.knocked_down),
            (!survived, survived, true)
        );
        let again = w.run(GM, &["tft", "dying"], &[("character", "Brom")]);
        if survived {
            lived = true;
            assert!(refusal(&again).contains("already lived"), "{again:?}");
            assert!(show_field(&w, "Brom", "Condition").contains("out of danger"));
        } else {
            died = true;
            assert!(refusal(&again).contains("Brom is dead"), "{again:?}");
            assert_eq!(show_field(&w, "Brom", "Condition"), "Dead");
        }
        assert_eq!(w.hits(brom), 11, "the roll to live changes no hits");
    }
}

#[test]
fn a_weapon_that_breaks_is_refused_until_repaired() {
    // tft-rules-summary.md, to-hit table: 18 breaks the weapon.
    let w = world();
    let vexa = w.tft("Vexa", ANN, fighter(12, 12));
    w.give(vexa, "weapon", "broadsword", "{}");
    let brom = w.tft("Brom", BOB, fighter(200, 8));
    let mut tries = 0;
    while !w.item_stats(vexa)[0].contains("broken") {
        tries += 1;
        assert!(
            tries < 5000,
            "a plain weapon breaks on an 18 sooner or later"
        );
        w.set_hits(brom, 0);
        let r = w.attack(ANN, "Vexa", "Brom");
        let breaks = field(&r, "Result") == "Miss, weapon breaks";
        assert_eq!(breaks, w.item_stats(vexa)[0].contains("broken"), "{r:?}");
    }
    assert!(show_field(&w, "Vexa", "Equipment").contains("broken"));
    let rolls = w.rolls();
    for opts in [
        &[("attacker", "Vexa"), ("target", "Brom")][..],
        &[
            ("attacker", "Vexa"),
            ("target", "Brom"),
            ("weapon", "Broadsword"),
        ][..],
    ] {
        let r = w.run(ANN, &["tft", "attack"], opts);
        assert!(refusal(&r).contains("Vexa's broadsword is broken"), "{r:?}");
    }
    assert_eq!(w.rolls(), rolls, "a refusal rolls nothing");
    // Bare hands still work, and a sound second weapon is picked over the broken one.
    let r = w.run(
        ANN,
        &["tft", "attack"],
        &[
            ("attacker", "Vexa"),
            ("target", "Brom"),
            ("weapon", "hands"),
        ],
    );
    assert_eq!(field(&r, "Weapon"), "bare hands");
    w.give(vexa, "weapon", "dagger", "{}");
    let r = w.attack(ANN, "Vexa", "Brom");
    assert!(field(&r, "Weapon").starts_with("Dagger"), "{r:?}");
    // Only a GM repairs, and only what is broken.
    let repair = |who| {
        w.run(
            who,
            &["tft", "repair"],
            &[("character", "Vexa"), ("weapon", "BROADSWORD")],
        )
    };
    assert!(refusal(&repair(ANN)).contains("GM"));
    assert_eq!(repair(GM).embeds[0].title, "Vexa's broadsword is repaired");
    assert!(refusal(&repair(GM)).contains("is not broken"));
    let r = w.run(
        GM,
        &["tft", "repair"],
        &[("character", "Vexa"), ("weapon", "spear")],
    );
    assert!(
        refusal(&r).contains("carries no weapon named spear"),
        "{r:?}"
    );
    let r = w.run(
        ANN,
        &["tft", "attack"],
        &[
            ("attacker", "Vexa"),
            ("target", "Brom"),
            ("weapon", "broadsword"),
        ],
    );
    assert_eq!(r.embeds[0].title, "Vexa attacks Brom");
}
