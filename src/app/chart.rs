//! Charts of exact odds as PNG pictures, attached beside the embed that states the same numbers:
//! bars over whole numbers ([`distribution_png`], for `/odds dice`) or over named outcomes
//! ([`outcomes_png`], for `/odds thiz` and `/odds tft`).
//!
//! Owns a chart's layout, its colours (the reply's [`Tone`]s, so a bar is the colour its embed
//! would be) and its encoding: it draws with plotters' bitmap backend into memory, writes its
//! labels in its own pixel font ([`font`]) and encodes a PNG with a palette of a few colours, so
//! a chart is a few KB. It must never compute odds (that is `rules`), never show anything the
//! embed beside it does not say (a player who cannot see pictures loses nothing), never read a
//! font or anything else from the system (a fresh machine has none) and never panic: empty,
//! NaN, negative or enormous inputs still give a valid picture.

mod font;
#[cfg(test)]
pub(crate) mod picture;
#[cfg(test)]
mod tests;

use plotters::backend::BitMapBackend;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, IntoDrawingArea};
use plotters::element::Rectangle;
use plotters::style::{Color, RGBColor};

use super::reply::{Reply, Tone};

/// The name a chart is attached under (an embed could show it as `attachment://odds.png`).
pub const CHART_FILE: &str = "odds.png";

/// A distribution chart's width and height in pixels.
pub const DISTRIBUTION_SIZE: (u32, u32) = (800, 400);
/// An outcome chart's width in pixels; its height follows the number of outcomes.
pub const OUTCOMES_WIDTH: u32 = 800;
/// The most outcomes drawn as bars; past these a line says how many more there were.
pub const MAX_OUTCOME_ROWS: usize = 16;

/// Pixels per square of the pixel font: 10×14 capitals, readable in Discord's preview.
const SCALE: i32 = 2;
/// Space around the chart and between its parts.
const MARGIN: i32 = 16;
/// Where the title's capitals start.
const TITLE_TOP: i32 = 12;
/// Where the plot starts, under the title (its tails included) and a gap.
const PLOT_TOP: i32 = TITLE_TOP + font::GLYPH_HEIGHT * SCALE + 22;
/// The widest bar of a distribution with few values (one value is not a wall of colour).
const MAX_SLOT: i128 = 48;
/// The height of one outcome's row, and the thickness of its bar.
const ROW: i32 = 40;
const BAR_THICKNESS: i32 = 24;
/// Room under the plot for the axis labels.
const FOOTER: i32 = 40;

/// The background.
const PAPER: u32 = 0x00FF_FFFF;
/// Text, axes and tick marks.
const INK: u32 = 0x0031_3338;
/// Grid lines behind the bars.
const GRID: u32 = 0x00E3_E5E8;
/// The bars of a distribution.
pub const DISTRIBUTION_TONE: Tone = Tone::Info;

/// Every colour a chart uses; the PNG's palette.
fn palette() -> [u32; 9] {
    [
        PAPER,
        INK,
        GRID,
        Tone::Black.color(),
        Tone::Red.color(),
        Tone::Yellow.color(),
        Tone::Green.color(),
        Tone::Grey.color(),
        Tone::Info.color(),
    ]
}

/// `reply` with the chart `png` attached as [`CHART_FILE`] (as it is, should the chart have
/// failed to encode).
pub fn attached(reply: Reply, png: Vec<u8>) -> Reply {
    if png.is_empty() {
        reply
    } else {
        reply.with_binary_file(CHART_FILE, png)
    }
}

