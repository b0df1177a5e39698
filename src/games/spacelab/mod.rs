//! Space Lab: 2 to 4 players each build a space station of three capsules and ten card slots.
//! On a turn a player reveals 3 Lab cards and keeps one agency's, recruits one agency's pile
//! from the shared Recruitment Centre, or places Lab cards from hand, paying each card's cost
//! by discarding other cards. Top slots draw Project cards, bottom slots fire the capsule's
//! objective effect, and objectives completed around a capsule take falling Validation tiles.
//! Ten cards or three objectives trigger a last turn for the others. Full rules:
//! `shared/games/spacelab.md`; data set `assets/games/spacelab/house-v1.toml` (HOUSE).
//!
//! Notation (spec section 10): `arrange o04 o01 o10`, `reveal`, `recruit`, `place`,
//! `take red`, `card red13`, `slot t2`, `pay blu01`, `end`, `keep medbay`, `bonus lab`,
//! `from gold`. A whole turn may be typed: `place; card red13; slot t2; pay blu01; pay grn04;
//! pay gld02; keep medbay`.

mod ai;
pub mod cards;
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
    resolve_options, rng_from_seed, take_forced, Applied, BotHooks, Forced, Game, GameKind,
    GameOptions, GameRng, LineKeeps, OptionSpec, Outcome, Present, Prompt, Reject, ResultDetails,
    ScorePart, Seat, Secrecy, SetupError,
};
use crate::i18n::Text;
use cards::data;
use moves::{Action, BonusKind, EndReason, Event};
use rules::Ctx;
use state::{Agency, FinalRound, Opts, Phase, Player, CAPSULES, LAB_CARDS, PROJECT_CARDS, SLOTS};

pub use rules::RuleError;
pub use state::SpaceLab;

const FIRST_SEATS: [&str; 4] = ["0", "1", "2", "3"];

fn t(key: &str) -> Text {
    Text::new(format!("spacelab.{key}"))
}

fn agency_text(a: Agency) -> Text {
    t(&format!("agency.{}", a.id()))
}

fn seat_list(seats: &[Seat]) -> Text {
    if seats.is_empty() {
        t("event.nobody")
    } else {
        Text::new("core.raw").arg(
            "s",
            seats
                .iter()
                .map(|s| Text::new("core.raw").arg("s", *s))
                .collect::<Vec<_>>(),
        )
    }
}

impl SpaceLab {
    /// The events of the setup itself (spec 6.8: `game_started`, then `objectives_dealt`),
    /// all public: the seats, the first seat, the options, and the tiles dealt face up.
    pub fn setup_events(&self) -> Vec<Event> {
        let mut events = vec![
            Event::GameStarted {
                seats: self.n,
                first: self.first,
                options: self.opts,
            },
            Event::ObjectivesDealt {
                tiles: self.players.iter().map(|p| p.dealt).collect(),
            },
        ];
        events.extend(self.setup_log.iter().cloned());
        events
    }

