use super::*;
use crate::rules::dice::ScriptedDice;
use crate::rules::tft::gear::{self, FineGrade, GearError};
use crate::rules::tft::injury::{Condition, KnockdownReason};

fn w(name: &str) -> &'static Weapon {
    gear::weapon(name).unwrap()
}

fn with(name: &str, quality: Quality, charge: Charge) -> Striker {
    Striker::Weapon {
        weapon: w(name),
        quality,
        charge,
    }
}

fn blow(striker: Striker, multiplier: Multiplier) -> Blow {
    Blow {
        striker,
        multiplier,
        attacker_st: 16,
        precise: Precise::None,
        dagger_marksmanship: false,
        halfling: false,
    }
}

fn armored(armor: ArmorKind) -> Defence {
    Defence {
        armor: Some(armor),
        ..Defence::default()
    }
}

fn counted(roll: &DamageRoll, source: StopSource) -> (i32, StopRule) {
    let stop = roll.stops.iter().find(|s| s.source == source).unwrap();
    (stop.counted, stop.rule)
}

// tft-rules-summary.md, "ST DAMAGE": every row at both edges.
#[test]
fn st_damage_table_edges() {
    let cases: &[(i32, &str)] = &[
        (1, "1d-4"),
        (8, "1d-4"),
        (9, "1d-3"),
        (10, "1d-3"),
        (11, "1d-2"),
        (12, "1d-2"),
        (13, "1d-1"),
        (14, "1d-1"),
        (15, "1d"),
        (16, "1d"),
        (17, "1d+1"),
        (20, "1d+1"),
        (21, "1d+2"),
        (24, "1d+2"),
        (25, "1d+3"),
        (30, "1d+3"),
        (31, "2d"),
        (40, "2d"),
        (41, "2d+1"),
        (50, "2d+1"),
        (51, "2d+1"),
        (MAX_ST, "2d+1"),
    ];
    for &(st, dmg) in cases {
        assert_eq!(st_damage(st).to_string(), dmg, "ST {st}");
    }
    assert!(ST_DAMAGE.windows(2).all(|p| p[0].0 < p[1].0));
}

// tft-house-rules-combat.txt, "Pole Weapons": "a halberd does 3d+1 in a charge".
#[test]
fn halberd_does_3d_plus_1_in_a_charge() {
    for charge in [Charge::Charging, Charge::Receiving, Charge::ReceivingRider] {
        let (d, doubles) = striker_dice(&with("halberd", Quality::Plain, charge), 13).unwrap();
        assert_eq!(
            (d.to_string(), doubles),
            ("3d+1".into(), false),
            "{charge:?}"
        );
    }
    let (d, _) = striker_dice(&with("halberd", Quality::Plain, Charge::None), 13).unwrap();
    assert_eq!(d.to_string(), "2d");
    // Rolled: 3 + 4 + 5 + 1 = 13 against no armor.
    let b = blow(
        with("halberd", Quality::Plain, Charge::Charging),
        Multiplier::Normal,
    );
    let r = roll_damage(
        &mut ScriptedDice::new([3, 4, 5]),
        &b,
        &Defence::default(),
        true,
    )
    .unwrap();
    assert_eq!((r.roll, r.hits), (13, 13));
}

// Same section: a fine pole weapon's extra damage is not added in a charge.
#[test]
fn fine_pole_bonus_not_in_a_charge() {
    let fine = Quality::Fine(FineGrade::Damage2);
    let (d, _) = striker_dice(&with("halberd", fine, Charge::Charging), 13).unwrap();
    assert_eq!(d.to_string(), "3d+1");
    let (d, _) = striker_dice(&with("halberd", fine, Charge::None), 13).unwrap();
    assert_eq!(d.to_string(), "2d+2");
    // A sword gains nothing from a charge, and keeps its fine bonus.
    let (d, _) = striker_dice(&with("broadsword", fine, Charge::Charging), 13).unwrap();
    assert_eq!(d.to_string(), "2d+2");
    let (d, _) = striker_dice(&with("spear", Quality::Plain, Charge::Receiving), 13).unwrap();
    assert_eq!(d.to_string(), "2d+1");
}

