//! Real recordings from public repositories (tests/fixtures/real/SOURCES.md),
//! counted right: every figure asserted here was counted by hand from the
//! raw file, and the comment beside it says how.

use crate::common;

use common::{Counted, counted, load};
use loopstep::dialect::Dialect;
use loopstep::engine::{Block, Event};
use loopstep::transcript::{Format, Kind};

#[test]
fn a_codex_rollout_counts_patches_and_web_searches_as_calls_and_reads_each_call_s_usage() {
    let source = load("real/codex-rollout-patches-and-search.jsonl");
    assert_eq!(source.format, Format::Codex);
    // Counted from the raw file (702 lines, Codex Desktop 0.104):
    // - runs: 5 prompts, the role "user" messages whose text matches an
    //   `event_msg` `user_message` (lines 9, 188, 290, 530, 653); the other
    //   five user messages are AGENTS.md and environment context, sent
    //   before a prompt, so they are history, not runs.
    // - model calls: 81 runs of consecutive model items (reasoning,
    //   assistant message, function_call, custom_tool_call,
    //   web_search_call) between inputs; 81 `token_count` events move the
    //   running total, one per call.
    // - tool calls the loop dispatches: 82 `function_call` (exec_command 71,
    //   write_stdin 9, update_plan 2) + 22 `custom_tool_call` (apply_patch)
    //   = 104, each answered by an output item under its call_id.
    // - each run ends on an assistant message with no call: answered.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 5,
            model_calls: 81,
            tool_calls: 104,
            outcomes: vec!["answered"; 5],
        }
    );
    let runs = &source.runs;
    assert!(
        runs.iter()
            .all(|r| r.dialect == Some(Dialect::OpenaiResponses))
    );
    let blocks = || {
        runs.iter()
            .flat_map(|r| &r.replies)
            .flat_map(|r| &r.content)
    };
    // The one `web_search_call` (line 123) ran on the server: in the reply,
    // never dispatched.
    let searches: Vec<&Block> = blocks()
        .filter(|b| matches!(b, Block::ServerToolUse { .. }))
        .collect();
    assert_eq!(searches.len(), 1);
    // The patches keep their free-text input as it was written.
    let patches = blocks()
        .filter(|b| matches!(b, Block::ToolUse { name, input, .. } if name == "apply_patch" && input.is_string()))
        .count();
    assert_eq!(patches, 22);
    // Every call has the usage its `token_count` recorded; the first
    // call's `last_token_usage` (line 19): input 17,203 of which 3,456
    // cached, output 358.
    assert!(
        runs.iter()
            .flat_map(|r| &r.replies)
            .all(|r| r.usage.is_some())
    );
    let first = runs[0].replies[0].usage.unwrap();
    assert_eq!(
        (
            first.input_tokens,
            first.cache_read_tokens,
            first.output_tokens
        ),
        (17_203 - 3_456, 3_456, 358)
    );
}

#[test]
fn an_older_codex_rollout_writes_token_counts_before_the_call_and_still_pairs_them() {
    let source = load("real/codex-rollout-0.58-shell.jsonl");
    // Counted from the raw file (279 lines, codex-cli 0.58): one prompt
    // (line 3; line 2 is environment context); 39 model calls (38 reasoning
    // + function_call, one function_call alone), 39 `shell` / `update_plan`
    // calls each answered; the log stops after a tool output, before any
    // answer, so the replay runs out of recording.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 39,
            tool_calls: 39,
            outcomes: vec!["recording_ended"],
        }
    );
    // This version writes a call's `token_count` before its items: the
    // usage still goes to its own call. The first call's (line 9, before
    // its reasoning and function_call on lines 10-11): input 10,128, none
    // cached, output 37.
    let usage = source.runs[0].replies[0].usage.unwrap();
    assert_eq!((usage.input_tokens, usage.output_tokens), (10_128, 37));
    let trace = source.runs[0].replay(source.runs[0].default_config());
    assert!(trace.steps.iter().any(|s| matches!(
        &s.event,
        Event::Dispatch { name, .. } if name == "shell"
    )));
}

