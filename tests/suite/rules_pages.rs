//! The rules pages: complete in both languages, short enough for one Discord message, findable
//! by search, written in our own words (no run of 8 words from a rulebook), and the notation
//! page documents every command the spec's grammar defines.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use croupier::engine::GameKind;
use croupier::i18n::Lang;
use croupier::rules::{self, normalize, page, search, topics};

/// Discord allows 2000 characters per message; we keep room for a header or footer.
const MAX_CHARS: usize = 1800;
/// A shared run of this many words counts as copying.
const COPY_RUN: usize = 8;

const CORTEXCAPE_TOPICS: &[&str] = &[
    "overview",
    "setup",
    "round",
    "configure",
    "challenge",
    "escape",
    "scoring",
    "short-game",
    "labs",
    "hindsight",
    "notation",
    "faq",
];

/// Every (game, topic id, language, page) that exists.
fn all_pages() -> Vec<(GameKind, &'static str, Lang, &'static str)> {
    let mut out = Vec::new();
    for &game in GameKind::ALL {
        for lang in Lang::ALL {
            for t in topics(game, lang) {
                let text = page(game, t.id, lang)
                    .unwrap_or_else(|| panic!("{game}: topic {} is listed but has no page", t.id));
                out.push((game, t.id, lang, text));
            }
        }
    }
    out
}

fn ids(game: GameKind, lang: Lang) -> Vec<&'static str> {
    topics(game, lang).into_iter().map(|t| t.id).collect()
}

/// A game's own topics, without the pages every game lists after them.
fn own_ids(game: GameKind, lang: Lang) -> Vec<&'static str> {
    let common = rules::common_topics();
    ids(game, lang)
        .into_iter()
        .filter(|id| !common.contains(id))
        .collect()
}

fn search_ids(game: GameKind, lang: Lang, query: &str) -> Vec<&'static str> {
    search(game, lang, query)
        .into_iter()
        .map(|t| t.id)
        .collect()
}

/// A directory named `rel` beside the checkout or one of its parents (the shared team docs live
/// in `../shared` of the main checkout, further up from a worktree).
fn find_shared(rel: &str) -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared").join(rel))
        .find(|p| p.exists())
}

#[test]
fn cortexcape_has_every_topic_in_reading_order() {
    assert_eq!(own_ids(GameKind::Cortexcape, Lang::En), CORTEXCAPE_TOPICS);
    // The pages about the bot come after every game's own.
    let all = ids(GameKind::Cortexcape, Lang::En);
    assert_eq!(
        all[CORTEXCAPE_TOPICS.len()..].to_vec(),
        rules::common_topics()
    );
}

#[test]
fn every_topic_exists_in_both_languages_with_a_title() {
    for &game in GameKind::ALL {
        let en = ids(game, Lang::En);
        assert_eq!(en, ids(game, Lang::Fr), "{game}: topic ids differ");
        for lang in Lang::ALL {
            let mut seen = HashSet::new();
            for t in topics(game, lang) {
                assert!(
                    !t.title.is_empty(),
                    "{game}/{}/{}: empty title",
                    lang.code(),
                    t.id
                );
                // Autocomplete shows titles: two alike could not be told apart.
                assert!(
                    seen.insert(t.title.clone()),
                    "{game}/{}: title {:?} used twice",
                    lang.code(),
                    t.title
                );
            }
        }
    }
}

/// Every file in `assets/rules/<game>/<lang>/` is a listed topic, so no page is written and
/// then forgotten in the list.
#[test]
fn no_page_file_is_left_out_of_the_list() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rules");
    for &game in GameKind::ALL {
        for lang in Lang::ALL {
            let dir = root.join(game.id()).join(lang.code());
            let Ok(entries) = std::fs::read_dir(&dir) else {
                assert!(ids(game, lang).is_empty(), "{} is missing", dir.display());
                continue;
            };
            let files: BTreeSet<String> = entries
                .flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".md").map(str::to_string)
                })
                .collect();
            let listed: BTreeSet<String> = own_ids(game, lang)
                .into_iter()
                .map(str::to_string)
                .collect();
            assert_eq!(files, listed, "{}", dir.display());
        }
    }
    // The pages every game lists after its own: each file in `common/<lang>/` is one.
    for lang in Lang::ALL {
        let dir = root.join("common").join(lang.code());
        let files: BTreeSet<String> = std::fs::read_dir(&dir)
            .expect("assets/rules/common")
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".md").map(str::to_string)
            })
            .collect();
        let listed: BTreeSet<String> = rules::common_topics()
            .into_iter()
            .map(str::to_string)
            .collect();
        assert_eq!(files, listed, "{}", dir.display());
    }
}

