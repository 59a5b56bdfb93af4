//! Spending luck: a reroll of a logged check, a lowered wound, a stunt.
//!
//! One write transaction per spend: find and check the roll, then the conditional decrement with
//! its idempotency key (`store::secrets::spend_luck`), the rules' spend (stunt roll, Luck
//! Everlasting), marking the roll as used and applying the effect. Any refusal after the
//! decrement rolls it all back. The player's reply never holds a total; the GM copy does.

use serde_json::json;

use super::logged::{self, ATTACK_COMMANDS, CHECK_COMMANDS, RerollableCheck};
use super::{SpendKind, button_id};
use crate::app::command::RollMode;
use crate::app::context::DiceGuard;
use crate::app::reply::{Button, Embed, Field, Reply, Tone};
use crate::app::sheet::Sheet;
use crate::app::text::escape;
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::dice::DieSource as _;
use crate::rules::thiz::check::{CheckOutcome, resolve_check};
use crate::rules::thiz::luck::{self as rules_luck, HiddenLuck, LuckUse, PlayerView, SpendOutcome};
use crate::rules::thiz::traits::Quirk;
use crate::rules::thiz::{Level, Location};
use crate::store::characters::{self, Character};
use crate::store::guilds::System;
use crate::store::rolls::{self, Mode, NewRoll, RollRow};
use crate::store::secrets::{self, LedgerEntry, LuckKind, Spend};
use crate::store::{Conn, RollId};

/// How far back a wound is looked for when no roll is named.
const WOUND_LOOKBACK: u32 = 200;

/// One spend, from the command or a button.
pub(super) struct Request<'a> {
    pub kind: SpendKind,
    pub character: Option<&'a str>,
    pub points: u32,
    pub roll: Option<RollId>,
    /// Pressed as a button: only the owner may press it.
    pub pressed: bool,
    /// The idempotency key.
    pub key: &'a str,
}

pub(super) fn run(ctx: &Ctx<'_>, req: &Request<'_>) -> AppResult<Reply> {
    ctx.app.store.write(|tx| {
        // Taken inside the transaction, so whoever holds the dice also holds the write lock.
        let mut dice = ctx.dice();
        match req.kind {
            SpendKind::Reroll => reroll(ctx, tx, &mut dice, req),
            SpendKind::Wound => wound(ctx, tx, &mut dice, req),
            SpendKind::Stunt => stunt(ctx, tx, &mut dice, req),
        }
    })
}

// ---- Shared steps ------------------------------------------------------------------------------

/// What a spend attempt came to.
enum Spent {
    Done(Box<Done>),
    /// Nothing to spend; nothing was written.
    NoLuck,
    /// This key was used already; nothing was written.
    Duplicate,
}

struct Done {
    outcome: SpendOutcome,
    /// Lines for the GM copy: the totals and every secret roll.
    gm_lines: Vec<String>,
}

fn thiz_only(c: &Character) -> AppResult<()> {
    if c.system == System::Thiz {
        Ok(())
    } else {
        Err(user(format!(
            "Luck points are a THIZ rule; {} is a TFT character.",
            escape(&c.name)
        )))
    }
}

fn has_everlasting(c: &Character) -> AppResult<bool> {
    Ok(Sheet::of(c)?
        .thiz()?
        .quirks
        .iter()
        .any(|q| Quirk::from_name(q) == Some(Quirk::LuckEverlasting)))
}

/// Who may press a character's "Spend luck" button: its player; for an NPC, a GM.
fn may_press(ctx: &Ctx<'_>, c: &Character) -> bool {
    if c.npc {
        ctx.is_gm()
    } else {
        c.owner_id == ctx.caller.user
    }
}

fn check_may_spend(ctx: &Ctx<'_>, req: &Request<'_>, c: &Character) -> AppResult<()> {
    if req.pressed {
        if !may_press(ctx, c) {
            return Err(user(format!(
                "This button is for {}'s player; only they can spend that luck.",
                escape(&c.name)
            )));
        }
    } else if !ctx.can_act(c) {
        return Err(user(format!(
            "{} belongs to another player; only they or a GM can spend its luck.",
            escape(&c.name)
        )));
    }
    Ok(())
}

fn no_roll(id: RollId) -> AppError {
    user(format!(
        "There is no roll #{id} here; /history lists recent rolls."
    ))
}

