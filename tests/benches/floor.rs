//! The floor of `bot_load`: a bare serenity + poise bot that only rolls, to set referee's CPU per
//! interaction beside what the libraries alone cost.
//!
//! It is built into the `bot_load` benchmark binary and run as a process of its own when that
//! binary is started with `--floor-bot` (the benchmark re-runs itself), so `cargo bench --bench
//! bot_load` builds and runs both, with the same serenity, poise and tokio and the same release
//! profile. It connects exactly as referee does (`DISCORD_TOKEN`, `DISCORD_API_BASE` as serenity's
//! proxy with the rate limiter off, no gateway intents, a multi-threaded tokio runtime), registers
//! one `/roll expression:` command, and answers each with an embed: the expression, the dice and
//! the total. No database, no workers, no admission control, no metrics — only what any bot that
//! answers a roll must do.

use poise::serenity_prelude as serenity;
use rand::RngExt as _;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, (), Error>;

/// `NdM`, `NdM+K` or `NdM-K`: the number of dice, their sides and the modifier.
fn parse(expression: &str) -> Option<(u32, u32, i64)> {
    let text = expression.trim().to_ascii_lowercase();
    let (count, rest) = text.split_once('d')?;
    let count = if count.is_empty() {
        1
    } else {
        count.parse().ok()?
    };
    let (sides, modifier) = match rest.find(['+', '-']) {
        Some(at) => (&rest[..at], rest[at..].parse().ok()?),
        None => (rest, 0),
    };
    let sides: u32 = sides.parse().ok()?;
    ((1..=100).contains(&count) && (2..=1000).contains(&sides)).then_some((count, sides, modifier))
}

/// Rolls dice.
#[poise::command(slash_command)]
async fn roll(
    ctx: Context<'_>,
    #[description = "What to roll, like 3d6+2"] expression: String,
) -> Result<(), Error> {
    let Some((count, sides, modifier)) = parse(&expression) else {
        ctx.send(
            poise::CreateReply::default()
                .content("Try something like 3d6+2.")
                .ephemeral(true),
        )
        .await?;
        return Ok(());
    };
    let dice: Vec<i64> = {
        // The floor is any bare bot, not referee: it rolls with `rand` directly.
        #[allow(clippy::disallowed_methods)]
        let mut rng = rand::rng();
        (0..count)
            .map(|_| i64::from(rng.random_range(1..=sides)))
            .collect()
    };
    let total: i64 = dice.iter().sum::<i64>() + modifier;
    let shown: Vec<String> = dice.iter().map(ToString::to_string).collect();
    let embed = serenity::CreateEmbed::new()
        .title(format!("{expression} → {total}"))
        .description(format!("[{}] {modifier:+}", shown.join(", ")));
    ctx.send(poise::CreateReply::default().embed(embed)).await?;
    Ok(())
}

/// Runs the floor bot until it is killed.
pub fn run() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let token = std::env::var("DISCORD_TOKEN").expect("DISCORD_TOKEN");
        let mut http = serenity::HttpBuilder::new(token.trim());
        if let Ok(base) = std::env::var("DISCORD_API_BASE") {
            http = http
                .proxy(base.trim_end_matches('/'))
                .ratelimiter_disabled(true);
        }
        let framework = poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: vec![roll()],
                allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
                initialize_owners: false,
                ..Default::default()
            })
            .setup(|ctx, _ready, framework| {
                Box::pin(async move {
                    poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                    Ok(())
                })
            })
            .build();
        let mut client =
            serenity::ClientBuilder::new_with_http(http.build(), serenity::GatewayIntents::empty())
                .framework(framework)
                .await
                .expect("a serenity client");
        if let Err(error) = client.start().await {
            eprintln!("floor bot: {error}");
        }
    });
}
