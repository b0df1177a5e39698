//! The contract every game implements (see ARCHITECTURE.md, "Engine contract").

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

use super::turn::Forced;
use super::{GameKind, Seat};
use crate::i18n::{Lang, Text};
use crate::render::zoom::Region;
use image::RgbaImage;

/// Game options as chosen at `/play` or on the command line: key -> value, both lower-case.
/// Each game parses and validates them in `setup`; unknown keys are refused there.
pub type GameOptions = BTreeMap<String, String>;

/// Describes one option of a game, for `/play`, the local table and help texts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    pub key: &'static str,
    /// Allowed values, in display order.
    pub values: Vec<&'static str>,
    pub default: &'static str,
    /// Catalog key of a one-line description.
    pub help: &'static str,
}

/// The pending decision: who decides, what kind of decision, and every legal option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt<A> {
    pub seat: Seat,
    /// Stable snake_case id of the prompt kind, e.g. `place_cylinder`.
    pub kind: &'static str,
    /// What is being asked, for people ("Choose the piece for door 5").
    pub text: Text,
    /// Every legal option, in canonical order. Never empty.
    pub options: Vec<A>,
}

/// Who may see a pending decision and the option taken for it, and from when (issue 36).
/// Every game declares it for each prompt ([`Game::secrecy`]); every public output (the
/// board, `/history`, replays, the GIF, the table's `--json`) obeys it through
/// [`Secrecy::hides_choice`], so a secret is never a rule written in one front end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Secrecy {
    /// Everyone may see the options and the option taken.
    #[default]
    Public,
    /// The options name what only the deciding seat sees (the cards of its hand, Projects
    /// it looks at): they are offered to that seat alone, and the option taken is written
    /// out to the others only through its events, which say what the rules make public.
    Hand,
    /// A secret choice among options everyone may see (a ballot): the others learn that a
    /// choice was made, never which, until the [`Reveal`].
    Sealed(Reveal),
}

/// When a secret choice may be written out to everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reveal {
    /// Only its effects ever become public (the events say what they are).
    Never,
    /// Once the game is over (finished, resigned or cancelled).
    GameEnd,
}

impl Secrecy {
    /// Whether the options may be shown to the deciding seat only.
    #[must_use]
    pub fn options_private(self) -> bool {
        self == Secrecy::Hand
    }

    /// Whether the option taken under this secrecy is hidden from someone who is not the
    /// seat that took it, while the game is (`over = false`) or is no longer (`true`) running.
    #[must_use]
    pub fn hides_choice(self, over: bool) -> bool {
        match self {
            Secrecy::Public => false,
            Secrecy::Hand | Secrecy::Sealed(Reveal::Never) => true,
            Secrecy::Sealed(Reveal::GameEnd) => !over,
        }
    }
}

/// What applying one option did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied<E> {
    pub events: Vec<E>,
    /// True when this option revealed randomness or hidden information, or ended the seat's
    /// turn: undo may not go back past it.
    pub barrier: bool,
    /// True when this option revealed randomness or hidden information to anyone (a card
    /// drawn, even into one's own hand; a deck reshuffled; a random pick; sealed votes
    /// shown; a hidden card or panel face shown). Merely ending a turn is not a reveal, nor
    /// casting a sealed choice nobody saw. Implies `barrier`: nothing, not even an agreed
    /// take-back, may go back past it.
    pub revealed: bool,
}

impl<E> Applied<E> {
    /// What an option did: its events, whether it is a barrier and whether it revealed
    /// something (a reveal is always a barrier too).
    pub fn new(events: Vec<E>, barrier: bool, revealed: bool) -> Applied<E> {
        Applied {
            events,
            barrier: barrier || revealed,
            revealed,
        }
    }
}

/// Final result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Final score per seat (the game decides whether high or low is good).
    pub scores: Vec<i64>,
    /// Standard competition rank per seat: 1 is best, ties share a rank (1, 2, 2, 4).
    pub ranks: Vec<u8>,
    /// Seats ranked first. Empty for a draw where nobody wins (every seat tied).
    pub winners: Vec<Seat>,
    pub draw: bool,
}

