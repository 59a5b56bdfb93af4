//! The text of saved rolls, pure: whether a word reads as dice, where a saved roll's name ends in
//! what was typed, and the typed tail (`+2`, `! vs the troll`) applied to the saved expression.
//!
//! Works on the dice language's text only at its seams, the few marks any version of it keeps:
//! `;` between rolls, a leading repeat count (`6 4d6`), a leading `(Label)`, and a trailing
//! `! comment`. It never reads the dice themselves: the parser does, on the result. Never touches
//! storage.

/// What a tail's arithmetic starts with.
const OPERATORS: [char; 4] = ['+', '-', '*', '/'];

/// Marks of the dice language a saved roll's name may not hold, so that the name always ends
/// where the arithmetic after it begins (`attack-2` is `attack` minus 2, never a name).
pub const SYNTAX: [char; 16] = [
    '+', '-', '*', '/', ';', '!', '(', ')', '[', ']', '{', '}', '<', '>', '=', '%',
];

/// Whether `word` reads as dice or as a number: `12`, `d20`, `3d6`, `dd34`, `4d6kh3`, `d`, `dF`.
/// A name whose first word does is refused, so that `/roll d20` always rolls a d20, and `/roll`
/// looks for no saved roll when the text starts with one.
pub fn reads_as_dice(word: &str) -> bool {
    let lower = word.to_lowercase();
    let after_count = lower.trim_start_matches(|c: char| c.is_ascii_digit());
    if after_count.is_empty() {
        return !lower.is_empty();
    }
    let after_d = after_count.trim_start_matches('d');
    if after_d.len() == after_count.len() {
        return false;
    }
    match after_d.chars().next() {
        None => true,
        Some(c) if c.is_ascii_digit() || c == '%' => true,
        // Fate dice: `dF`, `4df`, `dF.1`; not a word such as "dfoo".
        Some('f') => !after_d[1..].starts_with(char::is_alphabetic),
        Some(_) => false,
    }
}

/// The first word of `text`: up to whitespace or a mark of [`SYNTAX`].
pub fn first_word(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .find(|c: char| c.is_whitespace() || SYNTAX.contains(&c))
        .unwrap_or(text.len());
    &text[..end]
}

/// What follows saved roll `name` at the start of `typed` (compared ignoring case, any run of
/// whitespace matching one space of the name), trimmed; `None` when `typed` does not start with
/// the whole name: the next character must be the end, whitespace, an operator or `!`
/// (`attacks` does not start with the name `attack`).
pub fn after_name<'t>(typed: &'t str, name: &str) -> Option<&'t str> {
    let typed = typed.trim_start();
    let mut rest = typed.char_indices().peekable();
    for wanted in name.chars() {
        if wanted == ' ' {
            if !rest.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                return None;
            }
            while rest.next_if(|(_, c)| c.is_whitespace()).is_some() {}
            continue;
        }
        let (_, got) = rest.next()?;
        if !got.to_lowercase().eq(wanted.to_lowercase()) {
            return None;
        }
    }
    let at = rest.peek().map_or(typed.len(), |(i, _)| *i);
    let after = &typed[at..];
    match after.chars().next() {
        None => Some(""),
        Some(c) if c.is_whitespace() || OPERATORS.contains(&c) || c == '!' => {
            Some(after.trim_start())
        }
        Some(_) => None,
    }
}

/// What was typed after a saved roll's name: arithmetic to apply to it, and a comment to put
/// on it instead of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// `+2`, `-1d4`, `*2`, without whitespace; empty for none.
    pub arithmetic: String,
    /// The text after `!`, trimmed; `None` when none was typed (or only `!`).
    pub comment: Option<String>,
}

impl Tail {
    /// Reads what followed the name ([`after_name`]): nothing; arithmetic starting with `+`,
    /// `-`, `*` or `/`; then, or alone, `! comment`. Anything else is refused with the reason.
    pub fn parse(after: &str) -> Result<Self, String> {
        let (arithmetic, comment) = match comment_at(after) {
            Some(at) => (&after[..at], Some(after[at + 1..].trim().to_owned())),
            None => (after, None),
        };
        // A `!` with nothing after it keeps the saved roll's own comment.
        let comment = comment.filter(|c| !c.is_empty());
        let arithmetic: String = arithmetic.split_whitespace().collect();
        if !arithmetic.is_empty() && !arithmetic.starts_with(OPERATORS) {
            return Err("after a saved roll's name, add arithmetic that starts with +, -, * or / (like +2 or -1d4), or a comment after !".to_owned());
        }
        if arithmetic.contains(';') {
            return Err("after a saved roll's name, add arithmetic to apply to it (like +2), not more rolls after ;".to_owned());
        }
        Ok(Self {
            arithmetic,
            comment,
        })
    }

