//! The Gates of Delirium bot. A seat sees its own hand, the face-up discard pile, every journal,
//! gate, investigator and the pool; it does not see the other hands, the order of the action
//! deck or of the gate deck, the face-down scrolls, nor the RNG. So an imagined game keeps
//! everything public and deals the rest at random, by card conservation:
//! - action cards: the 80 less the seat's hand, the discard pile, the journals and the card in
//!   play are dealt to the other hands (public sizes) and the deck (public size);
//! - gate cards: each region's count less the pool and every gate built is shuffled into the
//!   gate deck (its public size checks the sum);
//! - the scrolls not yet revealed fill the face-down slots, the rest are out of the game.
//!
//! Running scores say little mid-game (journals and investigators only score at the end), so
//! the estimate is the final score as if the game ended now, plus the expected worth of gates
//! under construction. Playouts follow a cheap greedy policy: play the best half for the
//! round, build towards the most advanced gate, send where a majority is within reach, and
//! leave desperate actions alone except the 3 points.

use crate::engine::rng::SliceDraw;

use super::components::{CardId, Effect, Region, Scroll};
use super::moves::{Action, Desperate, Source};
use super::rules::{d, final_scores, Ask};
use super::state::{GateState, Gates, Mode, Owner, Player, ScrollSlot, TurnState, OWNERS};
use super::view::{PrivateView, PublicView};
use crate::engine::{rng_from_seed, GameRng, Seat};

/// Action cards in the game (spec section 3.2).
const ACTION_CARDS: u8 = 80;

/// A lead of this many points is worth about 0.73 in the estimate: a gate opening (10-15
/// points) decides a lot, a page or an investigator a little.
const LEAD_SCALE: f64 = 8.0;

/// A whole game consistent with `seat`'s views, its hidden parts dealt from `rng`. `None` when
/// the views are not of a running game seen by `seat`, or do not add up.
pub(crate) fn imagine(
    public: &PublicView,
    private: Option<&PrivateView>,
    seat: Seat,
    rng: &mut GameRng,
) -> Option<Gates> {
    let private = private.filter(|p| p.seat == seat)?;
    if public.ending.is_some() {
        return None;
    }
    let active = public.to_act?;
    let data = d();
    let ids = |names: &[String]| -> Option<Vec<CardId>> {
        names.iter().map(|n| data.card_by_name(n)).collect()
    };
    let own_hand: Vec<CardId> = private
        .hand
        .iter()
        .map(|h| data.card_by_name(&h.id))
        .collect::<Option<_>>()?;
    let own_new: Vec<CardId> = private
        .hand
        .iter()
        .filter(|h| h.new)
        .filter_map(|h| data.card_by_name(&h.id))
        .collect();
    let discard = ids(&public.discard)?;
    let filed: Vec<Vec<CardId>> = public
        .players
        .iter()
        .map(|p| ids(&p.filed))
        .collect::<Option<_>>()?;
    let card_of = |v: &super::view::PlayedView| data.card_by_name(&v.id).map(|c| (c, v.half));
    let played: Vec<(CardId, Mode)> = public.played.iter().map(card_of).collect::<Option<_>>()?;
    let in_play = match &public.in_play {
        Some(v) => Some(card_of(v)?),
        None => None,
    };

    // Action cards: whatever the seat cannot place is in another hand or in the deck.
    let mut seen = [false; ACTION_CARDS as usize];
    let visible = own_hand
        .iter()
        .chain(&discard)
        .chain(filed.iter().flatten())
        // An artifact is filed as soon as it is played, so it may be in play and filed.
        .chain(
            in_play
                .iter()
                .map(|(c, _)| c)
                .filter(|c| !filed.iter().flatten().any(|f| f == *c)),
        );
    for c in visible {
        let slot = seen.get_mut(usize::from(c.0))?;
        if *slot {
            return None;
        }
        *slot = true;
    }
    let mut unseen: Vec<CardId> = (0..ACTION_CARDS)
        .map(CardId)
        .filter(|c| !seen[usize::from(c.0)])
        .collect();
    let others: usize = public
        .players
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat.index())
        .map(|(_, p)| p.hand_size)
        .sum();
    if unseen.len() != others + public.deck {
        return None;
    }
    unseen.shuffle(rng);
    let mut dealt = unseen.into_iter();

    // Gate cards: each region's count less the pool and every gate built.
    let mut gate_deck: Vec<Region> = Vec::with_capacity(public.gate_deck);
    for r in Region::ALL {
        let in_pool = public.pool.iter().filter(|&&p| p == Some(r)).count();
        let built: usize = public
            .players
            .iter()
            .flat_map(|p| &p.gates)
            .filter(|g| g.region == r)
            .map(|g| usize::from(g.cards))
            .sum();
        let left = usize::from(data.region(r).deck_count).checked_sub(in_pool + built)?;
        gate_deck.extend(std::iter::repeat_n(r, left));
    }
    if gate_deck.len() != public.gate_deck {
        return None;
    }
    gate_deck.shuffle(rng);

    // Scrolls: the unrevealed ones, in any order, face down or out of the game.
    let mut hidden_scrolls: Vec<Scroll> = Scroll::ALL
        .into_iter()
        .filter(|s| !public.scrolls.contains(&Some(*s)))
        .collect();
    hidden_scrolls.shuffle(rng);
    let mut scrolls = Vec::with_capacity(public.scrolls.len());
    for slot in &public.scrolls {
        scrolls.push(match slot {
            Some(s) => ScrollSlot {
                scroll: *s,
                revealed: true,
            },
            None => ScrollSlot {
                scroll: hidden_scrolls.pop()?,
                revealed: false,
            },
        });
    }

    let mut players = Vec::with_capacity(public.players.len());
    for (i, (p, filed)) in public.players.iter().zip(filed).enumerate() {
        let (hand, last_drawn) = if i == seat.index() {
            if own_hand.len() != p.hand_size {
                return None;
            }
            (own_hand.clone(), own_new.clone())
        } else {
            (dealt.by_ref().take(p.hand_size).collect(), Vec::new())
        };
        players.push(Player {
            hand,
            last_drawn,
            filed,
            gates: p.gates.clone(),
            despair: p.despair,
            supply: p.supply,
            score: p.score,
            turns_started: p.turns_started,
        });
    }
    let mut board = [[0u8; OWNERS]; 5];
    for r in &public.regions {
        board[r.region.index()] = r.counts;
    }
    let mut opts = public.options;
    opts.round_limit = public.round_limit;
    Some(Gates {
        seats: public.seats,
        duel: public.duel,
        opts,
        rng: rng_from_seed(rng.next_u64()),
        round: public.round,
        first: public.first,
        active,
        mode: public.mode,
        deck: dealt.collect(),
        discard,
        gate_deck,
        pool: public.pool,
        discs: public.discs.iter().map(|&(v, _)| v).collect(),
        scrolls,
        out_scrolls: hidden_scrolls,
        despair_supply: public.despair_supply,
        board,
        players,
        turn: TurnState {
            cards_played: public.cards_played,
            played,
            in_play,
            step: public.step,
            swap_discards_left: public.swap_discards_left,
            pending: public.pending.clone(),
        },
        last_scored: public
            .regions
            .iter()
            .filter(|r| r.scored)
            .map(|r| r.region)
            .collect(),
        ending: None,
        outcome: None,
    })
}

