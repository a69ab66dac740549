//! Real recorded runs in: conversations, exchange logs and Claude Code
//! sessions, recognised automatically and cut into native transcripts.

mod aider;
mod aider_llm;
mod boundary;
mod cassette;
mod claude_code;
mod cline;
mod codex;
mod codex_exec;
mod content;
mod conversation;
mod cut;
mod events;
mod exchanges;
mod format;
mod gemini_cli;
mod inspect;
pub(crate) mod lines;
mod openhands;
mod openhands_sdk;
mod segment;
mod shape;
mod trajectory;

use crate::transcript::{Piece, Provenance};
use std::time::Instant;

use serde_json::Value;

use super::{Early, LoadError, Note, Seen, Transcript, Why};
use crate::dialect::Dialect;
use crate::dialect::read::{Reader, Skipped};
use crate::lang::Lang;
use lines::JsonLines;
use segment::Recording;
use shape::{closest, describe_top, detect, detect_lines, lines_seen, what_was_read};

pub use events::NO_REQUEST;
pub use format::Format;
pub use segment::MISSING_RESULT;

/// What a file turned out to be, which narrate puts into words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of loopstep's own runs.
    Builtin,
    /// A file of this format.
    File(Format),
    /// A log of calls to one API (exchanges, a cassette, a stream), and
    /// the API.
    Calls(Format, Dialect),
    /// An Inspect eval log in its zip archive.
    EvalArchive,
    /// A Claude Code project folder of this many sessions.
    Project { sessions: usize },
}

/// Everything read from one file: its runs and what the import noticed.
#[derive(Debug, Clone)]
pub struct Source {
    pub format: Format,
    pub kind: Kind,
    pub runs: Vec<Transcript>,
    /// File-wide notes (skipped parts); each run carries its own too.
    pub notes: Vec<Note>,
}

