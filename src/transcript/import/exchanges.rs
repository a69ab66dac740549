//! An exchange log: `{"request": ..., "response": ...}` bodies in call order,
//! as an HTTP recorder or a logging proxy writes them, for the Anthropic
//! Messages API, OpenAI Chat Completions (DeepSeek too) and OpenAI Responses.
//!
//! The responses are the model's replies, with their real stop reasons.
//! Each request shows what the client actually sent; anything in it that no
//! reply produced (a tool call the client made itself) is kept as an
//! insertion, and a history the client rewrote is reported.

use serde_json::Value;

use super::segment::{Entry, Origin, Recording, is_prompt};
use super::wire::{Read, Reader, folds_into, only_results, system_text, tool_definitions};
use crate::dialect::Dialect;
use crate::engine::{Block, Message, Role, StopReason, Usage};

/// The API whose response this is, by its shape.
fn dialect_of(response: &Value) -> Dialect {
    if response.get("choices").is_some() {
        Dialect::OpenaiChat
    } else if response.get("output").is_some() || response.get("object") == Some(&"response".into())
    {
        Dialect::OpenaiResponses
    } else {
        Dialect::AnthropicMessages
    }
}

/// Reads the exchanges into `recording`; returns the API they speak.
pub fn read(
    exchanges: &[Value],
    recording: &mut Recording,
    reader: &mut Reader,
    notes: &mut Vec<String>,
) -> Dialect {
    let api = exchanges
        .first()
        .and_then(|e| e.get("response"))
        .map_or(Dialect::AnthropicMessages, dialect_of);
    for (k, exchange) in exchanges.iter().enumerate() {
        let (Some(request), Some(response)) = (exchange.get("request"), exchange.get("response"))
        else {
            notes.push(format!(
                "exchange {} has no request or no response; skipped",
                k + 1
            ));
            continue;
        };
        // Clients may offer more tools as the run goes on: keep them all.
        for tool in tool_definitions(request.get("tools")) {
            if !recording.tools.iter().any(|t| t.name == tool.name) {
                recording.tools.push(tool);
            }
        }
        let sent = request_messages(api, request, recording, reader);
        let stateful = request
            .get("previous_response_id")
            .is_some_and(|v| !v.is_null());
        let new = if k == 0 || stateful {
            sent
        } else {
            let have: Vec<&Message> = recording.entries.iter().map(|e| &e.message).collect();
            let common = have
                .iter()
                .zip(&sent)
                .take_while(|(a, b)| same_message(a, b))
                .count();
            if common < have.len() {
                notes.push(format!(
                    "request #{} does not repeat the history the earlier calls built, from \
                     messages[{common}] on: the client edited it; the replay keeps the loop's own history",
                    k + 1
                ));
            }
            sent.into_iter().skip(have.len()).collect()
        };
        if k == 0 {
            add_opening(recording, new);
        } else {
            add_additions(recording, new);
        }
        let (reply, stop_reason, usage) = response_reply(api, response, reader, notes, k);
        if let Some(model) = response
            .get("model")
            .or_else(|| request.get("model"))
            .and_then(Value::as_str)
        {
            recording.model = Some(model.to_owned());
        }
        recording.push(Entry {
            message: reply,
            origin: Origin::Conversation,
            stop_reason,
            usage,
        });
    }
    api
}

/// The first request: everything before its last prompt is context.
fn add_opening(recording: &mut Recording, messages: Vec<Message>) {
    let last_prompt = messages.iter().rposition(is_prompt).unwrap_or(0);
    for (i, message) in messages.into_iter().enumerate() {
        let origin = if i < last_prompt {
            Origin::History
        } else {
            Origin::Conversation
        };
        recording.push(Entry::new(message, origin));
    }
}

/// What a later request adds after the previous reply: its tool results,
/// a new prompt, or messages the client made up itself.
fn add_additions(recording: &mut Recording, messages: Vec<Message>) {
    let mut client_made = false;
    for message in messages {
        let origin = if is_prompt(&message) {
            client_made = false;
            Origin::Conversation
        } else if message.role == Role::Assistant {
            client_made = true;
            Origin::Client
        } else if only_results(&message) && !client_made {
            Origin::Conversation
        } else {
            Origin::Client
        };
        recording.push(Entry::new(message, origin));
    }
}