impl Outcome {
    /// Builds ranks and winners from scores; `lower_is_better` for golf-like games.
    pub fn from_scores(scores: Vec<i64>, lower_is_better: bool) -> Outcome {
        let better = |a: i64, b: i64| if lower_is_better { a < b } else { a > b };
        let ranks: Vec<u8> = scores
            .iter()
            .map(|&s| {
                let ahead = scores.iter().filter(|&&o| better(o, s)).count();
                u8::try_from(ahead + 1).unwrap_or(u8::MAX)
            })
            .collect();
        let winners: Vec<Seat> = ranks
            .iter()
            .enumerate()
            .filter(|(_, &r)| r == 1)
            .map(|(i, _)| Seat::at(i))
            .collect();
        let draw = scores.len() > 1 && winners.len() == scores.len();
        Outcome {
            scores,
            ranks,
            winners: if draw { Vec::new() } else { winners },
            draw,
        }
    }
}

/// One part of a seat's final score (Space Lab's bottom row, Gates' runes, a Cortexcape
/// round), for the result card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScorePart {
    pub label: Text,
    pub points: i64,
}

/// A finished game explained, for the result card: how it was decided and what each seat's
/// score is made of. Everything here is public (it is shown in the channel).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ResultDetails {
    /// How the game ended ("the last monstrosity is loose", "the mouse reached the pantry").
    /// `None`: it ran its course and the scores decided.
    pub how: Option<Text>,
    /// Per seat, the parts of its final score in the game's own terms. Empty for a seat (or
    /// for every seat) when the total is all there is.
    pub parts: Vec<Vec<ScorePart>>,
}

/// Why a line of notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{found}` (token {token}); expected: {}", expected.join(" | "))]
pub struct ParseError {
    /// 1-based token index within the `;`-separated segment.
    pub token: usize,
    pub found: String,
    /// The forms that would have been understood here, e.g. `put <door> <kind>`.
    pub expected: Vec<String>,
}

impl ParseError {
    pub fn new(token: usize, found: impl Into<String>, expected: Vec<String>) -> ParseError {
        ParseError {
            token,
            found: found.into(),
            expected,
        }
    }

    pub fn text(&self) -> Text {
        Text::new("core.error.parse")
            .arg("found", self.found.clone())
            .arg("expected", self.expected.join(" | "))
    }
}

/// A per-game rule error: a small enum whose messages a player understands.
pub trait RuleErrorText: std::error::Error + Clone + Debug + Send + Sync + 'static {
    fn text(&self) -> Text;
}

/// Why a typed segment was refused before or while it was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reject<R> {
    Parse(ParseError),
    /// A rule refuses it; `token` is the 1-based token of a macro that failed, if any.
    Rule {
        token: Option<usize>,
        error: R,
    },
}

impl<R> From<ParseError> for Reject<R> {
    fn from(e: ParseError) -> Self {
        Reject::Parse(e)
    }
}

/// Everything the renderer and the text summary need besides the view: language and names.
#[derive(Clone, Debug, Default)]
pub struct RenderCtx {
    pub lang: Lang,
    /// Display name per seat.
    pub names: Vec<String>,
    /// The game was stopped before its own end (a resignation, a cancel): its last position
    /// may still ask a seat to decide, but nothing shows it as anyone's turn any more.
    pub stopped: bool,
    /// The game's number, shown after its name in the board's header (`None`: a board drawn
    /// outside a stored game, as in tests and benchmarks).
    pub number: Option<i64>,
}

impl RenderCtx {
    /// The caption of a seat's area in a Zoom answer: whose it is, and whether it is theirs to
    /// play now.
    pub fn zoom_caption(&self, seat: Seat, viewer: Option<Seat>, to_act: Option<Seat>) -> String {
        let key = match (viewer == Some(seat), to_act == Some(seat)) {
            (true, true) => "render.zoom.you_to_play",
            (true, false) => "render.zoom.you",
            (false, true) => "render.zoom.to_play",
            (false, false) => return self.name(seat),
        };
        Text::new(key)
            .arg("name", self.name(seat))
            .render(self.lang)
    }

