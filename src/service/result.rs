//! The end of a game as players see it: the result card (image and text: ranks, scores with
//! each game's breakdown, who won and how, the number of turns, how long it took), and the
//! rematch (a new lobby with the same seats, each confirming, and the same options).
//!
//! The card itself is built by pure functions ([`standings`], [`result_card`],
//! [`result_lines`]) from the finished game and a few figures the store keeps ([`Ending`]),
//! so the golden images test exactly what the bot posts.

use super::output::encode_png;
use super::output::mention;
use super::{Records, ServiceError};
use crate::engine::{AnyGame, GameId, Outcome, Seat};
use crate::i18n::{Lang, Text};
use crate::render::result::{render_result, ResultCard, ResultRow};
use crate::store::{GameStatus, MoveRecord};

/// What the result card tells besides the game itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// Turns played: runs of options by one seat in the move log.
    pub turns: usize,
    /// From the start to the end, in seconds.
    pub secs: i64,
    /// The seat that resigned, if the game ended that way.
    pub resigned: Option<Seat>,
    /// A casual game (`rated:false`): the card says it moved no rating.
    pub casual: bool,
}

/// The result of a finished game, ready to post.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub game: GameId,
    /// The message: every seated player mentioned once, then the result in words.
    pub text: String,
    /// The users it mentions (each once).
    pub users: Vec<i64>,
    /// One line for the lobby message: "Cortexcape #3 is over: won by Ann."
    pub summary: String,
    /// The card as PNG, and its text as alt text.
    pub png: Vec<u8>,
    pub alt: String,
    /// The game's animated replay (GIF), when it could be built.
    pub gif: Option<Vec<u8>>,
}

/// Turns in a move log: each run of options by one seat is one turn.
pub fn count_turns(moves: &[MoveRecord]) -> usize {
    let mut turns = 0;
    let mut last = None;
    for m in moves {
        if last != Some(m.seat) {
            turns += 1;
            last = Some(m.seat);
        }
    }
    turns
}

/// Final standings: the game's outcome, or, for a game stopped by a resignation, the scores
/// when it stopped with the resigning seat last (ranks among the others as scores say). A
/// one-seat game (a puzzle) resigned is unsolved: rank 2, below every solve, and no winner.
pub fn standings(game: &dyn AnyGame, resigned: Option<Seat>) -> Outcome {
    if let (Some(outcome), None) = (game.outcome(), resigned) {
        return outcome;
    }
    let scores = game.scores();
    let Some(gone) = resigned.filter(|s| s.index() < scores.len()) else {
        return game
            .outcome()
            .unwrap_or_else(|| Outcome::from_scores(scores, game.lower_score_wins()));
    };
    let lower = game.lower_score_wins();
    let better = |a: i64, b: i64| if lower { a < b } else { a > b };
    let n = scores.len();
    let ranks: Vec<u8> = (0..n)
        .map(|i| {
            if i == gone.index() {
                // Last; alone at the table, below the rank 1 of a solve.
                return u8::try_from(n.max(2)).unwrap_or(u8::MAX);
            }
            let ahead = (0..n)
                .filter(|&j| j != gone.index() && better(scores[j], scores[i]))
                .count();
            u8::try_from(ahead + 1).unwrap_or(u8::MAX)
        })
        .collect();
    let winners: Vec<Seat> = (0..n).filter(|&i| ranks[i] == 1).map(Seat::at).collect();
    Outcome {
        scores,
        ranks,
        winners,
        draw: false,
    }
}

/// Seats in rank order (ties in seat order).
fn order(outcome: &Outcome) -> Vec<usize> {
    let mut order: Vec<usize> = (0..outcome.scores.len()).collect();
    order.sort_by_key(|&i| (outcome.ranks.get(i).copied().unwrap_or(u8::MAX), i));
    order
}

fn seat(i: usize) -> Seat {
    Seat::at(i)
}

/// "Won by Ann", "Won by Ann, Bob", "A draw", "Not solved" (a puzzle given up).
fn headline(outcome: &Outcome) -> Text {
    if outcome.winners.is_empty() && outcome.scores.len() == 1 {
        return Text::new("bot.result.unsolved");
    }
    if outcome.winners.is_empty() {
        return Text::new("bot.result.draw");
    }
    let winners: Vec<Text> = outcome
        .winners
        .iter()
        .map(|s| Text::new("core.raw").arg("s", *s))
        .collect();
    Text::new("bot.result.win").arg("winners", winners)
}

