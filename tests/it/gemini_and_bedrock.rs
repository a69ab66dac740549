//! Real recordings of the Gemini API and Bedrock's Converse API
//! (tests/fixtures/real/SOURCES.md), counted right: every figure here was
//! counted by hand from the raw file, and the comment says how.

use crate::common::{self, Counted, counted, load};
use loopstep::dialect::Dialect;
use loopstep::transcript::{Format, Kind};

fn calls(format: Format, dialect: Dialect) -> Kind {
    Kind::Calls(format, dialect)
}

#[test]
fn a_gemini_cassette_answers_after_a_failed_call_and_its_retry() {
    let source = load("real/cassette-gemini-retry.yaml");
    assert_eq!(source.kind, calls(Format::Cassette, Dialect::Gemini));
    // Counted from the raw file: 3 interactions, each `finishReason: STOP`;
    // responses 1 and 2 hold one `functionCall` `get_capital` each (lines
    // 64 and 166), response 3 the text "Paris". Request 2 answers the
    // first call with `response: {error: ...}` ("The country is not
    // supported"), request 3 the second with an output.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 3,
            tool_calls: 2,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    // The model is named in the URL (`models/gemini-2.5-pro:generateContent`)
    // and in `modelVersion`.
    assert_eq!(run.model, "gemini-2.5-pro");
    assert_eq!(run.system.as_deref(), Some("You are a helpful chatbot."));
    let trace = run.replay(run.default_config());
    let results = common::dispatched(&trace);
    assert!(results[0].2.is_error, "{:?}", results[0]);
    assert!(results[0].2.content.contains("not supported"));
    assert!(!results[1].2.is_error);
    // pydantic-ai sent its own ids back (`pyd_ai_…`), which the model never
    // gave: calls are known by their place, so nothing was edited.
    assert!(run.notes.is_empty(), "{:?}", run.notes);
}

#[test]
fn a_gemini_cassette_with_three_parallel_calls_sends_three_responses_in_one_content() {
    let source = load("real/cassette-gemini-parallel-calls.yaml");
    // Counted from the raw file: 5 interactions; response 1 holds three
    // `functionCall` parts (generate_topic), responses 2–4 one each
    // (generate_topic), response 5 one `final_result` (pydantic-ai's
    // output tool), which no later request answers. 3 + 1 + 1 + 1 + 1 = 7.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 5,
            tool_calls: 7,
            outcomes: vec!["recording_ended"],
        }
    );
    let run = &source.runs[0];
    assert_eq!(run.replies[0].tool_calls().count(), 3);
    // The prompt is an empty text part: the instructions say it all.
    assert_eq!(run.question, "");
    let trace = run.replay(run.default_config());
    // The three results go back as one user content, as the API asks.
    let first_append = trace.steps.iter().find_map(|s| match s.event {
        loopstep::engine::Event::Append { appended, .. } => Some(appended),
        _ => None,
    });
    assert_eq!(first_append, Some(1));
    assert_eq!(trace.messages[2].content.len(), 3);
}

#[test]
fn a_streamed_gemini_cassette_adds_up_its_chunks() {
    let source = load("real/cassette-gemini-stream.yaml");
    assert_eq!(source.kind, calls(Format::Cassette, Dialect::Gemini));
    // Counted from the raw file: 3 interactions to
    // `streamGenerateContent?alt=sse`; the first two one `data:` event
    // each with a whole `functionCall` (get_capital, then get_temperature),
    // the third two events whose texts join to "The temperature in Paris
    // is 30°C.\n", only the second with `finishReason`.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 3,
            tool_calls: 2,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    assert_eq!(run.model, "gemini-2.0-flash");
    assert!(run.replies.iter().all(|r| r.streamed));
    assert_eq!(run.replies[2].text(), "The temperature in Paris is 30°C.\n");
}

