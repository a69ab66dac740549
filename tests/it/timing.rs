//! Times as recorded: when each call and tool started and how long it
//! took, read from the logs that have timestamps, carried into the steps,
//! and absent (unchanged) where a recording has none.

use crate::common;
use crate::common::load;

use common::open_written;
use common::screen::{drive, rows, same_in_both};
use loopstep::engine::{Event, Phase, Timing, Trace};
use loopstep::narrate::Lang;
use loopstep::transcript::Source;
use loopstep::tui::{App, Settings, theme};
use ratatui::buffer::Buffer;
use serde_json::{Value, json};

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
    let source = load("real/openhands-todo-app.json");
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

#[test]
fn a_codex_rollout_times_each_call_and_tool_from_its_line_timestamps() {
    // The prompt's last line is at 16:39:45.350, the first reply's
    // function_call at 49.666, its output at 49.777; and so on.
    let trace = replayed(&load("real/codex-rollout-cut-short.jsonl"), 0);
    assert_eq!(
        times(&trace),
        [
            ("call", Some(4316)),
            ("tool", Some(111)),
            ("call", Some(3976)),
            ("tool", Some(400)),
            ("call", Some(4521)),
            ("tool", Some(134)),
        ]
    );
    let answered = replayed(&load("real/codex-rollout-redacted.jsonl"), 0);
    assert_eq!(times(&answered), [("call", Some(3175))]);
}

#[test]
fn an_inspect_log_times_each_call_and_tool_from_its_events() {
    // The first model event: 20:27:38.462180-04:00 to 20:27:39.697159;
    // the first tool event: 20:27:39.762878 to 20:27:44.080452.
    let trace = replayed(&load("real/inspect-browser.json"), 0);
    assert_eq!(
        times(&trace),
        [
            ("call", Some(1235)),
            ("tool", Some(4318)),
            ("call", Some(807)),
            ("tool", Some(1278)),
            ("call", Some(847)),
            ("tool", Some(2994)),
            ("call", Some(754)),
            ("tool", Some(1270)),
            ("call", Some(4636)),
        ]
    );
}

/// A Claude Code session of our own: a reply in two lines, 4.2 and 5 s
/// after the prompt, a tool that ran 40 s, then a call of 1.5 s; one
/// line's time is garbled, which leaves just that step untimed.
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
            ("call", Some(5000)),
            ("tool", Some(40_000)),
            ("call", Some(1500)),
            // The result's time is unreadable: the tool is untimed, and the
            // next call is timed from the last line that had a time.
            ("tool", None),
            ("call", Some(3500)),
        ]
    );
}

/// A native run: a search call at 12:00:03.120 that took 4.2 s, its tool
/// at 12:00:07.320 that ran `tool_seconds`, then an answer timed `answer`.
fn timed_run(name: &str, tool_seconds: f64, answer: Option<Value>) -> Source {
    let mut answered =
        json!({"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"});
    if let Some(time) = answer {
        answered["time"] = time;
    }
    let doc = json!({
        "version": 1, "id": "t", "title": "t", "question": "q", "model": "m", "max_turns": 3,
        "tools": [{"name": "search"}],
        "replies": [
            {"content": [{"type": "tool_use", "id": "a", "name": "search", "input": {}}],
             "stop_reason": "tool_use",
             "time": {"started": "2025-06-01T12:00:03.120Z", "seconds": 4.2}},
            answered
        ],
        "results": {"a": {"content": "x",
            "time": {"started": "2025-06-01T12:00:07.320Z", "seconds": tool_seconds}}}
    });
    open_written(name, doc.to_string()).unwrap()
}

