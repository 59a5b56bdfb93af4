//! `/encounter start|add|remove|next|undo|declare|act|move|show|end` and the status message's
//! buttons: a combat tracker per channel for THIZ (initiative per figure, Initiative Passes,
//! surprise, Defend, Wait, Prone) and TFT (initiative per side, adjDX order, the round's hits, multiple
//! actions against the initiative sum).
//!
//! Owns who may change an encounter (GMs start, add NPCs, remove, end; a player adds and acts
//! for their own character only; "next" belongs to a GM or the owner of the figure whose turn
//! it is) and what of it a player sees (names, order, visible state; never an NPC's numbers).
//! Every change is one `Store::write` saved on the version it read, so two presses of "next" on
//! the same turn move it once. The rolls that know the encounter (`/attack`, `/tft attack`)
//! call [`hooks`]. The status message: [`App::encounter_status`] says what the channel's
//! message should show when it differs from what it shows; the front end posts or edits it and
//! reports back with [`App::encounter_status_shown`].

pub mod hooks;
pub mod loaded;
pub mod state;
pub mod status;
mod tft;
mod thiz;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt::Write as _;

use self::loaded::{At, Facts, Loaded, load, save};
use self::state::{Declared, Figure, State, Surprise, Team, TimeUnit, Undo};
use self::status::{BUTTON_PREFIX, Looks};
use super::characters::bestiary::{self, Quick};
use super::invocation::{Invocation, Opts};
use super::layout::MAX_PAGE;
use super::reply::Reply;
use super::text::escape;
use super::{App, AppError, AppResult, Ctx, user};
use crate::rules::thiz::wounds::Condition as ThizCondition;
use crate::store::characters::{self, Character};
use crate::store::encounters::{self, EncounterRow};
use crate::store::guilds::System;
use crate::store::{CharacterId, Conn, GuildId};

/// The last place `/encounter move` names; a place past the end of the order means "last".
pub const MAX_POSITION: i64 = 256;

/// The most copies of one NPC added at once.
pub const MAX_COUNT: i64 = 20;
/// The longest a timed effect may be set for, in turns or rounds.
pub const MAX_TIMER: i64 = 1000;
/// The longest name of a timed effect, in characters.
pub const MAX_TIMER_NAME: usize = 60;

/// A parsed `/encounter …` or status-message button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncounterCommand {
    Start {
        system: Option<System>,
        surprise: Surprise,
    },
    Add {
        character: Option<String>,
        /// An NPC sheet, or else a bestiary entry, to copy.
        npc: Option<String>,
        /// A quick NPC: its name and what fills its sheet (issue 59).
        quick: Option<(String, Quick)>,
        count: u32,
        side: Option<Team>,
        target: Option<String>,
    },
    Remove {
        figure: String,
    },
    /// `version` is the button's: the turn it was pressed on.
    Next {
        version: Option<i64>,
    },
    /// GM: take back the last "next" (the status message's Undo button; `version` as for Next).
    Undo {
        version: Option<i64>,
    },
    /// TFT: the side that won the initiative chooses which side moves first (a status button).
    MovesFirst {
        team: Team,
        version: i64,
    },
    Declare {
        option: Option<Declared>,
        figure: Option<String>,
        actions: Option<u32>,
        boost: bool,
        engaged: bool,
    },
    Act {
        figure: String,
    },
    /// GM, THIZ: a figure's next turn in this pass moves to `position` (1 = the first turn).
    Move {
        figure: String,
        position: u32,
    },
    /// GM: an effect on a figure that lasts `count` turns or rounds (0 takes it off).
    Timer {
        figure: String,
        what: String,
        count: u32,
        unit: TimeUnit,
    },
    /// The status (a GM's with the numbers); `page` of a status too long for one message.
    Show {
        page: usize,
    },
    /// Ends the fight. `version`: pressed as the confirmation of a status message's End (the
    /// encounter's version when End was pressed), which must still be current.
    End {
        keep: bool,
        version: Option<i64>,
    },
    /// The status message's End button: asks the GM to confirm, naming the version it was
    /// pressed at.
    EndAsk {
        version: i64,
    },
    /// The "Attack" button: the current figure's targets, as buttons.
    AttackHelp {
        version: i64,
    },
    /// A target button of the "Attack" answer: `attacker` attacks `target` with the defaults.
    /// `shown` is when the button was made: the encounter's turn count and the attacker's
    /// attacks in that turn, so a second press of it attacks nothing (`None`: a button made
    /// before it carried them, refused).
    Strike {
        attacker: CharacterId,
        target: CharacterId,
        shown: Option<(u64, u32)>,
    },
    /// TFT: a dying figure's button: the roll of `/tft dying` for it.
    Dying {
        figure: CharacterId,
    },
}

fn no_encounter() -> AppError {
    user("There is no encounter in this channel: a GM starts one with /encounter start.")
}

