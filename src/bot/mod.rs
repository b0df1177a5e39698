//! The Discord front end: poise slash commands, one global component handler, and the code that
//! sends the service's outputs (board posts, DMs, ephemeral answers). It only decodes
//! interactions and sends outputs; every decision is the service's.
//!
//! Start it in-process (tests drive it against a loopback fake Discord):
//! ```ignore
//! let config = BotConfig { token, http_client: Some(fake.discord_client()), .. };
//! croupier::bot::run_with_service(config, service, async { stop_rx.await.ok(); }).await?;
//! ```
//! With `http_client` set, REST calls go through that client with serenity's rate limiter on
//! (the fake answers as `https://discord.com`); the gateway URL is the one `GET /gateway/bot`
//! returns. `api_base` is the other seam: a REST proxy, with serenity's limiter off.

mod analysis;
mod clocks;
mod commands;
mod common;
mod components;
mod confirm;
mod help;
pub mod ids;
mod invite;
pub mod layout;
mod learn;
mod lobbies;
mod mentions;
mod pace;
mod registry;
mod replay;
mod retry;
mod rollback;
mod send;
pub mod setup_help;
mod subs;
mod sweep;
mod takeback;
mod welcome;

pub use pace::DISCORD_GLOBAL_LIMIT;
/// The DM path, for the end-to-end tests: Cortexcape has no hidden hands to trigger it.
pub use send::send_private;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::i18n::{Lang, Text};
use crate::secret::Token;
use crate::service::{Service, ServiceError};

/// What the bot needs to run. `Debug` is written by hand: the database URL may carry a
/// password, and the tokens are redacted by their own type.
#[derive(Clone)]
pub struct BotConfig {
    pub token: Token,
    /// `DATABASE_URL`.
    pub database_url: String,
    /// `DISCORD_DEV_GUILD`: register the commands in this guild only (instant), else globally.
    pub dev_guild: Option<u64>,
    /// `DISCORD_API_BASE`: a REST proxy that rate-limits for us (serenity honours a proxy only
    /// with its own rate limiter off).
    pub api_base: Option<String>,
    /// The HTTP client for Discord's REST API, serenity's rate limiter on. Tests give one that
    /// reaches the fake Discord as `https://discord.com`; `None`: serenity's own.
    pub http_client: Option<reqwest::Client>,
    /// `--shards 0-1 --total 4`: run only these shards (several processes on PostgreSQL);
    /// `None`: every shard Discord recommends, in this process (any database).
    pub shards: Option<ShardRange>,
    /// How often the scheduler looks for due jobs (`None`: this process runs no scheduler).
    pub tick: Option<std::time::Duration>,
    /// Per-member command cooldowns and render budgets (on in production; tests that send
    /// commands or click faster than a person turn them off).
    pub cooldowns: bool,
    /// `DISCORD_GLOBAL_LIMIT`: requests per second Discord allows this bot across routes (50,
    /// unless Discord granted a large bot more); the bot paces itself under it.
    pub global_limit: u32,
    /// `METRICS_ADDR`: serve `GET /metrics` (Prometheus text) and `GET /healthz` here; `None`:
    /// no listener and no metrics recorded.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// `METRICS_TOKEN`: the bearer token both paths then require.
    pub metrics_token: Option<Token>,
    /// `DATABASE_POOL_SIZE`: the store's connections at most (`None`: the backend's default).
    pub pool_size: Option<u32>,
    /// How often the shards are looked at: one not connected at two looks in a row makes the
    /// bot ask Discord how many shards it recommends ([`NeedsMoreShards`]).
    pub shard_watch: Duration,
    /// How often the recommended shard count is asked anyway (a bot grows past 2,500 servers a
    /// shard while it runs).
    pub shard_recount: Duration,
    /// How often the presence ("Playing N games") is looked at; sent only when N changed.
    pub presence_every: Duration,
}

pub use welcome::PRESENCE_EVERY;

/// Looks at the shards every minute by default.
pub const SHARD_WATCH: Duration = Duration::from_secs(60);
/// Asks Discord for the recommended shard count every day by default.
pub const SHARD_RECOUNT: Duration = Duration::from_secs(24 * 3600);

/// The bot must be started again with more shards: Discord closed a shard with 4011 ("sharding
/// required": over 2,500 servers on one shard), or recommends more shards than this process
/// was started with. serenity 0.12.5's shard runner spins on a 4011 without end, so the process
/// ends and its supervisor starts it again, which reads the count afresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeedsMoreShards {
    pub running: u32,
    pub recommended: u32,
}

/// The exit code of [`NeedsMoreShards`] (`EX_TEMPFAIL`): a supervisor restarts the bot.
pub const EXIT_NEEDS_MORE_SHARDS: u8 = 75;

impl std::fmt::Display for NeedsMoreShards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Discord recommends {} shards and this process runs {}: start it again (with \
             --shards, give the processes more shards)",
            self.recommended, self.running
        )
    }
}

impl std::error::Error for NeedsMoreShards {}

/// What serenity 0.12.5 logs (ERROR, target `serenity::gateway::shard`) when Discord closes a
/// shard with 4011, just before its runner starts reading the closed socket in a loop that
/// never waits and starves the runtime: nothing of the bot's own runs after it.
const SHARDING_REQUIRED_LOG: &str = "Shard has too many guilds";

/// A tracing layer that calls `then` on serenity's 4011 log (see [`SHARDING_REQUIRED_LOG`]),
/// in the shard runner's own thread, before the spin: the only moment left to end the process
/// (`croupier serve` exits with [`EXIT_NEEDS_MORE_SHARDS`]). Give it its own filter
/// ([`OnShardingRequired::targets`]) so that the logs' level does not hide the event.
pub struct OnShardingRequired<F>(pub F);

