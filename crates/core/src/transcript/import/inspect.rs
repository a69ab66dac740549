//! An Inspect AI eval log (`.json`): an object with `eval` and `samples`,
//! each sample one run. Where a sample's `model` events kept the raw call
//! (`call.request` / `call.response`, in the provider's own wire shape),
//! those are the run, read as an exchange log with their real stop
//! reasons; else the sample's `messages` are, read as a conversation.
//! Long texts are stored once in the sample's `attachments` and written
//! `attachment://<hash>` where they occur; they are put back first.
//! An `.eval` archive (a zip of the same JSON, split per sample) is
//! unpacked into that shape first.

use crate::transcript::Provenance;
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::segment::{Recording, span, stamp_of};
use super::{conversation, exchanges};
use crate::dialect::Dialect;
use crate::dialect::read::Reader;
use crate::engine::{Block, Stamp, Timing};
use crate::transcript::{LoadError, Note, Why};

/// Whether `top` is an Inspect eval log.
pub fn detect(top: &Map<String, Value>) -> bool {
    top.get("eval").is_some_and(Value::is_object) && top.get("samples").is_some_and(Value::is_array)
}

/// One recording per sample (and epoch), named after it, each followed by
/// its scoring where a scorer called a model.
pub fn read(top: &Value, name: &str, reader: &mut Reader, notes: &mut Vec<Note>) -> Vec<Recording> {
    let model = top.pointer("/eval/model").cloned().unwrap_or(Value::Null);
    let samples = top.get("samples").and_then(Value::as_array);
    let epoch_of = |sample: &Value| sample.get("epoch").and_then(Value::as_u64);
    // Epochs are named where there is more than one.
    let epochs = samples
        .into_iter()
        .flatten()
        .any(|s| epoch_of(s).is_some_and(|e| e > 1));
    let mut recordings = Vec::new();
    for (k, sample) in samples.into_iter().flatten().enumerate() {
        let id = match sample.get("id") {
            Some(Value::String(id)) => id.clone(),
            Some(Value::Number(id)) => id.to_string(),
            _ => (k + 1).to_string(),
        };
        let epoch = epoch_of(sample).filter(|_| epochs);
        let (name, label) = match &epoch {
            Some(epoch) => (
                format!("{name}-sample-{id}-epoch-{epoch}"),
                format!("sample {id}, epoch {epoch}"),
            ),
            None => (format!("{name}-sample-{id}"), format!("sample {id}")),
        };
        let origin = Provenance::Sample {
            id: id.clone(),
            epoch: epoch.map(|e| e.to_string()),
            scoring: false,
        };
        let mut recording = Recording {
            name: name.clone(),
            source: origin.clone(),
            title_note: epochs.then(|| label.clone()),
            ..Recording::default()
        };
        // A reader of its own: what one sample's messages say about the
        // API must not decide another's.
        let mut sample_reader = Reader::default();
        // Other conversations of the sample: agents it handed off to.
        let mut others = Vec::new();
        let attachments = sample.get("attachments").and_then(Value::as_object);
        let events = sample.get("events").and_then(Value::as_array);
        let of_kind = |kind: &'static str| {
            let events = events.into_iter().flatten();
            events.filter(move |e| e.get("event").and_then(Value::as_str) == Some(kind))
        };
        let scoring = scoring_events(events.map_or(&[][..], Vec::as_slice));
        let exchange = |event: &Value| {
            let call = event.get("call")?;
            let mut exchange =
                json!({"request": call.get("request"), "response": call.get("response")});
            if let Some(time) = event_time(event) {
                exchange["time"] = json!(time);
            }
            Some(resolved(exchange, attachments))
        };
        let (mut calls, mut graded) = (Vec::new(), Vec::new());
        for (event, by_scorer) in events.into_iter().flatten().zip(&scoring) {
            if event.get("event").and_then(Value::as_str) != Some("model") {
                continue;
            }
            let into = if *by_scorer { &mut graded } else { &mut calls };
            into.extend(exchange(event));
        }
        for (scorer, score) in sample
            .get("scores")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let value = match score.get("value") {
                Some(Value::String(text)) => text.clone(),
                Some(other) => other.to_string(),
                None => continue,
            };
            notes.push(Note::Scored {
                sample: label.clone(),
                scorer: scorer.clone(),
                value,
            });
        }
        let tool_times: Vec<(&str, Timing)> = of_kind("tool")
            .filter_map(|e| Some((e.get("id")?.as_str()?, event_time(e)?)))
            .collect();
        if calls.is_empty() {
            let messages = sample.get("messages").cloned().unwrap_or(Value::Null);
            let messages = resolved(messages, attachments);
            let conversation = json!({"model": model, "messages": chat_messages(&messages)});
            conversation::read(&conversation, &mut recording, &mut sample_reader);
            // Messages carry no API of their own: the eval's model names it
            // (`anthropic/claude-…`, `openai/gpt-…`, …).
            let anthropic = model.as_str().is_some_and(|m| m.starts_with("anthropic/"));
            recording.dialect = if anthropic {
                Dialect::AnthropicMessages
            } else {
                Dialect::OpenaiChat
            };
        } else {
            recording.dialect = exchanges::read(
                &calls,
                &mut recording,
                &mut others,
                &mut sample_reader,
                notes,
            );
            add_tool_times(&mut recording, &tool_times);
        }
        reader.skipped.absorb(sample_reader.skipped);
        recordings.push(recording);
        recordings.extend(others);
        // The scorer's own calls to a model grade the run; they are no
        // part of its loop, so they replay after it, as a run of their own.
        if !graded.is_empty() {
            let mut scoring = Recording {
                name: format!("{name}-scoring"),
                source: match &origin {
                    Provenance::Sample { id, epoch, .. } => Provenance::Sample {
                        id: id.clone(),
                        epoch: epoch.clone(),
                        scoring: true,
                    },
                    other => other.clone(),
                },
                title_note: Some(format!("scoring {label}")),
                ..Recording::default()
            };
            let mut scoring_reader = Reader::default();
            let mut graders = Vec::new();
            scoring.dialect = exchanges::read(
                &graded,
                &mut scoring,
                &mut graders,
                &mut scoring_reader,
                notes,
            );
            reader.skipped.absorb(scoring_reader.skipped);
            recordings.push(scoring);
            recordings.extend(graders);
        }
    }
    recordings
}

