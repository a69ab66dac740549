//! Claude Code keeps its sessions on disk as
//! `~/.claude/projects/<project>/<session>.jsonl`, and the transcripts of a
//! session's sub-agents beside it as
//! `<project>/<session>/subagents/agent-<id>.jsonl` (the layout Anthropic
//! describes in anthropics/claude-agent-sdk-typescript#242). A project
//! folder opens as all its sessions; a session, with its sub-agents, each
//! a run of its own. A file among them that cannot be read is left out
//! with a note, so one broken session does not hide the others.

use std::path::{Path, PathBuf};

use super::open::open_file;
use super::{Format, Kind, LoadError, Note, Opening, Source, Why};
use crate::lang::Lang;

/// The model transcript a Cline task's folder holds: a Cline 3 or Roo
/// Code task's `api_conversation_history.json`, or a Cline 4 session's
/// `<sessionId>.messages.json` (cline/cline
/// sdk/packages/core/docs/messages-contract-v1.md), the one such file.
fn cline_transcript(dir: &Path) -> Option<PathBuf> {
    let task = dir.join("api_conversation_history.json");
    if task.is_file() {
        return Some(task);
    }
    let mut sessions = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| {
            path.is_file()
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(".messages.json"))
        });
    let session = sessions.next()?;
    sessions.next().is_none().then_some(session)
}

/// Every session of a project folder, in name order, each with its
/// sub-agents; or, for an OpenHands conversation's folder, its events.
pub fn open_project(dir: &Path, how: &Opening, lang: Lang) -> Result<Source, LoadError> {
    if let Some(events) = event_files(dir)? {
        return open_events(dir, &events, lang);
    }
    // A Cline or Roo Code task's folder, or a Cline 4 session's: its
    // model transcript.
    if let Some(task) = cline_transcript(dir) {
        return open_file(&task, how, lang);
    }
    let sessions = jsonl_files(dir)?;
    if sessions.is_empty() {
        return Err(LoadError::one_problem(
            &dir.display().to_string(),
            "",
            Why::NoSession,
        ));
    }
    let mut project = Source {
        format: Format::ClaudeCode,
        kind: Kind::Project {
            sessions: sessions.len(),
        },
        runs: Vec::new(),
        notes: Vec::new(),
    };
    // A folder's runs are its sessions' and agents' together: none goes
    // ahead of the others.
    let how = Opening {
        from: Some(Format::ClaudeCode),
        early: None,
        ..*how
    };
    for session in &sessions {
        match open_file(session, &how, lang) {
            Ok(mut source) => {
                add_subagents(session, &mut source, &how, lang);
                project.runs.append(&mut source.runs);
                project.notes.append(&mut source.notes);
            }
            Err(error) => project.notes.push(unreadable(session, &error)),
        }
    }
    if project.runs.is_empty() {
        return Err(LoadError::one_problem(
            &dir.display().to_string(),
            "",
            Why::NoSessionRead { why: project.notes },
        ));
    }
    Ok(project)
}

/// Whether a file at `file` would be part of the recording at `recording`:
/// the recording itself; for a session, any file of its sub-agents; for a
/// project folder, anything inside it (a new `.jsonl` there would be read
/// as one of its sessions next time). `file` need not exist yet.
pub fn is_part_of(recording: &Path, file: &Path) -> bool {
    let Ok(recording) = recording.canonicalize() else {
        return false;
    };
    let file = match file.canonicalize() {
        Ok(file) => file,
        Err(_) => {
            let folder = file.parent().filter(|p| !p.as_os_str().is_empty());
            let folder = folder.unwrap_or(Path::new(".")).canonicalize();
            match (folder, file.file_name()) {
                (Ok(folder), Some(name)) => folder.join(name),
                _ => return false,
            }
        }
    };
    if recording.is_dir() {
        return file.starts_with(&recording);
    }
    file == recording || file.starts_with(recording.with_extension("").join("subagents"))
}

/// Adds the runs of the session's sub-agents, if it has any beside it. A
/// sub-agent's own file holds all of it: the runs the session read from
/// its progress lines give way to it.
pub fn add_subagents(session: &Path, source: &mut Source, how: &Opening, lang: Lang) {
    let folder = session.with_extension("").join("subagents");
    let Ok(agents) = jsonl_files(&folder) else {
        return;
    };
    // A folder's runs are its sessions' and agents' together: none goes
    // ahead of the others.
    let how = Opening {
        from: Some(Format::ClaudeCode),
        early: None,
        ..*how
    };
    let session_name = session
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    for agent in agents {
        match open_file(&agent, &how, lang) {
            Ok(mut found) => {
                if let Some(id) = agent
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(|s| s.strip_prefix("agent-"))
                {
                    let from_progress = super::import::progress_agent_name(&session_name, id);
                    source.runs.retain(|run| {
                        run.id != from_progress && !run.id.starts_with(&format!("{from_progress}-"))
                    });
                }
                source.runs.append(&mut found.runs);
                source.notes.append(&mut found.notes);
            }
            Err(error) => source.notes.push(unreadable(&agent, &error)),
        }
    }
}

/// The events of an OpenHands conversation kept on disk, in their order:
/// `events/event-<index>-<id>.json`, one event a file, in the folder or
/// in its `events` folder (OpenHands' software-agent-sdk,
/// conversation/event_store.py). `None` when there are none.
fn event_files(dir: &Path) -> Result<Option<Vec<PathBuf>>, LoadError> {
    let inner = dir.join("events");
    let folder = if inner.is_dir() {
        inner
    } else {
        dir.to_owned()
    };
    let entries = std::fs::read_dir(&folder).map_err(|source| LoadError::Read {
        path: folder.clone(),
        source,
    })?;
    let index = |path: &Path| -> Option<u64> {
        let name = path.file_name()?.to_str()?;
        let rest = name.strip_prefix("event-")?.strip_suffix(".json")?;
        rest.split('-').next()?.parse().ok()
    };
    let mut events: Vec<(u64, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter_map(|p| Some((index(&p)?, p)))
        .collect();
    events.sort();
    Ok((!events.is_empty()).then(|| events.into_iter().map(|(_, p)| p).collect()))
}

/// Whether `dir` is one recording, not a folder of recordings: an
/// OpenHands conversation's events, a Cline task's or session's folder
/// (whose other files are the extension's own: the screen's messages, its
/// settings).
pub fn is_one_recording(dir: &Path) -> bool {
    dir.is_dir() && (matches!(event_files(dir), Ok(Some(_))) || cline_transcript(dir).is_some())
}

/// An OpenHands conversation's events, read as the JSON Lines they make.
fn open_events(dir: &Path, events: &[PathBuf], lang: Lang) -> Result<Source, LoadError> {
    let mut lines = String::new();
    for event in events {
        let text = std::fs::read_to_string(event).map_err(|source| LoadError::Read {
            path: event.clone(),
            source,
        })?;
        lines.push_str(text.trim());
        lines.push('\n');
    }
    let name = dir.file_name().map_or_else(
        || "openhands".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let origin = dir.display().to_string();
    super::import::load(lines, &origin, &name, Some(Format::OpenHands), lang)
}

/// The `*.jsonl` files directly in `dir`, sorted by name.
fn jsonl_files(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Read {
        path: dir.to_owned(),
        source,
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Ok(files)
}

fn unreadable(file: &Path, error: &LoadError) -> Note {
    Note::Unreadable {
        file: file.display().to_string(),
        error: error.to_string(),
    }
}
