//! One pace for the whole process: the requests Discord counts against a bot's global limit
//! (50 per second unless Discord granted the bot more, "Rate Limits" in Discord's
//! documentation; interaction callbacks and follow-ups are exempt) wait their turn here, so a
//! burst of boards or reminders (a hundred games whose deadlines fall in the same minute, a
//! busy evening) never meets a 429. serenity's own limiter only learns of the global limit
//! from a 429; its per-route buckets still apply.
//!
//! The pace is a generic cell rate: a fifth of the limit may go at once, then the rest
//! steadily, so no window of a second and [`ARRIVAL_SLACK`] ever holds more than the limit:
//! a request leaves later than its place (the runtime, serenity's own queue), so Discord's
//! one-second windows are counted at arrival, not at our send. Exempt calls
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

/// How late a request may reach Discord after its place in the pace (seen: 0.2 s and more
/// when two cores are busy). Every window the pace keeps is this much longer than Discord's.
pub const ARRIVAL_SLACK: Duration = Duration::from_millis(250);

/// DM channels the bot opens at most per `DM_OPEN_WINDOW`. Discord refuses a burst of opens
/// with 40003 ("opening direct messages too fast") and publishes no number; the fake Discord
/// refuses past 50 per 10 s. Each member's channel is kept once opened
/// (`Players::dm_channel`), so only the first DM to a member opens one.
pub const DM_OPEN_LIMIT: u32 = 50;
pub const DM_OPEN_WINDOW: Duration = Duration::from_secs(10);

/// DM opens per second, steady and with no burst, across every process on the token: opens
/// share one route (`POST /users/@me/channels`) whose bucket the processes cannot see each
/// other use; Discord's route buckets hold 5 a second, and 4 leaves room for a late one. Seen
/// before: two processes opening at their own pace met a 429 on that route.
pub const DM_OPENS_PER_SEC: u32 = 4;

#[derive(Debug)]
pub struct Pace {
    /// The token's global limit, requests per second.
    limit: u32,
    /// Every counted request, at this process's share of the limit.
    global: Rate,
    /// DM channel opens within Discord's 40003 limit, also counted.
    dm_opens: Rate,
    /// DM channel opens within their route's bucket: steady, this process's share.
    dm_route: Rate,
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
            global: Rate::new(limit, Duration::from_secs(1) + ARRIVAL_SLACK),
            dm_opens: Rate::new(DM_OPEN_LIMIT, DM_OPEN_WINDOW + ARRIVAL_SLACK),
            dm_route: Rate::steady(DM_OPENS_PER_SEC, Duration::from_secs(1)),
        }
    }

    /// `processes` processes run on this token (the database says how many are alive): this
    /// one keeps to its share of the global limit, and of the DM opens.
    pub fn share(&self, processes: u32) {
        let n = processes.max(1);
        self.global.set(
            (self.limit / n).max(1),
            Duration::from_secs(1) + ARRIVAL_SLACK,
        );
        self.dm_opens
            .set((DM_OPEN_LIMIT / n).max(1), DM_OPEN_WINDOW + ARRIVAL_SLACK);
        // A steady rate divides as a steady rate: one open per `n` intervals.
        self.dm_route
            .set_steady(DM_OPENS_PER_SEC, Duration::from_secs(1) * n);
    }

    /// Waits until one more counted request may go.
    pub async fn counted(&self) {
        self.global.wait().await;
    }

    /// Waits until one more DM channel may be opened (a counted request too).
    pub async fn dm_open(&self) {
        self.dm_opens.wait().await;
        self.dm_route.wait().await;
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

    /// `limit` per `window`, evenly spaced, none at once.
    fn steady(limit: u32, window: Duration) -> Rate {
        let rate = Rate::new(1, window);
        rate.set_steady(limit, window);
        rate
    }

    fn set_steady(&self, limit: u32, window: Duration) {
        let mut cells = self.lock();
        cells.interval = window / limit.max(1);
        cells.tolerance = Duration::ZERO;
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
        // Two processes on the token: each keeps under half the limit, with the slack for
        // late arrivals.
        let pace = Pace::new(50);
        pace.share(2);
        let within = most_in(
            &places(&pace.global, start, 250),
            Duration::from_secs(1) + ARRIVAL_SLACK,
        );
        assert!(within <= 25, "{within} in a second and the slack");
        // DM opens: no window of ten seconds holds more than the limit.
        let opens = Rate::new(DM_OPEN_LIMIT, DM_OPEN_WINDOW);
        let within = most_in(&places(&opens, start, 100), DM_OPEN_WINDOW);
        assert!(within <= DM_OPEN_LIMIT as usize, "{within} in ten seconds");
    }

    /// DM opens go steadily at 4 a second in all, however many processes share them: two
    /// processes each open one every half second.
    #[test]
    fn dm_opens_go_steadily_across_processes() {
        let start = Instant::now();
        let one = Pace::new(50);
        let times = places(&one.dm_route, start, 12);
        assert_eq!(times[1].duration_since(start), Duration::from_millis(250));
        assert_eq!(most_in(&times, Duration::from_secs(1)), 4);
        let two = Pace::new(50);
        two.share(2);
        let times = places(&two.dm_route, start, 12);
        assert_eq!(times[1].duration_since(start), Duration::from_millis(500));
        assert_eq!(most_in(&times, Duration::from_secs(1)), 2);
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
