//! The OpenHands Software Agent SDK's events (OpenHands/software-agent-sdk,
//! openhands-sdk/openhands/sdk/event/): each a JSON object whose `kind`
//! names its class and whose `source` says who made it, as a conversation
//! keeps them (one `event-NNNNN-<id>.json` file each) and as evaluation
//! output (`output.jsonl`, one instance a line with its `history`) holds
//! them.
//!
//! One model call gives the `ActionEvent`s sharing an `llm_response_id`
//! (one per tool call, the first with the thought) or an agent's
//! `MessageEvent` (an answer); each `ObservationEvent` (or
//! `AgentErrorEvent`, `UserRejectObservation`) answers a call by its
//! `tool_call_id`. A user's `MessageEvent` is a prompt, unless it is the
//! harness's words (boundary.rs decides); the environment's (an
//! empty-reply or stuck nudge) is always the harness's. The `finish` tool
//! ends the run as the agent's own ending, and a `ConversationErrorEvent`
//! (the iteration or budget limit, an exception) as its harness's.

use std::sync::Arc;

use serde_json::Value;

use super::content::{field, joined};
use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::{Reader, arguments};
use crate::engine::{Block, EndedBy, Ending, Message, PushBack, Role};
use crate::transcript::Skip;

/// Whether `items` are SDK events: the first names its class in `kind`
/// and who made it in `source`.
pub fn detect(items: &[Value]) -> bool {
    items.first().is_some_and(|first| {
        first.get("source").is_some_and(Value::is_string)
            && first
                .get("kind")
                .and_then(Value::as_str)
                .is_some_and(|kind| kind.ends_with("Event") || kind == "Condensation")
    })
}

pub fn read(events: &[Value], recording: &mut Recording, reader: &mut Reader) {
    // The response the reply being built came from, and its calls so far.
    let mut reply: Option<(String, Message)> = None;
    let mut finishes = Vec::new();
    for event in events {
        let kind = event.get("kind").and_then(Value::as_str).unwrap_or("");
        let source = event.get("source").and_then(Value::as_str).unwrap_or("");
        if kind != "ActionEvent" {
            close(&mut reply, recording);
        }
        match (kind, source) {
            ("SystemPromptEvent", _) => {
                let text = event.pointer("/system_prompt/text").and_then(Value::as_str);
                recording.add_system(text.unwrap_or("").to_owned());
            }
            ("ActionEvent", _) => {
                let response = event.get("llm_response_id").and_then(Value::as_str);
                let same = matches!((&reply, response), (Some((id, _)), Some(r)) if id == r);
                if !same {
                    close(&mut reply, recording);
                    let mut message = Message {
                        role: Role::Assistant,
                        content: Vec::new(),
                    };
                    message.content.extend(thought(event));
                    reply = Some((response.unwrap_or("").to_owned(), message));
                }
                if let Some((_, message)) = &mut reply {
                    message.content.push(call(event));
                }
                if event.get("tool_name").and_then(Value::as_str) == Some("finish") {
                    finishes.push(Ending {
                        by: EndedBy::Agent,
                        status: "finish".to_owned(),
                        call: call_id(event).map(str::to_owned),
                    });
                }
            }
            ("MessageEvent", "agent") => {
                let message = Message {
                    role: Role::Assistant,
                    content: vec![Block::Text {
                        text: joined(event.pointer("/llm_message/content")),
                    }],
                };
                recording.push(Entry::reply(message, None, None));
            }
            ("MessageEvent", "user") => {
                let text = joined(event.pointer("/llm_message/content"));
                recording.push(Entry::new(Message::user_text(text), Origin::Conversation));
            }
            ("MessageEvent", _) => {
                let text = joined(event.pointer("/llm_message/content"));
                let message = Message::user_text(text);
                recording.push(Entry::new(message, Origin::Harness(PushBack::Nudge)));
            }
            ("ObservationEvent" | "AgentErrorEvent" | "UserRejectObservation", _) => {
                let Some(id) = call_id(event) else {
                    reader.skipped.add(Skip::Events(kind.to_owned()));
                    continue;
                };
                let (content, is_error) = match kind {
                    "ObservationEvent" => observation(event.get("observation")),
                    "AgentErrorEvent" => (field(event, "error"), true),
                    _ => (field(event, "rejection_reason"), true),
                };
                let message = Message {
                    role: Role::User,
                    content: vec![Block::ToolResult {
                        tool_use_id: id.to_owned(),
                        content: Arc::from(content),
                        is_error,
                    }],
                };
                recording.push(Entry::new(message, Origin::Conversation));
            }
            ("ConversationErrorEvent", _) => {
                recording.ending = Some(Ending {
                    by: EndedBy::Agent,
                    status: field(event, "code"),
                    call: None,
                });
            }
            _ => reader.skipped.add(Skip::Events(kind.to_owned())),
        }
    }
    close(&mut reply, recording);
    recording.end_at_calls(finishes);
}

/// The reply being built, now whole, into the recording.
fn close(reply: &mut Option<(String, Message)>, recording: &mut Recording) {
    if let Some((_, message)) = reply.take() {
        recording.push(Entry::reply(message, None, None));
    }
}

/// The text an action's model said before its calls: its `thought`, or
/// the reasoning it kept.
fn thought(event: &Value) -> Option<Block> {
    let text = joined(event.get("thought"));
    (!text.trim().is_empty()).then_some(Block::Text { text })
}

fn call(event: &Value) -> Block {
    let tool_call = event.get("tool_call");
    let name = tool_call
        .and_then(|c| c.get("name"))
        .or_else(|| event.get("tool_name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    Block::ToolUse {
        id: call_id(event).unwrap_or("").to_owned(),
        name,
        input: arguments(tool_call.and_then(|c| c.get("arguments"))),
    }
}

fn call_id(event: &Value) -> Option<&str> {
    event.get("tool_call_id").and_then(Value::as_str)
}

/// What an observation told the model, and whether it was an error: its
/// `content` (a list of texts since 2026, a string in `ThinkObservation`),
/// or the `output` of the older terminal and editor observations, or the
/// `message` of a `FinishObservation`.
fn observation(observation: Option<&Value>) -> (String, bool) {
    let Some(observation) = observation else {
        return (String::new(), false);
    };
    let is_error = observation.get("is_error").and_then(Value::as_bool) == Some(true)
        || observation.get("error").and_then(Value::as_bool) == Some(true);
    let text = ["content", "output", "message"]
        .iter()
        .map(|key| joined(observation.get(*key)))
        .find(|text| !text.is_empty())
        .unwrap_or_default();
    (text, is_error)
}
