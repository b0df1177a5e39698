//! A member's statistics for `/stats user:` beyond their ratings: how fast they play (the
//! median time to play a turn, by the hour the turn began), their favourite games, and their
//! rating history drawn as a small card (`render::profile`).
//!
//! Hours are read in the time zone of the member who asks, not of the member looked at: a
//! member's time zone is their own setting, and the reader wants the hours of their own day.

use super::output::human_duration;
use super::ratings::user_key;
use super::{Records, ServiceError};
use crate::clock::Zone;
use crate::engine::GameKind;
use crate::i18n::{Lang, Text};
use crate::render::profile::{render_profile, ProfileCard, Series};
use crate::store::{GameStatus, SeatedGame};

/// The most recent games a profile reads (a member's speed and favourites move slowly; this
/// keeps `/stats` to two queries of bounded size).
pub const PROFILE_GAMES: i64 = 200;

/// What `/stats user:` adds to the ratings: lines of text and the card.
#[derive(Clone, Debug)]
pub struct Profile {
    /// The speed and favourite-games lines, in the reader's language.
    pub lines: Vec<String>,
    /// The card (PNG): rating history and time to play by hour.
    pub card: Vec<u8>,
}

/// One turn the member played: when it began (the previous turn's last move) and how long it
/// took them (to their turn's last option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTime {
    pub began: i64,
    pub secs: i64,
}

/// The turns `seat` played in a game's kept moves: a run of options by one seat is one turn;
/// the game's first turn has no known start and is not counted.
pub fn turn_times(moves: &[(i64, i64)], seat: i64) -> Vec<TurnTime> {
    let runs = super::replay::runs_of_one_seat(moves, |m| m.0);
    runs.windows(2)
        .filter(|w| moves[w[1].0].0 == seat)
        .map(|w| {
            let began = moves[w[0].1 - 1].1;
            let end = moves[w[1].1 - 1].1;
            TurnTime {
                began,
                secs: (end - began).max(0),
            }
        })
        .collect()
}

/// The median of `values` (the lower middle of an even count); `None` when empty.
pub fn median(values: &mut [i64]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    Some(values[(values.len() - 1) / 2])
}

/// The median time to play of the turns begun in each hour of the day in `zone`.
pub fn medians_by_hour(turns: &[TurnTime], zone: Zone) -> [Option<i64>; 24] {
    let mut by_hour: [Vec<i64>; 24] = Default::default();
    for t in turns {
        by_hour[usize::from(zone.minute_of_day(t.began) / 60) % 24].push(t.secs);
    }
    by_hour.map(|mut v| median(&mut v))
}

/// Games per kind, most played first (ties in the registry's order), finished or running.
pub fn favourites(games: &[SeatedGame]) -> Vec<(GameKind, usize)> {
    let played = |kind: GameKind| {
        games
            .iter()
            .filter(|g| g.kind == kind)
            .filter(|g| matches!(g.status, GameStatus::Finished | GameStatus::Active))
            .count()
    };
    let mut out: Vec<(GameKind, usize)> = GameKind::ALL
        .iter()
        .map(|&k| (k, played(k)))
        .filter(|(_, n)| *n > 0)
        .collect();
    // A stable sort: equal counts stay in the registry's order.
    out.sort_by_key(|k| std::cmp::Reverse(k.1));
    out
}

