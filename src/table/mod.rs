//! The local table: plays any game in the terminal through the service layer and a real
//! database. Interactive for people, and with `--script`/`--json` the scriptable harness that
//! tests and benchmarks drive.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use serde::Serialize;

use crate::ai::{BotPlayer, Level};
use crate::clock::{fresh_seed, unix_now as now};
use crate::engine::{GameId, GameKind, GameOptions, Outcome, Seat};
use crate::i18n::{Lang, Text};
use crate::service::{
    Actor, Outputs, Place, PlayLine, Player, Service, ServiceError, StartGame, UndoScope,
};

/// What to play, from the command line.
#[derive(Clone, Debug, Default)]
pub struct TableArgs {
    pub game: Option<GameKind>,
    pub players: Option<usize>,
    pub seed: Option<u64>,
    /// Game options as `key=value`.
    pub options: Vec<(String, String)>,
    /// Short flags for common options: `--variant short`, `--lab red`.
    pub variant: Option<String>,
    pub lab: Option<String>,
    pub out: PathBuf,
    pub json: bool,
    pub resume: Option<i64>,
    pub lang: Lang,
    /// Names for the seats (default: Player 1, Player 2, ...).
    pub names: Vec<String>,
    /// Print the prompt and options (interactive use).
    pub interactive: bool,
    /// How many seats bots take (the last ones); every seat with `players == bots`.
    pub bots: usize,
    pub bot_level: Level,
}

/// One line of `--json` output. Front ends and scripts rely on these names for every game.
#[derive(Serialize)]
struct JsonStep<'a> {
    game: i64,
    version: u32,
    seat: Option<u8>,
    prompt: Option<&'a str>,
    options: Vec<String>,
    /// The options name the deciding seat's own secrets (its hand): listed only because that
    /// seat is a person at this table, on its own turn. A bot's are never listed.
    private: bool,
    events: Vec<String>,
    scores: Vec<i64>,
    error: Option<String>,
    outcome: Option<JsonOutcome>,
    image: Option<String>,
}

#[derive(Serialize)]
struct JsonOutcome {
    scores: Vec<i64>,
    ranks: Vec<u8>,
    winners: Vec<u8>,
    draw: bool,
}

impl From<&Outcome> for JsonOutcome {
    fn from(o: &Outcome) -> Self {
        JsonOutcome {
            scores: o.scores.clone(),
            ranks: o.ranks.clone(),
            winners: o.winners.iter().map(|s| s.0).collect(),
            draw: o.draw,
        }
    }
}

fn options_from(args: &TableArgs, kind: GameKind) -> Result<GameOptions, String> {
    let mut options = GameOptions::new();
    for (k, v) in &args.options {
        options.insert(k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase());
    }
    let specs = kind.option_specs();
    if let Some(lab) = &args.lab {
        options.insert("lab".into(), lab.to_ascii_lowercase());
    }
    if let Some(variant) = &args.variant {
        let v = variant.to_ascii_lowercase();
        // A boolean option named like the variant (`short`), else an option called `variant`.
        if specs
            .iter()
            .any(|s| s.key == v && s.values.contains(&"true"))
        {
            options.insert(v, "true".into());
        } else if specs.iter().any(|s| s.key == "variant") {
            options.insert("variant".into(), v);
        } else {
            return Err(format!("{kind} has no variant `{variant}`"));
        }
    }
    Ok(options)
}

struct Table<'a, W: Write> {
    service: &'a Service,
    args: &'a TableArgs,
    out: W,
    game: GameId,
    last_image: Option<PathBuf>,
}

