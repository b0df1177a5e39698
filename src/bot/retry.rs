//! Retrying Discord calls that failed for a passing reason (429, 5xx, a refused connection).
//!
//! Without a proxy, serenity's rate limiter already waits out a 429. With `DISCORD_API_BASE`
//! the rate limiter must be off (serenity only rewrites URLs on that path), so nothing else
//! would retry, and a lost board post would leave a game without its buttons. serenity keeps
//! only the JSON error code of a failed answer, not `retry_after`, so the waits here are a
//! fixed, growing backoff, longer than Discord's usual per-route waits.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;

/// Attempts after the first one.
const RETRIES: u32 = 3;
/// The first wait; each next one doubles.
const FIRST_WAIT: Duration = Duration::from_millis(400);

/// Runs `call` until it succeeds, fails for good, or has been retried `RETRIES` times.
pub async fn retrying<T, Fut>(what: &str, call: impl FnMut() -> Fut) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retrying_as(crate::ops::route_class(what), what, call).await
}

/// [`retrying`], every attempt counted under the route class `class` with its answer
/// (`croupier_discord_requests_total`).
async fn retrying_as<T, Fut>(
    class: &'static str,
    what: &str,
    mut call: impl FnMut() -> Fut,
) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let mut wait = FIRST_WAIT;
    let mut attempt = 0;
    loop {
        let done = call().await;
        metrics::counter!(crate::ops::DISCORD_REQUESTS, "route" => class, "status" => status_of(&done))
            .increment(1);
        match done {
            Err(e) if attempt < RETRIES && is_passing(&e) => {
                attempt += 1;
                tracing::info!(what, attempt, error = %e, "Discord call failed; retrying");
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            done => return done,
        }
    }
}

/// [`retrying`] for a request Discord counts against the bot's global limit (everything but
/// interaction callbacks and follow-ups): each attempt first waits its turn in the
/// process-wide pace (`pace`).
pub async fn posting<T, Fut>(
    pace: &super::pace::Pace,
    what: &str,
    mut call: impl FnMut() -> Fut,
) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retrying(what, || {
        // The request starts when the future is first polled, after the wait.
        let request = call();
        async move {
            pace.counted().await;
            request.await
        }
    })
    .await
}

/// [`posting`] for a request Discord gives no nonce for (opening a thread): an attempt that
/// failed with a server error or a lost connection may still have been carried out, so
/// before each retry `look` searches for what it would have made, and a find ends the
/// retries.
pub async fn creating<T, Fut, LookFut>(
    pace: &super::pace::Pace,
    what: &str,
    mut call: impl FnMut() -> Fut,
    mut look: impl FnMut() -> LookFut,
) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
    LookFut: Future<Output = Option<T>>,
{
    use std::sync::atomic::Ordering::Relaxed;
    // Whether the last attempt may have been carried out (a server error, a lost connection).
    let maybe_done = &std::sync::atomic::AtomicBool::new(false);
    retrying(what, || {
        // Both start when the future is first polled, after the backoff.
        let request = call();
        let search = maybe_done.load(Relaxed).then(&mut look);
        async move {
            if let Some(search) = search {
                pace.counted().await;
                if let Some(found) = search.await {
                    tracing::info!(what, "the failed attempt was carried out; not retrying");
                    return Ok(found);
                }
            }
            pace.counted().await;
            let done = request.await;
            maybe_done.store(
                matches!(&done, Err(e) if is_passing(e) && !is_rate_limit(e)),
                Relaxed,
            );
            done
        }
    })
    .await
}

/// A 429: Discord did not carry the request out.
fn is_rate_limit(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
        if r.status_code.as_u16() == 429)
}

/// Runs an interaction's acknowledgement with `retrying`. A retry answered 40060 ("already
/// acknowledged") means an earlier attempt reached Discord and only its answer was lost: the
/// interaction is acknowledged, and the click goes on.
pub async fn acknowledging<Fut>(
    what: &str,
    call: impl FnMut() -> Fut,
) -> Result<(), serenity::Error>
where
    Fut: Future<Output = Result<(), serenity::Error>>,
{
    match retrying(what, call).await {
        Err(e) if already_acknowledged(&e) => {
            tracing::info!(what, "acknowledged by an earlier attempt");
            Ok(())
        }
        done => done,
    }
}

fn already_acknowledged(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
        if r.error.code == 40060)
}

/// The answer of one attempt as a label: `2xx`, the HTTP status of a refusal, `network`.
fn status_of<T>(done: &Result<T, serenity::Error>) -> String {
    match done {
        Ok(_) => "2xx".to_string(),
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))) => {
            r.status_code.as_u16().to_string()
        }
        Err(serenity::Error::Http(serenity::HttpError::Request(_))) => "network".to_string(),
        Err(_) => "error".to_string(),
    }
}

/// Rate limited, a server error, or no connection at all: worth another try. Not Discord's
/// 40003 (DM opens too fast), a 429 that lasts longer than these waits: its caller waits it
/// out (`send::dm_channel`).
pub(super) fn is_passing(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            (status == 429 && r.error.code != 40003) || (500..600).contains(&status)
        }
        serenity::Error::Http(serenity::HttpError::Request(r)) => r.is_connect(),
        _ => false,
    }
}

/// Discord's "Thread is archived": an edit of a message in an archived thread.
pub const THREAD_ARCHIVED: isize = 50083;

/// Discord's JSON error code of a refused request.
pub fn code_of(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// [`retrying`] for an edit in `channel`. A game's thread archives after a week without a
/// message, and a player's client may deliver a click from it without unarchiving it first;
/// Discord then refuses the edit (50083). The bot opened the thread, so it unarchives it and
/// edits again.
pub async fn editing<T, Fut>(
    http: &serenity::Http,
    pace: &super::pace::Pace,
    channel: serenity::ChannelId,
    what: &str,
    call: impl FnMut() -> Fut,
) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let class = crate::ops::route_class(what);
    editing_as(class, http, pace, channel, what, call).await
}

/// [`editing`], its attempts counted under the route class `class` (an interaction's own
/// reply is edited through its webhook, not as a channel message).
pub async fn editing_as<T, Fut>(
    class: &'static str,
    http: &serenity::Http,
    pace: &super::pace::Pace,
    channel: serenity::ChannelId,
    what: &str,
    mut call: impl FnMut() -> Fut,
) -> Result<T, serenity::Error>
where
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    match retrying_as(class, what, &mut call).await {
        Err(e) if code_of(&e) == Some(THREAD_ARCHIVED) => {
            tracing::info!(what, %channel, "the thread was archived; unarchiving it to edit");
            posting(pace, "unarchive a thread", || {
                channel.edit_thread(http, serenity::EditThread::new().archived(false))
            })
            .await?;
            retrying_as(class, what, call).await
        }
        done => done,
    }
}
