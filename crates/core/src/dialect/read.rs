//! Reading the wire into native messages: the plumbing the dialects share.
//! A messages list may be in Anthropic's or OpenAI Chat's shape, told apart
//! message by message; each dialect's own parts (OpenAI tool calls,
//! Responses items, replies) live in its module. Anything not understood is
//! skipped and counted, never an error.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::wire::{self, Content, Json, Scalar, WireBlock, WireMessage};
use crate::vocab::{Block, Message, Role, ToolDef, Usage};
use crate::vocab::{Note, Skip};

/// Counts of what an import left out, by kind.
#[derive(Debug, Default, Clone)]
pub struct Skipped(BTreeMap<Skip, usize>);

impl Skipped {
    pub fn add(&mut self, what: Skip) {
        *self.0.entry(what).or_default() += 1;
    }

    /// Adds the counts of `other`.
    pub fn absorb(&mut self, other: Skipped) {
        for (what, count) in other.0 {
            *self.0.entry(what).or_default() += count;
        }
    }

    /// One note per kind of thing skipped.
    pub fn notes(&self) -> Vec<Note> {
        self.0
            .iter()
            .map(|(what, count)| Note::Skipped {
                what: what.clone(),
                count: *count,
            })
            .collect()
    }
}

/// Reads messages of either Messages or Chat Completions shape.
#[derive(Debug, Default)]
pub struct Reader {
    pub skipped: Skipped,
    /// Set once an OpenAI-shaped message is seen; inferred stop reasons
    /// then use OpenAI's spelling.
    pub openai: bool,
    /// How many function calls the last request read had sent, where an
    /// API knows calls by their place (Gemini): its reply's number on.
    pub calls_sent: usize,
}

/// A message read from the wire, or a system prompt found among them.
pub enum Read {
    Message(Message),
    System(String),
    Nothing,
}

impl Reader {
    /// A message already parsed into a JSON value.
    pub fn message(&mut self, value: &Value) -> Read {
        if !value.is_object() {
            self.skipped.add(Skip::MessagesNotObjects);
            return Read::Nothing;
        }
        self.wire_message(wire::from_value(value))
    }

    /// A message as the wire carries it, of either shape.
    pub fn wire_message(&mut self, message: WireMessage<'_>) -> Read {
        let WireMessage {
            role,
            content,
            reasoning_content,
            refusal,
            tool_calls,
            tool_call_id,
            ..
        } = message;
        match role.or_empty() {
            "system" | "developer" => {
                self.openai = true;
                Read::System(self.content_text(content).into_owned())
            }
            "tool" => {
                self.openai = true;
                let content = self.content_text(content);
                Read::Message(Message {
                    role: Role::User,
                    content: vec![Block::ToolResult {
                        tool_use_id: tool_call_id.into_string().unwrap_or_default(),
                        content: content.into(),
                        is_error: false,
                    }],
                })
            }
            role @ ("user" | "assistant") => {
                let role = if role == "user" {
                    Role::User
                } else {
                    Role::Assistant
                };
                let mut blocks = Vec::new();
                if let Some(reasoning) = reasoning_content.into_string()
                    && !reasoning.is_empty()
                {
                    blocks.push(Block::Thinking {
                        thinking: reasoning,
                    });
                }
                self.content_into(content, &mut blocks);
                if let Some(refusal) = refusal.into_string()
                    && !refusal.is_empty()
                {
                    self.openai = true;
                    blocks.push(Block::Refusal { refusal });
                }
                if let Some(Value::Array(calls)) = &tool_calls {
                    self.openai = true;
                    blocks.extend(
                        calls
                            .iter()
                            .filter_map(|c| super::openai_chat::read_tool_call(self, c)),
                    );
                }
                Read::Message(Message {
                    role,
                    content: blocks,
                })
            }
            other => {
                self.skipped.add(Skip::Role(other.to_owned()));
                Read::Nothing
            }
        }
    }

    /// Content that is a string, null, or a list of blocks.
    pub fn blocks_into(&mut self, content: Option<&Value>, out: &mut Vec<Block>) {
        if let Some(content) = content {
            self.content_into(wire::from_value(content), out);
        }
    }

    fn content_into(&mut self, content: Content<'_>, out: &mut Vec<Block>) {
        match content {
            Json::Str(text) if !text.is_empty() => out.push(Block::Text {
                text: text.into_owned(),
            }),
            Json::Array(blocks) => {
                for block in blocks {
                    if let Some(b) = block.object().and_then(|b| self.block(b)) {
                        out.push(b);
                    }
                }
            }
            _ => {}
        }
    }

