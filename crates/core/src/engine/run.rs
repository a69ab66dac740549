//! The agent loop as a step machine. Written out as a plain function it is:
//!
//! ```text
//! messages = [question]                     // start
//! for turn in 0..max_turns {
//!     reply = model.call(messages)          // call
//!     messages.push(reply)
//!     match check(reply.stop_reason) {      // check
//!         Dispatch => {
//!             results = reply.tool_calls.map(run)   // dispatch, every one
//!             messages.push(user(results))          // append, as one message
//!         }
//!         Answer if goal_met(messages) => return Some(reply.text),
//!         Answer => messages.push(user("not done yet")),  // goal check
//!         Answer if harness_went_on => messages.push(its_words),  // push-back
//!         Continue => {}                    // pause_turn: call again
//!         Stop(why) => stop(why),
//!     }
//! }
//! return None
//! ```
//!
//! Here each of those lines is one [`Step`], so a viewer can stop between
//! them. Nothing in this file knows which transcript it is replaying; the
//! deliberate mistakes are a [`Policy`] it consults.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::check::{StopCause, Verdict, check};
use super::mistake::{Budget, Policy, Results, SAFETY_CAP, SaveReply};
use super::model::{CallError, Model};
use super::tools::ToolBox;
use super::trace::{Config, Event, RequestSize, Step, ToolErrors, Trace};
use crate::vocab::{Block, Message, Reply, Role, Usage};
use crate::vocab::{Conversation, History, Messages};

/// A pending tool request, owned so the reply can move into the conversation.
#[derive(Debug)]
struct PendingCall {
    id: String,
    name: String,
    input: Value,
}

#[derive(Debug)]
enum Next {
    Start,
    Call,
    Check(Reply),
    Dispatch {
        pending: std::vec::IntoIter<PendingCall>,
        results: Vec<Block>,
    },
    Append(Vec<Block>),
    /// The model says it is done; the harness checks the goal first.
    GoalCheck(String),
    /// The model says it is done; the recorded harness sent these words
    /// back instead of ending the loop.
    PushBack(Insertion),
    Exit(Event),
    Done,
}

/// Messages the client itself added to the history before a model call,
/// which no reply asked for (a tool call the client made on its own, say).
/// Before a call that follows an answer, they are the harness pushing
/// back: it did not take the answer as the end and called again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Insertion {
    /// The 1-based number of the model call these messages precede.
    pub before_call: u32,
    pub messages: Vec<Message>,
    /// What the harness meant by them, where its words tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<PushBack>,
}

/// Why a harness sent its own words to the model within one run, as the
/// recording tells it: the same loop goes on, one more call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PushBack {
    /// The reply was not in the form the harness reads: no action, or
    /// more than one.
    FormatError,
    /// The harness asks the model to go on, or to look at what it got.
    Nudge,
    /// The harness checked the goal and found it not met.
    GoalCheck,
    /// Another agent's work, handed over as context.
    Handoff,
}

/// The harness's own check of the goal, run when the model says it is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The evidence: this tool has run without an error during the run.
    pub tool_succeeded: String,
    /// What the harness tells the model when the goal is not met yet.
    pub push_back: String,
}

/// How the recorded run was ended by its harness rather than by a stop
/// reason, where the agent's log says so: the agent's harness, with the
/// status it logged (an OpenHands `finish`, a SWE-agent or mini-swe-agent
/// exit status: `submitted`, or a limit such as `exit_cost`), the user
/// interrupting the turn, or the API failing the call until the client
/// gave up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub by: EndedBy,
    /// The log's own word for it: `submitted`, `finish`, its exit status.
    pub status: String,
    /// The tool call the agent ended with, which its harness took as the
    /// end instead of running it (OpenHands' `finish`); without one, the
    /// run ends where the recording stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
}

/// Who ended a run that its harness ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndedBy {
    Agent,
    User,
    /// The API kept failing the call and the client gave up; the status
    /// is the error the client wrote in the model's place.
    Api,
}

