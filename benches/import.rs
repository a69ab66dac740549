//! How long a large recording takes to open: parse and import a 50 MB
//! conversation, then replay its first run the way the screen does.
//!
//! Run with `cargo bench --bench import`.

use std::hint::black_box;

use loopstep::narrate::Lang;
use loopstep::transcript::import;

#[path = "../tests/it/common/generated.rs"]
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

/// An OpenAI Responses log through a gateway that renames every call
/// (`resp_<n>:call_0` for the model's `call_0`, paired back by item id),
/// `rounds` calls long; each request resends the whole history, so the
/// text grows with the square of `rounds`, and so may the time, no faster.
fn renamed_calls_log(rounds: usize) -> String {
    let mut exchanges = Vec::with_capacity(rounds);
    let mut history = vec![serde_json::json!({"role": "user", "content": "count the files"})];
    for round in 0..rounds {
        let request = serde_json::json!({"model": "m", "input": history.clone()});
        let answer = round + 1 == rounds;
        let output = if answer {
            serde_json::json!([{"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": "done"}]}])
        } else {
            serde_json::json!([{"type": "function_call", "id": format!("fc_{round}"),
                "call_id": "call_0", "name": "ls", "arguments": "{}"}])
        };
        exchanges.push(serde_json::json!({"request": request,
            "response": {"object": "response", "status": "completed", "output": output}}));
        let sent = format!("resp_{round}:call_0");
        history.push(
            serde_json::json!({"type": "function_call", "id": format!("fc_{round}"),
            "call_id": sent, "name": "ls", "arguments": "{}"}),
        );
        history.push(
            serde_json::json!({"type": "function_call_output", "call_id": sent,
            "output": "a.txt"}),
        );
    }
    serde_json::to_string(&exchanges).unwrap()
}

/// Time per byte stays level from 200 to 400 renamed calls: the pairing
/// looks each item up once.
#[divan::bench(args = [200, 400], sample_count = 5)]
fn open_a_log_whose_gateway_renamed_every_call(bencher: divan::Bencher, rounds: usize) {
    let text = renamed_calls_log(rounds);
    bencher
        .counter(divan::counter::BytesCount::new(text.len()))
        .with_inputs(|| text.clone())
        .bench_values(|text| {
            let source = import::load(text, "bench", "bench", None, Lang::En).unwrap();
            assert_eq!(source.runs[0].replies.len(), rounds);
            source
        });
}
