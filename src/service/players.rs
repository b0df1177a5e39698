//! Players over days: their settings (time zone, quiet hours, vacation, digest, pings, hand
//! DMs), absent
//! players (`/replace`, `/kick`), the daily digest and `/stats`.

use super::core::{game_lang, quiet_of, stale};
use super::output::mention;
use super::output::{self, Notice};
use super::{Actor, Loaded, LobbyError, Players, ServiceError};
use crate::clock::{after_quiet, Date, Quiet, Zone};
use crate::engine::{GameId, Seat};
use crate::i18n::{Lang, Text};
use crate::model::JobKind;
use crate::store::{
    DmStatus, GameRecord, GameStatus, JobRecord, NewJob, SeatChange, SeatRequest, UserSettings,
};

/// A `/settings` change: each `Some` field is set, the others are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// An IANA name (checked).
    pub timezone: Option<String>,
    /// `Some(None)` turns quiet hours off.
    pub quiet: Option<Option<Quiet>>,
    /// Away until the start of that day in the player's time zone; `Some(None)` is back.
    pub vacation: Option<Option<Date>>,
    pub digest: Option<bool>,
    /// Boards that mention them notify; off: they are sent silently (reminders still notify).
    pub pings: Option<bool>,
    /// Their hand by DM on every change; off: they pull it with "Show my hand" or `/hand`.
    pub hand_dms: Option<bool>,
    /// Options that would end their turn are asked about privately first.
    pub confirm_moves: Option<bool>,
    /// Their own reminder points (`/settings reminders:`); a running turn keeps its plan.
    pub reminders: Option<super::ReminderChoice>,
    /// The user's Discord locale, kept for DMs sent without an interaction.
    pub locale: Option<String>,
}

/// Who takes a seat in `/replace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Newcomer {
    User {
        id: i64,
        name: String,
    },
    /// Random legal options, played by the scheduler.
    Bot,
}

