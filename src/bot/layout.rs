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
    /// Select menus (one per row): custom id and (value, label) options; the value is the
    /// option's index in the whole prompt.
    Menus(Vec<(String, Vec<(String, String)>)>),
    /// Too many options for one panel: a menu of groups (value = group index); picking one
    /// opens a private panel with that group's options ([`group_options`]).
    Groups {
        id: String,
        groups: Vec<(String, String)>,
    },
    /// Too many options even for groups: the player types `/move` (with autocomplete).
    None,
}

/// Options of one group of a long prompt: a label and the options' indices in the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionGroup {
    pub label: String,
    pub indices: Vec<usize>,
}

/// Buttons for up to 20 options, a menu up to 25; beyond, a menu of groups when the options
/// group well, else up to four menus of 25; else nothing (`/move`).
pub fn prompt_components(game: GameId, version: Version, options: &[String]) -> PromptComponents {
    let all: Vec<usize> = (0..options.len()).collect();
    if options.len() > MAX_MENU_OPTIONS {
        if let Some(groups) = group_options(options) {
            return PromptComponents::Groups {
                id: CustomId::Group { game, version }.encode(),
                groups: groups
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| (i.to_string(), label(&g.label)))
                    .collect(),
            };
        }
    }
    // One row stays free for "Show my hand".
    subset_components(game, version, options, &all, MAX_ROWS - 1)
}

