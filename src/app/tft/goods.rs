//! `/tftref price magic [points]` (a magic item's price and making time) and `/tftref time
//! action` (the rounds an action takes). Look-ups: nothing is rolled or written.

use super::shared::{field, menu};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::escape;
use crate::app::{AppResult, user};
use crate::rules::tft::campaign::{
    MAGIC_ITEM_COSTS, MagicItemCost, ROUNDS_PER_MINUTE, TimedAction, action_rounds,
    magic_item_price,
};

/// The most points of a rod accepted.
const MAX_POINTS: i64 = 100;

/// A parsed `/tftref price`.
#[derive(Debug, Clone)]
pub struct Price {
    item: &'static MagicItemCost,
    points: Option<u32>,
}

impl Price {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["magic", "points"])?;
        let given = o.required("magic")?;
        let key = |s: &str| {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let item = MAGIC_ITEM_COSTS
            .iter()
            .find(|i| key(i.name) == key(given))
            .ok_or_else(|| {
                let names: Vec<&str> = MAGIC_ITEM_COSTS.iter().map(|i| i.name).collect();
                user(format!(
                    "The house rules price no magic item \"{}\"; they price {}.",
                    escape(given.trim()),
                    names.join(", ")
                ))
            })?;
        Ok(Self {
            item,
            points: o.int("points", 1, MAX_POINTS)?.map(|n| n as u32),
        })
    }

    pub fn run(self) -> Reply {
        let i = self.item;
        let price = if i.per_point {
            let points = self.points.unwrap_or(1);
            format!(
                "${} for {points} point{} (${} a point)",
                magic_item_price(i, points),
                if points == 1 { "" } else { "s" },
                i.cost
            )
        } else {
            format!("${}", magic_item_price(i, 0))
        };
        let mut fields = vec![field("Price", price, true)];
        if let Some(w) = i.weeks {
            fields.push(field("Making", format!("{w} weeks"), true));
        }
        Reply::ephemeral("").with_embed(Embed {
            title: i.name.to_owned(),
            description: String::new(),
            tone: Some(Tone::Grey),
            fields,
            footer: None,
        })
    }
}

const ACTIONS: [(&str, TimedAction); 9] = [
    ("search", TimedAction::SearchForHidden),
    ("remove-trap", TimedAction::RemoveTrap),
    ("spring-trap", TimedAction::SpringTrap),
    ("molotail", TimedAction::ThrowMolotail),
    ("backpack-off", TimedAction::RemoveBackpack),
    ("from-backpack", TimedAction::TakeFromBackpack),
    ("torch", TimedAction::LightTorch),
    ("kill-helpless", TimedAction::KillHelpless),
    ("speak", TimedAction::SpeakBriefly),
];

/// A parsed `/tftref time`.
#[derive(Debug, Clone)]
pub struct Time {
    action: TimedAction,
    name: &'static str,
}

impl Time {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["action"])?;
        let action = menu("action", o.required("action")?, &ACTIONS)?;
        let name = ACTIONS
            .iter()
            .find(|(_, a)| *a == action)
            .map_or("action", |(n, _)| *n);
        Ok(Self { action, name })
    }

    pub fn run(self) -> Reply {
        let rounds = action_rounds(self.action);
        let text = if rounds.is_multiple_of(ROUNDS_PER_MINUTE) {
            let minutes = rounds / ROUNDS_PER_MINUTE;
            format!(
                "{rounds} rounds ({minutes} minute{})",
                if minutes == 1 { "" } else { "s" }
            )
        } else if rounds == 1 {
            "1 round".to_owned()
        } else {
            format!("{rounds} rounds")
        };
        Reply::ephemeral("").with_embed(Embed {
            title: format!("Time to {}", self.name),
            description: text,
            tone: Some(Tone::Grey),
            fields: Vec::new(),
            footer: None,
        })
    }
}
