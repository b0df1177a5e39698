//! Asynchronous play: a game's clock and its jobs (written together, in the transaction of the
//! change that made them), seats handed over when a player is absent, fenced job completion,
//! per-user jobs (the digest) and the figures of `/stats`.
//!
//! # Why a clock revision
//! Every change of a game's running clock (a new turn, pause, resume, extend, a vacation, an
//! open seat) writes `clock_rev + 1`, guarded by the revision it was computed from, and
//! replaces the game's jobs. A job carries the revision it was planned for, so a job claimed
//! just before its game moved on sees another revision and does nothing. Moves within one turn
//! do not touch the clock, so a pause never makes the board's buttons stale.

use sqlx::AnyConnection;

use super::{
    bool_i64, get, get_kind, DmStatus, GameId, GameKind, JobKind, NewJob, Seat, Store, StoreError,
    TurnClock,
};

/// A seat handed to someone else (or opened) with a clock change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    pub seat: Seat,
    pub user: Option<i64>,
    pub name: String,
    pub is_bot: bool,
    /// Open: waits for `/replace`.
    pub vacant: bool,
}

/// Whether a seat's player showed up for a turn: a missed deadline counts one more timeout,
/// a move of their own clears the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attendance {
    Missed,
    Played,
}

/// A game's new clock, the jobs that replace all of its jobs, and seat changes, applied
/// together if the clock is still at revision `from_rev`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnPlan {
    pub from_rev: i64,
    /// Its `rev` is the new revision (normally `from_rev + 1`).
    pub clock: TurnClock,
    pub jobs: Vec<NewJob>,
    pub seats: Vec<SeatChange>,
    pub attendance: Vec<(Seat, Attendance)>,
}

/// One game kind's figures in a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStats {
    pub kind: GameKind,
    /// Games that ended (finished, not cancelled).
    pub finished: i64,
    /// Of those, casual games (they moved no rating).
    pub casual: i64,
    /// Changes of turn measured, and their average length in seconds.
    pub turns: i64,
    pub avg_turn_secs: Option<i64>,
}

/// Writes `plan` inside `tx`. False (nothing written) if the clock is not at `from_rev`.
pub(super) async fn apply_plan(
    tx: &mut AnyConnection,
    id: GameId,
    plan: &TurnPlan,
    at: i64,
) -> Result<bool, StoreError> {
    let c = &plan.clock;
    let done = sqlx::query(
        "UPDATE games SET clock_rev = $1, turn_seat = $2, turn_started_at = $3, \
         deadline_at = $4, paused_left = $5 WHERE id = $6 AND clock_rev = $7",
    )
    .bind(c.rev)
    .bind(c.seat.map(|s| i64::from(s.0)))
    .bind(c.started_at)
    .bind(c.deadline_at)
    .bind(c.paused_left)
    .bind(id.0)
    .bind(plan.from_rev)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM jobs WHERE game = $1")
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
    for job in &plan.jobs {
        insert_job(&mut *tx, job).await?;
    }
    for s in &plan.seats {
        // The member who held it leaves a running game (their record says so).
        super::conduct::note_leaving(&mut *tx, id, s.seat, s.user.filter(|_| !s.is_bot), at)
            .await?;
        // A new holder starts with a clean record.
        let done = sqlx::query(
            "UPDATE seats SET user_id = $1, name = $2, is_bot = $3, vacant = $4, dm_status = $5, \
             timeouts = 0 WHERE game = $6 AND seat = $7",
        )
        .bind(s.user)
        .bind(&s.name)
        .bind(bool_i64(s.is_bot))
        .bind(bool_i64(s.vacant))
        .bind(DmStatus::Unknown.as_str())
        .bind(id.0)
        .bind(i64::from(s.seat.0))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Invalid(format!("game {id} has no {}", s.seat)));
        }
    }
    for (seat, attendance) in &plan.attendance {
        let deed = match attendance {
            Attendance::Missed => super::conduct::Deed::Missed,
            Attendance::Played => super::conduct::Deed::Met,
        };
        super::conduct::note_seat(&mut *tx, id, *seat, deed, at).await?;
        let sql = match attendance {
            Attendance::Missed => {
                "UPDATE seats SET timeouts = timeouts + 1 WHERE game = $1 AND seat = $2"
            }
            Attendance::Played => {
                "UPDATE seats SET timeouts = 0 WHERE game = $1 AND seat = $2 AND timeouts > 0"
            }
        };
        sqlx::query(sql)
            .bind(id.0)
            .bind(i64::from(seat.0))
            .execute(&mut *tx)
            .await?;
    }
    Ok(true)
}

