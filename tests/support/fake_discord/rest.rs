//! The REST side: every request is logged, matched against the OpenAPI spec, its body validated,
//! then answered from the in-memory state.

use super::checks;
use super::multipart;
use super::payloads::{self, check_model};
use super::perms;
use super::ratelimits;
use super::state::{
    Attachment, Behaviour, Callback, ChannelKind, ChannelRec, CommandRec, Message, RequestLog,
    State,
};
use super::Inner;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use serde_json::{json, Value};
use serenity::model::prelude as model;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;

/// `tls`: the request came to the TLS port, addressed to `discord.com`.
pub async fn handle(
    inner: Arc<Inner>,
    req: Request<Incoming>,
    tls: bool,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    let bytes = match body.collect().await {
        Ok(c) => c.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let reply = {
        let mut st = inner.lock();
        inner.rest(&mut st, &parts, &bytes, tls)
    };
    inner.changed.notify_waiters();
    let mut builder = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        builder = builder.header(*name, value);
    }
    let body = match reply.body {
        Some(v) => {
            builder = builder.header("content-type", "application/json");
            Bytes::from(v.to_string())
        }
        None => Bytes::new(),
    };
    Ok(builder
        .body(Full::new(body))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}

pub struct Reply {
    pub status: u16,
    pub body: Option<Value>,
    pub headers: Vec<(&'static str, String)>,
}

fn ok(body: Value) -> Reply {
    Reply {
        status: 200,
        body: Some(body),
        headers: Vec::new(),
    }
}

fn no_content() -> Reply {
    Reply {
        status: 204,
        body: None,
        headers: Vec::new(),
    }
}

/// Discord's JSON error shape.
fn error(status: u16, code: u64, message: &str) -> Reply {
    Reply {
        status,
        body: Some(json!({"code": code, "message": message})),
        headers: Vec::new(),
    }
}

/// The answer of an injected fault, shaped as Discord's (429: `retry_after` in the body and
/// the headers, `global` false).
fn fault_reply(f: &super::state::Fault) -> Reply {
    match f.retry_after {
        Some(secs) => Reply {
            status: f.status,
            body: Some(json!({
                "message": "You are being rate limited.",
                "retry_after": secs,
                "global": false,
                "code": f.code,
            })),
            headers: vec![
                ("retry-after", format!("{}", secs.ceil())),
                ("x-ratelimit-remaining", "0".into()),
                ("x-ratelimit-reset-after", format!("{secs:.3}")),
                ("x-ratelimit-scope", f.scope.into()),
            ],
        },
        None => error(f.status, f.code, "injected failure"),
    }
}

/// A request after parsing: the body is JSON (or multipart `payload_json` plus files).
struct Req {
    method: String,
    label: String,
    template: String,
    params: HashMap<String, String>,
    query: HashMap<String, String>,
    json: Option<Value>,
    /// Uploaded files with their `files[N]` index.
    files: Vec<(u64, Attachment)>,
}

impl Req {
    fn id(&self, name: &str) -> u64 {
        self.params
            .get(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
    fn param(&self, name: &str) -> &str {
        self.params.get(name).map_or("", String::as_str)
    }
    fn body(&self) -> &Value {
        self.json.as_ref().unwrap_or(&Value::Null)
    }
}

impl Inner {
    fn rest(
        &self,
        st: &mut State,
        parts: &hyper::http::request::Parts,
        bytes: &[u8],
        tls: bool,
    ) -> Reply {
        let method = parts.method.as_str().to_string();
        let uri = parts.uri.to_string();
        let path = parts.uri.path().to_string();
        let host = header(parts, "host").unwrap_or_default();
        let mut log = RequestLog {
            method: method.clone(),
            uri: uri.clone(),
            host: host.clone(),
            route: None,
            status: 0,
            body: None,
            at: std::time::Instant::now(),
        };
        let label = format!("{method} {path}");
        let expected = if tls {
            "discord.com"
        } else {
            self.host.as_str()
        };
        if host != expected {
            st.violation(
                &label,
                "",
                format!("Host header {host:?}, expected {expected:?}"),
            );
        }
        let now = st.now();
        if st.rate.ban.banned(now) {
            // Cloudflare's ban: every request of the IP is refused before Discord sees it
            // (its page is HTML; the fake keeps Discord's JSON error shape, code 0).
            st.rate.ban.refused += 1;
            log.status = 403;
            if !st.lean {
                st.requests.push(log);
            }
            return error(
                403,
                0,
                "You are being blocked from accessing our API temporarily due to exceeding \
                 our rate limits frequently.",
            );
        }
        let mut limits = Vec::new();
        let mut reply = self.rest_inner(
            st,
            parts,
            bytes,
            &method,
            &path,
            &label,
            &mut log,
            &mut limits,
        );
        reply.headers.extend(limits);
        // "An invalid request is one that results in 401, 403, or 429 statuses"; "429 errors
        // returned with X-RateLimit-Scope: shared are not counted against you"
        // (`developers/topics/rate-limits.mdx`, "Invalid Request Limit aka Cloudflare bans").
        let shared = reply
            .headers
            .iter()
            .any(|(name, value)| *name == "x-ratelimit-scope" && value == "shared");
        if matches!(reply.status, 401 | 403) || (reply.status == 429 && !shared) {
            st.rate.invalid += 1;
            st.rate.ban.count(now);
        }
        log.status = reply.status;
        if !st.lean {
            st.requests.push(log);
        }
        reply
    }

    #[allow(clippy::too_many_arguments)]
    fn rest_inner(
        &self,
        st: &mut State,
        parts: &hyper::http::request::Parts,
        bytes: &[u8],
        method: &str,
        path: &str,
        label: &str,
        log: &mut RequestLog,
        limits: &mut Vec<(&'static str, String)>,
    ) -> Reply {
        let Some(api_path) = path.strip_prefix("/api/v10") else {
            st.violation(label, "", "not under /api/v10");
            return error(404, 0, "404: Not Found");
        };
        let route = match self.spec.find(api_path, method) {
            Ok(r) => r,
            Err(super::openapi::RouteError::UnknownPath) => {
                st.violation(label, "", "no such route in Discord's API");
                return error(404, 0, "404: Not Found");
            }
            Err(super::openapi::RouteError::MethodNotAllowed(t)) => {
                st.violation(label, "", format!("method not allowed on {t}"));
                return error(405, 0, "405: Method Not Allowed");
            }
        };
        let template = route.template.to_string();
        log.route = Some(template.clone());
        let label = format!("{method} {template}");
        let mut anyway = None;
        if let Some(f) = st
            .faults
            .iter_mut()
            .find(|f| f.times > 0 && f.route == label)
        {
            f.times -= 1;
            let f = f.clone();
            st.faults.retain(|f| f.times > 0);
            if !f.carried_out {
                return fault_reply(&f);
            }
            anyway = Some(f);
        }
        let query = query(parts.uri.query().unwrap_or(""));
        let mut bad_params = self.spec.check_params(&route);
        bad_params.extend(self.spec.check_query(&route, &query));
        if !bad_params.is_empty() {
            for issue in bad_params {
                st.violation(&label, &issue.pointer, issue.message);
            }
            return error(400, 50035, "Invalid Form Body");
        }
        // Interaction callbacks and webhooks are authorised by their token; the rest by the bot's.
        let by_token = template.starts_with("/interactions/") || template.starts_with("/webhooks/");
        let auth = header(parts, "authorization").unwrap_or_default();
        if !by_token && auth != format!("Bot {}", st.token) {
            st.violation(
                &label,
                "",
                "missing or wrong `Authorization: Bot <token>` header",
            );
            return error(401, 0, "401: Unauthorized");
        }
        match st.rate.check(method, &template, &route.params, by_token) {
            ratelimits::Verdict::Pass(headers) => *limits = headers,
            ratelimits::Verdict::Limited {
                retry_after,
                global,
                headers,
            } => {
                return Reply {
                    status: 429,
                    body: Some(json!({
                        "message": "You are being rate limited.",
                        "retry_after": retry_after,
                        "global": global,
                    })),
                    headers,
                }
            }
        }

        let content_type = header(parts, "content-type").unwrap_or_default();
        let mut json_body = None;
        let mut files = Vec::new();
        let mut schema_type = "application/json";
        if content_type.starts_with("multipart/form-data") {
            schema_type = "multipart/form-data";
            match parse_multipart(&content_type, bytes) {
                Ok((j, f)) => {
                    json_body = j;
                    files = f;
                }
                Err(e) => {
                    st.violation(&label, "", format!("bad multipart body: {e}"));
                    return error(400, 50035, "Invalid Form Body");
                }
            }
        } else if !bytes.is_empty() {
            match serde_json::from_slice::<Value>(bytes) {
                Ok(v) => json_body = Some(v),
                Err(e) => {
                    st.violation(&label, "", format!("body is not JSON: {e}"));
                    return error(400, 50109, "The request body contains invalid JSON.");
                }
            }
            if !content_type.starts_with("application/json") {
                st.violation(&label, "", format!("JSON body sent as {content_type:?}"));
            }
        }
        log.body = json_body.clone();
        let mut invalid = false;
        match (&json_body, self.spec.body_schema(&route, schema_type)) {
            (Some(body), Some(schema)) => {
                for issue in self.spec.validate(schema, body) {
                    invalid = true;
                    st.violation(&label, &issue.pointer, issue.message);
                }
            }
            (Some(_), None) => {
                st.violation(
                    &label,
                    "",
                    format!("{template} takes no {schema_type} body"),
                );
            }
            (None, _)
                if self.spec.takes_body(&route)
                    && method != "GET"
                    && !route_body_optional(&template) =>
            {
                st.violation(&label, "", "request body missing");
            }
            _ => {}
        }
        let req = Req {
            method: method.to_string(),
            label: label.clone(),
            template,
            params: route.params.clone(),
            query: query.into_iter().collect(),
            json: json_body,
            files,
        };
        if invalid {
            return error(400, 50035, "Invalid Form Body");
        }
        let reply = self.dispatch(st, &req);
        match anyway {
            // Done, and the client is told it failed.
            Some(f) if reply.status < 300 => {
                if req.template.starts_with("/interactions/") {
                    st.lost_acks.insert(req.id("interaction_id"));
                }
                fault_reply(&f)
            }
            _ => reply,
        }
    }

    fn dispatch(&self, st: &mut State, r: &Req) -> Reply {
        let app = st.application_id;
        if let Some(refused) = gone(st, r) {
            return refused;
        }
        match (r.method.as_str(), r.template.as_str()) {
            ("GET", "/gateway") => self.model::<model::Gateway>(st, r, json!({"url": self.gateway_url})),
            ("GET", "/gateway/bot") => self.model::<model::BotGateway>(
                st,
                r,
                json!({
                    "url": self.gateway_url,
                    "shards": st.recommended_shards(),
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
                }),
            ),
            ("GET", "/users/@me") => {
                let v = payloads::current_user(st);
                self.model::<model::CurrentUser>(st, r, v)
            }
            ("GET", "/oauth2/applications/@me") => {
                let v = payloads::application(st);
                self.model::<model::CurrentApplicationInfo>(st, r, v)
            }
            ("GET" | "PUT" | "POST", "/applications/{application_id}/commands" | "/applications/{application_id}/guilds/{guild_id}/commands") => {
                if r.id("application_id") != app {
                    st.violation(&r.label, "", "application id is not the bot's");
                    return error(404, 10002, "Unknown Application");
                }
                let guild = r.params.get("guild_id").and_then(|g| g.parse::<u64>().ok());
                if guild.is_some_and(|g| g != st.guild_id) {
                    st.violation(&r.label, "", "unknown guild");
                    return error(404, 10004, "Unknown Guild");
                }
                self.commands(st, r, guild)
            }
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback") => self.callback(st, r),
            (_, t) if t.starts_with("/webhooks/") => self.webhook(st, r),
            ("GET", "/channels/{channel_id}") => {
                let Some(c) = st.channels.get(&r.id("channel_id")) else {
                    return unknown_channel(st, r);
                };
                let v = payloads::channel(c, st);
                self.model::<model::Channel>(st, r, v)
            }
            ("PATCH", "/channels/{channel_id}") => self.modify_channel(st, r),
            ("GET", "/channels/{channel_id}/messages") => {
                let channel = r.id("channel_id");
                if !st.channels.contains_key(&channel) {
                    return unknown_channel(st, r);
                }
                let limit = r.query.get("limit").and_then(|l| l.parse().ok()).unwrap_or(50);
                let list: Vec<Value> = st
                    .messages
                    .iter()
                    .rev()
                    .filter(|m| m.channel_id == channel && !m.deleted)
                    .take(limit)
                    .map(|m| payloads::message(m, st, &self.api_base))
                    .collect();
                self.model::<Vec<model::Message>>(st, r, Value::Array(list))
            }
            ("POST", "/channels/{channel_id}/messages") => self.create_message(st, r),
            (_, "/channels/{channel_id}/messages/{message_id}") => self.channel_message(st, r),
            ("POST", "/channels/{channel_id}/threads") => self.create_thread(st, r, None),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads") => {
                let mid = r.id("message_id");
                self.create_thread(st, r, Some(mid))
            }
            ("POST", "/users/@me/channels") => self.open_dm(st, r),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}") => add_thread_member(st, r),
            ("GET", "/guilds/{guild_id}/members/{user_id}") => {
                if r.id("guild_id") != st.guild_id {
                    st.violation(&r.label, "", "unknown guild");
                    return error(404, 10004, "Unknown Guild");
                }
                let Some(u) = st.users.get(&r.id("user_id")) else {
                    return error(404, 10007, "Unknown Member");
                };
                // With the member's roles, as Discord gives them (the bot reads a member's
                // rights in a channel from them).
                let mut v = payloads::member(u);
                let roles = st.member_roles.get(&u.id).cloned().unwrap_or_default();
                v["roles"] = json!(roles.iter().map(u64::to_string).collect::<Vec<_>>());
                let mut check = v.clone();
                check["guild_id"] = json!(st.guild_id.to_string());
                if let Err(e) = check_model::<model::Member>("member", &check) {
                    st.violation(&format!("fake: {}", r.label), "", e);
                }
                ok(v)
            }
            // "Returns all active threads in the guild, including public and private threads.
            // Threads are ordered by their `id`, in descending order" (`resources/guild.mdx`);
            // `members`: the bot's own thread memberships, none kept by the fake.
            ("GET", "/guilds/{guild_id}/threads/active") => {
                if r.id("guild_id") != st.guild_id {
                    st.violation(&r.label, "", "unknown guild");
                    return error(404, 10004, "Unknown Guild");
                }
                let mut threads: Vec<&ChannelRec> = st
                    .channels
                    .values()
                    .filter(|c| {
                        matches!(c.kind, ChannelKind::PublicThread | ChannelKind::PrivateThread)
                            && !c.archived
                    })
                    .collect();
                threads.sort_by_key(|c| std::cmp::Reverse(c.id));
                let list: Vec<Value> = threads.iter().map(|c| payloads::channel(c, st)).collect();
                self.model::<model::ThreadsData>(st, r, json!({"threads": list, "members": []}))
            }
            ("POST", "/channels/{channel_id}/typing") => {
                if !st.channels.contains_key(&r.id("channel_id")) {
                    return unknown_channel(st, r);
                }
                no_content()
            }
            _ => {
                st.violation(&r.label, "", "route exists in Discord's API but the fake does not serve it");
                error(404, 0, "404: Not Found")
            }
        }
    }

    /// Answers `value` after checking it parses as serenity's `T`.
    fn model<T: serde::de::DeserializeOwned>(
        &self,
        st: &mut State,
        r: &Req,
        value: Value,
    ) -> Reply {
        if let Err(e) = check_model::<T>(&r.label, &value) {
            st.violation(&format!("fake: {}", r.label), "", e);
        }
        ok(value)
    }

    fn message_reply(&self, st: &mut State, r: &Req, id: u64) -> Reply {
        let v = st
            .message(id)
            .map(|m| payloads::message(m, st, &self.api_base))
            .unwrap_or(Value::Null);
        self.model::<model::Message>(st, r, v)
    }

    fn commands(&self, st: &mut State, r: &Req, guild: Option<u64>) -> Reply {
        match r.method.as_str() {
            "PUT" => {
                st.commands.retain(|c| c.guild_id != guild);
                let list = r.body().as_array().cloned().unwrap_or_default();
                for (i, body) in list.iter().enumerate() {
                    checks::command(st, &r.label, &format!("/{i}"), body);
                }
                for body in list {
                    let id = st.next_id();
                    st.commands.push(CommandRec {
                        id,
                        guild_id: guild,
                        body,
                    });
                }
            }
            "POST" => {
                let body = r.body().clone();
                checks::command(st, &r.label, "", &body);
                let name = body.get("name").cloned();
                // Creating a command with an existing name replaces it, as on Discord.
                st.commands
                    .retain(|c| !(c.guild_id == guild && c.body.get("name") == name.as_ref()));
                let id = st.next_id();
                st.commands.push(CommandRec {
                    id,
                    guild_id: guild,
                    body,
                });
                let v = st
                    .commands
                    .last()
                    .map(|c| payloads::command(c, st.application_id))
                    .unwrap_or(Value::Null);
                return self.model::<model::Command>(st, r, v);
            }
            _ => {}
        }
        let list: Vec<Value> = st
            .commands
            .iter()
            .filter(|c| c.guild_id == guild)
            .map(|c| payloads::command(c, st.application_id))
            .collect();
        self.model::<Vec<model::Command>>(st, r, Value::Array(list))
    }

    fn create_message(&self, st: &mut State, r: &Req) -> Reply {
        let channel_id = r.id("channel_id");
        let Some(channel) = st.channels.get(&channel_id) else {
            return unknown_channel(st, r);
        };
        if let Some(user) = channel.recipient.and_then(|u| st.users.get(&u)) {
            if user.dms_closed {
                // Not a violation: the bot must cope with it.
                return error(403, 50007, "Cannot send messages to this user");
            }
            // The fake has one guild: once the bot is out of it, nobody shares one with it.
            if user.left_guild || st.removed_from_guild {
                return error(
                    403,
                    50278,
                    "Cannot send messages to this user due to having no mutual guilds",
                );
            }
        }
        let files = self.accept_files(st, r);
        let body = r.body();
        checks::message_payload(st, &r.label, "", body, &files);
        if checks::creation_flags(st, &r.label, "/flags", body, checks::CREATE_FLAGS).is_err() {
            return error(400, 50035, "Invalid Form Body");
        }
        if let Some(refused) = may_send(st, channel_id, !files.is_empty()) {
            return refused;
        }
        // `enforce_nonce`: "checked for uniqueness in the past few minutes. If another message
        // was created by the same author with the same nonce, that message will be returned"
        // (`resources/message.mdx`): per author, in any channel, for `NONCE_SECS` of the fake's
        // clock.
        let nonce = match body.get("nonce") {
            Some(Value::String(n)) => Some(n.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let enforced = body.get("enforce_nonce").and_then(Value::as_bool) == Some(true);
        let author = st.bot_user_id;
        let now = st.now();
        if let (Some(n), true) = (&nonce, enforced) {
            if n.chars().count() > 25 {
                st.violation(&r.label, "/nonce", "longer than 25 characters");
                return error(400, 50035, "Invalid Form Body");
            }
            st.nonces
                .retain(|_, (_, at)| now.saturating_sub(*at) < super::state::NONCE_SECS);
            if let Some(&(existing, _)) = st.nonces.get(&(author, n.clone())) {
                return self.message_reply(st, r, existing);
            }
        }
        let id = st.next_id();
        if let (Some(n), true) = (nonce, enforced) {
            st.nonces.insert((author, n), (id, now));
        }
        let author_id = st.bot_user_id;
        let mut m = Message {
            id,
            channel_id,
            author_id,
            content: String::new(),
            embeds: Vec::new(),
            components: Vec::new(),
            attachments: Vec::new(),
            flags: 0,
            interaction_id: None,
            webhook_id: None,
            edits: 0,
            deleted: false,
            pinged_users: Vec::new(),
            pinged_roles: Vec::new(),
            pinged_everyone: false,
        };
        apply_body(&mut m, body, files, true);
        st.messages.push(m);
        touch(st, channel_id);
        self.message_reply(st, r, id)
    }

    fn channel_message(&self, st: &mut State, r: &Req) -> Reply {
        let channel_id = r.id("channel_id");
        if !st.channels.contains_key(&channel_id) {
            return unknown_channel(st, r);
        }
        let id = r.id("message_id");
        let bot = st.bot_user_id;
        let Some(m) = st.message(id).filter(|m| m.channel_id == channel_id) else {
            st.violation(&r.label, "", "unknown message");
            return error(404, 10008, "Unknown Message");
        };
        let author = m.author_id;
        match r.method.as_str() {
            "GET" => self.message_reply(st, r, id),
            "PATCH" | "DELETE" if author != bot => {
                st.violation(&r.label, "", "the message is not the bot's");
                error(403, 50005, "Cannot edit a message authored by another user")
            }
            "PATCH" => {
                let files = self.accept_files(st, r);
                checks::message_payload(st, &r.label, "", r.body(), &files);
                if let Some(refused) = may_edit(st, channel_id) {
                    return refused;
                }
                if let Some(m) = st.message_mut(id) {
                    apply_body(m, r.body(), files, false);
                }
                self.message_reply(st, r, id)
            }
            _ => {
                if let Some(m) = st.message_mut(id) {
                    m.deleted = true;
                }
                no_content()
            }
        }
    }

    fn create_thread(&self, st: &mut State, r: &Req, from: Option<u64>) -> Reply {
        let parent = r.id("channel_id");
        let Some(p) = st.channels.get(&parent) else {
            return unknown_channel(st, r);
        };
        // "`type` currently defaults to `PRIVATE_THREAD`" when no message starts it; a private
        // thread needs CREATE_PRIVATE_THREADS, a public one CREATE_PUBLIC_THREADS.
        let private = from.is_none() && r.body().get("type").and_then(Value::as_u64) != Some(11);
        if p.guild_id.is_some() {
            let have = st.channel_permissions(st.bot_user_id, parent);
            let needed = if private {
                perms::CREATE_PRIVATE_THREADS
            } else {
                perms::CREATE_PUBLIC_THREADS
            };
            if let Some(refused) = lacking(have, needed) {
                return refused;
            }
        }
        if p.kind != ChannelKind::Text {
            st.violation(
                &r.label,
                "",
                "threads can only start in a guild text channel",
            );
            return error(400, 50024, "Cannot execute action on this channel type");
        }
        let guild_id = p.guild_id;
        if let Some(mid) = from {
            if st.message(mid).is_none_or(|m| m.channel_id != parent) {
                st.violation(&r.label, "", "unknown message");
                return error(404, 10008, "Unknown Message");
            }
            if st.channels.values().any(|c| c.from_message == Some(mid)) {
                st.violation(&r.label, "", "the message already has a thread");
                return error(
                    400,
                    160004,
                    "A thread has already been created for this message",
                );
            }
        }
        if st.thread_cap_reached() {
            return error(400, 160006, "Maximum number of active threads reached");
        }
        let body = r.body();
        let kind = match (from, body.get("type").and_then(Value::as_u64)) {
            (Some(_), _) | (None, Some(11)) => ChannelKind::PublicThread,
            _ => ChannelKind::PrivateThread,
        };
        // A thread started from a message takes the message's id, as on Discord.
        let id = from.unwrap_or_else(|| st.next_id());
        let c = ChannelRec {
            id,
            kind,
            name: body
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            guild_id,
            parent_id: Some(parent),
            recipient: None,
            from_message: from,
            auto_archive_duration: body
                .get("auto_archive_duration")
                .and_then(Value::as_u64)
                .unwrap_or(4320),
            invitable: body
                .get("invitable")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            overwrites: Vec::new(),
            archived: false,
            locked: false,
            last_activity: st.now(),
        };
        let v = payloads::channel(&c, st);
        st.channels.insert(id, c);
        if private {
            // Its creator is its first member: a private thread is seen by its members only.
            let bot = st.bot_user_id;
            st.thread_members.entry(id).or_default().insert(bot);
        }
        self.model::<model::GuildChannel>(st, r, v)
    }

    /// `PATCH /channels/{id}`: the bot archives (or renames) a thread it started.
    fn modify_channel(&self, st: &mut State, r: &Req) -> Reply {
        let id = r.id("channel_id");
        let bot = st.bot_user_id;
        let Some(c) = st.channels.get(&id) else {
            return unknown_channel(st, r);
        };
        if c.kind == ChannelKind::Text || c.kind == ChannelKind::Dm {
            // Editing a channel needs Manage Channels, which the bot is not given.
            if let Some(refused) = lacking(st.channel_permissions(bot, id), perms::MANAGE_CHANNELS)
            {
                return refused;
            }
        } else if st.channel_permissions(bot, id) & perms::VIEW_CHANNEL == 0 {
            return error(403, 50001, "Missing Access");
        }
        let body = r.body().clone();
        let have = st.channel_permissions(bot, id);
        let locked = st.channels.get(&id).is_some_and(|c| c.locked);
        let was_archived = st.channels.get(&id).is_some_and(|c| c.archived);
        // "Editing a thread to change `rate_limit_per_user` or `locked` requires MANAGE_THREADS";
        // the bot created its threads, so it may rename, archive and unarchive them (even
        // locked ones) without it.
        if body.get("locked").is_some() && have & perms::MANAGE_THREADS == 0 {
            return error(403, 50013, "Missing Permissions");
        }
        // A locked thread's name and tags change only with Manage Threads.
        if locked && body.get("name").is_some() && have & perms::MANAGE_THREADS == 0 {
            return error(403, 160005, "Thread is locked");
        }
        let unarchiving = body.get("archived").and_then(Value::as_bool) == Some(false);
        if unarchiving && was_archived && st.thread_cap_reached() {
            return error(400, 160006, "Maximum number of active threads reached");
        }
        let now = st.now();
        let Some(c) = st.channels.get_mut(&id) else {
            return unknown_channel(st, r);
        };
        if let Some(name) = body.get("name").and_then(Value::as_str) {
            c.name = name.to_string();
        }
        if let Some(a) = body.get("archived").and_then(Value::as_bool) {
            c.archived = a;
        }
        if let Some(l) = body.get("locked").and_then(Value::as_bool) {
            c.locked = l;
        }
        if let Some(d) = body.get("auto_archive_duration").and_then(Value::as_u64) {
            c.auto_archive_duration = d;
            c.last_activity = now;
        }
        if unarchiving {
            c.last_activity = now;
        }
        let changed_archive = body
            .get("archived")
            .and_then(Value::as_bool)
            .is_some_and(|a| a != was_archived);
        let v = st
            .channels
            .get(&id)
            .map(|c| payloads::channel(c, st))
            .unwrap_or(Value::Null);
        if changed_archive {
            super::gateway::thread_update(st, id);
        }
        self.model::<model::GuildChannel>(st, r, v)
    }

    fn open_dm(&self, st: &mut State, r: &Req) -> Reply {
        if let Some(retry_after) = st.rate.dm_open() {
            return Reply {
                status: 429,
                body: Some(json!({
                    "message": "You are opening direct messages too fast.",
                    "code": 40003,
                    "retry_after": retry_after,
                    "global": false,
                })),
                headers: Vec::new(),
            };
        }
        let recipient = match r.body().get("recipient_id") {
            Some(Value::String(s)) => s.parse::<u64>().ok(),
            Some(Value::Number(n)) => n.as_u64(),
            _ => None,
        };
        let Some(user) = recipient.filter(|u| st.users.contains_key(u)) else {
            st.violation(&r.label, "/recipient_id", "unknown user");
            return error(400, 50033, "Invalid Recipient(s)");
        };
        let existing = st
            .channels
            .values()
            .find(|c| c.recipient == Some(user))
            .map(|c| c.id);
        let id = match existing {
            Some(id) => id,
            None => {
                let id = st.next_id();
                st.channels.insert(
                    id,
                    ChannelRec {
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
        };
        let v = st
            .channels
            .get(&id)
            .map(|c| payloads::channel(c, st))
            .unwrap_or(Value::Null);
        self.model::<model::PrivateChannel>(st, r, v)
    }

    fn callback(&self, st: &mut State, r: &Req) -> Reply {
        let id = r.id("interaction_id");
        let Some(rec) = st.interactions.get(&id) else {
            st.violation(&r.label, "", "unknown interaction");
            return error(404, 10062, "Unknown interaction");
        };
        if rec.token != r.param("interaction_token") {
            st.violation(&r.label, "", "interaction token does not match");
            return error(401, 50027, "Invalid Webhook Token");
        }
        if rec.callback.is_some() {
            // Delivered to several processes (overlapping shards), each may answer: Discord
            // takes the first and tells the others 40060, which is no fault of theirs.
            if !st.lost_acks.contains(&id) && rec.delivered_to.len() <= 1 {
                st.violation(
                    &r.label,
                    "",
                    "second acknowledgement of the same interaction",
                );
            }
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        let after = rec.pushed.elapsed();
        if rec.late {
            return error(404, 10062, "Unknown interaction");
        }
        if after > st.ack_deadline {
            st.violation(
                &r.label,
                "",
                format!(
                    "acknowledged after {} ms, deadline {} ms",
                    after.as_millis(),
                    st.ack_deadline.as_millis()
                ),
            );
            return error(404, 10062, "Unknown interaction");
        }
        let (kind_of, channel_id, component_message) = (rec.kind, rec.channel_id, rec.message_id);
        let body = r.body().clone();
        let kind = body.get("type").and_then(Value::as_u64).unwrap_or(0);
        if !kind_of.accepts(kind) {
            st.violation(
                &r.label,
                "/type",
                format!("callback type {kind} is not valid for a {kind_of:?} interaction"),
            );
            return error(400, 50035, "Invalid Form Body");
        }
        let data = body.get("data").cloned().unwrap_or(Value::Null);
        let files = self.accept_files(st, r);
        if matches!(kind, 4 | 7) {
            checks::message_payload(st, &r.label, "/data", &data, &files);
        }
        let allowed = match kind {
            4 => Some(checks::RESPONSE_FLAGS),
            5 => Some(checks::DEFERRED_FLAGS),
            _ => None,
        };
        if let Some(allowed) = allowed {
            if checks::creation_flags(st, &r.label, "/data/flags", &data, allowed).is_err() {
                return error(400, 50035, "Invalid Form Body");
            }
        }
        if kind == 9 {
            checks::custom_id(st, &r.label, "/data/custom_id", &data);
        }
        if kind == 8 {
            checks::autocomplete_result(st, &r.label, &data);
        }
        // An ephemeral answer is only the user's: it neither reopens nor is refused by an
        // archived thread (Discord does not document it; the fake takes the lenient side).
        let ephemeral = data.get("flags").and_then(Value::as_u64).unwrap_or(0) & 64 != 0;
        let refused = match kind {
            4 | 5 if ephemeral => None,
            4 | 5 => may_answer_in(st, channel_id),
            7 => may_edit(
                st,
                component_message
                    .and_then(|m| st.message(m))
                    .map_or(0, |m| m.channel_id),
            ),
            _ => None,
        };
        if let Some(refused) = refused {
            return refused;
        }
        let original = match kind {
            4 | 5 => {
                let mid = st.next_id();
                let mut m = Message {
                    id: mid,
                    channel_id,
                    author_id: st.bot_user_id,
                    content: String::new(),
                    embeds: Vec::new(),
                    components: Vec::new(),
                    attachments: Vec::new(),
                    flags: 0,
                    interaction_id: Some(id),
                    webhook_id: Some(st.application_id),
                    edits: 0,
                    deleted: false,
                    pinged_users: Vec::new(),
                    pinged_roles: Vec::new(),
                    pinged_everyone: false,
                };
                if kind == 4 {
                    apply_body(&mut m, &data, files.clone(), true);
                } else {
                    // Deferred: "thinking…" until the original response is edited.
                    m.flags = (data.get("flags").and_then(Value::as_u64).unwrap_or(0) & 64) | 128;
                }
                st.messages.push(m);
                Some(mid)
            }
            6 => component_message,
            7 => {
                if let Some(m) = component_message.and_then(|mid| st.message_mut(mid)) {
                    apply_body(m, &data, files.clone(), false);
                }
                component_message
            }
            _ => None,
        };
        if let Some(rec) = st.interactions.get_mut(&id) {
            rec.callback = Some(Callback {
                kind,
                data,
                files: files.into_iter().map(|(_, f)| f).collect(),
                after,
            });
            rec.original = original;
        }
        no_content()
    }

    fn webhook(&self, st: &mut State, r: &Req) -> Reply {
        if r.id("webhook_id") != st.application_id {
            st.violation(&r.label, "", "webhook id is not the application id");
            return error(404, 10015, "Unknown Webhook");
        }
        let token = r.param("webhook_token");
        let Some(rec) = st.interactions.values().find(|i| i.token == token).cloned() else {
            st.violation(&r.label, "", "no interaction has this token");
            return error(404, 10015, "Unknown Webhook");
        };
        // "Interaction tokens are valid for 15 minutes", on the fake's clock.
        if st.now() - rec.created >= super::state::INTERACTION_TOKEN_SECS {
            st.violation(&r.label, "", "interaction token used after 15 minutes");
            return error(401, 50027, "Invalid Webhook Token");
        }
        if rec.callback.is_none() {
            st.violation(
                &r.label,
                "",
                "webhook used before the interaction was acknowledged",
            );
            return error(404, 10015, "Unknown Webhook");
        }
        if st.deleted_channels.contains(&rec.channel_id) {
            return error(404, 10003, "Unknown Channel");
        }
        let target = match r.template.as_str() {
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original" => rec.original,
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}" => {
                let mid = r.id("message_id");
                (rec.original == Some(mid) || rec.followups.contains(&mid)).then_some(mid)
            }
            "/webhooks/{webhook_id}/{webhook_token}" if r.method == "POST" => {
                let files = self.accept_files(st, r);
                checks::message_payload(st, &r.label, "", r.body(), &files);
                // "When using this endpoint directly after responding to an interaction with
                // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit
                // Original Interaction Response … The ephemeral flag will be ignored":
                // a private follow-up after a public deferral lands in public. Deprecated, so
                // a bot relying on it is a violation as well.
                let loading = rec
                    .original
                    .filter(|_| rec.callback.as_ref().is_some_and(|c| c.kind == 5))
                    .filter(|m| {
                        st.message(*m)
                            .is_some_and(|m| !m.deleted && m.flags & 128 != 0)
                    });
                if let Some(mid) = loading {
                    st.violation(
                        &r.label,
                        "",
                        "a follow-up straight after a deferred answer edits that answer \
                         (ephemeral flag ignored; deprecated): use Edit Original Interaction \
                         Response",
                    );
                    if let Some(m) = st.message_mut(mid) {
                        let ephemeral = m.flags & 64;
                        apply_body(m, r.body(), files, false);
                        m.flags = (m.flags & !(64 | 128)) | ephemeral;
                    }
                    return self.message_reply(st, r, mid);
                }
                if checks::creation_flags(st, &r.label, "/flags", r.body(), checks::FOLLOWUP_FLAGS)
                    .is_err()
                {
                    return error(400, 50035, "Invalid Form Body");
                }
                let ephemeral =
                    r.body().get("flags").and_then(Value::as_u64).unwrap_or(0) & 64 != 0;
                if let Some(refused) = (!ephemeral)
                    .then(|| may_answer_in(st, rec.channel_id))
                    .flatten()
                {
                    return refused;
                }
                let mid = st.next_id();
                let mut m = Message {
                    id: mid,
                    channel_id: rec.channel_id,
                    author_id: st.bot_user_id,
                    content: String::new(),
                    embeds: Vec::new(),
                    components: Vec::new(),
                    attachments: Vec::new(),
                    flags: 0,
                    interaction_id: Some(rec.id),
                    webhook_id: Some(st.application_id),
                    edits: 0,
                    deleted: false,
                    pinged_users: Vec::new(),
                    pinged_roles: Vec::new(),
                    pinged_everyone: false,
                };
                apply_body(&mut m, r.body(), files, true);
                st.messages.push(m);
                if let Some(i) = st.interactions.get_mut(&rec.id) {
                    i.followups.push(mid);
                }
                return self.message_reply(st, r, mid);
            }
            _ => {
                st.violation(&r.label, "", "webhook route not served by the fake");
                return error(404, 0, "404: Not Found");
            }
        };
        let Some(mid) = target.filter(|m| st.message(*m).is_some()) else {
            st.violation(&r.label, "", "unknown interaction message");
            return error(404, 10008, "Unknown Message");
        };
        match r.method.as_str() {
            "GET" => self.message_reply(st, r, mid),
            "PATCH" => {
                let files = self.accept_files(st, r);
                checks::message_payload(st, &r.label, "", r.body(), &files);
                // An ephemeral answer is the clicker's own, not part of the thread's history:
                // the fake lets it change in an archived thread (Discord does not document it).
                let channel = st
                    .message(mid)
                    .filter(|m| !m.ephemeral())
                    .map_or(0, |m| m.channel_id);
                if let Some(refused) = may_edit(st, channel) {
                    return refused;
                }
                if let Some(m) = st.message_mut(mid) {
                    apply_body(m, r.body(), files, false);
                    m.flags &= !128;
                }
                self.message_reply(st, r, mid)
            }
            _ => {
                if let Some(m) = st.message_mut(mid) {
                    m.deleted = true;
                }
                no_content()
            }
        }
    }

    /// Gives uploaded files their attachment ids and checks their size and format.
    fn accept_files(&self, st: &mut State, r: &Req) -> Vec<(u64, Attachment)> {
        let mut out = Vec::new();
        for (index, f) in &r.files {
            let mut a = f.clone();
            a.id = st.next_id();
            checks::file(st, &r.label, *index, &mut a);
            if st.lean {
                a.bytes = Vec::new();
            }
            out.push((*index, a));
        }
        out
    }
}

/// Applies a message body (create or edit) to a stored message.
fn apply_body(m: &mut Message, body: &Value, files: Vec<(u64, Attachment)>, creating: bool) {
    if let Some(c) = body.get("content") {
        m.content = c.as_str().unwrap_or("").to_string();
    }
    if let Some(e) = body.get("embeds") {
        m.embeds = e.as_array().cloned().unwrap_or_default();
    }
    if let Some(c) = body.get("components") {
        m.components = c.as_array().cloned().unwrap_or_default();
    }
    if let Some(f) = body.get("flags").and_then(Value::as_u64) {
        m.flags = if creating {
            f
        } else {
            checks::edited_flags(m.flags, f)
        };
    }
    // `attachments` lists what the message keeps: existing ids, or `files[N]` indexes.
    let kept = match body.get("attachments").and_then(Value::as_array) {
        Some(list) => list
            .iter()
            .filter_map(|a| {
                let id = match a.get("id") {
                    Some(Value::String(s)) => s.parse::<u64>().ok(),
                    Some(Value::Number(n)) => n.as_u64(),
                    _ => None,
                }?;
                let kept = m.attachments.iter().find(|x| x.id == id).cloned();
                // A new file: its entry carries its alt text.
                kept.or_else(|| {
                    let (_, f) = files.iter().find(|(i, _)| *i == id)?;
                    let mut f = f.clone();
                    f.description = a
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    Some(f)
                })
            })
            .collect(),
        None if creating => files.into_iter().map(|(_, f)| f).collect(),
        None => {
            let mut all = m.attachments.clone();
            all.extend(files.into_iter().map(|(_, f)| f));
            all
        }
    };
    m.attachments = kept;
    if creating {
        let (users, roles, everyone) =
            super::perms::pings(&m.content, body.get("allowed_mentions"));
        m.pinged_users = users;
        m.pinged_roles = roles;
        m.pinged_everyone = everyone;
    } else {
        m.edits += 1;
    }
}

/// Discord's answer when the bot may not post in `channel` (not a violation: a server may
/// deny the bot anything, and the bot must cope). A message in an archived thread reopens it,
/// unless the thread is locked: without Manage Threads nobody creates or edits messages in a
/// locked thread (160005), archived or not.
fn may_send(st: &mut State, channel: u64, files: bool) -> Option<Reply> {
    let c = st.channels.get(&channel)?;
    c.guild_id?;
    let thread = c.kind != ChannelKind::Text;
    let mut need = if thread {
        perms::SEND_MESSAGES_IN_THREADS
    } else {
        perms::SEND_MESSAGES
    };
    if files {
        need |= perms::ATTACH_FILES;
    }
    let have = st.channel_permissions(st.bot_user_id, channel);
    if let Some(refused) = lacking(have, need) {
        return Some(refused);
    }
    may_answer_in(st, channel)
}

/// A new message in `channel` (a post, an interaction's answer or follow-up): refused in a
/// locked thread (160005) without Manage Threads; an archived thread is unarchived by it
/// (unless the guild is at its cap of active threads: 160006).
fn may_answer_in(st: &mut State, channel: u64) -> Option<Reply> {
    let c = st.channels.get(&channel)?;
    if c.kind == ChannelKind::Text || c.kind == ChannelKind::Dm {
        return None;
    }
    let have = st.channel_permissions(st.bot_user_id, channel);
    if c.locked && have & perms::MANAGE_THREADS == 0 {
        return Some(error(403, 160005, "Thread is locked"));
    }
    if c.archived {
        if st.thread_cap_reached() {
            return Some(error(
                400,
                160006,
                "Maximum number of active threads reached",
            ));
        }
        if let Some(c) = st.channels.get_mut(&channel) {
            c.archived = false;
        }
        super::gateway::thread_update(st, channel);
    }
    touch(st, channel);
    None
}

/// Discord's "Add Thread Member": only a thread (50024), not archived (50083), where the bot
/// may send messages (50001/50013; a locked one needs Manage Threads: 160005), and only a
/// member of the guild (10007). 204, also for a member already in the thread.
fn add_thread_member(st: &mut State, r: &Req) -> Reply {
    let thread = r.id("channel_id");
    let Some(c) = st.channels.get(&thread) else {
        return unknown_channel(st, r);
    };
    if !matches!(
        c.kind,
        ChannelKind::PublicThread | ChannelKind::PrivateThread
    ) {
        st.violation(&r.label, "", "not a thread");
        return error(400, 50024, "Cannot execute action on this channel type");
    }
    let (archived, locked) = (c.archived, c.locked);
    let have = st.channel_permissions(st.bot_user_id, thread);
    if let Some(refused) = lacking(have, perms::SEND_MESSAGES_IN_THREADS) {
        return refused;
    }
    if locked && have & perms::MANAGE_THREADS == 0 {
        return error(403, 160005, "Thread is locked");
    }
    if archived {
        return error(400, 50083, "Thread is archived");
    }
    let user = r.id("user_id");
    if st.users.get(&user).is_none_or(|u| u.left_guild) {
        return error(404, 10007, "Unknown Member");
    }
    st.thread_members.entry(thread).or_default().insert(user);
    no_content()
}

/// Editing a message in `channel`: refused in an archived thread (400 / 50083), and in a
/// locked one without Manage Threads (160005).
fn may_edit(st: &mut State, channel: u64) -> Option<Reply> {
    let c = st.channels.get(&channel)?;
    if c.kind == ChannelKind::Text || c.kind == ChannelKind::Dm {
        return None;
    }
    let have = st.channel_permissions(st.bot_user_id, channel);
    if c.archived && st.does(Behaviour::ArchivedThreadsRefuseEdits) {
        return Some(error(400, 50083, "Thread is archived"));
    }
    if c.locked && have & perms::MANAGE_THREADS == 0 {
        return Some(error(403, 160005, "Thread is locked"));
    }
    None
}

/// Activity in a thread (a message): its auto-archive timer starts again.
fn touch(st: &mut State, channel: u64) {
    let now = st.now();
    if let Some(c) = st.channels.get_mut(&channel) {
        c.last_activity = now;
    }
}

/// A request naming a channel that was deleted (404 / 10003), or one of the guild the bot was
/// removed from (403 / 50001): not violations, the bot could not have known.
fn gone(st: &State, r: &Req) -> Option<Reply> {
    if let Some(c) = r
        .params
        .get("channel_id")
        .and_then(|v| v.parse::<u64>().ok())
    {
        if st.deleted_channels.contains(&c) {
            return Some(error(404, 10003, "Unknown Channel"));
        }
        let in_guild = st
            .channels
            .get(&c)
            .is_some_and(|c| c.guild_id == Some(st.guild_id));
        if st.removed_from_guild && in_guild {
            return Some(error(403, 50001, "Missing Access"));
        }
    }
    let guild = r.params.get("guild_id").and_then(|v| v.parse::<u64>().ok());
    if st.removed_from_guild && guild == Some(st.guild_id) {
        return Some(error(403, 50001, "Missing Access"));
    }
    None
}

/// 50001 without VIEW_CHANNEL, 50013 without one of `need`; `None` when all are there.
fn lacking(have: u64, need: u64) -> Option<Reply> {
    if have & perms::VIEW_CHANNEL == 0 {
        return Some(error(403, 50001, "Missing Access"));
    }
    (have & need != need).then(|| error(403, 50013, "Missing Permissions"))
}

fn unknown_channel(st: &mut State, r: &Req) -> Reply {
    st.violation(&r.label, "", "unknown channel");
    error(404, 10003, "Unknown Channel")
}

/// Routes whose spec body is optional (`POST` with nothing to say).
fn route_body_optional(template: &str) -> bool {
    template.ends_with("/typing")
        || template.ends_with("/threads") && template.contains("/messages/")
}

fn header(parts: &hyper::http::request::Parts, name: &str) -> Option<String> {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Query pairs in order; serenity writes `?&limit=50`, so empty pieces are skipped.
fn query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (p.to_string(), String::new()),
        })
        .collect()
}

type Files = Vec<(u64, Attachment)>;

fn parse_multipart(content_type: &str, bytes: &[u8]) -> Result<(Option<Value>, Files), String> {
    let boundary = multipart::boundary(content_type).ok_or("no boundary")?;
    let parts = multipart::parse(bytes, &boundary)?;
    let mut json = None;
    let mut files = Vec::new();
    for p in parts {
        if p.name == "payload_json" {
            let v: Value = serde_json::from_slice(&p.data)
                .map_err(|e| format!("payload_json is not JSON: {e}"))?;
            json = Some(v);
        } else if let Some(index) = p
            .name
            .strip_prefix("files[")
            .and_then(|s| s.strip_suffix(']'))
        {
            let index: u64 = index
                .parse()
                .map_err(|_| format!("bad file part name {}", p.name))?;
            files.push((
                index,
                Attachment {
                    id: 0,
                    filename: p.filename.unwrap_or_default(),
                    content_type: p.content_type,
                    bytes: p.data,
                    dimensions: None,
                    description: None,
                },
            ));
        } else {
            return Err(format!("unexpected part {:?}", p.name));
        }
    }
    Ok((json, files))
}
