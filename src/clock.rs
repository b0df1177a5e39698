//! Time for the edges (store, service, table, bot): the clock (injected, so tests move time
//! instead of sleeping), fresh seeds, and local time in a player's time zone for quiet hours
//! and the digest. The pure core never reads any of it: times come in as arguments and
//! randomness from the seeded RNG in each game state.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// A fresh game seed: the standard library's randomly keyed hasher over the clock and a salt
/// (e.g. an interaction id). Only the seed is drawn here; a game's randomness is the ChaCha RNG
/// seeded with it.
pub fn fresh_seed(salt: u64) -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(salt);
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Where the service and the scheduler read the time.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Unix seconds.
    fn now(&self) -> i64;
}

/// The wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        unix_now()
    }
}

/// A clock the tests set and advance. Clones share the same time.
#[derive(Clone, Debug, Default)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    pub fn new(at: i64) -> ManualClock {
        ManualClock(Arc::new(AtomicI64::new(at)))
    }

    pub fn set(&self, at: i64) {
        self.0.store(at, Ordering::SeqCst);
    }

    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

pub const MINUTE: i64 = 60;
pub const HOUR: i64 = 3600;
pub const DAY: i64 = 86_400;
/// The longest clock a turn may have, and the most time a turn may have left after `/clock
/// extend`: long enough for any slow game, small enough that no deadline arithmetic can
/// overflow.
pub const MAX_TURN_SECS: i64 = 30 * DAY;
/// The shortest clock a turn may have.
pub const MIN_TURN_SECS: i64 = MINUTE;

/// A time zone from the IANA database compiled into the binary (UTC when `None`).
#[derive(Clone, Copy, Debug)]
pub struct Zone(Option<&'static tz::TimeZoneRef<'static>>);

impl Zone {
    pub const UTC: Zone = Zone(None);

    /// `Europe/Paris`, `america/new_york` (case-insensitive), `UTC`. `None` if unknown.
    pub fn named(name: &str) -> Option<Zone> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("utc") {
            return Some(Zone::UTC);
        }
        tzdb_data::find_tz(name.as_bytes()).map(|z| Zone(Some(z)))
    }

    /// A stored zone name, UTC when missing or unknown.
    pub fn of(name: Option<&str>) -> Zone {
        name.and_then(Zone::named).unwrap_or(Zone::UTC)
    }

    /// The canonical spelling of a zone name (`europe/paris` -> `Europe/Paris`).
    pub fn canonical_name(name: &str) -> Option<&'static str> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("utc") {
            return Some("UTC");
        }
        tzdb_data::TZ_NAMES
            .iter()
            .copied()
            .find(|n| n.eq_ignore_ascii_case(name))
    }

    /// Zone names containing every typed word (case-insensitive), for autocomplete.
    pub fn search(typed: &str, limit: usize) -> Vec<&'static str> {
        let words: Vec<String> = typed.split_whitespace().map(str::to_lowercase).collect();
        tzdb_data::TZ_NAMES
            .iter()
            .copied()
            .filter(|n| {
                let n = n.to_lowercase();
                words.iter().all(|w| n.contains(w.as_str()))
            })
            .take(limit)
            .collect()
    }

    /// Seconds to add to UTC for local time at `at`.
    pub fn offset(self, at: i64) -> i64 {
        match self.0 {
            None => 0,
            Some(z) => z
                .find_local_time_type(at)
                .map_or(0, |t| i64::from(t.ut_offset())),
        }
    }

    /// Minute of the local day (0..1440) at `at`.
    pub fn minute_of_day(self, at: i64) -> u16 {
        let local = at + self.offset(at);
        u16::try_from(local.rem_euclid(DAY) / MINUTE).unwrap_or(0)
    }

    /// The instant of local `date` at `minute` past midnight. In a DST gap the minute does not
    /// exist and the first instant after it is given; in an overlap, the first of the two.
    pub fn at_local(self, date: Date, minute: u16) -> i64 {
        let local = date.days_since_epoch() * DAY + i64::from(minute) * MINUTE;
        // Offsets around the day differ at most by a transition: try both.
        let candidates = [
            local - self.offset(local - DAY),
            local - self.offset(local + DAY),
        ];
        let mut best: Option<i64> = None;
        for utc in candidates {
            if utc + self.offset(utc) == local {
                best = Some(best.map_or(utc, |b: i64| b.min(utc)));
            }
        }
        best.unwrap_or_else(|| {
            // A gap: the wall-clock time is skipped; the transition instant follows it.
            let utc = candidates[0].min(candidates[1]);
            let mut t = utc;
            while t + self.offset(t) < local && t < utc + 2 * HOUR {
                t += MINUTE;
            }
            t
        })
    }

    /// The local calendar date at `at`.
    pub fn date(self, at: i64) -> Date {
        Date::from_days((at + self.offset(at)).div_euclid(DAY))
    }
}

/// Quiet hours: minutes after local midnight, `start` included, `end` excluded; they may wrap
/// past midnight (22:00-07:00). Equal bounds mean none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    pub start: u16,
    pub end: u16,
}

