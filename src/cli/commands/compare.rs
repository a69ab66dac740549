//! `loopstep compare`: two runs, or one under two settings, side by side.

use std::io::IsTerminal;

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::runs::*;
use crate::cli::settings::Globals;
use crate::compare;
use crate::transcript::ensure_exists;
use crate::tui;
use crate::tui::theme::Theme;

#[derive(Debug, Args)]
pub struct Compare {
    /// The left run: a built-in run's name, or a transcript or recording's path.
    pub left: String,
    /// The right run: the same as the left, or another.
    pub right: String,
    #[command(flatten)]
    pub loop_flags: LoopFlags,
    #[command(flatten)]
    pub sides: SideFlags,
    /// Print instead of opening the screen: text, or JSON with the
    /// first divergence [default: the screen, or text when standard
    /// output is no terminal].
    #[arg(long, value_enum)]
    pub format: Option<ReportFormat>,
    /// Read the files as this format instead of recognising it.
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    /// Colours: dark, light for a bright room, high-contrast for a
    /// projector (`t` cycles). NO_COLOR set in the environment draws
    /// without colour whatever the theme.
    #[arg(long, value_enum, default_value_t)]
    pub theme: Theme,
    #[command(flatten)]
    pub redact: RedactFlag,
}

impl Compare {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let lang = globals.lang;
        let Compare {
            left,
            right,
            loop_flags,
            sides,
            format,
            from,
            theme,
            redact,
        } = self;
        ensure_exists(&left)?;
        ensure_exists(&right)?;
        let [left_flags, right_flags] = sides.split(&loop_flags);
        let format = format.or_else(|| {
            let screen = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
            (!screen).then_some(ReportFormat::Text)
        });
        let how = globals.opening(from);
        let Some(format) = format else {
            let (runs, [left_index, right_index]) =
                compared_runs([&left, &right], &how, redact.redact)?;
            left_flags.dialect_for(runs[left_index].get(lang))?;
            right_flags.dialect_for(runs[right_index].get(lang))?;
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
            return Ok(());
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
            ReportFormat::Text => emit(&compare::text(&left, &right, lang))?,
            ReportFormat::Json => write_json(&compare::json(&left, &right))?,
        }
        Ok(())
    }
}