impl Players<'_> {
    /// Records whether a DM to `user` about `game` went through. Returns true when this is
    /// the first failure (the front end then tells the player once, in public, that their hand
    /// is served privately).
    pub async fn record_dm(self, game: GameId, user: i64, ok: bool) -> Result<bool, ServiceError> {
        let record = self.core.store.game(game).await?;
        let before = record
            .seats
            .iter()
            .find(|s| s.user == Some(user))
            .map(|s| s.dm_status);
        let status = if ok { DmStatus::Open } else { DmStatus::Closed };
        if before != Some(status) {
            self.core.store.set_dm_status(game, user, status).await?;
        }
        Ok(!ok && before.is_some_and(|b| b != DmStatus::Closed))
    }

    /// The DM channel kept for `user` (opened once, kept across processes and restarts).
    pub async fn dm_channel(self, user: i64) -> Result<Option<i64>, ServiceError> {
        Ok(self.core.store.dm_channel(user).await?)
    }

    /// Keeps `channel` as `user`'s DM channel; `None` forgets it (Discord no longer knows it).
    pub async fn keep_dm_channel(
        self,
        user: i64,
        channel: Option<i64>,
    ) -> Result<(), ServiceError> {
        let now = self.core.now();
        Ok(self.core.store.set_dm_channel(user, channel, now).await?)
    }

    /// Applies a settings change; returns the settings and what to tell the games (a
    /// vacation pauses the player's clocks and the other players are told).
    pub async fn update_settings(
        self,
        user: i64,
        change: SettingsChange,
        now: i64,
    ) -> Result<(UserSettings, Vec<Notice>), ServiceError> {
        let before = self.core.store.user_settings(user).await?;
        let mut s = before.clone();
        if let Some(tz) = &change.timezone {
            let name =
                Zone::canonical_name(tz).ok_or_else(|| LobbyError::UnknownZone(tz.clone()))?;
            s.timezone = Some(name.to_string());
        }
        if let Some(q) = change.quiet {
            s.quiet_start = q.map(|q| q.start);
            s.quiet_end = q.map(|q| q.end);
        }
        if let Some(locale) = change.locale {
            s.locale = Some(locale);
        }
        if let Some(vacation) = change.vacation {
            let zone = Zone::of(s.timezone.as_deref());
            s.vacation_until = match vacation {
                Some(date) => {
                    let at = zone.at_local(date, 0);
                    if at <= now {
                        return Err(LobbyError::PastDate.into());
                    }
                    Some(at)
                }
                None => None,
            };
        }
        if let Some(d) = change.digest {
            s.digest = d;
        }
        if let Some(p) = change.pings {
            s.pings = p;
        }
        if let Some(h) = change.hand_dms {
            s.hand_dms = h;
        }
        if let Some(c) = change.confirm_moves {
            s.confirm_moves = c;
        }
        if let Some(r) = &change.reminders {
            s.reminders = r.stored();
        }
        self.core.store.save_user_settings(user, &s, now).await?;
        if change.digest.is_some() || (s.digest && s.timezone != before.timezone) {
            self.schedule_digest(user, &s, now).await?;
        }
        let mut notices = Vec::new();
        if change.vacation.is_some() && s.vacation_until != before.vacation_until {
            notices = self.vacation_changed(user, &before, &s, now).await?;
        }
        Ok((s, notices))
    }

    /// The language a server chose for its public messages (`None`: each lobby's host's).
    pub async fn server_lang(self, guild: i64) -> Result<Option<Lang>, ServiceError> {
        Ok(self.core.store.guild_lang(guild).await?)
    }

    /// Sets (or, with `None`, clears) a server's language. Only a member who may manage the
    /// server (`manages_server`, as Discord computed it for them) may; anyone else is refused
    /// and nothing changes. Running games keep the language they were opened with.
    pub async fn set_server_lang(
        self,
        guild: Option<i64>,
        lang: Option<Lang>,
        manages_server: bool,
        now: i64,
    ) -> Result<Option<Lang>, ServiceError> {
        let guild = guild.ok_or(LobbyError::NoServer)?;
        if !manages_server {
            return Err(LobbyError::NotServerManager.into());
        }
        self.core.store.set_guild_lang(guild, lang, now).await?;
        Ok(lang)
    }

    /// A user's settings (the defaults for one never saved).
    pub async fn settings_of(self, user: i64) -> Result<UserSettings, ServiceError> {
        Ok(self.core.store.user_settings(user).await?)
    }

    /// Moves the deadlines of the user's running turns by the vacation, and tells each game.
    async fn vacation_changed(
        self,
        user: i64,
        before: &UserSettings,
        after: &UserSettings,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        let games = self
            .core
            .store
            .games_of_user(user, Some(GameStatus::Active), 200)
            .await?;
        for record in games {
            let lang = game_lang(&record);
            let Some(seat) = record.seats.iter().find(|s| s.user == Some(user)) else {
                continue;
            };
            let turn = record.clock.seat == Some(seat.seat);
            if let (true, Some(deadline)) = (turn, record.clock.deadline_at) {
                let old_away = before.vacation_until.filter(|v| *v > now);
                let left = deadline - old_away.unwrap_or(now).max(now);
                let start = after.vacation_until.map_or(now, |v| v.max(now));
                let mut plan = self.core.replan_current(&record, now).await?;
                plan.jobs.clear();
                self.core.run_clock(
                    &mut plan,
                    record.id,
                    seat.seat,
                    start,
                    start + left.max(0),
                    after,
                    now,
                );
                self.core.store.apply_turn_plan(record.id, &plan).await?;
            }
            let names = super::text_names(&record);
            let text = match after.vacation_until {
                Some(until) => {
                    let date = Zone::of(after.timezone.as_deref()).date(until);
                    Text::new("bot.vacation.away")
                        .arg("seat", seat.seat)
                        .arg("date", date.to_string())
                }
                None => Text::new("bot.vacation.back").arg("seat", seat.seat),
            };
            notices.push(Notice::Place {
                game: record.id,
                text: text.render_with(lang, &names),
            });
        }
        Ok(notices)
    }

    /// Plans (or removes) the user's next digest.
    async fn schedule_digest(
        self,
        user: i64,
        s: &UserSettings,
        now: i64,
    ) -> Result<(), ServiceError> {
        let job = s.digest.then(|| NewJob {
            due_at: self.next_digest(s, now),
            kind: JobKind::Digest,
            game: None,
            user: Some(user),
            payload: "{}".to_string(),
        });
        self.core
            .store
            .replace_user_job(user, JobKind::Digest, job.as_ref())
            .await?;
        Ok(())
    }

    /// The next digest time after `now`: the configured local time, after quiet hours.
    pub fn next_digest(self, s: &UserSettings, now: i64) -> i64 {
        let zone = Zone::of(s.timezone.as_deref());
        let minute = self.core.timers.digest_minute;
        let mut at = zone.at_local(zone.date(now), minute);
        if at <= now {
            at = zone.at_local(zone.date(now).next(), minute);
        }
        after_quiet(at, zone, quiet_of(s))
    }

    /// The lines of the games where it is `user`'s turn, for the digest.
    pub async fn waiting_lines(self, user: i64, lang: Lang) -> Result<Vec<String>, ServiceError> {
        Ok(self
            .core
            .games_of_user(user, 100)
            .await?
            .into_iter()
            .filter(|l| l.your_turn)
            .map(|l| l.text(lang))
            .collect())
    }

    pub(super) async fn fire_digest(
        self,
        job: &JobRecord,
        worker: &str,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let Some(user) = job.user else {
            self.core.drop_job(job, worker).await?;
            return Ok(Vec::new());
        };
        // Removed by this claim before anything is sent: one digest per day at most.
        if !self.core.drop_job(job, worker).await? {
            return Ok(Vec::new());
        }
        let s = self.core.store.user_settings(user).await?;
        if !s.digest {
            return Ok(Vec::new());
        }
        self.schedule_digest(user, &s, now).await?;
        let lang = Lang::from_locale(s.locale.as_deref().unwrap_or("en"));
        let lines = self.waiting_lines(user, lang).await?;
        if lines.is_empty() || !s.dm_enabled {
            return Ok(Vec::new());
        }
        let mut text = vec![Text::new("bot.digest.header")
            .arg("count", lines.len())
            .render(lang)];
        text.extend(lines);
        Ok(vec![Notice::Dm {
            user,
            game: None,
            text: text.join("\n"),
            fallback: None,
        }])
    }

    /// `/replace`: gives a seat of a running game to another user or to a bot (host or
    /// moderator). The newcomer gets the seat's hand; if the seat must decide now, its turn
    /// starts again with a full clock and the board is posted again.
    #[allow(clippy::too_many_arguments, reason = "one command's inputs")]
    pub async fn replace(
        self,
        game: GameId,
        actor: i64,
        is_moderator: bool,
        seat_number: usize,
        newcomer: Newcomer,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        Ok(self
            .replace_asking(game, actor, is_moderator, seat_number, newcomer, now)
            .await?
            .1)
    }

    /// [`Players::replace`], saying what happened: a seat whose hidden hand would reach a
    /// newcomer changes hands only once every other seated person agreed (each types the same
    /// `/replace`), unless it is open or a moderator who holds no seat gives it.
    #[allow(clippy::too_many_arguments, reason = "one command's inputs")]
    pub async fn replace_asking(
        self,
        game: GameId,
        actor: i64,
        is_moderator: bool,
        seat_number: usize,
        newcomer: Newcomer,
        now: i64,
    ) -> Result<(Replaced, Vec<Notice>), ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let seat = seat_index(&loaded.record.seats, seat_number)?;
        if let Newcomer::User { id, .. } = &newcomer {
            // A seated person agreeing to the request waiting for this seat.
            if let Some(request) = self.core.store.seat_request(game, seat).await? {
                let asked = must_agree(&loaded, seat, request.asked_by, request.by_moderator);
                if request.newcomer == *id && actor != request.asked_by && asked.contains(&actor) {
                    return self.agree(loaded, request, actor, &asked, now).await;
                }
            }
        }
        may_take_over(&loaded.record, seat, actor, is_moderator, now)?;
        if let Newcomer::User { id, name } = &newcomer {
            if self.core.seat_of(&loaded, Actor::User(*id)).is_ok() {
                return Err(LobbyError::AlreadyInGame.into());
            }
            let asked = must_agree(&loaded, seat, actor, is_moderator);
            if !asked.is_empty() {
                let request = SeatRequest {
                    game,
                    seat,
                    newcomer: *id,
                    name: name.clone(),
                    asked_by: actor,
                    by_moderator: is_moderator,
                    agreed: vec![actor],
                };
                self.core.store.put_seat_request(&request, now).await?;
                let lang = game_lang(&loaded.record);
                let text = Text::new("bot.replace.asked")
                    .arg("n", seat.index() + 1)
                    .arg("seat", seat)
                    .arg("by", mention(actor))
                    .arg("who", mention(*id))
                    .arg(
                        "asked",
                        asked
                            .iter()
                            .map(|u| mention(*u))
                            .collect::<Vec<_>>()
                            .join(" "),
                    )
                    .render_with(lang, &loaded.names());
                // A question to the players who must agree: it needs them.
                let users = asked.clone();
                return Ok((Replaced::Asked, vec![Notice::Call { game, users, text }]));
            }
        }
        Ok((
            Replaced::Done,
            self.hand_over(loaded, seat, newcomer, now).await?,
        ))
    }

    /// `actor` agrees to `request`: recorded, and once everyone asked agreed, the seat changes
    /// hands (the asker's rights checked again: the game may have moved on).
    async fn agree(
        self,
        loaded: Loaded,
        request: SeatRequest,
        actor: i64,
        asked: &[i64],
        now: i64,
    ) -> Result<(Replaced, Vec<Notice>), ServiceError> {
        let (game, seat) = (request.game, request.seat);
        let mut agreed = request.agreed.clone();
        if !agreed.contains(&actor) {
            agreed.push(actor);
        }
        let lang = game_lang(&loaded.record);
        let missing: Vec<i64> = asked
            .iter()
            .copied()
            .filter(|u| !agreed.contains(u))
            .collect();
        if !missing.is_empty() {
            self.core.store.set_seat_agreed(game, seat, &agreed).await?;
            let names = loaded.names();
            let name_of = |u: i64| {
                loaded
                    .record
                    .seats
                    .iter()
                    .position(|s| s.user == Some(u))
                    .and_then(|i| names.get(i).cloned())
                    .unwrap_or_default()
            };
            let text = Text::new("bot.replace.agreed")
                .arg("n", seat.index() + 1)
                .arg("who", name_of(actor))
                .arg(
                    "missing",
                    missing
                        .iter()
                        .map(|u| name_of(*u))
                        .collect::<Vec<_>>()
                        .join(", "),
                )
                .render(lang);
            return Ok((Replaced::Agreed, vec![Notice::Place { game, text }]));
        }
        if !self.core.store.drop_seat_request(game, seat).await? {
            return Err(LobbyError::NoSeatRequest(seat.index() + 1).into());
        }
        may_take_over(
            &loaded.record,
            seat,
            request.asked_by,
            request.by_moderator,
            now,
        )?;
        if self
            .core
            .seat_of(&loaded, Actor::User(request.newcomer))
            .is_ok()
        {
            return Err(LobbyError::AlreadyInGame.into());
        }
        let newcomer = Newcomer::User {
            id: request.newcomer,
            name: request.name,
        };
        Ok((
            Replaced::Done,
            self.hand_over(loaded, seat, newcomer, now).await?,
        ))
    }

    /// Gives `seat` to `newcomer` (every check passed).
    pub(super) async fn hand_over(
        self,
        mut loaded: Loaded,
        seat: Seat,
        newcomer: Newcomer,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let game = loaded.record.id;
        // Whatever was asked for this seat is settled.
        self.core.store.drop_seat_request(game, seat).await?;
        let lang = game_lang(&loaded.record);
        let old_name = loaded.record.seats[seat.index()].name.clone();
        let (user, name, is_bot) = match newcomer {
            Newcomer::User { id, name } => {
                if self.core.seat_of(&loaded, Actor::User(id)).is_ok() {
                    return Err(LobbyError::AlreadyInGame.into());
                }
                (Some(id), name, false)
            }
            Newcomer::Bot => (None, Text::new("bot.replace.bot_name").render(lang), true),
        };
        let change = SeatChange {
            seat,
            user,
            name: name.clone(),
            is_bot,
            vacant: false,
        };
        {
            let s = &mut loaded.record.seats[seat.index()];
            s.user = user;
            s.name = name;
            s.is_bot = is_bot;
            s.vacant = false;
        }
        let their_turn = loaded.game.prompt().is_some_and(|p| p.seat == seat);
        let mut plan = if their_turn {
            self.core
                .plan_turn(&loaded.record, loaded.game.as_ref(), now, true)
                .await?
                .unwrap_or(self.core.replan_current(&loaded.record, now).await?)
        } else {
            self.core.replan_current(&loaded.record, now).await?
        };
        plan.seats.push(change);
        if !self.core.store.apply_turn_plan(game, &plan).await? {
            return Err(stale(&loaded.record));
        }
        loaded.record.clock = plan.clock;
        self.core.wake_if_due(&plan, now);
        let mut names: Vec<String> = loaded.names();
        names[seat.index()] = super::text_name(&loaded.record, &old_name);
        let who = match user {
            Some(u) => mention(u),
            None => Text::new("bot.replace.bot_name").render(lang),
        };
        let text = Text::new("bot.replace.done")
            .arg("n", seat.index() + 1)
            .arg("seat", seat)
            .arg("who", who)
            .render_with(lang, &names);
        let mut notices = vec![Notice::Place { game, text }];
        let board =
            super::core::rendering(move || output::after_change(&loaded, &[], lang)).await?;
        let out = self.core.with_settings(board).await;
        if let Some(post) = out
            .private
            .iter()
            .find(|p| p.seat == seat && p.user.is_some())
        {
            notices.push(Notice::Private {
                game,
                post: post.clone(),
            });
        }
        if their_turn && !is_bot {
            notices.push(Notice::Board(Box::new(output::Outputs {
                private: Vec::new(),
                ..out
            })));
        }
        Ok(notices)
    }

    /// `/kick`: opens a seat of a running game (host or moderator). If it must decide now,
    /// the clock stops until someone takes it with `/replace`.
    pub async fn kick(
        self,
        game: GameId,
        actor: i64,
        is_moderator: bool,
        seat_number: usize,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let mut loaded = self.core.load_active(game, None).await?;
        let seat = seat_index(&loaded.record.seats, seat_number)?;
        may_take_over(&loaded.record, seat, actor, is_moderator, now)?;
        // An open seat goes to whoever the host names, hand and all: a seat whose hidden hand
        // someone else holds (a bot's, a player's who ran out of time) is opened only by a
        // moderator who holds no seat; the host asks the others with /replace instead.
        let seatless_moderator = is_moderator && !plays_in(&loaded.record, actor);
        let holds = &loaded.record.seats[seat.index()];
        if holds.user != Some(actor)
            && !holds.vacant
            && !seatless_moderator
            && loaded.game.private_view_json(seat).is_some()
        {
            return Err(LobbyError::HandInPlay(seat_number).into());
        }
        if loaded.record.seats[seat.index()].vacant {
            return Err(LobbyError::SeatOpen(seat_number).into());
        }
        let name = loaded.record.seats[seat.index()].name.clone();
        {
            let s = &mut loaded.record.seats[seat.index()];
            s.user = None;
            s.is_bot = false;
            s.vacant = true;
        }
        let their_turn = loaded.game.prompt().is_some_and(|p| p.seat == seat);
        let mut plan = self.core.replan_current(&loaded.record, now).await?;
        if their_turn {
            plan.jobs.clear();
            plan.clock.deadline_at = None;
            plan.clock.paused_left = None;
        }
        plan.seats.push(SeatChange {
            seat,
            user: None,
            name,
            is_bot: false,
            vacant: true,
        });
        if !self.core.store.apply_turn_plan(game, &plan).await? {
            return Err(stale(&loaded.record));
        }
        let lang = game_lang(&loaded.record);
        let mut text = Text::new("bot.kick.done")
            .arg("n", seat.index() + 1)
            .arg("seat", seat)
            .render_with(lang, &loaded.names());
        let (told, offers) =
            super::substitutes::tell_substitutes(self.core, &loaded.record, seat, now).await?;
        if let Some(line) = told {
            text.push('\n');
            text.push_str(&line);
        }
        let mut notices = vec![Notice::Place { game, text }];
        notices.extend(offers);
        Ok(notices)
    }
}

