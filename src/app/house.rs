//! The guild's house-rule switches: their names, defaults and what each does, and whether one is
//! on in a guild. `/gm rules` sets them ([`super::gm`]); the TFT commands, the encounter, THIZ's
//! attack and the GM's screen read them.
//!
//! A leaf every family may import: it imports no use case.

use crate::store::guilds::GuildSettings;

/// One house-rule switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HouseRule {
    pub name: &'static str,
    pub default: bool,
    /// What turning it on does, for the GM.
    pub about: &'static str,
}

/// The house-rule switches a GM can turn on and off, with their defaults.
pub const HOUSE_RULES: [HouseRule; 7] = [
    HouseRule {
        name: "tft_house_rules",
        default: true,
        about: "Bill Seurer's house rules for The Fantasy Trip",
    },
    HouseRule {
        name: "tft_four_dice_specials",
        default: false,
        about: "on 4 dice (defending, dodging), read a 4 as triple and a 5 as double damage",
    },
    HouseRule {
        name: "tft_generalize_beyond_four",
        default: true,
        about: "extend the to-hit table past four dice",
    },
    HouseRule {
        name: PLAYERS_STRIKE_ANYWHERE,
        default: false,
        about: "let a player attack another player's character outside an encounter both are in (off: refused; a GM may roll it)",
    },
    HouseRule {
        name: SHEETS_LOCK_WHEN_APPROVED,
        default: true,
        about: "once a GM approves a sheet (/character approve), its player changes attributes, traits and skills only through /advance; a GM changes anything",
    },
    HouseRule {
        name: NPC_NUMBERS_OPEN,
        default: false,
        about: "play open: show the players every NPC number (ratings, skills, ST, DX, adjDX) in rolls for or against NPCs",
    },
    HouseRule {
        name: TURN_PINGS,
        default: true,
        about: "when a player's figure's turn comes in an encounter, mention that player once (no one else; NPC turns ping nobody)",
    },
];

/// The switch that pings a player when their figure's turn comes (on by default, as Avrae's
/// tracker does; see `encounter::next`).
pub const TURN_PINGS: &str = "turn_pings";

/// The switch of a table that plays open: NPC numbers shown to everyone (off: the GM's alone,
/// see [`super::screen`]).
pub const NPC_NUMBERS_OPEN: &str = "npc_numbers_open";

/// The switch of a table where players may attack each other's characters anywhere (off, the
/// default: only inside an encounter of the channel both are in; see
/// `encounter::hooks::may_strike`).
pub const PLAYERS_STRIKE_ANYWHERE: &str = "players_strike_anywhere";

/// The switch that holds an approved sheet (see `characters::edit::approve`): on by default,
/// so a server that never set it locks a sheet as soon as a GM approves one.
pub const SHEETS_LOCK_WHEN_APPROVED: &str = "sheets_lock_when_approved";

/// Whether a house rule is on in this guild (its default when never set). Unknown names are off.
pub fn house_rule(settings: &GuildSettings, name: &str) -> bool {
    HOUSE_RULES
        .iter()
        .find(|r| r.name == name)
        .is_some_and(|r| settings.rules.get(name).copied().unwrap_or(r.default))
}
