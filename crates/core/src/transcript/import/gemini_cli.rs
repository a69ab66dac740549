//! A Gemini CLI chat session (`~/.gemini/tmp/<project>/chats/session-*.json`
//! or, since April 2026, `.jsonl`), as google-gemini/gemini-cli writes it
//! (`packages/core/src/services/chatRecordingService.ts` and
//! `chatRecordingTypes.ts`, Apache-2.0):
//!
//! - the legacy `.json` is one object, `{sessionId, projectHash, ...,
//!   messages: [...]}`;
//! - a `.jsonl` opens with that object's metadata, then holds one record
//!   per line: a message (re-appended whole, same `id`, each time it
//!   changes: the last one wins, in its first place), `{"$set": {...}}`
//!   (a `messages` array there is a checkpoint that replaces them all), or
//!   `{"$rewindTo": id}`, which drops that message and every one after it
//!   (all of them when the id is unknown).
//!
//! A message is `user`, `gemini` (one model response: its text, its
//! `thoughts`, its `toolCalls` each with the `functionResponse` parts of
//! its `result` and a `status`, its `tokens`), or `info` / `error` /
//! `warning` notices of the interface, which the model never sees. The
//! session keeps no request or stop reason: a response that calls tools
//! asks for them, one that does not answers.

use serde_json::{Map, Value};

use super::segment::{Entry, Origin, Recording};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{Block, Message, Role, Usage};
use crate::transcript::Skip;

/// Whether a JSON document is a legacy session: its metadata and messages.
pub fn is_session(top: &Map<String, Value>) -> bool {
    top.contains_key("projectHash") && top.contains_key("messages")
}

/// Whether a line is one of a `.jsonl` session's.
pub fn is_session_line(line: &Value) -> bool {
    let has = |key| line.get(key).is_some();
    let kind = line.get("type").and_then(Value::as_str);
    (has("sessionId") && has("projectHash"))
        || has("$rewindTo")
        || (has("id")
            && has("content")
            && matches!(kind, Some("user" | "gemini" | "info" | "error" | "warning")))
}

/// Reads a session's lines, or a legacy session as its one line.
pub fn read(lines: &[Value], recording: &mut Recording, reader: &mut Reader) {
    recording.dialect = Dialect::Gemini;
    let mut pending_calls = false;
    // A turn already told as interrupted by a call the user cancelled: the
    // CLI's "Request cancelled." line after it adds nothing.
    let mut interrupted = false;
    for record in current_messages(lines) {
        let kind = record.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "user" => {
                let text = texts(record.get("content")).join("\n");
                // Since May 2026 the CLI also writes the results it sends as
                // a user record of `functionResponse` parts (geminiChat.ts,
                // `recordSyntheticMessage('user', …)`): they are read from the
                // calls' own `result`, so a record of nothing else adds none.
                if text.trim().is_empty() && answers_calls(record.get("content")) {
                    continue;
                }
                // Text the CLI sends with the results of the calls before
                // (its "Please continue." beside a tool's response) is the
                // client's, not a new prompt.
                let origin = if pending_calls {
                    Origin::Client
                } else {
                    Origin::Conversation
                };
                recording.push(Entry::new(Message::user_text(text), origin));
                pending_calls = false;
                interrupted = false;
            }
            "gemini" => {
                if let Some(model) = record.get("model").and_then(Value::as_str) {
                    recording.model = Some(model.to_owned());
                }
                let (reply, results) = response(record);
                pending_calls = !results.is_empty();
                recording.push(Entry::reply(reply, None, usage(record.get("tokens"))));
                if pending_calls {
                    recording.push(Entry::new(
                        Message {
                            role: Role::User,
                            content: results,
                        },
                        Origin::Conversation,
                    ));
                }
                // Calls the user cancelled (Esc, or a denied approval) end
                // the turn when all of the reply's were: the CLI then keeps
                // their responses in its history and asks the model nothing
                // more until the next prompt (useGeminiStream.ts,
                // `handleCompletedTools`); when some ran, it sends them all.
                let cancelled =
                    |call: &Value| call.get("status").and_then(Value::as_str) == Some("cancelled");
                if calls_of(record).next().is_some() && calls_of(record).all(cancelled) {
                    recording.push(Entry::new(
                        Message::user_text("Request cancelled."),
                        Origin::Interruption,
                    ));
                    pending_calls = false;
                    interrupted = true;
                }
            }
            // The interface's own line when the user cancels a turn
            // (`useGeminiStream.ts`: `addItem({ type: MessageType.INFO,
            // text: 'Request cancelled.' })`).
            "info" if texts(record.get("content")).concat() == "Request cancelled." => {
                if std::mem::replace(&mut interrupted, true) {
                    continue;
                }
                recording.push(Entry::new(
                    Message::user_text("Request cancelled."),
                    Origin::Interruption,
                ));
                pending_calls = false;
            }
            other => reader.skipped.add(Skip::Lines(other.to_owned())),
        }
    }
}