/// One replay in progress. Pull steps with [`Run::step`] (or iterate).
#[derive(Debug)]
pub struct Run<M, T> {
    model: M,
    tools: T,
    config: Config,
    /// Sorted by `before_call`; taken from the front as calls are made.
    insertions: std::collections::VecDeque<Insertion>,
    messages: Conversation,
    /// Characters in `messages`, kept as they grow rather than recounted.
    chars: usize,
    /// Characters sent in every request so far.
    sent: usize,
    /// The recorded usage of every call so far.
    used: Option<Usage>,
    turn: u32,
    calls: u32,
    /// Rounds of tools dispatched so far.
    rounds: u32,
    next: Next,
    policy: Policy,
    /// A reply the policy keeps out of `messages` until its results are in.
    held: Option<Message>,
    goal: Option<Goal>,
    ending: Option<Ending>,
    /// The reply being dispatched holds the call the agent ended with.
    ending_now: bool,
    /// Tools that have run without an error: the goal check's evidence.
    succeeded: HashSet<String>,
    mistake_shown: bool,
}

impl<M: Model, T: ToolBox> Run<M, T> {
    /// Starts a run whose conversation opens with `opening`: any earlier
    /// history, then the user's question.
    pub fn new(model: M, tools: T, opening: Conversation, config: Config) -> Self {
        Run {
            model,
            tools,
            config,
            insertions: Default::default(),
            chars: opening.chars(),
            messages: opening,
            sent: 0,
            used: None,
            turn: 0,
            calls: 0,
            rounds: 0,
            next: Next::Start,
            policy: config.policy(),
            held: None,
            goal: None,
            ending: None,
            ending_now: false,
            succeeded: HashSet::new(),
            mistake_shown: false,
        }
    }

    /// Has the harness check the goal before it accepts an answer.
    pub fn with_goal(mut self, goal: Option<Goal>) -> Self {
        self.goal = goal;
        self
    }

    /// Ends the run as the recorded harness did, where the log says how.
    pub fn with_ending(mut self, ending: Option<Ending>) -> Self {
        self.ending = ending;
        self
    }

    /// Adds messages the client inserted before given calls.
    pub fn with_insertions(mut self, mut insertions: Vec<Insertion>) -> Self {
        insertions.sort_by_key(|i| i.before_call);
        self.insertions = insertions.into();
        self
    }

