//! Replays (issue 24, part 2): a game shown turn by turn, each step rebuilt from the seed,
//! the options and the log (the log is the truth), never from a stored snapshot.
//!
//! A step shows only what the public board showed then: the image is the public view's, so
//! no hidden hand can be in it. The notation of a choice that was secret when it was made
//! (a card of a hand, a ballot: the game's [`Secrecy`]) is shown only to the seat that made
//! it until its reveal, as `/history` does.

use super::output::{encode_png, outcome_text};
use super::{rebuild, text_names, LobbyError, Records, ServiceError};
use crate::engine::{AnyGame, GameId, RenderCtx, Seat, Secrecy};
use crate::i18n::{Lang, Text};
use crate::render::anim;
use crate::store::{GameRecord, GameStatus, MoveRecord};

/// One step of a replay, ready to show.
#[derive(Clone, Debug)]
pub struct ReplayStep {
    pub game: GameId,
    /// 0 is the board as set up; `steps` the last turn played.
    pub step: usize,
    pub steps: usize,
    /// Title, the turn's options, and the result on the last step of a finished game.
    pub text: String,
    /// The public board at this step, as PNG.
    pub png: Vec<u8>,
    /// What the image shows, in words (alt text).
    pub alt: String,
}

/// Where each turn (a run of options by one seat) starts in the live log, and its end.
pub fn turn_bounds(moves: &[MoveRecord]) -> Vec<(usize, usize)> {
    runs_of_one_seat(moves, |m| m.seat)
}

