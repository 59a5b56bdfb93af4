//! `/tft hth` (the 2d roll to enter hand-to-hand combat; `action` hands leaving and drawing a
//! dagger to `hth_follow`) and `/tft dying` (the 2d roll of a figure at 0 ST or below).

use serde_json::json;

use super::hth_follow::{self, HthAction};
use super::shared::{faces, field, menu, st_left, tft_sheet};
use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::sheet::{Sheet, TftSheet};
use crate::app::text::{escape, signed};
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::injury::{
    self, DyingModifier, DyingOutcome, Helper, HthEntry, HthModifier, HthResult,
};
use crate::store::characters;

const MAX_MODIFIER: i64 = 20;
const MAX_POTIONS: i64 = 4;
const MAX_MINUTES: i64 = 600;

// ---------------------------------------------------------------------------------------------
// HTH

/// A parsed `/tft hth`.
#[derive(Debug, Clone)]
pub struct Hth {
    character: Option<String>,
    modifiers: Vec<HthModifier>,
    modifier: i32,
    mode: RollMode,
    action: HthAction,
    /// The attacker moved half its MA or less before HTH began.
    half_ma: bool,
}

const HTH_OPTIONS: [&str; 12] = [
    "action",
    "half_ma",
    "character",
    "facing",
    "crawling",
    "moving",
    "leaping",
    "wall",
    "faster",
    "uc",
    "modifier",
    "mode",
];

impl Hth {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &HTH_OPTIONS)?;
        let mut modifiers = Vec::new();
        if let Some(f) = o.text("facing") {
            let m = menu(
                "facing",
                f,
                &[
                    ("front", None),
                    ("side", Some(HthModifier::FromSide)),
                    ("rear", Some(HthModifier::FromRear)),
                ],
            )?;
            modifiers.extend(m);
        }
        for (name, m) in [
            ("crawling", HthModifier::FromCrawling),
            ("moving", HthModifier::DuringMovement),
            ("leaping", HthModifier::LeapingFromAbove),
            ("wall", HthModifier::DefenderAgainstWall),
            ("faster", HthModifier::DefenderHigherMa),
        ] {
            if o.flag(name)? {
                modifiers.push(m);
            }
        }
        if let Some(uc) = o.text("uc") {
            let m = menu(
                "uc",
                uc,
                &[
                    ("attacker", HthModifier::AttackerHigherUc),
                    ("defender", HthModifier::DefenderHigherUc),
                ],
            )?;
            modifiers.push(m);
        }
        let action = match o.text("action") {
            Some(a) => menu("action", a, &hth_follow::ACTIONS)?,
            None => HthAction::Enter,
        };
        let modifier = o.int("modifier", -MAX_MODIFIER, MAX_MODIFIER)?.unwrap_or(0) as i32;
        let half_ma = o.flag("half_ma")?;
        if action != HthAction::Enter && (!modifiers.is_empty() || modifier != 0 || half_ma) {
            return Err(user(
                "facing, crawling, moving, leaping, wall, faster, uc, modifier and half_ma are for entering HTH; leave them out with action:leave or action:dagger.",
            ));
        }
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            modifiers,
            modifier,
            mode: o.mode()?,
            action,
            half_ma,
        })
    }

    /// Entering by the 2d chart is tft-house-rules-combat.txt's ("Hand-to-Hand Combat");
    /// leaving (4 dice) and drawing a dagger (3 dice) are tft-rules-summary.md's too.
    pub(super) fn house_rule(&self) -> Option<&'static str> {
        (self.action == HthAction::Enter).then_some("Entering hand-to-hand combat by the 2d chart")
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        if self.action != HthAction::Enter {
            return hth_follow::run(ctx, self.character.as_deref(), self.action, self.mode);
        }
        let moving = self.modifiers.contains(&HthModifier::DuringMovement);
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            tft_sheet(&c)?;
            // Entering is the figure's turn in a fight: refused after its action (the strike
            // that may follow at once is that action, counted by `/tft attack`).
            crate::app::encounter::hooks::tft_act_before(ctx, tx, c.id)?;
            let entry = injury::hth_entry(&mut ctx.dice(), &self.modifiers).map_err(user)?;
            let total = entry.total + self.modifier;
            let result = injury::hth_result(total);
            ctx.log_roll(
                tx,
                Some(c.id),
                "tft hth",
                self.mode,
                "HTH entry",
                &json!({
                    "faces": entry.faces,
                    "roll": entry.roll,
                    "modifier": total - entry.roll,
                    "total": total,
                    "result": hth_name(result),
                }),
            )?;
            let mut embed = render_hth(&c.name, &entry, self.modifier, total);
            embed
                .fields
                .extend(hth_follow::strike_field(result, moving, self.half_ma));
            Ok((
                "an HTH entry roll".to_owned(),
                Reply::public("").with_embed(embed),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

fn hth_modifier_name(m: HthModifier) -> &'static str {
    match m {
        HthModifier::FromCrawling => "from crawling",
        HthModifier::DuringMovement => "while moving",
        HthModifier::DefenderHigherMa => "defender faster",
        HthModifier::DefenderHigherUc => "defender better at UC",
        HthModifier::AttackerHigherUc => "attacker better at UC",
        HthModifier::LeapingFromAbove => "leaping from above",
        HthModifier::FromSide => "from the side",
        HthModifier::DefenderAgainstWall => "defender against a wall",
        HthModifier::FromRear => "from the rear",
    }
}

fn hth_name(r: HthResult) -> &'static str {
    match r {
        HthResult::AttackerKnockedBackAndDown => "Thrown back and down: the attacker falls",
        HthResult::AttackerKnockedBack => "Thrown back: no HTH",
        HthResult::DefenderReadiesDagger => "HTH begins; the defender may ready a dagger",
        HthResult::Initiated => "HTH begins",
        HthResult::DefenderStunned => "HTH begins; the defender is stunned (−2 DX next turn)",
    }
}

