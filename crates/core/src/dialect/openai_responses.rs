//! OpenAI Responses: a request's `input` and a response's `output` are lists
//! of items (`message`, `function_call` and `custom_tool_call` with their
//! outputs, `reasoning`, and server tools such as `web_search_call`). A
//! response has a `status` rather than a finish reason: a completed
//! response that holds `function_call` items asks for tools, and
//! an incomplete one says why in `incomplete_details.reason`.
//! (https://platform.openai.com/docs/api-reference/responses/object)
//!
//! Responses can also keep the conversation on the server
//! (`previous_response_id`); a replay resends it, as the lesson's loop does.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::read::{self, Reader, Request, Response};
use super::{Words, arguments_text};
use crate::vocab::Skip;
use crate::vocab::{Block, Message, Messages, Reply, Role, StopReason, ToolDef};

pub const WORDS: Words = Words {
    api: "OpenAI Responses",
    stop_field: "status",
    tool_request: "function_call",
    tool_result: "function_call_output",
    result_kind: "function_call_output",
    result_id: "call_id",
    error_key: "error",
    tool_stop: "completed",
    answer_stop: "completed",
    tool_edge: "function_call",
    calls_in_items: true,
    // Responses items have no role; the list still needs a word for them.
    result_role: "item",
    reply_role: "assistant",
    arguments_object: false,
    // A `refusal` content part of an output message, the response
    // `completed` (https://platform.openai.com/docs/guides/structured-outputs#refusals).
    refusal_in_reply: true,
    keeps_state: true,
    results_together: false,
    // `instructions` is a field of the request beside `input`
    // (https://platform.openai.com/docs/api-reference/responses/create).
    system_in_messages: false,
    list: "messages",
};

/// How a replay records a Responses stop: its `status` when `completed`
/// (the output items tell a tool request from an answer), else the
/// documented `incomplete_details.reason`.
pub const STOPS: &[(&str, StopReason)] = &[
    ("completed", StopReason::Completed),
    ("max_output_tokens", StopReason::MaxTokens),
    ("content_filter", StopReason::ContentFilter),
];

pub fn request(
    model: &str,
    system: Option<&str>,
    tools: &[ToolDef],
    messages: Messages<'_>,
) -> Value {
    let mut body = json!({ "model": model });
    if let Some(system) = system {
        body["instructions"] = json!(system);
    }
    if !tools.is_empty() {
        let tools: Vec<Value> = tools
            .iter()
            .map(|t| match &t.api_type {
                // A tool the API defines, by its type (`web_search`).
                Some(kind) => json!({ "type": kind }),
                None => json!({
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                }),
            })
            .collect();
        body["tools"] = json!(tools);
    }
    body["input"] = items(messages);
    body
}

pub fn response(model: &str, reply: &Reply) -> Value {
    let reason = super::Dialect::OpenaiResponses.stop_reason(&reply.stop_reason);
    let (status, incomplete) = match reason {
        StopReason::Completed => ("completed", Value::Null),
        _ => ("incomplete", json!({ "reason": reply.stop_reason })),
    };
    let output: Vec<Value> = reply
        .content
        .iter()
        .filter_map(|block| item(Role::Assistant, block))
        .collect();
    let mut body = json!({
        "object": "response",
        "model": model,
        "status": status,
        "incomplete_details": incomplete,
        "output": output,
    });
    if let Some(usage) = reply.usage {
        body["usage"] = read::usage_json(&usage, &read::RESPONSES_USAGE);
    }
    body
}

/// Every block of every message, one item each.
pub fn items(messages: Messages<'_>) -> Value {
    Value::Array(
        messages
            .iter()
            .flat_map(|m| m.content.iter().filter_map(|b| item(m.role, b)))
            .collect(),
    )
}

pub fn tool_call(id: &str, name: &str, input: &Value) -> Value {
    json!({
        "type": "function_call",
        "call_id": id,
        "name": name,
        "arguments": arguments_text(input),
    })
}

/// A tool the server ran, as the item it came in: `web_search` is a
/// `web_search_call`, whose `action` says what it did.
fn server_tool_call(id: &str, name: &str, action: &Value) -> Value {
    json!({
        "type": format!("{name}_call"),
        "id": id,
        "status": "completed",
        "action": action,
    })
}

