//! The rules a model API holds a request's `messages` to, and a request
//! refused for breaking one.

use serde::Serialize;
use thiserror::Error;

/// A documented rule of a model API about the `messages` of a request.
/// Which rules an API has, and their wording, belong to its dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestRule {
    /// The request holds no message at all.
    NoMessages,
    /// A message has no content.
    EmptyContent,
    /// In the message that answers tool calls, the results come before any text.
    ResultsNotFirst,
    /// Tool calls with no result right after them.
    UnansweredCalls,
    /// Results that answer no call of the message just before.
    ResultsWithoutCall,
    /// One call answered twice.
    AnsweredTwice,
    /// One tool-call id used for two calls.
    DuplicateCallIds,
}

/// A request the API refuses: the rule broken, where, and the tool ids at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[error("messages[{message_index}] breaks the rule {rule:?} {ids:?}")]
pub struct Rejection {
    pub message_index: usize,
    pub rule: RequestRule,
    pub ids: Vec<String>,
}

impl Rejection {
    pub fn new(message_index: usize, rule: RequestRule, ids: Vec<&str>) -> Self {
        Rejection {
            message_index,
            rule,
            ids: ids.into_iter().map(str::to_owned).collect(),
        }
    }

    /// `Ok` when no id breaks the rule.
    pub fn unless_any(message_index: usize, rule: RequestRule, ids: Vec<&str>) -> Result<(), Self> {
        if ids.is_empty() {
            Ok(())
        } else {
            Err(Rejection::new(message_index, rule, ids))
        }
    }
}
