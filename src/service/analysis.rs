//! "Where did I lose?" (issue 41, item 5): a player of a finished game asks for the two or
//! three turns where their own choices cost them most, each with the bots' preferred option,
//! the figures of the search that weighed both, and a small board of the position.
//!
//! Three steps, the last two pure: the game is replayed from its log to the seat's decisions
//! ([`positions`]); each is weighed from the seat's views only (`ai::analysis`, see there for
//! the measure) on a blocking thread, with a fixed budget and seeds from public facts, so the
//! same game always gives the same analysis ([`weigh`]); the answer is written and drawn from
//! the public board and the seat's own view at that moment ([`present`]). Nothing another seat
//! hid reaches it: `tests/suite/leaks.rs` (`analysis_twins_read_the_same`) checks that twins
//! differing only in other seats' hidden cards give byte-identical answers.

use super::output::encode_png;
use super::{Records, ServiceError};
use crate::ai::analysis::{
    assess_any, decision_seed, largest_drops, spread, AnalysisBudget, Assessment, MIN_DROP, SHOWN,
};
use crate::engine::{AnyGame, GameId, PlayError, RenderCtx, Seat};
use crate::i18n::{Lang, Text};
use crate::store::{GameRecord, GameStatus};
use image::RgbaImage;

/// Width of each board in an analysis: small enough for three in one private answer, large
/// enough to read on a phone.
pub const BOARD_WIDTH: u32 = 640;

/// Why an analysis is refused. Nothing was computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// Only a person seated in the game may ask for the analysis of their own play.
    #[error("not a player of game {0}")]
    NotAPlayer(GameId),
    /// The game is still a lobby or running.
    #[error("game {0} is not over")]
    NotOver(GameId),
    /// A cancelled game has no result to learn from.
    #[error("game {0} was cancelled")]
    Cancelled(GameId),
}

impl AnalysisError {
    pub fn text(&self) -> Text {
        match self {
            AnalysisError::NotAPlayer(g) => Text::new("analysis.not_player").arg("id", g.0),
            AnalysisError::NotOver(g) => Text::new("analysis.not_over").arg("id", g.0),
            AnalysisError::Cancelled(g) => Text::new("analysis.cancelled").arg("id", g.0),
        }
    }
}

/// One decision of the seat: the game just before it, the option taken, and the turn it
/// belongs to (turns are counted as in `/replay`: a run of options by one seat).
pub struct Position {
    pub state: Box<dyn AnyGame>,
    pub played: String,
    pub turn: usize,
    /// Its place in the game's move log (a seed of its search).
    pub index: usize,
}

/// The weighed decisions of one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighed {
    /// The seat's decisions with a choice in the game, and how many were weighed.
    pub decisions: usize,
    pub weighed: usize,
    /// Per weighed position (the index into the positions given): its assessment, if any.
    pub assessed: Vec<(usize, Assessment)>,
    /// The ones to show (indices into `assessed`), in the game's order.
    pub shown: Vec<usize>,
}

/// An analysis ready to send privately: its text and up to [`SHOWN`] boards.
#[derive(Clone, Debug)]
pub struct AnalysisPost {
    pub game: GameId,
    pub text: String,
    /// PNG images, each with its alt text.
    pub boards: Vec<(Vec<u8>, String)>,
}