impl Gates {
    /// What each seat would score if the game ended now, plus the worth of its gates under
    /// construction (the next disc, weighted by how far each gate has come).
    pub(crate) fn potential(&self) -> Vec<f64> {
        let next_disc = f64::from(self.discs.first().copied().unwrap_or(0));
        final_scores(self)
            .iter()
            .zip(&self.players)
            .map(|(f, p)| {
                let gates: f64 = p
                    .gates
                    .iter()
                    .filter(|g| matches!(g.state, GateState::Building | GateState::Complete))
                    .map(|g| {
                        let progress =
                            f64::from(g.cards) / f64::from(d().region(g.region).gate_size);
                        next_disc * progress * progress * 0.7
                    })
                    .sum();
                // Small integers: exact in f64.
                #[allow(clippy::cast_precision_loss)]
                let total = f.total as f64;
                total + gates
            })
            .collect()
    }

    /// The bot's estimate: each seat's lead over its best rival, by potential, squashed into
    /// (0, 1). Smooth in the margin, so a search still prefers a bigger lead (a ranking alone
    /// scores every lead alike).
    pub(crate) fn bot_estimate(&self) -> Vec<f64> {
        let potential = self.potential();
        (0..potential.len())
            .map(|i| {
                let rival = potential
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &v)| v)
                    .fold(f64::MIN, f64::max);
                let lead = if rival == f64::MIN {
                    potential[i]
                } else {
                    potential[i] - rival
                };
                1.0 / (1.0 + (-lead / LEAD_SCALE).exp())
            })
            .collect()
    }

    /// The playout policy (effort 0), a cheap greedy answer; `None` above effort 0, where
    /// the tree search decides.
    pub(crate) fn expert(&self, effort: u32, rng: &mut GameRng) -> Option<Action> {
        if effort > 0 {
            return None;
        }
        let ask = self.ask()?;
        let listed = self.options(ask);
        let me = self.player(self.active);
        let mode = self.mode.unwrap_or(Mode::Sane);
        // Desperate actions are for the search to weigh; playouts only cash in 3 points,
        // keeping a token for the despair tie-break.
        let score3 = Action::Despair(Desperate::Score);
        if listed.contains(&score3) && me.despair > self.cost(Desperate::Score) {
            return Some(score3);
        }
        let best = |rng: &mut GameRng, value: &dyn Fn(&Action) -> f64| -> Option<Action> {
            // A little noise so that playouts do not all follow one line.
            listed
                .iter()
                .filter(|a| !matches!(a, Action::Despair(_)))
                .map(|a| (value(a) + rng.unit_f64() * 0.5, *a))
                .max_by(|x, y| x.0.total_cmp(&y.0))
                .map(|(_, a)| a)
        };
        match ask {
            Ask::ChooseMode => {
                let sane: f64 = me
                    .hand
                    .iter()
                    .map(|&c| self.half_value(c, Mode::Sane))
                    .sum();
                let insane: f64 = me
                    .hand
                    .iter()
                    .map(|&c| self.half_value(c, Mode::Insane))
                    .sum();
                let pick = if sane + rng.gen_range(-2.0..2.0) >= insane {
                    Mode::Sane
                } else {
                    Mode::Insane
                };
                Some(Action::Mode(pick))
            }
            Ask::PlayCard => best(rng, &|a| match a {
                Action::Play(c) => self.half_value(*c, mode),
                _ => 0.0,
            }),
            Ask::SwapDiscard => best(rng, &|a| match a {
                Action::Discard(c) => -self.half_value(*c, mode),
                _ => 0.0,
            }),
            Ask::TakeGateCard => best(rng, &|a| match a {
                Action::Take(Source::Slot(k)) => {
                    self.pool[usize::from(k - 1)].map_or(0.0, |r| self.build_value(r))
                }
                Action::Take(Source::Deck) => 1.0,
                _ => 0.0,
            }),
            Ask::SendPlace | Ask::SendMoveTo => best(rng, &|a| match a {
                Action::Send(r) | Action::To(r) => self.send_value(*r),
                Action::Skip => -1.0,
                _ => 0.0,
            }),
            Ask::EndTurn => listed.contains(&Action::End).then_some(Action::End),
            _ => best(rng, &|_| 0.0),
        }
    }

    /// Rough worth, in points, of playing card `c` on half `mode` for the active seat.
    fn half_value(&self, c: CardId, mode: Mode) -> f64 {
        let effect = self.card_effect(c, mode);
        // A card showing an artifact is filed whichever half is played (`filing = always`).
        let filed = d()
            .card(c)
            .artifact()
            .filter(|a| self.opts.file_always && *a != effect)
            .map_or(0.0, |a| self.artifact_worth(a));
        filed
            + match effect {
                Effect::Send { investigators, .. } => 1.8 * f64::from(investigators),
                Effect::Build { sections, .. } => 3.0 * f64::from(sections),
                Effect::Convert => 2.5,
                artifact => self.artifact_worth(artifact),
            }
    }

    /// Rough worth, in points, of an artifact for the active seat's journal.
    fn artifact_worth(&self, artifact: Effect) -> f64 {
        let me = self.player(self.active);
        match artifact {
            Effect::Page { page } => {
                let pages = me.pages();
                if pages.contains(&(page.wrapping_sub(1))) || pages.contains(&(page + 1)) {
                    5.0
                } else {
                    3.0
                }
            }
            Effect::Blueprint { quadrant } => {
                let q = me.fragments();
                let least = q.iter().copied().min().unwrap_or(0);
                if q[quadrant.index()] == least {
                    4.0
                } else {
                    1.5
                }
            }
            Effect::Rune => 3.0 + 0.5 * (me.runes() % 5) as f64,
            Effect::Send { .. } | Effect::Build { .. } | Effect::Convert => 0.0,
        }
    }

    /// How much a gate card of region `r` advances the active seat (finishing a gate most).
    fn build_value(&self, r: Region) -> f64 {
        let size = f64::from(d().region(r).gate_size);
        let cards = self
            .player(self.active)
            .gates
            .iter()
            .find(|g| g.region == r && g.state == GateState::Building)
            .map_or(0.0, |g| f64::from(g.cards));
        2.0 + 8.0 * (cards + 1.0) / size
    }

    /// How much one more investigator in `r` helps the active seat towards a majority there.
    fn send_value(&self, r: Region) -> f64 {
        let me = Owner::of(self.active).index();
        let counts = self.board[r.index()];
        let mine = counts[me];
        let rival = counts
            .iter()
            .enumerate()
            .filter(|&(o, _)| o != me)
            .map(|(_, &c)| c)
            .max()
            .unwrap_or(0);
        // A gate about to open here makes the majority worth more.
        let soon = self
            .players
            .iter()
            .flat_map(|p| &p.gates)
            .filter(|g| g.region == r && g.state == GateState::Building)
            .map(|g| f64::from(g.cards) / f64::from(d().region(r).gate_size))
            .fold(0.0, f64::max);
        let stake = if mine + 1 > rival {
            if mine > rival {
                1.0
            } else {
                3.0
            }
        } else if mine + 1 == rival {
            2.0
        } else {
            0.5
        };
        stake * (1.0 + 2.0 * soon)
    }
}
