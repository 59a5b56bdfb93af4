//! `referee run`: connect to Discord (or to the base URL in `DISCORD_API_BASE`), register the
//! commands, answer interactions, and shut down cleanly on SIGINT/SIGTERM.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, bail};
use poise::serenity_prelude as serenity;

use super::deliver::{self, Outbox};
use super::inflight::Inflight;
use super::metrics::{self, Metrics};
use super::workers::{
    BATCHES_ENV, DRAINS_ENV, INLINE_ENV, PG_WRITERS, THREADS_ENV, Workers, count_setting,
};
use super::{Data, Error, buttons, commands, render};
use crate::app::{App, Dice};
use crate::config::{Config, Shards};
use crate::store::Dialect;
use crate::store::Store;

/// How long a shutdown waits for commands in flight.
const DRAIN_LIMIT: Duration = Duration::from_secs(10);

/// Runs the bot until SIGINT or SIGTERM.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let http = discord_http(&config).await?;

    let outbox = Arc::new(Outbox::new(&config.delivery));
    let readies = Arc::new(super::Readies::default());
    // Opening the database blocks (a PostgreSQL client runs its own little runtime, which may
    // not start inside this one): off the async threads.
    let Started {
        app,
        inflight,
        workers,
        metrics,
        metrics_server: _metrics_server,
    } = start_app(&config, &outbox, true).await?;
    let unparsed_metrics = metrics.clone();
    let data = Data {
        app: Arc::clone(&app),
        workers: Arc::clone(&workers),
        inflight: Arc::clone(&inflight),
        registration: super::Registration::new(config.discord.dev_guild_id),
        outbox: Arc::clone(&outbox),
        readies: Arc::clone(&readies),
        metrics,
    };
    let dev_guild = config.discord.dev_guild_id;
    let shard_plan = config.discord.shards;
    let register = config
        .discord
        .register_commands
        .unwrap_or_else(|| shard_plan.holds_shard_zero());

    let framework = poise::Framework::builder()
        .options(framework_options())
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                if register {
                    register_commands(ctx, commands, dev_guild).await?;
                } else {
                    tracing::info!("another process registers the commands");
                }
                tracing::info!(bot = %ready.user.name, commands = commands.len(), "ready");
                Ok(data)
            })
        })
        .build();
    // Every interaction is admitted, or turned away, before poise sees it; the door also
    // watches each shard for the interactions serenity cannot read.
    let framework = super::door::Door::new(
        framework,
        Arc::clone(&inflight),
        Arc::clone(&workers),
        unparsed_metrics.clone(),
        super::unparsed::Unreadable::new(unparsed_metrics),
    );

    let mut client =
        serenity::ClientBuilder::new_with_http(http, serenity::GatewayIntents::empty())
            .framework(framework)
            .await
            .context("cannot build the Discord client")?;
    prime_shard_restarts(&client.shard_manager);
    // Copies left from the last run go out now; new ones as commands make them.
    let delivery = deliver::start(
        outbox,
        Arc::clone(&app),
        Arc::clone(&workers),
        Arc::clone(&client.http),
    );
    let shards = Arc::clone(&client.shard_manager);
    tokio::spawn(async move {
        shutdown_signal().await;
        tracing::info!("shutting down: finishing commands in flight");
        shards.shutdown_all().await;
    });
    take_identify_turn(&app, &client.http, shard_plan, readies).await?;
    let outcome = start_shards(&mut client, shard_plan).await;
    wind_down(&app, &inflight, delivery, &workers).await;
    drop(client);
    // The last handle to the store closes its connections (and WAL) here; closing the database's connections blocks too.
    let _ = tokio::task::spawn_blocking(move || drop(app)).await;
    outcome.context("the connection to Discord failed")?;
    Ok(())
}

/// What both modes start before taking interactions (`run` and `serve`).
pub(super) struct Started {
    pub app: Arc<App>,
    pub inflight: Arc<Inflight>,
    pub workers: Arc<Workers>,
    pub metrics: Option<Arc<Metrics>>,
    /// The metrics endpoint, served while this is held.
    pub metrics_server: Option<metrics::Server>,
}

