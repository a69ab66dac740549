//! What `codex exec --json` prints: JSON Lines of events, one `{"type"}`
//! each (openai/codex, docs/exec.md and codex-rs/exec/src/exec_events.rs):
//! `thread.started`, then per prompt `turn.started`, the turn's items as
//! `item.started` / `item.updated` / `item.completed` (`{"id", "type", …}`:
//! `agent_message`, `reasoning`, `command_execution`, `file_change`,
//! `mcp_tool_call`, `web_search`, `todo_list`, `error`), and
//! `turn.completed` with the thread's usage so far, or `turn.failed` with
//! its error (a top-level `error` line before it says the same).
//!
//! The stream is a view of the agent, not of its API: it holds neither the
//! prompt nor the model calls. So the items are told as the Responses items
//! a Codex rollout holds, and read as one (`codex.rs`): a tool's call where
//! it started and its output where it completed, so that tools that ran
//! together share a call and a tool after a finished one asks again. A
//! note says so. Item ids start again at `item_0` with each `codex exec`
//! (a `resume` appends a second thread to the same output): a call's id is
//! its item's id within its turn.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::codex;
use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::Reader;
use crate::engine::Message;
use crate::transcript::{Note, Skip};

/// Stands in for the prompt, which the stream does not keep.
pub const NO_PROMPT: &str = "(codex exec --json does not record the prompt)";

/// Whether a line is one of `codex exec --json`'s events.
pub fn is_exec_line(line: &Value) -> bool {
    matches!(
        line.get("type").and_then(Value::as_str),
        Some("thread.started" | "turn.started" | "turn.completed" | "turn.failed")
    ) || (line
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("item."))
        && line.get("item").is_some())
}

pub fn read(
    lines: &[Value],
    recording: &mut Recording,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) {
    let mut items = Vec::new();
    let mut turn = 0;
    let mut called = std::collections::HashSet::new();
    // The turns that failed, by number, and their errors.
    let mut failed = BTreeMap::new();
    for line in lines {
        let item = line.get("item").unwrap_or(&Value::Null);
        let id = format!(
            "{turn}:{}",
            item.get("id").and_then(Value::as_str).unwrap_or("")
        );
        match line.get("type").and_then(Value::as_str).unwrap_or("") {
            "turn.started" => {
                turn += 1;
                items.push(json!({"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": NO_PROMPT}]}));
            }
            "item.started" => {
                if let Some(call) = call_of(item, &id) {
                    called.insert(id);
                    items.push(call);
                }
            }
            "item.completed" => {
                if !called.contains(&id)
                    && let Some(call) = call_of(item, &id)
                {
                    items.push(call);
                }
                items.extend(completed(item, &id));
            }
            "turn.failed" => {
                failed.insert(turn, message_of(line.get("error")));
            }
            "item.updated" | "thread.started" | "turn.completed" | "error" => {}
            other => reader.skipped.add(Skip::Lines(other.to_owned())),
        }
    }
    notes.push(Note::CallsNotRecorded);
    let wrapped: Vec<Value> = items
        .into_iter()
        .map(|payload| json!({"type": "response_item", "payload": payload}))
        .collect();
    codex::read(&wrapped, recording, reader);
    end_failed_turns(recording, &failed);
}

/// Each failed turn ends on its error, as the API failing the call it was
/// making: the turn's run ends there (`api_failed`), a turn that failed
/// before any reply a run all the same.
fn end_failed_turns(recording: &mut Recording, failed: &BTreeMap<usize, String>) {
    if failed.is_empty() {
        return;
    }
    let is_prompt = |e: &Entry| e.origin == Origin::Conversation && e.message.text() == NO_PROMPT;
    let mut entries = Vec::with_capacity(recording.entries.len() + failed.len());
    let mut turn = 0;
    for entry in std::mem::take(&mut recording.entries) {
        if is_prompt(&entry) {
            entries.extend(failure(failed, turn));
            turn += 1;
        }
        entries.push(entry);
    }
    entries.extend(failure(failed, turn));
    recording.entries = entries;
}

/// The entry that ends turn `turn` on its error, if it failed.
fn failure(failed: &BTreeMap<usize, String>, turn: usize) -> Option<Entry> {
    let error = failed.get(&turn)?;
    Some(Entry::new(
        Message::user_text(error.clone()),
        Origin::ApiFailure,
    ))
}

/// The Responses call an item of a tool stands for; `None` for the model's
/// own items (a message, reasoning) and for a search the server ran.
fn call_of(item: &Value, id: &str) -> Option<Value> {
    let text = |key: &str| item.get(key).cloned().unwrap_or(Value::Null);
    let (name, arguments) = match item.get("type").and_then(Value::as_str)? {
        "command_execution" => ("shell", json!({"command": text("command")})),
        "file_change" => ("apply_patch", json!({"changes": text("changes")})),
        "mcp_tool_call" => {
            let name = format!(
                "{}.{}",
                item.get("server").and_then(Value::as_str).unwrap_or(""),
                item.get("tool").and_then(Value::as_str).unwrap_or("")
            );
            return Some(function_call(&name, &text("arguments"), id));
        }
        "todo_list" => ("update_plan", json!({"items": text("items")})),
        _ => return None,
    };
    Some(function_call(name, &arguments, id))
}

fn function_call(name: &str, arguments: &Value, id: &str) -> Value {
    json!({"type": "function_call", "name": name, "call_id": id,
        "arguments": arguments.to_string()})
}

/// The Responses items a completed item stands for: the model's message or
/// reasoning, a tool's output, a search the server ran.
fn completed(item: &Value, id: &str) -> Vec<Value> {
    let text = item.get("text").and_then(Value::as_str).unwrap_or("");
    let output = |output: String| {
        vec![json!({"type": "function_call_output", "call_id": id, "output": output})]
    };
    match item.get("type").and_then(Value::as_str).unwrap_or("") {
        "agent_message" => vec![json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": text}]})],
        "reasoning" => vec![json!({"type": "reasoning",
            "summary": [{"type": "summary_text", "text": text}]})],
        "command_execution" => {
            let printed = item.get("aggregated_output").and_then(Value::as_str);
            let code = item.get("exit_code").and_then(Value::as_i64);
            output(match code {
                Some(code) => format!("{}\n(exit code {code})", printed.unwrap_or("")),
                None => printed.unwrap_or("").to_owned(),
            })
        }
        "file_change" | "todo_list" => output(
            item.get("status")
                .and_then(Value::as_str)
                .unwrap_or("completed")
                .to_owned(),
        ),
        "mcp_tool_call" => output(match item.get("error") {
            Some(error) if !error.is_null() => message_of(Some(error)),
            _ => item.get("result").map(Value::to_string).unwrap_or_default(),
        }),
        "web_search" => vec![
            json!({"type": "web_search_call", "id": id, "status": "completed",
            "action": {"type": "search", "query": item.get("query").cloned().unwrap_or(Value::Null)}}),
        ],
        _ => Vec::new(),
    }
}

/// An error's message: `{"message"}`, or the value as it came.
fn message_of(error: Option<&Value>) -> String {
    match error {
        Some(e) => e
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| e.to_string(), str::to_owned),
        None => String::new(),
    }
}