pub(super) async fn insert_job(tx: &mut AnyConnection, job: &NewJob) -> Result<i64, StoreError> {
    let row = sqlx::query(
        "INSERT INTO jobs (due_at, kind, game, user_id, payload) VALUES ($1, $2, $3, $4, $5) \
         RETURNING id",
    )
    .bind(job.due_at)
    .bind(job.kind.as_str())
    .bind(job.game.map(|g| g.0))
    .bind(job.user)
    .bind(&job.payload)
    .fetch_one(&mut *tx)
    .await?;
    get(&row, "id")
}

impl Store {
    /// Applies a clock plan on its own (pause, resume, extend, an opened or replaced seat).
    /// Returns false, writing nothing, if the clock moved since `plan.from_rev`.
    pub async fn apply_turn_plan(&self, id: GameId, plan: &TurnPlan) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // What it notes in members' records is dated by the turn it starts: a seat handed over
        // or opened starts a turn now (a plan that changes no seat and notes nothing, such as
        // a pause, keeps its turn's start).
        let at = plan.clock.started_at.unwrap_or_default();
        // The guarded UPDATE comes first: row lock (PostgreSQL) / write lock (SQLite).
        if !apply_plan(&mut tx, id, plan, at).await? {
            tx.rollback().await?;
            // Missing game or moved clock.
            self.game(id).await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Sets a game's time per turn (`None`: no clock). No version change.
    pub async fn set_clock_secs(&self, id: GameId, secs: Option<i64>) -> Result<(), StoreError> {
        self.set_game_column(id, "clock_secs", secs).await
    }

    /// Removes a job only if this claim still holds it (`worker` and the `attempts` of the
    /// claim): after a lease ran out and another worker claimed it, the late worker gets
    /// false and must not act. Returns whether this claim removed it.
    pub async fn complete_claimed(
        &self,
        id: i64,
        worker: &str,
        attempts: i64,
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM jobs WHERE id = $1 AND claimed_by = $2 AND attempts = $3")
                .bind(id)
                .bind(worker)
                .bind(attempts)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Moves a claimed job to a later time (a reminder during quiet hours) and frees its
    /// lease, if this claim still holds it.
    pub async fn postpone_claimed(
        &self,
        id: i64,
        worker: &str,
        attempts: i64,
        due_at: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET due_at = $1, claimed_by = NULL, lease_until = NULL \
             WHERE id = $2 AND claimed_by = $3 AND attempts = $4",
        )
        .bind(due_at)
        .bind(id)
        .bind(worker)
        .bind(attempts)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Replaces a user's jobs of one kind with `job` (or none). Returns the new job's id.
    pub async fn replace_user_job(
        &self,
        user: i64,
        kind: JobKind,
        job: Option<&NewJob>,
    ) -> Result<Option<i64>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM jobs WHERE user_id = $1 AND kind = $2")
            .bind(user)
            .bind(kind.as_str())
            .execute(&mut *tx)
            .await?;
        let id = match job {
            Some(j) => Some(insert_job(&mut tx, j).await?),
            None => None,
        };
        tx.commit().await?;
        Ok(id)
    }

    /// A user's pending jobs of the kinds this program knows, soonest first.
    pub async fn jobs_for_user(&self, user: i64) -> Result<Vec<super::JobRecord>, StoreError> {
        let mut query = sqlx::query(
            "SELECT id, due_at, kind, game, user_id, payload, attempts FROM jobs \
             WHERE user_id = $1 AND kind IN ($2, $3, $4, $5, $6, $7) ORDER BY due_at, id",
        )
        .bind(user);
        for kind in super::misc::KNOWN_JOBS {
            query = query.bind(kind.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(super::misc::job_from_row).collect()
    }

    /// Jobs due at `now` that no scheduler holds (free or lapsed lease), and all jobs waiting.
    pub async fn job_queue(&self, now: i64) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(CASE WHEN due_at <= $1 AND (lease_until IS NULL \
               OR lease_until <= $1) THEN 1 ELSE 0 END), 0) AS BIGINT) AS due, \
             COUNT(*) AS n FROM jobs",
        )
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok((get(&row, "due")?, get(&row, "n")?))
    }

    /// Running games by kind.
    pub async fn live_games_by_kind(&self) -> Result<Vec<(GameKind, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT kind, COUNT(*) AS n FROM games WHERE status = 'active' AND lesson = 0 \
             GROUP BY kind \
             ORDER BY kind",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((get_kind(r, "kind")?, get(r, "n")?)))
            .collect()
    }

    /// The cheapest question the database can answer: is it there?
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// How many jobs are waiting (claimed or not).
    pub async fn job_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM jobs")
            .fetch_one(&self.pool)
            .await?;
        get(&row, "n")
    }

    /// Running games whose clock should have jobs and has none: clocked games never planned
    /// (stored before clocks existed), running deadlines without their job, bot seats to
    /// play without theirs. Planned again at start-up.
    pub async fn games_needing_plan(&self, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games g WHERE status = 'active' AND ( \
               (clock_secs IS NOT NULL AND turn_seat IS NULL) \
               OR (deadline_at IS NOT NULL AND NOT EXISTS \
                   (SELECT 1 FROM jobs j WHERE j.game = g.id AND j.kind = 'deadline')) \
               OR (EXISTS (SELECT 1 FROM seats s WHERE s.game = g.id AND s.seat = g.turn_seat \
                           AND s.is_bot = 1) \
                   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.game = g.id AND j.kind = 'bot'))) \
             ORDER BY id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(get(r, "id")?))).collect()
    }

    /// Per game kind in a server: games finished and turn lengths.
    pub async fn stats(&self, guild: i64) -> Result<Vec<GameStats>, StoreError> {
        let finished = sqlx::query(
            "SELECT kind, COUNT(*) AS n, CAST(SUM(casual) AS BIGINT) AS casual FROM games \
             WHERE guild = $1 AND status = 'finished' AND lesson = 0 \
             GROUP BY kind ORDER BY kind",
        )
        .bind(guild)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for row in &finished {
            out.push(GameStats {
                kind: get_kind(row, "kind")?,
                finished: get(row, "n")?,
                casual: get::<Option<i64>>(row, "casual")?.unwrap_or(0),
                turns: 0,
                avg_turn_secs: None,
            });
        }
        // A turn: from one seat's last option to the next seat's first, in any game here.
        let turns = sqlx::query(
            "SELECT kind, COUNT(*) AS n, CAST(AVG(at - prev_at) AS BIGINT) AS avg_secs FROM ( \
               SELECT g.kind AS kind, m.at AS at, m.seat AS seat, \
                 LAG(m.at) OVER (PARTITION BY m.game ORDER BY m.seq) AS prev_at, \
                 LAG(m.seat) OVER (PARTITION BY m.game ORDER BY m.seq) AS prev_seat \
               FROM moves m JOIN games g ON g.id = m.game \
               WHERE g.guild = $1 AND g.lesson = 0 AND m.undone_at IS NULL) t \
             WHERE prev_seat IS NOT NULL AND prev_seat <> seat GROUP BY kind",
        )
        .bind(guild)
        .fetch_all(&self.pool)
        .await?;
        for row in &turns {
            let entry = entry(&mut out, get_kind(row, "kind")?);
            entry.turns = get(row, "n")?;
            entry.avg_turn_secs = get(row, "avg_secs")?;
        }
        out.sort_by_key(|s| s.kind.id());
        Ok(out)
    }
}

fn entry(out: &mut Vec<GameStats>, kind: GameKind) -> &mut GameStats {
    let i = match out.iter().position(|s| s.kind == kind) {
        Some(i) => i,
        None => {
            out.push(GameStats {
                kind,
                finished: 0,
                casual: 0,
                turns: 0,
                avg_turn_secs: None,
            });
            out.len() - 1
        }
    };
    &mut out[i]
}