impl<F> OnShardingRequired<F> {
    /// The events this layer needs: serenity's gateway errors.
    pub fn targets() -> tracing_subscriber::filter::Targets {
        tracing_subscriber::filter::Targets::new()
            .with_target("serenity::gateway", tracing::Level::ERROR)
    }
}

impl<S, F> tracing_subscriber::Layer<S> for OnShardingRequired<F>
where
    S: tracing::Subscriber,
    F: Fn() + Send + Sync + 'static,
{
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Says(bool);
        impl tracing::field::Visit for Says {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 |= format!("{value:?}").contains(SHARDING_REQUIRED_LOG);
                }
            }
        }
        let mut says = Says(false);
        event.record(&mut says);
        if says.0 {
            (self.0)();
        }
    }
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("token", &self.token)
            .field(
                "database_url",
                &crate::service::redact_url(&self.database_url),
            )
            .field("dev_guild", &self.dev_guild)
            .field("api_base", &self.api_base)
            .field("shards", &self.shards)
            .field("tick", &self.tick)
            .field("cooldowns", &self.cooldowns)
            .field("global_limit", &self.global_limit)
            .field("metrics_addr", &self.metrics_addr)
            .field("metrics_token", &self.metrics_token)
            .field("pool_size", &self.pool_size)
            .field("shard_watch", &self.shard_watch)
            .field("shard_recount", &self.shard_recount)
            .finish_non_exhaustive()
    }
}

/// A range of Discord shards, `first..=last` out of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl ShardRange {
    /// `0-1` (or `3`) with `total`: `None` if empty or outside `0..total`.
    pub fn parse(range: &str, total: u32) -> Option<ShardRange> {
        let (a, b) = match range.trim().split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let n = range.trim().parse().ok()?;
                (n, n)
            }
        };
        (a <= b && b < total).then_some(ShardRange {
            first: a,
            last: b,
            total,
        })
    }
}

/// The scheduler's look for due jobs, by default.
pub const DEFAULT_TICK: std::time::Duration = std::time::Duration::from_secs(5);

/// Shared by every command and handler.
pub struct Data {
    pub service: Service,
    /// The (user, game) pairs already shown the current board after clicking an old one, with
    /// that board's version: clicking old buttons again costs no render (see `components`).
    shown_current: std::sync::Mutex<std::collections::HashMap<(u64, i64), u32>>,
    /// Interaction ids this process has taken up, so a redelivery to the same process (a
    /// replayed gateway event) is dropped before it is acknowledged a second time, with no
    /// database work. Two generations: the older is forgotten when the newer fills up.
    taken: std::sync::Mutex<[std::collections::HashSet<u64>; 2]>,
    /// The pace of the requests Discord counts against the global limit, shared by the
    /// commands, the clicks and the scheduler of this process (see `pace`).
    pub(crate) pace: Arc<pace::Pace>,
    /// Each member's budget of renders asked for by a click (Zoom, replay steps, a hand);
    /// `None` with cooldowns off.
    renders: Option<pace::MemberRenders>,
    /// Players' analyses of finished games: kept answers, the ones being made, one worker.
    analyses: analysis::Analyses,
    /// Each registered command's id by its name, for `</name:id>` mentions members can click
    /// (`/help`); empty when the ids could not be read (plain `/name` then).
    commands: std::collections::HashMap<String, u64>,
}

/// Interaction ids per generation of `Data::taken`: Discord redelivers within minutes, and a
/// busy process sees far fewer interactions than this in fifteen.
const TAKEN_PER_GENERATION: usize = 50_000;

impl Data {
    pub fn new(service: Service) -> Data {
        Data::paced(service, Arc::default())
    }

    /// With the pace this process's other `Data` uses.
    fn paced(service: Service, pace: Arc<pace::Pace>) -> Data {
        Data {
            service,
            shown_current: std::sync::Mutex::default(),
            taken: std::sync::Mutex::default(),
            pace,
            renders: Some(pace::MemberRenders::default()),
            analyses: analysis::Analyses::default(),
            commands: std::collections::HashMap::new(),
        }
    }

    /// With the ids Discord gave the commands.
    fn with_commands(self, commands: &[serenity::Command]) -> Data {
        Data {
            commands: commands
                .iter()
                .map(|c| (c.name.clone(), c.id.get()))
                .collect(),
            ..self
        }
    }

    /// The id of the command `name`, once known.
    pub(crate) fn command_id(&self, name: &str) -> Option<u64> {
        self.commands.get(name).copied()
    }

    /// Without members' render budgets (`BotConfig::cooldowns` off).
    fn unthrottled(self) -> Data {
        Data {
            renders: None,
            ..self
        }
    }

    /// One render for `member` (a click asking for an image), or a refusal saying how long
    /// to wait ([`pace::MEMBER_RENDERS`] per [`pace::MEMBER_RENDER_WINDOW`]).
    pub(crate) fn may_render(&self, member: u64) -> Result<(), Text> {
        match &self.renders {
            Some(renders) => renders
                .take(member, tokio::time::Instant::now())
                .map_err(slow_down),
            None => Ok(()),
        }
    }

    /// True the first time this process meets `interaction`.
    fn take(&self, interaction: u64) -> bool {
        let Ok(mut taken) = self.taken.lock() else {
            return true;
        };
        if taken[1].contains(&interaction) {
            return false;
        }
        if taken[0].len() >= TAKEN_PER_GENERATION {
            taken[1] = std::mem::take(&mut taken[0]);
        }
        taken[0].insert(interaction)
    }

