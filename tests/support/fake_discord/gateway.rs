//! The gateway websocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME (with
//! the missed dispatches replayed), close code 4011 for a shard holding too many guilds, and
//! the dispatches tests push. Plain JSON text frames (serenity also reads them when it asked
//! for compression). Two listeners serve it: the connect URL (`GET /gateway`) and READY's
//! `resume_gateway_url`. A RESUME is accepted only on the resume URL; on the connect URL it
//! is answered op 9 (`d: false`) and the session ends, as Discord may: "your app should open a
//! new connection using `resume_gateway_url` rather than the URL used to initially connect. If
//! your app doesn't use the `resume_gateway_url` when reconnecting, it will experience
//! disconnects at a higher rate than normal" (`developers/events/gateway.mdx`, "Preparing to
//! Resume"). An IDENTIFY is accepted on both.

use super::payloads;
use super::state::{Session, State, RESUME_BACKLOG};
use super::Inner;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message as WsMessage;

pub const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// Discord's close code for an IDENTIFY whose shard would hold too many guilds.
pub const SHARDING_REQUIRED: u16 = 4011;

/// A frame on its way to the client: sent when `due` comes (the fake's network delay).
pub struct Frame {
    due: tokio::time::Instant,
    msg: WsMessage,
}

/// `resume_url`: this listener is READY's `resume_gateway_url` (counted apart).
pub async fn serve(listener: TcpListener, inner: Arc<Inner>, resume_url: bool) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(connection(Arc::clone(&inner), stream, resume_url));
    }
}

async fn connection(inner: Arc<Inner>, stream: TcpStream, resume_url: bool) {
    let ws = match tokio_tungstenite::accept_async(stream).await {
        Ok(ws) => ws,
        Err(e) => {
            inner
                .lock()
                .violation("gateway", "", format!("websocket handshake failed: {e}"));
            return;
        }
    };
    // A held gateway (`hold_gateway`) says nothing until released: what the client sends
    // meanwhile waits in the socket.
    let mut held = inner.held.subscribe();
    if *held.borrow() {
        inner.lock().held_connections += 1;
        inner.changed.notify_waiters();
    }
    while *held.borrow_and_update() {
        if held.changed().await.is_err() {
            return;
        }
    }
    let (mut sink, mut incoming) = ws.split();
    let (tx, mut rx) = unbounded_channel::<Frame>();
    let writer = tokio::spawn(async move {
        while let Some(frame) = rx.recv().await {
            tokio::time::sleep_until(frame.due).await;
            let closing = matches!(frame.msg, WsMessage::Close(_));
            if sink.send(frame.msg).await.is_err() || closing {
                break;
            }
        }
        let _ = sink.close().await;
    });
    {
        let mut st = inner.lock();
        send(
            &mut st,
            &tx,
            json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}),
        );
    }
    let mut session: Option<String> = None;
    let mut cut = inner.cut.subscribe();
    // "Apps can send 120 gateway events per connection every 60 seconds ... Apps that surpass
    // the limit are immediately disconnected" (events/gateway.mdx, rate limiting).
    let mut sent: VecDeque<tokio::time::Instant> = VecDeque::new();
    loop {
        let frame = tokio::select! {
            frame = incoming.next() => frame,
            _ = cut.recv() => {
                // No close frame: the socket just goes away, as in a network cut.
                writer.abort();
                break;
            }
        };
        let Some(Ok(frame)) = frame else { break };
        // The frame's way from the client.
        let delay = inner.lock().network_delay;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let text = match frame {
            WsMessage::Text(t) => t,
            WsMessage::Binary(_) => {
                inner
                    .lock()
                    .violation("gateway", "", "binary frame from the client");
                continue;
            }
            WsMessage::Close(close) => {
                // "When you close the connection to the gateway with close code 1000 or 1001,
                // your session will be invalidated."
                let code = close.map(|c| u16::from(c.code));
                if let (Some(1000 | 1001), Some(id)) = (code, &session) {
                    let mut st = inner.lock();
                    if let Some(s) = st.sessions.iter_mut().find(|s| &s.session_id == id) {
                        s.resumable = false;
                    }
                }
                break;
            }
            _ => continue,
        };
        let Ok(payload) = serde_json::from_str::<Value>(&text) else {
            inner.lock().violation("gateway", "", "frame is not JSON");
            continue;
        };
        let now = tokio::time::Instant::now();
        while sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= GATEWAY_SEND_WINDOW)
        {
            sent.pop_front();
        }
        sent.push_back(now);
        if sent.len() > GATEWAY_SEND_LIMIT {
            let mut st = inner.lock();
            st.violation(
                "gateway",
                "",
                format!("more than {GATEWAY_SEND_LIMIT} gateway events in 60 s on one connection"),
            );
            close(&mut st, &tx, 4008, "Rate limited.");
            continue;
        }
        {
            let mut st = inner.lock();
            inner.on_payload(&mut st, &tx, &payload, &mut session, resume_url);
        }
        inner.changed.notify_waiters();
    }
    if let Some(id) = session {
        let mut st = inner.lock();
        // Only if no newer connection resumed the session meanwhile.
        if let Some(s) = st.sessions.iter_mut().find(|s| s.session_id == id) {
            if s.tx.as_ref().is_some_and(|t| t.same_channel(&tx)) {
                s.tx = None;
            }
        }
    }
    drop(tx);
    let _ = writer.await;
    inner.changed.notify_waiters();
}