// tft-house-rules.txt, "Lance and Pike Rules".
#[test]
fn lance_and_pike_damages() {
    let cases: &[(&str, Charge, &str, bool)] = &[
        ("lance", Charge::None, "2d-2", false),
        ("lance", Charge::Charging, "2d", true),
        ("lance", Charge::ChargingOffCentre, "2d", false),
        ("pike", Charge::None, "1d+1", false),
        ("pike", Charge::Receiving, "2d+2", false),
        ("pike", Charge::ReceivingRider, "1d+3", true),
    ];
    for &(name, charge, dmg, doubles) in cases {
        let (d, dbl) = striker_dice(&with(name, Quality::Plain, charge), 13).unwrap();
        assert_eq!(
            (d.to_string().as_str(), dbl),
            (dmg, doubles),
            "{name} {charge:?}"
        );
    }
    for charge in [Charge::Charging, Charge::ChargingOffCentre] {
        assert_eq!(
            striker_dice(&with("pike", Quality::Plain, charge), 13),
            Err(DamageError::PikeCannotCharge)
        );
    }
    // The lance's doubling is the house kind: chainmail is ignored, 2d is not multiplied.
    let b = blow(
        with("lance", Quality::Plain, Charge::Charging),
        Multiplier::Normal,
    );
    let r = roll_damage(
        &mut ScriptedDice::new([4, 3]),
        &b,
        &armored(ArmorKind::Chainmail),
        true,
    )
    .unwrap();
    assert_eq!(
        (r.multiplier, r.before_armor, r.hits),
        (Multiplier::Double, 7, 7)
    );
    let r = roll_damage(
        &mut ScriptedDice::new([4, 3]),
        &b,
        &armored(ArmorKind::Chainmail),
        false,
    )
    .unwrap();
    assert_eq!((r.before_armor, r.hits), (14, 11));
}

#[test]
fn weapon_requirements() {
    // tft-rules-summary.md, "WEAPONS": Great Sword needs ST 16.
    assert!(striker_dice(&with("great sword", Quality::Plain, Charge::None), 16).is_ok());
    assert_eq!(
        striker_dice(&with("great sword", Quality::Plain, Charge::None), 15),
        Err(DamageError::TooWeak {
            weapon: "Great Sword",
            needs: 16,
            st: 15
        })
    );
    assert_eq!(
        striker_dice(&with("bola", Quality::Plain, Charge::None), 16),
        Err(DamageError::NoDice("Bola"))
    );
    assert!(matches!(
        striker_dice(
            &with("mace", Quality::Fine(FineGrade::Damage1), Charge::None),
            16
        ),
        Err(DamageError::Gear(GearError::NoFineDamage { .. }))
    ));
    assert_eq!(
        striker_dice(&Striker::BareHands, 12).unwrap().0.to_string(),
        "1d-2"
    );
    let b = Blow {
        attacker_st: 0,
        ..blow(Striker::BareHands, Multiplier::Normal)
    };
    assert_eq!(
        roll_damage(&mut ScriptedDice::new([]), &b, &Defence::default(), true),
        Err(DamageError::St(0))
    );
}

// tft-rules-summary.md, "ARMOR AND SHIELDS": armor and shield stop hits.
#[test]
fn normal_blow_stops() {
    let b = blow(
        with("broadsword", Quality::Plain, Charge::None),
        Multiplier::Normal,
    );
    let defence = Defence {
        shield: Some(ShieldKind::Large),
        toughness: Toughness::Warrior,
        ..armored(ArmorKind::Chainmail)
    };
    let r = roll_damage(&mut ScriptedDice::new([6, 5]), &b, &defence, true).unwrap();
    assert_eq!(
        (r.faces.clone(), r.roll, r.before_armor, r.stopped, r.hits),
        (vec![6, 5], 11, 11, 6, 5)
    );
    assert_eq!(r.stops.len(), 3);
    // A weak blow never heals: 2 - 6 is 0 hits.
    let r = roll_damage(&mut ScriptedDice::new([1, 1]), &b, &defence, true).unwrap();
    assert_eq!(r.hits, 0);
    // A negative roll counts as 0 before armor.
    let rock = blow(
        with("thrown rock", Quality::Plain, Charge::None),
        Multiplier::Normal,
    );
    let r = roll_damage(
        &mut ScriptedDice::new([2]),
        &rock,
        &Defence::default(),
        true,
    )
    .unwrap();
    assert_eq!((r.roll, r.hits), (0, 0));
}

