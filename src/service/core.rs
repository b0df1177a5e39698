//! What every use case shares: the store, the clock, the timers, and the steps of a turn that
//! more than one use case takes (load a game, find a seat, commit applied options with the next
//! turn's plan, plan and start a clock, fill in the players' settings).

use super::*;
use crate::clock::Quiet;
use crate::clock::Zone;
use crate::clock::{MAX_TURN_SECS, MIN_TURN_SECS};
use crate::store::{Attendance, JobRecord, NewJob, TurnClock, TurnPlan, UserSettings};
use serde::{Deserialize, Serialize};

/// See the module. One per [`Service`]; the use cases borrow it.
#[derive(Clone)]
pub(crate) struct Core {
    pub(super) store: Store,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) timers: Timers,
    /// Woken when a job becomes due now (a bot seat to play), so the scheduler need not wait
    /// for its next tick.
    pub(super) wake: Arc<tokio::sync::Notify>,
}

impl Core {
    /// The plan for the turn that follows a change, or `None` when the same seat still decides
    /// (unless `new_turn`). A bot seat gets a job due now; an open seat waits; a human seat
    /// gets the deadline (after their vacation, if any) and reminders.
    pub(crate) async fn plan_turn(
        &self,
        record: &GameRecord,
        game: &dyn AnyGame,
        now: i64,
        new_turn: bool,
    ) -> Result<Option<TurnPlan>, ServiceError> {
        let seat = game.prompt().map(|p| p.seat);
        if !new_turn && seat == record.clock.seat {
            return Ok(None);
        }
        let mut plan = TurnPlan {
            from_rev: record.clock.rev,
            clock: TurnClock {
                rev: record.clock.rev + 1,
                seat,
                started_at: seat.map(|_| now),
                deadline_at: None,
                paused_left: None,
            },
            jobs: Vec::new(),
            seats: Vec::new(),
            attendance: Vec::new(),
        };
        let Some(seat) = seat else {
            return Ok(Some(plan));
        };
        let Some(holder) = record.seats.get(seat.index()) else {
            return Ok(Some(plan));
        };
        if holder.is_bot {
            plan.jobs.push(bot_job(record, now, plan.clock.rev, seat));
            return Ok(Some(plan));
        }
        // Stored lengths from before the cap are capped here too.
        let Some(len) = record
            .clock_secs
            .filter(|_| !holder.vacant)
            .map(|l| l.clamp(MIN_TURN_SECS, MAX_TURN_SECS))
        else {
            return Ok(Some(plan));
        };
        if record.clock.paused_left.is_some() {
            // The host paused the clock: the new turn waits with its full time.
            plan.clock.paused_left = Some(len);
            return Ok(Some(plan));
        }
        let settings = self.holder_settings(record, seat).await?;
        let start = settings.vacation_until.map_or(now, |v| v.max(now));
        self.run_clock(
            &mut plan,
            record.id,
            seat,
            start,
            start.saturating_add(len),
            &settings,
            now,
        );
        Ok(Some(plan))
    }

    /// Runs the clock of `plan` until `deadline`: the deadline job and the reminders still to
    /// come of a turn that started at `start`.
    #[allow(clippy::too_many_arguments, reason = "plain values of one turn")]
    pub(super) fn run_clock(
        &self,
        plan: &mut TurnPlan,
        game: GameId,
        seat: Seat,
        start: i64,
        deadline: i64,
        settings: &UserSettings,
        now: i64,
    ) {
        plan.clock.deadline_at = Some(deadline);
        plan.clock.paused_left = None;
        let rev = plan.clock.rev;
        plan.jobs.push(turn_job(
            JobKind::Deadline,
            game,
            deadline,
            rev,
            seat,
            false,
        ));
        let zone = Zone::of(settings.timezone.as_deref());
        for (at, last) in self
            .timers
            .reminders(start, deadline, now, zone, quiet_of(settings))
        {
            plan.jobs
                .push(turn_job(JobKind::Remind, game, at, rev, seat, last));
        }
    }

    /// The same clock under a new revision, its jobs planned again (after a seat change that
    /// does not touch the turn, or to re-plan after a restart).
    pub(crate) async fn replan_current(
        &self,
        record: &GameRecord,
        now: i64,
    ) -> Result<TurnPlan, ServiceError> {
        let mut plan = same_clock(&record.clock);
        let Some(seat) = record.clock.seat else {
            return Ok(plan);
        };
        let holder = record.seats.get(seat.index());
        if holder.is_some_and(|h| h.is_bot) {
            plan.jobs.push(bot_job(record, now, plan.clock.rev, seat));
        } else if let Some(deadline) = record.clock.deadline_at {
            let settings = self.holder_settings(record, seat).await?;
            let start = record.clock.started_at.unwrap_or(now);
            self.run_clock(&mut plan, record.id, seat, start, deadline, &settings, now);
        }
        Ok(plan)
    }

