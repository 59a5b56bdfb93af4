//! The encounter's status: the message the bot keeps in the channel and edits in place (names,
//! order, whose turn, declared options, visible state), and the GM's view of the same with the
//! numbers behind it. Players' text carries no number read from an NPC's sheet.
//!
//! Every figure is always there: the order and the GM's numbers are laid out by `app::layout`,
//! over several fields and, past one message, over pages (`/encounter show page:2`), never cut.
//!
//! Seam: `/tft attack` (`app::tft`) puts the same dying button on a figure it leaves dying
//! ([`tft_dying_button`]).

use std::collections::HashMap;

use super::state::{Figure, State, Team};
use crate::app::layout::{line_fields, list_embed, paged};
use crate::app::reply::{Button, Embed, Field, Reply, Tone};
use crate::app::text::escape;
use crate::store::CharacterId;
use crate::store::guilds::System;

/// What anyone at the table can see of a figure: "wounded", "dying", "knocked down"…
pub type Looks = HashMap<CharacterId, &'static str>;

/// The custom-id prefix of the status message's buttons: `enc:<action>:<version>`.
pub const BUTTON_PREFIX: &str = "enc:";

fn title(system: System, state: &State, ended: bool) -> String {
    let game = match system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    };
    if ended {
        return format!("Encounter over ({game})");
    }
    match (state.begun(), system) {
        (false, _) => format!("Encounter ({game}): getting ready"),
        (true, System::Thiz) if state.opening => format!("Encounter ({game}): surprise"),
        (true, System::Thiz) => {
            let step = state.current_slot().map_or(1, |s| s.step);
            format!(
                "Encounter ({game}): Initiative Pass {}, turn {step}",
                state.round
            )
        }
        (true, System::Tft) => format!("Encounter ({game}): round {}", state.round),
    }
}

fn tags(f: &Figure, looks: &Looks) -> String {
    let mut tags: Vec<String> = Vec::new();
    if let Some(look) = looks.get(&f.id).filter(|l| !l.is_empty()) {
        tags.push((*look).to_owned());
    }
    if let Some(d) = f.declared {
        tags.push(if f.defend_used {
            format!("{} (used)", d.name())
        } else {
            d.name().to_owned()
        });
    }
    if let Some((actions, boost)) = f.meta.filter(|m| *m != (1, false)) {
        tags.push(format!(
            "{}{}",
            crate::app::text::count(actions, "action", "actions"),
            if boost { " + move" } else { "" }
        ));
    }
    if f.late {
        tags.push("joins next pass".to_owned());
    }
    if tags.is_empty() {
        String::new()
    } else {
        format!(" ({})", tags.join(", "))
    }
}

/// What a status shows beside the state itself.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// What anyone may see of each figure.
    pub looks: Looks,
    /// TFT: each figure's adjDX now, to list those yet to act in the order they will act
    /// (highest first; a tie is settled by a die when it comes, and listed in join order).
    pub adj_dx: HashMap<CharacterId, i32>,
    /// The GM's view: what each figure's sheet says (wounds, or ST left; its condition by
    /// name), by figure. Empty for what players see.
    pub sheets: HashMap<CharacterId, String>,
    /// The GM's view: the numbers too, no buttons.
    pub gm: bool,
    /// The last "next" may still be taken back (an Undo button, a GM's to press).
    pub undo: bool,
}

fn plain(f: &Figure, looks: &Looks) -> String {
    format!("{} [{}]{}", escape(&f.name), f.team.name(), tags(f, looks))
}

/// The order as lines: ▶ the current turn, ✓ turns taken, then those still to come. Once the
/// encounter has ended there is no turn: every figure, as it ended, without a mark.
fn order_lines(system: System, state: &State, ended: bool, view: &View) -> Vec<String> {
    let looks = &view.looks;
    if ended {
        return state.figures.iter().map(|f| plain(f, looks)).collect();
    }
    if !state.begun() {
        return state
            .figures
            .iter()
            .map(|f| format!("• {}", plain(f, looks)))
            .collect();
    }
    let mut lines = Vec::new();
    let number = |f: &Figure| -> String {
        if !view.gm {
            return String::new();
        }
        match system {
            System::Thiz => f.initiative.map_or(String::new(), |i| format!(" · {i}")),
            System::Tft => String::new(),
        }
    };
    for (i, slot) in state.order.iter().enumerate() {
        let Some(f) = state.figure(slot.figure) else {
            continue;
        };
        // Decision: a figure that goes down in its own turn (an attack, a wound, a hazard)
        // keeps the turn's place until Next moves on, since Next is what ends a turn and counts
        // its timers; but it is marked ✗, not ▶, so nobody reads it as still acting.
        let mark = match i.cmp(&state.turn) {
            std::cmp::Ordering::Less => "✓",
            std::cmp::Ordering::Equal | std::cmp::Ordering::Greater if f.down => "✗",
            std::cmp::Ordering::Equal => "▶",
            std::cmp::Ordering::Greater => "•",
        };
        lines.push(format!(
            "{mark} {} [{}]{}{}",
            escape(&f.name),
            f.team.name(),
            number(f),
            tags(f, looks)
        ));
    }
    if system == System::Tft {
        let mut waiting: Vec<&Figure> = state
            .figures
            .iter()
            .filter(|f| !f.acted && !f.down && !state.order.iter().any(|s| s.figure == f.id))
            .collect();
        // tft-rules-summary.md, "Round Sequence": the highest adjDX acts first. A stable sort
        // keeps join order among ties.
        waiting.sort_by_key(|f| std::cmp::Reverse(view.adj_dx.get(&f.id).copied()));
        for f in waiting {
            lines.push(format!("• {}", plain(f, looks)));
        }
    }
    lines
}

