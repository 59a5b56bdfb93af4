//! Use-case tests for `/alias` and a saved roll rolled by `/roll` and `/gm roll`, against a
//! temporary database.

use super::*;
use crate::app::reply::Visibility;
use crate::app::testkit::{GUILD, ann, bo, caller, gm, run};
use crate::app::{App, Caller};
use crate::store::UserId;
use crate::store::rolls;

fn set(app: &App, who: &Caller, name: &str, expression: &str) -> Reply {
    run(
        app,
        who,
        &["alias", "set"],
        &[("name", name), ("expression", expression)],
    )
}

fn set_server(app: &App, who: &Caller, name: &str, expression: &str) -> Reply {
    run(
        app,
        who,
        &["alias", "set"],
        &[
            ("name", name),
            ("expression", expression),
            ("server", "true"),
        ],
    )
}

/// Every saved roll of the guild: (owner, name, expression), in a stable order.
fn everything(app: &App) -> Vec<(Owner, String, String)> {
    let mut all = Vec::new();
    for user in [UserId(1), UserId(10), UserId(11)] {
        let rows = app
            .store
            .read(|c| aliases::visible(c, GUILD, user))
            .unwrap();
        for r in rows {
            let row = (r.owner, r.name, r.expression);
            if !all.contains(&row) {
                all.push(row);
            }
        }
    }
    all.sort();
    all
}

fn logged(app: &App) -> usize {
    app.store
        .read(|c| rolls::recent(c, GUILD, None, None, 10_000))
        .unwrap()
        .len()
}

/// A refusal: one ephemeral line, no embed, and no saved roll or logged roll changed.
#[track_caller]
fn assert_refused(app: &App, reply: &Reply, saying: &str, before: &[(Owner, String, String)]) {
    assert_eq!(reply.visibility, Visibility::Ephemeral, "{reply:?}");
    assert!(reply.embeds.is_empty(), "{reply:?}");
    assert!(
        reply.content.contains(saying),
        "wanted {saying:?} in {:?}",
        reply.content
    );
    assert_eq!(everything(app), before, "a refusal changed nothing");
}

/// The names on both sides: what a character may be called is what a saved roll may,
/// less what reads as dice or holds the dice language's marks.
#[test]
fn names_are_checked_as_character_names_are_and_never_read_as_dice() {
    let limits = Limits::default();
    let ok: &[(&str, &str)] = &[
        ("attack", "attack"),
        ("  Big   Hit ", "Big Hit"),
        ("init", "init"),
        ("dex", "dex"),
        ("dragon breath", "dragon breath"),
        ("Élan", "Élan"),
        ("\u{FF21}ttack", "Attack"), // full-width: NFKC folds it
        ("save vs poison", "save vs poison"),
        ("attack d20", "attack d20"),
    ];
    for (raw, want) in ok {
        assert_eq!(checked_name(raw, &limits).as_deref(), Ok(*want), "{raw:?}");
    }
    let refused: &[(&str, &str)] = &[
        ("d20", "reads as dice"),
        ("D20", "reads as dice"),
        ("3d6", "begins with a letter"),
        ("dd34", "reads as dice"),
        ("d", "reads as dice"),
        ("dF", "reads as dice"),
        ("d20 attack", "reads as dice"),
        ("12", "begins with a letter"),
        ("attack+2", "cannot hold +"),
        ("fire-bolt", "cannot hold"),
        ("big;hit", "cannot hold ;"),
        ("hit!", "cannot hold !"),
        ("(Fire)", "begins with a letter"),
        ("a(b)", "cannot hold"),
        ("dndstats", "reads as dice"),
        ("sr6", "reads as dice"),
        ("s", "word of the dice language"),
        ("UL", "word of the dice language"),
        ("   ", "1 to 64"),
        ("Zo\u{200B}e", "U+200B"),
        ("...", "letter or digit"),
    ];
    for (raw, part) in refused {
        let e = checked_name(raw, &limits).expect_err(raw);
        assert!(e.contains(part), "{raw:?}: {e}");
        assert!(
            ["saved roll", "reads as dice", "dice language"]
                .iter()
                .any(|w| e.contains(w)),
            "{e}"
        );
    }
    // The character name's limit, on both sides.
    assert!(checked_name(&format!("a{}", "b".repeat(63)), &limits).is_ok());
    let e = checked_name(&format!("a{}", "b".repeat(64)), &limits).unwrap_err();
    assert!(e.contains("at most 64"), "{e}");
}

