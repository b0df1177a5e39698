//! Just enough `multipart/form-data` parsing for what serenity (reqwest) sends.

/// One part of a multipart body.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// The boundary from a `Content-Type: multipart/form-data; boundary=...` header.
pub fn boundary(content_type: &str) -> Option<String> {
    content_type.split(';').map(str::trim).find_map(|p| {
        p.strip_prefix("boundary=")
            .map(|b| b.trim_matches('"').to_string())
    })
}

pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut parts = Vec::new();
    let mut rest = match find(body, &delimiter) {
        Some(i) => &body[i + delimiter.len()..],
        None => return Err("no opening boundary".into()),
    };
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or("boundary not followed by CRLF")?;
        let end = find(rest, &delimiter).ok_or("part without closing boundary")?;
        let raw = &rest[..end];
        let raw = raw.strip_suffix(b"\r\n").ok_or("part not ended by CRLF")?;
        parts.push(parse_part(raw)?);
        rest = &rest[end + delimiter.len()..];
    }
}

fn parse_part(raw: &[u8]) -> Result<Part, String> {
    let split = find(raw, b"\r\n\r\n").ok_or("part without header end")?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| "part headers are not UTF-8")?;
    let data = raw[split + 4..].to_vec();
    let mut name = None;
    let mut filename = None;
    let mut content_type = None;
    for line in head.split("\r\n") {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "content-disposition" => {
                for attr in value.split(';').map(str::trim) {
                    if let Some(v) = attr.strip_prefix("name=") {
                        name = Some(v.trim_matches('"').to_string());
                    } else if let Some(v) = attr.strip_prefix("filename=") {
                        filename = Some(v.trim_matches('"').to_string());
                    }
                }
            }
            "content-type" => content_type = Some(value.trim().to_string()),
            _ => {}
        }
    }
    Ok(Part {
        name: name.ok_or("part without a name")?,
        filename,
        content_type,
        data,
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
