//! Exchange logs whose responses were streamed: the server-sent events are
//! put back together into the response each API would have sent whole.
//! The bodies are real recordings (fixtures/real/SOURCES.md).

use crate::common;
use crate::common::{fixture, load};

use common::open_written;
use common::screen::{drive, same_in_both};
use loopstep::dialect::Dialect;
use loopstep::engine::{Block, Event, Outcome, StopCause, Trace, Usage};
use loopstep::transcript::{Source, Transcript};
use loopstep::tui::{App, Settings};
use serde_json::json;

fn only_run(source: &Source) -> (&Transcript, Trace) {
    assert_eq!(source.runs.len(), 1);
    let run = &source.runs[0];
    (run, run.replay(run.default_config()))
}

fn stop_reasons(run: &Transcript) -> Vec<(&str, bool)> {
    run.replies
        .iter()
        .map(|r| (r.stop_reason.as_str(), r.stop_reason_inferred))
        .collect()
}

#[test]
fn an_anthropic_stream_gives_its_blocks_tool_input_and_final_usage() {
    let source = load("real/anthropic-streamed-server-tool.exchanges.json");
    let (run, trace) = only_run(&source);
    assert_eq!(run.dialect(), Dialect::AnthropicMessages);
    assert_eq!(
        stop_reasons(run),
        [("tool_use", false), ("end_turn", false)]
    );
    let calls: Vec<_> = run.replies[0]
        .tool_calls()
        .map(|c| (c.name, c.input.clone()))
        .collect();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].0, "get_exchange_rate");
    assert!(calls[0].1.is_object(), "input parsed from its JSON pieces");
    assert!(
        trace
            .result()
            .unwrap()
            .starts_with("The current exchange rate is")
    );
    // The server's own tool search is part of the first reply, its call
    // and its result, between the two texts and before the tool_use, as the
    // recording's second request sends that reply back (its messages[1]:
    // text, server_tool_use, tool_search_tool_result, text, tool_use).
    assert!(matches!(
        run.replies[0].content.as_slice(),
        [
            Block::Text { .. },
            Block::ServerToolUse { name, .. },
            Block::ServerToolResult { kind, .. },
            Block::Text { .. },
            Block::ToolUse { .. },
        ] if name == "tool_search_tool_bm25" && kind == "tool_search_tool_result"
    ));
    let recorded: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture(
            "real/anthropic-streamed-server-tool.exchanges.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let sent = Dialect::AnthropicMessages.messages(trace.messages.all().range(0..2));
    let recorded_first_two = &recorded[1]["request"]["messages"].as_array().unwrap()[..2];
    assert_eq!(
        sent.as_array().unwrap(),
        recorded_first_two,
        "sent back as it came"
    );
    assert!(
        !source
            .notes
            .iter()
            .chain(&run.notes)
            .any(|n| n.to_string().contains("server_tool_use")),
        "nothing skipped"
    );
    assert!(run.replies[1].usage.is_some_and(|u| u.output_tokens > 1));
}

#[test]
fn an_anthropic_stream_with_thinking_keeps_the_thinking_before_the_text() {
    let source = load("real/anthropic-streamed-thinking.exchanges.json");
    let (run, trace) = only_run(&source);
    assert!(matches!(
        run.replies[0].content.as_slice(),
        [Block::Thinking { thinking }, Block::Text { .. }] if !thinking.is_empty()
    ));
    assert!(
        trace
            .result()
            .unwrap()
            .starts_with("Here are the basic steps")
    );
}

#[test]
fn an_openai_chat_stream_joins_the_pieces_of_tool_arguments() {
    let source = load("real/openai-chat-streamed-tool-call.exchanges.json");
    let (run, trace) = only_run(&source);
    assert_eq!(run.dialect(), Dialect::OpenaiChat);
    assert_eq!(stop_reasons(run), [("tool_calls", false)]);
    let call = run.replies[0].tool_calls().next().unwrap();
    assert_eq!(call.name, "get_weather");
    assert_eq!(call.input, &json!({"city": "New York City"}));
    // The usage chunk, which comes after the last choice, is kept.
    assert!(matches!(run.replies[0].usage, Some(Usage { input_tokens, .. }) if input_tokens > 0));
    assert_eq!(trace.outcome(), Some(Outcome::RecordingEnded));
}

#[test]
fn an_openai_chat_stream_of_refusal_pieces_halts_as_a_refusal() {
    let source = load("real/openai-chat-streamed-refusal.exchanges.json");
    let (run, trace) = only_run(&source);
    assert!(matches!(
        run.replies[0].content.as_slice(),
        [Block::Refusal { refusal }] if refusal == "I'm sorry, I can't assist with that request."
    ));
    assert_eq!(trace.outcome(), Some(Outcome::Stopped(&StopCause::Refusal)));
}

