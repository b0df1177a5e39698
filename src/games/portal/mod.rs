//! Portal: The Uncooperative Cake Acquisition Game. 2 to 4 players move test subjects through a
//! Lab of 15 hexagonal chambers on 3 floors that drifts like a conveyor: each turn one chamber
//! of the right-hand **old edge** is activated (the strict majority there earns its printed
//! rewards: subjects, cake, cards, the Turret or the Companion Cube, delivered at the left-hand
//! **new edge**), then recycled (its subjects die, its cake burns, the panel flips and joins a
//! new edge). Cards are played for a one-shot Aperture action or fire the Portal Gun; the top
//! of the discard pile is the Character that bends one rule for everybody. The game ends when a
//! seat has no subject left in the Lab or 8 incinerated slices; most cake in the Lab wins.
//! Full rules: `shared/games/portal.md`.
//!
//! Notation (spec section 10): `play fact`, `gun bird`, `done`, `move m3`, `count 2`, `to m1`,
//! the shorthand `move m3 2 m1`, `carry red`, `bonus top`, `activate mid`, `subject top`,
//! `cake mid`, `card`, `cube m5`, `turret stay`, `recycle bot`, `portal t10`, `kill m9`, ...
//!
//! Example turn (the rulebook's, spec S1):
//! `done; move m3 2 m1; activate mid; subject top; subject mid; cake top; recycle bot`.

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
    resolve_options, rng_from_seed, Applied, BotHooks, Forced, Game, GameKind, GameOptions,
    GameRng, OptionSpec, Outcome, Present, Prompt, Reject, ResultDetails, Reveal, ScorePart, Seat,
    Secrecy, SetupError,
};
use crate::i18n::Text;
use components::data;
use moves::{Action, Ev, Event, Icon};
use rules::Log;
use state::{
    Card, Ch, Chamber, Face, Floor, MoveMode, Opts, SeatState, Step, TurnState, MAX_SEATS,
};

pub use rules::RuleError;
pub use state::Portal;

/// Values listed for `max_rounds` (any of 0 and 10-99 is accepted when typed).
const MAX_ROUNDS: [&str; 2] = ["30", "0"];
const COLOURS: [&str; 4] = ["blue", "red", "yellow", "green"];

