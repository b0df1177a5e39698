//! The move use case, whole: a player's line (`/move`, the table) or click (a button, a menu)
//! is checked against the version they saw, played on a copy of the game, stored with the next
//! turn's clock in one transaction (tried once more when only the clock moved under it), and
//! turned into everything a front end posts ([`Outputs`]); undo takes options back. Bots and
//! timeouts store their options through [`Service::commit_applied`] too.

use super::clocks::{same_clock, stale, Mover};
use super::*;
use crate::store::Attendance;

impl Service {
    /// Plays a line for an actor. On success the moves are stored before any output is made.
    pub async fn play(&self, cmd: PlayLine, lang: Lang, now: i64) -> Result<Outputs, ServiceError> {
        let mut seen = cmd.seen;
        let mut retried = false;
        loop {
            let loaded = self.load_active(cmd.game, seen).await?;
            let version = loaded.record.version;
            let seat = self.seat_of(&loaded, cmd.actor)?;
            match self.commit_line(loaded, seat, &cmd.line, lang, now).await {
                Err(e) if !retried && clock_only_moved(&e) => {
                    (seen, retried) = (Some(version), true);
                }
                other => return other,
            }
        }
    }

    /// Loads a running game, refusing it if the actor saw another version (a click on an old
    /// board).
    pub(crate) async fn load_active(
        &self,
        game: GameId,
        seen: Option<Version>,
    ) -> Result<Loaded, ServiceError> {
        let loaded = self.load(game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        match seen {
            Some(seen) if seen != loaded.record.version => Err(PlayError::Stale {
                expected: seen,
                found: loaded.record.version,
            }
            .into()),
            _ => Ok(loaded),
        }
    }

    /// Plays `line` for `seat` on a loaded game and stores the result in one transaction
    /// (with the next turn's clock when the turn changed).
    pub(crate) async fn commit_line(
        &self,
        mut loaded: Loaded,
        seat: Seat,
        line: &str,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let hands_before = output::private_views(loaded.game.as_ref());
        let mut out = match loaded.game.play_line(seat, line) {
            Ok(applied) => {
                self.commit_applied(
                    loaded,
                    applied,
                    &hands_before,
                    lang,
                    now,
                    clocks::Mover::Player,
                )
                .await?
            }
            // Part of the line stands (it crossed a barrier, or the game keeps played parts):
            // store it like any moves, and tell the player why the rest was not played.
            Err(e @ PlayError::Stopped { .. }) => {
                let why = e.text();
                let PlayError::Stopped { kept, .. } = e else {
                    return Err(e.into());
                };
                let mut out = self
                    .commit_applied(
                        loaded,
                        kept,
                        &hands_before,
                        lang,
                        now,
                        clocks::Mover::Player,
                    )
                    .await?;
                out.refused = Some(why);
                out
            }
            Err(e) => return Err(e.into()),
        };
        // The player who moved is the one asked next (another seat of theirs counts too).
        let mover = out.table.seats.get(seat.index()).and_then(|s| s.user);
        out.same_decider =
            out.board.outcome.is_none() && mover.is_some() && out.board.mention == mover;
        Ok(out)
    }

    /// Takes back the actor's own options since the last barrier (one, or all of them).
    pub async fn undo(
        &self,
        game: GameId,
        actor: Actor,
        scope: UndoScope,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let loaded = self.load_active(game, None).await?;
        let lang = clocks::public_lang(&loaded.record, lang);
        let seat = self.seat_of(&loaded, actor)?;
        let hands_before = output::private_views(loaded.game.as_ref());
        let moves = self.store.moves(game).await?;
        let count = undoable(
            &moves
                .iter()
                .map(|m| (m.seat, m.barrier))
                .collect::<Vec<_>>(),
            seat,
            scope,
        )?;
        let keep: Vec<(Seat, String)> = moves[..moves.len() - count]
            .iter()
            .map(|m| (m.seat, m.notation.clone()))
            .collect();
        let rebuilt =
            rebuild(&loaded.record, &keep).map_err(|(i, error)| ServiceError::Replay {
                game,
                seq: moves.get(i).map_or(-1, |m| m.seq),
                error,
            })?;
        let version = self
            .store
            .undo_moves(game, loaded.record.version, count, &rebuilt.to_json(), now)
            .await?;
        let mut after = Loaded {
            record: loaded.record,
            game: rebuilt,
        };
        after.record.version = version;
        // Taking back the option that ended a turn gives the turn back: its clock restarts.
        if let Some(plan) = self
            .plan_turn(&after.record, after.game.as_ref(), now, false)
            .await?
        {
            if self.store.apply_turn_plan(game, &plan).await? {
                after.record.clock = plan.clock;
                self.wake_if_due(&plan, now);
            }
        }
        let mut out = self
            .with_settings(output::after_change_since(&after, &[], lang, &hands_before))
            .await;
        out.board.events = vec![Text::new("core.event.undone")
            .arg("seat", seat)
            .arg("count", count)
            .render_with(lang, &after.names())];
        out.board.text = output::board_text(&after, &out.board.events, lang);
        Ok(out)
    }

    /// Plays the `index`-th option of the prompt the user saw at `seen` (a button or a menu).
    pub async fn choose(
        &self,
        game: GameId,
        user: i64,
        seen: Version,
        index: usize,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        // One load serves the checks and the move (a second only when the clock alone moved
        // under the first: see `clock_only_moved`).
        let mut retried = false;
        loop {
            let loaded = self.load_active(game, Some(seen)).await?;
            let (seat, prompt) = self.deciding(&loaded, user)?;
            let line = prompt
                .options
                .get(index)
                .cloned()
                .ok_or(LobbyError::NoSuchChoice)?;
            match self.commit_line(loaded, seat, &line, lang, now).await {
                Err(e) if !retried && clock_only_moved(&e) => retried = true,
                other => return other,
            }
        }
    }

    /// Plays the applied options (already on `loaded.game`) into the store with the next
    /// turn's plan, and builds the outputs.
    pub(crate) async fn commit_applied(
        &self,
        mut loaded: Loaded,
        applied: Vec<AppliedMove>,
        hands_before: &[Option<serde_json::Value>],
        lang: Lang,
        now: i64,
        mover: Mover,
    ) -> Result<Outputs, ServiceError> {
        let lang = clocks::public_lang(&loaded.record, lang);
        let status = if loaded.game.outcome().is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        };
        let moves: Vec<crate::store::NewMove> = applied
            .iter()
            .map(|m| crate::store::NewMove {
                seat: m.seat,
                notation: m.notation.clone(),
                barrier: m.barrier,
            })
            .collect();
        let mut plan = self
            .plan_turn(
                &loaded.record,
                loaded.game.as_ref(),
                now,
                mover != Mover::Player,
            )
            .await?;
        if let Some(plan) = plan.as_mut() {
            match mover {
                Mover::Timeout(seat) => plan.attendance.push((seat, Attendance::Missed)),
                Mover::Player => {
                    for m in &applied {
                        let back = (m.seat, Attendance::Played);
                        let missed = loaded
                            .record
                            .seats
                            .get(m.seat.index())
                            .is_some_and(|s| s.timeouts > 0);
                        if missed && !plan.attendance.contains(&back) {
                            plan.attendance.push(back);
                        }
                    }
                }
                Mover::Bot => {}
            }
        }
        if status == GameStatus::Finished {
            // The end replaces the game's jobs: only the archive of its thread, after a grace.
            let plan = plan.get_or_insert_with(|| same_clock(&loaded.record.clock));
            plan.jobs.push(self.archive_job(loaded.record.id, now));
        }
        let ranks = loaded.game.outcome().map(|o| o.ranks).unwrap_or_default();
        let version = self
            .store
            .record_moves_planned(
                loaded.record.id,
                loaded.record.version,
                &moves,
                &loaded.game.to_json(),
                status,
                now,
                plan.as_ref(),
                &ranks,
            )
            .await
            .map_err(|e| match e {
                StoreError::ClockChanged(_) => stale(&loaded.record),
                other => ServiceError::from(other),
            })?;
        if mover == Mover::Player {
            // A person played: the game is not idle (its boards post again).
            self.store.set_human_move_at(loaded.record.id, now).await?;
            loaded.record.human_move_at = Some(now);
        }
        metrics::counter!(crate::ops::MOVES, "game" => loaded.record.kind.id())
            .increment(u64::try_from(applied.len()).unwrap_or(u64::MAX));
        loaded.record.version = version;
        loaded.record.status = status;
        if let Some(plan) = &plan {
            loaded.record.clock = plan.clock;
            self.wake_if_due(plan, now);
        }
        // Rendering and encoding the board (milliseconds of CPU) runs on a blocking thread,
        // so concurrent jobs and clicks do not hold up the async workers.
        let before = hands_before.to_vec();
        let out = tokio::task::spawn_blocking(move || {
            output::after_change_since(&loaded, &applied, lang, &before)
        })
        .await
        .map_err(|e| ServiceError::Task(e.to_string()))?;
        Ok(self.with_settings(out).await)
    }
}