    /// True the first time `user` is to be shown version `version` of `game` after an old
    /// click; false for repeats. The memory is bounded (forgotten wholesale when large).
    fn first_stale_view(&self, user: u64, game: i64, version: u32) -> bool {
        let Ok(mut shown) = self.shown_current.lock() else {
            return true;
        };
        if shown.len() > 10_000 {
            shown.clear();
        }
        shown.insert((user, game), version) != Some(version)
    }
}

/// Why a command or a click failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// A service refusal in a game, with the seat names to show.
    #[error("{0}")]
    InGame(ServiceError, Vec<String>),
    #[error("discord: {0}")]
    Discord(#[from] serenity::Error),
    /// A mistake of the user's that the service never saw (a bad option string...).
    #[error("{0}")]
    User(Text),
    /// The change is stored but its board did not go out (the scheduler posts it later).
    #[error("saved, but the board did not go out: {0}")]
    Undelivered(Box<Error>),
}

impl Error {
    /// The message for the user and whether it is their mistake.
    fn for_user(&self) -> (Text, bool) {
        match self {
            Error::Service(e) | Error::InGame(e, _) => (e.text(), e.is_user_error()),
            Error::User(t) => (t.clone(), true),
            Error::Discord(_) => (Text::new("core.error.internal"), false),
            // A refusal no retry changes: the sweeper gives up on it, so promise nothing.
            Error::Undelivered(cause) if sweep::refused_for_good(cause) => {
                (Text::new("bot.error.undelivered_refused"), false)
            }
            Error::Undelivered(_) => (Text::new("bot.error.undelivered"), false),
        }
    }
}

pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Connects to the database in `config`, then runs the bot until `shutdown` resolves.
pub async fn run_bot(
    config: BotConfig,
    timers: crate::service::Timers,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let service = Service::open(&config.database_url, config.pool_size).await?;
    run_with_service(config, service.with_timers(timers), shutdown).await
}

