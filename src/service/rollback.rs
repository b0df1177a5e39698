//! A moderator's rollback (issue 40 item 6): `/rollback game:N to:<turn>` takes a running
//! game back to the start of one of its turns, rebuilt from its seed and the moves before it
//! (the log is the truth, as for a replay), with each hand as it was and the turn's clock
//! started again. The moves taken back stay in the log, marked undone, and the rollback is
//! recorded for `/history`.
//!
//! Who may: a moderator who holds no seat in the game does it at once; the host, or a
//! moderator who plays in it, asks, and it is done once every seated member confirmed (one
//! request per game, lapsing after [`ROLLBACK_ASK_SECS`] or as soon as a move is played). A
//! rollback that would take back a move that revealed something (a card drawn, a vote shown)
//! always needs every seated member's confirmation, whoever asks: the players have seen what
//! comes next, and the game, rebuilt from the same seed, deals the same again.

use super::core::Core;
use super::lobby::seated_members;
use super::output::mention;
use super::{revealed_since, turn_bounds, LobbyView, Outputs, ServiceError, Version};
use crate::engine::{GameId, Seat};
use crate::i18n::Text;
use crate::store::{GameRecord, GameStatus, MoveRecord, RollbackRecord, RollbackRequest};

/// How long a rollback waits for the players' confirmations.
pub const ROLLBACK_ASK_SECS: i64 = 24 * 3600;

/// Why a rollback was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RollbackError {
    #[error("game {0} has no move to take back")]
    NothingPlayed(GameId),
    #[error("game {game} has turns 1 to {turns}, not {to}")]
    NoSuchTurn {
        game: GameId,
        to: usize,
        turns: usize,
    },
    #[error("only a moderator, or the host with every player's confirmation, may roll back")]
    NotModerator(GameId),
    #[error("a rollback of game {game} to turn {turn} is waiting for confirmations")]
    Pending { game: GameId, turn: usize },
    #[error("no rollback of game {0} waits for an answer")]
    NoRequest(GameId),
    #[error("the rollback of game {0} lapsed")]
    Lapsed(GameId),
    #[error("only the players seated in game {0} answer its rollback")]
    NotAsked(GameId),
}

impl RollbackError {
    pub fn text(&self) -> Text {
        match self {
            RollbackError::NothingPlayed(g) => {
                Text::new("bot.rollback.error.nothing").arg("id", g.0)
            }
            RollbackError::NoSuchTurn { game, to, turns } => {
                Text::new("bot.rollback.error.no_turn")
                    .arg("id", game.0)
                    .arg("to", *to)
                    .arg("turns", *turns)
            }
            RollbackError::NotModerator(g) => {
                Text::new("bot.rollback.error.not_moderator").arg("id", g.0)
            }
            RollbackError::Pending { game, turn } => Text::new("bot.rollback.error.pending")
                .arg("id", game.0)
                .arg("turn", *turn),
            RollbackError::NoRequest(g) => {
                Text::new("bot.rollback.error.no_request").arg("id", g.0)
            }
            RollbackError::Lapsed(g) => Text::new("bot.rollback.error.lapsed").arg("id", g.0),
            RollbackError::NotAsked(g) => Text::new("bot.rollback.error.not_asked").arg("id", g.0),
        }
    }
}

/// One turn of a game, as `to:` offers it: its number, who played it, how many options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnChoice {
    pub number: usize,
    pub seat: Seat,
    pub moves: usize,
}

/// A rollback done: the outputs to post (the board as it was, every hand again), what it
/// undid and who did it.
#[derive(Debug)]
pub struct RolledBack {
    pub outputs: Outputs,
    pub turn: usize,
    pub undone: usize,
    pub revealed: bool,
    pub by: i64,
}

/// A rollback waiting for confirmations (or just refused by a player), as the thread is told.
#[derive(Clone, Debug)]
pub struct RollbackWait {
    pub view: LobbyView,
    /// The version and kept moves the confirmation buttons name.
    pub version: Version,
    pub keep: usize,
    pub turn: usize,
    pub undone: usize,
    pub revealed: bool,
    pub asked_by: i64,
    pub agreed: usize,
    pub of: usize,
    pub waiting: Vec<i64>,
}

