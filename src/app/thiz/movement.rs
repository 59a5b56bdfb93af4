//! `/move rate|climb|travel|animal|spot|pilot|chase|near|collide|crash`: the movement chapter at
//! the table (rules in `rules::thiz::movement`).
//!
//! Owns reading what a move needs from the sheet (Speed, General Physical, wounds, a missing or
//! Useless leg, the quirks and weaknesses the chapter names), rolling through the rules with the
//! context's dice, logging each d100 check whole ([`ActionRecord`]) and the replies. The helpers
//! at the bottom ([`Planned`], [`finish`]) are shared with `/advance`. Never decides a rule.

use std::fmt::Write as _;

use super::record::{ActionRecord, CheckRecord, ThizRecord};
use super::shared::{INPUT_LIMIT, int, level_text, mode, tone};
use super::stats::{ThizChar, clamp_input, describe_base};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::thiz::check::{CheckInput, CheckOutcome, resolve_check, roll_check};
use crate::rules::thiz::hazards::ChartRoll;
use crate::rules::thiz::movement::climbing::climb;
use crate::rules::thiz::movement::rates::{animal_rate, swim_rate};
use crate::rules::thiz::movement::travel::{
    BOATS, TimeOfDay, command_animal, navigation_modifier, street_smarts_modifier,
};
use crate::rules::thiz::movement::vehicles::{
    Approach, Collision, GapChange, Passing, SpeedCategory, Victims, WreckOutcome,
    attack_from_vehicle_modifier, chase_leaders, chase_move, collide, crash_hit, is_chase,
    is_inoperable, near_collision, pilot_rating, vehicle_defence_speed, wreck_check,
};
use crate::rules::thiz::movement::{
    Gait, Hindrance, Load, Miles, Terrain, VehicleScale, climb_rate_feet, jog_endurance,
    movement_rate, movement_rating, sprint_endurance, swim_jog_endurance, travel_day, vehicle_rate,
};
use crate::rules::thiz::skills::{General, SkillId, SkillKind};
use crate::rules::thiz::traits::{Quirk, QuirkChoice, Weakness};
use crate::rules::thiz::{Location, Rating};
use crate::store::Conn;

/// The highest Speed typed for an animal or a vehicle: animals run past 30, the vehicle table
/// stops at 53 and a few more let the rules say so.
pub const SPEED_LIMIT: i64 = 60;
/// The tallest climb accepted, in feet.
pub const MAX_HEIGHT: i64 = 10_000;
/// The most rivers forded in a day.
pub const MAX_FORDS: i64 = 50;
/// The widest chase gap accepted, in feet.
pub const MAX_GAP: i64 = 100_000;

/// What `/move` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveArgs {
    Rate {
        character: Option<String>,
        heavy: bool,
        animal_speed: Option<i32>,
        fast: bool,
    },
    Climb {
        height: u32,
        character: Option<String>,
        modifier: i32,
        mode: RollMode,
    },
    Travel {
        character: Option<String>,
        speed: Option<i32>,
        load: Load,
        terrain: Terrain,
        fords: u32,
        boat: Option<usize>,
        navigate: Option<TimeOfDay>,
        sky: bool,
        modifier: i32,
        mode: RollMode,
    },
    Animal {
        character: Option<String>,
        modifier: i32,
        mode: RollMode,
    },
    Spot {
        character: Option<String>,
        city: bool,
        modifier: i32,
        mode: RollMode,
    },
    Pilot {
        skill: String,
        character: Option<String>,
        pace: SpeedCategory,
        speed: Option<i32>,
        scale: VehicleScale,
        wrecked: bool,
        modifier: i32,
        mode: RollMode,
    },
    Chase {
        first_speed: i32,
        second_speed: i32,
        scale: VehicleScale,
        initiatives: Option<(i32, i32)>,
        gap: Option<(u32, GapChange)>,
    },
    Near {
        approach: Approach,
        other_rating: i32,
        skill: String,
        character: Option<String>,
        pace: SpeedCategory,
        modifier: i32,
        mode: RollMode,
    },
    Collide {
        collision: Collision,
        mode: RollMode,
    },
    Crash {
        vehicle_speed: i32,
        character: Option<String>,
        armour: i32,
        mode: RollMode,
    },
}

/// A value of a fixed menu, or a refusal naming the ones accepted.
pub(super) fn pick<T: Copy>(o: &Opts<'_>, name: &str, menu: &[(&str, T)]) -> AppResult<Option<T>> {
    let Some(typed) = o.text(name) else {
        return Ok(None);
    };
    let key = typed.trim().to_ascii_lowercase();
    menu.iter()
        .find(|(n, _)| *n == key)
        .map(|(_, v)| Some(*v))
        .ok_or_else(|| {
            let names: Vec<&str> = menu.iter().map(|(n, _)| *n).collect();
            user(format!(
                "{name} must be one of {}; you gave {:?}",
                names.join(", "),
                typed.trim()
            ))
        })
}

const PACES: [(&str, SpeedCategory); 4] = [
    ("slow", SpeedCategory::Slow),
    ("cruising", SpeedCategory::Cruising),
    ("fast", SpeedCategory::Fast),
    ("flat_out", SpeedCategory::FlatOut),
];
const SCALES: [(&str, VehicleScale); 3] = [
    ("terrestrial", VehicleScale::Terrestrial),
    ("aircraft", VehicleScale::Aircraft),
    ("spacecraft", VehicleScale::Spacecraft),
];

fn speed(o: &Opts<'_>, name: &str, min: i64) -> AppResult<Option<i32>> {
    Ok(o.int(name, min, SPEED_LIMIT)?.map(int))
}

fn modifier(o: &Opts<'_>) -> AppResult<i32> {
    Ok(int(o
        .int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?
        .unwrap_or(0)))
}

fn character(o: &Opts<'_>) -> Option<String> {
    o.text("character").map(str::to_owned)
}

