//! Real recordings and hand-written ones in every supported format: they
//! import, replay through the same loop, and survive a round trip through
//! the native format.

use crate::common;
use crate::common::{fixture, load};

use common::{dispatched, open_written};
use loopstep::dialect::Dialect;
use loopstep::engine::{
    Block, CheckPolicy, Config, Event, Mistake, Outcome, RequestRule, StopCause, Trace,
};
use loopstep::narrate::Lang;
use loopstep::transcript::import::MISSING_RESULT;
use loopstep::transcript::{
    Early, Format, Kind, LoadError, Note, Opening, Source, Transcript, open, open_in,
};
use std::time::Duration;

fn replay(t: &Transcript) -> Trace {
    t.replay(t.default_config())
}

fn appends(trace: &Trace) -> Vec<usize> {
    trace
        .steps
        .iter()
        .filter_map(|s| match s.event {
            Event::Append { results, .. } => Some(results),
            _ => None,
        })
        .collect()
}

fn stop_reasons(trace: &Trace) -> Vec<(String, bool)> {
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Call {
                stop_reason,
                stop_reason_inferred,
                ..
            } => Some((stop_reason.clone(), *stop_reason_inferred)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_real_anthropic_recording_replays_with_four_parallel_calls() {
    let source = load("real/anthropic-parallel-tool-calls.exchanges.json");
    assert_eq!(source.format, Format::Exchanges);
    assert!(matches!(
        source.kind,
        Kind::Calls(_, Dialect::AnthropicMessages)
    ));
    assert_eq!(source.runs.len(), 1);
    let trace = replay(&source.runs[0]);
    assert_eq!(trace.model_calls(), 2);
    assert_eq!(trace.tool_calls(), 4);
    assert_eq!(appends(&trace), [4], "four results, one message");
    assert_eq!(
        stop_reasons(&trace),
        [("tool_use".into(), false), ("end_turn".into(), false)]
    );
    let answer = trace.result().unwrap();
    assert!(answer.starts_with("Based on the retrieved information"));
    assert!(answer.contains("Daisy is the youngest in the family"));
    assert_eq!(source.runs[0].model, "claude-haiku-4-5-20251001");
}

#[test]
fn the_real_deepseek_recording_replays_with_reasoning_and_the_client_made_call() {
    let source = load("real/deepseek-tool-calls-with-thinking.exchanges.json");
    assert!(matches!(source.kind, Kind::Calls(_, Dialect::OpenaiChat)));
    let run = &source.runs[0];
    let trace = replay(run);
    assert_eq!(trace.model_calls(), 3);
    assert_eq!(
        appends(&trace),
        [1, 2],
        "the two parallel results share one message"
    );
    assert_eq!(
        trace.result(),
        Some(
            "🎉 **Congratulations, Anne!** You're a winner! 🎉\n\nThe die rolled exactly **4** -- matching your guess perfectly! Lucky you! 🎲"
        )
    );
    // The client's own `search_tools` call is shown, before the second call.
    let inserted: Vec<_> = trace
        .steps
        .iter()
        .filter(|s| matches!(s.event, Event::Inserted { .. }))
        .collect();
    assert_eq!(inserted.len(), 1);
    assert_eq!(inserted[0].event, Event::Inserted { added: 2, by: None });
    // messages[0] is the system prompt, as Chat Completions sends it.
    let client_call = &trace.messages[4];
    assert!(
        client_call
            .tool_calls()
            .any(|c| c.id == "auto_load_eb5fc31bb581b4e7" && c.name == "search_tools")
    );
    // Reasoning is kept as thinking, never executed.
    assert!(
        matches!(&trace.messages[2].content[0], Block::Thinking { thinking } if thinking.starts_with("The user wants to play a dice game"))
    );
    assert_eq!(stop_reasons(&trace)[2], ("stop".into(), false));
    assert_eq!(run.tools.len(), 4, "tools offered later are kept too");
    assert!(run.system.as_deref().unwrap().contains("dice game"));
}

#[test]
fn an_anthropic_conversation_splits_into_runs_and_shows_its_gaps() {
    let source = load("conversation-anthropic.json");
    assert_eq!(source.format, Format::Conversation);
    assert_eq!(source.runs.len(), 2);
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string().contains("`image` blocks"))
    );

    let first = replay(&source.runs[0]);
    assert_eq!(first.model_calls(), 3);
    assert_eq!(appends(&first), [2, 1]);
    assert_eq!(
        first.result(),
        Some("Oslo is 4°C with light snow; Bergen is 7°C and raining.")
    );
    assert!(stop_reasons(&first).iter().all(|(_, inferred)| *inferred));
    let outputs: Vec<_> = dispatched(&first).into_iter().map(|d| d.2).collect();
    assert_eq!(
        &*outputs[0].content, "Oslo: 4°C, light snow",
        "a block-array result"
    );
    assert!(outputs[1].is_error, "an is_error result stays an error");

    let second = &source.runs[1];
    assert_eq!(
        second.history.messages().len(),
        6,
        "the earlier turns come first"
    );
    assert!(second.notes.iter().any(|n| *n
        == Note::MissingResult {
            id: "toolu_04".into()
        }));
    let trace = replay(second);
    assert_eq!(trace.steps[0].event, Event::Start);
    assert_eq!(
        trace.steps[0].messages, 7,
        "the earlier turns, then the prompt"
    );
    assert!(matches!(&trace.steps[1].event, Event::Call { request, .. } if request.messages == 7));
    assert!(
        dispatched(&trace)
            .iter()
            .any(|(_, _, output)| output.is_error && &*output.content == MISSING_RESULT)
    );
    assert_eq!(trace.outcome(), Some(Outcome::RecordingEnded));
}