/// For each event, whether a scorer made it: it lies in a `scorer` span
/// (`span_begin` events name their `type` and `parent_id`; a nested log
/// has `scorers` around them) or, in older logs, between the `begin` and
/// `end` of a `step` of type `scorer`.
/// https://inspect.aisi.org.uk/eval-logs.html
fn scoring_events(events: &[Value]) -> Vec<bool> {
    let text = |event: &Value, key: &str| event.get(key).and_then(Value::as_str).map(str::to_owned);
    let is_scoring = |kind: Option<&str>| matches!(kind, Some("scorer" | "scorers"));
    let mut spans: HashMap<String, (Option<String>, Option<String>)> = HashMap::new();
    let mut in_scorer_step = 0usize;
    let mut scoring = Vec::with_capacity(events.len());
    for event in events {
        let kind = event.get("event").and_then(Value::as_str);
        let step_type = text(event, "type");
        match (kind, text(event, "action").as_deref()) {
            (Some("span_begin"), _) => {
                if let Some(id) = text(event, "id") {
                    spans.insert(id, (step_type.clone(), text(event, "parent_id")));
                }
            }
            (Some("step"), Some("begin")) if is_scoring(step_type.as_deref()) => {
                in_scorer_step += 1
            }
            (Some("step"), Some("end")) if is_scoring(step_type.as_deref()) => {
                in_scorer_step = in_scorer_step.saturating_sub(1)
            }
            _ => {}
        }
        // Up the chain of spans the event sits in, as far as a scorer's.
        let mut span = text(event, "span_id");
        let mut in_scorer_span = false;
        for _ in 0..spans.len() {
            let Some((span_type, parent)) = span.as_ref().and_then(|id| spans.get(id)) else {
                break;
            };
            if is_scoring(span_type.as_deref()) {
                in_scorer_span = true;
                break;
            }
            span = parent.clone();
        }
        scoring.push(in_scorer_step > 0 || in_scorer_span);
    }
    scoring
}

/// When a model or tool event started (`timestamp`) and ended
/// (`completed`), as Inspect records them.
fn event_time(event: &Value) -> Option<Timing> {
    let completed = event.get("completed")?.as_str().and_then(Stamp::parse);
    span(stamp_of(event).as_ref(), completed.as_ref())
}

/// Gives each recorded tool result the time of the tool event that made it.
fn add_tool_times(recording: &mut Recording, times: &[(&str, Timing)]) {
    for entry in &mut recording.entries {
        for block in &entry.message.content {
            let Block::ToolResult { tool_use_id, .. } = block else {
                continue;
            };
            if let Some((_, time)) = times.iter().find(|(id, _)| id == tool_use_id) {
                entry.result_times.push((tool_use_id.clone(), time.clone()));
            }
        }
    }
}

/// `value` with every `attachment://<hash>` string replaced by its text.
fn resolved(mut value: Value, attachments: Option<&Map<String, Value>>) -> Value {
    let Some(attachments) = attachments else {
        return value;
    };
    fn walk(value: &mut Value, attachments: &Map<String, Value>) {
        match value {
            Value::String(text) => {
                if let Some(text) = text
                    .strip_prefix("attachment://")
                    .and_then(|hash| attachments.get(hash))
                {
                    *value = text.clone();
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, attachments)),
            Value::Object(fields) => fields.values_mut().for_each(|v| walk(v, attachments)),
            _ => {}
        }
    }
    walk(&mut value, attachments);
    value
}

