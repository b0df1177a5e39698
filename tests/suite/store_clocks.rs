//! The store's side of games over days, on every backend: clock plans written with their
//! jobs (and refused on a moved clock), fenced job completion, per-user jobs, final ranks and
//! the figures of `/stats`.

use croupier::engine::{GameId, GameKind, GameOptions, Seat, Version};
use croupier::store::{
    GameStatus, JobKind, NewGame, NewJob, NewMove, NewSeat, SeatChange, Store, StoreError,
    TimeoutPolicy, TurnClock, TurnPlan,
};

use crate::store_db::Db;

on_backends!(plans_replace_jobs_and_refuse_a_moved_clock, memory);
on_backends!(a_late_worker_cannot_complete_a_reclaimed_job, memory);
on_backends!(user_jobs_replace_each_other, memory);
on_backends!(moves_with_a_plan_are_one_transaction, memory);
on_backends!(stats_count_games_wins_and_turns, memory);
on_backends!(games_without_their_jobs_are_found);

fn new_game(guild: i64, users: &[i64], clock: Option<i64>) -> NewGame {
    NewGame {
        kind: GameKind::Cortexcape,
        options: GameOptions::new(),
        seed: 7,
        state: "{}".into(),
        status: GameStatus::Active,
        guild: Some(guild),
        channel: Some(5),
        thread: None,
        host: users.first().copied(),
        seats: users
            .iter()
            .map(|u| NewSeat {
                user: Some(*u),
                name: format!("p{u}"),
                is_bot: false,
            })
            .collect(),
        clock_secs: clock,
        policy: TimeoutPolicy::Open,
        lang: None,
        now: 100,
    }
}

fn job(kind: &str, game: GameId, due_at: i64) -> NewJob {
    NewJob {
        due_at,
        kind: JobKind::parse(kind).unwrap(),
        game: Some(game),
        user: None,
        payload: "{}".into(),
    }
}

fn plan(from_rev: i64, seat: u8, deadline: Option<i64>, jobs: Vec<NewJob>) -> TurnPlan {
    TurnPlan {
        from_rev,
        clock: TurnClock {
            rev: from_rev + 1,
            seat: Some(Seat(seat)),
            started_at: Some(100),
            deadline_at: deadline,
            paused_left: None,
        },
        jobs,
        seats: Vec::new(),
        attendance: Vec::new(),
    }
}

