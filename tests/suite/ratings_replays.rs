//! Skill ratings, leaderboards and replays (issue 24): through the service on both backends,
//! and end to end through the fake Discord (a game to its end moves its seats' ratings, /stats
//! lists them in order, in English and French; /replay steps back and forth; /export gives a
//! file that `croupier table --import` replays to the same end).

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{decider, By, Db, Playout};
use croupier::engine::{GameId, GameKind, GameOptions, Outcome, Seat};
use croupier::i18n::Lang;
use croupier::service::{
    entrants, rating_update, replay_history, standings, Place, Player, Service, StartGame,
};
use croupier::store::{GameStatus, Skill};

const SERVER: i64 = 77;

fn member(user: i64, name: &str) -> Player {
    Player {
        user: Some(user),
        name: name.into(),
        is_bot: false,
    }
}

fn bot() -> Player {
    Player {
        user: None,
        name: "Bot".into(),
        is_bot: true,
    }
}

async fn start(
    svc: &Service,
    kind: GameKind,
    options: &str,
    players: Vec<Player>,
    seed: u64,
) -> GameId {
    let options: GameOptions = options
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let (id, _) = svc
        .lobbies()
        .start(
            StartGame {
                kind,
                options,
                host: players[0].user,
                players,
                seed,
                place: Place {
                    guild: Some(SERVER),
                    channel: Some(5),
                    thread: None,
                },
                clock_secs: None,
            },
            Lang::En,
            svc.now(),
        )
        .await
        .expect("a game starts");
    id
}

#[tokio::test]
async fn finished_games_are_rated_once_in_end_order_on_sqlite() {
    finished_games_are_rated_once_in_end_order(Db::sqlite_file()).await;
}

#[tokio::test]
async fn finished_games_are_rated_once_in_end_order_on_postgres() {
    if let Some(db) = Db::postgres("ratings_order").await {
        finished_games_are_rated_once_in_end_order(db).await;
    }
}

