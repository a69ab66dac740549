//! Amazon Bedrock's Converse API: `messages` of `role` "user" or
//! "assistant" whose `content` is a list of one-key blocks (`text`,
//! `toolUse`, `toolResult`, `reasoningContent`, ...), a `stopReason`
//! (`tool_use` when the reply asks for tools), and the system prompt and
//! tools beside the messages. The model is named in the URL
//! (`/model/{modelId}/converse`), not the body.
//!
//! Shapes: botocore's model of the service
//! (`botocore/data/bedrock-runtime/2023-09-30/service-2.json`), the
//! machine form of
//! https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::read::{self, Reader, Request, Response};
use super::{Words, next_message};
use crate::vocab::{Block, Message, Messages, Reply, Role, Skip, StopReason, ToolDef};

pub const WORDS: Words = Words {
    api: "Bedrock Converse",
    stop_field: "stopReason",
    tool_request: "toolUse",
    tool_result: "toolResult",
    result_kind: "toolResult",
    result_id: "toolUseId",
    // ToolResultBlock.status: `success` or `error`.
    error_key: "status",
    tool_stop: "tool_use",
    answer_stop: "end_turn",
    tool_edge: "tool_use",
    calls_in_items: false,
    result_role: "user",
    reply_role: "assistant",
    arguments_object: true,
    refusal_in_reply: false,
    keeps_state: false,
    results_together: true,
    // `system` is a list of blocks beside `messages`.
    system_in_messages: false,
    list: "messages",
};

/// The `StopReason` enum of the Converse API.
pub const STOPS: &[(&str, StopReason)] = &[
    ("tool_use", StopReason::ToolUse),
    ("end_turn", StopReason::EndTurn),
    ("max_tokens", StopReason::MaxTokens),
    ("stop_sequence", StopReason::StopSequence),
    ("content_filtered", StopReason::ContentFilter),
    ("guardrail_intervened", StopReason::ContentFilter),
    ("malformed_tool_use", StopReason::MalformedCall),
    ("malformed_model_output", StopReason::MalformedCall),
    (
        "model_context_window_exceeded",
        StopReason::ContextWindowExceeded,
    ),
];

/// TokenUsage: `inputTokens` ("The number of tokens sent in the request to
/// the model"), `outputTokens`, `cacheReadInputTokens` and
/// `cacheWriteInputTokens`
/// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html).
/// The page does not say whether the input count includes the cache's; it
/// is read as beside it, as the Messages API counts for the Claude models
/// Bedrock serves. The recordings here have no cache use to tell by.
pub const USAGE: read::UsageKeys = read::UsageKeys {
    object: "usage",
    output_also: None,
    input: "inputTokens",
    output: "outputTokens",
    cached: &["cacheReadInputTokens"],
    cached_is_inside_input: false,
    written: Some("cacheWriteInputTokens"),
};

pub fn request(system: Option<&str>, tools: &[ToolDef], messages: Messages<'_>) -> Value {
    let mut body = json!({});
    if let Some(system) = system {
        body["system"] = json!([{ "text": system }]);
    }
    let specs: Vec<Value> = tools
        .iter()
        .filter(|t| t.api_type.is_none())
        .map(|t| {
            json!({ "toolSpec": {
                "name": t.name,
                "description": t.description,
                "inputSchema": { "json": t.input_schema },
            }})
        })
        .collect();
    if !specs.is_empty() {
        body["toolConfig"] = json!({ "tools": specs });
    }
    body["messages"] = self::messages(messages);
    body
}

pub fn response(reply: &Reply) -> Value {
    let mut body = json!({
        "output": { "message": { "role": "assistant", "content": blocks(&reply.content) } },
        "stopReason": reply.stop_reason,
    });
    if let Some(usage) = reply.usage {
        body["usage"] = read::usage_json(&usage, &USAGE);
    }
    body
}

pub fn messages(messages: Messages<'_>) -> Value {
    messages
        .iter()
        .map(|m| json!({ "role": m.role.as_str(), "content": blocks(&m.content) }))
        .collect()
}

pub fn tool_call(id: &str, name: &str, input: &Value) -> Value {
    json!({ "toolUse": { "toolUseId": id, "name": name, "input": input } })
}

