//! `/attack`, on one target or on several (issue 59, item 6): `target:"Bandit 1, Bandit 2"`.
//!
//! THIZ gives a turn one action (thiz-rulebook.md, "Determining Initiative and Initiative
//! Passes"), and burst or full-auto fire lays its extra wounds on its one target ("Burst/Full-
//! Auto Fire"). The one way the rules give a character two blows in a turn is two-weapon
//! fighting ("Two-Weapon Fighting"): the main weapon's attack, then the second weapon's, and
//! nothing there ties both to one foe. So a player names two targets with `pair`: the first is
//! struck with `weapon`, the second with `pair`, both in one message. A GM may strike more (SPEC
//! §3: a GM may override anything), each target in turn, and the message says it was the GM's
//! call.
//!
//! Decision: the second weapon's attack, which the rules resolve after the turn of the lowest
//! initiative, is rolled here with the first (its reply says when it strikes, as `pair` with
//! `second:true` always has): a player who wants it later names one target and rolls the second
//! weapon with `second:true` then. A refusal of either attack refuses the command and changes
//! nothing, since both are one transaction.

use super::attack::{AttackArgs, run_in};
use crate::app::encounter::hooks;
use crate::app::reply::Reply;
use crate::app::text::truncate;
use crate::app::{AppResult, Ctx, user};

/// Runs `/attack`: on its one target, or on each of several in turn, as one message.
pub(super) fn run(ctx: &Ctx<'_>, a: &AttackArgs) -> AppResult<Reply> {
    let targets = hooks::target_list(&a.target)?;
    if let [one] = targets.as_slice() {
        let one = AttackArgs {
            target: one.clone(),
            ..a.clone()
        };
        return ctx.app.store.write(|tx| run_in(ctx, tx, &one));
    }
    let (line, attacks) = plan(ctx, a, &targets)?;
    ctx.app.store.write(|tx| -> AppResult<Reply> {
        let mut parts: Vec<Reply> = line.into_iter().map(Reply::public).collect();
        for one in &attacks {
            let mut part = run_in(ctx, tx, one)?;
            name_buttons(&mut part, &one.target);
            parts.push(part);
        }
        Reply::join(parts).ok_or_else(|| user("Name the targets."))
    })
}

/// Puts the target's name on each button of one attack's reply that does not name it already,
/// so the luck buttons of two attacks in one message say which attack they reroll.
fn name_buttons(reply: &mut Reply, target: &str) {
    for b in &mut reply.buttons {
        if !b.label.to_lowercase().contains(&target.to_lowercase()) {
            b.label = truncate(&format!("{} ({target})", b.label), 80);
        }
    }
    for copy in [&mut reply.gm_copy, &mut reply.caller_copy]
        .into_iter()
        .flatten()
    {
        name_buttons(copy, target);
    }
}

