//! A game's record as a file (`/export`), and back (`croupier table --import FILE`), so a
//! player can study a game or report a rules question with the exact position.
//!
//! The file is JSON: a format name and version, the game, the seed and options, the seats by
//! name, every live option in order (seat and canonical notation), and the final stored state
//! (read back only for the rule versions it was played under, issue 25, and to check that the
//! record replays to it). Only a finished or cancelled game is exported: the seed alone tells
//! every hidden card, so a running game's record would give its hands away.

use serde::{Deserialize, Serialize};

use super::{seed_from_i64, Records, ServiceError};
use crate::engine::{AnyGame, GameId, GameKind, GameOptions, Seat};
use crate::i18n::Text;
use crate::store::{GameStatus, NewGame, NewSeat, TimeoutPolicy};

/// The `format` of our game files.
pub const FILE_FORMAT: &str = "croupier-game";
/// The version of the file's layout this program writes and reads.
pub const FILE_VERSION: u32 = 1;
/// The longest seat name a game file may carry (Discord's own names stop at 32 characters).
pub const MAX_SEAT_NAME: usize = 100;

/// One option of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMove {
    /// 0-based seat.
    pub seat: u8,
    pub notation: String,
}

/// A game's record as exported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFile {
    pub format: String,
    pub version: u32,
    /// The game's id (`cortexcape`).
    pub game: String,
    /// Its number where it was played.
    pub id: i64,
    pub seed: u64,
    pub options: GameOptions,
    /// Seat names in seat order.
    pub seats: Vec<String>,
    pub moves: Vec<FileMove>,
    /// `finished` or `cancelled`.
    pub status: String,
    /// The stored state at the end, as written by the program that played it.
    pub end_state: serde_json::Value,
}

impl GameFile {
    /// The file's name when sent: `cortexcape-12.json`.
    pub fn file_name(&self) -> String {
        format!("{}-{}.json", self.game, self.id)
    }

    /// Reads a file; a friendly reason when it is not one of ours or does not replay.
    pub fn parse(text: &str) -> Result<GameFile, Text> {
        let file: GameFile = serde_json::from_str(text)
            .map_err(|e| Text::new("replay.file_bad").arg("why", e.to_string()))?;
        if file.format != FILE_FORMAT {
            return Err(Text::new("replay.file_bad").arg("why", "not a croupier game file"));
        }
        if file.version > FILE_VERSION {
            return Err(Text::new("replay.file_newer").arg("version", i64::from(file.version)));
        }
        // Discord names are at most 32 characters; a longer one is no record of ours, and a
        // 100,000-character one would be stored before any board showed it.
        if file.seats.iter().any(|n| n.chars().count() > MAX_SEAT_NAME) {
            return Err(Text::new("replay.file_bad").arg(
                "why",
                format!("a seat name is longer than {MAX_SEAT_NAME} characters"),
            ));
        }
        file.replay()?;
        Ok(file)
    }

    /// The game's kind, if this program knows it.
    pub fn kind(&self) -> Result<GameKind, Text> {
        GameKind::parse(&self.game).ok_or_else(|| {
            Text::new("replay.file_bad").arg("why", format!("unknown game {}", self.game))
        })
    }

    /// The game as set up, under the rules it was played with.
    pub fn setup(&self) -> Result<Box<dyn AnyGame>, Text> {
        let mut game = self
            .kind()?
            .setup(&self.options, self.seats.len(), self.seed)
            .map_err(|e| e.text())?;
        game.keep_rules_of_json(&self.end_state.to_string());
        Ok(game)
    }

    /// The game after every move of the file, checked one by one (the move that does not
    /// replay is named).
    pub fn replay(&self) -> Result<Box<dyn AnyGame>, Text> {
        let mut game = self.setup()?;
        for (i, m) in self.moves.iter().enumerate() {
            game.apply_notation(Seat(m.seat), &m.notation)
                .map_err(|e| {
                    Text::new("replay.file_move")
                        .arg("n", i + 1)
                        .arg("move", m.notation.clone())
                        .arg("why", e.text())
                })?;
        }
        Ok(game)
    }
}

impl Records<'_> {
    /// The record of a finished or cancelled game, as a file.
    pub async fn export(self, game: GameId) -> Result<GameFile, ServiceError> {
        let record = self.core.store.game(game).await?;
        match record.status {
            GameStatus::Finished | GameStatus::Cancelled => {}
            GameStatus::Lobby => return Err(super::LobbyError::NotStarted(game).into()),
            GameStatus::Active => return Err(super::LobbyError::ExportRunning(game).into()),
        }
        let moves = self.core.store.moves(game).await?;
        Ok(GameFile {
            format: FILE_FORMAT.into(),
            version: FILE_VERSION,
            game: record.kind.id().into(),
            id: game.0,
            seed: seed_from_i64(record.seed),
            options: record.options.clone(),
            seats: record.seats.iter().map(|s| s.name.clone()).collect(),
            moves: moves
                .iter()
                .map(|m| FileMove {
                    seat: m.seat.0,
                    notation: m.notation.clone(),
                })
                .collect(),
            status: record.status.as_str().into(),
            end_state: serde_json::from_str(&record.state).unwrap_or(serde_json::Value::Null),
        })
    }

    /// Deletes a game of the local table with its moves. `Ok(false)`: the game exists but
    /// was played on a server, so it is not the table's to delete.
    pub async fn delete_local(self, game: GameId) -> Result<bool, ServiceError> {
        self.core.store.game(game).await?;
        Ok(self.core.store.delete_local_game(game).await?)
    }

    /// A new local game (no server, no players to ping) set up as `file`'s was, under its
    /// rules, with no move played yet: the table then plays the file's moves one by one.
    pub async fn import(self, file: &GameFile, now: i64) -> Result<GameId, ServiceError> {
        let bad = |t| ServiceError::Lobby(super::LobbyError::ImportBad(t));
        let game = file.setup().map_err(bad)?;
        let new = NewGame {
            kind: file.kind().map_err(bad)?,
            options: file.options.clone(),
            seed: super::seed_to_i64(file.seed),
            state: game.to_json(),
            status: GameStatus::Active,
            guild: None,
            channel: None,
            thread: None,
            host: None,
            seats: file
                .seats
                .iter()
                .map(|name| NewSeat {
                    user: None,
                    name: name.clone(),
                    is_bot: false,
                })
                .collect(),
            clock_secs: None,
            policy: TimeoutPolicy::default(),
            lang: None,
            now,
        };
        let id = self.core.store.create_game(&new).await?;
        let mut loaded = self.core.load(id).await?;
        self.core.start_clock(&mut loaded, now).await?;
        Ok(id)
    }
}
