//! Recorded runs coming in: the native JSON format, the built-in runs and
//! the checks that a transcript can be replayed.

mod builtin;
mod error;
pub mod import;
mod localize;
mod notes;
mod progress;
mod required;
mod sessions;
mod validate;

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize};

use crate::dialect::Dialect;
use crate::engine::{
    Config, Ending, Event, Goal, Insertion, MAX_TURNS, Message, Recorded, Replay, ReplayTools,
    Reply, Run, ScriptedModel, ToolDef, ToolEnv, ToolErrors, Trace, TraceView,
};
use crate::narrate::{Lang, Say};

pub use builtin::{BUILTIN_NAMES, builtin, builtin_in};
pub use error::{LoadError, Problem};
pub use import::{Format, Source};
pub use notes::{Note, Skip};
pub use progress::{Progress, Stage};

/// A transcript's replay, computed as far as it is looked at.
pub type LazyReplay<'a> = Replay<'a, ScriptedModel<'a>, ReplayTools<'a>>;

/// Fails, naming the built-in runs nearest to it, unless `name_or_path` is
/// a built-in run or an existing path.
pub fn ensure_exists(name_or_path: &str) -> Result<(), LoadError> {
    if BUILTIN_NAMES.contains(&name_or_path) || Path::new(name_or_path).exists() {
        return Ok(());
    }
    Err(LoadError::NotFound {
        name: name_or_path.to_owned(),
        builtins: BUILTIN_NAMES.join(", "),
        nearest: nearest_names(name_or_path, &BUILTIN_NAMES),
    })
}

/// The names in `names` a typo away from `typed`, nearest first: at most
/// three, each within a third of its length in edits.
pub fn nearest_names<'a>(typed: &str, names: &[&'a str]) -> Vec<&'a str> {
    let mut near: Vec<(usize, &'a str)> = names
        .iter()
        .map(|name| (strsim::levenshtein(typed, name), *name))
        .filter(|(edits, name)| *edits <= name.chars().count().div_ceil(3))
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, name)| name).collect()
}

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
    /// The run was recorded from a real API, which accepted every request:
    /// a request the replay finds breaking a rule is noted, not refused,
    /// unless a deliberate mistake made it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recorded: bool,
}

/// The messages before the question. Runs cut from one long log share a
/// single copy of it, each seeing its own part: everything before its
/// question, or, after the client compacted the conversation, what came
/// from the summary on.
#[derive(Debug, Clone, Default)]
pub struct History {
    all: Arc<Vec<Message>>,
    start: usize,
    len: usize,
}

impl History {
    /// The first `len` messages of `all`.
    pub fn prefix(all: &Arc<Vec<Message>>, len: usize) -> Self {
        History::between(all, 0, len)
    }

    /// The messages of `all` from `start` up to `end`.
    pub fn between(all: &Arc<Vec<Message>>, start: usize, end: usize) -> Self {
        let len = end.min(all.len());
        History {
            all: Arc::clone(all),
            start: start.min(len),
            len,
        }
    }

    /// The same part of another list as long (a redacted copy).
    pub fn over(&self, all: &Arc<Vec<Message>>) -> Self {
        History::between(all, self.start, self.len)
    }

    pub fn messages(&self) -> &[Message] {
        &self.all[self.start..self.len]
    }

    /// All the messages this history is a prefix of, shared with the
    /// other runs of its log.
    pub fn whole(&self) -> &Arc<Vec<Message>> {
        &self.all
    }

    pub fn is_empty(&self) -> bool {
        self.len == self.start
    }
}

impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.messages() == other.messages()
    }
}

impl Serialize for History {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.messages().serialize(s)
    }
}

impl<'de> Deserialize<'de> for History {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let all = Vec::<Message>::deserialize(d)?;
        Ok(History {
            start: 0,
            len: all.len(),
            all: Arc::new(all),
        })
    }
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

/// A run defined as another one with a few fields changed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    #[serde(rename = "$schema", default)]
    _schema: Option<String>,
    version: u32,
    id: String,
    title: String,
    #[serde(default)]
    description: String,
    /// The name of the built-in run this one starts from.
    base: String,
    #[serde(default, deserialize_with = "optional_positive_turns")]
    max_turns: Option<NonZeroU32>,
    #[serde(default)]
    tool_errors: Option<ToolErrors>,
}