/// Runs the bot on an existing service until `shutdown` resolves (tests share the store).
pub async fn run_with_service(
    config: BotConfig,
    service: Service,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let mut http = serenity::HttpBuilder::new(config.token.expose());
    if let Some(client) = config.http_client.clone() {
        http = http.client(client);
    }
    if let Some(base) = &config.api_base {
        http = http
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let http = http.build();
    let mut commands = registry::all();
    registry::localize(&mut commands);
    if config.cooldowns {
        registry::set_cooldowns(&mut commands);
    }
    let dev_guild = config.dev_guild;
    let janitor = service.clone();
    let presence_service = service.clone();
    let ops_service = service.clone();
    let scheduler_service = service.clone();
    let shard_range = config.shards;
    let registers = shard_range.is_none_or(|r| r.first == 0);
    // One pace for the commands, the clicks and the scheduler together. serenity's and
    // poise's start-up requests (GET /gateway as the client is built, GET /gateway/bot for the
    // shard count, the commands' registration) count against the same global limit: each takes
    // its place in the pace just before it goes.
    let pace = Arc::new(pace::Pace::new(config.global_limit));
    let scheduler_pace = Arc::clone(&pace);
    let throttled = config.cooldowns;
    let startup_pace = Arc::clone(&pace);
    // The token's limits are shared by the processes alive on this database: count them
    // before the first request, then keep counting.
    let process = process_id();
    match service.heartbeat(&process, now()).await {
        Ok(n) => pace.share(n),
        Err(e) => tracing::warn!(error = %e, "could not count the bot's processes"),
    }
    let heartbeat = tokio::spawn(heartbeat_loop(
        service.clone(),
        process.clone(),
        Arc::clone(&pace),
    ));
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            on_error: |e| Box::pin(on_error(e)),
            // poise's own replies (its built-in error paths) ping nobody.
            allowed_mentions: Some(mentions::nobody()),
            // A member repeating a command too fast is told to wait, before anything is read
            // or written; an interaction delivered twice (two processes, a replayed event)
            // runs once. Both in `first_delivery`, so cooldowns are checked there.
            command_check: Some(|ctx| Box::pin(first_delivery(ctx))),
            manual_cooldowns: true,
            event_handler: |fw, event| {
                Box::pin(on_event(fw.serenity_context, event, fw.user_data))
            },
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
                let cmds = &framework.options().commands;
                // The commands belong to the application, not to a process: only the process
                // holding shard 0 writes them (each write replaces every definition, so in a
                // rolling upgrade an old process on other shards would put old ones back).
                pace.counted().await;
                let guild = dev_guild.map(serenity::GuildId::new);
                let registered = if registers {
                    let create = poise::builtins::create_application_commands(cmds);
                    match guild {
                        Some(g) => g.set_commands(ctx, create).await?,
                        None => serenity::Command::set_global_commands(ctx, create).await?,
                    }
                } else {
                    tracing::info!("commands are registered by the process holding shard 0");
                    // Their ids only, for mentions: without them `/help` names them plainly.
                    let read = match guild {
                        Some(g) => g.get_commands(ctx).await,
                        None => serenity::Command::get_global_commands(ctx).await,
                    };
                    read.unwrap_or_else(|e| {
                        tracing::warn!(error = %e, "could not read the commands' ids");
                        Vec::new()
                    })
                };
                let data = Data::paced(service, pace).with_commands(&registered);
                Ok(if throttled { data } else { data.unthrottled() })
            })
        })
        // No owner-only commands: skip the start-up request for the owners.
        .initialize_owners(false)
        .build();
    // Interactions arrive whatever the intents; GUILDS keeps the cache of channels and threads.
    let intents = serenity::GatewayIntents::GUILDS;
    startup_pace.counted().await;
    // The metrics listener is bound before the gateway is asked for: a taken address stops
    // the start-up with its reason.
    let metrics = match config.metrics_addr {
        Some(addr) => {
            let handle = crate::ops::install();
            let listener = crate::ops::bind(addr)
                .await
                .map_err(|e| anyhow::anyhow!("METRICS_ADDR {addr}: {e}"))?;
            tracing::info!(%addr, "serving /metrics and /healthz");
            Some((listener, handle))
        }
        None => None,
    };
    let resume_url = ResumeUrl::default();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .event_handler(RateLimits)
        .event_handler(resume_url.clone())
        .await?;
    // Filled before any shard starts, so before any READY.
    let _ = resume_url.0.set(Arc::clone(&client.ws_url));
    let ops = metrics.map(|(listener, handle)| {
        let endpoints = crate::ops::Endpoints {
            handle,
            health: health_probe(Arc::clone(&client.shard_manager), ops_service.clone()),
            refresh: refresh_probe(Arc::clone(&client.shard_manager), ops_service.clone()),
            token: config.metrics_token.as_ref().map(|t| Arc::from(t.expose())),
        };
        tokio::spawn(crate::ops::serve(listener, endpoints))
    });
    // Interaction ids are kept to handle a redelivered click once; Discord gives up on an
    // interaction after 15 minutes, so an hour of memory is plenty.
    let janitor = tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(600));
        loop {
            every.tick().await;
            if let Err(e) = janitor.interactions().forget_before(now() - 3600).await {
                tracing::warn!(error = %e, "could not forget old interaction ids");
            }
        }
    });
    let scheduler = config.tick.map(|tick| {
        tokio::spawn(scheduler_loop(
            Arc::clone(&client.http),
            Data::paced(scheduler_service, scheduler_pace),
            tick,
        ))
    });
    let presence = tokio::spawn(welcome::presence_loop(
        presence_service,
        Arc::clone(&client.shard_manager),
        config.presence_every,
    ));
    let mut watch = tokio::spawn(shard_watch(
        Arc::clone(&client.http),
        Arc::clone(&client.shard_manager),
        shard_range.map(|r| r.total),
        (config.shard_watch, config.shard_recount),
        Arc::clone(&startup_pace),
    ));
    let shards = Arc::clone(&client.shard_manager);
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down");
        // A shard that never connected (gateway unreachable) would keep retrying: bounded.
        if tokio::time::timeout(SHUTDOWN_GRACE, shards.shutdown_all())
            .await
            .is_err()
        {
            tracing::warn!("the gateway did not close in time; stopping anyway");
        }
        let _ = stopped_tx.send(());
    });
    let ended = tokio::select! {
        started = async {
            match shard_range {
                // serenity takes the last shard of the range as `end` (inclusive).
                Some(r) => client.start_shard_range(r.first..r.last, r.total).await,
                // As many shards as Discord recommends (`GET /gateway/bot`), all in this
                // process: a bot past one shard's 2,500 servers needs no new setting, where a
                // single shard would be refused (close code 4011).
                // Discord out of reach at start (an outage, no network yet): ask again, slower
                // each time, as serenity does for a lost gateway; a refusal (a bad token)
                // stops at once.
                None => {
                    let mut wait = Duration::from_secs(1);
                    loop {
                        startup_pace.counted().await;
                        match client.start_autosharded().await {
                            Err(e) if retry::is_passing(&e) => {
                                tracing::warn!(error = %e, retry_in = ?wait, "could not ask Discord how many shards to start; trying again");
                                tokio::time::sleep(wait).await;
                                wait = (wait * 2).min(Duration::from_secs(60));
                            }
                            done => break done,
                        }
                    }
                }
            }
        } => started.map_err(anyhow::Error::from),
        _ = stopped_rx => Ok(()),
        Ok(more) = &mut watch => {
            tracing::error!(running = more.running, recommended = more.recommended, "Discord asks for more shards; stopping so the bot starts again with them");
            Err(more.into())
        }
    };
    janitor.abort();
    presence.abort();
    heartbeat.abort();
    watch.abort();
    if let Err(e) = ops_service.leave(&process).await {
        tracing::warn!(error = %e, "could not sign this process off");
    }
    if let Some(s) = scheduler {
        s.abort();
    }
    if let Some(o) = ops {
        o.abort();
    }
    ended?;
    Ok(())
}

/// Watches the shards (see [`NeedsMoreShards`]); returns when the process must start again.
/// `fixed_total`: the shard count of `--shards`; `None`: every shard runs here.
async fn shard_watch(
    http: Arc<serenity::Http>,
    shards: Arc<serenity::ShardManager>,
    fixed_total: Option<u32>,
    (every, recount): (Duration, Duration),
    pace: Arc<pace::Pace>,
) -> NeedsMoreShards {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut counted_at = tokio::time::Instant::now();
    let mut was_down = false;
    loop {
        tick.tick().await;
        let (connected, started) = shard_stages(&shards).await;
        // A shard reconnecting is down for a moment; one down at two looks may be refused.
        let down = started > 0 && connected < started;
        let ask = (down && was_down) || counted_at.elapsed() >= recount;
        was_down = down;
        if !ask || started == 0 {
            continue;
        }
        counted_at = tokio::time::Instant::now();
        pace.counted().await;
        let recommended = match http.get_bot_gateway().await {
            Ok(gateway) => gateway.shards,
            Err(e) => {
                tracing::warn!(error = %e, "could not ask Discord how many shards it recommends");
                continue;
            }
        };
        let running = fixed_total.unwrap_or_else(|| u32::try_from(started).unwrap_or(u32::MAX));
        if recommended > running {
            return NeedsMoreShards {
                running,
                recommended,
            };
        }
    }
}