/// How the game ended, as a sentence: the resignation, the game's own end, or its scoring.
fn how(game: &dyn AnyGame, resigned: Option<Seat>) -> Text {
    if let Some(s) = resigned {
        let key = if game.seat_count() == 1 {
            "bot.result.resigned_alone"
        } else {
            "bot.result.resigned"
        };
        return Text::new(key).arg("seat", s);
    }
    match game.result_details().how {
        Some(t) => t,
        None if game.lower_score_wins() => Text::new("bot.result.lowest_wins"),
        None => Text::new("bot.result.highest_wins"),
    }
}

/// "round 1 7 · round 3 5": a seat's score broken down, or empty.
fn detail(game: &dyn AnyGame, seat: usize, lang: Lang) -> String {
    let details = game.result_details();
    details
        .parts
        .get(seat)
        .map(|parts| {
            parts
                .iter()
                .map(|p| {
                    Text::new("bot.result.part")
                        .arg("label", p.label.clone())
                        .arg("points", p.points)
                        .render(lang)
                })
                .collect::<Vec<_>>()
                .join(crate::render::result::PART_SEPARATOR)
        })
        .unwrap_or_default()
}

/// "18 turns · played over 2 days 3 h", and "· casual game, not rated" for a casual game.
fn footer(ending: &Ending) -> Text {
    Text::new(if ending.casual {
        "bot.result.footer_casual"
    } else {
        "bot.result.footer"
    })
    .arg("turns", i64::try_from(ending.turns).unwrap_or(i64::MAX))
    .arg("length", super::output::duration_text(ending.secs))
}

/// A sentence from a phrase (a game's end reason may be one): first letter upper-cased, a
/// full stop when it ends without punctuation.
fn sentence(s: String) -> String {
    let mut out = capitalized(s);
    if out.chars().last().is_some_and(char::is_alphanumeric) {
        out.push('.');
    }
    out
}

/// The first letter upper-cased (a headline).
fn capitalized(s: String) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => s,
    }
}

/// The card of a finished `game` (kind and id for the title), with seat `names` as drawn.
pub fn result_card(
    game: &dyn AnyGame,
    id: GameId,
    names: &[String],
    ending: &Ending,
    lang: Lang,
) -> ResultCard {
    let outcome = standings(game, ending.resigned);
    let rows = order(&outcome)
        .into_iter()
        .map(|i| ResultRow {
            seat: i,
            rank: outcome.ranks.get(i).copied().unwrap_or(u8::MAX),
            name: Text::new("core.raw")
                .arg("s", seat(i))
                .render_with(lang, names),
            total: outcome.scores.get(i).copied().unwrap_or(0),
            detail: detail(game, i, lang),
            winner: outcome.winners.contains(&seat(i)),
        })
        .collect();
    ResultCard {
        title: Text::new("bot.result.title")
            .arg("game", game.kind().display_name())
            .arg("id", id.0)
            .render(lang),
        headline: capitalized(headline(&outcome).render_with(lang, names)),
        how: Some(sentence(
            how(game, ending.resigned).render_with(lang, names),
        )),
        headers: (
            Text::new("bot.result.player").render(lang),
            Text::new("bot.result.score").render(lang),
        ),
        rows,
        footer: footer(ending).render(lang),
    }
}

/// The result in words, one line each: headline, how, each seat's rank, score and breakdown,
/// then turns and length. `names` as they go into message text.
pub fn result_lines(
    game: &dyn AnyGame,
    id: GameId,
    names: &[String],
    ending: &Ending,
    lang: Lang,
) -> Vec<String> {
    let outcome = standings(game, ending.resigned);
    let mut lines = vec![
        Text::new("bot.result.over")
            .arg("game", game.kind().display_name())
            .arg("id", id.0)
            .arg("headline", headline(&outcome))
            .render_with(lang, names),
        sentence(how(game, ending.resigned).render_with(lang, names)),
    ];
    for i in order(&outcome) {
        let detail = detail(game, i, lang);
        let key = if detail.is_empty() {
            "bot.result.standing"
        } else {
            "bot.result.standing_detail"
        };
        lines.push(
            Text::new(key)
                .arg("rank", outcome.ranks.get(i).copied().unwrap_or(u8::MAX))
                .arg("seat", seat(i))
                .arg("score", outcome.scores.get(i).copied().unwrap_or(0))
                .arg("detail", detail)
                .render_with(lang, names),
        );
    }
    lines.push(footer(ending).render(lang));
    lines
}

/// The result card of a finished `game` as an image (what the bot posts, before encoding).
pub fn result_image(
    game: &dyn AnyGame,
    id: GameId,
    names: &[String],
    ending: &Ending,
    lang: Lang,
) -> image::RgbaImage {
    render_result(&result_card(game, id, names, ending, lang))
}

