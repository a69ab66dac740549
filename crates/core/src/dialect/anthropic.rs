//! Anthropic's Messages API. loopstep's native messages already have its
//! shape (content blocks, one user message of `tool_result` blocks), so the
//! wire form is the native form, but for a server tool's result, which the
//! wire calls by its own type, and a server tool's declaration.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::read::{self, Reader, Response};
use super::{SeenCalls, Words};
use crate::vocab::{
    Block, Message, Messages, Rejection, Reply, RequestRule, Role, StopReason, ToolDef,
};

pub const WORDS: Words = Words {
    api: "Anthropic Messages",
    stop_field: "stop_reason",
    tool_request: "tool_use",
    tool_result: "tool_result",
    result_kind: "tool_result",
    result_id: "tool_use_id",
    error_key: "is_error",
    tool_stop: "tool_use",
    answer_stop: "end_turn",
    tool_edge: "tool_use",
    calls_in_items: false,
    result_role: "user",
    reply_role: "assistant",
    // An object, but a tool streamed without buffering may arrive as
    // invalid or partial JSON, cut where max_tokens fell
    // (https://platform.claude.com/docs/en/agents-and-tools/tool-use/fine-grained-tool-streaming).
    arguments_object: false,
    refusal_in_reply: false,
    keeps_state: false,
    results_together: true,
    // `system` is a field of the request beside `messages`
    // (https://platform.claude.com/docs/en/api/messages/create).
    system_in_messages: false,
    list: "messages",
};

/// The stop reasons the Messages API documents.
pub const STOPS: &[(&str, StopReason)] = &[
    ("tool_use", StopReason::ToolUse),
    ("end_turn", StopReason::EndTurn),
    ("max_tokens", StopReason::MaxTokens),
    ("stop_sequence", StopReason::StopSequence),
    ("refusal", StopReason::Refusal),
    ("pause_turn", StopReason::PauseTurn),
    (
        "model_context_window_exceeded",
        StopReason::ContextWindowExceeded,
    ),
];

pub fn request(
    model: &str,
    system: Option<&str>,
    tools: &[ToolDef],
    messages: Messages<'_>,
) -> Value {
    let mut body = json!({ "model": model });
    if let Some(system) = system {
        body["system"] = json!(system);
    }
    if !tools.is_empty() {
        body["tools"] = tools.iter().map(tool_json).collect();
    }
    body["messages"] = self::messages(messages);
    body
}

/// A tool as declared: one the API defines by its type and name only
/// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool).
fn tool_json(tool: &ToolDef) -> Value {
    match &tool.api_type {
        Some(kind) => json!({ "type": kind, "name": tool.name }),
        None => json!(tool),
    }
}

/// A block as the wire carries it.
fn block_json(block: &Block) -> Value {
    match block {
        Block::ServerToolResult {
            tool_use_id,
            kind,
            content,
        } => json!({ "type": kind, "tool_use_id": tool_use_id, "content": content }),
        other => json!(other),
    }
}

fn blocks_json(blocks: &[Block]) -> Value {
    blocks.iter().map(block_json).collect()
}

pub fn response(model: &str, reply: &Reply) -> Value {
    // The stop reason goes first: it is what the check reads.
    let mut body = json!({
        "type": "message",
        "role": "assistant",
        "model": model,
        "stop_reason": reply.stop_reason,
        "content": blocks_json(&reply.content),
    });
    if let Some(usage) = reply.usage {
        body["usage"] = read::usage_json(&usage, &read::ANTHROPIC_USAGE);
    }
    body
}

pub fn messages(messages: Messages<'_>) -> Value {
    messages
        .iter()
        .map(|m| json!({ "role": m.role, "content": blocks_json(&m.content) }))
        .collect()
}

pub fn tool_call(id: &str, name: &str, input: &Value) -> Value {
    json!({ "type": "tool_use", "id": id, "name": name, "input": input })
}

/// The rules of the Messages API about `messages`, checked as the
/// conversation grows: each call hands over only the messages added since
/// the last one, so a replay stays linear however long it runs. The last
/// turn stays open: consecutive messages of one role are one turn. The
/// current reference no longer asks for the first message to be the
/// user's, so that is not a rule here.
#[derive(Debug)]
pub struct MessagesChecker {
    /// Every tool-use id of a closed assistant turn.
    seen_calls: SeenCalls,
    /// The tool-use ids of the last closed assistant turn, and where it began.
    asked: Vec<String>,
    asked_at: usize,
    /// The last turn, which the next message may still join.
    open: Option<Turn>,
    /// An empty message, allowed only as the final assistant message.
    empty_at: Option<usize>,
}

