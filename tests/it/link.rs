//! `y` gives the command that reopens the frame on screen, and hands it to
//! the clipboard through the event source.

use crate::common;

use std::io;
use std::num::NonZeroU32;
use std::time::Duration;

use clap::Parser;
use common::screen::{app_in, builtins, drive, key};
use crossterm::event::Event as TermEvent;
use loopstep::cli::Cli;
use loopstep::narrate::Lang;
use loopstep::tui::link::Opened;
use loopstep::tui::{App, EventSource, Settings, run_app};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Keys from a script; what is copied is kept.
struct Recording {
    keys: std::vec::IntoIter<TermEvent>,
    copied: Vec<String>,
}

impl EventSource for Recording {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        Ok(self.keys.next())
    }
    fn poll(&mut self, _: Duration) -> io::Result<bool> {
        Ok(false)
    }
    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.copied.push(text.to_owned());
        Ok(())
    }
}

fn copied_after(app: &mut App, keys: &[&str]) -> (Vec<String>, String) {
    let mut events = Recording {
        keys: keys.iter().map(|k| key(k)).collect::<Vec<_>>().into_iter(),
        copied: Vec::new(),
    };
    let mut terminal = Terminal::new(TestBackend::new(100, 24)).unwrap();
    run_app(&mut terminal, app, &mut events).unwrap();
    (events.copied, terminal.backend().to_string())
}

#[test]
fn y_copies_the_command_that_reopens_this_very_frame() {
    let mut app = app_in(Lang::En, "aurora-run");
    let keys = ["Right"; 7]
        .into_iter()
        .chain(["-"; 8])
        .chain(["c", "y"])
        .collect::<Vec<_>>();
    let (copied, text) = copied_after(&mut app, &keys);
    let command = "loopstep play aurora-run --step 8 --max-turns 2 --check lesson";
    assert_eq!(copied, [command]);
    assert!(text.contains(command) && text.contains("copied"), "{text}");
    // The command is one the command line takes…
    assert!(Cli::try_parse_from(command.split(' ')).is_ok());
    // …and it opens on the same frame.
    let settings = Settings {
        step: Some(8),
        max_turns: NonZeroU32::new(2),
        check: loopstep::engine::CheckPolicy::Lesson,
        ..Settings::default()
    };
    let mut again = App::new(builtins(), 0, settings);
    // All but the footer, which still shows the command.
    let frame = |app: &mut App| {
        let text = drive(app, 100, 24, &[]).backend().to_string();
        text.lines().take(23).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(frame(&mut again), frame(&mut app), "the same frame");
    // The next key takes the line away.
    let (_, text) = copied_after(&mut app, &["Right"]);
    assert!(!text.contains("copied"), "{text}");
}

#[test]
fn a_file_s_run_is_named_by_its_path_and_chinese_is_kept() {
    let opened_from = |redacted| {
        let app = app_in(Lang::Zh, "paris");
        let first = app.runs().0;
        app.opened_from(Opened {
            what: "my runs/paris.json".to_owned(),
            first,
            redacted,
        })
    };
    let (copied, _) = copied_after(&mut opened_from(false), &["Right", "y"]);
    assert_eq!(
        copied,
        ["loopstep play 'my runs/paris.json' --step 2 --lang zh"]
    );
    // A screen opened with --redact links to itself redacted, or the link
    // would show every secret it hid.
    let (copied, _) = copied_after(&mut opened_from(true), &["Right", "y"]);
    assert_eq!(
        copied,
        ["loopstep play 'my runs/paris.json' --step 2 --lang zh --redact"]
    );
}