#[test]
fn an_openai_conversation_reads_string_arguments_and_reports_stray_results() {
    let source = load("conversation-openai.json");
    assert_eq!(source.runs.len(), 2);
    let first = &source.runs[0];
    assert!(first.system.as_deref().unwrap().contains("get_today"));
    let trace = replay(first);
    assert_eq!(trace.result(), Some("Today is 8 October 2026."));
    assert_eq!(
        stop_reasons(&trace),
        [("tool_calls".into(), true), ("stop".into(), true)]
    );

    let second = &source.runs[1];
    assert!(
        second
            .notes
            .iter()
            .any(|n| n.to_string().contains("call_zz"))
    );
    let trace = replay(second);
    assert_eq!(appends(&trace), [2]);
    let inputs: Vec<_> = dispatched(&trace).into_iter().map(|d| d.1).collect();
    assert_eq!(inputs[0]["amount"], 100, "arguments text becomes an object");
    assert_eq!(
        *inputs[1],
        serde_json::json!("{\"amount\": 100, \"from\": \"EUR\""),
        "unparseable arguments stay as the raw text"
    );
    assert_eq!(trace.result(), Some("100 EUR is 1162.40 NOK."));
}

#[test]
fn an_anthropic_exchange_log_continues_after_pause_turn_and_stops_at_max_tokens() {
    let source = load("exchanges-anthropic.jsonl");
    assert_eq!(source.format, Format::Exchanges);
    let run = &source.runs[0];
    let trace = replay(run);
    assert_eq!(trace.model_calls(), 3);
    assert_eq!(
        stop_reasons(&trace)
            .into_iter()
            .map(|s| s.0)
            .collect::<Vec<_>>(),
        ["pause_turn", "tool_use", "max_tokens"]
    );
    assert_eq!(
        trace.outcome(),
        Some(Outcome::Stopped(&StopCause::Truncated))
    );
    let lesson = run.replay(Config {
        check: CheckPolicy::Lesson,
        ..run.default_config()
    });
    assert_eq!(
        lesson.result(),
        Some("I'm still gathering sources; continuing."),
        "the lesson's check takes the paused reply for the answer"
    );
    assert_eq!(lesson.model_calls(), 1);
    // The paused reply's server tool call is part of it, sent back as it came.
    assert!(matches!(
        run.replies[0].content.as_slice(),
        [Block::Text { .. }, Block::ServerToolUse { name, .. }] if name == "web_search"
    ));
    assert!(
        !source
            .notes
            .iter()
            .any(|n| n.to_string().contains("server_tool_use"))
    );
}

#[test]
fn openai_chat_and_deepseek_logs_keep_their_finish_reasons() {
    let source = load("exchanges-openai-chat.json");
    assert_eq!(source.runs[0].dialect(), Dialect::OpenaiChat);
    let trace = replay(&source.runs[0]);
    assert_eq!(trace.model_calls(), 2);
    assert_eq!(
        trace.outcome(),
        Some(Outcome::Stopped(&StopCause::Truncated))
    );
    assert_eq!(stop_reasons(&trace)[1].0, "length");

    let trace = replay(&load("exchanges-deepseek-capacity.json").runs[0]);
    assert_eq!(
        trace.outcome(),
        Some(Outcome::Stopped(&StopCause::OutOfCapacity))
    );
}