    fn ids(&self, cards: &[u8]) -> String {
        let d = self.data();
        cards
            .iter()
            .map(|&c| d.lab_id(c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Game for SpaceLab {
    type Action = Action;
    type Event = Event;
    type Error = RuleError;

    const KIND: GameKind = GameKind::SpaceLab;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 2;
    const MAX_SEATS: usize = 4;
    const LOWER_SCORE_WINS: bool = false;
    // Spec T15: a typed line refused after a draw keeps what came before the draw.
    const LINE_KEEPS: LineKeeps = LineKeeps::UpToBarrier;

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                key: "first_player",
                values: vec!["random", "host_choice"],
                default: "random",
                help: "spacelab.option.first_player",
            },
            OptionSpec {
                key: "first_seat",
                values: FIRST_SEATS.to_vec(),
                default: "0",
                help: "spacelab.option.first_seat",
            },
            OptionSpec {
                key: "objective_setup",
                values: vec!["choose", "dealt"],
                default: "choose",
                help: "spacelab.option.objective_setup",
            },
            OptionSpec {
                key: "final_round",
                values: vec!["others_once", "equal_turns"],
                default: "others_once",
                help: "spacelab.option.final_round",
            },
            OptionSpec {
                key: "trigger_ends_turn",
                values: vec!["false", "true"],
                default: "false",
                help: "spacelab.option.trigger_ends_turn",
            },
            OptionSpec {
                key: "validation_bonus",
                values: vec!["first_of_each_pile", "off"],
                default: "first_of_each_pile",
                help: "spacelab.option.validation_bonus",
            },
            OptionSpec {
                key: "data_set",
                values: vec!["house-v1"],
                default: "house-v1",
                help: "spacelab.option.data_set",
            },
        ]
    }

    fn setup(options: &GameOptions, seats: usize, seed: u64) -> Result<Self, SetupError> {
        let d = data().map_err(|e| SetupError::Invalid(e.to_string()))?;
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
        let n = u8::try_from(seats).unwrap_or(2);
        let mut rng = rng_from_seed(seed);
        // Step 1: first player.
        let first = if get("first_player") == "host_choice" {
            match get("first_seat").parse::<u8>() {
                Ok(s) if s < n => Seat(s),
                _ => {
                    return Err(SetupError::BadValue {
                        key: "first_seat".into(),
                        value: get("first_seat").into(),
                        allowed: FIRST_SEATS[..seats].iter().map(|v| (*v).into()).collect(),
                    })
                }
            }
        } else {
            Seat(rng.gen_range(0..n))
        };
        // Steps 2-4: Lab deck, Project deck, objectives.
        let mut lab_deck: Vec<u8> = (0..u8::try_from(LAB_CARDS).unwrap_or(60)).collect();
        lab_deck.shuffle(&mut rng);
        let mut project_deck: Vec<u8> = (0..u8::try_from(PROJECT_CARDS).unwrap_or(24)).collect();
        project_deck.shuffle(&mut rng);
        let mut objs: Vec<u8> = (0..u8::try_from(d.objectives.len()).unwrap_or(12)).collect();
        objs.shuffle(&mut rng);
        let mut players: Vec<Player> = (0..seats)
            .map(|_| Player {
                hand: Vec::new(),
                projects: Vec::new(),
                station: [None; SLOTS],
                dealt: [0; CAPSULES],
                objectives: None,
                validated: [None; CAPSULES],
                placed_this_action: 0,
                drawn: Vec::new(),
                returned: Vec::new(),
            })
            .collect();
        for k in 0..seats {
            let s = (first.index() + k) % seats;
            players[s].dealt = [objs[3 * k], objs[3 * k + 1], objs[3 * k + 2]];
        }
        let choose = get("objective_setup") == "choose";
        if !choose {
            for p in &mut players {
                p.objectives = Some(p.dealt);
            }
        }
        let mut game = SpaceLab {
            opts: Opts {
                choose_objectives: choose,
                final_round: if get("final_round") == "equal_turns" {
                    FinalRound::EqualTurns
                } else {
                    FinalRound::OthersOnce
                },
                trigger_ends_turn: get("trigger_ends_turn") == "true",
                validation_bonus: get("validation_bonus") == "first_of_each_pile",
            },
            n,
            first,
            current: first,
            turn_no: 1,
            rng,
            lab_deck,
            lab_discard: Vec::new(),
            centre: Default::default(),
            revealed: Vec::new(),
            project_deck,
            // Step 5: validation piles, highest on top.
            piles: [0, 1, 2].map(|c| d.capsules[c].pile.clone()),
            players,
            phase: Phase::Arrange(first),
            resolving: None,
            end: None,
            consecutive_passes: 0,
            last_auto: Vec::new(),
            final_scores: None,
            outcome: None,
            setup_log: Vec::new(),
            last: Vec::new(),
            records_last: true,
        };
        if !choose {
            // Setup plays on by itself (the first turn's Reveal): its events are reported
            // with the first board like any step's (issue 25).
            let mut ctx = Ctx::default();
            game.start_turn(&mut ctx);
            let mut first = ctx.applied();
            take_forced(&mut game, None, &mut first);
            game.setup_log = first.events;
        }
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        usize::from(self.n)
    }

    fn prompt(&self) -> Option<Prompt<Action>> {
        let who = self.to_act()?;
        let kind = self.prompt_kind()?;
        let options = self.options();
        let p = self.player(who);
        let text = match &self.phase {
            Phase::ChooseAction => t("prompt.choose_action").arg("hand", p.hand.len()),
            Phase::PlaceCard { .. } => {
                t(&format!("prompt.{kind}")).arg("placed", p.placed_this_action)
            }
            Phase::PlacePay { card, paid, .. } => {
                // The card is not named: the prompt text reaches the channel and the choice
                // can still be taken back.
                let due = usize::from(self.data().cost(*card)).saturating_sub(paid.len());
                t(&format!("prompt.{kind}")).arg("due", due)
            }
            _ => t(&format!("prompt.{kind}")),
        };
        Some(Prompt {
            seat: who,
            kind,
            text,
            options,
        })
    }

    fn apply_one(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        self.play(seat, action)
    }

    fn forced(&self) -> Option<(Seat, Action)> {
        self.forced_option()
    }

    fn apply_forced(&mut self, forced: &Forced<Action>) -> Result<Applied<Event>, RuleError> {
        Ok(self.play_forced(forced))
    }

    fn notation(&self, action: &Action) -> String {
        notation::notation(self.data(), action)
    }

    fn parse(&self, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
        notation::parse(self, seat, segment)
    }

    fn notation_forms() -> Vec<&'static str> {
        notation::FORMS.to_vec()
    }