/// The seat's decisions that had a choice in `moves` (seat and notation, in order) played
/// from `start` (the game as set up), and the states before `most` of them (spread over the
/// game) only. On a move that does not replay: its index and the refusal.
pub fn positions(
    start: &dyn AnyGame,
    moves: &[(Seat, String)],
    seat: Seat,
    most: usize,
) -> Result<(usize, Vec<Position>), (usize, PlayError)> {
    // The turn (from 1) of each move.
    let mut turns = vec![0; moves.len()];
    for (t, (first, end)) in super::replay::runs_of_one_seat(moves, |m| m.0)
        .into_iter()
        .enumerate()
    {
        turns[first..end].fill(t + 1);
    }
    // First pass: which moves were the seat's own choices.
    let mut game = start.clone_box();
    let mut choices = Vec::new();
    for (i, (by, notation)) in moves.iter().enumerate() {
        let asked = game
            .prompt()
            .is_some_and(|p| p.seat == seat && p.options.len() > 1);
        if asked && *by == seat {
            choices.push(i);
        }
        game.apply_notation(*by, notation).map_err(|e| (i, e))?;
    }
    let picked: Vec<usize> = spread(choices.len(), most)
        .into_iter()
        .map(|k| choices[k])
        .collect();
    // Second pass: the states before the picked moves.
    let mut game = start.clone_box();
    let mut out = Vec::with_capacity(picked.len());
    for (i, (by, notation)) in moves.iter().enumerate() {
        if out.len() == picked.len() {
            break;
        }
        if picked.binary_search(&i).is_ok() {
            out.push(Position {
                state: game.clone_box(),
                played: notation.clone(),
                turn: turns[i],
                index: i,
            });
        }
        game.apply_notation(*by, notation).map_err(|e| (i, e))?;
    }
    Ok((choices.len(), out))
}

/// Weighs each position for `seat` (CPU work: run it off the async threads) and picks the
/// largest drops. `decisions`: how many choices the seat had in the whole game.
pub fn weigh(
    game: GameId,
    seat: Seat,
    positions: &[Position],
    decisions: usize,
    budget: &AnalysisBudget,
) -> Weighed {
    let assessed: Vec<(usize, Assessment)> = positions
        .iter()
        .enumerate()
        .filter_map(|(k, p)| {
            let seed = decision_seed(game.0, seat, p.index);
            assess_any(p.state.as_ref(), seat, &p.played, budget.search, seed).map(|a| (k, a))
        })
        .collect();
    let drops: Vec<f64> = assessed.iter().map(|(_, a)| a.drop()).collect();
    Weighed {
        decisions,
        weighed: positions.len(),
        shown: largest_drops(&drops, SHOWN, MIN_DROP),
        assessed,
    }
}

/// A value in [0, 1] as a whole percentage.
fn percent(v: f64) -> i64 {
    // In [0, 100] after the clamp: the cast cannot overflow.
    #[allow(clippy::cast_possible_truncation)]
    let p = (v.clamp(0.0, 1.0) * 100.0).round() as i64;
    p
}

/// The answer in `lang`: a title, then each shown decision, or that the game was played well;
/// each shown decision's board (the public board then, and under it the seat's own view).
pub fn present(
    weighed: &Weighed,
    positions: &[Position],
    seat: Seat,
    ctx: &RenderCtx,
    game: GameId,
) -> AnalysisPost {
    let lang = ctx.lang;
    let kind = positions
        .first()
        .map_or_else(String::new, |p| p.state.kind().display_name().to_string());
    let mut lines = vec![Text::new("analysis.title")
        .arg("game", kind)
        .arg("id", game.0)
        .render(lang)];
    lines.push(
        Text::new("analysis.looked_at")
            .arg("n", weighed.decisions)
            .arg("weighed", weighed.weighed)
            .render(lang),
    );
    let mut boards = Vec::new();
    if weighed.shown.is_empty() {
        let key = if weighed.assessed.is_empty() {
            "analysis.nothing_to_weigh"
        } else {
            "analysis.played_well"
        };
        lines.push(Text::new(key).arg("drop", percent(MIN_DROP)).render(lang));
    }
    for (n, &k) in weighed.shown.iter().enumerate() {
        let (at, a) = &weighed.assessed[k];
        let Some(position) = positions.get(*at) else {
            continue;
        };
        lines.push(
            Text::new("analysis.turn")
                .arg("n", n + 1)
                .arg("turn", position.turn)
                .arg("played", a.played.clone())
                .arg("best", a.best.clone())
                .arg("options", a.options)
                .render(lang),
        );
        lines.push(
            Text::new("analysis.why")
                .arg("best", a.best.clone())
                .arg("best_pct", percent(a.best_value))
                .arg("played_pct", percent(a.played_value))
                .arg("drop", percent(a.best_value) - percent(a.played_value))
                .render(lang),
        );
        let png = encode_png(&board(position.state.as_ref(), seat, ctx));
        let alt = Text::new("analysis.board_alt")
            .arg("n", n + 1)
            .arg("turn", position.turn)
            .render(lang);
        boards.push((png, alt));
    }
    AnalysisPost {
        game,
        text: lines.join("\n"),
        boards,
    }
}

