//! The secrecy sweep (SPEC §3): every hidden value is seeded with a sentinel, every command is run
//! as a player — on their own character, someone else's, an NPC — and every reply the player
//! receives is scanned. No sentinel may appear. The same sweep as GM must find them, which shows
//! the sentinels were really stored and the scan can fail.

use std::sync::Arc;

use referee::app::invocation::Invocation;
use referee::app::{App, Caller, Command, Dice, Reply};
use referee::rules::dice::expr::Limits;
use referee::store::{GuildId, Store, UserId};

pub const LUCK_ALYS: &str = "737";
pub const LUCK_BRAM: &str = "626";
const HIDDEN: &str = "SENTINELHIDDENVALUE";
const NOTE: &str = "SENTINELGMNOTE";
pub const NPC: &str = "Zorvakhnpc";
const NPC_HIDDEN: &str = "SENTINELNPCHIDDEN";
/// A GM's secret roll of 1d2+424200 totals 424201 or 424202; a player's blind roll of
/// 1d2+515100 totals 515101 or 515102 (the expressions themselves match neither).
const SECRET_ROLL: [&str; 2] = ["424201", "424202"];
const BLIND_ROLL: [&str; 2] = ["515101", "515102"];
/// The guild's GM channel.
const GM_CHANNEL: &str = "5000";
/// A name no character has, to compare an NPC's answers with.
const NOBODY: &str = "Qxqxnobody";

pub struct World {
    _dir: tempfile::TempDir,
    pub app: App,
    pub gm: Caller,
    pub alys: Caller,
    pub bram: Caller,
    n: std::cell::Cell<u64>,
}

fn caller(user: u64, name: &str, gm: bool) -> Caller {
    Caller {
        guild: GuildId(1),
        user: UserId(user),
        name: name.into(),
        roles: Vec::new(),
        manage_server: gm,
    }
}

