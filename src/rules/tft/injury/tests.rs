use super::*;

/// The house rules' reaction (most tests here are of the house rules' tables).
fn reaction(st: i32, round_hits: i32) -> Result<Reaction, InjuryError> {
    reaction_by(st, round_hits, true)
}

/// The house rules' after-the-blow rules.
fn after_blow(
    dice: &mut impl DieSource,
    struck: &Struck,
    hits: i32,
    damage_before_armor: i32,
    attacker_st: Option<i32>,
    lance: bool,
) -> Result<AfterBlow, InjuryError> {
    after_blow_by(
        dice,
        struck,
        hits,
        damage_before_armor,
        attacker_st,
        lance,
        true,
    )
}

#[test]
fn without_house_rules_every_figure_reacts_at_5_and_8() {
    // tft-rules-summary.md, "Common DX Adjustments" (5 hits: -2 DX); tft-house-rules-combat.txt,
    // "Reaction to Injuries" (the chart by ST the house rules put in its place) and "Knockdown"
    // (8 hits). Both sides of each threshold, under and over ST 20.
    for st in [8, 19, 20, 45, 100] {
        let t = reaction_thresholds_by(st, false).unwrap();
        assert_eq!((t.minus_two_dx, t.knockdown), (5, 8), "ST {st}");
        for (hits, minus, down) in [
            (4, false, false),
            (5, true, false),
            (7, true, false),
            (8, true, true),
        ] {
            let r = reaction_by(st, hits, false).unwrap();
            assert_eq!(
                (r.minus_two_dx, r.knocked_down),
                (minus, down),
                "ST {st}, {hits}"
            );
        }
    }
    // With them, ST 20 is the next band: 7 and 12.
    let t = reaction_thresholds_by(20, true).unwrap();
    assert_eq!((t.minus_two_dx, t.knockdown), (7, 12));
    assert!(reaction_thresholds_by(0, false).is_err());
}
use crate::rules::dice::ScriptedDice;

// tft-house-rules-combat.txt, "Reaction to Injuries": every printed band at both edges.
#[test]
fn reaction_table_printed_bands() {
    let bands: &[(i32, i32, i32, i32)] = &[
        (1, 19, 5, 8),
        (20, 29, 7, 12),
        (30, 39, 10, 16),
        (40, 49, 12, 20),
        (50, 59, 15, 24),
        (60, 69, 17, 28),
        (70, 79, 20, 32),
        (80, 89, 22, 36),
        (90, 99, 25, 40),
        (100, 109, 27, 44),
    ];
    for &(low, high, dx, down) in bands {
        for st in [low, high] {
            let t = reaction_thresholds(st).unwrap();
            assert_eq!((t.minus_two_dx, t.knockdown), (dx, down), "ST {st}");
        }
    }
}

// Same section: the table ends in "..."; the steps (+2/+3 alternating, +4) carry on.
#[test]
fn reaction_table_extension_edges() {
    let cases: &[(i32, i32, i32)] = &[
        (109, 27, 44),
        (110, 30, 48),
        (119, 30, 48),
        (120, 32, 52),
        (129, 32, 52),
        (130, 35, 56),
        (MAX_ST, 5 + 5 * 99 / 2, 8 + 4 * 99),
    ];
    for &(st, dx, down) in cases {
        let t = reaction_thresholds(st).unwrap();
        assert_eq!((t.minus_two_dx, t.knockdown), (dx, down), "ST {st}");
    }
    assert_eq!(reaction_thresholds(0), Err(InjuryError::St(0)));
    assert_eq!(
        reaction_thresholds(MAX_ST + 1),
        Err(InjuryError::St(MAX_ST + 1))
    );
}

// tft-house-rules-combat.txt, "Reaction to Injuries" and "Knockdown": 5 and 8 at ST under 20.
#[test]
fn reaction_both_sides_of_each_threshold() {
    let cases: &[(i32, i32, bool, bool)] = &[
        (12, 4, false, false),
        (12, 5, true, false),
        (12, 7, true, false),
        (12, 8, true, true),
        (25, 6, false, false),
        (25, 7, true, false),
        (25, 11, true, false),
        (25, 12, true, true),
    ];
    for &(st, hits, dx, down) in cases {
        let r = reaction(st, hits).unwrap();
        assert_eq!(
            (r.minus_two_dx, r.knocked_down),
            (dx, down),
            "ST {st}, {hits} hits"
        );
    }
    assert_eq!(reaction(12, -1), Err(InjuryError::Hits(-1)));
}

