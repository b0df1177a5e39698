//! Take-back requests (issue 40 item 1, migration 0020): the pending request of a game, the
//! seats that accepted it, and the moves whose request was refused.

use super::{get, get_seat, GameId, Seat, Store, StoreError, Version};

/// A seat asks to take back its last turn and everything after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakebackRequest {
    pub game: GameId,
    pub seat: Seat,
    pub user: i64,
    /// How many live moves stay.
    pub keep: usize,
    /// The seq of the first move taken back: a refusal is remembered by it.
    pub from_seq: i64,
    /// The game's version when asked: any move played since ends the request.
    pub version: Version,
    pub asked_at: i64,
    /// The turn's deadline when asked (`None`: no clock ran).
    pub expires_at: Option<i64>,
    /// The seats that accepted so far.
    pub accepted: Vec<Seat>,
}

impl TakebackRequest {
    /// Whether the request still stands for a game at `version`, at `now`.
    pub fn live(&self, version: Version, now: i64) -> bool {
        self.version == version && self.expires_at.is_none_or(|at| now < at)
    }
}

impl Store {
    /// The request stored for `game`, live or not (the service judges), with its acceptances.
    pub async fn takeback_request(
        &self,
        game: GameId,
    ) -> Result<Option<TakebackRequest>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT seat, user_id, keep_moves, from_seq, version, asked_at, expires_at \
             FROM takeback_requests WHERE game = $1",
        )
        .bind(game.0)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let answers =
            sqlx::query("SELECT seat FROM takeback_answers WHERE game = $1 ORDER BY seat")
                .bind(game.0)
                .fetch_all(&self.pool)
                .await?;
        let keep: i64 = get(&row, "keep_moves")?;
        let version: i64 = get(&row, "version")?;
        Ok(Some(TakebackRequest {
            game,
            seat: get_seat(&row, "seat")?,
            user: get(&row, "user_id")?,
            keep: usize::try_from(keep).unwrap_or(0),
            from_seq: get(&row, "from_seq")?,
            version: Version(u32::try_from(version).unwrap_or(0)),
            asked_at: get(&row, "asked_at")?,
            expires_at: get(&row, "expires_at")?,
            accepted: answers
                .iter()
                .map(|r| get_seat(r, "seat"))
                .collect::<Result<_, _>>()?,
        }))
    }

    /// Stores `request` as its game's pending one, replacing one that no longer stands (the
    /// caller checked); false when another request landed first.
    pub async fn ask_takeback(
        &self,
        request: &TakebackRequest,
        replacing: Option<i64>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let game = request.game.0;
        if let Some(asked_at) = replacing {
            sqlx::query("DELETE FROM takeback_requests WHERE game = $1 AND asked_at = $2")
                .bind(game)
                .bind(asked_at)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM takeback_answers WHERE game = $1")
                .bind(game)
                .execute(&mut *tx)
                .await?;
        }
        let done = sqlx::query(
            "INSERT INTO takeback_requests \
             (game, seat, user_id, keep_moves, from_seq, version, asked_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (game) DO NOTHING",
        )
        .bind(game)
        .bind(i64::from(request.seat.0))
        .bind(request.user)
        .bind(i64::try_from(request.keep).unwrap_or(i64::MAX))
        .bind(request.from_seq)
        .bind(i64::from(request.version.0))
        .bind(request.asked_at)
        .bind(request.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// `seat` accepts the pending request of `game` (asked at `asked_at`); false when that
    /// request is gone.
    pub async fn accept_takeback(
        &self,
        game: GameId,
        asked_at: i64,
        seat: Seat,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let still = sqlx::query(
            "UPDATE takeback_requests SET asked_at = asked_at WHERE game = $1 AND asked_at = $2",
        )
        .bind(game.0)
        .bind(asked_at)
        .execute(&mut *tx)
        .await?;
        if still.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO takeback_answers (game, seat, at) VALUES ($1, $2, $3) \
             ON CONFLICT (game, seat) DO NOTHING",
        )
        .bind(game.0)
        .bind(i64::from(seat.0))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Ends the pending request of `game` (asked at `asked_at`): taken back, expired or
    /// refused. A refusal (`refused`) is remembered by the request's first move, which may not
    /// be asked about again. False when that request was already gone.
    pub async fn end_takeback(
        &self,
        game: GameId,
        asked_at: i64,
        refused: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let gone = sqlx::query("DELETE FROM takeback_requests WHERE game = $1 AND asked_at = $2")
            .bind(game.0)
            .bind(asked_at)
            .execute(&mut *tx)
            .await?;
        if gone.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM takeback_answers WHERE game = $1")
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        if let Some(from_seq) = refused {
            sqlx::query(
                "INSERT INTO takeback_refusals (game, from_seq, at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game, from_seq) DO NOTHING",
            )
            .bind(game.0)
            .bind(from_seq)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Whether a request to take back from move `from_seq` of `game` was refused before.
    pub async fn takeback_refused(&self, game: GameId, from_seq: i64) -> Result<bool, StoreError> {
        let row =
            sqlx::query("SELECT 1 AS one FROM takeback_refusals WHERE game = $1 AND from_seq = $2")
                .bind(game.0)
                .bind(from_seq)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }
}
