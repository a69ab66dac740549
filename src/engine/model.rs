//! The "call" phase: a model behind a trait, and the scripted model that
//! replays a recording while checking each request the way the real API does.

use std::collections::HashSet;

use serde::Serialize;
use thiserror::Error;

use super::message::{Block, Message, Reply, Role};

/// A request the API refuses, with the message and tool ids at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[error("messages[{message_index}]: {problem}{}", if ids.is_empty() { String::new() } else { format!(": {}", ids.join(", ")) })]
pub struct Rejection {
    pub message_index: usize,
    pub problem: String,
    pub ids: Vec<String>,
}

/// Why a model call produced no reply.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CallError {
    #[error("the API rejected the request: {0}")]
    Rejected(Rejection),
    /// A scripted model has no recorded reply left.
    #[error("the recording has no further reply")]
    RecordingEnded,
}

/// Anything the loop can call with the whole conversation.
pub trait Model {
    fn call(&mut self, messages: &[Message]) -> Result<Reply, CallError>;
}

/// Replays recorded replies in order.
#[derive(Debug, Clone)]
pub struct ScriptedModel<'a> {
    replies: &'a [Reply],
    next: usize,
    repeat_last: bool,
}

impl<'a> ScriptedModel<'a> {
    pub fn new(replies: &'a [Reply]) -> Self {
        ScriptedModel {
            replies,
            next: 0,
            repeat_last: false,
        }
    }

    /// After the last recorded reply, keep sending it, each time with fresh
    /// tool-call ids (`<id>-2`, `<id>-3`, ...) as a real model would.
    pub fn repeating_last(mut self, repeat: bool) -> Self {
        self.repeat_last = repeat;
        self
    }
}

impl Model for ScriptedModel<'_> {
    fn call(&mut self, messages: &[Message]) -> Result<Reply, CallError> {
        check_request(messages).map_err(CallError::Rejected)?;
        let index = self.next;
        self.next += 1;
        if let Some(reply) = self.replies.get(index) {
            return Ok(reply.clone());
        }
        match self.replies.last() {
            Some(last) if self.repeat_last => {
                let round = index + 2 - self.replies.len();
                let mut again = last.clone();
                for block in &mut again.content {
                    if let Block::ToolUse { id, .. } = block {
                        *id = format!("{id}-{round}");
                    }
                }
                Ok(again)
            }
            _ => Err(CallError::RecordingEnded),
        }
    }
}

