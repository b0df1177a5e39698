//! Lessons (`/learn`, issue 41 item 3): a guided first game against an easy bot.
//!
//! A lesson is a real stored game (it survives restarts and can be resumed) flagged `lesson`
//! in the store, so it never counts: no rating, no /stats, no profile, no presence, no caps.
//! Each game has one script ([`SCRIPTS`]): fixed options and seed, the learner in seat 1
//! and first to play, an easy bot in seat 2 that plays after a short pause
//! ([`LESSON_BOT_DELAY`]), no clock. A lesson ends at the game's end or once the game has
//! taken `steps` options (both seats), whichever comes first: the long games (Portal, Space
//! Lab) are shown through their first turns, not played
//! for an hour. Every board that asks the learner carries a hint ([`hint`]).

use super::core::rendering;
use super::output::{self, Outputs};
use super::{seed_to_i64, Lessons, Loaded, Place, Player, ServiceError};
use crate::ai::{BotPlayer, Level};
use crate::engine::{GameId, GameKind, GameOptions, PromptInfo, Secrecy};
use crate::i18n::{has_key, Lang, Text};
use crate::store::{GameStatus, NewGame, NewSeat, TimeoutPolicy};

/// One game's lesson: what is set up, and when it stops.
#[derive(Clone, Copy, Debug)]
pub struct Script {
    pub kind: GameKind,
    /// The game's options (`key`, `value`): the shortest setup the game allows, the learner
    /// first.
    pub options: &'static [(&'static str, &'static str)],
    /// The same deal every time, so the hints of the first steps fit the position.
    pub seed: u64,
    /// The lesson stops after this many options (the learner's and the bot's together),
    /// if the game has not ended before.
    pub steps: u32,
}

/// The five lessons. The step counts were measured with the engine (the learner and an easy
/// bot on these setups, see DECISIONS.md "Lessons"): Gates of Delirium ends by itself in two
/// rounds (about 27 options); the others stop after their first turns.
pub const SCRIPTS: [Script; 5] = [
    Script {
        kind: GameKind::Portal,
        options: &[("max_rounds", "10"), ("first_player", "host")],
        seed: 7,
        steps: 16,
    },
    Script {
        kind: GameKind::Vortex,
        options: &[
            ("mode", "crossing"),
            ("goal_count", "1"),
            ("seating", "host"),
        ],
        seed: 7,
        steps: 12,
    },
    Script {
        kind: GameKind::Gates,
        options: &[("round_limit", "2"), ("first_player", "1")],
        seed: 7,
        steps: 60,
    },
    Script {
        kind: GameKind::SpaceLab,
        options: &[("first_player", "host_choice"), ("first_seat", "0")],
        seed: 7,
        steps: 16,
    },
    Script {
        kind: GameKind::Cortexcape,
        options: &[("short", "true"), ("first", "seat1")],
        seed: 7,
        steps: 20,
    },
];

/// The lesson of `kind`.
pub fn script(kind: GameKind) -> Script {
    SCRIPTS
        .iter()
        .copied()
        .find(|s| s.kind == kind)
        .unwrap_or(SCRIPTS[0])
}

impl Script {
    pub fn game_options(&self) -> GameOptions {
        self.options
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }
}

/// Seconds the lesson's bot waits before each of its options: the learner can follow its
/// turn, and its boards stay within Discord's pace for one channel (5 messages in 5 seconds;
/// a bot's turn in Portal or Space Lab is several options, each a board).
pub const LESSON_BOT_DELAY: i64 = 2;

/// How a lesson ended, for the front end's closing message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonEnd {
    pub game: GameId,
    pub kind: GameKind,
    /// The game itself ended (else the lesson stopped after its script's steps).
    pub finished: bool,
}