impl EncounterCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        if inv.path.len() != 2 {
            return Err(user(format!(
                "There is no command {}. /encounter takes start, add, remove, next, undo, declare, act, move, show, timer or end.",
                escape(&inv.display_path())
            )));
        }
        Ok(match inv.path[1].as_str() {
            "start" => parse_start(inv)?,
            "add" => parse_add(inv)?,
            "remove" => {
                let o = Opts::new(inv, &["figure"])?;
                EncounterCommand::Remove {
                    figure: o.required("figure")?.trim().to_owned(),
                }
            }
            "next" => {
                Opts::new(inv, &[])?;
                EncounterCommand::Next { version: None }
            }
            "undo" => {
                Opts::new(inv, &[])?;
                EncounterCommand::Undo { version: None }
            }
            "declare" => parse_declare(inv)?,
            "act" => {
                let o = Opts::new(inv, &["figure"])?;
                EncounterCommand::Act {
                    figure: o.required("figure")?.trim().to_owned(),
                }
            }
            "move" => {
                let o = Opts::new(inv, &["figure", "position"])?;
                EncounterCommand::Move {
                    figure: o.required("figure")?.trim().to_owned(),
                    position: o.required_int("position", 1, MAX_POSITION)? as u32,
                }
            }
            "show" => EncounterCommand::Show {
                page: Opts::new(inv, &["page"])?
                    .int("page", 1, MAX_PAGE)?
                    .map_or(1, |p| p as usize),
            },
            "timer" => {
                let o = Opts::new(inv, &["figure", "what", "count", "per"])?;
                let what = o.required("what")?.trim().to_owned();
                if what.is_empty() || what.chars().count() > MAX_TIMER_NAME {
                    return Err(user(format!(
                        "what names the effect in at most {MAX_TIMER_NAME} characters, like what:stunned."
                    )));
                }
                let unit = match o.text("per") {
                    None => TimeUnit::Turn,
                    Some(p) => TimeUnit::parse(p).ok_or_else(|| {
                        user("per must be turn (the figure's own turns) or round (rounds, or THIZ Initiative Passes).")
                    })?,
                };
                EncounterCommand::Timer {
                    figure: o.required("figure")?.trim().to_owned(),
                    what,
                    count: o.required_int("count", 0, MAX_TIMER)? as u32,
                    unit,
                }
            }
            "end" => EncounterCommand::End {
                keep: Opts::new(inv, &["keep"])?.flag("keep")?,
                version: None,
            },
            other => {
                return Err(user(format!(
                    "/encounter has no {}: it takes start, add, remove, next, undo, declare, act, move, show, timer or end.",
                    escape(&crate::app::text::truncate(other, 40))
                )));
            }
        })
    }

    /// A status-message button (`enc:next:12`), or `None` for any other button.
    pub fn parse_button(inv: &Invocation) -> Option<AppResult<Self>> {
        let id = inv.option("id")?.strip_prefix(BUTTON_PREFIX)?;
        let stale = || user("That button is not one of referee's encounter buttons.");
        let (action, version) = id.split_once(':')?;
        if action == "hit" {
            // `hit:<attacker>:<target>:<turns>:<attacks>` (older buttons: the first two only).
            let parts: Vec<&str> = version.split(':').collect();
            let strike = match parts.as_slice() {
                [a, t] => Some((a.parse().ok(), t.parse().ok(), Some(None))),
                [a, t, turns, rolls] => Some((
                    a.parse().ok(),
                    t.parse().ok(),
                    turns
                        .parse::<u64>()
                        .ok()
                        .zip(rolls.parse::<u32>().ok())
                        .map(Some),
                )),
                _ => None,
            };
            return Some(match strike {
                Some((Some(a), Some(t), Some(shown))) => Ok(EncounterCommand::Strike {
                    attacker: CharacterId(a),
                    target: CharacterId(t),
                    shown,
                }),
                _ => Err(stale()),
            });
        }
        let Ok(version) = version.parse::<i64>() else {
            return Some(Err(stale()));
        };
        Some(match action {
            "next" => Ok(EncounterCommand::Next {
                version: Some(version),
            }),
            "undo" => Ok(EncounterCommand::Undo {
                version: Some(version),
            }),
            "first-party" | "first-foes" => Ok(EncounterCommand::MovesFirst {
                team: if action == "first-party" {
                    Team::Party
                } else {
                    Team::Foes
                },
                version,
            }),
            "attack" => Ok(EncounterCommand::AttackHelp { version }),
            "dying" => Ok(EncounterCommand::Dying {
                figure: CharacterId(version),
            }),
            "end" => Ok(EncounterCommand::EndAsk { version }),
            "end-yes" | "end-keep" => Ok(EncounterCommand::End {
                keep: action == "end-keep",
                version: Some(version),
            }),
            _ => Err(stale()),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let channel = ctx.channel.ok_or_else(|| {
            user("Encounters belong to a channel; run /encounter in the channel of the fight.")
        })?;
        let at = At {
            guild: ctx.caller.guild,
            channel,
        };
        match self {
            EncounterCommand::Start { system, surprise } => start(ctx, at, system, surprise),
            EncounterCommand::Add {
                character,
                npc,
                quick,
                count,
                side,
                target,
            } => add(
                ctx,
                at,
                &Adding {
                    character,
                    npc,
                    quick,
                    count,
                    side,
                    target,
                },
            ),
            EncounterCommand::Remove { figure } => remove(ctx, at, &figure),
            EncounterCommand::Next { version } => next(ctx, at, version),
            EncounterCommand::Undo { version } => undo(ctx, at, version),
            EncounterCommand::MovesFirst { team, version } => moves_first(ctx, at, team, version),
            EncounterCommand::Declare {
                option,
                figure,
                actions,
                boost,
                engaged,
            } => declare(
                ctx,
                at,
                figure.as_deref(),
                option,
                actions.map(|a| (a, boost, engaged)),
            ),
            EncounterCommand::Act { figure } => act(ctx, at, &figure),
            EncounterCommand::Move { figure, position } => move_to(ctx, at, &figure, position),
            EncounterCommand::Show { page } => show(ctx, at, page),
            EncounterCommand::Timer {
                figure,
                what,
                count,
                unit,
            } => timer(ctx, at, &figure, &what, (count, unit)),
            EncounterCommand::End { keep, version } => end(ctx, at, keep, version),
            EncounterCommand::EndAsk { version } => end_ask(ctx, at, version),
            EncounterCommand::AttackHelp { version } => attack_help(ctx, at, version),
            EncounterCommand::Strike {
                attacker,
                target,
                shown,
            } => strike(ctx, at, (attacker, target), shown),
            EncounterCommand::Dying { figure } => tft_dying(ctx, figure),
        }
    }
}

/// `/encounter add`: a character, copies of an NPC sheet or bestiary entry (`npc:`), or a quick
/// NPC (`name:` with what fills its sheet) — one of the three.
fn parse_add(inv: &Invocation) -> AppResult<EncounterCommand> {
    let o = Opts::new(
        inv,
        &[
            "character",
            "npc",
            "name",
            "count",
            "side",
            "target",
            "skills",
            "weapon",
            "armor",
            "fields",
            "st",
            "dx",
            "iq",
        ],
    )?;
    let side = o
        .text("side")
        .map(|s| Team::parse(s).ok_or_else(|| user("side must be party or foes.")))
        .transpose()?;
    let character = o.text("character").map(|s| s.trim().to_owned());
    let npc = o.text("npc").map(|s| s.trim().to_owned());
    let name = o.text("name").map(bestiary::npc_name).transpose()?;
    if [character.is_some(), npc.is_some(), name.is_some()]
        .iter()
        .filter(|b| **b)
        .count()
        > 1
    {
        return Err(user(
            "/encounter add takes one of character:… (a character as it is), npc:… (copies of an NPC sheet or of the bestiary's, numbered) or name:… (a new NPC made in this line), not two.",
        ));
    }
    let sheet = bestiary::Quick::parse(&o)?;
    if sheet.is_some() && name.is_none() {
        return Err(user(
            "skills, weapon, armor, fields, st, dx and iq fill in a new NPC: give its name:… too (npc:… copies a sheet as it is).",
        ));
    }
    let count = o.int("count", 1, MAX_COUNT)?;
    if count.is_some() && character.is_some() {
        return Err(user(
            "count is for npc:… and name:… copies; a character joins once.",
        ));
    }
    Ok(EncounterCommand::Add {
        character,
        npc,
        quick: name.map(|n| (n, sheet.unwrap_or_default())),
        count: count.unwrap_or(1) as u32,
        side,
        target: o.text("target").map(|s| s.trim().to_owned()),
    })
}

fn parse_start(inv: &Invocation) -> AppResult<EncounterCommand> {
    let o = Opts::new(inv, &["system", "surprise"])?;
    let system = o
        .text("system")
        .map(|s| {
            System::parse(s).ok_or_else(|| {
                user(format!(
                    "system must be thiz or tft; you gave {:?}",
                    crate::app::text::truncate(s.trim(), 40)
                ))
            })
        })
        .transpose()?;
    let surprise = o
        .text("surprise")
        .map(|s| {
            Surprise::parse(s).ok_or_else(|| {
                user(format!(
                    "surprise must be {}; you gave {:?}",
                    Surprise::NAMES.join(", "),
                    crate::app::text::truncate(s.trim(), 40)
                ))
            })
        })
        .transpose()?
        .unwrap_or_default();
    Ok(EncounterCommand::Start { system, surprise })
}

fn parse_declare(inv: &Invocation) -> AppResult<EncounterCommand> {
    let o = Opts::new(inv, &["option", "figure", "actions", "boost", "engaged"])?;
    let option = match o.text("option").map(|s| s.trim().to_ascii_lowercase()) {
            None => None,
            Some(s) if s == "none" => None,
            // The verbs players type for the TFT options ("dodge") name them too; `declare`
            // reads defend and defending as the encounter's system calls it.
            Some(s) => Some(
                Declared::parse(&s)
                    .or(match s.as_str() {
                        "dodge" => Some(Declared::Dodging),
                        "charging" => Some(Declared::Charge),
                        _ => None,
                    })
                    .ok_or_else(|| {
                        user(format!(
                            "option must be defend, wait or prone (THIZ), defending, dodging or charge (TFT), or none; you gave {:?}.",
                            crate::app::text::truncate(&s, 40)
                        ))
                    })?,
            ),
        };
    let actions = o.int("actions", 1, 3)?.map(|a| a as u32);
    if o.text("option").is_none() && actions.is_none() {
        return Err(user(
            "/encounter declare needs option:… (or, in TFT, actions:… for multiple actions).",
        ));
    }
    Ok(EncounterCommand::Declare {
        option,
        figure: o.text("figure").map(|s| s.trim().to_owned()),
        actions,
        boost: o.flag("boost")?,
        engaged: o.flag("engaged")?,
    })
}

/// The encounter under way in the channel, or the plain answer that there is none.
fn load_active(conn: &Conn, at: At) -> AppResult<Loaded> {
    match load(conn, at)? {
        Some(l) if !l.row.ended => Ok(l),
        _ => Err(no_encounter()),
    }
}

/// What everyone may see of each figure.
fn looks(facts: &Facts) -> Looks {
    match facts {
        Facts::Thiz(m) => m
            .iter()
            .map(|(id, x)| {
                // A dead figure reads "dead" to everyone: the table sees that much.
                let look = if x.condition == Some(ThizCondition::Dead) {
                    "dead"
                } else if x.dying {
                    "dying"
                } else if x.down {
                    "down"
                } else if x.wounded {
                    "wounded"
                } else {
                    ""
                };
                (*id, look)
            })
            .collect(),
        Facts::Tft(m) => m
            .iter()
            .map(|(id, x)| {
                let look = if x.dead {
                    "dead"
                } else if x.dying {
                    "dying"
                } else if x.out {
                    "down"
                } else if x.knocked_down {
                    "knocked down"
                } else if x.hurt {
                    "hurt"
                } else {
                    ""
                };
                (*id, look)
            })
            .collect(),
    }
}

/// What the GM reads of each figure's sheet, a line each: THIZ its wounds by location and its
/// condition; TFT its ST left of its ST (hits and fatigue taken) and its condition. The GM's
/// view alone: an NPC's sheet is behind the screen.
fn sheet_lines(state: &State, facts: &Facts) -> HashMap<CharacterId, String> {
    state
        .figures
        .iter()
        .filter_map(|f| {
            let line = match facts {
                Facts::Thiz(m) => {
                    let x = m.get(&f.id)?;
                    let wounds = crate::app::thiz::record::wound_lines(&x.wounds);
                    let condition = match x.condition {
                        None => "able to act",
                        Some(ThizCondition::Stable) => "stable (incapacitated)",
                        Some(c) => c.name(),
                    };
                    format!(
                        "{} · {condition}",
                        if wounds.is_empty() {
                            "no wounds".to_owned()
                        } else {
                            format!("wounds {}", wounds.join("; "))
                        }
                    )
                }
                Facts::Tft(m) => {
                    let x = m.get(&f.id)?;
                    let fatigue = if x.fatigue > 0 {
                        format!(", {} fatigue", x.fatigue)
                    } else {
                        String::new()
                    };
                    format!(
                        "ST {} of {} left ({} hits{fatigue}) · {}",
                        x.st_left,
                        x.st,
                        x.hits,
                        tft_condition(f, x)
                    )
                }
            };
            Some((f.id, line))
        })
        .collect()
}

/// A TFT figure's condition by name, the worst first (tft-rules-summary.md, "STRENGTH";
/// tft-house-rules.txt, "Death and Dying"): knocked down only while conscious, by its sheet or
/// by this round's hits (the tracker's down flag on a conscious figure).
fn tft_condition(f: &Figure, x: &tft::Facts) -> &'static str {
    use crate::rules::tft::injury::{Condition, condition_at};
    if x.dead {
        return "dead";
    }
    match condition_at(x.st_left) {
        Condition::Dying | Condition::Unconscious if x.stable => "unconscious, stable",
        Condition::Dying => "dying",
        Condition::Unconscious => "unconscious",
        Condition::Conscious if x.knocked_down || f.down => "knocked down",
        Condition::Conscious => "able to act",
    }
}

