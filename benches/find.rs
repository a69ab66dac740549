//! How long `/` takes to search the whole of the 52 MB log (12,000
//! rounds, 4 kB results) for a text found only at its end: replaying the
//! run as far as it goes and reading every step. The screen does this a
//! 30 ms slice at a time between frames, so it never holds a key up; this
//! measures the slices end to end.
//!
//! Run with `cargo bench --bench find`.

use std::hint::black_box;

use loopstep::tui::{Action, App, Settings, update};

#[path = "../tests/it/common/generated.rs"]
mod generated;
use generated::big_log_runs as big;

fn main() {
    divan::main();
}

/// Types `/`, the query and Enter, then lets the scan run to its end.
fn search_to_the_end(query: &str) -> usize {
    let mut app = App::new(big(), 0, Settings::default());
    update(&mut app, Action::Search);
    query
        .chars()
        .for_each(|c| update(&mut app, Action::Type(c)));
    update(&mut app, Action::Submit);
    while app.working() {
        app.work();
    }
    app.cursor()
}

/// A text at the log's end, in any case (the usual query).
#[divan::bench(sample_count = 10)]
fn whole_log_any_case() -> usize {
    black_box(search_to_the_end("example.org/11999\""))
}

/// A text with a capital: matched exactly, with no case folding.
#[divan::bench(sample_count = 10)]
fn whole_log_exact_case() -> usize {
    black_box(search_to_the_end("Done."))
}
