//! The screen: arbitrary key presses and terminal sizes, on every built-in
//! run, through the real main loop into a test backend.
#![no_main]

use std::sync::OnceLock;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use libfuzzer_sys::fuzz_target;
use loopstep::transcript::Localized;
use loopstep::tui::{App, ScriptedEvents, Settings, run_app};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Keys the screen knows, and a few it ignores.
const KEYS: &[KeyCode] = &[
    KeyCode::Right,
    KeyCode::Left,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Enter,
    KeyCode::Esc,
    KeyCode::Char('n'),
    KeyCode::Char('p'),
    KeyCode::Char('+'),
    KeyCode::Char('-'),
    KeyCode::Char('r'),
    KeyCode::Char('c'),
    KeyCode::Char('m'),
    KeyCode::Char('M'),
    KeyCode::Char('w'),
    KeyCode::Char('e'),
    KeyCode::Char('L'),
    KeyCode::Char('?'),
    KeyCode::Char('3'),
    KeyCode::Char('z'),
];

fuzz_target!(|data: &[u8]| {
    let [run, width, height, keys @ ..] = data else {
        return;
    };
    // Loaded once: the screen only borrows them.
    static RUNS: OnceLock<Vec<Localized>> = OnceLock::new();
    let runs = RUNS.get_or_init(|| Localized::builtins().unwrap());
    let index = usize::from(*run) % runs.len();
    let mut app = App::new(runs, index, Settings::default());
    let (width, height) = (u16::from(*width % 160) + 1, u16::from(*height % 60) + 1);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    // 'q' is left out so the keys play to the end; a resize may come any time.
    let events = keys.iter().map(|b| match b {
        250..=255 => Event::Resize(u16::from(*b) - 200, u16::from(*b) - 230),
        b => Event::Key(KeyEvent::new(
            KEYS[usize::from(*b) % KEYS.len()],
            KeyModifiers::NONE,
        )),
    });
    run_app(&mut terminal, &mut app, &mut ScriptedEvents(events)).unwrap();
    assert!(app.cursor() < app.trace().steps.len());
});