#[test]
fn a_claude_code_response_is_one_call_though_its_tools_results_come_between_its_lines() {
    let source = load("real/claude-code-interleaved.jsonl");
    assert_eq!(source.format, Format::ClaudeCode);
    // Counted from the raw file (39 lines, Claude Code 2.1.38): 4 distinct
    // `message.id`s on the assistant lines, so 4 model calls; 6 `tool_use`
    // blocks, each with a `tool_result`. Response msg_019BN3FRqb7NU4DgBN5jdsym
    // writes a tool_use on line 34, the result on line 36, and its second
    // tool_use on line 37: one call, not two. Two prompts (lines 4 and 26)
    // each begin a run; both turns end with "[Request interrupted by user]"
    // (lines 18 and 39): the user ended them.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            model_calls: 4,
            tool_calls: 6,
            outcomes: vec!["interrupted"; 2],
        }
    );
    // The interleaved response asks for both of its tools in one reply.
    let second = &source.runs[1];
    let calls: Vec<usize> = second
        .replies
        .iter()
        .map(|r| r.tool_calls().count())
        .collect();
    assert_eq!(calls, [2, 2]);
    let trace = second.replay(second.default_config());
    assert!(
        trace.steps.iter().all(|s| !matches!(
            &s.event,
            Event::Dispatch { output, .. } if output.is_error
        )),
        "every tool has its recorded result"
    );
}

#[test]
fn a_sub_agent_file_joins_its_responses_the_same_way() {
    let source = load(
        "real/claude-code-compacted/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl",
    );
    // Counted from the raw file (a `subagents/agent-aac57f5.jsonl`, 40
    // lines, every one `isSidechain`): 3 distinct `message.id`s, so 3
    // calls; 12 `tool_use`, 12 `tool_result`. Response
    // msg_01QUWJL4JqVhaSxqh4fsVEw3 has tool_use lines 22-24 and 29-31, with
    // results on lines 26 and 28 between them. The last response (line 40)
    // is text alone: the answer.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 3,
            tool_calls: 12,
            outcomes: vec!["answered"],
        }
    );
    let calls: Vec<usize> = source.runs[0]
        .replies
        .iter()
        .map(|r| r.tool_calls().count())
        .collect();
    assert_eq!(calls, [6, 6, 0]);
}

#[test]
fn a_vcr_cassette_in_parsed_body_form_pairs_reused_call_ids_by_item_id() {
    let source = load("real/cassette-responses-reused-call-ids.yaml");
    assert_eq!(source.format, Format::Cassette);
    assert_eq!(
        source.kind,
        Kind::Calls(Format::Cassette, Dialect::OpenaiResponses)
    );
    // Counted from the raw file (4 interactions, all `completed`): calls 1
    // and 2 each ask for one tool, both under `call_id: call_0`; call 3
    // answers; request 4 adds a new prompt ("Reply with exactly OK."),
    // answered by call 4. So 2 runs: 3 calls and 2 tools, then 1 call.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            model_calls: 4,
            tool_calls: 2,
            outcomes: vec!["answered"; 2],
        }
    );
    // The client sent each back as `resp_<id>:call_0`; the function_call
    // items' ids (`fc_…`) pair them, so each call gets its own result.
    let trace = source.runs[0].replay(source.runs[0].default_config());
    let outputs: Vec<String> = common::dispatched(&trace)
        .iter()
        .map(|(_, _, output)| output.content.to_string())
        .collect();
    assert_eq!(outputs, ["first result", "second result"]);
    let paired = source
        .notes
        .iter()
        .filter(|n| n.to_string().contains("the call's item id pairs them"))
        .count();
    assert_eq!(paired, 2);
}

