//! Discord's limits that the OpenAPI schemas do not spell out (or spell out looser).

use super::state::{Attachment, State};
use serde_json::Value;

pub const MAX_CONTENT: usize = 2000;
pub const MAX_CUSTOM_ID: usize = 100;
pub const MAX_ROWS: usize = 5;
pub const MAX_PER_ROW: usize = 5;
pub const MAX_OPTIONS: usize = 25;
pub const MAX_FILE: usize = 10 * 1024 * 1024;

/// Message flags (Discord's "Message Flags" table).
pub const SUPPRESS_EMBEDS: u64 = 1 << 2;
pub const EPHEMERAL: u64 = 1 << 6;
pub const SUPPRESS_NOTIFICATIONS: u64 = 1 << 12;
pub const IS_VOICE_MESSAGE: u64 = 1 << 13;
pub const IS_COMPONENTS_V2: u64 = 1 << 15;
/// What Create Message may set ("only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS,
/// IS_VOICE_MESSAGE, and IS_COMPONENTS_V2 can be set").
pub const CREATE_FLAGS: u64 =
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2;
/// An interaction's message response (callback type 4): the same, and EPHEMERAL.
pub const RESPONSE_FLAGS: u64 = CREATE_FLAGS | EPHEMERAL;
/// A deferred response (type 5): "the only valid message flag you may use is EPHEMERAL".
pub const DEFERRED_FLAGS: u64 = EPHEMERAL;
/// A follow-up: Execute Webhook's (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS) plus EPHEMERAL and
/// IS_COMPONENTS_V2.
pub const FOLLOWUP_FLAGS: u64 =
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | EPHEMERAL | IS_COMPONENTS_V2;
/// What an edit changes: SUPPRESS_EMBEDS both ways, IS_COMPONENTS_V2 only on. Other bits are
/// "ignored without error" (a message sent silent stays silent, and one sent loud stays loud).
pub const EDIT_FLAGS: u64 = SUPPRESS_EMBEDS;

/// The `flags` of a body that creates a message, if they set only what the route allows
/// (`allowed`); anything else is a violation and the request is refused (400 / 50035).
pub fn creation_flags(
    st: &mut State,
    route: &str,
    pointer: &str,
    body: &Value,
    allowed: u64,
) -> Result<u64, ()> {
    let Some(v) = body.get("flags").filter(|v| !v.is_null()) else {
        return Ok(0);
    };
    let Some(flags) = v.as_u64() else {
        st.violation(route, pointer, format!("flags {v} is not a bitfield"));
        return Err(());
    };
    let refused = flags & !allowed;
    if refused != 0 {
        st.violation(
            route,
            pointer,
            format!("flags {flags}: bits {refused:#x} cannot be set here"),
        );
        return Err(());
    }
    Ok(flags)
}

/// A message's flags after an edit whose body says `asked` (see [`EDIT_FLAGS`]).
pub fn edited_flags(before: u64, asked: u64) -> u64 {
    (before & !EDIT_FLAGS) | (asked & EDIT_FLAGS) | (asked & IS_COMPONENTS_V2)
}

/// Content, components and file limits of a message body (create, edit, interaction response).
pub fn message_payload(
    st: &mut State,
    route: &str,
    prefix: &str,
    body: &Value,
    files: &[(u64, Attachment)],
) {
    if let Some(content) = body.get("content").and_then(Value::as_str) {
        let n = content.chars().count();
        if n > MAX_CONTENT {
            st.violation(
                route,
                &format!("{prefix}/content"),
                format!("content of {n} characters, at most {MAX_CONTENT}"),
            );
        }
    }
    if let Some(rows) = body.get("components").and_then(Value::as_array) {
        if rows.len() > MAX_ROWS {
            st.violation(
                route,
                &format!("{prefix}/components"),
                format!("{} rows, at most {MAX_ROWS}", rows.len()),
            );
        }
        for (i, row) in rows.iter().enumerate() {
            let at = format!("{prefix}/components/{i}");
            if row.get("type").and_then(Value::as_u64) != Some(1) {
                continue;
            }
            let inner = row
                .get("components")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            if inner.len() > MAX_PER_ROW {
                st.violation(
                    route,
                    &format!("{at}/components"),
                    format!("{} components in a row, at most {MAX_PER_ROW}", inner.len()),
                );
            }
            for (j, c) in inner.iter().enumerate() {
                let at = format!("{at}/components/{j}");
                custom_id(st, route, &format!("{at}/custom_id"), c);
                if let Some(options) = c.get("options").and_then(Value::as_array) {
                    if options.len() > MAX_OPTIONS {
                        st.violation(
                            route,
                            &format!("{at}/options"),
                            format!("{} options, at most {MAX_OPTIONS}", options.len()),
                        );
                    }
                }
            }
        }
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        embed_limits(st, route, prefix, embeds);
    }
    if files.len() > 10 {
        st.violation(route, "", format!("{} files, at most 10", files.len()));
    }
}

