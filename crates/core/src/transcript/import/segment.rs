//! A recorded conversation as the importers build it, message by message,
//! before it is cut into runs ([`cut_runs`]): where each message came
//! from, its time, and what the recording says beside it.

use crate::dialect::Dialect;
use crate::engine::{Ending, Message, PushBack, Role, Stamp, Timing, ToolDef, Usage};

use crate::dialect::read::{folds_into, is_prompt};
use crate::transcript::{Compaction, Provenance};

/// Where a recorded message came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Before the recording starts: context only, never a run.
    History,
    /// The conversation itself: prompts, replies and tool results.
    Conversation,
    /// Added by the client on its own, not asked for by any reply.
    Client,
    /// The user's interruption of a turn, as the client wrote it into the
    /// conversation: it ends the run it falls in.
    Interruption,
    /// The summary a compaction left: the history starts again from it.
    Compaction,
    /// The error a client wrote in the model's place when the API kept
    /// failing: no reply, and no part of what is sent.
    ApiFailure,
    /// The harness's own words within the run, as the format records
    /// them, with what they were for.
    Harness(PushBack),
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub message: Message,
    pub origin: Origin,
    /// For replies: the stop reason and usage the API reported, if any.
    pub stop_reason: Option<String>,
    pub usage: Option<Usage>,
    /// For replies: when the call started and how long it took, if known.
    pub time: Option<Timing>,
    /// For results: each tool's time, by call id, where the log has it.
    pub result_times: Vec<(String, Timing)>,
    /// For a compaction's summary: what the log says of the compaction,
    /// and how many messages just before it the history resumes from.
    pub compaction: Option<Compaction>,
    pub resumes_after: usize,
    /// For replies: how often the client retried the call after the API
    /// failed it, and the last error it got.
    pub retried: Option<(usize, String)>,
    /// For replies: the response came streamed, as server-sent events.
    pub streamed: bool,
    /// For replies: the agent ended its run with one of this reply's
    /// calls, which its harness took as the end instead of running it.
    pub ends: Option<Ending>,
}

impl Entry {
    pub fn new(message: Message, origin: Origin) -> Self {
        Entry {
            message,
            origin,
            stop_reason: None,
            usage: None,
            time: None,
            result_times: Vec::new(),
            compaction: None,
            resumes_after: 0,
            retried: None,
            streamed: false,
            ends: None,
        }
    }

    /// A reply of the conversation, with what the API reported of it.
    pub fn reply(message: Message, stop_reason: Option<String>, usage: Option<Usage>) -> Self {
        Entry {
            stop_reason,
            usage,
            ..Entry::new(message, Origin::Conversation)
        }
    }
}

/// The `timestamp` a log line or event carries, when it is a readable
/// RFC 3339 time; anything else leaves the step untimed.
pub fn stamp_of(line: &serde_json::Value) -> Option<Stamp> {
    line.get("timestamp")?.as_str().and_then(Stamp::parse)
}

/// The time from one recorded instant to another, when both are known.
pub fn span(started: Option<&Stamp>, ended: Option<&Stamp>) -> Option<Timing> {
    Timing::between(started?, ended?)
}

/// The latest readable time of a log read line by line: what the next
/// call is timed from.
#[derive(Debug, Default)]
pub struct Latest(Option<Stamp>);

impl Latest {
    /// The time from the latest readable line to this one, whose time (if
    /// readable) becomes the latest.
    pub fn since(&mut self, stamp: Option<&Stamp>) -> Option<Timing> {
        let time = span(self.0.as_ref(), stamp);
        if stamp.is_some() {
            self.0 = stamp.cloned();
        }
        time
    }
}

/// Moves the end of a reply's time to a later line of the same reply: a
/// call lasts until its reply's last part arrived. An unreadable time
/// leaves it as it was.
pub fn extend(time: &mut Option<Timing>, to: Option<&Stamp>) {
    if let Some(longer) = span(time.as_ref().map(|t| &t.started), to) {
        *time = Some(longer);
    }
}

/// One recorded conversation and what is known about it.
#[derive(Debug, Default)]
pub struct Recording {
    /// Used to name the runs: `<name>`, or `<name>-2` when there are several.
    pub name: String,
    /// Where it came from, for the description.
    pub source: Provenance,
    pub model: Option<String>,
    /// The reply's token limit the requests set.
    pub max_tokens: Option<u32>,
    pub system: Option<String>,
    pub tools: Vec<ToolDef>,
    /// The API it was recorded with: inferred stop reasons use its spelling.
    pub dialect: Dialect,
    pub entries: Vec<Entry>,
    /// How the agent's log says its last run ended.
    pub ending: Option<Ending>,
    /// Added to each run's title, where runs of the same prompt need
    /// telling apart (an eval's epochs).
    pub title_note: Option<String>,
    /// The format's user texts are what a person typed (a coding agent's
    /// own session log, which marks its harness's words itself): each is
    /// a prompt, never told as the harness's by where it falls.
    pub typed_prompts: bool,
}

impl Recording {
    /// Adds an entry, folding OpenAI's one-message-per-result into the
    /// single message of results the loop appends.
    pub fn push(&mut self, entry: Entry) {
        if let Some(last) = self.entries.last_mut()
            && last.origin == entry.origin
            && folds_into(&last.message, &entry.message)
        {
            last.message.content.extend(entry.message.content);
            last.result_times.extend(entry.result_times);
            return;
        }
        self.entries.push(entry);
    }

    /// The recording as far as entry `end`, all else the same: what was
    /// read of it so far, for runs shown while the rest loads.
    pub fn before(&self, end: usize) -> Recording {
        Recording {
            name: self.name.clone(),
            source: self.source.clone(),
            model: self.model.clone(),
            max_tokens: self.max_tokens,
            system: self.system.clone(),
            tools: self.tools.clone(),
            dialect: self.dialect,
            entries: self.entries[..end.min(self.entries.len())].to_vec(),
            ending: None,
            title_note: self.title_note.clone(),
            typed_prompts: self.typed_prompts,
        }
    }

    /// Whether an entry of `origin` holding `message` opens a run, as
    /// [`cut_runs`] cuts them: a prompt, or a compaction's summary.
    pub fn opens_a_run(origin: Origin, message: &Message) -> bool {
        origin == Origin::Compaction || (origin == Origin::Conversation && is_prompt(message))
    }

    /// Each ending ends the run of the reply that made its call: an agent
    /// that finished more than one run (a prompt, its `finish`, another
    /// prompt) ends each where it did.
    pub fn end_at_calls(&mut self, endings: Vec<Ending>) {
        for ending in endings {
            let made = self.entries.iter_mut().rev().find(|e| {
                e.message.role == Role::Assistant
                    && e.message
                        .tool_calls()
                        .any(|c| Some(c.id) == ending.call.as_deref())
            });
            if let Some(reply) = made {
                reply.ends = Some(ending);
            }
        }
    }

    /// Adds a system prompt; several are kept in order, a blank line apart.
    pub fn add_system(&mut self, text: String) {
        match &mut self.system {
            Some(system) => {
                system.push_str("\n\n");
                system.push_str(&text);
            }
            None => self.system = Some(text),
        }
    }
}

pub use super::cut::{MISSING_RESULT, cut_runs};
