//! OpenAI Chat Completions, which DeepSeek speaks too: `finish_reason`,
//! `message.tool_calls`, and one `role: "tool"` message per result, each
//! carrying the `tool_call_id` it answers.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::read::{self, Read, Reader, Response};
use super::{SeenCalls, Words, arguments_text};
use crate::vocab::Skip;
use crate::vocab::{
    Block, Message, Messages, Rejection, Reply, RequestRule, Role, StopReason, ToolDef,
};

pub const WORDS: Words = Words {
    api: "OpenAI Chat Completions",
    stop_field: "finish_reason",
    tool_request: "tool_calls",
    tool_result: "role: \"tool\" message",
    result_kind: "tool_call_id",
    result_id: "tool_call_id",
    error_key: "error",
    tool_stop: "tool_calls",
    answer_stop: "stop",
    tool_edge: "tool_calls",
    calls_in_items: false,
    result_role: "tool",
    reply_role: "assistant",
    arguments_object: false,
    // `message.refusal`, beside `content`, under `finish_reason: "stop"`
    // (https://platform.openai.com/docs/guides/structured-outputs#refusals).
    refusal_in_reply: true,
    keeps_state: false,
    results_together: false,
    // The system (or developer) message is one of `messages`, the first
    // (https://platform.openai.com/docs/api-reference/chat/create).
    system_in_messages: true,
    list: "messages",
};

/// The one finish reason DeepSeek's API adds to Chat Completions' own
/// (https://api-docs.deepseek.com/api/create-chat-completion).
pub const DEEPSEEK_STOP: &str = "insufficient_system_resource";

/// The finish reasons of Chat Completions, and DeepSeek's one more.
pub const STOPS: &[(&str, StopReason)] = &[
    ("tool_calls", StopReason::ToolUse),
    ("stop", StopReason::EndTurn),
    ("length", StopReason::MaxTokens),
    ("content_filter", StopReason::ContentFilter),
    // DeepSeek: the service ran out of capacity during the reply.
    (
        "insufficient_system_resource",
        StopReason::InsufficientSystemResource,
    ),
];

pub fn request(
    model: &str,
    system: Option<&str>,
    tools: &[ToolDef],
    messages: Messages<'_>,
) -> Value {
    let mut all = Vec::new();
    // The system prompt is the first message, unless the conversation
    // already opens with it.
    let led = messages
        .iter()
        .next()
        .is_some_and(|m| m.role == Role::System);
    if let Some(system) = system.filter(|_| !led) {
        all.push(json!({ "role": "system", "content": system }));
    }
    all.extend(messages.iter().flat_map(wire_messages));
    let mut body = json!({ "model": model, "messages": all });
    // Chat Completions has no tools of its own: one another API defines
    // is left out.
    let tools: Vec<&ToolDef> = tools.iter().filter(|t| t.api_type.is_none()).collect();
    if !tools.is_empty() {
        let tools: Vec<Value> = tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.input_schema,
                    }
                })
            })
            .collect();
        body["tools"] = json!(tools);
    }
    body
}

pub fn response(model: &str, reply: &Reply) -> Value {
    let message = Message {
        role: Role::Assistant,
        content: reply.content.clone(),
    };
    let mut body = json!({
        "object": "chat.completion",
        "model": model,
        "choices": [{
            "index": 0,
            "finish_reason": reply.stop_reason,
            "message": wire_messages(&message).remove(0),
        }],
    });
    if let Some(usage) = reply.usage {
        body["usage"] = read::usage_json(&usage, &read::CHAT_USAGE);
    }
    body
}

/// One native message of results becomes one `tool` message per result.
pub fn messages(messages: Messages<'_>) -> Value {
    Value::Array(messages.iter().flat_map(wire_messages).collect())
}

pub fn tool_call(id: &str, name: &str, input: &Value) -> Value {
    json!({
        "id": id,
        "type": "function",
        "function": { "name": name, "arguments": arguments_text(input) }
    })
}

