//! Hazards: falls, fire, open water, suffocation and poison (THIZ rulebook, chapter 9).
//!
//! Owns the numbers of each hazard: the rating it is checked against, the d100 roll, the wound
//! colour it threatens, stun and breath counters, and the poison's antidote window. Returns wound
//! colours as [`Level`]s and, where the rule fixes one, a [`Location`]; applying a wound, a
//! Toughness soak or a luck point is the caller's business (combat and wounds own those). Must
//! never roll through anything but the [`DieSource`] it is given, nor do I/O.
//!
//! Also holds [`ChartRoll`], the one d100-against-a-rating record the world modules (magic,
//! movement, advancement) share.

use thiserror::Error;

use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Location, Rating, resolve};

/// One d100 roll on the resolution chart: the rating checked, the face, and the level it earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartRoll {
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
}

impl ChartRoll {
    /// Roll a d100 against `rating`.
    pub fn roll(rating: Rating, dice: &mut impl DieSource) -> ChartRoll {
        let roll = dice.d100();
        ChartRoll {
            rating,
            roll,
            level: resolve(rating, roll),
        }
    }
}

/// A mistake in the numbers given to a hazard.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HazardError {
    #[error("a poison's wound rating must be Green, Yellow, Red or Black, not Failure")]
    PoisonWithoutWound,
    #[error("a fall of {0} feet is too far to work out; give at most 100000 feet")]
    FallTooFar(u32),
}

/// Whether the target may still check Toughness against the wound, as with an attacker's hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Soak {
    /// The wound is a hit like a weapon's: the victim checks Toughness as in combat.
    Toughness,
    /// The level rolled is the wound suffered; no Toughness check.
    None,
}

// ---------------------------------------------------------------------------------------------
// Falls
// ---------------------------------------------------------------------------------------------

/// Falls of this many feet or less cannot hurt (chapter 9, "Fall Damage").
pub const SAFE_FALL_FEET: u32 = 10;
/// From this many feet a fall onto something hard kills outright.
pub const DEADLY_FALL_FEET: u32 = 100;
/// From this many feet even water stops being a soft landing.
pub const WATER_STOPS_YIELDING_FEET: u32 = 200;
/// The longest fall worked out (well beyond any that matters; keeps the numbers small).
pub const MAX_FALL_FEET: u32 = 100_000;

/// What a falling character lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Rock, floors, packed earth.
    Unyielding,
    /// Deep water: soft only below [`WATER_STOPS_YIELDING_FEET`].
    Water,
    /// Sand, deep snow and the like.
    Yielding,
}

/// How a fall ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FallOutcome {
    /// Ten feet or less: no check.
    Safe,
    /// A hard landing from 100 feet or more: death, no roll.
    Killed,
    /// The fall was checked. `wound` is Failure when the faller is unharmed. `stunned_turns` is
    /// the distance over ten, counted only when a wound was taken. `referee_decides_survival`
    /// marks a long fall onto a yielding surface, where the rulebook leaves life or death to the
    /// referee and the roll is only a guide.
    Checked {
        check: ChartRoll,
        wound: Level,
        stunned_turns: u32,
        referee_decides_survival: bool,
    },
}

/// The rating a fall is checked against: the distance less ten feet ("Fall Damage").
pub fn fall_rating(distance_feet: u32) -> Rating {
    Rating(
        distance_feet
            .saturating_sub(SAFE_FALL_FEET)
            .min(MAX_FALL_FEET) as i32,
    )
}

/// Resolve a fall of `distance_feet` onto `surface`. The body location is rolled by the caller
/// on the random location chart; the wound is suffered as rolled ([`FALL_SOAK`]).
pub fn fall(
    distance_feet: u32,
    surface: Surface,
    dice: &mut impl DieSource,
) -> Result<FallOutcome, HazardError> {
    if distance_feet > MAX_FALL_FEET {
        return Err(HazardError::FallTooFar(distance_feet));
    }
    if distance_feet <= SAFE_FALL_FEET {
        return Ok(FallOutcome::Safe);
    }
    let yielding = match surface {
        Surface::Unyielding => false,
        Surface::Yielding => true,
        Surface::Water => distance_feet < WATER_STOPS_YIELDING_FEET,
    };
    let long = distance_feet >= DEADLY_FALL_FEET;
    if long && !yielding {
        return Ok(FallOutcome::Killed);
    }
    // Neither Speed nor armour lowers this rating: the ground does not miss.
    let check = ChartRoll::roll(fall_rating(distance_feet), dice);
    let wound = check.level;
    Ok(FallOutcome::Checked {
        check,
        wound,
        stunned_turns: if wound.is_success() {
            distance_feet / 10
        } else {
            0
        },
        referee_decides_survival: long,
    })
}