fn find_figure<'s>(state: &'s State, name: &str) -> AppResult<&'s Figure> {
    let key = characters::name_key(name);
    state
        .figures
        .iter()
        .find(|f| characters::name_key(&f.name) == key)
        .ok_or_else(|| {
            user(format!(
                "{} is not in this encounter; /encounter show lists who is.",
                escape(name.trim())
            ))
        })
}

/// Whether the caller may act for the figure: a GM, or the owner of a player character.
fn may_act(ctx: &Ctx<'_>, f: &Figure) -> bool {
    ctx.is_gm() || (!f.npc && f.owner == ctx.caller.user)
}

fn not_yours(f: &Figure) -> AppError {
    user(format!(
        "{} is not your character; only their player or a GM can act for them.",
        escape(&f.name)
    ))
}

fn start(ctx: &Ctx<'_>, at: At, system: Option<System>, surprise: Surprise) -> AppResult<Reply> {
    ctx.gm()?;
    let system = system.unwrap_or(ctx.settings.default_system);
    let state = State::new(surprise);
    let json = serde_json::to_string(&state)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("encounter state: {e}")))?;
    ctx.app.store.write(|tx| -> AppResult<()> {
        // The NPC copies of an ended encounter go with it, unless it kept them.
        if let Some(old) = encounters::get(tx, at.guild, at.channel)?
            && old.ended
        {
            drop_spawned(tx, at)?;
        }
        if !encounters::create(tx, at.guild, at.channel, system, &json, ctx.caller.user)? {
            return Err(user(
                "An encounter is already under way in this channel: /encounter show, or a GM ends it with /encounter end.",
            ));
        }
        Ok(())
    })?;
    ctx.app.note_encounter_channel(at.guild, at.channel, true);
    Ok(Reply::public(format!(
        "An encounter ({}) starts here. A GM adds figures with /encounter add, then presses Begin (or /encounter next).",
        match system {
            System::Thiz => "THIZ",
            System::Tft => "TFT",
        }
    )))
}

fn drop_spawned(conn: &Conn, at: At) -> AppResult<()> {
    for id in encounters::spawned(conn, at.guild, at.channel)? {
        characters::delete(conn, at.guild, id)?;
    }
    Ok(())
}

/// What `/encounter add` was asked.
struct Adding {
    character: Option<String>,
    npc: Option<String>,
    quick: Option<(String, Quick)>,
    count: u32,
    side: Option<Team>,
    target: Option<String>,
}

fn figure_of(c: &Character, side: Option<Team>) -> Figure {
    Figure::joining(
        c.id,
        c.name.clone(),
        side.unwrap_or(if c.npc { Team::Foes } else { Team::Party }),
        c.npc,
        c.owner_id,
    )
}

/// `/encounter add` with neither character nor npc: the caller's own character of the
/// encounter's system (issue 32: a player with one character of the system need not name it).
fn own_character(ctx: &Ctx<'_>, conn: &Conn, system: System) -> AppResult<Character> {
    let mine = characters::owned_by(conn, ctx.caller.guild, ctx.caller.user)?
        .into_iter()
        .find(|c| c.system == system)
        .ok_or_else(|| {
            user(format!(
                "/encounter add needs character:… or npc:…; you have no {} character of your own to add.",
                system.as_str().to_uppercase()
            ))
        })?;
    ctx.saw(&mine);
    Ok(mine)
}

/// Numbered copies of `base` ("Goblin 1", "Goblin 2"…), each made by `make` under its name
/// (`Ok(None)`: the name is taken) and marked as the encounter's own, to go when it ends.
fn copies(
    tx: &Conn,
    at: At,
    l: &mut Loaded,
    base: &str,
    a: &Adding,
    mut make: impl FnMut(&str) -> AppResult<Option<CharacterId>>,
) -> AppResult<Vec<Character>> {
    let mut added: Vec<Character> = Vec::new();
    for _ in 0..a.count {
        let n = l.state.next_number(base, |candidate| {
            characters::by_name(tx, at.guild, candidate)
                .ok()
                .flatten()
                .is_some()
        });
        let name = format!("{base} {n}");
        let id = make(&name)?
            .ok_or_else(|| user(format!("{} is taken; remove it first.", escape(&name))))?;
        encounters::add_spawned(tx, at.guild, at.channel, id)?;
        let c = characters::by_id(tx, at.guild, id)?
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("copy {id} vanished")))?;
        // Put the new one in now so the next number skips it.
        l.state.figures.push(figure_of(&c, a.side));
        added.push(c);
    }
    // They were pushed above to number the copies; `add` adds them properly.
    let n = added.len();
    l.state.figures.truncate(l.state.figures.len() - n);
    Ok(added)
}

fn system_name(system: System) -> String {
    system.as_str().to_uppercase()
}

/// `npc:…`: copies of the NPC sheet of that name, or else of the bestiary's entry (issue 59:
/// a GM adds "Goblin" from the bestiary with count:4).
fn npc_copies(
    ctx: &Ctx<'_>,
    tx: &Conn,
    at: At,
    l: &mut Loaded,
    name: &str,
    a: &Adding,
) -> AppResult<Vec<Character>> {
    ctx.gm()?;
    let system = l.row.system;
    if let Some(template) = characters::by_name(tx, at.guild, name)? {
        ctx.saw(&template);
        if !template.npc {
            return Err(user(format!(
                "{} is a player character; npc:… copies NPC sheets. Add them with character:….",
                escape(&template.name)
            )));
        }
        return copies(tx, at, l, &template.name, a, |copy| {
            Ok(encounters::copy_character(tx, at.guild, template.id, copy)?)
        });
    }
    let Some(t) = bestiary::template(ctx, tx, name)? else {
        return Err(match ctx.find_character(tx, name) {
            Err(AppError::User(m)) => user(format!(
                "{m} Nor does the bestiary keep an NPC of that name (/npc list)."
            )),
            Err(e) => e,
            Ok(_) => no_encounter(),
        });
    };
    if t.system != system {
        return Err(user(format!(
            "The bestiary's {} is a {} NPC; this encounter is {}.",
            escape(&t.name),
            system_name(t.system),
            system_name(system)
        )));
    }
    copies(tx, at, l, &t.name, a, |copy| {
        bestiary::make_copy(ctx, tx, &t, copy)
    })
}

