//! `referee console`: slash commands typed as text on standard input, replies printed.
//!
//! Owns reading a typed line (`/check rating:4 modifier:-2`, values with spaces in double quotes)
//! into an [`Invocation`], and printing reply models. Calls only `app`; never decides what a
//! command does or who may run it. The line parser is pure so it can be tested on its own.

use std::fmt;

pub use crate::app::command::Invocation;

/// Why a typed line is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    NoSlash,
    Empty,
    UnclosedQuote { at: usize },
    EmptyOptionName { at: usize },
    DuplicateOption(String),
    WordAfterOptions { word: String },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NoSlash => write!(f, "a command starts with /, like /roll expression:2d6"),
            LineError::Empty => write!(f, "type a command after the /, like /help"),
            LineError::UnclosedQuote { at } => write!(
                f,
                "the quote opened at character {at} is never closed; write values with spaces as name:\"two words\""
            ),
            LineError::EmptyOptionName { at } => write!(
                f,
                "an option at character {at} has no name; write options as name:value"
            ),
            LineError::DuplicateOption(name) => write!(f, "the option {name} is given twice"),
            LineError::WordAfterOptions { word } => write!(
                f,
                "`{word}` comes after the options; write it as name:value, or put subcommands first"
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// Splits a line into words, keeping double-quoted runs together (quotes removed, `\"` and `\\`
/// escaped). Returns each word with the (1-based) character position where it starts.
fn words(line: &str) -> Result<Vec<(usize, String)>, LineError> {
    let mut out = Vec::new();
    let mut chars = line.chars().enumerate().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        let mut quote_at = None;
        while let Some(&(i, c)) = chars.peek() {
            match (quote_at, c) {
                (None, c) if c.is_whitespace() => break,
                (None, '"') => quote_at = Some(i + 1),
                (Some(_), '"') => quote_at = None,
                (Some(_), '\\') => {
                    chars.next();
                    match chars.peek() {
                        Some(&(_, n)) if n == '"' || n == '\\' => word.push(n),
                        Some(&(_, n)) => {
                            word.push('\\');
                            word.push(n);
                        }
                        None => word.push('\\'),
                    }
                }
                (_, c) => word.push(c),
            }
            chars.next();
        }
        if let Some(at) = quote_at {
            return Err(LineError::UnclosedQuote { at });
        }
        out.push((start + 1, word));
    }
    Ok(out)
}

/// Parses one typed line.
pub fn parse_line(line: &str) -> Result<Invocation, LineError> {
    let line = line.trim();
    let Some(rest) = line.strip_prefix('/') else {
        return Err(LineError::NoSlash);
    };
    let mut path = Vec::new();
    let mut options: Vec<(String, String)> = Vec::new();
    for (at, word) in words(rest)? {
        match word.split_once(':') {
            Some((name, value)) => {
                let name = name.trim().to_ascii_lowercase();
                if name.is_empty() {
                    return Err(LineError::EmptyOptionName { at: at + 1 });
                }
                if options.iter().any(|(k, _)| *k == name) {
                    return Err(LineError::DuplicateOption(name));
                }
                options.push((name, value.to_owned()));
            }
            None if options.is_empty() => path.push(word.to_ascii_lowercase()),
            None => return Err(LineError::WordAfterOptions { word }),
        }
    }
    if path.is_empty() {
        return Err(LineError::Empty);
    }
    Ok(Invocation { path, options })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(path: &[&str], options: &[(&str, &str)]) -> Invocation {
        Invocation {
            path: path.iter().map(|s| (*s).to_owned()).collect(),
            options: options
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    #[test]
    fn parses_the_spec_examples() {
        assert_eq!(
            parse_line("/check rating:4 modifier:-2").unwrap(),
            inv(&["check"], &[("rating", "4"), ("modifier", "-2")])
        );
        assert_eq!(
            parse_line(r#"/character create name:"Gala of Iondren" system:thiz"#).unwrap(),
            inv(
                &["character", "create"],
                &[("name", "Gala of Iondren"), ("system", "thiz")]
            )
        );
    }

    #[test]
    fn quotes_escape_and_keep_colons_in_values() {
        let i = parse_line(r#"/gm note character:Vexa text:"said \"hi\": twice""#).unwrap();
        assert_eq!(i.option("text"), Some(r#"said "hi": twice"#));
        let i = parse_line("/roll expression:d% label:a:b").unwrap();
        assert_eq!(i.option("label"), Some("a:b"));
        assert_eq!(i.option("missing"), None);
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        let cases = [
            ("roll expression:2d6", LineError::NoSlash),
            ("/", LineError::Empty),
            ("/   ", LineError::Empty),
            (r#"/roll label:"open"#, LineError::UnclosedQuote { at: 12 }),
            ("/roll :2d6", LineError::EmptyOptionName { at: 7 }),
            (
                "/roll expression:1 expression:2",
                LineError::DuplicateOption("expression".into()),
            ),
            (
                "/roll expression:1 extra",
                LineError::WordAfterOptions {
                    word: "extra".into(),
                },
            ),
        ];
        for (line, want) in cases {
            let got = parse_line(line).unwrap_err();
            assert_eq!(got, want, "{line}");
            assert!(!got.to_string().is_empty());
        }
    }
}