/// Inspect's messages in OpenAI Chat shape: a tool call names its
/// `function` and gives its `arguments` as an object.
fn chat_messages(messages: &Value) -> Vec<Value> {
    let mut chat = Vec::new();
    for message in messages.as_array().into_iter().flatten() {
        let mut message = message.clone();
        let calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(|calls| {
                calls
                    .iter()
                    .map(|call| {
                        let arguments =
                            call.get("arguments").map_or_else(String::new, |a| match a {
                                Value::String(raw) => raw.clone(),
                                other => other.to_string(),
                            });
                        json!({"id": call.get("id"), "type": "function",
                           "function": {"name": call.get("function"), "arguments": arguments}})
                    })
                    .collect::<Vec<_>>()
            });
        if let (Some(calls), Some(fields)) = (calls, message.as_object_mut()) {
            fields.insert("tool_calls".to_owned(), Value::Array(calls));
        }
        chat.push(message);
    }
    chat
}

/// The text of one member of the archive, unpacked to at most `room`
/// bytes: a small archive may hold a huge member.
fn member_text<R: std::io::Read + std::io::Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
    room: u64,
) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let raw = archive
        .by_name_raw(name.as_bytes())
        .map_err(|e| e.to_string())?;
    // Inspect can write its members with zstd (ZIP method 93; its writer
    // picks `zipfile.ZIP_ZSTANDARD` when so configured). The zip crate is
    // built without it, so such a member is read raw and decoded here, in
    // pure Rust.
    let read = if raw.compression() == zip::CompressionMethod::ZSTD {
        let decoder = ruzstd::decoding::StreamingDecoder::new(raw).map_err(|e| e.to_string())?;
        decoder.take(room + 1).read_to_end(&mut bytes)
    } else {
        drop(raw);
        let member = archive.by_name(name).map_err(|e| e.to_string())?;
        member.take(room + 1).read_to_end(&mut bytes)
    };
    read.map_err(|e| e.to_string())?;
    if bytes.len() as u64 > room {
        return Err(format!(
            "it unpacks to more than the {room} bytes left under the size limit (--max-size)"
        ));
    }
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A name cut into its runs of digits (as numbers) and of other text, so
/// that names sort as a person would order them.
fn natural_key(name: &str) -> Vec<(u64, String)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (part, after) = if digits > 0 {
            rest.split_at(digits)
        } else {
            rest.split_at(
                rest.find(|c: char| c.is_ascii_digit())
                    .unwrap_or(rest.len()),
            )
        };
        key.push((part.parse().unwrap_or(u64::MAX), part.to_owned()));
        rest = after;
    }
    key
}

/// The eval log an `.eval` archive holds: `header.json` (or, for a run
/// that never finished, `_journal/start.json`) for the eval, and one
/// `samples/<id>_epoch_<n>.json` per sample.
/// https://inspect.aisi.org.uk/eval-logs.html
pub fn unpack(bytes: &[u8], origin: &str, max_size: u64) -> Result<Value, LoadError> {
    let broken = |why: Why| LoadError::one_problem(origin, "", why);
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| {
        broken(Why::ArchiveUnreadable {
            error: e.to_string(),
        })
    })?;
    let mut names: Vec<String> = archive
        .file_names()
        .filter_map(|name| name.ok().map(|n| n.into_owned()))
        .collect();
    names.sort();
    // Everything unpacked counts against the limit a file's size has.
    let mut room = max_size;
    let mut read = |name: &str| -> Result<Value, LoadError> {
        let text = member_text(&mut archive, name, room).map_err(|e| {
            broken(Why::MemberUnreadable {
                name: name.to_owned(),
                error: e.to_string(),
            })
        })?;
        room -= text.len() as u64;
        serde_json::from_str(&text).map_err(|e| {
            broken(Why::MemberNotJson {
                name: name.to_owned(),
                error: e.to_string(),
            })
        })
    };
    let header = ["header.json", "_journal/start.json"]
        .into_iter()
        .find(|n| names.iter().any(|have| have == n))
        .ok_or_else(|| broken(Why::NoEvalHeader))?;
    let eval = read(header)?.get("eval").cloned().unwrap_or(Value::Null);
    // In the order of their ids and epochs: `samples/2_epoch_1.json`
    // before `samples/10_epoch_1.json`.
    let mut members: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with("samples/") && n.ends_with(".json"))
        .collect();
    members.sort_by_key(|n| natural_key(n));
    let samples = members
        .into_iter()
        .map(|n| read(n))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({"eval": eval, "samples": samples}))
}
