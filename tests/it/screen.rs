//! The teaching screen, driven by scripted keys through the real main loop
//! into a `TestBackend`: snapshots at 80×24 and 120×40, styles, navigation.

use crate::common;

use common::screen::{app_in, app_with, builtins, drive, same_in_both};
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use loopstep::dialect::Dialect;
use loopstep::engine::CheckPolicy;
use loopstep::narrate::{Lang, Say};
use loopstep::transcript::{BUILTIN_NAMES, Transcript};
use loopstep::tui::theme::Theme;
use loopstep::tui::view::{BudgetState, budget_gauge};
use loopstep::tui::{App, ScriptedEvents, Settings, run_app};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;

fn app_on(run: &str) -> App {
    app_in(Lang::En, run)
}

fn screen(run: &str, width: u16, height: u16, keys: &[&str]) -> String {
    let terminal = drive(&mut app_on(run), width, height, keys);
    terminal.backend().to_string()
}

/// A named colour as the default theme draws it, as text and as a background.
fn ink(colour: Color) -> Color {
    Theme::default().ink(colour)
}

fn fill(colour: Color) -> Color {
    Theme::default().fill(colour)
}

fn buffer(terminal: &Terminal<TestBackend>) -> Buffer {
    terminal.backend().buffer().clone()
}

/// The first cell whose symbol starts `text` on some row.
fn find(buffer: &Buffer, text: &str) -> (u16, u16) {
    let area = buffer.area;
    for y in 0..area.height {
        let row: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        if let Some(byte) = row.find(text) {
            let x = row[..byte].chars().count() as u16;
            return (x, y);
        }
    }
    panic!("{text:?} is not on screen");
}

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn snapshot_at_both_sizes(name: &str, run: &str, keys: &[&str]) {
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(run, w, h, keys));
    }
}

#[test]
fn first_screen() {
    snapshot_at_both_sizes("first_screen", "aurora-run", &[]);
}

#[test]
fn aurora_run_after_the_first_dispatch() {
    snapshot_at_both_sizes(
        "aurora_first_dispatch",
        "aurora-run",
        &["Right", "Right", "Right"],
    );
}

#[test]
fn aurora_run_answered() {
    // At 80×24 this is `final_aurora-run_80x24`, below.
    let large = screen("aurora-run", 120, 40, &["End"]);
    insta::assert_snapshot!("aurora_answered_120x40", large);
}

#[test]
fn aurora_run_lowered_live_to_two_turns() {
    let lower = ["End", "-", "-", "-", "-", "-", "-", "-", "-"];
    snapshot_at_both_sizes("aurora_lowered_to_2", "aurora-run", &lower);
    let terminal = drive(&mut app_on("aurora-run"), 80, 24, &lower);
    let buffer = buffer(&terminal);
    let (x, y) = find(&buffer, "model calls 2 / max_turns 2");
    assert_eq!(
        buffer[(0, y)].fg,
        ink(Color::Red),
        "the gauge is red once the budget is spent"
    );
    assert_eq!(
        buffer[(x, y)].bg,
        fill(Color::Red),
        "the label sits on the red bar"
    );
    let (x, y) = find(&buffer, "outcome: None");
    assert_eq!(
        buffer[(x + "outcome: ".len() as u16, y)].fg,
        ink(Color::Red)
    );
    find(&buffer, "spent → None, not an answer");
}

#[test]
fn paris_answered() {
    // At 80×24 this is `final_paris_80x24`, below.
    insta::assert_snapshot!("paris_answered_120x40", screen("paris", 120, 40, &["End"]));
}

#[test]
fn help_overlay() {
    snapshot_at_both_sizes("help_overlay", "aurora-run", &["?"]);
}

#[test]
fn a_too_small_terminal_says_how_large_it_needs_to_be() {
    let text = screen("aurora-run", 60, 12, &[]);
    insta::assert_snapshot!("too_small_60x12", text);
    assert!(text.contains("at least 80×24") && text.contains("60×12"));
    // Even a terminal of one cell is handled without a panic.
    screen("aurora-run", 1, 1, &["Right"]);
}

