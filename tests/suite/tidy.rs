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
    // A token that never prints, held by the bot and read by the configuration.
    ("secret", &[]),
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
            "service", "engine", "model", "ai", "rules", "i18n", "clock", "ops", "secret",
        ],
    ),
    (
        "table",
        &["service", "engine", "ai", "rules", "i18n", "clock"],
    ),
    // What the binary reads at start: the timers, limits and URLs of the layers it configures.
    ("config", &["service", "bot", "store", "clock", "secret"]),
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
    paths_after(text, "crate::")
}

/// The first names after `prefix` (`crate::`, `super::`) in a file's product code, with the
/// line of each, in every form: `prefix::x::..`, `prefix::{x, y::..}`, and inside attribute
/// strings (`#[autocomplete = "super::common::f"]`).
fn paths_after(text: &str, prefix: &str) -> Vec<(usize, String)> {
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
    for (at, _) in joined.match_indices(prefix) {
        let before = joined[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &joined[at + prefix.len()..];
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

/// `LAYERS` is a list from the bottom up: a layer may name only layers above it in the list
/// (below it in the code), so the allowed edges cannot form a cycle.
#[test]
fn the_list_of_layers_is_in_order() {
    let mut problems = Vec::new();
    for (i, (layer, may)) in LAYERS.iter().enumerate() {
        for to in *may {
            match LAYERS.iter().position(|(l, _)| l == to) {
                Some(j) if j < i => {}
                Some(_) => problems.push(format!("`{layer}` may name `{to}`, listed after it")),
                None => problems.push(format!("`{layer}` may name `{to}`, not in LAYERS")),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "LAYERS out of order:\n{}",
        problems.join("\n")
    );
}

/// No front end holds the store: the bot and the table reach it only through the service's
/// use cases and handles. `Service::store` is for tests, which check what was written.
#[test]
fn only_the_service_holds_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in files
        .iter()
        .filter(|f| !f.starts_with(root.join("service")) && !f.starts_with(root.join("store")))
    {
        let text = std::fs::read_to_string(file).unwrap();
        // Joined, so a call split over lines (`service\n    .store()`) is seen too.
        let joined: String = product_lines(&text)
            .into_iter()
            .map(|(_, code)| code.trim().to_string())
            .collect();
        if joined.contains(".store()") {
            problems.push(file.display().to_string());
        }
    }
    assert!(
        problems.is_empty(),
        "`.store()` outside src/service (use a use case of `Service` instead): {problems:?}"
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

/// The files of `src/bot` import each other without a cycle (issue 39): what several command
/// files need lives in `common.rs`, the command list in `registry.rs`. An edge A -> B is A
/// naming `super::B` (B a sibling file); `mod.rs`, the root that holds `Data`, `Error` and
/// the id conversions every file uses, is not a node.
#[test]
fn the_bots_files_import_each_other_without_a_cycle() {
    use std::collections::{BTreeMap, BTreeSet};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bot");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let name = |p: &Path| p.file_stem().unwrap().to_string_lossy().into_owned();
    let nodes: BTreeSet<String> = files
        .iter()
        .filter(|p| p.parent() == Some(dir.as_path()))
        .map(|p| name(p))
        .filter(|n| n != "mod")
        .collect();
    assert!(nodes.len() > 10 && nodes.contains("common"), "{nodes:?}");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files.iter().filter(|p| nodes.contains(&name(p))) {
        let text = std::fs::read_to_string(path).unwrap();
        let to: BTreeSet<String> = paths_after(&text, "super::")
            .into_iter()
            .map(|(_, m)| m)
            .filter(|m| nodes.contains(m) && *m != name(path))
            .collect();
        edges.insert(name(path), to);
    }
    // Depth-first search; a node met again on the current path closes a cycle.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut cycle = path[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in &nodes {
        if let Some(cycle) = visit(n, &edges, &mut Vec::new(), &mut done) {
            panic!("src/bot imports in a cycle: {}", cycle.join(" -> "));
        }
    }
    // The checker sees each form of a path: it would have caught the old cycle.
    let text = "use super::commands::{defer};\n#[autocomplete = \"super::clocks::f\"] x\n\
                use super::{common, send::{self, a}};";
    let found: Vec<String> = paths_after(text, "super::")
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(found, ["commands", "clocks", "common", "send"]);
}
