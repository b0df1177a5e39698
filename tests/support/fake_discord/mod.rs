//! A fake Discord on loopback for end-to-end tests: REST v10 and the gateway websocket.
//!
//! The bot under test is real client code pointed at the fake: its REST client resolves
//! `discord.com` to the fake's TLS port (`discord_client`, so serenity's rate limiter stays on;
//! serenity honours a proxy only with the limiter off, which `api_base` still offers) and the
//! gateway URL the fake returns from `GET /gateway`. Every request is checked against Discord's OpenAPI
//! description and Discord's limits; every payload the fake sends is checked to parse as
//! serenity's own models. Problems are recorded, and `assert_clean` lists them all.
//!
//! Include it from an integration test with
//! `#[path = "../support/fake_discord/mod.rs"] mod fake_discord;`.
#![allow(dead_code, unused_imports)]

mod checks;
mod gateway;
mod interactions;
mod multipart;
pub mod openapi;
mod payloads;
pub mod perms;
pub mod ratelimits;
mod rest;
mod state;

pub use interactions::{opt, Actor, Push};
pub use state::{
    Attachment, Behaviour, Callback, ChannelKind, ChannelRec, Fault, InteractionKind,
    InteractionRec, Message, RequestLog, Violation, ALICE, APPLICATION_ID, BOB,
    BOT_INVITE_PERMISSIONS, BOT_ROLE_ID, BOT_USER_ID, CHANNEL_ID, GUILD_ID, OWNER_ID,
};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::Value;
pub use state::State;
use state::{ChannelRec as Chan, UserRec};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake-discord-token";

/// How long `wait_*` helpers wait before failing the test (a hang guard, not a timing check).
const WAIT_LIMIT: Duration = Duration::from_secs(30);

const TLS_CA: &[u8] = include_bytes!("tls/ca.pem");
const TLS_CERT: &[u8] = include_bytes!("tls/discord.com.pem");
const TLS_KEY: &[u8] = include_bytes!("tls/discord.com.key");

fn tls_acceptor() -> tokio_rustls::TlsAcceptor {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_slice_iter(TLS_CERT)
        .collect::<Result<Vec<_>, _>>()
        .expect("fake Discord certificate");
    let key = PrivateKeyDer::from_pem_slice(TLS_KEY).expect("fake Discord key");
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("fake Discord TLS config");
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

/// The spec is parsed once per test binary (1 MB of JSON).
fn shared_spec() -> Arc<openapi::Spec> {
    static SPEC: OnceLock<Result<Arc<openapi::Spec>, String>> = OnceLock::new();
    match SPEC.get_or_init(|| openapi::Spec::load().map(Arc::new)) {
        Ok(spec) => Arc::clone(spec),
        Err(e) => panic!("fake Discord needs the OpenAPI spec: {e}"),
    }
}

pub(crate) struct Inner {
    state: Mutex<State>,
    changed: Notify,
    spec: Arc<openapi::Spec>,
    api_base: String,
    gateway_url: String,
    /// READY's `resume_gateway_url`: a second gateway listener, the only one taking a RESUME
    /// (serenity 0.12.5 never reads it; the bot hands it to serenity).
    resume_gateway_url: String,
    /// `hold_gateway`: new gateway connections wait, unanswered, while true.
    held: tokio::sync::watch::Sender<bool>,
    /// `127.0.0.1:port`, what the Host header must say (`discord.com` over TLS).
    host: String,
    /// Where `discord.com` resolves for `discord_client`.
    tls_addr: std::net::SocketAddr,
    /// `drop_gateway`: every live connection ends without a close frame.
    cut: tokio::sync::broadcast::Sender<()>,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking test thread must not hide the state from the report.
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // Whoever looks next (a request, a push, the test) sees idle threads archived, as
        // Discord would have archived them meanwhile.
        for thread in st.archive_idle_threads() {
            gateway::thread_update(&mut st, thread);
        }
        st
    }
}

/// An interaction the fake pushed: what the bot needs to answer it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    pub id: u64,
    pub token: String,
}

