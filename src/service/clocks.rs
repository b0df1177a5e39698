//! Games over days: the clock of each turn, reminders, what happens when time runs out, bot
//! seats, and the scheduler's side of jobs.
//!
//! A turn starts when the seat that must decide changes. Its plan (deadline, reminders, or a
//! bot job) is written with the move that started it, in one transaction (see
//! `store::clocks`). Jobs are claimed from the store; each checks that its game still runs
//! and that the clock is at the revision it was planned for, so a job for a game that moved on
//! does nothing. Effects are guarded twice: the game's version (a move lands once) and a fenced
//! completion for messages (a reminder is removed by the claim that sends it, before sending).

use super::core::{
    bot_job, check_clock_len, game_lang, quiet_of, same_clock, stale, Mover, TurnJob,
};
use super::output::{self, due, duration_text, id_u64, mention, place_link, Notice};
use super::pings::MIN_REMINDER_GAP_SECS;
use super::{seed_from_i64, Clocks, Loaded, LobbyError, ServiceError};
use crate::ai::BotPlayer;
use crate::clock::{after_quiet, Quiet, Zone, HOUR, MAX_TURN_SECS};
use crate::engine::{AnyGame, AppliedMove, GameId, PlayError, Seat};
use crate::i18n::{Lang, Text};
use crate::store::{
    GamePings, GameStatus, JobKind, JobRecord, StoreError, TimeoutPolicy, TurnClock, TurnPlan,
};

/// Jobs run at once by default: a PostgreSQL pool has 8 connections, SQLite has one writer
/// anyway, and a board's render keeps a core busy for a few milliseconds.
pub const DEFAULT_SCHEDULER_CONCURRENCY: usize = 8;

/// A bot or a timed-out seat plays at most this many options in a row (a guard: a turn of a
/// real game is a handful).
const MAX_AUTO_STEPS: usize = 200;

/// How reminders and the scheduler behave (`REMIND_AT_PERCENT`, `LAST_CALL_HOURS`,
/// `MAX_REMINDERS`, `DIGEST_HOUR` in the bot's configuration).
#[derive(Clone, Debug)]
pub struct Timers {
    /// The first reminder goes when a turn has waited this share of its time (percent).
    pub remind_pct: u8,
    /// The last call goes this long before the deadline (at most a quarter of the turn).
    pub last_call_secs: i64,
    /// At most this many reminders per turn (0: none). With one, only the last call goes.
    pub max_reminders: u8,
    /// How long a claimed job is reserved for its worker.
    pub lease_secs: i64,
    /// Local time of the daily digest, in minutes after midnight.
    pub digest_minute: u16,
    /// The clock of `/play` when none is given.
    pub default_clock_secs: i64,
    /// A job failing this many times is dropped (and logged).
    pub max_attempts: i64,
    /// A board still not out this long after its change (real time, seconds) is posted again
    /// by a scheduler: the first post is lost (a crash, Discord down past the retries).
    pub board_grace_secs: u64,
    /// A lobby untouched this long is closed (`LOBBY_IDLE_HOURS`).
    pub lobby_idle_secs: i64,
    /// Open lobbies one member may host at once (`MAX_LOBBIES_PER_MEMBER`).
    pub lobbies_per_member: u32,
    /// Open lobbies one channel may hold at once (`MAX_LOBBIES_PER_CHANNEL`).
    pub lobbies_per_channel: u32,
    /// Lobbies and running games one member may host at once (`MAX_GAMES_PER_MEMBER`).
    pub games_per_member: u32,
    /// Lobbies and running games one channel may hold at once (`MAX_GAMES_PER_CHANNEL`).
    pub games_per_channel: u32,
    /// Running games with a thread of their own in one server; beyond, a game is played in
    /// its channel (`MAX_THREADS_PER_SERVER`; Discord caps a server's active threads for
    /// everyone).
    pub threads_per_server: u32,
    /// A game nobody (no person) played in this long has its thread archived, and says so
    /// (`IDLE_ARCHIVE_DAYS`).
    pub idle_archive_secs: i64,
    /// A finished game's thread stays open this long for its players' last words, then is
    /// archived (`ARCHIVE_GRACE_HOURS`).
    pub archive_grace_secs: i64,
    /// Jobs of one claimed batch that run at once (`SCHEDULER_CONCURRENCY`; at least 1). Their
    /// renders go to blocking threads, so the bound is about the database's connections and
    /// the cores more than the async workers.
    pub scheduler_concurrency: usize,
}

impl Default for Timers {
    fn default() -> Self {
        Timers {
            remind_pct: 50,
            last_call_secs: 2 * HOUR,
            max_reminders: 2,
            lease_secs: 120,
            digest_minute: 9 * 60,
            default_clock_secs: 24 * HOUR,
            max_attempts: 5,
            board_grace_secs: 60,
            lobby_idle_secs: 24 * HOUR,
            lobbies_per_member: 3,
            lobbies_per_channel: 10,
            games_per_member: 10,
            games_per_channel: 30,
            threads_per_server: 100,
            idle_archive_secs: 7 * 24 * HOUR,
            archive_grace_secs: 24 * HOUR,
            scheduler_concurrency: DEFAULT_SCHEDULER_CONCURRENCY,
        }
    }
}

