//! What a seat may do now: the cards it can afford, the options of each prompt, and the check of a chosen one (pure).

use super::*;

impl SpaceLab {
    /// Hand cards of the current seat it could place now, in card order.
    pub fn affordable(&self) -> Vec<u8> {
        self.affordable_for(self.current)
    }

    pub fn affordable_for(&self, s: Seat) -> Vec<u8> {
        let p = self.player(s);
        if p.filled() >= SLOTS {
            return Vec::new();
        }
        let h = p.hand.len();
        let d = self.data();
        let mut out: Vec<u8> = p
            .hand
            .iter()
            .copied()
            .filter(|&c| usize::from(d.cost(c)) < h)
            .collect();
        out.sort_unstable();
        out
    }

    /// Reveal, Recruit, Place: the legal actions at the start of the current turn.
    pub fn legal_actions(&self) -> Vec<Action> {
        let p = self.player(self.current);
        let small = p.hand.len() <= 4;
        let mut out = Vec::new();
        if small && self.lab_deck.len() + self.lab_discard.len() > 0 {
            out.push(Action::Reveal);
        }
        if small && self.centre.iter().any(|c| !c.is_empty()) {
            out.push(Action::Recruit);
        }
        if !self.affordable().is_empty() {
            out.push(Action::Place);
        }
        out
    }

    pub(super) fn card_filter_needed(&self) -> bool {
        let end = usize::from(self.player(self.current).placed_this_action >= 1);
        self.affordable().len() + end > MAX_OPTIONS
    }

    /// Hand cards that may still pay for the card being placed, in card order.
    pub fn pay_candidates(&self) -> Vec<u8> {
        let Phase::PlacePay { card, paid, .. } = &self.phase else {
            return Vec::new();
        };
        let mut out: Vec<u8> = self
            .player(self.current)
            .hand
            .iter()
            .copied()
            .filter(|c| c != card && !paid.contains(c))
            .collect();
        out.sort_unstable();
        out
    }

    fn agencies_of(&self, cards: &[u8]) -> Vec<Agency> {
        let d = self.data();
        Agency::ALL
            .into_iter()
            .filter(|a| {
                cards
                    .iter()
                    .any(|&c| d.lab(c).map(|l| l.agency) == Some(*a))
            })
            .collect()
    }

