//! The saved games of the local table, from the command line: `croupier list`, `croupier
//! delete N`, `croupier export N FILE` (and the table's own `export FILE`).

use std::io::{BufRead, Write};
use std::path::Path;

use crate::clock::{hhmm, Date};
use crate::engine::GameId;
use crate::i18n::{terminal_safe, Lang, Text};
use crate::service::{SavedGame, SavedState, Service};

use super::user_error;

/// How many saved games `croupier list` shows at most (the most recent).
const LIST_LIMIT: u32 = 200;

/// Checks before anything is created that board images can go to `out`: a folder, or a
/// path where one can be made (nothing in the way is a file). Nothing is made yet.
pub fn prepare_out(out: &Path, lang: Lang) -> anyhow::Result<()> {
    // The path itself, else its nearest part that exists, must be a folder.
    let blocked = out
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| p.exists())
        .is_some_and(|p| !p.is_dir());
    if blocked {
        anyhow::bail!(
            "{}",
            Text::new("core.table.bad_out")
                .arg("path", out.display().to_string())
                .arg("why", Text::new("core.table.out_is_file"))
                .render(lang)
        );
    }
    Ok(())
}

/// One line of `croupier list`: number, game, players, where it stands, its last move.
fn line(g: &SavedGame, lang: Lang) -> String {
    let seats: Vec<String> = g
        .seats
        .iter()
        .map(|(name, _)| terminal_safe(name, false))
        .collect();
    let state = match g.state {
        SavedState::Running(Some(seat)) => Text::new("core.table.state_turn")
            .arg("name", seats.get(seat.index()).cloned().unwrap_or_default()),
        SavedState::Running(None) => Text::new("core.table.state_running"),
        SavedState::Finished => Text::new("core.table.state_finished"),
        SavedState::Cancelled => Text::new("core.table.state_cancelled"),
    };
    Text::new("core.table.list_line")
        .arg("id", g.id.0)
        .arg("game", g.kind.display_name())
        .arg("players", seats.join(", "))
        .arg("state", state)
        .arg("at", utc(g.last_move))
        .render(lang)
}

/// `2026-03-01 14:05 UTC`.
fn utc(at: i64) -> String {
    let minute = u16::try_from(at.rem_euclid(86_400) / 60).unwrap_or(0);
    format!(
        "{} {} UTC",
        Date::from_days(at.div_euclid(86_400)),
        hhmm(minute)
    )
}

/// `croupier list`: the saved games of the local table, the most recent first.
pub async fn list(service: &Service, lang: Lang, out: &mut impl Write) -> anyhow::Result<()> {
    let games = service
        .find()
        .local_games(LIST_LIMIT)
        .await
        .map_err(|e| user_error(e, lang))?;
    if games.is_empty() {
        writeln!(out, "{}", Text::new("core.table.list_empty").render(lang))?;
        return Ok(());
    }
    for g in &games {
        writeln!(out, "{}", line(g, lang))?;
    }
    Ok(())
}

/// `croupier delete N`: removes a saved game of the local table once `yes` is typed (or at
/// once with `--yes`). A game of a Discord server is not the table's to delete.
pub async fn delete(
    service: &Service,
    id: i64,
    yes: bool,
    lang: Lang,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let game = GameId(id);
    let found = service.find().local_game(game).await;
    let Some(saved) = found.map_err(|e| user_error(e, lang))? else {
        anyhow::bail!(
            "{}",
            Text::new("core.table.not_local").arg("id", id).render(lang)
        );
    };
    if !yes {
        writeln!(out, "{}", line(&saved, lang))?;
        write!(out, "{}", Text::new("core.table.delete_ask").render(lang))?;
        out.flush()?;
        let mut answer = String::new();
        input.read_line(&mut answer)?;
        let answer = answer.trim().to_lowercase();
        let agreed = match lang {
            Lang::En => ["yes", "y"].contains(&answer.as_str()),
            Lang::Fr => ["oui", "o", "yes", "y"].contains(&answer.as_str()),
        };
        if !agreed {
            writeln!(out, "{}", Text::new("core.table.delete_kept").render(lang))?;
            return Ok(());
        }
    }
    service
        .records()
        .delete_local(game)
        .await
        .map_err(|e| user_error(e, lang))?;
    writeln!(
        out,
        "{}",
        Text::new("core.table.deleted").arg("id", id).render(lang)
    )?;
    Ok(())
}

/// `croupier export N FILE`: the same file as `/export` (a finished or cancelled game).
pub async fn export(
    service: &Service,
    id: i64,
    path: &Path,
    lang: Lang,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let found = service.find().local_game(GameId(id)).await;
    if found.map_err(|e| user_error(e, lang))?.is_none() {
        anyhow::bail!(
            "{}",
            Text::new("core.table.not_local").arg("id", id).render(lang)
        );
    }
    let done = write_export(service, GameId(id), &path.to_string_lossy(), lang)
        .await
        .map_err(anyhow::Error::msg)?;
    writeln!(out, "{done}")?;
    Ok(())
}

/// Writes the record of `game` to `path` as `/export` makes it, never over an existing file.
/// `Ok`: what to tell; `Err`: why not, in one line.
pub(super) async fn write_export(
    service: &Service,
    game: GameId,
    path: &str,
    lang: Lang,
) -> Result<String, String> {
    if path.is_empty() {
        return Err(Text::new("core.table.export_usage").render(lang));
    }
    let file = service
        .records()
        .export(game)
        .await
        .map_err(|e| e.text().render(lang))?;
    let bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(&bytes));
    if let Err(e) = written {
        let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
            Text::new("core.table.exists").render(lang)
        } else {
            e.to_string()
        };
        return Err(Text::new("core.table.cannot_write")
            .arg("path", terminal_safe(path, false))
            .arg("why", why)
            .render(lang));
    }
    Ok(Text::new("core.table.exported")
        .arg("id", game.0)
        .arg("path", terminal_safe(path, false))
        .render(lang))
}
