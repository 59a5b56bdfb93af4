//! The callers and the command runner the app's unit tests share: Ann and Bo, two players, and
//! a GM, in one guild; a command run as the bot would run it.
//!
//! Test code only. Must never hold state between tests: each test makes its own `App`.

use super::invocation::Invocation;
use super::reply::Reply;
use super::{App, Caller, Command};
use crate::store::{GuildId, UserId};

/// The guild every caller here is in.
pub const GUILD: GuildId = GuildId(1);

pub fn caller(user: u64, name: &str, gm: bool) -> Caller {
    Caller {
        guild: GUILD,
        user: UserId(user),
        name: name.into(),
        roles: vec![],
        manage_server: gm,
    }
}

pub fn ann() -> Caller {
    caller(10, "Ann", false)
}

pub fn bo() -> Caller {
    caller(11, "Bo", false)
}

pub fn gm() -> Caller {
    caller(1, "Referee", true)
}

/// Runs a command as the bot would: a refused parse is answered like any user error.
pub fn run(app: &App, who: &Caller, path: &[&str], opts: &[(&str, &str)]) -> Reply {
    match Command::parse(&Invocation::new(path, opts)) {
        Ok(command) => app.handle(who, "i1", command),
        Err(e) => Reply::ephemeral(e.to_string()),
    }
}
