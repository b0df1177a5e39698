//! Cortexcape boards built by hand (positions from spec section 12), so these tests do not
//! depend on the rules engine.

use croupier::engine::{RenderCtx, Seat};
use croupier::games::cortexcape::render::{render_public, zoom_regions};
use croupier::games::cortexcape::state::{Piece, Place, Stage, Start};
use croupier::games::cortexcape::view::{ExitView, Phase, PublicView, RoundRecap, SeatView};
use croupier::i18n::Lang;
use croupier::service::encode_png;
use image::RgbaImage;

fn check(name: &str, img: &RgbaImage) {
    super::check("cortexcape", name, img);
}

// ---- hand-built views -------------------------------------------------------------------

/// Spec 3: exit id, col, row, door.
const EXITS: [(u8, i32, i32, u8); 12] = [
    (1, 1, 0, 1),
    (2, 2, 0, 2),
    (3, 4, 0, 4),
    (4, 5, 0, 5),
    (5, 6, 2, 10),
    (6, 6, 3, 15),
    (7, 5, 5, 20),
    (8, 4, 5, 19),
    (9, 2, 5, 17),
    (10, 1, 5, 16),
    (11, 0, 3, 11),
    (12, 0, 2, 6),
];

/// Spec 4.3: door corridors per lab.
fn lab_corridors(lab: &str) -> &'static str {
    match lab {
        "green" => "1-2 1-6 2-7 3-4 3-8 4-5 4-9 5-10 6-11 7-8 8-13 9-10 9-14 11-12 11-16 12-13 12-17 13-18 14-15 14-19 15-20 16-17 18-19 19-20",
        "red" => "1-2 1-6 2-3 2-7 3-8 4-5 4-9 5-10 6-7 6-12 7-12 8-9 8-13 9-10 9-13 10-15 11-12 11-16 12-18 13-14 13-18 14-15 14-19 15-20 16-17 17-18 19-20",
        "black" => "1-2 1-6 2-3 2-7 3-4 3-9 4-5 4-9 5-10 6-7 6-11 7-8 7-13 8-13 8-14 9-10 9-15 10-15 11-12 11-16 12-13 12-17 13-14 13-17 13-19 14-15 14-19 15-20 16-17 17-18 18-19 19-20",
        _ => "1-2 1-6 2-3 3-4 3-8 4-5 5-10 6-11 7-8 7-12 8-9 9-14 10-15 11-16 12-13 13-14 13-18 15-20 16-17 17-18 18-19 19-20",
    }
}

const COLOURS: [&str; 4] = ["white", "black", "blue", "red"];

fn d(n: u8) -> Place {
    Place::Door(n)
}

fn x(n: u8) -> Place {
    Place::Exit(n)
}

fn corridor(a: u8, b: u8) -> Start {
    Start::Corridor(d(a), d(b))
}

/// `t:4,9,16 r:13,17 ...`: every door not named holds a white cylinder.
fn layout(spec: &str) -> Vec<Option<Piece>> {
    let mut pieces = vec![Some(Piece::White); 20];
    for group in spec.split_whitespace() {
        let (kind, doors) = group.split_once(':').unwrap();
        let piece = match kind {
            "t" => Piece::Tower,
            "r" => Piece::Red,
            "y" => Piece::Yellow,
            "g" => Piece::Green,
            _ => Piece::White,
        };
        for door in doors.split(',') {
            pieces[door.parse::<usize>().unwrap() - 1] = Some(piece);
        }
    }
    pieces
}

const L1: &str = "t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19";
const G1: &str = "t:17,18,19 r:2,9 y:6,14,20 g:5,10,11,13";
const R1: &str = "t:2,10,17 r:7,14 y:3,13,16 g:8,9,12,18";
const B1: &str = "t:8,14,19 r:7,13 y:3,12,15 g:2,9,17,20";

