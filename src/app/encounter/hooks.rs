//! What an attack in an encounter's channel takes from the encounter and gives back: the
//! attacker defaults to the figure whose turn it is, a player may not attack out of turn, the
//! target's declared options apply (THIZ Defend and Prone; TFT defending, dodging, and the
//! attacker's charge and multiple actions), and afterwards the round's hits are counted, Defend
//! is used up, and a figure that went down leaves the order. The other TFT commands tell it what
//! the fight counts: a spell cast or renewed (its upkeep timer), a crossbow shot (its reload
//! timer), hits from anything but an attack, an action such as picking a weapon up. Outside an
//! encounter every function here changes nothing.
//!
//! Seam: the one door of the encounter for the rolls that know it: THIZ's `/attack` and a fall's
//! stun (`app::thiz`), and TFT's attack, spells and actions (`app::tft`), call in here; the
//! encounter never calls them.

use super::loaded::{At, Loaded, load, load_as, save};
use super::state::TimeUnit;
use super::state::{Declared, Figure};
use crate::app::invocation::RollMode;
use crate::app::reply::{Field, Reply};
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::store::characters::{self, Character};
use crate::store::guilds::System;
use crate::store::{CharacterId, Conn};

/// The encounter under way in the caller's channel, if any.
pub(crate) fn here(ctx: &Ctx<'_>, conn: &Conn) -> AppResult<Option<(At, Loaded)>> {
    let Some(channel) = ctx.channel else {
        return Ok(None);
    };
    let at = At {
        guild: ctx.caller.guild,
        channel,
    };
    Ok(load(conn, at)?.filter(|l| !l.row.ended).map(|l| (at, l)))
}

/// Whether `who` is a figure of the TFT or THIZ fight under way in the caller's channel (begun
/// or not, while it has not ended): what takes hours, such as refilling a staff by
/// contemplation, waits for its end.
pub(crate) fn in_fight(ctx: &Ctx<'_>, conn: &Conn, who: CharacterId) -> AppResult<bool> {
    Ok(here(ctx, conn)?.is_some_and(|(_, l)| l.state.figure(who).is_some()))
}

/// [`here`] as stored: the figures' down flags as the last change left them, not yet read
/// again from the sheets (an attack's own hook takes its target out, in its own words).
fn here_as_stored(ctx: &Ctx<'_>, conn: &Conn) -> AppResult<Option<(At, Loaded)>> {
    let Some(channel) = ctx.channel else {
        return Ok(None);
    };
    let at = At {
        guild: ctx.caller.guild,
        channel,
    };
    Ok(load_as(conn, at, false)?
        .filter(|l| !l.row.ended)
        .map(|l| (at, l)))
}

/// The attacker's name: the one given, or the figure whose turn it is in this channel's
/// encounter, or, outside a fight under way, the caller's own character of the command's system.
pub(crate) fn attacker_name(ctx: &Ctx<'_>, conn: &Conn, given: &str) -> AppResult<String> {
    if !given.trim().is_empty() {
        return Ok(given.to_owned());
    }
    let current = here(ctx, conn)?.and_then(|(_, l)| l.state.current().cloned());
    // Outside a fight under way, the caller's own character of the command's system, as `/help`
    // and the README say (issue 59: the first attack a newcomer tried was refused here).
    let Some(f) = current else {
        return Ok(ctx.acting_character(conn, None)?.name);
    };
    // The figure whose turn it is may be another player's, or the GM's: say so, rather than
    // failing on a name the caller cannot use.
    if !super::may_act(ctx, &f) {
        return Err(user(format!(
            "It is {}'s turn, and {} is not your figure: attack when your figure's turn comes (the attacker defaults to whoever's turn it is).",
            escape(&f.name),
            escape(&f.name)
        )));
    }
    Ok(f.name)
}

/// The target of an attack by name: a character the caller may see, or, in this channel's
/// encounter, any figure of it (a player attacks the encounter's NPCs, whose numbers the
/// attack marks for the GM's screen, `app::screen`). A name that is neither gets the plain "no
/// character" answer, the same as an NPC outside the encounter.
pub(crate) fn target(ctx: &Ctx<'_>, conn: &Conn, name: &str) -> AppResult<Character> {
    let refusal = match ctx.find_character(conn, name) {
        Ok(c) => return Ok(c),
        Err(e) => e,
    };
    if ctx.is_gm() {
        return Err(refusal);
    }
    let Some((at, l)) = here(ctx, conn)? else {
        return Err(refusal);
    };
    let key = characters::name_key(name);
    let Some(f) = l
        .state
        .figures
        .iter()
        .find(|f| characters::name_key(&f.name) == key)
    else {
        return Err(refusal);
    };
    characters::by_id(conn, at.guild, f.id)?.ok_or(refusal)
}

/// The most targets one attack command takes (each is one attack, one embed in the message).
pub(crate) const MAX_TARGETS: usize = 5;

