//! Cuts a recorded conversation into runs of the loop: each user prompt
//! that the model then answers starts a run; the assistant messages after
//! it are the recorded replies, and the tool results are keyed by call id.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::num::NonZeroU32;
use std::sync::Arc;

use crate::dialect::Dialect;
use crate::engine::{
    Block, EndedBy, Ending, History, Insertion, Log, Message, PushBack, Recorded, Reply, Role,
    ToolDef, ToolOutput,
};

use super::boundary::{self, Speaker, Standing, Template};
use super::segment::{Entry, Origin, Recording};
use crate::dialect::read::is_prompt;
use crate::transcript::{Compaction, FORMAT_VERSION, Imported, Note, Transcript};

/// What a cut would have been had it been a run: built up message by message.
struct RunBuilder {
    /// Index of the prompt among the recording's messages, and of the
    /// first message its history holds.
    prompt_index: usize,
    history_start: usize,
    compaction: Option<Compaction>,
    question: String,
    replies: Vec<Reply>,
    /// How many calls of the replies so far use each id.
    calls: HashMap<String, usize>,
    results: BTreeMap<String, Recorded>,
    inserted: Vec<Insertion>,
    pending_insert: Vec<Message>,
    /// What the harness meant by the messages waiting to be inserted.
    pending_by: Option<PushBack>,
    /// The harness's words told by a template, by harness; and those told
    /// by coming between a tool round and the next call.
    by_template: BTreeMap<&'static str, usize>,
    after_round: usize,
    notes: Vec<Note>,
    ending: Option<Ending>,
}

pub fn cut_runs(recording: Recording) -> Vec<Transcript> {
    let Recording {
        name,
        source,
        model,
        max_tokens,
        system,
        tools,
        dialect,
        entries,
        ending,
        title_note,
        typed_prompts,
    } = recording;
    let mut builders = Vec::new();
    let mut current: Option<RunBuilder> = None;
    let mut messages = Vec::with_capacity(entries.len());
    // Where the history starts: after a compaction, at its summary.
    let mut history_start = 0;
    for entry in entries {
        let index = messages.len();
        let message = &entry.message;
        match (entry.origin, &mut current) {
            (Origin::History, _) => {}
            // What the client wrote in the model's place is no message of
            // the conversation: the run ends on it.
            (Origin::ApiFailure, run) => {
                if let Some(run) = run {
                    if let Some((attempts, error)) = &entry.retried {
                        run.notes.push(Note::Retried {
                            call: run.replies.len() + 1,
                            attempts: *attempts,
                            error: error.clone(),
                            went_through: false,
                        });
                    }
                    run.ended_by(EndedBy::Api, message);
                }
                continue;
            }
            // The summary is the question of the calls that follow it at
            // once, and opens the history of every later run.
            (Origin::Compaction, _) => {
                builders.extend(current.take());
                let resumes = index.saturating_sub(entry.resumes_after).max(history_start);
                let compaction = Compaction {
                    replaced: resumes - history_start,
                    ..entry.compaction.clone().unwrap_or_default()
                };
                history_start = resumes;
                let mut run = RunBuilder::new(index, history_start, message.text());
                run.compaction = Some(compaction);
                current = Some(run);
            }
            // The client's own lines in a known template are its harness's
            // words (Claude Code's stop hook, written as an `isMeta` line).
            (Origin::Client, Some(run)) => match boundary::template_of(&message.text()) {
                Some(template) => run.harness_words(message.clone(), Some(template)),
                None => run.pending_insert.push(message.clone()),
            },
            (Origin::Client | Origin::Harness(_), None) => {}
            (Origin::Harness(by), Some(run)) => run.words_of_kind(message.clone(), by),
            (Origin::Conversation, _) if is_prompt(message) => {
                let standing = match &current {
                    Some(run) if !typed_prompts => run.standing(),
                    _ => Standing::Unanswered,
                };
                match (boundary::tell(&message.text(), standing), &mut current) {
                    (Speaker::Harness(template), Some(run)) => {
                        run.harness_words(message.clone(), template)
                    }
                    _ => {
                        // A compaction whose summary no call answered
                        // belongs to the next run.
                        let compaction = current
                            .take()
                            .and_then(|run| run.keep_or_pass_on(&mut builders));
                        let mut run = RunBuilder::new(index, history_start, message.text());
                        run.compaction = compaction;
                        current = Some(run);
                    }
                }
            }
            (Origin::Conversation, Some(run)) if message.role == Role::Assistant => {
                run.add_reply(&entry, dialect)
            }
            (Origin::Conversation, Some(run)) => run.add_results(&entry),
            (Origin::Interruption, Some(run)) => {
                run.add_results(&entry);
                run.ended_by(EndedBy::User, message);
            }
            (Origin::Conversation | Origin::Interruption, None) => {}
        }
        messages.push(entry.message);
    }
    builders.extend(current);
    let all = Log::new(messages);
    let mut builders: Vec<RunBuilder> = builders.into_iter().filter(RunBuilder::is_a_run).collect();
    // The agent's own ending belongs to the run whose last reply made the
    // call it ended with; without one, to the end of its log, the last run.
    let owner = match ending.as_ref().and_then(|e| e.call.as_deref()) {
        Some(id) => builders.iter().rposition(|b| {
            b.replies
                .last()
                .is_some_and(|r| r.tool_calls().any(|c| c.id == id))
        }),
        None => builders.len().checked_sub(1),
    };
    if let Some(run) = owner.map(|at| &mut builders[at])
        && run.ending.is_none()
    {
        run.ending = ending;
    }
    let count = builders.len();
    builders
        .into_iter()
        .enumerate()
        .map(|(n, b)| {
            let id = if count == 1 {
                name.clone()
            } else {
                format!("{name}-{}", n + 1)
            };
            let imported = Imported {
                origin: source.clone(),
                run: n + 1,
                of: count,
            };
            let title = match &title_note {
                Some(note) => format!("{note} · {}", title_of(&b.question, &name)),
                None => title_of(&b.question, &name),
            };
            b.finish(Finish {
                id,
                imported,
                title,
                all: &all,
                model: model.clone().unwrap_or_else(|| "unknown".to_owned()),
                max_tokens,
                system: system.clone(),
                tools: tools.clone(),
                dialect,
            })
        })
        .collect()
}

