//! Vortex (Hans Beeftink, Tactrics): 19 rotating towers ringed by 54 triangular spaces. Each
//! action turns one tower one step and carries every piece around it. Four modes:
//! - `crossing`: 2-6 players race their 6 routers from a start corner to the opposite corner;
//!   a tower may be turned only with at least half of the routers around it; turns grow
//!   1, 2, 3, then 4 actions; teams of two at 4 and 6 players;
//! - `advanced`: Crossing plus controllers that claim towers (a lock against opponents), move
//!   along chains of own routers, capture claimed towers, or are recalled for a whole turn;
//!   minority controllers (2 single-use rotations where you are outnumbered) are on;
//! - `catmouse`: one mouse runs for the 7-space pantry while 4 or 5 cats try to trap it;
//! - `solitaire`: gather each colour around its target tower in as few rotations as possible.
//!
//! Full rules: `shared/games/vortex.md`. Notation (spec section 10): `rot j cw`, `min k ccw`,
//! `claim j 19`, `ctrl 24 9`, `recall j 13`, `place 3`, `end`; a whole turn:
//! `rot h cw; rot h cw; rot i ccw; end`.

mod ai;
pub mod board;
pub mod moves;
pub mod notation;
pub mod render;
pub mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::rng::SliceDraw;

use crate::engine::{
    resolve_options, rng_from_seed, Applied, BotHooks, Game, GameKind, GameOptions, OptionSpec,
    Outcome, Present, Prompt, Reject, ResultDetails, ScorePart, Seat, SetupError,
};
use crate::i18n::Text;
use board::{data, tower_letter, Data};
use moves::{Action, Dir, DrawReason, Event, WinReason};
use rules::Ask;
use state::{CatMouse, Colour, Mode, Router, Rules, Side, TurnLog};

pub use rules::RuleError;
pub use state::Vortex;

const MAX_ROUNDS: [&str; 13] = [
    "auto", "10", "20", "30", "40", "50", "60", "80", "100", "150", "200", "300", "500",
];
const LAYOUTS: [&str; 7] = [
    "auto",
    "crossing-2",
    "crossing-3",
    "crossing-4",
    "crossing-5",
    "crossing-6",
    "catmouse-top",
];

/// Which modes an option applies to (spec section 2), for the options line on the image.
fn applies(key: &str, mode: Mode, teams: bool) -> bool {
    match key {
        "mode" | "layout" | "seating" => false,
        "rotate_rule" | "empty_rotation" | "goal_count" | "minority" | "confirm_end" => {
            mode.is_race()
        }
        "teams" => mode.is_race(),
        "team_counts" | "team_finish" => mode.is_race() && teams,
        "controllers" | "claim_majority" | "owner_rotate" | "capture_place" | "ctrl_link"
        | "recall_to" => mode == Mode::Advanced,
        "max_rounds" => mode != Mode::Solitaire,
        "cats" => mode == Mode::Catmouse,
        _ => mode == Mode::Solitaire,
    }
}

fn spec(key: &'static str, values: &[&'static str], default: &'static str) -> OptionSpec {
    OptionSpec {
        key,
        values: values.to_vec(),
        default,
        help: match key {
            "mode" => "vortex.option.mode",
            "layout" => "vortex.option.layout",
            "teams" => "vortex.option.teams",
            "seating" => "vortex.option.seating",
            "rotate_rule" => "vortex.option.rotate_rule",
            "empty_rotation" => "vortex.option.empty_rotation",
            "goal_count" => "vortex.option.goal_count",
            "minority" => "vortex.option.minority",
            "controllers" => "vortex.option.controllers",
            "claim_majority" => "vortex.option.claim_majority",
            "owner_rotate" => "vortex.option.owner_rotate",
            "capture_place" => "vortex.option.capture_place",
            "ctrl_link" => "vortex.option.ctrl_link",
            "recall_to" => "vortex.option.recall_to",
            "team_counts" => "vortex.option.team_counts",
            "team_finish" => "vortex.option.team_finish",
            "confirm_end" => "vortex.option.confirm_end",
            "max_rounds" => "vortex.option.max_rounds",
            "cats" => "vortex.option.cats",
            "solo_colours" => "vortex.option.solo_colours",
            "solo_targets" => "vortex.option.solo_targets",
            "solo_scramble" => "vortex.option.solo_scramble",
            _ => "vortex.option.solo_undo",
        },
    }
}

