//! The local table: plays any game in the terminal through the service layer and a real
//! database. Interactive for people, and with `--script`/`--json` the scriptable harness that
//! tests and benchmarks drive.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use serde::Serialize;

use crate::ai::{BotPlayer, Level};
use crate::clock::{fresh_seed, unix_now as now};
use crate::engine::{GameId, GameKind, GameOptions, Outcome, Seat};
use crate::i18n::terminal_safe;
use crate::i18n::{Lang, Text};
use crate::service::{
    Actor, Outputs, Place, PlayLine, Player, Service, ServiceError, StartGame, UndoScope,
};

mod saved;

pub use saved::{delete, export, list, prepare_out};

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

/// One line of `--json` output for a command that shows something without playing (`hand`,
/// `history`, `rules`, `export`): what a person would read, line by line.
#[derive(Serialize)]
struct JsonAnswer<'a> {
    game: i64,
    command: &'a str,
    lines: Vec<String>,
    error: Option<String>,
    image: Option<String>,
}

/// What a table run leaves: the game, and how many typed lines were refused (a script with
/// any fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub game: GameId,
    pub refused: usize,
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
            return Err(Text::new("core.table.no_variant")
                .arg("game", kind.display_name())
                .arg("variant", terminal_safe(variant, false))
                .render(args.lang));
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
    /// Typed lines refused so far.
    refused: usize,
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
            std::fs::write(self.hand_path(outputs, p.seat), &p.png)?;
        }
        Ok(path)
    }

    /// Where the hand of `seat` is drawn at this version.
    fn hand_path(&self, outputs: &Outputs, seat: Seat) -> PathBuf {
        self.args.out.join(format!(
            "game{}-v{:04}-seat{}.png",
            outputs.board.game,
            outputs.board.version.0,
            seat.index() + 1
        ))
    }

    fn report(&mut self, outputs: &Outputs, error: Option<String>) -> std::io::Result<()> {
        let board = &outputs.board;
        // A bot decides next: in words, only what just happened. The bot's own step follows at
        // once, and what it is asked (or could do) is no reader's business; the board comes
        // back, image and all, when a person must decide or the game ends.
        let bot_next = board
            .prompt
            .as_ref()
            .is_some_and(|p| !is_person(outputs, p.seat));
        if bot_next && !self.args.json && error.is_none() {
            for event in &board.events {
                writeln!(self.out, "{}", terminal_safe(event, false))?;
            }
            return self.out.flush();
        }
        let image = if error.is_none() || self.last_image.is_none() {
            let path = self.write_image(outputs)?;
            self.last_image = Some(path.clone());
            Some(path)
        } else {
            None
        };
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
            writeln!(self.out, "✗ {}", terminal_safe(&e, false))?;
        } else {
            writeln!(self.out)?;
            writeln!(self.out, "{}", terminal_safe(&board.text, true))?;
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
        } else if board.prompt.is_none() && self.args.interactive {
            // Over: what can still be done before leaving.
            writeln!(self.out, "{}", Text::new("core.table.over").render(lang))?;
            write!(self.out, "> ")?;
        }
        self.out.flush()
    }

    /// The answer to a command that shows something (`hand`, `history`, `rules`, `export`):
    /// its lines, or why it was refused (counted like a refused option).
    fn answer(
        &mut self,
        command: &str,
        answer: Result<(Vec<String>, Option<PathBuf>), String>,
    ) -> std::io::Result<()> {
        if answer.is_err() {
            self.refused += 1;
        }
        if self.args.json {
            let (lines, image, error) = match answer {
                Ok((lines, image)) => (lines, image.map(|p| p.display().to_string()), None),
                Err(e) => (Vec::new(), None, Some(e)),
            };
            let step = JsonAnswer {
                game: self.game.0,
                command,
                lines,
                error,
                image,
            };
            let line = serde_json::to_string(&step).unwrap_or_default();
            writeln!(self.out, "{line}")?;
            return self.out.flush();
        }
        match answer {
            Ok((lines, image)) => {
                for line in lines {
                    writeln!(self.out, "{}", terminal_safe(&line, true))?;
                }
                if let Some(path) = image {
                    let text =
                        Text::new("core.table.hand_image").arg("path", path.display().to_string());
                    writeln!(self.out, "{}", text.render(self.args.lang))?;
                }
            }
            Err(e) => writeln!(self.out, "✗ {}", terminal_safe(&e, false))?,
        }
        if self.args.interactive {
            write!(self.out, "> ")?;
        }
        self.out.flush()
    }

    /// `hand`: the deciding person's own hand, in words and drawn into a file.
    async fn hand(&self, last: &Outputs) -> Result<(Vec<String>, Option<PathBuf>), String> {
        let lang = self.args.lang;
        let Some(seat) = last.board.prompt.as_ref().map(|p| p.seat) else {
            return Err(Text::new("core.table.hand_nobody").render(lang));
        };
        // Only a person's: a bot's hand is its secret (a bot never waits for input anyway).
        if !is_person(last, seat) {
            return Err(Text::new("core.table.hand_nobody").render(lang));
        }
        let post = self
            .service
            .moves()
            .hand_as(self.game, Actor::Seat(seat), lang)
            .await
            .map_err(|e| self.refusal(&e))?;
        let Some(post) = post else {
            return Err(Text::new("core.table.hand_none").render(lang));
        };
        let path = self.hand_path(last, seat);
        std::fs::create_dir_all(&self.args.out)
            .and_then(|()| std::fs::write(&path, &post.png))
            .map_err(|e| {
                Text::new("core.table.cannot_write")
                    .arg("path", path.display().to_string())
                    .arg("why", e.to_string())
                    .render(lang)
            })?;
        Ok((vec![post.text], Some(path)))
    }

    /// `history`: the moves so far, the deciding person's own private choices shown.
    async fn history(&self, last: &Outputs) -> Result<(Vec<String>, Option<PathBuf>), String> {
        let lang = self.args.lang;
        let viewer = last
            .board
            .prompt
            .as_ref()
            .map(|p| p.seat)
            .filter(|&s| is_person(last, s))
            .map(Actor::Seat);
        let lines = self
            .service
            .records()
            .history_as(self.game, viewer, lang)
            .await
            .map_err(|e| self.refusal(&e))?;
        if lines.is_empty() {
            return Ok((vec![Text::new("bot.history_empty").render(lang)], None));
        }
        Ok((lines, None))
    }

    /// `rules [topic]`: a page of the game's rules, or the list of pages.
    async fn rules(&self, topic: &str) -> Result<(Vec<String>, Option<PathBuf>), String> {
        let lang = self.args.lang;
        let loaded = self
            .service
            .load(self.game)
            .await
            .map_err(|e| self.refusal(&e))?;
        let kind = loaded.game.kind();
        let topics: Vec<String> = crate::rules::topics(kind, lang)
            .into_iter()
            .map(|t| format!("  {:<12} {}", t.id, t.title))
            .collect();
        if topic.is_empty() {
            let mut lines = vec![Text::new("core.table.rules_topics")
                .arg("game", kind.display_name())
                .render(lang)];
            lines.extend(topics);
            return Ok((lines, None));
        }
        match crate::rules::page(kind, topic, lang) {
            Some(page) => Ok((page.lines().map(str::to_string).collect(), None)),
            None => {
                let ids: Vec<&str> = crate::rules::topics(kind, lang)
                    .into_iter()
                    .map(|t| t.id)
                    .collect();
                Err(Text::new("bot.error.no_topic")
                    .arg("topic", topic.to_string())
                    .arg("topics", ids.join(", "))
                    .render(lang))
            }
        }
    }

    /// A refusal from the service, in words (an internal failure as the short apology).
    fn refusal(&self, e: &ServiceError) -> String {
        e.text().render(self.args.lang)
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

/// A text file the table reads (a script, a game file), less the byte-order mark some editors
/// put first, which is no part of its first line.
pub fn read_text(path: &std::path::Path, lang: Lang) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        anyhow::anyhow!(
            "{}",
            Text::new("core.table.cannot_read")
                .arg("path", path.display().to_string())
                .arg("why", e.to_string())
                .render(lang)
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
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
    let text = read_text(path, lang)?;
    // The file's words (a move, a name) may come back in the error: made inert first.
    let file = crate::service::GameFile::parse(&text)
        .map_err(|t| anyhow::anyhow!("{}", terminal_safe(&t.render(lang), false)))?;
    let id = service
        .records()
        .import(&file, now())
        .await
        .map_err(|e| user_error(e, lang))?;
    let lines = file
        .moves
        .iter()
        .map(|m| format!("{}\n", m.notation))
        .collect();
    Ok((id, lines))
}

/// A service error for the command line: a user's in their language, an internal one as is
/// (it says what failed, for the log and a bug report).
pub fn user_error(e: ServiceError, lang: Lang) -> anyhow::Error {
    if e.is_user_error() {
        anyhow::anyhow!("{}", e.text().render(lang))
    } else {
        e.into()
    }
}

/// Runs the table until the input ends or `quit` is typed. Once the game is over, what shows
/// it (`history`, `board`, `export FILE`, ...) still works.
pub async fn run(
    service: &Service,
    args: &TableArgs,
    input: impl BufRead,
    out: impl Write,
) -> anyhow::Result<Played> {
    let lang = args.lang;
    let (game, first) = match args.resume {
        Some(id) => {
            let id = GameId(id);
            // A server's game is played in its server, never from a terminal.
            let found = service.find().local_game(id).await;
            if found.map_err(|e| user_error(e, lang))?.is_none() {
                anyhow::bail!(
                    "{}",
                    Text::new("core.table.not_local")
                        .arg("id", id.0)
                        .render(lang)
                );
            }
            // With the events it showed when it was played (an imported or resumed game's
            // automatic set-up steps included).
            let first = service
                .boards()
                .opening(id, lang)
                .await
                .map_err(|e| user_error(e, lang))?;
            (id, first)
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
            service
                .lobbies()
                .start(start, lang, now())
                .await
                .map_err(|e| user_error(e, lang))?
        }
    };
    let mut table = Table {
        service,
        args,
        out,
        game,
        last_image: None,
        refused: 0,
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
    for (n, line) in input.lines().enumerate() {
        let line = line?;
        // A byte-order mark opens a file some editors save; it is no part of the first line.
        let line = if n == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            &line
        };
        let typed = line.trim();
        if typed.is_empty() || typed.starts_with("//") {
            continue;
        }
        let seat = last.board.prompt.as_ref().map_or(Seat(0), |p| p.seat);
        let lower = typed.to_ascii_lowercase();
        let (command, rest) = match lower.split_once(char::is_whitespace) {
            Some((c, _)) => (c, typed[c.len()..].trim()),
            None => (lower.as_str(), ""),
        };
        let result = match (command, rest.is_empty()) {
            ("quit" | "exit" | "q", true) => break,
            ("help" | "?", true) => {
                let loaded = table.service.load(table.game).await?;
                table.help(&loaded.game.notation_forms())?;
                continue;
            }
            ("hand", true) => {
                let answer = table.hand(&last).await;
                table.answer("hand", answer)?;
                continue;
            }
            ("history", true) => {
                let answer = table.history(&last).await;
                table.answer("history", answer)?;
                continue;
            }
            ("rules", _) => {
                let answer = table.rules(rest).await;
                table.answer("rules", answer)?;
                continue;
            }
            ("export", _) => {
                let answer = saved::write_export(table.service, table.game, rest, lang)
                    .await
                    .map(|line| (vec![line], None));
                table.answer("export", answer)?;
                continue;
            }
            ("board", true) => table.service.boards().show(table.game, lang).await,
            // The seat whose turn it is gives up; the game ends with the standings then.
            ("resign", true) => match table
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
            ("undo", true) => {
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
            ("undo", false) if rest.eq_ignore_ascii_case("all") => {
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
            _ => match pick_numbered(typed, &last) {
                Ok(line) => {
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
                Err(why) => {
                    table.refused += 1;
                    table.report(&last, Some(why.render(lang)))?;
                    continue;
                }
            },
        };
        match result {
            Ok(outputs) => {
                // A line refused after a barrier: the part up to it was played; say why the
                // rest was not.
                let refused = match &outputs.refused {
                    Some(why) => Some(why.render_with(lang, &names_of(&table).await)),
                    None => None,
                };
                table.refused += usize::from(refused.is_some());
                table.report(&outputs, refused)?;
                last = outputs;
                play_bots(&mut table, &mut last).await?;
            }
            Err(e) if e.is_user_error() => {
                table.refused += 1;
                let msg = e.text().render_with(lang, &names_of(&table).await);
                table.report(&last, Some(msg))?;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Played {
        game,
        refused: table.refused,
    })
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

/// `#3` picks the third listed option; a number with no option gets a one-line answer (not
/// the whole notation, as an unreadable option would).
fn pick_numbered(typed: &str, last: &Outputs) -> Result<String, Text> {
    let Some(number) = typed.strip_prefix('#') else {
        return Ok(typed.to_string());
    };
    let options = last
        .board
        .prompt
        .as_ref()
        .filter(|p| !p.private || is_person(last, p.seat))
        .map_or(&[][..], |p| p.options.as_slice());
    let picked = number
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| options.get(i));
    match picked {
        Some(o) => Ok(o.clone()),
        None if options.is_empty() => Err(Text::new("core.table.no_options")),
        None => Err(Text::new("core.table.no_number")
            .arg("typed", terminal_safe(typed, false))
            .arg("count", options.len())),
    }
}
