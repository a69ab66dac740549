//! The classroom's keys: the run playing by itself (the screen's event loop
//! sends a tick when no key comes within a phase's time; here the ticks are
//! sent by hand), and jumping to a step prepared beforehand.

use crate::common;

use std::time::Duration;

use common::screen::{app_in, builtins, drive};
use crossterm::event::{Event as TermEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use loopstep::narrate::Lang;
use loopstep::transcript::BUILTIN_NAMES;
use loopstep::tui::{Action, App, Mode, ScriptedEvents, Settings, run_app, update, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn aurora() -> App {
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
    assert!(app.playing());
    for _ in 0..50 {
        update(&mut app, Action::Tick);
    }
    assert!(app.at_end());
    assert!(!app.playing(), "it stops by itself at the end");
    // Played to the end, `a` plays it again from the start.
    update(&mut app, Action::ToggleAutoplay);
    assert_eq!(app.cursor(), 0);
    assert!(app.playing());
}

#[test]
fn a_key_that_moves_the_cursor_stops_it_and_others_do_not() {
    let mut app = aurora();
    update(&mut app, Action::ToggleAutoplay);
    update(&mut app, Action::Tick);
    update(&mut app, Action::ToggleWire);
    assert!(app.playing(), "showing the wire view moves nothing");
    update(&mut app, Action::Next);
    assert!(!app.playing());
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
    for action in [Action::GoToStep, Action::Type('1'), Action::Type('3')] {
        update(&mut app, action);
    }
    assert_eq!(app.mode(), &Mode::GoTo("13".into()));
    update(&mut app, Action::Erase); // Backspace takes the 3 back
    update(&mut app, Action::Type('1'));
    update(&mut app, Action::Submit); // Enter
    assert_eq!((app.cursor(), app.mode()), (10, &Mode::Normal));
    // Past the end: the last step. Esc leaves without moving.
    for action in [
        Action::GoToStep,
        Action::Type('9'),
        Action::Type('9'),
        Action::Submit,
    ] {
        update(&mut app, action);
    }
    assert!(app.at_end());
    for action in [Action::GoToStep, Action::Type('2'), Action::Back] {
        update(&mut app, action);
    }
    assert!(app.at_end() && *app.mode() == Mode::Normal);
    // Without the prompt a digit still opens a run.
    update(&mut app, Action::Digit(2));
    assert_eq!(app.runs().0, 1);
}

#[test]
fn the_step_prompt_takes_letters_as_text_not_commands() {
    let mut app = aurora();
    update(&mut app, Action::GoToStep);
    // `:abc`: once `a` started the autoplay and `c` switched the check.
    let check = app.config().check;
    for c in ['a', 'b', 'c', '4'] {
        update(&mut app, Action::Type(c));
    }
    assert_eq!(app.mode(), &Mode::GoTo("4".into()), "only digits count");
    assert!(!app.playing(), "a letter starts nothing");
    assert_eq!(app.config().check, check, "nor switches the check");
    update(&mut app, Action::Submit);
    assert_eq!(app.cursor(), 3);
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
    assert!(text.contains("call #3: 5 messages, 538 chars"), "{text}");
    let large = drive(&mut app, 120, 40, &[]).backend().to_string();
    assert!(
        large.contains("3 calls so far: recorded: 1631 tokens in, 138 out"),
        "{large}"
    );
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
        if matches!(app.mode(), Mode::Question(_)) {
            update(&mut app, Action::Digit(*answers.next().expect("an answer")));
        }
    }
    assert!(answers.next().is_none(), "every answer was asked for");
    let quiz = app.quiz().unwrap().clone();
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

/// Runs the real main loop at 80×24 over `events` and returns the frame.
fn drive_events(app: &mut App, events: Vec<TermEvent>) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_app(&mut terminal, app, &mut ScriptedEvents(events.into_iter())).unwrap();
    terminal.backend().to_string()
}

fn click(column: u16, row: u16) -> TermEvent {
    TermEvent::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// The column and row of the timeline's first mark in a drawn frame.
fn first_mark(text: &str) -> (u16, u16) {
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(" steps "))
        .expect("a timeline");
    let before = &line[..line.find(" steps ").unwrap() + " steps ".len()];
    // Each line of TestBackend's text opens with a quote.
    (before.chars().count() as u16 - 1, row as u16)
}

#[test]
fn a_click_on_a_timeline_mark_goes_to_its_step() {
    let mut app = aurora();
    let text = drive_events(&mut app, vec![]);
    let (column, row) = first_mark(&text);
    // aurora-run: start, then three turns of call, check, dispatch, append…
    drive_events(&mut app, vec![click(column + 6, row)]);
    assert_eq!(app.cursor(), 6);
    // …so the 12th mark is its answer.
    let text = drive_events(&mut app, vec![click(column + 11, row)]);
    assert!(app.at_end(), "{text}");
    assert!(text.contains("outcome: \"1974\""), "{text}");
    // A click beside the marks, or on another row, goes nowhere.
    drive_events(
        &mut app,
        vec![click(column + 12, row), click(column, row - 1)],
    );
    assert!(app.at_end());
    drive_events(&mut app, vec![click(column, row)]);
    assert_eq!(app.cursor(), 0);
}

#[test]
fn on_a_long_run_the_timeline_follows_the_cursor_and_clicks_land_there() {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "always-search")
        .unwrap();
    let settings = Settings {
        max_turns: std::num::NonZeroU32::new(10_000),
        step: Some(2_001),
        ..Settings::default()
    };
    let mut app = App::new(builtins(), index, settings);
    let text = drive_events(&mut app, vec![]);
    let (column, row) = first_mark(&text);
    // The cursor sits in the middle of the marks; the first is half a row back.
    drive_events(&mut app, vec![click(column, row)]);
    assert!((1_950..2_000).contains(&app.cursor()), "{}", app.cursor());
}