#[test]
fn the_gauge_is_coloured_by_what_is_left() {
    let area = Rect::new(0, 0, 60, 1);
    let cases = [
        (BudgetState::Left, 1, 10, Color::Green, " / max_turns 10"),
        (BudgetState::LastTurn, 2, 2, Color::Yellow, " / max_turns 2"),
        (BudgetState::Spent, 2, 2, Color::Red, " / max_turns 2"),
        // A loop without a budget: the safety cap is what stops it.
        (
            BudgetState::NoBudget,
            7,
            4,
            Color::Yellow,
            " · no max_turns · safety cap 100",
        ),
    ];
    for (state, used, max, colour, label) in cases {
        let mut buffer = Buffer::empty(area);
        let say = Say::new(Lang::En, Dialect::AnthropicMessages);
        budget_gauge(say, used, max, state, area.width).render(area, &mut buffer);
        // The first cell is in the filled part; the last in the empty part.
        assert_eq!(buffer[(0, 0)].fg, colour, "{state:?} filled");
        if used < max as usize {
            assert_eq!(
                buffer[(59, 0)].fg,
                colour,
                "{state:?} empty part keeps the colour"
            );
        }
        let text: String = (0..60).map(|x| buffer[(x, 0)].symbol()).collect();
        assert!(
            text.contains(&format!("model calls {used}{label}")),
            "{text}"
        );
    }
}

#[test]
fn a_narrow_gauge_shortens_its_label_instead_of_cutting_its_numbers() {
    let area = Rect::new(0, 0, 30, 1);
    let say = Say::new(Lang::En, Dialect::AnthropicMessages);
    let mut buffer = Buffer::empty(area);
    budget_gauge(say, 100, 4, BudgetState::NoBudget, area.width).render(area, &mut buffer);
    let text: String = (0..30).map(|x| buffer[(x, 0)].symbol()).collect();
    assert!(text.contains("100 calls · cap 100"), "{text}");
}

#[test]
fn the_gauge_warns_on_the_last_turn_of_the_replay() {
    let mut app = app_on("aurora-run");
    let terminal = drive(
        &mut app,
        80,
        24,
        &["End", "-", "-", "-", "-", "-", "-", "-"],
    );
    assert_eq!(app.config().max_turns.get(), 3);
    let buffer = buffer(&terminal);
    let (_, y) = find(&buffer, "model calls 3 / max_turns 3");
    assert_eq!(buffer[(0, y)].fg, ink(Color::Yellow));
}

#[test]
fn stepping_through_and_back_returns_to_the_first_screen_exactly() {
    let first = screen("aurora-run", 80, 24, &[]);
    let mut keys = vec!["Right"; 10];
    keys.extend(["Left"; 10]);
    assert_eq!(screen("aurora-run", 80, 24, &keys), first);
    let mut app = app_on("aurora-run");
    drive(&mut app, 80, 24, &["Right"; 30]);
    assert!(app.at_end(), "stepping stops at the end");
    assert_eq!(screen("aurora-run", 80, 24, &["End", "g"]), first);
}

#[test]
fn plus_and_minus_at_the_end_toggle_between_1974_and_none() {
    let mut app = app_on("aurora-run");
    let at = |app: &App| {
        (
            app.config().max_turns.get(),
            app.trace().result().map(str::to_owned),
        )
    };
    drive(&mut app, 80, 24, &["End"]);
    assert_eq!(at(&app), (10, Some("1974".into())));
    for (key, expected) in [("-", None), ("+", Some("1974"))] {
        // Walk the budget down to 2 (or back up to 3) and check the end state.
        let presses = if key == "-" { vec!["-"; 8] } else { vec!["+"] };
        drive(&mut app, 80, 24, &presses);
        assert!(app.at_end(), "the cursor stays at the end");
        assert_eq!(app.trace().result(), expected);
        let text = drive(&mut app, 80, 24, &[]).backend().to_string();
        match expected {
            Some(answer) => assert!(text.contains(&format!("outcome: \"{answer}\""))),
            None => assert!(text.contains("outcome: None")),
        }
    }
    assert_eq!(at(&app), (3, Some("1974".into())));
    drive(&mut app, 80, 24, &["r"]);
    assert_eq!(at(&app), (10, Some("1974".into())));
    drive(&mut app, 80, 24, &["-"; 20]);
    assert_eq!(
        app.config().max_turns.get(),
        1,
        "the budget never goes below 1"
    );
}