    /// `expression` with this tail: the arithmetic applied ([`apply_tail`]), the comment put in
    /// ([`with_comment`]).
    pub fn applied_to(&self, expression: &str) -> String {
        let out = apply_tail(expression, &self.arithmetic);
        match &self.comment {
            Some(comment) => with_comment(&out, comment),
            None => out,
        }
    }
}

/// Where the `! comment` of `roll` (one roll, no `;`) begins: a `!` outside brackets that
/// neither explodes dice nor compares (`!=`). A `!` right after dice (`3d6!`, `4d6kh3!`) is an
/// explosion; after anything else (a space, a number, a bracket) it starts a comment.
fn comment_at(roll: &str) -> Option<usize> {
    let mut depth = 0u32;
    for (i, c) in roll.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '!' if depth == 0 && !roll[i + 1..].starts_with('=') && !after_dice(&roll[..i]) => {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// Whether `before` ends with dice, so that a `!` right after it explodes them: a die's sides or
/// an operation on them (`3d6`, `d%`, `4dF`, `4d6kh3`), not a number of its own (`+5`).
fn after_dice(before: &str) -> bool {
    let rest = before.trim_end_matches(|c: char| c.is_ascii_digit());
    rest.chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '%')
}

/// Where the first comparison at the top level of `dice` begins (`>=` of `1d20+5>=15`), if
/// any: `==`, `!=`, `<`, `<=`, `>`, `>=`, but not a `<` or `>` right after an operation's
/// letter, which picks faces (`4d6r<3`).
fn compare_at(dice: &str) -> Option<usize> {
    let mut depth = 0u32;
    let mut previous = None;
    for (i, c) in dice.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '=' | '!' if depth == 0 && dice[i + 1..].starts_with('=') => return Some(i),
            '<' | '>' if depth == 0 && !previous.is_some_and(|p: char| p.is_ascii_alphabetic()) => {
                return Some(i);
            }
            _ => {}
        }
        previous = Some(c);
    }
    None
}