impl Inner {
    fn on_payload(
        &self,
        st: &mut State,
        tx: &UnboundedSender<Frame>,
        payload: &Value,
        session: &mut Option<String>,
        resume_url: bool,
    ) {
        let d = &payload["d"];
        match payload["op"].as_u64() {
            Some(1) => send(st, tx, json!({"op": 11, "d": null})),
            Some(2) => self.identify(st, tx, d, session),
            Some(6) => resume(st, tx, d, session, resume_url),
            Some(3) => presence(st, d, session.as_deref()),
            // Member requests need no answer here.
            Some(8) => {}
            other => st.violation("gateway", "/op", format!("unexpected opcode {other:?}")),
        }
    }

    fn identify(
        &self,
        st: &mut State,
        tx: &UnboundedSender<Frame>,
        d: &Value,
        session: &mut Option<String>,
    ) {
        let token = d["token"].as_str().unwrap_or("");
        if token.trim_start_matches("Bot ") != st.token {
            st.violation("gateway", "/d/token", "IDENTIFY with a wrong token");
            send(st, tx, json!({"op": 9, "d": false}));
            return;
        }
        if session.is_some() {
            st.violation("gateway", "", "second IDENTIFY on one connection");
        }
        let shard = match d.get("shard") {
            None | Some(Value::Null) => [0, 1],
            Some(v) => match (v[0].as_u64(), v[1].as_u64()) {
                (Some(i), Some(n)) if i < n => [i, n],
                _ => {
                    st.violation("gateway", "/d/shard", format!("bad shard {v}"));
                    [0, 1]
                }
            },
        };
        let owned = st.guilds_of_shard(shard);
        // "4011 Sharding required: The session would have handled too many guilds - you are
        // required to shard your connection in order to connect." No session is made.
        if owned.len() > st.shard_guild_limit {
            st.sharding_required.push(shard);
            close(st, tx, SHARDING_REQUIRED, "Sharding required.");
            return;
        }
        let id = format!("fake-session-{}", st.next_id());
        st.sessions.push(Session {
            session_id: id.clone(),
            seq: 0,
            tx: Some(tx.clone()),
            identify: d.clone(),
            resumes: 0,
            resumes_on_resume_url: 0,
            resumes_refused: 0,
            replayed: 0,
            shard,
            resumable: true,
            backlog: Default::default(),
            presence: d.get("presence").filter(|p| !p.is_null()).cloned(),
            presence_updates: 0,
        });
        let guilds: Vec<Value> = owned
            .iter()
            .map(|g| json!({"id": g.to_string(), "unavailable": true}))
            .collect();
        *session = Some(id.clone());
        let ready = json!({
            "v": 10,
            "user": payloads::current_user(st),
            "guilds": guilds,
            "session_id": id,
            "resume_gateway_url": self.resume_gateway_url,
            "shard": shard,
            "application": {"id": st.application_id.to_string(), "flags": 0},
        });
        dispatch_to(st, &id, "READY", ready);
        // Only the shard that owns a guild hears of it.
        for g in owned {
            let guild = payloads::guild_create_of(st, g);
            dispatch_to(st, &id, "GUILD_CREATE", guild);
        }
    }
}