fn blocks(content: &[Block]) -> Vec<Value> {
    content
        .iter()
        .filter_map(|block| {
            Some(match block {
                Block::Text { text } => json!({ "text": text }),
                Block::Refusal { refusal } => json!({ "text": refusal }),
                Block::Thinking { thinking } => {
                    json!({ "reasoningContent": { "reasoningText": { "text": thinking } } })
                }
                Block::ToolUse { id, name, input } => tool_call(id, name, input),
                Block::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } => {
                    let mut result = json!({
                        "toolUseId": tool_use_id,
                        "content": [{ "text": content.to_string() }],
                    });
                    if *is_error {
                        result["status"] = json!("error");
                    }
                    json!({ "toolResult": result })
                }
                // Another API's server tools have no block here.
                Block::ServerToolUse { .. } | Block::ServerToolResult { .. } => return None,
            })
        })
        .collect()
}

/// The rule, in the API's errors: "Expected toolResult blocks at
/// messages.2.content for the following Ids: …" and "The number of
/// toolResult blocks at messages.2.content exceeds the number of toolUse
/// blocks of previous turn." (ValidationException, quoted in
/// https://github.com/agno-agi/agno/issues/6698 and
/// https://github.com/pydantic/pydantic-ai/issues/2327); the guide:
/// "You then continue the conversation with the model by supplying a
/// message with the result from the tool."
/// (https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html)
pub fn checker() -> next_message::NextMessageChecker {
    next_message::NextMessageChecker::default()
}

/// A request: `system` blocks, then `messages`.
pub fn read_request(reader: &mut Reader, request: &Value) -> Request {
    let mut read = Request::default();
    let system = request.get("system").and_then(Value::as_array);
    read.system.extend(
        system
            .into_iter()
            .flatten()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
    );
    let messages = request.get("messages").and_then(Value::as_array);
    for message in messages.into_iter().flatten() {
        let role = match message.get("role").and_then(Value::as_str) {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            other => {
                reader
                    .skipped
                    .add(Skip::Role(other.unwrap_or("").to_owned()));
                continue;
            }
        };
        let content = message.get("content").and_then(Value::as_array);
        let content = content
            .into_iter()
            .flatten()
            .filter_map(|b| read_block(reader, b))
            .collect();
        read.messages.push(Message { role, content });
    }
    read
}

/// The tools a request declared: `toolConfig.tools[].toolSpec`, each
/// with its schema under `inputSchema.json`.
pub fn read_tools(request: &Value) -> Vec<ToolDef> {
    let tools = request
        .pointer("/toolConfig/tools")
        .and_then(Value::as_array);
    tools
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let spec = t.get("toolSpec")?.as_object()?;
            Some(ToolDef {
                api_type: None,
                name: spec.get("name")?.as_str()?.to_owned(),
                description: read::string(spec, "description"),
                input_schema: spec
                    .get("inputSchema")
                    .and_then(|s| s.get("json"))
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "object"})),
            })
        })
        .collect()
}

/// A response: `output.message` and `stopReason`.
pub fn read_response(reader: &mut Reader, response: &Value) -> Response {
    let content = response
        .pointer("/output/message/content")
        .and_then(Value::as_array);
    let content = content
        .into_iter()
        .flatten()
        .filter_map(|b| read_block(reader, b))
        .collect();
    Response {
        message: Message {
            role: Role::Assistant,
            content,
        },
        stop_reason: response
            .get("stopReason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        usage: read::usage(response, &USAGE),
        choices: None,
    }
}

/// The model Bedrock's URL names: `.../model/{modelId}/converse`, the id
/// percent-encoded (`us.amazon.nova-micro-v1%3A0`).
pub fn model_in_url(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("/model/")?;
    let (id, _) = rest.split_once("/converse")?;
    Some(id.replace("%3A", ":").replace("%3a", ":"))
}

/// One content block: a one-key object.
fn read_block(reader: &mut Reader, block: &Value) -> Option<Block> {
    let object = block.as_object()?;
    if let Some(text) = object.get("text").and_then(Value::as_str) {
        return (!text.is_empty()).then(|| Block::Text {
            text: text.to_owned(),
        });
    }
    if let Some(call) = object.get("toolUse").and_then(Value::as_object) {
        return Some(Block::ToolUse {
            id: read::string(call, "toolUseId"),
            name: read::string(call, "name"),
            input: call
                .get("input")
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new())),
        });
    }
    if let Some(result) = object.get("toolResult").and_then(Value::as_object) {
        // Its content is a list of `{text}` or `{json}` blocks (images and
        // documents are left out of the text, and counted).
        let parts = result.get("content").and_then(Value::as_array);
        let mut texts = Vec::new();
        for part in parts.into_iter().flatten() {
            match (part.get("text"), part.get("json")) {
                (Some(Value::String(text)), _) => texts.push(text.clone()),
                (_, Some(json)) => texts.push(json.to_string()),
                _ => reader.skipped.add(Skip::ResultParts(first_key(part))),
            }
        }
        return Some(Block::ToolResult {
            tool_use_id: read::string(result, "toolUseId"),
            content: texts.join("\n").into(),
            is_error: result.get("status").and_then(Value::as_str) == Some("error"),
        });
    }
    if let Some(reasoning) = object.get("reasoningContent") {
        let text = reasoning
            .pointer("/reasoningText/text")
            .and_then(Value::as_str);
        return text.filter(|t| !t.is_empty()).map(|t| Block::Thinking {
            thinking: t.to_owned(),
        });
    }
    reader.skipped.add(Skip::Blocks(first_key(block)));
    None
}

