//! Jumping by structure: the next model call, tool call, user prompt, and
//! the next step where something went wrong, which the title counts.

use crate::common;

use common::generated::conversation;
use common::screen::{app_in, drive};
use loopstep::engine::{Event, MAX_TURNS};
use loopstep::narrate::Lang;
use loopstep::transcript::{BUILTIN_NAMES, Localized, import};
use loopstep::tui::{App, Settings};

/// Where the cursor is after each key, from the start of `run`.
fn cursors(run: &str, keys: &[&str]) -> Vec<usize> {
    let mut app = app_in(Lang::En, run);
    keys.iter()
        .map(|key| {
            drive(&mut app, 80, 24, &[key]);
            app.cursor()
        })
        .collect()
}

#[test]
fn braces_go_from_model_call_to_model_call() {
    // aurora-run: the calls are steps 2, 6 and 10 (indexes 1, 5, 9).
    assert_eq!(
        cursors("aurora-run", &["}", "}", "}", "}", "{", "{"]),
        [1, 5, 9, 9, 5, 1]
    );
}

#[test]
fn d_goes_from_tool_call_to_tool_call() {
    // parallel-tools runs two tools in one turn; then it answers.
    let steps = cursors("parallel-tools", &["d", "d", "d", "D"]);
    assert_eq!(steps, [3, 4, 4, 3]);
}

#[test]
fn u_goes_from_user_prompt_to_user_prompt_in_a_multi_prompt_log() {
    // A log of three prompts opens as three runs, each going on from the last.
    let log = conversation(3, 2, 100);
    let source = import::load(log, "three", "three", None, Lang::En).unwrap();
    let runs: Vec<Localized> = source.runs.into_iter().map(Localized::from).collect();
    assert_eq!(runs.len(), 3);
    let mut app = App::new(&runs, 0, Settings::default());
    let mut prompts = Vec::new();
    for _ in 0..3 {
        drive(&mut app, 80, 24, &["Right", "Right", "u"]);
        prompts.push((app.runs().0, app.cursor()));
    }
    assert_eq!(
        prompts,
        [(1, 0), (2, 0), (2, 2)],
        "the last prompt's run: u stays"
    );
    drive(&mut app, 80, 24, &["U", "U"]);
    assert_eq!(
        (app.runs().0, app.cursor()),
        (1, 0),
        "back to the run before"
    );
    let question = app.transcript().question.clone();
    assert!(question.contains("Question number 1"), "{question}");
    // Built-in lessons are separate runs: u does not leave one for the next.
    let mut lesson = app_in(Lang::En, "aurora-run");
    drive(&mut lesson, 80, 24, &["u"]);
    assert_eq!((lesson.runs().0, lesson.cursor()), (0, 0));
}

#[test]
fn the_title_counts_what_went_wrong_and_bang_goes_there() {
    let first = |text: String| text.lines().next().unwrap().to_owned();
    let mut app = app_in(Lang::En, "malformed-request");
    let title = first(drive(&mut app, 100, 24, &[]).backend().to_string());
    assert!(title.contains("2 errors (!)"), "{title}");
    let mut visited = Vec::new();
    for _ in 0..3 {
        drive(&mut app, 100, 24, &["!"]);
        visited.push(app.cursor());
    }
    assert_eq!(visited, [3, 4, 3], "the two failed tools, then round again");
    for &at in &visited {
        assert!(app.trace().steps[at].event.goes_wrong());
    }
    // A spent budget is no error (None is the loop's legitimate result),
    // nor is a run that goes well: neither counts, and ! stays.
    for run in ["aurora-run-max-turns-2", "aurora-run"] {
        let mut app = app_in(Lang::En, run);
        let title = first(drive(&mut app, 100, 24, &["!"]).backend().to_string());
        assert!(!title.contains("error"), "{run}: {title}");
        assert_eq!(app.cursor(), 0, "{run}");
    }
}

#[test]
fn on_a_long_run_bang_looks_through_all_of_it_and_a_spent_budget_is_no_error() {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "always-search")
        .unwrap();
    let settings = Settings {
        max_turns: std::num::NonZeroU32::new(MAX_TURNS),
        ..Settings::default()
    };
    let mut app = App::new(common::screen::builtins(), index, settings);
    assert_eq!(
        app.wrong_count(),
        (0, true),
        "nothing wrong in the part replayed"
    );
    let title = drive(&mut app, 100, 24, &["!"]).backend().to_string();
    // The whole run replayed to look, nothing found, the cursor unmoved.
    assert_eq!(app.wrong_count(), (0, false));
    assert_eq!(app.cursor(), 0);
    assert!(!title.lines().next().unwrap().contains("error"), "{title}");
}

#[test]
fn on_a_generated_10000_turn_log_bang_finds_where_the_recording_stops() {
    // The log without its closing answer: the recording ends after the last
    // result, with no reply for the next call — an import gap, at the far end.
    let log = common::generated::openai_log(10_000, 64);
    let mut doc: serde_json::Value = serde_json::from_str(&log).unwrap();
    doc["messages"].as_array_mut().unwrap().pop();
    let source = import::load(doc.to_string(), "cut", "cut", None, Lang::En).unwrap();
    let runs: Vec<Localized> = source.runs.into_iter().map(Localized::from).collect();
    let mut app = App::new(&runs, 0, Settings::default());
    assert_eq!(app.wrong_count(), (0, true));
    let title = drive(&mut app, 100, 24, &["!"]).backend().to_string();
    assert!(app.at_end());
    assert!(matches!(app.step().event, Event::RecordingEnded));
    assert_eq!(app.step().turn, 10_000);
    assert!(
        title.lines().next().unwrap().contains("1 error (!)"),
        "{title}"
    );
    // Round again: from the end, ! stays on the only one.
    drive(&mut app, 100, 24, &["!"]);
    assert!(app.at_end());
}