/// Games that ended before anything rated them (as every finished game is right after the
/// 0009 migration) are rated in the order they ended, once, and the history of changes
/// rebuilds the leaderboard exactly; a resignation is a loss; a bot level is a rated player.
async fn finished_games_are_rated_once_in_end_order(db: Db) {
    let svc = Service::new(db.connect().await);
    // Three games among three members, and one member against a bot, finished one after
    // the other; nothing asks for ratings meanwhile.
    let mut ended = Vec::new();
    for (seed, a, b) in [(3, 1, 2), (4, 2, 3), (5, 1, 3)] {
        let game = start(
            &svc,
            GameKind::Cortexcape,
            "short=true",
            vec![member(a, &format!("M{a}")), member(b, &format!("M{b}"))],
            seed,
        )
        .await;
        Playout::new(&svc, game).by(By::Seat).until_the_end().await;
        ended.push(game);
    }
    // M2 resigns the fourth game against M1: a loss for M2 whatever the scores said.
    let resigned = start(
        &svc,
        GameKind::Cortexcape,
        "short=true",
        vec![member(1, "M1"), member(2, "M2")],
        6,
    )
    .await;
    svc.moves()
        .resign(resigned, 2, Lang::En, svc.now())
        .await
        .expect("resign");
    ended.push(resigned);
    // A member alone against a bot (issue 36): no rating moves, the bot's neither.
    let lone = start(
        &svc,
        GameKind::Cortexcape,
        "short=true",
        vec![member(3, "M3"), bot()],
        8,
    )
    .await;
    Playout::new(&svc, lone).by(By::Seat).until_the_end().await;
    // Two members and a bot: all three are rated.
    let with_bot = start(
        &svc,
        GameKind::Cortexcape,
        "short=true",
        vec![member(3, "M3"), member(1, "M1"), bot()],
        7,
    )
    .await;
    Playout::new(&svc, with_bot)
        .by(By::Seat)
        .until_the_end()
        .await;
    ended.push(with_bot);
    assert!(svc
        .store()
        .rating_changes_of_game(ended[0])
        .await
        .unwrap()
        .is_empty());

    // The first read rates them all, in end order.
    let history = svc
        .records()
        .rating_history(Some(SERVER))
        .await
        .expect("history");
    let mut games: Vec<GameId> = Vec::new();
    for c in &history {
        if games.last() != Some(&c.game) {
            games.push(c.game);
        }
    }
    assert_eq!(games, ended, "the game against a bot alone is not rated");
    assert_eq!(history.len(), 2 * ended.len() + 1);
    // Once: a second settle rates nothing more.
    assert_eq!(svc.records().settle_ratings(Some(SERVER)).await.unwrap(), 0);

    // The resignation: M1 ranked above M2, M1 up, M2 down.
    let resign: Vec<_> = history.iter().filter(|c| c.game == resigned).collect();
    let (m1, m2) = (
        resign.iter().find(|c| c.player == "u:1").unwrap(),
        resign.iter().find(|c| c.player == "u:2").unwrap(),
    );
    assert!(m1.rank < m2.rank && m1.won && !m2.won, "{resign:?}");
    assert!(m1.after.mu > m1.before.mu && m2.after.mu < m2.before.mu);
    // The bot level is a player of its own when members play together with it.
    assert!(history
        .iter()
        .any(|c| c.game == with_bot && c.player == "bot:normal"));
    assert!(svc
        .store()
        .rating_changes_of_game(lone)
        .await
        .unwrap()
        .is_empty());

    // Replaying the history with the crate's update from the start gives every change, and
    // its last values are the ratings the leaderboard shows.
    let mut current: Vec<(String, Skill)> = Vec::new();
    for game in &ended {
        let changes: Vec<_> = history.iter().filter(|c| c.game == *game).collect();
        let before: Vec<Skill> = changes
            .iter()
            .map(|c| {
                current
                    .iter()
                    .find(|(p, _)| *p == c.player)
                    .map_or(croupier::service::rating_start(), |(_, s)| *s)
            })
            .collect();
        let ranks: Vec<i64> = changes.iter().map(|c| c.rank).collect();
        let after = rating_update(&before, &ranks, &[]);
        for ((c, b), a) in changes.iter().zip(&before).zip(&after) {
            assert!((c.before.mu - b.mu).abs() < 1e-5, "{c:?}");
            assert!((c.after.mu - a.mu).abs() < 1e-5 && (c.after.sigma - a.sigma).abs() < 1e-5);
            current.retain(|(p, _)| *p != c.player);
            current.push((c.player.clone(), c.after));
        }
    }
    let rebuilt = replay_history(&history);
    let board = svc
        .store()
        .ratings_of_kind(Some(SERVER), GameKind::Cortexcape)
        .await
        .unwrap();
    assert_eq!(board.len(), rebuilt.len());
    for row in &board {
        let (_, _, skill, played, wins) = rebuilt
            .iter()
            .find(|(k, p, ..)| *k == row.kind && *p == row.player)
            .expect("in the history");
        assert!((skill.mu - row.skill.mu).abs() < 1e-9, "{row:?}");
        assert_eq!((*played, *wins), (row.played, row.wins));
    }

    // The leaderboard text lists them in the order of the conservative estimate.
    let text = svc
        .records()
        .stats_board(Some(SERVER), Some(GameKind::Cortexcape), Some(1), Lang::En)
        .await
        .unwrap();
    // Provisional players are left off the board (their count is said instead).
    let ordered = croupier::service::ordered(board);
    let mut at = 0;
    for row in ordered
        .iter()
        .filter(|r| !croupier::service::provisional(r.skill))
    {
        let name = if row.player == "bot:normal" {
            "🤖 Bot (normal)".to_string()
        } else {
            format!("**{}**", row.name)
        };
        let found = text[at..]
            .find(&name)
            .unwrap_or_else(|| panic!("{name} in order: {text}"));
        at += found;
    }
    assert!(text.contains("🥇"), "{text}");
    // A member's profile, in French.
    let fr = svc
        .records()
        .profile_text(Some(SERVER), 1, "M1", Lang::Fr)
        .await
        .unwrap();
    assert!(fr.starts_with("📊 Cotes de M1 sur ce serveur"), "{fr}");
    assert!(fr.contains("**Cortexcape** · n° "), "{fr}");
    assert!(svc
        .records()
        .profile_text(Some(SERVER), 99, "Nobody", Lang::En)
        .await
        .unwrap()
        .contains("no rated game"));
}

