//! The command model every use case shares: a slash command as a path and named options
//! ([`Invocation`]), the options checked against the names a command accepts ([`Opts`]), and the
//! roll mode ([`RollMode`]).
//!
//! The option names are the public interface (SPEC §2): the console types them, the bot passes
//! Discord's options through the same parser, so both front ends accept and refuse exactly the
//! same things. Each use-case family owns its typed command and parses its own options with
//! [`Opts`], which refuses unknown options and out-of-range numbers with a one-line answer.
//!
//! A leaf: it imports no use case and not the dispatcher ([`super::command`]), which imports it.

use std::str::FromStr;

use super::error::{AppResult, user};

/// A command as typed: its path (`["character", "create"]`) and its options in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Invocation {
    pub path: Vec<String>,
    pub options: Vec<(String, String)>,
}

impl Invocation {
    pub fn new(path: &[&str], options: &[(&str, &str)]) -> Self {
        Self {
            path: path.iter().map(|s| (*s).to_owned()).collect(),
            options: options
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// The value of an option, if given.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// "/character create", for messages.
    pub fn display_path(&self) -> String {
        format!("/{}", self.path.join(" "))
    }
}

/// How a roll is shown (SPEC §2, "Roll modes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RollMode {
    /// The channel sees it.
    #[default]
    Public,
    /// The roller sees it, and a copy goes to the GM channel.
    Private,
    /// Only the GM sees the result; the roller is told it was rolled.
    Blind,
    /// Only the roller sees it; it is still logged for the GM.
    #[serde(rename = "self")]
    SelfOnly,
}

impl RollMode {
    pub const NAMES: [&'static str; 4] = ["public", "private", "blind", "self"];

    pub fn store_mode(self) -> crate::store::rolls::Mode {
        use crate::store::rolls::Mode;
        match self {
            RollMode::Public => Mode::Public,
            RollMode::Private => Mode::Private,
            RollMode::Blind => Mode::Blind,
            RollMode::SelfOnly => Mode::SelfOnly,
        }
    }
}

impl FromStr for RollMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "public" => RollMode::Public,
            "private" => RollMode::Private,
            "blind" => RollMode::Blind,
            "self" => RollMode::SelfOnly,
            other => {
                return Err(format!(
                    "mode must be public, private, blind or self; you gave {other:?}"
                ));
            }
        })
    }
}

/// The options of one invocation, checked against the names a command accepts.
pub struct Opts<'a> {
    command: String,
    options: &'a [(String, String)],
}

impl<'a> Opts<'a> {
    /// Refuses any option not in `accepted`, naming the ones that are.
    pub fn new(inv: &'a Invocation, accepted: &[&str]) -> AppResult<Self> {
        let command = inv.display_path();
        for (name, _) in &inv.options {
            if !accepted.contains(&name.as_str()) {
                let list = if accepted.is_empty() {
                    "it takes no options".to_owned()
                } else {
                    format!("it accepts {}", accepted.join(", "))
                };
                return Err(user(format!("{command} has no option {name:?}; {list}.")));
            }
        }
        Ok(Self {
            command,
            options: &inv.options,
        })
    }

    /// An optional text option (empty counts as absent).
    pub fn text(&self, name: &str) -> Option<&'a str> {
        self.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }

    /// A required text option.
    pub fn required(&self, name: &str) -> AppResult<&'a str> {
        self.text(name).ok_or_else(|| {
            user(format!(
                "{} needs the option {name}, like {name}:value.",
                self.command
            ))
        })
    }

    /// An optional whole number within `min..=max`.
    pub fn int(&self, name: &str, min: i64, max: i64) -> AppResult<Option<i64>> {
        let Some(raw) = self.text(name) else {
            return Ok(None);
        };
        let value: i64 = raw.trim().trim_start_matches('+').parse().map_err(|_| {
            user(format!(
                "{name} must be a whole number between {min} and {max}; you gave {:?}",
                raw.trim()
            ))
        })?;
        if !(min..=max).contains(&value) {
            return Err(user(format!(
                "{name} must be between {min} and {max}; you gave {value}"
            )));
        }
        Ok(Some(value))
    }

    /// A required whole number within `min..=max`.
    pub fn required_int(&self, name: &str, min: i64, max: i64) -> AppResult<i64> {
        self.required(name)?;
        Ok(self.int(name, min, max)?.unwrap_or_default())
    }

    /// An optional true/false (true, false, yes, no, 1, 0); absent is false.
    pub fn flag(&self, name: &str) -> AppResult<bool> {
        match self.text(name).map(|v| v.trim().to_ascii_lowercase()) {
            None => Ok(false),
            Some(v) if matches!(v.as_str(), "true" | "yes" | "1" | "on") => Ok(true),
            Some(v) if matches!(v.as_str(), "false" | "no" | "0" | "off") => Ok(false),
            Some(v) => Err(user(format!(
                "{name} must be true or false; you gave {v:?}"
            ))),
        }
    }

    /// An optional value of a fixed menu.
    pub fn choice<T: FromStr<Err = String>>(&self, name: &str) -> AppResult<Option<T>> {
        self.text(name).map(|v| v.parse().map_err(user)).transpose()
    }

    /// The roll mode (public when absent).
    pub fn mode(&self) -> AppResult<RollMode> {
        Ok(self.choice("mode")?.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opts_refuse_unknown_options_and_bad_numbers() {
        let inv = Invocation::new(&["check"], &[("ratin", "4")]);
        let err = Opts::new(&inv, &["rating", "modifier"]).err().unwrap();
        assert!(
            err.to_string().contains("accepts rating, modifier"),
            "{err}"
        );

        let inv = Invocation::new(&["check"], &[("rating", "41"), ("modifier", "x")]);
        let o = Opts::new(&inv, &["rating", "modifier"]).unwrap();
        assert!(o.int("rating", -40, 40).is_err());
        assert!(o.int("modifier", -40, 40).is_err());
        let inv = Invocation::new(&["check"], &[("rating", "40"), ("modifier", "+2")]);
        let o = Opts::new(&inv, &["rating", "modifier"]).unwrap();
        assert_eq!(o.int("rating", -40, 40).unwrap(), Some(40));
        assert_eq!(o.int("modifier", -40, 40).unwrap(), Some(2));
        assert_eq!(o.int("absent", -40, 40).unwrap(), None);
        assert!(o.required("absent").is_err());
    }

    #[test]
    fn modes_parse_and_refuse() {
        assert_eq!("Blind".parse::<RollMode>(), Ok(RollMode::Blind));
        assert_eq!("self".parse::<RollMode>(), Ok(RollMode::SelfOnly));
        assert!("loud".parse::<RollMode>().is_err());
    }
}
