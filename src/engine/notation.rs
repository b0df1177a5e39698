//! The notation kit every game's parser uses: a segment split into its verb and arguments,
//! the refusals (a parse error naming the forms understood there, a rule error, a wrong
//! number of words) and plain numbers. A game's `notation.rs` writes only its own words.
//!
//! Token numbers are 1-based words of the segment: the verb is token 1, argument `i`
//! (0-based) is token `i + 2`.

use std::borrow::Cow;
use std::str::FromStr;

use super::game::{ParseError, Reject};

/// A segment lower-cased. The engine lower-cases what players type before `Game::parse`, so
/// this copies only for a game's own callers (tests, tools) that pass mixed case.
pub fn lowered(segment: &str) -> Cow<'_, str> {
    if segment.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(segment.to_ascii_lowercase())
    } else {
        Cow::Borrowed(segment)
    }
}

/// A segment's words: its verb and its arguments. A segment with no word is refused at
/// token 1, naming every form (`forms`).
pub fn verb_and_args<'s, R>(
    segment: &'s str,
    forms: &[&str],
) -> Result<(&'s str, Vec<&'s str>), Reject<R>> {
    let mut words = segment.split_whitespace();
    match words.next() {
        Some(verb) => Ok((verb, words.collect())),
        None => perr(1, segment, forms),
    }
}

/// A parse refusal: `found` at `token` could not be read; `forms` are what would have been
/// understood there.
pub fn perr<T, R>(token: usize, found: &str, forms: &[&str]) -> Result<T, Reject<R>> {
    Err(Reject::Parse(ParseError::new(
        token,
        found,
        forms.iter().map(|f| (*f).to_string()).collect(),
    )))
}

/// A rule refuses the segment as a whole (no token of a macro to blame).
pub fn rule<T, R>(error: R) -> Result<T, Reject<R>> {
    Err(Reject::Rule { token: None, error })
}

/// Exactly `n` arguments, as `form` says: a missing one is refused at the token after the
/// last word, an extra one at its own token.
pub fn check_arity<R>(args: &[&str], n: usize, form: &str) -> Result<(), Reject<R>> {
    if args.len() < n {
        perr(args.len() + 2, "", &[form])
    } else if args.len() > n {
        perr(n + 2, args[n], &[form])
    } else {
        Ok(())
    }
}

/// A decimal number of one to `max_len` ASCII digits, leading zeros allowed (`07`); no sign,
/// no space. `None` when it does not fit `T`.
pub fn digits<T: FromStr>(s: &str, max_len: usize) -> Option<T> {
    if s.is_empty() || s.len() > max_len || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A number as ids print it: one to `max_len` digits without a leading zero (`7`, not `07`).
pub fn plain_number<T: FromStr>(s: &str, max_len: usize) -> Option<T> {
    if s.starts_with('0') {
        return None;
    }
    digits(s, max_len)
}

/// A game's rule errors: the enum, each variant's English message (its `Display`, for logs and
/// tests) and its catalog key, and the player's text. Write
///
/// ```ignore
/// rule_errors! {
///     /// Why a decision is not legal here.
///     pub enum RuleError in "mygame.error" {
///         NotYourTurn = core "not_your_turn": "it is not your turn",
///         SlotTaken = "slot_taken": "that slot already holds a card",
///     }
/// }
/// ```
///
/// A key is looked up under the game's prefix, or with `core` under `core.rule`: the wording
/// several games share word for word. The enum is `Copy`, `Eq` and `Hash`, and implements
/// [`RuleErrorText`](super::RuleErrorText); attributes before `pub enum` (a doc, more derives)
/// are kept.
macro_rules! rule_errors {
    (
        $(#[$attr:meta])*
        pub enum $name:ident in $prefix:literal {
            $(
                $(#[$vattr:meta])*
                $variant:ident = $($core:ident)? $key:literal : $msg:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
        pub enum $name {
            $(
                $(#[$vattr])*
                #[error($msg)]
                $variant,
            )+
        }

        impl $name {
            /// Every refusal, in the table's order (the catalog tests read it).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// What the player reads.
            pub fn text(self) -> $crate::i18n::Text {
                $crate::i18n::Text::new(match self {
                    $($name::$variant => $crate::engine::notation::rule_errors!(
                        @key $prefix $($core)? $key
                    ),)+
                })
            }
        }

        impl $crate::engine::RuleErrorText for $name {
            fn text(&self) -> $crate::i18n::Text {
                $name::text(*self)
            }
        }
    };
    (@key $prefix:literal core $key:literal) => {
        concat!("core.rule.", $key)
    };
    (@key $prefix:literal $key:literal) => {
        concat!($prefix, ".", $key)
    };
}
pub(crate) use rule_errors;

#[cfg(test)]
mod tests {
    use super::*;

    type R = Reject<()>;

    fn parse_error(r: R) -> ParseError {
        match r {
            Reject::Parse(e) => e,
            Reject::Rule { .. } => panic!("not a parse error"),
        }
    }

    #[test]
    fn words_split_and_empty_segments_name_every_form() {
        let (verb, args) = verb_and_args::<()>("move  t3 2 m4", &[]).unwrap();
        assert_eq!((verb, args), ("move", vec!["t3", "2", "m4"]));
        let e = parse_error(verb_and_args::<()>("  ", &["a", "b"]).unwrap_err());
        assert_eq!(e, ParseError::new(1, "  ", vec!["a".into(), "b".into()]));
        assert_eq!(lowered("SEND Kin"), "send kin");
        assert!(matches!(lowered("send kin"), Cow::Borrowed(_)));
    }

    #[test]
    fn arity_blames_the_missing_or_first_extra_token() {
        assert!(check_arity::<()>(&["a"], 1, "f <x>").is_ok());
        let missing = parse_error(check_arity::<()>(&[], 1, "f <x>").unwrap_err());
        assert_eq!((missing.token, missing.found.as_str()), (2, ""));
        let extra = parse_error(check_arity::<()>(&["a", "b", "c"], 1, "f <x>").unwrap_err());
        assert_eq!((extra.token, extra.found.as_str()), (3, "b"));
        assert_eq!(extra.expected, vec!["f <x>".to_string()]);
    }

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(digits::<u8>("07", 2), Some(7));
        assert_eq!(digits::<u8>("007", 2), None);
        assert_eq!(digits::<u8>("+7", 2), None);
        assert_eq!(digits::<u8>("", 2), None);
        assert_eq!(digits::<u8>("300", 3), None);
        assert_eq!(plain_number::<u8>("07", 2), None);
        assert_eq!(plain_number::<u16>("1200", 4), Some(1200));
        assert_eq!(plain_number::<u16>("12000", 4), None);
    }
}
