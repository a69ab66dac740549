//! A Claude Code session file: JSON Lines, one `user` or `assistant` line
//! per message, except that an assistant message is split one content block
//! per line and must be put back together by `message.id` (or, lacking it,
//! `requestId`). The client starts a tool while the response is still
//! streaming, so the line of a tool's result can come before the next
//! block of the same response: a response stays open, and takes its later
//! blocks, until a line of another response or a new prompt. Lines of the
//! side chains (sub-agents) are kept apart as runs of their own.
//!
//! A sub-agent that a Task call started may live only in the session's
//! `progress` lines (`data.type` `agent_progress`, its `agentId`), each
//! carrying one line of the sub-agent's own conversation in `data.message`:
//! those are read the same way, one recording per agent.
//!
//! A user line marked `isMeta` is the client's own addition (a skill's
//! text, a caveat before a command's output): sent to the model, but no
//! prompt.
//!
//! When the conversation is compacted, a `system` line (`subtype`
//! `compact_boundary`, with `compactMetadata.preTokens`, and in newer
//! clients `postTokens`) comes before the
//! user line that holds the summary (`isCompactSummary`): from there on,
//! the summary stands for everything before it.
//!
//! When the API fails a call, the client writes a `system` line
//! (`subtype` `api_error`: the `error`, `retryAttempt` of `maxRetries`)
//! and tries again; when it gives up, it writes an assistant line marked
//! `isApiErrorMessage` in the model's place ("API Error: …", model
//! `<synthetic>`), which is no reply. (No public session we could use
//! holds one; these are the shapes the tools that read such sessions
//! test against.)
//!
//! Each line has a `timestamp`: a call ran from the line before the reply
//! to the reply's last line, a tool from the line that asked for it to
//! the line that holds its result.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::segment::{Entry, Latest, Origin, Recording, cut_runs, extend, span};
use crate::dialect::read::{self, Read, Reader, only_results};
use crate::dialect::wire::{self, Json, Scalar, WireMessage};
use crate::engine::{Block, Message, Role, Stamp};
use crate::transcript::{Compaction, Skip, Transcript};

/// What loopstep reads of a session's line; the rest of it (the client's
/// `uuid`s, working folder, version, tool results repeated in
/// `toolUseResult`…) is skipped as the line is parsed.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Scalar<'a>,
    #[serde(borrow)]
    is_sidechain: Scalar<'a>,
    #[serde(borrow)]
    subtype: Scalar<'a>,
    compact_metadata: Option<Value>,
    #[serde(borrow)]
    message: Option<Json<'a, WireMessage<'a>>>,
    #[serde(borrow)]
    request_id: Scalar<'a>,
    #[serde(borrow)]
    timestamp: Scalar<'a>,
    #[serde(borrow)]
    is_api_error_message: Scalar<'a>,
    #[serde(borrow)]
    is_compact_summary: Scalar<'a>,
    #[serde(borrow)]
    is_meta: Scalar<'a>,
    #[serde(borrow)]
    data: Json<'a, Progress<'a>>,
    error: Option<Value>,
}

/// A `progress` line's `data`: for a sub-agent's progress, the agent and
/// one line of its conversation.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Progress<'a> {
    #[serde(rename = "type", borrow)]
    kind: Scalar<'a>,
    #[serde(borrow)]
    agent_id: Scalar<'a>,
    #[serde(borrow)]
    message: Box<Json<'a, Line<'a>>>,
}

/// One conversation being read: the recording, the response still taking
/// blocks (its id and entry), the latest line's time, and the compaction
/// its next summary line completes.
#[derive(Default)]
struct Chain {
    recording: Recording,
    open: Option<(String, usize)>,
    latest: Latest,
    compacting: Option<Compaction>,
    /// The API errors the client retried since the last reply.
    retries: Option<(usize, String)>,
    /// Where each of the last two runs opened, the latest last: the runs
    /// before the latest are whole.
    run_starts: [Option<usize>; 2],
}

impl Chain {
    fn new(recording: Recording) -> Self {
        Chain {
            recording,
            ..Chain::default()
        }
    }
}

/// What a session holds: its main conversation, its side chains, and the
/// sub-agents seen only in its progress lines, by `agentId`, in the order
/// they started.
pub struct Session {
    pub main: Recording,
    pub side: Recording,
    pub agents: Vec<(String, Recording)>,
}

/// Reads a session's lines in order, each once: a line may be let go as
/// soon as it is read.
pub struct SessionReader<'r> {
    chains: [Chain; 2],
    agents: Vec<(String, Chain)>,
    /// When each tool was asked for, in any chain: ids are unique.
    called: HashMap<String, Stamp>,
    reader: &'r mut Reader,
    /// Where [`SessionReader::whole_runs`] last cut the runs.
    cut_before: Option<usize>,
}