fn seat_count_error(min: usize, max: usize, found: usize) -> SetupError {
    SetupError::SeatCount {
        kind: GameKind::Vortex,
        min,
        max,
        found,
    }
}

fn bad(key: &str, value: &str, allowed: &[&str]) -> SetupError {
    SetupError::BadValue {
        key: key.into(),
        value: value.into(),
        allowed: allowed.iter().map(|s| (*s).to_string()).collect(),
    }
}

fn empty_side(seat: Seat, colour: Colour) -> Side {
    Side {
        seat,
        colour,
        start: 0,
        goal: 0,
        start_spaces: [0; 6],
        goal_spaces: [0; 6],
        team: None,
        minority_left: 0,
        finished: false,
    }
}

/// Builds the board of a Solitaire (spec section 5.4).
fn solo_board(
    d: &Data,
    sides: &[Side],
    scramble: u32,
    rng: &mut crate::engine::GameRng,
) -> Vec<Option<Router>> {
    let mut board: Vec<Option<Router>> = vec![None; 54];
    if scramble == 0 {
        let mut ids: Vec<u8> = (1..=54).collect();
        ids.shuffle(rng);
        for (i, s) in sides.iter().enumerate() {
            for sp in &ids[i * 6..i * 6 + 6] {
                board[usize::from(*sp - 1)] = Some(Router {
                    colour: s.colour,
                    ctrl: false,
                });
            }
        }
        return board;
    }
    for s in sides {
        for sp in d.ring(s.goal) {
            board[usize::from(*sp - 1)] = Some(Router {
                colour: s.colour,
                ctrl: false,
            });
        }
    }
    let mut prev: Option<(u8, Dir)> = None;
    let mut done = 0;
    while done < scramble {
        let t: u8 = rng.gen_range(0..19);
        let dir = if rng.gen_bool(0.5) { Dir::Cw } else { Dir::Ccw };
        if prev == Some((t, dir.flip())) {
            continue;
        }
        prev = Some((t, dir));
        let ring = *d.ring(t);
        let old: Vec<_> = ring.iter().map(|x| board[usize::from(*x - 1)]).collect();
        for k in 0..6 {
            let to = match dir {
                Dir::Cw => ring[(k + 1) % 6],
                Dir::Ccw => ring[(k + 5) % 6],
            };
            board[usize::from(to - 1)] = old[k];
        }
        done += 1;
    }
    board
}