#[test]
fn a_saved_roll_is_set_shown_listed_rolled_and_deleted() {
    let (_dir, app) = crate::app::temp_app(3);
    let reply = set(&app, &ann(), "attack", "1d20+5");
    assert_eq!(reply.visibility, Visibility::Ephemeral);
    assert!(reply.content.contains("Saved attack"), "{}", reply.content);
    assert!(reply.content.contains("`1d20+5`"), "{}", reply.content);

    let shown = run(&app, &ann(), &["alias", "show"], &[("name", "ATTACK")]);
    assert!(
        shown.content.contains("attack (yours): `1d20+5`"),
        "{}",
        shown.content
    );
    // Bo has none of Ann's.
    let theirs = run(&app, &bo(), &["alias", "show"], &[("name", "attack")]);
    assert!(
        theirs.content.contains("no saved roll named attack"),
        "{}",
        theirs.content
    );

    let listed = run(&app, &ann(), &["alias", "list"], &[]);
    let text = listed.all_text();
    assert!(text.contains("Yours (1 of 50)"), "{text}");
    assert!(text.contains("**attack**: `1d20+5`"), "{text}");
    assert!(text.contains("The server's (0 of 100)"), "{text}");

    // Replacing keeps one saved roll and says what it was.
    let reply = set(&app, &ann(), "Attack", "1d20+6");
    assert!(reply.content.contains("was `1d20+5`"), "{}", reply.content);
    assert_eq!(
        everything(&app),
        [(
            Owner::Player(UserId(10)),
            "Attack".to_owned(),
            "1d20+6".to_owned()
        )]
    );

    let rolled = run(&app, &ann(), &["roll"], &[("expression", "attack")]);
    assert!(
        rolled.embeds[0]
            .description
            .starts_with("Attack → `1d20+6`\nAnn rolled `1d20+6`"),
        "{rolled:?}"
    );

    let gone = run(&app, &ann(), &["alias", "delete"], &[("name", "attack")]);
    assert!(
        gone.content
            .contains("Deleted Attack (yours), which was `1d20+6`"),
        "{}",
        gone.content
    );
    assert!(everything(&app).is_empty());
    // Deleted is gone: the name is dice again, which it is not.
    let before = logged(&app);
    let rolled = run(&app, &ann(), &["roll"], &[("expression", "attack")]);
    assert_refused(&app, &rolled, "Can't roll that", &[]);
    assert_eq!(logged(&app), before, "nothing rolled");
    let again = run(&app, &ann(), &["alias", "delete"], &[("name", "attack")]);
    assert_refused(&app, &again, "You have no saved roll named attack", &[]);
}

/// The example: `/roll attack+2` rolls `1d20+5+2`, exactly as typing it would.
#[test]
fn attack_plus_two_rolls_the_saved_expression_with_the_tail() {
    let (_dir, with) = crate::app::temp_app(11);
    let (_dir2, without) = crate::app::temp_app(11);
    set(&with, &ann(), "attack", "1d20+5");
    for (typed, direct) in [
        ("attack+2", "1d20+5+2"),
        ("attack - 1d4", "1d20+5-1d4"),
        ("attack", "1d20+5"),
    ] {
        let saved = run(&with, &ann(), &["roll"], &[("expression", typed)]);
        let plain = run(&without, &ann(), &["roll"], &[("expression", direct)]);
        let (saved, plain) = (&saved.embeds[0], &plain.embeds[0]);
        assert_eq!(saved.fields, plain.fields, "{typed}: the same total");
        assert_eq!(
            saved.description,
            format!("attack → `{direct}`\n{}", plain.description),
            "{typed}"
        );
    }
    // The roll log keeps which saved roll was rolled: /history names it, and only that roll.
    let history = run(&with, &ann(), &["history"], &[]).all_text();
    assert_eq!(history.matches("attack: `1d20 + 5").count(), 3, "{history}");
    let history = run(&without, &ann(), &["history"], &[]).all_text();
    assert!(!history.contains("attack:"), "{history}");
}

