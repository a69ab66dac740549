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

use super::{Words, arguments_text};
use crate::engine::{Block, Message, Reply, StopReason, ToolDef};

pub const WORDS: Words = Words {
    api: "OpenAI Responses",
    stop_field: "status",
    tool_request: "function_call",
    tool_result: "function_call_output",
    result_kind: "function_call_output",
    result_id: "call_id",
    results_message: "one function_call_output item per call",
    error_flag: "the text of the output",
    error_key: "error",
    tool_stop: "function_call",
    answer_stop: "completed",
    result_role: "tool",
    keeps_state: true,
    results_together: false,
};

/// How a replay records a Responses stop: `function_call` for a completed
/// response that asks for tools, `completed` for one that answers, and the
/// documented `incomplete_details.reason` values for the rest.
pub const STOPS: &[(&str, StopReason)] = &[
    ("function_call", StopReason::ToolUse),
    ("completed", StopReason::EndTurn),
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
        StopReason::ToolUse | StopReason::EndTurn => ("completed", Value::Null),
        _ => ("incomplete", json!({ "reason": reply.stop_reason })),
    };
    let output: Vec<Value> = reply
        .content
        .iter()
        .map(|block| item(crate::engine::Role::Assistant, block))
        .collect();
    let mut body = json!({
        "object": "response",
        "model": model,
        "status": status,
        "incomplete_details": incomplete,
        "output": output,
    });
    if let Some(usage) = reply.usage {
        body["usage"] = json!({
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
        });
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

fn item(role: crate::engine::Role, block: &Block) -> Value {
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
                content.clone()
            };
            json!({ "type": "function_call_output", "call_id": tool_use_id, "output": output })
        }
    }
}
