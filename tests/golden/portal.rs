//! Portal boards at several moments of seeded games (setup, mid-game, a recycle pending, the
//! end), public and private, in English and French.

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, GameKind, GameOptions, RenderCtx, Seat};
use croupier::i18n::Lang;

fn check(name: &str, img: &image::RgbaImage) {
    super::check("portal", name, img);
}

fn ctx(lang: Lang, seats: usize) -> RenderCtx {
    let names = ["Ann", "Bob", "Cleo", "Dev"];
    RenderCtx {
        lang,
        names: names.iter().take(seats).map(|s| (*s).to_string()).collect(),
        stopped: false,
        number: None,
    }
}

fn game(opts: &[(&str, &str)], seats: usize, seed: u64) -> Box<dyn AnyGame> {
    let o: GameOptions = opts
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    GameKind::Portal.setup(&o, seats, seed).unwrap()
}

/// Plays `steps` random listed options (or until `stop` says so).
fn advance(g: &mut Box<dyn AnyGame>, seed: u64, steps: usize, stop: impl Fn(&dyn AnyGame) -> bool) {
    let mut rng = GameRng::seed_from_u64(seed);
    for _ in 0..steps {
        if stop(g.as_ref()) {
            return;
        }
        let Some(p) = g.prompt() else { return };
        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
        g.apply_notation(p.seat, &pick).unwrap();
    }
}

#[test]
fn portal_setup_three_players() {
    let g = game(&[], 3, 7);
    check("setup_3p", &g.render_public(&ctx(Lang::En, 3)));
}

#[test]
fn portal_mid_game_four_players_open_hands() {
    let mut g = game(&[("hands", "open"), ("show_backs", "true")], 4, 11);
    advance(&mut g, 11, 400, |g| {
        g.prompt().is_some_and(|p| p.kind == "reward")
    });
    check("mid_4p_reward", &g.render_public(&ctx(Lang::En, 4)));
    let zoom = g.render_zoom(&ctx(Lang::En, 4), Some(Seat(0))).unwrap().0;
    check("mid_4p_zoom", &zoom);
    let seat = (0..4).map(Seat).find(|&s| {
        g.private_view_json(s)
            .is_some_and(|v| v["hand"].as_array().is_some_and(|h| !h.is_empty()))
    });
    let seat = seat.unwrap_or(Seat(0));
    check(
        "mid_4p_private",
        &g.render_private(seat, &ctx(Lang::En, 4)).unwrap(),
    );
    check(
        "mid_4p_private_fr",
        &g.render_private(seat, &ctx(Lang::Fr, 4)).unwrap(),
    );
}

#[test]
fn portal_recycle_pending_two_players_french() {
    let mut g = game(&[], 2, 5);
    advance(&mut g, 5, 400, |g| {
        g.prompt().is_some_and(|p| p.kind == "recycle_floor")
    });
    check("recycle_2p_fr", &g.render_public(&ctx(Lang::Fr, 2)));
}

#[test]
fn portal_end_of_game() {
    let mut g = game(&[], 2, 3);
    advance(&mut g, 3, 5000, |g| g.outcome().is_some());
    assert!(g.outcome().is_some());
    check("end_2p", &g.render_public(&ctx(Lang::En, 2)));
    // In French with the game's number, and its Zoom (the result first).
    let fr = RenderCtx {
        number: Some(12),
        ..ctx(Lang::Fr, 2)
    };
    check("end_2p_fr", &g.render_public(&fr));
    check(
        "end_2p_zoom_fr",
        &g.render_zoom(&fr, Some(Seat(1))).unwrap().0,
    );
}

/// The result card (issue 22) of a whole game played out at random: ranks, totals with the
/// game's breakdown, how it ended, turns and length.
#[test]
fn result_card_of_a_whole_game() {
    let card = super::cortexcape::played_out_result(
        croupier::engine::GameKind::Portal,
        &[],
        3,
        13,
        croupier::i18n::Lang::Fr,
    );
    check("result_fr", &card);
}

/// Long floors in French (issue 25): seven chambers on the middle floor, the new edge's "NEUF"
/// and the old edge's "VIEUX" beside three icons each, a locked old-edge chamber (its lock at
/// the foot, its hatching inside the hexagon), and the floor names in the room the floors
/// leave. The view is a real setup's, lengthened by hand.
#[test]
fn portal_long_floors_french() {
    use croupier::engine::{Game, Present};
    use croupier::games::portal::state::Floor;
    use croupier::games::portal::Portal;
    let g = <Portal as Game>::setup(&GameOptions::new(), 4, 7).unwrap();
    let mut v = <Portal as Present>::public_view(&g);
    let template = v
        .chambers
        .iter()
        .find(|x| x.floor == Floor::Mid && x.icons.len() == 3)
        .or_else(|| v.chambers.iter().find(|x| x.icons.len() == 3))
        .expect("a chamber with three icons")
        .clone();
    v.chambers.retain(|x| x.floor != Floor::Mid);
    let top_cs: Vec<u16> = v
        .chambers
        .iter()
        .filter(|x| x.floor == Floor::Top)
        .map(|x| x.c)
        .collect();
    let lowest = top_cs.iter().copied().min().unwrap_or(1);
    for i in 0..7u16 {
        let mut x = template.clone();
        x.floor = Floor::Mid;
        x.c = lowest.saturating_sub(1) + 2 * i;
        x.id = format!("m{}", x.c);
        x.new_edge = i == 6;
        x.old_edge = i == 0;
        x.locked = i == 0;
        x.touched = false;
        v.chambers.push(x);
    }
    check(
        "long_floors_fr",
        &<Portal as Present>::render_public(&v, &ctx(Lang::Fr, 4)),
    );
}
