//! Finding text in a replayed run: which steps mention what the reader is
//! looking for, in what they added to the conversation or in what they did.

use serde_json::Value;

use super::trace::{Event, TraceView};
use crate::vocab::Block;

/// What to look for, with smart case: a query in lower case matches any
/// case, one with a capital letter matches exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    text: String,
    /// Lower-cased, when case is ignored.
    needle: String,
    ignore_case: bool,
}

impl Query {
    /// `None` for an empty query, which would match everything.
    pub fn new(text: &str) -> Option<Query> {
        if text.is_empty() {
            return None;
        }
        let ignore_case = !text.chars().any(char::is_uppercase);
        Some(Query {
            text: text.to_owned(),
            needle: if ignore_case {
                text.to_lowercase()
            } else {
                text.to_owned()
            },
            ignore_case,
        })
    }

    /// The query as typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `hay` holds the query.
    pub fn found_in(&self, hay: &str) -> bool {
        if !self.ignore_case {
            hay.contains(&self.needle)
        } else if self.needle.is_ascii() {
            // No copy of the haystack: most queries, and most of a long
            // run's bytes, are ASCII.
            let needle = self.needle.as_bytes();
            hay.as_bytes()
                .windows(needle.len())
                .any(|window| window.eq_ignore_ascii_case(needle))
        } else {
            hay.to_lowercase().contains(&self.needle)
        }
    }

    /// Whether step `index` of `view` mentions the query: in the messages
    /// it added (texts, thinking, tool names, ids, inputs and results,
    /// folded on screen or not), or in its own event (a stop reason, a
    /// tool that ran, an answer).
    pub fn matches(&self, view: &TraceView, index: usize) -> bool {
        let step = &view.steps[index];
        let before = index
            .checked_sub(1)
            .map_or(0, |i| view.steps[i].messages)
            .min(step.messages);
        let added = view.messages.range(before..step.messages);
        added
            .iter()
            .flat_map(|m| &m.content)
            .any(|block| self.in_block(block))
            || self.in_event(&step.event)
    }

    fn in_block(&self, block: &Block) -> bool {
        match block {
            Block::Text { text } => self.found_in(text),
            Block::Thinking { thinking } => self.found_in(thinking),
            Block::Refusal { refusal } => self.found_in(refusal),
            Block::ToolUse { id, name, input } | Block::ServerToolUse { id, name, input } => {
                self.found_in(id) || self.found_in(name) || self.in_value(input)
            }
            Block::ToolResult {
                tool_use_id,
                content,
                ..
            } => self.found_in(tool_use_id) || self.found_in(content),
            Block::ServerToolResult {
                tool_use_id,
                content,
                ..
            } => self.found_in(tool_use_id) || self.in_value(content),
        }
    }

    fn in_event(&self, event: &Event) -> bool {
        match event {
            Event::Call { stop_reason, .. } | Event::Check { stop_reason, .. } => {
                self.found_in(stop_reason)
            }
            Event::Dispatch {
                id,
                name,
                input,
                output,
            } => {
                self.found_in(id)
                    || self.found_in(name)
                    || self.in_value(input)
                    || self.found_in(&output.content)
            }
            Event::GoalCheck { tool, .. } => self.found_in(tool),
            Event::Answer { text } => self.found_in(text),
            _ => false,
        }
    }

    /// A tool's input as it is shown: its JSON text, keys and all.
    fn in_value(&self, input: &Value) -> bool {
        match input {
            Value::String(text) => self.found_in(text),
            other => self.found_in(&other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_ignores_case_and_a_capital_does_not() {
        let any = Query::new("mara").unwrap();
        assert!(any.found_in("directed by Mara Voss"));
        assert!(any.found_in("MARA"));
        let exact = Query::new("Mara").unwrap();
        assert!(exact.found_in("Mara Voss") && !exact.found_in("mara voss"));
        // Beyond ASCII too, and in Chinese, which has no case.
        assert!(Query::new("ärger").unwrap().found_in("ÄRGER"));
        assert!(Query::new("导演").unwrap().found_in("这部电影的导演是谁"));
        assert!(Query::new("").is_none());
        assert!(!any.found_in("") && !any.found_in("mar"));
    }
}
