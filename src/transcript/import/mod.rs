//! Real recorded runs in: conversations, exchange logs and Claude Code
//! sessions, recognised automatically and cut into native transcripts.

mod cassette;
mod claude_code;
mod codex;
mod conversation;
mod events;
mod exchanges;
mod inspect;
mod openhands;
mod segment;
mod trajectory;

use serde_json::Value;

use super::{LoadError, Note, Transcript};
use crate::dialect::Dialect;
use crate::dialect::read::{Reader, Skipped};
use crate::narrate::Lang;
use segment::Recording;

pub use events::NO_REQUEST;
pub use segment::MISSING_RESULT;

/// The file formats loopstep reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// loopstep's own transcript (or a JSON array of them).
    Native,
    /// A `messages` list, Anthropic or OpenAI shaped.
    Conversation,
    /// `{"request", "response"}` pairs, as a JSON array or JSON Lines.
    Exchanges,
    /// A Claude Code session file (JSON Lines).
    ClaudeCode,
    /// An agent's trajectory: SWE-agent `.traj`, mini-swe-agent `.traj.json`.
    Trajectory,
    /// A Codex CLI session rollout (JSON Lines of Responses items).
    Codex,
    /// An OpenHands trajectory (a JSON array of events).
    OpenHands,
    /// An Inspect AI eval log (`.json`), one run per sample.
    Inspect,
    /// A VCR cassette (YAML, as vcrpy and pytest-recording write it).
    Cassette,
    /// The server-sent events of one streamed response, bare.
    Events,
}

impl Format {
    pub fn describe(self) -> &'static str {
        match self {
            Format::Native => "native transcript",
            Format::Conversation => "conversation (a messages list)",
            Format::Exchanges => "exchange log (request/response pairs)",
            Format::ClaudeCode => "Claude Code session (JSON Lines)",
            Format::Trajectory => "agent trajectory (SWE-agent, mini-swe-agent)",
            Format::Codex => "Codex CLI session rollout (JSON Lines)",
            Format::OpenHands => "OpenHands trajectory (an event list)",
            Format::Inspect => "Inspect AI eval log (.json or .eval)",
            Format::Cassette => "VCR cassette (YAML)",
            Format::Events => "stream of server-sent events (one response)",
        }
    }

    /// The name `--from` gives it.
    pub fn flag(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::Conversation => "conversation",
            Format::Exchanges => "exchanges",
            Format::ClaudeCode => "claude-code",
            Format::Trajectory => "trajectory",
            Format::Codex => "codex",
            Format::OpenHands => "openhands",
            Format::Inspect => "inspect",
            Format::Cassette => "cassette",
            Format::Events => "events",
        }
    }

    /// Keys a file of this format has at its top level, or in its first
    /// item or line: what a file in no known shape is compared with.
    fn marks(self) -> &'static [&'static str] {
        match self {
            Format::Native => &["version", "id", "title", "question", "replies", "base"],
            Format::Conversation => &["messages", "role", "content", "system", "tools"],
            Format::Exchanges => &["request", "response"],
            Format::ClaudeCode => &["sessionId", "message", "isSidechain", "parentUuid", "uuid"],
            Format::Trajectory => &["history", "trajectory", "info", "trajectory_format"],
            Format::Codex => &["payload", "timestamp", "type"],
            Format::OpenHands => &["source", "action", "observation", "tool_call_metadata"],
            Format::Inspect => &["eval", "samples", "plan", "results", "stats"],
            Format::Cassette => &["interactions"],
            Format::Events => &["event", "data"],
        }
    }

    pub const ALL: [Format; 10] = [
        Format::Native,
        Format::Conversation,
        Format::Exchanges,
        Format::ClaudeCode,
        Format::Trajectory,
        Format::Codex,
        Format::OpenHands,
        Format::Inspect,
        Format::Cassette,
        Format::Events,
    ];
}

/// Everything read from one file: its runs and what the import noticed.
#[derive(Debug, Clone)]
pub struct Source {
    pub format: Format,
    /// A longer label: "exchange log (request/response pairs), OpenAI Chat Completions".
    pub kind: String,
    pub runs: Vec<Transcript>,
    /// File-wide notes (skipped parts); each run carries its own too.
    pub notes: Vec<Note>,
}

/// The file's content, parsed once: one JSON document or JSON Lines.
enum Parsed {
    Document(Value),
    Lines(Vec<Value>),
}

/// The text parsed, and the number of a last line left out because it was
/// cut off (a log still being written).
struct ParsedText {
    parsed: Parsed,
    unfinished_line: Option<usize>,
}