/// The rules a Messages-style API enforces on the history it is sent:
/// it starts with the user, every `tool_use` is answered by a `tool_result`
/// with the same id in the very next (user) message, and every
/// `tool_result` answers a `tool_use` of the message just before it.
///
/// One pass over the messages: the loop resends a growing history on every
/// call, so this must stay linear.
pub fn check_request(messages: &[Message]) -> Result<(), Rejection> {
    let reject = |message_index, problem: &str, ids: Vec<&str>| Rejection {
        message_index,
        problem: problem.to_owned(),
        ids: ids.into_iter().map(str::to_owned).collect(),
    };
    // A rule about tool ids holds when no id breaks it.
    let holds = |message_index, problem: &str, ids: Vec<&str>| {
        if ids.is_empty() {
            Ok(())
        } else {
            Err(reject(message_index, problem, ids))
        }
    };
    let Some(first) = messages.first() else {
        return Err(reject(0, "the request holds no message", vec![]));
    };
    if first.role != Role::User {
        return Err(reject(
            0,
            "the first message must come from the user",
            vec![],
        ));
    }
    let mut seen_ids = HashSet::new();
    // The tool_use ids of the previous message, waiting for their results.
    let mut asked: Vec<&str> = Vec::new();
    let mut answered: Vec<&str> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        answered.clear();
        answered.extend(message.content.iter().filter_map(|b| match b {
            Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
            _ => None,
        }));
        let unanswered = asked
            .iter()
            .copied()
            .filter(|id| message.role != Role::User || !answered.contains(id))
            .collect();
        holds(
            index.saturating_sub(1),
            "tool_use blocks have no tool_result in the next message",
            unanswered,
        )?;
        let orphans = answered
            .iter()
            .copied()
            .filter(|id| !asked.contains(id))
            .collect();
        holds(
            index,
            "tool_result blocks answer no tool_use in the message just before",
            orphans,
        )?;
        let repeated = answered
            .iter()
            .enumerate()
            .filter(|(i, id)| answered[..*i].contains(id))
            .map(|(_, id)| *id)
            .collect();
        holds(index, "tool_use ids answered more than once", repeated)?;
        asked.clear();
        if message.role == Role::Assistant {
            asked.extend(message.tool_calls().map(|c| c.id));
        }
        let duplicates = message
            .tool_calls()
            .map(|c| c.id)
            .filter(|id| !seen_ids.insert(*id))
            .collect();
        holds(index, "tool_use ids used more than once", duplicates)?;
    }
    holds(
        messages.len() - 1,
        "tool_use blocks have no tool_result in the next message",
        asked,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn asks(ids: &[&str]) -> Message {
        Message {
            role: Role::Assistant,
            content: ids
                .iter()
                .map(|id| Block::ToolUse {
                    id: id.to_string(),
                    name: "search".into(),
                    input: json!({"query": "q"}),
                })
                .collect(),
        }
    }

    fn answers(ids: &[&str]) -> Message {
        Message {
            role: Role::User,
            content: ids
                .iter()
                .map(|id| Block::ToolResult {
                    tool_use_id: id.to_string(),
                    content: "page".into(),
                    is_error: false,
                })
                .collect(),
        }
    }

    #[test]
    fn a_well_formed_history_passes() {
        let history = [
            Message::user_text("q"),
            asks(&["a", "b"]),
            answers(&["b", "a"]),
        ];
        assert_eq!(check_request(&history), Ok(()));
    }

    #[test]
    fn dropped_results_are_rejected_with_the_ids() {
        let history = [Message::user_text("q"), asks(&["a", "b"])];
        let err = check_request(&history).unwrap_err();
        assert_eq!(err.message_index, 1);
        assert_eq!(err.ids, vec!["a", "b"]);
        assert!(err.to_string().contains("no tool_result"), "{err}");
    }

    #[test]
    fn a_result_without_its_request_is_rejected() {
        let history = [Message::user_text("q"), answers(&["a"])];
        let err = check_request(&history).unwrap_err();
        assert_eq!((err.message_index, err.ids.clone()), (1, vec!["a".into()]));
        assert!(err.problem.contains("answer no tool_use"));
    }

    #[test]
    fn parallel_results_split_over_two_messages_are_rejected() {
        let history = [
            Message::user_text("q"),
            asks(&["a", "b"]),
            answers(&["a"]),
            answers(&["b"]),
        ];
        let err = check_request(&history).unwrap_err();
        assert_eq!((err.message_index, err.ids.clone()), (1, vec!["b".into()]));
    }

    #[test]
    fn duplicate_ids_and_double_answers_are_rejected() {
        let dup = [Message::user_text("q"), asks(&["a", "a"]), answers(&["a"])];
        assert!(
            check_request(&dup)
                .unwrap_err()
                .problem
                .contains("more than once")
        );
        let twice = [Message::user_text("q"), asks(&["a"]), answers(&["a", "a"])];
        assert!(
            check_request(&twice)
                .unwrap_err()
                .problem
                .contains("answered more than once")
        );
    }

    #[test]
    fn the_first_message_must_be_the_users() {
        assert!(check_request(&[]).is_err());
        assert!(check_request(&[asks(&[])]).is_err());
    }

    #[test]
    fn the_scripted_model_replays_in_order_then_ends() {
        let replies = [Reply {
            content: vec![Block::Text {
                text: "Paris".into(),
            }],
            stop_reason: "end_turn".into(),
            stop_reason_inferred: false,
            usage: None,
        }];
        let mut model = ScriptedModel::new(&replies);
        let history = [Message::user_text("q")];
        assert_eq!(model.call(&history).unwrap().text(), "Paris");
        assert_eq!(model.call(&history), Err(CallError::RecordingEnded));
    }
}
