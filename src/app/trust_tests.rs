//! Issue 32 across the command families: routing never claims a copy went where none did,
//! defaults follow the settings and the sheet, a player drinks their own potions, and sheets
//! are checked by the rules that apply to them. (The tracker's side is in
//! `encounter::tests::trust`.)

use super::invocation::Invocation;
use super::reply::{Reply, Visibility};
use super::{App, Caller, TEST_GM_CHANNEL, temp_app, temp_app_without_gm_channel};
use crate::store::{GuildId, UserId, rolls};

const G: GuildId = GuildId(1);
const ANN: u64 = 10;
const BOB: u64 = 11;
const GM: u64 = 99;

struct T {
    _dir: tempfile::TempDir,
    app: App,
}

fn caller(user: u64) -> Caller {
    Caller {
        guild: G,
        user: UserId(user),
        name: format!("user {user}"),
        roles: vec![],
        manage_server: user == GM,
    }
}

impl T {
    /// A guild set up with a GM channel, or (`false`) one that never set it.
    fn new(gm_channel: bool) -> T {
        let (dir, app) = if gm_channel {
            temp_app(5)
        } else {
            let (dir, app) = temp_app_without_gm_channel(5);
            // Vexa strikes Bran outside a fight here, as on `temp_app`'s table.
            app.store
                .write(|tx| {
                    let mut s = crate::store::guilds::get(tx, crate::store::GuildId(1))?;
                    s.rules
                        .insert(crate::app::house::PLAYERS_STRIKE_ANYWHERE.to_owned(), true);
                    crate::store::guilds::put(tx, crate::store::GuildId(1), &s)
                })
                .unwrap();
            (dir, app)
        };
        T { _dir: dir, app }
    }

