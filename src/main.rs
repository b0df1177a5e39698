//! The croupier binary: the Discord bot (`serve`, or no subcommand with a token) and the local
//! table (`table`, or no subcommand without a token).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use croupier::bot::{BotConfig, ShardRange};
use croupier::config::Config;
use croupier::engine::GameKind;
use croupier::i18n::{Lang, Text};
use croupier::service::Service;
use croupier::store::{redact_url, Open, Store};
use croupier::table::{self, TableArgs};

#[derive(Parser)]
#[command(
    name = "croupier",
    version,
    about = "Hosts turn-based board games (Discord bot and local table)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (no Discord needed).
    Table(Box<TableCli>),
    /// List the games croupier hosts and explain their options.
    Games {
        /// Language of the explanations: en or fr.
        #[arg(long, default_value = "en")]
        lang: String,
    },
    /// List the games saved by the local table: game, players, where it stands, last move.
    List(SavedCli),
    /// Delete a game saved by the local table (asks first).
    Delete {
        /// The game's number (as `croupier list` shows it).
        id: i64,
        /// Delete without asking.
        #[arg(long)]
        yes: bool,
        #[command(flatten)]
        saved: SavedCli,
    },
    /// Write a finished game of the local table to FILE, as `/export` does; replay it with
    /// `croupier table --import FILE`.
    Export {
        /// The game's number (as `croupier list` shows it).
        id: i64,
        /// The new file (must not exist yet).
        file: PathBuf,
        #[command(flatten)]
        saved: SavedCli,
    },
    /// Run the Discord bot (needs DISCORD_TOKEN).
    Serve(ServeCli),
    /// Copy the SQLite database (DATABASE_URL) to FILE, consistently, while the bot runs.
    Backup {
        /// The new file (must not exist yet).
        file: PathBuf,
    },
    /// Ask the running bot's health check (GET /healthz on METRICS_ADDR); exit 0 if healthy.
    /// For a container's HEALTHCHECK: the image has no curl.
    Healthcheck {
        /// Where the bot serves /healthz (default: METRICS_ADDR).
        #[arg(long)]
        addr: Option<std::net::SocketAddr>,
    },
}

#[derive(Args, Default)]
struct ServeCli {
    /// Run only these shards, e.g. `0-1` (several processes on one PostgreSQL database).
    /// Without it, the process runs as many shards as Discord recommends.
    #[arg(long, requires = "total")]
    shards: Option<String>,
    /// The number of shards of all processes together.
    #[arg(long, requires = "shards")]
    total: Option<u32>,
}

/// Where the local table's games are saved, and the language to answer in.
#[derive(Args, Default)]
struct SavedCli {
    /// Language of the answers: en or fr.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Database URL (default: DATABASE_URL or sqlite://data/croupier.db).
    #[arg(long)]
    db: Option<String>,
}

#[derive(Args, Default)]
struct TableCli {
    /// Game to play (default: cortexcape).
    #[arg(long)]
    game: Option<String>,
    /// Number of players (default: the game's minimum).
    #[arg(long)]
    players: Option<usize>,
    /// Seed for the game's randomness (default: fresh).
    #[arg(long)]
    seed: Option<u64>,
    /// A variant, e.g. `short`.
    #[arg(long)]
    variant: Option<String>,
    /// Cortexcape lab: blue, green, red or black.
    #[arg(long)]
    lab: Option<String>,
    /// Any game option as key=value (repeatable).
    #[arg(long = "opt", value_parser = parse_kv)]
    options: Vec<(String, String)>,
    /// Where board images are written.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Read notation lines from this file instead of the terminal.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Print one JSON object per step.
    #[arg(long)]
    json: bool,
    /// Continue a stored game.
    #[arg(long)]
    resume: Option<i64>,
    /// Replay a game file written by `/export`, move by move, then play on from its end.
    #[arg(long, conflicts_with_all = ["resume", "game", "seed", "players"])]
    import: Option<PathBuf>,
    /// Language of texts and images: en or fr.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Seat names, comma separated.
    #[arg(long, value_delimiter = ',')]
    names: Vec<String>,
    /// How many seats bots take (the last ones). With as many bots as players, the bots play
    /// the whole game alone.
    #[arg(long, default_value_t = 0)]
    bots: usize,
    /// How hard the bots think: easy, normal or hard.
    #[arg(long, default_value = "normal", value_parser = parse_level)]
    level: croupier::ai::Level,
    /// Database URL (default: DATABASE_URL or sqlite://data/croupier.db).
    #[arg(long)]
    db: Option<String>,
}

