//! Mounts: what a load does to a 2-hex mount's MA and DX, the fatigue of pushing it, and the
//! limits on turning, running and stopping.
//!
//! Source: tft-house-rules.txt, "Riding and Mounted Combat" (Turning, Running, Stopping, Carrying
//! Capacity and the Sir Robin example). Loads are whole kilograms; ratios to ST are compared in
//! tenths so no floating point decides a band. Never rolls.

use thiserror::Error;

/// One band of the carrying-capacity table: loads up to `up_to_tenths` tenths of ST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadBand {
    /// The upper end of the band in tenths of the mount's ST (15 = ST x 1.5).
    pub up_to_tenths: u32,
    pub ma_penalty: u32,
    pub dx_penalty: u32,
}

// tft-house-rules.txt, "Carrying Capacity". Decision: each band includes its upper end ("up to"),
// except the last: a load of ST x 7.5 or more is the overload the text describes separately.
// Decision: a mount carrying nothing at all has no penalty.
/// The carrying-capacity bands, lightest first.
pub const LOAD_BANDS: [LoadBand; 5] = [
    LoadBand {
        up_to_tenths: 15,
        ma_penalty: 2,
        dx_penalty: 0,
    },
    LoadBand {
        up_to_tenths: 30,
        ma_penalty: 4,
        dx_penalty: 0,
    },
    LoadBand {
        up_to_tenths: 45,
        ma_penalty: 6,
        dx_penalty: 0,
    },
    LoadBand {
        up_to_tenths: 60,
        ma_penalty: 8,
        dx_penalty: 1,
    },
    LoadBand {
        up_to_tenths: 75,
        ma_penalty: 10,
        dx_penalty: 1,
    },
];

/// Loads at or over this many tenths of ST allow only a walk unless the mount is made to run.
pub const OVERLOAD_RATIO_TENTHS: u32 = 75;
/// The walking MA of an overloaded mount.
pub const OVERLOAD_WALK_MA: u32 = 4;

/// How hard the rider drives the mount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MountPace {
    /// The MA the chart allows (an overloaded mount: a walk at MA 4).
    #[default]
    Chart,
    /// Run an overloaded mount at the chart's last band anyway (no effect on a lighter load).
    Run,
    /// Up to half the MA penalty back, for a point of fatigue a turn (on top of any overload).
    Pushed,
}

/// A mount under a load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MountLoad {
    /// The load in tenths of ST (52 = 5.2 x ST), rounded down.
    pub ratio_tenths: u32,
    /// The band of the chart that applies (the last band for an overload that runs).
    pub band: Option<LoadBand>,
    pub overloaded: bool,
    pub ma_penalty: u32,
    pub dx_penalty: u32,
    pub ma: u32,
    pub adj_dx: i32,
    /// Fatigue (ST) the mount loses each turn at this pace.
    pub fatigue_per_turn: u32,
}

/// A mount that cannot be described.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MountError {
    #[error("a mount's ST must be at least 1; you gave {0}")]
    Strength(u32),
}

/// MA, adjDX and fatigue of a mount with ST `st`, unladen MA `ma` and DX `dx` carrying `load_kg`.
pub fn mount_load(
    st: u32,
    ma: u32,
    dx: i32,
    load_kg: u32,
    pace: MountPace,
) -> Result<MountLoad, MountError> {
    if st == 0 {
        return Err(MountError::Strength(st));
    }
    let ratio_tenths = load_kg * 10 / st;
    let overloaded = load_kg * 10 >= OVERLOAD_RATIO_TENTHS * st;
    let band = if load_kg == 0 {
        None
    } else if overloaded {
        LOAD_BANDS.last().copied()
    } else {
        LOAD_BANDS
            .iter()
            .find(|b| load_kg * 10 <= b.up_to_tenths * st)
            .copied()
    };
    let (chart_ma, chart_dx) = band.map_or((0, 0), |b| (b.ma_penalty, b.dx_penalty));
    // tft-house-rules.txt, "Carrying Capacity": running an overloaded mount costs a point of
    // fatigue a turn for each ST/2 (rounded up) kilograms over the limit. Decision: a part of
    // such a step counts as a whole one (Sir Robin's horse, 7.5 kg over with steps of 12 kg,
    // takes 1 a turn).
    let over_fatigue = if overloaded {
        let over_tenths = load_kg * 10 - OVERLOAD_RATIO_TENTHS * st;
        over_tenths.div_ceil(st.div_ceil(2) * 10)
    } else {
        0
    };
    let (ma_penalty, fatigue_per_turn, walk) = match (pace, overloaded) {
        (MountPace::Chart, true) => (0, 0, true),
        (MountPace::Chart | MountPace::Run, _) => (chart_ma, over_fatigue, false),
        (MountPace::Pushed, _) => (chart_ma / 2, over_fatigue + 1, false),
    };
    let dx_penalty = if walk { 0 } else { chart_dx };
    let ma = if walk {
        OVERLOAD_WALK_MA.min(ma)
    } else {
        ma.saturating_sub(ma_penalty)
    };
    Ok(MountLoad {
        ratio_tenths,
        band,
        overloaded,
        ma_penalty,
        dx_penalty,
        ma,
        adj_dx: dx - dx_penalty as i32,
        fatigue_per_turn,
    })
}

