//! What each model API defines, one module per API: the JSON it sends and
//! receives, how it spells its stop reasons, which requests it refuses, and
//! the names a lesson uses for its parts. Everything else asks the run's
//! [`Dialect`] instead of matching on providers.
//!
//! DeepSeek speaks OpenAI Chat Completions (with one extra finish reason),
//! so it is that dialect.

mod anthropic;
mod bedrock;
pub mod eventstream;
mod gemini;
mod models;
mod next_message;
mod openai_chat;
mod openai_responses;
pub mod read;
pub mod stream;
pub mod wire;

use std::collections::{HashMap, HashSet};

pub use models::context_window;
pub use openai_chat::DEEPSEEK_STOP;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::vocab::{History, Message, Messages, Rejection, Reply, StopReason, ToolDef};

/// The API a run was recorded with, or is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// Anthropic's Messages API: `stop_reason`, `tool_use` / `tool_result` blocks.
    #[default]
    AnthropicMessages,
    /// OpenAI Chat Completions (and DeepSeek): `finish_reason`,
    /// `tool_calls`, one `role: "tool"` message per result.
    OpenaiChat,
    /// OpenAI Responses: `status`, `function_call` / `function_call_output` items.
    OpenaiResponses,
    /// Google's Gemini API: `finishReason`, `functionCall` /
    /// `functionResponse` parts of `contents`.
    Gemini,
    /// Amazon Bedrock's Converse API: `stopReason`, `toolUse` /
    /// `toolResult` blocks.
    BedrockConverse,
}

/// The names a dialect gives the parts of the loop, for narration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The API's own name: "Anthropic Messages".
    pub api: &'static str,
    /// The field the check reads: `stop_reason`, `finish_reason`, `status`.
    pub stop_field: &'static str,
    /// How a reply's tool request is called: `tool_use` block, ...
    pub tool_request: &'static str,
    /// How a tool result is called when it goes back.
    pub tool_result: &'static str,
    /// The label of a result in a list of messages.
    pub result_kind: &'static str,
    /// The field of a result that names the call it answers.
    pub result_id: &'static str,
    /// The key loopstep's JSON output gives that flag.
    pub error_key: &'static str,
    /// The stop reason that asks for tools, and the one that answers
    /// (both `completed` in Responses, where the output items decide).
    pub tool_stop: &'static str,
    pub answer_stop: &'static str,
    /// The diagram's label for the branch to the tools.
    pub tool_edge: &'static str,
    /// Whether the reply's items, not its stop reason, say that it asks
    /// for tools (Responses).
    pub calls_in_items: bool,
    /// The role a message of results has on the wire.
    pub result_role: &'static str,
    /// The role the model's replies have on the wire.
    pub reply_role: &'static str,
    /// Whether a call's arguments always travel as a JSON object
    /// (Gemini's `args`, Converse's `input`), never as text that may be
    /// cut (Chat's and Responses' `arguments`, Messages' streamed input).
    pub arguments_object: bool,
    /// Whether a refusal comes in the reply itself, under the stop of a
    /// finished answer, rather than as a stop reason of its own.
    pub refusal_in_reply: bool,
    /// Whether the API can keep the conversation on its side.
    pub keeps_state: bool,
    /// Whether one turn's results travel as one message (Anthropic) rather
    /// than one message or item per call (OpenAI).
    pub results_together: bool,
    /// Whether the system prompt travels as the first message (Chat
    /// Completions) rather than apart from them (Messages' `system`,
    /// Responses' `instructions`).
    pub system_in_messages: bool,
    /// The request's list of turns, as a rejection names a place in it:
    /// `messages[2]`, `contents[2]`.
    pub list: &'static str,
}

impl Dialect {
    pub const ALL: [Dialect; 5] = [
        Dialect::AnthropicMessages,
        Dialect::OpenaiChat,
        Dialect::OpenaiResponses,
        Dialect::Gemini,
        Dialect::BedrockConverse,
    ];

