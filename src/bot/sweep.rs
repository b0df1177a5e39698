//! Boards that never went out are posted again. A change is stored before its board is posted,
//! so a crash in between, or Discord failing past the retries, would leave a game without the
//! buttons of its turn. Each game records the version whose board went out; a scheduler posts
//! the current board of a game whose version stays unposted longer than a grace period, and
//! the store's claim lets only one process do it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;

use super::{retry, send, Data, Error};
use crate::engine::{GameId, Version};

/// How many unposted games one sweep looks at (the oldest changes first).
const SWEEP_BATCH: u32 = 100;

/// Watches unposted boards across scheduler ticks. The grace is measured in real time by
/// this process, not from stored times: a board on its way must not be posted twice, even
/// when the service's clock is far from the wall clock (tests, a clock jump).
pub struct BoardSweeper {
    grace: Duration,
    /// When this process first saw each game's current version without a board.
    seen: HashMap<GameId, (Version, Instant)>,
}

impl BoardSweeper {
    pub fn new(grace: Duration) -> BoardSweeper {
        BoardSweeper {
            grace,
            seen: HashMap::new(),
        }
    }

    /// Posts the boards missing for longer than the grace.
    pub async fn sweep(&mut self, http: &serenity::Http, data: &Data) {
        let unposted = match data.service.boards().unposted_boards(SWEEP_BATCH).await {
            Ok(u) => u,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for unposted boards");
                return;
            }
        };
        let now = Instant::now();
        let mut seen = HashMap::with_capacity(unposted.len());
        let mut due = Vec::new();
        for (game, version) in unposted {
            let first = match self.seen.get(&game) {
                Some(&(v, at)) if v == version => at,
                _ => now,
            };
            seen.insert(game, (version, first));
            if now.duration_since(first) >= self.grace {
                due.push((game, version));
            }
        }
        self.seen = seen;
        for (game, version) in due {
            repost(http, data, game, version).await;
        }
    }
}

/// Posts one lost board again, if this process wins it. A refusal for good (the channel is
/// gone, the bot lost access) gives up on that board; a passing failure waits for the claim
/// to lapse and tries again.
async fn repost(http: &serenity::Http, data: &Data, game: GameId, version: Version) {
    let outputs = match data.service.boards().repost(game, version).await {
        Ok(Some(found)) => found,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(%game, error = %e, "could not prepare a lost board");
            return;
        }
    };
    match send::deliver(http, data, &outputs).await {
        Ok(()) => {
            tracing::info!(%game, version = version.0, "posted a board that had not gone out")
        }
        Err(Error::Undelivered(cause)) if refused_for_good(&cause) => {
            tracing::warn!(%game, error = %cause, "a lost board cannot be posted; giving up on it");
            if let Err(e) = data
                .service
                .boards()
                .board_posted(game, version, None)
                .await
            {
                tracing::warn!(%game, error = %e, "could not record the board as given up");
            }
        }
        Err(e) => {
            tracing::warn!(%game, error = %e, "could not post a lost board; will try again")
        }
    }
}

/// Discord's refusal that no retry will change (not a rate limit, server error or outage).
pub(super) fn refused_for_good(e: &Error) -> bool {
    matches!(e, Error::Discord(e) if !retry::is_passing(e))
}
