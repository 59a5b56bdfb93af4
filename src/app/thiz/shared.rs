//! What every THIZ use case shares: the input limits, reading a number, label, location or mode
//! option, and a level's words and colour.
//!
//! A leaf of the family: it imports none of the use cases, which all import it, and not the
//! family's dispatcher ([`super`]).
//!
//! Seam: a roll request (`gm`) takes THIZ's input limits ([`INPUT_LIMIT`], [`MAX_LABEL`]) for the
//! check it asks for.

use crate::app::error::{AppResult, user};
use crate::app::invocation::{Opts, RollMode};
use crate::app::reply::Tone;
use crate::rules::thiz::chart::Row;
use crate::rules::thiz::{Level, Location};

/// The largest rating or modifier a player may type.
pub const INPUT_LIMIT: i64 = 40;
/// The longest label accepted, in characters.
pub const MAX_LABEL: usize = 100;

/// A number already checked to be within ±40.
pub(super) fn int(v: i64) -> i32 {
    i32::try_from(v).unwrap_or_default()
}

/// An optional label: at most [`MAX_LABEL`] characters.
pub(super) fn label(o: &Opts<'_>) -> AppResult<String> {
    let text = o.text("label").unwrap_or_default().trim();
    let len = text.chars().count();
    if len > MAX_LABEL {
        return Err(user(format!(
            "label can be at most {MAX_LABEL} characters; yours has {len}."
        )));
    }
    Ok(text.to_owned())
}

/// A location as typed, or a clear refusal listing the seven.
pub(super) fn parse_location(text: &str) -> AppResult<Location> {
    Location::parse(text).ok_or_else(|| user(crate::app::text::no_such_location(text)))
}

/// The mode option (public when absent).
pub(super) fn mode(o: &Opts<'_>) -> AppResult<RollMode> {
    o.mode()
}

/// The embed colour of a level.
pub fn tone(level: Level) -> Tone {
    match level {
        Level::Black => Tone::Black,
        Level::Red => Tone::Red,
        Level::Yellow => Tone::Yellow,
        Level::Green => Tone::Green,
        Level::Failure => Tone::Grey,
    }
}

/// A level as a player reads it: "Red success", "Failure".
pub fn level_text(level: Level) -> String {
    if level.is_success() {
        format!("{level} success")
    } else {
        "Failure".to_owned()
    }
}

/// A chart row's bands: "Black 1–9 · Red 10–21 · Yellow 22–41 · Green 42–66 · Failure 67–100".
pub fn row_text(row: &Row) -> String {
    let mut parts = Vec::new();
    let mut low = 1;
    for level in [Level::Black, Level::Red, Level::Yellow, Level::Green] {
        let high = row.threshold(level).unwrap_or(0);
        if high >= low {
            parts.push(format!("{level} {low}–{high}"));
            low = high + 1;
        }
    }
    if low <= 100 {
        parts.push(format!("Failure {low}–100"));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::thiz::Rating;
    use crate::rules::thiz::chart;

    #[test]
    fn row_text_names_each_band() {
        // Rating 4: Black ≤9, Red ≤21, Yellow ≤41, Green ≤66 (chart, chapter 5).
        assert_eq!(
            row_text(chart::row(Rating(4))),
            "Black 1–9 · Red 10–21 · Yellow 22–41 · Green 42–66 · Failure 67–100"
        );
        // The lowest row has empty bands, which are left out.
        let low = row_text(chart::row(Rating(-30)));
        assert!(low.ends_with("–100"), "{low}");
    }

    #[test]
    fn tones_and_level_text() {
        assert_eq!(tone(Level::Failure), Tone::Grey);
        assert_eq!(tone(Level::Black), Tone::Black);
        assert_eq!(level_text(Level::Red), "Red success");
        assert_eq!(level_text(Level::Failure), "Failure");
    }
}
