//! The "call" phase: a model behind a trait, and the scripted model that
//! replays a recording while checking each request the way its API does.

use std::collections::HashSet;
use std::ops::Deref;

use thiserror::Error;

use crate::dialect::{Dialect, RequestChecker};
use crate::vocab::{Block, Conversation, Rejection, Reply, RequestRule, StopReason};

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
    fn call(&mut self, messages: &Conversation) -> Result<Reply, CallError>;

    /// A rule the last request broke that the model let pass: a recording
    /// shows the API accepted the request, so a replay of it notes the
    /// break and goes on. Taken once.
    fn take_tolerated(&mut self) -> Option<Rejection> {
        None
    }

    /// Whether the reply just given was the last there will be: a
    /// recording that has run out. A live model never is.
    fn spent(&self) -> bool {
        false
    }
}

/// Replays recorded replies in order, checking each request against the
/// rules of the API the run speaks. `R` holds the replies: borrowed, or a
/// handle that keeps its recording alive (a screen's replay owns its run).
#[derive(Debug)]
pub struct ScriptedModel<R> {
    replies: R,
    /// The API the loop speaks, and the one the replies were recorded in:
    /// a run retold in another API hears its stops in that API's words.
    dialect: Dialect,
    recorded: Dialect,
    /// The API's rules, fed each message once: the loop only ever
    /// appends. Set up at the first call, joining the run's history.
    rules: Option<RequestChecker>,
    /// Messages already fed to `rules`.
    checked: usize,
    next: usize,
    repeat_last: bool,
    /// Note a broken rule instead of refusing the request.
    tolerate: bool,
    tolerated: Option<Rejection>,
    /// The breaks noted so far, by message and rule.
    noted: HashSet<(usize, RequestRule)>,
}

impl<R: Deref<Target = [Reply]>> ScriptedModel<R> {
    pub fn new(replies: R, dialect: Dialect) -> Self {
        ScriptedModel {
            replies,
            dialect,
            recorded: dialect,
            rules: None,
            checked: 0,
            next: 0,
            repeat_last: false,
            tolerate: false,
            tolerated: None,
            noted: HashSet::new(),
        }
    }

    /// Replaying what the API accepted: a request that breaks one of its
    /// rules is answered all the same, the break kept for
    /// [`Model::take_tolerated`], each break once, at the first call it is in.
    pub fn tolerating_breaks(mut self, tolerate: bool) -> Self {
        self.tolerate = tolerate;
        self
    }

    /// The first rule the request breaks. Every message is taken in even
    /// past a break, so a tolerant replay goes on checking. The rules are
    /// of the messages after the system prompt; a break is placed where
    /// the request has it, the prompt counted.
    fn check(&mut self, messages: &Conversation) -> Result<(), Rejection> {
        let lead = messages.lead().len();
        let rules = self.rules.get_or_insert_with(|| {
            self.checked = messages.history().len();
            self.dialect.checker(messages.history())
        });
        let mut first = Ok(());
        let added = messages.all().from(lead + self.checked);
        for (index, message) in (self.checked..).zip(added.iter()) {
            let verdict = rules.push(index, message);
            if first.is_ok() {
                first = verdict;
            }
        }
        self.checked = messages.len() - lead;
        first.and_then(|()| rules.finish()).map_err(|mut broken| {
            broken.message_index += lead;
            broken
        })
    }

    /// Replies recorded in `recorded`, told in the dialect the loop speaks:
    /// each stop reason in its words where it has them, else as recorded.
    pub fn recorded_in(mut self, recorded: Dialect) -> Self {
        self.recorded = recorded;
        self
    }

    /// A recorded reply as this API gives it: its stop in this API's
    /// words, and a refusal where this API puts it.
    fn told(&self, mut reply: Reply) -> Reply {
        if self.recorded != self.dialect {
            let asks = reply.tool_calls().next().is_some();
            let refused = self.recorded.stop_reason(&reply.stop_reason) == StopReason::Refusal;
            if refused && self.dialect.words().refusal_in_reply {
                for block in &mut reply.content {
                    if let Block::Text { text } = block {
                        let refusal = std::mem::take(text);
                        *block = Block::Refusal { refusal };
                    }
                }
            }
            if let Some(told) = self
                .dialect
                .told_stop(self.recorded, &reply.stop_reason, asks)
            {
                reply.stop_reason = told.to_owned();
            }
        }
        reply
    }

    /// After the last recorded reply, keep sending it, each time with fresh
    /// tool-call ids (`<id>-2`, `<id>-3`, ...) as a real model would.
    pub fn repeating_last(mut self, repeat: bool) -> Self {
        self.repeat_last = repeat;
        self
    }
}

impl<R: Deref<Target = [Reply]>> Model for ScriptedModel<R> {
    fn call(&mut self, messages: &Conversation) -> Result<Reply, CallError> {
        if let Err(broken) = self.check(messages) {
            if !self.tolerate {
                return Err(CallError::Rejected(broken));
            }
            // A break still in the conversation is found again at every
            // later call: it is noted where it first shows.
            if self.noted.insert((broken.message_index, broken.rule)) {
                self.tolerated = Some(broken);
            }
        }
        let index = self.next;
        self.next += 1;
        if let Some(reply) = self.replies.get(index) {
            return Ok(self.told(reply.clone()));
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
                Ok(self.told(again))
            }
            _ => Err(CallError::RecordingEnded),
        }
    }

    fn take_tolerated(&mut self) -> Option<Rejection> {
        self.tolerated.take()
    }

    fn spent(&self) -> bool {
        !self.repeat_last && self.next >= self.replies.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Message;

    #[test]
    fn the_scripted_model_replays_in_order_then_ends() {
        let replies = [Reply {
            content: vec![Block::Text {
                text: "Paris".into(),
            }],
            stop_reason: "end_turn".into(),
            ..Reply::default()
        }];
        let mut model = ScriptedModel::new(&replies[..], Dialect::AnthropicMessages);
        let history = Conversation::new(Default::default(), Message::user_text("q"));
        assert_eq!(model.call(&history).unwrap().text(), "Paris");
        assert_eq!(model.call(&history), Err(CallError::RecordingEnded));
    }
}
