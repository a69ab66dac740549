//! The screen never breaks: every built-in run draws at every width and height
//! without a panic, and random key sequences keep the screen's invariants.

use crate::common;

use common::screen::{app_in, builtins, drive, key as key_event};
use crossterm::event::Event as TermEvent;
use loopstep::engine::Event;
use loopstep::narrate::Lang;
use loopstep::transcript::BUILTIN_NAMES;
use loopstep::tui::{App, Settings, action_for, update, view};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

/// Terminal sizes up to 120×40 that between them try every width and
/// every height: all widths at a few heights, all heights at a few widths
/// (the smallest, the sizes around the 80×24 minimum, the largest), and
/// every size in the band around the minimum, where the layout switches.
fn sizes() -> impl Iterator<Item = (u16, u16)> {
    const HEIGHTS: [u16; 6] = [1, 12, 23, 24, 25, 40];
    const WIDTHS: [u16; 6] = [1, 40, 79, 80, 81, 120];
    let widths = (1..=120).flat_map(|w| HEIGHTS.map(|h| (w, h)));
    let heights = (1..=40).flat_map(|h| WIDTHS.map(|w| (w, h)));
    let band = (76..=84).flat_map(|w| (20..=28).map(move |h| (w, h)));
    widths.chain(heights).chain(band)
}

/// Draws `app` once into a fresh terminal of the given size.
fn draw_at(app: &App, width: u16, height: u16) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            view::draw(frame, app);
        })
        .unwrap();
}

#[test]
fn every_built_in_run_draws_at_every_width_and_height() {
    // Each run at every size, in a language and at a step that change with
    // the size, so that every run, both languages and every step are drawn.
    let mut apps: Vec<App> = (0..BUILTIN_NAMES.len())
        .map(|index| App::new(builtins(), index, Settings::default()))
        .collect();
    for (n, (w, h)) in sizes().enumerate() {
        for app in &mut apps {
            let keys: &[&str] = match n % 5 {
                0 => &["L"],
                1 => &["End"],
                2 => &["g"],
                _ => &["Right"],
            };
            for key in keys {
                if let TermEvent::Key(pressed) = key_event(key) {
                    update(app, action_for(pressed).unwrap());
                }
            }
            draw_at(app, w, h);
        }
    }
}

/// A key the screen knows, or one it ignores.
fn key() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "Right", "Left", "n", "p", "g", "G", "End", "Home", "+", "-", "r", "c", "m", "M", "w", "e",
        "L", "k", "j", "K", "J", "Tab", "?", "x", "Up", "Down",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_keys_keep_the_invariants(
        run in prop::sample::select(BUILTIN_NAMES.to_vec()),
        keys in prop::collection::vec(key(), 0..40),
    ) {
        let mut app = app_in(Lang::En, run);
        let keys: Vec<&str> = keys.into_iter().filter(|k| *k != "?").collect();
        let terminal = drive(&mut app, 80, 24, &keys);
        // The cursor stays inside the trace.
        prop_assert!(app.cursor() < app.trace().steps.len());
        // The gauge is red exactly when the cursor is on a spent budget.
        let spent = matches!(app.step().event, Event::BudgetExhausted { .. });
        let buffer = terminal.backend().buffer();
        let gauge_row = (0..24).find(|y| {
            let row: String = (0..80).map(|x| buffer[(x, *y)].symbol()).collect();
            row.contains("model calls")
        });
        if let Some(y) = gauge_row {
            prop_assert_eq!(buffer[(0, y)].fg == app.theme().ink(Color::Red), spent);
        }
        // Next then previous returns to the same frame (away from the end,
        // and unscrolled: a move starts the panes at the top).
        if !app.at_end() && app.detail_scroll() == 0 && app.scroll_back() == 0 {
            let here = terminal.backend().to_string();
            let back = drive(&mut app, 80, 24, &["Right", "Left"]).backend().to_string();
            prop_assert_eq!(here, back);
        }
    }
}
