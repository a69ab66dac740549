//! What a replay of a transcript starts from: its opening conversation,
//! its budget and harness, its API. The replay itself, whose tools speak
//! to the model in the class's language, is set up in
//! [`crate::narrate::replay`].

use std::num::NonZeroU32;

use super::Transcript;
use crate::dialect::Dialect;
use crate::engine::{Config, Conversation, Message};
use crate::vocab::StopReason;

/// Why a run cannot be told in an API: a reply it could not send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Untold {
    /// A stop reason the API has no word for.
    Stop(String),
    /// A tool request under this stop, an answer's, where the API's calls
    /// alone make a reply a tool request.
    PendingCall(String),
    /// A call to this tool cut off before its arguments were whole, where
    /// the API sends them as an object.
    CutCall(String),
}

impl Transcript {
    /// The most model calls a replay under `max_turns` can make: the
    /// recording runs out before the budget, unless its last reply repeats.
    pub fn calls_at_most(&self, max_turns: NonZeroU32) -> u32 {
        let recorded = u32::try_from(self.replies.len()).unwrap_or(u32::MAX);
        if self.repeat_last_reply {
            max_turns.get()
        } else {
            max_turns.get().min(recorded)
        }
    }

    /// The conversation as the first call sends it: the system prompt
    /// where the API sends it as a message, the history, then the question.
    pub fn opening(&self) -> Conversation {
        self.opening_in(self.dialect())
    }

    /// The same, told in `dialect`.
    pub fn opening_in(&self, dialect: Dialect) -> Conversation {
        let opening = Conversation::new(self.history.clone(), Message::user_text(&self.question));
        match &self.system {
            Some(system) if dialect.words().system_in_messages => {
                opening.led_by(Message::system_text(system))
            }
            _ => opening,
        }
    }

    /// The API the run speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
            .unwrap_or_else(|| Dialect::guess(self.replies.iter().map(|r| r.stop_reason.as_str())))
    }

    /// Why the run cannot be told in `dialect`, if it cannot: the first
    /// reply that API could not send.
    pub fn untold_in(&self, dialect: Dialect) -> Option<Untold> {
        let recorded = self.dialect();
        if recorded == dialect {
            return None;
        }
        self.replies.iter().find_map(|r| {
            let asks = r.tool_calls().next().is_some();
            if dialect.told_stop(recorded, &r.stop_reason, asks).is_none() {
                return Some(Untold::Stop(r.stop_reason.clone()));
            }
            // Where the calls alone make a reply a tool request (Responses,
            // Gemini), a request left pending under an answer's stop
            // cannot be sent.
            let answering = matches!(
                recorded.stop_reason(&r.stop_reason),
                StopReason::EndTurn | StopReason::StopSequence
            );
            if asks && answering && dialect.words().calls_in_items {
                return Some(Untold::PendingCall(r.stop_reason.clone()));
            }
            // A call cut off mid-arguments is text, where this API sends
            // an object: Gemini's `args` (a Struct), Converse's `input`.
            let cut = r.tool_calls().find(|call| !call.input.is_object());
            match cut {
                Some(call) if dialect.words().arguments_object => {
                    Some(Untold::CutCall(call.name.to_owned()))
                }
                _ => None,
            }
        })
    }

    /// The remark for the call with this number, if the run has one.
    pub fn remark(&self, call: u32) -> Option<&str> {
        self.remarks
            .iter()
            .find(|r| r.call == call)
            .map(|r| r.text.as_str())
    }

    /// The loop set up as recorded: the transcript's own budget and harness,
    /// the production check, no mistake.
    pub fn default_config(&self) -> Config {
        Config {
            tool_errors: self.tool_errors,
            ..Config::new(self.max_turns, self.dialect())
        }
    }
}
