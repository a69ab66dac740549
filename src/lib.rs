//! loopstep replays recorded LLM agent runs through a real, generic agent
//! loop, one phase at a time: call, check, dispatch, append.
//!
//! - [`engine`]: the loop as a pure step machine (no I/O), the scripted model
//!   and the replay tools.
//! - [`transcript`]: the native JSON format, the built-in runs, validation.
//! - [`report`]: headless text and JSON output for `loopstep run`.
//! - [`cli`]: the command line.
//! - [`text`]: making untrusted transcript text safe for a terminal.
//! - [`redact`]: API keys, tokens and passwords replaced by a marker of
//!   their kind, in whole runs at load.
//! - [`tui`]: the teaching screen.
//! - [`dialect`]: what each model API defines: wire shapes, stop reasons,
//!   request rules, the names it uses.

pub mod cli;
pub mod compare;
pub mod dialect;
pub mod engine;
pub mod narrate;
pub mod prices;
pub mod redact;
pub mod report;
pub mod text;
pub mod transcript;
pub mod tui;
