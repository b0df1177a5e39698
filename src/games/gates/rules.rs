//! The rules: setup, prompts and their options, checks, execution (events), gate openings and
//! final scoring. Every `play` checks first and mutates only after every check passed.

use crate::engine::rng::SliceDraw;

use super::components::{data, CardId, Data, Effect, Region, Scroll};
use super::moves::{Action, Desperate, Event, PointsReason, RankEntry, Source};
use super::state::{
    EndReason, Ending, FinalScore, Gate, GateState, Gates, Mode, Opts, Owner, Player, ScrollSlot,
    Step, TurnState, OWNERS,
};
use crate::engine::{rng_from_seed, Applied, Outcome, Seat};
use crate::i18n::Text;

/// Why a decision is not legal here. Each names the rule that forbids it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("that choice is not asked for right now")]
    WrongPrompt,
    #[error("you must play two cards before ending your turn")]
    MustPlayTwo,
    #[error("the first player must set the sanity disc first")]
    ModeFirst,
    #[error("that card is not in your hand")]
    CardNotInHand,
    #[error("there is no such card")]
    NoSuchCard,
    #[error("desperate actions are not possible at this step")]
    DespairNotNow,
    #[error("not enough despair tokens")]
    NotEnoughDespair,
    #[error("the action deck and the discard pile are both empty")]
    NoCardsToDraw,
    #[error("the gate deck is empty")]
    GateDeckEmpty,
    #[error("that pool slot is empty")]
    SlotEmpty,
    #[error("your supply still has investigators: send from it")]
    SupplyNotEmpty,
    #[error("your supply is empty: move an investigator or skip")]
    SupplyEmpty,
    #[error("you have no investigator in that region")]
    NoInvestigatorThere,
    #[error("pick a different region")]
    SameRegion,
    #[error("you cannot convert your own investigators")]
    OwnInvestigator,
    #[error("that colour is not in this game")]
    NoSuchColour,
    #[error("that colour has no investigator in that region")]
    NoTargetThere,
    #[error("with an empty supply you need one of yours in another region to swap")]
    NothingToSwap,
    #[error("only an optional bonus or an empty-supply send can be skipped")]
    CannotSkip,
    #[error("no completed gate of that region is waiting to open")]
    NotPending,
}

