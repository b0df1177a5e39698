//! Points: region ranks, runes, pages, blueprints; final scores, winners and the outcome.

use super::*;

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
    let seats: Vec<Seat> = g.seat_ids().collect();
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
        .map(|(i, _)| Seat::at(i))
        .collect()
}

pub(super) fn outcome(scores: &[FinalScore], winners: &[Seat], fewer_turns: bool) -> Outcome {
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