    /// The names this API gives things.
    pub fn words(self) -> &'static Words {
        match self {
            Dialect::AnthropicMessages => &anthropic::WORDS,
            Dialect::OpenaiChat => &openai_chat::WORDS,
            Dialect::OpenaiResponses => &openai_responses::WORDS,
            Dialect::Gemini => &gemini::WORDS,
            Dialect::BedrockConverse => &bedrock::WORDS,
        }
    }

    /// The API this identifier names, as `id` gives it.
    pub fn of_id(id: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.id() == id)
    }

    /// The identifier used in transcripts and JSON output.
    pub fn id(self) -> &'static str {
        match self {
            Dialect::AnthropicMessages => "anthropic-messages",
            Dialect::OpenaiChat => "openai-chat",
            Dialect::OpenaiResponses => "openai-responses",
            Dialect::Gemini => "gemini",
            Dialect::BedrockConverse => "bedrock-converse",
        }
    }

    /// Whether one turn's results travel as one message (Anthropic) or as
    /// one message or item per call (OpenAI).
    pub fn results_in_one_message(self) -> bool {
        self.words().results_together
    }

    /// Every spelling of a stop reason in this API, with its meaning.
    pub fn stops(self) -> &'static [(&'static str, StopReason)] {
        match self {
            Dialect::AnthropicMessages => anthropic::STOPS,
            Dialect::OpenaiChat => openai_chat::STOPS,
            Dialect::OpenaiResponses => openai_responses::STOPS,
            Dialect::Gemini => gemini::STOPS,
            Dialect::BedrockConverse => bedrock::STOPS,
        }
    }

    /// What a recorded stop reason means in this API; a word it does not
    /// use (another API's, or a new one) is [`StopReason::Unknown`].
    pub fn stop_reason(self, raw: &str) -> StopReason {
        self.stops()
            .iter()
            .find(|(spelled, _)| *spelled == raw)
            .map_or(StopReason::Unknown, |(_, reason)| *reason)
    }

    /// A recorded stop as the wire shows it. Responses has no stop reason:
    /// a response's `status` is `completed`, or `incomplete` with the
    /// reason in `incomplete_details.reason`, which is what a replay
    /// records (status values: completed, failed, in_progress, incomplete;
    /// https://platform.openai.com/docs/api-reference/responses/object).
    pub fn wire_stop(self, raw: &str) -> std::borrow::Cow<'_, str> {
        let incomplete = self == Dialect::OpenaiResponses
            && matches!(
                self.stop_reason(raw),
                StopReason::MaxTokens | StopReason::ContentFilter
            );
        if incomplete {
            format!("incomplete (incomplete_details.reason {raw})").into()
        } else {
            raw.into()
        }
    }

    /// How this API spells a stop reason, if it has one for it.
    pub fn spell(self, reason: StopReason) -> Option<&'static str> {
        self.stops()
            .iter()
            .find(|(_, r)| *r == reason)
            .map(|(spelled, _)| *spelled)
    }

    /// How this API spells the stop another API recorded as `raw`, on a
    /// reply that does or does not ask for tools; `None` when it has no
    /// word for it (Chat Completions has no `pause_turn`). Where the
    /// parts or items, not the stop, tell a tool request from an answer
    /// (Responses, Gemini), both are the finished reply's one status, and
    /// a stop sequence ends it the same way.
    pub fn told_stop(self, recorded: Dialect, raw: &str, asks: bool) -> Option<&'static str> {
        let reason = match recorded.stop_reason(raw) {
            StopReason::Completed if asks => StopReason::ToolUse,
            StopReason::Completed => StopReason::EndTurn,
            // Told as a finished answer whose words are the refusal.
            StopReason::Refusal if self.words().refusal_in_reply => StopReason::EndTurn,
            other => other,
        };
        let finished = matches!(
            reason,
            StopReason::ToolUse | StopReason::EndTurn | StopReason::StopSequence
        );
        if self.words().calls_in_items && finished {
            return self.spell(StopReason::Completed);
        }
        // Chat Completions' `stop` covers "a provided stop sequence".
        // (https://platform.openai.com/docs/api-reference/chat/object)
        self.spell(reason).or(match reason {
            StopReason::StopSequence => self.spell(StopReason::EndTurn),
            _ => None,
        })
    }

    /// Whether `raw` is a stop reason of this API.
    pub fn knows_stop(self, raw: &str) -> bool {
        self.stop_reason(raw) != StopReason::Unknown
    }

    /// The dialect whose words a set of stop reasons uses: the first that
    /// knows every one of them, else Anthropic's. For transcripts that do
    /// not name their dialect.
    pub fn guess<'a>(stop_reasons: impl Iterator<Item = &'a str> + Clone) -> Dialect {
        Dialect::ALL
            .into_iter()
            .find(|d| stop_reasons.clone().all(|r| d.knows_stop(r)))
            .unwrap_or_default()
    }

    /// A checker of this API's request rules for a conversation that opens
    /// with `history`, fed the messages after it as the conversation grows.
    ///
    /// The history was sent, and accepted, before the run: the checker
    /// reads only its last two turns, which the run's first message joins,
    /// and looks its tool-call ids up rather than reading them. Each run
    /// of a long log so costs what it adds, not everything before it.
    pub fn checker(self, history: &History) -> RequestChecker {
        let seen = SeenCalls {
            earlier: history.clone(),
            since: HashSet::new(),
        };
        let mut checker = match self {
            Dialect::AnthropicMessages => {
                RequestChecker::Anthropic(anthropic::MessagesChecker::new(seen))
            }
            // Responses pairs `function_call` and `function_call_output` on
            // `call_id` as Chat pairs `tool_calls` and `tool` messages; its
            // docs show the pairing only by example, and its errors ("No tool
            // output found for function call …") are those of Chat's rules.
            Dialect::OpenaiChat | Dialect::OpenaiResponses => {
                RequestChecker::Chat(openai_chat::ChatChecker::new(seen))
            }
            Dialect::Gemini => RequestChecker::NextMessage(gemini::checker()),
            Dialect::BedrockConverse => RequestChecker::NextMessage(bedrock::checker()),
        };
        let messages = history.messages();
        let tail = last_two_turns(messages);
        for (index, message) in messages.iter().enumerate().skip(tail) {
            // Accepted before: what it broke is not this run's to report.
            let _ = checker.push(index, message);
        }
        checker
    }

    /// Checks a whole request's `messages` against this API's rules.
    pub fn check_request(self, messages: &[Message]) -> Result<(), Rejection> {
        let mut checker = self.checker(&History::default());
        for (index, message) in messages.iter().enumerate() {
            checker.push(index, message)?;
        }
        checker.finish()
    }

    /// A request body: the model, the reply's token limit where it is
    /// known, the system prompt, the tools and the messages. Gemini and
    /// Bedrock name the model in the URL, not the body.
    pub fn request(
        self,
        limit: (&str, Option<u32>),
        system: Option<&str>,
        tools: &[ToolDef],
        messages: Messages<'_>,
    ) -> Value {
        self.request_from(limit, system, tools, messages, 0)
    }

    /// The same, sending the messages of `all` from `from` on (a folded
    /// view leaves the earlier out); those before are what they may refer
    /// to, as for [`Dialect::messages_from`].
    pub fn request_from(
        self,
        (model, max_tokens): (&str, Option<u32>),
        system: Option<&str>,
        tools: &[ToolDef],
        all: Messages<'_>,
        from: usize,
    ) -> Value {
        let messages = all.range(from..all.len());
        let mut body = match self {
            Dialect::AnthropicMessages => anthropic::request(model, system, tools, messages),
            Dialect::OpenaiChat => openai_chat::request(model, system, tools, messages),
            Dialect::OpenaiResponses => openai_responses::request(model, system, tools, messages),
            Dialect::Gemini => gemini::request(system, tools, all, from),
            Dialect::BedrockConverse => bedrock::request(system, tools, messages),
        };
        // Right after the model, where a reader of the body looks first;
        // first where the body has no model.
        if let (Some(limit), Value::Object(fields)) = (max_tokens, &mut body) {
            let (key, value) = match self.token_limit_field() {
                (key, None) => (key, Value::from(limit)),
                (key, Some(inner)) => (key, serde_json::json!({ inner: limit })),
            };
            let mut limit = Some((key.to_owned(), value));
            let before = std::mem::take(fields);
            if !before.contains_key("model") {
                fields.extend(limit.take());
            }
            for (key, value) in before {
                let after_model = key == "model";
                fields.insert(key, value);
                if after_model {
                    fields.extend(limit.take());
                }
            }
        }
        body
    }

    /// Where a request sets the reply's token limit: a field, or a field
    /// of an object. The Messages API requires `max_tokens`
    /// (https://platform.claude.com/docs/en/api/messages/create); Chat
    /// Completions takes `max_tokens` (OpenAI now names it
    /// `max_completion_tokens`, DeepSeek keeps `max_tokens`); Responses
    /// takes `max_output_tokens`; Gemini `generationConfig.maxOutputTokens`
    /// (GenerationConfig, generative_service.proto); Converse
    /// `inferenceConfig.maxTokens` (InferenceConfiguration, service-2.json).
    pub fn token_limit_field(self) -> (&'static str, Option<&'static str>) {
        match self {
            Dialect::AnthropicMessages | Dialect::OpenaiChat => ("max_tokens", None),
            Dialect::OpenaiResponses => ("max_output_tokens", None),
            Dialect::Gemini => ("generationConfig", Some("maxOutputTokens")),
            Dialect::BedrockConverse => ("inferenceConfig", Some("maxTokens")),
        }
    }

    /// The reply's token limit a recorded request set, under any name
    /// the five APIs give it.
    pub fn token_limit_of(request: &Value) -> Option<u32> {
        [
            "/max_tokens",
            "/max_completion_tokens",
            "/max_output_tokens",
            "/generationConfig/maxOutputTokens",
            "/inferenceConfig/maxTokens",
        ]
        .iter()
        .find_map(|path| request.pointer(path)?.as_u64())
        .and_then(|limit| u32::try_from(limit).ok())
    }

    /// A response body for one reply.
    pub fn response(self, model: &str, reply: &Reply) -> Value {
        match self {
            Dialect::AnthropicMessages => anthropic::response(model, reply),
            Dialect::OpenaiChat => openai_chat::response(model, reply),
            Dialect::OpenaiResponses => openai_responses::response(model, reply),
            Dialect::Gemini => gemini::response(model, reply),
            Dialect::BedrockConverse => bedrock::response(reply),
        }
    }

    /// Messages as this API carries them: a JSON array.
    pub fn messages(self, messages: Messages<'_>) -> Value {
        self.messages_from(messages, 0)
    }

    /// The messages of `all` from `from` on, as this API carries them; the
    /// ones before are what they may refer to (a Gemini function response
    /// names the function its call named).
    pub fn messages_from(self, all: Messages<'_>, from: usize) -> Value {
        let tail = || all.range(from..all.len());
        match self {
            Dialect::AnthropicMessages => anthropic::messages(tail()),
            Dialect::OpenaiChat => openai_chat::messages(tail()),
            Dialect::OpenaiResponses => openai_responses::items(tail()),
            Dialect::Gemini => gemini::contents(all, from),
            Dialect::BedrockConverse => bedrock::messages(tail()),
        }
    }

    /// What one recorded request sent, read into native messages.
    pub fn read_request(self, reader: &mut read::Reader, request: &Value) -> read::Request {
        match self {
            Dialect::AnthropicMessages | Dialect::OpenaiChat => {
                read::messages_request(reader, request)
            }
            Dialect::OpenaiResponses => openai_responses::read_request(reader, request),
            Dialect::Gemini => gemini::read_request(reader, request),
            Dialect::BedrockConverse => bedrock::read_request(reader, request),
        }
    }

    /// The tools one recorded request declared.
    pub fn read_tools(self, request: &Value) -> Vec<ToolDef> {
        match self {
            Dialect::Gemini => gemini::read_tools(request),
            Dialect::BedrockConverse => bedrock::read_tools(request),
            _ => read::tool_definitions(request.get("tools")),
        }
    }

    /// What one recorded response carried, read into a native reply.
    pub fn read_response(self, reader: &mut read::Reader, response: &Value) -> read::Response {
        match self {
            Dialect::AnthropicMessages => anthropic::read_response(reader, response),
            Dialect::OpenaiChat => openai_chat::read_response(reader, response),
            Dialect::OpenaiResponses => openai_responses::read_response(reader, response),
            Dialect::Gemini => gemini::read_response(reader, response),
            Dialect::BedrockConverse => bedrock::read_response(reader, response),
        }
    }

    /// Adds the calls of a recorded response to `by_item`, item id → call
    /// id, in an API whose items have ids of their own (Responses).
    pub fn call_ids_by_item(self, response: &Value, by_item: &mut HashMap<String, String>) {
        if self == Dialect::OpenaiResponses {
            openai_responses::call_ids_by_item(response, by_item);
        }
    }

    /// A recorded request with the call ids the client sent back under
    /// ids of its own restored to the model's, where item ids pair them;
    /// with the pairs (sent, model's). `None` when nothing needed it.
    pub fn restore_call_ids(
        self,
        request: &Value,
        by_item: &HashMap<String, String>,
    ) -> Option<(Value, Vec<(String, String)>)> {
        match self {
            Dialect::OpenaiResponses => openai_responses::restore_call_ids(request, by_item),
            _ => None,
        }
    }

    /// The API a recorded response body comes from, by its shape.
    pub fn of_response(response: &Value) -> Dialect {
        if response.get("candidates").is_some() || response.get("usageMetadata").is_some() {
            Dialect::Gemini
        } else if response.get("stopReason").is_some()
            || response.pointer("/output/message").is_some()
        {
            Dialect::BedrockConverse
        } else if response.get("choices").is_some() {
            Dialect::OpenaiChat
        } else if response.get("output").is_some()
            || response.get("object") == Some(&"response".into())
        {
            Dialect::OpenaiResponses
        } else {
            Dialect::AnthropicMessages
        }
    }

    /// One tool call as the model asked for it.
    pub fn tool_call(self, id: &str, name: &str, input: &Value) -> Value {
        match self {
            Dialect::AnthropicMessages => anthropic::tool_call(id, name, input),
            Dialect::OpenaiChat => openai_chat::tool_call(id, name, input),
            Dialect::OpenaiResponses => openai_responses::tool_call(id, name, input),
            Dialect::Gemini => gemini::tool_call(id, name, input),
            Dialect::BedrockConverse => bedrock::tool_call(id, name, input),
        }
    }

    /// What a Gemini function response says, and whether it failed: for
    /// the logs that keep Gemini's parts (Gemini CLI's sessions).
    pub fn gemini_response_text(response: &Value) -> (String, bool) {
        gemini::response_text(response)
    }

    /// The model a request's URL names, in the APIs that name it there.
    pub fn model_in_url(self, url: &str) -> Option<String> {
        match self {
            Dialect::Gemini => gemini::model_in_url(url),
            Dialect::BedrockConverse => bedrock::model_in_url(url),
            _ => None,
        }
    }
}

