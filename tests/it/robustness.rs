//! No input makes loopstep panic: random JSON built from the words of the
//! formats it reads, and random bytes, go through every importer and, when
//! they load, through a replay; so do the fixtures, real recordings
//! included, after random changes anywhere in them.

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
    "history",
    "tool_call_ids",
    "is_demo",
    "action",
    "trajectory_format",
    "info",
    "exit_status",
    "refusal",
    "payload",
    "response_item",
    "session_meta",
    "call_id",
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
        Some(Format::Trajectory),
        Some(Format::Codex),
        Some(Format::OpenHands),
        Some(Format::Inspect),
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

/// Every fixture, real recordings included, as parsed JSON: a document, or
/// the lines of a JSON Lines file as an array (`true`).
fn fixtures() -> Vec<(Value, bool)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut found = Vec::new();
    for dir in [root.to_owned(), format!("{root}/real")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            // Notes, folders, zip archives, cassettes (YAML) and bare
            // streams are not JSON to mutate; the fuzzer mutates the text
            // of the last two.
            let not_json = ["md", "eval", "yaml", "txt", "bin"];
            if path
                .extension()
                .is_some_and(|e| not_json.iter().any(|n| e == *n))
                || path.is_dir()
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            match serde_json::from_str(&text) {
                Ok(document) => found.push((document, false)),
                Err(_) => {
                    let lines = text.lines().filter(|l| !l.trim().is_empty());
                    let lines = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
                    found.push((Value::Array(lines), true));
                }
            }
        }
    }
    found
}

/// Every value inside `value`, as a JSON pointer.
fn pointers(value: &Value, at: String, all: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), all);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                let key = key.replace('~', "~0").replace('/', "~1");
                pointers(item, format!("{at}/{key}"), all);
            }
        }
        _ => {}
    }
    all.push(at);
}

/// One change to a document: a value replaced, or removed from its parent.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
}

fn mutate(document: &mut Value, mutation: &Mutation) {
    let mut all = Vec::new();
    pointers(document, String::new(), &mut all);
    let (Mutation::Replace(at, _) | Mutation::Remove(at)) = mutation;
    let pointer = &all[at % all.len()];
    match mutation {
        Mutation::Replace(_, new) => {
            if let Some(old) = document.pointer_mut(pointer) {
                *old = new.clone();
            }
        }
        Mutation::Remove(_) => {
            let Some((parent, last)) = pointer.rsplit_once('/') else {
                return;
            };
            match document.pointer_mut(parent) {
                Some(Value::Object(fields)) => {
                    fields.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = last.parse::<usize>() {
                        items.remove(i);
                    }
                }
                _ => {}
            }
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), json()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        any::<usize>().prop_map(Mutation::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_fixture_mutated_at_random_loads_and_replays_or_says_why(
        which in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let all = fixtures();
        let (mut document, lines) = all[which % all.len()].clone();
        for m in &mutations {
            mutate(&mut document, m);
        }
        let text = match (&document, lines) {
            (Value::Array(items), true) => {
                items.iter().map(Value::to_string).collect::<Vec<_>>().join("\n")
            }
            _ => document.to_string(),
        };
        load_and_replay(&text);
    }
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
