//! Skill ratings and leaderboards (issue 24, part 1).
//!
//! A rating per player, per game, per server: Weng-Lin (the Bayesian model known as
//! OpenSkill) from the `skillratings` crate; no rating maths here. Members are rated against
//! members (issue 36): a game rates only when two members or more sit in it, and then each bot
//! level seated with them (`bot:hard`) is rated too. A one-seat puzzle (Vortex Solitaire) and a
//! game against bots only move no rating (a solve costs little with undo, and dozens of them
//! outranked members who play real games), and neither does a casual game (`rated:false`).
//! A member is provisional, and left off the leaderboard, until their uncertainty is below
//! [`PROVISIONAL_SIGMA`] (about five two-player games).
//!
//! A game is rated once, after it ends, by [`Records::settle_ratings`]: it rates every finished
//! game of the server not rated yet, oldest end first, so the games finished before ratings
//! existed (the 0009 migration leaves them unrated) are replayed in the order they ended
//! before any new one counts. It runs when a result is built and before a leaderboard is read.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use super::{Records, ServiceError};
use crate::ai::Level;
use crate::engine::{GameId, GameKind, Outcome, Seat};
use crate::i18n::{escape_markdown, Lang, Text};
use crate::store::{Entrant, GameRecord, RatingChange, RatingRow, Skill};

/// The uncertainty under which a rating is settled enough to be placed on a leaderboard: a
/// newcomer (25/3) gets under it after five two-player games, fewer in bigger games. Five
/// games against the same opponent, all won, leave 7.28 (7.2 needed a sixth).
pub const PROVISIONAL_SIGMA: f64 = 7.3;

/// Whether a rating is still provisional (left off the leaderboards).
pub fn provisional(s: Skill) -> bool {
    s.sigma >= PROVISIONAL_SIGMA
}

/// About how many more rated games a provisional rating needs to be placed: the crate's update
/// of its uncertainty, game after game against a newcomer (the uncertainty shrinks whatever
/// the result). 0 when it is placed already.
pub fn games_to_place(s: Skill) -> usize {
    let mut s = s;
    let mut games = 0;
    while provisional(s) && games < 100 {
        s = update(&[s, start()], &[1, 1], &[])[0];
        games += 1;
    }
    games
}

/// Games rated by one [`Records::settle_ratings`] at most (a server's whole history after the
/// migration takes several calls only past this).
const SETTLE_BATCH: usize = 5_000;

/// How many players a leaderboard lists.
pub const TOP: usize = 10;

/// What fits in one Discord message, with room to spare.
const MESSAGE_CHARS: usize = 1900;

/// The player key of a member.
pub fn user_key(user: i64) -> String {
    format!("u:{user}")
}

/// The player key of a bot level.
pub fn bot_key(level: Level) -> String {
    format!("bot:{}", level.id())
}

/// Where a newcomer starts: the crate's default (25, uncertainty 25/3).
pub fn start() -> Skill {
    let r = WengLinRating::new();
    Skill {
        mu: r.rating,
        sigma: r.uncertainty,
    }
}

