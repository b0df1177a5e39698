//! How a prompt's options become components, within Discord's limits: at most 5 rows, at most
//! 5 buttons a row, at most 25 options in a select menu, labels at most 80 characters.

use crate::engine::{GameId, Version};

use super::ids::CustomId;

pub const MAX_ROWS: usize = 5;
pub const MAX_BUTTONS_PER_ROW: usize = 5;
pub const MAX_MENU_OPTIONS: usize = 25;
pub const MAX_LABEL: usize = 80;

/// Up to this many options get buttons (4 rows), leaving a row for "Show my hand".
pub const MAX_BUTTONS: usize = 20;

/// The components for one prompt, before they become serenity builders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptComponents {
    /// Rows of (custom id, label).
    Buttons(Vec<Vec<(String, String)>>),
    /// One menu: its custom id, and (value, label) options; the value is the option's index.
    Menu {
        id: String,
        options: Vec<(String, String)>,
    },
    /// Too many options: the player types `/move` (with autocomplete).
    None,
}

/// Buttons for up to 20 options, a menu up to 25, nothing beyond.
pub fn prompt_components(game: GameId, version: Version, options: &[String]) -> PromptComponents {
    if options.is_empty() || options.len() > MAX_MENU_OPTIONS {
        return PromptComponents::None;
    }
    if options.len() <= MAX_BUTTONS {
        let buttons: Vec<(String, String)> = options
            .iter()
            .enumerate()
            .map(|(index, o)| {
                (
                    CustomId::Choose {
                        game,
                        version,
                        index,
                    }
                    .encode(),
                    label(o),
                )
            })
            .collect();
        return PromptComponents::Buttons(
            buttons
                .chunks(MAX_BUTTONS_PER_ROW)
                .map(<[_]>::to_vec)
                .collect(),
        );
    }
    PromptComponents::Menu {
        id: CustomId::Menu { game, version }.encode(),
        options: options
            .iter()
            .enumerate()
            .map(|(i, o)| (i.to_string(), label(o)))
            .collect(),
    }
}

/// A label cut to Discord's limit on a character boundary.
pub fn label(s: &str) -> String {
    if s.chars().count() <= MAX_LABEL {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_LABEL - 1).collect();
    out.push('…');
    out
}

/// Content cut to Discord's 2000-character limit.
pub fn content(s: &str) -> String {
    const MAX: usize = 2000;
    if s.chars().count() <= MAX {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("put {i} g")).collect()
    }

    #[test]
    fn buttons_fill_rows_of_five_up_to_twenty() {
        for n in 1..=MAX_BUTTONS {
            let PromptComponents::Buttons(rows) =
                prompt_components(GameId(1), Version(2), &opts(n))
            else {
                panic!("{n} options should be buttons");
            };
            assert!(rows.len() < MAX_ROWS, "one row stays free");
            assert!(rows
                .iter()
                .all(|r| !r.is_empty() && r.len() <= MAX_BUTTONS_PER_ROW));
            assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), n);
            assert_eq!(rows[0][0].0, "g:1:2:0");
        }
    }

    #[test]
    fn menus_from_21_to_25_then_nothing() {
        for n in 21..=25 {
            let PromptComponents::Menu { id, options } =
                prompt_components(GameId(1), Version(2), &opts(n))
            else {
                panic!("{n} options should be a menu");
            };
            assert_eq!(id, "s:1:2");
            assert_eq!(options.len(), n);
            assert_eq!(options[n - 1].0, (n - 1).to_string());
        }
        assert_eq!(
            prompt_components(GameId(1), Version(2), &opts(26)),
            PromptComponents::None
        );
        assert_eq!(
            prompt_components(GameId(1), Version(2), &[]),
            PromptComponents::None
        );
    }

    #[test]
    fn long_texts_are_cut() {
        let long = "é".repeat(200);
        assert_eq!(label(&long).chars().count(), MAX_LABEL);
        assert_eq!(content(&long.repeat(20)).chars().count(), 2000);
        assert_eq!(label("pass"), "pass");
    }
}
