//! Telling a recording's format by its shape, and, when none fits, saying
//! what the file held and which format it came closest to.

use serde_json::Value;

use super::{
    Format, HEAD_LINES, Parsed, cline, codex, codex_exec, gemini_cli, inspect, openhands,
    trajectory,
};
use crate::transcript::{JsonKind, Seen};

/// The format one item of a file (a line, an array's item) is in.
fn looks_like(v: &Value) -> Option<Format> {
    let has = |key: &str| v.get(key).is_some();
    if has("request") && has("response") {
        Some(Format::Exchanges)
    } else if gemini_cli::is_session_line(v) {
        Some(Format::GeminiCli)
    } else if has("message") && v.get("type").is_some_and(Value::is_string) || has("sessionId") {
        Some(Format::ClaudeCode)
    } else if codex::is_rollout_line(v) || codex::is_item(v) {
        Some(Format::Codex)
    } else if codex_exec::is_exec_line(v) {
        Some(Format::CodexExec)
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
        Parsed::Document(Value::Object(top)) if gemini_cli::is_session(top) => {
            Some(Format::GeminiCli)
        }
        Parsed::Document(Value::Object(top)) if cline::is_session(top) => Some(Format::Cline),
        Parsed::Document(Value::Object(top)) if top.contains_key("messages") => {
            Some(Format::Conversation)
        }
        // One instance of an evaluation's output.
        Parsed::Document(one @ Value::Object(_))
            if openhands::detect(std::slice::from_ref(one)) =>
        {
            Some(Format::OpenHands)
        }
        // One exchange: a log of one call, or one line of JSON Lines.
        Parsed::Document(top @ Value::Object(_)) => {
            looks_like(top).filter(|f| matches!(f, Format::Native | Format::Exchanges))
        }
        Parsed::Document(Value::Array(items)) if cline::detect(items) => Some(Format::Cline),
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items)
            if openhands::detect(items) =>
        {
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
pub(super) fn what_was_read(format: Format, parsed: &Parsed) -> Seen {
    match (format, parsed) {
        (Format::Cassette, Parsed::Document(Value::Array(items)) | Parsed::Lines(items)) => {
            Seen::Interactions { count: items.len() }
        }
        (Format::Cassette, Parsed::Document(_)) => Seen::Interactions { count: 0 },
        (Format::Events, _) => Seen::Events,
        _ => describe_top(parsed),
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
pub(super) fn lines_seen(count: usize, first: &Value) -> Seen {
    Seen::Lines {
        count,
        keys: keys_of(first),
    }
}

/// An object's first few keys.
fn keys_of(v: &Value) -> Vec<String> {
    v.as_object()
        .map(|object| object.keys().take(8).cloned().collect())
        .unwrap_or_default()
}

pub(super) fn describe_top(parsed: &Parsed) -> Seen {
    match parsed {
        Parsed::Document(top @ Value::Object(_)) => Seen::Object { keys: keys_of(top) },
        Parsed::Document(Value::Array(items)) => match items.first() {
            None => Seen::EmptyArray,
            Some(first @ Value::Object(_)) => Seen::Objects {
                count: items.len(),
                keys: keys_of(first),
            },
            Some(first) => Seen::ArrayOf(JsonKind::of(first)),
        },
        Parsed::Document(other) => Seen::Scalar(JsonKind::of(other)),
        Parsed::Lines(lines) => lines_seen(lines.len(), &lines[0]),
    }
}
