//! What the fake knows and what it saw.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

pub const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
pub const BOT_USER_ID: u64 = APPLICATION_ID;
pub const OWNER_ID: u64 = 1_100_000_000_000_000_002;
pub const GUILD_ID: u64 = 1_100_000_000_000_000_010;
/// The role Discord made for the bot when it was invited.
pub const BOT_ROLE_ID: u64 = 1_100_000_000_000_000_011;
/// The invite's permissions (README): view, send, attach, history, public threads, send in
/// threads.
pub const BOT_INVITE_PERMISSIONS: u64 = 309_237_746_688;
/// The guild's games channel.
pub const CHANNEL_ID: u64 = 1_100_000_000_000_000_020;
/// How long an interaction token is valid (Discord: "Interaction tokens are valid for 15
/// minutes"), on the fake's clock.
pub const INTERACTION_TOKEN_SECS: i64 = 15 * 60;
/// Discord's limit of guilds per shard ("each shard can only support a maximum of 2500
/// guilds"); `FakeDiscord::set_shard_guild_limit` lowers it for a test.
pub const SHARD_GUILD_LIMIT: usize = 2500;
/// Dispatches a session keeps for a RESUME (Discord's buffer is finite too).
pub const RESUME_BACKLOG: usize = 1000;
/// Two players besides the owner.
pub const ALICE: u64 = 1_100_000_000_000_000_101;
pub const BOB: u64 = 1_100_000_000_000_000_102;

#[derive(Clone, Debug)]
pub struct UserRec {
    pub id: u64,
    pub name: String,
    pub bot: bool,
    pub dms_closed: bool,
    /// The user left the bot's only guild: no mutual guild, so DMs answer 50278.
    pub left_guild: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    Text,
    Dm,
    PublicThread,
    PrivateThread,
}

impl ChannelKind {
    pub fn code(self) -> u8 {
        match self {
            ChannelKind::Text => 0,
            ChannelKind::Dm => 1,
            ChannelKind::PublicThread => 11,
            ChannelKind::PrivateThread => 12,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ChannelRec {
    pub id: u64,
    pub kind: ChannelKind,
    pub name: String,
    pub guild_id: Option<u64>,
    pub parent_id: Option<u64>,
    /// DM channels: the other user.
    pub recipient: Option<u64>,
    /// Threads: the message they were started from.
    pub from_message: Option<u64>,
    pub auto_archive_duration: u64,
    pub invitable: bool,
    /// Text channels: permission overwrites (threads use their parent's).
    pub overwrites: Vec<super::perms::Overwrite>,
    /// Threads: archived (by a PATCH, or by the fake's clock after `auto_archive_duration`
    /// minutes without activity) and locked.
    pub archived: bool,
    pub locked: bool,
    /// Threads: the fake's clock (Unix seconds) at the last activity, which is, as Discord's
    /// "Threads" page defines it, a message sent, the thread unarchived or its auto-archive
    /// time changed (and its creation).
    pub last_activity: i64,
}

impl ChannelRec {
    /// A guild's text channel with these overwrites.
    pub fn text(id: u64, name: &str, guild: u64, overwrites: Vec<super::perms::Overwrite>) -> Self {
        ChannelRec {
            id,
            kind: ChannelKind::Text,
            name: name.into(),
            guild_id: Some(guild),
            parent_id: None,
            recipient: None,
            from_message: None,
            auto_archive_duration: 0,
            invitable: false,
            overwrites,
            archived: false,
            locked: false,
            last_activity: 0,
        }
    }
}

/// Discord behaviours the fake models, each on by default; a test may switch one off
/// (`FakeDiscord::set_behaviour`) to see what the bot does without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Behaviour {
    /// A thread archives after `auto_archive_duration` minutes without activity, on the
    /// fake's clock (`FakeDiscord::advance`, `follow_clock`), with THREAD_UPDATE dispatched.
    AutoArchive,
    /// Editing a message in an archived thread answers 400 / 50083 ("Users cannot edit
    /// messages ... in archived threads").
    ArchivedThreadsRefuseEdits,
    /// A member's client unarchives an archived thread (as that member) before it sends an
    /// interaction from it, since "users cannot ... use application commands" there (Discord's
    /// web and mobile clients do: discord/discord-api-docs#8474); in a locked thread only a
    /// member with Manage Threads can, otherwise nothing is sent. Off: the interaction arrives
    /// while the thread stays archived, as some clients have done (MarcusOtter/discord-needle#325).
    ClientUnarchivesForInteractions,
    /// A guild holds at most `FakeDiscord::set_active_thread_cap` active threads; creating or
    /// unarchiving one past it answers 400 / 160006.
    ActiveThreadCap,
}

impl Behaviour {
    pub const ALL: [Behaviour; 4] = [
        Behaviour::AutoArchive,
        Behaviour::ArchivedThreadsRefuseEdits,
        Behaviour::ClientUnarchivesForInteractions,
        Behaviour::ActiveThreadCap,
    ];
}

/// How long Discord keeps a nonce: "the past few minutes" (`resources/message.mdx`).
pub const NONCE_SECS: i64 = 5 * 60;

/// The fake's clock: Unix seconds, moved by tests (`advance`) or read from the test's own
/// clock (`follow`), so a thread can go idle for days in a test that lasts seconds.
#[derive(Clone)]
pub struct FakeClock {
    /// Added to the source.
    pub offset: i64,
    /// The test's clock (e.g. the service's `ManualClock`); the wall clock when `None`.
    pub source: Option<Arc<dyn Fn() -> i64 + Send + Sync>>,
}

impl FakeClock {
    pub fn now(&self) -> i64 {
        let base = match &self.source {
            Some(f) => f(),
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64),
        };
        base + self.offset
    }
}

impl std::fmt::Debug for FakeClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FakeClock({})", self.now())
    }
}