/// The Weng-Lin update of one game: `ranks` as in the game (1 is best, equal ranks tie) and
/// `teams` the side each player is rated in (players sharing `Some(team)` are one side of
/// the crate's multi-team update, at their best rank; `None` is a side of one). The crate's
/// default model (beta 25/6).
pub fn update(before: &[Skill], ranks: &[i64], teams: &[Option<u8>]) -> Vec<Skill> {
    // Sides in first-seen order: the players (indices into `before`) in each.
    let mut sides: Vec<(Option<u8>, Vec<usize>)> = Vec::new();
    for i in 0..before.len() {
        let team = teams.get(i).copied().flatten();
        match sides.iter_mut().find(|(t, _)| team.is_some() && *t == team) {
            Some((_, members)) => members.push(i),
            None => sides.push((team, vec![i])),
        }
    }
    let ratings: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|(_, members)| {
            members
                .iter()
                .map(|&i| WengLinRating {
                    rating: before[i].mu,
                    uncertainty: before[i].sigma,
                })
                .collect()
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = ratings
        .iter()
        .zip(&sides)
        .map(|(r, (_, members))| {
            let rank = members
                .iter()
                .filter_map(|&i| ranks.get(i).copied())
                .min()
                .unwrap_or(i64::MAX);
            (
                &r[..],
                MultiTeamOutcome::new(usize::try_from(rank).unwrap_or(usize::MAX)),
            )
        })
        .collect();
    let mut after: Vec<Skill> = before.to_vec();
    for (side, (_, members)) in weng_lin_multi_team(&input, &WengLinConfig::new())
        .into_iter()
        .zip(&sides)
    {
        for (r, &i) in side.iter().zip(members) {
            after[i] = Skill {
                mu: r.rating,
                sigma: r.uncertainty,
            };
        }
    }
    after
}

/// The conservative estimate a leaderboard is ordered by: mu − 3 sigma (OpenSkill's
/// "ordinal"), so a newcomer's lucky first win does not top the board.
pub fn ordinal(s: Skill) -> f64 {
    s.mu - 3.0 * s.sigma
}

/// The rated players of a finished game and the places they are rated at.
///
/// Ranks are the final standings (`outcome`: a resigning seat is already last). A seat whose
/// player ran out of time and had not played since (missed deadlines at the end, or left
/// open) counts below everyone: a loss for the leaver. Open seats nobody holds are not rated.
/// A player holding several seats (or two bots of one level) is rated once, at their best
/// place. Fewer than two members (a puzzle, a game against bots only): nothing to rate.
pub fn entrants(
    record: &GameRecord,
    outcome: &Outcome,
    team_of: impl Fn(Seat) -> Option<u8>,
) -> Vec<Entrant> {
    let n = record.seats.len();
    let last = i64::try_from(n).unwrap_or(i64::MAX).saturating_add(1);
    let level = record.bot_level;
    let mut out: Vec<Entrant> = Vec::new();
    for (i, s) in record.seats.iter().enumerate() {
        let (player, user) = match (s.is_bot, s.user) {
            (true, _) => (bot_key(level), None),
            (false, Some(u)) => (user_key(u), Some(u)),
            (false, None) => continue,
        };
        let seat = Seat::at(i);
        let left = !s.is_bot && (s.timeouts > 0 || s.vacant);
        let rank = if left {
            last
        } else {
            outcome.ranks.get(i).map_or(last, |r| i64::from(*r))
        };
        let won = !left && outcome.winners.contains(&seat);
        let entrant = Entrant {
            player,
            user,
            name: s.name.clone(),
            seat: Some(seat),
            rank,
            won,
            // A leaver loses alone: their partner keeps the team's place.
            team: if left { None } else { team_of(seat) },
        };
        match out.iter_mut().find(|e| e.player == entrant.player) {
            Some(e) if entrant.rank < e.rank => *e = entrant,
            Some(_) => {}
            None => out.push(entrant),
        }
    }
    if out.iter().filter(|e| e.user.is_some()).count() < 2 {
        return Vec::new();
    }
    out
}

/// A rated player as a leaderboard names them: a member by name, a bot by its level.
fn who(player: &str, name: &str, lang: Lang) -> String {
    if let Some(level) = player.strip_prefix("bot:").and_then(Level::parse) {
        return Text::new("ratings.bot")
            .arg("level", Text::new(format!("core.level.{}", level.id())))
            .render(lang);
    }
    format!("**{}**", escape_markdown(name))
}

/// A rating with one decimal, in the language's notation ("31.2", "31,2").
fn number(x: f64, lang: Lang) -> String {
    let s = format!("{x:.1}");
    match lang {
        Lang::Fr => s.replace('.', ","),
        Lang::En => s,
    }
}

/// "31.2 ± 2.1".
fn skill_text(s: Skill, lang: Lang) -> String {
    format!("{} ± {}", number(s.mu, lang), number(s.sigma, lang))
}

/// "75" (percent of games won).
fn win_rate(row: &RatingRow) -> i64 {
    if row.played <= 0 {
        return 0;
    }
    (row.wins * 100 + row.played / 2) / row.played
}

/// "🥇", "🥈", "🥉", then "4.".
fn place_mark(place: usize) -> String {
    match place {
        1 => "🥇".into(),
        2 => "🥈".into(),
        3 => "🥉".into(),
        n => format!("`{n}.`"),
    }
}

/// A game's ratings in leaderboard order: the conservative estimate, then the estimate, then
/// games played, then the key (so equal players keep one order).
pub fn ordered(mut rows: Vec<RatingRow>) -> Vec<RatingRow> {
    rows.sort_by(|a, b| {
        ordinal(b.skill)
            .total_cmp(&ordinal(a.skill))
            .then(b.skill.mu.total_cmp(&a.skill.mu))
            .then(b.played.cmp(&a.played))
            .then(a.player.cmp(&b.player))
    });
    rows
}

/// One leaderboard line: place, who, rating ± uncertainty, games, win rate.
fn board_line(place: usize, row: &RatingRow, lang: Lang) -> String {
    Text::new("ratings.line")
        .arg("place", place_mark(place))
        .arg("who", who(&row.player, &row.name, lang))
        .arg("rating", skill_text(row.skill, lang))
        .arg("played", row.played)
        .arg("rate", win_rate(row))
        .render(lang)
}

/// A leaderboard's lines: the top `top` of the placed players (provisional ones are left
/// off), then the viewer's own place when further down, or that they are provisional (and
/// about how many games they lack), or have no rating yet; then how many are provisional.
fn board_lines(rows: &[RatingRow], viewer: Option<i64>, top: usize, lang: Lang) -> Vec<String> {
    let placed: Vec<&RatingRow> = rows.iter().filter(|r| !provisional(r.skill)).collect();
    let mut lines: Vec<String> = placed
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, row)| board_line(i + 1, row, lang))
        .collect();
    let me = viewer.map(user_key);
    let mine = rows.iter().find(|r| Some(&r.player) == me.as_ref());
    match (
        mine,
        placed.iter().position(|r| Some(&r.player) == me.as_ref()),
    ) {
        (_, Some(i)) if i >= top => {
            lines.push(Text::new("ratings.you").render(lang));
            lines.push(board_line(i + 1, placed[i], lang));
        }
        (_, Some(_)) => {}
        (Some(row), None) => lines.push(
            Text::new("ratings.you_provisional")
                .arg("left", games_to_place(row.skill))
                .arg("rating", skill_text(row.skill, lang))
                .arg("played", row.played)
                .render(lang),
        ),
        (None, None) if viewer.is_some() && !rows.is_empty() => {
            lines.push(Text::new("ratings.you_unrated").render(lang));
        }
        (None, None) => {}
    }
    let waiting = rows.len() - placed.len();
    if waiting > 0 {
        lines.push(
            Text::new("ratings.provisional_count")
                .arg("n", waiting)
                .render(lang),
        );
    }
    lines
}

