//! Laying a reply out within Discord's limits, so that nothing in a list is lost: the limits
//! themselves, a list's lines spread over fields without cutting a line, the lines that fill a
//! description, and an embed too long for one message split into pages, each saying what is
//! left and how to ask for it.
//!
//! Pure; it knows only the reply model. Use cases that show a list which can grow (the GM's
//! screen, a sheet's equipment, the characters, the roll log) lay it out here, because only they
//! know how to ask for the next page. `bot::render::fit` cuts whatever still breaks a limit, as a
//! last resort, and says so.

use super::reply::{Embed, Field};

// Discord's limits on one message (its API documentation, "Embed Limits" and "Message
// Components"). `bot::render` re-exports them.
// Decision: the numbers live here, beside the reply model they bound, rather than in
// `bot::render`: a use case must know them to page a list, and `app` may not import `bot`.

/// Characters of message content.
pub const CONTENT_MAX: usize = 2000;
/// Embeds on one message.
pub const EMBEDS_MAX: usize = 10;
/// Characters of an embed title.
pub const TITLE_MAX: usize = 256;
/// Characters of an embed description.
pub const DESCRIPTION_MAX: usize = 4096;
/// Fields of one embed.
pub const FIELDS_MAX: usize = 25;
/// Characters of a field name.
pub const FIELD_NAME_MAX: usize = 256;
/// Characters of a field value.
pub const FIELD_VALUE_MAX: usize = 1024;
/// Characters of an embed footer.
pub const FOOTER_MAX: usize = 2048;
/// Characters of all embeds of one message together.
pub const EMBEDS_TOTAL_MAX: usize = 6000;
/// Buttons in one action row, and rows on one message.
pub const BUTTONS_PER_ROW: usize = 5;
pub const ROWS_MAX: usize = 5;
/// Characters of a button label, and of a custom id.
pub const LABEL_MAX: usize = 80;
pub const CUSTOM_ID_MAX: usize = 100;

/// The highest page a command's `page` option takes.
pub const MAX_PAGE: i64 = 1000;

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// What an embed counts towards the [`EMBEDS_TOTAL_MAX`] a message's embeds share: its title,
/// description, field names and values, and footer.
pub fn embed_chars(e: &Embed) -> usize {
    chars(&e.title)
        + chars(&e.description)
        + e.fields
            .iter()
            .map(|f| chars(&f.name) + chars(&f.value))
            .sum::<usize>()
        + e.footer.as_deref().map_or(0, chars)
}

/// `line` in pieces of at most `max` characters, broken after the last space of a piece when
/// there is one in its second half (else mid-word). A line within `max` is one piece.
fn pieces(line: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > max {
        let at = rest[..max]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&i| i >= max / 2)
            .map_or(max, |i| i + 1);
        out.push(rest.drain(..at).collect());
    }
    out.push(rest.into_iter().collect());
    out
}