    /// Every legal option of the current prompt, in canonical order.
    pub fn options(&self) -> Vec<Action> {
        let d = self.data();
        let agency = |c: u8| d.lab(c).map(|l| l.agency);
        match &self.phase {
            Phase::Over => Vec::new(),
            Phase::Arrange(s) => {
                let t = self.player(*s).dealt;
                const PERMS: [[usize; 3]; 6] = [
                    [0, 1, 2],
                    [0, 2, 1],
                    [1, 0, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [2, 1, 0],
                ];
                PERMS
                    .iter()
                    .map(|p| Action::Arrange([t[p[0]], t[p[1]], t[p[2]]]))
                    .collect()
            }
            Phase::ChooseAction => self.legal_actions(),
            Phase::TakeRevealed => self
                .agencies_of(&self.revealed)
                .into_iter()
                .map(Action::Take)
                .collect(),
            Phase::TakeCentre => Agency::ALL
                .into_iter()
                .filter(|a| !self.centre[a.index()].is_empty())
                .map(Action::Take)
                .collect(),
            Phase::PlaceCard { filter } => {
                let aff = self.affordable();
                let end = self.player(self.current).placed_this_action >= 1;
                let mut out: Vec<Action> = if filter.is_none() && self.card_filter_needed() {
                    self.agencies_of(&aff)
                        .into_iter()
                        .map(Action::From)
                        .collect()
                } else {
                    aff.into_iter()
                        .filter(|&c| filter.is_none() || agency(c) == *filter)
                        .map(Action::Card)
                        .collect()
                };
                if end {
                    out.push(Action::End);
                }
                out
            }
            Phase::PlaceSlot { .. } => self
                .player(self.current)
                .station
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_none())
                .map(|(i, _)| Action::Slot(u8_of(i)))
                .collect(),
            Phase::PlacePay { filter, .. } => {
                let cands = self.pay_candidates();
                if filter.is_none() && cands.len() > MAX_OPTIONS {
                    self.agencies_of(&cands)
                        .into_iter()
                        .map(Action::From)
                        .collect()
                } else {
                    cands
                        .into_iter()
                        .filter(|&c| filter.is_none() || agency(c) == *filter)
                        .map(Action::Pay)
                        .collect()
                }
            }
            Phase::KeepProject { drawn, .. } => {
                let mut kinds: Vec<u8> = Vec::new();
                for &c in drawn {
                    let k = d.kind_of(c);
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
                kinds.into_iter().map(Action::Keep).collect()
            }
            Phase::Bonus => {
                let mut out = Vec::new();
                if self.lab_deck.len() + self.lab_discard.len() > 0 {
                    out.push(Action::Bonus(BonusKind::Lab));
                }
                if !self.project_deck.is_empty() {
                    out.push(Action::Bonus(BonusKind::Project));
                }
                out
            }
        }
    }

    /// Why `action` is not legal now (`Ok` when it is). Never changes anything.
    pub fn check(&self, action: &Action) -> Result<(), RuleError> {
        let d = self.data();
        let hand = &self.player(self.current).hand;
        match (&self.phase, *action) {
            (Phase::Over, _) => Err(RuleError::GameOver),
            (Phase::Arrange(s), Action::Arrange(t)) => {
                let mut a = self.player(*s).dealt;
                let mut b = t;
                a.sort_unstable();
                b.sort_unstable();
                if a == b {
                    Ok(())
                } else {
                    Err(RuleError::NotYourTiles)
                }
            }
            (Phase::ChooseAction, a @ (Action::Reveal | Action::Recruit | Action::Place)) => {
                if self.legal_actions().contains(&a) {
                    return Ok(());
                }
                Err(match a {
                    Action::Place => RuleError::NothingAffordable,
                    _ if hand.len() > 4 => RuleError::HandTooFull,
                    Action::Reveal => RuleError::NothingToReveal,
                    _ => RuleError::CentreEmpty,
                })
            }
            (Phase::TakeRevealed | Phase::TakeCentre, Action::Take(_)) => {
                if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::PlaceCard { .. }, Action::Card(c)) => {
                if !hand.contains(&c) {
                    Err(RuleError::NotInHand)
                } else if self.affordable().contains(&c) {
                    Ok(())
                } else {
                    Err(RuleError::CannotAfford)
                }
            }
            (Phase::PlaceCard { .. }, Action::End) => {
                if self.player(self.current).placed_this_action >= 1 {
                    Ok(())
                } else {
                    Err(RuleError::MustPlaceFirst)
                }
            }
            (Phase::PlaceCard { filter }, Action::From(_)) => {
                if filter.is_some() || !self.card_filter_needed() {
                    Err(RuleError::NoFilterNeeded)
                } else if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::PlaceSlot { .. }, Action::Slot(s)) => {
                match self.player(self.current).station.get(usize::from(s)) {
                    Some(None) => Ok(()),
                    _ => Err(RuleError::SlotTaken),
                }
            }
            (Phase::PlacePay { .. }, Action::Pay(c)) => {
                if self.pay_candidates().contains(&c) {
                    Ok(())
                } else {
                    Err(RuleError::CannotPayWith)
                }
            }
            (Phase::PlacePay { filter, .. }, Action::From(_)) => {
                if filter.is_some() || self.pay_candidates().len() <= MAX_OPTIONS {
                    Err(RuleError::NoFilterNeeded)
                } else if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::AgencyNotOffered)
                }
            }
            (Phase::KeepProject { drawn, .. }, Action::Keep(k)) => {
                if drawn.iter().any(|&c| d.kind_of(c) == k) {
                    Ok(())
                } else {
                    Err(RuleError::ProjectNotDrawn)
                }
            }
            (Phase::Bonus, Action::Bonus(_)) => {
                if self.options().contains(action) {
                    Ok(())
                } else {
                    Err(RuleError::DeckEmpty)
                }
            }
            _ => Err(RuleError::WrongPrompt),
        }
    }
}