impl Records<'_> {
    /// Rates every finished game of a server not rated yet, oldest end first (see the module
    /// doc). Returns how many games it rated. A game whose state cannot be read is logged and
    /// left out of the ratings rather than blocking the ones after it.
    pub async fn settle_ratings(self, guild: Option<i64>) -> Result<usize, ServiceError> {
        let mut rated = 0;
        for _ in 0..SETTLE_BATCH {
            let Some(game) = self.core.store.next_unrated(guild).await? else {
                break;
            };
            let loaded = match self.core.load(game).await {
                Ok(l) => l,
                Err(e @ ServiceError::Load { .. }) => {
                    tracing::warn!(%game, error = %e, "a finished game left out of the ratings");
                    self.core.store.skip_rating(game).await?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if loaded.record.casual {
                self.core.store.skip_rating(game).await?;
                continue;
            }
            let resigned = self.core.store.ending(game).await?.resigned;
            let outcome = super::standings(loaded.game.as_ref(), resigned);
            let entrants = entrants(&loaded.record, &outcome, |s| loaded.game.team_of(s));
            if entrants.is_empty() {
                self.core.store.skip_rating(game).await?;
                continue;
            }
            let ranks: Vec<i64> = entrants.iter().map(|e| e.rank).collect();
            let teams: Vec<Option<u8>> = entrants.iter().map(|e| e.team).collect();
            let done = self
                .core
                .store
                .rate_game(
                    game,
                    loaded.record.guild,
                    loaded.record.kind,
                    &entrants,
                    start(),
                    self.core.now(),
                    |before| update(before, &ranks, &teams),
                )
                .await?;
            rated += usize::from(done);
        }
        Ok(rated)
    }

    /// How one finished game moved its players' ratings, one line each ("Ann 25.0 → 29.4
    /// (+4.4)"), empty when it was not rated. Rates the server's pending games first.
    pub async fn rating_lines(self, game: GameId, lang: Lang) -> Result<Vec<String>, ServiceError> {
        let record = self.core.store.game(game).await?;
        self.settle_ratings(record.guild).await?;
        let changes = self.core.store.rating_changes_of_game(game).await?;
        Ok(changes
            .iter()
            .map(|c| change_line(c, &record, lang))
            .collect())
    }

    /// `/stats`: every game's leaderboard on this server (the top three each), or one game's
    /// top ten, each under the game's figures (games finished, average turn), with the
    /// viewer's own place when they are further down. Rates the pending games first.
    pub async fn stats_board(
        self,
        guild: Option<i64>,
        kind: Option<GameKind>,
        viewer: Option<i64>,
        lang: Lang,
    ) -> Result<String, ServiceError> {
        self.settle_ratings(guild).await?;
        let stats = self.core.store.stats(guild.unwrap_or(0)).await?;
        let kinds: Vec<GameKind> = match kind {
            Some(k) => vec![k],
            None => GameKind::ALL.to_vec(),
        };
        let mut boards = Vec::new();
        for k in kinds {
            let rows = ordered(self.core.store.ratings_of_kind(guild, k).await?);
            let counts = stats.iter().find(|s| s.kind == k);
            if rows.is_empty() && counts.is_none_or(|c| c.finished == 0) {
                continue;
            }
            let casual = counts.map_or(0, |c| c.casual);
            let header = Text::new(if casual > 0 {
                "bot.stats.game_casual"
            } else {
                "bot.stats.game"
            })
            .arg("game", format!("**{}**", k.display_name()))
            .arg("finished", counts.map_or(0, |c| c.finished))
            .arg("casual", casual)
            .arg(
                "avg",
                counts.and_then(|c| c.avg_turn_secs).map_or_else(
                    || "-".to_string(),
                    |s| super::output::human_duration(s, lang),
                ),
            )
            .render(lang);
            boards.push((header, rows));
        }
        if boards.is_empty() {
            return Ok(Text::new("ratings.none").render(lang));
        }
        let mut foot = vec![Text::new("ratings.footnote").render(lang)];
        if kind.is_none() {
            foot.push(Text::new("ratings.pick_game").render(lang));
        }
        let foot = foot.join("\n");
        // One message: every game's board, with fewer players each until it fits.
        let tops: &[usize] = if kind.is_some() { &[TOP] } else { &[3, 2, 1] };
        let mut text = String::new();
        for &top in tops {
            let mut parts: Vec<String> = boards
                .iter()
                .map(|(header, rows)| {
                    let mut lines = vec![header.clone()];
                    lines.extend(board_lines(rows, viewer, top, lang));
                    lines.join("\n")
                })
                .collect();
            parts.push(foot.clone());
            text = parts.join("\n\n");
            if text.chars().count() <= MESSAGE_CHARS {
                break;
            }
        }
        Ok(text)
    }

    /// `/stats user:`: one member's ratings on this server, a line per game with their place.
    pub async fn profile_text(
        self,
        guild: Option<i64>,
        user: i64,
        name: &str,
        lang: Lang,
    ) -> Result<String, ServiceError> {
        self.settle_ratings(guild).await?;
        let mine = self
            .core
            .store
            .ratings_of_player(guild, &user_key(user))
            .await?;
        let shown = escape_markdown(name);
        if mine.is_empty() {
            return Ok(Text::new("ratings.profile_none")
                .arg("who", shown)
                .render(lang));
        }
        let mut lines = vec![Text::new("ratings.profile_title")
            .arg("who", shown)
            .render(lang)];
        for row in &mine {
            if provisional(row.skill) {
                lines.push(
                    Text::new("ratings.profile_provisional")
                        .arg("game", row.kind.display_name())
                        .arg("left", games_to_place(row.skill))
                        .arg("rating", skill_text(row.skill, lang))
                        .arg("played", row.played)
                        .arg("rate", win_rate(row))
                        .render(lang),
                );
                continue;
            }
            let board: Vec<RatingRow> =
                ordered(self.core.store.ratings_of_kind(guild, row.kind).await?)
                    .into_iter()
                    .filter(|r| !provisional(r.skill))
                    .collect();
            let place = board
                .iter()
                .position(|r| r.player == row.player)
                .map_or(0, |i| i + 1);
            lines.push(
                Text::new("ratings.profile_line")
                    .arg("game", row.kind.display_name())
                    .arg("place", place)
                    .arg("of", board.len())
                    .arg("rating", skill_text(row.skill, lang))
                    .arg("played", row.played)
                    .arg("rate", win_rate(row))
                    .render(lang),
            );
        }
        lines.push(Text::new("ratings.footnote").render(lang));
        Ok(lines.join("\n"))
    }

    /// Every rating change of a server in the order made (the history the leaderboard is
    /// rebuilt from).
    pub async fn rating_history(
        self,
        guild: Option<i64>,
    ) -> Result<Vec<RatingChange>, ServiceError> {
        self.settle_ratings(guild).await?;
        Ok(self.core.store.rating_history(guild).await?)
    }
}

/// "Ann: 25.0 → 29.4 (+4.4)".
fn change_line(c: &RatingChange, record: &GameRecord, lang: Lang) -> String {
    let name = c
        .seat
        .and_then(|s| record.seats.get(s.index()))
        .map_or_else(String::new, |s| s.name.clone());
    let delta = c.after.mu - c.before.mu;
    let sign = if delta >= 0.0 { "+" } else { "−" };
    Text::new("ratings.change")
        .arg("who", who(&c.player, &name, lang))
        .arg("before", number(c.before.mu, lang))
        .arg("after", number(c.after.mu, lang))
        .arg("delta", format!("{sign}{}", number(delta.abs(), lang)))
        .render(lang)
}

/// Rebuilds every current rating of a server from its history of changes: each player's
/// last `after`, games played and won. A leaderboard can be recomputed from this alone.
pub fn replay_history(history: &[RatingChange]) -> Vec<(GameKind, String, Skill, i64, i64)> {
    let mut out: Vec<(GameKind, String, Skill, i64, i64)> = Vec::new();
    for c in history {
        match out
            .iter_mut()
            .find(|(k, p, ..)| *k == c.kind && *p == c.player)
        {
            Some(entry) => {
                entry.2 = c.after;
                entry.3 += 1;
                entry.4 += i64::from(c.won);
            }
            None => out.push((c.kind, c.player.clone(), c.after, 1, i64::from(c.won))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(mu: f64, sigma: f64) -> Skill {
        Skill { mu, sigma }
    }

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    /// The crate's own two-player cases (its `weng_lin` doc example and its test of two
    /// newcomers), through our multi-player entry point: the same figures.
    #[test]
    fn two_player_games_move_as_the_crate_documents() {
        let after = update(&[start(), start()], &[1, 2], &[]);
        assert!(
            (after[0].mu - 27.635_231_383_473_65).abs() < 1e-9,
            "{after:?}"
        );
        assert!((after[0].sigma - 8.065_506_316_323_548).abs() < 1e-9);
        assert!((after[1].mu - 22.364_768_616_526_35).abs() < 1e-9);
        assert!((after[1].sigma - 8.065_506_316_323_548).abs() < 1e-9);
        // The doc example: 42 ± 1.3 beats a newcomer.
        let after = update(&[skill(42.0, 1.3), start()], &[1, 2], &[]);
        assert_eq!(round2(after[0].mu), 42.03);
        assert_eq!(round2(after[0].sigma), 1.30);
        assert_eq!(round2(after[1].mu), 23.91);
        assert_eq!(round2(after[1].sigma), 8.03);
    }

    /// A draw between equals moves nobody's estimate and lowers both uncertainties.
    #[test]
    fn a_draw_between_equals_keeps_the_estimates() {
        let after = update(&[start(), start()], &[1, 1], &[]);
        for s in &after {
            assert!((s.mu - 25.0).abs() < 1e-9, "{s:?}");
            assert!(s.sigma < start().sigma);
        }
    }

    /// The crate's documented three-way free-for-all, one player per team, checked against
    /// its pairwise formula: the winner gains, the last loses, the middle sits between.
    #[test]
    fn a_three_player_game_orders_the_changes_by_place() {
        let before = [skill(25.0, 25.0 / 3.0); 3];
        let after = update(&before, &[2, 1, 3], &[]);
        assert!(
            after[1].mu > after[0].mu && after[0].mu > after[2].mu,
            "{after:?}"
        );
        // Symmetric: the middle player's wins and losses cancel out.
        assert!((after[0].mu - 25.0).abs() < 1e-9, "{after:?}");
        assert!((after[1].mu - 25.0 + (after[2].mu - 25.0)).abs() < 1e-9);
    }

    /// The documented multi-team example of `weng_lin_multi_team` (three teams of three,
    /// places 2, 1, 3), through our entry point with the players listed in seat order
    /// (teammates apart, as Vortex seats them): the crate's figures are ours.
    #[test]
    fn the_documented_multi_team_case_matches() {
        let new = start();
        // Seat order: team 0, 1, 2, 0, 1, 2, ...
        let before = [
            new,
            new,
            new,
            skill(30.0, 1.2),
            skill(41.0, 1.4),
            skill(29.4, 1.6),
            skill(21.0, 6.5),
            skill(19.2, 4.3),
            skill(17.2, 2.1),
        ];
        let ranks = [2, 1, 3, 2, 1, 3, 2, 1, 3];
        let teams: Vec<Option<u8>> = (0..9).map(|i| Some(i % 3)).collect();
        let after = update(&before, &ranks, &teams);
        assert_eq!(round2(after[0].mu), 25.38);
        assert_eq!(round2(after[4].mu), 41.08);
        assert_eq!(round2(after[8].mu), 16.99);
        // Teammates move together: every member of the winning team gains.
        assert!(after[1].mu > 25.0 && after[4].mu > 41.0 && after[7].mu > 19.2);
        // Rated as tied individuals instead, the figures differ (the sides are teams).
        let apart = update(&before, &ranks, &[]);
        assert_ne!(round2(apart[0].mu), 25.38);
    }

    #[test]
    fn the_leaderboard_orders_by_the_conservative_estimate() {
        let row = |p: &str, mu, sigma, played| RatingRow {
            kind: GameKind::Cortexcape,
            player: p.into(),
            user: None,
            name: p.into(),
            skill: skill(mu, sigma),
            played,
            wins: 0,
        };
        let rows = ordered(vec![
            row("lucky", 30.0, 8.0, 1),
            row("steady", 27.0, 2.0, 40),
            row("new", 25.0, 25.0 / 3.0, 0),
        ]);
        let order: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(order, ["steady", "lucky", "new"]);
        assert_eq!(number(31.25, Lang::Fr), "31,2");
        assert_eq!(win_rate(&row("x", 0.0, 0.0, 3)), 0);
    }
}
