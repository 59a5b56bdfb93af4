//! `/gm request` (a GM asks named characters for a THIZ check or a TFT save; each player answers
//! with a button on the request) and `/gm check` (the GM rolls a character's check or save from
//! the sheet, in secret).
//!
//! Owns the request's life: who is asked, the buttons, the idempotent press, the request message
//! as it changes, and closing it. The roll itself is the ordinary `/check` or `/tft save` of the
//! character's own sheet, run for the presser, so the roll log, luck buttons, Unlucky flags and the
//! routing of the four modes are those of the commands players already know (blind: only the GM
//! sees the result; the presser is told it was rolled).
//!
//! ## Idempotence
//! A press first claims the character in one `BEGIN IMMEDIATE` write ([`requests::claim`]): only
//! one press of a request and character ever wins it, so a second press, or a repeated delivery,
//! answers "already rolled" and rolls nothing. The roll follows in the command's own write (the
//! store's writer is not re-entrant, and `/tft save` owns its transaction); when it is refused (a
//! sheet that cannot act, a skill it lacks) the claim is released, so the table is exactly as it
//! was and the player can press again once the sheet allows it.
//!
//! Must never show a result on the request message, which the whole channel reads: it says who
//! has rolled and who has not, nothing more. NPCs are never asked (their names are the GM's).
//!
//! ## Seams
//! The check or save is another family's command, reached only through the dispatcher, which
//! lends itself: its parser to refuse a request at once ([`Accepts`]), its runner to roll it
//! ([`Ctx::run_command`]). Who is in the channel's encounter (`characters:everyone`) is asked of
//! [`crate::app::encounter`]; the input limits of a check are THIZ's
//! ([`crate::app::thiz::shared`]). Whether a request's dice may be a saved roll's name is asked of
//! [`crate::app::aliases`] (each press rolls `/roll`, which expands it for the presser).

use std::fmt::Write as _;

use crate::app::invocation::{Invocation, Opts, RollMode};
use crate::app::reply::{Button, Embed, Field, Reply, Tone, Visibility};
use crate::app::suggest::{MAX_CHARS, MAX_SUGGESTIONS};
use crate::app::text::{escape, truncate};
use crate::app::thiz::shared::{INPUT_LIMIT, MAX_LABEL};
use crate::app::{App, AppResult, Caller, Ctx, user};
use crate::rules::tft::character::Attribute;
use crate::rules::tft::saves::{MAX_SAVE_DICE, MIN_SAVE_DICE};
use crate::rules::thiz::skills::SkillId;
use crate::store::characters::{self, Character};
use crate::store::guilds::System;
use crate::store::requests::{self, EntryRow, NewRequest, RequestRow};
use crate::store::{CharacterId, Conn};

/// The most characters one request names: a button each, and one to close it, within Discord's
/// 25 buttons on a message.
pub const MAX_CHARACTERS: usize = 20;
/// The custom ids of request buttons start with this.
pub const BUTTON_PREFIX: &str = "req:";
/// The word `characters` takes for everyone in the channel's encounter.
pub const EVERYONE: &str = "everyone";
/// The highest bare number `/tft save` takes as `attribute`.
const MAX_SAVE_NUMBER: i64 = 100;

/// The dispatcher's parser, lent by it: whether it would accept a command. A request names the
/// `/check` or `/tft save` it will run, and is refused at once if that command would be.
pub type Accepts = fn(&Invocation) -> AppResult<()>;

/// What is rolled: a THIZ check, a TFT save, or dice (`/roll`, a saved roll's name too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Check,
    Save,
    Roll,
}

