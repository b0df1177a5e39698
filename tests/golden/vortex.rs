//! Vortex boards: setup, mid-game and end positions of every mode, reached by playing
//! options through the engine (the positions of spec section 12 where one is needed).

use croupier::engine::GameRng;
use croupier::engine::{AnyGame, Game, GameOptions, Present, RenderCtx};
use croupier::games::vortex::state::{Colour, Router};
use croupier::games::vortex::Vortex;
use croupier::i18n::Lang;
use image::RgbaImage;

fn check(name: &str, img: &RgbaImage) {
    super::check("vortex", name, img);
}

fn ctx(lang: Lang) -> RenderCtx {
    RenderCtx {
        lang,
        names: ["Ada", "Bruno", "Chloé", "Dmitri", "Elif", "Farid"]
            .iter()
            .map(|s| (*s).to_string())
            .collect(),
        stopped: false,
        number: None,
    }
}

fn game(opts: &str, seats: usize, seed: u64) -> Vortex {
    let mut o = GameOptions::new();
    o.insert("seating".into(), "host".into());
    for kv in opts.split_whitespace() {
        let (k, v) = kv.split_once('=').unwrap();
        o.insert(k.into(), v.into());
    }
    Vortex::setup(&o, seats, seed).unwrap()
}

/// Plays lines for whoever must decide, in order.
fn play(g: &mut Vortex, lines: &[&str]) {
    for line in lines {
        let seat = AnyGame::prompt(g).unwrap().seat;
        g.play_line(seat, line)
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
    }
}

/// Plays `steps` options picked by a seeded generator (a reproducible mid-game position).
fn walk(g: &mut Vortex, steps: usize, seed: u64) {
    let mut rng = GameRng::seed_from_u64(seed);
    for _ in 0..steps {
        let Some(p) = AnyGame::prompt(g) else { return };
        let pick = p.options[rng.gen_range(0..p.options.len())].clone();
        g.apply_notation(p.seat, &pick).unwrap();
    }
}

fn render(g: &Vortex, lang: Lang) -> RgbaImage {
    <Vortex as Present>::render_public(&g.public_view(), &ctx(lang))
}

/// Replaces the pieces: `blue=1,2* orange=3` (`*` = riding controller).
fn set_pieces(g: &mut Vortex, spec: &str) {
    g.board = vec![None; 54];
    for tok in spec.split_whitespace() {
        let (c, list) = tok.split_once('=').unwrap();
        let colour = Colour::from_key(c).unwrap();
        for s in list.split(',') {
            let (n, ctrl) = s.strip_suffix('*').map_or((s, false), |n| (n, true));
            g.board[n.parse::<usize>().unwrap() - 1] = Some(Router { colour, ctrl });
        }
    }
}

#[test]
fn crossing_two_players_setup_and_opening() {
    let mut g = game("", 2, 1);
    check("crossing2_setup", &render(&g, Lang::En));
    play(
        &mut g,
        &[
            "rot i cw",
            "rot k ccw; end",
            "rot i cw; rot d ccw; rot h cw",
        ],
    );
    check("crossing2_opening_fr", &render(&g, Lang::Fr));
}

#[test]
fn crossing_four_teams_mid_game() {
    let mut g = game("minority=on", 4, 2);
    walk(&mut g, 40, 11);
    check("crossing4_mid", &render(&g, Lang::En));
    let parts = <Vortex as Present>::zoom_regions(&g.public_view(), &ctx(Lang::En), None);
    check(
        "crossing4_zoom",
        &super::zoom(&render(&g, Lang::En), &parts),
    );
}

#[test]
fn crossing_six_players_setup() {
    let g = game("", 6, 3);
    check("crossing6_setup", &render(&g, Lang::En));
}

#[test]
fn crossing_win_end() {
    let mut g = game("", 2, 4);
    set_pieces(&mut g, "blue=20,26,27,32,33,38 orange=11,1,2,3,4,5");
    g.turn_index = 8;
    g.allowance = 4;
    g.used = 1;
    play(&mut g, &["rot g ccw"]);
    assert!(g.outcome.is_some());
    check("crossing2_won", &render(&g, Lang::En));
    // The common header and footer at the end of a numbered game (issue 38): who won, by how
    // much and why, in French.
    let mut c = ctx(Lang::Fr);
    c.number = Some(12);
    check(
        "crossing2_won_numbered_fr",
        &<Vortex as Present>::render_public(&g.public_view(), &c),
    );
}

#[test]
fn advanced_claims_and_capture() {
    let mut g = game("mode=advanced", 2, 5);
    set_pieces(&mut g, "blue=19,1,2,3,4,8* orange=25*,31,36,51*,52,53");
    g.claims[9] = Some(Colour::Blue);
    g.turn_index = 9;
    g.allowance = 4;
    g.used = 0;
    play(&mut g, &["claim j 25"]);
    check("advanced_place_prompt", &render(&g, Lang::En));
    play(&mut g, &["place 3", "rot k cw"]);
    check("advanced_after_capture", &render(&g, Lang::Fr));
}

#[test]
fn cat_and_mouse() {
    let mut g = game("mode=catmouse", 2, 6);
    check("catmouse_setup", &render(&g, Lang::En));
    walk(&mut g, 25, 12);
    check("catmouse_mid", &render(&g, Lang::En));
    // Spec T13: after the mouse's turn the cats may not play `rot e cw` (drawn crossed out).
    let mut g = game("mode=catmouse cats=5", 2, 7);
    set_pieces(&mut g, "red=18 black=8,9,10,11,52");
    if let Some(cm) = g.catmouse.as_mut() {
        cm.visited = vec![18];
    }
    play(&mut g, &["rot i cw; rot e ccw"]);
    check("catmouse_cats_turn_fr", &render(&g, Lang::Fr));
}

#[test]
fn solitaire_start_and_solved() {
    let g = game("mode=solitaire", 1, 1234);
    check("solitaire_start", &render(&g, Lang::En));
    let mut g = game("mode=solitaire solo_colours=2 solo_targets=close", 1, 9);
    set_pieces(&mut g, "blue=18,19,23,24,29,35 orange=20,26,31,32,36,37");
    play(&mut g, &["rot j ccw"]);
    assert_eq!(g.outcome.as_ref().unwrap().scores, vec![1]);
    check("solitaire_solved", &render(&g, Lang::En));
    assert_eq!(AnyGame::scores(&g), vec![1]);
}

/// Six colours: black's target ring must not read as the grey router (issue 25, item 9).
#[test]
fn solitaire_six_colours() {
    let g = game("mode=solitaire solo_colours=6", 1, 1234);
    check("solitaire6_start", &render(&g, Lang::En));
}

/// The result card (issue 22) of a whole game played out at random: ranks, totals with the
/// game's breakdown, how it ended, turns and length.
#[test]
fn result_card_of_a_whole_game() {
    let card = super::cortexcape::played_out_result(
        croupier::engine::GameKind::Vortex,
        &[],
        2,
        15,
        croupier::i18n::Lang::En,
    );
    check("result_en", &card);
}