impl World {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(&dir.path().join("w.sqlite3")).unwrap());
        let app = App::new(store, Dice::seeded(11), Limits::default());
        Self {
            _dir: dir,
            app,
            gm: caller(1, "Gemma", true),
            alys: caller(10, "Alys's player", false),
            bram: caller(20, "Bram's player", false),
            n: std::cell::Cell::new(0),
        }
    }

    pub fn run(&self, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        self.n.set(self.n.get() + 1);
        let inv = Invocation::new(path, options);
        match Command::parse(&inv) {
            Ok(cmd) => self
                .app
                .handle(who, &format!("sweep-{}", self.n.get()), cmd),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    /// Runs a setup step that must succeed (its reply is not an error).
    fn setup(&self, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        let r = self.run(who, path, options);
        let text = r.all_text();
        assert!(
            ![
                "Something went wrong",
                "not available",
                "Can't",
                "There is no",
                "only a GM"
            ]
            .iter()
            .any(|e| text.contains(e)),
            "setup {path:?} {options:?} failed: {text}"
        );
        r
    }

    /// The sentinel world: two players' characters, an NPC, luck, hidden keys, notes, a GM
    /// secret roll and a player's blind roll.
    pub fn seeded() -> Self {
        let w = Self::new();
        // A guild set up as the README says: private and blind rolls have a GM channel to go
        // to (without one a player's are refused, issue 32).
        w.setup(&w.gm, &["gm", "setup"], &[("gm_channel", GM_CHANNEL)]);
        w.setup(
            &w.alys,
            &["character", "create"],
            &[("name", "Alys"), ("system", "thiz")],
        );
        w.setup(
            &w.alys,
            &["character", "create"],
            &[("name", "Tor"), ("system", "tft")],
        );
        w.setup(
            &w.bram,
            &["character", "create"],
            &[("name", "Bram"), ("system", "thiz")],
        );
        w.setup(
            &w.gm,
            &["character", "create"],
            &[("name", NPC), ("system", "thiz"), ("npc", "true")],
        );
        w.setup(
            &w.alys,
            &["character", "skill"],
            &[("name", "Alys"), ("skill", "Swimming"), ("rating", "4")],
        );
        w.setup(
            &w.alys,
            &["character", "skill"],
            &[("name", "Alys"), ("skill", "Toughness"), ("rating", "3")],
        );
        w.setup(
            &w.bram,
            &["character", "skill"],
            &[("name", "Bram"), ("skill", "Toughness"), ("rating", "2")],
        );
        w.setup(
            &w.gm,
            &["luck", "set"],
            &[("character", "Alys"), ("points", LUCK_ALYS)],
        );
        w.setup(
            &w.gm,
            &["luck", "set"],
            &[("character", "Bram"), ("points", LUCK_BRAM)],
        );
        for c in ["Alys", "Bram", "Tor", NPC] {
            let value = if c == NPC { NPC_HIDDEN } else { HIDDEN };
            w.setup(
                &w.gm,
                &["gm", "hidden"],
                &[("character", c), ("key", "sleepless"), ("value", value)],
            );
            w.setup(&w.gm, &["gm", "note"], &[("character", c), ("text", NOTE)]);
        }
        // The NPC in the bestiary too (issue 59): its name is a secret there as well.
        w.setup(&w.gm, &["npc", "save"], &[("name", NPC)]);
        w.setup(
            &w.gm,
            &["gm", "roll"],
            &[("expression", "1d2+424200"), ("label", "ambush")],
        );
        w.setup(
            &w.alys,
            &["roll"],
            &[("expression", "1d2+515100"), ("mode", "blind")],
        );
        // Roll requests #1 (blind) and #2 (public) for Alys and Bram, for the presses below.
        for mode in ["blind", "public"] {
            w.setup(
                &w.gm,
                &["gm", "request"],
                &[
                    ("characters", "Alys, Bram"),
                    ("skill", "Toughness"),
                    ("mode", mode),
                ],
            );
        }
        w
    }
}

pub const SENTINELS: [&str; 10] = [
    LUCK_ALYS,
    LUCK_BRAM,
    HIDDEN,
    NOTE,
    NPC,
    NPC_HIDDEN,
    SECRET_ROLL[0],
    SECRET_ROLL[1],
    BLIND_ROLL[0],
    BLIND_ROLL[1],
];

/// A command to try: its path and its options.
struct Try {
    path: Vec<&'static str>,
    options: Vec<(&'static str, String)>,
}

fn t(path: &[&'static str], options: &[(&'static str, &str)]) -> Try {
    Try {
        path: path.to_vec(),
        options: options.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
    }
}

impl World {
    /// The same command with the NPC's name replaced by a name nobody has.
    fn without_npc(t: &Try) -> Try {
        Try {
            path: t.path.clone(),
            options: t
                .options
                .iter()
                .map(|(k, v)| (*k, v.replace(NPC, NOBODY)))
                .collect(),
        }
    }

    fn try_it(&self, who: &Caller, t: &Try) -> Reply {
        let options: Vec<(&str, &str)> = t.options.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.run(who, &t.path, &options)
    }
}

/// `/hazard …` and `/magic …` on character `c`.
fn hazards_and_magic(c: &str) -> Vec<Try> {
    let mut v = Vec::new();
    let hazards: [(&str, &[(&str, &str)]); 5] = [
        ("fall", &[("height", "40")]),
        ("fire", &[("rating", "10"), ("fleeing", "true")]),
        ("water", &[("water", "10")]),
        ("suffocation", &[("turn", "9")]),
        (
            "poison",
            &[("wound", "red"), ("duration", "5"), ("unit", "minutes")],
        ),
    ];
    for (sub, opts) in hazards {
        let mut opts = opts.to_vec();
        opts.push(("character", c));
        v.push(t(&["hazard", sub], &opts));
    }
    v.push(t(
        &["magic", "cast"],
        &[("skill", "Necromancy"), ("level", "red"), ("character", c)],
    ));
    v.push(t(
        &["magic", "cast"],
        &[
            ("skill", "Necromancy"),
            ("level", "red"),
            ("continues", "1"),
            ("character", c),
        ],
    ));
    v.push(t(
        &["magic", "terror"],
        &[("level", "black"), ("character", c)],
    ));
    for (what, target) in [
        ("mentalism", "Alys"),
        ("reiki_heal", c),
        ("reiki_strike", c),
    ] {
        v.push(t(
            &["magic", "target"],
            &[("use", what), ("target", target), ("character", c)],
        ));
    }
    v.push(t(
        &["magic", "learn"],
        &[
            ("skill", "Insight"),
            ("tutor_rating", "8"),
            ("character", c),
        ],
    ));
    v
}

/// Every command and option combination a player can try, on their own character, another
/// player's, and the NPC.
/// `/move` and `/advance` with character `c`.
fn movement_commands(c: &str) -> Vec<Try> {
    vec![
        t(&["move", "rate"], &[("character", c)]),
        t(&["move", "climb"], &[("character", c), ("height", "150")]),
        t(
            &["move", "travel"],
            &[("character", c), ("navigate", "night")],
        ),
        t(&["move", "animal"], &[("character", c)]),
        t(&["move", "spot"], &[("character", c), ("city", "true")]),
        t(
            &["move", "pilot"],
            &[
                ("character", c),
                ("skill", "Pilot (Cart)"),
                ("wrecked", "true"),
            ],
        ),
        t(
            &["move", "near"],
            &[
                ("character", c),
                ("skill", "Pilot (Cart)"),
                ("other_rating", "3"),
            ],
        ),
        t(
            &["move", "crash"],
            &[("character", c), ("vehicle_speed", "20")],
        ),
        t(&["advance", "points"], &[("character", c), ("heavy", "2")]),
        t(
            &["advance", "spend"],
            &[("character", c), ("skill", "Swimming")],
        ),
        t(
            &["advance", "train"],
            &[("character", c), ("study", "special")],
        ),
        t(
            &["advance", "craft"],
            &[
                ("character", c),
                ("skill", "Trade (Carpentry)"),
                ("target", "3"),
            ],
        ),
        t(
            &["advance", "work"],
            &[("character", c), ("skill", "Trade (Carpentry)")],
        ),
        t(&["advance", "sleepless"], &[("character", c)]),
    ]
}

#[allow(clippy::too_many_lines)] // One list, read top to bottom: every command a player has.
fn player_commands() -> Vec<Try> {
    // The bestiary and quick NPCs (issue 59): a GM's alone.
    let mut v = vec![
        t(&["npc", "list"], &[]),
        t(&["npc", "show"], &[("name", NPC)]),
        t(&["npc", "save"], &[("name", NPC)]),
        t(&["npc", "save"], &[("name", "Mine"), ("character", NPC)]),
        t(
            &["encounter", "add"],
            &[("name", "Mine"), ("skills", "Speed 4")],
        ),
    ];
    for mode in ["public", "private", "blind", "self"] {
        v.push(t(&["roll"], &[("expression", "2d6+1"), ("mode", mode)]));
        v.push(t(&["check"], &[("rating", "4"), ("mode", mode)]));
        v.push(t(
            &["check"],
            &[("skill", "Swimming"), ("character", "Alys"), ("mode", mode)],
        ));
        v.push(t(
            &["tft", "save"],
            &[("attribute", "12"), ("dice", "3"), ("mode", mode)],
        ));
        v.push(t(&["hazard", "fall"], &[("height", "40"), ("mode", mode)]));
        v.push(t(&["tft", "reaction"], &[("mode", mode)]));
        v.push(t(&["magic", "terror"], &[("level", "red"), ("mode", mode)]));
        v.push(t(
            &["gm", "request"],
            &[
                ("characters", "Alys, Bram"),
                ("skill", "Toughness"),
                ("mode", mode),
            ],
        ));
    }
    for c in ["Alys", "Bram", NPC, "Tor"] {
        v.push(t(
            &["gm", "check"],
            &[("character", c), ("skill", "Toughness")],
        ));
        v.push(t(
            &["gm", "request"],
            &[("characters", c), ("rating", "3"), ("mode", "blind")],
        ));
        v.push(t(&["character", "show"], &[("name", c)]));
        v.push(t(&["character", "validate"], &[("name", c)]));
        v.push(t(&["character", "export"], &[("name", c)]));
        v.push(t(&["check"], &[("skill", "Swimming"), ("character", c)]));
        v.push(t(&["attack"], &[("attacker", "Alys"), ("target", c)]));
        v.push(t(&["attack"], &[("attacker", c), ("target", "Alys")]));
        v.push(t(
            &["tft", "save"],
            &[("attribute", "st"), ("dice", "3"), ("character", c)],
        ));
        v.push(t(&["tft", "attack"], &[("attacker", "Tor"), ("target", c)]));
        v.push(t(&["tft", "attack"], &[("attacker", c), ("target", "Tor")]));
        v.push(t(
            &["tft", "attack"],
            &[
                ("attacker", "Tor"),
                ("target", c),
                ("adjust", "aim:head, natural:2"),
            ],
        ));
        v.push(t(
            &["tftkit", "cast"],
            &[
                ("character", c),
                ("spell", "Light"),
                ("kind", "missile"),
                ("st", "1"),
                ("target", "Tor"),
                ("damage", "1d"),
            ],
        ));
        v.push(t(&["tft", "heal"], &[("character", c), ("hits", "1")]));
        v.push(t(&["tft", "stand"], &[("character", c)]));
        v.push(t(
            &["tftref", "study"],
            &[("talent", "Sword"), ("character", c)],
        ));
        v.push(t(&["tft", "hth"], &[("action", "leave"), ("character", c)]));
        v.push(t(&["tftref", "ski"], &[("character", c)]));
        v.push(t(
            &["tft", "repair"],
            &[("character", c), ("weapon", "dagger")],
        ));
        v.push(t(
            &["tft", "condition"],
            &[("character", c), ("dead", "true")],
        ));
        v.push(t(&["history"], &[("character", c)]));
        for kind in ["reroll", "toughness", "wound", "stunt", "berserk", "rouse"] {
            v.push(t(&["luck", "spend"], &[("kind", kind), ("character", c)]));
        }
        for sub in ["grapple", "trip", "disarm"] {
            v.push(t(
                &["maneuver", sub],
                &[("attacker", "Alys"), ("target", c)],
            ));
            v.push(t(
                &["maneuver", sub],
                &[("attacker", c), ("target", "Alys")],
            ));
        }
        v.push(t(
            &["maneuver", "escape"],
            &[("character", c), ("holder", "Alys")],
        ));
        v.push(t(&["maneuver", "listen"], &[("character", c)]));
        for sub in ["roll", "show", "award", "set", "log"] {
            v.push(t(&["luck", sub], &[("character", c), ("points", "3")]));
        }
        v.push(t(
            &["gm", "hidden"],
            &[("character", c), ("key", "sleepless")],
        ));
        v.push(t(&["gm", "note"], &[("character", c)]));
        v.push(t(
            &["wound", "add"],
            &[("character", c), ("location", "head"), ("level", "red")],
        ));
        v.push(t(&["wound", "rest"], &[("character", c), ("days", "1")]));
        v.push(t(&["wound", "dying"], &[("character", c)]));
        for other in ["Alys", "Bram", NPC] {
            v.push(t(
                &["wound", "firstaid"],
                &[("character", c), ("healer", other)],
            ));
            v.push(t(
                &["wound", "surgery"],
                &[("character", c), ("surgeon", other)],
            ));
        }
        v.extend(hazards_and_magic(c));
        v.extend(movement_commands(c));
        v.push(t(
            &["character", "set"],
            &[("name", c), ("field", "notes"), ("value", "hi")],
        ));
    }
    v.push(t(&["luck", "spend"], &[("kind", "stunt"), ("points", "5")]));
    v.push(t(
        &["move", "chase"],
        &[("first_speed", "12"), ("second_speed", "10"), ("gap", "50")],
    ));
    v.push(t(
        &["move", "collide"],
        &[("kind", "head_on"), ("speed", "12"), ("other_speed", "8")],
    ));
    v.push(t(&["luck", "spend"], &[("kind", "reroll")]));
    v.push(t(&["character", "list"], &[]));
    v.push(t(&["character", "show"], &[]));
    v.push(t(&["history"], &[]));
    v.push(t(&["history"], &[("count", "25")]));
    v.push(t(&["reveal"], &[("roll", "1")]));
    v.push(t(&["gm", "roll"], &[("expression", "1d6")]));
    v.push(t(&["gm", "rules"], &[]));
    v.push(t(&["gm", "setup"], &[("gm_role", "5")]));
    v.push(t(&["odds", "thiz"], &[("rating", "4")]));
    v.push(t(&["odds", "tft"], &[("target", "12"), ("dice", "3")]));
    v.push(t(&["tftref", "called"], &[("area", "head"), ("hits", "3")]));
    v.push(t(
        &["tftref", "spell"],
        &[("spell", "Levitate"), ("distance", "3")],
    ));
    v.push(t(
        &["tftref", "mount"],
        &[("st", "20"), ("ma", "24"), ("dx", "10")],
    ));
    v.push(t(&["tftref", "price"], &[("magic", "Sleep")]));
    v.push(t(&["tftref", "time"], &[("action", "torch")]));
    v.push(t(&["help"], &[]));
    for id in 1..=4 {
        // Roll request buttons: each character of the blind and the public request, and close.
        for request in 1..=2 {
            v.push(t(&["button"], &[("id", &format!("req:{request}:{id}"))]));
        }
        v.push(t(&["button"], &[("id", &format!("req:{id}:close"))]));
    }
    for id in 1..=12 {
        v.push(t(&["button"], &[("id", &format!("dying:{id}"))]));
        v.push(t(&["button"], &[("id", &format!("luck:reroll:{id}"))]));
        v.push(t(&["button"], &[("id", &format!("luck:wound:{id}"))]));
        v.push(t(&["button"], &[("id", &format!("luck:toughness:{id}"))]));
        v.push(t(
            &["button"],
            &[("id", &format!("luck:lower:{id}:0:t{id}"))],
        ));
        v.push(t(
            &["luck", "spend"],
            &[("kind", "toughness"), ("roll", &id.to_string())],
        ));
        v.push(t(
            &["luck", "spend"],
            &[("kind", "wound"), ("roll", &id.to_string())],
        ));
        v.push(t(
            &["luck", "spend"],
            &[("kind", "reroll"), ("roll", &id.to_string())],
        ));
    }
    v
}

pub fn scan(text: &str) -> Vec<&'static str> {
    SENTINELS
        .iter()
        .copied()
        .filter(|s| text.contains(s))
        .collect()
}

