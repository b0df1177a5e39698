//! Architecture invariants that the compiler does not check.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The pure core knows no Discord, no SQL, no async runtime, no files, no clock, no environment.
#[test]
fn pure_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "serenity",
        "poise",
        "sqlx",
        "tokio",
        "std::fs",
        "std::env",
        "std::net",
        "SystemTime",
        "Instant::now",
        "thread_rng",
        "StdRng",
        "println!",
        "eprintln!",
    ];
    let mut files = Vec::new();
    for dir in ["engine", "games", "render", "rules", "i18n", "ai"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(!files.is_empty());
    let mut problems = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    problems.push(format!("{}:{}: uses {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "pure modules doing I/O:\n{}",
        problems.join("\n")
    );
}

/// Only `store/` writes SQL.
#[test]
fn only_the_store_knows_sql() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !f.starts_with(root.join("store")))
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("sqlx"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "sqlx outside store/: {offenders:?}");
}

/// The layers of `src/`, lowest first, and the layers each may name (`crate::X` paths and
/// `use crate::{X, ..}` groups). Test code (`tests.rs` files, `#[cfg(test)]` items) may reach
/// further and is not checked. A new module of `src/` must be placed here.
const LAYERS: &[(&str, &[&str])] = &[
    // Newtypes every layer names (seats, game ids, versions), and the plain words of a stored
    // game (status, seats, DM state, timeout policy, language, bot level, job kinds) that the
    // store writes and the layers above read.
    ("ids", &[]),
    ("model", &["ids"]),
    ("render", &[]),
    ("i18n", &["ids", "model"]),
    // The contract and the type-erased game: a leaf under the games and the bots. It draws
    // with the render kit (Zoom crops) and speaks in `Text`s.
    ("engine", &["ids", "i18n", "render"]),
    ("rules", &["engine", "i18n"]),
    ("games", &["engine", "i18n", "render"]),
    // Bots reach the concrete game behind a `dyn AnyGame` through the games registry.
    ("ai", &["engine", "games", "model"]),
    ("clock", &[]),
    ("ops", &[]),
    ("store", &["engine", "model", "clock", "ops"]),
    (
        "service",
        &[
            "engine", "model", "games", "ai", "store", "render", "i18n", "clock", "ops",
        ],
    ),
    (
        "bot",
        &[
            "service", "engine", "model", "ai", "rules", "i18n", "clock", "ops", "config",
        ],
    ),
    ("table", &["service", "engine", "ai", "i18n", "clock"]),
    // What the binary reads at start: the timers, limits and URLs of the layers it configures.
    ("config", &["service", "bot", "store", "clock"]),
];

/// Edges the layers above forbid that the code still has, each with why. The test fails when
/// one is no longer used, so this list only shrinks. Empty since issue 23 moved `Seat` below
/// i18n (`ids`) and the stored game's plain words below the store (`model`).
const DEBT: &[(&str, &str)] = &[];

/// The layer a file of `src/` belongs to: its top folder, or its file name for a one-file
/// module. `None` for the crate root and the binary.
fn layer_of(root: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(root).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The code of a file without comments and without test code, as (line number, text).
fn product_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let code = line.split("//").next().unwrap_or("");
        if code.trim() != "#[cfg(test)]" {
            out.push((n + 1, code.to_string()));
            continue;
        }
        // Skip the next item: up to its `;`, or through its braces.
        let mut depth = 0i32;
        for (_, next) in lines.by_ref() {
            let code = next.split("//").next().unwrap_or("");
            depth += i32::try_from(code.matches('{').count()).unwrap();
            depth -= i32::try_from(code.matches('}').count()).unwrap();
            let ended = code.trim_end().ends_with(';') || code.trim_end().ends_with('}');
            if depth <= 0 && ended && !code.trim().is_empty() {
                break;
            }
        }
    }
    out
}

/// The top-level modules a file names through `crate::`, with the line of each.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let lines = product_lines(text);
    // Join the lines so a `use crate::{..}` group may span several of them.
    let mut joined = String::new();
    let mut line_at = Vec::new();
    for (n, code) in &lines {
        joined.push_str(code);
        joined.push('\n');
        line_at.resize(joined.len(), *n);
    }
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (at, _) in joined.match_indices("crate::") {
        let before = joined[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &joined[at + "crate::".len()..];
        let line = line_at[at];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: after `{` and after each `,` at depth 0.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.push((line, ident(&group[i..])));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push((line, ident(rest)));
        }
    }
    out
}

/// Each layer names only the layers below it that it is allowed to (see `LAYERS`).
#[test]
fn layers_point_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let allowed = |from: &str, to: &str| {
        from == to
            || LAYERS
                .iter()
                .any(|(l, may)| *l == from && may.contains(&to))
    };
    let mut problems = Vec::new();
    let mut debt_used = vec![false; DEBT.len()];
    for file in &files {
        let Some(from) = layer_of(&root, file) else {
            continue;
        };
        if !LAYERS.iter().any(|(l, _)| *l == from) {
            problems.push(format!(
                "{}: module `{from}` has no place in LAYERS",
                file.display()
            ));
            continue;
        }
        if file.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (line, to) in crate_paths(&text) {
            if allowed(&from, &to) {
                continue;
            }
            if let Some(i) = DEBT.iter().position(|&(f, t)| f == from && t == to) {
                debt_used[i] = true;
                continue;
            }
            problems.push(format!(
                "{}:{line}: `{from}` may not name `crate::{to}`",
                file.display()
            ));
        }
    }
    for ((from, to), used) in DEBT.iter().zip(debt_used) {
        if !used {
            problems.push(format!(
                "`{from}` no longer names `crate::{to}`: remove it from DEBT"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "layers pointing the wrong way (see LAYERS in tests/suite/tidy.rs):\n{}",
        problems.join("\n")
    );
}

/// The test's own reading of paths, on the forms the code uses.
#[test]
fn crate_paths_are_read_in_every_form() {
    let text = "use crate::engine::Seat;\n\
                use crate::{\n    ai::{Level, Method},\n    i18n,\n};\n\
                let x = crate::store::GameStatus::Open; // crate::bot in a comment\n\
                #[cfg(test)]\nmod tests {\n    use crate::service::Service;\n}\n\
                #[cfg(test)]\nuse crate::table::Table;\n\
                fn f() { $crate::x(); }\n";
    let found: Vec<(usize, String)> = crate_paths(text);
    let want = [(1, "engine"), (2, "ai"), (2, "i18n"), (6, "store")];
    assert_eq!(
        found,
        want.map(|(n, m)| (n, m.to_string())).to_vec(),
        "{found:?}"
    );
}