/// Who a game rates, at which place: nobody in a one-seat puzzle, solved or not (issue 36: it
/// used to be rated against a shared "puzzle"), a player who ran out of time below everyone,
/// a player of two seats once. A resigned puzzle ranks below every solve, with no winner.
#[tokio::test]
async fn entrants_of_a_solitaire_a_leaver_and_a_double_seat() {
    let svc = Service::new(Db::sqlite_memory().connect().await);
    let solo = start(
        &svc,
        GameKind::Vortex,
        "mode=solitaire",
        vec![member(1, "Sol")],
        3,
    )
    .await;
    let record = svc.load(solo).await.unwrap().record;
    let outcome = |ranks: Vec<u8>, winners: Vec<Seat>| Outcome {
        scores: vec![0; ranks.len()],
        ranks,
        winners,
        draw: false,
    };
    assert!(entrants(&record, &outcome(vec![1], vec![Seat(0)]), |_| None).is_empty());
    assert!(entrants(&record, &outcome(vec![2], vec![]), |_| None).is_empty());
    let puzzle = svc.load(solo).await.unwrap();
    let resigned = standings(puzzle.game.as_ref(), Some(Seat(0)));
    assert_eq!(resigned.ranks, vec![2], "below a solve's 1");
    assert!(
        resigned.winners.is_empty() && !resigned.draw,
        "{resigned:?}"
    );

    let three = start(
        &svc,
        GameKind::Cortexcape,
        "",
        vec![member(1, "A"), member(2, "B"), member(1, "A again")],
        4,
    )
    .await;
    let mut record = svc.load(three).await.unwrap().record;
    // B won but had missed deadlines since last playing: below everyone, not a win.
    record.seats[1].timeouts = 1;
    let e = entrants(&record, &outcome(vec![3, 1, 2], vec![Seat(1)]), |_| None);
    assert_eq!(e.len(), 2, "{e:?}");
    let a = e.iter().find(|x| x.player == "u:1").unwrap();
    let b = e.iter().find(|x| x.player == "u:2").unwrap();
    assert_eq!((a.rank, a.seat), (2, Some(Seat(2))));
    assert_eq!((b.rank, b.won), (4, false));
    // A game nobody else rates in: nothing.
    let game = svc.load(three).await.unwrap();
    record.seats[1].user = Some(1);
    assert!(entrants(&record, &standings(game.game.as_ref(), None), |_| None).is_empty());
}

/// Every game's leaderboard in one `/stats` message: with many players whose names are long
/// and full of markdown (escaped, so longer still), the message shrinks each board to fit
/// Discord's 2,000 characters and still shows every game, the footnote and the viewer's place.
#[tokio::test]
async fn the_all_games_leaderboard_fits_one_message() {
    let svc = Service::new(Db::sqlite_memory().connect().await);
    let name = |i: i64| format!("*_~`|{i:02}_the_longest_name_**_{i:02}");
    let kinds = [
        (GameKind::Cortexcape, "short=true"),
        (GameKind::Portal, ""),
        (GameKind::Gates, ""),
        (GameKind::SpaceLab, ""),
        (GameKind::Vortex, ""),
    ];
    // Five games each, so nobody is provisional any more.
    for (k, (kind, options)) in kinds.into_iter().enumerate() {
        for pair in 0..6i64 {
            for round in 0..5u64 {
                let (a, b) = (100 + 2 * pair, 101 + 2 * pair);
                let game = start(
                    &svc,
                    kind,
                    options,
                    vec![member(a, &name(a)), member(b, &name(b))],
                    (k * 100) as u64 + pair as u64 * 10 + round,
                )
                .await;
                svc.moves()
                    .resign(game, b, Lang::En, svc.now())
                    .await
                    .expect("resign");
            }
        }
    }
    // The viewer is one of the losers, below the top three of every game.
    let viewer = 111;
    for lang in [Lang::En, Lang::Fr] {
        let text = svc
            .records()
            .stats_board(Some(SERVER), None, Some(viewer), lang)
            .await
            .unwrap();
        assert!(
            text.chars().count() <= 2000,
            "{} chars: {text}",
            text.chars().count()
        );
        for (kind, _) in kinds {
            assert!(
                text.contains(&format!("**{}**", kind.display_name())),
                "{kind:?} missing: {text}"
            );
        }
        let you = if lang == Lang::En {
            "… and you:"
        } else {
            "… et vous :"
        };
        assert_eq!(
            text.matches(you).count(),
            5,
            "the viewer's place in each: {text}"
        );
        assert!(text.contains("Places go by") || text.contains("Le classement suit"));
        // One game alone keeps its top ten.
        let one = svc
            .records()
            .stats_board(Some(SERVER), Some(GameKind::Portal), Some(viewer), lang)
            .await
            .unwrap();
        assert!(one.chars().count() <= 2000, "{one}");
        assert!(one.contains("`10.`"), "a top ten: {one}");
    }
}

// ----- end to end through the fake Discord -----

#[tokio::test]
async fn puzzles_and_casual_games_move_no_rating_on_sqlite() {
    puzzles_and_casual_games_move_no_rating(Db::sqlite_file()).await;
}

#[tokio::test]
async fn puzzles_and_casual_games_move_no_rating_on_postgres() {
    if let Some(db) = Db::postgres("ratings_casual").await {
        puzzles_and_casual_games_move_no_rating(db).await;
    }
}

/// The result posted in `thread` (the message that says the game is over).
async fn result_in(fake: &FakeDiscord, thread: u64) -> Message {
    fake.wait_until("the result", |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == thread && m.content.contains("is over:"))
            .cloned()
    })
    .await
}

