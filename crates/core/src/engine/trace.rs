//! What a replay produces: the conversation, stored once, and the steps that
//! built it, each pointing at the prefix of the conversation it left behind.

use std::num::NonZeroU32;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::check::{CheckPolicy, StopCause, Verdict};
use super::mistake::Mistake;
use super::mistake::Policy;
use super::run::{EndedBy, Ending, PushBack};
use super::tools::ToolOutput;
use crate::dialect::Dialect;
use crate::vocab::Rejection;
use crate::vocab::Timing;
use crate::vocab::Usage;
use crate::vocab::{Conversation, Messages};

/// The largest turn budget loopstep replays: far beyond any recorded run,
/// small enough that a model that never stops asking replays in well under
/// a second rather than hanging.
pub const MAX_TURNS: u32 = 100_000;

/// How the loop is set up for one replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Config {
    pub max_turns: NonZeroU32,
    /// The API the run speaks: how stop reasons read, which requests fail.
    pub dialect: Dialect,
    pub check: CheckPolicy,
    pub tool_errors: ToolErrors,
    /// A deliberate mistake, to show what it breaks; `None` is the correct loop.
    pub mistake: Option<Mistake>,
}

impl Config {
    /// The correct loop with the production check and the given budget.
    pub fn new(max_turns: NonZeroU32, dialect: Dialect) -> Self {
        Config {
            max_turns,
            dialect,
            check: CheckPolicy::default(),
            tool_errors: ToolErrors::default(),
            mistake: None,
        }
    }

    /// How the loop is written: the lesson's, or a mistake's.
    pub fn policy(&self) -> Policy {
        self.mistake.map_or(Policy::CORRECT, |m| m.policy())
    }
}

/// What the harness does when a tool fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolErrors {
    /// Send the error back as an `is_error` result: the model can react.
    #[default]
    Report,
    /// Stop the loop and hand the error to the caller, as the TypeScript lesson does.
    Raise,
}

/// The size of one request: the whole conversation, resent every call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RequestSize {
    /// 1 for the first model call of the run.
    pub number: u32,
    pub messages: usize,
    pub chars: usize,
    /// Characters sent by every call up to this one, this one included:
    /// what resending the history has cost so far.
    pub sent_so_far: usize,
}

/// One step of the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The 0-based turn; one turn is one model call.
    pub turn: u32,
    /// How many messages the conversation holds after this step.
    pub messages: usize,
    #[serde(flatten)]
    pub event: Event,
}

/// What happened in a step. The four phases of a turn come first, then the
/// exits; exactly one exit ends every finished trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Event {
    /// Before the first call: `messages` holds the opening, nothing is sent yet.
    Start,
    /// The model was sent `request`; its reply is the last message now.
    Call {
        request: RequestSize,
        stop_reason: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        stop_reason_inferred: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        /// The recorded usage of every call so far, this one included;
        /// `None` while no call so far has any.
        #[serde(skip_serializing_if = "Option::is_none")]
        usage_so_far: Option<Usage>,
        /// A rule of the API this recorded request broke, which the
        /// recording shows the API accepted: noted, not refused.
        #[serde(skip_serializing_if = "Option::is_none")]
        tolerated: Option<Rejection>,
        /// When the recorded call started and how long it took.
        #[serde(skip_serializing_if = "Option::is_none")]
        time: Option<Timing>,
    },
    Check {
        stop_reason: String,
        #[serde(flatten)]
        verdict: Verdict,
    },
    /// One requested tool ran; a recorded output carries its time.
    Dispatch {
        id: String,
        name: String,
        input: Value,
        output: ToolOutput,
    },
    /// All results of the turn went into the conversation as one message.
    Append {
        results: usize,
        /// How many messages this step added: 1, unless a mistake is active.
        appended: usize,
    },
    /// The model said it was done; the harness checked whether `tool` has
    /// succeeded. If not, it appended its push-back and the loop goes on.
    GoalCheck {
        tool: String,
        passed: bool,
    },
    /// The client added messages that no reply asked for (recorded logs
    /// only): its own, or the harness's words, where they tell why.
    Inserted {
        added: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<PushBack>,
    },
    /// The model said it was done, and the recorded harness sent its own
    /// words back instead of taking that as the end: the loop goes on, one
    /// more turn (recorded logs only).
    PushedBack {
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<PushBack>,
        added: usize,
    },
    Answer {
        text: String,
    },
    /// The loop ran out of turns and returns `None`.
    BudgetExhausted {
        max_turns: u32,
    },
    Stopped(StopCause),
    /// The recording holds no reply for this call.
    RecordingEnded,
    /// The run's harness ended it, as the agent's log says: the agent
    /// exited, the user interrupted, or the API failed the call.
    Ended(Ending),
    Rejected {
        rejection: Rejection,
    },
}

