//! How long a large recording takes to open: parse and import a 50 MB
//! conversation, then replay its first run the way the screen does.
//!
//! Run with `cargo bench --bench import`.

use std::hint::black_box;

use loopstep::narrate::Lang;
use loopstep::transcript::import;

#[path = "../tests/common/generated.rs"]
mod generated;
use generated::{conversation, openai_log};

fn main() {
    divan::main();
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

/// Parses and imports `text`, then replays its first run to the end with
/// every request checked; it must make `tool_calls` calls.
fn open_and_replay_the_first_run(bencher: divan::Bencher, text: String, tool_calls: usize) {
    bencher.with_inputs(|| text.clone()).bench_values(|text| {
        let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
        let first = &source.runs[0];
        let trace = first.replay(first.default_config());
        assert_eq!(trace.tool_calls(), tool_calls);
        trace.steps.len()
    });
}

#[divan::bench(sample_count = 5)]
fn open_50_mb_and_replay_the_first_run(bencher: divan::Bencher) {
    open_and_replay_the_first_run(bencher, fifty_megabytes(), 400);
}

#[divan::bench(sample_count = 5)]
fn replay_the_last_run_of_50_mb(bencher: divan::Bencher) {
    let text = fifty_megabytes();
    let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
    let last = source.runs.last().unwrap();
    bencher.bench(|| last.replay(black_box(last.default_config())).steps.len());
}

/// What `loopstep validate` does with the 52 MB OpenAI log: parse,
/// import, and replay to the end with every request checked.
#[divan::bench(sample_count = 5)]
fn open_the_openai_log_and_replay_to_the_end(bencher: divan::Bencher) {
    open_and_replay_the_first_run(bencher, openai_log(12_000, 4096), 12_000);
}
