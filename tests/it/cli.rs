//! The binary as a user runs it: output, messages and exit codes.

use crate::common;
use crate::common::fixture;

use std::path::PathBuf;

use assert_cmd::Command;
use common::{asks, says, search_doc};
use serde_json::{Value, json};

fn loopstep() -> Command {
    Command::cargo_bin("loopstep").unwrap()
}

/// Writes `contents` to a file of its own under the test target folder.
fn file(name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Output {
    let out = loopstep().args(args).output().unwrap();
    Output {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Bad input: exit 2, nothing on stdout, a message naming the problem.
fn assert_bad_input(args: &[&str], expected: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.code, 2, "args {args:?}\nstderr: {}", out.stderr);
    assert!(out.stdout.is_empty(), "stdout: {}", out.stdout);
    for needle in expected {
        assert!(
            out.stderr.contains(needle),
            "missing {needle:?} in: {}",
            out.stderr
        );
    }
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.stderr
}

#[test]
fn run_prints_each_step_and_ends_with_the_result() {
    let out = run(&["run", "aurora-run"]);
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"result: \"1974\""));
    let phases: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("turn "))
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(
        phases,
        [
            "start", "call", "check", "dispatch", "append", "call", "check", "dispatch", "append",
            "call", "check", "answer"
        ]
    );
    assert!(out.stdout.contains("request #3: 5 messages"));
}

#[test]
fn a_spent_budget_prints_none_and_still_exits_zero() {
    for args in [
        &["run", "aurora-run", "--max-turns", "2"][..],
        &["run", "aurora-run-max-turns-2"][..],
    ] {
        let out = run(args);
        assert_eq!(out.code, 0);
        assert!(out.stdout.ends_with("result: None\n"), "{}", out.stdout);
        assert!(
            out.stdout.contains("turn 1   budget spent"),
            "{}",
            out.stdout
        );
    }
    assert!(
        run(&["run", "paris"])
            .stdout
            .ends_with("result: \"Paris\"\n")
    );
}

#[test]
fn json_output_has_the_outcome_counts_and_steps() {
    let out = run(&["run", "aurora-run", "--format", "json"]);
    assert_eq!(out.code, 0);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["transcript"], "aurora-run");
    assert_eq!(report["max_turns"], 10);
    assert_eq!(report["outcome"], "answered");
    assert_eq!(report["result"], "1974");
    assert_eq!(report["model_calls"], 3);
    assert_eq!(report["tools_run"], 2);
    assert_eq!(report["goal_check"], "verified");
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 12);
    assert_eq!(steps[0]["turn"], 0);
    assert_eq!(steps[0]["phase"], "start");
    assert_eq!(steps[11]["phase"], "answer");
    // Each step carries the conversation's length after it, appends included.
    let lengths: Vec<u64> = steps
        .iter()
        .map(|s| s["messages"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6]);
    assert_eq!(steps[4]["appended"], 1);
    assert_eq!(
        report["goal_check_evidence"],
        json!([{"answer": "1974"}, {"model_calls": 3}])
    );

    let none = run(&["run", "aurora-run", "--max-turns", "2", "--format", "json"]);
    let report: Value = serde_json::from_str(&none.stdout).unwrap();
    assert_eq!(report["outcome"], "budget_exhausted");
    assert_eq!(report["result"], Value::Null);
    assert_eq!(report["model_calls"], 2);
}

#[test]
fn the_check_flag_changes_how_a_truncated_reply_is_read() {
    let doc = search_doc(
        vec![
            json!({"content": [{"type": "text", "text": "The director was born in 19"}], "stop_reason": "max_tokens"}),
        ],
        10,
    );
    let path = file("truncated-reply.json", doc.to_string());
    let path = path.to_str().unwrap();
    let production = run(&["run", path, "--check", "production"]);
    assert!(
        production
            .stdout
            .ends_with("result: no answer, the loop halted\n"),
        "{}",
        production.stdout
    );
    let lesson = run(&["run", path, "--check", "lesson"]);
    assert!(
        lesson
            .stdout
            .ends_with("result: \"The director was born in 19\"\n")
    );
}

#[test]
fn list_names_every_built_in_run() {
    let out = run(&["list"]);
    assert_eq!(out.code, 0);
    for name in ["aurora-run", "paris", "aurora-run-max-turns-2"] {
        assert!(out.stdout.lines().any(|l| l.starts_with(name)), "{name}");
    }
}

#[test]
fn help_teaches_the_commands_and_exit_codes() {
    let out = run(&["--help"]);
    assert_eq!(out.code, 0);
    for needle in [
        "run",
        "list",
        "validate",
        "max_turns",
        "Exit codes",
        "Examples",
    ] {
        assert!(out.stdout.contains(needle), "{needle}");
    }
}

#[test]
fn a_missing_file_is_named() {
    assert_bad_input(
        &["run", "no/such/run.json"],
        &["no/such/run.json", "aurora-run"],
    );
    assert_bad_input(&["run", "nonsense"], &["`nonsense`", "Built-in runs"]);
}

