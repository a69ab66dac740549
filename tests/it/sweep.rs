//! `loopstep sweep` and `loopstep table` over corpora: the built-in runs
//! (their endings read by hand from docs/lessons.md and the transcripts),
//! the real recordings, a folder of broken files, a generated corpus.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

use crate::common;
use loopstep::engine::{Config, Outcome};
use loopstep::sweep::{Fate, RunEnd};
use loopstep::transcript::{BUILTIN_NAMES, builtin};

fn swept(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["sweep"];
    all.extend(args);
    all.extend(["--format", "json"]);
    serde_json::from_str(&common::printed(&all)).unwrap()
}

fn transcripts() -> String {
    format!("{}/transcripts", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_built_in_runs_answer_fail_and_run_out_where_the_lessons_say() {
    let json = swept(&[&transcripts()]);
    let needs = |run: &str| {
        let found = json["per_run"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["run"] == run)
            .unwrap();
        (
            found["needs"].as_u64(),
            found["ending"].as_str().unwrap().to_owned(),
        )
    };
    // aurora-run: two searches, then "1974" on the third call.
    assert_eq!(needs("aurora-run"), (Some(3), "answered".into()));
    // paris: answered on the first call, no tool.
    assert_eq!(needs("paris"), (Some(1), "answered".into()));
    // always-search: the model never stops asking.
    assert_eq!(needs("always-search"), (None, "never".into()));
    // max-tokens: cut off in a tool request on the first call, halted.
    assert_eq!(needs("max-tokens"), (Some(1), "halted".into()));
    let budgets = json["budgets"].as_array().unwrap();
    let at = |n: usize, key: &str| budgets[n - 1][key].as_u64().unwrap();
    // Under 1: paris answers; max-tokens, pending-tool-call, refusal and
    // tool-failure-raises halt on their first reply; the other 15 of the
    // 20 built-ins return None.
    assert_eq!(
        (at(1, "answered"), at(1, "halted"), at(1, "none")),
        (1, 4, 15)
    );
    // Under 2: the five that answer on their second call join (todays-date,
    // parallel-tools, pause-turn, answered-not-verified, compacted-context).
    assert_eq!(at(2, "answered"), 6);
    // aurora-run returns None under 2 and answers under 3, with its copy
    // recorded at 2, streamed-reply and retried-call (aurora-run streamed,
    // and with a call retried inside its step) and not-done-yet: 11.
    assert_eq!(at(3, "answered"), 11);
    assert_eq!(json["answered_by"]["p50"], 3);
    // In words, in both languages.
    let text = common::printed(&["sweep", &transcripts()]);
    assert!(
        text.starts_with("sweep: 20 run(s) in 21 file(s); 1 left out"),
        "{text}"
    );
    let zh = common::printed(&["--lang", "zh", "sweep", &transcripts()]);
    assert!(zh.contains("在最终会回答的运行中"), "{zh}");
}

#[test]
fn a_budget_read_off_the_sweep_is_the_replay_under_that_budget() {
    // The built-ins, and every run of the real recordings (insertions,
    // endings by the agent, the user, the API among them).
    let mut runs: Vec<loopstep::transcript::Transcript> = BUILTIN_NAMES
        .iter()
        .map(|name| builtin(name).unwrap().unwrap())
        .collect();
    let real = common::fixture("real");
    let mut files: Vec<_> = std::fs::read_dir(&real)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for file in files {
        if let Ok(source) = loopstep::transcript::open(file.to_str().unwrap(), None) {
            runs.extend(source.runs);
        }
    }
    assert!(runs.len() > 100, "{}", runs.len());
    for run in &runs {
        let name = &run.id;
        let end = RunEnd::of("f", run, run.default_config(), run.max_turns);
        let top = end.needs.unwrap_or(run.max_turns.get()) + 2;
        for n in 1..=top {
            let max_turns = NonZeroU32::new(n).unwrap();
            let trace = run.replay(Config {
                max_turns,
                ..run.default_config()
            });
            let direct = match trace.outcome().unwrap() {
                Outcome::Answered(_) => Fate::Answered,
                Outcome::BudgetExhausted => Fate::Never,
                Outcome::Stopped(_) | Outcome::Rejected(_) => Fate::Halted,
                Outcome::RecordingEnded => Fate::RecordingEnded,
                Outcome::Ended(_) => Fate::Ended,
            };
            assert_eq!(end.under(n), direct, "{name} under {n}");
        }
    }
}

#[test]
fn the_real_recordings_sweep_with_the_files_that_are_no_run_listed() {
    let real = common::fixture("real");
    let json = swept(&[&real]);
    // SOURCES.md is no run, nor is an aider history of commands only;
    // every recording is read.
    let mut unreadable: Vec<&str> = json["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["file"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    unreadable.sort_unstable();
    assert_eq!(
        unreadable,
        ["SOURCES.md", "zen-mcp-server-v0.86.1.chat.history.md"]
    );
    // The Gemini CLI session: two runs, the first answering after 5
    // calls, the second interrupted after 1 (tests/it/gemini_and_bedrock.rs).
    let runs: Vec<&serde_json::Value> = json["per_run"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .ends_with("gemini-cli-session.jsonl")
        })
        .collect();
    assert_eq!(runs.len(), 2);
    assert_eq!(
        (runs[0]["needs"].as_u64(), runs[0]["ending"].as_str()),
        (Some(5), Some("answered"))
    );
    assert_eq!(runs[1]["ending"], "ended");
}

#[test]
fn broken_empty_and_foreign_files_are_listed_and_the_rest_swept() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sweep-broken");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    std::fs::write(dir.join("broken.json"), "{\"version\": 1,").unwrap();
    std::fs::write(dir.join("empty.json"), "").unwrap();
    std::fs::write(dir.join("foreign.txt"), "a shopping list\n").unwrap();
    std::fs::copy(
        Path::new(&transcripts()).join("paris.json"),
        dir.join("inner/paris.json"),
    )
    .unwrap();
    let json = swept(&[dir.to_str().unwrap()]);
    assert_eq!(json["runs"], 1);
    assert_eq!(json["files"], 4);
    let reasons: Vec<&str> = json["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons.iter().any(|r| r.contains("cut short")),
        "{reasons:?}"
    );
    assert_eq!(json["budgets"][0]["answered"], 1);
}

#[test]
fn the_csv_has_a_row_per_budget() {
    let csv = common::printed(&[
        "sweep",
        &transcripts(),
        "--max-turns",
        "1..3",
        "--format",
        "csv",
    ]);
    assert_eq!(
        csv,
        "max_turns,answered,none,halted,ended,own\n1,1,15,4,0,0\n2,6,10,4,0,1\n3,11,5,4,0,0\n"
    );
}

/// `count` small runs in a fresh folder: paris with its own id each.
pub fn generated_corpus(name: &str, count: usize) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let paris = std::fs::read_to_string(Path::new(&transcripts()).join("paris.json")).unwrap();
    for k in 0..count {
        let run = paris.replacen("\"id\": \"paris\"", &format!("\"id\": \"paris-{k}\""), 1);
        std::fs::write(dir.join(format!("run-{k:05}.json")), run).unwrap();
    }
    dir
}