#[test]
fn changing_the_budget_mid_run_keeps_the_cursor_on_the_same_step() {
    let mut app = app_on("aurora-run");
    drive(&mut app, 80, 24, &["Right", "Right"]);
    let before = app.step().clone();
    drive(&mut app, 80, 24, &["-", "-", "-"]);
    assert_eq!(app.step(), &before);
    assert_eq!(app.cursor(), 2);
    assert_eq!(before.event.phase().as_str(), "check");
}

#[test]
fn runs_switch_with_tab_and_numbers() {
    let mut app = app_on("aurora-run");
    drive(&mut app, 80, 24, &["Tab"]);
    assert_eq!(app.transcript().id, "paris");
    drive(&mut app, 80, 24, &["3"]);
    assert_eq!(app.transcript().id, "aurora-run-max-turns-2");
    assert_eq!(app.config().max_turns.get(), 2);
    drive(&mut app, 80, 24, &["1"]);
    assert_eq!(app.transcript().id, "aurora-run");
    assert_eq!(
        app.config().max_turns.get(),
        10,
        "a run opens with its own budget"
    );
    let mut shift_tab = app_on("aurora-run");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let back = TermEvent::Key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    run_app(
        &mut terminal,
        &mut shift_tab,
        &mut ScriptedEvents([back].into_iter()),
    )
    .unwrap();
    assert_eq!(
        shift_tab.transcript().id,
        *BUILTIN_NAMES.last().unwrap(),
        "it wraps around"
    );

    let mut app = App::new(&builtins()[..3], 0, Settings::default());
    drive(&mut app, 80, 24, &["9"]);
    assert_eq!(
        app.transcript().id,
        "aurora-run",
        "a missing run number is ignored"
    );
}

#[test]
fn turn_keys_jump_between_turns() {
    let mut app = app_on("aurora-run");
    drive(&mut app, 80, 24, &["n"]);
    assert_eq!(
        (app.step().turn, app.step().event.phase().as_str()),
        (1, "call")
    );
    drive(&mut app, 80, 24, &["]", "Right"]);
    assert_eq!(
        (app.step().turn, app.step().event.phase().as_str()),
        (2, "check")
    );
    drive(&mut app, 80, 24, &["p"]);
    assert_eq!(
        (app.step().turn, app.step().event.phase().as_str()),
        (2, "call")
    );
    drive(&mut app, 80, 24, &["["]);
    assert_eq!(
        (app.step().turn, app.step().event.phase().as_str()),
        (1, "call")
    );
}

#[test]
fn the_check_key_switches_policy_and_replays() {
    let mut app = app_on("aurora-run");
    drive(&mut app, 80, 24, &["c"]);
    assert_eq!(app.config().check, CheckPolicy::Lesson);
    let text = drive(&mut app, 80, 24, &[]).backend().to_string();
    assert!(text.contains("lesson check"));
}

#[test]
fn hostile_text_cannot_break_the_layout() {
    let hostile = serde_json::json!({
        "version": 1, "id": "hostile", "title": "\u{1b}[2J\u{1b}[31mred title\u{7}",
        "question": "日本語の質問 🚀 with a very long line ".repeat(20) + "\u{1b}]0;owned\u{7}",
        "model": "m\u{1b}[5m", "max_turns": 3,
        "replies": [{"content": [{"type": "text", "text": "\u{1b}[1;1H\u{1b}[Janswer 答え 🎉\r\nsecond line\ttab"}], "stop_reason": "end_turn"}]
    });
    let transcript = Transcript::parse(&hostile.to_string(), "hostile").unwrap();
    let runs = same_in_both(vec![transcript]);
    for (w, h) in SIZES {
        let mut app = App::new(&runs, 0, Settings::default());
        for keys in [&[][..], &["End"][..]] {
            let terminal = drive(&mut app, w, h, keys);
            let buffer = buffer(&terminal);
            for cell in buffer.content() {
                assert!(
                    !cell.symbol().chars().any(|c| c.is_control()),
                    "a control character reached the screen: {:?}",
                    cell.symbol()
                );
            }
            let text = terminal.backend().to_string();
            assert!(text.contains("␛[2J"), "escapes are shown, not obeyed");
        }
    }
}