#[test]
fn an_openai_responses_stream_is_its_completed_response() {
    let source = load("real/openai-responses-streamed.exchanges.json");
    let (run, trace) = only_run(&source);
    assert_eq!(run.dialect(), Dialect::OpenaiResponses);
    assert_eq!(
        stop_reasons(run),
        [("completed", false), ("completed", false)]
    );
    assert_eq!(trace.result(), Some("The capital of France is Paris."));
    let dispatched = trace.steps.iter().find_map(|s| match &s.event {
        Event::Dispatch { name, .. } => Some(name.as_str()),
        _ => None,
    });
    assert_eq!(dispatched, Some("get_capital"));
    // The recorded client answered the call under its item id (`fc_…`)
    // instead of its call_id: the item id pairs them, and the note says so.
    assert!(source.notes.iter().any(|n| n.to_string().contains(
        "sent tool call `call_kL0PCQV7M2WMoVX8V8OtYSAL` back as \
         `fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2`"
    )));
    assert!(
        !trace.steps.iter().any(|s| matches!(
            &s.event,
            Event::Dispatch { output, .. } if output.is_error
        )),
        "the call has its recorded result"
    );
}

#[test]
fn the_screen_says_a_refusal_field_overrode_a_finished_answer_stop_reason() {
    let source = load("real/openai-chat-streamed-refusal.exchanges.json");
    let runs = same_in_both(source.runs);
    let mut app = App::new(&runs, 0, Settings::default());
    let text = drive(&mut app, 80, 24, &["Right", "Right"])
        .backend()
        .to_string();
    assert!(text.contains("refusal field"), "{text}");
    assert!(text.contains("is set: the model declined"), "{text}");
}

/// An exchange log of one request whose response is `events` streamed.
fn streamed(name: &str, events: &[serde_json::Value], data_only: bool) -> Source {
    let body: String = events
        .iter()
        .map(|e| {
            let name = e["type"].as_str().filter(|_| !data_only);
            let event = name.map(|n| format!("event: {n}\n")).unwrap_or_default();
            format!("{event}data: {e}\n\n")
        })
        .collect();
    let log =
        json!([{"request": {"messages": [{"role": "user", "content": "q"}]}, "response": body}]);
    open_written(name, log.to_string()).unwrap()
}

#[test]
fn a_stream_numbering_its_calls_sparsely_keeps_them_in_order_and_no_more() {
    let calls: Vec<_> = (0..3000u64)
        .map(|k| json!({"index": k * 1000, "id": format!("c{k}"), "function": {"name": "f", "arguments": "{}"}}))
        .collect();
    let chunk = json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": calls}}]});
    let source = streamed("sparse", &[chunk], true);
    let ids: Vec<&str> = source.runs[0].replies[0]
        .tool_calls()
        .map(|c| c.id)
        .collect();
    assert_eq!(ids.len(), 3000);
    assert_eq!((ids[0], ids[2999]), ("c0", "c2999"));
}

#[test]
fn a_stream_of_many_small_deltas_joins_them_in_linear_time() {
    let mut events = vec![
        json!({"type": "message_start", "message": {"role": "assistant", "content": [], "usage": {}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    ];
    let piece = "x".repeat(100);
    events.extend((0..20_000).map(|_| {
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}})
    }));
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}));
    let source = streamed("deltas", &events, false);
    assert_eq!(source.runs[0].replies[0].text().len(), 2_000_000);
}

#[test]
fn a_streamed_reply_and_a_retried_call_say_so_on_their_call_in_both_languages() {
    use common::screen::rows;
    use loopstep::narrate::Lang;
    // The first response of this real recording is a body of server-sent
    // events (its `response` is a string); the second is too.
    let source = load("real/anthropic-streamed-server-tool.exchanges.json");
    assert!(source.runs[0].replies.iter().all(|r| r.streamed));
    // A reply recorded as an object was not.
    let plain = load("exchanges-anthropic.jsonl");
    assert!(plain.runs[0].replies.iter().all(|r| !r.streamed));
    let runs = same_in_both(source.runs);
    for (lang, words) in [
        (Lang::En, "streamed: the reply arrived piece by piece"),
        (Lang::Zh, "流式返回：回复以服务器推送事件"),
    ] {
        let settings = Settings {
            lang,
            ..Settings::default()
        };
        let mut app = App::new(&runs, 0, settings);
        let screen = drive(&mut app, 120, 40, &["Right"]);
        let text: String = rows(screen.backend().buffer())
            .join("")
            .split_whitespace()
            .collect();
        let words: String = words.split_whitespace().collect();
        assert!(text.contains(&words), "{lang:?}: {text}");
    }
}
