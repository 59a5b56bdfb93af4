//! Weapons, armor and shields: the printed tables, their lookup by a typed name, and what wears
//! them out.
//!
//! Owns the weapon, armor and shield data (tft-rules-summary.md, "ARMOR AND SHIELDS" and
//! "WEAPONS"; tft-house-rules.txt, "Equipment": Great Bow, fine and good weapons, fine armor,
//! repairing armor, shields; "Lance and Pike Rules"), weapon quality (fine/good: extra damage,
//! price, the breakage die), armor wear and shield splitting. Never rolls damage (the damage
//! module does) and never knows about a character sheet: callers pass names and numbers.

mod tables;

pub use tables::{armor, armors, shield, shields, weapon, weapons};

use crate::rules::dice::DieSource;
use crate::rules::tft::Dice;

/// A mistake in a piece of gear a player named or described.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GearError {
    #[error("there is no weapon called \"{0}\"")]
    UnknownWeapon(String),
    #[error("\"{given}\" could be any of: {}; say which", .matches.join(", "))]
    Ambiguous {
        given: String,
        matches: Vec<&'static str>,
    },
    #[error(
        "there is no armor called \"{0}\" (cloth, leather, chainmail, half-plate, plate, or fine chainmail/half-plate/plate)"
    )]
    UnknownArmor(String),
    #[error("there is no shield called \"{0}\" (small, spike, large, tower, metal small)")]
    UnknownShield(String),
    #[error(
        "a {weapon} cannot be made finely: only axes, maces, hammers, swords and pole weapons can"
    )]
    NotFineable { weapon: &'static str },
    #[error("a fine {weapon} can only be given +1 DX, not extra damage")]
    NoFineDamage { weapon: &'static str },
    #[error("silver only changes the price of a fine weapon")]
    SilverNotFine,
}

/// Which table (and so which skills and rules) a weapon belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponGroup {
    SwordKnife,
    AxeMace,
    Missile,
    Pole,
    Specialty,
    /// The house rules' lance, a mounted weapon with its own charge rule.
    Lance,
}

/// One hand or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hands {
    One,
    Two,
}

/// What a weapon rolls for damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponDamage {
    Dice(Dice),
    /// No dice of its own (molotail: fire; bola: entangles); see the weapon's description.
    Special,
}

/// How often a missile weapon shoots, by the printed notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FireRate {
    /// One shot a turn, two at or above this adjDX (and ST, for the Great Bow).
    TwiceAt { adj_dx: i32, st: Option<i32> },
    /// One shot every `turns` turns, every `fast_turns` at or above this adjDX (crossbows).
    Reload {
        turns: u32,
        fast_turns: u32,
        adj_dx: i32,
    },
}

impl FireRate {
    /// Whether the faster rate applies for this archer (thresholds are "or more").
    pub fn fast(&self, adj_dx: i32, st: i32) -> bool {
        match *self {
            Self::TwiceAt {
                adj_dx: need,
                st: need_st,
            } => adj_dx >= need && need_st.is_none_or(|s| st >= s),
            Self::Reload { adj_dx: need, .. } => adj_dx >= need,
        }
    }
}

/// One weapon row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weapon {
    pub name: &'static str,
    /// Other names a player may type (compared after normalizing, see [`weapon`]).
    pub aliases: &'static [&'static str],
    pub group: WeaponGroup,
    pub damage: WeaponDamage,
    /// The ST needed to wield it; `None` where the table prints "--" or nothing.
    pub st: Option<i32>,
    pub hands: Hands,
    /// Marked "may be thrown" in the table.
    pub thrown: bool,
    /// Price in dollars; `None` where none is printed.
    pub cost: Option<u32>,
    /// Encumbrance (kg) in tenths; `None` for "i" (insignificant) or unprinted.
    pub enc_tenths: Option<u32>,
    /// Has an edge, so a fine one may be made to do extra damage.
    pub bladed: bool,
    pub fire_rate: Option<FireRate>,
    /// Comes from tft-house-rules.txt rather than the summary's tables.
    pub house_rule: bool,
}

impl Weapon {
    /// A pole weapon: the charge bonus and setting against a charge apply.
    pub fn is_pole(&self) -> bool {
        self.group == WeaponGroup::Pole
    }

    pub fn is_missile(&self) -> bool {
        self.group == WeaponGroup::Missile
    }

