//! What each prompt offers, and why an option is refused (every check before any change).

use super::*;

impl Gates {
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

    pub(super) fn gate_source_exists(&self) -> bool {
        !self.gate_deck.is_empty() || self.pool.iter().any(Option::is_some)
    }

    pub(super) fn check_despair(&self, action: Desperate) -> Result<(), RuleError> {
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
    pub(super) fn neutral_simply_removed(&self, victim: Owner, supply: u8) -> bool {
        victim == Owner::Neutral && supply == 0 && self.opts.neutral_remove
    }

    /// Convert targets (R13-R15), in region then owner order.
    pub(super) fn convert_targets(&self) -> Vec<(Region, Owner)> {
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

    pub(super) fn check_convert(
        &self,
        r: Region,
        o: Owner,
        me: Owner,
        supply: u8,
    ) -> Result<(), RuleError> {
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
}