/// The issue's own example, in the dice language's words: a comment stays at the end, a label
/// in front, and each roll of several gets the tail.
#[test]
fn a_saved_roll_keeps_its_comment_label_and_rolls() {
    let (_dir, with) = crate::app::temp_app(13);
    let (_dir2, without) = crate::app::temp_app(13);
    set(&with, &ann(), "attack", "1d20+5 ! Attack");
    set(&with, &ann(), "volley", "(Arrows) 1d20+4; 1d8+2 ! damage");
    set(&with, &ann(), "hit", "1d20+5 >= 15");
    for (typed, direct) in [
        ("attack+2", "1d20+5+2 ! Attack"),
        ("attack * 2", "(1d20+5)*2 ! Attack"),
        ("attack-1 ! vs the troll", "1d20+5-1 ! vs the troll"),
        ("volley+1", "(Arrows) 1d20+4+1; 1d8+2+1 ! damage"),
        ("hit+2", "1d20+5+2 >= 15"),
    ] {
        let saved = run(&with, &ann(), &["roll"], &[("expression", typed)]);
        let plain = run(&without, &ann(), &["roll"], &[("expression", direct)]);
        assert!(!saved.embeds.is_empty(), "{typed}: {}", saved.content);
        let (saved, plain) = (&saved.embeds[0], &plain.embeds[0]);
        assert_eq!(saved.fields, plain.fields, "{typed}: the same roll");
        assert!(
            saved.description.starts_with(&format!(
                "{} → `{direct}`\n",
                typed.split(['+', '-', ' ', '*']).next().unwrap_or_default()
            )),
            "{typed}: {}",
            saved.description
        );
    }
}

/// A player's own saved roll is rolled before the server's of the same name, and `show`,
/// `list` and `set` say so; another player rolls the server's.
#[test]
fn a_players_own_saved_roll_wins_over_the_servers() {
    let (_dir, app) = crate::app::temp_app(5);
    let reply = set_server(&app, &gm(), "attack", "1d20+3");
    assert!(
        reply.content.contains("for the whole server"),
        "{}",
        reply.content
    );
    let reply = set(&app, &ann(), "attack", "1d20+5");
    assert!(
        reply
            .content
            .contains("Yours is rolled instead of the server's attack (`1d20+3`)"),
        "{}",
        reply.content
    );

    let rolled = run(&app, &ann(), &["roll"], &[("expression", "attack+1")]);
    assert!(
        rolled.embeds[0]
            .description
            .starts_with("attack → `1d20+5+1`"),
        "{rolled:?}"
    );
    let rolled = run(&app, &bo(), &["roll"], &[("expression", "attack+1")]);
    assert!(
        rolled.embeds[0]
            .description
            .starts_with("attack → `1d20+3+1`"),
        "{rolled:?}"
    );

    let shown = run(&app, &ann(), &["alias", "show"], &[("name", "attack")]);
    assert!(
        shown.content.contains("attack (yours): `1d20+5`")
            && shown
                .content
                .contains("The server's attack (`1d20+3`) is not rolled for you"),
        "{}",
        shown.content
    );
    let shown = run(&app, &bo(), &["alias", "show"], &[("name", "attack")]);
    assert!(
        shown.content.contains("attack (the server's): `1d20+3`"),
        "{}",
        shown.content
    );
    let text = run(&app, &ann(), &["alias", "list"], &[]).all_text();
    assert!(
        text.contains("**attack**: `1d20+3` (yours is rolled instead)"),
        "{text}"
    );
    let text = run(&app, &bo(), &["alias", "list"], &[]).all_text();
    assert!(!text.contains("instead"), "{text}");

    // A longer name wins over a shorter one it starts with, whoever's it is.
    set_server(&app, &gm(), "attack bonus", "1d20+9");
    let rolled = run(&app, &ann(), &["roll"], &[("expression", "Attack  Bonus")]);
    assert!(
        rolled.embeds[0]
            .description
            .starts_with("attack bonus → `1d20+9`"),
        "{rolled:?}"
    );
}