// tft-house-rules-combat.txt, "Knockdown": attacker ST 30/50/80.
#[test]
fn strong_attacker_steps() {
    let cases = [
        (29, None),
        (30, Some(3)),
        (49, Some(3)),
        (50, Some(4)),
        (79, Some(4)),
        (80, Some(5)),
        (500, Some(5)),
    ];
    for (st, want) in cases {
        assert_eq!(strong_attacker_dice(st), want, "ST {st}");
    }
}

// tft-house-rules-combat.txt, "Knockdown": damage before armor above ST; 4d past 14, 5d past 18.
#[test]
fn powerful_blow_steps() {
    let cases = [
        (10, 10, None),
        (11, 10, Some(3)),
        (14, 10, Some(3)),
        (15, 10, Some(4)),
        (18, 10, Some(4)),
        (19, 10, Some(5)),
        (22, 10, Some(5)),
        (23, 10, Some(6)),
        (16, 16, None), // more than 14, but not more than ST
        (17, 16, Some(4)),
    ];
    for (dmg, st, want) in cases {
        assert_eq!(powerful_blow_dice(dmg, st), want, "{dmg} vs ST {st}");
    }
}

#[test]
fn automatic_bands_of_n_dice() {
    // /work/shared/rules/README.md: 3 dice 5 / 16; 4 dice 8 / 20; 2 dice 2 / 12.
    assert_eq!(judge(3, 5, 2), (true, true));
    assert_eq!(judge(3, 6, 2), (false, false));
    assert_eq!(judge(3, 15, 20), (true, false));
    assert_eq!(judge(3, 16, 20), (false, true));
    assert_eq!(judge(4, 8, 0), (true, true));
    assert_eq!(judge(4, 19, 25), (true, false));
    assert_eq!(judge(4, 20, 25), (false, true));
    assert_eq!(judge(2, 11, 11), (true, false));
    assert_eq!(judge(2, 12, 14), (false, true));
}

fn struck(st: i32) -> Struck {
    Struck {
        st,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    }
}

#[test]
fn after_blow_strong_attacker_save() {
    // ST 30 attacker, 2 hits: 3d/ST 12; 4+4+4 = 12 stays up, 4+4+5 falls.
    let up = after_blow(
        &mut ScriptedDice::new([4, 4, 4]),
        &struck(12),
        2,
        5,
        Some(30),
        false,
    )
    .unwrap();
    assert!(!up.knocked_down);
    let save = up.save.unwrap();
    assert_eq!(
        save.reasons,
        [KnockdownReason::StrongAttacker { attacker_st: 30 }]
    );
    assert_eq!((save.roll.dice, save.roll.total), (3, 12));
    let down = after_blow(
        &mut ScriptedDice::new([4, 4, 5]),
        &struck(12),
        2,
        5,
        Some(30),
        false,
    )
    .unwrap();
    assert!(down.knocked_down);
    // ST 29: no roll at all (no dice consumed).
    let none = after_blow(
        &mut ScriptedDice::new([]),
        &struck(12),
        2,
        5,
        Some(29),
        false,
    )
    .unwrap();
    assert!(none.save.is_none() && !none.knocked_down);
}

