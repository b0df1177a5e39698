//! The one localization layer: every user-facing string is a [`Text`] (a catalog key plus
//! arguments) rendered in English or French at the edge.
//!
//! Catalogs are TOML files embedded at build time: `assets/i18n/<lang>/<domain>.toml`. A key
//! `dead_end` in `cortexcape.toml` is addressed as `cortexcape.dead_end`. Placeholders are
//! written `{name}` and filled from the text's arguments. A word that agrees with a number is
//! written `{name|one|other}`: `one` when the argument `name` is 1 (in French, 0 or 1, as French
//! counts "0 point"), else `other`, e.g. `{n} {n|pt|pts}`. A test checks that both languages have
//! the same keys and the same placeholders.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::ids::Seat;
/// The language is a plain word of a stored game, so it lives below the store.
pub use crate::model::Lang;

/// One argument of a [`Text`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// Shown as is (notation, numbers already formatted, ids).
    Str(String),
    Num(i64),
    /// A seat, shown as the player's name when the caller knows it.
    Seat(Seat),
    /// A nested text, localized too (a colour name, a list of forms).
    Text(Box<Text>),
    /// Several texts joined with ", ".
    List(Vec<Text>),
}

/// A localizable message: a catalog key and its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    pub key: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(String, Arg)>,
}

impl Text {
    pub fn new(key: impl Into<String>) -> Text {
        Text {
            key: key.into(),
            args: Vec::new(),
        }
    }

    /// A text that is shown verbatim in every language (notation, a name).
    pub fn raw(s: impl Into<String>) -> Text {
        Text::new("core.raw").arg("s", s.into())
    }

    pub fn arg(mut self, name: &str, value: impl Into<Arg>) -> Text {
        self.args.push((name.to_string(), value.into()));
        self
    }

    /// Renders with seats shown as "seat N".
    pub fn render(&self, lang: Lang) -> String {
        self.render_with(lang, &[])
    }

    /// Renders with `names[seat]` for seat arguments (falls back to "seat N").
    pub fn render_with(&self, lang: Lang, names: &[String]) -> String {
        fill(lookup(lang, &self.key), self, lang, names)
    }
}

/// Fills a catalog template with a text's arguments.
fn fill(template: &str, text: &Text, lang: Lang, names: &[String]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let inner = &after[..close];
                let (name, forms) = match inner.split_once('|') {
                    Some((name, forms)) => (name, forms.split_once('|')),
                    None => (inner, None),
                };
                match text.args.iter().find(|(n, _)| n == name) {
                    Some((_, arg)) => match forms {
                        Some((one, other)) => {
                            out.push_str(if singular(arg, lang) { one } else { other })
                        }
                        None => out.push_str(&render_arg(arg, lang, names)),
                    },
                    // A count not given (an older stored text): the plural reads well for most.
                    None if forms.is_some() => out.push_str(forms.map_or("", |(_, other)| other)),
                    None => {
                        out.push('{');
                        out.push_str(inner);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a count takes the singular: 1 in English; 0 and 1 in French ("0 point").
fn singular(arg: &Arg, lang: Lang) -> bool {
    let n = match arg {
        Arg::Num(n) => Some(*n),
        Arg::Str(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    match (n, lang) {
        (Some(n), Lang::En) => n == 1,
        (Some(n), Lang::Fr) => n == 0 || n == 1 || n == -1,
        (None, _) => false,
    }
}

impl fmt::Display for Text {
    /// English, for logs and `Display` of error types.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}
impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}
impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Num(n)
    }
}
impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Num(i64::from(n))
    }
}
impl From<u8> for Arg {
    fn from(n: u8) -> Arg {
        Arg::Num(i64::from(n))
    }
}
impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
    }
}
impl From<Seat> for Arg {
    fn from(s: Seat) -> Arg {
        Arg::Seat(s)
    }
}
impl From<Text> for Arg {
    fn from(t: Text) -> Arg {
        Arg::Text(Box::new(t))
    }
}
impl From<Vec<Text>> for Arg {
    fn from(t: Vec<Text>) -> Arg {
        Arg::List(t)
    }
}

