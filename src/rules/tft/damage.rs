//! Damage: what a blow rolls, what stops it, and the hits that get through.
//!
//! Owns the ST DAMAGE table (tft-rules-summary.md), weapon damage with charges, fine bonuses
//! and the lance and pike (tft-house-rules.txt, "Pole Weapons", "Fine Weapons", "Lance and
//! Pike Rules"), the double/triple-damage house rule and its fallback to plain multiplication
//! (tft-house-rules-combat.txt, "Double or Triple Damage"; /work/shared/rules/README.md), Dagger
//! Marksmanship, precise throws, every stop (armor, shield, shield wall, pack, parry, Warrior and
//! Veteran, natural armor), and [`resolve_damage`], the damage side of a whole attack. Shield
//! bash, rush, wall, parrying and defending live in [`shield`]. Never decides whether a blow
//! hits (the attack module does) and never reads a character sheet.

mod error;
pub mod shield;

use crate::rules::dice::DieSource;
use crate::rules::tft::attack::PreciseTarget;
use crate::rules::tft::character::Talent;
use crate::rules::tft::gear::{
    ArmorKind, PACK_ON_BACK_STOPS, Quality, ShieldKind, Weapon, WeaponGroup, Wear,
};
use crate::rules::tft::injury::{self, AfterBlow, HitsApplied, MAX_ST, Struck};
use crate::rules::tft::{Dice, Multiplier};

pub use error::DamageError;
pub use shield::{
    AttackAllowed, BashResult, DefendWith, Parry, ShieldBash, bash_dice, defend_attack, keep_lance,
    parry_attack, shield_bash, shield_wall_stops,
};

// ---------------------------------------------------------------------------------------------
// ST damage

/// The ST DAMAGE table: bare-handed HTH damage by ST (tft-rules-summary.md, "ST DAMAGE"); each
/// row is the highest ST it covers.
///
/// Decision: the printed rows "41 to 50" and "50+" overlap at 50 with the same damage; 51 and
/// above keep 2d+1.
pub const ST_DAMAGE: [(i32, Dice); 11] = [
    (8, Dice::new(1, -4)),
    (10, Dice::new(1, -3)),
    (12, Dice::new(1, -2)),
    (14, Dice::new(1, -1)),
    (16, Dice::new(1, 0)),
    (20, Dice::new(1, 1)),
    (24, Dice::new(1, 2)),
    (30, Dice::new(1, 3)),
    (40, Dice::new(2, 0)),
    (50, Dice::new(2, 1)),
    (i32::MAX, Dice::new(2, 1)),
];

/// Bare-handed HTH damage for a ST.
pub fn st_damage(st: i32) -> Dice {
    ST_DAMAGE
        .iter()
        .find(|(top, _)| st <= *top)
        .map_or(Dice::new(2, 1), |&(_, d)| d)
}

// ---------------------------------------------------------------------------------------------
// The blow

/// A charge, for the weapons that care (tft-house-rules-combat.txt, "Pole Weapons";
/// tft-house-rules.txt, "Lance and Pike Rules").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Charge {
    #[default]
    None,
    /// Striking at the end of a charge. A lance's damage doubles (the target dead ahead).
    Charging,
    /// A mounted lance charge at a target not directly in front of the mount: no doubling.
    ChargingOffCentre,
    /// Receiving a charge on foot.
    Receiving,
    /// Receiving a mounted charge (the pike does 1d+3 doubled).
    ReceivingRider,
}

/// What strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Striker {
    Weapon {
        weapon: &'static Weapon,
        quality: Quality,
        charge: Charge,
    },
    /// Bare hands, by the ST DAMAGE table.
    BareHands,
    /// Any other dice (a spell, a creature's bite): no ST or weapon rules.
    Dice(Dice),
}

/// A precise throw at a part of the body (tft-rules-summary.md, "PRECISE ATTACKS", THROWN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Precise {
    #[default]
    None,
    /// -6 DX: no armor defense at all, damage doubled.
    Head,
    /// -6 DX: normal damage, the item in hand is dropped; shields and armor lighter than chain
    /// do not count.
    Hand,
}

impl Precise {
    /// What an aimed blow does to the damage side: only the thrown head and hand rows of the
    /// precise-attack table change the stops and the doubling; the other rows act on the hits
    /// that get through (see [`PreciseTarget::effects`]). The DX of every row is the table's.
    pub fn of(target: PreciseTarget) -> Self {
        match target {
            PreciseTarget::ThrownHead => Self::Head,
            PreciseTarget::ThrownHand => Self::Hand,
            _ => Self::None,
        }
    }
}

