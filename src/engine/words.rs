//! How a lobby says a game's options: in words, in the lobby's language, not `key=value`.
//!
//! Each game's catalog has a `[words.<option>]` table: a short phrase per listed value, and
//! `other` (with `{value}`) for options that take open values (a round limit, a number of
//! routers, a colour order). A value made of several comma-separated items (Portal's seat
//! colours) gives `{value}` each item as said in `[words.<option>.each]`. Only options that
//! differ from their default are said; a lobby with none plays the standard rules.

use super::{GameKind, GameOptions, OptionSpec};
use crate::i18n::{self, Text};

/// The options of a lobby that differ from the game's defaults, each as a phrase, in the
/// game's own order. Empty: the standard rules.
pub fn option_words(kind: GameKind, options: &GameOptions) -> Vec<Text> {
    kind.option_specs()
        .iter()
        .filter_map(|spec| {
            let given = options.get(spec.key)?;
            let value = normalized(given);
            (value != normalized(spec.default)).then(|| option_phrase(kind, spec, &value))
        })
        .collect()
}

/// One option's value as a phrase (its key in the catalog, or `other` with the value).
pub fn option_phrase(kind: GameKind, spec: &OptionSpec, value: &str) -> Text {
    let base = format!("{}.words.{}", kind.id(), spec.key);
    let exact = format!("{base}.{value}");
    if i18n::has_key(&exact) {
        return Text::new(exact);
    }
    // A number, so the phrase's words agree with it ("1 round", "3 rounds").
    if let Ok(n) = value.parse::<i64>() {
        return Text::new(format!("{base}.other")).arg("value", n);
    }
    let items: Vec<Text> = value
        .split(',')
        .map(|item| {
            let each = format!("{base}.each.{item}");
            if i18n::has_key(&each) {
                Text::new(each)
            } else {
                Text::raw(item)
            }
        })
        .collect();
    Text::new(format!("{base}.other")).arg("value", items)
}

/// A value as the game reads it: trimmed, lower case, list items without spaces, numbers
/// without leading zeros (`060` is the default `60`).
fn normalized(value: &str) -> String {
    let v = value.trim().to_ascii_lowercase();
    if let Ok(n) = v.parse::<u64>() {
        return n.to_string();
    }
    v.split(',').map(str::trim).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    fn opts(pairs: &[(&str, &str)]) -> GameOptions {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    fn said(kind: GameKind, pairs: &[(&str, &str)], lang: Lang) -> Vec<String> {
        option_words(kind, &opts(pairs))
            .iter()
            .map(|t| t.render(lang))
            .collect()
    }

    /// A phrase that reads: no catalog key shown as itself, no placeholder left, not a bare
    /// `key=value`.
    fn reads(s: &str) -> bool {
        !s.is_empty()
            && !s.contains("words.")
            && !s.contains('{')
            && !s.contains('=')
            && !s.contains("core.raw")
    }

    /// Every value of every option of every game has words in English and in French (its
    /// own, or the option's `other` phrase), and the two languages say different things
    /// where they should (a French phrase identical to the English one is a forgotten copy).
    #[test]
    fn every_option_value_of_every_game_has_words_in_both_languages() {
        let mut phrases = 0;
        for &kind in GameKind::ALL {
            for spec in kind.option_specs() {
                let mut values: Vec<String> = spec.values.iter().map(|v| (*v).into()).collect();
                // Open values some options take beyond their list.
                match (kind, spec.key) {
                    (GameKind::Gates, "round_limit") => values.push("100".into()),
                    (GameKind::Portal, "max_rounds") => values.push("50".into()),
                    (GameKind::Portal, "colours") => values.push("red,blue".into()),
                    _ => {}
                }
                for value in values {
                    let t = option_phrase(kind, &spec, &normalized(&value));
                    let key = &t.key;
                    assert!(
                        i18n::has_key(key),
                        "{} {}={value}: no words ({key})",
                        kind.id(),
                        spec.key
                    );
                    let (en, fr) = (t.render(Lang::En), t.render(Lang::Fr));
                    assert!(reads(&en), "{} {}={value}: {en:?}", kind.id(), spec.key);
                    assert!(reads(&fr), "{} {}={value}: {fr:?}", kind.id(), spec.key);
                    assert_ne!(en, fr, "{} {}={value}: not French", kind.id(), spec.key);
                    phrases += 1;
                }
            }
        }
        assert!(phrases > 100, "{phrases}");
    }

    #[test]
    fn only_options_that_differ_from_the_defaults_are_said() {
        // Nothing given, or only defaults (however typed): the standard rules.
        assert!(said(GameKind::Vortex, &[], Lang::En).is_empty());
        assert!(said(
            GameKind::Vortex,
            &[("mode", " Auto "), ("goal_count", "6")],
            Lang::En
        )
        .is_empty());
        assert!(said(GameKind::Gates, &[("round_limit", "060")], Lang::En).is_empty());
        // Words agree with an open number.
        assert_eq!(
            said(GameKind::Gates, &[("round_limit", "1")], Lang::En),
            ["The game ends after 1 round at most"]
        );
        assert_eq!(
            said(GameKind::Gates, &[("round_limit", "40")], Lang::Fr),
            ["La partie s'arrête après 40 manches au plus"]
        );
        // In the game's order, whatever order they were typed in.
        assert_eq!(
            said(
                GameKind::Vortex,
                &[("goal_count", "3"), ("mode", "crossing"), ("teams", "off")],
                Lang::En
            ),
            [
                "Crossing mode",
                "Every player for themselves",
                "3 routers home to finish"
            ]
        );
        assert_eq!(
            said(
                GameKind::SpaceLab,
                &[("objective_setup", "dealt")],
                Lang::En
            ),
            ["Objectives dealt at setup"]
        );
        assert_eq!(
            said(
                GameKind::SpaceLab,
                &[("objective_setup", "dealt")],
                Lang::Fr
            ),
            ["Objectifs distribués à la mise en place"]
        );
        assert_eq!(
            said(GameKind::Gates, &[("round_limit", "100")], Lang::En),
            ["The game ends after 100 rounds at most"]
        );
        // A colour order: each colour in the lobby's language.
        assert_eq!(
            said(GameKind::Portal, &[("colours", "Red, Blue")], Lang::Fr),
            ["Couleurs des places, dans l'ordre : rouge, bleu"]
        );
    }
}
