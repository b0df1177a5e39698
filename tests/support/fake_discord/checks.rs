//! Discord's limits that the OpenAPI schemas do not spell out (or spell out looser).

use super::state::{Attachment, State};
use serde_json::Value;

pub const MAX_CONTENT: usize = 2000;
pub const MAX_CUSTOM_ID: usize = 100;
pub const MAX_ROWS: usize = 5;
pub const MAX_PER_ROW: usize = 5;
pub const MAX_OPTIONS: usize = 25;
pub const MAX_FILE: usize = 10 * 1024 * 1024;

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
    if files.len() > 10 {
        st.violation(route, "", format!("{} files, at most 10", files.len()));
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