impl RuleError {
    pub fn key(self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::WrongPrompt => "wrong_prompt",
            RuleError::MustPlayTwo => "must_play_two",
            RuleError::ModeFirst => "mode_first",
            RuleError::CardNotInHand => "card_not_in_hand",
            RuleError::NoSuchCard => "no_such_card",
            RuleError::DespairNotNow => "despair_not_now",
            RuleError::NotEnoughDespair => "not_enough_despair",
            RuleError::NoCardsToDraw => "no_cards_to_draw",
            RuleError::GateDeckEmpty => "gate_deck_empty",
            RuleError::SlotEmpty => "slot_empty",
            RuleError::SupplyNotEmpty => "supply_not_empty",
            RuleError::SupplyEmpty => "supply_empty",
            RuleError::NoInvestigatorThere => "no_investigator_there",
            RuleError::SameRegion => "same_region",
            RuleError::OwnInvestigator => "own_investigator",
            RuleError::NoSuchColour => "no_such_colour",
            RuleError::NoTargetThere => "no_target_there",
            RuleError::NothingToSwap => "nothing_to_swap",
            RuleError::CannotSkip => "cannot_skip",
            RuleError::NotPending => "not_pending",
        }
    }

    pub fn text(self) -> Text {
        Text::new(format!("gates.error.{}", self.key()))
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

/// The dense ranking of a region (R25, R26): owners with >= 1 investigator, ranks 1-3 by
/// distinct counts, neutrals rank but never score. Entries in owner order.
pub fn rank_region(counts: &[u8; OWNERS], values: [i64; 3]) -> Vec<RankEntry> {
    let mut distinct: Vec<u8> = counts.iter().copied().filter(|&c| c > 0).collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    Owner::ALL
        .into_iter()
        .filter(|o| counts[o.index()] > 0)
        .map(|owner| {
            let count = counts[owner.index()];
            let pos = distinct.iter().position(|&c| c == count).unwrap_or(9);
            let rank = if pos < 3 { pos as u8 + 1 } else { 0 };
            let points = if rank > 0 && owner != Owner::Neutral {
                values[pos]
            } else {
                0
            };
            RankEntry {
                owner,
                count,
                rank,
                points,
            }
        })
        .collect()
}

/// Points for `n` runes (R37).
pub fn rune_points(n: usize) -> i64 {
    let t = d().numbers.rune_set_points;
    t[5] * (n / 5) as i64 + t[n % 5]
}

/// Points for a set of page numbers (spec section 8.4).
pub fn page_points(pages: &[u8]) -> i64 {
    let n = &d().numbers;
    pages
        .iter()
        .map(|&p| {
            let run = pages.contains(&(p.wrapping_sub(1))) || pages.contains(&(p + 1));
            if run && p > 0 {
                n.page_run_points
            } else {
                n.page_single_points
            }
        })
        .sum()
}

/// Points for fragment counts per quadrant (spec section 8.5).
pub fn blueprint_points(q: [usize; 4]) -> i64 {
    let n = &d().numbers;
    let sets = q.iter().copied().min().unwrap_or(0);
    let total: usize = q.iter().sum();
    n.blueprint_set_points * sets as i64 + n.blueprint_single_points * (total - 4 * sets) as i64
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

    pub fn new(seats: usize, opts: Opts, first: Option<u8>, seed: u64) -> Gates {
        let data = d();
        let n = u8::try_from(seats).unwrap_or(2);
        let duel = seats == 2;
        let mut rng = rng_from_seed(seed);
        // Spec section 5, in this exact order.
        let first = match first {
            Some(f) => Seat(f),
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

    pub fn cost(&self, action: Desperate) -> u8 {
        let c = d().numbers.desperate;
        let base = match action {
            Desperate::Swap => c.swap,
            Desperate::Refresh => c.refresh,
            Desperate::Flip => c.flip,
            Desperate::Score => self.opts.score3_cost,
        };
        if self.revealed(Scroll::DarkHours) {
            base.saturating_sub(1).max(1)
        } else {
            base
        }
    }

    fn gate_source_exists(&self) -> bool {
        !self.gate_deck.is_empty() || self.pool.iter().any(Option::is_some)
    }

    fn check_despair(&self, action: Desperate) -> Result<(), RuleError> {
        if self.player(self.active).despair < self.cost(action) {
            return Err(RuleError::NotEnoughDespair);
        }
        match action {
            Desperate::Swap if self.deck.is_empty() && self.discard.is_empty() => {
                Err(RuleError::NoCardsToDraw)
            }
            Desperate::Refresh if self.gate_deck.is_empty() => Err(RuleError::GateDeckEmpty),
            _ => Ok(()),
        }
    }

    /// A neutral converted with an empty supply simply leaves the board (the rulebook's
    /// two-player page; `neutral_convert = remove`), with no swap.
    fn neutral_simply_removed(&self, victim: Owner, supply: u8) -> bool {
        victim == Owner::Neutral && supply == 0 && self.opts.neutral_remove
    }

    /// Convert targets (R13-R15), in region then owner order.
    fn convert_targets(&self) -> Vec<(Region, Owner)> {
        let me = Owner::of(self.active);
        let supply = self.player(self.active).supply;
        let mut out = Vec::new();
        for r in Region::ALL {
            for o in Owner::ALL {
                if self.check_convert(r, o, me, supply).is_ok() {
                    out.push((r, o));
                }
            }
        }
        out
    }

    fn check_convert(&self, r: Region, o: Owner, me: Owner, supply: u8) -> Result<(), RuleError> {
        if o == me {
            return Err(RuleError::OwnInvestigator);
        }
        let in_game = match o.seat() {
            Some(s) => s.0 < self.seats,
            None => self.duel,
        };
        if !in_game {
            return Err(RuleError::NoSuchColour);
        }
        if self.count(r, o) == 0 {
            return Err(RuleError::NoTargetThere);
        }
        if supply == 0
            && !self.neutral_simply_removed(o, supply)
            && !Region::ALL
                .into_iter()
                .any(|u| u != r && self.count(u, me) > 0)
        {
            return Err(RuleError::NothingToSwap);
        }
        Ok(())
    }

    /// Every legal option of a prompt, in canonical order.
    pub fn options(&self, ask: Ask) -> Vec<Action> {
        let seat = self.active;
        let p = self.player(seat);
        let me = Owner::of(seat);
        let mut out: Vec<Action> = match ask {
            Ask::ChooseMode => vec![Action::Mode(Mode::Sane), Action::Mode(Mode::Insane)],
            Ask::PlayCard => p.hand.iter().map(|&c| Action::Play(c)).collect(),
            Ask::SwapDiscard => p.hand.iter().map(|&c| Action::Discard(c)).collect(),
            Ask::SendPlace => {
                let mut v: Vec<Action> = Region::ALL.into_iter().map(Action::Send).collect();
                if matches!(self.turn.step, Step::Send { bonus: true, .. }) {
                    v.push(Action::Skip);
                }
                v
            }
            Ask::SendMoveFrom => {
                let mut v: Vec<Action> = Region::ALL
                    .into_iter()
                    .filter(|&r| self.count(r, me) > 0)
                    .map(Action::From)
                    .collect();
                v.push(Action::Skip);
                v
            }
            Ask::SendMoveTo => match self.turn.step {
                Step::SendMoveTo { from, .. } => Region::ALL
                    .into_iter()
                    .filter(|&r| r != from)
                    .map(Action::To)
                    .collect(),
                _ => Vec::new(),
            },
            Ask::ConvertTarget => self
                .convert_targets()
                .into_iter()
                .map(|(r, o)| Action::Convert(r, o))
                .collect(),
            Ask::ConvertSwapWith => match self.turn.step {
                Step::ConvertSwap { region, .. } => Region::ALL
                    .into_iter()
                    .filter(|&u| u != region && self.count(u, me) > 0)
                    .map(Action::With)
                    .collect(),
                _ => Vec::new(),
            },
            Ask::TakeGateCard => {
                let mut v: Vec<Action> = (1..=4u8)
                    .filter(|&k| self.pool[usize::from(k - 1)].is_some())
                    .map(|k| Action::Take(Source::Slot(k)))
                    .collect();
                if !self.gate_deck.is_empty() {
                    v.push(Action::Take(Source::Deck));
                }
                if matches!(self.turn.step, Step::Build { bonus: true, .. }) {
                    v.push(Action::Skip);
                }
                v
            }
            Ask::ChooseOpen => {
                let mut v: Vec<Action> = self
                    .turn
                    .pending
                    .iter()
                    .filter_map(|&i| p.gates.get(i))
                    .map(|g| Action::Open(g.region))
                    .collect();
                v.dedup();
                v
            }
            Ask::EndTurn => vec![Action::End],
        };
        if ask.allows_despair() {
            for a in Desperate::ALL {
                if self.check_despair(a).is_ok() {
                    out.push(Action::Despair(a));
                }
            }
        }
        out
    }

    /// Checks one option against the current prompt, with the rule that refuses it.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<Ask, RuleError> {
        let ask = self.ask().ok_or(RuleError::GameOver)?;
        if seat != self.active {
            return Err(RuleError::NotYourTurn);
        }
        let p = self.player(seat);
        let me = Owner::of(seat);
        let wrong = || {
            if ask == Ask::ChooseMode {
                RuleError::ModeFirst
            } else {
                RuleError::WrongPrompt
            }
        };
        match (*action, ask) {
            (Action::Despair(a), _) => {
                if !ask.allows_despair() {
                    return Err(RuleError::DespairNotNow);
                }
                self.check_despair(a)?;
            }
            (Action::Mode(_), Ask::ChooseMode) => {}
            (Action::Play(c) | Action::Discard(c), _) if usize::from(c.0) >= 80 => {
                return Err(RuleError::NoSuchCard)
            }
            (Action::Play(c), Ask::PlayCard) | (Action::Discard(c), Ask::SwapDiscard) => {
                if !p.hand.contains(&c) {
                    return Err(RuleError::CardNotInHand);
                }
            }
            (Action::Send(_), Ask::SendPlace) => {}
            (Action::Send(_), Ask::SendMoveFrom) => return Err(RuleError::SupplyEmpty),
            (Action::From(_), Ask::SendPlace) => return Err(RuleError::SupplyNotEmpty),
            (Action::From(r), Ask::SendMoveFrom) => {
                if self.count(r, me) == 0 {
                    return Err(RuleError::NoInvestigatorThere);
                }
            }
            (Action::To(r), Ask::SendMoveTo) => {
                if matches!(self.turn.step, Step::SendMoveTo { from, .. } if from == r) {
                    return Err(RuleError::SameRegion);
                }
            }
            (Action::Convert(r, o), Ask::ConvertTarget) => {
                self.check_convert(r, o, me, p.supply)?;
            }
            (Action::With(u), Ask::ConvertSwapWith) => {
                if matches!(self.turn.step, Step::ConvertSwap { region, .. } if region == u) {
                    return Err(RuleError::SameRegion);
                }
                if self.count(u, me) == 0 {
                    return Err(RuleError::NoInvestigatorThere);
                }
            }
            (Action::Take(Source::Slot(k)), Ask::TakeGateCard) => {
                let slot = usize::from(k).wrapping_sub(1);
                if self.pool.get(slot).copied().flatten().is_none() {
                    return Err(RuleError::SlotEmpty);
                }
            }
            (Action::Take(Source::Deck), Ask::TakeGateCard) => {
                if self.gate_deck.is_empty() {
                    return Err(RuleError::GateDeckEmpty);
                }
            }
            (Action::Open(r), Ask::ChooseOpen) => {
                if !self
                    .turn
                    .pending
                    .iter()
                    .any(|&i| p.gates.get(i).is_some_and(|g| g.region == r))
                {
                    return Err(RuleError::NotPending);
                }
            }
            (Action::Skip, Ask::SendMoveFrom) => {}
            (Action::Skip, Ask::SendPlace | Ask::TakeGateCard) => {
                let bonus = matches!(
                    self.turn.step,
                    Step::Send { bonus: true, .. } | Step::Build { bonus: true, .. }
                );
                if !bonus {
                    return Err(RuleError::CannotSkip);
                }
            }
            (Action::Skip, _) => return Err(RuleError::CannotSkip),
            (Action::End, Ask::EndTurn) => {}
            (Action::End, Ask::PlayCard) => return Err(RuleError::MustPlayTwo),
            _ => return Err(wrong()),
        }
        Ok(ask)
    }

    /// Applies one option: checks, executes, then applies every single-option prompt that
    /// follows (spec section 6.8).
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Applied<Event>, RuleError> {
        self.check(seat, action)?;
        // The highlight shows only the towns scored by this option.
        self.last_scored.clear();
        let mut ev = Vec::new();
        let mut barrier = self.exec(*action, &mut ev);
        for _ in 0..64 {
            let Some(ask) = self.ask() else { break };
            if ask == Ask::EndTurn && self.opts.confirm_end {
                break;
            }
            let opts = self.options(ask);
            let [only] = opts.as_slice() else { break };
            let only = *only;
            ev.push(Event::Auto {
                seat: self.active,
                notation: super::notation::notation(&only),
            });
            barrier |= self.exec(only, &mut ev);
        }
        Ok(Applied {
            events: ev,
            barrier,
        })
    }

    /// Executes a checked option; returns whether it is an undo barrier.
    fn exec(&mut self, action: Action, ev: &mut Vec<Event>) -> bool {
        let seat = self.active;
        match action {
            Action::Mode(m) => {
                self.mode = Some(m);
                ev.push(Event::ModeChosen { seat, mode: m });
                self.start_turn(ev);
                false
            }
            Action::Play(c) => {
                self.play_card(c, ev);
                true
            }
            Action::Discard(c) => {
                let p = self.player_mut(seat);
                p.hand.retain(|&x| x != c);
                self.discard.push(c);
                self.turn.swap_discards_left -= 1;
                ev.push(Event::CardDiscarded { seat, card: c });
                true
            }
            Action::Send(r) => {
                self.player_mut(seat).supply -= 1;
                self.board[r.index()][Owner::of(seat).index()] += 1;
                ev.push(Event::InvestigatorSent { seat, region: r });
                self.send_done_one(ev);
                false
            }
            Action::From(r) => {
                if let Step::Send { left, bonus } = self.turn.step {
                    self.turn.step = Step::SendMoveTo {
                        from: r,
                        left,
                        bonus,
                    };
                }
                false
            }
            Action::To(to) => {
                if let Step::SendMoveTo { from, left, bonus } = self.turn.step {
                    let o = Owner::of(seat).index();
                    self.board[from.index()][o] -= 1;
                    self.board[to.index()][o] += 1;
                    ev.push(Event::InvestigatorMoved { seat, from, to });
                    self.turn.step = Step::Send { left, bonus };
                    self.send_done_one(ev);
                }
                false
            }
            Action::Skip => {
                match self.turn.step {
                    Step::Send { left, .. } => {
                        ev.push(Event::SendSkipped { seat, left });
                        self.finish_card(ev);
                    }
                    _ => {
                        ev.push(Event::BuildSkipped { seat });
                        self.end_build(ev);
                    }
                }
                false
            }
            Action::Convert(r, o) => {
                let me = Owner::of(seat);
                if self.player(seat).supply > 0 {
                    self.board[r.index()][o.index()] -= 1;
                    if let Some(s) = o.seat() {
                        self.player_mut(s).supply += 1;
                    }
                    self.board[r.index()][me.index()] += 1;
                    self.player_mut(seat).supply -= 1;
                    ev.push(Event::Converted {
                        seat,
                        region: r,
                        victim: o,
                        swap_with: None,
                    });
                    self.finish_card(ev);
                } else if self.neutral_simply_removed(o, 0) {
                    self.board[r.index()][o.index()] -= 1;
                    ev.push(Event::NeutralRemoved { seat, region: r });
                    self.finish_card(ev);
                } else {
                    self.turn.step = Step::ConvertSwap {
                        region: r,
                        victim: o,
                    };
                }
                false
            }
            Action::With(u) => {
                if let Step::ConvertSwap { region, victim } = self.turn.step {
                    let me = Owner::of(seat).index();
                    self.board[region.index()][victim.index()] -= 1;
                    self.board[u.index()][victim.index()] += 1;
                    self.board[u.index()][me] -= 1;
                    self.board[region.index()][me] += 1;
                    ev.push(Event::Converted {
                        seat,
                        region,
                        victim,
                        swap_with: Some(u),
                    });
                    self.finish_card(ev);
                }
                false
            }
            Action::Take(src) => {
                self.take(src, ev);
                true
            }
            Action::Open(r) => {
                let p = self.player(seat);
                if let Some(pos) = self
                    .turn
                    .pending
                    .iter()
                    .position(|&i| p.gates.get(i).is_some_and(|g| g.region == r))
                {
                    let g = self.turn.pending.remove(pos);
                    self.open_gate(g, ev);
                    self.after_opening(ev);
                }
                true
            }
            Action::Despair(a) => self.despair(a, ev),
            Action::End => {
                self.end_turn(ev);
                true
            }
        }
    }

    fn start_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        self.turn = TurnState::new();
        self.player_mut(seat).turns_started += 1;
        ev.push(Event::TurnStarted { seat });
    }

    fn gain_despair(&mut self, wanted: u8, ev: &mut Vec<Event>) {
        let seat = self.active;
        let got = wanted.min(self.despair_supply);
        self.despair_supply -= got;
        self.player_mut(seat).despair += got;
        ev.push(Event::DespairGained { seat, wanted, got });
    }

    fn play_card(&mut self, c: CardId, ev: &mut Vec<Event>) {
        let seat = self.active;
        let half = self.mode.unwrap_or(Mode::Sane);
        self.player_mut(seat).hand.retain(|&x| x != c);
        self.turn.in_play = Some((c, half));
        let effect = self.card_effect(c, half);
        ev.push(Event::CardPlayed {
            seat,
            card: c,
            half,
            effect,
        });
        match effect {
            Effect::Page { .. } | Effect::Blueprint { .. } | Effect::Rune => {
                self.player_mut(seat).filed.push(c);
                ev.push(Event::ArtifactCollected {
                    seat,
                    card: c,
                    artifact: effect,
                });
                let bonus = match effect {
                    Effect::Page { .. } => self.revealed(Scroll::Mandate),
                    Effect::Blueprint { .. } => self.revealed(Scroll::Cartographer),
                    _ => false,
                };
                if bonus && self.gate_source_exists() {
                    self.turn.step = Step::Build {
                        left: 1,
                        bonus: true,
                    };
                } else if effect == Effect::Rune && self.revealed(Scroll::Relic) {
                    self.turn.step = Step::Send {
                        left: 1,
                        bonus: true,
                    };
                } else {
                    self.finish_card(ev);
                }
            }
            Effect::Send {
                investigators,
                despair,
            } => {
                self.gain_despair(despair, ev);
                self.turn.step = Step::Send {
                    left: investigators,
                    bonus: false,
                };
            }
            Effect::Build { sections, despair } => {
                self.gain_despair(despair, ev);
                if self.gate_source_exists() {
                    self.turn.step = Step::Build {
                        left: sections,
                        bonus: false,
                    };
                } else {
                    for _ in 0..sections {
                        ev.push(Event::SectionLost { seat });
                    }
                    self.finish_card(ev);
                }
            }
            Effect::Convert => {
                if self.convert_targets().is_empty() {
                    ev.push(Event::ConvertFizzled { seat });
                    self.finish_card(ev);
                } else {
                    self.turn.step = Step::Convert;
                }
            }
        }
    }

    fn send_done_one(&mut self, ev: &mut Vec<Event>) {
        if let Step::Send { left, bonus } = self.turn.step {
            if left <= 1 {
                self.finish_card(ev);
            } else {
                self.turn.step = Step::Send {
                    left: left - 1,
                    bonus,
                };
            }
        }
    }

    /// Spec section 6.6.
    fn finish_card(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        if let Some((c, half)) = self.turn.in_play.take() {
            let artifact = d().card(c).artifact();
            if self.card_effect(c, half).is_artifact() {
                // Filed when played (play_card).
            } else if let Some(artifact) = artifact.filter(|_| self.opts.file_always) {
                // The rulebook: a card showing an artifact always goes to the journal, after
                // the action of whichever half was played (issue 25). No scroll bonus: that
                // rewards collecting, the artifact half's own action.
                self.player_mut(seat).filed.push(c);
                ev.push(Event::ArtifactCollected {
                    seat,
                    card: c,
                    artifact,
                });
            } else {
                self.discard.push(c);
                ev.push(Event::CardToDiscard { seat, card: c });
            }
            self.turn.played.push((c, half));
            self.turn.cards_played += 1;
        }
        self.turn.step = Step::Idle;
    }

    fn take(&mut self, src: Source, ev: &mut Vec<Event>) {
        let seat = self.active;
        let region = match src {
            Source::Slot(k) => {
                let i = usize::from(k - 1);
                let Some(region) = self.pool[i].take() else {
                    return;
                };
                ev.push(Event::GateCardTaken {
                    seat,
                    source: src,
                    region,
                });
                if self.gate_deck.is_empty() {
                    ev.push(Event::PoolSlotEmpty { slot: k });
                } else {
                    let r = self.gate_deck.remove(0);
                    self.pool[i] = Some(r);
                    ev.push(Event::PoolRefilled { slot: k, region: r });
                }
                region
            }
            Source::Deck => {
                let region = self.gate_deck.remove(0);
                ev.push(Event::GateCardTaken {
                    seat,
                    source: src,
                    region,
                });
                region
            }
        };
        self.place_section(region, ev);
        if let Step::Build { left, bonus } = self.turn.step {
            if left <= 1 || !self.gate_source_exists() {
                if left > 1 {
                    for _ in 1..left {
                        ev.push(Event::SectionLost { seat });
                    }
                }
                self.end_build(ev);
            } else {
                self.turn.step = Step::Build {
                    left: left - 1,
                    bonus,
                };
            }
        }
    }

    /// R16, R17.
    fn place_section(&mut self, region: Region, ev: &mut Vec<Event>) {
        let seat = self.active;
        let size = d().region(region).gate_size;
        let p = self.player_mut(seat);
        let (i, new_gate) = match p
            .gates
            .iter()
            .position(|g| g.region == region && g.state == GateState::Building)
        {
            Some(i) => (i, false),
            None => {
                p.gates.push(Gate {
                    region,
                    cards: 0,
                    state: GateState::Building,
                });
                (p.gates.len() - 1, true)
            }
        };
        let g = &mut p.gates[i];
        g.cards += 1;
        let cards = g.cards;
        let complete = cards >= size;
        if complete {
            g.state = GateState::Complete;
        }
        ev.push(Event::SectionPlaced {
            seat,
            region,
            cards,
            size,
            new_gate,
        });
        if complete {
            self.turn.pending.push(i);
            ev.push(Event::GateCompleted { seat, region });
        }
    }

    /// The end of a build step: openings (spec section 6.7), then the card is finished.
    fn end_build(&mut self, ev: &mut Vec<Event>) {
        self.turn.step = Step::Idle;
        self.after_opening(ev);
    }

    /// Opens pending gates in completion order while discs suffice; asks when they do not.
    fn after_opening(&mut self, ev: &mut Vec<Event>) {
        while !self.turn.pending.is_empty() && self.outcome.is_none() {
            if self.discs.len() < self.turn.pending.len() {
                self.turn.step = Step::ChooseOpen;
                return;
            }
            let g = self.turn.pending.remove(0);
            self.open_gate(g, ev);
        }
        if self.outcome.is_none() {
            self.finish_card(ev);
        }
    }

    fn open_gate(&mut self, g: usize, ev: &mut Vec<Event>) {
        let seat = self.active;
        if self.discs.is_empty() {
            return;
        }
        let disc = self.discs.remove(0);
        let region = {
            let p = self.player_mut(seat);
            p.gates[g].state = GateState::Opened { disc };
            p.score += i64::from(disc);
            p.gates[g].region
        };
        ev.push(Event::GateOpened { seat, region, disc });
        ev.push(Event::PointsScored {
            seat,
            points: i64::from(disc),
            reason: PointsReason::Disc,
        });
        if d().disc(disc).is_some_and(|x| x.scroll_icon) {
            if let Some(i) = self.scrolls.iter().position(|s| !s.revealed) {
                self.scrolls[i].revealed = true;
                ev.push(Event::ScrollRevealed {
                    slot: i as u8 + 1,
                    scroll: self.scrolls[i].scroll,
                });
            }
        }
        self.score_region(region, ev);
        if self.discs.is_empty() {
            let left: Vec<usize> = std::mem::take(&mut self.turn.pending);
            for i in left {
                if let Some(gate) = self.player_mut(seat).gates.get_mut(i) {
                    gate.state = GateState::Unopened;
                    let region = gate.region;
                    ev.push(Event::GateLeftUnopened { seat, region });
                }
            }
            self.finish_game(EndReason::LastMonstrosity, ev);
        }
    }

    /// R25-R27.
    fn score_region(&mut self, region: Region, ev: &mut Vec<Event>) {
        let def = d().region(region);
        let values = if self.duel {
            def.score_duel
        } else {
            def.score_standard
        };
        let counts = self.board[region.index()];
        let entries = rank_region(&counts, values);
        for e in &entries {
            if let Some(s) = e.owner.seat() {
                self.player_mut(s).score += e.points;
            }
        }
        ev.push(Event::RegionScored { region, entries });
        let mut returned = Vec::new();
        for o in Owner::ALL {
            let n = counts[o.index()];
            if n == 0 {
                continue;
            }
            match o.seat() {
                Some(s) => {
                    self.player_mut(s).supply += n;
                    returned.push((o, n));
                }
                None => ev.push(Event::NeutralsRemoved { region, count: n }),
            }
        }
        if !returned.is_empty() {
            ev.push(Event::InvestigatorsReturned {
                region,
                counts: returned,
            });
        }
        self.board[region.index()] = [0; OWNERS];
        self.last_scored.push(region);
    }

    /// Draws one card, reshuffling the discard pile into the deck when needed (R31).
    fn draw_one(&mut self, ev: &mut Vec<Event>) -> Option<CardId> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            let mut pile = std::mem::take(&mut self.discard);
            pile.shuffle(&mut self.rng);
            ev.push(Event::DeckReshuffled {
                count: pile.len() as u8,
            });
            self.deck = pile;
        }
        Some(self.deck.remove(0))
    }

    fn draw(&mut self, n: usize, refill_to: usize, ev: &mut Vec<Event>) {
        let seat = self.active;
        let mut drawn = Vec::new();
        while drawn.len() < n || self.player(seat).hand.len() < refill_to {
            let Some(c) = self.draw_one(ev) else { break };
            self.player_mut(seat).hand.push(c);
            drawn.push(c);
        }
        ev.push(Event::CardsDrawn {
            seat,
            count: drawn.len() as u8,
        });
        self.player_mut(seat).last_drawn = drawn;
    }

    fn despair(&mut self, a: Desperate, ev: &mut Vec<Event>) -> bool {
        let seat = self.active;
        let cost = self.cost(a);
        self.player_mut(seat).despair -= cost;
        self.despair_supply += cost;
        ev.push(Event::DespairSpent {
            seat,
            action: a,
            cost,
        });
        match a {
            Desperate::Swap => {
                self.draw(2, 0, ev);
                self.turn.swap_discards_left = self.player(seat).hand.len().min(2) as u8;
                true
            }
            Desperate::Refresh => {
                for slot in &mut self.pool {
                    if let Some(r) = slot.take() {
                        self.gate_deck.push(r);
                    }
                }
                for slot in &mut self.pool {
                    if !self.gate_deck.is_empty() {
                        *slot = Some(self.gate_deck.remove(0));
                    }
                }
                ev.push(Event::PoolRefreshed { pool: self.pool });
                true
            }
            Desperate::Flip => {
                let m = self.mode.unwrap_or(Mode::Sane).flipped();
                self.mode = Some(m);
                ev.push(Event::SanityFlipped { seat, mode: m });
                false
            }
            Desperate::Score => {
                let pts = d().numbers.desperate.score_points;
                self.player_mut(seat).score += pts;
                ev.push(Event::PointsScored {
                    seat,
                    points: pts,
                    reason: PointsReason::Despair,
                });
                false
            }
        }
    }

    fn end_turn(&mut self, ev: &mut Vec<Event>) {
        let seat = self.active;
        let n = &d().numbers;
        self.draw(usize::from(n.end_draw), usize::from(n.hand_size), ev);
        ev.push(Event::TurnEnded { seat });
        // R39: no gate card anywhere.
        if !self.gate_source_exists() {
            self.finish_game(EndReason::NoGateCards, ev);
            return;
        }
        let next = seat.next(usize::from(self.seats));
        if next == self.first {
            ev.push(Event::RoundEnded { round: self.round });
            if self.round >= self.opts.round_limit {
                self.finish_game(EndReason::RoundLimit, ev);
                return;
            }
            self.round += 1;
            self.first = self.first.next(usize::from(self.seats));
            self.active = self.first;
            self.mode = None;
            self.turn = TurnState::new();
            ev.push(Event::RoundStarted {
                round: self.round,
                first: self.first,
            });
        } else {
            self.active = next;
            self.start_turn(ev);
        }
    }

    /// Final scoring (spec section 8) and the outcome.
    fn finish_game(&mut self, reason: EndReason, ev: &mut Vec<Event>) {
        let scores = final_scores(self);
        let winners = winners(&scores, self.opts.fewer_turns);
        ev.push(Event::GameEnded { reason });
        ev.push(Event::FinalScores {
            scores: scores.clone(),
            winners: winners.clone(),
        });
        self.outcome = Some(outcome(&scores, &winners, self.opts.fewer_turns));
        self.turn.step = Step::Idle;
        self.turn.swap_discards_left = 0;
        self.ending = Some(Ending {
            reason,
            scores,
            winners,
        });
    }

    /// Running score per seat: final totals once over.
    pub fn running_scores(&self) -> Vec<i64> {
        match &self.ending {
            Some(e) => e.scores.iter().map(|s| s.total).collect(),
            None => self.players.iter().map(|p| p.score).collect(),
        }
    }
}

