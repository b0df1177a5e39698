//! The boards use case ([`Boards`]): the current board shown to one member, zoomed for a
//! phone, recorded as posted, and re-posted when its post was lost.

use super::*;

impl Boards<'_> {
    /// The current board (and the viewer's private post, if any) without changing anything,
    /// to show to one member: the players' settings are not read (nothing is posted).
    /// A game stopped by a resignation or a cancel shows no turn and no options: the standings
    /// after the resignation (see [`Boards::show_ended`]), or that it was cancelled.
    pub async fn show(self, game: GameId, lang: Lang) -> Result<Outputs, ServiceError> {
        let loaded = self.core.load(game).await?;
        if !stopped(&loaded) {
            return super::core::rendering(move || output::after_change(&loaded, &[], lang)).await;
        }
        if loaded.record.status == GameStatus::Cancelled {
            let text = Text::new("bot.cancelled")
                .arg("game", loaded.record.kind.display_name())
                .arg("id", game.0)
                .render(lang);
            let mut out =
                super::core::rendering(move || output::after_change(&loaded, &[], lang)).await?;
            let board = &mut out.board;
            board.prompt = None;
            board.deadline = None;
            board.mention = None;
            board.text = text;
            return Ok(out);
        }
        let resigned = self.core.store.ending(game).await?.resigned;
        let note = resigned.map_or_else(String::new, |seat| {
            Text::new("bot.resigned")
                .arg("seat", seat)
                .arg("id", game.0)
                .render_with(lang, &loaded.names())
        });
        let note = note.trim().to_string();
        super::core::rendering(move || ended(&loaded, resigned, &note, lang)).await
    }

    /// The board as a front end opening a stored game shows it, with the events it showed
    /// when it was played: the setup's (a game's automatic first steps) when no option was
    /// played yet, else the last option's, replayed from the log. [`Boards::show`] has none.
    pub async fn opening(self, game: GameId, lang: Lang) -> Result<Outputs, ServiceError> {
        let loaded = self.core.load(game).await?;
        let moves = self.core.store.moves(game).await?;
        let Some((last, before)) = moves.split_last() else {
            return super::core::rendering(move || output::first_board(&loaded, lang)).await;
        };
        let before: Vec<(Seat, String)> = before
            .iter()
            .map(|m| (m.seat, m.notation.clone()))
            .collect();
        // A log that no longer replays shows the board without events, as `show` does.
        let applied = rebuild(&loaded.record, &before)
            .ok()
            .and_then(|mut g| g.apply_notation(last.seat, &last.notation).ok());
        super::core::rendering(move || output::after_change(&loaded, applied.as_slice(), lang))
            .await
    }

    /// The board of a game ended by a resignation or a cancel: no prompt, and the final
    /// standings ([`standings`]: the resigning seat last, a resigned puzzle unsolved) after
    /// `note`.
    pub async fn show_ended(
        self,
        game: GameId,
        note: &str,
        lang: Lang,
    ) -> Result<Outputs, ServiceError> {
        let loaded = self.core.load(game).await?;
        let resigned = self.core.store.ending(game).await?.resigned;
        let note = note.to_string();
        super::core::rendering(move || ended(&loaded, resigned, &note, lang)).await
    }

    /// [`Boards::show`] to post again in the game's place: with what the players' settings
    /// say about pings and hand DMs.
    pub async fn show_to_post(self, game: GameId, lang: Lang) -> Result<Outputs, ServiceError> {
        Ok(self.core.with_settings(self.show(game, lang).await?).await)
    }

    /// The Zoom answer for `user` (a player or a spectator): the parts of the current board that
    /// matter to them, at full size, in the board's language (the game's; `lang` only for a game
    /// stored without one). `None` if the game has no part
    /// to show (no board yet).
    pub async fn zoom(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
    ) -> Result<Option<ZoomPost>, ServiceError> {
        let loaded = self.core.load(game).await?;
        let lang = super::core::public_lang(&loaded.record, lang);
        super::core::rendering(move || output::zoom_post(&loaded, user, lang)).await
    }

    /// Notes that the board of `version` went out, so nobody posts it again. With its message,
    /// that board becomes the live one; returns the board message it replaced (to retire).
    pub async fn board_posted(
        self,
        game: GameId,
        version: Version,
        message: Option<i64>,
    ) -> Result<Option<i64>, ServiceError> {
        Ok(self.core.store.mark_posted(game, version, message).await?)
    }

    /// Started or finished games whose current version has no board out yet, with that
    /// version. Boards on their way are among them: re-post only what stays here a while.
    pub async fn unposted_boards(self, limit: u32) -> Result<Vec<(GameId, Version)>, ServiceError> {
        Ok(self
            .core
            .store
            .unposted_boards(self.core.now(), limit)
            .await?)
    }

    /// The current board of a game whose board of `version` never went out, if this process
    /// wins the re-post (for [`BOARD_LEASE_SECS`]; then it retries) and the game is still at
    /// `version`. In the game's language, with every hand again: those DMs were lost with it.
    pub async fn repost(
        self,
        game: GameId,
        version: Version,
    ) -> Result<Option<Outputs>, ServiceError> {
        if !self
            .core
            .store
            .claim_board(game, version, self.core.now(), BOARD_LEASE_SECS)
            .await?
        {
            return Ok(None);
        }
        let loaded = self.core.load(game).await?;
        if loaded.record.version != version {
            return Ok(None);
        }
        let lang = super::core::game_lang(&loaded.record);
        let (out, loaded) = super::core::rendering(move || {
            let out = output::after_change(&loaded, &[], lang);
            (out, loaded)
        })
        .await?;
        let mut out = self.core.with_settings(out).await;
        // Said as the board's event: the ping and the turn line still lead.
        out.board.events = vec![Text::new("bot.turn.reposted").render(lang)];
        out.board.text = output::board_text(&loaded, &out.board.events, lang);
        Ok(Some(out))
    }
}

/// The board of a game ended by a resignation (`resigned`) or stopped: no prompt, no deadline,
/// nobody mentioned, and the final standings after `note` (when there is one).
fn ended(loaded: &Loaded, resigned: Option<Seat>, note: &str, lang: Lang) -> Outputs {
    let mut out = output::after_change(loaded, &[], lang);
    let outcome = standings(loaded.game.as_ref(), resigned);
    let board = &mut out.board;
    board.prompt = None;
    board.deadline = None;
    board.mention = None;
    let standing = outcome_text(&outcome).render_with(lang, &loaded.names());
    board.text = if note.is_empty() {
        standing
    } else {
        format!("{note}\n{standing}")
    };
    board.scores.clone_from(&outcome.scores);
    board.outcome = Some(outcome);
    out
}