/// Opens the app on its database (off the async threads: opening blocks, and a PostgreSQL
/// client runs its own little runtime, which may not start inside this one), then the
/// in-flight limit, the app threads and the metrics. `watch_encounters`: see [`open_app`].
pub(super) async fn start_app(
    config: &Config,
    outbox: &Arc<Outbox>,
    watch_encounters: bool,
) -> anyhow::Result<Started> {
    let app = {
        let (config, outbox) = (config.clone(), Arc::clone(outbox));
        tokio::task::spawn_blocking(move || open_app(&config, &outbox, watch_encounters))
            .await
            .context("opening the database")??
    };
    let inflight = Arc::new(Inflight::with_limit(Inflight::limit_from(
        std::env::var(super::inflight::INFLIGHT_ENV).ok().as_deref(),
    )));
    let inline = Workers::inline(std::env::var(INLINE_ENV).ok().as_deref());
    let workers = start_workers(&app, inline.is_some())?;
    workers.set_inline_drains(std::env::var(DRAINS_ENV).ok().as_deref());
    if let Some(most) = inline {
        // Inline only while few interactions are in flight (see `workers`' "Inline").
        let inflight = Arc::clone(&inflight);
        workers.gate_inline(move || inflight.current() <= most);
    }
    let (metrics, metrics_server) = start_metrics(config, &app, &workers, &inflight).await?;
    Ok(Started {
        app,
        inflight,
        workers,
        metrics,
        metrics_server,
    })
}

/// The threads that run `app` (see [`super::workers`]): batching writes, unless
/// `REFEREE_WRITE_BATCHES` is `off` (then a pool); with `inline`, on SQLite, an interaction may
/// run on its caller's thread while the writing lane is idle (see `workers`' "Inline").
pub(super) fn start_workers(app: &Arc<App>, inline: bool) -> anyhow::Result<Arc<Workers>> {
    let limit = Workers::default_queue_limit();
    let workers = if Workers::batches(std::env::var(BATCHES_ENV).ok().as_deref()) {
        // SQLite's store takes one writer; PostgreSQL's each batch on a connection of its own,
        // so several batch side by side (a round trip to the server is mostly waiting).
        let writers = match app.store().dialect() {
            Dialect::Sqlite => 1,
            Dialect::Postgres => {
                count_setting(std::env::var(THREADS_ENV).ok().as_deref()).unwrap_or(PG_WRITERS)
            }
        };
        // SQLite's one writer can take a command on the runtime's thread while idle.
        let inline = inline && app.store().dialect() == Dialect::Sqlite;
        Workers::start_batching(
            &(Arc::clone(app) as Arc<dyn super::workers::Batching>),
            limit,
            writers,
            inline,
        )
    } else {
        Workers::start_with(Workers::default_count(), limit)
    }
    .context("cannot start the app threads")?;
    Ok(Arc::new(workers))
}