/// (multiplier, house rules, faces, dice rolled, before armor, stopped, hits)
type MultiplierCase = (
    Multiplier,
    bool,
    &'static [u32],
    &'static str,
    i32,
    i32,
    i32,
);

// tft-house-rules-combat.txt, "Double or Triple Damage", against the plain fallback
// (/work/shared/rules/README.md).
#[test]
fn double_and_triple_house_and_plain() {
    let defence = Defence {
        shield: Some(ShieldKind::Large),
        toughness: Toughness::Warrior,
        ..armored(ArmorKind::Chainmail)
    };
    let sword = with("broadsword", Quality::Plain, Charge::None);
    // (multiplier, house, faces, dice rolled, before armor, stopped, hits)
    let cases: &[MultiplierCase] = &[
        (Multiplier::Double, true, &[4, 5], "2d", 9, 1, 8),
        (Multiplier::Triple, true, &[4, 5, 6], "3d", 15, 1, 14),
        (Multiplier::Double, false, &[4, 5], "2d", 18, 6, 12),
        (Multiplier::Triple, false, &[4, 5], "2d", 27, 6, 21),
    ];
    for &(m, house, faces, dice, before, stopped, hits) in cases {
        let r = roll_damage(
            &mut ScriptedDice::new(faces.iter().copied()),
            &blow(sword, m),
            &defence,
            house,
        )
        .unwrap();
        assert_eq!(
            (
                r.dice.to_string().as_str(),
                r.before_armor,
                r.stopped,
                r.hits
            ),
            (dice, before, stopped, hits),
            "{m:?} house {house}"
        );
    }
    let r = roll_damage(
        &mut ScriptedDice::new([4, 5]),
        &blow(sword, Multiplier::Double),
        &defence,
        true,
    )
    .unwrap();
    assert_eq!(
        counted(&r, StopSource::Armor(ArmorKind::Chainmail)),
        (0, StopRule::IgnoredByMultiplier)
    );
    assert_eq!(
        counted(&r, StopSource::Shield(ShieldKind::Large)),
        (0, StopRule::IgnoredByMultiplier)
    );
    assert_eq!(
        counted(&r, StopSource::Toughness(Toughness::Warrior)),
        (1, StopRule::Full)
    );
}

// Same section: natural armor and Stone/Iron Flesh stop half, rounded down.
#[test]
fn natural_armor_halved() {
    let claw = Striker::Dice(Dice::new(2, 0));
    for (natural, halved) in [(3, 1), (4, 2), (5, 2), (6, 3)] {
        let defence = Defence {
            natural,
            ..Defence::default()
        };
        let r = roll_damage(
            &mut ScriptedDice::new([5, 5]),
            &blow(claw, Multiplier::Double),
            &defence,
            true,
        )
        .unwrap();
        assert_eq!(
            (r.stopped, r.hits),
            (halved, 10 - halved),
            "natural {natural}"
        );
        let r = roll_damage(
            &mut ScriptedDice::new([5, 5]),
            &blow(claw, Multiplier::Normal),
            &defence,
            true,
        )
        .unwrap();
        assert_eq!(r.stopped, natural);
    }
    let bad = Defence {
        natural: -1,
        ..Defence::default()
    };
    assert_eq!(
        roll_damage(
            &mut ScriptedDice::new([]),
            &blow(claw, Multiplier::Normal),
            &bad,
            true
        ),
        Err(DamageError::Natural(-1))
    );
}