    // `Err` is the refusal as a reply, as `App::run` gives it.
    #[allow(clippy::result_large_err)]
    fn run(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> Result<Reply, Reply> {
        self.app
            .run_in(Some(1), &caller(user), "i", &Invocation::new(path, opts))
    }

    fn ok(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> Reply {
        self.run(user, path, opts)
            .unwrap_or_else(|e| panic!("{path:?} {opts:?} refused: {}", e.content))
    }

    /// A refusal: ephemeral, one line, and nothing rolled.
    fn refused(&self, user: u64, path: &[&str], opts: &[(&str, &str)]) -> String {
        let before = self.rolls();
        let r = self
            .run(user, path, opts)
            .err()
            .unwrap_or_else(|| panic!("{path:?} {opts:?} was accepted"));
        assert_eq!(r.visibility, Visibility::Ephemeral, "{r:?}");
        assert!(!r.content.contains('\n'), "one line: {}", r.content);
        assert_eq!(self.rolls(), before, "a refusal logged a roll");
        r.content
    }

    fn rolls(&self) -> usize {
        self.app
            .store
            .read(|c| rolls::recent(c, G, None, None, 1000))
            .unwrap()
            .len()
    }

    /// Ann's THIZ Vexa and TFT Tor, Bob's THIZ Bran and TFT Brom.
    fn party(&self) {
        for (user, name, system) in [
            (ANN, "Vexa", "thiz"),
            (ANN, "Tor", "tft"),
            (BOB, "Bran", "thiz"),
            (BOB, "Brom", "tft"),
        ] {
            self.ok(
                user,
                &["character", "create"],
                &[("name", name), ("system", system)],
            );
        }
        for (name, field, value) in [("Tor", "st", "12"), ("Brom", "st", "12")] {
            self.ok(
                GM,
                &["character", "set"],
                &[("name", name), ("field", field), ("value", value)],
            );
        }
    }
}

/// A command as typed: its path and options.
type Typed = (&'static [&'static str], Vec<(&'static str, &'static str)>);

/// The commands with a mode, as a player rolls them.
fn rolled_by_a_player() -> Vec<Typed> {
    vec![
        (&["roll"], vec![("expression", "1d6")]),
        (&["check"], vec![("rating", "3")]),
        (&["attack"], vec![("attacker", "Vexa"), ("target", "Bran")]),
        (&["tft", "save"], vec![("attribute", "dx"), ("dice", "3")]),
        (
            &["tft", "attack"],
            vec![("attacker", "Tor"), ("target", "Brom")],
        ),
    ]
}

/// Issue 32, "Routing never lies": without a GM channel a player's private and blind rolls are
/// refused with the fix and change nothing; with one they go, and their copy is addressed to it.
/// Public and self rolls need no channel.
#[test]
fn a_players_private_and_blind_rolls_need_a_gm_channel() {
    for gm_channel in [false, true] {
        let t = T::new(gm_channel);
        t.party();
        for (path, opts) in rolled_by_a_player() {
            for mode in ["private", "blind"] {
                let mut opts = opts.clone();
                opts.push(("mode", mode));
                if gm_channel {
                    let r = t.ok(ANN, path, &opts);
                    assert_eq!(r.visibility, Visibility::Ephemeral, "{path:?} {mode}");
                    assert!(r.gm_copy.is_some(), "{path:?} {mode}: {r:?}");
                    assert_eq!(r.gm_channel, Some(TEST_GM_CHANNEL));
                } else {
                    let refused = t.refused(ANN, path, &opts);
                    assert!(
                        refused.starts_with("No GM channel is set here, so")
                            && refused.contains("/gm setup gm_channel:"),
                        "{path:?} {mode}: {refused}"
                    );
                }
            }
            for mode in ["public", "self"] {
                let mut opts = opts.clone();
                opts.push(("mode", mode));
                let r = t.ok(ANN, path, &opts);
                assert!(r.gm_copy.is_none(), "{path:?} {mode}: {r:?}");
            }
        }
    }
}

/// A GM's own private or blind roll without a GM channel goes to the GM alone, and says so
/// (the result too, for a blind one: the GM is the one who sees it); with a channel, the copy
/// goes there.
#[test]
fn a_gms_own_hidden_roll_without_a_gm_channel_says_it_went_to_them() {
    let t = T::new(false);
    let private = t.ok(GM, &["roll"], &[("expression", "1d6"), ("mode", "private")]);
    assert_eq!(private.visibility, Visibility::Ephemeral);
    assert!(private.gm_copy.is_none() && private.caller_copy.is_none());
    assert!(
        private
            .content
            .contains("this private roll went to you alone"),
        "{private:?}"
    );
    assert!(!private.embeds.is_empty());
    let blind = t.ok(GM, &["roll"], &[("expression", "1d6"), ("mode", "blind")]);
    assert_eq!(blind.visibility, Visibility::Ephemeral);
    assert!(blind.gm_copy.is_none());
    assert!(
        blind.content.contains("the result is shown to you alone"),
        "{blind:?}"
    );
    assert!(blind.all_text().contains("Total"), "{blind:?}");
    // `/gm check` rolls blind from the sheet and shows the GM alone, channel or not.
    t.ok(
        ANN,
        &["character", "create"],
        &[("name", "Vexa"), ("system", "thiz")],
    );
    let secret = t.ok(
        GM,
        &["gm", "check"],
        &[("character", "Vexa"), ("skill", "Speed")],
    );
    assert_eq!(secret.visibility, Visibility::Ephemeral);
    assert!(
        secret
            .content
            .starts_with("Secret roll for Vexa: only you see it"),
        "{secret:?}"
    );
    assert!(!secret.embeds.is_empty() && secret.gm_copy.is_none());
    let t = T::new(true);
    let private = t.ok(GM, &["roll"], &[("expression", "1d6"), ("mode", "private")]);
    assert!(private.gm_copy.is_some());
    assert!(!private.content.contains("alone"), "{private:?}");
}

/// `/gm roll`: the channel sees the commitment; the result goes to the GM channel, or without
/// one to the GM who rolled, ephemerally, saying so.
#[test]
fn a_gm_roll_without_a_gm_channel_shows_the_result_to_the_gm_alone() {
    let t = T::new(false);
    let r = t.ok(GM, &["gm", "roll"], &[("expression", "1d6+100")]);
    assert_eq!(r.visibility, Visibility::Public);
    assert!(r.gm_copy.is_none(), "{r:?}");
    // The channel's message is the commitment alone.
    assert!(
        !r.embeds
            .iter()
            .any(|e| e.fields.iter().any(|f| f.name == "Total")),
        "{r:?}"
    );
    let mine = r.caller_copy.as_deref().expect("the result, for the GM");
    assert_eq!(mine.visibility, Visibility::Ephemeral);
    assert!(mine.content.contains("shown to you alone"), "{mine:?}");
    assert!(mine.all_text().contains("Total"), "{mine:?}");
    let t = T::new(true);
    let r = t.ok(GM, &["gm", "roll"], &[("expression", "1d6+100")]);
    assert!(r.caller_copy.is_none());
    let copy = r.gm_copy.as_deref().expect("the GM channel's copy");
    assert!(copy.content.contains("for GMs only"), "{copy:?}");
    assert_eq!(r.gm_channel, Some(TEST_GM_CHANNEL));
}

/// `/gm request` with a private or blind mode is refused when the GM asks, without a GM
/// channel; a press of a request whose channel was since cleared is refused and claims
/// nothing, so it can be pressed again once a channel is set.
#[test]
fn hidden_roll_requests_need_a_gm_channel() {
    let t = T::new(false);
    t.party();
    let ask = |mode: &'static str| [("characters", "Vexa"), ("skill", "Speed"), ("mode", mode)];
    for mode in ["private", "blind"] {
        let r = t.refused(GM, &["gm", "request"], &ask(mode));
        assert!(r.contains("/gm setup gm_channel:"), "{r}");
    }
    t.ok(GM, &["gm", "request"], &ask("public"));
    let t = T::new(true);
    t.party();
    t.ok(GM, &["gm", "request"], &ask("blind"));
    t.ok(GM, &["gm", "setup"], &[("clear", "gm_channel")]);
    let vexa = t
        .app
        .store
        .read(|c| crate::store::characters::by_name(c, G, "Vexa"))
        .unwrap()
        .unwrap()
        .id;
    let press = format!("req:1:{}", vexa.0);
    let r = t.refused(ANN, &["button"], &[("id", &press)]);
    assert!(r.contains("No GM channel is set here"), "{r}");
    t.ok(GM, &["gm", "setup"], &[("gm_channel", "777")]);
    let r = t.ok(ANN, &["button"], &[("id", &press)]);
    assert_eq!(r.gm_channel, Some(777), "{r:?}");
}

/// A luck reroll keeps its roll's mode: a private roll made while a GM channel was set, rerolled
/// after it was cleared, says no copy went to a GM rather than claiming one did.
#[test]
fn a_reroll_after_the_channel_is_cleared_says_where_it_went() {
    let t = T::new(true);
    t.ok(
        ANN,
        &["character", "create"],
        &[("name", "Vexa"), ("system", "thiz")],
    );
    t.ok(
        GM,
        &["luck", "set"],
        &[("character", "Vexa"), ("points", "3")],
    );
    t.ok(
        ANN,
        &["check"],
        &[
            ("skill", "Speed"),
            ("character", "Vexa"),
            ("mode", "private"),
        ],
    );
    t.ok(GM, &["gm", "setup"], &[("clear", "gm_channel")]);
    let r = t.ok(ANN, &["luck", "spend"], &[("kind", "reroll")]);
    assert_eq!(r.visibility, Visibility::Ephemeral);
    assert!(r.gm_copy.is_none(), "{r:?}");
    assert!(
        r.content
            .contains("no copy of this private roll went to a GM"),
        "{r:?}"
    );
}

/// Issue 32: `/character create` without `system` takes the server's default (THIZ until a GM
/// sets one) and says so; a system given is used as given.
#[test]
fn character_create_takes_the_servers_default_system() {
    let t = T::new(true);
    let thiz = t.ok(ANN, &["character", "create"], &[("name", "Ula")]);
    let text = thiz.all_text();
    assert!(
        text.contains(
            "A new THIZ character (the server's default system; system:tft makes the other kind)"
        ),
        "{text}"
    );
    t.ok(GM, &["gm", "setup"], &[("system", "tft")]);
    let tft = t.ok(ANN, &["character", "create"], &[("name", "Kit")]);
    assert!(
        tft.all_text()
            .contains("A new TFT character (the server's default system"),
        "{}",
        tft.all_text()
    );
    let named = t.ok(
        ANN,
        &["character", "create"],
        &[("name", "Gala"), ("system", "thiz")],
    );
    assert!(named.all_text().contains("A new THIZ character."));
    let kit = t
        .app
        .store
        .read(|c| crate::store::characters::by_name(c, G, "Kit"))
        .unwrap()
        .unwrap();
    assert_eq!(kit.system, crate::store::guilds::System::Tft);
}

/// A player with one character of each system names neither: a THIZ command takes the THIZ one
/// and a TFT command the TFT one, whichever was used last; a player with none of the system is
/// told so.
#[test]
fn a_player_with_one_character_of_the_system_need_not_name_it() {
    let t = T::new(true);
    t.party();
    for _ in 0..2 {
        let check = t.ok(ANN, &["check"], &[("skill", "Speed")]);
        assert!(check.all_text().contains("Vexa"), "{}", check.all_text());
        let save = t.ok(ANN, &["tft", "save"], &[("attribute", "dx"), ("dice", "3")]);
        assert!(save.all_text().contains("Tor"), "{}", save.all_text());
        // `/wound rest` (and `dying`) take the THIZ one too: Vexa has nothing to rest off.
        let rest = t.refused(ANN, &["wound", "rest"], &[]);
        assert!(rest.starts_with("Vexa has no wounds"), "{rest}");
    }
    t.ok(
        GM,
        &["character", "create"],
        &[("name", "Solo"), ("system", "thiz")],
    );
    let t2 = T::new(true);
    t2.ok(
        ANN,
        &["character", "create"],
        &[("name", "Only"), ("system", "thiz")],
    );
    let r = t2.refused(ANN, &["tft", "save"], &[("attribute", "dx"), ("dice", "3")]);
    assert!(
        r.starts_with("You have no TFT character to use here"),
        "{r}"
    );
}

/// Issue 32: the maneuvers, the TFT shield bash and `/encounter add` take the player's own
/// character of the system when none is named, like every other command.
#[test]
fn maneuvers_bashes_and_joining_a_fight_need_no_name_either() {
    let t = T::new(true);
    t.party();
    let listen = t.ok(ANN, &["maneuver", "listen"], &[]);
    assert!(listen.all_text().contains("Vexa"), "{}", listen.all_text());
    let trip = t.ok(ANN, &["maneuver", "trip"], &[("target", "Bran")]);
    assert!(trip.all_text().contains("Vexa"), "{}", trip.all_text());
    t.ok(
        GM,
        &["character", "set"],
        &[
            ("name", "Tor"),
            ("field", "shield"),
            ("value", "small shield"),
        ],
    );
    let bash = t.run(ANN, &["tft", "bash"], &[("target", "Brom")]);
    let text = match &bash {
        Ok(r) | Err(r) => r.all_text(),
    };
    assert!(text.contains("Tor"), "the bash is Tor's: {text}");
    t.ok(
        GM,
        &["encounter", "start"],
        &[("system", "tft"), ("surprise", "none")],
    );
    let joined = t.ok(ANN, &["encounter", "add"], &[]);
    assert!(joined.all_text().contains("Tor"), "{}", joined.all_text());
    let none = t.refused(GM, &["encounter", "add"], &[]);
    assert!(none.contains("no TFT character of your own"), "{none}");
}

/// tft-rules-summary.md, "EQUIPMENT" (a healing potion restores 4): a player's awake figure
/// drinks its own potions, the "Healing Potion" items on its sheet, which are used up; not
/// another player's figure's, not more than it carries, not out cold, and nothing but potions.
/// A GM's potions come from no sheet.
#[test]
fn a_player_drinks_their_own_figures_potions() {
    let t = T::new(true);
    t.party();
    // `Err` is the refusal as a reply, as `App::run` gives it.
    #[allow(clippy::result_large_err)]
    let heal = |user, opts: &[(&str, &str)]| t.run(user, &["tft", "heal"], opts);
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Tor"), ("hits", "6")],
    );
    let one = [("character", "Tor"), ("potions", "1")];
    let none = heal(ANN, &one).unwrap_err().content;
    assert!(none.contains("Tor carries 0 healing potions"), "{none}");
    t.ok(
        ANN,
        &["character", "gear"],
        &[
            ("name", "Tor"),
            ("action", "add"),
            ("item", "Healing Potion"),
        ],
    );
    let bob = heal(BOB, &one).unwrap_err().content;
    assert!(bob.contains("belongs to another player"), "{bob}");
    let hits = heal(ANN, &[("character", "Tor"), ("hits", "2")])
        .unwrap_err()
        .content;
    assert!(hits.starts_with("Only a GM heals hits"), "{hits}");
    let drunk = heal(ANN, &one).unwrap();
    let text = drunk.all_text();
    assert!(
        text.contains("1 healing potion (4 hits), drunk from the sheet"),
        "{text}"
    );
    assert!(text.contains("Hits 6 → 2"), "{text}");
    let again = heal(ANN, &one).unwrap_err().content;
    assert!(again.contains("Tor carries 0 healing potions"), "{again}");
    // Out cold (ST 12, 12 hits): someone else gives the potion.
    t.ok(
        GM,
        &["tft", "condition"],
        &[("character", "Tor"), ("hits", "12")],
    );
    t.ok(
        ANN,
        &["character", "gear"],
        &[
            ("name", "Tor"),
            ("action", "add"),
            ("item", "Healing Potion"),
        ],
    );
    let cold = heal(ANN, &one).unwrap_err().content;
    assert!(cold.contains("out cold at 0 ST and cannot drink"), "{cold}");
    let gm = heal(GM, &[("character", "Brom"), ("potions", "1")]);
    assert!(gm.is_err(), "Brom is unhurt: {gm:?}");
    let gm = heal(GM, &one).unwrap();
    assert!(!gm.all_text().contains("drunk from the sheet"));
}

