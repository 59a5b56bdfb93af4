//! `referee console`: slash commands typed as text on standard input, replies printed.
//!
//! Owns reading a typed line (`/check rating:4 modifier:-2`, values with spaces in double quotes)
//! into an [`Invocation`], and printing reply models. Calls `app` to run a command; never decides
//! what a command does or who may run it. The line parser is pure so it can be tested on its own.
//!
//! `--json` prints what the bot would send, rendered by the bot's own pure builders
//! (`bot::render`'s `*_data`, which hand back plain JSON, no serenity type): fit to Discord's
//! limits, buttons in rows of five, the same flags and mentions. `bot` never imports the console.

use std::fmt;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::app::invocation::Invocation;
use crate::app::reply::{Reply, Visibility};
use crate::app::{App, Caller, Command, Dice};
use crate::bot::render;
use crate::rules::dice::expr::Limits;
use crate::store::{GuildId, Store, UserId};

/// How the console was started (`referee console --guild … --user … --gm --seed … --json --db …`).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ConsoleOptions {
    /// The guild to act in
    #[arg(long, value_name = "ID", default_value_t = 1)]
    pub guild: u64,
    /// Who you are (a user id)
    #[arg(long, value_name = "ID", default_value_t = 1)]
    pub user: u64,
    /// Act as a GM (Manage Server)
    #[arg(long)]
    pub gm: bool,
    /// Reproducible dice
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// One JSON object per reply (Discord's interaction-response data, plus routing)
    #[arg(long)]
    pub json: bool,
    /// The database file or postgres:// URL (default: from the configuration, referee.sqlite3)
    #[arg(long, value_name = "DB")]
    pub db: Option<PathBuf>,
    /// The channel you type in (an encounter lives in a channel)
    #[arg(long, value_name = "ID", default_value_t = 1)]
    pub channel: u64,
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        Self {
            guild: 1,
            user: 1,
            gm: false,
            seed: None,
            json: false,
            db: None,
            channel: 1,
        }
    }
}

/// A console session: the app on its database, who is typing, and how many lines so far.
pub struct Session {
    app: App,
    caller: Caller,
    options: ConsoleOptions,
    /// The session's start time, in interaction ids.
    started: u128,
    lines: usize,
}

/// The words that end a session when typed as a line.
pub const QUIT: [&str; 2] = ["/quit", "/exit"];

impl Session {
    /// Opens the database and makes the caller the options describe.
    pub fn open(
        options: &ConsoleOptions,
        db: &std::path::Path,
        limits: Limits,
    ) -> anyhow::Result<Self> {
        let store = Arc::new(Store::open(db)?);
        let dice = match options.seed {
            Some(seed) => Dice::seeded(seed),
            None => Dice::Thread,
        };
        let caller = Caller {
            guild: GuildId(options.guild),
            user: UserId(options.user),
            name: format!("user {}", options.user),
            roles: Vec::new(),
            manage_server: options.gm,
        };
        // Interaction ids must not repeat across console sessions on one database (a luck spend
        // is idempotent per id), so they carry the session's start time as well as the line number.
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(Self {
            app: App::new(store, dice, limits),
            caller,
            options: options.clone(),
            started,
            lines: 0,
        })
    }

    /// One line typed: what the console prints for it (nothing for a blank or `#` line).
    pub fn line(&mut self, line: &str) -> String {
        self.lines += 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            return String::new();
        }
        let options = &self.options;
        let reply = match parse_line(line)
            .map_err(|e| e.to_string())
            .and_then(read_files)
        {
            Err(message) => Reply::ephemeral(message),
            Ok(inv) => match Command::parse(&inv) {
                Err(e) => Reply::ephemeral(e.to_string()),
                Ok(cmd) => self.app.handle_in(
                    options.channel,
                    &self.caller,
                    &format!(
                        "console-{}-{}-{}",
                        self.started,
                        std::process::id(),
                        self.lines
                    ),
                    cmd,
                ),
            },
        };
        let status = status_update(&self.app, &self.caller, options.channel);
        let mut out = String::new();
        if options.json {
            let mut json = to_json(&reply, options.gm);
            if let Some(status) = &status {
                json["status_message"] = render::message_data(status);
            }
            let _ = writeln!(out, "{json}");
        } else {
            out.push_str(&to_text(&reply, options.gm));
            if let Some(status) = &status {
                out.push_str("  [the channel's encounter status, edited]\n");
                out.push_str(&to_text(status, false));
            }
        }
        out
    }
}

