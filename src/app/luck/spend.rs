//! Spending luck: a reroll of a logged check, a lowered wound, a stunt.
//!
//! One write transaction per spend: find and check the roll, then the conditional decrement with
//! its idempotency key (`store::secrets::spend_luck`), the rules' spend (stunt roll, Luck
//! Everlasting), marking the roll as used and applying the effect. Any refusal after the
//! decrement rolls it all back. The player's reply never holds a total; the GM copy does.

use serde_json::json;

use super::button::{SpendKind, lower_again_id};
use super::logged::{self, ATTACK_COMMANDS, RerollableCheck};
use crate::app::context::DiceGuard;
use crate::app::invocation::RollMode;
use crate::app::reply::{Button, Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::sheet::Sheet;
use crate::app::text::escape;
use crate::app::thiz::attack::{AttackReroll, Replay};
use crate::app::thiz::record::{
    AttackRecord, CheckRecord, DyingRecord, ThizRecord, sheet_from_rows,
};
use crate::app::thiz::stats::ThizChar;
use crate::app::thiz::{dying_button, special};
use crate::app::{AppError, AppResult, Ctx, user};
use crate::rules::dice::DieSource as _;
use crate::rules::thiz::Rating;
use crate::rules::thiz::check::{CheckOutcome, resolve_check};
use crate::rules::thiz::luck::{self as rules_luck, HiddenLuck, LuckUse, PlayerView, SpendOutcome};
use crate::rules::thiz::traits::Quirk;
use crate::rules::thiz::wounds::{
    Condition, DamageKind, DyingOutcome, condition_after, dying_check,
};
use crate::rules::thiz::{Level, Location};
use crate::store::characters::{self, Character};
use crate::store::conditions;
use crate::store::guilds::System;
use crate::store::rolls::{self, Mode, NewRoll, RollRow};
use crate::store::secrets::{self, LedgerEntry, LuckKind, Spend};
use crate::store::{CharacterId, Conn, RollId};

/// How far back a wound is looked for when no roll is named.
const WOUND_LOOKBACK: u32 = 200;

/// Whose luck a spend names: typed, or the id a button carries.
#[derive(Debug, Clone, Copy)]
pub(super) enum Whose<'a> {
    Named(&'a str),
    Id(CharacterId),
}

/// One spend, from the command or a button.
pub(super) struct Request<'a> {
    pub kind: SpendKind,
    pub character: Option<Whose<'a>>,
    pub points: u32,
    pub roll: Option<RollId>,
    /// For a wound: the section and colour to lower.
    pub location: Option<Location>,
    pub level: Option<Level>,
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
            SpendKind::Toughness => toughness(ctx, tx, &mut dice, req),
            SpendKind::Wound => wound(ctx, tx, &mut dice, req),
            SpendKind::Stunt => stunt(ctx, tx, &mut dice, req),
            SpendKind::Berserk | SpendKind::Rouse => quirk_spend(ctx, tx, &mut dice, req),
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
        .any(|q| Quirk::from_entry(q) == Some(Quirk::LuckEverlasting)))
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
    named: Option<Whose<'_>>,
    c: &Character,
    row: RollId,
    what: &str,
) -> AppResult<()> {
    if let Some(Whose::Named(name)) = named {
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

/// The character a spend names (typed, or a button's id), or the caller's latest.
fn whose(ctx: &Ctx<'_>, conn: &Conn, req: &Request<'_>) -> AppResult<Character> {
    match req.character {
        Some(Whose::Named(name)) => ctx.acting_character(conn, Some(name)),
        Some(Whose::Id(id)) => match characters::by_id(conn, ctx.caller.guild, id)? {
            Some(c) if ctx.can_see(&c) => Ok(c),
            _ => Err(user(
                "That button is no longer valid; use /luck spend instead.",
            )),
        },
        None => ctx.acting_character(conn, None),
    }
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

/// The one line everyone who sees a spend reads about it: that luck was spent. Whether any is
/// left is the player's to know alone ([`told_the_player`]).
fn luck_line(view: PlayerView) -> &'static str {
    match view {
        PlayerView::Spent(_) | PlayerView::RanOut(_) => "Luck spent.",
        PlayerView::NoLuckLeft => "You have no luck left, so nothing happened.",
    }
}

/// What the caller alone reads when the spend took a character's last point.
fn ran_out_line(c: &Character) -> String {
    format!("With that, {}'s luck has run out.", escape(&c.name))
}

/// A routed spend's reply, told what the spend left: when it took the last point, the caller
/// alone hears so (thiz-rulebook.md, chapter 10 "Luck": the referee tells the *player*; issue
/// 57 found it told to the channel), and no button that would spend the same character's luck
/// again follows (`spends`: the prefixes of those buttons' ids).
// Decision: the note goes to whoever spent (the player, or a GM spending for them), as an
// ephemeral follow-up after the reply, whatever the roll's mode; the channel reads "Luck spent."
// either way.
fn told_the_player(mut reply: Reply, view: PlayerView, c: &Character, spends: &[&str]) -> Reply {
    if !matches!(view, PlayerView::RanOut(_)) {
        return reply;
    }
    let spends_again = |b: &Button| spends.iter().any(|p| b.custom_id.starts_with(p));
    reply.buttons.retain(|b| !spends_again(b));
    if let Some(copy) = reply.gm_copy.as_deref_mut() {
        copy.buttons.retain(|b| !spends_again(b));
    }
    reply.with_caller_note(&ran_out_line(c))
}

/// The prefixes of the buttons that spend a character's luck on a rerolled check.
const REROLL_BUTTONS: [&str; 1] = ["luck:reroll:"];

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

/// The commands whose rolls luck rolls again: every logged resolution check of a character's
/// (thiz-rulebook.md, chapter 10 "Luck") — checks, attacks (the hit, and the target's Toughness),
/// the dying character's Toughness, a hazard's check (staying afloat, resisting poison) and
/// Terror. Decision: a casting is not rerolled, since its progress, reagents and costs build on
/// each check; a hazard's own roll (a fall, a fire) is not the character's check.
const REROLLABLE: [&str; 8] = [
    "check",
    "/check",
    "attack",
    "/attack",
    "wound dying",
    "hazard water",
    "hazard poison",
    "magic terror",
];

fn rerollable(command: &str) -> bool {
    REROLLABLE.contains(&command)
}

fn reroll(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let (c, row) = find_rerollable(ctx, conn, req)?;
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    if row.luck_used.is_some() {
        return Err(already_used(row.id));
    }

    let json = readable_json(ctx, conn, &row)?.ok_or_else(|| blind(row.id))?;
    // A check logged inside another record is rerolled as the check it is.
    let nested = |check: CheckRecord| -> AppResult<String> {
        serde_json::to_string(&ThizRecord::Check(check)).map_err(|e| AppError::Internal(e.into()))
    };
    match ThizRecord::from_json(&json) {
        Some(ThizRecord::Attack(record)) => {
            reroll_attack(ctx, conn, dice, req, (&c, &row), record, AttackReroll::Hit)
        }
        Some(ThizRecord::Dying(record)) => reroll_dying(ctx, conn, dice, req, (&c, &row), &record),
        Some(ThizRecord::Hazard(h)) => match h.check {
            Some(check) => reroll_check(ctx, conn, dice, req, (&c, &row), &nested(check)?),
            None => Err(user(format!(
                "Roll #{} was the hazard's own roll, not a check of {}'s; luck rerolls checks.",
                row.id,
                escape(&c.name)
            ))),
        },
        Some(ThizRecord::Magic(m)) if m.action != "cast" => {
            reroll_check(ctx, conn, dice, req, (&c, &row), &nested(m.check)?)
        }
        Some(ThizRecord::Magic(_)) => Err(user(format!(
            "Roll #{} was a casting, whose progress builds on each check; luck does not reroll it.",
            row.id
        ))),
        _ => reroll_check(ctx, conn, dice, req, (&c, &row), &json),
    }
}

/// Rolls a dying character's Toughness check again (its rating as logged), and sets the
/// condition the new roll gives — refused when the condition has moved on since (First Aid, a
/// later check).
fn reroll_dying(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
    (c, row): (&Character, &RollRow),
    record: &DyingRecord,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let outcome_of = |name: &str| match name {
        "dies" => Some(DyingOutcome::Dies),
        "still dying" => Some(DyingOutcome::StillDying),
        "stable" => Some(DyingOutcome::Stable),
        _ => None,
    };
    let old = outcome_of(&record.outcome).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "roll #{}: outcome {:?}",
            row.id,
            record.outcome
        ))
    })?;
    let tc = ThizChar::load(conn, c.clone(), "/luck spend")?;
    if tc.condition() != Some(condition_after(old)) {
        return Err(user(format!(
            "{}'s condition has changed since roll #{}, so it can no longer be rerolled.",
            escape(&c.name),
            row.id
        )));
    }
    let done = match spend_on_reroll(ctx, conn, dice, req, c, row, "reroll")? {
        Ok(done) => done,
        Err(nothing) => return Ok(nothing),
    };
    let check = dying_check(Rating(record.rating), dice);
    let now = condition_after(check.outcome);
    conditions::set(conn, guild, c.id, Some(now.name()))?;
    let outcome = match check.outcome {
        DyingOutcome::Dies => "dies",
        DyingOutcome::StillDying => "still dying",
        DyingOutcome::Stable => "stable",
    };
    let new = DyingRecord {
        roll: check.roll,
        level: check.level.name().to_owned(),
        outcome: outcome.to_owned(),
        ..record.clone()
    };
    let mode = roll_mode(row.mode);
    let new_id = ctx.log_reroll(
        conn,
        Some(c.id),
        &row.command,
        mode,
        &row.label,
        &ThizRecord::Dying(new),
        Some(row.id),
    )?;
    let name = escape(&c.name);
    let said = match check.outcome {
        DyingOutcome::Dies => format!("**{name} dies.**"),
        DyingOutcome::StillDying => format!("**{name} is still dying.**"),
        DyingOutcome::Stable => format!("**{name} is stable.**"),
    };
    let mut full = Reply::public("")
        .with_embed(Embed {
            title: format!("{name}: dying check rerolled: {}", check.level),
            description: format!("{said} {}", luck_line(done.outcome.player)),
            tone: Some(tone(check.level)),
            fields: vec![
                Field {
                    name: "Roll".into(),
                    // An NPC's rating is the GM's (app::screen).
                    value: format!(
                        "d100: {} at rating {}",
                        check.roll,
                        screen::npc(c.npc, record.rating.to_string())
                    ),
                    inline: true,
                },
                Field {
                    name: format!("Was (roll #{})", row.id),
                    value: format!("{} ({})", record.roll, record.level),
                    inline: true,
                },
            ],
            footer: None,
        })
        .with_button(super::button::reroll_button(new_id));
    if now == Condition::Dying {
        full = full.with_button(dying_button(c.id));
    }
    let routed = ctx.route(mode, "a luck reroll", full);
    let routed = told_the_player(routed, done.outcome.player, c, &REROLL_BUTTONS);
    Ok(routed.with_gm_lines(&done.gm_lines))
}