/// The most memory `loopstep ARGS` held, in kilobytes: Python's
/// `getrusage` of its one child.
fn peak_kb(args: &[&str]) -> u64 {
    let loopstep = assert_cmd::cargo::cargo_bin("loopstep");
    let script = "import resource, subprocess, sys\n\
                  subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n\
                  print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(loopstep)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "sweeps 5,000 generated files; run by .ci/run with the other ignored tests"]
fn memory_stays_flat_as_the_corpus_grows() {
    let small = generated_corpus("sweep-1000", 1000);
    let large = generated_corpus("sweep-4000", 4000);
    let peak = |dir: &Path| peak_kb(&["sweep", dir.to_str().unwrap(), "--format", "json"]);
    let (small, large) = (peak(&small), peak(&large));
    assert!(
        large * 2 <= small * 3,
        "peak {large} kB for 4,000 files against {small} kB for 1,000"
    );
}

#[test]
#[ignore = "needs the duckdb Python package, which .ci/run installs"]
fn duckdb_computes_the_same_curve_from_the_table_in_csv_and_in_parquet() {
    let json = swept(&[&transcripts(), "--max-turns", "1..100"]);
    let from_sweep: Vec<u64> = json["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["answered"].as_u64().unwrap())
        .collect();
    for name in ["steps.csv", "steps.parquet"] {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_file(&out);
        common::printed(&["table", &transcripts(), "-o", out.to_str().unwrap()]);
        // The README's query: a run answers under N when its outcome is
        // answered and its last turn is below N.
        let reader = if name.ends_with(".csv") {
            "read_csv_auto"
        } else {
            "read_parquet"
        };
        let query = format!(
            "WITH runs AS (SELECT file, run, any_value(outcome) AS outcome, max(turn) + 1 AS needs \
             FROM {reader}(?) GROUP BY file, run), \
             budgets AS (SELECT range AS max_turns FROM range(1, 101)) \
             SELECT max_turns, count(*) FILTER (WHERE outcome = 'answered' AND needs <= max_turns) \
             FROM budgets, runs GROUP BY max_turns ORDER BY max_turns"
        );
        let script = format!(
            "import duckdb, json, sys\n\
             rows = duckdb.connect().execute({query:?}, [sys.argv[1]]).fetchall()\n\
             print(json.dumps([r[1] for r in rows]))"
        );
        let result = std::process::Command::new("python3")
            .args(["-c", &script, out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            result.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let from_duckdb: Vec<u64> = serde_json::from_slice(&result.stdout).unwrap();
        assert_eq!(from_duckdb, from_sweep, "{name}");
    }
}

#[test]
fn the_curve_screen_lists_the_runs_a_budget_cuts_and_opens_one_under_it() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use loopstep::narrate::{Lang, Say};
    use loopstep::sweep::{Curve, Range};
    use loopstep::tui::curve::{CurveView, Open};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    // Relative to the package, where cargo runs the tests: the same on
    // every machine.
    let files: Vec<PathBuf> = ["paris.json", "aurora-run.json", "always-search.json"]
        .iter()
        .map(|f| Path::new("transcripts").join(f))
        .collect();
    let runs: Vec<RunEnd> = files
        .iter()
        .map(|f| {
            let source = loopstep::transcript::open(f.to_str().unwrap(), None).unwrap();
            let run = &source.runs[0];
            RunEnd::of(
                f.to_str().unwrap(),
                run,
                run.default_config(),
                run.max_turns,
            )
        })
        .collect();
    let curve = Curve::of(&runs, Range { from: 1, to: 4 });
    for lang in [Lang::En, Lang::Zh] {
        let mut view = CurveView::new(
            &curve,
            &runs,
            Say::new(lang, loopstep::dialect::Dialect::default()),
        );
        let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
        let draw = |view: &CurveView| {
            let mut terminal = Terminal::new(TestBackend::new(80, 12)).unwrap();
            terminal.draw(|frame| view.draw(frame)).unwrap();
            terminal.backend().to_string()
        };
        insta::assert_snapshot!(format!("curve_{lang:?}"), draw(&view));
        // Budget 2 cuts aurora-run (it needs 3) and always-search (never).
        assert_eq!(view.key(key(KeyCode::Down)), None);
        assert_eq!(view.key(key(KeyCode::Enter)), None);
        insta::assert_snapshot!(format!("curve_cuts_{lang:?}"), draw(&view));
        let open = view.key(key(KeyCode::Enter)).unwrap();
        assert_eq!(
            open,
            Open {
                file: files[1].to_str().unwrap().to_owned(),
                run: "aurora-run".into(),
                max_turns: 2,
            }
        );
        // Esc goes back to the budgets; Esc again quits.
        view.key(key(KeyCode::Esc));
        assert!(!view.quit);
        view.key(key(KeyCode::Esc));
        assert!(view.quit);
        // Ctrl-C quits from any list, as on every screen.
        let mut view = CurveView::new(
            &curve,
            &runs,
            Say::new(lang, loopstep::dialect::Dialect::default()),
        );
        view.key(key(KeyCode::Enter));
        view.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert!(view.quit);
    }
    // Through the event loop every screen shares: Enter on budget 2 lists
    // its cuts, Enter opens aurora-run over the curve under that budget,
    // q closes it and shows the curve again, Ctrl-C quits.
    use loopstep::tui::curve::CurveScreen;
    use loopstep::tui::{ScriptedEvents, Settings, run_screen};
    let mut screen = CurveScreen::new(&curve, &runs, Settings::default(), u64::MAX);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let events = ["Down", "Enter", "Enter", "End", "q", "Ctrl-C"];
    let mut events = ScriptedEvents(events.iter().map(|k| common::screen::key(k)));
    run_screen(&mut terminal, &mut screen, &mut events).unwrap();
    let last = terminal.backend().to_string();
    assert!(screen.view.quit, "Ctrl-C quits the curve");
    assert!(last.contains("max_turns"), "the curve shows again: {last}");
    assert!(
        !last.contains("outcome:"),
        "the run screen is closed: {last}"
    );
}

#[test]
fn a_run_opened_from_the_curve_runs_under_the_budget_it_was_opened_at() {
    use loopstep::sweep::{Curve, Range};
    use loopstep::tui::curve::CurveScreen;
    use loopstep::tui::{ScriptedEvents, Settings, run_screen};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let file = Path::new("transcripts").join("aurora-run.json");
    let source = loopstep::transcript::open(file.to_str().unwrap(), None).unwrap();
    let run = &source.runs[0];
    let runs = [RunEnd::of(
        file.to_str().unwrap(),
        run,
        run.default_config(),
        run.max_turns,
    )];
    let curve = Curve::of(&runs, Range { from: 1, to: 3 });
    let mut screen = CurveScreen::new(&curve, &runs, Settings::default(), u64::MAX);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // Budget 2, its one cut, open it, to its end: the events run out with
    // the run screen on top.
    let events = ["Down", "Enter", "Enter", "End"];
    let mut events = ScriptedEvents(events.iter().map(|k| common::screen::key(k)));
    run_screen(&mut terminal, &mut screen, &mut events).unwrap();
    let end = terminal.backend().to_string();
    assert!(end.contains("max_turns 2"), "{end}");
    assert!(end.contains("None"), "{end}");
}

#[test]
fn a_table_read_by_a_reader_that_leaves_early_ends_well() {
    // `loopstep table DIR -o - | head -1`: the closed pipe is no error,
    // and standard error closed as well is no panic.
    let real = common::fixture("real");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("loopstep"))
        .args(["table", &real, "-o", "-"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read the header, then close both pipes.
    let mut header = [0u8; 16];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut header).unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
}