fn icons_str(icons: &[Icon]) -> String {
    icons
        .iter()
        .map(|i| i.code().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn card_text(c: Card) -> Text {
    Text::new(format!("portal.card.{}.name", c.slug()))
}

fn floor_text(f: Floor) -> Text {
    Text::new(format!("portal.floor.{}", f.name()))
}

impl Portal {
    fn colour_text(&self, s: Seat) -> Text {
        Text::new(format!("portal.colour.{}", self.colour_name(s)))
    }

    fn team(&self, s: Seat) -> Text {
        Text::new("portal.team")
            .arg("seat", s)
            .arg("colour", self.colour_text(s))
    }

    /// Reads the options (spec section 2). `colours` and `max_rounds` accept more than the
    /// listed values, so they are checked here before the generic check of the others.
    fn read_options(options: &GameOptions, seats: usize) -> Result<(Opts, Vec<u8>), SetupError> {
        let mut rest = options.clone();
        let colours_raw = rest
            .remove("colours")
            .unwrap_or_else(|| COLOURS.join(","))
            .to_ascii_lowercase();
        let rounds_raw = rest
            .remove("max_rounds")
            .unwrap_or_else(|| "30".into())
            .trim()
            .to_string();
        let specs: Vec<OptionSpec> = Self::option_specs()
            .into_iter()
            .filter(|s| s.key != "colours" && s.key != "max_rounds")
            .collect();
        let opts = resolve_options(&specs, &rest).map_err(|e| match e {
            SetupError::UnknownOption { key, .. } => SetupError::UnknownOption {
                key,
                known: Self::option_specs()
                    .iter()
                    .map(|s| s.key.to_string())
                    .collect(),
            },
            other => other,
        })?;
        let get = |k: &str| opts.get(k).map_or("", String::as_str);
        let colours: Vec<u8> = colours_raw
            .split(',')
            .map(str::trim)
            .filter_map(|c| COLOURS.iter().position(|k| *k == c))
            .filter_map(|i| u8::try_from(i).ok())
            .collect();
        let mut distinct = colours.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if colours.len() < seats
            || distinct.len() != colours.len()
            || colours_raw.split(',').count() != colours.len()
        {
            return Err(SetupError::BadValue {
                key: "colours".into(),
                value: colours_raw,
                allowed: vec!["a comma-separated seat order over blue, red, yellow, green".into()],
            });
        }
        let max_rounds = rounds_raw
            .parse::<u16>()
            .ok()
            .filter(|&r| r == 0 || (10..=99).contains(&r))
            .ok_or_else(|| SetupError::BadValue {
                key: "max_rounds".into(),
                value: rounds_raw.clone(),
                allowed: vec!["0".into(), "10-99".into()],
            })?;
        Ok((
            Opts {
                characters: get("characters") == "on",
                hidden_hands: get("hands") == "hidden",
                show_backs: get("show_backs") == "true",
                split_final: get("split_rule") == "final",
                turret_portals: get("turret_portals") == "true",
                vote: get("final_tie") == "vote",
                max_rounds,
                host_first: get("first_player") == "host",
            },
            colours,
        ))
    }

    /// Builds the state of spec section 5 (without starting the first turn).
    pub(crate) fn build(opts: Opts, colours: &[u8], seats: usize, seed: u64) -> Portal {
        let d = components::shipped();
        let mut rng = rng_from_seed(seed);
        let mut panels: Vec<u8> = (0..u8::try_from(d.panels.len()).unwrap_or(18)).collect();
        for i in (1..panels.len()).rev() {
            let j = rng.gen_range(0..=i);
            panels.swap(i, j);
        }
        let faces: Vec<Face> = panels
            .iter()
            .map(|_| if rng.gen_bool(0.5) { Face::A } else { Face::B })
            .collect();
        let width = usize::from(d.floor_width);
        let mut floors: [Vec<Chamber>; 3] = Default::default();
        for (k, f) in Floor::ALL.into_iter().enumerate() {
            let top_c = u16::from(d.floor_width) * 2 - u16::from(f == Floor::Mid);
            for i in 0..width {
                let idx = k * width + i;
                floors[f.index()].push(Chamber {
                    c: top_c - 2 * u16::try_from(i).unwrap_or(0),
                    panel: panels[idx],
                    face: faces[idx],
                    subj: [0; MAX_SEATS],
                    cake: [0; MAX_SEATS],
                });
            }
        }
        let set_aside = panels
            .iter()
            .zip(&faces)
            .skip(3 * width)
            .map(|(&p, &f)| (p, f))
            .collect();
        let mut deck: Vec<Card> = Card::ALL.to_vec();
        for i in (1..deck.len()).rev() {
            let j = rng.gen_range(0..=i);
            deck.swap(i, j);
        }
        let mut seat_states = Vec::new();
        for s in 0..seats {
            seat_states.push(SeatState {
                colour: colours.get(s).copied().unwrap_or(0),
                subject_supply: d.subjects,
                cake_supply: d.cake,
                incinerated: 0,
                hand: Vec::new(),
            });
        }
        let mut game = Portal {
            rng,
            opts,
            seats: seat_states,
            first: Seat(0),
            round: 1,
            active: Seat(0),
            floors,
            portals: [Ch::new(Floor::Top, 2), Ch::new(Floor::Bot, 2)],
            turret: None,
            cube: None,
            set_aside,
            deck,
            discard: Vec::new(),
            turn: TurnState::default(),
            lifted: None,
            agenda: Vec::new(),
            autos: Vec::new(),
            vote: None,
            ended: None,
            outcome: None,
            touched: Vec::new(),
            last_move: None,
            setup_log: Vec::new(),
        };
        game.portals = [
            game.old_edge(Floor::Top).unwrap_or(Ch::new(Floor::Top, 2)),
            game.old_edge(Floor::Bot).unwrap_or(Ch::new(Floor::Bot, 2)),
        ];
        for (k, f) in Floor::ALL.into_iter().enumerate() {
            let Some(ch) = game.new_edge(f) else { continue };
            for s in 0..seats {
                let n = d.start[k];
                if let Some(x) = game.chamber_mut(ch) {
                    x.subj[s] += n;
                }
                game.seats[s].subject_supply -= n;
            }
        }
        let n = u8::try_from(seats).unwrap_or(2);
        game.first = if game.opts.host_first {
            Seat(0)
        } else {
            Seat(game.rng.gen_range(0..n))
        };
        game.active = game.first;
        game
    }

    /// Starts the first turn. What it does is reported with the first board like any step
    /// (issue 25: it was dropped).
    pub(crate) fn start(&mut self) {
        self.agenda = vec![Step::TurnStart];
        let mut log = Log::default();
        self.run(&mut log);
        self.setup_log = log.events;
    }

    pub(crate) fn prompt_text_for(&self, step: &Step) -> Text {
        let t = |k: &str| Text::new(format!("portal.prompt.{k}"));
        match step {
            Step::MoveDest { from, count, .. } => t("move_dest")
                .arg("from", from.to_string())
                .arg("count", *count),
            Step::Carry {
                from,
                to,
                count,
                picked,
                ..
            } => t("carry")
                .arg("from", from.to_string())
                .arg("to", to.to_string())
                .arg("count", *count)
                .arg("picked", picked.len()),
            Step::Reward => t("reward").arg("icons", icons_str(&self.turn.pending)),
            Step::Deliver { piece, .. } => t(match piece {
                state::Piece::Subject => "deliver_subject",
                state::Piece::Cake => "deliver_cake",
            }),
            Step::PortalPlace { first, .. } => match first {
                None => t("portal_first"),
                Some(c) => t("portal_second").arg("first", c.to_string()),
            },
            Step::MoveCount { from, .. } => t("move_count").arg("from", from.to_string()),
            Step::RecycleFloor => t("recycle_floor").arg(
                "face",
                self.lifted.as_ref().map_or(String::new(), |l| {
                    icons_str(self.data().panels[usize::from(l.chamber.panel)].face(l.chamber.face))
                }),
            ),
            Step::MoveSource(MoveMode::Atlas { left }) => {
                t("atlas_from").arg("left", u32::from(*left) + 1)
            }
            s => t(s.kind()),
        }
    }
}

impl Game for Portal {
    type Action = Action;
    type Event = Event;
    type Error = RuleError;

    const KIND: GameKind = GameKind::Portal;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 2;
    const MAX_SEATS: usize = 4;
    const LOWER_SCORE_WINS: bool = false;

    fn option_specs() -> Vec<OptionSpec> {
        let o = |key, values: Vec<&'static str>, default| OptionSpec {
            key,
            default,
            values,
            help: match key {
                "colours" => "portal.option.colours",
                "first_player" => "portal.option.first_player",
                "characters" => "portal.option.characters",
                "hands" => "portal.option.hands",
                "show_backs" => "portal.option.show_backs",
                "split_rule" => "portal.option.split_rule",
                "turret_portals" => "portal.option.turret_portals",
                "final_tie" => "portal.option.final_tie",
                "max_rounds" => "portal.option.max_rounds",
                "panel_set" => "portal.option.panel_set",
                _ => "portal.option.card_set",
            },
        };
        vec![
            o(
                "colours",
                vec!["blue,red,yellow,green"],
                "blue,red,yellow,green",
            ),
            o("first_player", vec!["random", "host"], "random"),
            o("characters", vec!["on", "off"], "on"),
            o("hands", vec!["hidden", "open"], "hidden"),
            o("show_backs", vec!["false", "true"], "false"),
            o("split_rule", vec!["removal", "final"], "removal"),
            o("turret_portals", vec!["false", "true"], "false"),
            o("final_tie", vec!["shared", "vote"], "shared"),
            o("max_rounds", MAX_ROUNDS.to_vec(), "30"),
            o("panel_set", vec!["house-v1"], "house-v1"),
            o("card_set", vec!["house-v1"], "house-v1"),
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
        let (opts, colours) = Self::read_options(options, seats)?;
        let mut game = Self::build(opts, &colours, seats, seed);
        game.start();
        Ok(game)
    }

    fn seat_count(&self) -> usize {
        self.n()
    }

    fn prompt(&self) -> Option<Prompt<Action>> {
        let step = self.current()?;
        Some(Prompt {
            seat: self.step_seat(step),
            kind: step.kind(),
            text: self.prompt_text_for(step),
            options: self.options(step),
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
        notation::notation(self, action)
    }

    fn parse(&self, seat: Seat, segment: &str) -> Result<Vec<Action>, Reject<RuleError>> {
        notation::parse(self, seat, segment)
    }

    fn notation_forms() -> Vec<&'static str> {
        notation::FORMS.to_vec()
    }

    fn event_text(&self, event: &Event) -> Text {
        self.ev_text(&event.ev)
    }

    fn scores(&self) -> Vec<i64> {
        self.seat_ids()
            .map(|s| i64::from(self.cake_in_lab(s)))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// With hidden hands, options that name a card of the hand (play, gun, trade, discard)
    /// are offered to the deciding seat alone. A ballot of the final vote is secret until
    /// the game is over (spec 8: the public sees who has voted; the last ballot ends the game
    /// with the tally).
    fn secrecy(&self) -> Secrecy {
        let Some(step) = self.current() else {
            return Secrecy::Public;
        };
        let options = self.options(step);
        if options.iter().any(|a| matches!(a, Action::Vote(_))) {
            Secrecy::Sealed(Reveal::GameEnd)
        } else if self.opts.hidden_hands
            && options.iter().any(|a| {
                matches!(
                    a,
                    Action::Play(_) | Action::Gun(_) | Action::Trade(_) | Action::Discard(_)
                )
            })
        {
            Secrecy::Hand
        } else {
            Secrecy::Public
        }
    }

    /// Only the playouts' cheap habits: every real decision is searched.
    fn setup_events(&self) -> Vec<Event> {
        self.setup_log.clone()
    }
}

impl Present for Portal {
    super::present_via_modules!(public, private);

    /// Cake in the Lab decides, then subjects in the Lab (spec section 8); and why it ended.
    fn result_details(&self) -> ResultDetails {
        let parts = self
            .seat_ids()
            .map(|s| {
                vec![
                    ScorePart {
                        label: Text::new("portal.result.cake"),
                        points: i64::from(self.cake_in_lab(s)),
                    },
                    ScorePart {
                        label: Text::new("portal.result.subjects"),
                        points: i64::from(self.subjects_in_lab(s)),
                    },
                ]
            })
            .collect();
        ResultDetails {
            how: Some(self.end_text(self.ended.unwrap_or(state::EndReason::RoundLimit))),
            parts,
        }
    }
}

impl BotHooks for Portal {
    fn imagine(
        public: &view::PublicView,
        private: Option<&view::PrivateView>,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<Self> {
        Portal::imagine_from(public, private, seat, rng)
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

impl Portal {
    /// The log line of an event (spec 6.11). Hidden hands: a taken card is not named.
    pub fn ev_text(&self, ev: &Ev) -> Text {
        let t = |k: &str| Text::new(format!("portal.event.{k}"));
        let ch = |c: &Ch| c.to_string();
        match ev {
            Ev::TurnStarted { seat, round } => t("turn_started")
                .arg("team", self.team(*seat))
                .arg("round", u32::from(*round)),
            Ev::HandDiscarded { seat, card } => t("hand_discarded")
                .arg("team", self.team(*seat))
                .arg("card", card_text(*card)),
            Ev::CardDeployed { seat, card, mode } => t(match mode {
                moves::DeployMode::Action => "card_played",
                moves::DeployMode::Gun => "card_gun",
            })
            .arg("team", self.team(*seat))
            .arg("card", card_text(*card)),
            Ev::CardTraded { seat, card } => t("card_traded")
                .arg("team", self.team(*seat))
                .arg("card", card_text(*card)),
            Ev::CharacterChanged { card } => match card {
                Some(c) => t("character_changed").arg("card", card_text(*c)),
                None => t("character_none"),
            },
            Ev::NoEffect { card } => t("no_effect").arg("card", card_text(*card)),
            Ev::CardTaken { seat, card } => {
                if self.opts.hidden_hands {
                    t("card_taken_hidden").arg("team", self.team(*seat))
                } else {
                    t("card_taken")
                        .arg("team", self.team(*seat))
                        .arg("card", card_text(*card))
                }
            }
            Ev::DeckTopRevealed { card } => match card {
                Some(c) => t("deck_top").arg("card", card_text(*c)),
                None => t("deck_empty"),
            },
            Ev::DeckReshuffled { count } => t("deck_reshuffled").arg("count", *count),
            Ev::CardGainLost { seat, reason } => {
                t("card_gain_lost").arg("team", self.team(*seat)).arg(
                    "reason",
                    Text::new(format!("portal.lost.{}", lost_key(*reason))),
                )
            }
            Ev::PortalsPlaced { a, b } => t("portals_placed").arg("a", ch(a)).arg("b", ch(b)),
            Ev::SubjectsMoved {
                owner,
                from,
                to,
                count,
                carried,
            } => {
                let base = if carried.is_empty() {
                    t("subjects_moved")
                } else {
                    let cake: Vec<Text> = carried.iter().map(|&c| self.colour_text(c)).collect();
                    t("subjects_moved_cake").arg("cake", cake)
                };
                base.arg("team", self.team(*owner))
                    .arg("from", ch(from))
                    .arg("to", ch(to))
                    .arg("count", *count)
            }
            Ev::SubjectsDestroyed {
                chamber,
                owner,
                count,
                cause,
            } => t("subjects_destroyed")
                .arg("team", self.team(*owner))
                .arg("count", *count)
                .arg("chamber", ch(chamber))
                .arg(
                    "cause",
                    match cause {
                        moves::Death::Recycle => t("cause_recycle"),
                        moves::Death::Turret => t("cause_turret"),
                        moves::Death::Finale => t("cause_finale"),
                        moves::Death::Card(c) => t("cause_card").arg("card", card_text(*c)),
                    },
                ),
            Ev::SubjectDelivered { owner, chamber, .. } => t("subject_delivered")
                .arg("team", self.team(*owner))
                .arg("chamber", ch(chamber)),
            Ev::CakeDelivered { owner, chamber, .. } => t("cake_delivered")
                .arg("team", self.team(*owner))
                .arg("chamber", ch(chamber)),
            Ev::CakeMoved {
                colour, from, to, ..
            } => t("cake_moved")
                .arg("colour", self.colour_text(*colour))
                .arg("from", ch(from))
                .arg("to", ch(to)),
            Ev::CakeIncinerated {
                colour,
                chamber,
                count,
                ..
            } => t("cake_incinerated")
                .arg("colour", self.colour_text(*colour))
                .arg("count", *count)
                .arg("chamber", ch(chamber)),
            Ev::CakeReturned {
                colour,
                chamber,
                count,
            } => t("cake_returned")
                .arg("colour", self.colour_text(*colour))
                .arg("count", *count)
                .arg("chamber", ch(chamber)),
            Ev::MoveSkipped { seat, reason } => t(match reason {
                moves::SkipReason::NoLegalMove => "move_skipped",
                moves::SkipReason::Passed => "move_passed",
            })
            .arg("team", self.team(*seat)),
            Ev::BonusLost { seat } => t("bonus_lost").arg("team", self.team(*seat)),
            Ev::Activated { seat, chamber } => t("activated")
                .arg("team", self.team(*seat))
                .arg("chamber", ch(chamber)),
            Ev::MajorityResolved {
                chamber,
                recipient,
                reason,
                ..
            } => match recipient {
                Some(r) => t("majority")
                    .arg("team", self.team(*r))
                    .arg("chamber", ch(chamber)),
                None => t("no_majority").arg("chamber", ch(chamber)).arg(
                    "reason",
                    Text::new(format!("portal.majority.{}", majority_key(*reason))),
                ),
            },
            Ev::RewardLost { seat, icon, reason } => t("reward_lost")
                .arg("team", self.team(*seat))
                .arg("icon", Text::new(format!("portal.icon.{}", icon.name())))
                .arg(
                    "reason",
                    Text::new(format!("portal.lost.{}", lost_key(*reason))),
                ),
            Ev::TurretPlaced { to } => t("turret_placed").arg("to", ch(to)),
            Ev::TurretMoved { from, to } => {
                t("turret_moved").arg("from", ch(from)).arg("to", ch(to))
            }
            Ev::TurretStayed => t("turret_stayed"),
            Ev::TurretRemoved => t("turret_removed"),
            Ev::CubePlaced { to } => t("cube_placed").arg("to", ch(to)),
            Ev::CubeMoved { from, to } => t("cube_moved").arg("from", ch(from)).arg("to", ch(to)),
            Ev::CubeStayed => t("cube_stayed"),
            Ev::CubeRemoved => t("cube_removed"),
            Ev::PanelFlipped { chamber, face } => t("panel_flipped")
                .arg("chamber", ch(chamber))
                .arg("face", icons_str(face)),
            Ev::ChamberRecycled { from, to, floor } => t("chamber_recycled")
                .arg("from", ch(from))
                .arg("to", ch(to))
                .arg("floor", floor_text(*floor)),
            Ev::ExtraActivationGranted => t("extra_activation"),
            Ev::VoteCast { voter } => t("vote_cast").arg("team", self.team(*voter)),
            Ev::VotesRevealed { tally } => {
                let parts: Vec<Text> = tally
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v > 0)
                    .map(|(i, v)| {
                        t("vote_count")
                            .arg("team", self.team(Seat::at(i)))
                            .arg("votes", *v)
                    })
                    .collect();
                t("votes_revealed").arg("tally", parts)
            }
            Ev::GameEnded {
                reason,
                scores,
                winners,
            } => {
                let w: Vec<Text> = winners.iter().map(|&s| self.team(s)).collect();
                let sc: Vec<Text> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        t("score")
                            .arg("team", self.team(Seat::at(i)))
                            .arg("cake", *s)
                    })
                    .collect();
                t("game_ended")
                    .arg("reason", self.end_text(*reason))
                    .arg("count", w.len() as i64)
                    .arg("winners", w)
                    .arg("scores", sc)
            }
        }
    }

    pub(crate) fn end_text(&self, r: state::EndReason) -> Text {
        let t = |k: &str| Text::new(format!("portal.end.{k}"));
        match r {
            state::EndReason::NoSubjects(s) => t("no_subjects").arg("team", self.team(s)),
            state::EndReason::Incinerated(s) => t("incinerated").arg("team", self.team(s)),
            state::EndReason::Finale(s) => t("finale").arg("team", self.team(s)),
            state::EndReason::RoundLimit => t("round_limit"),
        }
    }
}

pub(crate) fn lost_key(r: moves::LostReason) -> &'static str {
    match r {
        moves::LostReason::NoSupply => "no_supply",
        moves::LostReason::HandFull => "hand_full",
        moves::LostReason::DeckEmpty => "deck_empty",
        moves::LostReason::NoRoom => "no_room",
    }
}

pub(crate) fn majority_key(r: moves::Majority) -> &'static str {
    match r {
        moves::Majority::Majority => "majority",
        moves::Majority::Tie => "tie",
        moves::Majority::Empty => "empty",
        moves::Majority::CubeBlocked => "cube_blocked",
        moves::Majority::ActiveWinsTie => "active_wins_tie",
        moves::Majority::Fewest => "fewest",
    }
}
