//! The agent loop, sans I/O: no files, clocks or terminal. Input is a model,
//! a tool box, a question and a budget; output is a [`Trace`] of steps, the
//! same one every time for the same input.

mod check;
mod find;
mod mistake;
mod model;
mod replay;
mod run;
mod tools;
mod trace;

// The vocabulary the loop speaks, also at engine's paths for its users.
pub use crate::vocab::{
    Block, Conversation, History, LONG_MILLIS, Log, Message, Messages, Rejection, Reply,
    RequestRule, Role, Stamp, StopReason, Timing, ToolCall, ToolDef, Usage,
};
pub use check::{CheckPolicy, StopCause, Verdict, check};
pub use find::Query;
pub use mistake::{Budget, Mistake, Policy, Results, SAFETY_CAP, SaveReply};
pub use model::{CallError, Model, ScriptedModel};
pub use replay::Replay;
pub use run::{EndedBy, Ending, Goal, Insertion, PushBack, Run};
pub use tools::{
    Page, Recorded, ReplayTools, ToolBox, ToolEnv, ToolFailure, ToolOutput, ToolSource, ToolWords,
    ToolsOf,
};
pub use trace::{
    Config, Event, MAX_TURNS, Outcome, Phase, RequestSize, Rounds, Step, ToolErrors, Trace,
    TraceView, time_before,
};