fn validate(t: &T, user: u64, name: &str) -> String {
    t.ok(user, &["character", "validate"], &[("name", name)])
        .all_text()
}

/// tft-rules-summary.md, "WEAPONS": a Longbow needs ST 11. `/character validate` flags it on a
/// ST 10 figure and not on a ST 11 one.
#[test]
fn validate_flags_a_weapon_the_figure_is_too_weak_for() {
    let t = T::new(true);
    t.party();
    t.ok(
        ANN,
        &["character", "gear"],
        &[
            ("name", "Tor"),
            ("action", "add"),
            ("item", "Longbow"),
            ("kind", "weapon"),
        ],
    );
    for (st, flagged) in [("10", true), ("11", false)] {
        t.ok(
            GM,
            &["character", "set"],
            &[("name", "Tor"), ("field", "st"), ("value", st)],
        );
        let text = validate(&t, ANN, "Tor");
        assert_eq!(
            text.contains("Longbow: needs ST 11 and the sheet has ST 10"),
            flagged,
            "ST {st}: {text}"
        );
    }
}

/// NPC sheets are checked by the rules every figure keeps, not a player character's creation
/// rules: a TFT NPC of IQ 6 is not told IQ must be at least 8, and a blank THIZ NPC is not told
/// to spend its 20 points; a player's character is, in both systems.
#[test]
fn npc_sheets_are_checked_by_npc_rules() {
    let t = T::new(true);
    for (user, npc) in [(ANN, "false"), (GM, "true")] {
        let (tft, thiz) = if npc == "true" {
            ("Ogre", "Ghoul")
        } else {
            ("Tam", "Tess")
        };
        t.ok(
            user,
            &["character", "create"],
            &[("name", tft), ("system", "tft"), ("npc", npc)],
        );
        t.ok(
            user,
            &["character", "create"],
            &[("name", thiz), ("system", "thiz"), ("npc", npc)],
        );
        t.ok(
            GM,
            &["character", "set"],
            &[("name", tft), ("field", "iq"), ("value", "6")],
        );
        let is_player = npc == "false";
        let tft_text = validate(&t, user, tft);
        assert_eq!(
            tft_text.contains("IQ must be at least 8"),
            is_player,
            "{tft}: {tft_text}"
        );
        let thiz_text = validate(&t, user, thiz);
        assert_eq!(
            thiz_text.contains("points must go to hard skills"),
            is_player,
            "{thiz}: {thiz_text}"
        );
    }
}
