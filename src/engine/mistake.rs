//! The common mistakes the lessons warn about, as deliberate variants of the
//! loop. Each one breaks a rule on purpose so the scripted model (or the
//! budget) can show what goes wrong; the correct loop is `None`.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mistake {
    /// Runs the tools but never appends their results.
    DropResults,
    /// Does not save the model's own tool request into `messages`.
    ForgetRequest,
    /// Appends parallel results as one message each.
    SplitResults,
    /// Ends the run when the reply has text, without reading the stop reason.
    StopOnText,
    /// Ignores max_turns; only the engine's safety cap stops the loop.
    NoBudget,
}

impl Mistake {
    pub const ALL: [Mistake; 5] = [
        Mistake::DropResults,
        Mistake::ForgetRequest,
        Mistake::SplitResults,
        Mistake::StopOnText,
        Mistake::NoBudget,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Mistake::DropResults => "drop-results",
            Mistake::ForgetRequest => "forget-request",
            Mistake::SplitResults => "split-results",
            Mistake::StopOnText => "stop-on-text",
            Mistake::NoBudget => "no-budget",
        }
    }

    /// The next mistake to try, or the correct loop after the last one.
    pub fn cycle(current: Option<Mistake>) -> Option<Mistake> {
        match current {
            None => Some(Mistake::ALL[0]),
            Some(m) => {
                let i = Mistake::ALL.iter().position(|x| *x == m).unwrap_or(0);
                Mistake::ALL.get(i + 1).copied()
            }
        }
    }
}

/// How many model calls a loop with no budget may make before the engine
/// stops it anyway: far more than any lesson needs, few enough to replay at once.
pub const SAFETY_CAP: u32 = 100;
