//! How long a large recording takes to open: parse and import a 50 MB
//! conversation, then replay its first run the way the screen does.
//!
//! Run with `cargo bench --bench import`.

use std::hint::black_box;

use loopstep::narrate::Lang;
use loopstep::transcript::import;
use serde_json::json;

fn main() {
    divan::main();
}

/// A conversation of `prompts` questions, each followed by `rounds` tool
/// calls whose results are web pages of `page_bytes` bytes.
fn conversation(prompts: usize, rounds: usize, page_bytes: usize) -> String {
    let page: String = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
        .repeat(page_bytes / 57 + 1)
        .chars()
        .take(page_bytes)
        .collect();
    let mut messages = Vec::new();
    for p in 0..prompts {
        messages.push(json!({"role": "user", "content": format!("Question number {p}?")}));
        for r in 0..rounds {
            let id = format!("toolu_{p}_{r}");
            messages.push(json!({"role": "assistant", "content": [
                {"type": "text", "text": "Let me fetch another page."},
                {"type": "tool_use", "id": id, "name": "fetch", "input": {"url": format!("https://example.org/{p}/{r}")}}
            ]}));
            messages.push(json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": id, "content": page}
            ]}));
        }
        messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": "Here is the answer."}]}));
    }
    json!({"model": "claude-opus-5-5", "messages": messages}).to_string()
}

/// About 50 MB: 5 prompts × 400 tool rounds × 25 kB pages.
fn fifty_megabytes() -> String {
    let text = conversation(5, 400, 25_000);
    assert!(text.len() > 50_000_000, "{} bytes", text.len());
    text
}

#[divan::bench(sample_count = 5)]
fn import_50_mb(bencher: divan::Bencher) {
    let text = fifty_megabytes();
    bencher.with_inputs(|| text.clone()).bench_values(|text| {
        let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
        assert_eq!(source.runs.len(), 5);
        source
    });
}

#[divan::bench(sample_count = 5)]
fn open_50_mb_and_replay_the_first_run(bencher: divan::Bencher) {
    let text = fifty_megabytes();
    bencher.with_inputs(|| text.clone()).bench_values(|text| {
        let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
        let first = &source.runs[0];
        let trace = first.replay(first.default_config());
        assert_eq!(trace.tool_calls(), 400);
        trace.steps.len()
    });
}

#[divan::bench(sample_count = 5)]
fn replay_the_last_run_of_50_mb(bencher: divan::Bencher) {
    let text = fifty_megabytes();
    let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
    let last = source.runs.last().unwrap();
    bencher.bench(|| last.replay(black_box(last.default_config())).steps.len());
}
