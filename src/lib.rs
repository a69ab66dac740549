//! loopstep replays recorded LLM agent runs through a real, generic agent
//! loop, one phase at a time: call, check, dispatch, append. This crate is
//! the screen and the command line; the layers below are crates of their
//! own, so that the compiler keeps them apart (ARCHITECTURE.md):
//!
//! - `loopstep-core`, re-exported here module by module: the loop, the
//!   APIs, recordings and their import, redaction, prices, every word
//!   shown, the reports, compare and sweep. No terminal, no network.
//! - `loopstep-record` ([`record`], the `record` feature, on by default):
//!   the recording proxy of `loopstep record`, with its network stack.
//! - [`tui`]: the teaching screen, the compare screen and the handouts.
//! - [`cli`]: the command line.

pub use loopstep_core::{
    compare, dialect, engine, lang, lesson, narrate, prices, redact, report, sweep, text,
    transcript, vocab,
};
#[cfg(feature = "record")]
pub use loopstep_record as record;

pub mod cli;
pub mod tui;
pub mod write_file;