fn parse_kv(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected key=value, got `{s}`"))
}

fn parse_level(s: &str) -> Result<croupier::ai::Level, String> {
    croupier::ai::Level::parse(s).ok_or_else(|| format!("expected easy, normal or hard, got `{s}`"))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    // Reads .env first, so RUST_LOG set there applies too.
    let config = Config::from_env();
    let serving = matches!(cli.command, Some(Command::Serve(_)))
        || (cli.command.is_none() && config.token.is_some());
    // The bot reports its connection and shutdown; the table keeps the terminal for the game.
    let default_filter = if serving {
        "warn,croupier=info"
    } else {
        "warn"
    };
    {
        use tracing_subscriber::prelude::*;
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| default_filter.into());
        let logs = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
        let logs = if config.json_logs {
            logs.json().boxed()
        } else {
            logs.boxed()
        };
        // A shard closed with 4011 (sharding required) leaves serenity 0.12.5's runner spinning
        // and the runtime starved: the process ends at serenity's log of it, whatever the
        // log level, for its supervisor to start it again with more shards.
        let sharding = croupier::bot::OnShardingRequired(|| {
            eprintln!(
                "croupier: Discord closed a shard with 4011 (sharding required): start again \
                 (with --shards, give the processes more shards)"
            );
            std::process::exit(i32::from(croupier::bot::EXIT_NEEDS_MORE_SHARDS));
        });
        tracing_subscriber::registry()
            .with(logs.with_filter(filter))
            .with(sharding.with_filter(croupier::bot::OnShardingRequired::<fn()>::targets()))
            .init();
    }
    match run(cli, config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("croupier: {e:#}");
            // Its own code, for a supervisor to start it again (it reads the count afresh).
            if e.downcast_ref::<croupier::bot::NeedsMoreShards>().is_some() {
                return std::process::ExitCode::from(croupier::bot::EXIT_NEEDS_MORE_SHARDS);
            }
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli, config: Config) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Games { lang }) => {
            use std::io::Write;
            let lang = Lang::from_locale(&lang);
            let mut out = std::io::stdout().lock();
            for kind in GameKind::ALL {
                let (min, max) = kind.seat_range();
                let head = Text::new("core.table.games_line")
                    .arg("game", kind.display_name())
                    .arg("id", kind.id())
                    .arg("min", min)
                    .arg("max", max);
                writeln!(out, "{}", head.render(lang))?;
                for spec in kind.option_specs() {
                    let line = Text::new("core.table.games_option")
                        .arg("key", spec.key)
                        .arg("values", spec.values.join("|"))
                        .arg("default", spec.default);
                    writeln!(out, "{}", line.render(lang))?;
                    writeln!(out, "      {}", Text::new(spec.help).render(lang))?;
                }
            }
            Ok(())
        }
        Some(Command::List(saved)) => {
            let (service, lang) = open_saved(&saved, &config).await?;
            let done = table::list(&service, lang, &mut std::io::stdout().lock()).await;
            service.close().await;
            done
        }
        Some(Command::Delete { id, yes, saved }) => {
            let (service, lang) = open_saved(&saved, &config).await?;
            let done = table::delete(
                &service,
                id,
                yes,
                lang,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )
            .await;
            service.close().await;
            done
        }
        Some(Command::Export { id, file, saved }) => {
            let (service, lang) = open_saved(&saved, &config).await?;
            let done =
                table::export(&service, id, &file, lang, &mut std::io::stdout().lock()).await;
            service.close().await;
            done
        }
        Some(Command::Table(t)) => table_cmd(*t, &config).await,
        Some(Command::Serve(s)) => serve(&config, &s).await,
        Some(Command::Backup { file }) => {
            // The database as it is: a backup neither creates it nor migrates it.
            let how = Open {
                pool_size: Some(1),
                migrate: false,
            };
            let store = Store::open(&config.database_url, &how).await?;
            store.backup_to(&file).await?;
            store.close().await;
            println!(
                "croupier: {} copied to {}",
                redact_url(&config.database_url),
                file.display()
            );
            Ok(())
        }
        Some(Command::Healthcheck { addr }) => {
            let addr = addr.or(config.metrics_addr).ok_or_else(|| {
                anyhow::anyhow!(
                    "METRICS_ADDR is not set (or give --addr): the bot serves no health check"
                )
            })?;
            let token = config.metrics_token.as_ref().map(|t| t.expose());
            match croupier::ops::check(addr, token).await {
                Ok(body) => {
                    println!("croupier: healthy ({body})");
                    Ok(())
                }
                Err(reason) => anyhow::bail!("unhealthy: {reason}"),
            }
        }
        None if config.token.is_some() => serve(&config, &ServeCli::default()).await,
        // No token and nobody at a terminal (a container, a service manager): the set-up
        // help and a failure, never a table game started in the bot's database.
        None if !std::io::stdin().is_terminal() => {
            let lang = Lang::from_locale(&std::env::var("LANG").unwrap_or_default());
            eprintln!(
                "{}",
                croupier::bot::setup_help::no_token_message(config.application_id, lang)
            );
            anyhow::bail!(
                "DISCORD_TOKEN is not set (give DISCORD_TOKEN or DISCORD_TOKEN_FILE; `croupier table` plays locally)"
            )
        }
        // A newcomer without a token plays the local table against one bot.
        None => {
            // (`Default` leaves `out` empty; clap's default applies only to parsed flags.)
            let first_look = TableCli {
                bots: 1,
                out: PathBuf::from("out"),
                ..TableCli::default()
            };
            table_cmd(first_look, &config).await
        }
    }
}