#[test]
fn after_blow_takes_the_most_dice_and_acrobatics() {
    // Attacker ST 50 (4d) and a 20-point blow on ST 12 (5d): one roll of 5 dice.
    let a = after_blow(
        &mut ScriptedDice::new([2, 2, 2, 2, 3]),
        &struck(12),
        4,
        20,
        Some(50),
        false,
    )
    .unwrap();
    let save = a.save.unwrap();
    assert_eq!(save.roll.dice, 5);
    assert_eq!(save.reasons.len(), 2);
    assert!(!a.knocked_down, "11 on 5 dice is an automatic success");
    // Acrobatics: adjDX 14 beats ST 12; a 13 on 3d passes against 14, fails against 12.
    let mut target = struck(12);
    target.acrobatics_adj_dx = Some(14);
    let a = after_blow(
        &mut ScriptedDice::new([4, 4, 5]),
        &target,
        1,
        13,
        None,
        false,
    )
    .unwrap();
    let save = a.save.unwrap();
    assert!(save.used_adj_dx && save.roll.success && !a.knocked_down);
    // An adjDX below ST is not used.
    target.acrobatics_adj_dx = Some(10);
    let a = after_blow(
        &mut ScriptedDice::new([4, 4, 5]),
        &target,
        1,
        13,
        None,
        false,
    )
    .unwrap();
    assert!(!a.save.unwrap().used_adj_dx && a.knocked_down);
}

#[test]
fn after_blow_table_knockdown_needs_no_roll() {
    // 3 earlier hits + 5 now = 8 at ST 12: down by the table, so the ST 30 attacker's roll is moot.
    let mut target = struck(12);
    target.earlier_hits = 3;
    let a = after_blow(&mut ScriptedDice::new([]), &target, 5, 9, Some(30), false).unwrap();
    assert!(a.knocked_down && a.minus_two_dx && a.save.is_none());
    assert_eq!(a.reaction.round_hits, 8);
}

#[test]
fn after_blow_lance_rolls_four_dice() {
    // tft-house-rules.txt, "Lance and Pike Rules": a lance hit calls for 4d/ST.
    let a = after_blow(
        &mut ScriptedDice::new([3, 3, 3, 4]),
        &struck(13),
        3,
        10,
        Some(13),
        true,
    )
    .unwrap();
    let save = a.save.unwrap();
    assert_eq!((save.roll.dice, save.roll.total), (4, 13));
    assert!(!a.knocked_down);
}

// tft-rules-summary.md, "STRENGTH": 0 ST unconscious, below 0 may die.
#[test]
fn hits_applied() {
    let cases = [
        (10, 9, 1, Condition::Conscious),
        (10, 10, 0, Condition::Unconscious),
        (10, 11, -1, Condition::Dying),
    ];
    for (st, hits, left, cond) in cases {
        let h = apply_hits(st, hits).unwrap();
        assert_eq!((h.st_left, h.condition), (left, cond));
    }
    assert!(apply_hits(10, -3).is_err());
}

// tft-house-rules-combat.txt, "Hand-to-Hand Combat": the result table at every edge.
#[test]
fn hth_result_table_edges() {
    let cases = [
        (-3, HthResult::AttackerKnockedBackAndDown),
        (2, HthResult::AttackerKnockedBackAndDown),
        (3, HthResult::AttackerKnockedBack),
        (5, HthResult::AttackerKnockedBack),
        (6, HthResult::DefenderReadiesDagger),
        (8, HthResult::DefenderReadiesDagger),
        (9, HthResult::Initiated),
        (11, HthResult::Initiated),
        (12, HthResult::DefenderStunned),
        (15, HthResult::DefenderStunned),
    ];
    for (total, want) in cases {
        assert_eq!(hth_result(total), want, "{total}");
    }
    assert!(!HthResult::AttackerKnockedBack.initiated());
    assert!(HthResult::DefenderReadiesDagger.initiated());
}