/// A native message as Chat Completions messages: its results first, one
/// `tool` message each, then the rest as one message of its role.
fn wire_messages(message: &Message) -> Vec<Value> {
    let mut texts = Vec::new();
    let mut reasoning = Vec::new();
    let mut refusals = Vec::new();
    let mut calls = Vec::new();
    let mut out = Vec::new();
    for block in &message.content {
        match block {
            Block::Text { text } => texts.push(text.as_str()),
            Block::Thinking { thinking } => reasoning.push(thinking.as_str()),
            Block::Refusal { refusal } => refusals.push(refusal.as_str()),
            Block::ToolUse { id, name, input } => calls.push(tool_call(id, name, input)),
            // Chat Completions has no tools of its own: one another API defines
            // is left out.
            Block::ServerToolUse { .. } | Block::ServerToolResult { .. } => {}
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => {
                // Chat Completions has no error flag: the text has to say it.
                let content = if *is_error {
                    format!("Error: {content}")
                } else {
                    content.to_string()
                };
                out.push(
                    json!({ "role": "tool", "tool_call_id": tool_use_id, "content": content }),
                );
            }
        }
    }
    if !out.is_empty() && texts.is_empty() && calls.is_empty() && refusals.is_empty() {
        return out;
    }
    let mut rest = Map::new();
    rest.insert("role".into(), json!(message.role.as_str()));
    rest.insert(
        "content".into(),
        if texts.is_empty() {
            Value::Null
        } else {
            json!(texts.join("\n"))
        },
    );
    if !reasoning.is_empty() {
        // DeepSeek's field; plain OpenAI models keep reasoning to themselves.
        rest.insert("reasoning_content".into(), json!(reasoning.join("\n")));
    }
    if !refusals.is_empty() {
        rest.insert("refusal".into(), json!(refusals.join("\n")));
    }
    if !calls.is_empty() {
        rest.insert("tool_calls".into(), Value::Array(calls));
    }
    out.push(Value::Object(rest));
    out
}

/// One message as Chat Completions sends it, reduced to what the rules read.
enum Sent<'a> {
    Calls(Vec<&'a str>),
    Result(&'a str),
    Other,
}

/// One native message as the sequence of wire messages it becomes.
fn sent(message: &Message) -> impl Iterator<Item = Sent<'_>> {
    let results: Vec<Sent> = message
        .content
        .iter()
        .filter_map(|b| match b {
            Block::ToolResult { tool_use_id, .. } => Some(Sent::Result(tool_use_id)),
            _ => None,
        })
        .collect();
    // Whatever is not a result goes in one message of the native role; an
    // empty message is still a message.
    let has_rest = results.is_empty()
        || message
            .content
            .iter()
            .any(|b| !matches!(b, Block::ToolResult { .. }));
    let calls: Vec<&str> = message.tool_calls().map(|c| c.id).collect();
    let rest = if calls.is_empty() {
        Sent::Other
    } else {
        Sent::Calls(calls)
    };
    results.into_iter().chain(has_rest.then_some(rest))
}

/// The pairing rules of Chat Completions, checked as the conversation
/// grows: each call hands over only the messages added since the last.
/// They are not stated on a docs page; the API states them in its errors,
/// quoted in the tests: an assistant message with `tool_calls` must be
/// followed by `tool` messages answering each `tool_call_id`, and a `tool`
/// message must answer a preceding message with `tool_calls`. Consecutive
/// user messages are fine.
#[derive(Debug)]
pub struct ChatChecker {
    seen_calls: SeenCalls,
    /// The calls of the last assistant message, and those answered since.
    asked: Vec<String>,
    answered: Vec<String>,
    asked_at: usize,
    any: bool,
}

impl ChatChecker {
    pub fn new(seen_calls: SeenCalls) -> Self {
        ChatChecker {
            seen_calls,
            asked: Vec::new(),
            answered: Vec::new(),
            asked_at: 0,
            any: false,
        }
    }

    /// Adds the message at `index` to the conversation checked so far;
    /// the first rule it breaks, if any. What the message adds is kept
    /// either way, so that a replay that goes past a break (a recording
    /// the API accepted) goes on checking the rest.
    pub fn push(&mut self, index: usize, message: &Message) -> Result<(), Rejection> {
        use RequestRule::*;
        self.any = true;
        let mut first = Ok(());
        let mut broke = |verdict: Result<(), Rejection>| {
            if first.is_ok() {
                first = verdict;
            }
        };
        for sent in sent(message) {
            match sent {
                Sent::Result(id) if self.answered.iter().any(|a| a == id) => {
                    broke(Err(Rejection::new(index, AnsweredTwice, vec![id])));
                }
                Sent::Result(id) if self.asked.iter().any(|a| a == id) => {
                    self.answered.push(id.to_owned())
                }
                Sent::Result(id) => broke(Err(Rejection::new(index, ResultsWithoutCall, vec![id]))),
                Sent::Calls(_) | Sent::Other => {
                    broke(self.finish());
                    self.asked.clear();
                    self.answered.clear();
                    if let Sent::Calls(calls) = sent {
                        let reused = calls.iter().enumerate().filter(|(k, id)| {
                            self.seen_calls.before(index, id) || calls[..*k].contains(id)
                        });
                        let reused = reused.map(|(_, id)| *id).collect();
                        broke(Rejection::unless_any(index, DuplicateCallIds, reused));
                        self.asked = calls.iter().map(|id| id.to_string()).collect();
                        self.seen_calls.extend(&self.asked);
                        self.asked_at = index;
                    }
                }
            }
        }
        first
    }