/// The targets an attack's `target` names: one name, or several separated by commas (a name
/// never holds a comma, `characters::fields::character_name`), each once.
pub(crate) fn target_list(raw: &str) -> AppResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for name in raw.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if out
            .iter()
            .any(|o| characters::name_key(o) == characters::name_key(name))
        {
            return Err(user(format!(
                "target names {} twice; name each target once.",
                escape(name)
            )));
        }
        out.push(name.to_owned());
    }
    if out.is_empty() {
        return Err(user(
            "Name the target: a character, or several separated by commas (\"Goblin 1, Goblin 2\").",
        ));
    }
    if out.len() > MAX_TARGETS {
        return Err(user(format!(
            "One attack command takes at most {MAX_TARGETS} targets; {} were named.",
            out.len()
        )));
    }
    Ok(out)
}

/// Refuses a player's attack (a blow, a bash, a missile spell) on another player's character
/// unless both are figures of this channel's encounter: a player acts on their own figure, and
/// on another's only in a fight the table is playing (SPEC §3), unless the table's switch
/// `players_strike_anywhere` allows it. A GM may roll anything; an NPC target is reached by a
/// player only inside an encounter already ([`target`]).
// Decision (issue 57: a player attacked another's character four times outside any fight, with
// no GM and no word to its player): refused, with the reason; a GM rolls it if the table wants.
pub(crate) fn may_strike(
    ctx: &Ctx<'_>,
    conn: &Conn,
    attacker: &Character,
    target: &Character,
) -> AppResult<()> {
    if ctx.is_gm() || target.npc || target.owner_id == ctx.caller.user {
        return Ok(());
    }
    if crate::app::house::house_rule(&ctx.settings, crate::app::house::PLAYERS_STRIKE_ANYWHERE) {
        return Ok(());
    }
    if let Some((_, l)) = here(ctx, conn)?
        && l.state.figure(attacker.id).is_some()
        && l.state.figure(target.id).is_some()
    {
        return Ok(());
    }
    Err(user(format!(
        "{} is another player's character: a player strikes another's only in an encounter of this channel that both are in (or a GM rolls it; /gm rules players_strike_anywhere lifts this). Nothing was rolled.",
        escape(&target.name)
    )))
}

/// Refuses a player's attack out of turn: the attacker is in the fight and it is someone
/// else's turn (a GM may resolve anything, a free action or a waited-for trigger).
fn in_turn(ctx: &Ctx<'_>, l: &Loaded, attacker: CharacterId) -> AppResult<()> {
    if ctx.is_gm() || !l.state.begun() || l.state.figure(attacker).is_none() {
        return Ok(());
    }
    match l.state.current() {
        Some(f) if f.id == attacker => Ok(()),
        Some(f) => Err(user(format!(
            "It is {}'s turn, not {}'s; attack on your own turn.",
            escape(&f.name),
            escape(l.state.figure(attacker).map_or("", |a| a.name.as_str()))
        ))),
        None => Err(user("Nobody has the turn in this encounter now.")),
    }
}

/// The timed effects that keep a figure from acting, by the name the tracker gives them
/// (`/encounter timer … what:`, a fall's stun), with what the sources say of each.
const BINDING: [(&str, &str); 6] = [
    // thiz-rulebook.md, chapter 9 "Falls": "Stunned characters may take no actions"; the TFT
    // house rules' HTH table stuns the defender too.
    ("stunned", "a stunned figure may take no actions"),
    ("unconscious", "an unconscious figure can do nothing"),
    ("knocked out", "a figure knocked out can do nothing"),
    ("asleep", "a sleeping figure can do nothing"),
    // tft-rules-summary.md, "STAND UP": a figure must take a turn to stand up before attacking.
    (
        "knocked down",
        "a figure knocked down must take a turn to stand up first",
    ),
    (
        "prone",
        "a figure lying down must take a turn to stand up first",
    ),
];

/// Why `who` may not act now in this fight, if it may not (names escaped for Discord): a timed effect that binds it (with
/// the turns or rounds left), or being down (out of the order: TFT's knocked down or out for the
/// round, THIZ's out of the fight). `None` for a figure not in the fight.
fn bound(l: &Loaded, who: CharacterId) -> Option<String> {
    let f = l.state.figure(who)?;
    for t in l.state.timed.iter().filter(|t| t.figure == who) {
        let what = t.what.trim().to_lowercase();
        if let Some((_, why)) = BINDING.iter().find(|(name, _)| *name == what) {
            let unit = match t.unit {
                TimeUnit::Turn => ("turn", "turns"),
                TimeUnit::Round => ("round", "rounds"),
            };
            return Some(format!(
                "{} is {} for {} more ({why}); the tracker counts it down",
                escape(&f.name),
                escape(&what),
                crate::app::text::count(t.left, unit.0, unit.1)
            ));
        }
    }
    (f.down && l.state.begun()).then(|| {
        format!(
            "{} is down and out of this round's order, so does not act now",
            escape(&f.name)
        )
    })
}

/// Refuses a player's action by a figure that may not act now ([`bound`]); a GM may rule
/// otherwise, and the after-hook's line says so ([`bound_call`]).
fn free_to_act(ctx: &Ctx<'_>, l: &Loaded, who: CharacterId) -> AppResult<()> {
    if ctx.is_gm() {
        return Ok(());
    }
    match bound(l, who) {
        Some(why) => Err(user(format!(
            "{why}. Nothing was rolled; a GM may rule otherwise."
        ))),
        None => Ok(()),
    }
}