/// A list's lines as fields named `name`, each value as many whole lines as [`FIELD_VALUE_MAX`]
/// holds, named "name (2/3)" when there are several. A line longer than a whole field (none of
/// the bot's lists has one) is broken and carried on in the next field: nothing is cut. No
/// lines, no field.
pub fn line_fields(name: &str, lines: &[String], inline: bool) -> Vec<Field> {
    let mut values: Vec<String> = Vec::new();
    let mut current = String::new();
    for piece in lines.iter().flat_map(|l| pieces(l, FIELD_VALUE_MAX)) {
        let needed = chars(&piece) + usize::from(!current.is_empty());
        if !current.is_empty() && chars(&current) + needed > FIELD_VALUE_MAX {
            values.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(&piece);
    }
    if !current.is_empty() || !lines.is_empty() {
        values.push(current);
    }
    let n = values.len();
    values
        .into_iter()
        .enumerate()
        .map(|(i, value)| Field {
            name: if n == 1 {
                name.to_owned()
            } else {
                let suffix = format!(" ({}/{n})", i + 1);
                let base = super::text::truncate(name, FIELD_NAME_MAX - chars(&suffix));
                format!("{base}{suffix}")
            },
            value,
            inline,
        })
        .collect()
}

/// A field whose value is over [`FIELD_VALUE_MAX`] as [`line_fields`] spreads its lines; one
/// within it as it is.
pub fn split_field(field: &Field) -> Vec<Field> {
    if chars(&field.value) <= FIELD_VALUE_MAX {
        return vec![field.clone()];
    }
    let lines: Vec<String> = field.value.lines().map(str::to_owned).collect();
    line_fields(&field.name, &lines, field.inline)
}

/// The leading whole lines of `lines` that fit in `max` characters, joined by newlines, and how
/// many they are: what a description holds of a list, the rest going to fields.
pub fn leading_lines(lines: &[String], max: usize) -> (String, usize) {
    let mut out = String::new();
    let mut taken = 0;
    for line in lines {
        let needed = chars(line) + usize::from(taken > 0);
        if chars(&out) + needed > max {
            break;
        }
        if taken > 0 {
            out.push('\n');
        }
        out.push_str(line);
        taken += 1;
    }
    (out, taken)
}

/// A list as an embed's description and, for the lines that do not fit there, fields named
/// `rest` (see [`line_fields`]), which go before `fields`.
pub fn list_embed(mut embed: Embed, lines: &[String], rest: &str) -> Embed {
    let (description, taken) = leading_lines(lines, DESCRIPTION_MAX);
    embed.description = description;
    let mut fields = line_fields(rest, &lines[taken..], false);
    fields.append(&mut embed.fields);
    embed.fields = fields;
    embed
}

/// The name of the field a page ends with when there is more.
pub const MORE: &str = "More";
/// The most characters of that field's value.
const MORE_MAX: usize = 400;
/// Room kept on a page's title for " (page 12 of 34)".
const PAGE_SUFFIX_MAX: usize = 24;

/// The base name of a field [`line_fields`] numbered: "Equipment" of "Equipment (2/3)".
fn base_name(name: &str) -> &str {
    match name.rsplit_once(" (") {
        Some((base, n))
            if n.ends_with(')')
                && n[..n.len() - 1]
                    .split_once('/')
                    .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()) =>
        {
            base
        }
        _ => name,
    }
}