    /// Zoom parts of a board drawn as a square-ish board with a side panel on its right (Vortex,
    /// Cortexcape): the panel (from `panel_x` to the image's `width`), then the board's left
    /// and right halves, overlapping by `overlap` around its middle, all `height` tall.
    pub fn zoom_panel_and_halves(
        &self,
        (panel_x, width): (f32, f32),
        board_w: f32,
        height: f32,
        overlap: f32,
    ) -> Vec<Region> {
        let half = board_w / 2.0;
        vec![
            Region::new(
                self.zoom_text("status"),
                panel_x,
                0.0,
                width - panel_x,
                height,
            ),
            Region::new(
                self.zoom_text("board_left"),
                0.0,
                0.0,
                half + overlap,
                height,
            ),
            Region::new(
                self.zoom_text("board_right"),
                half - overlap,
                0.0,
                half + overlap,
                height,
            ),
        ]
    }

    /// A Zoom caption from the `render.zoom` catalog section.
    pub fn zoom_text(&self, key: &str) -> String {
        Text::new(format!("render.zoom.{key}")).render(self.lang)
    }

    pub fn name(&self, seat: Seat) -> String {
        self.names.get(seat.index()).cloned().unwrap_or_else(|| {
            Text::new("core.seat")
                .arg("n", seat.index() + 1)
                .render(self.lang)
        })
    }
}

