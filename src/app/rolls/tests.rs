//! Use-case tests for `/roll`, `/gm roll`, `/reveal` and `/history` against a temporary database.

// Every test returns TestResult so that `?` reads the same throughout, even where none fails.
#![allow(clippy::unnecessary_wraps)]

use super::sha256;
use super::*;
use crate::app::reply::Visibility;
use crate::app::testkit::{GUILD, ann, bo, caller, gm, run};
use crate::app::{App, Caller};
use crate::rules::dice::SeededDice;
use crate::store::UserId;
use crate::store::characters::{self, NewCharacter};
use crate::store::guilds::System;
use crate::store::secrets::GmProof;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn logged(app: &App) -> usize {
    app.store
        .read(|c| rolls::recent(c, GUILD, None, None, 10_000))
        .unwrap()
        .len()
}

fn total_of(reply: &Reply) -> i64 {
    let field = reply.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == "Total")
        .expect("a Total field");
    field.value.trim_matches('*').parse().unwrap()
}

/// The text a player receives: the reply without its GM copy.
fn player_text(reply: &Reply) -> String {
    Reply {
        gm_copy: None,
        ..reply.clone()
    }
    .all_text()
}

#[test]
fn seeded_rolls_have_exact_totals() -> TestResult {
    let (_dir, app) = crate::app::temp_app(7);
    let mut totals = Vec::new();
    for expression in ["2d6+1", "4d6kh3", "1d100", "3d6!-2"] {
        let reply = run(&app, &ann(), &["roll"], &[("expression", expression)]);
        assert_eq!(reply.visibility, Visibility::Public, "{reply:?}");
        totals.push(total_of(&reply));
    }
    // Seed 7 happens to open low: faces 1, 1 | 2, 2, 2, 5, 1 | 4 | 5, 1, 4 (2d6+1, 4d6kh3, 1d100, 3d6!-2).
    assert_eq!(totals, [3, 9, 4, 8]);

    // The same seed through the rules alone gives the same totals: the app adds no rolls.
    let mut dice = SeededDice::new(7);
    let again: Vec<i64> = ["2d6+1", "4d6kh3", "1d100", "3d6!-2"]
        .iter()
        .map(|e| {
            let expr = expr::parse(e, &Limits::default()).unwrap();
            expr.roll(&mut dice, &Limits::default()).unwrap().rolls[0].sets[0].value()
        })
        .collect();
    assert_eq!(again, totals);
    assert_eq!(logged(&app), 4);
    Ok(())
}

#[test]
fn a_roll_shows_each_die_the_total_and_its_number() -> TestResult {
    let (_dir, app) = crate::app::temp_app(7);
    let reply = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", " 4D6KH3 "), ("label", "**@everyone** stats")],
    );
    let embed = &reply.embeds[0];
    assert_eq!(embed.title, r"\*\*\@everyone\*\* stats");
    assert!(
        embed
            .description
            .starts_with("Ann rolled `4D6KH3`\n4d6kh3 ("),
        "{embed:?}"
    );
    assert_eq!(
        embed.description.matches("~~").count(),
        2,
        "one die struck through"
    );
    let footer = embed.footer.as_deref().unwrap_or_default();
    assert!(footer.starts_with("Roll #1 · "), "{footer}");
    let row = app
        .store
        .read(|c| rolls::get(c, GUILD, RollId(1)))?
        .unwrap();
    assert_eq!(
        (row.command.as_str(), row.mode, row.label.as_str()),
        ("roll", Mode::Public, "**@everyone** stats")
    );
    let stored: Rolled = serde_json::from_str(row.public_json.as_deref().unwrap())?;
    assert_eq!(stored.total, total_of(&reply));
    Ok(())
}