/// The line a GM's action by a figure that may not act carries (SPEC §3); names escaped.
fn bound_call(l: &Loaded, who: CharacterId) -> Option<String> {
    bound(l, who).map(|why| format!("GM's call: {why}, yet it acts."))
}

/// The encounter's side of a THIZ attack.
#[derive(Debug, Clone, Default)]
pub(crate) struct ThizTurn {
    /// The target declared Defend and no attack has used it yet.
    pub defend: bool,
    /// The target lies Prone.
    pub prone: bool,
}

/// Before a THIZ attack: the turn check, one attack a turn, and the target's declared options.
/// `second` says the attack is a second weapon's (two-weapon fighting).
pub(crate) fn thiz_before(
    ctx: &Ctx<'_>,
    conn: &Conn,
    attacker: CharacterId,
    target: CharacterId,
    second: bool,
) -> AppResult<ThizTurn> {
    let Some((_, l)) = here(ctx, conn)? else {
        return Ok(ThizTurn::default());
    };
    if l.row.system != System::Thiz {
        return Ok(ThizTurn::default());
    }
    in_turn(ctx, &l, attacker)?;
    free_to_act(ctx, &l, attacker)?;
    if !ctx.is_gm() {
        thiz_one_attack(&l, attacker, second)?;
    }
    let t = l.state.figure(target);
    Ok(ThizTurn {
        defend: t.is_some_and(|t| t.declared == Some(Declared::Defend) && !t.defend_used),
        prone: t.is_some_and(|t| t.declared == Some(Declared::Prone)),
    })
}

/// THIZ allows one attack in a figure's turn (thiz-rulebook.md, "Determining Initiative and
/// Initiative Passes": a turn permits a single action), and two-weapon fighting one more, the
/// second weapon's ("Two-Weapon Fighting"). A player's second attack by the figure whose turn
/// it is is refused; an attack out of turn (a free action, a waited-for trigger, a second
/// weapon struck after the lowest initiative) counts nothing.
// Decision (issue 57, SPEC §3 "a GM may override anything, and the reply says so"): a GM's
// attack beyond the turn's one goes ahead, and its reply says it was the GM's call
// ([`gm_call`]); earlier the GM was held to it too.
fn thiz_one_attack(l: &Loaded, attacker: CharacterId, second: bool) -> AppResult<()> {
    let Some(f) = l.state.current().filter(|f| f.id == attacker) else {
        return Ok(());
    };
    let allowed = if second { 2 } else { 1 };
    if f.rolls_this_turn < allowed {
        return Ok(());
    }
    let name = escape(&f.name);
    Err(user(if second {
        format!(
            "{name} has made both attacks of two-weapon fighting this turn. /encounter next passes the turn."
        )
    } else {
        format!(
            "{name} has already acted this turn (an attack, a maneuver or a casting), and THIZ gives a turn one action. A second weapon's attack is pair:… second:true; otherwise /encounter next passes the turn."
        )
    }))
}

/// Before a THIZ action that is not an attack (a maneuver, a casting's check) in this channel's
/// THIZ fight: the turn check, an effect that binds the figure, and a player's second action in
/// the figure's turn refused (thiz-rulebook.md, "Determining Initiative and Initiative Passes":
/// a turn permits a single action).
pub(crate) fn thiz_act_before(ctx: &Ctx<'_>, conn: &Conn, who: CharacterId) -> AppResult<()> {
    let Some((_, l)) = here(ctx, conn)? else {
        return Ok(());
    };
    if l.row.system != System::Thiz {
        return Ok(());
    }
    in_turn(ctx, &l, who)?;
    free_to_act(ctx, &l, who)?;
    if !ctx.is_gm() {
        thiz_one_attack(&l, who, false)?;
    }
    Ok(())
}

/// After a THIZ action that is not an attack: the figure has acted in its turn; the lines for
/// the reply (a GM's call beyond the turn's action, or for a figure that may not act).
pub(crate) fn thiz_act_after(
    ctx: &Ctx<'_>,
    conn: &Conn,
    who: CharacterId,
) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here_as_stored(ctx, conn)? else {
        return Ok(Vec::new());
    };
    if l.row.system != System::Thiz {
        return Ok(Vec::new());
    }
    let mut lines: Vec<String> = bound_call(&l, who).into_iter().collect();
    if let Some(slot) = l.state.current_slot().filter(|s| s.figure == who)
        && let Some(a) = l.state.figure_mut(slot.figure)
    {
        lines.extend(gm_call(a, 1, "THIZ gives a turn one action"));
        a.rolls_this_turn += 1;
        save(conn, at, &l)?;
    }
    Ok(lines)
}

