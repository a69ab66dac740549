//! An exchange log: `{"request": ..., "response": ...}` bodies in call order,
//! as an HTTP recorder or a logging proxy writes them, for the Anthropic
//! Messages API, OpenAI Chat Completions (DeepSeek too) and OpenAI Responses.
//!
//! The responses are the model's replies, with their real stop reasons.
//! Each request shows what the client actually sent; anything in it that no
//! reply produced (a tool call the client made itself) is kept as an
//! insertion, and a history the client rewrote is reported. An exchange
//! may carry the call's `time` in the transcript's shape (the Inspect
//! reader puts its model events' times there).

use crate::transcript::Piece;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::Value;

use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::{Reader, Request, is_prompt, only_results};
use crate::dialect::{Dialect, stream};
use crate::engine::{Block, Message, Role, Timing};
use crate::transcript::{Note, Skip};

/// The exchanges in the order their requests were made: `loopstep
/// record` writes each call as it ends, with `seq`, the place its request
/// came in; lines without one follow, in their order in the file.
fn in_request_order(exchanges: &[Value]) -> Vec<&Value> {
    let mut ordered: Vec<&Value> = exchanges.iter().collect();
    if ordered.iter().any(|e| e.get("seq").is_some()) {
        ordered.sort_by_key(|e| e.get("seq").and_then(Value::as_u64).unwrap_or(u64::MAX));
    }
    ordered
}

/// Reads the exchanges into `recording`; returns the API they speak.
/// A request that goes on none of the conversations so far (its system
/// prompt or its history differs: a planner, then the agent it planned
/// for; a manager and its sub-agent taking turns) starts a conversation
/// of its own, pushed to `others`, so that its calls are runs of their
/// own and none is lost.
pub fn read(
    exchanges: &[Value],
    recording: &mut Recording,
    others: &mut Vec<Recording>,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) -> Dialect {
    let mut conversations = vec![std::mem::take(recording)];
    let api = read_into(exchanges, &mut conversations, reader, notes);
    let mut conversations = conversations.into_iter();
    *recording = conversations.next().expect("the first is never taken");
    let count = conversations.len() + 1;
    if count > 1 {
        notes.push(Note::Conversations { count });
    }
    for (n, mut other) in conversations.enumerate() {
        other.dialect = api;
        other.name = format!("{}-conversation-{}", recording.name, n + 2);
        other.source = recording.source.part(Piece::Conversation(n + 2));
        others.push(other);
    }
    api
}