/// A bar chart of a distribution over whole numbers: one bar per value `x`, as high as its
/// probability (0 to 1), on a percent axis, with a few ticks on the x axis. `points` may be
/// unsorted, have gaps, repeat a value (the highest shows) or span all of `i64`; where there are
/// more values than pixels, a pixel's column shows the most likely of its values. A probability
/// that is NaN, infinite or negative counts as 0, one above 1 as 1. The picture is
/// [`DISTRIBUTION_SIZE`]; with no points it shows empty axes and says so.
pub fn distribution_png(title: &str, points: &[(i64, f64)]) -> Vec<u8> {
    let (width, height) = DISTRIBUTION_SIZE;
    let points: Vec<(i64, f64)> = points.iter().map(|&(x, p)| (x, clean(p))).collect();
    render(width, height, |canvas| {
        title_line(canvas, title, width as i32);
        let top = axis_top(points.iter().map(|&(_, p)| p));
        let frame = distribution_frame(width as i32, height as i32, top);
        y_axis(canvas, &frame, top);
        let Some(columns) = Columns::of(&points, &frame) else {
            let note = "No outcomes";
            let x = (frame.left + frame.right - font::width(note, SCALE)) / 2;
            canvas.text(note, x, i32::midpoint(frame.top, frame.bottom), INK);
            canvas.fill(frame.left, frame.bottom, frame.right, frame.bottom + 1, INK);
            return;
        };
        let colour = DISTRIBUTION_TONE.color();
        for &(x, p) in &points {
            let (x0, x1) = columns.bar(x);
            let y0 = frame.bottom - bar_length(p, top, frame.bottom - frame.top);
            canvas.fill(x0, y0, x1, frame.bottom, colour);
        }
        canvas.fill(frame.left, frame.bottom, frame.right, frame.bottom + 1, INK);
        for tick in x_ticks(&columns, width as i32) {
            let x = tick.centre;
            canvas.fill(x, frame.bottom + 1, x + 1, frame.bottom + 6, INK);
            canvas.text(&tick.label, tick.label_left, frame.bottom + 10, INK);
        }
    })
}

/// A bar chart of named outcomes, one row each, top to bottom in the order given: the name, a
/// bar as long as its probability (0 to 1) in its [`Tone`]'s colour, and the percentage, over a
/// percent axis. Probabilities are cleaned as in [`distribution_png`]. The picture is
/// [`OUTCOMES_WIDTH`] wide and as high as its rows; past [`MAX_OUTCOME_ROWS`] outcomes, a line
/// says how many more were left out.
pub fn outcomes_png(title: &str, bars: &[(&str, f64, Tone)]) -> Vec<u8> {
    let shown = &bars[..bars.len().min(MAX_OUTCOME_ROWS)];
    let rows = shown.len().max(1) as i32;
    let width = OUTCOMES_WIDTH as i32;
    let height = PLOT_TOP + rows * ROW + FOOTER;
    render(width as u32, height as u32, |canvas| {
        title_line(canvas, title, width);
        let top = axis_top(shown.iter().map(|&(_, p, _)| clean(p)));
        let value_room = font::width(">99.99%", SCALE) + 8;
        let label_room = shown
            .iter()
            .map(|(name, ..)| font::width(name, SCALE))
            .max()
            .unwrap_or(0)
            .min(width / 3);
        let frame = Frame {
            left: MARGIN + label_room + 12,
            right: width - MARGIN - value_room,
            top: PLOT_TOP,
            bottom: PLOT_TOP + rows * ROW,
        };
        x_percent_axis(canvas, &frame, top);
        for (i, &(name, p, tone)) in shown.iter().enumerate() {
            let middle = frame.top + i as i32 * ROW + ROW / 2;
            let text_top = middle - font::CAP_HEIGHT * SCALE / 2;
            let name = font::fit(name, SCALE, label_room);
            let name_left = frame.left - 12 - font::width(&name, SCALE);
            canvas.text(&name, name_left, text_top, INK);
            let p = clean(p);
            let end = frame.left + bar_length(p, top, frame.right - frame.left);
            let half = BAR_THICKNESS / 2;
            canvas.fill(frame.left, middle - half, end, middle + half, tone.color());
            canvas.text(&value_percent(p), end + 8, text_top, INK);
        }
        if shown.is_empty() {
            canvas.text("No outcomes", frame.left + 8, frame.top + 12, INK);
        }
        if bars.len() > shown.len() {
            let more = format!("and {} more not shown", bars.len() - shown.len());
            canvas.text(&more, MARGIN, height - 16, INK);
        }
    })
}

/// A probability fit to draw: NaN, infinities and negatives are 0, anything above 1 is 1.
fn clean(p: f64) -> f64 {
    if p.is_finite() && p > 0.0 {
        p.min(1.0)
    } else {
        0.0
    }
}