/// The name of the runs of a Claude Code sub-agent read from its session's
/// progress lines (`<session>-agent-<id>`, `-2`, `-3`… when several), so
/// that its own file, where there is one, can take their place.
pub(crate) fn progress_agent_name(session: &str, agent: &str) -> String {
    format!("{session}-agent-{agent}")
}

/// Reads `text`, in `from` or else the format it is recognised as.
/// `name` names the runs; `origin` names the file in messages. The text is
/// let go as soon as it is parsed, so that a large file is not held twice.
pub fn load(
    text: String,
    origin: &str,
    name: &str,
    from: Option<Format>,
    lang: Lang,
) -> Result<Source, LoadError> {
    load_in(text, origin, name, from, (lang, None)).map(|(source, _)| source)
}

/// The same, in English, with the Chinese texts of a native transcript
/// (`None` for a recording, which reads the same in both) from the same
/// text: a pipe is read only once.
pub fn load_both(
    text: String,
    origin: &str,
    name: &str,
    from: Option<Format>,
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    load_in(text, origin, name, from, (Lang::En, Some(Lang::Zh)))
}

/// Reads `text` in `lang`, and a native transcript in `also` as well.
fn load_in(
    text: String,
    origin: &str,
    name: &str,
    from: Option<Format>,
    (lang, also): (Lang, Option<Lang>),
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    // Two shapes that are not JSON, told by how they open.
    let text_format = from.or_else(|| {
        if cassette::looks_like(&text) {
            Some(Format::Cassette)
        } else if events::looks_like(&text) {
            Some(Format::Events)
        } else {
            None
        }
    });
    match text_format {
        Some(Format::Cassette) => {
            let mut skipped = Skipped::default();
            let exchanges = cassette::exchanges(&text, origin, &mut skipped)?;
            drop(text);
            let parsed = Parsed::Document(Value::Array(exchanges));
            let source = import_parsed(&parsed, Format::Cassette, (origin, name), skipped.notes());
            return source.map(|source| (source, None));
        }
        Some(Format::Events) => {
            let exchanges = events::exchange(&text).unwrap_or(Value::Array(Vec::new()));
            drop(text);
            let parsed = Parsed::Document(exchanges);
            let source = import_parsed(&parsed, Format::Events, (origin, name), Vec::new());
            return source.map(|source| (source, None));
        }
        _ => {}
    }
    let ParsedText {
        parsed,
        unfinished_line,
    } = parse(&text, origin)?;
    let format = match from {
        Some(format) => format,
        None => detect(&parsed).ok_or_else(|| LoadError::NotRecognized {
            origin: origin.to_owned(),
            tried: Format::ALL.map(Format::describe).join(", "),
            seen: describe_top(&parsed),
            closest: closest(&parsed),
        })?,
    };
    if format == Format::Native {
        let runs = Transcript::parse_many(&text, origin, lang)?;
        let other = also
            .map(|other| Transcript::parse_many(&text, origin, other))
            .transpose()?;
        let source = Source {
            format,
            kind: format.describe().to_owned(),
            runs,
            notes: Vec::new(),
        };
        return Ok((source, other));
    }
    drop(text);
    let notes = unfinished_line
        .map(|line| Note::UnfinishedLastLine { line })
        .into_iter()
        .collect();
    import_parsed(&parsed, format, (origin, name), notes).map(|source| (source, None))
}

/// Reads an Inspect `.eval` archive (a zip of JSON files) as the eval log
/// it holds.
pub fn load_archive(
    bytes: &[u8],
    origin: &str,
    name: &str,
    max_size: u64,
) -> Result<Source, LoadError> {
    let log = inspect::unpack(bytes, origin, max_size)?;
    let mut source = import_parsed(
        &Parsed::Document(log),
        Format::Inspect,
        (origin, name),
        Vec::new(),
    )?;
    source.kind = "Inspect AI eval log (.eval archive)".to_owned();
    Ok(source)
}