fn view(lab: &'static str, players: usize, short: bool, pieces: &str) -> PublicView {
    let mut corridors: Vec<(Place, Place)> = lab_corridors(lab)
        .split_whitespace()
        .map(|c| {
            let (a, b) = c.split_once('-').unwrap();
            (d(a.parse().unwrap()), d(b.parse().unwrap()))
        })
        .collect();
    corridors.extend(EXITS.iter().map(|&(id, _, _, door)| (d(door), x(id))));
    let total_rounds = match (short, players) {
        (false, _) => 12,
        (true, 4) => 4,
        (true, _) => 6,
    };
    PublicView {
        lab,
        doors: (0..20).map(|i| (i % 5 + 1, i / 5 + 1)).collect(),
        exits: EXITS
            .iter()
            .map(|&(id, col, row, door)| ExitView {
                id,
                col,
                row,
                door,
                marble: None,
            })
            .collect(),
        corridors,
        pieces: layout(pieces),
        round: 1,
        total_rounds,
        short,
        hindsight: true,
        phase: Phase::Challenge,
        step: Stage::ChooseExit,
        to_act: Some(Seat(1)),
        owner: Seat(0),
        setter: Seat(1),
        pool: Vec::new(),
        towers_to_move: Vec::new(),
        blocked_last_round: Vec::new(),
        refill: Vec::new(),
        target: None,
        start: None,
        path: Vec::new(),
        running_cost: 0,
        last_round: None,
        seats: (0..players)
            .map(|i| SeatView {
                colour: COLOURS[i],
                score: 0,
                costs: Vec::new(),
                marbles_left: (12 / players) as u8,
            })
            .collect(),
        free_exits: 12,
    }
}