/// One block as an item; a server tool's result has none of its own (its
/// call's item carries what it did).
fn item(role: Role, block: &Block) -> Option<Value> {
    let item = match block {
        Block::Text { text } => json!({
            "type": "message",
            "role": role.as_str(),
            "content": text,
        }),
        Block::Thinking { thinking } => json!({
            "type": "reasoning",
            "summary": [{ "type": "summary_text", "text": thinking }],
        }),
        Block::Refusal { refusal } => json!({
            "type": "message",
            "role": role.as_str(),
            "content": [{ "type": "refusal", "refusal": refusal }],
        }),
        Block::ToolUse { id, name, input } => tool_call(id, name, input),
        Block::ServerToolUse { id, name, input } => server_tool_call(id, name, input),
        Block::ServerToolResult { .. } => return None,
        Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => {
            // No error flag here either: the output text has to say it.
            let output = if *is_error {
                format!("Error: {content}")
            } else {
                content.to_string()
            };
            json!({ "type": "function_call_output", "call_id": tool_use_id, "output": output })
        }
    };
    Some(item)
}

/// A Responses request: `instructions`, then the `input` items, one block
/// each; consecutive blocks of one role make one message.
pub fn read_request(reader: &mut Reader, request: &Value) -> Request {
    let mut read = Request::default();
    read.system
        .extend(read::system_text(reader, request.get("instructions")));
    match request.get("input") {
        Some(Value::String(text)) => read.messages.push(Message::user_text(text)),
        Some(Value::Array(items)) => {
            for (role, block) in items.iter().filter_map(|item| read_item(reader, item)) {
                match read.messages.last_mut() {
                    Some(last) if last.role == role && !read::is_prompt(last) => {
                        last.content.push(block)
                    }
                    _ => read.messages.push(Message {
                        role,
                        content: vec![block],
                    }),
                }
            }
        }
        _ => {}
    }
    read
}

/// The item kinds that call a tool of the client's, under a `call_id`.
const CALL_ITEMS: [&str; 2] = ["function_call", "custom_tool_call"];

/// Every output item has an `id` of its own beside the `call_id` that its
/// output must name. Adds the response's calls to `by_item`: item id →
/// the call id the model gave.
pub fn call_ids_by_item(response: &Value, by_item: &mut HashMap<String, String>) {
    for item in response
        .get("output")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        if let (true, Some(id), Some(call_id)) = (
            CALL_ITEMS.contains(&kind),
            item.get("id").and_then(Value::as_str),
            item.get("call_id").and_then(Value::as_str),
        ) {
            by_item.insert(id.to_owned(), call_id.to_owned());
        }
    }
}

/// A client or gateway may send a call back under a call id of its own
/// (`resp_…:call_0` for a `call_0` the model used twice, or the item id
/// itself), but the call's item keeps its item id, or uses it as the call
/// id. Where an item id ties them, the request is rewritten to the
/// model's call ids; returns it with the pairs (sent, model's) renamed,
/// or `None` when nothing needed it.
pub fn restore_call_ids(
    request: &Value,
    by_item: &HashMap<String, String>,
) -> Option<(Value, Vec<(String, String)>)> {
    let items = request.get("input")?.as_array()?;
    // Looked up once per item: a long log resends every call each time.
    let mut renamed: HashMap<&str, &String> = HashMap::new();
    let mut in_order = Vec::new();
    for item in items {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let sent = item.get("call_id").and_then(Value::as_str);
        let model = [item.get("id").and_then(Value::as_str), sent]
            .into_iter()
            .flatten()
            .find_map(|key| by_item.get(key));
        if let (true, Some(sent), Some(model)) = (CALL_ITEMS.contains(&kind), sent, model)
            && sent != model
            && renamed.insert(sent, model).is_none()
        {
            in_order.push((sent.to_owned(), model.clone()));
        }
    }
    if in_order.is_empty() {
        return None;
    }
    let mut restored = request.clone();
    for item in restored["input"].as_array_mut().into_iter().flatten() {
        let sent = item.get("call_id").and_then(Value::as_str);
        if let Some(model) = sent.and_then(|s| renamed.get(s)) {
            item["call_id"] = Value::String((*model).clone());
        }
    }
    Some((restored, in_order))
}

