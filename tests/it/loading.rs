//! The first frame comes before the file is in: a gauge of the load, `q`
//! answered at once, other keys kept for the screen in the order typed.

use crate::common;

use std::cell::Cell;
use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use common::screen::{builtins, key};
use crossterm::event::Event as TermEvent;
use loopstep::dialect::Dialect;
use loopstep::narrate::{Lang, Say};
use loopstep::transcript::{Opening, Progress};
use loopstep::tui::theme::Look;
use loopstep::tui::{App, EventSource, Settings, Typed, run_app, wait_for_load};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Keys typed while the load goes on: each is there as soon as asked for.
struct Typing(VecDeque<TermEvent>);

impl EventSource for Typing {
    fn next_event(&mut self) -> io::Result<Option<TermEvent>> {
        Ok(self.0.pop_front())
    }

    fn poll(&mut self, _: Duration) -> io::Result<bool> {
        Ok(!self.0.is_empty())
    }
}

fn typing(keys: &[&str]) -> Typing {
    Typing(keys.iter().map(|k| key(k)).collect())
}

/// A load that ends after `frames` frames.
fn loaded_after(frames: usize) -> impl Fn() -> bool {
    let left = Cell::new(frames);
    move || {
        let now = left.get();
        left.set(now.saturating_sub(1));
        now == 0
    }
}

/// The load's screen at 80×24 until `loaded()`, with `keys` typed: the
/// terminal, and the keys kept for the run (`None` when it quit).
fn load_screen(
    progress: &Progress,
    (lang, what): (Lang, &str),
    loaded: impl Fn() -> bool,
    keys: &[&str],
) -> (Terminal<TestBackend>, Option<VecDeque<TermEvent>>) {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let say = Say::new(lang, Dialect::default());
    let typed = wait_for_load(
        &mut terminal,
        progress,
        (say, Look::default(), what),
        loaded,
        &mut typing(keys),
    );
    (terminal, typed.unwrap())
}

#[test]
fn once_the_file_is_read_the_gauge_says_it_is_being_parsed() {
    let progress = Progress::default();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/transcripts/aurora-run.json");
    let how = Opening {
        progress: Some(&progress),
        ..Opening::default()
    };
    loopstep::transcript::Localized::open(path, &how).unwrap();
    let (terminal, typed) = load_screen(
        &progress,
        (Lang::En, "aurora-run.json"),
        loaded_after(1),
        &[],
    );
    assert_eq!(typed.map(|t| t.len()), Some(0));
    let text = terminal.backend().to_string();
    assert!(text.contains("opening aurora-run.json"), "{text}");
    assert!(text.contains("parsing and importing"), "{text}");
    assert!(text.contains("q quits"), "{text}");
}

#[test]
fn reading_shows_the_bytes_read_of_the_size_in_both_languages() {
    for (lang, words) in [
        (Lang::En, "reading: 0.0 MB so far"),
        (Lang::Zh, "正在打开 big.json"),
    ] {
        let progress = Progress::default();
        let (terminal, _) = load_screen(&progress, (lang, "big.json"), loaded_after(1), &[]);
        let text = terminal.backend().to_string().replace(' ', "");
        assert!(text.contains(&words.replace(' ', "")), "{text}");
    }
}

#[test]
fn q_during_the_load_quits_at_once() {
    let progress = Progress::default();
    let (_, typed) = load_screen(&progress, (Lang::En, "big.json"), || false, &["Right", "q"]);
    assert!(typed.is_none(), "the load never ends, yet q is answered");
}

#[test]
fn keys_typed_during_the_load_act_once_the_run_is_open() {
    let progress = Progress::default();
    let keys = ["Right", "Right", "Right"];
    let (mut terminal, typed) =
        load_screen(&progress, (Lang::En, "aurora-run"), loaded_after(3), &keys);
    let typed = typed.unwrap();
    assert_eq!(typed.len(), 3);
    let mut app = App::new(builtins(), 0, Settings::default());
    let mut events = Typed {
        keys: typed,
        then: typing(&[]),
    };
    run_app(&mut terminal, &mut app, &mut events).unwrap();
    assert_eq!(app.cursor(), 3);
}

#[test]
fn runs_shown_early_give_way_to_all_of_them_on_the_same_step() {
    // The first three runs early, as a session's reading hands them over;
    // then every run, those three first.
    let all = builtins();
    let early = &all[..3];
    let mut app = App::new(early, 1, Settings::default()).more_loading();
    let terminal = common::screen::drive(&mut app, 120, 30, &["Right", "Right", "Right"]);
    let title = common::screen::rows(terminal.backend().buffer())[0].clone();
    assert!(title.contains("run 2/3, more loading"), "{title}");
    let (cursor, step) = (app.cursor(), app.step().clone());
    app.take_all_runs(all);
    assert_eq!(app.runs(), (1, all.len()));
    assert_eq!((app.cursor(), app.step()), (cursor, &step));
    assert!(!app.loading());
    let terminal = common::screen::drive(&mut app, 120, 30, &[]);
    let title = common::screen::rows(terminal.backend().buffer())[0].clone();
    assert!(title.contains(&format!("run 2/{}", all.len())), "{title}");
    assert!(!title.contains("loading"), "{title}");
    // In Chinese, the same.
    let mut app = App::new(early, 0, Settings::default()).more_loading();
    let terminal = common::screen::drive(&mut app, 120, 30, &["L"]);
    let title = common::screen::rows(terminal.backend().buffer())[0].clone();
    assert!(title.contains("记录 1/3，其余仍在加载"), "{title}");
}
