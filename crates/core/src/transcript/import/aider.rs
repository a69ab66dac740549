//! aider's chat history, `.aider.chat.history.md` (Aider-AI/aider,
//! aider/io.py): Markdown appended as the session goes. Each aider process
//! opens with `# aider chat started at …`; what the person typed is on
//! `#### ` lines (a line each, the lines of one input together); aider's
//! own output is on `> ` lines; a model's reply is plain Markdown,
//! written whole once its call ends, and followed (since v0.46) by a
//! `> Tokens: …` line, one for each call.
//!
//! aider calls no tools: a reply writes its edits as text, which aider
//! applies itself. So a run is a prompt and its replies. A call that comes
//! with no new input is aider sending its own words back (a reflection):
//! the files a reply named, once added; an edit that failed to apply; lint
//! or test errors. The history keeps not those words but what set them
//! off, so each is told by that. Slash commands and shell commands are
//! aider's, not prompts; `/ask`, `/code`, `/architect` and `/context`
//! with words after them are prompts in that mode. A reply whose text is
//! cut by one of aider's lines in its middle cannot be told from one that
//! ends there: the reply is the text just before its `> Tokens:` line.

use crate::engine::{Block, Message, PushBack, Role};
use crate::transcript::Note;
use crate::transcript::Piece;

use super::segment::{Entry, Origin, Recording};

const SESSION: &str = "# aider chat started at";

/// Whether the text is an aider chat history: a session's header is
/// among its first lines that are not blank (aider's own test fixture
/// opens with an editor's mode line, a file cut at its start with the
/// end of a session).
pub fn looks_like(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .take(9)
        .any(|line| line.starts_with(SESSION))
}

/// Stands in for the words of a reflection, which the history does not
/// keep, by what set it off.
fn reflection_words(by: PushBack) -> &'static str {
    match by {
        PushBack::FormatError => {
            "(aider's reflection: an edit of the reply above failed to apply; the history keeps \
             not the words it sent back)"
        }
        PushBack::GoalCheck => {
            "(aider's reflection: lint or test errors after the reply's edits; the history keeps \
             not the words it sent back)"
        }
        PushBack::Nudge | PushBack::Handoff => {
            "(aider's reflection: it added the files the reply named to the chat; the history \
             keeps not the words it sent back)"
        }
    }
}

/// Stands in for a prompt aider read from a file's `AI!` comment (watch
/// mode), which the history does not keep.
pub const WATCHED_PROMPT: &str =
    "(a request aider read from an `AI!` comment in a file; the history keeps not its words)";

/// Said of a command whose output aider sent to the model.
const COMMAND_OUTPUT: &str = "(aider sent this command's output to the model; the history keeps the command, not its output)";

/// What a line of the history is.
enum Line<'a> {
    Session,
    /// One line of what the person typed.
    Input(&'a str),
    /// One of aider's own lines, its `> ` taken off.
    Aider(&'a str),
    Plain(&'a str),
}

fn line_of(line: &str) -> Line<'_> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.starts_with(SESSION) {
        Line::Session
    } else if let Some(input) = line.strip_prefix("####") {
        Line::Input(input.strip_prefix(' ').unwrap_or(input).trim_end())
    } else if let Some(said) = line.strip_prefix('>') {
        Line::Aider(said.trim())
    } else {
        Line::Plain(line)
    }
}

/// What the reader holds between lines.
#[derive(Default)]
struct Reader {
    /// The input being typed, a line at a time.
    input: Vec<String>,
    /// The plain lines since aider's last line: a reply, once its
    /// `> Tokens:` line comes.
    plain: Vec<String>,
    /// A prompt is waiting for its first reply; a call came since it.
    prompted: bool,
    answered: bool,
    /// What aider said since the last call that sets off a reflection.
    trigger: Option<PushBack>,
    /// Plain lines that are the rest of an edit's failure, not a reply.
    in_failure: bool,
    last_reply: Option<String>,
    /// A command typed since the last call: a call right after it is the
    /// command's (`/test`, `/run`, `!…` send their output to the model).
    command: Option<String>,
    reflections: usize,
    edits: usize,
    commands: usize,
}

