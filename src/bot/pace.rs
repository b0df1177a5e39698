//! One pace for the whole process: the requests Discord counts against a bot's global limit
//! (50 per second unless Discord granted the bot more, "Rate Limits" in Discord's
//! documentation; interaction callbacks and follow-ups are exempt) wait their turn here, so a
//! burst of boards or reminders (a hundred games whose deadlines fall in the same minute, a
//! busy evening) never meets a 429. serenity's own limiter only learns of the global limit
//! from a 429; its per-route buckets still apply.
//!
//! The pace is a generic cell rate: a fifth of the limit may go at once, then the rest
//! steadily, so no one-second window ever holds more than the limit. Exempt calls
//! (acknowledgements, edits of an interaction's answers) do not come here. The bot and its
//! scheduler share one `Pace` (`Data::pace`).
//!
//! The limit is the token's, not the process's: processes on one database heartbeat there
//! (`Service::heartbeat`, every `HEARTBEAT`) and each keeps to the limit divided by the
//! processes alive (`Pace::share`). ARCHITECTURE.md says why a share and not a shared bucket.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Discord's global limit for a bot, requests per second.
pub const DISCORD_GLOBAL_LIMIT: u32 = 50;

/// DM channels the bot opens at most per `DM_OPEN_WINDOW`: ten at once, then four a second.
/// Discord refuses a burst of opens with 40003 ("opening direct messages too fast") and
/// publishes no number; the fake Discord uses this one. Each member's channel is kept once
/// opened (`Players::dm_channel`), so only the first DM to a member opens one.
pub const DM_OPEN_LIMIT: u32 = 50;
pub const DM_OPEN_WINDOW: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct Pace {
    /// The token's global limit, requests per second.
    limit: u32,
    /// Every counted request, at this process's share of the limit.
    global: Rate,
    /// DM channel opens, also counted.
    dm_opens: Rate,
}

/// A generic cell rate: `limit` per `window`, a fifth of it at once, then the rest steadily.
#[derive(Debug)]
struct Rate(Mutex<Cells>);

#[derive(Debug)]
struct Cells {
    /// One steady request every `interval`.
    interval: Duration,
    /// How far ahead of the steady rate a burst may run (`burst - 1` intervals).
    tolerance: Duration,
    /// When the next request would be due at the steady rate (the "theoretical arrival
    /// time").
    due: Option<Instant>,
}

impl Pace {
    /// A pace that keeps any one second under `limit` requests (at least 1).
    pub fn new(limit: u32) -> Pace {
        Pace {
            limit,
            global: Rate::new(limit, Duration::from_secs(1)),
            dm_opens: Rate::new(DM_OPEN_LIMIT, DM_OPEN_WINDOW),
        }
    }

    /// `processes` processes run on this token (the database says how many are alive): this
    /// one keeps to its share of the global limit, and of the DM opens.
    pub fn share(&self, processes: u32) {
        let n = processes.max(1);
        self.global
            .set((self.limit / n).max(1), Duration::from_secs(1));
        self.dm_opens
            .set((DM_OPEN_LIMIT / n).max(1), DM_OPEN_WINDOW);
    }

    /// Waits until one more counted request may go.
    pub async fn counted(&self) {
        self.global.wait().await;
    }

    /// Waits until one more DM channel may be opened (a counted request too).
    pub async fn dm_open(&self) {
        self.dm_opens.wait().await;
        self.global.wait().await;
    }
}

impl Rate {
    /// No window of `window` holds more than `limit` (at least 1).
    fn new(limit: u32, window: Duration) -> Rate {
        let (interval, tolerance) = Rate::cells(limit, window);
        Rate(Mutex::new(Cells {
            interval,
            tolerance,
            due: None,
        }))
    }

    fn cells(limit: u32, window: Duration) -> (Duration, Duration) {
        let limit = limit.max(1);
        let burst = (limit / 5).max(1);
        let rate = (limit - burst).max(1);
        let interval = window / rate;
        (interval, interval * (burst - 1))
    }

