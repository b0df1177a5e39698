//! "Where did I lose?" (issue 41, item 5) through the fake Discord: each of the five games
//! played to its end, its result card carrying "Analyse my game", clicked by a seated player
//! in English and another in French (each answered privately, in their language, the same
//! analysis the service makes), and by a member who did not play (refused privately).
//! SQLite and PostgreSQL. The leak-twin check is in `leaks.rs`
//! (`analysis_twins_read_the_same`).

use crate::bot_play::*;
use crate::fake_discord::*;
use crate::store_db::{decider, Db};
use croupier::ai::analysis::AnalysisBudget;
use croupier::engine::{GameId, GameKind, GameOptions, GameRng};
use croupier::i18n::Lang;
use croupier::service::{Actor, PlayLine};

const CAROL: u64 = 1_100_000_000_000_000_103;

fn options_for(kind: GameKind) -> GameOptions {
    let mut o = GameOptions::new();
    if kind == GameKind::Cortexcape {
        o.insert("short".into(), "true".into());
    }
    if kind == GameKind::Portal {
        o.insert("hands".into(), "hidden".into());
    }
    o
}

fn signed(u: u64) -> i64 {
    i64::from_ne_bytes(u.to_ne_bytes())
}

/// Alice and Bob play `kind` in the games channel, at random (seeded) through the service,
/// and its last option through `/move`, so the bot posts the result card: returns the game
/// and its card.
async fn finished(w: &World, kind: GameKind, seed: u64) -> (GameId, Message) {
    let game = start_direct(
        &w.service,
        kind,
        options_for(kind),
        &[(ALICE, "Alice"), (BOB, "Bob")],
        CHANNEL_ID,
        seed,
    )
    .await;
    let mut rng = GameRng::seed_from_u64(seed);
    for _ in 0..3_000 {
        let d = decider(&w.service, game).await.expect("the game runs");
        let pick = d.options[rng.gen_range(0..d.options.len())].clone();
        // The option that ends the game goes through the bot, which then posts the result.
        let mut ends = w.service.load(game).await.expect("game").game;
        ends.apply_notation(d.seat, &pick).expect("a listed option");
        if ends.outcome().is_some() {
            let typed = send_move(&w.fake, d.member(), CHANNEL_ID, &pick).await;
            let answer = answer_of(&w.fake, typed.id).await;
            assert_eq!(answer.content, "✅ Played.", "{kind}: {answer:?}");
            return (game, card_of(&w.fake, game).await);
        }
        let line = PlayLine {
            game,
            actor: Actor::User(d.user.expect("a member")),
            line: pick,
            seen: None,
        };
        w.service
            .moves()
            .play(line, Lang::En, w.service.now())
            .await
            .expect("a listed option plays");
    }
    panic!("{kind}: the game did not end");
}

/// The result card of `game` in the games channel (several games end there one after another).
async fn card_of(fake: &FakeDiscord, game: GameId) -> Message {
    let button = format!("a:{}", game.0);
    fake.wait_until("the result card", |st| {
        st.messages
            .iter()
            .rev()
            .find(|m| {
                m.channel_id == CHANNEL_ID
                    && m.attachments.iter().any(|a| a.filename == "result.png")
                    && custom_ids(&m.components).contains(&button)
            })
            .cloned()
    })
    .await
}

/// "Analyse my game" clicked on `card` by `user` in `locale`: answered privately after a
/// deferral; returns the answer once written.
async fn analyse(
    fake: &FakeDiscord,
    card: &Message,
    game: GameId,
    user: u64,
    locale: &str,
) -> Message {
    let id = format!("a:{}", game.0);
    let p = fake
        .push(
            Push::button(card.id, &id)
                .by(user)
                .in_channel(card.channel_id)
                .locale(locale),
        )
        .await;
    let cb = fake.wait_for_callback(p.id).await;
    assert_eq!(
        cb.kind, 5,
        "an analysis is a deferred private answer: {cb:?}"
    );
    assert!(cb.ephemeral(), "an analysis is private: {cb:?}");
    let answer = answer_of(fake, p.id).await;
    assert!(answer.components.is_empty(), "{answer:?}");
    answer
}