#[test]
fn in_quiz_mode_the_timeline_keeps_the_ending_to_itself() {
    let timeline = |text: &str| {
        text.lines()
            .find(|line| line.contains(" steps "))
            .unwrap()
            .to_owned()
    };
    let plain = drive(&mut aurora(), 80, 24, &[]).backend().to_string();
    assert!(timeline(&plain).contains('■'), "{plain}");
    let quiz = drive(&mut aurora(), 80, 24, &["Q"]).backend().to_string();
    assert!(!timeline(&quiz).contains('■'), "{quiz}");
    assert!(timeline(&quiz).contains("•…"), "more to come: {quiz}");
    // At the end the ending is out, and nothing more is promised.
    let end = drive(&mut aurora(), 80, 24, &["Q", "End"])
        .backend()
        .to_string();
    assert!(timeline(&end).contains("•■─"), "{end}");
}

#[test]
fn a_large_screen_shows_the_phase_in_large_letters_and_what_each_call_sends() {
    let mut app = aurora();
    let large = drive(&mut app, 120, 40, &["Right", "Right", "Right"])
        .backend()
        .to_string();
    assert!(large.contains("step 4/12 · turn 0 · dispatch"), "{large}");
    assert!(
        large.contains('▀') && large.contains('█'),
        "large letters: {large}"
    );
    assert!(large.contains("what each call sends · x hides"), "{large}");
    assert!(
        large.contains("tool search"),
        "the detail beside it: {large}"
    );
    // x hides it, and x shows it again; on a small screen it stays hidden
    // until asked for, and then takes the detail's place.
    let hidden = drive(&mut app, 120, 40, &["x"]).backend().to_string();
    assert!(!hidden.contains("what each call sends"), "{hidden}");
    let shown = drive(&mut app, 120, 40, &["x"]).backend().to_string();
    assert!(shown.contains("what each call sends · x hides"), "{shown}");
    let small = drive(&mut aurora(), 80, 24, &["Right"])
        .backend()
        .to_string();
    assert!(!small.contains("what each call sends") && !small.contains('▀'));
}

#[test]
fn the_mouse_wheel_scrolls_messages() {
    let mut app = app_in(Lang::En, "always-search");
    drive(&mut app, 80, 24, &["End"]);
    let wheel = |kind| {
        TermEvent::Mouse(MouseEvent {
            kind,
            column: 40,
            row: 5,
            modifiers: KeyModifiers::NONE,
        })
    };
    drive_events(&mut app, vec![wheel(MouseEventKind::ScrollUp)]);
    assert_eq!(app.scroll_back(), 1);
    drive_events(&mut app, vec![wheel(MouseEventKind::ScrollDown)]);
    assert_eq!(app.scroll_back(), 0);
}

#[test]
fn a_click_off_the_marks_changes_nothing() {
    // Not during the autoplay…
    let mut app = aurora();
    let text = drive_events(&mut app, vec![]);
    let (column, row) = first_mark(&text);
    update(&mut app, Action::ToggleAutoplay);
    update(&mut app, Action::Click(40, 5));
    update(&mut app, Action::Click(column + 30, row));
    assert!(app.playing() && app.cursor() == 0);
    update(&mut app, Action::Click(column + 2, row));
    assert!(!app.playing() && app.cursor() == 2, "a mark takes over");
    // …nor while the class is asked.
    let mut quiz = aurora();
    drive(&mut quiz, 80, 24, &["Q", "Right", "Right"]);
    assert!(matches!(quiz.mode(), Mode::Question(_)));
    drive_events(&mut quiz, vec![click(40, 5)]);
    assert!(
        matches!(quiz.mode(), Mode::Question(_)),
        "the question stands"
    );
}

#[test]
fn reached_marks_are_bright_and_those_ahead_dim() {
    let mut app = aurora();
    let terminal = drive(&mut app, 80, 24, &["Right", "Right", "Right"]);
    let text = terminal.backend().to_string();
    let (column, row) = first_mark(&text);
    let buffer = terminal.backend().buffer();
    let (reached, ahead) = (buffer[(column + 1, row)].fg, buffer[(column + 5, row)].fg);
    assert_ne!(reached, ahead);
    assert_eq!(reached, app.theme().ink(ratatui::style::Color::Reset));
}

#[test]
fn on_a_large_screen_the_timeline_stays_under_the_detail() {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "always-search")
        .unwrap();
    let settings = Settings {
        max_turns: std::num::NonZeroU32::new(1_000),
        step: Some(500),
        ..Settings::default()
    };
    let mut app = App::new(builtins(), index, settings);
    let text = drive(&mut app, 200, 50, &[]).backend().to_string();
    let row = text.lines().find(|l| l.contains(" steps ")).unwrap();
    // The detail's corner, then the growth panel's border, untouched.
    assert!(row.contains("┘└─"), "{row}");
}
