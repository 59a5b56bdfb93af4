//! The GM's screen: an NPC's numbers (its ratings, skills, attributes, adjDX, ST, the modifiers
//! read from its sheet) are the GM's, wherever a player could read them (SPEC §3).
//!
//! A use case does not decide who sees what piece by piece. Where it renders a number that
//! belongs to an NPC it wraps that text with [`npc`] (two private-use characters around it), and
//! [`seal`], run once on every reply in [`super::App`], sorts the copies:
//! - what the channel and a player receive (the reply unless it is a GM's ephemeral one, and the
//!   message a button press rewrites) has each wrapped span replaced by [`HIDDEN`]; an embed field,
//!   a description line or a button that was nothing but wrapped text goes altogether;
//! - the GM gets every number: a GM's own public roll brings the GM an ephemeral
//!   [`Reply::caller_copy`], and a player's roll that hid something sends the GM channel a copy
//!   (`gm_copy`) if the mode did not already;
//! - a guild whose GM turned the `npc_numbers_open` switch on (`/gm rules`) plays open: the
//!   wrappers are only taken off.
//!
//! This module owns the wrappers and the sorting, and imports nothing but the reply model: no
//! use case, no store.

use super::reply::{Button, Embed, Field, Reply, ReplyFile, Visibility};

/// Starts text that only the GM may read (a private-use character). A player who types one in a
/// name only hides more of a reply, never less: an open span runs to the end of its text, and
/// [`npc`] drops marks inside what it wraps, so no typed close can end a span early.
const OPEN: char = '\u{E000}';
/// Ends it.
const CLOSE: char = '\u{E001}';

/// What a player reads where an NPC's number was.
pub const HIDDEN: &str = "(hidden)";

/// `text`, marked as the GM's when `npc` is true (the figure it belongs to is an NPC); as it is
/// otherwise. Marks inside `text` are dropped first, so spans never nest.
pub fn npc(npc: bool, text: impl Into<String>) -> String {
    let text = text.into();
    if !npc {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 6);
    out.push(OPEN);
    out.extend(text.chars().filter(|c| *c != OPEN && *c != CLOSE));
    out.push(CLOSE);
    out
}

/// Whether `text` holds a marked span.
fn marked(text: &str) -> bool {
    text.contains(OPEN)
}

/// `text` with its marks taken off (what the GM reads).
fn revealed(text: &str) -> String {
    if !text.contains([OPEN, CLOSE]) {
        return text.to_owned();
    }
    text.chars().filter(|c| *c != OPEN && *c != CLOSE).collect()
}

