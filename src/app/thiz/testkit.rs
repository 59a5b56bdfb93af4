//! Test helpers for the THIZ commands: a temporary database, seeded dice, callers and characters.

use tempfile::TempDir;

use crate::app::command::Command;
use crate::app::invocation::Invocation;
use crate::app::{App, Caller, Reply};
use crate::store::characters::{self, NewCharacter, WoundRow};
use crate::store::guilds::System;
use crate::store::secrets::GmProof;
use crate::store::{CharacterId, GuildId, UserId, rolls};

pub const GUILD: GuildId = GuildId(1);

/// A seed whose first d100s pass the predicates, in order: tests pick the dice they need and
/// name them as conditions on the rolls.
pub fn seed_for(preds: &[&dyn Fn(u32) -> bool]) -> u64 {
    use crate::rules::dice::{DieSource as _, SeededDice};
    (0..2_000_000u64)
        .find(|s| {
            let mut d = SeededDice::new(*s);
            preds.iter().all(|p| p(d.d100()))
        })
        .expect("a seed within two million")
}

pub struct Kit {
    _dir: TempDir,
    pub app: App,
}

// The callers are methods so tests read `kit.player()`, beside the kit they act on.
#[allow(clippy::unused_self)]
impl Kit {
    pub fn new(seed: u64) -> Kit {
        let (dir, app) = crate::app::temp_app(seed);
        Kit { _dir: dir, app }
    }

    fn caller(user: u64, name: &str, gm: bool) -> Caller {
        Caller {
            guild: GUILD,
            user: UserId(user),
            name: name.into(),
            roles: vec![],
            manage_server: gm,
        }
    }

    pub fn player_id(&self) -> UserId {
        UserId(10)
    }
    pub fn other_id(&self) -> UserId {
        UserId(11)
    }
    pub fn gm_id(&self) -> UserId {
        UserId(99)
    }
    pub fn player(&self) -> Caller {
        Self::caller(10, "Ann", false)
    }
    pub fn other(&self) -> Caller {
        Self::caller(11, "Bob", false)
    }
    pub fn gm(&self) -> Caller {
        Self::caller(99, "Gail", true)
    }

    /// Runs a command as `caller`; a parse error becomes its reply, as the front ends do.
    pub fn run(&self, caller: &Caller, path: &[&str], opts: &[(&str, &str)]) -> Reply {
        self.run_as(caller, "i1", path, opts)
    }

    /// [`Kit::run`] under a given interaction id (luck spends are idempotent per interaction).
    pub fn run_as(
        &self,
        caller: &Caller,
        interaction: &str,
        path: &[&str],
        opts: &[(&str, &str)],
    ) -> Reply {
        match Command::parse(&Invocation::new(path, opts)) {
            Ok(cmd) => self.app.handle(caller, interaction, cmd),
            Err(e) => Reply::ephemeral(e.to_string()),
        }
    }

    fn create(&self, name: &str, system: System, owner: UserId, npc: bool) -> CharacterId {
        let sheet = "{}";
        self.app
            .store
            .write(|tx| {
                characters::create(
                    tx,
                    GUILD,
                    &NewCharacter {
                        name,
                        system,
                        owner_id: owner,
                        npc,
                        sheet_json: sheet,
                    },
                )
            })
            .unwrap()
            .unwrap()
    }

    pub fn thiz(&self, name: &str, owner: UserId, npc: bool) -> CharacterId {
        self.create(name, System::Thiz, owner, npc)
    }

    pub fn tft(&self, name: &str, owner: UserId) -> CharacterId {
        let id = self.create(name, System::Tft, owner, false);
        self.sheet(id, r#"{"st": 10, "dx": 12, "iq": 10}"#);
        id
    }

    pub fn sheet(&self, id: CharacterId, json: &str) {
        self.app
            .store
            .write(|tx| characters::set_sheet(tx, GUILD, id, json))
            .unwrap();
    }

    pub fn skill(&self, id: CharacterId, skill: &str, rating: i64) {
        self.app
            .store
            .write(|tx| characters::set_skill(tx, GUILD, id, skill, rating))
            .unwrap();
    }

    pub fn item(&self, id: CharacterId, kind: &str, name: &str, stats: &str) {
        self.app
            .store
            .write(|tx| characters::add_item(tx, GUILD, id, kind, name, stats))
            .unwrap();
    }

    /// Adds one wound row (location and level as stored: "head", "yellow").
    pub fn wound(&self, id: CharacterId, location: &str, level: &str) {
        let mut rows = self.wounds(id);
        rows.push(WoundRow {
            location: location.into(),
            level: level.into(),
            count: 1,
        });
        self.app
            .store
            .write(|tx| characters::set_wounds(tx, GUILD, id, &rows))
            .unwrap();
    }

    pub fn wounds(&self, id: CharacterId) -> Vec<WoundRow> {
        self.app
            .store
            .read(|c| characters::wounds(c, GUILD, id))
            .unwrap()
    }

    pub fn hidden(&self, id: CharacterId, key: &str, value: &str) {
        self.app
            .store
            .write(|tx| {
                crate::store::secrets::set_hidden(tx, GmProof::verified(GUILD), id, key, value)
            })
            .unwrap();
    }

    pub fn roll_count(&self) -> usize {
        self.app
            .store
            .read(|c| rolls::recent(c, GUILD, None, None, 1000))
            .unwrap()
            .len()
    }

    /// The newest roll's stored result (the hidden one for blind rolls).
    pub fn last_roll_json(&self) -> Option<String> {
        self.app
            .store
            .read(|c| {
                let Some(row) = rolls::recent(c, GUILD, None, None, 1)?.pop() else {
                    return Ok(None);
                };
                if row.public_json.is_some() {
                    return Ok(row.public_json);
                }
                Ok(rolls::secret(c, GmProof::verified(GUILD), row.id)?.map(|s| s.result_json))
            })
            .unwrap()
    }
}