async fn plans_replace_jobs_and_refuse_a_moved_clock(db: &Db) {
    let store = db.connect().await;
    let g = store
        .create_game(&new_game(1, &[10, 20], Some(3600)))
        .await
        .unwrap();
    let first = plan(
        0,
        0,
        Some(3700),
        vec![job("deadline", g, 3700), job("remind", g, 1900)],
    );
    assert!(store.apply_turn_plan(g, &first).await.unwrap());
    let r = store.game(g).await.unwrap();
    assert_eq!(r.clock, first.clock);
    assert_eq!(store.jobs_for_game(g).await.unwrap().len(), 2);
    // Computed from revision 0 again: the clock moved, nothing is written.
    let stale = plan(0, 1, Some(9999), vec![job("deadline", g, 9999)]);
    assert!(!store.apply_turn_plan(g, &stale).await.unwrap());
    assert_eq!(store.game(g).await.unwrap().clock, first.clock);
    // The next plan replaces every job of the game and can open a seat.
    let mut next = plan(1, 1, None, Vec::new());
    next.seats.push(SeatChange {
        seat: Seat(1),
        user: None,
        name: "p20".into(),
        is_bot: false,
        vacant: true,
    });
    assert!(store.apply_turn_plan(g, &next).await.unwrap());
    assert!(store.jobs_for_game(g).await.unwrap().is_empty());
    let r = store.game(g).await.unwrap();
    assert_eq!(r.clock.rev, 2);
    assert!(r.seats[1].vacant && r.seats[1].user.is_none());
    // A seat that does not exist is refused whole.
    let mut bad = plan(2, 0, None, vec![job("deadline", g, 1)]);
    bad.seats.push(SeatChange {
        seat: Seat(9),
        user: None,
        name: "x".into(),
        is_bot: true,
        vacant: false,
    });
    assert!(matches!(
        store.apply_turn_plan(g, &bad).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.game(g).await.unwrap().clock.rev, 2);
    assert!(matches!(
        store
            .apply_turn_plan(GameId(987_654), &plan(0, 0, None, Vec::new()))
            .await,
        Err(StoreError::NotFound(_))
    ));
    // A new time per turn.
    store.set_clock_secs(g, None).await.unwrap();
    assert_eq!(store.game(g).await.unwrap().clock_secs, None);
}

async fn a_late_worker_cannot_complete_a_reclaimed_job(db: &Db) {
    let store = db.connect().await;
    let g = store
        .create_game(&new_game(1, &[10, 20], None))
        .await
        .unwrap();
    let id = store.schedule_job(&job("remind", g, 50)).await.unwrap();
    let a = store.claim_due_jobs(100, 10, "a", 60).await.unwrap();
    assert_eq!(a.len(), 1);
    // a's lease runs out; b claims the job again.
    let b = store.claim_due_jobs(160, 10, "b", 60).await.unwrap();
    assert_eq!(b[0].attempts, 2);
    assert!(!store
        .complete_claimed(id, "a", a[0].attempts)
        .await
        .unwrap());
    assert!(!store
        .postpone_claimed(id, "a", a[0].attempts, 500)
        .await
        .unwrap());
    // b may postpone it (quiet hours): the lease is freed and it is due later.
    assert!(store.postpone_claimed(id, "b", 2, 500).await.unwrap());
    assert!(store
        .claim_due_jobs(499, 10, "c", 60)
        .await
        .unwrap()
        .is_empty());
    let c = store.claim_due_jobs(500, 10, "c", 60).await.unwrap();
    assert_eq!((c[0].id, c[0].attempts), (id, 3));
    assert!(store.complete_claimed(id, "c", 3).await.unwrap());
    assert!(!store.complete_claimed(id, "c", 3).await.unwrap());
    assert_eq!(store.job_count().await.unwrap(), 0);
}

async fn user_jobs_replace_each_other(db: &Db) {
    let store = db.connect().await;
    let digest = |due_at| NewJob {
        due_at,
        kind: JobKind::Digest,
        game: None,
        user: Some(77),
        payload: "{}".into(),
    };
    store
        .replace_user_job(77, JobKind::Digest, Some(&digest(10)))
        .await
        .unwrap();
    store
        .replace_user_job(77, JobKind::Digest, Some(&digest(20)))
        .await
        .unwrap();
    let jobs = store.jobs_for_user(77).await.unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!((jobs[0].due_at, jobs[0].user), (20, Some(77)));
    let claimed = store.claim_due_jobs(20, 10, "w", 60).await.unwrap();
    assert_eq!(claimed[0].user, Some(77));
    store
        .replace_user_job(77, JobKind::Digest, None)
        .await
        .unwrap();
    assert!(store.jobs_for_user(77).await.unwrap().is_empty());
}

async fn moves_with_a_plan_are_one_transaction(db: &Db) {
    let store = db.connect().await;
    let g = store
        .create_game(&new_game(1, &[10, 20], Some(3600)))
        .await
        .unwrap();
    let mv = [NewMove {
        seat: Seat(0),
        notation: "x".into(),
        barrier: true,
        revealed: false,
    }];
    let p = plan(0, 1, Some(4000), vec![job("deadline", g, 4000)]);
    let v = store
        .record_moves_planned(
            g,
            Version(0),
            &mv,
            "{}",
            GameStatus::Active,
            200,
            Some(&p),
            &[],
        )
        .await
        .unwrap();
    assert_eq!(v, Version(1));
    assert_eq!(store.game(g).await.unwrap().clock, p.clock);
    // A plan from an old clock refuses the whole write: no move, no version, no jobs.
    let old = plan(0, 0, Some(5000), vec![job("deadline", g, 5000)]);
    assert!(matches!(
        store
            .record_moves_planned(g, v, &mv, "{}", GameStatus::Active, 300, Some(&old), &[])
            .await,
        Err(StoreError::ClockChanged(_))
    ));
    let r = store.game(g).await.unwrap();
    assert_eq!(r.version, v);
    assert_eq!(store.moves(g).await.unwrap().len(), 1);
    assert_eq!(store.jobs_for_game(g).await.unwrap()[0].due_at, 4000);
    // The end: final ranks on the seats.
    let end = plan(1, 0, None, Vec::new());
    store
        .record_moves_planned(
            g,
            v,
            &mv,
            "{}",
            GameStatus::Finished,
            400,
            Some(&end),
            &[2, 1],
        )
        .await
        .unwrap();
    let r = store.game(g).await.unwrap();
    assert_eq!(
        r.seats.iter().map(|s| s.final_rank).collect::<Vec<_>>(),
        vec![Some(2), Some(1)]
    );
    assert!(store.jobs_for_game(g).await.unwrap().is_empty());
}

async fn stats_count_games_wins_and_turns(db: &Db) {
    let store = db.connect().await;
    let guild = 4242;
    let mv = |seat| NewMove {
        seat: Seat(seat),
        notation: "x".into(),
        barrier: true,
        revealed: false,
    };
    // Two finished games (10 wins one, 20 the other), one cancelled (not counted).
    for (winner_ranks, gap) in [([1u8, 2u8], 100), ([2, 1], 300)] {
        let g = store
            .create_game(&new_game(guild, &[10, 20], None))
            .await
            .unwrap();
        // Seat 0 at 1000, seat 1 `gap` later, seat 0 again `gap` later: two turn changes.
        let v = store
            .record_moves(g, Version(0), &[mv(0)], "{}", GameStatus::Active, 1000)
            .await
            .unwrap();
        let v = store
            .record_moves(g, v, &[mv(1), mv(1)], "{}", GameStatus::Active, 1000 + gap)
            .await
            .unwrap();
        store
            .record_moves_planned(
                g,
                v,
                &[mv(0)],
                "{}",
                GameStatus::Finished,
                1000 + 2 * gap,
                None,
                &winner_ranks,
            )
            .await
            .unwrap();
    }
    let c = store
        .create_game(&new_game(guild, &[10, 30], None))
        .await
        .unwrap();
    store
        .set_status(c, Version(0), GameStatus::Cancelled, 5)
        .await
        .unwrap();
    let stats = store.stats(guild).await.unwrap();
    assert_eq!(stats.len(), 1);
    let s = &stats[0];
    assert_eq!((s.kind.id(), s.finished), ("cortexcape", 2));
    // Turn changes: 100, 100, 300, 300 (the second option of seat 1 is the same turn).
    assert_eq!((s.turns, s.avg_turn_secs), (4, Some(200)));
    assert!(store.stats(999).await.unwrap().is_empty());
}

async fn games_without_their_jobs_are_found(db: &Db) {
    let store: Store = db.connect().await;
    // Clocked but never planned (stored before clocks existed).
    let old = store
        .create_game(&new_game(1, &[10, 20], Some(3600)))
        .await
        .unwrap();
    // Planned, with its deadline job.
    let fine = store
        .create_game(&new_game(1, &[10, 20], Some(3600)))
        .await
        .unwrap();
    assert!(store
        .apply_turn_plan(
            fine,
            &plan(0, 0, Some(9000), vec![job("deadline", fine, 9000)])
        )
        .await
        .unwrap());
    // A running deadline whose job is gone.
    let lost = store
        .create_game(&new_game(1, &[10, 20], Some(3600)))
        .await
        .unwrap();
    assert!(store
        .apply_turn_plan(lost, &plan(0, 0, Some(9000), Vec::new()))
        .await
        .unwrap());
    // No clock: nothing to plan.
    store
        .create_game(&new_game(1, &[10, 20], None))
        .await
        .unwrap();
    let found = store.games_needing_plan(100).await.unwrap();
    assert!(found.contains(&old) && found.contains(&lost), "{found:?}");
    assert!(!found.contains(&fine), "{found:?}");
}