/// The top of a percent axis for these probabilities: the least of 0.01%, 0.02%, 0.025%,
/// 0.05%, 0.1%, … 50%, 100% at or above the largest (100% when all are 0).
fn axis_top(probabilities: impl Iterator<Item = f64>) -> f64 {
    const TOPS: [f64; 17] = [
        0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0, 50.0,
        100.0,
    ];
    let most = probabilities.fold(0.0, f64::max) * 100.0;
    if most <= 0.0 {
        return 100.0;
    }
    // A hair of slack: 0.2 * 100 is 20.000000000000004 in floating point, and belongs under 20.
    TOPS.into_iter()
        .find(|top| top * (1.0 + 1e-9) >= most)
        .unwrap_or(100.0)
}

/// The pixels a bar of probability `p` takes on an axis of `room` pixels topped at `top`
/// percent; at least one for any chance above 0, so a possible outcome never looks impossible.
fn bar_length(p: f64, top: f64, room: i32) -> i32 {
    if p <= 0.0 {
        return 0;
    }
    let length = (p * 100.0 / top * f64::from(room)).round();
    (length as i32).clamp(1, room)
}

/// A bar's percentage, as the embeds write one: up to two decimals, "<0.01%" for a sliver,
/// exact at 0 and 100.
fn value_percent(p: f64) -> String {
    let percent = p * 100.0;
    if p <= 0.0 {
        "0%".to_owned()
    } else if p >= 1.0 {
        "100%".to_owned()
    } else if percent < 0.01 {
        "<0.01%".to_owned()
    } else if percent > 99.99 {
        ">99.99%".to_owned()
    } else {
        format!("{}%", trimmed(&format!("{percent:.2}")))
    }
}

/// A tick's percentage: "0%", "2.5%", "0.005%".
fn axis_percent(percent: f64) -> String {
    format!("{}%", trimmed(&format!("{percent:.3}")))
}

/// A decimal without the zeros (and point) that end it: "12.50" → "12.5", "9.00" → "9".
fn trimmed(decimal: &str) -> &str {
    if decimal.contains('.') {
        decimal.trim_end_matches('0').trim_end_matches('.')
    } else {
        decimal
    }
}

/// The plot's rectangle in pixels (right and bottom exclusive).
#[derive(Debug, Clone, Copy)]
struct Frame {
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
}

/// The plot of a distribution chart: room on the left for the percent labels, under it for
/// the values.
fn distribution_frame(width: i32, height: i32, top: f64) -> Frame {
    let labels = (0..=5)
        .map(|k| font::width(&axis_percent(top * f64::from(k) / 5.0), SCALE))
        .max()
        .unwrap_or(0);
    Frame {
        left: MARGIN + labels + 10,
        right: width - MARGIN - 8,
        top: PLOT_TOP,
        bottom: height - FOOTER,
    }
}

/// The percent axis of a distribution, up the left: grid lines at fifths, labelled.
fn y_axis(canvas: &Canvas<'_>, frame: &Frame, top: f64) {
    let room = frame.bottom - frame.top;
    for k in 0..=5 {
        let y = frame.bottom - room * k / 5;
        canvas.fill(frame.left, y, frame.right, y + 1, GRID);
        canvas.fill(frame.left - 5, y, frame.left, y + 1, INK);
        let label = axis_percent(top * f64::from(k) / 5.0);
        let x = frame.left - 8 - font::width(&label, SCALE);
        canvas.text(&label, x, y - font::CAP_HEIGHT * SCALE / 2, INK);
    }
    canvas.fill(frame.left - 1, frame.top, frame.left, frame.bottom, INK);
}

