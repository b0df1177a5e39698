//! One folder per game, each with the same files, and the registry that lists them. Pure: no
//! I/O, no Discord, no SQL.

pub mod cortexcape;
pub mod gates;
pub mod portal;
mod registry;
pub mod spacelab;
pub mod vortex;

pub use registry::{visit, GameVisitor};

/// The part of a game's `impl Present` that only forwards, the same in every game folder
/// because the names are: the views are the state's `build_public` and `build_private`, the
/// images `render::render_public`, `render::render_private` and `render::zoom_regions`, the
/// texts `view::public_summary` and `view::private_summary`. Written inside the impl, next to
/// what each game says in its own way (`result_details`). `(public)` is a game with nothing
/// private (`PrivateView = ()`, no image, no text); `(public, private)` one with hands.
macro_rules! present_via_modules {
    (public) => {
        type PublicView = view::PublicView;
        type PrivateView = ();

        fn private_view(&self, _seat: $crate::engine::Seat) -> Option<()> {
            None
        }

        fn render_private(_view: &(), _ctx: &$crate::engine::RenderCtx) -> ::image::RgbaImage {
            ::image::RgbaImage::new(1, 1)
        }

        fn private_summary(_view: &(), _ctx: &$crate::engine::RenderCtx) -> String {
            String::new()
        }

        $crate::games::present_via_modules!(@public);
    };
    (public, private) => {
        type PublicView = view::PublicView;
        type PrivateView = view::PrivateView;

        fn private_view(&self, seat: $crate::engine::Seat) -> Option<view::PrivateView> {
            self.build_private(seat)
        }

        fn render_private(
            view: &view::PrivateView,
            ctx: &$crate::engine::RenderCtx,
        ) -> ::image::RgbaImage {
            render::render_private(view, ctx)
        }

        fn private_summary(view: &view::PrivateView, ctx: &$crate::engine::RenderCtx) -> String {
            view::private_summary(view, ctx)
        }

        $crate::games::present_via_modules!(@public);
    };
    (@public) => {
        fn public_view(&self) -> view::PublicView {
            self.build_public()
        }

        fn render_public(
            view: &view::PublicView,
            ctx: &$crate::engine::RenderCtx,
        ) -> ::image::RgbaImage {
            render::render_public(view, ctx)
        }

        fn zoom_regions(
            view: &view::PublicView,
            ctx: &$crate::engine::RenderCtx,
            viewer: Option<$crate::engine::Seat>,
        ) -> Vec<$crate::render::zoom::Region> {
            render::zoom_regions(view, ctx, viewer)
        }

        fn public_summary(view: &view::PublicView, ctx: &$crate::engine::RenderCtx) -> String {
            view::public_summary(view, ctx)
        }
    };
}
pub(crate) use present_via_modules;

#[cfg(test)]
mod tests {
    use crate::i18n::{lookup, Lang, Text};

    /// Every refusal of every game has words in both languages, its own or the `core.rule`
    /// wording it shares.
    #[test]
    fn every_rule_error_has_words_in_both_languages() {
        let texts: Vec<Text> = (super::cortexcape::RuleError::ALL.iter().map(|e| e.text()))
            .chain(super::gates::RuleError::ALL.iter().map(|e| e.text()))
            .chain(super::portal::RuleError::ALL.iter().map(|e| e.text()))
            .chain(super::spacelab::RuleError::ALL.iter().map(|e| e.text()))
            .chain(super::vortex::RuleError::ALL.iter().map(|e| e.text()))
            .collect();
        assert_eq!(texts.len(), 23 + 22 + 25 + 17 + 26);
        for t in texts {
            for lang in [Lang::En, Lang::Fr] {
                assert_ne!(lookup(lang, &t.key), t.key, "{lang:?}");
            }
        }
    }
}