/// The movement limits of a running mount, as data (tft-house-rules.txt, "Turning", "Running",
/// "Stopping").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RidingLimits {
    /// Extra MA each change of facing costs.
    pub turn_extra_ma: u32,
    /// From this many hexes in a turn, the mount moves `hexes_between_turns_fast` between turns.
    pub fast_hexes: u32,
    pub hexes_between_turns_fast: u32,
    /// From this many hexes, `hexes_between_turns_very_fast`.
    pub very_fast_hexes: u32,
    pub hexes_between_turns_very_fast: u32,
    /// After moving `fast_hexes` or more, the next turn moves at least this many hexes.
    pub min_move_after_fast: u32,
    /// After moving `very_fast_hexes` or more, at least this many.
    pub min_move_after_very_fast: u32,
    /// A non-missile, non-thrown weapon does this much more when the mount has come more than
    /// `speed_bonus_over_hexes` hexes in a fairly straight line.
    pub speed_damage_bonus: i32,
    pub speed_bonus_over_hexes: u32,
}

/// The house rules' riding limits.
pub const RIDING_LIMITS: RidingLimits = RidingLimits {
    turn_extra_ma: 1,
    fast_hexes: 8,
    hexes_between_turns_fast: 2,
    very_fast_hexes: 16,
    hexes_between_turns_very_fast: 3,
    min_move_after_fast: 3,
    min_move_after_very_fast: 4,
    speed_damage_bonus: 2,
    speed_bonus_over_hexes: 8,
};

/// MA a mount spends to move `hexes` and change facing `facing_changes` times.
pub fn turn_cost(hexes: u32, facing_changes: u32) -> u32 {
    hexes + facing_changes * RIDING_LIMITS.turn_extra_ma
}

/// Hexes a mount moving `hexes_this_turn` must cover before each change of facing or sideslip
/// (1: no limit beyond the ordinary).
pub fn hexes_before_facing_change(hexes_this_turn: u32) -> u32 {
    let l = RIDING_LIMITS;
    if hexes_this_turn >= l.very_fast_hexes {
        l.hexes_between_turns_very_fast
    } else if hexes_this_turn >= l.fast_hexes {
        l.hexes_between_turns_fast
    } else {
        1
    }
}

/// The fewest hexes a mount that moved `hexes_last_turn` may move this turn.
pub fn minimum_move_after(hexes_last_turn: u32) -> u32 {
    let l = RIDING_LIMITS;
    if hexes_last_turn >= l.very_fast_hexes {
        l.min_move_after_very_fast
    } else if hexes_last_turn >= l.fast_hexes {
        l.min_move_after_fast
    } else {
        0
    }
}

