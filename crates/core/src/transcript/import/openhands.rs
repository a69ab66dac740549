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

use crate::transcript::Piece;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::openhands_sdk;
use super::segment::{Entry, Latest, Origin, Recording, span, stamp_of};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{Block, EndedBy, Ending, Message, Role};
use crate::transcript::{Note, Skip};

/// Whether `items` look like an OpenHands event list (of either
/// version), or like evaluation output.
pub fn detect(items: &[Value]) -> bool {
    is_eval_output(items) || openhands_sdk::detect(items) || is_v0(items)
}

fn is_v0(items: &[Value]) -> bool {
    items.first().is_some_and(|first| {
        first.get("source").is_some_and(Value::is_string)
            && (first.get("action").is_some() || first.get("observation").is_some())
    })
}

/// Evaluation output (`output.jsonl`, `EvalOutput` in OpenHands'
/// evaluation/utils/shared.py and OpenHands/benchmarks'
/// benchmarks/utils/models.py): an instance a line, with its `history`.
fn is_eval_output(items: &[Value]) -> bool {
    items.first().is_some_and(|first| {
        first.get("instance_id").is_some() && first.get("history").is_some_and(Value::is_array)
    })
}

/// Reads OpenHands events into `recording`: a trajectory of either
/// version, or evaluation output, whose instances after the first go
/// to `others`, each a run of its own.
pub fn read_any(
    items: &[Value],
    recording: &mut Recording,
    others: &mut Vec<Recording>,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) {
    if !is_eval_output(items) {
        read_events(items, recording, reader, notes);
        return;
    }
    for (n, instance) in items.iter().enumerate() {
        let events = instance
            .get("history")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let id = match instance.get("instance_id") {
            Some(Value::String(id)) => id.clone(),
            Some(other) => other.to_string(),
            None => (n + 1).to_string(),
        };
        let mut one = Recording {
            name: format!("{}-{id}", recording.name),
            source: recording.source.part(Piece::Instance(id.to_string())),
            ..Recording::default()
        };
        // The benchmarks' harness sends the instruction without an
        // event for it.
        let asked = events.iter().any(|e| {
            e.get("source").and_then(Value::as_str) == Some("user")
                && matches!(
                    e.get("kind")
                        .or_else(|| e.get("action"))
                        .and_then(Value::as_str),
                    Some("MessageEvent" | "message")
                )
        });
        if let (false, Some(instruction)) =
            (asked, instance.get("instruction").and_then(Value::as_str))
        {
            one.push(Entry::new(
                Message::user_text(instruction),
                Origin::Conversation,
            ));
        }
        read_events(events, &mut one, reader, notes);
        // The harness's error ends the run where no finish did (the
        // iteration limit: "Agent reached maximum iteration…").
        if let Some(error) = instance.get("error").and_then(Value::as_str) {
            one.ending = one.ending.take().or_else(|| {
                Some(Ending {
                    by: EndedBy::Agent,
                    status: error.to_owned(),
                    call: None,
                })
            });
        }
        // The calls its metrics count (one latency each), beside those kept.
        let made = instance
            .pointer("/metrics/response_latencies")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let kept = one
            .entries
            .iter()
            .filter(|e| e.message.role == Role::Assistant)
            .count();
        if made > kept {
            notes.push(Note::CallsNotKept { made, kept });
        }
        match n {
            0 => *recording = one,
            _ => others.push(one),
        }
    }
}

fn read_events(
    events: &[Value],
    recording: &mut Recording,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) {
    if openhands_sdk::detect(events) {
        openhands_sdk::read(events, recording, reader);
        recording.dialect = Dialect::OpenaiChat;
    } else {
        read(events, recording, reader, notes);
    }
}

fn read(events: &[Value], recording: &mut Recording, reader: &mut Reader, notes: &mut Vec<Note>) {
    let mut responses = HashSet::new();
    // Replies that asked for tools under another stop reason, and it.
    let mut under = (0, String::new());
    let mut finishes = Vec::new();
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
                        finishes.push(Ending {
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
                    // OpenHands runs a reply's tool calls whatever its
                    // finish_reason (some providers say `stop`).
                    let asks = reply.message.tool_calls().next().is_some();
                    let stop_reason = match reply.stop_reason {
                        Some(said) if asks && said != "tool_calls" => {
                            under.0 += 1;
                            under.1 = said;
                            None
                        }
                        said => said,
                    };
                    let mut entry = Entry::reply(reply.message, stop_reason, reply.usage);
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
    recording.end_at_calls(finishes);
    if under.0 > 0 {
        notes.push(Note::CallsRunUnder {
            replies: under.0,
            said: under.1,
        });
    }
}

/// The id of the tool call an action made or an observation answers.
fn call_id(meta: &Value) -> Option<&str> {
    meta.get("tool_call_id").and_then(Value::as_str)
}
