//! Agent trajectories replayed to their end: SWE-agent `.traj` files and
//! Codex CLI rollouts (real ones, see fixtures/real/SOURCES.md), and
//! mini-swe-agent's two formats.

use crate::common;
use crate::common::load;

use common::{agent_status, open_written, results};
use loopstep::dialect::Dialect;
use loopstep::engine::{Event, Outcome, RequestRule, Trace};
use loopstep::transcript::{Format, Note, open};

/// The one run of a trajectory, replayed as recorded, and its notes.
fn replayed(name: &str) -> (Trace, Vec<String>) {
    let source = load(name);
    assert_eq!(source.format, Format::Trajectory, "{name}");
    assert_eq!(source.runs.len(), 1, "{name}: one task, one run");
    let run = &source.runs[0];
    assert_eq!(run.dialect(), Dialect::OpenaiChat, "{name}");
    let notes = source.notes.iter().chain(&run.notes).map(Note::to_string);
    (run.replay(run.default_config()), notes.collect())
}

/// The run made these (model calls, tool calls) and answered with a text
/// that starts so.
fn assert_answered(trace: &Trace, calls: (usize, usize), start: &str) {
    assert_eq!((trace.model_calls(), trace.tool_calls()), calls);
    let answer = trace.result().unwrap_or_default();
    assert!(answer.starts_with(start), "{answer}");
}

fn tolerated_rules(trace: &Trace) -> Vec<RequestRule> {
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Call {
                tolerated: Some(broken),
                ..
            } => Some(broken.rule),
            _ => None,
        })
        .collect()
}

#[test]
fn a_swe_agent_run_with_function_calls_replays_every_call_and_its_exit_status() {
    let (trace, _) = replayed("real/swe-agent-function-calling.traj");
    // `history` holds 4 replies; `trajectory` has 5 steps, the fifth the
    // `submit` (its response and the diff it printed) written there only.
    assert_eq!((trace.model_calls(), trace.tool_calls()), (5, 5));
    assert_eq!(agent_status(&trace), Some("submitted"));
    let submitted = common::dispatched(&trace).last().map(|(_, input, output)| {
        (
            input["command"].clone(),
            output.content.trim_start().starts_with("diff --git"),
        )
    });
    assert_eq!(submitted, Some((serde_json::json!("submit"), true)));
    assert!(tolerated_rules(&trace).is_empty());
}

#[test]
fn a_swe_agent_run_that_reused_tool_call_ids_replays_all_eleven_turns_with_notes() {
    let (trace, notes) = replayed("real/swe-agent-reused-ids.traj");
    assert_eq!((trace.model_calls(), trace.tool_calls()), (11, 11));
    assert_eq!(agent_status(&trace), Some("submitted"));
    // Five replies reuse an id of an earlier call: each is noted in the
    // request that first sends it.
    assert_eq!(
        tolerated_rules(&trace),
        [RequestRule::DuplicateCallIds; 5],
        "each request that reuses an id is noted where it is sent"
    );
    assert!(notes.iter().any(|n| n.contains("is used more than once")));
    // Every call was answered by its own recorded result, none reported missing.
    assert!(
        !notes.iter().any(|n| n.contains("no recorded result")),
        "{notes:?}"
    );
    let last = trace
        .steps
        .iter()
        .rev()
        .find_map(|s| match &s.event {
            Event::Dispatch { output, .. } => Some(output.content.clone()),
            _ => None,
        })
        .unwrap();
    assert!(last.contains("diff --git"), "the submit call gets the diff");
}

#[test]
fn a_legacy_swe_agent_run_turns_its_actions_into_tool_calls_and_skips_the_demo() {
    let (trace, notes) = replayed("real/swe-agent-legacy-actions.traj");
    assert_eq!((trace.model_calls(), trace.tool_calls()), (12, 12));
    assert!(
        notes.iter().any(|n| n.contains("demonstration")),
        "{notes:?}"
    );
    let first = trace.steps.iter().find_map(|s| match &s.event {
        Event::Dispatch { name, input, .. } => Some((name.clone(), input.clone())),
        _ => None,
    });
    let (name, input) = first.unwrap();
    assert_eq!(name, "bash");
    assert!(
        input.to_string().contains("create reproduce_bug.py"),
        "{input}"
    );
}

#[test]
fn mini_swe_agent_bash_blocks_become_calls_answered_by_the_next_message() {
    let (trace, notes) = replayed("mini-swe-agent-v1.traj.json");
    assert_eq!((trace.model_calls(), trace.tool_calls()), (3, 3));
    assert_eq!(agent_status(&trace), Some("Submitted"));
    assert!(notes.is_empty(), "{notes:?}");
    let outputs = results(&trace);
    assert!(outputs[0].contains("print('helo')"));
    assert!(outputs[2].starts_with("diff --git"));
}

#[test]
fn mini_swe_agent_tool_calls_replay_and_the_exit_message_answers_the_submit() {
    let (trace, notes) = replayed("mini-swe-agent-v2.traj.json");
    assert_eq!((trace.model_calls(), trace.tool_calls()), (2, 2));
    // The submit command's output is the `exit` message: its result.
    assert!(notes.is_empty(), "{notes:?}");
    let (_, _, last) = *common::dispatched(&trace).last().unwrap();
    assert!(!last.is_error);
}

