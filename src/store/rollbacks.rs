//! A moderator's rollback (issue 40 item 6): the rollback waiting for the players'
//! confirmation (one per game), their confirmations, and the rollbacks done, which `/history`
//! shows. Taking the moves back is the undo's (`Store::undo_moves`).

use super::{
    bool_i64, get, get_bool, get_version, version_i64, GameId, Store, StoreError, Version,
};

/// A rollback asked for, waiting for every seated member's confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollbackRequest {
    pub game: GameId,
    /// The game's version when it was asked: a move played since lapses it.
    pub version: Version,
    /// How many live moves the game keeps.
    pub keep: usize,
    /// The turn it goes back to (1 is the first).
    pub turn: usize,
    /// How many live moves it takes back.
    pub undone: usize,
    /// Whether it takes back a move that revealed something (a card drawn, a vote shown).
    pub revealed: bool,
    pub asked_by: i64,
    pub by_moderator: bool,
    pub asked_at: i64,
    pub expires_at: i64,
}

impl RollbackRequest {
    /// Whether the request still stands for a game at `version`, at `now`.
    pub fn live(&self, version: Version, now: i64) -> bool {
        self.version == version && now < self.expires_at
    }
}

/// A rollback done, as `/history` tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollbackRecord {
    pub turn: usize,
    pub keep: usize,
    pub undone: usize,
    pub revealed: bool,
    pub by: i64,
    pub at: i64,
}

fn count(n: usize, what: &str) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Invalid(format!("{what} = {n}")))
}

fn get_count(row: &sqlx::any::AnyRow, col: &str) -> Result<usize, StoreError> {
    let n: i64 = get(row, col)?;
    usize::try_from(n).map_err(|_| StoreError::Corrupt(format!("{col} = {n} is not a count")))
}

/// Deletes the game's pending rollback and its confirmations; true when there was one.
async fn forget_request(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: GameId,
) -> Result<bool, StoreError> {
    let gone = sqlx::query("DELETE FROM rollback_requests WHERE game = $1")
        .bind(game.0)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM rollback_votes WHERE game = $1")
        .bind(game.0)
        .execute(&mut **tx)
        .await?;
    Ok(gone.rows_affected() > 0)
}

impl Store {
    /// Stores `request` as its game's pending rollback, with `first` (the asker, when seated)
    /// as its first confirmation. A pending request still standing (not expired at
    /// `request.asked_at`, asked on the same version) is kept, and this one refused: false.
    pub async fn ask_rollback(
        &self,
        request: &RollbackRequest,
        first: Option<i64>,
    ) -> Result<bool, StoreError> {
        let game = request.game.0;
        let mut tx = self.pool.begin().await?;
        // A lapsed request makes way; its confirmations go with it.
        let lapsed = sqlx::query(
            "DELETE FROM rollback_requests WHERE game = $1 AND (expires_at <= $2 OR version <> $3)",
        )
        .bind(game)
        .bind(request.asked_at)
        .bind(version_i64(request.version))
        .execute(&mut *tx)
        .await?;
        if lapsed.rows_affected() > 0 {
            forget_request(&mut tx, request.game).await?;
        }
        let added = sqlx::query(
            "INSERT INTO rollback_requests (game, version, keep, turn, undone, revealed, \
             asked_by, by_moderator, asked_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (game) DO NOTHING",
        )
        .bind(game)
        .bind(version_i64(request.version))
        .bind(count(request.keep, "keep")?)
        .bind(count(request.turn, "turn")?)
        .bind(count(request.undone, "undone")?)
        .bind(bool_i64(request.revealed))
        .bind(request.asked_by)
        .bind(bool_i64(request.by_moderator))
        .bind(request.asked_at)
        .bind(request.expires_at)
        .execute(&mut *tx)
        .await?;
        if added.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(user) = first {
            sqlx::query("INSERT INTO rollback_votes (game, user_id, at) VALUES ($1, $2, $3)")
                .bind(game)
                .bind(user)
                .bind(request.asked_at)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The game's pending rollback, if one is stored (lapsed or not: the service judges).
    pub async fn rollback_request(
        &self,
        game: GameId,
    ) -> Result<Option<RollbackRequest>, StoreError> {
        let row = sqlx::query(
            "SELECT version, keep, turn, undone, revealed, asked_by, by_moderator, asked_at, \
             expires_at FROM rollback_requests WHERE game = $1",
        )
        .bind(game.0)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(RollbackRequest {
                game,
                version: get_version(&row, "version")?,
                keep: get_count(&row, "keep")?,
                turn: get_count(&row, "turn")?,
                undone: get_count(&row, "undone")?,
                revealed: get_bool(&row, "revealed")?,
                asked_by: get(&row, "asked_by")?,
                by_moderator: get_bool(&row, "by_moderator")?,
                asked_at: get(&row, "asked_at")?,
                expires_at: get(&row, "expires_at")?,
            })
        })
        .transpose()
    }

    /// Records `user`'s confirmation of the game's pending rollback (again: no change).
    pub async fn confirm_rollback(
        &self,
        game: GameId,
        user: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO rollback_votes (game, user_id, at) VALUES ($1, $2, $3) \
             ON CONFLICT (game, user_id) DO NOTHING",
        )
        .bind(game.0)
        .bind(user)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The members who confirmed the game's pending rollback.
    pub async fn rollback_votes(&self, game: GameId) -> Result<Vec<i64>, StoreError> {
        let rows =
            sqlx::query("SELECT user_id FROM rollback_votes WHERE game = $1 ORDER BY user_id")
                .bind(game.0)
                .fetch_all(&self.pool)
                .await?;
        rows.iter().map(|r| get(r, "user_id")).collect()
    }

    /// Forgets the game's pending rollback and its confirmations (refused, lapsed or done).
    /// True when there was one.
    pub async fn drop_rollback_request(&self, game: GameId) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let gone = forget_request(&mut tx, game).await?;
        tx.commit().await?;
        Ok(gone)
    }

    /// Records a rollback done (for `/history`) and forgets the game's pending one.
    pub async fn record_rollback(
        &self,
        game: GameId,
        done: &RollbackRecord,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO rollbacks (game, turn, keep, undone, revealed, by_user, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game.0)
        .bind(count(done.turn, "turn")?)
        .bind(count(done.keep, "keep")?)
        .bind(count(done.undone, "undone")?)
        .bind(bool_i64(done.revealed))
        .bind(done.by)
        .bind(done.at)
        .execute(&mut *tx)
        .await?;
        forget_request(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The rollbacks done in `game`, oldest first.
    pub async fn rollbacks(&self, game: GameId) -> Result<Vec<RollbackRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT turn, keep, undone, revealed, by_user, at FROM rollbacks \
             WHERE game = $1 ORDER BY at, keep",
        )
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RollbackRecord {
                    turn: get_count(row, "turn")?,
                    keep: get_count(row, "keep")?,
                    undone: get_count(row, "undone")?,
                    revealed: get_bool(row, "revealed")?,
                    by: get(row, "by_user")?,
                    at: get(row, "at")?,
                })
            })
            .collect()
    }
}