    fn event_text(&self, event: &Event) -> Text {
        let d = self.data();
        let e = |k: &str| t(&format!("event.{k}"));
        match event {
            Event::GameStarted {
                seats,
                first,
                options,
            } => e("game_started")
                .arg("seats", *seats)
                .arg("first", *first)
                .arg(
                    "objectives",
                    if options.choose_objectives {
                        "choose"
                    } else {
                        "dealt"
                    },
                )
                .arg(
                    "final_round",
                    match options.final_round {
                        FinalRound::OthersOnce => "others_once",
                        FinalRound::EqualTurns => "equal_turns",
                    },
                )
                .arg(
                    "trigger",
                    if options.trigger_ends_turn {
                        "true"
                    } else {
                        "false"
                    },
                )
                .arg(
                    "bonus",
                    if options.validation_bonus {
                        "first_of_each_pile"
                    } else {
                        "off"
                    },
                ),
            Event::ObjectivesDealt { tiles } => {
                let lines: Vec<Text> = tiles
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        e("dealt_line")
                            .arg("seat", Seat::at(i))
                            .arg("a", d.objective_id(t[0]))
                            .arg("b", d.objective_id(t[1]))
                            .arg("c", d.objective_id(t[2]))
                    })
                    .collect();
                e("objectives_dealt").arg("tiles", lines)
            }
            Event::ObjectivesArranged { seat, tiles } => e("objectives_arranged")
                .arg("seat", *seat)
                .arg("c1", d.objective_id(tiles[0]))
                .arg("c2", d.objective_id(tiles[1]))
                .arg("c3", d.objective_id(tiles[2])),
            Event::TurnStarted {
                seat,
                turn_no,
                hand,
                projects,
                forced_place,
            } => e(if *forced_place {
                "turn_started_forced"
            } else {
                "turn_started"
            })
            .arg("seat", *seat)
            .arg("turn", *turn_no)
            .arg("hand", *hand)
            .arg("projects", *projects),
            Event::ActionChosen { seat, action, auto } => e(if *auto {
                "action_auto"
            } else {
                "action_chosen"
            })
            .arg("seat", *seat)
            .arg("action", notation::notation(d, action)),
            Event::Auto { seat, action } => match action {
                // The kept code is private: the table only learns that a card was kept.
                Action::Keep(_) => e("keep_auto").arg("seat", *seat),
                // A chosen card or filter names hand contents before anything is placed.
                Action::Card(_) | Action::From(_) => e("hidden_auto").arg("seat", *seat),
                _ => e("auto")
                    .arg("seat", *seat)
                    .arg("option", notation::notation(d, action)),
            },
            Event::LabsRevealed { ids } => e("labs_revealed").arg("ids", self.ids(ids)),
            Event::LabsTaken { seat, agency, ids } => e("labs_taken")
                .arg("seat", *seat)
                .arg("agency", agency_text(*agency))
                .arg("ids", self.ids(ids)),
            Event::CentreAdded { ids } => e("centre_added").arg("ids", self.ids(ids)),
            Event::Recruited { seat, agency, ids } => e("recruited")
                .arg("seat", *seat)
                .arg("agency", agency_text(*agency))
                .arg("ids", self.ids(ids)),
            Event::LabPlaced { seat, card, slot } => e("lab_placed")
                .arg("seat", *seat)
                .arg("card", d.lab_id(*card))
                .arg("slot", d.slot_id(*slot)),
            Event::LabPaid { seat, ids } => {
                e("lab_paid").arg("seat", *seat).arg("ids", self.ids(ids))
            }
            Event::LabsDrawn { seat, source, ids } => e("labs_drawn")
                .arg("seat", *seat)
                .arg("count", ids.len())
                .arg("source", t(&format!("source.{}", source.id()))),
            Event::ProjectsDrawn {
                seat,
                source,
                kinds,
            } => e("projects_drawn")
                .arg("seat", *seat)
                .arg("count", kinds.len())
                .arg("source", t(&format!("source.{}", source.id()))),
            Event::ProjectKept { seat, .. } => e("project_kept").arg("seat", *seat),
            Event::ProjectsReturned { kinds, .. } => {
                e("projects_returned").arg("count", kinds.len())
            }
            Event::BottomEffect {
                seat,
                capsule,
                taken,
                effect,
            } => {
                if effect == "recruit_own_agency" && taken.is_empty() {
                    // Nothing of that agency in the Centre: said so, not "takes 0 cards: .".
                    e("bottom_recruit_none")
                        .arg("seat", *seat)
                        .arg("capsule", format!("c{}", capsule + 1))
                } else if effect == "recruit_own_agency" {
                    e("bottom_recruit")
                        .arg("seat", *seat)
                        .arg("capsule", format!("c{}", capsule + 1))
                        .arg("count", taken.len())
                        .arg("ids", self.ids(taken))
                } else {
                    e("bottom_effect")
                        .arg("seat", *seat)
                        .arg("capsule", format!("c{}", capsule + 1))
                        .arg("effect", t(&format!("bottom.{effect}")))
                }
            }
            Event::BottomBonusArmed { seat, capsule } => e("bottom_armed")
                .arg("seat", *seat)
                .arg("capsule", format!("c{}", capsule + 1)),
            Event::ObjectiveValidated {
                seat,
                capsule,
                objective,
                tile,
                value,
                bonus,
            } => e(if *bonus {
                "validated_bonus"
            } else {
                "validated"
            })
            .arg("seat", *seat)
            .arg("capsule", format!("c{}", capsule + 1))
            .arg("objective", d.objective_id(*objective))
            .arg(
                "tile",
                d.tile(*tile).map_or_else(String::new, |x| x.id.clone()),
            )
            .arg("value", *value),
            Event::ValidationBonus { seat, kind, .. } => e(match kind {
                BonusKind::Lab => "bonus_lab",
                BonusKind::Project => "bonus_project",
            })
            .arg("seat", *seat),
            Event::LabDeckReshuffled { count } => e("reshuffled").arg("count", *count),
            Event::EndTriggered {
                seat,
                reasons,
                still_to_play,
            } => {
                let why: Vec<Text> = reasons
                    .iter()
                    .map(|r| match r {
                        EndReason::TenCards => e("reason_ten_cards"),
                        EndReason::ThreeObjectives => e("reason_three_objectives"),
                    })
                    .collect();
                e("end_triggered")
                    .arg("seat", *seat)
                    .arg("reasons", why)
                    .arg("still", seat_list(still_to_play))
            }
            Event::TurnPassed { seat } => e("turn_passed").arg("seat", *seat),
            Event::PlaceEnded { seat, placed } => {
                e("place_ended").arg("seat", *seat).arg("count", *placed)
            }
            Event::GameOver {
                scores,
                ranks,
                stall,
            } => {
                let list: Vec<Text> = scores
                    .iter()
                    .zip(ranks)
                    .enumerate()
                    .map(|(i, (b, r))| {
                        e("score_line")
                            .arg("seat", Seat::at(i))
                            .arg("rank", *r)
                            .arg("total", b.total())
                            .arg("lab", b.lab_end)
                            .arg("bottom", b.bottom_end)
                            .arg("validation", b.validation)
                            .arg("projects", b.projects)
                    })
                    .collect();
                e(if *stall {
                    "game_over_stall"
                } else {
                    "game_over"
                })
                .arg("scores", list)
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        match &self.final_scores {
            Some(s) => s.iter().map(state::Breakdown::total).collect(),
            None => self
                .seat_ids()
                .map(|s| self.breakdown(s).visible())
                .collect(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// Choosing a card to place, paying with hand cards and keeping a Project name cards only
    /// the deciding seat may see (spec section 9).
    fn secrecy(&self) -> Secrecy {
        if matches!(
            self.prompt_kind(),
            Some("place_filter" | "place_card" | "place_pay" | "pay_filter" | "keep_project")
        ) {
            Secrecy::Hand
        } else {
            Secrecy::Public
        }
    }

    /// Only the playout policy: the root decision is always searched.
    fn setup_events(&self) -> Vec<Event> {
        SpaceLab::setup_events(self)
    }

    /// `trigger_ends_turn` defaulted to `true` until issue 25: a stored game keeps the value
    /// it was set up with (every state records it), whatever today's default. A game stored
    /// before issue 38 does not record its last turns (its snapshots stay as they were).
    fn keep_rules_of(&mut self, stored: &SpaceLab) {
        self.opts.trigger_ends_turn = stored.opts.trigger_ends_turn;
        if !stored.records_last {
            self.records_last = false;
            self.last.clear();
        }
    }
}

impl Present for SpaceLab {
    super::present_via_modules!(public, private);

    /// The final scoring's four parts (spec section 8) and who triggered the end.
    fn result_details(&self) -> ResultDetails {
        let Some(finals) = &self.final_scores else {
            return ResultDetails::default();
        };
        let part = |key: &str, points: i64| ScorePart {
            label: Text::new(format!("spacelab.result.{key}")),
            points,
        };
        let parts = finals
            .iter()
            .map(|b| {
                vec![
                    part("lab", b.lab_end),
                    part("bottom", b.bottom_end),
                    part("validation", b.validation),
                    part("projects", b.projects),
                ]
            })
            .collect();
        ResultDetails {
            how: self
                .end
                .as_ref()
                .map(|e| Text::new("spacelab.result.how").arg("seat", e.trigger)),
            parts,
        }
    }
}

impl BotHooks for SpaceLab {
    fn imagine(
        public: &view::PublicView,
        private: Option<&view::PrivateView>,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<Self> {
        ai::imagine(public, private, seat, rng)
    }

    fn expert_option(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        if effort == 0 {
            self.playout_option(rng)
        } else {
            None
        }
    }

    fn estimate(&self) -> Vec<f64> {
        self.bot_estimate()
    }
}