/// The attacks of the command, one per target, with the GM's-call line when a GM strikes more
/// than the rules give; a player's that the rules do not give is refused before any die rolls.
fn plan(
    ctx: &Ctx<'_>,
    a: &AttackArgs,
    targets: &[String],
) -> AppResult<(Option<String>, Vec<AttackArgs>)> {
    if a.second {
        return Err(user(
            "second:true is the second weapon's attack alone, on one target. With two targets leave it out: the first is struck with weapon, the second with pair.",
        ));
    }
    if a.shield.is_some() || a.prone {
        return Err(user(
            "shield and prone describe one target: attack that target alone to give them (in a fight, a declared Prone is read for each target by itself).",
        ));
    }
    let on = |target: &String, second: bool| AttackArgs {
        target: target.clone(),
        second,
        ..a.clone()
    };
    if let Some(pair) = &a.pair {
        let Some(weapon) = &a.weapon else {
            return Err(user(
                "Two weapons on two targets need both named: weapon:… strikes the first, pair:… the second.",
            ));
        };
        // The second attack is the other weapon's, held beside the first.
        let off_hand = AttackArgs {
            weapon: Some(pair.clone()),
            pair: Some(weapon.clone()),
            ..on(&String::new(), true)
        };
        return match targets {
            [first, second] => Ok((
                None,
                vec![
                    on(first, false),
                    AttackArgs {
                        target: second.clone(),
                        ..off_hand
                    },
                ],
            )),
            _ => Err(user(format!(
                "Two weapons strike two targets at most (the first with weapon, the second with pair); {} were named.",
                targets.len()
            ))),
        };
    }
    if ctx.is_gm() {
        let line = format!(
            "GM's call: {} targets, where THIZ gives a turn one attack (two with two weapons).",
            targets.len()
        );
        return Ok((Some(line), targets.iter().map(|t| on(t, false)).collect()));
    }
    Err(user(
        "THIZ gives a turn one attack, so name one target; a burst's extra wounds land on its one target. To strike two foes, fight with two weapons: weapon:… pair:… and two targets (the second is struck with pair).",
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;
    use crate::app::reply::{Reply, Visibility};
    use crate::store::CharacterId;

    const VEXA: CharacterId = CharacterId(1);

    /// Vexa (the player's: Sword 3 and Dagger 5, both carried), and two foes of another player,
    /// Bran and Cora (Speed 2, Toughness 2).
    fn three(kit: &Kit) {
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        assert_eq!(vexa, VEXA);
        kit.skill(vexa, "Weapon Skill (Sword)", 3);
        kit.skill(vexa, "Weapon Skill (Dagger)", 5);
        kit.skill(vexa, "Dual-Wield (Sword, Dagger)", 4);
        kit.item(vexa, "weapon", "Sword", r#"{"attack_bonus": 4}"#);
        kit.item(vexa, "weapon", "Dagger", r#"{"attack_bonus": 2}"#);
        for name in ["Bran", "Cora"] {
            let id = kit.thiz(name, kit.other_id(), false);
            kit.skill(id, "Speed", 2);
            kit.skill(id, "Toughness", 2);
        }
    }

    fn attack(kit: &Kit, caller: &crate::app::Caller, opts: &[(&str, &str)]) -> Reply {
        let mut all = vec![("attacker", "Vexa"), ("weapon", "Sword")];
        all.extend_from_slice(opts);
        kit.run(caller, &["attack"], &all)
    }

    /// thiz-rulebook.md, "Two-Weapon Fighting": the main weapon strikes the first target, the
    /// second weapon (at the lower of its skill and Dual-Wield) the second; one message holds both.
    #[test]
    fn two_weapons_strike_two_targets_in_one_message() {
        let kit = Kit::new(7);
        three(&kit);
        let reply = attack(
            &kit,
            &kit.player(),
            &[("target", "Bran, cora"), ("pair", "Dagger")],
        );
        assert_eq!(reply.visibility, Visibility::Public, "{reply:?}");
        let titles: Vec<&str> = reply.embeds.iter().map(|e| e.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Vexa attacks Bran with Sword",
                "Vexa attacks Cora with Dagger"
            ]
        );
        assert!(
            reply.embeds[0].description.contains("main weapon"),
            "{reply:?}"
        );
        assert!(
            reply.embeds[1]
                .description
                .contains("the second weapon at 4"),
            "{reply:?}"
        );
        assert_eq!(kit.roll_count(), 2);
        // Each luck button says whose attack it rerolls, and each names its own roll.
        let labels: Vec<&str> = reply.buttons.iter().map(|b| b.label.as_str()).collect();
        assert!(
            labels.contains(&"Spend luck: reroll hit (Bran)"),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"Spend luck: reroll hit (cora)"),
            "{labels:?}"
        );
        let ids: std::collections::HashSet<&str> =
            reply.buttons.iter().map(|b| b.custom_id.as_str()).collect();
        assert_eq!(ids.len(), reply.buttons.len(), "{ids:?}");
    }

    /// Everything the rules do not give a player is refused before a die rolls, and nothing is
    /// written: one attack a turn, two weapons for two targets at most, second:true alone, a
    /// shield or Prone for one target, a target named twice, more than five.
    #[test]
    fn what_the_rules_do_not_give_is_refused_and_changes_nothing() {
        let kit = Kit::new(7);
        three(&kit);
        let six = "Bran, Cora, A, B, C, D";
        for (opts, says) in [
            (
                vec![("target", "Bran, Cora")],
                "THIZ gives a turn one attack",
            ),
            (
                vec![("target", "Bran, Cora, Vexa"), ("pair", "Dagger")],
                "two targets at most",
            ),
            (
                vec![
                    ("target", "Bran, Cora"),
                    ("pair", "Dagger"),
                    ("second", "true"),
                ],
                "second weapon's attack alone",
            ),
            (
                vec![
                    ("target", "Bran, Cora"),
                    ("pair", "Dagger"),
                    ("shield", "head"),
                ],
                "describe one target",
            ),
            (vec![("target", "Bran, bran")], "names bran twice"),
            (vec![("target", six)], "at most 5 targets"),
            (vec![("target", " , ")], "Name the target"),
        ] {
            let reply = attack(&kit, &kit.player(), &opts);
            assert_eq!(
                reply.visibility,
                Visibility::Ephemeral,
                "{opts:?}: {reply:?}"
            );
            assert!(reply.content.contains(says), "{opts:?}: {reply:?}");
            assert!(reply.embeds.is_empty());
        }
        assert_eq!(kit.roll_count(), 0);
        // A second target that does not exist refuses the first attack too: one transaction.
        let reply = attack(
            &kit,
            &kit.player(),
            &[("target", "Bran, Nobody"), ("pair", "Dagger")],
        );
        assert_eq!(reply.visibility, Visibility::Ephemeral, "{reply:?}");
        assert!(reply.embeds.is_empty(), "{reply:?}");
        assert_eq!(kit.roll_count(), 0);
        assert!(kit.wounds(CharacterId(2)).is_empty());
    }

    /// SPEC §3: a GM may override the one attack a turn; the message says it was the GM's call.
    #[test]
    fn a_gm_strikes_several_targets_and_says_it_is_the_gms_call() {
        let kit = Kit::new(7);
        three(&kit);
        kit.thiz("Dorn", kit.other_id(), false);
        let reply = attack(&kit, &kit.gm(), &[("target", "Bran, Cora, Dorn")]);
        assert_eq!(reply.embeds.len(), 3, "{reply:?}");
        assert!(
            reply
                .content
                .starts_with("GM's call: 3 targets, where THIZ gives a turn one attack"),
            "{reply:?}"
        );
        assert_eq!(kit.roll_count(), 3);
    }
}
