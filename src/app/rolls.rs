//! `/roll`, `/gm roll`, `/reveal` and `/history`: generic dice, the GM's committed secret rolls,
//! and the roll log as each caller may see it.
//!
//! Owns the logged shape of a dice-expression roll ([`shown`]), the commitment scheme of secret
//! rolls ([`commit`], with its own [`sha256`]) and the visibility rules of `/history`. Must never
//! put a blind result, an unrevealed secret result, a nonce before its reveal, or anything about
//! an NPC in a reply a player receives (outside `gm_copy`).

mod commit;
mod history;
mod odds;
mod sha256;
mod shown;
#[cfg(test)]
mod tests;

use super::invocation::{Invocation, Opts, RollMode};
use super::reply::{Embed, Field, Reply, Tone};
use super::text::{escape, truncate};
use super::{AppError, AppResult, Ctx, aliases, user};
use crate::rules::dice::expr::{self, DiceError, Expr, Limits};
use crate::store::RollId;
use crate::store::rolls::{self, Mode, NewRoll};
use history::{GM_ROLL, ROLL};
use shown::{Rolled, RolledSet};

/// The longest label a roll may carry, in characters.
pub const MAX_LABEL: usize = 100;
/// The most rolls `/history` lists at once (and the default).
pub const MAX_HISTORY: u32 = 25;
pub const DEFAULT_HISTORY: u32 = 10;

/// `/roll`, `/gm roll`, `/reveal`, `/history`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollsCommand {
    /// Roll a dice expression, shown by mode.
    Roll {
        expression: String,
        mode: RollMode,
        label: String,
    },
    /// A GM's secret roll: the channel sees a commitment only.
    GmRoll { expression: String, label: String },
    /// Reveal a secret roll, with what it takes to check its commitment.
    Reveal { roll: RollId },
    /// `/odds dice`: the exact distribution of an expression, with a chart.
    Odds {
        expression: String,
        /// A total to give the chance of reaching (P(= at), P(≥ at), P(≤ at)).
        at: Option<i64>,
    },
    /// The roll log, filtered by what the caller may see.
    History {
        character: Option<String>,
        count: u32,
        /// The page, when the rolls are too long for one message (1, the first).
        page: usize,
    },
}

impl RollsCommand {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let path: Vec<&str> = inv.path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["roll"] => {
                let o = Opts::new(inv, &["expression", "mode", "label"])?;
                Ok(Self::Roll {
                    expression: o.required("expression")?.to_owned(),
                    mode: o.mode()?,
                    label: label(o.text("label"))?,
                })
            }
            ["gm", "roll"] => {
                let o = Opts::new(inv, &["expression", "label"])?;
                Ok(Self::GmRoll {
                    expression: o.required("expression")?.to_owned(),
                    label: label(o.text("label"))?,
                })
            }
            ["odds", "dice"] => {
                let o = Opts::new(inv, &["expression", "at"])?;
                Ok(Self::Odds {
                    expression: o.required("expression")?.to_owned(),
                    at: o.int("at", -1_000_000, 1_000_000)?,
                })
            }
            ["reveal"] => {
                let o = Opts::new(inv, &["roll"])?;
                Ok(Self::Reveal {
                    roll: roll_id(o.required("roll")?)?,
                })
            }
            ["history"] => {
                let o = Opts::new(inv, &["character", "count", "page"])?;
                let count = o
                    .int("count", 1, i64::from(MAX_HISTORY))?
                    .map_or(DEFAULT_HISTORY, |c| c as u32);
                Ok(Self::History {
                    character: o.text("character").map(|c| c.trim().to_owned()),
                    count,
                    page: o
                        .int("page", 1, crate::app::layout::MAX_PAGE)?
                        .map_or(1, |p| p as usize),
                })
            }
            _ => Err(user(format!(
                "There is no command {}. /help lists them.",
                escape(&inv.display_path())
            ))),
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        match self {
            Self::Roll {
                expression,
                mode,
                label,
            } => roll(ctx, &expression, mode, &label),
            Self::GmRoll { expression, label } => gm_roll(ctx, &expression, &label),
            Self::Reveal { roll } => reveal(ctx, roll),
            Self::Odds { expression, at } => odds::odds(ctx, &expression, at),
            Self::History {
                character,
                count,
                page,
            } => history::history(ctx, character.as_deref(), count, page),
        }
    }
}

