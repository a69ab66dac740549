//! The classroom's keys: the run playing by itself (the screen's event loop
//! sends a tick when no key comes within a phase's time; here the ticks are
//! sent by hand), and jumping to a step prepared beforehand.

mod common;

use std::time::Duration;

use common::screen::{app_in, builtins, drive};
use loopstep::narrate::Lang;
use loopstep::transcript::BUILTIN_NAMES;
use loopstep::tui::{Action, App, Settings, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn aurora() -> App<'static> {
    app_in(Lang::En, "aurora-run")
}

#[test]
fn n_ticks_move_n_phases_and_stop_at_the_end() {
    let mut app = aurora();
    update(&mut app, Action::Tick);
    assert_eq!(app.cursor(), 0, "a tick does nothing until it plays");
    update(&mut app, Action::ToggleAutoplay);
    for _ in 0..3 {
        update(&mut app, Action::Tick);
    }
    assert_eq!(app.cursor(), 3);
    assert!(app.playing);
    for _ in 0..50 {
        update(&mut app, Action::Tick);
    }
    assert!(app.at_end());
    assert!(!app.playing, "it stops by itself at the end");
    // Played to the end, `a` plays it again from the start.
    update(&mut app, Action::ToggleAutoplay);
    assert_eq!(app.cursor(), 0);
    assert!(app.playing);
}

#[test]
fn a_key_that_moves_the_cursor_stops_it_and_others_do_not() {
    let mut app = aurora();
    update(&mut app, Action::ToggleAutoplay);
    update(&mut app, Action::Tick);
    update(&mut app, Action::ToggleWire);
    assert!(app.playing, "showing the wire view moves nothing");
    update(&mut app, Action::Next);
    assert!(!app.playing);
    assert_eq!(app.cursor(), 2);
    update(&mut app, Action::Tick);
    assert_eq!(app.cursor(), 2);
}

#[test]
fn the_speed_goes_from_half_to_four_times() {
    let mut app = aurora();
    assert_eq!(app.autoplay_interval(), None);
    update(&mut app, Action::ToggleAutoplay);
    assert_eq!(app.autoplay_interval(), Some(Duration::from_millis(1500)));
    for _ in 0..5 {
        update(&mut app, Action::Faster);
    }
    assert_eq!(app.speed(), "4");
    assert_eq!(app.autoplay_interval(), Some(Duration::from_millis(375)));
    for _ in 0..5 {
        update(&mut app, Action::Slower);
    }
    assert_eq!(app.speed(), "0.5");
    assert_eq!(app.autoplay_interval(), Some(Duration::from_millis(3000)));
}

#[test]
fn opened_with_autoplay_it_plays_through_and_the_footer_says_so() {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "aurora-run")
        .unwrap();
    let settings = Settings {
        autoplay: true,
        ..Settings::default()
    };
    let mut app = App::new(builtins(), index, settings);
    let first = drive(&mut app, 80, 24, &["?", "?"]).backend().to_string();
    // A script waits for nothing: between its keys the run plays on, here
    // to its end, where it stops.
    assert!(app.at_end());
    assert!(!first.contains("playing"), "stopped at the end: {first}");
    // One frame while it plays.
    let mut playing = aurora();
    update(&mut playing, Action::ToggleAutoplay);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| {
            view::draw(frame, &playing);
        })
        .unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains("▶ playing 1× · a pauses"), "{text}");
}

#[test]
fn colon_then_a_number_and_enter_jumps_to_that_step() {
    let mut app = aurora();
    for action in [Action::GoToStep, Action::Digit(1), Action::Digit(3)] {
        update(&mut app, action);
    }
    assert_eq!(app.step_prompt.as_deref(), Some("13"));
    update(&mut app, Action::Prev); // Backspace takes the 3 back
    update(&mut app, Action::Digit(1));
    update(&mut app, Action::Next); // Enter
    assert_eq!((app.cursor(), app.step_prompt.is_none()), (10, true));
    // Past the end: the last step. Esc leaves without moving.
    for action in [
        Action::GoToStep,
        Action::Digit(9),
        Action::Digit(9),
        Action::Next,
    ] {
        update(&mut app, action);
    }
    assert!(app.at_end());
    for action in [Action::GoToStep, Action::Digit(2), Action::Back] {
        update(&mut app, action);
    }
    assert!(app.at_end() && app.step_prompt.is_none());
    // Without the prompt a digit still opens a run.
    update(&mut app, Action::Digit(2));
    assert_eq!(app.runs().0, 1);
}

#[test]
fn a_run_opens_on_the_step_it_is_asked_for() {
    let settings = Settings {
        step: Some(4),
        ..Settings::default()
    };
    let app = App::new(builtins(), 0, settings);
    assert_eq!(app.cursor(), 3);
}

#[test]
fn x_shows_what_each_call_sends_growing_call_by_call() {
    let mut app = aurora();
    let text = drive(&mut app, 80, 24, &["End", "x"]).backend().to_string();
    assert!(text.contains("what each call sends"), "{text}");
    for bar in ["#1", "#2", "#3"] {
        assert!(text.contains(bar), "{bar} in {text}");
    }
    assert!(
        text.contains("call #3: all 5 messages, 538 chars"),
        "{text}"
    );
    assert!(text.contains("all 3 calls: 881 chars"), "{text}");
    let back = drive(&mut app, 80, 24, &["x"]).backend().to_string();
    assert!(!back.contains("what each call sends"));
}

/// Steps through the whole run in quiz mode, answering each question with
/// the next of `answers`; the score at the end.
fn quiz_through(run: &str, answers: &[u8]) -> (u32, u32) {
    let mut app = app_in(Lang::En, run);
    update(&mut app, Action::ToggleQuiz);
    let mut answers = answers.iter();
    while !app.at_end() {
        update(&mut app, Action::Next);
        if app.quiz.as_ref().unwrap().asking.is_some() {
            update(&mut app, Action::Digit(*answers.next().expect("an answer")));
        }
    }
    assert!(answers.next().is_none(), "every answer was asked for");
    let quiz = app.quiz.unwrap();
    (quiz.right, quiz.asked)
}

#[test]
fn the_quiz_scores_scripted_answers() {
    // aurora-run: two checks that dispatch, then one that answers.
    assert_eq!(quiz_through("aurora-run", &[1, 1, 2]), (3, 3));
    assert_eq!(quiz_through("aurora-run", &[1, 2, 2]), (2, 3));
    // At max_turns 2 the third call never comes: None.
    assert_eq!(quiz_through("aurora-run-max-turns-2", &[1, 1, 3]), (3, 3));
    assert_eq!(quiz_through("aurora-run-max-turns-2", &[2, 1, 2]), (1, 3));
}

#[test]
fn the_quiz_asks_before_the_check_shows_and_a_wrong_digit_waits() {
    let mut app = aurora();
    update(&mut app, Action::ToggleQuiz);
    update(&mut app, Action::Next); // to the call
    update(&mut app, Action::Next); // the check is next: a question
    assert_eq!(app.cursor(), 1, "the check is not shown before the guess");
    update(&mut app, Action::Digit(7));
    assert_eq!(app.cursor(), 1, "7 is no answer");
    let text = drive(&mut app, 80, 24, &[]).backend().to_string();
    assert!(text.contains("Quiz: what happens next?"), "{text}");
    update(&mut app, Action::Digit(1));
    assert_eq!(app.cursor(), 2);
    let text = drive(&mut app, 80, 24, &[]).backend().to_string();
    assert!(text.contains("quiz 1/1 · right"), "{text}");
}
