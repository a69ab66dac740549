//! `loopstep present`: a lesson's scenes, settings and step names, its
//! problems as `validate` lists them, and the present screen's keys.

use std::path::Path;

use crate::common;
use crate::common::screen::key;
use loopstep::lesson::{self, StepName};
use loopstep::narrate::Lang;
use loopstep::tui::present::Present;
use loopstep::tui::{ScriptedEvents, Settings, run_screen};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn seed_000() -> lesson::Resolved {
    lesson::load(Path::new("lessons/seed-000.toml")).unwrap()
}

/// The present screen after `keys`, and its last frame.
fn present(lang: Lang, size: (u16, u16), keys: &[&str]) -> (Present, String) {
    let settings = Settings {
        lang,
        ..Settings::default()
    };
    let mut screen = Present::new(seed_000(), settings);
    let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
    let mut events = ScriptedEvents(keys.iter().map(|k| key(k)));
    run_screen(&mut terminal, &mut screen, &mut events).unwrap();
    // Drawn once more on a cleared screen, as `common::screen::drive` does:
    // a wide character's hidden cell keeps an earlier frame's text.
    terminal.clear().unwrap();
    terminal
        .draw(|frame| {
            loopstep::tui::Screen::draw(&screen, frame);
        })
        .unwrap();
    let text = terminal.backend().to_string();
    (screen, text)
}

#[test]
fn the_example_lesson_resolves_every_scene_its_settings_and_steps() {
    let lesson = seed_000();
    assert_eq!(lesson.scenes.len(), 8);
    let budget = &lesson.scenes[2];
    assert_eq!(budget.max_turns.map(|n| n.get()), Some(2));
    // aurora-run under 2 turns: start, then turn 0's call, check, dispatch,
    // append (steps 2-5), turn 1's call, check, dispatch: step 8.
    assert_eq!(budget.open_at, Some(7));
    // Its remark and note sit on the budget's exit, the last step.
    assert_eq!(budget.remarks[0].0, 9);
    assert_eq!(
        lesson::StepName::parse("turn 1 budget_exhausted"),
        Some(StepName::Phase {
            turn: 1,
            phase: "budget_exhausted".into()
        })
    );
    assert!(lesson.scenes[0].card.is_some());
}

#[test]
fn the_scene_keys_walk_the_lesson_card_first() {
    let (screen, card) = present(Lang::En, (80, 24), &[]);
    assert_eq!(screen.at(), (0, true));
    assert!(card.contains("scene 1/8"), "{card}");
    assert!(card.contains("Watch the four phases"), "{card}");
    // → opens the run; ] and PageDown go on, [ and PageUp come back.
    let (screen, _) = present(Lang::En, (80, 24), &["Right"]);
    assert_eq!(screen.at(), (0, false));
    let (screen, _) = present(Lang::En, (80, 24), &["]", "PageDown"]);
    assert_eq!(screen.at(), (2, true));
    let (screen, _) = present(Lang::En, (80, 24), &["]", "PageDown", "["]);
    assert_eq!(
        screen.at(),
        (1, false),
        "back from a card to the run before"
    );
    let (screen, _) = present(Lang::En, (80, 24), &["]", "PageDown", "[", "PageUp"]);
    assert_eq!(screen.at(), (1, true), "back from a run to its own card");
    // The scene opens where the lesson says, under its budget.
    let (screen, run) = present(Lang::En, (80, 24), &["]", "]", "Right"]);
    assert_eq!(screen.app().cursor(), 7);
    assert!(run.contains("scene 3/8"), "{run}");
    assert!(run.contains("max_turns 2"), "{run}");
    // The last scene goes no further.
    let keys = ["]"; 12];
    let (screen, _) = present(Lang::En, (80, 24), &keys);
    assert_eq!(screen.at().0, 7);
}

#[test]
fn a_setting_changed_live_stays_in_its_scene_and_r_brings_the_lesson_s_back() {
    // Scene 3 is max_turns 2; + gives it 3 turns, r the lesson's 2 again.
    let (screen, _) = present(Lang::En, (80, 24), &["]", "]", "Right", "+"]);
    assert_eq!(screen.app().config().max_turns.get(), 3);
    let (screen, _) = present(Lang::En, (80, 24), &["]", "]", "Right", "+", "r"]);
    assert_eq!(screen.app().config().max_turns.get(), 2);
    assert_eq!(screen.app().cursor(), 7, "on the same step");
    // Leaving the scene and coming back: the lesson's again.
    let keys = ["]", "]", "Right", "+", "]", "[", "["];
    let (screen, _) = present(Lang::En, (80, 24), &keys);
    assert_eq!(screen.at(), (2, true));
    let (screen, _) = present(Lang::En, (80, 24), &[&keys[..], &["Right"]].concat());
    assert_eq!(screen.app().config().max_turns.get(), 2);
}