pub struct FakeDiscord {
    inner: Arc<Inner>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl FakeDiscord {
    /// Binds REST and gateway listeners on 127.0.0.1 (free ports) and serves them.
    pub async fn start() -> FakeDiscord {
        let spec = shared_spec();
        let rest = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind REST port");
        let gw = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind gateway port");
        let resume_gw = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind resume gateway port");
        let resume_addr = resume_gw.local_addr().expect("resume gateway address");
        let tls = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind TLS REST port");
        let tls_addr = tls.local_addr().expect("TLS REST address");
        let rest_addr = rest.local_addr().expect("REST address");
        let gw_addr = gw.local_addr().expect("gateway address");
        let inner = Arc::new(Inner {
            state: Mutex::new(State::new(TOKEN)),
            changed: Notify::new(),
            spec,
            api_base: format!("http://{rest_addr}"),
            gateway_url: format!("ws://{gw_addr}"),
            resume_gateway_url: format!("ws://{resume_addr}"),
            held: tokio::sync::watch::channel(false).0,
            host: rest_addr.to_string(),
            tls_addr,
            cut: tokio::sync::broadcast::channel(4).0,
        });
        let rest_inner = Arc::clone(&inner);
        let rest_task = tokio::spawn(async move {
            while let Ok((stream, _)) = rest.accept().await {
                let inner = Arc::clone(&rest_inner);
                tokio::spawn(async move {
                    let svc = service_fn(move |req| delayed(Arc::clone(&inner), req, false));
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .await;
                });
            }
        });
        // The same REST service as `https://discord.com` (see tls/README.md).
        let tls_inner = Arc::clone(&inner);
        let acceptor = tls_acceptor();
        let tls_task = tokio::spawn(async move {
            while let Ok((stream, _)) = tls.accept().await {
                let inner = Arc::clone(&tls_inner);
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(stream) = acceptor.accept(stream).await else {
                        return;
                    };
                    let svc = service_fn(move |req| delayed(Arc::clone(&inner), req, true));
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .await;
                });
            }
        });
        let gw_task = tokio::spawn(gateway::serve(gw, Arc::clone(&inner), false));
        let resume_task = tokio::spawn(gateway::serve(resume_gw, Arc::clone(&inner), true));
        FakeDiscord {
            inner,
            tasks: vec![rest_task, tls_task, gw_task, resume_task],
        }
    }

    /// A reqwest client for which `https://discord.com` is this fake: the name resolves to
    /// its TLS port and only the fake's test authority is trusted.
    pub fn discord_client(&self) -> reqwest::Client {
        let ca = reqwest::Certificate::from_pem(TLS_CA).expect("test CA");
        reqwest::Client::builder()
            .use_rustls_tls()
            .tls_built_in_root_certs(false)
            .add_root_certificate(ca)
            .resolve("discord.com", self.inner.tls_addr)
            .build()
            .expect("reqwest client for the fake Discord")
    }

    /// For `HttpBuilder::proxy`: `http://127.0.0.1:PORT`.
    pub fn api_base(&self) -> String {
        self.inner.api_base.clone()
    }

    /// What `GET /gateway` answers: `ws://127.0.0.1:PORT`.
    pub fn gateway_url(&self) -> String {
        self.inner.gateway_url.clone()
    }

    /// READY's `resume_gateway_url`: another listener than `gateway_url`, as on Discord; a
    /// RESUME is accepted only here (op 9 on the connect URL).
    pub fn resume_gateway_url(&self) -> String {
        self.inner.resume_gateway_url.clone()
    }

    /// A serenity `Http` wired to the fake as Discord itself (`discord_client`), with serenity's
    /// rate limiter on, application id set.
    pub fn http(&self) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(TOKEN)
            .client(self.discord_client())
            .application_id(serenity::model::id::ApplicationId::new(APPLICATION_ID))
            .build()
    }

    // ----- setup -----

    /// Acknowledgements later than this are violations (3 s, as on Discord).
    pub fn set_ack_deadline(&self, deadline: Duration) {
        self.inner.lock().ack_deadline = deadline;
    }

    /// Adds `delay` to each way of every REST request (before it is handled, and before its
    /// answer leaves) and of every gateway frame, so the 3 s an interaction has, counted from
    /// its dispatch, lose a delivery and a callback's way as on a real network.
    pub fn set_network_delay(&self, delay: Duration) {
        self.inner.lock().network_delay = delay;
    }

    /// Guilds one shard may hold (Discord: 2,500): an IDENTIFY for a shard that would hold
    /// more is closed with 4011, and `GET /gateway/bot` recommends enough shards.
    pub fn set_shard_guild_limit(&self, limit: usize) {
        self.inner.lock().shard_guild_limit = limit;
    }

    /// The bot joins `n` more guilds, each with one text channel (the same members and
    /// `@everyone` permissions as the main guild); returns `(guild, channel)` pairs. Their ids
    /// follow the main guild's so that they fall on every shard in turn. A connected shard
    /// that owns one gets its GUILD_CREATE.
    pub fn add_guilds(&self, n: usize) -> Vec<(u64, u64)> {
        let mut st = self.inner.lock();
        let mut added = Vec::new();
        for _ in 0..n {
            let k = st.extra_guilds.len() as u64 + 1;
            let guild = (((st.guild_id >> 22) + k) << 22) | 10;
            let channel = st.next_id();
            st.channels
                .insert(channel, Chan::text(channel, "games", guild, Vec::new()));
            st.extra_guilds.insert(guild, channel);
            let d = payloads::guild_create_of(&st, guild);
            gateway::dispatch_routed(&mut st, "GUILD_CREATE", &d);
            added.push((guild, channel));
        }
        drop(st);
        self.inner.changed.notify_waiters();
        added
    }

    /// A server adds the bot now: GUILD_CREATE (with `joined_at` now) to the shard that owns
    /// it. The server has a `rules` channel first, where the bot may not post (a member
    /// overwrite denies it Send Messages), then `general`, its system channel when `system`.
    /// Returns `(guild, rules, general)`.
    pub fn join_guild(&self, system: bool) -> (u64, u64, u64) {
        let mut st = self.inner.lock();
        let k = st.extra_guilds.len() as u64 + 1;
        let guild = (((st.guild_id >> 22) + k) << 22) | 10;
        let deny_bot = perms::Overwrite {
            target: perms::Target::Member(st.bot_user_id),
            allow: 0,
            deny: perms::SEND_MESSAGES,
        };
        let rules = st.next_id();
        st.channels
            .insert(rules, Chan::text(rules, "rules", guild, vec![deny_bot]));
        let general = st.next_id();
        st.channels
            .insert(general, Chan::text(general, "general", guild, Vec::new()));
        st.extra_guilds.insert(guild, rules);
        let now = st.now();
        st.joined_at.insert(guild, now);
        if system {
            st.system_channels.insert(guild, general);
        }
        let d = payloads::guild_create_of(&st, guild);
        gateway::dispatch_routed(&mut st, "GUILD_CREATE", &d);
        drop(st);
        self.inner.changed.notify_waiters();
        (guild, rules, general)
    }

    /// Each connected session's shard with its last presence (op 3, or IDENTIFY's) and how
    /// many presence updates it sent.
    pub fn presences(&self) -> Vec<([u64; 2], Option<Value>, u32)> {
        let st = self.inner.lock();
        st.sessions
            .iter()
            .filter(|s| s.tx.is_some())
            .map(|s| (s.shard, s.presence.clone(), s.presence_updates))
            .collect()
    }

    /// IDENTIFYs closed with 4011 (Sharding required), as `[shard_id, num_shards]`.
    pub fn sharding_required(&self) -> Vec<[u64; 2]> {
        self.inner.lock().sharding_required.clone()
    }

    pub fn add_user(&self, id: u64, name: &str) {
        let user = UserRec {
            id,
            name: name.into(),
            bot: false,
            dms_closed: false,
            left_guild: false,
        };
        self.inner.lock().users.insert(id, user);
    }

    /// The user refuses DMs from the bot: messages to their DM channel get 403/50007.
    pub fn close_dms(&self, user: u64) {
        if let Some(u) = self.inner.lock().users.get_mut(&user) {
            u.dms_closed = true;
        }
    }

    /// The user leaves the guild, the only one they shared with the bot: DMs to them answer
    /// 403 / 50278 ("no mutual guilds").
    pub fn leave_guild(&self, user: u64) {
        if let Some(u) = self.inner.lock().users.get_mut(&user) {
            u.left_guild = true;
        }
    }

    /// The member's permissions in interactions (a decimal bit set, e.g. without Manage Threads).
    pub fn set_member_permissions(&self, user: u64, permissions: u64) {
        self.inner
            .lock()
            .member_permissions
            .insert(user, permissions.to_string());
    }

    /// Makes the guild a Community guild whose preferred locale is `locale`: only a Community
    /// guild chooses one ("the preferred locale of a Community guild … defaults to en-US", the
    /// Guild resource page), so a guild never set up this way sends en-US in every interaction
    /// whatever its members' own locales are.
    pub fn set_guild_locale(&self, locale: &str) {
        let mut st = self.inner.lock();
        st.community = true;
        st.guild_locale = locale.into();
    }

    /// A DM channel between the bot and `user` (created if needed), e.g. to push a command there.
    pub fn dm_channel(&self, user: u64) -> u64 {
        let mut st = self.inner.lock();
        if let Some(c) = st.channels.values().find(|c| c.recipient == Some(user)) {
            return c.id;
        }
        let id = st.next_id();
        st.channels.insert(
            id,
            Chan {
                id,
                kind: ChannelKind::Dm,
                name: String::new(),
                guild_id: None,
                parent_id: None,
                recipient: Some(user),
                from_message: None,
                auto_archive_duration: 0,
                invitable: false,
                overwrites: Vec::new(),
                archived: false,
                locked: false,
                last_activity: 0,
            },
        );
        id
    }

    /// A public thread a member started in the text channel `parent` (not from one of the bot's
    /// messages): the bot did not make it and may not start a thread inside it (400 / 50024).
    pub fn member_thread(&self, parent: u64, name: &str) -> u64 {
        let mut st = self.inner.lock();
        let id = st.next_id();
        let guild = st.channels.get(&parent).and_then(|c| c.guild_id);
        let now = st.now();
        st.channels.insert(
            id,
            Chan {
                id,
                kind: ChannelKind::PublicThread,
                name: name.into(),
                guild_id: guild,
                parent_id: Some(parent),
                recipient: None,
                from_message: None,
                auto_archive_duration: 4320,
                invitable: true,
                overwrites: Vec::new(),
                archived: false,
                locked: false,
                last_activity: now,
            },
        );
        id
    }

    /// Another text channel of the guild, with these permission overwrites.
    /// Another text channel of the guild, with these permission overwrites: CHANNEL_CREATE
    /// goes to the guild's shard (the GUILDS intent), as on Discord.
    pub fn add_channel(&self, id: u64, name: &str, overwrites: Vec<perms::Overwrite>) {
        let mut st = self.inner.lock();
        let guild = st.guild_id;
        st.channels
            .insert(id, Chan::text(id, name, guild, overwrites));
        let d = st.channels.get(&id).map(|c| payloads::channel(c, &st));
        if let Some(d) = d {
            gateway::dispatch_routed(&mut st, "CHANNEL_CREATE", &d);
        }
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// Adds (or replaces) an overwrite on a text channel: CHANNEL_UPDATE, as on Discord.
    pub fn overwrite(&self, channel: u64, o: perms::Overwrite) {
        let mut st = self.inner.lock();
        let Some(c) = st.channels.get_mut(&channel) else {
            return;
        };
        c.overwrites.retain(|x| x.target != o.target);
        c.overwrites.push(o);
        let d = st.channels.get(&channel).map(|c| payloads::channel(c, &st));
        if let Some(d) = d {
            gateway::dispatch_routed(&mut st, "CHANNEL_UPDATE", &d);
        }
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// The `@everyone` role's permissions (every member's base).
    pub fn set_everyone_permissions(&self, permissions: u64) {
        let mut st = self.inner.lock();
        let guild = st.guild_id;
        st.roles.insert(guild, permissions);
    }

    /// The permissions of the bot's own role (the invite's); `@everyone`'s still apply.
    pub fn set_bot_role_permissions(&self, permissions: u64) {
        self.inner
            .lock()
            .roles
            .insert(state::BOT_ROLE_ID, permissions);
    }

    /// A role with these permissions, given to `members`.
    pub fn add_role(&self, role: u64, permissions: u64, members: &[u64]) {
        let mut st = self.inner.lock();
        st.roles.insert(role, permissions);
        for m in members {
            st.member_roles.entry(*m).or_default().push(role);
        }
    }

    /// A member's permissions in a channel, as the fake computes them for interactions.
    /// Whether `user` sees `channel`: a private thread only its members and those with Manage
    /// Threads ("You must be invited to the thread to be able to view or participate in it, or
    /// be a moderator (`MANAGE_THREADS` permission)").
    pub fn can_view(&self, user: u64, channel: u64) -> bool {
        self.inner.lock().can_view(user, channel)
    }

    /// The members of a thread (added with `PUT /channels/{id}/thread-members/{user}`).
    pub fn thread_members(&self, thread: u64) -> Vec<u64> {
        let st = self.inner.lock();
        st.thread_members
            .get(&thread)
            .map(|m| m.iter().copied().collect())
            .unwrap_or_default()
    }

    pub fn permissions_in(&self, user: u64, channel: u64) -> u64 {
        self.inner.lock().channel_permissions(user, channel)
    }

    /// A channel (or thread) as it stands.
    pub fn channel(&self, id: u64) -> Option<ChannelRec> {
        self.inner.lock().channels.get(&id).cloned()
    }

    /// For long load runs: no request log, and uploaded files are checked but their bytes
    /// dropped, so the process's memory is the bot's rather than the fake's records.
    pub fn lean(&self) {
        self.inner.lock().lean = true;
    }

    // ----- time and thread lifecycle -----

    /// Moves the fake's clock forward (threads idle past their auto-archive time archive).
    pub fn advance(&self, secs: i64) {
        self.inner.lock().clock.offset += secs;
        self.inner.changed.notify_waiters();
    }

    /// Reads the time from the test's own clock (e.g. the service's `ManualClock`), so moving
    /// that clock moves the fake's too; `advance` still adds to it.
    pub fn follow_clock(&self, now: impl Fn() -> i64 + Send + Sync + 'static) {
        let mut st = self.inner.lock();
        let before = st.now();
        st.clock.source = Some(Arc::new(now));
        // Threads made so far were active "now": keep their idle time as it was.
        let shift = st.now() - before;
        for c in st.channels.values_mut() {
            if c.last_activity != 0 {
                c.last_activity += shift;
            }
        }
    }

    /// The fake's clock, Unix seconds.
    pub fn now(&self) -> i64 {
        self.inner.lock().now()
    }

    /// Switches one of Discord's behaviours off (or on again) for this test.
    pub fn set_behaviour(&self, behaviour: Behaviour, on: bool) {
        let mut st = self.inner.lock();
        if on {
            st.switched_off.remove(&behaviour);
        } else {
            st.switched_off.insert(behaviour);
        }
    }

    /// The guild's cap of active threads (`Behaviour::ActiveThreadCap`).
    pub fn set_active_thread_cap(&self, cap: usize) {
        self.inner.lock().active_thread_cap = cap;
    }

    /// A moderator archives a thread (THREAD_UPDATE), and locks it too with `lock`.
    pub fn archive_thread(&self, thread: u64, lock: bool) {
        let mut st = self.inner.lock();
        if let Some(c) = st.channels.get_mut(&thread) {
            c.archived = true;
            c.locked |= lock;
        }
        gateway::thread_update(&mut st, thread);
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// A moderator deletes a thread: THREAD_DELETE, then every request naming it answers
    /// 404 / 10003.
    pub fn delete_thread(&self, thread: u64) {
        let mut st = self.inner.lock();
        if let Some(c) = st.channels.remove(&thread) {
            st.deleted_channels.insert(thread);
            gateway::thread_delete(&mut st, &c);
        }
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// A moderator deletes a text channel, and with it its threads: CHANNEL_DELETE, then every
    /// request naming the channel or one of its threads answers 404 / 10003.
    pub fn delete_channel(&self, channel: u64) {
        let mut st = self.inner.lock();
        let threads: Vec<u64> = st
            .channels
            .values()
            .filter(|c| c.parent_id == Some(channel))
            .map(|c| c.id)
            .collect();
        for t in threads {
            st.channels.remove(&t);
            st.deleted_channels.insert(t);
        }
        if let Some(c) = st.channels.remove(&channel) {
            st.deleted_channels.insert(channel);
            gateway::channel_delete(&mut st, &c);
        }
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// The bot is kicked from the guild: GUILD_DELETE (without `unavailable`), then the guild's
    /// channels answer 403 / 50001.
    pub fn remove_bot_from_guild(&self) {
        let mut st = self.inner.lock();
        st.removed_from_guild = true;
        gateway::guild_delete(&mut st);
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// Gateway dispatches sent so far with this event name (`t`), their `d`, oldest first.
    pub fn dispatched(&self, event: &str) -> Vec<Value> {
        self.inner
            .lock()
            .dispatches
            .iter()
            .filter(|(t, _)| t == event)
            .map(|(_, d)| d.clone())
            .collect()
    }

    // ----- faults -----

    /// The next `times` requests on `route` (`"POST /channels/{channel_id}/messages"`) get
    /// `status` with Discord's JSON error `code` instead of being served.
    pub fn fail_next(&self, route: &str, times: u32, status: u16, code: u64) {
        self.inner.lock().faults.push(Fault {
            route: route.into(),
            times,
            status,
            code,
            retry_after: None,
            scope: "user",
            carried_out: false,
        });
    }

    /// The next `times` requests on `route` are carried out and still answered `status` (500,
    /// 502, 504), as when Discord did the work and the answer was lost on the way back.
    pub fn fail_after(&self, route: &str, times: u32, status: u16) {
        self.inner.lock().faults.push(Fault {
            route: route.into(),
            times,
            status,
            code: 0,
            retry_after: None,
            scope: "user",
            carried_out: true,
        });
    }

    /// The next `times` requests on `route` are rate limited: 429 with `retry_after` seconds.
    pub fn rate_limit_next(&self, route: &str, times: u32, retry_after: f64) {
        self.rate_limit_next_in(route, times, retry_after, "user");
    }

    /// As `rate_limit_next`, with `X-RateLimit-Scope: shared` (a per-resource limit other
    /// users also spend), which Discord does not count toward the invalid-request ban.
    pub fn rate_limit_next_shared(&self, route: &str, times: u32, retry_after: f64) {
        self.rate_limit_next_in(route, times, retry_after, "shared");
    }

    fn rate_limit_next_in(&self, route: &str, times: u32, retry_after: f64, scope: &'static str) {
        self.inner.lock().faults.push(Fault {
            route: route.into(),
            times,
            status: 429,
            code: 0,
            retry_after: Some(retry_after),
            scope,
            carried_out: false,
        });
    }

    /// Discord's rate limits (on by default): `f` may switch them off, shrink their windows
    /// (`time_scale`) or change the global limit.
    pub fn rate_limits(&self, f: impl FnOnce(&mut ratelimits::RateLimits)) {
        f(&mut self.inner.lock().rate);
    }

    /// 429s the fake's rate limits answered (injected faults not included).
    pub fn rate_limited(&self) -> u32 {
        self.inner.lock().rate.limited
    }

    /// The 429s the fake's limits answered, by scope and route.
    pub fn rate_limited_by(&self) -> std::collections::BTreeMap<String, u32> {
        self.inner.lock().rate.limited_by.clone()
    }

    /// Answers Discord counts toward its invalid-request ban (401, 403 and 429, except a 429
    /// with `X-RateLimit-Scope: shared`), since the fake started.
    pub fn invalid_requests(&self) -> u32 {
        self.inner.lock().rate.invalid
    }

    /// The invalid-request ban (Discord: `INVALID_BAN_LIMIT` invalid answers within
    /// `INVALID_BAN_WINDOW` of the fake's clock, then 403 for every request until the window
    /// has passed): a test may lower the threshold or change the window.
    pub fn set_invalid_ban(&self, limit: usize, window: Duration) {
        let mut st = self.inner.lock();
        st.rate.ban.limit = limit;
        st.rate.ban.window = i64::try_from(window.as_secs()).unwrap_or(i64::MAX);
    }

    /// The most invalid answers within one window of the ban (10 minutes of the fake's clock).
    pub fn invalid_peak(&self) -> usize {
        self.inner.lock().rate.ban.peak
    }

    /// Requests refused by the invalid-request ban, and how many bans began.
    pub fn banned(&self) -> (u64, u32) {
        let st = self.inner.lock();
        (st.rate.ban.refused, st.rate.ban.bans)
    }

    /// Requests so far that count toward the global limit, and those exempt from it
    /// (interaction callbacks and webhooks).
    pub fn request_counts(&self) -> (u64, u64) {
        let st = self.inner.lock();
        (st.rate.counted, st.rate.exempt)
    }

    /// Injected faults not used up yet, as `(route, times left)`.
    pub fn pending_faults(&self) -> Vec<(String, u32)> {
        let st = self.inner.lock();
        st.faults
            .iter()
            .map(|f| (f.route.clone(), f.times))
            .collect()
    }

    /// Drops every gateway connection without a close frame, as a network cut would; the
    /// sessions stay known, so the bot can RESUME them. From now on their dispatches are kept
    /// for the RESUME to replay (a frame already on its way is lost).
    pub fn drop_gateway(&self) {
        let mut st = self.inner.lock();
        for s in &mut st.sessions {
            s.tx = None;
        }
        let _ = self.inner.cut.send(());
        drop(st);
        self.inner.changed.notify_waiters();
    }

    /// New gateway connections are accepted but get no HELLO, and what the client sends waits
    /// unread, until `release_gateway` (with `drop_gateway`, a window in which events are
    /// missed for sure).
    pub fn hold_gateway(&self) {
        self.inner.held.send_replace(true);
    }

    pub fn release_gateway(&self) {
        self.inner.held.send_replace(false);
    }

    // ----- what happened -----

    /// Live messages in a channel, oldest first.
    pub fn messages(&self, channel: u64) -> Vec<Message> {
        let st = self.inner.lock();
        st.messages
            .iter()
            .filter(|m| m.channel_id == channel && !m.deleted)
            .cloned()
            .collect()
    }

    pub fn message(&self, id: u64) -> Option<Message> {
        self.inner.lock().message(id).cloned()
    }

    /// Messages the bot sent to a user's DMs, oldest first.
    pub fn dms(&self, user: u64) -> Vec<Message> {
        let channel = {
            let st = self.inner.lock();
            st.channels
                .values()
                .find(|c| c.recipient == Some(user))
                .map(|c| c.id)
        };
        channel.map(|c| self.messages(c)).unwrap_or_default()
    }

    /// Threads the bot created, in creation order.
    pub fn threads(&self) -> Vec<ChannelRec> {
        let st = self.inner.lock();
        let mut t: Vec<ChannelRec> = st
            .channels
            .values()
            .filter(|c| {
                matches!(
                    c.kind,
                    ChannelKind::PublicThread | ChannelKind::PrivateThread
                )
            })
            .cloned()
            .collect();
        t.sort_by_key(|c| c.id);
        t
    }

    /// Registered command bodies, global (`None`) or for a guild.
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        let st = self.inner.lock();
        st.commands
            .iter()
            .filter(|c| c.guild_id == guild)
            .map(|c| c.body.clone())
            .collect()
    }

    /// Each registered command's name and id, global or for a guild.
    pub fn command_ids(&self) -> Vec<(String, u64)> {
        let st = self.inner.lock();
        st.commands
            .iter()
            .filter_map(|c| Some((c.body.get("name")?.as_str()?.to_string(), c.id)))
            .collect()
    }

    pub fn interaction(&self, id: u64) -> Option<InteractionRec> {
        self.inner.lock().interactions.get(&id).cloned()
    }

    /// The original response message of an interaction.
    pub fn original_response(&self, id: u64) -> Option<Message> {
        let st = self.inner.lock();
        let mid = st.interactions.get(&id)?.original?;
        st.message(mid).cloned()
    }

    pub fn followups(&self, id: u64) -> Vec<Message> {
        let st = self.inner.lock();
        let ids = st
            .interactions
            .get(&id)
            .map(|i| i.followups.clone())
            .unwrap_or_default();
        ids.iter().filter_map(|m| st.message(*m).cloned()).collect()
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RequestLog> {
        self.inner.lock().requests.clone()
    }

    /// IDENTIFY payloads received (one per gateway session).
    pub fn identifies(&self) -> Vec<Value> {
        self.inner
            .lock()
            .sessions
            .iter()
            .map(|s| s.identify.clone())
            .collect()
    }

    pub fn violations(&self) -> Vec<Violation> {
        self.inner.lock().violations.clone()
    }

    /// Returns and forgets the violations so far (for tests that provoke them on purpose).
    pub fn take_violations(&self) -> Vec<Violation> {
        std::mem::take(&mut self.inner.lock().violations)
    }

    /// Panics listing every violation, if there is any.
    pub fn assert_clean(&self) {
        let v = self.violations();
        if !v.is_empty() {
            let list: Vec<String> = v.iter().map(|x| format!("  - {x}")).collect();
            panic!(
                "fake Discord saw {} violation(s):\n{}",
                v.len(),
                list.join("\n")
            );
        }
    }

    // ----- gateway -----

    /// Waits for a gateway session to be identified (READY sent).
    pub async fn wait_for_session(&self) {
        self.wait_until("an identified gateway session", |st| {
            st.sessions.iter().any(|s| s.tx.is_some()).then_some(())
        })
        .await
    }

    /// Asks every connected session to reconnect (op 7); serenity then RESUMEs (on `ws_url`:
    /// refused unless that is READY's `resume_gateway_url`).
    pub fn ask_reconnect(&self) {
        let mut st = self.inner.lock();
        gateway::send_all(&mut st, &serde_json::json!({"op": 7, "d": null}));
    }

    /// Ends every connected session with op 9 (`d: false`), as Discord may at any time: the
    /// client must IDENTIFY again (a RESUME of it is refused).
    pub fn invalidate_sessions(&self) {
        let mut st = self.inner.lock();
        for s in st.sessions.iter_mut().filter(|s| s.tx.is_some()) {
            s.resumable = false;
        }
        gateway::send_all(&mut st, &serde_json::json!({"op": 9, "d": false}));
    }

    /// Total RESUMEs accepted, over all sessions.
    pub fn resumes(&self) -> u32 {
        self.inner.lock().sessions.iter().map(|s| s.resumes).sum()
    }

    /// RESUMEs accepted on READY's `resume_gateway_url` (the only URL that accepts one).
    pub fn resumes_on_resume_url(&self) -> u32 {
        let st = self.inner.lock();
        st.sessions.iter().map(|s| s.resumes_on_resume_url).sum()
    }

    /// RESUMEs refused (op 9) because they came on the connect URL, over all sessions.
    pub fn resumes_refused(&self) -> u32 {
        let st = self.inner.lock();
        st.sessions.iter().map(|s| s.resumes_refused).sum()
    }

    /// Dispatches replayed by RESUMEs, over all sessions.
    pub fn replayed(&self) -> u32 {
        self.inner.lock().sessions.iter().map(|s| s.replayed).sum()
    }

    /// `[shard_id, num_shards]` of every session that is connected now, sorted.
    pub fn connected_shards(&self) -> Vec<[u64; 2]> {
        let st = self.inner.lock();
        let mut shards: Vec<[u64; 2]> = st
            .sessions
            .iter()
            .filter(|s| s.tx.is_some())
            .map(|s| s.shard)
            .collect();
        shards.sort_unstable();
        shards
    }

    /// Pushes an INTERACTION_CREATE to the connected bot; waits for a session first. Panics
    /// when Discord's client would not send it (see `try_push`).
    pub async fn push(&self, push: Push) -> Pushed {
        self.try_push(push)
            .await
            .unwrap_or_else(|e| panic!("fake Discord: the interaction cannot be sent: {e}"))
    }

    /// Pushes an interaction as a member's client sends it: from an archived thread the client
    /// first unarchives it as the member (`Behaviour::ClientUnarchivesForInteractions`), which
    /// a locked thread allows only with Manage Threads (otherwise `Err`: nothing is sent).
    pub async fn try_push(&self, push: Push) -> Result<Pushed, String> {
        client_sends(&mut self.inner.lock(), &push)?;
        Ok(self.push_at(push, false).await)
    }

    /// Pushes an interaction at once, without waiting for a connected session: a session
    /// that is away (`drop_gateway`) gets it when it resumes, as Discord replays what a session
    /// missed. Its 3 s run from now.
    pub fn push_now(&self, push: Push) -> Pushed {
        let mut st = self.inner.lock();
        client_sends(&mut st, &push)
            .unwrap_or_else(|e| panic!("fake Discord: the interaction cannot be sent: {e}"));
        let pushed = self.dispatch_interaction(&mut st, &push, false);
        drop(st);
        self.inner.changed.notify_waiters();
        pushed
    }

    /// Pushes an interaction whose deadline has already passed (a delivery delayed on the way):
    /// its callback gets 404 / 10062, as on Discord, without a violation.
    pub async fn push_late(&self, push: Push) -> Pushed {
        self.push_at(push, true).await
    }

    async fn push_at(&self, push: Push, late: bool) -> Pushed {
        self.wait_for_session().await;
        let mut st = self.inner.lock();
        self.dispatch_interaction(&mut st, &push, late)
    }

    /// Records an interaction and dispatches it; its deadline counts from now (the gateway
    /// delivery), its token's 15 minutes from the fake's clock now.
    fn dispatch_interaction(&self, st: &mut State, push: &Push, late: bool) -> Pushed {
        let id = st.next_id();
        // Reserved: `id + 1` names the command when the bot did not register it.
        st.next_id();
        let token = format!("fake-interaction-token-{id}");
        let d = interactions::payload(st, push, id, &token, &self.inner.api_base)
            .unwrap_or_else(|e| panic!("fake Discord: cannot push {push:?}: {e}"));
        let pushed = if late {
            let past = st.ack_deadline + Duration::from_secs(1);
            Instant::now()
                .checked_sub(past)
                .unwrap_or_else(Instant::now)
        } else {
            Instant::now()
        };
        let created = st.now();
        st.interactions.insert(
            id,
            InteractionRec {
                id,
                token: token.clone(),
                kind: push.kind(),
                channel_id: push.actor().channel,
                user_id: push.actor().user,
                message_id: push.message_id(),
                pushed,
                callback: None,
                original: None,
                followups: Vec::new(),
                payload: d.clone(),
                created,
                late,
                delivered_to: Vec::new(),
            },
        );
        let reached = gateway::dispatch_routed(st, "INTERACTION_CREATE", &d);
        if let Some(i) = st.interactions.get_mut(&id) {
            i.delivered_to = reached;
        }
        Pushed { id, token }
    }

    /// Delivers an interaction already pushed once more (same id and token), as a gateway
    /// replaying events or a second process would.
    pub fn redeliver(&self, pushed: &Pushed) {
        let mut st = self.inner.lock();
        let d = st
            .interactions
            .get(&pushed.id)
            .map(|i| i.payload.clone())
            .unwrap_or_else(|| panic!("fake Discord: no interaction {}", pushed.id));
        let reached = gateway::dispatch_routed(&mut st, "INTERACTION_CREATE", &d);
        if let Some(i) = st.interactions.get_mut(&pushed.id) {
            i.delivered_to.extend(reached);
        }
    }

    /// Records an interaction as if pushed, without a gateway (to answer it over REST directly).
    pub fn register_interaction(&self, push: Push) -> Pushed {
        self.try_register_interaction(push)
            .unwrap_or_else(|e| panic!("fake Discord: the interaction cannot be sent: {e}"))
    }

    /// `register_interaction` as a member's client sends it (see `try_push`).
    pub fn try_register_interaction(&self, push: Push) -> Result<Pushed, String> {
        let mut st = self.inner.lock();
        client_sends(&mut st, &push)?;
        let id = st.next_id();
        // Reserved: `id + 1` names the command when the bot did not register it.
        st.next_id();
        let token = format!("fake-interaction-token-{id}");
        let d = interactions::payload(&st, &push, id, &token, &self.inner.api_base)
            .unwrap_or_else(|e| panic!("fake Discord: cannot build {push:?}: {e}"));
        if let Err(e) =
            payloads::check_model::<serenity::model::application::Interaction>("interaction", &d)
        {
            st.violation("fake: interaction", "", e);
        }
        let created = st.now();
        st.interactions.insert(
            id,
            InteractionRec {
                id,
                token: token.clone(),
                kind: push.kind(),
                channel_id: push.actor().channel,
                user_id: push.actor().user,
                message_id: push.message_id(),
                pushed: Instant::now(),
                callback: None,
                original: None,
                followups: Vec::new(),
                created,
                payload: d,
                late: false,
                delivered_to: Vec::new(),
            },
        );
        Ok(Pushed { id, token })
    }

    /// Waits for the bot's callback to an interaction.
    pub async fn wait_for_callback(&self, id: u64) -> Callback {
        self.wait_until("the interaction callback", |st| {
            st.interactions.get(&id).and_then(|i| i.callback.clone())
        })
        .await
    }

    /// Waits until `check` finds what it looks for in the state (requests, messages...).
    pub async fn wait_until<T>(&self, what: &str, mut check: impl FnMut(&State) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT_LIMIT;
        loop {
            let notified = self.inner.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(t) = check(&self.inner.lock()) {
                return t;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let v = self.violations();
                // The last requests say what the bot was doing when it stopped.
                let st = self.inner.lock();
                let last: Vec<String> = st
                    .requests
                    .iter()
                    .rev()
                    .take(12)
                    .rev()
                    .map(|r| format!("  {} {} -> {}", r.method, r.uri, r.status))
                    .collect();
                let pending: Vec<u64> = st
                    .interactions
                    .iter()
                    .filter(|(_, i)| i.callback.is_none())
                    .map(|(id, _)| *id)
                    .collect();
                drop(st);
                panic!(
                    "fake Discord: gave up waiting for {what}; violations so far: {v:#?}\n\
                     interactions not acknowledged: {pending:?}\nlast requests:\n{}",
                    last.join("\n")
                );
            }
        }
    }

    /// Waits until a request matching the OpenAPI template (`"POST /channels/{channel_id}/messages"`)
    /// has been answered; returns it.
    pub async fn wait_for_request(&self, method_and_route: &str) -> RequestLog {
        let (method, route) = method_and_route
            .split_once(' ')
            .unwrap_or(("", method_and_route));
        self.wait_until(method_and_route, |st| {
            st.requests
                .iter()
                .find(|r| r.method == method && r.route.as_deref() == Some(route))
                .cloned()
        })
        .await
    }
}

/// A REST request on a network with the fake's delay each way (`set_network_delay`).
async fn delayed(
    inner: Arc<Inner>,
    req: hyper::Request<hyper::body::Incoming>,
    tls: bool,
) -> Result<hyper::Response<http_body_util::Full<hyper::body::Bytes>>, std::convert::Infallible> {
    let delay = inner.lock().network_delay;
    tokio::time::sleep(delay).await;
    let reply = rest::handle(Arc::clone(&inner), req, tls).await;
    tokio::time::sleep(delay).await;
    reply
}

/// What a member's client does before it sends an interaction from `push`'s channel: a deleted
/// channel sends nothing; an archived thread is unarchived first, as the member
/// (`Behaviour::ClientUnarchivesForInteractions`), which a locked thread allows only to a
/// member with Manage Threads.
fn client_sends(st: &mut State, push: &Push) -> Result<(), String> {
    let channel = push.actor().channel;
    let user = push.actor().user;
    if st.deleted_channels.contains(&channel) {
        return Err(format!("channel {channel} was deleted"));
    }
    if !st.can_view(user, channel) {
        return Err(format!("member {user} cannot see channel {channel}"));
    }
    let Some(c) = st.channels.get(&channel).filter(|c| c.archived).cloned() else {
        return Ok(());
    };
    if !st.does(Behaviour::ClientUnarchivesForInteractions) {
        return Ok(());
    }
    let may = st.channel_permissions(user, channel) & perms::MANAGE_THREADS != 0;
    if c.locked && !may {
        return Err(format!("thread {channel} is archived and locked"));
    }
    if st.thread_cap_reached() {
        return Err("the guild is at its cap of active threads".into());
    }
    let now = st.now();
    if let Some(c) = st.channels.get_mut(&channel) {
        c.archived = false;
        c.last_activity = now;
    }
    gateway::thread_update(st, channel);
    Ok(())
}