/// A label as given (trimmed), at most [`MAX_LABEL`] characters; empty when absent.
fn label(raw: Option<&str>) -> AppResult<String> {
    let label = raw.map(str::trim).unwrap_or_default();
    let len = label.chars().count();
    if len > MAX_LABEL {
        return Err(user(format!(
            "label can be at most {MAX_LABEL} characters; yours has {len}."
        )));
    }
    Ok(label.to_owned())
}

/// A roll number as players see it under a roll ("Roll #12"): `12` or `#12`.
fn roll_id(raw: &str) -> AppResult<RollId> {
    let digits = raw.trim().trim_start_matches('#');
    match digits.parse::<i64>() {
        Ok(n) if n >= 1 => Ok(RollId(n)),
        _ => Err(user(format!(
            "roll must be a roll number like 12 (shown as \"Roll #12\" under each roll); you gave {:?}",
            raw.trim()
        ))),
    }
}

/// A refused expression, in the parser's words.
fn dice_error(e: &DiceError) -> AppError {
    user(format!("Can't roll that: {e}."))
}

/// Parses `expression` under the configured limits.
fn parse_expression(expression: &str, limits: &Limits) -> AppResult<Expr> {
    expr::parse(expression, limits).map_err(|e| dice_error(&e))
}

/// `/roll`: rolls, logs, and routes by mode.
fn roll(ctx: &Ctx<'_>, expression: &str, mode: RollMode, label: &str) -> AppResult<Reply> {
    // A saved roll's name (`/alias`) rolls its expression; the heading names it (`noted` below).
    let alias = aliases::expand(ctx, expression)?;
    let expression = aliases::text(alias.as_ref(), expression);
    let limits = ctx.app.limits();
    let expr = parse_expression(expression, limits)?;
    let result = expr
        .roll(&mut ctx.dice(), limits)
        .map_err(|e| dice_error(&e))?;
    let mut rolled = Rolled::new(&expr, &result);
    rolled.saved = alias.as_ref().map(|a| a.name.clone());
    let rank = rank_note(&expr, &rolled, limits);
    // `p` (Dice Maiden's private roll): only the roller sees it, as mode self.
    let flagged_private = expr.private() && mode == RollMode::Public;
    let mode = if flagged_private {
        RollMode::SelfOnly
    } else {
        mode
    };
    let id = match journaled(ctx, mode, label, &rolled)? {
        Some(id) => id,
        None => ctx
            .app
            .store
            .write(|tx| ctx.log_roll(tx, None, ROLL, mode, label, &rolled))?,
    };
    let who = escape(&ctx.caller.name);
    let mut embed = result_embed(
        &rolled,
        label,
        &aliases::noted(
            alias.as_ref(),
            &format!("{who} rolled {}", typed_and_read(expression, &rolled)),
        ),
        id,
    );
    if let Some(rank) = rank {
        embed.footer = embed.footer.map(|f| format!("{f} · {rank}"));
    }
    let what = format!("`{}`", rolled.expression);
    let reply = ctx.route(mode, &what, Reply::public("").with_embed(embed));
    Ok(if flagged_private {
        reply.with_note("`p`: only you see this roll (as mode self); GMs find it with /history.")
    } else {
        reply
    })
}

/// A public or self `/roll` in a journal job: logged through the store's roll journal, its id
/// (`None`: written the usual way, as [`Ctx::log_roll`] would).
fn journaled(
    ctx: &Ctx<'_>,
    mode: RollMode,
    label: &str,
    rolled: &Rolled,
) -> AppResult<Option<RollId>> {
    if !matches!(mode, RollMode::Public | RollMode::SelfOnly)
        || !crate::store::current_job().journal
    {
        return Ok(None);
    }
    let json = serde_json::to_string(rolled).map_err(anyhow::Error::from)?;
    let roll = NewRoll {
        user: ctx.caller.user,
        character: None,
        command: ROLL,
        mode: mode.store_mode(),
        label,
        result_json: &json,
        commitment: None,
        nonce: None,
        parent: None,
    };
    Ok(ctx.app.store.journal_roll(ctx.caller.guild, &roll)?)
}

