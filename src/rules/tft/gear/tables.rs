//! The printed equipment tables as const data: weapons, armor, shields.
//!
//! Sources: tft-rules-summary.md, "ARMOR AND SHIELDS" and "WEAPONS" (with its sub-tables), and
//! tft-house-rules.txt, "Equipment" (Great Bow, Fine Armor, Shields) and "Lance and Pike Rules".
//! Only facts (numbers, names) are carried over. Order follows the printed tables, house-rule
//! additions last in each group. And a row found by the name a player typed ([`weapon`],
//! [`armor`], [`shield`]).

use super::{
    Armor, ArmorKind, FireRate, GearError, Hands, MaEffect, Shield, ShieldKind, Weapon,
    WeaponDamage, WeaponGroup,
};
use crate::rules::tft::Dice;

/// Every weapon the bot knows, in printed order.
pub fn weapons() -> &'static [Weapon] {
    WEAPONS
}

/// Every body armor, printed rows then fine armor.
pub fn armors() -> &'static [Armor] {
    ARMORS
}

/// Every shield, printed rows then the metal small shield.
pub fn shields() -> &'static [Shield] {
    SHIELDS
}

// The row of a kind: here with the tables, so that the types' module needs none of them.
impl ArmorKind {
    pub fn armor(self) -> &'static Armor {
        // Every kind has exactly one row (tested), so the fallback is never reached.
        armors()
            .iter()
            .find(|a| a.kind == self)
            .unwrap_or(&armors()[0])
    }
}

impl ShieldKind {
    pub fn shield(self) -> &'static Shield {
        // Every kind has exactly one row (tested), so the fallback is never reached.
        shields()
            .iter()
            .find(|s| s.kind == self)
            .unwrap_or(&shields()[0])
    }
}

const fn d(count: u32, adds: i32) -> WeaponDamage {
    WeaponDamage::Dice(Dice::new(count, adds))
}

// A compact constructor keeps each printed row on one line.
#[allow(clippy::too_many_arguments)] // one argument per printed column keeps rows readable
const fn w(
    name: &'static str,
    aliases: &'static [&'static str],
    group: WeaponGroup,
    damage: WeaponDamage,
    st: Option<i32>,
    hands: Hands,
    thrown: bool,
    cost: Option<u32>,
    enc_tenths: Option<u32>,
) -> Weapon {
    Weapon {
        name,
        aliases,
        group,
        damage,
        st,
        hands,
        thrown,
        cost,
        enc_tenths,
        bladed: false,
        fire_rate: None,
        house_rule: false,
    }
}

const fn bladed(mut weapon: Weapon) -> Weapon {
    weapon.bladed = true;
    weapon
}

const fn firing(mut weapon: Weapon, rate: FireRate) -> Weapon {
    weapon.fire_rate = Some(rate);
    weapon
}

const fn house(mut weapon: Weapon) -> Weapon {
    weapon.house_rule = true;
    weapon
}

use Hands::{One, Two};
use WeaponGroup::{AxeMace, Lance, Missile, Pole, Specialty, SwordKnife};

