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
    // The events its last option showed when it was played.
    assert_eq!(resumed["events"], step["events"]);
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
    assert!(err.contains("There is no game number 99."), "{err}");
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

/// The binary once, to the end: `args` after `croupier`, `input` on standard input. Returns
/// (success, stdout, stderr).
fn croupier(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_croupier"))
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the croupier binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // A closed pipe (the program stopped reading) is no failure of the test.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 39 item 4: `hand`, `history`, `rules` and `export FILE` at the table, as in Discord.
/// At a table with a bot, `hand` shows the person's own hand (in words, and drawn into a file
/// named for their seat), never the bot's; a running game is not exported, a finished one is,
/// and `croupier export N FILE` writes the same file, which `--import` replays.
#[test]
fn the_table_shows_hands_history_rules_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &[
            "--game",
            "spacelab",
            "--players",
            "2",
            "--bots",
            "1",
            "--seed",
            "5",
        ],
    );
    let mut v = t.next();
    while v["seat"] != 0 {
        v = t.next();
    }
    let hand = t.send("hand");
    assert_eq!(hand["command"], "hand", "{hand}");
    assert!(hand["error"].is_null(), "{hand}");
    assert!(!hand["lines"][0].as_str().unwrap().is_empty(), "{hand}");
    let image = hand["image"].as_str().unwrap();
    assert!(image.ends_with("-seat1.png"), "the person's own: {image}");
    assert!(std::path::Path::new(image).exists());
    let pick = v["options"][0].as_str().unwrap().to_string();
    v = t.send(&pick);
    assert!(v["error"].is_null(), "{v}");
    while v["seat"] != 0 {
        v = t.next();
    }
    let history = t.send("history");
    assert_eq!(history["command"], "history");
    let lines = history["lines"].as_array().unwrap();
    assert!(
        lines[0].as_str().unwrap().starts_with("1. Player 1: "),
        "{history}"
    );
    assert!(
        lines[1]
            .as_str()
            .unwrap()
            .starts_with("2. Bot 2 (normal): "),
        "{history}"
    );
    let rules = t.send("rules");
    assert!(rules["lines"].to_string().contains("overview"), "{rules}");
    let page = t.send("rules setup");
    assert!(
        page["lines"][0].as_str().unwrap().starts_with("# "),
        "{page}"
    );
    let unknown = t.send("rules nope");
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .contains("no rules page `nope`"),
        "{unknown}"
    );
    let running = t.send("export game.json");
    assert!(
        running["error"].as_str().unwrap().contains("still running"),
        "{running}"
    );
    // Nothing changed: the same decision is still asked.
    let board = t.send("board");
    assert_eq!(board["version"], v["version"]);
    t.finish();
    let files: Vec<String> = std::fs::read_dir(dir.path().join("images"))
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !files.iter().any(|f| f.ends_with("-seat2.png")),
        "the bot's hand was drawn: {files:?}"
    );

    // A game played to its end (a resigned puzzle), exported at the table after its end.
    let db = format!("sqlite://{}/table.db", dir.path().display());
    let out = dir.path().join("images");
    let file = dir.path().join("solo.json");
    let input = format!("resign\nhistory\nexport {}\nresign\n", file.display());
    let (ok, stdout, stderr) = croupier(
        &[
            "table",
            "--db",
            &db,
            "--out",
            &out.to_string_lossy(),
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
        &input,
    );
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("No move has been played yet."), "{stdout}");
    assert!(stdout.contains("Game 2 is written to"), "{stdout}");
    // A move after the end is refused in one line, and only the script's refusals fail.
    assert!(stdout.contains("✗ "), "{stdout}");
    let exported = std::fs::read_to_string(&file).unwrap();
    let parsed = croupier::service::GameFile::parse(&exported).unwrap();
    assert_eq!(parsed.status, "finished");
    // The same file from the command line; an existing file is never overwritten.
    let again = dir.path().join("again.json");
    let (ok, stdout, stderr) =
        croupier(&["export", "2", &again.to_string_lossy(), "--db", &db], "");
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), exported);
    let (ok, _, stderr) = croupier(&["export", "2", &again.to_string_lossy(), "--db", &db], "");
    assert!(!ok && stderr.contains("already"), "{stderr}");
    let (ok, _, stderr) = croupier(&["export", "1", "x.json", "--db", &db], "");
    assert!(!ok && stderr.contains("still running"), "{stderr}");
    let (ok, stdout, stderr) = croupier(
        &[
            "table",
            "--json",
            "--import",
            &again.to_string_lossy(),
            "--db",
            &db,
            "--out",
            &out.to_string_lossy(),
        ],
        "",
    );
    assert!(ok, "{stdout}\n{stderr}");
}

