//! A Claude Code session file: JSON Lines, one `user` or `assistant` line
//! per message, except that an assistant message is split one content block
//! per line and must be put back together by `message.id` (or, lacking it,
//! `requestId`). The client starts a tool while the response is still
//! streaming, so the line of a tool's result can come before the next
//! block of the same response: a response stays open, and takes its later
//! blocks, until a line of another response or a new prompt. Lines of the
//! side chains (sub-agents) are kept apart as runs of their own.
//!
//! Each line has a `timestamp`: a call ran from the line before the reply
//! to the reply's last line, a tool from the line that asked for it to
//! the line that holds its result.

use std::collections::HashMap;

use serde_json::Value;

use super::segment::{Entry, Latest, Origin, Recording, extend, span, stamp_of};
use crate::dialect::read::{self, Read, Reader, only_results};
use crate::engine::{Block, Message, Role, Stamp};
use crate::transcript::Skip;

/// The main conversation and the side chains, in that order.
pub fn read(lines: &[Value], main: &mut Recording, side: &mut Recording, reader: &mut Reader) {
    // Per chain: the response still taking blocks, and its entry.
    let mut open: [Option<(String, usize)>; 2] = [None, None];
    // Per chain: the latest line's time, and when each tool was asked for.
    let mut latest: [Latest; 2] = Default::default();
    let mut called: HashMap<String, Stamp> = HashMap::new();
    for line in lines {
        let kind = line.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "user" && kind != "assistant" {
            reader.skipped.add(Skip::Lines(kind.to_owned()));
            continue;
        }
        let Some(message) = line.get("message") else {
            reader
                .skipped
                .add(Skip::LinesWithoutMessage(kind.to_owned()));
            continue;
        };
        let sidechain = line.get("isSidechain").and_then(Value::as_bool) == Some(true);
        let chain = usize::from(sidechain);
        let recording = if sidechain { &mut *side } else { &mut *main };
        let open = &mut open[chain];
        let stamp = stamp_of(line);
        let since_previous = latest[chain].since(stamp.as_ref());
        let Read::Message(parsed) = reader.message(message) else {
            continue;
        };
        let id = message
            .get("id")
            .or_else(|| line.get("requestId"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let stop_reason = message
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let usage = message
            .get("usage")
            .map(|u| read::usage_of(u, &read::ANTHROPIC_USAGE));
        if let Some(model) = message.get("model").and_then(Value::as_str) {
            recording.model = Some(model.to_owned());
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
        let same_response = |(open_id, _): &(String, usize)| Some(open_id) == id.as_ref();
        match (parsed.role, open.as_ref()) {
            (Role::Assistant, Some(response)) if same_response(response) => {
                let entry = &mut recording.entries[response.1];
                entry.message.content.extend(parsed.content);
                entry.stop_reason = stop_reason.or(entry.stop_reason.take());
                entry.usage = usage.or(entry.usage);
                extend(&mut entry.time, stamp.as_ref());
                continue;
            }
            // Results of the open response's tools, written while it streamed.
            (Role::User, Some(_)) if only_results(&parsed) => {}
            _ => *open = None,
        }
        if parsed.role == Role::Assistant
            && let Some(id) = id
        {
            *open = Some((id, recording.entries.len()));
        }
        let origin = if is_interruption(&parsed) {
            Origin::Interruption
        } else {
            Origin::Conversation
        };
        let mut entry = Entry::new(parsed, origin);
        entry.stop_reason = stop_reason;
        entry.usage = usage;
        entry.result_times = result_times;
        if entry.message.role == Role::Assistant {
            entry.time = since_previous;
        }
        recording.push(entry);
    }
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
