//! The reply model: what a use case answers, before any Discord or console rendering.
//!
//! `bot` turns it into interaction responses and messages; `console` prints it. It carries no
//! Discord types. Where copies go (the GM channel) is part of the model, so routing is decided
//! once, here in `app`, for every front end.

use serde::{Deserialize, Serialize};

/// Who sees the reply in the channel where the command was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Everyone in the channel.
    Public,
    /// Only the caller (an ephemeral reply).
    Ephemeral,
}

/// A colour for an embed, named by meaning; `bot` maps it to Discord's integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    Black,
    Red,
    Yellow,
    Green,
    Grey,
    Info,
    Error,
}

/// One embed field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    pub value: String,
    pub inline: bool,
}

/// An embed: a titled block with fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Embed {
    pub title: String,
    pub description: String,
    pub tone: Option<Tone>,
    pub fields: Vec<Field>,
    pub footer: Option<String>,
}

/// A button. Its id names only what it acts on (a roll id and an action); the handler re-checks
/// who pressed it and what that id allows (SPEC §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    pub custom_id: String,
    pub label: String,
    pub disabled: bool,
}

/// A file sent with a reply: a character export (text) or an odds chart (a PNG picture).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyFile {
    pub name: String,
    /// The file's bytes. A reply is stored as JSON (the GM channel's outbox), where these are
    /// written as a string when they are UTF-8 text, as every file was before charts, and
    /// otherwise as `{"base64": "…"}` (see [`file_bytes`]).
    #[serde(with = "file_bytes")]
    pub content: Vec<u8>,
}

impl ReplyFile {
    /// A text file (a character export).
    pub fn text(name: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            content: content.into().into_bytes(),
        }
    }

    /// A file of any bytes (a PNG chart).
    pub fn binary(name: impl Into<String>, content: Vec<u8>) -> Self {
        Self {
            name: name.into(),
            content,
        }
    }

    /// The file's text, when it is UTF-8 text; `None` for a picture.
    pub fn as_text(&self) -> Option<&str> {
        std::str::from_utf8(&self.content).ok()
    }

    /// The file with its text passed through `f` (a picture is left as it is): how the GM's
    /// screen hides or reveals what a file says.
    pub fn map_text(self, f: impl FnOnce(&str) -> String) -> Self {
        match String::from_utf8(self.content) {
            Ok(text) => Self {
                content: f(&text).into_bytes(),
                name: self.name,
            },
            Err(e) => Self {
                content: e.into_bytes(),
                name: self.name,
            },
        }
    }

    /// Its size for people: "812 B", "12.3 KB", "1.5 MB" (1 KB = 1,000 bytes, as Discord counts).
    pub fn size_text(&self) -> String {
        let n = self.content.len();
        if n < 1000 {
            format!("{n} B")
        } else if n < 1_000_000 {
            format!("{:.1} KB", n as f64 / 1e3)
        } else {
            format!("{:.1} MB", n as f64 / 1e6)
        }
    }
}

/// How [`ReplyFile::content`] is written in JSON: UTF-8 text as a plain string (so replies stored
/// before files could hold pictures still read back, and stored exports stay readable), any other
/// bytes as `{"base64": "…"}`, a third more than the bytes themselves (hex would double them).
mod file_bytes {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Text(String),
        Binary { base64: String },
    }

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => s.serialize_str(text),
            Err(_) => Stored::Binary {
                base64: STANDARD.encode(bytes),
            }
            .serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        match Stored::deserialize(d)? {
            Stored::Text(text) => Ok(text.into_bytes()),
            Stored::Binary { base64 } => STANDARD.decode(base64).map_err(serde::de::Error::custom),
        }
    }
}

/// A reply to one command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub content: String,
    pub embeds: Vec<Embed>,
    pub buttons: Vec<Button>,
    pub visibility: Visibility,
    /// A copy for the GM channel (private and blind rolls), if any.
    pub gm_copy: Option<Box<Reply>>,
    /// For a GM copy: the guild's GM channel, read with the guild's settings when the command
    /// ran (`None` when unset: the copy stays reachable through `/history`).
    pub gm_channel: Option<u64>,
    /// A file attached to the reply, if any.
    pub file: Option<ReplyFile>,
    /// For a button press: what the message holding the button now reads (a roll request's
    /// status), put in its place for everyone who sees it. `None` leaves the message as it is.
    pub update: Option<Box<Reply>>,
    /// A second, ephemeral answer for the caller alone, sent after the reply: a GM's public roll
    /// for or against an NPC shows the channel the outcome and brings the GM the NPC's numbers
    /// here (see [`super::screen`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller_copy: Option<Box<Reply>>,
    /// A message for the whole channel, posted after the reply: a GM's private attack that struck
    /// a player's figure tells its player so, with a button that shows them what it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<Box<Reply>>,
    /// The one user this message may ping (its content names them): a turn's player. Sent with
    /// `allowed_mentions` listing that user alone; every other message pings nobody.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mention: Option<u64>,
}