#[test]
fn the_wire_key_shows_the_step_in_the_runs_own_api() {
    let anthropic = screen("aurora-run", 120, 40, &["Right", "Right", "w"]);
    assert!(anthropic.contains("Anthropic Messages wire"));
    assert!(
        anthropic.contains("\"stop_reason\": \"tool_use\""),
        "{anthropic}"
    );
    let openai = screen("todays-date", 120, 40, &["Right", "Right", "w"]);
    assert!(openai.contains("OpenAI Chat Completions wire"));
    assert!(
        openai.contains("\"finish_reason\": \"tool_calls\""),
        "{openai}"
    );
    let back = screen("todays-date", 120, 40, &["Right", "Right", "w", "w"]);
    assert_eq!(back, screen("todays-date", 120, 40, &["Right", "Right"]));
    insta::assert_snapshot!("wire_openai_check_120x40", openai);
}

fn long_output_run() -> Transcript {
    let page: String = (1..=40)
        .map(|i| format!("line {i} of a long web page\n"))
        .collect();
    let doc = serde_json::json!({
        "version": 1, "id": "long", "title": "long output", "question": "Fetch the page.",
        "model": "m", "max_turns": 3, "tools": [{"name": "fetch"}],
        "replies": [
            {"content": [{"type": "tool_use", "id": "f1", "name": "fetch", "input": {}}], "stop_reason": "tool_use"},
            {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}
        ],
        "results": {"f1": {"content": page}}
    });
    Transcript::parse(&doc.to_string(), "long").unwrap()
}

#[test]
fn long_tool_outputs_are_folded_until_expanded_and_scroll() {
    let runs = same_in_both(vec![long_output_run()]);
    let mut app = App::new(&runs, 0, Settings::default());
    let folded = drive(&mut app, 80, 40, &["Right", "Right", "Right"])
        .backend()
        .to_string();
    assert!(folded.contains("line 6 of a long web page"));
    assert!(!folded.contains("line 7 of a long web page"));
    assert!(
        folded.contains("34 more lines folded · e unfolds"),
        "{folded}"
    );

    let expanded = drive(&mut app, 80, 40, &["e"]).backend().to_string();
    assert!(expanded.contains("line 7 of a long web page"));
    assert!(expanded.contains("PgUp/PgDn scroll"));
    assert!(!expanded.contains("line 40 of"));
    let scrolled = drive(&mut app, 80, 40, &["J", "J", "J", "J", "J", "J", "J", "J"])
        .backend()
        .to_string();
    assert!(
        scrolled.contains("line 40 of a long web page"),
        "{scrolled}"
    );
    assert!(!scrolled.contains("line 1 of a long"));
    // Scrolling stops at the end, so one page back up is one press away.
    drive(&mut app, 80, 40, &["J"; 20]);
    let back_up = drive(&mut app, 80, 40, &["K"]).backend().to_string();
    assert!(!back_up.contains("line 40 of a long web page"), "{back_up}");
    assert_eq!(
        app.trace().tool_calls(),
        1,
        "the data stays whole: only the view folds"
    );
}

