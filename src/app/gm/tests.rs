//! `/gm setup|rules|hidden|note` through `App::handle`.

use super::*;
use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::reply::Visibility;
use crate::app::{App, Caller};
use crate::store::characters::{self, NewCharacter};
use crate::store::secrets::GmProof;
use crate::store::{CharacterId, GuildId, UserId};

const GUILD: GuildId = GuildId(1);

struct World {
    _dir: tempfile::TempDir,
    app: App,
}

fn admin() -> Caller {
    Caller {
        guild: GUILD,
        user: UserId(1),
        name: "Gemma".into(),
        roles: vec![],
        manage_server: true,
    }
}

fn player() -> Caller {
    Caller {
        guild: GUILD,
        user: UserId(10),
        name: "Ann".into(),
        roles: vec![],
        manage_server: false,
    }
}

/// A GM by role only (no Manage Server).
fn role_gm() -> Caller {
    Caller {
        user: UserId(5),
        roles: vec![77],
        ..player()
    }
}

fn world() -> World {
    // No GM channel yet: the setup tests set one.
    let (dir, app) = crate::app::temp_app_without_gm_channel(7);
    for (name, owner, npc) in [("Vexa", 10, false), ("Grut", 1, true)] {
        app.store
            .write(|tx| {
                characters::create(
                    tx,
                    GUILD,
                    &NewCharacter {
                        name,
                        system: System::Thiz,
                        owner_id: UserId(owner),
                        npc,
                        sheet_json: "{}",
                    },
                )
            })
            .unwrap()
            .unwrap();
    }
    World { _dir: dir, app }
}

