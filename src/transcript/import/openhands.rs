//! An OpenHands trajectory: a JSON array of events, each an `action` or an
//! `observation` from a `source` (user, agent, environment). An action the
//! model asked for carries `tool_call_metadata`, whose `model_response` is
//! the whole chat completion that asked for it, so the replies come from
//! there, one per response, with their real `finish_reason`; the
//! observation that answers a call names it by `tool_call_id`. The user's
//! messages are the prompts; the agent's plain messages, saved without
//! their response, are replies whose stop reason is inferred. Events that
//! are the harness's own (state changes, recalls) are skipped and counted.
//!
//! The agent ends a run with a `finish` action (the `finish` tool call,
//! `AgentFinishAction` in OpenHands' openhands/events/action/agent.py),
//! which its controller takes as the end instead of running it.
//!
//! Every event has a `timestamp`: a call ran from the event before its
//! first action to that action, a tool from its action to the observation
//! that answers it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::segment::{Entry, Latest, Origin, Recording, span, stamp_of};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{Block, EndedBy, Ending, Message, Role};
use crate::transcript::Skip;

/// Whether `items` look like an OpenHands event list.
pub fn detect(items: &[Value]) -> bool {
    items.first().is_some_and(|first| {
        first.get("source").is_some_and(Value::is_string)
            && (first.get("action").is_some() || first.get("observation").is_some())
    })
}

pub fn read(events: &[Value], recording: &mut Recording, reader: &mut Reader) {
    let mut responses = HashSet::new();
    // The latest event's time, and when each tool call was made.
    let mut latest = Latest::default();
    let mut called = HashMap::new();
    for event in events {
        let stamp = stamp_of(event);
        let since_previous = latest.since(stamp.as_ref());
        let source = event.get("source").and_then(Value::as_str).unwrap_or("");
        let text = |path: &str| event.pointer(path).and_then(Value::as_str).unwrap_or("");
        let meta = event.get("tool_call_metadata").filter(|m| m.is_object());
        if let Some(action) = event.get("action").and_then(Value::as_str) {
            match (source, action, meta) {
                (_, _, Some(meta)) => {
                    if let (Some(id), Some(stamp)) = (call_id(meta), &stamp) {
                        called.insert(id.to_owned(), stamp.clone());
                    }
                    // The agent's own end: the harness stops on it, never runs it.
                    if action == "finish" {
                        recording.ending = Some(Ending {
                            by: EndedBy::Agent,
                            status: action.to_owned(),
                            call: call_id(meta).map(str::to_owned),
                        });
                    }
                    let Some(response) = meta.get("model_response") else {
                        reader
                            .skipped
                            .add(Skip::Events(format!("{action} (no model response)")));
                        continue;
                    };
                    // Several calls of one response arrive as several actions.
                    let id = response.get("id").and_then(Value::as_str).unwrap_or("");
                    if !id.is_empty() && !responses.insert(id.to_owned()) {
                        continue;
                    }
                    if let Some(model) = response.get("model").and_then(Value::as_str) {
                        recording.model = Some(model.to_owned());
                    }
                    let reply = Dialect::OpenaiChat.read_response(reader, response);
                    let mut entry = Entry::reply(reply.message, reply.stop_reason, reply.usage);
                    entry.time = since_previous;
                    recording.push(entry);
                }
                ("user", "message", None) => {
                    let message = Message::user_text(text("/args/content"));
                    recording.push(Entry::new(message, Origin::Conversation));
                }
                ("agent", "message", None) => {
                    let message = Message {
                        role: Role::Assistant,
                        content: vec![Block::Text {
                            text: text("/args/content").to_owned(),
                        }],
                    };
                    let mut entry = Entry::new(message, Origin::Conversation);
                    entry.time = since_previous;
                    recording.push(entry);
                }
                (_, "system", None) => recording.add_system(text("/args/content").to_owned()),
                _ => reader.skipped.add(Skip::Events(format!("{action} action"))),
            }
        } else if let Some(observation) = event.get("observation").and_then(Value::as_str) {
            match meta.and_then(call_id) {
                Some(id) => {
                    let result = Block::ToolResult {
                        tool_use_id: id.to_owned(),
                        content: Arc::from(text("/content")),
                        is_error: observation == "error",
                    };
                    let message = Message {
                        role: Role::User,
                        content: vec![result],
                    };
                    let mut entry = Entry::new(message, Origin::Conversation);
                    let ran = span(called.get(id), stamp.as_ref());
                    entry
                        .result_times
                        .extend(ran.map(|time| (id.to_owned(), time)));
                    recording.push(entry);
                }
                None => reader
                    .skipped
                    .add(Skip::Events(format!("{observation} observation"))),
            }
        }
    }
    recording.dialect = Dialect::OpenaiChat;
}

/// The id of the tool call an action made or an observation answers.
fn call_id(meta: &Value) -> Option<&str> {
    meta.get("tool_call_id").and_then(Value::as_str)
}