fn render_arg(arg: &Arg, lang: Lang, names: &[String]) -> String {
    match arg {
        Arg::Str(s) => s.clone(),
        Arg::Num(n) => n.to_string(),
        Arg::Seat(seat) => names.get(seat.index()).cloned().unwrap_or_else(|| {
            Text::new("core.seat")
                .arg("n", seat.index() + 1)
                .render(lang)
        }),
        Arg::Text(t) => t.render_with(lang, names),
        Arg::List(items) => items
            .iter()
            .map(|t| t.render_with(lang, names))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The embedded catalog files: (lang, domain, TOML source). Add a line per new domain.
const SOURCES: &[(Lang, &str, &str)] = &[
    (
        Lang::En,
        "learn",
        include_str!("../../assets/i18n/en/learn.toml"),
    ),
    (
        Lang::Fr,
        "learn",
        include_str!("../../assets/i18n/fr/learn.toml"),
    ),
    (
        Lang::En,
        "core",
        include_str!("../../assets/i18n/en/core.toml"),
    ),
    (
        Lang::Fr,
        "core",
        include_str!("../../assets/i18n/fr/core.toml"),
    ),
    (
        Lang::En,
        "analysis",
        include_str!("../../assets/i18n/en/analysis.toml"),
    ),
    (
        Lang::Fr,
        "analysis",
        include_str!("../../assets/i18n/fr/analysis.toml"),
    ),
    (
        Lang::En,
        "cortexcape",
        include_str!("../../assets/i18n/en/cortexcape.toml"),
    ),
    (
        Lang::Fr,
        "cortexcape",
        include_str!("../../assets/i18n/fr/cortexcape.toml"),
    ),
    (
        Lang::En,
        "portal",
        include_str!("../../assets/i18n/en/portal.toml"),
    ),
    (
        Lang::Fr,
        "portal",
        include_str!("../../assets/i18n/fr/portal.toml"),
    ),
    (
        Lang::En,
        "vortex",
        include_str!("../../assets/i18n/en/vortex.toml"),
    ),
    (
        Lang::Fr,
        "vortex",
        include_str!("../../assets/i18n/fr/vortex.toml"),
    ),
    (
        Lang::En,
        "gates",
        include_str!("../../assets/i18n/en/gates.toml"),
    ),
    (
        Lang::Fr,
        "gates",
        include_str!("../../assets/i18n/fr/gates.toml"),
    ),
    (
        Lang::En,
        "render",
        include_str!("../../assets/i18n/en/render.toml"),
    ),
    (
        Lang::Fr,
        "render",
        include_str!("../../assets/i18n/fr/render.toml"),
    ),
    (
        Lang::En,
        "bot",
        include_str!("../../assets/i18n/en/bot.toml"),
    ),
    (
        Lang::Fr,
        "bot",
        include_str!("../../assets/i18n/fr/bot.toml"),
    ),
    (
        Lang::En,
        "spacelab",
        include_str!("../../assets/i18n/en/spacelab.toml"),
    ),
    (
        Lang::Fr,
        "spacelab",
        include_str!("../../assets/i18n/fr/spacelab.toml"),
    ),
    (
        Lang::En,
        "ratings",
        include_str!("../../assets/i18n/en/ratings.toml"),
    ),
    (
        Lang::Fr,
        "ratings",
        include_str!("../../assets/i18n/fr/ratings.toml"),
    ),
    (
        Lang::En,
        "replay",
        include_str!("../../assets/i18n/en/replay.toml"),
    ),
    (
        Lang::Fr,
        "replay",
        include_str!("../../assets/i18n/fr/replay.toml"),
    ),
];

type Catalog = HashMap<String, String>;

fn catalogs() -> &'static [Catalog; 2] {
    static CATALOGS: OnceLock<[Catalog; 2]> = OnceLock::new();
    CATALOGS.get_or_init(|| {
        let mut out = [Catalog::new(), Catalog::new()];
        for (lang, domain, src) in SOURCES {
            // Broken catalogs are caught by the i18n tests; at run time a bad file only loses
            // its own keys (they then show as their key), never the process.
            let table: toml::Table = src.parse().unwrap_or_default();
            flatten(domain, &table, &mut out[*lang as usize]);
        }
        out
    })
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Catalog) {
    for (k, v) in table {
        let key = format!("{prefix}.{k}");
        match v {
            toml::Value::String(s) => {
                out.insert(key, s.clone());
            }
            toml::Value::Table(t) => flatten(&key, t, out),
            _ => {}
        }
    }
}

/// A member's display name made inert for Discord's markdown: every ASCII punctuation mark gets
/// a backslash, which Discord shows as the mark itself, so a name reads as written but cannot
/// become a mention, a masked link, a spoiler, a heading or bold text in the bot's voice.
pub fn escape_markdown(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A text made inert for a terminal: control characters (escape sequences start with one, and
/// a carriage return or line feed would start a line of its own) and the marks that reorder
/// text around them are dropped, so a name or typed line cannot clear the screen or forge a
/// line. `lines` keeps line feeds, for a text of several lines written by the program itself.
pub fn terminal_safe(text: &str, lines: bool) -> String {
    text.chars()
        .filter(|&c| {
            (lines && c == '\n')
                || !(c.is_control()
                    || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
        })
        .collect()
}

/// The template for `key`, falling back to English and then to the key itself.
pub fn lookup(lang: Lang, key: &str) -> &str {
    let cats = catalogs();
    cats[lang as usize]
        .get(key)
        .or_else(|| cats[Lang::En as usize].get(key))
        .map_or(key, String::as_str)
}

/// Whether the catalogs have `key` (English is the reference: both have the same keys, tested).
pub fn has_key(key: &str) -> bool {
    catalogs()[Lang::En as usize].contains_key(key)
}

/// Shorthand: the plain template of a key with no arguments.
pub fn tr(lang: Lang, key: &str) -> String {
    Text::new(key).render(lang)
}

/// Every key of a language (for tests and tooling).
pub fn keys(lang: Lang) -> Vec<&'static str> {
    let mut v: Vec<&str> = catalogs()[lang as usize]
        .keys()
        .map(String::as_str)
        .collect();
    v.sort_unstable();
    v
}

/// Checks every embedded catalog parses; used by tests.
pub fn check_sources() -> Result<(), String> {
    for (lang, domain, src) in SOURCES {
        src.parse::<toml::Table>()
            .map_err(|e| format!("assets/i18n/{}/{domain}.toml: {e}", lang.code()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn placeholders(s: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = s;
        while let Some(o) = rest.find('{') {
            let after = &rest[o + 1..];
            if let Some(c) = after.find('}') {
                // `{n|one|other}` uses the argument `n`; its words differ by language.
                let inner = &after[..c];
                let name = inner.split_once('|').map_or(inner, |(n, _)| n);
                out.insert(name.to_string());
                rest = &after[c + 1..];
            } else {
                break;
            }
        }
        out
    }

    #[test]
    fn catalogs_parse() {
        check_sources().unwrap();
    }

    #[test]
    fn english_and_french_have_the_same_keys_and_placeholders() {
        let en = keys(Lang::En);
        let fr = keys(Lang::Fr);
        let missing_fr: Vec<_> = en.iter().filter(|k| !fr.contains(k)).collect();
        let missing_en: Vec<_> = fr.iter().filter(|k| !en.contains(k)).collect();
        assert!(missing_fr.is_empty(), "missing in French: {missing_fr:?}");
        assert!(missing_en.is_empty(), "missing in English: {missing_en:?}");
        for k in en {
            assert_eq!(
                placeholders(lookup(Lang::En, k)),
                placeholders(lookup(Lang::Fr, k)),
                "placeholders differ for {k}"
            );
        }
    }

    #[test]
    fn words_agree_with_their_number_in_each_language() {
        let pts = |n: i64, lang| fill("{n} {n|pt|pts}", &Text::new("x").arg("n", n), lang, &[]);
        assert_eq!(pts(1, Lang::En), "1 pt");
        assert_eq!(pts(0, Lang::En), "0 pts");
        assert_eq!(pts(2, Lang::En), "2 pts");
        assert_eq!(pts(0, Lang::Fr), "0 pt");
        assert_eq!(pts(1, Lang::Fr), "1 pt");
        assert_eq!(pts(3, Lang::Fr), "3 pts");
        let s = Text::new("core.raw").arg("n", "1");
        assert_eq!(fill("{n|set|sets}", &s, Lang::En, &[]), "set");
    }

    /// Words a number counts, both forms, in each language: a placeholder written just before one
    /// of them (or before a capitalised word and one of them, "{n} Lab cards") is a count.
    const COUNTED: [(Lang, &str); 2] = [
        (
            Lang::En,
            "action actions card cards choice choices day days game games hour hours \
             investigator investigators lobby lobbies minute minutes move moves objective \
             objectives player players point points Project Projects round rounds router \
             routers seat seats second seconds set sets step steps subject subjects tile tiles \
             tower towers turn turns",
        ),
        (
            Lang::Fr,
            "action actions carte cartes déplacement déplacements enquêteur enquêteurs \
             étape étapes heure heures jour jours joueur joueurs manche manches minute minutes \
             objectif objectifs partie parties place places point points Projet Projets \
             routeur routeurs salon salons seconde secondes série séries sujet sujets tour \
             tours tuile tuiles",
        ),
    ];

    /// Placeholders that are never numbers although a counted word may follow them ("{seat}
    /// sets the disc", "{team} moves", "the {agency} cards", "the {game} game", "the {region}
    /// card", "the {mode} round"). French "choix" is the same in both forms, so not listed.
    const NOT_COUNTS: [&str; 13] = [
        "seat", "setter", "owner", "team", "chamber", "agency", "game", "first", "name", "who",
        "region", "mode", "cmd",
    ];

    /// Every `{name}` of `s` that counts a word after it: (name, the words).
    fn counts_in(s: &str, lang: Lang) -> Vec<(String, String)> {
        let words: BTreeSet<&str> = COUNTED
            .iter()
            .filter(|(l, _)| *l == lang)
            .flat_map(|(_, w)| w.split_whitespace())
            .collect();
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(o) = rest.find('{') {
            let after = &rest[o + 1..];
            let Some(c) = after.find('}') else { break };
            let name = &after[..c];
            rest = &after[c + 1..];
            if name.contains('|') || NOT_COUNTS.contains(&name) {
                continue;
            }
            let next: Vec<&str> = rest
                .strip_prefix(' ')
                .unwrap_or("")
                .split(|ch: char| !ch.is_alphanumeric())
                .take(2)
                .collect();
            let counted = match next.as_slice() {
                [w, ..] if words.contains(w) => Some(w.to_string()),
                [m, w] if m.starts_with(char::is_uppercase) && words.contains(w) => {
                    Some(format!("{m} {w}"))
                }
                _ => None,
            };
            if let Some(w) = counted {
                out.push((name.to_string(), w));
            }
        }
        out
    }

    /// Issue 38: "1 Lab cards", "(1 cards)". Every catalog line that counts something says it
    /// with the word's two forms, `{n} {n|card|cards}`, in both languages; the forms then agree
    /// with 0, 1 and 2 as each language counts (checked by rendering them).
    #[test]
    fn every_counted_word_agrees_with_its_number_in_both_languages() {
        let mut bare = Vec::new();
        for lang in Lang::ALL {
            for key in keys(lang) {
                let line = lookup(lang, key);
                for (name, word) in counts_in(line, lang) {
                    if !line.contains(&format!("{{{name}|")) {
                        bare.push(format!("{}:{key}: {{{name}}} {word}", lang.code()));
                    }
                }
            }
        }
        assert!(
            bare.is_empty(),
            "counts without a plural form:\n{}",
            bare.join("\n")
        );
        // The detector finds what it must (a line counting cards, one counting Lab cards).
        assert_eq!(
            counts_in("({count} cards)", Lang::En),
            [("count".to_string(), "cards".to_string())]
        );
        assert_eq!(
            counts_in("{hand} Lab cards, {seat} sets", Lang::En),
            [("hand".to_string(), "Lab cards".to_string())]
        );
        // The counted lines render right for 0, 1 and 2.
        let t = |n: i64, lang| {
            Text::new("spacelab.event.turn_started")
                .arg("turn", 3i64)
                .arg("seat", "Ann")
                .arg("hand", n)
                .arg("projects", n)
                .render(lang)
        };
        assert_eq!(t(1, Lang::En), "Turn 3: Ann (1 Lab card, 1 Project).");
        assert_eq!(t(0, Lang::En), "Turn 3: Ann (0 Lab cards, 0 Projects).");
        assert_eq!(t(0, Lang::Fr), "Tour 3 : Ann (0 carte Lab, 0 Projet).");
        assert_eq!(t(2, Lang::Fr), "Tour 3 : Ann (2 cartes Lab, 2 Projets).");
    }

    #[test]
    fn renders_arguments_and_seats() {
        let t = Text::new("core.seat").arg("n", 3usize);
        assert_eq!(t.render(Lang::En), "seat 3");
        assert_eq!(t.render(Lang::Fr), "place 3");
        let raw = Text::raw("put 1 g");
        assert_eq!(raw.render(Lang::Fr), "put 1 g");
        let named = Text::new("core.raw").arg("s", Seat(1));
        assert_eq!(
            named.render_with(Lang::En, &["Ann".into(), "Bob".into()]),
            "Bob"
        );
    }

    #[test]
    fn unknown_key_shows_itself() {
        assert_eq!(tr(Lang::Fr, "no.such.key"), "no.such.key");
    }

    #[test]
    fn locales_map_to_languages() {
        assert_eq!(Lang::from_locale("fr"), Lang::Fr);
        assert_eq!(Lang::from_locale("en-US"), Lang::En);
        assert_eq!(Lang::from_locale("de"), Lang::En);
    }
}