/// Whether `actor` may take `seat` from its holder with `/replace` or `/kick`.
///
/// The host or a moderator may always fill an open seat, take a bot's, or give up their own.
/// A seat another person is still playing is different: whoever takes it receives its hidden
/// hand, so a seated host could hand an opponent's seat to an account of theirs, read it and
/// give it back. Such a seat may change hands only once its time has run out (its deadline
/// passed, or it missed one since its player last played), or by a moderator who holds no
/// seat in this game.
fn may_take_over(
    record: &GameRecord,
    seat: Seat,
    actor: i64,
    is_moderator: bool,
    now: i64,
) -> Result<(), LobbyError> {
    if record.host != Some(actor) && !is_moderator {
        return Err(LobbyError::NotHost);
    }
    let Some(holder) = record.seats.get(seat.index()) else {
        return Err(LobbyError::NoSuchSeat(seat.index() + 1));
    };
    let someone_else = holder.user.is_some_and(|u| u != actor);
    if !someone_else || holder.is_bot || holder.vacant {
        return Ok(());
    }
    let deadline_passed =
        record.clock.seat == Some(seat) && record.clock.deadline_at.is_some_and(|d| d <= now);
    if holder.timeouts > 0 || deadline_passed {
        return Ok(());
    }
    let plays_here = record.seats.iter().any(|s| s.user == Some(actor));
    if is_moderator && !plays_here {
        return Ok(());
    }
    Err(LobbyError::SeatInPlay(seat.index() + 1))
}