// Same section: each modifier's value, and a roll with several.
#[test]
fn hth_entry_with_modifiers() {
    use HthModifier as M;
    let values = [
        (M::FromCrawling, -2),
        (M::DuringMovement, -2),
        (M::DefenderHigherMa, -1),
        (M::DefenderHigherUc, -1),
        (M::AttackerHigherUc, 1),
        (M::LeapingFromAbove, 1),
        (M::FromSide, 1),
        (M::DefenderAgainstWall, 1),
        (M::FromRear, 2),
    ];
    for (m, v) in values {
        assert_eq!(m.value(), v, "{m:?}");
    }
    // 5 + 4 = 9, from the rear (+2) during movement (-2), defender faster (-1): 8.
    let e = hth_entry(
        &mut ScriptedDice::new([5, 4]),
        &[M::FromRear, M::DuringMovement, M::DefenderHigherMa],
    )
    .unwrap();
    assert_eq!(
        (e.roll, e.total, e.result),
        (9, 8, HthResult::DefenderReadiesDagger)
    );
    assert!(matches!(
        hth_entry(&mut ScriptedDice::new([]), &[M::FromSide, M::FromSide]),
        Err(InjuryError::HthModifierClash(_))
    ));
    assert!(matches!(
        hth_entry(&mut ScriptedDice::new([]), &[M::FromRear, M::FromSide]),
        Err(InjuryError::HthModifierClash(_))
    ));
    assert!(matches!(
        hth_entry(
            &mut ScriptedDice::new([]),
            &[M::AttackerHigherUc, M::DefenderHigherUc]
        ),
        Err(InjuryError::HthModifierClash(_))
    ));
    assert!(may_strike_at_once(true, true));
    assert!(!may_strike_at_once(false, true));
    assert!(!may_strike_at_once(true, false));
}

// Same section: leaving HTH is 4d/adjDX; tft-rules-summary.md: drawing a dagger is 3d/DX.
#[test]
fn leaving_hth_and_drawing_a_dagger() {
    let r = leave_hth(&mut ScriptedDice::new([3, 3, 3, 3]), 12);
    assert!(r.success && r.dice == 4);
    let r = leave_hth(&mut ScriptedDice::new([3, 3, 3, 4]), 12);
    assert!(!r.success);
    assert!(draw_dagger(&mut ScriptedDice::new([4, 4, 3]), 11).success);
    assert!(!draw_dagger(&mut ScriptedDice::new([4, 4, 4]), 11).success);
}

// tft-house-rules-combat.txt, "Fleeing".
#[test]
fn fleeing_gives_free_attacks() {
    assert_eq!(
        fleeing(3),
        Ok(FreeAttacks {
            attacks: 3,
            dx_bonus: 4
        })
    );
    assert_eq!(fleeing(6).unwrap().attacks, 6);
    assert_eq!(fleeing(7), Err(InjuryError::Neighbours(7)));
}

// tft-rules-summary.md, "OTHER ATTACKS": each area at both sides of each step.
#[test]
fn called_shot_steps() {
    use CalledArea as A;
    use CalledEffect as E;
    let cases = [
        (A::Head, 2, E::None),
        (A::Head, 3, E::KnockedOut),
        (A::WeaponHand, 2, E::None),
        (A::WeaponHand, 3, E::DropsWeapon),
        (A::WeaponHand, 5, E::DropsWeapon),
        (A::WeaponHand, 6, E::HandUselessUntilTreated),
        (A::WeaponHand, 7, E::HandUselessUntilTreated),
        (A::WeaponHand, 8, E::HandDisabled),
        (A::ShieldArm, 2, E::None),
        (A::ShieldArm, 3, E::LosesShield),
        (A::ShieldArm, 5, E::LosesShield),
        (A::ShieldArm, 6, E::ArmUselessUntilHealed),
        (A::ShieldArm, 7, E::ArmUselessUntilHealed),
        (A::ShieldArm, 8, E::ArmDisabled),
        (A::Leg, 2, E::None),
        (A::Leg, 3, E::Kneels),
        (A::Leg, 4, E::Kneels),
        (A::Leg, 5, E::LegUseless),
        (A::Wing, 3, E::None),
        (A::Wing, 4, E::Grounded),
        (A::Wing, 7, E::Grounded),
        (A::Wing, 8, E::WingUseless),
    ];
    for (area, hits, want) in cases {
        assert_eq!(called_shot_effect(area, hits), want, "{area:?} {hits}");
    }
    let adjust = [
        (A::Head, -6),
        (A::WeaponHand, -4),
        (A::ShieldArm, -6),
        (A::Leg, -4),
        (A::Wing, -4),
    ];
    for (area, dx) in adjust {
        assert_eq!(area.dx_adjust(), dx);
    }
}

