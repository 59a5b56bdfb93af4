//! Vehicles: speed categories and the vehicle rate table, chases, near collisions, attacks from
//! and against moving vehicles, collision wounds, and losing control of a wrecked vehicle.
//!
//! Initiative in a chase is rolled by the combat rules; this module takes the scores. Wounds are
//! returned as the hit's [`Level`]; the Toughness soak (a vehicle's own Toughness, or an
//! occupant's) and body locations are the caller's, through the combat and wounds modules.

use thiserror::Error;

use super::rates::Rate;
use crate::rules::dice::DieSource;
use crate::rules::thiz::hazards::ChartRoll;
use crate::rules::thiz::{Level, Rating};

/// A mistake in the numbers given to a vehicle rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum VehicleError {
    #[error("the vehicle table stops at Speed 53; a Speed of {0} needs the referee's own figure")]
    SpeedOffTable(i32),
}

/// The four speeds every vehicle is given a Speed rating for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedCategory {
    Slow,
    Cruising,
    Fast,
    FlatOut,
}

/// Manoeuvring flat-out costs this much on Pilot checks.
pub const FLAT_OUT_PILOT_PENALTY: i32 = 3;

/// The modifier to Pilot checks to manoeuvre at a speed: -3 flat-out, else 0.
pub fn pilot_modifier(category: SpeedCategory) -> i32 {
    if category == SpeedCategory::FlatOut {
        -FLAT_OUT_PILOT_PENALTY
    } else {
        0
    }
}

/// The rating a pilot checks: their Pilot skill for this vehicle or their General Mental rating,
/// whichever is better, with the flat-out penalty.
pub fn pilot_rating(pilot_skill: i32, general_mental: i32, category: SpeedCategory) -> Rating {
    Rating(
        pilot_skill
            .max(general_mental)
            .saturating_add(pilot_modifier(category)),
    )
}

/// One column of the Vehicle Movement Rates table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VehicleBand {
    pub min: i32,
    pub max: i32,
    pub rate: Rate,
}

const fn vb(min: i32, max: i32, per_turn: u32, per_minute: u32) -> VehicleBand {
    VehicleBand {
        min,
        max,
        rate: Rate {
            per_turn,
            per_minute,
        },
    }
}

/// The Vehicle Movement Rates table of chapter 8, for terrestrial vehicles, slowest first.
pub const VEHICLE_RATES: [VehicleBand; 14] = [
    vb(1, 3, 60, 750),
    vb(4, 6, 65, 800),
    vb(7, 10, 70, 850),
    vb(11, 13, 75, 900),
    vb(14, 17, 80, 950),
    vb(18, 21, 85, 1000),
    vb(22, 25, 90, 1050),
    vb(26, 29, 95, 1150),
    vb(30, 33, 105, 1250),
    vb(34, 37, 115, 1400),
    vb(38, 41, 125, 1500),
    vb(42, 45, 135, 1650),
    vb(46, 49, 145, 1750),
    vb(50, 53, 155, 1850),
];

/// How far the table's figures are scaled for the kind of craft.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VehicleScale {
    /// Carts, chariots, cars: the table as printed.
    Terrestrial,
    /// Craft as fast as modern aircraft: times 60.
    Aircraft,
    /// Craft as fast as modern spacecraft: times 500.
    Spacecraft,
}

impl VehicleScale {
    /// The multiplier.
    pub fn factor(self) -> u32 {
        match self {
            VehicleScale::Terrestrial => 1,
            VehicleScale::Aircraft => 60,
            VehicleScale::Spacecraft => 500,
        }
    }
}

/// Feet per turn and per minute of a vehicle at Speed `speed`. A Speed of 0 or less is a vehicle
/// starting up or stopping, which counts as not moving.
pub fn vehicle_rate(speed: i32, scale: VehicleScale) -> Result<Rate, VehicleError> {
    if speed <= 0 {
        return Ok(Rate {
            per_turn: 0,
            per_minute: 0,
        });
    }
    let band = VEHICLE_RATES
        .iter()
        .find(|b| (b.min..=b.max).contains(&speed))
        .ok_or(VehicleError::SpeedOffTable(speed))?;
    Ok(Rate {
        per_turn: band.rate.per_turn * scale.factor(),
        per_minute: band.rate.per_minute * scale.factor(),
    })
}

// ---------------------------------------------------------------------------------------------
// Chases
// ---------------------------------------------------------------------------------------------