/// Spends one point on rolling `row` again and marks the roll used (`how`): the spend's outcome,
/// or the reply when nothing could be spent.
fn spend_on_reroll(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
    c: &Character,
    row: &RollRow,
    how: &str,
) -> AppResult<Result<Box<Done>, Reply>> {
    // Checked last, once the roll is known to be one luck may reroll, so a refusal names the
    // roll's own fault first.
    if how == "reroll" {
        let latest = rolls::latest_for_character(conn, ctx.caller.guild, c.id, &REROLLABLE)?;
        still_latest(c, row, latest.as_ref().map(|r| r.id), "check")?;
    }
    let purpose = Purpose {
        rule: LuckUse::Reroll,
        kind: LuckKind::SpentReroll,
        roll: Some(row.id),
    };
    let spent = spend_points(ctx, conn, dice, c, purpose, req)?;
    let Spent::Done(done) = spent else {
        return Ok(Err(not_spent(c, &spent)));
    };
    if !rolls::use_luck(conn, ctx.caller.guild, row.id, how)? {
        return Err(already_used(row.id));
    }
    Ok(Ok(done))
}

/// Rolls a logged `/check` again.
fn reroll_check(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
    (c, row): (&Character, &RollRow),
    json: &str,
) -> AppResult<Reply> {
    let old = logged::check_of(json).ok_or_else(|| {
        user(format!(
            "Roll #{} was not logged as a THIZ check, so it cannot be rerolled.",
            row.id
        ))
    })?;
    let input = old.input();
    input
        .validate()
        .map_err(|e| AppError::Internal(anyhow::anyhow!("logged check #{}: {e}", row.id)))?;

    let done = match spend_on_reroll(ctx, conn, dice, req, c, row, "reroll")? {
        Ok(done) => done,
        Err(nothing) => return Ok(nothing),
    };
    let mut outcome = resolve_check(&input, dice.d100())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("reroll of #{}: {e}", row.id)))?;
    // The skill's special result (Pocket-Picking noticed, Summoning maddened) holds on the
    // reroll as on the first roll.
    let special = match ThizRecord::from_json(json) {
        Some(ThizRecord::Check(record)) => special::of_record(&record, &outcome),
        _ => None,
    };
    if let Some(level) = special.as_ref().and_then(|s| s.level) {
        outcome.level = level;
    }
    let mode = roll_mode(row.mode);
    let new_id = log_reroll(ctx, conn, c, row, json, &outcome)?;

    let mut embed = reroll_embed(c, &old, row.id, &outcome, done.outcome.player);
    if let Some(s) = &special {
        embed.description = format!("{}\n{}", s.line, embed.description);
    }
    let full = Reply::public("")
        .with_embed(embed)
        .with_button(super::button::reroll_button(new_id));
    let mut gm_lines = done.gm_lines;
    if outcome.unlucky_flag {
        gm_lines.push(format!(
            "Unlucky: {} rolled {} on the reroll, a mishap.",
            escape(&c.name),
            outcome.roll
        ));
    }
    let routed = ctx.route(mode, "a luck reroll", full);
    let routed = told_the_player(routed, done.outcome.player, c, &REROLL_BUTTONS);
    Ok(routed.with_gm_lines(&gm_lines))
}

