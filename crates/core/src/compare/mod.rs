//! `loopstep compare`: two replays side by side — two runs, or one run
//! under two settings — and the first step where they part. This module
//! is the headless part (`--format json|text`); the screen is
//! the compare screen (`tui/compare` in the loopstep crate).

mod divergence;

pub use divergence::{first_divergence, first_divergence_from};

use serde_json::{Value, json};

use crate::engine::{Outcome, Trace};
use crate::narrate::{Lang, Say, Side};
use crate::report::step_json;
use crate::text::one_line;
use crate::transcript::Transcript;

/// One side of a comparison: a run and its replay, whole.
pub struct Compared<'a> {
    pub transcript: &'a Transcript,
    pub trace: Trace,
}

/// `compare --format json`: each side's run, settings and outcome, and
/// the first divergence (1-based, as the screen and `--step` count
/// steps), with each side's step there; `null` when the two are the same.
pub fn json(left: &Compared, right: &Compared) -> Value {
    let divergence = first_divergence(left.trace.view(), right.trace.view()).map(|index| {
        let at = |side: &Compared| {
            let dialect = side.trace.config.dialect;
            side.trace.steps.get(index).map(|s| step_json(dialect, s))
        };
        json!({"step": index + 1, "left": at(left), "right": at(right)})
    });
    json!({
        "left": side_json(left),
        "right": side_json(right),
        "first_divergence": divergence,
    })
}

fn side_json(side: &Compared) -> Value {
    let trace = &side.trace;
    json!({
        "run": side.transcript.id,
        "title": side.transcript.title,
        "dialect": trace.config.dialect.id(),
        "max_turns": trace.config.max_turns,
        "check": trace.config.check,
        "mistake": trace.config.mistake,
        "outcome": trace.outcome().map_or("unfinished", Outcome::label),
        "result": trace.result(),
        "model_calls": trace.model_calls(),
        "tools_run": trace.tool_calls(),
        "steps": trace.steps.len(),
    })
}

/// How long a run's name may get in the summary.
const NAME_CHARS: usize = 40;

/// `compare` in plain text: a line a side, then where they part.
pub fn text(left: &Compared, right: &Compared, lang: Lang) -> String {
    let say = |side: &Compared| Say::new(lang, side.trace.config.dialect);
    // Two APIs telling one run: each side names its own.
    let apis = left.trace.config.dialect != right.trace.config.dialect;
    let line = |which: Side, side: &Compared| {
        let config = side.trace.config;
        let mut name = one_line(&side.transcript.id, NAME_CHARS);
        if apis {
            name = format!("{name} · {}", say(side).w.api);
        }
        let run = format!(
            "{name} · {}",
            say(side).run_settings(
                config.policy().budget,
                config.max_turns.get(),
                config.check,
                config.mistake,
            )
        );
        let result = say(side).returned(side.trace.outcome());
        let size = (side.trace.steps.len(), side.trace.model_calls());
        say(side).side_summary(which, &run, &result, size)
    };
    let (l, r) = (left.trace.view(), right.trace.view());
    let parting = match first_divergence(l, r) {
        Some(index) => {
            let brief = |side: &Compared| {
                let step = side.trace.steps.get(index)?;
                Some(say(side).step_brief(&step.event))
            };
            say(left).divergence(index + 1, brief(left), brief(right))
        }
        None => say(left).no_divergence(l.steps.len()),
    };
    [line(Side::Left, left), line(Side::Right, right), parting]
        .iter()
        .map(|l| format!("{}\n", one_line(l, usize::MAX)))
        .collect()
}