/// The percent axis of an outcome chart, along the bottom: grid lines at fifths, labelled.
fn x_percent_axis(canvas: &Canvas<'_>, frame: &Frame, top: f64) {
    let room = frame.right - frame.left;
    for k in 0..=5 {
        let x = frame.left + room * k / 5;
        canvas.fill(x, frame.top, x + 1, frame.bottom, GRID);
        canvas.fill(x, frame.bottom, x + 1, frame.bottom + 6, INK);
        let label = axis_percent(top * f64::from(k) / 5.0);
        let left = x - font::width(&label, SCALE) / 2;
        canvas.text(&label, left, frame.bottom + 10, INK);
    }
    canvas.fill(frame.left - 1, frame.top, frame.left, frame.bottom, INK);
    canvas.fill(
        frame.left - 1,
        frame.bottom,
        frame.right,
        frame.bottom + 1,
        INK,
    );
}

/// The title across the top, cut to the width.
fn title_line(canvas: &Canvas<'_>, title: &str, width: i32) {
    let title = font::fit(title, SCALE, width - 2 * MARGIN);
    canvas.text(&title, MARGIN, TITLE_TOP, INK);
}

/// Where each value of a distribution stands on the x axis. Values are counted from the least
/// in `i128`, so no range of `i64` overflows; few values get slots of at most [`MAX_SLOT`]
/// pixels, centred, and many share the plot's width.
#[derive(Debug, Clone, Copy)]
struct Columns {
    least: i64,
    most: i64,
    /// How many values from the least to the most.
    span: i128,
    /// The left of the first value's slot, and the width all the slots take.
    left: i32,
    width: i128,
}

impl Columns {
    /// The columns of `points` in `frame`; `None` when there are no points.
    fn of(points: &[(i64, f64)], frame: &Frame) -> Option<Columns> {
        let least = points.iter().map(|&(x, _)| x).min()?;
        let most = points.iter().map(|&(x, _)| x).max()?;
        let span = i128::from(most) - i128::from(least) + 1;
        let room = i128::from(frame.right - frame.left);
        let width = room.min(span * MAX_SLOT);
        Some(Columns {
            least,
            most,
            span,
            left: frame.left + ((room - width) / 2) as i32,
            width,
        })
    }

    /// The pixels from the left of `x`'s slot to its right (exclusive); at least one.
    fn slot(&self, x: i128) -> (i32, i32) {
        let k = x - i128::from(self.least);
        let x0 = self.left + (k * self.width / self.span) as i32;
        let x1 = self.left + ((k + 1) * self.width / self.span) as i32;
        (x0, x1.max(x0 + 1))
    }

    /// The pixels `x`'s bar fills: its slot less a gap, where the slot is wide enough for one.
    fn bar(&self, x: i64) -> (i32, i32) {
        let (x0, x1) = self.slot(i128::from(x));
        match x1 - x0 {
            w if w >= 8 => (x0 + w / 8, x1 - w / 8),
            w if w >= 4 => (x0, x1 - 1),
            _ => (x0, x1),
        }
    }

    /// The middle pixel of `x`'s slot.
    fn centre(&self, x: i128) -> i32 {
        let (x0, x1) = self.slot(x);
        x0 + (x1 - x0) / 2
    }
}

/// One tick of a distribution's x axis.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tick {
    value: i128,
    /// The pixel column of its mark (the middle of its value's slot).
    centre: i32,
    label: String,
    /// Where its label starts: centred under the mark, moved in to stay inside the picture.
    label_left: i32,
}

/// The ticks of a distribution's x axis: the multiples of the smallest step of 1, 2 or 5 times
/// a power of ten whose labels stand apart within the picture's `width`; when none does, the
/// smallest value alone.
fn x_ticks(columns: &Columns, width: i32) -> Vec<Tick> {
    const GAP: i32 = 16;
    let (least, most) = (i128::from(columns.least), i128::from(columns.most));
    let tick = |value: i128| {
        let centre = columns.centre(value);
        let label = value.to_string();
        let label_width = font::width(&label, SCALE);
        let label_left = (centre - label_width / 2).min(width - label_width).max(0);
        Tick {
            value,
            centre,
            label,
            label_left,
        }
    };
    // More ticks than this could not stand apart in the width (a label is at least 10 pixels).
    let most_ticks = i128::from(width / (10 + GAP) + 1);
    let mut decade: i128 = 1;
    // 10^20 is past any span of i64 values (under 2×10^19), and a few dozen steps of it fit
    // in i128.
    while decade <= 10i128.pow(20) {
        for step in [decade, 2 * decade, 5 * decade] {
            let first = least.div_euclid(step) * step;
            let first = if first < least { first + step } else { first };
            if first > most || first + most_ticks * step <= most {
                continue;
            }
            let ticks: Vec<Tick> = (0..most_ticks)
                .map(|i| first + i * step)
                .take_while(|&v| v <= most)
                .map(tick)
                .collect();
            let apart = ticks.windows(2).all(|w| {
                w[0].label_left + font::width(&w[0].label, SCALE) + GAP <= w[1].label_left
            });
            if apart {
                return ticks;
            }
        }
        decade *= 10;
    }
    vec![tick(least)]
}