// Same section: 1s rolled again against a foe with nothing but Warrior or Veteran.
#[test]
fn reroll_ones_against_the_unarmored() {
    let sword = with("broadsword", Quality::Plain, Charge::None);
    let veteran = Defence {
        toughness: Toughness::Veteran,
        ..Defence::default()
    };
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5, 3]),
        &blow(sword, Multiplier::Double),
        &veteran,
        true,
    )
    .unwrap();
    assert_eq!(r.faces, [3, 5]);
    assert_eq!(
        r.rerolls,
        [Reroll {
            index: 0,
            was: 1,
            now: 3
        }]
    );
    assert_eq!(r.hits, 8 - 2);
    // The new face stands even if it is another 1.
    let r = roll_damage(
        &mut ScriptedDice::new([1, 1, 2, 1, 2]),
        &blow(sword, Multiplier::Triple),
        &Defence::default(),
        true,
    )
    .unwrap();
    assert_eq!((r.faces.clone(), r.rerolls.len()), (vec![1, 2, 2], 2));
    // No reroll: armor, a normal blow, or plain rules (each script holds exactly the faces
    // expected, so a reroll would run it dry and panic).
    let cloth = armored(ArmorKind::Cloth);
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5]),
        &blow(sword, Multiplier::Double),
        &cloth,
        true,
    )
    .unwrap();
    assert!(r.rerolls.is_empty());
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5]),
        &blow(sword, Multiplier::Normal),
        &veteran,
        true,
    )
    .unwrap();
    assert!(r.rerolls.is_empty());
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5]),
        &blow(sword, Multiplier::Double),
        &veteran,
        false,
    )
    .unwrap();
    assert!(r.rerolls.is_empty());
    // A pack is armor only against a blow from behind.
    let pack = Defence {
        pack_on_back: true,
        ..Defence::default()
    };
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5, 4]),
        &blow(sword, Multiplier::Double),
        &pack,
        true,
    )
    .unwrap();
    assert_eq!(r.rerolls.len(), 1);
    let behind = Defence {
        direction: Direction::Rear,
        ..pack
    };
    let r = roll_damage(
        &mut ScriptedDice::new([1, 5]),
        &blow(sword, Multiplier::Double),
        &behind,
        true,
    )
    .unwrap();
    assert!(r.rerolls.is_empty());
}

// tft-rules-summary.md, "ARMOR AND SHIELDS" (pack from the rear only); shields face forward.
#[test]
fn direction_of_the_blow() {
    let sword = blow(
        with("broadsword", Quality::Plain, Charge::None),
        Multiplier::Normal,
    );
    let defence = Defence {
        shield: Some(ShieldKind::Small),
        pack_on_back: true,
        parry: Parry::Shield,
        ..armored(ArmorKind::Leather)
    };
    let cases = [
        (Direction::Front, 2 + 1 + 2),
        (Direction::Side, 2 + 1 + 2),
        (Direction::Rear, 2 + 1),
    ];
    for (direction, stopped) in cases {
        let d = Defence {
            direction,
            ..defence
        };
        let r = roll_damage(&mut ScriptedDice::new([6, 6]), &sword, &d, true).unwrap();
        assert_eq!(r.stopped, stopped, "{direction:?}");
    }
}

// tft-house-rules.txt, "Repairing Armor": worn armor stops fewer.
#[test]
fn worn_armor_stops_fewer() {
    let sword = blow(
        with("broadsword", Quality::Plain, Charge::None),
        Multiplier::Normal,
    );
    for (wear, stops) in [(Wear::Sound, 3), (Wear::Worn, 2), (Wear::Battered, 1)] {
        let d = Defence {
            armor_wear: wear,
            ..armored(ArmorKind::Chainmail)
        };
        let r = roll_damage(&mut ScriptedDice::new([6, 6]), &sword, &d, true).unwrap();
        assert_eq!(r.hits, 12 - stops, "{wear:?}");
    }
}

// tft-house-rules-combat.txt, "Parrying" and "Shield Wall".
#[test]
fn parry_and_wall_stops() {
    let sword = blow(
        with("broadsword", Quality::Plain, Charge::None),
        Multiplier::Normal,
    );
    let cases = [
        (Parry::None, 0),
        (Parry::MainGauche, 1),
        (Parry::SecondWeapon, 2),
        (Parry::Full, 4),
    ];
    for (parry, stops) in cases {
        let d = Defence {
            parry,
            ..Defence::default()
        };
        let r = roll_damage(&mut ScriptedDice::new([6, 6]), &sword, &d, true).unwrap();
        assert_eq!(r.stopped, stops, "{parry:?}");
    }
    // Only the main-gauche's parry is tft-rules-summary.md's; the rest are the house rules'.
    for (parry, house) in [
        (Parry::None, false),
        (Parry::MainGauche, false),
        (Parry::SecondWeapon, true),
        (Parry::Shield, true),
        (Parry::Full, true),
    ] {
        assert_eq!(parry.is_house_rule(), house, "{parry:?}");
    }
    let no_shield = Defence {
        parry: Parry::Shield,
        ..Defence::default()
    };
    assert_eq!(
        roll_damage(&mut ScriptedDice::new([]), &sword, &no_shield, true),
        Err(DamageError::NeedsShield)
    );
    // Ends of the wall stop 1 more, the middle 2 more.
    for (neighbours, stops) in [(1, 2 + 1), (2, 2 + 2)] {
        let d = Defence {
            shield: Some(ShieldKind::Large),
            shield_wall_neighbours: neighbours,
            ..Defence::default()
        };
        let r = roll_damage(&mut ScriptedDice::new([6, 6]), &sword, &d, true).unwrap();
        assert_eq!(r.stopped, stops);
    }
    let d = Defence {
        shield: Some(ShieldKind::Large),
        shield_wall_neighbours: 7,
        ..Defence::default()
    };
    assert_eq!(
        roll_damage(&mut ScriptedDice::new([]), &sword, &d, true),
        Err(DamageError::Neighbours(7))
    );
}

