//! Agent trajectories that keep the model's conversation in OpenAI Chat
//! shape, with the harness's own additions:
//!
//! - SWE-agent `.traj` files: the conversation is `history`; a tool result
//!   names its call in a `tool_call_ids` list; demonstrations are marked
//!   `is_demo`; runs without function calling write the command an
//!   assistant message ran in its `action` field, and the output comes back
//!   as the next user message.
//! - mini-swe-agent `.traj.json` files (`trajectory_format`
//!   `mini-swe-agent-1` or `-1.1`): the conversation is `messages`; the
//!   older format's commands are a ```` ```bash ```` block in the assistant
//!   text, answered by the next user message; the newer one uses real tool
//!   calls and ends with a message of role `exit`.
//!
//! Both are rewritten here into a plain OpenAI conversation, a command run
//! from text becoming a `bash` tool call, which the conversation importer
//! then reads. How the agent said it ended (`info.exit_status`) is noted.

use serde_json::{Map, Value, json};

use super::conversation;
use super::segment::Recording;
use crate::dialect::read::Reader;
use crate::transcript::Note;

/// Whether `top` is a trajectory of either agent.
pub fn detect(top: &Map<String, Value>) -> bool {
    // A demonstration file holds `history` alone; a native transcript may
    // have a `history` too, beside its `replies`.
    let swe_agent = !top.contains_key("replies")
        && top
            .get("history")
            .and_then(Value::as_array)
            .and_then(|h| h.first())
            .is_some_and(|m| m.get("role").is_some());
    let mini = top
        .get("trajectory_format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("mini-swe-agent"))
        && top.get("messages").is_some_and(Value::is_array);
    swe_agent || mini
}

pub fn read(top: &Value, recording: &mut Recording, reader: &mut Reader, notes: &mut Vec<Note>) {
    let messages = top
        .get("history")
        .or_else(|| top.get("messages"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let conversation = json!({
        "model": model_name(top),
        "messages": plain_messages(messages, reader),
    });
    conversation::read(&conversation, recording, reader);
    if let Some(status) = top.pointer("/info/exit_status").and_then(Value::as_str) {
        notes.push(Note::AgentExit {
            status: status.to_owned(),
        });
    }
}

/// The model the run used, where the trajectory says.
fn model_name(top: &Value) -> Value {
    [
        "/info/config/model/model_name",
        "/replay_config/agent/model/name",
    ]
    .iter()
    .find_map(|pointer| top.pointer(pointer).filter(|v| v.is_string()))
    .cloned()
    .unwrap_or(Value::Null)
}

/// The conversation as OpenAI Chat messages: demonstrations and `exit`
/// dropped, `tool_call_ids` lists made `tool_call_id`s, commands run from
/// text made tool calls whose results are the user messages that follow.
fn plain_messages(messages: &[Value], reader: &mut Reader) -> Vec<Value> {
    let mut plain = Vec::with_capacity(messages.len());
    // The id of a command run from text, until the output that answers it.
    let mut awaiting: Option<String> = None;
    for (index, message) in messages.iter().enumerate() {
        let Some(fields) = message.as_object() else {
            plain.push(message.clone());
            continue;
        };
        if fields.get("is_demo").and_then(Value::as_bool) == Some(true) {
            reader.skipped.add(crate::transcript::Skip::Demonstrations);
            continue;
        }
        let role = fields.get("role").and_then(Value::as_str).unwrap_or("");
        match role {
            "assistant" if !has_tool_calls(fields) => match command_of(fields) {
                Some(command) => {
                    let id = format!("action-{index}");
                    plain.push(with_command(fields, &id, &command));
                    awaiting = Some(id);
                }
                None => plain.push(message.clone()),
            },
            "user" if awaiting.is_some() => {
                let id = awaiting.take().expect("checked above");
                plain.push(json!({
                    "role": "tool",
                    "tool_call_id": id,
                    "content": fields.get("content").cloned().unwrap_or(Value::Null),
                }));
            }
            "tool" => {
                let ids = fields.get("tool_call_ids").and_then(Value::as_array);
                match ids {
                    // One message per id: the harness writes lists of one.
                    Some(ids) => plain.extend(ids.iter().map(|id| {
                        let mut result = fields.clone();
                        result.remove("tool_call_ids");
                        result.insert("tool_call_id".to_owned(), id.clone());
                        Value::Object(result)
                    })),
                    None => plain.push(message.clone()),
                }
            }
            _ => plain.push(message.clone()),
        }
    }
    plain
}

fn has_tool_calls(fields: &Map<String, Value>) -> bool {
    fields
        .get("tool_calls")
        .and_then(Value::as_array)
        .is_some_and(|calls| !calls.is_empty())
}

/// The command an assistant message ran without a tool call: SWE-agent's
/// parsed `action`, or mini-swe-agent's one ```` ```bash ```` block.
fn command_of(fields: &Map<String, Value>) -> Option<String> {
    if let Some(action) = fields.get("action").and_then(Value::as_str) {
        let action = action.trim();
        return (!action.is_empty()).then(|| action.to_owned());
    }
    let text = fields.get("content").and_then(Value::as_str)?;
    let (_, after) = text.split_once("```bash\n")?;
    let (command, _) = after.split_once("```")?;
    Some(command.trim_end().to_owned())
}

/// The assistant message with its command as a `bash` tool call.
fn with_command(fields: &Map<String, Value>, id: &str, command: &str) -> Value {
    let mut message = fields.clone();
    let arguments = json!({ "command": command }).to_string();
    message.insert(
        "tool_calls".to_owned(),
        json!([{"id": id, "type": "function", "function": {"name": "bash", "arguments": arguments}}]),
    );
    Value::Object(message)
}