// Decision: the rulebook says the fall's level of success *is* the wound suffered, so unlike an
// attack there is no Toughness check against it.
/// Falls wound directly.
pub const FALL_SOAK: Soak = Soak::None;

// ---------------------------------------------------------------------------------------------
// Fire
// ---------------------------------------------------------------------------------------------

/// A kind of fire from the rulebook's table, with its range of ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireKind {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
}

/// The "Fire Ratings" table of chapter 9, mildest first.
pub const FIRE_RATINGS: [FireKind; 6] = [
    FireKind {
        name: "candle or small lamp",
        min: -5,
        max: -5,
    },
    FireKind {
        name: "torch or lantern",
        min: 0,
        max: 0,
    },
    FireKind {
        name: "small fire or burning sheet",
        min: 5,
        max: 8,
    },
    FireKind {
        name: "large fire or burning beam",
        min: 10,
        max: 14,
    },
    FireKind {
        name: "bonfire or burning building",
        min: 15,
        max: 20,
    },
    FireKind {
        name: "lava or magical fire",
        min: 25,
        max: 30,
    },
];

/// The numbers behind a fire's attack on one body location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireAttack {
    pub fire_rating: i32,
    /// Subtracted because the victim could move away (their Speed, never below zero).
    pub speed_reduction: i32,
    /// 1 when the location burnt wears any armour, whatever its Armor Bonus.
    pub armour_reduction: i32,
    pub check: ChartRoll,
    /// The hit's level: the wound threatened before the Toughness soak ([`FIRE_SOAK`]).
    pub hit: Level,
}

/// The adjusted rating a fire attacks with.
///
/// `escape_speed` is the victim's Speed when they are able to move away from the flames.
// Decision: a negative Speed does not make fleeing worse than standing still, so only a positive
// Speed lowers the fire's rating.
pub fn fire_attack_rating(fire_rating: i32, escape_speed: Option<i32>, armoured: bool) -> Rating {
    let speed = escape_speed.unwrap_or(0).max(0);
    Rating(
        fire_rating
            .saturating_sub(speed)
            .saturating_sub(i32::from(armoured)),
    )
}

/// Roll a fire's attack on one location (the caller picks or rolls the location).
pub fn fire_attack(
    fire_rating: i32,
    escape_speed: Option<i32>,
    armoured: bool,
    dice: &mut impl DieSource,
) -> FireAttack {
    let rating = fire_attack_rating(fire_rating, escape_speed, armoured);
    let check = ChartRoll::roll(rating, dice);
    FireAttack {
        fire_rating,
        speed_reduction: escape_speed.unwrap_or(0).max(0),
        armour_reduction: i32::from(armoured),
        check,
        hit: check.level,
    }
}

/// Fire attacks like a weapon, so the victim checks Toughness against it as against any hit.
pub const FIRE_SOAK: Soak = Soak::Toughness;

// ---------------------------------------------------------------------------------------------
// Open water
// ---------------------------------------------------------------------------------------------

/// A kind of water from the rulebook's table, with its rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaterKind {
    pub name: &'static str,
    pub rating: i32,
}

/// The "Water Ratings" table of chapter 9, calmest first.
pub const WATER_RATINGS: [WaterKind; 8] = [
    WaterKind {
        name: "still, flat or calm water",
        rating: 0,
    },
    WaterKind {
        name: "slow stream, sewer or calm ocean",
        rating: 5,
    },
    WaterKind {
        name: "strong current or icy water",
        rating: 10,
    },
    WaterKind {
        name: "rapids or ocean swells",
        rating: 15,
    },
    WaterKind {
        name: "whitewater or windblown ocean",
        rating: 25,
    },
    WaterKind {
        name: "waterfall, river whirlpool or stormy seas",
        rating: 35,
    },
    WaterKind {
        name: "ocean whirlpool",
        rating: 40,
    },
    WaterKind {
        name: "hurricane on the open ocean",
        rating: 50,
    },
];