/// Reads the history into `recording`, each aider session after the
/// first (a new process, whose chat starts afresh) into one of `others`.
pub fn read(
    text: &str,
    recording: &mut Recording,
    others: &mut Vec<Recording>,
    notes: &mut Vec<Note>,
) {
    let mut reader = Reader::default();
    let (name, source) = (recording.name.clone(), recording.source.clone());
    let mut sessions = vec![std::mem::take(recording)];
    for line in text.lines() {
        let recording = sessions.last_mut().expect("one at least");
        match line_of(line) {
            Line::Input(typed) => {
                reader.input.push(typed.to_owned());
                continue;
            }
            other => {
                reader.take_input(recording);
                match other {
                    Line::Session if recording.entries.is_empty() => reader.plain.clear(),
                    Line::Session => {
                        reader = Reader {
                            reflections: reader.reflections,
                            edits: reader.edits,
                            commands: reader.commands,
                            ..Reader::default()
                        };
                        sessions.push(Recording::default());
                    }
                    Line::Aider(said) => reader.aider_line(said, recording),
                    Line::Plain(plain) if reader.in_failure || opens_failure_tail(plain) => {
                        reader.in_failure = !ends_failure(plain);
                    }
                    Line::Plain(plain) => reader.plain.push(plain.to_owned()),
                    Line::Input(_) => unreachable!("matched above"),
                }
            }
        }
    }
    reader.take_input(sessions.last_mut().expect("one at least"));
    let mut sessions = sessions.into_iter().filter(|s| !s.entries.is_empty());
    *recording = Recording {
        name: name.clone(),
        source: source.clone(),
        ..sessions.next().unwrap_or_default()
    };
    for (n, session) in sessions.enumerate() {
        others.push(Recording {
            name: format!("{name}-session-{}", n + 2),
            source: source.part(Piece::Session(n + 2)),
            dialect: recording.dialect,
            ..session
        });
    }
    if reader.reflections > 0 {
        notes.push(Note::WordsNotKept {
            count: reader.reflections,
            harness: "aider".to_owned(),
        });
    }
    if reader.edits > 0 || reader.commands > 0 {
        notes.push(Note::HarnessOwnWork {
            edits: reader.edits,
            commands: reader.commands,
        });
    }
}

impl Reader {
    /// The input typed so far, now whole: a prompt, a hand-off, or one of
    /// aider's commands.
    fn take_input(&mut self, recording: &mut Recording) {
        if self.input.is_empty() {
            return;
        }
        let typed = std::mem::take(&mut self.input).join("\n");
        self.plain.clear();
        let Some(prompt) = prompt_of(&typed) else {
            if !is_confirmation(&typed) {
                self.commands += 1;
                self.command = Some(typed);
            }
            return;
        };
        self.command = None;
        // The architect's reply, handed to its editor as the editor's
        // input: the same run goes on.
        if self.last_reply.as_deref() == Some(prompt.trim()) {
            recording.push(Entry::new(
                Message::user_text(prompt),
                Origin::Harness(PushBack::Handoff),
            ));
        } else {
            recording.push(Entry::new(Message::user_text(prompt), Origin::Conversation));
        }
        self.prompted = true;
        self.answered = false;
        self.trigger = None;
    }

    fn aider_line(&mut self, said: &str, recording: &mut Recording) {
        if said.starts_with("Tokens:") {
            self.call(recording);
        } else if said.starts_with("Processing your request") {
            recording.push(Entry::new(
                Message::user_text(WATCHED_PROMPT),
                Origin::Conversation,
            ));
            self.prompted = true;
            self.answered = false;
        } else if let Some(model) = model_of(said) {
            recording.model = Some(model.to_owned());
        } else if said.starts_with("Applied edit to ") {
            self.edits += 1;
        } else if let Some(by) = trigger_of(said) {
            self.trigger = self.trigger.or(Some(by));
            self.in_failure = said.contains("SEARCH/REPLACE block") && said.contains("failed");
        } else if said.starts_with("litellm.") && self.prompted && !self.answered {
            // The API failed the prompt's call, and aider gave up on it.
            recording.push(Entry::new(Message::user_text(said), Origin::ApiFailure));
            self.prompted = false;
        }
        self.plain.clear();
    }