/// Runs the console: one command per input line, one reply per command. Blank lines and lines
/// starting with `#` are skipped. Returns when the input ends or a line is `/quit`.
pub fn run(
    options: &ConsoleOptions,
    db: &std::path::Path,
    limits: Limits,
    input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut session = Session::open(options, db, limits)?;
    for line in input.lines() {
        let line = line?;
        if QUIT.contains(&line.trim()) {
            break;
        }
        write!(output, "{}", session.line(&line))?;
        output.flush()?;
    }
    Ok(())
}

/// The channel's encounter status when it changed (the message the bot would edit in place);
/// the console shows it after the reply and remembers it as shown.
fn status_update(app: &App, caller: &Caller, channel: u64) -> Option<Reply> {
    /// The console has no messages; one id stands for its status "message".
    const CONSOLE_MESSAGE: u64 = 1;
    let update = app.encounter_status(caller.guild, channel).ok().flatten()?;
    app.encounter_status_shown(caller.guild, channel, CONSOLE_MESSAGE, &update.shown)
        .ok()?;
    Some(update.reply)
}

/// `/character import file:PATH` names a file in the console: its contents become the option.
fn read_files(mut inv: Invocation) -> Result<Invocation, String> {
    if inv.path == ["character", "import"] {
        for (name, value) in &mut inv.options {
            if name == "file" {
                *value = std::fs::read_to_string(&*value)
                    .map_err(|e| format!("cannot read {value}: {e}"))?;
            }
        }
    }
    Ok(inv)
}

/// The keys [`to_json`] adds to the interaction-response `data`: where the copies go.
pub const ROUTING_KEYS: [&str; 6] = [
    "visibility",
    "gm_copy",
    "update",
    "caller_copy",
    "notice",
    "status_message",
];

/// One JSON object: Discord's interaction-response `data`, exactly as `run` and `serve` send it
/// (`bot::render::response_data`), plus the routing: `visibility` and `gm_copy` (the body posted
/// to the GM channel), and when present `update` (the new text of the message whose button was
/// pressed), `caller_copy` and `notice` (follow-ups), each rendered as the bot sends it there.
/// The GM copy's content is shown only to a console run as GM (`--gm`); a player learns only
/// that a copy went to the GM, as in Discord.
pub fn to_json(reply: &Reply, gm: bool) -> serde_json::Value {
    let mut data = render::response_data(reply);
    data["visibility"] = serde_json::json!(reply.visibility);
    data["gm_copy"] = match &reply.gm_copy {
        None => serde_json::Value::Null,
        Some(copy) if gm => render::message_data(copy),
        Some(_) => serde_json::json!("sent to the GM channel"),
    };
    // A roll request's press also rewrites the request message, which everyone sees.
    if let Some(message) = &reply.update {
        data["update"] = render::update_data(message);
    }
    // What a GM alone receives after the reply (an NPC's numbers the channel did not see).
    if let Some(copy) = &reply.caller_copy {
        data["caller_copy"] = render::followup_data(copy);
    }
    // A message posted for the whole channel after the reply.
    if let Some(notice) = &reply.notice {
        data["notice"] = render::followup_data(notice);
    }
    data
}

/// The reply as plain text for a terminal.
pub fn to_text(reply: &Reply, gm: bool) -> String {
    let mut out = String::new();
    render_text(reply, &mut out);
    match &reply.gm_copy {
        Some(copy) if gm => indented("copy to the GM channel", copy, &mut out),
        Some(_) => out.push_str("  (a copy went to the GM)\n"),
        None => {}
    }
    if let Some(copy) = &reply.caller_copy {
        indented("for you alone", copy, &mut out);
    }
    if let Some(notice) = &reply.notice {
        indented("posted in the channel", notice, &mut out);
    }
    if let Some(message) = &reply.update {
        indented("the message with the button now reads", message, &mut out);
    }
    out.push('\n');
    out
}