#[test]
fn modes_route_the_result() -> TestResult {
    let (_dir, app) = crate::app::temp_app(3);
    let private = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "1d20"), ("mode", "private")],
    );
    assert_eq!(private.visibility, Visibility::Ephemeral);
    assert!(private.gm_copy.is_some());

    let own = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "1d20"), ("mode", "self")],
    );
    assert_eq!(own.visibility, Visibility::Ephemeral);
    assert!(own.gm_copy.is_none());

    let blind = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "1d2+777777"), ("mode", "blind")],
    );
    assert_eq!(blind.visibility, Visibility::Ephemeral);
    let seen = player_text(&blind);
    assert!(
        !seen.contains("777778") && !seen.contains("777779"),
        "{seen}"
    );
    let copy = blind.gm_copy.as_deref().unwrap();
    assert!(copy.all_text().contains("77777"), "{copy:?}");
    assert_eq!(logged(&app), 3);
    let row = app
        .store
        .read(|c| rolls::get(c, GUILD, RollId(3)))?
        .unwrap();
    assert_eq!((row.mode, row.public_json), (Mode::Blind, None));
    Ok(())
}

#[test]
fn every_bad_roll_is_a_user_error_and_logs_nothing() -> TestResult {
    let (_dir, app) = crate::app::temp_app(1);
    let long = "1".repeat(201);
    let many_terms = vec!["1"; 21].join("+");
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (vec![], "needs the option expression"),
        (vec![("expression", "  ")], "needs the option expression"),
        (vec![("expression", "2d")], "could not read"),
        (vec![("expression", "hello")], "could not read"),
        (vec![("expression", "2d6+")], "could not read"),
        (vec![("expression", "d1")], "at least 2 sides"),
        (vec![("expression", "101d6")], "at most 100 dice"),
        (vec![("expression", "2d1001")], "at most 1000 sides"),
        (vec![("expression", "0d6")], "at least 1 die"),
        (vec![("expression", "4d6kh5")], "keep at most"),
        (vec![("expression", "2d6r6")], "reroll every face"),
        (vec![("expression", "2d6!!")], "appears twice"),
        (vec![("expression", "1d6+2000000")], "at most 1000000"),
        (vec![("expression", &many_terms)], "at most 20 dice groups"),
        (vec![("expression", &long)], "at most 200 characters"),
        (
            vec![("expression", "1d6"), ("mode", "loud")],
            "mode must be",
        ),
        (
            vec![("expression", "1d6"), ("colour", "red")],
            "has no option \"colour\"",
        ),
    ];
    let long_label = "x".repeat(MAX_LABEL + 1);
    let mut cases = cases;
    cases.push((
        vec![("expression", "1d6"), ("label", &long_label)],
        "label can be at most 100",
    ));
    for (opts, expected) in &cases {
        let reply = run(&app, &ann(), &["roll"], opts);
        assert_eq!(reply.visibility, Visibility::Ephemeral, "{opts:?}");
        assert!(reply.embeds.is_empty(), "{opts:?}");
        assert!(
            reply.content.contains(expected),
            "{opts:?}: {:?} lacks {expected:?}",
            reply.content
        );
        assert!(
            !reply.content.contains('\n'),
            "one line: {:?}",
            reply.content
        );
    }
    // The same refusals from /gm roll.
    for expression in ["2d", "101d6"] {
        let reply = run(&app, &gm(), &["gm", "roll"], &[("expression", expression)]);
        assert!(reply.content.starts_with("Can't roll that"), "{reply:?}");
    }
    assert_eq!(logged(&app), 0);
    // A label of exactly the limit is fine.
    let label = "x".repeat(MAX_LABEL);
    let ok = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "1d6"), ("label", &label)],
    );
    assert_eq!(ok.embeds.len(), 1, "{ok:?}");
    assert_eq!(logged(&app), 1);
    Ok(())
}

/// The commitment a public secret-roll reply shows.
fn commitment_of(reply: &Reply) -> String {
    let field = reply.embeds[0]
        .fields
        .iter()
        .find(|f| f.name == "Commitment")
        .expect("a Commitment field");
    field.value.trim_matches('`').to_owned()
}

/// The string a reveal says was hashed (the content's code block).
fn hashed_string(reply: &Reply) -> String {
    let start = reply.content.find("```\n").expect("a code block") + 4;
    let end = reply.content.rfind("\n```").expect("its end");
    reply.content[start..end].to_owned()
}