/// How the roll was typed and, when the canonical spelling differs, how it was read:
/// ``"`4d6 k3` (read as `4d6kh3`)"``.
fn typed_and_read(typed: &str, rolled: &Rolled) -> String {
    let typed = typed.trim();
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let shown = truncate(&typed.replace('`', "'"), 200);
    if squeeze(typed) == squeeze(&rolled.expression) {
        format!("`{shown}`")
    } else {
        format!("`{shown}` (read as `{}`)", rolled.expression)
    }
}

/// Where a lone roll's total falls among all its possible totals ("better than 83% of rolls"),
/// when its exact odds are cheap to work out; `None` otherwise.
fn rank_note(expr: &Expr, rolled: &Rolled, limits: &Limits) -> Option<String> {
    let [roll] = expr.rolls() else { return None };
    if roll.repeat != 1 || roll.node.dice_count() == 0 || roll.no_total {
        return None;
    }
    let odds = expr::distribution_within(roll, limits, RANK_BUDGET).ok()?;
    if odds.eq(rolled.total) >= 1.0 {
        return None;
    }
    if rolled.total <= odds.low {
        return Some("the lowest total it can roll".to_owned());
    }
    if rolled.total >= odds.high() && odds.cap.is_none() && odds.beyond == 0.0 {
        return Some("the highest total it can roll".to_owned());
    }
    // Whole percents, never "100%" for a total that some rolls beat.
    let below = (odds.le(rolled.total - 1) * 100.0).floor().max(0.0);
    Some(format!("better than {below}% of rolls"))
}

/// The most steps the rank under a `/roll` may take: common rolls need a few hundred.
const RANK_BUDGET: u64 = 20_000;

/// The longest a roll's lines may get in the embed, in characters (Discord allows 4096).
const DESCRIPTION_LIMIT: usize = 3900;

/// The embed of a rolled message: each roll's dice, each repeat's total on its own line, the
/// label and comment, successes counted as successes.
fn result_embed(rolled: &Rolled, label: &str, heading: &str, id: RollId) -> Embed {
    let mut footer = format!("Roll #{id}");
    if rolled.capped {
        footer.push_str(
            " · the cap on extra rolls stopped some dice from exploding or rerolling further",
        );
    }
    let body = body_lines(rolled);
    let first = rolled.lines.first();
    let single = rolled.totals().len() == 1 && !first.is_some_and(|l| l.no_total);
    let successes = first.is_some_and(|l| l.successes);
    let mut total = if successes {
        let n = rolled.total;
        format!(
            "**{n}** {}",
            if n.abs() == 1 { "success" } else { "successes" }
        )
    } else {
        format!("**{}**", rolled.total)
    };
    if let Some(b) = first.and_then(|l| l.sets.first()).and_then(|s| s.botches) {
        total = format!("{total} · {}", botch_count(b));
    }
    Embed {
        title: if label.is_empty() {
            "Dice roll".to_owned()
        } else {
            escape(label)
        },
        description: shorten(heading, &body),
        tone: Some(Tone::Info),
        fields: if single {
            vec![Field {
                name: "Total".into(),
                value: total,
                inline: true,
            }]
        } else {
            Vec::new()
        },
        footer: Some(footer),
    }
}