/// The REST client for Discord (or the base URL in `DISCORD_API_BASE`), with its token checked
/// and the application's id set (the webhook routes of follow-ups need it).
pub(super) async fn discord_http(config: &Config) -> anyhow::Result<serenity::Http> {
    let Some(token) = config
        .discord
        .token
        .clone()
        .filter(|t| !t.trim().is_empty())
    else {
        bail!(
            "no bot token: set the DISCORD_TOKEN environment variable (or discord.token in \
             config.toml) to the token from the Discord developer portal"
        );
    };
    let mut http = serenity::HttpBuilder::new(token.trim());
    if let Some(base) = &config.discord.api_base {
        // Both calls are needed: with the rate limiter on, serenity ignores the proxy.
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let http = http.build();
    check_token(&http, config.discord.api_base.as_deref()).await?;
    Ok(http)
}

/// The metrics and their endpoint, when `[metrics] listen` is set: every group commit is timed
/// from here on. The server stops when its handle is dropped.
pub(super) async fn start_metrics(
    config: &Config,
    app: &Arc<App>,
    workers: &Arc<Workers>,
    inflight: &Arc<Inflight>,
) -> anyhow::Result<(Option<Arc<Metrics>>, Option<metrics::Server>)> {
    let Some(listen) = config.metrics.listen else {
        return Ok((None, None));
    };
    let metrics = Arc::new(Metrics::new());
    let observer = Arc::clone(&metrics);
    app.store()
        .observe_commits(Box::new(move |took| observer.commit(took)));
    let sources = metrics::Sources {
        app: Arc::clone(app),
        workers: Arc::clone(workers),
        inflight: Arc::clone(inflight),
    };
    let server = metrics::Server::start(listen, Arc::clone(&metrics), sources)
        .await
        .with_context(|| format!("cannot serve the metrics on {listen} (metrics.listen)"))?;
    tracing::info!(addr = %server.addr, "metrics: serving GET /metrics");
    Ok((Some(metrics), Some(server)))
}

/// Registers the commands in the development guild, or globally.
pub(super) async fn register_commands(
    http: impl AsRef<serenity::Http>,
    commands: &[poise::Command<Data, Error>],
    dev_guild: Option<u64>,
) -> Result<(), Error> {
    match dev_guild {
        Some(guild) => {
            poise::builtins::register_in_guild(http, commands, serenity::GuildId::new(guild))
                .await?;
        }
        None => poise::builtins::register_globally(http, commands).await?,
    }
    Ok(())
}

/// How long after its last shard is READY a process keeps its IDENTIFY turn: Discord's window
/// for IDENTIFYs (`max_concurrency` per 5 seconds across all of a bot's processes).
const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);

/// Waits for this process's turn to IDENTIFY among the processes sharing the database
/// (PostgreSQL; nothing to wait for on SQLite), so processes started together never IDENTIFY in
/// the same window: serenity spaces one process's shards 5 seconds apart but knows nothing of
/// the others. The turn is given back once every shard of this process is READY, plus
/// [`IDENTIFY_WINDOW`]; a process that dies gives it back with its database session.
async fn take_identify_turn(
    app: &Arc<App>,
    http: &serenity::Http,
    shards: Shards,
    readies: Arc<super::Readies>,
) -> anyhow::Result<()> {
    let waiting = Arc::clone(app);
    let turn = tokio::task::spawn_blocking(move || waiting.identify_turn())
        .await
        .context("waiting for the IDENTIFY turn")?
        .context("cannot take the IDENTIFY turn in the database")?;
    let Some(turn) = turn else {
        return Ok(());
    };
    let local = match shards.range() {
        Some((range, _)) => range.count(),
        None => {
            http.get_bot_gateway()
                .await
                .context("cannot ask Discord how many shards to run")?
                .shards as usize
        }
    };
    tracing::info!(shards = local, "our turn to IDENTIFY");
    tokio::spawn(async move {
        readies.wait_for(local).await;
        tokio::time::sleep(IDENTIFY_WINDOW).await;
        // Giving the lock back is a database call: off the async threads.
        let _ = tokio::task::spawn_blocking(move || drop(turn)).await;
        tracing::info!("IDENTIFY turn given back");
    });
    Ok(())
}

/// Starts this process's shards and runs until they stop.
async fn start_shards(client: &mut serenity::Client, shards: Shards) -> serenity::Result<()> {
    match shards.range() {
        None => client.start_autosharded().await,
        Some((range, total)) => {
            tracing::info!(
                first = range.start(),
                last = range.end(),
                total,
                "starting shards"
            );
            // serenity's `start_shard_range(a..b, n)` starts shards a to b *including* b (it
            // passes `b` on as the last shard), despite the half-open `Range` type; so the
            // inclusive range is handed over as `first..last`, not `first..last + 1`.
            client
                .start_shard_range(*range.start()..*range.end(), total)
                .await
        }
    }
}

