//! Games over days through the service on a real store (SQLite file, and PostgreSQL when
//! TEST_DATABASE_URL is set), with the clock injected: time is set, never slept. Reminders,
//! quiet hours across time zones and a DST change, deadline policies, vacation, replace and
//! kick rights, the digest, `/clock`, a restart between scheduling and firing, two
//! schedulers on one database, and a member's own reminder points and muted games.

use std::sync::Arc;

use croupier::clock::{Clock, ManualClock, DAY, HOUR};
use croupier::engine::{GameId, GameKind, GameOptions, Seat};
use croupier::i18n::{Lang, Text};
use croupier::service::{
    Actor, ClockAction, JobKind, LobbyError, Newcomer, Notice, Place, PlayLine, Player, Service,
    ServiceError, SettingsChange, StartGame, Timers,
};
use croupier::store::{GameStatus, NewJob, TimeoutPolicy};

use crate::store_db::{By, Db, Playout};

on_backends!(reminders_then_a_deadline_fire_once);
on_backends!(a_job_for_a_game_that_moved_on_does_nothing);
on_backends!(a_restart_between_scheduling_and_firing_loses_nothing);
on_backends!(the_bot_policy_plays_the_same_moves_for_the_same_game);
on_backends!(open_seats_are_replaced_and_kicked_by_the_host_or_moderators);
on_backends!(a_seat_in_play_changes_hands_only_once_its_time_ran_out);
on_backends!(clock_lengths_are_capped_and_never_overflow);
on_backends!(quiet_hours_follow_the_players_zone_across_a_dst_change);
on_backends!(vacation_pauses_the_clock_and_tells_the_game);
on_backends!(never_more_reminders_than_configured);
on_backends!(the_host_pauses_resumes_extends_and_changes_the_clock);
on_backends!(the_digest_lists_only_games_waiting_for_you);
on_backends!(two_schedulers_on_one_database_fire_a_job_once);
on_backends!(two_concurrent_schedulers_fire_every_job_exactly_once);
on_backends!(stats_count_finished_games_and_turns);
on_backends!(a_bot_seat_waits_its_delay_then_plays_at_its_level);
on_backends!(custom_reminder_points_and_a_muted_game_over_days);

/// 2026-09-21 00:00 UTC.
const T0: i64 = 1_789_948_800;
const HOST: i64 = 1001;
const OTHER: i64 = 1002;

struct World {
    svc: Service,
    clock: ManualClock,
}

async fn world(db: &Db, timers: Timers) -> World {
    let clock = ManualClock::new(T0);
    let svc = Service::new(db.connect().await)
        .with_clock(Arc::new(clock.clone()))
        .with_timers(timers);
    World { svc, clock }
}

fn start(seed: u64, clock_secs: Option<i64>) -> StartGame {
    StartGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
        players: [HOST, OTHER]
            .iter()
            .enumerate()
            .map(|(i, u)| Player {
                user: Some(*u),
                name: format!("P{}", i + 1),
                is_bot: false,
            })
            .collect(),
        seed,
        place: Place {
            guild: Some(7),
            channel: Some(8),
            thread: Some(9),
        },
        host: Some(HOST),
        clock_secs,
    }
}

impl World {
    async fn game(&self, policy: TimeoutPolicy, seed: u64) -> GameId {
        let (id, _) = self
            .svc
            .lobbies()
            .start_with_policy(start(seed, Some(DAY)), policy, Lang::En, self.clock.now())
            .await
            .unwrap();
        id
    }

    async fn run(&self) -> Vec<Notice> {
        self.svc.clocks().run_due_jobs("w", 100).await.unwrap()
    }

    /// The seat that must decide and its user.
    async fn mover(&self, id: GameId) -> (Seat, i64) {
        let l = self.svc.load(id).await.unwrap();
        let seat = l.game.prompt().unwrap().seat;
        (seat, l.record.seats[seat.index()].user.unwrap_or(0))
    }

    /// (kind, due_at) of a game's jobs.
    async fn jobs(&self, id: GameId) -> Vec<(JobKind, i64)> {
        self.svc
            .store()
            .jobs_for_game(id)
            .await
            .unwrap()
            .into_iter()
            .map(|j| (j.kind, j.due_at))
            .collect()
    }

    /// When a game's reminders are due.
    async fn reminders(&self, id: GameId) -> Vec<i64> {
        self.jobs(id)
            .await
            .into_iter()
            .filter(|(k, _)| *k == JobKind::Remind)
            .map(|(_, at)| at)
            .collect()
    }

    /// The mover plays first options until another seat must decide.
    async fn finish_turn(&self, id: GameId) {
        Playout::new(&self.svc, id).cap(50).turn().await;
    }
}

fn now(w: &World) -> i64 {
    w.clock.now()
}

fn board_text(n: &Notice) -> &str {
    match n {
        Notice::Board(out) => &out.board.text,
        other => panic!("expected a board, got {other:?}"),
    }
}

fn place_text(n: &Notice) -> &str {
    match n {
        Notice::Place { text, .. } => text,
        other => panic!("expected a message in the game's place, got {other:?}"),
    }
}