// tft-rules-summary.md, "PRECISE ATTACKS"; tft-house-rules-combat.txt, "Dagger Marksmanship".
#[test]
fn precise_throws_and_dagger_marksmanship() {
    let dagger = with("dagger", Quality::Plain, Charge::None);
    let defence = Defence {
        shield: Some(ShieldKind::Small),
        toughness: Toughness::Warrior,
        ..armored(ArmorKind::Leather)
    };
    let head = Blow {
        precise: Precise::Head,
        ..blow(dagger, Multiplier::Normal)
    };
    // Plain rules: doubled, no armor defense at all. 1d-1 on a 5 = 4, x2 = 8.
    let r = roll_damage(&mut ScriptedDice::new([5]), &head, &defence, false).unwrap();
    assert_eq!((r.factor, r.before_armor, r.stopped, r.hits), (2, 8, 0, 8));
    // House rules without the talent: double damage the house way (no x2).
    let r = roll_damage(&mut ScriptedDice::new([5]), &head, &defence, true).unwrap();
    assert_eq!((r.multiplier, r.factor, r.hits), (Multiplier::Double, 1, 4));
    // With Dagger Marksmanship the doubling is real; a halfling's point comes after: 4x2+1.
    let marks = Blow {
        dagger_marksmanship: true,
        halfling: true,
        ..head
    };
    let r = roll_damage(&mut ScriptedDice::new([5]), &marks, &defence, true).unwrap();
    assert_eq!(
        (r.factor, r.added_after, r.before_armor, r.hits),
        (2, 1, 9, 9)
    );
    // Hand: the shield and armor lighter than chain do not count; chain does.
    let hand = Blow {
        precise: Precise::Hand,
        ..blow(dagger, Multiplier::Normal)
    };
    let r = roll_damage(&mut ScriptedDice::new([6]), &hand, &defence, true).unwrap();
    assert_eq!((r.stopped, r.hits), (1, 4)); // Warrior only
    let chain = Defence {
        armor: Some(ArmorKind::Chainmail),
        ..defence
    };
    let r = roll_damage(&mut ScriptedDice::new([6]), &hand, &chain, true).unwrap();
    assert_eq!((r.stopped, r.hits), (4, 1));
    // tft-rules-summary.md, "PRECISE ATTACKS": only the thrown rows change the damage side.
    let cases = [
        (PreciseTarget::ThrownHead, Precise::Head),
        (PreciseTarget::ThrownHand, Precise::Hand),
        (PreciseTarget::Head, Precise::None),
        (PreciseTarget::WeaponHand, Precise::None),
        (PreciseTarget::Leg, Precise::None),
    ];
    for (target, want) in cases {
        assert_eq!(Precise::of(target), want, "{target:?}");
    }
}

#[test]
fn toughness_comes_from_the_best_talent() {
    // tft-house-rules-combat.txt, "Double or Triple Damage" (Warrior and Veteran);
    // tft-rules-summary.md, "ARMOR DEFENSE" (Toughness): Veteran 2, Warrior or Toughness 1.
    use crate::rules::tft::character::Talent as T;
    let cases: [(&[T], Toughness, i32); 6] = [
        (&[], Toughness::None, 0),
        (&[T::Sword], Toughness::None, 0),
        (&[T::Warrior], Toughness::Warrior, 1),
        (&[T::Toughness], Toughness::Warrior, 1),
        (&[T::Veteran], Toughness::Veteran, 2),
        (
            &[T::Warrior, T::Veteran, T::Toughness],
            Toughness::Veteran,
            2,
        ),
    ];
    for (talents, want, stops) in cases {
        assert_eq!(Toughness::of_talents(talents), want, "{talents:?}");
        assert_eq!(want.stops(), stops);
    }
}

