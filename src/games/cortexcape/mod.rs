//! Cortexcape: 2 to 4 players share a labyrinth of 20 doors and 12 exits. Each round the
//! **owner** lays point cylinders (0 to 3) and three blocking towers on the doors, the
//! **setter** (the owner's left neighbour) picks an exit and a start corridor, and the owner
//! walks a path from the start to that exit, scoring the points of every door passed. The
//! exit is then closed with the owner's marble. After 12 rounds (short game: 6, or 4 with 4
//! players) the lowest total wins. Full rules: `shared/games/cortexcape.md`.
//!
//! Notation (spec section 10): `put 13 r`, `tower 4 13`, `random`, `done`, `reset`,
//! `exit x4`, `from 12`, `start 12-13`, `start x1`, `step 13`, and the macros
//! `layout t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19`, `layout random`, `path 13 18 19`.
//!
//! Example round (Blue lab, 2 players):
//! owner `layout t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19; done`, setter
//! `exit x4; start 12-13; done`, owner `path 13 18 19 20 15 10 5; done` (cost 6).

mod ai;
pub mod lab;
pub mod moves;
pub mod notation;
pub mod render;
pub mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::{
    resolve_options, rng_from_seed, take_forced, Applied, BotHooks, Forced, Game, GameKind,
    GameOptions, GameRng, OptionSpec, Outcome, Present, Prompt, Reject, ResultDetails, ScorePart,
    Seat, SetupError,
};
use crate::i18n::Text;
use lab::{data, LabId};
use moves::{Action, Event};
use rules::Ask;
use state::{Piece, Place, Stage, DOORS};

pub use rules::RuleError;
pub use state::Cortexcape;

const FIRST_VALUES: [&str; 5] = ["random", "seat1", "seat2", "seat3", "seat4"];

fn piece_text(k: Piece) -> Text {
    Text::new(format!("cortexcape.piece.{}", k.code()))
}

fn exit_str(x: u8) -> String {
    format!("x{x}")
}

fn seat_text(seat: Seat) -> Text {
    Text::new("core.raw").arg("s", seat)
}

fn places_str(p: &[Place]) -> String {
    p.iter().map(|q| q.notation()).collect::<Vec<_>>().join(" ")
}

impl Game for Cortexcape {
    type Action = Action;
    type Event = Event;
    type Error = RuleError;