/// Every weapon, in the order of the printed tables. "i" (insignificant) encumbrance and "--"
/// costs are `None`.
#[rustfmt::skip]
pub(super) const WEAPONS: &[Weapon] = &[
    // tft-rules-summary.md, "WEAPONS", SWORDS/KNIVES
    bladed(w("Dagger", &["knife"], SwordKnife, d(1, -1), None, One, true, Some(10), None)),
    bladed(w("Main-Gauche", &[], SwordKnife, d(1, -1), None, One, false, Some(20), None)),
    bladed(w("Rapier", &[], SwordKnife, d(1, 0), Some(9), One, false, Some(40), Some(10))),
    bladed(w("Saber", &["sabre"], SwordKnife, d(2, -2), Some(10), One, false, Some(50), Some(10))),
    bladed(w("Shortsword", &[], SwordKnife, d(2, -1), Some(11), One, false, Some(60), Some(10))),
    bladed(w("Broadsword", &[], SwordKnife, d(2, 0), Some(12), One, false, Some(80), Some(10))),
    bladed(w("Bastard Sword (1H)", &["bastard sword one handed"], SwordKnife, d(2, 1), Some(13), One, false, Some(100), Some(20))),
    bladed(w("Bastard Sword (2H)", &["bastard sword two handed"], SwordKnife, d(3, -2), Some(13), Two, false, Some(100), Some(20))),
    bladed(w("2-Handed Sword", &["two handed sword", "twohander"], SwordKnife, d(3, -1), Some(14), Two, false, Some(120), Some(30))),
    bladed(w("Great Sword", &[], SwordKnife, d(3, 1), Some(16), Two, false, Some(150), Some(30))),
    // AXES/HAMMERS/MACES
    w("Club", &[], AxeMace, d(1, -2), None, One, true, Some(10), None),
    // The printed note gives a club swung with both hands 1d; listed as its own row, as the
    // bastard sword is, so a lookup returns one damage.
    w("Club (2H)", &["two handed club"], AxeMace, d(1, 0), None, Two, true, Some(10), None),
    bladed(w("Hatchet", &[], AxeMace, d(1, 0), Some(9), One, true, Some(15), None)),
    w("Hammer", &[], AxeMace, d(1, 1), Some(10), One, true, Some(25), Some(10)),
    w("Mace", &[], AxeMace, d(2, -1), Some(11), One, true, Some(40), Some(10)),
    bladed(w("Small Ax", &["small axe", "axe", "ax"], AxeMace, d(1, 2), Some(11), One, true, Some(30), Some(10))),
    w("Military Pick", &[], AxeMace, d(2, 0), Some(12), One, false, Some(60), Some(20)),
    w("Morningstar", &[], AxeMace, d(2, 1), Some(13), One, false, Some(100), Some(20)),
    w("Great Hammer", &[], AxeMace, d(2, 2), Some(14), Two, false, Some(110), Some(20)),
    bladed(w("Battle Axe", &["battle ax"], AxeMace, d(3, 0), Some(15), Two, false, Some(130), Some(30))),
    // MISSILE WEAPONS
    w("Thrown Rock", &["rock", "stone"], Missile, d(1, -4), None, One, false, None, None),
    w("Sling", &[], Missile, d(1, -2), None, One, false, Some(7), None),
    firing(w("Short Bow", &[], Missile, d(1, -1), Some(9), Two, false, Some(20), Some(20)), FireRate::TwiceAt { adj_dx: 15, st: None }),
    firing(w("Horse Bow", &[], Missile, d(1, 0), Some(10), Two, false, Some(30), Some(20)), FireRate::TwiceAt { adj_dx: 16, st: None }),
    firing(w("Longbow", &[], Missile, d(1, 2), Some(11), Two, false, Some(40), Some(20)), FireRate::TwiceAt { adj_dx: 18, st: None }),
    firing(w("Light Crossbow", &["crossbow"], Missile, d(2, 0), Some(12), Two, false, Some(50), Some(20)), FireRate::Reload { turns: 2, fast_turns: 1, adj_dx: 14 }),
    firing(w("Heavy Crossbow", &[], Missile, d(3, 0), Some(15), Two, false, Some(60), Some(50)), FireRate::Reload { turns: 3, fast_turns: 2, adj_dx: 16 }),
    // tft-house-rules.txt, "Great Bow": 2d, ST 14, 2.5 kg, $55; twice a turn at adjDX 18 and ST 16.
    house(firing(w("Great Bow", &[], Missile, d(2, 0), Some(14), Two, false, Some(55), Some(25)), FireRate::TwiceAt { adj_dx: 18, st: Some(16) })),
    // POLE WEAPONS
    w("Javelin", &[], Pole, d(1, -1), Some(9), One, true, Some(20), Some(10)),
    w("Spear", &[], Pole, d(1, 0), Some(11), One, true, Some(40), Some(20)),
    bladed(w("Halberd", &[], Pole, d(2, 0), Some(13), Two, false, Some(70), Some(20))),
    w("Trident", &[], Pole, d(1, 0), Some(10), One, true, Some(30), Some(20)),
    bladed(w("Pike Axe", &[], Pole, d(2, 2), Some(15), Two, false, Some(100), Some(30))),
    // tft-house-rules.txt, "Lance and Pike Rules": the pike jabs for 1d+1 (its charge damages
    // are in the damage module). No ST, cost or weight is printed.
    house(w("Pike", &[], Pole, d(1, 1), None, Two, false, None, None)),
    // SPECIALTY WEAPONS
    w("Quarterstaff", &["staff"], Specialty, d(1, 2), Some(11), Two, false, Some(10), Some(10)),
    w("Net", &[], Specialty, d(1, -3), Some(10), One, true, Some(20), Some(10)),
    w("Cestus", &["cesti"], Specialty, d(1, -1), None, One, false, Some(15), None),
    w("Whip", &[], Specialty, d(1, -1), Some(8), One, false, Some(25), Some(10)),
    w("Boomerang", &[], Specialty, d(2, 0), Some(11), One, true, Some(15), Some(10)),
    w("Nunchuks", &["nunchaku"], Specialty, d(1, 1), Some(8), One, false, Some(30), Some(10)),
    w("Torch", &[], Specialty, d(1, -2), None, One, false, Some(1), None),
    w("Molotail", &["molotov"], Specialty, WeaponDamage::Special, None, One, true, Some(20), None),
    w("Bola", &["bolas"], Specialty, WeaponDamage::Special, Some(9), One, true, Some(15), None),
    // Decision: the OCR prints the sha-ken's damage as "1-2"; read as 1d-2, the only dice
    // notation those characters can come from.
    w("Sha-ken", &["throwing star", "shuriken"], Specialty, d(1, -2), None, One, true, Some(3), None),
    // tft-rules-summary.md, "ARMOR AND SHIELDS": a spike shield strikes as a weapon for 1d-2.
    w("Spike Shield", &["spiked shield"], Specialty, d(1, -2), None, One, false, Some(40), Some(60)),
    // tft-house-rules.txt, "Lance and Pike Rules": ST 13, jabs for 2d-2.
    house(w("Lance", &[], Lance, d(2, -2), Some(13), One, false, None, None)),
];