/// Lets a shard that must start a new session (a non-resumable op 9 INVALID SESSION, a failed
/// RESUME) reconnect at once instead of 5 seconds later.
///
/// In serenity 0.12.5 such a shard's runner asks the shard manager to restart it, and the
/// manager's `shutdown` then waits — up to its fixed 5-second timeout — for that same runner to
/// confirm it has closed, which it cannot do while it is the one waiting
/// (`gateway/bridge/shard_manager.rs`, `restart_shard` → `restart` → `shutdown`). `restart_shard`
/// sends one confirmation of its own once the restart is queued, which the *next* restart
/// consumes, so only the first restart of a process waits. One confirmation sent up front makes
/// that first one immediate too, and the count stays at one after every restart. The cost: a
/// shutdown of all shards no longer waits for one shard's close handshake, which the drain of
/// commands in flight that follows it covers.
fn prime_shard_restarts(shards: &serenity::ShardManager) {
    shards.shutdown_finished(serenity::ShardId(0));
}

/// poise's options: every command, the error handler, the hooks.
fn framework_options() -> poise::FrameworkOptions<Data, Error> {
    poise::FrameworkOptions {
        commands: commands(),
        on_error: |error| Box::pin(on_error(error)),
        post_command: |ctx| Box::pin(super::stale::unanswered(ctx)),
        event_handler: |framework, event| {
            Box::pin(on_event(
                framework.serenity_context,
                event,
                framework.user_data,
            ))
        },
        allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
        initialize_owners: false,
        // No command has a cooldown. Left to poise, every command would still record when each
        // user, channel, guild and member last ran it, in maps that never shrink (one entry
        // per member who ever used it), under one lock per command.
        manual_cooldowns: true,
        ..Default::default()
    }
}

/// The application on the configured database, its GM copies going through `outbox`. With
/// `watch_encounters`, the channels that have an encounter are kept in memory, which is right
/// only while every command of a guild reaches this process (a gateway shard's guilds do).
pub(super) fn open_app(
    config: &Config,
    outbox: &Arc<Outbox>,
    watch_encounters: bool,
) -> anyhow::Result<Arc<App>> {
    let store = Store::open(&config.database.location()).with_context(|| {
        format!(
            "cannot open the database {}",
            crate::store::redact(&config.database.location().display().to_string())
        )
    })?;
    let store = Arc::new(store);
    start_journal(&store);
    let outbox = Arc::clone(outbox);
    let app =
        App::new(store, Dice::Thread, config.dice.limits()).with_outbox(move || outbox.wake());
    // Commands in channels without an encounter then skip the status read.
    if watch_encounters {
        app.watch_encounter_channels()
            .context("cannot read the channels that have encounters")?;
    }
    Ok(Arc::new(app))
}

/// Starts the store's roll journal (SQLite, unless `REFEREE_ROLL_JOURNAL=off`; see
/// `store::journal`) and the thread that folds it into the database.
/// Without it (it could not be made: a folder that cannot be written, say) every roll is
/// written before it is answered, as with `REFEREE_ROLL_JOURNAL=off`.
fn start_journal(store: &Arc<Store>) {
    let setting = std::env::var(crate::store::journal::JOURNAL_ENV).ok();
    match store.start_journal(setting.as_deref()) {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => {
            tracing::warn!(error = %e, "no roll journal: every roll is written before it is answered");
            return;
        }
    }
    // A weak handle: the store still closes with the app's last handle.
    let store = Arc::downgrade(store);
    let folding = std::thread::Builder::new()
        .name("referee-journal".to_owned())
        .spawn(move || {
            while let Some(store) = store.upgrade()
                && store.fold_journal(std::time::Duration::from_millis(100))
            {}
        });
    if let Err(e) = folding {
        // Rows still fold with every other write, and at shutdown.
        tracing::warn!(error = %e, "cannot start the roll journal's thread");
    }
}