#[test]
fn a_vcr_cassette_in_raw_body_form_reads_gzip_bytes_and_quoted_streams() {
    // dd-trace-py's cassettes as vcrpy writes them: the request body a
    // quoted JSON string; the response gzip bytes under `!!binary`
    // (decoded by hand: text, then tool_use toolu_01DYJo37… get_weather,
    // stop_reason tool_use), or a stream of 85 events in a double-quoted
    // string (the same tool call, its input in 5 input_json_delta pieces).
    for name in [
        "real/cassette-anthropic-gzip-body.yaml",
        "real/cassette-anthropic-quoted-stream.yaml",
    ] {
        let source = load(name);
        assert_eq!(
            source.kind,
            Kind::Calls(Format::Cassette, Dialect::AnthropicMessages)
        );
        let run = &source.runs[0];
        assert_eq!(run.replies.len(), 1, "{name}");
        assert_eq!(run.replies[0].stop_reason, "tool_use", "{name}");
        let call = run.replies[0].tool_calls().next().unwrap();
        assert_eq!(call.name, "get_weather");
        assert_eq!(call.input["location"], "San Francisco, CA", "{name}");
        // The cassette holds no result: the recording ends there.
        assert_eq!(counted(&source).outcomes, ["recording_ended"], "{name}");
    }
}

#[test]
fn a_vcr_cassette_s_headers_are_never_read_or_shown() {
    let source = load("real/cassette-openai-chat-body-string.yaml");
    // Counted from the raw file (OpenTelemetry's openai-v2 tests, bodies
    // as pretty JSON under `body.string`): call 1 asks for two
    // get_current_weather calls in parallel (finish_reason tool_calls);
    // request 2 sends both results, and call 2 answers (stop).
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 2,
            outcomes: vec!["answered"],
        }
    );
    // The recorded `authorization` and cookie headers go nowhere.
    let everything = serde_json::to_string(&source.runs).unwrap();
    for header in ["test_openai_api_key", "test_cookie", "test_set_cookie"] {
        assert!(!everything.contains(header), "{header} leaked");
    }
}

#[test]
fn a_bare_stream_of_events_is_one_call_whose_request_was_not_kept() {
    use loopstep::transcript::import::NO_REQUEST;
    // anthropic-sdk-python's tool_use_response.txt: 15 events, no newline
    // at the end; text "I'll check the current weather in Paris for you."
    // and one tool_use (get_weather, input from 5 pieces), stop_reason
    // tool_use.
    let anthropic = load("real/events-anthropic-tool-use.txt");
    assert_eq!(anthropic.format, Format::Events);
    let run = &anthropic.runs[0];
    assert_eq!(run.question, NO_REQUEST);
    assert_eq!(run.replies.len(), 1);
    assert_eq!(
        run.replies[0].text(),
        "I'll check the current weather in Paris for you."
    );
    let call = run.replies[0].tool_calls().next().unwrap();
    assert_eq!(call.input["location"], "Paris");
    // openai-python's snapshot: 34 `data:` lines, no `event:` lines, 30
    // content pieces, finish_reason stop.
    let openai = load("real/events-openai-chat.bin");
    assert_eq!(openai.runs[0].dialect, Some(Dialect::OpenaiChat));
    assert_eq!(counted(&openai).outcomes, ["answered"]);
    assert!(
        openai.runs[0].replies[0]
            .text()
            .starts_with("I'm unable to provide real-time weather updates.")
    );
}

#[test]
fn a_broken_cassette_is_told_as_yaml_with_its_line_and_column() {
    let broken = "interactions:\n- request:\n    body: '{}'\n  response: [unclosed\n";
    let error = common::open_written("broken.yaml", broken).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("is not valid YAML"), "{message}");
    assert!(message.contains("(line 5, column 1)"), "{message}");
}

/// The status each run its agent ended gives.
fn agent_statuses(source: &loopstep::transcript::Source) -> Vec<String> {
    source
        .runs
        .iter()
        .filter_map(|run| {
            let trace = run.replay(run.default_config());
            common::agent_status(&trace).map(str::to_owned)
        })
        .collect()
}

