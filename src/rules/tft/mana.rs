//! Mana: the magical strength a wizard's staff stores, spent on spells as fatigue would be, and
//! put back by fatigue or contemplation.
//!
//! Source: tft-rules-summary.md, "SECONDARY ATTRIBUTES", MANA (M). Neither that passage nor the
//! house rules give a staff's size, so the staff's M is the GM's number on the sheet; this module
//! owns what may be paid from it and what refills it. Never rolls, never reads a sheet.

use thiserror::Error;

/// The largest M the bot keeps for a staff: the sources give no size, and past this it is no
/// longer a wizard's staff.
pub const MAX_MANA: u32 = 100;

/// Fatigue that puts back one point of mana (the summary's "5ST in fatigue").
pub const ST_PER_MANA: u32 = 5;
/// Half-days of contemplation that put back one point of mana.
// Decision: the summary says a point "can be replaced ... by a half-day of contemplation"; each
// half day puts back one point, so N points take N half days (a day puts back 2).
pub const HALF_DAYS_PER_MANA: u32 = 1;

/// A staff: the mana it holds at most (the sheet's M) and the points spent and not yet put back.
// Decision: M is read as the staff's size, as ST is a figure's: spending marks points used, as
// fatigue marks ST, and refilling "replaces" spent points, never past M.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Staff {
    pub mana: u32,
    pub spent: u32,
}

impl Staff {
    /// The mana in the staff now.
    pub fn stored(self) -> u32 {
        self.mana.saturating_sub(self.spent)
    }

    /// The points it can take back.
    pub fn room(self) -> u32 {
        self.mana - self.stored()
    }
}

/// Why mana cannot be spent or put back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ManaError {
    #[error("the caster has no staff holding mana (its sheet's mana is 0)")]
    NoStaff,
    #[error("the staff holds {stored} mana, not {wanted}")]
    TooLittle { wanted: u32, stored: u32 },
    #[error("the spell costs {cost} ST, so at most {cost} of it can come from the staff")]
    MoreThanCost { wanted: u32, cost: u32 },
    #[error("the staff is full ({mana} mana)")]
    Full { mana: u32 },
    #[error("the staff has room for {room} more mana (it holds {stored} of {mana})")]
    NoRoom {
        wanted: u32,
        room: u32,
        stored: u32,
        mana: u32,
    },
    #[error("{points} mana costs {fatigue} ST of fatigue and the figure has {left} ST left")]
    TooTired {
        points: u32,
        fatigue: u32,
        left: i32,
    },
}

/// Checks, before the roll, that `wanted` points of a spell costing at most `cost` may come from
/// `staff`: the staff must hold them, and no more than the spell costs may be paid from it.
pub fn check_spend(staff: Staff, wanted: u32, cost: u32) -> Result<(), ManaError> {
    if wanted == 0 {
        return Ok(());
    }
    if staff.mana == 0 {
        return Err(ManaError::NoStaff);
    }
    if wanted > cost {
        return Err(ManaError::MoreThanCost { wanted, cost });
    }
    if wanted > staff.stored() {
        return Err(ManaError::TooLittle {
            wanted,
            stored: staff.stored(),
        });
    }
    Ok(())
}

/// How the ST a spell cost was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payment {
    /// Points taken from the staff.
    pub mana: u32,
    /// ST marked as fatigue.
    pub fatigue: u32,
}

/// Splits the ST a spell cost (`paid`, after the roll: a failed spell may cost less than its
/// full ST) between the `offered` mana and fatigue.
// Decision: the caster chose to draw on the staff, so the staff pays first; a failed spell that
// costs 1 ST takes that point from the staff when mana was offered.
pub fn pay(paid: u32, offered: u32) -> Payment {
    let mana = paid.min(offered);
    Payment {
        mana,
        fatigue: paid - mana,
    }
}

/// How a staff is refilled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refill {
    /// 5 ST of fatigue a point.
    Fatigue,
    /// A half day of contemplation a point.
    Contemplation,
}

/// What refilling `points` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refilled {
    pub staff: Staff,
    /// ST of fatigue the figure takes.
    pub fatigue: u32,
    /// Half days the contemplation takes.
    pub half_days: u32,
}

