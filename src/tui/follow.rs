//! The screen on a recording as it grows (`loopstep record --play`): it
//! waits for the first call, then shows the run, and each call recorded
//! after appears as it is written. A screen at the end of its run follows
//! it; one the user has stepped back in stays where it is.

use std::cell::OnceCell;
use std::io::{self};
use std::path::Path;
use std::time::Duration;

use crossterm::event::Event as TermEvent;

use super::loading::{Typed, wait_for_load};
use super::runtime::Msg;
use super::theme::Look;
use super::{App, EventSource, Settings, TakenTerminal, TerminalEvents, run_app};
use crate::dialect::Dialect;
use crate::narrate::Say;
use crate::transcript::{Localized, Opening, Progress};

/// How often the screen looks at the recording.
const WATCH: Duration = Duration::from_millis(200);

/// Shows the recording at `path` as it grows, until the user quits;
/// `recording` says whether it still may grow.
pub fn follow(path: &Path, settings: Settings, recording: &dyn Fn() -> bool) -> anyhow::Result<()> {
    let shown = path.display().to_string();
    super::needs_terminal(&shown)?;
    let mut taken = TakenTerminal::take(settings.mouse)?;
    let say = Say::new(settings.lang, Dialect::default());
    let look = Look {
        theme: settings.theme,
        monochrome: settings.monochrome,
    };
    let first = OnceCell::new();
    // The wait ends with the first call, or with a recording that ended
    // (or failed) without one.
    let arrived = || {
        if first.get().is_none()
            && let Some(runs) = read(path)
        {
            let _ = first.set(runs);
        }
        first.get().is_some() || !recording()
    };
    let waiting = say.record_waiting_for_call(&shown);
    let words = (say, look, waiting.as_str());
    let progress = Progress::default();
    let mut terminal_events = TerminalEvents;
    let typed = wait_for_load(
        &mut taken.terminal,
        &progress,
        words,
        arrived,
        &mut terminal_events,
    )?;
    let (Some(keys), Some(first)) = (typed, first.into_inner()) else {
        return Ok(());
    };
    // Following from the start: at the end of what is recorded so far.
    let mut app = App::new(&first, 0, settings).more_loading();
    app.go_to_step(usize::MAX);
    let mut events = Typed {
        keys,
        then: Growing {
            events: TerminalEvents,
            path,
            size: size_of(path),
            grew: false,
            recording,
            was_recording: true,
        },
    };
    run_app(&mut taken.terminal, &mut app, &mut events)
}

/// The recording's runs, once it has one whole.
fn read(path: &Path) -> Option<Vec<Localized>> {
    let runs = Localized::open(path.to_str()?, &Opening::default()).ok()?;
    (!runs.is_empty()).then_some(runs)
}

fn size_of(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The terminal's events, and the recording's runs as a message each time
/// it has grown: the screen takes each version in place of the one before.
struct Growing<'p> {
    events: TerminalEvents,
    path: &'p Path,
    size: u64,
    /// It grew since the screen last took it: kept until it is taken.
    grew: bool,
    recording: &'p dyn Fn() -> bool,
    was_recording: bool,
}

impl Growing<'_> {
    /// Whether the recording grew, or stopped growing for good (which the
    /// title then says), since the screen last took it.
    fn grown(&mut self) -> bool {
        if !self.grew {
            let stopped = self.was_recording && !(self.recording)();
            self.was_recording &= !stopped;
            self.grew = stopped || size_of(self.path) > self.size;
        }
        self.grew
    }
}

impl EventSource for Growing<'_> {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        let mut events = TerminalEvents;
        events.next_unless(WATCH, || self.grown())
    }

    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        let mut events = TerminalEvents;
        events.poll_unless(timeout, WATCH, || self.grown())
    }

    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.events.copy(text)
    }

    /// The next event, or the recording as it is now, once it grew (a
    /// version that does not read whole yet is waited past).
    fn next_msg(&mut self) -> io::Result<Option<Msg>> {
        loop {
            if let Some(event) = self.next_event()? {
                return Ok(Some(Msg::Term(event)));
            }
            self.grew = false;
            self.size = size_of(self.path);
            if let Some(runs) = read(self.path) {
                let more = (self.recording)();
                return Ok(Some(Msg::Runs { runs, more }));
            }
        }
    }
}