impl Kind {
    fn command(self) -> &'static str {
        match self {
            Kind::Check => "check",
            Kind::Save => "tft save",
            Kind::Roll => "roll",
        }
    }

    fn from_command(command: &str) -> Option<Self> {
        match command {
            "check" => Some(Kind::Check),
            "tft save" => Some(Kind::Save),
            "roll" => Some(Kind::Roll),
            _ => None,
        }
    }

    /// The system of the characters asked; `None`: dice, which any character rolls.
    fn system(self) -> Option<System> {
        match self {
            Kind::Check => Some(System::Thiz),
            Kind::Save => Some(System::Tft),
            Kind::Roll => None,
        }
    }

    /// Whether a character of `system` is asked for this roll.
    fn fits(self, system: System) -> bool {
        self.system().is_none_or(|s| s == system)
    }

    fn path(self) -> &'static [&'static str] {
        match self {
            Kind::Check => &["check"],
            Kind::Save => &["tft", "save"],
            Kind::Roll => &["roll"],
        }
    }
}

/// The roll a request or a secret roll makes, without the character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollSpec {
    kind: Kind,
    /// The options of `/check`, `/tft save` or `/roll`, but `character` and `mode`.
    options: Vec<(String, String)>,
    /// What is asked for, escaped for display: "a Stealth check, modifier -2".
    what: String,
}

impl RollSpec {
    /// Reads `skill`, `rating` (THIZ) or `attribute` and `dice` (TFT), `modifier` and `label`;
    /// or `expression` (dice, or a saved roll's name) and `label`.
    fn parse(o: &Opts<'_>, command: &str) -> AppResult<Self> {
        let skill = o.text("skill").map(str::trim);
        let rating = o.int("rating", -INPUT_LIMIT, INPUT_LIMIT)?;
        let attribute = o.text("attribute").map(str::trim);
        let dice = o.int("dice", MIN_SAVE_DICE.into(), MAX_SAVE_DICE.into())?;
        let modifier = o
            .int("modifier", -INPUT_LIMIT, INPUT_LIMIT)?
            .filter(|m| *m != 0);
        let label = label(o)?;
        if let Some(expression) = o.text("expression").map(str::trim) {
            if skill.is_some() || rating.is_some() || attribute.is_some() || dice.is_some() {
                return Err(user(format!(
                    "{command} takes one of skill, rating, attribute or expression, not several."
                )));
            }
            if modifier.is_some() {
                return Err(user(format!(
                    "{command}: with expression, put the modifier in it, like expression:1d20+2."
                )));
            }
            return Ok(Self::dice(expression, label));
        }
        if dice.is_some() && attribute.is_none() {
            return Err(user(format!(
                "{command}: dice goes with attribute (a TFT save), like attribute:dx dice:3."
            )));
        }
        let mut options = Vec::new();
        let (kind, mut what) = match (skill, rating, attribute) {
            (Some(skill), None, None) => {
                let id = SkillId::parse(skill).map_err(|e| {
                    user(format!(
                        "Unknown skill: {}. Name a skill of the rules, like skill:Stealth.{}",
                        escape(&e.to_string()),
                        crate::app::text::did_you_mean_skill(skill)
                    ))
                })?;
                let name = id.to_string();
                let what = format!("a {} check", escape(&name));
                options.push(("skill".to_owned(), name));
                (Kind::Check, what)
            }
            (None, Some(rating), None) => {
                options.push(("rating".to_owned(), rating.to_string()));
                (Kind::Check, format!("a check at rating {rating}"))
            }
            (None, None, Some(attribute)) => {
                let Some(dice) = dice else {
                    return Err(user(format!(
                        "{command}: a save needs dice as well, like attribute:dx dice:3."
                    )));
                };
                let against = match Attribute::parse(attribute) {
                    Some(a) => a.name().to_owned(),
                    None => match attribute.parse::<i64>() {
                        Ok(n) if (1..=MAX_SAVE_NUMBER).contains(&n) => n.to_string(),
                        _ => {
                            return Err(user(format!(
                                "attribute must be st, dx, iq or a number from 1 to {MAX_SAVE_NUMBER}; you gave \"{}\"",
                                escape(&truncate(attribute, 40))
                            )));
                        }
                    },
                };
                options.push(("attribute".to_owned(), against.clone()));
                options.push(("dice".to_owned(), dice.to_string()));
                (Kind::Save, format!("a {dice}-dice save against {against}"))
            }
            (None, None, None) => {
                return Err(user(format!(
                    "{command} needs what to roll: skill:… or rating:… (a THIZ check), attribute:… dice:… (a TFT save), or expression:… (dice, or a saved roll's name)."
                )));
            }
            _ => {
                return Err(user(format!(
                    "{command} takes one of skill, rating or attribute, not several."
                )));
            }
        };
        if let Some(m) = modifier {
            options.push(("modifier".to_owned(), m.to_string()));
            let _ = write!(what, ", modifier {}", crate::app::text::signed(int(m)));
        }
        if !label.is_empty() {
            // `/tft save` has no label: a save's label is shown on the request only.
            if kind != Kind::Save {
                options.push(("label".to_owned(), label.to_owned()));
            }
            let _ = write!(what, " ({})", escape(label));
        }
        Ok(Self {
            kind,
            options,
            what,
        })
    }