/// Imports what was parsed, read as `format`.
fn import_parsed(
    parsed: &Parsed,
    format: Format,
    (origin, name): (&str, &str),
    mut notes: Vec<Note>,
) -> Result<Source, LoadError> {
    let mut reader = Reader::default();
    let mut main = Recording {
        name: name.to_owned(),
        source: format!("{} `{origin}`", format.describe()),
        ..Recording::default()
    };
    let mut kind = format.describe().to_owned();
    let mut side = None;
    // Recordings of their own: the samples of an eval log.
    let mut more = Vec::new();
    match (format, parsed) {
        (Format::Conversation, Parsed::Document(top)) => {
            conversation::read(top, &mut main, &mut reader)
        }
        (Format::Conversation, Parsed::Lines(lines)) => {
            conversation::read(&Value::Array(lines.clone()), &mut main, &mut reader)
        }
        (Format::Exchanges | Format::Cassette | Format::Events, parsed) => {
            let exchanges = match parsed {
                Parsed::Document(Value::Array(items)) => items.as_slice(),
                Parsed::Lines(lines) => lines.as_slice(),
                Parsed::Document(_) => &[],
            };
            let api = exchanges::read(exchanges, &mut main, &mut reader, &mut notes);
            kind = format!("{kind}, {}", api.words().api);
            main.dialect = api;
        }
        (Format::ClaudeCode, parsed) => {
            let lines = match parsed {
                Parsed::Lines(lines) => lines.as_slice(),
                Parsed::Document(Value::Array(items)) => items.as_slice(),
                Parsed::Document(_) => &[],
            };
            let sidechain = Recording {
                name: format!("{name}-sidechain"),
                source: format!("the side chains of {}", main.source),
                ..Recording::default()
            };
            let session =
                claude_code::read(lines, std::mem::take(&mut main), sidechain, &mut reader);
            main = session.main;
            side = Some(session.side);
            // Sub-agents seen only in progress lines, named as their own
            // files would be.
            more = session
                .agents
                .into_iter()
                .map(|(id, agent)| Recording {
                    name: progress_agent_name(name, &id),
                    source: format!("the progress lines of sub-agent {id} in {}", main.source),
                    ..agent
                })
                .collect();
        }
        (Format::Inspect, Parsed::Document(top)) => {
            more = inspect::read(top, name, &mut reader, &mut notes)
        }
        (Format::Inspect, Parsed::Lines(_)) => {}
        (Format::Trajectory, Parsed::Document(top)) => {
            trajectory::read(top, &mut main, &mut reader, &mut notes)
        }
        // A trajectory is one JSON document: lines hold none.
        (Format::Trajectory, Parsed::Lines(_)) => {}
        (Format::OpenHands, Parsed::Document(Value::Array(events))) => {
            openhands::read(events, &mut main, &mut reader)
        }
        // An event list is one JSON array.
        (Format::OpenHands, _) => {}
        (Format::Codex, parsed) => {
            let lines = match parsed {
                Parsed::Lines(lines) => lines.as_slice(),
                Parsed::Document(Value::Array(items)) => items.as_slice(),
                Parsed::Document(_) => &[],
            };
            codex::read(lines, &mut main, &mut reader);
        }
        (Format::Native, _) => unreachable!("handled above"),
    }
    // A messages list speaks OpenAI Chat once one of its messages does.
    let by_message = matches!(
        format,
        Format::Conversation | Format::ClaudeCode | Format::Trajectory
    );
    if by_message && reader.openai {
        main.dialect = Dialect::OpenaiChat;
    }
    let dialect = main.dialect;
    let mut runs = segment::cut_runs(main);
    if let Some(mut side) = side {
        side.dialect = dialect;
        runs.extend(segment::cut_runs(side));
    }
    for recording in more {
        runs.extend(segment::cut_runs(recording));
    }
    notes.extend(reader.skipped.notes());
    if runs.is_empty() {
        return Err(LoadError::one_problem(
            origin,
            "",
            format!(
                "read as {} (`--from {}`), it holds no prompt that the model answered; {}",
                format.describe(),
                format.flag(),
                what_was_read(format, parsed)
            ),
        ));
    }
    Ok(Source {
        format,
        kind,
        runs,
        notes,
    })
}

fn parse(text: &str, origin: &str) -> Result<ParsedText, LoadError> {
    let document_error = match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            return Ok(ParsedText {
                parsed: Parsed::Document(value),
                unfinished_line: None,
            });
        }
        Err(e) => e,
    };
    let mut lines = Vec::new();
    let last = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
        .map(|(number, _)| number);
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) => lines.push(value),
            // The last line of a log still being written may be cut off:
            // what came before it is whole.
            Err(e) if e.is_eof() && Some(number) == last && lines.len() >= 2 => {
                return Ok(ParsedText {
                    parsed: Parsed::Lines(lines),
                    unfinished_line: Some(number + 1),
                });
            }
            // Not JSON Lines either: report the whole-document error, which
            // points into the file as one JSON text.
            Err(_) if number == 0 || lines.is_empty() => {
                return Err(LoadError::from_json(origin, String::new(), document_error));
            }
            Err(e) => {
                return Err(LoadError::Syntax {
                    origin: origin.to_owned(),
                    message: format!(
                        "JSON Lines: {}",
                        e.to_string().split(" at line").next().unwrap_or("")
                    ),
                    line: number + 1,
                    column: e.column(),
                });
            }
        }
    }
    if lines.len() < 2 {
        return Err(LoadError::from_json(origin, String::new(), document_error));
    }
    Ok(ParsedText {
        parsed: Parsed::Lines(lines),
        unfinished_line: None,
    })
}

