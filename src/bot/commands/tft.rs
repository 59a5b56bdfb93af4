//! `/tft save|attack|hth|dying|bash|job|heal|stand|repair|condition|reaction`.

use crate::bot::autocomplete;
use crate::bot::choices::{Charge, Facing, Helper, HigherUc, HthAction, Mode, Parry, Stance};
use crate::bot::invoke::{Args, invoke};
use crate::bot::{Context, Error};

/// The Fantasy Trip: saving rolls, attacks and the other rolls on a table
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "tft_save",
        "tft_attack",
        "tft_hth",
        "tft_dying",
        "tft_bash",
        "tft_job",
        "tft_heal",
        "tft_stand",
        "tft_repair",
        "tft_condition",
        "tft_reaction"
    ),
    subcommand_required
)]
// poise wants an async fn, even for a parent Discord never calls.
#[allow(clippy::unused_async)]
pub async fn tft(_: Context<'_>) -> Result<(), Error> {
    // Discord calls only the subcommands.
    Ok(())
}

/// TFT saving roll: some dice against ST, DX, IQ or a number
#[poise::command(slash_command, rename = "save")]
pub async fn tft_save(
    ctx: Context<'_>,
    // A word or a number, so text.
    #[description = "st, dx, iq, or a number from 1 to 100"] attribute: String,
    #[description = "How many dice (1 to 12)"]
    #[min = 1]
    #[max = 12]
    dice: i64,
    #[description = "Whose roll (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Added to the number (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attribute", attribute)
        .opt("dice", dice)
        .opt("character", character)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["tft", "save"], args).await
}

/// TFT attack: to-hit, damage, armor and the hits taken
#[poise::command(slash_command, rename = "attack")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tft_attack(
    ctx: Context<'_>,
    #[description = "Who is attacked; several: \"A, B\""]
    #[autocomplete = "autocomplete::target"]
    target: String,
    #[description = "Who attacks (default: whose turn it is)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "The weapon used (default: the attacker's first)"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: Option<String>,
    #[description = "Where the blow comes from (default front)"] facing: Option<Facing>,
    #[description = "The target is defending (one more die)"] defending: Option<bool>,
    #[description = "The target is dodging (one more die)"] dodging: Option<bool>,
    #[description = "Turns spent waiting for an opening (0 to 100)"]
    #[min = 0]
    #[max = 100]
    wait: Option<i64>,
    #[description = "Hexes to the target, missile or thrown (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    range: Option<i64>,
    #[description = "Rolls to miss already made this turn (0 to 100)"]
    #[min = 0]
    #[max = 100]
    prior: Option<i64>,
    #[description = "Multiple actions' penalty multiplier (1 or 2)"]
    #[min = 1]
    #[max = 2]
    actions: Option<i64>,
    #[description = "A charge by the attacker, or received"] charge: Option<Charge>,
    #[description = "Added to adjusted DX (-40 to 40)"]
    #[min = -40]
    #[max = 40]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
    #[description = "How the target parries the blow (more hits stopped)"] parry: Option<Parry>,
    #[description = "Neighbours in the target's shield wall (0 to 6)"]
    #[min = 0]
    #[max = 6]
    shield_wall: Option<i64>,
    #[description = "The attacker also parries or defends this turn (lower DX)"] stance: Option<
        Stance,
    >,
    #[description = "More, comma-separated: invisible, second-attack, aim:head, attackers:2…"]
    #[autocomplete = "autocomplete::tft_adjust"]
    adjust: Option<String>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("weapon", weapon)
        .choice("facing", facing)
        .opt("defending", defending)
        .opt("dodging", dodging)
        .opt("wait", wait)
        .opt("range", range)
        .opt("prior", prior)
        .opt("actions", actions)
        .choice("charge", charge)
        .opt("modifier", modifier)
        .choice("mode", mode)
        .choice("parry", parry)
        .opt("shield_wall", shield_wall)
        .choice("stance", stance)
        .opt("adjust", adjust);
    invoke(ctx, &["tft", "attack"], args).await
}

/// TFT hand-to-hand: the roll to enter, to leave, or to draw a dagger
#[poise::command(slash_command, rename = "hth")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tft_hth(
    ctx: Context<'_>,
    #[description = "Who tries to close (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Where the attempt comes from (default front)"] facing: Option<Facing>,
    #[description = "The attacker is crawling"] crawling: Option<bool>,
    #[description = "The attempt is made during movement"] moving: Option<bool>,
    #[description = "The attacker leaps from above"] leaping: Option<bool>,
    #[description = "The defender stands against a wall"] wall: Option<bool>,
    #[description = "The defender has the higher MA"] faster: Option<bool>,
    #[description = "Who has the higher Unarmed Combat talent"] uc: Option<HigherUc>,
    #[description = "Added to the roll (-20 to 20)"]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
    #[description = "Enter HTH (default), leave it, or draw a dagger in it"] action: Option<
        HthAction,
    >,
    #[description = "Moved half MA or less before closing (may strike at once)"] half_ma: Option<
        bool,
    >,
) -> Result<(), Error> {
    let args = Args::new()
        .choice("action", action)
        .opt("half_ma", half_ma)
        .opt("character", character)
        .choice("facing", facing)
        .opt("crawling", crawling)
        .opt("moving", moving)
        .opt("leaping", leaping)
        .opt("wall", wall)
        .opt("faster", faster)
        .choice("uc", uc)
        .opt("modifier", modifier)
        .choice("mode", mode);
    invoke(ctx, &["tft", "hth"], args).await
}