fn blind(id: RollId) -> AppError {
    user(format!(
        "Roll #{id} was blind; only a GM can spend luck on it."
    ))
}

fn already_used(id: RollId) -> AppError {
    user(format!(
        "Luck was already used on roll #{id}; each roll takes luck once."
    ))
}

/// A logged roll's result, as far as the caller may read it: a hidden (blind) result only for a GM.
fn readable_json(ctx: &Ctx<'_>, conn: &Conn, row: &RollRow) -> AppResult<Option<String>> {
    if let Some(json) = &row.public_json {
        return Ok(Some(json.clone()));
    }
    if !ctx.is_gm() {
        return Ok(None);
    }
    Ok(rolls::secret(conn, ctx.gm()?, row.id)?.map(|s| s.result_json))
}

fn character_by_id(
    ctx: &Ctx<'_>,
    conn: &Conn,
    row: &RollRow,
    id: crate::store::CharacterId,
) -> AppResult<Character> {
    match characters::by_id(conn, ctx.caller.guild, id)? {
        Some(c) if ctx.can_see(&c) => Ok(c),
        _ => Err(no_roll(row.id)),
    }
}

/// When both a roll and a character are named, they must agree.
fn same_character(
    ctx: &Ctx<'_>,
    conn: &Conn,
    named: Option<&str>,
    c: &Character,
    row: RollId,
    what: &str,
) -> AppResult<()> {
    if let Some(name) = named {
        let other = ctx.find_character(conn, name)?;
        if other.id != c.id {
            return Err(user(format!(
                "Roll #{row} {what} {}, not {}.",
                escape(&c.name),
                escape(&other.name)
            )));
        }
    }
    Ok(())
}

/// What a spend is for: the rules' use, the ledger's kind, the roll it applies to.
#[derive(Clone, Copy)]
struct Purpose {
    rule: LuckUse,
    kind: LuckKind,
    roll: Option<RollId>,
}

/// Spends `req.points` of `c`'s luck, runs the rules' spend (stunt roll, Luck Everlasting) on the
/// total as it was, and gives back what Luck Everlasting kept.
fn spend_points(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    c: &Character,
    purpose: Purpose,
    req: &Request<'_>,
) -> AppResult<Spent> {
    let Purpose { rule, kind, roll } = purpose;
    let everlasting = has_everlasting(c)?;
    let reason = match roll {
        Some(r) => format!("roll #{r}"),
        None => String::new(),
    };
    let entry = LedgerEntry {
        actor: ctx.caller.user,
        kind,
        reason: &reason,
        roll,
        idem_key: Some(req.key),
    };
    let guild = ctx.caller.guild;
    let (points, left) =
        match secrets::spend_luck(conn, guild, c.id, i64::from(req.points), &entry)? {
            Spend::Spent { points, left } => (points, left),
            Spend::Exhausted => return Ok(Spent::NoLuck),
            Spend::Duplicate => return Ok(Spent::Duplicate),
        };
    let before =
        HiddenLuck::new((points + left) as u32).map_err(|e| AppError::Internal(e.into()))?;
    let outcome = rules_luck::spend(before, rule, everlasting, dice)
        .map_err(|e| AppError::Internal(e.into()))?;
    let kept = points - i64::from(outcome.gm.deducted);
    if kept > 0 {
        secrets::award_luck(
            conn,
            guild,
            c.id,
            kept,
            &LedgerEntry {
                actor: ctx.caller.user,
                kind: LuckKind::Everlasting,
                reason: "kept by Luck Everlasting",
                roll,
                idem_key: None,
            },
        )?;
    }
    let name = escape(&c.name);
    let mut gm_lines = vec![format!(
        "Luck: {name} spent {} on {} ({} → {}).",
        points_text(i64::from(outcome.gm.deducted)),
        kind.as_str().trim_start_matches("spent: "),
        outcome.gm.before.reveal_to_gm(),
        outcome.gm.after.reveal_to_gm()
    )];
    if let Some(s) = outcome.gm.stunt {
        gm_lines.push(format!(
            "Stunt: {} named, rolled at rating {}: d100 {} → {}.",
            s.named, s.rating, s.roll, s.level
        ));
        ctx.log_roll(
            conn,
            Some(c.id),
            "luck stunt",
            RollMode::Blind,
            "",
            &json!({ "named": s.named, "rating": s.rating.0, "roll": s.roll, "level": s.level.name() }),
        )?;
    }
    if !outcome.gm.everlasting.is_empty() {
        let rolls: Vec<_> = outcome
            .gm
            .everlasting
            .iter()
            .map(|e| json!({ "rating": e.rating.0, "roll": e.roll, "level": e.level.name(), "kept": e.kept }))
            .collect();
        for e in &outcome.gm.everlasting {
            gm_lines.push(format!(
                "Luck Everlasting: d100 {} at rating {} → {}{}.",
                e.roll,
                e.rating,
                e.level,
                if e.kept { ", the point is kept" } else { "" }
            ));
        }
        ctx.log_roll(
            conn,
            Some(c.id),
            "luck everlasting",
            RollMode::Blind,
            "",
            &json!({ "rolls": rolls }),
        )?;
    }
    Ok(Spent::Done(Box::new(Done { outcome, gm_lines })))
}