#[test]
fn an_imported_recording_plays_with_its_runs_and_notes() {
    let path = format!(
        "{}/tests/fixtures/conversation-anthropic.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = loopstep::transcript::open(&path, None).unwrap();
    let mut runs = builtins().to_vec();
    let first = runs.len();
    runs.extend(same_in_both(source.runs));
    let mut app = App::new(&runs, first + 1, Settings::default());
    let text = drive(&mut app, 120, 40, &[]).backend().to_string();
    assert!(text.contains(&format!("run {0}/{0}", BUILTIN_NAMES.len() + 2)));
    assert!(
        text.contains("note: tool call `toolu_04` has no recorded result"),
        "{text}"
    );
    let call = drive(&mut app, 120, 40, &["Right"]).backend().to_string();
    assert!(
        call.contains("inferred"),
        "inferred stop reasons are marked"
    );
    let end = drive(&mut app, 120, 40, &["End"]).backend().to_string();
    assert!(end.contains("outcome: recording ended"), "{end}");
    insta::assert_snapshot!("imported_gap_end_120x40", end);
}

#[test]
fn the_final_screen_of_every_built_in_run() {
    for name in BUILTIN_NAMES {
        insta::assert_snapshot!(
            format!("final_{name}_80x24"),
            screen(name, 80, 24, &["End"])
        );
    }
    // And under the lesson's check: where the two part ways, the ending
    // differs and is kept as a snapshot of its own; elsewhere the screen is
    // the same but for the check the title bar names.
    for name in BUILTIN_NAMES {
        let lesson = screen(name, 80, 24, &["c", "End"]);
        assert!(lesson.contains("lesson check"));
        let production = screen(name, 80, 24, &["End"]);
        let outcome = |text: &str| {
            let start = text.find("outcome:").expect("an outcome is shown");
            text[start..].lines().next().unwrap().to_owned()
        };
        let diverges = ["max-tokens", "refusal", "pause-turn", "pending-tool-call"].contains(&name);
        assert_eq!(outcome(&lesson) != outcome(&production), diverges, "{name}");
        if diverges {
            insta::assert_snapshot!(format!("final_{name}_lesson_80x24"), lesson);
        } else {
            let (lesson_title, lesson_rest) = lesson.split_once('\n').unwrap();
            let (title, rest) = production.split_once('\n').unwrap();
            assert_eq!(lesson_rest, rest, "{name}");
            // The title gives the longer label its room.
            assert!(lesson_title.contains("· lesson check"), "{lesson_title}");
            assert!(title.contains("· production check"), "{title}");
        }
    }
}

#[test]
fn a_mistake_is_marked_and_the_correct_loop_is_one_key_away() {
    let correct = screen("aurora-run", 80, 24, &["End"]);
    let mut app = app_on("aurora-run");
    let mistaken = drive(&mut app, 80, 24, &["m", "End"]);
    let text = mistaken.backend().to_string();
    assert!(text.contains("MISTAKE: drop-results · M fixes"), "{text}");
    assert!(text.contains("outcome: rejected by the API"));
    let (x, y) = find(&buffer(&mistaken), "MISTAKE");
    assert_eq!(
        buffer(&mistaken)[(x, y)].bg,
        fill(Color::Red),
        "the bar turns red"
    );
    let back = drive(&mut app, 80, 24, &["M", "End"]).backend().to_string();
    assert_eq!(back, correct);

    // From any mistake, M restores the run's normal ending.
    for (presses, run) in [
        (1, "aurora-run"),
        (2, "aurora-run"),
        (3, "aurora-run"),
        (4, "parallel-tools"),
        (5, "aurora-run"),
        (6, "always-search"),
        (7, "parallel-tools"),
        (8, "max-tokens"),
        (9, "aurora-run"),
    ] {
        let normal = screen(run, 80, 24, &["End"]);
        let mut keys = vec!["m"; presses];
        keys.push("End");
        let mistaken = screen(run, 80, 24, &keys);
        assert_ne!(mistaken, normal, "{run} after {presses} × m");
        keys.extend(["M", "End"]);
        assert_eq!(screen(run, 80, 24, &keys), normal, "{run}: M restores it");
    }

    // m walks through every mistake and then back to the correct loop.
    let mut app = app_on("aurora-run");
    let mut seen = Vec::new();
    for _ in 0..10 {
        drive(&mut app, 80, 24, &["m"]);
        seen.push(app.config().mistake.map(|m| m.name()));
    }
    assert_eq!(
        seen,
        [
            Some("drop-results"),
            Some("forget-request"),
            Some("wrong-order"),
            Some("split-results"),
            Some("stop-on-text"),
            Some("no-budget"),
            Some("drop-one-result"),
            Some("dispatch-before-check"),
            Some("hard-coded-plan"),
            None
        ]
    );
}

#[test]
fn the_mistake_caption_appears_where_the_damage_is_done() {
    let dropped = screen(
        "aurora-run",
        80,
        24,
        &["m", "Right", "Right", "Right", "Right"],
    );
    assert!(
        dropped.contains("Mistake: the loop ran the tools but dropped their results"),
        "{dropped}"
    );
    let early = screen(
        "aurora-run",
        80,
        24,
        &["m", "m", "m", "m", "m", "Right", "Right"],
    );
    assert!(
        early.contains("Mistake: the reply has text, and any text ends this loop"),
        "{early}"
    );
    let capped = screen(
        "always-search",
        80,
        24,
        &["m", "m", "m", "m", "m", "m", "End"],
    );
    assert!(capped.contains("safety cap of 100"), "{capped}");
    insta::assert_snapshot!("mistake_no_budget_always_search_80x24", capped);
}

#[test]
fn no_color_draws_without_colour_but_keeps_the_highlights() {
    let settings = Settings {
        monochrome: true,
        ..Settings::default()
    };
    let index = BUILTIN_NAMES
        .iter()
        .position(|n| *n == "aurora-run")
        .unwrap();
    let mut app = App::new(builtins(), index, settings);
    let terminal = drive(&mut app, 80, 24, &["Right", "Right"]);
    let buffer = buffer(&terminal);
    for cell in buffer.content() {
        assert_eq!(
            (cell.fg, cell.bg),
            (Color::Reset, Color::Reset),
            "{:?}",
            cell.symbol()
        );
    }
    // The current phase is still marked, now by reversing it.
    let (x, y) = find(&buffer, "check ─");
    assert!(
        buffer[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
    assert_eq!(
        terminal.backend().to_string(),
        screen("aurora-run", 80, 24, &["Right", "Right"]),
        "the same text"
    );
}

#[test]
fn the_last_append_before_a_spent_budget_does_not_promise_another_turn() {
    // aurora-run-max-turns-2: start, then turn 0 (4 steps), turn 1's call,
    // check, dispatch and append.
    let last_append = screen("aurora-run-max-turns-2", 80, 24, &["Right"; 8]);
    assert!(last_append.contains("turn 1 · append"), "{last_append}");
    assert!(
        last_append.contains("max_turns = 2 is spent"),
        "{last_append}"
    );
    assert!(!last_append.contains("Then the loop turns again"));
    let first_append = screen("aurora-run-max-turns-2", 80, 24, &["Right"; 4]);
    assert!(
        first_append.contains("Then the loop turns again"),
        "{first_append}"
    );
}

#[test]
fn a_paused_turn_counts_in_the_arithmetic() {
    let end = screen("pause-turn", 80, 24, &["End"]);
    assert!(
        end.contains("0 tool rounds + 1 paused turn + 1 = 2 model calls"),
        "{end}"
    );
    let pushed = screen("not-done-yet", 80, 24, &["End"]);
    assert!(pushed.contains("1 tool round + 1 push-back +"), "{pushed}");
}

#[test]
fn the_aurora_run_remarks_on_its_distractor_at_the_second_call() {
    let second_call = screen("aurora-run", 120, 40, &["Right"; 5]);
    assert!(second_call.contains("call #2 sent all 3"), "{second_call}");
    assert!(
        second_call.contains("remark: The first page also holds 1951"),
        "{second_call}"
    );
    let first_call = screen("aurora-run", 120, 40, &["Right"]);
    assert!(!first_call.contains("remark:"));
}

#[test]
fn a_mistake_the_run_cannot_show_is_not_called_verified() {
    let end = screen("paris", 80, 24, &["m", "End"]);
    assert!(
        end.contains("This run cannot show the mistake drop-results"),
        "{end}"
    );
    let outcome = end.lines().find(|l| l.contains("outcome:")).unwrap();
    assert!(outcome.contains("mistake not shown"), "{outcome}");
    assert!(!outcome.contains("verified"), "{outcome}");
}

#[test]
fn the_stateless_caption_keeps_the_lessons_qualifier() {
    let anthropic = screen("aurora-run", 120, 40, &["Right"; 5]);
    assert!(
        anthropic.contains("the Anthropic Messages API keeps no memory between calls"),
        "{anthropic}"
    );
    let responses_path = format!(
        "{}/tests/fixtures/exchanges-openai-responses.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = loopstep::transcript::open(&responses_path, None).unwrap();
    let runs = same_in_both(source.runs);
    let mut app = App::new(&runs, 0, Settings::default());
    let second = drive(&mut app, 120, 40, &["n"]).backend().to_string();
    assert!(
        second.contains("can keep the conversation on its side (previous_response_id)"),
        "{second}"
    );
}

#[test]
fn a_help_taller_than_the_screen_scrolls_to_its_last_row() {
    let top = screen("aurora-run", 80, 24, &["?"]);
    assert!(top.contains("↓ j more") && !top.contains("Ctrl-C"), "{top}");
    // However far it is pressed, it stops at the last row.
    let keys: Vec<&str> = std::iter::once("?").chain(["j"; 40]).collect();
    let bottom = screen("aurora-run", 80, 24, &keys);
    assert!(
        bottom.contains("q Esc Ctrl-C") && bottom.contains("↑ k back"),
        "{bottom}"
    );
    // Scrolled back up, the first row shows again; Esc still closes it.
    let again = screen("aurora-run", 80, 24, &["?", "j", "j", "k", "k", "k"]);
    assert_eq!(again, top);
    let closed = screen("aurora-run", 80, 24, &["?", "j", "Esc"]);
    assert!(!closed.contains("keys · ?"), "{closed}");
}

#[test]
fn docs_screen_md_names_every_key_the_screen_binds() {
    use loopstep::tui::keymap::{BINDINGS, key_name};
    let docs = include_str!("../../docs/screen.md");
    // The first column of each row of the key table: `→` `l` `Space` / `←` `h`.
    let documented: Vec<&str> = docs
        .lines()
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| line.split(" | ").next())
        .collect();
    for binding in BINDINGS {
        let keys = binding
            .keys
            .iter()
            .chain(binding.opposite.iter().flat_map(|(keys, _)| *keys));
        for key in keys {
            let name = format!("`{}`", key_name(key));
            assert!(
                documented.iter().any(|cell| cell.contains(&name)),
                "{name} ({:?}) is not in docs/screen.md's key table",
                binding.action
            );
        }
    }
}

#[test]
fn a_run_told_in_gemini_names_its_list_and_roles_as_gemini_does() {
    // Gemini's request holds `contents`, whose roles are `user` and `model`
    // (https://ai.google.dev/api/caching#Content).
    let settings = Settings {
        dialect: Some(Dialect::Gemini),
        ..Settings::default()
    };
    let mut app = app_with("aurora-run", settings);
    let shown = drive(&mut app, 100, 30, &["Right", "Right"])
        .backend()
        .to_string();
    assert!(shown.contains("┌ contents "), "{shown}");
    assert!(shown.contains("#1   model "), "{shown}");
    assert!(!shown.contains("assistant"), "{shown}");
}

#[test]
fn a_passed_over_api_is_said_in_the_footer() {
    // Gemini and Converse have no refusal: A from Responses goes on to
    // Messages and says which it passed over, and why.
    let shown = screen("refusal", 100, 30, &["A", "A", "A"]);
    assert!(
        shown.contains("A skipped Gemini: it stops with refusal"),
        "{shown}"
    );
}

#[test]
fn the_quiz_keeps_the_reply_back_until_the_class_answers() {
    // The reply's stop reason and its tool request would give the answer.
    let asked = screen("aurora-run", 100, 30, &["Q", "Right", "Right"]);
    assert!(
        asked.contains("reply: hidden until the class answers"),
        "{asked}"
    );
    assert!(!asked.contains("toolu_01AuroraFilm"), "{asked}");
    assert!(!asked.contains("reply: stop_reason"), "{asked}");
    let answered = screen("aurora-run", 100, 30, &["Q", "Right", "Right", "1"]);
    assert!(answered.contains("toolu_01AuroraFilm"), "{answered}");
}

#[test]
fn dispatching_before_the_check_lights_dispatch_not_the_check_it_skips() {
    use loopstep::engine::Mistake;
    use loopstep::tui::view::{Mark, diagram_marks};
    let settings = Settings {
        mistake: Some(Mistake::DispatchBeforeCheck),
        ..Settings::default()
    };
    let mut app = app_with("max-tokens", settings);
    drive(&mut app, 100, 30, &["Right", "Right"]);
    let current: Vec<String> = diagram_marks(&app)
        .into_iter()
        .flatten()
        .filter(|(mark, _)| *mark == Mark::Current)
        .map(|(_, text)| text)
        .collect();
    assert_eq!(current, ["dispatch"]);
}