/// What a `/rollback` or a player's answer came to.
#[derive(Debug)]
pub enum RollbackStep {
    Done(Box<RolledBack>),
    /// Stored, or confirmed by one more player: still waiting for the others.
    Waiting(RollbackWait),
    /// A player refused: the request is gone.
    Refused {
        wait: RollbackWait,
        by: i64,
    },
}

/// See [`super::Service::rollbacks`].
#[derive(Clone, Copy)]
pub struct Rollbacks<'a> {
    pub(super) core: &'a Core,
}

impl Rollbacks<'_> {
    /// The turns of a running game, last first (for `to:`'s autocomplete), with the seat
    /// names. Nothing hidden: who played and how many options, as the board showed.
    pub async fn turns(self, game: GameId) -> Result<(Vec<TurnChoice>, Vec<String>), ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status != GameStatus::Active {
            return Ok((Vec::new(), Vec::new()));
        }
        let moves = self.core.store.moves(game).await?;
        let turns = turn_bounds(&moves)
            .into_iter()
            .enumerate()
            .rev()
            .map(|(i, (start, end))| TurnChoice {
                number: i + 1,
                seat: moves[start].seat,
                moves: end - start,
            })
            .collect();
        Ok((turns, super::text_names(&record)))
    }

    /// `/rollback game:N to:<turn>` by `user`: done at once by a moderator who holds no seat
    /// (unless it would take back a reveal), else asked of every seated member.
    pub async fn rollback(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        to: usize,
        now: i64,
    ) -> Result<RollbackStep, ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        let humans = seated_members(&record);
        let seated = humans.contains(&user);
        if !is_moderator && record.host != Some(user) {
            return Err(RollbackError::NotModerator(game).into());
        }
        let moves = self.core.store.moves(game).await?;
        let (keep, turn) = target(game, &moves, to)?;
        if let Some(pending) = self.standing(&record, now).await? {
            return Err(RollbackError::Pending {
                game,
                turn: pending.turn,
            }
            .into());
        }
        let revealed = revealed_since(&moves, keep);
        let request = RollbackRequest {
            game,
            version: record.version,
            keep,
            turn,
            undone: moves.len() - keep,
            revealed,
            asked_by: user,
            by_moderator: is_moderator,
            asked_at: now,
            expires_at: now.saturating_add(ROLLBACK_ASK_SECS),
        };
        let others = humans.iter().filter(|h| **h != user).count();
        let alone = is_moderator && !seated && !revealed;
        if alone || others == 0 {
            return Ok(RollbackStep::Done(Box::new(
                self.take_back(record, &request, now).await?,
            )));
        }
        if !self
            .core
            .store
            .ask_rollback(&request, seated.then_some(user))
            .await?
        {
            // Another request was stored meanwhile.
            let turn = self
                .core
                .store
                .rollback_request(game)
                .await?
                .map_or(turn, |r| r.turn);
            return Err(RollbackError::Pending { game, turn }.into());
        }
        Ok(RollbackStep::Waiting(
            self.wait(record, &request, &humans).await?,
        ))
    }

    /// A seated member answers the game's pending rollback (the one asked on `version`,
    /// keeping `keep` moves): a refusal drops it; the last confirmation does it.
    pub async fn answer(
        self,
        game: GameId,
        version: Version,
        keep: usize,
        user: i64,
        yes: bool,
        now: i64,
    ) -> Result<RollbackStep, ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        let request = self
            .core
            .store
            .rollback_request(game)
            .await?
            .filter(|r| r.version == version && r.keep == keep)
            .ok_or(RollbackError::NoRequest(game))?;
        if !request.live(record.version, now) {
            self.core.store.drop_rollback_request(game).await?;
            return Err(RollbackError::Lapsed(game).into());
        }
        let humans = seated_members(&record);
        if !humans.contains(&user) {
            return Err(RollbackError::NotAsked(game).into());
        }
        if !yes {
            let wait = self.wait(record, &request, &humans).await?;
            self.core.store.drop_rollback_request(game).await?;
            return Ok(RollbackStep::Refused { wait, by: user });
        }
        self.core.store.confirm_rollback(game, user, now).await?;
        let wait = self.wait(record.clone(), &request, &humans).await?;
        if !wait.waiting.is_empty() {
            return Ok(RollbackStep::Waiting(wait));
        }
        Ok(RollbackStep::Done(Box::new(
            self.take_back(record, &request, now).await?,
        )))
    }

    /// The game's pending request, if it still stands at `now` (a lapsed one is dropped).
    async fn standing(
        self,
        record: &GameRecord,
        now: i64,
    ) -> Result<Option<RollbackRequest>, ServiceError> {
        let Some(request) = self.core.store.rollback_request(record.id).await? else {
            return Ok(None);
        };
        if !request.live(record.version, now) {
            self.core.store.drop_rollback_request(record.id).await?;
            return Ok(None);
        }
        Ok(Some(request))
    }

    /// Who confirmed `request` and who is still asked.
    async fn wait(
        self,
        record: GameRecord,
        request: &RollbackRequest,
        humans: &[i64],
    ) -> Result<RollbackWait, ServiceError> {
        let votes = self.core.store.rollback_votes(record.id).await?;
        let agreed = humans.iter().filter(|h| votes.contains(h)).count();
        let waiting = humans
            .iter()
            .copied()
            .filter(|h| !votes.contains(h))
            .collect();
        let cap = self.core.store.max_seats(record.id).await?;
        Ok(RollbackWait {
            view: LobbyView::from_record(record, cap),
            version: request.version,
            keep: request.keep,
            turn: request.turn,
            undone: request.undone,
            revealed: request.revealed,
            asked_by: request.asked_by,
            agreed,
            of: humans.len(),
            waiting,
        })
    }

    /// Takes the game back to its first `request.keep` moves (the take-back every undo
    /// shares, afresh: the turn's clock starts again and every hand is sent as it now is,
    /// even one that did not change); and records it for `/history`.
    async fn take_back(
        self,
        record: GameRecord,
        request: &RollbackRequest,
        now: i64,
    ) -> Result<RolledBack, ServiceError> {
        let game = record.id;
        let loaded = self.core.load_active(game, Some(request.version)).await?;
        let moves = self.core.store.moves(game).await?;
        let lang = super::core::game_lang(&loaded.record);
        let mut said = vec![Text::new("bot.rollback.done")
            .arg("by", mention(request.asked_by))
            .arg("turn", request.turn)
            .arg("count", request.undone)];
        if request.revealed {
            said.push(Text::new("bot.rollback.done_revealed"));
        }
        let outputs = self
            .core
            .take_back_to(loaded, &moves, request.keep, said, lang, now, true)
            .await?;
        self.core
            .store
            .record_rollback(
                game,
                &RollbackRecord {
                    turn: request.turn,
                    keep: request.keep,
                    undone: request.undone,
                    revealed: request.revealed,
                    by: request.asked_by,
                    at: now,
                },
            )
            .await?;
        Ok(RolledBack {
            outputs,
            turn: request.turn,
            undone: request.undone,
            revealed: request.revealed,
            by: request.asked_by,
        })
    }
}

