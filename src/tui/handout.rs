//! A handout: the whole run, step by step, as the screen tells it, in
//! Markdown for students to keep. It walks the same [`App`] the screen
//! draws, so every caption is the one the class saw.

use super::app::{App, update};
use super::keymap::Action;
use super::view::caption_text;
use crate::engine::Outcome;
use crate::text::sanitize;

/// The run the app has open, from its first step to its end.
pub fn markdown(app: &mut App) -> String {
    update(app, Action::Start);
    let say = app.say();
    let transcript = app.transcript();
    let config = app.config();
    let mut out = format!(
        "# {}\n\n{}\n\n{}\n\n",
        one_para(&transcript.title),
        say.label(say.question()) + &one_para(&transcript.question),
        say.label(say.model()) + &one_para(&transcript.model),
    );
    out += &format!(
        "`{}`\n\n",
        say.run_header(
            &one_para(&transcript.id),
            config.policy().budget,
            config.max_turns.get(),
            config.check,
            config.mistake,
        )
    );
    loop {
        let step = app.step().clone();
        let heading = say.step_title(
            app.cursor(),
            (app.trace().steps.len(), app.trace_complete()),
            step.turn,
            step.event.phase(),
        );
        let line = say.step_line(config.policy(), transcript.goal.is_some(), &step);
        out += &format!(
            "## {heading}\n\n```text\n{}\n```\n\n{}\n\n",
            sanitize(&line),
            one_para(&caption_text(app))
        );
        if app.at_end() {
            break;
        }
        update(app, Action::Next);
    }
    let outcome = app.trace().steps.last().and_then(|s| Outcome::of(&s.event));
    out += &format!("**{}**\n", one_para(&say.result_line(outcome)));
    out
}

/// A text as one Markdown paragraph: control characters made visible,
/// line breaks kept as breaks within it.
fn one_para(text: &str) -> String {
    sanitize(text).trim().replace('\n', "  \n")
}