    /// One content block of the Anthropic shape (also what Responses'
    /// message parts look like).
    fn block(&mut self, block: WireBlock<'_>) -> Option<Block> {
        let owned = |text: Scalar<'_>| text.into_string().unwrap_or_default();
        let block = match block.kind.or_empty() {
            "text" | "input_text" | "output_text" => {
                let text = owned(block.text);
                if text.is_empty() {
                    return None;
                }
                Block::Text { text }
            }
            "thinking" => Block::Thinking {
                thinking: owned(block.thinking),
            },
            "redacted_thinking" => Block::Thinking {
                thinking: "[redacted thinking]".to_owned(),
            },
            "tool_use" => Block::ToolUse {
                id: owned(block.id),
                name: owned(block.name),
                input: block.input.unwrap_or(Value::Object(Map::new())),
            },
            "tool_result" => Block::ToolResult {
                tool_use_id: owned(block.tool_use_id),
                content: self.content_text(*block.content).into(),
                is_error: block.is_error.is_true(),
            },
            "server_tool_use" => Block::ServerToolUse {
                id: owned(block.id),
                name: owned(block.name),
                input: block.input.unwrap_or(Value::Object(Map::new())),
            },
            // What a server tool gave back: `web_search_tool_result`,
            // `web_fetch_tool_result`, `code_execution_tool_result`, …
            // MCP's results pair with `mcp_tool_use` blocks, which are
            // not read: both are skipped, and counted.
            kind if kind.ends_with("_tool_result") && kind != "mcp_tool_result" => {
                Block::ServerToolResult {
                    kind: kind.to_owned(),
                    tool_use_id: owned(block.tool_use_id),
                    content: wire::value_of(*block.content),
                }
            }
            other => {
                self.skipped.add(Skip::Blocks(other.to_owned()));
                return None;
            }
        };
        Some(block)
    }

    /// The text of a string, or of the text parts of a block list;
    /// borrowed where it can be, so a long tool result is copied once, into
    /// where it is kept.
    pub fn text_of<'v>(&mut self, content: Option<&'v Value>) -> Cow<'v, str> {
        content.map_or(Cow::Borrowed(""), |content| {
            self.content_text(wire::from_value(content))
        })
    }

    fn content_text<'v>(&mut self, content: Content<'v>) -> Cow<'v, str> {
        match content {
            Json::Str(text) => text,
            Json::Array(parts) => {
                let mut texts = Vec::new();
                for part in &parts {
                    let (kind, text) = match part {
                        Json::Object(part) => (part.kind.str(), part.text.or_empty()),
                        _ => (None, ""),
                    };
                    match kind {
                        Some("text" | "input_text" | "output_text") => texts.push(text),
                        Some(other) => self.skipped.add(Skip::ResultParts(other.to_owned())),
                        None => self.skipped.add(Skip::UntypedResultParts),
                    }
                }
                Cow::Owned(texts.join("\n"))
            }
            // Not what the APIs send; shown as it was written.
            Json::Bool(value) => Cow::Owned(value.to_string()),
            Json::Number(value) => Cow::Owned(value.to_string()),
            Json::Object(object) => Cow::Owned(object.to_string()),
            Json::Other => Cow::Borrowed(""),
        }
    }
}

/// Tool definitions in either API's shape.
pub fn tool_definitions(tools: Option<&Value>) -> Vec<ToolDef> {
    let empty = Vec::new();
    tools
        .and_then(Value::as_array)
        .unwrap_or(&empty)
        .iter()
        .filter_map(|tool| {
            // Chat Completions nests the function; Messages and Responses do not.
            let def = tool.get("function").unwrap_or(tool);
            let name = def.get("name")?.as_str()?.to_owned();
            // A tool the client defines has no type, or `function` or
            // `custom`; any other is one the API defines.
            let api_type = tool
                .get("type")
                .and_then(Value::as_str)
                .filter(|t| !matches!(*t, "function" | "custom"))
                .map(str::to_owned);
            Some(ToolDef {
                api_type,
                name,
                description: def
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                input_schema: def
                    .get("input_schema")
                    .or_else(|| def.get("parameters"))
                    .cloned()
                    .unwrap_or_else(|| serde_json::json!({"type": "object"})),
            })
        })
        .collect()
}