/// Where each run of entries by one seat starts in `log`, and its end: the turns of any log
/// (`/replay`, the analysis' turn numbers, `/stats`'s turn times).
pub fn runs_of_one_seat<T, S: PartialEq>(log: &[T], seat: impl Fn(&T) -> S) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, entry) in log.iter().enumerate() {
        match out.last_mut() {
            Some((start, end)) if seat(&log[*start]) == seat(entry) => *end = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// The game after `count` options of the log, and each option's [`Secrecy`] when it was
/// taken (a card of a hand, a secret ballot).
pub(super) fn replay_to(
    record: &GameRecord,
    moves: &[MoveRecord],
    count: usize,
) -> Result<(Box<dyn AnyGame>, Vec<Secrecy>), ServiceError> {
    let mut game = rebuild(record, &[]).map_err(|(_, error)| ServiceError::Replay {
        game: record.id,
        seq: -1,
        error,
    })?;
    let mut secrecy = Vec::with_capacity(count);
    for m in moves.iter().take(count) {
        // A move with no prompt before it cannot be: keep it hidden rather than guess.
        secrecy.push(game.prompt().map_or(Secrecy::Hand, |p| p.secrecy));
        game.apply_notation(m.seat, &m.notation)
            .map_err(|error| ServiceError::Replay {
                game: record.id,
                seq: m.seq,
                error,
            })?;
    }
    Ok((game, secrecy))
}

/// Whether `viewer` (a seat index, if they hold one) may read the option `m` taken under
/// `secrecy` in game `record` as it stands: the seat that took it always may, anyone else
/// once its [`Reveal`](crate::engine::Reveal) has come.
pub(super) fn choice_shown(
    record: &GameRecord,
    m: &MoveRecord,
    secrecy: Secrecy,
    viewer: Option<usize>,
) -> bool {
    viewer == Some(m.seat.index()) || !secrecy.hides_choice(record.status != GameStatus::Active)
}

/// The animated replay of a game (GIF): public boards only, at the turns
/// [`anim::sample_steps`] picks, from `start` (the game as set up, under its rules) through
/// `moves` (seat and notation, in order). `turn_ends[i]` is how many moves are played after
/// turn `i + 1`. CPU work (renders and the encode): run it off the async threads.
pub fn replay_gif(
    game: Box<dyn AnyGame>,
    moves: &[(Seat, String)],
    turn_ends: &[usize],
    ctx: &RenderCtx,
) -> Result<Vec<u8>, String> {
    let frames = replay_frames(game, moves, turn_ends, ctx)?;
    frames
        .encode_within(anim::MAX_BYTES)
        .map(|gif| gif.bytes)
        .map_err(|e| e.to_string())
}

/// The frames of [`replay_gif`], before their encode: each sampled public board, rendered,
/// then scaled down and counted into the animation on a second thread while the next board
/// is rendered (a board is handed over only when that thread is ready for it, so at most two
/// are held: the one being rendered and the one being counted).
pub fn replay_frames(
    mut game: Box<dyn AnyGame>,
    moves: &[(Seat, String)],
    turn_ends: &[usize],
    ctx: &RenderCtx,
) -> Result<anim::Animation, String> {
    let picks = anim::sample_steps(turn_ends.len(), anim::MAX_FRAMES);
    std::thread::scope(|scope| {
        let (boards, inbox) = std::sync::mpsc::sync_channel::<image::RgbaImage>(0);
        let counter = scope.spawn(move || {
            let mut frames = anim::Animation::new();
            for board in inbox {
                frames.push(&board);
            }
            frames
        });
        // Owns the sender, so the frame thread's inbox closes when the renders end.
        let render = move || -> Result<(), String> {
            let mut played = 0;
            for step in picks {
                let upto = if step == 0 { 0 } else { turn_ends[step - 1] };
                for (seat, notation) in moves.iter().take(upto).skip(played) {
                    game.apply_notation(*seat, notation)
                        .map_err(|e| e.to_string())?;
                }
                played = played.max(upto);
                boards
                    .send(game.render_public(ctx))
                    .map_err(|_| "the replay's frame thread stopped".to_string())?;
            }
            Ok(())
        };
        let rendered = render();
        let frames = counter
            .join()
            .map_err(|_| "the replay's frame thread panicked".to_string())?;
        rendered.map(|()| frames)
    })
}

impl Records<'_> {
    /// Rebuilds a game from its seed and live moves (the snapshot is not read).
    pub async fn replay(self, id: GameId) -> Result<Box<dyn AnyGame>, ServiceError> {
        let record = self.core.store.game(id).await?;
        let moves = self.core.store.moves(id).await?;
        let notations: Vec<(Seat, String)> =
            moves.iter().map(|m| (m.seat, m.notation.clone())).collect();
        rebuild(&record, &notations).map_err(|(i, error)| ServiceError::Replay {
            game: id,
            seq: moves.get(i).map_or(-1, |m| m.seq),
            error,
        })
    }

    /// The animated replay of a stored game (see [`replay_gif`]), built on a blocking
    /// thread. `None` when it cannot be built (logged): the result goes out without it.
    pub async fn replay_animation(self, game: GameId, lang: Lang) -> Option<Vec<u8>> {
        let built: Result<Vec<u8>, String> = async {
            let record = self
                .core
                .store
                .game(game)
                .await
                .map_err(|e| e.to_string())?;
            let moves = self
                .core
                .store
                .moves(game)
                .await
                .map_err(|e| e.to_string())?;
            let start = rebuild(&record, &[]).map_err(|(_, e)| e.to_string())?;
            let ends: Vec<usize> = turn_bounds(&moves).iter().map(|t| t.1).collect();
            let log: Vec<(Seat, String)> =
                moves.iter().map(|m| (m.seat, m.notation.clone())).collect();
            let ctx = RenderCtx {
                lang,
                names: record.seats.iter().map(|s| s.name.clone()).collect(),
                stopped: false,
                number: Some(game.0),
            };
            tokio::task::spawn_blocking(move || replay_gif(start, &log, &ends, &ctx))
                .await
                .map_err(|e| e.to_string())?
        }
        .await;
        match built {
            Ok(gif) => Some(gif),
            Err(error) => {
                tracing::warn!(%game, %error, "could not build a game's animated replay");
                None
            }
        }
    }

    /// Step `step` (clamped to the last) of game `game`'s replay as `viewer` sees it: anyone
    /// who may reach a finished or cancelled game, only its players while it runs.
    pub async fn replay_step(
        self,
        game: GameId,
        viewer: Option<i64>,
        step: usize,
        lang: Lang,
    ) -> Result<ReplayStep, ServiceError> {
        let record = self.core.store.game(game).await?;
        let own = viewer.and_then(|u| {
            record
                .seats
                .iter()
                .position(|s| !s.is_bot && s.user == Some(u))
        });
        match record.status {
            GameStatus::Lobby => {
                return Err(super::LobbyError::NotStarted(game).into());
            }
            GameStatus::Active if own.is_none() => {
                return Err(super::LobbyError::ReplayNotAPlayer(game).into());
            }
            _ => {}
        }
        let moves = self.core.store.moves(game).await?;
        let turns = turn_bounds(&moves);
        let steps = turns.len();
        let step = step.min(steps);
        let upto = if step == 0 { 0 } else { turns[step - 1].1 };
        let (state, secrecy) = replay_to(&record, &moves, upto)?;
        let names = text_names(&record);
        let mut lines = vec![Text::new("replay.title")
            .arg("game", record.kind.display_name())
            .arg("id", game.0)
            .arg("step", step)
            .arg("steps", steps)
            .render(lang)];
        if step == 0 {
            lines.push(Text::new("replay.start").render(lang));
        } else {
            let (from, to) = turns[step - 1];
            let seat = moves[from].seat;
            let shown: Vec<String> = (from..to)
                .map(|i| {
                    if choice_shown(&record, &moves[i], secrecy[i], own) {
                        format!("`{}`", moves[i].notation)
                    } else {
                        Text::new("bot.history_private").render(lang)
                    }
                })
                .collect();
            lines.push(
                Text::new("replay.turn")
                    .arg("seat", seat)
                    .arg("moves", shown.join(" · "))
                    .render_with(lang, &names),
            );
        }
        if step == steps {
            match state.outcome() {
                Some(outcome) => {
                    lines.push(outcome_text(&outcome).render_with(lang, &names));
                }
                None if record.status == GameStatus::Active => {
                    lines.push(Text::new("replay.now").render(lang));
                }
                None => {}
            }
        }
        let ctx = RenderCtx {
            lang,
            names: record.seats.iter().map(|s| s.name.clone()).collect(),
            stopped: false,
            number: Some(game.0),
        };
        let png = super::core::rendering(move || encode_png(&state.render_public(&ctx))).await?;
        let alt = Text::new("replay.alt")
            .arg("game", record.kind.display_name())
            .arg("step", step)
            .arg("steps", steps)
            .render(lang);
        Ok(ReplayStep {
            game,
            step,
            steps,
            text: lines.join("\n"),
            png,
            alt,
        })
    }

    /// The live moves, one line each: `3. Ann: put 1 g`.
    pub async fn history(
        self,
        game: GameId,
        viewer: Option<i64>,
        lang: Lang,
    ) -> Result<Vec<String>, ServiceError> {
        self.history_as(game, viewer.map(super::Actor::User), lang)
            .await
    }

    /// [`Records::history`] as `viewer` sees it: a member, or a seat of the local table (its
    /// own private choices shown, everyone else's hidden).
    pub async fn history_as(
        self,
        game: GameId,
        viewer: Option<super::Actor>,
        lang: Lang,
    ) -> Result<Vec<String>, ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status == GameStatus::Lobby {
            return Err(LobbyError::NotStarted(game).into());
        }
        let names = super::text_names(&record);
        let own = viewer.and_then(|v| match v {
            super::Actor::User(u) => record.seats.iter().position(|s| s.user == Some(u)),
            super::Actor::Seat(s) => (s.index() < record.seats.len()).then_some(s.index()),
        });
        let moves = self.core.store.moves(game).await?;
        // Replayed to learn each option's secrecy when taken (a card of a hand, a ballot):
        // those show as "a private choice" to everyone but the seat that took them, until
        // the game reveals them. A log that no longer replays hides every line.
        let secrecy = replay_to(&record, &moves, moves.len())
            .map_or_else(|_| vec![Secrecy::Hand; moves.len()], |(_, s)| s);
        let mut lines: Vec<String> = moves
            .iter()
            .zip(secrecy)
            .enumerate()
            .map(|(i, (m, secrecy))| {
                let shown = if choice_shown(&record, m, secrecy, own) {
                    Text::raw(m.notation.clone())
                } else {
                    Text::new("bot.history_private")
                };
                Text::new("bot.history_line")
                    .arg("n", i + 1)
                    .arg("seat", m.seat)
                    .arg("move", shown)
                    .render_with(lang, &names)
            })
            .collect();
        // Each rollback between the moves it kept and those played after it, latest last.
        let rollbacks = self.core.store.rollbacks(game).await?;
        for r in rollbacks.iter().rev() {
            let at = rollback_place(&moves, r);
            let line = Text::new("bot.history_rollback")
                .arg("turn", r.turn)
                .arg("by", super::output::mention(r.by))
                .arg("count", r.undone)
                .render_with(lang, &names);
            lines.insert(at, line);
        }
        Ok(lines)
    }
}

