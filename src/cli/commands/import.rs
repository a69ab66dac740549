//! `loopstep import`: a recording as a native transcript.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::runs::*;
use crate::cli::settings::Globals;
use crate::dialect::Dialect;
use crate::narrate::Say;
use crate::report;
use crate::write_file::OutputFile;

#[derive(Debug, Args)]
pub struct Import {
    /// The recording to read.
    pub file: String,
    /// Where to write the transcript [default: standard output]. Never
    /// the recording itself; an existing file only with --force.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long, requires = "output")]
    pub force: bool,
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    #[command(flatten)]
    pub redact: RedactFlag,
}

impl Import {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let lang = globals.lang;
        let Import {
            file,
            output,
            force,
            from,
            redact,
        } = self;
        // `-o -` is standard output, as for export.
        let output = output.filter(|out| out.as_os_str() != "-");
        let output = output
            .map(|out| OutputFile::check(Path::new(&file), &out, force))
            .transpose()?;
        let source = open_redacted(&file, &globals.opening(from), lang, redact)?;
        // A built-in run is written as shipped, its texts in both
        // languages, so a copy to start from reads as the original in each.
        let native = match crate::transcript::builtin_text(&file) {
            Some(text) => serde_json::from_str(text).map_err(anyhow::Error::from)?,
            None => serde_json::to_value(crate::transcript::shared::native(&source.runs))
                .map_err(anyhow::Error::from)?,
        };
        match &output {
            Some(output) => {
                tell(report::summary(&file, &source, lang).trim_end_matches('\n'));
                write_file(Say::new(lang, Dialect::default()), output, |out| {
                    crate::text::write_inert_json(&mut *out, &native)?;
                    writeln!(out)
                })?;
            }
            None => write_json(&native)?,
        }
        Ok(())
    }
}
