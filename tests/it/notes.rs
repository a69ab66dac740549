//! Speaker notes: the listener follows the presenter within 100 ms, step
//! by step and scene by scene, whether it starts before or after it, and
//! again after the presenter restarts.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::screen::key;
use loopstep::lesson;
use loopstep::tui::notes::{Heard, Publisher, Where, listen};
use loopstep::tui::present::Present;
use loopstep::tui::{Msg, Screen, Settings};

fn socket(name: &str) -> PathBuf {
    common::temp_dir(name).join("notes.sock")
}

fn presenter(socket: &Path) -> Present {
    let lesson = lesson::load(Path::new("lessons/seed-000.toml")).unwrap();
    Present::new(lesson, Settings::default()).publishing(Publisher::bind(socket).unwrap())
}

/// The next place heard within 100 ms, or the test fails.
fn heard_within_100ms(heard: &Receiver<Heard>) -> Where {
    let started = Instant::now();
    loop {
        let left = Duration::from_millis(100).saturating_sub(started.elapsed());
        match heard.recv_timeout(left) {
            Ok(Heard::At(at)) => return at,
            Ok(Heard::Gone) => continue,
            Err(_) => panic!("nothing heard within 100 ms"),
        }
    }
}

/// Presses `name` on the presenter.
fn press(present: &mut Present, name: &str) {
    present.update(Msg::Term(key(name)));
}

#[test]
fn the_listener_started_first_follows_every_step_and_scene_within_100_ms() {
    let path = socket("notes-first");
    let heard = listen(path.clone());
    let mut present = presenter(&path);
    // The listener looks for the presenter every 100 ms: it has found it
    // by the first thing the presenter publishes after that.
    std::thread::sleep(Duration::from_millis(150));
    present.update(Msg::Tick);
    assert_eq!((heard_within_100ms(&heard).scene, true), (0, true));
    for (name, scene, card, step) in [
        ("Right", 0, false, 0),
        ("Right", 0, false, 1),
        ("Right", 0, false, 2),
        ("]", 1, true, 0),
        ("Enter", 1, false, 0),
        ("]", 2, true, 7),
        ("Right", 2, false, 7),
    ] {
        press(&mut present, name);
        let at = heard_within_100ms(&heard);
        assert_eq!(
            (at.scene, at.card, at.step),
            (scene, card, step),
            "after {name}"
        );
    }
    // `-` lowers the budget to 1: the run ends at turn 0 (its step 6,
    // index 5, spends the budget), and the listener hears both.
    press(&mut present, "-");
    let at = heard_within_100ms(&heard);
    assert_eq!((at.max_turns, at.step), (1, 5));
}

#[test]
fn a_listener_started_after_the_presenter_hears_where_it_is_and_follows_a_restart() {
    let path = socket("notes-after");
    let mut present = presenter(&path);
    press(&mut present, "]");
    press(&mut present, "]");
    let heard = listen(path.clone());
    std::thread::sleep(Duration::from_millis(150));
    // The presenter takes new listeners between frames (a tick while idle).
    present.update(Msg::Tick);
    let at = heard_within_100ms(&heard);
    assert_eq!((at.scene, at.card), (2, true));
    assert_eq!(at.max_turns, 2, "the scene's own budget");
    // The presenter quits and comes back: the listener hears it go, and
    // follows the new one.
    drop(present);
    let started = Instant::now();
    while !matches!(
        heard.recv_timeout(Duration::from_millis(100)),
        Ok(Heard::Gone)
    ) {
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "the presenter's going is heard"
        );
    }
    let mut present = presenter(&path);
    std::thread::sleep(Duration::from_millis(150));
    present.update(Msg::Tick);
    assert_eq!(heard_within_100ms(&heard).scene, 0);
}

#[test]
fn two_lessons_publish_on_sockets_of_their_own_and_a_second_presenter_is_refused() {
    let first = loopstep::tui::notes::socket_path(Path::new("lessons/seed-000.toml"));
    let second = loopstep::tui::notes::socket_path(Path::new("lessons/seed-002.toml"));
    assert_ne!(first, second);
    let path = socket("notes-twice");
    let _presenting = Publisher::bind(&path).unwrap();
    assert!(Publisher::bind(&path).is_err(), "one presenter a lesson");
}

#[test]
fn the_notes_screen_shows_the_step_s_notes_and_what_comes_next_in_both_languages() {
    use loopstep::tui::notes::NotesScreen;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let lesson = lesson::load(Path::new("lessons/seed-000.toml")).unwrap();
    for (lang, code) in [("en", "en"), ("zh", "zh")] {
        let (tell, heard) = std::sync::mpsc::channel();
        let mut screen = NotesScreen::new(lesson.clone(), heard, Settings::default());
        // Scene 1's first call, where the lesson has a note.
        let config = lesson.scenes[0].runs[0]
            .get(loopstep::narrate::Lang::En)
            .default_config();
        let mut at = Where::new(0, false, 1, loopstep::narrate::Lang::En, config, 0);
        at.lang = lang.to_owned();
        // A start still to come shows as no time elapsed: the same frame
        // whenever the test runs.
        at.started = u64::MAX;
        tell.send(Heard::At(at)).unwrap();
        screen.update(Msg::Tick);
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal
            .draw(|frame| {
                screen.draw(frame);
            })
            .unwrap();
        let text = terminal.backend().to_string();
        let elapsed = if lang == "en" {
            "0:00 elapsed"
        } else {
            "已用时 0:00"
        };
        assert!(text.contains(elapsed), "{text}");
        insta::assert_snapshot!(format!("notes_{code}_80x24"), text);
    }
}

#[test]
fn publishing_the_notes_leaves_the_autoplay_at_its_own_pace() {
    let path = socket("notes-autoplay");
    let lesson = lesson::load(Path::new("lessons/seed-000.toml")).unwrap();
    let settings = Settings {
        autoplay: true,
        ..Settings::default()
    };
    let mut present = Present::new(lesson, settings).publishing(Publisher::bind(&path).unwrap());
    press(&mut present, "Right");
    let ticking = present.ticking().expect("it plays");
    assert!(ticking.every >= Duration::from_millis(375), "{ticking:?}");
    // Still, it ticks for its listeners alone, and those ticks move nothing.
    press(&mut present, "a");
    let ticking = present.ticking().expect("it takes listeners");
    assert_eq!(ticking.every, Duration::from_millis(50));
    let at = present.app().cursor();
    present.update(Msg::Tick);
    assert_eq!(present.app().cursor(), at);
}