/// Opens a built-in run by name, or else a file in any format loopstep
/// reads (`from` forces one instead of recognising it), in English.
pub fn open(name_or_path: &str, from: Option<Format>) -> Result<Source, LoadError> {
    let how = Opening {
        from,
        ..Opening::default()
    };
    open_in(name_or_path, &how, Lang::En)
}

/// The largest file loopstep reads unless told otherwise: 1 GiB.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

/// How to open a file: in which format, up to what size, and where to
/// tell how far the reading has got.
#[derive(Debug, Clone, Copy)]
pub struct Opening<'a> {
    /// The format to read it as, instead of recognising it.
    pub from: Option<Format>,
    /// Bytes beyond which a file is refused rather than read.
    pub max_size: u64,
    pub progress: Option<&'a Progress>,
}

impl Default for Opening<'_> {
    fn default() -> Self {
        Opening {
            from: None,
            max_size: DEFAULT_MAX_SIZE,
            progress: None,
        }
    }
}

/// The same, with the texts that a native transcript gives in both
/// languages taken in `lang`.
pub fn open_in(name_or_path: &str, how: &Opening, lang: Lang) -> Result<Source, LoadError> {
    if let Some(found) = builtin_in(name_or_path, lang) {
        return Ok(Source {
            format: Format::Native,
            kind: "built-in run".to_owned(),
            runs: vec![found?],
            notes: Vec::new(),
        });
    }
    ensure_exists(name_or_path)?;
    let path = Path::new(name_or_path);
    if path.is_dir() {
        return sessions::open_project(path, how, lang);
    }
    let mut source = open_file(path, how, lang)?;
    if source.format == Format::ClaudeCode {
        sessions::add_subagents(path, &mut source, how, lang);
    }
    Ok(source)
}

/// A built-in run or a file in English, with the Chinese texts of a
/// native transcript (`None` for a recording, the same in both): every
/// file is read once, as a pipe or a FIFO can be read only once.
pub fn open_both(
    name_or_path: &str,
    how: &Opening,
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    if BUILTIN_NAMES.contains(&name_or_path) {
        let zh = open_in(name_or_path, how, Lang::Zh)?.runs;
        return Ok((open_in(name_or_path, how, Lang::En)?, Some(zh)));
    }
    ensure_exists(name_or_path)?;
    let path = Path::new(name_or_path);
    if path.is_dir() {
        return Ok((sessions::open_project(path, how, Lang::En)?, None));
    }
    let (mut source, zh) = open_file_with(path, how, |text, origin, name| {
        import::load_both(text, origin, name, how.from)
    })?;
    if source.format == Format::ClaudeCode {
        sessions::add_subagents(path, &mut source, how, Lang::En);
    }
    Ok((source, zh))
}

/// Reads and imports one file, named after its stem: a zip archive is an
/// Inspect `.eval` log, anything else text.
fn open_file(path: &Path, how: &Opening, lang: Lang) -> Result<Source, LoadError> {
    let load = |text, origin: &str, name: &str| {
        import::load(text, origin, name, how.from, lang).map(|source| (source, None))
    };
    open_file_with(path, how, load).map(|(source, _)| source)
}

/// Reads one file once, and imports it with `load` (its text, the file as
/// messages name it, the name its runs take) unless it is a zip archive.
fn open_file_with(
    path: &Path,
    how: &Opening,
    load: impl FnOnce(String, &str, &str) -> Result<(Source, Option<Vec<Transcript>>), LoadError>,
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    let bytes = read_file(path, how.max_size, how.progress)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".to_owned());
    let origin = path.display().to_string();
    if bytes.starts_with(b"PK\x03\x04") {
        let source = import::load_archive(&bytes, &origin, &name, how.max_size)?;
        return Ok((source, None));
    }
    let text = text_of(path, bytes)?;
    load(text, &origin, &name)
}

/// A run in both languages; most runs read the same in both, and are kept once.
#[derive(Debug, Clone, PartialEq)]
pub struct Localized {
    en: Transcript,
    /// The Chinese texts, when they differ from the English.
    zh: Option<Transcript>,
}

