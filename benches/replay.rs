//! Replay stays linear in the number of turns: each request is checked
//! incrementally, the prefix having been checked on the call before.
//! `always-search` is a model that never stops asking, so the budget sets
//! the length; 16,000 turns should cost at most 20× what 1,000 do.
//!
//! Run with `cargo bench --bench replay`.

use std::hint::black_box;
use std::num::NonZeroU32;

use loopstep::transcript::builtin;

fn main() {
    divan::main();
}

#[divan::bench(args = [1_000, 4_000, 16_000], sample_count = 10)]
fn replay_turns(bencher: divan::Bencher, turns: u32) {
    let run = builtin("always-search").unwrap().unwrap();
    let config = loopstep::engine::Config {
        max_turns: NonZeroU32::new(turns).unwrap(),
        ..run.default_config()
    };
    bencher.bench(|| black_box(run.replay(black_box(config))).steps.len());
}