fn render_hth(name: &str, e: &HthEntry, modifier: i32, total: i32) -> Embed {
    let result = injury::hth_result(total);
    let mut mods: Vec<String> = e
        .modifiers
        .iter()
        .map(|(m, v)| format!("{} {}", hth_modifier_name(*m), signed(*v)))
        .collect();
    if modifier != 0 {
        mods.push(format!("modifier {}", signed(modifier)));
    }
    Embed {
        title: format!("{} tries to enter HTH", escape(name)),
        description: format!("**{}**", hth_name(result)),
        tone: Some(match result {
            HthResult::AttackerKnockedBackAndDown => Tone::Red,
            HthResult::AttackerKnockedBack => Tone::Grey,
            HthResult::DefenderReadiesDagger | HthResult::Initiated => Tone::Green,
            HthResult::DefenderStunned => Tone::Black,
        }),
        fields: vec![
            field(
                "Roll",
                format!("2d: {} = {}", faces(&e.faces), e.roll),
                true,
            ),
            field(
                "Modifiers",
                if mods.is_empty() {
                    "none".to_owned()
                } else {
                    mods.join(", ")
                },
                true,
            ),
            field("Total", total.to_string(), true),
        ],
        footer: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Death and dying

/// A parsed `/tft dying`.
#[derive(Debug, Clone)]
pub struct DyingRoll {
    character: Option<String>,
    helper: Option<Helper>,
    second: Option<Helper>,
    potions: u32,
    minutes: u32,
    mode: RollMode,
}

const HELPERS: [(&str, Helper); 4] = [
    ("friend", Helper::Friend),
    ("first-aid", Helper::FirstAid),
    ("physicker", Helper::Physicker),
    ("master-physicker", Helper::MasterPhysicker),
];

impl DyingRoll {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "character",
                "helper",
                "second",
                "potions",
                "minutes",
                "mode",
            ],
        )?;
        let helper = o
            .text("helper")
            .map(|h| menu("helper", h, &HELPERS))
            .transpose()?;
        let second = o
            .text("second")
            .map(|h| menu("second", h, &HELPERS))
            .transpose()?;
        if second.is_some() && helper.is_none() {
            return Err(user(
                "second is the second helper; name the first with helper:… too.",
            ));
        }
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            helper,
            second,
            potions: o.int("potions", 0, MAX_POTIONS)?.unwrap_or(0) as u32,
            minutes: o.int("minutes", 0, MAX_MINUTES)?.unwrap_or(0) as u32,
            mode: o.mode()?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let guild = ctx.caller.guild;
        let (what, full) = ctx.app.store.write(|tx| -> AppResult<(String, Reply)> {
            let c = ctx.acting_character(tx, self.character.as_deref())?;
            let sheet = tft_sheet(&c)?;
            let (hits, fatigue) = characters::tft_damage(tx, guild, c.id)?;
            let left = st_left(&sheet, hits, fatigue);
            if sheet.dead {
                return Err(user(format!("{} is dead; there is no roll to live.", escape(&c.name))));
            }
            if sheet.stable {
                return Err(user(format!(
                    "{} has already lived through the roll to live and is out of danger until hurt again.",
                    escape(&c.name)
                )));
            }
            if left > 0 {
                return Err(user(format!(
                    "{} has {left} ST left; only a figure at 0 ST or below rolls to live.",
                    escape(&c.name)
                )));
            }
            let who = injury::Dying {
                st_left: left,
                original_st: sheet.st,
                helper: self.helper,
                second_helper: self.second,
                healing_potions: self.potions,
                minutes_unhelped: self.minutes,
            };
            let outcome = injury::roll_dying(&mut ctx.dice(), &who).map_err(user)?;
            let log = match &outcome {
                DyingOutcome::DiesUnaided => json!({ "st_left": left, "unaided": true }),
                DyingOutcome::Rolled(r) => json!({
                    "st_left": left,
                    "faces": r.faces,
                    "roll": r.roll,
                    "total": r.total,
                    "survived": r.survived,
                }),
            };
            ctx.log_roll(tx, Some(c.id), "tft dying", self.mode, "roll to live", &log)?;
            // The outcome stays on the sheet: the dead stay dead (until a GM says otherwise), and
            // a survivor is out of danger, unconscious and on the ground.
            // Decision: the house rules wake a survivor "extremely weak (0 ST)" hours later; the
            // hits stay as they are, and the GM heals them (/tft heal) when the figure wakes.
            let after = TftSheet {
                dead: matches!(&outcome, DyingOutcome::DiesUnaided)
                    || matches!(&outcome, DyingOutcome::Rolled(r) if !r.survived),
                stable: matches!(&outcome, DyingOutcome::Rolled(r) if r.survived),
                knocked_down: true,
                ..sheet.clone()
            };
            characters::set_sheet(tx, guild, c.id, &Sheet::Tft(after).to_json())?;
            Ok((
                "the roll to live".to_owned(),
                Reply::public("").with_embed(render_dying(&c.name, left, &outcome)),
            ))
        })?;
        Ok(ctx.route(self.mode, &what, full))
    }
}

