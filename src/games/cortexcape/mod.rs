//! Cortexcape (placeholder while the rules land).
pub mod render;
pub mod state;
pub mod view;

use crate::engine::*;
use crate::i18n::Text;
use image::RgbaImage;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cortexcape {
    seats: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("not yet")]
    NotYet,
}
impl RuleErrorText for RuleError {
    fn text(&self) -> Text {
        Text::raw(self.to_string())
    }
}

impl Game for Cortexcape {
    type Action = ();
    type Event = ();
    type Error = RuleError;
    type PublicView = ();
    type PrivateView = ();
    const KIND: GameKind = GameKind::Cortexcape;
    const SCHEMA: u32 = 1;
    const MIN_SEATS: usize = 2;
    const MAX_SEATS: usize = 4;
    const LOWER_SCORE_WINS: bool = true;
    fn option_specs() -> Vec<OptionSpec> {
        vec![]
    }
    fn setup(_: &GameOptions, seats: usize, _: u64) -> Result<Self, SetupError> {
        Ok(Cortexcape { seats })
    }
    fn seat_count(&self) -> usize {
        self.seats
    }
    fn prompt(&self) -> Option<Prompt<()>> {
        None
    }
    fn apply(&mut self, _: Seat, _: &()) -> Result<Applied<()>, RuleError> {
        Err(RuleError::NotYet)
    }
    fn notation(&self, _: &()) -> String {
        String::new()
    }
    fn parse(&self, _: Seat, _: &str) -> Result<Vec<()>, Reject<RuleError>> {
        Err(Reject::Rule {
            token: None,
            error: RuleError::NotYet,
        })
    }
    fn notation_forms() -> Vec<&'static str> {
        vec![]
    }
    fn event_text(&self, _: &()) -> Text {
        Text::raw("")
    }
    fn public_view(&self) {}
    fn private_view(&self, _: Seat) -> Option<()> {
        None
    }
    fn render_public(_: &(), _: &RenderCtx) -> RgbaImage {
        RgbaImage::new(1, 1)
    }
    fn render_private(_: &(), _: &RenderCtx) -> RgbaImage {
        RgbaImage::new(1, 1)
    }
    fn public_summary(_: &(), _: &RenderCtx) -> String {
        String::new()
    }
    fn private_summary(_: &(), _: &RenderCtx) -> String {
        String::new()
    }
    fn scores(&self) -> Vec<i64> {
        vec![0; self.seats]
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
}