#[test]
fn a_bedrock_cassette_runs_two_rounds_of_tools() {
    let source = load("real/cassette-bedrock-two-rounds.yaml");
    assert_eq!(
        source.kind,
        calls(Format::Cassette, Dialect::BedrockConverse)
    );
    // Counted from the raw file: 3 interactions to `.../converse`;
    // `stopReason` tool_use (toolUse country_source), tool_use (toolUse
    // capital_lookup), end_turn with the text "Capital: Tokyo".
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 3,
            tool_calls: 2,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    // The model is named only in the URL, percent-encoded.
    assert_eq!(run.model, "us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    assert_eq!(run.replies[0].stop_reason, "tool_use");
    assert!(run.notes.is_empty(), "{:?}", run.notes);
}

#[test]
fn a_bedrock_cassette_sends_a_failed_result_with_status_error() {
    let source = load("real/cassette-bedrock-retry.yaml");
    // Counted from the raw file: 2 interactions; response 1 a `<thinking>`
    // text and one toolUse get_capital (`stopReason: tool_use`); request 2
    // answers it with `status: "error"`; response 2 answers (end_turn).
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 1,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    let trace = run.replay(run.default_config());
    assert!(common::dispatched(&trace)[0].2.is_error);
}

#[test]
fn a_converse_stream_in_a_cassette_is_read_from_its_binary_frames() {
    let source = load("real/cassette-bedrock-stream.yaml");
    assert_eq!(
        source.kind,
        calls(Format::Cassette, Dialect::BedrockConverse)
    );
    // Decoded by hand (a Python walk of the frames of each `!!binary`
    // body): response 1 is 26 events, text deltas for block 0, a
    // `contentBlockStart` of toolUse get_temperature at block 1 with its
    // input in a delta, `messageStop` tool_use; response 2 is 9 events,
    // the text "The current temperature in Paris, the capital of France,
    // is 30°C.", `messageStop` end_turn.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 1,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    let call = run.replies[0].tool_calls().next().unwrap();
    assert_eq!(
        (call.name, &call.input["city"]),
        ("get_temperature", &"Paris".into())
    );
    assert_eq!(
        run.replies[1].text(),
        "The current temperature in Paris, the capital of France, is 30°C."
    );
}

#[test]
fn a_gemini_cli_session_in_json_lines_applies_updates_and_ends_on_a_cancel() {
    let source = load("real/gemini-cli-session.jsonl");
    assert_eq!(source.format, Format::GeminiCli);
    // Counted from the raw file (28 lines): a metadata line, 13 `$set`
    // lines (lastUpdated), 2 `info` lines, 3 `user` and 10 `gemini` lines.
    // The gemini lines carry 6 ids, each written first without its calls
    // and again with them (lines 6/8, 9/11, 12/14, 15/17; 20 and 24/26
    // once or twice): 6 model calls, the last copy counting. Their
    // `toolCalls`: 5 (update_topic, read_file ×4) + 3 (read_file) + 1
    // (write_file) + 1 (update_topic) + 0 + 2 (update_topic, replace) = 12.
    // Users: line 4 (the /init prompt), line 18 ("System: Please
    // continue.", sent with update_topic's result, so the client's and not
    // a prompt), line 22 (a prompt). The last turn's calls were answered,
    // then line 27 says "Request cancelled.".
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            model_calls: 6,
            tool_calls: 12,
            outcomes: vec!["answered", "interrupted"],
        }
    );
    let run = &source.runs[0];
    assert_eq!(run.dialect(), Dialect::Gemini);
    // The session switched models for its last run; a recording names
    // one model, the last it used.
    assert_eq!(run.model, "gemini-3.1-pro-preview");
    // tokens of line 9: input 29082, of which cached 8156.
    let usage = run.replies[1].usage.unwrap();
    assert_eq!(
        (usage.input_tokens, usage.cache_read_tokens),
        (29082 - 8156, 8156)
    );
}

#[test]
fn a_legacy_gemini_cli_session_is_one_json_object() {
    let source = load("real/gemini-cli-session-legacy.json");
    assert_eq!(source.format, Format::GeminiCli);
    // Counted from the raw file: `messages` holds a user prompt and three
    // gemini responses, with 3 (read_file) and 4 (write_file) tool calls,
    // all `success`; the third answers.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 3,
            tool_calls: 7,
            outcomes: vec!["answered"],
        }
    );
}