/// A file the bot uploaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub id: u64,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
    /// Width and height when it is a valid PNG.
    pub dimensions: Option<(u32, u32)>,
    /// Its alt text: `payload_json`'s `attachments[].description` for its `files[N]` (Discord
    /// keeps at most 1024 characters; the schema check refuses more).
    pub description: Option<String>,
}

/// A message as stored (channel messages, DMs, interaction responses and follow-ups).
#[derive(Clone, Debug)]
pub struct Message {
    pub id: u64,
    pub channel_id: u64,
    pub author_id: u64,
    pub content: String,
    pub embeds: Vec<Value>,
    pub components: Vec<Value>,
    pub attachments: Vec<Attachment>,
    pub flags: u64,
    /// Set for an interaction's original response and its follow-ups.
    pub interaction_id: Option<u64>,
    pub webhook_id: Option<u64>,
    pub edits: u32,
    pub deleted: bool,
    /// Who the message pinged when it was created, as Discord parses `allowed_mentions`
    /// (edits ping nobody): users, roles, and `@everyone`/`@here`.
    pub pinged_users: Vec<u64>,
    pub pinged_roles: Vec<u64>,
    pub pinged_everyone: bool,
}

impl Message {
    pub fn ephemeral(&self) -> bool {
        self.flags & 64 != 0
    }

    /// Sent with SUPPRESS_NOTIFICATIONS (Discord's `@silent`): the users it pings get the
    /// mention badge but no push or desktop notification.
    pub fn silent(&self) -> bool {
        self.flags & super::checks::SUPPRESS_NOTIFICATIONS != 0
    }

    /// The users this message notified (a push or desktop notification): those it pinged,
    /// unless it was sent silent.
    pub fn notified_users(&self) -> Vec<u64> {
        if self.silent() {
            Vec::new()
        } else {
            self.pinged_users.clone()
        }
    }
}

#[derive(Clone, Debug)]
pub struct CommandRec {
    pub id: u64,
    /// `None` for global commands.
    pub guild_id: Option<u64>,
    pub body: Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractionKind {
    Command,
    Component,
    Autocomplete,
    ModalSubmit,
}

impl InteractionKind {
    pub fn code(self) -> u8 {
        match self {
            InteractionKind::Command => 2,
            InteractionKind::Component => 3,
            InteractionKind::Autocomplete => 4,
            InteractionKind::ModalSubmit => 5,
        }
    }

