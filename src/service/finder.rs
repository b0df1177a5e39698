//! Which games ([`Finder`]): the game of a channel or thread, a member's games, the games
//! shown in a place or a server, for commands that name no game and for autocomplete.

use super::*;

impl Finder<'_> {
    /// The local table's saved games (no server, channel or thread), the most recently
    /// played first, at most `limit`.
    pub async fn local_games(self, limit: u32) -> Result<Vec<SavedGame>, ServiceError> {
        let records = self.core.store.local_games(limit).await?;
        Ok(records.iter().map(SavedGame::of).collect())
    }

    /// Game `game` if the local table played it; `None` for a game of a server.
    pub async fn local_game(self, game: GameId) -> Result<Option<SavedGame>, ServiceError> {
        let record = self.core.store.game(game).await?;
        let local = record.guild.is_none() && record.channel.is_none() && record.thread.is_none();
        Ok((local && record.status != GameStatus::Lobby).then(|| SavedGame::of(&record)))
    }

    /// A member's games, newest first, at most `limit` (their turn marked).
    pub async fn games_of_user(self, user: i64, limit: u32) -> Result<Vec<GameLine>, ServiceError> {
        self.core.games_of_user(user, limit).await
    }

    /// The game a command typed in `channel` (a channel or a thread) is about: the one played
    /// in that thread, else the only lobby or running game there in which `user` is seated (or the only
    /// one at all).
    pub async fn game_here(self, channel: i64, user: i64) -> Result<GameId, ServiceError> {
        let games: Vec<GameRecord> = self
            .core
            .store
            .games_in_channel(channel, None, 50)
            .await?
            .into_iter()
            .filter(|g| matches!(g.status, GameStatus::Lobby | GameStatus::Active))
            .collect();
        if let Some(g) = games.iter().find(|g| g.thread == Some(channel)) {
            return Ok(g.id);
        }
        let mine: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.seats.iter().any(|s| s.user == Some(user)))
            .collect();
        let pick: Vec<GameId> = if mine.is_empty() {
            games.iter().map(|g| g.id).collect()
        } else {
            mine.iter().map(|g| g.id).collect()
        };
        match pick.as_slice() {
            [] => Err(LobbyError::NoGameHere.into()),
            [one] => Ok(*one),
            many => Err(LobbyError::SeveralGames(many.to_vec()).into()),
        }
    }

    /// Lobbies and running games shown in `place` (a deleted thread or channel): those whose
    /// thread it was, and those whose channel it was.
    pub async fn games_shown_in(
        self,
        place: i64,
    ) -> Result<(Vec<GameId>, Vec<GameId>), ServiceError> {
        let games = self.core.store.games_in_channel(place, None, 1000).await?;
        let live = games
            .iter()
            .filter(|g| matches!(g.status, GameStatus::Lobby | GameStatus::Active));
        let (threads, channels): (Vec<&GameRecord>, Vec<&GameRecord>) =
            live.partition(|g| g.thread == Some(place));
        Ok((
            threads.iter().map(|g| g.id).collect(),
            channels.iter().map(|g| g.id).collect(),
        ))
    }

    /// Lobbies and running games of a guild the bot was removed from.
    pub async fn games_of_guild(self, guild: i64) -> Result<Vec<GameId>, ServiceError> {
        Ok(self.core.store.live_games_in_guild(guild, 10_000).await?)
    }

    /// The game kind of a thread's game, if the channel is a game's thread (for `/rules`).
    pub async fn kind_here(self, channel: i64) -> Result<Option<GameKind>, ServiceError> {
        let games = self.core.store.games_in_channel(channel, None, 50).await?;
        Ok(games
            .iter()
            .find(|g| g.thread == Some(channel))
            .map(|g| g.kind))
    }

    /// The game whose thread `channel` is, whatever its status (a finished game's thread
    /// stays where its players look for its replay), if any.
    pub async fn game_of_thread(self, channel: i64) -> Result<Option<GameId>, ServiceError> {
        Ok(self
            .core
            .store
            .games_in_channel(channel, None, 50)
            .await?
            .iter()
            .find(|g| g.thread == Some(channel))
            .map(|g| g.id))
    }
}

/// A saved game of the local table, as `croupier list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    pub id: GameId,
    pub kind: GameKind,
    /// Seat names as they go into text, each with whether a bot holds it.
    pub seats: Vec<(String, bool)>,
    pub state: SavedState,
    /// When it last changed (its last move, or its end).
    pub last_move: i64,
}

/// Where a saved game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SavedState {
    /// Running; the seat whose turn it is.
    Running(Option<Seat>),
    Finished,
    Cancelled,
}

impl SavedGame {
    fn of(record: &GameRecord) -> SavedGame {
        SavedGame {
            id: record.id,
            kind: record.kind,
            seats: text_names(record)
                .into_iter()
                .zip(record.seats.iter().map(|s| s.is_bot))
                .collect(),
            state: match record.status {
                GameStatus::Finished => SavedState::Finished,
                GameStatus::Cancelled => SavedState::Cancelled,
                GameStatus::Active | GameStatus::Lobby => SavedState::Running(record.clock.seat),
            },
            last_move: record.updated_at,
        }
    }
}