#[test]
fn a_revealed_string_hashes_to_the_commitment() -> TestResult {
    let (_dir, app) = crate::app::temp_app(11);
    let secret = run(
        &app,
        &gm(),
        &["gm", "roll"],
        &[("expression", "3d6+444444"), ("label", "ambush?")],
    );
    assert_eq!(secret.visibility, Visibility::Public);
    let commitment = commitment_of(&secret);
    assert_eq!(commitment.len(), 64);
    assert!(commitment.chars().all(|c| c.is_ascii_hexdigit()));
    // The public part shows the commitment and the label, not the expression or the result.
    let public = player_text(&secret);
    assert!(public.contains("ambush?"));
    assert!(
        !public.contains("444444") && !public.contains("3d6"),
        "{public}"
    );
    let copy = secret.gm_copy.as_deref().unwrap().all_text();
    assert!(copy.contains("`3d6+444444`"), "{copy}");

    let nonce = app
        .store
        .read(|c| rolls::secret(c, GmProof::verified(GUILD), RollId(1)))?
        .unwrap()
        .nonce
        .unwrap();
    assert_eq!(nonce.len(), 32);
    assert!(!public.contains(&nonce));

    let reveal = run(&app, &gm(), &["reveal"], &[("roll", "#1")]);
    assert_eq!(reveal.visibility, Visibility::Public);
    let hashed = hashed_string(&reveal);
    assert!(
        hashed.starts_with("referee-commit-v1|expr=3d6 + 444444;dice=3d6("),
        "{hashed}"
    );
    assert!(hashed.ends_with(&format!("|{nonce}")), "{hashed}");
    assert_eq!(sha256::hex_digest(hashed.as_bytes()), commitment);
    let shown = reveal.all_text();
    assert!(shown.contains(&nonce) && shown.contains(&commitment));
    assert!(shown.contains(&format!("**{}**", total_of(&reveal))));

    // Once only, and nothing changes the second time.
    let again = run(&app, &gm(), &["reveal"], &[("roll", "1")]);
    assert_eq!(
        again.content,
        "Roll #1 was already revealed; /history shows its result."
    );
    assert_eq!(again.visibility, Visibility::Ephemeral);
    Ok(())
}

#[test]
fn reveal_refuses_what_is_not_a_secret_roll() -> TestResult {
    let (_dir, app) = crate::app::temp_app(2);
    run(&app, &ann(), &["roll"], &[("expression", "1d6")]);
    run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "1d6"), ("mode", "blind")],
    );
    for (roll, expected) in [
        ("1", "Roll #1 is not a secret roll"),
        ("2", "Roll #2 is not a secret roll"),
        ("9", "There is no roll #9 here"),
        ("0", "roll must be a roll number"),
        ("x", "roll must be a roll number"),
    ] {
        let reply = run(&app, &gm(), &["reveal"], &[("roll", roll)]);
        assert!(reply.content.starts_with(expected), "{roll}: {reply:?}");
    }
    // The blind roll stays hidden.
    let row = app
        .store
        .read(|c| rolls::get(c, GUILD, RollId(2)))?
        .unwrap();
    assert_eq!(row.public_json, None);
    Ok(())
}

#[test]
fn gm_commands_are_refused_to_players() -> TestResult {
    let (_dir, app) = crate::app::temp_app(5);
    let refused = run(&app, &ann(), &["gm", "roll"], &[("expression", "1d6")]);
    assert!(
        refused.content.starts_with("only a GM can do that"),
        "{refused:?}"
    );
    assert_eq!(logged(&app), 0);

    run(&app, &gm(), &["gm", "roll"], &[("expression", "1d6")]);
    let refused = run(&app, &ann(), &["reveal"], &[("roll", "1")]);
    assert!(
        refused.content.starts_with("only a GM can do that"),
        "{refused:?}"
    );
    let secret = app
        .store
        .read(|c| rolls::secret(c, GmProof::verified(GUILD), RollId(1)))?
        .unwrap();
    assert_eq!(secret.revealed_at, None);
    Ok(())
}