/// `croupier list` shows the saved games; `croupier delete N` asks first and removes the game
/// only on `yes`. The database file alone holds them after a clean exit (its log is folded
/// in), and `croupier games` explains every option in the language asked.
#[test]
fn saved_games_are_listed_and_deleted_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(dir.path(), &["--players", "2", "--names", "Ann,Bob"]);
    t.next();
    t.finish();
    // Copied without its -wal file: everything is in the database file itself.
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(dir.path().join("table.db"), copy.path().join("table.db")).unwrap();
    let db = format!("sqlite://{}/table.db", copy.path().display());
    let (ok, stdout, stderr) = croupier(&["list", "--db", &db], "");
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("#1 Cortexcape · Ann, Bob · running, "),
        "{stdout}"
    );
    assert!(stdout.contains(" · last move 20"), "{stdout}");
    let (ok, stdout, _) = croupier(&["list", "--db", &db, "--lang", "fr"], "");
    assert!(ok && stdout.contains("en cours"), "{stdout}");

    // A server's game (here the same row, given a channel) is not the table's to resume,
    // export or delete.
    let server = tempfile::tempdir().unwrap();
    std::fs::copy(copy.path().join("table.db"), server.path().join("table.db")).unwrap();
    let server_db = format!("sqlite://{}/table.db", server.path().display());
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&server_db).await.unwrap();
        sqlx::query("UPDATE games SET guild = 7, channel = 8")
            .execute(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
    });
    let out = server.path().join("images");
    for args in [
        vec!["table", "--resume", "1", "--out", &out.to_str().unwrap()],
        vec!["export", "1", "x.json"],
        vec!["delete", "1", "--yes"],
    ] {
        let (ok, stdout, stderr) = croupier(&[&args[..], &["--db", &server_db]].concat(), "yes\n");
        assert!(
            !ok && stderr.contains("belongs to a Discord server"),
            "{args:?}: {stdout}\n{stderr}"
        );
    }
    let (_, stdout, _) = croupier(&["list", "--db", &server_db], "");
    assert!(stdout.starts_with("No game is saved yet"), "{stdout}");

    let (ok, stdout, _) = croupier(&["delete", "1", "--db", &db], "no\n");
    assert!(ok && stdout.contains("Nothing was deleted."), "{stdout}");
    let (_, stdout, _) = croupier(&["list", "--db", &db], "");
    assert!(stdout.starts_with("#1 "), "{stdout}");
    let (ok, stdout, _) = croupier(&["delete", "1", "--db", &db], "yes\n");
    assert!(ok && stdout.contains("Game 1 is deleted."), "{stdout}");
    let (_, stdout, _) = croupier(&["list", "--db", &db], "");
    assert!(stdout.starts_with("No game is saved yet"), "{stdout}");
    let (ok, _, stderr) = croupier(&["delete", "1", "--db", &db, "--lang", "fr"], "oui\n");
    assert!(
        !ok && stderr.contains("Il n'y a pas de partie numéro 1"),
        "{stderr}"
    );

    let (ok, stdout, _) = croupier(&["games"], "");
    assert!(ok && stdout.contains("Short game: every round"), "{stdout}");
    let (ok, stdout, _) = croupier(&["games", "--lang", "fr"], "");
    assert!(
        ok && stdout.contains("Partie courte : chaque manche"),
        "{stdout}"
    );
}

