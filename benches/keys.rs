//! What one key costs on a long run: `update` plus a full draw at 200×50 on
//! a test backend, in the middle of a 10,000-turn replay. Drawing should
//! cost what is visible, not what is loaded.
//!
//! Run with `cargo bench --bench keys`.

use std::hint::black_box;
use std::num::NonZeroU32;
use std::sync::OnceLock;

use loopstep::transcript::{BUILTIN_NAMES, Localized};
use loopstep::tui::{Action, App, Settings, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    divan::main();
}

/// The built-in runs, loaded once: the screen borrows them.
fn builtins() -> &'static [Localized] {
    static RUNS: OnceLock<Vec<Localized>> = OnceLock::new();
    RUNS.get_or_init(|| Localized::builtins().unwrap())
}

fn long_run() -> App<'static> {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "always-search")
        .unwrap();
    let settings = Settings {
        max_turns: NonZeroU32::new(10_000),
        ..Settings::default()
    };
    let mut app = App::new(builtins(), index, settings);
    // To the middle of the run.
    for _ in 0..5_000 {
        update(&mut app, Action::NextTurn);
    }
    app
}

#[divan::bench(args = ["Right", "Left", "n", "w", "e"])]
fn key_and_draw(bencher: divan::Bencher, key: &str) {
    let mut app = long_run();
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let action = match key {
        "Right" => Action::Next,
        "Left" => Action::Prev,
        "n" => Action::NextTurn,
        "w" => Action::ToggleWire,
        _ => Action::ToggleExpand,
    };
    bencher.bench_local(|| {
        update(&mut app, action);
        terminal
            .draw(|frame| {
                black_box(view::draw(frame, &app));
            })
            .unwrap();
    });
}

/// `-` then `+` at the end of the run: the first cuts the replay one call
/// sooner, the second uncovers the cut call again; plus two draws.
#[divan::bench(sample_count = 20)]
fn budget_down_and_up(bencher: divan::Bencher) {
    let mut app = long_run();
    update(&mut app, Action::End);
    while app.working() {
        app.work();
    }
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    bencher.bench_local(|| {
        for action in [Action::FewerTurns, Action::MoreTurns] {
            update(&mut app, action);
            terminal
                .draw(|frame| {
                    black_box(view::draw(frame, &app));
                })
                .unwrap();
        }
    });
}
