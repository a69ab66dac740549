//! What a sweep costs per run: a file read and its runs replayed to their
//! endings, for a small built-in run and a real 55 kB recording (an
//! OpenHands trajectory); and the curve read off 1,000 and 4,000 runs,
//! which should cost about 4× (linear in the runs, per budget).
//!
//! Run with `cargo bench --bench sweep`.

use std::hint::black_box;
use std::num::NonZeroU32;

use loopstep::sweep::{Curve, Range, RunEnd};
use loopstep::transcript::open;

fn main() {
    divan::main();
}

const FILES: [&str; 2] = [
    "transcripts/paris.json",
    "tests/fixtures/real/openhands-todo-app.json",
];

#[divan::bench(args = FILES, sample_count = 20)]
fn sweep_one_file(bencher: divan::Bencher, file: &str) {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    bencher.bench(|| {
        let source = open(black_box(&path), None).unwrap();
        let runs: Vec<RunEnd> = source
            .runs
            .iter()
            .map(|run| RunEnd::of(&path, run, run.default_config(), run.max_turns))
            .collect();
        runs.len()
    });
}

#[divan::bench(args = [1_000, 4_000], sample_count = 20)]
fn curve_of_runs(bencher: divan::Bencher, runs: usize) {
    let path = format!("{}/transcripts/aurora-run.json", env!("CARGO_MANIFEST_DIR"));
    let run = &open(&path, None).unwrap().runs[0];
    let one = RunEnd::of(&path, run, run.default_config(), NonZeroU32::MIN);
    let all = vec![one; runs];
    bencher.bench(|| {
        Curve::of(black_box(&all), Range { from: 1, to: 10 })
            .points
            .len()
    });
}