#[test]
fn an_openhands_finish_ends_the_run_as_the_agent_s_own_ending_without_running_it() {
    let source = load("real/openhands-basic-finish.json");
    // Counted from the raw file (4 events): the user's message; an `edit`
    // action (str_replace_editor) and its observation; a `finish` action.
    // Two distinct `model_response.id`s, so 2 calls, both finish_reason
    // tool_calls; the editor runs, `finish` is the controller's cue to
    // stop and never runs.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 2,
            tool_calls: 1,
            outcomes: vec!["agent_finished"],
        }
    );
    assert_eq!(agent_statuses(&source), ["finish"]);
    assert!(source.runs[0].notes.is_empty(), "no stand-in result");
    let run = &source.runs[0];
    assert!(run.replies.iter().all(|r| !r.stop_reason_inferred));
}

#[test]
fn a_swe_agent_submit_written_to_the_trajectory_only_still_answers_the_last_call() {
    let source = load("real/swe-agent-submit-in-trajectory.traj");
    // Counted from the raw file: `trajectory` has 5 steps (find_file,
    // open, edit, python, submit) = `info.model_stats.api_calls` 5; the
    // history has the 5 replies (and a demonstration, skipped) but only 4
    // observations: the submit's, the diff, is in `trajectory[-1]` only.
    // `info.exit_status` is `submitted`.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 1,
            model_calls: 5,
            tool_calls: 5,
            outcomes: vec!["agent_finished"],
        }
    );
    assert_eq!(agent_statuses(&source), ["submitted"]);
    let run = &source.runs[0];
    let trace = run.replay(run.default_config());
    let (_, input, output) = *common::dispatched(&trace).last().unwrap();
    assert_eq!(input["command"], "submit");
    assert!(!output.is_error);
    assert!(
        output
            .content
            .contains("diff --git a/tests/missing_colon.py")
    );
}

#[test]
fn mini_swe_agent_runs_end_submitted_with_their_recorded_finish_reasons_where_they_apply() {
    // v1 (mini-swe-agent 1.15.0, Gemini 3 Pro through OpenRouter): 36
    // messages, 17 assistant = `api_calls` 17, each one ```bash``` block;
    // 16 outputs come back as user messages and the last user message is
    // the submission (the output of the submit command). Every
    // `extra.response` says finish_reason `stop`: the harness read the
    // command from the text, which a note says.
    let v1 = load("real/mini-swe-agent-gemini.traj.json");
    assert_eq!(
        counted(&v1),
        Counted {
            runs: 1,
            model_calls: 17,
            tool_calls: 17,
            outcomes: vec!["agent_finished"],
        }
    );
    assert_eq!(agent_statuses(&v1), ["Submitted"]);
    assert!(v1.notes.iter().any(|n| {
        n.to_string()
            .contains("from its text, where the API's finish_reason was `stop`")
    }));
    // v1.1 (mini-swe-agent 2.2.7, deepseek-chat): 41 assistant messages
    // with one tool call each, finish_reason `tool_calls` ×41 in
    // `extra.response`; 40 `tool` messages; the submit's output is the
    // closing `exit` message (`exit_status` Submitted).
    let v11 = load("real/mini-swe-agent-1.1-deepseek.traj.json");
    assert_eq!(
        counted(&v11),
        Counted {
            runs: 1,
            model_calls: 41,
            tool_calls: 41,
            outcomes: vec!["agent_finished"],
        }
    );
    let run = &v11.runs[0];
    assert!(
        run.replies
            .iter()
            .all(|r| r.stop_reason == "tool_calls" && !r.stop_reason_inferred && r.usage.is_some())
    );
    assert!(run.notes.is_empty(), "{:?}", run.notes);
}

