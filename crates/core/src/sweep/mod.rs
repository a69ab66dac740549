//! `loopstep sweep`: how many turns an agent needs, over a corpus of runs.
//! Every run in every file given (folders read through) is replayed once,
//! in parallel, one file per worker at a time, so memory is bounded by
//! the largest files, not the corpus; then every budget of a range is read
//! off those replays ([`curve`]). A file that cannot be read is listed with
//! its reason, never fatal; only regular files are opened, so that a FIFO
//! or a device in a folder is listed rather than waited on or read for
//! ever.

mod curve;
mod report;
pub mod table;

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use curve::{Curve, Fate, Point, Quantiles, Range, RunEnd, Spread, to_its_end};
pub use report::{bar, csv, header, json, text};

use crate::engine::Config;
use crate::narrate::Say;
use crate::transcript::{Opening, Transcript, is_one_recording, open_in, shown_path};

/// A file left out of the sweep, and why: `file` as it is (JSON escapes
/// it), `reason` naming it made safe to print on one line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unreadable {
    pub file: String,
    pub reason: String,
}

/// What a sweep read: every run, replayed once, and the files it could not.
#[derive(Debug, Default)]
pub struct Swept {
    pub runs: Vec<RunEnd>,
    pub unreadable: Vec<Unreadable>,
}

/// Every file under `paths`, folders read through, each folder's entries
/// in name order; a path that cannot be read is unreadable.
pub fn files(paths: &[PathBuf], say: Say) -> (Vec<PathBuf>, Vec<Unreadable>) {
    let mut files = Vec::new();
    let mut unreadable = Vec::new();
    let mut pending: Vec<PathBuf> = paths.iter().rev().cloned().collect();
    while let Some(path) = pending.pop() {
        if !path.is_dir() || is_one_recording(&path) {
            files.push(path);
            continue;
        }
        match std::fs::read_dir(&path) {
            Ok(entries) => {
                // A link to a folder is not followed inside one: a link
                // back up would read the corpus again and again.
                let mut inside: Vec<PathBuf> = entries
                    .flatten()
                    .filter(|e| !(e.file_type().is_ok_and(|t| t.is_symlink()) && e.path().is_dir()))
                    .map(|e| e.path())
                    .collect();
                inside.sort();
                pending.extend(inside.into_iter().rev());
            }
            Err(error) => unreadable.push(Unreadable {
                reason: say.sweep_unreadable_folder(&shown_path(&path), &error.to_string()),
                file: path.display().to_string(),
            }),
        }
    }
    (files, unreadable)
}

/// How a sweep replays: the loop's settings for a run, the most calls a
/// run whose model never stops asking is given (the largest budget swept,
/// else its own), the threads, and what to do after each file (a progress
/// bar's tick).
pub struct How<'a> {
    pub config: &'a (dyn Fn(&Transcript) -> Config + Sync),
    pub cap: Option<NonZeroU32>,
    pub jobs: usize,
    /// Bytes beyond which a file is left out rather than read.
    pub max_size: u64,
    pub say: Say,
    pub tick: &'a (dyn Fn() + Sync),
}

/// Reads and replays every file, `how.jobs` at a time, in the files' order.
pub fn sweep(files: &[PathBuf], how: &How) -> anyhow::Result<Swept> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(how.jobs)
        .build()?;
    let read: Vec<Result<Vec<RunEnd>, Unreadable>> =
        pool.install(|| files.par_iter().map(|file| sweep_file(file, how)).collect());
    let mut swept = Swept::default();
    for file in read {
        match file {
            Ok(runs) => swept.runs.extend(runs),
            Err(unreadable) => swept.unreadable.push(unreadable),
        }
    }
    Ok(swept)
}

fn sweep_file(file: &Path, how: &How) -> Result<Vec<RunEnd>, Unreadable> {
    let shown = file.display().to_string();
    let opening = Opening {
        max_size: how.max_size,
        files_only: true,
        ..Opening::default()
    };
    let opened = open_in(&shown, &opening, how.say.lang);
    (how.tick)();
    let source = opened.map_err(|error| Unreadable {
        file: shown.clone(),
        reason: how.say.load_error(&error),
    })?;
    Ok(source
        .runs
        .iter()
        .map(|run| {
            RunEnd::of(
                &shown,
                run,
                (how.config)(run),
                how.cap.unwrap_or(run.max_turns),
            )
        })
        .collect())
}