async fn reminders_then_a_deadline_fire_once(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 5).await;
    let (seat, user) = w.mover(id).await;
    assert_eq!(
        w.jobs(id).await,
        vec![
            (JobKind::Remind, T0 + 12 * HOUR),
            (JobKind::Remind, T0 + DAY - 2 * HOUR),
            (JobKind::Deadline, T0 + DAY),
        ]
    );
    assert!(w.run().await.is_empty(), "nothing is due yet");
    w.clock.set(T0 + 12 * HOUR);
    let sent = w.run().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    match &sent[0] {
        Notice::Dm {
            user: u,
            game,
            text,
            fallback,
        } => {
            assert_eq!((*u, *game), (user, Some(id)));
            assert!(
                text.contains(&format!(
                    "it is your turn; your time runs out <t:{0}:R> (<t:{0}:f>)",
                    T0 + DAY
                )),
                "{text}"
            );
            assert!(text.contains("https://discord.com/channels/7/9"), "{text}");
            assert!(fallback
                .as_deref()
                .unwrap_or("")
                .contains(&format!("<@{user}>")));
        }
        other => panic!("expected a DM, got {other:?}"),
    }
    assert!(w.run().await.is_empty(), "a reminder goes once");
    w.clock.set(T0 + DAY - 2 * HOUR);
    let sent = w.run().await;
    assert!(matches!(&sent[..], [Notice::Dm { text, .. }] if text.contains("Last call")));
    let before = w.svc.load(id).await.unwrap().record.version;
    w.clock.set(T0 + DAY);
    let sent = w.run().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    // Cortexcape has no pass: the skip policy falls back to a random legal option.
    let text = board_text(&sent[0]);
    assert!(
        text.starts_with(&format!(
            "⏰ P{} ran out of time; this game has no pass",
            seat.index() + 1
        )),
        "{text}"
    );
    let after = w.svc.load(id).await.unwrap();
    assert!(after.record.version > before);
    assert_ne!(after.game.prompt().unwrap().seat, seat, "the turn moved on");
    let moves = w.svc.store().moves(id).await.unwrap();
    assert!(!moves.is_empty() && moves.iter().all(|m| m.seat == seat));
    assert_eq!(
        w.svc.records().replay(id).await.unwrap().to_json(),
        after.game.to_json(),
        "the moves played for the seat replay"
    );
    assert!(w.run().await.is_empty(), "a deadline fires once");
    // The next turn has its own full clock.
    assert!(w
        .jobs(id)
        .await
        .contains(&(JobKind::Deadline, T0 + 2 * DAY)));
}

async fn a_job_for_a_game_that_moved_on_does_nothing(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Bot, 6).await;
    let old_rev = w.svc.load(id).await.unwrap().record.clock.rev;
    w.clock.set(T0 + HOUR);
    w.finish_turn(id).await;
    let after = w.svc.load(id).await.unwrap();
    assert!(after.record.clock.rev > old_rev);
    // The old turn's jobs went with the move; the new turn's clock starts at the move.
    assert!(w
        .jobs(id)
        .await
        .contains(&(JobKind::Deadline, T0 + HOUR + DAY)));
    // A job of the old turn that was already claimed elsewhere (simulated): it does nothing.
    let seat = after.record.clock.seat.unwrap();
    w.svc
        .store()
        .schedule_job(&NewJob {
            due_at: T0 + HOUR,
            kind: JobKind::Deadline,
            game: Some(id),
            user: None,
            payload: format!("{{\"rev\":{old_rev},\"seat\":{}}}", seat.0),
        })
        .await
        .unwrap();
    w.clock.set(T0 + 2 * HOUR);
    assert!(w.run().await.is_empty());
    assert_eq!(
        w.svc.load(id).await.unwrap().record.version,
        after.record.version
    );
    assert_eq!(
        w.jobs(id).await.len(),
        3,
        "the stale job is gone, the live ones stay"
    );
    // A cancelled game's jobs do nothing either.
    w.svc
        .lobbies()
        .cancel_with(id, HOST, false, true, now(&w))
        .await
        .unwrap();
    w.clock.set(T0 + 3 * DAY);
    assert!(w.run().await.is_empty());
    assert_eq!(
        w.svc.load(id).await.unwrap().record.status,
        GameStatus::Cancelled
    );
}

async fn a_restart_between_scheduling_and_firing_loses_nothing(db: &Db) {
    if !db.shared {
        return;
    }
    let (id, seat) = {
        let w = world(db, Timers::default()).await;
        let id = w.game(TimeoutPolicy::Bot, 7).await;
        let seat = w.mover(id).await.0;
        // A process claims the deadline and dies before running it.
        let claimed = w
            .svc
            .store()
            .claim_due_jobs(T0 + DAY, 10, "dead", 120)
            .await
            .unwrap();
        assert!(claimed.iter().any(|j| j.kind == JobKind::Deadline));
        w.svc.store().close().await;
        (id, seat)
    };
    // A new process, a new store: the job waits for the dead claim's lease, then fires once.
    let w = world(db, Timers::default()).await;
    assert_eq!(
        w.svc.clocks().replan(T0 + DAY).await.unwrap(),
        0,
        "nothing to re-plan"
    );
    w.clock.set(T0 + DAY);
    assert!(w.run().await.is_empty(), "still leased to the dead process");
    w.clock.set(T0 + DAY + 120);
    let sent = w.run().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(board_text(&sent[0]).contains("ran out of time"));
    assert_ne!(w.mover(id).await.0, seat);
    assert!(w.run().await.is_empty());
}

async fn the_bot_policy_plays_the_same_moves_for_the_same_game(db: &Db) {
    let w = world(db, Timers::default()).await;
    let a = w.game(TimeoutPolicy::Bot, 8).await;
    let b = w.game(TimeoutPolicy::Bot, 8).await;
    w.clock.set(T0 + DAY);
    let sent = w.run().await;
    assert_eq!(sent.len(), 2, "{sent:?}");
    for n in &sent {
        assert!(board_text(n).contains("a bot played the turn"));
    }
    let store = w.svc.store();
    let (ma, mb) = (store.moves(a).await.unwrap(), store.moves(b).await.unwrap());
    let ma: Vec<String> = ma.into_iter().map(|m| m.notation).collect();
    let mb: Vec<String> = mb.into_iter().map(|m| m.notation).collect();
    assert!(!ma.is_empty());
    assert_eq!(ma, mb, "a seeded choice: the same game gets the same moves");
}