impl Localized {
    pub fn get(&self, lang: Lang) -> &Transcript {
        match (lang, &self.zh) {
            (Lang::Zh, Some(zh)) => zh,
            _ => &self.en,
        }
    }

    /// The run in each language it is kept in, to change in place.
    pub fn transcripts_mut(&mut self) -> impl Iterator<Item = &mut Transcript> {
        std::iter::once(&mut self.en).chain(self.zh.as_mut())
    }

    /// Every run of a source, in both languages: a native file's texts in
    /// each, a recording the same in both; a file read once.
    pub fn open(name_or_path: &str, how: &Opening) -> Result<Vec<Localized>, LoadError> {
        let (en, zh) = open_both(name_or_path, how)?;
        let Some(zh) = zh else {
            return Ok(en.runs.into_iter().map(Localized::from).collect());
        };
        Ok(en
            .runs
            .into_iter()
            .zip(zh)
            .map(|(en, zh)| {
                let zh = (zh != en).then_some(zh);
                Localized { en, zh }
            })
            .collect())
    }

    /// Every built-in run, in both languages, in the order of `BUILTIN_NAMES`.
    pub fn builtins() -> Result<Vec<Localized>, LoadError> {
        let mut runs = Vec::with_capacity(BUILTIN_NAMES.len());
        for name in BUILTIN_NAMES {
            runs.extend(Localized::open(name, &Opening::default())?);
        }
        Ok(runs)
    }
}

impl From<Transcript> for Localized {
    fn from(run: Transcript) -> Self {
        Localized { en: run, zh: None }
    }
}

/// `value` if validation found no problem, else every problem found.
fn valid<T>(value: T, problems: Vec<Problem>, origin: &str) -> Result<T, LoadError> {
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(LoadError::Invalid {
            origin: origin.to_owned(),
            problems,
        })
    }
}

/// The file's bytes, refused past `max_size` (an endless stream such as
/// `/dev/zero` included).
fn read_file(
    path: &Path,
    max_size: u64,
    progress: Option<&Progress>,
) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    /// Read this much at a time, to tell the progress as it goes.
    const CHUNK: u64 = 1 << 20;
    let read_error = |source| LoadError::Read {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let metadata = file.metadata().ok();
    let size = metadata.as_ref().map_or(0, |m| m.len());
    // A regular file says its size: one too large is refused unread. A
    // pipe or a device says nothing, and is read up to the limit.
    let too_large = || LoadError::TooLarge {
        path: path.to_owned(),
        max_size,
    };
    if metadata.as_ref().is_some_and(|m| m.is_file()) && size > max_size {
        return Err(too_large());
    }
    progress.inspect(|p| p.sized(size));
    // The whole file in one allocation when its size is known.
    let mut bytes = Vec::with_capacity(size.min(max_size) as usize + 1);
    let mut limited = file.take(max_size.saturating_add(1));
    while (&mut limited)
        .take(CHUNK)
        .read_to_end(&mut bytes)
        .map_err(read_error)?
        > 0
    {
        progress.inspect(|p| p.read(bytes.len() as u64));
    }
    if bytes.len() as u64 > max_size {
        return Err(too_large());
    }
    progress.inspect(|p| p.read_all());
    Ok(bytes)
}

/// The file's bytes as text, a leading byte-order mark dropped.
fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, LoadError> {
    let text = String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// One check a verified answer passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The answer matched the expected one.
    Answer(String),
    /// The run took the expected number of model calls.
    ModelCalls(usize),
    /// No tool reported an error.
    NoToolErrors,
    /// The harness's own goal check saw this tool succeed.
    GoalCheck(String),
}

/// One way an answer fell short of what the run expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "miss", rename_all = "snake_case")]
pub enum Miss {
    Answer {
        expected: String,
        got: String,
    },
    ModelCalls {
        expected: usize,
        took: usize,
    },
    ToolError {
        name: String,
        id: String,
        error: String,
    },
    /// The goal needs tools that worked, and none ran.
    NoToolRan,
}

/// The goal check: did the answer match what the transcript expects?
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verification {
    /// The transcript states no expectation, or the run gave no answer.
    NotChecked,
    /// Verified, with the evidence: each check that was run and passed.
    Verified(Vec<Evidence>),
    /// Answered, but not what was expected; each entry says how.
    NotVerified(Vec<Miss>),
}