    /// Whether the request, as it stands, leaves a call unanswered.
    pub fn finish(&self) -> Result<(), Rejection> {
        if !self.any {
            return Err(Rejection::new(0, RequestRule::NoMessages, vec![]));
        }
        let unanswered = self
            .asked
            .iter()
            .map(String::as_str)
            .filter(|id| !self.answered.iter().any(|a| a == id));
        Rejection::unless_any(
            self.asked_at,
            RequestRule::UnansweredCalls,
            unanswered.collect(),
        )
    }
}

/// One entry of a message's `tool_calls`: a function call whose arguments
/// are a JSON string.
pub fn read_tool_call(reader: &mut Reader, value: &Value) -> Option<Block> {
    let object = value.as_object()?;
    let Some(function) = object.get("function").and_then(Value::as_object) else {
        reader.skipped.add(Skip::ToolCallsNotFunctions);
        return None;
    };
    Some(Block::ToolUse {
        id: read::string(object, "id"),
        name: read::string(function, "name"),
        input: read::arguments(function.get("arguments")),
    })
}

/// A streamed chat completion put back together: `chat.completion.chunk`
/// objects whose first choice's `delta` adds to the message (content and
/// refusal text, tool calls by `index`: id and name first, then pieces of
/// `arguments`), the last one with `finish_reason`, and an optional final
/// chunk with `usage` and no choices.
/// https://platform.openai.com/docs/api-reference/chat-streaming/streaming
pub fn reassemble(events: &[Value]) -> Value {
    use super::stream::set;
    /// A tool call as it streams in.
    #[derive(Default)]
    struct Call {
        id: Value,
        name: Value,
        arguments: String,
    }
    // The message's texts, field by field, and its calls by index (sparse:
    // a stream may number them however it likes).
    let mut texts: [(&str, String); 3] = [
        ("content", String::new()),
        ("refusal", String::new()),
        ("reasoning_content", String::new()),
    ];
    let mut calls: BTreeMap<u64, Call> = BTreeMap::new();
    let mut finish_reason = Value::Null;
    let mut response = json!({"object": "chat.completion"});
    for chunk in events {
        for field in ["id", "model", "created", "usage"] {
            if let Some(value) = chunk.get(field).filter(|v| !v.is_null()) {
                set(&mut response, field, value.clone());
            }
        }
        // The first choice is the one replayed; others are noted elsewhere.
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| {
                c.iter()
                    .find(|c| c.get("index").and_then(Value::as_u64) == Some(0))
            })
        else {
            continue;
        };
        if let Some(reason) = choice.get("finish_reason").filter(|r| !r.is_null()) {
            finish_reason = reason.clone();
        }
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        for (field, text) in &mut texts {
            text.push_str(delta.get(*field).and_then(Value::as_str).unwrap_or(""));
        }
        for piece in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let index = piece.get("index").and_then(Value::as_u64).unwrap_or(0);
            let call = calls.entry(index).or_default();
            if let Some(id) = piece.get("id").filter(|v| v.is_string()) {
                call.id = id.clone();
            }
            let function = piece.get("function").unwrap_or(&Value::Null);
            if let Some(name) = function.get("name").filter(|v| v.is_string()) {
                call.name = name.clone();
            }
            if let Some(arguments) = function.get("arguments").and_then(Value::as_str) {
                call.arguments.push_str(arguments);
            }
        }
    }
    let mut message = json!({"role": "assistant", "content": null});
    for (field, text) in texts {
        if !text.is_empty() {
            set(&mut message, field, json!(text));
        }
    }
    if !calls.is_empty() {
        let calls = calls
            .into_values()
            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
            .collect();
        set(&mut message, "tool_calls", Value::Array(calls));
    }
    let choice = json!({"index": 0, "message": message, "finish_reason": finish_reason});
    set(&mut response, "choices", json!([choice]));
    response
}