    /// A request for dice: `/roll expression` for each presser.
    fn dice(expression: &str, label: &str) -> Self {
        let mut options = vec![("expression".to_owned(), expression.to_owned())];
        let mut what = format!("a roll of `{}`", expression.replace('`', "'"));
        if !label.is_empty() {
            options.push(("label".to_owned(), label.to_owned()));
            let _ = write!(what, " ({})", escape(label));
        }
        Self {
            kind: Kind::Roll,
            options,
            what,
        }
    }

    /// The `/check`, `/tft save` or `/roll` this spec runs for `character` in `mode`.
    // Decision: `/roll` knows no character: the roll is labelled with the character's name
    // (before the request's label), so the channel and the log say whose roll it was; a saved
    // roll's name is the presser's own saved roll, else the server's (`aliases::expand`).
    fn invocation(&self, character: &str, mode: RollMode) -> Invocation {
        let mut options = self.options.clone();
        if self.kind == Kind::Roll {
            let label = match options.iter().position(|(k, _)| k == "label") {
                Some(at) => format!("{character} · {}", options.remove(at).1),
                None => character.to_owned(),
            };
            options.push(("label".to_owned(), truncate(&label, MAX_LABEL)));
        } else {
            options.push(("character".to_owned(), character.to_owned()));
        }
        options.push((
            "mode".to_owned(),
            RollMode::NAMES[mode_index(mode)].to_owned(),
        ));
        Invocation {
            path: self.kind.path().iter().map(|p| (*p).to_owned()).collect(),
            options,
        }
    }

    /// Refuses options that `/check` or `/tft save` would refuse, before anything is stored.
    fn validate(&self, mode: RollMode, accepts: Accepts) -> AppResult<()> {
        accepts(&self.invocation("someone", mode))
    }
}

/// The `label` option, trimmed (empty when absent), at most [`MAX_LABEL`] characters.
fn label<'a>(o: &Opts<'a>) -> AppResult<&'a str> {
    let label = o.text("label").map(str::trim).unwrap_or_default();
    let len = label.chars().count();
    if len > MAX_LABEL {
        return Err(user(format!(
            "label can be at most {MAX_LABEL} characters; yours has {len}."
        )));
    }
    Ok(label)
}

fn mode_index(mode: RollMode) -> usize {
    match mode {
        RollMode::Public => 0,
        RollMode::Private => 1,
        RollMode::Blind => 2,
        RollMode::SelfOnly => 3,
    }
}

/// A number already checked to be within ±40.
fn int(v: i64) -> i32 {
    i32::try_from(v).unwrap_or_default()
}

/// Who a request asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// Characters by name, as typed.
    Named(Vec<String>),
    /// Everyone in the channel's encounter.
    Everyone,
}

/// `/gm request characters … [mode]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestArgs {
    asked: Asked,
    spec: RollSpec,
    mode: RollMode,
}

