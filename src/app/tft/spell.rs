//! `/tftref spell [spell] [kind] [distance] [st] [dx] [iq] [hexes] [through] [ended] [armor]`: a
//! spell's numbers at the table — the house rules' IQ, type and ST cost, the adjDX for the
//! distance to the target, whether a creature fits a summoning, the hits of a Wall of Fire. A
//! look-up: nothing is rolled or written.

use super::shared::{field, menu};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::{escape, signed};
use crate::app::{AppResult, user};
use crate::rules::tft::character::{
    NEW_SPELLS, SUMMON_LIMITS, SpellInfo, SpellKind, SpellUpkeep, SummonLimit, fits_summon,
    spell_distance_adjustment, wall_of_fire_hits,
};

const KINDS: [(&str, SpellKind); 4] = [
    ("missile", SpellKind::Missile),
    ("thrown", SpellKind::Thrown),
    ("creation", SpellKind::Creation),
    ("special", SpellKind::Special),
];

/// Where a figure ended its move, for Wall of Fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    In,
    Next,
    Away,
}

const ENDED: [(&str, Ended); 3] = [
    ("in", Ended::In),
    ("next", Ended::Next),
    ("away", Ended::Away),
];

/// The largest distance, attribute, size or hit count accepted.
const MAX_NUMBER: i64 = 1000;

/// A creature offered to a summoning: ST, DX, IQ and hexes.
#[derive(Debug, Clone, Copy)]
struct Creature {
    st: u32,
    dx: u32,
    iq: u32,
    hexes: u32,
}

/// A parsed `/tftref spell`.
#[derive(Debug, Clone)]
pub struct Spell {
    info: Option<&'static SpellInfo>,
    kind: Option<SpellKind>,
    distance: Option<u32>,
    creature: Option<Creature>,
    /// Wall of Fire: hexes of wall passed through, where the move ended, armor's stops.
    wall: Option<(u32, Ended, u32)>,
    /// Options given that this spell leaves unused, said in the reply rather than refused, so
    /// one set of options can be reused from spell to spell.
    unused: Vec<&'static str>,
}