/// A system prompt in either API's shape: a string or a list of text blocks.
pub fn system_text(reader: &mut Reader, system: Option<&Value>) -> Option<String> {
    let text = reader.text_of(system);
    (!text.is_empty()).then(|| text.into_owned())
}

/// OpenAI sends each tool result as a message of its own; the loop appends
/// them as one. True when `next` should be folded into `last`.
pub fn folds_into(last: &Message, next: &Message) -> bool {
    only_results(last) && only_results(next)
}

/// A user message that holds nothing but tool results.
pub fn only_results(message: &Message) -> bool {
    message.role == Role::User
        && !message.content.is_empty()
        && message
            .content
            .iter()
            .all(|b| matches!(b, Block::ToolResult { .. }))
}

/// OpenAI sends arguments as a JSON string; keep an object when it parses,
/// the raw text when it does not (dispatch then reports the parse error).
pub fn arguments(value: Option<&Value>) -> Value {
    match value {
        Some(Value::String(raw)) => match serde_json::from_str::<Value>(raw) {
            Ok(parsed @ Value::Object(_)) => parsed,
            _ => Value::String(raw.clone()),
        },
        Some(other) => other.clone(),
        None => Value::Object(Map::new()),
    }
}

pub fn string(object: &Map<String, Value>, key: &str) -> String {
    object
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

/// A user message that asks something, rather than carrying tool results.
pub fn is_prompt(message: &Message) -> bool {
    message.role == Role::User
        && message
            .content
            .iter()
            .any(|b| matches!(b, Block::Text { .. }))
        && !message
            .content
            .iter()
            .any(|b| matches!(b, Block::ToolResult { .. }))
}

/// Adds a message, folding consecutive results into one message.
pub fn push_folded(messages: &mut Vec<Message>, message: Message) {
    match messages.last_mut() {
        Some(last) if folds_into(last, &message) => last.content.extend(message.content),
        _ => messages.push(message),
    }
}

/// What one request sent: its system prompts and its messages.
#[derive(Debug, Default)]
pub struct Request {
    pub system: Vec<String>,
    pub messages: Vec<Message>,
}

/// What one response carried: the reply, its stop reason and usage, and
/// how many choices it offered when it offered several.
#[derive(Debug)]
pub struct Response {
    pub message: Message,
    pub stop_reason: Option<String>,
    pub usage: Option<Usage>,
    pub choices: Option<usize>,
}

/// Where an API's usage object keeps each count.
pub struct UsageKeys {
    /// The response's field that holds the counts.
    pub object: &'static str,
    pub input: &'static str,
    pub output: &'static str,
    /// Output counted apart that is output all the same (Gemini's
    /// thinking, `thoughtsTokenCount`, is not in its `candidatesTokenCount`).
    pub output_also: Option<&'static str>,
    /// The cached part, as a path: inside the input (OpenAI) or beside it
    /// (Anthropic, which also counts what it wrote to the cache).
    pub cached: &'static [&'static str],
    pub cached_is_inside_input: bool,
    pub written: Option<&'static str>,
}

/// Anthropic's Messages API and Claude Code logs:
/// https://platform.claude.com/docs/en/build-with-claude/prompt-caching
pub const ANTHROPIC_USAGE: UsageKeys = UsageKeys {
    object: "usage",
    output_also: None,
    input: "input_tokens",
    output: "output_tokens",
    cached: &["cache_read_input_tokens"],
    cached_is_inside_input: false,
    written: Some("cache_creation_input_tokens"),
};

/// OpenAI Chat Completions: `usage.prompt_tokens_details.cached_tokens`,
/// part of `prompt_tokens`
/// (https://platform.openai.com/docs/guides/prompt-caching). DeepSeek's
/// recording in `tests/fixtures/real` carries the same field beside its
/// own `prompt_cache_hit_tokens`.
pub const CHAT_USAGE: UsageKeys = UsageKeys {
    object: "usage",
    output_also: None,
    input: "prompt_tokens",
    output: "completion_tokens",
    cached: &["prompt_tokens_details", "cached_tokens"],
    cached_is_inside_input: true,
    written: None,
};

/// OpenAI Responses: `usage.input_tokens_details.cached_tokens`, part of
/// `input_tokens` (same guide).
pub const RESPONSES_USAGE: UsageKeys = UsageKeys {
    object: "usage",
    output_also: None,
    input: "input_tokens",
    output: "output_tokens",
    cached: &["input_tokens_details", "cached_tokens"],
    cached_is_inside_input: true,
    written: None,
};