    /// Callback types Discord accepts for this kind of interaction.
    pub fn accepts(self, callback: u64) -> bool {
        match self {
            InteractionKind::Command => matches!(callback, 4 | 5 | 9),
            InteractionKind::Component => matches!(callback, 4..=7 | 9),
            InteractionKind::Autocomplete => callback == 8,
            InteractionKind::ModalSubmit => matches!(callback, 4..=7),
        }
    }
}

/// The bot's answer to an interaction (`POST /interactions/{id}/{token}/callback`).
#[derive(Clone, Debug)]
pub struct Callback {
    /// 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal.
    pub kind: u64,
    pub data: Value,
    pub files: Vec<Attachment>,
    /// How long after the push it arrived.
    pub after: Duration,
}

impl Callback {
    pub fn content(&self) -> Option<&str> {
        self.data.get("content").and_then(Value::as_str)
    }
    pub fn flags(&self) -> u64 {
        self.data.get("flags").and_then(Value::as_u64).unwrap_or(0)
    }
    pub fn ephemeral(&self) -> bool {
        self.flags() & 64 != 0
    }
    pub fn components(&self) -> &[Value] {
        self.data
            .get("components")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

#[derive(Clone, Debug)]
pub struct InteractionRec {
    pub id: u64,
    pub token: String,
    pub kind: InteractionKind,
    pub channel_id: u64,
    pub user_id: u64,
    /// Component interactions: the message the component is on.
    pub message_id: Option<u64>,
    pub pushed: Instant,
    /// Every accepted callback (at most one unless a violation was recorded).
    pub callback: Option<Callback>,
    /// The message `@original` refers to, once there is one.
    pub original: Option<u64>,
    pub followups: Vec<u64>,
    /// The INTERACTION_CREATE `d` the fake built.
    pub payload: Value,
    /// The fake's clock (Unix seconds) when it was created: its token expires
    /// `INTERACTION_TOKEN_SECS` later.
    pub created: i64,
    /// Delivered after its deadline on purpose (`push_late`): a callback gets 404 / 10062
    /// without a violation, as on Discord.
    pub late: bool,
    /// The `[shard_id, num_shards]` of every gateway session it was dispatched to.
    pub delivered_to: Vec<[u64; 2]>,
}

/// An injected REST failure (`FakeDiscord::fail_next`): the next `times` requests on `route`
/// get this answer instead of being served.
#[derive(Clone, Debug)]
pub struct Fault {
    /// `METHOD /openapi/template`, e.g. `POST /channels/{channel_id}/messages`.
    pub route: String,
    pub times: u32,
    pub status: u16,
    pub code: u64,
    /// 429 only: seconds, in the body and the `retry-after` header.
    pub retry_after: Option<f64>,
    /// 429 only: the `X-RateLimit-Scope` header (`user`, or `shared`: not counted toward the
    /// invalid-request ban).
    pub scope: &'static str,
    /// The request is carried out, and the answer is still this failure (an error that
    /// happened anyway: a proxy timing out after Discord did the work).
    pub carried_out: bool,
}

/// One request the fake received.
#[derive(Clone, Debug)]
pub struct RequestLog {
    pub method: String,
    /// Path and query as received.
    pub uri: String,
    /// The Host header.
    pub host: String,
    /// The OpenAPI path template, when it matched.
    pub route: Option<String>,
    pub status: u16,
    /// JSON body (or multipart `payload_json`).
    pub body: Option<Value>,
    /// When it arrived.
    pub at: std::time::Instant,
}

/// A rule broken by the bot (or by the fake's own payloads, prefixed `fake:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// `METHOD /api/v10/...` or `gateway`.
    pub route: String,
    /// JSON pointer into the body ("" for the whole request).
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.route, self.message)
        } else {
            write!(f, "{} at {}: {}", self.route, self.pointer, self.message)
        }
    }
}