#[test]
fn an_openai_responses_log_pairs_calls_and_outputs_by_call_id() {
    let source = load("exchanges-openai-responses.json");
    assert!(matches!(
        source.kind,
        Kind::Calls(_, Dialect::OpenaiResponses)
    ));
    assert_eq!(
        source.runs.len(),
        2,
        "a follow-up prompt starts a second run"
    );
    let first = &source.runs[0];
    assert_eq!(first.dialect(), Dialect::OpenaiResponses);
    assert_eq!(first.system.as_deref(), Some("Answer with one number."));
    let trace = replay(first);
    assert_eq!(trace.result(), Some("2"));
    assert_eq!(appends(&trace), [1]);
    let second = replay(&source.runs[1]);
    assert_eq!(
        second.outcome(),
        Some(Outcome::Stopped(&StopCause::Truncated))
    );
    assert_eq!(stop_reasons(&second).last().unwrap().0, "max_output_tokens");
}

#[test]
fn a_claude_code_session_regroups_split_replies_and_keeps_side_chains_apart() {
    let source = load("claude-code.jsonl");
    assert_eq!(source.format, Format::ClaudeCode);
    let ids: Vec<&str> = source.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["claude-code-1", "claude-code-2", "claude-code-sidechain"]
    );
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string().contains("`summary` lines"))
    );
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string().contains("`file-history-snapshot` lines"))
    );

    let first = replay(&source.runs[0]);
    assert_eq!(first.model_calls(), 2);
    assert_eq!(
        appends(&first),
        [2],
        "three lines of one message are one reply"
    );
    assert_eq!(
        stop_reasons(&first),
        [("tool_use".into(), false), ("end_turn".into(), true)]
    );
    assert_eq!(source.runs[0].model, "claude-opus-4-1");

    let second = replay(&source.runs[1]);
    assert!(
        dispatched(&second)
            .iter()
            .any(|(_, _, output)| output.is_error && output.content.contains("rejected"))
    );
    // The user stopped the tool, and the client wrote so.
    assert_eq!(second.outcome().unwrap().label(), "interrupted");

    let side = replay(&source.runs[2]);
    assert_eq!(
        side.result(),
        Some("parse is defined in src/parse.rs, line 12.")
    );
}

#[test]
fn every_recording_survives_a_round_trip_through_the_native_format() {
    for name in [
        "real/anthropic-parallel-tool-calls.exchanges.json",
        "real/deepseek-tool-calls-with-thinking.exchanges.json",
        "conversation-anthropic.json",
        "conversation-openai.json",
        "exchanges-anthropic.jsonl",
        "exchanges-openai-chat.json",
        "exchanges-deepseek-capacity.json",
        "exchanges-openai-responses.json",
        "claude-code.jsonl",
    ] {
        let source = load(name);
        let native = serde_json::to_string(&source.runs).unwrap();
        let back = Transcript::parse_many(&native, "round trip", loopstep::narrate::Lang::En)
            .unwrap_or_else(|e| panic!("{name}: the native form does not load: {e}"));
        assert_eq!(back, source.runs, "{name}");
        for (original, reloaded) in source.runs.iter().zip(&back) {
            assert_eq!(
                serde_json::to_string(&replay(original)).unwrap(),
                serde_json::to_string(&replay(reloaded)).unwrap(),
                "{name}: the same trace"
            );
        }
    }
}

#[test]
fn a_file_in_no_known_format_says_what_was_tried_and_seen() {
    let err = open(&fixture("not-a-recording.json"), None).unwrap_err();
    assert!(matches!(err, LoadError::NotRecognized { .. }));
    let message = err.to_string();
    for needle in [
        "native transcript",
        "conversation",
        "exchange log",
        "Claude Code",
        "keys `foo`, `bar`",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
}

#[test]
fn the_format_can_be_forced() {
    let forced = open(
        &fixture("exchanges-anthropic.jsonl"),
        Some(Format::Exchanges),
    )
    .unwrap();
    assert_eq!(forced.runs.len(), 1);
    // Read as a conversation, an exchange log holds no messages at all.
    let wrong = open(
        &fixture("exchanges-anthropic.jsonl"),
        Some(Format::Conversation),
    )
    .unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains("no prompt that the model answered"),
        "{wrong}"
    );
}