impl Reply {
    /// A public text reply.
    pub fn public(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            embeds: Vec::new(),
            buttons: Vec::new(),
            visibility: Visibility::Public,
            gm_copy: None,
            gm_channel: None,
            file: None,
            update: None,
            caller_copy: None,
            notice: None,
            mention: None,
        }
    }

    /// An ephemeral text reply (errors, secrets for the caller alone).
    pub fn ephemeral(content: impl Into<String>) -> Self {
        Self {
            visibility: Visibility::Ephemeral,
            ..Self::public(content)
        }
    }

    pub fn with_embed(mut self, embed: Embed) -> Self {
        self.embeds.push(embed);
        self
    }

    pub fn with_button(mut self, button: Button) -> Self {
        self.buttons.push(button);
        self
    }

    /// Attaches a text file (a character export).
    pub fn with_file(mut self, name: impl Into<String>, content: impl Into<String>) -> Self {
        self.file = Some(ReplyFile::text(name, content));
        self
    }

    /// Attaches a file of any bytes (a PNG chart), beside whatever the reply says.
    pub fn with_binary_file(mut self, name: impl Into<String>, content: Vec<u8>) -> Self {
        self.file = Some(ReplyFile::binary(name, content));
        self
    }

    /// Sets what the message holding the pressed button now reads (see [`Reply::update`]).
    pub fn with_update(mut self, message: Reply) -> Self {
        self.update = Some(Box::new(message));
        self
    }

    /// Adds a line to the reply's text (after what it says already).
    pub fn with_note(mut self, note: &str) -> Self {
        if !self.content.is_empty() {
            self.content.push('\n');
        }
        self.content.push_str(note);
        self
    }

    /// Adds a line to the ephemeral follow-up the caller alone receives ([`Reply::caller_copy`]),
    /// making one if the reply has none: what only the one who ran the command may learn (that
    /// their luck has run out).
    pub fn with_caller_note(mut self, note: &str) -> Self {
        let copy = match self.caller_copy.take() {
            Some(copy) => copy.with_note(note),
            None => Reply::ephemeral(note),
        };
        self.caller_copy = Some(Box::new(copy));
        self
    }

    pub fn with_gm_copy(mut self, copy: Reply) -> Self {
        self.gm_copy = Some(Box::new(copy));
        self
    }

    /// Adds lines for the GM alone to the GM copy (making one if the reply has none): luck totals,
    /// Unlucky mishaps, anything a player must not read.
    pub fn with_gm_lines(self, lines: &[String]) -> Self {
        if lines.is_empty() {
            return self;
        }
        let note = lines.join("\n");
        match self.gm_copy {
            Some(mut copy) => {
                copy.content = if copy.content.is_empty() {
                    note
                } else {
                    format!("{}\n{note}", copy.content)
                };
                Reply {
                    gm_copy: Some(copy),
                    ..self
                }
            }
            None => self.with_gm_copy(Reply::public(note)),
        }
    }

    /// Several replies as one message, in order: what one command resolving several things (an
    /// attack on several targets) sends. Their texts follow one another (a line two parts share,
    /// such as "no GM channel is set", is said once), embeds and buttons are put side by side, and
    /// each copy (the GM's, the caller's, the channel notice) joins its parts' copies the same
    /// way. The parts come from one command under one roll mode, so they share a visibility; the
    /// message is ephemeral if any part is. `None` for no parts.
    pub fn join(parts: Vec<Reply>) -> Option<Reply> {
        let mut parts = parts.into_iter();
        let mut out = parts.next()?;
        for part in parts {
            let mut lines: Vec<&str> = out.content.lines().collect();
            for line in part.content.lines() {
                if line.trim().is_empty() || !lines.contains(&line) {
                    lines.push(line);
                }
            }
            out.content = lines.join("\n");
            out.embeds.extend(part.embeds);
            out.buttons.extend(part.buttons);
            if part.visibility == Visibility::Ephemeral {
                out.visibility = Visibility::Ephemeral;
            }
            out.gm_copy = join_copies(out.gm_copy.take(), part.gm_copy);
            out.gm_channel = out.gm_channel.or(part.gm_channel);
            out.file = out.file.take().or(part.file);
            out.update = out.update.take().or(part.update);
            out.caller_copy = join_copies(out.caller_copy.take(), part.caller_copy);
            out.notice = join_copies(out.notice.take(), part.notice);
            out.mention = out.mention.or(part.mention);
        }
        Some(out)
    }

    /// Every piece of text the caller receives: the reply without its GM copy (which goes to
    /// the GM channel), with the updated message it may carry (which the whole channel sees).
    /// Tests scan this for secrets.
    pub fn caller_text(&self) -> String {
        Reply {
            gm_copy: None,
            ..self.clone()
        }
        .all_text()
    }

    /// Every piece of text everyone in the channel can read: the reply when it is public, and the
    /// message a button press rewrites. Tests scan this for an NPC's numbers.
    pub fn channel_text(&self) -> String {
        let mut out = String::new();
        if self.visibility == Visibility::Public {
            out = Reply {
                gm_copy: None,
                update: None,
                caller_copy: None,
                notice: None,
                ..self.clone()
            }
            .all_text();
        }
        for message in [&self.update, &self.notice].into_iter().flatten() {
            out.push('\n');
            out.push_str(&message.channel_text());
        }
        out
    }

    /// Every piece of text in the reply and its copies, for tests that scan replies for secrets.
    pub fn all_text(&self) -> String {
        let mut out = self.content.clone();
        for e in &self.embeds {
            for part in [&e.title, &e.description] {
                out.push('\n');
                out.push_str(part);
            }
            for f in &e.fields {
                out.push('\n');
                out.push_str(&f.name);
                out.push('\n');
                out.push_str(&f.value);
            }
            if let Some(footer) = &e.footer {
                out.push('\n');
                out.push_str(footer);
            }
        }
        for b in &self.buttons {
            out.push('\n');
            out.push_str(&b.label);
            out.push('\n');
            out.push_str(&b.custom_id);
        }
        if let Some(file) = &self.file {
            out.push('\n');
            out.push_str(&file.name);
            // A picture has no text to scan; what a chart draws, its reply's embed says.
            if let Some(text) = file.as_text() {
                out.push('\n');
                out.push_str(text);
            }
        }
        if let Some(copy) = &self.gm_copy {
            out.push('\n');
            out.push_str(&copy.all_text());
        }
        if let Some(message) = &self.update {
            out.push('\n');
            out.push_str(&message.all_text());
        }
        for copy in [&self.caller_copy, &self.notice].into_iter().flatten() {
            out.push('\n');
            out.push_str(&copy.all_text());
        }
        out
    }
}

