//! `loopstep compare`: the screen, driven by scripted keys through its
//! real main loop into a `TestBackend`, and the command's text and JSON.

use crate::common;

use std::num::NonZeroU32;

use common::screen::{builtins, key, rows, same_in_both};
use common::{says, search_doc};
use loopstep::narrate::Lang;
use loopstep::transcript::{BUILTIN_NAMES, Localized, Transcript};
use loopstep::tui::compare::{Compare, Parting, run_compare};
use loopstep::tui::{ScriptedEvents, Settings, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Value;

/// Settings with a budget of `max_turns` calls (the run's own for `None`).
fn budget(lang: Lang, max_turns: Option<u32>) -> Settings {
    Settings {
        lang,
        max_turns: max_turns.and_then(NonZeroU32::new),
        ..Settings::default()
    }
}

/// aurora-run at its own budget of 10 on the left, at 2 on the right.
fn aurora_ten_against_two(lang: Lang) -> Compare {
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "aurora-run")
        .unwrap();
    Compare::new(
        builtins(),
        [(index, budget(lang, None)), (index, budget(lang, Some(2)))],
    )
}

/// Runs the compare screen's main loop over `keys`; the last frame, drawn
/// once more on a cleared screen (see `common::screen::drive`).
fn drive(compare: &mut Compare, width: u16, height: u16, keys: &[&str]) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut events = ScriptedEvents(keys.iter().map(|k| key(k)));
    run_compare(&mut terminal, compare, &mut events).unwrap();
    terminal.clear().unwrap();
    terminal
        .draw(|frame| view::draw_compare(frame, compare))
        .unwrap();
    rows(terminal.backend().buffer()).join("\n")
}

/// Where both sides stand: (the shared step, left cursor, right cursor), 0-based.
fn cursors(compare: &Compare) -> (usize, usize, usize) {
    use loopstep::narrate::Side;
    (
        compare.step(),
        compare.side(Side::Left).cursor(),
        compare.side(Side::Right).cursor(),
    )
}

#[test]
fn ten_turns_against_two_diverge_at_the_third_call_and_v_goes_there() {
    let mut compare = aurora_ten_against_two(Lang::En);
    let screen = drive(&mut compare, 120, 40, &["v"]);
    // Step 10: the left calls the model a third time, the right is out of turns.
    assert_eq!(compare.parting(), Parting::At(9));
    assert_eq!(cursors(&compare), (9, 9, 9));
    assert!(
        screen.contains("◆ first divergence: step 10 — left: call · right: budget spent → None"),
        "{screen}"
    );
    insta::assert_snapshot!("aurora_10_against_2_at_the_divergence_120x40", screen);
    // From anywhere, ahead of it or past it.
    let mut compare = aurora_ten_against_two(Lang::En);
    drive(&mut compare, 120, 40, &["End", "v"]);
    assert_eq!(cursors(&compare), (9, 9, 9));
}

#[test]
fn both_sides_step_together_and_back() {
    let mut compare = aurora_ten_against_two(Lang::En);
    let first = drive(&mut compare, 120, 40, &[]);
    assert_eq!(cursors(&compare), (0, 0, 0));
    assert!(first.contains("v goes there"), "{first}");
    let screen = drive(&mut compare, 120, 40, &["Right", "Right", "Right"]);
    assert_eq!(cursors(&compare), (3, 3, 3));
    assert_eq!(screen.matches("step 4/").count(), 2, "{screen}");
    // A turn on, both: the second call.
    drive(&mut compare, 120, 40, &["n"]);
    assert_eq!(cursors(&compare), (5, 5, 5));
    drive(&mut compare, 120, 40, &["p", "Left", "Home"]);
    assert_eq!(cursors(&compare), (0, 0, 0));
    assert_eq!(drive(&mut compare, 120, 40, &[]), first);
}

#[test]
fn at_the_end_the_side_that_ended_sooner_stays_on_its_last_step_and_says_so() {
    let mut compare = aurora_ten_against_two(Lang::En);
    let screen = drive(&mut compare, 120, 40, &["End"]);
    assert_eq!(cursors(&compare), (11, 11, 9));
    assert!(
        screen.contains("ended here · step 10/10 · turn 1 · budget spent"),
        "{screen}"
    );
    assert!(screen.contains("outcome: \"1974\""), "{screen}");
    assert!(screen.contains("outcome: None"), "{screen}");
    // Past the right's end step by step: the right stays put.
    let mut compare = aurora_ten_against_two(Lang::En);
    drive(&mut compare, 120, 40, &["Right"; 30]);
    assert_eq!(cursors(&compare), (11, 11, 9));
    drive(&mut compare, 120, 40, &["Left"]);
    assert_eq!(cursors(&compare), (10, 10, 9));
}