impl Records<'_> {
    /// `/stats user:`'s speed, favourites and card for member `user` (shown as `name`) on a
    /// server, read by `viewer` (whose time zone the hours are in) in `lang`.
    pub async fn profile(
        self,
        guild: Option<i64>,
        user: i64,
        name: &str,
        viewer: i64,
        lang: Lang,
    ) -> Result<Profile, ServiceError> {
        self.settle_ratings(guild).await?;
        let store = &self.core.store;
        let games = store
            .seated_games_with_moves(guild, user, PROFILE_GAMES)
            .await?;
        let history = store
            .rating_changes_of_player(guild, &user_key(user))
            .await?;
        let zone_name = store
            .user_settings(viewer)
            .await?
            .timezone
            .unwrap_or_else(|| "UTC".to_string());
        let zone = Zone::of(Some(&zone_name));

        let turns: Vec<TurnTime> = games
            .iter()
            .flat_map(|g| turn_times(&g.moves, g.seat))
            .collect();
        let hours = medians_by_hour(&turns, zone);
        let mut all: Vec<i64> = turns.iter().map(|t| t.secs).collect();
        let overall = median(&mut all);

        let mut lines = Vec::new();
        let quickest = hours
            .iter()
            .enumerate()
            .filter_map(|(h, m)| m.map(|m| (m, h)))
            .min();
        lines.push(match (overall, quickest) {
            (Some(m), Some((_, hour))) => Text::new("ratings.profile_speed")
                .arg("time", human_duration(m, lang))
                .arg("n", all.len())
                .arg("hour", hour)
                .arg("zone", zone_name.clone())
                .render(lang),
            _ => Text::new("ratings.profile_speed_none").render(lang),
        });
        let favourite = favourites(&games);
        if !favourite.is_empty() {
            let list: Vec<String> = favourite
                .iter()
                .take(3)
                .map(|(k, n)| {
                    Text::new("ratings.profile_favourite")
                        .arg("game", k.display_name())
                        .arg("n", *n)
                        .render(lang)
                })
                .collect();
            lines.push(
                Text::new("ratings.profile_favourites")
                    .arg("list", list.join(" · "))
                    .render(lang),
            );
        }

        let mut series: Vec<Series> = Vec::new();
        for kind in GameKind::ALL.iter().copied() {
            // From the rating they started at, then after each game.
            let mut changes = history.iter().filter(|c| c.kind == kind).peekable();
            let start = changes.peek().map(|c| c.before.mu);
            let points: Vec<f64> = start
                .into_iter()
                .chain(changes.map(|c| c.after.mu))
                .collect();
            if !points.is_empty() {
                series.push(Series {
                    name: kind.display_name().to_string(),
                    points,
                });
            }
        }
        let most = hours.iter().flatten().copied().max().unwrap_or(0);
        let card = ProfileCard {
            title: Text::new("ratings.card_title")
                .arg("who", name)
                .render(lang),
            rating_heading: Text::new("ratings.card_rating").render(lang),
            series,
            no_rating: Text::new("ratings.card_no_rating").render(lang),
            hours_heading: Text::new("ratings.card_hours")
                .arg("zone", zone_name)
                .render(lang),
            hours,
            hours_top: human_duration(most, lang),
            no_hours: Text::new("ratings.card_no_hours").render(lang),
            footer: match overall {
                Some(m) => Text::new("ratings.card_footer")
                    .arg("time", human_duration(m, lang))
                    .arg("n", all.len())
                    .render(lang),
                None => String::new(),
            },
        };
        let png = super::core::rendering(move || super::encode_png(&render_profile(&card))).await?;
        Ok(Profile { lines, card: png })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_a_run_of_one_seats_options_timed_from_the_previous_turn() {
        // Seat 0 opens (not timed), seat 1 plays two options, seat 0, seat 1.
        let moves = [(0, 100), (1, 160), (1, 400), (0, 460), (1, 1000)];
        assert_eq!(
            turn_times(&moves, 1),
            vec![
                TurnTime {
                    began: 100,
                    secs: 300
                },
                TurnTime {
                    began: 460,
                    secs: 540
                }
            ]
        );
        assert_eq!(
            turn_times(&moves, 0),
            vec![TurnTime {
                began: 400,
                secs: 60
            }]
        );
        assert!(turn_times(&[], 0).is_empty());
    }

    #[test]
    fn medians_are_taken_per_hour_of_the_readers_day() {
        assert_eq!(median(&mut [5, 1, 3]), Some(3));
        assert_eq!(median(&mut [4, 1, 3, 2]), Some(2));
        assert_eq!(median(&mut []), None);
        // 23:30 UTC is 00:30 in Paris in winter (the dates below are in January).
        let at = 1_767_223_800; // 2025-12-31 23:30 UTC
        let turns = [
            TurnTime {
                began: at,
                secs: 60,
            },
            TurnTime {
                began: at + 60,
                secs: 120,
            },
            TurnTime {
                began: at + 60,
                secs: 600,
            },
        ];
        let utc = medians_by_hour(&turns, Zone::UTC);
        assert_eq!(utc[23], Some(120));
        assert_eq!(utc[0], None);
        let paris = medians_by_hour(&turns, Zone::named("Europe/Paris").expect("zone"));
        assert_eq!(paris[0], Some(120));
        assert_eq!(paris[23], None);
    }
}