fn lobby_err<T>(r: Result<T, ServiceError>) -> LobbyError {
    match r {
        Err(ServiceError::Lobby(e)) => e,
        Err(other) => panic!("expected a refusal, got {other:?}"),
        Ok(_) => panic!("expected a refusal, it was done"),
    }
}

async fn open_seats_are_replaced_and_kicked_by_the_host_or_moderators(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Open, 9).await;
    let (seat, user) = w.mover(id).await;
    let other = if user == HOST { OTHER } else { HOST };
    let n = seat.index() + 1;
    w.clock.set(T0 + DAY);
    let sent = w.run().await;
    assert_eq!(sent.len(), 1);
    assert!(
        place_text(&sent[0]).contains(&format!("seat {n} is open")),
        "{sent:?}"
    );
    let r = w.svc.load(id).await.unwrap().record;
    assert!(r.seats[seat.index()].vacant && r.seats[seat.index()].user.is_none());
    assert_eq!(r.clock.deadline_at, None);
    assert!(
        w.jobs(id).await.is_empty(),
        "the clock waits for a new player"
    );
    // The other player sees it in /games.
    let lines = w.svc.find().games_of_user(other, 10).await.unwrap();
    assert!(lines[0].text(Lang::En).contains("seat open"), "{lines:?}");
    // Only the host or a moderator; the newcomer must not already play here.
    let newcomer = |id: i64| Newcomer::User {
        id,
        name: "Neo".into(),
    };
    let t = now(&w);
    assert_eq!(
        lobby_err(
            w.svc
                .players()
                .replace(id, 7777, false, n, newcomer(3003), t)
                .await
        ),
        LobbyError::NotHost
    );
    assert_eq!(
        lobby_err(
            w.svc
                .players()
                .replace(id, 5555, true, n, newcomer(other), t)
                .await
        ),
        LobbyError::AlreadyInGame
    );
    assert_eq!(
        lobby_err(
            w.svc
                .players()
                .replace(id, HOST, false, 3, newcomer(3003), t)
                .await
        ),
        LobbyError::NoSuchSeat(3)
    );
    let sent = w
        .svc
        .players()
        .replace(id, 5555, true, n, newcomer(3003), t)
        .await
        .unwrap();
    assert!(
        place_text(&sent[0]).contains("is replaced by <@3003>"),
        "{sent:?}"
    );
    assert!(
        matches!(&sent[1], Notice::Board(out) if out.board.mention == Some(3003)),
        "their turn: the board again, with a mention"
    );
    assert_eq!(w.mover(id).await, (seat, 3003));
    assert!(w.jobs(id).await.contains(&(JobKind::Deadline, t + DAY)));
    // The newcomer plays; a moderator without a seat kicking the other player (not their
    // turn) keeps the clock.
    let other_n = if n == 1 { 2 } else { 1 };
    assert_eq!(
        lobby_err(w.svc.players().kick(id, 3003, false, other_n, t).await),
        LobbyError::NotHost
    );
    let jobs = w.jobs(id).await;
    let sent = w
        .svc
        .players()
        .kick(id, 5555, true, other_n, t)
        .await
        .unwrap();
    assert!(place_text(&sent[0]).contains(&format!("Seat {other_n}")));
    assert_eq!(w.jobs(id).await, jobs);
    assert_eq!(
        lobby_err(w.svc.players().kick(id, HOST, false, other_n, t).await),
        LobbyError::SeatOpen(other_n)
    );
    // A bot takes the newcomer's seat (by a moderator: the newcomer is still playing): it
    // plays at once, then the turn waits on the open seat.
    w.svc
        .players()
        .replace(id, 5555, true, n, Newcomer::Bot, t)
        .await
        .unwrap();
    // A clock change before the scheduler runs keeps the bot's turn.
    w.svc
        .clocks()
        .clock(id, HOST, false, ClockAction::Change(Some(2 * DAY)), t)
        .await
        .unwrap();
    let sent = w.run().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let l = w.svc.load(id).await.unwrap();
    assert_eq!(l.game.prompt().unwrap().seat.index() + 1, other_n);
    assert!(w.jobs(id).await.is_empty());
    // The kicked player can no longer play.
    assert!(matches!(
        w.svc
            .moves()
            .play(
                PlayLine {
                    game: id,
                    actor: Actor::User(other),
                    line: l.game.prompt().unwrap().options[0].clone(),
                    seen: None,
                },
                Lang::En,
                t,
            )
            .await,
        Err(ServiceError::NotSeated)
    ));
}

/// `user` plays the first option of the current prompt (theirs).
async fn play_first_as(w: &World, id: GameId, user: i64) {
    let played = Playout::new(&w.svc, id).by(By::User(user)).one().await;
    played.expect("someone decides");
}

/// Plays until `user` decides, then lets their deadline pass and the scheduler act.
async fn miss_a_deadline(w: &World, id: GameId, user: i64) {
    play_until_turn_of(w, id, user).await;
    let clock = w.svc.load(id).await.unwrap().record.clock;
    w.clock.set(clock.deadline_at.expect("a clock runs"));
    w.run().await;
}