/// `text` with each marked span replaced by [`HIDDEN`] (what a player reads). A span left open
/// runs to the end of the text: a missing close hides too much, never too little.
fn hidden(text: &str) -> String {
    if !text.contains([OPEN, CLOSE]) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        match c {
            OPEN if !inside => {
                inside = true;
                out.push_str(HIDDEN);
            }
            CLOSE => inside = false,
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

/// Whether a text is nothing but one or more hidden spans (and spaces or punctuation): shown
/// hidden, it would say nothing.
fn only_hidden(text: &str) -> bool {
    marked(text)
        && hidden(text)
            .replace(HIDDEN, "")
            .chars()
            .all(|c| c.is_whitespace() || c.is_ascii_punctuation() || c == '·')
}

impl Reply {
    /// Whether any part of the reply, its copies included, holds an NPC's marked number.
    pub fn has_npc_numbers(&self) -> bool {
        let mut found = false;
        self.for_each_text(&mut |t| found |= marked(t));
        found
    }

    fn for_each_text(&self, f: &mut impl FnMut(&str)) {
        f(&self.content);
        for e in &self.embeds {
            f(&e.title);
            f(&e.description);
            for field in &e.fields {
                f(&field.name);
                f(&field.value);
            }
            if let Some(footer) = &e.footer {
                f(footer);
            }
        }
        for b in &self.buttons {
            f(&b.label);
        }
        if let Some(text) = self.file.as_ref().and_then(ReplyFile::as_text) {
            f(text);
        }
        for r in [&self.gm_copy, &self.update, &self.caller_copy, &self.notice]
            .into_iter()
            .flatten()
        {
            r.for_each_text(f);
        }
    }
}

/// The reply with every mark taken off, copies included (for the GM, or a guild that plays open).
pub fn reveal(reply: Reply) -> Reply {
    Reply {
        content: revealed(&reply.content),
        embeds: reply
            .embeds
            .into_iter()
            .map(|e| Embed {
                title: revealed(&e.title),
                description: revealed(&e.description),
                tone: e.tone,
                fields: e
                    .fields
                    .into_iter()
                    .map(|f| Field {
                        name: revealed(&f.name),
                        value: revealed(&f.value),
                        inline: f.inline,
                    })
                    .collect(),
                footer: e.footer.as_deref().map(revealed),
            })
            .collect(),
        buttons: reply
            .buttons
            .into_iter()
            .map(|b| Button {
                label: revealed(&b.label),
                ..b
            })
            .collect(),
        file: reply.file.map(|f| f.map_text(revealed)),
        gm_copy: reply.gm_copy.map(|c| Box::new(reveal(*c))),
        update: reply.update.map(|c| Box::new(reveal(*c))),
        caller_copy: reply.caller_copy.map(|c| Box::new(reveal(*c))),
        notice: reply.notice.map(|c| Box::new(reveal(*c))),
        ..reply
    }
}

/// The reply as a player may read it: marked spans hidden, and a field, a description line or
/// a button that held nothing but marked text left out. Its GM copy is dropped (the caller of
/// this keeps it aside).
fn screen(reply: &Reply) -> Reply {
    Reply {
        content: screen_lines(&reply.content),
        embeds: reply
            .embeds
            .iter()
            .map(|e| Embed {
                title: hidden(&e.title),
                description: screen_lines(&e.description),
                tone: e.tone,
                fields: e
                    .fields
                    .iter()
                    .filter(|f| !only_hidden(&f.value) && !marked(&f.name))
                    .map(|f| Field {
                        name: f.name.clone(),
                        value: hidden(&f.value),
                        inline: f.inline,
                    })
                    .collect(),
                footer: e
                    .footer
                    .as_deref()
                    .map(screen_lines)
                    .filter(|f| !f.is_empty()),
            })
            .collect(),
        buttons: reply
            .buttons
            .iter()
            .filter(|b| !marked(&b.label))
            .cloned()
            .collect(),
        file: reply.file.clone().map(|f| f.map_text(hidden)),
        gm_copy: None,
        update: reply.update.as_deref().map(|u| Box::new(screen(u))),
        caller_copy: None,
        notice: reply.notice.as_deref().map(|u| Box::new(screen(u))),
        ..reply.clone()
    }
}

/// The reply as a player reads it, with no copy for anyone: for a view of a roll already made
/// (a private roll's notice shown to its figure's player), which sends the GM nothing new.
pub fn screened(reply: &Reply) -> Reply {
    screen(reply)
}

/// Text line by line: a line that was all marked text goes, the others have their spans hidden.
fn screen_lines(text: &str) -> String {
    if !marked(text) {
        return text.to_owned();
    }
    text.lines()
        .filter(|l| !only_hidden(l))
        .map(hidden)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The screen's safety net, for a roll for or against an NPC whose command marked nothing (one
/// not yet taught which of its numbers are the NPC's): every embed field, description line,
/// footer and content line that holds a number, other than in a character's name, is marked
/// whole. The channel then reads who rolled what and the outcome; the GM gets the rest.
pub fn mark_numbers(reply: Reply, names: &[String]) -> Reply {
    let numbered = |text: &str| {
        let mut rest = text.to_owned();
        for n in names {
            rest = rest.replace(n.as_str(), "");
            rest = rest.replace(&super::text::escape(n), "");
        }
        rest.chars().any(|c| c.is_ascii_digit())
    };
    let lines = |text: &str| {
        text.lines()
            .map(|l| {
                if numbered(l) {
                    npc(true, l)
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    Reply {
        content: lines(&reply.content),
        embeds: reply
            .embeds
            .into_iter()
            .map(|e| Embed {
                description: lines(&e.description),
                fields: e
                    .fields
                    .into_iter()
                    .map(|f| Field {
                        value: if numbered(&f.value) {
                            npc(true, f.value)
                        } else {
                            f.value
                        },
                        ..f
                    })
                    .collect(),
                footer: e
                    .footer
                    .map(|f| if numbered(&f) { npc(true, f) } else { f }),
                ..e
            })
            .collect(),
        ..reply
    }
}

/// Who ran the command, as the screen needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer {
    /// The caller is a GM of the guild.
    pub gm: bool,
    /// The guild plays open: NPC numbers are shown to everyone (`npc_numbers_open`).
    pub open: bool,
}

/// Sorts a reply's copies by who may read an NPC's numbers (see the module docs). `who` names
/// the caller in the heading of a copy made for the GM channel.
pub fn seal(reply: Reply, viewer: Viewer, who: &str) -> Reply {
    if !reply.has_npc_numbers() {
        return reply;
    }
    if viewer.open {
        return reveal(reply);
    }
    let mut shown = screen(&reply);
    let full = reveal(reply);
    shown.gm_copy.clone_from(&full.gm_copy);
    if viewer.gm && full.visibility == Visibility::Ephemeral {
        // Only the GM reads the reply itself; the message a button rewrites is still the
        // channel's.
        return Reply {
            update: shown.update,
            notice: shown.notice,
            ..full
        };
    }
    if viewer.gm {
        // The numbers reach the GM alone, beside the channel's reply; with the buttons the
        // channel's copy had to leave out (an NPC's own luck).
        let kept: Vec<&str> = shown.buttons.iter().map(|b| b.custom_id.as_str()).collect();
        let buttons = full
            .buttons
            .iter()
            .filter(|b| !kept.contains(&b.custom_id.as_str()))
            .cloned()
            .collect();
        // What the caller alone was to read already (a luck note) leads the GM's copy.
        let before = full
            .caller_copy
            .as_deref()
            .map(|c| format!("{}\n", c.content))
            .unwrap_or_default();
        let copy = Reply {
            content: before
                + &heading(
                    "Behind the screen: the NPC numbers the channel did not see",
                    &full,
                ),
            buttons,
            visibility: Visibility::Ephemeral,
            gm_copy: None,
            gm_channel: None,
            file: None,
            update: None,
            caller_copy: None,
            notice: None,
            ..full
        };
        shown.caller_copy = Some(Box::new(copy));
    } else if shown.gm_copy.is_none() {
        let copy = Reply {
            content: heading(
                &format!("{who}'s roll, with the NPC numbers (for the GM)"),
                &full,
            ),
            buttons: Vec::new(),
            visibility: Visibility::Public,
            gm_copy: None,
            gm_channel: None,
            file: None,
            update: None,
            caller_copy: None,
            notice: None,
            ..full
        };
        shown.gm_copy = Some(Box::new(copy));
    }
    shown
}

fn heading(title: &str, full: &Reply) -> String {
    if full.content.is_empty() {
        title.to_owned()
    } else {
        format!("{title}\n{}", full.content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embed(description: &str, fields: &[(&str, &str)]) -> Embed {
        Embed {
            title: "Shade 1 attacks Bran".into(),
            description: description.into(),
            tone: None,
            fields: fields
                .iter()
                .map(|(n, v)| Field {
                    name: (*n).into(),
                    value: (*v).into(),
                    inline: false,
                })
                .collect(),
            footer: None,
        }
    }

    fn attack() -> Reply {
        Reply::public("")
            .with_embed(embed(
                &format!(
                    "**Hit**: Red on the Chest.\n{}\nShade 1 defends: {}.",
                    npc(true, "Attack 23 = skill 20 + 3"),
                    npc(true, "+23 to Speed")
                ),
                &[
                    ("Attack", &npc(true, "Weapon Skill (Claw) 23")),
                    ("Roll", "d100: 40"),
                    ("Toughness", &format!("rating {}", npc(true, "23"))),
                ],
            ))
            .with_button(Button {
                custom_id: "luck:wound:1".into(),
                label: "Spend luck: lower wound".into(),
                disabled: false,
            })
            .with_button(Button {
                custom_id: "luck:toughness:1".into(),
                label: npc(true, "Spend luck: reroll Toughness"),
                disabled: false,
            })
    }

    const GM: Viewer = Viewer {
        gm: true,
        open: false,
    };
    const PLAYER: Viewer = Viewer {
        gm: false,
        open: false,
    };

    #[test]
    fn unmarked_text_is_left_as_it_is_and_marks_never_nest() {
        assert_eq!(npc(false, "ST 12"), "ST 12");
        let once = npc(true, "ST 12");
        assert_eq!(npc(true, once.clone()), once);
        assert_eq!(revealed(&once), "ST 12");
        assert_eq!(hidden(&format!("a {once} b")), "a (hidden) b");
        // An unclosed span hides to the end.
        assert_eq!(hidden("a \u{E000}ST 12"), "a (hidden)");
        let plain = Reply::public("ST 12");
        assert_eq!(seal(plain.clone(), PLAYER, "x"), plain);
    }

    #[test]
    fn a_gms_public_roll_hides_the_numbers_from_the_channel_and_gives_them_to_the_gm() {
        let sealed = seal(attack(), GM, "Gemma");
        let channel = sealed.channel_text();
        assert!(!channel.contains("23"), "{channel}");
        assert!(!channel.contains('\u{E000}') && !channel.contains('\u{E001}'));
        let e = &sealed.embeds[0];
        let names: Vec<&str> = e.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Roll", "Toughness"], "the all-hidden field goes");
        assert_eq!(e.fields[1].value, "rating (hidden)");
        assert_eq!(
            e.description,
            "**Hit**: Red on the Chest.\nShade 1 defends: (hidden)."
        );
        assert_eq!(sealed.buttons.len(), 1, "the NPC's luck button is the GM's");
        let copy = sealed.caller_copy.as_deref().expect("the GM's copy");
        assert_eq!(copy.visibility, Visibility::Ephemeral);
        let gm = copy.all_text();
        assert!(gm.contains("Weapon Skill (Claw) 23") && gm.contains("+23 to Speed"));
        assert_eq!(copy.buttons.len(), 1);
        assert_eq!(copy.buttons[0].custom_id, "luck:toughness:1");
        assert!(sealed.gm_copy.is_none(), "no channel copy was asked for");
    }

    #[test]
    fn a_players_roll_sends_the_numbers_to_the_gm_channel_once() {
        let sealed = seal(attack(), PLAYER, "Alys");
        assert!(sealed.caller_copy.is_none());
        assert!(!sealed.caller_text().contains("23"));
        let copy = sealed.gm_copy.as_deref().expect("a GM copy");
        assert!(copy.content.starts_with("Alys's roll"));
        assert!(copy.all_text().contains("Weapon Skill (Claw) 23"));
        // A mode that already made a copy keeps it, revealed.
        let private = attack().with_gm_copy(Reply::public(npc(true, "adjDX 13")));
        let sealed = seal(private, PLAYER, "Alys");
        assert_eq!(sealed.gm_copy.as_deref().unwrap().content, "adjDX 13");
    }

    #[test]
    fn a_gms_own_ephemeral_reply_is_revealed_but_the_rewritten_message_is_screened() {
        let mut r = attack();
        r.visibility = Visibility::Ephemeral;
        let r = r.with_update(Reply::public(format!("Status {}", npc(true, "ST 12"))));
        let sealed = seal(r, GM, "Gemma");
        assert!(sealed.content.is_empty() && sealed.caller_copy.is_none());
        assert!(sealed.embeds[0].fields[0].value.contains("23"));
        assert_eq!(sealed.update.as_deref().unwrap().content, "Status (hidden)");
        // The same for a player: the reply itself is screened too.
        let mut r = attack();
        r.visibility = Visibility::Ephemeral;
        assert!(!seal(r, PLAYER, "Alys").caller_text().contains("23"));
    }

    #[test]
    fn the_safety_net_marks_numbered_lines_but_not_names() {
        let r = Reply::public("Orc 1 rolls\nno digits").with_embed(embed(
            "Orc 1 is stunned for 2 turns.\nOrc 1 falls.",
            &[("Toughness", "rating 19"), ("Wound", "Red on the Chest")],
        ));
        let marked = mark_numbers(r, &["Orc 1".to_owned()]);
        let sealed = seal(marked, PLAYER, "Alys");
        assert_eq!(sealed.content, "Orc 1 rolls\nno digits");
        let e = &sealed.embeds[0];
        assert_eq!(e.description, "Orc 1 falls.");
        let names: Vec<&str> = e.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Wound"]);
        assert!(sealed.gm_copy.unwrap().all_text().contains("rating 19"));
    }

    #[test]
    fn an_open_table_sees_everything_without_marks() {
        let open = Viewer {
            gm: false,
            open: true,
        };
        let sealed = seal(attack(), open, "Alys");
        let text = sealed.all_text();
        assert!(text.contains("Weapon Skill (Claw) 23"));
        assert!(!sealed.has_npc_numbers());
        assert!(sealed.gm_copy.is_none() && sealed.caller_copy.is_none());
        assert_eq!(sealed.buttons.len(), 2);
    }
}
