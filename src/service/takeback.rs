//! Undo by request (issue 40 item 1): a seated player asks to take back their last turn and
//! everything after it; every other human seat accepts or refuses; bots accept (a request
//! that would take back a reveal is refused before anyone is asked, so a bot never sees one).
//! One request per game stands at a time; it ends with the turn (any move played, or the
//! turn's deadline), and a refused request is not asked again for the same move. Nothing is
//! taken back across a move that revealed something ([`revealed_since`]): what was seen
//! cannot be unseen. Taking back goes through [`Core::take_back_to`], as `undo` does.

use super::*;
use crate::store::{MoveRecord, TakebackRequest};

/// What asking, or answering, did.
#[derive(Debug)]
pub struct Takeback {
    /// The game, its place and names (for the thread's message).
    pub view: LobbyView,
    /// The seat that asked.
    pub asker: Seat,
    /// How many options the request takes back.
    pub count: usize,
    /// The human seats still asked, with their members.
    pub waiting: Vec<(Seat, i64)>,
    /// Everyone agreed (or only bots were asked): the game was taken back.
    pub done: Option<Box<Outputs>>,
}

/// Why a request or an answer was refused (the texts say it to the player).
fn refusal(key: &str) -> ServiceError {
    PlayError::CannotUndo {
        reason: Text::new(format!("core.error.takeback_{key}")),
    }
    .into()
}

/// The first move of `seat`'s last turn: the start of its last run of moves. `None` when
/// the seat has not played.
pub fn last_turn_start(moves: &[MoveRecord], seat: Seat) -> Option<usize> {
    let last = moves.iter().rposition(|m| m.seat == seat)?;
    let mut start = last;
    while start > 0 && moves[start - 1].seat == seat {
        start -= 1;
    }
    Some(start)
}

/// The human seats asked about a request of `asker`'s member: every other human seat, not
/// the asker's member's own other seats, not bots, not open seats.
fn answerers(record: &GameRecord, asker_user: i64) -> Vec<(Seat, i64)> {
    record
        .seats
        .iter()
        .filter(|s| !s.is_bot && !s.vacant)
        .filter_map(|s| s.user.map(|u| (s.seat, u)))
        .filter(|&(_, u)| u != asker_user)
        .collect()
}

