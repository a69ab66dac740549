//! A call the client asked again, the same request after the API failed
//! it (an HTTP error) or answered with nothing: one call, its retries
//! noted. Real cassettes (tests/fixtures/real/SOURCES.md, "Retried
//! calls"), counted by hand from the raw files.

use loopstep::transcript::{Note, Source};

use crate::common::{Counted, counted, load};

/// The retry notes of a source: (call, attempts, error).
fn retries(source: &Source) -> Vec<(usize, usize, String)> {
    source
        .notes
        .iter()
        .filter_map(|note| match note {
            Note::Retried {
                call,
                attempts,
                error,
                went_through: true,
            } => Some((*call, *attempts, error.clone())),
            _ => None,
        })
        .collect()
}

/// One run of `calls` model calls and `tools` tool calls, ending `outcome`.
fn one_run(calls: usize, tools: usize, outcome: &'static str) -> Counted {
    Counted {
        runs: 1,
        model_calls: calls,
        tool_calls: tools,
        outcomes: vec![outcome],
    }
}

#[test]
fn an_http_error_then_the_same_request_is_one_call() {
    // crewAI: interaction 0 is a 503 (x-stainless-retry-count 0), 1 the
    // same body (retry-count 1) answered 200 with text: one call.
    let source = load("real/retries/crewai-openai-503.yaml");
    assert_eq!(counted(&source), one_run(1, 0, "answered"));
    assert_eq!(retries(&source), [(1, 1, "HTTP 503".to_owned())]);
}

#[test]
fn a_retry_in_the_middle_of_a_tool_loop_is_that_calls() {
    // Mirascope: interaction 0 asks (get_book_info tool_use), 1 sends the
    // result and gets a 503, 2 is the same body as 1, answered with a
    // second tool_use; the cassette ends there, its result never sent.
    let source = load("real/retries/mirascope-anthropic-503.yaml");
    assert_eq!(counted(&source), one_run(2, 2, "recording_ended"));
    assert_eq!(retries(&source), [(2, 1, "HTTP 503".to_owned())]);
}

#[test]
fn two_failures_before_the_call_goes_through_are_two_attempts() {
    // Pydantic AI over OpenRouter: interactions 0 and 1 are 429s, 2 the
    // same body answered: one call, failed twice.
    let source = load("real/retries/pydantic-ai-openrouter-429-twice.yaml");
    assert_eq!(counted(&source), one_run(1, 0, "answered"));
    let noted = retries(&source);
    assert_eq!(noted.len(), 1, "{noted:?}");
    assert_eq!((noted[0].0, noted[0].1), (1, 2));
    assert!(noted[0].2.starts_with("HTTP 429"), "{noted:?}");
}

#[test]
fn an_empty_reply_then_the_same_request_is_one_call() {
    // Pydantic AI over Anthropic: interaction 0 answers `content: []`
    // (the stop sequence came first), 1 the same body answers "The".
    let source = load("real/retries/pydantic-ai-anthropic-empty.yaml");
    assert_eq!(counted(&source), one_run(1, 0, "answered"));
    assert_eq!(retries(&source), [(1, 1, "an empty reply".to_owned())]);
    // Gemini: interaction 0 answers `content: {}` (MALFORMED_FUNCTION_CALL),
    // 1 the same body asks for get_file, 2 for get_file again, 3 is a
    // PDF download (no model call), 4 answers: three calls, two tools.
    let source = load("real/retries/pydantic-ai-gemini-empty.yaml");
    assert_eq!(counted(&source), one_run(3, 2, "answered"));
    assert_eq!(retries(&source), [(1, 1, "an empty reply".to_owned())]);
}

#[test]
fn a_push_back_then_a_rate_limit_is_one_run_of_two_calls() {
    // Pydantic AI over Cerebras: interaction 0 answers in plain text; 1
    // adds "Validation feedback: … Fix the errors and try again." (its
    // push-back) and gets a 429; 2 is the same body, answered with a
    // final_result tool call, the last thing recorded.
    let source = load("real/retries/pydantic-ai-cerebras-feedback-then-429.yaml");
    assert_eq!(counted(&source), one_run(2, 1, "recording_ended"));
    let noted = retries(&source);
    assert_eq!((noted[0].0, noted[0].1), (2, 1));
    assert!(noted[0].2.starts_with("HTTP 429"), "{noted:?}");
}

#[test]
fn requests_that_send_no_messages_are_no_calls() {
    // The same crewAI test recorded a day later: the 503 and its retry,
    // then six requests to crewAI's tracing service on localhost
    // (interactions 2-7), which send no messages: one run, no second
    // conversation.
    let source = load("real/retries/crewai-openai-503-then-tracing.yaml");
    assert_eq!(counted(&source), one_run(1, 0, "answered"));
    assert!(
        !source
            .notes
            .iter()
            .any(|n| matches!(n, Note::Conversations { .. })),
        "{:?}",
        source.notes
    );
}
