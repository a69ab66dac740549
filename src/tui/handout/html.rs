//! The handout as one self-contained HTML page: the style and the script
//! are inline and a strict Content-Security-Policy forbids everything
//! else, so the page works offline and can fetch nothing. Each step is an
//! anchor (`#step-4`); ←/→ and j/k step through the page.
//!
//! Every text reaches the page through [`escape`]: a transcript's text is
//! never markup.

use super::{Finish, Handout, Step};
use crate::tui::view::Mark;

/// Nothing may load: no network, no other file; only the inline style and
/// script run.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
    script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// One page for every run given (a recording may hold several): each run's
/// header, steps and result in a section of its own, the steps numbered
/// on through the page so each has an anchor of its own.
pub fn html(handouts: &[Handout]) -> String {
    let Some(first) = handouts.first() else {
        return String::new();
    };
    let say = first.say;
    let title = match handouts.len() {
        1 => escape(&first.title),
        n => escape(&say.first_of_runs(&first.title, n)),
    };
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <p class=\"keys\"><kbd>←</kbd> <kbd>→</kbd> · <kbd>j</kbd> <kbd>k</kbd> {keys}</p>\n",
        lang = say.lang.code(),
        keys = escape(say.handout_keys()),
    );
    let mut number = 0;
    for (r, handout) in handouts.iter().enumerate() {
        write_run(&mut out, handout, r + 1, &mut number);
    }
    out += &format!("<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// One run: its header, its steps from `number` on, and its result.
fn write_run(out: &mut String, handout: &Handout, run: usize, number: &mut usize) {
    let say = handout.say;
    *out += &format!(
        "<section class=\"run\" id=\"run-{run}\">\n<header>\n<h1>{title}</h1>\n\
         {description}<p class=\"question\"><span class=\"label\">{question_label}</span>{question}</p>\n\
         <p class=\"meta\"><span class=\"label\">{model_label}</span>{model}</p>\n\
         <p class=\"meta\"><code>{header}</code></p>\n\
         </header>\n<main>\n<ol class=\"steps\" start=\"{start}\">\n",
        title = escape(&handout.title),
        description = match handout.description.as_str() {
            "" => String::new(),
            text => format!("<p class=\"description\">{}</p>\n", escape(text)),
        },
        question_label = escape(&say.label(say.question())),
        question = escape(&handout.question),
        model_label = escape(&say.label(say.model())),
        model = escape(&handout.model),
        header = escape(&handout.header),
        start = *number + 1,
    );
    for step in &handout.steps {
        *number += 1;
        write_step(
            out,
            *number,
            step,
            (say.loop_title(), say.remark(), say.notes_label()),
        );
    }
    let ending = match handout.ending {
        Finish::Answered => "answered",
        Finish::BudgetSpent => "budget-spent",
        Finish::NoAnswer => "no-answer",
    };
    *out += &format!(
        "</ol>\n<p class=\"result {ending}\" id=\"result-{run}\">{}</p>\n</main>\n</section>\n",
        escape(&handout.result),
    );
}

/// One step: its heading as a link to itself, the diagram, the line, the
/// caption and the author's remark.
fn write_step(
    out: &mut String,
    number: usize,
    step: &Step,
    (diagram_title, remark_label, notes_label): (&str, &str, &str),
) {
    let diagram: Vec<String> = step
        .diagram
        .iter()
        .map(|parts| {
            parts
                .iter()
                .map(|(mark, text)| {
                    let text = escape(text);
                    match mark {
                        Mark::Edge => text,
                        Mark::Node => format!("<span class=\"node\">{text}</span>"),
                        Mark::Current => format!("<mark>{text}</mark>"),
                        Mark::Taken => format!("<span class=\"taken\">{text}</span>"),
                    }
                })
                .collect()
        })
        .collect();
    *out += &format!(
        "<li class=\"step\" id=\"step-{number}\" data-phase=\"{phase}\">\n\
         <h2><a href=\"#step-{number}\">{heading}</a></h2>\n\
         <pre class=\"diagram\" aria-label=\"{diagram_title}\">{diagram}</pre>\n\
         <div class=\"words\">\n<p class=\"line\"><code>{line}</code></p>\n\
         <p class=\"caption\">{caption}</p>\n{react}{remark}{notes}</div>\n</li>\n",
        phase = escape(step.phase),
        heading = escape(&step.heading),
        diagram_title = escape(diagram_title),
        diagram = diagram.join("\n"),
        line = escape(&step.line),
        caption = escape(&step.caption),
        react = step
            .react
            .as_ref()
            .map_or_else(String::new, |react| format!(
                "<p class=\"react\">{}</p>\n",
                escape(react)
            )),
        remark = step
            .remark
            .as_ref()
            .map_or_else(String::new, |remark| format!(
                "<p class=\"remark\"><strong>{}</strong> {}</p>\n",
                escape(remark_label.trim()),
                escape(remark)
            )),
        notes = step
            .notes
            .as_ref()
            .map_or_else(String::new, |notes| format!(
                "<p class=\"notes\"><strong>{}</strong> {}</p>\n",
                escape(notes_label.trim()),
                escape(notes)
            )),
    );
}

/// A text as HTML text or attribute value: `&`, `<`, `>` and both quotes
/// become references, so nothing in it is read as markup.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_quotes_become_references() {
        assert_eq!(
            escape(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
    }
}