/// How often a process says it is alive (and learns how many others are).
pub const HEARTBEAT: Duration = Duration::from_secs(2);

/// A name for this process among those on the database: host, process id and start time.
fn process_id() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_default();
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}:{}:{started}", std::process::id())
}

/// Heartbeats every [`HEARTBEAT`] and keeps the pace at this process's share of the token.
async fn heartbeat_loop(service: Service, process: String, pace: Arc<pace::Pace>) {
    let mut every = tokio::time::interval(HEARTBEAT);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last = 0;
    loop {
        every.tick().await;
        match service.heartbeat(&process, now()).await {
            Ok(n) => {
                if n != last {
                    tracing::info!(processes = n, "the token's limits are shared");
                    last = n;
                }
                pace.share(n);
            }
            // The database out of reach: keep the last share (its clicks fail anyway).
            Err(e) => tracing::warn!(error = %e, "could not count the bot's processes"),
        }
    }
}

/// Counts the requests serenity's rate limiter holds back (its only hook: an event handler's
/// `ratelimit`, called for a 429 met and for a bucket known to be empty).
struct RateLimits;

#[serenity::async_trait]
impl serenity::EventHandler for RateLimits {
    async fn ratelimit(&self, data: serenity::RatelimitInfo) {
        let global = if data.global { "true" } else { "false" };
        metrics::counter!(crate::ops::DISCORD_RATE_LIMITED, "global" => global).increment(1);
    }
}

/// Hands READY's `resume_gateway_url` to serenity. serenity 0.12.5 never reads it: every shard
/// connects, resumes and identifies on `Client::ws_url` (one URL shared by the process's
/// shards, read at each connection). Discord asks for a RESUME on `resume_gateway_url` and may
/// refuse one elsewhere (op 9: the session and the events it missed, clicks included, are
/// lost, and the IDENTIFY that follows spends the daily budget). So each READY writes its
/// `resume_gateway_url` into `ws_url`; an empty or odd one keeps the URL in use.
///
/// Limits (RELIABILITY.md): `ws_url` is one for all the shards of the process, so with several
/// shards the last READY's URL wins and another shard resumes there; and a shard whose session
/// is over IDENTIFYs on that URL too, not on `GET /gateway`'s (Discord documents neither as
/// refused).
#[derive(Clone, Default)]
struct ResumeUrl(Arc<std::sync::OnceLock<Arc<tokio::sync::Mutex<String>>>>);

#[serenity::async_trait]
impl serenity::EventHandler for ResumeUrl {
    async fn ready(&self, _: serenity::Context, ready: serenity::Ready) {
        let url = ready.resume_gateway_url.trim();
        if !(url.starts_with("wss://") || url.starts_with("ws://")) {
            return;
        }
        if let Some(ws_url) = self.0.get() {
            let mut ws_url = ws_url.lock().await;
            if *ws_url != url {
                tracing::debug!(url, "the gateway resumes on READY's resume_gateway_url");
                url.clone_into(&mut ws_url);
            }
        }
    }
}

/// This process's gateway shards: (connected, started).
async fn shard_stages(shards: &serenity::ShardManager) -> (usize, usize) {
    let runners = shards.runners.lock().await;
    let connected = runners
        .values()
        .filter(|r| r.stage == serenity::ConnectionStage::Connected)
        .count();
    (connected, runners.len())
}

/// `GET /healthz`: every started shard connected, and the database answering in time.
fn health_probe(
    shards: Arc<serenity::ShardManager>,
    service: Service,
) -> crate::ops::Probe<crate::ops::Health> {
    Arc::new(move || {
        let (shards, service) = (Arc::clone(&shards), service.clone());
        Box::pin(async move {
            let (connected, started) = shard_stages(&shards).await;
            if started == 0 {
                return Err("the gateway is not connected yet".to_string());
            }
            if connected < started {
                return Err(format!(
                    "the gateway is not connected ({connected} of {started} shards)"
                ));
            }
            match tokio::time::timeout(crate::ops::STORE_WAIT, service.ping()).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) if e.is_unavailable() => Err("the database is out of reach".to_string()),
                Ok(Err(_)) => Err("the database answered with an error".to_string()),
                Err(_) => Err(format!(
                    "the database did not answer within {} s",
                    crate::ops::STORE_WAIT.as_secs()
                )),
            }
        })
    })
}

/// Before a scrape: the gauges read from the database, and the shards' stages.
fn refresh_probe(shards: Arc<serenity::ShardManager>, service: Service) -> crate::ops::Probe<()> {
    Arc::new(move || {
        let (shards, service) = (Arc::clone(&shards), service.clone());
        Box::pin(async move {
            service.clocks().refresh_gauges().await;
            let (connected, started) = shard_stages(&shards).await;
            #[allow(clippy::cast_precision_loss, reason = "a few shards")]
            {
                metrics::gauge!(crate::ops::GATEWAY_CONNECTED).set(connected as f64);
                metrics::gauge!(crate::ops::GATEWAY_SHARDS).set(started as f64);
            }
        })
    })
}