    /// Whether this is the house rules' pike (its charges have their own damages).
    pub fn is_pike(&self) -> bool {
        self.name == "Pike"
    }

    /// The dagger and main-gauche: fine only for +1 DX.
    pub fn is_knife(&self) -> bool {
        matches!(self.name, "Dagger" | "Main-Gauche")
    }

    /// Whether a figure with the Two Weapons talent and this ST may hold it as its second
    /// weapon: one-handed, needing at most one ST less than the figure has (tft-house-rules.txt,
    /// "Two Weapons").
    pub fn second_weapon_for(&self, st: i32) -> bool {
        self.hands == Hands::One && self.st.unwrap_or(0) < st
    }

    /// The damage dice, if the weapon has any.
    pub fn dice(&self) -> Option<Dice> {
        match self.damage {
            WeaponDamage::Dice(d) => Some(d),
            WeaponDamage::Special => None,
        }
    }
}

/// Which body armor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArmorKind {
    Cloth,
    Leather,
    Chainmail,
    HalfPlate,
    Plate,
    FineChainmail,
    FineHalfPlate,
    FinePlate,
}

impl ArmorKind {
    /// Metal armor can be repaired; cloth and leather cannot.
    pub fn is_metal(self) -> bool {
        !matches!(self, Self::Cloth | Self::Leather)
    }

    pub fn is_fine(self) -> bool {
        matches!(
            self,
            Self::FineChainmail | Self::FineHalfPlate | Self::FinePlate
        )
    }

    /// The printed armor a fine one is made as (itself for printed armor): what a table
    /// without the house rules reads (tft-house-rules.txt, "Fine Armor").
    pub fn plain(self) -> Self {
        match self {
            Self::FineChainmail => Self::Chainmail,
            Self::FineHalfPlate => Self::HalfPlate,
            Self::FinePlate => Self::Plate,
            other => other,
        }
    }

    /// Chainmail or heavier (the precise hand throw ignores anything lighter).
    pub fn chain_or_heavier(self) -> bool {
        self.is_metal()
    }
}

/// The MA tft-rules-summary.md's armor table is printed for: cloth armor's "10" changes nothing.
pub const TABLE_MA: i32 = 10;

/// How armor changes movement: the summary's table gives the MA a wearer ends with at most, the
/// fine armor of the house rules a penalty from the table's [`TABLE_MA`].
// Decision: tft-rules-summary.md's armor table prints the MA a wearer ends with (cloth 10,
// leather 8, chainmail to plate 6), figures for an MA of 10, while its secondary attributes make
// MA DX/2; tft-house-rules.txt, "Fine Armor", prints fine armor as "-2 MA" and "-4 MA", the very
// steps down from 10 that leather and plate take. The penalty is read on the table's scale, as
// the most MA the wearer keeps (fine chainmail 8, fine half-plate and fine plate 6), not taken
// off a DX/2 MA: fine plate on DX 12 (MA 6) leaves MA 6, as plate does, not 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaEffect {
    /// The summary's column: the MA the wearer ends with at most.
    SetTo(i32),
    /// The house rules' "-n MA", counted from [`TABLE_MA`].
    BelowTable(i32),
}

impl MaEffect {
    /// The most MA a wearer keeps.
    pub fn limit(self) -> i32 {
        match self {
            Self::SetTo(ma) => ma,
            Self::BelowTable(n) => TABLE_MA - n,
        }
    }
}

/// One body armor row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Armor {
    pub kind: ArmorKind,
    pub name: &'static str,
    /// Hits stopped per blow (AD).
    pub stops: i32,
    pub dx: i32,
    pub ma: MaEffect,
    pub cost: u32,
    pub enc_tenths: u32,
}

/// Which shield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShieldKind {
    Small,
    Spike,
    Large,
    Tower,
    MetalSmall,
}

impl ShieldKind {
    /// The printed shield a metal one stands for (itself for printed shields): what a table
    /// without the house rules reads (tft-house-rules.txt, "Shields").
    pub fn plain(self) -> Self {
        match self {
            Self::MetalSmall => Self::Small,
            other => other,
        }
    }

    /// The small kinds (small, spike, metal small) parry and defend with the small penalties.
    pub fn is_small(self) -> bool {
        matches!(self, Self::Small | Self::Spike | Self::MetalSmall)
    }
}

