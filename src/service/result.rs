//! The end of a game as players see it: the result card (image and text: ranks, scores with
//! each game's breakdown, who won and how, the number of turns, how long it took), and the
//! rematch (a new lobby with the same seats, each confirming, and the same options).
//!
//! The card itself is built by pure functions ([`standings`], [`result_card`],
//! [`result_lines`]) from the finished game and a few figures the store keeps ([`Ending`]),
//! so the golden images test exactly what the bot posts.

use super::clocks::mention;
use super::lobby::{LobbyError, LobbyView};
use super::output::encode_png;
use super::{Player, Service, ServiceError};
use crate::engine::{AnyGame, GameId, Outcome, Seat};
use crate::i18n::{Lang, Text};
use crate::model::JobKind;
use crate::render::result::{render_result, ResultCard, ResultRow};
use crate::store::{
    GameStatus, JoinOutcome, MoveRecord, NewGame, NewJob, NewRematch, NewSeat, RematchOutcome,
};

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

/// What a click on Rematch did.
#[derive(Clone, Debug)]
pub enum Rematch {
    /// The rematch's lobby was opened by this click: post it (its `invited` are pinged).
    Opened { view: LobbyView, invited: Vec<i64> },
    /// The clicker confirmed their seat in the rematch already open.
    Confirmed(LobbyView),
    /// The clicker was already seated in it: nothing changed.
    Seated(LobbyView),
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
    .arg("length", length(ending.secs))
}

/// A game's length in words: minutes, hours and minutes, or days and hours.
pub fn length(secs: i64) -> Text {
    use crate::clock::{DAY, HOUR, MINUTE};
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / HOUR, secs % HOUR / MINUTE);
    match (d, h) {
        (0, 0) => Text::new("bot.result.len_minutes").arg("m", m.max(1)),
        (0, _) => Text::new("bot.result.len_hours").arg("h", h).arg("m", m),
        _ => Text::new("bot.result.len_days").arg("d", d).arg("h", h),
    }
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

impl Service {
    /// The result of a finished game, for its players and its channel.
    pub async fn result(&self, game: GameId, lang: Lang) -> Result<GameResult, ServiceError> {
        let loaded = self.load(game).await?;
        let record = &loaded.record;
        if record.status != GameStatus::Finished {
            return Err(ServiceError::NotActive(game));
        }
        let stored = self.store.ending(game).await?;
        let moves = self.store.moves(game).await?;
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

    /// A player of finished game `old` clicks Rematch. The first click opens a lobby in the
    /// same channel with the same game, options, clock and bots, its seats in the old order:
    /// the clicker hosts and is seated, bots are seated, every other player's seat is kept
    /// for them until they confirm (Join, or Rematch again). Later clicks by old players
    /// confirm their seat. Anyone else may take a free seat with Join, as in any lobby.
    pub async fn rematch(
        &self,
        old: GameId,
        player: Player,
        seed: u64,
        now: i64,
    ) -> Result<Rematch, ServiceError> {
        let record = self.store.game(old).await?;
        let Some(user) = player.user else {
            return Err(LobbyError::RematchNotPlayer(old).into());
        };
        if record.status != GameStatus::Finished {
            return Err(LobbyError::RematchNotFinished(old).into());
        }
        if !record
            .seats
            .iter()
            .any(|s| !s.is_bot && s.user == Some(user))
        {
            return Err(LobbyError::RematchNotPlayer(old).into());
        }
        if let Some(existing) = self.store.ending(old).await?.rematch {
            return self
                .confirm_rematch(existing, user, &player.name, now)
                .await;
        }
        self.check_lobby_limits(Some(user), record.channel).await?;
        let seats: Vec<NewSeat> = record
            .seats
            .iter()
            .map(|s| NewSeat {
                user: if s.is_bot { None } else { s.user },
                name: if s.user == Some(user) {
                    player.name.clone()
                } else {
                    s.name.clone()
                },
                is_bot: s.is_bot,
            })
            .collect();
        // Seats of people other than the opener wait for them; an opened seat (its player
        // timed out and nobody took it) has nobody to ask and is left out.
        let mut invited = Vec::new();
        let mut seats_kept = Vec::new();
        let mut invited_users = Vec::new();
        for (s, new) in record.seats.iter().zip(seats) {
            if !s.is_bot && s.user.is_none() {
                continue;
            }
            if !s.is_bot && s.user != Some(user) {
                if s.user.is_some_and(|u| invited_users.contains(&u)) {
                    continue;
                }
                invited.push(seats_kept.len());
                invited_users.extend(s.user);
            }
            seats_kept.push(new);
        }
        // One seat per person: a player who held two seats gets one.
        let mut opener_seated = false;
        seats_kept.retain(|s| {
            if s.user == Some(user) {
                let keep = !opener_seated;
                opener_seated = true;
                keep
            } else {
                true
            }
        });
        let new = NewRematch {
            game: NewGame {
                kind: record.kind,
                options: record.options.clone(),
                seed: super::seed_to_i64(seed),
                state: String::new(),
                status: GameStatus::Lobby,
                guild: record.guild,
                channel: record.channel,
                thread: None,
                host: Some(user),
                seats: seats_kept,
                clock_secs: record.clock_secs,
                policy: record.policy,
                lang: record.lang,
                now,
            },
            invited,
            max_seats: self.store.max_seats(old).await?,
            bot_level: record.bot_level,
            bot_delay: record.bot_delay,
            idle: NewJob {
                due_at: now.saturating_add(self.timers.lobby_idle_secs),
                kind: JobKind::Lobby,
                game: None,
                user: None,
                payload: String::new(),
            },
        };
        match self.store.open_rematch(old, &new).await? {
            RematchOutcome::Opened(id) => Ok(Rematch::Opened {
                view: {
                    // A casual game's rematch is casual too.
                    if record.casual {
                        self.store.set_casual(id, true).await?;
                    }
                    self.lobby(id).await?
                },
                invited: invited_users,
            }),
            RematchOutcome::Exists(id) => self.confirm_rematch(id, user, &player.name, now).await,
            RematchOutcome::NotFinished(_) => Err(LobbyError::RematchNotFinished(old).into()),
        }
    }

    /// An old player's click on Rematch once it is open: confirms their kept seat.
    async fn confirm_rematch(
        &self,
        rematch: GameId,
        user: i64,
        name: &str,
        now: i64,
    ) -> Result<Rematch, ServiceError> {
        let view = self.lobby(rematch).await?;
        if view.status != GameStatus::Lobby {
            return Err(LobbyError::RematchClosed(rematch).into());
        }
        match self
            .store
            .lobby_join(rematch, user, name, view.max, now)
            .await?
        {
            JoinOutcome::Joined(_) => Ok(Rematch::Confirmed(self.lobby(rematch).await?)),
            JoinOutcome::AlreadySeated(_) => Ok(Rematch::Seated(view)),
            JoinOutcome::Full => Err(LobbyError::Full { max: view.max }.into()),
            JoinOutcome::NotLobby(_) => Err(LobbyError::RematchClosed(rematch).into()),
        }
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
        assert_eq!(length(30).render(Lang::En), "1 min");
        assert_eq!(length(3 * 3600 + 120).render(Lang::En), "3 h 2 min");
        assert_eq!(length(2 * 86_400 + 3 * 3600).render(Lang::Fr), "2 j 3 h");
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