/// `name:…`: a quick NPC, made as a hidden sheet the GM can reuse, then copied as `npc:` copies
/// a sheet. Returns the copies and the GM's note of what the sheet holds.
fn quick_copies(
    ctx: &Ctx<'_>,
    tx: &Conn,
    at: At,
    l: &mut Loaded,
    (name, quick): (&str, &Quick),
    a: &Adding,
) -> AppResult<(Vec<Character>, String)> {
    ctx.gm()?;
    let system = l.row.system;
    let parts = bestiary::quick_parts(ctx, system, quick)?;
    let base = bestiary::make_quick(ctx, tx, name, system, &parts)?;
    let added = copies(tx, at, l, &base.name, a, |copy| {
        Ok(encounters::copy_character(tx, at.guild, base.id, copy)?)
    })?;
    let shown = escape(&base.name);
    let note = format!(
        "The hidden NPC sheet {shown} ({}) was made for these copies and stays for reuse (npc:{shown}, /npc save name:{shown}).\n{}",
        system_name(system),
        bestiary::summary(system, &parts)?.join("\n")
    );
    Ok((added, note))
}

fn add(ctx: &Ctx<'_>, at: At, a: &Adding) -> AppResult<Reply> {
    let (text, gm_note) = ctx
        .app
        .store
        .write(|tx| -> AppResult<(String, Option<String>)> {
            let mut l = load_active(tx, at)?;
            let system = l.row.system;
            let mut added: Vec<Character> = Vec::new();
            let mut gm_note = None;
            if let Some(name) = &a.character {
                let c = ctx.find_character(tx, name)?;
                if !ctx.is_gm() && (c.npc || c.owner_id != ctx.caller.user) {
                    return Err(user(format!(
                        "{} is not your character; a player adds their own, a GM adds anyone.",
                        escape(&c.name)
                    )));
                }
                added.push(c);
            } else if let Some(name) = &a.npc {
                added = npc_copies(ctx, tx, at, &mut l, name, a)?;
            } else if let Some((name, quick)) = &a.quick {
                let (copies, note) = quick_copies(ctx, tx, at, &mut l, (name, quick), a)?;
                added = copies;
                gm_note = Some(note);
            } else {
                added.push(own_character(ctx, tx, system)?);
            }
            let mut lines = Vec::new();
            for c in &added {
                if c.system != system {
                    return Err(user(format!(
                        "{} is a {} character; this encounter is {}.",
                        escape(&c.name),
                        c.system.as_str().to_uppercase(),
                        system.as_str().to_uppercase()
                    )));
                }
                if let Some(f) = l.state.figure(c.id) {
                    if !f.down {
                        return Err(user(format!(
                            "{} is in the encounter already.",
                            escape(&c.name)
                        )));
                    }
                    let line = rejoin(tx, &mut l.state, system, c)?;
                    lines.push(escape(&line));
                    l.state.event(line);
                    continue;
                }
                if l.state.figures.len() >= state::MAX_FIGURES {
                    return Err(user(format!(
                        "An encounter holds at most {} figures.",
                        state::MAX_FIGURES
                    )));
                }
                let mut f = figure_of(c, a.side);
                if l.state.begun() && system == System::Thiz {
                    lines.push(join_late(
                        ctx,
                        tx,
                        at,
                        &l.state,
                        &mut f,
                        a.target.as_deref(),
                    )?);
                }
                lines.push(format!("{} joins the {}.", escape(&f.name), f.team.name()));
                l.state
                    .event(format!("{} joins the {}.", f.name, f.team.name()));
                l.state.figures.push(f);
            }
            save(tx, at, &l)?;
            Ok((lines.join("\n"), gm_note))
        })?;
    // The players' text names figures and sides only; an NPC copy's sheet stays the GM's (a
    // quick NPC's numbers go to the GM alone, as the ephemeral follow-up).
    let reply = Reply::public(text);
    Ok(match gm_note {
        Some(note) => reply.with_caller_note(&note),
        None => reply,
    })
}

/// A figure that is down and able to act again by its sheet comes back (the answer to
/// `/encounter add` for a figure already in the fight). Refused, changing nothing, while the
/// sheet still says it cannot act.
///
/// Decision: THIZ: back from the next Initiative Pass, as any figure joining a fight under way
/// (thiz-rulebook.md, "Determine Surprise"); its turns in this pass were dropped when it went
/// down, and initiative is rolled per pass. TFT: back in this round's adjDX order if it has not
/// acted yet (tft-rules-summary.md, "Round Sequence": each figure acts once a round); a figure
/// whose sheet still says knocked down is back next round, when standing up is its action.
fn rejoin(conn: &Conn, state: &mut State, system: System, c: &Character) -> AppResult<String> {
    let name = c.name.clone();
    let still = |why: &str| {
        user(format!(
            "{} is in the encounter but {why}; heal them first, then /encounter add brings them back.",
            escape(&name)
        ))
    };
    let begun = state.begun();
    let f = state.figure_mut(c.id).ok_or_else(no_encounter)?;
    match system {
        System::Thiz => {
            let x = thiz::facts(conn, c.clone())?;
            if x.down {
                return Err(still(if x.dying {
                    "is still dying"
                } else {
                    "still cannot act (unconscious, stable or dead)"
                }));
            }
            f.down = false;
            if begun {
                f.late = true;
                return Ok(format!(
                    "{name} is back on their feet and takes turns from the next Initiative Pass."
                ));
            }
        }
        System::Tft => {
            let x = tft::facts(conn, c)?;
            if x.out {
                return Err(still(if x.dying {
                    "is still dying"
                } else {
                    "still cannot act (dead or unconscious)"
                }));
            }
            if x.knocked_down && begun {
                return Err(user(format!(
                    "{} is knocked down: back in the order next round, when standing up is their action.",
                    escape(&name)
                )));
            }
            f.down = false;
            if begun && !f.acted {
                return Ok(format!(
                    "{name} is back and acts this round in adjDX order."
                ));
            }
            if begun {
                return Ok(format!("{name} is back and acts again next round."));
            }
        }
    }
    Ok(format!("{name} is back in the fight."))
}

/// THIZ: a figure joining a fight under way checks Preparedness against its named target.
fn join_late(
    ctx: &Ctx<'_>,
    conn: &Conn,
    at: At,
    state: &State,
    f: &mut Figure,
    target: Option<&str>,
) -> AppResult<String> {
    let Some(target) = target else {
        f.late = true;
        return Ok(format!(
            "{} joins a fight under way and takes turns from the next pass (name a target:… to check Preparedness for a free action).",
            escape(&f.name)
        ));
    };
    let target = find_figure(state, target)?;
    let mine = characters::by_id(conn, at.guild, f.id)?.ok_or_else(no_encounter)?;
    let theirs = characters::by_id(conn, at.guild, target.id)?.ok_or_else(no_encounter)?;
    let (mine, theirs) = (thiz::facts(conn, mine)?, thiz::facts(conn, theirs)?);
    let mut dice = ctx.dice();
    Ok(escape(&thiz::join_late(
        f, &mine, target, &theirs, &mut dice,
    )?))
}

fn remove(ctx: &Ctx<'_>, at: At, name: &str) -> AppResult<Reply> {
    ctx.gm()?;
    let name = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        let id = find_figure(&l.state, name)?.id;
        let f = l
            .state
            .remove(id)
            .ok_or_else(|| user("That figure is not in this encounter."))?;
        l.state.event(format!("{} leaves the fight.", f.name));
        save(tx, at, &l)?;
        Ok(f.name)
    })?;
    Ok(Reply::public(format!(
        "{} leaves the fight.",
        escape(&name)
    )))
}