/// One turn of the conversation as the API reads it. The API reference,
/// on `messages`: "Consecutive `user` or `assistant` turns in your request
/// will be combined into a single turn."
/// (https://platform.claude.com/docs/en/api/messages/create)
#[derive(Debug)]
struct Turn {
    role: Role,
    first: usize,
    /// Tool results, with the index of their message.
    results: Vec<(usize, String)>,
    /// Tool-use ids.
    calls: Vec<String>,
    /// Where a tool result follows other content.
    result_after_text: Option<usize>,
    has_other: bool,
}

impl MessagesChecker {
    pub fn new(seen_calls: SeenCalls) -> Self {
        MessagesChecker {
            seen_calls,
            asked: Vec::new(),
            asked_at: 0,
            open: None,
            empty_at: None,
        }
    }

    /// Adds the message at `index` to the conversation checked so far.
    pub fn push(&mut self, index: usize, message: &Message) -> Result<(), Rejection> {
        // Not stated in prose: the reference types text as at least one
        // character, and the API answers an empty message with "all messages
        // must have non-empty content except for the optional final assistant
        // message" (an API error, as users report it, e.g.
        // https://github.com/anthropics/claude-code/issues/3196).
        // The first rule broken is the verdict; the message is taken in
        // either way, so that a replay that goes past a break (a recording
        // the API accepted) goes on checking the rest.
        let mut first = self
            .empty_at
            .take()
            .map(|at| Rejection::new(at, RequestRule::EmptyContent, vec![]));
        if message.content.is_empty() {
            if message.role == Role::Assistant {
                self.empty_at = Some(index);
            } else {
                first.get_or_insert(Rejection::new(index, RequestRule::EmptyContent, vec![]));
            }
        }
        if self.open.as_ref().is_some_and(|t| t.role != message.role) {
            let turn = self.open.take().expect("checked above");
            if let Err(broken) = self.close(turn) {
                first.get_or_insert(broken);
            }
        }
        let turn = self.open.get_or_insert_with(|| Turn {
            role: message.role,
            first: index,
            results: Vec::new(),
            calls: Vec::new(),
            result_after_text: None,
            has_other: false,
        });
        for block in &message.content {
            match block {
                Block::ToolResult { tool_use_id, .. } => {
                    if turn.has_other && turn.result_after_text.is_none() {
                        turn.result_after_text = Some(index);
                    }
                    turn.results.push((index, tool_use_id.clone()));
                }
                Block::ToolUse { id, .. } => {
                    turn.has_other = true;
                    turn.calls.push(id.clone());
                }
                _ => turn.has_other = true,
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// Whether the request, as it stands, breaks a rule; the open last turn
    /// is judged as if it ended here.
    pub fn finish(&self) -> Result<(), Rejection> {
        let Some(turn) = &self.open else {
            return Err(Rejection::new(0, RequestRule::NoMessages, vec![]));
        };
        match turn.role {
            // The Messages API takes the system prompt apart: not a turn.
            Role::System => Ok(()),
            Role::User => self.check_user(turn),
            Role::Assistant => {
                self.check_assistant(turn)?;
                // Calls at the very end have no result after them.
                let pending = turn.calls.iter().map(String::as_str).collect();
                Rejection::unless_any(turn.first, RequestRule::UnansweredCalls, pending)
            }
        }
    }

    /// Judges a finished turn and keeps what it leaves, whatever the verdict.
    fn close(&mut self, turn: Turn) -> Result<(), Rejection> {
        match turn.role {
            Role::System => Ok(()),
            Role::User => {
                let verdict = self.check_user(&turn);
                self.asked.clear();
                verdict
            }
            Role::Assistant => {
                let verdict = self.check_assistant(&turn);
                self.seen_calls.extend(&turn.calls);
                self.asked = turn.calls;
                self.asked_at = turn.first;
                verdict
            }
        }
    }

    fn check_user(&self, turn: &Turn) -> Result<(), Rejection> {
        use RequestRule::*;
        let asked = |id: &str| self.asked.iter().any(|a| a == id);
        let ids = || turn.results.iter().map(|(_, id)| id.as_str());
        // "Tool result blocks must immediately follow their corresponding
        // tool use blocks in the message history. You cannot include any
        // messages between the assistant's tool use message and the user's
        // tool result message."
        // (https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls)
        // And from handling-stop-reasons: "The continuation is a user message
        // of `tool_result` blocks, one for every `tool_use` block in the
        // response".
        let at = turn.results.first().map_or(turn.first, |(i, _)| *i);
        Rejection::unless_any(
            at,
            ResultsWithoutCall,
            ids().filter(|id| !asked(id)).collect(),
        )?;
        let unanswered = self
            .asked
            .iter()
            .map(String::as_str)
            .filter(|id| !ids().any(|a| a == *id));
        Rejection::unless_any(self.asked_at, UnansweredCalls, unanswered.collect())?;
        let twice = turn
            .results
            .iter()
            .enumerate()
            .filter(|(k, (_, id))| turn.results[..*k].iter().any(|(_, a)| a == id))
            .map(|(_, (_, id))| id.as_str())
            .collect();
        Rejection::unless_any(at, AnsweredTwice, twice)?;
        // "In the user message containing tool results, the tool_result
        // blocks must come FIRST in the content array. Any text must come
        // AFTER all tool results." (handle-tool-calls, above)
        match turn.result_after_text {
            Some(index) => Err(Rejection::new(index, ResultsNotFirst, vec![])),
            None => Ok(()),
        }
    }

    fn check_assistant(&self, turn: &Turn) -> Result<(), Rejection> {
        // The docs call the id "A unique identifier for this particular tool
        // use block"; the API refuses a reused one with "`tool_use` ids must
        // be unique" (an API error, as users report it:
        // https://github.com/anthropics/claude-code/issues/28515).
        let reused = turn
            .calls
            .iter()
            .enumerate()
            .filter(|(k, id)| {
                self.seen_calls.before(turn.first, id) || turn.calls[..*k].contains(id)
            })
            .map(|(_, id)| id.as_str())
            .collect();
        Rejection::unless_any(turn.first, RequestRule::DuplicateCallIds, reused)
    }
}

/// A streamed Messages response put back together: `message_start` holds
/// the message without content; each block opens with
/// `content_block_start` at its `index`, grows by `content_block_delta`
/// (text, thinking, a signature, or tool input as pieces of JSON text
/// parsed once the block stops) and closes with `content_block_stop`;
/// `message_delta` brings the stop reason and running usage totals.
/// https://docs.anthropic.com/en/docs/build-with-claude/streaming
pub fn reassemble(events: &[Value]) -> Value {
    use super::stream::set;
    /// A block as it streams in: its opening shell, and its pieces so far.
    #[derive(Default)]
    struct Growing {
        shell: Value,
        text: String,
        thinking: String,
        input: String,
    }
    let mut message = json!({});
    // By index, sparse: a stream may number its blocks however it likes.
    let mut blocks: BTreeMap<u64, Growing> = BTreeMap::new();
    for event in events {
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match event.get("type").and_then(Value::as_str).unwrap_or("") {
            "message_start" => {
                message = event.get("message").cloned().unwrap_or_else(|| json!({}));
            }
            "content_block_start" => {
                let shell = event.get("content_block").cloned().unwrap_or(Value::Null);
                blocks.insert(
                    index,
                    Growing {
                        shell,
                        ..Growing::default()
                    },
                );
            }
            "content_block_delta" => {
                let Some(block) = blocks.get_mut(&index) else {
                    continue;
                };
                let delta = event.get("delta").unwrap_or(&Value::Null);
                let text = |field| delta.get(field).and_then(Value::as_str).unwrap_or("");
                match delta.get("type").and_then(Value::as_str).unwrap_or("") {
                    "text_delta" => block.text.push_str(text("text")),
                    "thinking_delta" => block.thinking.push_str(text("thinking")),
                    // Sent once, just before the block stops.
                    "signature_delta" => {
                        set(&mut block.shell, "signature", json!(text("signature")))
                    }
                    "input_json_delta" => block.input.push_str(text("partial_json")),
                    _ => {}
                }
            }
            "message_delta" => {
                let delta = event.get("delta").and_then(Value::as_object);
                for (field, value) in delta.into_iter().flatten() {
                    set(&mut message, field, value.clone());
                }
                // Totals so far, not increments: the newest wins.
                let usage = event.get("usage").and_then(Value::as_object);
                for (field, value) in usage.into_iter().flatten() {
                    if let Some(totals) = message.get_mut("usage") {
                        set(totals, field, value.clone());
                    }
                }
            }
            _ => {}
        }
    }
    let content = blocks
        .into_values()
        .map(|mut block| {
            for (field, more) in [("text", &block.text), ("thinking", &block.thinking)] {
                if !more.is_empty() {
                    let before = block.shell.get(field).and_then(Value::as_str).unwrap_or("");
                    let joined = format!("{before}{more}");
                    set(&mut block.shell, field, json!(joined));
                }
            }
            if !block.input.is_empty() {
                let input = super::stream::streamed_input(block.input, None);
                set(&mut block.shell, "input", input);
            }
            block.shell
        })
        .filter(|b| !b.is_null())
        .collect();
    set(&mut message, "content", Value::Array(content));
    message
}

/// A Messages API response: content blocks and `stop_reason`.
pub fn read_response(reader: &mut Reader, response: &Value) -> Response {
    let mut content = Vec::new();
    reader.blocks_into(response.get("content"), &mut content);
    Response {
        message: Message {
            role: Role::Assistant,
            content,
        },
        stop_reason: response
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        usage: read::usage(response, &read::ANTHROPIC_USAGE),
        choices: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Messages written the way the docs write them (content a string or
    /// a list of blocks), as native messages.
    fn from_docs(mut value: Value) -> Vec<Message> {
        for message in value.as_array_mut().unwrap() {
            if let Some(t) = message["content"].as_str() {
                message["content"] = json!([text(t)]);
            }
        }
        serde_json::from_value(value).unwrap()
    }

    fn rule(messages: Value) -> Option<RequestRule> {
        super::super::Dialect::AnthropicMessages
            .check_request(&from_docs(messages))
            .err()
            .map(|r| r.rule)
    }

    fn call(id: &str) -> Value {
        json!({"type": "tool_use", "id": id, "name": "get_weather", "input": {"location": "Paris"}})
    }

    fn result(id: &str) -> Value {
        json!({"type": "tool_result", "tool_use_id": id, "content": "15 degrees"})
    }

    fn text(t: &str) -> Value {
        json!({"type": "text", "text": t})
    }

    #[test]
    fn results_must_come_first_in_their_message() {
        // handle-tool-calls: "this will cause a 400 error" — text before the
        // tool_result — and "This is correct" — the tool_result, then text.
        let asked = json!({"role": "assistant", "content": [call("toolu_01")]});
        let wrong = json!([
            {"role": "user", "content": "What's the weather?"},
            asked,
            {"role": "user", "content": [text("Here are the results:"), result("toolu_01")]}
        ]);
        assert_eq!(rule(wrong), Some(RequestRule::ResultsNotFirst));
        let right = json!([
            {"role": "user", "content": "What's the weather?"},
            asked,
            {"role": "user", "content": [result("toolu_01"), text("What should I do next?")]}
        ]);
        assert_eq!(rule(right), None);
    }

    #[test]
    fn every_call_is_answered_in_the_very_next_message() {
        // "Tool result blocks must immediately follow their corresponding
        // tool use blocks"; leaving one out "fails ... with the standard
        // `tool_use ids were found without tool_result blocks immediately
        // after` error".
        let missing = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call("a"), call("b")]},
            {"role": "user", "content": [result("a")]}
        ]);
        assert_eq!(rule(missing), Some(RequestRule::UnansweredCalls));
        let late = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call("a")]},
        ]);
        assert_eq!(rule(late), Some(RequestRule::UnansweredCalls));
        let orphan = json!([
            {"role": "user", "content": [text("q"), result("a")]}
        ]);
        assert_eq!(rule(orphan), Some(RequestRule::ResultsWithoutCall));
    }

    #[test]
    fn consecutive_user_turns_are_combined_so_split_results_are_accepted() {
        // The reference: "Consecutive `user` or `assistant` turns in your
        // request will be combined into a single turn." The tool-use guide
        // shows this very form as "❌ Wrong" only because it "reduces
        // parallel tool use".
        let split = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call("tool_use_1"), call("tool_use_2")]},
            {"role": "user", "content": [result("tool_use_1")]},
            {"role": "user", "content": [result("tool_use_2")]}
        ]);
        assert_eq!(rule(split), None);
        let two_questions = json!([
            {"role": "user", "content": "Hello"},
            {"role": "user", "content": "Are you there?"}
        ]);
        assert_eq!(rule(two_questions), None);
    }

    #[test]
    fn an_empty_message_is_refused_but_an_empty_final_assistant_message_is_not() {
        // The API's words: "all messages must have non-empty content except
        // for the optional final assistant message".
        let empty = json!([{"role": "user", "content": []}]);
        assert_eq!(rule(empty), Some(RequestRule::EmptyContent));
        let prefill = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": []}
        ]);
        assert_eq!(rule(prefill), None);
    }

    #[test]
    fn ids_are_unique_and_answered_once() {
        // The id is "A unique identifier for this particular tool use block";
        // a reused one is refused with "`tool_use` ids must be unique".
        let reused = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call("a")]},
            {"role": "user", "content": [result("a")]},
            {"role": "assistant", "content": [call("a")]},
            {"role": "user", "content": [result("a")]}
        ]);
        assert_eq!(rule(reused), Some(RequestRule::DuplicateCallIds));
        let twice = json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call("a")]},
            {"role": "user", "content": [result("a"), result("a")]}
        ]);
        assert_eq!(rule(twice), Some(RequestRule::AnsweredTwice));
    }

    #[test]
    fn the_first_message_may_be_the_assistants() {
        // The current reference states no such rule (an older one did).
        let opening = json!([
            {"role": "assistant", "content": "Hi, how can I help?"},
            {"role": "user", "content": "q"}
        ]);
        assert_eq!(rule(opening), None);
    }
}