/// Two optional copies as one ([`Reply::join`]).
fn join_copies(a: Option<Box<Reply>>, b: Option<Box<Reply>>) -> Option<Box<Reply>> {
    match (a, b) {
        (Some(a), Some(b)) => Reply::join(vec![*a, *b]).map(Box::new),
        (a, b) => a.or(b),
    }
}

impl Tone {
    /// The embed colour Discord shows for this tone (0xRRGGBB).
    pub fn color(self) -> u32 {
        match self {
            Tone::Black => 0x0023_272A,
            Tone::Red | Tone::Error => 0x00ED_4245,
            Tone::Yellow => 0x00FE_E75C,
            Tone::Green => 0x0057_F287,
            Tone::Grey => 0x0095_A5A6,
            Tone::Info => 0x0058_65F2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_text_reaches_every_part() {
        let reply = Reply::public("c")
            .with_embed(Embed {
                title: "t".into(),
                description: "d".into(),
                tone: None,
                fields: vec![Field {
                    name: "n".into(),
                    value: "v".into(),
                    inline: false,
                }],
                footer: Some("f".into()),
            })
            .with_button(Button {
                custom_id: "id".into(),
                label: "l".into(),
                disabled: false,
            })
            .with_gm_copy(Reply::ephemeral("g"))
            .with_file("x.json", "{}");
        let text = reply.all_text();
        for part in ["c", "t", "d", "n", "v", "f", "id", "l", "g", "x.json", "{}"] {
            assert!(
                text.lines().any(|l| l == part),
                "{part} missing from {text:?}"
            );
        }
        // A picture is named; its bytes are no text to scan.
        let chart = Reply::public("c").with_binary_file("odds.png", vec![0x89, b'4', b'2']);
        assert_eq!(chart.all_text(), "c\nodds.png");
    }

    #[test]
    fn joined_replies_keep_every_part_in_order_and_say_a_shared_line_once() {
        let embed = |t: &str| Embed {
            title: t.into(),
            ..Embed::default()
        };
        let button = |id: &str| Button {
            custom_id: id.into(),
            label: id.into(),
            disabled: false,
        };
        let first = Reply::public("A is struck.\nNo GM channel is set.")
            .with_embed(embed("on A"))
            .with_button(button("luck:1"))
            .with_gm_lines(&["A's secret".to_owned()]);
        let second = Reply::public("B is struck.\nNo GM channel is set.")
            .with_embed(embed("on B"))
            .with_button(button("luck:2"))
            .with_caller_note("only for you");
        let joined = Reply::join(vec![first, second]).unwrap();
        assert_eq!(
            joined.content,
            "A is struck.\nNo GM channel is set.\nB is struck."
        );
        let titles: Vec<&str> = joined.embeds.iter().map(|e| e.title.as_str()).collect();
        assert_eq!(titles, ["on A", "on B"]);
        let ids: Vec<&str> = joined
            .buttons
            .iter()
            .map(|b| b.custom_id.as_str())
            .collect();
        assert_eq!(ids, ["luck:1", "luck:2"]);
        assert_eq!(joined.gm_copy.unwrap().content, "A's secret");
        assert!(joined.caller_copy.unwrap().content.contains("only for you"));
        assert_eq!(joined.visibility, Visibility::Public);
        // An ephemeral part keeps the message to the caller; no parts make no message.
        let quiet = Reply::join(vec![Reply::public("x"), Reply::ephemeral("y")]).unwrap();
        assert_eq!(quiet.visibility, Visibility::Ephemeral);
        assert_eq!(Reply::join(Vec::new()), None);
    }

    #[test]
    fn a_text_file_is_stored_as_its_text_and_a_picture_as_base64() {
        let text = Reply::public("").with_file("gala.json", "{\"a\":1}");
        let json = serde_json::to_value(&text).unwrap();
        assert_eq!(json["file"]["content"], "{\"a\":1}");
        let back: Reply = serde_json::from_value(json).unwrap();
        assert_eq!(back, text);

        let bytes = vec![0x89, b'P', b'N', b'G', 0, 255, 10];
        let picture = Reply::public("").with_binary_file("odds.png", bytes.clone());
        let json = serde_json::to_value(&picture).unwrap();
        assert_eq!(json["file"]["content"]["base64"], "iVBORwD/Cg==");
        let back: Reply = serde_json::from_value(json).unwrap();
        assert_eq!(back.file.map(|f| f.content), Some(bytes));

        // A reply stored before files held bytes reads back as before.
        let old = serde_json::json!({
            "content": "", "embeds": [], "buttons": [], "visibility": "public",
            "gm_copy": null, "gm_channel": null, "update": null,
            "file": {"name": "gala.json", "content": "{}"},
        });
        let old: Reply = serde_json::from_value(old).unwrap();
        assert_eq!(old.file.as_ref().and_then(ReplyFile::as_text), Some("{}"));
        let bad = serde_json::json!({"name": "x.png", "content": {"base64": "*"}});
        assert!(serde_json::from_value::<ReplyFile>(bad).is_err());
    }

    #[test]
    fn a_files_size_reads_in_bytes_kilobytes_or_megabytes() {
        let size = |n: usize| ReplyFile::binary("f", vec![0; n]).size_text();
        assert_eq!(size(0), "0 B");
        assert_eq!(size(999), "999 B");
        assert_eq!(size(1000), "1.0 KB");
        assert_eq!(size(12_345), "12.3 KB");
        assert_eq!(size(2_500_000), "2.5 MB");
    }

    #[test]
    fn the_screen_changes_a_files_text_and_leaves_a_picture_alone() {
        let text = ReplyFile::text("a.txt", "secret").map_text(str::to_uppercase);
        assert_eq!(text.as_text(), Some("SECRET"));
        let picture = ReplyFile::binary("a.png", vec![0x89, 0xFF]).map_text(|_| String::new());
        assert_eq!(picture.content, vec![0x89, 0xFF]);
    }
}
