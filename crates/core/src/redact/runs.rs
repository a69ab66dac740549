//! Whole runs redacted at load, so that everything after (the screen,
//! `run`, `export`, their JSON) shows only redacted text. What an API or a
//! replay matches on stays: ids, tool names, the model, the declared tools.
//! Nothing is copied where nothing is found: a tool result (`Arc<str>`,
//! shared by the run and its steps) or a history is replaced only when
//! redacting changed it.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::assigned::name_kind;
use super::{Kind, redact, whole_value};
use crate::engine::{Block, History, Log, Message, Recorded, ToolEnv, ToolOutput};
use crate::transcript::{Note, Source, Transcript};

/// Redacts every text of these runs in place. Runs cut from one log share
/// one history; it is redacted once, and stays shared.
pub fn runs<'a>(runs: impl IntoIterator<Item = &'a mut Transcript>) {
    let mut histories = Histories::default();
    for run in runs {
        transcript(run, &mut histories);
    }
}

/// Redacts every run of a source, and its own notes.
pub fn source(source: &mut Source) {
    runs(&mut source.runs);
    source.notes.iter_mut().for_each(note);
}

/// Redacts what a summary of a source shows of it (`validate`'s): each
/// run's title and notes, and the source's own notes. The rest is left
/// unread, so that checking a 50 MB recording scans none of its texts.
pub fn summary(source: &mut Source) {
    for run in &mut source.runs {
        string(&mut run.title);
        run.notes.iter_mut().for_each(note);
    }
    source.notes.iter_mut().for_each(note);
}

/// Each history met so far, and what it became.
type Histories = Vec<(Arc<Log>, Arc<Log>)>;

fn transcript(run: &mut Transcript, histories: &mut Histories) {
    let texts = [&mut run.title, &mut run.description, &mut run.question]
        .into_iter()
        .chain(run.system.as_mut())
        .chain(run.remarks.iter_mut().map(|r| &mut r.text))
        .chain(run.goal.as_mut().map(|g| &mut g.push_back))
        .chain(run.expect.as_mut().and_then(|e| e.answer.as_mut()));
    texts.for_each(string);
    history(&mut run.history, histories);
    let inserted = run.inserted.iter_mut().flat_map(|i| &mut i.messages);
    for content in run
        .replies
        .iter_mut()
        .map(|r| &mut r.content)
        .chain(inserted.map(|m| &mut m.content))
    {
        content.iter_mut().for_each(|b| in_place(b, block));
    }
    run.environment.values_mut().for_each(environment);
    for recorded in run.results.values_mut() {
        match recorded {
            Recorded::Once(one) => output(one),
            Recorded::PerUse(each) => each.iter_mut().for_each(output),
        }
    }
    run.notes.iter_mut().for_each(note);
}

/// The history redacted, or the one already made of the same shared list.
fn history(history: &mut History, histories: &mut Histories) {
    let all = history.log();
    let redacted = match histories.iter().find(|(seen, _)| Arc::ptr_eq(seen, all)) {
        Some((_, redacted)) => Arc::clone(redacted),
        None => {
            let redacted = each(all.messages(), message).map_or_else(|| Arc::clone(all), Log::new);
            histories.push((Arc::clone(all), Arc::clone(&redacted)));
            redacted
        }
    };
    *history = history.over(&redacted);
}

fn environment(env: &mut ToolEnv) {
    match env {
        ToolEnv::Search { pages } => {
            for page in pages {
                [&mut page.title, &mut page.text]
                    .into_iter()
                    .chain(&mut page.aliases)
                    .for_each(string);
            }
        }
        ToolEnv::Today { date } => string(date),
    }
}

fn output(output: &mut ToolOutput) {
    in_place(&mut output.content, |c| changed(c).map(Arc::from));
}

/// The notes that hold a recording's own words.
fn note(note: &mut Note) {
    match note {
        Note::Text(text)
        | Note::Unreadable { error: text, .. }
        | Note::Retried { error: text, .. }
        | Note::FirstLineNotJson { line: text }
        | Note::CallsRunUnder { said: text, .. }
        | Note::CommandsFromText { said: text, .. } => string(text),
        _ => {}
    }
}

fn string(text: &mut String) {
    in_place(text, |t| changed(t));
}

fn in_place<T>(slot: &mut T, redacted: impl FnOnce(&T) -> Option<T>) {
    if let Some(new) = redacted(slot) {
        *slot = new;
    }
}

/// The text redacted, if that changed it.
fn changed(text: &str) -> Option<String> {
    match redact(text) {
        Cow::Owned(text) => Some(text),
        Cow::Borrowed(_) => None,
    }
}

/// `items` with each one that `redacted` changes replaced, or None when it
/// changes none: nothing is copied then.
fn each<T: Clone>(items: &[T], redacted: impl Fn(&T) -> Option<T>) -> Option<Vec<T>> {
    let mut out: Option<Vec<T>> = None;
    for (i, item) in items.iter().enumerate() {
        if let Some(new) = redacted(item) {
            out.get_or_insert_with(|| items.to_vec())[i] = new;
        }
    }
    out
}

fn message(message: &Message) -> Option<Message> {
    let content = each(&message.content, block)?;
    Some(Message {
        role: message.role,
        content,
    })
}