impl<'r> SessionReader<'r> {
    pub fn new(main: Recording, side: Recording, reader: &'r mut Reader) -> Self {
        SessionReader {
            chains: [Chain::new(main), Chain::new(side)],
            agents: Vec::new(),
            called: HashMap::new(),
            reader,
            cut_before: None,
        }
    }

    /// A line already parsed.
    pub fn value(&mut self, line: &Value) {
        self.line(
            wire::from_value::<Json<Line>>(line)
                .object()
                .unwrap_or_default(),
        );
    }

    /// A line's text, parsed straight into what is read of it. Fails only
    /// when the text is no JSON.
    pub fn text(&mut self, text: &str) -> Result<(), serde_json::Error> {
        match serde_json::from_str::<Json<Line>>(text) {
            Ok(line) => self.line(line.object().unwrap_or_default()),
            // JSON the typed reading refuses, a key written twice: read as
            // a value, in which the last one counts, as everywhere else.
            Err(error) if error.is_data() => self.value(&serde_json::from_str(text)?),
            Err(error) => return Err(error),
        }
        Ok(())
    }

    fn line(&mut self, line: Line<'_>) {
        let kind = line.kind.or_empty();
        let chain = &mut self.chains[usize::from(line.is_sidechain.is_true())];
        match (kind, line.subtype.str()) {
            ("user" | "assistant", _) => {
                read_line(line, chain, &mut self.called, self.reader);
            }
            ("system", Some("compact_boundary")) => {
                let meta = line.compact_metadata.as_ref();
                let tokens = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_u64);
                chain.compacting = Some(Compaction {
                    replaced: 0,
                    tokens_before: tokens("preTokens"),
                    // Written by newer clients only.
                    tokens_after: tokens("postTokens"),
                    trigger: meta
                        .and_then(|m| m.get("trigger"))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                });
            }
            // A failed call the client is about to retry.
            ("system", Some("api_error")) => {
                let error = api_error(line.error.as_ref());
                let (attempts, _) = chain.retries.take().unwrap_or_default();
                chain.retries = Some((attempts + 1, error));
            }
            ("progress", _) => match agent_line(line.data) {
                Some((agent, inner)) => {
                    let at = match self.agents.iter().position(|(id, _)| *id == agent) {
                        Some(at) => at,
                        None => {
                            self.agents.push((agent, Chain::default()));
                            self.agents.len() - 1
                        }
                    };
                    let chain = &mut self.agents[at].1;
                    read_line(inner, chain, &mut self.called, self.reader);
                }
                None => self.reader.skipped.add(Skip::Lines(kind.to_owned())),
            },
            _ => self.reader.skipped.add(Skip::Lines(kind.to_owned())),
        }
    }

    /// The main conversation's runs that are whole already (every run
    /// before the one that opened last), unless there are none yet. Cut
    /// once for each run that opens: only then can more be whole. (The
    /// prompts before it may have made none: one nothing answered.)
    pub fn whole_runs(&mut self) -> Option<Vec<Transcript>> {
        let [Some(_), Some(latest)] = self.chains[0].run_starts else {
            return None;
        };
        if self.cut_before.replace(latest) == Some(latest) {
            return None;
        }
        let runs = cut_runs(self.chains[0].recording.before(latest));
        (!runs.is_empty()).then_some(runs)
    }

    pub fn finish(self) -> Session {
        let [main, side] = self.chains;
        Session {
            main: main.recording,
            side: side.recording,
            agents: self
                .agents
                .into_iter()
                .map(|(id, chain)| (id, chain.recording))
                .collect(),
        }
    }
}

/// A progress line's data that carries a line of a sub-agent's
/// conversation: the agent's id, and that line.
fn agent_line<'a>(data: Json<'a, Progress<'a>>) -> Option<(String, Line<'a>)> {
    let data = data.object()?;
    if data.kind.str() != Some("agent_progress") {
        return None;
    }
    let agent = data.agent_id.into_string()?;
    let inner = data.message.object()?;
    matches!(inner.kind.str(), Some("user" | "assistant")).then_some((agent, inner))
}

