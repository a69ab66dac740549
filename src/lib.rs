//! loopstep replays recorded LLM agent runs through a real, generic agent
//! loop, one phase at a time: call, check, dispatch, append. The modules,
//! from the bottom up (ARCHITECTURE.md draws how a run flows through them):
//!
//! - [`lang`]: the two languages, and a text in both.
//! - [`text`]: making untrusted transcript text safe for a terminal.
//! - [`vocab`]: what the loop speaks of: messages, replies, stop reasons,
//!   the shared history, request rules, times.
//! - [`dialect`]: what each model API defines: wire shapes, stop reasons,
//!   request rules, the names it uses.
//! - [`engine`]: the loop as a pure step machine (no I/O), the scripted model
//!   and the replay tools.
//! - [`transcript`]: the native JSON format, the built-in runs, opening and
//!   importing recordings, validation.
//! - [`redact`]: API keys, tokens and passwords replaced by a marker of
//!   their kind, in whole runs at load.
//! - [`prices`]: a price list, for what recorded calls cost.
//! - [`narrate`]: every sentence shown, in English and Chinese.
//! - [`report`]: headless text and JSON output for `loopstep run`.
//! - [`compare`]: where two replays part, for `loopstep compare`.
//! - [`sweep`]: a corpus of runs replayed once each, every budget read off
//!   them, for `loopstep sweep` and `loopstep table`.
//! - `record`: the recording proxy of `loopstep record` (the `record`
//!   feature, on by default).
//! - [`tui`]: the teaching screen, the compare screen and the handouts.
//! - [`cli`]: the command line.

pub mod cli;
pub mod compare;
pub mod dialect;
pub mod engine;
pub mod lang;
pub mod narrate;
pub mod prices;
#[cfg(feature = "record")]
pub mod record;
pub mod redact;
pub mod report;
pub mod sweep;
pub mod text;
pub mod transcript;
pub mod tui;
pub mod vocab;