impl Spell {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "spell", "kind", "distance", "st", "dx", "iq", "hexes", "through", "ended", "armor",
            ],
        )?;
        let number = |name: &str| -> AppResult<Option<u32>> {
            Ok(o.int(name, 0, MAX_NUMBER)?.map(|n| n as u32))
        };
        let info = o.text("spell").map(find_spell).transpose()?;
        let kind = match o.text("kind") {
            Some(k) => Some(menu("kind", k, &KINDS)?),
            None => info.map(|i| i.kind),
        };
        let hexes = number("hexes")?.unwrap_or(1);
        let armor = number("armor")?.unwrap_or(0);
        let creature = match (number("st")?, number("dx")?, number("iq")?) {
            (Some(st), Some(dx), Some(iq)) => Some(Creature { st, dx, iq, hexes }),
            _ => None,
        };
        let mut unused = Vec::new();
        let partial = ["st", "dx", "iq"].iter().any(|n| o.text(n).is_some());
        if creature.is_none() && partial {
            unused.push("st, dx and iq check a summoned creature only all three together");
        }
        let ended = o
            .text("ended")
            .map(|e| menu("ended", e, &ENDED))
            .transpose()?;
        let through = number("through")?;
        let wall = if through.is_some() || ended.is_some() {
            Some((through.unwrap_or(0), ended.unwrap_or(Ended::Away), armor))
        } else {
            None
        };
        let distance = number("distance")?;
        if distance.is_some() && kind.is_none() {
            unused.push("distance needs the spell's type: a spell the house rules list, or kind");
        }
        if creature.is_some() && info.is_none_or(|i| summon_limit(i).is_none()) {
            unused.push("st, dx and iq check a creature for a Summon spell of the house rules");
        }
        if wall.is_some() && !info.is_some_and(|i| i.name.ends_with("Wall of Fire")) {
            unused.push("through, ended and armor count a Wall of Fire's hits");
        }
        if info.is_none() && (distance.is_none() || kind.is_none()) {
            return Err(user(
                "/tftref spell needs a spell the house rules list, or a kind and a distance.",
            ));
        }
        Ok(Self {
            info,
            kind,
            distance,
            creature,
            wall,
            unused,
        })
    }

    /// The house rules' spells (tft-house-rules.txt, "New and Changed Spells": their numbers,
    /// summons, Wall of Fire); a spell's distance by its kind is tft-rules-summary.md's.
    pub(super) fn house_rule(&self) -> Option<&'static str> {
        self.info.map(|_| "The house rules' spells")
    }

    pub fn run(self) -> Reply {
        let mut fields: Vec<Field> = Vec::new();
        if let Some(i) = self.info {
            fields.push(field("Spell", spell_text(i), false));
        }
        if let (Some(kind), Some(d)) = (self.kind, self.distance) {
            let adj = spell_distance_adjustment(kind, d);
            let text = match kind {
                SpellKind::Missile => {
                    format!("{} adjDX at {d} megahexes (-1 for every two)", signed(adj))
                }
                SpellKind::Thrown => {
                    format!("{} adjDX at {d} hexes between (-1 a hex)", signed(adj))
                }
                SpellKind::Creation => "no adjustment for distance".to_owned(),
                SpellKind::Special => "as the spell's own text says".to_owned(),
            };
            fields.push(field("Distance", text, false));
        }
        if let (Some(c), Some(limit)) = (self.creature, self.info.and_then(summon_limit)) {
            let fits = fits_summon(limit, c.st, c.dx, c.iq, c.hexes);
            fields.push(field(
                "Summoned",
                format!(
                    "ST {} DX {} IQ {}, {} hex{}: {} ({})",
                    c.st,
                    c.dx,
                    c.iq,
                    c.hexes,
                    if c.hexes == 1 { "" } else { "es" },
                    if fits { "fits" } else { "does not fit" },
                    limit_text(limit)
                ),
                false,
            ));
        }
        if let Some((through, ended, armor)) = self.wall {
            let hits = wall_of_fire_hits(through, ended == Ended::In, ended == Ended::Next, armor);
            fields.push(field(
                "Wall of Fire",
                format!(
                    "{} hits this turn, {} through armor stopping {armor}",
                    hits.total, hits.through_armor
                ),
                false,
            ));
        }
        if !self.unused.is_empty() {
            fields.push(field("Not counted", self.unused.join("; "), false));
        }
        let title = self
            .info
            .map_or_else(|| "A spell's distance".to_owned(), |i| i.name.to_owned());
        Reply::ephemeral("").with_embed(Embed {
            title,
            description: String::new(),
            tone: Some(Tone::Grey),
            fields,
            footer: None,
        })
    }
}

/// A spell of the house rules by name, ignoring case and spaces.
fn find_spell(name: &str) -> AppResult<&'static SpellInfo> {
    let key = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let wanted = key(name);
    NEW_SPELLS
        .iter()
        .find(|s| key(s.name) == wanted)
        .ok_or_else(|| {
            user(format!(
                "The house rules list no spell \"{}\"; for another spell give kind and distance.",
                escape(name.trim())
            ))
        })
}

fn summon_limit(info: &SpellInfo) -> Option<SummonLimit> {
    SUMMON_LIMITS
        .iter()
        .find(|(n, _)| *n == info.name)
        .map(|(_, l)| *l)
}

fn spell_text(i: &SpellInfo) -> String {
    let kind = KINDS
        .iter()
        .find(|(_, k)| *k == i.kind)
        .map_or("special", |(n, _)| *n);
    let upkeep = match i.upkeep {
        SpellUpkeep::None => String::new(),
        SpellUpkeep::PerTurn(n) => format!(", {n} ST a turn to keep up"),
        SpellUpkeep::PerHourBack(n) => format!(", {n} ST for each hour back"),
    };
    format!("IQ {}, {kind}, {} ST to cast{upkeep}", i.iq, i.cast_st)
}

fn limit_text(limit: SummonLimit) -> String {
    match limit {
        SummonLimit::Animal {
            max_st,
            max_dx,
            max_iq,
            one_hex,
        } => format!(
            "an animal of at most ST {max_st}, DX {max_dx}, IQ {max_iq}{}",
            if one_hex { ", one hex" } else { "" }
        ),
        SummonLimit::Fighter {
            st_plus_dx,
            iq,
            min_st,
        } => {
            let least = if min_st > 0 {
                format!(", ST at least {min_st}")
            } else {
                String::new()
            };
            format!("a fighter of ST + DX {st_plus_dx}, IQ {iq}{least}")
        }
    }
}