impl Transcript {
    /// Parses native JSON that holds one transcript or an array of them,
    /// its texts in `lang`.
    pub fn parse_many(text: &str, origin: &str, lang: Lang) -> Result<Vec<Transcript>, LoadError> {
        if !text.trim_start().starts_with('[') {
            return Ok(vec![Transcript::parse_in(text, origin, lang)?]);
        }
        let localized = localized_text(text, origin, lang)?;
        let text = localized.as_deref().unwrap_or(text);
        let docs: Vec<serde_json::Value> = from_json(text, origin)?;
        let missing = docs
            .iter()
            .enumerate()
            .flat_map(|(i, doc)| required::missing(doc, &format!("[{i}]")))
            .collect();
        valid((), missing, origin)?;
        drop(docs);
        let runs: Vec<Transcript> = from_json(text, origin)?;
        let problems: Vec<Problem> = runs
            .iter()
            .enumerate()
            .flat_map(|(i, run)| {
                validate::problems(run).into_iter().map(move |p| {
                    let path = if p.path.is_empty() {
                        format!("[{i}]")
                    } else {
                        format!("[{i}].{}", p.path)
                    };
                    Problem::new(path, p.message)
                })
            })
            .collect();
        valid(runs, problems, origin)
    }

    /// Parses and validates JSON text, in English; `origin` names it in
    /// messages.
    pub fn parse(text: &str, origin: &str) -> Result<Transcript, LoadError> {
        Transcript::parse_in(text, origin, Lang::En)
    }

    /// The same, with texts given in both languages taken in `lang`.
    pub fn parse_in(text: &str, origin: &str, lang: Lang) -> Result<Transcript, LoadError> {
        let localized = localized_text(text, origin, lang)?;
        let text = localized.as_deref().unwrap_or(text);
        let top: serde_json::Value = from_json(text, origin)?;
        let Some(fields) = top.as_object() else {
            return Err(LoadError::one_problem(
                origin,
                "",
                format!(
                    "a transcript is a JSON object, but this file holds {}",
                    json_kind(&top)
                ),
            ));
        };
        // A scenario is recognised by its `base` field; it borrows a built-in run.
        let transcript = if fields.contains_key("base") {
            let scenario: Scenario = from_json(text, origin)?;
            scenario.apply(origin, lang)?
        } else {
            valid((), required::missing(&top, ""), origin)?;
            from_json(text, origin)?
        };
        let problems = validate::problems(&transcript);
        valid(transcript, problems, origin)
    }

    /// Replays the run through the real loop with the scripted model; a tool
    /// call that cannot run is answered in English.
    pub fn replay(&self, config: Config) -> Trace {
        self.replay_in(config, Lang::En)
    }

    /// Replays the run, answering a tool call that cannot run in `lang`, the
    /// language the class reads the run in.
    pub fn replay_in(&self, config: Config, lang: Lang) -> Trace {
        self.start(config, lang).into_trace()
    }

    /// The step a replay ends with, the steps before it let go as they go:
    /// for a check that needs only how the run ends.
    pub fn last_step_in(&self, config: Config, lang: Lang) -> Option<crate::engine::Step> {
        self.start(config, lang).last()
    }

