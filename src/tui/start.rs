//! The screen on a file still being read: the load's gauge first, then the
//! runs, as soon as some are whole. The load runs on the calling thread
//! (the allocator serves its hundreds of megabytes more cheaply there) and
//! the screen on a thread of its own, which it hands the runs to: a
//! session's finished runs early, when its reading hands them over, then
//! all of them. The screen shows the early runs at once, says that more
//! are loading, and takes all of them in place, on the same step, once
//! they are in.

use std::cell::RefCell;
use std::io::{self};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use crossterm::event::Event as TermEvent;

use super::link::Opened;
use super::loading::{Typed, wait_for_load};
use super::runtime::Msg;
use super::theme::Look;
use super::{App, EventSource, Settings, TakenTerminal, TerminalEvents, run_app};
use crate::dialect::Dialect;
use crate::narrate::Say;
use crate::prices::Prices;
use crate::transcript::{Localized, Progress};

/// Runs for the screen, and which of them to open.
pub type Runs = (Vec<Localized>, usize);

/// What the load hands the screen.
enum Loaded<E> {
    /// The runs whole so far; more are coming.
    Early(Runs),
    /// Every run, or why the load failed.
    All(Result<Runs, E>),
}

/// Takes over the terminal, shows the gauge while `load` reads the runs
/// (handing the screen any it has early, through the function it is
/// given), then runs the screen; always gives the terminal back. `what`
/// names the run or file for the gauge. A failed load comes back as the
/// inner error, once the terminal is restored.
pub fn play<E: Send + 'static>(
    what: &str,
    (settings, prices): (Settings, Option<Prices>),
    load: impl FnOnce(&Progress, &dyn Fn(Runs)) -> Result<Runs, E>,
) -> anyhow::Result<Result<(), E>> {
    super::needs_terminal(what)?;
    let progress = Arc::new(Progress::default());
    let taken = TakenTerminal::take(settings.mouse)?;
    let (sender, loads) = mpsc::channel();
    let screen = std::thread::spawn({
        let (progress, what) = (Arc::clone(&progress), what.to_owned());
        move || show(taken, loads, &progress, &what, (settings, prices))
    });
    let early = |runs| drop(sender.send(Loaded::Early(runs)));
    let all = load(&progress, &early);
    // The screen may be gone already, with an error of its own.
    sender.send(Loaded::All(all)).ok();
    screen
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The screen's thread: the gauge until the first runs come, then the
/// screen on them.
fn show<E>(
    mut taken: TakenTerminal,
    loads: Receiver<Loaded<E>>,
    progress: &Progress,
    what: &str,
    (settings, prices): (Settings, Option<Prices>),
) -> anyhow::Result<Result<(), E>> {
    let say = Say::new(settings.lang, Dialect::default());
    let look = Look {
        theme: settings.theme,
        monochrome: settings.monochrome,
    };
    let first = RefCell::new(None);
    let arrived = || {
        let mut first = first.borrow_mut();
        if first.is_none() {
            *first = loads.try_recv().ok();
        }
        first.is_some()
    };
    let words = (say, look, what);
    let typed = wait_for_load(
        &mut taken.terminal,
        progress,
        words,
        arrived,
        &mut TerminalEvents,
    )?;
    let Some(keys) = typed else {
        quit_while_loading(taken)
    };
    let first = match first.into_inner() {
        Some(first) => first,
        // The gauge stops only once something came, or when it quit.
        None => loads.recv()?,
    };
    let (early, rest) = match first {
        Loaded::Early(runs) => (runs, Some(loads)),
        Loaded::All(Ok(runs)) => (runs, None),
        Loaded::All(Err(failed)) => return Ok(Err(failed)),
    };
    let (runs, index) = &early;
    let mut app = App::new(runs, *index, settings)
        .opened_from(Opened {
            what: what.to_owned(),
            first: *index,
            redacted: settings.redacted,
        })
        .with_prices(prices);
    if rest.is_some() {
        app = app.more_loading();
    }
    let mut events = Typed {
        keys,
        then: Watching {
            events: TerminalEvents,
            loads: rest,
            arrived: None,
            failed: None,
        },
    };
    run_app(&mut taken.terminal, &mut app, &mut events)?;
    if let Some(failed) = events.then.failed.take() {
        return Ok(Err(failed));
    }
    // Quit before the rest came.
    if events.then.loads.is_some() {
        quit_while_loading(taken)
    }
    Ok(Ok(()))
}

/// Quit while the load goes on: the terminal given back, and the load
/// (which writes nothing) ended with the process.
fn quit_while_loading(taken: TakenTerminal) -> ! {
    drop(taken);
    std::process::exit(0);
}

/// How often the screen looks for the rest of the runs while it waits for
/// a key.
const WATCH: Duration = Duration::from_millis(50);

/// The terminal's events, and the rest of the runs as a message once they
/// have come; once they are taken (`loads` gone), the events pass on as
/// they are. A load that failed ends the events, its error kept.
struct Watching<E> {
    events: TerminalEvents,
    loads: Option<Receiver<Loaded<E>>>,
    arrived: Option<Result<Runs, E>>,
    failed: Option<E>,
}

impl<E> Watching<E> {
    /// Whether all the runs came and the screen has not taken them yet.
    fn arrived(&mut self) -> bool {
        if self.arrived.is_none()
            && let Some(loads) = &self.loads
        {
            match loads.try_recv() {
                Ok(Loaded::All(all)) => self.arrived = Some(all),
                Ok(Loaded::Early(_)) | Err(TryRecvError::Empty | TryRecvError::Disconnected) => {}
            }
        }
        self.arrived.is_some()
    }
}

impl<E> EventSource for Watching<E> {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        if self.loads.is_none() {
            return self.events.next_event();
        }
        let mut events = TerminalEvents;
        events.next_unless(WATCH, || self.arrived())
    }

    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.loads.is_none() {
            return self.events.poll(timeout);
        }
        let mut events = TerminalEvents;
        events.poll_unless(timeout, WATCH, || self.arrived())
    }

    fn copy(&mut self, text: &str) -> io::Result<()> {
        self.events.copy(text)
    }

    /// The rest of the runs, once they came; else the next event.
    fn next_msg(&mut self) -> io::Result<Option<Msg>> {
        if self.loads.is_some()
            && !self.arrived()
            && let Some(event) = self.next_event()?
        {
            return Ok(Some(Msg::Term(event)));
        }
        match self.arrived.take() {
            Some(Ok((runs, _))) => {
                self.loads = None;
                Ok(Some(Msg::Runs { runs, more: false }))
            }
            Some(Err(failed)) => {
                self.loads = None;
                self.failed = Some(failed);
                Ok(None)
            }
            None => Ok(self.next_event()?.map(Msg::Term)),
        }
    }
}
