//! Telling a recording's format by its shape, and, when none fits, saying
//! what the file held and which format it came closest to.

use serde_json::Value;

use super::{Format, HEAD_LINES, Parsed, codex, inspect, openhands, trajectory};

/// The format one item of a file (a line, an array's item) is in.
fn looks_like(v: &Value) -> Option<Format> {
    let has = |key: &str| v.get(key).is_some();
    if has("request") && has("response") {
        Some(Format::Exchanges)
    } else if has("message") && v.get("type").is_some_and(Value::is_string) || has("sessionId") {
        Some(Format::ClaudeCode)
    } else if codex::is_rollout_line(v) || codex::is_item(v) {
        Some(Format::Codex)
    } else if has("role") {
        Some(Format::Conversation)
    } else if has("version") && ["replies", "base", "runs"].iter().any(|k| has(k)) {
        Some(Format::Native)
    } else {
        None
    }
}

pub(super) fn detect(parsed: &Parsed) -> Option<Format> {
    match parsed {
        Parsed::Document(Value::Object(top)) if inspect::detect(top) => Some(Format::Inspect),
        Parsed::Document(Value::Object(top)) if trajectory::detect(top) => Some(Format::Trajectory),
        Parsed::Document(Value::Object(top)) if top.contains_key("messages") => {
            Some(Format::Conversation)
        }
        Parsed::Document(top @ Value::Object(_)) => {
            looks_like(top).filter(|f| *f == Format::Native)
        }
        Parsed::Document(Value::Array(items)) if openhands::detect(items) => {
            Some(Format::OpenHands)
        }
        Parsed::Document(Value::Array(items)) => items.first().and_then(looks_like),
        Parsed::Document(_) => None,
        // Claude Code files open with summary or snapshot lines: look further.
        Parsed::Lines(lines) => detect_lines(lines),
    }
}

/// The format of JSON Lines, told by their first lines: Claude Code files
/// open with summary or snapshot lines, so it looks past the first.
pub(super) fn detect_lines(lines: &[Value]) -> Option<Format> {
    lines.iter().take(HEAD_LINES).find_map(looks_like)
}

/// What a file that made no run held, in its own terms.
pub(super) fn what_was_read(format: Format, parsed: &Parsed) -> String {
    let count = match parsed {
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items) => items.len(),
        Parsed::Document(_) => 0,
    };
    match format {
        Format::Cassette => format!(
            "{count} of its interactions {} a model call",
            if count == 1 { "is" } else { "are" }
        ),
        Format::Events => "its events add up to no response of a known API".to_owned(),
        _ => format!("its top level is {}", describe_top(parsed)),
    }
}

/// The formats whose marks the file's keys share, most shared first (at
/// most two), with the keys shared.
pub(super) fn closest(parsed: &Parsed) -> Vec<(Format, Vec<String>)> {
    let first = match parsed {
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items) => items.first(),
        Parsed::Document(top) => Some(top),
    };
    let Some(keys) = first.and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut near: Vec<(Format, Vec<String>)> = Format::ALL
        .iter()
        .map(|format| {
            let shared = format
                .marks()
                .iter()
                .filter(|mark| keys.contains_key(**mark))
                .map(|mark| (*mark).to_owned())
                .collect();
            (*format, shared)
        })
        .filter(|(_, shared): &(_, Vec<String>)| !shared.is_empty())
        .collect();
    near.sort_by_key(|(_, shared)| std::cmp::Reverse(shared.len()));
    near.truncate(2);
    near
}

/// What a file that read as `count` JSON lines, the first `first`, held.
pub(super) fn lines_seen(count: usize, first: &Value) -> String {
    format!("its top level is {}", lines_described(count, first))
}

fn lines_described(count: usize, first: &Value) -> String {
    format!(
        "{count} JSON lines, the first an object with {}",
        keys_of(first)
    )
}

fn keys_of(v: &Value) -> String {
    match v.as_object() {
        Some(object) if object.is_empty() => "no keys".to_owned(),
        Some(object) => {
            let names: Vec<String> = object.keys().take(8).map(|k| format!("`{k}`")).collect();
            format!("keys {}", names.join(", "))
        }
        None => "no keys".to_owned(),
    }
}

pub(super) fn describe_top(parsed: &Parsed) -> String {
    let keys = keys_of;
    match parsed {
        Parsed::Document(top @ Value::Object(_)) => format!("an object with {}", keys(top)),
        Parsed::Document(Value::Array(items)) => match items.first() {
            None => "an empty array".to_owned(),
            Some(first @ Value::Object(_)) => format!(
                "an array of {} item{}, the first an object with {}",
                items.len(),
                if items.len() == 1 { "" } else { "s" },
                keys(first)
            ),
            Some(first) => format!(
                "an array whose first item is {}",
                crate::transcript::native::json_kind(first)
            ),
        },
        Parsed::Document(other) => crate::transcript::native::json_kind(other).to_owned(),
        Parsed::Lines(lines) => lines_described(lines.len(), &lines[0]),
    }
}
