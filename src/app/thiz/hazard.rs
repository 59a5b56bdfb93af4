//! `/hazard fall|fire|water|suffocation|poison`: the hazards of the THIZ rulebook's chapter 9 met
//! by one character, the dice rolled, the wound written on the sheet and the roll logged, all in
//! one transaction.
//!
//! Also holds what `/magic` shares with it: a character's check rolled by a rules function, kept
//! in the log with its input whole ([`check_record`]), and the Unlucky line for the GM.
//!
//! Decisions:
//! - A hazard's own roll (the ground, the flames, the want of air) is not the character's check:
//!   no wound penalty, modifier or Unlucky applies to it, as none applies to an attacker's roll
//!   against them. Staying afloat and resisting a poison are the character's checks: they take
//!   the wound penalty (Toughness's for poison, a skill's for swimming), `modifier` and Unlucky.
//! - Without `location`, a fall or a fire strikes where the random location table says.
//! - A fall that kills writes nothing on the sheet: death is not a wound colour.
//! - A poison that is not resisted writes nothing yet: its wound lands only if no antidote is
//!   found in time, so the reply names the wound for the GM's `/wound add` when it does.
//! - Suffocation takes the turn count the referee keeps (the rulebook has them keep it) instead of
//!   counting it in the bot, so a turn repeated or skipped by mistake is fixed by typing a number.

use std::fmt::Write as _;

use super::record::{
    CheckRecord, HazardRecord, HazardRoll, ThizRecord, ToughnessRecord, WoundRecord,
    parse_wound_level, rows_from_sheet,
};
use super::shared::{INPUT_LIMIT, int, level_text, mode, parse_location, tone};
use super::stats::{ThizChar, clamp_input, describe_base};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::dice::DieSource;
use crate::rules::thiz::check::{CheckInput, resolve_check};
use crate::rules::thiz::hazards::{
    AirlessTurn, Breath, ChartRoll, DEADLY_FALL_FEET, FALL_SOAK, FIRE_RATINGS, FIRE_SOAK,
    FallOutcome, MAX_FALL_FEET, POISON_LOCATION, QuarterTime, SAFE_FALL_FEET, SUFFOCATION_LOCATION,
    Soak, Surface, TimeUnit, WATER_RATINGS, WaterSituation, afloat_check, afloat_check_due,
    afloat_rating, fall, fire_attack, needs_afloat_check, poison,
};
use crate::rules::thiz::skills::SkillKind;
use crate::rules::thiz::traits::{Quirk, Weakness, unlucky_mishap};
use crate::rules::thiz::wounds::{WoundSheet, random_location, take_hit};
use crate::rules::thiz::{Level, Location, Rating};
use crate::store::{Conn, characters};

/// The highest water rating accepted (the table stops at 50, a hurricane).
pub const MAX_WATER: i64 = 60;
/// The most turns without air, or units of a poison's duration, accepted.
pub const MAX_COUNT: i64 = 1000;

/// What the water calls for a check by (`/hazard water situation:…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    SuddenFall,
    Dive,
    Armour,
    StartSwim,
    StartTurn,
    /// The second check, to come back up after going under.
    Resurface,
}

impl Situation {
    pub const NAMES: [&'static str; 6] = [
        "sudden_fall",
        "dive",
        "armour",
        "start_swim",
        "start_turn",
        "resurface",
    ];

    fn parse(text: &str) -> AppResult<Self> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "sudden_fall" => Situation::SuddenFall,
            "dive" => Situation::Dive,
            "armour" | "armor" => Situation::Armour,
            "start_swim" => Situation::StartSwim,
            "start_turn" => Situation::StartTurn,
            "resurface" => Situation::Resurface,
            other => {
                return Err(user(format!(
                    "situation must be one of {}; you gave {}",
                    Self::NAMES.join(", "),
                    escape(other)
                )));
            }
        })
    }
}

/// The subcommands of `/hazard`; every one names a `character` and takes a `mode`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HazardKind {
    Fall {
        height: u32,
        surface: Surface,
        location: Option<Location>,
    },
    Fire {
        rating: i32,
        fleeing: bool,
        location: Option<Location>,
    },
    Water {
        water: i32,
        situation: Option<Situation>,
        height: u32,
        modifier: i32,
    },
    Suffocation {
        turn: u32,
    },
    Poison {
        wound: Level,
        duration: QuarterTime,
        location: Location,
        modifier: i32,
    },
}

/// The options of `/hazard …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HazardArgs {
    pub character: Option<String>,
    pub kind: HazardKind,
    pub mode: RollMode,
}

fn count(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

fn surface(text: Option<&str>) -> AppResult<Surface> {
    Ok(
        match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
            None | Some("unyielding") => Surface::Unyielding,
            Some("yielding") => Surface::Yielding,
            Some("water") => Surface::Water,
            Some(other) => {
                return Err(user(format!(
                    "surface must be unyielding, yielding or water; you gave {}",
                    escape(other)
                )));
            }
        },
    )
}

fn unit(text: &str) -> AppResult<TimeUnit> {
    Ok(match text.trim().to_ascii_lowercase().as_str() {
        "turns" => TimeUnit::Turns,
        "minutes" => TimeUnit::Minutes,
        "hours" => TimeUnit::Hours,
        "days" => TimeUnit::Days,
        other => {
            return Err(user(format!(
                "unit must be turns, minutes, hours or days; you gave {}",
                escape(other)
            )));
        }
    })
}

