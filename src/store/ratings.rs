//! Skill ratings: the current rating of each player per game and server, and every change
//! (game, before, after) in the order it was made, so a leaderboard can be rebuilt from them.
//!
//! The store does no rating maths: [`Store::rate_game`] reads the ratings before, inside its
//! transaction, and hands them to the caller's update (the service's, over the `skillratings`
//! crate), then writes what it returns.

use super::{get, get_kind, get_status, GameId, GameKind, GameStatus, Seat, Store, StoreError};

/// Ratings are stored in millionths (BIGINT on both backends).
const SCALE: f64 = 1_000_000.0;

fn to_stored(x: f64) -> i64 {
    // Ratings stay within a few hundred; a non-finite value (never produced) is stored as 0.
    if x.is_finite() {
        (x * SCALE).round() as i64
    } else {
        0
    }
}

fn from_stored(x: i64) -> f64 {
    x as f64 / SCALE
}

/// A rating: the estimate of a player's skill and its uncertainty (Weng-Lin's mu and sigma).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

/// One rated player of a finished game, with the place the rating counts them at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// `u:<user id>`, `bot:<level>` or `puzzle`.
    pub player: String,
    /// The member, for a member.
    pub user: Option<i64>,
    /// The name to show (a member's seat name, kept up to date by each game they finish).
    pub name: String,
    /// The seat they held (`None` for the puzzle).
    pub seat: Option<Seat>,
    /// 1 is best; equal ranks are ties.
    pub rank: i64,
    /// Counted as a win on the leaderboard.
    pub won: bool,
    /// The team rated as one side with them (`None`: they are a side of their own).
    pub team: Option<u8>,
}

/// A player's current rating in one game on one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub kind: GameKind,
    pub player: String,
    pub user: Option<i64>,
    pub name: String,
    pub skill: Skill,
    pub played: i64,
    pub wins: i64,
}

/// One change of one player's rating, by one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The order of changes on the server (all entrants of a game share it).
    pub seq: i64,
    pub game: GameId,
    pub kind: GameKind,
    pub player: String,
    pub seat: Option<Seat>,
    pub rank: i64,
    pub won: bool,
    pub before: Skill,
    pub after: Skill,
    pub at: i64,
}

/// A game a member sat in, for their statistics: no state, only who moved when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatedGame {
    pub game: GameId,
    pub kind: GameKind,
    pub status: GameStatus,
    /// The member's seat.
    pub seat: i64,
    /// (seat, unix seconds) of every move kept, in order.
    pub moves: Vec<(i64, i64)>,
}

/// The server key of a game: its guild, or 0 for a game outside any (the local table).
fn guild_key(guild: Option<i64>) -> i64 {
    guild.unwrap_or(0)
}

fn row_to_rating(row: &sqlx::any::AnyRow) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        kind: get_kind(row, "kind")?,
        player: get(row, "player")?,
        user: get(row, "user_id")?,
        name: get(row, "name")?,
        skill: Skill {
            mu: from_stored(get(row, "mu")?),
            sigma: from_stored(get(row, "sigma")?),
        },
        played: get(row, "played")?,
        wins: get(row, "wins")?,
    })
}

fn row_to_change(row: &sqlx::any::AnyRow) -> Result<RatingChange, StoreError> {
    let seat: Option<i64> = get(row, "seat")?;
    let seat = match seat {
        Some(s) => Some(
            Seat::try_at(s)
                .ok_or_else(|| StoreError::Corrupt(format!("rating change seat {s}")))?,
        ),
        None => None,
    };
    let won: i64 = get(row, "won")?;
    Ok(RatingChange {
        seq: get(row, "seq")?,
        game: GameId(get(row, "game")?),
        kind: get_kind(row, "kind")?,
        player: get(row, "player")?,
        seat,
        rank: get(row, "final_rank")?,
        won: won != 0,
        before: Skill {
            mu: from_stored(get(row, "mu_before")?),
            sigma: from_stored(get(row, "sigma_before")?),
        },
        after: Skill {
            mu: from_stored(get(row, "mu_after")?),
            sigma: from_stored(get(row, "sigma_after")?),
        },
        at: get(row, "at")?,
    })
}

const RATING_COLUMNS: &str = "kind, player, user_id, name, mu, sigma, played, wins";
const CHANGE_COLUMNS: &str = "seq, game, kind, player, seat, final_rank, won, mu_before, \
     sigma_before, mu_after, sigma_after, at";