// tft-house-rules.txt, "Wall of Fire": 4 + 2 against chainmail stops 3; 4 + 6 lets 7 through.
#[test]
fn wall_of_fire_and_chainmail() {
    let chain = gear::armor("chainmail").unwrap().stops;
    assert_eq!(
        pooled_hits(&[4, 2], chain),
        PooledHits {
            total: 6,
            stopped: 3,
            hits: 3
        }
    );
    assert_eq!(
        pooled_hits(&[4, 6], chain),
        PooledHits {
            total: 10,
            stopped: 3,
            hits: 7
        }
    );
    // Armor cannot stop more than was done.
    assert_eq!(
        pooled_hits(&[2], chain),
        PooledHits {
            total: 2,
            stopped: 2,
            hits: 0
        }
    );
}

#[test]
fn resolve_damage_big_hit() {
    // Battle axe (3d) by an ST 30 attacker: 6+6+5 = 17 - 3 (chainmail) = 14 on ST 12.
    let b = Blow {
        attacker_st: 30,
        ..blow(
            with("battle axe", Quality::Plain, Charge::None),
            Multiplier::Normal,
        )
    };
    let target = Target {
        defence: armored(ArmorKind::Chainmail),
        st: 12,
        st_left: 12,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    };
    let res = resolve_damage(&mut ScriptedDice::new([6, 6, 5]), &b, &target, true).unwrap();
    assert_eq!(res.damage.hits, 14);
    assert_eq!(
        (res.applied.st_left, res.applied.condition),
        (-2, Condition::Dying)
    );
    // Down by the reaction table: no save rolled.
    assert!(res.after.knocked_down && res.after.minus_two_dx && res.after.save.is_none());
}

#[test]
fn resolve_damage_strong_attacker_save() {
    // 2+2+2 = 6 - 3 = 3 hits; attacker ST 30 → 3d/ST 12: 4+4+5 = 13 fails.
    let b = Blow {
        attacker_st: 30,
        ..blow(
            with("battle axe", Quality::Plain, Charge::None),
            Multiplier::Normal,
        )
    };
    let target = Target {
        defence: armored(ArmorKind::Chainmail),
        st: 12,
        st_left: 12,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    };
    let res = resolve_damage(
        &mut ScriptedDice::new([2, 2, 2, 4, 4, 5]),
        &b,
        &target,
        true,
    )
    .unwrap();
    assert_eq!((res.damage.hits, res.applied.st_left), (3, 9));
    let save = res.after.save.clone().unwrap();
    assert_eq!(
        save.reasons,
        [KnockdownReason::StrongAttacker { attacker_st: 30 }]
    );
    assert!(res.after.knocked_down && !res.after.minus_two_dx);
    // Dice from a spell carry no attacker ST: no save.
    let spell = Blow {
        striker: Striker::Dice(Dice::new(3, 0)),
        ..b
    };
    let res = resolve_damage(&mut ScriptedDice::new([2, 2, 2]), &spell, &target, true).unwrap();
    assert!(res.after.save.is_none() && !res.after.knocked_down);
}

#[test]
fn resolve_damage_lance_charge() {
    // Lance charge: 2d doubled (house: ignores armor) 3+4 = 7; then the 4d/ST save: 13 vs 13.
    let b = Blow {
        attacker_st: 13,
        ..blow(
            with("lance", Quality::Plain, Charge::Charging),
            Multiplier::Normal,
        )
    };
    let target = Target {
        defence: armored(ArmorKind::Chainmail),
        st: 13,
        st_left: 13,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    };
    let res = resolve_damage(
        &mut ScriptedDice::new([3, 4, 3, 3, 3, 4]),
        &b,
        &target,
        true,
    )
    .unwrap();
    assert_eq!(res.damage.hits, 7);
    let save = res.after.save.clone().unwrap();
    assert_eq!(
        (save.roll.dice, save.reasons),
        (4, vec![KnockdownReason::Lance])
    );
    assert!(!res.after.knocked_down && res.after.minus_two_dx);
}