/// TFT roll of a figure at 0 ST or below, to live
#[poise::command(slash_command, rename = "dying")]
pub async fn tft_dying(
    ctx: Context<'_>,
    #[description = "Who is dying (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Who tends the figure"] helper: Option<Helper>,
    #[description = "A second helper"] second: Option<Helper>,
    #[description = "Healing potions given (0 to 4)"]
    #[min = 0]
    #[max = 4]
    potions: Option<i64>,
    #[description = "Minutes the figure lay without help (0 to 600)"]
    #[min = 0]
    #[max = 600]
    minutes: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .choice("helper", helper)
        .choice("second", second)
        .opt("potions", potions)
        .opt("minutes", minutes)
        .choice("mode", mode);
    invoke(ctx, &["tft", "dying"], args).await
}

/// TFT shield bash or rush: the foe's roll to stay up
#[poise::command(slash_command, rename = "bash")]
pub async fn tft_bash(
    ctx: Context<'_>,
    #[description = "Who is bashed"]
    #[autocomplete = "autocomplete::character"]
    target: String,
    #[description = "Who bashes (default: yours)"]
    #[autocomplete = "autocomplete::character"]
    attacker: Option<String>,
    #[description = "A shield rush instead of a bash"] rush: Option<bool>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("attacker", attacker)
        .opt("target", target)
        .opt("rush", rush)
        .choice("mode", mode);
    invoke(ctx, &["tft", "bash"], args).await
}

/// TFT: a week of a job
#[poise::command(slash_command, rename = "job")]
#[allow(clippy::too_many_arguments)] // one parameter per Discord option
pub async fn tft_job(
    ctx: Context<'_>,
    // More jobs than Discord's 25 choices, so text; app names them all on a typo.
    #[description = "The job, like Garrison, Scribe or thief"] job: String,
    #[description = "Who works (default: yours)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
    #[description = "Roll to find the job first"] looking: Option<bool>,
    #[description = "Weapon talents (0 to 50)"]
    #[min = 0]
    #[max = 50]
    weapon_talents: Option<i64>,
    #[description = "Combat talents (0 to 50)"]
    #[min = 0]
    #[max = 50]
    combat_talents: Option<i64>,
    #[description = "sergeant, lieutenant or captain"] rank: Option<String>,
    #[description = "Own lodging (+1/3 lifestyle)"] own_lodging: Option<bool>,
    #[description = "Own shop (+25% pay)"] self_employed: Option<bool>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("job", job)
        .opt("character", character)
        .opt("looking", looking)
        .opt("weapon_talents", weapon_talents)
        .opt("combat_talents", combat_talents)
        .opt("rank", rank)
        .opt("own_lodging", own_lodging)
        .opt("self_employed", self_employed)
        .choice("mode", mode);
    invoke(ctx, &["tft", "job"], args).await
}

/// TFT healing and rest (GM); a player drinks their figure's own healing potions
#[poise::command(slash_command, rename = "heal")]
pub async fn tft_heal(
    ctx: Context<'_>,
    #[description = "Who heals"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Hits healed by rest, a spell or a physicker (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    hits: Option<i64>,
    #[description = "Fatigue recovered by rest (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    fatigue: Option<i64>,
    #[description = "Healing potions drunk, 4 hits each (a player: from the sheet's own)"]
    #[min = 0]
    #[max = 100]
    potions: Option<i64>,
    #[description = "First Aid given: 1 hit"] first_aid: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("hits", hits)
        .opt("fatigue", fatigue)
        .opt("potions", potions)
        .opt("first_aid", first_aid);
    invoke(ctx, &["tft", "heal"], args).await
}

/// TFT: stand up from a knockdown (takes the turn)
#[poise::command(slash_command, rename = "stand")]
pub async fn tft_stand(
    ctx: Context<'_>,
    #[description = "Who stands (default: your character)"]
    #[autocomplete = "autocomplete::character"]
    character: Option<String>,
) -> Result<(), Error> {
    let args = Args::new().opt("character", character);
    invoke(ctx, &["tft", "stand"], args).await
}

/// TFT: mend a broken weapon (GM)
#[poise::command(slash_command, rename = "repair")]
pub async fn tft_repair(
    ctx: Context<'_>,
    #[description = "Whose weapon"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "The broken weapon, as carried"]
    #[autocomplete = "autocomplete::weapon"]
    weapon: String,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("weapon", weapon);
    invoke(ctx, &["tft", "repair"], args).await
}

/// TFT: set a figure's hits, fatigue, knockdown or death (GM correction)
#[poise::command(slash_command, rename = "condition")]
pub async fn tft_condition(
    ctx: Context<'_>,
    #[description = "Whose condition"]
    #[autocomplete = "autocomplete::character"]
    character: String,
    #[description = "Hits taken (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    hits: Option<i64>,
    #[description = "Fatigue taken (0 to 10000)"]
    #[min = 0]
    #[max = 10000]
    fatigue: Option<i64>,
    #[description = "On the ground after a knockdown"] knocked_down: Option<bool>,
    #[description = "Dead"] dead: Option<bool>,
) -> Result<(), Error> {
    let args = Args::new()
        .opt("character", character)
        .opt("hits", hits)
        .opt("fatigue", fatigue)
        .opt("knocked_down", knocked_down)
        .opt("dead", dead);
    invoke(ctx, &["tft", "condition"], args).await
}

/// TFT: an NPC's reaction to the party (1d), with the chances
#[poise::command(slash_command, rename = "reaction")]
pub async fn tft_reaction(
    ctx: Context<'_>,
    #[description = "Added to the die (-3 to 3)"]
    #[min = -3]
    #[max = 3]
    modifier: Option<i64>,
    #[description = "Who sees the roll (default public)"] mode: Option<Mode>,
) -> Result<(), Error> {
    let args = Args::new().opt("modifier", modifier).choice("mode", mode);
    invoke(ctx, &["tft", "reaction"], args).await
}