/// Whether two movers are in a chase at all: the slower must manage two thirds of the faster's
/// pace, else the faster catches or loses them at once.
// Decision: the comparison is of distance per turn, since Speed ratings are not proportional
// to distance.
pub fn is_chase(a_feet_per_turn: u32, b_feet_per_turn: u32) -> bool {
    let slow = u64::from(a_feet_per_turn.min(b_feet_per_turn));
    let fast = u64::from(a_feet_per_turn.max(b_feet_per_turn));
    3 * slow >= 2 * fast
}

/// The indices of the highest initiative scores in a chase round: the one (or, on a tie, those)
/// who may change the gap.
pub fn chase_leaders(initiatives: &[i32]) -> Vec<usize> {
    let Some(&best) = initiatives.iter().max() else {
        return Vec::new();
    };
    initiatives
        .iter()
        .enumerate()
        .filter(|&(_, &score)| score == best)
        .map(|(i, _)| i)
        .collect()
}

/// What the round's leader does with the gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapChange {
    Close,
    Widen,
}

/// The gap after the leader moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChaseMove {
    pub gap_before: u32,
    pub moved: u32,
    pub gap_after: u32,
    /// Closing by more than the gap: the leader may overtake, drop behind or draw alongside.
    pub may_pass: bool,
}

/// The leader changes the gap by up to their vehicle's movement per turn.
pub fn chase_move(gap_feet: u32, leader_feet_per_turn: u32, change: GapChange) -> ChaseMove {
    let (gap_after, may_pass) = match change {
        GapChange::Close => (
            gap_feet.saturating_sub(leader_feet_per_turn),
            leader_feet_per_turn > gap_feet,
        ),
        GapChange::Widen => (gap_feet.saturating_add(leader_feet_per_turn), false),
    };
    ChaseMove {
        gap_before: gap_feet,
        moved: leader_feet_per_turn,
        gap_after,
        may_pass,
    }
}

// ---------------------------------------------------------------------------------------------
// Near collisions
// ---------------------------------------------------------------------------------------------

/// How two vehicles meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approach {
    /// Their paths cross.
    Crossing,
    /// They come at each other head-on.
    HeadOn,
}

/// How a near collision ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// Both pilots failed: they hit (head-on when approaching head-on).
    Collide,
    /// The first pilot did better and chooses how close (or how fast) they pass.
    FirstChooses,
    /// The second pilot did better and chooses.
    SecondChooses,
    /// Equal levels: they pass within range of missile weapons.
    WithinMissileRange,
}

/// Both pilots' checks and the outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NearCollision {
    pub approach: Approach,
    pub first: ChartRoll,
    pub second: ChartRoll,
    pub outcome: Passing,
}

/// The outcome of two pilots' levels when their vehicles may collide.
pub fn passing(first: Level, second: Level) -> Passing {
    if !first.is_success() && !second.is_success() {
        Passing::Collide
    } else if first > second {
        Passing::FirstChooses
    } else if second > first {
        Passing::SecondChooses
    } else {
        Passing::WithinMissileRange
    }
}

/// Both pilots check (see [`pilot_rating`]); the result says whether and how they pass.
pub fn near_collision(
    approach: Approach,
    first_pilot: Rating,
    second_pilot: Rating,
    dice: &mut impl DieSource,
) -> NearCollision {
    let first = ChartRoll::roll(first_pilot, dice);
    let second = ChartRoll::roll(second_pilot, dice);
    NearCollision {
        approach,
        first,
        second,
        outcome: passing(first.level, second.level),
    }
}

// ---------------------------------------------------------------------------------------------
// Attacks from and against vehicles
// ---------------------------------------------------------------------------------------------

/// The modifier to an attack from a moving vehicle at a stationary target or a pedestrian:
/// minus the vehicle's Speed, unless it is heading straight at or straight away from the target.
// Decision: a stopped vehicle (Speed 0 or less) gives no penalty, and never a bonus.
pub fn attack_from_vehicle_modifier(vehicle_speed: i32, straight_line: bool) -> i32 {
    if straight_line {
        0
    } else {
        -vehicle_speed.max(0)
    }
}

/// The Speed a vehicle defends with against a stationary attacker or one crossing its path: its
/// current Speed rating, used where a character's Speed would be.
pub fn vehicle_defence_speed(current_speed: i32) -> i32 {
    current_speed.max(0)
}

/// A vehicle has one body location; a wound of this colour puts it out of action.
pub const VEHICLE_DISABLING_WOUND: Level = Level::Black;

/// Whether a wound leaves a vehicle inoperable.
pub fn is_inoperable(wound: Level) -> bool {
    wound >= VEHICLE_DISABLING_WOUND
}