/// The moves kept and the turn asked, for `to` (1 is the first turn), or why not.
fn target(game: GameId, moves: &[MoveRecord], to: usize) -> Result<(usize, usize), RollbackError> {
    let turns = turn_bounds(moves);
    if turns.is_empty() {
        return Err(RollbackError::NothingPlayed(game));
    }
    let (keep, _) = to
        .checked_sub(1)
        .and_then(|i| turns.get(i))
        .copied()
        .ok_or(RollbackError::NoSuchTurn {
            game,
            to,
            turns: turns.len(),
        })?;
    Ok((keep, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(seats: &[u8], barriers: &[usize]) -> Vec<MoveRecord> {
        seats
            .iter()
            .enumerate()
            .map(|(i, s)| MoveRecord {
                seq: i64::try_from(i).unwrap() + 1,
                seat: Seat(*s),
                notation: format!("m{i}"),
                barrier: barriers.contains(&i),
                revealed: barriers.contains(&i),
                at: 0,
            })
            .collect()
    }

    #[test]
    fn turns_are_counted_as_replay_counts_them() {
        let g = GameId(1);
        let moves = log(&[0, 0, 1, 0, 1, 1], &[]);
        assert_eq!(target(g, &moves, 1), Ok((0, 1)));
        assert_eq!(target(g, &moves, 2), Ok((2, 2)));
        assert_eq!(target(g, &moves, 4), Ok((4, 4)));
        for to in [0, 5, usize::MAX] {
            assert_eq!(
                target(g, &moves, to),
                Err(RollbackError::NoSuchTurn {
                    game: g,
                    to,
                    turns: 4
                })
            );
        }
        assert_eq!(target(g, &[], 1), Err(RollbackError::NothingPlayed(g)));
    }
}