// tft-house-rules.txt, "Death and Dying": original ST modifier at each edge.
#[test]
fn dying_original_st_edges() {
    let cases = [
        (1, -1),
        (8, -1),
        (9, 0),
        (11, 0),
        (12, 1),
        (14, 1),
        (15, 2),
        (40, 2),
    ];
    for (st, m) in cases {
        assert_eq!(original_st_modifier(st), Ok(m), "ST {st}");
    }
    assert!(original_st_modifier(0).is_err());
}

fn rolled(outcome: DyingOutcome) -> DyingRoll {
    match outcome {
        DyingOutcome::Rolled(r) => r,
        DyingOutcome::DiesUnaided => panic!("expected a roll"),
    }
}

#[test]
fn dying_roll_at_zero_st_unaided() {
    // ST 10 originally (0), at 0 ST, no help: 8 lives, 7 dies.
    let who = Dying {
        st_left: 0,
        original_st: 10,
        ..Dying::default()
    };
    assert!(rolled(roll_dying(&mut ScriptedDice::new([4, 4]), &who).unwrap()).survived);
    assert!(!rolled(roll_dying(&mut ScriptedDice::new([3, 4]), &who).unwrap()).survived);
}

#[test]
fn dying_below_zero_needs_help() {
    let alone = Dying {
        st_left: -1,
        original_st: 10,
        ..Dying::default()
    };
    assert_eq!(
        roll_dying(&mut ScriptedDice::new([]), &alone),
        Ok(DyingOutcome::DiesUnaided)
    );
    assert_eq!(
        roll_dying(
            &mut ScriptedDice::new([]),
            &Dying {
                st_left: 1,
                ..alone
            }
        ),
        Err(InjuryError::NotDying(1))
    );
}

#[test]
fn dying_all_modifiers() {
    // -3 ST, master physicker (+3), second physicker (+1), 5 potions (+2 for 4),
    // 2 minutes unhelped (-2), original ST 15 (+2): net +3.
    let who = Dying {
        st_left: -3,
        original_st: 15,
        helper: Some(Helper::MasterPhysicker),
        second_helper: Some(Helper::Physicker),
        healing_potions: 5,
        minutes_unhelped: 2,
    };
    let r = rolled(roll_dying(&mut ScriptedDice::new([2, 3]), &who).unwrap());
    assert_eq!(r.total, 5 + 3);
    assert!(r.survived);
    let r = rolled(roll_dying(&mut ScriptedDice::new([1, 3]), &who).unwrap());
    assert_eq!(r.total, 7);
    assert!(!r.survived);
    assert_eq!(r.modifiers.len(), 6);
    // 3 potions count as +1; 4 as +2; helpers' bonuses.
    assert_eq!(Helper::FirstAid.first_bonus(), 1);
    assert_eq!(Helper::Physicker.first_bonus(), 2);
    assert_eq!(Helper::MasterPhysicker.second_bonus(), 2);
    assert_eq!(Helper::FirstAid.second_bonus(), 0);
    let three = Dying {
        healing_potions: 3,
        ..who
    };
    let r = rolled(roll_dying(&mut ScriptedDice::new([1, 3]), &three).unwrap());
    assert!(r.modifiers.contains(&(DyingModifier::HealingPotions, 1)));
}

#[test]
fn dying_natural_two_always_dies() {
    // +12 in modifiers still dies on a 2, lives on a 3.
    let who = Dying {
        st_left: 0,
        original_st: 15,
        helper: Some(Helper::MasterPhysicker),
        second_helper: Some(Helper::MasterPhysicker),
        healing_potions: 4,
        minutes_unhelped: 0,
    };
    let r = rolled(roll_dying(&mut ScriptedDice::new([1, 1]), &who).unwrap());
    assert!(r.total >= TO_LIVE && !r.survived);
    assert!(rolled(roll_dying(&mut ScriptedDice::new([1, 2]), &who).unwrap()).survived);
}

// tft-house-rules.txt, "Death and Dying": -5 DX dropping by one a week over 5 weeks.
#[test]
fn recovery_weeks() {
    let penalties: Vec<i32> = (0..=6).map(dx_penalty_after_weeks).collect();
    assert_eq!(penalties, [-5, -4, -3, -2, -1, 0, 0]);
    assert_eq!(RECOVERY_WEEKS, 5);
}
