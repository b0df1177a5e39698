//! The rules: setup, prompts and their options, checks, execution (events), gate openings and
//! final scoring. Every `play` checks first and mutates only after every check passed.

mod checks;
mod effects;
mod opening;
mod scoring;
mod turn;

pub use scoring::{blueprint_points, final_scores, page_points, rank_region, rune_points, winners};

use crate::engine::rng::SliceDraw;

use super::components::{data, CardId, Data, Effect, Region, Scroll};
use super::moves::{Action, Desperate, Event, PointsReason, RankEntry, Source};
use super::state::{
    EndReason, Ending, FinalScore, Gate, GateState, Gates, Mode, Opts, Owner, Player, ScrollSlot,
    Step, TurnState, OWNERS,
};
use crate::engine::{rng_from_seed, Applied, Forced, Outcome, Seat};

crate::engine::notation::rule_errors! {
    /// Why a decision is not legal here. Each names the rule that forbids it.
    pub enum RuleError in "gates.error" {
        GameOver = core "game_over": "the game is over",
        NotYourTurn = core "not_your_turn": "it is not your turn",
        WrongPrompt = "wrong_prompt": "that choice is not asked for right now",
        MustPlayTwo = "must_play_two": "you must play two cards before ending your turn",
        ModeFirst = "mode_first": "the first player must set the sanity disc first",
        CardNotInHand = core "not_in_hand": "that card is not in your hand",
        NoSuchCard = "no_such_card": "there is no such card",
        DespairNotNow = "despair_not_now": "desperate actions are not possible at this step",
        NotEnoughDespair = "not_enough_despair": "not enough despair tokens",
        NoCardsToDraw = "no_cards_to_draw": "the action deck and the discard pile are both empty",
        GateDeckEmpty = "gate_deck_empty": "the gate deck is empty",
        SlotEmpty = "slot_empty": "that pool slot is empty",
        SupplyNotEmpty = "supply_not_empty": "your supply still has investigators: send from it",
        SupplyEmpty = "supply_empty": "your supply is empty: move an investigator or skip",
        NoInvestigatorThere = "no_investigator_there": "you have no investigator in that region",
        SameRegion = "same_region": "pick a different region",
        OwnInvestigator = "own_investigator": "you cannot convert your own investigators",
        NoSuchColour = "no_such_colour": "that colour is not in this game",
        NoTargetThere = "no_target_there": "that colour has no investigator in that region",
        NothingToSwap = "nothing_to_swap": "with an empty supply you need one of yours in another region to swap",
        CannotSkip = "cannot_skip": "only an optional bonus or an empty-supply send can be skipped",
        NotPending = "not_pending": "no completed gate of that region is waiting to open",
    }
}

/// The pending prompt kind, derived from the state (spec section 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    ChooseMode,
    PlayCard,
    SendPlace,
    SendMoveFrom,
    SendMoveTo,
    ConvertTarget,
    ConvertSwapWith,
    TakeGateCard,
    ChooseOpen,
    SwapDiscard,
    EndTurn,
}

impl Ask {
    pub fn kind(self) -> &'static str {
        match self {
            Ask::ChooseMode => "choose_mode",
            Ask::PlayCard => "play_card",
            Ask::SendPlace => "send_place",
            Ask::SendMoveFrom => "send_move_from",
            Ask::SendMoveTo => "send_move_to",
            Ask::ConvertTarget => "convert_target",
            Ask::ConvertSwapWith => "convert_swap_with",
            Ask::TakeGateCard => "take_gate_card",
            Ask::ChooseOpen => "choose_open",
            Ask::SwapDiscard => "swap_discard",
            Ask::EndTurn => "end_turn",
        }
    }

    /// Prompts where the desperate actions are offered (+D).
    pub fn allows_despair(self) -> bool {
        !matches!(self, Ask::ChooseMode | Ask::SwapDiscard | Ask::ChooseOpen)
    }
}

/// Data-file access for a live state.
pub fn d() -> &'static Data {
    // `setup` refuses to build a game when a data file is broken, so a live state always has
    // its data.
    match data() {
        Ok(d) => d,
        Err(e) => unreachable!("gates data checked at setup: {e}"),
    }
}

