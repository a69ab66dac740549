//! Small builders for transcripts used across the integration tests.
#![allow(dead_code)] // each test crate uses its own subset

pub mod generated;
pub mod markdown;
pub mod screen;

use loopstep::engine::{EndedBy, Ending, Event, Outcome, ToolOutput, Trace};
use loopstep::transcript::{LoadError, Source, Transcript, open};
use serde_json::{Value, json};

/// Every tool call the loop ran, in order: (tool name, input, output).
pub fn dispatched(trace: &Trace) -> Vec<(&str, &Value, &ToolOutput)> {
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Dispatch {
                name,
                input,
                output,
                ..
            } => Some((name.as_str(), input, output)),
            _ => None,
        })
        .collect()
}

/// A reply asking for the given tools, each `(id, name, input)`.
pub fn asks(calls: &[(&str, &str, Value)]) -> Value {
    asks_with_stop("tool_use", calls)
}

pub fn asks_with_stop(stop_reason: &str, calls: &[(&str, &str, Value)]) -> Value {
    let content: Vec<Value> = calls
        .iter()
        .map(
            |(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}),
        )
        .collect();
    json!({"content": content, "stop_reason": stop_reason})
}

pub fn says(text: &str, stop_reason: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "stop_reason": stop_reason})
}

/// A transcript with a `search` tool over two pages and the given replies.
pub fn search_run(replies: Vec<Value>, max_turns: u32) -> Transcript {
    let doc = search_doc(replies, max_turns);
    Transcript::parse(&doc.to_string(), "test transcript").expect("test transcript is valid")
}

pub fn search_doc(replies: Vec<Value>, max_turns: u32) -> Value {
    json!({
        "version": 1,
        "id": "test",
        "title": "test",
        "question": "In which year was the director of Aurora Run born?",
        "model": "test-model",
        "max_turns": max_turns,
        "tools": [{"name": "search"}],
        "replies": replies,
        "environment": {"search": {"kind": "search", "pages": [
            {"title": "Aurora Run", "text": "A 2011 film directed by Mara Voss."},
            {"title": "Mara Voss", "text": "Mara Voss, film director, born 1974."}
        ]}}
    })
}

/// Opens `bytes` written to a file of their own, named after `name`, as
/// loopstep opens any file; the file is gone again afterwards.
pub fn open_written(name: &str, bytes: impl AsRef<[u8]>) -> Result<Source, LoadError> {
    let path = std::env::temp_dir().join(format!("loopstep-{name}-{}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let source = open(path.to_str().unwrap(), None);
    std::fs::remove_file(&path).unwrap();
    source
}

/// What `loopstep export ARGS -o -` writes to standard output; the export
/// must succeed.
pub fn exported(args: &[&str]) -> String {
    printed(&[&["export"], args, &["-o", "-"]].concat())
}

/// What `loopstep ARGS` writes to standard output; the command must
/// succeed.
pub fn printed(args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("loopstep writes UTF-8")
}

/// The path of a file under `tests/fixtures`.
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fixture opened as loopstep opens any file, in the format it is
/// recognised as.
pub fn load(name: &str) -> Source {
    open(&fixture(name), None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What the replay of every run of a source adds up to, each run under
/// its own recorded settings.
#[derive(Debug, PartialEq, Eq)]
pub struct Counted {
    pub runs: usize,
    pub model_calls: usize,
    pub tool_calls: usize,
    /// The outcome of each run, by its label (`answered`, `recording_ended`…).
    pub outcomes: Vec<&'static str>,
}

pub fn counted(source: &Source) -> Counted {
    let traces: Vec<Trace> = source
        .runs
        .iter()
        .map(|run| run.replay(run.default_config()))
        .collect();
    Counted {
        runs: traces.len(),
        model_calls: traces.iter().map(Trace::model_calls).sum(),
        tool_calls: traces.iter().map(Trace::tool_calls).sum(),
        outcomes: traces
            .iter()
            .map(|t| t.outcome().map_or("running", |o| o.label()))
            .collect(),
    }
}

/// What each tool the replay dispatched gave back, in order.
pub fn results(trace: &Trace) -> Vec<String> {
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            loopstep::engine::Event::Dispatch { output, .. } => Some(output.content.to_string()),
            _ => None,
        })
        .collect()
}

/// The status of a run its agent ended, as the agent's log gives it.
pub fn agent_status(trace: &Trace) -> Option<&str> {
    match trace.outcome()? {
        Outcome::Ended(Ending {
            by: EndedBy::Agent,
            status,
            ..
        }) => Some(status),
        _ => None,
    }
}

/// What a command did, whatever its exit.
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `loopstep ARGS`, run to its end.
pub fn ran(args: &[&str]) -> Ran {
    let out = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    Ran {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh folder of this name under the tests' scratch space.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
