//! The charts' pixel font: a 5×7 cell (two rows more below for the tails of g, j, p, q, y and
//! the comma), drawn as filled squares, so a chart needs no font from the system.
//!
//! Owns the glyphs and how a line of text is measured and laid out. Never draws by itself (the
//! chart hands it a function that fills one square) and never fails: a character it has no glyph
//! for is drawn as `?`.

/// Columns of a glyph.
pub const GLYPH_WIDTH: i32 = 5;
/// Rows of a glyph, its tail included.
pub const GLYPH_HEIGHT: i32 = 9;
/// Rows above the baseline (capitals and digits stand on it).
pub const CAP_HEIGHT: i32 = 7;
/// Columns from one glyph to the next (one blank column between).
const ADVANCE: i32 = GLYPH_WIDTH + 1;

/// Every glyph, as rows of `#` (ink) and `.` (paper) separated by spaces, top row first; rows
/// left out at the bottom are blank.
const GLYPHS: &[(char, &str)] = &[
    (' ', "....."),
    ('0', ".###. #...# #..## #.#.# ##..# #...# .###."),
    ('1', "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###."),
    ('2', ".###. #...# ....# ...#. ..#.. .#... #####"),
    ('3', "####. ....# ....# .###. ....# ....# ####."),
    ('4', "...#. ..##. .#.#. #..#. ##### ...#. ...#."),
    ('5', "##### #.... ####. ....# ....# #...# .###."),
    ('6', "..##. .#... #.... ####. #...# #...# .###."),
    ('7', "##### ....# ...#. ..#.. .#... .#... .#..."),
    ('8', ".###. #...# #...# .###. #...# #...# .###."),
    ('9', ".###. #...# #...# .#### ....# ...#. .##.."),
    ('A', ".###. #...# #...# ##### #...# #...# #...#"),
    ('B', "####. #...# #...# ####. #...# #...# ####."),
    ('C', ".###. #...# #.... #.... #.... #...# .###."),
    ('D', "####. #...# #...# #...# #...# #...# ####."),
    ('E', "##### #.... #.... ####. #.... #.... #####"),
    ('F', "##### #.... #.... ####. #.... #.... #...."),
    ('G', ".###. #...# #.... #.### #...# #...# .####"),
    ('H', "#...# #...# #...# ##### #...# #...# #...#"),
    ('I', ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###."),
    ('J', "..### ...#. ...#. ...#. ...#. #..#. .##.."),
    ('K', "#...# #..#. #.#.. ##... #.#.. #..#. #...#"),
    ('L', "#.... #.... #.... #.... #.... #.... #####"),
    ('M', "#...# ##.## #.#.# #.#.# #...# #...# #...#"),
    ('N', "#...# #...# ##..# #.#.# #..## #...# #...#"),
    ('O', ".###. #...# #...# #...# #...# #...# .###."),
    ('P', "####. #...# #...# ####. #.... #.... #...."),
    ('Q', ".###. #...# #...# #...# #.#.# #..#. .##.#"),
    ('R', "####. #...# #...# ####. #.#.. #..#. #...#"),
    ('S', ".###. #...# #.... .###. ....# #...# .###."),
    ('T', "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#.."),
    ('U', "#...# #...# #...# #...# #...# #...# .###."),
    ('V', "#...# #...# #...# #...# #...# .#.#. ..#.."),
    ('W', "#...# #...# #...# #.#.# #.#.# #.#.# .#.#."),
    ('X', "#...# #...# .#.#. ..#.. .#.#. #...# #...#"),
    ('Y', "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#.."),
    ('Z', "##### ....# ...#. ..#.. .#... #.... #####"),
    ('a', "..... ..... .###. ....# .#### #...# .####"),
    ('b', "#.... #.... #.##. ##..# #...# #...# ####."),
    ('c', "..... ..... .###. #.... #.... #...# .###."),
    ('d', "....# ....# .##.# #..## #...# #...# .####"),
    ('e', "..... ..... .###. #...# ##### #.... .###."),
    ('f', "..##. .#..# .#... ###.. .#... .#... .#..."),
    ('g', "..... ..... .#### #...# #...# #...# .#### ....# .###."),
    ('h', "#.... #.... #.##. ##..# #...# #...# #...#"),
    ('i', "..#.. ..... .##.. ..#.. ..#.. ..#.. .###."),
    ('j', "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##.."),
    ('k', "#.... #.... #..#. #.#.. ##... #.#.. #..#."),
    ('l', ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###."),
    ('m', "..... ..... ##.#. #.#.# #.#.# #.#.# #...#"),
    ('n', "..... ..... #.##. ##..# #...# #...# #...#"),
    ('o', "..... ..... .###. #...# #...# #...# .###."),
    ('p', "..... ..... ####. #...# #...# #...# ####. #.... #...."),
    ('q', "..... ..... .#### #...# #...# #...# .#### ....# ....#"),
    ('r', "..... ..... #.##. ##..# #.... #.... #...."),
    ('s', "..... ..... .###. #.... .###. ....# ####."),
    ('t', ".#... .#... ###.. .#... .#... .#..# ..##."),
    ('u', "..... ..... #...# #...# #...# #..## .##.#"),
    ('v', "..... ..... #...# #...# #...# .#.#. ..#.."),
    ('w', "..... ..... #...# #...# #.#.# #.#.# .#.#."),
    ('x', "..... ..... #...# .#.#. ..#.. .#.#. #...#"),
    ('y', "..... ..... #...# #...# #...# #...# .#### ....# .###."),
    ('z', "..... ..... ##### ...#. ..#.. .#... #####"),
    ('%', "##... ##..# ...#. ..#.. .#... #..## ...##"),
    ('-', "..... ..... ..... .###. ..... ..... ....."),
    ('+', "..... ..#.. ..#.. ##### ..#.. ..#.. ....."),
    ('.', "..... ..... ..... ..... ..... .##.. .##.."),
    (',', "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#..."),
    (':', "..... .##.. .##.. ..... .##.. .##.. ....."),
    ('(', "...#. ..#.. .#... .#... .#... ..#.. ...#."),
    (')', ".#... ..#.. ...#. ...#. ...#. ..#.. .#..."),
    ('/', "....# ....# ...#. ..#.. .#... #.... #...."),
    ('=', "..... ..... ##### ..... ##### ..... ....."),
    ('<', "...#. ..#.. .#... #.... .#... ..#.. ...#."),
    ('>', ".#... ..#.. ...#. ....# ...#. ..#.. .#..."),
    ('≥', ".#... ..#.. ...#. ..#.. .#... ..... #####"),
    ('≤', "...#. ..#.. .#... ..#.. ...#. ..... #####"),
    ('?', ".###. #...# ....# ...#. ..#.. ..... ..#.."),
    ('!', "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#.."),
    ('\'', "..#.. ..#.. .#... ..... ..... ..... ....."),
    ('#', ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#."),
    ('*', "..... #.#.# .###. ##### .###. #.#.# ....."),
    ('_', "..... ..... ..... ..... ..... ..... ..... #####"),
    ('·', "..... ..... ..... .##.. .##.. ..... ....."),
    ('×', "..... #...# .#.#. ..#.. .#.#. #...# ....."),
    ('…', "..... ..... ..... ..... ..... ..... #.#.#"),
    // What a dice expression in a title may hold (`/odds dice`: "Odds of `4d6kh3`").
    ('`', ".#... ..#.. ..... ..... ..... ..... ....."),
    ('"', ".#.#. .#.#. ..... ..... ..... ..... ....."),
    (';', "..... .##.. .##.. ..... .##.. .##.. ..#.. .#..."),
    ('[', ".###. .#... .#... .#... .#... .#... .###."),
    (']', ".###. ...#. ...#. ...#. ...#. ...#. .###."),
    ('{', "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#."),
    ('}', ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#..."),
    ('|', "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.."),
    ('~', "..... ..... .#... #.#.# ...#. ..... ....."),
    ('^', "..#.. .#.#. #...# ..... ..... ..... ....."),
    ('&', ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#"),
    ('@', ".###. #...# #.### #.#.# #.### #.... .####"),
    ('$', "..#.. .#### #.#.. .###. ..#.# ####. ..#.."),
    ('\\', "#.... #.... .#... ..#.. ...#. ....# ....#"),
];

/// The glyph drawn for `c`: its own, a look-alike's (a Unicode minus is a hyphen), or `?`.
fn glyph(c: char) -> &'static str {
    let c = match c {
        '−' | '–' | '—' => '-',
        '≧' => '≥',
        '≦' => '≤',
        c => c,
    };
    let find = |c: char| GLYPHS.iter().find(|(g, _)| *g == c).map(|(_, rows)| *rows);
    find(c).or_else(|| find('?')).unwrap_or("")
}

/// The ink squares of `c`'s glyph, as (column, row) from its top left.
fn squares(c: char) -> impl Iterator<Item = (i32, i32)> {
    glyph(c).split(' ').enumerate().flat_map(|(row, cells)| {
        cells
            .bytes()
            .enumerate()
            .filter(|(_, cell)| *cell == b'#')
            .map(move |(column, _)| (column as i32, row as i32))
    })
}

/// The width in pixels of `text` drawn at `scale` (pixels per square).
pub fn width(text: &str, scale: i32) -> i32 {
    let n = text.chars().count() as i32;
    if n == 0 { 0 } else { (n * ADVANCE - 1) * scale }
}

/// `text` cut to fit `max` pixels at `scale`, ending in "…" when cut.
pub fn fit(text: &str, scale: i32, max: i32) -> String {
    if width(text, scale) <= max {
        return text.to_owned();
    }
    let room = ((max / scale + 1) / ADVANCE).max(1) as usize;
    let mut out: String = text.chars().take(room - 1).collect();
    out.push('…');
    out
}

/// Draws `text` with its top left at (`x`, `y`), each square of ink as a `scale`×`scale` block
/// passed to `fill` as (left, top, right, bottom), right and bottom exclusive.
pub fn draw(text: &str, x: i32, y: i32, scale: i32, fill: &mut impl FnMut(i32, i32, i32, i32)) {
    for (i, c) in text.chars().enumerate() {
        let left = x + i as i32 * ADVANCE * scale;
        for (column, row) in squares(c) {
            let (x0, y0) = (left + column * scale, y + row * scale);
            fill(x0, y0, x0 + scale, y0 + scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_a_five_column_cell_of_ink_and_paper_and_named_once() {
        for (i, (c, rows)) in GLYPHS.iter().enumerate() {
            let rows: Vec<&str> = rows.split(' ').collect();
            assert!(
                (1..=GLYPH_HEIGHT as usize).contains(&rows.len()),
                "{c:?}: {} rows",
                rows.len()
            );
            for row in &rows {
                assert_eq!(row.len(), GLYPH_WIDTH as usize, "{c:?}: {row:?}");
                assert!(row.bytes().all(|b| b == b'#' || b == b'.'), "{c:?}");
            }
            // Only the letters with tails (and the comma, the underscore) reach below the line.
            if rows.len() > CAP_HEIGHT as usize {
                assert!("gjpqy,;_".contains(*c), "{c:?} has a tail");
            }
            assert!(
                GLYPHS[i + 1..].iter().all(|(other, _)| other != c),
                "{c:?} twice"
            );
        }
        // What the charts write: every printable ASCII character (digits, letters, percentages,
        // signs, what players type in a dice expression) and the few others a title holds.
        for c in (' '..='~').chain("≥≤·×…".chars()) {
            assert!(GLYPHS.iter().any(|(g, _)| *g == c), "{c:?} has no glyph");
        }
    }

    #[test]
    fn a_character_without_a_glyph_is_drawn_as_a_question_mark() {
        let drawn = |text: &str| {
            let mut squares = Vec::new();
            draw(text, 0, 0, 1, &mut |x0, y0, _, _| squares.push((x0, y0)));
            squares
        };
        assert_eq!(drawn("€"), drawn("?"));
        assert_eq!(drawn("−5"), drawn("-5"));
        assert!(drawn(" ").is_empty());
        // A 1 is seven squares high in its stem, and sits in its own cell.
        let one = drawn("1");
        assert_eq!(one.iter().filter(|(x, _)| *x == 2).count(), 7);
        assert!(drawn("11").iter().any(|(x, _)| *x == ADVANCE + 2));
    }

    #[test]
    fn widths_count_the_gaps_between_glyphs_only() {
        assert_eq!(width("", 2), 0);
        assert_eq!(width("8", 2), 10);
        assert_eq!(width("88%", 2), 34);
        assert_eq!(fit("Automatic miss", 2, 1000), "Automatic miss");
        let cut = fit("Automatic miss", 2, 60);
        assert_eq!(cut, "Auto…");
        assert!(width(&cut, 2) <= 60);
        assert_eq!(fit("Anything", 2, 3), "…");
    }
}
