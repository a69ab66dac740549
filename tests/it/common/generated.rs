//! Large inputs for the benchmarks and the tests of long runs, generated
//! in memory (never committed). The benchmarks take this file by path.

#![allow(dead_code)] // each user takes its own subset

use std::sync::OnceLock;

use loopstep::narrate::Lang;
use loopstep::transcript::{Localized, import};
use serde_json::json;

fn lorem(bytes: usize) -> String {
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
        .repeat(bytes / 57 + 1)
        .chars()
        .take(bytes)
        .collect()
}

/// A conversation of `prompts` questions, each followed by `rounds` tool
/// calls whose results are web pages of `page_bytes` bytes.
pub fn conversation(prompts: usize, rounds: usize, page_bytes: usize) -> String {
    let page = lorem(page_bytes);
    let mut messages = Vec::new();
    for p in 0..prompts {
        messages.push(json!({"role": "user", "content": format!("Question number {p}?")}));
        for r in 0..rounds {
            let id = format!("toolu_{p}_{r}");
            messages.push(json!({"role": "assistant", "content": [
                {"type": "text", "text": "Let me fetch another page."},
                {"type": "tool_use", "id": id, "name": "fetch", "input": {"url": format!("https://example.org/{p}/{r}")}}
            ]}));
            messages.push(json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": id, "content": page}
            ]}));
        }
        messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": "Here is the answer."}]}));
    }
    json!({"model": "claude-opus-5-5", "messages": messages}).to_string()
}

/// The 50 MB log in OpenAI Chat shape: one question, `rounds`
/// rounds of one `fetch` call with a result of `result_bytes`, then "Done.".
pub fn openai_log(rounds: usize, result_bytes: usize) -> String {
    let page = lorem(result_bytes);
    let mut messages = vec![json!({"role": "user", "content": "Fetch every page, then say done."})];
    for r in 0..rounds {
        let id = format!("call_{r}");
        let arguments = json!({"url": format!("https://example.org/{r}")}).to_string();
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": "fetch", "arguments": arguments}}
        ]}));
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": page}));
    }
    messages.push(json!({"role": "assistant", "content": "Done."}));
    json!({"model": "gpt-5", "messages": messages}).to_string()
}

/// The 52 MB OpenAI log (12,000 rounds, 4 kB results), imported
/// once for the whole program: the screen borrows its runs.
pub fn big_log_runs() -> &'static [Localized] {
    static RUNS: OnceLock<Vec<Localized>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let text = openai_log(12_000, 4096);
        let source = import::load(text, "big", "big", None, Lang::En).unwrap();
        source.runs.into_iter().map(Localized::from).collect()
    })
}

/// A Claude Code session as the client writes it: `prompts` prompts, each
/// followed by `rounds` tool rounds whose reply is one line per block
/// (text, then tool_use) under one message id, and a result line of
/// `result_bytes`; then an answer. (scripts/perf.py writes the same shape.)
pub fn claude_code_session(prompts: usize, rounds: usize, result_bytes: usize) -> String {
    let page = lorem(result_bytes);
    let mut lines = Vec::new();
    let line = |kind: &str, message: serde_json::Value| {
        json!({"type": kind, "sessionId": "s-1", "isSidechain": false, "message": message})
            .to_string()
    };
    let reply = |id: &str, block: serde_json::Value, stop: &str| {
        json!({"id": id, "role": "assistant", "model": "claude-sonnet-4-5",
               "content": [block], "stop_reason": stop})
    };
    for p in 0..prompts {
        lines.push(line(
            "user",
            json!({"role": "user", "content": format!("Task {p}?")}),
        ));
        for r in 0..rounds {
            let (id, tool) = (format!("msg_{p}_{r}"), format!("toolu_{p}_{r}"));
            let text = json!({"type": "text", "text": "Reading the next file."});
            let call = json!({"type": "tool_use", "id": tool, "name": "Read", "input": {"n": r}});
            lines.push(line("assistant", reply(&id, text, "tool_use")));
            lines.push(line("assistant", reply(&id, call, "tool_use")));
            let result = json!({"type": "tool_result", "tool_use_id": tool, "content": page});
            lines.push(line("user", json!({"role": "user", "content": [result]})));
        }
        let done = json!({"type": "text", "text": "Done."});
        lines.push(line(
            "assistant",
            reply(&format!("msg_{p}_end"), done, "end_turn"),
        ));
    }
    lines.join("\n") + "\n"
}