impl Vortex {
    fn build(options: &GameOptions, seats: usize, seed: u64) -> Result<Vortex, SetupError> {
        let d = data().map_err(|e| SetupError::Invalid(e.to_string()))?;
        let specs = Self::option_specs();
        let opts = resolve_options(&specs, options)?;
        let get = |k: &str| opts.get(k).map_or("", String::as_str);
        let mode = match get("mode") {
            "crossing" => Mode::Crossing,
            "advanced" => Mode::Advanced,
            "catmouse" => Mode::Catmouse,
            "solitaire" => Mode::Solitaire,
            _ if seats == 1 => Mode::Solitaire,
            _ => Mode::Crossing,
        };
        let (min, max) = match mode {
            Mode::Crossing | Mode::Advanced => (2, 6),
            // HOUSE: one person may also play both sides (hot seat).
            Mode::Catmouse => (1, 2),
            Mode::Solitaire => (1, 1),
        };
        if seats < min || seats > max {
            return Err(seat_count_error(min, max, seats));
        }
        let teams = match get("teams") {
            "on" if mode.is_race() && seats != 4 && seats != 6 => {
                return Err(bad("teams", "on", &["auto", "off"]))
            }
            "on" => mode.is_race(),
            "off" => false,
            _ => mode.is_race() && (seats == 4 || seats == 6),
        };
        let num = |k: &str| get(k).parse::<u32>().unwrap_or(0);
        let max_rounds = match get("max_rounds") {
            "auto" => match mode {
                Mode::Catmouse => 60,
                Mode::Solitaire => 0,
                _ => 100,
            },
            v => v.parse().unwrap_or(100),
        };
        let rules = Rules {
            half: get("rotate_rule") == "half",
            empty_rotation: get("empty_rotation") == "on",
            goal_count: u8::try_from(num("goal_count")).unwrap_or(6),
            minority: mode.is_race()
                && match get("minority") {
                    "on" => true,
                    "off" => false,
                    _ => mode == Mode::Advanced,
                },
            controllers: u8::try_from(num("controllers")).unwrap_or(2),
            absolute: get("claim_majority") == "absolute",
            owner_free: get("owner_rotate") == "free",
            victim_places: get("capture_place") == "victim",
            link_tower: get("ctrl_link") == "tower",
            recall_tower: get("recall_to") == "tower",
            teams,
            pooled: get("team_counts") == "pooled",
            together: get("team_finish") == "together",
            confirm_end: get("confirm_end") == "on",
            max_rounds,
            solo_undo: get("solo_undo") == "on",
            solo_limit: false,
        };
        let mut shown_options: Vec<String> = specs
            .iter()
            .filter(|s| applies(s.key, mode, teams))
            .filter(|s| get(s.key) != s.default)
            .map(|s| format!("{}={}", s.key, get(s.key)))
            .collect();
        if mode == Mode::Solitaire {
            shown_options.retain(|s| !s.starts_with("solo_undo"));
        }
        let mut rng = rng_from_seed(seed);
        let mut order: Vec<Seat> = (0..seats).map(Seat::at).collect();
        if get("seating") == "random" {
            order.shuffle(&mut rng);
        }
        let layout = match (get("layout"), mode) {
            ("auto", Mode::Crossing | Mode::Advanced) => format!("crossing-{seats}"),
            ("auto", Mode::Catmouse) => "catmouse-top".into(),
            ("auto", Mode::Solitaire) => String::new(),
            (l, _) => l.to_string(),
        };
        let mut board: Vec<Option<Router>> = vec![None; 54];
        let mut sides = Vec::new();
        let mut catmouse = None;
        match mode {
            Mode::Crossing | Mode::Advanced => {
                let lay = d
                    .crossing_layout(&layout)
                    .filter(|l| l.slots.len() == seats)
                    .ok_or_else(|| {
                        let ok = format!("crossing-{seats}");
                        bad("layout", &layout, &["auto", ok.as_str()])
                    })?;
                for (k, slot) in lay.slots.iter().enumerate() {
                    let team = teams.then(|| u8::try_from(k / 2).unwrap_or(0));
                    sides.push(Side {
                        seat: order[k],
                        colour: slot.colour,
                        start: slot.start,
                        goal: slot.goal,
                        start_spaces: slot.start_spaces,
                        goal_spaces: slot.goal_spaces,
                        team,
                        minority_left: if rules.minority { 2 } else { 0 },
                        finished: false,
                    });
                    for s in slot.start_spaces {
                        board[usize::from(s - 1)] = Some(Router {
                            colour: slot.colour,
                            ctrl: false,
                        });
                    }
                    if mode == Mode::Advanced {
                        for s in slot.controllers.iter().take(usize::from(rules.controllers)) {
                            if let Some(r) = board[usize::from(*s - 1)].as_mut() {
                                r.ctrl = true;
                            }
                        }
                    }
                }
            }
            Mode::Catmouse => {
                let lay = d
                    .catmouse_layout(&layout)
                    .ok_or_else(|| bad("layout", &layout, &["auto", "catmouse-top"]))?;
                sides.push(empty_side(order[0], Colour::Red));
                sides.push(empty_side(
                    *order.get(1).unwrap_or(&order[0]),
                    Colour::Black,
                ));
                board[usize::from(lay.mouse - 1)] = Some(Router {
                    colour: Colour::Red,
                    ctrl: false,
                });
                let cats = if get("cats") == "5" {
                    &lay.cats5
                } else {
                    &lay.cats4
                };
                for c in cats {
                    board[usize::from(*c - 1)] = Some(Router {
                        colour: Colour::Black,
                        ctrl: false,
                    });
                }
                catmouse = Some(CatMouse {
                    pantry: lay.pantry.clone(),
                    markers: lay.markers.clone(),
                    mouse_to_move: true,
                    visited: vec![lay.mouse],
                    rotations: 0,
                    turn_last: None,
                    last_mouse: None,
                });
            }
            Mode::Solitaire => {
                let n = usize::try_from(num("solo_colours")).unwrap_or(3);
                let targets = if get("solo_targets") == "close" {
                    &d.solo_close
                } else {
                    &d.solo_far
                };
                let towers = targets
                    .get(&n)
                    .ok_or_else(|| bad("solo_colours", get("solo_colours"), &["2", "6"]))?;
                for (i, t) in towers.iter().enumerate() {
                    let mut s = empty_side(Seat(0), d.solo_colours[i]);
                    s.goal = *t;
                    s.goal_spaces = *d.ring(*t);
                    s.start = *t;
                    s.start_spaces = s.goal_spaces;
                    sides.push(s);
                }
            }
        }
        let mut game = Vortex {
            mode,
            rules,
            layout,
            shown_options,
            seed,
            rng,
            seats: u8::try_from(seats).unwrap_or(1),
            board,
            claims: vec![None; 19],
            sides,
            turn_index: 0,
            used: 0,
            allowance: 1,
            skips: 0,
            pending: None,
            catmouse,
            rotations: 0,
            this_turn: TurnLog::default(),
            prev_turn: None,
            last_moved: Vec::new(),
            auto_ended: None,
            ending: None,
            outcome: None,
            setup_log: Vec::new(),
        };
        if mode == Mode::Solitaire {
            let scramble = num("solo_scramble");
            // Draw again in the (negligible) case the puzzle starts solved (spec 5.4 step 3).
            loop {
                game.board = solo_board(d, &game.sides, scramble, &mut game.rng);
                if !game.solved() {
                    break;
                }
            }
        }
        let mut ev = Vec::new();
        match mode {
            Mode::Crossing | Mode::Advanced => game.start_turn(&mut ev),
            Mode::Catmouse => game.start_mouse_turn(&mut ev),
            Mode::Solitaire => {}
        }
        // Reported with the first board like any step's events (issue 25: they were dropped).
        game.setup_log = ev;
        Ok(game)
    }