/// A copy under a bracketed heading, each line indented with a bar.
fn indented(heading: &str, copy: &Reply, out: &mut String) {
    out.push_str("  [");
    out.push_str(heading);
    out.push_str("]\n");
    let mut inner = String::new();
    render_text(copy, &mut inner);
    for line in inner.lines() {
        out.push_str("  | ");
        out.push_str(line);
        out.push('\n');
    }
}

fn render_text(reply: &Reply, out: &mut String) {
    use std::fmt::Write as _;
    if reply.visibility == Visibility::Ephemeral {
        out.push_str("(only you) ");
    }
    if !reply.content.is_empty() {
        out.push_str(&reply.content);
        out.push('\n');
    }
    for e in &reply.embeds {
        if !e.title.is_empty() {
            let _ = writeln!(out, "== {} ==", e.title);
        }
        if !e.description.is_empty() {
            out.push_str(&e.description);
            out.push('\n');
        }
        for f in &e.fields {
            let _ = writeln!(out, "{}: {}", f.name, f.value);
        }
        if let Some(footer) = &e.footer {
            out.push_str(footer);
            out.push('\n');
        }
    }
    for b in &reply.buttons {
        let _ = writeln!(out, "[{}] (/button id:{})", b.label, b.custom_id);
    }
    // A file's bytes are not for a terminal (a chart is a PNG); its name and size say it came.
    if let Some(file) = &reply.file {
        let _ = writeln!(out, "[attached {}, {}]", file.name, file.size_text());
    }
}

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
    fn a_pressed_buttons_new_message_is_printed_after_the_reply() {
        let reply = Reply::ephemeral("rolled").with_update(Reply::public("Rolled: Gala"));
        let text = to_text(&reply, false);
        assert!(
            text.contains(
                "(only you) rolled\n  [the message with the button now reads]\n  | Rolled: Gala\n"
            ),
            "{text}"
        );
        let json = to_json(&reply, false);
        assert_eq!(json["update"]["content"], "Rolled: Gala");
        assert!(to_json(&Reply::public("x"), false).get("update").is_none());
    }

    #[test]
    fn an_attached_picture_is_named_with_its_size_not_printed() {
        let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]
            .into_iter()
            .chain(std::iter::repeat_n(0xFF, 12_292))
            .collect();
        let reply = Reply::public("").with_binary_file("odds.png", png);
        let text = to_text(&reply, false);
        assert_eq!(text, "[attached odds.png, 12.3 KB]\n\n");
        let export = Reply::ephemeral("The sheet.").with_file("gala.json", "{}");
        assert!(
            to_text(&export, false).contains("[attached gala.json, 2 B]"),
            "{}",
            to_text(&export, false)
        );
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

    /// A value as a user would quote it: in double quotes, with `\` and `"` escaped.
    fn quoted(value: &str) -> String {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    }

    proptest::proptest! {
        /// Any line at all (SPEC §5: a malformed line gets a one-line explanation, never a crash).
        #[test]
        fn any_line_parses_or_gets_a_one_line_reason(line in "\\PC{0,80}") {
            if let Err(e) = parse_line(&line) {
                let text = e.to_string();
                proptest::prop_assert!(!text.is_empty() && !text.contains('\n'), "{:?}", text);
            }
        }

        /// Whatever a value holds (spaces, colons, quotes, backslashes, any script), quoting it
        /// brings it back exactly.
        #[test]
        fn quoted_values_come_back_exactly(
            path in proptest::collection::vec("[a-z]{1,8}", 1..3),
            values in proptest::collection::vec("\\PC{0,20}", 0..4),
        ) {
            let options: Vec<(String, String)> = values
                .into_iter()
                .enumerate()
                .map(|(i, v)| (format!("opt{i}"), v))
                .collect();
            let mut line = format!("/{}", path.join(" "));
            for (name, value) in &options {
                line.push(' ');
                line.push_str(name);
                line.push(':');
                line.push_str(&quoted(value));
            }
            let parsed = parse_line(&line);
            proptest::prop_assert_eq!(parsed, Ok(Invocation { path, options }), "{}", line);
        }
    }
}
