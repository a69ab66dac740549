//! Cline and Roo Code tasks (`api_conversation_history.json`), read from
//! real Roo Code conversations (tests/fixtures/real/SOURCES.md).

use loopstep::engine::{Event, PushBack};
use loopstep::transcript::{Format, Kind};

use crate::common::{Counted, counted, load, results};

#[test]
fn calls_written_as_xml_run_and_the_no_tool_push_back_is_one_more_call() {
    for name in [
        "real/cline/roo-mini-uncondensed.api_conversation_history.json",
        "real/cline/task-folder",
    ] {
        let source = load(name);
        assert_eq!(source.kind, Kind::File(Format::Cline), "{name}");
        // Counted from the raw file: 10 assistant messages; 9 XML calls
        // (execute_command 1, read_file 7, attempt_completion 1), the
        // completion the agent's end, not run; one push-back (index 18).
        assert_eq!(
            counted(&source),
            Counted {
                runs: 1,
                model_calls: 10,
                tool_calls: 8,
                outcomes: vec!["agent_finished"],
            },
            "{name}"
        );
        let run = &source.runs[0];
        assert!(run.question.starts_with("# Rédaction des réponses"));
        let trace = run.replay(run.default_config());
        let pushed = trace
            .steps
            .iter()
            .filter(|s| {
                s.event
                    == Event::PushedBack {
                        by: Some(PushBack::FormatError),
                        added: 1,
                    }
            })
            .count();
        assert_eq!(pushed, 1);
        // The first call was cut off and ran with no command: it failed.
        let first = trace
            .steps
            .iter()
            .find_map(|s| match &s.event {
                Event::Dispatch { name, output, .. } => Some((name.clone(), output.is_error)),
                _ => None,
            })
            .unwrap();
        assert_eq!(first, ("execute_command".to_owned(), true));
    }
}

#[test]
fn completions_resumptions_and_a_condensed_history_make_their_own_runs() {
    let source = load("real/cline/roo-already-condensed.api_conversation_history.json");
    // Counted from the raw file: after the summary, 14 replies and 13
    // XML calls, 3 of them attempt_completion. The person speaks at
    // indices 4 (after the first completion), 6, 8 and 14 (resumptions
    // after a round: the run before is interrupted) and 28 (feedback on
    // the second completion): 6 runs, 14 calls, 10 tools run.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 6,
            model_calls: 14,
            tool_calls: 10,
            outcomes: vec![
                "agent_finished",
                "interrupted",
                "interrupted",
                "interrupted",
                "agent_finished",
                "agent_finished"
            ],
        }
    );
    assert!(source.runs[0].compaction.is_some());
}

/// A Cline 4 session (`<sessionId>.messages.json`, written by its SDK:
/// cline/cline sdk/packages/core/docs/messages-contract-v1.md): the
/// person's prompts are plain text, results real `tool_result` blocks.
#[test]
fn a_cline_4_session_is_read_as_its_prompts_calls_and_results() {
    for name in [
        "real/cline/sdk-session/session.messages.json",
        "real/cline/sdk-session",
    ] {
        let source = load(name);
        assert_eq!(source.kind, Kind::File(Format::Cline), "{name}");
        // Counted from the raw file: 32 messages; the person's prompts
        // are messages 0, 6, 10, 22 and 30 (text blocks, no tool_result);
        // assistant messages 1,3,5 | 7,9 | 11..21 (6) | 23..29 (4) | 31;
        // tool_use blocks 2 | 1 | 5 | 3 | 0; each run ends on a reply of
        // text alone.
        assert_eq!(
            counted(&source),
            Counted {
                runs: 5,
                model_calls: 16,
                tool_calls: 11,
                outcomes: vec!["answered"; 5],
            },
            "{name}"
        );
        let run = &source.runs[0];
        assert!(run.question.starts_with("can you update @apps/"));
        // The file the person attached with `@` is part of the prompt.
        assert!(run.question.contains("\"use client\";"), "{}", run.question);
        // A result Cline keeps as a list of {query, result} is shown whole.
        let trace = run.replay(run.default_config());
        let outputs = results(&trace);
        assert_eq!(outputs.len(), 2);
        assert!(outputs[1].contains("462 | "), "{}", outputs[1]);
        // The editor's result, kept as the JSON text of one, likewise.
        assert!(
            outputs[0].starts_with("edit:/Users/example/"),
            "{}",
            outputs[0]
        );
        assert!(
            outputs[0].contains("\nEdited /Users/example/"),
            "{}",
            outputs[0]
        );
        assert!(source.notes.is_empty(), "{:?}", source.notes);
    }
}

/// The example the messages contract gives (cline/cline
/// sdk/packages/core/fixtures/messages/success.messages.json): one turn of
/// thinking, a call, its result and the answer.
#[test]
fn the_contracts_own_example_is_one_call_then_the_answer() {
    let source = load("real/cline/sdk-golden/success.messages.json");
    assert_eq!(source.kind, Kind::File(Format::Cline));
    // Counted from the raw file: 2 assistant messages, 1 tool_use.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 1,
            outcomes: vec!["answered"],
        }
    );
}
