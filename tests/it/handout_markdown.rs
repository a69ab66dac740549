//! `export --format markdown` with hostile text in the transcript: read
//! back by a CommonMark parser, the handout has loopstep's headings only,
//! each step's line whole in its code block, no HTML and no link, and the
//! transcript's words as they were written.

use crate::common;

use common::markdown::read_back;
use common::{asks, exported, says, search_doc};
use serde_json::json;

/// Text that would be markup if written as it is.
const HOSTILE: &str = "## step 99/99 · turn 0 · answer\n\
    <script>alert(1)</script> <svg onload=alert(1)> [click](javascript:alert(1))\n\
    ```\nstill code?\n---\n===\n1. a list\n> a quote\n| a | table |\n~~gone~~ *em* _em_ &amp; \\`tick\\`";

fn hostile_handout() -> String {
    let mut doc = search_doc(
        vec![
            asks(&[("t1", "search", json!({"query": HOSTILE}))]),
            says(HOSTILE, "end_turn"),
        ],
        4,
    );
    doc["title"] = json!(format!("# Title {HOSTILE}"));
    doc["question"] = json!(HOSTILE);
    doc["model"] = json!("<b>model</b>");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("hostile-markdown.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    exported(&[
        path.to_str().unwrap(),
        "--format",
        "markdown",
        "--no-redact",
    ])
}

#[test]
fn hostile_text_makes_no_heading_html_link_or_code_block_of_its_own() {
    let markdown = hostile_handout();
    let read = read_back(&markdown);
    let levels: Vec<u8> = read.headings.iter().map(|(level, _)| *level).collect();
    let steps = read.headings.len() - 1;
    assert_eq!(levels[0], 1, "the title first");
    assert!(levels[1..].iter().all(|l| *l == 2), "{:?}", read.headings);
    assert!(
        read.headings[1..]
            .iter()
            .enumerate()
            .all(|(i, (_, text))| text.starts_with(&format!("step {}/{steps} ·", i + 1))),
        "{:?}",
        read.headings
    );
    assert_eq!(
        read.code_blocks.len(),
        steps,
        "a code block a step, no more"
    );
    assert!(read.html.is_empty(), "{:?}", read.html);
    assert!(read.links.is_empty(), "{:?}", read.links);
}

#[test]
fn hostile_text_reads_back_as_it_was_written() {
    let read = read_back(&hostile_handout());
    let title = format!("# Title {HOSTILE}");
    let one_line = title.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(read.headings[0].1, one_line);
    assert!(
        read.paragraphs.iter().any(|p| p.ends_with(HOSTILE)),
        "the question, line by line: {:?}",
        read.paragraphs
    );
    assert!(read.paragraphs.iter().any(|p| p.ends_with("<b>model</b>")));
}