impl RequestArgs {
    pub fn parse(inv: &Invocation, accepts: Accepts) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "characters",
                "skill",
                "rating",
                "attribute",
                "dice",
                "expression",
                "modifier",
                "mode",
                "label",
            ],
        )?;
        let raw = o.required("characters")?.trim();
        let asked = if raw.eq_ignore_ascii_case(EVERYONE) {
            Asked::Everyone
        } else {
            let names: Vec<String> = raw
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect();
            if names.is_empty() {
                return Err(user(
                    "characters names who should roll, separated by commas (characters:\"Gala, Brom\"), or everyone.",
                ));
            }
            if names.len() > MAX_CHARACTERS {
                return Err(user(format!(
                    "A request can name at most {MAX_CHARACTERS} characters; you named {}.",
                    names.len()
                )));
            }
            Asked::Named(names)
        };
        let spec = RollSpec::parse(&o, "/gm request")?;
        let mode = o.mode()?;
        spec.validate(mode, accepts)?;
        Ok(Self { asked, spec, mode })
    }
}

/// `/gm check character …`: the GM rolls from the sheet, in secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretArgs {
    character: String,
    spec: RollSpec,
}

impl SecretArgs {
    pub fn parse(inv: &Invocation, accepts: Accepts) -> AppResult<Self> {
        let o = Opts::new(
            inv,
            &[
                "character",
                "skill",
                "rating",
                "attribute",
                "dice",
                "modifier",
                "label",
            ],
        )?;
        let character = o.required("character")?.trim().to_owned();
        let spec = RollSpec::parse(&o, "/gm check")?;
        spec.validate(RollMode::Blind, accepts)?;
        Ok(Self { character, spec })
    }
}

/// A press of a request's button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    /// `req:<request>:<character>`: roll for that character.
    Roll {
        request: i64,
        character: CharacterId,
    },
    /// `req:<request>:close`: the GM closes the request.
    Close { request: i64 },
}

impl Press {
    /// Reads a request button's custom id; `None` when it is not one (another module's button).
    pub fn parse_button(inv: &Invocation) -> Option<AppResult<Self>> {
        let id = inv.option("id")?.strip_prefix(BUTTON_PREFIX)?;
        let bad = || user("That button is not one of referee's roll requests.");
        let parsed = (|| {
            if inv.options.len() != 1 {
                return Err(bad());
            }
            let (request, what) = id.split_once(':').ok_or_else(bad)?;
            let request: i64 = request.parse().ok().filter(|r| *r > 0).ok_or_else(bad)?;
            if what == "close" {
                return Ok(Press::Close { request });
            }
            let character: i64 = what.parse().ok().filter(|c| *c > 0).ok_or_else(bad)?;
            Ok(Press::Roll {
                request,
                character: CharacterId(character),
            })
        })();
        Some(parsed)
    }
}

fn roll_button(request: i64, entry: &EntryRow) -> Button {
    Button {
        custom_id: format!("{BUTTON_PREFIX}{request}:{}", entry.character),
        label: truncate(&format!("Roll for {}", entry.name), 80),
        disabled: false,
    }
}

fn close_button(request: i64) -> Button {
    Button {
        custom_id: format!("{BUTTON_PREFIX}{request}:close"),
        label: "Close request (GM)".to_owned(),
        disabled: false,
    }
}

/// Everyone in the encounter running in `channel`: the characters a `characters:everyone`
/// request asks (NPCs are dropped later, with the other checks of who may be asked).
/// Empty when the channel has none: then the request asks the server's players ([`players`]).
pub fn encounter_characters(ctx: &Ctx<'_>, channel: Option<u64>) -> AppResult<Vec<CharacterId>> {
    match channel {
        Some(channel) => crate::app::encounter::loaded::figures_in_channel(ctx, channel),
        None => Ok(Vec::new()),
    }
}

