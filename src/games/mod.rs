//! One folder per game, each with the same files, and the registry that lists them. Pure: no
//! I/O, no Discord, no SQL.

pub mod cortexcape;
pub mod gates;
pub mod portal;
mod registry;
pub mod spacelab;
pub mod vortex;

pub use registry::{visit, GameVisitor};

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
