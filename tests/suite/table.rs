//! The local table binary, end to end: a real process, a real SQLite file, JSON lines out.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

struct Table {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Table {
    fn start(dir: &std::path::Path, args: &[&str]) -> Table {
        let db = format!("sqlite://{}/table.db", dir.display());
        let out = dir.join("images");
        let mut child = Command::new(env!("CARGO_BIN_EXE_croupier"))
            .args(["table", "--json", "--db", &db, "--out"])
            .arg(&out)
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("DISCORD_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the croupier binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Table {
            child,
            stdin,
            stdout,
        }
    }

    fn next(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line:?}: {e}"))
    }

    fn send(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        self.next()
    }

    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "table exited with {status}");
    }
}

fn assert_step_shape(v: &Value) {
    for key in [
        "game", "seat", "prompt", "options", "events", "scores", "error", "outcome",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}` in {v}");
    }
}

#[test]
fn a_whole_game_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &[
            "--game",
            "cortexcape",
            "--players",
            "2",
            "--seed",
            "9",
            "--variant",
            "short",
        ],
    );
    let mut step = t.next();
    assert_step_shape(&step);
    assert!(step["error"].is_null());
    let image = step["image"].as_str().unwrap().to_string();
    assert!(std::path::Path::new(&image).exists(), "board image written");

    // A refused line reports an error and changes nothing.
    let options_before = step["options"].clone();
    let refused = t.send("xyzzy");
    assert!(refused["error"].as_str().unwrap().contains("xyzzy"));
    assert_eq!(refused["options"], options_before);

    let mut turns = 0;
    while step["outcome"].is_null() {
        let first = step["options"][0].as_str().unwrap().to_string();
        step = t.send(&first);
        assert_step_shape(&step);
        assert!(step["error"].is_null(), "listed option refused: {step}");
        turns += 1;
        assert!(turns < 2000, "game does not end");
    }
    assert!(step["seat"].is_null());
    assert_eq!(step["outcome"]["scores"], step["scores"]);
    t.finish();
}

#[test]
fn a_stored_game_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(dir.path(), &["--players", "3", "--seed", "5"]);
    let mut step = t.next();
    let game = step["game"].as_i64().unwrap();
    for _ in 0..7 {
        let first = step["options"][0].as_str().unwrap().to_string();
        step = t.send(&first);
    }
    t.finish();

    let mut again = Table::start(dir.path(), &["--resume", &game.to_string()]);
    let resumed = again.next();
    assert_eq!(resumed["game"], step["game"]);
    assert_eq!(resumed["version"], step["version"]);
    assert_eq!(resumed["options"], step["options"]);
    assert_eq!(resumed["seat"], step["seat"]);
    again.finish();
}

#[test]
fn bad_command_lines_fail_with_a_clear_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(["table", "--game", "chess", "--db", "sqlite::memory:"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown game `chess`"), "{err}");

    let out = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(["table", "--players", "9", "--db", "sqlite::memory:"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 to 4 players"), "{err}");
}

#[test]
fn resuming_a_missing_game_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/t.db", dir.path().display());
    let out = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(["table", "--resume", "99", "--db", &db])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no game 99"), "{err}");
}

/// `--bots`: the bot seats decide by themselves; with every seat a bot, the game plays out
/// with no input at all, and every bot option was one the prompt listed.
#[test]
fn bots_play_their_seats() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &[
            "--players",
            "2",
            "--bots",
            "2",
            "--variant",
            "short",
            "--seed",
            "5",
        ],
    );
    let mut last = t.next();
    let mut steps = 1;
    while last["outcome"].is_null() {
        let next = t.next();
        assert_step_shape(&next);
        assert!(next["error"].is_null(), "a bot option was refused: {next}");
        last = next;
        steps += 1;
    }
    assert!(steps > 20, "a whole short game, {steps} steps");
    assert_eq!(last["outcome"]["scores"].as_array().unwrap().len(), 2);
    t.finish();

    // One bot: after the person's option, the bot answers when its seat is asked.
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &["--bots", "1", "--seed", "5", "--opt", "first=seat1"],
    );
    let first = t.next();
    assert_eq!(first["seat"], 0, "the person (seat 1) configures first");
    let mut v = t.send("layout random; done");
    // The bot (seat 2) sets the challenge by itself; the person is asked to walk.
    while v["seat"] == 1 {
        v = t.next();
    }
    assert_eq!(v["seat"], 0);
    assert_eq!(v["prompt"], "step");
    t.finish();

    let out = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args([
            "table",
            "--players",
            "2",
            "--bots",
            "3",
            "--db",
            "sqlite::memory:",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("3 bots do not fit in a 2-player game"),
        "{err}"
    );
}

/// Issue 36: at a table with bots, the person sees only their own secrets. A bot's options
/// that name its hand are never listed, its hand is never drawn into a file, and the
/// person's own private options are marked `private` in `--json`. Fails on the old table,
/// which listed every bot's cards (Space Lab's `keep flight | keep repair`) and wrote
/// `...-seat2.png` for the bot.
#[test]
fn a_person_at_a_table_with_bots_sees_only_their_own_secrets() {
    for (game, extra) in [
        ("spacelab", &[][..]),
        ("gates", &[][..]),
        ("portal", &["--opt", "hands=hidden"][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "--game",
            game,
            "--players",
            "2",
            "--bots",
            "1",
            "--seed",
            "5",
        ];
        args.extend_from_slice(extra);
        let mut t = Table::start(dir.path(), &args);
        let mut v = t.next();
        // The verbs of the person's private options (`keep`, `card`, `play`, ...), less those
        // also offered in public prompts (Gates' `despair`).
        let mut private_verbs = std::collections::BTreeSet::new();
        let mut public_verbs = std::collections::BTreeSet::new();
        let mut bot_steps = Vec::new();
        let mut person_private = 0;
        let verb = |o: &Value| o.as_str().unwrap().split(' ').next().unwrap().to_string();
        for _ in 0..120 {
            assert!(
                v.get("private").is_some(),
                "{game}: no `private` field: {v}"
            );
            if !v["outcome"].is_null() {
                break;
            }
            if v["seat"] == 0 {
                let verbs = v["options"].as_array().unwrap().iter().map(verb);
                if v["private"] == true {
                    person_private += 1;
                    private_verbs.extend(verbs);
                } else {
                    public_verbs.extend(verbs);
                }
                let pick = v["options"][0].as_str().unwrap().to_string();
                v = t.send(&pick);
                assert!(v["error"].is_null(), "{game}: `{pick}` refused: {v}");
            } else {
                assert_eq!(
                    v["private"], false,
                    "{game}: a bot's options marked private: {v}"
                );
                bot_steps.push(v);
                v = t.next();
            }
        }
        assert!(
            person_private > 0,
            "{game}: the person met no private choice"
        );
        assert!(bot_steps.len() > 5, "{game}: {} bot steps", bot_steps.len());
        let private_verbs: Vec<&String> = private_verbs.difference(&public_verbs).collect();
        assert!(
            !private_verbs.is_empty(),
            "{game}: no verb only private options use"
        );
        for s in &bot_steps {
            for o in s["options"].as_array().unwrap() {
                assert!(
                    !private_verbs.contains(&&verb(o)),
                    "{game}: the bot's private option `{o}` was listed: {s}"
                );
            }
        }
        drop(t);
        let files: Vec<String> = std::fs::read_dir(dir.path().join("images"))
            .unwrap()
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            files.iter().any(|f| f.ends_with("-seat1.png")),
            "{game}: {files:?}"
        );
        assert!(
            !files.iter().any(|f| f.ends_with("-seat2.png")),
            "{game}: the bot's hand was drawn: {files:?}"
        );
    }
}

/// A one-seat Vortex Solitaire given up at the table (`resign`, issue 36): the puzzle ends
/// unsolved, ranked below every solve (2) with no winner, where a resignation used to put the
/// only seat at rank "seat count" = 1 and call it a win.
#[test]
fn a_resigned_puzzle_is_unsolved_at_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &[
            "--game",
            "vortex",
            "--players",
            "1",
            "--seed",
            "4",
            "--opt",
            "mode=solitaire",
            "--opt",
            "solo_scramble=5",
        ],
    );
    let first = t.next();
    assert_step_shape(&first);
    assert!(first["prompt"].is_string(), "{first}");
    let end = t.send("resign");
    assert_step_shape(&end);
    assert_eq!(end["error"], Value::Null, "{end}");
    assert_eq!(end["prompt"], Value::Null, "the game is over: {end}");
    let outcome = &end["outcome"];
    assert_eq!(outcome["ranks"], serde_json::json!([2]), "{end}");
    assert_eq!(outcome["winners"], serde_json::json!([]), "{end}");
    assert_eq!(outcome["draw"], false);
    t.finish();
}
