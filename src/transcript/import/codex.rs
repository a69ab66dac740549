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
//!
//! Each line has a `timestamp`: a call ran from the last item sent to the
//! model to the last item of its reply, a tool from its `function_call`
//! to its `function_call_output`.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::segment::{Entry, Origin, Recording, extend, span, stamp_of};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{Block, Role, Stamp, Timing};
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
    let mut clock = Clock::default();
    for line in lines {
        let payload = line.get("payload").unwrap_or(line);
        match line.get("type").and_then(Value::as_str).unwrap_or("") {
            "response_item" => {
                clock.item(payload, stamp_of(line));
                items.push(payload.clone());
            }
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
    // The replies' times go to the replies in order, unless the items did
    // not group into replies as the reader did: then none is timed.
    let replies = sent.messages.iter().filter(|m| m.role == Role::Assistant);
    let mut reply_times = if replies.count() == clock.replies.len() {
        clock.replies.into_iter()
    } else {
        Vec::new().into_iter()
    };
    for message in sent.messages {
        let mut entry = Entry::new(message, Origin::Conversation);
        if entry.message.role == Role::Assistant {
            entry.time = reply_times.next().flatten();
        }
        for block in &entry.message.content {
            if let Block::ToolResult { tool_use_id, .. } = block {
                let ran = span(
                    clock.called.get(tool_use_id),
                    clock.answered.get(tool_use_id),
                );
                entry
                    .result_times
                    .extend(ran.map(|time| (tool_use_id.clone(), time)));
            }
        }
        recording.push(entry);
    }
    recording.dialect = Dialect::OpenaiResponses;
}

/// The times of a rollout's items, read as they come.
#[derive(Default)]
struct Clock {
    /// When the latest item sent to the model was written.
    sent: Option<Stamp>,
    /// Whether the latest item was the model's.
    replying: bool,
    /// One time per reply, in order.
    replies: Vec<Option<Timing>>,
    /// When each tool call was asked for, and when answered, by call id.
    called: HashMap<String, Stamp>,
    answered: HashMap<String, Stamp>,
}

impl Clock {
    fn item(&mut self, item: &Value, stamp: Option<Stamp>) {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let role = item.get("role").and_then(Value::as_str);
        let call_id = item.get("call_id").and_then(Value::as_str);
        let from_model = match kind {
            "reasoning" | "function_call" => true,
            "message" => role == Some("assistant"),
            "function_call_output" => false,
            // Not part of the conversation (`ghost_snapshot`, say).
            _ => return,
        };
        match (kind, call_id, &stamp) {
            ("function_call", Some(id), Some(at)) => {
                self.called.insert(id.to_owned(), at.clone());
            }
            ("function_call_output", Some(id), Some(at)) => {
                self.answered.insert(id.to_owned(), at.clone());
            }
            _ => {}
        }
        match (from_model, self.replying) {
            (true, false) => self.replies.push(span(self.sent.as_ref(), stamp.as_ref())),
            (true, true) => {
                if let Some(last) = self.replies.last_mut() {
                    extend(last, stamp.as_ref());
                }
            }
            (false, _) => self.sent = stamp,
        }
        self.replying = from_model;
    }
}

/// A Responses item written without the envelope, as old rollouts did.
pub fn is_item(line: &Value) -> bool {
    matches!(
        line.get("type").and_then(Value::as_str),
        Some("message" | "function_call" | "function_call_output" | "reasoning")
    )
}
