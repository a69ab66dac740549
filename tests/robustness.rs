//! No input makes loopstep panic: random JSON built from the words of the
//! formats it reads, and random bytes, go through every importer and, when
//! they load, through a replay.

use loopstep::narrate::Lang;
use loopstep::transcript::{Format, import};
use proptest::prelude::*;
use serde_json::{Map, Value};

const KEYS: &[&str] = &[
    "role",
    "content",
    "type",
    "text",
    "id",
    "name",
    "input",
    "tool_use_id",
    "is_error",
    "messages",
    "request",
    "response",
    "choices",
    "message",
    "tool_calls",
    "function",
    "arguments",
    "finish_reason",
    "stop_reason",
    "output",
    "status",
    "call_id",
    "isSidechain",
    "sessionId",
    "version",
    "replies",
    "question",
    "max_turns",
    "model",
    "system",
    "tools",
    "usage",
    "thinking",
    "reasoning_content",
    "tool_call_id",
    "input_tokens",
    "base",
];

const WORDS: &[&str] = &[
    "user",
    "assistant",
    "tool",
    "system",
    "text",
    "tool_use",
    "tool_result",
    "function_call",
    "function_call_output",
    "message",
    "end_turn",
    "stop",
    "tool_calls",
    "length",
    "max_tokens",
    "pause_turn",
    "refusal",
    "completed",
    "incomplete",
    "t1",
    "t2",
    "search",
    "{\"query\": \"x\"}",
    "{\"query\":",
    "",
    "\u{1b}[2J",
    "日本語",
];

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..20).prop_map(Value::from),
        prop::sample::select(WORDS).prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|pairs| {
                Value::Object(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

fn load_and_replay(text: &str) {
    let forced = [
        None,
        Some(Format::Native),
        Some(Format::Conversation),
        Some(Format::Exchanges),
        Some(Format::ClaudeCode),
    ];
    for from in forced {
        if let Ok(source) = import::load(text.to_owned(), "fuzz", "fuzz", from, Lang::Zh) {
            for run in &source.runs {
                let trace = run.replay(run.default_config());
                assert!(trace.outcome().is_some(), "every replay ends with an exit");
            }
        }
    }
}

/// A message of either API's shape, with ids drawn from a small set so that
/// calls and results meet, collide and go missing.
fn message() -> impl Strategy<Value = Value> {
    let id = prop::sample::select(&["t1", "t2", "t3"][..]);
    let block = prop_oneof![
        prop::sample::select(WORDS).prop_map(|t| serde_json::json!({"type": "text", "text": t})),
        id.clone().prop_map(|id| serde_json::json!({"type": "tool_use", "id": id, "name": "search", "input": {"query": "x"}})),
        (id.clone(), any::<bool>()).prop_map(|(id, e)| serde_json::json!({"type": "tool_result", "tool_use_id": id, "content": "r", "is_error": e})),
        Just(serde_json::json!({"type": "thinking", "thinking": "hmm"})),
        Just(serde_json::json!({"type": "image"})),
    ];
    prop_oneof![
        (prop::sample::select(&["user", "assistant"][..]), prop::collection::vec(block, 0..4))
            .prop_map(|(role, content)| serde_json::json!({"role": role, "content": content})),
        (prop::sample::select(&["user", "assistant", "system"][..]), prop::sample::select(WORDS))
            .prop_map(|(role, text)| serde_json::json!({"role": role, "content": text})),
        id.clone().prop_map(|id| serde_json::json!({"role": "assistant", "content": null,
            "tool_calls": [{"id": id, "type": "function", "function": {"name": "search", "arguments": "{\"q\": 1"}}]})),
        id.prop_map(|id| serde_json::json!({"role": "tool", "tool_call_id": id, "content": "r"})),
    ]
}

proptest! {
    #[test]
    fn random_conversations_load_and_replay_or_say_why(messages in prop::collection::vec(message(), 0..12)) {
        let conversation = Value::Array(messages.clone());
        load_and_replay(&conversation.to_string());
        // The same messages as a Claude Code session and as an exchange log.
        let session: Vec<String> = messages
            .iter()
            .map(|m| serde_json::json!({"type": m["role"], "message": m, "sessionId": "s"}).to_string())
            .collect();
        load_and_replay(&session.join("\n"));
        let exchanges: Vec<Value> = (1..=messages.len())
            .map(|n| serde_json::json!({
                "request": {"messages": messages[..n - 1]},
                "response": {"content": messages[n - 1]["content"], "stop_reason": "end_turn"},
            }))
            .collect();
        load_and_replay(&Value::Array(exchanges).to_string());
    }

    #[test]
    fn random_json_in_the_shapes_of_the_formats_never_panics(value in json()) {
        load_and_replay(&value.to_string());
        // As JSON Lines too.
        if let Value::Array(items) = &value {
            let lines: Vec<String> = items.iter().map(Value::to_string).collect();
            load_and_replay(&lines.join("\n"));
        }
    }

    #[test]
    fn random_text_never_panics(text in ".{0,200}") {
        load_and_replay(&text);
    }
}
