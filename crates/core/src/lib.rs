//! loopstep's core: everything below the screen and the command line, with
//! no terminal and no network. The modules, from the bottom up
//! (ARCHITECTURE.md draws how a run flows through them):
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

pub mod compare;
pub mod dialect;
pub mod engine;
pub mod lang;
pub mod lesson;
pub mod narrate;
pub mod prices;
pub mod redact;
pub mod report;
pub mod sweep;
pub mod text;
pub mod transcript;
pub mod vocab;
