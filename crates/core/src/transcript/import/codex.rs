//! A Codex CLI session rollout (`~/.codex/sessions/…/rollout-*.jsonl`):
//! JSON Lines of `{"timestamp", "type", "payload"}`. The `response_item`
//! payloads are the OpenAI Responses items of the conversation (messages,
//! reasoning, `function_call` / `custom_tool_call` and their outputs paired
//! on `call_id`, `web_search_call` run by the server); `session_meta` holds
//! the instructions and `turn_context` the model; a `token_count` event
//! after a reply carries that call's usage (`info.last_token_usage`); the
//! rest are UI events, skipped and counted. Old rollouts wrote the items
//! bare, without the envelope; those are read too.
//!
//! A rollout records no stop reasons, so they are inferred from what each
//! reply holds; a reply is the model's items between two inputs.
//!
//! Each line has a `timestamp`: a call ran from the last item sent to the
//! model to the last item of its reply, a tool from its `function_call`
//! to its `function_call_output`.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::segment::{Entry, Origin, Recording, extend, span, stamp_of};
use crate::dialect::Dialect;
use crate::dialect::read::{self, Reader, UsageKeys, usage_of};
use crate::engine::{Block, Message, Role, Stamp, Timing, Usage};
use crate::transcript::Compaction;
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
    // The conversation's items, and each compaction's replacement history
    // in its place.
    let mut parts: Vec<Part> = Vec::new();
    for line in lines {
        let payload = line.get("payload").unwrap_or(line);
        match line.get("type").and_then(Value::as_str).unwrap_or("") {
            "response_item" => {
                clock.item(payload, stamp_of(line));
                items.push(payload.clone());
            }
            "compacted" => {
                parts.push(Part::Items(std::mem::take(&mut items)));
                parts.push(Part::Compacted(replacement_of(payload)));
            }
            "session_meta" => {
                let text = payload
                    .pointer("/base_instructions/text")
                    .or_else(|| payload.get("instructions"))
                    .and_then(Value::as_str);
                instructions.extend(text.map(str::to_owned));
            }
            "event_msg" if payload.get("type").and_then(Value::as_str) == Some("token_count") => {
                clock.token_count(payload.get("info"));
            }
            // The user stopped the turn (Esc), or a new prompt replaced it:
            // `TurnAbortedEvent { reason }`, its reason `interrupted`,
            // `replaced` or `review_ended` (openai/codex,
            // codex-rs/app-server-protocol/schema/typescript/TurnAbortReason.ts).
            "event_msg" if payload.get("type").and_then(Value::as_str) == Some("turn_aborted") => {
                parts.push(Part::Items(std::mem::take(&mut items)));
                let reason = payload.get("reason").and_then(Value::as_str);
                parts.push(Part::Aborted(reason.unwrap_or("interrupted").to_owned()));
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
    parts.push(Part::Items(items));
    let read = |reader: &mut Reader, instructions: &str, items: Vec<Value>| {
        let request = json!({ "instructions": instructions, "input": items });
        Dialect::OpenaiResponses.read_request(reader, &request)
    };
    let system = read(reader, &instructions.join("\n\n"), Vec::new()).system;
    for text in system.into_iter().filter(|t| !t.is_empty()) {
        recording.add_system(text);
    }
    let mut entries = Vec::new();
    for part in parts {
        match part {
            Part::Items(items) => entries.extend(
                read(reader, "", items)
                    .messages
                    .into_iter()
                    .map(|m| Entry::new(m, Origin::Conversation)),
            ),
            Part::Compacted(replacement) => {
                entries.extend(resumed(read(reader, "", replacement).messages))
            }
            Part::Aborted(reason) => entries.push(Entry::new(
                Message::user_text(format!("turn_aborted: {reason}")),
                Origin::Interruption,
            )),
        }
    }
    // The times and usages go to the replies in order, unless there are
    // not as many as the reader found replies: then none gets any.
    let is_reply =
        |e: &Entry| e.origin == Origin::Conversation && e.message.role == Role::Assistant;
    let replies = entries.iter().filter(|e| is_reply(e)).count();
    let mut times = in_order(clock.replies, replies);
    let mut usages = in_order(clock.usages, replies);
    for mut entry in entries {
        if is_reply(&entry) {
            entry.time = times.next().flatten();
            entry.usage = usages.next();
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

/// A stretch of the rollout: items as they came, or the replacement
/// history a `compacted` line put in place of all that came before.
enum Part {
    Items(Vec<Value>),
    Compacted(Vec<Value>),
    /// The turn was stopped before its end, for this reason.
    Aborted(String),
}

/// Stands in for the summary of a compaction the rollout did not keep.
const NO_SUMMARY: &str = "(the compaction's summary was not recorded)";

/// What a `compacted` line puts in place of the conversation: its
/// `replacement_history`, or, in rollouts that wrote only the summary
/// (`message`), that summary as a user message, as Codex sends it on.
/// (openai/codex, codex-rs/protocol/src/protocol.rs, `CompactedItem`)
fn replacement_of(payload: &Value) -> Vec<Value> {
    match payload.get("replacement_history").and_then(Value::as_array) {
        Some(history) if !history.is_empty() => history.clone(),
        _ => {
            let summary = payload
                .get("message")
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty())
                .unwrap_or(NO_SUMMARY);
            vec![json!({"type": "message", "role": "user", "content": summary})]
        }
    }
}

/// The messages a compaction left, as the history resumes from them: the
/// last prompt among them is the summary's entry (the question of calls
/// that follow at once), the ones before it its opening, any after it
/// context.
fn resumed(messages: Vec<Message>) -> Vec<Entry> {
    let question = messages
        .iter()
        .rposition(read::is_prompt)
        .unwrap_or(messages.len().saturating_sub(1));
    messages
        .into_iter()
        .enumerate()
        .map(|(i, message)| {
            if i == question {
                let mut entry = Entry::new(message, Origin::Compaction);
                entry.compaction = Some(Compaction::default());
                entry.resumes_after = question;
                entry
            } else {
                Entry::new(message, Origin::History)
            }
        })
        .collect()
}

/// One thing per reply, in order; none at all if they are not as many.
fn in_order<T>(all: Vec<T>, replies: usize) -> std::vec::IntoIter<T> {
    if all.len() == replies {
        all.into_iter()
    } else {
        Vec::new().into_iter()
    }
}

/// Where Codex's `TokenUsage` keeps each count: OpenAI's convention, the
/// cached input inside the input
/// (openai/codex, codex-rs/protocol/src/protocol.rs, `TokenUsage`).
const CODEX_USAGE: UsageKeys = UsageKeys {
    object: "usage",
    output_also: None,
    input: "input_tokens",
    output: "output_tokens",
    cached: &["cached_input_tokens"],
    cached_is_inside_input: true,
    written: None,
};

/// The times and usage of a rollout's replies, read as they come.
#[derive(Default)]
struct Clock {
    /// When the latest item sent to the model was written.
    sent: Option<Stamp>,
    /// Whether the latest item was the model's.
    replying: bool,
    /// One time per reply, in order.
    replies: Vec<Option<Timing>>,
    /// The usage of each call, in order, and the running total the
    /// latest `token_count` event gave.
    usages: Vec<Usage>,
    total: Option<Value>,
    /// When each tool call was asked for, and when answered, by call id.
    called: HashMap<String, Stamp>,
    answered: HashMap<String, Stamp>,
}

impl Clock {
    /// A `token_count` event. Codex writes one as a call completes and
    /// again later with the same figures, and older versions write it
    /// before the call's items: a call's usage is the event whose running
    /// total (`total_token_usage`) moved, its own in `last_token_usage`.
    fn token_count(&mut self, info: Option<&Value>) {
        let Some(info) = info.filter(|i| i.is_object()) else {
            return;
        };
        let total = info.get("total_token_usage");
        if total.is_some() && total == self.total.as_ref() {
            return;
        }
        self.total = total.cloned();
        if let Some(last) = info.get("last_token_usage") {
            self.usages.push(usage_of(last, &CODEX_USAGE));
        }
    }

    fn item(&mut self, item: &Value, stamp: Option<Stamp>) {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let role = item.get("role").and_then(Value::as_str);
        let call_id = item.get("call_id").and_then(Value::as_str);
        let from_model = match kind {
            "reasoning" | "function_call" | "custom_tool_call" | "web_search_call" => true,
            "message" => role == Some("assistant"),
            "function_call_output" | "custom_tool_call_output" => false,
            // Not part of the conversation (`ghost_snapshot`, say).
            _ => return,
        };
        match (kind, call_id, &stamp) {
            ("function_call" | "custom_tool_call", Some(id), Some(at)) => {
                self.called.insert(id.to_owned(), at.clone());
            }
            ("function_call_output" | "custom_tool_call_output", Some(id), Some(at)) => {
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
        Some(
            "message"
                | "function_call"
                | "function_call_output"
                | "custom_tool_call"
                | "custom_tool_call_output"
                | "web_search_call"
                | "reasoning"
        )
    )
}