#[test]
fn the_language_chosen_carries_from_scene_to_scene() {
    let (screen, text) = present(Lang::En, (80, 24), &["Right", "L", "]"]);
    assert_eq!(screen.at(), (1, true));
    assert!(text.contains("一次回答"), "{text}");
}

#[test]
fn the_present_screen_at_both_sizes_in_both_languages() {
    for (lang, code) in [(Lang::En, "en"), (Lang::Zh, "zh")] {
        for (w, h) in [(80, 24), (120, 40)] {
            let (_, card) = present(lang, (w, h), &["]", "]"]);
            insta::assert_snapshot!(format!("present_card_{code}_{w}x{h}"), card);
            let (_, scene) = present(lang, (w, h), &["]", "]", "Right", "End"]);
            insta::assert_snapshot!(format!("present_scene_{code}_{w}x{h}"), scene);
        }
    }
}

#[test]
fn validate_lists_every_problem_of_a_lesson_in_both_languages() {
    let dir = common::temp_dir("lesson-problems");
    let path = dir.join("broken.toml");
    std::fs::write(
        &path,
        "title = \"x\"\n[[scene]]\nrun = \"paris\"\nmax_turns = 0\nmistake = \"nope\"\n\
         [[scene]]\nrun = \"../outside.json\"\n[[scene]]\nrun = \"aurora-run\"\n\
         open_at = \"turn 9 dispatch\"\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let en = common::ran(&["validate", path]);
    assert_eq!(en.code, 2, "{}", en.stderr);
    for said in [
        "is not ready to present (4 problems)",
        "scene 1: max_turns = 0",
        "scene 1: mistake = \"nope\" is no common mistake",
        "scene 2: `../outside.json` leads out of the lesson's folder",
        "scene 3: open_at names step `turn 9 dispatch`",
    ] {
        assert!(en.stderr.contains(said), "{said}: {}", en.stderr);
    }
    let zh = common::ran(&["--lang", "zh", "validate", path]);
    assert!(
        zh.stderr.contains("还不能用来上课（4 个问题）"),
        "{}",
        zh.stderr
    );
    assert!(zh.stderr.contains("第 2 幕"), "{}", zh.stderr);
}

#[test]
fn a_hostile_lesson_is_refused_or_shown_safely() {
    let dir = common::temp_dir("lesson-hostile");
    // Huge: refused unread.
    let huge = dir.join("huge.toml");
    std::fs::write(&huge, "# x\n".repeat(300_000)).unwrap();
    let out = common::ran(&["validate", huge.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("larger than 1 MiB"), "{}", out.stderr);
    // Deep: the parser's refusal, no crash.
    let deep = dir.join("deep.toml");
    std::fs::write(
        &deep,
        format!("title = {}1{}\n", "[".repeat(5000), "]".repeat(5000)),
    )
    .unwrap();
    let out = common::ran(&["validate", deep.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    // Escapes in a card and a title: shown as text, never acted on.
    let escapes = dir.join("escapes.toml");
    std::fs::write(
        &escapes,
        "title = \"\\u001b]0;owned\\u0007T\"\n[[scene]]\nrun = \"paris\"\n\
         card = \"\\u001b[2J\\u001b[31mred\"\n",
    )
    .unwrap();
    let lesson = lesson::load(&escapes).unwrap();
    let mut screen = Present::new(lesson, Settings::default());
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_screen(
        &mut terminal,
        &mut screen,
        &mut ScriptedEvents(std::iter::empty()),
    )
    .unwrap();
    let text = terminal.backend().to_string();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("red"), "{text}");
}

#[test]
fn every_example_lesson_fits_the_lesson_schema_and_the_schema_knows_every_name() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../lessons/lesson.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for entry in std::fs::read_dir("lessons").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let value: serde_json::Value = toml::from_str(&text).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            lesson::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    let scene = &schema["$defs"]["scene"]["properties"];
    let names = |key: &str| -> Vec<String> {
        scene[key]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names("mistake"),
        loopstep::engine::Mistake::ALL.map(|m| m.name().to_owned())
    );
    assert_eq!(
        names("dialect"),
        loopstep::dialect::Dialect::ALL.map(|d| d.id().to_owned())
    );
}

#[test]
fn the_help_in_a_lesson_names_its_scene_keys_first() {
    let (_, help) = present(Lang::En, (120, 40), &["Right", "?"]);
    assert!(
        help.contains("next / previous scene of the lesson"),
        "{help}"
    );
    assert!(
        help.contains("the lesson's settings for this scene again"),
        "{help}"
    );
    assert!(!help.contains("max_turns back to the run's own"), "{help}");
}

#[test]
fn a_lesson_exports_as_one_handout_with_its_cards_and_remarks_and_notes_on_request() {
    let plain = common::printed(&["export", "lessons/seed-000.toml", "-o", "-"]);
    // Every scene, in order, each under its run's title, its card first.
    assert_eq!(plain.matches("\n---\n").count(), 7, "eight scenes");
    assert!(plain.contains("Watch the four phases"), "the first card");
    assert!(plain.contains("None is no answer"), "the lesson's remark");
    assert!(!plain.contains("**notes:**"), "notes only when asked");
    let with_notes = common::printed(&["export", "lessons/seed-000.toml", "-o", "-", "--notes"]);
    // Scene 1 has three notes, scenes 2 and 3 one each.
    assert_eq!(with_notes.matches("**notes:**").count(), 5);
    let zh = common::printed(&[
        "--lang",
        "zh",
        "export",
        "lessons/seed-000.toml",
        "-o",
        "-",
        "--notes",
    ]);
    assert!(zh.contains("**讲稿：**"), "{zh}");
    let html = common::printed(&[
        "export",
        "lessons/seed-002.toml",
        "-o",
        "-",
        "--format",
        "html",
        "--notes",
    ]);
    assert!(html.contains("<p class=\"notes\">"), "{html}");
    let refused = common::ran(&["export", "paris", "-o", "-", "--notes"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("not a lesson"),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_note_written_from_the_screen_lands_in_the_file_with_its_comments_kept() {
    let dir = common::temp_dir("lesson-note");
    let file = dir.join("lesson.toml");
    std::fs::copy("lessons/seed-002.toml", &file).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    let lesson = lesson::load(&file).unwrap();
    let mut screen = Present::new(lesson, Settings::default()).writing_notes_to(&file);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // Scene 1, its run's first call: `i`, a note, Enter.
    let keys = [
        "Right", "Right", "i", "A", "s", "k", " ", "w", "h", "y", "?", "Enter",
    ];
    let mut events = ScriptedEvents(keys.iter().map(|k| key(k)));
    run_screen(&mut terminal, &mut screen, &mut events).unwrap();
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(
        after.contains("{ at = \"turn 0 call\", text = \"Ask why?\" }"),
        "{after}"
    );
    // Everything else as it was: the comments, the order, the other notes.
    let removed: Vec<&str> = before.lines().filter(|l| !after.contains(*l)).collect();
    assert!(
        removed.is_empty() || removed.iter().all(|l| l.contains("notes = [")),
        "{removed:?}"
    );
    assert!(after.starts_with("#:schema ./lesson.schema.json\n# Seed 002's experiments"));
    let text = terminal.backend().to_string();
    assert!(text.contains("note saved at `turn 0 call`"), "{text}");
    // The lesson still reads, with one note more.
    let again = lesson::load(&file).unwrap();
    assert_eq!(again.scenes[0].notes.len(), 2);
}

#[test]
fn a_scene_with_a_mistake_still_names_the_scene() {
    let keys = ["]"; 6];
    let (screen, text) = present(Lang::En, (120, 40), &[&keys[..], &["Right"]].concat());
    assert_eq!(screen.at(), (6, false));
    assert!(text.contains("scene 7/8 · MISTAKE: drop-results"), "{text}");
}

#[test]
fn a_note_is_refused_at_a_step_the_lesson_s_own_settings_do_not_reach() {
    let dir = common::temp_dir("lesson-note-off");
    let file = dir.join("lesson.toml");
    std::fs::copy("lessons/seed-000.toml", &file).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    let mut screen =
        Present::new(lesson::load(&file).unwrap(), Settings::default()).writing_notes_to(&file);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // Scene 3 is max_turns 2; + gives it a third turn, End goes to it.
    let keys = ["]", "]", "Right", "+", "End", "i", "x", "Enter"];
    let mut events = ScriptedEvents(keys.iter().map(|k| key(k)));
    run_screen(&mut terminal, &mut screen, &mut events).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    let text = terminal.backend().to_string();
    assert!(
        text.contains("not saved: the lesson's own settings"),
        "{text}"
    );
}

#[test]
fn a_run_through_a_link_out_of_the_lesson_s_folder_is_refused() {
    let dir = common::temp_dir("lesson-link-out");
    let outside = std::fs::canonicalize("transcripts/paris.json").unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("paris.json")).unwrap();
    let file = dir.join("lesson.toml");
    std::fs::write(&file, "title = \"t\"\n[[scene]]\nrun = \"paris.json\"\n").unwrap();
    let problems = match lesson::load(&file) {
        Err(lesson::Failed::Problems { problems, .. }) => problems,
        other => panic!("expected problems, got {other:?}"),
    };
    assert!(matches!(problems[0].why, lesson::Why::OutsideFolder(_)));
}

#[test]
fn in_a_lesson_the_detail_pane_names_the_keys_that_scroll_it_there() {
    // PgUp and PgDn change scenes in a lesson: K and J scroll the detail.
    let (_, text) = present(Lang::En, (80, 24), &["]", "]", "Right"]);
    assert!(text.contains("K/J scroll"), "{text}");
    assert!(!text.contains("PgUp/PgDn scroll"), "{text}");
}