impl Lessons<'_> {
    /// The running lesson of `kind` that `user` sits in, if any.
    pub async fn open_lesson(
        self,
        user: i64,
        kind: GameKind,
    ) -> Result<Option<GameId>, ServiceError> {
        Ok(self.core.store.open_lesson(user, kind.id()).await?)
    }

    /// Starts `learner`'s lesson of `kind` in `place` (its thread already made): the
    /// script's setup, an easy bot that plays at once, no clock. Returns its first board,
    /// hint included.
    pub async fn start(
        self,
        kind: GameKind,
        learner: Player,
        place: Place,
        lang: Lang,
        now: i64,
    ) -> Result<(GameId, Outputs), ServiceError> {
        let s = script(kind);
        let options = s.game_options();
        let state = kind.setup(&options, 2, s.seed)?;
        let bot = Text::new("learn.bot_name").render(lang);
        let new = NewGame {
            kind,
            options,
            seed: seed_to_i64(s.seed),
            state: state.to_json(),
            status: GameStatus::Active,
            guild: place.guild,
            channel: place.channel,
            thread: place.thread,
            host: learner.user,
            seats: vec![
                NewSeat {
                    user: learner.user,
                    name: learner.name.clone(),
                    is_bot: false,
                },
                NewSeat {
                    user: None,
                    name: bot,
                    is_bot: true,
                },
            ],
            clock_secs: None,
            policy: TimeoutPolicy::default(),
            lang: Some(lang),
            now,
        };
        let id = self.core.store.create_game(&new).await?;
        self.core.store.mark_lesson(id).await?;
        self.core
            .store
            .set_bots(id, Level::Easy, LESSON_BOT_DELAY)
            .await?;
        let mut loaded = self.core.load(id).await?;
        self.core.start_clock(&mut loaded, now).await?;
        let board = rendering(move || output::first_board(&loaded, lang)).await?;
        Ok((id, self.core.with_settings(board).await))
    }

    /// The lesson's current board again (its hint included), to post in its thread when the
    /// learner comes back with `/learn`. The clock takes a new revision (its jobs planned again,
    /// the bot's turn included): the board goes out as a new message, not as the one already
    /// posted for this version (a board's nonce names the version and the revision).
    pub async fn resume(self, game: GameId, lang: Lang, now: i64) -> Result<Outputs, ServiceError> {
        let mut loaded = self.core.load(game).await?;
        let plan = self.core.replan_current(&loaded.record, now).await?;
        if self.core.store.apply_turn_plan(game, &plan).await? {
            loaded.record.clock = plan.clock;
            self.core.wake_if_due(&plan, now);
        }
        let lang = super::core::public_lang(&loaded.record, lang);
        let board = rendering(move || output::after_change(&loaded, &[], lang)).await?;
        Ok(self.core.with_settings(board).await)
    }

    /// The learner leaves their running lesson: it is cancelled (lessons never count, so
    /// nothing stays in any record). `false` when `user` has no such lesson running.
    pub async fn leave(self, game: GameId, user: i64, now: i64) -> Result<bool, ServiceError> {
        let record = self.core.store.game(game).await?;
        let seated = record.seats.iter().any(|s| s.user == Some(user));
        if !record.lesson || !seated || record.status != GameStatus::Active {
            return Ok(false);
        }
        // Its jobs (the bot's turn) do nothing once it is cancelled.
        self.core
            .store
            .cancel_game(game, record.version, None, now)
            .await?;
        Ok(true)
    }

    /// After a board of lesson `game` at `version` went out: whether the lesson is over now.
    /// A finished game ends it; a running one is stopped (cancelled) once it has taken its
    /// script's steps. `None` when it goes on, or when another board already ended it.
    pub async fn end_if_done(
        self,
        game: GameId,
        now: i64,
    ) -> Result<Option<LessonEnd>, ServiceError> {
        let record = self.core.store.game(game).await?;
        if !record.lesson {
            return Ok(None);
        }
        let end = |finished| LessonEnd {
            game,
            kind: record.kind,
            finished,
        };
        match record.status {
            GameStatus::Finished => Ok(Some(end(true))),
            GameStatus::Active if record.version.0 >= script(record.kind).steps => {
                match self
                    .core
                    .store
                    .cancel_game(game, record.version, None, now)
                    .await
                {
                    Ok(_) => {
                        // Its thread leaves the server's active threads after the grace, as
                        // a finished game's does (the game's end plans that one itself).
                        let archive = self.core.archive_job(game, now);
                        self.core.store.schedule_job(&archive).await?;
                        Ok(Some(end(false)))
                    }
                    // A bot's option landed first: the board of that one ends the lesson.
                    Err(crate::store::StoreError::Conflict { .. }) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            }
            _ => Ok(None),
        }
    }
}

/// Whether a lesson's board at `version` is its last (the script's steps are taken).
pub fn past_script(kind: GameKind, version: u32) -> bool {
    version >= script(kind).steps
}

/// The hint under a lesson's prompt when the learner (a person's seat) decides: the step,
/// what this decision means (by the game's prompt kind, `learn.<game>.<kind>`, else a general
/// word), and a good first idea: the option the game's own bot would take from the learner's
/// views, named only when the options are public (a hand's cards are never named on the
/// board). `None` for a bot's prompt or a game that is no lesson.
pub fn hint(loaded: &Loaded, prompt: &PromptInfo, lang: Lang) -> Option<String> {
    if !loaded.record.lesson {
        return None;
    }
    let seat = loaded.record.seats.get(prompt.seat.index())?;
    if seat.is_bot || seat.user.is_none() {
        return None;
    }
    let kind = loaded.record.kind;
    let key = format!("learn.{}.{}", kind.id(), prompt.kind);
    let what = if has_key(&key) {
        Text::new(key)
    } else {
        Text::new("learn.generic")
    };
    let step = loaded.record.version.0 + 1;
    let mut lines = vec![Text::new("learn.hint")
        .arg("step", step)
        .arg("of", script(kind).steps)
        .arg("hint", what)
        .render(lang)];
    if loaded.record.version.0 == 0 {
        lines.insert(0, Text::new("learn.intro").render(lang));
    }
    let public = !prompt.private && prompt.secrecy == Secrecy::Public;
    if prompt.options.len() == 1 {
        lines.push(Text::new("learn.only_one").render(lang));
    } else if public {
        let seed =
            crate::service::seed_from_i64(loaded.record.seed) ^ u64::from(loaded.record.version.0);
        if let Some(idea) = loaded.game.bot_option(Level::Normal, seed) {
            lines.push(
                Text::new("learn.idea")
                    .arg("option", idea.notation)
                    .render(lang),
            );
        }
    } else {
        lines.push(Text::new("learn.idea_private").render(lang));
    }
    Some(lines.join("\n"))
}