/// How many live moves came before rollback `r`: those it kept that were played before it
/// (a later rollback may have taken some of them back, and moves played since come after).
/// Live moves are in time order, so these are the first ones.
fn rollback_place(moves: &[MoveRecord], r: &crate::store::RollbackRecord) -> usize {
    moves
        .iter()
        .take(r.keep)
        .take_while(|m| m.at <= r.at)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameKind, GameOptions, GameRng};
    use crate::render::anim::tests::check_decodes_to;

    /// For a seeded random game of every kind, the replay GIF shows each sampled public board
    /// exactly as the one palette maps it (decoded and composed frame by frame): a changed
    /// region left out, a stale one kept or a colour moved beyond the quantiser's error fails.
    #[test]
    fn every_games_replay_gif_shows_each_sampled_board() {
        for &kind in GameKind::ALL {
            let seats = kind.seat_range().1.min(4);
            let start = || kind.setup(&GameOptions::new(), seats, 3).expect("setup");
            let (mut game, mut rng) = (start(), GameRng::seed_from_u64(5));
            let mut log: Vec<(Seat, String)> = Vec::new();
            let mut ends: Vec<usize> = Vec::new();
            while let Some(p) = game.prompt().filter(|_| log.len() < 400) {
                let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                game.apply_notation(p.seat, &pick).expect("applies");
                match ends.last_mut() {
                    Some(e) if log.last().is_some_and(|(s, _)| *s == p.seat) => *e += 1,
                    _ => ends.push(log.len() + 1),
                }
                log.push((p.seat, pick));
            }
            let ctx = RenderCtx {
                lang: Lang::En,
                names: (0..seats).map(|i| format!("Player {}", i + 1)).collect(),
                stopped: false,
                number: Some(7),
            };
            let gif = replay_frames(start(), &log, &ends, &ctx)
                .expect("frames")
                .encode_within(anim::MAX_BYTES)
                .expect("a GIF");
            assert!(
                gif.bytes.len() <= anim::MAX_BYTES,
                "{kind:?}: within the budget"
            );
            // The same boards, sampled and scaled one by one.
            let mut game = start();
            let mut played = 0;
            let mut frames = Vec::new();
            for step in anim::sample_steps(ends.len(), anim::MAX_FRAMES) {
                let upto = if step == 0 { 0 } else { ends[step - 1] };
                for (seat, n) in &log[played..upto] {
                    game.apply_notation(*seat, n).expect("replays");
                }
                played = upto;
                frames.push(anim::frame_of(&game.render_public(&ctx)));
            }
            assert!(frames.len() > 2, "{kind:?}: a game of a few turns at least");
            let kept: Vec<_> = gif.kept.iter().map(|&i| frames[i].clone()).collect();
            check_decodes_to(&gif.bytes, &kept);
        }
    }
}