/// The messages as the CLI would load them: updates in place, checkpoints
/// and rewinds applied.
fn current_messages(lines: &[Value]) -> Vec<&Value> {
    fn put<'a>(messages: &mut Vec<&'a Value>, record: &'a Value) {
        let id = message_id(record);
        match messages.iter_mut().find(|m| message_id(m) == id) {
            Some(kept) => *kept = record,
            None => messages.push(record),
        }
    }
    let mut messages: Vec<&Value> = Vec::new();
    for line in lines {
        if let Some(id) = line.get("$rewindTo").and_then(Value::as_str) {
            let at = messages.iter().position(|m| message_id(m) == Some(id));
            messages.truncate(at.unwrap_or(0));
        } else if let Some(checkpoint) = line.pointer("/$set/messages").and_then(Value::as_array) {
            messages.clear();
            checkpoint.iter().for_each(|m| put(&mut messages, m));
        } else if let Some(all) = line.get("messages").and_then(Value::as_array) {
            // The legacy file, or a first line that carries them.
            all.iter().for_each(|m| put(&mut messages, m));
        } else if line.get("type").is_some() && line.get("id").is_some() {
            put(&mut messages, line);
        }
    }
    messages
}

fn message_id(record: &Value) -> Option<&str> {
    record.get("id").and_then(Value::as_str)
}