/// The attacking side of a blow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blow {
    pub striker: Striker,
    /// From the attack roll (3 triple, 4 double, Fencing hits, good shots).
    pub multiplier: Multiplier,
    pub attacker_st: i32,
    pub precise: Precise,
    /// The throw earns Dagger Marksmanship's real doubling (tft-house-rules-combat.txt,
    /// "Dagger Marksmanship": an exception to the double/triple rule).
    pub dagger_marksmanship: bool,
    /// A halfling's extra point, added after any doubling.
    pub halfling: bool,
}

impl Blow {
    /// A plain blow with a weapon.
    pub fn weapon(weapon: &'static Weapon, attacker_st: i32, multiplier: Multiplier) -> Self {
        Self {
            striker: Striker::Weapon {
                weapon,
                quality: Quality::Plain,
                charge: Charge::None,
            },
            multiplier,
            attacker_st,
            precise: Precise::None,
            dagger_marksmanship: false,
            halfling: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The defence

/// Where the blow comes from, relative to the target's facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Direction {
    #[default]
    Front,
    Side,
    Rear,
}

/// Warrior and Veteran: hits stopped by toughness, which even double damage respects.
///
/// Decision: the sources name the talents but not their numbers; In the Labyrinth's are used
/// (Warrior stops 1 hit, Veteran 2 in all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Toughness {
    #[default]
    None,
    Warrior,
    Veteran,
}

impl Toughness {
    /// The toughness a figure's talents give it: Veteran over Warrior, and Toughness counted as
    /// Warrior.
    ///
    /// Decision: tft-rules-summary.md names a "Toughness talent" that adds to AD, and the house
    /// rules name Warrior and Veteran; none gives a number. Toughness is read as Warrior under
    /// its later name (1 hit), and the talents do not add up: the best one counts.
    pub fn of_talents(talents: &[Talent]) -> Self {
        if talents.contains(&Talent::Veteran) {
            Self::Veteran
        } else if talents.contains(&Talent::Warrior) || talents.contains(&Talent::Toughness) {
            Self::Warrior
        } else {
            Self::None
        }
    }

    pub fn stops(self) -> i32 {
        match self {
            Self::None => 0,
            Self::Warrior => 1,
            Self::Veteran => 2,
        }
    }
}

/// Everything between the blow and the target's ST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Defence {
    pub armor: Option<ArmorKind>,
    pub armor_wear: Wear,
    pub shield: Option<ShieldKind>,
    /// Neighbours in a shield wall (each adds a stop to the shield).
    pub shield_wall_neighbours: u32,
    pub pack_on_back: bool,
    pub parry: Parry,
    pub toughness: Toughness,
    /// Natural armor plus Stone or Iron Flesh: halved by double and triple damage.
    pub natural: i32,
    pub direction: Direction,
}

/// Where a stop comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopSource {
    Armor(ArmorKind),
    Shield(ShieldKind),
    ShieldWall,
    PackOnBack,
    Parry(Parry),
    Toughness(Toughness),
    Natural,
}

/// Why a stop counted as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopRule {
    Full,
    /// Worn armor stops fewer.
    Worn(Wear),
    /// Double or triple damage ignores armor and shields (house rule).
    IgnoredByMultiplier,
    /// Double or triple damage: natural armor and flesh spells stop half, rounded down.
    HalvedByMultiplier,
    /// Shields and parries do not face the rear; a pack only faces it.
    WrongSide,
    /// A precise throw passes it.
    IgnoredByPreciseThrow,
}

/// One stop, listed whether or not it counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    pub source: StopSource,
    pub printed: i32,
    pub counted: i32,
    pub rule: StopRule,
}

/// A die rolled again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reroll {
    pub index: usize,
    pub was: u32,
    pub now: u32,
}

/// The damage of one blow, every number shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageRoll {
    /// The dice rolled, charge bonus, fine bonus and the triple's extra die included.
    pub dice: Dice,
    /// The faces that count, after any rerolls.
    pub faces: Vec<u32>,
    pub rerolls: Vec<Reroll>,
    /// Faces plus adds, at least 0.
    pub roll: i32,
    /// The multiplier the blow carried, after weapon rules (lance, pike) raised it.
    pub multiplier: Multiplier,
    /// What the roll was really multiplied by.
    pub factor: i32,
    /// Points added after multiplying (a halfling's).
    pub added_after: i32,
    pub before_armor: i32,
    pub stops: Vec<Stop>,
    pub stopped: i32,
    pub hits: i32,
    /// The house rule's treatment of double/triple applied (false: plain multiplication).
    pub house_rules: bool,
}

