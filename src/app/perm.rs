//! Who may do what: the one place where the GM check is made.

use crate::store::guilds::GuildSettings;
use crate::store::secrets::GmProof;
use crate::store::{GuildId, UserId};

/// The person running a command, as the bot or the console knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub guild: GuildId,
    pub user: UserId,
    /// How replies name the caller (their display name; user text, escaped when shown).
    pub name: String,
    /// Role ids the member has in the guild.
    pub roles: Vec<u64>,
    /// Whether the member has the Manage Server permission.
    pub manage_server: bool,
}

/// The caller is not a GM of the guild.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("only a GM can do that (a member with the guild's GM role, or Manage Server)")]
pub struct NotGm;

impl Caller {
    /// Whether the caller is a GM: Manage Server, or the guild's configured GM role (SPEC §3).
    pub fn is_gm(&self, settings: &GuildSettings) -> bool {
        self.manage_server
            || settings
                .gm_role_id
                .is_some_and(|role| self.roles.contains(&role))
    }

    /// Verifies the caller is a GM and returns the proof that hidden-value reads require.
    pub fn gm(&self, settings: &GuildSettings) -> Result<GmProof, NotGm> {
        if self.is_gm(settings) {
            Ok(GmProof::verified(self.guild))
        } else {
            Err(NotGm)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(roles: Vec<u64>, manage_server: bool) -> Caller {
        Caller {
            guild: GuildId(1),
            user: UserId(2),
            name: "Tester".into(),
            roles,
            manage_server,
        }
    }

    #[test]
    fn gm_is_the_role_or_manage_server() {
        let mut settings = GuildSettings::default();
        assert!(caller(vec![], true).gm(&settings).is_ok());
        assert_eq!(caller(vec![7], false).gm(&settings).unwrap_err(), NotGm);
        settings.gm_role_id = Some(7);
        assert!(caller(vec![7], false).gm(&settings).is_ok());
        assert!(caller(vec![8], false).gm(&settings).is_err());
        assert_eq!(
            caller(vec![7], false).gm(&settings).unwrap().guild(),
            GuildId(1)
        );
    }
}