fn read_into(
    exchanges: &[Value],
    conversations: &mut Vec<Recording>,
    reader: &mut Reader,
    notes: &mut Vec<Note>,
) -> Dialect {
    let exchanges = in_request_order(exchanges);
    // A failed call's body is the API's error, in no API's shape.
    let api = exchanges
        .iter()
        .filter_map(|e| response_of(e).filter(|r| failure(e, r).is_none()))
        .next()
        .map_or(Dialect::AnthropicMessages, |r| Dialect::of_response(&r));
    // Calls by item id, to pair those a client sent back under other ids.
    let mut by_item = HashMap::new();
    let mut paired = HashSet::new();
    // The conversation of each response, by its id.
    let mut by_response: HashMap<String, usize> = HashMap::new();
    let mut replies = 0;
    for (k, &exchange) in exchanges.iter().enumerate() {
        let (Some(request), Some(response)) = (exchange.get("request"), response_of(exchange))
        else {
            notes.push(Note::ExchangeIncomplete { number: k + 1 });
            continue;
        };
        let response = response.as_ref();
        // A call the client asked again, the same request, after it failed
        // or was given up on (an SDK's retry, a timeout): the later one is
        // the call; this one is noted.
        let failed = failure(exchange, response);
        let given_up = exchange.get("cancelled") == Some(&Value::Bool(true));
        let asked_again =
            exchanges.get(k + 1).and_then(|next| next.get("request")) == Some(request);
        if (failed.is_some() || given_up) && asked_again {
            let error = failed.unwrap_or_else(|| "cancelled".to_owned());
            retried(notes, replies + 1, error);
            continue;
        }
        let restored = api.restore_call_ids(request, &by_item);
        let request = match &restored {
            Some((request, renamed)) => {
                for (sent, call) in renamed {
                    if paired.insert(sent.clone()) {
                        notes.push(Note::PairedByItemId {
                            sent: sent.clone(),
                            call: call.clone(),
                        });
                    }
                }
                request
            }
            None => request,
        };
        let sent = api.read_request(reader, request);
        // A request that sends no message is no model call (a tracing
        // service's batch, recorded beside the calls).
        if sent.messages.is_empty() && previous_of(request).is_none() {
            reader.skipped.add(Skip::InteractionsNotModelCalls);
            continue;
        }
        // A request that names the response it follows (the Responses
        // API's `previous_response_id`) sends only what is new.
        let previous = previous_of(request);
        let stateful = previous.is_some();
        let found = match previous {
            Some(id) => Some(
                by_response
                    .get(id)
                    .copied()
                    .unwrap_or(conversations.len() - 1),
            ),
            None => conversation_of(conversations, &sent),
        };
        let (at, opens) = match found {
            Some(at) => (at, false),
            None if k == 0 || conversations[0].entries.is_empty() => (0, true),
            None => {
                conversations.push(Recording::default());
                (conversations.len() - 1, true)
            }
        };
        let recording = &mut conversations[at];
        // Clients may offer more tools as the run goes on: keep them all.
        for tool in api.read_tools(request) {
            if !recording.tools.iter().any(|t| t.name == tool.name) {
                recording.tools.push(tool);
            }
        }
        // Where the system prompt is one of the request's messages, a
        // message's place counts it, as the request numbers it.
        let led = usize::from(api.words().system_in_messages && !sent.system.is_empty());
        if recording.system.is_none() {
            for text in sent.system {
                recording.add_system(text);
            }
        }
        let sent = sent.messages;
        let new = if opens || stateful {
            sent
        } else {
            let have: Vec<&Message> = recording.entries.iter().map(|e| &e.message).collect();
            let common = have
                .iter()
                .zip(&sent)
                .take_while(|(a, b)| same_message(a, b))
                .count();
            if common < have.len() {
                notes.push(Note::HistoryEdited {
                    request: k + 1,
                    from: led + common,
                });
            }
            // What is new comes after the history the calls built, or,
            // where the client trimmed that history, after its last reply.
            let after = if common == have.len() {
                have.len()
            } else {
                have.iter()
                    .rposition(|m| m.role == Role::Assistant)
                    .and_then(|at| sent.iter().rposition(|m| same_message(have[at], m)))
                    .map_or(have.len(), |at| at + 1)
            };
            sent.into_iter().skip(after).collect()
        };
        if opens {
            add_opening(recording, new);
        } else {
            add_additions(recording, new);
        }
        if let Some(error) = failed {
            // The API failed the call: no reply, and the run ends on it.
            recording.push(Entry::new(Message::user_text(error), Origin::ApiFailure));
            continue;
        }
        api.call_ids_by_item(response, &mut by_item);
        if let Some(id) = response.get("id").and_then(Value::as_str) {
            by_response.insert(id.to_owned(), at);
        }
        let reply = api.read_response(reader, response);
        // A reply with nothing in it, and the same request again: the
        // client asked once more (Gemini answers so at times).
        if reply.message.content.iter().all(is_empty) && asked_again {
            retried(notes, replies + 1, "an empty reply".to_owned());
            continue;
        }
        if let Some(choices) = reply.choices {
            notes.push(Note::ManyChoices {
                response: k + 1,
                choices,
            });
        }
        if let Some(limit) = Dialect::token_limit_of(request) {
            recording.max_tokens = Some(limit);
        }
        if let Some(model) = model_of(api, exchange, request, response) {
            recording.model = Some(model);
        }
        let mut entry = Entry::reply(reply.message, reply.stop_reason, reply.usage);
        entry.time = exchange
            .get("time")
            .and_then(|time| Timing::deserialize(time).ok());
        // A streamed body is recorded as the text of its events.
        entry.streamed = exchange
            .get("response")
            .is_some_and(|r| r.is_string() || r.is_array());
        recording.push(entry);
        replies += 1;
    }
    api
}