/// Extra damage for a melee weapon used from a mount that came `straight_hexes` hexes.
pub fn mount_speed_damage_bonus(straight_hexes: u32) -> i32 {
    if straight_hexes > RIDING_LIMITS.speed_bonus_over_hexes {
        RIDING_LIMITS.speed_damage_bonus
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // tft-house-rules.txt, "Riding and Mounted Combat", the Sir Robin example: a riding horse of
    // ST 23 and MA 24; DX 12 is implied by "adjDX 11" under a -1 band.
    const ST: u32 = 23;
    const MA: u32 = 24;
    const DX: i32 = 12;

    #[test]
    fn sir_robin_at_5_2_times_st() {
        let l = mount_load(ST, MA, DX, 120, MountPace::Chart).unwrap();
        assert_eq!(
            (l.ratio_tenths, l.ma, l.adj_dx, l.fatigue_per_turn),
            (52, 16, 11, 0)
        );
        // Run at the most, with half the penalty: MA 20 for 1 fatigue a turn.
        let l = mount_load(ST, MA, DX, 120, MountPace::Pushed).unwrap();
        assert_eq!((l.ma, l.fatigue_per_turn), (20, 1));
    }

    #[test]
    fn sir_robin_with_the_damsel_at_7_8_times_st() {
        let walk = mount_load(ST, MA, DX, 180, MountPace::Chart).unwrap();
        assert!(walk.overloaded);
        assert_eq!(
            (walk.ratio_tenths, walk.ma, walk.fatigue_per_turn),
            (78, 4, 0)
        );
        let run = mount_load(ST, MA, DX, 180, MountPace::Run).unwrap();
        assert_eq!((run.ma, run.adj_dx, run.fatigue_per_turn), (14, 11, 1));
        let pushed = mount_load(ST, MA, DX, 180, MountPace::Pushed).unwrap();
        assert_eq!((pushed.ma, pushed.fatigue_per_turn), (19, 2));
    }

    #[test]
    fn band_edges_both_sides() {
        // ST 10: the bands end at 15, 30, 45, 60 and (exclusive) 75 kg.
        let cases = [
            (0, 24, 12),
            (1, 22, 12),
            (15, 22, 12),
            (16, 20, 12),
            (30, 20, 12),
            (31, 18, 12),
            (45, 18, 12),
            (46, 16, 11),
            (60, 16, 11),
            (61, 14, 11),
            (74, 14, 11),
            (75, 4, 12),
        ];
        for (kg, ma, adj_dx) in cases {
            let l = mount_load(10, 24, 12, kg, MountPace::Chart).unwrap();
            assert_eq!((l.ma, l.adj_dx), (ma, adj_dx), "{kg} kg");
        }
    }

    #[test]
    fn overload_fatigue_steps() {
        // ST 10: steps of 5 kg over 75 kg.
        let f = |kg| {
            mount_load(10, 24, 12, kg, MountPace::Run)
                .unwrap()
                .fatigue_per_turn
        };
        assert_eq!((f(75), f(76), f(80), f(81), f(90)), (0, 1, 1, 2, 3));
        // ST 23 rounds its half up: steps of 12 kg over 172.5 kg.
        let g = |kg| {
            mount_load(23, 24, 12, kg, MountPace::Run)
                .unwrap()
                .fatigue_per_turn
        };
        assert_eq!((g(173), g(184), g(185)), (1, 1, 2));
        assert_eq!(
            mount_load(0, 24, 12, 10, MountPace::Chart),
            Err(MountError::Strength(0))
        );
    }

    #[test]
    fn riding_limits_edges() {
        // tft-house-rules.txt, "Turning": turning about is 3 hexes of pivot and 3 facings: 6 MA.
        assert_eq!(turn_cost(3, 3), 6);
        // "Running": 8 or more hexes, 2 between turns; 16 or more, 3.
        assert_eq!([7, 8, 15, 16].map(hexes_before_facing_change), [1, 2, 2, 3]);
        // "Stopping": after 8 or more, at least 3; after 16 or more, at least 4.
        assert_eq!([7, 8, 15, 16].map(minimum_move_after), [0, 3, 3, 4]);
        // More than 8 hexes in a line: +2 damage.
        assert_eq!([8, 9].map(mount_speed_damage_bonus), [0, 2]);
    }

    #[test]
    fn bands_are_ordered() {
        for w in LOAD_BANDS.windows(2) {
            assert!(w[0].up_to_tenths < w[1].up_to_tenths);
            assert!(w[0].ma_penalty < w[1].ma_penalty);
            assert!(w[0].dx_penalty <= w[1].dx_penalty);
        }
        assert_eq!(
            LOAD_BANDS.last().map(|b| b.up_to_tenths),
            Some(OVERLOAD_RATIO_TENTHS)
        );
    }
}