/// Starting a swim in water rated this high or more calls for a check.
pub const ROUGH_START_RATING: i32 = 10;
/// Starting any turn in water rated this high or more calls for a check.
pub const ROUGH_TURN_RATING: i32 = 25;
/// Diving from higher than this many feet calls for a check.
pub const SAFE_DIVE_FEET: u32 = 20;

/// A moment in the water that may call for a check to stay afloat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaterSituation {
    /// Falling into water without meaning to.
    SuddenFall,
    /// Diving in from this height.
    Dive { height_feet: u32 },
    /// Swimming while wearing armour.
    SwimmingInArmour,
    /// Setting out to swim in water of this rating.
    StartingSwim { water_rating: i32 },
    /// Beginning a turn in water of this rating.
    StartingTurn { water_rating: i32 },
}

/// Whether a situation is extraordinary enough to need a check to stay afloat.
pub fn needs_afloat_check(situation: WaterSituation) -> bool {
    match situation {
        WaterSituation::SuddenFall | WaterSituation::SwimmingInArmour => true,
        WaterSituation::Dive { height_feet } => height_feet > SAFE_DIVE_FEET,
        WaterSituation::StartingSwim { water_rating } => water_rating >= ROUGH_START_RATING,
        WaterSituation::StartingTurn { water_rating } => water_rating >= ROUGH_TURN_RATING,
    }
}

/// Whether a moment in the water calls for a check once the armour worn is counted: swimming in
/// armour is one of the extraordinary situations whatever else is going on, so armour makes any
/// moment in the water one that needs the check.
pub fn afloat_check_due(situation: WaterSituation, wearing_armour: bool) -> bool {
    wearing_armour || needs_afloat_check(situation)
}

/// The rating to stay afloat: twice the better of Swimming and General Physical, less the
/// highest Armor Bonus worn and the water's rating.
pub fn afloat_rating(
    swimming: i32,
    general_physical: i32,
    armour_bonus: i32,
    water: i32,
) -> Rating {
    Rating(
        swimming
            .max(general_physical)
            .saturating_mul(2)
            .saturating_sub(armour_bonus.max(0))
            .saturating_sub(water),
    )
}

/// A check to stay afloat, or to breach the surface again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AfloatCheck {
    /// The better of Swimming and General Physical, doubled.
    pub doubled_skill: i32,
    pub armour_bonus: i32,
    pub water_rating: i32,
    pub check: ChartRoll,
    /// True when the swimmer is above water after the check.
    pub afloat: bool,
}

/// Roll to stay afloat (or, for a swimmer already under, to come back up: that takes a turn).
// Decision: the rulebook calls the check to resurface "another Swimming check" without a formula;
// the water and armour have not gone away, so it uses the same adjusted rating.
pub fn afloat_check(
    swimming: i32,
    general_physical: i32,
    armour_bonus: i32,
    water_rating: i32,
    dice: &mut impl DieSource,
) -> AfloatCheck {
    let rating = afloat_rating(swimming, general_physical, armour_bonus, water_rating);
    let check = ChartRoll::roll(rating, dice);
    AfloatCheck {
        doubled_skill: swimming.max(general_physical).saturating_mul(2),
        armour_bonus: armour_bonus.max(0),
        water_rating,
        check,
        afloat: check.level.is_success(),
    }
}

// ---------------------------------------------------------------------------------------------
// Suffocation
// ---------------------------------------------------------------------------------------------

/// Everyone holds their breath this many turns, plus their General Physical rating.
pub const BASE_BREATH_TURNS: i32 = 6;
/// Suffocation always wounds the chest.
pub const SUFFOCATION_LOCATION: Location = Location::Chest;