/// Plays the first option for whoever decides until `user` must decide.
async fn play_until_turn_of(w: &World, id: GameId, user: i64) {
    Playout::new(&w.svc, id).cap(50).until_turn_of(user).await;
}

async fn a_seat_in_play_changes_hands_only_once_its_time_ran_out(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 21).await;
    let r = w.svc.load(id).await.unwrap().record;
    let seat_of = |user: i64| r.seats.iter().position(|s| s.user == Some(user)).unwrap() + 1;
    let (other, mine) = (seat_of(OTHER), seat_of(HOST));
    let t = now(&w);
    // The host holds a seat: the other player's seat is theirs while they play, whatever
    // the host tries (to a newcomer, to a bot, or opened to take it next).
    for refused in [
        w.svc
            .players()
            .replace(
                id,
                HOST,
                false,
                other,
                Newcomer::User {
                    id: 3003,
                    name: "Alt".into(),
                },
                t,
            )
            .await
            .map(|_| ()),
        w.svc
            .players()
            .replace(id, HOST, false, other, Newcomer::Bot, t)
            .await
            .map(|_| ()),
        w.svc
            .players()
            .kick(id, HOST, false, other, t)
            .await
            .map(|_| ()),
        // A moderator who plays is no better placed.
        w.svc
            .players()
            .kick(id, OTHER, true, mine, t)
            .await
            .map(|_| ()),
    ] {
        assert!(matches!(lobby_err(refused), LobbyError::SeatInPlay(_)));
    }
    // The other player lets their time run out: skipped, and now their seat may change hands.
    miss_a_deadline(&w, id, OTHER).await;
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(
        r.seats[other - 1].timeouts,
        1,
        "the missed deadline is counted"
    );
    // Back before anyone took the seat: the player plays again, and the count clears.
    play_until_turn_of(&w, id, OTHER).await;
    play_first_as(&w, id, OTHER).await;
    play_until_turn_of(&w, id, HOST).await;
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(r.seats[other - 1].timeouts, 0, "playing again clears it");
    let refused = w.svc.players().kick(id, HOST, false, other, now(&w)).await;
    assert!(matches!(lobby_err(refused), LobbyError::SeatInPlay(_)));
    // Missing a deadline again opens the seat to the host.
    miss_a_deadline(&w, id, OTHER).await;
    let newcomer = Newcomer::User {
        id: 3003,
        name: "Neo".into(),
    };
    w.svc
        .players()
        .replace(id, HOST, false, other, newcomer, now(&w))
        .await
        .unwrap();
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(r.seats[other - 1].user, Some(3003));
    assert_eq!(r.seats[other - 1].timeouts, 0, "a new holder starts clean");
}

async fn clock_lengths_are_capped_and_never_overflow(db: &Db) {
    let w = world(db, Timers::default()).await;
    // A clock stored before the cap (or by a buggy caller) near the largest timestamp: the
    // deadline is capped instead of overflowing.
    let (id, _) = w
        .svc
        .lobbies()
        .start_with_policy(start(5, Some(i64::MAX)), TimeoutPolicy::Skip, Lang::En, T0)
        .await
        .unwrap();
    let deadline = w.svc.load(id).await.unwrap().record.clock.deadline_at;
    assert_eq!(deadline, Some(T0 + croupier::clock::MAX_TURN_SECS));
    // A second game with an ordinary clock, its deadline due in the same batch.
    let plain = w.game(TimeoutPolicy::Skip, 6).await;
    w.clock.set(T0 + croupier::clock::MAX_TURN_SECS);
    let sent = w.run().await;
    assert!(sent
        .iter()
        .any(|n| matches!(n, Notice::Board(o) if o.board.game == id)));
    assert!(sent
        .iter()
        .any(|n| matches!(n, Notice::Board(o) if o.board.game == plain)));
    // `/clock` refuses lengths past the cap, and extensions past it, changing nothing.
    let t = now(&w);
    let before = w.svc.load(id).await.unwrap().record.clock;
    for action in [
        ClockAction::Change(Some(i64::MAX)),
        ClockAction::Change(Some(31 * DAY)),
        ClockAction::Extend(i64::MAX),
        ClockAction::Extend(29 * DAY),
        ClockAction::Extend(0),
    ] {
        let refused = w.svc.clocks().clock(id, HOST, false, action, t).await;
        assert_eq!(
            lobby_err(refused),
            LobbyError::ClockRange { max_days: 30 },
            "{action:?}"
        );
    }
    assert_eq!(w.svc.load(id).await.unwrap().record.clock, before);
    for ok in [
        ClockAction::Change(Some(2 * DAY)),
        ClockAction::Extend(2 * HOUR),
    ] {
        w.svc.clocks().clock(id, HOST, false, ok, t).await.unwrap();
    }
    let deadline = w.svc.load(id).await.unwrap().record.clock.deadline_at;
    assert_eq!(deadline, Some(t + 2 * DAY + 2 * HOUR));
}

