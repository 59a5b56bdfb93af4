//! `/tft job job:thief [character] [mode]`: a thief's week as far as tft-house-rules.txt can be
//! read. Its "Thieves" table came through OCR that lost the jobs' names, risk numbers, pay,
//! experience, weeks and roll to find, so no thief job is in `rules::tft::campaign`'s tables;
//! what survived is reached here: the thief's risk reduction and pay increase from the sheet
//! (the talents and MA rows), the 3d risk roll and the 3d/IQ roll against arrest. The reply says
//! which numbers the GM supplies. Nothing is written to the sheet.

use serde_json::json;

use super::shared::{faces, field, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::screen;
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::campaign::{self, THIEF_TALENT_FACTORS};
use crate::rules::tft::character::{Talent, base_ma};

/// The names `job:` takes for a thief's week.
pub const NAMES: [&str; 2] = ["thief", "thieves"];

/// The `/tft job` options a thief's week cannot use, and why.
const UNUSABLE: [(&str, &str); 6] = [
    ("looking", "its roll to find"),
    ("own_lodging", "its lifestyle"),
    ("self_employed", "its pay"),
    ("rank", "no officers (rank is a mercenary's)"),
    ("weapon_talents", "no weapon talents asked"),
    ("combat_talents", "no combat talents asked"),
];

/// A parsed `/tft job job:thief`.
#[derive(Debug, Clone)]
pub struct ThiefWeek {
    character: Option<String>,
    mode: RollMode,
}

impl ThiefWeek {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let mut accepted = vec!["job", "character", "mode"];
        accepted.extend(UNUSABLE.iter().map(|(n, _)| *n));
        let o = Opts::new(inv, &accepted)?;
        if let Some((name, why)) = UNUSABLE.iter().find(|(n, _)| o.text(n).is_some()) {
            return Err(user(format!(
                "{name} does not apply to a thief's week: the thieves' table in the house rules cannot be read for {why}. Nothing was rolled."
            )));
        }
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let talents: Vec<Talent> = sheet
                .talents
                .iter()
                .filter_map(|t| Talent::parse(t))
                .collect();
            let ma = sheet
                .ma
                .map_or_else(|| base_ma(sheet.dx.max(0) as u32), |m| m.max(0) as u32);
            // Decision: which spells "fit" a wizard's theft (tft-house-rules.txt, "Wizards") is
            // not listed, so none is counted here; the GM adds 1/4 a spell.
            let adj = campaign::thief_adjustment(&talents, ma, 0);
            let rolls = campaign::thief_rolls(sheet.iq.max(0) as u32, &mut ctx.dice());
            let label = "a week as a thief".to_owned();
            ctx.log_roll(
                tx,
                Some(c.id),
                "tft job",
                self.mode,
                &label,
                &json!({
                    "job": "thief",
                    "risk_faces": rolls.risk_faces,
                    "risk_roll": rolls.risk_roll,
                    "risk_shift": adj.risk_shift,
                    "arrest_faces": rolls.arrest.faces,
                    "arrest_total": rolls.arrest.total,
                }),
            )?;
            let counted: Vec<String> = THIEF_TALENT_FACTORS
                .iter()
                .filter(|f| talents.contains(&f.talent))
                .map(|f| {
                    let pay = if f.pay > 0 {
                        format!(", +${}", f.pay)
                    } else {
                        String::new()
                    };
                    format!("{} {}{pay}", f.talent, quarters(f.quarters))
                })
                .chain(std::iter::once(format!(
                    "MA {ma} {}",
                    quarters(campaign::ma_quarters(ma))
                )))
                .collect();
            let embed = render(&c.name, c.npc, &label, &counted, adj, &rolls);
            Ok((
                format!("{}'s week", escape(&c.name)),
                Reply::public("").with_embed(embed),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

/// The thief's week as an embed: the reductions counted, the rolls, and what the GM supplies.
/// An NPC's talents, MA and IQ, and the reduction that follows from them, are the GM's
/// (`app::screen`); the dice are everyone's.
fn render(
    name: &str,
    npc: bool,
    label: &str,
    counted: &[String],
    adj: campaign::ThiefAdjustment,
    rolls: &campaign::ThiefRolls,
) -> Embed {
    let arrest = &rolls.arrest;
    Embed {
        title: format!("{}: {label}", escape(name)),
        description: "The thieves' table in tft-house-rules.txt (\"Thieves\") is unreadable in the scan: the jobs, their risk numbers (and the most a reduction may raise them to), pay, experience, weeks, lifestyle and damage are the GM's. What the rules still give is below.".to_owned(),
        tone: Some(Tone::Info),
        fields: vec![
            field(
                "Risk reduction",
                format!(
                    "{} (fractions dropped), never past the job's number in parentheses",
                    screen::npc(
                        npc,
                        format!(
                            "{} = {} in all: the upper risk number {}",
                            counted.join(" · "),
                            quarters(adj.quarters),
                            signed(adj.risk_shift)
                        )
                    )
                ),
                false,
            ),
            field(
                "Pay increase",
                format!(
                    "{}, at most half the job's fixed pay",
                    screen::npc(npc, format!("+${}", adj.pay_increase))
                ),
                false,
            ),
            field(
                "Risk",
                format!(
                    "3d: {} = {}: a disaster at the job's upper risk number {} or more",
                    faces(&rolls.risk_faces),
                    rolls.risk_roll,
                    screen::npc(npc, signed(adj.risk_shift))
                ),
                false,
            ),
            field(
                "Arrest (only after a disaster)",
                format!(
                    "3d: {} = {} against {}: {}",
                    faces(&arrest.faces),
                    arrest.total,
                    screen::npc(npc, format!("IQ {}", arrest.target)),
                    if arrest.succeeded() {
                        "not arrested"
                    } else {
                        "arrested (and paid nothing)"
                    }
                ),
                false,
            ),
        ],
        footer: Some(
            "Nothing was written to the sheet: the GM records the experience, any hits and the pay."
                .to_owned(),
        ),
    }
}

/// Quarters as the table writes them: "3/4", "1", "-1/4", "1 1/2".
fn quarters(q: i32) -> String {
    let sign = if q < 0 { "-" } else { "+" };
    let (whole, part) = (q.abs() / 4, q.abs() % 4);
    let frac = match part {
        1 => "1/4",
        2 => "1/2",
        3 => "3/4",
        _ => "",
    };
    match (whole, frac) {
        (0, "") => "0".to_owned(),
        (0, f) => format!("{sign}{f}"),
        (w, "") => format!("{sign}{w}"),
        (w, f) => format!("{sign}{w} {f}"),
    }
}

fn signed(n: i32) -> String {
    format!("{n:+}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn quarters_read_as_the_table_writes_them() {
        for (q, text) in [
            (0, "0"),
            (1, "+1/4"),
            (2, "+1/2"),
            (3, "+3/4"),
            (4, "+1"),
            (7, "+1 3/4"),
            (-1, "-1/4"),
            (-3, "-3/4"),
            (-5, "-1 1/4"),
        ] {
            assert_eq!(super::quarters(q), text);
        }
    }
}