fn request_messages(
    api: Dialect,
    request: &Value,
    recording: &mut Recording,
    reader: &mut Reader,
) -> Vec<Message> {
    let mut messages: Vec<Message> = Vec::new();
    match api {
        Dialect::AnthropicMessages | Dialect::OpenaiChat => {
            if let Some(system) = system_text(reader, request.get("system"))
                && recording.system.is_none()
            {
                recording.add_system(system);
            }
            let mut systems = Vec::new();
            for m in request
                .get("messages")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match reader.message(m) {
                    Read::Message(message) => push_folded(&mut messages, message),
                    Read::System(text) => systems.push(text),
                    Read::Nothing => {}
                }
            }
            if recording.system.is_none() {
                for text in systems {
                    recording.add_system(text);
                }
            }
        }
        Dialect::OpenaiResponses => {
            if let Some(system) = system_text(reader, request.get("instructions"))
                && recording.system.is_none()
            {
                recording.add_system(system);
            }
            match request.get("input") {
                Some(Value::String(text)) => messages.push(Message::user_text(text)),
                Some(Value::Array(items)) => {
                    for item in items {
                        if let Some((role, block)) = reader.responses_item(item) {
                            push_block(&mut messages, role, block);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    messages
}

fn response_reply(
    api: Dialect,
    response: &Value,
    reader: &mut Reader,
    notes: &mut Vec<String>,
    k: usize,
) -> (Message, Option<String>, Option<Usage>) {
    let usage = |input: &str, output: &str| {
        response.get("usage").map(|u| Usage {
            input_tokens: u.get(input).and_then(Value::as_u64).unwrap_or(0),
            output_tokens: u.get(output).and_then(Value::as_u64).unwrap_or(0),
        })
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    match api {
        Dialect::AnthropicMessages => {
            let mut content = Vec::new();
            reader.blocks_into(response.get("content"), &mut content);
            let message = Message {
                role: Role::Assistant,
                content,
            };
            (
                message,
                text(response.get("stop_reason")),
                usage("input_tokens", "output_tokens"),
            )
        }
        Dialect::OpenaiChat => {
            let choices = response.get("choices").and_then(Value::as_array);
            let choices = choices.map_or(&[][..], Vec::as_slice);
            if choices.len() > 1 {
                notes.push(format!(
                    "response #{} holds {} choices; the first is replayed",
                    k + 1,
                    choices.len()
                ));
            }
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
            let finish = text(first.and_then(|c| c.get("finish_reason")));
            (message, finish, usage("prompt_tokens", "completion_tokens"))
        }
        Dialect::OpenaiResponses => {
            let mut content = Vec::new();
            for item in response
                .get("output")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some((_, block)) = reader.responses_item(item) {
                    content.push(block);
                }
            }
            let calls = content.iter().any(|b| matches!(b, Block::ToolUse { .. }));
            // Responses has a status, not a finish reason; the dialect names
            // a completed response by whether it asks for tools.
            let spell = |reason| api.spell(reason).map(str::to_owned);
            let stop = match response.get("status").and_then(Value::as_str) {
                Some("completed") if calls => spell(StopReason::ToolUse),
                Some("completed") => spell(StopReason::EndTurn),
                Some("incomplete") => Some(
                    text(response.pointer("/incomplete_details/reason"))
                        .unwrap_or_else(|| "incomplete".to_owned()),
                ),
                other => other.map(str::to_owned),
            };
            let message = Message {
                role: Role::Assistant,
                content,
            };
            (message, stop, usage("input_tokens", "output_tokens"))
        }
    }
}

/// Adds a message, folding consecutive results into one message.
fn push_folded(messages: &mut Vec<Message>, message: Message) {
    match messages.last_mut() {
        Some(last) if folds_into(last, &message) => last.content.extend(message.content),
        _ => messages.push(message),
    }
}

/// Responses items come one block at a time; consecutive blocks of one role
/// make one message.
fn push_block(messages: &mut Vec<Message>, role: Role, block: Block) {
    match messages.last_mut() {
        Some(last) if last.role == role && !is_prompt(last) => last.content.push(block),
        _ => messages.push(Message {
            role,
            content: vec![block],
        }),
    }
}

/// Two messages say the same, leaving aside reasoning, which clients often
/// drop when they send a reply back.
fn same_message(a: &Message, b: &Message) -> bool {
    let visible = |m: &Message| -> Vec<Block> {
        m.content
            .iter()
            .filter(|b| !matches!(b, Block::Thinking { .. }))
            .cloned()
            .collect()
    };
    a.role == b.role && visible(a) == visible(b)
}
