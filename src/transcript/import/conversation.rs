//! A conversation: the `messages` list a script dumped, as a JSON array or
//! an object with `messages` (and optional `system`, `tools`, `model`), in
//! Anthropic Messages or OpenAI Chat Completions shape. Stop reasons are not
//! in such a list, so they are inferred.

use serde_json::Value;

use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::{Read, Reader, system_text, tool_definitions};

pub fn read(top: &Value, recording: &mut Recording, reader: &mut Reader) {
    let messages = match top {
        Value::Array(messages) => messages.as_slice(),
        other => other
            .get("messages")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice),
    };
    if let Some(system) = system_text(reader, top.get("system")) {
        recording.add_system(system);
    }
    recording.tools = tool_definitions(top.get("tools"));
    recording.model = top.get("model").and_then(Value::as_str).map(str::to_owned);
    for message in messages {
        match reader.message(message) {
            Read::Message(m) => recording.push(Entry::new(m, Origin::Conversation)),
            Read::System(text) => recording.add_system(text),
            Read::Nothing => {}
        }
    }
}
