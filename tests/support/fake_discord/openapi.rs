//! Discord's OpenAPI description: route matching and a small JSON Schema validator for the
//! keywords the spec uses (no heavy jsonschema crate).

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One schema problem: where in the body (JSON pointer) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaIssue {
    pub pointer: String,
    pub message: String,
}

/// Messages of issues that say "wrong kind of thing" (type, const, enum) rather than "right kind,
/// bad value": a union branch failing on these is not the branch the sender meant.
fn is_mismatch(issue: &SchemaIssue) -> bool {
    issue.message.starts_with("expected ") || issue.message.contains(" is not one of ")
}

/// A request matched against the spec.
pub struct MatchedRoute<'a> {
    /// The spec's path template, e.g. `/channels/{channel_id}/messages`.
    pub template: &'a str,
    /// Path parameters by name.
    pub params: HashMap<String, String>,
    operation: &'a Value,
    path_item: &'a Value,
}

#[derive(Debug, PartialEq, Eq)]
pub enum RouteError {
    /// No path template matches.
    UnknownPath,
    /// The path exists but not with this method.
    MethodNotAllowed(String),
}

pub struct Spec {
    doc: Value,
    /// Path templates split in segments; `None` is a `{param}`.
    templates: Vec<(String, Vec<Segment>)>,
}

enum Segment {
    Literal(String),
    Param(String),
}

/// Where the spec lives: `$DISCORD_API_SPEC`, else `shared/discord-api-spec/openapi.json` in a
/// folder above the checkout (the team layout puts `shared/` beside the worktrees).
pub fn spec_path() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("DISCORD_API_SPEC") {
        return Some(PathBuf::from(p));
    }
    Some(vendored_spec_path()).filter(|p| p.exists())
}

/// The copy kept in the repository, so a fresh clone needs nothing beside it.
pub fn vendored_spec_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/discord-api-spec/openapi.json")
}

/// The team's shared copy, when a `shared/` folder sits above the checkout.
pub fn shared_spec_path() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/discord-api-spec/openapi.json"))
        .find(|p| p.exists())
}

