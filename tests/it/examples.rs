//! Every command the README and docs/ show in a shell block is run here
//! and what its comment claims checked, or is named with why it cannot
//! run in a test: so an example cannot drift from the program.

use crate::common;

/// The shell commands of the README and docs/, a line each (continuation
/// lines joined), with the comment after ` # ` cut off.
fn documented_commands() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut files = vec!["README.md".to_owned()];
    let mut docs: Vec<String> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".md"))
        .collect();
    docs.sort();
    files.extend(docs);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut in_shell = false;
        let mut pending = String::new();
        for line in text.lines() {
            if line.starts_with("```") {
                in_shell = !in_shell && matches!(line.trim_end(), "```sh" | "```bash" | "```shell");
                continue;
            }
            if !in_shell {
                continue;
            }
            let code = line.split(" # ").next().unwrap().trim_end();
            if let Some(start) = code.strip_suffix('\\') {
                pending += start;
                continue;
            }
            let whole = format!("{pending}{code}").trim().to_owned();
            pending.clear();
            if !whole.is_empty() && !whole.starts_with('#') {
                found.push((
                    file.clone(),
                    whole.split_whitespace().collect::<Vec<_>>().join(" "),
                ));
            }
        }
    }
    found
}

/// Why a documented command is not run here, by its opening words.
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo ", "builds or tests the project itself"),
    ("LANG=zh_CN.UTF-8 cargo", "builds the project itself"),
    ("mkdir ", "a setup step, not loopstep"),
    ("export OPENAI_API_KEY", "a setup step, not loopstep"),
    ("cd fuzz", "runs the fuzzer for ten minutes"),
    ("python3 scripts/perf.py", "the benchmarks' own script"),
    ("loopstep record ", "calls a real API over the network"),
    (
        "loopstep get-today.jsonl",
        "a recording the reader makes first",
    ),
    (
        "loopstep run my-agent-log.jsonl",
        "a log of the reader's own",
    ),
    ("loopstep play ~/.claude", "a session of the reader's own"),
    ("loopstep run ~/.claude", "a project of the reader's own"),
    (
        "loopstep import exchanges.json",
        "a log of the reader's own",
    ),
    ("loopstep sweep ~/runs", "a corpus of the reader's own"),
];

#[test]
fn every_documented_command_runs_as_its_comment_says_or_says_why_not() {
    let commands = documented_commands();
    assert!(commands.len() > 15, "{commands:?}");
    for (file, command) in &commands {
        if NOT_RUN.iter().any(|(start, _)| command.starts_with(start)) {
            continue;
        }
        let words: Vec<&str> = command.split_whitespace().collect();
        match words.as_slice() {
            // Written to a file in the reader's home: here, the script.
            ["loopstep", "completions", shell, ">", _] => {
                let script = common::printed(&["completions", shell]);
                assert!(script.contains("loopstep"), "{file}: {command}");
            }
            ["loopstep", "sweep", "transcripts/"] => {
                // "the built-in runs: aurora-run needs 3, paris 1"
                let json: serde_json::Value = serde_json::from_str(&common::printed(&[
                    "sweep",
                    "transcripts/",
                    "--format",
                    "json",
                ]))
                .unwrap();
                let needs = |run: &str| {
                    json["per_run"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|r| r["run"] == run)
                        .map(|r| r["needs"].clone())
                };
                assert_eq!(needs("aurora-run"), Some(serde_json::json!(3)), "{file}");
                assert_eq!(needs("paris"), Some(serde_json::json!(1)), "{file}");
            }
            // The screen needs a terminal: the lesson it opens is checked.
            ["loopstep", "present" | "notes", lesson, ..] => {
                let out = common::printed(&["validate", lesson]);
                assert!(out.contains("every run loads"), "{file}: {out}");
            }
            ["loopstep", args @ ..] => {
                let out = common::ran(args);
                assert_eq!(out.code, 0, "{file}: {command}\n{}", out.stderr);
                assert!(!out.stdout.is_empty(), "{file}: {command}");
            }
            _ => panic!("{file}: `{command}` is neither run here nor named in NOT_RUN"),
        }
    }
    // The README's Chinese example: `cargo run --release -- run aurora-run --lang zh`.
    let zh = common::printed(&["run", "aurora-run", "--lang", "zh"]);
    assert!(zh.ends_with("结果：\"1974\"\n"), "{zh}");
    // Nothing in NOT_RUN is stale: each still names a documented command.
    for (start, _) in NOT_RUN {
        assert!(
            commands.iter().any(|(_, c)| c.starts_with(start)),
            "NOT_RUN names `{start}`, which no document shows any more"
        );
    }
}