impl Records<'_> {
    /// The result of a finished game, for its players and its channel.
    pub async fn result(self, game: GameId, lang: Lang) -> Result<GameResult, ServiceError> {
        let loaded = self.core.load(game).await?;
        let record = &loaded.record;
        if record.status != GameStatus::Finished {
            return Err(ServiceError::NotActive(game));
        }
        let stored = self.core.store.ending(game).await?;
        let moves = self.core.store.moves(game).await?;
        let started = stored.started_at.unwrap_or(record.created_at);
        let ending = Ending {
            turns: count_turns(&moves),
            secs: record.updated_at.saturating_sub(started),
            resigned: stored.resigned,
            casual: record.casual,
        };
        let card = result_image(
            loaded.game.as_ref(),
            game,
            &loaded.drawn_names(),
            &ending,
            lang,
        );
        let names = loaded.names();
        let lines = result_lines(loaded.game.as_ref(), game, &names, &ending, lang);
        let users = super::players(record);
        let pings: Vec<String> = users.iter().map(|u| mention(*u)).collect();
        // The game is rated here (once, whoever asks first); a failure only loses the lines.
        let ratings = match self.rating_lines(game, lang).await {
            Ok(_) if record.casual => vec![
                String::new(),
                String::new(),
                Text::new("ratings.casual_result").render(lang),
            ],
            Ok(r) if !r.is_empty() => {
                let mut out = vec![String::new(), String::new()];
                out.push(Text::new("ratings.result_title").render(lang));
                out.extend(r);
                out
            }
            Ok(_) => Vec::new(),
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not rate a finished game");
                Vec::new()
            }
        };
        let text = format!(
            "{} {}{}",
            pings.join(" "),
            lines.join("\n"),
            ratings.join("\n")
        )
        .trim()
        .to_string();
        Ok(GameResult {
            game,
            summary: lines.first().cloned().unwrap_or_default(),
            alt: lines.join("\n"),
            text,
            users,
            png: encode_png(&card),
            gif: self.replay_animation(game, lang).await,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Version;

    fn moves(seats: &[u8]) -> Vec<MoveRecord> {
        seats
            .iter()
            .enumerate()
            .map(|(i, s)| MoveRecord {
                seq: i64::try_from(i).unwrap_or(0),
                seat: Seat(*s),
                notation: String::new(),
                barrier: false,
                revealed: false,
                at: 0,
            })
            .collect()
    }

    #[test]
    fn a_turn_is_a_run_of_one_seats_options() {
        assert_eq!(count_turns(&moves(&[])), 0);
        assert_eq!(count_turns(&moves(&[0, 0, 1, 1, 1, 0, 1])), 4);
        let _ = Version(0);
    }

    #[test]
    fn a_replay_steps_by_turns() {
        assert_eq!(super::super::turn_bounds(&moves(&[])), vec![]);
        assert_eq!(
            super::super::turn_bounds(&moves(&[0, 0, 1, 0, 0, 0])),
            vec![(0, 2), (2, 3), (3, 6)]
        );
    }

    #[test]
    fn lengths_read_in_minutes_hours_or_days() {
        use crate::service::output::{duration_text as length, human_duration};
        assert_eq!(length(30).render(Lang::En), "1 min");
        assert_eq!(length(3 * 3600 + 120).render(Lang::En), "3 h 2 min");
        assert_eq!(length(2 * 86_400 + 3 * 3600).render(Lang::Fr), "2 j 3 h");
        use crate::clock::{DAY, HOUR, MINUTE};
        use Lang::{En, Fr};
        assert_eq!(human_duration(DAY + 2 * HOUR, En), "1 d 2 h");
        assert_eq!(human_duration(3 * DAY + 2 * HOUR, Fr), "3 j 2 h");
        assert_eq!(human_duration(2 * DAY, Fr), "2 j");
        assert_eq!(human_duration(5 * HOUR + 20 * MINUTE, En), "5 h 20 min");
        assert_eq!(human_duration(5 * HOUR + 20 * MINUTE, Fr), "5 h 20 min");
        assert_eq!(human_duration(10, En), "1 min");
    }

    #[test]
    fn a_resigning_seat_ranks_last_and_the_others_by_score() {
        let game = crate::engine::GameKind::Cortexcape
            .setup(&Default::default(), 3, 7)
            .expect("setup");
        // Lower wins in Cortexcape; at the start every score is 0.
        let o = standings(game.as_ref(), Some(Seat(0)));
        assert_eq!(o.ranks, vec![3, 1, 1]);
        assert_eq!(o.winners, vec![Seat(1), Seat(2)]);
        assert!(!o.draw);
    }
}
