//! Many runs cut from one log, written with their history once.
//!
//! Each prompt of a long chat is a run whose history is everything before
//! it; written out one run at a time, a chat of n prompts would hold n
//! copies of its start, and grow with n². This form writes each shared
//! list of messages once, under `histories`, and each run's `history`
//! names its part of one of them:
//!
//! ```json
//! { "version": 1,
//!   "histories": [[ {"role": "user", "content": "hi"}, … ]],
//!   "runs": [ { …, "history": {"shared": 0, "from": 0, "to": 2}, … } ] }
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{LoadError, Problem, Transcript, Why, localize, required, validate};
use crate::engine::{History, Log, Message};
use crate::lang::Lang;

/// A run's part of a shared history: messages `from` up to `to` of the
/// list numbered `shared`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    shared: usize,
    from: usize,
    to: usize,
}

/// The file, its runs still JSON until their histories are put in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SharedFile {
    #[serde(rename = "$schema", default)]
    _schema: Option<String>,
    version: u32,
    histories: Vec<Vec<Message>>,
    runs: Vec<Value>,
}

/// Whether a native document is in this form: an object with `runs`.
pub fn is_shared(doc: &Value) -> bool {
    doc.get("runs").is_some()
}

/// The runs of a document in this form, their texts in `lang`; every
/// problem of every run, each at its path.
pub fn parse(doc: Value, origin: &str, lang: Lang) -> Result<Vec<Transcript>, LoadError> {
    let file: SharedFile = serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        LoadError::from_json(origin, path, e.into_inner())
    })?;
    let mut problems = Vec::new();
    if file.version != super::FORMAT_VERSION {
        problems.push(Problem::new(
            "version",
            Why::Version {
                found: file.version,
            },
        ));
    }
    let logs: Vec<Arc<Log>> = file.histories.into_iter().map(Log::new).collect();
    let mut runs = Vec::with_capacity(file.runs.len());
    for (i, run) in file.runs.into_iter().enumerate() {
        match read_run(run, &logs, &format!("runs[{i}]"), lang) {
            Ok(run) => runs.push(run),
            Err(mut found) => problems.append(&mut found),
        }
    }
    super::native::valid(runs, problems, origin)
}

/// One run, its history taken from `logs` when it names a part of one.
fn read_run(
    mut run: Value,
    logs: &[Arc<Log>],
    at: &str,
    lang: Lang,
) -> Result<Transcript, Vec<Problem>> {
    let problem = |path: &str, why: Why| Problem::new(format!("{at}.{path}"), why);
    let part = match run.get("history") {
        Some(Value::Object(_)) => {
            let value = run.as_object_mut().and_then(|r| r.remove("history"));
            let part = serde_json::from_value::<Part>(value.unwrap_or_default())
                .map_err(|e| vec![problem("history", Why::Parser(e.to_string()))])?;
            Some(part)
        }
        _ => None,
    };
    localize::localize(&mut run, lang);
    let missing = required::missing(&run, at);
    if !missing.is_empty() {
        return Err(missing);
    }
    let mut transcript: Transcript = serde_path_to_error::deserialize(run).map_err(|e| {
        let why = Why::Parser(e.inner().to_string());
        vec![problem(&e.path().to_string(), why)]
    })?;
    if let Some(part) = part {
        let log = logs.get(part.shared).ok_or_else(|| {
            vec![problem(
                "history.shared",
                Why::SharedHistoryMissing {
                    shared: part.shared,
                    count: logs.len(),
                },
            )]
        })?;
        let len = log.messages().len();
        if part.from > part.to || part.to > len {
            return Err(vec![problem(
                "history",
                Why::NotPartOfHistory {
                    from: part.from,
                    to: part.to,
                    shared: part.shared,
                    len,
                },
            )]);
        }
        transcript.history = History::between(log, part.from, part.to);
    }
    let problems: Vec<Problem> = validate::problems(&transcript)
        .into_iter()
        .map(|p| match p.path.is_empty() {
            true => Problem::new(at.to_owned(), p.why),
            false => problem(&p.path, p.why),
        })
        .collect();
    if problems.is_empty() {
        Ok(transcript)
    } else {
        Err(problems)
    }
}

/// Runs as the native format writes them: one run as itself, runs that
/// share a history in this form, others as an array. Serialized straight
/// to text, never through a JSON tree.
pub enum Native<'a> {
    One(&'a Transcript),
    Many(&'a [Transcript]),
    Shared {
        histories: Vec<&'a [Message]>,
        runs: Vec<SharedRun<'a>>,
    },
}

/// A run of the shared form: its history written as its part of a shared
/// one.
#[derive(Serialize)]
pub struct SharedRun<'a> {
    #[serde(flatten)]
    run: Cow<'a, Transcript>,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<Part>,
}

/// The runs in the form they are written in.
pub fn native(runs: &[Transcript]) -> Native<'_> {
    if let [one] = runs {
        return Native::One(one);
    }
    // Each shared log once, numbered in the order the runs first use it,
    // written up to the furthest message a run's history reaches.
    let mut numbers: HashMap<*const Log, usize> = HashMap::new();
    let mut logs: Vec<(&Arc<Log>, usize)> = Vec::new();
    for run in runs.iter().filter(|r| !r.history.is_empty()) {
        let log = run.history.log();
        let number = *numbers.entry(Arc::as_ptr(log)).or_insert_with(|| {
            logs.push((log, 0));
            logs.len() - 1
        });
        logs[number].1 = logs[number].1.max(run.history.range().end);
    }
    let shares = runs.iter().filter(|r| !r.history.is_empty()).count() > logs.len();
    if !shares {
        return Native::Many(runs);
    }
    let histories = logs
        .iter()
        .map(|(log, end)| &log.messages()[..*end])
        .collect();
    let runs = runs
        .iter()
        .map(|run| match run.history.is_empty() {
            true => SharedRun {
                run: Cow::Borrowed(run),
                history: None,
            },
            // Without its history, which is written once above.
            false => SharedRun {
                run: Cow::Owned(Transcript {
                    history: History::default(),
                    ..run.clone()
                }),
                history: Some(Part {
                    shared: numbers[&Arc::as_ptr(run.history.log())],
                    from: run.history.range().start,
                    to: run.history.range().end,
                }),
            },
        })
        .collect();
    Native::Shared { histories, runs }
}

impl Serialize for Native<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match self {
            Native::One(run) => run.serialize(s),
            Native::Many(runs) => runs.serialize(s),
            Native::Shared { histories, runs } => {
                let mut file = s.serialize_struct("Shared", 3)?;
                file.serialize_field("version", &super::FORMAT_VERSION)?;
                file.serialize_field("histories", histories)?;
                file.serialize_field("runs", runs)?;
                file.end()
            }
        }
    }
}

/// The runs as native JSON, as [`native`] writes them.
pub fn to_json(runs: &[Transcript]) -> serde_json::Result<Value> {
    serde_json::to_value(native(runs))
}
