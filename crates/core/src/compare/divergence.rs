//! Where two replays part: the first step at which they differ.
//!
//! Two steps are the same when they happen in the same turn, do the same
//! thing (the same event, to its last field: the same request size, stop
//! reason, tool input and output) and add the same messages. The messages
//! count because two different runs can open with a `start` step alike in
//! everything but the question it holds.

use crate::engine::{Messages, TraceView};

/// The index (0-based) of the first step where `left` and `right` differ,
/// looking from step `from` on (the steps before it are known to be the
/// same); when one is the other's beginning, the first step past the
/// shorter one. `None` when they are the same throughout. On replays known
/// only in part, an index below both lengths is final; the others may
/// change as more is replayed.
pub fn first_divergence_from(left: TraceView, right: TraceView, from: usize) -> Option<usize> {
    let shorter = left.steps.len().min(right.steps.len());
    (from..shorter)
        .find(|&index| !same_step(left, right, index))
        .or_else(|| (left.steps.len() != right.steps.len()).then_some(shorter))
}

/// [`first_divergence_from`] the first step.
pub fn first_divergence(left: TraceView, right: TraceView) -> Option<usize> {
    first_divergence_from(left, right, 0)
}

fn same_step(left: TraceView, right: TraceView, index: usize) -> bool {
    let (a, b) = (&left.steps[index], &right.steps[index]);
    a.turn == b.turn && a.event == b.event && added(left, index) == added(right, index)
}

/// The messages step `index` added to the conversation (for the first
/// step, the ones the run opens with).
fn added<'a>(trace: TraceView<'a>, index: usize) -> Messages<'a> {
    let before = match index {
        0 => 0,
        i => trace.steps[i - 1].messages,
    };
    let after = trace.steps[index].messages;
    trace.messages.range(before..after)
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use super::*;
    use crate::engine::{Config, Trace};
    use crate::narrate::Lang;
    use crate::transcript::{Transcript, builtin_in};

    fn aurora() -> Transcript {
        builtin_in("aurora-run", Lang::En).unwrap().unwrap()
    }

    fn replay(run: &Transcript, max_turns: u32) -> Trace {
        run.replay(Config {
            max_turns: NonZeroU32::new(max_turns).unwrap(),
            ..run.default_config()
        })
    }

    #[test]
    fn the_same_replay_never_diverges() {
        let trace = replay(&aurora(), 10);
        assert_eq!(first_divergence(trace.view(), trace.view()), None);
    }

    #[test]
    fn a_smaller_budget_diverges_at_the_call_it_cuts() {
        let run = aurora();
        let (ten, two) = (replay(&run, 10), replay(&run, 2));
        // Step 10 (index 9): the third call, or the budget's end.
        assert_eq!(first_divergence(ten.view(), two.view()), Some(9));
        assert_eq!(first_divergence(two.view(), ten.view()), Some(9));
        assert_eq!(first_divergence_from(ten.view(), two.view(), 4), Some(9));
    }

    #[test]
    fn a_beginning_diverges_just_past_its_end() {
        let trace = replay(&aurora(), 10);
        let mut beginning = trace.view();
        beginning.steps = &trace.steps[..4];
        assert_eq!(first_divergence(beginning, trace.view()), Some(4));
        assert_eq!(first_divergence(trace.view(), beginning), Some(4));
    }

    #[test]
    fn two_runs_that_ask_different_questions_diverge_at_the_start() {
        let paris = builtin_in("paris", Lang::En).unwrap().unwrap();
        let (a, b) = (replay(&aurora(), 10), replay(&paris, 10));
        assert_eq!(first_divergence(a.view(), b.view()), Some(0));
    }
}
