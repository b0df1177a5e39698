//! The type-erased face of a game: the service, the store and every front end see only this.
//! Options travel as notation strings, events as localizable texts, state as versioned JSON.

use crate::render::zoom::Region;
use image::RgbaImage;
use serde::{Deserialize, Serialize};

use super::game::{
    Game, LineKeeps, Outcome, ParseError, Present, Reject, RenderCtx, ResultDetails, RuleErrorText,
    Secrecy,
};
use super::{GameKind, Seat, Version};
use crate::i18n::Text;

/// The pending decision with options as canonical notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PromptInfo {
    pub seat: Seat,
    pub kind: &'static str,
    pub text: Text,
    pub options: Vec<String>,
    /// The options name hidden things (cards in the decider's hand): show them to that seat
    /// only (an ephemeral reply, a DM), never on the public board (`secrecy` is `Hand`).
    pub private: bool,
    /// Who may see these options and the option taken, and from when.
    pub secrecy: Secrecy,
}

/// One atomic option that was applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppliedMove {
    pub seat: Seat,
    /// Canonical notation: what the move log stores and replays.
    pub notation: String,
    pub barrier: bool,
    /// It revealed randomness or hidden information ([`crate::engine::Applied::revealed`]).
    pub revealed: bool,
    pub events: Vec<Text>,
}

/// Why an input was refused. Nothing changed, except after [`PlayError::Stopped`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn: waiting for {waiting_for}")]
    NotYourTurn { waiting_for: Seat },
    #[error("the board changed (version {found}, you saw {expected})")]
    Stale { expected: Version, found: Version },
    #[error("nothing was typed")]
    Empty,
    #[error("part {segment}: {error}")]
    Parse { segment: usize, error: ParseError },
    #[error("part {segment} `{input}`: {reason}")]
    Illegal {
        segment: usize,
        /// The failing token of a macro (`path 13 14` fails at token 2), if that applies.
        token: Option<usize>,
        input: String,
        reason: Text,
    },
    #[error("nothing to undo: {reason}")]
    CannotUndo { reason: Text },
    /// A typed line stopped at a refused part after some of it was played, and that part
    /// stands, as the game's [`Game::LINE_KEEPS`] says: up to a barrier the line crossed
    /// (what it revealed cannot be taken back), or every part before the refused one.
    /// The one error after which the game changed: `kept` must be stored like played moves.
    #[error("{refused} (the line was played up to part {played_through})")]
    Stopped {
        kept: Vec<AppliedMove>,
        /// The last `;` part that was played (wholly or, for a macro, up to its barrier).
        played_through: usize,
        refused: Box<PlayError>,
    },
}

impl PlayError {
    /// The localizable message for the player.
    pub fn text(&self) -> Text {
        match self {
            PlayError::GameOver => Text::new("core.error.game_over"),
            PlayError::NotYourTurn { waiting_for } => {
                Text::new("core.error.not_your_turn").arg("seat", *waiting_for)
            }
            PlayError::Stale { .. } => Text::new("core.error.stale"),
            PlayError::Empty => Text::new("core.error.empty"),
            // The parse message already quotes what could not be read.
            PlayError::Parse { error, .. } => error.text(),
            PlayError::Illegal {
                segment,
                token,
                input,
                reason,
            } => match token {
                Some(t) => Text::new("core.error.in_part_token")
                    .arg("part", *segment)
                    .arg("token", *t)
                    .arg("input", input.clone())
                    .arg("reason", reason.clone()),
                None => Text::new("core.error.in_part")
                    .arg("part", *segment)
                    .arg("input", input.clone())
                    .arg("reason", reason.clone()),
            },
            PlayError::CannotUndo { reason } => reason.clone(),
            PlayError::Stopped {
                played_through,
                refused,
                ..
            } => Text::new("core.error.line_stopped")
                .arg("part", *played_through)
                .arg("reason", refused.text()),
        }
    }
}

/// Stored state could not be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("unknown game kind `{0}`")]
    UnknownKind(String),
    #[error("{kind} state has schema {found}, this build reads schema {expected}")]
    Schema {
        kind: GameKind,
        found: u32,
        expected: u32,
    },
    #[error("stored state is corrupt: {0}")]
    Corrupt(String),
}

/// The JSON envelope every stored state uses.
#[derive(Serialize, Deserialize)]
pub(crate) struct Envelope<S> {
    pub kind: String,
    pub schema: u32,
    pub state: S,
}

