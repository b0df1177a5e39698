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