/// After a THIZ attack: the attacker has attacked in its turn, Defend is used up, and a target
/// now down leaves the order (a dying one is offered its dying check). Returns the lines for the
/// reply.
pub(crate) fn thiz_after(
    ctx: &Ctx<'_>,
    conn: &Conn,
    (attacker, target): (CharacterId, CharacterId),
    (used_defend, second): (bool, bool),
    condition: Option<&str>,
) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here_as_stored(ctx, conn)? else {
        return Ok(Vec::new());
    };
    let mut changed = false;
    let mut lines: Vec<String> = bound_call(&l, attacker).into_iter().collect();
    if l.row.system == System::Thiz
        && let Some(slot) = l.state.current_slot().filter(|s| s.figure == attacker)
        && let Some(a) = l.state.figure_mut(slot.figure)
    {
        lines.extend(gm_call(
            a,
            if second { 2 } else { 1 },
            "THIZ gives a turn one attack",
        ));
        a.rolls_this_turn += 1;
        changed = true;
    }
    let Some(f) = l.state.figure_mut(target) else {
        if changed {
            save(conn, at, &l)?;
        }
        return Ok(lines);
    };
    if used_defend {
        f.defend_used = true;
    }
    let name = f.name.clone();
    if let Some(condition) = condition
        && l.state.take_out(target)
    {
        let line = format!("{name} is {condition} and leaves the order.");
        lines.push(escape(&line));
        l.state.event(line);
    }
    if changed || used_defend || !lines.is_empty() {
        save(conn, at, &l)?;
    }
    Ok(lines)
}

/// The encounter's side of a TFT attack.
#[derive(Debug, Clone, Default)]
pub(crate) struct TftTurn {
    /// The target's declared defending or dodging.
    pub guard: Option<Declared>,
    /// The attacker declared a charge.
    pub charge: bool,
    /// The attacker took enough hits since its last action for −2 adjDX.
    pub hurt: bool,
    /// Hits the target took earlier this round.
    pub earlier_hits: i32,
    /// The penalty multiplier of the attacker's declared meta-option (multiple actions).
    pub multiplier: Option<u32>,
    /// Attack rolls the attacker made earlier this turn.
    pub rolls_this_turn: u32,
    /// The attacker is a figure of this channel's TFT encounter, which counts its rolls.
    pub counted: bool,
}

/// Before a TFT attack: the turn check, the declared options, the round's counts, and the
/// multiple-actions terms (an attack beyond the actions declared is refused for a player; an
/// `actions:` given must match the declared meta-option).
pub(crate) fn tft_before(
    ctx: &Ctx<'_>,
    conn: &Conn,
    attacker: CharacterId,
    target: CharacterId,
    (actions_given, shooting_twice): (Option<u32>, bool),
) -> AppResult<TftTurn> {
    let Some((at, l)) = here(ctx, conn)? else {
        return Ok(TftTurn::default());
    };
    if l.row.system != System::Tft {
        return Ok(TftTurn::default());
    }
    in_turn(ctx, &l, attacker)?;
    free_to_act(ctx, &l, attacker)?;
    let mut turn = TftTurn {
        counted: l.state.figure(attacker).is_some(),
        ..TftTurn::default()
    };
    if let Some(t) = l.state.figure(target) {
        turn.guard = t
            .declared
            .filter(|d| matches!(d, Declared::Defending | Declared::Dodging));
        turn.earlier_hits = t.hits_round;
    }
    let Some(a) = l.state.figure(attacker) else {
        return Ok(turn);
    };
    turn.charge = a.declared == Some(Declared::Charge);
    turn.rolls_this_turn = a.rolls_this_turn;
    if let Some(c) = crate::store::characters::by_id(conn, at.guild, attacker)? {
        let x = super::tft::facts(conn, &c)?;
        turn.hurt = super::tft::adj_dx_now(a, x)? < x.adj_dx;
    }
    if let Some(meta) = super::tft::meta_of(a) {
        if let Some(given) = actions_given
            && given != meta.multiplier
        {
            return Err(user(format!(
                "{} declared {} this round (penalty ×{}); actions:{given} does not match. Declare again with /encounter declare actions:….",
                escape(&a.name),
                crate::app::text::count(meta.actions, "action", "actions"),
                meta.multiplier
            )));
        }
        one_action(ctx, &l, a, Some(meta.actions), shooting_twice)?;
        turn.multiplier = (meta.multiplier > 0).then_some(meta.multiplier);
    } else if actions_given.is_some_and(|g| g > 0) && l.state.begun() {
        return Err(user(format!(
            "{} has not declared multiple actions this round: /encounter declare actions:2 (checked against the initiative sum) first.",
            escape(&a.name)
        )));
    } else {
        one_action(ctx, &l, a, None, shooting_twice)?;
    }
    Ok(turn)
}