fn next(ctx: &Ctx<'_>, at: At, pressed: Option<i64>) -> AppResult<Reply> {
    let (line, ping) = ctx.app.store.write(|tx| -> AppResult<(String, Option<crate::store::UserId>)> {
        let mut l = load_active(tx, at)?;
        if let Some(v) = pressed
            && v != l.row.version
        {
            return Err(user(
                "That turn has moved on already (someone pressed first); the status message shows the turn now.",
            ));
        }
        match l.state.current() {
            None if !ctx.is_gm() => {
                return Err(user("Only a GM begins the fight or moves it on now."));
            }
            Some(f) if !may_act(ctx, f) => {
                return Err(user(format!(
                    "It is {}'s turn; their player or a GM ends it.",
                    escape(&f.name)
                )));
            }
            _ => {}
        }
        if l.state.figures.is_empty() {
            return Err(user("Nobody is in the encounter yet: add figures with /encounter add."));
        }
        let began = l.state.begun();
        let before = l.state.clone();
        // Whose turn ends, and which round it is, for the timed effects.
        let ending = l.state.current().map(|f| f.id).filter(|_| began);
        let round = l.state.round;
        {
            let mut dice = ctx.dice();
            match &l.facts {
                Facts::Thiz(m) if began => thiz::advance(&mut l.state, m, &mut dice)?,
                Facts::Thiz(m) => thiz::begin(&mut l.state, m, &mut dice)?,
                Facts::Tft(m) if began => tft::advance(&mut l.state, m, &mut dice)?,
                Facts::Tft(m) => tft::begin(&mut l.state, m, &mut dice)?,
            }
        }
        let over = l.state.tick(ending, began && l.state.round != round);
        for t in &over {
            l.state.event(t.over_line(str::to_owned));
        }
        l.undo = Some(Box::new(Undo {
            version: l.row.version + 1,
            before,
        }));
        save(tx, at, &l)?;
        let mut text = match l.state.current() {
            Some(f) => format!("{}: {}'s turn.", if began { "Next" } else { "The fight begins" }, escape(&f.name)),
            None => "Nobody is left able to act; a GM ends the fight with /encounter end.".to_owned(),
        };
        for t in over {
            let _ = write!(text, "\n{}", t.over_line(escape));
        }
        Ok((text, l.state.current().and_then(|f| turn_ping(ctx, f))))
    })?;
    let mut reply = Reply::public(line);
    if let Some(user) = ping {
        // The mention leads the line so that it shows in the notification; it pings that
        // player alone (`Reply::mention`).
        reply.content = format!("<@{}> {}", user.0, reply.content);
        reply.mention = Some(user.0);
    }
    Ok(reply)
}

/// Whose turn it now is to be told: the player of a player's figure, while the server's
/// `turn_pings` switch is on. Never for an NPC (its owner is a GM, who runs it), nor for the
/// player who moved the turn on themselves.
fn turn_ping(ctx: &Ctx<'_>, f: &state::Figure) -> Option<crate::store::UserId> {
    let on = crate::app::house::house_rule(&ctx.settings, crate::app::house::TURN_PINGS);
    (on && !f.npc && f.owner != ctx.caller.user).then_some(f.owner)
}

/// GM: takes back the last "next" (or Begin), putting the encounter back exactly as it was
/// before it, as long as nothing else has changed the encounter since.
///
/// Decision: one level, and only straight after the "next": an attack, a declaration or a
/// figure added since then would be lost with it (their rolls and sheets stay), so undo refuses
/// and says why. Initiative rolled by that "next" is rolled again by the next one.
fn undo(ctx: &Ctx<'_>, at: At, pressed: Option<i64>) -> AppResult<Reply> {
    ctx.gm()?;
    let line = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        if let Some(v) = pressed
            && v != l.row.version
        {
            return Err(user(
                "That Undo is for an earlier turn; the status message shows what can be taken back now.",
            ));
        }
        let undo = l
            .undo
            .take()
            .filter(|u| u.version == l.row.version)
            .ok_or_else(|| {
                user(
                    "There is no Next to take back: undo works right after a Next (or Begin), before anything else changes the encounter.",
                )
            })?;
        l.state = undo.before;
        save(tx, at, &l)?;
        Ok(match l.state.current() {
            Some(f) => format!(
                "A GM takes back the last Next: it is {}'s turn again.",
                escape(&f.name)
            ),
            None => "A GM takes back the Begin: the fight is getting ready again.".to_owned(),
        })
    })?;
    Ok(Reply::public(line))
}

/// GM: sets a timed effect on a figure (a stun, a spell's upkeep, a crossbow's reload), or takes
/// it off with a count of 0. It counts down as the figure's turns end (`per:turn`, the default)
/// or as rounds (THIZ: Initiative Passes) begin (`per:round`), and the Next that ends it says so.
///
/// Decision: the GM sets what the sources time and the bot counts it, since the sources time
/// effects in turns, rounds and passes alike; the bot sets on its own a THIZ fall's stun
/// (`/hazard fall`), a TFT crossbow's reload (`/tft attack`) and a TFT continuing spell's round
/// (`/tftkit cast`), see [`hooks`].
fn timer(
    ctx: &Ctx<'_>,
    at: At,
    figure: &str,
    what: &str,
    (count, unit): (u32, TimeUnit),
) -> AppResult<Reply> {
    ctx.gm()?;
    let line = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        let f = find_figure(&l.state, figure)?.clone();
        let thiz = l.row.system == System::Thiz;
        l.state.set_timed(&f, what, count, unit);
        let line = |name: &str, what: &str| {
            if count == 0 {
                format!("{name}: {what} is over.")
            } else {
                format!("{name}: {what} for {count} {}.", unit.noun(count, thiz))
            }
        };
        l.state.event(line(&f.name, what.trim()));
        save(tx, at, &l)?;
        Ok(line(&escape(&f.name), &escape(what.trim())))
    })?;
    Ok(Reply::public(line))
}

/// TFT: the side that won the round's initiative chooses which side moves first
/// (tft-rules-summary.md, "Roll for Initiative"). A GM may choose for either side; a player
/// only for the party, when it won and they have a character in it; the foes are NPCs, so
/// their choice is a GM's.
fn moves_first(ctx: &Ctx<'_>, at: At, team: Team, pressed: i64) -> AppResult<Reply> {
    let line = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        if pressed != l.row.version {
            return Err(user(
                "That choice is from an earlier turn; the status message shows the round now.",
            ));
        }
        let gm = ctx.is_gm();
        let has_party_figure = l
            .state
            .figures
            .iter()
            .any(|f| f.team == Team::Party && !f.npc && f.owner == ctx.caller.user);
        let round =
            l.state.tft.as_mut().ok_or_else(|| {
                user("There is no TFT initiative to choose from in this encounter.")
            })?;
        if round.moves_first.is_some() {
            return Err(user(
                "The winner has chosen who moves first this round already.",
            ));
        }
        let may_choose = gm || (round.winner == Team::Party && has_party_figure);
        if !may_choose {
            return Err(user(format!(
                "The {} won the initiative: {} chooses who moves first.",
                round.winner.name(),
                if round.winner == Team::Party {
                    "a player of the party or a GM"
                } else {
                    "a GM (the foes' side)"
                }
            )));
        }
        round.moves_first = Some(team);
        let text = format!(
            "The {} choose: the {} move first this round.",
            round.winner.name(),
            team.name()
        );
        l.state.event(text.clone());
        save(tx, at, &l)?;
        Ok(text)
    })?;
    Ok(Reply::public(line))
}

/// The figure named, or the caller's own figure in the encounter, or (for a GM) the current one.
fn chosen<'s>(ctx: &Ctx<'_>, state: &'s State, name: Option<&str>) -> AppResult<&'s Figure> {
    if let Some(name) = name {
        return find_figure(state, name);
    }
    if ctx.is_gm() {
        return state
            .current()
            .ok_or_else(|| user("Name the figure with figure:…; nobody has the turn yet."));
    }
    let mine: Vec<&Figure> = state
        .figures
        .iter()
        .filter(|f| !f.npc && f.owner == ctx.caller.user)
        .collect();
    match mine.as_slice() {
        [one] => Ok(one),
        [] => Err(user("You have no character in this encounter.")),
        _ => Err(user(
            "You have several characters here: name one with figure:….",
        )),
    }
}