/// How long shards get to close their gateway connections at shutdown.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(click),
        } => components::handle(ctx, click, data).await,
        // A game's thread or channel deleted: it moves to a new thread, or pauses.
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            send::place_deleted(&ctx.http, data, id_i64(thread.id.get())).await;
        }
        // A moderator locked a game's thread: the game pauses until the host or a moderator
        // gives it a place (the bot may not post in a locked thread).
        serenity::FullEvent::ThreadUpdate { new, .. }
            if new.thread_metadata.is_some_and(|m| m.locked) =>
        {
            send::thread_locked(&ctx.http, data, id_i64(new.id.get())).await;
        }
        // A new session (a start, or a shard started again after Discord ended its session)
        // identifies with no activity: it is told the running games at once.
        serenity::FullEvent::Ready { .. } => welcome::on_ready(ctx, data).await,
        // A server that just added the bot is greeted once.
        serenity::FullEvent::GuildCreate { guild, is_new } => {
            welcome::on_guild_create(ctx, data, guild, *is_new).await;
        }
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            send::place_deleted(&ctx.http, data, id_i64(channel.id.get())).await;
        }
        // Removed from a server (not an outage, which sets `unavailable`): its games have no
        // place left, so they pause.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            send::guild_left(&ctx.http, data, id_i64(incomplete.id.get())).await;
        }
        _ => {}
    }
    Ok(())
}

/// For commands, not their autocomplete: the command's cooldown (its `user_cooldown`), then the
/// interaction id: a member repeating a command within its cooldown gets "try again in N s"
/// and costs nothing; otherwise the id is recorded, and false (the command does not run,
/// nothing is answered) if another process or an earlier delivery already took it.
async fn first_delivery(ctx: Context<'_>) -> Result<bool, Error> {
    let Context::Application(a) = ctx else {
        return Ok(true);
    };
    // poise runs this check for autocomplete too: suggestions at every keystroke must neither
    // start the command's cooldown (the command itself was then refused, and later keystrokes
    // went unanswered) nor write a row each.
    if a.interaction_type == poise::CommandInteractionType::Autocomplete {
        return Ok(true);
    }
    // A redelivery to this process: dropped before a second acknowledgement. poise runs this
    // check once per command of the tree (`/sub`, then `/sub take`), all on one interaction:
    // the one this invocation acknowledged already passed.
    if !ctx.data().take(a.interaction.id.get()) {
        use std::sync::atomic::Ordering::SeqCst;
        return Ok(a.has_sent_initial_response.load(SeqCst));
    }
    let command = ctx.command();
    let left = {
        let config = command
            .cooldown_config
            .read()
            .map_or_else(|p| p.into_inner().clone(), |c| c.clone());
        let tracker = command.cooldowns.lock();
        let tracker = tracker.as_ref().unwrap_or_else(|p| p.get_ref());
        tracker.remaining_cooldown(ctx.cooldown_context(), &config)
    };
    if let Some(left) = left {
        return Err(Error::User(slow_down(left)));
    }
    begin(ctx, ephemeral_ack(ctx)).await
}

/// "Try again in N s" (whole seconds, rounded up) for a member going faster than allowed.
fn slow_down(wait: std::time::Duration) -> Text {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    Text::new("bot.error.slow_down").arg("secs", i64::try_from(secs).unwrap_or(1))
}

/// Whether a command's acknowledgement (made before any database work, so a slow database
/// never costs Discord's 3 s) is private. Every one is but `/rules share:True`'s. `/play` is
/// private too: its lobby is an ordinary channel message and a refusal an edit of the private
/// answer, so nothing flashes in the channel.
fn ephemeral_ack(ctx: Context<'_>) -> bool {
    let Context::Application(a) = ctx else {
        return true;
    };
    !(ctx.command().name == "rules"
        && a.args.iter().any(|o| {
            o.name == "share" && matches!(o.value, serenity::ResolvedValue::Boolean(true))
        }))
}

/// Marks a command whose deferred answer is public: an error then goes privately.
pub(crate) struct PublicAnswer;

/// Starts the member's cooldown and acknowledges a command (a deferred answer, public or
/// ephemeral), then tells whether this is the interaction's first delivery. A second delivery's
/// acknowledgement meets 40060 (counted as done by `acknowledging`); the interaction row then
/// says it was seen, and only one delivery goes on.
async fn begin(ctx: Context<'_>, ephemeral: bool) -> Result<bool, Error> {
    let Context::Application(a) = ctx else {
        return Ok(true);
    };
    use std::sync::atomic::Ordering::SeqCst;
    // The member's cooldown starts now, before anything is awaited: a second command right
    // after this one's acknowledgement is already refused.
    {
        let command = ctx.command();
        match command.cooldowns.lock() {
            Ok(mut t) => t.start_cooldown(ctx.cooldown_context()),
            Err(p) => p.into_inner().start_cooldown(ctx.cooldown_context()),
        }
    }
    if !a.has_sent_initial_response.load(SeqCst) {
        let asked = std::time::Instant::now();
        let defer = serenity::CreateInteractionResponse::Defer(
            serenity::CreateInteractionResponseMessage::new().ephemeral(ephemeral),
        );
        retry::acknowledging("acknowledge a command", || {
            a.interaction.create_response(ctx.http(), defer.clone())
        })
        .await?;
        // From here (the command's options read; no database work before): the command's
        // arrival, give or take the parsing.
        metrics::histogram!(crate::ops::ACK_SECONDS, "kind" => "command")
            .record(asked.elapsed().as_secs_f64());
        a.has_sent_initial_response.store(true, SeqCst);
        if !ephemeral {
            ctx.set_invocation_data(PublicAnswer).await;
        }
    }
    Ok(first_seen(&ctx.data().service, a.interaction.id.get()).await)
}

