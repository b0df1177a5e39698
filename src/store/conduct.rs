//! A member's conduct at the table (issue 40, item 3): the events their reliability is read
//! from, written in the transaction of the change that made them, and their counts over a
//! span of days. Bots are never counted: only seats held by a member (`user_id`, not a bot).

use sqlx::AnyConnection;

use super::{get, GameId, Seat, Store, StoreError};

/// What a member did, as stored in `conduct.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deed {
    /// Their own move handed the turn on (a deadline met).
    Met,
    /// Their deadline passed; the clock played or skipped for them.
    Missed,
    /// They left a running game: resigned, cancelled alone as a resignation, or their seat was
    /// taken from them or given away.
    Abandoned,
    /// A game they held a seat in ended normally.
    Finished,
}

impl Deed {
    pub fn as_str(self) -> &'static str {
        match self {
            Deed::Met => "met",
            Deed::Missed => "missed",
            Deed::Abandoned => "abandoned",
            Deed::Finished => "finished",
        }
    }
}

/// A member's counts over a span of days.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conduct {
    pub met: i64,
    pub missed: i64,
    pub abandoned: i64,
    pub finished: i64,
}

/// Notes `deed` for the member holding `seat` of `game` now, if a member holds it.
pub(super) async fn note_seat(
    tx: &mut AnyConnection,
    game: GameId,
    seat: Seat,
    deed: Deed,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO conduct (member, game, kind, at) SELECT user_id, game, $1, $2 FROM seats \
         WHERE game = $3 AND seat = $4 AND user_id IS NOT NULL AND is_bot = 0",
    )
    .bind(deed.as_str())
    .bind(at)
    .bind(game.0)
    .bind(i64::from(seat.0))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Notes a finished game for every member seated in it, but the seat that resigned.
pub(super) async fn note_finished(
    tx: &mut AnyConnection,
    game: GameId,
    resigned: Option<Seat>,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO conduct (member, game, kind, at) SELECT user_id, game, $1, $2 FROM seats \
         WHERE game = $3 AND seat <> $4 AND user_id IS NOT NULL AND is_bot = 0 AND vacant = 0",
    )
    .bind(Deed::Finished.as_str())
    .bind(at)
    .bind(game.0)
    .bind(resigned.map_or(-1, |s| i64::from(s.0)))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Notes that the member holding `seat` leaves it for `newcomer` (a member, or `None`: a bot
/// or an open seat), unless they keep it.
pub(super) async fn note_leaving(
    tx: &mut AnyConnection,
    game: GameId,
    seat: Seat,
    newcomer: Option<i64>,
    at: i64,
) -> Result<(), StoreError> {
    let row = sqlx::query("SELECT user_id, is_bot FROM seats WHERE game = $1 AND seat = $2")
        .bind(game.0)
        .bind(i64::from(seat.0))
        .fetch_optional(&mut *tx)
        .await?;
    let Some(row) = row else { return Ok(()) };
    let holder: Option<i64> = get(&row, "user_id")?;
    let is_bot: i64 = get(&row, "is_bot")?;
    if holder.is_some() && is_bot == 0 && holder != newcomer {
        note_seat(tx, game, seat, Deed::Abandoned, at).await?;
    }
    Ok(())
}

impl Store {
    /// `member`'s counts since `since` (unix seconds).
    pub async fn conduct(&self, member: i64, since: i64) -> Result<Conduct, StoreError> {
        let rows = sqlx::query(
            // A lesson (`/learn`) never counts: left or finished, it is no game played.
            "SELECT kind, COUNT(*) AS n FROM conduct WHERE member = $1 AND at >= $2 \
             AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = conduct.game AND g.lesson <> 0) \
             GROUP BY kind",
        )
        .bind(member)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        let mut c = Conduct::default();
        for row in &rows {
            let kind: String = get(row, "kind")?;
            let n: i64 = get(row, "n")?;
            match kind.as_str() {
                "met" => c.met = n,
                "missed" => c.missed = n,
                "abandoned" => c.abandoned = n,
                "finished" => c.finished = n,
                other => {
                    return Err(StoreError::Corrupt(format!(
                        "conduct of {member}: unknown kind `{other}`"
                    )))
                }
            }
        }
        Ok(c)
    }

    /// Sets the lowest reliability a member needs to join the lobby (`None`: anyone).
    pub async fn set_min_reliable(&self, game: GameId, min: Option<u8>) -> Result<(), StoreError> {
        self.set_game_column(game, "min_reliable", min.map(i64::from))
            .await
    }
}