impl Quiet {
    pub fn contains(self, minute: u16) -> bool {
        match self.start.cmp(&self.end) {
            std::cmp::Ordering::Less => minute >= self.start && minute < self.end,
            std::cmp::Ordering::Greater => minute >= self.start || minute < self.end,
            std::cmp::Ordering::Equal => false,
        }
    }

    /// `22:00-07:30`, `22-7`. `None` if unreadable.
    pub fn parse(s: &str) -> Option<Quiet> {
        let (a, b) = s.trim().split_once('-')?;
        Some(Quiet {
            start: parse_hhmm(a)?,
            end: parse_hhmm(b)?,
        })
    }

    pub fn display(self) -> String {
        format!("{}-{}", hhmm(self.start), hhmm(self.end))
    }
}

fn parse_hhmm(s: &str) -> Option<u16> {
    let s = s.trim();
    let (h, m) = match s.split_once(':') {
        Some((h, m)) => (h.parse::<u16>().ok()?, m.parse::<u16>().ok()?),
        None => (s.parse::<u16>().ok()?, 0),
    };
    (h < 24 && m < 60).then_some(h * 60 + m)
}

pub fn hhmm(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// The first instant at or after `at` outside the quiet hours in `zone`. Walks minute by
/// minute from a first guess, so a DST change inside the quiet hours is handled by the data.
pub fn after_quiet(at: i64, zone: Zone, quiet: Option<Quiet>) -> i64 {
    let Some(q) = quiet else { return at };
    let m = zone.minute_of_day(at);
    if !q.contains(m) {
        return at;
    }
    // Jump to where the end would be without a transition, then correct minute by minute.
    let to_end = (i64::from(q.end) - i64::from(m)).rem_euclid(1440) * MINUTE;
    let mut t = at + to_end - at.rem_euclid(MINUTE);
    // After a "spring forward" the jump lands late: step back while still awake before.
    while t - MINUTE > at && !q.contains(zone.minute_of_day(t - MINUTE)) {
        t -= MINUTE;
    }
    let limit = at + 2 * DAY;
    while q.contains(zone.minute_of_day(t)) && t < limit {
        t += MINUTE;
    }
    t.max(at)
}

/// A calendar date (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i64,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// `2026-12-24`.
    pub fn parse(s: &str) -> Option<Date> {
        let mut parts = s.trim().splitn(3, '-');
        let year: i64 = parts.next()?.parse().ok()?;
        let month: u8 = parts.next()?.parse().ok()?;
        let day: u8 = parts.next()?.parse().ok()?;
        let d = Date { year, month, day };
        (Date::from_days(d.days_since_epoch()) == d && (1970..=9999).contains(&year)).then_some(d)
    }

    /// Days from 1970-01-01 (Howard Hinnant's algorithm).
    pub fn days_since_epoch(self) -> i64 {
        let y = if self.month <= 2 {
            self.year - 1
        } else {
            self.year
        };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year,
            month: u8::try_from(month).unwrap_or(1),
            day: u8::try_from(day).unwrap_or(1),
        }
    }

    pub fn next(self) -> Date {
        Date::from_days(self.days_since_epoch() + 1)
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A length as [`parse_duration`] reads it back, in few characters: `2d12h`, `1h30m`.
pub fn compact_duration(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / HOUR, secs % HOUR / MINUTE);
    let mut out = String::new();
    for (n, unit) in [(d, 'd'), (h, 'h'), (m, 'm')] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    if out.is_empty() {
        out.push_str("1m");
    }
    out
}