/// Seeds one guild with hidden rolls carrying sentinel numbers: Ann's blind roll, Bo's private,
/// self and blind rolls, a GM secret roll (#6), a public NPC roll, a blind roll of Ann's Vexa; and
/// one public roll of Bo's. Returns the secret roll's commitment and nonce.
fn seed_hidden_rolls(app: &App) -> Result<(String, String), Box<dyn std::error::Error>> {
    let npc = app.store.write(|tx| {
        characters::create(
            tx,
            GUILD,
            &NewCharacter {
                name: "Shadow Queen",
                system: System::Thiz,
                owner_id: UserId(1),
                npc: true,
                sheet_json: "{}",
            },
        )
    })?;
    let vexa = app.store.write(|tx| {
        characters::create(
            tx,
            GUILD,
            &NewCharacter {
                name: "Vexa",
                system: System::Thiz,
                owner_id: UserId(10),
                npc: false,
                sheet_json: "{}",
            },
        )
    })?;

    // Ann's blind roll, Bo's hidden rolls, a GM secret, a public NPC roll; sentinels everywhere.
    run(
        app,
        &ann(),
        &["roll"],
        &[("expression", "1d2+777777"), ("mode", "blind")],
    );
    for (expression, mode) in [
        ("1d2+888888", "private"),
        ("1d2+666666", "self"),
        ("1d2+555555", "blind"),
        ("1d2+111111", "public"),
    ] {
        run(
            app,
            &bo(),
            &["roll"],
            &[("expression", expression), ("mode", mode)],
        );
    }
    let secret = run(app, &gm(), &["gm", "roll"], &[("expression", "1d2+444444")]);
    let commitment = commitment_of(&secret);
    let gm_proof = GmProof::verified(GUILD);
    let nonce = app
        .store
        .read(|c| rolls::secret(c, gm_proof, RollId(6)))?
        .unwrap()
        .nonce
        .unwrap();
    app.store.write(|tx| {
        for (character, mode, json) in [
            (npc, Mode::Public, r#"{"summary":"Shadow strikes 333333"}"#),
            (vexa, Mode::Blind, r#"{"summary":"Vexa blind 222222"}"#),
        ] {
            rolls::insert(
                tx,
                GUILD,
                &NewRoll {
                    user: if mode == Mode::Public {
                        UserId(1)
                    } else {
                        UserId(10)
                    },
                    character,
                    command: "check",
                    mode,
                    label: "",
                    result_json: json,
                    commitment: None,
                    nonce: None,
                    parent: None,
                },
            )?;
        }
        Ok::<_, crate::store::StoreError>(())
    })?;
    Ok((commitment, nonce))
}

#[test]
fn players_never_see_hidden_results_in_history() -> TestResult {
    let (_dir, app) = crate::app::temp_app(9);
    let (commitment, nonce) = seed_hidden_rolls(&app)?;
    let hidden = [
        "777778", "777779", "888888", "666666", "555555", "444444", "333333", "222222", "Shadow",
        &nonce,
    ];

    let history = run(&app, &ann(), &["history"], &[("count", "25")]);
    assert_eq!(history.visibility, Visibility::Ephemeral);
    let text = history.all_text();
    for sentinel in hidden {
        assert!(!text.contains(sentinel), "{sentinel} leaked: {text}");
    }
    assert!(
        text.matches("blind roll — result hidden").count() == 2,
        "{text}"
    );
    assert!(text.contains("111112") || text.contains("111113"), "{text}");
    assert!(text.contains(&commitment), "{text}");
    assert_eq!(text.matches("**#").count(), 4, "{text}");

    // Filtered by character, and an NPC's name is as unknown as a made-up one.
    let text = run(&app, &ann(), &["history"], &[("character", "vexa")]).all_text();
    assert!(
        text.contains("Rolls of Vexa") && !text.contains("222222"),
        "{text}"
    );
    let npc_reply = run(&app, &ann(), &["history"], &[("character", "Shadow Queen")]);
    let nobody = run(&app, &ann(), &["history"], &[("character", "Nobody")]);
    assert_eq!(
        npc_reply.content.replace("Shadow Queen", "X"),
        nobody.content.replace("Nobody", "X")
    );

    // The GM sees every result.
    let text = run(&app, &gm(), &["history"], &[("count", "25")]).all_text();
    for sentinel in [
        "77777", "888888", "666666", "555555", "444444", "333333", "222222",
    ] {
        assert!(text.contains(sentinel), "GM misses {sentinel}: {text}");
    }
    assert!(text.contains("(not revealed yet)"), "{text}");

    // After the reveal, the secret result is everyone's.
    run(&app, &gm(), &["reveal"], &[("roll", "6")]);
    let text = run(&app, &ann(), &["history"], &[]).all_text();
    assert!(
        text.contains("(revealed)") && text.contains("44444"),
        "{text}"
    );
    Ok(())
}

#[test]
fn history_count_is_checked() -> TestResult {
    let (_dir, app) = crate::app::temp_app(4);
    for _ in 0..3 {
        run(&app, &ann(), &["roll"], &[("expression", "1d6")]);
    }
    let two = run(&app, &ann(), &["history"], &[("count", "2")]);
    assert_eq!(two.embeds[0].description.lines().count(), 2, "{two:?}");
    let all = run(&app, &ann(), &["history"], &[]);
    assert_eq!(all.embeds[0].description.lines().count(), 3);
    assert!(
        all.embeds[0]
            .description
            .starts_with("**#3** · you · roll · public: `1d6` → **")
    );
    for bad in ["0", "26", "many"] {
        let reply = run(&app, &ann(), &["history"], &[("count", bad)]);
        assert!(
            reply.content.starts_with("count must be"),
            "{bad}: {reply:?}"
        );
    }
    let ok = run(&app, &ann(), &["history"], &[("count", "25")]);
    assert_eq!(ok.embeds.len(), 1);
    let empty = run(&app, &bo(), &["history"], &[("character", "")]);
    assert_eq!(
        empty.embeds[0].description.lines().count(),
        3,
        "public rolls of Ann"
    );
    Ok(())
}

#[test]
fn roll_numbers_parse() {
    assert_eq!(roll_id("12").unwrap(), RollId(12));
    assert_eq!(roll_id(" #3 ").unwrap(), RollId(3));
    for bad in ["0", "-1", "#", "abc", "99999999999999999999"] {
        assert!(roll_id(bad).is_err(), "{bad}");
    }
}

#[test]
fn nonces_use_the_apps_dice() {
    let mut a = SeededDice::new(1);
    let mut b = SeededDice::new(1);
    let first = commit::nonce(&mut a);
    assert_eq!(first, commit::nonce(&mut b), "a seed repeats its nonces");
    assert_ne!(first, commit::nonce(&mut a), "each nonce is fresh");
}

/// A plain `/roll` through the roll journal (`store::journal`), as the bot runs it: answered
/// with its number, in `/history` at once; a roll that must write more comes back to be run as
/// a writing job, with nothing logged.
#[test]
fn a_journaled_roll_is_numbered_and_in_history_and_a_private_one_needs_the_writer() -> TestResult {
    let (_dir, app) = crate::app::temp_app(7);
    assert!(app.store.start_journal(None)?);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let public = Invocation::new(&["roll"], &[("expression", "1d6"), ("label", "jumps")]);
    // The guild's first roll: the journal holds none of its numbers yet, so it is written (and
    // the bot's folding thread leases a block of them).
    let first = app.run_journal_job(deadline, None, &ann(), "i0", &public);
    assert!(matches!(first, crate::app::Ran::NeedsWriter), "{first:?}");
    app.store.fold_journal(std::time::Duration::ZERO);
    let crate::app::Ran::Done(Ok(reply)) =
        app.run_journal_job(deadline, None, &ann(), "i1", &public)
    else {
        panic!("a public roll is answered through the journal");
    };
    let footer = reply.embeds[0].footer.as_deref().unwrap_or_default();
    assert!(footer.starts_with("Roll #1 · "), "{footer}");
    let private = Invocation::new(&["roll"], &[("expression", "1d6"), ("mode", "private")]);
    let ran = app.run_journal_job(deadline, None, &gm(), "i2", &private);
    assert!(
        matches!(ran, crate::app::Ran::NeedsWriter),
        "a private roll holds a GM copy: {ran:?}"
    );
    // The journaled roll reaches the database when something folds the journal: a write, the
    // bot's folding thread, or a read of the roll log asking for it (as `/history` does).
    assert_eq!(logged(&app), 0);
    app.store.settle_journal();
    assert_eq!(logged(&app), 1, "nothing of the private roll was kept");
    let history = player_text(&run(&app, &ann(), &["history"], &[]));
    assert!(history.contains("jumps"), "{history}");
    assert!(history.contains("#1"), "{history}");
    Ok(())
}

/// What of a roll's reply does not depend on its dice or number: where it goes and what it
/// holds beside them.
fn shape(reply: &Reply) -> String {
    let titles: Vec<&str> = reply.embeds.iter().map(|e| e.title.as_str()).collect();
    format!(
        "{:?} | {} | copy {} to {:?} | caller copy {} | notice {:?} | buttons {} | embeds {titles:?}",
        reply.visibility,
        reply.content,
        reply.gm_copy.is_some(),
        reply.gm_channel,
        reply.caller_copy.is_some(),
        reply.notice,
        reply.buttons.len(),
    )
}

/// A journal job does not read the guild's settings (`Ctx::new`): a public or self `/roll`'s
/// reply is shaped the same through the journal as written the usual way, whatever the
/// settings (none; a GM role and channel; NPC numbers open) and whoever rolls.
#[test]
fn a_journaled_roll_goes_where_a_written_one_goes_whatever_the_settings() -> TestResult {
    let role_gm = Caller {
        roles: vec![77],
        ..caller(12, "Cy", false)
    };
    let setups: [&[(&str, &str)]; 3] = [
        &[],
        &[("gm_role", "<@&77>"), ("gm_channel", "<#88>")],
        &[("gm_role", "<@&77>"), ("gm_channel", "<#88>")],
    ];
    for (n, setup) in setups.iter().enumerate() {
        let (_dir, app) = crate::app::temp_app(7);
        assert!(app.store.start_journal(None)?);
        if !setup.is_empty() {
            run(&app, &gm(), &["gm", "setup"], setup);
        }
        if n == 2 {
            let open = [("name", "npc_numbers_open"), ("value", "on")];
            let set = run(&app, &gm(), &["gm", "rules"], &open);
            assert!(set.all_text().contains("npc_numbers_open"), "{set:?}");
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        for who in [ann(), gm(), role_gm.clone()] {
            for mode in ["public", "self"] {
                let opts = [("expression", "2d6+1"), ("label", "leap"), ("mode", mode)];
                let inv = Invocation::new(&["roll"], &opts);
                let journaled = match app.run_journal_job(deadline, None, &who, "j1", &inv) {
                    crate::app::Ran::Done(Ok(reply)) => reply,
                    crate::app::Ran::NeedsWriter => {
                        // No numbers leased yet: the folding thread's step, then again.
                        app.store.fold_journal(std::time::Duration::ZERO);
                        let again = app.run_journal_job(deadline, None, &who, "j2", &inv);
                        let crate::app::Ran::Done(Ok(reply)) = again else {
                            panic!(
                                "journaled once leased: {again:?}, setup {n}, {} {mode}",
                                who.name
                            );
                        };
                        reply
                    }
                    other @ crate::app::Ran::Done(Err(_)) => panic!("{other:?}"),
                };
                let written = run(&app, &who, &["roll"], &opts);
                assert_eq!(
                    shape(&journaled),
                    shape(&written),
                    "setup {n}, {} rolling {mode}",
                    who.name
                );
            }
        }
        // A private roll is not a journal job: it goes the usual way, settings read.
        let private = Invocation::new(&["roll"], &[("expression", "1d6"), ("mode", "private")]);
        let ran = app.run_journal_job(deadline, None, &ann(), "p", &private);
        assert!(matches!(ran, crate::app::Ran::NeedsWriter), "{ran:?}");
    }
    Ok(())
}

#[test]
fn the_largest_rolls_fit_discord_and_keep_every_total() {
    let (_dir, app) = crate::app::temp_app(3);
    // 100 dice of 1000 sides, with a label long enough to crowd the heading.
    let reply = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "(Fireball of doom) 100d1000mi2 ! all of them")],
    );
    let e = &reply.embeds[0];
    assert!(
        e.description.chars().count() <= 4096,
        "{}",
        e.description.len()
    );
    assert!(e.fields.iter().any(|f| f.name == "Total"), "{e:?}");
    // Twenty sets of five: each total on its own line, whatever had to be shortened.
    let reply = run(&app, &ann(), &["roll"], &[("expression", "20 5d1000!")]);
    let e = &reply.embeds[0];
    assert!(e.description.chars().count() <= 4096);
    for n in 1..=20 {
        assert!(
            e.description.contains(&format!("\n{n}. ")),
            "set {n}: {}",
            e.description
        );
    }
    assert_eq!(
        e.description.matches(" = **").count(),
        20,
        "{}",
        e.description
    );
    // A message that cannot fit is cut inside the dice and says so, never inside a total.
    let lines: Vec<String> = (0..4)
        .map(|i| format!("{} = **{i}**", "~~9~~, ".repeat(400)))
        .collect();
    let text = shorten("heading", &lines);
    assert!(text.chars().count() <= 4096);
    assert_eq!(text.matches("… (shortened) = **").count(), 4, "{text}");
    assert_eq!(
        text.matches("~~").count() % 2,
        0,
        "no strike-through left open"
    );
}