fn dying_modifier_name(m: DyingModifier) -> &'static str {
    match m {
        DyingModifier::StBelowZero => "ST below 0",
        DyingModifier::FirstHelper(_) => "helper",
        DyingModifier::SecondHelper(_) => "second helper",
        DyingModifier::HealingPotions => "healing potions",
        DyingModifier::MinutesUnhelped => "minutes without help",
        DyingModifier::OriginalSt => "original ST",
    }
}

/// A survivor's DX penalty week by week of rest: "DX -5 now, -4 after 1 week, …, none after 5".
fn recovery_text() -> String {
    let steps: Vec<String> = (0..=injury::RECOVERY_WEEKS)
        .map(|weeks| {
            let penalty = injury::dx_penalty_after_weeks(weeks);
            let dx = if penalty == 0 {
                "none".to_owned()
            } else {
                format!("DX {penalty}")
            };
            match weeks {
                0 => format!("{dx} now"),
                1 => format!("{dx} after 1 week"),
                n => format!("{dx} after {n} weeks"),
            }
        })
        .collect();
    steps.join(", ")
}

fn render_dying(name: &str, st_left: i32, outcome: &DyingOutcome) -> Embed {
    let title = format!("{} fights for life", escape(name));
    match outcome {
        DyingOutcome::DiesUnaided => Embed {
            title,
            description: format!(
                "**Dies**: below 0 ST ({st_left}) with nobody helping, there is no roll."
            ),
            tone: Some(Tone::Red),
            fields: Vec::new(),
            footer: Some("A helper (helper:friend or better) lets a dying figure roll.".into()),
        },
        DyingOutcome::Rolled(r) => {
            let mods: Vec<String> = r
                .modifiers
                .iter()
                .filter(|(_, v)| *v != 0)
                .map(|(m, v)| format!("{} {}", dying_modifier_name(*m), signed(*v)))
                .collect();
            let mut fields = vec![
                field(
                    "Roll",
                    format!("2d: {} = {}", faces(&r.faces), r.roll),
                    true,
                ),
                field(
                    "Modifiers",
                    if mods.is_empty() {
                        "none".to_owned()
                    } else {
                        mods.join(", ")
                    },
                    true,
                ),
                field("Total", r.total.to_string(), true),
            ];
            if r.survived {
                fields.push(field("Recovery", recovery_text(), false));
            }
            Embed {
                title,
                description: if r.survived {
                    format!("**Lives** (needs {} or more)", injury::TO_LIVE)
                } else {
                    format!(
                        "**Dies** (needed {} or more, and a 2 always dies)",
                        injury::TO_LIVE
                    )
                },
                tone: Some(if r.survived { Tone::Green } else { Tone::Red }),
                fields,
                footer: r.survived.then(|| {
                    format!(
                        "A survivor needs {} weeks to recover fully.",
                        injury::RECOVERY_WEEKS
                    )
                }),
            }
        }
    }
}