/// An identified gateway session, connected (`tx`) or not.
pub struct Session {
    pub session_id: String,
    pub seq: u64,
    pub tx: Option<UnboundedSender<super::gateway::Frame>>,
    pub identify: Value,
    /// How many times the session was resumed.
    pub resumes: u32,
    /// Of those, how many on READY's `resume_gateway_url`: all of them, since a RESUME on the
    /// connect URL is refused (kept apart so a test says which URL it expects).
    pub resumes_on_resume_url: u32,
    /// RESUMEs refused because they came on the connect URL (op 9; the session ended there).
    pub resumes_refused: u32,
    /// Dispatches replayed by RESUMEs (sent while the session was away, or lost on the way).
    pub replayed: u32,
    /// `[shard_id, num_shards]` from IDENTIFY (`[0, 1]` when the bot did not shard).
    pub shard: [u64; 2],
    /// The session may be resumed: false once the client closed it with 1000 or 1001 ("your
    /// session will be invalidated"), once a RESUME asked for events no longer kept, or once
    /// one came on the connect URL.
    pub resumable: bool,
    /// The last dispatches sent (or due while disconnected), for a RESUME to replay:
    /// `(seq, the interaction id for INTERACTION_CREATE, the payload as sent)`.
    pub backlog: VecDeque<(u64, Option<u64>, String)>,
    /// The last Update Presence (op 3) the session sent, and how many it sent.
    pub presence: Option<Value>,
    pub presence_updates: u32,
}

impl Session {
    /// Whether Discord would send this session a guild's events: the guild's shard is
    /// `(guild_id >> 22) % num_shards`; events outside a guild (DMs) go to shard 0.
    pub fn owns(&self, guild: Option<u64>) -> bool {
        let [id, total] = self.shard;
        match guild {
            Some(g) => (g >> 22) % total.max(1) == id,
            None => id == 0,
        }
    }
}

pub struct State {
    pub application_id: u64,
    pub application_name: String,
    pub bot_user_id: u64,
    pub owner_id: u64,
    pub guild_id: u64,
    /// The guild's `preferred_locale`, sent as `guild_locale` in interactions. Only a
    /// Community guild chooses one; every other guild's is Discord's default, en-US.
    pub guild_locale: String,
    /// Whether the guild is a Community guild (the `COMMUNITY` feature).
    pub community: bool,
    /// Members whose permissions a test fixed for every channel (`set_member_permissions`);
    /// everyone else's are computed from roles and overwrites (`perms.rs`).
    pub member_permissions: BTreeMap<u64, String>,
    /// Role id → permissions; the guild's id is `@everyone`.
    pub roles: BTreeMap<u64, u64>,
    /// The roles of each member (besides `@everyone`).
    pub member_roles: BTreeMap<u64, Vec<u64>>,
    pub users: BTreeMap<u64, UserRec>,
    pub channels: BTreeMap<u64, ChannelRec>,
    pub messages: Vec<Message>,
    pub commands: Vec<CommandRec>,
    pub interactions: BTreeMap<u64, InteractionRec>,
    pub requests: Vec<RequestLog>,
    pub violations: Vec<Violation>,
    pub sessions: Vec<Session>,
    pub next_id: u64,
    pub ack_deadline: Duration,
    pub token: String,
    pub faults: Vec<Fault>,
    /// `FakeDiscord::lean`: no request log and no file bytes kept (long load runs).
    pub lean: bool,
    /// Discord's rate limits (on by default).
    pub rate: super::ratelimits::RateLimits,
    /// `enforce_nonce` messages: (author, nonce) → the message it created and when (the
    /// fake's clock), kept `NONCE_SECS`.
    pub nonces: BTreeMap<(u64, String), (u64, i64)>,
    /// Interactions whose acknowledgement was carried out but answered with an error
    /// (`fail_after`): the client may rightly try again, and gets 40060.
    pub lost_acks: std::collections::BTreeSet<u64>,
    pub clock: FakeClock,
    /// Behaviours switched off by the test (everything else is on).
    pub switched_off: BTreeSet<Behaviour>,
    /// Channels and threads that were deleted: requests naming them answer 404 / 10003
    /// (Unknown Channel) without a violation, since the bot could not have known.
    pub deleted_channels: BTreeSet<u64>,
    /// The bot was removed from the guild (GUILD_DELETE sent): its channels answer
    /// 403 / 50001 (Missing Access).
    pub removed_from_guild: bool,
    /// Active threads a guild may hold (Discord's cap is large; tests make it small).
    pub active_thread_cap: usize,
    /// Every dispatch sent besides READY/GUILD_CREATE/INTERACTION_CREATE: (event, d).
    pub dispatches: Vec<(String, Value)>,
    /// Members added to each thread by the bot ("Add Thread Member").
    pub thread_members: BTreeMap<u64, BTreeSet<u64>>,
    /// Guilds besides `guild_id` (`FakeDiscord::add_guilds`), each with one text channel,
    /// the same members and the same `@everyone` permissions: guild → its channel.
    pub extra_guilds: BTreeMap<u64, u64>,
    /// When the bot joined a guild (Unix seconds), for guilds joined during the test; others
    /// were joined long ago.
    pub joined_at: BTreeMap<u64, i64>,
    /// A guild's system channel, where one is set.
    pub system_channels: BTreeMap<u64, u64>,
    /// Guilds a shard may hold; an IDENTIFY for a shard holding more is closed with 4011.
    pub shard_guild_limit: usize,
    /// IDENTIFYs refused with close code 4011 (Sharding required): their `[shard, total]`.
    pub sharding_required: Vec<[u64; 2]>,
    /// Added each way to every REST request and gateway frame (`set_network_delay`).
    pub network_delay: Duration,
    /// Gateway connections accepted while the gateway was held (`hold_gateway`).
    pub held_connections: usize,
}

