//! The end of the game (spec 8): the finale, the vote to open the Lab, the scores.

use super::*;

impl Portal {
    // ----- end of game (spec 8) -----

    /// End checks after an atomic effect. Returns true when the game is over.
    pub(crate) fn check_end(&mut self, log: &mut Log) -> bool {
        if self.ended.is_some() {
            return true;
        }
        let limit = self.data().incinerated_limit;
        let reason = self
            .seat_ids()
            .find(|&s| self.subjects_in_lab(s) == 0)
            .map(EndReason::NoSubjects)
            .or_else(|| {
                self.seat_ids()
                    .find(|&s| self.seat(s).incinerated >= limit)
                    .map(EndReason::Incinerated)
            });
        match reason {
            Some(r) => {
                self.finish(r, log);
                true
            }
            None => false,
        }
    }

    /// The game ends now: pending work is dropped, then scoring (and maybe the vote).
    pub(crate) fn finish(&mut self, reason: EndReason, log: &mut Log) {
        self.ended = Some(reason);
        self.agenda.clear();
        if let Some(c) = self.turn.resolving.take() {
            self.discard.push(c);
        }
        if let Some(vote) = self.vote_to_open() {
            self.vote = Some(vote);
            self.agenda.push(Step::Vote);
            return;
        }
        self.conclude(log);
    }

    /// The final vote the current position calls for (`final_tie = vote`, a tie for first
    /// place with someone outside it), before any ballot.
    pub(crate) fn vote_to_open(&self) -> Option<VoteState> {
        let key = |s: Seat| (self.cake_in_lab(s), self.subjects_in_lab(s));
        let best = self.seat_ids().map(key).max().unwrap_or((0, 0));
        let tied: Vec<Seat> = self.seat_ids().filter(|&s| key(s) == best).collect();
        if !(self.opts.vote && tied.len() > 1 && tied.len() < self.n()) {
            return None;
        }
        let n = self.n();
        let voters: Vec<Seat> = (1..=n)
            .map(|k| self.seat_after(self.active, k))
            .filter(|s| !tied.contains(s))
            .collect();
        Some(VoteState {
            tied,
            voters,
            votes: Vec::new(),
        })
    }

    /// Ranks the seats and records the outcome.
    pub(super) fn conclude(&mut self, log: &mut Log) {
        let mut tally = vec![0u8; self.n()];
        if let Some(v) = &self.vote {
            for s in v.votes.iter().flatten() {
                if let Some(t) = tally.get_mut(s.index()) {
                    *t += 1;
                }
            }
            log.push(Ev::VotesRevealed {
                tally: tally.clone(),
            });
        }
        let key = |s: Seat| {
            (
                self.cake_in_lab(s),
                self.subjects_in_lab(s),
                tally[s.index()],
            )
        };
        let keys: Vec<_> = self.seat_ids().map(key).collect();
        let ranks: Vec<u8> = keys
            .iter()
            .map(|k| u8::try_from(keys.iter().filter(|o| *o > k).count() + 1).unwrap_or(u8::MAX))
            .collect();
        let winners: Vec<Seat> = self.seat_ids().filter(|&s| ranks[s.index()] == 1).collect();
        let scores: Vec<i64> = self
            .seat_ids()
            .map(|s| i64::from(self.cake_in_lab(s)))
            .collect();
        log.push(Ev::GameEnded {
            reason: self.ended.unwrap_or(EndReason::RoundLimit),
            scores: scores.clone(),
            winners: winners.clone(),
        });
        self.agenda.clear();
        self.outcome = Some(Outcome {
            scores,
            ranks,
            winners,
            draw: false,
        });
    }
}
