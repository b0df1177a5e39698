//! Discord's rate limits, as `developers/topics/rate-limits` describes them: per-route buckets
//! keyed by the route and its top-level resource (channel, guild, webhook + token), answered
//! with `X-RateLimit-*` headers; a global limit of 50 requests per second for the bot token,
//! which interaction callbacks and webhooks (interaction follow-ups) do not count against; 429
//! answers with `retry_after`; and a count of invalid requests (401, 403, 429), with the ban
//! Discord's Cloudflare puts on an IP past 10,000 of them in 10 minutes (`InvalidBan`).
//!
//! Discord publishes no per-route numbers ("should not be hard coded"); the fake uses the ones
//! bots meet in practice: 5 messages per 5 s per channel (posting and editing alike), and 5
//! requests per second for every other route and resource. `time_scale` shrinks every window
//! for tests that play a week of games in seconds; the headers then say the shrunk times, so a
//! client that honours them (serenity's limiter) still never meets a 429.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Off: no headers, no 429 (a test that is about something else may say so).
    pub on: bool,
    /// Multiplies every window: 1.0 is Discord's time.
    pub time_scale: f64,
    /// Requests per second for the bot token, across routes.
    pub global_per_sec: usize,
    buckets: HashMap<String, Bucket>,
    global: VecDeque<Instant>,
    /// 429s this fake's limits answered (injected faults not included).
    pub limited: u32,
    /// The 429s by scope and route (`global`, or `METHOD /template`), for a bench to say
    /// which limit was met.
    pub limited_by: std::collections::BTreeMap<String, u32>,
    /// Responses Discord counts toward its invalid-request ban (401, 403, 429 but `shared`).
    pub invalid: u32,
    /// Requests that count toward the global limit, and requests exempt from it (interaction
    /// callbacks, follow-ups and edits of an interaction's answers), limits on or off.
    pub counted: u64,
    pub exempt: u64,
    /// DM channels opened (`POST /users/@me/channels`) in the last `DM_OPEN_WINDOW`.
    dm_opens: VecDeque<Instant>,
    /// DM opens refused with 40003.
    pub dm_refused: u32,
    /// The invalid-request ban (on the fake's clock, limits on or off).
    pub ban: InvalidBan,
}

/// "IP addresses that make too many invalid HTTP requests are automatically and temporarily
/// restricted from accessing the Discord API. Currently, this limit is 10,000 per 10 minutes"
/// (`developers/topics/rate-limits.mdx`). Discord does not say how long the restriction lasts;
/// the fake refuses everything (403) for one window from the answer that reached the limit.
pub const INVALID_BAN_LIMIT: usize = 10_000;
pub const INVALID_BAN_WINDOW: i64 = 600;

#[derive(Clone, Debug)]
pub struct InvalidBan {
    /// Invalid answers within `window` that start a ban.
    pub limit: usize,
    /// Seconds of the fake's clock.
    pub window: i64,
    /// When the invalid answers of the current window came (the fake's clock).
    recent: VecDeque<i64>,
    /// Banned until then (the fake's clock).
    until: Option<i64>,
    /// Requests refused by a ban.
    pub refused: u64,
    /// Bans begun.
    pub bans: u32,
    /// The most invalid answers seen within one window.
    pub peak: usize,
}

impl Default for InvalidBan {
    fn default() -> Self {
        InvalidBan {
            limit: INVALID_BAN_LIMIT,
            window: INVALID_BAN_WINDOW,
            recent: VecDeque::new(),
            until: None,
            refused: 0,
            bans: 0,
            peak: 0,
        }
    }
}

impl InvalidBan {
    /// True while a ban lasts.
    pub fn banned(&mut self, now: i64) -> bool {
        match self.until {
            Some(until) if now < until => true,
            Some(_) => {
                self.until = None;
                false
            }
            None => false,
        }
    }