/// The timed effects under way, visible at the table (a stunned figure, a spell kept up): names
/// and counts only.
fn timed_fields(system: System, state: &State) -> Vec<Field> {
    let thiz = system == System::Thiz;
    let lines: Vec<String> = state
        .timed
        .iter()
        .map(|t| {
            format!(
                "{}: {}, {} {} left{}",
                escape(&t.name),
                escape(&t.what),
                t.left,
                t.unit.noun(t.left, thiz),
                t.upkeep.map_or(String::new(), |st| format!(
                    " (kept up: {st} ST a round to renew)"
                ))
            )
        })
        .chain(state.lapsed.iter().map(|t| {
            format!(
                "{}: {} lapsed; renewable this round only",
                escape(&t.name),
                escape(&t.what)
            )
        }))
        .collect();
    line_fields("Timed", &lines, false)
}

/// The status as a reply: public (the channel's message) or the GM's view (`view.gm`); the first
/// of its [`render_pages`].
pub fn render(system: System, state: &State, version: i64, ended: bool, view: &View) -> Reply {
    render_pages(system, state, version, ended, view).swap_remove(0)
}

/// The status as one reply per page: one page unless it is too long for one message (a crowded
/// fight, and the GM's numbers above all); each page but the last says what is left and
/// `/encounter show page:N`. The buttons are on the first page.
pub fn render_pages(
    system: System,
    state: &State,
    version: i64,
    ended: bool,
    view: &View,
) -> Vec<Reply> {
    let (looks, gm) = (&view.looks, view.gm);
    let mut order: Vec<String> = Vec::new();
    if let Some(f) = state.current().filter(|_| !ended) {
        if f.down {
            order.push(format!(
                "**Turn: {} (down; Next moves on)**",
                escape(&f.name)
            ));
        } else {
            order.push(format!("**Turn: {}**", escape(&f.name)));
        }
    }
    order.extend(order_lines(system, state, ended, view));
    let out: Vec<String> = state
        .figures
        .iter()
        .filter(|f| {
            f.down || f.late || (state.begun() && system == System::Thiz && f.initiative.is_none())
        })
        .map(|f| format!("{}{}", escape(&f.name), tags(f, looks)))
        .collect();
    let mut fields = Vec::new();
    if !ended {
        fields.extend(timed_fields(system, state));
    }
    if state.begun() {
        fields.extend(line_fields("Out of the order", &out, false));
    }
    if let Some(r) = &state.tft {
        fields.push(Field {
            name: "Initiative".to_owned(),
            value: format!(
                "The {} won the initiative{} ({}){}",
                r.winner.name(),
                if r.by_surprise { " by surprise" } else { "" },
                super::tft::dice_text(r, gm),
                match r.moves_first {
                    None => "; they choose who moves first.".to_owned(),
                    Some(t) => format!("; the {} move first.", t.name()),
                }
            ),
            inline: false,
        });
    }
    if gm {
        fields.extend(line_fields(
            "GM: the numbers",
            &gm_numbers(system, state, &view.sheets),
            false,
        ));
    }
    let lately: Vec<String> = state.events.iter().map(|e| escape(e)).collect();
    fields.extend(line_fields("Lately", &lately, false));
    if order.is_empty() {
        order.push("Nobody yet: a GM adds figures with /encounter add.".to_owned());
    }
    let embed = Embed {
        title: title(system, state, ended),
        description: String::new(),
        tone: Some(if ended { Tone::Grey } else { Tone::Info }),
        fields,
        // Each system's attack command: `/attack` refuses TFT figures (issue 32).
        footer: (!ended).then(|| {
            format!(
                "/encounter declare sets an option · {} defaults to whoever's turn it is",
                match system {
                    System::Thiz => "/attack",
                    System::Tft => "/tft attack",
                }
            )
        }),
    };
    // A fight of many figures (up to 64) may pass a description's 4,096 characters: the order
    // carries on in fields.
    let embed = list_embed(embed, &order, "Order (continued)");
    let pages = paged(&embed, |page| format!("/encounter show page:{page}"));
    let mut replies: Vec<Reply> = pages
        .into_iter()
        .map(|embed| {
            if gm {
                Reply::ephemeral("")
            } else {
                Reply::public("")
            }
            .with_embed(embed)
        })
        .collect();
    if !ended && !gm {
        replies[0].buttons = buttons(system, state, version, view);
    }
    replies
}

