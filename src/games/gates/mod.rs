//! Gates of Delirium: 2 to 4 players hold five split action cards. Each round the first
//! player sets the sanity disc to sane or insane, and every card played that round resolves
//! on the matching half: sane halves collect lost pages and blueprint fragments or send
//! investigators to the five towns; insane halves collect runes, convert rival investigators
//! or build gate sections. A completed gate opens at once, releasing the next monstrosity disc
//! (10-15 points), maybe revealing a scroll, and scoring its region for investigator
//! majorities. Despair tokens buy desperate actions at any step of your own turn. The game
//! ends when the last monstrosity is released. Full rules: `shared/games/gates.md`.
//!
//! Notation (spec section 10): `mode sane`, `play p07`, `send kin`, `from inn`, `to kin`,
//! `convert kin blue`, `with sal`, `take 2`, `take deck`, `open roc`, `despair swap`,
//! `discard r05`, `skip`, `end`; a turn may be typed as `play r01; send kin; play p01; take 2`.

mod ai;
pub mod components;
pub mod moves;
pub mod notation;
pub mod render;
pub mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::{
    resolve_options, Applied, BotHooks, Forced, Game, GameKind, GameOptions, GameRng, LineKeeps,
    OptionSpec, Outcome, Present, Prompt, Reject, ResultDetails, ScorePart, Seat, Secrecy,
    SetupError,
};
use crate::i18n::Text;
use components::{data, Region};
use moves::{Action, Event, PointsReason, Source};
use rules::Ask;
use state::{Opts, Owner};
use view::{effect_text, mode_text, scroll_text};

pub use rules::RuleError;
pub use state::Gates;

const FIRST_VALUES: [&str; 5] = ["random", "1", "2", "3", "4"];

fn region_text(r: Region) -> Text {
    Text::raw(r.name())
}

fn owner_text(o: Owner) -> Text {
    Text::new(format!("gates.colour.{}", o.code()))
}

fn seat_text(seat: Seat) -> Text {
    Text::new("core.raw").arg("s", seat)
}

impl Game for Gates {
    type Action = Action;
    type Event = Event;
    type Error = RuleError;