fn points_text(n: i64) -> String {
    if n == 1 {
        "1 point".to_owned()
    } else {
        format!("{n} points")
    }
}

/// The one line a player reads about their luck.
fn luck_line(view: PlayerView) -> &'static str {
    match view {
        PlayerView::Spent(_) => "Luck spent.",
        PlayerView::RanOut(_) => "Luck spent, and with that your luck has run out.",
        PlayerView::NoLuckLeft => "You have no luck left, so nothing happened.",
    }
}

/// The reply when nothing could be spent.
fn not_spent(c: &Character, spent: &Spent) -> Reply {
    match spent {
        Spent::Duplicate => {
            Reply::ephemeral("That luck was already spent; nothing more was taken.")
        }
        _ => Reply::ephemeral(format!(
            "{} has no luck left, so nothing happened.",
            escape(&c.name)
        )),
    }
}

/// Adds the GM's lines to the reply's GM copy (making one if the reply has none).
fn with_gm_lines(reply: Reply, lines: &[String]) -> Reply {
    let note = lines.join("\n");
    match reply.gm_copy {
        Some(mut copy) => {
            copy.content = if copy.content.is_empty() {
                note
            } else {
                format!("{}\n{note}", copy.content)
            };
            Reply {
                gm_copy: Some(copy),
                ..reply
            }
        }
        None => reply.with_gm_copy(Reply::public(note)),
    }
}

fn tone(level: Level) -> Tone {
    match level {
        Level::Black => Tone::Black,
        Level::Red => Tone::Red,
        Level::Yellow => Tone::Yellow,
        Level::Green => Tone::Green,
        Level::Failure => Tone::Grey,
    }
}

fn roll_mode(mode: Mode) -> RollMode {
    match mode {
        Mode::Public => RollMode::Public,
        Mode::Private => RollMode::Private,
        Mode::SelfOnly => RollMode::SelfOnly,
        Mode::Blind | Mode::Secret => RollMode::Blind,
    }
}

// ---- Reroll ------------------------------------------------------------------------------------

fn reroll(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let (c, row) = find_check(ctx, conn, req)?;
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    if row.luck_used.is_some() {
        return Err(already_used(row.id));
    }
    let json = readable_json(ctx, conn, &row)?.ok_or_else(|| blind(row.id))?;
    let old = logged::check_of(&json).ok_or_else(|| {
        user(format!(
            "Roll #{} was not logged as a THIZ check, so it cannot be rerolled.",
            row.id
        ))
    })?;
    let input = old.input();
    input
        .validate()
        .map_err(|e| AppError::Internal(anyhow::anyhow!("logged check #{}: {e}", row.id)))?;

    let spent = spend_points(
        ctx,
        conn,
        dice,
        &c,
        Purpose {
            rule: LuckUse::Reroll,
            kind: LuckKind::SpentReroll,
            roll: Some(row.id),
        },
        req,
    )?;
    let Spent::Done(done) = spent else {
        return Ok(not_spent(&c, &spent));
    };
    if !rolls::use_luck(conn, guild, row.id, "reroll")? {
        return Err(already_used(row.id));
    }
    let outcome = resolve_check(&input, dice.d100())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("reroll of #{}: {e}", row.id)))?;
    let mode = roll_mode(row.mode);
    let new_id = log_reroll(ctx, conn, &c, &row, &json, &outcome)?;

    let full = Reply::public("")
        .with_embed(reroll_embed(
            &c,
            &old,
            row.id,
            &outcome,
            done.outcome.player,
        ))
        .with_button(Button {
            custom_id: button_id(SpendKind::Reroll, new_id),
            label: "Spend luck: reroll".into(),
            disabled: false,
        });
    let mut gm_lines = done.gm_lines;
    if outcome.unlucky_flag {
        gm_lines.push(format!(
            "Unlucky: {} rolled {} on the reroll, a mishap.",
            escape(&c.name),
            outcome.roll
        ));
    }
    let routed = ctx.route(mode, "a luck reroll", full);
    Ok(with_gm_lines(routed, &gm_lines))
}

