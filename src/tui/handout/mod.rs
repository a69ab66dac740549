//! Handouts: the whole run, step by step as the screen tells it, for
//! students to keep: a Markdown text, one self-contained HTML page, or an
//! asciicast recording of the screen playing the run by itself.
//!
//! Every format walks the same [`App`] the screen draws, so each caption is
//! the one the class saw. [`play_through`] is that walk; [`Handout::of`]
//! reads it once into a neutral list of steps that the text formats write
//! out, each with its own escaping, and the recording draws each step with
//! the screen's own view.

mod cast;
mod html;
mod markdown;

pub use cast::{CastError, ScreenSize, cast};
pub use html::html;
pub use markdown::markdown;

use super::app::App;
use super::keymap::Action;
use super::update::update;
use super::view::{Mark, caption_text, diagram_marks};
use crate::engine::Outcome;
use crate::narrate::{Say, reply_of};
use crate::report::call_remark;
use crate::text::sanitize;

/// Plays the run from its first step to its end, as the screen's autoplay
/// does, showing `visit` the app at each step.
pub fn play_through(app: &mut App, mut visit: impl FnMut(&App)) {
    update(app, Action::Start);
    app.playing = true;
    loop {
        visit(app);
        if app.at_end() {
            break;
        }
        update(app, Action::Tick);
    }
}

/// The run as the screen told it. Every text is sanitised here, once:
/// control characters and escape sequences from a transcript are made
/// visible, so each format only has its own escaping to add.
#[derive(Debug, Clone)]
pub struct Handout {
    /// Words in the screen's language and the run's dialect.
    pub say: Say,
    pub title: String,
    /// What the run shows, as its author put it; empty when it says nothing.
    pub description: String,
    pub question: String,
    pub model: String,
    /// The run, its API, budget, check and mistake in one line.
    pub header: String,
    pub steps: Vec<Step>,
    /// `result: "1974"`, `result: None`, or why there is no answer.
    pub result: String,
    pub ending: Finish,
}

/// One step, with the words the screen showed for it.
#[derive(Debug, Clone)]
pub struct Step {
    /// "step 4/12 · turn 0 · dispatch".
    pub heading: String,
    /// The phase's name: `call`, `check`, `dispatch`, …
    pub phase: &'static str,
    /// What happened, in one line, as `loopstep run` prints it.
    pub line: String,
    /// The screen's caption: what the step does and why.
    pub caption: String,
    /// The course author's remark on this call, where the run has one,
    /// after a lesson's remark on this step.
    pub remark: Option<String>,
    /// A lesson's notes for the teacher at this step, when asked for.
    pub notes: Option<String>,
    /// The step as ReAct names it, when the lens is on.
    pub react: Option<String>,
    /// The loop diagram as the screen drew it, the current phase marked.
    pub diagram: Vec<Vec<(Mark, String)>>,
}

/// How the run ended, for a format that shows it in colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    Answered,
    /// The budget was spent: the loop returns `None`.
    BudgetSpent,
    /// The loop halted, the recording ended, or the API rejected a request.
    NoAnswer,
}

impl Handout {
    /// Each app's run, walked whole.
    pub fn all(apps: &mut [App]) -> Vec<Handout> {
        apps.iter_mut().map(Handout::of).collect()
    }

    /// Walks the run the app has open from its first step to its end.
    pub fn of(app: &mut App) -> Handout {
        let mut steps = Vec::new();
        play_through(app, |app| {
            let say = app.say();
            let step = app.step();
            let config = app.config();
            let heading = say.step_title(
                app.cursor(),
                (app.trace().steps.len(), app.trace_complete()),
                step.turn,
                step.event.phase(),
            );
            let next = app.trace().steps.get(app.cursor() + 1);
            let line = say.step_line(config.policy(), app.transcript().goal.is_some(), step, next);
            steps.push(Step {
                heading: clean(&heading),
                phase: step.event.phase().as_str(),
                line: clean(&line),
                caption: clean(&caption_text(app)),
                remark: {
                    let lesson = app.lesson_remark().map(str::to_owned);
                    let call = call_remark(app.transcript(), step).map(str::to_owned);
                    let both: Vec<String> = lesson.into_iter().chain(call).collect();
                    (!both.is_empty()).then(|| clean(&both.join(" ")))
                },
                notes: None,
                react: app
                    .react
                    .then(|| say.react_line(step, reply_of(app.trace().messages, step)))
                    .flatten()
                    .map(|line| clean(&line)),
                diagram: diagram_marks(app),
            });
        });
        let say = app.say();
        let transcript = app.transcript();
        let config = app.config();
        let outcome = app.trace().steps.last().and_then(|s| Outcome::of(&s.event));
        Handout {
            say,
            title: clean(&transcript.title),
            // An author's description, or where an import cut the run
            // from: both in the reader's language.
            description: match &transcript.imported {
                Some(imported) => clean(&say.imported(imported)),
                None => clean(&transcript.description),
            },
            question: clean(&transcript.question),
            model: clean(&transcript.model),
            header: say.run_header(
                &clean(&transcript.id),
                config.policy().budget,
                config.max_turns.get(),
                config.check,
                config.mistake,
            ),
            steps,
            result: clean(&say.result_line(outcome)),
            ending: match outcome {
                Some(Outcome::Answered(_)) => Finish::Answered,
                Some(Outcome::BudgetExhausted) => Finish::BudgetSpent,
                _ => Finish::NoAnswer,
            },
        }
    }
}

/// A text to show: control characters made visible, no blank edges.
fn clean(text: &str) -> String {
    sanitize(text).trim().to_owned()
}