// tft-house-rules-combat.txt, "Parrying": DX penalties for attacking while parrying.
#[test]
fn parry_attack_penalties() {
    use AttackAllowed::{At, NoAttack};
    let s = Some(ShieldKind::Small);
    let l = Some(ShieldKind::Large);
    let t = Some(ShieldKind::Tower);
    let cases = [
        (Parry::None, None, false, false, At(0)),
        (Parry::MainGauche, None, false, false, At(-1)),
        (Parry::SecondWeapon, None, false, false, At(-4)),
        (Parry::SecondWeapon, None, true, false, At(0)),
        (Parry::Shield, s, false, false, At(-3)),
        (Parry::Shield, s, false, true, At(-2)),
        (Parry::Shield, Some(ShieldKind::Spike), false, false, At(-3)),
        (Parry::Shield, l, false, false, At(-4)),
        (Parry::Shield, l, false, true, At(-3)),
        (Parry::Shield, t, false, true, NoAttack),
        (Parry::Full, l, true, true, NoAttack),
    ];
    for (parry, shield, tw, adv, want) in cases {
        assert_eq!(
            parry_attack(parry, shield, tw, adv),
            Ok(want),
            "{parry:?} {shield:?} {tw} {adv}"
        );
    }
    assert_eq!(
        parry_attack(Parry::Shield, None, false, false),
        Err(DamageError::NeedsShield)
    );
}

// tft-house-rules-combat.txt, "Defending".
#[test]
fn defend_attack_penalties() {
    use AttackAllowed::{At, NoAttack};
    let cases = [
        (DefendWith::Weapon, false, false, NoAttack),
        (DefendWith::Weapon, true, false, At(-2)),
        (
            DefendWith::Shield(ShieldKind::Small),
            false,
            false,
            NoAttack,
        ),
        (DefendWith::Shield(ShieldKind::Small), false, true, At(-2)),
        (DefendWith::Shield(ShieldKind::Large), false, true, At(-3)),
        (DefendWith::Shield(ShieldKind::Tower), true, true, NoAttack),
    ];
    for (with, tw, adv, want) in cases {
        assert_eq!(defend_attack(with, tw, adv), want, "{with:?} {tw} {adv}");
    }
}

// tft-house-rules-combat.txt, "Shield Bash": dice by ST at each boundary; "Shield Wall".
#[test]
fn bash_dice_boundaries() {
    let cases = [
        (12, 13, 2),
        (12, 12, 3),
        (12, 8, 3),
        (12, 7, 4),
        (12, 6, 5),
        (20, 16, 3),
        (20, 15, 4),
        (20, 11, 4),
        (20, 10, 5),
        (8, 4, 5), // half and 4 weaker at once: half wins
    ];
    for (a, f, n) in cases {
        assert_eq!(bash_dice(a, f), n, "attacker {a} foe {f}");
    }
    assert_eq!(shield_wall_stops(1), Ok(1));
    assert_eq!(shield_wall_stops(2), Ok(2));
    assert_eq!(shield_wall_stops(7), Err(DamageError::Neighbours(7)));
}

// Same sections: Advanced Shield +3; rush +3, or +5 with the talent; the three results.
#[test]
fn shield_bash_and_rush() {
    // Attacker 12 vs foe 12: 3d. With Advanced Shield (15): still 3d. Rush with it (17): 4d.
    let r = shield_bash(&mut ScriptedDice::new([4, 4, 3]), 12, 12, 12, false, false).unwrap();
    assert_eq!(
        (r.effective_st, r.roll.dice, r.result),
        (12, 3, BashResult::Stands)
    );
    let r = shield_bash(&mut ScriptedDice::new([4, 4, 4]), 12, 12, 12, true, false).unwrap();
    assert_eq!(
        (r.effective_st, r.roll.dice, r.result),
        (15, 3, BashResult::Shaken)
    );
    let r = shield_bash(&mut ScriptedDice::new([4, 4, 4, 1]), 12, 12, 12, true, true).unwrap();
    assert_eq!(
        (r.effective_st, r.roll.dice, r.result),
        (17, 4, BashResult::KnockedDown)
    );
    let r = shield_bash(&mut ScriptedDice::new([4, 4, 4]), 12, 12, 12, false, true).unwrap();
    assert_eq!(r.effective_st, 15);
    // Foe stronger: 2d.
    let r = shield_bash(&mut ScriptedDice::new([6, 5]), 12, 13, 11, false, false).unwrap();
    assert_eq!((r.roll.dice, r.result), (2, BashResult::Shaken));
    assert!(shield_bash(&mut ScriptedDice::new([]), 0, 12, 12, false, false).is_err());
}