    const KIND: GameKind = GameKind::Cortexcape;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 2;
    const MAX_SEATS: usize = 4;
    const LOWER_SCORE_WINS: bool = true;

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                key: "lab",
                values: vec!["blue", "green", "red", "black"],
                default: "blue",
                help: "cortexcape.option.lab",
            },
            OptionSpec {
                key: "short",
                values: vec!["false", "true"],
                default: "false",
                help: "cortexcape.option.short",
            },
            OptionSpec {
                key: "hindsight",
                values: vec!["on", "off"],
                default: "on",
                help: "cortexcape.option.hindsight",
            },
            OptionSpec {
                key: "first",
                values: FIRST_VALUES.to_vec(),
                default: "random",
                help: "cortexcape.option.first",
            },
        ]
    }

    fn setup(options: &GameOptions, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let data = data().map_err(|e| SetupError::Invalid(e.to_string()))?;
        if !(Self::MIN_SEATS..=Self::MAX_SEATS).contains(&seats) {
            return Err(SetupError::SeatCount {
                kind: Self::KIND,
                min: Self::MIN_SEATS,
                max: Self::MAX_SEATS,
                found: seats,
            });
        }
        let opts = resolve_options(&Self::option_specs(), options)?;
        let get = |k: &str| opts.get(k).map_or("", String::as_str);
        let lab = LabId::from_key(get("lab")).unwrap_or(LabId::Blue);
        let short = get("short") == "true";
        let hindsight = get("hindsight") == "on";
        let n = u8::try_from(seats).unwrap_or(2);
        let mut rng = rng_from_seed(seed);
        let first = match get("first")
            .strip_prefix("seat")
            .and_then(|s| s.parse::<u8>().ok())
        {
            Some(k) if (1..=n).contains(&k) => Seat(k - 1),
            Some(_) => {
                return Err(SetupError::BadValue {
                    key: "first".into(),
                    value: get("first").into(),
                    allowed: FIRST_VALUES[..=seats]
                        .iter()
                        .map(|v| (*v).to_string())
                        .collect(),
                })
            }
            // The only random draw of the setup (spec section 5).
            None => Seat::at(rng.gen_range(0..u32::from(n))),
        };
        let total_rounds = match (short, seats) {
            (false, _) => 12,
            (true, 4) => 4,
            (true, _) => 6,
        };
        let board = [None; DOORS];
        let pool = data.counts;
        let mut game = Cortexcape {
            lab,
            short,
            hindsight,
            seats: n,
            first,
            rng,
            round: 1,
            total_rounds,
            board,
            pool,
            targets: (1..=20).collect(),
            prev_towers: Vec::new(),
            towers_moved: 0,
            touched: false,
            snap_board: board,
            snap_pool: pool,
            marbles: [None; 12],
            marbles_left: vec![data.marbles_per_seat(seats); seats],
            stage: Stage::Configure,
            target: None,
            start: None,
            path: Vec::new(),
            scores: vec![0; seats],
            history: Vec::new(),
            outcome: None,
            setup_log: Vec::new(),
        };
        // A pool of one kind fills itself (the forced `put`s; never with the shipped counts,
        // kept for symmetry): what it places is reported with the first board like any step's
        // events.
        // Round 1 is announced like the later ones: who arranges, who sets the challenge.
        let mut first = Applied {
            events: vec![Event::RoundStarted {
                round: 1,
                owner: game.owner(),
                setter: game.setter(),
            }],
            barrier: false,
            revealed: false,
        };
        take_forced(&mut game, None, &mut first);
        game.setup_log = first.events;
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        usize::from(self.seats)
    }

    fn prompt(&self) -> Option<Prompt<Action>> {
        let ask = self.ask()?;
        let exit = self.target.map(exit_str).unwrap_or_default();
        let options = self.options(ask);
        let text = match ask {
            Ask::PlaceCylinder(d) => Text::new("cortexcape.prompt.place_cylinder").arg("door", d),
            Ask::MoveTower(f) => Text::new("cortexcape.prompt.move_tower").arg("from", f),
            Ask::ConfirmLayout => {
                if options.contains(&Action::Done) {
                    Text::new("cortexcape.prompt.confirm_layout")
                } else {
                    Text::new("cortexcape.prompt.confirm_layout_blocked")
                }
            }
            Ask::ChooseExit => {
                Text::new("cortexcape.prompt.choose_exit").arg("owner", seat_text(self.owner()))
            }
            Ask::ChooseStartDoor => {
                Text::new("cortexcape.prompt.choose_start_door").arg("exit", exit)
            }
            Ask::ChooseStartCorridor(d) => Text::new("cortexcape.prompt.choose_start_corridor")
                .arg("door", d)
                .arg("exit", exit),
            Ask::ChooseStartExit => {
                Text::new("cortexcape.prompt.choose_start_exit").arg("exit", exit)
            }
            Ask::ConfirmChallenge => Text::new("cortexcape.prompt.confirm_challenge")
                .arg(
                    "start",
                    self.start.map(|s| s.notation()).unwrap_or_default(),
                )
                .arg("exit", exit),
            Ask::Step => Text::new("cortexcape.prompt.step")
                .arg("exit", exit)
                .arg("cost", self.running_cost()),
            Ask::ConfirmPath => Text::new("cortexcape.prompt.confirm_path")
                .arg("path", places_str(&self.path))
                .arg("cost", self.running_cost()),
        };
        Some(Prompt {
            seat: self.ask_seat(ask),
            kind: ask.kind(),
            text,
            options,
        })
    }

    fn apply_one(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        self.play(seat, action)
    }

    fn forced(&self) -> Option<(Seat, Action)> {
        self.forced_put().map(|a| (self.owner(), a))
    }

    /// A forced `put` says it was not the owner's (`auto`).
    fn apply_forced(&mut self, forced: &Forced<Action>) -> Result<Applied<Event>, RuleError> {
        let mut applied = self.play(forced.seat, &forced.action)?;
        for e in &mut applied.events {
            if let Event::CylinderPlaced { auto, .. } = e {
                *auto = true;
            }
        }
        Ok(applied)
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
        let t = |k: &str| Text::new(format!("cortexcape.event.{k}"));
        match event {
            Event::CylinderPlaced { door, kind, auto } => t(if *auto {
                "cylinder_auto"
            } else {
                "cylinder_placed"
            })
            .arg("door", *door)
            .arg("kind", piece_text(*kind)),
            Event::TowerMoved {
                from,
                to,
                displaced,
            } => t("tower_moved")
                .arg("from", *from)
                .arg("to", *to)
                .arg("kind", piece_text(*displaced)),
            Event::LayoutReset => t("layout_reset"),
            Event::LayoutConfirmed { layout } => {
                t("layout_confirmed").arg("layout", layout.clone())
            }
            Event::ExitChosen { exit } => t("exit_chosen").arg("exit", exit_str(*exit)),
            Event::StartChosen { start } => t("start_chosen").arg("start", start.notation()),
            Event::ChallengeConfirmed => t("challenge_confirmed"),
            Event::Stepped {
                place,
                running_cost,
            } => t("stepped")
                .arg("place", place.notation())
                .arg("cost", *running_cost),
            Event::PathConfirmed { places, cost } => t("path_confirmed")
                .arg("path", places_str(places))
                .arg("cost", *cost),
            Event::CylindersCollected { doors, kinds } => {
                if doors.is_empty() {
                    t("nothing_collected")
                } else {
                    let list: Vec<Text> = doors
                        .iter()
                        .zip(kinds)
                        .map(|(d, k)| {
                            Text::new("cortexcape.event.door_piece")
                                .arg("door", *d)
                                .arg("kind", piece_text(*k))
                        })
                        .collect();
                    t("collected").arg("list", list)
                }
            }
            Event::ScoreAdded {
                seat,
                points,
                total,
            } => t("score_added")
                .arg("seat", *seat)
                .arg("points", *points)
                .arg("total", *total),
            Event::MarblePlaced { exit, seat } => t("marble_placed")
                .arg("seat", *seat)
                .arg("exit", exit_str(*exit)),
            Event::ConesRemoved => t("cones_removed"),
            Event::Hindsight(h) => t(if h.matched {
                "hindsight_matched"
            } else {
                "hindsight_missed"
            })
            .arg("cheapest", h.cheapest)
            .arg("path", places_str(&h.cheapest_path))
            .arg("best", h.best)
            .arg("start", h.best_start.notation())
            .arg("exit", exit_str(h.best_exit)),
            Event::RoundEnded { round } => t("round_ended").arg("round", *round),
            Event::RoundStarted {
                round,
                owner,
                setter,
            } => t("round_started")
                .arg("round", *round)
                .arg("owner", *owner)
                .arg("setter", *setter),
            Event::GameEnded { scores, winners } => {
                let scores: Vec<Text> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        Text::new("cortexcape.summary.seat_points")
                            .arg("seat", Seat::at(i))
                            .arg("score", *s)
                    })
                    .collect();
                if winners.is_empty() {
                    t("game_draw").arg("scores", scores)
                } else {
                    let w: Vec<Text> = winners.iter().map(|s| seat_text(*s)).collect();
                    t("game_won").arg("winners", w).arg("scores", scores)
                }
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.scores.clone()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }
}

impl Present for Cortexcape {
    super::present_via_modules!(public);

    /// Each seat's total is the cost of the walks it made, one per round it owned.
    fn result_details(&self) -> ResultDetails {
        let mut parts = vec![Vec::new(); usize::from(self.seats)];
        for r in &self.history {
            if let Some(p) = parts.get_mut(r.owner.index()) {
                p.push(ScorePart {
                    label: Text::new("cortexcape.result.round").arg("n", i64::from(r.round)),
                    points: r.cost,
                });
            }
        }
        ResultDetails {
            how: Some(
                Text::new("cortexcape.result.how").arg("rounds", i64::from(self.total_rounds)),
            ),
            parts,
        }
    }
}

impl BotHooks for Cortexcape {
    fn imagine(
        public: &view::PublicView,
        _private: Option<&()>,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<Self> {
        ai::imagine(public, seat, rng)
    }

    fn expert_option(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        self.expert(effort, rng)
    }
}