/// RESUME: "If successful, the Gateway will send the missed events in order, finishing with a
/// Resumed event"; an unknown or no longer resumable session gets op 9 (not resumable), and so
/// does a RESUME on the connect URL instead of READY's `resume_gateway_url` (Discord's
/// "Preparing to Resume": the worst it may do; the session is then over, its missed events
/// lost, and the client must IDENTIFY again).
fn resume(
    st: &mut State,
    tx: &UnboundedSender<Frame>,
    d: &Value,
    session: &mut Option<String>,
    resume_url: bool,
) {
    let token = d["token"].as_str().unwrap_or("");
    if token.trim_start_matches("Bot ") != st.token {
        st.violation("gateway", "/d/token", "RESUME with a wrong token");
        send(st, tx, json!({"op": 9, "d": false}));
        return;
    }
    let wanted = d["session_id"].as_str().unwrap_or("").to_string();
    let seen = d["seq"].as_u64().unwrap_or(0);
    let Some(s) = st
        .sessions
        .iter_mut()
        .find(|s| s.session_id == wanted && s.resumable)
    else {
        send(st, tx, json!({"op": 9, "d": false}));
        return;
    };
    if !resume_url {
        s.resumable = false;
        s.resumes_refused += 1;
        send(st, tx, json!({"op": 9, "d": false}));
        return;
    }
    // Every dispatch after `seen` must still be kept to be replayed.
    let kept = seen >= s.seq || s.backlog.front().is_some_and(|(q, _, _)| *q <= seen + 1);
    if !kept {
        s.resumable = false;
        send(st, tx, json!({"op": 9, "d": false}));
        return;
    }
    if seen > s.seq {
        let (sent, id) = (s.seq, wanted.clone());
        st.violation(
            "gateway",
            "/d/seq",
            format!("RESUME of {id} claims sequence {seen}, only {sent} were sent"),
        );
        send(st, tx, json!({"op": 9, "d": false}));
        return;
    }
    s.tx = Some(tx.clone());
    s.resumes += 1;
    s.resumes_on_resume_url += 1;
    let missed: Vec<(Option<u64>, String)> = s
        .backlog
        .iter()
        .filter(|(q, _, _)| *q > seen)
        .map(|(_, i, text)| (*i, text.clone()))
        .collect();
    s.replayed += missed.len() as u32;
    let shard = s.shard;
    *session = Some(wanted.clone());
    for (interaction, text) in missed {
        if let Some(i) = interaction.and_then(|i| st.interactions.get_mut(&i)) {
            if !i.delivered_to.contains(&shard) {
                i.delivered_to.push(shard);
            }
        }
        queue(st, tx, WsMessage::Text(text));
    }
    dispatch_to(st, &wanted, "RESUMED", Value::Null);
}

/// Sends a dispatch to one session, with the next sequence number; kept for a RESUME, and
/// only kept when the session is not connected.
pub fn dispatch_to(st: &mut State, session_id: &str, event: &str, d: Value) {
    let Some(s) = st.sessions.iter_mut().find(|s| s.session_id == session_id) else {
        return;
    };
    s.seq += 1;
    let payload = json!({"op": 0, "s": s.seq, "t": event, "d": d});
    let text = payload.to_string();
    let interaction = (event == "INTERACTION_CREATE")
        .then(|| d["id"].as_str().and_then(|i| i.parse().ok()))
        .flatten();
    s.backlog.push_back((s.seq, interaction, text.clone()));
    if s.backlog.len() > RESUME_BACKLOG {
        s.backlog.pop_front();
    }
    let tx = s.tx.clone();
    if let Err(e) = check_payload(&payload) {
        st.violation("fake: gateway", "", e);
    }
    if let Some(tx) = tx {
        queue(st, &tx, WsMessage::Text(text));
    }
}

