//! The `messages` list of one run, stored so that runs cut from one long
//! log share what came before them: a log of 10,000 prompts holds its
//! messages once, not once per prompt.

use std::collections::HashMap;
use std::ops::{Index, Range};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::message::{Block, Message, Role};

/// Messages shared by the runs of one log, with the tool-call ids in them
/// found once, when a run first asks.
#[derive(Debug, Default)]
pub struct Log {
    messages: Vec<Message>,
    /// Where each tool-call id is asked for, in message order: by the
    /// model, in its replies, as the APIs count calls.
    calls: OnceLock<HashMap<String, Vec<usize>>>,
    /// Characters in the first n messages, for every n.
    chars: OnceLock<Vec<usize>>,
}

impl Log {
    pub fn new(messages: Vec<Message>) -> Arc<Self> {
        Arc::new(Log {
            messages,
            calls: OnceLock::new(),
            chars: OnceLock::new(),
        })
    }

    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Characters in the first `count` messages.
    fn chars_before(&self, count: usize) -> usize {
        let chars = self.chars.get_or_init(|| {
            let sizes = self.messages.iter().map(Message::chars);
            std::iter::once(0)
                .chain(sizes.scan(0, |total, size| {
                    *total += size;
                    Some(*total)
                }))
                .collect()
        });
        chars[count.min(chars.len() - 1)]
    }

    /// Whether a message of `range` asks for a call with this id.
    fn asks_for(&self, id: &str, range: &Range<usize>) -> bool {
        let calls = self.calls.get_or_init(|| {
            let mut calls: HashMap<String, Vec<usize>> = HashMap::new();
            let replies = self.messages.iter().enumerate();
            for (at, message) in replies.filter(|(_, m)| m.role == Role::Assistant) {
                for block in &message.content {
                    if let Block::ToolUse { id, .. } = block {
                        calls.entry(id.clone()).or_default().push(at);
                    }
                }
            }
            calls
        });
        calls
            .get(id)
            .is_some_and(|at| at.iter().any(|i| range.contains(i)))
    }
}

/// The messages before the question. Runs cut from one long log share a
/// single copy of it, each seeing its own part: everything before its
/// question, or, after the client compacted the conversation, what came
/// from the summary on.
#[derive(Debug, Clone, Default)]
pub struct History {
    log: Arc<Log>,
    range: Range<usize>,
}

impl History {
    /// All of `messages`, a log of their own.
    pub fn new(messages: Vec<Message>) -> Self {
        let len = messages.len();
        History {
            log: Log::new(messages),
            range: 0..len,
        }
    }

    /// The messages of `log` from `start` up to `end`.
    pub fn between(log: &Arc<Log>, start: usize, end: usize) -> Self {
        let end = end.min(log.messages.len());
        History {
            log: Arc::clone(log),
            range: start.min(end)..end,
        }
    }

    /// The same part of another log as long (a redacted copy).
    pub fn over(&self, log: &Arc<Log>) -> Self {
        History::between(log, self.range.start, self.range.end)
    }

    pub fn messages(&self) -> &[Message] {
        &self.log.messages[self.range.clone()]
    }

    /// The whole log this history is part of, shared with its other runs.
    pub fn log(&self) -> &Arc<Log> {
        &self.log
    }

    /// Where in its log this history lies.
    pub fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    pub fn len(&self) -> usize {
        self.range.len()
    }

    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// Characters in the first `count` messages, counted once per log.
    pub fn chars_in_first(&self, count: usize) -> usize {
        let end = self.range.end.min(self.range.start + count);
        if end == self.range.start {
            // No message: the log is not counted for it (the first run of
            // a long session opens before its log is).
            return 0;
        }
        self.log.chars_before(end) - self.log.chars_before(self.range.start)
    }

    /// Whether one of the first `count` messages of this history asks for
    /// a tool call with `id`.
    pub fn asks_for(&self, id: &str, count: usize) -> bool {
        let end = self.range.end.min(self.range.start + count);
        end > self.range.start && self.log.asks_for(id, &(self.range.start..end))
    }
}

impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.messages() == other.messages()
    }
}

impl Serialize for History {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.messages().serialize(s)
    }
}

impl<'de> Deserialize<'de> for History {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Message>::deserialize(d).map(History::new)
    }
}

/// A run's conversation: the system prompt where the API sends it as a
/// message (its lead), the history it opened with, shared, then the
/// messages the run added, its own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conversation {
    lead: Option<Message>,
    history: History,
    own: Vec<Message>,
}

impl Conversation {
    /// A conversation that opens with `history`, then `first`.
    pub fn new(history: History, first: Message) -> Self {
        Conversation {
            lead: None,
            history,
            own: vec![first],
        }
    }

    /// The same, led by `lead`, the system prompt as a message.
    pub fn led_by(mut self, lead: Message) -> Self {
        self.lead = Some(lead);
        self
    }

    pub fn push(&mut self, message: Message) {
        self.own.push(message);
    }

