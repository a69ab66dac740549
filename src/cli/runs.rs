//! The runs a command opens: a built-in or a file, the built-ins beside
//! them for the screen, their secrets replaced when asked.

use super::arguments::*;
use super::failure::Failure;
use crate::compare;
use crate::narrate::{Lang, Refusal};
use crate::redact;
use std::time::Duration;

use crate::transcript::{
    BUILTIN_NAMES, Early, LoadError, Localized, Opening, Source, Transcript, open_in,
};

/// The runs the screen can switch between, in both languages: the
/// built-ins, then the runs of the opened file if it is not one of them;
/// and the index of the one to open. With `redact`, secrets in them are
/// replaced as they load, so that nothing drawn or written holds one.
pub(super) fn screen_runs(
    name_or_path: &str,
    how: &Opening,
    redact: bool,
) -> Result<(Vec<Localized>, usize), Failure> {
    let mut runs = Localized::builtins()?;
    let index = add_run(&mut runs, name_or_path, how)?;
    redact_if(redact, &mut runs);
    Ok((runs, index))
}

/// A load quicker than this shows its runs once they are all in, rather
/// than some early and the rest a moment later.
const EARLY_AFTER: Duration = Duration::from_millis(100);

/// The same, and while a large session is still read, the runs it has
/// whole so far handed to `show`, the built-ins before them.
pub(super) fn screen_runs_early(
    name_or_path: &str,
    how: &Opening,
    redact: bool,
    show: &dyn Fn((Vec<Localized>, usize)),
) -> Result<(Vec<Localized>, usize), Failure> {
    let builtins = Localized::builtins()?;
    let hand = |early: Vec<Transcript>| {
        let mut runs = builtins.clone();
        let index = runs.len();
        runs.extend(early.into_iter().map(Localized::from));
        redact_if(redact, &mut runs);
        show((runs, index));
    };
    let how = Opening {
        early: Some(Early {
            hand: &hand,
            after: EARLY_AFTER,
        }),
        ..*how
    };
    screen_runs(name_or_path, &how, redact)
}

fn redact_if(redact: bool, runs: &mut [Localized]) {
    if redact {
        redact::runs(runs.iter_mut().flat_map(Localized::transcripts_mut));
    }
}

/// A run or recording opened for `run` or `import`, its secrets replaced
/// with `--redact`.
pub(super) fn open_redacted(
    name_or_path: &str,
    how: &Opening,
    lang: Lang,
    flag: RedactFlag,
) -> Result<Source, LoadError> {
    let mut source = open_in(name_or_path, how, lang)?;
    if flag.redact {
        redact::source(&mut source);
    }
    Ok(source)
}

/// The index of a built-in run in `runs`, or of the first run of a file,
/// added to them.
pub(super) fn add_run(
    runs: &mut Vec<Localized>,
    name_or_path: &str,
    how: &Opening,
) -> Result<usize, Failure> {
    if let Some(index) = BUILTIN_NAMES.iter().position(|n| *n == name_or_path) {
        return Ok(index);
    }
    let index = runs.len();
    runs.extend(Localized::open(name_or_path, how)?);
    Ok(index)
}

/// The runs a compare screen opens: the built-ins, then the runs of each
/// file that is not one of them; and the index of each side's run (a
/// file's first).
pub(super) fn compared_runs(
    [left, right]: [&str; 2],
    how: &Opening,
    redact: bool,
) -> Result<(Vec<Localized>, [usize; 2]), Failure> {
    let (mut runs, left_index) = screen_runs(left, how, false)?;
    let right_index = match right == left {
        true => left_index,
        false => add_run(&mut runs, right, how)?,
    };
    if redact {
        redact::runs(runs.iter_mut().flat_map(Localized::transcripts_mut));
    }
    Ok((runs, [left_index, right_index]))
}

/// A side of `compare --format`: the first run of its source, replayed whole.
pub(super) fn compared<'a>(
    source: &'a Source,
    flags: &LoopFlags,
    lang: Lang,
) -> Result<compare::Compared<'a>, Failure> {
    let transcript = source
        .runs
        .first()
        .ok_or(Failure::Refused(Refusal::NothingToCompare))?;
    let trace = transcript.replay_in(flags.config(transcript)?, lang);
    Ok(compare::Compared { transcript, trace })
}