    /// The same replay, computed only as far as it is looked at; its budget
    /// can change as it goes.
    pub fn replay_lazily(&self, config: Config, lang: Lang) -> LazyReplay<'_> {
        Replay::new(config, move |config| self.start(config, lang))
    }

    /// The loop set up for this run, before its first step.
    fn start(&self, config: Config, lang: Lang) -> Run<ScriptedModel<'_>, ReplayTools<'_>> {
        let model = ScriptedModel::new(&self.replies, config.dialect)
            .repeating_last(self.repeat_last_reply)
            .tolerating_breaks(self.recorded && config.mistake.is_none());
        let words = Box::new(Say::new(lang, config.dialect));
        let tools = ReplayTools::new(&self.tools, &self.environment, &self.results, words);
        Run::new(model, tools, self.opening(), config)
            .with_insertions(self.inserted.clone())
            .with_goal(self.goal.clone())
            .with_ending(self.ending.clone())
    }

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

    /// The conversation as the first call sends it: history, then the question.
    pub fn opening(&self) -> Vec<Message> {
        let mut messages = Vec::with_capacity(self.history.messages().len() + 1);
        messages.extend_from_slice(self.history.messages());
        messages.push(Message::user_text(&self.question));
        messages
    }

    /// The API the run speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
            .unwrap_or_else(|| Dialect::guess(self.replies.iter().map(|r| r.stop_reason.as_str())))
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

    pub fn verify(&self, trace: TraceView<'_>) -> Verification {
        let (Some(expect), Some(answer)) = (&self.expect, trace.result()) else {
            return Verification::NotChecked;
        };
        let mut misses = Vec::new();
        let mut evidence = Vec::new();
        if let Some(wanted) = &expect.answer {
            if answer.trim() == wanted.trim() {
                evidence.push(Evidence::Answer(wanted.clone()));
            } else {
                misses.push(Miss::Answer {
                    expected: wanted.clone(),
                    got: answer.to_owned(),
                });
            }
        }
        if let Some(wanted) = expect.model_calls {
            if trace.model_calls() == wanted {
                evidence.push(Evidence::ModelCalls(wanted));
            } else {
                misses.push(Miss::ModelCalls {
                    expected: wanted,
                    took: trace.model_calls(),
                });
            }
        }
        if expect.no_tool_errors {
            let before = misses.len();
            for step in trace.steps {
                if let Event::Dispatch {
                    id, name, output, ..
                } = &step.event
                    && output.is_error
                {
                    misses.push(Miss::ToolError {
                        name: name.clone(),
                        id: id.clone(),
                        error: output.content.to_string(),
                    });
                }
            }
            // No tool at all is no evidence that the work was done.
            if trace.tool_calls() == 0 {
                misses.push(Miss::NoToolRan);
            } else if misses.len() == before {
                evidence.push(Evidence::NoToolErrors);
            }
        }
        if let Some(goal) = &self.goal {
            evidence.push(Evidence::GoalCheck(goal.tool_succeeded.clone()));
        }
        if misses.is_empty() && !evidence.is_empty() {
            Verification::Verified(evidence)
        } else if misses.is_empty() {
            Verification::NotChecked
        } else {
            Verification::NotVerified(misses)
        }
    }
}

impl Scenario {
    fn apply(self, origin: &str, lang: Lang) -> Result<Transcript, LoadError> {
        let Some(base) = builtin_in(&self.base, lang) else {
            return Err(LoadError::one_problem(
                origin,
                "base",
                format!(
                    "`{}` is not a built-in run; choose one of: {}",
                    self.base,
                    BUILTIN_NAMES.join(", ")
                ),
            ));
        };
        let base = base?;
        Ok(Transcript {
            version: self.version,
            id: self.id,
            title: self.title,
            description: self.description,
            max_turns: self.max_turns.unwrap_or(base.max_turns),
            tool_errors: self.tool_errors.unwrap_or(base.tool_errors),
            ..base
        })
    }
}

/// The JSON text with its localised texts taken in `lang`, when it has
/// any; `None` when it is already plain (so errors keep their lines).
fn localized_text(text: &str, origin: &str, lang: Lang) -> Result<Option<String>, LoadError> {
    let mut doc: serde_json::Value = from_json(text, origin)?;
    let changed = match &mut doc {
        serde_json::Value::Array(runs) => runs
            .iter_mut()
            .fold(false, |any, run| localize::localize(run, lang) | any),
        one => localize::localize(one, lang),
    };
    Ok(changed.then(|| serde_json::to_string_pretty(&doc).unwrap_or_default()))
}

pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

fn from_json<T: for<'de> Deserialize<'de>>(text: &str, origin: &str) -> Result<T, LoadError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        LoadError::from_json(origin, path, e.into_inner())
    })?;
    deserializer
        .end()
        .map_err(|e| LoadError::from_json(origin, String::new(), e))?;
    Ok(value)
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn positive_turns<'de, D: Deserializer<'de>>(d: D) -> Result<NonZeroU32, D::Error> {
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

fn optional_positive_turns<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<NonZeroU32>, D::Error> {
    positive_turns(d).map(Some)
}
