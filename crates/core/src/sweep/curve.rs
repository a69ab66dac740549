//! How many runs a budget lets answer: each run replayed once, as far as
//! its own ending, and every budget read off that one replay. A replay
//! under a smaller `max_turns` is the same replay cut at a call (the loop
//! branches on the budget only when it is about to call again), so a run
//! that needs K calls to reach its ending reaches it under any budget of K
//! or more, and returns `None` under any smaller one.

use std::num::NonZeroU32;

use serde::Serialize;

use crate::engine::{Config, Outcome, Trace};
use crate::transcript::Transcript;

/// How a run ends when its budget is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Answered,
    /// The production check halted it, or the API refused a request.
    Halted,
    /// The recording holds no further reply.
    RecordingEnded,
    /// The agent, the user or the API ended it, as its log says.
    Ended,
    /// It never ends on its own within the budgets swept: a model that
    /// keeps asking (only `None` ends it).
    Never,
}

/// `run` replayed as far as its own ending, whatever its budget: past its
/// recorded replies it cannot go (one call more finds the recording's
/// end), unless its model repeats its last reply forever; then `cap`
/// calls are the most it is given.
pub fn to_its_end(run: &Transcript, config: Config, cap: NonZeroU32) -> Trace {
    let most = match run.repeat_last_reply {
        true => cap.get(),
        false => u32::try_from(run.replies.len()).map_or(u32::MAX, |n| n.saturating_add(1)),
    };
    let budget = NonZeroU32::new(most).unwrap_or(NonZeroU32::MIN);
    run.replay(Config {
        max_turns: budget,
        ..config
    })
}

impl Fate {
    /// Its name in JSON and for narration: `answered`, `halted`, …
    pub fn label(self) -> &'static str {
        match self {
            Fate::Answered => "answered",
            Fate::Halted => "halted",
            Fate::RecordingEnded => "recording_ended",
            Fate::Ended => "ended",
            Fate::Never => "never",
        }
    }
}

/// One run, replayed once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunEnd {
    pub file: String,
    pub run: String,
    /// The budget the run was recorded with, where it says (a native
    /// transcript); a recording of an API's calls keeps none.
    pub own_max_turns: Option<u32>,
    /// The model calls it takes to reach its ending; `None` for `Never`.
    pub needs: Option<u32>,
    pub ending: Fate,
    pub model_calls: u32,
    pub tool_rounds: u32,
}

impl RunEnd {
    /// Replays `run` as far as its own ending (see [`to_its_end`]).
    pub fn of(file: &str, run: &Transcript, config: Config, cap: NonZeroU32) -> RunEnd {
        RunEnd::from_trace(file, run, &to_its_end(run, config, cap))
    }

    fn from_trace(file: &str, run: &Transcript, trace: &Trace) -> RunEnd {
        let calls = u32::try_from(trace.model_calls()).unwrap_or(u32::MAX);
        // The ending comes in the turn of the call it needs: an answer in
        // its call's turn, the recording's end or a refusal in the turn of
        // the call that found it.
        let turn = trace.steps.last().map_or(0, |s| s.turn);
        let ending = match trace.outcome() {
            Some(Outcome::Answered(_)) => Fate::Answered,
            Some(Outcome::Stopped(_) | Outcome::Rejected(_)) => Fate::Halted,
            Some(Outcome::RecordingEnded) => Fate::RecordingEnded,
            Some(Outcome::Ended(_)) => Fate::Ended,
            Some(Outcome::BudgetExhausted) | None => Fate::Never,
        };
        RunEnd {
            file: file.to_owned(),
            run: run.id.clone(),
            own_max_turns: (!run.recorded).then(|| run.max_turns.get()),
            needs: (ending != Fate::Never).then_some(turn.saturating_add(1)),
            ending,
            model_calls: calls,
            tool_rounds: u32::try_from(trace.rounds().tools).unwrap_or(u32::MAX),
        }
    }

    /// How the run ends under `max_turns`: its own ending once the budget
    /// reaches what it needs, else `None` (the budget is spent first).
    pub fn under(&self, max_turns: u32) -> Fate {
        match self.needs {
            Some(needs) if max_turns >= needs => self.ending,
            _ => Fate::Never,
        }
    }
}

/// The runs under one budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Point {
    pub max_turns: u32,
    pub answered: usize,
    /// Out of budget: the loop returns `None`.
    pub none: usize,
    pub halted: usize,
    /// Ended with the recording, or by the agent, the user or the API.
    pub ended: usize,
    /// Runs recorded with exactly this budget.
    pub own: usize,
}

/// Smallest, middle and largest of a count over the runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Spread {
    pub min: u32,
    pub median: u32,
    pub max: u32,
}

impl Spread {
    fn of(mut values: Vec<u32>) -> Option<Spread> {
        values.sort_unstable();
        Some(Spread {
            min: *values.first()?,
            median: values[values.len() / 2],
            max: *values.last()?,
        })
    }
}

