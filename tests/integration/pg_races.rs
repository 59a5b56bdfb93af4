//! The exactly-once races across processes on PostgreSQL (issue 33): `referee console`
//! processes on one database — each its own process, as shard-range bots and `serve` workers
//! are — race for a character's luck, an encounter's turn and a roll request's claim. Three
//! processes race in each guild, and three guilds race at once (nine processes), so the
//! per-guild write locks are tried both within a guild and across guilds.
//!
//! Needs a PostgreSQL server (`REFEREE_TEST_DATABASE_URL`); without one it says so loudly and
//! does not run, and under `CI=true` it fails.

use referee::store::testdb::PgTestDb;

use crate::console::console;

/// Processes racing in each guild.
const RACERS: usize = 3;
/// Guilds racing at once.
const GUILDS: [u64; 3] = [21, 22, 23];
/// A character's luck before the race, and the spends each racer tries.
const LUCK: usize = 5;
const TRIES: usize = 4;

/// Runs `input` in a console on `url` in `guild`, as `who` ("gm" or a user id).
fn on(url: &str, guild: u64, who: &str, input: &str) -> Vec<String> {
    let guild = guild.to_string();
    let mut args = vec!["--db", url, "--guild", &guild];
    if who == "gm" {
        args.push("--gm");
    } else {
        args.extend(["--user", who]);
    }
    console(&args, input)
}

/// Every guild's setup: Vexa, a player's THIZ character with `LUCK` points, and an NPC.
fn set_up(url: &str) {
    for guild in GUILDS {
        on(
            url,
            guild,
            "10",
            "/character create name:Vexa system:thiz\n/character skill name:Vexa skill:Swimming rating:4\n",
        );
        on(
            url,
            guild,
            "gm",
            &format!(
                "/luck set character:Vexa points:{LUCK}\n/character create name:Goblin system:thiz npc:true\n"
            ),
        );
    }
}

/// `RACERS` processes in each guild at once, each as `who` typing `input`; their outputs by
/// guild, one text per process.
fn race(url: &str, who: &str, input: impl Fn(u64) -> String) -> Vec<(u64, Vec<String>)> {
    let runs: Vec<_> = GUILDS
        .iter()
        .flat_map(|&guild| std::iter::repeat_n(guild, RACERS))
        .map(|guild| {
            let (url, who, input) = (url.to_owned(), who.to_owned(), input(guild));
            std::thread::spawn(move || (guild, on(&url, guild, &who, &input).join("\n")))
        })
        .collect();
    let mut out: Vec<(u64, Vec<String>)> = GUILDS.iter().map(|g| (*g, Vec::new())).collect();
    for run in runs {
        let (guild, text) = run.join().expect("a racer");
        if let Some((_, texts)) = out.iter_mut().find(|(g, _)| *g == guild) {
            texts.push(text);
        }
    }
    out
}

/// How many times `needle` occurs in all of `texts`.
fn count(texts: &[String], needle: &str) -> usize {
    texts.iter().map(|t| t.matches(needle).count()).sum()
}

/// The custom id in the last button line labelled `label` of `lines`.
fn button(lines: &[String], label: &str) -> String {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("[{label}]")))
        .unwrap_or_else(|| panic!("no [{label}] button in {lines:#?}"));
    let at = line.find("/button id:").expect("a button line") + "/button id:".len();
    line[at..].trim_end_matches(')').to_owned()
}

#[test]
fn luck_turns_and_requests_are_taken_once_across_processes_on_postgres() {
    let Some(db) = PgTestDb::create() else {
        return;
    };
    let url = db.url().to_owned();
    set_up(&url);

    // Luck: RACERS × TRIES spends at LUCK points; exactly LUCK are spent in every guild.
    let spends = "/luck spend kind:stunt points:1 character:Vexa\n".repeat(TRIES);
    for (guild, texts) in race(&url, "10", |_| spends.clone()) {
        assert_eq!(
            count(&texts, "Luck spent"),
            LUCK,
            "guild {guild}: {texts:#?}"
        );
        assert_eq!(
            count(&texts, "Something went wrong") + count(&texts, "busy"),
            0,
            "guild {guild}: {texts:#?}"
        );
        let shown = on(&url, guild, "gm", "/luck show character:Vexa\n").join("\n");
        assert!(
            shown.contains("has 0 luck points"),
            "guild {guild}: {shown}"
        );
    }

    // An encounter's turn: every racer presses the same Next; it moves once.
    let mut next = std::collections::HashMap::new();
    for guild in GUILDS {
        let lines = on(
            &url,
            guild,
            "gm",
            "/encounter start system:thiz\n/encounter add character:Vexa\n/encounter add npc:Goblin\n/encounter next\n",
        );
        next.insert(guild, button(&lines, "Next turn"));
    }
    for (guild, texts) in race(&url, "gm", |guild| format!("/button id:{}\n", next[&guild])) {
        assert_eq!(count(&texts, "Next: "), 1, "guild {guild}: {texts:#?}");
        assert_eq!(
            count(&texts, "That turn has moved on already"),
            RACERS - 1,
            "guild {guild}: {texts:#?}"
        );
    }

    // A roll request's claim: Vexa's player presses Roll in every racer; one roll is made.
    let mut claim = std::collections::HashMap::new();
    for guild in GUILDS {
        let lines = on(
            &url,
            guild,
            "gm",
            "/gm request characters:Vexa skill:Swimming\n",
        );
        claim.insert(guild, button(&lines, "Roll for Vexa"));
    }
    for (guild, texts) in race(&url, "10", |guild| {
        format!("/button id:{}\n", claim[&guild])
    }) {
        assert_eq!(
            count(&texts, "== Vexa: Swimming check =="),
            1,
            "guild {guild}: {texts:#?}"
        );
        let history = on(&url, guild, "gm", "/history count:25\n").join("\n");
        assert_eq!(
            history.matches(" · check · ").count(),
            1,
            "guild {guild}: one roll logged: {history}"
        );
    }
}
