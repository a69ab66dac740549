//! `loopstep export`: a run as a handout (Markdown, HTML, asciicast).

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, ValueEnum};

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::runs::*;
use crate::cli::settings::Globals;
use crate::dialect::Dialect;
use crate::narrate::{Refusal, Say, Trouble};
use crate::transcript::{BUILTIN_NAMES, ensure_exists};
use crate::tui;
use crate::tui::handout::{self, CastError, Handout, ScreenSize};
use crate::write_file::OutputFile;

#[derive(Debug, Args)]
pub struct Export {
    /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
    pub run: String,
    #[command(flatten)]
    pub loop_flags: LoopFlags,
    /// Where to write it; `-` is standard output. Never the recording
    /// itself; an existing file only with --force.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// What to write [default: from OUT's extension: .html or .htm is
    /// html, .cast is cast, anything else (and `-`) markdown].
    #[arg(long, value_enum)]
    pub format: Option<HandoutFormat>,
    /// The recording's terminal, for the cast format [default: 80x24].
    #[arg(long, value_name = "COLSxROWS", value_parser = ScreenSize::parse)]
    pub size: Option<ScreenSize>,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
    /// Read the file as this format instead of recognising it.
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    /// Keep API keys, tokens, passwords and private keys as recorded.
    /// Without it they are replaced by a marker of their kind
    /// ([redacted: openai key]), since handouts get shared.
    #[arg(long)]
    pub no_redact: bool,
    /// Name each step as a pattern names it too: `react` adds each step's
    /// Thought, Action, Observation or Finish.
    #[arg(long, value_enum)]
    pub lens: Option<Lens>,
    /// Write only the Nth run of the file, counting from 1 [default: every
    /// run it holds, one after another].
    #[arg(long = "run", value_name = "N")]
    pub only: Option<NonZeroUsize>,
    /// With a lesson: the teacher's notes too, under their steps.
    #[arg(long)]
    pub notes: bool,
}

impl Export {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let lang = globals.lang;
        let Export {
            run,
            loop_flags,
            output,
            format,
            size,
            force,
            from,
            no_redact,
            lens,
            only,
            notes,
        } = self;
        let format = format.unwrap_or_else(|| HandoutFormat::of_path(&output));
        if size.is_some() && format != HandoutFormat::Cast {
            return Err(Failure::Refused(Refusal::SizeWithoutCast {
                format: format
                    .to_possible_value()
                    .map(|v| v.get_name().to_owned())
                    .unwrap_or_default(),
            }));
        }
        let file = match output.as_os_str() == "-" {
            true => None,
            false => Some(OutputFile::check(Path::new(&run), &output, force)?),
        };
        if crate::lesson::is_lesson(&run) {
            let settings = tui::Settings {
                react: lens == Some(Lens::React),
                ..loop_flags.settings(lang, ScreenFlags::default())
            };
            let handout = lesson_handout(&run, settings, format, notes)?;
            let say = Say::new(lang, Dialect::default());
            return match file {
                None => Ok(emit(&handout)?),
                Some(file) => Ok(write_file(say, &file, |out| {
                    out.write_all(handout.as_bytes())
                })?),
            };
        }
        if notes {
            return Err(Failure::Refused(Refusal::NotesWithoutLesson));
        }
        ensure_exists(&run)?;
        let (runs, index) = screen_runs(&run, &globals.opening(from), !no_redact)?;
        // A built-in is one run; a file's runs follow the built-ins.
        let of = match index < BUILTIN_NAMES.len() {
            true => 1,
            false => runs.len() - index,
        };
        let (from, to) = match only {
            None => (1, of),
            Some(n) if n.get() <= of => (n.get(), n.get()),
            Some(n) => {
                return Err(Failure::Refused(Refusal::NoSuchRun {
                    asked: n.get(),
                    runs: of,
                }));
            }
        };
        loop_flags.dialect_for(runs[index].get(lang))?;
        let settings = tui::Settings {
            react: lens == Some(Lens::React),
            ..loop_flags.settings(lang, ScreenFlags::default())
        };
        let mut apps: Vec<tui::App> = (index + from - 1..index + to)
            .map(|i| tui::App::new(&runs, i, settings))
            .collect();
        let handout = match format {
            HandoutFormat::Markdown => handout::markdown(&Handout::all(&mut apps)),
            HandoutFormat::Html => handout::html(&Handout::all(&mut apps)),
            HandoutFormat::Cast => match handout::cast(&mut apps, size.unwrap_or_default()) {
                Ok(cast) => cast,
                Err(CastError::TooLong { most, minutes }) => {
                    return Err(Failure::Refused(Refusal::CastTooLong { most, minutes }));
                }
                Err(CastError::Draw(error)) => Err(error).context(Trouble::DrawRecording)?,
            },
        };
        let say = Say::new(lang, Dialect::default());
        if of > 1 {
            tell(&say.exported_runs((from, to), of));
        }
        match file {
            None => emit(&handout)?,
            Some(file) => {
                write_file(say, &file, |out| out.write_all(handout.as_bytes()))?;
            }
        }
        Ok(())
    }
}

/// A handout of a whole lesson: every scene from its start, its card as
/// its description, the lesson's remarks in, and its notes with `notes`.
fn lesson_handout(
    path: &str,
    settings: tui::Settings,
    format: HandoutFormat,
    notes: bool,
) -> Result<String, Failure> {
    let lesson = crate::lesson::load(Path::new(path))?;
    let mut apps = tui::present::scene_apps(&lesson, settings);
    let mut handouts = Handout::all(&mut apps);
    for ((handout, scene), app) in handouts.iter_mut().zip(&lesson.scenes).zip(&apps) {
        let lang = app.say().lang;
        if let Some(card) = &scene.card {
            handout.description = crate::text::sanitize(card.get(lang));
        }
        for (step, text) in scene.notes.iter().filter(|_| notes) {
            if let Some(step) = handout.steps.get_mut(*step) {
                step.notes = Some(crate::text::sanitize(text.get(lang)));
            }
        }
    }
    Ok(match format {
        HandoutFormat::Markdown => handout::markdown(&handouts),
        HandoutFormat::Html => handout::html(&handouts),
        HandoutFormat::Cast => {
            handout::cast(&mut apps, ScreenSize::default()).map_err(|e| match e {
                CastError::TooLong { most, minutes } => {
                    Failure::Refused(Refusal::CastTooLong { most, minutes })
                }
                CastError::Draw(error) => Failure::Other(anyhow::Error::new(error)),
            })?
        }
    })
}
