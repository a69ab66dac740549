//! The agent loop, sans I/O: no files, clocks or terminal. Input is a model,
//! a tool box, a question and a budget; output is a [`Trace`] of steps, the
//! same one every time for the same input.

mod check;
mod conversation;
mod find;
mod message;
mod mistake;
mod model;
mod replay;
mod run;
mod timing;
mod tools;
mod trace;

pub use check::{CheckPolicy, StopCause, StopReason, Verdict, check};
pub use conversation::{Conversation, History, Log, Messages};
pub use find::Query;
pub use message::{Block, Message, Reply, Role, ToolCall, ToolDef, Usage};
pub use mistake::{Budget, Mistake, Policy, Results, SAFETY_CAP, SaveReply};
pub use model::{CallError, Model, Rejection, RequestRule, ScriptedModel};
pub use replay::Replay;
pub use run::{EndedBy, Ending, Goal, Insertion, Run};
pub use timing::{LONG_MILLIS, Stamp, Timing};
pub use tools::{
    Page, Recorded, ReplayTools, ToolBox, ToolEnv, ToolFailure, ToolOutput, ToolWords,
};
pub use trace::{
    Config, Event, MAX_TURNS, Outcome, Phase, RequestSize, Rounds, Step, ToolErrors, Trace,
    TraceView, time_before,
};