impl Store {
    /// The first ended game of a server that the ratings have not looked at yet, in end
    /// order (last change, then id): a finished game, or a running game its host cancelled
    /// alone (a resignation for the ratings: its `resigned_seat` is set).
    pub async fn next_unrated(&self, guild: Option<i64>) -> Result<Option<GameId>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM games WHERE COALESCE(guild, 0) = $1 \
             AND (status = $2 OR (status = $3 AND resigned_seat IS NOT NULL)) \
             AND rated IS NULL AND lesson = 0 ORDER BY updated_at, id LIMIT 1",
        )
        .bind(guild_key(guild))
        .bind(GameStatus::Finished.as_str())
        .bind(GameStatus::Cancelled.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok(GameId(get(&r, "id")?))).transpose()
    }

    /// Marks a finished game as looked at with nothing to rate. False if it was already.
    pub async fn skip_rating(&self, game: GameId) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE games SET rated = 0 WHERE id = $1 AND rated IS NULL")
            .bind(game.0)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Rates ended game `game` once: in one transaction, claims the game (false if it was
    /// rated already, or is neither finished nor cancelled by its host alone), takes the server's rating lock, reads each entrant's
    /// rating (`start` for a newcomer), asks `update` for the new ones (same order) and writes
    /// them with one change row each.
    #[allow(clippy::too_many_arguments)]
    pub async fn rate_game(
        &self,
        game: GameId,
        guild: Option<i64>,
        kind: GameKind,
        entrants: &[Entrant],
        start: Skill,
        now: i64,
        update: impl FnOnce(&[Skill]) -> Vec<Skill>,
    ) -> Result<bool, StoreError> {
        let guild = guild_key(guild);
        let mut tx = self.pool.begin().await?;
        let claimed = sqlx::query(
            "UPDATE games SET rated = 1 WHERE id = $1 AND rated IS NULL \
             AND (status = $2 OR (status = $3 AND resigned_seat IS NOT NULL))",
        )
        .bind(game.0)
        .bind(GameStatus::Finished.as_str())
        .bind(GameStatus::Cancelled.as_str())
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO rating_heads (guild, seq) VALUES ($1, 0) ON CONFLICT (guild) DO NOTHING",
        )
        .bind(guild)
        .execute(&mut *tx)
        .await?;
        let head =
            sqlx::query("UPDATE rating_heads SET seq = seq + 1 WHERE guild = $1 RETURNING seq")
                .bind(guild)
                .fetch_one(&mut *tx)
                .await?;
        let seq: i64 = get(&head, "seq")?;
        let mut before = Vec::with_capacity(entrants.len());
        for e in entrants {
            sqlx::query(
                "INSERT INTO ratings (guild, kind, player, user_id, name, mu, sigma, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (guild, kind, player) DO NOTHING",
            )
            .bind(guild)
            .bind(kind.id())
            .bind(&e.player)
            .bind(e.user)
            .bind(&e.name)
            .bind(to_stored(start.mu))
            .bind(to_stored(start.sigma))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let row = sqlx::query(
                "SELECT mu, sigma FROM ratings WHERE guild = $1 AND kind = $2 AND player = $3",
            )
            .bind(guild)
            .bind(kind.id())
            .bind(&e.player)
            .fetch_one(&mut *tx)
            .await?;
            before.push(Skill {
                mu: from_stored(get(&row, "mu")?),
                sigma: from_stored(get(&row, "sigma")?),
            });
        }
        let after = update(&before);
        if after.len() != entrants.len() {
            tx.rollback().await?;
            return Err(StoreError::Invalid(format!(
                "{} ratings for {} players",
                after.len(),
                entrants.len()
            )));
        }
        for ((e, b), a) in entrants.iter().zip(&before).zip(&after) {
            sqlx::query(
                "UPDATE ratings SET mu = $1, sigma = $2, played = played + 1, \
                 wins = wins + $3, name = $4, updated_at = $5 \
                 WHERE guild = $6 AND kind = $7 AND player = $8",
            )
            .bind(to_stored(a.mu))
            .bind(to_stored(a.sigma))
            .bind(i64::from(e.won))
            .bind(&e.name)
            .bind(now)
            .bind(guild)
            .bind(kind.id())
            .bind(&e.player)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_changes (guild, seq, game, kind, player, seat, final_rank, \
                 won, mu_before, sigma_before, mu_after, sigma_after, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(guild)
            .bind(seq)
            .bind(game.0)
            .bind(kind.id())
            .bind(&e.player)
            .bind(e.seat.map(|s| i64::from(s.0)))
            .bind(e.rank)
            .bind(i64::from(e.won))
            .bind(to_stored(b.mu))
            .bind(to_stored(b.sigma))
            .bind(to_stored(a.mu))
            .bind(to_stored(a.sigma))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Every rating of one game on a server (in no particular order).
    pub async fn ratings_of_kind(
        &self,
        guild: Option<i64>,
        kind: GameKind,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE guild = $1 AND kind = $2"
        )))
        .bind(guild_key(guild))
        .bind(kind.id())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_to_rating).collect()
    }

    /// Every rating of one player on a server, one per game they were rated in.
    pub async fn ratings_of_player(
        &self,
        guild: Option<i64>,
        player: &str,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE guild = $1 AND player = $2 ORDER BY kind"
        )))
        .bind(guild_key(guild))
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_to_rating).collect()
    }

    /// One player's rating changes on a server, in the order made (their rating history).
    pub async fn rating_changes_of_player(
        &self,
        guild: Option<i64>,
        player: &str,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE guild = $1 AND player = $2 ORDER BY seq"
        )))
        .bind(guild_key(guild))
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_to_change).collect()
    }

    /// The games a member sat in on a server (the last `limit` started), each with its kind,
    /// status, the member's seat and every move kept (not undone) in order: what their
    /// favourite games and turn speed are counted from.
    pub async fn seated_games_with_moves(
        &self,
        guild: Option<i64>,
        user: i64,
        limit: i64,
    ) -> Result<Vec<SeatedGame>, StoreError> {
        let games = sqlx::query(
            "SELECT g.id, g.kind, g.status, s.seat FROM games g JOIN seats s ON s.game = g.id \
             WHERE s.user_id = $1 AND COALESCE(g.guild, 0) = $2 AND g.status <> $3 \
             AND g.lesson = 0 ORDER BY g.id DESC LIMIT $4",
        )
        .bind(user)
        .bind(guild_key(guild))
        .bind(GameStatus::Lobby.as_str())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(games.len());
        for row in &games {
            out.push(SeatedGame {
                game: GameId(get(row, "id")?),
                kind: get_kind(row, "kind")?,
                status: get_status(row, "status")?,
                seat: get(row, "seat")?,
                moves: Vec::new(),
            });
        }
        let Some(oldest) = out.iter().map(|g| g.game.0).min() else {
            return Ok(out);
        };
        // Every move of those games in one query (not one per game).
        let moves = sqlx::query(
            "SELECT game, seat, at FROM moves WHERE undone_at IS NULL AND game >= $2 \
             AND game IN (SELECT game FROM seats WHERE user_id = $1) ORDER BY game, seq",
        )
        .bind(user)
        .bind(oldest)
        .fetch_all(&self.pool)
        .await?;
        let index: std::collections::HashMap<i64, usize> =
            out.iter().enumerate().map(|(i, g)| (g.game.0, i)).collect();
        for m in &moves {
            if let Some(&i) = index.get(&get::<i64>(m, "game")?) {
                out[i].moves.push((get(m, "seat")?, get(m, "at")?));
            }
        }
        Ok(out)
    }

    /// The changes one game made (empty until it is rated), in entrant order.
    pub async fn rating_changes_of_game(
        &self,
        game: GameId,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game = $1 ORDER BY COALESCE(seat, 999), player"
        )))
        .bind(game.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_to_change).collect()
    }

    /// Every change on a server, in the order they were made: the history a leaderboard can
    /// be rebuilt from.
    pub async fn rating_history(
        &self,
        guild: Option<i64>,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE guild = $1 ORDER BY seq, COALESCE(seat, 999), player"
        )))
        .bind(guild_key(guild))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_to_change).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millionths_round_trip() {
        for x in [25.0, 25.0 / 3.0, -3.25, 41.083_333] {
            assert!((from_stored(to_stored(x)) - x).abs() < 1e-6, "{x}");
        }
        assert_eq!(to_stored(f64::NAN), 0);
    }
}
