//! Text helpers for replies: escaping user text for Discord markdown, and limits.

/// Escapes Discord markdown and mentions in user-written text, so a character named
/// `**@everyone**` shows as typed and pings nobody (mentions are also disabled on every message).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*'
                | '_'
                | '~'
                | '`'
                | '|'
                | '>'
                | '#'
                | '['
                | ']'
                | '('
                | ')'
                | '-'
                | ':'
                | '@'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Cuts `text` to at most `max` characters, ending with "…" when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A signed number as players write modifiers: "+2", "-1", "0".
pub fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// A count with its noun, singular for one: "1 action", "2 actions", "0 turns".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_singular_for_one_only() {
        assert_eq!(count(0u32, "turn", "turns"), "0 turns");
        assert_eq!(count(1u32, "turn", "turns"), "1 turn");
        assert_eq!(count(2u64, "action", "actions"), "2 actions");
    }

    #[test]
    fn escape_neutralises_markdown_and_mentions() {
        assert_eq!(escape("**@everyone**"), r"\*\*\@everyone\*\*");
        assert_eq!(escape("Gala of Iondren"), "Gala of Iondren");
        assert_eq!(escape("a_b`c"), r"a\_b\`c");
    }

    #[test]
    fn truncate_at_the_limit_and_one_over() {
        assert_eq!(truncate("abcd", 4), "abcd");
        assert_eq!(truncate("abcde", 4), "abc…");
        assert_eq!(truncate("abcde", 4).chars().count(), 4);
    }

    #[test]
    fn signed_numbers() {
        assert_eq!(
            (signed(2), signed(-1), signed(0)),
            ("+2".into(), "-1".into(), "0".into())
        );
    }
}
