//! A Cline or Roo Code task's model transcript, `api_conversation_history.json`
//! in the task's folder (cline/cline, apps/vscode/src/core/storage/disk.ts;
//! RooCodeInc/Roo-Code, src/shared/globalFileNames.ts): Anthropic-shaped
//! messages, written by the extension around the model's words.
//!
//! - The person's words come wrapped: `<task>` opens the task, `<feedback>`
//!   answers a completion, `<user_message>` follows a resumption (and, in
//!   Roo Code 3.42 on, is every prompt).
//! - Every user message ends with `<environment_details>`, the
//!   extension's own report of the editor: never a prompt, left out.
//! - Before native tool calling (Cline 3.35, Roo Code 3.32 and on, by
//!   setting), a reply asks for a tool in its text, as XML
//!   (`<read_file>\n<path>x</path>\n</read_file>`), and the result comes
//!   back as user text headed `[read_file for 'x'] Result:`; native
//!   `tool_use` blocks are answered the same way in Cline, by
//!   `tool_result` blocks in Roo Code. A header answers the reply's next
//!   call still unanswered, in order.
//! - `attempt_completion` is the agent's ending: its harness shows the
//!   result instead of running it, and the person's feedback, if any,
//!   opens another run.
//! - `[Response interrupted by user]` at the end of a reply is the person
//!   cancelling it; `[Response interrupted by API Error]`, the API failing.
//!
//! Cline 4 writes a session instead (`<sessionId>.messages.json`, cline/
//! cline sdk/packages/core/docs/messages-contract-v1.md): the same
//! Anthropic-shaped messages in an object with `version`, `sessionId` and
//! `system_prompt`, the person's words bare, results real `tool_result`
//! blocks, no editor report and no `attempt_completion`: a reply without
//! calls ends the turn, as in any messages list.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::content::{blocks, field, joined};
use super::conversation;
use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::Reader;
use crate::engine::{Block, EndedBy, Ending, Message, Role};
use crate::transcript::Skip;

/// The tools Cline and Roo Code ask for in XML: the names of the
/// description templates of their tool handlers (Cline's
/// apps/vscode/src/core/task/tools/handlers, Roo Code's
/// presentAssistantMessage.ts).
const TOOLS: &[&str] = &[
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "list_files",
    "list_code_definition_names",
    "search_files",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "plan_mode_respond",
    "act_mode_respond",
    "new_task",
    "web_fetch",
    "web_search",
    "use_skill",
    "apply_patch",
    "apply_diff",
    "insert_content",
    "search_and_replace",
    "fetch_instructions",
    "switch_mode",
    "codebase_search",
    "update_todo_list",
    "run_slash_command",
    "generate_image",
    "load_mcp_documentation",
    "condense",
    "summarize_task",
    "report_bug",
    "new_rule",
];

/// The call Cline and Roo Code take as the agent's end.
const COMPLETION: &str = "attempt_completion";

const ENVIRONMENT: &str = "<environment_details>";

/// Whether `items` are a task's messages: the first is the person's,
/// wrapped as a task, and holds the editor's report.
pub fn detect(items: &[Value]) -> bool {
    let Some(first) = items.first() else {
        return false;
    };
    let texts = texts(first);
    first.get("role").and_then(Value::as_str) == Some("user")
        && texts
            .first()
            .is_some_and(|t| t.starts_with("<task>") || t.starts_with("<user_message>"))
        && texts.iter().any(|t| t.starts_with(ENVIRONMENT))
}

/// Whether `top` is a Cline 4 session's messages file.
pub fn is_session(top: &Map<String, Value>) -> bool {
    top.contains_key("version")
        && top.contains_key("sessionId")
        && top.get("messages").is_some_and(Value::is_array)
}

/// Reads a Cline 4 session as the messages list it is, once Cline's own
/// kinds of block (an attached file, a tool's result parts) are made text.
pub fn read_session(top: &Map<String, Value>, recording: &mut Recording, reader: &mut Reader) {
    let messages: Vec<Value> = top
        .get("messages")
        .and_then(Value::as_array)
        .map(|messages| messages.iter().map(session_message).collect())
        .unwrap_or_default();
    let model = messages
        .iter()
        .find_map(|m| m.pointer("/modelInfo/id"))
        .cloned();
    let document = serde_json::json!({
        "system": top.get("system_prompt"),
        "model": model,
        "messages": messages,
    });
    conversation::read(&document, recording, reader);
}