/// `server:true` is a GM's: a player is refused and nothing changes; a GM deleting their own
/// saved roll is told the server's needs `server:true`.
#[test]
fn the_servers_saved_rolls_are_a_gms() {
    let (_dir, app) = crate::app::temp_app(5);
    set_server(&app, &gm(), "init", "1d20");
    let before = everything(&app);
    let reply = set_server(&app, &ann(), "init", "1d20+10");
    assert_refused(&app, &reply, "GM", &before);
    let reply = set_server(&app, &ann(), "loot", "1d6");
    assert_refused(&app, &reply, "GM", &before);
    let reply = run(
        &app,
        &ann(),
        &["alias", "delete"],
        &[("name", "init"), ("server", "true")],
    );
    assert_refused(&app, &reply, "GM", &before);
    let reply = run(&app, &ann(), &["alias", "delete"], &[("name", "init")]);
    assert_refused(&app, &reply, "server:true", &before);

    let reply = run(
        &app,
        &gm(),
        &["alias", "delete"],
        &[("name", "init"), ("server", "true")],
    );
    assert!(
        reply.content.contains("Deleted init (the server's)"),
        "{}",
        reply.content
    );
    assert!(everything(&app).is_empty());
}

/// At the limit a saved roll is still replaced; one more is refused, for a player and for the
/// server.
#[test]
fn saved_rolls_are_limited_per_player_and_per_server() {
    let (_dir, app) = crate::app::temp_app(5);
    for i in 1..MAX_PLAYER {
        set(&app, &ann(), &format!("roll{i}"), "1d6");
    }
    let reply = set(&app, &ann(), "last", "1d6");
    assert!(reply.content.contains("Saved last"), "{}", reply.content);
    let before = everything(&app);
    assert_eq!(before.len() as u64, MAX_PLAYER);
    let reply = set(&app, &ann(), "one more", "1d6");
    assert_refused(&app, &reply, "You have 50 saved rolls", &before);
    let reply = set(&app, &ann(), "last", "1d8");
    assert!(
        reply.content.contains("was `1d6`"),
        "at the limit, a replacement"
    );
    // Bo has his own 50.
    assert!(
        set(&app, &bo(), "one more", "1d6")
            .content
            .contains("Saved")
    );

    let (_dir, app) = crate::app::temp_app(5);
    // Twenty dice each: a list too long for one message.
    let long = vec!["1d6"; 20].join("+");
    for i in 1..=MAX_SERVER {
        let reply = set_server(&app, &gm(), &format!("table{i}"), &long);
        assert!(reply.content.contains("Saved"), "{i}: {}", reply.content);
    }
    let before = everything(&app);
    let reply = set_server(&app, &gm(), "one more", "1d6");
    assert_refused(&app, &reply, "The server has 100 saved rolls", &before);
    // A long list is paged, nothing lost.
    let first = run(&app, &ann(), &["alias", "list"], &[]).all_text();
    assert!(first.contains("/alias list page:2"), "{first}");
    let mut all = first;
    for page in 2..=4 {
        let page = page.to_string();
        all.push_str(&run(&app, &ann(), &["alias", "list"], &[("page", &page)]).all_text());
    }
    for i in 1..=MAX_SERVER {
        assert!(
            all.contains(&format!("**table{i}**:")),
            "table{i} is on a page"
        );
    }
}

/// Every bad input is one ephemeral line, and changes nothing.
#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let (_dir, app) = crate::app::temp_app(5);
    set(&app, &ann(), "attack", "1d20+5");
    let before = everything(&app);
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("name", "d20"), ("expression", "1d20")], "reads as dice"),
        (&[("name", "x+1"), ("expression", "1d20")], "cannot hold +"),
        (
            &[("name", "boom"), ("expression", "1d20+")],
            "Can't save that roll",
        ),
        (
            &[("name", "boom"), ("expression", "attack")],
            "Can't save that roll",
        ),
        (
            &[("name", "boom"), ("expression", "1000d6")],
            "at most 100 dice",
        ),
        // A name that looks like another (a Cyrillic а) is refused, as a character's is.
        (
            &[("name", "\u{0430}ttack"), ("expression", "1d4")],
            "looks like your saved roll attack",
        ),
        (&[("name", "attack")], "needs the option expression"),
        (
            &[
                ("name", "attack"),
                ("expression", "1d4"),
                ("server", "maybe"),
            ],
            "true or false",
        ),
    ];
    for (options, saying) in cases {
        let reply = run(&app, &ann(), &["alias", "set"], options);
        assert_refused(&app, &reply, saying, &before);
    }
    let reply = run(&app, &ann(), &["alias", "show"], &[("name", "atack")]);
    assert_refused(&app, &reply, "Did you mean attack?", &before);
    let reply = run(&app, &ann(), &["alias", "delete"], &[("name", "atack")]);
    assert_refused(&app, &reply, "Did you mean attack?", &before);
    let reply = run(&app, &ann(), &["alias", "list"], &[("page", "2")]);
    assert_refused(&app, &reply, "1 page", &before);
    let reply = run(&app, &ann(), &["alias"], &[]);
    assert_refused(&app, &reply, "There is no command /alias", &before);
    // User 0 is where the server's are kept: no one sets theirs there.
    let reply = set(&app, &caller(0, "Nobody", false), "mine", "1d4");
    assert_refused(&app, &reply, "User 0 keeps no saved rolls", &before);

    // What follows a saved roll's name must be arithmetic: refused, nothing rolled.
    let rolls = logged(&app);
    let reply = run(&app, &ann(), &["roll"], &[("expression", "attack twice")]);
    assert_refused(
        &app,
        &reply,
        "attack is a saved roll (`1d20+5`): after",
        &before,
    );
    let reply = run(&app, &ann(), &["roll"], &[("expression", "attack+2; 1d6")]);
    assert_refused(&app, &reply, "not more rolls", &before);
    assert_eq!(logged(&app), rolls);
}