async fn quiet_hours_follow_the_players_zone_across_a_dst_change(db: &Db) {
    let w = world(db, Timers::default()).await;
    // 2026-11-01 00:00 UTC = 2026-10-31 20:00 in New York (EDT); summer time ends at 06:00 UTC.
    let t = 1_793_491_200;
    w.clock.set(t);
    for user in [HOST, OTHER] {
        let change = SettingsChange {
            timezone: Some("america/new_york".into()),
            quiet: Some(croupier::clock::Quiet::parse("21:00-09:00")),
            ..SettingsChange::default()
        };
        let (s, _) = w
            .svc
            .players()
            .update_settings(user, change, t)
            .await
            .unwrap();
        assert_eq!(s.timezone.as_deref(), Some("America/New_York"));
    }
    let id = w.game(TimeoutPolicy::Skip, 10).await;
    // Half time is 12:00 UTC = 07:00 EST (quiet): moved to 09:00 EST = 14:00 UTC, not the
    // 13:00 UTC that summer time would give. The last call (22:00 UTC = 17:00) is awake.
    assert_eq!(w.reminders(id).await, vec![t + 14 * HOUR, t + 22 * HOUR]);
    // Quiet hours chosen after the plan: the reminder waits for their end, still once.
    let (_, user) = w.mover(id).await;
    let change = SettingsChange {
        timezone: Some("Asia/Tokyo".into()),
        quiet: Some(croupier::clock::Quiet::parse("22:00-08:00")),
        ..SettingsChange::default()
    };
    w.svc
        .players()
        .update_settings(user, change, t)
        .await
        .unwrap();
    // 14:00 UTC is 23:00 in Tokyo (UTC+9, no DST): quiet until 08:00 = 23:00 UTC, and the
    // last call (22:00 UTC) comes before that: this reminder is dropped, one message is enough.
    w.clock.set(t + 14 * HOUR);
    assert!(w.run().await.is_empty());
    assert_eq!(w.reminders(id).await, vec![t + 22 * HOUR]);
    // 22:00 UTC is 07:00 in Tokyo: the last call waits until 08:00.
    w.clock.set(t + 22 * HOUR);
    assert!(w.run().await.is_empty());
    assert_eq!(w.reminders(id).await, vec![t + 23 * HOUR]);
    w.clock.set(t + 23 * HOUR);
    let sent = w.run().await;
    assert!(
        matches!(&sent[..], [Notice::Dm { text, .. }] if text.contains("Last call") && text.contains(&format!("<t:{}:R>", t + DAY))),
        "{sent:?}"
    );
    assert!(w.run().await.is_empty());
}

async fn vacation_pauses_the_clock_and_tells_the_game(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 11).await;
    let (seat, user) = w.mover(id).await;
    w.clock.set(T0 + 6 * HOUR);
    let past = SettingsChange {
        vacation: Some(croupier::clock::Date::parse("2026-09-01")),
        ..SettingsChange::default()
    };
    assert_eq!(
        lobby_err(w.svc.players().update_settings(user, past, now(&w)).await),
        LobbyError::PastDate
    );
    // Away until 2026-09-24 (UTC, no zone set): 18 h were left, they count from then.
    let away = SettingsChange {
        vacation: Some(croupier::clock::Date::parse("2026-09-24")),
        ..SettingsChange::default()
    };
    let (_, notices) = w
        .svc
        .players()
        .update_settings(user, away, now(&w))
        .await
        .unwrap();
    assert_eq!(notices.len(), 1);
    assert!(place_text(&notices[0])
        .contains(&format!("P{} is away until 2026-09-24", seat.index() + 1)));
    let back_at = T0 + 3 * DAY;
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(r.clock.deadline_at, Some(back_at + 18 * HOUR));
    assert!(
        w.jobs(id).await.iter().all(|(_, at)| *at >= back_at),
        "no reminder while away"
    );
    w.clock.set(T0 + DAY);
    assert!(w.run().await.is_empty(), "the old deadline does nothing");
    // Back early: the time left is kept, counted from now.
    let back = SettingsChange {
        vacation: Some(None),
        ..SettingsChange::default()
    };
    let (_, notices) = w
        .svc
        .players()
        .update_settings(user, back, now(&w))
        .await
        .unwrap();
    assert!(place_text(&notices[0]).contains("is back"));
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(r.clock.deadline_at, Some(T0 + DAY + 18 * HOUR));
    // A turn that starts during a vacation waits for its end.
    let other = if user == HOST { OTHER } else { HOST };
    let away = SettingsChange {
        vacation: Some(croupier::clock::Date::parse("2026-09-30")),
        ..SettingsChange::default()
    };
    w.svc
        .players()
        .update_settings(other, away, now(&w))
        .await
        .unwrap();
    w.finish_turn(id).await;
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(r.clock.deadline_at, Some(T0 + 9 * DAY + DAY));
}

async fn never_more_reminders_than_configured(db: &Db) {
    for (max, expected) in [(0u8, 0usize), (1, 1), (2, 2), (5, 2)] {
        let w = world(
            db,
            Timers {
                max_reminders: max,
                ..Timers::default()
            },
        )
        .await;
        let id = w.game(TimeoutPolicy::Skip, 12).await;
        let reminders = w.reminders(id).await;
        assert_eq!(reminders.len(), expected, "max {max}");
        if max == 1 {
            assert_eq!(reminders, vec![T0 + DAY - 2 * HOUR], "one: the last call");
        }
        w.clock.set(T0 + DAY - 1);
        let dms = w.run().await;
        assert_eq!(dms.len(), expected, "max {max}: {dms:?}");
    }
}