/// One shield row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shield {
    pub kind: ShieldKind,
    pub name: &'static str,
    pub stops: i32,
    pub dx: i32,
    pub cost: u32,
    pub enc_tenths: u32,
    /// It splits after this many times its stops in hits (15, or 20 for metal).
    pub split_factor: i32,
}

impl Shield {
    /// Hits taken at which it splits and is useless (tft-house-rules.txt, "Shields").
    pub fn splits_at(&self) -> i32 {
        self.split_factor * self.stops
    }

    pub fn is_split(&self, hits_taken: i32) -> bool {
        hits_taken >= self.splits_at()
    }

    /// Only the metal shield can be mended, at the armor rate (20% of its price).
    pub fn repair_cost(&self) -> Option<u32> {
        (self.kind == ShieldKind::MetalSmall).then_some(self.cost / 5)
    }
}

/// A pack worn on the back stops one hit, from the rear only, at -1 DX
/// (tft-rules-summary.md, "ARMOR AND SHIELDS").
pub const PACK_ON_BACK_STOPS: i32 = 1;
/// The DX cost of fighting with a pack on.
pub const PACK_ON_BACK_DX: i32 = -1;
/// A main-gauche used to parry stops one hit (same table).
pub const MAIN_GAUCHE_STOPS: i32 = 1;

// ---------------------------------------------------------------------------------------------
// Quality

/// The fine grades a smith can make (tft-house-rules.txt, "Fine Weapons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FineGrade {
    /// +1 DX, 10x price.
    Dx,
    /// +1 damage, 10x price.
    Damage1,
    /// +1 DX and +1 damage, 20x price.
    DxDamage1,
    /// +2 damage, 20x price.
    Damage2,
    /// +1 DX and +2 damage, 40x price.
    DxDamage2,
}

impl FineGrade {
    pub fn damage_bonus(self) -> i32 {
        match self {
            Self::Dx => 0,
            Self::Damage1 | Self::DxDamage1 => 1,
            Self::Damage2 | Self::DxDamage2 => 2,
        }
    }

    pub fn dx_bonus(self) -> i32 {
        i32::from(matches!(self, Self::Dx | Self::DxDamage1 | Self::DxDamage2))
    }

    pub fn price_factor(self) -> u32 {
        match self {
            Self::Dx | Self::Damage1 => 10,
            Self::DxDamage1 | Self::Damage2 => 20,
            Self::DxDamage2 => 40,
        }
    }
}

/// How well a weapon was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Quality {
    #[default]
    Plain,
    /// Better than average: 2x price, survives some breaks.
    Good,
    Fine(FineGrade),
}

impl Quality {
    /// Every quality, in the order of [`Quality::name`]'s menu.
    pub const ALL: [Quality; 7] = [
        Self::Plain,
        Self::Good,
        Self::Fine(FineGrade::Dx),
        Self::Fine(FineGrade::Damage1),
        Self::Fine(FineGrade::Damage2),
        Self::Fine(FineGrade::DxDamage1),
        Self::Fine(FineGrade::DxDamage2),
    ];

