//! OpenAI Responses: a request's `input` and a response's `output` are lists
//! of items (`message`, `function_call`, `function_call_output`,
//! `reasoning`). A response has a `status` rather than a finish reason: a
//! completed response that holds `function_call` items asks for tools, and
//! an incomplete one says why in `incomplete_details.reason`.
//! (https://platform.openai.com/docs/api-reference/responses/object)
//!
//! Responses can also keep the conversation on the server
//! (`previous_response_id`); a replay resends it, as the lesson's loop does.

use serde_json::{Value, json};

use super::read::{self, Reader, Request, Response};
use super::{Words, arguments_text};
use crate::engine::{Block, Message, Reply, Role, StopReason, ToolDef};
use crate::narrate::Tr;
use crate::transcript::Skip;

pub const WORDS: Words = Words {
    api: "OpenAI Responses",
    stop_field: "status",
    stop_field_zh: "状态",
    tool_request: "function_call",
    tool_result: "function_call_output",
    result_kind: "function_call_output",
    result_id: "call_id",
    results_message: Tr {
        en: "one function_call_output item per call",
        zh: "每个调用一个 function_call_output 项",
    },
    error_flag: Tr {
        en: "the text of the output",
        zh: "输出文本",
    },
    error_key: "error",
    tool_stop: "completed",
    answer_stop: "completed",
    tool_edge: "function_call",
    calls_in_items: true,
    // Responses items have no role; the list still needs a word for them.
    result_role: "item",
    keeps_state: true,
    results_together: false,
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
    messages: &[Message],
) -> Value {
    let mut body = json!({ "model": model });
    if let Some(system) = system {
        body["instructions"] = json!(system);
    }
    if !tools.is_empty() {
        let tools: Vec<Value> = tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                })
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
        .map(|block| item(Role::Assistant, block))
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
pub fn items(messages: &[Message]) -> Value {
    Value::Array(
        messages
            .iter()
            .flat_map(|m| m.content.iter().map(|b| item(m.role, b)))
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

fn item(role: Role, block: &Block) -> Value {
    match block {
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
    }
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
            let text = reader.text_of(object.get("content"));
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
        (Some("function_call_output"), _) => Some((
            Role::User,
            Block::ToolResult {
                tool_use_id: read::string(object, "call_id"),
                content: reader.text_of(object.get("output")).into(),
                is_error: false,
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