/// The text parts of a part list, a single part, or a string.
fn texts(content: Option<&Value>) -> Vec<&str> {
    match content {
        Some(Value::String(text)) => vec![text],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        Some(part @ Value::Object(_)) => part
            .get("text")
            .and_then(Value::as_str)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether content holds `functionResponse` parts.
fn answers_calls(content: Option<&Value>) -> bool {
    content
        .and_then(Value::as_array)
        .is_some_and(|parts| parts.iter().any(|p| p.get("functionResponse").is_some()))
}

/// A `gemini` record as the reply it was, and the results of its calls.
fn response(record: &Value) -> (Message, Vec<Block>) {
    let mut content = Vec::new();
    let thoughts = record.get("thoughts").and_then(Value::as_array);
    for thought in thoughts.into_iter().flatten() {
        let part = |key| thought.get(key).and_then(Value::as_str).unwrap_or("");
        let thinking = match (part("subject"), part("description")) {
            ("", description) => description.to_owned(),
            (subject, description) => format!("{subject}: {description}"),
        };
        if !thinking.is_empty() {
            content.push(Block::Thinking { thinking });
        }
    }
    let text = texts(record.get("content")).concat();
    if !text.is_empty() {
        content.push(Block::Text { text });
    }
    let mut results = Vec::new();
    let calls = record.get("toolCalls").and_then(Value::as_array);
    for call in calls.into_iter().flatten() {
        let field = |key| call.get(key).and_then(Value::as_str).unwrap_or("");
        let id = field("id").to_owned();
        content.push(Block::ToolUse {
            id: id.clone(),
            name: field("name").to_owned(),
            input: call
                .get("args")
                .cloned()
                .unwrap_or(Value::Object(Map::new())),
        });
        // A call the user cancelled, or one still running when the file
        // was written, has no result to send.
        let Some(parts) = call.get("result").and_then(Value::as_array) else {
            continue;
        };
        let answers = parts
            .iter()
            .filter_map(|p| p.pointer("/functionResponse/response"));
        let text: Vec<String> = answers
            .map(|r| Dialect::gemini_response_text(r).0)
            .collect();
        results.push(Block::ToolResult {
            tool_use_id: id,
            content: text.join("\n").into(),
            is_error: matches!(field("status"), "error" | "cancelled"),
        });
    }
    let reply = Message {
        role: Role::Assistant,
        content,
    };
    (reply, results)
}

/// `tokens`: `input` is the whole prompt, the cached part included
/// (`promptTokenCount`, per the comments in chatRecordingTypes.ts).
fn usage(tokens: Option<&Value>) -> Option<Usage> {
    let tokens = tokens?.as_object()?;
    let count = |key| tokens.get(key).and_then(Value::as_u64).unwrap_or(0);
    let cached = count("cached");
    Some(Usage {
        input_tokens: count("input").saturating_sub(cached),
        // Thinking is output, counted apart (`thoughts`).
        output_tokens: count("output").saturating_add(count("thoughts")),
        cache_read_tokens: cached,
        cache_write_tokens: 0,
    })
}

/// A model record's tool calls.
fn calls_of(record: &Value) -> impl Iterator<Item = &Value> {
    record
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(lines: &[Value]) -> Vec<&str> {
        current_messages(lines)
            .into_iter()
            .filter_map(message_id)
            .collect()
    }

    #[test]
    fn the_results_the_cli_records_as_a_user_message_add_no_message() {
        // The shape geminiChat.ts writes since May 2026: the tool's
        // response recorded again as a user record of its parts.
        let lines = [
            json!({"sessionId": "s", "projectHash": "h"}),
            json!({"id": "u1", "type": "user", "content": [{"text": "What day is it?"}]}),
            json!({"id": "g1", "type": "gemini", "content": "", "toolCalls": [{
                "id": "c1", "name": "get_today", "args": {}, "status": "success",
                "result": [{"functionResponse": {"id": "c1", "name": "get_today",
                                                 "response": {"output": "2026-12-02"}}}]}]}),
            json!({"id": "u2", "type": "user", "content": [{"functionResponse": {
                "id": "c1", "name": "get_today", "response": {"output": "2026-12-02"}}}]}),
            json!({"id": "g2", "type": "gemini", "content": "It is 2026-12-02."}),
        ];
        let mut recording = Recording::default();
        read(&lines, &mut recording, &mut Reader::default());
        let origins: Vec<Origin> = recording.entries.iter().map(|e| e.origin).collect();
        assert_eq!(
            origins,
            [
                Origin::Conversation,
                Origin::Conversation,
                Origin::Conversation,
                Origin::Conversation
            ]
        );
    }

    /// A call the user cancelled ends the run as interrupted, and the
    /// CLI's "Request cancelled." line after it is not a second ending.
    #[test]
    fn a_cancelled_call_interrupts_its_turn_once() {
        let lines = [
            json!({"sessionId": "s", "projectHash": "h"}),
            json!({"id": "u1", "type": "user", "content": "Delete the build folder"}),
            json!({"id": "g1", "type": "gemini", "content": "", "toolCalls": [{
                "id": "c1", "name": "run_shell_command", "args": {"command": "rm -rf build"},
                "status": "cancelled",
                "result": [{"functionResponse": {"id": "c1", "name": "run_shell_command",
                    "response": {"error": "[Operation Cancelled] Reason: User cancelled the operation."}}}]}]}),
            json!({"id": "i1", "type": "info", "content": "Request cancelled."}),
            json!({"id": "u2", "type": "user", "content": "Only list it"}),
            json!({"id": "g2", "type": "gemini", "content": "It holds app.js."}),
        ];
        let mut recording = Recording::default();
        read(&lines, &mut recording, &mut Reader::default());
        let origins: Vec<Origin> = recording.entries.iter().map(|e| e.origin).collect();
        assert_eq!(
            origins,
            [
                Origin::Conversation,
                Origin::Conversation,
                Origin::Conversation,
                Origin::Interruption,
                Origin::Conversation,
                Origin::Conversation
            ]
        );
    }

    #[test]
    fn an_update_keeps_its_place_a_rewind_drops_the_rest_a_checkpoint_replaces_all() {
        let m = |id: &str, text: &str| json!({"id": id, "type": "user", "content": text});
        let lines = [
            json!({"sessionId": "s", "projectHash": "h"}),
            m("a", "1"),
            m("b", "2"),
            m("a", "1 again"),
            m("c", "3"),
        ];
        assert_eq!(ids(&lines), ["a", "b", "c"]);
        assert_eq!(current_messages(&lines)[0]["content"], "1 again");
        let mut rewound = lines.to_vec();
        rewound.push(json!({"$rewindTo": "b"}));
        assert_eq!(ids(&rewound), ["a"]);
        rewound.push(json!({"$rewindTo": "unknown"}));
        assert_eq!(ids(&rewound), Vec::<&str>::new());
        let mut checkpoint = lines.to_vec();
        checkpoint.push(json!({"$set": {"messages": [m("z", "only")]}}));
        checkpoint.push(m("y", "after"));
        assert_eq!(ids(&checkpoint), ["z", "y"]);
    }
}
