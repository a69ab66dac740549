//! The command line: subcommands, flags, and what each exit code means.

mod arguments;
mod clap_error;
mod commands;
mod execute;
mod failure;
mod implied;
mod output;
mod runs;
mod settings;

pub use arguments::*;
pub use clap_error::{lang_of_args, render as render_argument_error};
pub use commands::{Compare, Export, Import, Play, Run, Validate};
pub use execute::execute;
pub use failure::Failure;
pub use implied::with_play_implied;
pub use output::{say_err, say_out, tell};
pub use settings::Globals;