#[test]
fn a_trajectory_can_be_named_with_from() {
    let path = format!(
        "{}/tests/fixtures/mini-swe-agent-v1.traj.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let forced = open(&path, Some(Format::Trajectory)).unwrap();
    assert_eq!(forced.runs.len(), 1);
    // Read as a plain conversation, every observation starts a new run.
    let plain = open(&path, Some(Format::Conversation)).unwrap();
    assert!(plain.runs.len() > 1);
}

#[test]
fn a_codex_rollout_replays_its_shell_calls_in_the_responses_dialect() {
    let source = load("real/codex-rollout-cut-short.jsonl");
    assert_eq!(source.format, Format::Codex);
    let run = &source.runs[0];
    assert_eq!(run.dialect(), Dialect::OpenaiResponses);
    assert!(
        run.question
            .starts_with("what is current repository about?")
    );
    assert!(
        run.system
            .as_deref()
            .is_some_and(|s| s.contains("## Skills"))
    );
    let trace = run.replay(run.default_config());
    assert_eq!((trace.model_calls(), trace.tool_calls()), (3, 3));
    // The recording was cut before the final answer.
    assert_eq!(trace.outcome(), Some(Outcome::RecordingEnded));
    let notes: Vec<String> = source.notes.iter().map(Note::to_string).collect();
    assert!(
        notes.iter().any(|n| n.contains("`event_msg` lines")),
        "{notes:?}"
    );
}

#[test]
fn a_codex_rollout_with_a_final_answer_ends_with_it() {
    let source = load("real/codex-rollout-redacted.jsonl");
    assert_eq!(source.format, Format::Codex);
    let run = &source.runs[0];
    let trace = run.replay(run.default_config());
    assert_eq!(trace.result(), Some("[REDACTED_ASSISTANT_TEXT]"));
    assert_eq!(trace.model_calls(), 1);
}

#[test]
fn an_openhands_trajectory_takes_its_replies_from_the_saved_model_responses() {
    let source = load("real/openhands-rename.json");
    assert_eq!(source.format, Format::OpenHands);
    let run = &source.runs[0];
    assert_eq!(run.dialect(), Dialect::OpenaiChat);
    assert_eq!(run.question, "Please rename game_2048.py to 2048.py");
    assert_eq!(run.model, "claude-3-5-sonnet-20241022");
    // The finish reasons are the recorded ones, not inferred.
    assert!(
        run.replies
            .iter()
            .all(|r| !r.stop_reason_inferred && r.stop_reason == "tool_calls")
    );
    let trace = run.replay(run.default_config());
    // The last call is `finish`, which the harness ends on instead of
    // running it: four calls, three tools run, no stand-in result.
    assert_eq!((trace.model_calls(), trace.tool_calls()), (4, 3));
    assert!(run.notes.is_empty(), "{:?}", run.notes);
    assert_eq!(agent_status(&trace), Some("finish"));
}

#[test]
fn an_openhands_run_that_ends_in_a_message_is_answered() {
    let source = load("real/openhands-todo-app.json");
    let run = &source.runs[0];
    let trace = run.replay(run.default_config());
    assert_answered(
        &trace,
        (5, 4),
        "I've created a complete Vue.js todo application",
    );
    let notes: Vec<String> = source.notes.iter().map(Note::to_string).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("`agent_state_changed observation` events")),
        "{notes:?}"
    );
}

#[test]
fn an_inspect_log_replays_each_sample_from_its_raw_model_calls() {
    let source = load("real/inspect-browser.json");
    assert_eq!(source.format, Format::Inspect);
    assert_eq!(source.runs.len(), 1, "one sample");
    let run = &source.runs[0];
    assert_eq!(run.dialect(), Dialect::OpenaiChat);
    // The stop reasons are the provider's own, from the raw calls.
    let reasons: Vec<&str> = run.replies.iter().map(|r| r.stop_reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "tool_calls",
            "tool_calls",
            "tool_calls",
            "tool_calls",
            "stop"
        ]
    );
    assert!(run.replies.iter().all(|r| !r.stop_reason_inferred));
    // Attachments are put back: the question is the text, not its hash.
    assert!(
        run.question.starts_with("Use the web browser tool"),
        "{}",
        run.question
    );
    let trace = run.replay(run.default_config());
    assert_answered(&trace, (5, 4), "The AI Security Institute");
}

#[test]
fn inspect_samples_without_raw_calls_replay_from_their_messages() {
    let source = load("inspect-messages-only.json");
    let ids: Vec<&str> = source.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "inspect-messages-only-sample-1",
            "inspect-messages-only-sample-two"
        ]
    );
    // Each sample speaks the API of the eval's model, whatever the other says.
    assert!(
        source
            .runs
            .iter()
            .all(|r| r.dialect() == Dialect::OpenaiChat)
    );
    let first = &source.runs[0];
    assert_eq!(first.question, "What is the capital of France?");
    let trace = first.replay(first.default_config());
    assert_eq!((trace.model_calls(), trace.tool_calls()), (2, 1));
    assert_eq!(trace.result(), Some("Paris."));
    let call = first.replies[0].tool_calls().next().unwrap();
    assert_eq!(
        (call.name, call.input),
        ("lookup", &serde_json::json!({"country": "France"}))
    );
}

