//! Space Lab images at setup, mid-game and game over, public and private, for 2 and 4 players.
//! Positions come from seeded playouts through the engine's public face (the game's state is
//! private to it), so a rules change that alters play also moves these pictures.

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, GameKind, GameOptions, RenderCtx, Seat};
use croupier::i18n::Lang;

fn check(name: &str, img: &image::RgbaImage) {
    super::check("spacelab", name, img);
}

fn ctx(n: usize, lang: Lang) -> RenderCtx {
    let names = ["Ada", "Bruno", "Chloé", "Dev"];
    RenderCtx {
        lang,
        names: names[..n].iter().map(|s| (*s).to_string()).collect(),
        stopped: false,
        number: None,
    }
}

/// Plays `steps` random options (or to the end when `steps` is None) from a dealt setup.
fn position(n: usize, seed: u64, steps: Option<usize>) -> Box<dyn AnyGame> {
    let mut opts = GameOptions::new();
    opts.insert("objective_setup".into(), "dealt".into());
    let mut g = GameKind::SpaceLab.setup(&opts, n, seed).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut k = 0;
    while let Some(p) = g.prompt() {
        if steps.is_some_and(|s| k >= s) {
            break;
        }
        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
        g.apply_notation(p.seat, &pick).unwrap();
        k += 1;
    }
    g
}

#[test]
fn spacelab_setup_two_players() {
    let g = GameKind::SpaceLab.setup(&GameOptions::new(), 2, 3).unwrap();
    check("setup_2p_public", &g.render_public(&ctx(2, Lang::En)));
}

#[test]
fn spacelab_mid_game_four_players() {
    let g = position(4, 11, Some(90));
    let c = ctx(4, Lang::En);
    check("mid_4p_public", &g.render_public(&c));
    // Zoom for Ada (seat 0) while another station plays.
    check("mid_4p_zoom", &g.render_zoom(&c, Some(Seat(0))).unwrap().0);
    let seat = g.prompt().map_or(Seat(0), |p| p.seat);
    check("mid_4p_private", &g.render_private(seat, &c).unwrap());
}

#[test]
fn spacelab_mid_game_two_players_french() {
    let g = position(2, 5, Some(60));
    let c = ctx(2, Lang::Fr);
    check("mid_2p_public_fr", &g.render_public(&c));
    check("mid_2p_private_fr", &g.render_private(Seat(1), &c).unwrap());
}

#[test]
fn spacelab_game_over_three_players() {
    let g = position(3, 8, None);
    assert!(g.outcome().is_some());
    let mut c = ctx(3, Lang::En);
    // The common header and footer at the end: the game's number, who won, by how much, why.
    c.number = Some(12);
    check("end_3p_public", &g.render_public(&c));
    check("end_3p_private", &g.render_private(Seat(0), &c).unwrap());
    // A phone's Zoom at the end: the result first, then the stations.
    check("end_3p_zoom", &g.render_zoom(&c, Some(Seat(0))).unwrap().0);
}

/// The result card (issue 22) of a whole game played out at random: ranks, totals with the
/// game's breakdown, how it ended, turns and length.
#[test]
fn result_card_of_a_whole_game() {
    let card = super::cortexcape::played_out_result(
        croupier::engine::GameKind::SpaceLab,
        &[],
        4,
        14,
        croupier::i18n::Lang::En,
    );
    check("result_en", &card);
}
