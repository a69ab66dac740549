//! A conversation: the `messages` list a script dumped, as a JSON array or
//! an object with `messages` (and optional `system`, `tools`, `model`), in
//! Anthropic Messages or OpenAI Chat Completions shape. Stop reasons are not
//! in such a list, so they are inferred.
//!
//! A conversation is the commonest large document (a long agent run dumped
//! whole), so it is read straight from its text into typed messages that
//! borrow from it, never into a JSON tree first.

use crate::transcript::Piece;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::{Read, Reader, system_text, tool_definitions};
use crate::dialect::wire::{self, Json, Scalar, WireMessage};
use crate::vocab::Skip;

/// What a conversation document holds, as far as it is read.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Document<'a> {
    #[serde(borrow)]
    messages: Json<'a, IgnoredAny, Json<'a, WireMessage<'a>>>,
    system: Option<Value>,
    tools: Option<Value>,
    #[serde(borrow)]
    model: Scalar<'a>,
    /// The keys that make a document with `messages` something else (an
    /// Inspect eval log, an agent's trajectory, a Cline session), told
    /// apart by the tree.
    eval: Option<IgnoredAny>,
    samples: Option<IgnoredAny>,
    history: Option<IgnoredAny>,
    trajectory_format: Option<IgnoredAny>,
    #[serde(rename = "sessionId")]
    session_id: Option<IgnoredAny>,
}

impl<'a> Document<'a> {
    /// The document of a text that is one JSON object holding a
    /// `messages` list and none of the other formats' keys; `None` for
    /// anything else, which is then read as a tree and recognised there.
    pub fn of_text(text: &'a str) -> Option<Document<'a>> {
        // An array (an exchange log, a bare messages list) is left to the
        // tree at once, rather than scanned to its end for nothing.
        if !text.trim_start().starts_with('{') {
            return None;
        }
        let document = serde_json::from_str::<Json<Document>>(text)
            .ok()?
            .object()?;
        let others = [
            document.eval.is_some(),
            document.samples.is_some(),
            document.history.is_some(),
            document.trajectory_format.is_some(),
            document.session_id.is_some(),
        ];
        (matches!(document.messages, Json::Array(_)) && !others.contains(&true)).then_some(document)
    }

    /// A document already parsed: an object, or the messages list itself.
    fn of_value(top: &'a Value) -> Document<'a> {
        match top {
            Value::Array(_) => Document {
                messages: wire::from_value(top),
                ..Document::default()
            },
            _ => wire::from_value::<Json<Document>>(top)
                .object()
                .unwrap_or_default(),
        }
    }
}

pub fn read(top: &Value, recording: &mut Recording, reader: &mut Reader) {
    read_document(Document::of_value(top), recording, reader, false);
}

/// Reads an agent's history into `recording`, where a system prompt after
/// a reply opens the conversation of another agent (a manager's
/// sub-agent, written into the same history, as SWE-agent's multi-agent
/// setups do); returns those conversations, whose calls are runs of their
/// own.
pub fn read_agents(top: &Value, recording: &mut Recording, reader: &mut Reader) -> Vec<Recording> {
    read_document(Document::of_value(top), recording, reader, true)
}

/// Reads the document into `recording`; with `agents`, returns the
/// conversations of other agents it holds (see [`read_agents`]); without,
/// a later system message joins the system prompt.
pub fn read_document(
    document: Document<'_>,
    recording: &mut Recording,
    reader: &mut Reader,
    agents: bool,
) -> Vec<Recording> {
    let mut others: Vec<Recording> = Vec::new();
    if let Some(system) = system_text(reader, document.system.as_ref()) {
        recording.add_system(system);
    }
    recording.tools = tool_definitions(document.tools.as_ref());
    recording.model = document.model.into_string();
    let Json::Array(messages) = document.messages else {
        return others;
    };
    for message in messages {
        let Json::Object(message) = message else {
            reader.skipped.add(Skip::MessagesNotObjects);
            continue;
        };
        let current = others.last_mut().unwrap_or(&mut *recording);
        match reader.wire_message(message) {
            Read::Message(m) => current.push(Entry::new(m, Origin::Conversation)),
            Read::System(text) if agents && current.entries.iter().any(is_reply) => {
                let n = others.len() + 2;
                others.push(Recording {
                    name: format!("{}-agent-{n}", recording.name),
                    source: recording.source.part(Piece::Agent(n)),
                    system: Some(text),
                    tools: recording.tools.clone(),
                    model: recording.model.clone(),
                    ..Recording::default()
                });
            }
            Read::System(text) => current.add_system(text),
            Read::Nothing => {}
        }
    }
    others
}

fn is_reply(entry: &Entry) -> bool {
    entry.message.role == crate::engine::Role::Assistant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_object_with_a_messages_list_and_no_other_format_s_keys_is_read_straight() {
        let straight = |text: &str| Document::of_text(text).is_some();
        assert!(straight(
            r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#
        ));
        // Speaker apart from a conversation by the tree: Inspect, trajectories.
        assert!(!straight(r#"{"eval": {}, "samples": [], "messages": []}"#));
        assert!(!straight(r#"{"history": [], "messages": []}"#));
        assert!(!straight(
            r#"{"trajectory_format": "mini-swe-agent-1", "messages": []}"#
        ));
        // Not a conversation object, or not JSON a tree would read the same.
        assert!(!straight(r#"[{"role": "user", "content": "hi"}]"#));
        assert!(!straight(r#"{"messages": "none"}"#));
        assert!(!straight(r#"{"messages": [], "messages": []}"#));
        assert!(!straight(r#"{"messages": ["#));
    }

    #[test]
    fn a_document_read_straight_reads_as_its_tree_does() {
        let text = r#"{"model": "gpt-5", "system": "Be brief.", "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
             "function": {"name": "f", "arguments": "{\"a\": 1}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "one"},
            7,
            {"role": "assistant", "content": "done"}]}"#;
        let tree: Value = serde_json::from_str(text).unwrap();
        let (mut straight, mut from_tree) = (Recording::default(), Recording::default());
        let (mut a, mut b) = (Reader::default(), Reader::default());
        read_document(
            Document::of_text(text).unwrap(),
            &mut straight,
            &mut a,
            false,
        );
        read(&tree, &mut from_tree, &mut b);
        assert_eq!(format!("{straight:?}"), format!("{from_tree:?}"));
        assert_eq!(format!("{:?}", a.skipped), format!("{:?}", b.skipped));
        assert_eq!(straight.entries.len(), 4);
        assert_eq!(straight.model.as_deref(), Some("gpt-5"));
    }
}