fn block(block: &Block) -> Option<Block> {
    Some(match block {
        Block::Text { text } => Block::Text {
            text: changed(text)?,
        },
        Block::Thinking { thinking } => Block::Thinking {
            thinking: changed(thinking)?,
        },
        Block::Refusal { refusal } => Block::Refusal {
            refusal: changed(refusal)?,
        },
        Block::ToolUse { id, name, input } => Block::ToolUse {
            id: id.clone(),
            name: name.clone(),
            input: json(input)?,
        },
        Block::ServerToolUse { id, name, input } => Block::ServerToolUse {
            id: id.clone(),
            name: name.clone(),
            input: json(input)?,
        },
        Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => Block::ToolResult {
            tool_use_id: tool_use_id.clone(),
            content: changed(content)?.into(),
            is_error: *is_error,
        },
        Block::ServerToolResult {
            tool_use_id,
            kind,
            content,
        } => Block::ServerToolResult {
            tool_use_id: tool_use_id.clone(),
            kind: kind.clone(),
            content: json(content)?,
        },
    })
}

/// A JSON value with its secrets replaced in place: each string, and
/// whole the values of fields named like secrets (`api_key`, ...).
pub fn json_value(value: &mut Value) {
    if let Some(redacted) = json(value) {
        *value = redacted;
    }
}

/// A tool's input redacted: its strings (raw JSON arguments among them),
/// and whole the values of fields named like secrets.
pub(super) fn json(value: &Value) -> Option<Value> {
    match value {
        Value::String(text) => changed(text).map(Value::String),
        Value::Array(items) => each(items, json).map(Value::Array),
        Value::Object(fields) => object(fields).map(Value::Object),
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}

/// An object's fields redacted: their values, and their names too, for a
/// key can be a name (`{"sk-proj-…": "prod"}`).
fn object(fields: &Map<String, Value>) -> Option<Map<String, Value>> {
    let redacted: Vec<(Option<String>, Option<Value>)> = fields
        .iter()
        .map(|(name, value)| {
            let new = match name_kind(name) {
                Some(kind) => secret_field(value, kind),
                None => json(value),
            };
            (changed(name), new)
        })
        .collect();
    if redacted
        .iter()
        .all(|(name, value)| name.is_none() && value.is_none())
    {
        return None;
    }
    let mut out = Map::new();
    for ((name, value), (new_name, new_value)) in fields.iter().zip(redacted) {
        let mut name = new_name.unwrap_or_else(|| name.clone());
        // Two names redacted alike stay two fields, each with its value.
        if out.contains_key(&name) {
            let base = name.clone();
            name = (2..)
                .map(|n| format!("{base} {n}"))
                .find(|candidate| !out.contains_key(candidate))
                .unwrap_or(base);
        }
        // In the same order: the fields keep their places.
        out.insert(name, new_value.unwrap_or_else(|| value.clone()));
    }
    Some(out)
}

/// The value of a field named like a secret: a string or a number
/// replaced whole; a list or an object redacted field by field.
fn secret_field(value: &Value, kind: Kind) -> Option<Value> {
    match value {
        Value::String(text) => whole_value(text, kind).map(Value::String),
        Value::Number(number) => whole_value(&number.to_string(), kind).map(Value::String),
        other => json(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_named_fields_are_replaced_whole_and_others_scanned() {
        let input = json!({
            "query": "Aurora Run",
            "password": "hunter2",
            "pin_token": 1234,
            "auth": {"api_key": "sk-ant-api03-abcdefghij0123456789ABCDEFGHIJ", "max_tokens": 1024},
            "env": ["GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz", "PWD=/home/me"],
            "empty_secret": "",
            "raw": "{\"token\": \"abc123\"}"
        });
        let redacted = json(&input).unwrap();
        assert_eq!(
            redacted,
            json!({
                "query": "Aurora Run",
                "password": "[redacted: password]",
                "pin_token": "[redacted: token]",
                "auth": {"api_key": "[redacted: anthropic key]", "max_tokens": 1024},
                "env": ["GITHUB_TOKEN=[redacted: github token]", "PWD=/home/me"],
                "empty_secret": "",
                "raw": "{\"token\": \"[redacted: token]\"}"
            })
        );
        assert_eq!(json(&redacted), None, "redacting again changes nothing");
    }

    #[test]
    fn a_secret_used_as_a_name_is_replaced_and_its_value_kept() {
        let input = json!({
            "sk-proj-abcdefghij0123456789ABCD": "prod",
            "region": "eu",
            "sk-proj-zyxwvutsrq9876543210ABCD": "staging"
        });
        let redacted = json(&input).unwrap();
        let fields: Vec<(&String, &Value)> = redacted.as_object().unwrap().iter().collect();
        assert_eq!(
            fields,
            [
                (&"[redacted: openai key]".to_owned(), &json!("prod")),
                (&"region".to_owned(), &json!("eu")),
                (&"[redacted: openai key] 2".to_owned(), &json!("staging")),
            ]
        );
        assert_eq!(json(&redacted), None, "redacting again changes nothing");
    }

    #[test]
    fn unchanged_items_are_not_copied() {
        assert_eq!(each(&["a", "b"], |_| None::<&str>), None);
        assert_eq!(
            each(&["a", "b"], |s| (*s == "b").then_some("c")),
            Some(vec!["a", "c"])
        );
    }
}
