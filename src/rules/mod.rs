//! Rules pages, in our own words, English and French, embedded from `assets/rules/`.
//!
//! A game's rules are a short list of topics (`overview`, `setup`, ...). Each topic is one
//! markdown file per language, `assets/rules/<game>/<lang>/<topic>.md`, whose first line is
//! `# Title` and which fits in one Discord message. Both languages have the same topic ids; the
//! `rules_pages` integration test checks that, the length limit and that no page copies a
//! rulebook. Pure: the files are embedded with `include_str!`.

use crate::engine::GameKind;
use crate::i18n::Lang;

/// One rules topic, as listed to a player (slash-command autocomplete, the table's `help`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topic {
    /// Stable id, the same in every language (`configure`).
    pub id: &'static str,
    /// The page's title in the asked language, without the leading `#`.
    pub title: String,
}

/// One topic's page in both languages.
struct Page {
    id: &'static str,
    en: &'static str,
    fr: &'static str,
}

impl Page {
    fn text(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Fr => self.fr,
        }
    }
}

/// A game's pages in reading order.
struct Book {
    game: GameKind,
    pages: &'static [Page],
}

/// `book!(Kind, "folder": "topic", ...)`: a game's topics in reading order, embedded from
/// `assets/rules/<folder>/{en,fr}/<topic>.md`. A missing file is a compile error.
macro_rules! book {
    ($kind:ident, $dir:literal: $($id:literal),+ $(,)?) => {
        Book {
            game: GameKind::$kind,
            pages: &[$(Page {
                id: $id,
                en: include_str!(concat!("../../assets/rules/", $dir, "/en/", $id, ".md")),
                fr: include_str!(concat!("../../assets/rules/", $dir, "/fr/", $id, ".md")),
            },)+],
        }
    };
}

/// Every game's rules. Adding a game's pages = one line here (and its files). A game without a
/// line simply has no topics yet.
const BOOKS: &[Book] = &[
    book!(Cortexcape, "cortexcape": "overview", "setup", "round", "configure", "challenge",
        "escape", "scoring", "short-game", "labs", "hindsight", "notation", "faq"),
    book!(Portal, "portal": "overview", "setup", "turn", "deploy", "move", "activate", "recycle", "tokens", "cards-movement", "cards-attack", "cards-control", "end", "variants", "notation", "faq"),
    book!(Vortex, "vortex": "overview", "setup", "turn", "minority", "advanced", "winning", "catmouse", "solitaire", "variants", "notation", "faq"),
    book!(Gates, "gates": "overview", "setup", "turn", "sane", "insane", "despair", "gates", "scrolls", "scoring", "end", "two-players", "options", "notation", "faq"),
    book!(SpaceLab, "spacelab": "overview", "setup", "turn", "reveal-recruit", "place", "slots", "objectives", "cards", "projects", "scoring", "end", "variants", "notation", "faq"),
];

/// Pages about the bot rather than one game's rules, listed after every game's own topics
/// (from `assets/rules/common/<lang>/<topic>.md`).
const COMMON: &[Page] = &[
    Page {
        id: "learn",
        en: include_str!("../../assets/rules/common/en/learn.md"),
        fr: include_str!("../../assets/rules/common/fr/learn.md"),
    },
    Page {
        id: "ratings",
        en: include_str!("../../assets/rules/common/en/ratings.md"),
        fr: include_str!("../../assets/rules/common/fr/ratings.md"),
    },
    Page {
        id: "replays",
        en: include_str!("../../assets/rules/common/en/replays.md"),
        fr: include_str!("../../assets/rules/common/fr/replays.md"),
    },
    Page {
        id: "manners",
        en: include_str!("../../assets/rules/common/en/manners.md"),
        fr: include_str!("../../assets/rules/common/fr/manners.md"),
    },
    Page {
        id: "takeback",
        en: include_str!("../../assets/rules/common/en/takeback.md"),
        fr: include_str!("../../assets/rules/common/fr/takeback.md"),
    },
    Page {
        id: "reliability",
        en: include_str!("../../assets/rules/common/en/reliability.md"),
        fr: include_str!("../../assets/rules/common/fr/reliability.md"),
    },
    Page {
        id: "pings",
        en: include_str!("../../assets/rules/common/en/pings.md"),
        fr: include_str!("../../assets/rules/common/fr/pings.md"),
    },
    Page {
        id: "invitations",
        en: include_str!("../../assets/rules/common/en/invitations.md"),
        fr: include_str!("../../assets/rules/common/fr/invitations.md"),
    },
    Page {
        id: "rollback",
        en: include_str!("../../assets/rules/common/en/rollback.md"),
        fr: include_str!("../../assets/rules/common/fr/rollback.md"),
    },
];

/// The ids of the pages every game lists after its own ([`COMMON`]).
pub fn common_topics() -> Vec<&'static str> {
    COMMON.iter().map(|p| p.id).collect()
}

/// A game's pages in reading order, then the common ones (none for a game without pages).
fn pages(game: GameKind) -> Vec<&'static Page> {
    let own = BOOKS
        .iter()
        .find(|b| b.game == game)
        .map_or(&[][..], |b| b.pages);
    if own.is_empty() {
        return Vec::new();
    }
    own.iter().chain(COMMON).collect()
}

