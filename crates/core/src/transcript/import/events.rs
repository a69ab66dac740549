//! A bare stream: a file of the server-sent events one streamed call
//! returned (`event:` / `data:` lines), as the SDKs' test snapshots keep
//! them. Put together, it is one response; its request was not kept, so
//! the run's question says as much.

use serde_json::{Value, json};

use crate::dialect::{Dialect, stream};
use crate::engine::{Message, Messages};

/// Stands in for the question of a stream whose request was not kept.
pub const NO_REQUEST: &str = "(the request was not recorded, only the streamed response)";

/// Whether the text is a stream of events: its first line that is not
/// blank is an SSE field or a comment (`:`).
/// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
pub fn looks_like(text: &str) -> bool {
    const FIELDS: [&str; 5] = ["event:", "data:", "id:", "retry:", ":"];
    text.lines()
        .map(str::trim_start)
        .find(|line| !line.is_empty())
        .is_some_and(|line| FIELDS.iter().any(|field| line.starts_with(field)))
}

/// The stream as an exchange log of one call, its request standing in for
/// the one not kept; `None` when no API's events are in it.
pub fn exchange(text: &str) -> Option<Value> {
    let response = stream::reassemble(text)?;
    let api = Dialect::of_response(&response);
    let model = response.get("model").and_then(Value::as_str).unwrap_or("");
    let request = api.request(
        (model, None),
        None,
        &[],
        Messages::of(&[Message::user_text(NO_REQUEST)]),
    );
    Some(json!([{ "request": request, "response": text }]))
}