fn declare(
    ctx: &Ctx<'_>,
    at: At,
    figure: Option<&str>,
    option: Option<Declared>,
    actions: Option<(u32, bool, bool)>,
) -> AppResult<Reply> {
    let line = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        let f = chosen(ctx, &l.state, figure)?.clone();
        if !may_act(ctx, &f) {
            return Err(not_yours(&f));
        }
        let tft = l.row.system == System::Tft;
        // THIZ's Defend and TFT's defending are one word apart: each system reads it its way.
        let option = match option {
            Some(Declared::Defend) if tft => Some(Declared::Defending),
            Some(Declared::Defending) if !tft => Some(Declared::Defend),
            other => other,
        };
        if let Some(d) = option
            && !d.fits(tft)
        {
            return Err(user(if tft {
                "In TFT declare defending, dodging or charge (or none)."
            } else {
                "In THIZ declare defend, wait or prone (or none)."
            }));
        }
        let mut said = Vec::new();
        let mut meta = f.meta;
        if let Some((count, boost, engaged)) = actions {
            if !tft {
                return Err(user(
                    "actions:… is TFT's multiple-actions variant; THIZ takes one action a turn.",
                ));
            }
            let c = characters::by_id(tx, at.guild, f.id)?.ok_or_else(no_encounter)?;
            let x = tft::facts(tx, &c)?;
            let option = tft::choose_meta(&l.state, &f, x, count, boost, engaged)?;
            weapon_for_actions(tx, &c, &option)?;
            meta = Some((option.actions, option.movement_boost));
            let boost = if option.movement_boost {
                // tft-multiple-actions.txt: the boost is MA/3 more hexes; an NPC's MA is the GM's.
                match tft::boost_hexes(&c)? {
                    Some(hexes) if !f.npc => {
                        format!(" with the movement boost (+{hexes} hexes, MA/3)")
                    }
                    _ => " with the movement boost (MA/3 more hexes)".to_owned(),
                }
            } else {
                String::new()
            };
            said.push(format!(
                "{}{boost}",
                crate::app::text::count(option.actions, "action", "actions")
            ));
        }
        // tft-multiple-actions.txt, "Action Requirements": Defend and Dodge under several
        // actions need adjDX over the initiative sum.
        if tft
            && let Some(d @ (Declared::Defending | Declared::Dodging)) = option
            && let Some(m) = meta.and_then(|(a, b)| {
                crate::rules::tft::multi::META_OPTIONS
                    .iter()
                    .find(|o| o.actions == a && o.movement_boost == b)
                    .copied()
            })
        {
            let c = characters::by_id(tx, at.guild, f.id)?.ok_or_else(no_encounter)?;
            let x = tft::facts(tx, &c)?;
            let sum = tft::sum(&l.state)
                .ok_or_else(|| user("The round's initiative is not rolled yet."))?;
            let action = if d == Declared::Defending {
                crate::rules::tft::multi::Action::Defend
            } else {
                crate::rules::tft::multi::Action::Dodge
            };
            crate::rules::tft::multi::check_action(action, &m, tft::adj_dx_now(&f, x)?, sum)
                .map_err(|e| {
                    user(format!(
                        "{} cannot {} with that many actions: {e}.",
                        escape(&f.name),
                        d.verb()
                    ))
                })?;
        }
        let fig = l.state.figure_mut(f.id).ok_or_else(no_encounter)?;
        fig.meta = meta;
        if option.is_some() || actions.is_none() {
            fig.declared = option;
            fig.defend_used = false;
            said.insert(0, option.map_or("nothing", Declared::name).to_owned());
        }
        let text = format!("{} declares {}.", f.name, said.join(" and "));
        l.state.event(text.clone());
        save(tx, at, &l)?;
        Ok(escape(&text))
    })?;
    Ok(Reply::public(line))
}

/// Refuses a TFT declaration of several actions no weapon the figure carries can make: each
/// attack among them is made at ST less the penalty (tft-multiple-actions.txt, "Action
/// Segment": ST reduced by 4 per step of the penalty multiplier), so a figure whose every
/// carried weapon needs more ST than is left could only be refused at each attack.
// Decision: the check is of weapons (the first the figure can use, `app::weapons`, as the
// attack's default is); a figure that carries none fights bare-handed, which needs no ST, and a
// figure that knows spells may declare them for its spells (a spell costs IQ, not ST), whatever
// it carries or wears. tft-multiple-actions.txt's "Action Penalties" give a spell among several
// actions -4 IQ and one more die and nothing else; tft-rules-summary.md's "CAST SPELL" options
// let a figure "attempt any spell" with no word on what is in its hands, its armor counts only
// in adjDX, and MANA names a staff without making it a condition of casting. So no weapon, staff
// or armor limits a caster's declaration; its spells are checked as they are cast (the IQ after
// the penalty, `/tftkit cast`), and an attack among the actions is refused then if no weapon
// can be swung at the ST left.
fn weapon_for_actions(
    conn: &crate::store::Conn,
    c: &Character,
    option: &crate::rules::tft::multi::MetaOption,
) -> AppResult<()> {
    use crate::rules::tft::multi::{Action, action_terms};
    let less = action_terms(Action::Attack, option).st_penalty;
    if less == 0 {
        return Ok(());
    }
    let sheet = crate::app::sheet::Sheet::of(c)?;
    let sheet = sheet.tft()?;
    if !sheet.spells.is_empty() {
        return Ok(());
    }
    let items = characters::items(conn, c.guild_id, c.id)?;
    let refuse = |why: String| {
        user(format!(
            "{} cannot attack with {}: each attack would be made at ST {} ({} less {less}), and {why}. Declare fewer actions.",
            escape(&c.name),
            crate::app::text::count(option.actions, "action", "actions"),
            sheet.st - less,
            sheet.st
        ))
    };
    if sheet.st - less < 1 {
        return Err(refuse("that leaves no ST to strike with".to_owned()));
    }
    crate::app::weapons::first_usable(c, &items, less)
        .map(|_| ())
        .map_err(|why| {
            refuse(format!(
                "no weapon carried can be used then ({})",
                why.join("; ")
            ))
        })
}

fn act(ctx: &Ctx<'_>, at: At, name: &str) -> AppResult<Reply> {
    let line = ctx.app.store.write(|tx| -> AppResult<(String, String, bool)> {
        let mut l = load_active(tx, at)?;
        if l.row.system != System::Thiz {
            return Err(user(
                "/encounter act is THIZ's Wait; in TFT a figure acts in adjDX order.",
            ));
        }
        if !l.state.begun() {
            return Err(user("The fight has not begun yet."));
        }
        let f = find_figure(&l.state, name)?.clone();
        if !may_act(ctx, &f) {
            return Err(not_yours(&f));
        }
        if f.declared != Some(Declared::Wait) {
            return Err(user(format!(
                "{} is not waiting; declare it on their turn with /encounter declare option:wait.",
                escape(&f.name)
            )));
        }
        let c = characters::by_id(tx, at.guild, f.id)?.ok_or_else(no_encounter)?;
        let reflexes = thiz::facts(tx, c)?.reflexes;
        let (first, detail) = {
            let mut dice = ctx.dice();
            thiz::act_on_wait(&mut l.state, f.id, reflexes, &mut dice)?
        };
        let text = if first {
            format!("{} acts before the trigger.", f.name)
        } else {
            format!(
                "{} is too slow for the trigger and acts at the end of the Initiative Pass.",
                f.name
            )
        };
        l.state.event(text.clone());
        save(tx, at, &l)?;
        let full = format!("{} {}", escape(&text), detail);
        Ok((escape(&text), full, f.npc))
    })?;
    let (line, full, npc) = line;
    // The Reflexes rating is a number from the sheet: an NPC's goes to the GM's copy alone.
    if !npc {
        return Ok(Reply::public(full));
    }
    let mut reply = Reply::public(line);
    reply.gm_copy = Some(Box::new(Reply::public(full)));
    Ok(reply)
}

/// GM, THIZ: moves the figure's next turn in this pass to `position` in the pass's order (a
/// referee's ruling: a delay, or a figure let act sooner). Only turns still to come move; the
/// turns already taken stay where they are. TFT acts in adjDX order, re-read after every
/// action, so there is nothing there to move.
fn move_to(ctx: &Ctx<'_>, at: At, name: &str, position: u32) -> AppResult<Reply> {
    ctx.gm()?;
    let line = ctx.app.store.write(|tx| -> AppResult<String> {
        let mut l = load_active(tx, at)?;
        if l.row.system != System::Thiz {
            return Err(user(
                "/encounter move is for THIZ; in TFT figures act in adjDX order, re-read after every action.",
            ));
        }
        if !l.state.begun() {
            return Err(user("The order is made when the fight begins (/encounter next)."));
        }
        let f = find_figure(&l.state, name)?.clone();
        let first_open = l.state.turn + 1;
        let from = (first_open..l.state.order.len())
            .find(|&i| l.state.order[i].figure == f.id)
            .ok_or_else(|| {
                user(format!(
                    "{} has no turn still to come in this pass.",
                    escape(&f.name)
                ))
            })?;
        let wanted = position as usize - 1;
        if wanted < first_open {
            return Err(user(format!(
                "Turn {position} has been taken already; name a place from {} on.",
                first_open + 1
            )));
        }
        let slot = l.state.order.remove(from);
        let to = wanted.min(l.state.order.len());
        l.state.order.insert(to, slot);
        let text = format!("{}'s next turn moves to place {} in the order.", f.name, to + 1);
        l.state.event(text.clone());
        save(tx, at, &l)?;
        Ok(escape(&text))
    })?;
    Ok(Reply::public(line))
}