/// The roll (named, or the character's latest check) and whose it is.
fn find_check(ctx: &Ctx<'_>, conn: &Conn, req: &Request<'_>) -> AppResult<(Character, RollRow)> {
    let guild = ctx.caller.guild;
    if let Some(id) = req.roll {
        let row = rolls::get(conn, guild, id)?.ok_or_else(|| no_roll(id))?;
        let character = row.character.ok_or_else(|| no_roll(id))?;
        let c = character_by_id(ctx, conn, &row, character)?;
        if !CHECK_COMMANDS.contains(&row.command.as_str()) {
            return Err(user(format!(
                "Roll #{id} is not a /check; luck rerolls checks only."
            )));
        }
        same_character(ctx, conn, req.character, &c, id, "was rolled by")?;
        Ok((c, row))
    } else {
        let c = ctx.acting_character(conn, req.character)?;
        let row = rolls::latest_for_character(conn, guild, c.id, &CHECK_COMMANDS)?
            .ok_or_else(|| user(format!("{} has no check to reroll yet.", escape(&c.name))))?;
        Ok((c, row))
    }
}

/// Logs the reroll as a check of its own (so it can be rerolled in turn): the original's record
/// with the new roll, under the original's command, mode and label, with its parent.
fn log_reroll(
    ctx: &Ctx<'_>,
    conn: &Conn,
    c: &Character,
    row: &RollRow,
    old_json: &str,
    outcome: &CheckOutcome,
) -> AppResult<RollId> {
    let guild = ctx.caller.guild;
    let result_json = logged::rerolled_record(old_json, outcome, row.id.0).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("roll #{} is not a check record", row.id))
    })?;
    characters::touch(conn, guild, c.id)?;
    Ok(rolls::insert(
        conn,
        guild,
        &NewRoll {
            user: ctx.caller.user,
            character: Some(c.id),
            command: row.command.as_str(),
            mode: roll_mode(row.mode).store_mode(),
            label: &row.label,
            result_json: &result_json,
            commitment: None,
            nonce: None,
            parent: Some(row.id),
        },
    )?)
}

fn reroll_embed(
    c: &Character,
    old: &RerollableCheck,
    old_id: RollId,
    new: &CheckOutcome,
    view: PlayerView,
) -> Embed {
    let what = escape(old.what());
    let was = crate::rules::thiz::check::resolve_check(&old.input(), old.roll).map_or_else(
        |_| old.roll.to_string(),
        |o| format!("{} ({})", o.roll, o.level),
    );
    Embed {
        title: format!("{}: {what} rerolled: {}", escape(&c.name), new.level),
        description: luck_line(view).to_owned(),
        tone: Some(tone(new.level)),
        fields: vec![
            Field {
                name: "Roll".into(),
                value: new.roll.to_string(),
                inline: true,
            },
            Field {
                name: "Rating".into(),
                value: format!("{} (row {})", new.adjusted, new.row_rating),
                inline: true,
            },
            Field {
                name: format!("Was (roll #{old_id})"),
                value: was,
                inline: true,
            },
        ],
        footer: None,
    }
}

// ---- Wound -------------------------------------------------------------------------------------

/// The latest attack that wounded `target` and whose result the caller may read.
fn latest_wound(ctx: &Ctx<'_>, conn: &Conn, target: &Character) -> AppResult<Option<RollRow>> {
    for row in rolls::recent(conn, ctx.caller.guild, None, None, WOUND_LOOKBACK)? {
        if !ATTACK_COMMANDS.contains(&row.command.as_str()) {
            continue;
        }
        let Some(json) = readable_json(ctx, conn, &row)? else {
            continue;
        };
        if logged::wound_of(&json).is_some_and(|w| w.target == target.id) {
            return Ok(Some(row));
        }
    }
    Ok(None)
}