/// Whether this is the first delivery of an interaction. The check must not eat Discord's 3 s
/// for the acknowledgement: if the database does not answer in time, the interaction is
/// handled (better twice than never: the game's version check still stops a double move).
async fn first_seen(service: &Service, interaction: u64) -> bool {
    let interactions = service.interactions();
    let check = interactions.first_seen(id_i64(interaction));
    match tokio::time::timeout(FIRST_SEEN_WAIT, check).await {
        Ok(Ok(first)) => first,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "could not check the interaction id");
            true
        }
        Err(_) => {
            tracing::warn!("the interaction id check timed out");
            true
        }
    }
}

/// How long the duplicate-delivery check may take before the interaction is handled anyway.
const FIRST_SEEN_WAIT: std::time::Duration = std::time::Duration::from_millis(1000);

/// Runs due jobs (deadlines, reminders, bot turns, digests) and sends what they produce.
/// Jobs live in the database: a restart loses nothing, and several processes on PostgreSQL
/// never run the same job twice (see `Store::claim_due_jobs`).
async fn scheduler_loop(http: Arc<serenity::Http>, data: Data, tick: Duration) {
    let worker = format!("{}-{:08x}", std::process::id(), fresh_seed(0) & 0xffff_ffff);
    match data.service.clocks().replan(data.service.now()).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(games = n, "re-planned game clocks"),
        Err(e) => tracing::warn!(error = %e, "could not re-plan game clocks"),
    }
    let mut boards =
        sweep::BoardSweeper::new(Duration::from_secs(data.service.timers().board_grace_secs));
    loop {
        boards.sweep(&http, &data).await;
        match data
            .service
            .lobbies()
            .idle_threads(data.service.now())
            .await
        {
            Ok(notices) => send::deliver_notices(&http, &data, notices).await,
            Err(e) => tracing::warn!(error = %e, "could not archive idle games' threads"),
        }
        let full = match data
            .service
            .clocks()
            .run_due_jobs_counted(&worker, JOB_BATCH)
            .await
        {
            Ok((claimed, notices)) => {
                let full = claimed >= JOB_BATCH as usize;
                send::deliver_notices(&http, &data, notices).await;
                full
            }
            Err(e) => {
                tracing::warn!(error = %e, "the scheduler could not run jobs");
                false
            }
        };
        if full {
            continue;
        }
        tokio::select! {
            () = tokio::time::sleep(tick) => {}
            () = data.service.woken() => {}
        }
    }
}

/// Jobs claimed at once by the scheduler.
const JOB_BATCH: u32 = 50;

/// One place for command errors: the user's own mistakes are shown to them (ephemeral, in
/// their language); anything else is logged with an id and a short apology is shown.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            let lang = lang_of(ctx);
            let text = user_message(&error, lang, &[]);
            tell(ctx, &text).await;
        }
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(error = %error, "bot setup failed");
        }
        // A duplicate delivery: another process (or an earlier delivery) answers it.
        poise::FrameworkError::CommandCheckFailed { error: None, .. } => {
            tracing::debug!("ignoring an interaction already handled");
        }
        // Too fast (a cooldown): the user is told, privately.
        poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => {
            let text = user_message(&error, lang_of(ctx), &[]);
            tell(ctx, &text).await;
        }
        // A panic in a command (a bug): logged with an id the user can quote, and shown in the
        // command's own (deferred) answer. Whether anything was stored is unknown here.
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            let id = error_id();
            tracing::error!(error_id = %id, panic = ?payload, "a command panicked");
            let text = Text::new("bot.error.crashed")
                .arg("id", id)
                .render(lang_of(ctx));
            tell(ctx, &text).await;
        }
        // An option Discord delivered that the command cannot read (a stale client's old
        // choices, a value out of range): the answer says which, privately.
        poise::FrameworkError::ArgumentParse { input, ctx, .. } => {
            let text = Text::new("bot.error.bad_option")
                .arg("input", input.unwrap_or_default())
                .render(lang_of(ctx));
            tell(ctx, &text).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}

/// Shows an error's text to the user privately; a failure is only logged.
async fn tell(ctx: Context<'_>, text: &str) {
    if let Err(e) = send::reply_text(ctx, text).await {
        tracing::warn!(error = %e, "could not show an error to the user");
    }
}

/// The text shown for an error (seats by `names`); internal ones are logged here with an id
/// the user can quote.
fn user_message(error: &Error, lang: Lang, names: &[String]) -> String {
    let (text, is_user) = error.for_user();
    let names = match error {
        Error::InGame(_, in_game) if names.is_empty() => in_game.as_slice(),
        _ => names,
    };
    if is_user {
        return text.render_with(lang, names);
    }
    if matches!(error, Error::Service(e) | Error::InGame(e, _) if e.is_unavailable()) {
        // Nothing to investigate per user: the database is away, and comes back by itself.
        tracing::warn!(error = %error, "the database is out of reach");
        return text.render(lang);
    }
    let id = error_id();
    tracing::error!(error_id = %id, error = %error, "internal error");
    // The apology says "nothing was changed": false once the change is stored.
    let text = match error {
        Error::Undelivered(_) => text,
        _ => Text::new("bot.error.internal"),
    };
    text.arg("id", id).render(lang)
}

/// A short random id for matching a user's report to a log line.
fn error_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:08x}", h.finish() & 0xffff_ffff)
}

pub(crate) use crate::clock::{fresh_seed, unix_now as now};

/// The user's language from their Discord locale.
fn lang_of(ctx: Context<'_>) -> Lang {
    Lang::from_locale(ctx.locale().unwrap_or("en"))
}