/// Issue 36. A one-seat Vortex Solitaire resigned at once was "won by" its player (the seat
/// ranked at seat count = 1) and beat the shared puzzle on the Vortex leaderboard: now it is
/// unsolved, below every solve, and puzzles move no rating at all. A casual game
/// (`rated:false`) says so in its lobby, its result and /stats, and moves no rating.
async fn puzzles_and_casual_games_move_no_rating(db: Db) {
    let service = Service::new(db.connect().await);
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, service.clone()).await;
    let guild = Some(id_i64(GUILD_ID));

    // Alice's puzzle, given up before a single rotation.
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "vortex"),
                opt::string("options", "mode=solitaire solo_scramble=5"),
            ],
        ))
        .await;
    let lobby = play_answer(&fake, cmd.id).await.expect("a lobby");
    let thread = join_and_start(&fake, &lobby, &[], ALICE).await;
    let puzzle = game_of(&lobby);
    let question = ask(&fake, ALICE, thread, Push::command("resign", vec![])).await;
    click_private(&fake, &question, &format!("k:{}:resign", puzzle.0), ALICE).await;
    let result = result_in(&fake, thread).await;
    assert!(result.content.contains("not solved"), "{}", result.content);
    assert!(!result.content.contains("won by"), "{}", result.content);
    assert!(result.content.contains("2. alice"), "{}", result.content);
    assert!(!result.content.contains("📈"), "{}", result.content);
    assert!(service
        .store()
        .ratings_of_kind(guild, GameKind::Vortex)
        .await
        .unwrap()
        .is_empty());

    // A casual game: the lobby says so; Bob resigns; the result says no rating moved.
    let cmd = fake
        .push(Push::command(
            "play",
            vec![
                opt::string("game", "cortexcape"),
                opt::string("options", "short=true"),
                opt::boolean("rated", false),
            ],
        ))
        .await;
    let lobby = play_answer(&fake, cmd.id).await.expect("a lobby");
    assert!(
        lobby
            .content
            .contains("🎲 Casual: this game moves no rating."),
        "{}",
        lobby.content
    );
    let thread = join_and_start(&fake, &lobby, &[BOB], ALICE).await;
    let casual = game_of(&lobby);
    let question = ask(&fake, BOB, thread, Push::command("resign", vec![])).await;
    click_private(&fake, &question, &format!("k:{}:resign", casual.0), BOB).await;
    let result = result_in(&fake, thread).await;
    assert!(
        result.content.contains("A casual game: no rating moved."),
        "{}",
        result.content
    );
    assert!(
        result.content.contains("A casual game: not rated."),
        "the card's footer: {}",
        result.content
    );
    assert!(service
        .store()
        .rating_changes_of_game(casual)
        .await
        .unwrap()
        .is_empty());
    assert!(service
        .store()
        .ratings_of_kind(guild, GameKind::Cortexcape)
        .await
        .unwrap()
        .is_empty());

    // /stats: no leaderboard, and the casual game counted as such.
    let stats = ask(&fake, BOB, CHANNEL_ID, Push::command("stats", vec![])).await;
    assert!(
        stats
            .content
            .contains("**Cortexcape**: 1 game finished (1 casual, not rated)"),
        "{}",
        stats.content
    );
    assert!(!stats.content.contains("🥇"), "{}", stats.content);
    finish(&fake).await;
    bot.stop().await;
}

#[tokio::test]
async fn a_profile_times_turns_in_the_readers_hours_on_sqlite() {
    a_profile_times_turns_in_the_readers_hours(Db::sqlite_file()).await;
}

#[tokio::test]
async fn a_profile_times_turns_in_the_readers_hours_on_postgres() {
    if let Some(db) = Db::postgres("ratings_profile").await {
        a_profile_times_turns_in_the_readers_hours(db).await;
    }
}