/// Discord's embed limits (`resources/message.mdx`, "Embed Limits"): up to 10 embeds; title
/// 256, description 4096, 25 fields of name 256 and value 1024, footer 2048, author 256
/// characters, trimmed; and 6000 characters in all of them together.
fn embed_limits(st: &mut State, route: &str, prefix: &str, embeds: &[Value]) {
    if embeds.len() > 10 {
        st.violation(
            route,
            &format!("{prefix}/embeds"),
            format!("{} embeds, at most 10", embeds.len()),
        );
    }
    let len = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map_or(0, |s| s.trim().chars().count())
    };
    let mut total = 0;
    let mut check = |st: &mut State, at: String, n: usize, max: usize| {
        total += n;
        if n > max {
            st.violation(route, &at, format!("{n} characters, at most {max}"));
        }
    };
    for (i, e) in embeds.iter().enumerate() {
        let at = format!("{prefix}/embeds/{i}");
        check(st, format!("{at}/title"), len(e.get("title")), 256);
        check(
            st,
            format!("{at}/description"),
            len(e.get("description")),
            4096,
        );
        check(
            st,
            format!("{at}/footer/text"),
            len(e.pointer("/footer/text")),
            2048,
        );
        check(
            st,
            format!("{at}/author/name"),
            len(e.pointer("/author/name")),
            256,
        );
        let fields = e
            .get("fields")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        if fields.len() > 25 {
            st.violation(
                route,
                &format!("{at}/fields"),
                format!("{} fields, at most 25", fields.len()),
            );
        }
        for (j, f) in fields.iter().enumerate() {
            check(st, format!("{at}/fields/{j}/name"), len(f.get("name")), 256);
            check(
                st,
                format!("{at}/fields/{j}/value"),
                len(f.get("value")),
                1024,
            );
        }
    }
    if total > 6000 {
        st.violation(
            route,
            &format!("{prefix}/embeds"),
            format!("{total} characters in the embeds, at most 6000"),
        );
    }
}

/// A component's or modal's `custom_id` length.
pub fn custom_id(st: &mut State, route: &str, pointer: &str, component: &Value) {
    if let Some(id) = component.get("custom_id").and_then(Value::as_str) {
        let n = id.chars().count();
        if n > MAX_CUSTOM_ID {
            st.violation(
                route,
                pointer,
                format!("custom_id of {n} characters, at most {MAX_CUSTOM_ID}"),
            );
        }
    }
}

/// File size, and PNG files must decode as PNG (their size is kept for the attachment object).
pub fn file(st: &mut State, route: &str, index: u64, a: &mut Attachment) {
    let at = format!("files[{index}]");
    if a.bytes.len() > MAX_FILE {
        st.violation(
            route,
            &at,
            format!("{} bytes, at most {MAX_FILE}", a.bytes.len()),
        );
    }
    let png_name = a.filename.to_ascii_lowercase().ends_with(".png");
    let png_type = a.content_type.as_deref() == Some("image/png");
    if png_name || png_type {
        match image::load_from_memory_with_format(&a.bytes, image::ImageFormat::Png) {
            Ok(img) => a.dimensions = Some((img.width(), img.height())),
            Err(e) => st.violation(
                route,
                &at,
                format!("{} is not a valid PNG: {e}", a.filename),
            ),
        }
        if png_name != png_type {
            st.violation(
                route,
                &at,
                format!("{} sent as {:?}", a.filename, a.content_type),
            );
        }
    }
}

/// Discord's locales (`reference#locales`): the only keys a localization map may have.
pub const LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

/// A chat command's or option's name: 1 to 32 letters, digits, `-` or `_`, and lower case
/// where the letter has a lower case (`interactions/application-commands#naming`).
fn name_ok(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && name.to_lowercase() == name
}

fn description_ok(d: &str) -> bool {
    (1..=100).contains(&d.chars().count())
}