impl<W: Write> Table<'_, W> {
    fn write_image(&mut self, outputs: &Outputs) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.args.out)?;
        let path = self.args.out.join(format!(
            "game{}-v{:04}.png",
            outputs.board.game, outputs.board.version.0
        ));
        std::fs::write(&path, &outputs.board.png)?;
        // Only the people at this table get their hands drawn: a bot's hand is its secret.
        for p in outputs
            .private
            .iter()
            .filter(|p| is_person(outputs, p.seat))
        {
            let private = self.args.out.join(format!(
                "game{}-v{:04}-seat{}.png",
                outputs.board.game,
                outputs.board.version.0,
                p.seat.index() + 1
            ));
            std::fs::write(private, &p.png)?;
        }
        Ok(path)
    }

    fn report(&mut self, outputs: &Outputs, error: Option<String>) -> std::io::Result<()> {
        let image = if error.is_none() || self.last_image.is_none() {
            let path = self.write_image(outputs)?;
            self.last_image = Some(path.clone());
            Some(path)
        } else {
            None
        };
        let board = &outputs.board;
        // Options are listed for a person's decision, or for anyone's when they hide nothing.
        let listed = board
            .prompt
            .as_ref()
            .filter(|p| !p.private || is_person(outputs, p.seat));
        if self.args.json {
            let step = JsonStep {
                game: board.game.0,
                version: board.version.0,
                seat: board.prompt.as_ref().map(|p| p.seat.0),
                prompt: board.prompt.as_ref().map(|p| p.kind),
                options: listed.map(|p| p.options.clone()).unwrap_or_default(),
                private: listed.is_some_and(|p| p.private),
                events: board.events.clone(),
                scores: board.scores.clone(),
                error,
                outcome: board.outcome.as_ref().map(JsonOutcome::from),
                image: image.map(|p| p.display().to_string()),
            };
            let line = serde_json::to_string(&step).unwrap_or_default();
            writeln!(self.out, "{line}")?;
            return self.out.flush();
        }
        let lang = self.args.lang;
        if let Some(e) = error {
            writeln!(self.out, "✗ {e}")?;
        } else {
            writeln!(self.out)?;
            writeln!(self.out, "{}", board.text)?;
            if let Some(path) = image {
                writeln!(
                    self.out,
                    "{}",
                    Text::new("core.table.image")
                        .arg("path", path.display().to_string())
                        .render(lang)
                )?;
            }
        }
        // A bot's turn shows what it did (the events above), not what it could have done.
        if let Some(p) = listed.filter(|p| is_person(outputs, p.seat)) {
            if self.args.interactive {
                writeln!(self.out, "{}", Text::new("core.table.options").render(lang))?;
                for (i, o) in p.options.iter().enumerate() {
                    writeln!(self.out, "  #{:<3} {o}", i + 1)?;
                }
                write!(self.out, "> ")?;
            }
        }
        self.out.flush()
    }

    fn help(&mut self, forms: &[&str]) -> std::io::Result<()> {
        let lang = self.args.lang;
        writeln!(self.out, "{}", Text::new("core.table.help").render(lang))?;
        for f in forms {
            writeln!(self.out, "  {f}")?;
        }
        if self.args.interactive {
            write!(self.out, "> ")?;
        }
        self.out.flush()
    }
}

/// Whether `seat` is held by a person at this table (not a bot).
fn is_person(outputs: &Outputs, seat: Seat) -> bool {
    !outputs
        .table
        .seats
        .get(seat.index())
        .is_some_and(|s| s.is_bot)
}

/// `--import FILE`: a game file written by `/export` becomes a new local game as it was set
/// up (under the rules it was played with), and its moves the first lines the table plays,
/// each shown as it is played. A file that does not replay is refused before anything is
/// stored, naming the move that fails.
pub async fn import(
    service: &Service,
    path: &std::path::Path,
    lang: Lang,
) -> anyhow::Result<(GameId, String)> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let file = crate::service::GameFile::parse(&text)
        .map_err(|t| anyhow::anyhow!("{}", t.render(lang)))?;
    let id = service.records().import(&file, now()).await?;
    let lines = file
        .moves
        .iter()
        .map(|m| format!("{}\n", m.notation))
        .collect();
    Ok((id, lines))
}