async fn serve(config: &Config, cli: &ServeCli) -> anyhow::Result<()> {
    let shards = match (&cli.shards, cli.total) {
        (Some(range), Some(total)) => Some(ShardRange::parse(range, total).ok_or_else(|| {
            anyhow::anyhow!(
                "--shards {range} --total {total}: give a range like 0-1 within 0..{total}"
            )
        })?),
        _ => None,
    };
    if shards.is_some() && config.database_url.starts_with("sqlite:") {
        anyhow::bail!(
            "--shards needs PostgreSQL (DATABASE_URL=postgres://…): processes sharing SQLite would fight over one file"
        );
    }
    let Some(token) = config.token.clone() else {
        let lang = Lang::from_locale(&std::env::var("LANG").unwrap_or_default());
        eprintln!(
            "{}",
            croupier::bot::setup_help::no_token_message(config.application_id, lang)
        );
        anyhow::bail!("DISCORD_TOKEN is not set");
    };
    tracing::info!(db = %redact_url(&config.database_url), "starting the Discord bot");
    let bot = BotConfig {
        token,
        database_url: config.database_url.clone(),
        dev_guild: config.dev_guild,
        api_base: config.api_base.clone(),
        http_client: None,
        shards,
        tick: (config.scheduler_tick_secs > 0)
            .then(|| std::time::Duration::from_secs(config.scheduler_tick_secs)),
        cooldowns: config.command_cooldowns,
        global_limit: config.global_limit,
        metrics_addr: config.metrics_addr,
        metrics_token: config.metrics_token.clone(),
        pool_size: config.pool_size,
        shard_watch: croupier::bot::SHARD_WATCH,
        shard_recount: croupier::bot::SHARD_RECOUNT,
        presence_every: croupier::bot::PRESENCE_EVERY,
    };
    croupier::bot::run_bot(bot, config.timers.clone(), croupier::bot::shutdown_signal()).await
}