/// A session message with Cline's own blocks as text: a file the person
/// attached with `@` (`{"type": "file", "path", "content"}`), and the
/// parts of a result kept as Cline's tools return them.
fn session_message(message: &Value) -> Value {
    let mut message = message.clone();
    let blocks = message.get_mut("content").and_then(Value::as_array_mut);
    for block in blocks.into_iter().flatten() {
        match block.get("type").and_then(Value::as_str) {
            Some("file") => {
                let text = format!(
                    "[file {}]\n{}",
                    field(block, "path"),
                    field(block, "content")
                );
                *block = serde_json::json!({"type": "text", "text": text});
            }
            Some("tool_result") => match block.get_mut("content") {
                Some(Value::Array(parts)) => parts.iter_mut().for_each(result_part),
                // A tool that returns one result as its JSON text (the
                // editor's) is shown as the list's parts are.
                Some(content @ Value::String(_)) => {
                    let parsed = content
                        .as_str()
                        .and_then(|text| serde_json::from_str::<Value>(text).ok())
                        .filter(|v| v.get("query").is_some() && v.get("type").is_none());
                    if let Some(mut part) = parsed {
                        result_part(&mut part);
                        *content = Value::Array(vec![part]);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    message
}

/// One part of a result as a text block. An untyped part is a
/// `ToolOperationResult` (cline/cline sdk/packages/core/src/extensions/
/// tools/types.ts: `query`, then `result` or `error`), shown as the query
/// over what came of it.
fn result_part(part: &mut Value) {
    if part.get("type").is_some() {
        return;
    }
    let outcome = match part.get("error").or_else(|| part.get("result")) {
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let text = format!("{}\n{outcome}", field(part, "query"));
    *part = serde_json::json!({"type": "text", "text": text});
}

/// The texts of a message's content: its text blocks, or its string.
fn texts(message: &Value) -> Vec<&str> {
    match message.get("content") {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect(),
        _ => Vec::new(),
    }
}

pub fn read(messages: &[Value], recording: &mut Recording, reader: &mut Reader) {
    // The calls of the last reply still unanswered, in order.
    let mut unanswered: Vec<String> = Vec::new();
    let mut calls = 0;
    // The last reply ended its run (`attempt_completion`, or cut off).
    let mut ended = false;
    for message in messages {
        match message.get("role").and_then(Value::as_str) {
            // Roo Code keeps the summary of a condensed history in the
            // place of what it replaced, marked so.
            Some("assistant") if message.get("isSummary") == Some(&Value::Bool(true)) => {
                let summary = texts(message).join("\n\n");
                recording.push(Entry::new(Message::user_text(summary), Origin::Compaction));
                unanswered.clear();
            }
            Some("assistant") => {
                unanswered = reply(message, recording, &mut calls);
                ended = recording.entries.last().is_some_and(|e| {
                    e.ends.is_some()
                        || matches!(e.origin, Origin::Interruption | Origin::ApiFailure)
                });
            }
            Some("user") => user(message, recording, (&mut unanswered, ended), reader),
            _ => reader.skipped.add(Skip::MessagesNotObjects),
        }
    }
}

/// A reply: its text, its calls (native, or in its text as XML), and how
/// it ended; returns the ids of its calls.
fn reply(message: &Value, recording: &mut Recording, calls: &mut usize) -> Vec<String> {
    let mut content = Vec::new();
    let mut interrupted = None;
    let blocks = blocks(message);
    for block in &blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                let (text, cut) = interruption(text);
                interrupted = interrupted.or(cut);
                if !text.trim().is_empty() {
                    content.push(Block::Text {
                        text: text.to_owned(),
                    });
                }
                for (name, input) in xml_calls(text) {
                    *calls += 1;
                    content.push(Block::ToolUse {
                        id: format!("cline-{calls}"),
                        name: name.to_owned(),
                        input,
                    });
                }
            }
            Some("tool_use") => content.push(Block::ToolUse {
                id: field(block, "id"),
                name: field(block, "name"),
                input: block.get("input").cloned().unwrap_or(Value::Null),
            }),
            Some("thinking") => content.push(Block::Thinking {
                thinking: field(block, "thinking"),
            }),
            _ => {}
        }
    }
    let ids: Vec<String> = content
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect();
    let completion = content.iter().find_map(|b| match b {
        Block::ToolUse { id, name, .. } if name == COMPLETION => Some(id.clone()),
        _ => None,
    });
    if !content.is_empty() {
        let mut entry = Entry::reply(
            Message {
                role: Role::Assistant,
                content,
            },
            None,
            None,
        );
        entry.ends = completion.map(|id| Ending {
            by: EndedBy::Agent,
            status: COMPLETION.to_owned(),
            call: Some(id),
        });
        recording.push(entry);
    }
    if let Some((marker, origin)) = interrupted {
        recording.push(Entry::new(Message::user_text(marker), origin));
    }
    ids
}

/// A reply's text without the marker the extension put at its end when
/// it was cut off, and the marker with who cut it, where that ends the
/// run.
fn interruption(text: &str) -> (&str, Option<(&'static str, Origin)>) {
    const MARKERS: [(&str, Option<Origin>); 4] = [
        ("[Response interrupted by user]", Some(Origin::Interruption)),
        (
            "[Response interrupted by user feedback]",
            Some(Origin::Interruption),
        ),
        (
            "[Response interrupted by API Error]",
            Some(Origin::ApiFailure),
        ),
        // Cut at its first tool, which then ran: the run goes on.
        (
            "[Response interrupted by a tool use result. Only one tool may be used at a time \
             and should be placed at the end of the message.]",
            None,
        ),
    ];
    let trimmed = text.trim_end();
    for (marker, origin) in MARKERS {
        if let Some(before) = trimmed.strip_suffix(marker) {
            return (before.trim_end(), origin.map(|origin| (marker, origin)));
        }
    }
    (text, None)
}

/// The tool calls a reply wrote as XML: each `<tool>…</tool>` of a known
/// tool, its parameters the elements inside (a nested one kept as its
/// text).
fn xml_calls(text: &str) -> Vec<(&'static str, Value)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let Some(name) = TOOLS.iter().find(|t| {
            rest.strip_prefix(**t)
                .is_some_and(|after| after.starts_with('>'))
        }) else {
            continue;
        };
        let body = &rest[name.len() + 1..];
        let close = format!("</{name}>");
        // A call cut off before its end (Roo Code stops a reply at its
        // first tool) ran with what it had.
        let Some(end) = body.find(&close) else {
            found.push((*name, parameters(body)));
            break;
        };
        found.push((*name, parameters(&body[..end])));
        rest = &body[end + close.len()..];
    }
    found
}

/// The elements of a call's body, `<name>value</name>`, as an object.
fn parameters(body: &str) -> Value {
    let mut input = Map::new();
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let Some(end) = rest.find('>') else { break };
        let name = &rest[..end];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        let close = format!("</{name}>");
        let inner = &rest[end + 1..];
        // A parameter cut off runs to the end of what was written.
        let stop = inner.find(&close).unwrap_or(inner.len());
        let value = inner[..stop].trim();
        input.insert(name.to_owned(), Value::String(value.to_owned()));
        rest = inner.get(stop + close.len()..).unwrap_or("");
    }
    Value::Object(input)
}