/// The +5 end-scoring scroll bonus for `counts` (leaders need >= 1; ties by option).
fn scroll_bonus(counts: &[i64], ties_all: bool) -> Vec<i64> {
    let bonus = d().numbers.end_scroll_bonus;
    let best = counts.iter().copied().max().unwrap_or(0);
    let leaders = counts.iter().filter(|&&c| c == best).count();
    counts
        .iter()
        .map(|&c| {
            if best >= 1 && c == best && (leaders == 1 || ties_all) {
                bonus
            } else {
                0
            }
        })
        .collect()
}

/// Every seat's final score, part by part.
pub fn final_scores(g: &Gates) -> Vec<FinalScore> {
    let seats = g.seat_list();
    let on_board: Vec<i64> = seats.iter().map(|&s| i64::from(g.on_board(s))).collect();
    let zero = vec![0; seats.len()];
    let scroll = |s: Scroll, counts: Vec<i64>| {
        if g.revealed(s) {
            scroll_bonus(&counts, g.opts.scroll_ties_all)
        } else {
            zero.clone()
        }
    };
    let artisan = scroll(
        Scroll::Artisan,
        g.players
            .iter()
            .map(|p| p.incomplete_gates() as i64)
            .collect(),
    );
    let recruiter = scroll(Scroll::Recruiter, on_board.clone());
    let keeper = scroll(
        Scroll::Keeper,
        g.players.iter().map(|p| p.pages().len() as i64).collect(),
    );
    g.players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut f = FinalScore {
                in_game: p.score,
                investigators: on_board[i],
                artisan: artisan[i],
                recruiter: recruiter[i],
                keeper: keeper[i],
                runes: rune_points(p.runes()),
                pages: page_points(&p.pages()),
                blueprints: blueprint_points(p.fragments()),
                total: 0,
                despair: p.despair,
                turns_started: p.turns_started,
            };
            f.total = f.in_game
                + f.investigators
                + f.artisan
                + f.recruiter
                + f.keeper
                + f.runes
                + f.pages
                + f.blueprints;
            f
        })
        .collect()
}