async fn the_host_pauses_resumes_extends_and_changes_the_clock(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 13).await;
    w.clock.set(T0 + 4 * HOUR);
    let t = now(&w);
    assert_eq!(
        lobby_err(
            w.svc
                .clocks()
                .clock(id, OTHER, false, ClockAction::Pause, t)
                .await
        ),
        LobbyError::NotHost
    );
    let n = w
        .svc
        .clocks()
        .clock(id, HOST, false, ClockAction::Pause, t)
        .await
        .unwrap();
    assert!(place_text(&n).contains("paused"));
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(
        (r.clock.deadline_at, r.clock.paused_left),
        (None, Some(20 * HOUR))
    );
    assert!(w.jobs(id).await.is_empty());
    assert_eq!(
        lobby_err(
            w.svc
                .clocks()
                .clock(id, HOST, false, ClockAction::Pause, t)
                .await
        ),
        LobbyError::ClockPaused
    );
    w.clock.set(T0 + 2 * DAY);
    assert!(w.run().await.is_empty(), "a paused clock never runs out");
    let t = now(&w);
    // A moderator resumes: the 20 hours left count from now.
    let n = w
        .svc
        .clocks()
        .clock(id, 4444, true, ClockAction::Resume, t)
        .await
        .unwrap();
    assert!(
        place_text(&n).contains(&format!("runs out <t:{}:R>", t + 20 * HOUR)),
        "{n:?}"
    );
    assert_eq!(
        w.svc.load(id).await.unwrap().record.clock.deadline_at,
        Some(t + 20 * HOUR)
    );
    assert_eq!(
        lobby_err(
            w.svc
                .clocks()
                .clock(id, HOST, false, ClockAction::Resume, t)
                .await
        ),
        LobbyError::ClockNotPaused
    );
    w.svc
        .clocks()
        .clock(id, HOST, false, ClockAction::Extend(3 * HOUR), t)
        .await
        .unwrap();
    assert!(w
        .jobs(id)
        .await
        .contains(&(JobKind::Deadline, t + 23 * HOUR)));
    w.svc
        .clocks()
        .clock(id, HOST, false, ClockAction::Change(Some(12 * HOUR)), t)
        .await
        .unwrap();
    let r = w.svc.load(id).await.unwrap().record;
    assert_eq!(
        (r.clock_secs, r.clock.deadline_at),
        (Some(12 * HOUR), Some(t + 12 * HOUR))
    );
    let n = w
        .svc
        .clocks()
        .clock(id, HOST, false, ClockAction::Change(None), t)
        .await
        .unwrap();
    assert!(place_text(&n).contains("clock is off"));
    assert!(w.jobs(id).await.is_empty());
    assert_eq!(
        lobby_err(
            w.svc
                .clocks()
                .clock(id, HOST, false, ClockAction::Pause, t)
                .await
        ),
        LobbyError::ClockNotRunning
    );
    // The next turn has no clock either.
    w.finish_turn(id).await;
    assert!(w.jobs(id).await.is_empty());
}