/// Sends a dispatch to the shard that owns `d`'s guild (shard 0 for DMs), as Discord routes
/// events: to every connected session of it (several processes may each hold one), and kept
/// for a disconnected session that may resume. Returns the `[shard_id, num_shards]` of each
/// connected session reached.
pub fn dispatch_routed(st: &mut State, event: &str, d: &Value) -> Vec<[u64; 2]> {
    if event != "INTERACTION_CREATE" && !st.lean {
        // Checked here too, so a payload sent to no session is still proved.
        let payload = json!({"op": 0, "s": 1, "t": event, "d": d});
        if let Err(e) = check_payload(&payload) {
            st.violation("fake: gateway", "", e);
        }
        st.dispatches.push((event.to_string(), d.clone()));
    }
    let guild = d["guild_id"]
        .as_str()
        .or_else(|| {
            (event == "GUILD_CREATE")
                .then(|| d["id"].as_str())
                .flatten()
        })
        .and_then(|g| g.parse().ok());
    let routed: Vec<(String, Option<[u64; 2]>)> = st
        .sessions
        .iter()
        .filter(|s| (s.tx.is_some() || s.resumable) && s.owns(guild))
        .map(|s| (s.session_id.clone(), s.tx.is_some().then_some(s.shard)))
        .collect();
    for (id, _) in &routed {
        dispatch_to(st, id, event, d.clone());
    }
    routed.into_iter().filter_map(|(_, shard)| shard).collect()
}

/// Sends a non-dispatch payload (e.g. op 7 RECONNECT) to every connected session.
pub fn send_all(st: &mut State, payload: &Value) {
    let txs: Vec<UnboundedSender<Frame>> =
        st.sessions.iter().filter_map(|s| s.tx.clone()).collect();
    for tx in txs {
        send(st, &tx, payload.clone());
    }
}

/// Every gateway payload the fake sends must parse as serenity's `GatewayEvent`, and a dispatch's
/// `d` as its own model type (serenity turns a dispatch it cannot parse into a silent
/// `Event::Unknown`, which is exactly the typo this is here to catch).
fn send(st: &mut State, tx: &UnboundedSender<Frame>, payload: Value) {
    if let Err(e) = check_payload(&payload) {
        st.violation("fake: gateway", "", e);
    }
    queue(st, tx, WsMessage::Text(payload.to_string()));
}

/// Closes the connection with a close code (the client answers, then the fake hangs up).
fn close(st: &mut State, tx: &UnboundedSender<Frame>, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code: CloseCode::from(code),
        reason: reason.into(),
    };
    queue(st, tx, WsMessage::Close(Some(frame)));
}

/// Puts a frame on its way: it reaches the client after the network delay.
fn queue(st: &State, tx: &UnboundedSender<Frame>, msg: WsMessage) {
    let due = tokio::time::Instant::now() + st.network_delay;
    let _ = tx.send(Frame { due, msg });
}

/// THREAD_UPDATE with the thread as it now stands (archived or unarchived).
pub fn thread_update(st: &mut State, thread: u64) {
    let Some(c) = st.channels.get(&thread) else {
        return;
    };
    let d = payloads::channel(c, st);
    dispatch_routed(st, "THREAD_UPDATE", &d);
}

/// THREAD_DELETE: "the inner payload is a subset of the channel object, containing just the
/// id, guild_id, parent_id, and type fields".
pub fn thread_delete(st: &mut State, c: &super::state::ChannelRec) {
    let d = json!({
        "id": c.id.to_string(),
        "guild_id": c.guild_id.unwrap_or(st.guild_id).to_string(),
        "parent_id": c.parent_id.map(|p| p.to_string()),
        "type": c.kind.code(),
    });
    dispatch_routed(st, "THREAD_DELETE", &d);
}