/// One `user` or `assistant` line into its chain.
fn read_line(
    line: Line<'_>,
    chain: &mut Chain,
    called: &mut HashMap<String, Stamp>,
    reader: &mut Reader,
) {
    let kind = line.kind.or_empty();
    let mut message = match line.message {
        Some(Json::Object(message)) => message,
        Some(_) => {
            reader.skipped.add(Skip::MessagesNotObjects);
            return;
        }
        None => {
            reader
                .skipped
                .add(Skip::LinesWithoutMessage(kind.to_owned()));
            return;
        }
    };
    let stamp = line.timestamp.str().and_then(Stamp::parse);
    let since_previous = chain.latest.since(stamp.as_ref());
    let id = std::mem::take(&mut message.id)
        .into_string()
        .or_else(|| line.request_id.into_string());
    let stop_reason = std::mem::take(&mut message.stop_reason).into_string();
    let usage = message
        .usage
        .take()
        .map(|u| read::usage_of(&u, &read::ANTHROPIC_USAGE));
    let model = std::mem::take(&mut message.model).into_string();
    let Read::Message(parsed) = reader.wire_message(message) else {
        return;
    };
    let recording = &mut chain.recording;
    if let Some(model) = model {
        recording.model = Some(model);
    }
    let mut result_times = Vec::new();
    for block in &parsed.content {
        match (block, &stamp) {
            (Block::ToolUse { id, .. }, Some(stamp)) => {
                called.insert(id.clone(), stamp.clone());
            }
            (Block::ToolResult { tool_use_id, .. }, _) => {
                let ran = span(called.get(tool_use_id), stamp.as_ref());
                result_times.extend(ran.map(|time| (tool_use_id.clone(), time)));
            }
            _ => {}
        }
    }
    // Written by the client in the model's place: no response to join.
    let failed = line.is_api_error_message.is_true();
    let id = id.filter(|_| !failed);
    let same_response = |(open_id, _): &(String, usize)| Some(open_id) == id.as_ref();
    match (parsed.role, chain.open.as_ref()) {
        (Role::Assistant, Some(response)) if same_response(response) => {
            let entry = &mut recording.entries[response.1];
            entry.message.content.extend(parsed.content);
            entry.stop_reason = stop_reason.or(entry.stop_reason.take());
            entry.usage = usage.or(entry.usage);
            extend(&mut entry.time, stamp.as_ref());
            return;
        }
        // Results of the open response's tools, written while it streamed.
        (Role::User, Some(_)) if only_results(&parsed) => {}
        _ => chain.open = None,
    }
    if parsed.role == Role::Assistant
        && let Some(id) = id
    {
        chain.open = Some((id, recording.entries.len()));
    }
    let summary = line.is_compact_summary.is_true();
    let origin = if failed {
        Origin::ApiFailure
    } else if summary {
        Origin::Compaction
    } else if line.is_meta.is_true() {
        // Text the client adds on its own: a skill's instructions, a caveat.
        Origin::Client
    } else if is_interruption(&parsed) {
        Origin::Interruption
    } else {
        Origin::Conversation
    };
    if Recording::opens_a_run(origin, &parsed) {
        chain.run_starts = [chain.run_starts[1], Some(recording.entries.len())];
    }
    let mut entry = Entry::new(parsed, origin);
    entry.stop_reason = stop_reason;
    entry.usage = usage;
    entry.result_times = result_times;
    if summary {
        entry.compaction = Some(chain.compacting.take().unwrap_or_default());
    }
    // The retries belong to the call they delayed, or that failed.
    if entry.message.role == Role::Assistant {
        entry.retried = chain.retries.take();
    }
    if entry.message.role == Role::Assistant && !failed {
        entry.time = since_previous;
    }
    recording.push(entry);
}

/// How Claude Code marks a turn the user stopped: a user message of its
/// own, "[Request interrupted by user]" (or "… for tool use]" beside the
/// results of the tools it cut short), as the sessions in
/// tests/fixtures/real show.
const INTERRUPTED: &str = "[Request interrupted by user";

fn is_interruption(message: &Message) -> bool {
    message.role == Role::User
        && message
            .content
            .iter()
            .any(|b| matches!(b, Block::Text { text } if text.starts_with(INTERRUPTED)))
}

/// What an `api_error` line says went wrong: its HTTP status and message,
/// where it has them.
fn api_error(error: Option<&Value>) -> String {
    let status = error.and_then(|e| e.get("status")).and_then(Value::as_u64);
    let message = error
        .and_then(|e| e.get("message").or_else(|| e.pointer("/error/message")))
        .and_then(Value::as_str);
    match (status, message) {
        (Some(status), Some(message)) => format!("HTTP {status}: {message}"),
        (Some(status), None) => format!("HTTP {status}"),
        (None, Some(message)) => message.to_owned(),
        (None, None) => "an API error".to_owned(),
    }
}