/// A sweep: every budget of a range, and what the runs need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Curve {
    pub runs: usize,
    pub points: Vec<Point>,
    /// The first budget by which 50 %, 90 % and 99 % of the runs that
    /// answer at all have answered.
    pub answered_by: Quantiles,
    pub model_calls: Option<Spread>,
    pub tool_rounds: Option<Spread>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Quantiles {
    pub p50: Option<u32>,
    pub p90: Option<u32>,
    pub p99: Option<u32>,
}

/// The budgets swept: `from..=to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub from: u32,
    pub to: u32,
}

impl Range {
    /// From 1 to the largest budget any run needs (or was recorded with).
    pub fn needed(runs: &[RunEnd]) -> Range {
        let needs = runs.iter().filter_map(|r| r.needs);
        let own = runs.iter().filter_map(|r| r.own_max_turns);
        Range {
            from: 1,
            to: needs.chain(own).max().unwrap_or(1),
        }
    }
}

impl Curve {
    /// Counted once per run, then summed over the budgets: the cost is the
    /// runs plus the budgets, not their product.
    pub fn of(runs: &[RunEnd], range: Range) -> Curve {
        let span = usize::try_from(range.to.saturating_sub(range.from)).unwrap_or(0) + 1;
        // Per budget: the runs whose ending comes in at it, by ending, and
        // those recorded with it.
        let mut arrive = vec![[0usize; 3]; span];
        let mut own = vec![0usize; span];
        let mut before = [0usize; 3];
        let slot = |budget: u32| usize::try_from(budget.checked_sub(range.from)?).ok();
        for run in runs {
            let kind = match run.ending {
                Fate::Answered => 0,
                Fate::Halted => 1,
                Fate::RecordingEnded | Fate::Ended => 2,
                Fate::Never => continue,
            };
            match run.needs.map(|n| (n, slot(n))) {
                // Ended before the range begins: so under all of it.
                Some((n, None)) if n < range.from => before[kind] += 1,
                Some((_, Some(at))) if at < span => arrive[at][kind] += 1,
                _ => {}
            }
        }
        for run in runs {
            if let Some(at) = run.own_max_turns.and_then(slot).filter(|at| *at < span) {
                own[at] += 1;
            }
        }
        let mut ended = before;
        let points = (0..span)
            .map(|at| {
                for (total, more) in ended.iter_mut().zip(arrive[at]) {
                    *total += more;
                }
                Point {
                    max_turns: range.from + at as u32,
                    answered: ended[0],
                    halted: ended[1],
                    ended: ended[2],
                    none: runs.len() - ended.iter().sum::<usize>(),
                    own: own[at],
                }
            })
            .collect();
        let mut answering: Vec<u32> = runs
            .iter()
            .filter(|r| r.ending == Fate::Answered)
            .filter_map(|r| r.needs)
            .collect();
        answering.sort_unstable();
        // The budget by which a share of them has answered: the smallest
        // that covers ceil(share × n) runs.
        let by = |percent: usize| {
            let n = answering.len();
            let covered = (n * percent).div_ceil(100).max(1);
            answering.get(covered - 1).copied()
        };
        Curve {
            runs: runs.len(),
            points,
            answered_by: Quantiles {
                p50: by(50),
                p90: by(90),
                p99: by(99),
            },
            model_calls: Spread::of(runs.iter().map(|r| r.model_calls).collect()),
            tool_rounds: Spread::of(runs.iter().map(|r| r.tool_rounds).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(needs: Option<u32>, ending: Fate, own: u32) -> RunEnd {
        RunEnd {
            file: "f".into(),
            run: "r".into(),
            own_max_turns: Some(own),
            needs,
            ending,
            model_calls: needs.unwrap_or(own),
            tool_rounds: needs.map_or(own, |n| n - 1),
        }
    }

    #[test]
    fn a_budget_below_what_a_run_needs_returns_none_and_one_at_or_above_its_ending() {
        let runs = [
            run(Some(3), Fate::Answered, 10),
            run(Some(1), Fate::Answered, 10),
            run(None, Fate::Never, 5),
            run(Some(2), Fate::Halted, 10),
        ];
        let curve = Curve::of(&runs, Range { from: 1, to: 3 });
        // A range that starts past some endings counts them from its start.
        let late = Curve::of(&runs, Range { from: 2, to: 3 });
        assert_eq!(late.points[0], curve.points[1]);
        let answered: Vec<usize> = curve.points.iter().map(|p| p.answered).collect();
        let none: Vec<usize> = curve.points.iter().map(|p| p.none).collect();
        assert_eq!(answered, [1, 1, 2]);
        assert_eq!(none, [3, 2, 1]);
        assert_eq!(curve.points[1].halted, 1);
        // Of the two that answer, half by 1, all by 3.
        assert_eq!(curve.answered_by.p50, Some(1));
        assert_eq!(curve.answered_by.p90, Some(3));
        assert_eq!(Range::needed(&runs), Range { from: 1, to: 10 });
    }
}