#[test]
fn a_native_transcript_carries_times_into_its_steps_and_writes_them_back() {
    let source = timed_run("timed.json", 31.0, None);
    let trace = replayed(&source, 0);
    assert_eq!(
        times(&trace),
        [("call", Some(4200)), ("tool", Some(31_000)), ("call", None)]
    );
    let steps = serde_json::to_value(&trace.steps).unwrap();
    assert_eq!(
        steps[1]["time"],
        json!({"started": "2025-06-01T12:00:03.120Z", "seconds": 4.2})
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

/// The screen on an imported run, `steps` steps in, at 120×40, in `lang`.
fn screen_at(source: &Source, lang: Lang, steps: usize) -> (Vec<String>, Buffer) {
    let runs = same_in_both(source.runs.clone());
    let settings = Settings {
        lang,
        ..Settings::default()
    };
    let mut app = App::new(&runs, 0, settings);
    let terminal = drive(&mut app, 120, 40, &vec!["Right"; steps]);
    let buffer = terminal.backend().buffer().clone();
    (rows(&buffer), buffer)
}

/// The index of the last step of the phase.
fn last_of(trace: &Trace, phase: Phase) -> usize {
    let at = trace.steps.iter().rposition(|s| s.event.phase() == phase);
    at.unwrap()
}

#[test]
fn the_detail_shows_when_a_call_and_a_tool_started_and_marks_a_long_one() {
    let source = load("real/openhands-todo-app.json");
    let (screen, _) = screen_at(&source, Lang::En, 1);
    let text = screen.join("\n");
    assert!(text.contains("started 20:29:32 · took 2.8 s"), "{text}");
    assert!(!text.contains("(long)"), "{text}");
    let last_tool = last_of(&replayed(&source, 0), Phase::Dispatch);
    let (screen, buffer) = screen_at(&source, Lang::En, last_tool);
    let text = screen.join("\n");
    assert!(
        text.contains("started 20:29:59 · took 30.6 s (long)"),
        "{text}"
    );
    let (row, line) = screen
        .iter()
        .enumerate()
        .find(|(_, r)| r.contains("took 30.6 s"))
        .unwrap();
    let column = line.find("started").unwrap();
    let cell = &buffer[(line[..column].chars().count() as u16, row as u16)];
    let slow = Settings::default().theme.ink(theme::SLOW.fg.unwrap());
    assert_eq!(cell.fg, slow, "the long tool stands out");
    // What the budget does not bound, said where a tool took long.
    assert!(
        text.contains("max_turns counts") && text.contains("model calls, not time"),
        "{text}"
    );
    let (screen, _) = screen_at(&source, Lang::Zh, last_tool);
    let text = screen.join("\n");
    assert!(
        text.contains("开始于 20:29:59 · 用时 30.6 秒（较长）"),
        "{text}"
    );
    assert!(
        text.contains("max_turns 只限制") && text.contains("不限制时间"),
        "{text}"
    );
}

#[test]
fn a_long_pause_before_a_step_is_told_in_its_detail() {
    // The second call starts 50 s after the tool before it ended.
    let answered = json!({"started": "2025-06-01T12:01:00Z", "seconds": 1});
    let source = timed_run("paused.json", 2.68, Some(answered));
    let second_call = last_of(&replayed(&source, 0), Phase::Call);
    let (screen, _) = screen_at(&source, Lang::En, second_call);
    let text = screen.join("\n");
    assert!(
        text.contains("started 12:01:00 · took 1.0 s · after a 50.0 s pause"),
        "{text}"
    );
    let (screen, _) = screen_at(&source, Lang::Zh, second_call);
    assert!(screen.join("\n").contains("此前停顿 50.0 秒"), "{screen:?}");
}

#[test]
fn an_untimed_run_shows_no_time() {
    let source = load("real/openhands-rename.json");
    let mut untimed = source.runs[0].clone();
    for reply in &mut untimed.replies {
        reply.time = None;
    }
    let stripped = Source {
        runs: vec![untimed],
        ..source
    };
    let (screen, _) = screen_at(&stripped, Lang::En, 1);
    assert!(!screen.join("\n").contains("started"), "{screen:?}");
}

#[test]
fn the_timeline_marks_a_step_that_took_long() {
    let source = load("real/openhands-todo-app.json");
    let trace = replayed(&source, 0);
    let (long_tool, end) = (last_of(&trace, Phase::Dispatch), trace.steps.len() - 1);
    let (screen, buffer) = screen_at(&source, Lang::En, end);
    let row = screen.iter().position(|r| r.contains(" steps ")).unwrap();
    let label = screen[row].find(" steps ").unwrap() + " steps ".len();
    let first_mark = screen[row][..label].chars().count();
    let ink = |step: usize| buffer[((first_mark + step) as u16, row as u16)].fg;
    let slow = Settings::default().theme.ink(theme::SLOW.fg.unwrap());
    assert_eq!(ink(long_tool), slow, "{}", screen[row]);
    assert_ne!(ink(long_tool - 4), slow, "a quick tool is not marked");
}

#[test]
fn run_says_how_long_each_timed_call_and_tool_took() {
    let path = format!(
        "{}/tests/fixtures/real/openhands-todo-app.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::printed(&["run", &path]);
    let call = out.lines().find(|l| l.contains("request #1:")).unwrap();
    assert!(call.ends_with("tool_calls · took 2.8 s"), "{call}");
    let zh = common::printed(&["run", &path, "--lang", "zh"]);
    assert!(zh.contains(" · 用时 30.6 秒"), "{zh}");
    let untimed = common::printed(&["run", "aurora-run"]);
    assert!(!untimed.contains("took"), "{untimed}");
}