/// The store of the local table's saved games, for `list`, `delete` and `export`.
async fn open_saved(saved: &SavedCli, config: &Config) -> anyhow::Result<(Service, Lang)> {
    let url = saved
        .db
        .clone()
        .unwrap_or_else(|| config.database_url.clone());
    tracing::info!(db = %redact_url(&url), "opening the store");
    Ok((
        Service::connect(&url).await?,
        Lang::from_locale(&saved.lang),
    ))
}

async fn table_cmd(t: TableCli, config: &Config) -> anyhow::Result<()> {
    let lang = Lang::from_locale(&t.lang);
    let game = match &t.game {
        Some(g) => Some(GameKind::parse(g).ok_or_else(|| {
            let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).collect();
            let typed = croupier::i18n::terminal_safe(g, false);
            anyhow::anyhow!(
                "{}",
                Text::new("core.table.unknown_game")
                    .arg("game", typed)
                    .arg("known", known.join(", "))
                    .render(lang)
            )
        })?),
        None => None,
    };
    // Before anything is stored: a game whose images cannot be written is not created.
    table::prepare_out(&t.out, lang)?;
    let script = match &t.script {
        Some(path) => Some(table::read_text(path, lang)?),
        None => None,
    };
    let url = t.db.clone().unwrap_or_else(|| config.database_url.clone());
    tracing::info!(db = %redact_url(&url), "opening the store");
    let service = Service::connect(&url).await?;
    let played = play_table(&service, t, game, script).await;
    // A clean exit leaves the whole database in its file.
    service.close().await;
    let (played, lang, json, script) = played?;
    if !json {
        let saved = Text::new("core.table.saved").arg("id", played.game.0);
        eprintln!("{}", saved.render(lang));
    }
    if script && played.refused > 0 {
        anyhow::bail!(
            "{}",
            Text::new("core.table.script_refused")
                .arg("count", played.refused)
                .render(lang)
        );
    }
    Ok(())
}

/// The table itself, on an open service: `(what was played, language, --json, --script)`.
async fn play_table(
    service: &Service,
    t: TableCli,
    game: Option<GameKind>,
    script: Option<String>,
) -> anyhow::Result<(table::Played, Lang, bool, bool)> {
    let lang = Lang::from_locale(&t.lang);
    let stdin_tty = std::io::stdin().is_terminal();
    let scripted = t.script.is_some();
    // An imported game starts as set up; its moves are played first, as typed lines.
    let (import_id, moves) = match &t.import {
        Some(path) => {
            let (id, lines) = table::import(service, path, lang).await?;
            (Some(id.0), lines)
        }
        None => (None, String::new()),
    };
    let args = TableArgs {
        game,
        players: t.players,
        seed: t.seed,
        options: t.options,
        variant: t.variant,
        lab: t.lab,
        out: t.out,
        json: t.json,
        resume: import_id.or(t.resume),
        lang,
        names: t.names,
        interactive: t.script.is_none() && stdin_tty && !t.json,
        bots: t.bots,
        bot_level: t.level,
    };
    let stdout = std::io::stdout();
    let played = match script {
        Some(text) => {
            table::run(
                service,
                &args,
                std::io::BufReader::new(std::io::Cursor::new(moves + &text)),
                stdout.lock(),
            )
            .await?
        }
        None => {
            let input = std::io::Cursor::new(moves).chain(std::io::stdin().lock());
            table::run(
                service,
                &args,
                std::io::BufReader::new(input),
                stdout.lock(),
            )
            .await?
        }
    };
    Ok((played, lang, args.json, scripted))
}