/// The position as the seat saw it: the public board, and the seat's own view under it (when
/// the game has one), both scaled to [`BOARD_WIDTH`].
pub fn board(state: &dyn AnyGame, seat: Seat, ctx: &RenderCtx) -> RgbaImage {
    let public = small(&state.render_public(ctx));
    let Some(own) = state.render_private(seat, ctx).map(|i| small(&i)) else {
        return public;
    };
    let mut out = RgbaImage::from_pixel(
        BOARD_WIDTH,
        public.height() + own.height(),
        image::Rgba([255, 255, 255, 255]),
    );
    image::imageops::replace(&mut out, &public, 0, 0);
    image::imageops::replace(&mut out, &own, 0, i64::from(public.height()));
    out
}

/// `img` scaled to [`BOARD_WIDTH`] wide (never up), its proportions kept.
fn small(img: &RgbaImage) -> RgbaImage {
    if img.width() <= BOARD_WIDTH {
        let mut out =
            RgbaImage::from_pixel(BOARD_WIDTH, img.height(), image::Rgba([255, 255, 255, 255]));
        image::imageops::replace(&mut out, img, 0, 0);
        return out;
    }
    let height = (u64::from(img.height()) * u64::from(BOARD_WIDTH) / u64::from(img.width())).max(1);
    let height = u32::try_from(height).unwrap_or(u32::MAX);
    image::imageops::resize(
        img,
        BOARD_WIDTH,
        height,
        image::imageops::FilterType::Triangle,
    )
}

/// The seat `user` may have analysed in game `record`, or why not.
fn seat_to_analyse(record: &GameRecord, user: i64) -> Result<Seat, AnalysisError> {
    let game = record.id;
    match record.status {
        GameStatus::Finished => {}
        GameStatus::Cancelled => return Err(AnalysisError::Cancelled(game)),
        GameStatus::Lobby | GameStatus::Active => return Err(AnalysisError::NotOver(game)),
    }
    record
        .seats
        .iter()
        .find(|s| !s.is_bot && s.user == Some(user))
        .map(|s| s.seat)
        .ok_or(AnalysisError::NotAPlayer(game))
}

impl Records<'_> {
    /// Whether `user` may have their play in `game` analysed (one read of the game's row): a
    /// front end asks before it queues the work, so a refusal is never kept waiting.
    pub async fn analysis_seat(self, game: GameId, user: i64) -> Result<Seat, ServiceError> {
        let record = self.core.store.game(game).await?;
        Ok(seat_to_analyse(&record, user)?)
    }

    /// The analysis of `user`'s own play in finished game `game`, in `lang` (see the module).
    /// Only a person seated in it may ask; a cancelled game has none.
    pub async fn analysis(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
        budget: AnalysisBudget,
    ) -> Result<AnalysisPost, ServiceError> {
        let record = self.core.store.game(game).await?;
        let seat = seat_to_analyse(&record, user)?;
        let moves = self.core.store.moves(game).await?;
        let ctx = RenderCtx {
            lang,
            names: record.seats.iter().map(|s| s.name.clone()).collect(),
            stopped: false,
            number: Some(game.0),
        };
        let start = super::rebuild(&record, &[]).map_err(|(_, error)| ServiceError::Replay {
            game,
            seq: -1,
            error,
        })?;
        let log: Vec<(Seat, String)> = moves.iter().map(|m| (m.seat, m.notation.clone())).collect();
        super::core::rendering(move || {
            let (decisions, positions) = positions(start.as_ref(), &log, seat, budget.decisions)
                .map_err(|(i, error)| ServiceError::Replay {
                    game,
                    seq: moves.get(i).map_or(-1, |m| m.seq),
                    error,
                })?;
            let weighed = weigh(game, seat, &positions, decisions, &budget);
            Ok(present(&weighed, &positions, seat, &ctx, game))
        })
        .await?
    }
}