fn show(ctx: &Ctx<'_>, at: At, page: usize) -> AppResult<Reply> {
    let gm = ctx.is_gm();
    let pages = ctx
        .app
        .store
        .read(|conn| -> crate::store::Result<_> { Ok(status_pages(conn, at, gm)) })?;
    let pages = pages?.ok_or_else(no_encounter)?.1;
    let mut reply = super::layout::pick(pages, page, "The status").map_err(user)?;
    reply.buttons.clear();
    reply.visibility = super::reply::Visibility::Ephemeral;
    Ok(reply)
}

/// The status of the channel's encounter as the players (or, with `gm`, the GM) see it, with
/// the row it was read from: its first page, the one the channel's message shows.
fn status_of(conn: &Conn, at: At, gm: bool) -> AppResult<Option<(EncounterRow, Reply)>> {
    Ok(status_pages(conn, at, gm)?.map(|(row, mut pages)| (row, pages.swap_remove(0))))
}

/// [`status_of`], every page.
fn status_pages(conn: &Conn, at: At, gm: bool) -> AppResult<Option<(EncounterRow, Vec<Reply>)>> {
    let Some(l) = load(conn, at)? else {
        return Ok(None);
    };
    let view = status::View {
        looks: looks(&l.facts),
        adj_dx: match &l.facts {
            Facts::Thiz(_) => HashMap::new(),
            Facts::Tft(m) => l
                .state
                .figures
                .iter()
                .filter_map(|f| {
                    let x = m.get(&f.id)?;
                    Some((f.id, tft::adj_dx_now(f, *x).unwrap_or(x.adj_dx)))
                })
                .collect(),
        },
        sheets: if gm {
            sheet_lines(&l.state, &l.facts)
        } else {
            HashMap::new()
        },
        gm,
        undo: l.undo.as_ref().is_some_and(|u| u.version == l.row.version),
    };
    let pages = status::render_pages(l.row.system, &l.state, l.row.version, l.row.ended, &view);
    Ok(Some((l.row, pages)))
}

/// What a stale End (or its confirmation) is told: the fight it was pressed for is not this one
/// as it stands.
fn stale_end() -> AppError {
    user(
        "That End button is from an earlier status of this channel's fight (or from a fight that is over); nothing was ended. Press End on the current status message, or type /encounter end.",
    )
}

/// The status message's End: to the GM alone, what ending does and two buttons to confirm
/// (delete the NPC copies, or keep them), each naming the version End was pressed at.
// Decision (issue 57): the button beside Next asks first, since ending cannot be undone and
// deletes the NPC copies; a typed `/encounter end` is already deliberate and ends at once.
fn end_ask(ctx: &Ctx<'_>, at: At, version: i64) -> AppResult<Reply> {
    ctx.gm()?;
    let l = ctx
        .app
        .store
        .read(|conn| -> crate::store::Result<_> { Ok(load(conn, at)) })??
        .filter(|l| !l.row.ended)
        .ok_or_else(no_encounter)?;
    if l.row.version != version {
        return Err(stale_end());
    }
    let copies = ctx
        .app
        .store
        .read(|conn| encounters::spawned(conn, at.guild, at.channel))?
        .len();
    let copies_text = match copies {
        0 => "It made no NPC copies.".to_owned(),
        n => format!(
            "It made {}: \"End it\" deletes them, \"End, keep the copies\" keeps them as NPCs.",
            crate::app::text::count(n as u64, "NPC copy", "NPC copies")
        ),
    };
    Ok(Reply::ephemeral(format!(
        "End the encounter after {}? It cannot be undone. {copies_text} Dismiss this message to keep fighting.",
        crate::app::text::count(l.state.turns, "turn", "turns"),
    ))
    .with_button(super::reply::Button {
        custom_id: format!("{BUTTON_PREFIX}end-yes:{version}"),
        label: "End it".to_owned(),
        disabled: false,
    })
    .with_button(super::reply::Button {
        custom_id: format!("{BUTTON_PREFIX}end-keep:{version}"),
        label: "End, keep the copies".to_owned(),
        disabled: false,
    }))
}

fn end(ctx: &Ctx<'_>, at: At, keep: bool, pressed: Option<i64>) -> AppResult<Reply> {
    ctx.gm()?;
    let (turns, events) = ctx.app.store.write(|tx| -> AppResult<(u64, Vec<String>)> {
        let l = match load(tx, at)? {
            Some(l) if !l.row.ended => l,
            _ if pressed.is_some() => return Err(stale_end()),
            _ => return Err(no_encounter()),
        };
        if pressed.is_some_and(|v| v != l.row.version) {
            return Err(stale_end());
        }
        if keep {
            encounters::clear_spawned(tx, at.guild, at.channel)?;
        } else {
            drop_spawned(tx, at)?;
        }
        if !encounters::end(tx, at.guild, at.channel, l.row.version)? {
            return Err(user("The encounter changed meanwhile; try again."));
        }
        Ok((l.state.turns, l.state.events.clone()))
    })?;
    // The fight's last events stay in the channel with its end (the roll log keeps every roll).
    let log = if events.is_empty() {
        String::new()
    } else {
        let events: Vec<String> = events.iter().map(|e| escape(e)).collect();
        format!("\nLast in the fight:\n{}", events.join("\n"))
    };
    Ok(Reply::public(format!(
        "The encounter is over after {}{}.{log}",
        crate::app::text::count(turns, "turn", "turns"),
        if keep { "; the NPC copies stay" } else { "" }
    )))
}

/// The most target buttons the "Attack" answer carries (Discord: 25 buttons a message).
const MAX_TARGET_BUTTONS: usize = 20;