/// `text` split at each `;` outside brackets, the separators kept out.
fn rolls_of(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0u32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ';' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// One roll of a `;` list, cut in three: what goes before the dice (whitespace, the flags `s `
/// and `ul `, a repeat count `6 `, a `(Label) `), the dice themselves, and what follows them
/// (whitespace and a comment).
fn cut(roll: &str) -> (&str, &str, &str) {
    let mut at = 0;
    loop {
        let rest = &roll[at..];
        let ws = rest.len() - rest.trim_start().len();
        let word = &rest[ws..];
        let taken = flag_len(word)
            .or_else(|| repeat_len(word))
            .or_else(|| label_len(word));
        let Some(taken) = taken else {
            at += ws;
            break;
        };
        at += ws + taken;
    }
    let body = &roll[at..];
    let end = comment_at(body).unwrap_or(body.len());
    let dice = body[..end].trim_end();
    (&roll[..at], dice, &body[dice.len()..])
}

/// Whether something other than arithmetic follows at the start of `text`: what a repeat count
/// or a label is followed by.
fn starts_a_roll(text: &str) -> bool {
    text.trim_start()
        .chars()
        .next()
        .is_some_and(|c| !OPERATORS.contains(&c) && !matches!(c, '!' | ')' | ';'))
}

/// The length of a leading flag (`s ` of `s 4d6`, `ul `): the word, whitespace, then a roll.
fn flag_len(text: &str) -> Option<usize> {
    let letters = text.len()
        - text
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    let word = &text[..letters];
    let after = &text[letters..];
    let flag = word.eq_ignore_ascii_case("s") || word.eq_ignore_ascii_case("ul");
    (flag && after.starts_with(char::is_whitespace) && starts_a_roll(after)).then_some(letters)
}

/// The length of a leading repeat count (`6 ` of `6 4d6`): digits, whitespace, then a roll.
fn repeat_len(text: &str) -> Option<usize> {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &text[digits..];
    let ws = after.len() - after.trim_start().len();
    (digits > 0 && ws > 0 && starts_a_roll(after)).then_some(digits)
}

/// The length of a leading label (`(Fire)` of `(Fire) 8d6`): a bracketed text followed by a
/// roll, not by arithmetic (`(1d6+1)*2` has no label).
fn label_len(text: &str) -> Option<usize> {
    if !text.starts_with('(') {
        return None;
    }
    let mut depth = 0u32;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return starts_a_roll(&text[i + 1..]).then_some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `dice` adds or subtracts at its top level (not inside brackets, not a leading sign).
fn has_sum(dice: &str) -> bool {
    let mut depth = 0u32;
    dice.char_indices().any(|(i, c)| match c {
        '(' | '[' | '{' => {
            depth += 1;
            false
        }
        ')' | ']' | '}' => {
            depth = depth.saturating_sub(1);
            false
        }
        '+' | '-' => depth == 0 && i > 0,
        _ => false,
    })
}

/// `expression` with `tail` (arithmetic such as `+2`, `-1d4`, `*2`; empty for none) applied to
/// the dice of each of its rolls, every label, repeat count and comment kept where it was:
/// `1d20+5 ! Attack` with `+2` is `1d20+5+2 ! Attack`. A `*` or `/` tail brackets a sum first
/// (`(1d20+5)*2`), so it multiplies the whole roll, as `+` adds to the whole roll.
// Decision: a roll that compares (`1d20+5 >= 15`, a hit against a target) gets the tail on its
// left side, the roll, never on the target. A saved roll of several rolls (`1d20+5; 2d6+3`) gets
// the tail on each of them
// (`attack+2` is then `1d20+5+2; 2d6+3+2`): it is what a player asks for by adding to the name of
// one saved roll, rather than guessing which roll they meant. A repeat (`6 4d6`) has the tail on
// its dice (`6 4d6+2`), so each of the six rolls gets it. A `;` inside a comment is read as the
// start of the next roll: the dice language ends a comment there too.
pub fn apply_tail(expression: &str, tail: &str) -> String {
    let tail = tail.trim();
    if tail.is_empty() {
        return expression.to_owned();
    }
    let multiplies = tail.starts_with(['*', '/']);
    rolls_of(expression)
        .into_iter()
        .map(|roll| {
            let (before, dice, after) = cut(roll);
            // A comparison's left side is the roll: `1d20+5>=15` with `+2` is `1d20+5+2>=15`.
            let (left, compared) = dice.split_at(compare_at(dice).unwrap_or(dice.len()));
            let value = left.trim_end();
            if value.is_empty() {
                return roll.to_owned();
            }
            let space = &left[value.len()..];
            if multiplies && has_sum(value) {
                format!("{before}({value}){tail}{space}{compared}{after}")
            } else {
                format!("{before}{value}{tail}{space}{compared}{after}")
            }
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// `expression` with `comment` as the comment of its last roll, in place of the one it had
/// (an empty comment removes it): `1d20+5 ! Attack` with `vs the troll` is
/// `1d20+5 ! vs the troll`.
pub fn with_comment(expression: &str, comment: &str) -> String {
    let mut rolls = rolls_of(expression);
    let Some(last) = rolls.pop() else {
        return expression.to_owned();
    };
    let (before, dice, _) = cut(last);
    let mut out = String::new();
    for roll in rolls {
        out.push_str(roll);
        out.push(';');
    }
    out.push_str(before);
    out.push_str(dice);
    if !comment.is_empty() {
        out.push_str(" ! ");
        out.push_str(comment);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_and_numbers_read_as_dice_and_words_do_not() {
        for dice in [
            "d20", "D20", "3d6", "dd34", "4d6kh3", "d", "3d", "d%", "dF", "4df", "12", "0", "d6s4",
        ] {
            assert!(reads_as_dice(dice), "{dice}");
        }
        for word in [
            "attack", "dex", "dragon", "dfoo", "damage", "fireball", "x3d6", "", "init", "a1",
        ] {
            assert!(!reads_as_dice(word), "{word}");
        }
    }

    #[test]
    fn the_first_word_ends_at_whitespace_or_syntax() {
        assert_eq!(first_word("  attack+2"), "attack");
        assert_eq!(first_word("big hit"), "big");
        assert_eq!(first_word("d20!"), "d20");
        assert_eq!(first_word(""), "");
    }

    #[test]
    fn a_name_matches_whole_ignoring_case_and_spacing() {
        let table: &[(&str, &str, Option<&str>)] = &[
            ("attack", "attack", Some("")),
            ("Attack+2", "attack", Some("+2")),
            ("ATTACK + 1d4", "attack", Some("+ 1d4")),
            ("attack*2", "attack", Some("*2")),
            ("attack ! vs troll", "attack", Some("! vs troll")),
            ("attack!", "attack", Some("!")),
            ("  attack  ", "attack", Some("")),
            ("big   hit-1", "big hit", Some("-1")),
            ("big hit", "bighit", None),
            ("bighit", "big hit", None),
            ("attacks", "attack", None),
            ("attack2", "attack", None),
            ("atta", "attack", None),
            ("1d20", "attack", None),
            ("Élan+1", "élan", Some("+1")),
        ];
        for (typed, name, want) in table {
            assert_eq!(after_name(typed, name), *want, "{typed:?} / {name:?}");
        }
    }

    #[test]
    fn tails_are_arithmetic_then_a_comment() {
        let ok = |a: &str, c: Option<&str>| {
            Ok(Tail {
                arithmetic: a.to_owned(),
                comment: c.map(str::to_owned),
            })
        };
        assert_eq!(Tail::parse(""), ok("", None));
        assert_eq!(Tail::parse("+2"), ok("+2", None));
        assert_eq!(Tail::parse("+ 1d4"), ok("+1d4", None));
        assert_eq!(Tail::parse("-1 ! vs troll "), ok("-1", Some("vs troll")));
        assert_eq!(Tail::parse("! Sneak"), ok("", Some("Sneak")));
        assert_eq!(Tail::parse("!"), ok("", None), "nothing to put in");
        assert_eq!(Tail::parse("+1d6!"), ok("+1d6!", None), "an explosion");
        assert!(Tail::parse("foo").unwrap_err().contains("starts with +"));
        assert!(Tail::parse("2").is_err());
        assert!(Tail::parse("+2; 1d6").unwrap_err().contains(';'));
    }

    #[test]
    fn a_tail_goes_on_the_dice_of_each_roll() {
        let table: &[(&str, &str, &str)] = &[
            ("1d20+5", "+2", "1d20+5+2"),
            ("1d20+5", "", "1d20+5"),
            ("1d20+5 ! Attack", "+2", "1d20+5+2 ! Attack"),
            ("1d20+5 ! Attack", "-1d4", "1d20+5-1d4 ! Attack"),
            ("1d20+5", "*2", "(1d20+5)*2"),
            ("1d20+5 ! Attack", "/2", "(1d20+5)/2 ! Attack"),
            ("2d6", "*2", "2d6*2"),
            ("-1d4", "*2", "-1d4*2"),
            ("(1d6+1)*2", "+1", "(1d6+1)*2+1"),
            ("(1d6+1)*2", "*3", "(1d6+1)*2*3"),
            ("3d6!", "+1", "3d6!+1"),
            ("6 4d6kh3", "+1", "6 4d6kh3+1"),
            ("6 4d6", "*2", "6 4d6*2"),
            ("(Fire) 8d6", "+2", "(Fire) 8d6+2"),
            ("(Fire) 8d6+1 ! burns", "*2", "(Fire) (8d6+1)*2 ! burns"),
            ("2 (Two hits) 1d8+3", "+1", "2 (Two hits) 1d8+3+1"),
            ("1d20+5; 2d6+3", "+2", "1d20+5+2; 2d6+3+2"),
            (
                "1d20+5 ! hit; 2d6+3 ! damage",
                "+1",
                "1d20+5+1 ! hit; 2d6+3+1 ! damage",
            ),
            ("(a; b) 1d6", "+1", "(a; b) 1d6+1"),
            ("1d6;", "+1", "1d6+1;"),
            ("12", "+1", "12+1"),
            ("2 +3", "+1", "2 +3+1"),
            ("s 4d6", "+1", "s 4d6+1"),
            ("ul 2d6+1", "*2", "ul (2d6+1)*2"),
            ("S (Stats) 6 4d6kh3", "+1", "S (Stats) 6 4d6kh3+1"),
            ("1d20+5 >= 15", "+2", "1d20+5+2 >= 15"),
            ("1d20+5>=15 ! hit?", "*2", "(1d20+5)*2>=15 ! hit?"),
            ("1d20 != 1", "+1", "1d20+1 != 1"),
            ("4d6r<3", "+1", "4d6r<3+1"),
            ("10d10t7 > 3", "-1", "10d10t7-1 > 3"),
            ("1d20[fire!]+5", "+1", "1d20[fire!]+5+1"),
            ("(Big hit!) 1d20", "+1", "(Big hit!) 1d20+1"),
            ("1d20+5! Attack", "+2", "1d20+5+2! Attack"),
            ("3d6! ! boom", "+1", "3d6!+1 ! boom"),
            ("d%!", "+1", "d%!+1"),
        ];
        for (expression, tail, want) in table {
            assert_eq!(
                apply_tail(expression, tail),
                *want,
                "{expression:?} {tail:?}"
            );
        }
    }

    #[test]
    fn a_typed_comment_replaces_the_last_rolls() {
        let table: &[(&str, &str, &str)] = &[
            ("1d20+5 ! Attack", "vs troll", "1d20+5 ! vs troll"),
            ("1d20+5", "vs troll", "1d20+5 ! vs troll"),
            ("1d20+5 ! Attack", "", "1d20+5"),
            ("1d20 ! hit; 2d6 ! dmg", "fire", "1d20 ! hit; 2d6 ! fire"),
            ("(Fire) 8d6", "ouch", "(Fire) 8d6 ! ouch"),
        ];
        for (expression, comment, want) in table {
            assert_eq!(with_comment(expression, comment), *want, "{expression:?}");
        }
        let tail = Tail::parse("+2 ! vs troll").unwrap();
        assert_eq!(tail.applied_to("1d20+5 ! Attack"), "1d20+5+2 ! vs troll");
    }
}