/// The rules a recorded run's calls were noted for breaking, by call number.
fn tolerated(trace: &Trace) -> Vec<(u32, RequestRule, Vec<String>)> {
    trace
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Call {
                request,
                tolerated: Some(broken),
                ..
            } => Some((request.number, broken.rule, broken.ids.clone())),
            _ => None,
        })
        .collect()
}

/// Opens a recording written to a file of its own.
fn open_recording(name: &str, conversation: serde_json::Value) -> Source {
    open_written(name, conversation.to_string()).unwrap()
}

#[test]
fn a_reused_tool_call_id_is_noted_and_the_recording_replays_to_its_end() {
    let source = open_recording(
        "dup",
        serde_json::json!([
            {"role": "user", "content": "Look both up."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "dup", "name": "search", "input": {"query": "a"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "dup", "content": "A"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "dup", "name": "search", "input": {"query": "b"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "dup", "content": "B"}]},
            {"role": "assistant", "content": "Done."}
        ]),
    );
    let run = &source.runs[0];
    assert!(run.recorded);
    assert!(
        run.notes
            .iter()
            .any(|n| n.to_string().contains("`dup` is used more than once")),
        "{:?}",
        run.notes
    );
    let trace = replay(run);
    assert_eq!(trace.result(), Some("Done."), "{:?}", trace.outcome());
    assert_eq!(trace.model_calls(), 3);
    // Each use of the id gets the result recorded for it.
    let outputs: Vec<&str> = dispatched(&trace)
        .into_iter()
        .map(|(_, _, o)| &*o.content)
        .collect();
    assert_eq!(outputs, ["A", "B"]);
    assert_eq!(
        tolerated(&trace),
        [(3, RequestRule::DuplicateCallIds, vec!["dup".to_owned()])]
    );
    // A request the loop itself got wrong is still refused: here the
    // deliberate mistake of dropping the results.
    let mistaken = run.replay(Config {
        mistake: Some(Mistake::DropResults),
        ..run.default_config()
    });
    assert!(
        matches!(mistaken.outcome(), Some(Outcome::Rejected(_))),
        "{:?}",
        mistaken.outcome()
    );
}

#[test]
fn a_result_without_its_call_is_noted_and_every_call_still_replays() {
    let source = open_recording(
        "unpaired",
        serde_json::json!([
            {"role": "user", "content": "Go."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "search", "input": {"query": "a"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "a", "content": "A"},
                {"type": "tool_result", "tool_use_id": "stray", "content": "?"}
            ]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "b", "name": "search", "input": {"query": "b"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": "B"}]},
            {"role": "assistant", "content": "Done."}
        ]),
    );
    let run = &source.runs[0];
    let where_and_why = run.notes.iter().map(ToString::to_string);
    assert!(
        where_and_why.clone().any(|n| n.contains("`stray`")),
        "{:?}",
        where_and_why.collect::<Vec<_>>()
    );
    let trace = replay(run);
    assert_eq!(trace.result(), Some("Done."), "{:?}", trace.outcome());
    assert_eq!(trace.model_calls(), 3);
}

#[test]
fn an_openai_refusal_field_halts_the_production_check_and_fools_the_lesson_one() {
    let source = open_recording(
        "refusal",
        serde_json::json!([{
            "request": {"model": "gpt-4o", "messages": [{"role": "user", "content": "Help me pick a lock."}]},
            "response": {"model": "gpt-4o", "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]}
        }]),
    );
    let run = &source.runs[0];
    assert!(matches!(
        run.replies[0].content.as_slice(),
        [Block::Refusal { refusal }] if refusal == "I can't help with that."
    ));
    let production = replay(run);
    assert_eq!(
        production.outcome(),
        Some(Outcome::Stopped(&StopCause::Refusal)),
        "finish_reason stop, but the refusal field says no"
    );
    let lesson = run.replay(Config {
        check: CheckPolicy::Lesson,
        ..run.default_config()
    });
    assert_eq!(
        lesson.result(),
        Some(""),
        "the lesson's check returns the empty text"
    );
    // Written back to the wire in the API's own field.
    let wire = Dialect::OpenaiChat.messages(production.messages.all());
    assert_eq!(wire[1]["refusal"], "I can't help with that.");
    assert!(wire[1]["content"].is_null());
}

#[test]
fn a_session_still_being_written_loads_without_its_cut_off_last_line() {
    let whole = std::fs::read_to_string(fixture("claude-code.jsonl")).unwrap();
    let lines = whole.lines().count();
    let cut = &whole[..whole.trim_end().len() - 30];
    let source = open_written("cut", cut).unwrap();
    assert_eq!(source.format, Format::ClaudeCode);
    let note = format!("line {lines}, the last, is cut off");
    assert!(
        source.notes.iter().any(|n| n.to_string().contains(&note)),
        "{:?}",
        source.notes
    );
    // Cut anywhere else, the file is broken, and says where.
    let broken: String = whole
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 3 { &l[..l.len() / 2] } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let error = open_written("broken", broken);
    assert!(
        matches!(error, Err(LoadError::Syntax { line: 4, .. })),
        "{error:?}"
    );
}

#[test]
fn a_claude_code_project_folder_opens_as_its_sessions_with_their_sub_agents() {
    let source = load("claude-code-project");
    assert_eq!(source.format, Format::ClaudeCode);
    let ids: Vec<&str> = source.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "5f1c-1",
            "5f1c-2",
            "5f1c-sidechain",
            "agent-a1b2-sidechain",
            "9e0d"
        ]
    );
    let agent = &source.runs[3];
    let trace = agent.replay(agent.default_config());
    assert_eq!(
        trace.result(),
        Some("parse() is defined in calc/parser.py, line 12.")
    );
    // A session opened alone brings its sub-agents too.
    let session = load("claude-code-project/5f1c.jsonl");
    assert!(session.runs.iter().any(|r| r.id == "agent-a1b2-sidechain"));
}