/// A user message: results for the last reply's calls, the person's words
/// (a prompt), the extension's own words; its report of the editor left
/// out.
fn user(
    message: &Value,
    recording: &mut Recording,
    (unanswered, ended): (&mut Vec<String>, bool),
    reader: &mut Reader,
) {
    let mut results: Vec<Block> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    // The task was interrupted and taken up again: what it was told then.
    let mut resumed: Option<String> = None;
    // The result being read: a header's call, and its text so far.
    let mut current: Option<(String, String, bool)> = None;
    let blocks = blocks(message);
    for block in &blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_result") => {
                finish(&mut current, &mut results);
                let id = field(block, "tool_use_id");
                unanswered.retain(|u| *u != id);
                results.push(Block::ToolResult {
                    tool_use_id: id,
                    content: Arc::from(joined(block.get("content")).as_str()),
                    is_error: block.get("is_error").and_then(Value::as_bool) == Some(true),
                });
            }
            Some("text") => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                if text.starts_with(ENVIRONMENT) {
                    finish(&mut current, &mut results);
                    reader
                        .skipped
                        .add(Skip::Blocks("environment_details".to_owned()));
                } else if let Some(resumption) = resumption(text) {
                    finish(&mut current, &mut results);
                    resumed = resumed.or(Some(resumption.to_owned()));
                    words.extend(person(text).map(str::to_owned));
                } else if let Some((head, body)) = result_header(text)
                    && (head == "[attempt_completion]" || !unanswered.is_empty())
                {
                    finish(&mut current, &mut results);
                    // The completion's call is never run: what follows it
                    // is the person's.
                    if head != "[attempt_completion]" {
                        let id = unanswered.remove(0);
                        current = Some((id, body.to_owned(), is_failure(body)));
                    }
                } else if is_not_run(text) && !unanswered.is_empty() {
                    // A call after the first one a reply made, which the
                    // extension did not run (one tool a message).
                    finish(&mut current, &mut results);
                    let id = unanswered.remove(0);
                    current = Some((id, text.to_owned(), true));
                } else if let Some((_, text_so_far, is_error)) = &mut current {
                    // The rest of a result: its text, a second header for
                    // the same call, or the person's words given with it
                    // (Roo Code adds them to the result the model reads).
                    if text_so_far.is_empty() {
                        *is_error = is_failure(text);
                    }
                    text_so_far.push_str(if text_so_far.is_empty() { "" } else { "\n\n" });
                    text_so_far.push_str(text);
                } else if let Some(said) = person(text) {
                    words.push(said.to_owned());
                } else {
                    words.push(text.to_owned());
                }
            }
            Some(other) => reader.skipped.add(Skip::Blocks(other.to_owned())),
            None => {}
        }
    }
    finish(&mut current, &mut results);
    if !results.is_empty() {
        recording.push(Entry::new(
            Message {
                role: Role::User,
                content: results,
            },
            Origin::Conversation,
        ));
    }
    // A task taken up again after it was interrupted: the run it was in
    // ended there, and what the person then said opens another.
    if let Some(resumption) = resumed {
        if !ended {
            recording.push(Entry::new(
                Message::user_text(resumption.clone()),
                Origin::Interruption,
            ));
        }
        if words.is_empty() {
            words.push(resumption);
        }
    }
    let words: Vec<String> = words.into_iter().filter(|w| !w.trim().is_empty()).collect();
    if !words.is_empty() {
        recording.push(Entry::new(
            Message::user_text(words.join("\n\n")),
            Origin::Conversation,
        ));
    }
}

