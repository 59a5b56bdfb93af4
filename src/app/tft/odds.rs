//! `/odds tft target dice [save] [miss]`: the exact chance of every outcome of an attack (or, with
//! `save:true`, a saving roll; with `miss:true`, a roll to miss a figure in the line of fire), by
//! enumeration, in an embed and as a chart beside it. Rolls nothing, so nothing is logged.

use super::attack::{outcome_tone, table_text};
use super::save::{bands_text, result_name, result_tone};
use super::shared::{field, table_settings};
use crate::app::chart;
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::attack::MissOutcome;
use crate::rules::tft::attack::{AttackOutcome, CriticalRange, MAX_ATTACK_DICE, MIN_ATTACK_DICE};
use crate::rules::tft::odds::{hit_odds, miss_odds};
use crate::rules::tft::saves::{MAX_SAVE_DICE, MIN_SAVE_DICE, SaveResult, save_odds};

/// The widest target accepted either way.
const MAX_TARGET: i64 = 100;

/// A parsed `/odds tft`.
#[derive(Debug, Clone)]
pub struct Odds {
    target: i32,
    dice: u32,
    save: bool,
    miss: bool,
}

/// A roll to miss is always 3 dice (tft-rules-summary.md, "ROLLING TO MISS").
const MISS_DICE: i64 = 3;