/// A game's rules: a deterministic state machine. The state type itself implements this trait;
/// what people see of it is [`Present`], what bots need of it is [`BotHooks`](super::BotHooks).
///
/// Invariants every implementation keeps (tested by the shared playout tests):
/// - `prompt` is `None` exactly when `outcome` is `Some`;
/// - every option `prompt` lists applies without error;
/// - `apply` that fails leaves the state unchanged;
/// - `parse(notation(o))` gives back `[o]` for every listed option `o`;
/// - an option `forced` returns is one its prompt lists (so it applies);
/// - all randomness comes from the RNG in the state.
pub trait Game: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    type Action: Clone + Debug + PartialEq + Send + Sync;
    type Event: Clone + Debug + PartialEq + Send + Sync;
    type Error: RuleErrorText;

    const KIND: GameKind;
    /// Bumped when the serialized state changes shape.
    const SCHEMA: u32;
    const MIN_SEATS: usize;
    const MAX_SEATS: usize;
    /// Whether a lower score wins (Cortexcape) or a higher one.
    const LOWER_SCORE_WINS: bool;
    /// What stands of a typed `;` line when one of its parts is refused (its spec says).
    const LINE_KEEPS: LineKeeps = LineKeeps::Nothing;

    fn option_specs() -> Vec<OptionSpec>;

    fn setup(options: &GameOptions, seats: usize, seed: u64) -> Result<Self, SetupError>;

    fn seat_count(&self) -> usize;

    /// The pending decision, or `None` when the game is over.
    fn prompt(&self) -> Option<Prompt<Self::Action>>;

    /// Applies one atomic option for `seat`, then every option the rules take by themselves
    /// after it ([`Game::forced`]), as one step: what the engine, the bots and the tests call.
    /// The engine's turn flow (`engine::turn`); a game writes [`Game::apply_one`].
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Applied<Self::Event>, Self::Error> {
        super::turn::apply_then_forced(self, seat, action)
    }

    /// Applies one atomic option for `seat`, a player's or a forced one. On error nothing
    /// changed.
    fn apply_one(
        &mut self,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Applied<Self::Event>, Self::Error>;

    /// The option the rules take by themselves now, and the seat it is taken for: a decision
    /// nobody is asked, because it has one legal option (or the rules say which one, like
    /// Space Lab's payment with exactly the cards due). `None` (the default): whatever is
    /// pending is asked. [`Game::apply`] takes these after every option until there is none,
    /// in the same step, through [`Game::apply_forced`] (the move log keeps only the option
    /// played).
    fn forced(&self) -> Option<(Seat, Self::Action)> {
        None
    }

    /// Applies a forced option (what [`Game::forced`] returned, so it need not check) the way
    /// this game takes an option nobody chose: the turn flow's one hook for it. The default
    /// is [`Game::apply_one`], events as they are. A game overrides it to mark the events
    /// (Cortexcape's `auto`, Gates' and Space Lab's `Auto` event first), to keep what a
    /// chosen option resets (Gates' highlight, Space Lab's and Portal's records of the
    /// options taken for a seat) or to count its barrier otherwise (Portal).
    fn apply_forced(
        &mut self,
        forced: &Forced<Self::Action>,
    ) -> Result<Applied<Self::Event>, Self::Error> {
        self.apply_one(forced.seat, &forced.action)
    }

    /// Canonical notation of an option.
    fn notation(&self, action: &Self::Action) -> String;

    /// Reads one `;`-free segment typed by `seat` against the current state (the engine hands it
    /// over lower-cased; `engine::notation` is the kit to read it with). A macro may expand
    /// into several atomic options; rules a macro breaks as a whole are reported here.
    fn parse(&self, seat: Seat, segment: &str) -> Result<Vec<Self::Action>, Reject<Self::Error>>;

    /// Every form the parser understands, for help and error messages.
    fn notation_forms() -> Vec<&'static str>;

    fn event_text(&self, event: &Self::Event) -> Text;

    /// Running score per seat.
    fn scores(&self) -> Vec<i64>;

    fn outcome(&self) -> Option<Outcome>;

    /// The team a seat plays in, when seats win or lose together (Vortex's teams of two):
    /// ratings rate a team as one side. `None` (the default) is a seat playing for itself.
    fn team_of(&self, _seat: Seat) -> Option<u8> {
        None
    }

    /// Who may see the pending prompt's options and the option taken ([`Secrecy`]): the
    /// default is everyone. A game answers for every prompt it asks; `tests/suite/leaks.rs` plays
    /// twins that differ in one secret choice and checks every public output hides it.
    fn secrecy(&self) -> Secrecy {
        Secrecy::Public
    }

    /// A typed `;` line stops as soon as this changes (the rest is refused as "your turn is
    /// over"). Gates returns its round: a new round may give the same seat the next turn, and
    /// its spec says a line never runs into a new turn.
    fn line_epoch(&self) -> u64 {
        0
    }

    /// A replay from seed sets a game up under today's rules; this takes back, from the stored
    /// state being replayed, the rules it was played under. A rule changed after games were
    /// stored is versioned in the state (a field that old states lack, read as the old rule),
    /// so a stored game replays exactly as it was played (see ARCHITECTURE.md). Only rules
    /// that setup itself does not use may be versioned this way. The default keeps nothing.
    fn keep_rules_of(&mut self, _stored: &Self) {}

    /// Public events of the setup itself (the game started, objectives dealt, the first
    /// round), shown with the first board. Only what everyone may see.
    fn setup_events(&self) -> Vec<Self::Event> {
        Vec::new()
    }

    /// The option that passes `seat`'s turn when its time runs out, if the rules let that
    /// seat pass now. `None` (the default): they do not, and the game's timeout policy falls
    /// back to a random legal option for the seat.
    fn timeout_pass(&self, _seat: Seat) -> Option<Self::Action> {
        None
    }
}

/// What people see of a game: its views (what may be shown to whom), the images and texts
/// drawn from them, and the result card's explanation.
pub trait Present: Game {
    /// What everyone may see. Has no field for anyone's hidden information.
    type PublicView: Clone + Debug + Serialize;
    /// What one seat may see besides the public view.
    type PrivateView: Clone + Debug + Serialize;

    fn public_view(&self) -> Self::PublicView;
    /// `None` when the game has nothing private for this seat.
    fn private_view(&self, seat: Seat) -> Option<Self::PrivateView>;

    fn render_public(view: &Self::PublicView, ctx: &RenderCtx) -> RgbaImage;
    fn render_private(view: &Self::PrivateView, ctx: &RenderCtx) -> RgbaImage;
    /// Zoom (phones): the parts of `render_public`'s image that matter to `viewer` now, most
    /// relevant first (their own area, where the game acts, what all share), each at most
    /// `render::zoom::MAX_WIDTH` pixels wide, captioned in `ctx`'s language. `viewer` is
    /// `None` for a spectator.
    fn zoom_regions(view: &Self::PublicView, ctx: &RenderCtx, viewer: Option<Seat>) -> Vec<Region>;

