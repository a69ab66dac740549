//! A VCR cassette: the YAML file vcrpy (and pytest-recording, built on it)
//! writes for a test, `interactions:` each of a `request` and a
//! `response`, in call order (https://vcrpy.readthedocs.io/en/latest/advanced.html).
//! A body comes in one of two forms: `parsed_body`, a mapping (as
//! pydantic-ai's cassettes keep JSON), or the raw `body` text, for a
//! response under `body.string`, which may be gzip-compressed bytes
//! written as `!!binary` base64. A streamed response's body is its
//! server-sent events, put together by the exchange reader.
//!
//! The headers are never read: they may hold keys (`authorization`,
//! `x-api-key`, cookies), and nothing loopstep shows comes from them.
//! Interactions that are not a model call (a token exchange, a download)
//! are left out and counted; a call the API failed is kept with its
//! status, a retry or the run's end.

use std::io::Read as _;

use base64::Engine as _;
use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{Map, Number, Value};

use crate::dialect::eventstream;
use crate::dialect::read::Skipped;
use crate::transcript::{LoadError, Skip};

/// Whether the text is a cassette: YAML whose top level opens with
/// `interactions:` (after any comments or a document marker).
pub fn looks_like(text: &str) -> bool {
    text.lines()
        .map(str::trim_end)
        .find(|line| !line.is_empty() && !line.starts_with('#') && *line != "---")
        .is_some_and(|line| line.starts_with("interactions:"))
}

/// The cassette's model calls as exchanges, `{"request", "response"}` with
/// each body as JSON (a streamed response as its text).
pub fn exchanges(text: &str, origin: &str, skipped: &mut Skipped) -> Result<Vec<Value>, LoadError> {
    let documents = Yaml::load_from_str(text).map_err(|e| LoadError::YamlSyntax {
        origin: origin.to_owned(),
        message: e.info().to_owned(),
        line: e.marker().line(),
        column: e.marker().col() + 1,
    })?;
    let interactions = documents
        .first()
        .and_then(|top| field(top, "interactions"))
        .and_then(Yaml::as_vec)
        .map_or(&[][..], Vec::as_slice);
    let mut exchanges = Vec::with_capacity(interactions.len());
    for interaction in interactions {
        let request = field(interaction, "request").and_then(body_of);
        let response = field(interaction, "response");
        let status = response
            .and_then(|r| field(r, "status"))
            .and_then(|s| field(s, "code").or(Some(s)))
            .and_then(Yaml::as_integer);
        let failed = status.is_some_and(|code| !(200..300).contains(&code));
        let body = response.and_then(body_of);
        let request = match request {
            Some(request @ Value::Object(_)) => request,
            _ => {
                skipped.add(Skip::InteractionsNotModelCalls);
                continue;
            }
        };
        // A call the API failed keeps its status, and the error it sent:
        // the exchange reader tells a retry from a run the failure ended.
        let mut exchange = match (failed, body) {
            (true, body) => serde_json::json!({
                "request": request,
                "response": body.filter(Value::is_object).unwrap_or_else(|| Value::Object(Map::new())),
                "status": status,
            }),
            (false, Some(response)) => {
                serde_json::json!({ "request": request, "response": response })
            }
            (false, None) => {
                skipped.add(Skip::InteractionsNotModelCalls);
                continue;
            }
        };
        // Gemini and Bedrock name the model in the URL only.
        let url = field(interaction, "request").and_then(|r| field(r, "uri"));
        if let Some(url) = url.and_then(Yaml::as_str) {
            exchange["url"] = url.into();
        }
        exchanges.push(exchange)
    }
    Ok(exchanges)
}

/// The value under `key` in a mapping.
fn field<'a>(node: &'a Yaml<'a>, key: &str) -> Option<&'a Yaml<'a>> {
    node.as_mapping()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

/// A request's or response's body: its `parsed_body` as JSON, or else its
/// `body` text (directly, or under `string`) read as JSON, or kept as text
/// when it is a stream of events.
fn body_of(message: &Yaml) -> Option<Value> {
    if let Some(parsed) = field(message, "parsed_body") {
        return Some(to_json(parsed));
    }
    let body = field(message, "body")?;
    let raw = field(body, "string").unwrap_or(body);
    // Bedrock streams in binary frames of JSON events.
    let events = plain(raw).and_then(bytes_of);
    if let Some(events) = events.and_then(|bytes| eventstream::events(&bytes)) {
        return Some(Value::Array(events));
    }
    let text = text_of(raw)?;
    match serde_json::from_str::<Value>(&text) {
        Ok(json) => Some(json),
        Err(_) if text.contains("data:") => Some(Value::String(text)),
        Err(_) => None,
    }
}

/// A body's text: a string scalar as it is, or bytes vcrpy wrote as
/// base64 (`!!binary`), gunzipped when they are gzip.
fn text_of(raw: &Yaml) -> Option<String> {
    let text = plain(raw)?;
    let decoded = bytes_of(text).and_then(|bytes| String::from_utf8(bytes).ok());
    Some(decoded.unwrap_or_else(|| text.to_owned()))
}

/// A scalar's text, under any tag.
fn plain<'a>(raw: &'a Yaml) -> Option<&'a str> {
    match raw {
        Yaml::Tagged(_, inner) => inner.as_str(),
        other => other.as_str(),
    }
}

/// The bytes base64 stands for, gunzipped when they are gzip; `None` when
/// the text is no base64.
fn bytes_of(text: &str) -> Option<Vec<u8>> {
    if !is_base64(text) {
        return None;
    }
    let packed: String = text.split_whitespace().collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .ok()?;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Some(bytes);
    }
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_end(&mut unpacked)
        .ok()?;
    Some(unpacked)
}

/// Text that can only be base64: its alphabet and whitespace, no spaces
/// between words as JSON or events would have, and long enough to mean it.
fn is_base64(text: &str) -> bool {
    let mut chars = 0;
    for c in text.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '+' | '/' | '=' => chars += 1,
            '\n' | '\r' => {}
            _ => return false,
        }
    }
    chars >= 16
}

/// A YAML node as JSON: mappings, sequences and scalars as they are;
/// a mapping's non-string keys written as text.
fn to_json(node: &Yaml) -> Value {
    match node {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => Value::Bool(*b),
        Yaml::Value(Scalar::Integer(i)) => Value::Number((*i).into()),
        Yaml::Value(Scalar::FloatingPoint(f)) => {
            Number::from_f64(f.into_inner()).map_or(Value::Null, Value::Number)
        }
        Yaml::Value(Scalar::String(s)) => Value::String(s.to_string()),
        Yaml::Representation(text, _, _) => Value::String(text.to_string()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match to_json(k) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, to_json(v))
                })
                .collect::<Map<_, _>>(),
        ),
        Yaml::Tagged(_, inner) => to_json(inner),
        Yaml::Alias(_) | Yaml::BadValue => Value::Null,
    }
}