async fn every_game_analysed_in_both_languages(db: &Db) {
    let w = World::on(db).user(CAROL, "Carol").start().await;
    let fake = &w.fake;
    for (n, &kind) in GameKind::ALL.iter().enumerate() {
        let (game, card) = finished(&w, kind, 40 + n as u64).await;
        let ids = custom_ids(&card.components);
        let button = format!("a:{}", game.0);
        assert_eq!(
            ids,
            [format!("l:{}:rematch", game.0), button.clone()],
            "{kind}: the result card's buttons"
        );
        // Alice, in English: the same analysis the service makes, its boards attached.
        let en = analyse(fake, &card, game, ALICE, "en-US").await;
        let expected = w
            .service
            .records()
            .analysis(game, signed(ALICE), Lang::En, AnalysisBudget::default())
            .await
            .expect("an analysis");
        assert_eq!(en.content, expected.text, "{kind}");
        assert!(
            en.content.starts_with(&format!(
                "🔍 **{} #{}** · where your game turned",
                kind.display_name(),
                game.0
            )),
            "{kind}: {}",
            en.content
        );
        assert!(en.content.contains("the bot weighed"), "{}", en.content);
        assert!(
            en.content.contains("Well played") || en.content.contains("Its search kept"),
            "{kind}: {}",
            en.content
        );
        assert_eq!(en.attachments.len(), expected.boards.len(), "{kind}");
        assert!(en.attachments.len() <= 3);
        for (i, a) in en.attachments.iter().enumerate() {
            assert_eq!(a.filename, format!("analysis-{}.png", i + 1));
            assert!(a
                .description
                .as_deref()
                .is_some_and(|d| d.contains("your own view")));
        }
        // Bob, in French.
        let fr = analyse(fake, &card, game, BOB, "fr").await;
        assert!(
            fr.content.contains("où votre partie a tourné"),
            "{kind}: {}",
            fr.content
        );
        assert!(
            fr.content.contains("Bien joué") || fr.content.contains("Sa recherche gardait"),
            "{kind}: {}",
            fr.content
        );
        // Carol did not play: refused privately, and kindly.
        let no = analyse(fake, &card, game, CAROL, "en-US").await;
        assert_eq!(
            no.content,
            format!(
                "Only the players of game #{} can ask for the analysis of their own game.",
                game.0
            )
        );
        assert!(no.attachments.is_empty());
        // Alice again: the answer kept, the same.
        let again = analyse(fake, &card, game, ALICE, "en-US").await;
        assert_eq!(again.content, en.content, "{kind}");
    }
    finish(fake).await;
    w.stop().await;
}

on_backends!(every_game_analysed_in_both_languages);

/// A running game has no analysis yet, a cancelled one none, and a game that does not exist
/// is said so (the strict fake Discord delivers only clicks on buttons it posted, so these
/// are asked of the service the button calls first: `Records::analysis_seat`).
async fn running_and_cancelled_games_are_refused(db: &Db) {
    use croupier::service::{AnalysisError, Service, ServiceError};
    let service = Service::new(db.connect().await);
    let game = start_direct(
        &service,
        GameKind::Vortex,
        GameOptions::new(),
        &[(ALICE, "Alice"), (BOB, "Bob")],
        CHANNEL_ID,
        3,
    )
    .await;
    let seat = |g: GameId, user: u64| service.records().analysis_seat(g, signed(user));
    let refused = |r: Result<_, ServiceError>| match r {
        Err(ServiceError::Analysis(e)) => e,
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(
        refused(seat(game, ALICE).await),
        AnalysisError::NotOver(game)
    );
    assert_eq!(
        ServiceError::from(AnalysisError::NotOver(game))
            .text()
            .render(Lang::Fr),
        format!(
            "La partie n°{} n'est pas finie : son analyse vient avec son résultat.",
            game.0
        )
    );
    db.raw(&format!(
        "UPDATE games SET status = 'cancelled' WHERE id = {}",
        game.0
    ))
    .await;
    assert_eq!(
        refused(seat(game, ALICE).await),
        AnalysisError::Cancelled(game)
    );
    assert_eq!(
        ServiceError::from(AnalysisError::Cancelled(game))
            .text()
            .render(Lang::En),
        format!(
            "Game #{} was cancelled: it has no result to analyse.",
            game.0
        )
    );
    let missing = GameId(game.0 + 1000);
    assert!(matches!(
        seat(missing, ALICE).await,
        Err(ServiceError::NoGame(g)) if g == missing
    ));
}

on_backends!(running_and_cancelled_games_are_refused);