fn wound(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let (c, row) = if let Some(id) = req.roll {
        let row = rolls::get(conn, guild, id)?.ok_or_else(|| no_roll(id))?;
        if !ATTACK_COMMANDS.contains(&row.command.as_str()) {
            return Err(user(format!(
                "Roll #{id} is not an /attack; luck lowers the wound an attack left."
            )));
        }
        let json = readable_json(ctx, conn, &row)?.ok_or_else(|| blind(id))?;
        let w = logged::wound_of(&json)
            .ok_or_else(|| user(format!("Roll #{id} left no wound to lower.")))?;
        let c = character_by_id(ctx, conn, &row, w.target)?;
        same_character(ctx, conn, req.character, &c, id, "wounded")?;
        (c, row)
    } else {
        let c = ctx.acting_character(conn, req.character)?;
        let row = latest_wound(ctx, conn, &c)?.ok_or_else(|| {
            user(format!(
                "No recent attack wounded {}; name one with roll:…",
                escape(&c.name)
            ))
        })?;
        (c, row)
    };
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    if row.luck_used.is_some() {
        return Err(already_used(row.id));
    }
    let json = readable_json(ctx, conn, &row)?.ok_or_else(|| no_roll(row.id))?;
    let w = logged::wound_of(&json).ok_or_else(|| no_roll(row.id))?;
    let (Some(location), Some(from)) = (w.location(), w.level()) else {
        return Err(AppError::Internal(anyhow::anyhow!(
            "roll #{} logged a wound that does not parse: {w:?}",
            row.id
        )));
    };
    let rows = characters::wounds(conn, guild, c.id)?;
    let Some((new_rows, to)) = logged::lower_in_rows(&rows, location, from) else {
        return Err(user(format!(
            "{}'s {from} wound on the {location} is no longer on the sheet; nothing was spent.",
            escape(&c.name)
        )));
    };

    let spent = spend_points(
        ctx,
        conn,
        dice,
        &c,
        Purpose {
            rule: LuckUse::LowerWound(from),
            kind: LuckKind::SpentWound,
            roll: Some(row.id),
        },
        req,
    )?;
    let Spent::Done(done) = spent else {
        return Ok(not_spent(&c, &spent));
    };
    if !rolls::use_luck(conn, guild, row.id, "wound")? {
        return Err(already_used(row.id));
    }
    characters::set_wounds(conn, guild, c.id, &new_rows)?;
    let reply =
        Reply::public("").with_embed(wound_embed(&c, location, from, to, done.outcome.player));
    Ok(with_gm_lines(reply, &done.gm_lines))
}

fn wound_embed(
    c: &Character,
    location: Location,
    from: Level,
    to: Option<Level>,
    view: PlayerView,
) -> Embed {
    let now = match to {
        Some(level) => format!("is now {level}"),
        None => "is gone".to_owned(),
    };
    Embed {
        title: format!("{}: luck lowers a wound", escape(&c.name)),
        description: format!(
            "The {from} wound on the {location} {now}. {}",
            luck_line(view)
        ),
        tone: Some(to.map_or(Tone::Green, tone)),
        fields: Vec::new(),
        footer: None,
    }
}

// ---- Stunt -------------------------------------------------------------------------------------

fn stunt(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let c = ctx.acting_character(conn, req.character)?;
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    let purpose = Purpose {
        rule: LuckUse::Stunt { named: req.points },
        kind: LuckKind::SpentStunt,
        roll: None,
    };
    let spent = spend_points(ctx, conn, dice, &c, purpose, req)?;
    let Spent::Done(done) = spent else {
        return Ok(not_spent(&c, &spent));
    };
    let succeeded = done.outcome.gm.stunt.is_some_and(|s| s.level.is_success());
    let (title, tone) = if succeeded {
        ("it works!", Tone::Green)
    } else {
        ("it does not come off.", Tone::Grey)
    };
    // Only success or failure: the rating the referee rolled at could give the total away.
    let reply = Reply::public("").with_embed(Embed {
        title: format!("{} pushes their luck: {title}", escape(&c.name)),
        description: luck_line(done.outcome.player).to_owned(),
        tone: Some(tone),
        fields: Vec::new(),
        footer: None,
    });
    Ok(with_gm_lines(reply, &done.gm_lines))
}