/// TFT gives a figure one action in its turn (tft-rules-summary.md, the turn sequence: each
/// figure takes one action), more only as the multiple-actions variant's declared meta-option
/// allows (tft-multiple-actions.txt). A player's action beyond `allowed` by the figure whose
/// turn it is is refused; a GM's goes ahead, and its after-hook says so ([`gm_call`]). Before
/// the fight begins, or for a figure whose turn it is not (a player was refused that already by
/// [`in_turn`]), nothing is counted.
///
/// A bow fast enough to shoot twice (tft-rules-summary.md, "MISSILE WEAPONS": two shots a round
/// at the adjDX its row names) shoots both in one missile-weapon action: the second shot of a
/// turn whose first was also declared `shooting-twice` is one more roll, not one more action.
fn one_action(
    ctx: &Ctx<'_>,
    l: &Loaded,
    a: &Figure,
    meta: Option<u32>,
    shooting_twice: bool,
) -> AppResult<()> {
    if ctx.is_gm() || !l.state.begun() || l.state.current().is_none_or(|f| f.id != a.id) {
        return Ok(());
    }
    let second_shot = u32::from(shooting_twice && a.twice);
    match meta {
        Some(actions) if a.rolls_this_turn >= actions + second_shot => {
            Err(user(too_many(a, actions)))
        }
        None if a.rolls_this_turn > second_shot => Err(user(format!(
            "{} has already acted this turn, and TFT gives a figure one action a turn (more only with multiple actions declared: /encounter declare actions:2). /encounter next passes the turn.",
            escape(&a.name)
        ))),
        _ => Ok(()),
    }
}

/// The line a GM's action beyond what the figure's turn allows carries (SPEC §3: a GM may
/// override anything, and the reply says so), read before the action is counted; `None` for
/// one within the turn's allowance.
fn gm_call(a: &Figure, allowed: u32, rule: &str) -> Option<String> {
    (a.rolls_this_turn >= allowed).then(|| {
        format!(
            "GM's call: {} acts again this turn ({rule}; this is action {} of the turn).",
            escape(&a.name),
            a.rolls_this_turn + 1
        )
    })
}

/// What TFT allows a figure in its turn: its declared meta-option's actions, else one; and one
/// roll more for the second shot of a bow shooting twice ([`one_action`]).
fn tft_allowed(a: &Figure, shooting_twice: bool) -> u32 {
    super::tft::meta_of(a).map_or(1, |m| m.actions) + u32::from(shooting_twice && a.twice)
}

fn too_many(a: &Figure, actions: u32) -> String {
    format!(
        "{} declared {} this round and has taken {}.",
        escape(&a.name),
        crate::app::text::count(actions, "action", "actions"),
        if actions == 1 { "it" } else { "them all" }
    )
}

/// The encounter's side of a TFT spell: the multiple-actions terms of the caster's declared
/// meta-option (tft-multiple-actions.txt, "Action Segment": a spell among several actions
/// costs 4 IQ and one more die per step of the penalty multiplier).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TftCast {
    /// The penalty multiplier (0: one action, no penalty).
    pub multiplier: u32,
    /// IQ taken off for the spells the caster may cast.
    pub iq_penalty: i32,
}

/// The multiple-actions meta-option `who` declared for this turn, after the turn check, with
/// one more action than declared refused; `None` outside a TFT encounter (or, with
/// `only_begun`, before its fight begins), for a figure not in it, or with nothing declared.
fn declared_meta(
    ctx: &Ctx<'_>,
    conn: &Conn,
    who: CharacterId,
    only_begun: bool,
) -> AppResult<Option<crate::rules::tft::multi::MetaOption>> {
    let Some((_, l)) = here(ctx, conn)? else {
        return Ok(None);
    };
    if l.row.system != System::Tft || (only_begun && !l.state.begun()) {
        return Ok(None);
    }
    in_turn(ctx, &l, who)?;
    free_to_act(ctx, &l, who)?;
    let Some(a) = l.state.figure(who) else {
        return Ok(None);
    };
    let meta = super::tft::meta_of(a);
    one_action(ctx, &l, a, meta.map(|m| m.actions), false)?;
    Ok(meta)
}

/// Before a TFT action of a fight that is not an attack roll (a shield bash or rush, an attempt
/// to enter hand-to-hand): the turn check, an effect that binds the figure, and one action a
/// turn (more only as declared). Outside a TFT fight under way: nothing.
pub(crate) fn tft_act_before(ctx: &Ctx<'_>, conn: &Conn, who: CharacterId) -> AppResult<()> {
    declared_meta(ctx, conn, who, true).map(|_| ())
}

/// A TFT figure stood up (`/tft stand`, which takes its turn): a "knocked down" or "prone"
/// effect the tracker was counting for it ends with it, and the stand is the turn's action. The
/// lines for the reply.
pub(crate) fn tft_stood_up(ctx: &Ctx<'_>, conn: &Conn, who: CharacterId) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here_as_stored(ctx, conn)? else {
        return Ok(Vec::new());
    };
    if l.row.system != System::Tft {
        return Ok(Vec::new());
    }
    let Some(f) = l.state.figure(who).cloned() else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for what in ["knocked down", "prone"] {
        let on = l
            .state
            .timed
            .iter()
            .any(|t| t.figure == who && t.what.trim().to_lowercase() == what);
        if on {
            l.state.set_timed(&f, what, 0, TimeUnit::Turn);
            lines.push(format!("{}: {what} is over.", escape(&f.name)));
        }
    }
    let mut changed = !lines.is_empty();
    if l.state.begun()
        && l.state.current().is_some_and(|c| c.id == who)
        && let Some(a) = l.state.figure_mut(who)
    {
        a.rolls_this_turn += 1;
        changed = true;
    }
    // Saved only when something changed: a save moves the version on, and with it every
    // button of the status message.
    if changed {
        save(conn, at, &l)?;
    }
    Ok(lines)
}

