//! The conversation as the model API sees it: messages made of content blocks.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::timing::Timing;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The system prompt, where an API sends it as the first message
    /// (Chat Completions); never written by a user or the model, and never
    /// read from a transcript, whose system prompt is its `system`.
    #[serde(skip_deserializing)]
    System,
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One piece of a message, in the Anthropic Messages shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Block {
    Text {
        text: String,
    },
    /// The model's visible reasoning; kept in the history, never executed.
    Thinking {
        thinking: String,
    },
    /// The model declined, in the API's own refusal field (OpenAI's
    /// `refusal`), which is not the answer's text.
    Refusal {
        refusal: String,
    },
    /// A tool request. `input` is normally a JSON object; a string holds raw
    /// arguments text (as OpenAI sends them), parsed only at dispatch.
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// A tool the API's own servers ran inside the call (Responses'
    /// `web_search_call`; written as Anthropic's `server_tool_use` shape):
    /// part of the reply, never dispatched by the loop, so it needs no
    /// result from it.
    ServerToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// What a server tool gave back, in the same reply, right after its
    /// call, paired by `tool_use_id` (Anthropic's `web_search_tool_result`
    /// and its kin); sent back as it came, never answered by the loop
    /// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools).
    ServerToolResult {
        tool_use_id: String,
        /// Its type on the wire: `web_search_tool_result`, …
        kind: String,
        content: Value,
    },
    ToolResult {
        tool_use_id: String,
        /// Shared with the recorded output and the dispatch step: results
        /// are most of a long run's bytes, and kept once.
        content: Arc<str>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

/// A server tool's result in a line: the titles (and addresses) of the
/// pages a web search found, else the JSON; a search result's own
/// content is encrypted, for the API alone to read.
pub fn server_result_line(content: &Value) -> String {
    let titled: Option<Vec<String>> = content.as_array().map(|results| {
        results
            .iter()
            .filter_map(|r| {
                let title = r.get("title")?.as_str()?;
                Some(match r.get("url").and_then(Value::as_str) {
                    Some(url) => format!("{title} <{url}>"),
                    None => title.to_owned(),
                })
            })
            .collect()
    });
    match titled {
        Some(titles) if !titles.is_empty() => titles.join(" · "),
        _ => content.to_string(),
    }
}

impl Block {
    /// Characters this block adds to a request, used for the "request size" figure.
    pub fn chars(&self) -> usize {
        match self {
            Block::Text { text } => text.chars().count(),
            Block::Thinking { thinking } => thinking.chars().count(),
            Block::Refusal { refusal } => refusal.chars().count(),
            Block::ToolUse { name, input, .. } | Block::ServerToolUse { name, input, .. } => {
                name.chars().count() + input.to_string().chars().count()
            }
            Block::ToolResult { content, .. } => content.chars().count(),
            Block::ServerToolResult { kind, content, .. } => {
                kind.chars().count() + content.to_string().chars().count()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    pub role: Role,
    pub content: Vec<Block>,
}

impl Message {
    pub fn user_text(text: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    pub fn system_text(text: impl Into<String>) -> Self {
        Message {
            role: Role::System,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    pub fn chars(&self) -> usize {
        self.content.iter().map(Block::chars).sum()
    }

    /// All text blocks joined.
    pub fn text(&self) -> String {
        joined_text(&self.content)
    }

    /// The model's visible reasoning blocks, joined.
    pub fn thinking(&self) -> String {
        joined(&self.content, |b| match b {
            Block::Thinking { thinking } => Some(thinking),
            _ => None,
        })
    }

    /// The tool requests in this message, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = ToolCall<'_>> {
        tool_calls(&self.content)
    }
}

/// Token counts as the API reported them, when the recording has them,
/// counted the way Anthropic's Messages API counts: `input_tokens` are the
/// input tokens neither read from nor written to the prompt cache, and the
/// cache's own are apart, so that the whole input is the sum of the three
/// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
/// OpenAI counts cached tokens inside its input; its readers subtract them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Input read from the cache: history the API had seen and kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read_tokens: u64,
    /// Input written to the cache for later calls to read.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// Every input token the call was sent, cached or not.
    pub fn all_input(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.cache_read_tokens)
            .saturating_add(self.cache_write_tokens)
    }

    /// Two usages added up, field by field; counts read from a file can
    /// be anything, so the sums stop at the largest rather than wrap.
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            cache_read_tokens: self
                .cache_read_tokens
                .saturating_add(other.cache_read_tokens),
            cache_write_tokens: self
                .cache_write_tokens
                .saturating_add(other.cache_write_tokens),
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One model reply: its content and why the model stopped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    pub content: Vec<Block>,
    /// Verbatim as recorded: `tool_use`, `end_turn`, `tool_calls`, `stop`, ...
    pub stop_reason: String,
    /// Set when the recording carried no stop reason and it was worked out
    /// from the content (tool requests present: a tool request; else an answer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop_reason_inferred: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// When the call started and how long it took, where the recording says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Timing>,
    /// The recording received the reply streamed, as server-sent events.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub streamed: bool,
}

impl Reply {
    /// All text blocks joined: what the loop returns as the answer.
    pub fn text(&self) -> String {
        joined_text(&self.content)
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = ToolCall<'_>> {
        tool_calls(&self.content)
    }

    pub fn into_message(self) -> Message {
        Message {
            role: Role::Assistant,
            content: self.content,
        }
    }
}

fn joined_text(blocks: &[Block]) -> String {
    joined(blocks, |b| match b {
        Block::Text { text } => Some(text),
        _ => None,
    })
}

/// The part `part` picks of each block that has one, a line apart.
fn joined<'b>(blocks: &'b [Block], part: impl Fn(&'b Block) -> Option<&'b String>) -> String {
    let parts: Vec<&str> = blocks.iter().filter_map(part).map(String::as_str).collect();
    parts.join("\n")
}

/// A borrowed view of one `tool_use` block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolCall<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub input: &'a Value,
}

fn tool_calls(blocks: &[Block]) -> impl Iterator<Item = ToolCall<'_>> {
    blocks.iter().filter_map(|b| match b {
        Block::ToolUse { id, name, input } => Some(ToolCall { id, name, input }),
        _ => None,
    })
}

/// A tool the model may call, as declared to the API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolDef {
    /// A tool the API defines is declared by its type and name: one its
    /// servers run (`web_search_20250305`), or one of Anthropic's that the
    /// client runs (`bash_20250124`); a tool the client defines has none.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub api_type: Option<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "empty_object_schema")]
    pub input_schema: Value,
}

fn empty_object_schema() -> Value {
    serde_json::json!({"type": "object"})
}