/// The sort key of a final score: higher is better.
fn key(f: &FinalScore, fewer_turns: bool) -> (i64, u8, i64) {
    let turns = if fewer_turns {
        -i64::from(f.turns_started)
    } else {
        0
    };
    (f.total, f.despair, turns)
}

/// Winners after the tie-breaks (spec section 8).
pub fn winners(scores: &[FinalScore], fewer_turns: bool) -> Vec<Seat> {
    let best = scores.iter().map(|f| key(f, fewer_turns)).max();
    scores
        .iter()
        .enumerate()
        .filter(|(_, f)| Some(key(f, fewer_turns)) == best)
        .map(|(i, _)| Seat(i as u8))
        .collect()
}

fn outcome(scores: &[FinalScore], winners: &[Seat], fewer_turns: bool) -> Outcome {
    let keys: Vec<_> = scores.iter().map(|f| key(f, fewer_turns)).collect();
    let ranks: Vec<u8> = keys
        .iter()
        .map(|k| keys.iter().filter(|o| *o > k).count() as u8 + 1)
        .collect();
    let draw = scores.len() > 1 && winners.len() == scores.len();
    Outcome {
        scores: scores.iter().map(|f| f.total).collect(),
        ranks,
        winners: if draw { Vec::new() } else { winners.to_vec() },
        draw,
    }
}