/// The result being read, now whole, onto `results`.
fn finish(current: &mut Option<(String, String, bool)>, results: &mut Vec<Block>) {
    if let Some((id, text, is_error)) = current.take() {
        results.push(Block::ToolResult {
            tool_use_id: id,
            content: Arc::from(text.trim()),
            is_error,
        });
    }
}

/// A result's header, `[read_file for 'x'] Result:` (up to the first
/// `] Result:`, as a parameter may hold `]`), and the text after it.
fn result_header(text: &str) -> Option<(&str, &str)> {
    if !text.starts_with('[') {
        return None;
    }
    let at = text.find("] Result:")?;
    let head = &text[..=at];
    let body = text[at + "] Result:".len()..].trim_start_matches([' ', '\n']);
    Some((head, body))
}

/// Whether a result says the tool failed or was refused (Cline's
/// core/prompts/responses.ts: `toolError`, `toolDenied`).
fn is_failure(text: &str) -> bool {
    text.starts_with("The tool execution failed")
        || text.starts_with("The user denied this operation")
        || is_not_run(text)
}

/// Whether a text says a call was not run: a second tool in one message
/// (`toolAlreadyUsed`), or one after a tool the person rejected.
fn is_not_run(text: &str) -> bool {
    text.starts_with("Tool [") && text.contains("was not executed")
        || text.starts_with("Skipping tool")
}

/// The words that take an interrupted task up again, where a block holds
/// them: Cline's `[TASK RESUMPTION] This task was interrupted …` (core/
/// prompts/responses.ts, `taskResumption`), or the heading Roo Code 3.25.4
/// on writes alone before the person's words.
fn resumption(text: &str) -> Option<&str> {
    const CONTINUATION: &str = "New instructions for task continuation:";
    let text = text.trim_start();
    if text.starts_with("[TASK RESUMPTION]") {
        Some(text.split("\n\n").next().unwrap_or(text))
    } else if text.starts_with(CONTINUATION) {
        Some(CONTINUATION)
    } else {
        None
    }
}

/// The person's own words, where a block holds them in a wrapper.
fn person(text: &str) -> Option<&str> {
    const WRAPPERS: [(&str, &str); 4] = [
        ("<task>", "</task>"),
        ("<feedback>", "</feedback>"),
        ("<user_message>", "</user_message>"),
        ("<answer>", "</answer>"),
    ];
    WRAPPERS.iter().find_map(|(open, close)| {
        let start = text.find(open)? + open.len();
        let end = text[start..].find(close)? + start;
        Some(text[start..end].trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_written_as_xml_are_read_with_their_parameters() {
        let text = "I will look.\n<thinking>first</thinking>\n<read_file>\n<path>src/a.rs</path>\n\
                    </read_file>";
        let calls = xml_calls(text);
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].0, "read_file");
        assert_eq!(calls[0].1["path"], "src/a.rs");
        // A tag of no known tool is no call.
        assert!(xml_calls("<thinking>x</thinking>").is_empty());
    }

    #[test]
    fn a_header_is_read_up_to_its_first_result_mark() {
        let (head, body) = result_header("[search_files for 'a]b'] Result:\nfound").unwrap();
        assert_eq!(head, "[search_files for 'a]b']");
        assert_eq!(body, "found");
        assert_eq!(result_header("no header"), None);
    }
}