/// Before a TFT spell: the turn check, and a cast beyond the actions declared refused.
pub(crate) fn tft_cast_before(
    ctx: &Ctx<'_>,
    conn: &Conn,
    caster: CharacterId,
) -> AppResult<TftCast> {
    let mut out = TftCast::default();
    if let Some(meta) = declared_meta(ctx, conn, caster, false)? {
        let terms = crate::rules::tft::multi::action_terms(
            crate::rules::tft::multi::Action::CastSpell,
            &meta,
        );
        out.multiplier = meta.multiplier;
        out.iq_penalty = terms.iq_penalty;
    }
    Ok(out)
}

/// Before a TFT roll that is one of the figure's actions in the fight (disbelieving, drawing a
/// dagger in hand-to-hand): the turn check, an action beyond those declared refused, and the
/// dice the multiple-actions variant adds to it (tft-multiple-actions.txt, "Other
/// roll-dependent actions roll two extra dice", per unit of the penalty multiplier). Outside
/// a TFT encounter, or with one action declared: no extra dice.
pub(crate) fn tft_action_before(
    ctx: &Ctx<'_>,
    conn: &Conn,
    who: CharacterId,
    action: crate::rules::tft::multi::Action,
) -> AppResult<u32> {
    Ok(declared_meta(ctx, conn, who, true)?.map_or(0, |meta| {
        crate::rules::tft::multi::action_terms(action, &meta).extra_dice
    }))
}

/// Before a TFT action with no roll that needs adjDX over the initiative sum under multiple
/// actions (picking up a dropped weapon: tft-multiple-actions.txt, "Action Requirements"): the
/// turn check, an action beyond those declared refused, and the requirement checked against
/// the figure's adjDX now. Outside a TFT fight under way, or with one action declared: nothing.
pub(crate) fn tft_plain_action_before(
    ctx: &Ctx<'_>,
    conn: &Conn,
    who: CharacterId,
    action: crate::rules::tft::multi::Action,
) -> AppResult<()> {
    let Some(meta) = declared_meta(ctx, conn, who, true)? else {
        return Ok(());
    };
    let Some((at, l)) = here(ctx, conn)? else {
        return Ok(());
    };
    let (Some(f), Some(c)) = (
        l.state.figure(who),
        crate::store::characters::by_id(conn, at.guild, who)?,
    ) else {
        return Ok(());
    };
    let sum = super::tft::sum(&l.state)
        .ok_or_else(|| user("The round's initiative is not rolled yet."))?;
    let adj_dx = super::tft::adj_dx_now(f, super::tft::facts(conn, &c)?)?;
    crate::rules::tft::multi::check_action(action, &meta, adj_dx, sum).map_err(|e| {
        user(format!(
            "{} cannot do that with {} declared: {e}.",
            escape(&f.name),
            crate::app::text::count(meta.actions, "action", "actions")
        ))
    })?;
    Ok(())
}

/// After a TFT spell (or another action with a roll, see [`tft_action_before`]) in the fight:
/// the figure has acted and taken one more of its actions. A continuing spell that took effect
/// (`upkeep`: its name and ST a round) is kept up by the tracker to the end of the round, with
/// a line for the reply saying so.
pub(crate) fn tft_cast_after(
    ctx: &Ctx<'_>,
    conn: &Conn,
    caster: CharacterId,
    upkeep: Option<(&str, u32)>,
) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here(ctx, conn)? else {
        return Ok(Vec::new());
    };
    if l.row.system != System::Tft || !l.state.begun() {
        return Ok(Vec::new());
    }
    let current = l.state.current().map(|f| f.id);
    let mut lines: Vec<String> = bound_call(&l, caster).into_iter().collect();
    let Some(a) = l.state.figure_mut(caster) else {
        return Ok(Vec::new());
    };
    if current == Some(caster) {
        lines.extend(gm_call(
            a,
            tft_allowed(a, false),
            "TFT gives a figure one action a turn",
        ));
    }
    a.rolls_this_turn += 1;
    a.hits_since = 0;
    let a = a.clone();
    if let Some((spell, st)) = upkeep {
        l.state.set_upkeep(&a, spell, st);
        lines.push(kept_up_line(&a.name, spell, st, l.state.round));
    }
    save(conn, at, &l)?;
    Ok(lines)
}

/// "Bladeturn lasts to the end of round 2; …": what the tracker does with a continuing spell.
fn kept_up_line(name: &str, spell: &str, st: u32, round: u32) -> String {
    format!(
        "{}'s {} lasts to the end of round {round}; renewing it costs {st} ST a round (the tracker asks when the round ends).",
        escape(name),
        escape(spell)
    )
}

/// The timer's name for a crossbow's reload.
fn reloading(weapon: &str) -> String {
    format!("reloading {weapon}")
}