/// Issue 41 §6: `/stats user:`'s speed, favourites and card. M1 always takes 10 minutes and
/// M2 an hour; the game's first turn is not timed; the hours are the reader's (Paris for M2,
/// UTC for M3, who has no zone); the card is drawn, and a member with no game gets the
/// friendly lines.
async fn a_profile_times_turns_in_the_readers_hours(db: Db) {
    use croupier::service::SettingsChange;
    use std::sync::Arc;
    // 2026-01-15 08:00 UTC, 09:00 in Paris.
    let t0 = 1_768_464_000;
    let clock = croupier::clock::ManualClock::new(t0);
    let svc = Service::new(db.connect().await).with_clock(Arc::new(clock.clone()));
    let game = start(
        &svc,
        GameKind::Cortexcape,
        "short=true",
        vec![member(1, "M1"), member(2, "M2")],
        3,
    )
    .await;
    let (mut turns_of_m1, mut first) = (0, true);
    while let Some(d) = decider(&svc, game).await {
        // The first turn ends at t0; each later one ends its taker's time after the last.
        if !first {
            clock.advance(if d.user == Some(1) { 600 } else { 3600 });
            turns_of_m1 += i64::from(d.user == Some(1));
        }
        first = false;
        Playout::new(&svc, game).at(svc.now()).turn().await;
    }
    assert!(turns_of_m1 >= 2, "{turns_of_m1}");
    svc.players()
        .update_settings(
            2,
            SettingsChange {
                timezone: Some("Europe/Paris".into()),
                ..SettingsChange::default()
            },
            svc.now(),
        )
        .await
        .unwrap();
    let records = svc.records();
    let by_m2 = records
        .profile(Some(SERVER), 1, "M1", 2, Lang::En)
        .await
        .unwrap();
    let speed = &by_m2.lines[0];
    assert!(
        speed.starts_with(&format!(
            "⏱️ Median time to play a turn: 10 min over {turns_of_m1} turns"
        )),
        "{speed}"
    );
    assert!(speed.contains("h (Europe/Paris)"), "{speed}");
    assert_eq!(by_m2.lines[1], "🎲 Most played: Cortexcape (1)");
    let card = image::load_from_memory(&by_m2.card).expect("a PNG");
    assert_eq!(card.width(), 640);
    if let Some(dir) = std::env::var_os("CROUPIER_LOOK") {
        // To look at the card: CROUPIER_LOOK=/tmp/look cargo test --test suite profile
        std::fs::write(std::path::Path::new(&dir).join("profile.png"), &by_m2.card).unwrap();
    }
    // M2's hour, read by M3 (no zone: UTC), in French.
    let by_m3 = records
        .profile(Some(SERVER), 2, "M2", 3, Lang::Fr)
        .await
        .unwrap();
    assert!(
        by_m3.lines[0].starts_with("⏱️ Temps médian pour jouer un tour : 1 h sur "),
        "{}",
        by_m3.lines[0]
    );
    assert!(by_m3.lines[0].contains("h (UTC)"), "{}", by_m3.lines[0]);
    // Paris is an hour ahead of UTC in January: the same quickest turn, an hour later.
    let hour_of = |line: &str| -> i64 {
        let at = line.rfind("h (").expect("an hour");
        let digits: String = line[..at]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        digits.parse().expect("a number")
    };
    let by_m3_of_m1 = records
        .profile(Some(SERVER), 1, "M1", 3, Lang::En)
        .await
        .unwrap();
    assert_eq!(
        (hour_of(&by_m3_of_m1.lines[0]) + 1) % 24,
        hour_of(speed),
        "{} / {speed}",
        by_m3_of_m1.lines[0]
    );
    // Nobody's games: no timed turn, no favourites, the card still drawn.
    let nobody = records
        .profile(Some(SERVER), 9, "M9", 3, Lang::En)
        .await
        .unwrap();
    assert_eq!(nobody.lines.len(), 1, "{:?}", nobody.lines);
    assert!(nobody.lines[0].starts_with("⏱️ No timed turn yet"));
    assert!(image::load_from_memory(&nobody.card).is_ok());
    db.finish().await;
}

#[tokio::test]
async fn a_game_to_the_end_moves_ratings_and_stats_lists_them_on_sqlite() {
    ratings_through_discord(Db::sqlite_file()).await;
}

#[tokio::test]
async fn a_game_to_the_end_moves_ratings_and_stats_lists_them_on_postgres() {
    if let Some(db) = Db::postgres("ratings_e2e").await {
        ratings_through_discord(db).await;
    }
}

fn id_i64(u: u64) -> i64 {
    i64::from_ne_bytes(u.to_ne_bytes())
}