/// The usage object of a response, read with its API's keys.
pub fn usage(response: &Value, keys: &UsageKeys) -> Option<Usage> {
    // `"usage": null` is no usage, not a usage of nothing.
    response
        .get(keys.object)
        .filter(|u| u.is_object())
        .map(|u| usage_of(u, keys))
}

/// A usage as this API writes it: the inverse of [`usage_of`], cache
/// counts only where there are some.
pub fn usage_json(usage: &Usage, keys: &UsageKeys) -> Value {
    let input = if keys.cached_is_inside_input {
        usage.all_input()
    } else {
        usage.input_tokens
    };
    let mut json = serde_json::json!({keys.input: input, keys.output: usage.output_tokens});
    if usage.cache_read_tokens > 0 {
        let mut cached = serde_json::json!(usage.cache_read_tokens);
        for key in keys.cached.iter().rev() {
            cached = serde_json::json!({ *key: cached });
        }
        merge(&mut json, cached);
    }
    if let Some(key) = keys.written.filter(|_| usage.cache_write_tokens > 0) {
        json[key] = usage.cache_write_tokens.into();
    }
    json
}

/// Adds `more`'s keys to `into` (both objects).
fn merge(into: &mut Value, more: Value) {
    if let (Value::Object(into), Value::Object(more)) = (into, more) {
        into.extend(more);
    }
}

/// A usage object itself, counted as [`Usage`] counts.
pub fn usage_of(u: &Value, keys: &UsageKeys) -> Usage {
    let count = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    let cached = count(keys.cached.iter().try_fold(u, |v, key| v.get(key)));
    let input = count(u.get(keys.input));
    Usage {
        input_tokens: if keys.cached_is_inside_input {
            input.saturating_sub(cached)
        } else {
            input
        },
        output_tokens: count(u.get(keys.output))
            .saturating_add(keys.output_also.map_or(0, |key| count(u.get(key)))),
        cache_read_tokens: cached,
        cache_write_tokens: keys.written.map_or(0, |key| count(u.get(key))),
    }
}

/// A request of the Messages or Chat shape: `system` (Anthropic) or system
/// messages (OpenAI), then `messages`.
pub fn messages_request(reader: &mut Reader, request: &Value) -> Request {
    let mut read = Request::default();
    read.system
        .extend(system_text(reader, request.get("system")));
    for m in request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match reader.message(m) {
            Read::Message(message) => push_folded(&mut read.messages, message),
            Read::System(text) => read.system.push(text),
            Read::Nothing => {}
        }
    }
    read
}

#[cfg(test)]
mod content_tests {
    use super::*;

    #[test]
    fn a_result_s_content_of_another_type_is_shown_as_it_was_written() {
        let mut reader = Reader::default();
        for (content, shown) in [
            (serde_json::json!(42), "42"),
            (serde_json::json!(true), "true"),
            (serde_json::json!({"a": 1}), r#"{"a":1}"#),
            (serde_json::json!(null), ""),
        ] {
            let message =
                serde_json::json!({"role": "tool", "tool_call_id": "c1", "content": content});
            let Read::Message(read) = reader.message(&message) else {
                panic!("a tool message: {message}");
            };
            let [Block::ToolResult { content, .. }] = read.content.as_slice() else {
                panic!("one result: {read:?}");
            };
            assert_eq!(&**content, shown);
        }
    }
}

#[cfg(test)]
mod usage_tests {
    use super::*;

    #[test]
    fn each_api_s_usage_is_written_back_as_it_was_read() {
        let usage = Usage {
            input_tokens: 51,
            output_tokens: 116,
            cache_read_tokens: 512,
            cache_write_tokens: 0,
        };
        for keys in [
            &ANTHROPIC_USAGE,
            &CHAT_USAGE,
            &RESPONSES_USAGE,
            &super::super::gemini::USAGE,
            &super::super::bedrock::USAGE,
        ] {
            assert_eq!(usage_of(&usage_json(&usage, keys), keys), usage);
        }
        let written = Usage {
            cache_write_tokens: 300,
            ..usage
        };
        assert_eq!(
            usage_of(&usage_json(&written, &ANTHROPIC_USAGE), &ANTHROPIC_USAGE),
            written
        );
        // OpenAI counts the cache inside its input.
        let chat = usage_json(&usage, &CHAT_USAGE);
        assert_eq!(chat["prompt_tokens"], 563);
        assert_eq!(chat["prompt_tokens_details"]["cached_tokens"], 512);
    }
}
