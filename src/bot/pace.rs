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

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Discord's global limit for a bot, requests per second.
pub const DISCORD_GLOBAL_LIMIT: u32 = 50;

#[derive(Debug)]
pub struct Pace {
    /// One steady request every `interval`.
    interval: Duration,
    /// How far ahead of the steady rate a burst may run (`burst - 1` intervals).
    tolerance: Duration,
    /// When the next request would be due at the steady rate (the "theoretical arrival
    /// time").
    due: Mutex<Option<Instant>>,
}

impl Pace {
    /// A pace that keeps any one second under `limit` requests (at least 1).
    pub fn new(limit: u32) -> Pace {
        let limit = limit.max(1);
        let burst = (limit / 5).max(1);
        let rate = (limit - burst).max(1);
        let interval = Duration::from_secs(1) / rate;
        Pace {
            interval,
            tolerance: interval * (burst - 1),
            due: Mutex::new(None),
        }
    }

    /// Waits until one more counted request may go.
    pub async fn counted(&self) {
        if let Some(at) = self.reserve(Instant::now()) {
            tokio::time::sleep_until(at).await;
        }
    }

    /// Takes a place in the pace at `now`; returns when to go, if not at once.
    fn reserve(&self, now: Instant) -> Option<Instant> {
        let mut due = self
            .due
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let tat = due.map_or(now, |d| d.max(now));
        *due = Some(tat + self.interval);
        let go = tat.checked_sub(self.tolerance).unwrap_or(now);
        (go > now).then_some(go)
    }
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::new(DISCORD_GLOBAL_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every one-second window holds at most the limit, however many ask at once.
    #[test]
    fn no_second_holds_more_than_the_limit() {
        for limit in [50, 10, 1, 500] {
            let pace = Pace::new(limit);
            let start = Instant::now();
            let times: Vec<Instant> = (0..(limit as usize * 10))
                .map(|_| pace.reserve(start).unwrap_or(start))
                .collect();
            for (i, t) in times.iter().enumerate() {
                let within = times[i..]
                    .iter()
                    .take_while(|u| **u < *t + Duration::from_secs(1))
                    .count();
                assert!(
                    within <= limit as usize,
                    "{limit}: {within} in a second from #{i}"
                );
            }
        }
        // At Discord's 50: ten at once, then 40 a second.
        let pace = Pace::new(50);
        let start = Instant::now();
        let times: Vec<Instant> = (0..500)
            .map(|_| pace.reserve(start).unwrap_or(start))
            .collect();
        assert!(times[..10].iter().all(|t| *t == start));
        assert!(times[10] > start);
        assert_eq!(
            times[499].duration_since(start),
            Duration::from_millis(12_250)
        );
    }
}
