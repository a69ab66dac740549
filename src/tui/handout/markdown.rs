//! The handout as Markdown: a heading a step, its line as `run` prints it,
//! and the caption under it.
//!
//! Text from a transcript (the title, question, model, lines, captions,
//! result) is put where Markdown cannot read it as markup: in code fences
//! longer than any run of backticks in it, or with every character that
//! could start markup escaped (CommonMark 0.31, "Backslash escapes": any
//! ASCII punctuation may be escaped, https://spec.commonmark.org/0.31.2/#backslash-escapes).
//! So the headings are loopstep's alone, and no `<script>` or link from a
//! run reaches a renderer.

use super::Handout;

/// Every run given, one after another, each under its own title.
pub fn markdown(handouts: &[Handout]) -> String {
    let runs: Vec<String> = handouts.iter().map(run).collect();
    runs.join("\n---\n\n")
}

fn run(handout: &Handout) -> String {
    let say = handout.say;
    let mut out = format!("# {}\n\n", one_line(&handout.title));
    if !handout.description.is_empty() {
        out += &format!("{}\n\n", para(&handout.description));
    }
    out += &format!(
        "{}{}\n\n{}{}\n\n{}\n\n",
        say.label(say.question()),
        para(&handout.question),
        say.label(say.model()),
        para(&handout.model),
        code_span(&handout.header),
    );
    for step in &handout.steps {
        out += &format!(
            "## {}\n\n{}\n\n{}\n\n",
            one_line(&step.heading),
            fenced(&step.line),
            para(&step.caption)
        );
        if let Some(react) = &step.react {
            out += &format!("> {}\n\n", para(react));
        }
        if let Some(remark) = &step.remark {
            out += &format!(
                "> **{}** {}\n\n",
                escaped(say.remark().trim()),
                para(remark)
            );
        }
        if let Some(notes) = &step.notes {
            out += &format!(
                "> **{}** {}\n\n",
                escaped(say.notes_label().trim()),
                para(notes)
            );
        }
    }
    out += &format!("**{}**\n", para(&handout.result));
    out
}

/// A text as one Markdown paragraph, its line breaks kept as breaks (an
/// empty line, which would end the paragraph, as a space that stays).
fn para(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| match line.trim() {
            "" => "&nbsp;".to_owned(),
            line => escaped(line),
        })
        .collect();
    lines.join("  \n")
}

/// A text on one line, for a heading.
fn one_line(text: &str) -> String {
    escaped(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The characters that start markup anywhere in a line: code, emphasis,
/// links and images, HTML and autolinks, entities, a heading's closing
/// `#`s, and GitHub's tables and strikethrough.
const ANYWHERE: &[char] = &['\\', '`', '*', '[', ']', '<', '>', '&', '#', '|', '~'];

/// The characters that start a block only at a line's start: a list item,
/// a setext underline, a thematic break.
const AT_START: &[char] = &['+', '-', '='];

/// One line (trimmed) with every character that could start markup
/// escaped; `_` within a word (`stop_reason`) is left as it is, since it
/// emphasises nothing there.
fn escaped(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let chars: Vec<char> = line.chars().collect();
    // An ordered list item: digits, then `.` or `)`.
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    for (at, &c) in chars.iter().enumerate() {
        let in_word = |i: Option<usize>| {
            i.and_then(|i| chars.get(i))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let escape = ANYWHERE.contains(&c)
            || (at == 0 && AT_START.contains(&c))
            || (c == '_' && !(in_word(at.checked_sub(1)) && in_word(Some(at + 1))))
            || (at == digits && digits > 0 && matches!(c, '.' | ')'));
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A fenced code block whose fence is longer than any run of backticks in
/// `text`, so nothing in it can close it.
fn fenced(text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
    format!("{fence}text\n{text}\n{fence}")
}

/// A code span whose backticks outnumber any run in `text`; on one line,
/// and padded where it starts or ends with a backtick (CommonMark's "Code
/// spans").
fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let ticks = "`".repeat(longest_backtick_run(&text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}