    pub(super) async fn holder_settings(
        &self,
        record: &GameRecord,
        seat: Seat,
    ) -> Result<UserSettings, ServiceError> {
        match record.seats.get(seat.index()).and_then(|s| s.user) {
            Some(u) => Ok(self.store.user_settings(u).await?),
            None => Ok(UserSettings::default()),
        }
    }

    pub(crate) fn wake_if_due(&self, plan: &TurnPlan, now: i64) {
        if plan.jobs.iter().any(|j| j.due_at <= now) {
            self.wake.notify_one();
        }
    }

    /// Starts the clock of a game that just started (or was stored before clocks existed).
    pub(crate) async fn start_clock(
        &self,
        loaded: &mut Loaded,
        now: i64,
    ) -> Result<(), ServiceError> {
        if let Some(plan) = self
            .plan_turn(&loaded.record, loaded.game.as_ref(), now, true)
            .await?
        {
            if self.store.apply_turn_plan(loaded.record.id, &plan).await? {
                loaded.record.clock = plan.clock;
                self.wake_if_due(&plan, now);
            }
        }
        Ok(())
    }

    /// The current time, from the injected clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Loads a game and its engine state from the snapshot.
    pub async fn load(&self, id: GameId) -> Result<Loaded, ServiceError> {
        let record = self.store.game(id).await?;
        if record.status == GameStatus::Lobby {
            return Err(LobbyError::NotStarted(id).into());
        }
        let game = GameKind::load(&record.state)
            .map_err(|error| ServiceError::Load { game: id, error })?;
        Ok(Loaded { record, game })
    }

    pub(crate) fn seat_of(&self, loaded: &Loaded, actor: Actor) -> Result<Seat, ServiceError> {
        match actor {
            Actor::Seat(seat) if seat.index() < loaded.game.seat_count() => Ok(seat),
            Actor::Seat(_) => Err(ServiceError::NotSeated),
            Actor::User(user) => loaded
                .record
                .seats
                .iter()
                .position(|s| s.user == Some(user))
                .map(Seat::at)
                .ok_or(ServiceError::NotSeated),
        }
    }

    /// Loads a running game, refusing it if the actor saw another version (a click on an old
    /// board).
    pub(crate) async fn load_active(
        &self,
        game: GameId,
        seen: Option<Version>,
    ) -> Result<Loaded, ServiceError> {
        let loaded = self.load(game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        match seen {
            Some(seen) if seen != loaded.record.version => Err(PlayError::Stale {
                expected: seen,
                found: loaded.record.version,
            }
            .into()),
            _ => Ok(loaded),
        }
    }

    /// Plays the applied options (already on `loaded.game`) into the store with the next
    /// turn's plan, and builds the outputs.
    pub(crate) async fn commit_applied(
        &self,
        mut loaded: Loaded,
        applied: Vec<AppliedMove>,
        hands_before: &[Option<serde_json::Value>],
        lang: Lang,
        now: i64,
        mover: Mover,
    ) -> Result<Outputs, ServiceError> {
        let lang = public_lang(&loaded.record, lang);
        let status = if loaded.game.outcome().is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        };
        let moves: Vec<crate::store::NewMove> = applied
            .iter()
            .map(|m| crate::store::NewMove {
                seat: m.seat,
                notation: m.notation.clone(),
                barrier: m.barrier,
                revealed: m.revealed,
            })
            .collect();
        let mut plan = self
            .plan_turn(
                &loaded.record,
                loaded.game.as_ref(),
                now,
                mover != Mover::Player,
            )
            .await?;
        if let Some(plan) = plan.as_mut() {
            match mover {
                Mover::Timeout(seat) => plan.attendance.push((seat, Attendance::Missed)),
                // The turn passed on by a member's own move: a deadline met (their record),
                // and a count of missed deadlines cleared.
                Mover::Player => {
                    for m in &applied {
                        let back = (m.seat, Attendance::Played);
                        if !plan.attendance.contains(&back) {
                            plan.attendance.push(back);
                        }
                    }
                }
                Mover::Bot => {}
            }
        }
        if status == GameStatus::Finished {
            // The end replaces the game's jobs: only the archive of its thread, after a grace.
            let plan = plan.get_or_insert_with(|| same_clock(&loaded.record.clock));
            plan.jobs.push(self.archive_job(loaded.record.id, now));
        }
        let ranks = loaded.game.outcome().map(|o| o.ranks).unwrap_or_default();
        let version = self
            .store
            .record_moves_planned(
                loaded.record.id,
                loaded.record.version,
                &moves,
                &loaded.game.to_json(),
                status,
                now,
                plan.as_ref(),
                &ranks,
            )
            .await
            .map_err(|e| match e {
                StoreError::ClockChanged(_) => stale(&loaded.record),
                other => ServiceError::from(other),
            })?;
        if mover == Mover::Player {
            // A person played: the game is not idle (its boards post again).
            self.store.set_human_move_at(loaded.record.id, now).await?;
            loaded.record.human_move_at = Some(now);
        }
        metrics::counter!(crate::ops::MOVES, "game" => loaded.record.kind.id())
            .increment(u64::try_from(applied.len()).unwrap_or(u64::MAX));
        loaded.record.version = version;
        loaded.record.status = status;
        if let Some(plan) = &plan {
            loaded.record.clock = plan.clock;
            self.wake_if_due(plan, now);
        }
        let before = hands_before.to_vec();
        let out =
            rendering(move || output::after_change_since(&loaded, &applied, lang, &before)).await?;
        Ok(self.with_settings(out).await)
    }

