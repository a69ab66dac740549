//! Times as recorded: when each call and tool started and how long it
//! took, read from the logs that have timestamps, carried into the steps,
//! and absent (unchanged) where a recording has none.

mod common;

use common::open_written;
use loopstep::engine::{Event, Timing, Trace};
use loopstep::transcript::{Source, open};

fn fixture(name: &str) -> Source {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    open(&path, None).unwrap()
}

fn replayed(source: &Source, run: usize) -> Trace {
    let run = &source.runs[run];
    run.replay(run.default_config())
}

/// Each call's and each tool's recorded time, in milliseconds, in order,
/// as `("call", ms)` / `("tool", ms)`; an untimed step is `None`.
fn times(trace: &Trace) -> Vec<(&'static str, Option<u64>)> {
    let ms = |t: &Option<Timing>| t.as_ref().map(|t| t.millis);
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Call { time, .. } => Some(("call", ms(time))),
            Event::Dispatch { output, .. } => Some(("tool", ms(&output.time))),
            _ => None,
        })
        .collect()
}

#[test]
fn an_openhands_run_times_each_call_and_tool_from_its_event_timestamps() {
    let source = fixture("real/openhands-todo-app.json");
    let trace = replayed(&source, 0);
    // Event 6 (20:29:32.289) to the first action (20:29:35.040): the call;
    // that action to its observation (20:29:35.699): the tool. The last
    // command ran from 20:29:59.282 to 20:30:29.862, over half a minute.
    assert_eq!(
        times(&trace),
        [
            ("call", Some(2751)),
            ("tool", Some(659)),
            ("call", Some(13_226)),
            ("tool", Some(42)),
            ("call", Some(7932)),
            ("tool", Some(34)),
            ("call", Some(2349)),
            ("tool", Some(30_580)),
            ("call", Some(5552)),
        ]
    );
    let Event::Call {
        time: Some(first), ..
    } = &trace.steps[1].event
    else {
        panic!("{:?}", trace.steps[1]);
    };
    assert_eq!(first.started.as_str(), "2025-01-20T20:29:32.289136");
    assert_eq!(first.started.clock(), "20:29:32");
}

/// A Claude Code session of our own: a reply 4.2 s after the prompt, a
/// tool that ran 40 s, then an answer 1.5 s after its result; one line's
/// time is garbled, which leaves just that step untimed.
const CLAUDE_CODE: &str = r#"{"type": "user", "timestamp": "2026-11-02T10:00:00.000Z", "message": {"role": "user", "content": "How big is the repo?"}}
{"type": "assistant", "timestamp": "2026-11-02T10:00:04.200Z", "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "Counting."}], "stop_reason": null}}
{"type": "assistant", "timestamp": "2026-11-02T10:00:05.000Z", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "du -sh"}}], "stop_reason": "tool_use"}}
{"type": "user", "timestamp": "2026-11-02T10:00:45.000Z", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "12M"}]}}
{"type": "assistant", "timestamp": "2026-11-02T10:00:46.500Z", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "ls"}}], "stop_reason": "tool_use"}}
{"type": "user", "timestamp": "half past ten", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "src"}]}}
{"type": "assistant", "timestamp": "2026-11-02T10:00:50.000+00:00", "message": {"id": "m3", "role": "assistant", "content": [{"type": "text", "text": "12M."}], "stop_reason": "end_turn"}}
"#;

#[test]
fn a_claude_code_session_times_calls_from_the_line_before_and_tools_from_their_request() {
    let source = open_written("timed.jsonl", CLAUDE_CODE).unwrap();
    let trace = replayed(&source, 0);
    assert_eq!(
        times(&trace),
        [
            ("call", Some(4200)),
            ("tool", Some(40_000)),
            ("call", Some(1500)),
            // The result's time is unreadable: the tool is untimed, and the
            // next call is timed from the last line that had a time.
            ("tool", None),
            ("call", Some(3500)),
        ]
    );
}

#[test]
fn a_native_transcript_carries_times_into_its_steps_and_writes_them_back() {
    let doc = r#"{"version": 1, "id": "t", "title": "t", "question": "q", "model": "m", "max_turns": 3,
        "tools": [{"name": "search"}],
        "replies": [
            {"content": [{"type": "tool_use", "id": "a", "name": "search", "input": {}}], "stop_reason": "tool_use",
             "time": {"started": "2025-06-01T12:00:03.120Z", "seconds": 4.2}},
            {"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"}
        ],
        "results": {"a": {"content": "x", "time": {"started": "2025-06-01T12:00:07.320Z", "seconds": 31}}}}"#;
    let source = open_written("timed.json", doc).unwrap();
    let trace = replayed(&source, 0);
    assert_eq!(
        times(&trace),
        [("call", Some(4200)), ("tool", Some(31_000)), ("call", None)]
    );
    let steps = serde_json::to_value(&trace.steps).unwrap();
    assert_eq!(
        steps[1]["time"],
        serde_json::json!({"started": "2025-06-01T12:00:03.120Z", "seconds": 4.2})
    );
    assert_eq!(steps[3]["output"]["time"]["seconds"], 31.0);
    assert!(steps[5].get("time").is_none(), "untimed: no field");
    let written = serde_json::to_string(&source.runs[0]).unwrap();
    assert!(written.contains(r#""time":{"started":"2025-06-01T12:00:03.120Z","seconds":4.2}"#));
}

#[test]
fn a_native_transcript_with_a_bad_time_is_refused_with_the_reason() {
    let doc = r#"{"version": 1, "id": "t", "title": "t", "question": "q", "model": "m", "max_turns": 3,
        "replies": [{"content": [{"type": "text", "text": "a"}], "stop_reason": "end_turn",
                     "time": {"started": "at noon", "seconds": 1}}]}"#;
    let error = open_written("badtime.json", doc).unwrap_err().to_string();
    assert!(error.contains("RFC 3339"), "{error}");
}