    /// From now on, `limit` per `window` (the places already taken keep their times).
    fn set(&self, limit: u32, window: Duration) {
        let (interval, tolerance) = Rate::cells(limit, window);
        let mut cells = self.lock();
        cells.interval = interval;
        cells.tolerance = tolerance;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cells> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn wait(&self) {
        if let Some(at) = self.reserve(Instant::now()) {
            tokio::time::sleep_until(at).await;
        }
    }

    /// Takes a place at `now`; returns when to go, if not at once.
    fn reserve(&self, now: Instant) -> Option<Instant> {
        let mut cells = self.lock();
        let (tat, go) = cell(cells.due, now, cells.tolerance);
        cells.due = Some(tat + cells.interval);
        go
    }
}

/// Renders one member may ask for (Zoom, a replay's steps, a hand) per `MEMBER_RENDER_WINDOW`:
/// enough to step through a replay at reading speed, while a member clicking as fast as they
/// can (or a script) cannot keep the render threads for themselves.
pub const MEMBER_RENDERS: u32 = 8;
pub const MEMBER_RENDER_WINDOW: Duration = Duration::from_secs(10);

/// Members' renders: each member's own cell rate ([`MEMBER_RENDERS`] at once, then one every
/// `MEMBER_RENDER_WINDOW / MEMBER_RENDERS`). Kept in memory: a restart forgives everyone.
#[derive(Debug, Default)]
pub struct MemberRenders(Mutex<std::collections::HashMap<u64, Instant>>);

/// Members remembered before the ones whose budget is whole again are forgotten.
const MEMBERS_KEPT: usize = 4_096;

impl MemberRenders {
    /// Takes one of `member`'s renders at `now`, or says how long until the next one.
    pub fn take(&self, member: u64, now: Instant) -> Result<(), Duration> {
        let interval = MEMBER_RENDER_WINDOW / MEMBER_RENDERS;
        let tolerance = interval * (MEMBER_RENDERS - 1);
        let mut due = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if due.len() >= MEMBERS_KEPT {
            due.retain(|_, tat| *tat > now);
        }
        let (tat, go) = cell(due.get(&member).copied(), now, tolerance);
        if let Some(go) = go {
            return Err(go - now);
        }
        due.insert(member, tat + interval);
        Ok(())
    }
}

/// The generic cell rate's step at `now` for a cell whose next place was `due`: the place's
/// theoretical arrival time, and when it may go if not at once (`tolerance` ahead allowed).
fn cell(due: Option<Instant>, now: Instant, tolerance: Duration) -> (Instant, Option<Instant>) {
    let tat = due.map_or(now, |d| d.max(now));
    let go = tat.checked_sub(tolerance).unwrap_or(now);
    (tat, (go > now).then_some(go))
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::new(DISCORD_GLOBAL_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most places any window of `window` holds, from each place on.
    fn most_in(times: &[Instant], window: Duration) -> usize {
        (0..times.len())
            .map(|i| {
                times[i..]
                    .iter()
                    .take_while(|u| **u < times[i] + window)
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    /// A rate's places for `n` asking at once at `start`.
    fn places(rate: &Rate, start: Instant, n: usize) -> Vec<Instant> {
        (0..n)
            .map(|_| rate.reserve(start).unwrap_or(start))
            .collect()
    }

    /// Every one-second window holds at most the limit, however many ask at once.
    #[test]
    fn no_second_holds_more_than_the_limit() {
        for limit in [50, 10, 1, 500] {
            let pace = Rate::new(limit, Duration::from_secs(1));
            let start = Instant::now();
            let times = places(&pace, start, limit as usize * 10);
            let within = most_in(&times, Duration::from_secs(1));
            assert!(within <= limit as usize, "{limit}: {within} in a second");
        }
        // At Discord's 50: ten at once, then 40 a second.
        let pace = Rate::new(50, Duration::from_secs(1));
        let start = Instant::now();
        let times = places(&pace, start, 500);
        assert!(times[..10].iter().all(|t| *t == start));
        assert!(times[10] > start);
        assert_eq!(
            times[499].duration_since(start),
            Duration::from_millis(12_250)
        );
        // Two processes on the token: each keeps under half the limit.
        let pace = Pace::new(50);
        pace.share(2);
        let within = most_in(&places(&pace.global, start, 250), Duration::from_secs(1));
        assert!(within <= 25, "{within} in a second");
        // DM opens: no window of ten seconds holds more than the limit.
        let opens = Rate::new(DM_OPEN_LIMIT, DM_OPEN_WINDOW);
        let within = most_in(&places(&opens, start, 100), DM_OPEN_WINDOW);
        assert!(within <= DM_OPEN_LIMIT as usize, "{within} in ten seconds");
    }

    /// A member gets their renders at once, then one per interval, and is told how long to
    /// wait; another member is not held up by them.
    #[test]
    fn a_member_renders_at_reading_speed() {
        let renders = MemberRenders::default();
        let start = Instant::now();
        for _ in 0..MEMBER_RENDERS {
            assert_eq!(renders.take(1, start), Ok(()));
        }
        let interval = MEMBER_RENDER_WINDOW / MEMBER_RENDERS;
        assert_eq!(renders.take(1, start), Err(interval));
        assert_eq!(renders.take(2, start), Ok(()));
        assert_eq!(renders.take(1, start + interval), Ok(()));
        assert!(renders.take(1, start + interval).is_err());
        // A window later the whole budget is back.
        let later = start + MEMBER_RENDER_WINDOW * 2;
        for _ in 0..MEMBER_RENDERS {
            assert_eq!(renders.take(1, later), Ok(()));
        }
    }
}