    /// Fills in what the players' own settings say about posting `out`: a board whose
    /// mentioned player turned pings off goes out silently, and a hand goes by DM only to a
    /// player who keeps hand DMs on. A settings read that fails keeps the defaults (a ping, a
    /// DM): a missed preference is better than a missed turn.
    pub(super) async fn with_settings(&self, mut out: Outputs) -> Outputs {
        // Each user's settings are read once: the pinged player often also gets a hand.
        let mut read: Vec<(i64, Option<crate::store::UserSettings>)> = Vec::new();
        let users = out
            .board
            .mention
            .into_iter()
            .chain(out.private.iter().filter_map(|p| p.user));
        for user in users {
            if read.iter().any(|(u, _)| *u == user) {
                continue;
            }
            match self.store.user_settings(user).await {
                Ok(s) => read.push((user, Some(s))),
                Err(e) => {
                    tracing::warn!(game = %out.board.game, error = %e, "could not read a player's settings");
                    read.push((user, None));
                }
            }
        }
        let of = |user: i64| {
            read.iter()
                .find(|(u, _)| *u == user)
                .and_then(|(_, s)| s.as_ref())
        };
        if let Some(s) = out.board.mention.and_then(of) {
            out.board.silent = !s.pings;
        }
        for post in &mut out.private {
            if let Some(s) = post.user.and_then(of) {
                post.by_dm = s.hand_dms;
            }
        }
        out
    }

    /// The job that archives a game's thread once its grace after the end is over.
    pub(super) fn archive_job(&self, game: GameId, now: i64) -> NewJob {
        NewJob {
            due_at: now.saturating_add(self.timers.archive_grace_secs.max(0)),
            kind: JobKind::Archive,
            game: Some(game),
            user: None,
            payload: String::new(),
        }
    }

    /// Removes a job that has nothing (more) to do, if this claim still holds it.
    pub(super) async fn drop_job(
        &self,
        job: &JobRecord,
        worker: &str,
    ) -> Result<bool, ServiceError> {
        Ok(self
            .store
            .complete_claimed(job.id, worker, job.attempts)
            .await?)
    }