#[test]
fn validate_counts_tool_calls_apart_from_declared_tools_and_titles_runs_by_their_prompt() {
    let text = common::printed(&[
        "validate",
        &common::fixture("real/codex-rollout-patches-and-search.jsonl"),
    ]);
    // The first prompt (line 9) to the second (line 188): 27
    // `function_call` and `custom_tool_call` items; a rollout declares no
    // tools. The title is the prompt's first line (redacted upstream).
    assert!(
        text.contains(
            "21 replies, 27 tool calls; 0 tools declared; max_turns 22 · \
             [REDACTED_TEXT len=516 sha=05857781]"
        ),
        "{text}"
    );
}

#[test]
fn a_file_in_no_known_shape_names_the_format_it_comes_closest_to() {
    let error = common::open_written("near.json", r#"[{"request": {"model": "x"}}]"#)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "an array of 1 item, the first an object with keys `request`; it comes closest to \
             exchange log (request/response pairs) (shares `request`; `--from exchanges` reads \
             it as one)"
        ),
        "{error}"
    );
}

#[test]
fn every_format_s_from_name_is_one_the_command_line_takes() {
    for format in Format::ALL {
        let out = assert_cmd::Command::cargo_bin("loopstep")
            .unwrap()
            .args([
                "validate",
                "--from",
                format.flag(),
                &common::fixture("not-a-recording.json"),
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("invalid value"),
            "{}: {stderr}",
            format.flag()
        );
    }
}

#[test]
fn a_sub_agent_seen_only_in_progress_lines_is_a_run_of_its_own() {
    let source = load("real/claude-code-progress-subagent.jsonl");
    // Counted from the raw file (96 lines, Claude Code 2.1.38): the main
    // chain has 12 distinct `message.id`s and 16 `tool_use`; a `/…` command
    // prompt (line 4) and "create the beads" (line 71) begin its two runs,
    // the first interrupted by the user (line 69). The Task call on line
    // 36 has no `subagents/` file: its sub-agent (`agentId` afb92ff) is in
    // the 19 `agent_progress` lines 37-55: its prompt, then 5 distinct
    // `message.id`s with 9 `tool_use`, each answered, results between the
    // blocks of a response as in the main chain. Its last reply is not in
    // those lines (the Task's result holds what it returned), so its
    // replay runs out of recording.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 3,
            model_calls: 12 + 5,
            tool_calls: 16 + 9,
            outcomes: vec!["interrupted", "answered", "recording_ended"],
        }
    );
    let agent = &source.runs[2];
    assert_eq!(agent.id, "claude-code-progress-subagent-agent-afb92ff");
    // Linked to the Task call that started it, by the prompt it was given.
    let task_prompt = source.runs[0]
        .replies
        .iter()
        .flat_map(|r| r.tool_calls())
        .find(|c| c.name == "Task")
        .map(|c| c.input["prompt"].as_str().unwrap().to_owned())
        .unwrap();
    assert_eq!(agent.question, task_prompt);
}

#[test]
fn a_compacted_session_opens_its_next_run_on_the_summary_and_its_sub_agent_file_wins() {
    let source = load("real/claude-code-compacted");
    // Counted from the raw files. The session (2,385 lines, Claude Code
    // 2.1.39): 217 distinct `message.id`s, 242 `tool_use`, each answered;
    // prompts on line 7 and line 1491 ("continue implementation"); line
    // 102 (a skill's text, `isMeta`) is the client's own addition, not a
    // prompt. Line 1481 is the `compact_boundary` (manual, preTokens
    // 142,431), line 1482 the summary. Its sub-agents folder: agent-aac57f5
    // (3 responses, 12 tool_use) and the compaction's own agent (1
    // response). The Task's 25 `agent_progress` lines repeat agent-aac57f5:
    // its file is read instead.
    let counts = counted(&source);
    assert_eq!(counts.runs, 4);
    assert_eq!(counts.model_calls, 217 + 3 + 1);
    assert_eq!(counts.tool_calls, 242 + 12);
    let after = &source.runs[1];
    assert_eq!(after.question, "continue implementation");
    let compaction = after.compaction.as_ref().unwrap();
    assert_eq!(compaction.tokens_before, Some(142_431));
    assert_eq!(compaction.trigger.as_deref(), Some("manual"));
    // The history the model saw from there on opens with the summary.
    let opening = after.history.messages()[0].text();
    assert!(opening.starts_with("This session is being continued from a previous conversation"));
    assert!(
        !source.runs.iter().any(|r| r.id.contains("-agent-aac57f5")),
        "the progress lines give way to the sub-agent's own file"
    );
    let text = common::printed(&[
        "run",
        &common::fixture("real/claude-code-compacted"),
        "--lang",
        "en",
    ]);
    assert!(
        text.contains("Compacted before this run: the client replaced the"),
        "{text}"
    );
    assert!(text.contains("(the context held 142431 tokens; asked for by the user)"));
}

