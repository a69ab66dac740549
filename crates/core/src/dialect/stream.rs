//! Streamed responses: a recorder that logs a streaming call keeps the
//! body as server-sent events, not as the response object. Here the events
//! are read back and put together into the object the same call would
//! have returned unstreamed, in each API's own way.
//!
//! The framing is the SSE one every API here uses: events are `field:
//! value` lines ended by a blank line; a `data:` line carries JSON; lines
//! starting with `:` are comments; Chat Completions ends with
//! `data: [DONE]`.
//! https://developer.mozilla.org/en-US/docs/Web/API/Server-sent_events/Using_server-sent_events#event_stream_format

use serde_json::Value;

use super::{anthropic, bedrock, gemini, openai_chat, openai_responses};

/// The response a streamed body adds up to, or `None` when it holds no
/// event of a known API.
pub fn reassemble(body: &str) -> Option<Value> {
    of_events(&events(body))
}

/// The response a stream's events add up to: server-sent events' data,
/// or Bedrock's event-stream messages, each `{eventType: payload}`.
pub fn of_events(events: &[Value]) -> Option<Value> {
    if bedrock::is_stream(events) {
        return Some(bedrock::reassemble(events));
    }
    // Gemini streams whole responses, each with the next parts.
    if events.iter().any(|e| e.get("candidates").is_some()) {
        return Some(gemini::reassemble(events));
    }
    // The first event that names its kind (some services open a chat
    // stream with a chunk of their own, its `object` empty).
    let first = events.iter().find(|e| {
        e.get("type").is_some_and(Value::is_string)
            || e.get("object")
                .and_then(Value::as_str)
                .is_some_and(|o| !o.is_empty())
    })?;
    let kind = first.get("type").and_then(Value::as_str).unwrap_or("");
    if kind == "message_start" {
        Some(anthropic::reassemble(events))
    } else if first.get("object").and_then(Value::as_str) == Some("chat.completion.chunk") {
        Some(openai_chat::reassemble(events))
    } else if kind.starts_with("response.") {
        openai_responses::reassemble(events)
    } else {
        None
    }
}

/// The JSON of each event's data, in order; what is not JSON is left out.
fn events(body: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut data = String::new();
    // A blank line ends an event; the end of the body ends the last one.
    for line in body.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if let Ok(event) = serde_json::from_str(&data) {
                events.push(event);
            }
            data.clear();
        } else if let Some(value) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    events
}

/// A tool's input streamed as pieces of JSON text, put together: the
/// object they spell (the raw text when it does not parse, as a
/// recording's would be); with no piece at all, the input the block
/// opened with, else an empty object (a tool that takes no arguments).
pub(super) fn streamed_input(pieces: String, opened_with: Option<Value>) -> Value {
    if pieces.is_empty() {
        return opened_with.unwrap_or_else(|| Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(&pieces).unwrap_or(Value::String(pieces))
}

/// Sets `field` of `object` to `value`; nothing when `object` is no object.
pub(super) fn set(object: &mut Value, field: &str, value: Value) {
    if let Some(fields) = object.as_object_mut() {
        fields.insert(field.to_owned(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_from_data_lines_and_comments_and_done_are_skipped() {
        let body = ": a comment\nevent: ping\ndata: {\"type\": \"ping\"}\n\ndata: {\"a\":\ndata: 1}\n\ndata: [DONE]\n";
        assert_eq!(
            events(body),
            [
                serde_json::json!({"type": "ping"}),
                serde_json::json!({"a": 1})
            ]
        );
    }
}
