//! `/tftref study talent [character] [instructor] [on_the_job] [also] [cost]`: whether a character may start
//! learning a talent now, what it costs and how long it takes against the normal time. Nothing
//! is rolled and nothing is written: the GM records the talent when the study is done.

use super::shared::{gear_dx, has_talent, tft_sheet};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::character::{
    DISCOUNTED_COST, LearnCategory, StudyPlan, Talent, check_study, discount_by, discounted_cost,
    study_time_permille, talent_info,
};

/// The highest talent cost accepted.
const MAX_COST: i64 = 10;

/// A parsed `/tftref study`.
#[derive(Debug, Clone)]
pub struct Study {
    talent: Talent,
    character: Option<String>,
    plan: StudyPlan,
    also: Vec<Talent>,
    /// The cost the player's book lists, for talents whose cost the bot's tables lack.
    cost: Option<u32>,
}

impl Study {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "talent",
                "character",
                "instructor",
                "on_the_job",
                "also",
                "cost",
            ],
        )?;
        let talent = parse_talent(o.required("talent")?)?;
        let also = o
            .text("also")
            .map(|list| {
                list.split(',')
                    .filter(|t| !t.trim().is_empty())
                    .map(parse_talent)
                    .collect::<AppResult<Vec<_>>>()
            })
            .transpose()?
            .unwrap_or_default();
        Ok(Self {
            talent,
            character: o.text("character").map(str::to_owned),
            plan: StudyPlan {
                instructor: o.flag("instructor")?,
                on_the_job: o.flag("on_the_job")?,
                willpower: false,
            },
            also,
            cost: o.int("cost", 1, MAX_COST)?.map(|n| n as u32),
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let c = ctx
            .app
            .store
            .read(|conn| Ok(ctx.acting_character(conn, self.character.as_deref())))??;
        let sheet = tft_sheet(&c)?;
        let known: Vec<Talent> = sheet
            .talents
            .iter()
            .filter_map(|t| Talent::parse(t))
            .collect();
        let (armor, shield) = gear_dx(&c, &sheet, super::shared::house_rules(ctx))?;
        let adj_dx = sheet.dx + armor + shield;
        let iq = sheet.iq.max(0) as u32;
        let mut problems: Vec<String> = check_study(self.talent, &known, &self.also, iq, adj_dx)
            .iter()
            .map(ToString::to_string)
            .collect();
        let plan = StudyPlan {
            willpower: has_talent(&sheet, Talent::Willpower),
            ..self.plan
        };
        let info = talent_info(self.talent);
        let mut lines = Vec::new();
        // tft-house-rules.txt, "New and Changed Skills": with First Aid, Physicker costs 1 (and
        // Master Vet and Master Physicker 1 for one who knows the other), whatever the book lists,
        // so the cost is known even where the bot's tables have no listed cost.
        let by = discount_by(self.talent).filter(|t| known.contains(t));
        match (info.and_then(|i| i.cost).or(self.cost), by) {
            (Some(listed), _) => {
                let cost = discounted_cost(self.talent, listed, &known);
                let points = if cost == 1 { "point" } else { "points" };
                lines.push(match by {
                    Some(t) if cost < listed => {
                        format!("**Cost**: {cost} IQ {points} (listed {listed}; {t} is known)")
                    }
                    _ => format!("**Cost**: {cost} IQ {points}"),
                });
            }
            (None, Some(t)) => lines.push(format!(
                "**Cost**: {DISCOUNTED_COST} IQ point ({t} is known)"
            )),
            (None, None) => {}
        }
        if let Some(category) = info.and_then(|i| i.category) {
            lines.push(format!(
                "**Category {}**: {}",
                category.number(),
                category_text(category)
            ));
            match study_time_permille(self.talent, category, plan) {
                Ok(permille) => lines.push(format!(
                    "**Time**: {} of the normal time{}",
                    percent(permille),
                    if plan.willpower { " (Willpower)" } else { "" }
                )),
                Err(e) => problems.push(e.to_string()),
            }
        } else {
            lines.push("The house rules give no category for it: the GM sets the time.".into());
        }
        let (head, tone) = if problems.is_empty() {
            ("**May start now.**".to_owned(), Tone::Green)
        } else {
            let list: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
            (
                format!("**Cannot start yet:**\n{}", list.join("\n")),
                Tone::Grey,
            )
        };
        let embed = Embed {
            title: format!("{} studies {}", escape(&c.name), self.talent.name()),
            description: format!("{head}\n{}", lines.join("\n")),
            tone: Some(tone),
            fields: Vec::new(),
            footer: Some("Nothing was written to the sheet: add the talent when learned.".into()),
        };
        Ok(Reply::ephemeral("").with_embed(embed))
    }
}

fn parse_talent(text: &str) -> AppResult<Talent> {
    Talent::parse(text).ok_or_else(|| {
        user(format!(
            "There is no TFT talent called \"{}\"; write it as the rules name it, like Sword or First Aid.",
            escape(text.trim())
        ))
    })
}

/// "75%", "112.5%".
fn percent(permille: u32) -> String {
    if permille.is_multiple_of(10) {
        format!("{}%", permille / 10)
    } else {
        format!("{}.{}%", permille / 10, permille % 10)
    }
}

fn category_text(category: LearnCategory) -> &'static str {
    match category {
        LearnCategory::SelfTaught => "may be learned alone; a teacher saves a quarter",
        LearnCategory::SlowerAlone => "alone takes a quarter longer",
        LearnCategory::HardAlone => "alone takes twice as long",
        LearnCategory::InstructorOnly => "only with an instructor",
        LearnCategory::InstructorAndJob => "only with an instructor and training on the job",
    }
}