/// The phase names, as the lesson spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Start,
    Call,
    Check,
    Dispatch,
    Append,
    GoalCheck,
    Inserted,
    PushedBack,
    Answer,
    BudgetExhausted,
    Stopped,
    RecordingEnded,
    Ended,
    Rejected,
}

impl Phase {
    pub const ALL: [Phase; 14] = [
        Phase::Start,
        Phase::Call,
        Phase::Check,
        Phase::Dispatch,
        Phase::Append,
        Phase::GoalCheck,
        Phase::Inserted,
        Phase::PushedBack,
        Phase::Answer,
        Phase::BudgetExhausted,
        Phase::Stopped,
        Phase::RecordingEnded,
        Phase::Ended,
        Phase::Rejected,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::Call => "call",
            Phase::Check => "check",
            Phase::Dispatch => "dispatch",
            Phase::Append => "append",
            Phase::GoalCheck => "goal_check",
            Phase::Inserted => "inserted",
            Phase::PushedBack => "pushed_back",
            Phase::Answer => "answer",
            Phase::BudgetExhausted => "budget_exhausted",
            Phase::Stopped => "stopped",
            Phase::RecordingEnded => "recording_ended",
            Phase::Ended => "ended",
            Phase::Rejected => "rejected",
        }
    }

    pub fn is_exit(self) -> bool {
        !matches!(
            self,
            Phase::Start
                | Phase::Call
                | Phase::Check
                | Phase::Dispatch
                | Phase::Append
                | Phase::GoalCheck
                | Phase::Inserted
                | Phase::PushedBack
        )
    }
}

impl Event {
    /// Whether this is a step where something went wrong, which a reader
    /// looking for the trouble in a run wants first: a tool that failed, a
    /// request that broke an API rule (refused, or noted on a recording),
    /// a goal check that pushed back, or an end that is no answer. A spent
    /// budget is none of these: `None` is what the loop is built to return
    /// then, a legitimate result.
    pub fn goes_wrong(&self) -> bool {
        match self {
            Event::Call { tolerated, .. } => tolerated.is_some(),
            Event::Dispatch { output, .. } => output.is_error,
            Event::Stopped(_) | Event::RecordingEnded | Event::Rejected { .. } => true,
            Event::BudgetExhausted { .. } => false,
            // How the agent or the user meant to end; a failed call is trouble.
            Event::Ended(ending) => ending.by == EndedBy::Api,
            Event::Start
            | Event::Check { .. }
            | Event::Append { .. }
            | Event::Inserted { .. }
            // A goal check that sends the model back is the harness
            // doing its job.
            | Event::GoalCheck { .. }
            | Event::PushedBack { .. }
            | Event::Answer { .. } => false,
        }
    }

    /// When the recorded call or tool of this step started and how long
    /// it took, where the recording says.
    pub fn time(&self) -> Option<&Timing> {
        match self {
            Event::Call { time, .. } => time.as_ref(),
            Event::Dispatch { output, .. } => output.time.as_ref(),
            _ => None,
        }
    }

    pub fn phase(&self) -> Phase {
        match self {
            Event::Start => Phase::Start,
            Event::Call { .. } => Phase::Call,
            Event::Check { .. } => Phase::Check,
            Event::Dispatch { .. } => Phase::Dispatch,
            Event::Append { .. } => Phase::Append,
            Event::GoalCheck { .. } => Phase::GoalCheck,
            Event::Inserted { .. } => Phase::Inserted,
            Event::PushedBack { .. } => Phase::PushedBack,
            Event::Answer { .. } => Phase::Answer,
            Event::BudgetExhausted { .. } => Phase::BudgetExhausted,
            Event::Stopped { .. } => Phase::Stopped,
            Event::RecordingEnded => Phase::RecordingEnded,
            Event::Ended(_) => Phase::Ended,
            Event::Rejected { .. } => Phase::Rejected,
        }
    }
}

/// The time of the last timed step before `index`: what a pause before
/// the step at `index` is measured from.
pub fn time_before(steps: &[Step], index: usize) -> Option<&Timing> {
    steps[..index.min(steps.len())]
        .iter()
        .rev()
        .find_map(|s| s.event.time())
}