/// How many turns a character can go without air: 6 + General Physical, never below zero.
pub fn breath_turns(general_physical: i32) -> u32 {
    BASE_BREATH_TURNS.saturating_add(general_physical).max(0) as u32
}

/// The state of one character's breath, turn by turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breath {
    /// Turns that can be spent without air before checks begin.
    pub capacity: u32,
    /// Turns counted without air (paid back by breathing).
    pub turns_without_air: u32,
    /// A breathing turn waiting for its partner: two give back one turn.
    pub half_recovered: bool,
}

/// One turn without air.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AirlessTurn {
    /// Which turn without air this was (1 for the first).
    pub turn: u32,
    /// The check at the end of the turn, once the breath has run out: rated by how many turns
    /// beyond the capacity have been counted.
    pub check: Option<ChartRoll>,
    /// The wound to the chest ([`SUFFOCATION_LOCATION`]); Failure when none.
    pub wound: Level,
}

impl Breath {
    /// A character with full lungs.
    pub fn new(general_physical: i32) -> Breath {
        Breath {
            capacity: breath_turns(general_physical),
            turns_without_air: 0,
            half_recovered: false,
        }
    }

    /// The end of a turn without air: past the capacity, the referee checks the running total of
    /// extra turns and the level is the chest wound, suffered as rolled.
    pub fn airless_turn(&mut self, dice: &mut impl DieSource) -> AirlessTurn {
        self.turns_without_air = self.turns_without_air.saturating_add(1);
        self.half_recovered = false;
        let over = self.turns_without_air.saturating_sub(self.capacity);
        let check = (over > 0).then(|| ChartRoll::roll(Rating(over as i32), dice));
        AirlessTurn {
            turn: self.turns_without_air,
            check,
            wound: check.map_or(Level::Failure, |c| c.level),
        }
    }

    /// A turn breathing: every second one gives back a turn without air.
    // Not reached: /hazard suffocation takes the running count the rulebook has the referee keep,
    // so the referee counts the turns breathing back off it too; the bot keeps no breath between
    // commands.
    pub fn breathing_turn(&mut self) {
        if self.half_recovered {
            self.turns_without_air = self.turns_without_air.saturating_sub(1);
            self.half_recovered = false;
        } else {
            self.half_recovered = true;
        }
    }

    /// Turns left before the checks begin.
    pub fn turns_left(&self) -> u32 {
        self.capacity.saturating_sub(self.turns_without_air)
    }
}

// ---------------------------------------------------------------------------------------------
// Poison
// ---------------------------------------------------------------------------------------------

/// Most poisons wound the gut, unless the referee picks the location they entered by.
pub const POISON_LOCATION: Location = Location::Gut;
/// The Weak Constitution weakness: this much off the Toughness check against poison.
pub const WEAK_CONSTITUTION_POISON_PENALTY: i32 = 3;

/// A unit a poison's duration is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Turns,
    Minutes,
    Hours,
    Days,
}

/// A length of time in quarters of a unit (Iron Constitution rounds to quarters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuarterTime {
    pub quarters: u32,
    pub unit: TimeUnit,
}

impl QuarterTime {
    /// A whole number of units.
    pub fn whole(amount: u32, unit: TimeUnit) -> QuarterTime {
        QuarterTime {
            quarters: amount.saturating_mul(4),
            unit,
        }
    }

    /// Whole units and the quarters left over (3h45 is (3, 3)).
    pub fn split(self) -> (u32, u32) {
        (self.quarters / 4, self.quarters % 4)
    }
}

/// The Iron Constitution quirk: a quarter more time to find the antidote, rounded down to a
/// quarter unit.
pub fn iron_constitution_window(duration: QuarterTime) -> QuarterTime {
    QuarterTime {
        quarters: duration.quarters.saturating_add(duration.quarters / 4),
        unit: duration.unit,
    }
}

/// The result of being poisoned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoisonCheck {
    /// The better of Toughness and General Physical.
    pub base_rating: i32,
    /// Weak Constitution's penalty, 0 or 3.
    pub weak_constitution_penalty: i32,
    pub check: ChartRoll,
    pub poison_wound: Level,
    /// True when the check met or beat the poison's wound rating: no wound.
    pub resisted: bool,
    /// Time to find and apply the antidote before the wound lands (Iron Constitution applied).
    pub antidote_window: QuarterTime,
}