/// Puts `points` of mana back into `staff` by `how`, for a figure with `st_left` ST.
// Decision: as with a spell (`casting::may_cast`), fatigue may take a figure down to 0 ST, never
// below it, so a refill that would cost more than the ST left is refused.
pub fn refill(staff: Staff, points: u32, how: Refill, st_left: i32) -> Result<Refilled, ManaError> {
    if staff.mana == 0 {
        return Err(ManaError::NoStaff);
    }
    if staff.room() == 0 {
        return Err(ManaError::Full { mana: staff.mana });
    }
    if points > staff.room() {
        return Err(ManaError::NoRoom {
            wanted: points,
            room: staff.room(),
            stored: staff.stored(),
            mana: staff.mana,
        });
    }
    let (fatigue, half_days) = match how {
        Refill::Fatigue => (points * ST_PER_MANA, 0),
        Refill::Contemplation => (0, points * HALF_DAYS_PER_MANA),
    };
    if fatigue > 0 && i64::from(fatigue) > i64::from(st_left) {
        return Err(ManaError::TooTired {
            points,
            fatigue,
            left: st_left,
        });
    }
    Ok(Refilled {
        staff: Staff {
            mana: staff.mana,
            spent: staff.spent.min(staff.mana) - points,
        },
        fatigue,
        half_days,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staff(mana: u32, spent: u32) -> Staff {
        Staff { mana, spent }
    }

    #[test]
    fn stored_and_room_never_go_below_zero() {
        assert_eq!((staff(5, 0).stored(), staff(5, 0).room()), (5, 0));
        assert_eq!((staff(5, 2).stored(), staff(5, 2).room()), (3, 2));
        // A GM who lowers M below what was spent leaves an empty staff, not a negative one.
        assert_eq!((staff(2, 4).stored(), staff(2, 4).room()), (0, 2));
    }

    #[test]
    fn spending_both_sides_of_each_limit() {
        // tft-rules-summary.md, "SECONDARY ATTRIBUTES", MANA: mana pays a spell's ST "as if it
        // was fatigue"; the staff must hold it, and it pays no more than the spell costs.
        let cases = [
            (staff(5, 0), 0, 3, Ok(())),
            (staff(0, 0), 0, 3, Ok(())),
            (staff(0, 0), 1, 3, Err(ManaError::NoStaff)),
            (staff(5, 0), 3, 3, Ok(())),
            (
                staff(5, 0),
                4,
                3,
                Err(ManaError::MoreThanCost { wanted: 4, cost: 3 }),
            ),
            (staff(5, 2), 3, 4, Ok(())),
            (
                staff(5, 3),
                3,
                4,
                Err(ManaError::TooLittle {
                    wanted: 3,
                    stored: 2,
                }),
            ),
        ];
        for (s, wanted, cost, want) in cases {
            assert_eq!(
                check_spend(s, wanted, cost),
                want,
                "{s:?} {wanted} of {cost}"
            );
        }
    }

    #[test]
    fn the_staff_pays_first() {
        let cases = [
            // (ST the cast cost, mana offered) → (mana, fatigue)
            (3, 0, 0, 3),
            (3, 2, 2, 1),
            (3, 3, 3, 0),
            // A failed spell's 1 ST comes from the staff when mana was offered.
            (1, 3, 1, 0),
            (0, 3, 0, 0),
        ];
        for (paid, offered, mana, fatigue) in cases {
            assert_eq!(
                pay(paid, offered),
                Payment { mana, fatigue },
                "{paid} with {offered} offered"
            );
        }
    }

    #[test]
    fn refilling_costs_five_st_or_a_half_day_a_point() {
        // tft-rules-summary.md, "SECONDARY ATTRIBUTES", MANA: 5 ST of fatigue or a half day of
        // contemplation a point.
        let r = refill(staff(5, 3), 2, Refill::Fatigue, 10).unwrap();
        assert_eq!((r.staff, r.fatigue, r.half_days), (staff(5, 1), 10, 0));
        let r = refill(staff(5, 3), 3, Refill::Contemplation, 0).unwrap();
        assert_eq!((r.staff, r.fatigue, r.half_days), (staff(5, 0), 0, 3));
        let r = refill(staff(5, 3), 1, Refill::Contemplation, -3).unwrap();
        assert_eq!((r.staff, r.half_days), (staff(5, 2), 1));
    }

    #[test]
    fn refilling_both_sides_of_each_limit() {
        let f = Refill::Fatigue;
        // ST left: exactly 5 a point is enough (down to 0), one less is not.
        assert!(refill(staff(5, 2), 2, f, 10).is_ok());
        assert_eq!(
            refill(staff(5, 2), 2, f, 9),
            Err(ManaError::TooTired {
                points: 2,
                fatigue: 10,
                left: 9
            })
        );
        // Room: the points spent, no more.
        assert!(refill(staff(5, 2), 2, Refill::Contemplation, 0).is_ok());
        assert_eq!(
            refill(staff(5, 2), 3, Refill::Contemplation, 0),
            Err(ManaError::NoRoom {
                wanted: 3,
                room: 2,
                stored: 3,
                mana: 5
            })
        );
        assert_eq!(
            refill(staff(5, 0), 1, f, 20),
            Err(ManaError::Full { mana: 5 })
        );
        assert_eq!(refill(staff(0, 0), 1, f, 20), Err(ManaError::NoStaff));
        // A staff whose M the GM lowered below what was spent refills to its new M.
        let r = refill(staff(2, 4), 2, Refill::Contemplation, 0).unwrap();
        assert_eq!(r.staff.stored(), 2);
    }
}