/// Rolls a logged attack's hit (the attacker's luck) or Toughness check (the target's) again.
fn reroll_attack(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
    (c, row): (&Character, &RollRow),
    record: AttackRecord,
    which: AttackReroll,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let replay = Replay::new(conn, guild, row.id, record, which)?;
    if replay.payer() != c.id {
        return Err(no_roll(row.id));
    }
    let how = match which {
        AttackReroll::Hit => "reroll",
        AttackReroll::Toughness => "toughness",
    };
    let done = match spend_on_reroll(ctx, conn, dice, req, c, row, how)? {
        Ok(done) => done,
        Err(nothing) => return Ok(nothing),
    };
    let line = format!(
        "{}: luck rerolls {} (roll #{}). {}",
        escape(&c.name),
        match which {
            AttackReroll::Hit => "the hit",
            AttackReroll::Toughness => "the Toughness check",
        },
        row.id,
        luck_line(done.outcome.player)
    );
    let answer = replay.run(ctx, conn, dice, row.id, roll_mode(row.mode), &line)?;
    // The payer's own buttons on the new attack: the attacker's reroll of the hit, or the
    // target's of the Toughness check and the wound's lowering.
    let spends: &[&str] = match which {
        AttackReroll::Hit => &REROLL_BUTTONS,
        AttackReroll::Toughness => &["luck:toughness:", "luck:wound:", "luck:lower:"],
    };
    let answer = told_the_player(answer, done.outcome.player, c, spends);
    Ok(answer.with_gm_lines(&done.gm_lines))
}