async fn ratings_through_discord(db: Db) {
    let service = Service::new(db.connect().await);
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, service.clone()).await;
    let guild = Some(id_i64(GUILD_ID));

    let none = ask(&fake, ALICE, CHANNEL_ID, Push::command("stats", vec![])).await;
    assert!(
        none.content.starts_with("No rated game here yet"),
        "{}",
        none.content
    );

    // A whole game, played with /move to its end.
    let (game, thread) = start_game(&fake).await;
    for _ in 0..500 {
        let Some(d) = decider(&service, game).await else {
            break;
        };
        let typed = send_move(&fake, d.member(), thread, &d.options[0]).await;
        answer_of(&fake, typed.id).await;
    }
    assert_eq!(
        service.load(game).await.unwrap().record.status,
        GameStatus::Finished
    );
    // The result card says how the ratings moved.
    let result = fake
        .wait_until("the result with ratings", |st| {
            st.messages
                .iter()
                .find(|m| m.channel_id == thread && m.content.contains("📈 Ratings:"))
                .cloned()
        })
        .await;
    assert!(
        result.content.contains("**alice**: 25.0 → "),
        "{}",
        result.content
    );
    assert!(
        result.content.contains("**bob**: 25.0 → "),
        "{}",
        result.content
    );
    let changes = service.store().rating_changes_of_game(game).await.unwrap();
    assert_eq!(changes.len(), 2);
    for c in &changes {
        // Every seat's rating moved: its uncertainty shrank (a draw keeps equal estimates).
        assert!(c.after.sigma < c.before.sigma, "{c:?}");
    }

    // A second game, which Bob resigns: Alice leads the board.
    let (second, thread2) = start_game(&fake).await;
    let question = ask(&fake, BOB, thread2, Push::command("resign", vec![])).await;
    click_private(&fake, &question, &format!("k:{}:resign", second.0), BOB).await;
    fake.wait_until("the second result", |st| {
        st.messages
            .iter()
            .find(|m| m.channel_id == thread2 && m.content.contains("📈 Ratings:"))
            .map(|_| ())
    })
    .await;
    let board = croupier::service::ordered(
        service
            .store()
            .ratings_of_kind(guild, GameKind::Cortexcape)
            .await
            .unwrap(),
    );
    assert_eq!(board[0].player, format!("u:{}", id_i64(ALICE)), "{board:?}");
    assert_eq!((board[0].played, board[1].played), (2, 2));

    // Two games are too few (issue 36): both are provisional, left off the board, and /stats
    // says so, with about how many games Bob lacks; his profile too.
    let stats = ask(&fake, BOB, CHANNEL_ID, Push::command("stats", vec![])).await;
    let text = &stats.content;
    assert!(!text.contains("🥇"), "{text}");
    assert!(text.contains("… and you: provisional"), "{text}");
    assert!(text.contains("more rated games"), "{text}");
    assert!(
        text.contains("2 provisional players not listed yet"),
        "{text}"
    );
    let profile = ask(
        &fake,
        BOB,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", BOB)]),
    )
    .await;
    assert!(
        profile.content.contains("**Cortexcape** · provisional"),
        "{}",
        profile.content
    );
    // Three more games, which Bob resigns: both are placed now.
    for seed in 0..3 {
        let game = start_direct(
            &service,
            GameKind::Cortexcape,
            GameOptions::from([("short".to_string(), "true".to_string())]),
            &[(ALICE, "alice"), (BOB, "bob")],
            CHANNEL_ID,
            seed,
        )
        .await;
        service
            .moves()
            .resign(game, id_i64(BOB), Lang::En, service.now())
            .await
            .expect("resign");
    }

    // /stats lists them in that order, each with rating ± uncertainty, games and win rate.
    let stats = ask(&fake, BOB, CHANNEL_ID, Push::command("stats", vec![])).await;
    let text = &stats.content;
    assert!(
        text.starts_with("🎲 **Cortexcape**: 5 games finished"),
        "{text}"
    );
    assert!(!text.contains("provisional"), "{text}");
    let alice = text
        .find("🥇 **alice** · ")
        .unwrap_or_else(|| panic!("{text}"));
    let bob = text
        .find("🥈 **bob** · ")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(alice < bob);
    assert!(text.contains(" · 5 games · "), "{text}");
    assert!(text.len() <= 2000);
    // One game's top ten, in French, and a member's profile.
    let fr = ask(
        &fake,
        BOB,
        CHANNEL_ID,
        Push::command("stats", vec![opt::string("game", "cortexcape")]).locale("fr"),
    )
    .await;
    assert!(fr.content.contains("5 parties terminées"), "{}", fr.content);
    assert!(fr.content.contains("% de victoires"), "{}", fr.content);
    let profile = ask(
        &fake,
        BOB,
        CHANNEL_ID,
        Push::command("stats", vec![opt::user("user", ALICE)]),
    )
    .await;
    assert!(
        profile.content.contains("**Cortexcape** · #1 of 2 · "),
        "{}",
        profile.content
    );
    // Issue 41 §6: with speed, favourites and the card (rating history, time by hour).
    assert!(
        profile.content.contains("🎲 Most played: Cortexcape (5)"),
        "{}",
        profile.content
    );
    assert!(profile.content.contains("⏱️ "), "{}", profile.content);
    let card = profile
        .attachments
        .iter()
        .find(|a| a.filename == "stats.png")
        .unwrap_or_else(|| panic!("no card: {profile:?}"));
    assert_eq!(card.dimensions.map(|d| d.0), Some(640));

    replays_and_exports(&fake, &service, game, thread).await;
    finish(&fake).await;
    bot.stop().await;
}

/// The first custom id among a message's buttons that starts with `prefix` and is enabled.
fn button(m: &Message, suffix: &str) -> String {
    let id = custom_ids(&m.components)
        .into_iter()
        .find(|id| id.starts_with("p:") && id.ends_with(suffix))
        .unwrap_or_else(|| panic!("no {suffix} button: {:?}", m.components));
    let c = component(&m.components, &id).expect("the button");
    assert_ne!(c["disabled"], true, "{id} is disabled");
    id
}