#[test]
fn an_inspect_scorer_s_model_call_is_the_scoring_after_the_run_not_part_of_its_loop() {
    // Counted from the raw files. A log of three samples, each with one
    // `model` event in a `solver` span (generate) and one in the `scorer`
    // span of model_graded_fact, every score `C`; and an older log whose
    // one sample brackets them with `step` events of type `solver` and
    // `scorer`. Each sample is a run of one call; its grading a run of
    // one call after it.
    for (name, samples) in [
        ("real/inspect-model-graded.json", 3),
        ("real/inspect-model-graded-steps.json", 1),
    ] {
        let source = load(name);
        assert_eq!(
            counted(&source),
            Counted {
                runs: 2 * samples,
                model_calls: 2 * samples,
                tool_calls: 0,
                outcomes: vec!["answered"; 2 * samples],
            },
            "{name}"
        );
        for pair in source.runs.chunks(2) {
            assert!(pair[1].title.starts_with("scoring sample"), "{name}");
            let grader = pair[1].question.trim_start();
            assert!(
                grader.starts_with("You are comparing a submitted answer"),
                "{name}"
            );
            // The agent's own run no longer holds the grader's request.
            assert!(
                pair[0]
                    .notes
                    .iter()
                    .all(|n| !n.to_string().contains("edited"))
            );
        }
        let scored = source
            .notes
            .iter()
            .filter(|n| {
                n.to_string()
                    .contains("was scored `C` by `model_graded_fact`")
            })
            .count();
        assert_eq!(scored, samples, "{name}");
    }
}

#[test]
fn inspect_epochs_are_named_in_their_titles() {
    let source = load("real/inspect-two-epochs.eval");
    assert_eq!(source.kind, Kind::EvalArchive);
    // Counted from the archive: samples/1_epoch_1, 1_epoch_2, 2_epoch_1,
    // 2_epoch_2, one model call each, scored by `match` I, C, C, C.
    assert_eq!(counted(&source).model_calls, 4);
    let titles: Vec<&str> = source
        .runs
        .iter()
        .map(|r| r.title.split(" · ").next().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "sample 1, epoch 1",
            "sample 1, epoch 2",
            "sample 2, epoch 1",
            "sample 2, epoch 2"
        ]
    );
    assert!(
        source
            .notes
            .iter()
            .any(|n| n.to_string() == "sample 1, epoch 1 was scored `I` by `match`")
    );
}

#[test]
fn a_tool_started_while_its_reply_still_streamed_says_so_in_both_languages() {
    use common::screen::{drive, same_in_both};
    use loopstep::narrate::Lang;
    use loopstep::tui::{App, Settings};
    // The second run's first response: its WebSearch tool_use line is
    // written at 22:59:26.3 and its last block at 22:59:26.6 (lines 29-30).
    let runs = same_in_both(load("real/claude-code-interleaved.jsonl").runs);
    for (lang, words) in [
        (
            Lang::En,
            "the client ran it while the response was still streaming",
        ),
        (Lang::Zh, "客户端在响应仍在流式传输时就运行了它"),
    ] {
        let settings = Settings {
            lang,
            ..Settings::default()
        };
        let mut app = App::new(&runs, 1, settings);
        // start, call, check, dispatch.
        let text = drive(&mut app, 100, 30, &["Right", "Right", "Right"])
            .backend()
            .to_string()
            .replace(['│', '"', '\n'], "")
            .split_whitespace()
            .collect::<String>();
        let words: String = words.split_whitespace().collect();
        assert!(text.contains(&words), "{lang:?}: {text}");
    }
}