/// `characters:everyone` outside an encounter: each player's character of the request's system
/// in this server, the one they used last (a player with three is asked once), most recently
/// used players' first, at most [`MAX_CHARACTERS`].
// Decision (issue 59: "everyone roll Perception" was refused outside a fight, the most common
// request): the server's players, since the bot has no view of who reads a channel (it asks
// for no member intent); the reply names everyone asked, so the GM sees who was.
fn players(ctx: &Ctx<'_>, conn: &Conn, kind: Kind) -> AppResult<Vec<Character>> {
    let guild = ctx.caller.guild;
    let mut owners: Vec<crate::store::UserId> = Vec::new();
    for c in characters::all(conn, guild)? {
        if !c.npc && kind.fits(c.system) && !owners.contains(&c.owner_id) {
            owners.push(c.owner_id);
        }
    }
    let mut out: Vec<Character> = Vec::new();
    for owner in owners {
        if let Some(c) = characters::owned_by(conn, guild, owner)?
            .into_iter()
            .find(|c| kind.fits(c.system))
        {
            out.push(c);
        }
    }
    out.truncate(MAX_CHARACTERS);
    Ok(out)
}

/// Autocomplete of `characters` (a comma-separated list): the player characters whose names
/// match the last name being typed, each after the names already typed (which are not offered
/// again), and `everyone` while nothing else is typed. NPCs are never offered, since a request
/// refuses them; a player (who cannot request) is offered nothing. Never errors: a failure is
/// logged and answered with no suggestions.
pub fn suggest_characters(app: &App, caller: &Caller, typed: &str) -> Vec<String> {
    let (done, last) = match typed.rsplit_once(',') {
        Some((done, last)) => (Some(done.trim_end()), last.trim()),
        None => (None, typed.trim()),
    };
    let key = last.to_lowercase();
    let already: Vec<String> = done
        .into_iter()
        .flat_map(|d| d.split(','))
        .map(|n| n.trim().to_lowercase())
        .collect();
    let found = Ctx::new(app, caller, "autocomplete").and_then(|ctx| {
        if !ctx.is_gm() {
            return Ok(None);
        }
        Ok(Some(app.store.read(|c| characters::all(c, caller.guild))?))
    });
    let all = match found {
        Ok(Some(all)) => all,
        Ok(None) => return Vec::new(),
        Err(e) => {
            tracing::warn!(error = ?e, guild = %caller.guild, "autocomplete of characters failed");
            return Vec::new();
        }
    };
    let mut names: Vec<(bool, String)> = all
        .into_iter()
        .filter(|c| !c.npc && !already.contains(&c.name.to_lowercase()))
        .filter_map(|c| {
            let lower = c.name.to_lowercase();
            lower
                .contains(&key)
                .then(|| (!lower.starts_with(&key), c.name))
        })
        .collect();
    // Prefix matches first, then the others, each group by name (as the store lists them).
    names.sort_by_key(|(later, _)| *later);
    let mut out = Vec::new();
    if done.is_none() && EVERYONE.starts_with(&key) {
        out.push(EVERYONE.to_owned());
    }
    out.extend(
        names
            .into_iter()
            .map(|(_, name)| match done {
                Some(done) if !done.is_empty() => format!("{done}, {name}"),
                _ => name,
            })
            .filter(|v| v.chars().count() <= MAX_CHARS),
    );
    out.truncate(MAX_SUGGESTIONS);
    out
}

