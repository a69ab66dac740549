//! The handout as Markdown: a heading a step, its line as `run` prints it,
//! and the caption under it.

use super::Handout;

pub fn markdown(handout: &Handout) -> String {
    let say = handout.say;
    let mut out = format!(
        "# {}\n\n{}{}\n\n{}{}\n\n`{}`\n\n",
        para(&handout.title),
        say.label(say.question()),
        para(&handout.question),
        say.label(say.model()),
        para(&handout.model),
        handout.header,
    );
    for step in &handout.steps {
        out += &format!(
            "## {}\n\n```text\n{}\n```\n\n{}\n\n",
            step.heading,
            step.line,
            para(&step.caption)
        );
    }
    out += &format!("**{}**\n", para(&handout.result));
    out
}

/// A text as one Markdown paragraph, its line breaks kept as breaks.
fn para(text: &str) -> String {
    text.replace('\n', "  \n")
}