#[test]
fn a_codex_compaction_puts_its_replacement_history_in_place_of_what_came_before() {
    let source = load("real/codex-rollout-compacted.jsonl");
    // Counted from the raw file (2,722 lines, Codex Desktop 0.104): 286
    // runs of model items between inputs (286 `token_count` events move
    // the running total); 316 `function_call` + 49 `custom_tool_call`,
    // each answered; 7 `web_search_call`, run by the server. Line 1788 is
    // `compacted`, mid-turn: its `replacement_history` (40 items: 21 user,
    // 15 assistant and 3 developer messages and the encrypted summary)
    // is what the model saw from then on, its last user message the
    // question of the calls that follow at once.
    let counts = counted(&source);
    assert_eq!((counts.model_calls, counts.tool_calls), (286, 316 + 49));
    let resumed: Vec<&loopstep::transcript::Transcript> = source
        .runs
        .iter()
        .filter(|r| r.compaction.is_some())
        .collect();
    assert_eq!(resumed.len(), 1);
    // The 36 user and assistant messages of the replacement: 35 open the
    // run's history, the last user message is its question.
    assert_eq!(resumed[0].history.messages().len(), 35);
    assert!(
        source
            .runs
            .iter()
            .all(|r| r.replies.iter().all(|c| c.usage.is_some()))
    );
}