/// `/gm request`: stores the request and posts it, one button per character asked.
pub fn request(ctx: &Ctx<'_>, a: &RequestArgs) -> AppResult<Reply> {
    ctx.gm()?;
    if a.spec.kind == Kind::Roll {
        checked_dice(ctx, &a.spec)?;
    }
    // The players will roll, and their private or blind rolls need a GM channel (see
    // `Ctx::check_mode`): refused now, when the GM asks, rather than at every press.
    if ctx.gm_channel().is_none() {
        let what = match a.mode {
            RollMode::Private => Some("the private rolls' copies for the GM would go nowhere"),
            RollMode::Blind => Some("the blind rolls' results would reach no GM"),
            RollMode::Public | RollMode::SelfOnly => None,
        };
        if let Some(what) = what {
            return Err(user(format!(
                "No GM channel is set here, so {what}. Ask with mode:public or mode:self, or set a GM channel first with /gm setup gm_channel:#channel."
            )));
        }
    }
    let from_encounter = match &a.asked {
        Asked::Everyone => Some(encounter_characters(ctx, ctx.channel)?),
        Asked::Named(_) => None,
    };
    ctx.app.store.write(|tx| {
        let asked = match &a.asked {
            Asked::Named(names) => named(ctx, tx, names, a.spec.kind)?,
            Asked::Everyone => match from_encounter.as_deref().unwrap_or_default() {
                [] => players(ctx, tx, a.spec.kind)?,
                ids => encounter(ctx, tx, ids, a.spec.kind)?,
            },
        };
        if asked.is_empty() {
            let whose = if from_encounter.as_ref().is_some_and(|f| !f.is_empty()) {
                "the encounter has"
            } else {
                "this server has"
            };
            let of = if a.spec.kind.system().is_some() {
                " of this system"
            } else {
                ""
            };
            return Err(user(format!(
                "Nobody to ask: {whose} no player characters{of}."
            )));
        }
        let ids: Vec<CharacterId> = asked.iter().map(|c| c.id).collect();
        let options_json = serde_json::to_string(&a.spec.options).map_err(anyhow::Error::from)?;
        let id = requests::create(
            tx,
            ctx.caller.guild,
            &NewRequest {
                gm: ctx.caller.user,
                command: a.spec.kind.command(),
                options_json: &options_json,
                what: &a.spec.what,
                mode: RollMode::NAMES[mode_index(a.mode)],
                characters: &ids,
            },
        )?;
        message(tx, ctx, id)
    })
}

/// Refuses a request's `expression` that no presser could roll: one that is neither dice
/// `/roll` reads nor the name of a saved roll (each presser's own, else the server's, given
/// meaning at the press; a press without one is refused then, and the button stays).
fn checked_dice(ctx: &Ctx<'_>, spec: &RollSpec) -> AppResult<()> {
    let expression = spec
        .options
        .iter()
        .find(|(k, _)| k == "expression")
        .map_or("", |(_, v)| v.as_str());
    match crate::rules::dice::expr::parse(expression, ctx.app.limits()) {
        Ok(_) => Ok(()),
        Err(_) if crate::app::aliases::may_name(expression) => Ok(()),
        Err(e) => Err(user(format!(
            "Can't ask for that roll: {e}. Ask for dice /roll reads, like expression:1d20+2, or a saved roll's name."
        ))),
    }
}

/// The characters named, each one the caller may see, a player's (never an NPC), of the
/// system the roll is for; each once.
fn named(ctx: &Ctx<'_>, conn: &Conn, names: &[String], kind: Kind) -> AppResult<Vec<Character>> {
    let mut out: Vec<Character> = Vec::new();
    for name in names {
        let c = ctx.find_character(conn, name)?;
        if c.npc {
            return Err(user(format!(
                "{} is an NPC: roll its checks yourself, with /gm check or /check.",
                escape(&c.name)
            )));
        }
        check_system(&c, kind)?;
        if !out.iter().any(|o| o.id == c.id) {
            out.push(c);
        }
    }
    Ok(out)
}

/// The encounter's player characters of the roll's system (NPCs are the GM's to roll).
fn encounter(
    ctx: &Ctx<'_>,
    conn: &Conn,
    ids: &[CharacterId],
    kind: Kind,
) -> AppResult<Vec<Character>> {
    let mut out: Vec<Character> = Vec::new();
    for id in ids {
        if let Some(c) = characters::by_id(conn, ctx.caller.guild, *id)?
            && !c.npc
            && kind.fits(c.system)
            && !out.iter().any(|o| o.id == c.id)
        {
            out.push(c);
        }
        if out.len() == MAX_CHARACTERS {
            break;
        }
    }
    Ok(out)
}

