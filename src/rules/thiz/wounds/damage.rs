//! The Toughness check a hit character makes, and the wound it leaves.

use super::{AddedWound, WoundEffects, WoundSheet};
use crate::rules::dice::DieSource;
use crate::rules::thiz::{Level, Location, Rating, resolve};

/// The wound a hit leaves after the Toughness check, or `None`.
///
/// Source: thiz-rulebook.md, "Damage": a Toughness level above the hit's leaves no wound; an
/// equal level lowers the hit one step (an equal Green leaves nothing); a lower level leaves the
/// hit's colour. A Failure "hit" is a miss and leaves nothing.
pub fn wound_from_hit(hit: Level, toughness: Level) -> Option<Level> {
    let wound = match toughness.cmp(&hit) {
        std::cmp::Ordering::Greater => Level::Failure,
        std::cmp::Ordering::Equal => hit.lower(),
        std::cmp::Ordering::Less => hit,
    };
    (wound != Level::Failure).then_some(wound)
}

/// One Toughness check against a hit, every number shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToughnessCheck {
    /// The hit's level of success.
    pub hit: Level,
    /// The rating checked (after any penalty).
    pub rating: Rating,
    pub roll: u32,
    pub level: Level,
    /// The wound left, if any.
    pub wound: Option<Level>,
}

/// Rolls Toughness (`toughness`, already adjusted) against a hit of level `hit`.
pub fn resist_hit(hit: Level, toughness: Rating, dice: &mut impl DieSource) -> ToughnessCheck {
    let roll = dice.d100();
    let level = resolve(toughness, roll);
    ToughnessCheck {
        hit,
        rating: toughness,
        roll,
        level,
        wound: wound_from_hit(hit, level),
    }
}

/// A hit taken onto a wound sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitOutcome {
    /// The Toughness rating before wounds.
    pub toughness: i32,
    /// The penalty from the sheet's Head and Gut wounds (0 while Berserk).
    pub wound_penalty: i32,
    pub check: ToughnessCheck,
    /// The wound written on the sheet, if any.
    pub added: Option<AddedWound>,
    /// A mook with this sheet is defeated.
    pub defeats_mook: bool,
    /// The character is incapacitated (see [`super::incapacitation`] for what that means).
    pub incapacitated: bool,
}

/// Resolves a hit of level `hit` on `location`: the Toughness check (with the sheet's Head and Gut
/// penalties unless `berserk`) and the wound recorded on `sheet`.
pub fn take_hit(
    sheet: &mut WoundSheet,
    location: Location,
    hit: Level,
    toughness: i32,
    berserk: bool,
    dice: &mut impl DieSource,
) -> Result<HitOutcome, super::WoundError> {
    let toughness = super::check_rating("Toughness", toughness)?;
    let effects = if berserk {
        WoundEffects::none()
    } else {
        sheet.effects()
    };
    let wound_penalty = effects.toughness_check();
    let check = resist_hit(hit, Rating(toughness) + wound_penalty, dice);
    let added = match check.wound {
        Some(level) => Some(sheet.add(location, level)?),
        None => None,
    };
    Ok(HitOutcome {
        toughness,
        wound_penalty,
        check,
        added,
        defeats_mook: sheet.defeats_mook(),
        incapacitated: sheet.is_incapacitated(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use Level::*;

    #[test]
    fn every_hit_level_against_every_toughness_level() {
        // thiz-rulebook.md, "Damage": Toughness above the hit → no wound; equal → one lower;
        // below → the hit's colour. Rows are hits, columns Toughness Failure..Black.
        let table: [(Level, [Option<Level>; 5]); 5] = [
            (Failure, [None, None, None, None, None]),
            (Green, [Some(Green), None, None, None, None]),
            (
                Yellow,
                [Some(Yellow), Some(Yellow), Some(Green), None, None],
            ),
            (Red, [Some(Red), Some(Red), Some(Red), Some(Yellow), None]),
            (
                Black,
                [
                    Some(Black),
                    Some(Black),
                    Some(Black),
                    Some(Black),
                    Some(Red),
                ],
            ),
        ];
        for (hit, row) in table {
            for (toughness, want) in Level::ALL.into_iter().zip(row) {
                assert_eq!(
                    wound_from_hit(hit, toughness),
                    want,
                    "hit {hit}, Toughness {toughness}"
                );
            }
        }
    }

    #[test]
    fn resist_hit_reads_the_chart() {
        // Toughness 4: 9 is Black, 10 Red (chart row 4). A Red hit: Black shrugs it off, Red
        // lowers it to Yellow.
        let mut dice = ScriptedDice::new([9, 10]);
        let shrugged = resist_hit(Red, Rating(4), &mut dice);
        assert_eq!((shrugged.level, shrugged.wound), (Black, None));
        let lowered = resist_hit(Red, Rating(4), &mut dice);
        assert_eq!((lowered.level, lowered.wound), (Red, Some(Yellow)));
    }

    #[test]
    fn take_hit_applies_head_and_gut_penalties_unless_berserk() {
        let mut sheet = WoundSheet::new();
        sheet.add(Location::Gut, Yellow).unwrap();
        sheet.add(Location::Head, Green).unwrap();
        // Toughness 4 - 3 = 1: roll 57 is Green on row 1 (Failure on row 4 would be 67+).
        let mut dice = ScriptedDice::new([57]);
        let out = take_hit(&mut sheet, Location::LeftArm, Yellow, 4, false, &mut dice).unwrap();
        assert_eq!(out.wound_penalty, -3);
        assert_eq!(out.check.rating, Rating(1));
        assert_eq!(out.check.level, Green);
        assert_eq!(out.added.map(|a| a.recorded), Some(Yellow));
        assert!(sheet.at(Location::LeftArm).yellow);
        // Berserk: no penalty, so roll 57 on row 4 is Green too, 58 on row 1 would fail: use 60.
        let mut dice = ScriptedDice::new([60]);
        let out = take_hit(&mut sheet, Location::RightArm, Green, 4, true, &mut dice).unwrap();
        assert_eq!(out.wound_penalty, 0);
        assert_eq!(out.check.level, Green);
        assert_eq!(out.added, None);
    }

    #[test]
    fn take_hit_reports_mook_defeat_and_incapacitation() {
        let mut sheet = WoundSheet::new();
        let mut dice = ScriptedDice::new([100, 100]);
        let out = take_hit(&mut sheet, Location::Chest, Yellow, 0, false, &mut dice).unwrap();
        assert!(out.defeats_mook && !out.incapacitated);
        let out = take_hit(&mut sheet, Location::Head, Black, 0, false, &mut dice).unwrap();
        assert!(out.incapacitated);
        assert!(take_hit(&mut sheet, Location::Head, Black, 41, false, &mut dice).is_err());
    }
}
