//! Recorded runs coming in: the native JSON format, the built-in runs and
//! the checks that a transcript can be replayed.

mod builtin;
mod error;
mod file;
pub mod import;
mod input;
mod localize;
mod localized;
mod native;
mod open;
mod progress;
mod provenance;
mod replay;
mod required;
mod sessions;
pub mod shared;
mod validate;
mod verify;

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use serde::{Deserialize, Deserializer, Serialize};

use crate::dialect::Dialect;
use crate::engine::{
    Ending, Goal, History, Insertion, MAX_TURNS, Recorded, Reply, ToolDef, ToolEnv, ToolErrors,
};

pub use crate::vocab::{Note, Skip};
pub use builtin::{BUILTIN_NAMES, builtin, builtin_in, builtin_text};
pub(crate) use error::size_words;
pub use error::{JsonKind, LoadError, Looks, Problem, Seen, Unopened, Why, shown_path};
pub use import::{Format, Kind, Source};
pub use input::{Input, Unopenable, open_input};
pub use localized::Localized;
pub use open::{
    DEFAULT_MAX_SIZE, Early, Opening, ensure_exists, nearest_names, open, open_both, open_in,
};
pub use progress::{Progress, Stage};
pub use provenance::{Imported, Piece, Provenance};
pub use replay::Untold;
pub use sessions::{is_one_recording, is_part_of};
pub use verify::{Evidence, Miss, Verification};

/// The transcript format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A recorded run, ready to replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transcript {
    /// Where an editor finds the JSON Schema; loopstep ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub version: u32,
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The API the run speaks; when absent, the one whose stop reasons the
    /// replies use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Dialect>,
    /// Words for the teacher, shown under the caption of particular steps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remarks: Vec<Remark>,
    /// Messages that came before the question, such as the earlier turns of
    /// a chat that went on; they open the conversation.
    #[serde(default, skip_serializing_if = "History::is_empty")]
    pub history: History,
    /// The conversation was compacted before this run began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Compaction>,
    /// The user's question: the message that starts the loop.
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The model the run was recorded with.
    pub model: String,
    /// The reply's token limit the client set (`max_tokens`, which the
    /// Messages API requires), where it is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// The turn budget the run was recorded with.
    #[serde(deserialize_with = "positive_turns")]
    pub max_turns: NonZeroU32,
    #[serde(default)]
    pub tools: Vec<ToolDef>,
    /// The model's replies, in the order it gave them.
    pub replies: Vec<Reply>,
    /// Replay stand-ins for tools, keyed by tool name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub environment: BTreeMap<String, ToolEnv>,
    /// Tool results recorded for particular tool calls, keyed by tool-call
    /// id; a list for an id the recording used more than once.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub results: BTreeMap<String, Recorded>,
    /// What the recorded harness did when a tool failed.
    #[serde(default, skip_serializing_if = "is_default")]
    pub tool_errors: ToolErrors,
    /// The model never stops asking: after the last recorded reply it sends
    /// that reply again (with fresh tool-call ids), for as long as it is called.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat_last_reply: bool,
    /// Messages the recorded client added before particular calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inserted: Vec<Insertion>,
    /// The harness's own goal check: when the model says it is done, the
    /// answer stands only if this evidence is there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Goal>,
    /// How the recorded harness ended the run, where the agent's log says:
    /// the agent's exit, the user interrupting, or the API failing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expectation>,
    /// What an import found odd in the recording (gaps, skipped parts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// Where an import cut the run from, as a fact; narrate tells it in
    /// the reader's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
    /// The run was recorded from a real API, which accepted every request:
    /// a request the replay finds breaking a rule is noted, not refused,
    /// unless a deliberate mistake made it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recorded: bool,
}

/// The client compacted the conversation before this run: the summary
/// that opens its history (or is its question) stands for every message
/// before it, which the model no longer sees.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compaction {
    /// How many messages the summary replaced.
    pub replaced: usize,
    /// How many tokens the context held before, and after, where the log
    /// says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_before: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_after: Option<u64>,
    /// What set it off, as the log says: `manual` or `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// A remark shown with the caption of the call with this number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Remark {
    /// The 1-based number of the model call the remark belongs to.
    pub call: u32,
    pub text: String,
}

/// What a correct run ends with, so an answer can be checked, not just given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_calls: Option<usize>,
    /// The goal needs every tool call to have worked: an answer given after
    /// a failed tool call is not verified.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_tool_errors: bool,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

pub(super) fn positive_turns<'de, D: Deserializer<'de>>(d: D) -> Result<NonZeroU32, D::Error> {
    // Any JSON value, so that a wrong one gets this message rather than
    // serde's "expected i64".
    let value = serde_json::Value::deserialize(d)?;
    let n = value
        .as_u64()
        .filter(|n| (1..=u64::from(MAX_TURNS)).contains(n));
    n.and_then(|n| NonZeroU32::new(n as u32)).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "max_turns must be a whole number from 1 (the loop needs one model call) to \
             {MAX_TURNS} (the most loopstep replays), got {value}"
        ))
    })
}

pub(super) fn optional_positive_turns<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<NonZeroU32>, D::Error> {
    positive_turns(d).map(Some)
}
