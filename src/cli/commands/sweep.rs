//! `loopstep sweep` and `loopstep table`: over a corpus of runs.

use crate::narrate::TurnsProblem;
use std::io::{IsTerminal, Write};
use std::num::NonZeroU32;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::settings::Globals;
use crate::dialect::Dialect;
use crate::engine::{CheckPolicy, Config, MAX_TURNS};
use crate::narrate::Say;
use crate::sweep::{self, Curve, How, Range, table};
use crate::text::sanitize;
use crate::transcript::open_in;
use crate::write_file::OutputFile;

#[derive(Debug, Args)]
pub struct Sweep {
    /// Files and folders of runs, in any format loopstep reads; folders
    /// are read through.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The budgets to sweep: `A..B`, or one `N` [default: 1 up to the
    /// largest any run needs].
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub max_turns: Option<(u32, u32)>,
    /// How the loop reads the stop reason.
    #[arg(long, value_enum, default_value_t = Check::Production)]
    pub check: Check,
    #[arg(long, value_enum, default_value_t = SweepFormat::Text)]
    pub format: SweepFormat,
    /// Replays at once [default: the cores there are].
    #[arg(long, value_name = "N")]
    pub jobs: Option<NonZeroU32>,
    /// Open the curve as a screen: Enter on a budget lists the runs it
    /// cuts, Enter on a run opens it under that budget.
    #[arg(long, conflicts_with = "format")]
    pub play: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SweepFormat {
    /// A table and a curve, in the screen's language.
    Text,
    /// Every budget, what the runs need, each run's ending.
    Json,
    /// One row per budget.
    Csv,
}

/// `A..B` (inclusive) or `N`, each at least 1.
fn parse_range(text: &str) -> Result<(u32, u32), TurnsProblem> {
    let bound = |part: &str| parse_max_turns(part.trim()).map(NonZeroU32::get);
    let (from, to) = match text.split_once("..") {
        Some((from, to)) => (bound(from)?, bound(to.trim_start_matches('='))?),
        None => (bound(text)?, bound(text)?),
    };
    if from > to {
        return Err(TurnsProblem::GoesDown(text.to_owned()));
    }
    Ok((from, to))
}

impl Sweep {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let say = Say::new(globals.lang, Dialect::default());
        let (files, unreadable) = sweep::files(&self.paths, say);
        let check = match self.check {
            Check::Lesson => CheckPolicy::Lesson,
            Check::Production => CheckPolicy::Production,
        };
        let config = move |run: &crate::transcript::Transcript| Config {
            check,
            ..run.default_config()
        };
        let cap = self
            .max_turns
            .and_then(|(_, to)| NonZeroU32::new(to.min(MAX_TURNS)));
        let jobs = self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n.get() as usize,
        );
        let progress = progress_bar(files.len() as u64);
        let how = How {
            config: &config,
            cap,
            jobs,
            max_size: globals.max_size,
            say,
            tick: &|| progress.inc(1),
        };
        let mut swept = sweep::sweep(&files, &how)?;
        progress.finish_and_clear();
        swept.unreadable.splice(0..0, unreadable);
        let range = match self.max_turns {
            Some((from, to)) => Range { from, to },
            None => Range::needed(&swept.runs),
        };
        let curve = Curve::of(&swept.runs, range);
        if self.play {
            let settings = crate::tui::Settings {
                lang: globals.lang,
                ..crate::tui::Settings::default()
            };
            let settings = crate::tui::Settings { check, ..settings };
            crate::tui::curve::play_curve(&curve, &swept.runs, settings, globals.max_size)?;
            return Ok(());
        }
        match self.format {
            SweepFormat::Text => emit(&sweep::text(&curve, &swept, files.len(), say))?,
            SweepFormat::Json => write_json(&sweep::json(&curve, &swept, files.len()))?,
            SweepFormat::Csv => emit(&sweep::csv(&curve))?,
        }
        Ok(())
    }
}

/// A bar on standard error while the files are read, when it is a
/// terminal; nothing otherwise.
fn progress_bar(files: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(files);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files · {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// One run's rows of the step table, made as they are taken.
type Rows<'a> = &'a mut dyn Iterator<Item = Vec<serde_json::Value>>;

#[derive(Debug, Args)]
pub struct Table {
    /// Files and folders of runs; folders are read through.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Where to write: `.csv`, `.jsonl` (JSON Lines) or `.parquet`, by
    /// its extension; `-` is CSV on standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

impl Table {
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<(), Failure> {
        let say = Say::new(globals.lang, Dialect::default());
        let extension = self.output.extension().and_then(|e| e.to_str());
        let extension = extension.map(str::to_ascii_lowercase);
        let (files, unreadable) = sweep::files(&self.paths, say);
        // Among many files, only regular ones are opened.
        let how = crate::transcript::Opening {
            files_only: true,
            ..globals.opening(None)
        };
        // Every run's rows, a file at a time, handed to `take`.
        let each_run = |take: &mut dyn FnMut(Rows) -> std::io::Result<()>| {
            for file in &files {
                let shown = file.display().to_string();
                // A file that cannot be read is told, and left out.
                let source = match open_in(&shown, &how, globals.lang) {
                    Ok(source) => source,
                    Err(error) => {
                        tell(&say.table_left_out(&sanitize(&say.load_error(&error))));
                        continue;
                    }
                };
                for run in &source.runs {
                    let trace = sweep::to_its_end(run, run.default_config(), run.max_turns);
                    take(&mut table::rows(&shown, run, &trace))?;
                }
            }
            Ok::<(), std::io::Error>(())
        };
        let write = |out: &mut dyn Write| -> std::io::Result<()> {
            match extension.as_deref() {
                #[cfg(feature = "parquet")]
                Some("parquet") => {
                    let mut parquet = table::ParquetRows::new().map_err(std::io::Error::other)?;
                    each_run(&mut |rows| parquet.push(rows).map_err(std::io::Error::other))?;
                    let bytes = parquet.finish().map_err(std::io::Error::other)?;
                    out.write_all(&bytes)
                }
                other => {
                    let shape = match other {
                        Some("jsonl" | "ndjson") => table::Shape::JsonLines,
                        _ => table::Shape::Csv,
                    };
                    let mut out = std::io::BufWriter::new(out);
                    if shape == table::Shape::Csv {
                        writeln!(out, "{}", table::csv_header())?;
                    }
                    each_run(&mut |rows| table::write_rows(&mut out, shape, rows))?;
                    out.flush()
                }
            }
        };
        for file in &unreadable {
            tell(&say.table_left_out(&sanitize(&file.reason)));
        }
        if self.output.as_os_str() == "-" {
            let stdout = std::io::stdout();
            if stdout.is_terminal() {
                // Read on a screen: the texts the runs hold are made safe.
                let mut rows = Vec::new();
                write(&mut rows).map_err(anyhow::Error::from)?;
                emit(&sanitize(&String::from_utf8_lossy(&rows)))?;
            } else {
                to_stdout(write)?;
            }
            return Ok(());
        }
        // Never over one of the recordings read.
        let mut file = None;
        for path in &self.paths {
            file = Some(OutputFile::check(path, &self.output, self.force)?);
        }
        let file = file.expect("clap requires a path");
        write_file(say, &file, |out| write(out))?;
        Ok(())
    }
}