impl Timers {
    /// When to remind a player whose turn runs from `start` to `deadline`: never before
    /// `now`, never in their quiet hours (moved to the end of them), never at or after the
    /// deadline, never two within [`MIN_REMINDER_GAP_SECS`]. `true` marks the last call.
    ///
    /// `points`: the player's own (`/settings reminders:`), percents of the turn's time still
    /// left; they replace the server's first reminder and last call (empty: none at all), and
    /// the smallest is the last call. Without them, the server's plan: at most
    /// `max_reminders` (the latest kept). `max_reminders` at 0 turns reminders off for all.
    pub fn reminders(
        &self,
        start: i64,
        deadline: i64,
        now: i64,
        zone: Zone,
        quiet: Option<Quiet>,
        points: Option<&[u8]>,
    ) -> Vec<(i64, bool)> {
        let len = deadline.saturating_sub(start);
        if self.max_reminders == 0 || len <= 0 {
            return Vec::new();
        }
        // Within [start, deadline] by construction; i128 so no length can overflow.
        let at_pct = |pct: u8| {
            let pct = i128::from(pct.min(100));
            start.saturating_add(i64::try_from(i128::from(len) * pct / 100).unwrap_or(len))
        };
        let wanted: Vec<(i64, bool)> = match points {
            Some(points) => {
                let least = points.iter().min().copied();
                points
                    .iter()
                    .map(|p| (at_pct(100 - (*p).min(100)), Some(*p) == least))
                    .collect()
            }
            None => vec![
                (at_pct(self.remind_pct), false),
                (
                    deadline.saturating_sub(self.last_call_secs.min(len / 4)),
                    true,
                ),
            ],
        };
        let mut out: Vec<(i64, bool)> = Vec::new();
        for (at, last) in wanted {
            let at = after_quiet(at, zone, quiet);
            if at > now
                && at < deadline
                && !out
                    .iter()
                    .any(|(t, _)| (t - at).abs() < MIN_REMINDER_GAP_SECS)
            {
                out.push((at, last));
            }
        }
        out.sort_unstable();
        let keep = match points {
            Some(_) => super::pings::MAX_REMINDER_POINTS,
            None => usize::from(self.max_reminders),
        };
        if out.len() > keep {
            out.drain(..out.len() - keep);
        }
        out
    }
}

/// What `/clock` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockAction {
    Pause,
    Resume,
    /// Adds seconds to the current turn.
    Extend(i64),
    /// A new time per turn (`None`: no clock); the current turn gets the full new time.
    Change(Option<i64>),
}

/// Where a paused game goes on ([`Clocks::resume_in`]): its channel, its thread if any, and
/// the board the front end posted there, which becomes its live board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewPlace {
    pub channel: i64,
    pub thread: Option<i64>,
    pub board: i64,
}

/// Why a game's place refused the bot for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostPlace {
    /// Its channel was deleted (with its threads).
    Deleted,
    /// A moderator locked its thread (160005).
    Locked,
    /// The bot may no longer see or post there (50001, 50013).
    NoAccess,
}

