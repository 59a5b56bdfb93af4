//! `/tftref mount st ma dx [load] [pace] [hexes] [facing] [last] [straight]`: a mount under a
//! load (MA, adjDX, fatigue a turn) and its running limits (MA spent on turns, hexes between
//! changes of facing, the least move after a fast turn, the damage bonus of a straight run). A
//! look-up: nothing is rolled or written.

use super::shared::{field, menu};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::signed;
use crate::app::{AppResult, user};
use crate::rules::tft::character::{
    MountPace, hexes_before_facing_change, minimum_move_after, mount_load,
    mount_speed_damage_bonus, turn_cost,
};

const PACES: [(&str, MountPace); 3] = [
    ("chart", MountPace::Chart),
    ("run", MountPace::Run),
    ("pushed", MountPace::Pushed),
];

/// The largest attribute, load or hex count accepted.
const MAX_NUMBER: i64 = 10_000;

/// A parsed `/tftref mount`.
#[derive(Debug, Clone)]
pub struct Mount {
    st: u32,
    ma: u32,
    dx: i32,
    load: u32,
    pace: MountPace,
    hexes: Option<u32>,
    facing: u32,
    last: Option<u32>,
    straight: Option<u32>,
}

impl Mount {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "st", "ma", "dx", "load", "pace", "hexes", "facing", "last", "straight",
            ],
        )?;
        let need = |name: &str, min: i64| -> AppResult<u32> {
            o.int(name, min, MAX_NUMBER)?
                .map(|n| n as u32)
                .ok_or_else(|| user(format!("/tftref mount needs the option {name}.")))
        };
        let number = |name: &str| -> AppResult<Option<u32>> {
            Ok(o.int(name, 0, MAX_NUMBER)?.map(|n| n as u32))
        };
        Ok(Self {
            st: need("st", 1)?,
            ma: need("ma", 0)?,
            dx: need("dx", 0)? as i32,
            load: number("load")?.unwrap_or(0),
            pace: match o.text("pace") {
                Some(p) => menu("pace", p, &PACES)?,
                None => MountPace::Chart,
            },
            hexes: number("hexes")?,
            facing: number("facing")?.unwrap_or(0),
            last: number("last")?,
            straight: number("straight")?,
        })
    }

    pub fn run(self) -> AppResult<Reply> {
        let laden = mount_load(self.st, self.ma, self.dx, self.load, self.pace).map_err(user)?;
        let mut load = format!(
            "{} kg (×{}.{} ST): MA {}, adjDX {}",
            self.load,
            laden.ratio_tenths / 10,
            laden.ratio_tenths % 10,
            laden.ma,
            laden.adj_dx
        );
        if laden.overloaded {
            load += ", overloaded";
        }
        if laden.fatigue_per_turn > 0 {
            load = format!("{load}, {} fatigue a turn", laden.fatigue_per_turn);
        }
        let mut fields = vec![field("Load", load, false)];
        if let Some(h) = self.hexes {
            fields.push(field(
                "This turn",
                format!(
                    "{h} hexes and {} changes of facing cost MA {}; at least {} hexes between changes",
                    self.facing,
                    turn_cost(h, self.facing),
                    hexes_before_facing_change(h)
                ),
                false,
            ));
        }
        if let Some(last) = self.last {
            fields.push(field(
                "Least move",
                format!("{} hexes after {last} last turn", minimum_move_after(last)),
                true,
            ));
        }
        if let Some(s) = self.straight {
            fields.push(field(
                "Melee damage",
                format!(
                    "{} after {s} hexes in a line",
                    signed(mount_speed_damage_bonus(s))
                ),
                true,
            ));
        }
        Ok(Reply::ephemeral("").with_embed(Embed {
            title: format!("A mount of ST {}, MA {}, DX {}", self.st, self.ma, self.dx),
            description: String::new(),
            tone: Some(Tone::Grey),
            fields,
            footer: None,
        }))
    }
}