/// Runs the table until the input ends, `quit` is typed, or the game is over.
pub async fn run(
    service: &Service,
    args: &TableArgs,
    input: impl BufRead,
    out: impl Write,
) -> anyhow::Result<GameId> {
    let lang = args.lang;
    let (game, first) = match args.resume {
        Some(id) => {
            let id = GameId(id);
            (id, service.boards().show(id, lang).await?)
        }
        None => {
            let kind = args.game.unwrap_or(GameKind::Cortexcape);
            let (min, _) = kind.seat_range();
            // With bots and no player count, one human seat plus the bots.
            let players = args.players.unwrap_or(min.max(args.bots + 1));
            if args.bots > players {
                anyhow::bail!(
                    "{}",
                    Text::new("core.table.too_many_bots")
                        .arg("bots", args.bots)
                        .arg("players", players)
                        .render(lang)
                );
            }
            let options = options_from(args, kind).map_err(anyhow::Error::msg)?;
            let names: Vec<Player> = (0..players)
                .map(|i| {
                    let is_bot = i >= players - args.bots;
                    let name = args.names.get(i).cloned().unwrap_or_else(|| {
                        let key = if is_bot {
                            "core.table.bot"
                        } else {
                            "core.table.player"
                        };
                        Text::new(key)
                            .arg("n", i + 1)
                            .arg(
                                "level",
                                Text::new(format!("core.level.{}", args.bot_level.id())),
                            )
                            .render(lang)
                    });
                    Player {
                        user: None,
                        name,
                        is_bot,
                    }
                })
                .collect();
            let start = StartGame {
                kind,
                options,
                players: names,
                seed: args
                    .seed
                    .unwrap_or_else(|| fresh_seed(u64::from(std::process::id()))),
                place: Place::default(),
                host: None,
                clock_secs: None,
            };
            match service.lobbies().start(start, lang, now()).await {
                Ok(ok) => ok,
                Err(ServiceError::Setup(e)) => anyhow::bail!("{}", e.text().render(lang)),
                Err(e) => return Err(e.into()),
            }
        }
    };
    let mut table = Table {
        service,
        args,
        out,
        game,
        last_image: None,
    };
    if !args.json {
        let loaded = service.load(game).await?;
        writeln!(
            table.out,
            "{}",
            Text::new("core.table.welcome")
                .arg("game", loaded.game.kind().display_name())
                .arg("id", game.0)
                .render(lang)
        )?;
    }
    table.report(&first, None)?;
    let mut last = first;
    play_bots(&mut table, &mut last).await?;
    for line in input.lines() {
        let line = line?;
        let typed = line.trim();
        if typed.is_empty() || typed.starts_with("//") {
            continue;
        }
        if last.board.prompt.is_none() {
            break;
        }
        let seat = last.board.prompt.as_ref().map_or(Seat(0), |p| p.seat);
        let result = match typed.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => break,
            "help" | "?" => {
                let loaded = table.service.load(table.game).await?;
                table.help(&loaded.game.notation_forms())?;
                continue;
            }
            "board" => table.service.boards().show(table.game, lang).await,
            // The seat whose turn it is gives up; the game ends with the standings then.
            "resign" => match table
                .service
                .moves()
                .resign_as(table.game, Actor::Seat(seat), lang, now())
                .await
            {
                Ok(resigned) => {
                    table
                        .service
                        .boards()
                        .show_ended(table.game, &resigned.text, lang)
                        .await
                }
                Err(e) => Err(e),
            },
            "undo" => {
                table
                    .service
                    .moves()
                    .undo(
                        table.game,
                        Actor::Seat(seat_for_undo(&table, seat).await?),
                        UndoScope::Last,
                        lang,
                        now(),
                    )
                    .await
            }
            "undo all" => {
                table
                    .service
                    .moves()
                    .undo(
                        table.game,
                        Actor::Seat(seat_for_undo(&table, seat).await?),
                        UndoScope::ToBarrier,
                        lang,
                        now(),
                    )
                    .await
            }
            _ => {
                let line = pick_numbered(typed, &last);
                table
                    .service
                    .moves()
                    .play(
                        PlayLine {
                            game: table.game,
                            actor: Actor::Seat(seat),
                            line,
                            seen: None,
                        },
                        lang,
                        now(),
                    )
                    .await
            }
        };
        match result {
            Ok(outputs) => {
                // A line refused after a barrier: the part up to it was played; say why the
                // rest was not.
                let refused = match &outputs.refused {
                    Some(why) => Some(why.render_with(lang, &names_of(&table).await)),
                    None => None,
                };
                table.report(&outputs, refused)?;
                last = outputs;
                play_bots(&mut table, &mut last).await?;
            }
            Err(e) if e.is_user_error() => {
                let msg = e.text().render_with(lang, &names_of(&table).await);
                table.report(&last, Some(msg))?;
            }
            Err(e) => return Err(e.into()),
        }
        if last.board.prompt.is_none() {
            break;
        }
    }
    Ok(game)
}

/// Lets bot seats decide, one option at a time, until a person must (or the game is over).
async fn play_bots<W: Write>(table: &mut Table<'_, W>, last: &mut Outputs) -> anyhow::Result<()> {
    let lang = table.args.lang;
    while let Some(prompt) = &last.board.prompt {
        let loaded = table.service.load(table.game).await?;
        if !loaded
            .record
            .seats
            .get(prompt.seat.index())
            .is_some_and(|s| s.is_bot)
        {
            break;
        }
        // Seeded by game and version: a replayed game gets the same bot decisions.
        let seed = crate::service::seed_from_i64(loaded.record.seed)
            ^ (u64::from(loaded.record.version.0) << 32);
        let Some(choice) = loaded.game.bot_option(table.args.bot_level, seed) else {
            break;
        };
        let outputs = table
            .service
            .moves()
            .play(
                PlayLine {
                    game: table.game,
                    actor: Actor::Seat(choice.seat),
                    line: choice.notation,
                    seen: None,
                },
                lang,
                now(),
            )
            .await?;
        table.report(&outputs, None)?;
        *last = outputs;
    }
    Ok(())
}

/// The table plays every seat: `undo` takes back the last mover's option.
async fn seat_for_undo<W: Write>(table: &Table<'_, W>, fallback: Seat) -> anyhow::Result<Seat> {
    let last = table.service.moves().last_mover(table.game).await?;
    Ok(last.unwrap_or(fallback))
}

async fn names_of<W: Write>(table: &Table<'_, W>) -> Vec<String> {
    table
        .service
        .load(table.game)
        .await
        .map(|l| l.names())
        .unwrap_or_default()
}

/// `#3` picks the third listed option.
fn pick_numbered(typed: &str, last: &Outputs) -> String {
    if let Some(n) = typed
        .strip_prefix('#')
        .and_then(|n| n.trim().parse::<usize>().ok())
    {
        if let Some(o) = last
            .board
            .prompt
            .as_ref()
            .and_then(|p| n.checked_sub(1).and_then(|i| p.options.get(i)))
        {
            return o.clone();
        }
    }
    typed.to_string()
}
