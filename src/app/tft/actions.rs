//! `/tftkit actions first second [take] [engaged] [character]`: under the multiple-actions variant
//! (tft-multiple-actions.txt), which meta-options a figure's adjDX allows against this turn's
//! initiative sum and, with `take`, what the chosen one costs each action and how far the
//! figure may move. Rolls nothing and changes nothing.

use super::shared::{field, gear_dx, menu, tft_sheet};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::gear;
use crate::rules::tft::multi::{
    self, Action, InitiativeSum, META_OPTIONS, MetaOption, available_meta_options, check_action,
    choose_meta_option, movement_allowance,
};

/// What `take:` accepts: (actions, movement boost).
const TAKE: [(&str, (u32, bool)); 5] = [
    ("1", (1, false)),
    ("1+move", (1, true)),
    ("2", (2, false)),
    ("2+move", (2, true)),
    ("3", (3, false)),
];

/// A parsed `/tft actions`.
#[derive(Debug, Clone)]
pub struct Actions {
    first: u32,
    second: u32,
    take: Option<(u32, bool)>,
    engaged: bool,
    character: Option<String>,
}

impl Actions {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["first", "second", "take", "engaged", "character"])?;
        Ok(Self {
            first: o.required_int("first", 1, 6)? as u32,
            second: o.required_int("second", 1, 6)? as u32,
            take: o.text("take").map(|t| menu("take", t, &TAKE)).transpose()?,
            engaged: o.flag("engaged")?,
            character: o.text("character").map(str::to_owned),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (c, sheet) = ctx.app.store.write(|tx| -> AppResult<_> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            Ok((c, sheet))
        })?;
        let (armor, shield) = gear_dx(&c, &sheet, super::shared::house_rules(ctx))?;
        let adj_dx = sheet.dx + armor + shield;
        let sum = InitiativeSum::new(self.first, self.second).map_err(user)?;
        let open = available_meta_options(adj_dx, sum, self.engaged);
        let menu_text = META_OPTIONS
            .iter()
            .map(|m| {
                let mark = if open.contains(m) { "yes" } else { "no" };
                format!(
                    "{}: {mark}{}",
                    option_name(m),
                    requirement(m.requirement, sum)
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut fields = vec![field("May choose", menu_text, false)];
        if let Some((actions, boost)) = self.take {
            let option =
                choose_meta_option(actions, boost, adj_dx, sum, self.engaged).map_err(|e| {
                    user(format!(
                        "{} may not take {actions} action(s){}: {e}.",
                        escape(&c.name),
                        if boost { " and the movement boost" } else { "" }
                    ))
                })?;
            fields.extend(terms(&option, adj_dx, sum));
            fields.push(movement(&sheet, &option, self.engaged)?);
        }
        // What an NPC may do follows from its adjDX: the whole answer is the GM's.
        for f in &mut fields {
            f.value = screen::npc(c.npc, f.value.as_str());
        }
        Ok(Reply::public("").with_embed(Embed {
            title: format!(
                "{}: multiple actions, {} against initiative {} + {} = {}",
                escape(&c.name),
                screen::npc(c.npc, format!("adjDX {adj_dx}")),
                self.first,
                self.second,
                sum.value()
            ),
            description: "Who may do how much this turn (tft-multiple-actions.txt).".to_owned(),
            tone: Some(Tone::Info),
            fields,
            footer: None,
        }))
    }
}

fn option_name(m: &MetaOption) -> String {
    let noun = if m.actions == 1 { "action" } else { "actions" };
    let boost = if m.movement_boost { " + movement" } else { "" };
    format!("{} {noun}{boost}", m.actions)
}

fn requirement(by: Option<i32>, sum: InitiativeSum) -> String {
    by.map_or(String::new(), |by| {
        format!(" (adjDX {} or more)", sum.value() as i32 + by + 1)
    })
}

/// What each kind of action costs under the chosen row.
fn terms(option: &MetaOption, adj_dx: i32, sum: InitiativeSum) -> Vec<Field> {
    let attack = multi::action_terms(Action::Attack, option);
    let spell = multi::action_terms(Action::CastSpell, option);
    let quiet = match check_action(Action::Defend, option, adj_dx, sum) {
        Ok(_) => "allowed".to_owned(),
        Err(e) => format!("not allowed: {e}"),
    };
    vec![
        field(
            "Each attack",
            format!("-{} ST, +{} dice", attack.st_penalty, attack.extra_dice),
            true,
        ),
        field(
            "Each spell",
            format!("-{} IQ, +{} dice", spell.iq_penalty, spell.extra_dice),
            true,
        ),
        field("Defend, dodge, disengage, pick up, stand", quiet, false),
    ]
}

/// How far the figure may move: its MA (after armor), plus the boost if taken.
fn movement(
    sheet: &crate::app::sheet::TftSheet,
    option: &MetaOption,
    engaged: bool,
) -> AppResult<Field> {
    let Some(ma) = sheet.ma else {
        return Ok(field("Movement", "no MA on the sheet", false));
    };
    let ma = match sheet.armor.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(name) => gear::armor(name).map_or(ma, |a| a.ma_for(ma)),
        None => ma,
    };
    let hexes = movement_allowance(ma.max(0) as u32, &[], option, engaged).map_err(user)?;
    Ok(field(
        "Movement",
        format!("up to {hexes} hexes (MA {ma})"),
        false,
    ))
}