/// A response: its `output` items, and its `status`, or for an incomplete
/// one the reason (see [`STOPS`]).
/// A streamed Responses call put back together: its last event,
/// `response.completed` (or `.incomplete`, `.failed`), carries the whole
/// response object; the deltas before it only build it up.
/// https://platform.openai.com/docs/api-reference/responses-streaming
pub fn reassemble(events: &[Value]) -> Option<Value> {
    events.iter().rev().find_map(|event| {
        let kind = event.get("type").and_then(Value::as_str)?;
        matches!(
            kind,
            "response.completed" | "response.incomplete" | "response.failed"
        )
        .then(|| event.get("response").cloned())
        .flatten()
    })
}

pub fn read_response(reader: &mut Reader, response: &Value) -> Response {
    let content: Vec<Block> = response
        .get("output")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|item| read_item(reader, item).map(|(_, block)| block))
        .collect();
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let stop_reason = match response.get("status").and_then(Value::as_str) {
        Some("incomplete") => Some(
            text(response.pointer("/incomplete_details/reason"))
                .unwrap_or_else(|| "incomplete".to_owned()),
        ),
        other => other.map(str::to_owned),
    };
    Response {
        message: Message {
            role: Role::Assistant,
            content,
        },
        stop_reason,
        usage: read::usage(response, &read::RESPONSES_USAGE),
        choices: None,
    }
}

/// The text of a `refusal` content part, where a message holds one.
fn refusal_part(content: Option<&Value>) -> Option<String> {
    content?
        .as_array()?
        .iter()
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("refusal"))
        .find_map(|part| part.get("refusal").and_then(Value::as_str))
        .map(str::to_owned)
}

/// One item of an `input` or `output` list, as the block it becomes and
/// the role of the message it belongs to.
fn read_item(reader: &mut Reader, value: &Value) -> Option<(Role, Block)> {
    let object = value.as_object()?;
    let kind = object.get("type").and_then(Value::as_str);
    let role = object.get("role").and_then(Value::as_str);
    match (kind, role) {
        (Some("message") | None, Some(role @ ("user" | "assistant"))) => {
            let role = if role == "user" {
                Role::User
            } else {
                Role::Assistant
            };
            if let Some(refusal) = refusal_part(object.get("content")) {
                return Some((role, Block::Refusal { refusal }));
            }
            let text = reader.text_of(object.get("content")).into_owned();
            (!text.is_empty()).then_some((role, Block::Text { text }))
        }
        (Some("function_call"), _) => Some((
            Role::Assistant,
            Block::ToolUse {
                id: read::string(object, "call_id"),
                name: read::string(object, "name"),
                input: read::arguments(object.get("arguments")),
            },
        )),
        // A custom tool takes free text, not JSON arguments (the
        // `apply_patch` tool Codex edits files with); its output comes back
        // under the same call id.
        // https://platform.openai.com/docs/guides/function-calling#custom-tools
        (Some("custom_tool_call"), _) => Some((
            Role::Assistant,
            Block::ToolUse {
                id: read::string(object, "call_id"),
                name: read::string(object, "name"),
                input: Value::String(read::string(object, "input")),
            },
        )),
        (Some("function_call_output" | "custom_tool_call_output"), _) => Some((
            Role::User,
            Block::ToolResult {
                tool_use_id: read::string(object, "call_id"),
                content: reader.text_of(object.get("output")).into(),
                is_error: false,
            },
        )),
        // The built-in web search runs on OpenAI's side within the call:
        // its item says what it did (`action`), and no output is sent back.
        // https://platform.openai.com/docs/api-reference/responses/object
        (Some("web_search_call"), _) => Some((
            Role::Assistant,
            Block::ServerToolUse {
                id: read::string(object, "id"),
                name: "web_search".to_owned(),
                input: object.get("action").cloned().unwrap_or(Value::Null),
            },
        )),
        (Some("reasoning"), _) => {
            let summary = object.get("summary").and_then(Value::as_array);
            let text: Vec<&str> = summary
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("text").and_then(Value::as_str))
                .collect();
            (!text.is_empty()).then(|| {
                (
                    Role::Assistant,
                    Block::Thinking {
                        thinking: text.join("\n"),
                    },
                )
            })
        }
        (Some(other), _) => {
            reader.skipped.add(Skip::Items(other.to_owned()));
            None
        }
        (None, _) => {
            reader.skipped.add(Skip::UntypedItems);
            None
        }
    }
}