/// The wire view (`w`) at one step of a recording, on a tall screen.
fn wire_at(fixture: &str, step: &str) -> String {
    let runs = common::screen::same_in_both(load(fixture).runs);
    let mut app = loopstep::tui::App::new(&runs, 0, loopstep::tui::Settings::default());
    let screen = common::screen::drive(&mut app, 100, 60, &[":", step, "Enter", "w"]);
    screen.backend().to_string()
}

#[test]
fn the_wire_view_shows_a_gemini_request_and_reply_in_gemini_s_shape() {
    // Step 6 is the second call: its request, which sends the function
    // call back; step 7 its check, on the reply, which asks again.
    let file = "real/cassette-gemini-retry.yaml";
    let request = wire_at(file, "6");
    for shape in ["\"systemInstruction\"", "\"tools\"", "\"contents\""] {
        assert!(request.contains(shape), "{shape}: {request}");
    }
    insta::assert_snapshot!("wire_gemini_request_100x60", request);
    let reply = wire_at(file, "7");
    for shape in [
        "\"candidates\"",
        "\"functionCall\"",
        "\"finishReason\": \"STOP\"",
    ] {
        assert!(reply.contains(shape), "{shape}: {reply}");
    }
    insta::assert_snapshot!("wire_gemini_reply_100x60", reply);
}

#[test]
fn the_wire_view_shows_a_converse_request_and_reply_in_bedrock_s_shape() {
    let file = "real/cassette-bedrock-two-rounds.yaml";
    let request = wire_at(file, "6");
    for shape in ["\"system\"", "\"toolConfig\"", "\"messages\""] {
        assert!(request.contains(shape), "{shape}: {request}");
    }
    insta::assert_snapshot!("wire_bedrock_request_100x60", request);
    let reply = wire_at(file, "7");
    for shape in ["\"output\"", "\"toolUse\"", "\"stopReason\": \"tool_use\""] {
        assert!(reply.contains(shape), "{shape}: {reply}");
    }
    insta::assert_snapshot!("wire_bedrock_reply_100x60", reply);
}

#[test]
fn an_exchange_log_may_hold_a_converse_stream_as_its_list_of_events() {
    // boto3's converse_stream yields each event as a one-key object; a
    // logger that keeps them writes the list.
    let log = serde_json::json!([
        {
            "url": "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/converse-stream",
            "request": {"messages": [{"role": "user", "content": [{"text": "Weather in Paris?"}]}],
                        "inferenceConfig": {"maxTokens": 256}},
            "response": [
                {"messageStart": {"role": "assistant"}},
                {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "weather"}}}},
                {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{\"city\": \"Paris\"}"}}}},
                {"contentBlockStop": {"contentBlockIndex": 0}},
                {"messageStop": {"stopReason": "tool_use"}},
                {"metadata": {"usage": {"inputTokens": 12, "outputTokens": 9, "totalTokens": 21}}}
            ]
        },
        {
            "request": {"messages": [
                {"role": "user", "content": [{"text": "Weather in Paris?"}]},
                {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "weather", "input": {"city": "Paris"}}}]},
                {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_1", "content": [{"json": {"c": 18}}]}}]}
            ]},
            "response": {"output": {"message": {"role": "assistant", "content": [{"text": "18 °C."}]}},
                         "stopReason": "end_turn", "usage": {"inputTokens": 30, "outputTokens": 4, "totalTokens": 34}}
        }
    ]);
    let source = common::open_written("converse.json", log.to_string().as_bytes()).unwrap();
    assert_eq!(
        source.kind,
        calls(Format::Exchanges, Dialect::BedrockConverse)
    );
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 1,
            outcomes: vec!["answered"],
        }
    );
    let run = &source.runs[0];
    assert_eq!(run.model, "us.amazon.nova-micro-v1:0");
    assert_eq!(run.max_tokens, Some(256));
    assert!(run.replies[0].streamed);
    let trace = run.replay(run.default_config());
    assert_eq!(
        common::dispatched(&trace)[0].2.content.to_string(),
        "{\"c\":18}"
    );
}