    /// The name a sheet stores and a player types: plain, good, fine (+1 DX), fine+1, fine+2
    /// (damage), fine-dx+1, fine-dx+2 (both).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::Good => "good",
            Self::Fine(FineGrade::Dx) => "fine",
            Self::Fine(FineGrade::Damage1) => "fine+1",
            Self::Fine(FineGrade::Damage2) => "fine+2",
            Self::Fine(FineGrade::DxDamage1) => "fine-dx+1",
            Self::Fine(FineGrade::DxDamage2) => "fine-dx+2",
        }
    }

    /// Reads a [`Quality::name`], ignoring case and spaces around it; "" is plain and
    /// "fine-dx" is "fine".
    pub fn parse(text: &str) -> Option<Quality> {
        let key = text.trim().to_ascii_lowercase();
        match key.as_str() {
            "" => Some(Self::Plain),
            "fine-dx" => Some(Self::Fine(FineGrade::Dx)),
            k => Self::ALL.into_iter().find(|q| q.name() == k),
        }
    }

    pub fn damage_bonus(self) -> i32 {
        match self {
            Self::Fine(g) => g.damage_bonus(),
            _ => 0,
        }
    }

    pub fn dx_bonus(self) -> i32 {
        match self {
            Self::Fine(g) => g.dx_bonus(),
            _ => 0,
        }
    }

    /// Checks the house rules' limits on what can be made finely.
    pub fn check(self, weapon: &Weapon) -> Result<(), GearError> {
        let Self::Fine(grade) = self else {
            return Ok(());
        };
        if !matches!(
            weapon.group,
            WeaponGroup::SwordKnife | WeaponGroup::AxeMace | WeaponGroup::Pole
        ) {
            return Err(GearError::NotFineable {
                weapon: weapon.name,
            });
        }
        if grade.damage_bonus() > 0 && (weapon.is_knife() || !weapon.bladed) {
            return Err(GearError::NoFineDamage {
                weapon: weapon.name,
            });
        }
        Ok(())
    }

    /// The price of a weapon of this quality; silver doubles a fine price.
    pub fn price(self, weapon: &Weapon, silver: bool) -> Result<Option<u32>, GearError> {
        self.check(weapon)?;
        let factor = match self {
            Self::Plain | Self::Good if silver => return Err(GearError::SilverNotFine),
            Self::Plain => 1,
            Self::Good => 2,
            Self::Fine(g) => g.price_factor() * if silver { 2 } else { 1 },
        };
        Ok(weapon.cost.map(|c| c * factor))
    }

    /// The lowest face of the extra die on which the weapon still breaks, or `None` when a
    /// plain weapon simply breaks (no extra die).
    ///
    /// Decision: the house rules give the die only for good weapons (4-6) and fine ones with
    /// extra damage (+1: 5-6, +2: 6); a fine weapon with only +1 DX is at least as well made as
    /// a good one, so it breaks on 4-6 too.
    pub fn breaks_from(self) -> Option<u32> {
        match self {
            Self::Plain => None,
            Self::Good => Some(4),
            Self::Fine(g) => Some(match g.damage_bonus() {
                0 => 4,
                1 => 5,
                _ => 6,
            }),
        }
    }

    /// A roll of 18 (or the dice count's break result) would break the weapon: roll the extra
    /// die where the quality gives one.
    pub fn roll_breakage(self, dice: &mut impl DieSource) -> Breakage {
        match self.breaks_from() {
            None => Breakage {
                die: None,
                broken: true,
            },
            Some(from) => {
                let face = dice.roll(6);
                Breakage {
                    die: Some(face),
                    broken: face >= from,
                }
            }
        }
    }
}

/// Whether a weapon that would break did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breakage {
    /// The extra die, if the quality gave one.
    pub die: Option<u32>,
    pub broken: bool,
}

// ---------------------------------------------------------------------------------------------
// Armor wear

/// How worn a suit of armor is (tft-house-rules.txt, "Repairing Armor").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Wear {
    #[default]
    Sound,
    /// Falling apart: stops one hit fewer.
    Worn,
    /// In very bad shape: stops two fewer.
    Battered,
}

impl Wear {
    /// How many fewer hits it stops.
    pub fn lost_stops(self) -> i32 {
        match self {
            Self::Sound => 0,
            Self::Worn => 1,
            Self::Battered => 2,
        }
    }
}

impl Armor {
    /// Hits taken at which it starts to fall apart, and at which it is in very bad shape.
    pub fn wear_thresholds(&self) -> (i32, i32) {
        (20 + 10 * self.stops, 20 + 20 * self.stops)
    }

    /// Its state after taking `hits_taken` hits since it was new or mended.
    pub fn wear(&self, hits_taken: i32) -> Wear {
        let (worn, battered) = self.wear_thresholds();
        if hits_taken >= battered {
            Wear::Battered
        } else if hits_taken >= worn {
            Wear::Worn
        } else {
            Wear::Sound
        }
    }

    /// What it stops in that state (never below zero).
    pub fn stops_when(&self, wear: Wear) -> i32 {
        (self.stops - wear.lost_stops()).max(0)
    }

    /// Mending metal armor costs 20% of its price (10% if fine); cloth and leather cannot be.
    pub fn repair_cost(&self) -> Option<u32> {
        if !self.kind.is_metal() {
            None
        } else if self.kind.is_fine() {
            Some(self.cost / 10)
        } else {
            Some(self.cost / 5)
        }
    }

    /// The MA a wearer with `base_ma` ends with ([`MaEffect`]).
    pub fn ma_for(&self, base_ma: i32) -> i32 {
        base_ma.min(self.ma.limit()).max(0)
    }
}

#[cfg(test)]
mod tests;