/// Body armor, printed rows then the house rules' fine armor.
#[rustfmt::skip]
pub(super) const ARMORS: &[Armor] = &[
    // tft-rules-summary.md, "ARMOR AND SHIELDS": AD, DX adj, cost, enc, MA.
    Armor { kind: ArmorKind::Cloth, name: "Cloth Armor", stops: 1, dx: -1, ma: MaEffect::SetTo(10), cost: 50, enc_tenths: 70 },
    Armor { kind: ArmorKind::Leather, name: "Leather Armor", stops: 2, dx: -2, ma: MaEffect::SetTo(8), cost: 100, enc_tenths: 80 },
    Armor { kind: ArmorKind::Chainmail, name: "Chainmail", stops: 3, dx: -3, ma: MaEffect::SetTo(6), cost: 200, enc_tenths: 150 },
    Armor { kind: ArmorKind::HalfPlate, name: "Half-plate", stops: 4, dx: -4, ma: MaEffect::SetTo(6), cost: 300, enc_tenths: 200 },
    Armor { kind: ArmorKind::Plate, name: "Plate Armor", stops: 5, dx: -6, ma: MaEffect::SetTo(6), cost: 500, enc_tenths: 250 },
    // tft-house-rules.txt, "Fine Armor".
    Armor { kind: ArmorKind::FineChainmail, name: "Fine Chainmail", stops: 3, dx: -2, ma: MaEffect::BelowTable(2), cost: 2000, enc_tenths: 120 },
    Armor { kind: ArmorKind::FineHalfPlate, name: "Fine Half-Plate", stops: 5, dx: -4, ma: MaEffect::BelowTable(4), cost: 3500, enc_tenths: 200 },
    Armor { kind: ArmorKind::FinePlate, name: "Fine Plate", stops: 6, dx: -4, ma: MaEffect::BelowTable(4), cost: 5000, enc_tenths: 250 },
];