impl World {
    fn run(&self, who: &Caller, path: &[&str], opts: &[(&str, &str)]) -> Reply {
        match Command::parse(&Invocation::new(path, opts)) {
            Ok(cmd) => self.app.handle(who, "i", cmd),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn settings(&self) -> GuildSettings {
        self.app.store.read(|c| guilds::get(c, GUILD)).unwrap()
    }

    fn id(&self, name: &str) -> CharacterId {
        self.app
            .store
            .read(|c| characters::by_name(c, GUILD, name))
            .unwrap()
            .unwrap()
            .id
    }

    fn hidden(&self, name: &str) -> Vec<(String, String)> {
        let id = self.id(name);
        self.app
            .store
            .read(|c| secrets::all_hidden(c, GmProof::verified(GUILD), id))
            .unwrap()
    }

    fn notes(&self, name: &str) -> Vec<String> {
        let id = self.id(name);
        self.app
            .store
            .read(|c| secrets::notes(c, GmProof::verified(GUILD), id))
            .unwrap()
    }
}

#[test]
fn setup_needs_manage_server_and_saves_settings() {
    let w = world();
    let refused = w.run(&player(), &["gm", "setup"], &[("gm_role", "77")]);
    assert!(refused.content.contains("Manage Server"), "{refused:?}");
    assert_eq!(w.settings(), GuildSettings::default());

    let saved = w.run(
        &admin(),
        &["gm", "setup"],
        &[
            ("gm_role", "<@&77>"),
            ("gm_channel", "<#88>"),
            ("system", "TFT"),
        ],
    );
    assert_eq!(saved.visibility, Visibility::Ephemeral);
    assert!(saved.all_text().contains("Settings saved"));
    let s = w.settings();
    assert_eq!(
        (s.gm_role_id, s.gm_channel_id, s.default_system),
        (Some(77), Some(88), System::Tft)
    );
    // The role now makes a GM, but setup stays with Manage Server.
    let by_role = w.run(&role_gm(), &["gm", "setup"], &[("system", "thiz")]);
    assert!(by_role.content.contains("Manage Server"));
    assert!(
        w.run(&role_gm(), &["gm", "rules"], &[])
            .all_text()
            .contains("House rules")
    );

    // Without options it shows the settings; none clears.
    let shown = w.run(&admin(), &["gm", "setup"], &[]);
    assert!(shown.all_text().contains("<@&77>") && shown.all_text().contains("tft"));
    w.run(&admin(), &["gm", "setup"], &[("gm_channel", "none")]);
    assert_eq!(w.settings().gm_channel_id, None);
    assert_eq!(w.settings().gm_role_id, Some(77));

    // Bad input changes nothing.
    let before = w.settings();
    for (opt, value, want) in [
        ("gm_role", "moderators", "gm_role must be a role"),
        ("gm_channel", "-5", "gm_channel must be a channel"),
        ("system", "gurps", "system must be thiz or tft"),
        ("colour", "red", "accepts gm_role, gm_channel, system"),
    ] {
        let reply = w.run(&admin(), &["gm", "setup"], &[(opt, value)]);
        assert!(reply.content.contains(want), "{opt}: {reply:?}");
    }
    assert_eq!(w.settings(), before);
}

#[test]
fn setup_clear_forgets_the_role_the_channel_or_both() {
    // `clear:` is how Discord's role and channel pickers, which cannot say "none", unset them.
    let w = world();
    let set = |w: &World| {
        w.run(
            &admin(),
            &["gm", "setup"],
            &[("gm_role", "77"), ("gm_channel", "88")],
        );
    };
    for (which, role, channel) in [
        ("gm_role", None, Some(88)),
        ("gm_channel", Some(77), None),
        ("both", None, None),
        ("Both", None, None),
    ] {
        set(&w);
        let reply = w.run(&admin(), &["gm", "setup"], &[("clear", which)]);
        assert!(
            reply.all_text().contains("Settings saved"),
            "{which}: {reply:?}"
        );
        let s = w.settings();
        assert_eq!((s.gm_role_id, s.gm_channel_id), (role, channel), "{which}");
    }

    // Refused, changing nothing: a player; an unknown target; setting and clearing one at once.
    set(&w);
    let before = w.settings();
    let player_try = w.run(&player(), &["gm", "setup"], &[("clear", "both")]);
    assert!(
        player_try.content.contains("Manage Server"),
        "{player_try:?}"
    );
    for (options, want) in [
        (
            vec![("clear", "everything")],
            "clear must be gm_role, gm_channel or both",
        ),
        (
            vec![("clear", "gm_role"), ("gm_role", "5")],
            "Set gm_role or clear it, not both",
        ),
        (
            vec![("clear", "both"), ("gm_channel", "6")],
            "Set gm_channel or clear it, not both",
        ),
    ] {
        let reply = w.run(&admin(), &["gm", "setup"], &options);
        assert_eq!(reply.visibility, Visibility::Ephemeral);
        assert!(reply.content.contains(want), "{options:?}: {reply:?}");
    }
    assert_eq!(w.settings(), before);
    // Clearing alongside setting the other one is fine.
    w.run(
        &admin(),
        &["gm", "setup"],
        &[("clear", "gm_channel"), ("gm_role", "9")],
    );
    let s = w.settings();
    assert_eq!((s.gm_role_id, s.gm_channel_id), (Some(9), None));
}

#[test]
fn rules_list_show_and_set() {
    let w = world();
    let list = w.run(&admin(), &["gm", "rules"], &[]);
    let text = list.all_text();
    assert!(text.contains("tft_house_rules: on (default on)"), "{text}");
    assert!(
        text.contains("tft_four_dice_specials: off (default off)"),
        "{text}"
    );
    assert!(text.contains("tft_generalize_beyond_four: on"), "{text}");

    let set = w.run(
        &admin(),
        &["gm", "rules"],
        &[("name", "tft_four_dice_specials"), ("value", "on")],
    );
    assert_eq!(set.content, "tft_four_dice_specials is now on.");
    assert!(house_rule(&w.settings(), "tft_four_dice_specials"));
    w.run(
        &admin(),
        &["gm", "rules"],
        &[("name", "TFT_HOUSE_RULES"), ("value", "false")],
    );
    assert!(!house_rule(&w.settings(), "tft_house_rules"));
    let one = w.run(&admin(), &["gm", "rules"], &[("name", "tft_house_rules")]);
    assert_eq!(one.content, "tft_house_rules is off.");

    let before = w.settings();
    let unknown = w.run(
        &admin(),
        &["gm", "rules"],
        &[("name", "crits"), ("value", "on")],
    );
    assert!(
        unknown.content.contains("no house rule \"crits\""),
        "{unknown:?}"
    );
    assert!(unknown.content.contains(
        "tft_house_rules, tft_four_dice_specials, tft_generalize_beyond_four, players_strike_anywhere, sheets_lock_when_approved, npc_numbers_open"
    ));
    let bad = w.run(
        &admin(),
        &["gm", "rules"],
        &[("name", "tft_house_rules"), ("value", "maybe")],
    );
    assert!(bad.content.contains("true or false"), "{bad:?}");
    let nameless = w.run(&admin(), &["gm", "rules"], &[("value", "on")]);
    assert!(
        nameless.content.contains("Say which switch"),
        "{nameless:?}"
    );
    let refused = w.run(
        &player(),
        &["gm", "rules"],
        &[("name", "tft_house_rules"), ("value", "on")],
    );
    assert!(refused.content.contains("only a GM"), "{refused:?}");
    let player_list = w.run(&player(), &["gm", "rules"], &[]);
    assert!(player_list.content.contains("only a GM"));
    assert_eq!(w.settings(), before);
    assert!(!house_rule(&before, "no_such_rule"));
}

/// Who runs it, the options, what the answer says.
type Case<'a> = (Caller, Vec<(&'a str, &'a str)>, &'a str);

#[test]
fn hidden_values_set_read_and_list() {
    let w = world();
    let set = w.run(
        &admin(),
        &["gm", "hidden"],
        &[("character", "Vexa"), ("key", "sleepless"), ("value", "11")],
    );
    assert_eq!(set.visibility, Visibility::Ephemeral);
    assert!(set.content.contains("now 11"), "{set:?}");
    w.run(
        &admin(),
        &["gm", "hidden"],
        &[
            ("character", "Grut"),
            ("key", "secret_name"),
            ("value", "*Bob*"),
        ],
    );
    let read = w.run(
        &admin(),
        &["gm", "hidden"],
        &[("character", "vexa"), ("key", "sleepless")],
    );
    assert_eq!(read.content, "Hidden sleepless on Vexa: 11");
    let npc = w.run(
        &admin(),
        &["gm", "hidden"],
        &[("character", "Grut"), ("key", "*")],
    );
    assert!(
        npc.all_text().contains("secret\\_name: \\*Bob\\*"),
        "{npc:?}"
    );
    let missing = w.run(
        &admin(),
        &["gm", "hidden"],
        &[("character", "Vexa"), ("key", "mood")],
    );
    assert!(missing.content.contains("no hidden mood"));
    let none = w.run(
        &admin(),
        &["gm", "hidden"],
        &[("character", "Vexa"), ("key", "*")],
    );
    assert!(none.all_text().contains("sleepless: 11"));

    // Bad input and players change nothing, and a player never sees the value.
    let before = w.hidden("Vexa");
    let long_key = "k".repeat(MAX_KEY + 1);
    let long_value = "v".repeat(MAX_VALUE + 1);
    let ok_value = "v".repeat(MAX_VALUE);
    let cases: Vec<Case<'_>> = vec![
        (
            player(),
            vec![("character", "Vexa"), ("key", "sleepless")],
            "only a GM",
        ),
        (
            player(),
            vec![("character", "Vexa"), ("key", "sleepless"), ("value", "3")],
            "only a GM",
        ),
        (
            admin(),
            vec![("character", "Vexa"), ("key", &long_key), ("value", "1")],
            "at most 64",
        ),
        (
            admin(),
            vec![("character", "Vexa"), ("key", "x"), ("value", &long_value)],
            "at most 1000",
        ),
        (
            admin(),
            vec![("character", "Vexa"), ("key", "*"), ("value", "1")],
            "name one key",
        ),
        (
            admin(),
            vec![("character", "Nobody"), ("key", "x"), ("value", "1")],
            "no character named Nobody",
        ),
        (admin(), vec![("key", "x")], "needs the option character"),
        (admin(), vec![("character", "Vexa")], "needs the option key"),
    ];
    for (who, opts, want) in cases {
        let reply = w.run(&who, &["gm", "hidden"], &opts);
        assert!(reply.content.contains(want), "{opts:?}: {reply:?}");
        assert!(!reply.all_text().contains("11"));
    }
    assert_eq!(w.hidden("Vexa"), before);
    let at_limit = w.run(
        &admin(),
        &["gm", "hidden"],
        &[
            ("character", "Vexa"),
            ("key", &"k".repeat(MAX_KEY)),
            ("value", &ok_value),
        ],
    );
    assert!(at_limit.content.starts_with("Hidden"), "{at_limit:?}");
}

