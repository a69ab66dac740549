//! The screen on runs far longer than a lesson: it replays only as far as
//! it shows, seeks the end a slice at a time with a gauge, and lets a key
//! call the seeking off.

use crate::common;

use std::num::NonZeroU32;

use common::screen::{builtins, drive};
use loopstep::engine::{Event, MAX_TURNS};
use loopstep::narrate::Lang;
use loopstep::transcript::{BUILTIN_NAMES, Localized, import};
use loopstep::tui::{Action, App, Settings, update};

fn always_search(max_turns: u32) -> App {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "always-search")
        .unwrap();
    let settings = Settings {
        max_turns: NonZeroU32::new(max_turns),
        ..Settings::default()
    };
    App::new(builtins(), index, settings)
}

#[test]
fn a_run_of_the_largest_budget_opens_having_replayed_only_a_little() {
    let app = always_search(MAX_TURNS);
    assert!(!app.trace_complete());
    assert!(
        app.trace().steps.len() < 2_000,
        "{}",
        app.trace().steps.len()
    );
    let text = drive(&mut always_search(MAX_TURNS), 80, 24, &[])
        .backend()
        .to_string();
    assert!(text.contains("step 1/1001+"), "{text}");
}

#[test]
fn end_replays_to_the_end_of_a_long_run_and_the_gauge_turns_red() {
    let mut app = always_search(20_000);
    let text = drive(&mut app, 80, 24, &["End"]).backend().to_string();
    assert!(app.at_end());
    assert_eq!(
        app.step().event,
        Event::BudgetExhausted { max_turns: 20_000 }
    );
    assert!(text.contains("20000/20000 · None"), "{text}");
}

#[test]
fn esc_calls_off_the_seeking_and_leaves_the_cursor_where_it_was() {
    let mut app = always_search(MAX_TURNS);
    update(&mut app, Action::Next);
    update(&mut app, Action::End);
    // One slice of replay is far too little for 100,000 turns.
    assert!(app.working());
    let seen = app.trace().steps.len();
    update(&mut app, Action::Back);
    assert!(!app.working());
    assert!(!app.should_quit(), "Esc stops the seeking, not the screen");
    assert_eq!(app.cursor(), 1);
    assert!(app.trace().steps.len() >= seen, "what was replayed stays");
}

#[test]
fn a_key_during_the_seeking_calls_it_off_and_does_its_own_work() {
    let mut app = always_search(MAX_TURNS);
    update(&mut app, Action::End);
    assert!(app.working());
    update(&mut app, Action::Next);
    assert!(!app.working());
    assert_eq!(app.cursor(), 1);
}

#[test]
fn lowering_the_budget_at_the_end_of_a_long_run_cuts_it_one_call_sooner() {
    let mut app = always_search(5_000);
    drive(&mut app, 80, 24, &["End", "-", "-"]);
    assert!(app.at_end());
    assert_eq!(
        app.step().event,
        Event::BudgetExhausted { max_turns: 4_998 }
    );
    drive(&mut app, 80, 24, &["+"]);
    assert_eq!(
        app.step().event,
        Event::BudgetExhausted { max_turns: 4_999 }
    );
}

#[test]
fn a_run_deep_in_a_long_log_opens_on_its_newest_messages_the_rest_counted() {
    // The third prompt's run opens with the two before it: 2 × (1 + 2 × 300
    // + 1) = 1,204 messages of history, then its question.
    let log = common::generated::conversation(3, 300, 100);
    let source = import::load(log, "long", "long", None, Lang::En).unwrap();
    let runs: Vec<Localized> = source.runs.into_iter().map(Localized::from).collect();
    let mut app = App::new(&runs, 2, Settings::default());
    let text = drive(&mut app, 120, 40, &[]).backend().to_string();
    assert!(text.contains("messages holds 1205 messages"), "{text}");
    assert!(
        text.contains("… 1197 earlier messages: the history"),
        "{text}"
    );
    // The wire view folds the same opening to its newest messages.
    let text = drive(&mut app, 120, 40, &["w"]).backend().to_string();
    assert!(
        text.contains("… 1199 earlier messages, resent in full"),
        "{text}"
    );
}
