//! What one key costs on the 52 MB log of 12,000 rounds: `update`
//! plus a full draw at 200×50 on a test backend, at its start, middle and
//! end. Drawing should cost what is visible, not what is loaded.
//!
//! Run with `cargo bench --bench keys`.

use std::hint::black_box;

use loopstep::tui::{Action, App, Settings, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[path = "../tests/it/common/generated.rs"]
mod generated;
use generated::big_log_runs as big;

fn main() {
    divan::main();
}

/// The screen on the big log with the cursor at `place`: "start", "middle"
/// or "end" (the last is replayed to, as End does).
fn big_at(place: &str) -> App {
    let mut app = App::new(big(), 0, Settings::default());
    match place {
        "start" => {}
        "middle" => (0..6_000).for_each(|_| update(&mut app, Action::NextTurn)),
        _ => {
            update(&mut app, Action::End);
            while app.working() {
                app.work();
            }
        }
    }
    app
}

fn draw(terminal: &mut Terminal<TestBackend>, app: &App) {
    terminal
        .draw(|frame| {
            black_box(view::draw(frame, app));
        })
        .unwrap();
}

/// A key and a full draw at 200×50, anywhere in the big log: each sample
/// steps forward then back, so the cursor stays where it was put.
#[divan::bench(args = ["start", "middle", "end"])]
fn step_and_draw(bencher: divan::Bencher, place: &str) {
    let mut app = big_at(place);
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut forward = place != "end";
    bencher.bench_local(|| {
        update(&mut app, if forward { Action::Next } else { Action::Prev });
        forward = !forward;
        draw(&mut terminal, &app);
    });
}

/// Other keys in the middle of the big log: next turn, the wire view,
/// unfolding; each twice per sample so that the screen comes back.
#[divan::bench(args = ["n", "w", "e"])]
fn key_and_draw(bencher: divan::Bencher, key: &str) {
    let mut app = big_at("middle");
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let (there, back) = match key {
        "n" => (Action::NextTurn, Action::PrevTurn),
        "w" => (Action::ToggleWire, Action::ToggleWire),
        _ => (Action::ToggleExpand, Action::ToggleExpand),
    };
    let mut go = true;
    bencher.bench_local(|| {
        update(&mut app, if go { there } else { back });
        go = !go;
        draw(&mut terminal, &app);
    });
}

/// `-` or `+` at the end of the big log, each with a draw: the first cuts
/// the replay one call sooner, the second uncovers the cut call again.
#[divan::bench]
fn budget_down_or_up(bencher: divan::Bencher) {
    let mut app = big_at("end");
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut down = true;
    bencher.bench_local(|| {
        update(
            &mut app,
            if down {
                Action::FewerTurns
            } else {
                Action::MoreTurns
            },
        );
        down = !down;
        draw(&mut terminal, &app);
    });
}