#[test]
fn a_player_never_receives_a_hidden_value() {
    sweep_as_players(&World::seeded());
}

/// Issue 32: where no GM channel is set, GM copies have nowhere to go (a player's private and
/// blind rolls are refused; a GM's copies come back to that GM alone): still nothing reaches a
/// player.
#[test]
fn without_a_gm_channel_a_player_still_never_receives_a_hidden_value() {
    let w = World::seeded();
    w.setup(&w.gm, &["gm", "setup"], &[("clear", "gm_channel")]);
    sweep_as_players(&w);
}

fn sweep_as_players(w: &World) {
    let mut leaks = Vec::new();
    let mut answered = 0;
    for player in [&w.alys, &w.bram] {
        for cmd in player_commands() {
            let text = w.try_it(player, &cmd).caller_text();
            let (path, options) = (&cmd.path, &cmd.options);
            assert!(
                !text.contains("Something went wrong"),
                "{path:?} {options:?}: {text}"
            );
            answered += 1;
            let names_npc = options.iter().any(|(_, v)| v.contains(NPC));
            if names_npc {
                // Naming the NPC must answer exactly as naming nobody: the name the player typed
                // comes back, and nothing else differs.
                let other = w.try_it(player, &World::without_npc(&cmd)).caller_text();
                assert_eq!(
                    text.replace(NPC, NOBODY),
                    other,
                    "an NPC answers unlike a missing character: {path:?} {options:?}"
                );
            }
            for s in scan(&text) {
                if names_npc && s == NPC {
                    continue;
                }
                leaks.push(format!(
                    "{s} in {path:?} {options:?} as user {}: {text}",
                    player.user
                ));
            }
        }
    }
    assert!(answered > 300, "the sweep ran {answered} commands");
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

#[test]
fn the_same_sweep_as_gm_finds_every_sentinel() {
    let w = World::seeded();
    let mut seen = String::new();
    // First the log, while the seeded secret and blind rolls are among the latest 25.
    for (path, options) in [
        (vec!["luck", "show"], vec![("character", "Alys")]),
        (vec!["luck", "show"], vec![("character", "Bram")]),
        (
            vec!["gm", "hidden"],
            vec![("character", NPC), ("key", "sleepless")],
        ),
        (vec!["history"], vec![("count", "25")]),
    ] {
        seen.push_str(&w.run(&w.gm, &path, &options).all_text());
    }
    for cmd in player_commands() {
        seen.push_str(&w.try_it(&w.gm, &cmd).all_text());
        seen.push('\n');
    }
    // Each dice sentinel is one of two totals; the GM must see one of each pair.
    let missing: Vec<_> = SENTINELS
        .iter()
        .filter(|s| !SECRET_ROLL.contains(s) && !BLIND_ROLL.contains(s))
        .filter(|s| !seen.contains(*s))
        .collect();
    assert!(missing.is_empty(), "the GM never saw {missing:?}");
    assert!(
        SECRET_ROLL.iter().any(|s| seen.contains(s)),
        "no secret roll result"
    );
    assert!(
        BLIND_ROLL.iter().any(|s| seen.contains(s)),
        "no blind roll result"
    );
}

/// A command's options as the sweep types them.
type Options<'a> = Vec<(&'a str, &'a str)>;

/// The encounter tracker (issue 20): players see the NPC copies' names (they are in the fight)
/// but never their numbers: not in any encounter reply, not on the status message. The GM's
/// `/encounter show` has them, which shows the scan can fail.
#[test]
fn encounter_replies_and_the_status_keep_npc_numbers_from_players() {
    const CHANNEL: u64 = 77;
    // Speed 13 + Perception 11: the NPC's initiative reads "Speed + Perception 24".
    const NPC_NUMBERS: &str = "Speed + Perception 24";
    let w = World::seeded();
    let n = std::cell::Cell::new(0);
    let run = |who: &Caller, path: &[&str], options: &[(&str, &str)]| -> Reply {
        n.set(n.get() + 1);
        let inv = Invocation::new(path, options);
        match w
            .app
            .run_in(Some(CHANNEL), who, &format!("enc-{}", n.get()), &inv)
        {
            Ok(r) | Err(r) => r,
        }
    };
    for (skill, rating) in [("Speed", "13"), ("Perception", "11")] {
        run(
            &w.gm,
            &["character", "skill"],
            &[("name", NPC), ("skill", skill), ("rating", rating)],
        );
    }
    run(&w.gm, &["encounter", "start"], &[("surprise", "check")]);
    run(&w.alys, &["encounter", "add"], &[("character", "Alys")]);
    run(&w.bram, &["encounter", "add"], &[("character", "Bram")]);
    run(
        &w.gm,
        &["encounter", "add"],
        &[("npc", NPC), ("count", "2")],
    );
    run(&w.gm, &["encounter", "next"], &[]);
    let gm = run(&w.gm, &["encounter", "show"], &[]).caller_text();
    assert!(gm.contains(NPC_NUMBERS), "the GM sees the numbers: {gm}");
    let copy = format!("{NPC} 1");
    let version = || {
        w.app
            .encounter_status(GuildId(1), CHANNEL)
            .unwrap()
            .map(|u| u.reply.buttons[0].custom_id.clone())
            .unwrap_or_default()
    };
    let mut leaks = Vec::new();
    let mut check = |what: String, text: String| {
        for s in scan(&text) {
            // The names of the figures in the fight are public; nothing else is.
            if s != NPC {
                leaks.push(format!("{s} in {what}: {text}"));
            }
        }
        if text.contains(NPC_NUMBERS) || text.contains("GM: the numbers") {
            leaks.push(format!("the NPC's numbers in {what}: {text}"));
        }
    };
    for player in [&w.alys, &w.bram] {
        let next = version();
        let tries: Vec<(Vec<&str>, Options)> = vec![
            (vec!["encounter", "show"], vec![]),
            (vec!["encounter", "next"], vec![]),
            (vec!["encounter", "declare"], vec![("option", "defend")]),
            (
                vec!["encounter", "declare"],
                vec![("option", "wait"), ("figure", &copy)],
            ),
            (vec!["encounter", "act"], vec![("figure", &copy)]),
            (vec!["encounter", "act"], vec![("figure", "Alys")]),
            (vec!["encounter", "remove"], vec![("figure", &copy)]),
            (vec!["encounter", "add"], vec![("npc", NPC)]),
            (vec!["encounter", "end"], vec![]),
            (vec!["button"], vec![("id", &next)]),
            (vec!["button"], vec![("id", "enc:attack:1")]),
            (vec!["attack"], vec![("target", "Bram")]),
            (vec!["attack"], vec![("target", &copy)]),
        ];
        for (path, options) in tries {
            let text = run(player, &path, &options).caller_text();
            check(format!("{path:?} {options:?} as {}", player.user), text);
        }
    }
    let status = w
        .app
        .encounter_status(GuildId(1), CHANNEL)
        .unwrap()
        .expect("a status")
        .reply
        .all_text();
    assert!(
        status.contains(&copy),
        "the status names the figures: {status}"
    );
    check("the status message".to_owned(), status);
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// Issue 20: a player attacks the encounter's NPCs (THIZ and TFT) by name, by the status
/// message's Attack button and its target buttons; the NPCs' numbers (THIZ Speed, armour,
/// Toughness rating, luck; TFT ST, armor) never reach the player or the status message. The
/// GM's copies carry them, which shows the scan can fail.
#[test]
#[allow(clippy::too_many_lines)] // Two fights, read top to bottom.
fn a_player_attacking_encounter_npcs_never_sees_their_numbers() {
    const THIZ_CH: u64 = 78;
    const TFT_CH: u64 = 79;
    // The THIZ NPC's sentinels: Speed 13, armour 7 on every location, Toughness 19, luck 848.
    const THIZ_NUMBERS: [&str; 4] = ["Speed 13", "armour 7", "rating 19", "848"];
    // The TFT NPC's: ST 29 and its armor's stops (fine plate); the GM's view of the tracker
    // reads it as "ST n of 29 left (h hits)".
    const TFT_NUMBERS: [&str; 5] = ["ST 29", "Stops", "Before armor", "of 29", "hits)"];
    // What the GM's view of the tracker says of any sheet (issue 31): wounds by location, the
    // condition behind the looks, the numbers' field.
    const GM_VIEW: [&str; 4] = [
        " · wounds ",
        " · no wounds",
        " · able to act",
        "GM: the numbers",
    ];
    let w = World::seeded();
    let n = std::cell::Cell::new(0);
    let run = |ch: u64, who: &Caller, path: &[&str], options: &[(&str, &str)]| -> Reply {
        n.set(n.get() + 1);
        let inv = Invocation::new(path, options);
        match w
            .app
            .run_in(Some(ch), who, &format!("hit-{}", n.get()), &inv)
        {
            Ok(r) | Err(r) => r,
        }
    };
    let gm = |path: &[&str], options: &[(&str, &str)]| run(THIZ_CH, &w.gm, path, options);
    for (name, system) in [("Grimlok", "thiz"), ("Skarn", "tft")] {
        gm(
            &["character", "create"],
            &[("name", name), ("system", system), ("npc", "true")],
        );
    }
    // Issue 57: its weapon skill, 11, is what a declared Defend adds to its Speed.
    for (skill, rating) in [
        ("Speed", "13"),
        ("Perception", "1"),
        ("Toughness", "19"),
        ("Weapon Skill (Club)", "11"),
    ] {
        gm(
            &["character", "skill"],
            &[("name", "Grimlok"), ("skill", skill), ("rating", rating)],
        );
    }
    gm(
        &["character", "gear"],
        &[
            ("name", "Grimlok"),
            ("action", "add"),
            ("item", "Hide"),
            ("kind", "armor"),
            ("armor_bonus", "7"),
            (
                "locations",
                "head, chest, gut, left arm, right arm, left leg, right leg",
            ),
        ],
    );
    gm(
        &["luck", "set"],
        &[("character", "Grimlok"), ("points", "848")],
    );
    for (field, value) in [("st", "29"), ("dx", "5"), ("armor", "fine plate armor")] {
        gm(
            &["character", "set"],
            &[("name", "Skarn"), ("field", field), ("value", value)],
        );
    }
    gm(
        &["character", "set"],
        &[("name", "Tor"), ("field", "dx"), ("value", "16")],
    );
    let leaks = std::cell::RefCell::new(Vec::new());
    let gm_saw = std::cell::RefCell::new(String::new());
    // Issue 57: numbers a player could work an NPC's out of. The attack's modifier shows only
    // what Alys's player typed (-2, or nothing by the buttons): with the Defend counted in it,
    // it read -13 (or -11); and no "Hits" field against an NPC carries a number (beside the
    // damage rolled it gives the armour away).
    let derived = |text: &str, r: &Reply| -> Vec<String> {
        let mut found = Vec::new();
        for part in text.split("· modifier ").skip(1) {
            let n: String = part
                .chars()
                .take_while(|c| *c == '-' || *c == '+' || c.is_ascii_digit())
                .collect();
            if n != "-2" {
                found.push(format!("modifier {n}"));
            }
        }
        for f in r.embeds.iter().flat_map(|e| &e.fields) {
            if f.name == "Hits" && f.value.chars().any(|c| c.is_ascii_digit()) {
                found.push(format!("Hits: {}", f.value));
            }
        }
        found
    };
    let check = |what: &str, r: &Reply, numbers: &[&str]| {
        let text = r.caller_text();
        for d in derived(&text, r) {
            leaks.borrow_mut().push(format!("{d} in {what}: {text}"));
        }
        for s in numbers
            .iter()
            .chain(SENTINELS.iter().filter(|s| **s != NPC))
        {
            if text.contains(s) {
                leaks.borrow_mut().push(format!("{s} in {what}: {text}"));
            }
        }
        if let Some(copy) = &r.gm_copy {
            gm_saw.borrow_mut().push_str(&copy.all_text());
        }
    };
    // THIZ: Alys against Grimlok 1, on her turns, by name and by the buttons.
    run(
        THIZ_CH,
        &w.gm,
        &["encounter", "start"],
        &[("surprise", "none")],
    );
    run(
        THIZ_CH,
        &w.alys,
        &["encounter", "add"],
        &[("character", "Alys")],
    );
    run(THIZ_CH, &w.gm, &["encounter", "add"], &[("npc", "Grimlok")]);
    let status = |ch: u64| {
        w.app
            .encounter_status(GuildId(1), ch)
            .unwrap()
            .expect("a status")
            .reply
    };
    let mut alys_turns = 0;
    let mut defends = 0;
    for _ in 0..12 {
        run(THIZ_CH, &w.gm, &["encounter", "next"], &[]);
        let s = status(THIZ_CH);
        check("the THIZ status", &s, &THIZ_NUMBERS);
        if s.all_text().contains("**Turn: Grimlok 1**") {
            // Grimlok defends against the next attack: its weapon skill adds to its Speed.
            let declared = run(
                THIZ_CH,
                &w.gm,
                &["encounter", "declare"],
                &[("option", "defend")],
            );
            check("the GM's Defend", &declared, &THIZ_NUMBERS);
            defends += 1;
        }
        if !s.all_text().contains("**Turn: Alys**") {
            continue;
        }
        // THIZ gives a turn one attack: typed on one of Alys's turns, by the buttons on the next.
        alys_turns += 1;
        if alys_turns % 2 == 1 {
            let r = run(
                THIZ_CH,
                &w.alys,
                &["attack"],
                &[("target", "Grimlok 1"), ("modifier", "-2")],
            );
            check("/attack target:Grimlok 1", &r, &THIZ_NUMBERS);
            continue;
        }
        let attack = s.buttons.iter().find(|b| b.label == "Attack").unwrap();
        let help = run(THIZ_CH, &w.alys, &["button"], &[("id", &attack.custom_id)]);
        check("the Attack button", &help, &THIZ_NUMBERS);
        for b in &help.buttons {
            let r = run(THIZ_CH, &w.alys, &["button"], &[("id", &b.custom_id)]);
            check("a target button", &r, &THIZ_NUMBERS);
            // The attacker's luck reroll re-renders the attack: still no numbers.
            for luck in r
                .buttons
                .iter()
                .filter(|b| b.custom_id.starts_with("luck:"))
            {
                let again = run(THIZ_CH, &w.alys, &["button"], &[("id", &luck.custom_id)]);
                check("a luck button", &again, &THIZ_NUMBERS);
            }
        }
    }
    check(
        "the THIZ status at the end",
        &status(THIZ_CH),
        &THIZ_NUMBERS,
    );
    assert!(alys_turns >= 2, "Alys attacked both ways");
    // Issue 31: a player's /encounter show never has the GM's view of the sheets.
    let show = run(THIZ_CH, &w.alys, &["encounter", "show"], &[]);
    check("/encounter show (THIZ)", &show, &THIZ_NUMBERS);
    check("/encounter show (THIZ)", &show, &GM_VIEW);
    let gm_show = run(THIZ_CH, &w.gm, &["encounter", "show"], &[]).caller_text();
    assert!(
        gm_show.contains("Grimlok 1: ") && gm_show.contains("GM: the numbers"),
        "the GM's view has the sheets, which shows the scan can fail: {gm_show}"
    );
    let saw = gm_saw.borrow().clone();
    assert!(
        saw.contains("Speed 13") && saw.contains("armour 7"),
        "{saw}"
    );
    // The Defend was in play, and the GM's copies read it: the scan for it can fail.
    assert!(defends >= 1, "Grimlok defended");
    assert!(saw.contains("defending +11"), "{saw}");
    // TFT: Tor (DX 16) against Skarn 1 (DX 5) acts first each round.
    run(TFT_CH, &w.gm, &["encounter", "start"], &[("system", "tft")]);
    run(
        TFT_CH,
        &w.alys,
        &["encounter", "add"],
        &[("character", "Tor")],
    );
    run(TFT_CH, &w.gm, &["encounter", "add"], &[("npc", "Skarn")]);
    let mut tft_copies = String::new();
    for _ in 0..4 {
        run(TFT_CH, &w.gm, &["encounter", "next"], &[]);
        let s = status(TFT_CH);
        check("the TFT status", &s, &TFT_NUMBERS);
        if !s.all_text().contains("**Turn: Tor**") {
            continue;
        }
        for mode in ["public", "private"] {
            let r = run(
                TFT_CH,
                &w.alys,
                &["tft", "attack"],
                &[("target", "Skarn 1"), ("weapon", "hands"), ("mode", mode)],
            );
            check("/tft attack target:Skarn 1", &r, &TFT_NUMBERS);
            if let Some(c) = &r.gm_copy {
                tft_copies.push_str(&c.all_text());
            }
        }
    }
    check("the TFT status at the end", &status(TFT_CH), &TFT_NUMBERS);
    let show = run(TFT_CH, &w.alys, &["encounter", "show"], &[]);
    check("/encounter show (TFT)", &show, &TFT_NUMBERS);
    check("/encounter show (TFT)", &show, &GM_VIEW);
    let gm_show = run(TFT_CH, &w.gm, &["encounter", "show"], &[]).caller_text();
    assert!(
        gm_show.contains("of 29 left (") && gm_show.contains("able to act"),
        "the GM reads Skarn 1's ST, which shows the scan can fail: {gm_show}"
    );
    assert!(
        tft_copies.contains("Skarn 1"),
        "the GM had copies: {tft_copies}"
    );
    let leaks = leaks.into_inner();
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

impl World {
    /// Runs a command in channel `ch`, as Discord would send it there.
    fn run_at(&self, ch: u64, who: &Caller, path: &[&str], options: &[(&str, &str)]) -> Reply {
        self.n.set(self.n.get() + 1);
        let inv = Invocation::new(path, options);
        match self
            .app
            .run_in(Some(ch), who, &format!("at-{}", self.n.get()), &inv)
        {
            Ok(r) | Err(r) => r,
        }
    }

    /// The GM's screen's fighters: the NPCs Grimlok (THIZ: Speed 13, Unarmed Combat 17,
    /// Climbing 21, Toughness 19, armour 7) and Skarn (TFT: ST 29, DX 23); Bram with Unarmed
    /// Combat 30 and Strength 25, and Tor with DX 16.
    fn npc_fighters(&self, ch: u64) {
        let gm = |path: &[&str], options: &[(&str, &str)]| self.run_at(ch, &self.gm, path, options);
        for (name, system) in [("Grimlok", "thiz"), ("Skarn", "tft")] {
            gm(
                &["character", "create"],
                &[("name", name), ("system", system), ("npc", "true")],
            );
        }
        // THIZ sentinels: Speed 13, Unarmed Combat 17, Climbing 21, Toughness 19, armour 7.
        for (skill, rating) in [
            ("Speed", "13"),
            ("Unarmed Combat", "17"),
            ("Climbing", "21"),
            ("Toughness", "19"),
        ] {
            gm(
                &["character", "skill"],
                &[("name", "Grimlok"), ("skill", skill), ("rating", rating)],
            );
        }
        gm(
            &["character", "gear"],
            &[
                ("name", "Grimlok"),
                ("action", "add"),
                ("item", "Hide"),
                ("kind", "armor"),
                ("armor_bonus", "7"),
                (
                    "locations",
                    "head, chest, gut, left arm, right arm, left leg, right leg",
                ),
            ],
        );
        // Bram fights well enough, and is strong enough bare-handed, to wound Grimlok through its
        // Speed and armour.
        for (skill, rating) in [("Unarmed Combat", "30"), ("Strength", "25")] {
            gm(
                &["character", "skill"],
                &[("name", "Bram"), ("skill", skill), ("rating", rating)],
            );
        }
        // TFT sentinels: ST 29, DX 23.
        for (field, value) in [("st", "29"), ("dx", "23")] {
            gm(
                &["character", "set"],
                &[("name", "Skarn"), ("field", field), ("value", value)],
            );
        }
        gm(
            &["character", "set"],
            &[("name", "Tor"), ("field", "dx"), ("value", "16")],
        );
    }
}

/// A command the GM tries: what it is, its path and its options.
type Tried = (
    &'static str,
    Vec<&'static str>,
    Vec<(&'static str, &'static str)>,
);

/// The NPC sentinels of [`a_gms_public_rolls_show_the_channel_no_npc_numbers`], as rendered.
const GM_SCREEN_NUMBERS: [&str; 8] = [
    "Speed 13",
    "Unarmed Combat 17",
    "weapon skill 17",
    "Climbing 21",
    "armour 7",
    "rating 19",
    "ST 29",
    "DX 23",
];

/// Issue 31: a GM's own rolls for and against NPCs, in public, as commands and as the status
/// message's buttons would make them. The channel (and so every player) reads who did what to
/// whom and the outcome, never the NPC's numbers; the GM receives them in an ephemeral copy (which
/// shows the scan can fail); the player's own figure keeps its numbers and its luck button.
#[test]
#[allow(clippy::too_many_lines)] // One table of commands, read top to bottom.
fn a_gms_public_rolls_show_the_channel_no_npc_numbers() {
    const CH: u64 = 91;
    let w = World::seeded();
    let gm = |path: &[&str], options: &[(&str, &str)]| w.run_at(CH, &w.gm, path, options);
    w.npc_fighters(CH);
    let mut leaks = Vec::new();
    let mut gm_saw = String::new();
    let mut owner_buttons = 0;
    let mut scan = |what: &str, r: &Reply| {
        let channel = r.channel_text();
        assert!(
            r.visibility == referee::app::reply::Visibility::Public,
            "{what} is a public roll: {r:?}"
        );
        for s in GM_SCREEN_NUMBERS
            .iter()
            .chain(SENTINELS.iter().filter(|s| **s != NPC))
        {
            if channel.contains(s) {
                leaks.push(format!("{s} in {what}: {channel}"));
            }
        }
        // No adjDX with its number; no odds of an NPC's check, nor the chance of its attack.
        let mut shapes = vec!["adjDX 1", "adjDX 2"];
        if what.contains("check") {
            shapes.push("%");
        }
        if what == "a TFT NPC's attack" {
            shapes.push("chance to hit");
        }
        // The NPC's armor: its stops, and the damage before them, which with the hits tells them.
        if what == "a TFT attack on an NPC" {
            shapes.extend(["Stops", "Before armor"]);
        }
        for s in shapes {
            if channel.contains(s) {
                leaks.push(format!("{s} in {what}: {channel}"));
            }
        }
        assert!(
            !channel.contains('\u{E000}') && !channel.contains('\u{E001}'),
            "a mark reached the channel in {what}"
        );
        assert!(
            r.gm_copy.is_none(),
            "{what}: no GM channel copy was asked for"
        );
        let copy = r.caller_copy.as_deref().unwrap_or_else(|| {
            panic!("{what}: the GM gets the numbers beside the channel's reply: {r:?}")
        });
        assert_eq!(copy.visibility, referee::app::reply::Visibility::Ephemeral);
        gm_saw.push_str(&copy.all_text());
        owner_buttons += r
            .buttons
            .iter()
            .filter(|b| b.custom_id.starts_with("luck:wound:"))
            .count();
    };
    let mut tries: Vec<Tried> = vec![
        (
            "an NPC's check",
            vec!["check"],
            vec![("character", "Grimlok"), ("skill", "Climbing")],
        ),
        (
            "an NPC's bare rating check",
            vec!["check"],
            vec![("character", "Grimlok"), ("rating", "5")],
        ),
        (
            "a trip by an NPC",
            vec!["maneuver", "trip"],
            vec![("attacker", "Grimlok"), ("target", "Alys")],
        ),
        (
            "a grapple on an NPC",
            vec!["maneuver", "grapple"],
            vec![("attacker", "Bram"), ("target", "Grimlok")],
        ),
        (
            "a TFT attack on an NPC",
            vec!["tft", "attack"],
            vec![
                ("attacker", "Tor"),
                ("target", "Skarn"),
                ("weapon", "hands"),
            ],
        ),
        (
            "a TFT NPC's attack",
            vec!["tft", "attack"],
            vec![
                ("attacker", "Skarn"),
                ("target", "Tor"),
                ("weapon", "hands"),
            ],
        ),
        (
            "an NPC's multiple actions",
            vec!["tftkit", "actions"],
            vec![("character", "Skarn"), ("first", "3"), ("second", "4")],
        ),
        (
            "an NPC's gear",
            vec!["tftkit", "gear"],
            vec![("character", "Skarn"), ("item", "Dagger")],
        ),
    ];
    // Enough THIZ attacks each way for hits, wounds and Toughness checks to come up.
    for _ in 0..8 {
        tries.push((
            "a THIZ NPC's attack",
            vec!["attack"],
            vec![("attacker", "Grimlok"), ("target", "Alys")],
        ));
        tries.push((
            "a THIZ attack on an NPC",
            vec!["attack"],
            vec![("attacker", "Bram"), ("target", "Grimlok")],
        ));
    }
    // The player's own figure keeps its numbers: Tor's DX 16 in his attack on the NPC.
    let own = gm(
        &["tft", "attack"],
        &[
            ("attacker", "Tor"),
            ("target", "Skarn"),
            ("weapon", "hands"),
        ],
    );
    assert!(own.channel_text().contains("DX 16"), "{own:?}");
    for (what, path, options) in &tries {
        let r = gm(path, options);
        assert!(
            !r.all_text().contains("Something went wrong"),
            "{what}: {r:?}"
        );
        scan(what, &r);
    }
    assert!(
        leaks.is_empty(),
        "NPC numbers reached the channel:\n{}",
        leaks.join("\n")
    );
    for s in [
        "Speed 13",
        "Unarmed Combat 17",
        "Climbing 21",
        "rating 19",
        "ST 29",
        "DX 23",
    ] {
        assert!(gm_saw.contains(s), "the GM's copies carry {s}: {gm_saw}");
    }
    assert!(
        owner_buttons > 0,
        "a wounded player's figure keeps its own luck button in the channel"
    );

    // A table that plays open shows everything, to everyone, with no copy.
    gm(
        &["gm", "rules"],
        &[("name", "npc_numbers_open"), ("value", "on")],
    );
    let open = gm(
        &["check"],
        &[("character", "Grimlok"), ("skill", "Climbing")],
    );
    assert!(open.channel_text().contains("Climbing 21"), "{open:?}");
    assert!(open.caller_copy.is_none());
}

/// Issue 31: a GM's private attack on a player's figure. The GM alone reads the roll; the channel
/// is told only that the figure was struck, with a button its player (and nobody else) presses to
/// see what the attack did, the NPC's numbers screened, with the figure's own luck buttons. A
/// blind attack tells nobody.
#[test]
fn a_gms_private_attack_tells_the_struck_figures_player_and_only_them() {
    const CH: u64 = 92;
    let w = World::seeded();
    w.npc_fighters(CH);
    let mut seen = None;
    for _ in 0..8 {
        let r = w.run_at(
            CH,
            &w.gm,
            &["attack"],
            &[
                ("attacker", "Grimlok"),
                ("target", "Alys"),
                ("mode", "private"),
            ],
        );
        assert_eq!(r.visibility, referee::app::reply::Visibility::Ephemeral);
        assert!(
            r.all_text().contains("Unarmed Combat 17"),
            "the GM reads it all"
        );
        let Some(notice) = r.notice.as_deref() else {
            assert!(
                r.all_text().contains("Miss"),
                "only a miss goes untold: {r:?}"
            );
            continue;
        };
        let channel = r.channel_text();
        assert!(channel.contains("Alys was struck"), "{channel}");
        for s in GM_SCREEN_NUMBERS.iter().chain(["d100"].iter()) {
            assert!(!channel.contains(s), "{s} in the channel: {channel}");
        }
        let see = notice.buttons[0].custom_id.clone();
        assert!(see.starts_with("see:"), "{see}");
        seen = Some(see);
        break;
    }
    let see = seen.expect("one of eight attacks at 17 landed");
    let other = w.run_at(CH, &w.bram, &["button"], &[("id", &see)]);
    assert!(other.content.contains("Only Alys's player"), "{other:?}");
    let own = w.run_at(CH, &w.alys, &["button"], &[("id", &see)]);
    assert_eq!(own.visibility, referee::app::reply::Visibility::Ephemeral);
    let text = own.caller_text();
    assert!(text.contains("Grimlok attacks Alys"), "{text}");
    assert!(!text.contains("Unarmed Combat 17"), "{text}");
    assert!(own.gm_copy.is_none() && own.caller_copy.is_none());
    let wound = own
        .buttons
        .iter()
        .find(|b| b.custom_id.starts_with("luck:wound:"))
        .map(|b| b.custom_id.clone());
    if let Some(wound) = wound {
        // The figure's own luck, spent from the private roll.
        let spent = w.run_at(CH, &w.alys, &["button"], &[("id", &wound)]);
        assert!(
            !spent.all_text().contains("no longer valid"),
            "{}",
            spent.all_text()
        );
    }
    let blind = w.run_at(
        CH,
        &w.gm,
        &["attack"],
        &[
            ("attacker", "Grimlok"),
            ("target", "Bram"),
            ("mode", "blind"),
        ],
    );
    assert!(blind.notice.is_none(), "{blind:?}");
}

/// The numbers of three digits or more in `text` (a d100 aside): Vexa's sheet (ST 173, IQ 149) and what follows
/// from it (its ST left, hits set past 100) are the only ones in the replies of
/// [`a_gms_spells_and_corrections_show_the_channel_no_npc_numbers`].
fn big_numbers(text: &str) -> Vec<String> {
    text.replace("d100", "d%")
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| n.len() >= 3)
        .map(str::to_owned)
        .collect()
}

/// An NPC's number in what the channel reads: one of three digits, Vexa's DX 57 (and the adjDX
/// it makes), or one of Grimlok's ratings as the hazards and the luck reroll show them.
fn npc_numbers_in(channel: &str) -> Vec<String> {
    let mut found = big_numbers(channel);
    for shape in [
        "DX 57",
        "**57**",
        "Speed 13",
        "Physical",
        "armour 1",
        "(row ",
        "has taken",
    ] {
        if channel.contains(shape) {
            found.push(shape.to_owned());
        }
    }
    found
}

/// The first button of `r` or its copies whose id starts with `prefix`.
fn button_id(r: &Reply, prefix: &str) -> Option<String> {
    let mut all = vec![r];
    all.extend(r.caller_copy.as_deref());
    all.into_iter()
        .flat_map(|r| r.buttons.iter())
        .find(|b| b.custom_id.starts_with(prefix))
        .map(|b| b.custom_id.clone())
}

/// Issue 31: `/tftkit cast` with an NPC caster and an NPC target (a plain spell, a missile spell
/// each way, a renewal), `/tft condition` on an NPC, a THIZ NPC's fire and suffocation hazards
/// and the luck reroll of its check, each run by the GM in public. The channel reads what
/// happened, never the NPC's numbers; the GM's copy holds them (so the scan can fail); a
/// player's own figure keeps its numbers, the hits on it included.
#[test]
#[allow(clippy::too_many_lines)] // One fight, read top to bottom.
fn a_gms_spells_and_corrections_show_the_channel_no_npc_numbers() {
    const CH: u64 = 93;
    let w = World::seeded();
    let gm = |path: &[&str], options: &[(&str, &str)]| w.run_at(CH, &w.gm, path, options);
    w.npc_fighters(CH);
    gm(
        &["character", "create"],
        &[("name", "Vexa"), ("system", "tft"), ("npc", "true")],
    );
    // Vexa's sentinels: ST 173, DX 57, IQ 149. Tor, Alys's: ST 40, DX 16, IQ 14.
    for (name, field, value) in [
        ("Vexa", "st", "173"),
        ("Vexa", "dx", "57"),
        ("Vexa", "iq", "149"),
        ("Tor", "st", "40"),
        ("Tor", "iq", "14"),
    ] {
        gm(
            &["character", "set"],
            &[("name", name), ("field", field), ("value", value)],
        );
    }
    for name in ["Vexa", "Tor"] {
        let r = gm(
            &["character", "set"],
            &[
                ("name", name),
                ("field", "spells"),
                ("value", "Magic Fist, Flame Shield"),
            ],
        );
        assert!(r.all_text().contains("Flame Shield"), "{r:?}");
    }
    let mut leaks = Vec::new();
    let mut gm_saw = String::new();
    // A GM's public roll: the channel's text is scanned, the GM's copy kept; a player's roll:
    // all the player receives is scanned, the GM channel's copy kept.
    let mut scan = |what: &str, r: &Reply| {
        assert!(
            !r.all_text().contains("Something went wrong"),
            "{what}: {r:?}"
        );
        // A player's roll has no copy for its caller; the GM channel's copy is the GM's.
        let by_player = r.caller_copy.is_none() && r.gm_copy.is_some();
        let channel = if by_player {
            r.caller_text()
        } else {
            r.channel_text()
        };
        for n in npc_numbers_in(&channel) {
            leaks.push(format!("{n} in {what}: {channel}"));
        }
        assert!(
            !channel.contains('\u{E000}') && !channel.contains('\u{E001}'),
            "a mark reached the channel in {what}"
        );
        if let (true, Some(copy)) = (by_player, r.gm_copy.as_deref()) {
            gm_saw.push_str(&copy.all_text());
        } else if r.visibility == referee::app::reply::Visibility::Public {
            let copy = r.caller_copy.as_deref().unwrap_or_else(|| {
                panic!("{what}: the GM gets the numbers beside the channel's reply: {r:?}")
            });
            gm_saw.push_str(&copy.all_text());
        } else {
            // A GM's correction answers the GM alone.
            gm_saw.push_str(&r.caller_text());
        }
    };
    let magic_fist = |caster: &'static str, target: &'static str| {
        vec![
            ("spell", "Magic Fist"),
            ("character", caster),
            ("target", target),
            ("kind", "missile"),
            ("st", "2"),
            ("damage", "1d"),
        ]
    };
    // The missile spells, each way, until one lands (a 16 to 18 misses whatever the adjDX).
    let mut struck_tor = None;
    let mut struck_vexa = false;
    for _ in 0..6 {
        if struck_tor.is_none() {
            let r = gm(&["tftkit", "cast"], &magic_fist("Vexa", "Tor"));
            scan("an NPC's missile spell at a player's figure", &r);
            if r.channel_text().contains("to Tor") {
                struck_tor = Some(r.channel_text());
            }
        }
        if !struck_vexa {
            let r = gm(&["tftkit", "cast"], &magic_fist("Tor", "Vexa"));
            scan("a missile spell at an NPC", &r);
            // The caster is the player's: its adjDX and ST stay in the channel.
            assert!(r.channel_text().contains("DX 16 = **16**"), "{r:?}");
            struck_vexa = r.channel_text().contains("to Vexa");
        }
    }
    // The hits on the player's figure are its player's to read.
    let struck_tor = struck_tor.expect("one of six casts at DX 57 lands");
    assert!(struck_tor.contains("\nST 40: 40 → "), "{struck_tor}");
    assert!(struck_vexa, "one of Tor's six casts at DX 16 lands");
    // A player's own cast at the NPC: the GM channel gets the numbers.
    let own = w.run_at(CH, &w.alys, &["tftkit", "cast"], &magic_fist("Tor", "Vexa"));
    if own.caller_text().contains("to Vexa") {
        let copy = own.gm_copy.as_deref().expect("the GM channel's copy");
        assert!(copy.all_text().contains("ST 173:"), "{copy:?}");
    }
    scan("a player's cast at an NPC", &own);

    // In a fight: the NPC keeps a continuing spell up, and renews it when it lapses.
    gm(&["encounter", "start"], &[("system", "tft")]);
    gm(&["encounter", "add"], &[("character", "Tor")]);
    gm(&["encounter", "add"], &[("character", "Vexa")]);
    gm(&["encounter", "next"], &[]);
    for caster in ["Vexa", "Tor"] {
        let kept = (0..6).any(|_| {
            let r = gm(
                &["tftkit", "cast"],
                &[("spell", "Flame Shield"), ("character", caster)],
            );
            if caster == "Vexa" {
                scan("an NPC's continuing spell", &r);
            }
            r.all_text().contains("lasts to the end of round")
        });
        assert!(kept, "{caster}'s Flame Shield works once in six");
    }
    let lapsed = (0..8).any(|_| {
        gm(&["encounter", "next"], &[])
            .content
            .contains("Vexa: Flame Shield ends unless renewed")
    });
    assert!(lapsed, "the round ends");
    let renew = |caster| {
        [
            ("spell", "Flame Shield"),
            ("character", caster),
            ("renew", "true"),
        ]
    };
    let r = gm(&["tftkit", "cast"], &renew("Vexa"));
    assert!(
        r.channel_text().contains("Vexa renews Flame Shield"),
        "{r:?}"
    );
    scan("an NPC's renewal", &r);
    let r = gm(&["tftkit", "cast"], &renew("Tor"));
    assert!(
        r.channel_text().contains("ST as fatigue: ") && r.channel_text().contains("ST left"),
        "the player's figure's ST stays in the channel: {r:?}"
    );

    // The GM's corrections: hits on the NPC, then enough to knock it down and leave it dying.
    for hits in ["5", "180"] {
        let r = gm(
            &["tft", "condition"],
            &[("character", "Vexa"), ("hits", hits)],
        );
        scan("a GM's correction of an NPC", &r);
        assert!(r.caller_text().contains(&format!("{hits} taken")), "{r:?}");
    }
    let status = gm(&["encounter", "show"], &[]);
    assert!(
        status
            .all_text()
            .contains("Vexa is knocked down by the hits"),
        "{status:?}"
    );

    // THIZ: a fleeing NPC's Speed against fire, its breath, its luck reroll.
    for turn in ["1", "30"] {
        let r = gm(
            &["hazard", "suffocation"],
            &[("character", "Grimlok"), ("turn", turn)],
        );
        scan("an NPC's suffocation", &r);
    }
    for _ in 0..3 {
        let r = gm(
            &["hazard", "fire"],
            &[
                ("character", "Grimlok"),
                ("rating", "40"),
                ("fleeing", "true"),
            ],
        );
        scan("an NPC fleeing fire", &r);
    }
    gm(
        &["luck", "set"],
        &[("character", "Grimlok"), ("points", "5")],
    );
    let check = gm(
        &["check"],
        &[("character", "Grimlok"), ("skill", "Climbing")],
    );
    let reroll = button_id(&check, "luck:reroll:").expect("the NPC's reroll button, the GM's");
    let r = gm(&["button"], &[("id", &reroll)]);
    assert!(r.channel_text().contains("rerolled"), "{r:?}");
    scan("the luck reroll of an NPC's check", &r);

    assert!(
        leaks.is_empty(),
        "NPC numbers reached the channel:\n{}",
        leaks.join("\n")
    );
    for s in [
        "DX 57 = **57**",
        "173 → ",
        "ST 173:",
        "ST left",
        "180 taken",
        "Dying at",
        "Speed 13",
        "Physical",
        "(row ",
    ] {
        assert!(gm_saw.contains(s), "the GM's copies carry {s}: {gm_saw}");
    }
}