#[test]
fn pages_fit_one_discord_message_and_use_markdown_it_renders() {
    let pages = all_pages();
    assert!(!pages.is_empty());
    for (game, id, lang, text) in pages {
        let at = format!("{game}/{}/{id}", lang.code());
        let chars = text.chars().count();
        assert!(chars <= MAX_CHARS, "{at}: {chars} characters");
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("");
        assert!(
            first.starts_with("# ") && first.len() > 2,
            "{at}: first line must be `# Title`"
        );
        for line in lines {
            // Discord shows tables as raw pipes, and one big title per page is enough.
            assert!(!line.starts_with('|'), "{at}: tables do not render: {line}");
            assert!(!line.starts_with("# "), "{at}: a second title: {line}");
        }
        assert_eq!(
            text.matches("```").count() % 2,
            0,
            "{at}: unclosed code block"
        );
        assert_eq!(
            text.matches("**").count() % 2,
            0,
            "{at}: unbalanced bold markers"
        );
    }
}

#[test]
fn search_puts_the_topic_about_the_word_first() {
    let c = GameKind::Cortexcape;
    assert_eq!(search_ids(c, Lang::En, "tower").first(), Some(&"configure"));
    assert_eq!(search_ids(c, Lang::Fr, "tour").first(), Some(&"configure"));
    // Half-typed words, any case, accents optional.
    assert_eq!(search_ids(c, Lang::En, "Hinds").first(), Some(&"hindsight"));
    assert_eq!(
        search_ids(c, Lang::Fr, "remplis").first(),
        Some(&"configure")
    );
    assert_eq!(search_ids(c, Lang::Fr, "evasion").first(), Some(&"escape"));
    assert_eq!(search_ids(c, Lang::Fr, "évasion").first(), Some(&"escape"));
    assert_eq!(
        search_ids(c, Lang::En, "short game").first(),
        Some(&"short-game")
    );
    assert_eq!(
        search_ids(c, Lang::Fr, "partie courte").first(),
        Some(&"short-game")
    );
    assert_eq!(
        search_ids(c, Lang::En, "notation").first(),
        Some(&"notation")
    );
    let undo = search_ids(c, Lang::Fr, "undo");
    assert!(
        undo.contains(&"notation") && undo.contains(&"round"),
        "{undo:?}"
    );
    assert_eq!(search_ids(c, Lang::En, "winner").first(), Some(&"scoring"));
    assert_eq!(search_ids(c, Lang::Fr, "gagnant").first(), Some(&"scoring"));
    assert_eq!(
        search_ids(c, Lang::En, "setter").first(),
        Some(&"challenge")
    );
    assert_eq!(
        search_ids(c, Lang::Fr, "geolier").first(),
        Some(&"challenge")
    );
    assert_eq!(search_ids(c, Lang::En, "diagonal"), vec!["labs"]);
    // The id works in both languages, as autocomplete sends it back.
    assert_eq!(search_ids(c, Lang::Fr, "faq").first(), Some(&"faq"));
    assert_eq!(search_ids(c, Lang::En, "xyzzy"), Vec::<&str>::new());
}

#[test]
fn search_titles_are_the_page_titles() {
    let c = GameKind::Cortexcape;
    for lang in Lang::ALL {
        for t in search(c, lang, "exit") {
            let text = page(c, t.id, lang).unwrap_or("");
            assert_eq!(text.lines().next(), Some(format!("# {}", t.title).as_str()));
        }
    }
}

#[test]
fn unknown_games_and_topics_have_no_page() {
    assert_eq!(page(GameKind::Cortexcape, "", Lang::En), None);
    assert_eq!(page(GameKind::Cortexcape, "../en/faq", Lang::En), None);
    assert!(page(GameKind::Cortexcape, " Notation ", Lang::Fr).is_some());
}