/// How many trailing moves `seat` may take back. Undo never crosses a barrier, another seat's
/// option, or the start of the game.
pub fn undoable(moves: &[(Seat, bool)], seat: Seat, scope: UndoScope) -> Result<usize, PlayError> {
    let mut count = 0;
    for &(by, barrier) in moves.iter().rev() {
        if by != seat || barrier {
            break;
        }
        count += 1;
        if scope == UndoScope::Last {
            break;
        }
    }
    if count > 0 {
        return Ok(count);
    }
    let reason = match moves.last() {
        None => Text::new("core.error.undo_nothing"),
        Some(&(by, _)) if by != seat => Text::new("core.error.undo_not_yours"),
        Some(_) => Text::new("core.error.undo_barrier"),
    };
    Err(PlayError::CannotUndo { reason })
}

/// Whether a move was refused only because the game's clock changed between its read and its
/// write (a pause, resume, extension, vacation or seat handed over, which move the clock's
/// revision and not the game's version): the same move is then tried once more on a fresh
/// read that must still show the version the player acted on, so a changed game is never
/// played onto. Seats are checked again on that read (a handover may have moved one).
fn clock_only_moved(e: &ServiceError) -> bool {
    matches!(e, ServiceError::Play(PlayError::Stale { expected, found }) if expected == found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_stops_at_barriers_and_other_seats() {
        let a = Seat(0);
        let b = Seat(1);
        let log = [(a, true), (b, false), (b, false)];
        assert_eq!(undoable(&log, b, UndoScope::Last).unwrap(), 1);
        assert_eq!(undoable(&log, b, UndoScope::ToBarrier).unwrap(), 2);
        assert!(undoable(&log, a, UndoScope::Last).is_err());
        let done = [(a, false), (a, true)];
        assert!(matches!(
            undoable(&done, a, UndoScope::ToBarrier),
            Err(PlayError::CannotUndo { .. })
        ));
        assert!(undoable(&[], a, UndoScope::Last).is_err());
    }

    /// A move computed before a clock change (here `/clock extend`) is refused by the store's
    /// guard, and told apart from a move onto a changed game, so `play` and `choose` try it
    /// once more; a move after another move is a plain stale move.
    #[tokio::test]
    async fn a_move_refused_for_a_clock_change_alone_is_told_apart() {
        let svc = Service::new(Store::connect("sqlite::memory:").await.unwrap());
        let player = |user: i64| Player {
            user: Some(user),
            name: format!("P{user}"),
            is_bot: false,
        };
        let (game, _) = svc
            .start(
                StartGame {
                    kind: GameKind::Cortexcape,
                    options: GameOptions::from([("short".into(), "true".into())]),
                    host: Some(1),
                    players: vec![player(1), player(2)],
                    seed: 5,
                    place: Place {
                        guild: Some(1),
                        channel: Some(2),
                        thread: None,
                    },
                    clock_secs: Some(86_400),
                },
                Lang::En,
                0,
            )
            .await
            .unwrap();
        // Played on to the first option that ends a turn (it writes the next turn's clock).
        let mut steps = 0;
        let (before, prompt, line) = loop {
            let loaded = svc.load(game).await.unwrap();
            let prompt = loaded.game.prompt().unwrap();
            let line = prompt.options[0].clone();
            let mut probe = loaded.game.clone_box();
            probe.play_line(prompt.seat, &line).unwrap();
            if probe.prompt().map(|p| p.seat) != Some(prompt.seat) {
                break (loaded, prompt, line);
            }
            let cmd = PlayLine {
                game,
                actor: Actor::Seat(prompt.seat),
                line,
                seen: None,
            };
            svc.play(cmd, Lang::En, 5).await.unwrap();
            steps += 1;
            assert!(steps < 200, "no option ends a turn");
        };
        svc.clock(game, 1, false, ClockAction::Extend(3_600), 10)
            .await
            .unwrap();
        let refused = svc
            .commit_line(before, prompt.seat, &line, Lang::En, 20)
            .await
            .unwrap_err();
        assert!(clock_only_moved(&refused), "{refused:?}");
        // On a fresh read the same move plays; an old read after it is a stale move.
        let old = svc.load(game).await.unwrap();
        let fresh = svc.load(game).await.unwrap();
        svc.commit_line(fresh, prompt.seat, &line, Lang::En, 30)
            .await
            .unwrap();
        let next = old.game.prompt().unwrap();
        let again = svc
            .commit_line(old, next.seat, &next.options[0], Lang::En, 40)
            .await
            .unwrap_err();
        assert!(
            matches!(again, ServiceError::Play(PlayError::Stale { .. }))
                && !clock_only_moved(&again),
            "{again:?}"
        );
    }
}