/// A run's title, as a person would name it: the first line of its
/// prompt (long ones cut short), or the file's name when the prompt has
/// no words.
fn title_of(question: &str, name: &str) -> String {
    /// Enough for a title bar; the rest of the prompt is the question.
    const TITLE_CHARS: usize = 80;
    match question
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
    {
        Some(line) => crate::text::one_line(line, TITLE_CHARS),
        None => name.to_owned(),
    }
}

struct Finish<'a> {
    dialect: Dialect,
    id: String,
    imported: Imported,
    title: String,
    all: &'a Arc<Log>,
    model: String,
    max_tokens: Option<u32>,
    system: Option<String>,
    tools: Vec<ToolDef>,
}

/// Stands in for a tool result the recording does not have.
pub const MISSING_RESULT: &str = "(no result was recorded for this call)";

impl RunBuilder {
    fn new(prompt_index: usize, history_start: usize, question: String) -> Self {
        RunBuilder {
            prompt_index,
            history_start,
            compaction: None,
            question,
            replies: Vec::new(),
            calls: HashMap::new(),
            results: BTreeMap::new(),
            inserted: Vec::new(),
            pending_insert: Vec::new(),
            pending_by: None,
            by_template: BTreeMap::new(),
            after_round: 0,
            notes: Vec::new(),
            ending: None,
        }
    }

    /// The run ends where `message`, the words of whoever ended it, is.
    fn ended_by(&mut self, by: EndedBy, message: &Message) {
        self.ending = Some(Ending {
            by,
            status: message.text(),
            call: None,
        });
    }

