//! Each command carried out.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;

use super::arguments::*;
use super::failure::Failure;
use super::output::*;
use super::runs::*;
use super::settings::Globals;
use super::write_file::OutputFile;
use crate::compare;
use crate::engine::Trace;
use crate::narrate::Lang;
use crate::report;
use crate::text::sanitize;
use crate::transcript::{BUILTIN_NAMES, Opening, Source, builtin_in, ensure_exists, open_both};
use crate::tui;
use crate::tui::handout::{self, Handout};

/// Runs a command. Errors carry their exit code.
pub fn execute(command: Command, globals: Globals) -> Result<ExitCode, Failure> {
    let lang = globals.lang;
    // A price list given is read whatever the command: one that cannot be
    // read is bad input even where no cost is shown.
    let prices = globals.prices()?;
    match command {
        Command::Play {
            run,
            loop_flags,
            from,
            screen_flags,
            redact,
        } => {
            // A misspelt run fails here, before the screen takes the terminal.
            ensure_exists(&run)?;
            let how = globals.opening(from);
            let name = run.clone();
            let settings = tui::Settings {
                redacted: redact.redact,
                ..loop_flags.settings(lang, screen_flags)
            };
            tui::play(&run, (settings, prices), move |progress| {
                let how = Opening {
                    progress: Some(progress),
                    ..how
                };
                screen_runs(&name, &how, redact.redact)
            })??;
        }
        Command::Run {
            run,
            loop_flags,
            format,
            from,
            redact,
        } => {
            let source = open_redacted(&run, &globals.opening(from), lang, redact)?;
            let traces: Vec<Trace> = source
                .runs
                .iter()
                .map(|t| t.replay_in(loop_flags.config(t), lang))
                .collect();
            let prices = prices.as_ref();
            // A model the list does not name would just show no cost: say so.
            if let (Some(list), Some(path)) = (prices, &globals.prices) {
                let mut unpriced: Vec<&str> = source
                    .runs
                    .iter()
                    .map(|t| t.model.as_str())
                    .filter(|model| !list.knows(model))
                    .collect();
                unpriced.dedup();
                for model in unpriced {
                    eprintln!(
                        "loopstep: {} has no price for the model {}; its calls show no cost",
                        path.display(),
                        sanitize(model)
                    );
                }
            }
            match format {
                Format::Text => emit(&report::text(&source, &traces, (lang, prices)))?,
                Format::Json => write_json(&report::json(&source, &traces, prices))?,
            }
        }
        Command::Compare {
            left,
            right,
            loop_flags,
            sides,
            format,
            from,
            theme,
            redact,
        } => {
            ensure_exists(&left)?;
            ensure_exists(&right)?;
            let [left_flags, right_flags] = sides.split(&loop_flags);
            let format = format.or_else(|| {
                let screen = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
                (!screen).then_some(Format::Text)
            });
            let how = globals.opening(from);
            let Some(format) = format else {
                let (runs, [left_index, right_index]) =
                    compared_runs([&left, &right], &how, redact.redact)?;
                let screen = ScreenFlags {
                    theme,
                    ..ScreenFlags::default()
                };
                let settings = [
                    left_flags.settings(lang, screen),
                    right_flags.settings(lang, screen),
                ]
                .map(|settings| tui::Settings {
                    redacted: redact.redact,
                    ..settings
                });
                tui::compare::play(
                    &runs,
                    [(left_index, settings[0]), (right_index, settings[1])],
                )?;
                return Ok(ExitCode::SUCCESS);
            };
            let (left_source, right_source) = (
                open_redacted(&left, &how, lang, redact)?,
                open_redacted(&right, &how, lang, redact)?,
            );
            let (left, right) = (
                compared(&left_source, &left_flags, lang)?,
                compared(&right_source, &right_flags, lang)?,
            );
            match format {
                Format::Text => emit(&compare::text(&left, &right, lang))?,
                Format::Json => write_json(&compare::json(&left, &right))?,
            }
        }
        Command::Export {
            run,
            loop_flags,
            output,
            format,
            size,
            force,
            from,
            no_redact,
        } => {
            let format = format.unwrap_or_else(|| HandoutFormat::of_path(&output));
            if size.is_some() && format != HandoutFormat::Cast {
                return Err(Failure::Refused(format!(
                    "--size sets the recording's terminal, for the cast format (--format cast, \
                     or OUT ending in .cast); this export is {}",
                    format
                        .to_possible_value()
                        .map(|v| v.get_name().to_owned())
                        .unwrap_or_default()
                )));
            }
            let file = match output.as_os_str() == "-" {
                true => None,
                false => Some(OutputFile::check(Path::new(&run), &output, force)?),
            };
            ensure_exists(&run)?;
            let (runs, index) = screen_runs(&run, &globals.opening(from), !no_redact)?;
            let settings = loop_flags.settings(lang, ScreenFlags::default());
            let mut app = tui::App::new(&runs, index, settings);
            let handout = match format {
                HandoutFormat::Markdown => handout::markdown(&Handout::of(&mut app)),
                HandoutFormat::Html => handout::html(&Handout::of(&mut app)),
                HandoutFormat::Cast => handout::cast(&mut app, size.unwrap_or_default())
                    .context("could not draw the recording")?,
            };
            match file {
                None => emit(&handout)?,
                Some(file) => {
                    write_file(&file, |out| out.write_all(handout.as_bytes()))?;
                }
            }
        }
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
        Command::Validate { path, from } => {
            // Read once (it may be a pipe); a transcript with texts in both
            // languages must hold in both.
            let (source, zh) = open_both(&path, &globals.opening(from))?;
            let source = match (lang, zh) {
                (Lang::Zh, Some(zh)) => Source { runs: zh, ..source },
                _ => source,
            };
            emit(&report::summary(&path, &source, lang))?;
        }
        Command::Import {
            file,
            output,
            force,
            from,
            redact,
        } => {
            // `-o -` is standard output, as for export.
            let output = output.filter(|out| out.as_os_str() != "-");
            let output = output
                .map(|out| OutputFile::check(Path::new(&file), &out, force))
                .transpose()?;
            let source = open_redacted(&file, &globals.opening(from), lang, redact)?;
            let native = crate::transcript::shared::native(&source.runs);
            match &output {
                Some(output) => {
                    eprint!("{}", report::summary(&file, &source, lang));
                    write_file(output, |out| {
                        crate::text::write_inert_json(&mut *out, &native)?;
                        writeln!(out)
                    })?;
                }
                None => write_json(&native)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