/// The lines under the heading: for each roll its label, each set's dice and total, its comment.
fn body_lines(rolled: &Rolled) -> Vec<String> {
    if rolled.lines.is_empty() {
        return vec![rolled.dice_line()];
    }
    let many = rolled.lines.len() > 1;
    let mut out = Vec::new();
    for line in &rolled.lines {
        let unit = |set: &RolledSet| {
            let n = set.total;
            let mut text = match (line.successes, n.abs() == 1) {
                (false, _) => format!("**{n}**"),
                (true, true) => format!("**{n}** success"),
                (true, false) => format!("**{n}** successes"),
            };
            if let Some(b) = set.botches {
                text = format!("{text}, {}", botch_count(b));
            }
            text
        };
        if let Some(label) = &line.label {
            out.push(format!("**{}**", escape(label)));
        }
        if let Some(alias) = &line.alias {
            out.push(format!("`{}` is `{}`", escape(alias), line.expression));
        }
        let repeated = line.sets.len() > 1;
        for (i, set) in line.sets.iter().enumerate() {
            let dice = if line.simple {
                String::new()
            } else {
                format!("{} = ", set.shown)
            };
            let text = match (repeated, many) {
                // `nr`: the dice without their total.
                (true, _) if line.no_total => format!("{}. {}", i + 1, set.shown),
                (false, _) if line.no_total => set.shown.clone(),
                (true, _) => format!("{}. {dice}{}", i + 1, unit(set)),
                (false, true) => format!("{dice}{}", unit(set)),
                (false, false) if line.simple => continue,
                (false, false) => set.shown.clone(),
            };
            out.push(text);
        }
        if let Some(comment) = &line.comment {
            out.push(format!("*{}*", escape(comment)));
        }
    }
    out
}

/// "1 botch", "2 botches".
fn botch_count(n: u32) -> String {
    if n == 1 {
        "1 botch".to_owned()
    } else {
        format!("{n} botches")
    }
}

/// The heading and the lines within [`DESCRIPTION_LIMIT`]: a line too long is cut short and
/// says so (its total stays: totals are on their own, or in the Total field).
fn shorten(heading: &str, lines: &[String]) -> String {
    let mut out = heading.to_owned();
    let per_line = DESCRIPTION_LIMIT.saturating_sub(heading.chars().count()) / lines.len().max(1);
    for line in lines {
        out.push('\n');
        if line.chars().count() > per_line {
            // Keep the total that ends the line (` = **12**`), cut the dice before it.
            let (dice, total) = line.rsplit_once(" = ").unwrap_or((line.as_str(), ""));
            let room = per_line.saturating_sub(total.chars().count() + 20);
            let cut: String = dice.chars().take(room).collect();
            // A cut inside `~~…~~` or `**…**` would break the rest of the message.
            let cut = cut.replace("~~", "").replace("**", "");
            out.push_str(&cut);
            out.push_str("… (shortened)");
            if !total.is_empty() {
                out.push_str(" = ");
                out.push_str(total);
            }
        } else {
            out.push_str(line);
        }
    }
    truncate(&out, DESCRIPTION_LIMIT + 100)
}

/// `/gm roll`: a secret roll. The channel sees the commitment; the GM copy has the result.
fn gm_roll(ctx: &Ctx<'_>, expression: &str, label: &str) -> AppResult<Reply> {
    ctx.gm()?;
    // A saved roll's name (`/alias`): the GM's copy names it (`noted` below), the channel never.
    let alias = aliases::expand(ctx, expression)?;
    let expression = aliases::text(alias.as_ref(), expression);
    let limits = ctx.app.limits();
    let expr = parse_expression(expression, limits)?;
    // One guard for the roll and the nonce: asking `ctx.dice()` twice at once would deadlock
    // the seeded generator.
    let (result, nonce) = {
        let mut dice = ctx.dice();
        let result = expr.roll(&mut dice, limits).map_err(|e| dice_error(&e))?;
        (result, commit::nonce(&mut dice))
    };
    let rolled = Rolled::new(&expr, &result);
    let committed = commit::committed_string(&rolled.canonical(), &nonce);
    let commitment = commit::commitment(&committed);
    let json = serde_json::to_string(&rolled).map_err(anyhow::Error::from)?;
    let id = ctx.app.store.write(|tx| {
        rolls::insert(
            tx,
            ctx.caller.guild,
            &NewRoll {
                user: ctx.caller.user,
                character: None,
                command: GM_ROLL,
                mode: Mode::Secret,
                label,
                result_json: &json,
                commitment: Some(&commitment),
                nonce: Some(&nonce),
                parent: None,
            },
        )
        .and_then(|id| {
            ctx.hold_copy(tx, id, "Secret", &format!("/gm roll {label}"))
                .map(|()| id)
        })
    })?;

    let public = Embed {
        title: if label.is_empty() {
            "Secret roll".to_owned()
        } else {
            format!("Secret roll: {}", escape(label))
        },
        description: format!(
            "The GM rolled in secret. This SHA-256 commits to the result; `/reveal roll:{id}` will show what lets anyone check it."
        ),
        tone: Some(Tone::Grey),
        fields: vec![Field {
            name: "Commitment".into(),
            value: format!("`{commitment}`"),
            inline: false,
        }],
        footer: Some(format!("Roll #{id}")),
    };
    // Without a GM channel the copy reaches the GM who rolled alone (`App::try_handle`), and
    // says so.
    let heading = if ctx.gm_channel().is_some() {
        format!("Secret roll #{id}, for GMs only")
    } else {
        format!(
            "Secret roll #{id}: no GM channel is set, so the result is shown to you alone (/gm setup gm_channel:… sends the next ones there)."
        )
    };
    let copy = Reply::public(heading).with_embed(result_embed(
        &rolled,
        label,
        &aliases::noted(alias.as_ref(), &typed_and_read(expression, &rolled)),
        id,
    ));
    Ok(Reply::public("").with_embed(public).with_gm_copy(copy))
}

