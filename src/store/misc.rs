//! Jobs (reminders, deadlines), user and server settings and interaction ids.

use sqlx::any::AnyRow;

use super::{
    bool_i64, get, get_bool, get_job_kind, get_kind, get_lang, Backend, GameId, GameKind,
    GamePings, JobKind, JobRecord, Lang, NewJob, Store, StoreError, UserSettings,
};

/// The job kinds this program runs, bound in the order of the queries' `kind IN (…)` lists
/// (six placeholders: adding a kind fails to compile here until the queries grow one).
pub(super) const KNOWN_JOBS: [JobKind; 6] = JobKind::ALL;

/// Minutes in a day: quiet hours are minutes after local midnight, below this.
const DAY_MINUTES: u16 = 24 * 60;

impl Store {
    /// Adds a job; returns its id.
    pub async fn schedule_job(&self, job: &NewJob) -> Result<i64, StoreError> {
        let mut conn = self.pool.acquire().await?;
        super::clocks::insert_job(&mut conn, job).await
    }

    /// Claims up to `limit` jobs due at `now` whose lease is free or expired, for `lease_secs`
    /// seconds, oldest first. Two claimers never get the same job while its lease runs:
    /// PostgreSQL skips rows another transaction has locked (`FOR UPDATE SKIP LOCKED`); SQLite
    /// runs the whole claim as one write statement (one writer at a time).
    ///
    /// Only jobs of a kind this program knows are claimed: one a newer program wrote (several
    /// processes on one PostgreSQL during an upgrade) stays for a program that can run it.
    ///
    /// Delivery is at least once: a worker that outlives its lease may see the job claimed
    /// again, so call [`Store::complete_job`] when done and keep jobs safe to repeat.
    pub async fn claim_due_jobs(
        &self,
        now: i64,
        limit: u32,
        worker: &str,
        lease_secs: i64,
    ) -> Result<Vec<JobRecord>, StoreError> {
        if lease_secs < 1 {
            return Err(StoreError::Invalid(format!("lease of {lease_secs} s")));
        }
        // One query per backend: PostgreSQL skips rows another process holds locked.
        macro_rules! claim {
            ($lock:literal) => {
                concat!(
                    "UPDATE jobs SET claimed_by = $1, lease_until = $2, attempts = attempts + 1 \
                     WHERE id IN (SELECT id FROM jobs WHERE due_at <= $3 \
                       AND (lease_until IS NULL OR lease_until <= $3) \
                       AND kind IN ($5, $6, $7, $8, $9, $10) \
                       ORDER BY due_at, id LIMIT $4",
                    $lock,
                    ") RETURNING id, due_at, kind, game, user_id, payload, attempts"
                )
            };
        }
        let sql = match self.backend {
            Backend::Postgres => claim!(" FOR UPDATE SKIP LOCKED"),
            Backend::Sqlite => claim!(""),
        };
        let mut query = sqlx::query(sql)
            .bind(worker)
            .bind(now.saturating_add(lease_secs))
            .bind(now)
            .bind(i64::from(limit));
        for kind in KNOWN_JOBS {
            query = query.bind(kind.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut jobs = rows
            .iter()
            .map(job_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        // RETURNING promises no order.
        jobs.sort_by_key(|j| (j.due_at, j.id));
        Ok(jobs)
    }

    /// Removes a finished job. Returns whether it was still there.
    pub async fn complete_job(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM jobs WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Removes the jobs of one kind for a game (e.g. its reminders once the player moved).
    /// Returns how many.
    pub async fn cancel_jobs_for_game(
        &self,
        game: GameId,
        kind: JobKind,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM jobs WHERE game = $1 AND kind = $2")
            .bind(game.0)
            .bind(kind.as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// The pending jobs of a game this program knows, soonest first (claimed ones included).
    pub async fn jobs_for_game(&self, game: GameId) -> Result<Vec<JobRecord>, StoreError> {
        let mut query = sqlx::query(
            "SELECT id, due_at, kind, game, user_id, payload, attempts FROM jobs WHERE game = $1 \
             AND kind IN ($2, $3, $4, $5, $6, $7) ORDER BY due_at, id",
        )
        .bind(game.0);
        for kind in KNOWN_JOBS {
            query = query.bind(kind.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(job_from_row).collect()
    }

    /// A user's settings; the defaults for a user never saved.
    pub async fn user_settings(&self, user: i64) -> Result<UserSettings, StoreError> {
        let row = sqlx::query(
            "SELECT locale, timezone, quiet_start, quiet_end, vacation_until, dm_enabled, digest, \
             pings, hand_dms, confirm_moves, reminders FROM users WHERE id = $1",
        )
        .bind(user)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(UserSettings::default());
        };
        settings_from_row(&row).map_err(|e| match e {
            StoreError::Corrupt(m) => StoreError::Corrupt(format!("user {user}: {m}")),
            other => other,
        })
    }

    /// Saves all of a user's settings (insert or replace).
    pub async fn save_user_settings(
        &self,
        user: i64,
        s: &UserSettings,
        now: i64,
    ) -> Result<(), StoreError> {
        for minute in [s.quiet_start, s.quiet_end].into_iter().flatten() {
            if minute >= DAY_MINUTES {
                return Err(StoreError::Invalid(format!(
                    "quiet hours at minute {minute} of a day"
                )));
            }
        }
        sqlx::query(
            "INSERT INTO users (id, locale, timezone, quiet_start, quiet_end, vacation_until, \
             dm_enabled, updated_at, digest, pings, hand_dms, confirm_moves, reminders) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
             ON CONFLICT (id) DO UPDATE SET locale = excluded.locale, \
             timezone = excluded.timezone, quiet_start = excluded.quiet_start, \
             quiet_end = excluded.quiet_end, vacation_until = excluded.vacation_until, \
             dm_enabled = excluded.dm_enabled, updated_at = excluded.updated_at, \
             digest = excluded.digest, pings = excluded.pings, hand_dms = excluded.hand_dms, \
             confirm_moves = excluded.confirm_moves, reminders = excluded.reminders",
        )
        .bind(user)
        .bind(s.locale.as_deref())
        .bind(s.timezone.as_deref())
        .bind(s.quiet_start.map(i64::from))
        .bind(s.quiet_end.map(i64::from))
        .bind(s.vacation_until)
        .bind(bool_i64(s.dm_enabled))
        .bind(now)
        .bind(bool_i64(s.digest))
        .bind(bool_i64(s.pings))
        .bind(bool_i64(s.hand_dms))
        .bind(bool_i64(s.confirm_moves))
        .bind(s.reminders.as_ref().map(|points| {
            points
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// How `game` pings `member` (`All` when they chose nothing for it).
    pub async fn game_pings(&self, game: GameId, member: i64) -> Result<GamePings, StoreError> {
        let row = sqlx::query("SELECT mode FROM game_pings WHERE game = $1 AND member = $2")
            .bind(game.0)
            .bind(member)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(GamePings::All);
        };
        let mode: String = get(&row, "mode")?;
        GamePings::parse(&mode)
            .ok_or_else(|| StoreError::Corrupt(format!("game {} pings {mode:?}", game.0)))
    }

    /// Sets how `game` pings `member`; `All` removes their row.
    pub async fn set_game_pings(
        &self,
        game: GameId,
        member: i64,
        mode: GamePings,
        now: i64,
    ) -> Result<(), StoreError> {
        let query = match mode {
            GamePings::All => sqlx::query("DELETE FROM game_pings WHERE game = $1 AND member = $2")
                .bind(game.0)
                .bind(member),
            _ => sqlx::query(
                "INSERT INTO game_pings (game, member, mode, since) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game, member) DO UPDATE SET mode = excluded.mode, \
                 since = excluded.since",
            )
            .bind(game.0)
            .bind(member)
            .bind(mode.as_str())
            .bind(now),
        };
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// The language a server chose for its public messages; `None` when it chose none.
    pub async fn guild_lang(&self, guild: i64) -> Result<Option<Lang>, StoreError> {
        let row = sqlx::query("SELECT lang FROM guild_settings WHERE guild = $1")
            .bind(guild)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => get_lang(&row, "lang"),
            None => Ok(None),
        }
    }

    /// Sets (or, with `None`, clears) the language of a server's public messages.
    pub async fn set_guild_lang(
        &self,
        guild: i64,
        lang: Option<Lang>,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO guild_settings (guild, lang, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (guild) DO UPDATE SET lang = excluded.lang, \
             updated_at = excluded.updated_at",
        )
        .bind(guild)
        .bind(lang.map(Lang::code))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Puts `member` in the substitutes of `kind` on `guild`; false when already there.
    pub async fn add_substitute(
        &self,
        guild: i64,
        kind: GameKind,
        member: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO substitutes (guild, kind, member, since) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild, kind, member) DO NOTHING",
        )
        .bind(guild)
        .bind(kind.id())
        .bind(member)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Takes `member` out of the substitutes of `kind` on `guild`; false when not there.
    pub async fn remove_substitute(
        &self,
        guild: i64,
        kind: GameKind,
        member: i64,
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM substitutes WHERE guild = $1 AND kind = $2 AND member = $3")
                .bind(guild)
                .bind(kind.id())
                .bind(member)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The substitutes of `kind` on `guild`, longest waiting first, at most `limit`.
    pub async fn substitutes(
        &self,
        guild: i64,
        kind: GameKind,
        limit: usize,
    ) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT member FROM substitutes WHERE guild = $1 AND kind = $2 \
             ORDER BY since, member LIMIT $3",
        )
        .bind(guild)
        .bind(kind.id())
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| get(row, "member")).collect()
    }

    /// The games `member` substitutes for on `guild`.
    pub async fn substitute_kinds(
        &self,
        guild: i64,
        member: i64,
    ) -> Result<Vec<GameKind>, StoreError> {
        let rows = sqlx::query(
            "SELECT kind FROM substitutes WHERE guild = $1 AND member = $2 ORDER BY kind",
        )
        .bind(guild)
        .bind(member)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| get_kind(row, "kind")).collect()
    }

    /// The DM channel kept for `member`, if one was opened.
    pub async fn dm_channel(&self, member: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT channel FROM dm_channels WHERE member = $1")
            .bind(member)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| get(&row, "channel")).transpose()
    }

    /// Keeps `channel` as `member`'s DM channel (`None` forgets it: Discord no longer knows
    /// it, and the next DM opens it again).
    pub async fn set_dm_channel(
        &self,
        member: i64,
        channel: Option<i64>,
        now: i64,
    ) -> Result<(), StoreError> {
        let query = match channel {
            Some(channel) => sqlx::query(
                "INSERT INTO dm_channels (member, channel, opened_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (member) DO UPDATE SET channel = excluded.channel, \
                 opened_at = excluded.opened_at",
            )
            .bind(member)
            .bind(channel)
            .bind(now),
            None => sqlx::query("DELETE FROM dm_channels WHERE member = $1").bind(member),
        };
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// Records that bot process `id` is alive at `now` and forgets processes not seen since
    /// `stale_before`; returns how many are alive, this one included.
    pub async fn heartbeat(
        &self,
        id: &str,
        now: i64,
        stale_before: i64,
    ) -> Result<u32, StoreError> {
        sqlx::query(
            "INSERT INTO processes (id, seen_at) VALUES ($1, $2) \
             ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM processes WHERE seen_at < $1")
            .bind(stale_before)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT COUNT(*) AS n FROM processes")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = get(&row, "n")?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX).max(1))
    }

    /// Forgets bot process `id` (a clean exit: the others take its share at once).
    pub async fn forget_process(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM processes WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// True the first time an interaction id is seen, false ever after (until forgotten):
    /// a redelivered or double-clicked interaction is handled once, across processes.
    pub async fn first_seen(&self, interaction: i64, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO interactions (id, seen_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
        )
        .bind(interaction)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Forgets interactions seen before `cutoff` (Discord stops redelivering after minutes).
    /// Returns how many.
    pub async fn forget_interactions_before(&self, cutoff: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM interactions WHERE seen_at < $1")
            .bind(cutoff)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

pub(super) fn job_from_row(row: &AnyRow) -> Result<JobRecord, StoreError> {
    Ok(JobRecord {
        id: get(row, "id")?,
        due_at: get(row, "due_at")?,
        kind: get_job_kind(row, "kind")?,
        game: get::<Option<i64>>(row, "game")?.map(GameId),
        user: get(row, "user_id")?,
        payload: get(row, "payload")?,
        attempts: get(row, "attempts")?,
    })
}

fn settings_from_row(row: &AnyRow) -> Result<UserSettings, StoreError> {
    Ok(UserSettings {
        locale: get(row, "locale")?,
        timezone: get(row, "timezone")?,
        quiet_start: minute(row, "quiet_start")?,
        quiet_end: minute(row, "quiet_end")?,
        vacation_until: get(row, "vacation_until")?,
        dm_enabled: get_bool(row, "dm_enabled")?,
        digest: get_bool(row, "digest")?,
        pings: get_bool(row, "pings")?,
        hand_dms: get_bool(row, "hand_dms")?,
        confirm_moves: get_bool(row, "confirm_moves")?,
        reminders: reminder_points(get(row, "reminders")?)?,
    })
}

/// `users.reminders`: percents separated by commas; `None` when unset.
fn reminder_points(text: Option<String>) -> Result<Option<Vec<u8>>, StoreError> {
    let Some(text) = text else { return Ok(None) };
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<u8>()
                .ok()
                .filter(|n| *n <= 100)
                .ok_or_else(|| StoreError::Corrupt(format!("reminder point {p:?}")))
        })
        .collect::<Result<Vec<u8>, _>>()
        .map(Some)
}

fn minute(row: &AnyRow, col: &str) -> Result<Option<u16>, StoreError> {
    match get::<Option<i64>>(row, col)? {
        None => Ok(None),
        Some(n) => u16::try_from(n)
            .ok()
            .filter(|m| *m < DAY_MINUTES)
            .map(Some)
            .ok_or_else(|| StoreError::Corrupt(format!("{col} = {n} is not a minute of a day"))),
    }
}