#[test]
fn every_reply_says_how_the_roll_was_read() {
    let (_dir, app) = crate::app::temp_app(3);
    for (typed, read) in [
        ("4d6 k3", Some("4d6kh3")),
        ("dndstats", Some("6 4d6kh3")),
        ("+d20+5", Some("2d20kh1 + 5")),
        ("2d6+1", None),
        ("2D6 + 1", None),
    ] {
        let reply = run(&app, &ann(), &["roll"], &[("expression", typed)]);
        let d = &reply.embeds[0].description;
        match read {
            Some(read) => assert!(d.contains(&format!("(read as `{read}`)")), "{typed}: {d}"),
            None => assert!(!d.contains("read as"), "{typed}: {d}"),
        }
    }
    // Successes are counted as successes.
    let reply = run(&app, &ann(), &["roll"], &[("expression", "6d10 t7")]);
    let total = &reply.embeds[0].fields[0].value;
    assert!(
        total.ends_with("successes") || total.ends_with("success"),
        "{total}"
    );
}

#[test]
fn dice_maidens_flags_and_marks_show_what_happened() -> TestResult {
    let (_dir, app) = crate::app::temp_app(5);
    // `p`: only the roller sees it, as mode self, and the reply says so; it is still logged.
    let private = run(&app, &ann(), &["roll"], &[("expression", "p 1d20")]);
    assert_eq!(private.visibility, Visibility::Ephemeral);
    assert!(private.gm_copy.is_none());
    assert!(private.all_text().contains("`p`: only you see this roll"));
    let row = app
        .store
        .read(|c| rolls::get(c, GUILD, RollId(1)))?
        .unwrap();
    assert_eq!(row.mode, Mode::SelfOnly);
    // A mode typed as an option wins over nothing: `p` with mode private stays private.
    let chosen = run(
        &app,
        &ann(),
        &["roll"],
        &[("expression", "p 1d20"), ("mode", "private")],
    );
    assert!(chosen.gm_copy.is_some() && !chosen.all_text().contains("`p`:"));
    // Without `p`, public as before.
    let public = run(&app, &ann(), &["roll"], &[("expression", "1d20")]);
    assert_eq!(public.visibility, Visibility::Public);

    // `nr`: the dice without a total, and no rank under it.
    let bare = run(&app, &ann(), &["roll"], &[("expression", "nr 4d6")]);
    let embed = &bare.embeds[0];
    assert!(embed.fields.iter().all(|f| f.name != "Total"), "{embed:?}");
    assert!(embed.description.contains("4d6 ("), "{embed:?}");
    assert!(
        !embed
            .footer
            .as_deref()
            .unwrap_or("")
            .contains("better than")
    );

    // Botches beside the total; an imploded die shown subtracted; a cancelled 1 marked.
    let shown = |expression: &str| {
        let reply = run(&app, &ann(), &["roll"], &[("expression", expression)]);
        (
            reply.embeds[0].description.clone(),
            reply.embeds[0]
                .fields
                .iter()
                .map(|f| f.value.clone())
                .collect::<String>(),
        )
    };
    for _ in 0..30 {
        let (description, total) = shown("6d10 b1");
        let ones = description.matches(" botch").count();
        if ones > 0 {
            let want = if ones == 1 {
                "1 botch".to_owned()
            } else {
                format!("{ones} botches")
            };
            assert!(total.ends_with(&want), "{total} / {description}");
            break;
        }
        assert!(total.ends_with("0 botches"), "{total}");
    }
    for _ in 0..30 {
        let (description, _) = shown("4d6 i1");
        if description.contains("1, −(") {
            break;
        }
        assert!(!description.contains('−'), "{description}");
    }
    let (description, _) = shown("3 4d10 f1 t8 c");
    assert!(description.contains("successes") || description.contains("success"));
    Ok(())
}