    /// The seat playing a colour, for texts.
    fn colour_text(c: Colour) -> Text {
        Text::new(format!("vortex.colour.{}", c.key()))
    }

    fn seat_colour(&self, seat: Seat) -> Text {
        match self.mode {
            Mode::Catmouse => Text::new(if self.sides[0].seat == seat {
                "vortex.role.mouse"
            } else {
                "vortex.role.cats"
            }),
            Mode::Solitaire => Text::new("vortex.role.solo"),
            _ => self
                .sides
                .iter()
                .find(|s| s.seat == seat)
                .map_or_else(|| Text::raw(""), |s| Self::colour_text(s.colour)),
        }
    }
}

impl Game for Vortex {
    type Action = Action;
    type Event = Event;
    type Error = RuleError;

    const KIND: GameKind = GameKind::Vortex;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 1;
    const MAX_SEATS: usize = 6;
    /// Crossing and Cat & Mouse: winners score 1. Solitaire builds its own outcome (its score
    /// is the rotation count, lower is better, and it has a single seat).
    const LOWER_SCORE_WINS: bool = false;

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            spec(
                "mode",
                &["auto", "crossing", "advanced", "catmouse", "solitaire"],
                "auto",
            ),
            spec("layout", &LAYOUTS, "auto"),
            spec("teams", &["auto", "on", "off"], "auto"),
            spec("seating", &["random", "host"], "random"),
            spec("rotate_rule", &["half", "no_minority"], "half"),
            spec("empty_rotation", &["off", "on"], "off"),
            spec("goal_count", &["6", "5", "4", "3", "2", "1"], "6"),
            spec("minority", &["auto", "off", "on"], "auto"),
            spec("controllers", &["2", "1"], "2"),
            spec("claim_majority", &["absolute", "plurality"], "absolute"),
            spec("owner_rotate", &["majority", "free"], "majority"),
            spec("capture_place", &["capturer", "victim"], "capturer"),
            spec("ctrl_link", &["edge", "tower"], "edge"),
            spec("recall_to", &["any", "tower"], "any"),
            spec("team_counts", &["individual", "pooled"], "individual"),
            spec("team_finish", &["latched", "together"], "latched"),
            spec("confirm_end", &["off", "on"], "off"),
            spec("max_rounds", &MAX_ROUNDS, "auto"),
            spec("cats", &["4", "5"], "4"),
            spec("solo_colours", &["3", "2", "4", "5", "6"], "3"),
            spec("solo_targets", &["far", "close"], "far"),
            spec(
                "solo_scramble",
                &["0", "5", "10", "20", "30", "50", "100", "200"],
                "0",
            ),
            spec("solo_undo", &["on", "off"], "on"),
        ]
    }

    fn setup(options: &GameOptions, seats: usize, seed: u64) -> Result<Self, SetupError> {
        Vortex::build(options, seats, seed)
    }

    fn seat_count(&self) -> usize {
        usize::from(self.seats)
    }

    fn prompt(&self) -> Option<Prompt<Action>> {
        let ask = self.ask()?;
        let seat = self.ask_seat(ask);
        let text = match ask {
            Ask::Action(_) => {
                if self.used >= self.allowance {
                    Text::new("vortex.prompt.confirm_end")
                } else {
                    Text::new("vortex.prompt.action")
                        .arg("n", i64::from(self.used) + 1)
                        .arg("of", i64::from(self.allowance))
                }
            }
            Ask::Place(_) => {
                let victim = self.pending.map_or(Seat(0), |p| self.sides[p.victim].seat);
                Text::new("vortex.prompt.place").arg("victim", victim)
            }
            Ask::Mouse => Text::new("vortex.prompt.mouse"),
            Ask::Cats => Text::new("vortex.prompt.cats"),
            Ask::Solo => Text::new("vortex.prompt.solo").arg("n", i64::from(self.rotations)),
        };
        Some(Prompt {
            seat,
            kind: ask.kind(),
            text,
            options: self.options(ask),
        })
    }

    fn apply_one(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        self.play(seat, action)
    }

    fn forced(&self) -> Option<(Seat, Action)> {
        self.forced_placement()
    }

    fn setup_events(&self) -> Vec<Event> {
        self.setup_log.clone()
    }

    fn notation(&self, action: &Action) -> String {
        notation::notation(action)
    }

    fn parse(&self, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
        notation::parse(self, seat, segment)
    }

    fn notation_forms() -> Vec<&'static str> {
        notation::FORMS.to_vec()
    }

    fn event_text(&self, event: &Event) -> Text {
        let t = |k: &str| Text::new(format!("vortex.event.{k}"));
        let tw = |x: u8| tower_letter(x).to_ascii_uppercase().to_string();
        match event {
            Event::TurnStarted { seat, allowance } => match (self.mode, *allowance) {
                (Mode::Catmouse, _) => t("turn_started_free")
                    .arg("seat", *seat)
                    .arg("role", self.seat_colour(*seat)),
                (_, a) => t("turn_started")
                    .arg("seat", *seat)
                    .arg("colour", self.seat_colour(*seat))
                    .arg("n", i64::from(a)),
            },
            Event::Rotated {
                seat,
                tower,
                dir,
                minority,
                moves,
            } => t(if *minority {
                "rotated_minority"
            } else {
                "rotated"
            })
            .arg("seat", *seat)
            .arg("colour", self.seat_colour(*seat))
            .arg("tower", tw(*tower))
            .arg("dir", Text::new(format!("vortex.dir.{}", dir.code())))
            .arg("moved", i64::try_from(moves.len()).unwrap_or(0)),
            Event::MinoritySpent { seat, left } => t("minority_spent")
                .arg("seat", *seat)
                .arg("left", i64::from(*left)),
            Event::Claimed {
                seat,
                tower,
                from,
                captured_from,
            } => match captured_from {
                Some(v) => t("captured")
                    .arg("seat", *seat)
                    .arg("tower", tw(*tower))
                    .arg("from", i64::from(*from))
                    .arg("victim", *v),
                None => t("claimed")
                    .arg("seat", *seat)
                    .arg("tower", tw(*tower))
                    .arg("from", i64::from(*from)),
            },
            Event::ControllerPlaced {
                owner,
                space,
                chosen_by,
            } => t("controller_placed")
                .arg("owner", *owner)
                .arg("space", i64::from(*space))
                .arg("seat", *chosen_by),
            Event::ControllerMoved { seat, from, to } => t("controller_moved")
                .arg("seat", *seat)
                .arg("from", i64::from(*from))
                .arg("to", i64::from(*to)),
            Event::Recalled { seat, tower, to } => t("recalled")
                .arg("seat", *seat)
                .arg("tower", tw(*tower))
                .arg("to", i64::from(*to)),
            Event::PlayerFinished { seat } => t("player_finished").arg("seat", *seat),
            Event::TurnEnded { seat, reason } => {
                t(&format!("turn_ended_{}", reason.code())).arg("seat", *seat)
            }
            Event::TurnSkipped { seat } => t("turn_skipped").arg("seat", *seat),
            Event::MouseReachedPantry { space } => {
                t("mouse_pantry").arg("space", i64::from(*space))
            }
            Event::MouseTrapped { space } => t("mouse_trapped").arg("space", i64::from(*space)),
            Event::PuzzleSolved { rotations } => t("puzzle_solved").arg("n", i64::from(*rotations)),
            Event::GameWon { seats, reason } => {
                let list: Vec<Text> = seats
                    .iter()
                    .map(|s| Text::new("core.raw").arg("s", *s))
                    .collect();
                let key = match reason {
                    WinReason::Goal => "won_goal",
                    WinReason::Pantry => "won_pantry",
                    WinReason::Trapped => "won_trapped",
                    WinReason::Solved => "won_solved",
                };
                t(key).arg("seats", list)
            }
            Event::GameDrawn { reason } => t(match reason {
                DrawReason::RoundLimit => "drawn_round_limit",
                DrawReason::Deadlock => "drawn_deadlock",
                DrawReason::RotationLimit => "drawn_rotation_limit",
            }),
        }
    }

    fn scores(&self) -> Vec<i64> {
        match Game::outcome(self) {
            Some(o) => o.scores,
            None if self.mode == Mode::Solitaire => vec![i64::from(self.rotations)],
            None => vec![0; usize::from(self.seats)],
        }
    }

    fn team_of(&self, seat: Seat) -> Option<u8> {
        self.sides
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.team)
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut outcome = self.outcome.clone()?;
        if self.mode == Mode::Solitaire && outcome.winners.is_empty() {
            // An unsolved puzzle (only games stored under the old rotation limit end so) ranks
            // below every solve, and scores the rotations it spent. The stored state keeps
            // what it was written with, so the game still replays to the same bytes.
            outcome.ranks = vec![state::UNSOLVED_RANK];
            outcome.scores = vec![i64::from(self.rotations)];
        }
        Some(outcome)
    }

    /// Solitaire's rotation limit (issue 25): a stored game keeps it, a new game has none.
    fn keep_rules_of(&mut self, stored: &Vortex) {
        self.rules.solo_limit = stored.rules.solo_limit;
    }
}