/// `/gm roll ambush`: the channel sees the commitment only, never the saved roll's expression;
/// the GM's copy names it.
#[test]
fn a_gms_secret_roll_names_the_saved_roll_in_the_copy_only() {
    let (_dir, app) = crate::app::temp_app(5);
    set(&app, &gm(), "ambush", "1d20+424200");
    let reply = run(&app, &gm(), &["gm", "roll"], &[("expression", "ambush+1")]);
    let copy = reply.gm_copy.as_deref().expect("a GM copy").all_text();
    assert!(copy.contains("ambush → `1d20+424200+1`"), "{copy}");
    let public = Reply {
        gm_copy: None,
        ..reply.clone()
    }
    .all_text();
    assert!(
        !public.contains("ambush") && !public.contains("42420"),
        "{public}"
    );
    // A player's /gm roll is refused before any saved roll is read.
    let reply = run(&app, &ann(), &["gm", "roll"], &[("expression", "ambush")]);
    assert_eq!(reply.visibility, Visibility::Ephemeral);
}

/// A name's case never matters, a capital I included ("Init", "INIT", "init" are one name), and
/// a saved roll stored under the old key (the skeleton of the name as typed, where "Init" and
/// "init" differed) is still shown, replaced and deleted by any case.
#[test]
fn a_name_with_a_capital_i_is_one_name_in_any_case() {
    let (_dir, app) = crate::app::temp_app(5);
    assert!(
        set(&app, &ann(), "Init", "1d20+2")
            .all_text()
            .contains("Saved Init")
    );
    let shown = run(&app, &ann(), &["alias", "show"], &[("name", "init")]);
    assert!(shown.all_text().contains("1d20+2"), "{shown:?}");
    let again = set(&app, &ann(), "INIT", "1d20+3");
    assert!(again.all_text().contains("(was `1d20+2`)"), "{again:?}");
    assert_eq!(everything(&app).len(), 1, "one saved roll, not two");
    // A row as the old key stored it.
    app.store
        .write(|tx| {
            aliases::put(
                tx,
                GUILD,
                &aliases::NewAlias {
                    owner: Owner::Player(UserId(10)),
                    name: "Icy",
                    key: &crate::app::characters::fields::confusable_key("Icy"),
                    expression: "2d6",
                    by: UserId(10),
                },
            )
        })
        .unwrap();
    let shown = run(&app, &ann(), &["alias", "show"], &[("name", "icy")]);
    assert!(shown.all_text().contains("2d6"), "{shown:?}");
    let replaced = set(&app, &ann(), "ICY", "3d6");
    assert!(replaced.all_text().contains("(was `2d6`)"), "{replaced:?}");
    assert_eq!(everything(&app).len(), 2);
    let gone = run(&app, &ann(), &["alias", "delete"], &[("name", "icy")]);
    assert!(gone.all_text().contains("Deleted ICY"), "{gone:?}");
    assert_eq!(everything(&app).len(), 1);
    // Rolled by any case, as before.
    let rolled = run(&app, &ann(), &["roll"], &[("expression", "iNiT")]);
    assert!(rolled.all_text().contains("1d20+3"), "{rolled:?}");
}
