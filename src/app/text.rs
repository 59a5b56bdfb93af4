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

/// An option as a player types it, its value escaped: `name:Vexa`, in double quotes when the
/// value has a space (`name:"Gala of Iondren"`), as the console reads it too.
pub fn typed_option(option: &str, value: &str) -> String {
    let value = escape(value);
    if value.contains(char::is_whitespace) {
        format!("{option}:\"{value}\"")
    } else {
        format!("{option}:{value}")
    }
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

/// The refusal of a body location that is not one, with the nearest ones.
pub fn no_such_location(typed: &str) -> String {
    let names = crate::rules::thiz::Location::ALL.iter().map(|l| l.name());
    format!(
        "There is no body location {}; use head, chest, gut, right arm, left arm, right leg or left leg.{}",
        escape(typed.trim()),
        did_you_mean(typed, names)
    )
}

/// " Did you mean …?" for a skill name that is not one, from the THIZ skill table.
pub fn did_you_mean_skill(typed: &str) -> String {
    use crate::rules::thiz::skills::SkillKind;
    did_you_mean(typed, SkillKind::all().map(SkillKind::name))
}

/// The names nearest to what was typed, best first (at most three), for a refusal's "did you
/// mean": names it begins, or one of whose words it begins ("Gala" for "Gala of Iondren"), then
/// names within a few edits of it (Damerau-Levenshtein, by `strsim`: one edit for a short name,
/// up to three for a long one, so a transposed pair counts as one). Case is ignored.
pub fn nearest<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let typed = typed.trim().to_lowercase();
    if typed.is_empty() {
        return Vec::new();
    }
    let mut ranked: Vec<(usize, &'a str)> = Vec::new();
    for name in names {
        let lower = name.to_lowercase();
        if lower == typed {
            continue;
        }
        let starts = typed.chars().count() >= 2
            && (lower.starts_with(&typed)
                || lower.split([' ', '(', '-']).any(|w| w.starts_with(&typed)));
        let distance = strsim::damerau_levenshtein(&typed, &lower);
        let allowed = (lower.chars().count().max(typed.chars().count()) / 4).clamp(1, 3);
        if starts {
            ranked.push((0, name));
        } else if distance <= allowed {
            ranked.push((distance, name));
        }
    }
    ranked.sort_by_key(|(d, name)| (*d, name.to_lowercase()));
    ranked.dedup_by_key(|(_, name)| name.to_lowercase());
    ranked.into_iter().take(3).map(|(_, n)| n).collect()
}

/// " Did you mean X?" (or "X or Y", "X, Y or Z") for the names nearest to what was typed,
/// escaped; empty when none is near.
pub fn did_you_mean<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let near: Vec<String> = nearest(typed, names).into_iter().map(escape).collect();
    match near.as_slice() {
        [] => String::new(),
        [one] => format!(" Did you mean {one}?"),
        [rest @ .., last] => format!(" Did you mean {} or {last}?", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34: one edit, a transposition, a prefix, a word of a longer name; nothing for a
    /// name far from every other.
    #[test]
    fn did_you_mean_finds_the_near_names() {
        let skills = ["Speed", "Perception", "Stealth", "Swimming", "Weapon Skill"];
        let table: &[(&str, &[&str])] = &[
            ("Sped", &["Speed"]),
            ("Perceptoin", &["Perception"]),
            ("stelth", &["Stealth"]),
            ("swim", &["Swimming"]),
            ("weapon", &["Weapon Skill"]),
            ("skill", &["Weapon Skill"]),
            ("Speed", &[]),
            ("Dance", &[]),
            ("x", &[]),
        ];
        for (typed, want) in table {
            assert_eq!(nearest(typed, skills), *want, "{typed:?}");
        }
        let names = ["Gala of Iondren", "Brom", "Bram"];
        assert_eq!(nearest("Gala", names), ["Gala of Iondren"]);
        assert_eq!(nearest("Brim", names), ["Bram", "Brom"]);
        assert_eq!(did_you_mean("Brim", names), " Did you mean Bram or Brom?");
        assert_eq!(
            did_you_mean("chek", ["check", "roll"]),
            " Did you mean check?"
        );
        assert_eq!(did_you_mean("zzz", ["check"]), "");
    }

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