impl Spec {
    pub fn load() -> Result<Spec, String> {
        let path = spec_path().ok_or(
            "tests/support/discord-api-spec/openapi.json is missing (or set DISCORD_API_SPEC)",
        )?;
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Spec::from_value(doc))
    }

    pub fn from_value(doc: Value) -> Spec {
        let mut templates = Vec::new();
        if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
            for template in paths.keys() {
                let segments = template
                    .trim_start_matches('/')
                    .split('/')
                    .map(
                        |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                            Some(name) => Segment::Param(name.to_string()),
                            None => Segment::Literal(s.to_string()),
                        },
                    )
                    .collect();
                templates.push((template.clone(), segments));
            }
        }
        Spec { doc, templates }
    }

    /// Matches a path below `/api/v10` (no query) and a method. Literal segments win over
    /// parameters (`/users/@me` over `/users/{user_id}`).
    pub fn find(&self, path: &str, method: &str) -> Result<MatchedRoute<'_>, RouteError> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut best: Option<(usize, &str, HashMap<String, String>)> = None;
        for (template, segments) in &self.templates {
            if segments.len() != parts.len() {
                continue;
            }
            let mut params = HashMap::new();
            let mut literals = 0;
            let ok = segments.iter().zip(&parts).all(|(seg, part)| match seg {
                Segment::Literal(l) => {
                    literals += 1;
                    l == part
                }
                Segment::Param(name) => {
                    params.insert(name.clone(), (*part).to_string());
                    !part.is_empty()
                }
            });
            if ok && best.as_ref().is_none_or(|(n, _, _)| literals > *n) {
                best = Some((literals, template, params));
            }
        }
        let (_, template, params) = best.ok_or(RouteError::UnknownPath)?;
        let path_item = &self.doc["paths"][template];
        let operation = &path_item[method.to_ascii_lowercase()];
        if !operation.is_object() {
            return Err(RouteError::MethodNotAllowed(template.to_string()));
        }
        Ok(MatchedRoute {
            template,
            params,
            operation,
            path_item,
        })
    }

    /// Problems with the path parameters (each has a schema, mostly snowflakes).
    pub fn check_params(&self, route: &MatchedRoute<'_>) -> Vec<SchemaIssue> {
        let mut out = Vec::new();
        let declared = route.path_item["parameters"]
            .as_array()
            .into_iter()
            .chain(route.operation["parameters"].as_array())
            .flatten();
        for p in declared {
            if p["in"] != "path" {
                continue;
            }
            let Some(name) = p["name"].as_str() else {
                continue;
            };
            if let Some(v) = route.params.get(name) {
                let issues = self.validate(&p["schema"], &Value::String(v.clone()));
                out.extend(issues.into_iter().map(|i| SchemaIssue {
                    pointer: format!("{{{name}}}"),
                    message: i.message,
                }));
            }
        }
        out
    }

    /// Problems with the query string: unknown parameters, values that fit no schema. Values are
    /// text, so each is tried as a string, a number and a boolean.
    pub fn check_query(
        &self,
        route: &MatchedRoute<'_>,
        query: &[(String, String)],
    ) -> Vec<SchemaIssue> {
        let declared: Vec<&Value> = route.path_item["parameters"]
            .as_array()
            .into_iter()
            .chain(route.operation["parameters"].as_array())
            .flatten()
            .filter(|p| p["in"] == "query")
            .collect();
        let mut out = Vec::new();
        for (name, raw) in query {
            let pointer = format!("?{name}");
            let Some(param) = declared.iter().find(|p| p["name"] == name.as_str()) else {
                out.push(SchemaIssue {
                    pointer,
                    message: "unknown query parameter".into(),
                });
                continue;
            };
            let mut candidates = vec![Value::String(raw.clone())];
            if let Ok(n) = raw.parse::<i64>() {
                candidates.push(Value::from(n));
            } else if let Ok(x) = raw.parse::<f64>() {
                candidates.push(Value::from(x));
            }
            if let Ok(b) = raw.parse::<bool>() {
                candidates.push(Value::Bool(b));
            }
            let fits = candidates
                .iter()
                .any(|c| self.validate(&param["schema"], c).is_empty());
            if !fits {
                let why = self.validate(&param["schema"], &candidates[candidates.len() - 1]);
                let message = why
                    .first()
                    .map_or("invalid value".to_string(), |i| i.message.clone());
                out.push(SchemaIssue { pointer, message });
            }
        }
        out
    }

    /// The request body schema for a content type (`application/json`, `multipart/form-data`),
    /// or `None` when the operation takes no body of that type.
    pub fn body_schema<'a>(
        &'a self,
        route: &MatchedRoute<'a>,
        content_type: &str,
    ) -> Option<&'a Value> {
        let content = &route.operation["requestBody"]["content"];
        content.get(content_type).map(|c| &c["schema"])
    }

    /// Whether the operation declares a request body at all.
    pub fn takes_body(&self, route: &MatchedRoute<'_>) -> bool {
        route.operation.get("requestBody").is_some()
    }

    pub fn validate(&self, schema: &Value, value: &Value) -> Vec<SchemaIssue> {
        let mut out = Vec::new();
        self.check(schema, value, "", &mut out, 0);
        out
    }

    fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        self.doc.pointer(pointer)
    }

    fn check(
        &self,
        schema: &Value,
        v: &Value,
        ptr: &str,
        out: &mut Vec<SchemaIssue>,
        depth: usize,
    ) {
        let mut issue = |message: String| {
            out.push(SchemaIssue {
                pointer: ptr.to_string(),
                message,
            })
        };
        if depth > 64 {
            return issue("schema nesting too deep".into());
        }
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return issue("no value allowed here".into()),
            Value::Object(s) => s,
            _ => return,
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            match self.resolve(r) {
                Some(target) => self.check(target, v, ptr, out, depth + 1),
                None => out.push(SchemaIssue {
                    pointer: ptr.to_string(),
                    message: format!("unresolvable $ref {r}"),
                }),
            }
        }
        let mut issue = |message: String| {
            out.push(SchemaIssue {
                pointer: ptr.to_string(),
                message,
            })
        };
        let format = s.get("format").and_then(Value::as_str);
        let snowflake = format == Some("snowflake")
            || s.get("pattern").and_then(Value::as_str) == Some(SNOWFLAKE_PATTERN);
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            let lenient = |ty: &str| match (ty, v) {
                // Discord takes 64-bit ids both as strings and as numbers.
                ("string", Value::Number(n)) if snowflake => n.is_u64(),
                ("integer", Value::String(s)) if format == Some("int64") => is_digits(s),
                _ => false,
            };
            if !types.iter().any(|ty| type_matches(ty, v) || lenient(ty)) {
                return issue(format!("expected {}, got {}", types.join(" or "), kind(v)));
            }
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            if !e.iter().any(|x| json_eq(x, v)) {
                issue(format!("{v} is not one of {}", Value::Array(e.clone())));
            }
        }
        if let Some(c) = s.get("const") {
            if !json_eq(c, v) {
                issue(format!("expected {c}, got {v}"));
            }
        }
        match v {
            Value::String(text) => {
                let len = text.chars().count() as u64;
                if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
                    if len > max {
                        issue(format!("string of {len} characters, at most {max} allowed"));
                    }
                }
                if let Some(min) = s.get("minLength").and_then(Value::as_u64) {
                    if len < min {
                        issue(format!(
                            "string of {len} characters, at least {min} required"
                        ));
                    }
                }
                if snowflake && !is_digits(text) {
                    issue(format!("{text:?} is not a snowflake"));
                }
            }
            Value::Number(n) => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                if let Some(min) = s.get("minimum").and_then(Value::as_f64) {
                    if x < min {
                        issue(format!("{n} is below the minimum {min}"));
                    }
                }
                if let Some(max) = s.get("maximum").and_then(Value::as_f64) {
                    if x > max {
                        issue(format!("{n} is above the maximum {max}"));
                    }
                }
            }
            Value::Array(items) => {
                let len = items.len() as u64;
                if let Some(max) = s.get("maxItems").and_then(Value::as_u64) {
                    if len > max {
                        issue(format!("{len} items, at most {max} allowed"));
                    }
                }
                if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
                    if len < min {
                        issue(format!("{len} items, at least {min} required"));
                    }
                }
                if s.get("uniqueItems") == Some(&Value::Bool(true)) {
                    for (i, a) in items.iter().enumerate() {
                        if items[..i].iter().any(|b| json_eq(a, b)) {
                            issue(format!("item {i} repeats an earlier item"));
                        }
                    }
                }
                if let Some(item_schema) = s.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.check(item_schema, item, &format!("{ptr}/{i}"), out, depth + 1);
                    }
                }
            }
            Value::Object(map) => {
                let props = s.get("properties").and_then(Value::as_object);
                if let Some(required) = s.get("required").and_then(Value::as_array) {
                    for r in required.iter().filter_map(Value::as_str) {
                        if !map.contains_key(r) {
                            issue(format!("missing required property {r:?}"));
                        }
                    }
                }
                if let Some(max) = s.get("maxProperties").and_then(Value::as_u64) {
                    if map.len() as u64 > max {
                        issue(format!("{} properties, at most {max} allowed", map.len()));
                    }
                }
                for (key, item) in map {
                    let child = format!("{ptr}/{}", escape(key));
                    match props.and_then(|p| p.get(key)) {
                        Some(sub) => self.check(sub, item, &child, out, depth + 1),
                        None => {
                            if let Some(extra) = s.get("additionalProperties") {
                                if extra == &Value::Bool(false) {
                                    out.push(SchemaIssue {
                                        pointer: child,
                                        message: "property not allowed".into(),
                                    });
                                } else {
                                    self.check(extra, item, &child, out, depth + 1);
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        if let Some(all) = s.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.check(sub, v, ptr, out, depth + 1);
            }
        }
        for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            let Some(branches) = s.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let results: Vec<Vec<SchemaIssue>> = branches
                .iter()
                .map(|b| {
                    let mut o = Vec::new();
                    self.check(b, v, ptr, &mut o, depth + 1);
                    o
                })
                .collect();
            let matching = results.iter().filter(|r| r.is_empty()).count();
            if matching == 0 {
                // Report the branch the sender meant: fewest kind mismatches (its `type` matched),
                // then the deepest failure, then the fewest issues.
                let closest = results.into_iter().min_by_key(|r| {
                    let mismatches = r.iter().filter(|i| is_mismatch(i)).count();
                    let deepest = r
                        .iter()
                        .map(|i| i.pointer.matches('/').count())
                        .max()
                        .unwrap_or(0);
                    (mismatches, std::cmp::Reverse(deepest), r.len())
                });
                out.extend(closest.unwrap_or_default());
            } else if exactly_one && matching > 1 {
                out.push(SchemaIssue {
                    pointer: ptr.to_string(),
                    message: format!("matches {matching} branches of oneOf, exactly one expected"),
                });
            }
        }
    }
}

const SNOWFLAKE_PATTERN: &str = "^(0|[1-9][0-9]*)$";

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        _ => false,
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// JSON equality where 1 and 1.0 are the same number.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// JSON pointer escaping (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> Spec {
        Spec::from_value(json!({
            "paths": {
                "/users/@me": {"get": {}},
                "/users/{user_id}": {"get": {}, "parameters": [
                    {"name": "user_id", "in": "path", "schema": {"$ref": "#/components/schemas/Snowflake"}}
                ]},
            },
            "components": {"schemas": {
                "Snowflake": {"type": "string", "pattern": SNOWFLAKE_PATTERN, "format": "snowflake"},
                "Row": {"type": "object", "required": ["type"], "properties": {
                    "type": {"type": "integer", "const": 1},
                    "components": {"type": "array", "maxItems": 5, "items": {"$ref": "#/components/schemas/Button"}}
                }},
                "Button": {"type": "object", "required": ["type"], "properties": {
                    "type": {"const": 2},
                    "custom_id": {"type": ["string", "null"], "maxLength": 100}
                }},
                "Text": {"type": "object", "required": ["type"], "properties": {"type": {"const": 10}}},
            }}
        }))
    }

    #[test]
    fn literal_segments_win_over_parameters() {
        let s = spec();
        assert_eq!(
            s.find("/users/@me", "GET").map(|r| r.template),
            Ok("/users/@me")
        );
        let r = s
            .find("/users/12", "GET")
            .map_err(|_| ())
            .unwrap_or_else(|_| panic!("no match"));
        assert_eq!(r.template, "/users/{user_id}");
        assert!(s.check_params(&r).is_empty());
        assert_eq!(
            s.find("/users/12", "POST").err(),
            Some(RouteError::MethodNotAllowed("/users/{user_id}".into()))
        );
        assert_eq!(s.find("/nope", "GET").err(), Some(RouteError::UnknownPath));
        let bad = s
            .find("/users/abc", "GET")
            .map_err(|_| ())
            .unwrap_or_else(|_| panic!("no match"));
        assert_eq!(s.check_params(&bad).len(), 1);
    }

    #[test]
    fn one_of_reports_the_closest_branch_with_a_pointer() {
        let s = spec();
        let schema = json!({"type": "array", "items": {"oneOf": [
            {"$ref": "#/components/schemas/Row"}, {"$ref": "#/components/schemas/Text"}
        ]}});
        let long = "x".repeat(101);
        let body = json!([{"type": 1, "components": [{"type": 2, "custom_id": long}]}]);
        assert_eq!(
            s.validate(&schema, &body),
            vec![SchemaIssue {
                pointer: "/0/components/0/custom_id".into(),
                message: "string of 101 characters, at most 100 allowed".into()
            }]
        );
        assert!(s
            .validate(&schema, &json!([{"type": 10}, {"type": 1}]))
            .is_empty());
    }

    #[test]
    fn snowflakes_may_be_numbers_and_null_is_a_type() {
        let s = spec();
        let schema = json!({"$ref": "#/components/schemas/Snowflake"});
        assert!(s.validate(&schema, &json!("123")).is_empty());
        assert!(s.validate(&schema, &json!(123)).is_empty());
        assert_eq!(s.validate(&schema, &json!("012")).len(), 1);
        assert_eq!(s.validate(&schema, &json!(-1)).len(), 1);
        let nullable = json!({"type": ["string", "null"]});
        assert!(s.validate(&nullable, &Value::Null).is_empty());
        assert_eq!(
            s.validate(&nullable, &json!(3)),
            vec![SchemaIssue {
                pointer: "".into(),
                message: "expected string or null, got number".into()
            }]
        );
    }
}