// ---------------------------------------------------------------------------------------------
// Collisions
// ---------------------------------------------------------------------------------------------

/// What hit what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collision {
    /// A vehicle strikes another across its path: the striker's Speed.
    Crossing { striker_speed: i32 },
    /// A vehicle runs into a slower one from behind: the difference of their Speeds.
    RearEnd {
        striker_speed: i32,
        struck_speed: i32,
    },
    /// Two vehicles meet head-on: the sum of their Speeds.
    HeadOn { first_speed: i32, second_speed: i32 },
    /// A vehicle hits someone on foot: its Speed less theirs; only the pedestrian is hurt.
    Pedestrian {
        vehicle_speed: i32,
        pedestrian_speed: i32,
    },
    /// A vehicle hits a wall or building: its Speed; the fixture is the referee's.
    Fixture { vehicle_speed: i32 },
}

/// Who may take the collision's wound (each checking Toughness against it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Victims {
    BothVehicles,
    PedestrianOnly,
    VehicleOnly,
}

impl Collision {
    /// The rating the collision is checked at, as an attacker's adjusted rating.
    pub fn rating(self) -> Rating {
        Rating(match self {
            Collision::Crossing { striker_speed } => striker_speed,
            Collision::RearEnd {
                striker_speed,
                struck_speed,
            } => striker_speed.saturating_sub(struck_speed),
            Collision::HeadOn {
                first_speed,
                second_speed,
            } => first_speed.saturating_add(second_speed),
            Collision::Pedestrian {
                vehicle_speed,
                pedestrian_speed,
            } => vehicle_speed.saturating_sub(pedestrian_speed),
            Collision::Fixture { vehicle_speed } => vehicle_speed,
        })
    }

    /// Who may be wounded.
    pub fn victims(self) -> Victims {
        match self {
            Collision::Crossing { .. } | Collision::RearEnd { .. } | Collision::HeadOn { .. } => {
                Victims::BothVehicles
            }
            Collision::Pedestrian { .. } => Victims::PedestrianOnly,
            Collision::Fixture { .. } => Victims::VehicleOnly,
        }
    }
}

/// A collision rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollisionHit {
    pub collision: Collision,
    pub check: ChartRoll,
    /// The wound each victim may take, before their Toughness check; Failure for none.
    pub hit: Level,
    pub victims: Victims,
}

/// Roll a collision's check.
pub fn collide(collision: Collision, dice: &mut impl DieSource) -> CollisionHit {
    let check = ChartRoll::roll(collision.rating(), dice);
    CollisionHit {
        collision,
        check,
        hit: check.level,
        victims: collision.victims(),
    }
}

// ---------------------------------------------------------------------------------------------
// A vehicle wrecked while moving
// ---------------------------------------------------------------------------------------------

/// What the pilot manages when the vehicle is wrecked in motion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WreckOutcome {
    /// Failure: control is lost and everyone aboard may be hurt.
    Crash,
    /// Green to Red: brought safely to a stop.
    Stopped,
    /// Black: kept moving for one more turn, then stopped.
    OneMoreTurn,
}

/// The pilot's check when the vehicle is wrecked in motion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WreckCheck {
    pub check: ChartRoll,
    pub outcome: WreckOutcome,
}

/// The outcome a pilot's level earns when their vehicle is wrecked in motion.
pub fn wreck_outcome(level: Level) -> WreckOutcome {
    match level {
        Level::Failure => WreckOutcome::Crash,
        Level::Green | Level::Yellow | Level::Red => WreckOutcome::Stopped,
        Level::Black => WreckOutcome::OneMoreTurn,
    }
}

/// The pilot checks (see [`pilot_rating`]) when their vehicle becomes inoperable in motion.
pub fn wreck_check(pilot: Rating, dice: &mut impl DieSource) -> WreckCheck {
    let check = ChartRoll::roll(pilot, dice);
    WreckCheck {
        check,
        outcome: wreck_outcome(check.level),
    }
}

/// A crash's hit on one occupant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrashHit {
    pub vehicle_speed: i32,
    pub occupant_speed: i32,
    pub armour_bonus: i32,
    pub check: ChartRoll,
    /// The hit's level before the occupant's Toughness check; the location is rolled by the
    /// caller on the random location chart.
    pub hit: Level,
}

