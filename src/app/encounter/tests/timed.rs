//! Timed effects in the tracker (issue 31): set by a GM or by a THIZ fall's stun, shown on the
//! status message, counted down by the figure's turns or by rounds, ended with a line; Undo
//! puts them back as they were; players and bad input change nothing.

use super::{ANN, CH, G, GM, thiz_table};
use crate::app::encounter::state::TimeUnit;

fn timer(count: &str) -> Vec<(&'static str, &str)> {
    vec![("figure", "Alys"), ("what", "stunned"), ("count", count)]
}

#[test]
fn a_gms_timer_counts_down_with_the_figures_turns_and_ends_with_a_line() {
    let t = thiz_table(3);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    // Bad input and a player's try change nothing.
    assert!(
        t.refused(ANN, &["encounter", "timer"], &timer("2"))
            .contains("GM")
    );
    assert!(
        t.refused(GM, &["encounter", "timer"], &timer("1001"))
            .contains("count")
    );
    let mut bad_per = timer("2");
    bad_per.push(("per", "week"));
    assert!(
        t.refused(GM, &["encounter", "timer"], &bad_per)
            .contains("per must be")
    );
    let mut nobody = timer("2");
    nobody[0] = ("figure", "Nobody");
    assert!(
        t.refused(GM, &["encounter", "timer"], &nobody)
            .contains("not in this encounter")
    );

    let set = t.ok(GM, &["encounter", "timer"], &timer("2"));
    assert_eq!(set.content, "Alys: stunned for 2 turns.");
    let status = t.app.encounter_status(G, CH).unwrap().unwrap().reply;
    assert!(
        status.all_text().contains("Alys: stunned, 2 turns left"),
        "{}",
        status.all_text()
    );
    // Next until Alys's second turn ends: the line comes with that Next, not before.
    let alys = t
        .state()
        .figures
        .iter()
        .find(|f| f.name == "Alys")
        .unwrap()
        .id;
    let mut ended = 0;
    for _ in 0..40 {
        let ending = t.state().current().map(|f| f.id);
        let reply = t.ok(GM, &["encounter", "next"], &[]);
        if ending == Some(alys) {
            ended += 1;
        }
        let over = reply.content.contains("Alys: stunned is over.");
        assert_eq!(
            over,
            ended == 2,
            "after {ended} of Alys's turns: {}",
            reply.content
        );
        let left = t.state().timed.first().map(|t| t.left);
        assert_eq!(left, (ended < 2).then(|| 2 - ended), "{}", reply.content);
        if over {
            break;
        }
    }
    assert_eq!(ended, 2, "Alys had two turns within 40 Nexts");
}

#[test]
fn undo_puts_a_timer_back_and_count_zero_ends_one() {
    let t = thiz_table(5);
    t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
    t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
    t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
    t.ok(GM, &["encounter", "next"], &[]);
    t.ok(
        GM,
        &["encounter", "timer"],
        &[
            ("figure", "Goblin 1"),
            ("what", "Light"),
            ("count", "1"),
            ("per", "round"),
        ],
    );
    let before = t.state();
    assert_eq!(before.timed[0].unit, TimeUnit::Round);
    t.ok(GM, &["encounter", "next"], &[]);
    t.ok(GM, &["encounter", "undo"], &[]);
    assert_eq!(t.state(), before, "undo restores the timers exactly");
    let off = t.ok(
        GM,
        &["encounter", "timer"],
        &[("figure", "Goblin 1"), ("what", "light"), ("count", "0")],
    );
    assert_eq!(off.content, "Goblin 1: light is over.");
    assert!(t.state().timed.is_empty());
}

/// thiz-rulebook.md, "Falling": a fall that wounds stuns for some turns; in the channel's
/// encounter the tracker counts them.
#[test]
fn a_falls_stun_is_counted_by_the_tracker() {
    for seed in 0..40 {
        let t = thiz_table(seed);
        t.ok(GM, &["encounter", "start"], &[("surprise", "none")]);
        t.ok(ANN, &["encounter", "add"], &[("character", "Alys")]);
        t.ok(GM, &["encounter", "add"], &[("npc", "Goblin")]);
        t.ok(GM, &["encounter", "next"], &[]);
        let fall = t.ok(
            GM,
            &["hazard", "fall"],
            &[("character", "Alys"), ("height", "25")],
        );
        let text = fall.all_text();
        let Some(at) = text.find("stunned for ") else {
            assert!(t.state().timed.is_empty(), "no stun, no timer: {text}");
            continue;
        };
        let turns: u32 = text[at + "stunned for ".len()..]
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap();
        let timed = &t.state().timed;
        assert_eq!(timed.len(), 1, "{text}");
        assert_eq!(
            (timed[0].what.as_str(), timed[0].left, timed[0].unit),
            ("stunned", turns, TimeUnit::Turn)
        );
        return;
    }
    panic!("no seed made a fall that stuns");
}
