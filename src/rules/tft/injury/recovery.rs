//! Who may act, and what healing and rest take off: the figure states an attack leaves
//! (knocked down, unconscious, dying, dead) and the numbers the sources give for getting back up.
//!
//! Owns tft-rules-summary.md "STRENGTH" (0 ST unconscious, below 0 may die) and "STAND UP"
//! (a turn to rise before attacking); tft-house-rules.txt "Death and Dying" (0 ST unconscious,
//! below 0 dying) and "First Aid"; the summary's equipment list ("Healing Potion (4ST)").
//! Pure: takes hits, fatigue and ST as plain numbers.

use super::{InjuryError, MAX_ST};

// Decision: some TFT printings knock a figure out at ST 3 or less and kill it at 0. The sources
// this project follows do not: the summary ("STRENGTH") has a figure fall unconscious when ST
// reaches 0 and perhaps die below it, and the house rules ("Death and Dying") say 0 ST is
// unconscious and below 0 is dying. So 1 ST left still acts; 0 is out; below 0 is dying.

/// How a figure stands once hits come off its ST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Conscious,
    /// ST exactly 0: out and badly hurt, may live unaided.
    Unconscious,
    /// ST below 0: dying; may live only if helped.
    Dying,
}

/// The condition a figure is in with `st_left` ST left (hits and fatigue both count).
pub fn condition_at(st_left: i32) -> Condition {
    match st_left {
        1.. => Condition::Conscious,
        0 => Condition::Unconscious,
        _ => Condition::Dying,
    }
}

/// Why a figure cannot attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unable {
    Dead,
    Dying,
    Unconscious,
    /// Down on the ground: a turn standing up comes first (summary, "STAND UP").
    KnockedDown,
}

/// Whether a figure with `st_left` ST left may attack; the gravest reason if not.
pub fn unable_to_attack(st_left: i32, knocked_down: bool, dead: bool) -> Option<Unable> {
    if dead {
        return Some(Unable::Dead);
    }
    match condition_at(st_left) {
        Condition::Dying => Some(Unable::Dying),
        Condition::Unconscious => Some(Unable::Unconscious),
        Condition::Conscious if knocked_down => Some(Unable::KnockedDown),
        Condition::Conscious => None,
    }
}

/// Hits one healing potion restores (the summary's equipment list: "Healing Potion (4ST)").
pub const POTION_HITS: i32 = 4;
/// Hits First Aid heals (tft-house-rules.txt, "First Aid": one point, as a physicker would).
pub const FIRST_AID_HITS: i32 = 1;
/// The most of any one kind of healing taken at once.
pub const MAX_HEALING: i32 = 10_000;

// Decision: the sources give no rate for natural healing or for fatigue recovered by rest (the
// summary only says a staff's mana comes back with half a day of contemplation). The GM states
// the hits and fatigue that come off; the numbers the sources do give (a potion, First Aid) are
// counted by the rules.

/// What comes off at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Healing {
    /// Hits healed by rest, spells or a physicker, as the GM rules.
    pub hits: i32,
    /// Fatigue recovered by rest.
    pub fatigue: i32,
    /// Healing potions drunk.
    pub potions: i32,
    /// First Aid given.
    pub first_aid: bool,
}

/// Hits and fatigue before and after healing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Healed {
    pub hits_before: i32,
    pub hits_after: i32,
    pub fatigue_before: i32,
    pub fatigue_after: i32,
    /// All the hits the healing offered (some may be wasted on a figure with fewer taken).
    pub hits_offered: i32,
}

/// Takes `healing` off `hits` taken and `fatigue`; neither goes below 0.
pub fn heal(hits: i32, fatigue: i32, healing: Healing) -> Result<Healed, InjuryError> {
    for n in [healing.hits, healing.fatigue, healing.potions] {
        if !(0..=MAX_HEALING).contains(&n) {
            return Err(InjuryError::Hits(n));
        }
    }
    let hits_offered = healing.hits
        + healing.potions * POTION_HITS
        + if healing.first_aid { FIRST_AID_HITS } else { 0 };
    let hits = hits.clamp(0, 10 * MAX_ST);
    let fatigue = fatigue.clamp(0, 10 * MAX_ST);
    Ok(Healed {
        hits_before: hits,
        hits_after: (hits - hits_offered).max(0),
        fatigue_before: fatigue,
        fatigue_after: (fatigue - healing.fatigue).max(0),
        hits_offered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_condition_changes_at_zero_and_below() {
        // tft-rules-summary.md "STRENGTH"; tft-house-rules.txt "Death and Dying".
        let table = [
            (2, Condition::Conscious),
            (1, Condition::Conscious),
            (0, Condition::Unconscious),
            (-1, Condition::Dying),
            (-20, Condition::Dying),
        ];
        for (st_left, want) in table {
            assert_eq!(condition_at(st_left), want, "ST left {st_left}");
        }
    }

    #[test]
    fn who_may_attack() {
        // Summary "STAND UP": a knocked-down figure stands before attacking; out or dead figures
        // do nothing. The gravest reason wins.
        let table = [
            (1, false, false, None),
            (1, true, false, Some(Unable::KnockedDown)),
            (0, false, false, Some(Unable::Unconscious)),
            (0, true, false, Some(Unable::Unconscious)),
            (-1, true, false, Some(Unable::Dying)),
            (5, false, true, Some(Unable::Dead)),
            (-3, true, true, Some(Unable::Dead)),
        ];
        for (st_left, down, dead, want) in table {
            assert_eq!(
                unable_to_attack(st_left, down, dead),
                want,
                "{st_left} {down} {dead}"
            );
        }
    }

    #[test]
    fn healing_counts_potions_and_first_aid_and_stops_at_zero() {
        // Summary equipment list: a healing potion is 4 ST; house rules "First Aid": 1 point.
        let h = |hits, fatigue, potions, first_aid| Healing {
            hits,
            fatigue,
            potions,
            first_aid,
        };
        let table = [
            // hits, fatigue, healing → hits after, fatigue after
            (5, 0, h(0, 0, 1, false), 1, 0),
            (4, 0, h(0, 0, 1, false), 0, 0),
            (3, 0, h(0, 0, 1, false), 0, 0),
            (2, 0, h(0, 0, 0, true), 1, 0),
            (1, 0, h(0, 0, 0, true), 0, 0),
            (9, 3, h(2, 2, 1, true), 2, 1),
            (9, 3, h(0, 3, 0, false), 9, 0),
            (9, 3, h(0, 4, 0, false), 9, 0),
        ];
        for (hits, fatigue, healing, hits_after, fatigue_after) in table {
            let r = heal(hits, fatigue, healing).unwrap();
            assert_eq!(
                (r.hits_after, r.fatigue_after),
                (hits_after, fatigue_after),
                "{hits} {fatigue} {healing:?}"
            );
        }
        assert_eq!(heal(9, 0, h(1, 0, 2, true)).unwrap().hits_offered, 10);
        assert!(heal(1, 1, h(-1, 0, 0, false)).is_err());
        assert!(heal(1, 1, h(0, 0, MAX_HEALING + 1, false)).is_err());
        assert!(heal(1, 1, h(0, 0, MAX_HEALING, false)).is_ok());
    }
}