/// Every run of `COPY_RUN` consecutive words of `words`.
fn runs(words: &[String]) -> impl Iterator<Item = String> + '_ {
    words.windows(COPY_RUN).map(|w| w.join(" "))
}

/// The first run of `page` that also occurs in the source runs, if any.
fn copied_run(page: &str, source: &HashSet<String>) -> Option<String> {
    runs(&normalize(page)).find(|r| source.contains(r))
}

fn source_runs(text: &str) -> HashSet<String> {
    runs(&normalize(text)).collect()
}

#[test]
fn the_copy_detector_catches_a_copied_sentence() {
    let book = source_runs("Le joueur qui totalise le moins de points à la fin gagne.");
    assert_eq!(
        copied_run(
            "Bref : le joueur qui TOTALISE le moins de points, à la fin !",
            &book
        ),
        Some("le joueur qui totalise le moins de points".to_string())
    );
    assert_eq!(
        copied_run("Le joueur au total le plus bas gagne la partie.", &book),
        None
    );
}

/// File-name prefixes in `shared/rulebooks` of the games that have pages (004: Cortexcape).
const RULEBOOKS: &[&str] = &["004_", "000_", "001_", "002_", "003_"];

/// Product rule of the house: the pages are our own words, never the rulebook's.
#[test]
fn no_page_copies_a_rulebook() {
    let Some(dir) = find_shared("rulebooks") else {
        eprintln!("shared/rulebooks not found beside the checkout: copy check skipped");
        return;
    };
    let mut source = HashSet::new();
    let entries = std::fs::read_dir(&dir).expect("rulebooks folder is readable");
    let mut read = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).expect("rulebook is text");
            source.extend(source_runs(&text));
            read.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    // Every rulebook is checked against every page; these must be among them.
    for prefix in RULEBOOKS {
        assert!(
            read.iter().any(|name| name.starts_with(prefix)),
            "rulebook {prefix}* missing in {}",
            dir.display()
        );
    }
    let mut problems = Vec::new();
    for (game, id, lang, text) in all_pages() {
        if let Some(run) = copied_run(text, &source) {
            problems.push(format!("{game}/{}/{id}: \"{run}\"", lang.code()));
        }
    }
    assert!(
        problems.is_empty(),
        "pages sharing {COPY_RUN} words with a rulebook:\n{}",
        problems.join("\n")
    );
}

/// Commands as they must appear, in code, on the Cortexcape notation page (both languages).
const CORTEXCAPE_FORMS: &[&str] = &[
    "`put 13 r`",
    "`tower 4 13`",
    "`random`",
    "`layout random`",
    "`layout t:4,9,16 r:13,17 y:2,8,15 g:1,7,12,19`",
    "`layout r:5 g:10 y:20 t:4>13,9>14,16>11`",
    "`reset`",
    "`done`",
    "`exit x4`",
    "`from 12`",
    "`start 12-13`",
    "`start x1`",
    "`step 13`",
    "`step x4`",
    "`path 13 18 19 20 15 10 5`",
    "`undo`",
    "`d7`",
    "`6-x12`",
    "`;`",
];

#[test]
fn notation_page_shows_every_command() {
    for lang in Lang::ALL {
        let text = page(GameKind::Cortexcape, "notation", lang).unwrap_or("");
        for form in CORTEXCAPE_FORMS {
            assert!(
                text.contains(form),
                "notation/{}: missing {form}",
                lang.code()
            );
        }
    }
}