/// A chat completion: the first choice's message and `finish_reason`.
pub fn read_response(reader: &mut Reader, response: &Value) -> Response {
    let choices = response.get("choices").and_then(Value::as_array);
    let choices = choices.map_or(&[][..], Vec::as_slice);
    let several = (choices.len() > 1).then_some(choices.len());
    let first = choices.first();
    let message = match first
        .and_then(|c| c.get("message"))
        .map(|m| reader.message(m))
    {
        Some(Read::Message(message)) => message,
        _ => Message {
            role: Role::Assistant,
            content: Vec::new(),
        },
    };
    Response {
        message,
        stop_reason: first
            .and_then(|c| c.get("finish_reason"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        usage: read::usage(response, &read::CHAT_USAGE),
        choices: several,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Role;

    fn asks(ids: &[&str]) -> Message {
        Message {
            role: Role::Assistant,
            content: ids
                .iter()
                .map(|id| Block::ToolUse {
                    id: id.to_string(),
                    name: "get_weather".into(),
                    input: json!({"location": "Paris"}),
                })
                .collect(),
        }
    }

    /// One `role: "tool"` message.
    fn tool(id: &str) -> Message {
        Message {
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: id.into(),
                content: "15 degrees".into(),
                is_error: false,
            }],
        }
    }

    fn rule(messages: &[Message]) -> Option<RequestRule> {
        super::super::Dialect::OpenaiChat
            .check_request(messages)
            .err()
            .map(|r| r.rule)
    }

    #[test]
    fn one_tool_message_per_call_is_the_documented_form() {
        // The function-calling guide appends, for each tool call,
        // `{role: "tool", tool_call_id: toolCall.id, content: ...}`.
        let q = Message::user_text("What's the weather in Paris and Rome?");
        let history = [
            q,
            asks(&["call_1", "call_2"]),
            tool("call_1"),
            tool("call_2"),
        ];
        assert_eq!(rule(&history), None);
        let wire = messages(Messages::of(&history));
        assert_eq!(wire[2]["role"], "tool");
        assert_eq!(wire[3]["tool_call_id"], "call_2");
    }

    #[test]
    fn every_call_needs_its_tool_message_right_after() {
        // The API's error (the docs state no rule): "An assistant message
        // with 'tool_calls' must be followed by tool messages responding to
        // each 'tool_call_id'."
        let q = Message::user_text("q");
        let missing = [q.clone(), asks(&["call_1", "call_2"]), tool("call_1")];
        assert_eq!(rule(&missing), Some(RequestRule::UnansweredCalls));
        let interrupted = [
            q.clone(),
            asks(&["call_1"]),
            Message::user_text("hurry"),
            tool("call_1"),
        ];
        assert_eq!(rule(&interrupted), Some(RequestRule::UnansweredCalls));
        // "messages with role 'tool' must be a response to a preceeding
        // message with 'tool_calls'" (the API's error, its spelling).
        let stray = [q, tool("call_1")];
        assert_eq!(rule(&stray), Some(RequestRule::ResultsWithoutCall));
    }

    #[test]
    fn consecutive_user_messages_are_fine() {
        // The reference sets no alternation rule: "A list of messages
        // comprising the conversation so far."
        let history = [
            Message::user_text("Hello"),
            Message::user_text("Are you there?"),
        ];
        assert_eq!(rule(&history), None);
    }

    #[test]
    fn a_tool_call_id_is_answered_once_and_never_reused() {
        // The API's errors: "Duplicate value for 'tool_call_id'".
        let q = Message::user_text("q");
        let twice = [q.clone(), asks(&["call_1"]), tool("call_1"), tool("call_1")];
        assert_eq!(rule(&twice), Some(RequestRule::AnsweredTwice));
        let reused = [
            q,
            asks(&["call_1"]),
            tool("call_1"),
            asks(&["call_1"]),
            tool("call_1"),
        ];
        assert_eq!(rule(&reused), Some(RequestRule::DuplicateCallIds));
    }

    #[test]
    fn results_and_text_in_one_native_message_become_tool_messages_then_a_user_message() {
        let mixed = Message {
            role: Role::User,
            content: vec![
                Block::ToolResult {
                    tool_use_id: "call_1".into(),
                    content: "15 degrees".into(),
                    is_error: true,
                },
                Block::Text {
                    text: "And Rome?".into(),
                },
            ],
        };
        let wire = messages(Messages::of(&[mixed]));
        assert_eq!(wire[0]["role"], "tool");
        assert_eq!(wire[0]["content"], "Error: 15 degrees");
        assert_eq!(wire[1]["role"], "user");
        assert_eq!(wire[1]["content"], "And Rome?");
    }
}
