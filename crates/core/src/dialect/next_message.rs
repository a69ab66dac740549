//! The pairing rule of the APIs that read every message on its own (Gemini
//! and Bedrock Converse): the message right after one that asks for tools
//! answers every call it asked for, and nothing else. Unlike Anthropic's,
//! these APIs do not merge consecutive messages of one role into a turn,
//! so results split over two messages break the rule. Each dialect cites
//! its own wording of the rule where it builds this checker.

use crate::vocab::{Block, Message, Rejection, RequestRule};

/// Checks the rule as the conversation grows, one message at a time.
#[derive(Debug, Default)]
pub struct NextMessageChecker {
    /// The calls of the message just before, and where it is.
    asked: Vec<String>,
    asked_at: usize,
    any: bool,
}

impl NextMessageChecker {
    /// Adds the message at `index`; the first rule it breaks, if any. What
    /// it asks for is kept either way, so a replay that goes past a break
    /// (a recording the API accepted) goes on checking the rest.
    pub fn push(&mut self, index: usize, message: &Message) -> Result<(), Rejection> {
        use RequestRule::*;
        self.any = true;
        let results: Vec<&str> = message
            .content
            .iter()
            .filter_map(|b| match b {
                Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
                _ => None,
            })
            .collect();
        let asked = std::mem::take(&mut self.asked);
        let is_asked = |id: &str| asked.iter().any(|a| a == id);
        let verdict = Rejection::unless_any(
            self.asked_at,
            UnansweredCalls,
            asked
                .iter()
                .map(String::as_str)
                .filter(|id| !results.contains(id))
                .collect(),
        )
        .and_then(|()| {
            let stray = results.iter().copied().filter(|id| !is_asked(id));
            Rejection::unless_any(index, ResultsWithoutCall, stray.collect())
        })
        .and_then(|()| {
            let twice = results
                .iter()
                .enumerate()
                .filter(|(k, id)| results[..*k].contains(id))
                .map(|(_, id)| *id);
            Rejection::unless_any(index, AnsweredTwice, twice.collect())
        });
        self.asked = message.tool_calls().map(|c| c.id.to_owned()).collect();
        self.asked_at = index;
        verdict
    }

    /// Whether the request, as it stands, ends on calls left unanswered.
    pub fn finish(&self) -> Result<(), Rejection> {
        if !self.any {
            return Err(Rejection::new(0, RequestRule::NoMessages, vec![]));
        }
        let pending = self.asked.iter().map(String::as_str).collect();
        Rejection::unless_any(self.asked_at, RequestRule::UnansweredCalls, pending)
    }
}

/// Conversations to check, for the dialects' tests.
#[cfg(test)]
pub mod examples {
    use crate::vocab::{Block, Message, Role};

    /// The model asks for `get_capital` under each id.
    pub fn asks(ids: &[&str]) -> Message {
        Message {
            role: Role::Assistant,
            content: ids
                .iter()
                .map(|id| Block::ToolUse {
                    id: id.to_string(),
                    name: "get_capital".into(),
                    input: serde_json::json!({"country": "France"}),
                })
                .collect(),
        }
    }

    /// One message answering each id.
    pub fn answers(ids: &[&str]) -> Message {
        Message {
            role: Role::User,
            content: ids
                .iter()
                .map(|id| Block::ToolResult {
                    tool_use_id: id.to_string(),
                    content: "Paris".into(),
                    is_error: false,
                })
                .collect(),
        }
    }
}