impl Clocks<'_> {
    /// The language of a game's public messages (chosen at `/play` from the server's).
    pub async fn game_lang(self, game: GameId) -> Result<Lang, ServiceError> {
        Ok(game_lang(&self.core.store.game(game).await?))
    }

    /// Plans the games that should have jobs and have none (start-up, after a restart or an
    /// upgrade). Returns how many were planned.
    pub async fn replan(self, now: i64) -> Result<usize, ServiceError> {
        // Games are planned side by side, as many at once as the scheduler runs jobs: after
        // an outage with thousands of games, one after another would keep their timers
        // waiting for minutes (each plan is a few round trips to the store).
        let bound = std::sync::Arc::new(tokio::sync::Semaphore::new(
            self.core.timers.scheduler_concurrency.max(1),
        ));
        let mut tasks = tokio::task::JoinSet::new();
        for id in self.core.store.games_needing_plan(1000).await? {
            let (core, bound) = (self.core.clone(), std::sync::Arc::clone(&bound));
            tasks.spawn(async move {
                let _permit = bound.acquire_owned().await.ok();
                Clocks { core: &core }.replan_one(id, now).await
            });
        }
        let (mut planned, mut failed) = (0, None);
        while let Some(done) = tasks.join_next().await {
            match done {
                Ok(Ok(true)) => planned += 1,
                Ok(Ok(false)) => {}
                Ok(Err(e)) => failed = failed.or(Some(e)),
                Err(e) => tracing::error!(error = %e, "a re-planning task ended abnormally"),
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(planned),
        }
    }

    /// Plans one game's clock; `false` when the game cannot be loaded (logged, left alone).
    async fn replan_one(self, id: GameId, now: i64) -> Result<bool, ServiceError> {
        let mut loaded = match self.core.load(id).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot re-plan a game's clock");
                return Ok(false);
            }
        };
        if loaded.record.clock.seat.is_none() {
            self.core.start_clock(&mut loaded, now).await?;
        } else {
            let plan = self.core.replan_current(&loaded.record, now).await?;
            self.core.store.apply_turn_plan(id, &plan).await?;
            self.core.wake_if_due(&plan, now);
        }
        Ok(true)
    }

    /// The game's place on Discord is gone (its channel deleted, with its threads): nothing can
    /// be shown, so the place is forgotten, a running clock is paused where it stands (its
    /// reminders, deadline and bot turns wait), and every seated player is told by DM.
    pub async fn place_lost(self, game: GameId, now: i64) -> Result<Vec<Notice>, ServiceError> {
        self.lose_place(game, LostPlace::Deleted, now).await
    }

    /// The game's place refused the bot for good: the channel was deleted, a moderator locked
    /// the thread, or the bot may no longer post there. The game is paused where it stands and
    /// nothing is posted for it until the host or a moderator gives it a place again
    /// ([`Clocks::resume_in`]); a moderator's lock is theirs to lift, so the bot does not
    /// open a thread elsewhere by itself. Only the first report of a loss tells anyone (by DM:
    /// the players and the host for a deletion or a lock, the host alone for lost rights).
    pub async fn lose_place(
        self,
        game: GameId,
        why: LostPlace,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        if why == LostPlace::Deleted {
            self.core.store.clear_place(game).await?;
        }
        if !self.core.store.mark_lost(game, now).await? {
            return Ok(Vec::new());
        }
        let record = self.core.store.game(game).await?;
        if let (None, Some(deadline)) = (record.clock.paused_left, record.clock.deadline_at) {
            let mut plan = same_clock(&record.clock);
            plan.clock.deadline_at = None;
            plan.clock.paused_left = Some(deadline.saturating_sub(now).max(0));
            if !self.core.store.apply_turn_plan(game, &plan).await? {
                return Err(stale(&record));
            }
        }
        let lang = game_lang(&record);
        let key = match why {
            LostPlace::Deleted => "bot.place.lost",
            LostPlace::Locked => "bot.place.locked",
            LostPlace::NoAccess => "bot.place.no_access",
        };
        let text = Text::new(key)
            .arg("game", record.kind.display_name())
            .arg("id", game.0)
            .arg(
                "place",
                record
                    .thread
                    .or(record.channel)
                    .map(|c| format!("<#{}>", id_u64(c)))
                    .unwrap_or_default(),
            )
            .render(lang);
        let mut users = match (why, record.host) {
            (LostPlace::NoAccess, Some(host)) => vec![host],
            _ => {
                let mut users = super::players(&record);
                users.extend(record.host);
                users
            }
        };
        users.sort_unstable();
        users.dedup();
        Ok(users
            .into_iter()
            .map(|user| Notice::Dm {
                user,
                game: Some(game),
                text: text.clone(),
                fallback: None,
            })
            .collect())
    }

    /// Whether `user` may give `game`, whose place was lost, a new one ([`Clocks::resume_in`]):
    /// its host or a moderator. Changes nothing.
    pub async fn may_resume_in(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
    ) -> Result<(), ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        if loaded.record.host != Some(user) && !is_moderator {
            return Err(LobbyError::NotHost.into());
        }
        if loaded.record.lost_at.is_none() {
            return Err(LobbyError::ClockNotPaused.into());
        }
        Ok(())
    }

    /// Gives a game whose place was lost its new place (where the host or a moderator asked
    /// for it, after the front end posted its board there: `place`) and starts its clock again
    /// with the time that was left. Returns the notice for the new place.
    pub async fn resume_in(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        place: NewPlace,
        now: i64,
    ) -> Result<Notice, ServiceError> {
        self.may_resume_in(game, user, is_moderator).await?;
        let NewPlace {
            channel,
            thread,
            board,
        } = place;
        if !self
            .core
            .store
            .found_place(game, channel, thread, board)
            .await?
        {
            return Err(LobbyError::ClockNotPaused.into());
        }
        let record = self.core.store.game(game).await?;
        let lang = game_lang(&record);
        let mut plan = same_clock(&record.clock);
        let names = super::text_names(&record);
        let players: Vec<String> = super::players(&record).into_iter().map(mention).collect();
        let mut text = Text::new("bot.place.resumed")
            .arg("game", record.kind.display_name())
            .arg("id", game.0)
            .arg("players", players.join(" "))
            .render_with(lang, &names);
        if let (Some(left), Some(seat)) = (record.clock.paused_left, record.clock.seat) {
            let settings = self.core.holder_settings(&record, seat).await?;
            let left = left.clamp(0, MAX_TURN_SECS);
            self.core
                .run_clock(&mut plan, game, seat, now, now + left, &settings, now);
            text.push('\n');
            text.push_str(
                &Text::new("bot.clock.resumed")
                    .arg("due", due(now + left))
                    .render_with(lang, &names),
            );
        }
        if let Some(seat) = record
            .clock
            .seat
            .filter(|s| record.seats.get(s.index()).is_some_and(|h| h.is_bot))
        {
            plan.jobs.push(bot_job(&record, now, plan.clock.rev, seat));
        }
        if !self.core.store.apply_turn_plan(game, &plan).await? {
            return Err(stale(&record));
        }
        self.core.wake_if_due(&plan, now);
        Ok(Notice::Place { game, text })
    }

    /// `/clock`: pause, resume, extend or change a game's clock (host or moderator). Returns
    /// the notice for the game's place.
    pub async fn clock(
        self,
        game: GameId,
        user: i64,
        is_moderator: bool,
        action: ClockAction,
        now: i64,
    ) -> Result<Notice, ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let record = &loaded.record;
        if record.host != Some(user) && !is_moderator {
            return Err(LobbyError::NotHost.into());
        }
        let mut plan = same_clock(&record.clock);
        let seat = record.clock.seat;
        let text = match action {
            ClockAction::Pause => {
                if record.clock.paused_left.is_some() {
                    return Err(LobbyError::ClockPaused.into());
                }
                let deadline = record
                    .clock
                    .deadline_at
                    .ok_or(LobbyError::ClockNotRunning)?;
                plan.clock.deadline_at = None;
                plan.clock.paused_left = Some(deadline.saturating_sub(now).max(0));
                Text::new("bot.clock.paused")
            }
            ClockAction::Resume => {
                let left = record.clock.paused_left.ok_or(LobbyError::ClockNotPaused)?;
                let seat = seat.ok_or(LobbyError::ClockNotRunning)?;
                let settings = self.core.holder_settings(record, seat).await?;
                let left = left.clamp(0, MAX_TURN_SECS);
                self.core
                    .run_clock(&mut plan, game, seat, now, now + left, &settings, now);
                Text::new("bot.clock.resumed").arg("due", due(now + left))
            }
            ClockAction::Extend(secs) => {
                check_clock_len(secs)?;
                if let Some(left) = record.clock.paused_left {
                    let left = extended(left, secs)?;
                    plan.clock.paused_left = Some(left);
                    Text::new("bot.clock.extended_paused").arg("left", duration_text(left))
                } else {
                    let deadline = record
                        .clock
                        .deadline_at
                        .ok_or(LobbyError::ClockNotRunning)?;
                    let seat = seat.ok_or(LobbyError::ClockNotRunning)?;
                    let settings = self.core.holder_settings(record, seat).await?;
                    let start = record.clock.started_at.unwrap_or(now);
                    let left = extended(deadline.saturating_sub(now).max(0), secs)?;
                    self.core
                        .run_clock(&mut plan, game, seat, start, now + left, &settings, now);
                    Text::new("bot.clock.extended").arg("due", due(now + left))
                }
            }
            ClockAction::Change(len) => {
                if let Some(len) = len {
                    check_clock_len(len)?;
                }
                self.core.store.set_clock_secs(game, len).await?;
                plan.clock.deadline_at = None;
                plan.clock.paused_left = None;
                match (len, seat) {
                    (Some(len), _) if record.clock.paused_left.is_some() => {
                        plan.clock.paused_left = Some(len);
                    }
                    (Some(len), Some(seat))
                        if record
                            .seats
                            .get(seat.index())
                            .is_some_and(|s| !s.is_bot && !s.vacant) =>
                    {
                        let settings = self.core.holder_settings(record, seat).await?;
                        let start = settings.vacation_until.map_or(now, |v| v.max(now));
                        plan.clock.started_at = Some(now);
                        let deadline = start.saturating_add(len);
                        self.core
                            .run_clock(&mut plan, game, seat, start, deadline, &settings, now);
                    }
                    _ => {}
                }
                match len {
                    Some(len) => Text::new("bot.clock.changed").arg("len", duration_text(len)),
                    None => Text::new("bot.clock.off"),
                }
            }
        };
        // The plan replaces every job of the game: a bot seat still to play keeps its turn.
        if let Some(seat) = seat.filter(|s| record.seats.get(s.index()).is_some_and(|h| h.is_bot)) {
            plan.jobs.push(bot_job(record, now, plan.clock.rev, seat));
        }
        if !self.core.store.apply_turn_plan(game, &plan).await? {
            return Err(stale(record));
        }
        let lang = game_lang(record);
        Ok(Notice::Place {
            game,
            text: text.render_with(lang, &super::text_names(record)),
        })
    }

    /// Claims the jobs due now and runs them; returns what to send. One failing job is
    /// logged and retried after its lease (dropped after `max_attempts`); the others go on.
    pub async fn run_due_jobs(self, worker: &str, limit: u32) -> Result<Vec<Notice>, ServiceError> {
        Ok(self.run_due_jobs_counted(worker, limit).await?.1)
    }

    /// [`Clocks::run_due_jobs`], with how many jobs were claimed (those that had nothing left
    /// to do included): a full batch means more may be due.
    pub async fn run_due_jobs_counted(
        self,
        worker: &str,
        limit: u32,
    ) -> Result<(usize, Vec<Notice>), ServiceError> {
        let run = self.run_due_jobs_timed(worker, limit).await?;
        Ok((run.claimed, run.notices))
    }

    /// Claims up to `limit` due jobs and runs them, [`Timers::scheduler_concurrency`] at once.
    /// The jobs of one game run one after another, in the order they were due (a deadline
    /// and a reminder of one turn never race); different games run side by side. Exactly once
    /// across processes is the claim's (see `Store::claim_due_jobs`) and the fenced effects'
    /// (a game's version, `complete_claimed`), not this process's order.
    pub async fn run_due_jobs_timed(
        self,
        worker: &str,
        limit: u32,
    ) -> Result<JobsRun, ServiceError> {
        let now = self.core.now();
        let jobs = self
            .core
            .store
            .claim_due_jobs(now, limit, worker, self.core.timers.lease_secs)
            .await?;
        let claimed = jobs.len();
        // Jobs by game, in due order (claimed jobs come sorted); a job of no game alone.
        let mut groups: Vec<Vec<(usize, JobRecord)>> = Vec::new();
        let mut group_of: std::collections::HashMap<GameId, usize> =
            std::collections::HashMap::new();
        for (i, job) in jobs.into_iter().enumerate() {
            match job.game.and_then(|g| group_of.get(&g).copied()) {
                Some(at) => groups[at].push((i, job)),
                None => {
                    if let Some(g) = job.game {
                        group_of.insert(g, groups.len());
                    }
                    groups.push(vec![(i, job)]);
                }
            }
        }
        let bound = std::sync::Arc::new(tokio::sync::Semaphore::new(
            self.core.timers.scheduler_concurrency.max(1),
        ));
        // Each job runs in its own task: an error or even a panic in one job is logged and
        // the others go on (the job's lease lapses and it is retried, then dropped).
        let tasks: Vec<_> = groups
            .into_iter()
            .map(|group| {
                let (core, worker, bound) = (
                    self.core.clone(),
                    worker.to_string(),
                    std::sync::Arc::clone(&bound),
                );
                tokio::spawn(async move {
                    let _permit = bound.acquire_owned().await.ok();
                    let mut done = Vec::with_capacity(group.len());
                    for (i, job) in group {
                        let fired = {
                            let (core, job, worker) = (core.clone(), job.clone(), worker.clone());
                            tokio::spawn(async move {
                                Clocks { core: &core }.fire(&job, &worker, now).await
                            })
                            .await
                        };
                        let fired = match fired {
                            Ok(Ok(notices)) => Ok(notices),
                            Ok(Err(e)) => Err(e.to_string()),
                            Err(panicked) => Err(format!("the job panicked: {panicked}")),
                        };
                        Clocks { core: &core }.job_ran(&job, fired.is_ok());
                        done.push((i, job, fired, std::time::Instant::now()));
                    }
                    done
                })
            })
            .collect();
        let mut finished = Vec::with_capacity(claimed);
        for task in tasks {
            match task.await {
                Ok(done) => finished.extend(done),
                // The group's task only awaits tasks of its own: it does not panic.
                Err(e) => tracing::error!(error = %e, "a scheduler task ended abnormally"),
            }
        }
        finished.sort_by_key(|(i, ..)| *i);
        let mut run = JobsRun {
            claimed,
            ..JobsRun::default()
        };
        for (_, job, fired, at) in finished {
            run.finished.push(JobDone {
                kind: job.kind,
                due_at: job.due_at,
                attempts: job.attempts,
                at,
                ok: fired.is_ok(),
            });
            let failure = match fired {
                Ok(mut notices) => {
                    run.notices.append(&mut notices);
                    continue;
                }
                Err(failure) => failure,
            };
            tracing::warn!(job = job.id, kind = %job.kind, attempts = job.attempts, error = %failure, "job failed");
            if job.attempts >= self.core.timers.max_attempts {
                tracing::error!(job = job.id, kind = %job.kind, "job dropped after repeated failures");
                if let Err(e) = self.core.drop_job(&job, worker).await {
                    tracing::warn!(job = job.id, error = %e, "could not drop a failed job");
                }
            }
        }
        Ok(run)
    }

    /// A job ran: counted by kind and result, and how late it finished after it was due.
    fn job_ran(self, job: &JobRecord, ok: bool) {
        let kind = job.kind.as_str();
        let result = if ok { "done" } else { "failed" };
        metrics::counter!(crate::ops::JOBS, "kind" => kind, "result" => result).increment(1);
        let late = self.core.now().saturating_sub(job.due_at).max(0);
        #[allow(clippy::cast_precision_loss, reason = "seconds, far below 2^52")]
        metrics::histogram!(crate::ops::JOB_LATENESS_SECONDS, "kind" => kind).record(late as f64);
    }

    /// How many games are running, in every process (the bot's presence).
    pub async fn games_running(self) -> Result<i64, ServiceError> {
        let live = self.core.store.live_games_by_kind().await?;
        Ok(live.iter().map(|(_, n)| n).sum())
    }

    /// Sets the gauges read from the database (all processes' figures): games running by
    /// game, jobs due and not held, jobs planned. Called just before a scrape.
    pub async fn refresh_gauges(self) {
        match self.core.store.live_games_by_kind().await {
            Ok(live) => {
                for kind in crate::engine::GameKind::ALL {
                    let n = live.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n);
                    #[allow(clippy::cast_precision_loss, reason = "a count of games")]
                    metrics::gauge!(crate::ops::GAMES_LIVE, "game" => kind.id()).set(n as f64);
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not count the live games"),
        }
        match self.core.store.job_queue(self.core.now()).await {
            Ok((due, planned)) => {
                #[allow(clippy::cast_precision_loss, reason = "a count of jobs")]
                {
                    metrics::gauge!(crate::ops::SCHEDULER_DUE).set(due as f64);
                    metrics::gauge!(crate::ops::SCHEDULER_PLANNED).set(planned as f64);
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not count the jobs"),
        }
    }

    async fn fire(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        match job.kind {
            JobKind::Deadline => self.fire_deadline(job, worker, now).await,
            JobKind::Bot => self.fire_bot(job, worker, now).await,
            JobKind::Remind => self.fire_reminder(job, worker, now).await,
            JobKind::Digest => {
                // The digest is the players' own: its job only runs here.
                super::Players { core: self.core }
                    .fire_digest(job, worker, now)
                    .await
            }
            JobKind::Lobby => self.fire_lobby(job, worker, now).await,
            JobKind::Archive => self.fire_archive(job, worker).await,
        }
    }

    /// The game and seat of a turn job that still applies; otherwise the job is dropped.
    async fn current_turn(
        self,
        job: &JobRecord,
        worker: &str,
    ) -> Result<Option<(Loaded, Seat, bool)>, ServiceError> {
        let payload: Option<TurnJob> = serde_json::from_str(&job.payload).ok();
        let loaded = match (job.game, payload) {
            (Some(game), Some(_)) => match self.core.load(game).await {
                Ok(l) => Some(l),
                Err(ServiceError::NoGame(_) | ServiceError::Lobby(LobbyError::NotStarted(_))) => {
                    None
                }
                Err(e) => return Err(e),
            },
            _ => None,
        };
        let current = match (loaded, payload) {
            (Some(l), Some(p))
                if l.record.status == GameStatus::Active
                    && l.record.clock.rev == p.rev
                    && l.record.clock.seat == Some(Seat(p.seat)) =>
            {
                Some((l, Seat(p.seat), p.last))
            }
            _ => None,
        };
        if current.is_none() {
            // The game moved on, ended, or the job is unreadable: nothing to do.
            self.core.drop_job(job, worker).await?;
        }
        Ok(current)
    }

    pub(super) async fn fire_deadline(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let Some((loaded, seat, _)) = self.current_turn(job, worker).await? else {
            return Ok(Vec::new());
        };
        if loaded.record.clock.deadline_at.is_none_or(|d| d > now) {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        }
        let lang = game_lang(&loaded.record);
        match loaded.record.policy {
            TimeoutPolicy::Open => self.open_seat(loaded, seat, now).await,
            TimeoutPolicy::Skip => match loaded.game.timeout_pass(seat) {
                Some(pass) => {
                    let why = Text::new("bot.timeout.skipped").arg("seat", seat);
                    self.play_for_seat(loaded, seat, Some(pass), Some(why), lang, now)
                        .await
                }
                None => {
                    let why = Text::new("bot.timeout.no_skip").arg("seat", seat);
                    self.play_for_seat(loaded, seat, None, Some(why), lang, now)
                        .await
                }
            },
            TimeoutPolicy::Bot => {
                let why = Text::new("bot.timeout.played").arg("seat", seat);
                self.play_for_seat(loaded, seat, None, Some(why), lang, now)
                    .await
            }
        }
    }

    /// A finished game's grace is over: its thread is archived (removed by this claim first,
    /// so it is asked at most once).
    async fn fire_archive(
        self,
        job: &JobRecord,
        worker: &str,
    ) -> Result<Vec<Notice>, ServiceError> {
        let game = job.game;
        let ended = match game {
            Some(g) => match self.core.store.game(g).await {
                Ok(r) => matches!(r.status, GameStatus::Finished | GameStatus::Cancelled),
                Err(StoreError::NotFound(_)) => false,
                Err(e) => return Err(e.into()),
            },
            None => false,
        };
        if !self.core.drop_job(job, worker).await? || !ended {
            return Ok(Vec::new());
        }
        Ok(game
            .map(|game| Notice::Archive { game })
            .into_iter()
            .collect())
    }

    /// An idle lobby closes: cancelled, and its message says why. A lobby touched since the job
    /// was planned waits until it has been idle for the whole time.
    async fn fire_lobby(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let Some(game) = job.game else {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        };
        let record = match self.core.store.game(game).await {
            Ok(r) if r.status == GameStatus::Lobby => r,
            Ok(_) | Err(StoreError::NotFound(_)) => {
                self.core.drop_job(job, worker).await?;
                return Ok(Vec::new());
            }
            Err(e) => return Err(e.into()),
        };
        let due = record
            .updated_at
            .saturating_add(self.core.timers.lobby_idle_secs);
        if due > now {
            self.core
                .store
                .postpone_claimed(job.id, worker, job.attempts, due)
                .await?;
            return Ok(Vec::new());
        }
        match self
            .core
            .store
            .set_status(game, record.version, GameStatus::Cancelled, now)
            .await
        {
            Ok(_) => {}
            // Someone joined or started it just now: it is not idle.
            Err(StoreError::Conflict { .. }) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        }
        self.core.drop_job(job, worker).await?;
        let hours = self.core.timers.lobby_idle_secs / HOUR;
        let text = Text::new("bot.lobby.idle_closed")
            .arg("game", record.kind.display_name())
            .arg("id", game.0)
            .arg("hours", hours.max(1))
            .render(game_lang(&record));
        Ok(vec![Notice::LobbyClosed { game, text }])
    }

    async fn fire_bot(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let Some((loaded, seat, _)) = self.current_turn(job, worker).await? else {
            return Ok(Vec::new());
        };
        if !loaded
            .record
            .seats
            .get(seat.index())
            .is_some_and(|s| s.is_bot)
        {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        }
        let lang = game_lang(&loaded.record);
        self.play_for_seat(loaded, seat, None, None, lang, now)
            .await
    }

    /// Plays for `seat`: the pass option if given, else seeded random legal options until
    /// another seat decides or the game ends. A game that moved on meanwhile is left alone.
    async fn play_for_seat(
        self,
        loaded: Loaded,
        seat: Seat,
        pass: Option<String>,
        why: Option<Text>,
        lang: Lang,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        // A reason is given when the clock plays for a seat whose time ran out.
        let mover = if why.is_some() {
            Mover::Timeout(seat)
        } else {
            Mover::Bot
        };
        let hands_before = output::private_views(loaded.game.as_ref());
        let mut work = loaded.game.clone();
        let mut applied: Vec<AppliedMove> = Vec::new();
        if let Some(pass) = pass {
            applied.push(work.apply_notation(seat, &pass)?);
        } else {
            // Seeded by the game, the clock revision and the version: the same situation
            // gives the same choice, and nothing else is needed to replay it.
            let mix = seed_from_i64(loaded.record.seed)
                ^ u64::from_ne_bytes(loaded.record.clock.rev.to_ne_bytes())
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ u64::from(loaded.record.version.0);
            let level = loaded.record.bot_level;
            // A bot thinks for up to a second: off the async workers.
            let (back, played) =
                tokio::task::spawn_blocking(move || bot_turn(work, seat, level, mix))
                    .await
                    .map_err(|e| ServiceError::Task(e.to_string()))?;
            work = back;
            applied.extend(played?);
        }
        // Names do not change with a move: taken now, no second read for the reason's text.
        let names = super::text_names(&loaded.record);
        let loaded = Loaded {
            record: loaded.record,
            game: work,
        };
        let mut out = match self
            .core
            .commit_applied(loaded, applied, &hands_before, lang, now, mover)
            .await
        {
            Ok(out) => out,
            // Someone moved, or the clock changed, first: this job's turn is over.
            Err(ServiceError::Play(PlayError::Stale { .. })) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        if let Some(why) = why {
            let why = why.render_with(lang, &names);
            out.board.text = format!("{why}\n{}", out.board.text);
        }
        Ok(vec![Notice::Board(Box::new(out))])
    }

    /// The timeout policy `open`: the seat waits for a new player, the clock stops.
    async fn open_seat(
        self,
        loaded: Loaded,
        seat: Seat,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let record = &loaded.record;
        let Some(holder) = record.seats.get(seat.index()) else {
            return Ok(Vec::new());
        };
        let plan = TurnPlan {
            from_rev: record.clock.rev,
            clock: TurnClock {
                rev: record.clock.rev + 1,
                seat: Some(seat),
                started_at: Some(now),
                deadline_at: None,
                paused_left: None,
            },
            jobs: Vec::new(),
            seats: vec![crate::store::SeatChange {
                seat,
                user: None,
                name: holder.name.clone(),
                is_bot: false,
                vacant: true,
            }],
            attendance: Vec::new(),
        };
        if !self.core.store.apply_turn_plan(record.id, &plan).await? {
            return Ok(Vec::new());
        }
        let mut text = Text::new("bot.timeout.opened")
            .arg("seat", seat)
            .arg("n", seat.index() + 1)
            .render_with(game_lang(record), &super::text_names(record));
        let (told, offers) =
            super::substitutes::tell_substitutes(self.core, record, seat, now).await?;
        if let Some(line) = told {
            text.push('\n');
            text.push_str(&line);
        }
        let mut notices = vec![Notice::Place {
            game: record.id,
            text,
        }];
        notices.extend(offers);
        Ok(notices)
    }

    async fn fire_reminder(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let Some((loaded, seat, last)) = self.current_turn(job, worker).await? else {
            return Ok(Vec::new());
        };
        let record = &loaded.record;
        let holder = record.seats.get(seat.index());
        let (Some(user), Some(deadline)) = (
            holder
                .filter(|h| !h.is_bot && !h.vacant)
                .and_then(|h| h.user),
            record.clock.deadline_at,
        ) else {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        };
        let settings = self.core.store.user_settings(user).await?;
        // A muted game sends no reminder but the last call (see `service::pings`).
        if !last && self.core.store.game_pings(record.id, user).await? == GamePings::Mute {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        }
        let away = settings.vacation_until.is_some_and(|v| v > now);
        let wake = after_quiet(
            now,
            Zone::of(settings.timezone.as_deref()),
            quiet_of(&settings),
        );
        if !away && wake > now && wake < deadline {
            // Quiet hours (set after the plan was made): later, still before the deadline,
            // unless another reminder of this turn comes by then (one message is enough).
            let covered = self
                .core
                .store
                .jobs_for_game(record.id)
                .await?
                .iter()
                .any(|j| j.id != job.id && j.kind == JobKind::Remind && j.due_at <= wake);
            if covered {
                self.core.drop_job(job, worker).await?;
            } else {
                self.core
                    .store
                    .postpone_claimed(job.id, worker, job.attempts, wake)
                    .await?;
            }
            return Ok(Vec::new());
        }
        // Removed by this claim before anything is sent: a reminder goes at most once. Late
        // ones (after an outage) are pointless once the time is up.
        if !self.core.drop_job(job, worker).await? || away || wake > now || now >= deadline {
            return Ok(Vec::new());
        }
        let lang = settings
            .locale
            .as_deref()
            .map_or_else(|| game_lang(record), Lang::from_locale);
        let key = if last {
            "bot.remind.last_call"
        } else {
            "bot.remind.turn"
        };
        let text = Text::new(key)
            .arg("game", record.kind.display_name())
            .arg("id", record.id.0)
            .arg("due", due(deadline))
            .arg("link", place_link(record))
            .render(lang);
        let fallback = Text::new("bot.remind.fallback")
            .arg("user", mention(user))
            .arg("due", due(deadline))
            .render(game_lang(record));
        if !settings.dm_enabled {
            return Ok(vec![Notice::Call {
                game: record.id,
                users: vec![user],
                text: fallback,
            }]);
        }
        Ok(vec![Notice::Dm {
            user,
            game: Some(record.id),
            text,
            fallback: Some(fallback),
        }])
    }
}

/// Time left after `/clock extend`: at most [`MAX_TURN_SECS`], so no deadline can overflow.
fn extended(left: i64, secs: i64) -> Result<i64, LobbyError> {
    let left = left.saturating_add(secs);
    if left > MAX_TURN_SECS {
        return Err(LobbyError::clock_range());
    }
    Ok(left)
}

/// What one pass of the scheduler did ([`Clocks::run_due_jobs_timed`]).
#[derive(Debug, Default)]
pub struct JobsRun {
    /// Jobs claimed, those that had nothing left to do included: a full batch means more may
    /// be due.
    pub claimed: usize,
    /// What to send, in the order the jobs were due.
    pub notices: Vec<Notice>,
    /// Each claimed job as it finished, in the order they were due.
    pub finished: Vec<JobDone>,
}

/// One job of a [`JobsRun`].
#[derive(Clone, Debug)]
pub struct JobDone {
    pub kind: JobKind,
    pub due_at: i64,
    /// Its claims so far, this one included: more than 1 when an earlier claim's lease ran
    /// out (a worker died or took too long) or the job failed before.
    pub attempts: i64,
    /// When it finished (real time).
    pub at: std::time::Instant,
    /// It did its work (or found nothing left to do); false: it failed and waits for a retry.
    pub ok: bool,
}

/// Lets the seat's bot (src/ai) decide, from that seat's views only, until another seat must
/// decide or the game ends. Returns the game and the options played.
fn bot_turn(
    mut work: Box<dyn AnyGame>,
    seat: Seat,
    level: crate::ai::Level,
    seed: u64,
) -> (Box<dyn AnyGame>, Result<Vec<AppliedMove>, PlayError>) {
    let mut rng = crate::engine::GameRng::seed_from_u64(seed);
    let mut applied = Vec::new();
    for _ in 0..MAX_AUTO_STEPS {
        let Some(prompt) = work.prompt() else { break };
        if prompt.seat != seat || prompt.options.is_empty() {
            break;
        }
        let pick = match work.bot_option(level, rng.next_u64()) {
            Some(m) => m.notation,
            None => prompt.options[rng.gen_range(0..prompt.options.len())].clone(),
        };
        match work.apply_notation(seat, &pick) {
            Ok(m) => applied.push(m),
            Err(e) => return (work, Err(e)),
        }
    }
    (work, Ok(applied))
}