/// The roll (named, or the character's latest check or attack) and whose luck pays for it.
fn find_rerollable(
    ctx: &Ctx<'_>,
    conn: &Conn,
    req: &Request<'_>,
) -> AppResult<(Character, RollRow)> {
    let guild = ctx.caller.guild;
    if let Some(id) = req.roll {
        let row = rolls::get(conn, guild, id)?.ok_or_else(|| no_roll(id))?;
        let character = row.character.ok_or_else(|| no_roll(id))?;
        let c = character_by_id(ctx, conn, &row, character)?;
        if !rerollable(&row.command) {
            return Err(user(format!(
                "Roll #{id} is not a check luck can roll again: a /check, an /attack, a dying check, a hazard's or a Terror check."
            )));
        }
        same_character(ctx, conn, req.character, &c, id, "was rolled by")?;
        Ok((c, row))
    } else {
        let c = whose(ctx, conn, req)?;
        let row =
            rolls::latest_for_character(conn, guild, c.id, &REROLLABLE)?.ok_or_else(|| {
                user(format!(
                    "{} has no check or attack to reroll yet.",
                    escape(&c.name)
                ))
            })?;
        Ok((c, row))
    }
}

/// Luck rerolls a roll only while it is the newest of its kind for the character: the check
/// just made, not one from an earlier scene (thiz-rulebook.md, chapter 10 "Luck": luck turns
/// the roll that was just made).
// Decision (issue 57): no clock: a check stays rerollable until the character makes another
// (a reroll is such a roll, and is itself rerollable while it is the newest); a button on an
// older roll, or `roll:` naming one, is refused with the newer roll's number.
fn still_latest(c: &Character, row: &RollRow, latest: Option<RollId>, what: &str) -> AppResult<()> {
    match latest {
        Some(newest) if newest == row.id => Ok(()),
        Some(newest) => Err(user(format!(
            "Roll #{} is no longer {}'s latest {what}: roll #{newest} came after it, and luck rerolls only the latest. Nothing was spent.",
            row.id,
            escape(&c.name)
        ))),
        None => Err(user(format!(
            "Roll #{} is too far back in {}'s rolls; luck rerolls only the latest {what}. Nothing was spent.",
            row.id,
            escape(&c.name)
        ))),
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
                // An NPC's rating is the GM's (app::screen).
                value: screen::npc(c.npc, format!("{} (row {})", new.adjusted, new.row_rating)),
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

// ---- Toughness ---------------------------------------------------------------------------------

/// An attack's record, if the caller may read it and it is one.
fn attack_record(ctx: &Ctx<'_>, conn: &Conn, row: &RollRow) -> AppResult<Option<AttackRecord>> {
    if !ATTACK_COMMANDS.contains(&row.command.as_str()) {
        return Ok(None);
    }
    let Some(json) = readable_json(ctx, conn, row)? else {
        return Ok(None);
    };
    Ok(match ThizRecord::from_json(&json) {
        Some(ThizRecord::Attack(rec)) => Some(rec),
        _ => None,
    })
}

/// Rolls again the Toughness check `c` made against a hit: the named attack, or the latest one
/// that called for a Toughness check of `c`'s.
fn toughness(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    // The latest attack that called for a Toughness check of `c`'s.
    let latest_on = |c: &Character| -> AppResult<Option<(RollRow, AttackRecord)>> {
        for row in rolls::recent(conn, guild, None, None, WOUND_LOOKBACK)? {
            if let Some(rec) = attack_record(ctx, conn, &row)?
                && rec.target_id == c.id
                && rec.toughness.is_some()
            {
                return Ok(Some((row, rec)));
            }
        }
        Ok(None)
    };
    let (c, row, record) = if let Some(id) = req.roll {
        let row = rolls::get(conn, guild, id)?.ok_or_else(|| no_roll(id))?;
        if !ATTACK_COMMANDS.contains(&row.command.as_str()) {
            return Err(user(format!(
                "Roll #{id} is not an /attack; kind:toughness rerolls the Toughness check against a hit."
            )));
        }
        let record = attack_record(ctx, conn, &row)?.ok_or_else(|| blind(id))?;
        let c = character_by_id(ctx, conn, &row, record.target_id)?;
        same_character(ctx, conn, req.character, &c, id, "hit")?;
        if row.luck_used.is_none() {
            let latest = latest_on(&c)?.map(|(r, _)| r.id);
            still_latest(&c, &row, latest, "Toughness check against a hit")?;
        }
        (c, row, record)
    } else {
        let c = whose(ctx, conn, req)?;
        let found = latest_on(&c)?;
        let (row, record) = found.ok_or_else(|| {
            user(format!(
                "No recent attack called for a Toughness check of {}'s; name one with roll:…",
                escape(&c.name)
            ))
        })?;
        (c, row, record)
    };
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    if row.luck_used.is_some() {
        return Err(already_used(row.id));
    }
    reroll_attack(
        ctx,
        conn,
        dice,
        req,
        (&c, &row),
        record,
        AttackReroll::Toughness,
    )
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

/// The wound an attack left: whose and where.
fn wound_on(ctx: &Ctx<'_>, conn: &Conn, row: &RollRow) -> AppResult<(Character, Location)> {
    let id = row.id;
    let json = readable_json(ctx, conn, row)?.ok_or_else(|| blind(id))?;
    let w = logged::wound_of(&json).ok_or_else(|| user(format!("Roll #{id} left no wound.")))?;
    let location = w.location().ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "roll #{id} logged a wound that does not parse: {w:?}"
        ))
    })?;
    Ok((character_by_id(ctx, conn, row, w.target)?, location))
}