async fn the_digest_lists_only_games_waiting_for_you(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 14).await;
    let (_, mover) = w.mover(id).await;
    let waiting = if mover == HOST { OTHER } else { HOST };
    for user in [mover, waiting] {
        let change = SettingsChange {
            timezone: Some("Europe/Paris".into()),
            digest: Some(true),
            ..SettingsChange::default()
        };
        w.svc
            .players()
            .update_settings(user, change, T0)
            .await
            .unwrap();
        // 09:00 in Paris (summer time, UTC+2) on the 21st.
        let jobs = w.svc.store().jobs_for_user(user).await.unwrap();
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].due_at, T0 + 7 * HOUR);
    }
    w.clock.set(T0 + 7 * HOUR);
    let sent: Vec<Notice> = w
        .run()
        .await
        .into_iter()
        .filter(|n| matches!(n, Notice::Dm { game: None, .. }))
        .collect();
    assert_eq!(sent.len(), 1, "only the player whose turn it is: {sent:?}");
    match &sent[0] {
        Notice::Dm { user, text, .. } => {
            assert_eq!(*user, mover);
            assert!(text.contains("1 game waiting for you"), "{text}");
            assert!(text.contains(&format!("#{}: your turn!", id.0)), "{text}");
            assert!(text.contains("time runs out <t:"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Tomorrow's is planned; opting out removes it.
    let jobs = w.svc.store().jobs_for_user(mover).await.unwrap();
    assert_eq!(jobs[0].due_at, T0 + DAY + 7 * HOUR);
    let off = SettingsChange {
        digest: Some(false),
        ..SettingsChange::default()
    };
    w.svc
        .players()
        .update_settings(mover, off, now(&w))
        .await
        .unwrap();
    assert!(w.svc.store().jobs_for_user(mover).await.unwrap().is_empty());
}

async fn two_schedulers_on_one_database_fire_a_job_once(db: &Db) {
    if !db.shared {
        return;
    }
    let a = world(db, Timers::default()).await;
    let b = world(db, Timers::default()).await;
    let mut games = Vec::new();
    for seed in 0..6 {
        games.push(a.game(TimeoutPolicy::Bot, 100 + seed).await);
    }
    a.clock.set(T0 + DAY);
    b.clock.set(T0 + DAY);
    // Small batches, both at once, until nothing is due any more.
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        let (more_a, more_b) = tokio::join!(
            a.svc.clocks().run_due_jobs("a", 2),
            b.svc.clocks().run_due_jobs("b", 2)
        );
        ra.extend(more_a.unwrap());
        rb.extend(more_b.unwrap());
    }
    let boards: Vec<GameId> = ra
        .iter()
        .chain(&rb)
        .filter_map(|n| match n {
            Notice::Board(out) => Some(out.board.game),
            _ => None,
        })
        .collect();
    let mut sorted = boards.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        boards.len(),
        "a deadline fired twice: {boards:?}"
    );
    assert_eq!(sorted, games, "every deadline fired");
}

/// Two schedulers (two processes' worth: a pool each) race over the same due jobs, each
/// running its batch 8 jobs at once: every reminder goes once and every deadline plays once.
async fn two_concurrent_schedulers_fire_every_job_exactly_once(db: &Db) {
    if !db.shared {
        return;
    }
    let timers = Timers {
        scheduler_concurrency: 8,
        ..Timers::default()
    };
    let a = world(db, timers.clone()).await;
    let b = world(db, timers).await;
    let mut games = Vec::new();
    for seed in 0..24 {
        games.push(a.game(TimeoutPolicy::Skip, 300 + seed).await);
    }
    games.sort();
    // A day's clock: a reminder at 12 h, the last call at 22 h, the deadline at 24 h.
    for (at, what) in [
        (12 * HOUR, "reminder"),
        (22 * HOUR, "last call"),
        (DAY, "deadline"),
    ] {
        a.clock.set(T0 + at);
        b.clock.set(T0 + at);
        let mut notices = Vec::new();
        let (mut claimed_a, mut claimed_b) = (0, 0);
        loop {
            let (ra, rb) = tokio::join!(
                a.svc.clocks().run_due_jobs_timed("a", 5),
                b.svc.clocks().run_due_jobs_timed("b", 5)
            );
            let (ra, rb) = (ra.unwrap(), rb.unwrap());
            claimed_a += ra.claimed;
            claimed_b += rb.claimed;
            for done in ra.finished.iter().chain(&rb.finished) {
                assert!(done.ok, "a {} job failed", done.kind);
                assert_eq!(done.attempts, 1, "a {} job was claimed twice", done.kind);
            }
            let idle = ra.claimed == 0 && rb.claimed == 0;
            notices.extend(ra.notices);
            notices.extend(rb.notices);
            if idle {
                break;
            }
        }
        assert_eq!(claimed_a + claimed_b, games.len(), "{what}: one job a game");
        let mut fired: Vec<GameId> = notices
            .iter()
            .map(|n| match n {
                Notice::Board(out) => out.board.game,
                Notice::Dm { game: Some(g), .. } | Notice::Place { game: g, .. } => *g,
                other => panic!("{what}: unexpected {other:?}"),
            })
            .collect();
        fired.sort();
        assert_eq!(fired, games, "{what}: every game once");
        let boards = notices
            .iter()
            .filter(|n| matches!(n, Notice::Board(_)))
            .count();
        assert_eq!(boards, if at == DAY { games.len() } else { 0 }, "{what}");
    }
    // Each deadline played exactly one turn: the next turn's clock runs from the deadline.
    for id in &games {
        let record = a.svc.store().game(*id).await.unwrap();
        assert_eq!(record.clock.started_at, Some(T0 + DAY), "game {id}");
    }
}

async fn stats_count_finished_games_and_turns(db: &Db) {
    let w = world(db, Timers::default()).await;
    let id = w.game(TimeoutPolicy::Skip, 15).await;
    // Two turns, ten minutes each.
    for i in 1..=2 {
        w.clock.set(T0 + i * 600);
        w.finish_turn(id).await;
    }
    // The end, as the engine would report it: seat 2 wins.
    let l = w.svc.load(id).await.unwrap();
    w.svc
        .store()
        .record_moves_planned(
            id,
            l.record.version,
            &[],
            &l.game.to_json(),
            GameStatus::Finished,
            T0 + 1800,
            None,
            &[2, 1],
        )
        .await
        .unwrap();
    let text = w
        .svc
        .records()
        .stats_board(Some(7), None, None, Lang::En)
        .await
        .unwrap();
    assert!(
        text.starts_with("🎲 **Cortexcape**: 1 game finished, 10 min per turn"),
        "{text}"
    );
    assert!(w
        .svc
        .records()
        .stats_board(Some(7), Some(GameKind::Cortexcape), None, Lang::Fr)
        .await
        .unwrap()
        .contains("1 partie terminée"));
    assert_eq!(
        w.svc
            .records()
            .stats_board(Some(999), None, None, Lang::En)
            .await
            .unwrap(),
        Text::new("ratings.none").render(Lang::En)
    );
}

async fn a_bot_seat_waits_its_delay_then_plays_at_its_level(db: &Db) {
    let w = world(db, Timers::default()).await;
    let t = now(&w);
    let id = w.game(TimeoutPolicy::Skip, 21).await;
    w.svc
        .lobbies()
        .set_bots(id, croupier::ai::Level::Hard, 15)
        .await
        .unwrap();
    // A delay past the limit is cut to a minute.
    let id2 = w.game(TimeoutPolicy::Skip, 22).await;
    w.svc
        .lobbies()
        .set_bots(id2, croupier::ai::Level::Easy, 3600)
        .await
        .unwrap();
    assert_eq!(w.svc.lobbies().lobby(id2).await.unwrap().bot_delay, 60);
    // The mover's seat goes to a bot (by a moderator without a seat: the mover is still
    // playing): its job is due 15 s later, not at once.
    let (seat, _) = w.mover(id).await;
    let n = seat.index() + 1;
    w.svc
        .players()
        .replace(id, 5555, true, n, Newcomer::Bot, t)
        .await
        .unwrap();
    let view = w.svc.lobbies().lobby(id).await.unwrap();
    assert_eq!(view.bot_level, croupier::ai::Level::Hard);
    assert_eq!(w.jobs(id).await, [(JobKind::Bot, t + 15)]);
    assert!(w.run().await.is_empty(), "not due yet");
    let version = w.svc.load(id).await.unwrap().record.version;
    w.clock.set(t + 15);
    let sent = w.run().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let after = w.svc.load(id).await.unwrap();
    assert!(after.record.version > version, "the bot played");
    assert_ne!(after.game.prompt().map(|p| p.seat), Some(seat));
}

/// What the scheduler sent at one moment: (game, user, last call?) of each reminder DM.
fn reminder_dms(sent: &[Notice]) -> Vec<(GameId, i64, bool)> {
    let mut out: Vec<(GameId, i64, bool)> = sent
        .iter()
        .filter_map(|n| match n {
            Notice::Dm {
                user,
                game: Some(g),
                text,
                ..
            } => Some((*g, *user, text.contains("Last call"))),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// A member's own reminder points ("75% 25% 10%" of the turn's time left) replace the server's
/// plan, at those times of the simulated clock, for both players and both games; a game muted
/// by its mover sends them no reminder but the last call, while their other game reminds them
/// at every point. A running turn keeps its plan when the points change; bad points are
/// refused before anything is stored.
async fn custom_reminder_points_and_a_muted_game_over_days(db: &Db) {
    use croupier::service::{parse_reminders, GamePings, ReminderChoice};
    let w = world(db, Timers::default()).await;
    for bad in ["2% 50%", "75 25 10 5", "50 47", "half"] {
        assert!(parse_reminders(bad).is_err(), "{bad}");
    }
    let points = parse_reminders("75% 25% 10%").unwrap();
    assert_eq!(points, ReminderChoice::At(vec![75, 25, 10]));
    for user in [HOST, OTHER] {
        let change = SettingsChange {
            reminders: Some(points.clone()),
            ..SettingsChange::default()
        };
        let (s, _) = w
            .svc
            .players()
            .update_settings(user, change, now(&w))
            .await
            .unwrap();
        assert_eq!(s.reminders, Some(vec![75, 25, 10]));
    }
    let a = w.game(TimeoutPolicy::Skip, 5).await;
    let b = w.game(TimeoutPolicy::Skip, 6).await;
    let (_, mover_a) = w.mover(a).await;
    let (_, mover_b) = w.mover(b).await;
    // 75%, 25% and 10% of a day left.
    let at = |start: i64| vec![start + 6 * HOUR, start + 18 * HOUR, start + DAY - DAY / 10];
    assert_eq!(w.reminders(a).await, at(T0));
    assert_eq!(w.reminders(b).await, at(T0));
    // A muted game: only for its member who asked, and only for them.
    w.svc
        .players()
        .set_game_pings(a, mover_a, GamePings::Mute, now(&w))
        .await
        .unwrap();
    let stranger = w
        .svc
        .players()
        .set_game_pings(a, 4242, GamePings::Mute, now(&w))
        .await;
    assert!(
        matches!(stranger, Err(ServiceError::NotSeated)),
        "{stranger:?}"
    );
    assert_eq!(
        w.svc.players().game_pings(a, 4242).await.unwrap(),
        GamePings::All
    );
    // The running turn keeps its plan when the points change; the next turn takes them.
    let change = SettingsChange {
        reminders: Some(parse_reminders("50%").unwrap()),
        ..SettingsChange::default()
    };
    w.svc
        .players()
        .update_settings(mover_a, change, now(&w))
        .await
        .unwrap();
    assert_eq!(
        w.reminders(a).await,
        at(T0),
        "a running turn keeps its plan"
    );

    // Day one: game B reminds its mover at each point; game A only gives the last call.
    let mut got = Vec::new();
    for due in at(T0) {
        w.clock.set(due);
        got.extend(reminder_dms(&w.run().await));
    }
    assert_eq!(
        got,
        vec![
            (b, mover_b, false),
            (b, mover_b, false),
            (a, mover_a, true),
            (b, mover_b, true),
        ],
        "{got:?}"
    );
    w.clock.set(T0 + DAY);
    let timeouts = w.run().await;
    assert_eq!(timeouts.len(), 2, "both turns ran out: {timeouts:?}");

    // Day two: each game's new mover has their own plan from the start of their turn (the
    // member who changed to 50% has that single point, a last call, in either game).
    let plan = |user: i64, start: i64| {
        if user == mover_a {
            vec![(start + 12 * HOUR, true)]
        } else {
            at(start).into_iter().zip([false, false, true]).collect()
        }
    };
    let mut want = Vec::new();
    let mut dues = Vec::new();
    for (game, first) in [(a, mover_a), (b, mover_b)] {
        let (_, mover) = w.mover(game).await;
        assert_ne!(mover, first, "the other player's turn");
        let planned = plan(mover, T0 + DAY);
        let times: Vec<i64> = planned.iter().map(|(t, _)| *t).collect();
        assert_eq!(w.reminders(game).await, times, "game {game}");
        for (t, last) in planned {
            dues.push(t);
            // Game A is muted only by its first mover: its second gets every reminder.
            if !(game == a && mover == mover_a && !last) {
                want.push((game, mover, last));
            }
        }
    }
    dues.sort_unstable();
    dues.dedup();
    let mut got = Vec::new();
    for due in dues {
        w.clock.set(due);
        got.extend(reminder_dms(&w.run().await));
    }
    want.sort();
    got.sort();
    assert_eq!(got, want, "game A pings the member who did not mute it");

    // Day three: game A's first mover again, with their new single point (50%), muted: only
    // the last call, which that one point is.
    w.clock.set(T0 + 2 * DAY);
    assert_eq!(w.run().await.len(), 2, "both turns ran out again");
    assert_eq!(w.mover(a).await.1, mover_a);
    assert_eq!(w.reminders(a).await, vec![T0 + 2 * DAY + 12 * HOUR]);
    w.clock.set(T0 + 2 * DAY + 12 * HOUR);
    let got = reminder_dms(&w.run().await);
    assert!(got.contains(&(a, mover_a, true)), "{got:?}");
}
