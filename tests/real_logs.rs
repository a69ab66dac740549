//! Real recordings from public repositories (tests/fixtures/real/SOURCES.md),
//! counted right: every figure asserted here was counted by hand from the
//! raw file, and the comment beside it says how.

mod common;

use common::{Counted, counted, load};
use loopstep::dialect::Dialect;
use loopstep::engine::{Block, Event};
use loopstep::transcript::Format;

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
    // (lines 18 and 39), where the recording stops.
    assert_eq!(
        counted(&source),
        Counted {
            runs: 2,
            model_calls: 4,
            tool_calls: 6,
            outcomes: vec!["recording_ended"; 2],
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
    let source = load("real/claude-code-subagent-interleaved.jsonl");
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
