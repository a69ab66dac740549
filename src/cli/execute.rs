//! Each command carried out: the small ones here, the others in
//! `commands/`, a file each.

use std::process::ExitCode;

use anyhow::Context;

use super::arguments::*;
use super::failure::Failure;
use super::output::*;
use super::settings::Globals;
use crate::transcript::{BUILTIN_NAMES, builtin_in};

/// Runs a command. Errors carry their exit code.
pub fn execute(command: Command, globals: Globals) -> Result<ExitCode, Failure> {
    let lang = globals.lang;
    // A price list given is read whatever the command: one that cannot be
    // read is bad input even where no cost is shown.
    let prices = globals.prices()?;
    match command {
        Command::Play(play) => play.execute(&globals, prices)?,
        Command::Run(run) => run.execute(&globals, prices)?,
        Command::Compare(compare) => compare.execute(&globals)?,
        Command::Export(export) => export.execute(&globals)?,
        Command::Validate(validate) => validate.execute(&globals)?,
        Command::Present(present) => present.execute(&globals)?,
        #[cfg(unix)]
        Command::Notes(notes) => notes.execute(&globals)?,
        Command::Import(import) => import.execute(&globals)?,
        Command::Sweep(sweep) => sweep.execute(&globals)?,
        Command::Table(table) => table.execute(&globals)?,
        #[cfg(feature = "record")]
        Command::Record(record) => return record.execute(&globals),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "loopstep", &mut script);
            emit(&String::from_utf8_lossy(&script))?;
        }
        Command::List => {
            let mut listing = String::new();
            for name in BUILTIN_NAMES {
                let transcript = builtin_in(name, lang).context("a built-in run is missing")??;
                listing.push_str(&format!("{name:<24} {}\n", transcript.description));
            }
            emit(&listing)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