impl Odds {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["target", "dice", "save", "miss"])?;
        let save = o.flag("save")?;
        let miss = o.flag("miss")?;
        let (min, max) = match (save, miss) {
            (true, true) => {
                return Err(user(
                    "Choose save or miss, not both: a roll to miss is not a saving roll.",
                ));
            }
            (true, false) => (MIN_SAVE_DICE.into(), MAX_SAVE_DICE.into()),
            (false, true) => (MISS_DICE, MISS_DICE),
            (false, false) => (MIN_ATTACK_DICE.into(), MAX_ATTACK_DICE.into()),
        };
        Ok(Self {
            target: o.required_int("target", -MAX_TARGET, MAX_TARGET)? as i32,
            dice: o.required_int("dice", min, max)? as u32,
            save,
            miss,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> Reply {
        let (embed, outcomes) = if self.save {
            self.save_embed()
        } else if self.miss {
            self.miss_embed()
        } else {
            self.attack_embed(ctx)
        };
        let reply = Reply::public("");
        if outcomes.is_empty() {
            return reply.with_embed(embed);
        }
        // The chart draws the outcomes as the embed lists them, each in its colour.
        let total: u64 = outcomes.iter().map(|&(_, ways, _)| ways).sum();
        let bars: Vec<(&str, f64, Tone)> = outcomes
            .iter()
            .map(|&(name, ways, tone)| (name, ways as f64 / total.max(1) as f64, tone))
            .collect();
        let png = chart::outcomes_png(&embed.title, &bars);
        chart::attached(reply.with_embed(embed), png)
    }

    /// The attack's odds, and its outcomes as (name, ways, colour) for the chart.
    fn attack_embed(&self, ctx: &Ctx<'_>) -> (Embed, Outcomes) {
        let (settings, _) = table_settings(ctx);
        // The dice count was checked when parsing, so the odds always exist.
        let Ok(odds) = hit_odds(self.dice, self.target, CriticalRange::NORMAL, settings) else {
            return error_embed(&format!(
                "attack odds are for {MIN_ATTACK_DICE} to {MAX_ATTACK_DICE} dice"
            ));
        };
        let outcomes: Outcomes = AttackOutcome::ALL
            .iter()
            .map(|&o| {
                let name = super::attack::outcome_name(o);
                (name, odds.count(o), outcome_tone(o))
            })
            .collect();
        let embed = Embed {
            title: format!("Odds: {} dice against adjDX {}", self.dice, self.target),
            description: format!("Hits **{}** of the time.", percent_of(odds.hit_percent())),
            tone: Some(Tone::Info),
            fields: fields(&outcomes, odds.outcomes),
            footer: Some(format!("Read on {}.", table_text(&odds.table))),
        };
        (embed, outcomes)
    }

    /// The saving roll's odds, and its outcomes for the chart.
    fn save_embed(&self) -> (Embed, Outcomes) {
        let Ok(odds) = save_odds(self.dice, self.target) else {
            return error_embed(&format!(
                "saving roll odds are for {MIN_SAVE_DICE} to {MAX_SAVE_DICE} dice"
            ));
        };
        let outcomes: Outcomes = SaveResult::ALL
            .iter()
            .map(|&r| (result_name(r), odds.count(r), result_tone(r)))
            .collect();
        let mut footer = bands_text(self.dice);
        // rules/README.md states the bands of 3 and 4 dice; the rest follow its formula.
        if !matches!(self.dice, 3 | 4) {
            footer.push_str(" (The automatic bands for this many dice are an interpretation.)");
        }
        let embed = Embed {
            title: format!(
                "Odds: saving roll, {} dice against {}",
                self.dice, self.target
            ),
            description: format!(
                "Succeeds **{}** of the time.",
                percent_of(odds.success_percent())
            ),
            tone: Some(Tone::Info),
            fields: fields(&outcomes, odds.outcomes),
            footer: Some(footer),
        };
        (embed, outcomes)
    }
}

impl Odds {
    /// The roll to miss's odds, and its outcomes for the chart.
    fn miss_embed(&self) -> (Embed, Outcomes) {
        let counts = miss_odds(self.target);
        let total: u64 = counts.iter().sum();
        let outcomes: Outcomes = MissOutcome::ALL
            .iter()
            .zip(counts)
            .map(|(&o, ways)| (miss_name(o), ways, miss_tone(o)))
            .collect();
        let missed: u64 = MissOutcome::ALL
            .iter()
            .zip(counts)
            .filter(|(o, _)| o.multiplier().is_none())
            .map(|(_, ways)| ways)
            .sum();
        let embed = Embed {
            title: format!(
                "Odds: rolling to miss, 3 dice against adjDX {}",
                self.target
            ),
            description: format!(
                "The shot misses the figure in the way **{}** of the time.",
                percent(missed, total)
            ),
            tone: Some(Tone::Info),
            fields: fields(&outcomes, total),
            footer: Some(
                "3 always misses; 14 always hits; 15-16 double, 17-18 triple damage.".to_owned(),
            ),
        };
        (embed, outcomes)
    }
}

/// Every outcome of a roll as (name, ways of rolling it, colour), in the order shown.
type Outcomes = Vec<(&'static str, u64, Tone)>;

/// One inline field per outcome: its name and its chance.
fn fields(outcomes: &Outcomes, total: u64) -> Vec<Field> {
    outcomes
        .iter()
        .map(|&(name, ways, _)| field(name, percent(ways, total), true))
        .collect()
}

/// The colour of a roll to miss's outcome: green where the figure in the way is spared, red
/// where the shot strikes it.
pub(super) fn miss_tone(o: MissOutcome) -> Tone {
    match o {
        MissOutcome::AutomaticMiss | MissOutcome::Missed => Tone::Green,
        _ => Tone::Red,
    }
}

/// How a reply names the outcome of a roll to miss.
pub(super) fn miss_name(o: MissOutcome) -> &'static str {
    match o {
        MissOutcome::AutomaticMiss => "Automatic miss",
        MissOutcome::Missed => "Missed",
        MissOutcome::Hit => "Hit",
        MissOutcome::AutomaticHit => "Automatic hit",
        MissOutcome::Double => "Double hit",
        MissOutcome::Triple => "Triple hit",
    }
}

/// Odds that could not be read (the dice were checked when parsing, so never): no outcomes, so
/// no chart.
fn error_embed(text: &str) -> (Embed, Outcomes) {
    let embed = Embed {
        title: "No odds".to_owned(),
        description: text.to_owned(),
        tone: Some(Tone::Error),
        ..Embed::default()
    };
    (embed, Vec::new())
}

/// A count over all rolls as a percentage: exact at the ends, "<0.01%" for a sliver.
fn percent(ways: u64, outcomes: u64) -> String {
    if ways == 0 || outcomes == 0 {
        return "0%".to_owned();
    }
    if ways == outcomes {
        return "100%".to_owned();
    }
    percent_of(100.0 * ways as f64 / outcomes as f64)
}

/// A chance already in percent, shown as [`percent`] shows one.
fn percent_of(p: f64) -> String {
    if p <= 0.0 {
        return "0%".to_owned();
    } else if p >= 100.0 {
        return "100%".to_owned();
    }
    if p < 0.01 {
        "<0.01%".to_owned()
    } else if p > 99.99 {
        ">99.99%".to_owned()
    } else {
        format!("{p:.2}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_at_the_edges() {
        assert_eq!(percent(0, 216), "0%");
        assert_eq!(percent(216, 216), "100%");
        assert_eq!(percent(1, 216), "0.46%");
        assert_eq!(percent(1, 6u64.pow(10)), "<0.01%");
        assert_eq!(percent(6u64.pow(10) - 1, 6u64.pow(10)), ">99.99%");
    }

    #[test]
    fn dice_ranges_depend_on_save() {
        let p = |opts: &[(&str, &str)]| Odds::parse(&Invocation::new(&["odds", "tft"], opts));
        assert!(p(&[("target", "12"), ("dice", "3")]).is_ok());
        let err = p(&[("target", "12"), ("dice", "2")])
            .unwrap_err()
            .to_string();
        assert_eq!(err, "dice must be between 3 and 20; you gave 2");
        assert!(p(&[("target", "12"), ("dice", "2"), ("save", "true")]).is_ok());
        // tft-rules-summary.md, "ROLLING TO MISS": always 3 dice.
        assert!(p(&[("target", "12"), ("dice", "3"), ("miss", "true")]).is_ok());
        let err = p(&[("target", "12"), ("dice", "4"), ("miss", "true")])
            .unwrap_err()
            .to_string();
        assert_eq!(err, "dice must be between 3 and 3; you gave 4");
        let both = [
            ("target", "12"),
            ("dice", "3"),
            ("miss", "true"),
            ("save", "true"),
        ];
        assert!(p(&both).unwrap_err().to_string().contains("not both"));
        let err = p(&[("target", "12"), ("dice", "13"), ("save", "true")])
            .unwrap_err()
            .to_string();
        assert_eq!(err, "dice must be between 1 and 12; you gave 13");
    }
}