#[test]
fn a_broken_session_in_a_project_folder_is_left_out_with_a_note() {
    let dir = std::env::temp_dir().join(format!("loopstep-project-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixture("claude-code-project/9e0d.jsonl"),
        dir.join("9e0d.jsonl"),
    )
    .unwrap();
    std::fs::write(dir.join("broken.jsonl"), "{\"type\": \"user\", oops").unwrap();
    let source = open(dir.to_str().unwrap(), None);
    let empty = std::env::temp_dir().join(format!("loopstep-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let nothing = open(empty.to_str().unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
    let source = source.unwrap();
    assert_eq!(source.runs.len(), 1);
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string().contains("broken.jsonl could not be read")),
        "{:?}",
        source.notes
    );
    let error = nothing.unwrap_err().to_string();
    assert!(error.contains("holds no session"), "{error}");
}

#[test]
fn a_result_answers_the_latest_use_of_a_reused_id() {
    let source = open_recording(
        "reuse-missing",
        serde_json::json!({"messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "X", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"a\"}"}}]},
            {"role": "tool", "tool_call_id": "Y", "content": "stray"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "X", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"b\"}"}}]},
            {"role": "tool", "tool_call_id": "X", "content": "result-for-b"},
            {"role": "assistant", "content": "done"}
        ]}),
    );
    let trace = replay(&source.runs[0]);
    let outputs: Vec<(bool, &str)> = dispatched(&trace)
        .into_iter()
        .map(|(_, _, o)| (o.is_error, &*o.content))
        .collect();
    assert_eq!(outputs, [(true, MISSING_RESULT), (false, "result-for-b")]);
    assert_eq!(trace.result(), Some("done"));
}

#[test]
fn a_folder_none_of_whose_sessions_can_be_read_says_so() {
    let dir = std::env::temp_dir().join(format!("loopstep-all-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.jsonl"), "{oops").unwrap();
    let result = open(dir.to_str().unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
    let error = result.unwrap_err().to_string();
    assert!(
        error.contains("no session of this folder could be read"),
        "{error}"
    );
}

#[test]
fn a_long_session_read_line_by_line_is_the_same_as_read_whole() {
    // 96 lines: past the lines the format is told by, the session is read
    // as it is parsed; the same lines as one JSON array are read whole.
    let session =
        std::fs::read_to_string(fixture("real/claude-code-progress-subagent.jsonl")).unwrap();
    let lines: Vec<&str> = session.lines().collect();
    assert_eq!(lines.len(), 96);
    let read = |text: String| {
        let from = Some(Format::ClaudeCode);
        loopstep::transcript::import::load(
            text,
            "session",
            "session",
            from,
            loopstep::narrate::Lang::En,
        )
    };
    let streamed = read(session.clone()).unwrap();
    let whole = read(format!("[{}]", lines.join(","))).unwrap();
    assert_eq!(streamed.runs, whole.runs);
    assert_eq!(streamed.notes, whole.notes);
    // Its last line cut off, as while the client still writes it: noted.
    let cut = &session[..session.trim_end().len() - 30];
    let source = read(cut.to_owned()).unwrap();
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string().contains("line 96, the last, is cut off")),
        "{:?}",
        source.notes
    );
    // Broken deep inside: refused, saying where.
    let broken: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| if i == 69 { &l[..l.len() / 2] } else { *l })
        .collect();
    let error = read(broken.join("\n"));
    assert!(
        matches!(error, Err(LoadError::Syntax { line: 70, .. })),
        "{error:?}"
    );
}

