//! transcripts/transcript.schema.json describes what loopstep reads and
//! writes: every built-in run, the README's example and every imported
//! recording validate against it, and what loopstep refuses, it refuses too.
//!
//! The checker below knows just the JSON Schema keywords the file uses.

use loopstep::transcript::{BUILTIN_NAMES, open};
use serde_json::{Value, json};

const SCHEMA: &str = include_str!("../transcripts/transcript.schema.json");

fn schema() -> Value {
    serde_json::from_str(SCHEMA).unwrap()
}

/// Every way `value` breaks `rule`, as JSON paths.
fn errors(root: &Value, rule: &Value, value: &Value, at: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Some(rule) = rule.as_object() else {
        return found;
    };
    let mut fail = |why: String| found.push(format!("{at}: {why}"));
    if let Some(Value::String(reference)) = rule.get("$ref") {
        let name = reference.trim_start_matches("#/$defs/");
        return errors(root, &root["$defs"][name], value, at);
    }
    if let Some(expected) = rule.get("const")
        && value != expected
    {
        fail(format!("expected {expected}"));
    }
    if let Some(Value::Array(options)) = rule.get("enum")
        && !options.contains(value)
    {
        fail(format!("not one of {options:?}"));
    }
    if let Some(kinds) = rule.get("type") {
        let kinds: Vec<&str> = match kinds {
            Value::String(k) => vec![k.as_str()],
            Value::Array(ks) => ks.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let fits = |k: &str| match k {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "boolean" => value.is_boolean(),
            _ => false,
        };
        if !kinds.iter().any(|k| fits(k)) {
            fail(format!("not of type {kinds:?}"));
        }
    }
    if let (Some(min), Some(s)) = (
        rule.get("minLength").and_then(Value::as_u64),
        value.as_str(),
    ) && (s.chars().count() as u64) < min
    {
        fail(format!("shorter than {min}"));
    }
    if let (Some(min), Some(n)) = (rule.get("minimum").and_then(Value::as_i64), value.as_i64())
        && n < min
    {
        fail(format!("below {min}"));
    }
    if let Some(Value::Array(options)) = rule.get("oneOf") {
        let matching = options
            .iter()
            .filter(|o| errors(root, o, value, at).is_empty())
            .count();
        if matching != 1 {
            fail(format!("matches {matching} of the oneOf options"));
        }
    }
    if let Some(object) = value.as_object() {
        for name in rule
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !object.contains_key(name.as_str().unwrap()) {
                fail(format!("missing {name}"));
            }
        }
        let properties = rule.get("properties").and_then(Value::as_object);
        for (key, item) in object {
            let path = format!("{at}.{key}");
            match (
                properties.and_then(|p| p.get(key)),
                rule.get("additionalProperties"),
            ) {
                (Some(sub), _) => found.extend(errors(root, sub, item, &path)),
                (None, Some(Value::Bool(false))) => found.push(format!("{path}: not allowed")),
                (None, Some(sub @ Value::Object(_))) => {
                    found.extend(errors(root, sub, item, &path))
                }
                (None, _) => {}
            }
        }
    }
    if let Some(items) = value.as_array() {
        if let Some(min) = rule.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < min
        {
            found.push(format!("{at}: fewer than {min} items"));
        }
        if let Some(sub) = rule.get("items") {
            for (i, item) in items.iter().enumerate() {
                found.extend(errors(root, sub, item, &format!("{at}[{i}]")));
            }
        }
    }
    found
}

fn check(value: &Value) -> Vec<String> {
    let root = schema();
    errors(&root, &root, value, "$")
}

#[test]
fn every_built_in_run_file_fits_the_schema() {
    for name in BUILTIN_NAMES {
        let path = format!("{}/transcripts/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(check(&value), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn the_readme_example_and_every_import_fit_the_schema() {
    let readme = include_str!("../README.md");
    let example = readme
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert_eq!(
        check(&serde_json::from_str(example).unwrap()),
        Vec::<String>::new()
    );
    let fixtures = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    for name in [
        "real/deepseek-tool-calls-with-thinking.exchanges.json",
        "conversation-anthropic.json",
        "claude-code.jsonl",
        "exchanges-openai-responses.json",
    ] {
        let source = open(&format!("{fixtures}/{name}"), None).unwrap();
        let native = serde_json::to_value(&source.runs).unwrap();
        assert_eq!(check(&native), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn what_loopstep_refuses_the_schema_refuses() {
    let good = json!({
        "version": 1, "id": "x", "title": "x", "question": "q", "model": "m", "max_turns": 1,
        "replies": [{"content": [{"type": "text", "text": "a"}], "stop_reason": "end_turn"}]
    });
    assert!(check(&good).is_empty());
    let mut typo = good.clone();
    typo["max_turn"] = json!(2);
    assert!(!check(&typo).is_empty(), "unknown field");
    let mut zero = good.clone();
    zero["max_turns"] = json!(0);
    assert!(!check(&zero).is_empty(), "max_turns 0");
    let mut no_replies = good.clone();
    no_replies.as_object_mut().unwrap().remove("replies");
    assert!(!check(&no_replies).is_empty(), "missing replies");
    let mut result_in_reply = good;
    result_in_reply["replies"][0]["content"] =
        json!([{"type": "tool_result", "tool_use_id": "a", "content": "x"}]);
    assert!(
        !check(&result_in_reply).is_empty(),
        "a reply holds no tool_result"
    );
}

#[test]
fn a_transcript_may_name_its_schema() {
    let doc = json!({
        "$schema": "../transcripts/transcript.schema.json",
        "version": 1, "id": "x", "title": "x", "question": "q", "model": "m", "max_turns": 1,
        "replies": [{"content": [{"type": "text", "text": "a"}], "stop_reason": "end_turn"}]
    });
    assert!(check(&doc).is_empty());
    let t = loopstep::transcript::Transcript::parse(&doc.to_string(), "with $schema").unwrap();
    assert_eq!(t.replay(t.default_config()).result(), Some("a"));
    let scenario =
        json!({"$schema": "s.json", "version": 1, "id": "y", "title": "y", "base": "paris"});
    assert!(check(&scenario).is_empty());
    assert!(loopstep::transcript::Transcript::parse(&scenario.to_string(), "scenario").is_ok());
}