/// `24h`, `12 h`, `3d`, `90m`, `1d12h`: a clock length in seconds. `none`/`off`/`0` is `Some(None)`.
pub fn parse_duration(s: &str) -> Option<Option<i64>> {
    let s = s.trim().to_ascii_lowercase().replace(' ', "");
    if matches!(s.as_str(), "none" | "off" | "no" | "0" | "aucune" | "aucun") {
        return Some(None);
    }
    let mut total: i64 = 0;
    let mut num = String::new();
    let mut unit = String::new();
    let flush = |num: &mut String, unit: &mut String, total: &mut i64| -> Option<()> {
        if num.is_empty() {
            return unit.is_empty().then_some(());
        }
        let n: i64 = num.parse().ok()?;
        let per = match unit.as_str() {
            "" | "h" | "hours" | "hour" | "heures" | "heure" => HOUR,
            "d" | "j" | "days" | "day" | "jours" | "jour" => DAY,
            "m" | "min" | "mins" | "minutes" | "minute" => MINUTE,
            _ => return None,
        };
        *total = total.checked_add(n.checked_mul(per)?)?;
        num.clear();
        unit.clear();
        Some(())
    };
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !unit.is_empty() {
                flush(&mut num, &mut unit, &mut total)?;
            }
            num.push(c);
        } else {
            if num.is_empty() {
                return None;
            }
            unit.push(c);
        }
    }
    flush(&mut num, &mut unit, &mut total)?;
    (total > 0).then_some(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_and_time_moves_forward() {
        assert_ne!(fresh_seed(1), fresh_seed(1));
        assert!(unix_now() > 1_700_000_000);
        let c = ManualClock::new(100);
        let shared = c.clone();
        c.advance(50);
        assert_eq!(shared.now(), 150);
    }

    #[test]
    fn compact_durations_read_back() {
        for (secs, s) in [
            (60 * HOUR, "2d12h"),
            (90 * MINUTE, "1h30m"),
            (DAY, "1d"),
            (DAY + MINUTE, "1d1m"),
        ] {
            assert_eq!(compact_duration(secs), s);
            assert_eq!(parse_duration(s), Some(Some(secs)));
        }
    }

    #[test]
    fn dates_round_trip() {
        for s in ["1970-01-01", "2026-11-24", "2024-02-29", "2000-03-01"] {
            let d = Date::parse(s).unwrap();
            assert_eq!(d.to_string(), s);
            assert_eq!(Date::from_days(d.days_since_epoch()), d);
        }
        assert_eq!(Date::parse("1970-01-01").unwrap().days_since_epoch(), 0);
        assert!(Date::parse("2026-02-30").is_none());
        assert!(Date::parse("tomorrow").is_none());
    }

    #[test]
    fn durations_read_like_people_write_them() {
        assert_eq!(parse_duration("24h"), Some(Some(24 * HOUR)));
        assert_eq!(parse_duration("3d"), Some(Some(3 * DAY)));
        assert_eq!(parse_duration("12"), Some(Some(12 * HOUR)));
        assert_eq!(parse_duration("1d 12h"), Some(Some(DAY + 12 * HOUR)));
        assert_eq!(parse_duration("90m"), Some(Some(90 * MINUTE)));
        assert_eq!(parse_duration("none"), Some(None));
        assert_eq!(parse_duration("soon"), None);
        assert_eq!(parse_duration("h"), None);
    }

    #[test]
    fn quiet_hours_wrap_past_midnight() {
        let q = Quiet::parse("22:00-07:30").unwrap();
        assert!(q.contains(23 * 60));
        assert!(q.contains(0));
        assert!(q.contains(7 * 60 + 29));
        assert!(!q.contains(7 * 60 + 30));
        assert!(!q.contains(12 * 60));
        assert_eq!(Quiet::parse("9-17").unwrap().display(), "09:00-17:00");
        assert!(Quiet::parse("25-3").is_none());
    }

    #[test]
    fn zones_know_daylight_saving() {
        let paris = Zone::named("europe/paris").unwrap();
        // 2026-07-01 12:00 UTC is 14:00 in Paris (summer), 2026-12-01 12:00 UTC is 13:00.
        let july = Zone::UTC.at_local(Date::parse("2026-07-01").unwrap(), 12 * 60);
        let dec = Zone::UTC.at_local(Date::parse("2026-12-01").unwrap(), 12 * 60);
        assert_eq!(paris.minute_of_day(july), 14 * 60);
        assert_eq!(paris.minute_of_day(dec), 13 * 60);
        assert_eq!(
            Zone::canonical_name("america/new_york"),
            Some("America/New_York")
        );
        assert!(Zone::named("Mars/Olympus").is_none());
        assert!(Zone::search("paris", 5).contains(&"Europe/Paris"));
    }

    #[test]
    fn quiet_hours_end_in_local_time_across_a_dst_change() {
        // Europe/Paris leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC).
        let paris = Zone::named("Europe/Paris").unwrap();
        let q = Some(Quiet::parse("22:00-08:00").unwrap());
        // 23:00 local on the 24th (summer, UTC+2) is 21:00 UTC.
        let night = paris.at_local(Date::parse("2026-10-24").unwrap(), 23 * 60);
        assert_eq!(
            night,
            Zone::UTC.at_local(Date::parse("2026-10-24").unwrap(), 21 * 60)
        );
        let wake = after_quiet(night, paris, q);
        // 08:00 local on the 25th is winter time (UTC+1): 07:00 UTC, ten hours later, not nine.
        assert_eq!(
            wake,
            Zone::UTC.at_local(Date::parse("2026-10-25").unwrap(), 7 * 60)
        );
        assert_eq!(wake - night, 10 * HOUR);
        // Spring forward (2026-03-29, 02:00 -> 03:00): the night is an hour shorter.
        let night = paris.at_local(Date::parse("2026-03-28").unwrap(), 23 * 60);
        let wake = after_quiet(night, paris, q);
        assert_eq!(paris.minute_of_day(wake), 8 * 60);
        assert_eq!(wake - night, 8 * HOUR);
        // Awake already: unchanged.
        let noon = paris.at_local(Date::parse("2026-03-28").unwrap(), 12 * 60);
        assert_eq!(after_quiet(noon, paris, q), noon);
        assert_eq!(after_quiet(noon, paris, None), noon);
    }
}