    /// An invalid answer at `now`: the one that reaches the limit within the window starts a
    /// ban of one window.
    pub fn count(&mut self, now: i64) {
        while self.recent.front().is_some_and(|t| now - *t >= self.window) {
            self.recent.pop_front();
        }
        self.recent.push_back(now);
        self.peak = self.peak.max(self.recent.len());
        if self.recent.len() >= self.limit {
            self.recent.clear();
            self.until = Some(now + self.window);
            self.bans += 1;
        }
    }
}

/// Discord refuses a bot that opens DM channels in a burst (40003, "You are opening direct
/// messages too fast"; `resources/user.mdx`, Create DM: "If you open a significant amount of
/// DMs too quickly, your bot may be rate limited or blocked from opening new ones"). It
/// publishes no numbers; the fake allows this many opens per window (Discord's seconds), counting
/// every open, of a new channel or an existing one.
pub const DM_OPEN_LIMIT: usize = 50;
pub const DM_OPEN_WINDOW: f64 = 10.0;

#[derive(Clone, Debug)]
struct Bucket {
    limit: u32,
    remaining: u32,
    reset_at: Instant,
}

/// What a request met: headers to add, or a 429 to answer instead.
pub enum Verdict {
    Pass(Vec<(&'static str, String)>),
    Limited {
        retry_after: f64,
        global: bool,
        headers: Vec<(&'static str, String)>,
    },
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            on: true,
            time_scale: 1.0,
            global_per_sec: 50,
            buckets: HashMap::new(),
            global: VecDeque::new(),
            limited: 0,
            limited_by: Default::default(),
            invalid: 0,
            counted: 0,
            exempt: 0,
            dm_opens: VecDeque::new(),
            dm_refused: 0,
            ban: InvalidBan::default(),
        }
    }
}

/// The per-route limit of a route template: (requests, window in Discord's seconds).
fn route_limit(method: &str, template: &str) -> (u32, f64) {
    match (method, template) {
        ("POST", "/channels/{channel_id}/messages")
        | ("PATCH", "/channels/{channel_id}/messages/{message_id}") => (5, 5.0),
        // Interaction follow-ups and edits of the original answer, per interaction token.
        (_, t) if t.starts_with("/webhooks/") => (5, 2.0),
        _ => (5, 1.0),
    }
}

/// The top-level resource of a request (Discord limits each separately).
fn top_level(params: &HashMap<String, String>) -> String {
    for key in ["channel_id", "guild_id"] {
        if let Some(v) = params.get(key) {
            return format!("{key}={v}");
        }
    }
    match (params.get("webhook_id"), params.get("webhook_token")) {
        (Some(id), Some(token)) => format!("webhook={id}/{token}"),
        (Some(id), None) => format!("webhook={id}"),
        _ => String::new(),
    }
}

fn hash_hex(s: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl RateLimits {
    fn scaled(&self, secs: f64) -> Duration {
        Duration::from_secs_f64(secs * self.time_scale)
    }

    /// Another process on the same token has just opened a burst of DM channels: the window
    /// is full until `lifts_in` from now.
    pub fn crowd_dm_opens(&mut self, lifts_in: Duration) {
        let window = self.scaled(DM_OPEN_WINDOW);
        let at = Instant::now()
            .checked_sub(window.saturating_sub(lifts_in))
            .unwrap_or_else(Instant::now);
        self.dm_opens = std::iter::repeat_n(at, DM_OPEN_LIMIT).collect();
    }

    /// A DM open, past the route's own bucket: `Some(retry_after)` when it is one too many in
    /// its window (the answer is then 40003, with no `Retry-After` header: Discord documents
    /// none for it, so the client must back off by itself).
    pub fn dm_open(&mut self) -> Option<f64> {
        if !self.on {
            return None;
        }
        let now = Instant::now();
        let window = self.scaled(DM_OPEN_WINDOW);
        while self
            .dm_opens
            .front()
            .is_some_and(|t| now.duration_since(*t) >= window)
        {
            self.dm_opens.pop_front();
        }
        if self.dm_opens.len() >= DM_OPEN_LIMIT {
            let oldest = self.dm_opens.front().copied().unwrap_or(now);
            self.dm_refused += 1;
            self.limited += 1;
            *self.limited_by.entry("dm_open".into()).or_default() += 1;
            return Some((window - now.duration_since(oldest)).as_secs_f64());
        }
        self.dm_opens.push_back(now);
        None
    }

    /// Called for every request that reached a known route with the right credentials.
    /// `exempt_global`: interaction callbacks and webhooks.
    pub fn check(
        &mut self,
        method: &str,
        template: &str,
        params: &HashMap<String, String>,
        exempt_global: bool,
    ) -> Verdict {
        if exempt_global {
            self.exempt += 1;
        } else {
            self.counted += 1;
        }
        if !self.on {
            return Verdict::Pass(Vec::new());
        }
        let now = Instant::now();
        // Interaction callbacks carry no per-route limit in practice; they are answered once.
        if template.starts_with("/interactions/") {
            return Verdict::Pass(Vec::new());
        }
        if !exempt_global {
            let window = self.scaled(1.0);
            while self
                .global
                .front()
                .is_some_and(|t| now.duration_since(*t) >= window)
            {
                self.global.pop_front();
            }
            if self.global.len() >= self.global_per_sec {
                let oldest = self.global.front().copied().unwrap_or(now);
                let retry_after = (window - now.duration_since(oldest)).as_secs_f64();
                self.limited += 1;
                *self.limited_by.entry("global".into()).or_default() += 1;
                return Verdict::Limited {
                    retry_after,
                    global: true,
                    headers: vec![
                        ("retry-after", retry_header(self.time_scale, retry_after)),
                        ("x-ratelimit-global", "true".into()),
                        ("x-ratelimit-scope", "global".into()),
                    ],
                };
            }
        }
        let (limit, window) = route_limit(method, template);
        let window = self.scaled(window);
        let bucket_name = hash_hex(&format!("{method} {template}"));
        let key = format!("{bucket_name}:{}", top_level(params));
        let bucket = self.buckets.entry(key).or_insert(Bucket {
            limit,
            remaining: limit,
            reset_at: now + window,
        });
        if now >= bucket.reset_at {
            bucket.remaining = bucket.limit;
            bucket.reset_at = now + window;
        }
        let reset_after = bucket.reset_at.saturating_duration_since(now).as_secs_f64();
        let reset_epoch = (SystemTime::now() + Duration::from_secs_f64(reset_after))
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        if bucket.remaining == 0 {
            let retry = retry_header(self.time_scale, reset_after);
            let headers = vec![
                ("retry-after", retry),
                ("x-ratelimit-limit", bucket.limit.to_string()),
                ("x-ratelimit-remaining", "0".into()),
                ("x-ratelimit-reset", format!("{reset_epoch:.3}")),
                ("x-ratelimit-reset-after", format!("{reset_after:.3}")),
                ("x-ratelimit-bucket", bucket_name),
                ("x-ratelimit-scope", "user".into()),
            ];
            self.limited += 1;
            *self
                .limited_by
                .entry(format!("{method} {template}"))
                .or_default() += 1;
            return Verdict::Limited {
                retry_after: reset_after,
                global: false,
                headers,
            };
        }
        bucket.remaining -= 1;
        if !exempt_global {
            self.global.push_back(now);
        }
        Verdict::Pass(vec![
            ("x-ratelimit-limit", bucket.limit.to_string()),
            ("x-ratelimit-remaining", bucket.remaining.to_string()),
            ("x-ratelimit-reset", format!("{reset_epoch:.3}")),
            ("x-ratelimit-reset-after", format!("{reset_after:.3}")),
            ("x-ratelimit-bucket", bucket_name),
        ])
    }
}

/// Discord's `Retry-After` header is whole seconds; with a shrunk clock the fake says the shrunk
/// time with its decimals, or a client would wait a whole second.
fn retry_header(time_scale: f64, secs: f64) -> String {
    if time_scale >= 1.0 {
        format!("{}", secs.ceil().max(1.0))
    } else {
        format!("{secs:.3}")
    }
}