fn check_st(st: i32) -> Result<i32, DamageError> {
    if (1..=MAX_ST).contains(&st) {
        Ok(st)
    } else {
        Err(DamageError::St(st))
    }
}

/// The dice a striker rolls before the multiplier, and whether its own rules double it.
///
/// House rules, "Pole Weapons": a pole weapon charging or receiving a charge adds 1d+1 and
/// loses any fine damage bonus. "Lance and Pike Rules": the lance does 2d doubled charging
/// (dead ahead), the pike 2d+2 receiving a charge on foot and 1d+3 doubled against a rider.
pub fn striker_dice(striker: &Striker, attacker_st: i32) -> Result<(Dice, bool), DamageError> {
    let (weapon, quality, charge) = match *striker {
        Striker::BareHands => return Ok((st_damage(attacker_st), false)),
        Striker::Dice(d) => return Ok((d, false)),
        Striker::Weapon {
            weapon,
            quality,
            charge,
        } => (weapon, quality, charge),
    };
    quality.check(weapon)?;
    if let Some(needs) = weapon.st
        && attacker_st < needs
    {
        return Err(DamageError::TooWeak {
            weapon: weapon.name,
            needs,
            st: attacker_st,
        });
    }
    let base = weapon.dice().ok_or(DamageError::NoDice(weapon.name))?;
    let fine = base.plus(quality.damage_bonus());
    let charged = Dice::new(base.count + 1, base.adds + 1);
    Ok(match (weapon.group, charge) {
        (WeaponGroup::Lance, Charge::Charging) => (Dice::new(2, 0), true),
        (WeaponGroup::Lance, Charge::ChargingOffCentre) => (Dice::new(2, 0), false),
        _ if weapon.is_pike() => match charge {
            Charge::None => (fine, false),
            Charge::Charging | Charge::ChargingOffCentre => {
                return Err(DamageError::PikeCannotCharge);
            }
            Charge::Receiving => (Dice::new(2, 2), false),
            Charge::ReceivingRider => (Dice::new(1, 3), true),
        },
        (WeaponGroup::Pole, Charge::None) => (fine, false),
        (WeaponGroup::Pole, _) => (charged, false),
        _ => (fine, false),
    })
}

/// Without the house rules, a pole weapon charging or receiving a charge does double damage, as
/// in the original rules that tft-house-rules-combat.txt, "Pole Weapons" replaces with +1d+1.
/// Returns the dice to double, or `None` when the blow is no such charge.
///
/// Decision: with the house rules off, the house rules' pike and lance keep their own charge
/// rules (they exist only in the house rules), and a fine weapon's damage bonus is doubled with
/// its dice (the house rule that leaves it out of a charge is off too).
fn original_pole_charge(striker: &Striker) -> Option<Dice> {
    match *striker {
        Striker::Weapon {
            weapon,
            quality,
            charge,
        } if weapon.group == WeaponGroup::Pole && !weapon.is_pike() && charge != Charge::None => {
            Some(weapon.dice()?.plus(quality.damage_bonus()))
        }
        _ => None,
    }
}

/// Lists every stop and what it counts for against this blow. `house_special` is a double or
/// triple blow under the house rule (armor and shields ignored, natural armor halved).
///
/// Decision: the sources do not say which way shields face; as in the original game a shield
/// (and a parry, and a shield wall) guards the front and sides, not the rear. Decision: the
/// precise head throw's "no AD" passes every stop, Warrior and Veteran included, since the
/// summary counts toughness in AD.
fn stops(defence: &Defence, house_special: bool, precise: Precise) -> Vec<Stop> {
    let rear = defence.direction == Direction::Rear;
    let head = precise == Precise::Head;
    let hand = precise == Precise::Hand;
    // Armor, shields, packs and parries share one order of precedence for the reason shown.
    let worn_or_carried = |printed: i32, faces: bool, precise_passes: bool| {
        if !faces {
            (StopRule::WrongSide, 0)
        } else if precise_passes {
            (StopRule::IgnoredByPreciseThrow, 0)
        } else if house_special {
            (StopRule::IgnoredByMultiplier, 0)
        } else {
            (StopRule::Full, printed)
        }
    };
    let mut out = Vec::new();
    let mut push = |source, printed: i32, (rule, counted): (StopRule, i32)| {
        if printed > 0 {
            out.push(Stop {
                source,
                printed,
                counted,
                rule,
            });
        }
    };
    if let Some(kind) = defence.armor {
        let armor = kind.armor();
        let passes = head || (hand && !kind.chain_or_heavier());
        let mut verdict = worn_or_carried(armor.stops, true, passes);
        if verdict.0 == StopRule::Full && defence.armor_wear != Wear::Sound {
            verdict = (
                StopRule::Worn(defence.armor_wear),
                armor.stops_when(defence.armor_wear),
            );
        }
        push(StopSource::Armor(kind), armor.stops, verdict);
    }
    if let Some(kind) = defence.shield {
        let printed = kind.shield().stops;
        push(
            StopSource::Shield(kind),
            printed,
            worn_or_carried(printed, !rear, head || hand),
        );
        let wall = defence.shield_wall_neighbours as i32;
        push(
            StopSource::ShieldWall,
            wall,
            worn_or_carried(wall, !rear, head || hand),
        );
    }
    if defence.pack_on_back {
        push(
            StopSource::PackOnBack,
            PACK_ON_BACK_STOPS,
            worn_or_carried(PACK_ON_BACK_STOPS, rear, head),
        );
    }
    let parry = defence.parry.stops();
    push(
        StopSource::Parry(defence.parry),
        parry,
        worn_or_carried(parry, !rear, head || hand),
    );
    let tough = defence.toughness.stops();
    let verdict = if head {
        (StopRule::IgnoredByPreciseThrow, 0)
    } else {
        (StopRule::Full, tough)
    };
    push(StopSource::Toughness(defence.toughness), tough, verdict);
    let verdict = if head {
        (StopRule::IgnoredByPreciseThrow, 0)
    } else if house_special {
        (StopRule::HalvedByMultiplier, defence.natural / 2)
    } else {
        (StopRule::Full, defence.natural)
    };
    push(StopSource::Natural, defence.natural, verdict);
    out
}