/// The components for some of a prompt's options (`indices`), in at most `rows` rows: buttons
/// up to 20, one menu up to 25, then one menu per 25 options.
pub fn subset_components(
    game: GameId,
    version: Version,
    options: &[String],
    indices: &[usize],
    rows: usize,
) -> PromptComponents {
    let picked: Vec<(usize, &String)> = indices
        .iter()
        .filter_map(|&i| options.get(i).map(|o| (i, o)))
        .collect();
    if picked.is_empty() || picked.len() > rows * MAX_MENU_OPTIONS {
        return PromptComponents::None;
    }
    if picked.len() <= MAX_BUTTONS.min(rows * MAX_BUTTONS_PER_ROW) {
        let buttons: Vec<(String, String)> = picked
            .iter()
            .map(|&(index, o)| {
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
    PromptComponents::Menus(
        picked
            .chunks(MAX_MENU_OPTIONS)
            .enumerate()
            .map(|(part, chunk)| {
                (
                    CustomId::Menu {
                        game,
                        version,
                        part,
                    }
                    .encode(),
                    chunk
                        .iter()
                        .map(|&(i, o)| (i.to_string(), label(o)))
                        .collect(),
                )
            })
            .collect(),
    )
}

/// Groups a long list of options by what they act on, from the notation alone: first by
/// their second token (`rot j cw`, `min j ccw` and `claim j 19` act on tower j), else by
/// their first (`rot`, `claim`, `end`). `None` when neither gives at most 25 groups of at most
/// 100 options (four menus in the group's panel, leaving a row free). Labels name the group
/// and the kinds of option in it: `j · rot · claim`.
pub fn group_options(options: &[String]) -> Option<Vec<OptionGroup>> {
    let by = |key: fn(&[&str]) -> String| -> Vec<(String, Vec<usize>, Vec<String>)> {
        let mut groups: Vec<(String, Vec<usize>, Vec<String>)> = Vec::new();
        for (i, o) in options.iter().enumerate() {
            let tokens: Vec<&str> = o.split_whitespace().collect();
            let k = key(&tokens);
            let verb = tokens.first().copied().unwrap_or_default().to_string();
            match groups.iter_mut().find(|g| g.0 == k) {
                Some(g) => {
                    g.1.push(i);
                    if !g.2.contains(&verb) {
                        g.2.push(verb);
                    }
                }
                None => groups.push((k, vec![i], vec![verb])),
            }
        }
        groups
    };
    let fits = |groups: &[(String, Vec<usize>, Vec<String>)]| {
        groups.len() > 1
            && groups.len() <= MAX_MENU_OPTIONS
            && groups
                .iter()
                .all(|g| g.1.len() <= (MAX_ROWS - 1) * MAX_MENU_OPTIONS)
    };
    let second: fn(&[&str]) -> String =
        |t| t.get(1).or(t.first()).copied().unwrap_or_default().into();
    let first: fn(&[&str]) -> String = |t| t.first().copied().unwrap_or_default().into();
    let groups = [by(second), by(first)].into_iter().find(|g| fits(g))?;
    Some(
        groups
            .into_iter()
            .map(|(key, indices, verbs)| {
                let label = if verbs.len() == 1 && verbs[0] == key {
                    // A group of one kind named by it (`end`, or grouping by the first token).
                    if indices.len() == 1 {
                        key
                    } else {
                        format!("{key} ({})", indices.len())
                    }
                } else {
                    format!("{key} · {}", verbs.join(" · "))
                };
                OptionGroup { label, indices }
            })
            .collect(),
    )
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
    fn a_menu_from_21_to_25() {
        for n in 21..=25 {
            let PromptComponents::Menus(menus) = prompt_components(GameId(1), Version(2), &opts(n))
            else {
                panic!("{n} options should be a menu");
            };
            assert_eq!(menus.len(), 1);
            let (id, options) = &menus[0];
            assert_eq!(id, "s:1:2");
            assert_eq!(options.len(), n);
            assert_eq!(options[n - 1].0, (n - 1).to_string());
        }
        assert_eq!(
            prompt_components(GameId(1), Version(2), &[]),
            PromptComponents::None
        );
    }

    /// Vortex's rotations: 19 towers, two directions, a claim, and `end`.
    fn rotations() -> Vec<String> {
        let mut v: Vec<String> = ('a'..='s')
            .flat_map(|t| [format!("rot {t} cw"), format!("rot {t} ccw")])
            .collect();
        v.push("claim j 19".into());
        v.push("end".into());
        v
    }

    #[test]
    fn long_prompts_group_by_what_they_act_on() {
        let options = rotations();
        let groups = group_options(&options).expect("groups");
        assert_eq!(groups.len(), 20, "19 towers and end");
        let j = groups.iter().find(|g| g.label.starts_with("j ")).unwrap();
        assert_eq!(j.label, "j · rot · claim");
        let named: Vec<&str> = j.indices.iter().map(|&i| options[i].as_str()).collect();
        assert_eq!(named, ["rot j cw", "rot j ccw", "claim j 19"]);
        assert_eq!(groups.last().unwrap().label, "end");
        // Every option is in exactly one group.
        let mut all: Vec<usize> = groups.iter().flat_map(|g| g.indices.clone()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..options.len()).collect::<Vec<_>>());
        let PromptComponents::Groups { id, groups } =
            prompt_components(GameId(4), Version(9), &options)
        else {
            panic!("a group menu");
        };
        assert_eq!(id, "o:4:9");
        assert_eq!(groups.len(), 20);
        assert_eq!(groups[0], ("0".to_string(), "a · rot".to_string()));
    }

    #[test]
    fn too_many_groups_fall_back_to_the_first_token_then_to_menus() {
        // 30 distinct objects of two verbs: grouped by verb.
        let options: Vec<String> = (0..30)
            .flat_map(|i| [format!("take {i}"), format!("give {i}")])
            .collect();
        let groups = group_options(&options).unwrap();
        assert_eq!(
            groups.iter().map(|g| g.label.as_str()).collect::<Vec<_>>(),
            ["take (30)", "give (30)"]
        );
        // One verb, 60 objects: no useful groups; three menus of at most 25.
        let options: Vec<String> = (0..60).map(|i| format!("take {i}")).collect();
        assert_eq!(group_options(&options), None);
        let PromptComponents::Menus(menus) = prompt_components(GameId(1), Version(2), &options)
        else {
            panic!("menus");
        };
        assert_eq!(
            menus.iter().map(|m| m.1.len()).collect::<Vec<_>>(),
            [25, 25, 10]
        );
        assert_eq!(menus[1].0, "s:1:2:1");
        assert_eq!(menus[1].1[0].0, "25");
        // Past four menus (one row stays free): nothing, the player types `/move`.
        let options: Vec<String> = (0..101).map(|i| format!("take {i}")).collect();
        assert_eq!(
            prompt_components(GameId(1), Version(2), &options),
            PromptComponents::None
        );
    }

    #[test]
    fn a_group_panel_keeps_the_prompt_indices() {
        let options = rotations();
        let PromptComponents::Buttons(rows) =
            subset_components(GameId(1), Version(2), &options, &[18, 19, 38], MAX_ROWS)
        else {
            panic!("buttons");
        };
        let ids: Vec<&str> = rows.iter().flatten().map(|b| b.0.as_str()).collect();
        assert_eq!(ids, ["g:1:2:18", "g:1:2:19", "g:1:2:38"]);
    }

    #[test]
    fn long_texts_are_cut() {
        let long = "é".repeat(200);
        assert_eq!(label(&long).chars().count(), MAX_LABEL);
        assert_eq!(content(&long.repeat(20)).chars().count(), 2000);
        assert_eq!(label("pass"), "pass");
    }
}