impl State {
    pub fn new(token: &str) -> State {
        let mut users = BTreeMap::new();
        for (id, name, bot) in [
            (BOT_USER_ID, "Croupier", true),
            (OWNER_ID, "owner", false),
            (ALICE, "alice", false),
            (BOB, "bob", false),
        ] {
            users.insert(
                id,
                UserRec {
                    id,
                    name: name.into(),
                    bot,
                    dms_closed: false,
                    left_guild: false,
                },
            );
        }
        let mut channels = BTreeMap::new();
        channels.insert(
            CHANNEL_ID,
            ChannelRec::text(CHANNEL_ID, "games", GUILD_ID, Vec::new()),
        );
        // `@everyone` may do what a games channel needs; tests narrow it. The bot also has the
        // role its invite link created, with the permissions the README asks for.
        let roles = BTreeMap::from([
            (GUILD_ID, super::payloads::ALL_TEXT_PERMISSIONS_BITS),
            (BOT_ROLE_ID, BOT_INVITE_PERMISSIONS),
        ]);
        State {
            application_id: APPLICATION_ID,
            application_name: "Croupier".into(),
            bot_user_id: BOT_USER_ID,
            owner_id: OWNER_ID,
            guild_id: GUILD_ID,
            guild_locale: "en-US".into(),
            community: false,
            member_permissions: BTreeMap::new(),
            roles,
            member_roles: BTreeMap::from([(BOT_USER_ID, vec![BOT_ROLE_ID])]),
            users,
            channels,
            messages: Vec::new(),
            commands: Vec::new(),
            interactions: BTreeMap::new(),
            requests: Vec::new(),
            violations: Vec::new(),
            sessions: Vec::new(),
            next_id: first_id(),
            ack_deadline: Duration::from_secs(3),
            token: token.into(),
            faults: Vec::new(),
            lean: false,
            rate: Default::default(),
            nonces: BTreeMap::new(),
            lost_acks: Default::default(),
            clock: FakeClock {
                offset: 0,
                source: None,
            },
            switched_off: BTreeSet::new(),
            deleted_channels: BTreeSet::new(),
            removed_from_guild: false,
            active_thread_cap: 1000,
            dispatches: Vec::new(),
            thread_members: BTreeMap::new(),
            extra_guilds: BTreeMap::new(),
            joined_at: BTreeMap::new(),
            system_channels: BTreeMap::new(),
            shard_guild_limit: SHARD_GUILD_LIMIT,
            sharding_required: Vec::new(),
            network_delay: Duration::ZERO,
            held_connections: 0,
        }
    }