/// Whether the target counts as unarmored for the house rule's reroll of 1s: nothing but
/// Warrior or Veteran stands in the way from this side.
///
/// Decision: a pack (from the rear), a parry, a shield wall and natural armor or flesh spells
/// all count as armor here; worn-out armor that stops nothing still counts as worn.
fn unarmored(defence: &Defence) -> bool {
    stops(defence, false, Precise::None)
        .iter()
        .all(|s| matches!(s.source, StopSource::Toughness(_)) || s.rule == StopRule::WrongSide)
}

fn check_dice(d: Dice) -> Result<Dice, DamageError> {
    if (1..=100).contains(&d.count) && (-1000..=1000).contains(&d.adds) {
        Ok(d)
    } else {
        Err(DamageError::Dice(d))
    }
}

/// Rolls a blow's damage and takes off every stop.
///
/// With `house_rules` (tft-house-rules-combat.txt, "Double or Triple Damage"), double and
/// triple damage are not multiplied: armor, shields (and the parries and walls made with them)
/// are ignored, natural armor and Stone/Iron Flesh stop half (rounded down), Warrior and
/// Veteran stop in full, triple adds 1d, and 1s are rolled again against a target with nothing
/// but Warrior or Veteran. Without house rules the roll is multiplied by 2 or 3 and every stop
/// counts (README.md, "Double and triple damage").
///
/// Decision: weapon rules that double (lance, pike against a rider) raise the multiplier to
/// Double; a rolled Triple still wins, and multipliers never stack. Decision: each 1 is rolled
/// again once and the new face stands, even another 1. Decision: Dagger Marksmanship is read
/// with the precise head throw it belongs to: that throw's doubling is real (×2 on the roll,
/// whatever the house rules); without the talent the house rules treat it as double damage.
/// A rolled multiplier is then treated as above (so plain rules multiply both).
pub fn roll_damage(
    dice: &mut impl DieSource,
    blow: &Blow,
    defence: &Defence,
    house_rules: bool,
) -> Result<DamageRoll, DamageError> {
    let st = check_st(blow.attacker_st)?;
    if !(0..=100).contains(&defence.natural) {
        return Err(DamageError::Natural(defence.natural));
    }
    if defence.shield_wall_neighbours > 6 {
        return Err(DamageError::Neighbours(defence.shield_wall_neighbours));
    }
    defence.parry.check(defence.shield)?;
    let (mut to_roll, mut weapon_doubles) = striker_dice(&blow.striker, st)?;
    if !house_rules && let Some(dice) = original_pole_charge(&blow.striker) {
        to_roll = dice;
        weapon_doubles = true;
    }
    let mut multiplier = if weapon_doubles {
        blow.multiplier.max(Multiplier::Double)
    } else {
        blow.multiplier
    };
    // The precise head throw "doubles" damage (tft-rules-summary.md, "PRECISE ATTACKS"). Under
    // the house rules that doubling is the house kind, unless Dagger Marksmanship makes it real.
    let mut factor = 1;
    if blow.dagger_marksmanship {
        factor = 2;
    } else if blow.precise == Precise::Head {
        if house_rules {
            multiplier = multiplier.max(Multiplier::Double);
        } else {
            factor = 2;
        }
    }
    let special = multiplier != Multiplier::Normal;
    if house_rules {
        if multiplier == Multiplier::Triple {
            to_roll.count += 1;
        }
    } else {
        factor *= match multiplier {
            Multiplier::Normal => 1,
            Multiplier::Double => 2,
            Multiplier::Triple => 3,
        };
    }
    let to_roll = check_dice(to_roll)?;
    let mut faces = dice.d6s(to_roll.count);
    let mut rerolls = Vec::new();
    if house_rules && special && unarmored(defence) {
        for (index, face) in faces.iter_mut().enumerate() {
            if *face == 1 {
                let now = dice.roll(6);
                rerolls.push(Reroll { index, was: 1, now });
                *face = now;
            }
        }
    }
    let roll = (faces.iter().sum::<u32>() as i32 + to_roll.adds).max(0);
    let added_after = i32::from(blow.halfling);
    let before_armor = roll * factor + added_after;
    let list = stops(defence, house_rules && special, blow.precise);
    let stopped: i32 = list.iter().map(|s| s.counted).sum();
    Ok(DamageRoll {
        dice: to_roll,
        faces,
        rerolls,
        roll,
        multiplier,
        factor,
        added_after,
        before_armor,
        stops: list,
        stopped,
        hits: (before_armor - stopped).max(0),
        house_rules,
    })
}