#[test]
fn a_session_larger_than_a_chunk_is_read_from_its_file_as_it_is_imported() {
    // 4 prompts × 40 rounds × 10 kB results: about 1.7 MB, past the 1 MiB
    // chunk after which a session is read line by line from the file.
    let session = common::generated::claude_code_session(4, 40, 10_000);
    assert!(session.len() > 1 << 20);
    let lines: Vec<&str> = session.lines().collect();
    let from_text = loopstep::transcript::import::load(
        session.clone(),
        "session",
        "session",
        None,
        loopstep::narrate::Lang::En,
    )
    .unwrap();
    let from_file = open_written("session", &session).unwrap();
    assert_eq!(from_file.runs.len(), 4);
    let names = |s: &Source| s.runs.iter().map(|r| r.replies.len()).collect::<Vec<_>>();
    assert_eq!(names(&from_file), [41, 41, 41, 41]);
    assert_eq!(from_file.notes, from_text.notes);
    for (file, text) in from_file.runs.iter().zip(&from_text.runs) {
        assert_eq!(file.replies, text.replies);
        assert_eq!(file.history, text.history);
    }
    // The last line cut off, as while the client writes it: noted.
    let cut = &session[..session.len() - 40];
    let source = open_written("session", cut).unwrap();
    let note = format!("line {}, the last, is cut off", lines.len());
    assert!(
        source.notes.iter().any(|n| n.to_string().contains(&note)),
        "{:?}",
        source.notes
    );
    // A line broken far past the first chunk: refused, at its line.
    let at = lines.len() - 5;
    let mut broken = lines.clone();
    broken[at] = &lines[at][..lines[at].len() / 2];
    let error = open_written("session", broken.join("\n"));
    assert!(
        matches!(error, Err(LoadError::Syntax { line, .. }) if line == at + 1),
        "{error:?}"
    );
    // A byte that is no UTF-8 there: refused, at its offset.
    let mut bytes = session.clone().into_bytes();
    let offset = bytes.len() - 100;
    bytes[offset] = 0xff;
    let error = open_written("session", bytes);
    assert!(
        matches!(error, Err(LoadError::NotUtf8 { offset: o, .. }) if o == offset),
        "{error:?}"
    );
}

#[test]
fn a_session_with_one_line_past_its_first_chunk_is_read_whole() {
    // The first MiB holds all its lines but one, which runs past it: the
    // lines read from the file then are fewer than two, and the session
    // still counts every line it has.
    let session = common::generated::claude_code_session(4, 40, 10_000);
    let mut text = String::new();
    for line in session.lines() {
        text.push_str(line);
        text.push('\n');
        if text.len() > 1 << 20 {
            break;
        }
    }
    let from_text = loopstep::transcript::import::load(
        text.clone(),
        "s",
        "s",
        None,
        loopstep::narrate::Lang::En,
    )
    .unwrap();
    let from_file = open_written("one-past", &text).unwrap();
    assert_eq!(from_file.runs.len(), from_text.runs.len());
    assert_eq!(from_file.notes, from_text.notes);
    // The same with that last line cut off: a note, not an error.
    let cut = &text[..text.len() - 40];
    let source = open_written("one-past-cut", cut).unwrap();
    let note = format!("line {}, the last, is cut off", text.lines().count());
    assert!(
        source.notes.iter().any(|n| n.to_string().contains(&note)),
        "{:?}",
        source.notes
    );
}