    /// Every guild the bot is in: the main one first, then `extra_guilds`.
    pub fn guild_ids(&self) -> Vec<u64> {
        std::iter::once(self.guild_id)
            .chain(self.extra_guilds.keys().copied())
            .collect()
    }

    /// The guilds Discord routes to shard `[id, total]`: `(guild_id >> 22) % total == id`.
    pub fn guilds_of_shard(&self, shard: [u64; 2]) -> Vec<u64> {
        self.guild_ids()
            .into_iter()
            .filter(|g| (g >> 22) % shard[1].max(1) == shard[0])
            .collect()
    }

    /// What `GET /gateway/bot` recommends: enough shards for every guild under the limit.
    pub fn recommended_shards(&self) -> u64 {
        let guilds = self.guild_ids().len() as u64;
        guilds.div_ceil(self.shard_guild_limit.max(1) as u64).max(1)
    }

    /// Whether a behaviour is modelled (on unless the test switched it off).
    pub fn does(&self, b: Behaviour) -> bool {
        !self.switched_off.contains(&b)
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Active (unarchived) threads of the guild.
    pub fn active_threads(&self) -> usize {
        self.channels
            .values()
            .filter(|c| {
                matches!(
                    c.kind,
                    ChannelKind::PublicThread | ChannelKind::PrivateThread
                ) && !c.archived
            })
            .count()
    }

    /// Whether the guild's cap leaves room for one more active thread (always, with the
    /// behaviour off).
    pub fn thread_cap_reached(&self) -> bool {
        self.does(Behaviour::ActiveThreadCap) && self.active_threads() >= self.active_thread_cap
    }

    /// Archives every thread idle for its `auto_archive_duration`; returns them (the caller
    /// dispatches THREAD_UPDATE).
    pub fn archive_idle_threads(&mut self) -> Vec<u64> {
        if !self.does(Behaviour::AutoArchive) {
            return Vec::new();
        }
        let now = self.now();
        let mut archived = Vec::new();
        for c in self.channels.values_mut() {
            let thread = matches!(
                c.kind,
                ChannelKind::PublicThread | ChannelKind::PrivateThread
            );
            let idle_for = now.saturating_sub(c.last_activity);
            let limit = i64::try_from(c.auto_archive_duration).unwrap_or(i64::MAX / 60) * 60;
            if thread && !c.archived && c.auto_archive_duration > 0 && idle_for >= limit {
                c.archived = true;
                archived.push(c.id);
            }
        }
        archived
    }

    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn violation(&mut self, route: &str, pointer: &str, message: impl Into<String>) {
        self.violations.push(Violation {
            route: route.into(),
            pointer: pointer.into(),
            message: message.into(),
        });
    }

    pub fn message(&self, id: u64) -> Option<&Message> {
        self.message_index(id).map(|i| &self.messages[i])
    }

    pub fn message_mut(&mut self, id: u64) -> Option<&mut Message> {
        self.message_index(id).map(|i| &mut self.messages[i])
    }

    /// Messages are appended with growing ids: a binary search first (the load bench keeps
    /// many), a scan if the order ever breaks.
    fn message_index(&self, id: u64) -> Option<usize> {
        let i = self
            .messages
            .binary_search_by_key(&id, |m| m.id)
            .ok()
            .or_else(|| self.messages.iter().position(|m| m.id == id))?;
        (!self.messages[i].deleted).then_some(i)
    }
}

/// Where a fake's ids start: different for every fake of a process and across runs, as real
/// snowflakes are, so fakes sharing one database (PostgreSQL) never reuse an interaction id.
fn first_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static FAKES: AtomicU64 = AtomicU64::new(0);
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let slot = (millis + FAKES.fetch_add(1, Ordering::Relaxed)) % 1_000_000_000_000;
    // 100 000 ids per fake, below 2^63.
    1_200_000_000_000_000_000 + slot * 100_000
}