/// What `/replace` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replaced {
    /// The seat changed hands.
    Done,
    /// The others were asked to agree first (the seat's hidden hand would reach the newcomer).
    Asked,
    /// One more agreed; others still must.
    Agreed,
}

/// Whether `user` holds a seat in the game.
fn plays_in(record: &GameRecord, user: i64) -> bool {
    record.seats.iter().any(|s| s.user == Some(user))
}

/// Who must agree before `actor` gives `seat` to a newcomer: every other seated person, when
/// the seat holds a hidden hand someone else was playing (a bot's, a player's who ran out of
/// time) and `actor` is not a moderator without a seat here. An open seat, one's own seat, or
/// a game without hidden hands needs nobody.
fn must_agree(loaded: &Loaded, seat: Seat, actor: i64, is_moderator: bool) -> Vec<i64> {
    let record = &loaded.record;
    let Some(holder) = record.seats.get(seat.index()) else {
        return Vec::new();
    };
    let own = !holder.is_bot && holder.user == Some(actor);
    if holder.vacant || own || loaded.game.private_view_json(seat).is_none() {
        return Vec::new();
    }
    if is_moderator && !plays_in(record, actor) {
        return Vec::new();
    }
    let mut out: Vec<i64> = Vec::new();
    for s in record.seats.iter().filter(|s| !s.is_bot && !s.vacant) {
        if let Some(u) = s.user.filter(|u| *u != actor && !out.contains(u)) {
            out.push(u);
        }
    }
    out
}

/// A seat by its number as players see it (1-based).
pub(super) fn seat_index(
    seats: &[crate::store::SeatRecord],
    n: usize,
) -> Result<Seat, ServiceError> {
    if n == 0 || n > seats.len() {
        return Err(LobbyError::NoSuchSeat(n).into());
    }
    Ok(Seat::at(n - 1))
}
