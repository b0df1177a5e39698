//! The gateway websocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, and the
//! dispatches tests push. Plain JSON text frames (serenity also reads them when it asked for
//! compression).

use super::payloads;
use super::state::{Session, State};
use super::Inner;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio_tungstenite::tungstenite::Message as WsMessage;

pub const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

pub async fn serve(listener: TcpListener, inner: Arc<Inner>) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(connection(Arc::clone(&inner), stream));
    }
}

async fn connection(inner: Arc<Inner>, stream: TcpStream) {
    let ws = match tokio_tungstenite::accept_async(stream).await {
        Ok(ws) => ws,
        Err(e) => {
            inner
                .lock()
                .violation("gateway", "", format!("websocket handshake failed: {e}"));
            return;
        }
    };
    let (mut sink, mut incoming) = ws.split();
    let (tx, mut rx) = unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink.send(WsMessage::Text(text)).await.is_err() {
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
        let text = match frame {
            WsMessage::Text(t) => t,
            WsMessage::Binary(_) => {
                inner
                    .lock()
                    .violation("gateway", "", "binary frame from the client");
                continue;
            }
            WsMessage::Close(_) => break,
            _ => continue,
        };
        let Ok(payload) = serde_json::from_str::<Value>(&text) else {
            inner.lock().violation("gateway", "", "frame is not JSON");
            continue;
        };
        {
            let mut st = inner.lock();
            inner.on_payload(&mut st, &tx, &payload, &mut session);
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
        tx: &UnboundedSender<String>,
        payload: &Value,
        session: &mut Option<String>,
    ) {
        let d = &payload["d"];
        match payload["op"].as_u64() {
            Some(1) => send(st, tx, json!({"op": 11, "d": null})),
            Some(2) => {
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
                let id = format!("fake-session-{}", st.next_id());
                st.sessions.push(Session {
                    session_id: id.clone(),
                    seq: 0,
                    tx: Some(tx.clone()),
                    identify: d.clone(),
                    resumes: 0,
                    shard,
                });
                let guild = st.guild_id;
                let owned = st.sessions.last().is_some_and(|s| s.owns(Some(guild)));
                let guilds: Vec<Value> = owned
                    .then(|| json!({"id": guild.to_string(), "unavailable": true}))
                    .into_iter()
                    .collect();
                *session = Some(id.clone());
                let ready = json!({
                    "v": 10,
                    "user": payloads::current_user(st),
                    "guilds": guilds,
                    "session_id": id,
                    "resume_gateway_url": self.gateway_url,
                    "shard": shard,
                    "application": {"id": st.application_id.to_string(), "flags": 0},
                });
                dispatch_to(st, &id, "READY", ready);
                // Only the shard that owns the guild hears of it.
                if owned {
                    let guild = payloads::guild_create(st);
                    dispatch_to(st, &id, "GUILD_CREATE", guild);
                }
            }
            Some(6) => {
                let wanted = d["session_id"].as_str().unwrap_or("");
                let known = st.sessions.iter_mut().find(|s| s.session_id == wanted);
                match known {
                    Some(s) => {
                        s.tx = Some(tx.clone());
                        s.resumes += 1;
                        *session = Some(wanted.to_string());
                        dispatch_to(st, wanted, "RESUMED", Value::Null);
                    }
                    None => send(st, tx, json!({"op": 9, "d": false})),
                }
            }
            // Presence updates and member requests need no answer here.
            Some(3 | 8) => {}
            other => st.violation("gateway", "/op", format!("unexpected opcode {other:?}")),
        }
    }
}

/// Sends a dispatch to one session, with the next sequence number.
pub fn dispatch_to(st: &mut State, session_id: &str, event: &str, d: Value) {
    let Some(s) = st.sessions.iter_mut().find(|s| s.session_id == session_id) else {
        return;
    };
    s.seq += 1;
    let payload = json!({"op": 0, "s": s.seq, "t": event, "d": d});
    if let Some(tx) = s.tx.clone() {
        send(st, &tx, payload);
    }
}

/// Sends a dispatch to every connected session of the shard that owns `d`'s guild (shard 0 for
/// DMs), as Discord routes events; several processes may each hold such a session. Returns
/// the `[shard_id, num_shards]` of each session reached.
pub fn dispatch_routed(st: &mut State, event: &str, d: &Value) -> Vec<[u64; 2]> {
    if event != "INTERACTION_CREATE" && !st.lean {
        // Checked here too, so a payload sent to no session is still proved.
        let payload = json!({"op": 0, "s": 1, "t": event, "d": d});
        if let Err(e) = check_payload(&payload) {
            st.violation("fake: gateway", "", e);
        }
        st.dispatches.push((event.to_string(), d.clone()));
    }
    let guild = d["guild_id"].as_str().and_then(|g| g.parse().ok());
    let reached: Vec<(String, [u64; 2])> = st
        .sessions
        .iter()
        .filter(|s| s.tx.is_some() && s.owns(guild))
        .map(|s| (s.session_id.clone(), s.shard))
        .collect();
    for (id, _) in &reached {
        dispatch_to(st, id, event, d.clone());
    }
    reached.into_iter().map(|(_, shard)| shard).collect()
}

/// Sends a non-dispatch payload (e.g. op 7 RECONNECT) to every connected session.
pub fn send_all(st: &mut State, payload: &Value) {
    let txs: Vec<UnboundedSender<String>> =
        st.sessions.iter().filter_map(|s| s.tx.clone()).collect();
    for tx in txs {
        send(st, &tx, payload.clone());
    }
}

/// Every gateway payload the fake sends must parse as serenity's `GatewayEvent`, and a dispatch's
/// `d` as its own model type (serenity turns a dispatch it cannot parse into a silent
/// `Event::Unknown`, which is exactly the typo this is here to catch).
fn send(st: &mut State, tx: &UnboundedSender<String>, payload: Value) {
    if let Err(e) = check_payload(&payload) {
        st.violation("fake: gateway", "", e);
    }
    let _ = tx.send(payload.to_string());
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
        Some("THREAD_UPDATE" | "CHANNEL_DELETE") => {
            payloads::check_model::<model::GuildChannel>(&what, d)
        }
        Some("THREAD_DELETE") => payloads::check_model::<model::PartialGuildChannel>(&what, d),
        Some("GUILD_DELETE") => payloads::check_model::<model::UnavailableGuild>(&what, d),
        Some("RESUMED") | None => Ok(()),
        Some(other) => Err(format!("{other}: no model check for this event")),
    }
}