    /// The user's games, with whose turn it is and when its time runs out: the games where it
    /// is their turn first, then the other running games, each by nearest deadline; then open
    /// lobbies and ended games, most recent first.
    pub(super) async fn games_of_user(
        &self,
        user: i64,
        limit: u32,
    ) -> Result<Vec<GameLine>, ServiceError> {
        let records = self.store.games_of_user(user, None, limit).await?;
        let mut out = Vec::with_capacity(records.len());
        for record in records {
            let kind = record.kind;
            let turn_seat = if record.status == GameStatus::Active {
                GameKind::load(&record.state)
                    .ok()
                    .and_then(|g| g.prompt())
                    .and_then(|p| record.seats.get(p.seat.index()))
            } else {
                None
            };
            let clock = match (
                turn_seat,
                record.clock.deadline_at,
                record.clock.paused_left,
            ) {
                (Some(s), _, _) if s.vacant => LineClock::OpenSeat,
                (_, _, Some(_)) => LineClock::Paused,
                (_, Some(d), _) => LineClock::Due(d),
                _ => LineClock::None,
            };
            out.push(GameLine {
                game: record.id,
                kind,
                status: record.status,
                guild: record.guild,
                place: record.thread.or(record.channel),
                board: record.board_message,
                your_turn: turn_seat.is_some_and(|s| s.user == Some(user) && !s.vacant),
                turn: turn_seat.map(|s| super::text_name(&record, &s.name)),
                clock,
            });
        }
        // Stable: within a group the store's order (most recent first) stays.
        out.sort_by_key(|line| {
            let group = match line.status {
                GameStatus::Active if line.your_turn => 0,
                GameStatus::Active => 1,
                GameStatus::Lobby => 2,
                GameStatus::Finished | GameStatus::Cancelled => 3,
            };
            let deadline = match line.clock {
                LineClock::Due(at) if group < 2 => at,
                _ => i64::MAX,
            };
            (group, deadline)
        });
        Ok(out)
    }
}

/// The payload of a turn job.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(super) struct TurnJob {
    pub(super) rev: i64,
    pub(super) seat: u8,
    #[serde(default)]
    pub(super) last: bool,
}

pub(super) fn turn_job(
    kind: JobKind,
    game: GameId,
    due_at: i64,
    rev: i64,
    seat: Seat,
    last: bool,
) -> NewJob {
    let payload = TurnJob {
        rev,
        seat: seat.0,
        last,
    };
    NewJob {
        due_at,
        kind,
        game: Some(game),
        user: None,
        payload: serde_json::to_string(&payload).unwrap_or_default(),
    }
}

/// A bot seat's turn: it plays after the game's delay (none by default), so people can
/// follow what happens.
pub(super) fn bot_job(record: &GameRecord, now: i64, rev: i64, seat: Seat) -> NewJob {
    let due = now.saturating_add(record.bot_delay.clamp(0, MAX_BOT_DELAY));
    turn_job(JobKind::Bot, record.id, due, rev, seat, false)
}

/// The language of a game's public messages.
pub(super) fn game_lang(record: &GameRecord) -> Lang {
    record.lang.unwrap_or_default()
}

/// The language of what a change posts in a game's place: the one the game was opened with
/// (whoever clicked), so the whole game reads in its lobby's language; `asked` only for a game
/// stored before games kept theirs.
pub(super) fn public_lang(record: &GameRecord, asked: Lang) -> Lang {
    record.lang.unwrap_or(asked)
}

/// Who made a change: a player (their turn may go on), a bot seat, or the clock playing for a
/// seat whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mover {
    Player,
    Bot,
    Timeout(Seat),
}

/// The plan that keeps `clock` under the next revision, with no jobs yet.
pub(super) fn same_clock(clock: &TurnClock) -> TurnPlan {
    TurnPlan {
        from_rev: clock.rev,
        clock: TurnClock {
            rev: clock.rev + 1,
            ..*clock
        },
        jobs: Vec::new(),
        seats: Vec::new(),
        attendance: Vec::new(),
    }
}

/// A refused write because the game or its clock moved: the user reloads.
pub(super) fn stale(record: &GameRecord) -> ServiceError {
    PlayError::Stale {
        expected: record.version,
        found: record.version,
    }
    .into()
}

pub(super) fn quiet_of(s: &UserSettings) -> Option<Quiet> {
    match (s.quiet_start, s.quiet_end) {
        (Some(start), Some(end)) => Some(Quiet { start, end }),
        _ => None,
    }
}

/// A turn's clock length must lie within [`MIN_TURN_SECS`, `MAX_TURN_SECS`].
pub(super) fn check_clock_len(secs: i64) -> Result<(), LobbyError> {
    if (MIN_TURN_SECS..=MAX_TURN_SECS).contains(&secs) {
        Ok(())
    } else {
        Err(LobbyError::clock_range())
    }
}

/// The longest wait a bot seat may be given before it plays, in seconds.
pub const MAX_BOT_DELAY: i64 = 60;

/// Runs `render` (drawing and encoding an image: milliseconds of CPU) on a blocking thread, so
/// concurrent jobs and clicks do not wait behind it on the async workers: boards after a move
/// or a start, and every image a member asks for (a board, Zoom, a hand, a replay step).
pub(super) async fn rendering<T: Send + 'static>(
    render: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(render)
        .await
        .map_err(|e| ServiceError::Task(e.to_string()))
}