    /// Whether the prompt made a run: the model answered it, or the API
    /// failed its call (a prompt nothing came of is none).
    fn is_a_run(&self) -> bool {
        !self.replies.is_empty() || self.ending.as_ref().is_some_and(|e| e.by == EndedBy::Api)
    }

    /// Keeps a run; for a prompt that made none, hands on the compaction
    /// it opened with, if any.
    fn keep_or_pass_on(self, builders: &mut Vec<RunBuilder>) -> Option<Compaction> {
        if !self.is_a_run() {
            self.compaction
        } else {
            builders.push(self);
            None
        }
    }

    fn add_reply(&mut self, entry: &Entry, dialect: Dialect) {
        if entry.ends.is_some() {
            self.ending = entry.ends.clone();
        }
        if let Some((attempts, error)) = &entry.retried {
            self.notes.push(Note::Retried {
                call: self.replies.len() + 1,
                attempts: *attempts,
                error: error.clone(),
                went_through: true,
            });
        }
        if !self.pending_insert.is_empty() {
            self.inserted.push(Insertion {
                by: self.pending_by.take(),
                before_call: self.replies.len() as u32 + 1,
                messages: std::mem::take(&mut self.pending_insert),
            });
        }
        let content = entry.message.content.clone();
        for block in &content {
            if let Block::ToolUse { id, .. } = block {
                *self.calls.entry(id.clone()).or_default() += 1;
            }
        }
        let asks = content.iter().any(|b| matches!(b, Block::ToolUse { .. }));
        let (stop_reason, inferred) = match &entry.stop_reason {
            Some(reason) => (reason.clone(), false),
            None => {
                let words = dialect.words();
                let spelling = if asks {
                    words.tool_stop
                } else {
                    words.answer_stop
                };
                (spelling.to_owned(), true)
            }
        };
        self.replies.push(Reply {
            content,
            stop_reason,
            stop_reason_inferred: inferred,
            usage: entry.usage,
            time: entry.time.clone(),
            streamed: entry.streamed,
        });
    }

    /// Where the loop stands after what the run holds so far.
    fn standing(&self) -> Standing {
        match &self.ending {
            Some(ending) if ending.by == EndedBy::Agent && ending.call.is_some() => {
                return Standing::Finished;
            }
            Some(_) => return Standing::Ended,
            None => {}
        }
        let Some(last) = self.replies.last() else {
            return Standing::Unanswered;
        };
        let mut calls = last.tool_calls().peekable();
        // Each use of a call id has its result (clients reuse ids).
        let answered = |id: &str| {
            let uses = self.calls.get(id).copied().unwrap_or(1);
            self.results.get(id).map_or(0, Recorded::uses) >= uses
        };
        if calls.peek().is_none() {
            Standing::Answered
        } else if calls.all(|c| answered(c.id)) {
            Standing::RoundDone
        } else {
            Standing::RoundCut
        }
    }

    /// Words the harness sent within the run, of a kind its format records:
    /// the run goes on, even past the agent's own ending.
    fn words_of_kind(&mut self, message: Message, by: PushBack) {
        if self.ending.as_ref().is_some_and(|e| e.by == EndedBy::Agent) {
            self.ending = None;
        }
        self.pending_by = self.pending_by.or(Some(by));
        self.pending_insert.push(message);
    }

    /// Words the harness sent within the run: inserted before the next
    /// call, which follows an answer as a push-back.
    fn harness_words(&mut self, message: Message, template: Option<&'static Template>) {
        match template {
            Some(template) => *self.by_template.entry(template.harness).or_default() += 1,
            None => self.after_round += 1,
        }
        // Words of no known template, between a round and the next call,
        // are the harness's word to go on.
        self.words_of_kind(message, template.map_or(PushBack::Nudge, |t| t.by));
    }