impl MoveArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str).unwrap_or_default();
        if inv.path.len() != 2 {
            return Err(user(format!(
                "There is no command {}. /move has rate, climb, travel, animal, spot, pilot, chase, near, collide and crash.",
                escape(&inv.display_path())
            )));
        }
        let rolled = ["character", "modifier", "mode"];
        let with = |extra: &[&'static str]| -> Vec<&'static str> {
            rolled.iter().chain(extra).copied().collect()
        };
        Ok(match sub {
            "rate" => {
                let o = Opts::new(inv, &["character", "heavy", "animal_speed", "fast"])?;
                MoveArgs::Rate {
                    character: character(&o),
                    heavy: o.flag("heavy")?,
                    animal_speed: speed(&o, "animal_speed", -INPUT_LIMIT)?,
                    fast: o.flag("fast")?,
                }
            }
            "climb" => {
                let o = Opts::new(inv, &with(&["height"]))?;
                MoveArgs::Climb {
                    height: u32::try_from(o.required_int("height", 1, MAX_HEIGHT)?)
                        .unwrap_or_default(),
                    character: character(&o),
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "travel" => parse_travel(inv)?,
            "animal" => {
                let o = Opts::new(inv, &rolled)?;
                MoveArgs::Animal {
                    character: character(&o),
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "spot" => {
                let o = Opts::new(inv, &with(&["city"]))?;
                MoveArgs::Spot {
                    character: character(&o),
                    city: o.flag("city")?,
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "pilot" => {
                let o = Opts::new(inv, &with(&["skill", "pace", "speed", "scale", "wrecked"]))?;
                MoveArgs::Pilot {
                    skill: o.required("skill")?.trim().to_owned(),
                    character: character(&o),
                    pace: pick(&o, "pace", &PACES)?.unwrap_or(SpeedCategory::Cruising),
                    speed: speed(&o, "speed", 0)?,
                    scale: pick(&o, "scale", &SCALES)?.unwrap_or(VehicleScale::Terrestrial),
                    wrecked: o.flag("wrecked")?,
                    modifier: modifier(&o)?,
                    mode: mode(&o)?,
                }
            }
            "chase" => parse_chase(inv)?,
            "near" => parse_near(inv)?,
            "collide" => parse_collide(inv)?,
            "crash" => {
                let o = Opts::new(inv, &["vehicle_speed", "character", "armour", "mode"])?;
                MoveArgs::Crash {
                    vehicle_speed: int(o.required_int("vehicle_speed", 0, SPEED_LIMIT)?),
                    character: character(&o),
                    armour: int(o.int("armour", 0, INPUT_LIMIT)?.unwrap_or(0)),
                    mode: mode(&o)?,
                }
            }
            _ => {
                return Err(user(format!(
                    "There is no command {}. /move has rate, climb, travel, animal, spot, pilot, chase, near, collide and crash.",
                    escape(&inv.display_path())
                )));
            }
        })
    }
}

/// The options of a rolled subcommand: character, modifier and mode, and `extra`.
fn rolled_with(extra: &[&'static str]) -> Vec<&'static str> {
    ["character", "modifier", "mode"]
        .iter()
        .chain(extra)
        .copied()
        .collect()
}

fn parse_travel(inv: &Invocation) -> AppResult<MoveArgs> {
    let o = Opts::new(
        inv,
        &rolled_with(&[
            "speed", "load", "terrain", "fords", "boat", "navigate", "sky",
        ]),
    )?;
    let boats: Vec<(&str, usize)> = vec![("rowed", 0), ("sailing", 1), ("ship", 2), ("powered", 3)];
    Ok(MoveArgs::Travel {
        character: character(&o),
        speed: speed(&o, "speed", -INPUT_LIMIT)?,
        load: pick(
            &o,
            "load",
            &[
                ("unladen", Load::Unladen),
                ("rider", Load::Rider),
                ("vehicle", Load::Vehicle),
            ],
        )?
        .unwrap_or_default(),
        terrain: pick(
            &o,
            "terrain",
            &[
                ("open", Terrain::Open),
                ("desert", Terrain::Desert),
                ("mountains", Terrain::Mountains),
            ],
        )?
        .unwrap_or_default(),
        fords: u32::try_from(o.int("fords", 0, MAX_FORDS)?.unwrap_or(0)).unwrap_or_default(),
        boat: pick(&o, "boat", &boats)?,
        navigate: pick(
            &o,
            "navigate",
            &[("day", TimeOfDay::Day), ("night", TimeOfDay::Night)],
        )?,
        sky: o.flag("sky")?,
        modifier: modifier(&o)?,
        mode: mode(&o)?,
    })
}

fn parse_chase(inv: &Invocation) -> AppResult<MoveArgs> {
    let o = Opts::new(
        inv,
        &[
            "first_speed",
            "second_speed",
            "scale",
            "first_initiative",
            "second_initiative",
            "gap",
            "change",
        ],
    )?;
    let first = o.int("first_initiative", -100, 100)?.map(int);
    let second = o.int("second_initiative", -100, 100)?.map(int);
    let gap = o.int("gap", 0, MAX_GAP)?;
    let change = pick(
        &o,
        "change",
        &[("close", GapChange::Close), ("widen", GapChange::Widen)],
    )?;
    Ok(MoveArgs::Chase {
        first_speed: int(o.required_int("first_speed", 0, SPEED_LIMIT)?),
        second_speed: int(o.required_int("second_speed", 0, SPEED_LIMIT)?),
        scale: pick(&o, "scale", &SCALES)?.unwrap_or(VehicleScale::Terrestrial),
        initiatives: first.zip(second),
        gap: gap
            .and_then(|g| u32::try_from(g).ok())
            .zip(change.or(Some(GapChange::Close))),
    })
}

fn parse_near(inv: &Invocation) -> AppResult<MoveArgs> {
    let o = Opts::new(
        inv,
        &rolled_with(&["approach", "other_rating", "skill", "pace"]),
    )?;
    Ok(MoveArgs::Near {
        approach: pick(
            &o,
            "approach",
            &[
                ("crossing", Approach::Crossing),
                ("head_on", Approach::HeadOn),
            ],
        )?
        .unwrap_or(Approach::Crossing),
        other_rating: int(o.required_int("other_rating", -INPUT_LIMIT, INPUT_LIMIT)?),
        skill: o.required("skill")?.trim().to_owned(),
        character: character(&o),
        pace: pick(&o, "pace", &PACES)?.unwrap_or(SpeedCategory::Cruising),
        modifier: modifier(&o)?,
        mode: mode(&o)?,
    })
}

fn parse_collide(inv: &Invocation) -> AppResult<MoveArgs> {
    let o = Opts::new(inv, &["kind", "speed", "other_speed", "mode"])?;
    let kinds = [
        ("crossing", 0),
        ("rear_end", 1),
        ("head_on", 2),
        ("pedestrian", 3),
        ("fixture", 4),
    ];
    let kind = pick(&o, "kind", &kinds)?.unwrap_or(0);
    let s = int(o.required_int("speed", 0, SPEED_LIMIT)?);
    let other = speed(&o, "other_speed", -INPUT_LIMIT)?;
    let need_other = || {
        other.ok_or_else(|| {
            user("That collision needs other_speed: the other vehicle's (or the pedestrian's) Speed.")
        })
    };
    let collision = match kind {
        1 => Collision::RearEnd {
            striker_speed: s,
            struck_speed: need_other()?,
        },
        2 => Collision::HeadOn {
            first_speed: s,
            second_speed: need_other()?,
        },
        3 => Collision::Pedestrian {
            vehicle_speed: s,
            pedestrian_speed: need_other()?,
        },
        4 => Collision::Fixture { vehicle_speed: s },
        _ => Collision::Crossing { striker_speed: s },
    };
    Ok(MoveArgs::Collide {
        collision,
        mode: mode(&o)?,
    })
}

/// Runs `/move …`.
pub(super) fn run(ctx: &Ctx<'_>, a: &MoveArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| match a {
        MoveArgs::Rate {
            character,
            heavy,
            animal_speed,
            fast,
        } => match animal_speed {
            Some(s) => Ok(animal_rates(*s, *fast)),
            None => rates(&load(ctx, tx, character.as_deref())?, *heavy),
        },
        MoveArgs::Climb {
            height,
            character,
            modifier,
            mode,
        } => {
            let tc = load(ctx, tx, character.as_deref())?;
            climb_up(ctx, tx, &tc, *height, *modifier, *mode)
        }
        MoveArgs::Travel { .. } => travel(ctx, tx, a),
        MoveArgs::Animal {
            character,
            modifier,
            mode,
        } => animal(ctx, tx, character.as_deref(), *modifier, *mode),
        MoveArgs::Spot {
            character,
            city,
            modifier,
            mode,
        } => spot(ctx, tx, character.as_deref(), *city, *modifier, *mode),
        MoveArgs::Pilot { .. } => pilot(ctx, tx, a),
        MoveArgs::Chase {
            first_speed,
            second_speed,
            scale,
            initiatives,
            gap,
        } => chase(*first_speed, *second_speed, *scale, *initiatives, *gap),
        MoveArgs::Near { .. } => near(ctx, tx, a),
        MoveArgs::Collide { collision, mode } => collision_roll(ctx, tx, *collision, *mode),
        MoveArgs::Crash {
            vehicle_speed,
            character,
            armour,
            mode,
        } => {
            let tc = load(ctx, tx, character.as_deref())?;
            crash(ctx, tx, &tc, *vehicle_speed, *armour, *mode)
        }
    })
}

/// `/move animal`: command an animal.
fn animal(
    ctx: &Ctx<'_>,
    tx: &Conn,
    character: Option<&str>,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let tc = load(ctx, tx, character)?;
    let p = Planned::skill(&tc, SkillKind::AnimalHandling, modifier)?;
    let mental = tc.generals.get(General::Mental);
    let id = SkillId::single(SkillKind::AnimalHandling).map_err(user)?;
    let skill = tc.learned(&id).unwrap_or(mental);
    let shift = p.input.modifier + p.input.wound_penalty;
    let order = command_animal(
        skill.saturating_add(shift),
        mental.saturating_add(shift),
        &mut ctx.dice(),
    );
    let out = p.outcome(order.check)?;
    let said = if order.obeys {
        "The animal obeys."
    } else {
        "The animal will not do it."
    };
    finish(
        ctx,
        tx,
        mode,
        &tc,
        "animal",
        vec![p.record(&tc, &out)],
        Vec::new(),
        said,
        Embed {
            title: format!("{}: commanding an animal", escape(&tc.character.name)),
            description: format!("**{}** — {said}", level_text(out.level)),
            tone: Some(tone(out.level)),
            fields: vec![field("Animal Handling", p.line(&out))],
            footer: None,
        },
        &[out],
    )
}

/// `/move spot`: Perception, with Street-Smarts in a city.
fn spot(
    ctx: &Ctx<'_>,
    tx: &Conn,
    character: Option<&str>,
    city: bool,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let tc = load(ctx, tx, character)?;
    let bonus = street_smarts_modifier(has_quirk(&tc, Quirk::StreetSmarts), city);
    let p = Planned::skill(&tc, SkillKind::Perception, modifier.saturating_add(bonus))?;
    let out = roll_check(&p.input, &mut ctx.dice()).map_err(|e| user(format!("{e}.")))?;
    let mut line = p.line(&out);
    if bonus != 0 {
        let _ = write!(line, "\nStreet-Smarts in a city: {}", signed(bonus));
    }
    finish(
        ctx,
        tx,
        mode,
        &tc,
        "spot",
        vec![p.record(&tc, &out)],
        Vec::new(),
        out.level.name(),
        Embed {
            title: format!("{}: Perception", escape(&tc.character.name)),
            description: format!("**{}**", level_text(out.level)),
            tone: Some(tone(out.level)),
            fields: vec![field("Perception", line)],
            footer: None,
        },
        &[out],
    )
}

/// The acting THIZ character.
pub(super) fn load(ctx: &Ctx<'_>, conn: &Conn, name: Option<&str>) -> AppResult<ThizChar> {
    let c = ctx.acting_character(conn, name)?;
    ThizChar::load(conn, c, "this command")
}

/// Whether the sheet lists `quirk` (a subject in brackets is ignored).
pub(super) fn has_quirk(tc: &ThizChar, quirk: Quirk) -> bool {
    quirk_subject(tc, quirk).is_some()
}

/// The text of the quirk as listed ("Celestial Guidance (night)"), if the sheet lists it.
fn quirk_subject(tc: &ThizChar, quirk: Quirk) -> Option<&str> {
    tc.sheet
        .quirks
        .iter()
        .find(|q| {
            let name = q.split(['(', '[', ':']).next().unwrap_or(q);
            Quirk::from_name(name) == Some(quirk)
        })
        .map(String::as_str)
}

fn field(name: &str, value: String) -> Field {
    Field {
        name: name.to_owned(),
        value,
        inline: false,
    }
}

/// The movement rating of a character with what hinders them, and how it came about.
fn movement_of(tc: &ThizChar, heavy: bool) -> AppResult<(i32, String)> {
    let effects = tc.wounds.effects();
    let speed = tc.base_of(SkillKind::Speed)?.rating.0;
    let physical = tc.generals.get(General::Physical);
    let wound = effects.speed_check();
    let legless = tc
        .sheet
        .missing_limb
        .as_deref()
        .and_then(Location::parse)
        .is_some_and(|l| matches!(l, Location::LeftLeg | Location::RightLeg));
    let useless = effects
        .useless
        .iter()
        .any(|l| matches!(l, Location::LeftLeg | Location::RightLeg));
    // Decision: a Useless leg (a Black wound) moves like a missing one, and a missing or Useless
    // leg outranks a heavy load, whose Speed 0 is the better of the two.
    let hindrance = if legless || useless {
        Hindrance::MissingLeg
    } else if heavy {
        Hindrance::HeavyLoad
    } else {
        Hindrance::None
    };
    // Decision: the legs' wound penalty lowers Speed and General Physical alike, since either
    // one is what the legs carry.
    let rating = movement_rating(
        speed.saturating_add(wound),
        physical.saturating_add(wound),
        hindrance,
    );
    let why = match hindrance {
        Hindrance::MissingLeg if useless && !legless => "a Useless leg".to_owned(),
        Hindrance::MissingLeg => "a missing leg".to_owned(),
        Hindrance::HeavyLoad => "a heavy load".to_owned(),
        Hindrance::None => {
            let mut t = format!("better of Speed {speed} and Physical {physical}");
            if wound != 0 {
                let _ = write!(t, ", wounds {}", signed(wound));
            }
            t
        }
    };
    Ok((rating, why))
}

fn gait_name(g: Gait) -> &'static str {
    match g {
        Gait::Crawl => "Crawl",
        Gait::Walk => "Walk",
        Gait::Jog => "Jog",
        Gait::Sprint => "Sprint",
    }
}

fn rate_lines(rate: impl Fn(Gait) -> Option<crate::rules::thiz::movement::Rate>) -> String {
    Gait::ALL
        .iter()
        .map(|g| match rate(*g) {
            Some(r) => format!(
                "{}: {} ft/turn · {} ft/min",
                gait_name(*g),
                r.per_turn,
                r.per_minute
            ),
            None => format!("{}: —", gait_name(*g)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `/move rate` for a character: gaits, swimming, endurance and climbing.
fn rates(tc: &ThizChar, heavy: bool) -> AppResult<Reply> {
    let (rating, why) = movement_of(tc, heavy)?;
    let effects = tc.wounds.effects();
    let swim_id = SkillId::single(SkillKind::Swimming).map_err(user)?;
    let swimming = tc.learned(&swim_id).unwrap_or(0);
    let swim = if swimming > 0 {
        let walk = swim_rate(swimming, rating, Gait::Walk);
        let jog = swim_rate(swimming, rating, Gait::Jog);
        let feet = |r: Option<crate::rules::thiz::movement::Rate>| {
            r.map_or("—".to_owned(), |r| format!("{} ft/turn", r.per_turn))
        };
        format!("steady {} · fast {}", feet(walk), feet(jog))
    } else {
        "treads water only (no Swimming skill)".to_owned()
    };
    let toughness = tc
        .base_of(SkillKind::Toughness)?
        .rating
        .0
        .saturating_add(effects.toughness_check());
    let physical = tc.generals.get(General::Physical);
    let marathon = has_quirk(tc, Quirk::MarathonRunner);
    let weak = tc.has_weakness(Weakness::WeakConstitution);
    let jog = jog_endurance(toughness, physical, marathon);
    let sprint = sprint_endurance(toughness, physical, marathon, weak);
    let swim_far = swim_jog_endurance(toughness, physical);
    let climbing = tc.base_of(SkillKind::Climbing)?.rating.0;
    let endurance = format!(
        "Jog {} h, then {} min rest\nSprint (or haul a heavy load) {} min, then {} min rest\nSwim fast {} min",
        jog.total, jog.rest_minutes, sprint.total, sprint.rest_minutes, swim_far.total
    );
    Ok(Reply::public("").with_embed(Embed {
        title: format!("{}: movement", escape(&tc.character.name)),
        description: format!("Movement rating {rating} ({why})"),
        tone: Some(Tone::Info),
        fields: vec![
            field("On foot", rate_lines(|g| movement_rate(rating, g))),
            field("Swimming", swim),
            field("Endurance", endurance),
            field("Climbing", format!("{} ft/turn", climb_rate_feet(climbing))),
        ],
        footer: None,
    }))
}

/// `/move rate animal_speed:N [fast]`.
fn animal_rates(speed: i32, fast: bool) -> Reply {
    let what = if fast { "a fast animal" } else { "an animal" };
    Reply::public("").with_embed(Embed {
        title: format!("{what} at Speed {speed}"),
        description: String::new(),
        tone: Some(Tone::Info),
        fields: vec![field("Rates", rate_lines(|g| animal_rate(speed, g, fast)))],
        footer: None,
    })
}

/// `/move climb`.
fn climb_up(
    ctx: &Ctx<'_>,
    tx: &Conn,
    tc: &ThizChar,
    height: u32,
    modifier: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let p = Planned::skill(tc, SkillKind::Climbing, modifier)?;
    let done = climb(height, p.rating(), &mut ctx.dice());
    let mut outs = Vec::new();
    let mut lines = Vec::new();
    for (at, chart) in &done.checks {
        let out = p.outcome(*chart)?;
        lines.push(format!(
            "at {at} ft: d100 {} → {}",
            out.roll,
            level_text(out.level)
        ));
        outs.push(out);
    }
    let feet = climb_rate_feet(p.input.base.0);
    let (outcome, dice, tone_of) = match done.fall {
        Some((at, drop)) => {
            let how = if drop.hit_bottom {
                "all the way to the ground"
            } else {
                "and caught hold"
            };
            (
                format!(
                    "lost their grip at {at} ft and fell {} ft {how} (d10 {} × 10)",
                    drop.fallen_feet, drop.d10
                ),
                vec![drop.d10],
                Tone::Grey,
            )
        }
        None => (
            format!("reached the top at {height} ft"),
            Vec::new(),
            Tone::Green,
        ),
    };
    let records = outs.iter().map(|o| p.record(tc, o)).collect();
    finish(
        ctx,
        tx,
        mode,
        tc,
        "climb",
        records,
        dice,
        &outcome,
        Embed {
            title: format!("{}: climbing {height} ft", escape(&tc.character.name)),
            description: format!("**{}** {}", escape(&tc.character.name), outcome),
            tone: Some(tone_of),
            fields: vec![
                field("Checks", format!("{}\n{}", p.base_text(), lines.join("\n"))),
                field("Rate", format!("{feet} ft/turn")),
            ],
            footer: Some("A fall's wounds are the referee's (the falling rules).".to_owned()),
        },
        &outs,
    )
}

/// `/move travel`.
fn travel(ctx: &Ctx<'_>, tx: &Conn, a: &MoveArgs) -> AppResult<Reply> {
    let MoveArgs::Travel {
        character,
        speed,
        load: carried,
        terrain,
        fords,
        boat,
        navigate,
        sky,
        modifier,
        mode,
    } = a
    else {
        return Err(user("/move travel"));
    };
    // A boat or a typed Speed needs no sheet; only the march at one's own pace and navigating do.
    let tc = if (speed.is_none() && boat.is_none()) || navigate.is_some() {
        Some(load(ctx, tx, character.as_deref())?)
    } else {
        None
    };
    let mut fields = Vec::new();
    let day = if let Some(b) = boat.and_then(|i| BOATS.get(i)) {
        let most = b.miles_per_day.last().copied().unwrap_or(0);
        let miles = Miles::whole(most);
        fields.push(field(
            "By water",
            format!("a {}: up to {} miles a day", b.name, miles.as_f64()),
        ));
        miles
    } else {
        let (rating, why) = match (speed, &tc) {
            (Some(s), _) => (*s, format!("Speed {s}")),
            (None, Some(tc)) => movement_of(tc, false)?,
            (None, None) => return Err(user("/move travel needs a character or a speed.")),
        };
        let d = travel_day(rating, rating, *carried, *terrain, *fords);
        fields.push(field(
            "The day's march",
            format!(
                "{} miles ({why}) · after the load {} · after the terrain {} · {} fords → **{} miles**",
                d.base.as_f64(),
                d.after_load.as_f64(),
                d.after_terrain.as_f64(),
                d.fords,
                d.total.as_f64()
            ),
        ));
        d.total
    };
    let (Some(time), Some(tc)) = (navigate, &tc) else {
        return Ok(Reply::public("").with_embed(Embed {
            title: format!("A day's travel: {} miles", day.as_f64()),
            tone: Some(Tone::Info),
            fields,
            ..Embed::default()
        }));
    };
    let celestial = celestial_time(tc);
    let bonus = navigation_modifier(
        *time,
        *sky,
        celestial,
        tc.has_weakness(Weakness::NightBlind),
    )
    .map_err(|e| {
        user(format!(
            "{} cannot navigate: {e}.",
            escape(&tc.character.name)
        ))
    })?;
    let p = Planned::skill(tc, SkillKind::Navigation, modifier.saturating_add(bonus))?;
    let out = roll_check(&p.input, &mut ctx.dice()).map_err(|e| user(format!("{e}.")))?;
    let mut line = p.line(&out);
    if let Some(l) = celestial_line(tc, bonus) {
        line.push_str(&l);
    }
    fields.push(field("Navigation", line));
    let found = if out.is_success() {
        "kept to the way"
    } else {
        "lost the way"
    };
    finish(
        ctx,
        tx,
        *mode,
        tc,
        "navigate",
        vec![p.record(tc, &out)],
        Vec::new(),
        found,
        Embed {
            title: format!("{}: a day's travel", escape(&tc.character.name)),
            description: format!("**{}** — {found}", level_text(out.level)),
            tone: Some(tone(out.level)),
            fields,
            footer: None,
        },
        &[out],
    )
}

/// The line Celestial Guidance adds to a Navigation check: its bonus, or why a quirk without its
/// chosen time gave none.
fn celestial_line(tc: &ThizChar, bonus: i32) -> Option<String> {
    if bonus != 0 {
        Some(format!("\nCelestial Guidance: {}", signed(bonus)))
    } else if celestial_time(tc).is_none() && has_quirk(tc, Quirk::CelestialGuidance) {
        Some("\nCelestial Guidance gives nothing until its time is chosen: /character set field:quirks value:\"Celestial Guidance (day)\" (or night).".to_owned())
    } else {
        None
    }
}

/// The time of day a Celestial Guidance quirk on the sheet was chosen for.
fn celestial_time(tc: &ThizChar) -> Option<TimeOfDay> {
    // thiz-rulebook.md, chapter 4 "Celestial Guidance": the player chooses day or night, and
    // only that time gets the bonus. Decision: a quirk listed without its choice gives neither
    // (`/character validate` asks for the choice); guessing one side would favour it.
    match quirk_subject(tc, Quirk::CelestialGuidance).and_then(QuirkChoice::of_entry)? {
        QuirkChoice::Night => Some(TimeOfDay::Night),
        _ => Some(TimeOfDay::Day),
    }
}

/// The check of a Pilot skill at a pace.
fn pilot_plan(
    tc: &ThizChar,
    skill: &str,
    pace: SpeedCategory,
    modifier: i32,
) -> AppResult<Planned> {
    let id = SkillId::parse(skill)
        .ok()
        .filter(|id| id.is(SkillKind::Pilot))
        .ok_or_else(|| {
            user(format!(
                "{} is not a Pilot skill; name one like skill:\"Pilot (Cart)\".",
                escape(skill)
            ))
        })?;
    let mental = tc.generals.get(General::Mental);
    let learned = tc.learned(&id);
    // Decision: the flat-out penalty is part of the base the log keeps ("Pilot (Cart) 5 flat-out
    // -3"), so a reroll of the check replays it; the player's modifier stays their own.
    let rating = pilot_rating(learned.unwrap_or(mental), mental, pace);
    let wound = tc.wounds.effects().skill_check(None);
    let mut text = match learned {
        Some(r) if r >= mental => format!("{} {r}", escape(&id.to_string())),
        _ => format!("Mental {mental}"),
    };
    if pace == SpeedCategory::FlatOut {
        text.push_str(" flat-out -3");
    }
    Ok(Planned::new(
        tc,
        &id.to_string(),
        text,
        rating.0,
        modifier,
        wound,
    ))
}

/// `/move pilot`.
fn pilot(ctx: &Ctx<'_>, tx: &Conn, a: &MoveArgs) -> AppResult<Reply> {
    let MoveArgs::Pilot {
        skill,
        character,
        pace,
        speed,
        scale,
        wrecked,
        modifier,
        mode,
    } = a
    else {
        return Err(user("/move pilot"));
    };
    let tc = load(ctx, tx, character.as_deref())?;
    let p = pilot_plan(&tc, skill, *pace, *modifier)?;
    let mut fields = Vec::new();
    if let Some(s) = speed {
        let rate = vehicle_rate(*s, *scale).map_err(|e| user(format!("{e}.")))?;
        fields.push(field(
            &format!("At Speed {s}"),
            format!(
                "{} ft/turn · {} ft/min\nShooting from it: {} (none heading straight at or away)\nIt defends with Speed {}",
                rate.per_turn,
                rate.per_minute,
                signed(attack_from_vehicle_modifier(*s, false)),
                vehicle_defence_speed(*s)
            ),
        ));
    }
    let (out, said) = if *wrecked {
        let w = wreck_check(p.rating(), &mut ctx.dice());
        let said = match w.outcome {
            WreckOutcome::Crash => "control is lost: everyone aboard is hit (/move crash)",
            WreckOutcome::Stopped => "brought safely to a stop",
            WreckOutcome::OneMoreTurn => "kept moving one more turn, then stopped",
        };
        (p.outcome(w.check)?, said)
    } else {
        let out = roll_check(&p.input, &mut ctx.dice()).map_err(|e| user(format!("{e}.")))?;
        let said = if out.is_success() {
            "the manoeuvre comes off"
        } else {
            "the manoeuvre fails"
        };
        (out, said)
    };
    fields.insert(0, field("Pilot", p.line(&out)));
    finish(
        ctx,
        tx,
        *mode,
        &tc,
        if *wrecked { "wreck" } else { "pilot" },
        vec![p.record(&tc, &out)],
        Vec::new(),
        said,
        Embed {
            title: format!("{}: {}", escape(&tc.character.name), escape(&p.subject)),
            description: format!("**{}** — {said}", level_text(out.level)),
            tone: Some(tone(out.level)),
            fields,
            footer: None,
        },
        &[out],
    )
}

/// `/move chase`: no dice (initiative is rolled as in combat).
fn chase(
    first: i32,
    second: i32,
    scale: VehicleScale,
    initiatives: Option<(i32, i32)>,
    gap: Option<(u32, GapChange)>,
) -> AppResult<Reply> {
    let a = vehicle_rate(first, scale).map_err(|e| user(format!("{e}.")))?;
    let b = vehicle_rate(second, scale).map_err(|e| user(format!("{e}.")))?;
    let mut lines = vec![format!(
        "First: {} ft/turn · second: {} ft/turn",
        a.per_turn, b.per_turn
    )];
    if !is_chase(a.per_turn, b.per_turn) {
        lines.push(
            "No chase: the slower cannot keep two thirds of the faster's pace, so the faster catches or loses them at once."
                .to_owned(),
        );
    } else if let Some((i, j)) = initiatives {
        let leaders = chase_leaders(&[i, j]);
        match leaders.as_slice() {
            [leader] => {
                let (name, feet) = if *leader == 0 {
                    ("first", a.per_turn)
                } else {
                    ("second", b.per_turn)
                };
                lines.push(format!(
                    "The {name} mover has the initiative and may change the gap."
                ));
                if let Some((g, change)) = gap {
                    let m = chase_move(g, feet, change);
                    let pass = if m.may_pass {
                        " — they may pass, drop behind or draw alongside"
                    } else {
                        ""
                    };
                    lines.push(format!(
                        "Gap {} ft → {} ft{pass}",
                        m.gap_before, m.gap_after
                    ));
                }
            }
            // Decision: on a tie the bot moves no one; the referee settles who acts first.
            _ => lines.push("Tied initiative: both may change the gap.".to_owned()),
        }
    } else {
        lines.push("A chase: roll initiative to see who may change the gap.".to_owned());
    }
    Ok(Reply::public("").with_embed(Embed {
        title: "Chase".to_owned(),
        description: lines.join("\n"),
        tone: Some(Tone::Info),
        ..Embed::default()
    }))
}

/// `/move near`.
fn near(ctx: &Ctx<'_>, tx: &Conn, a: &MoveArgs) -> AppResult<Reply> {
    let MoveArgs::Near {
        approach,
        other_rating,
        skill,
        character,
        pace,
        modifier,
        mode,
    } = a
    else {
        return Err(user("/move near"));
    };
    let tc = load(ctx, tx, character.as_deref())?;
    let p = pilot_plan(&tc, skill, *pace, *modifier)?;
    let other = CheckInput::at(*other_rating);
    let n = near_collision(*approach, p.rating(), other.adjusted(), &mut ctx.dice());
    let mine = p.outcome(n.first)?;
    let theirs = resolve_check(&other, n.second.roll).map_err(|e| user(format!("{e}.")))?;
    let said = match n.outcome {
        Passing::Collide if *approach == Approach::HeadOn => "they collide head-on (/move collide)",
        Passing::Collide => "they collide (/move collide)",
        Passing::FirstChooses => "you choose how close and how fast you pass",
        Passing::SecondChooses => "the other pilot chooses how close and how fast you pass",
        Passing::WithinMissileRange => "you pass within missile range",
    };
    finish(
        ctx,
        tx,
        *mode,
        &tc,
        "near",
        vec![
            p.record(&tc, &mine),
            CheckRecord::new(None, "other pilot", None, &theirs),
        ],
        Vec::new(),
        said,
        Embed {
            title: format!("{}: a near collision", escape(&tc.character.name)),
            description: format!("**{said}**"),
            tone: Some(tone(mine.level)),
            fields: vec![
                field("Your pilot", p.line(&mine)),
                field(
                    "The other pilot",
                    format!(
                        "rating {other_rating} · d100 {}: {}",
                        theirs.roll,
                        level_text(theirs.level)
                    ),
                ),
            ],
            footer: None,
        },
        &[mine],
    )
}

/// `/move collide`: no character; the hit is each victim's to check Toughness against.
fn collision_roll(
    ctx: &Ctx<'_>,
    tx: &Conn,
    collision: Collision,
    mode: RollMode,
) -> AppResult<Reply> {
    let hit = collide(collision, &mut ctx.dice());
    // Decision: the log keeps the collision's rating clamped to ±40 (a head-on crash of two fast
    // vehicles can pass it); the chart reads every rating past ±30 alike, so the level is the same.
    let input = CheckInput::at(clamp_input(hit.check.rating.0));
    let out = resolve_check(&input, hit.check.roll).map_err(|e| user(format!("{e}.")))?;
    let who = match hit.victims {
        Victims::BothVehicles => "both vehicles",
        Victims::PedestrianOnly => "the pedestrian only",
        Victims::VehicleOnly => "the vehicle (the wall or building is the referee's)",
    };
    let mut said = if hit.hit.is_success() {
        format!("a {} hit on {who}, before Toughness", hit.hit)
    } else {
        "no wound".to_owned()
    };
    if hit.victims != Victims::PedestrianOnly && is_inoperable(hit.hit) {
        said.push_str("; a vehicle that keeps it is out of action");
    }
    let record = ActionRecord {
        action: "collide".to_owned(),
        character_id: None,
        character: None,
        checks: vec![CheckRecord::new(None, "collision", None, &out)],
        dice: Vec::new(),
        outcome: said.clone(),
    };
    ctx.log_roll(tx, None, "move", mode, "", &ThizRecord::Move(record))?;
    let full = Reply::public("").with_embed(Embed {
        title: format!("Collision at rating {}", hit.check.rating),
        description: format!("**{said}**"),
        tone: Some(tone(hit.hit)),
        fields: vec![field("Roll", format!("d100: {}", hit.check.roll))],
        footer: None,
    });
    Ok(ctx.route(mode, "a collision", full))
}

/// `/move crash`: a wrecked vehicle's hit on one occupant.
fn crash(
    ctx: &Ctx<'_>,
    tx: &Conn,
    tc: &ThizChar,
    vehicle_speed: i32,
    armour: i32,
    mode: RollMode,
) -> AppResult<Reply> {
    let speed = tc
        .base_of(SkillKind::Speed)?
        .rating
        .0
        .saturating_add(tc.wounds.effects().speed_check());
    let hit = crash_hit(vehicle_speed, speed, armour, &mut ctx.dice());
    let input = CheckInput::at(clamp_input(hit.check.rating.0));
    let out = resolve_check(&input, hit.check.roll).map_err(|e| user(format!("{e}.")))?;
    // Decision: the crash attacks the occupant, so the occupant's Unlucky does not flag it; the
    // location and the Toughness check follow as for any hit (/wound add), by the referee.
    let said = if hit.hit.is_success() {
        format!(
            "a {} hit: roll the location, then a Toughness check",
            hit.hit
        )
    } else {
        "unhurt".to_owned()
    };
    let name = tc.character.name.clone();
    let record = ActionRecord {
        action: "crash".to_owned(),
        character_id: Some(tc.character.id),
        character: Some(name.clone()),
        checks: vec![CheckRecord::new(
            Some((tc.character.id, &name)),
            "crash",
            None,
            &out,
        )],
        dice: Vec::new(),
        outcome: said.clone(),
    };
    ctx.log_roll(
        tx,
        Some(tc.character.id),
        "move",
        mode,
        "",
        &ThizRecord::Move(record),
    )?;
    let full = Reply::public("").with_embed(Embed {
        title: format!("{}: thrown about in a crash", escape(&name)),
        description: format!("**{said}**"),
        tone: Some(tone(hit.hit)),
        fields: vec![field(
            "Roll",
            format!(
                "vehicle Speed {} − Speed {} − armour {} → {} · d100 {}",
                hit.vehicle_speed,
                hit.occupant_speed,
                hit.armour_bonus,
                hit.check.rating,
                hit.check.roll
            ),
        )],
        footer: None,
    });
    Ok(ctx.route(mode, "a crash", full))
}

// ---------------------------------------------------------------------------------------------
// Shared with /advance
// ---------------------------------------------------------------------------------------------

/// A d100 check before it is rolled (often through a rules function): what it is on, and its
/// input whole, kept in the log so luck can later reroll it.
pub(super) struct Planned {
    pub subject: String,
    base_text: String,
    pub input: CheckInput,
}

impl Planned {
    /// A check of `tc` at `base`, with their wounds and Unlucky.
    pub fn new(
        tc: &ThizChar,
        subject: &str,
        base_text: String,
        base: i32,
        modifier: i32,
        wound_penalty: i32,
    ) -> Planned {
        Planned {
            subject: subject.to_owned(),
            base_text,
            input: CheckInput {
                base: Rating(clamp_input(base)),
                modifier,
                wound_penalty: wound_penalty.clamp(-INPUT_LIMIT as i32, 0),
                unlucky: tc.has_weakness(Weakness::Unlucky),
                shifty: false,
            },
        }
    }

    /// A check of a single-instance skill (the better of it and its general rating).
    pub fn skill(tc: &ThizChar, kind: SkillKind, modifier: i32) -> AppResult<Planned> {
        let base = tc.base_of(kind)?;
        let wound = tc.wounds.effects().skill_check(None);
        Ok(Planned::new(
            tc,
            kind.name(),
            describe_base(kind.name(), &base),
            base.rating.0,
            modifier,
            wound,
        ))
    }

    /// The rating a rules function rolls against: the input's adjusted rating.
    pub fn rating(&self) -> Rating {
        self.input.adjusted()
    }

    pub fn base_text(&self) -> String {
        let mut t = escape(&self.base_text);
        if self.input.modifier != 0 {
            let _ = write!(t, " · modifier {}", signed(self.input.modifier));
        }
        if self.input.wound_penalty != 0 {
            let _ = write!(t, " · wounds {}", signed(self.input.wound_penalty));
        }
        let _ = write!(t, " → {}", self.input.adjusted());
        t
    }

    /// The outcome this check's input gives for the d100 a rules function rolled.
    pub fn outcome(&self, chart: ChartRoll) -> AppResult<CheckOutcome> {
        resolve_check(&self.input, chart.roll).map_err(|e| user(format!("{e}.")))
    }

    /// "Climbing 4 · wounds -2 → 2 · d100 37: Yellow success".
    pub fn line(&self, out: &CheckOutcome) -> String {
        format!(
            "{} · d100 {}: {}",
            self.base_text(),
            out.roll,
            level_text(out.level)
        )
    }

    pub fn record(&self, tc: &ThizChar, out: &CheckOutcome) -> CheckRecord {
        CheckRecord::new(
            Some((tc.character.id, &tc.character.name)),
            &self.subject,
            Some(&self.subject),
            out,
        )
    }
}

/// Logs a character's `/move` or `/advance` roll and routes the reply by mode; an Unlucky
/// character's 98–100 is flagged to the GM alone.
#[allow(clippy::too_many_arguments)] // The log row's parts, named at the call site.
pub(super) fn finish(
    ctx: &Ctx<'_>,
    tx: &Conn,
    mode: RollMode,
    tc: &ThizChar,
    action: &str,
    checks: Vec<CheckRecord>,
    dice: Vec<u32>,
    outcome: &str,
    embed: Embed,
    outs: &[CheckOutcome],
) -> AppResult<Reply> {
    let record = ActionRecord {
        action: action.to_owned(),
        character_id: Some(tc.character.id),
        character: Some(tc.character.name.clone()),
        checks,
        dice,
        outcome: outcome.to_owned(),
    };
    let (command, logged) = if matches!(action, "work" | "craft") {
        ("advance", ThizRecord::Advance(record))
    } else {
        ("move", ThizRecord::Move(record))
    };
    ctx.log_roll(tx, Some(tc.character.id), command, mode, "", &logged)?;
    let what = format!("/{command} {action}");
    let routed = ctx.route(mode, &what, Reply::public("").with_embed(embed));
    let who = escape(&tc.character.name);
    let lines: Vec<String> = outs
        .iter()
        .filter(|o| o.unlucky_flag)
        .map(|o| {
            format!(
                "Unlucky: {who} rolled {} on {what}: a mishap is due, whatever the level.",
                o.roll
            )
        })
        .collect();
    Ok(routed.with_gm_lines(&lines))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Kit;
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::dice::{DieSource, SeededDice};

    fn description(reply: &Reply) -> String {
        reply
            .embeds
            .first()
            .map(|e| e.description.clone())
            .unwrap_or_default()
    }

    fn logged(kit: &Kit) -> ActionRecord {
        let json = kit.last_roll_json().expect("a roll was logged");
        match ThizRecord::from_json(&json) {
            Some(ThizRecord::Move(r) | ThizRecord::Advance(r)) => r,
            _ => panic!("{json}"),
        }
    }

    /// The first seed whose dice make `want` true.
    fn seed_where(want: impl Fn(&mut SeededDice) -> bool) -> u64 {
        (0..10_000u64)
            .find(|s| want(&mut SeededDice::new(*s)))
            .expect("a seed")
    }

    #[test]
    fn rate_follows_speed_and_a_missing_or_useless_leg() {
        // thiz-rulebook.md, "Movement Rates": the better of Speed and General Physical picks the
        // row; Missing Limb moves as Speed -2; a heavy load as Speed 0.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Speed", 12);
        let run = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["move", "rate"], opts);
        let plain = run(&[]);
        assert!(
            description(&plain).starts_with("Movement rating 12"),
            "{plain:?}"
        );
        assert!(plain.embeds[0].fields[0].value.contains("Walk: 25 ft/turn"));
        let heavy = run(&[("heavy", "true")]);
        assert!(description(&heavy).starts_with("Movement rating 0 (a heavy load)"));
        kit.wound(vexa, "left leg", "black");
        let useless = run(&[("heavy", "true")]);
        assert!(
            description(&useless).starts_with("Movement rating -2 (a Useless leg)"),
            "{useless:?}"
        );
        // Row -2..0: no jog beyond 25 ft, crawl 3.
        assert!(
            useless.embeds[0].fields[0]
                .value
                .contains("Crawl: 3 ft/turn")
        );
        let kit = Kit::new(1);
        let bran = kit.thiz("Bran", kit.player_id(), false);
        kit.skill(bran, "Speed", 12);
        kit.sheet(bran, r#"{"missing_limb": "right leg"}"#);
        let legless = kit.run(&kit.player(), &["move", "rate"], &[]);
        assert!(description(&legless).starts_with("Movement rating -2 (a missing leg)"));
        assert_eq!(kit.roll_count(), 0, "rates roll nothing");
    }

    #[test]
    fn endurance_swimming_and_animals() {
        // "Jogging"/"Sprinting": Toughness or Physical hours and minutes, Marathon Runner +3,
        // Weak Constitution sprints 3 lower; "Swimming": only with the skill; fast animals x3.
        let kit = Kit::new(1);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Toughness", 6);
        kit.skill(vexa, "Swimming", 2);
        let reply = kit.run(&kit.player(), &["move", "rate"], &[]);
        let text = reply.all_text();
        assert!(text.contains("Jog 6 h"), "{text}");
        assert!(
            text.contains("Sprint (or haul a heavy load) 6 min"),
            "{text}"
        );
        assert!(text.contains("steady 20 ft/turn"), "{text}");
        kit.sheet(
            vexa,
            r#"{"quirks": ["Marathon Runner"], "weaknesses": ["Weak Constitution"]}"#,
        );
        let text = kit.run(&kit.player(), &["move", "rate"], &[]).all_text();
        assert!(text.contains("Jog 9 h"), "{text}");
        assert!(text.contains("heavy load) 6 min"), "{text}");
        let horse = kit.run(
            &kit.player(),
            &["move", "rate"],
            &[("animal_speed", "12"), ("fast", "true")],
        );
        assert!(horse.all_text().contains("Walk: 75 ft/turn"), "{horse:?}");
    }

    #[test]
    fn a_climb_reaches_the_top_or_falls_and_is_logged_whole() {
        // "Climbing": checks halfway and at the top under 100 feet; a failure drops 1d10 x 10.
        let at = |seed: u64| climb(60, Rating(-2), &mut SeededDice::new(seed));
        let up = seed_where(|d| climb(60, Rating(-2), d).reached_top);
        let down = seed_where(|d| climb(60, Rating(-2), d).fall.is_some());
        for seed in [up, down] {
            let kit = Kit::new(seed);
            let vexa = kit.thiz("Vexa", kit.player_id(), false);
            kit.sheet(vexa, r#"{"weaknesses": ["Unlucky"]}"#);
            kit.wound(vexa, "head", "green");
            let reply = kit.run(
                &kit.player(),
                &["move", "climb"],
                &[("height", "60"), ("modifier", "-1")],
            );
            let want = at(seed);
            let rec = logged(&kit);
            assert_eq!(rec.checks.len(), want.checks.len(), "{reply:?}");
            let first = &rec.checks[0];
            // Physical 0, modifier -1, a Green head wound -1: rating -2.
            assert_eq!(
                (
                    first.base,
                    first.modifier,
                    first.wound_penalty,
                    first.unlucky
                ),
                (0, -1, -1, true)
            );
            assert_eq!(first.roll, want.checks[0].1.roll);
            if seed == up {
                assert!(description(&reply).contains("reached the top at 60 ft"));
                assert!(rec.dice.is_empty());
            } else {
                let (_, drop) = want.fall.unwrap();
                assert!(description(&reply).contains(&format!("fell {} ft", drop.fallen_feet)));
                assert_eq!(rec.dice, [drop.d10]);
            }
        }
    }

    #[test]
    fn travel_marches_rides_sails_and_navigates() {
        // "Long-Distance Travel": 15 + half the rating; rider 2/3; half a mile per ford.
        let kit = Kit::new(3);
        let run = |opts: &[(&str, &str)]| kit.run(&kit.player(), &["move", "travel"], opts);
        assert!(run(&[("speed", "6")]).embeds[0].title.contains("18 miles"));
        let ride = run(&[("speed", "6"), ("load", "rider"), ("fords", "2")]);
        assert!(ride.embeds[0].title.contains("11 miles"), "{ride:?}");
        let boat = run(&[("speed", "6"), ("boat", "ship")]);
        assert!(boat.embeds[0].title.contains("65 miles"), "{boat:?}");
        assert_eq!(kit.roll_count(), 0);
        // Night-Blind cannot navigate at night: refused, nothing logged.
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.sheet(
            vexa,
            r#"{"weaknesses": ["Night-Blind"], "quirks": ["Celestial Guidance (night)"]}"#,
        );
        let night = run(&[("navigate", "night"), ("sky", "true")]);
        assert_eq!(night.visibility, Visibility::Ephemeral);
        assert!(night.content.contains("cannot navigate"), "{night:?}");
        assert_eq!(kit.roll_count(), 0);
        kit.sheet(vexa, r#"{"quirks": ["Celestial Guidance (night)"]}"#);
        let starlit = run(&[("navigate", "night"), ("sky", "true")]);
        assert!(
            starlit.all_text().contains("Celestial Guidance: +3"),
            "{starlit:?}"
        );
        assert_eq!(logged(&kit).checks[0].modifier, 3);
        let cloudy = run(&[("navigate", "night")]);
        assert!(!cloudy.all_text().contains("Celestial"));
        // Chapter 4 "Celestial Guidance": only the time chosen gets the +3; a quirk without its
        // choice gets neither and the reply says how to record it.
        for (quirk, time, bonus) in [
            ("Celestial Guidance (day)", "day", 3),
            ("Celestial Guidance (day)", "night", 0),
            ("Celestial Guidance (night)", "day", 0),
            ("Celestial Guidance", "day", 0),
            ("Celestial Guidance", "night", 0),
        ] {
            kit.sheet(vexa, &format!(r#"{{"quirks": ["{quirk}"]}}"#));
            let reply = run(&[("navigate", time), ("sky", "true")]);
            assert_eq!(logged(&kit).checks[0].modifier, bonus, "{quirk} {time}");
            assert_eq!(
                reply
                    .all_text()
                    .contains("gives nothing until its time is chosen"),
                !quirk.contains('('),
                "{quirk} {time}: {reply:?}"
            );
        }
    }

    #[test]
    fn street_smarts_and_animals_check_the_right_skill() {
        let kit = Kit::new(5);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.sheet(vexa, r#"{"quirks": ["Street-Smarts"]}"#);
        kit.run(&kit.player(), &["move", "spot"], &[("city", "true")]);
        assert_eq!(logged(&kit).checks[0].modifier, 3);
        kit.run(&kit.player(), &["move", "spot"], &[]);
        assert_eq!(logged(&kit).checks[0].modifier, 0);
        kit.skill(vexa, "Animal Handling", 4);
        let order = kit.run(&kit.player(), &["move", "animal"], &[]);
        let rec = logged(&kit);
        assert_eq!((rec.action.as_str(), rec.checks[0].base), ("animal", 4));
        let obeys = crate::rules::thiz::resolve(Rating(4), rec.checks[0].roll).is_success();
        assert_eq!(description(&order).contains("obeys"), obeys);
    }

    #[test]
    fn pilots_flat_out_wrecks_and_near_collisions() {
        // "Vehicular Movement": flat-out -3; "Inoperable Vehicles": a failure crashes.
        let crash_seed = seed_where(|d| d.d100() > 90);
        let kit = Kit::new(crash_seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Pilot (Cart)", 5);
        let reply = kit.run(
            &kit.player(),
            &["move", "pilot"],
            &[
                ("skill", "Pilot (Cart)"),
                ("pace", "flat_out"),
                ("wrecked", "true"),
                ("speed", "12"),
            ],
        );
        let rec = logged(&kit);
        assert_eq!((rec.action.as_str(), rec.checks[0].base), ("wreck", 2));
        assert!(description(&reply).contains("control is lost"), "{reply:?}");
        assert!(reply.all_text().contains("Shooting from it: -12"));
        let refused = kit.run(&kit.player(), &["move", "pilot"], &[("skill", "Stealth")]);
        assert!(refused.content.contains("not a Pilot skill"));
        let near = kit.run(
            &kit.player(),
            &["move", "near"],
            &[("skill", "Pilot (Cart)"), ("other_rating", "3")],
        );
        assert_eq!(logged(&kit).checks.len(), 2, "{near:?}");
        let over = kit.run(
            &kit.player(),
            &["move", "pilot"],
            &[("skill", "Pilot (Cart)"), ("speed", "54")],
        );
        assert!(over.content.contains("stops at Speed 53"), "{over:?}");
    }

    #[test]
    fn chases_collisions_and_crashes() {
        // "Vehicular Chases": two thirds of the pace; closing past the gap allows passing.
        let kit = Kit::new(9);
        let run = |path: &str, opts: &[(&str, &str)]| kit.run(&kit.player(), &["move", path], opts);
        let lost = run("chase", &[("first_speed", "1"), ("second_speed", "53")]);
        assert!(description(&lost).contains("No chase"), "{lost:?}");
        let on = run(
            "chase",
            &[
                ("first_speed", "12"),
                ("second_speed", "10"),
                ("first_initiative", "9"),
                ("second_initiative", "4"),
                ("gap", "70"),
            ],
        );
        assert!(
            description(&on).contains("Gap 70 ft → 0 ft — they may pass"),
            "{on:?}"
        );
        let tie = run(
            "chase",
            &[
                ("first_speed", "12"),
                ("second_speed", "10"),
                ("first_initiative", "4"),
                ("second_initiative", "4"),
            ],
        );
        assert!(description(&tie).contains("Tied"));
        let missing = run("collide", &[("kind", "head_on"), ("speed", "12")]);
        assert!(missing.content.contains("needs other_speed"));
        assert_eq!(kit.roll_count(), 0);
        let hit = run(
            "collide",
            &[("kind", "head_on"), ("speed", "12"), ("other_speed", "8")],
        );
        assert!(hit.embeds[0].title.contains("rating 20"), "{hit:?}");
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.skill(vexa, "Speed", 4);
        let thrown = run("crash", &[("vehicle_speed", "15"), ("armour", "2")]);
        assert!(thrown.all_text().contains("→ 9"), "{thrown:?}");
        assert_eq!(logged(&kit).character.as_deref(), Some("Vexa"));
    }

    #[test]
    fn unlucky_is_flagged_to_the_gm_only_and_refusals_change_nothing() {
        let seed = seed_where(|d| d.d100() >= 98);
        let kit = Kit::new(seed);
        let vexa = kit.thiz("Vexa", kit.player_id(), false);
        kit.thiz("Bran", kit.other_id(), false);
        kit.sheet(vexa, r#"{"weaknesses": ["Unlucky"]}"#);
        let reply = kit.run(&kit.player(), &["move", "spot"], &[("mode", "private")]);
        assert!(!reply.caller_text().contains("Unlucky"), "{reply:?}");
        assert!(
            reply
                .gm_copy
                .unwrap()
                .all_text()
                .contains("a mishap is due")
        );
        let before = kit.roll_count();
        for (path, opts) in [
            ("spot", vec![("character", "Bran")]),
            ("climb", vec![("height", "0")]),
            ("climb", vec![("height", "10"), ("colour", "red")]),
            ("travel", vec![("load", "cart")]),
            ("dance", vec![]),
        ] {
            let r = kit.run(&kit.player(), &["move", path], &opts);
            assert_eq!(r.visibility, Visibility::Ephemeral, "{path} {opts:?}");
            assert!(!r.content.contains('\n'), "{}", r.content);
        }
        assert_eq!(kit.roll_count(), before);
    }
}