/// Check Toughness (or General Physical) against a poison of wound rating `wound` that acts
/// after `duration`. When not resisted the wound lands on [`POISON_LOCATION`] (or where the
/// referee says) unless the antidote is applied in time; no Toughness soak follows.
pub fn poison(
    toughness: i32,
    general_physical: i32,
    wound: Level,
    duration: QuarterTime,
    weak_constitution: bool,
    iron_constitution: bool,
    dice: &mut impl DieSource,
) -> Result<PoisonCheck, HazardError> {
    if !wound.is_success() {
        return Err(HazardError::PoisonWithoutWound);
    }
    let base_rating = toughness.max(general_physical);
    // Decision: Weak Constitution's penalty comes off whichever rating is used, since the
    // weakness is about the body, not the skill.
    let penalty = if weak_constitution {
        WEAK_CONSTITUTION_POISON_PENALTY
    } else {
        0
    };
    let check = ChartRoll::roll(Rating(base_rating.saturating_sub(penalty)), dice);
    Ok(PoisonCheck {
        base_rating,
        weak_constitution_penalty: penalty,
        check,
        poison_wound: wound,
        resisted: check.level >= wound,
        antidote_window: if iron_constitution {
            iron_constitution_window(duration)
        } else {
            duration
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::thiz::chart::row;

    /// A d100 face that earns `level` against `rating` (the top of its column).
    fn face(rating: i32, level: Level) -> u32 {
        row(Rating(rating)).threshold(level).unwrap_or(100)
    }

    #[test]
    fn falls_of_ten_feet_or_less_are_safe() {
        // thiz-rulebook.md, "Fall Damage": only falls of more than 10 feet can hurt.
        let mut dice = ScriptedDice::new([]);
        assert_eq!(
            fall(10, Surface::Unyielding, &mut dice),
            Ok(FallOutcome::Safe)
        );
        assert_eq!(
            fall(0, Surface::Unyielding, &mut dice),
            Ok(FallOutcome::Safe)
        );
        let mut dice = ScriptedDice::new([100]);
        assert!(matches!(
            fall(11, Surface::Unyielding, &mut dice),
            Ok(FallOutcome::Checked { .. })
        ));
    }

    #[test]
    fn fall_rating_is_distance_less_ten_and_stun_is_distance_over_ten() {
        // thiz-rulebook.md, "Fall Damage": rating = distance - 10; stunned distance/10 turns.
        for (distance, rating, stun) in [(11, 1, 1), (35, 25, 3), (99, 89, 9), (20, 10, 2)] {
            assert_eq!(fall_rating(distance), Rating(rating));
            let roll = face(rating, Level::Green);
            let mut dice = ScriptedDice::new([roll]);
            let Ok(FallOutcome::Checked {
                check,
                wound,
                stunned_turns,
                referee_decides_survival,
            }) = fall(distance, Surface::Unyielding, &mut dice)
            else {
                panic!("a {distance}-foot fall is checked");
            };
            assert_eq!(check.rating, Rating(rating));
            assert_eq!(wound, Level::Green);
            assert_eq!(stunned_turns, stun);
            assert!(!referee_decides_survival);
        }
    }

    #[test]
    fn an_unharmed_faller_is_not_stunned() {
        // thiz-rulebook.md, "Fall Damage": a white (Failure) result leaves the faller unharmed,
        // and only those injured are stunned.
        let mut dice = ScriptedDice::new([100]);
        let Ok(FallOutcome::Checked {
            wound,
            stunned_turns,
            ..
        }) = fall(50, Surface::Unyielding, &mut dice)
        else {
            panic!("checked");
        };
        assert_eq!((wound, stunned_turns), (Level::Failure, 0));
        let mut dice = ScriptedDice::new([1]);
        let Ok(FallOutcome::Checked {
            wound,
            stunned_turns,
            ..
        }) = fall(50, Surface::Unyielding, &mut dice)
        else {
            panic!("checked");
        };
        assert_eq!((wound, stunned_turns), (Level::Black, 5));
    }

    #[test]
    fn hundred_foot_falls_kill_unless_the_landing_is_soft() {
        // thiz-rulebook.md, "Fall Damage": 100 feet or more onto an unyielding surface kills;
        // onto a yielding one the referee decides; water stops yielding at 200 feet.
        let cases = [
            (99, Surface::Unyielding, false),
            (100, Surface::Unyielding, true),
            (100, Surface::Yielding, false),
            (1000, Surface::Yielding, false),
            (199, Surface::Water, false),
            (200, Surface::Water, true),
        ];
        for (distance, surface, killed) in cases {
            let mut dice = ScriptedDice::new([50]);
            let out = fall(distance, surface, &mut dice);
            assert_eq!(
                out == Ok(FallOutcome::Killed),
                killed,
                "{distance} feet onto {surface:?}"
            );
            if let Ok(FallOutcome::Checked {
                referee_decides_survival,
                ..
            }) = out
            {
                assert_eq!(referee_decides_survival, distance >= 100);
            }
        }
        assert_eq!(FALL_SOAK, Soak::None);
    }

    #[test]
    fn absurd_falls_are_refused() {
        let mut dice = ScriptedDice::new([]);
        assert_eq!(
            fall(100_001, Surface::Yielding, &mut dice),
            Err(HazardError::FallTooFar(100_001))
        );
        let mut dice = ScriptedDice::new([50]);
        assert!(fall(100_000, Surface::Yielding, &mut dice).is_ok());
    }

    #[test]
    fn fire_table_is_ordered_and_covers_the_printed_rows() {
        // thiz-rulebook.md, "Fire": six rows from -5 (candle) to 25..30 (lava, magical fire).
        assert_eq!(FIRE_RATINGS[0].min, -5);
        assert_eq!(FIRE_RATINGS[5].max, 30);
        for pair in FIRE_RATINGS.windows(2) {
            assert!(
                pair[0].max < pair[1].min,
                "{} before {}",
                pair[0].name,
                pair[1].name
            );
        }
        for kind in FIRE_RATINGS {
            assert!(kind.min <= kind.max);
        }
        let printed: Vec<(i32, i32)> = FIRE_RATINGS.iter().map(|k| (k.min, k.max)).collect();
        assert_eq!(
            printed,
            [(-5, -5), (0, 0), (5, 8), (10, 14), (15, 20), (25, 30)]
        );
    }

    #[test]
    fn fire_rating_loses_speed_when_fleeing_and_one_for_armour() {
        // thiz-rulebook.md, "Fire": moving away subtracts Speed; armour on the location subtracts
        // 1 whatever its bonus.
        let cases = [
            (15, None, false, 15),
            (15, Some(4), false, 11),
            (15, Some(4), true, 10),
            (15, None, true, 14),
            (15, Some(0), false, 15),
            (15, Some(-3), false, 15), // Decision: negative Speed does not raise it.
        ];
        for (fire, speed, armour, want) in cases {
            assert_eq!(fire_attack_rating(fire, speed, armour), Rating(want));
        }
        let mut dice = ScriptedDice::new([face(10, Level::Red)]);
        let attack = fire_attack(15, Some(4), true, &mut dice);
        assert_eq!(attack.check.rating, Rating(10));
        assert_eq!((attack.speed_reduction, attack.armour_reduction), (4, 1));
        assert_eq!(attack.hit, Level::Red);
        assert_eq!(FIRE_SOAK, Soak::Toughness);
    }

    #[test]
    fn water_table_is_ordered() {
        // thiz-rulebook.md, "Open Water": eight kinds of water from 0 to 50.
        let printed: Vec<i32> = WATER_RATINGS.iter().map(|w| w.rating).collect();
        assert_eq!(printed, [0, 5, 10, 15, 25, 35, 40, 50]);
        assert!(WATER_RATINGS.windows(2).all(|w| w[0].rating < w[1].rating));
    }

    #[test]
    fn afloat_checks_are_called_for_at_the_printed_thresholds() {
        // thiz-rulebook.md, "Open Water": the five extraordinary situations.
        use WaterSituation as W;
        let cases = [
            (W::SuddenFall, true),
            (W::SwimmingInArmour, true),
            (W::Dive { height_feet: 20 }, false),
            (W::Dive { height_feet: 21 }, true),
            (W::StartingSwim { water_rating: 9 }, false),
            (W::StartingSwim { water_rating: 10 }, true),
            (W::StartingTurn { water_rating: 24 }, false),
            (W::StartingTurn { water_rating: 25 }, true),
        ];
        for (situation, want) in cases {
            assert_eq!(needs_afloat_check(situation), want, "{situation:?}");
        }
    }

    #[test]
    fn armour_worn_makes_the_check_due_in_any_water() {
        // thiz-rulebook.md, "Open Water": swimming in armour is one of the situations that call
        // for a check, so below every other threshold armour alone calls for one.
        use WaterSituation as W;
        let cases = [
            (W::StartingSwim { water_rating: 9 }, false, false),
            (W::StartingSwim { water_rating: 9 }, true, true),
            (W::StartingSwim { water_rating: 10 }, false, true),
            (W::StartingTurn { water_rating: 0 }, false, false),
            (W::StartingTurn { water_rating: 0 }, true, true),
            (W::StartingTurn { water_rating: 24 }, false, false),
            (W::StartingTurn { water_rating: 24 }, true, true),
            (W::StartingTurn { water_rating: 25 }, false, true),
            (W::Dive { height_feet: 20 }, false, false),
            (W::Dive { height_feet: 20 }, true, true),
            (W::SuddenFall, false, true),
            (W::SwimmingInArmour, true, true),
        ];
        for (situation, armour, want) in cases {
            assert_eq!(
                afloat_check_due(situation, armour),
                want,
                "{situation:?} armour {armour}"
            );
        }
    }

    #[test]
    fn afloat_rating_doubles_the_better_skill_less_armour_and_water() {
        // thiz-rulebook.md, "Open Water": 2 x (Swimming or General Physical) - armour - water.
        assert_eq!(afloat_rating(5, 2, 1, 10), Rating(-1));
        assert_eq!(afloat_rating(0, 3, 0, 5), Rating(1));
        assert_eq!(afloat_rating(4, 0, 2, 0), Rating(6));
        let mut dice = ScriptedDice::new([face(6, Level::Green), face(6, Level::Green) + 1]);
        assert!(afloat_check(4, 0, 2, 0, &mut dice).afloat);
        let under = afloat_check(4, 0, 2, 0, &mut dice);
        assert!(!under.afloat);
        assert_eq!(
            (under.doubled_skill, under.armour_bonus, under.water_rating),
            (8, 2, 0)
        );
    }

    #[test]
    fn suffocation_worked_example() {
        // thiz-rulebook.md, "Suffocation": General Physical 1 holds breath 7 turns; after the 8th
        // turn the check is at rating 1 (a Green: Green chest wound); the 9th at rating 2.
        let mut breath = Breath::new(1);
        assert_eq!(breath.capacity, 7);
        let mut dice = ScriptedDice::new([face(1, Level::Green), 1]);
        for turn in 1..=7 {
            let t = breath.airless_turn(&mut dice);
            assert_eq!((t.turn, t.check, t.wound), (turn, None, Level::Failure));
        }
        let eighth = breath.airless_turn(&mut dice);
        let check = eighth.check.expect("checked after the 8th turn");
        assert_eq!(check.rating, Rating(1));
        assert_eq!(eighth.wound, Level::Green);
        assert_eq!(SUFFOCATION_LOCATION, Location::Chest);
        let ninth = breath.airless_turn(&mut dice);
        assert_eq!(ninth.check.map(|c| c.rating), Some(Rating(2)));
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn breath_capacity_and_recovery() {
        // thiz-rulebook.md, "Suffocation": 6 + General Physical turns; two breathing turns give
        // back one.
        assert_eq!(breath_turns(0), 6);
        assert_eq!(breath_turns(-6), 0);
        assert_eq!(breath_turns(-10), 0);
        let mut breath = Breath::new(-4);
        let mut dice = ScriptedDice::new([]);
        breath.airless_turn(&mut dice);
        breath.airless_turn(&mut dice);
        assert_eq!(breath.turns_left(), 0);
        breath.breathing_turn();
        assert_eq!(breath.turns_left(), 0, "one breathing turn is not enough");
        breath.breathing_turn();
        assert_eq!(breath.turns_left(), 1);
        breath.breathing_turn();
        breath.breathing_turn();
        breath.breathing_turn();
        breath.breathing_turn();
        assert_eq!(breath.turns_left(), 2, "never more than full lungs");
    }

    #[test]
    fn poison_is_resisted_at_or_above_its_wound_rating() {
        // thiz-rulebook.md, "Poison": a level that meets or exceeds the wound rating resists it.
        let five = QuarterTime::whole(5, TimeUnit::Minutes);
        for (level, resisted) in [
            (Level::Yellow, false),
            (Level::Red, true),
            (Level::Black, true),
        ] {
            let mut dice = ScriptedDice::new([face(3, level)]);
            let p = poison(3, 1, Level::Red, five, false, false, &mut dice).unwrap();
            assert_eq!(p.check.level, level);
            assert_eq!(p.resisted, resisted, "{level:?} against a Red poison");
            assert_eq!(p.antidote_window, five);
        }
        assert_eq!(POISON_LOCATION, Location::Gut);
        let mut dice = ScriptedDice::new([]);
        assert_eq!(
            poison(3, 1, Level::Failure, five, false, false, &mut dice),
            Err(HazardError::PoisonWithoutWound)
        );
    }

    #[test]
    fn weak_constitution_takes_three_off_the_poison_check() {
        // thiz-rulebook.md, "Weak Constitution": -3 to Toughness checks against poison.
        let mut dice = ScriptedDice::new([50, 50]);
        let t = QuarterTime::whole(1, TimeUnit::Hours);
        let plain = poison(2, 5, Level::Green, t, false, false, &mut dice).unwrap();
        let weak = poison(2, 5, Level::Green, t, true, false, &mut dice).unwrap();
        assert_eq!(plain.check.rating, Rating(5));
        assert_eq!(weak.check.rating, Rating(2));
        assert_eq!(weak.weak_constitution_penalty, 3);
    }

    #[test]
    fn iron_constitution_examples() {
        // thiz-rulebook.md, "Iron Constitution": 5 minutes become 6.25; 3 hours become 3h45.
        let five = iron_constitution_window(QuarterTime::whole(5, TimeUnit::Minutes));
        assert_eq!(five.split(), (6, 1));
        let three = iron_constitution_window(QuarterTime::whole(3, TimeUnit::Hours));
        assert_eq!(three.split(), (3, 3));
        assert_eq!(three.unit, TimeUnit::Hours);
        // Rounds down: 1 unit and 1 quarter (5 quarters) gains 1 quarter, not 1.25.
        let odd = QuarterTime {
            quarters: 5,
            unit: TimeUnit::Turns,
        };
        assert_eq!(iron_constitution_window(odd).quarters, 6);
        // A single quarter gains nothing: a quarter of it rounds down to 0.
        let quarter = QuarterTime {
            quarters: 1,
            unit: TimeUnit::Turns,
        };
        assert_eq!(iron_constitution_window(quarter).quarters, 1);
        let mut dice = ScriptedDice::new([100]);
        let p = poison(
            0,
            0,
            Level::Black,
            QuarterTime::whole(3, TimeUnit::Hours),
            false,
            true,
            &mut dice,
        )
        .unwrap();
        assert_eq!(p.antidote_window.split(), (3, 3));
        assert!(!p.resisted);
    }

    #[test]
    fn extreme_numbers_do_not_overflow() {
        // Ratings come from players; absurd ones must give an answer, not a crash.
        for n in [i32::MIN, i32::MAX] {
            let mut dice = ScriptedDice::new([50, 50, 50, 50]);
            let _ = fire_attack(n, Some(n), true, &mut dice);
            let _ = afloat_check(n, n, n, n, &mut dice);
            let _ = poison(
                n,
                n,
                Level::Red,
                QuarterTime::whole(u32::MAX, TimeUnit::Days),
                true,
                true,
                &mut dice,
            );
            let _ = breath_turns(n);
            assert_eq!(dice.remaining(), 1);
        }
    }
}