    fn add_results(&mut self, entry: &Entry) {
        let message = &entry.message;
        let asked: BTreeSet<String> = self
            .replies
            .last()
            .map(|r| r.tool_calls().map(|c| c.id.to_owned()).collect())
            .unwrap_or_default();
        for block in &message.content {
            let Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } = block
            else {
                continue;
            };
            if !asked.contains(tool_use_id.as_str()) {
                self.notes.push(Note::ResultWithoutCall {
                    id: tool_use_id.clone(),
                });
                continue;
            }
            let time = entry.result_times.iter().find(|(id, _)| id == tool_use_id);
            let output = ToolOutput {
                content: content.clone(),
                is_error: *is_error,
                not_run: false,
                time: time.map(|(_, time)| time.clone()),
            };
            // A reused id has one result per use, and a result answers the
            // latest use: earlier uses left unanswered get the stand-in.
            // More results than uses is one call answered twice.
            let calls = self.calls.get(tool_use_id.as_str()).copied().unwrap_or(0);
            let have = self
                .results
                .get(tool_use_id.as_str())
                .map_or(0, Recorded::uses);
            if have >= calls {
                self.notes.push(Note::ManyResults {
                    id: tool_use_id.clone(),
                });
                continue;
            }
            self.answer_missing(tool_use_id, calls - 1);
            self.record(tool_use_id, output);
        }
    }

    /// Adds the result of the id's next use.
    fn record(&mut self, id: &str, output: ToolOutput) {
        match self.results.get_mut(id) {
            Some(recorded) => recorded.push(output),
            None => {
                self.results.insert(id.to_owned(), Recorded::Once(output));
            }
        }
    }

    /// Gives the id's uses up to `uses` a result: the error that says none
    /// was recorded, for those that have none.
    fn answer_missing(&mut self, id: &str, uses: usize) {
        let have = self.results.get(id).map_or(0, Recorded::uses);
        for _ in have..uses {
            self.notes.push(Note::MissingResult { id: id.to_owned() });
            self.record(id, ToolOutput::error(MISSING_RESULT));
        }
    }

    fn finish(mut self, f: Finish) -> Transcript {
        let mut uses: BTreeMap<String, usize> = BTreeMap::new();
        for call in self.replies.iter().flat_map(Reply::tool_calls) {
            let count = uses.entry(call.id.to_owned()).or_default();
            *count += 1;
            if *count == 2 {
                self.notes.push(Note::ReusedCallId {
                    id: call.id.to_owned(),
                });
            }
        }
        // Every use of every id gets a result, but the call the agent
        // ended with (its id's last use): its harness never ran it.
        let ending_call = self.ending.as_ref().and_then(|e| e.call.clone());
        for (id, calls) in uses {
            let ran = if Some(&id) == ending_call.as_ref() {
                calls - 1
            } else {
                calls
            };
            self.answer_missing(&id, ran);
        }
        for (harness, count) in std::mem::take(&mut self.by_template) {
            self.notes.push(Note::HarnessWordsByTemplate {
                count,
                harness: harness.to_owned(),
            });
        }
        if self.after_round > 0 {
            self.notes.push(Note::HarnessWordsAfterRound {
                count: self.after_round,
            });
        }
        let turns = (self.replies.len() as u32 + 1).max(10);
        Transcript {
            schema: None,
            version: FORMAT_VERSION,
            id: f.id,
            title: f.title,
            description: String::new(),
            imported: Some(f.imported),
            dialect: Some(f.dialect),
            remarks: Vec::new(),
            history: History::between(f.all, self.history_start, self.prompt_index),
            compaction: self.compaction,
            question: self.question,
            system: f.system,
            model: f.model,
            max_tokens: f.max_tokens,
            max_turns: NonZeroU32::new(turns).unwrap_or(NonZeroU32::MIN),
            tools: f.tools,
            replies: self.replies,
            environment: BTreeMap::new(),
            results: self.results,
            inserted: self.inserted,
            goal: None,
            ending: self.ending,
            tool_errors: Default::default(),
            repeat_last_reply: false,
            expect: None,
            notes: self.notes,
            recorded: true,
        }
    }
}