    /// The conversation so far.
    pub fn messages(&self) -> Messages<'_> {
        self.messages.all()
    }

    /// The history the conversation opened with, shared with other runs.
    pub fn history(&self) -> &History {
        self.messages.history()
    }

    /// The system prompt, where the API sends it as the first message.
    pub fn lead(&self) -> &[Message] {
        self.messages.lead()
    }

    /// Whether the configured mistake has changed what the loop did so far.
    pub fn mistake_shown(&self) -> bool {
        self.mistake_shown
    }

    /// Runs to the end and keeps every step.
    pub fn into_trace(mut self) -> Trace {
        let steps = std::iter::from_fn(|| self.step()).collect();
        Trace {
            config: self.config,
            messages: self.messages,
            steps,
            mistake_shown: self.mistake_shown,
        }
    }

    /// Advances the loop by one phase; `None` once an exit step was returned.
    pub fn step(&mut self) -> Option<Step> {
        let turn = self.turn;
        let event = match std::mem::replace(&mut self.next, Next::Done) {
            Next::Done => return None,
            Next::Start => {
                self.next = Next::Call;
                Event::Start
            }
            Next::Call => self.call(),
            Next::Check(reply) => self.check(reply),
            Next::GoalCheck(text) => self.goal_check(text),
            Next::PushBack(words) => self.push_back(words),
            Next::Dispatch {
                mut pending,
                mut results,
            } => {
                let call = pending.next()?;
                let event = self.dispatch(call, &mut results);
                self.next = if let Some(raised) = self.raised(&event) {
                    Next::Exit(raised)
                } else if pending.len() == 0 && self.ending_now {
                    Next::Exit(self.end_as_recorded())
                } else if pending.len() == 0 {
                    Next::Append(results)
                } else {
                    Next::Dispatch { pending, results }
                };
                event
            }
            Next::Append(results) => {
                let (count, appended) = self.append(results);
                self.turn += 1;
                self.next = Next::Call;
                Event::Append {
                    results: count,
                    appended,
                }
            }
            Next::Exit(event) => event,
        };
        // The budget ends the loop after its last turn, not in a turn of
        // its own: `for turn in range(max_turns)` ran turns 0 … max_turns - 1.
        let turn = match event {
            Event::BudgetExhausted { .. } | Event::Stopped(StopCause::SafetyCap { .. }) => {
                turn.saturating_sub(1)
            }
            _ => turn,
        };
        Some(Step {
            turn,
            messages: self.messages.len(),
            event,
        })
    }

    fn call(&mut self) -> Event {
        let max_turns = self.config.max_turns.get();
        match self.policy.budget {
            Budget::MaxTurns if self.turn >= max_turns => {
                return Event::BudgetExhausted { max_turns };
            }
            Budget::SafetyCap if self.turn >= SAFETY_CAP => {
                return Event::Stopped(StopCause::SafetyCap { calls: SAFETY_CAP });
            }
            Budget::SafetyCap if self.turn >= max_turns => self.mistake_shown = true,
            _ => {}
        }
        let number = self.calls + 1;
        if let Some(insertion) = self.insertions.pop_front_if(|i| i.before_call <= number) {
            let count = insertion.messages.len();
            for message in insertion.messages {
                self.push(message);
            }
            self.next = Next::Call;
            return Event::Inserted {
                added: count,
                by: insertion.by,
            };
        }
        let request = RequestSize {
            number: self.calls + 1,
            messages: self.messages.len(),
            chars: self.chars,
            sent_so_far: self.sent + self.chars,
        };
        match self.model.call(&self.messages) {
            Ok(reply) => {
                self.calls += 1;
                self.sent = request.sent_so_far;
                if let Some(usage) = reply.usage {
                    self.used = Some(self.used.unwrap_or_default().plus(usage));
                }
                let event = Event::Call {
                    request,
                    stop_reason: reply.stop_reason.clone(),
                    stop_reason_inferred: reply.stop_reason_inferred,
                    usage: reply.usage,
                    usage_so_far: self.used,
                    tolerated: self.model.take_tolerated(),
                    time: reply.time.clone(),
                };
                let message = reply.clone().into_message();
                match self.policy.reply {
                    SaveReply::AtCall => self.push(message),
                    SaveReply::AfterResults => self.held = Some(message),
                    SaveReply::Never => {}
                }
                self.next = Next::Check(reply);
                event
            }
            Err(CallError::Rejected(rejection)) => Event::Rejected { rejection },
            // The log says why it stops here: the agent exited, the user
            // interrupted, or the API failed the call.
            Err(CallError::RecordingEnded) => match &self.ending {
                Some(ending) if ending.call.is_none() => Event::Ended(ending.clone()),
                _ => Event::RecordingEnded,
            },
        }
    }

    fn check(&mut self, reply: Reply) -> Event {
        let reason = self.config.dialect.stop_reason(&reply.stop_reason);
        let correct = check(self.config.check, reason, &reply);
        let looks_done = !reply.text().trim().is_empty();
        let plan_done = self.policy.tool_rounds.is_some_and(|n| self.rounds >= n);
        let verdict = if (self.policy.text_means_done && looks_done) || plan_done {
            Verdict::Answer
        } else if self.policy.dispatch_first && reply.tool_calls().next().is_some() {
            Verdict::Dispatch
        } else {
            correct.clone()
        };
        if verdict == Verdict::Dispatch {
            self.rounds += 1;
            if self.policy.reply != SaveReply::AtCall {
                self.mistake_shown = true;
            }
        } else if let Some(held) = self.held.take() {
            self.push(held);
        }
        if verdict != correct {
            self.mistake_shown = true;
        }
        self.next = match &verdict {
            Verdict::Dispatch => {
                // The call the agent ended with, in the last reply it gave,
                // is its harness's cue to stop: it is not run, and nothing
                // goes back to the model.
                let ending_call = self
                    .ending
                    .as_ref()
                    .and_then(|e| e.call.as_deref())
                    .filter(|_| self.model.spent());
                self.ending_now =
                    ending_call.is_some_and(|id| reply.tool_calls().any(|c| c.id == id));
                let pending: Vec<PendingCall> = reply
                    .tool_calls()
                    .filter(|c| Some(c.id) != ending_call)
                    .map(|c| PendingCall {
                        id: c.id.to_owned(),
                        name: c.name.to_owned(),
                        input: c.input.clone(),
                    })
                    .collect();
                if self.ending_now && pending.is_empty() {
                    Next::Exit(self.end_as_recorded())
                } else {
                    Next::Dispatch {
                        results: Vec::with_capacity(pending.len()),
                        pending: pending.into_iter(),
                    }
                }
            }
            Verdict::Answer if self.goal.is_some() => Next::GoalCheck(reply.text()),
            // The recorded harness's words after a reply that was its
            // answer; a mistake that stops early stops there.
            Verdict::Answer => match (correct == Verdict::Answer)
                .then(|| {
                    self.insertions
                        .pop_front_if(|i| i.before_call == self.calls + 1)
                })
                .flatten()
            {
                Some(words) => Next::PushBack(words),
                None => Next::Exit(Event::Answer { text: reply.text() }),
            },
            Verdict::Continue => {
                self.turn += 1;
                Next::Call
            }
            // A harness that sends its own words back after such a reply
            // (mini-swe-agent's "reached the output token limit") went on.
            Verdict::Stop(cause) => match (correct == verdict)
                .then(|| {
                    self.insertions
                        .pop_front_if(|i| i.before_call == self.calls + 1 && i.by.is_some())
                })
                .flatten()
            {
                Some(words) => Next::PushBack(words),
                None => Next::Exit(Event::Stopped(cause.clone())),
            },
        };
        Event::Check {
            stop_reason: reply.stop_reason,
            verdict,
        }
    }

    /// Seed 001's goal loop: an answer stands only when the evidence says
    /// the goal is met; else the harness pushes back and the loop goes on.
    fn goal_check(&mut self, text: String) -> Event {
        let Some(goal) = &self.goal else {
            return Event::Answer { text };
        };
        let passed = self.succeeded.contains(&goal.tool_succeeded);
        let event = Event::GoalCheck {
            tool: goal.tool_succeeded.clone(),
            passed,
        };
        if passed {
            self.next = Next::Exit(Event::Answer { text });
        } else {
            let push_back = Message::user_text(goal.push_back.clone());
            self.push(push_back);
            self.turn += 1;
            self.next = Next::Call;
        }
        event
    }

    /// The recorded harness's words after an answer: appended, and the
    /// loop calls again, a turn of the budget like any other.
    fn push_back(&mut self, words: Insertion) -> Event {
        let added = words.messages.len();
        for message in words.messages {
            self.push(message);
        }
        self.turn += 1;
        self.next = Next::Call;
        Event::PushedBack {
            by: words.by,
            added,
        }
    }

    fn dispatch(&mut self, call: PendingCall, results: &mut Vec<Block>) -> Event {
        let output = self.tools.run(crate::vocab::ToolCall {
            id: &call.id,
            name: &call.name,
            input: &call.input,
        });
        if !output.is_error {
            self.succeeded.insert(call.name.clone());
        }
        results.push(Block::ToolResult {
            tool_use_id: call.id.clone(),
            content: output.content.clone(),
            is_error: output.is_error,
        });
        Event::Dispatch {
            id: call.id,
            name: call.name,
            input: call.input,
            output,
        }
    }

    /// The exit of a run its harness ended as the log says, the reply a
    /// mistake held back put where it goes.
    fn end_as_recorded(&mut self) -> Event {
        if let Some(held) = self.held.take() {
            self.push(held);
        }
        self.ending
            .clone()
            .map_or(Event::RecordingEnded, Event::Ended)
    }

    /// A harness that raises tool errors ends the run at a failed dispatch.
    fn raised(&self, dispatched: &Event) -> Option<Event> {
        match dispatched {
            Event::Dispatch { name, output, .. }
                if output.is_error && self.config.tool_errors == ToolErrors::Raise =>
            {
                Some(Event::Stopped(StopCause::ToolErrorRaised {
                    name: name.clone(),
                    error: output.content.to_string(),
                }))
            }
            _ => None,
        }
    }

    /// Appends the turn's results as one user message (or as the policy
    /// says); returns how many results it had once a result the policy
    /// loses is gone (all of them, when it drops them all), and how many
    /// messages it added.
    fn append(&mut self, mut results: Vec<Block>) -> (usize, usize) {
        let before = self.messages.len();
        let together = self.config.dialect.results_in_one_message();
        if self.policy.results == Results::DropOne {
            self.mistake_shown |= results.pop().is_some();
        }
        let results_kept = results.len();
        match self.policy.results {
            Results::Drop => self.mistake_shown = true,
            Results::DropOne if results.is_empty() => {}
            Results::AsTheApiWants | Results::DropOne if together => self.push(Message {
                role: Role::User,
                content: results,
            }),
            Results::AsTheApiWants | Results::OnePerResult | Results::DropOne => {
                self.mistake_shown |=
                    self.policy.results == Results::OnePerResult && together && results.len() > 1;
                for result in results {
                    self.push(Message {
                        role: Role::User,
                        content: vec![result],
                    });
                }
            }
        }
        if let Some(held) = self.held.take() {
            self.push(held);
        }
        (results_kept, self.messages.len() - before)
    }

    fn push(&mut self, message: Message) {
        self.chars += message.chars();
        self.messages.push(message);
    }
}

impl<M: Model, T: ToolBox> Iterator for Run<M, T> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        self.step()
    }
}