/// The file's content, parsed once: one JSON document or JSON Lines.
enum Parsed {
    Document(Value),
    Lines(Vec<Value>),
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

/// Reads `text` in `lang`, and a native transcript in `also` as well. A
/// first line that is no JSON before JSON Lines (what a program printed
/// to its error stream, captured with them: `codex exec` says "Reading
/// additional input from stdin...") is left out, with a note, where the
/// rest reads as a recording.
fn load_in(
    text: String,
    origin: &str,
    name: &str,
    from: Option<Format>,
    langs: (Lang, Option<Lang>),
) -> Result<(Source, Option<Vec<Transcript>>), LoadError> {
    if let Some((first, rest)) = leading_line(&text)
        && let Ok((mut source, also)) = load_text(rest.to_owned(), origin, name, from, langs)
    {
        source.notes.push(Note::FirstLineNotJson {
            line: crate::text::one_line(first, 80),
        });
        return Ok((source, also));
    }
    load_text(text, origin, name, from, langs)
}

/// The first line of `text` and what follows it, when that line is no
/// JSON and the next line that is not blank opens a JSON object.
fn leading_line(text: &str) -> Option<(&str, &str)> {
    let (first, rest) = text.split_once('\n')?;
    let first = first.trim();
    let no_json = !first.is_empty() && !first.starts_with(['{', '[']);
    (no_json && rest.trim_start().starts_with('{')).then_some((first, rest))
}

fn load_text(
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
        } else if aider::looks_like(&text) {
            Some(Format::AiderChat)
        } else if aider_llm::looks_like(&text) {
            Some(Format::AiderLlm)
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
        Some(Format::AiderLlm) => {
            let parsed = Parsed::Document(aider_llm::exchanges(&text));
            drop(text);
            let source = import_parsed(&parsed, Format::AiderLlm, (origin, name), Vec::new());
            return source.map(|source| (source, None));
        }
        Some(Format::AiderChat) => {
            let mut read = Read::new(Format::AiderChat, name, origin, Vec::new());
            read.main.dialect = Dialect::OpenaiChat;
            aider::read(&text, &mut read.main, &mut read.more, &mut read.notes);
            let seen = || Seen::NoModelCall;
            let source = finish_import(read, Format::AiderChat, origin, seen);
            return source.map(|source| (source, None));
        }
        _ => {}
    }
    if from.is_none_or(|f| f == Format::Conversation)
        && let Some(source) = load_conversation(&text, (origin, name))
    {
        return Ok((source, None));
    }
    let (mut parsed, mut rest, mut unfinished_line) = match serde_json::from_str(&text) {
        Ok(document) => (Parsed::Document(document), None, None),
        Err(document_error) => {
            let mut lines = JsonLines::of_text(&text, document_error);
            let head: Vec<Value> = lines.by_ref().take(HEAD_LINES).collect();
            if head.len() < HEAD_LINES {
                let unfinished = lines.finish(origin)?;
                (Parsed::Lines(head), None, unfinished)
            } else {
                (Parsed::Lines(head), Some(lines), None)
            }
        }
    };
    let format = match from.or_else(|| detect(&parsed)) {
        Some(format) => format,
        None => {
            // Said of the whole file, read to its end.
            if let (Some(lines), Parsed::Lines(head)) = (rest.take(), &mut parsed) {
                take_all(lines, head, origin)?;
            }
            return Err(LoadError::NotRecognized {
                origin: origin.to_owned(),
                seen: describe_top(&parsed),
                closest: closest(&parsed),
            });
        }
    };
    if format == Format::Native {
        // The document parsed above is the one read: the text is parsed
        // again only to place an error.
        let parse = |doc: Option<Value>, lang| match doc {
            Some(doc) => Transcript::from_document(doc, &text, origin, lang),
            None => Transcript::parse_many(&text, origin, lang),
        };
        let doc = match parsed {
            Parsed::Document(doc) => Some(doc),
            Parsed::Lines(_) => None,
        };
        let other = also.map(|other| (doc.clone(), other));
        let runs = parse(doc, lang)?;
        let other = other.map(|(doc, other)| parse(doc, other)).transpose()?;
        let source = Source {
            format,
            kind: Kind::File(format),
            runs,
            notes: Vec::new(),
        };
        return Ok((source, other));
    }
    let unfinished = |line: Option<usize>| line.map(|line| Note::UnfinishedLastLine { line });
    match (rest, parsed) {
        // A session is read as it is parsed, each line let go once read.
        (Some(lines), Parsed::Lines(head)) if format == Format::ClaudeCode => {
            load_session(head, lines, (origin, name), None).map(|source| (source, None))
        }
        (rest, mut parsed) => {
            if let (Some(lines), Parsed::Lines(head)) = (rest, &mut parsed) {
                unfinished_line = take_all(lines, head, origin)?;
            }
            drop(text);
            let notes = unfinished(unfinished_line).into_iter().collect();
            import_parsed(&parsed, format, (origin, name), notes).map(|source| (source, None))
        }
    }
}

/// The lines a file opens with, enough to tell its format by.
pub const HEAD_LINES: usize = 50;

/// Whether JSON Lines that open with `head` are a Claude Code session
/// (or are to be read as one), which can be read as it is parsed.
pub fn is_session(head: &[Value], from: Option<Format>) -> bool {
    head.len() >= 2 && from.or_else(|| detect_lines(head)) == Some(Format::ClaudeCode)
}

/// A Claude Code session read as its lines are parsed: `head`, the lines
/// it was told by, then `rest`, each let go once read; the runs finished
/// so far handed to `early` once it is due.
pub fn load_session<I, L>(
    head: Vec<Value>,
    mut rest: JsonLines<I>,
    (origin, name): (&str, &str),
    early: Option<Early>,
) -> Result<Source, LoadError>
where
    I: Iterator<Item = (usize, L)>,
    L: AsRef<str>,
{
    let first = head.first().cloned().unwrap_or_default();
    let mut read = read_claude_code(name, origin, |session| {
        head.iter().for_each(|line| session.value(line));
        drop(head);
        let mut early = early.map(|early| (early, Instant::now()));
        while rest.parse_next(|text| session.text(text)).is_some() {
            if let Some((Early { hand, after }, started)) = early
                && started.elapsed() >= after
                && let Some(runs) = session.whole_runs()
            {
                hand(runs);
                early = None;
            }
        }
    });
    let taken = rest.taken();
    let unfinished = rest.finish(origin)?;
    read.notes
        .extend(unfinished.map(|line| Note::UnfinishedLastLine { line }));
    let seen = || lines_seen(taken, &first);
    finish_import(read, Format::ClaudeCode, origin, seen)
}