/// How a finished run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome<'a> {
    Answered(&'a str),
    BudgetExhausted,
    Stopped(&'a StopCause),
    RecordingEnded,
    Ended(&'a Ending),
    Rejected(&'a Rejection),
}

impl<'a> Outcome<'a> {
    /// The outcome an exit step stands for; `None` for a step that goes on.
    pub fn of(event: &'a Event) -> Option<Self> {
        Some(match event {
            Event::Answer { text } => Outcome::Answered(text),
            Event::BudgetExhausted { .. } => Outcome::BudgetExhausted,
            Event::Stopped(cause) => Outcome::Stopped(cause),
            Event::RecordingEnded => Outcome::RecordingEnded,
            Event::Ended(ending) => Outcome::Ended(ending),
            Event::Rejected { rejection } => Outcome::Rejected(rejection),
            _ => return None,
        })
    }

    /// The label used in `run` output: answered, budget_exhausted, ...
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Answered(_) => "answered",
            Outcome::BudgetExhausted => "budget_exhausted",
            Outcome::Stopped(_) => "stopped",
            Outcome::RecordingEnded => "recording_ended",
            Outcome::Ended(Ending {
                by: EndedBy::Agent, ..
            }) => "agent_finished",
            Outcome::Ended(Ending {
                by: EndedBy::User, ..
            }) => "interrupted",
            Outcome::Ended(Ending {
                by: EndedBy::Api, ..
            }) => "api_failed",
            Outcome::Rejected(_) => "rejected",
        }
    }
}

/// Rounds that sent the conversation back for another call: tool rounds,
/// paused turns and goal checks that pushed back. Answered, a run makes
/// one call more than it has rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rounds {
    pub tools: usize,
    pub paused: usize,
    pub pushed_back: usize,
}

impl Rounds {
    pub fn of(steps: &[Step]) -> Self {
        let mut rounds = Rounds::default();
        for step in steps {
            match &step.event {
                Event::Append { .. } => rounds.tools += 1,
                Event::Check {
                    verdict: Verdict::Continue,
                    ..
                } => rounds.paused += 1,
                Event::GoalCheck { passed: false, .. } | Event::PushedBack { .. } => {
                    rounds.pushed_back += 1
                }
                _ => {}
            }
        }
        rounds
    }

    pub fn total(self) -> usize {
        self.tools + self.paused + self.pushed_back
    }
}

/// A whole replay.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    pub config: Config,
    pub messages: Conversation,
    pub steps: Vec<Step>,
    /// Whether the configured mistake ever changed what the loop did; a run
    /// with one tool call per reply cannot show `split-results`, say.
    pub mistake_shown: bool,
}

impl Trace {
    /// The whole replay, seen through the same questions a partial one answers.
    pub fn view(&self) -> TraceView<'_> {
        TraceView {
            config: self.config,
            messages: self.messages.all(),
            steps: &self.steps,
            mistake_shown: self.mistake_shown,
        }
    }

    /// How the run ended; `None` while the last step is not an exit.
    pub fn outcome(&self) -> Option<Outcome<'_>> {
        self.view().outcome()
    }

    /// The answer text, if the run was answered: the loop's return value.
    pub fn result(&self) -> Option<&str> {
        self.view().result()
    }

    pub fn model_calls(&self) -> usize {
        self.view().model_calls()
    }

    /// The recorded usage of all the run's calls; `None` when the
    /// recording has none.
    pub fn recorded_usage(&self) -> Option<Usage> {
        self.steps.iter().rev().find_map(|s| match &s.event {
            Event::Call { usage_so_far, .. } => Some(*usage_so_far),
            _ => None,
        })?
    }

    pub fn tool_calls(&self) -> usize {
        self.view().tool_calls()
    }

    pub fn tools_run(&self) -> usize {
        self.view().tools_run()
    }

    pub fn rounds(&self) -> Rounds {
        Rounds::of(&self.steps)
    }
}

/// A replay as far as it has been computed, whole or not: the conversation
/// its steps have built and the steps themselves.
#[derive(Debug, Clone, Copy)]
pub struct TraceView<'a> {
    pub config: Config,
    pub messages: Messages<'a>,
    pub steps: &'a [Step],
    /// Whether the configured mistake has changed what the loop did so far.
    pub mistake_shown: bool,
}

impl<'a> TraceView<'a> {
    /// How the run ended; `None` while the last step is not an exit.
    pub fn outcome(&self) -> Option<Outcome<'a>> {
        Outcome::of(&self.steps.last()?.event)
    }

    /// The answer text, if the run was answered: the loop's return value.
    pub fn result(&self) -> Option<&'a str> {
        match self.outcome()? {
            Outcome::Answered(text) => Some(text),
            _ => None,
        }
    }

    pub fn model_calls(&self) -> usize {
        self.count(Phase::Call)
    }

    pub fn tool_calls(&self) -> usize {
        self.count(Phase::Dispatch)
    }

    /// The dispatched calls a tool ran: not those the harness could not
    /// run at all.
    pub fn tools_run(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(&s.event, Event::Dispatch { output, .. } if !output.not_run))
            .count()
    }

    fn count(&self, phase: Phase) -> usize {
        self.steps
            .iter()
            .filter(|s| s.event.phase() == phase)
            .count()
    }
}