/// Shields, printed rows then the house rules' metal small shield.
#[rustfmt::skip]
pub(super) const SHIELDS: &[Shield] = &[
    // tft-rules-summary.md, "ARMOR AND SHIELDS": AD, DX adj, cost, enc.
    Shield { kind: ShieldKind::Small, name: "Small Shield", stops: 1, dx: 0, cost: 30, enc_tenths: 50, split_factor: 15 },
    Shield { kind: ShieldKind::Spike, name: "Spike Shield", stops: 1, dx: 0, cost: 40, enc_tenths: 60, split_factor: 15 },
    Shield { kind: ShieldKind::Large, name: "Large Shield", stops: 2, dx: -1, cost: 50, enc_tenths: 100, split_factor: 15 },
    Shield { kind: ShieldKind::Tower, name: "Tower Shield", stops: 3, dx: -2, cost: 70, enc_tenths: 150, split_factor: 15 },
    // tft-house-rules.txt, "Shields": metal small shield, $45, 7 kg, splits after 20x.
    Shield { kind: ShieldKind::MetalSmall, name: "Metal Small Shield", stops: 1, dx: 0, cost: 45, enc_tenths: 70, split_factor: 20 },
];

// ---------------------------------------------------------------------------------------------
// Lookup

/// Lowercase letters and digits only: "Bastard Sword (2H)" and "bastard-sword 2h" match.
pub(super) fn normalize(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Finds an item by a typed name: an exact name or alias first, else the one item whose name
/// or alias starts with what was typed, else the one that contains it. `None` if nothing matches, `Err` with the candidates if
/// several do.
fn find<T>(
    items: &'static [T],
    given: &str,
    names: impl Fn(&T) -> Vec<&'static str>,
    label: impl Fn(&T) -> &'static str,
) -> Result<Option<&'static T>, GearError> {
    let key = normalize(given);
    if key.is_empty() {
        return Ok(None);
    }
    if let Some(hit) = items
        .iter()
        .find(|item| names(item).iter().any(|n| normalize(n) == key))
    {
        return Ok(Some(hit));
    }
    let matching = |test: &dyn Fn(&str) -> bool| -> Vec<&'static T> {
        items
            .iter()
            .filter(|item| names(item).iter().any(|n| test(&normalize(n))))
            .collect()
    };
    let mut partial = matching(&|n| n.starts_with(&key));
    if partial.is_empty() {
        partial = matching(&|n| n.contains(&key));
    }
    match partial.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        many => Err(GearError::Ambiguous {
            given: given.to_owned(),
            matches: many.iter().map(|i| label(i)).collect(),
        }),
    }
}

/// The weapon a player named ("broadsword", "Bastard Sword 2H", "great bow").
pub fn weapon(name: &str) -> Result<&'static Weapon, GearError> {
    find(
        weapons(),
        name,
        |w| {
            std::iter::once(w.name)
                .chain(w.aliases.iter().copied())
                .collect()
        },
        |w| w.name,
    )?
    .ok_or_else(|| GearError::UnknownWeapon(name.to_owned()))
}

/// The body armor a player named ("chain", "fine plate").
pub fn armor(name: &str) -> Result<&'static Armor, GearError> {
    find(
        armors(),
        name,
        |a| vec![a.name, armor_alias(a.kind)],
        |a| a.name,
    )?
    .ok_or_else(|| GearError::UnknownArmor(name.to_owned()))
}

fn armor_alias(kind: ArmorKind) -> &'static str {
    match kind {
        ArmorKind::Cloth => "cloth",
        ArmorKind::Leather => "leather",
        ArmorKind::Chainmail => "chain mail",
        ArmorKind::HalfPlate => "half plate armor",
        ArmorKind::Plate => "plate",
        ArmorKind::FineChainmail => "fine chain mail",
        ArmorKind::FineHalfPlate => "fine half plate armor",
        ArmorKind::FinePlate => "fine plate armor",
    }
}

/// The shield a player named ("large", "tower shield").
pub fn shield(name: &str) -> Result<&'static Shield, GearError> {
    find(shields(), name, |s| vec![s.name], |s| s.name)?
        .ok_or_else(|| GearError::UnknownShield(name.to_owned()))
}