/// Which wound a spend lowers: the character, the section and the colour.
///
/// Decision: luck lowers any wound on the sheet, whatever made it (thiz-rulebook.md, chapter 10
/// "Luck" speaks of wounds, not of attacks), one colour per point, as often as points allow. The
/// section is the one named, else the one the named (or latest) attack wounded while it is still
/// wounded, else the only wounded section; the colour is the one named, else the worst there.
fn which_wound(
    ctx: &Ctx<'_>,
    conn: &Conn,
    req: &Request<'_>,
) -> AppResult<(Character, Location, Level)> {
    let guild = ctx.caller.guild;
    let (c, from_roll) = if let Some(id) = req.roll {
        let row = rolls::get(conn, guild, id)?.ok_or_else(|| no_roll(id))?;
        if !ATTACK_COMMANDS.contains(&row.command.as_str()) {
            return Err(user(format!(
                "Roll #{id} is not an /attack; name the wound with location:… instead."
            )));
        }
        let (c, location) = wound_on(ctx, conn, &row)?;
        same_character(ctx, conn, req.character, &c, id, "wounded")?;
        (c, Some(location))
    } else {
        let c = whose(ctx, conn, req)?;
        let latest = match req.location {
            Some(_) => None,
            None => match latest_wound(ctx, conn, &c)? {
                Some(row) => Some(wound_on(ctx, conn, &row)?.1),
                None => None,
            },
        };
        (c, latest)
    };
    thiz_only(&c)?;
    let sheet = sheet_from_rows(&characters::wounds(conn, guild, c.id)?)?;
    let wounded: Vec<Location> = Location::ALL
        .into_iter()
        .filter(|l| sheet.at(*l).count() > 0)
        .collect();
    let name = escape(&c.name);
    let location = match (req.location, from_roll) {
        (Some(l), _) => l,
        (None, Some(l)) if wounded.contains(&l) || req.roll.is_some() => l,
        _ => match wounded.as_slice() {
            [] => {
                return Err(user(format!(
                    "{name} has no wounds, so there is nothing for luck to lower."
                )));
            }
            [only] => *only,
            many => {
                let list: Vec<String> = many.iter().map(ToString::to_string).collect();
                return Err(user(format!(
                    "{name} is wounded on the {}; say which with location:…",
                    list.join(", ")
                )));
            }
        },
    };
    let section = sheet.at(location);
    let level = match req.level {
        Some(level) if section.has(level) => level,
        Some(level) => {
            return Err(user(format!(
                "{name} has no {level} wound on the {location}; nothing was spent."
            )));
        }
        None => section.worst().ok_or_else(|| {
            user(format!(
                "{name} has no wound on the {location} any more; nothing was spent."
            ))
        })?,
    };
    Ok((c, location, level))
}