#[test]
fn notes_add_and_list() {
    let w = world();
    let empty = w.run(&admin(), &["gm", "note"], &[("character", "Grut")]);
    assert!(empty.content.contains("no GM notes"));
    let added = w.run(
        &admin(),
        &["gm", "note"],
        &[("character", "Grut"), ("text", "owes the guild 40 gold")],
    );
    assert_eq!(added.content, "Noted on Grut.");
    w.run(
        &role_gm(),
        &["gm", "note"],
        &[("character", "Grut"), ("text", "lies about @everyone")],
    );
    // The role only makes a GM once the guild names it.
    assert_eq!(w.notes("Grut").len(), 1);
    w.run(&admin(), &["gm", "setup"], &[("gm_role", "77")]);
    w.run(
        &role_gm(),
        &["gm", "note"],
        &[("character", "Grut"), ("text", "lies about @everyone")],
    );
    let list = w.run(&admin(), &["gm", "note"], &[("character", "Grut")]);
    let text = list.all_text();
    assert!(text.contains("1. owes the guild 40 gold"), "{text}");
    assert!(text.contains("2. lies about \\@everyone"), "{text}");
    assert_eq!(list.visibility, Visibility::Ephemeral);

    let before = w.notes("Grut");
    let long = "n".repeat(MAX_NOTE + 1);
    for (who, opts, want) in [
        (
            player(),
            vec![("character", "Vexa"), ("text", "hi")],
            "only a GM",
        ),
        (player(), vec![("character", "Grut")], "only a GM"),
        (
            admin(),
            vec![("character", "Grut"), ("text", long.as_str())],
            "at most 1500",
        ),
    ] {
        let reply = w.run(&who, &["gm", "note"], &opts);
        assert!(reply.content.contains(want), "{reply:?}");
        assert!(!reply.all_text().contains("gold"));
    }
    assert_eq!(w.notes("Grut"), before);
    assert!(w.notes("Vexa").is_empty());
    let unknown = w.run(&admin(), &["gm", "dance"], &[]);
    assert!(unknown.content.contains("not a GM command"));
}

#[test]
fn ids_parse_from_numbers_and_mentions() {
    assert_eq!(parse_id("gm_role", "<@&42>").unwrap(), IdSetting::Set(42));
    assert_eq!(
        parse_id("gm_channel", " <#42> ").unwrap(),
        IdSetting::Set(42)
    );
    assert_eq!(parse_id("gm_role", "None").unwrap(), IdSetting::Clear);
    assert!(parse_id("gm_role", "0").is_err());
    assert!(parse_id("gm_role", &u64::MAX.to_string()).is_err());
    assert!(parse_id("gm_role", &(i64::MAX as u64).to_string()).is_ok());
}
