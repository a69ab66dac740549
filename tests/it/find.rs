//! `/` finds a text anywhere in a run, `n` and `N` go from match to match,
//! and on a long run the scan goes a slice at a time, a key answered between.

use crate::common;

use common::generated::openai_log;
use common::screen::{app_in, drive};
use loopstep::engine::Event;
use loopstep::narrate::Lang;
use loopstep::transcript::{Localized, import};
use loopstep::tui::{Action, App, Mode, Settings, update};

/// `/`, the text, Enter.
fn search_keys(text: &str) -> Vec<String> {
    let mut keys = vec!["/".to_owned()];
    keys.extend(text.chars().map(String::from));
    keys.push("Enter".to_owned());
    keys
}

fn search(app: &mut App, text: &str, then: &[&str]) -> String {
    let mut keys = search_keys(text);
    keys.extend(then.iter().map(|k| k.to_string()));
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    drive(app, 80, 24, &keys).backend().to_string()
}

#[test]
fn slash_goes_to_the_first_match_and_n_and_shift_n_go_on_and_back() {
    let mut app = app_in(Lang::En, "aurora-run");
    // "mara" is in the first result (step 4), its append (5), the second
    // call's reply (6) and its dispatch and append (8, 9).
    let text = search(&mut app, "mara", &[]);
    assert_eq!(app.cursor(), 3, "{text}");
    assert!(text.contains("/mara: 1 of 5 · n/N"), "{text}");
    let mut visited = vec![app.cursor()];
    for _ in 0..5 {
        drive(&mut app, 80, 24, &["n"]);
        visited.push(app.cursor());
    }
    assert_eq!(
        visited,
        [3, 4, 5, 7, 8, 3],
        "n goes on, and past the last to the first"
    );
    drive(&mut app, 80, 24, &["N"]);
    assert_eq!(app.cursor(), 8, "N from the first goes back to the last");
    let text = drive(&mut app, 80, 24, &["N"]).backend().to_string();
    assert!(text.contains("/mara: 4 of 5"), "{text}");
    // Esc clears the search; n is the next turn again.
    let text = drive(&mut app, 80, 24, &["Esc", "n"]).backend().to_string();
    assert!(!text.contains("/mara") && !app.should_quit(), "{text}");
    assert_eq!(app.step().turn, 2);
}

#[test]
fn lower_case_ignores_case_and_a_capital_does_not() {
    let mut app = app_in(Lang::En, "aurora-run");
    search(&mut app, "MARA", &[]);
    let text = drive(&mut app, 80, 24, &[]).backend().to_string();
    assert!(text.contains("/MARA: no match"), "{text}");
    assert_eq!(app.cursor(), 0, "no match: the cursor stays");
    let text = search(&mut app, "Mara", &[]);
    assert!(text.contains("/Mara: 1 of 5"), "{text}");
}

#[test]
fn it_finds_ids_tool_names_and_folded_text() {
    let mut app = app_in(Lang::En, "aurora-run");
    // An id shown folded on screen, "…raVoss".
    let text = search(&mut app, "toolu_02maravoss", &[]);
    assert!(text.contains("1 of 3"), "{text}");
    assert!(matches!(app.step().event, Event::Call { .. }));
    // The middle of a long result.
    search(&mut app, "feature film of the same name", &[]);
    assert!(matches!(app.step().event, Event::Dispatch { .. }));
}

#[test]
fn typed_letters_are_text_not_commands_and_esc_cancels() {
    let mut app = app_in(Lang::En, "aurora-run");
    // q, l and n would quit, step and turn outside the prompt.
    let text = drive(&mut app, 80, 24, &["/", "q", "l", "n"])
        .backend()
        .to_string();
    assert!(text.contains("/qln▏"), "{text}");
    assert!(!app.should_quit() && app.cursor() == 0);
    drive(&mut app, 80, 24, &["Esc"]);
    assert!(app.search().is_none() && *app.mode() == Mode::Normal && !app.should_quit());
}

#[test]
fn in_chinese_it_finds_chinese() {
    let mut app = app_in(Lang::Zh, "aurora-run");
    let text = search(&mut app, "导演", &[]);
    assert!(text.contains("/导演：第 1 个"), "{text}");
    assert_eq!(app.cursor(), 0, "the question itself asks for the director");
    drive(&mut app, 80, 24, &["n"]);
    assert_eq!(
        app.cursor(),
        1,
        "then the first reply speaks of the director"
    );
}

#[test]
fn a_change_to_the_run_finds_the_matches_again() {
    let mut app = app_in(Lang::En, "aurora-run");
    search(&mut app, "mara", &[]);
    // At max_turns 1 the run ends before Mara Voss is searched for.
    let text = drive(
        &mut app,
        80,
        24,
        &["End", "-", "-", "-", "-", "-", "-", "-", "-", "-"],
    )
    .backend()
    .to_string();
    assert!(text.contains("/mara: – of 2 ·"), "{text}");
}

/// A generated 10,000-turn OpenAI log: each round fetches its own page.
fn long_run() -> Vec<Localized> {
    let source = import::load(openai_log(10_000, 256), "long", "long", None, Lang::En).unwrap();
    source.runs.into_iter().map(Localized::from).collect()
}

/// `/`, the text and Enter, as actions.
fn type_search(app: &mut App, text: &str) {
    update(app, Action::Search);
    text.chars().for_each(|c| update(app, Action::Type(c)));
    update(app, Action::Submit);
}

/// The slices of work between frames, until there is none.
fn work_out(app: &mut App) {
    while app.working() {
        app.work();
    }
}

#[test]
fn on_a_10000_turn_run_the_scan_goes_in_slices_and_keys_are_answered_between() {
    let runs = long_run();
    let mut app = App::new(&runs, 0, Settings::default());
    type_search(&mut app, "example.org/9876\"");
    // The scan goes to the match when it finds it…
    work_out(&mut app);
    assert_eq!(app.step().turn, 9_876, "the call that fetched page 9876");
    assert!(matches!(app.step().event, Event::Call { .. }));
    // The call and its dispatch both carry the address.
    assert_eq!(
        app.search().unwrap().tally(app.cursor()),
        (Some(1), 2, false)
    );
    // …but a key between two slices is answered at once, and a move of
    // one's own is not overridden when the match turns up later.
    update(&mut app, Action::Start);
    type_search(&mut app, "7777");
    // Before any slice: the first match, at turn 7777, is still to find.
    assert!(app.working());
    update(&mut app, Action::Next);
    assert_eq!(app.cursor(), 1);
    work_out(&mut app);
    assert_eq!(app.cursor(), 1, "the reader's own move stands");
    // n then goes on from there.
    update(&mut app, Action::NextMatch);
    assert_eq!(app.step().turn, 7_777);
}