/// Registration rules the OpenAPI schema does not carry: names and their localizations follow
/// Discord's pattern and are lower case, localization keys are Discord locales, option names
/// (and each locale's localized names) are distinct, required options come before optional
/// ones, descriptions are 1 to 100 characters.
pub fn command(st: &mut State, route: &str, pointer: &str, cmd: &Value) {
    // Only chat input commands (type 1, the default) have these rules.
    if cmd.get("type").and_then(Value::as_u64).unwrap_or(1) != 1 {
        return;
    }
    named(st, route, pointer, cmd);
    let options = cmd
        .get("options")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    options_rules(st, route, pointer, &options);
}

fn named(st: &mut State, route: &str, pointer: &str, item: &Value) {
    let name = item.get("name").and_then(Value::as_str).unwrap_or("");
    if !name_ok(name) {
        st.violation(
            route,
            &format!("{pointer}/name"),
            format!("{name:?} is not a valid name"),
        );
    }
    let description = item
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !description_ok(description) {
        st.violation(
            route,
            &format!("{pointer}/description"),
            "a description has 1 to 100 characters",
        );
    }
    for (field, check) in [
        ("name_localizations", name_ok as fn(&str) -> bool),
        ("description_localizations", description_ok),
    ] {
        let Some(map) = item.get(field).and_then(Value::as_object) else {
            continue;
        };
        for (locale, value) in map {
            if !LOCALES.contains(&locale.as_str()) {
                st.violation(
                    route,
                    &format!("{pointer}/{field}/{locale}"),
                    "not one of Discord's locales",
                );
            }
            if !value.as_str().is_some_and(check) {
                st.violation(
                    route,
                    &format!("{pointer}/{field}/{locale}"),
                    "invalid value",
                );
            }
        }
    }
}

fn options_rules(st: &mut State, route: &str, pointer: &str, options: &[Value]) {
    let mut seen_optional = false;
    let mut names = std::collections::BTreeSet::new();
    let mut localized: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for (i, o) in options.iter().enumerate() {
        let at = format!("{pointer}/options/{i}");
        named(st, route, &at, o);
        let kind = o.get("type").and_then(Value::as_u64).unwrap_or(0);
        if matches!(kind, 1 | 2) {
            // Subcommands and groups: their own options follow the same rules.
            let sub = o
                .get("options")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            options_rules(st, route, &at, &sub);
            continue;
        }
        let name = o
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if !names.insert(name.clone()) {
            st.violation(
                route,
                &format!("{at}/name"),
                format!("option {name:?} twice"),
            );
        }
        if let Some(map) = o.get("name_localizations").and_then(Value::as_object) {
            for (locale, value) in map {
                let value = value.as_str().unwrap_or("").to_string();
                if !localized
                    .entry(locale.clone())
                    .or_default()
                    .insert(value.clone())
                {
                    st.violation(
                        route,
                        &format!("{at}/name_localizations/{locale}"),
                        format!("localized option name {value:?} twice"),
                    );
                }
            }
        }
        let required = o.get("required").and_then(Value::as_bool) == Some(true);
        if required && seen_optional {
            st.violation(
                route,
                &format!("{at}/required"),
                "a required option after an optional one",
            );
        }
        seen_optional |= !required;
        let choices = o
            .get("choices")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if choices > 0 && o.get("autocomplete").and_then(Value::as_bool) == Some(true) {
            st.violation(route, &at, "autocomplete and choices together");
        }
    }
}

/// An autocomplete answer: at most 25 choices, each name and string value 1 to 100
/// characters.
pub fn autocomplete_result(st: &mut State, route: &str, data: &Value) {
    let choices = data
        .get("choices")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if choices.len() > MAX_OPTIONS {
        st.violation(
            route,
            "/data/choices",
            format!("{} choices, at most {MAX_OPTIONS}", choices.len()),
        );
    }
    for (i, c) in choices.iter().enumerate() {
        let name = c.get("name").and_then(Value::as_str).unwrap_or("");
        if !(1..=100).contains(&name.chars().count()) {
            st.violation(
                route,
                &format!("/data/choices/{i}/name"),
                "1 to 100 characters",
            );
        }
        if let Some(v) = c.get("value").and_then(Value::as_str) {
            if !(1..=100).contains(&v.chars().count()) {
                st.violation(
                    route,
                    &format!("/data/choices/{i}/value"),
                    "1 to 100 characters",
                );
            }
        }
    }
}