/// CHANNEL_DELETE with the channel as it was.
pub fn channel_delete(st: &mut State, c: &super::state::ChannelRec) {
    let d = payloads::channel(c, st);
    dispatch_routed(st, "CHANNEL_DELETE", &d);
}

/// GUILD_DELETE without `unavailable`: the bot was removed from the guild.
pub fn guild_delete(st: &mut State) {
    let d = json!({"id": st.guild_id.to_string()});
    dispatch_routed(st, "GUILD_DELETE", &d);
}

/// A gateway payload parses as serenity's `GatewayEvent`, and a dispatch's `d` as its model.
fn check_payload(payload: &Value) -> Result<(), String> {
    use serenity::model::prelude as model;
    let what = payload["t"]
        .as_str()
        .map_or_else(|| format!("op {}", payload["op"]), str::to_string);
    let d = &payload["d"];
    payloads::check_model::<model::GatewayEvent>(&what, payload)?;
    match payload["t"].as_str() {
        Some("READY") => payloads::check_model::<model::Ready>(&what, d),
        Some("GUILD_CREATE") => payloads::check_model::<model::Guild>(&what, d),
        Some("INTERACTION_CREATE") => payloads::check_model::<model::Interaction>(&what, d),
        Some("THREAD_UPDATE" | "CHANNEL_CREATE" | "CHANNEL_UPDATE" | "CHANNEL_DELETE") => {
            payloads::check_model::<model::GuildChannel>(&what, d)
        }
        Some("THREAD_DELETE") => payloads::check_model::<model::PartialGuildChannel>(&what, d),
        Some("GUILD_DELETE") => payloads::check_model::<model::UnavailableGuild>(&what, d),
        Some("RESUMED") | None => Ok(()),
        Some(other) => Err(format!("{other}: no model check for this event")),
    }
}

/// Gateway events a client may send per connection in [`GATEWAY_SEND_WINDOW`].
pub const GATEWAY_SEND_LIMIT: usize = 120;
pub const GATEWAY_SEND_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

/// An Update Presence (op 3), checked against its structure (`events/gateway-events.mdx`,
/// "Gateway Presence Update Structure") and kept as the session's presence.
fn presence(st: &mut State, d: &Value, session: Option<&str>) {
    const STATUSES: [&str; 5] = ["online", "dnd", "idle", "invisible", "offline"];
    let Some(id) = session else {
        st.violation("gateway", "/op", "presence update before IDENTIFY");
        return;
    };
    // The docs ask for null or Unix ms; serenity 0.12 sends its `SystemTime` as serde writes
    // it (`{"secs_since_epoch", "nanos_since_epoch"}`), which Discord evidently accepts from
    // every serenity bot: tolerated, anything else is not.
    let since = &d["since"];
    if !(since.is_null() || since.is_u64() || since["secs_since_epoch"].is_u64()) {
        st.violation(
            "gateway",
            "/d/since",
            "since must be null or a Unix time in ms",
        );
    }
    if !d["afk"].is_boolean() {
        st.violation("gateway", "/d/afk", "afk must be a boolean");
    }
    if !d["status"].as_str().is_some_and(|s| STATUSES.contains(&s)) {
        st.violation(
            "gateway",
            "/d/status",
            format!("unknown status {}", d["status"]),
        );
    }
    let Some(activities) = d["activities"].as_array() else {
        st.violation("gateway", "/d/activities", "activities must be an array");
        return;
    };
    for (i, a) in activities.iter().enumerate() {
        // A bot may set only these (`events/gateway-events.mdx`, activity types).
        if !a["type"]
            .as_u64()
            .is_some_and(|t| [0, 1, 2, 3, 4, 5].contains(&t))
        {
            st.violation(
                "gateway",
                &format!("/d/activities/{i}/type"),
                "unknown activity type",
            );
        }
        if !a["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty() && n.chars().count() <= 128)
        {
            st.violation(
                "gateway",
                &format!("/d/activities/{i}/name"),
                "activity name of 1 to 128 characters",
            );
        }
    }
    if let Some(s) = st.sessions.iter_mut().find(|s| s.session_id == id) {
        s.presence = Some(d.clone());
        s.presence_updates += 1;
    }
}