/// The "Attack" button: to the presser alone, the current figure's targets (every figure of
/// the other side still standing), each a button that rolls the attack with the defaults (the
/// first weapon the attacker carries and can use, declared options applied), and the command line for
/// anything more (a location, a range, a modifier).
// Decision: buttons rather than a command line alone: the common case (hit that one with my
// weapon) is one press, and the rarer options stay with the typed command, whose line is shown.
fn attack_help(ctx: &Ctx<'_>, at: At, version: i64) -> AppResult<Reply> {
    let (system, state) = ctx
        .app
        .store
        .read(|conn| -> crate::store::Result<_> { Ok(load(conn, at)) })??
        .filter(|l| !l.row.ended)
        .filter(|l| l.row.version == version)
        .map(|l| (l.row.system, l.state))
        .ok_or_else(|| {
            user("That Attack button is from an earlier status of the fight (or from a fight that is over); press Attack on the current status message.")
        })?;
    let f = state
        .current()
        .ok_or_else(|| user("Nobody has the turn yet: a GM presses Begin first."))?;
    if f.down {
        return Err(user(format!(
            "{} is down and cannot attack; Next moves the fight on.",
            escape(&f.name)
        )));
    }
    if !may_act(ctx, f) {
        return Err(user(format!(
            "It is {}'s turn; their player or a GM attacks for them.",
            escape(&f.name)
        )));
    }
    let targets: Vec<&Figure> = state
        .figures
        .iter()
        .filter(|t| t.team != f.team && !t.down)
        .collect();
    let command = match system {
        System::Thiz => "/attack",
        System::Tft => "/tft attack",
    };
    let mut reply = Reply::ephemeral(format!(
        "{} attacks: press a target to roll with the defaults (the first weapon carried that it can use; declared options apply), or type {command} target:… for more (the attacker is {} by default). Targets: {}.",
        escape(&f.name),
        escape(&f.name),
        if targets.is_empty() {
            "none standing".to_owned()
        } else {
            targets
                .iter()
                .map(|t| escape(&t.name))
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    for t in targets.iter().take(MAX_TARGET_BUTTONS) {
        reply = reply.with_button(super::reply::Button {
            custom_id: format!(
                "{BUTTON_PREFIX}hit:{}:{}:{}:{}",
                f.id.0, t.id.0, state.turns, f.rolls_this_turn
            ),
            label: crate::app::text::truncate(&format!("Attack {}", t.name), 80),
            disabled: false,
        });
    }
    Ok(reply)
}

/// A target button of the "Attack" answer: the attack of the figure whose turn it still is,
/// rolled as the typed command would be without weapon: (the first carried weapon the attacker
/// can use, `app::weapons`).
fn strike(
    ctx: &Ctx<'_>,
    at: At,
    (attacker, target): (CharacterId, CharacterId),
    shown: Option<(u64, u32)>,
) -> AppResult<Reply> {
    let (system, names) = ctx.app.store.read(|conn| -> crate::store::Result<_> {
        Ok((|| -> AppResult<_> {
            let l = load_active(conn, at)?;
            let moved = || {
                user("The turn has moved on since that answer; press Attack on the status message again.")
            };
            let f = l.state.current().filter(|f| f.id == attacker).ok_or_else(moved)?;
            if f.down {
                return Err(user(format!(
                    "{} is down and cannot attack; Next moves the fight on.",
                    escape(&f.name)
                )));
            }
            // A button acts once: the attack it made since it was shown is counted on the
            // figure, so the same press again is refused, with why.
            let Some((turns, rolls)) = shown else {
                return Err(user(
                    "That Attack button is from an older version of referee; press Attack on the status message for new ones.",
                ));
            };
            if turns != l.state.turns {
                return Err(moved());
            }
            if f.rolls_this_turn != rolls {
                return Err(user(format!(
                    "{} has attacked since that button was shown, and an Attack button acts once. Press Attack on the status message again for another attack, if {} has one left this turn.",
                    escape(&f.name),
                    escape(&f.name)
                )));
            }
            let t = l.state.figure(target).filter(|t| !t.down).ok_or_else(|| {
                user("That target is no longer standing in this encounter.")
            })?;
            Ok((l.row.system, (f.name.clone(), t.name.clone())))
        })())
    })??;
    let (attacker, target) = names;
    let path: &[&str] = match system {
        System::Thiz => &["attack"],
        System::Tft => &["tft", "attack"],
    };
    // No weapon:, so the attack takes the default every attack shares (app::weapons), and its
    // reply says which weapon that was.
    let opts = [("attacker", attacker.as_str()), ("target", target.as_str())];
    ctx.run_command(&Invocation::new(path, &opts))
}

/// A TFT figure's dying button: `/tft dying` for it (its owner or a GM rolls).
fn tft_dying(ctx: &Ctx<'_>, figure: CharacterId) -> AppResult<Reply> {
    let c = ctx
        .app
        .store
        .read(|conn| characters::by_id(conn, ctx.caller.guild, figure))?
        .filter(|c| ctx.can_act(c))
        .ok_or_else(|| user("Only the figure's player or a GM rolls its dying check."))?;
    let inv = Invocation::new(&["tft", "dying"], &[("character", c.name.as_str())]);
    ctx.run_command(&inv)
}

/// Up to 25 targets for an attack's `target:` in `channel`: the figures of the encounter under
/// way there first (an NPC figure is a valid target for a player there), then the characters
/// the caller may see; each matching what was typed (case-insensitive). Never errors.
pub fn suggest_targets(
    app: &App,
    caller: &super::Caller,
    channel: u64,
    typed: &str,
) -> Vec<String> {
    let at = At {
        guild: caller.guild,
        channel,
    };
    // A list of targets ("Orc 1, Or"): the last name is completed, after those already typed.
    let (done, last) = match typed.rsplit_once(',') {
        Some((done, last)) => (Some(done.trim_end()), last),
        None => (None, typed),
    };
    let named: Vec<String> = done
        .into_iter()
        .flat_map(|d| d.split(','))
        .map(|n| n.trim().to_lowercase())
        .collect();
    let typed = last;
    let want = typed.trim().to_lowercase();
    let mut out: Vec<String> = app
        .store
        .read(|conn| -> crate::store::Result<_> { Ok(load(conn, at)) })
        .ok()
        .and_then(Result::ok)
        .flatten()
        .filter(|l| !l.row.ended)
        .map(|l| {
            l.state
                .figures
                .into_iter()
                .filter(|f| !f.down && f.name.to_lowercase().contains(&want))
                .map(|f| f.name)
                .collect()
        })
        .unwrap_or_default();
    let context = crate::app::suggest::SuggestContext {
        character: None,
        command: &["attack"],
    };
    for name in app.suggest(
        caller,
        crate::app::suggest::Suggest::Character,
        typed.trim(),
        &context,
    ) {
        if !out.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    out.retain(|n| !named.contains(&n.to_lowercase()));
    out.truncate(25);
    match done {
        // A choice's value is at most 100 characters (Discord); a longer list is left out.
        Some(done) => out
            .into_iter()
            .map(|n| format!("{done}, {n}"))
            .filter(|v| v.chars().count() <= 100)
            .collect(),
        None => out,
    }
}

/// What the channel's status message should show, when it differs from what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusUpdate {
    /// The message to edit; `None`: post a new one.
    pub message_id: Option<u64>,
    /// The public status (buttons included).
    pub reply: Reply,
    /// What to report back with [`App::encounter_status_shown`].
    pub shown: String,
}

impl App {
    /// The status message the channel's encounter needs, or `None` when there is no encounter
    /// or its message already shows this.
    pub fn encounter_status(
        &self,
        guild: GuildId,
        channel: u64,
    ) -> AppResult<Option<StatusUpdate>> {
        let at = At { guild, channel };
        let found = self
            .store
            .read(|conn| -> crate::store::Result<_> { Ok(status_of(conn, at, false)) })??;
        let Some((row, reply)) = found else {
            return Ok(None);
        };
        let shown = serde_json::to_string(&reply)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("status: {e}")))?;
        if row.status_shown.as_deref() == Some(shown.as_str()) && row.status_message_id.is_some() {
            return Ok(None);
        }
        Ok(Some(StatusUpdate {
            message_id: row.status_message_id,
            reply,
            shown,
        }))
    }

    /// Records that the channel's status message `message_id` shows `shown`; an ended
    /// encounter is forgotten once its message says so.
    pub fn encounter_status_shown(
        &self,
        guild: GuildId,
        channel: u64,
        message_id: u64,
        shown: &str,
    ) -> AppResult<()> {
        let forgotten = self.store.write(|tx| -> AppResult<bool> {
            encounters::set_status(tx, guild, channel, message_id, shown)?;
            // Forgotten only once the message shows the end itself: a status shown from before
            // the end (a sync that raced it) must leave the row for the next sync.
            if let Some((row, reply)) = status_of(tx, At { guild, channel }, false)?
                && row.ended
                && serde_json::to_string(&reply).is_ok_and(|now| now == shown)
            {
                encounters::forget_ended(tx, guild, channel)?;
                return Ok(true);
            }
            Ok(false)
        })?;
        if forgotten {
            self.note_encounter_channel(guild, channel, false);
        }
        Ok(())
    }

    /// Loads the channels that have an encounter, and from now on keeps the set as this
    /// process starts encounters and forgets ended ones, so that [`App::may_have_encounter`]
    /// answers without the database. For the bot: a guild's interactions all reach the one
    /// process that holds its shard, so its encounters start here.
    ///
    /// Decision: an encounter started in a channel by another process on the same database
    /// (the console, say) gets its status message once the bot restarts; the bot's own
    /// commands are the way to run an encounter.
    ///
    /// # Errors
    /// When the database cannot be read; the set is then not kept (every channel may have one).
    pub fn watch_encounter_channels(&self) -> AppResult<()> {
        let channels = self.store.read(encounters::channels)?;
        *self.watched_channels() = Some(channels.into_iter().collect());
        Ok(())
    }

    /// Whether the channel may have an encounter whose status message needs a look: `false`
    /// only when [`App::watch_encounter_channels`] keeps the set and the channel is not in it.
    /// No I/O: the bot asks this on its async threads after every command.
    pub fn may_have_encounter(&self, guild: GuildId, channel: u64) -> bool {
        self.watched_channels()
            .as_ref()
            .is_none_or(|set| set.contains(&(guild, channel)))
    }

    /// The set of channels with an encounter row, if kept (a poisoned lock only means a command
    /// panicked; the set itself is whole).
    fn watched_channels(
        &self,
    ) -> std::sync::MutexGuard<'_, Option<std::collections::HashSet<(GuildId, u64)>>> {
        self.encounter_channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes that the channel now has (or no longer has) an encounter row, when the set is kept.
    fn note_encounter_channel(&self, guild: GuildId, channel: u64, present: bool) {
        if let Some(set) = self.watched_channels().as_mut() {
            if present {
                set.insert((guild, channel));
            } else {
                set.remove(&(guild, channel));
            }
        }
    }
}