/// Before a shot with a weapon that must be reloaded (a crossbow) in this channel's TFT fight:
/// refused while its reload is still counting down.
pub(crate) fn tft_reloading(
    ctx: &Ctx<'_>,
    conn: &Conn,
    shooter: CharacterId,
    weapon: &str,
) -> AppResult<()> {
    let Some((_, l)) = here(ctx, conn)? else {
        return Ok(());
    };
    if l.row.system != System::Tft {
        return Ok(());
    }
    let key = reloading(weapon).to_lowercase();
    match l
        .state
        .timed
        .iter()
        .find(|t| t.figure == shooter && t.what.to_lowercase() == key)
    {
        Some(t) => Err(user(format!(
            "{} is still reloading the {}: {} left, counting the turn it shot in (tft-rules-summary.md, \"MISSILE WEAPONS\"). A GM may end it early with /encounter timer what:{} count:0.",
            escape(&t.name),
            escape(weapon),
            crate::app::text::count(t.left, "turn", "turns"),
            escape(&t.what)
        ))),
        None => Ok(()),
    }
}

/// TFT: renewing a continuing spell that lapsed as this round began (tft-rules-summary.md,
/// "RENEW SPELLS"): refused outside a TFT fight under way, for a figure not in it, for a spell
/// still kept up this round, or for one that did not lapse this round. Keeps it up to the end
/// of this round and returns the line for the reply; the caller pays the ST.
///
/// Decision: the bot does not track the phases of a round, so a lapsed spell may be renewed
/// at any time in the round it lapsed; the table keeps it to the start of the round.
pub(crate) fn tft_renew(
    ctx: &Ctx<'_>,
    conn: &Conn,
    caster: CharacterId,
    spell: &str,
    st: u32,
) -> AppResult<String> {
    let not_here = || {
        user(
            "A spell is renewed in a TFT encounter under way, in the round it lapsed (the tracker lists it); outside one, the GM keeps the count.",
        )
    };
    let (at, mut l) = here(ctx, conn)?.ok_or_else(not_here)?;
    if l.row.system != System::Tft || !l.state.begun() {
        return Err(not_here());
    }
    let f = l.state.figure(caster).cloned().ok_or_else(not_here)?;
    let key = spell.trim().to_lowercase();
    let same = |t: &super::state::Timed| t.figure == caster && t.what.to_lowercase() == key;
    if l.state.timed.iter().any(same) {
        return Err(user(format!(
            "{}'s {} is kept up to the end of this round already; renew it when the tracker says it lapsed.",
            escape(&f.name),
            escape(spell)
        )));
    }
    if !l.state.lapsed.iter().any(same) {
        return Err(user(format!(
            "{}'s {} did not lapse this round, so there is nothing to renew: cast it (a spell not renewed when its round ends is gone).",
            escape(&f.name),
            escape(spell)
        )));
    }
    l.state.set_upkeep(&f, spell, st);
    let line = format!("{} renews {} for this round.", f.name, spell.trim());
    l.state.event(line.clone());
    save(conn, at, &l)?;
    Ok(escape(&line))
}

/// What a TFT attack did, for the encounter.
#[derive(Debug, Clone)]
pub(crate) struct TftBlow {
    pub attacker: CharacterId,
    pub target: CharacterId,
    /// Hits the target took.
    pub hits: i32,
    /// The target's ST (its reaction to injury reads it).
    pub target_st: i32,
    /// The target is knocked down or out.
    pub down: bool,
    /// The weapon shot must be reloaded: its name and the turns it takes, the shot's included
    /// (a crossbow, tft-rules-summary.md, "MISSILE WEAPONS").
    pub reload: Option<(&'static str, u32)>,
    /// The shot was declared one of two this turn (`adjust:shooting-twice`).
    pub shooting_twice: bool,
}

/// After a TFT attack: the attacker has acted (its hits since its last action start again)
/// and made one more roll this turn, and a crossbow it shot starts reloading; the target's
/// round count takes the hits, and a target knocked down or out leaves the order for the round.
pub(crate) fn tft_after(ctx: &Ctx<'_>, conn: &Conn, blow: &TftBlow) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here_as_stored(ctx, conn)? else {
        return Ok(Vec::new());
    };
    if l.row.system != System::Tft {
        return Ok(Vec::new());
    }
    let (attacker, target) = (blow.attacker, blow.target);
    let mut lines = Vec::new();
    let current = l.state.current().map(|f| f.id).filter(|_| l.state.begun());
    let bound_line = bound_call(&l, attacker);
    let mut call = None;
    if let Some(a) = l.state.figure_mut(attacker) {
        if current == Some(attacker) {
            call = gm_call(
                a,
                tft_allowed(a, blow.shooting_twice),
                "TFT gives a figure one action a turn",
            );
        }
        // The turn's first roll, declared one of two shots, lets a second shot follow.
        if a.rolls_this_turn == 0 {
            a.twice = blow.shooting_twice;
        }
        a.rolls_this_turn += 1;
        a.hits_since = 0;
        let a = a.clone();
        if let Some((weapon, turns)) = blow.reload.filter(|_| l.state.begun()) {
            l.state
                .set_timed(&a, &reloading(weapon), turns, super::state::TimeUnit::Turn);
            lines.push(format!(
                "{} reloads the {weapon}: ready to shoot again in {turns} turns, this one included.",
                a.name
            ));
        }
    }
    let settings = crate::store::guilds::get(conn, ctx.caller.guild)?;
    let house_rules = crate::app::house::house_rule(&settings, "tft_house_rules");
    lines.extend(super::tft::take_hits(
        &mut l.state,
        target,
        blow.hits,
        blow.target_st,
        house_rules,
    )?);
    if blow.down
        && let Some(name) = l.state.figure(target).map(|t| t.name.clone())
        && l.state.take_out(target)
    {
        lines.push(format!("{name} is down and does not act this round."));
    }
    for line in &lines {
        l.state.event(line.clone());
    }
    save(conn, at, &l)?;
    Ok(bound_line
        .into_iter()
        .chain(call)
        .chain(lines.iter().map(|l| escape(l)))
        .collect())
}

