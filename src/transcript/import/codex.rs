//! A Codex CLI session rollout (`~/.codex/sessions/…/rollout-*.jsonl`):
//! JSON Lines of `{"timestamp", "type", "payload"}`. The `response_item`
//! payloads are the OpenAI Responses items of the conversation (messages,
//! reasoning, `function_call` and `function_call_output` paired on
//! `call_id`); `session_meta` holds the instructions and `turn_context` the
//! model; the rest are UI events, skipped and counted. Old rollouts wrote
//! the items bare, without the envelope; those are read too.
//!
//! A rollout records neither stop reasons nor where one model call ends,
//! so the stop reasons are inferred from what each reply holds.

use serde_json::{Value, json};

use super::segment::{Entry, Origin, Recording};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::transcript::Skip;

/// Whether a line is one of a rollout's.
pub fn is_rollout_line(line: &Value) -> bool {
    let kind = line.get("type").and_then(Value::as_str);
    line.get("payload").is_some()
        && matches!(
            kind,
            Some("session_meta" | "response_item" | "turn_context" | "event_msg" | "compacted")
        )
}

pub fn read(lines: &[Value], recording: &mut Recording, reader: &mut Reader) {
    let mut items = Vec::new();
    let mut instructions = Vec::new();
    for line in lines {
        let payload = line.get("payload").unwrap_or(line);
        match line.get("type").and_then(Value::as_str).unwrap_or("") {
            "response_item" => items.push(payload.clone()),
            "session_meta" => {
                let text = payload
                    .pointer("/base_instructions/text")
                    .or_else(|| payload.get("instructions"))
                    .and_then(Value::as_str);
                instructions.extend(text.map(str::to_owned));
            }
            "turn_context" => {
                if let Some(model) = payload.get("model").and_then(Value::as_str) {
                    recording.model = Some(model.to_owned());
                }
            }
            // An old rollout's bare item, and its bare session metadata.
            _ if line.get("payload").is_none() && is_item(line) => items.push(line.clone()),
            "" if line.get("instructions").is_some() => {
                instructions.extend(line["instructions"].as_str().map(str::to_owned));
            }
            other => reader.skipped.add(Skip::Lines(other.to_owned())),
        }
    }
    let request = json!({ "instructions": instructions.join("\n\n"), "input": items });
    let sent = Dialect::OpenaiResponses.read_request(reader, &request);
    for text in sent.system.into_iter().filter(|t| !t.is_empty()) {
        recording.add_system(text);
    }
    for message in sent.messages {
        recording.push(Entry::new(message, Origin::Conversation));
    }
    recording.dialect = Dialect::OpenaiResponses;
}

/// A Responses item written without the envelope, as old rollouts did.
pub fn is_item(line: &Value) -> bool {
    matches!(
        line.get("type").and_then(Value::as_str),
        Some("message" | "function_call" | "function_call_output" | "reasoning")
    )
}