/// The keywords of the spec's section 10 grammar: every quoted word of three letters or more.
fn grammar_keywords(spec: &str) -> Vec<String> {
    let Some(start) = spec.find("## 10. Notation") else {
        return Vec::new();
    };
    let section = &spec[start..];
    let block = section.split("```").nth(1).unwrap_or("");
    let mut out: Vec<String> = block
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn notation_page_covers_the_spec_grammar() {
    let Some(path) = find_shared("games/cortexcape.md") else {
        eprintln!("shared/games/cortexcape.md not found beside the checkout: check skipped");
        return;
    };
    let spec = std::fs::read_to_string(&path).expect("spec is text");
    let keywords = grammar_keywords(&spec);
    // The grammar's command words; fewer would mean the section was not read.
    assert!(keywords.len() >= 10, "grammar keywords: {keywords:?}");
    for lang in Lang::ALL {
        let text = page(GameKind::Cortexcape, "notation", lang).unwrap_or("");
        for kw in &keywords {
            assert!(
                text.contains(&format!("`{kw}")),
                "notation/{}: the command `{kw}` is not shown",
                lang.code()
            );
        }
    }
}

#[test]
fn grammar_keywords_are_read_from_the_section() {
    let spec = "## 9. X\n\"nope\"\n## 10. Notation\n```\nopt := \"put\" door | \"t\" | \"random\"\n```\n\"late\"";
    assert_eq!(grammar_keywords(spec), vec!["put", "random"]);
    assert_eq!(grammar_keywords("no such section"), Vec::<String>::new());
}

#[test]
fn empty_search_lists_every_topic_of_every_game() {
    // Also holds for a game without pages yet: nothing listed, nothing found, no failure.
    for &game in GameKind::ALL {
        let listed = rules::topics(game, Lang::En).len();
        assert_eq!(rules::search(game, Lang::En, "").len(), listed);
    }
}

/// Every command word of Portal's notation appears, in code, on its notation page.
#[test]
fn portal_notation_page_shows_every_command() {
    use croupier::engine::Game;
    for lang in Lang::ALL {
        let text = page(GameKind::Portal, "notation", lang).unwrap_or("");
        for form in croupier::games::portal::Portal::notation_forms() {
            let word = form.split_whitespace().next().unwrap_or("");
            if word.starts_with('<') {
                continue;
            }
            assert!(
                text.contains(&format!("`{word}")),
                "portal notation/{}: missing {word}",
                lang.code()
            );
        }
    }
}

#[test]
fn vortex_notation_page_shows_every_command_and_alias() {
    let forms = [
        "`rot j cw`",
        "`min k ccw`",
        "`claim j 19`",
        "`claim j`",
        "`ctrl 24 9`",
        "`recall j 13`",
        "`place 3`",
        "`end`",
        "`rotate ",
        "`minority ",
        "`move ",
        "`pass`",
        "`done`",
    ];
    for lang in Lang::ALL {
        let text = page(GameKind::Vortex, "notation", lang).unwrap_or("");
        for form in forms {
            assert!(
                text.contains(form),
                "vortex notation/{}: missing {form}",
                lang.code()
            );
        }
    }
}

#[test]
fn gates_notation_page_covers_the_spec_grammar() {
    let Some(path) = find_shared("games/gates.md") else {
        eprintln!("shared/games/gates.md not found beside the checkout: check skipped");
        return;
    };
    let spec = std::fs::read_to_string(&path).expect("spec is text");
    let keywords = grammar_keywords(&spec);
    assert!(keywords.len() >= 20, "grammar keywords: {keywords:?}");
    for lang in Lang::ALL {
        let text = page(GameKind::Gates, "notation", lang).unwrap_or("");
        for kw in &keywords {
            assert!(
                text.contains(&format!("`{kw}")),
                "gates notation/{}: the command `{kw}` is not shown",
                lang.code()
            );
        }
    }
}

const SPACELAB_TOPICS: &[&str] = &[
    "overview",
    "setup",
    "turn",
    "reveal-recruit",
    "place",
    "slots",
    "objectives",
    "cards",
    "projects",
    "scoring",
    "end",
    "variants",
    "notation",
    "faq",
];

#[test]
fn spacelab_topics_and_notation_page_cover_the_spec_grammar() {
    assert_eq!(own_ids(GameKind::SpaceLab, Lang::En), SPACELAB_TOPICS);
    let Some(path) = find_shared("games/spacelab.md") else {
        eprintln!("shared/games/spacelab.md not found beside the checkout: check skipped");
        return;
    };
    let spec = std::fs::read_to_string(&path).expect("spec is text");
    let keywords = grammar_keywords(&spec);
    assert!(keywords.len() >= 10, "grammar keywords: {keywords:?}");
    for lang in Lang::ALL {
        let text = page(GameKind::SpaceLab, "notation", lang).unwrap_or("");
        for kw in &keywords {
            assert!(
                text.contains(&format!("`{kw}")),
                "spacelab notation/{}: the command `{kw}` is not shown",
                lang.code()
            );
        }
        assert!(
            text.contains("`;`") || text.contains("`;"),
            "{}",
            lang.code()
        );
    }
}