/// TFT: the hits a figure took earlier this round in this channel's fight (0 outside one), for
/// the cumulative knockdown of a blow that is not an attack (a missile spell).
pub(crate) fn tft_earlier_hits(ctx: &Ctx<'_>, conn: &Conn, who: CharacterId) -> AppResult<i32> {
    let Some((_, l)) = here(ctx, conn)? else {
        return Ok(0);
    };
    if l.row.system != System::Tft {
        return Ok(0);
    }
    Ok(l.state.figure(who).map_or(0, |f| f.hits_round))
}

/// TFT hits a figure took from anything but an attack's blow — a missile spell, its own fumble,
/// a GM's raise of its hits with `/tft condition` (a hazard applied by hand) — counted in the
/// round's hits and those since its last action, as an attack's are (tft-house-rules-combat.txt,
/// "Knockdown": hits "from any source"); `down` (knocked down or out by them) takes it out of
/// the order for the round. A `change` below 0 (a GM's correction down) takes that many off
/// both counts, never below 0. Returns the lines for the reply; outside a TFT fight under way,
/// nothing.
pub(crate) fn tft_hits(
    ctx: &Ctx<'_>,
    conn: &Conn,
    who: CharacterId,
    change: i64,
    st: i32,
    down: bool,
) -> AppResult<Vec<String>> {
    let Some((at, mut l)) = here_as_stored(ctx, conn)? else {
        return Ok(Vec::new());
    };
    if l.row.system != System::Tft || !l.state.begun() || change == 0 {
        return Ok(Vec::new());
    }
    let Some(f) = l.state.figure_mut(who) else {
        return Ok(Vec::new());
    };
    let change = change.clamp(-10_000, 10_000) as i32;
    let mut lines = Vec::new();
    if change < 0 {
        f.hits_round = (f.hits_round + change).max(0);
        f.hits_since = (f.hits_since + change).max(0);
    } else {
        let settings = crate::store::guilds::get(conn, ctx.caller.guild)?;
        let house_rules = crate::app::house::house_rule(&settings, "tft_house_rules");
        lines = super::tft::take_hits(&mut l.state, who, change, st, house_rules)?;
        if down
            && let Some(name) = l.state.figure(who).map(|t| t.name.clone())
            && l.state.take_out(who)
        {
            lines.push(format!("{name} is down and does not act this round."));
        }
    }
    for line in &lines {
        l.state.event(line.clone());
    }
    save(conn, at, &l)?;
    Ok(lines.iter().map(|l| escape(l)).collect())
}

/// Adds the encounter's lines to an attack's reply where its roller may read them: the
/// reply itself, or for a blind roll the GM's copy alone.
pub(crate) fn with_lines(mut reply: Reply, mode: RollMode, lines: &[String]) -> Reply {
    if lines.is_empty() {
        return reply;
    }
    let field = Field {
        name: "Encounter".to_owned(),
        value: lines.join("\n"),
        inline: false,
    };
    let add = |r: &mut Reply| {
        if let Some(e) = r.embeds.first_mut() {
            e.fields.push(field.clone());
        } else {
            if !r.content.is_empty() {
                r.content.push('\n');
            }
            r.content.push_str(&lines.join("\n"));
        }
    };
    let copied = reply.gm_copy.is_some();
    if let Some(copy) = reply.gm_copy.as_deref_mut() {
        add(copy);
    }
    // A GM's blind roll without a GM channel comes back whole to that GM (`Ctx::route`), so the
    // lines go with it; a player's blind reply (no embed: only that it was rolled) never has them.
    let gms_own_blind = !copied && !reply.embeds.is_empty();
    if mode != RollMode::Blind || gms_own_blind {
        add(&mut reply);
    }
    reply
}

/// A figure in the encounter under way in the caller's channel is stunned for `turns` of its
/// own turns (THIZ, a fall: thiz-rulebook.md, "Falling"), counted down by the tracker. Outside
/// an encounter, or for a character not in it, nothing changes.
pub(crate) fn stun(ctx: &Ctx<'_>, conn: &Conn, figure: CharacterId, turns: u32) -> AppResult<()> {
    let Some((at, mut l)) = here(ctx, conn)? else {
        return Ok(());
    };
    let Some(f) = l.state.figure(figure).cloned() else {
        return Ok(());
    };
    l.state.set_timed(&f, "stunned", turns, TimeUnit::Turn);
    save(conn, at, &l)?;
    Ok(())
}
