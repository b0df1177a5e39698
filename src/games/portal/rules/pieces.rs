//! Cards and pieces: drawing, the hand, subjects and cake moving, dying and being delivered.

use crate::games::portal::state::HandCard;

use super::*;

impl Portal {
    // ----- cards -----

    /// R31: the deck has a card, or a reshuffle would give one.
    pub fn can_draw(&self) -> bool {
        !self.deck.is_empty() || self.discard.len() >= 2
    }

    pub(super) fn hand_has_room(&self, s: Seat) -> bool {
        self.seat(s).hand.len() < self.hand_limit()
    }

    fn reshuffle(&mut self, log: &mut Log) {
        if self.discard.len() < 2 {
            return;
        }
        let top = self.discard.pop();
        let mut cards = std::mem::take(&mut self.discard);
        for i in (1..cards.len()).rev() {
            let j = self.rng.gen_range(0..=i);
            cards.swap(i, j);
        }
        let count = u8::try_from(cards.len()).unwrap_or(u8::MAX);
        self.deck = cards;
        self.discard.extend(top);
        log.push(Ev::DeckReshuffled { count });
    }

    /// Takes the top card into `s`'s hand (fresh), with the reshuffle of R32. The caller has
    /// checked the hand limit.
    pub(super) fn take_card(&mut self, s: Seat, log: &mut Log) {
        if self.deck.is_empty() {
            self.reshuffle(log);
        }
        let Some(card) = self.deck.pop() else {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::DeckEmpty,
            });
            return;
        };
        self.seat_mut(s).hand.push(HandCard { card, fresh: true });
        log.push(Ev::CardTaken { seat: s, card });
        if self.deck.is_empty() {
            self.reshuffle(log);
        }
        log.push(Ev::DeckTopRevealed {
            card: self.deck.last().copied(),
        });
    }

    /// An automatic take (Fact Core, `burn`, the Fact bonus): limit and R31 apply.
    pub(super) fn auto_take(&mut self, s: Seat, log: &mut Log) {
        if !self.hand_has_room(s) {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::HandFull,
            });
        } else if !self.can_draw() {
            log.push(Ev::CardGainLost {
                seat: s,
                reason: LostReason::DeckEmpty,
            });
        } else {
            self.take_card(s, log);
        }
    }

    pub(super) fn character_changed(&self, log: &mut Log) {
        log.push(Ev::CharacterChanged {
            card: self.discard.last().copied(),
        });
    }

    // ----- pieces -----

    pub(super) fn touch(&mut self, ch: Ch) {
        if !self.touched.contains(&ch) {
            self.touched.push(ch);
        }
    }

    pub(super) fn destroy(&mut self, ch: Ch, owner: Seat, count: u8, cause: Death, log: &mut Log) {
        if count == 0 {
            return;
        }
        let o = owner.index();
        if let Some(x) = self.chamber_mut(ch) {
            x.subj[o] = x.subj[o].saturating_sub(count);
        }
        let s = self.seat_mut(owner);
        s.subject_supply = s.subject_supply.saturating_add(count);
        self.touch(ch);
        log.push(Ev::SubjectsDestroyed {
            chamber: ch,
            owner,
            count,
            cause,
        });
    }

    /// Subjects of `owner` arriving in `ch`: the Turret kills them (R9b).
    pub(super) fn turret_check(&mut self, ch: Ch, owner: Seat, count: u8, log: &mut Log) {
        if self.turret == Some(ch) && self.turret_lethal() {
            self.destroy(ch, owner, count, Death::Turret, log);
        }
    }

    /// The Turret arrives in `ch`: every subject there dies (R9a).
    pub(super) fn turret_arrives(&mut self, ch: Ch, log: &mut Log) {
        self.turret = Some(ch);
        self.touch(ch);
        if !self.turret_lethal() {
            return;
        }
        let counts = self.chamber(ch).map(|x| x.subj).unwrap_or_default();
        for s in self.seat_ids().collect::<Vec<_>>() {
            self.destroy(ch, s, counts[s.index()], Death::Turret, log);
        }
    }

    pub(super) fn deliver_subject(&mut self, owner: Seat, ch: Ch, cause: Cause, log: &mut Log) {
        let s = self.seat_mut(owner);
        s.subject_supply = s.subject_supply.saturating_sub(1);
        if let Some(x) = self.chamber_mut(ch) {
            x.subj[owner.index()] += 1;
        }
        self.touch(ch);
        log.push(Ev::SubjectDelivered {
            owner,
            chamber: ch,
            cause,
        });
        self.turret_check(ch, owner, 1, log);
    }

    pub(super) fn deliver_cake(&mut self, owner: Seat, ch: Ch, cause: Cause, log: &mut Log) {
        let s = self.seat_mut(owner);
        s.cake_supply = s.cake_supply.saturating_sub(1);
        if let Some(x) = self.chamber_mut(ch) {
            x.cake[owner.index()] += 1;
        }
        self.touch(ch);
        log.push(Ev::CakeDelivered {
            owner,
            chamber: ch,
            cause,
        });
    }

    pub(super) fn incinerate(&mut self, colour: Seat, ch: Ch, cause: Option<Card>, log: &mut Log) {
        if let Some(x) = self.chamber_mut(ch) {
            x.cake[colour.index()] = x.cake[colour.index()].saturating_sub(1);
        }
        self.seat_mut(colour).incinerated += 1;
        self.touch(ch);
        log.push(Ev::CakeIncinerated {
            colour,
            chamber: ch,
            count: 1,
            cause,
        });
    }

    pub(super) fn subj_at(&self, ch: Ch, s: Seat) -> u8 {
        self.chamber(ch).map_or(0, |x| x.subj[s.index()])
    }

    pub(super) fn cake_at(&self, ch: Ch, s: Seat) -> u8 {
        self.chamber(ch).map_or(0, |x| x.cake[s.index()])
    }

    pub(super) fn chambers_where(&self, f: impl Fn(&Chamber) -> bool) -> Vec<Ch> {
        Floor::ALL
            .into_iter()
            .flat_map(|fl| {
                self.floor(fl)
                    .iter()
                    .filter(|x| f(x))
                    .map(move |x| Ch::new(fl, x.c))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Destinations of a move from `from` (M3), in canonical order.
    pub fn destinations(&self, from: Ch, mode: MoveMode) -> Vec<Ch> {
        let one = self.neighbours(from);
        let mut out: Vec<Ch> = one.clone();
        if mode == MoveMode::Group && self.is_char(Card::Chell) {
            for i in one {
                if self.turret == Some(i) {
                    continue;
                }
                out.extend(self.neighbours(i).into_iter().filter(|&d| d != from));
            }
        }
        out.retain(|&d| self.can_enter(d));
        self.sort_canonical(&mut out);
        out
    }
}