impl Present for Vortex {
    super::present_via_modules!(public);

    /// How the race, the chase or the puzzle ended; scores are only won or lost.
    fn result_details(&self) -> ResultDetails {
        let t = |k: &str| Text::new(format!("vortex.event.{k}"));
        let how = self.ending.as_ref().map(|e| match e {
            state::Ending::Won { sides, reason } => {
                let mut seats: Vec<Seat> = sides
                    .iter()
                    .filter_map(|i| self.sides.get(*i).map(|s| s.seat))
                    .collect();
                seats.dedup();
                let list: Vec<Text> = seats
                    .iter()
                    .map(|s| Text::new("core.raw").arg("s", *s))
                    .collect();
                t(match reason {
                    WinReason::Goal => "won_goal",
                    WinReason::Pantry => "won_pantry",
                    WinReason::Trapped => "won_trapped",
                    WinReason::Solved => "won_solved",
                })
                .arg("seats", list)
            }
            state::Ending::Drawn(reason) => t(match reason {
                DrawReason::RoundLimit => "drawn_round_limit",
                DrawReason::Deadlock => "drawn_deadlock",
                DrawReason::RotationLimit => "drawn_rotation_limit",
            }),
        });
        let parts = if self.mode == Mode::Solitaire {
            vec![vec![ScorePart {
                label: Text::new("vortex.result.rotations"),
                points: i64::from(self.rotations),
            }]]
        } else {
            Vec::new()
        };
        ResultDetails { how, parts }
    }
}

impl BotHooks for Vortex {
    fn imagine(
        public: &view::PublicView,
        _private: Option<&()>,
        seat: Seat,
        rng: &mut crate::engine::GameRng,
    ) -> Option<Self> {
        ai::imagine(public, seat, rng)
    }

    fn expert_option(&self, effort: u32, rng: &mut crate::engine::GameRng) -> Option<Action> {
        self.expert(effort, rng)
    }

    fn deciding_seat(&self) -> Option<Seat> {
        self.ask().map(|a| self.ask_seat(a))
    }

    fn estimate(&self) -> Vec<f64> {
        self.bot_estimate()
    }
}