    pub fn len(&self) -> usize {
        self.all().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The messages before the history: the system prompt, or none.
    pub fn lead(&self) -> &[Message] {
        self.lead.as_slice()
    }

    /// The history the run opened with.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Characters in all the messages.
    pub fn chars(&self) -> usize {
        self.lead().iter().map(Message::chars).sum::<usize>()
            + self.history.chars_in_first(self.history.len())
            + self.own.iter().map(Message::chars).sum::<usize>()
    }

    /// The conversation without its shared history: the lead, then the
    /// run's own messages.
    pub fn without_history(&self) -> Messages<'_> {
        Messages {
            parts: [self.lead(), &[], &self.own],
        }
    }

    /// Every message: the lead, the history's, the run's own.
    pub fn all(&self) -> Messages<'_> {
        Messages {
            parts: [self.lead(), self.history.messages(), &self.own],
        }
    }
}

impl Index<usize> for Conversation {
    type Output = Message;

    fn index(&self, index: usize) -> &Message {
        self.all()
            .get(index)
            .expect("a message index within the conversation")
    }
}

impl Serialize for Conversation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.all().serialize(s)
    }
}

/// A stretch of a conversation, in the parts it is kept in (a lead, the
/// shared history, the run's own messages), any of them empty.
#[derive(Debug, Clone, Copy, Default)]
pub struct Messages<'a> {
    parts: [&'a [Message]; 3],
}

impl<'a> Messages<'a> {
    /// Messages held in one slice.
    pub fn of(messages: &'a [Message]) -> Self {
        Messages {
            parts: [messages, &[], &[]],
        }
    }

    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, mut index: usize) -> Option<&'a Message> {
        for part in self.parts {
            match part.get(index) {
                Some(message) => return Some(message),
                None => index -= part.len().min(index),
            }
        }
        None
    }

    pub fn last(&self) -> Option<&'a Message> {
        self.parts.iter().rev().find_map(|p| p.last())
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &'a Message> + 'a {
        self.parts.into_iter().flatten()
    }

    /// The messages of `range`, clamped to those there are.
    pub fn range(&self, range: Range<usize>) -> Messages<'a> {
        let mut parts = self.parts;
        let mut offset = 0;
        for part in &mut parts {
            let len = part.len();
            let start = range.start.saturating_sub(offset).min(len);
            let end = range.end.saturating_sub(offset).clamp(start, len);
            *part = &part[start..end];
            offset += len;
        }
        Messages { parts }
    }

    /// The messages from `start` on.
    pub fn from(&self, start: usize) -> Messages<'a> {
        self.range(start..self.len())
    }
}

impl Index<usize> for Messages<'_> {
    type Output = Message;

    fn index(&self, index: usize) -> &Message {
        self.get(index)
            .expect("a message index within the conversation")
    }
}

impl PartialEq for Messages<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(messages: Messages<'_>) -> Vec<String> {
        messages.iter().map(Message::text).collect()
    }

    fn conversation() -> Conversation {
        let log = Log::new(["a", "b", "c"].map(Message::user_text).to_vec());
        let mut conversation =
            Conversation::new(History::between(&log, 1, 3), Message::user_text("d"));
        conversation.push(Message::user_text("e"));
        conversation
    }

    #[test]
    fn a_conversation_reads_as_one_list_across_history_and_its_own_messages() {
        let conversation = conversation();
        assert_eq!(conversation.len(), 4);
        assert_eq!(texts(conversation.all()), ["b", "c", "d", "e"]);
        assert_eq!(texts(conversation.all().range(0..3)), ["b", "c", "d"]);
        assert_eq!(texts(conversation.all().range(1..3)), ["c", "d"]);
        assert_eq!(texts(conversation.all().range(3..9)), ["e"]);
        assert_eq!(texts(conversation.all().from(2)), ["d", "e"]);
        assert_eq!(conversation.all()[1].text(), "c");
        assert_eq!(
            conversation.all().last().map(Message::text),
            Some("e".into())
        );
        assert!(conversation.all().range(5..9).is_empty());
    }

    #[test]
    fn runs_of_one_log_share_its_messages() {
        let log = Log::new(vec![Message::user_text("q")]);
        let first = History::between(&log, 0, 1);
        let second = History::between(&log, 0, 1);
        assert!(Arc::ptr_eq(first.log(), second.log()));
    }

    #[test]
    fn a_history_finds_the_calls_in_its_own_part_of_the_log() {
        let call = |id: &str| Message {
            role: Role::Assistant,
            content: vec![Block::ToolUse {
                id: id.into(),
                name: "t".into(),
                input: serde_json::json!({}),
            }],
        };
        let log = Log::new(vec![call("one"), call("two")]);
        let both = History::between(&log, 0, 2);
        assert!(both.asks_for("one", 2));
        assert!(both.asks_for("two", 9));
        assert!(!both.asks_for("two", 1), "not among the first message");
        assert!(!History::between(&log, 1, 2).asks_for("one", 2));
        assert!(!both.asks_for("three", 2));
    }
}