/// A conversation read straight from its text, if it is one that makes
/// runs; `None` leaves the text to be read as a tree, recognised there, and
/// refused with the reason if it makes none.
fn load_conversation(text: &str, (origin, name): (&str, &str)) -> Option<Source> {
    let document = conversation::Document::of_text(text)?;
    let mut read = Read::new(Format::Conversation, name, origin, Vec::new());
    conversation::read_document(document, &mut read.main, &mut read.reader, false);
    // A refusal here is never shown: the text is read again as a tree.
    let seen = || Seen::Object {
        keys: vec!["messages".to_owned()],
    };
    finish_import(read, Format::Conversation, origin, seen).ok()
}

/// The rest of the lines, after `head`; the number of a cut-off last line.
fn take_all<'t>(
    mut lines: JsonLines<impl Iterator<Item = (usize, &'t str)>>,
    head: &mut Vec<Value>,
    origin: &str,
) -> Result<Option<usize>, LoadError> {
    head.extend(&mut lines);
    lines.finish(origin)
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
    source.kind = Kind::EvalArchive;
    Ok(source)
}

/// What reading a file made: the recordings to cut into runs, the words
/// that say what the file is, and what the reading noticed.
struct Read {
    main: Recording,
    /// The side chains of a Claude Code session.
    side: Option<Recording>,
    /// Recordings of their own: the samples of an eval log, the sub-agents
    /// of a session.
    more: Vec<Recording>,
    kind: Kind,
    reader: Reader,
    notes: Vec<Note>,
}

impl Read {
    fn new(format: Format, name: &str, origin: &str, notes: Vec<Note>) -> Self {
        Read {
            main: Recording {
                name: name.to_owned(),
                source: Provenance::File {
                    format,
                    name: origin.to_owned(),
                },
                ..Recording::default()
            },
            side: None,
            more: Vec::new(),
            kind: Kind::File(format),
            reader: Reader::default(),
            notes,
        }
    }
}

/// Imports what was parsed, read as `format`.
fn import_parsed(
    parsed: &Parsed,
    format: Format,
    (origin, name): (&str, &str),
    notes: Vec<Note>,
) -> Result<Source, LoadError> {
    let items = || match parsed {
        Parsed::Document(Value::Array(items)) | Parsed::Lines(items) => items.as_slice(),
        // One line of JSON Lines parses as a document: one item.
        Parsed::Document(one @ Value::Object(_)) => std::slice::from_ref(one),
        Parsed::Document(_) => &[],
    };
    let mut read = Read::new(format, name, origin, notes);
    let Read {
        main,
        more,
        kind,
        reader,
        notes,
        ..
    } = &mut read;
    match (format, parsed) {
        (Format::Conversation, Parsed::Document(top)) => conversation::read(top, main, reader),
        (Format::Conversation, Parsed::Lines(lines)) => {
            conversation::read(&Value::Array(lines.clone()), main, reader)
        }
        (Format::Exchanges | Format::Cassette | Format::Events | Format::AiderLlm, _) => {
            let api = exchanges::read(items(), main, more, reader, notes);
            *kind = Kind::Calls(format, api);
            main.dialect = api;
        }
        (Format::ClaudeCode, _) => {
            let notes = std::mem::take(&mut read.notes);
            read = read_claude_code(name, origin, |session| {
                items().iter().for_each(|line| session.value(line))
            });
            read.notes = notes;
        }
        (Format::Inspect, Parsed::Document(top)) => *more = inspect::read(top, name, reader, notes),
        (Format::Inspect, Parsed::Lines(_)) => {}
        (Format::Trajectory, Parsed::Document(top)) => {
            *more = trajectory::read(top, main, reader, notes);
            say_agents(more, notes);
        }
        // A trajectory is one JSON document: lines hold none.
        (Format::Trajectory, Parsed::Lines(_)) => {}
        (Format::OpenHands, _) => openhands::read_any(items(), main, more, reader, notes),
        (Format::Codex, _) => codex::read(items(), main, reader),
        (Format::CodexExec, _) => codex_exec::read(items(), main, reader, notes),
        (Format::Cline, Parsed::Document(Value::Object(top))) if cline::is_session(top) => {
            cline::read_session(top, main, reader);
            main.dialect = Dialect::AnthropicMessages;
        }
        (Format::Cline, _) => {
            cline::read(items(), main, reader);
            main.dialect = Dialect::AnthropicMessages;
        }
        (Format::GeminiCli, Parsed::Document(top)) => {
            gemini_cli::read(std::slice::from_ref(top), main, reader)
        }
        (Format::GeminiCli, Parsed::Lines(lines)) => gemini_cli::read(lines, main, reader),
        (Format::Native, _) => unreachable!("handled above"),
        // Markdown, read from its text before any JSON.
        (Format::AiderChat, _) => {}
    }
    finish_import(read, format, origin, || what_was_read(format, parsed))
}