/// After the gateway closed: lets the commands in flight finish, stops the delivery task (what
/// it had not delivered stays in the outbox for the next start), then the app threads (their
/// queued calls finish first), and folds the roll journal into the database.
pub(super) async fn wind_down(
    app: &Arc<App>,
    inflight: &Inflight,
    delivery: tokio::task::JoinHandle<()>,
    workers: &Workers,
) {
    let left = inflight.drain(DRAIN_LIMIT).await;
    if left > 0 {
        tracing::warn!(left, "commands still running at shutdown");
    }
    delivery.abort();
    let _ = delivery.await;
    workers.shutdown();
    let store = Arc::clone(app.store());
    let _ = tokio::task::spawn_blocking(move || store.close_journal()).await;
    let (full, late, dropped) = workers.admission.counts();
    tracing::info!(
        full,
        late,
        dropped,
        "admission: interactions turned away since start"
    );
}

/// Asks Discord who we are, so a wrong token is a clear message at start rather than a silent
/// gateway failure.
async fn check_token(http: &serenity::Http, base: Option<&str>) -> anyhow::Result<()> {
    match http.get_current_application_info().await {
        Ok(info) => {
            tracing::info!(application = %info.id, name = %info.name, "token accepted");
            http.set_application_id(info.id);
            Ok(())
        }
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(e)))
            if e.status_code.as_u16() == 401 =>
        {
            bail!("Discord rejected the bot token (401 Unauthorized): check DISCORD_TOKEN")
        }
        Err(e) => bail!(
            "cannot reach Discord at {}: {e}",
            base.unwrap_or("https://discord.com")
        ),
    }
}

pub(super) async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => {
            if let Err(e) = buttons::pressed(ctx, data, press).await {
                tracing::error!(error = %format_args!("{e:#}"), "a button press failed");
            }
        }
        serenity::FullEvent::Ready { .. } | serenity::FullEvent::Resume { .. } => {
            if matches!(event, serenity::FullEvent::Ready { .. }) {
                data.readies.ready();
            }
            if let Some(metrics) = &data.metrics {
                metrics.session(matches!(event, serenity::FullEvent::Resume { .. }));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The one error handler: internal errors are logged and answered "Something went wrong";
/// interactions that do not fit the commands get "this command has changed" (`stale`); poise's
/// own (a DM to a guild-only command, say) go to its default handler.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let Some(error) = super::stale::answer(error).await else {
        return;
    };
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            // `{:#}`: the causes, never a backtrace (see `crate::app`'s error replies).
            tracing::error!(error = %format_args!("{error:#}"), command = %ctx.command().qualified_name, "command failed");
            let _ = ctx
                .send(render::create_reply(&crate::app::Reply::ephemeral(
                    render::SOMETHING_WENT_WRONG,
                )))
                .await;
        }
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            tracing::error!(panic = ?payload, command = %ctx.command().qualified_name, "command panicked");
            let _ = ctx
                .send(render::create_reply(&crate::app::Reply::ephemeral(
                    render::SOMETHING_WENT_WRONG,
                )))
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = ?e, "the error handler failed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Data, Error};

    fn every_command(
        commands: &[poise::Command<Data, Error>],
    ) -> Vec<&poise::Command<Data, Error>> {
        commands
            .iter()
            .flat_map(|c| std::iter::once(c).chain(every_command(&c.subcommands)))
            .collect()
    }

    /// With poise's own cooldowns on, every command run adds (or refreshes) an entry per user,
    /// channel, guild and member, kept for the life of the process: memory that grows with
    /// every new member, for a feature no command uses.
    #[test]
    fn poise_keeps_no_cooldown_state() {
        let options = super::framework_options();
        assert!(options.manual_cooldowns, "poise must not track cooldowns");
        let all = every_command(&options.commands);
        assert!(
            all.len() > options.commands.len(),
            "subcommands are walked too"
        );
        for command in all {
            assert_ne!(
                command.manual_cooldowns,
                Some(false),
                "/{} turns poise's cooldowns back on",
                command.qualified_name
            );
            let config = command
                .cooldown_config
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            assert_eq!(
                *config,
                poise::CooldownConfig::default(),
                "/{} has a cooldown",
                command.qualified_name
            );
        }
    }
}