fn first_key(block: &Value) -> String {
    block
        .as_object()
        .and_then(|o| o.keys().next())
        .map_or_else(|| "empty".to_owned(), String::clone)
}

/// Whether a list of events is a ConverseStream: each a one-key object
/// named by its event type.
pub fn is_stream(events: &[Value]) -> bool {
    events.iter().any(|e| {
        e.get("messageStart").is_some()
            || e.as_object()
                .is_some_and(|e| e.keys().any(|k| k.ends_with("Exception")))
    })
}

/// A ConverseStream put back together: `messageStart` gives the role;
/// each block grows by `contentBlockDelta` at its `contentBlockIndex`
/// (text, reasoning text, or a tool's input as pieces of JSON text), a
/// tool use opened by `contentBlockStart` with its id and name (a text
/// block has no start); `messageStop` brings `stopReason`, `metadata`
/// the usage. (ConverseStreamOutput, service-2.json)
pub fn reassemble(events: &[Value]) -> Value {
    #[derive(Default)]
    struct Growing {
        tool: Option<Value>,
        text: String,
        reasoning: String,
        input: String,
    }
    let mut blocks: BTreeMap<u64, Growing> = BTreeMap::new();
    let mut stop = Value::Null;
    let mut usage = Value::Null;
    let index = |body: &Value| {
        body.get("contentBlockIndex")
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    for event in events {
        // An exception the service sent in the stream ends the call: it
        // failed (internalServerException, modelStreamErrorException, …).
        let exception = event
            .as_object()
            .and_then(|e| e.iter().find(|(k, _)| k.ends_with("Exception")));
        if let Some((kind, body)) = exception {
            let message = body.get("message").and_then(Value::as_str).unwrap_or(kind);
            return json!({ "error": { "type": kind, "message": message } });
        }
        if let Some(start) = event.get("contentBlockStart") {
            let tool = start.pointer("/start/toolUse").cloned();
            blocks.entry(index(start)).or_default().tool = tool;
        } else if let Some(delta) = event.get("contentBlockDelta") {
            let block = blocks.entry(index(delta)).or_default();
            let piece = |path| delta.pointer(path).and_then(Value::as_str).unwrap_or("");
            block.text.push_str(piece("/delta/text"));
            block
                .reasoning
                .push_str(piece("/delta/reasoningContent/text"));
            block.input.push_str(piece("/delta/toolUse/input"));
        } else if let Some(end) = event.get("messageStop") {
            stop = end.get("stopReason").cloned().unwrap_or(Value::Null);
        } else if let Some(metadata) = event.get("metadata") {
            usage = metadata.get("usage").cloned().unwrap_or(Value::Null);
        }
    }
    let content: Vec<Value> = blocks
        .into_values()
        .flat_map(|block| {
            let mut out = Vec::new();
            if !block.reasoning.is_empty() {
                out.push(
                    json!({ "reasoningContent": { "reasoningText": { "text": block.reasoning } } }),
                );
            }
            if !block.text.is_empty() {
                out.push(json!({ "text": block.text }));
            }
            if let Some(mut tool) = block.tool {
                let opened_with = tool.get("input").cloned();
                let input = super::stream::streamed_input(block.input, opened_with);
                super::stream::set(&mut tool, "input", input);
                out.push(json!({ "toolUse": tool }));
            }
            out
        })
        .collect();
    json!({
        "output": { "message": { "role": "assistant", "content": content } },
        "stopReason": stop,
        "usage": usage,
    })
}

#[cfg(test)]
mod tests {
    use super::super::next_message::examples::{answers, asks};
    use super::*;
    use crate::vocab::RequestRule;

    fn rule(messages: &[Message]) -> Option<RequestRule> {
        super::super::Dialect::BedrockConverse
            .check_request(messages)
            .err()
            .map(|r| r.rule)
    }

    #[test]
    fn every_tool_use_has_its_tool_result_in_the_next_message() {
        // "Expected toolResult blocks at messages.2.content for the
        // following Ids: …"
        let q = Message::user_text("q");
        let missing = [
            q.clone(),
            asks(&["tooluse_a", "tooluse_b"]),
            answers(&["tooluse_a"]),
        ];
        assert_eq!(rule(&missing), Some(RequestRule::UnansweredCalls));
        // "The number of toolResult blocks at messages.2.content exceeds
        // the number of toolUse blocks of previous turn."
        let extra = [
            q.clone(),
            asks(&["tooluse_a"]),
            answers(&["tooluse_a", "tooluse_z"]),
        ];
        assert_eq!(rule(&extra), Some(RequestRule::ResultsWithoutCall));
        let good = [q, asks(&["tooluse_a"]), answers(&["tooluse_a"])];
        assert_eq!(rule(&good), None);
    }

    #[test]
    fn blocks_take_the_documented_shape_both_ways() {
        let mut failed = answers(&["tooluse_a"]);
        if let Block::ToolResult { is_error, .. } = &mut failed.content[0] {
            *is_error = true;
        }
        let convo = [Message::user_text("q"), asks(&["tooluse_a"]), failed];
        let wire = messages(Messages::of(&convo));
        assert_eq!(wire[1]["content"][0]["toolUse"]["toolUseId"], "tooluse_a");
        assert_eq!(wire[2]["content"][0]["toolResult"]["status"], "error");
        assert_eq!(
            wire[2]["content"][0]["toolResult"]["content"][0]["text"],
            "Paris"
        );
        let request = json!({"messages": wire});
        let read = read_request(&mut Reader::default(), &request);
        assert_eq!(read.messages, convo);
    }

    #[test]
    fn a_stream_adds_up_its_blocks() {
        // The order of events in pydantic-ai's recorded converse-stream
        // (test_bedrock_model_iter_stream.yaml): no start for a text block.
        let events = [
            json!({"messageStart": {"role": "assistant"}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Let me "}}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "check."}}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
            json!({"contentBlockStart": {"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "get_temperature"}}}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"city\":"}}}}),
            json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "\"Paris\"}"}}}}),
            json!({"messageStop": {"stopReason": "tool_use"}}),
            json!({"metadata": {"usage": {"inputTokens": 5, "outputTokens": 7, "totalTokens": 12}}}),
        ];
        assert!(is_stream(&events));
        let whole = reassemble(&events);
        assert_eq!(
            whole["output"]["message"]["content"],
            json!([{"text": "Let me check."}, {"toolUse": {"toolUseId": "tooluse_1", "name": "get_temperature", "input": {"city": "Paris"}}}])
        );
        assert_eq!(whole["stopReason"], "tool_use");
        assert_eq!(whole["usage"]["outputTokens"], 7);
        // A tool that takes no arguments streams no input: it is `{}`.
        let bare = [
            json!({"messageStart": {"role": "assistant"}}),
            json!({"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "t", "name": "now"}}}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
            json!({"messageStop": {"stopReason": "tool_use"}}),
        ];
        let whole = reassemble(&bare);
        assert_eq!(
            whole["output"]["message"]["content"][0]["toolUse"]["input"],
            json!({})
        );
        // An exception in the stream ends the call as failed.
        let broken = [
            json!({"messageStart": {"role": "assistant"}}),
            json!({"modelStreamErrorException": {"message": "stream broke"}}),
        ];
        assert_eq!(reassemble(&broken)["error"]["message"], "stream broke");
    }

    #[test]
    fn the_model_is_read_from_the_url() {
        let url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/converse";
        assert_eq!(
            model_in_url(url).as_deref(),
            Some("us.amazon.nova-micro-v1:0")
        );
    }
}