fn replay_image(m: &Message) -> Vec<u8> {
    let a = m
        .attachments
        .iter()
        .find(|a| a.filename == "replay.png")
        .unwrap_or_else(|| panic!("no replay image: {m:?}"));
    assert!(a.dimensions.is_some(), "a PNG");
    a.bytes.clone()
}

/// /replay of the finished game steps back and forth; a spectator may replay it; /export
/// gives its record, which the table binary replays to the same end. The running game is
/// neither replayed for a spectator nor exported.
async fn replays_and_exports(fake: &FakeDiscord, service: &Service, game: GameId, thread: u64) {
    let turns = croupier::service::turn_bounds(&service.store().moves(game).await.unwrap()).len();
    // From the start: ⏮ and ◀ are off.
    let start = ask(fake, ALICE, thread, Push::command("replay", vec![])).await;
    assert!(
        start.content.contains(&format!(
            "**Cortexcape #{}** · replay · turn 0 of {turns}",
            game.0
        )),
        "{}",
        start.content
    );
    let first_image = replay_image(&start);
    let off: Vec<bool> = custom_ids(&start.components)
        .iter()
        .map(|id| component(&start.components, id).unwrap()["disabled"] == true)
        .collect();
    assert_eq!(off, [true, true, false, false], "{:?}", start.components);
    // ▶ twice, ◀ once: turn 1, with its options and another board.
    let one = click_private(fake, &start, &button(&start, ":n"), ALICE).await;
    assert!(
        one.content.contains(&format!("turn 1 of {turns}")),
        "{}",
        one.content
    );
    assert!(
        one.content.contains("alice: `") || one.content.contains("bob: `"),
        "{}",
        one.content
    );
    let two = click_private(fake, &one, &button(&one, ":n"), ALICE).await;
    assert!(
        two.content.contains(&format!("turn 2 of {turns}")),
        "{}",
        two.content
    );
    let back = click_private(fake, &two, &button(&two, ":b"), ALICE).await;
    assert!(
        back.content.contains(&format!("turn 1 of {turns}")),
        "{}",
        back.content
    );
    assert_eq!(
        replay_image(&back),
        replay_image(&one),
        "the same step, the same board"
    );
    // ⏭: the end, with the result; ▶ and ⏭ are off. ⏮: back to the start's board.
    let end = click_private(fake, &back, &button(&back, ":l"), ALICE).await;
    assert!(
        end.content.contains(&format!("turn {turns} of {turns}")),
        "{}",
        end.content
    );
    assert!(end.content.contains("alice"), "{}", end.content);
    let off: Vec<bool> = custom_ids(&end.components)
        .iter()
        .map(|id| component(&end.components, id).unwrap()["disabled"] == true)
        .collect();
    assert_eq!(off, [false, false, true, true]);
    let again = click_private(fake, &end, &button(&end, ":f"), ALICE).await;
    assert_eq!(replay_image(&again), first_image);

    // A spectator in the game's thread may replay the finished game, from any turn.
    let spectator = ask(
        fake,
        OWNER_ID,
        thread,
        Push::command("replay", vec![opt::integer("turn", 3)]),
    )
    .await;
    assert!(
        spectator.content.contains(&format!("turn 3 of {turns}")),
        "{}",
        spectator.content
    );

    // /export: the record as a file, which the table replays to the same end.
    let exported = ask(fake, BOB, thread, Push::command("export", vec![])).await;
    let name = format!("cortexcape-{}.json", game.0);
    assert!(exported.content.contains(&name), "{}", exported.content);
    let file = exported
        .attachments
        .iter()
        .find(|a| a.filename == name)
        .expect("the record attached");
    let text = String::from_utf8(file.bytes.clone()).expect("JSON text");
    let record = croupier::service::GameFile::parse(&text).expect("our file replays");
    assert_eq!(record.seats, ["alice", "bob"]);
    assert_eq!(record.status, "finished");
    // A seat name no Discord member could have is refused before anything is stored.
    let mut huge = record.clone();
    huge.seats[0] = "名".repeat(100_000);
    let refused = croupier::service::GameFile::parse(&serde_json::to_string(&huge).unwrap())
        .expect_err("a 100,000-character name is refused");
    assert!(
        refused
            .render(croupier::i18n::Lang::En)
            .contains("longer than 100"),
        "{refused:?}"
    );
    let replayed = record.replay().unwrap();
    let stored = service.load(game).await.unwrap().game;
    assert_eq!(
        replayed.to_json(),
        stored.to_json(),
        "the record replays to the stored end"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(&name);
    std::fs::write(&path, &text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(["table", "--json", "--import"])
        .arg(&path)
        .arg("--db")
        .arg(format!("sqlite://{}/import.db", dir.path().display()))
        .arg("--out")
        .arg(dir.path().join("images"))
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_TOKEN")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the croupier binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON lines"))
        .collect();
    // The start, then one step per move of the file, the last with the game's outcome.
    assert_eq!(lines.len(), record.moves.len() + 1);
    let outcome = stored.outcome().expect("over");
    assert_eq!(
        lines.last().unwrap()["outcome"]["ranks"],
        serde_json::json!(outcome.ranks)
    );
    // A file that does not replay is refused before anything is stored, naming the move.
    let mut broken: serde_json::Value = serde_json::from_str(&text).unwrap();
    broken["moves"][2]["notation"] = "fly to the moon".into();
    std::fs::write(&path, broken.to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(["table", "--import"])
        .arg(&path)
        .args(["--db", "sqlite::memory:"])
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_TOKEN")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Move 3 of the file (`fly to the moon`)"),
        "{err}"
    );

    // A running game: its players replay it up to now; a spectator may not; no export yet.
    let (running, thread3) = start_game(fake).await;
    let mine = ask(fake, ALICE, thread3, Push::command("replay", vec![])).await;
    assert!(
        mine.content.contains(&format!(
            "**Cortexcape #{}** · replay · turn 0 of 0",
            running.0
        )),
        "{}",
        mine.content
    );
    assert!(
        mine.content.contains("where the game stands now"),
        "{}",
        mine.content
    );
    let refused = ask(fake, OWNER_ID, thread3, Push::command("replay", vec![])).await;
    assert!(
        refused.content.starts_with("Only the players of game #"),
        "{}",
        refused.content
    );
    assert!(refused.attachments.is_empty());
    let refused = ask(fake, ALICE, thread3, Push::command("export", vec![])).await;
    assert!(
        refused.content.contains("is still running"),
        "{}",
        refused.content
    );
    assert!(refused.attachments.is_empty());
}