/// Says that a history held the conversations of several agents.
fn say_agents(others: &[Recording], notes: &mut Vec<Note>) {
    if !others.is_empty() {
        notes.push(Note::Conversations {
            count: others.len() + 1,
        });
    }
}

/// A Claude Code session, its lines given by `feed` as they come.
fn read_claude_code(
    name: &str,
    origin: &str,
    feed: impl FnOnce(&mut claude_code::SessionReader),
) -> Read {
    let format = Format::ClaudeCode;
    let mut read = Read::new(format, name, origin, Vec::new());
    let sidechain = Recording {
        name: format!("{name}-sidechain"),
        source: read.main.source.part(Piece::SideChains),
        ..Recording::default()
    };
    let mut main = std::mem::take(&mut read.main);
    // Runs shown while the rest loads are cut as the whole file's are.
    main.typed_prompts = true;
    let mut session = claude_code::SessionReader::new(main, sidechain, &mut read.reader);
    feed(&mut session);
    let session = session.finish();
    read.main = session.main;
    read.side = Some(session.side);
    // Sub-agents seen only in progress lines, named as their own files
    // would be.
    read.more = session
        .agents
        .into_iter()
        .map(|(id, agent)| Recording {
            name: progress_agent_name(name, &id),
            source: read.main.source.part(Piece::Progress(id.clone())),
            ..agent
        })
        .collect();
    read
}

/// The runs cut from what was read; `seen` says what the file held when
/// it holds none.
fn finish_import(
    read: Read,
    format: Format,
    origin: &str,
    seen: impl FnOnce() -> Seen,
) -> Result<Source, LoadError> {
    let Read {
        mut main,
        side,
        more,
        kind,
        reader,
        mut notes,
    } = read;
    // A messages list speaks OpenAI Chat once one of its messages does.
    let by_message = matches!(
        format,
        Format::Conversation | Format::ClaudeCode | Format::Trajectory
    );
    if by_message && reader.openai {
        main.dialect = Dialect::OpenaiChat;
    }
    let dialect = main.dialect;
    // The coding agents' own session logs mark their harness's words
    // themselves: every other user text there is a person's prompt.
    let typed = matches!(
        format,
        Format::ClaudeCode
            | Format::Codex
            | Format::CodexExec
            | Format::GeminiCli
            | Format::AiderChat
    );
    main.typed_prompts = typed;
    let mut side = side;
    let mut more = more;
    for recording in side.iter_mut().chain(more.iter_mut()) {
        recording.typed_prompts = typed;
    }
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
            Why::NoRun {
                format,
                seen: seen(),
            },
        ));
    }
    Ok(Source {
        format,
        kind,
        runs,
        notes,
    })
}
