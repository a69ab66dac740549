//! The dialects' shared rules: checking a run where it joins its
//! history, the stop reasons each reads and tells, a guess by them.

use super::*;
use crate::vocab::{Block, RequestRule, Role};

fn asks(id: &str) -> Message {
    Message {
        role: Role::Assistant,
        content: vec![Block::ToolUse {
            id: id.into(),
            name: "t".into(),
            input: serde_json::json!({}),
        }],
    }
}

fn answers(id: &str) -> Message {
    Message {
        role: Role::User,
        content: vec![Block::ToolResult {
            tool_use_id: id.into(),
            content: "ok".into(),
            is_error: false,
        }],
    }
}

#[test]
fn a_run_is_checked_where_it_joins_its_history_and_for_ids_the_history_used() {
    // The history breaks a rule early on (an id used twice); it was
    // accepted before this run and is not the run's to answer for.
    let history = History::new(vec![
        Message::user_text("q1"),
        asks("a"),
        answers("a"),
        asks("a"),
        answers("a"),
        Message {
            role: Role::Assistant,
            content: vec![Block::Text {
                text: "done".into(),
            }],
        },
    ]);
    for dialect in [Dialect::AnthropicMessages, Dialect::OpenaiChat] {
        let mut checker = dialect.checker(&history);
        assert_eq!(checker.push(6, &Message::user_text("q2")), Ok(()));
        assert_eq!(checker.finish(), Ok(()), "{dialect:?}");
        // A call id the history already used is refused in the run.
        let added = [asks("a"), answers("a")];
        let verdicts: Vec<_> = (7..).zip(&added).map(|(i, m)| checker.push(i, m)).collect();
        let refused = verdicts.into_iter().find_map(Result::err);
        assert_eq!(
            refused.map(|r| r.rule),
            Some(RequestRule::DuplicateCallIds),
            "{dialect:?}"
        );
    }
    // Only the model asks for calls: an id in a user message of the
    // history is none it used.
    let mut user_call = asks("c");
    user_call.role = Role::User;
    let odd = History::new(vec![user_call, Message::user_text("x")]);
    let mut checker = Dialect::AnthropicMessages.checker(&odd);
    let added = [Message::user_text("q2"), asks("c"), answers("c")];
    for (i, message) in (2..).zip(&added) {
        assert_eq!(checker.push(i, message), Ok(()));
    }
    // Calls left unanswered at the history's end break the run's first request.
    let pending = History::new(vec![Message::user_text("q1"), asks("b")]);
    for dialect in [Dialect::AnthropicMessages, Dialect::OpenaiChat] {
        let mut checker = dialect.checker(&pending);
        let joined = checker.push(2, &Message::user_text("q2"));
        let verdict = joined.and_then(|()| checker.finish());
        assert_eq!(
            verdict.map_err(|r| r.rule),
            Err(RequestRule::UnansweredCalls),
            "{dialect:?}"
        );
    }
}

#[test]
fn each_dialect_reads_only_its_own_spellings() {
    use Dialect::*;
    assert_eq!(
        AnthropicMessages.stop_reason("tool_use"),
        StopReason::ToolUse
    );
    assert_eq!(OpenaiChat.stop_reason("tool_calls"), StopReason::ToolUse);
    assert_eq!(OpenaiChat.stop_reason("tool_use"), StopReason::Unknown);
    assert_eq!(AnthropicMessages.stop_reason("stop"), StopReason::Unknown);
    assert_eq!(OpenaiChat.spell(StopReason::MaxTokens), Some("length"));
    assert_eq!(
        OpenaiResponses.spell(StopReason::MaxTokens),
        Some("max_output_tokens")
    );
    // Responses has no status that asks for tools: the output items do.
    assert_eq!(OpenaiResponses.spell(StopReason::ToolUse), None);
    assert_eq!(
        OpenaiResponses.stop_reason("completed"),
        StopReason::Completed
    );
    assert_eq!(AnthropicMessages.spell(StopReason::ContentFilter), None);
}

#[test]
fn every_api_tells_another_s_stops_in_its_own_words_where_it_has_them() {
    use Dialect::*;
    use StopReason as R;
    // (recorded in, raw, asks for tools) → told in each of ALL.
    let asks_for_tools = [
        Some("tool_use"),
        Some("tool_calls"),
        Some("completed"),
        Some("STOP"),
        Some("tool_use"),
    ];
    let table: [(Dialect, &str, bool, [Option<&str>; 5]); 6] = [
        (AnthropicMessages, "tool_use", true, asks_for_tools),
        (
            AnthropicMessages,
            "end_turn",
            false,
            [
                Some("end_turn"),
                Some("stop"),
                Some("completed"),
                Some("STOP"),
                Some("end_turn"),
            ],
        ),
        (
            AnthropicMessages,
            "stop_sequence",
            false,
            [
                Some("stop_sequence"),
                Some("stop"),
                Some("completed"),
                Some("STOP"),
                Some("stop_sequence"),
            ],
        ),
        (
            AnthropicMessages,
            "max_tokens",
            false,
            [
                Some("max_tokens"),
                Some("length"),
                Some("max_output_tokens"),
                Some("MAX_TOKENS"),
                Some("max_tokens"),
            ],
        ),
        (
            AnthropicMessages,
            "pause_turn",
            false,
            [Some("pause_turn"), None, None, None, None],
        ),
        (Gemini, "STOP", true, asks_for_tools),
    ];
    for (recorded, raw, asks, told) in table {
        for (to, expected) in Dialect::ALL.into_iter().zip(told) {
            assert_eq!(
                to.told_stop(recorded, raw, asks),
                expected,
                "{raw} {recorded:?} → {to:?}"
            );
        }
    }
    // What is told means what was recorded.
    assert_eq!(OpenaiChat.stop_reason("length"), R::MaxTokens);
}

#[test]
fn a_transcript_without_a_dialect_is_read_by_its_stop_reasons() {
    let guess = |r: &[&str]| Dialect::guess(r.iter().copied());
    assert_eq!(guess(&["tool_calls", "stop"]), Dialect::OpenaiChat);
    assert_eq!(guess(&["tool_use", "end_turn"]), Dialect::AnthropicMessages);
    assert_eq!(guess(&["nonsense"]), Dialect::AnthropicMessages);
}