/// A picture being drawn: plotters' drawing area over an RGB buffer in memory.
struct Canvas<'a> {
    area: DrawingArea<BitMapBackend<'a>, Shift>,
}

impl Canvas<'_> {
    /// Fills the pixels from (`x0`, `y0`) to (`x1`, `y1`), right and bottom exclusive, with the
    /// colour 0xRRGGBB; whatever lies outside the picture is left out.
    fn fill(&self, x0: i32, y0: i32, x1: i32, y1: i32, colour: u32) {
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let [_, r, g, b] = colour.to_be_bytes();
        let rectangle = Rectangle::new([(x0, y0), (x1, y1)], RGBColor(r, g, b).filled());
        // Drawing into memory fails only when the area is shared, which this one never is; a
        // failure would leave a square out, never the whole picture.
        let _ = self.area.draw(&rectangle);
    }

    /// Writes `text` in the pixel font with its top left at (`x`, `y`).
    fn text(&self, text: &str, x: i32, y: i32, colour: u32) {
        font::draw(text, x, y, SCALE, &mut |x0, y0, x1, y1| {
            self.fill(x0, y0, x1, y1, colour);
        });
    }
}

/// Draws a `width`×`height` picture on white with `draw`, and encodes it.
fn render(width: u32, height: u32, draw: impl FnOnce(&Canvas<'_>)) -> Vec<u8> {
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let canvas = Canvas {
            area: BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area(),
        };
        canvas.fill(0, 0, width as i32, height as i32, PAPER);
        draw(&canvas);
        // Into memory, presenting only marks the buffer as drawn.
        let _ = canvas.area.present();
    }
    encode(width, height, &rgb)
}

/// The RGB picture as a PNG of four bits a pixel over [`palette`]. A colour not in the palette
/// (none is drawn) becomes the ink. Encoding into memory does not fail for a picture of this
/// size; if it ever did, that is logged and the PNG is empty.
fn encode(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let palette = palette();
    let ink = palette.iter().position(|&c| c == INK).unwrap_or(0) as u8;
    let row_bytes = (width as usize).div_ceil(2);
    let mut packed = vec![0u8; row_bytes * height as usize];
    // Runs of one colour are long (paper, bars), so the last colour's index is kept.
    let mut last = (
        PAPER,
        palette.iter().position(|&c| c == PAPER).unwrap_or(0) as u8,
    );
    for (i, pixel) in rgb.chunks_exact(3).enumerate() {
        let colour = u32::from_be_bytes([0, pixel[0], pixel[1], pixel[2]]);
        if colour != last.0 {
            let index = palette.iter().position(|&c| c == colour);
            last = (colour, index.map_or(ink, |i| i as u8));
        }
        let index = last.1;
        let (row, column) = (i / width as usize, i % width as usize);
        let byte = &mut packed[row * row_bytes + column / 2];
        *byte |= if column % 2 == 0 { index << 4 } else { index };
    }
    let entries: Vec<u8> = palette
        .iter()
        .flat_map(|c| {
            let [_, r, g, b] = c.to_be_bytes();
            [r, g, b]
        })
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Four);
    encoder.set_palette(entries);
    encoder.set_compression(png::Compression::Balanced);
    let written = encoder.write_header().and_then(|mut writer| {
        writer.write_image_data(&packed)?;
        writer.finish()
    });
    if let Err(e) = written {
        tracing::error!(error = %e, "a chart did not encode");
        return Vec::new();
    }
    out
}