/// `/reveal`: publishes a secret roll's result, nonce and the exact string hashed, once.
fn reveal(ctx: &Ctx<'_>, id: RollId) -> AppResult<Reply> {
    let gm = ctx.gm()?;
    let (row, rolled, nonce, committed) = ctx.app.store.write(|tx| -> AppResult<_> {
        let not_secret = || {
            user(format!(
                "Roll #{id} is not a secret roll; /reveal works on rolls made with /gm roll."
            ))
        };
        let row = rolls::get(tx, ctx.caller.guild, id)?.ok_or_else(|| {
            user(format!(
                "There is no roll #{id} here. /history lists recent rolls with their numbers."
            ))
        })?;
        if row.mode != Mode::Secret {
            return Err(not_secret());
        }
        let secret = rolls::secret(tx, gm, id)?.ok_or_else(not_secret)?;
        if secret.revealed_at.is_some() {
            return Err(user(format!(
                "Roll #{id} was already revealed; /history shows its result."
            )));
        }
        let rolled: Rolled =
            serde_json::from_str(&secret.result_json).map_err(anyhow::Error::from)?;
        let nonce = secret
            .nonce
            .ok_or_else(|| anyhow::anyhow!("secret roll #{id} has no nonce"))?;
        let committed = commit::committed_string(&rolled.canonical(), &nonce);
        // Checked before the reveal is written, so a mismatch (a damaged log) reveals nothing.
        if row.commitment.as_deref() != Some(commit::commitment(&committed).as_str()) {
            return Err(anyhow::anyhow!("secret roll #{id} does not match its commitment").into());
        }
        if !rolls::reveal(tx, gm, id)? {
            return Err(user(format!(
                "Roll #{id} was already revealed; /history shows its result."
            )));
        }
        Ok((row, rolled, nonce, committed))
    })?;

    let mut embed = result_embed(
        &rolled,
        &row.label,
        &format!(
            "Secret roll #{id} revealed: `{}`",
            rolled.expression.replace('`', "'")
        ),
        id,
    );
    embed.tone = Some(Tone::Green);
    embed.fields.extend([
        Field {
            name: "Nonce".into(),
            value: format!("`{nonce}`"),
            inline: false,
        },
        Field {
            name: "Commitment posted with the roll".into(),
            value: format!("`{}`", row.commitment.unwrap_or_default()),
            inline: false,
        },
    ]);
    // The string goes in the content, in a code block: easy to copy exactly, and not bound by
    // an embed field's 1024 characters.
    let content = format!(
        "Anyone can check roll #{id}: the SHA-256 of this exact string (UTF-8, no newline) must equal the commitment.\n```\n{committed}\n```"
    );
    Ok(Reply::public(content).with_embed(embed))
}
