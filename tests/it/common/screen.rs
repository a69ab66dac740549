//! Driving the screen in tests: built-in runs, scripted keys, the real
//! main loop, a `TestBackend`.

use std::sync::OnceLock;

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use loopstep::narrate::Lang;
use loopstep::transcript::{BUILTIN_NAMES, Localized, Transcript};
use loopstep::tui::{App, ScriptedEvents, Settings, run_app, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr;

/// Every built-in run, in both languages, as the screen opens them; loaded
/// once for all the tests of a binary, as the screen borrows its runs.
pub fn builtins() -> &'static [Localized] {
    static RUNS: OnceLock<Vec<Localized>> = OnceLock::new();
    RUNS.get_or_init(|| Localized::builtins().unwrap())
}

/// Runs that read the same in both languages.
pub fn same_in_both(runs: Vec<Transcript>) -> Vec<Localized> {
    runs.into_iter().map(Localized::from).collect()
}

/// The screen opened on a built-in run, in `lang`.
pub fn app_in(lang: Lang, run: &str) -> App {
    app_with(
        run,
        Settings {
            lang,
            ..Settings::default()
        },
    )
}

/// The built-in run `run` on the screen with `settings`.
pub fn app_with(run: &str, settings: Settings) -> App {
    let index = BUILTIN_NAMES.iter().position(|n| *n == run).unwrap();
    App::new(builtins(), index, settings)
}

/// Keys written the way tmux names them: "Right", "End", "Tab", or one character.
pub fn key(name: &str) -> TermEvent {
    if name == "Ctrl-C" {
        return TermEvent::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    }
    let code = match name {
        "Right" => KeyCode::Right,
        "Left" => KeyCode::Left,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "Tab" => KeyCode::Tab,
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "PageDown" => KeyCode::PageDown,
        "PageUp" => KeyCode::PageUp,
        c if c.chars().count() == 1 => KeyCode::Char(c.chars().next().unwrap()),
        other => panic!("unknown key {other}"),
    };
    TermEvent::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Runs the real main loop over `keys` and returns the last frame drawn.
///
/// The last frame is drawn once more on a cleared screen: `TestBackend`
/// keeps what an earlier frame left in the cell behind a wide character,
/// which a real terminal overwrites, and its text would show it.
pub fn drive(app: &mut App, width: u16, height: u16, keys: &[&str]) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut events = ScriptedEvents(keys.iter().map(|k| key(k)));
    run_app(&mut terminal, app, &mut events).unwrap();
    terminal.clear().unwrap();
    terminal
        .draw(|frame| {
            view::draw(frame, app);
        })
        .unwrap();
    terminal
}

/// A drawn buffer's rows as a terminal shows them: a wide symbol covers
/// the cell after it, which ratatui leaves blank.
pub fn rows(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < area.width {
                let symbol = buffer[(x, y)].symbol();
                row.push_str(symbol);
                x += symbol.width().max(1) as u16;
            }
            row
        })
        .collect()
}