/// Where the last two turns of `messages` begin: the runs of messages of
/// one role, as the APIs merge them. What comes before them no longer
/// changes how a rule reads the next message.
fn last_two_turns(messages: &[Message]) -> usize {
    let mut start = messages.len();
    for _ in 0..2 {
        let Some(role) = start.checked_sub(1).map(|last| messages[last].role) else {
            break;
        };
        while start > 0 && messages[start - 1].role == role {
            start -= 1;
        }
    }
    start
}

/// The tool-call ids a conversation has asked for: those of its shared
/// history, looked up there, and those fed to the checker since.
#[derive(Debug, Default)]
pub struct SeenCalls {
    earlier: History,
    since: HashSet<String>,
}

impl SeenCalls {
    /// Whether a message before the one at `index` asked for `id`.
    pub fn before(&self, index: usize, id: &str) -> bool {
        self.since.contains(id) || self.earlier.asks_for(id, index)
    }

    pub fn extend<'a>(&mut self, ids: impl IntoIterator<Item = &'a String>) {
        self.since.extend(ids.into_iter().cloned());
    }
}

/// The request rules of one API, checked incrementally: the prefix of a
/// request was checked on the call before, so a replay stays linear.
#[derive(Debug)]
pub enum RequestChecker {
    Anthropic(anthropic::MessagesChecker),
    Chat(openai_chat::ChatChecker),
    NextMessage(next_message::NextMessageChecker),
}

impl RequestChecker {
    /// Adds the message at `index`, the next one of the conversation.
    pub fn push(&mut self, index: usize, message: &Message) -> Result<(), Rejection> {
        match self {
            RequestChecker::Anthropic(checker) => checker.push(index, message),
            RequestChecker::Chat(checker) => checker.push(index, message),
            RequestChecker::NextMessage(checker) => checker.push(index, message),
        }
    }

    /// Whether the conversation so far, sent as a request, breaks a rule.
    pub fn finish(&self) -> Result<(), Rejection> {
        match self {
            RequestChecker::Anthropic(checker) => checker.finish(),
            RequestChecker::Chat(checker) => checker.finish(),
            RequestChecker::NextMessage(checker) => checker.finish(),
        }
    }
}

/// OpenAI sends tool arguments as a JSON string; the native form keeps an
/// object, or the raw text when it did not parse.
fn arguments_text(input: &Value) -> String {
    match input {
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