/// `embed` as pages of one message each: the embed itself when it fits (at most
/// [`FIELDS_MAX`] fields, every value within [`FIELD_VALUE_MAX`], [`EMBEDS_TOTAL_MAX`] in all);
/// else its fields spread over pages in order, each titled "… (page 2 of 3)", the first with the
/// description, every one with the footer, and each but the last ending in a [`MORE`] field:
/// "and 23 more (Equipment 20, Wounds 3) on page 2 of 3: {how(2)}", `how` saying how to ask for a
/// page. Never drops a field. The description is left as it is (at most [`DESCRIPTION_MAX`]:
/// see [`list_embed`]).
pub fn paged(embed: &Embed, how: impl Fn(usize) -> String) -> Vec<Embed> {
    let whole = Embed {
        fields: embed.fields.iter().flat_map(split_field).collect(),
        ..embed.clone()
    };
    if whole.fields.len() <= FIELDS_MAX && embed_chars(&whole) <= EMBEDS_TOTAL_MAX {
        return vec![whole];
    }
    // Decision: a page keeps room for its "More" field whether or not it needs it, so the pages
    // are made in one pass; a continuation page drops the description (page 1 has it) but keeps
    // the footer, which says whose sheet or which fight it is.
    let footer = embed.footer.as_deref().map_or(0, chars);
    let title = chars(&embed.title).min(TITLE_MAX - PAGE_SUFFIX_MAX) + PAGE_SUFFIX_MAX;
    let reserve = chars(MORE) + MORE_MAX;
    let mut pages: Vec<Vec<Field>> = Vec::new();
    let mut page: Vec<Field> = Vec::new();
    let mut used = title + footer + chars(&embed.description) + reserve;
    for f in whole.fields {
        let size = chars(&f.name) + chars(&f.value);
        let fits = page.len() < FIELDS_MAX - 1 && used + size <= EMBEDS_TOTAL_MAX;
        // A page after the first always takes a field: one is far below the budget.
        let first_of_a_later_page = page.is_empty() && !pages.is_empty();
        if !(fits || first_of_a_later_page) {
            pages.push(std::mem::take(&mut page));
            used = title + footer + reserve;
        }
        used += size;
        page.push(f);
    }
    pages.push(page);
    let n = pages.len();
    let lines = |fields: &[Field]| -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for f in fields {
            let base = base_name(&f.name);
            let count = f.value.lines().count().max(1);
            match out.iter_mut().find(|(name, _)| name == base) {
                Some((_, n)) => *n += count,
                None => out.push((base.to_owned(), count)),
            }
        }
        out
    };
    let title = super::text::truncate(&embed.title, TITLE_MAX - PAGE_SUFFIX_MAX);
    let mut out = Vec::with_capacity(n);
    for (i, fields) in pages.iter().enumerate() {
        let mut fields = fields.clone();
        let page = i + 1;
        if page < n {
            let later: Vec<Field> = pages[page..].concat();
            let left = lines(&later);
            let total: usize = left.iter().map(|(_, n)| n).sum();
            // The names are cut before `how` is added, so that how to ask is never cut.
            let which = super::text::truncate(
                &left
                    .iter()
                    .map(|(name, n)| format!("{name} {n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                MORE_MAX / 2,
            );
            fields.push(Field {
                name: MORE.to_owned(),
                value: super::text::truncate(
                    &format!(
                        "and {total} more ({which}) on page {} of {n}: {}",
                        page + 1,
                        how(page + 1)
                    ),
                    MORE_MAX,
                ),
                inline: false,
            });
        }
        out.push(Embed {
            title: if title.is_empty() {
                format!("Page {page} of {n}")
            } else {
                format!("{title} (page {page} of {n})")
            },
            description: if page == 1 {
                embed.description.clone()
            } else {
                String::new()
            },
            fields,
            ..embed.clone()
        });
    }
    out
}

/// Page `page` (1, the first) of `pages`, or, for a page past the last, what to ask for instead:
/// "The sheet has 2 pages; ask for one of those." (`what`: "The sheet").
pub fn pick<T>(mut pages: Vec<T>, page: usize, what: &str) -> Result<T, String> {
    if page == 0 || page > pages.len() {
        return Err(format!(
            "{what} has {}; ask for one of those.",
            super::text::count(pages.len() as u64, "page", "pages")
        ));
    }
    Ok(pages.swap_remove(page - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize, len: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                let head = format!("{i}:");
                format!("{head}{}", "x".repeat(len - head.len()))
            })
            .collect()
    }

    // twilight-validate's habit: both sides of the limit.
    #[test]
    fn a_field_of_exactly_the_limit_is_kept_whole_and_one_more_is_split() {
        // 2 lines of 511 and the newline: 1,023; of 512: 1,025.
        let at = Field {
            name: "Equipment".into(),
            value: format!("{}\n{}", "a".repeat(511), "b".repeat(512)),
            inline: false,
        };
        assert_eq!(chars(&at.value), FIELD_VALUE_MAX);
        assert_eq!(split_field(&at), vec![at.clone()]);
        let over = Field {
            value: format!("{}\n{}", "a".repeat(512), "b".repeat(512)),
            ..at
        };
        assert_eq!(chars(&over.value), FIELD_VALUE_MAX + 1);
        let split = split_field(&over);
        assert_eq!(
            split
                .iter()
                .map(|f| (f.name.as_str(), f.value.clone()))
                .collect::<Vec<_>>(),
            [
                ("Equipment (1/2)", "a".repeat(512)),
                ("Equipment (2/2)", "b".repeat(512)),
            ]
        );
    }

    #[test]
    fn lines_fill_fields_whole_and_in_order() {
        let list = lines(30, 100);
        let fields = line_fields("GM: the numbers", &list, false);
        // 100 characters and a newline: 10 lines in 1,009 characters, the 11th would make 1,110.
        assert_eq!(fields.len(), 3);
        assert_eq!(fields[0].name, "GM: the numbers (1/3)");
        assert_eq!(fields[2].name, "GM: the numbers (3/3)");
        let back: Vec<String> = fields
            .iter()
            .flat_map(|f| f.value.lines().map(str::to_owned))
            .collect();
        assert_eq!(back, list, "every line, whole, in order");
        assert!(fields.iter().all(|f| chars(&f.value) <= FIELD_VALUE_MAX));
        assert_eq!(line_fields("One", &lines(1, 10), true)[0].name, "One");
        assert!(line_fields("None", &[], false).is_empty());
    }

    #[test]
    fn a_line_longer_than_a_field_is_carried_on_not_cut() {
        let long = format!("{} {}", "w".repeat(900), "z".repeat(900));
        let fields = line_fields("Notes", std::slice::from_ref(&long), false);
        assert_eq!(fields.len(), 2);
        assert_eq!(fields[0].value, format!("{} ", "w".repeat(900)));
        assert_eq!(
            fields.iter().map(|f| f.value.as_str()).collect::<String>(),
            long
        );
        let solid = "s".repeat(3000);
        let fields = line_fields("Notes", std::slice::from_ref(&solid), false);
        assert_eq!(fields.len(), 3);
        assert_eq!(
            fields.iter().map(|f| f.value.as_str()).collect::<String>(),
            solid
        );
    }

    #[test]
    fn leading_lines_stop_before_the_line_that_would_pass_the_limit() {
        let list = lines(3, 10);
        assert_eq!(leading_lines(&list, 32).1, 3, "10 + 1 + 10 + 1 + 10");
        assert_eq!(leading_lines(&list, 31).1, 2);
        assert_eq!(
            leading_lines(&list, 31).0,
            format!("{}\n{}", list[0], list[1])
        );
        assert_eq!(leading_lines(&list, 5).1, 0);
        let embed = list_embed(Embed::default(), &lines(60, 100), "More of it");
        assert_eq!(chars(&embed.description), 40 * 101 - 1);
        assert_eq!(embed.fields.len(), 2);
        assert_eq!(embed.fields[0].name, "More of it (1/2)");
    }

    fn every_line(pages: &[Embed]) -> Vec<String> {
        pages
            .iter()
            .flat_map(|p| p.fields.iter().filter(|f| f.name != MORE))
            .flat_map(|f| f.value.lines().map(str::to_owned))
            .collect()
    }

    #[test]
    fn an_embed_that_fits_is_one_page_as_it_is() {
        let embed = Embed {
            title: "Vexa".into(),
            fields: line_fields("Equipment", &lines(50, 100), false),
            ..Embed::default()
        };
        // 5 fields, 5,049 characters of values and 65 of names: one message.
        assert!(embed_chars(&embed) <= EMBEDS_TOTAL_MAX);
        assert_eq!(paged(&embed, |p| format!("page:{p}")), vec![embed]);
    }

    #[test]
    fn an_embed_past_a_message_is_paged_and_loses_nothing() {
        let list = lines(120, 100);
        let embed = Embed {
            title: "Vexa".into(),
            description: "The sheet".into(),
            fields: line_fields("Equipment", &list, false),
            footer: Some("THIZ character".into()),
            ..Embed::default()
        };
        let pages = paged(&embed, |p| format!("/character show name:Vexa page:{p}"));
        assert_eq!(pages.len(), 3);
        assert_eq!(every_line(&pages), list);
        for (i, page) in pages.iter().enumerate() {
            assert!(embed_chars(page) <= EMBEDS_TOTAL_MAX, "page {i}");
            assert!(page.fields.len() <= FIELDS_MAX);
            assert!(
                page.fields
                    .iter()
                    .all(|f| chars(&f.value) <= FIELD_VALUE_MAX)
            );
            assert_eq!(page.title, format!("Vexa (page {} of 3)", i + 1));
            assert_eq!(page.footer.as_deref(), Some("THIZ character"));
        }
        assert_eq!(pages[0].description, "The sheet");
        assert!(pages[1].description.is_empty());
        let more = pages[0].fields.last().unwrap();
        assert_eq!(more.name, MORE);
        let shown = pages[0].fields.len() - 1;
        assert_eq!(
            more.value,
            format!(
                "and {} more (Equipment {}) on page 2 of 3: /character show name:Vexa page:2",
                120 - shown * 10,
                120 - shown * 10
            )
        );
        assert!(pages[2].fields.iter().all(|f| f.name != MORE));
    }

    #[test]
    fn more_than_twenty_five_fields_are_paged() {
        let embed = Embed {
            title: "Many".into(),
            fields: (0..30)
                .map(|i| Field {
                    name: format!("f{i}"),
                    value: "v".into(),
                    inline: true,
                })
                .collect(),
            ..Embed::default()
        };
        let pages = paged(&embed, |p| format!("page:{p}"));
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].fields.len(), FIELDS_MAX);
        assert_eq!(
            pages[0].fields[24].value,
            "and 6 more (f24 1, f25 1, f26 1, f27 1, f28 1, f29 1) on page 2 of 2: page:2"
        );
        assert_eq!(pages[1].fields.len(), 6);
    }
}