/// What the table prints is safe and short: a script with a refused line fails (after a
/// byte-order mark, which is ignored), typed escape sequences are printed inert, `#0` and
/// `#999` get one line, `--out` naming a file fails before any game is stored, and the command
/// line's own errors follow `--lang fr`.
#[test]
fn bad_input_at_the_table_gets_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}/t.db", dir.path().display());
    let out = dir.path().join("images");
    let out = out.to_string_lossy();
    let script = dir.path().join("moves.txt");
    std::fs::write(&script, "\u{feff}layout random; done\nnonsense\n").unwrap();
    let (ok, stdout, stderr) = croupier(
        &[
            "table",
            "--db",
            &db,
            "--out",
            &out,
            "--seed",
            "5",
            "--script",
            &script.to_string_lossy(),
        ],
        "",
    );
    assert!(!ok, "a refused line fails the script: {stdout}");
    assert_eq!(stdout.matches("✗ ").count(), 1, "only `nonsense`: {stdout}");
    assert!(
        stderr.contains("1 line of the script was refused"),
        "{stderr}"
    );
    std::fs::write(&script, "\u{feff}layout random; done\n").unwrap();
    let (ok, stdout, stderr) = croupier(
        &[
            "table",
            "--db",
            &db,
            "--out",
            &out,
            "--seed",
            "5",
            "--script",
            &script.to_string_lossy(),
        ],
        "",
    );
    assert!(ok, "{stdout}\n{stderr}");

    let (ok, stdout, _) = croupier(
        &[
            "table",
            "--db",
            &db,
            "--out",
            &out,
            "--seed",
            "5",
            "--names",
            "A\u{1b}[2J\nB,C",
        ],
        "#0\n#999\nzz\u{1b}[2Jzz\u{9b}31m\rforged\n",
    );
    assert!(ok);
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{9b}'),
        "{stdout:?}"
    );
    assert!(!stdout.contains('\r'), "{stdout:?}");
    assert!(
        stdout.contains("A[2JB"),
        "the name less its escape and line feed: {stdout}"
    );
    for n in ["#0", "#999"] {
        let line = stdout
            .lines()
            .find(|l| l.contains(&format!("no option {n}")))
            .unwrap_or_else(|| panic!("{n}: {stdout}"));
        assert!(line.contains("#1 to #"), "{line}");
    }
    assert_eq!(stdout.matches("Expected:").count(), 1, "{stdout}");

    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let db2 = format!("sqlite://{}/t2.db", dir.path().display());
    let (ok, _, stderr) = croupier(
        &["table", "--db", &db2, "--out", &file.to_string_lossy()],
        "",
    );
    assert!(!ok && stderr.contains("no game was created"), "{stderr}");
    let (_, stdout, _) = croupier(&["list", "--db", &db2], "");
    assert!(stdout.starts_with("No game is saved yet"), "{stdout}");

    let (ok, _, stderr) = croupier(
        &[
            "table", "--game", "chess", "--lang", "fr", "--db", &db, "--out", &out,
        ],
        "",
    );
    assert!(!ok && stderr.contains("jeu inconnu `chess`"), "{stderr}");
    let (ok, _, stderr) = croupier(
        &[
            "table", "--resume", "99", "--lang", "fr", "--db", &db, "--out", &out,
        ],
        "",
    );
    assert!(
        !ok && stderr.contains("Il n'y a pas de partie numéro 99"),
        "{stderr}"
    );
}

/// A game opened from a file or from the store shows the events it showed when it was played:
/// an imported Space Lab game dealt its objectives keeps its setup's first-turn log, and a
/// resumed game its last option's events.
#[test]
fn an_opened_game_shows_the_events_it_was_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Table::start(
        dir.path(),
        &[
            "--game",
            "spacelab",
            "--players",
            "2",
            "--seed",
            "9",
            "--opt",
            "objective_setup=dealt",
        ],
    );
    let first = t.next();
    assert!(!first["events"].as_array().unwrap().is_empty(), "{first}");
    let ended = t.send("resign");
    assert!(ended["error"].is_null(), "{ended}");
    t.finish();
    let db = format!("sqlite://{}/table.db", dir.path().display());
    let file = dir.path().join("dealt.json");
    let (ok, _, stderr) = croupier(&["export", "1", &file.to_string_lossy(), "--db", &db], "");
    assert!(ok, "{stderr}");
    // An editor's byte-order mark before the JSON is ignored.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("\u{feff}{text}")).unwrap();
    let mut imported = Table::start(dir.path(), &["--import", &file.to_string_lossy()]);
    let opened = imported.next();
    assert_eq!(opened["events"], first["events"]);
    imported.finish();
    let mut resumed = Table::start(dir.path(), &["--resume", "2"]);
    assert_eq!(resumed.next()["events"], first["events"]);
    resumed.finish();
}