#[test]
fn an_inspect_eval_archive_is_read_as_the_log_it_holds() {
    let source = load("real/inspect-read-sample.eval");
    assert_eq!(source.format, Format::Inspect);
    let run = &source.runs[0];
    assert_eq!(run.replies[0].stop_reason, "stop");
    assert!(!run.replies[0].stop_reason_inferred, "from the raw call");
    let trace = run.replay(run.default_config());
    assert_eq!(trace.result(), Some("Yes\n"));

    // The same archive with its members recompressed with zstd, which
    // Inspect can write, by us with the zstd tool: the same run.
    let zstd = load("inspect-read-sample-zstd.eval");
    assert_eq!(zstd.runs[0].replies, source.runs[0].replies);
    assert_eq!(zstd.runs[0].question, source.runs[0].question);

    let tools = load("real/inspect-tool-calls.eval");
    let run = &tools.runs[0];
    let trace = run.replay(run.default_config());
    assert_eq!((trace.model_calls(), trace.tool_calls()), (6, 5));
    assert_eq!(trace.result(), Some("done"));
}

#[test]
fn a_zip_that_is_no_eval_log_says_so() {
    // An empty zip: just the end-of-central-directory record.
    let mut empty = b"PK\x05\x06".to_vec();
    empty.extend([0u8; 18]);
    // A local-file header for the magic, then the empty archive.
    let mut bytes = b"PK\x03\x04".to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 26));
    bytes.extend(&empty);
    let error = open_written("not-eval", &bytes).unwrap_err().to_string();
    assert!(
        error.contains("zip archive") || error.contains("header.json"),
        "{error}"
    );
}

#[test]
fn a_native_transcript_with_a_history_is_no_trajectory() {
    let doc = serde_json::json!({
        "version": 1, "id": "h", "title": "h", "question": "q", "model": "m", "max_turns": 3,
        "history": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                    {"role": "assistant", "content": [{"type": "text", "text": "Hello!"}]}],
        "replies": [{"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"}]
    });
    let source = open_written("history", doc.to_string()).unwrap();
    assert_eq!(source.format, Format::Native);
    let run = &source.runs[0];
    assert_eq!(run.replay(run.default_config()).result(), Some("ok"));
}

#[test]
fn an_old_codex_rollout_without_envelopes_is_read_too() {
    let lines = [
        serde_json::json!({"id": "x", "timestamp": "2025-05-01", "instructions": "Be brief."}),
        serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]}),
        serde_json::json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": "c1"}),
        serde_json::json!({"type": "function_call_output", "call_id": "c1", "output": "a.txt"}),
        serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "One file: a.txt"}]}),
    ];
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let source = open_written("old-codex", text.join("\n")).unwrap();
    assert_eq!(source.format, Format::Codex);
    let run = &source.runs[0];
    assert_eq!(run.system.as_deref(), Some("Be brief."));
    let trace = run.replay(run.default_config());
    assert_answered(&trace, (2, 1), "One file: a.txt");
}

/// Calls the harness counted but did not keep are said, in `validate`,
/// `run` and at the start of the run on the screen. The real gemini
/// trajectory counts 17 calls (`info.model_stats.api_calls`) and keeps 17
/// replies: nothing to say. With 21 counted, as a mini-swe-agent that
/// drops the replies its format check refused writes, 4 went missing.
#[test]
fn calls_the_harness_counted_but_did_not_keep_are_said() {
    use loopstep::transcript::{Localized, Opening};
    let real = common::fixture("real/mini-swe-agent-gemini.traj.json");
    let said = |source: &loopstep::transcript::Source| -> Vec<String> {
        source.notes.iter().map(ToString::to_string).collect()
    };
    let source = loopstep::transcript::open(&real, None).unwrap();
    assert_eq!(common::counted(&source).model_calls, 17);
    assert!(!said(&source).iter().any(|n| n.contains("model calls;")));

    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    doc["info"]["model_stats"]["api_calls"] = 21.into();
    let path = std::env::temp_dir().join(format!("loopstep-kept-{}.traj.json", std::process::id()));
    std::fs::write(&path, doc.to_string()).unwrap();
    let source = loopstep::transcript::open(path.to_str().unwrap(), None).unwrap();
    let note = "the harness made 21 model calls; 17 of them are in this file";
    assert!(
        said(&source).iter().any(|n| n.starts_with(note)),
        "{:?}",
        said(&source)
    );
    let runs = Localized::open(path.to_str().unwrap(), &Opening::default()).unwrap();
    assert!(
        runs[0]
            .get(loopstep::narrate::Lang::Zh)
            .notes
            .iter()
            .any(|n| n.to_string().starts_with(note))
    );
    std::fs::remove_file(path).unwrap();
}