    /// A call ended: its reply is the plain text just before.
    fn call(&mut self, recording: &mut Recording) {
        let reply = std::mem::take(&mut self.plain).join("\n").trim().to_owned();
        if let Some(command) = self.command.take() {
            recording.push(Entry::new(
                Message::user_text(format!("{command}\n{COMMAND_OUTPUT}")),
                Origin::Conversation,
            ));
            self.prompted = true;
            self.answered = false;
        }
        if !self.prompted {
            return;
        }
        if self.answered {
            // No input since the last call: aider sent its own words.
            let by = self.trigger.take().unwrap_or(PushBack::Nudge);
            recording.push(Entry::new(
                Message::user_text(reflection_words(by)),
                Origin::Harness(by),
            ));
            self.reflections += 1;
        }
        let message = Message {
            role: Role::Assistant,
            content: vec![Block::Text {
                text: reply.clone(),
            }],
        };
        recording.push(Entry::reply(message, None, None));
        self.last_reply = Some(reply);
        self.answered = true;
        self.trigger = None;
    }
}

/// The prompt an input is, if it is one: its words, or those after a
/// command that sends them in a mode of its own.
fn prompt_of(typed: &str) -> Option<&str> {
    const MODES: [&str; 4] = ["/ask ", "/code ", "/architect ", "/context "];
    let typed = typed.trim();
    if let Some(words) = MODES.iter().find_map(|mode| typed.strip_prefix(mode)) {
        return Some(words.trim()).filter(|w| !w.is_empty());
    }
    let command = typed.starts_with('/') || typed.starts_with('!');
    (!command && !typed.is_empty() && !is_confirmation(typed)).then_some(typed)
}

/// aider writes a confirmation it answered once for several files as if
/// typed (`Add file to the chat? (Y)es/(N)o/… [Yes]: all`).
fn is_confirmation(typed: &str) -> bool {
    typed.contains("(Y)es/(N)o")
}

/// The model a session's banner names: `Model: deepseek/deepseek-chat
/// with diff edit format` (`Main model:` when there are others).
fn model_of(said: &str) -> Option<&str> {
    let rest = said
        .strip_prefix("Model: ")
        .or_else(|| said.strip_prefix("Main model: "))?;
    Some(rest.split(" with ").next().unwrap_or(rest).trim())
}

/// What an aider line says sets off a reflection, if it does.
fn trigger_of(said: &str) -> Option<PushBack> {
    let yes = said.ends_with(": y") || said.ends_with(": a") || said.ends_with("? y");
    if said.contains("did not conform to the edit format")
        || said.contains("SEARCH/REPLACE block") && said.contains("failed to match")
    {
        Some(PushBack::FormatError)
    } else if yes
        && (said.starts_with("Attempt to fix lint errors?")
            || said.starts_with("Attempt to fix test errors?"))
    {
        Some(PushBack::GoalCheck)
    } else if said.starts_with("Add ") && said.contains("to the chat?") && yes {
        Some(PushBack::Nudge)
    } else {
        None
    }
}

/// Whether a plain line opens the last part of an edit's failure
/// (aider/coders/editblock_coder.py), which says the other blocks applied.
fn opens_failure_tail(plain: &str) -> bool {
    plain.starts_with("# The other ") && plain.contains("SEARCH/REPLACE block")
}

/// Whether a plain line is the last of an edit's failure: its closing
/// advice, or the last line of its tail.
fn ends_failure(plain: &str) -> bool {
    plain.starts_with("The SEARCH section must exactly match")
        || plain.starts_with("Just reply with fixed versions")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_confirmations_are_no_prompts_but_a_mode_s_words_are() {
        assert_eq!(prompt_of("/add README.md"), None);
        assert_eq!(prompt_of("!ls"), None);
        assert_eq!(prompt_of("/ask why?"), Some("why?"));
        assert_eq!(prompt_of("/ask"), None);
        assert_eq!(
            prompt_of("Add file to the chat? (Y)es/(N)o [Yes]: all"),
            None
        );
        assert_eq!(prompt_of("fix the bug"), Some("fix the bug"));
    }
}