impl Moves<'_> {
    /// `user` asks to take back their last turn and everything after it. Refused: not seated,
    /// nothing to take back, a request pending, this move's request refused before, or it
    /// would take back a reveal. With no other human seat, the bots accept at once.
    pub async fn request_takeback(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
        now: i64,
    ) -> Result<Takeback, ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let seat = self.core.seat_of(&loaded, Actor::User(user))?;
        let pending = self.core.store.takeback_request(game).await?;
        if let Some(p) = &pending {
            if p.live(loaded.record.version, now) {
                return Err(refusal("pending"));
            }
        }
        let moves = self.core.store.moves(game).await?;
        let Some(keep) = last_turn_start(&moves, seat) else {
            return Err(refusal("nothing"));
        };
        let from_seq = moves[keep].seq;
        if self.core.store.takeback_refused(game, from_seq).await? {
            return Err(refusal("refused_before"));
        }
        if revealed_since(&moves, keep) {
            return Err(refusal("reveal"));
        }
        let count = moves.len() - keep;
        let waiting = answerers(&loaded.record, user);
        let cap = self.core.store.max_seats(game).await?;
        let view = LobbyView::from_record(loaded.record.clone(), cap);
        if waiting.is_empty() {
            // Only bots to ask: they accept, as nothing hidden came out since.
            let done = self
                .take_back(loaded, &moves, keep, seat, lang, now)
                .await?;
            return Ok(Takeback {
                view,
                asker: seat,
                count,
                waiting,
                done: Some(Box::new(done)),
            });
        }
        let request = TakebackRequest {
            game,
            seat,
            user,
            keep,
            from_seq,
            version: loaded.record.version,
            asked_at: now,
            expires_at: loaded.record.clock.deadline_at,
            accepted: Vec::new(),
        };
        if !self
            .core
            .store
            .ask_takeback(&request, pending.map(|p| p.asked_at))
            .await?
        {
            return Err(refusal("pending"));
        }
        Ok(Takeback {
            view,
            asker: seat,
            count,
            waiting,
            done: None,
        })
    }

    /// `user` answers the pending request of `game`: a refusal ends it (and that move's
    /// request is not asked again); the last acceptance takes the game back.
    pub async fn answer_takeback(
        self,
        game: GameId,
        user: i64,
        accept: bool,
        lang: Lang,
        now: i64,
    ) -> Result<(Takeback, Seat), ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let Some(request) = self.core.store.takeback_request(game).await? else {
            return Err(refusal("none"));
        };
        if !request.live(loaded.record.version, now) {
            self.core
                .store
                .end_takeback(game, request.asked_at, None, now)
                .await?;
            return Err(refusal("expired"));
        }
        let asked = answerers(&loaded.record, request.user);
        let mine: Vec<Seat> = asked
            .iter()
            .filter(|&&(s, u)| u == user && !request.accepted.contains(&s))
            .map(|&(s, _)| s)
            .collect();
        let Some(&answering) = mine.first() else {
            return Err(if asked.iter().any(|&(_, u)| u == user) {
                refusal("answered")
            } else if loaded.record.seats.iter().any(|s| s.user == Some(user)) {
                refusal("not_asked")
            } else {
                ServiceError::NotSeated
            });
        };
        let moves = self.core.store.moves(game).await?;
        let count = moves.len().saturating_sub(request.keep);
        let cap = self.core.store.max_seats(game).await?;
        let view = LobbyView::from_record(loaded.record.clone(), cap);
        let mut answer = Takeback {
            view,
            asker: request.seat,
            count,
            waiting: Vec::new(),
            done: None,
        };
        if !accept {
            if !self
                .core
                .store
                .end_takeback(game, request.asked_at, Some(request.from_seq), now)
                .await?
            {
                return Err(refusal("none"));
            }
            return Ok((answer, answering));
        }
        for &s in &mine {
            if !self
                .core
                .store
                .accept_takeback(game, request.asked_at, s, now)
                .await?
            {
                return Err(refusal("none"));
            }
        }
        answer.waiting = asked
            .into_iter()
            .filter(|(s, _)| !request.accepted.contains(s) && !mine.contains(s))
            .collect();
        if answer.waiting.is_empty() {
            // Everyone agreed: the request ends, then the game goes back (on the version asked
            // about: a move played meanwhile refuses it as stale).
            self.core
                .store
                .end_takeback(game, request.asked_at, None, now)
                .await?;
            let keep = request.keep.min(moves.len());
            let done = self
                .take_back(loaded, &moves, keep, request.seat, lang, now)
                .await?;
            answer.done = Some(Box::new(done));
        }
        Ok((answer, answering))
    }

    /// Takes the game back to `keep` moves for an agreed request of `asker`.
    async fn take_back(
        self,
        loaded: Loaded,
        moves: &[MoveRecord],
        keep: usize,
        asker: Seat,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let count = moves.len() - keep;
        let said = Text::new("core.event.taken_back")
            .arg("seat", asker)
            .arg("count", count);
        self.core
            .take_back_to(loaded, moves, keep, vec![said], lang, now, false)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(seat: u8) -> MoveRecord {
        MoveRecord {
            seq: 0,
            seat: Seat(seat),
            notation: String::new(),
            barrier: false,
            revealed: false,
            at: 0,
        }
    }

    #[test]
    fn the_last_turn_is_the_last_run_of_the_seats_moves() {
        let log = [mv(0), mv(0), mv(1), mv(0), mv(0), mv(1), mv(1)];
        assert_eq!(last_turn_start(&log, Seat(0)), Some(3));
        assert_eq!(last_turn_start(&log, Seat(1)), Some(5));
        assert_eq!(last_turn_start(&log, Seat(2)), None);
        assert_eq!(last_turn_start(&[], Seat(0)), None);
    }
}