// tft-house-rules.txt, "Lance and Pike Rules": 3d against the lower of ST and adjDX.
#[test]
fn keeping_the_lance() {
    let r = keep_lance(&mut ScriptedDice::new([4, 4, 3]), 14, 11);
    assert_eq!((r.against, r.success), (11, true));
    let r = keep_lance(&mut ScriptedDice::new([4, 4, 4]), 11, 14);
    assert_eq!((r.against, r.success), (11, false));
}

// tft-house-rules-combat.txt, "Knockdown": the strong-attacker and powerful-blow saves are house
// rules; with the house rules off neither is rolled, on either side of their thresholds.
#[test]
fn knockdown_saves_follow_the_house_rules_switch() {
    // Natural armor 10 keeps every blow under the reaction table's knockdown.
    let target = Target {
        defence: Defence {
            natural: 10,
            ..Defence::default()
        },
        st: 12,
        st_left: 30,
        earlier_hits: 0,
        acrobatics_adj_dx: None,
    };
    // (attacker ST, damage faces, house rules, save rolled)
    let cases: &[(i32, [u32; 3], bool, bool)] = &[
        (29, [2, 2, 2], true, false),
        (30, [2, 2, 2], true, true),
        (30, [2, 2, 2], false, false),
        // A great sword's 3d+1: 13 before armor, over ST 12, is a powerful blow; 12 is not.
        (16, [4, 4, 4], true, true),
        (16, [4, 4, 3], true, false),
        (16, [4, 4, 4], false, false),
    ];
    for &(st, [a, b, c], house, saved) in cases {
        let striker = if st == 16 {
            with("great sword", Quality::Plain, Charge::None)
        } else {
            with("battle axe", Quality::Plain, Charge::None)
        };
        let bl = Blow {
            attacker_st: st,
            ..blow(striker, Multiplier::Normal)
        };
        let res = resolve_damage(
            &mut ScriptedDice::new([a, b, c, 6, 6, 6, 6, 6]),
            &bl,
            &target,
            house,
        )
        .unwrap();
        assert_eq!(
            res.after.save.is_some(),
            saved,
            "ST {st}, {a}+{b}+{c}, house {house}"
        );
    }
}

// tft-house-rules-combat.txt, "Pole Weapons": +1d+1 in a charge with the house rules; without
// them the original rules' double damage (×2, armor counting as usual).
#[test]
fn pole_charges_double_without_the_house_rules() {
    let cases: &[(&str, Charge, bool, &str, i32, Multiplier)] = &[
        (
            "halberd",
            Charge::Charging,
            true,
            "3d+1",
            1,
            Multiplier::Normal,
        ),
        (
            "halberd",
            Charge::Charging,
            false,
            "2d",
            2,
            Multiplier::Double,
        ),
        (
            "halberd",
            Charge::Receiving,
            false,
            "2d",
            2,
            Multiplier::Double,
        ),
        ("halberd", Charge::None, false, "2d", 1, Multiplier::Normal),
        (
            "spear",
            Charge::ReceivingRider,
            false,
            "1d",
            2,
            Multiplier::Double,
        ),
        (
            "broadsword",
            Charge::Charging,
            false,
            "2d",
            1,
            Multiplier::Normal,
        ),
        // The pike is the house rules' own weapon and keeps its rule.
        (
            "pike",
            Charge::Receiving,
            false,
            "2d+2",
            1,
            Multiplier::Normal,
        ),
    ];
    for &(name, charge, house, dice, factor, multiplier) in cases {
        let r = roll_damage(
            &mut ScriptedDice::new([3, 3, 3, 3]),
            &blow(with(name, Quality::Plain, charge), Multiplier::Normal),
            &Defence::default(),
            house,
        )
        .unwrap();
        let what = format!("{name} {charge:?} house {house}");
        assert_eq!(r.dice.to_string(), dice, "{what}");
        assert_eq!((r.factor, r.multiplier), (factor, multiplier), "{what}");
    }
}