/// Hits from several sources in one turn that armor meets as one total (tft-house-rules.txt,
/// "Wall of Fire": the fire's hits add up within a turn and armor stops once against the sum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PooledHits {
    pub total: i32,
    pub stopped: i32,
    pub hits: i32,
}

/// Adds up `parts` and takes `stops` off the total once.
pub fn pooled_hits(parts: &[i32], stops: i32) -> PooledHits {
    let total: i32 = parts.iter().map(|p| p.max(&0)).sum();
    let stopped = stops.clamp(0, total);
    PooledHits {
        total,
        stopped,
        hits: total - stopped,
    }
}

// ---------------------------------------------------------------------------------------------
// The whole damage side of an attack

/// The target as the damage side needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub defence: Defence,
    /// Full ST: the reaction band, the powerful-blow threshold and the knockdown saves.
    pub st: i32,
    /// ST left before this blow.
    pub st_left: i32,
    /// Hits already taken this round.
    pub earlier_hits: i32,
    /// With Acrobatics, its adjDX for the knockdown saves.
    pub acrobatics_adj_dx: Option<i32>,
}

/// Damage, hits applied, and what the blow does after it lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageResolution {
    pub damage: DamageRoll,
    pub applied: HitsApplied,
    pub after: AfterBlow,
}

/// The damage side of a hit: rolls damage, applies it, and works out the reaction to injury,
/// knockdown and any knockdown save (dice in that order: damage, rerolls, save).
///
/// The to-hit side passes the `multiplier` it rolled; a lance charge also calls for the
/// lance's 4d/ST knockdown save (tft-house-rules.txt, "Lance and Pike Rules").
pub fn resolve_damage(
    dice: &mut impl DieSource,
    blow: &Blow,
    target: &Target,
    house_rules: bool,
) -> Result<DamageResolution, DamageError> {
    let damage = roll_damage(dice, blow, &target.defence, house_rules)?;
    let applied = injury::apply_hits(target.st_left, damage.hits)?;
    let lance = matches!(
        blow.striker,
        Striker::Weapon {
            weapon: Weapon {
                group: WeaponGroup::Lance,
                ..
            },
            charge: Charge::Charging | Charge::ChargingOffCentre,
            ..
        }
    );
    // tft-house-rules-combat.txt, "Knockdown": the saves against a strong attacker and a
    // powerful blow are house rules. Without them only the reaction table (and a lance, by its
    // own rule) knocks a figure down, so neither number is passed on.
    let attacker_st = match blow.striker {
        Striker::Dice(_) => None,
        _ if !house_rules => None,
        _ => Some(blow.attacker_st),
    };
    let before_armor_for_save = if house_rules { damage.before_armor } else { 0 };
    let struck = Struck {
        st: target.st,
        earlier_hits: target.earlier_hits,
        acrobatics_adj_dx: target.acrobatics_adj_dx,
    };
    let after = injury::after_blow_by(
        dice,
        &struck,
        damage.hits,
        before_armor_for_save,
        attacker_st,
        lance,
        house_rules,
    )?;
    Ok(DamageResolution {
        damage,
        applied,
        after,
    })
}

#[cfg(test)]
mod tests;