impl HazardArgs {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let sub = inv.path.get(1).map(String::as_str);
        let accepted: &[&str] = match sub {
            Some("fall") => &["character", "height", "surface", "location", "mode"],
            Some("fire") => &["character", "rating", "fleeing", "location", "mode"],
            Some("water") => &[
                "character",
                "water",
                "situation",
                "height",
                "modifier",
                "mode",
            ],
            Some("suffocation") => &["character", "turn", "mode"],
            Some("poison") => &[
                "character",
                "wound",
                "duration",
                "unit",
                "location",
                "modifier",
                "mode",
            ],
            _ => &[],
        };
        if accepted.is_empty() || inv.path.len() != 2 {
            return Err(user(format!(
                "There is no command {}. /hazard takes fall, fire, water, suffocation or poison.",
                escape(&inv.display_path())
            )));
        }
        let o = Opts::new(inv, accepted)?;
        let location = || o.text("location").map(parse_location).transpose();
        let modifier = || -> AppResult<i32> {
            Ok(int(o
                .int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?
                .unwrap_or(0)))
        };
        let kind = match sub {
            Some("fall") => HazardKind::Fall {
                height: count(o.required_int("height", 0, i64::from(MAX_FALL_FEET))?),
                surface: surface(o.text("surface"))?,
                location: location()?,
            },
            Some("fire") => HazardKind::Fire {
                rating: int(o.required_int("rating", -INPUT_LIMIT, INPUT_LIMIT)?),
                fleeing: o.flag("fleeing")?,
                location: location()?,
            },
            Some("water") => HazardKind::Water {
                water: int(o.required_int("water", 0, MAX_WATER)?),
                situation: o.text("situation").map(Situation::parse).transpose()?,
                height: count(o.int("height", 0, i64::from(MAX_FALL_FEET))?.unwrap_or(0)),
                modifier: modifier()?,
            },
            Some("suffocation") => HazardKind::Suffocation {
                turn: count(o.required_int("turn", 1, MAX_COUNT)?),
            },
            _ => {
                let typed = o.required("wound")?;
                let wound = parse_wound_level(typed).ok_or_else(|| {
                    user(format!(
                        "A poison's wound is green, yellow, red or black; you gave {}.",
                        escape(typed.trim())
                    ))
                })?;
                let amount = count(o.required_int("duration", 1, MAX_COUNT)?);
                HazardKind::Poison {
                    wound,
                    duration: QuarterTime::whole(amount, unit(o.required("unit")?)?),
                    location: location()?.unwrap_or(POISON_LOCATION),
                    modifier: modifier()?,
                }
            }
        };
        Ok(HazardArgs {
            character: o.text("character").map(str::to_owned),
            kind,
            mode: mode(&o)?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Shared with `/magic`
// ---------------------------------------------------------------------------------------------

/// Whether the sheet lists `quirk` (a subject in brackets is ignored), as
/// [`ThizChar::has_weakness`] reads weaknesses.
pub(super) fn has_quirk(tc: &ThizChar, quirk: Quirk) -> bool {
    tc.sheet.quirks.iter().any(|q| {
        let name = q.split(['(', '[', ':']).next().unwrap_or(q);
        Quirk::from_name(name) == Some(quirk)
    })
}

/// The record of a character's check that a rules function rolled at `base + modifier +
/// wound_penalty`: the same d100 read through the check rules, so the log keeps the input apart
/// (base, modifier, wound penalty, Unlucky) for luck to roll it again.
// Decision: a base past ±40 (twice a high Swimming, a hurricane) is kept as ±40; the chart reads
// every rating past ±30 alike, so the record reads the roll as the rules did unless a modifier
// pulls it back by more than ten.
pub(super) fn check_record(
    tc: &ThizChar,
    subject: &str,
    skill: Option<&str>,
    base: i32,
    adjust: (i32, i32),
    roll: u32,
) -> AppResult<CheckRecord> {
    let (modifier, wound_penalty) = adjust;
    let input = CheckInput {
        base: Rating(clamp_input(base)),
        modifier,
        wound_penalty: wound_penalty.clamp(-INPUT_LIMIT as i32, 0),
        unlucky: tc.has_weakness(Weakness::Unlucky),
        shifty: false,
    };
    let outcome = resolve_check(&input, roll).map_err(|e| user(format!("{e}.")))?;
    Ok(CheckRecord::new(
        Some((tc.character.id, &tc.character.name)),
        subject,
        skill,
        &outcome,
    ))
}

/// The GM's line when an Unlucky character rolled 98–100 on `check`.
pub(super) fn unlucky_line(check: &CheckRecord, what: &str) -> Option<String> {
    unlucky_mishap(check.unlucky, check.roll).then(|| {
        format!(
            "Unlucky: {} rolled {} {what}, a mishap is due whatever the level.",
            escape(check.character.as_deref().unwrap_or_default()),
            check.roll
        )
    })
}

/// A check's rating in words: "Willpower 3 · modifier +1 · wounds -1 → 3".
pub(super) fn check_text(base_text: &str, check: &CheckRecord) -> String {
    let mut s = base_text.to_owned();
    if check.modifier != 0 {
        let _ = write!(s, " · modifier {}", signed(check.modifier));
    }
    if check.wound_penalty != 0 {
        let _ = write!(s, " · wounds {}", signed(check.wound_penalty));
    }
    let level = super::record::parse_level(&check.level).unwrap_or(Level::Failure);
    let _ = write!(
        s,
        " → {}; d100: {} → {}",
        check.adjusted,
        check.roll,
        level_text(level)
    );
    s
}

pub(super) fn field(name: &str, value: String) -> Field {
    Field {
        name: name.to_owned(),
        value,
        inline: false,
    }
}

/// The reply's embed, as the channel sees a public roll.
pub(super) fn embed_reply(
    title: String,
    lines: &[String],
    tone: Tone,
    fields: Vec<Field>,
) -> Reply {
    Reply::public("").with_embed(Embed {
        title,
        description: lines.join("\n"),
        tone: Some(tone),
        fields,
        footer: None,
    })
}

/// Writes `sheet` as the character's wounds.
pub(super) fn save_wounds(
    ctx: &Ctx<'_>,
    conn: &Conn,
    tc: &ThizChar,
    sheet: &WoundSheet,
) -> AppResult<()> {
    characters::set_wounds(
        conn,
        ctx.caller.guild,
        tc.character.id,
        &rows_from_sheet(sheet),
    )?;
    Ok(())
}

/// A wound written without a Toughness check, as a record.
pub(super) fn add_wound(
    sheet: &mut WoundSheet,
    location: Location,
    level: Level,
) -> AppResult<WoundRecord> {
    let added = sheet
        .add(location, level)
        .map_err(|e| user(format!("{e}.")))?;
    Ok(WoundRecord {
        location: added.location.name().to_owned(),
        inflicted: added.inflicted.name().to_owned(),
        recorded: added.recorded.name().to_owned(),
    })
}

/// "a Red wound on the Gut", "a Yellow wound on the Gut, stacked up to Red".
pub(super) fn wound_text(w: &WoundRecord) -> String {
    if w.inflicted == w.recorded {
        format!("a {} wound on the {}", w.inflicted, w.location)
    } else {
        format!(
            "a {} wound on the {}, stacked up to {}",
            w.inflicted, w.location, w.recorded
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/// One hazard being resolved: the character, their sheet as it is being changed, the record and
/// the reply's parts.
struct Run {
    tc: ThizChar,
    sheet: WoundSheet,
    rec: HazardRecord,
    lines: Vec<String>,
    fields: Vec<Field>,
    gm_lines: Vec<String>,
    tone: Tone,
    /// Turns the character is stunned for (a fall), for the encounter's timed effects.
    stunned: Option<u32>,
}

impl Run {
    fn new(tc: ThizChar, hazard: &str) -> Run {
        let rec = HazardRecord {
            hazard: hazard.to_owned(),
            character_id: tc.character.id,
            character: tc.character.name.clone(),
            hazard_roll: None,
            check: None,
            location: None,
            location_roll: None,
            toughness: None,
            wound: None,
            outcome: String::new(),
        };
        Run {
            sheet: tc.wounds.clone(),
            tc,
            rec,
            lines: Vec::new(),
            fields: Vec::new(),
            gm_lines: Vec::new(),
            tone: Tone::Grey,
            stunned: None,
        }
    }

    fn who(&self) -> String {
        escape(&self.tc.character.name)
    }

    /// The hazard's own roll. `sheet` says its rating was read from the character's sheet (a
    /// fleeing figure's Speed, the breath its Physical gives): an NPC's is then the GM's, and
    /// so is the rating it makes.
    fn hazard_roll(&mut self, name: &str, how: &str, check: &ChartRoll, sheet: bool) {
        self.rec.hazard_roll = Some(HazardRoll {
            rating: check.rating.0,
            roll: check.roll,
            level: check.level.name().to_owned(),
        });
        let npc = sheet && self.tc.character.npc;
        self.fields.push(field(
            name,
            format!(
                "{how} = {}; d100: {} → {}",
                screen::npc(npc, check.rating.to_string()),
                check.roll,
                level_text(check.level)
            ),
        ));
    }

    /// The location struck: the one named, or a roll on the random location table.
    fn place(&mut self, named: Option<Location>, dice: &mut impl DieSource) -> Location {
        let location = named.unwrap_or_else(|| {
            let rolled = random_location(dice);
            self.rec.location_roll = Some(rolled.roll);
            rolled.location
        });
        self.rec.location = Some(location.name().to_owned());
        let how = match self.rec.location_roll {
            Some(r) => format!("{location} (rolled {r})"),
            None => location.to_string(),
        };
        self.fields.push(Field {
            name: "Location".to_owned(),
            value: how,
            inline: true,
        });
        location
    }

    /// A hit of `level` on `location`, through a Toughness check where `soak` says so.
    fn wound(
        &mut self,
        location: Location,
        level: Level,
        soak: Soak,
        dice: &mut impl DieSource,
    ) -> AppResult<()> {
        self.tone = tone(level);
        match soak {
            Soak::None => {
                self.rec.wound = Some(add_wound(&mut self.sheet, location, level)?);
            }
            Soak::Toughness => {
                let toughness = clamp_input(self.tc.base_of(SkillKind::Toughness)?.rating.0);
                let out = take_hit(&mut self.sheet, location, level, toughness, false, dice)
                    .map_err(|e| user(format!("{e}.")))?;
                let t = ToughnessRecord {
                    rating: out.check.rating.0,
                    roll: out.check.roll,
                    level: out.check.level.name().to_owned(),
                };
                self.fields.push(field(
                    "Toughness",
                    format!(
                        "rating {}, d100: {} → {}",
                        screen::npc(self.tc.character.npc, t.rating.to_string()),
                        t.roll,
                        level_text(out.check.level)
                    ),
                ));
                if unlucky_mishap(self.tc.has_weakness(Weakness::Unlucky), t.roll) {
                    self.gm_lines.push(format!(
                        "Unlucky: {} rolled {} for Toughness, a mishap is due whatever the level.",
                        self.who(),
                        t.roll
                    ));
                }
                self.rec.toughness = Some(t);
                self.rec.wound = out.added.map(|w| WoundRecord {
                    location: w.location.name().to_owned(),
                    inflicted: w.inflicted.name().to_owned(),
                    recorded: w.recorded.name().to_owned(),
                });
            }
        }
        let line = match &self.rec.wound {
            Some(w) => format!("{} takes {}.", self.who(), wound_text(w)),
            None => format!("{} shrugs it off: no wound.", self.who()),
        };
        self.lines.push(line);
        if self.rec.wound.is_some() && self.sheet.is_incapacitated() {
            self.lines.push(format!("{} is incapacitated.", self.who()));
        }
        Ok(())
    }
}

/// Runs `/hazard …`.
pub(super) fn run(ctx: &Ctx<'_>, a: &HazardArgs) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        let c = ctx.acting_character(tx, a.character.as_deref())?;
        let command = format!("/hazard {}", name(&a.kind));
        let tc = ThizChar::load(tx, c, &command)?;
        let mut run = Run::new(tc, name(&a.kind));
        let title = {
            let mut dice = ctx.dice();
            match &a.kind {
                HazardKind::Fall {
                    height,
                    surface,
                    location,
                } => falling(&mut run, *height, *surface, *location, &mut dice)?,
                HazardKind::Fire {
                    rating,
                    fleeing,
                    location,
                } => burning(&mut run, *rating, *fleeing, *location, &mut dice)?,
                HazardKind::Water {
                    water,
                    situation,
                    height,
                    modifier,
                } => {
                    let Some(title) =
                        swimming(&mut run, *water, *situation, *height, *modifier, &mut dice)?
                    else {
                        return Err(user(format!(
                            "{} needs no check to stay afloat in that: the rulebook calls for one on a sudden fall, a dive from over 20 feet, swimming in armour, setting out in water rated 10 or more, or a turn begun in water rated 25 or more.",
                            run.who()
                        )));
                    };
                    title
                }
                HazardKind::Suffocation { turn } => suffocating(&mut run, *turn, &mut dice)?,
                HazardKind::Poison {
                    wound,
                    duration,
                    location,
                    modifier,
                } => poisoned(&mut run, *wound, *duration, *location, *modifier, &mut dice)?,
            }
        };
        if run.rec.wound.is_some() {
            save_wounds(ctx, tx, &run.tc, &run.sheet)?;
            // In an encounter here, the tracker counts the stun down.
            if let Some(turns) = run.stunned {
                crate::app::encounter::hooks::stun(ctx, tx, run.tc.character.id, turns)?;
            }
        }
        run.rec.outcome = run.lines.join(" ");
        let roll_id = ctx.log_roll(
            tx,
            Some(run.tc.character.id),
            &format!("hazard {}", name(&a.kind)),
            a.mode,
            "",
            &ThizRecord::Hazard(run.rec.clone()),
        )?;
        let what = format!("a {} for {}", name(&a.kind), run.who());
        let mut full = embed_reply(title, &run.lines, run.tone, run.fields);
        // The character's own check (staying afloat, resisting poison) takes luck (chapter 10).
        // An NPC's luck is the GM's secret: its button goes to the GM alone ([`screen`]).
        if run.rec.check.is_some() {
            let mut reroll = crate::app::luck::button::reroll_button(roll_id);
            reroll.label = screen::npc(run.tc.character.npc, reroll.label);
            full = full.with_button(reroll);
        }
        Ok(ctx.route(a.mode, &what, full).with_gm_lines(&run.gm_lines))
    })
}

fn name(kind: &HazardKind) -> &'static str {
    match kind {
        HazardKind::Fall { .. } => "fall",
        HazardKind::Fire { .. } => "fire",
        HazardKind::Water { .. } => "water",
        HazardKind::Suffocation { .. } => "suffocation",
        HazardKind::Poison { .. } => "poison",
    }
}

/// thiz-rulebook.md, "Fall Damage".
fn falling(
    run: &mut Run,
    height: u32,
    surface: Surface,
    location: Option<Location>,
    dice: &mut impl DieSource,
) -> AppResult<String> {
    let who = run.who();
    let title = format!("{who} falls {height} feet");
    match fall(height, surface, dice).map_err(|e| user(format!("{e}.")))? {
        FallOutcome::Safe => run.lines.push(format!(
            "No harm: a fall of {SAFE_FALL_FEET} feet or less cannot hurt."
        )),
        FallOutcome::Killed => {
            run.tone = Tone::Black;
            run.lines.push(format!(
                "{who} is killed outright: {DEADLY_FALL_FEET} feet or more onto something hard."
            ));
        }
        FallOutcome::Checked {
            check,
            wound,
            stunned_turns,
            referee_decides_survival,
        } => {
            run.hazard_roll(
                "Fall",
                &format!("height {height} − {SAFE_FALL_FEET}"),
                &check,
                false,
            );
            if wound.is_success() {
                let at = run.place(location, dice);
                run.wound(at, wound, FALL_SOAK, dice)?;
                run.lines.push(format!(
                    "{who} is stunned for {stunned_turns} turns: no actions."
                ));
                run.stunned = Some(stunned_turns);
            } else {
                run.lines.push(format!("{who} is miraculously unharmed."));
            }
            if referee_decides_survival {
                run.lines.push(format!(
                    "A fall of {DEADLY_FALL_FEET} feet or more onto a soft landing: whether {who} lives is the referee's call."
                ));
            }
        }
    }
    Ok(title)
}

/// thiz-rulebook.md, "Fire": the fire attacks like a weapon; the victim checks Toughness.
fn burning(
    run: &mut Run,
    rating: i32,
    fleeing: bool,
    location: Option<Location>,
    dice: &mut impl DieSource,
) -> AppResult<String> {
    // The location is known before the flames roll: the armour there lowers their rating.
    let at = run.place(location, dice);
    // Decision: a fleeing character's Speed is read with their wound penalties, as an attack reads
    // a target's Speed.
    let speed = fleeing
        .then(|| -> AppResult<i32> {
            let base = run.tc.base_of(SkillKind::Speed)?.rating.0;
            Ok(clamp_input(base + run.tc.wounds.effects().speed_check()))
        })
        .transpose()?;
    let armoured = run.tc.armor_at(at)?.total > 0;
    let attack = fire_attack(rating, speed, armoured, dice);
    let kind = FIRE_RATINGS
        .iter()
        .find(|k| (k.min..=k.max).contains(&rating))
        .map_or_else(String::new, |k| format!(" ({})", k.name));
    // A fleeing NPC's Speed and its armour are the GM's (app::screen).
    let npc = run.tc.character.npc;
    let mut how = format!("fire {rating}{kind}");
    if attack.speed_reduction != 0 {
        let _ = write!(
            how,
            " − {}",
            screen::npc(npc, format!("Speed {}", attack.speed_reduction))
        );
    }
    if attack.armour_reduction != 0 {
        let _ = write!(how, " − {}", screen::npc(npc, "armour 1"));
    }
    let from_sheet = attack.speed_reduction != 0 || attack.armour_reduction != 0;
    run.hazard_roll("Flames", &how, &attack.check, from_sheet);
    if attack.hit.is_success() {
        run.lines.push(format!(
            "**Burnt**: {} on the {at}.",
            level_text(attack.hit)
        ));
        run.wound(at, attack.hit, FIRE_SOAK, dice)?;
    } else {
        run.lines.push("The flames miss.".to_owned());
    }
    Ok(format!("{} is caught by fire", run.who()))
}

/// thiz-rulebook.md, "Open Water": `None` when the situation calls for no check.
fn swimming(
    run: &mut Run,
    water: i32,
    situation: Option<Situation>,
    height: u32,
    modifier: i32,
    dice: &mut impl DieSource,
) -> AppResult<Option<String>> {
    let called = match situation {
        None | Some(Situation::Resurface) => None,
        Some(Situation::SuddenFall) => Some(WaterSituation::SuddenFall),
        Some(Situation::Dive) => Some(WaterSituation::Dive {
            height_feet: height,
        }),
        Some(Situation::Armour) => Some(WaterSituation::SwimmingInArmour),
        Some(Situation::StartSwim) => Some(WaterSituation::StartingSwim {
            water_rating: water,
        }),
        Some(Situation::StartTurn) => Some(WaterSituation::StartingTurn {
            water_rating: water,
        }),
    };
    // thiz-rulebook.md, "Open Water": armour on the sheet is swimming in armour, which calls
    // for the check whatever situation was typed.
    // Decision: a shield alone is not armour worn (it is held, and can be let go), so it does not
    // make the check due; its bonus still counts in the rating below, as "highest Armor Bonus".
    let worn: Option<String> = run
        .tc
        .items_of("armor")
        .max_by_key(|(_, s)| s.armor_bonus)
        .map(|(i, _)| i.name.clone());
    if let Some(s) = called {
        if !afloat_check_due(s, worn.is_some()) {
            return Ok(None);
        }
        if let (false, Some(name)) = (needs_afloat_check(s), &worn) {
            let line = format!(
                "Swimming in armour calls for the check: {} wears {}.",
                run.who(),
                screen::npc(run.tc.character.npc, escape(name))
            );
            run.lines.push(line);
        }
    }
    let tc = &run.tc;
    let swim = tc.base_of(SkillKind::Swimming)?;
    let physical = tc.generals.physical;
    // "Their highest Armor Bonus": the best piece worn anywhere, shields included.
    let armour = tc
        .items_of("armor")
        .chain(tc.items_of("shield"))
        .map(|(_, s)| s.armor_bonus)
        .max()
        .unwrap_or(0)
        .max(0);
    let wound_penalty = tc.wounds.effects().skill_check(None);
    // The rules roll at the doubled skill less armour and water; the modifier and wound penalty
    // come off that same rating, so they are passed in with the water's.
    let adjust = modifier + wound_penalty;
    let rolled = afloat_check(
        swim.rating.0,
        physical,
        armour,
        water.saturating_sub(adjust),
        dice,
    );
    let base = afloat_rating(swim.rating.0, physical, armour, water).0;
    let check = check_record(
        tc,
        "staying afloat",
        Some("Swimming"),
        base,
        (modifier, wound_penalty),
        rolled.check.roll,
    )?;
    let skill_text = if swim.rating.0 >= physical {
        describe_base("Swimming", &swim)
    } else {
        format!("Physical {physical}")
    };
    let base_text = format!(
        "2 × {skill_text} − armour {armour} − water {water} = {base}",
        armour = rolled.armour_bonus
    );
    run.fields.push(field(
        "Swimming",
        screen::npc(run.tc.character.npc, check_text(&base_text, &check)),
    ));
    if let Some(line) = unlucky_line(&check, "to stay afloat") {
        run.gm_lines.push(line);
    }
    let who = run.who();
    let resurfacing = situation == Some(Situation::Resurface);
    if rolled.afloat {
        run.tone = tone(rolled.check.level);
        run.lines.push(if resurfacing {
            format!("{who} breaks the surface again.")
        } else {
            format!("{who} stays afloat.")
        });
    } else {
        run.lines.push(format!(
            "{who} is under water; coming back up takes a turn and another check (situation:resurface)."
        ));
    }
    run.rec.check = Some(check);
    let kind = WATER_RATINGS
        .iter()
        .rev()
        .find(|k| k.rating <= water)
        .map_or("water", |k| k.name);
    Ok(Some(format!("{who} in the water ({kind}, {water})")))
}

/// thiz-rulebook.md, "Suffocation": `turn` is the running count of turns without air.
fn suffocating(run: &mut Run, turn: u32, dice: &mut impl DieSource) -> AppResult<String> {
    let who = run.who();
    let mut breath = Breath::new(run.tc.generals.physical);
    breath.turns_without_air = turn - 1;
    let AirlessTurn { check, wound, .. } = breath.airless_turn(dice);
    // The breath follows from Physical: an NPC's is the GM's (app::screen).
    run.lines.push(screen::npc(
        run.tc.character.npc,
        format!(
            "{who} holds their breath for {} turns (6 + Physical {}).",
            breath.capacity, run.tc.generals.physical
        ),
    ));
    match check {
        None => run.lines.push(format!(
            "Turn {turn} without air: {} before it starts to hurt.",
            screen::npc(
                run.tc.character.npc,
                format!("{} more", breath.turns_left())
            )
        )),
        Some(check) => {
            run.hazard_roll(
                "Suffocation",
                &format!(
                    "turns past their breath {}",
                    screen::npc(run.tc.character.npc, check.rating.to_string())
                ),
                &check,
                true,
            );
            if wound.is_success() {
                run.place(Some(SUFFOCATION_LOCATION), dice);
                run.wound(SUFFOCATION_LOCATION, wound, Soak::None, dice)?;
            } else {
                run.lines
                    .push(format!("{who} holds on, unharmed this turn."));
            }
        }
    }
    Ok(format!("{who} cannot breathe"))
}

/// "6¼ minutes", "3 hours 45 minutes" — a quarter-unit time in words.
fn time_text(t: QuarterTime) -> String {
    let (whole, quarters) = t.split();
    let unit = match t.unit {
        TimeUnit::Turns => "turns",
        TimeUnit::Minutes => "minutes",
        TimeUnit::Hours => "hours",
        TimeUnit::Days => "days",
    };
    let fraction = ["", "¼", "½", "¾"][quarters as usize];
    format!("{whole}{fraction} {unit}")
}

/// thiz-rulebook.md, "Poison", with Weak Constitution and Iron Constitution from the sheet.
fn poisoned(
    run: &mut Run,
    wound: Level,
    duration: QuarterTime,
    location: Location,
    modifier: i32,
    dice: &mut impl DieSource,
) -> AppResult<String> {
    let tc = &run.tc;
    let toughness = tc.base_of(SkillKind::Toughness)?;
    let physical = tc.generals.physical;
    let wound_penalty = tc.wounds.effects().toughness_check();
    let adjust = modifier + wound_penalty;
    let weak = tc.has_weakness(Weakness::WeakConstitution);
    let iron = has_quirk(tc, Quirk::IronConstitution);
    let out = poison(
        toughness.rating.0.saturating_add(adjust),
        physical.saturating_add(adjust),
        wound,
        duration,
        weak,
        iron,
        dice,
    )
    .map_err(|e| user(format!("{e}.")))?;
    let base = toughness.rating.0.max(physical) - out.weak_constitution_penalty;
    let check = check_record(
        tc,
        "Toughness against poison",
        Some("Toughness"),
        base,
        (modifier, wound_penalty),
        out.check.roll,
    )?;
    let mut base_text = if toughness.rating.0 >= physical {
        describe_base("Toughness", &toughness)
    } else {
        format!("Physical {physical}")
    };
    if weak {
        let _ = write!(
            base_text,
            " · Weak Constitution -{}",
            out.weak_constitution_penalty
        );
    }
    run.fields.push(field(
        "Toughness",
        screen::npc(run.tc.character.npc, check_text(&base_text, &check)),
    ));
    if let Some(line) = unlucky_line(&check, "against poison") {
        run.gm_lines.push(line);
    }
    let who = run.who();
    if out.resisted {
        run.tone = tone(out.check.level);
        run.lines.push(format!(
            "{who} resists the poison: a {} meets or beats its {wound} rating.",
            level_text(out.check.level)
        ));
    } else {
        run.tone = tone(wound);
        let mut window = format!(
            "Unless the antidote is applied within {}",
            time_text(out.antidote_window)
        );
        if iron {
            let _ = write!(
                window,
                " (Iron Constitution: {} and a quarter more)",
                time_text(duration)
            );
        }
        run.lines.push(format!(
            "{window}, {who} takes a {wound} wound on the {location} (GM: /wound add when it lands)."
        ));
        run.rec.location = Some(location.name().to_owned());
    }
    run.rec.check = Some(check);
    Ok(format!("{who} is poisoned ({wound} poison)"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::record::{ThizRecord, sheet_from_rows};
    use super::super::testkit::Kit;
    use super::*;
    use crate::app::reply::Visibility;
    use crate::rules::dice::SeededDice;
    use crate::rules::thiz::resolve;
    use crate::store::CharacterId;

    pub(in crate::app::thiz) use super::super::testkit::seed_for;

    pub(in crate::app::thiz) fn first_d100s(seed: u64, n: usize) -> Vec<u32> {
        let mut d = SeededDice::new(seed);
        (0..n).map(|_| d.d100()).collect()
    }

    fn last(kit: &Kit) -> HazardRecord {
        match ThizRecord::from_json(&kit.last_roll_json().unwrap()) {
            Some(ThizRecord::Hazard(rec)) => rec,
            other => panic!("{other:?}"),
        }
    }

    fn sheet(kit: &Kit, id: CharacterId) -> WoundSheet {
        sheet_from_rows(&kit.wounds(id)).unwrap()
    }

    fn vexa(kit: &Kit) -> CharacterId {
        kit.thiz("Vexa", kit.player_id(), false)
    }

    /// thiz-rulebook.md, "Fall Damage": a 35-foot fall is checked at 25; its level is the wound,
    /// with no Toughness check, and the faller is stunned 3 turns. A Failure leaves them unharmed.
    #[test]
    fn a_fall_wounds_at_its_level_or_leaves_them_unharmed() {
        let seed = seed_for(&[&|r| resolve(Rating(25), r).is_success()]);
        let kit = Kit::new(seed);
        let id = vexa(&kit);
        let opts = [("height", "35"), ("location", "left leg")];
        let reply = kit.run(&kit.player(), &["hazard", "fall"], &opts);
        let level = resolve(Rating(25), first_d100s(seed, 1)[0]);
        let e = &reply.embeds[0];
        assert_eq!(e.title, "Vexa falls 35 feet", "{reply:?}");
        assert!(e.description.contains("stunned for 3 turns"), "{e:?}");
        assert!(sheet(&kit, id).at(Location::LeftLeg).has(level));
        let rec = last(&kit);
        assert_eq!(rec.hazard_roll.as_ref().map(|h| h.rating), Some(25));
        assert_eq!(rec.toughness, None, "a fall is not soaked");
        assert_eq!(rec.wound.unwrap().inflicted, level.name());

        let seed = seed_for(&[&|r| resolve(Rating(25), r) == Level::Failure]);
        let kit = Kit::new(seed);
        let id = vexa(&kit);
        let reply = kit.run(&kit.player(), &["hazard", "fall"], &opts);
        assert!(
            reply.embeds[0].description.contains("unharmed"),
            "{reply:?}"
        );
        assert!(kit.wounds(id).is_empty());
        assert_eq!(kit.roll_count(), 1);
    }

    /// thiz-rulebook.md, "Fall Damage": 10 feet is safe; 100 feet onto something hard kills;
    /// onto a soft landing it is checked and the referee decides.
    #[test]
    fn short_falls_are_safe_and_long_ones_kill_on_hard_ground() {
        let kit = Kit::new(3);
        let id = vexa(&kit);
        let safe = kit.run(&kit.player(), &["hazard", "fall"], &[("height", "10")]);
        assert!(safe.embeds[0].description.contains("No harm"), "{safe:?}");
        let dead = kit.run(&kit.player(), &["hazard", "fall"], &[("height", "100")]);
        assert!(dead.embeds[0].description.contains("killed outright"));
        assert!(kit.wounds(id).is_empty());
        let soft = kit.run(
            &kit.player(),
            &["hazard", "fall"],
            &[("height", "100"), ("surface", "yielding")],
        );
        assert!(
            soft.embeds[0].description.contains("the referee's call"),
            "{soft:?}"
        );
        assert_eq!(last(&kit).hazard_roll.map(|h| h.rating), Some(90));
    }

    /// thiz-rulebook.md, "Fire": fleeing takes the victim's Speed off the fire's rating, armour on
    /// the location one more; the hit is then resisted with Toughness like a weapon's.
    #[test]
    fn fire_loses_speed_and_armour_then_toughness_resists() {
        let seed = seed_for(&[&|r| resolve(Rating(10), r).is_success(), &|r| {
            resolve(Rating(2), r) == Level::Failure
        }]);
        let kit = Kit::new(seed);
        let id = vexa(&kit);
        kit.skill(id, "Speed", 4);
        kit.skill(id, "Toughness", 2);
        kit.item(
            id,
            "armor",
            "Breastplate",
            r#"{"armor_bonus": 3, "locations": ["chest"]}"#,
        );
        let reply = kit.run(
            &kit.player(),
            &["hazard", "fire"],
            &[("rating", "15"), ("fleeing", "true"), ("location", "chest")],
        );
        let hit = resolve(Rating(10), first_d100s(seed, 1)[0]);
        let e = &reply.embeds[0];
        let flames = e.fields.iter().find(|f| f.name == "Flames").unwrap();
        assert!(
            flames
                .value
                .starts_with("fire 15 (bonfire or burning building) − Speed 4 − armour 1 = 10"),
            "{flames:?}"
        );
        assert!(e.fields.iter().any(|f| f.name == "Toughness"));
        assert!(sheet(&kit, id).at(Location::Chest).has(hit));
        assert!(last(&kit).toughness.is_some());
    }

    /// thiz-rulebook.md, "Open Water": a check only where the rulebook calls for one; the rating
    /// is twice Swimming less armour and water, with the wound penalty kept in the log.
    #[test]
    fn staying_afloat_at_the_printed_thresholds() {
        let kit = Kit::new(5);
        let id = vexa(&kit);
        kit.skill(id, "Swimming", 4);
        let calm = kit.run(
            &kit.player(),
            &["hazard", "water"],
            &[("water", "9"), ("situation", "start_swim")],
        );
        assert_eq!(calm.visibility, Visibility::Ephemeral);
        assert!(calm.content.contains("needs no check"), "{calm:?}");
        assert_eq!(kit.roll_count(), 0);

        for afloat in [true, false] {
            // Swimming 4 doubled, less water 10, +10, a Yellow wound on the head (-2): 6.
            let seed = seed_for(&[&|r| resolve(Rating(6), r).is_success() == afloat]);
            let kit = Kit::new(seed);
            let id = vexa(&kit);
            kit.skill(id, "Swimming", 4);
            kit.wound(id, "head", "yellow");
            let reply = kit.run(
                &kit.player(),
                &["hazard", "water"],
                &[
                    ("water", "10"),
                    ("situation", "start_swim"),
                    ("modifier", "10"),
                ],
            );
            let e = &reply.embeds[0];
            let check = last(&kit).check.unwrap();
            assert_eq!(
                (check.base, check.modifier, check.wound_penalty),
                (-2, 10, -2),
                "{e:?}"
            );
            assert_eq!(check.adjusted, 6);
            assert_eq!(e.description.contains("stays afloat"), afloat, "{e:?}");
            assert_eq!(e.description.contains("under water"), !afloat, "{e:?}");
        }
    }

    /// thiz-rulebook.md, "Open Water": swimming in armour calls for a check, so armour on the
    /// sheet makes one due where the typed situation alone would not (water 9 at the start of a
    /// swim, a dive of 20 feet); at 10 the water calls for it either way.
    #[test]
    fn armour_on_the_sheet_makes_the_afloat_check_due() {
        // (options, armour on the sheet, the base rating of the check rolled, or None: refused
        // with no roll; whether the reply says the armour called for it). Swimming 6, doubled 12.
        type Case<'a> = (&'a [(&'a str, &'a str)], bool, Option<i32>, bool);
        let cases: [Case<'_>; 6] = [
            (
                &[("water", "9"), ("situation", "start_swim")],
                false,
                None,
                false,
            ),
            (
                &[("water", "9"), ("situation", "start_swim")],
                true,
                Some(1),
                true,
            ),
            (
                &[("water", "10"), ("situation", "start_swim")],
                false,
                Some(2),
                false,
            ),
            (
                &[("water", "10"), ("situation", "start_swim")],
                true,
                Some(0),
                false,
            ),
            (
                &[("water", "0"), ("situation", "dive"), ("height", "20")],
                false,
                None,
                false,
            ),
            (
                &[("water", "0"), ("situation", "dive"), ("height", "20")],
                true,
                Some(10),
                true,
            ),
        ];
        for (opts, armoured, base, says) in cases {
            let kit = Kit::new(5);
            let id = vexa(&kit);
            kit.skill(id, "Swimming", 6);
            if armoured {
                kit.item(
                    id,
                    "armor",
                    "Bronze Cuirass",
                    r#"{"armor_bonus": 2, "locations": ["chest", "gut"]}"#,
                );
            }
            let reply = kit.run(&kit.player(), &["hazard", "water"], opts);
            let case = format!("{opts:?} armour {armoured}");
            if let Some(base) = base {
                assert_eq!(kit.roll_count(), 1, "{case}");
                assert_eq!(last(&kit).check.unwrap().base, base, "{case}");
                let text = reply.all_text();
                assert_eq!(
                    text.contains(
                        "Swimming in armour calls for the check: Vexa wears Bronze Cuirass."
                    ),
                    says,
                    "{case}: {text}"
                );
            } else {
                assert_eq!(kit.roll_count(), 0, "{case}");
                assert_eq!(reply.visibility, Visibility::Ephemeral, "{case}");
                assert!(
                    reply.content.contains("needs no check"),
                    "{case}: {reply:?}"
                );
            }
        }
    }

    /// thiz-rulebook.md, "Suffocation": Physical 1 holds 7 turns; the 8th is checked at 1, and
    /// its level is a chest wound.
    #[test]
    fn suffocation_checks_past_the_breath_at_the_running_total() {
        let seed = seed_for(&[&|r| resolve(Rating(1), r).is_success()]);
        let kit = Kit::new(seed);
        let id = vexa(&kit);
        kit.skill(id, "Strength", 10);
        let seventh = kit.run(&kit.player(), &["hazard", "suffocation"], &[("turn", "7")]);
        assert!(
            seventh.embeds[0]
                .description
                .contains("0 more before it starts"),
            "{seventh:?}"
        );
        assert!(last(&kit).hazard_roll.is_none());
        assert!(kit.wounds(id).is_empty());
        let eighth = kit.run(&kit.player(), &["hazard", "suffocation"], &[("turn", "8")]);
        let level = resolve(Rating(1), first_d100s(seed, 1)[0]);
        assert!(
            eighth.embeds[0]
                .description
                .contains("holds their breath for 7 turns"),
            "{eighth:?}"
        );
        assert_eq!(last(&kit).hazard_roll.map(|h| h.rating), Some(1));
        assert!(sheet(&kit, id).at(Location::Chest).has(level));
    }

    /// thiz-rulebook.md, "Poison": a level at or above the wound rating resists it; otherwise the
    /// antidote's time is given (a quarter more with Iron Constitution) and nothing is written yet.
    #[test]
    fn poison_is_resisted_at_its_rating_or_starts_the_antidote_clock() {
        for (level, resisted) in [(Level::Yellow, false), (Level::Red, true)] {
            let seed = seed_for(&[&|r| resolve(Rating(3), r) == level]);
            let kit = Kit::new(seed);
            let id = vexa(&kit);
            kit.skill(id, "Toughness", 3);
            kit.sheet(id, r#"{"quirks": ["Iron Constitution"]}"#);
            let reply = kit.run(
                &kit.player(),
                &["hazard", "poison"],
                &[("wound", "red"), ("duration", "5"), ("unit", "minutes")],
            );
            let e = &reply.embeds[0];
            assert_eq!(e.description.contains("resists"), resisted, "{e:?}");
            if !resisted {
                assert!(e.description.contains("within 6¼ minutes"), "{e:?}");
                assert!(e.description.contains("Red wound on the Gut"), "{e:?}");
            }
            assert!(kit.wounds(id).is_empty());
            assert_eq!(last(&kit).check.unwrap().base, 3);
        }
        // Weak Constitution: -3 on the check.
        let kit = Kit::new(1);
        let id = vexa(&kit);
        kit.skill(id, "Toughness", 3);
        kit.sheet(id, r#"{"weaknesses": ["Weak Constitution"]}"#);
        kit.run(
            &kit.player(),
            &["hazard", "poison"],
            &[("wound", "green"), ("duration", "1"), ("unit", "hours")],
        );
        assert_eq!(last(&kit).check.unwrap().base, 0);
    }

    /// thiz-rulebook.md, "Unlucky": 98–100 on the character's own check flags the GM only.
    #[test]
    fn unlucky_afloat_checks_flag_the_gm_only() {
        for (roll, flagged) in [(97, false), (98, true)] {
            let seed = seed_for(&[&|r| r == roll]);
            let kit = Kit::new(seed);
            let id = vexa(&kit);
            kit.sheet(id, r#"{"weaknesses": ["Unlucky"]}"#);
            let reply = kit.run(
                &kit.player(),
                &["hazard", "water"],
                &[("water", "0"), ("mode", "self")],
            );
            let gm = reply
                .gm_copy
                .as_ref()
                .map(|c| c.all_text())
                .unwrap_or_default();
            assert_eq!(gm.contains("Unlucky: Vexa rolled"), flagged, "{reply:?}");
            assert!(!reply.caller_text().contains("Unlucky"));
        }
    }

    /// SPEC §3 (an NPC's luck is the GM's): a GM's public hazard check for an NPC offers the
    /// luck button to the GM alone; a player's own check shows it in the channel.
    #[test]
    fn an_npcs_luck_button_after_a_hazard_is_the_gms_alone() {
        let kit = Kit::new(1);
        vexa(&kit);
        kit.thiz("Ghoul", kit.gm_id(), true);
        let water = [("water", "0"), ("situation", "sudden_fall")];
        let gm = kit.run(
            &kit.gm(),
            &["hazard", "water"],
            &[water[0], water[1], ("character", "Ghoul")],
        );
        assert_eq!(gm.visibility, Visibility::Public, "{gm:?}");
        assert!(gm.buttons.is_empty(), "the channel sees no luck: {gm:?}");
        let copy = gm.caller_copy.as_deref().expect("the GM's copy");
        assert_eq!(copy.visibility, Visibility::Ephemeral);
        assert_eq!(copy.buttons.len(), 1, "{copy:?}");
        assert!(copy.buttons[0].custom_id.starts_with("luck:"), "{copy:?}");
        let own = kit.run(&kit.player(), &["hazard", "water"], &water);
        assert_eq!(own.buttons.len(), 1, "{own:?}");
    }

    /// A subcommand, its options and the refusal expected.
    pub(in crate::app::thiz) type Refusal<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

    #[test]
    fn refusals_change_nothing() {
        let kit = Kit::new(1);
        let id = vexa(&kit);
        kit.thiz("Bran", kit.other_id(), false);
        kit.thiz("Ghoul", kit.gm_id(), true);
        kit.tft("Rook", kit.player_id());
        let cases: [Refusal<'_>; 9] = [
            (
                "fall",
                &[("height", "30"), ("character", "Bran")],
                "belongs to another player",
            ),
            (
                "fall",
                &[("height", "30"), ("character", "Ghoul")],
                "no character named Ghoul",
            ),
            (
                "fall",
                &[("height", "30"), ("character", "Rook")],
                "Rook is a TFT character",
            ),
            (
                "fall",
                &[("height", "100001")],
                "height must be between 0 and 100000",
            ),
            (
                "fall",
                &[("height", "30"), ("surface", "jelly")],
                "surface must be",
            ),
            (
                "fire",
                &[("rating", "41")],
                "rating must be between -40 and 40",
            ),
            (
                "water",
                &[("water", "5"), ("situation", "splash")],
                "situation must be one of",
            ),
            (
                "poison",
                &[("wound", "failure"), ("duration", "1"), ("unit", "turns")],
                "green, yellow, red or black",
            ),
            (
                "poison",
                &[("wound", "red"), ("duration", "1"), ("unit", "weeks")],
                "unit must be",
            ),
        ];
        for (sub, opts, want) in cases {
            let reply = kit.run(&kit.player(), &["hazard", sub], opts);
            assert_eq!(reply.visibility, Visibility::Ephemeral, "{sub} {opts:?}");
            assert!(
                reply.content.contains(want),
                "{sub} {opts:?}: {}",
                reply.content
            );
        }
        let odd = kit.run(&kit.player(), &["hazard", "quicksand"], &[]);
        assert!(
            odd.content
                .contains("There is no command /hazard quicksand")
        );
        assert_eq!(kit.roll_count(), 0);
        assert!(kit.wounds(id).is_empty());
        // A GM may put an NPC through a hazard.
        let gm = kit.run(
            &kit.gm(),
            &["hazard", "fall"],
            &[("height", "5"), ("character", "Ghoul")],
        );
        assert_eq!(gm.embeds[0].title, "Ghoul falls 5 feet");
    }
}
