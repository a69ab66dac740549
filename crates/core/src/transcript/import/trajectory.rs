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
//! then reads. How the agent said it ended (`info.exit_status`) is the
//! run's ending. SWE-agent writes its last step (the `submit`) to
//! `trajectory` only: steps beyond the history's replies, and the output
//! of a last command the history leaves unanswered, come from there.
//! mini-swe-agent keeps each call's whole response in `extra.response`:
//! its finish reason and usage are the recorded ones, except where the
//! harness read the command from the text (the API said `stop`; the
//! command it ran is shown as a call, its stop reason inferred).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::conversation;
use super::segment::{Entry, Recording};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{EndedBy, Ending, Role};
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

/// Reads the trajectory into `recording`; returns the conversations of
/// other agents its history holds.
pub fn read(
    top: &Value,
    recording: &mut Recording,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) -> Vec<Recording> {
    let history = top
        .get("history")
        .or_else(|| top.get("messages"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let messages = with_last_steps(history, top.get("trajectory"));
    let (plain, responses, from_text) = plain_messages(&messages, reader);
    if from_text.commands > 0
        && let Some(said) = from_text.said
    {
        notes.push(Note::CommandsFromText {
            commands: from_text.commands,
            said,
        });
    }
    let conversation = json!({ "model": model_name(top), "messages": plain });
    let others = conversation::read_agents(&conversation, recording, reader);
    let mut replies: Vec<&mut Entry> = recording
        .entries
        .iter_mut()
        .filter(|e| e.message.role == Role::Assistant)
        .collect();
    // Each reply its response, unless they did not come out one for one
    // (or several agents share the history).
    if others.is_empty() && replies.len() == responses.len() {
        for (entry, response) in replies.iter_mut().zip(responses) {
            let Some(response) = response else { continue };
            let read = Dialect::OpenaiChat.read_response(reader, response);
            entry.stop_reason = read.stop_reason;
            entry.usage = read.usage;
        }
    }
    // The calls the agent counted (SWE-agent's and mini-swe-agent's
    // `info.model_stats.api_calls`) may be more than the replies it kept:
    // mini-swe-agent keeps no reply its format check refused.
    let kept = replies.len()
        + others
            .iter()
            .flat_map(|o| &o.entries)
            .filter(|e| e.message.role == Role::Assistant)
            .count();
    if let Some(made) = top
        .pointer("/info/model_stats/api_calls")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|made| *made > kept)
    {
        notes.push(Note::CallsNotKept { made, kept });
    }
    if let Some(status) = top.pointer("/info/exit_status").and_then(Value::as_str) {
        recording.ending = Some(Ending {
            by: EndedBy::Agent,
            status: status.to_owned(),
            call: None,
        });
    }
    others
}

/// The history, with what SWE-agent wrote to its `trajectory` only: each
/// step past the history's replies (its final `submit`) as a command and
/// its output, and the output of a last command left unanswered.
fn with_last_steps<'a>(history: &'a [Value], trajectory: Option<&'a Value>) -> Vec<Cow<'a, Value>> {
    let mut messages: Vec<Cow<Value>> = history.iter().map(Cow::Borrowed).collect();
    let Some(steps) = trajectory.and_then(Value::as_array) else {
        return messages;
    };
    let is_reply = |m: &Value| {
        m.get("role").and_then(Value::as_str) == Some("assistant")
            && m.get("is_demo").and_then(Value::as_bool) != Some(true)
    };
    let replies = history.iter().filter(|m| is_reply(m)).count();
    let text = |step: &Value, key: &str| step.get(key).cloned().unwrap_or(Value::Null);
    if history
        .last()
        .is_some_and(|m| is_reply(m) && command_of_value(m).is_some())
        && let Some(step) = replies.checked_sub(1).and_then(|i| steps.get(i))
    {
        messages.push(Cow::Owned(
            json!({"role": "user", "content": text(step, "observation")}),
        ));
    }
    for step in steps.iter().skip(replies) {
        messages.push(Cow::Owned(json!({
            "role": "assistant",
            "content": text(step, "response"),
            "action": text(step, "action"),
        })));
        messages.push(Cow::Owned(
            json!({"role": "user", "content": text(step, "observation")}),
        ));
    }
    messages
}

fn command_of_value(message: &Value) -> Option<String> {
    message
        .as_object()
        .filter(|fields| !has_tool_calls(fields))
        .and_then(command_of)
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
/// With it, for each reply, the response the log kept for it
/// (`extra.response`), unless its command was read from the text.
fn plain_messages<'a>(
    messages: &'a [Cow<'a, Value>],
    reader: &mut Reader,
) -> (Vec<Value>, Vec<Option<&'a Value>>, FromText) {
    let mut plain = Vec::with_capacity(messages.len());
    let mut responses = Vec::new();
    let mut from_text = FromText::default();
    // The id of a command run from text, until the output that answers it.
    let mut awaiting: Option<String> = None;
    for (index, message) in messages.iter().enumerate() {
        let message = message.as_ref();
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
                    responses.push(None);
                    from_text.commands += 1;
                    let said = response_of(message)
                        .and_then(|r| r.pointer("/choices/0/finish_reason"))
                        .and_then(Value::as_str);
                    from_text.said = from_text.said.or(said.map(str::to_owned));
                    awaiting = Some(id);
                }
                None => {
                    plain.push(message.clone());
                    responses.push(response_of(message));
                }
            },
            "assistant" => {
                plain.push(message.clone());
                responses.push(response_of(message));
            }
            "user" if awaiting.is_some() => {
                let id = awaiting.take().expect("checked above");
                plain.push(json!({
                    "role": "tool",
                    "tool_call_id": id,
                    "content": fields.get("content").cloned().unwrap_or(Value::Null),
                }));
            }
            // mini-swe-agent's submit: its command's output is the
            // submission the `exit` message holds.
            "exit" => match last_call(&plain) {
                Some(id) => plain.push(json!({
                    "role": "tool",
                    "tool_call_id": id,
                    "content": fields.get("content").cloned().unwrap_or(Value::Null),
                })),
                None => plain.push(message.clone()),
            },
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
    (plain, responses, from_text)
}

/// Replies whose command the harness read from their text, and the
/// finish reason the API gave (the first one the log kept).
#[derive(Default)]
struct FromText {
    commands: usize,
    said: Option<String>,
}

/// The id of the first call of the last message, when that is a reply
/// asking for tools, still unanswered.
fn last_call(plain: &[Value]) -> Option<Value> {
    let last = plain.last()?;
    (last.get("role").and_then(Value::as_str) == Some("assistant"))
        .then(|| last.pointer("/tool_calls/0/id").cloned())
        .flatten()
}

/// The whole response mini-swe-agent kept with a reply, if it did.
fn response_of(message: &Value) -> Option<&Value> {
    message.pointer("/extra/response").filter(|r| r.is_object())
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
    // mini-swe-agent runs a reply's block only when it is the one block
    // there: with none or several, it sends its format error instead.
    let text = fields.get("content").and_then(Value::as_str)?;
    let mut blocks = text.split("```bash\n").skip(1);
    let (Some(block), None) = (blocks.next(), blocks.next()) else {
        return None;
    };
    let (command, _) = block.split_once("```")?;
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