fn check_system(c: &Character, kind: Kind) -> AppResult<()> {
    if kind.fits(c.system) {
        return Ok(());
    }
    Err(user(match kind {
        // Any character rolls dice: `fits` said so.
        Kind::Roll => return Ok(()),
        Kind::Check => format!(
            "{} is a TFT character: ask TFT characters for a save (attribute:… dice:…), THIZ ones for a check.",
            escape(&c.name)
        ),
        Kind::Save => format!(
            "{} is a THIZ character: ask THIZ characters for a check (skill:… or rating:…), TFT ones for a save.",
            escape(&c.name)
        ),
    }))
}

fn mode_line(mode: &str) -> &'static str {
    match mode {
        "private" => "Private: each result goes to its roller and to the GM.",
        "blind" => "Blind: only the GM sees the results.",
        "self" => "Self: each roller alone sees the result (the GM can read it in the log).",
        _ => "Public: the results are posted here.",
    }
}

/// The request message as it reads now: what is asked, who has rolled, who has not, and a
/// button for each who has not (plus the GM's close button) while it is open. Never a result.
fn message(conn: &Conn, ctx: &Ctx<'_>, id: i64) -> AppResult<Reply> {
    let row = requests::get(conn, ctx.caller.guild, id)?
        .ok_or_else(|| anyhow::anyhow!("roll request {id} vanished while it was shown"))?;
    let entries = requests::entries(conn, ctx.caller.guild, id)?;
    let names = |rolled: bool| {
        let list: Vec<String> = entries
            .iter()
            .filter(|e| e.rolled_by.is_some() == rolled)
            .map(|e| escape(&e.name))
            .collect();
        if list.is_empty() {
            "nobody".to_owned()
        } else {
            truncate(&list.join(", "), 1000)
        }
    };
    let waiting = entries.iter().filter(|e| e.rolled_by.is_none()).count();
    let description = if row.closed && waiting == 0 {
        format!("{}\nEveryone asked has rolled.", mode_line(&row.mode))
    } else if row.closed {
        format!("{}\nClosed by the GM.", mode_line(&row.mode))
    } else {
        format!(
            "{}\nPress the button with your character's name to roll it with your sheet.",
            mode_line(&row.mode)
        )
    };
    let mut reply = Reply::public("").with_embed(Embed {
        title: format!("Roll request: {}", row.what),
        description,
        tone: Some(Tone::Info),
        fields: vec![
            Field {
                name: "Rolled".into(),
                value: names(true),
                inline: false,
            },
            Field {
                name: "Waiting for".into(),
                value: names(false),
                inline: false,
            },
        ],
        footer: Some(format!("Request #{id}")),
    });
    if !row.closed {
        for e in entries.iter().filter(|e| e.rolled_by.is_none()) {
            reply = reply.with_button(roll_button(id, e));
        }
        reply = reply.with_button(close_button(id));
    }
    Ok(reply)
}

/// A press of a request button.
pub fn press(ctx: &Ctx<'_>, press: Press) -> AppResult<Reply> {
    match press {
        Press::Close { request } => close(ctx, request),
        Press::Roll { request, character } => roll(ctx, request, character),
    }
}

fn no_request(id: i64) -> crate::app::AppError {
    user(format!("There is no roll request #{id} here."))
}

fn close(ctx: &Ctx<'_>, id: i64) -> AppResult<Reply> {
    if ctx.gm().is_err() {
        return Err(user("Only a GM can close a roll request."));
    }
    ctx.app.store.write(|tx| {
        let guild = ctx.caller.guild;
        requests::get(tx, guild, id)?.ok_or_else(|| no_request(id))?;
        if !requests::close(tx, guild, id)? {
            return Err(user(format!("Roll request #{id} is already closed.")));
        }
        let shown = message(tx, ctx, id)?;
        Ok(Reply::ephemeral(format!("Roll request #{id} is closed.")).with_update(shown))
    })
}