impl Player {
    /// Page numbers in the journal, sorted.
    pub fn pages(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .filed
            .iter()
            .filter_map(|&c| match d().card(c).sane {
                Effect::Page { page } => Some(page),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// Fragment counts NW NE SW SE.
    pub fn fragments(&self) -> [usize; 4] {
        let mut q = [0; 4];
        for &c in &self.filed {
            if let Effect::Blueprint { quadrant } = d().card(c).sane {
                q[quadrant.index()] += 1;
            }
        }
        q
    }

    pub fn runes(&self) -> usize {
        self.filed
            .iter()
            .filter(|&&c| d().card(c).insane == Effect::Rune)
            .count()
    }

    /// Gates that are not opened (R22).
    pub fn incomplete_gates(&self) -> usize {
        self.gates
            .iter()
            .filter(|g| !matches!(g.state, GateState::Opened { .. }))
            .count()
    }
}

impl Gates {
    /// What half `half` of `card` does in this game (its card set follows the filing rule).
    pub fn card_effect(&self, card: CardId, half: Mode) -> Effect {
        d().card(card).half(half, self.opts.file_always)
    }

    pub fn new(seats: usize, opts: Opts, first: Option<Seat>, seed: u64) -> Gates {
        let data = d();
        let n = u8::try_from(seats).unwrap_or(2);
        let duel = seats == 2;
        let mut rng = rng_from_seed(seed);
        // Spec section 5, in this exact order.
        let first = match first {
            Some(f) => f,
            None => Seat(rng.gen_range(0..n)),
        };
        let mut deck: Vec<CardId> = (0..80).map(CardId).collect();
        deck.shuffle(&mut rng);
        let mut gate_deck: Vec<Region> = data
            .regions
            .iter()
            .flat_map(|r| std::iter::repeat_n(r.region, usize::from(r.deck_count)))
            .collect();
        gate_deck.shuffle(&mut rng);
        let mut pool = [None; 4];
        for slot in &mut pool {
            *slot = Some(gate_deck.remove(0));
        }
        let discs: Vec<u8> = data
            .discs
            .iter()
            .filter(|x| !duel || x.in_duel)
            .map(|x| x.value)
            .collect();
        let mut scrolls = Scroll::ALL.to_vec();
        scrolls.shuffle(&mut rng);
        let k = usize::from(if duel {
            data.numbers.scroll_slots.duel
        } else {
            data.numbers.scroll_slots.standard
        });
        let out_scrolls = scrolls.split_off(k.min(scrolls.len()));
        let slots = scrolls
            .into_iter()
            .map(|scroll| ScrollSlot {
                scroll,
                revealed: false,
            })
            .collect();
        let mut board = [[0u8; OWNERS]; 5];
        if duel {
            for r in &data.regions {
                board[r.region.index()][Owner::Neutral.index()] = r.neutrals_duel;
            }
        }
        let players = (0..seats)
            .map(|_| {
                let hand: Vec<CardId> = deck.drain(..5).collect();
                Player {
                    hand,
                    last_drawn: Vec::new(),
                    filed: Vec::new(),
                    gates: Vec::new(),
                    despair: 0,
                    supply: data.numbers.investigators_per_player,
                    score: 0,
                    turns_started: 0,
                }
            })
            .collect();
        Gates {
            seats: n,
            duel,
            opts,
            rng,
            round: 1,
            first,
            active: first,
            mode: None,
            deck,
            discard: Vec::new(),
            gate_deck,
            pool,
            discs,
            scrolls: slots,
            out_scrolls,
            despair_supply: data.numbers.despair_supply,
            board,
            players,
            turn: TurnState::new(),
            last_scored: Vec::new(),
            ending: None,
            outcome: None,
        }
    }

    /// The event of the setup's round start (spec section 5, step 11).
    pub fn setup_events(&self) -> Vec<Event> {
        vec![Event::RoundStarted {
            round: self.round,
            first: self.first,
        }]
    }

    /// The pending prompt, `None` when over.
    pub fn ask(&self) -> Option<Ask> {
        if self.outcome.is_some() {
            return None;
        }
        if self.turn.swap_discards_left > 0 {
            return Some(Ask::SwapDiscard);
        }
        if self.mode.is_none() {
            return Some(Ask::ChooseMode);
        }
        let p = self.player(self.active);
        Some(match self.turn.step {
            Step::Idle => {
                if self.turn.cards_played < 2 && !p.hand.is_empty() {
                    Ask::PlayCard
                } else {
                    Ask::EndTurn
                }
            }
            Step::Send { .. } => {
                if p.supply > 0 {
                    Ask::SendPlace
                } else {
                    Ask::SendMoveFrom
                }
            }
            Step::SendMoveTo { .. } => Ask::SendMoveTo,
            Step::Convert => Ask::ConvertTarget,
            Step::ConvertSwap { .. } => Ask::ConvertSwapWith,
            Step::Build { .. } => Ask::TakeGateCard,
            Step::ChooseOpen => Ask::ChooseOpen,
        })
    }

    /// Applies one option: checks, then executes. The single-option prompts that follow
    /// (spec section 6.8) are the engine's to take (`forced_option`, `play_forced`).
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        self.check(seat, action)?;
        // The highlight shows only the towns scored by this option and the forced ones after
        // it (`play_forced` keeps it).
        self.last_scored.clear();
        let mut events = Vec::new();
        let barrier = self.exec(*action, &mut events);
        let revealed = events.iter().any(Event::reveals);
        Ok(Applied::new(events, barrier, revealed))
    }

    /// The only option of the pending prompt, which nobody is asked (spec section 6.8), and
    /// for whom; except ending the turn when `confirm_end` says the player ends it.
    pub fn forced_option(&self) -> Option<(Seat, Action)> {
        let ask = self.ask()?;
        if ask == Ask::EndTurn && self.opts.confirm_end {
            return None;
        }
        match self.options(ask)[..] {
            [only] => Some((self.active, only)),
            _ => None,
        }
    }

    /// Takes a forced option: an `Auto` event (who, what) before its own events, and the
    /// highlight of the option it follows kept.
    pub fn play_forced(&mut self, forced: &Forced<Action>) -> Applied<Event> {
        let mut events = vec![Event::Auto {
            seat: forced.seat,
            notation: super::notation::notation(&forced.action),
        }];
        let barrier = self.exec(forced.action, &mut events);
        let revealed = events.iter().any(Event::reveals);
        Applied::new(events, barrier, revealed)
    }
}