/// Vortex's teams of two are rated as teams: each entrant carries its seat's team, and a
/// teammate who ran out of time is a side of their own, last.
#[tokio::test]
async fn a_team_game_rates_its_teams_as_sides() {
    let svc = Service::new(Db::sqlite_memory().connect().await);
    let four = start(
        &svc,
        GameKind::Vortex,
        "mode=crossing teams=on",
        vec![
            member(1, "A"),
            member(2, "B"),
            member(3, "C"),
            member(4, "D"),
        ],
        5,
    )
    .await;
    let loaded = svc.load(four).await.unwrap();
    let team_of = |s: Seat| loaded.game.team_of(s);
    let teams: Vec<Option<u8>> = (0..4).map(|i| team_of(Seat(i))).collect();
    assert!(teams.iter().all(Option::is_some), "{teams:?}");
    for t in &teams {
        assert_eq!(teams.iter().filter(|x| *x == t).count(), 2, "{teams:?}");
    }
    // The team of seats 0 and its partner wins.
    let partner = (1..4).find(|&i| teams[i] == teams[0]).unwrap();
    let ranks: Vec<u8> = (0..4)
        .map(|i| if teams[i] == teams[0] { 1 } else { 3 })
        .collect();
    let winners: Vec<Seat> = (0..4u8)
        .filter(|&i| teams[usize::from(i)] == teams[0])
        .map(Seat)
        .collect();
    let outcome = Outcome {
        scores: vec![0; 4],
        ranks,
        winners,
        draw: false,
    };
    let e = entrants(&loaded.record, &outcome, team_of);
    let sides: Vec<Option<u8>> = e.iter().map(|x| x.team).collect();
    assert_eq!(sides, teams);
    // Two sides of two: the winners gain alike, the losers lose alike.
    let before = vec![croupier::service::rating_start(); 4];
    let ranks: Vec<i64> = e.iter().map(|x| x.rank).collect();
    let after = rating_update(&before, &ranks, &sides);
    assert!(after[0].mu > 25.0 && (after[0].mu - after[partner].mu).abs() < 1e-9);
    let loser = (1..4).find(|&i| teams[i] != teams[0]).unwrap();
    assert!(after[loser].mu < 25.0);
    // A leaver loses alone: their partner keeps the team's place.
    let mut record = loaded.record.clone();
    record.seats[loser].timeouts = 1;
    let e = entrants(&record, &outcome, team_of);
    assert_eq!((e[loser].team, e[loser].rank), (None, 5));
    let other = (1..4)
        .find(|&i| i != loser && teams[i] == teams[loser])
        .unwrap();
    assert_eq!((e[other].team, e[other].rank), (teams[loser], 3));
}