    const KIND: GameKind = GameKind::Gates;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 2;
    const MAX_SEATS: usize = 4;
    const LOWER_SCORE_WINS: bool = false;
    // Spec §10: a `;` line stops at its first illegal option; the options before it stay.
    const LINE_KEEPS: LineKeeps = LineKeeps::PlayedParts;

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                key: "first_player",
                values: FIRST_VALUES.to_vec(),
                default: "random",
                help: "gates.option.first_player",
            },
            OptionSpec {
                key: "score3_cost",
                values: vec!["5", "4", "6"],
                default: "5",
                help: "gates.option.score3_cost",
            },
            OptionSpec {
                key: "scroll_ties",
                values: vec!["all", "none"],
                default: "all",
                help: "gates.option.scroll_ties",
            },
            OptionSpec {
                key: "final_tiebreak",
                values: vec!["fewer_turns", "shared"],
                default: "fewer_turns",
                help: "gates.option.final_tiebreak",
            },
            // Any whole number 1-200 is accepted; the list shows the default only, so that
            // option combinations stay few.
            OptionSpec {
                key: "round_limit",
                values: vec!["60"],
                default: "60",
                help: "gates.option.round_limit",
            },
            OptionSpec {
                key: "confirm_end",
                values: vec!["false", "true"],
                default: "false",
                help: "gates.option.confirm_end",
            },
            OptionSpec {
                key: "filing",
                values: vec!["always", "played_half"],
                default: "always",
                help: "gates.option.filing",
            },
            OptionSpec {
                key: "neutral_convert",
                values: vec!["remove", "swap"],
                default: "remove",
                help: "gates.option.neutral_convert",
            },
        ]
    }

    fn setup(options: &GameOptions, seats: usize, seed: u64) -> Result<Self, SetupError> {
        data().map_err(|e| SetupError::Invalid(e.to_string()))?;
        if !(Self::MIN_SEATS..=Self::MAX_SEATS).contains(&seats) {
            return Err(SetupError::SeatCount {
                kind: Self::KIND,
                min: Self::MIN_SEATS,
                max: Self::MAX_SEATS,
                found: seats,
            });
        }
        let mut given = options.clone();
        let round_limit = match given.get("round_limit") {
            None => 60,
            Some(v) => {
                let n = v
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=200).contains(n))
                    .ok_or_else(|| SetupError::BadValue {
                        key: "round_limit".into(),
                        value: v.clone(),
                        allowed: vec!["1-200".into()],
                    })?;
                given.insert("round_limit".into(), "60".into());
                n
            }
        };
        let opts = resolve_options(&Self::option_specs(), &given)?;
        let get = |k: &str| opts.get(k).map_or("", String::as_str);
        let first = match get("first_player") {
            "random" => None,
            v => match v.parse::<u8>() {
                Ok(k) if (1..=seats).contains(&usize::from(k)) => Some(Seat(k - 1)),
                _ => {
                    return Err(SetupError::BadValue {
                        key: "first_player".into(),
                        value: v.into(),
                        allowed: FIRST_VALUES[..=seats]
                            .iter()
                            .map(|v| (*v).to_string())
                            .collect(),
                    })
                }
            },
        };
        let o = Opts {
            score3_cost: get("score3_cost").parse().unwrap_or(5),
            scroll_ties_all: get("scroll_ties") == "all",
            fewer_turns: get("final_tiebreak") == "fewer_turns",
            round_limit,
            confirm_end: get("confirm_end") == "true",
            file_always: get("filing") == "always",
            neutral_remove: get("neutral_convert") == "remove",
        };
        Ok(Gates::new(seats, o, first, seed))
    }

    fn seat_count(&self) -> usize {
        usize::from(self.seats)
    }

    fn prompt(&self) -> Option<Prompt<Action>> {
        let ask = self.ask()?;
        let options = self.options(ask);
        let t = |k: &str| Text::new(format!("gates.prompt.{k}"));
        let text = match ask {
            Ask::ChooseMode => t("choose_mode").arg("round", i64::from(self.round)),
            Ask::PlayCard => t(if self.turn.cards_played == 0 {
                "play_first"
            } else {
                "play_second"
            })
            .arg("mode", mode_text(self.mode)),
            Ask::SendPlace | Ask::SendMoveFrom => {
                let left = match self.turn.step {
                    state::Step::Send { left, .. } => left,
                    _ => 0,
                };
                t(if ask == Ask::SendPlace {
                    "send_place"
                } else {
                    "send_move_from"
                })
                .arg("left", i64::from(left))
            }
            Ask::SendMoveTo => t("send_move_to"),
            Ask::ConvertTarget => t("convert_target"),
            Ask::ConvertSwapWith => t("convert_swap_with"),
            Ask::TakeGateCard => {
                let left = match self.turn.step {
                    state::Step::Build { left, .. } => left,
                    _ => 0,
                };
                t("take_gate_card").arg("left", i64::from(left))
            }
            Ask::ChooseOpen => t("choose_open"),
            Ask::SwapDiscard => {
                t("swap_discard").arg("left", i64::from(self.turn.swap_discards_left))
            }
            Ask::EndTurn => t("end_turn"),
        };
        Some(Prompt {
            seat: self.active,
            kind: ask.kind(),
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
        notation::notation(action)
    }

    fn parse(&self, _seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
        notation::parse(segment)
    }

    fn notation_forms() -> Vec<&'static str> {
        notation::FORMS.to_vec()
    }

    fn event_text(&self, event: &Event) -> Text {
        let t = |k: &str| Text::new(format!("gates.event.{k}"));
        let card = |c| notation::card_str(c);
        match event {
            Event::Auto { seat, notation } => {
                t("auto").arg("seat", *seat).arg("option", notation.clone())
            }
            Event::RoundStarted { round, first } => t("round_started")
                .arg("round", i64::from(*round))
                .arg("seat", *first),
            Event::ModeChosen { seat, mode } => t("mode_chosen")
                .arg("seat", *seat)
                .arg("mode", mode_text(Some(*mode))),
            Event::TurnStarted { seat } => t("turn_started").arg("seat", *seat),
            Event::CardPlayed {
                seat,
                card: c,
                effect,
                ..
            } => t("card_played")
                .arg("seat", *seat)
                .arg("card", card(*c))
                .arg("effect", effect_text(*effect)),
            Event::DespairGained { seat, wanted, got } => if got == wanted {
                t("despair_gained")
            } else {
                t("despair_gained_short")
            }
            .arg("seat", *seat)
            .arg("got", i64::from(*got))
            .arg("wanted", i64::from(*wanted)),
            Event::DespairSpent { seat, action, cost } => t("despair_spent")
                .arg("seat", *seat)
                .arg("cost", i64::from(*cost))
                .arg(
                    "action",
                    Text::new(format!("gates.desperate.{}", action.code())),
                ),
            Event::SanityFlipped { seat, mode } => t("sanity_flipped")
                .arg("seat", *seat)
                .arg("mode", mode_text(Some(*mode))),
            Event::PointsScored {
                seat,
                points,
                reason,
            } => t(match reason {
                PointsReason::Disc => "points_disc",
                PointsReason::Despair => "points_despair",
            })
            .arg("seat", *seat)
            .arg("points", *points),
            Event::ArtifactCollected { seat, artifact, .. } => t("artifact")
                .arg("seat", *seat)
                .arg("artifact", effect_text(*artifact)),
            Event::InvestigatorSent { seat, region } => t("sent")
                .arg("seat", *seat)
                .arg("region", region_text(*region)),
            Event::InvestigatorMoved { seat, from, to } => t("moved")
                .arg("seat", *seat)
                .arg("from", region_text(*from))
                .arg("to", region_text(*to)),
            Event::SendSkipped { seat, left } => t("send_skipped")
                .arg("seat", *seat)
                .arg("left", i64::from(*left)),
            Event::BuildSkipped { seat } => t("build_skipped").arg("seat", *seat),
            Event::Converted {
                seat,
                region,
                victim,
                swap_with,
            } => match swap_with {
                None => t("converted"),
                Some(_) => t("converted_swap"),
            }
            .arg("seat", *seat)
            .arg("region", region_text(*region))
            .arg("victim", owner_text(*victim))
            .arg(
                "with",
                swap_with.map_or_else(String::new, |r| r.name().into()),
            ),
            Event::ConvertFizzled { seat } => t("convert_fizzled").arg("seat", *seat),
            Event::NeutralRemoved { seat, region } => t("neutral_removed")
                .arg("seat", *seat)
                .arg("region", region_text(*region)),
            Event::GateCardTaken {
                seat,
                source,
                region,
            } => match source {
                Source::Slot(k) => t("taken_slot").arg("slot", i64::from(*k)),
                Source::Deck => t("taken_deck"),
            }
            .arg("seat", *seat)
            .arg("region", region_text(*region)),
            Event::PoolRefilled { slot, region } => t("pool_refilled")
                .arg("slot", i64::from(*slot))
                .arg("region", region_text(*region)),
            Event::PoolSlotEmpty { slot } => t("pool_slot_empty").arg("slot", i64::from(*slot)),
            Event::PoolRefreshed { pool } => {
                let names: Vec<&str> = pool.iter().map(|p| p.map_or("-", |r| r.name())).collect();
                t("pool_refreshed").arg("pool", names.join(", "))
            }
            Event::SectionPlaced {
                seat,
                region,
                cards,
                size,
                new_gate,
            } => if *new_gate {
                t("section_new")
            } else {
                t("section_placed")
            }
            .arg("seat", *seat)
            .arg("region", region_text(*region))
            .arg("cards", i64::from(*cards))
            .arg("size", i64::from(*size)),
            Event::SectionLost { seat } => t("section_lost").arg("seat", *seat),
            Event::GateCompleted { seat, region } => t("gate_completed")
                .arg("seat", *seat)
                .arg("region", region_text(*region)),
            Event::GateOpened { seat, region, disc } => t("gate_opened")
                .arg("seat", *seat)
                .arg("region", region_text(*region))
                .arg("disc", i64::from(*disc)),
            Event::ScrollRevealed { slot, scroll } => t("scroll_revealed")
                .arg("slot", i64::from(*slot))
                .arg("scroll", scroll_text(*scroll))
                .arg("effect", view::scroll_effect_text(*scroll)),
            Event::RegionScored { region, entries } => {
                if entries.is_empty() {
                    t("region_empty").arg("region", region_text(*region))
                } else {
                    let list: Vec<Text> = entries
                        .iter()
                        .map(|e| {
                            let who = match e.owner.seat() {
                                Some(s) => seat_text(s),
                                None => owner_text(Owner::Neutral),
                            };
                            Text::new("gates.event.rank_entry")
                                .arg("who", who)
                                .arg("count", i64::from(e.count))
                                .arg("rank", i64::from(e.rank))
                                .arg("points", e.points)
                        })
                        .collect();
                    t("region_scored")
                        .arg("region", region_text(*region))
                        .arg("entries", list)
                }
            }
            Event::InvestigatorsReturned { region, counts } => {
                let n: i64 = counts.iter().map(|(_, c)| i64::from(*c)).sum();
                t("returned")
                    .arg("region", region_text(*region))
                    .arg("count", n)
            }
            Event::NeutralsRemoved { region, count } => t("neutrals_removed")
                .arg("region", region_text(*region))
                .arg("count", i64::from(*count)),
            Event::GateLeftUnopened { seat, region } => t("gate_unopened")
                .arg("seat", *seat)
                .arg("region", region_text(*region)),
            Event::CardsDrawn { seat, count } => t("cards_drawn")
                .arg("seat", *seat)
                .arg("count", i64::from(*count)),
            Event::CardDiscarded { seat, card: c } => {
                t("card_discarded").arg("seat", *seat).arg("card", card(*c))
            }
            Event::CardToDiscard { seat, card: c } => t("card_to_discard")
                .arg("seat", *seat)
                .arg("card", card(*c)),
            Event::DeckReshuffled { count } => t("deck_reshuffled").arg("count", i64::from(*count)),
            Event::TurnEnded { seat } => t("turn_ended").arg("seat", *seat),
            Event::RoundEnded { round } => t("round_ended").arg("round", i64::from(*round)),
            Event::GameEnded { reason } => t(&format!("ended_{}", reason.code())),
            Event::FinalScores { scores, winners } => {
                let list: Vec<Text> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        Text::new("gates.event.final_entry")
                            .arg("seat", Seat::at(i))
                            .arg("total", f.total)
                            .arg("in_game", f.in_game)
                            .arg("investigators", f.investigators)
                            .arg("scrolls", f.artisan + f.recruiter + f.keeper)
                            .arg("runes", f.runes)
                            .arg("pages", f.pages)
                            .arg("blueprints", f.blueprints)
                    })
                    .collect();
                let w: Vec<Text> = winners.iter().map(|s| seat_text(*s)).collect();
                t("final_scores")
                    .arg("scores", list)
                    .arg("count", w.len() as i64)
                    .arg("winners", w)
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.running_scores()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// Playing and swapping name the cards of the hand (spec section 9).
    fn secrecy(&self) -> Secrecy {
        if matches!(self.ask(), Some(Ask::PlayCard | Ask::SwapDiscard)) {
            Secrecy::Hand
        } else {
            Secrecy::Public
        }
    }

    fn line_epoch(&self) -> u64 {
        u64::from(self.round)
    }

    fn setup_events(&self) -> Vec<Event> {
        Gates::setup_events(self)
    }

    /// Filing and the neutral convert changed in issue 25: a stored game keeps the rules
    /// (and card halves) it was played with. Setup uses neither.
    fn keep_rules_of(&mut self, stored: &Gates) {
        self.opts.file_always = stored.opts.file_always;
        self.opts.neutral_remove = stored.opts.neutral_remove;
    }
}

impl Present for Gates {
    super::present_via_modules!(public, private);

    /// The final scoring's parts (spec section 8) and what ended the game.
    fn result_details(&self) -> ResultDetails {
        let Some(ending) = &self.ending else {
            return ResultDetails::default();
        };
        let part = |key: &str, points: i64| ScorePart {
            label: Text::new(format!("gates.result.{key}")),
            points,
        };
        let parts = ending
            .scores
            .iter()
            .map(|f| {
                vec![
                    part("in_game", f.in_game),
                    part("board", f.investigators),
                    part("scrolls", f.artisan + f.recruiter + f.keeper),
                    part("runes", f.runes),
                    part("pages", f.pages),
                    part("blueprints", f.blueprints),
                ]
                .into_iter()
                .filter(|p| p.points != 0)
                .collect()
            })
            .collect();
        ResultDetails {
            how: Some(Text::new(format!(
                "gates.event.ended_{}",
                ending.reason.code()
            ))),
            parts,
        }
    }
}

impl BotHooks for Gates {
    fn imagine(
        public: &view::PublicView,
        private: Option<&view::PrivateView>,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<Self> {
        ai::imagine(public, private, seat, rng)
    }

    fn expert_option(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        self.expert(effort, rng)
    }

    fn estimate(&self) -> Vec<f64> {
        self.bot_estimate()
    }
}