#[test]
fn the_same_run_under_the_same_settings_never_diverges() {
    let index = BUILTIN_NAMES.iter().position(|n| *n == "paris").unwrap();
    let settings = budget(Lang::En, None);
    let mut compare = Compare::new(builtins(), [(index, settings), (index, settings)]);
    let screen = drive(&mut compare, 80, 24, &["v"]);
    assert_eq!(compare.parting(), Parting::Nowhere);
    assert_eq!(cursors(&compare), (0, 0, 0), "v stays where it is");
    assert!(
        screen.contains("no divergence: both runs take the same 4 steps"),
        "{screen}"
    );
}

#[test]
fn at_80x24_both_columns_fit() {
    let mut compare = aurora_ten_against_two(Lang::En);
    insta::assert_snapshot!(
        "aurora_10_against_2_at_the_divergence_80x24",
        drive(&mut compare, 80, 24, &["v"])
    );
}

#[test]
fn a_too_small_terminal_says_how_large_it_needs_to_be() {
    let mut compare = aurora_ten_against_two(Lang::En);
    let screen = drive(&mut compare, 60, 12, &["Right"]);
    assert!(
        screen.contains("at least 80×24") && screen.contains("60×12"),
        "{screen}"
    );
    // Even a terminal of one cell is handled without a panic.
    drive(&mut compare, 1, 1, &["Right", "v", "End", "?"]);
}

#[test]
fn in_chinese() {
    let mut compare = aurora_ten_against_two(Lang::Zh);
    let screen = drive(&mut compare, 120, 40, &["v"]);
    assert!(
        screen.contains("第一处分歧：第 10 步 — 左侧：调用 · 右侧：预算耗尽 → None"),
        "{screen}"
    );
    insta::assert_snapshot!("zh_aurora_10_against_2_at_the_divergence_120x40", screen);
    // L switches both sides, in place.
    let mut compare = aurora_ten_against_two(Lang::En);
    let screen = drive(&mut compare, 120, 40, &["v", "L"]);
    assert_eq!(cursors(&compare), (9, 9, 9));
    assert!(screen.contains("第一处分歧：第 10 步"), "{screen}");
}

#[test]
fn the_help_lists_the_compare_keys_and_closes_again() {
    let mut compare = aurora_ten_against_two(Lang::En);
    let screen = drive(&mut compare, 80, 24, &["?"]);
    assert!(
        screen.contains("go to the first step where the two runs part"),
        "{screen}"
    );
    drive(&mut compare, 80, 24, &["Right"]);
    assert_eq!(cursors(&compare), (0, 0, 0), "the help keeps the keys");
    drive(&mut compare, 80, 24, &["Esc", "Right"]);
    assert_eq!(cursors(&compare), (1, 1, 1));
    assert!(!compare.show_help && !compare.should_quit);
}

#[test]
fn escape_sequences_in_a_run_show_sanitized() {
    let hostile = "\u{1b}[2J\u{1b}]0;owned\u{7}1974";
    let mut doc = search_doc(vec![says(hostile, "end_turn")], 3);
    doc["id"] = "evil\u{1b}[31m".into();
    doc["question"] = "Who? \u{1b}[5m blink".into();
    let run = Transcript::parse(&doc.to_string(), "hostile").unwrap();
    let runs: &'static [Localized] = Box::leak(same_in_both(vec![run]).into_boxed_slice());
    let settings = budget(Lang::En, None);
    let mut compare = Compare::new(runs, [(0, settings), (0, budget(Lang::En, Some(1)))]);
    let screen = drive(&mut compare, 120, 40, &["End"]);
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen}"
    );
    assert!(screen.contains("evil␛[31m"), "{screen}");
    assert!(screen.contains("␛[2J"), "{screen}");
}

fn loopstep(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn compare_format_json_reports_the_first_divergence() {
    let out = loopstep(&[
        "compare",
        "aurora-run",
        "aurora-run",
        "--right-max-turns",
        "2",
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["left"]["max_turns"], 10);
    assert_eq!(report["left"]["outcome"], "answered");
    assert_eq!(report["right"]["max_turns"], 2);
    assert_eq!(report["right"]["outcome"], "budget_exhausted");
    let divergence = &report["first_divergence"];
    assert_eq!(divergence["step"], 10);
    assert_eq!(divergence["left"]["phase"], "call");
    assert_eq!(divergence["left"]["turn"], 2);
    assert_eq!(divergence["right"]["phase"], "budget_exhausted");

    // The same settings on both sides: no divergence.
    let out = loopstep(&["compare", "paris", "paris", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["first_divergence"], Value::Null);
}

#[test]
fn compare_prints_a_summary_when_no_terminal_is_there() {
    let out = loopstep(&[
        "compare",
        "paris",
        "paris",
        "--right-check",
        "lesson",
        "--left-max-turns",
        "3",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("left   paris · max_turns 3 · production check"),
        "{text}"
    );
    assert!(
        text.contains("right  paris · max_turns 10 · lesson check"),
        "{text}"
    );
}

#[test]
fn a_misspelt_run_is_bad_input_with_a_suggestion() {
    let out = loopstep(&["compare", "aurora-run", "pariss"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("Did you mean `paris`?"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = loopstep(&["compare", "paris", "paris", "--right-max-turns", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
