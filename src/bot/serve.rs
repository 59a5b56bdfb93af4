//! `referee serve --listen ADDR`: the bot as an HTTP Interactions Endpoint, and `referee
//! register`. Discord POSTs each interaction to the endpoint URL set in the developer portal;
//! the operator's reverse proxy (TLS, load balancing) hands it to any of the workers, which all
//! share one database (PostgreSQL for more than one) and act as one bot. No gateway connection,
//! no shards: each worker is stateless but for its app threads and its GM channel outbox
//! delivery (docs/http-interactions.md).
//!
//! Owns the start-up and shutdown of that mode and nothing of a command's meaning: a command
//! runs through the same `app`, admission, app threads, rendering and outbox as under
//! `referee run` ([`super::run`]). The parts: [`verify`] (the signature), [`endpoint`] (HTTP),
//! [`interaction`] (one interaction, and when to defer), [`schema`] (an interaction against the
//! registered commands), [`complete`] (which suggestions an option offers), [`rest`] (what goes
//! over REST after the response), [`body`] (the response's JSON).
//!
//! ## Registration
//! A worker registers the commands (globally, or in `discord.dev_guild_id`) only with
//! `--register` or `discord.register_commands = true`; `referee register` does it and exits, for
//! a deploy step. Any worker registers them again after a stale interaction, at most once a
//! minute, as the gateway does.

mod body;
mod complete;
mod endpoint;
mod interaction;
mod rest;
pub(super) mod schema;
mod verify;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context as _, bail};

use super::deliver::{self, Outbox};
use super::run::{Started, discord_http, register_commands, shutdown_signal, start_app, wind_down};
use super::{Data, commands};
use crate::config::Config;

pub use endpoint::{HEALTH, MAX_BODY};
pub use interaction::{DEFER_AFTER, DEFER_ENV};
pub use verify::MAX_SKEW;

/// How `referee serve` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeOptions {
    /// Where the endpoint listens.
    pub listen: SocketAddr,
    /// Whether this worker registers the commands at start.
    pub register: bool,
}

/// Serves interactions on `options.listen` until SIGINT or SIGTERM.
pub async fn serve(config: Config, options: ServeOptions) -> anyhow::Result<()> {
    // Before anything reaches the network: a worker without its key could verify nothing.
    let key = Arc::new(public_key(&config)?);
    let http = Arc::new(discord_http(&config).await?);
    let outbox = Arc::new(Outbox::new(&config.delivery));
    // Any worker may get any guild's interactions, so none keeps the channels with an
    // encounter in memory (an encounter another worker started would go unseen): each command
    // looks in the database.
    let Started {
        app,
        inflight,
        workers,
        metrics,
        metrics_server: _metrics_server,
    } = start_app(&config, &outbox, false).await?;
    let commands = commands();
    let dev_guild = config.discord.dev_guild_id;
    if options.register || config.discord.register_commands == Some(true) {
        register_commands(&*http, &commands, dev_guild)
            .await
            .context("cannot register the commands")?;
        tracing::info!(commands = commands.len(), "registered the commands");
    }
    let delivery = deliver::start(
        Arc::clone(&outbox),
        Arc::clone(&app),
        Arc::clone(&workers),
        Arc::clone(&http),
    );
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .with_context(|| format!("cannot listen on {} (--listen)", options.listen))?;
    let addr = listener.local_addr().context("the listening address")?;
    let endpoint = Arc::new(interaction::Endpoint {
        data: Data {
            app: Arc::clone(&app),
            workers: Arc::clone(&workers),
            inflight: Arc::clone(&inflight),
            registration: super::Registration::new(dev_guild),
            outbox,
            readies: Arc::default(),
            metrics,
        },
        registered: schema::Registered::of(&commands),
        commands,
        http,
        defer_after: interaction::defer_after_from(std::env::var(DEFER_ENV).ok().as_deref()),
    });
    tracing::info!(%addr, "serve: listening for interactions");
    endpoint::serve(listener, Arc::clone(&endpoint), key, async {
        shutdown_signal().await;
        tracing::info!("shutting down: finishing interactions in flight");
    })
    .await;
    wind_down(&app, &inflight, delivery, &workers).await;
    drop(endpoint);
    // The last handle to the store closes its connections here, which blocks.
    let _ = tokio::task::spawn_blocking(move || drop(app)).await;
    Ok(())
}

/// Registers the commands (globally, or in `discord.dev_guild_id`) and returns what was done.
pub async fn register(config: &Config) -> anyhow::Result<String> {
    let http = discord_http(config).await?;
    let commands = commands();
    register_commands(&http, &commands, config.discord.dev_guild_id)
        .await
        .context("cannot register the commands")?;
    Ok(match config.discord.dev_guild_id {
        Some(guild) => format!("registered {} commands in guild {guild}", commands.len()),
        None => format!(
            "registered {} commands globally (Discord may take up to an hour to show changes)",
            commands.len()
        ),
    })
}

/// The application's public key from the configuration.
fn public_key(config: &Config) -> anyhow::Result<verify::PublicKey> {
    let Some(text) = config
        .discord
        .public_key
        .as_deref()
        .filter(|k| !k.trim().is_empty())
    else {
        bail!(
            "no public key: set DISCORD_PUBLIC_KEY (or discord.public_key in config.toml) to the \
             application's public key from the Discord developer portal (General Information)"
        );
    };
    verify::PublicKey::from_hex(text)
        .with_context(|| format!("the public key {:?} cannot be used", text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_bad_public_key_is_one_clear_error() {
        let mut config = Config::default();
        let e = public_key(&config).expect_err("none set");
        assert!(e.to_string().contains("DISCORD_PUBLIC_KEY"), "{e}");
        config.discord.public_key = Some("  ".into());
        assert!(public_key(&config).is_err());
        config.discord.public_key = Some("abc".into());
        let e = public_key(&config).expect_err("not a key");
        assert!(format!("{e:#}").contains("64 hexadecimal digits"), "{e:#}");
        config.discord.public_key = Some(hex::encode(
            ed25519_dalek::SigningKey::from_bytes(&[7; 32])
                .verifying_key()
                .as_bytes(),
        ));
        assert!(public_key(&config).is_ok());
    }
}