/// The conversation a request goes on, the latest first: one whose
/// messages the request holds from the start, or whose last reply it
/// holds (the client rewrote or trimmed the history before it, or its
/// system prompt, which may carry a time or a count). The errors a client
/// wrote in the model's place were never sent.
fn conversation_of(conversations: &[Recording], sent: &Request) -> Option<usize> {
    conversations.iter().rposition(|recording| {
        let have: Vec<&Message> = recording
            .entries
            .iter()
            .filter(|e| e.origin != Origin::ApiFailure)
            .map(|e| &e.message)
            .collect();
        let goes_on = have.len() <= sent.messages.len()
            && have
                .iter()
                .zip(&sent.messages)
                .all(|(a, b)| same_message(a, b));
        let holds_last = have
            .iter()
            .rposition(|m| m.role == Role::Assistant)
            .is_some_and(|at| sent.messages.iter().any(|m| same_message(have[at], m)));
        !recording.entries.is_empty() && (goes_on || holds_last)
    })
}

/// The response a Responses API request follows, which it does not send
/// again.
fn previous_of(request: &Value) -> Option<&str> {
    request.get("previous_response_id").and_then(Value::as_str)
}

/// Notes that call `call` failed once more before it went through: a
/// note of its own, or one more attempt on the note it has.
fn retried(notes: &mut Vec<Note>, call: usize, error: String) {
    if let Some(Note::Retried {
        call: noted,
        attempts,
        ..
    }) = notes.last_mut()
        && *noted == call
    {
        *attempts += 1;
        return;
    }
    notes.push(Note::Retried {
        call,
        attempts: 1,
        error,
        went_through: true,
    });
}

/// What the API said when it failed the call: an HTTP status of 400 or
/// more (as `loopstep record` writes it), or an error in place of the
/// reply (an exception a ConverseStream sent); its status and message.
fn failure(exchange: &Value, response: &Value) -> Option<String> {
    // The stream broke off: `loopstep record` keeps the error beside it.
    if let Some(broken) = exchange.get("error").and_then(Value::as_str) {
        return Some(broken.to_owned());
    }
    let status = exchange
        .get("status")
        .and_then(Value::as_u64)
        .filter(|s| *s >= 400);
    let error = response.get("error").filter(|e| e.is_object());
    if status.is_none() && error.is_none() {
        return None;
    }
    let message = ["/error/message", "/message", "/error"]
        .iter()
        .find_map(|path| response.pointer(path)?.as_str());
    Some(match (status, message) {
        (Some(status), Some(message)) => format!("HTTP {status}: {message}"),
        (Some(status), None) => format!("HTTP {status}"),
        (None, message) => message.unwrap_or("error").to_owned(),
    })
}

/// An exchange's response: the object, or a streamed body put back
/// together into it: server-sent events recorded as a string, or a list
/// of events (Bedrock's ConverseStream, as boto3 hands them over).
fn response_of(exchange: &Value) -> Option<Cow<'_, Value>> {
    match exchange.get("response")? {
        Value::String(body) => stream::reassemble(body).map(Cow::Owned),
        Value::Array(events) => stream::of_events(events).map(Cow::Owned),
        object => Some(Cow::Borrowed(object)),
    }
}

/// The model an exchange names: in its response or request body, or in
/// its URL where the API puts it there (Gemini's `modelVersion` names
/// the model's version).
fn model_of(api: Dialect, exchange: &Value, request: &Value, response: &Value) -> Option<String> {
    let in_body = ["model", "modelVersion"]
        .iter()
        .find_map(|key| response.get(key).or_else(|| request.get(key)));
    match in_body.and_then(Value::as_str) {
        Some(model) => Some(model.to_owned()),
        None => api.model_in_url(exchange.get("url")?.as_str()?),
    }
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

/// A block with nothing to read in it.
fn is_empty(block: &Block) -> bool {
    matches!(block, Block::Text { text } if text.trim().is_empty())
}

/// Two messages say the same, leaving aside reasoning, which clients often
/// drop when they send a reply back.
fn same_message(a: &Message, b: &Message) -> bool {
    a.role == b.role && visible(a).eq(visible(b))
}

/// A message's blocks but its reasoning, compared without a copy.
fn visible(message: &Message) -> impl Iterator<Item = &Block> {
    message
        .content
        .iter()
        .filter(|b| !matches!(b, Block::Thinking { .. }))
}
