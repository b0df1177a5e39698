//! The move use case, whole: a player's line (`/move`, the table) or click (a button, a menu)
//! is checked against the version they saw, played on a copy of the game, stored with the next
//! turn's clock in one transaction (tried once more when only the clock moved under it), and
//! turned into everything a front end posts ([`Outputs`]); undo takes options back. Bots and
//! timeouts store their options through `Core::commit_applied` (core.rs) too.

use super::*;
use crate::engine::PromptInfo;
use crate::store::MoveRecord;

impl Moves<'_> {
    /// The seat that played the last live option, if any (the local table's `undo` takes
    /// back that seat's, as it plays every seat).
    pub async fn last_mover(self, game: GameId) -> Result<Option<Seat>, ServiceError> {
        Ok(self.core.store.moves(game).await?.last().map(|m| m.seat))
    }

    /// The checks of [`Moves::resign`], changing nothing: asked before "are you sure?".
    pub async fn check_resign(self, game: GameId, user: i64) -> Result<LobbyView, ServiceError> {
        let record = self.core.store.game(game).await?;
        if record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        // As `resign` finds the seat.
        if !record.seats.iter().any(|s| s.user == Some(user)) {
            return Err(ServiceError::NotSeated);
        }
        let cap = self.core.store.max_seats(game).await?;
        Ok(LobbyView::from_record(record, cap))
    }

    /// A seated player gives up: the game ends for everyone (games have no seat-leaving rule),
    /// with the current standings.
    pub async fn resign(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
        now: i64,
    ) -> Result<Resigned, ServiceError> {
        self.resign_as(game, Actor::User(user), lang, now).await
    }

    /// [`Moves::resign`] by a seat or a member (the local table resigns its seat in turn).
    pub async fn resign_as(
        self,
        game: GameId,
        actor: Actor,
        lang: Lang,
        now: i64,
    ) -> Result<Resigned, ServiceError> {
        let loaded = self.core.load(game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(ServiceError::NotActive(game));
        }
        let seat = self.core.seat_of(&loaded, actor)?;
        let archive = self.core.archive_job(game, now);
        self.core
            .store
            .resign_game(game, loaded.record.version, seat, &[archive], now)
            .await?;
        let text = Text::new("bot.resigned")
            .arg("seat", seat)
            .arg("id", game.0)
            .render_with(
                super::core::public_lang(&loaded.record, lang),
                &loaded.names(),
            );
        Ok(Resigned { seat, text })
    }

    /// The user's private post (hidden hand), if the game has one for their seat.
    pub async fn hand(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
    ) -> Result<Option<PrivatePost>, ServiceError> {
        Ok(self.hand_with_options(game, user, lang).await?.0)
    }

    /// The hand of `actor`'s seat (the local table names the seat), if the game has one.
    pub async fn hand_as(
        self,
        game: GameId,
        actor: Actor,
        lang: Lang,
    ) -> Result<Option<PrivatePost>, ServiceError> {
        let loaded = self.core.load(game).await?;
        let seat = self.core.seat_of(&loaded, actor)?;
        super::core::rendering(move || output::private_post(&loaded, seat, lang)).await
    }

    /// The user's hand and, when they must decide now among options that name its cards, that
    /// prompt with its version: shown together, to that player only. One load, one image.
    pub async fn hand_with_options(
        self,
        game: GameId,
        user: i64,
        lang: Lang,
    ) -> Result<(Option<PrivatePost>, Option<(Version, PromptInfo)>), ServiceError> {
        let loaded = self.core.load(game).await?;
        let seat = self.core.seat_of(&loaded, Actor::User(user))?;
        let prompt = loaded
            .game
            .prompt()
            .filter(|p| p.private && p.seat == seat)
            .map(|p| (loaded.record.version, p));
        let post =
            super::core::rendering(move || output::private_post(&loaded, seat, lang)).await?;
        Ok((post, prompt))
    }

    /// The pending prompt, for the user who must decide it, as it stood at `seen` (a panel
    /// opened from a board). Refused for anyone else: private options stay private.
    pub async fn prompt_for(
        self,
        game: GameId,
        user: i64,
        seen: Version,
    ) -> Result<PromptInfo, ServiceError> {
        let loaded = self.core.load_active(game, Some(seen)).await?;
        Ok(self.deciding(&loaded, user)?.1)
    }

    /// The current prompt's options the user may pick, filtered by what they typed (every
    /// word typed must appear in the option), with the version they belong to. No options if
    /// it is not their turn.
    pub async fn choices(
        self,
        game: GameId,
        user: i64,
        typed: &str,
    ) -> Result<Choices, ServiceError> {
        let loaded = self.core.load(game).await?;
        let mut choices = Choices {
            version: loaded.record.version,
            options: Vec::new(),
            reach: Reach::of(&loaded.record),
        };
        let Ok(seat) = self.core.seat_of(&loaded, Actor::User(user)) else {
            return Ok(choices);
        };
        let Some(prompt) = loaded.game.prompt() else {
            return Ok(choices);
        };
        if prompt.seat == seat {
            choices.options = filter_choices(&prompt.options, typed);
        }
        Ok(choices)
    }

    /// Plays a line for an actor. On success the moves are stored before any output is made.
    pub async fn play(self, cmd: PlayLine, lang: Lang, now: i64) -> Result<Outputs, ServiceError> {
        let mut seen = cmd.seen;
        let mut retried = false;
        loop {
            let loaded = self.core.load_active(cmd.game, seen).await?;
            let version = loaded.record.version;
            let seat = self.core.seat_of(&loaded, cmd.actor)?;
            match self.commit_line(loaded, seat, &cmd.line, lang, now).await {
                Err(e) if !retried && clock_only_moved(&e) => {
                    (seen, retried) = (Some(version), true);
                }
                other => return other,
            }
        }
    }

    /// Plays `line` for `seat` on a loaded game and stores the result in one transaction
    /// (with the next turn's clock when the turn changed).
    pub(crate) async fn commit_line(
        self,
        mut loaded: Loaded,
        seat: Seat,
        line: &str,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let hands_before = output::private_views(loaded.game.as_ref());
        let mut out = match loaded.game.play_line(seat, line) {
            Ok(applied) => {
                self.core
                    .commit_applied(
                        loaded,
                        applied,
                        &hands_before,
                        lang,
                        now,
                        super::core::Mover::Player,
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
                    .core
                    .commit_applied(
                        loaded,
                        kept,
                        &hands_before,
                        lang,
                        now,
                        super::core::Mover::Player,
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
        self,
        game: GameId,
        actor: Actor,
        scope: UndoScope,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        let loaded = self.core.load_active(game, None).await?;
        let seat = self.core.seat_of(&loaded, actor)?;
        let moves = self.core.store.moves(game).await?;
        let count = undoable(
            &moves
                .iter()
                .map(|m| (m.seat, m.barrier))
                .collect::<Vec<_>>(),
            seat,
            scope,
        )?;
        let said = Text::new("core.event.undone")
            .arg("seat", seat)
            .arg("count", count);
        self.core
            .take_back_to(
                loaded,
                &moves,
                moves.len() - count,
                vec![said],
                lang,
                now,
                false,
            )
            .await
    }

    /// Plays the `index`-th option of the prompt the user saw at `seen` (a button or a menu).
    pub async fn choose(
        self,
        game: GameId,
        user: i64,
        seen: Version,
        index: usize,
        lang: Lang,
        now: i64,
    ) -> Result<Outputs, ServiceError> {
        match self
            .choose_inner(game, user, seen, index, lang, now, false)
            .await?
        {
            Chosen::Played(out) => Ok(*out),
            // Not asked: never a question.
            Chosen::Confirm(_) => Err(LobbyError::NoSuchChoice.into()),
        }
    }

    /// [`Moves::choose`], unless the user turned `/settings confirm_moves` on and the option
    /// would end their turn ([`ends_turn`]): then nothing is played and the question comes
    /// back, for the front end to ask privately. Its answer plays with [`Moves::choose`].
    pub async fn choose_or_ask(
        self,
        game: GameId,
        user: i64,
        seen: Version,
        index: usize,
        lang: Lang,
        now: i64,
    ) -> Result<Chosen, ServiceError> {
        self.choose_inner(game, user, seen, index, lang, now, true)
            .await
    }

    // The use case's inputs, as `choose` takes them, and whether to ask first.
    #[allow(clippy::too_many_arguments)]
    async fn choose_inner(
        self,
        game: GameId,
        user: i64,
        seen: Version,
        index: usize,
        lang: Lang,
        now: i64,
        ask: bool,
    ) -> Result<Chosen, ServiceError> {
        // One load serves the checks and the move (a second only when the clock alone moved
        // under the first: see `clock_only_moved`).
        let mut retried = false;
        loop {
            let loaded = self.core.load_active(game, Some(seen)).await?;
            let (seat, prompt) = self.deciding(&loaded, user)?;
            let line = prompt
                .options
                .get(index)
                .cloned()
                .ok_or(LobbyError::NoSuchChoice)?;
            if ask && !retried && self.asks(&loaded, seat, &prompt, &line, user).await? {
                return Ok(Chosen::Confirm(ConfirmMove {
                    game,
                    version: loaded.record.version,
                    line,
                    index: Some(index),
                }));
            }
            match self.commit_line(loaded, seat, &line, lang, now).await {
                Err(e) if !retried && clock_only_moved(&e) => retried = true,
                other => return other.map(|o| Chosen::Played(Box::new(o))),
            }
        }
    }

    /// [`Moves::play`] for a member's typed line, unless they turned `/settings
    /// confirm_moves` on and the line would end their turn: then nothing is played and the
    /// question comes back (the line, and its option's index when it is one option of the
    /// prompt). The answer plays with [`Moves::choose`] or [`Moves::play`] at that version.
    pub async fn play_or_ask(
        self,
        cmd: PlayLine,
        lang: Lang,
        now: i64,
    ) -> Result<Chosen, ServiceError> {
        let Actor::User(user) = cmd.actor else {
            return Ok(Chosen::Played(Box::new(self.play(cmd, lang, now).await?)));
        };
        let loaded = self.core.load_active(cmd.game, cmd.seen).await?;
        let version = loaded.record.version;
        let seat = self.core.seat_of(&loaded, cmd.actor)?;
        if let Some(prompt) = loaded.game.prompt().filter(|p| p.seat == seat) {
            if self.asks(&loaded, seat, &prompt, &cmd.line, user).await? {
                let line = cmd.line.trim().to_string();
                let index = prompt.options.iter().position(|o| *o == line);
                return Ok(Chosen::Confirm(ConfirmMove {
                    game: cmd.game,
                    version,
                    line,
                    index,
                }));
            }
        }
        // The read above serves the move (a second read only when the clock alone moved).
        match self.commit_line(loaded, seat, &cmd.line, lang, now).await {
            Err(e) if clock_only_moved(&e) => {
                let cmd = PlayLine {
                    seen: Some(version),
                    ..cmd
                };
                Ok(Chosen::Played(Box::new(self.play(cmd, lang, now).await?)))
            }
            other => other.map(|o| Chosen::Played(Box::new(o))),
        }
    }

    /// Whether `user`, deciding `prompt` for `seat`, is asked before `line` is played: a
    /// prompt with a single option is not (there is nothing to pick by mistake; it is also how
    /// Vortex's and Gates' `confirm_end` ask for `end`), nor a line that does not end the
    /// turn. The member's setting is read only for a line that would.
    async fn asks(
        self,
        loaded: &Loaded,
        seat: Seat,
        prompt: &PromptInfo,
        line: &str,
        user: i64,
    ) -> Result<bool, ServiceError> {
        if prompt.options.len() < 2 || !ends_turn(loaded.game.as_ref(), seat, line) {
            return Ok(false);
        }
        Ok(self.core.store.user_settings(user).await?.confirm_moves)
    }

    /// The user's seat and the prompt it must decide now, or why they may not.
    pub(super) fn deciding(
        self,
        loaded: &Loaded,
        user: i64,
    ) -> Result<(Seat, PromptInfo), ServiceError> {
        let seat = self.core.seat_of(loaded, Actor::User(user))?;
        let prompt = loaded.game.prompt().ok_or(PlayError::GameOver)?;
        if prompt.seat != seat {
            return Err(PlayError::NotYourTurn {
                waiting_for: prompt.seat,
            }
            .into());
        }
        Ok((seat, prompt))
    }
}

/// What a member's click or typed line came to: played, or a question first.
#[derive(Debug)]
pub enum Chosen {
    Played(Box<Outputs>),
    /// Nothing was played: ask the member privately whether to play it.
    Confirm(ConfirmMove),
}

/// A move waiting for its player's "Confirm": what to play, on which version of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfirmMove {
    pub game: GameId,
    /// The version asked about: a Confirm on any other is refused as stale.
    pub version: Version,
    /// The option (or typed line) as the member chose it.
    pub line: String,
    /// Its index in the prompt, when it is one option of it.
    pub index: Option<usize>,
}

/// Whether playing `line` for `seat` would end that seat's turn: the game ends, or another
/// seat decides next. Pure: played on a copy of the game, which is dropped. A line that
/// crosses a barrier (it draws, or reveals a secret) counts as ending the turn whatever
/// follows: what follows may depend on what is still hidden (the next card), and the answer
/// must not tell it; what it reveals cannot be undone either. A line the game refuses does
/// not end the turn (played, it gives its refusal).
pub fn ends_turn(game: &dyn AnyGame, seat: Seat, line: &str) -> bool {
    let mut probe = game.clone_box();
    match probe.play_line(seat, line) {
        Ok(applied) => {
            applied.iter().any(|m| m.barrier)
                || probe.outcome().is_some()
                || probe.prompt().is_none_or(|p| p.seat != seat)
        }
        Err(_) => false,
    }
}

/// Whether taking a game back to its first `keep` live moves would take back a move that
/// revealed randomness or hidden information ([`MoveRecord::revealed`]): what was seen
/// cannot be unseen, so neither an agreed take-back nor a rollback may cross it (unless every
/// seat agrees to a rollback). A plain barrier (a turn ended) is no reveal.
pub fn revealed_since(moves: &[MoveRecord], keep: usize) -> bool {
    moves.iter().skip(keep).any(|m| m.revealed)
}

impl Core {
    /// Takes an active game back to its first `keep` live moves, the one way every take-back
    /// goes (`undo`, an agreed take-back, a rollback): rebuilt from seed and that log prefix,
    /// the later moves marked undone in one versioned write, the turn's clock planned again
    /// (taking back the option that ended a turn gives the turn back), and the outputs with
    /// the board saying `said` and every hand that changed re-sent as it now is. `moves` are
    /// the game's live moves as read with `loaded`; the callers check who may take what back
    /// ([`undoable`], [`revealed_since`]). Changes nothing when `keep` is all of them.
    ///
    /// `afresh` (a rollback): the turn gone back to starts with its full time whoever decides
    /// it, and every hand is re-sent, changed or not.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn take_back_to(
        &self,
        loaded: Loaded,
        moves: &[MoveRecord],
        keep: usize,
        said: Vec<Text>,
        lang: Lang,
        now: i64,
        afresh: bool,
    ) -> Result<Outputs, ServiceError> {
        let game = loaded.record.id;
        let lang = super::core::public_lang(&loaded.record, lang);
        let count = moves.len().saturating_sub(keep);
        if count == 0 {
            return Err(PlayError::CannotUndo {
                reason: Text::new("core.error.undo_nothing"),
            }
            .into());
        }
        // With nothing known before, every hand counts as changed.
        let hands_before = if afresh {
            Vec::new()
        } else {
            output::private_views(loaded.game.as_ref())
        };
        let prefix: Vec<(Seat, String)> = moves[..keep]
            .iter()
            .map(|m| (m.seat, m.notation.clone()))
            .collect();
        let rebuilt =
            rebuild(&loaded.record, &prefix).map_err(|(i, error)| ServiceError::Replay {
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
        if let Some(plan) = self
            .plan_turn(&after.record, after.game.as_ref(), now, afresh)
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
        let names = after.names();
        out.board.events = said
            .into_iter()
            .map(|t| t.render_with(lang, &names))
            .collect();
        out.board.text = output::board_text(&after, &out.board.events, lang);
        Ok(out)
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
    fn revealed_since_looks_only_at_the_moves_taken_back() {
        let mv = |seat: u8, barrier: bool, revealed: bool| MoveRecord {
            seq: 0,
            seat: Seat(seat),
            notation: String::new(),
            barrier,
            revealed,
            at: 0,
        };
        // A draw, then a turn ended (a barrier only), then the next seat's options.
        let log = [
            mv(0, true, true),
            mv(0, true, false),
            mv(1, false, false),
            mv(1, true, false),
        ];
        assert!(!revealed_since(&log, 4));
        assert!(!revealed_since(&log, 2));
        assert!(!revealed_since(&log, 1), "a turn's end is no reveal");
        assert!(revealed_since(&log, 0), "the draw would be taken back");
        assert!(!revealed_since(&[], 0));
    }

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

    /// `ends_turn` for every game: it changes nothing, it says yes exactly when the option
    /// hands the decision to another seat or ends the game (or reveals something: a barrier),
    /// and every game has turns that end and options that do not end them.
    #[test]
    fn every_game_tells_which_options_end_a_turn_and_changes_nothing() {
        use crate::engine::GameRng;
        for &kind in GameKind::ALL {
            let (mut ending, mut going_on, mut barriers) = (0, 0, 0);
            for seed in 0..4u64 {
                let mut game = kind
                    .setup(&GameOptions::new(), 2 + usize::from(seed % 2 == 1), seed)
                    .unwrap_or_else(|e| panic!("{kind}: {e:?}"));
                let mut rng = GameRng::seed_from_u64(seed ^ 0x7ab1e);
                for _ in 0..400 {
                    let Some(p) = game.prompt() else { break };
                    let before = game.to_json();
                    for o in &p.options {
                        let ends = ends_turn(game.as_ref(), p.seat, o);
                        assert_eq!(game.to_json(), before, "{kind}: asking changed the game");
                        let mut after = game.clone_box();
                        let applied = after.play_line(p.seat, o).expect("a listed option plays");
                        let next = after.prompt().map(|q| q.seat);
                        if applied.iter().any(|m| m.barrier) {
                            assert!(ends, "{kind}: `{o}` reveals something and must be asked");
                            barriers += 1;
                        } else {
                            assert_eq!(ends, next != Some(p.seat), "{kind}: `{o}`");
                        }
                        if ends {
                            ending += 1;
                        } else {
                            going_on += 1;
                        }
                    }
                    // A refused line is not asked about: playing it gives its refusal.
                    assert!(!ends_turn(game.as_ref(), p.seat, "no such option at all"));
                    let pick = p.options[rng.gen_range(0..p.options.len())].clone();
                    game.play_line(p.seat, &pick)
                        .expect("a listed option plays");
                }
            }
            assert!(ending > 0, "{kind}: no option ever ended a turn");
            assert!(going_on > 0, "{kind}: every option ended a turn");
            println!("{kind}: {ending} ending ({barriers} barriers), {going_on} not");
        }
    }

    /// Vortex by hand: a race turn of several actions goes on after its first action and
    /// ends with `end` (the service asks before `end`, not before the first action).
    #[test]
    fn a_vortex_turn_ends_with_its_last_action_not_its_first() {
        let mut game = GameKind::Vortex
            .setup(&GameOptions::new(), 2, 3)
            .expect("a race");
        let mut mixed = false;
        for _ in 0..200 {
            let Some(p) = game.prompt() else { break };
            if let Some(end) = p.options.iter().find(|o| o.as_str() == "end") {
                assert!(ends_turn(game.as_ref(), p.seat, end), "`end` ends the turn");
                // Mid-turn: another action keeps the turn (while actions are left).
                mixed |= p
                    .options
                    .iter()
                    .any(|o| !ends_turn(game.as_ref(), p.seat, o));
            }
            let first = p.options[0].clone();
            game.play_line(p.seat, &first).expect("plays");
        }
        assert!(
            mixed,
            "a race turn offers `end` beside an action that keeps the turn"
        );
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
            .lobbies()
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
            svc.moves().play(cmd, Lang::En, 5).await.unwrap();
            steps += 1;
            assert!(steps < 200, "no option ends a turn");
        };
        svc.clocks()
            .clock(game, 1, false, ClockAction::Extend(3_600), 10)
            .await
            .unwrap();
        let refused = svc
            .moves()
            .commit_line(before, prompt.seat, &line, Lang::En, 20)
            .await
            .unwrap_err();
        assert!(clock_only_moved(&refused), "{refused:?}");
        // On a fresh read the same move plays; an old read after it is a stale move.
        let old = svc.load(game).await.unwrap();
        let fresh = svc.load(game).await.unwrap();
        svc.moves()
            .commit_line(fresh, prompt.seat, &line, Lang::En, 30)
            .await
            .unwrap();
        let next = old.game.prompt().unwrap();
        let again = svc
            .moves()
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