/// The language of a new game's public messages (its lobby, boards, notices in its place and
/// result), chosen when the lobby opens and then kept by the game, so a shared message never
/// switches language with whoever clicked last. In this order: the one the host asked for at
/// `/play` (`lang:`), the server's own (`/settings server_language`), the host's Discord
/// locale, and only then the guild's. Discord sends `guild_locale` as en-US for every server
/// that is not a Community server, so it alone would give a French group English boards.
/// Ephemeral answers and refusals keep each member's own language.
fn public_lang(
    asked: Option<Lang>,
    server: Option<Lang>,
    host_locale: Option<&str>,
    guild_locale: Option<&str>,
) -> Lang {
    asked
        .or(server)
        .or_else(|| host_locale.map(Lang::from_locale))
        .or_else(|| guild_locale.map(Lang::from_locale))
        .unwrap_or_default()
}

/// The guild's locale of a command (Discord's `guild_locale`).
fn guild_locale_of(ctx: Context<'_>) -> Option<&str> {
    match ctx {
        Context::Application(a) => a.interaction.guild_locale.as_deref(),
        Context::Prefix(_) => None,
    }
}

/// Manage Server (or Administrator), as Discord computed the member's permissions for the
/// interaction: who may choose the server's language.
fn manages_server(member: Option<&serenity::Member>) -> bool {
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator())
}

/// Discord ids are u64; the store keeps i64 (same bits).
fn id_i64(id: u64) -> i64 {
    i64::from_ne_bytes(id.to_ne_bytes())
}

fn id_u64(id: i64) -> u64 {
    u64::from_ne_bytes(id.to_ne_bytes())
}

/// Manage Threads or Manage Channels in the channel of the interaction.
fn is_moderator(member: Option<&serenity::Member>) -> bool {
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_threads() || p.manage_channels() || p.administrator())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discord_ids_survive_the_bigint_round_trip() {
        for id in [0, 1, u64::MAX, 1_234_567_890_123_456_789] {
            assert_eq!(id_u64(id_i64(id)), id);
        }
    }

    #[test]
    fn user_errors_show_their_text_and_internal_ones_an_apology() {
        let e = Error::Service(ServiceError::NotSeated);
        assert_eq!(
            user_message(&e, Lang::Fr, &[]),
            Text::new("core.error.not_seated").render(Lang::Fr)
        );
        let internal = Error::Service(ServiceError::Store(crate::store::StoreError::Invalid(
            "x".into(),
        )));
        let shown = user_message(&internal, Lang::En, &[]);
        assert!(shown.starts_with("Sorry"), "{shown}");
        assert!(!shown.contains("invalid request"), "{shown}");
    }

    #[test]
    fn refusals_in_a_game_name_the_players() {
        let e = Error::InGame(
            ServiceError::Play(crate::engine::PlayError::NotYourTurn {
                waiting_for: crate::engine::Seat(1),
            }),
            vec!["Ann".into(), "Bob".into()],
        );
        assert_eq!(
            user_message(&e, Lang::En, &[]),
            "It is not your turn: Bob must decide now."
        );
    }

    #[test]
    fn the_bot_config_never_prints_a_database_password_or_token() {
        let config = BotConfig {
            token: Token::new("bot-token-canary"),
            database_url: "postgres://bot:hunter2@db.example/croupier".into(),
            dev_guild: None,
            api_base: None,
            http_client: None,
            shards: None,
            tick: None,
            cooldowns: true,
            global_limit: DISCORD_GLOBAL_LIMIT,
            metrics_addr: None,
            metrics_token: Some(Token::new("scrape-canary")),
            pool_size: Some(3),
            shard_watch: SHARD_WATCH,
            shard_recount: SHARD_RECOUNT,
            presence_every: PRESENCE_EVERY,
        };
        let shown = format!("{config:?} {config:#?}");
        for secret in ["hunter2", "bot-token-canary", "scrape-canary"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(
            shown.contains("db.example") && shown.contains("pool_size"),
            "{shown}"
        );
    }

    #[test]
    fn public_messages_follow_the_host_unless_asked_or_set() {
        // A French group on a server that is not a Community server: Discord says en-US.
        assert_eq!(public_lang(None, None, Some("fr"), Some("en-US")), Lang::Fr);
        // The server's setting wins over the host's locale; `lang:` at /play over both.
        assert_eq!(
            public_lang(None, Some(Lang::En), Some("fr"), Some("fr")),
            Lang::En
        );
        assert_eq!(
            public_lang(Some(Lang::Fr), Some(Lang::En), Some("en-GB"), None),
            Lang::Fr
        );
        // No locale at all: the guild's, then English.
        assert_eq!(public_lang(None, None, None, Some("fr")), Lang::Fr);
        assert_eq!(public_lang(None, None, None, None), Lang::En);
    }

    #[test]
    fn shard_ranges_stay_within_the_total() {
        let r = ShardRange::parse("0-1", 4).unwrap();
        assert_eq!((r.first, r.last, r.total), (0, 1, 4));
        assert_eq!(
            ShardRange::parse("3", 4).map(|r| (r.first, r.last)),
            Some((3, 3))
        );
        assert_eq!(ShardRange::parse("2-4", 4), None);
        assert_eq!(ShardRange::parse("2-1", 4), None);
        assert_eq!(ShardRange::parse("a-b", 4), None);
    }

    #[test]
    fn locales_pick_the_language() {
        assert_eq!(Lang::from_locale("fr"), Lang::Fr);
        assert_eq!(Lang::from_locale("en-GB"), Lang::En);
        assert_eq!(Lang::from_locale("pt-BR"), Lang::En);
    }
}