fn wound(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let (c, location, from) = which_wound(ctx, conn, req)?;
    check_may_spend(ctx, req, &c)?;
    let rows = characters::wounds(conn, guild, c.id)?;
    let Some((new_rows, to)) = logged::lower_in_rows(&rows, location, from) else {
        return Err(AppError::Internal(anyhow::anyhow!(
            "{}'s {from} wound on the {location} was found but cannot be lowered",
            c.id
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
            roll: req.roll,
        },
        req,
    )?;
    let Spent::Done(done) = spent else {
        return Ok(not_spent(&c, &spent));
    };
    characters::set_wounds(conn, guild, c.id, &new_rows)?;
    // A vital Black lowered to Red ends the incapacitation: the stored condition follows.
    let tc = ThizChar::load(conn, c.clone(), "/luck spend")?;
    tc.record_wounds(conn, &sheet_from_rows(&new_rows)?, DamageKind::Lethal)?;
    let mut reply =
        Reply::public("").with_embed(wound_embed(&c, location, from, to, done.outcome.player));
    if to.is_some() {
        reply = reply.with_button(Button {
            custom_id: lower_again_id(c.id, location, ctx.interaction_id),
            label: "Spend luck: lower again".into(),
            disabled: false,
        });
    }
    let reply = told_the_player(reply, done.outcome.player, &c, &["luck:lower:"]);
    Ok(reply.with_gm_lines(&done.gm_lines))
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

// ---- Berserk and Sleepless ---------------------------------------------------------------------

/// Berserk's point to fight on past a fatal blow, and Sleepless's point to rouse from the long
/// sleep (thiz-rulebook.md, chapter 4): each needs its quirk on the sheet.
fn quirk_spend(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let c = whose(ctx, conn, req)?;
    check_may_spend(ctx, req, &c)?;
    thiz_only(&c)?;
    let name = escape(&c.name);
    let (quirk, rule, kind, title, text) = match req.kind {
        SpendKind::Berserk => (
            Quirk::Berserk,
            LuckUse::KeepFighting,
            LuckKind::SpentBerserk,
            format!("{name} fights on, Berserk!"),
            "Wounds are ignored until the combat ends; +3 to Strength and Willpower checks, \
             +1 to melee attacks per 5 full points of Strength, Phobias ignored. When no living \
             creature is left in sight, the wounds take their toll.",
        ),
        _ => (
            Quirk::Sleepless,
            LuckUse::Rouse,
            LuckKind::SpentRouse,
            format!("{name} rouses from the long sleep"),
            "Awake for now; once whatever woke them has passed, the sleep must be taken up again.",
        ),
    };
    let has = Sheet::of(&c)?
        .thiz()?
        .quirks
        .iter()
        .any(|q| Quirk::from_entry(q) == Some(quirk));
    if !has {
        return Err(user(format!(
            "kind:{} is for characters with the {quirk} quirk, and {name} does not have it.",
            req.kind.name()
        )));
    }
    let purpose = Purpose {
        rule,
        kind,
        roll: None,
    };
    let spent = spend_points(ctx, conn, dice, &c, purpose, req)?;
    let Spent::Done(done) = spent else {
        return Ok(not_spent(&c, &spent));
    };
    let reply = Reply::public("").with_embed(Embed {
        title,
        description: format!("{text} {}", luck_line(done.outcome.player)),
        tone: Some(Tone::Red),
        fields: Vec::new(),
        footer: None,
    });
    let reply = told_the_player(reply, done.outcome.player, &c, &[]);
    Ok(reply.with_gm_lines(&done.gm_lines))
}

// ---- Stunt -------------------------------------------------------------------------------------

fn stunt(
    ctx: &Ctx<'_>,
    conn: &Conn,
    dice: &mut DiceGuard<'_>,
    req: &Request<'_>,
) -> AppResult<Reply> {
    let c = whose(ctx, conn, req)?;
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
    let reply = told_the_player(reply, done.outcome.player, &c, &[]);
    Ok(reply.with_gm_lines(&done.gm_lines))
}