/// The rating a crash attacks an occupant with: the vehicle's Speed when it was wrecked, less the
/// occupant's Speed and the Armor Bonus on the location struck, as for any attack.
pub fn crash_rating(vehicle_speed: i32, occupant_speed: i32, armour_bonus: i32) -> Rating {
    Rating(vehicle_speed.saturating_sub(occupant_speed.saturating_add(armour_bonus)))
}

/// Roll a crash's hit on one occupant.
pub fn crash_hit(
    vehicle_speed: i32,
    occupant_speed: i32,
    armour_bonus: i32,
    dice: &mut impl DieSource,
) -> CrashHit {
    let check = ChartRoll::roll(
        crash_rating(vehicle_speed, occupant_speed, armour_bonus),
        dice,
    );
    CrashHit {
        vehicle_speed,
        occupant_speed,
        armour_bonus,
        check,
        hit: check.level,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::thiz::chart::row;

    fn face(rating: i32, level: Level) -> u32 {
        row(Rating(rating)).threshold(level).unwrap_or(100)
    }

    #[test]
    fn vehicle_table_is_contiguous_and_rising() {
        // thiz-rulebook.md, "Vehicular Movement": 14 columns from 1-3 to 50-53.
        assert_eq!(VEHICLE_RATES[0].min, 1);
        assert_eq!(VEHICLE_RATES[13].max, 53);
        for pair in VEHICLE_RATES.windows(2) {
            assert_eq!(pair[0].max + 1, pair[1].min);
            assert!(pair[0].rate.per_turn < pair[1].rate.per_turn);
            assert!(pair[0].rate.per_minute < pair[1].rate.per_minute);
        }
    }

    #[test]
    fn vehicle_rates_at_the_edges() {
        // thiz-rulebook.md, "Vehicular Movement": the printed columns; speed zero when starting
        // or stopping; x60 aircraft, x500 spacecraft.
        let t = VehicleScale::Terrestrial;
        let stopped = Rate {
            per_turn: 0,
            per_minute: 0,
        };
        assert_eq!(vehicle_rate(0, t), Ok(stopped));
        assert_eq!(vehicle_rate(-2, t), Ok(stopped));
        let cases = [
            (1, 60, 750),
            (3, 60, 750),
            (4, 65, 800),
            (29, 95, 1150),
            (30, 105, 1250),
            (37, 115, 1400),
            (38, 125, 1500),
            (53, 155, 1850),
        ];
        for (speed, per_turn, per_minute) in cases {
            assert_eq!(
                vehicle_rate(speed, t),
                Ok(Rate {
                    per_turn,
                    per_minute
                }),
                "Speed {speed}"
            );
        }
        assert_eq!(vehicle_rate(54, t), Err(VehicleError::SpeedOffTable(54)));
        assert_eq!(
            vehicle_rate(1, VehicleScale::Aircraft).map(|r| r.per_turn),
            Ok(3600)
        );
        assert_eq!(
            vehicle_rate(1, VehicleScale::Spacecraft).map(|r| r.per_minute),
            Ok(375_000)
        );
    }

    #[test]
    fn flat_out_costs_three() {
        // thiz-rulebook.md, "Vehicular Movement": flat-out imposes -3 on Pilot checks.
        assert_eq!(pilot_modifier(SpeedCategory::Fast), 0);
        assert_eq!(pilot_modifier(SpeedCategory::FlatOut), -3);
        assert_eq!(pilot_rating(4, 2, SpeedCategory::FlatOut), Rating(1));
        assert_eq!(pilot_rating(1, 2, SpeedCategory::Slow), Rating(2));
        assert_eq!(pilot_rating(1, 2, SpeedCategory::Cruising), Rating(2));
    }

    #[test]
    fn a_chase_needs_two_thirds_of_the_pace() {
        // thiz-rulebook.md, "Vehicular Chases": at least 2/3 of the other's speed.
        assert!(is_chase(60, 90));
        assert!(!is_chase(59, 90));
        assert!(is_chase(90, 60));
        assert!(is_chase(0, 0));
        assert_eq!(chase_leaders(&[12, 15, 7]), [1]);
        assert_eq!(chase_leaders(&[15, 15, 7]), [0, 1]);
        assert!(chase_leaders(&[]).is_empty());
    }

    #[test]
    fn closing_past_the_gap_allows_passing() {
        // thiz-rulebook.md, "Vehicular Chases": moving more than the gap allows overtaking.
        let at = chase_move(80, 80, GapChange::Close);
        assert_eq!((at.gap_after, at.may_pass), (0, false));
        let past = chase_move(79, 80, GapChange::Close);
        assert_eq!((past.gap_after, past.may_pass), (0, true));
        let away = chase_move(50, 80, GapChange::Widen);
        assert_eq!((away.gap_after, away.may_pass), (130, false));
    }

    #[test]
    fn near_collision_outcomes() {
        // thiz-rulebook.md, "Potential Collisions": both fail → collide; better level chooses;
        // a tie passes within missile range.
        use Level::*;
        let cases = [
            (Failure, Failure, Passing::Collide),
            (Green, Failure, Passing::FirstChooses),
            (Failure, Green, Passing::SecondChooses),
            (Red, Yellow, Passing::FirstChooses),
            (Yellow, Red, Passing::SecondChooses),
            (Green, Green, Passing::WithinMissileRange),
            (Black, Black, Passing::WithinMissileRange),
        ];
        for (a, b, want) in cases {
            assert_eq!(passing(a, b), want, "{a:?} vs {b:?}");
        }
        let mut dice = ScriptedDice::new([100, 100]);
        let crash = near_collision(Approach::HeadOn, Rating(3), Rating(5), &mut dice);
        assert_eq!(crash.outcome, Passing::Collide);
    }

    #[test]
    fn attacks_from_and_against_vehicles() {
        // thiz-rulebook.md, "Vehicular Combat": -1 per point of the vehicle's Speed unless
        // heading straight at or away; a vehicle defends with its current Speed; Black disables.
        assert_eq!(attack_from_vehicle_modifier(12, false), -12);
        assert_eq!(attack_from_vehicle_modifier(12, true), 0);
        assert_eq!(attack_from_vehicle_modifier(0, false), 0);
        assert_eq!(attack_from_vehicle_modifier(-3, false), 0);
        assert_eq!(vehicle_defence_speed(9), 9);
        assert!(!is_inoperable(Level::Red));
        assert!(is_inoperable(Level::Black));
    }

    #[test]
    fn collision_ratings_and_victims() {
        // thiz-rulebook.md, "Collision Damage": striker's Speed; rear-end subtracts the slower's;
        // head-on adds; a pedestrian's Speed is subtracted and only they are hurt; a fixture
        // checks the vehicle's Speed.
        let cases = [
            (
                Collision::Crossing { striker_speed: 12 },
                12,
                Victims::BothVehicles,
            ),
            (
                Collision::RearEnd {
                    striker_speed: 12,
                    struck_speed: 8,
                },
                4,
                Victims::BothVehicles,
            ),
            (
                Collision::HeadOn {
                    first_speed: 12,
                    second_speed: 8,
                },
                20,
                Victims::BothVehicles,
            ),
            (
                Collision::Pedestrian {
                    vehicle_speed: 12,
                    pedestrian_speed: 5,
                },
                7,
                Victims::PedestrianOnly,
            ),
            (
                Collision::Fixture { vehicle_speed: 12 },
                12,
                Victims::VehicleOnly,
            ),
        ];
        for (collision, rating, victims) in cases {
            assert_eq!(collision.rating(), Rating(rating), "{collision:?}");
            assert_eq!(collision.victims(), victims);
        }
        let mut dice = ScriptedDice::new([face(20, Level::Red)]);
        let hit = collide(
            Collision::HeadOn {
                first_speed: 12,
                second_speed: 8,
            },
            &mut dice,
        );
        assert_eq!(hit.hit, Level::Red);
    }

    #[test]
    fn wrecked_in_motion() {
        // thiz-rulebook.md, "Inoperable Vehicles": success stops, Black keeps going one more
        // turn, failure crashes; each occupant is attacked at the vehicle's Speed less their
        // Speed and Armor Bonus.
        use Level::*;
        let want = [
            WreckOutcome::Crash,
            WreckOutcome::Stopped,
            WreckOutcome::Stopped,
            WreckOutcome::Stopped,
            WreckOutcome::OneMoreTurn,
        ];
        for (level, outcome) in [Failure, Green, Yellow, Red, Black].into_iter().zip(want) {
            assert_eq!(wreck_outcome(level), outcome);
        }
        let mut dice = ScriptedDice::new([100]);
        assert_eq!(
            wreck_check(Rating(2), &mut dice).outcome,
            WreckOutcome::Crash
        );
        assert_eq!(crash_rating(15, 4, 2), Rating(9));
        let mut dice = ScriptedDice::new([face(9, Level::Yellow)]);
        let hit = crash_hit(15, 4, 2, &mut dice);
        assert_eq!((hit.check.rating, hit.hit), (Rating(9), Level::Yellow));
    }
}
