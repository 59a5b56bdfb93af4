//! The house-rules switch over the sheet and over every roll that reads DX (issue 31): with
//! `/gm rules tft_house_rules` off, `/character set` and `/character gear` refuse the house
//! rules' gear and weapon qualities, the DX rolls refuse to read fine armor, and
//! `/character validate` names the house rules' spells; with it on all of it goes through.

use super::*;

/// Whether a reply is the house-rules refusal.
fn refused_by_the_switch(r: &Reply) -> bool {
    r.visibility == Visibility::Ephemeral && r.embeds.is_empty() && r.content.contains(HOUSE_OFF)
}

fn items_of(w: &World, id: CharacterId) -> Vec<characters::Item> {
    w.app
        .store
        .read(|c| characters::items(c, GuildId(1), id))
        .unwrap()
}

fn sheet_of(w: &World, id: CharacterId) -> TftSheet {
    let c = w
        .app
        .store
        .read(|c| characters::by_id(c, GuildId(1), id))
        .unwrap()
        .unwrap();
    match Sheet::of(&c).unwrap() {
        Sheet::Tft(s) => s,
        Sheet::Thiz(_) => panic!("a TFT sheet"),
    }
}

#[test]
fn without_the_house_rules_the_sheet_takes_no_house_gear_or_quality() {
    // (command path, options, exists only by the house rules) — tft-house-rules.txt,
    // "Fine Armor", "Shields", "Fine Weapons", "Good Weapons", "Great Bow", "Lance and Pike
    // Rules"; the rows marked false are the summary's gear and go through either way.
    let set = |field: &'static str, value: &'static str| -> Opts<'static> {
        Box::leak(Box::new([
            ("name", "Vexa"),
            ("field", field),
            ("value", value),
        ]))
    };
    let gear = |item: &'static str, quality: Option<&'static str>| -> Opts<'static> {
        let mut v = vec![
            ("name", "Vexa"),
            ("action", "add"),
            ("item", item),
            ("kind", "weapon"),
        ];
        if let Some(q) = quality {
            v.push(("quality", q));
        }
        Box::leak(v.into_boxed_slice())
    };
    let rows: Vec<(&[&str], Opts<'_>, bool)> = vec![
        (&["character", "set"], set("armor", "fine chainmail"), true),
        (&["character", "set"], set("armor", "fine plate"), true),
        (&["character", "set"], set("shield", "metal small"), true),
        (&["character", "set"], set("armor", "chainmail"), false),
        (&["character", "set"], set("shield", "small"), false),
        (
            &["character", "gear"],
            gear("broadsword", Some("fine")),
            true,
        ),
        (
            &["character", "gear"],
            gear("broadsword", Some("fine+2")),
            true,
        ),
        (
            &["character", "gear"],
            gear("broadsword", Some("good")),
            true,
        ),
        (&["character", "gear"], gear("great bow", None), true),
        (&["character", "gear"], gear("lance", None), true),
        (
            &["character", "gear"],
            gear("broadsword", Some("plain")),
            false,
        ),
        (&["character", "gear"], gear("light crossbow", None), false),
    ];
    for house in [true, false] {
        let w = world();
        w.set_rule("tft_house_rules", house);
        let vexa = w.tft("Vexa", ANN, fighter(14, 12));
        for (path, opts, house_only) in &rows {
            let before = (sheet_of(&w, vexa), items_of(&w, vexa));
            let r = w.run(ANN, path, opts);
            if *house_only && !house {
                assert!(refused_by_the_switch(&r), "{path:?} {opts:?}: {r:?}");
                assert!(r.content.contains("tft_house_rules value:on"), "{r:?}");
                assert_eq!((sheet_of(&w, vexa), items_of(&w, vexa)), before, "{opts:?}");
            } else {
                assert!(
                    !refused_by_the_switch(&r),
                    "{house} {path:?} {opts:?}: {r:?}"
                );
                assert!(
                    !r.content.starts_with("Nothing changed"),
                    "{house} {opts:?}: {r:?}"
                );
            }
        }
    }
}

#[test]
fn without_the_house_rules_no_dx_roll_reads_fine_armor() {
    // tft-house-rules.txt, "Fine Armor": fine chainmail is -2 DX where chainmail is -3. Each
    // roll made against adjDX shows the -2 with the house rules on and is refused with them off;
    // a roll that reads no DX goes through either way. (path, options, reads DX)
    type Row<'a> = (&'a [&'a str], Opts<'a>, bool);
    let rows: [Row<'_>; 6] = [
        (
            &["tft", "save"],
            &[("attribute", "dx"), ("dice", "3"), ("character", "Vexa")],
            true,
        ),
        (
            &["tftkit", "check"],
            &[("check", "climb-wall"), ("character", "Vexa")],
            true,
        ),
        (&["tftkit", "miss"], &[("character", "Vexa")], true),
        (
            &["tftkit", "cast"],
            &[
                ("spell", "Light"),
                ("character", "Vexa"),
                ("kind", "thrown"),
                ("st", "1"),
            ],
            true,
        ),
        (
            &["tft", "save"],
            &[("attribute", "st"), ("dice", "3"), ("character", "Vexa")],
            false,
        ),
        (
            &["tft", "save"],
            &[("attribute", "iq"), ("dice", "3"), ("character", "Vexa")],
            false,
        ),
    ];
    for house in [true, false] {
        let w = world();
        w.set_rule("tft_house_rules", house);
        // Written as a sheet made while the house rules were on.
        w.tft(
            "Vexa",
            ANN,
            TftSheet {
                armor: Some("Fine Chainmail".into()),
                spells: vec!["Light".into()],
                ..fighter(14, 12)
            },
        );
        for (path, opts, reads_dx) in &rows {
            let before = w.rolls();
            let r = w.run(ANN, path, opts);
            if *reads_dx && !house {
                assert!(refused_by_the_switch(&r), "{path:?}: {r:?}");
                assert!(r.content.contains("Fine Chainmail"), "{r:?}");
                assert_eq!(w.rolls(), before, "{path:?} rolled nothing");
            } else {
                assert_eq!(r.embeds.len(), 1, "{house} {path:?}: {r:?}");
                assert_eq!(
                    r.all_text().contains("armor -2"),
                    *reads_dx,
                    "{house} {path:?}: {}",
                    r.all_text()
                );
            }
        }
    }
}

#[test]
fn validate_names_the_house_rules_spells_only_when_they_are_off() {
    // tft-house-rules.txt, "New and Changed Spells": Bladeturn and Flame Shield are new there;
    // Summon Myrmidon is a spell of the game the house rules only change; Light is not theirs.
    for house in [true, false] {
        let w = world();
        w.set_rule("tft_house_rules", house);
        w.tft(
            "Vexa",
            ANN,
            TftSheet {
                spells: vec![
                    "Bladeturn".into(),
                    "Summon Myrmidon".into(),
                    "Light".into(),
                    "flame shield".into(),
                ],
                ..fighter(14, 12)
            },
        );
        let text = w
            .run(ANN, &["character", "validate"], &[("name", "Vexa")])
            .all_text();
        let line = "Bladeturn, Flame Shield: spells of Bill Seurer's house rules";
        assert_eq!(text.contains(line), !house, "{house}: {text}");
        assert!(!text.contains("Summon Myrmidon: spells"), "{text}");
        assert!(!text.contains("Light: spells"), "{text}");
    }
}