/// The public status's buttons: Next (or Begin), Attack, End, Undo while it holds, TFT's
/// choice of who moves first until it is made, and a dying check for each figure dying.
fn buttons(system: System, state: &State, version: i64, view: &View) -> Vec<Button> {
    let (looks, undo) = (&view.looks, view.undo);
    let mut out = Vec::new();
    let next = if state.begun() { "Next turn" } else { "Begin" };
    for (action, label) in [
        ("next", next),
        ("attack", "Attack"),
        ("end", "End"),
        ("undo", "Undo Next (GM)"),
    ] {
        if action == "undo" && !undo {
            continue;
        }
        out.push(Button {
            custom_id: format!("{BUTTON_PREFIX}{action}:{version}"),
            label: label.to_owned(),
            disabled: action == "attack" && state.current().is_none_or(|f| f.down),
        });
    }
    if let Some(r) = state.tft.as_ref().filter(|r| r.moves_first.is_none()) {
        for team in [Team::Party, Team::Foes] {
            out.push(Button {
                custom_id: format!("{BUTTON_PREFIX}first-{}:{version}", team.name()),
                label: format!("The {} choose: {} first", r.winner.name(), team.name()),
                disabled: false,
            });
        }
    }
    out.extend(dying_buttons(system, state, looks));
    out
}

/// The most dying-check buttons the status message carries (the rest: /wound dying or
/// /tft dying by hand).
pub const MAX_DYING_BUTTONS: usize = 7;

/// A dying check for each figure left dying: THIZ's dying button (`dying:<character>`, the
/// owner or a GM rolls it), TFT's `enc:dying:<character>` (the roll of `/tft dying`).
fn dying_buttons(system: System, state: &State, looks: &Looks) -> Vec<Button> {
    state
        .figures
        .iter()
        .filter(|f| looks.get(&f.id).is_some_and(|l| *l == "dying"))
        .take(MAX_DYING_BUTTONS)
        .map(|f| {
            let mut b = match system {
                System::Thiz => crate::app::thiz::dying_button(f.id),
                System::Tft => tft_dying_button(f.id),
            };
            b.label = crate::app::text::truncate(&format!("Dying check: {}", f.name), 80);
            b
        })
        .collect()
}

/// The button that rolls `/tft dying` for a TFT figure at 0 ST or below.
pub fn tft_dying_button(id: CharacterId) -> Button {
    Button {
        custom_id: format!("{BUTTON_PREFIX}dying:{}", id.0),
        label: "Dying check".to_owned(),
        disabled: false,
    }
}

/// The numbers behind the order, for the GM alone, a line a figure: how its initiative was
/// made, what its sheet says (`sheets`: wounds or ST left, its condition by name), TFT's hits
/// this round and since its last action, and its declared option. Then each side's
/// preparedness roll.
// Decision (issue 57): these lines go out as "GM: the numbers" fields, "(1/3)", "(2/3)"… of
// whole lines (one field holds 1,024 characters, some 8 figures), and past one message's
// 6,000 over pages, so that no figure is ever cut off the GM's screen.
fn gm_numbers(system: System, state: &State, sheets: &HashMap<CharacterId, String>) -> Vec<String> {
    let numbers: Vec<String> = state
        .figures
        .iter()
        .map(|f| {
            let mut parts: Vec<String> = Vec::new();
            if !f.detail.is_empty() {
                parts.push(f.detail.clone());
            }
            if let Some(sheet) = sheets.get(&f.id) {
                parts.push(sheet.clone());
            }
            if system == System::Tft {
                parts.push(format!(
                    "hits this round {}, since its last action {}",
                    f.hits_round, f.hits_since
                ));
            }
            if let Some(d) = f.declared {
                parts.push(format!("declared {}", d.name()));
            }
            if parts.is_empty() {
                escape(&f.name)
            } else {
                // The parts are the bot's own words and numbers; only the name is typed.
                format!("{}: {}", escape(&f.name), parts.join(" · "))
            }
        })
        .collect();
    numbers
        .into_iter()
        .chain(
            state
                .preparedness
                .iter()
                .map(|(who, roll)| format!("{}: {roll}", escape(who))),
        )
        .collect()
}