/// A game of any kind. Implemented for every [`Game`] that implements [`Present`].
pub trait AnyGame: Send + Sync + std::fmt::Debug {
    fn kind(&self) -> GameKind;
    fn seat_count(&self) -> usize;
    fn prompt(&self) -> Option<PromptInfo>;
    /// Plays a typed line (`;`-separated, macros allowed) for `seat`: all or nothing.
    fn play_line(&mut self, seat: Seat, line: &str) -> Result<Vec<AppliedMove>, PlayError>;
    /// Applies exactly one canonical option (replay, buttons). Same checks as `play_line`.
    fn apply_notation(&mut self, seat: Seat, notation: &str) -> Result<AppliedMove, PlayError>;
    fn scores(&self) -> Vec<i64>;
    fn outcome(&self) -> Option<Outcome>;
    /// See [`Game::team_of`].
    fn team_of(&self, seat: Seat) -> Option<u8>;
    /// How a finished game ended and each score broken down (see [`Present::result_details`]).
    fn result_details(&self) -> ResultDetails;
    /// Whether a lower score wins.
    fn lower_score_wins(&self) -> bool;
    fn to_json(&self) -> String;
    fn public_view_json(&self) -> serde_json::Value;
    fn private_view_json(&self, seat: Seat) -> Option<serde_json::Value>;
    fn render_public(&self, ctx: &RenderCtx) -> RgbaImage;
    fn render_private(&self, seat: Seat, ctx: &RenderCtx) -> Option<RgbaImage>;
    /// The Zoom answer for `viewer` (`None`: a spectator): the parts of the public board that
    /// matter to them at full size ([`Present::zoom_regions`]), with what each part shows.
    fn render_zoom(
        &self,
        ctx: &RenderCtx,
        viewer: Option<Seat>,
    ) -> Option<(RgbaImage, Vec<String>)>;
    /// The parts a Zoom answer cuts from the public board ([`Present::zoom_regions`]).
    fn zoom_regions(&self, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<Region>;
    fn public_summary(&self, ctx: &RenderCtx) -> String;
    fn private_summary(&self, seat: Seat, ctx: &RenderCtx) -> Option<String>;
    fn notation_forms(&self) -> Vec<&'static str>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// The setup's public events as texts (see [`Game::setup_events`]).
    fn setup_texts(&self) -> Vec<Text>;
    /// Takes the rule versions of `stored`, a stored state of the same game, for a replay
    /// from seed (see [`Game::keep_rules_of`]). A state that does not load changes nothing:
    /// loading it fails with its own error elsewhere.
    fn keep_rules_of_json(&mut self, stored: &str);
    /// The concrete game, for a layer above that knows the list of games
    /// (`games::visit`: the bots).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The canonical option that passes `seat`'s turn on a timeout, if the game allows it
    /// now (see [`Game::timeout_pass`]).
    fn timeout_pass(&self, _seat: Seat) -> Option<String> {
        None
    }
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

fn illegal<R: RuleErrorText>(
    segment: usize,
    input: &str,
    token: Option<usize>,
    e: &R,
) -> PlayError {
    PlayError::Illegal {
        segment,
        token,
        input: input.to_string(),
        reason: e.text(),
    }
}

/// Applies one action on `state` for `seat` after the turn checks.
fn apply_checked<G: Game>(
    state: &mut G,
    seat: Seat,
    action: &G::Action,
) -> Result<AppliedMove, Result<G::Error, PlayError>> {
    let prompt = state.prompt().ok_or(Err(PlayError::GameOver))?;
    if prompt.seat != seat {
        return Err(Err(PlayError::NotYourTurn {
            waiting_for: prompt.seat,
        }));
    }
    let notation = state.notation(action);
    let applied = state.apply(seat, action).map_err(Ok)?;
    let events = applied.events.iter().map(|e| state.event_text(e)).collect();
    Ok(AppliedMove {
        seat,
        notation,
        barrier: applied.barrier,
        revealed: applied.revealed,
        events,
    })
}

/// Plays a typed line on a copy and commits it whole, or, when a part is refused, what the
/// game's [`LineKeeps`] says must stand ([`PlayError::Stopped`]). `typed`: false for one
/// canonical option (buttons, replay), which is all or nothing.
fn run_line<G: Game>(
    game: &mut G,
    seat: Seat,
    line: &str,
    typed: bool,
) -> Result<Vec<AppliedMove>, PlayError> {
    let segments: Vec<&str> = line
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if segments.is_empty() {
        return Err(PlayError::Empty);
    }
    // Only the deciding seat may type, even a line that would expand to nothing.
    match Game::prompt(game) {
        None => return Err(PlayError::GameOver),
        Some(p) if p.seat != seat => {
            return Err(PlayError::NotYourTurn {
                waiting_for: p.seat,
            })
        }
        Some(_) => {}
    }
    let keeps = if typed {
        G::LINE_KEEPS
    } else {
        LineKeeps::Nothing
    };
    // Barriers stand in either keeping mode: played parts include them.
    let keep_barriers = keeps != LineKeeps::Nothing;
    let keep_parts = keeps == LineKeeps::PlayedParts;
    // Work on a copy: the line lands whole, or up to what must stand, or not at all.
    let mut work = game.clone();
    let mut moves = Vec::new();
    // The latest point that must stand: state, move count, part.
    let mut stand: Option<(G, usize, usize)> = None;
    let epoch = work.line_epoch();
    for (i, segment) in segments.iter().enumerate() {
        let part = i + 1;
        if Game::prompt(&work).is_none() {
            // An earlier part ended the game: what follows has nothing left to act on
            // (a winning `rot g ccw; end`), so it is dropped rather than refusing the win.
            break;
        }
        let played = if work.line_epoch() == epoch {
            play_segment(&mut work, seat, part, segment, &mut moves, |w, n| {
                if keep_barriers {
                    stand = Some((w.clone(), n, part));
                }
            })
        } else {
            // The turn the line was typed for is over, even if this seat plays next.
            Err(PlayError::Illegal {
                segment: part,
                token: None,
                input: (*segment).to_string(),
                reason: Text::new("core.error.turn_over"),
            })
        };
        if keep_parts && part > 1 {
            stand = Some((work.clone(), moves.len(), part - 1));
        }
        if let Err(refused) = played {
            return match stand.filter(|(_, count, _)| *count > 0) {
                Some((state, count, played_through)) => {
                    *game = state;
                    moves.truncate(count);
                    Err(PlayError::Stopped {
                        kept: moves,
                        played_through,
                        refused: Box::new(refused),
                    })
                }
                None => Err(refused),
            };
        }
    }
    if !typed && moves.len() != 1 {
        // A macro or several parts where one canonical option was expected (replay,
        // buttons): refused before anything is committed.
        return Err(PlayError::Parse {
            segment: 1,
            error: ParseError::new(1, line, vec!["one option".into()]),
        });
    }
    *game = work;
    Ok(moves)
}

/// Parses and applies one `;` part (a macro may expand to several options). `barrier` is
/// told the state and move count after each option that is a barrier.
fn play_segment<G: Game>(
    work: &mut G,
    seat: Seat,
    part: usize,
    segment: &str,
    moves: &mut Vec<AppliedMove>,
    mut barrier: impl FnMut(&G, usize),
) -> Result<(), PlayError> {
    let lowered = segment.to_ascii_lowercase();
    let actions = match work.parse(seat, &lowered) {
        Ok(a) => a,
        Err(Reject::Parse(error)) => {
            return Err(PlayError::Parse {
                segment: part,
                error,
            })
        }
        Err(Reject::Rule { token, error }) => return Err(illegal(part, segment, token, &error)),
    };
    let expanded = actions.len() > 1;
    for (j, action) in actions.iter().enumerate() {
        match apply_checked(work, seat, action) {
            Ok(m) => {
                let is_barrier = m.barrier;
                moves.push(m);
                if is_barrier {
                    barrier(work, moves.len());
                }
            }
            Err(Err(e)) => return Err(e),
            Err(Ok(rule)) => {
                let token = expanded.then_some(j + 1);
                return Err(illegal(part, segment, token, &rule));
            }
        }
    }
    Ok(())
}

impl<G: Game + Present> AnyGame for G {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn seat_count(&self) -> usize {
        Game::seat_count(self)
    }

    fn prompt(&self) -> Option<PromptInfo> {
        Game::prompt(self).map(|p| PromptInfo {
            seat: p.seat,
            kind: p.kind,
            text: p.text,
            options: p.options.iter().map(|o| self.notation(o)).collect(),
            private: self.secrecy().options_private(),
            secrecy: self.secrecy(),
        })
    }

    fn play_line(&mut self, seat: Seat, line: &str) -> Result<Vec<AppliedMove>, PlayError> {
        run_line(self, seat, line, true)
    }

    fn apply_notation(&mut self, seat: Seat, notation: &str) -> Result<AppliedMove, PlayError> {
        // One canonical option: all or nothing, and exactly one (checked before committing).
        let mut moves = run_line(self, seat, notation, false)?;
        moves.pop().ok_or(PlayError::Empty)
    }

    fn scores(&self) -> Vec<i64> {
        Game::scores(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn team_of(&self, seat: Seat) -> Option<u8> {
        Game::team_of(self, seat)
    }

    fn result_details(&self) -> ResultDetails {
        Present::result_details(self)
    }

    fn lower_score_wins(&self) -> bool {
        G::LOWER_SCORE_WINS
    }

    fn to_json(&self) -> String {
        let env = Envelope {
            kind: G::KIND.id().to_string(),
            schema: G::SCHEMA,
            state: self,
        };
        // Game states are plain data (no maps with non-string keys), so this cannot fail.
        serde_json::to_string(&env).unwrap_or_default()
    }

    fn public_view_json(&self) -> serde_json::Value {
        serde_json::to_value(self.public_view()).unwrap_or_default()
    }

    fn private_view_json(&self, seat: Seat) -> Option<serde_json::Value> {
        self.private_view(seat)
            .map(|v| serde_json::to_value(v).unwrap_or_default())
    }

    fn render_public(&self, ctx: &RenderCtx) -> RgbaImage {
        G::render_public(&self.public_view(), ctx)
    }

    fn render_private(&self, seat: Seat, ctx: &RenderCtx) -> Option<RgbaImage> {
        self.private_view(seat).map(|v| G::render_private(&v, ctx))
    }

    fn render_zoom(
        &self,
        ctx: &RenderCtx,
        viewer: Option<Seat>,
    ) -> Option<(RgbaImage, Vec<String>)> {
        let view = self.public_view();
        let board = G::render_public(&view, ctx);
        crate::render::zoom::compose(&board, &G::zoom_regions(&view, ctx, viewer))
    }

    fn zoom_regions(&self, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<Region> {
        G::zoom_regions(&self.public_view(), ctx, viewer)
    }

    fn public_summary(&self, ctx: &RenderCtx) -> String {
        G::public_summary(&self.public_view(), ctx)
    }

    fn private_summary(&self, seat: Seat, ctx: &RenderCtx) -> Option<String> {
        self.private_view(seat).map(|v| G::private_summary(&v, ctx))
    }

    fn notation_forms(&self) -> Vec<&'static str> {
        G::notation_forms()
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn setup_texts(&self) -> Vec<Text> {
        Game::setup_events(self)
            .iter()
            .map(|e| self.event_text(e))
            .collect()
    }

    fn keep_rules_of_json(&mut self, stored: &str) {
        if let Ok(env) = serde_json::from_str::<Envelope<G>>(stored) {
            if env.kind == G::KIND.id() && env.schema == G::SCHEMA {
                self.keep_rules_of(&env.state);
            }
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn timeout_pass(&self, seat: Seat) -> Option<String> {
        Game::timeout_pass(self, seat).map(|a| self.notation(&a))
    }
}

/// Reads a stored envelope for game type `G`.
pub(crate) fn load_state<G: Game + Present>(json: &str) -> Result<Box<dyn AnyGame>, LoadError> {
    #[derive(Deserialize)]
    struct Head {
        schema: u32,
    }
    let head: Head = serde_json::from_str(json).map_err(|e| LoadError::Corrupt(e.to_string()))?;
    if head.schema != G::SCHEMA {
        return Err(LoadError::Schema {
            kind: G::KIND,
            found: head.schema,
            expected: G::SCHEMA,
        });
    }
    let env: Envelope<G> =
        serde_json::from_str(json).map_err(|e| LoadError::Corrupt(e.to_string()))?;
    Ok(Box::new(env.state))
}

/// Plays seeded random legal options until the game ends or `max_steps` options were played;
/// returns whether it ended. For tests, benches and demos: a finished game of any kind.
pub fn play_out(game: &mut dyn AnyGame, seed: u64, max_steps: usize) -> bool {
    let mut rng = super::GameRng::seed_from_u64(seed);
    for _ in 0..max_steps {
        let Some(prompt) = game.prompt() else {
            return true;
        };
        if prompt.options.is_empty() {
            return false;
        }
        let pick = prompt.options[rng.gen_range(0..prompt.options.len())].clone();
        if game.apply_notation(prompt.seat, &pick).is_err() {
            return false;
        }
    }
    game.prompt().is_none()
}