/// The request and the character a press claims, after the checks that refuse it.
fn claim(
    ctx: &Ctx<'_>,
    id: i64,
    character: CharacterId,
) -> AppResult<(RequestRow, Kind, Character)> {
    ctx.app.store.write(|tx| {
        let guild = ctx.caller.guild;
        let row = requests::get(tx, guild, id)?.ok_or_else(|| no_request(id))?;
        let kind = Kind::from_command(&row.command)
            .ok_or_else(|| anyhow::anyhow!("roll request {id} has command {:?}", row.command))?;
        let entry = requests::entries(tx, guild, id)?
            .into_iter()
            .find(|e| e.character == character)
            .ok_or_else(|| user(format!("That character is not asked by roll request #{id}.")))?;
        let c = characters::by_id(tx, guild, character)?
            .ok_or_else(|| user(format!("That character is not asked by roll request #{id}.")))?;
        if !ctx.can_act(&c) {
            return Err(user(format!(
                "That button is for {}'s player (or a GM); press the one with your character's name.",
                escape(&c.name)
            )));
        }
        if row.closed {
            return Err(user(format!("Roll request #{id} is closed.")));
        }
        if entry.rolled_by.is_some()
            || !requests::claim(tx, guild, id, character, ctx.caller.user)?
        {
            return Err(user(format!(
                "{} has already rolled for this request.",
                escape(&c.name)
            )));
        }
        Ok((row, kind, c))
    })
}

fn roll(ctx: &Ctx<'_>, id: i64, character: CharacterId) -> AppResult<Reply> {
    let (row, kind, c) = claim(ctx, id, character)?;
    let rolled = (|| {
        let options: Vec<(String, String)> =
            serde_json::from_str(&row.options_json).map_err(anyhow::Error::from)?;
        let mode: RollMode = row.mode.parse().map_err(|e: String| anyhow::anyhow!(e))?;
        let spec = RollSpec {
            kind,
            options,
            what: row.what.clone(),
        };
        ctx.run_command(&spec.invocation(&c.name, mode))
    })();
    let guild = ctx.caller.guild;
    match rolled {
        Err(e) => {
            ctx.app
                .store
                .write(|tx| requests::release(tx, guild, id, character, ctx.caller.user))?;
            Err(e)
        }
        Ok(result) => {
            let shown = ctx.app.store.write(|tx| {
                let all_rolled = requests::entries(tx, guild, id)?
                    .iter()
                    .all(|e| e.rolled_by.is_some());
                if all_rolled {
                    requests::close(tx, guild, id)?;
                }
                message(tx, ctx, id)
            })?;
            Ok(result.with_update(shown))
        }
    }
}

/// `/gm check`: the GM rolls the character's check or save from the sheet. The roll is logged
/// blind (its result in the hidden table, as a blind roll's) and shown to the GM alone.
pub fn secret(ctx: &Ctx<'_>, a: &SecretArgs) -> AppResult<Reply> {
    ctx.gm()?;
    let c = ctx
        .app
        .store
        .read(|conn| Ok(ctx.find_character(conn, &a.character)))??;
    check_system(&c, a.spec.kind)?;
    let rolled = ctx.run_command(&a.spec.invocation(&c.name, RollMode::Blind))?;
    // Without a GM channel a GM's blind roll comes back as the GM's own reply, under the same
    // heading line (`Ctx::route`).
    let copy = match rolled.gm_copy {
        Some(copy) => copy,
        None => Box::new(Reply {
            gm_copy: None,
            ..rolled
        }),
    };
    // The copy opens with "Blind roll by …"; what follows it (an Unlucky mishap, say) stays.
    let rest: Vec<&str> = copy.content.lines().skip(1).collect();
    let mut content = format!(
        "Secret roll for {}: only you see it (logged blind).",
        escape(&c.name)
    );
    for line in rest {
        content.push('\n');
        content.push_str(line);
    }
    Ok(Reply {
        content,
        visibility: Visibility::Ephemeral,
        buttons: Vec::new(),
        gm_copy: None,
        gm_channel: None,
        ..*copy
    })
}

#[cfg(test)]
mod tests;