fn detect(parsed: &Parsed) -> Option<Format> {
    let has = |v: &Value, key: &str| v.get(key).is_some();
    let looks_like = |v: &Value| -> Option<Format> {
        if has(v, "request") && has(v, "response") {
            Some(Format::Exchanges)
        } else if has(v, "message") && v.get("type").is_some_and(Value::is_string)
            || has(v, "sessionId")
        {
            Some(Format::ClaudeCode)
        } else if codex::is_rollout_line(v) || codex::is_item(v) {
            Some(Format::Codex)
        } else if has(v, "role") {
            Some(Format::Conversation)
        } else if has(v, "version") && ["replies", "base", "runs"].iter().any(|k| has(v, k)) {
            Some(Format::Native)
        } else {
            None
        }
    };
    match parsed {
        Parsed::Document(Value::Object(top)) if inspect::detect(top) => Some(Format::Inspect),
        Parsed::Document(Value::Object(top)) if trajectory::detect(top) => Some(Format::Trajectory),
        Parsed::Document(Value::Object(top)) if top.contains_key("messages") => {
            Some(Format::Conversation)
        }
        Parsed::Document(top @ Value::Object(_)) => {
            looks_like(top).filter(|f| *f == Format::Native)
        }
        Parsed::Document(Value::Array(items)) if openhands::detect(items) => {
            Some(Format::OpenHands)
        }
        Parsed::Document(Value::Array(items)) => items.first().and_then(looks_like),
        Parsed::Document(_) => None,
        // Claude Code files open with summary or snapshot lines: look further.
        Parsed::Lines(lines) => lines.iter().take(50).find_map(looks_like),
    }
}

/// What a file that made no run held, in its own terms.
fn what_was_read(format: Format, parsed: &Parsed) -> String {
    let count = match parsed {
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items) => items.len(),
        Parsed::Document(_) => 0,
    };
    match format {
        Format::Cassette => format!(
            "{count} of its interactions {} a model call",
            if count == 1 { "is" } else { "are" }
        ),
        Format::Events => "its events add up to no response of a known API".to_owned(),
        _ => format!("its top level is {}", describe_top(parsed)),
    }
}

/// The formats whose marks the file's keys share, most shared first (at
/// most two), with the keys shared.
fn closest(parsed: &Parsed) -> Vec<(String, &'static str, Vec<String>)> {
    let first = match parsed {
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items) => items.first(),
        Parsed::Document(top) => Some(top),
    };
    let Some(keys) = first.and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut near: Vec<(String, &'static str, Vec<String>)> = Format::ALL
        .iter()
        .map(|format| {
            let shared = format
                .marks()
                .iter()
                .filter(|mark| keys.contains_key(**mark))
                .map(|mark| (*mark).to_owned())
                .collect();
            (format.describe().to_owned(), format.flag(), shared)
        })
        .filter(|(_, _, shared): &(_, _, Vec<String>)| !shared.is_empty())
        .collect();
    near.sort_by_key(|(_, _, shared)| std::cmp::Reverse(shared.len()));
    near.truncate(2);
    near
}

fn describe_top(parsed: &Parsed) -> String {
    let keys = |v: &Value| -> String {
        match v.as_object() {
            Some(object) if object.is_empty() => "no keys".to_owned(),
            Some(object) => {
                let names: Vec<String> = object.keys().take(8).map(|k| format!("`{k}`")).collect();
                format!("keys {}", names.join(", "))
            }
            None => "no keys".to_owned(),
        }
    };
    match parsed {
        Parsed::Document(top @ Value::Object(_)) => format!("an object with {}", keys(top)),
        Parsed::Document(Value::Array(items)) => match items.first() {
            None => "an empty array".to_owned(),
            Some(first @ Value::Object(_)) => format!(
                "an array of {} item{}, the first an object with {}",
                items.len(),
                if items.len() == 1 { "" } else { "s" },
                keys(first)
            ),
            Some(first) => format!(
                "an array whose first item is {}",
                super::native::json_kind(first)
            ),
        },
        Parsed::Document(other) => super::native::json_kind(other).to_owned(),
        Parsed::Lines(lines) => format!(
            "{} JSON lines, the first an object with {}",
            lines.len(),
            keys(&lines[0])
        ),
    }
}