/// The title of a page: its first line without the leading `#`s.
fn title_of(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    first.trim_start_matches('#').trim().to_string()
}

/// The game's topics in reading order (empty if the game has no pages yet).
pub fn topics(game: GameKind, lang: Lang) -> Vec<Topic> {
    pages(game)
        .iter()
        .map(|p| Topic {
            id: p.id,
            title: title_of(p.text(lang)),
        })
        .collect()
}

/// The whole markdown page (title line included) ready to post, or `None` for an unknown topic.
/// The topic id is matched case-insensitively, so a hand-typed `FAQ` works too.
pub fn page(game: GameKind, topic: &str, lang: Lang) -> Option<&'static str> {
    let topic = topic.trim();
    pages(game)
        .iter()
        .find(|p| p.id.eq_ignore_ascii_case(topic))
        .map(|p| p.text(lang))
}

/// Weight of a query word found in a page's id or title; body hits count 1 each, capped, so a
/// topic named after the word always ranks above pages that merely mention it.
const HEAD_HIT: u32 = 10;
const BODY_CAP: u32 = 5;

/// Topics matching the query, best first: for slash-command autocomplete.
///
/// The query is split into words; a word matches a page word it starts (so a half-typed word
/// works), ignoring case, accents and punctuation. Ranking: the number of query words found,
/// then id/title hits before body hits, then reading order. An empty query lists every topic.
pub fn search(game: GameKind, lang: Lang, query: &str) -> Vec<Topic> {
    let words = normalize(query);
    if words.is_empty() {
        return topics(game, lang);
    }
    let mut scored: Vec<(usize, u32, usize, Topic)> = Vec::new();
    for (order, p) in pages(game).iter().enumerate() {
        let text = p.text(lang);
        let title = title_of(text);
        let mut head = normalize(p.id);
        head.extend(normalize(&title));
        // The title line is part of `text`, so skip it when counting body hits.
        let body = normalize(text.split_once('\n').map_or("", |(_, rest)| rest));
        let mut found = 0;
        let mut score = 0;
        for w in &words {
            let in_head = head.iter().any(|h| h.starts_with(w.as_str()));
            let body_hits = body.iter().filter(|b| b.starts_with(w.as_str())).count();
            let body_hits = u32::try_from(body_hits).unwrap_or(u32::MAX).min(BODY_CAP);
            if in_head || body_hits > 0 {
                found += 1;
            }
            if in_head {
                score += HEAD_HIT;
            }
            score += body_hits;
        }
        if found > 0 {
            scored.push((found, score, order, Topic { id: p.id, title }));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    scored.into_iter().map(|(_, _, _, t)| t).collect()
}

/// Lower-case words with accents folded (`Échange` -> `echange`); everything that is not a
/// letter or a digit separates words.
pub fn normalize(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            for lower in c.to_lowercase() {
                push_folded(&mut word, lower);
            }
        } else if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Appends `c` without its accent (French letters only; others pass through).
fn push_folded(out: &mut String, c: char) {
    let plain = match c {
        'à' | 'â' | 'ä' | 'á' => "a",
        'é' | 'è' | 'ê' | 'ë' => "e",
        'î' | 'ï' | 'í' => "i",
        'ô' | 'ö' | 'ó' => "o",
        'ù' | 'û' | 'ü' | 'ú' => "u",
        'ç' => "c",
        'ÿ' => "y",
        'œ' => "oe",
        'æ' => "ae",
        _ => {
            out.push(c);
            return;
        }
    };
    out.push_str(plain);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_case_accents_and_punctuation() {
        assert_eq!(
            normalize("Échange l'ŒUVRE: `put 13 r`, 6-x12!"),
            vec!["echange", "l", "oeuvre", "put", "13", "r", "6", "x12"]
        );
        assert_eq!(normalize("  ;; "), Vec::<String>::new());
    }

    #[test]
    fn titles_drop_the_hashes() {
        assert_eq!(title_of("# Hello there\nbody"), "Hello there");
        assert_eq!(title_of("## Two\n"), "Two");
        assert_eq!(title_of(""), "");
    }

    #[test]
    fn pages_are_found_by_id_in_any_case() {
        let en = page(GameKind::Cortexcape, "FAQ", Lang::En);
        assert_eq!(en, page(GameKind::Cortexcape, "faq", Lang::En));
        assert!(en.is_some_and(|p| p.starts_with("# ")));
        assert_eq!(page(GameKind::Cortexcape, "no-such-topic", Lang::Fr), None);
    }

    #[test]
    fn empty_query_lists_every_topic_in_order() {
        assert_eq!(
            search(GameKind::Cortexcape, Lang::Fr, " "),
            topics(GameKind::Cortexcape, Lang::Fr)
        );
    }

    #[test]
    fn words_that_match_nothing_give_nothing() {
        assert_eq!(search(GameKind::Cortexcape, Lang::En, "zzqx"), vec![]);
    }
}