/// A file of `text` opened with an early hand due at once: the source,
/// and the runs handed over before it, each time they were.
fn opened_early(name: &str, text: &str) -> (Source, Vec<Vec<Transcript>>) {
    let path = std::env::temp_dir().join(format!("loopstep-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let handed = std::cell::RefCell::new(Vec::new());
    let hand = |runs: Vec<Transcript>| handed.borrow_mut().push(runs);
    let how = Opening {
        early: Some(Early {
            hand: &hand,
            after: Duration::ZERO,
        }),
        ..Default::default()
    };
    let source = open_in(path.to_str().unwrap(), &how, Lang::En);
    std::fs::remove_file(&path).unwrap();
    (source.unwrap(), handed.into_inner())
}

#[test]
fn a_session_hands_over_its_whole_runs_while_the_rest_is_still_read() {
    // 4 prompts × 40 rounds × 10 kB: the first chunk (1 MiB) holds the
    // first two prompts' runs whole and part of the third.
    let session = common::generated::claude_code_session(4, 40, 10_000);
    let (source, handed) = opened_early("early", &session);
    // Once, with every run before the one still being read, each the same
    // run as the whole file gives.
    assert_eq!(handed.len(), 1);
    let early = &handed[0];
    assert!(
        (1..source.runs.len()).contains(&early.len()),
        "{} runs early",
        early.len()
    );
    for (early, whole) in early.iter().zip(&source.runs) {
        assert_eq!(early.question, whole.question);
        assert_eq!(early.replies, whole.replies);
        assert_eq!(early.history, whole.history);
    }
    // A first prompt nothing answered makes no run: what is handed over
    // waits for a run that is whole, and is still the first run.
    let unanswered = serde_json::json!({"type": "user", "isSidechain": false,
        "message": {"role": "user", "content": "Anyone there?"}});
    let session = format!("{unanswered}\n{session}");
    let (source, handed) = opened_early("early-unanswered", &session);
    assert_eq!(handed.len(), 1);
    assert!(!handed[0].is_empty());
    assert_eq!(handed[0][0].question, source.runs[0].question);
    // Not from a file small enough to be read whole.
    let small = common::generated::claude_code_session(2, 2, 100);
    let (source, handed) = opened_early("early-small", &small);
    assert_eq!(source.runs.len(), 2);
    assert!(handed.is_empty());
}

#[test]
fn an_edited_history_is_placed_as_the_request_numbers_it_system_prompt_counted() {
    // A Chat Completions log whose second request rewrote the question:
    // messages[1] on the wire, after the system prompt at messages[0].
    let call = serde_json::json!({"id": "c1", "type": "function",
        "function": {"name": "t", "arguments": "{}"}});
    let log = serde_json::json!([
        {"request": {"model": "m", "messages": [
            {"role": "system", "content": "S"}, {"role": "user", "content": "q"}]},
         "response": {"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [call]}, "finish_reason": "tool_calls"}]}},
        {"request": {"model": "m", "messages": [
            {"role": "system", "content": "S"}, {"role": "user", "content": "q, edited"},
            {"role": "assistant", "content": null, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "r"}]},
         "response": {"choices": [{"message": {"role": "assistant", "content": "done"},
            "finish_reason": "stop"}]}}
    ]);
    let source = common::open_written("edited.json", log.to_string()).unwrap();
    let notes: Vec<String> = source.notes.iter().map(ToString::to_string).collect();
    assert!(
        notes.iter().any(|n| n.contains("from messages[1] on")),
        "{notes:?}"
    );
}

#[test]
fn where_an_import_cut_a_run_from_is_a_fact_told_in_either_language() {
    use loopstep::narrate::{Lang, Say};
    let source = load("exchanges-openai-chat.json");
    let imported = source.runs[0]
        .imported
        .clone()
        .expect("an import says where");
    assert_eq!(imported.run, 1);
    let say = |lang| Say::new(lang, loopstep::dialect::Dialect::default()).imported(&imported);
    assert!(
        say(Lang::En).starts_with("Imported from exchange log (request/response pairs) `"),
        "{}",
        say(Lang::En)
    );
    assert!(
        say(Lang::Zh).starts_with("导入自调用日志"),
        "{}",
        say(Lang::Zh)
    );
    // Saved as the fact, not its English: rewording it changes no file.
    let json = serde_json::to_value(&source.runs[0]).unwrap();
    assert_eq!(json["imported"]["origin"]["kind"], "file");
    assert_eq!(json["imported"]["origin"]["format"], "exchanges");
    assert_eq!(json["description"], serde_json::Value::Null);
}