fn ctx(lang: Lang, players: usize) -> RenderCtx {
    RenderCtx {
        lang,
        names: ["Ann", "Bob", "Chloé", "Dmitri"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        stopped: false,
        number: None,
    }
}

fn close(v: &mut PublicView, exit: u8, seat: u8) {
    if let Some(e) = v.exits.iter_mut().find(|e| e.id == exit) {
        e.marble = Some(Seat(seat));
    }
    v.free_exits -= 1;
    if let Some(s) = v.seats.get_mut(usize::from(seat)) {
        s.marbles_left -= 1;
    }
}

/// Round 1, the owner has filled doors 1 to 10 of L1 and holds the rest.
fn configure_half() -> PublicView {
    let mut v = view("blue", 2, false, L1);
    for p in v.pieces.iter_mut().skip(10) {
        *p = None;
    }
    v.phase = Phase::Configure;
    v.to_act = Some(Seat(0));
    v.pool = vec![
        (Piece::White, 4),
        (Piece::Green, 2),
        (Piece::Yellow, 1),
        (Piece::Red, 2),
        (Piece::Tower, 1),
    ];
    v
}

/// T1: the setter chose exit x4 and start 12-13.
fn challenge_chosen() -> PublicView {
    let mut v = view("blue", 2, false, L1);
    v.target = Some(4);
    v.start = Some(corridor(12, 13));
    v
}

/// T1: the owner walked 13 18 19 20 15 (cost 6 so far).
fn escape_mid_path() -> PublicView {
    let mut v = challenge_chosen();
    v.phase = Phase::Escape;
    v.to_act = Some(Seat(0));
    v.path = vec![d(13), d(18), d(19), d(20), d(15)];
    v.running_cost = 6;
    v
}

/// Round 2 Configure after a T1 round walked the long way (cost 7; cheapest 6).
fn recap_hindsight() -> PublicView {
    let mut v = view("blue", 2, false, L1);
    let walked = [12u8, 13, 18, 19, 20, 15, 10, 5];
    for &door in &walked {
        v.pieces[usize::from(door) - 1] = None;
    }
    close(&mut v, 4, 0);
    v.round = 2;
    v.phase = Phase::Configure;
    v.owner = Seat(1);
    v.setter = Seat(0);
    v.to_act = Some(Seat(1));
    v.pool = vec![
        (Piece::White, 4),
        (Piece::Green, 2),
        (Piece::Yellow, 1),
        (Piece::Red, 1),
    ];
    v.refill = walked.to_vec();
    v.refill.sort_unstable();
    v.towers_to_move = vec![4, 9, 16];
    v.seats[0].score = 7;
    v.seats[0].costs = vec![(1, 7)];
    let mut path: Vec<Place> = walked.iter().map(|&n| d(n)).collect();
    path.push(x(4));
    v.last_round = Some(RoundRecap {
        round: 1,
        owner: Seat(0),
        setter: Seat(1),
        start: corridor(12, 13),
        target: 4,
        path,
        cost: 7,
        cheapest: Some((
            6,
            vec![d(13), d(18), d(19), d(20), d(15), d(10), d(5), x(4)],
        )),
        setter_best: Some((13, corridor(4, 5), 1)),
    });
    v
}

/// T12: three players, all twelve exits closed, seats 0 and 1 tie on 14.
fn game_over() -> PublicView {
    let mut v = view("green", 3, false, G1);
    let owners = [1u8, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0];
    for (exit, owner) in (1u8..=12).zip(owners) {
        close(&mut v, exit, owner);
    }
    v.round = 12;
    v.phase = Phase::Over;
    v.to_act = None;
    v.owner = Seat(0);
    v.setter = Seat(1);
    let costs = [[3, 5, 0, 6], [4, 4, 2, 4], [7, 1, 3, 5]];
    let first_round = [3u32, 1, 2];
    for (i, c) in costs.iter().enumerate() {
        v.seats[i].costs = c
            .iter()
            .enumerate()
            .map(|(k, &cost)| (first_round[i] + 3 * k as u32, cost))
            .collect();
        v.seats[i].score = c.iter().sum();
    }
    v.last_round = Some(RoundRecap {
        round: 12,
        owner: Seat(0),
        setter: Seat(1),
        start: corridor(11, 12),
        target: 12,
        path: vec![d(12), d(11), d(6), x(12)],
        cost: 6,
        cheapest: Some((3, vec![d(11), d(6), x(12)])),
        setter_best: Some((11, Start::Corridor(d(6), x(12)), 7)),
    });
    v.pieces[11] = None;
    v.pieces[10] = None;
    v.pieces[5] = None;
    v
}

/// T10: short game, the setter put the start on x1 and the exit on x7; owner walked 1 2 3 8.
fn short_game() -> PublicView {
    let mut v = view("blue", 2, true, L1);
    v.phase = Phase::Escape;
    v.to_act = Some(Seat(0));
    v.target = Some(7);
    v.start = Some(Start::Exit(1));
    v.path = vec![d(1), d(2), d(3), d(8)];
    v.running_cost = 5;
    v
}

/// T7 on Green: challenge start 11-12, exit x12.
fn green_challenge() -> PublicView {
    let mut v = view("green", 2, false, G1);
    v.target = Some(12);
    v.start = Some(corridor(11, 12));
    v.to_act = Some(Seat(0));
    v.phase = Phase::Escape;
    v
}

/// T8 on Red: escape through the diagonals 6-12 and 12-18, 3 players, round 5.
fn red_diagonals() -> PublicView {
    let mut v = view("red", 3, false, R1);
    close(&mut v, 9, 0);
    close(&mut v, 11, 1);
    close(&mut v, 2, 2);
    close(&mut v, 5, 0);
    v.round = 5;
    v.owner = Seat(1);
    v.setter = Seat(2);
    v.phase = Phase::Escape;
    v.to_act = Some(Seat(1));
    v.target = Some(3);
    v.start = Some(corridor(1, 6));
    v.path = vec![d(6), d(12), d(18), d(13)];
    v.running_cost = 5;
    v.seats[0].score = 9;
    v.seats[0].costs = vec![(1, 4), (4, 5)];
    v.seats[1].score = 3;
    v.seats[1].costs = vec![(2, 3)];
    v.seats[2].score = 8;
    v.seats[2].costs = vec![(3, 8)];
    v
}

/// T9 on Black with four players: start 13-14 next to a tower, exit x6.
fn black_hub() -> PublicView {
    let mut v = view("black", 4, false, B1);
    close(&mut v, 1, 0);
    close(&mut v, 7, 1);
    v.round = 3;
    v.owner = Seat(2);
    v.setter = Seat(3);
    v.phase = Phase::Escape;
    v.to_act = Some(Seat(2));
    v.target = Some(6);
    v.start = Some(corridor(13, 14));
    v.path = vec![d(13), d(17), d(16)];
    v.running_cost = 4;
    v.seats[0].score = 10;
    v.seats[0].costs = vec![(1, 10)];
    v.seats[1].score = 6;
    v.seats[1].costs = vec![(2, 6)];
    v
}

/// The fullest strip under the lab: four players, round 6 Configure with towers to move, many
/// doors to refill, a recap with hindsight, per-round costs for everyone and a very long name.
fn crowded_panel() -> PublicView {
    let mut v = view("red", 4, false, R1);
    let walked = [1u8, 6, 12, 18, 13, 9, 4, 5];
    for &door in &walked {
        v.pieces[usize::from(door) - 1] = None;
    }
    for (exit, seat) in [(1u8, 0u8), (2, 1), (3, 2), (4, 3), (7, 0)] {
        close(&mut v, exit, seat);
    }
    v.round = 6;
    v.phase = Phase::Configure;
    v.owner = Seat(1);
    v.setter = Seat(2);
    v.to_act = Some(Seat(1));
    v.pool = vec![
        (Piece::White, 4),
        (Piece::Green, 2),
        (Piece::Yellow, 1),
        (Piece::Red, 1),
    ];
    v.refill = walked.to_vec();
    v.refill.sort_unstable();
    v.towers_to_move = vec![2, 10, 17];
    for (i, costs) in [
        vec![(1, 7), (5, 12)],
        vec![(2, 3)],
        vec![(3, 9)],
        vec![(4, 0)],
    ]
    .into_iter()
    .enumerate()
    {
        v.seats[i].score = costs.iter().map(|c| c.1).sum();
        v.seats[i].costs = costs;
    }
    let mut path: Vec<Place> = walked.iter().map(|&n| d(n)).collect();
    path.push(x(4));
    v.last_round = Some(RoundRecap {
        round: 5,
        owner: Seat(0),
        setter: Seat(1),
        start: Start::Corridor(d(1), x(1)),
        target: 4,
        path,
        cost: 12,
        cheapest: Some((
            5,
            vec![d(1), d(6), d(12), d(18), d(13), d(9), d(4), d(5), x(4)],
        )),
        setter_best: Some((14, Start::Corridor(d(15), x(6)), 10)),
    });
    v
}

// ---- tests -------------------------------------------------------------------------------

#[test]
fn configure_round_one_half_done() {
    check(
        "configure_half",
        &render_public(&configure_half(), &ctx(Lang::En, 2)),
    );
}

#[test]
fn challenge_chosen_blue() {
    check(
        "challenge_chosen",
        &render_public(&challenge_chosen(), &ctx(Lang::En, 2)),
    );
}

#[test]
fn escape_mid_path_blue() {
    let board = render_public(&escape_mid_path(), &ctx(Lang::En, 2));
    check("escape_mid_path", &board);
    let parts = zoom_regions(&escape_mid_path(), &ctx(Lang::En, 2), Some(Seat(1)));
    check("escape_zoom", &super::zoom(&board, &parts));
}

#[test]
fn round_recap_with_hindsight() {
    check(
        "recap_hindsight",
        &render_public(&recap_hindsight(), &ctx(Lang::En, 2)),
    );
}

#[test]
fn round_recap_in_french() {
    check(
        "recap_hindsight_fr",
        &render_public(&recap_hindsight(), &ctx(Lang::Fr, 2)),
    );
}

#[test]
fn game_over_three_players() {
    check("game_over", &render_public(&game_over(), &ctx(Lang::En, 3)));
}

/// In French with the game's number: the header says who won, by how much and why.
#[test]
fn game_over_in_french() {
    let c = RenderCtx {
        number: Some(12),
        ..ctx(Lang::Fr, 3)
    };
    let board = render_public(&game_over(), &c);
    check("game_over_fr", &board);
    let parts = zoom_regions(&game_over(), &c, Some(Seat(2)));
    check("game_over_zoom_fr", &super::zoom(&board, &parts));
}

#[test]
fn short_game_start_on_exit() {
    check(
        "short_game",
        &render_public(&short_game(), &ctx(Lang::En, 2)),
    );
}

#[test]
fn green_lab() {
    check(
        "green_lab",
        &render_public(&green_challenge(), &ctx(Lang::En, 2)),
    );
}

#[test]
fn red_lab_diagonals() {
    check(
        "red_lab",
        &render_public(&red_diagonals(), &ctx(Lang::En, 3)),
    );
}

#[test]
fn black_lab_four_players_french() {
    check(
        "black_lab_fr",
        &render_public(&black_hub(), &ctx(Lang::Fr, 4)),
    );
}

#[test]
fn crowded_panel_in_french() {
    let c = RenderCtx {
        lang: Lang::Fr,
        names: ["Maximilien-Alexandre de la Tour", "Bob", "Chloé", "Dmitri"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        stopped: false,
        number: None,
    };
    check("crowded_panel_fr", &render_public(&crowded_panel(), &c));
}

#[test]
fn rendering_is_deterministic_and_sized() {
    let v = recap_hindsight();
    let a = render_public(&v, &ctx(Lang::En, 2));
    let b = render_public(&v, &ctx(Lang::En, 2));
    // The lab is 1000 wide, with the header above it and the strip and legend under it.
    assert_eq!(a.width(), 1000);
    assert!(a.height() > 1000, "{:?}", a.dimensions());
    assert!(a == b);
}

#[test]
fn labels_follow_the_language() {
    let v = recap_hindsight();
    let en = render_public(&v, &ctx(Lang::En, 2));
    let fr = render_public(&v, &ctx(Lang::Fr, 2));
    assert!(en != fr);
}

/// A view with out-of-range ids and missing seats still renders (no panic on odd data).
#[test]
fn malformed_view_renders_without_panicking() {
    let mut v = escape_mid_path();
    v.path = vec![d(0), d(99), x(0), x(200)];
    v.start = Some(Start::Corridor(d(42), x(77)));
    v.target = Some(55);
    v.towers_to_move = vec![0, 250];
    v.refill = vec![0, 21];
    v.pieces.truncate(5);
    v.exits[0].marble = Some(Seat(9));
    v.owner = Seat(7);
    v.to_act = Some(Seat(8));
    v.corridors.push((d(0), x(13)));
    v.last_round = Some(RoundRecap {
        round: 0,
        owner: Seat(6),
        setter: Seat(5),
        start: Start::Exit(99),
        target: 0,
        path: vec![d(250)],
        cost: -1,
        cheapest: Some((0, Vec::new())),
        setter_best: None,
    });
    let img = render_public(
        &v,
        &RenderCtx {
            lang: Lang::Fr,
            names: Vec::new(),
            stopped: false,
            number: None,
        },
    );
    assert_eq!(img.width(), 1000);
    v.seats.clear();
    v.phase = Phase::Over;
    let img = render_public(
        &v,
        &RenderCtx {
            lang: Lang::En,
            names: Vec::new(),
            stopped: false,
            number: None,
        },
    );
    assert_eq!(img.width(), 1000);
}

/// Prints render and encode times; run in an optimised build:
/// `CARGO_PROFILE_DEV_OPT_LEVEL=3 cargo test --test golden timing -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn timing() {
    let cases = [
        ("escape_mid_path", escape_mid_path(), 2),
        ("recap_hindsight", recap_hindsight(), 2),
        ("black_lab", black_hub(), 4),
    ];
    for (name, v, players) in cases {
        let c = ctx(Lang::En, players);
        let t0 = std::time::Instant::now();
        let mut img = render_public(&v, &c);
        for _ in 0..9 {
            img = render_public(&v, &c);
        }
        let render = t0.elapsed() / 10;
        let t1 = std::time::Instant::now();
        let mut png = encode_png(&img);
        for _ in 0..4 {
            png = encode_png(&img);
        }
        let encode = t1.elapsed() / 5;
        println!(
            "{name}: render {render:?}, encode {encode:?}, {} bytes",
            png.len()
        );
        use image::codecs::png::{CompressionType, FilterType, PngEncoder};
        use image::ImageEncoder;
        for (label, ct, ft) in [
            (
                "default/adaptive",
                CompressionType::Default,
                FilterType::Adaptive,
            ),
            ("fast/adaptive", CompressionType::Fast, FilterType::Adaptive),
            ("fast/sub", CompressionType::Fast, FilterType::Sub),
        ] {
            let t = std::time::Instant::now();
            let mut out = Vec::new();
            PngEncoder::new_with_quality(&mut out, ct, ft)
                .write_image(
                    img.as_raw(),
                    img.width(),
                    img.height(),
                    image::ExtendedColorType::Rgba8,
                )
                .unwrap();
            println!("  {label}: {:?}, {} bytes", t.elapsed(), out.len());
        }
    }
}

/// The result card (issue 22) of a whole game played out at random: ranks, totals with the
/// game's breakdown, how it ended, turns and length.
#[test]
fn result_card_of_a_whole_game() {
    let card = played_out_result(
        croupier::engine::GameKind::Cortexcape,
        &[("short", "true")],
        3,
        11,
        croupier::i18n::Lang::En,
    );
    check("result_en", &card);
}

/// Plays a game of `kind` out at random (seeded) and renders its result card, as the bot
/// posts it, with fixed names, turns and length. Shared by every game's module.
pub(crate) fn played_out_result(
    kind: croupier::engine::GameKind,
    options: &[(&str, &str)],
    seats: usize,
    seed: u64,
    lang: Lang,
) -> RgbaImage {
    let options: croupier::engine::GameOptions = options
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let mut game = kind.setup(&options, seats, seed).expect("setup");
    assert!(croupier::engine::play_out(game.as_mut(), seed, 200_000));
    let ending = croupier::service::Ending {
        turns: 57,
        secs: 3 * 86_400 + 5 * 3_600,
        resigned: None,
        casual: false,
    };
    let names: Vec<String> = ["Ann", "Bruno", "Chloé", "Dmitri"]
        .iter()
        .take(seats)
        .map(|n| (*n).to_string())
        .collect();
    croupier::service::result_image(
        game.as_ref(),
        croupier::engine::GameId(12),
        &names,
        &ending,
        lang,
    )
}