#[test]
fn a_newer_compaction_boundary_also_says_how_many_tokens_were_left() {
    // The shape of the real boundary in claude-code-compacted (line 1481),
    // with the `postTokens` newer clients add.
    let line = |json: serde_json::Value| json.to_string();
    let session = [
        line(
            serde_json::json!({"type": "system", "subtype": "compact_boundary",
            "compactMetadata": {"trigger": "auto", "preTokens": 171_705, "postTokens": 8_473}}),
        ),
        line(serde_json::json!({"type": "user", "isCompactSummary": true,
            "message": {"role": "user", "content": "Summary of the work so far."}})),
        line(serde_json::json!({"type": "user", "message": {"role": "user", "content": "go on"}})),
        line(
            serde_json::json!({"type": "assistant", "message": {"id": "m1", "role": "assistant",
            "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}}),
        ),
    ]
    .join("\n");
    let source = common::open_written("compacted.jsonl", session).unwrap();
    let compaction = source.runs[0].compaction.as_ref().unwrap();
    assert_eq!(
        (compaction.tokens_before, compaction.tokens_after),
        (Some(171_705), Some(8_473))
    );
    let say = loopstep::narrate::Say::new(loopstep::narrate::Lang::En, Dialect::default());
    assert!(
        say.compacted(compaction)
            .contains("(the context held 171705 tokens, 8473 after; set off automatically)")
    );
}

#[test]
fn claude_code_s_retries_are_noted_and_the_error_it_gave_up_on_is_no_reply() {
    // No public session we could use holds an API error. These lines take
    // the shapes the tools that read Claude Code sessions test against: a
    // `system` `api_error` line per retry, and, when the client gives up,
    // an assistant line marked `isApiErrorMessage` written in the model's
    // place (model `<synthetic>`).
    let line = |json: serde_json::Value| json.to_string();
    let retry = |attempt: u64| {
        line(
            serde_json::json!({"type": "system", "subtype": "api_error", "level": "error",
            "error": {"status": 529, "message": "overloaded"},
            "retryInMs": 500, "retryAttempt": attempt, "maxRetries": 10}),
        )
    };
    let session = [
        line(serde_json::json!({"type": "user", "message": {"role": "user", "content": "hello"}})),
        retry(1),
        retry(2),
        line(
            serde_json::json!({"type": "assistant", "message": {"id": "m1", "role": "assistant",
            "content": [{"type": "text", "text": "Hi."}], "stop_reason": "end_turn"}}),
        ),
        line(serde_json::json!({"type": "user", "message": {"role": "user", "content": "again"}})),
        retry(1),
        line(
            serde_json::json!({"type": "assistant", "isApiErrorMessage": true,
            "message": {"id": "x", "role": "assistant", "model": "<synthetic>",
                "content": [{"type": "text", "text": "API Error: 529 overloaded"}]}}),
        ),
    ]
    .join("\n");
    let source = common::open_written("retried.jsonl", session).unwrap();
    // The synthetic error is no reply: the second prompt's call failed,
    // and its run ends there.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            model_calls: 1,
            tool_calls: 0,
            outcomes: vec!["answered", "api_failed"],
        }
    );
    let notes = |run: usize| -> Vec<String> {
        source.runs[run]
            .notes
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(
        notes(0),
        [
            "call #1 failed 2 times before it went through (HTTP 529: overloaded); the client \
          retried it, as production loops do"
        ]
    );
    assert_eq!(
        notes(1),
        ["call #1 failed; the client retried it 1 time (HTTP 529: overloaded), then gave up"]
    );
    // The call that was retried says so where it happens, in its detail.
    use common::screen::{drive, rows, same_in_both};
    let runs = same_in_both(source.runs);
    let mut app = loopstep::tui::App::new(&runs, 0, Default::default());
    let screen = drive(&mut app, 120, 40, &["Right"]);
    let text: String = rows(screen.backend().buffer())
        .join("")
        .split_whitespace()
        .collect();
    let said: String = "call #1 failed 2 times before it went through"
        .split_whitespace()
        .collect();
    assert!(text.contains(&said), "{text}");
}

#[test]
fn an_openhands_finish_ends_the_run_it_belongs_to_when_the_log_goes_on() {
    // The real run, then the user asks again and the agent answers: the
    // finish ends the first run, not the log's last.
    let mut events: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(common::fixture("real/openhands-basic-finish.json")).unwrap(),
    )
    .unwrap();
    events.push(
        serde_json::json!({"id": 6, "source": "user", "action": "message",
        "args": {"content": "Now explain the rules."}}),
    );
    events.push(
        serde_json::json!({"id": 7, "source": "agent", "action": "message",
        "args": {"content": "Slide tiles; equal tiles merge."}}),
    );
    let source =
        common::open_written("more.json", serde_json::to_string(&events).unwrap()).unwrap();
    assert_eq!(counted(&source).outcomes, ["agent_finished", "answered"]);
    assert!(source.runs[1].ending.is_none());
}

/// A Codex turn the user stopped (Esc) ends its run as interrupted, rather
/// than running on into the next prompt's. No public rollout with a
/// `turn_aborted` event was at hand: this one is the real 0.58 rollout,
/// its first call and result (lines 1–12), then the event in the shape
/// Codex writes it (`{"type": "event_msg", "payload": {"type":
/// "turn_aborted", "reason": "interrupted"}}`), a second prompt, and the
/// rollout's second call and result (lines 13–19).
#[test]
fn a_codex_turn_the_user_aborted_ends_its_run_as_interrupted() {
    let real = common::fixture("real/codex-rollout-0.58-shell.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(real)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let aborted = r#"{"timestamp":"2025-11-20T10:00:00.000Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}"#;
    let prompt = r#"{"timestamp":"2025-11-20T10:00:05.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"just list the files"}]}}"#;
    let text = [
        &lines[..12],
        &[aborted.to_owned(), prompt.to_owned()],
        &lines[12..19],
    ]
    .concat()
    .join("\n");
    let source = common::open_written("aborted-rollout.jsonl", text).unwrap();
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            // One call and its `shell` in each run.
            model_calls: 2,
            tool_calls: 2,
            outcomes: vec!["interrupted", "recording_ended"],
        }
    );
    assert_eq!(source.runs[1].question, "just list the files");
}