#[test]
fn a_misspelt_run_gets_the_nearest_names_with_play_or_without() {
    let with = assert_bad_input(&["play", "pariss"], &["`pariss`", "Did you mean `paris`?"]);
    let without = assert_bad_input(&["pariss"], &[]);
    assert_eq!(with, without);
    assert_bad_input(&["aurora"], &["Did you mean `aurora-run`?"]);
    // A misspelt command is clap's to explain, with its own suggestion.
    let out = run(&["valdate", "x.json"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("'validate'"), "{}", out.stderr);
}

#[test]
fn broken_json_names_line_and_column() {
    let path = file("broken.json", "{\n  \"version\": 1,\n  \"id\": oops\n}");
    assert_bad_input(
        &["run", path.to_str().unwrap()],
        &["not valid JSON", "line 3", "column"],
    );
}

#[test]
fn a_wrong_field_names_its_json_path() {
    let mut doc = search_doc(vec![says("x", "end_turn")], 10);
    doc["replies"][0]["content"][0]["text"] = json!(42);
    let path = file("wrong-type.json", doc.to_string());
    assert_bad_input(
        &["run", path.to_str().unwrap()],
        &["replies[0].content[0]", "expected a string", "line 1"],
    );

    let mut doc = search_doc(vec![says("x", "end_turn")], 10);
    doc["max_turn"] = json!(3);
    let path = file("typo.json", doc.to_string());
    assert_bad_input(
        &["run", path.to_str().unwrap()],
        &["max_turn", "unknown field"],
    );
}

#[test]
fn a_zero_or_negative_budget_is_refused() {
    for bad in [0, -3] {
        let path = file(
            &format!("budget{bad}.json"),
            search_doc(vec![says("x", "end_turn")], 1)
                .to_string()
                .replace("\"max_turns\":1", &format!("\"max_turns\":{bad}")),
        );
        assert_bad_input(
            &["run", path.to_str().unwrap()],
            &["max_turns", "the loop needs one model call"],
        );
    }
    assert_bad_input(
        &["run", "aurora-run", "--max-turns", "0"],
        &["--max-turns", "at least 1"],
    );
    assert_bad_input(
        &["run", "aurora-run", "--max-turns", "ten"],
        &["not a whole number"],
    );
}

#[test]
fn validate_reports_every_problem_at_once() {
    let mut doc = search_doc(
        vec![
            asks(&[("dup", "search", json!({"query": "a"}))]),
            asks(&[("dup", "lookup", json!({}))]),
        ],
        10,
    );
    doc["tools"] = json!([{"name": "search"}, {"name": "lookup"}]);
    doc["results"] = json!({"ghost": {"content": "x"}});
    doc["version"] = json!(7);
    let path = file("many-problems.json", doc.to_string());
    let stderr = assert_bad_input(
        &["validate", path.to_str().unwrap()],
        &[
            "4 problems",
            "version 7",
            "`replies[1].content[0].id`: tool_use id `dup` is already used",
            "`lookup`, which has no recorded result",
            "results.ghost",
        ],
    );
    assert!(stderr.contains("many-problems.json"));

    let good = file(
        "good.json",
        search_doc(vec![says("x", "end_turn")], 3).to_string(),
    );
    let out = run(&["validate", good.to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains("valid native transcript, 1 run"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("test: 1 reply"), "{}", out.stdout);
}

/// A missing field, a value out of range, a tool declared twice and a stop
/// reason no API has: all four in the first pass, where each used to show
/// only once the ones before it were mended (#33).
#[test]
fn validate_reports_missing_mistyped_and_unknown_in_one_pass() {
    let mut doc = search_doc(vec![says("x", "bogus")], 10);
    doc.as_object_mut().unwrap().remove("question");
    doc["max_turns"] = json!(0);
    doc["tools"] = json!([{"name": "search"}, {"name": "search"}]);
    let path = file("four-problems.json", doc.to_string());
    let stderr = assert_bad_input(
        &["validate", path.to_str().unwrap()],
        &[
            "4 problems",
            "the required field `question` is missing",
            "at `max_turns`: max_turns must be a whole number",
            "at `tools[1].name`: tool `search` is declared twice",
            "at `replies[0].stop_reason`: `bogus` is no API's stop reason",
        ],
    );
    assert!(stderr.contains("`end_turn`"), "{stderr}");
    // A value out of range alone still says where it is in the file.
    let mut doc = search_doc(vec![says("x", "end_turn")], 10);
    doc["max_turns"] = json!(0);
    let path = file(
        "out-of-range.json",
        serde_json::to_string_pretty(&doc).unwrap(),
    );
    assert_bad_input(&["validate", path.to_str().unwrap()], &["(line "]);
}

#[test]
fn truncated_and_garbage_files_never_panic() {
    let source = include_str!("../../transcripts/aurora-run.json");
    let cuts: Vec<usize> = (0..source.len()).step_by(97).collect();
    for cut in cuts {
        let path = file("truncated.json", &source.as_bytes()[..cut]);
        assert_bad_input(&["run", path.to_str().unwrap()], &["truncated.json"]);
    }
    for (name, bytes) in [
        ("empty.json", &b""[..]),
        ("binary.json", &[0xff, 0xfe, 0x00, 0x12, 0x80][..]),
        ("array.json", &b"[1, 2, 3]"[..]),
        ("trailing.json", &b"{} {}"[..]),
        ("deep.json", "[".repeat(5000).as_bytes()),
    ] {
        let path = file(name, bytes);
        assert_bad_input(&["validate", path.to_str().unwrap()], &[name]);
    }
}

#[test]
fn escape_sequences_in_input_never_reach_the_terminal() {
    let doc = search_doc(
        vec![says("\u{1b}[2J\u{1b}]0;owned\u{7}1974", "end_turn")],
        3,
    );
    let path = file("hostile.json", doc.to_string());
    let out = run(&["run", path.to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert!(!out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{7}'));
    assert!(out.stdout.contains("␛[2J"));

    let path = file("hostile\u{1b}[31m.json", "nope");
    let out = run(&["run", path.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
}

#[test]
fn json_output_escapes_what_a_terminal_would_act_on() {
    // U+009B is a one-byte CSI to some terminals; U+202E reverses a line.
    let hostile = "\u{9b}2J\u{202e}1974\u{2066}\u{7f}";
    let doc = search_doc(vec![says(hostile, "end_turn")], 3);
    let path = file("c1.json", doc.to_string());
    let out_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/c1 \u{1b}[31m.out.json");
    let raw = |text: &str| text.contains(['\u{9b}', '\u{202e}', '\u{2066}', '\u{7f}', '\u{1b}']);
    for args in [
        vec!["run", "--format", "json"],
        vec!["import"],
        vec!["import", "--force", "-o", out_file.to_str().unwrap()],
    ] {
        let out = run(&[&args[..], &[path.to_str().unwrap()]].concat());
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert!(
            !raw(&out.stdout) && !raw(&out.stderr),
            "{args:?}: {out_stdout:?}",
            out_stdout = out.stdout
        );
        let written = match args[0] {
            "import" if args.len() > 1 => std::fs::read_to_string(&out_file).unwrap(),
            _ => out.stdout,
        };
        assert!(
            written.contains(r"\u009b2J\u202e1974\u2066\u007f"),
            "{args:?}: {written}"
        );
        // Valid JSON, the text the same once read back.
        let back: Value = serde_json::from_str(&written).unwrap();
        assert!(back.to_string().contains(hostile), "{args:?}");
    }
    let out = run(&[
        "import",
        "--force",
        "-o",
        out_file.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(
        out.stderr.contains("wrote ") && out.stderr.contains("␛[31m"),
        "{}",
        out.stderr
    );
}

#[test]
fn run_replays_a_real_recording_and_reports_each_run() {
    let out = run(&[
        "run",
        &fixture("real/deepseek-tool-calls-with-thinking.exchanges.json"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("inserted"),
        "the client's own call is shown"
    );
    assert!(out.stdout.contains("model calls: 3"));

    let out = run(&["run", &fixture("claude-code.jsonl"), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    assert_eq!(report["totals"]["runs"], 3);
    assert_eq!(report["totals"]["model_calls"], 4);
    assert_eq!(runs[0]["outcome"], "answered");
    assert_eq!(runs[1]["outcome"], "interrupted");
    assert!(
        report["import_notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["text"].as_str().unwrap().contains("summary"))
    );
    // Each note is its fact for a script, with its sentence for a person.
    assert_eq!(
        report["import_notes"][1],
        serde_json::json!({"kind": "skipped", "what": {"lines": "summary"}, "count": 1,
            "text": "skipped `summary` lines (seen 1 time)"})
    );

    let text = run(&["run", &fixture("conversation-openai.json")]).stdout;
    assert!(
        text.contains("(inferred)"),
        "inferred stop reasons are marked"
    );
    assert!(text.ends_with("totals: 2 runs · model calls: 4 · tool calls: 3 · answered: 2\n"));
}

#[test]
fn import_never_writes_over_its_recording_nor_an_existing_file_unasked() {
    let real = std::fs::read(fixture("real/anthropic-parallel-tool-calls.exchanges.json")).unwrap();
    let recording = file("precious.exchanges.json", &real);
    let recording = recording.to_str().unwrap();
    assert_bad_input(
        &["import", recording, "-o", recording],
        &["is part of the recording being read"],
    );
    let other = file("existing.json", "keep me");
    let other = other.to_str().unwrap();
    assert_bad_input(&["import", recording, "-o", other], &["exists", "--force"]);
    assert_eq!(
        std::fs::read(recording).unwrap(),
        real,
        "the recording is untouched"
    );
    assert_eq!(std::fs::read_to_string(other).unwrap(), "keep me");

    let forced = run(&["import", recording, "-o", other, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        std::fs::read_to_string(other)
            .unwrap()
            .contains("\"replies\"")
    );
    // Written beside the target and renamed: nothing else is left there.
    let dir = std::path::Path::new(other).parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    let nowhere = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/no/such/dir/out.json");
    let failed = run(&["import", recording, "-o", nowhere.to_str().unwrap()]);
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    assert!(
        failed.stderr.contains("could not write"),
        "{}",
        failed.stderr
    );
    assert!(!nowhere.exists());
}

#[test]
fn import_writes_a_native_transcript_that_replays_the_same() {
    let source = fixture("real/anthropic-parallel-tool-calls.exchanges.json");
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/imported.json");
    let _ = std::fs::remove_file(&target); // left by an earlier run of the tests
    let out = run(&["import", &source, "-o", target.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("wrote"));
    let validated = run(&["validate", target.to_str().unwrap()]);
    assert_eq!(validated.code, 0, "{}", validated.stderr);
    assert!(validated.stdout.contains("valid native transcript"));
    let original = run(&["run", &source, "--format", "json"]).stdout;
    let reimported = run(&["run", target.to_str().unwrap(), "--format", "json"]).stdout;
    let steps = |json: &str| serde_json::from_str::<Value>(json).unwrap()["steps"].clone();
    assert_eq!(steps(&original), steps(&reimported));

    let to_stdout = run(&["import", &fixture("claude-code.jsonl")]);
    let runs: Value = serde_json::from_str(&to_stdout.stdout).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 3, "several runs: an array");
}

#[test]
fn an_unknown_format_names_the_formats_tried() {
    assert_bad_input(
        &["run", &fixture("not-a-recording.json")],
        &[
            "none of the formats",
            "exchange log",
            "Claude Code",
            "keys `foo`, `bar`",
        ],
    );
    let forced = run(&[
        "validate",
        &fixture("exchanges-anthropic.jsonl"),
        "--from",
        "exchanges",
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(forced.stdout.contains("Anthropic Messages"));
}

#[test]
fn the_two_checks_differ_exactly_on_the_runs_whose_stop_reason_needs_handling() {
    let diverging = ["max-tokens", "refusal", "pause-turn", "pending-tool-call"];
    let names = run(&["list"]).stdout;
    let names: Vec<&str> = names
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names.len(), 20);
    for name in names {
        let lesson = run(&["run", name, "--check", "lesson"]);
        let production = run(&["run", name, "--check", "production"]);
        assert_eq!((lesson.code, production.code), (0, 0));
        let last = |out: &str| out.lines().last().unwrap().to_owned();
        if diverging.contains(&name) {
            assert_ne!(last(&lesson.stdout), last(&production.stdout), "{name}");
        } else {
            assert_eq!(last(&lesson.stdout), last(&production.stdout), "{name}");
        }
    }
    // None is the spent budget's result only; a halted loop says it has none.
    let refusal = run(&["run", "refusal", "--check", "production"]).stdout;
    assert!(refusal.ends_with("result: no answer, the loop halted\n"));
    assert!(refusal.contains("outcome: halted"));
}

#[test]
fn mistakes_can_be_made_from_the_command_line() {
    let out = run(&[
        "run",
        "aurora-run",
        "--mistake",
        "drop-results",
        "--format",
        "json",
    ]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["mistake"], "drop-results");
    assert_eq!(report["outcome"], "rejected");
    let text = run(&["run", "always-search", "--mistake", "no-budget"]).stdout;
    assert!(text.contains("MISTAKE: no-budget"));
    assert!(text.contains("model calls: 100"));
    assert_bad_input(
        &["run", "aurora-run", "--mistake", "typo"],
        &["invalid value 'typo'"],
    );
}

#[test]
fn a_reader_that_goes_away_is_not_a_crash() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_loopstep"))
        .args(["run", "always-search", "--mistake", "no-budget"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // like `| head -0`
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn a_recording_that_ends_says_so_instead_of_none() {
    let doc = search_doc(
        vec![asks(&[("a", "search", json!({"query": "Aurora Run"}))])],
        10,
    );
    let path = file("ends-early.json", doc.to_string());
    let out = run(&["run", path.to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .ends_with("result: no answer, the recording ended before the loop did\n"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("result: None"));
}

#[test]
fn without_a_budget_the_header_names_the_safety_cap() {
    let out = run(&["run", "always-search", "--mistake", "no-budget"]);
    let header = out.stdout.lines().next().unwrap();
    assert!(header.contains("no max_turns (safety cap 100)"), "{header}");
    assert!(!header.contains("max_turns 4"), "{header}");
}

#[test]
fn a_mistake_the_run_cannot_show_says_so() {
    let out = run(&["run", "paris", "--mistake", "drop-results"]);
    assert!(
        out.stdout.contains(
            "This run cannot show the mistake drop-results: no reply of this run asks for a tool"
        ),
        "{}",
        out.stdout
    );
    let openai = run(&["run", "todays-date", "--mistake", "split-results"]);
    assert!(
        openai
            .stdout
            .contains("OpenAI Chat Completions already sends one role: \"tool\" message per call"),
        "{}",
        openai.stdout
    );
}

#[test]
fn the_answer_is_printed_neutralised_and_whole() {
    let answer = format!(
        "She said \"1974\".\u{200d}\nSecond line, then {}end",
        "a long middle ".repeat(40)
    );
    let doc = search_doc(vec![says(&answer, "end_turn")], 10);
    let path = file("long-answer.json", doc.to_string());
    let out = run(&["run", path.to_str().unwrap()]);
    let answer_step = out.stdout.lines().find(|l| l.contains(" answer ")).unwrap();
    assert!(answer_step.contains("She said \"1974\"."), "{answer_step}");
    assert!(
        !answer_step.contains("\\\""),
        "no debug escapes: {answer_step}"
    );
    assert!(
        !answer_step.contains("\\u{"),
        "no debug escapes: {answer_step}"
    );
    let result = out.stdout.lines().last().unwrap();
    assert!(
        result.starts_with("result: \"She said \"1974\"."),
        "{result}"
    );
    let whole = loopstep::text::one_line(&answer, usize::MAX);
    assert_eq!(result, format!("result: \"{whole}\""), "whole, never cut");
    assert!(result.ends_with("a long middle end\""), "{result}");
    assert!(result.contains("⏎Second line"), "{result}");
}

#[test]
fn an_openai_run_prints_openai_words() {
    let out = run(&["run", "todays-date"]);
    assert!(out.stdout.contains("reply with finish_reason tool_calls"));
    assert!(
        out.stdout
            .contains("1 result as one role: \"tool\" message per call → 4 messages")
    );
    let json: Value =
        serde_json::from_str(&run(&["run", "todays-date", "--format", "json"]).stdout).unwrap();
    assert_eq!(json["dialect"], "openai-chat");
    assert_eq!(json["steps"][1]["finish_reason"], "tool_calls");
    // The system prompt first, as Chat Completions sends it.
    assert_eq!(json["messages"][0]["role"], "system");
    assert_eq!(json["messages"][3]["role"], "tool");
    assert_eq!(json["messages"][3]["tool_call_id"], "call_00_today");
}

#[test]
fn errors_speak_the_users_terms() {
    let too_large = assert_bad_input(
        &["run", "paris", "--max-turns", "4294967296"],
        &["too large"],
    );
    assert!(!too_large.contains("at least 1"), "{too_large}");

    let mut doc: Value =
        serde_json::from_str(include_str!("../../transcripts/paris.json")).unwrap();
    doc["max_turns"] = json!(1e23);
    let float = file("float-turns.json", doc.to_string());
    let message = assert_bad_input(
        &["validate", float.to_str().unwrap()],
        &["max_turns must be a whole number", "at `max_turns`"],
    );
    assert!(
        !message.contains("i64") && !message.contains("floating point"),
        "{message}"
    );

    doc["max_turns"] = json!(4_294_967_295u64);
    let huge = file("huge-turns.json", doc.to_string());
    assert_bad_input(
        &["validate", huge.to_str().unwrap()],
        &["the most loopstep replays"],
    );

    let mut bytes = b"{\"version\": 1, \"id\": \"".to_vec();
    bytes.extend([0xff, 0xfe]);
    let broken = file("not-utf8.json", bytes);
    assert_bad_input(&["validate", broken.to_str().unwrap()], &["offset 22"]);
}

#[test]
fn a_byte_order_mark_does_not_stop_a_file_loading() {
    let text = format!("\u{feff}{}", include_str!("../../transcripts/paris.json"));
    let path = file("with-bom.json", text);
    let out = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// `loopstep ARGS` with an endless stream on standard input: `yes` on a
/// pipe (a device such as /dev/zero is refused unread).
fn on_an_endless_pipe(args: &[&str]) -> Output {
    let mut yes = std::process::Command::new("yes")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin!("loopstep"))
        .args(args)
        .stdin(yes.stdout.take().unwrap())
        .output()
        .unwrap();
    yes.kill().ok();
    yes.wait().ok();
    Output {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn a_file_past_the_size_limit_or_an_endless_stream_is_refused() {
    let out = on_an_endless_pipe(&["validate", "/dev/stdin", "--max-size", "1MiB"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("larger than 1 MiB"), "{}", out.stderr);
    assert!(out.stderr.contains("--max-size"), "{}", out.stderr);
    let big = file("big.json", vec![b' '; 3000]);
    let out = run(&["validate", big.to_str().unwrap(), "--max-size", "2KiB"]);
    assert!(out.stderr.contains("larger than 2 KiB"), "{}", out.stderr);
    // A file that says it is too large is refused before a byte of it is
    // read: 8 GiB of nothing (sparse, so it takes no room) under the
    // default limit of 1 GiB, which reading would take seconds to reach.
    let huge = file("huge.json", b"[");
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let out = run(&["validate", huge.to_str().unwrap()]);
    std::fs::remove_file(&huge).unwrap();
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("larger than 1 GiB"), "{}", out.stderr);
}

#[test]
fn raw_escapes_in_flag_values_never_reach_the_terminal() {
    let out = run(&["run", "paris", "--check", "\u{1b}]2;PWNED\u{7}"]);
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
    assert!(!out.stderr.contains('\u{7}'), "{:?}", out.stderr);
}

#[test]
fn json_of_a_multi_run_log_does_not_repeat_each_runs_history() {
    let path = format!(
        "{}/tests/fixtures/conversation-anthropic.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = run(&["run", &path, "--format", "json"]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let second = &report["runs"][1];
    assert_eq!(second["history_messages"], 6);
    assert_eq!(
        second["messages"][0]["content"][0]["text"], "Now read notes.txt for me.",
        "the run's messages start at its own question"
    );
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        for word in ["validate", "import", "max-turns", "trajectory"] {
            assert!(out.stdout.contains(word), "{shell} lacks {word}");
        }
    }
    assert_bad_input(&["completions", "cmd.exe"], &["possible values"]);
}

#[test]
fn an_archive_unpacking_past_the_size_limit_is_refused() {
    // 5.5 kB on disk, more than 6 kB once unpacked.
    let archive = fixture("real/inspect-read-sample.eval");
    assert_bad_input(
        &["run", &archive, "--max-size", "6000"],
        &["unpacks to more than", "--max-size"],
    );
    assert_eq!(run(&["run", &archive]).code, 0);
}

#[test]
fn validate_wants_a_result_for_each_use_of_a_reused_id() {
    let doc = json!({
        "version": 1, "id": "s", "title": "s", "question": "q", "model": "m", "max_turns": 5,
        "recorded": true, "tools": [{"name": "search"}],
        "replies": [
            {"content": [{"type": "tool_use", "id": "x", "name": "search", "input": {"query": "a"}}], "stop_reason": "tool_use"},
            {"content": [{"type": "tool_use", "id": "x", "name": "search", "input": {"query": "b"}}], "stop_reason": "tool_use"},
            {"content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn"}
        ],
        "results": {"x": [{"content": "A"}]}
    });
    let path = file("short-results.json", doc.to_string());
    assert_bad_input(
        &["validate", path.to_str().unwrap()],
        &["`replies[1].content[0]`", "no recorded result"],
    );
}

#[test]
fn export_writes_every_step_in_order_with_its_caption_and_the_result() {
    let out = run(&["export", "aurora-run", "-o", "-"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let md = out.stdout;
    let mut at = 0;
    for n in 1..=12 {
        let heading = format!("## step {n}/12 ·");
        let found = md[at..]
            .find(&heading)
            .unwrap_or_else(|| panic!("{heading} in order"));
        at += found;
    }
    assert!(md.starts_with("# Multi-step"));
    assert!(md.contains("Dispatch: the loop, not the model, runs search."));
    assert!(md.trim_end().ends_with("**result: \"1974\"**"), "{md}");

    let spent = run(&["export", "aurora-run", "--max-turns", "2", "-o", "-"]).stdout;
    assert!(spent.trim_end().ends_with("**result: None**"), "{spent}");
    let chinese = run(&["--lang", "zh", "export", "aurora-run", "-o", "-"]).stdout;
    assert!(chinese.contains("## 第 1/12 步"), "{chinese}");

    let target = file("handout.md", "keep me");
    let target = target.to_str().unwrap();
    assert_bad_input(
        &["export", "aurora-run", "-o", target],
        &["exists", "--force"],
    );
    assert_eq!(
        run(&["export", "aurora-run", "-o", target, "--force"]).code,
        0
    );
    assert!(
        std::fs::read_to_string(target)
            .unwrap()
            .contains("## step 12/12")
    );
}

#[test]
fn export_takes_its_format_from_the_extension_unless_told() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-export");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let export = |name: &str, more: &[&str]| {
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        let out = run(&[&["export", "aurora-run", "-o", path][..], more].concat());
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert!(out.stderr.contains("wrote "), "{}", out.stderr);
        std::fs::read_to_string(path).unwrap()
    };
    let html = "<!DOCTYPE html>\n<html lang=\"en\">";
    let cast = "{\"version\":2,\"width\":80,\"height\":24,";
    let markdown = "# Multi-step";
    for (name, start) in [
        ("page.html", html),
        ("PAGE.HTM", html),
        ("run.cast", cast),
        ("handout.md", markdown),
        ("handout.txt", markdown),
        ("handout", markdown),
    ] {
        let text = export(name, &[]);
        assert!(text.starts_with(start), "{name}: {text:.80}");
    }
    // Told, the format wins over the extension.
    assert!(export("told.html", &["--format", "markdown"]).starts_with(markdown));
    assert!(export("told.md", &["--format", "cast", "--size", "100x30"]).contains("\"width\":100"));

    // Standard output: Markdown unless told.
    assert!(
        run(&["export", "aurora-run", "-o", "-"])
            .stdout
            .starts_with(markdown)
    );
    let page = run(&["export", "aurora-run", "-o", "-", "--format", "html"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    assert!(page.stdout.starts_with(html));
    assert!(page.stdout.ends_with("</html>\n"));
    assert!(page.stderr.is_empty(), "{}", page.stderr);
}

#[test]
fn export_refuses_a_size_it_cannot_use_and_writes_over_no_recording() {
    assert_bad_input(
        &["export", "aurora-run", "-o", "-", "--size", "100x30"],
        &["--size", "cast", "this export is markdown"],
    );
    for size in ["100", "wide", "79x24", "80x10000"] {
        assert_bad_input(
            &[
                "export",
                "aurora-run",
                "-o",
                "-",
                "--format",
                "cast",
                "--size",
                size,
            ],
            &["--size", size],
        );
    }
    let recording = file(
        "export-me.json",
        search_doc(vec![says("42", "end_turn")], 2).to_string(),
    );
    let recording = recording.to_str().unwrap();
    let before = std::fs::read(recording).unwrap();
    for format in ["markdown", "html", "cast"] {
        assert_bad_input(
            &[
                "export", recording, "--format", format, "-o", recording, "--force",
            ],
            &["is part of the recording being read"],
        );
    }
    assert_eq!(std::fs::read(recording).unwrap(), before);
}

#[test]
fn a_transcript_in_both_languages_is_read_once_from_a_pipe() {
    // Its English and Chinese texts come from one read: a pipe gives its
    // text only once.
    let text = include_str!("../../transcripts/aurora-run.json");
    for (args, expected) in [
        (
            &["validate", "/dev/stdin", "--lang", "zh"][..],
            "多步：Aurora Run 的导演是谁，生于哪一年？",
        ),
        (
            &["export", "/dev/stdin", "-o", "-"][..],
            "# Multi-step: who directed Aurora Run",
        ),
    ] {
        let out = loopstep().args(args).write_stdin(text).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(expected), "{args:?}: {stdout}");
    }
}

#[test]
fn a_price_list_is_read_whatever_the_command_and_never_past_a_mebibyte() {
    // Given and unreadable: bad input, even where no cost is shown.
    for command in ["list", "validate"] {
        let args: &[&str] = match command {
            "list" => &["list", "--prices", "nope.json"],
            _ => &["validate", "paris", "--prices", "nope.json"],
        };
        assert_bad_input(args, &["could not read the price list nope.json"]);
    }
    // An endless stream is refused at the limit, not read on.
    let out = on_an_endless_pipe(&["run", "paris", "--prices", "/dev/stdin"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("/dev/stdin is larger than 1 MiB"),
        "{}",
        out.stderr
    );
    // A larger file is refused before it is read: 8 GiB that take no room.
    let big = file("prices-8g.json", "");
    std::fs::File::options()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    assert_bad_input(
        &["run", "paris", "--prices", big.to_str().unwrap()],
        &["is larger than 1 MiB"],
    );
    std::fs::remove_file(big).unwrap();
}

#[test]
fn import_to_a_dash_writes_to_standard_output_and_no_file() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dash");
    std::fs::create_dir_all(&dir).unwrap();
    let out = loopstep()
        .current_dir(&dir)
        .args(["import", &fixture("conversation-anthropic.json"), "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let written: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(written.to_string().contains(r#""version":1"#), "{written}");
    assert!(!dir.join("-").exists(), "no file named -");
}

#[test]
fn a_folder_as_the_output_is_refused_with_or_without_force() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("out-folder");
    std::fs::create_dir_all(&dir).unwrap();
    let folder = dir.to_str().unwrap();
    let fixture_path = fixture("conversation-anthropic.json");
    for force in [false, true] {
        let mut args = vec!["import", "-o", folder];
        args.extend(force.then_some("--force"));
        args.push(&fixture_path);
        assert_bad_input(&args, &["is a folder; give the name of a file to write"]);
        let mut args = vec!["export", "paris", "-o", folder];
        args.extend(force.then_some("--force"));
        assert_bad_input(&args, &["is a folder; give the name of a file to write"]);
    }
}

/// A folder of its own under the test target folder, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("writes")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_symbolic_link_as_the_output_stays_a_link_to_what_is_written() {
    let dir = scratch("link");
    std::fs::write(dir.join("real.md"), "old").unwrap();
    std::os::unix::fs::symlink("real.md", dir.join("link.md")).unwrap();
    let link = dir.join("link.md");
    let link = link.to_str().unwrap();
    assert_bad_input(&["export", "paris", "-o", link], &["exists", "--force"]);
    let written = run(&["export", "paris", "-o", link, "--force"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(std::fs::symlink_metadata(link).unwrap().is_symlink());
    let text = std::fs::read_to_string(dir.join("real.md")).unwrap();
    assert!(text.starts_with("# "), "{text}");
    assert_eq!(names_in(&dir), ["link.md", "real.md"]);
}

#[test]
fn a_dangling_link_is_written_through_only_with_force() {
    let dir = scratch("dangling");
    std::os::unix::fs::symlink("made.md", dir.join("link.md")).unwrap();
    let link = dir.join("link.md");
    let link = link.to_str().unwrap();
    assert_bad_input(
        &["export", "paris", "-o", link],
        &[
            "is a symbolic link to",
            "made.md",
            "does not exist",
            "--force",
        ],
    );
    assert!(!dir.join("made.md").exists());
    let written = run(&["export", "paris", "-o", link, "--force"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(std::fs::symlink_metadata(link).unwrap().is_symlink());
    assert!(
        std::fs::read_to_string(dir.join("made.md"))
            .unwrap()
            .starts_with("# ")
    );
}

#[test]
fn a_file_replaced_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("mode");
    let out = dir.join("private.json");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    let recording = fixture("conversation-anthropic.json");
    let written = run(&["import", &recording, "-o", out.to_str().unwrap(), "--force"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("\"version\"")
    );
    assert_eq!(names_in(&dir), ["private.json"], "nothing else is left");
}

#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let written = run(&["export", "paris", "-o", fifo.to_str().unwrap()]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(reader.join().unwrap().starts_with("# "));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_character_device_is_written_into_not_replaced() {
    // As root, a rename would replace /dev/null with a file; as anyone
    // else it would fail. Either way it must stay the device.
    let written = run(&["export", "paris", "-o", "/dev/null", "--force"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    use std::os::unix::fs::FileTypeExt;
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
}

#[test]
fn a_socket_is_refused() {
    let dir = scratch("socket");
    let socket = dir.join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    assert_bad_input(
        &["export", "paris", "-o", socket.to_str().unwrap(), "--force"],
        &["is neither a file, a FIFO nor a character device"],
    );
}

#[test]
fn names_planted_beside_the_output_are_never_written_through() {
    let dir = scratch("planted");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // Links at names a temporary file might take (the old scheme used
    // `.out.md.<pid>.tmp`): a temporary file is only ever created new, so
    // none of them is followed, whatever the names.
    for n in 0..2000 {
        let planted = dir.join(format!(".out.md.{n}.tmp"));
        std::os::unix::fs::symlink(&victim, planted).unwrap();
    }
    let out = dir.join("out.md");
    let written = run(&["export", "paris", "-o", out.to_str().unwrap()]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("# "));
    assert_eq!(names_in(&dir).len(), 2002, "only out.md was added");
}

#[test]
fn no_file_of_a_project_folder_recording_is_ever_written() {
    // A copy: the test must not be able to harm the fixture.
    let dir = scratch("project");
    let project = dir.join("proj");
    let fixture_dir = PathBuf::from(fixture("claude-code-project"));
    copy_tree(&fixture_dir, &project);
    let before = tree_of(&project);
    let session = project.join("5f1c.jsonl");
    let agent = project.join("5f1c/subagents/agent-a1b2.jsonl");
    let new_session = project.join("new.jsonl");
    let (project, session, agent, new_session) = (
        project.to_str().unwrap(),
        session.to_str().unwrap(),
        agent.to_str().unwrap(),
        new_session.to_str().unwrap(),
    );
    for (recording, out) in [
        (project, session),
        (project, agent),
        (project, new_session),
        (session, session),
        (session, agent),
    ] {
        for command in ["import", "export"] {
            assert_bad_input(
                &[command, recording, "-o", out, "--force"],
                &["is part of the recording being read"],
            );
        }
    }
    assert_eq!(tree_of(std::path::Path::new(project)), before);
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes.
fn tree_of(dir: &std::path::Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(tree_of(&path));
        } else {
            files.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

/// `kill -9` in the middle of a write leaves nothing behind: the new text
/// is in an anonymous file (`O_TMPFILE`) until it is whole.
#[test]
#[cfg(target_os = "linux")]
fn a_write_killed_midway_leaves_nothing_behind() {
    // A long chat, whose import takes long enough to be caught writing; a
    // longer one where a busy machine let the first finish unseen.
    for prompts in [30_000, 240_000] {
        let dir = scratch(&format!("killed-{prompts}"));
        let input = dir.join("chat.json");
        let messages: Vec<Value> = (0..prompts)
            .flat_map(|p| {
                [
                    json!({"role": "user", "content": format!("question {p}")}),
                    json!({"role": "assistant", "content": format!("answer {p}")}),
                ]
            })
            .collect();
        let chat = json!({"model": "gpt-5", "messages": messages});
        std::fs::write(&input, chat.to_string()).unwrap();
        let out_dir = dir.join("out");
        std::fs::create_dir(&out_dir).unwrap();
        let out = out_dir.join("run.json");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_loopstep"))
            .args([
                "import",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until it holds a file open in the output's folder.
        let fds = format!("/proc/{}/fd", child.id());
        let writing = || {
            std::fs::read_dir(&fds).into_iter().flatten().any(|fd| {
                std::fs::read_link(fd.unwrap().path()).is_ok_and(|to| to.starts_with(&out_dir))
            })
        };
        let caught = loop {
            if writing() {
                break true;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
        };
        child.kill().unwrap();
        child.wait().unwrap();
        if caught {
            assert_eq!(names_in(&out_dir), Vec::<String>::new(), "nothing is left");
            return;
        }
    }
    panic!("the import was never seen writing");
}

#[test]
fn a_session_on_a_pipe_that_breaks_is_refused_without_waiting_for_the_writer() {
    // A session past its first chunk, a line that is no UTF-8, and a
    // writer that keeps the pipe open: the refusal comes at once.
    let mut session = common::generated::claude_code_session(4, 40, 10_000).into_bytes();
    session.extend_from_slice(b"{\"type\": \"user\", \"x\": \"\xff\"}\n");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("loopstep"))
        .args(["validate", "/dev/stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, &session).unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    drop(stdin);
    let status = status.unwrap_or_else(|| {
        child.kill().ok();
        panic!("still reading a pipe whose writer had nothing more to say")
    });
    assert_eq!(status.code(), Some(2));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("is not UTF-8 text"), "{err}");
}

/// A Claude Code session with two prompts is two runs: of the five user
/// lines in its raw file whose content is a string, two are a person's,
/// "start phoenix in background" and "scrolling back in xterm.js …"; the
/// others are the client's (a caveat marked isMeta, the /mcp command and
/// its output). `export` writes both runs, one after another, or the one
/// `--run` names, and says which (#33).
#[test]
fn export_writes_every_run_of_a_recording_or_the_one_asked_for() {
    let session = fixture("real/claude-code-interleaved.jsonl");
    let out = run(&["export", &session, "-o", "-"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let titles: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("# ")).collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles[0].contains("start phoenix"), "{titles:?}");
    assert!(titles[1].contains("scrolling back"), "{titles:?}");
    assert!(out.stderr.contains("runs 1 to 2 of 2"), "{}", out.stderr);

    let out = run(&[
        "export", &session, "--run", "2", "-o", "-", "--format", "html",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("<section class=\"run\"").count(), 1);
    assert!(out.stdout.contains("scrolling back"));
    assert!(!out.stdout.contains("start phoenix"));
    assert!(out.stderr.contains("run 2 of 2"), "{}", out.stderr);

    // Both runs on one page: every step's anchor is its own.
    let page = run(&["export", &session, "-o", "-", "--format", "html"]).stdout;
    assert_eq!(page.matches("<section class=\"run\"").count(), 2);
    let ids: Vec<&str> = page.split("id=\"step-").skip(1).collect();
    let unique: std::collections::BTreeSet<&str> = ids
        .iter()
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(unique.len(), ids.len());

    assert_bad_input(
        &["export", &session, "--run", "3", "-o", "-"],
        &["--run 3", "it holds 2"],
    );
}

/// A cast past what a recording holds is a refusal, exit 2, not a failure.
#[test]
fn a_cast_too_long_to_play_is_refused() {
    assert_bad_input(
        &[
            "export",
            "always-search",
            "--max-turns",
            "1500",
            "-o",
            "-",
            "--format",
            "cast",
        ],
        &["more than 2000 steps", "--max-turns"],
    );
}

/// A price no model has, so large that a cost would be infinite, is refused.
#[test]
fn a_price_past_any_model_s_is_refused() {
    let prices = file(
        "huge-prices.json",
        r#"{"claude-opus-5-5": {"input": 1e308, "output": 1}}"#,
    );
    assert_bad_input(
        &["run", "paris", "--prices", prices.to_str().unwrap()],
        &["from 0 to 1e9", "not 1e308"],
    );
}

#[test]
fn every_command_that_writes_to_standard_output_ends_quietly_when_its_reader_goes() {
    // `loopstep … | head -1` with the reader gone before a byte is written:
    // a broken pipe is the reader's choice, no failure (exit 0, as for the
    // command's own success), and neither standard output nor a closed
    // standard error may panic.
    let real = fixture("real");
    let commands: [&[&str]; 11] = [
        &["run", "aurora-run"],
        &["run", "aurora-run", "--format", "json"],
        &["list"],
        &["export", "aurora-run", "-o", "-", "--format", "markdown"],
        &["import", "aurora-run", "-o", "-"],
        &["validate", "aurora-run"],
        &[
            "compare",
            "aurora-run",
            "aurora-run",
            "--right-max-turns",
            "2",
            "--format",
            "text",
        ],
        &["sweep", "transcripts"],
        &["table", &real, "-o", "-"],
        &["completions", "bash"],
        &["--help"],
    ];
    for args in commands {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("loopstep"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The read end closed at once: every write the command makes fails.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}