    /// A short text summary of the public view (alt text; the `board` command in the table).
    fn public_summary(view: &Self::PublicView, ctx: &RenderCtx) -> String;
    fn private_summary(view: &Self::PrivateView, ctx: &RenderCtx) -> String;

    /// A finished game explained for its result card: how it ended and each seat's score
    /// broken down (only what everyone may see). Called once the game is over; the default
    /// says nothing beyond the scores.
    fn result_details(&self) -> ResultDetails {
        ResultDetails::default()
    }
}

/// What stands of a typed `;` line when one of its parts is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKeeps {
    /// Nothing: the line lands whole or not at all.
    Nothing,
    /// Everything up to the last barrier the line crossed: in these games a barrier reveals
    /// something (a drawn card), which cannot be taken back, and a refusal must not let a
    /// player peek at a draw and then cancel.
    UpToBarrier,
    /// Every part before the refused one, as if the parts had been sent one by one.
    PlayedParts,
}

/// Setup refused: bad option, bad seat count, bad data file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{kind} needs {min} to {max} players, not {found}")]
    SeatCount {
        kind: GameKind,
        min: usize,
        max: usize,
        found: usize,
    },
    #[error("unknown option `{key}`; known: {}", known.join(", "))]
    UnknownOption { key: String, known: Vec<String> },
    #[error("option `{key}` cannot be `{value}`; allowed: {}", allowed.join(", "))]
    BadValue {
        key: String,
        value: String,
        allowed: Vec<String>,
    },
    #[error("{0}")]
    Invalid(String),
}

impl SetupError {
    pub fn text(&self) -> Text {
        match self {
            SetupError::SeatCount {
                kind,
                min,
                max,
                found,
            } => Text::new("core.error.seat_count")
                .arg("game", kind.display_name())
                .arg("min", *min)
                .arg("max", *max)
                .arg("found", *found),
            SetupError::UnknownOption { key, known } => Text::new("core.error.unknown_option")
                .arg("key", key.clone())
                .arg("known", known.join(", ")),
            SetupError::BadValue {
                key,
                value,
                allowed,
            } => Text::new("core.error.bad_value")
                .arg("key", key.clone())
                .arg("value", value.clone())
                .arg("allowed", allowed.join(", ")),
            SetupError::Invalid(s) => Text::raw(s.clone()),
        }
    }
}

/// Checks `options` against `specs`: refuses unknown keys and values, fills defaults.
pub fn resolve_options(
    specs: &[OptionSpec],
    options: &GameOptions,
) -> Result<BTreeMap<&'static str, String>, SetupError> {
    for key in options.keys() {
        if !specs.iter().any(|s| s.key == key) {
            return Err(SetupError::UnknownOption {
                key: key.clone(),
                known: specs.iter().map(|s| s.key.to_string()).collect(),
            });
        }
    }
    let mut out = BTreeMap::new();
    for spec in specs {
        let value = options
            .get(spec.key)
            .map_or(spec.default, String::as_str)
            .trim()
            .to_ascii_lowercase();
        if !spec.values.iter().any(|v| *v == value) {
            return Err(SetupError::BadValue {
                key: spec.key.to_string(),
                value,
                allowed: spec.values.iter().map(|v| (*v).to_string()).collect(),
            });
        }
        out.insert(spec.key, value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_lower_wins_with_ties() {
        let o = Outcome::from_scores(vec![14, 14, 16], true);
        assert_eq!(o.ranks, vec![1, 1, 3]);
        assert_eq!(o.winners, vec![Seat(0), Seat(1)]);
        assert!(!o.draw);
    }

    #[test]
    fn all_tied_is_a_draw() {
        let o = Outcome::from_scores(vec![5, 5, 5, 5], true);
        assert!(o.draw);
        assert!(o.winners.is_empty());
        assert_eq!(o.ranks, vec![1, 1, 1, 1]);
    }

    #[test]
    fn higher_wins_competition_ranking() {
        let o = Outcome::from_scores(vec![3, 9, 3, 1], false);
        assert_eq!(o.ranks, vec![2, 1, 2, 4]);
        assert_eq!(o.winners, vec![Seat(1)]);
    }
}
