//! `loopstep record`, against a fake upstream on loopback: no network.
//! The agents are seed 001's get_today loop, in Python's standard library
//! (`tests/fixtures/agents/`), and with the official SDKs (installed by
//! `.ci/run`, so those tests are `--ignored` ones).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::common;

/// A response the fake upstream gives: its status, content type, and the
/// pieces of its body, sent as chunks with `pause` between them.
#[derive(Clone)]
pub struct Canned {
    status: u16,
    content_type: &'static str,
    chunks: Vec<String>,
    pause: Duration,
    /// The body ends in a chunk that is not one, and the connection closes.
    malformed: bool,
}

impl Canned {
    pub fn json(body: serde_json::Value) -> Canned {
        Canned {
            status: 200,
            content_type: "application/json",
            chunks: vec![body.to_string()],
            pause: Duration::ZERO,
            malformed: false,
        }
    }

    /// The same, its body ending in a chunk that is not one.
    pub fn broken_off(self) -> Canned {
        Canned {
            malformed: true,
            ..self
        }
    }

    /// Anthropic's events, each named in an `event:` line.
    fn named_events(events: &[serde_json::Value]) -> Canned {
        let chunks = events
            .iter()
            .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
            .collect();
        Canned {
            status: 200,
            content_type: "text/event-stream",
            chunks,
            pause: Duration::ZERO,
            malformed: false,
        }
    }

    pub fn events(events: &[serde_json::Value], pause: Duration) -> Canned {
        let mut chunks: Vec<String> = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        chunks.push("data: [DONE]\n\n".into());
        Canned {
            status: 200,
            content_type: "text/event-stream",
            chunks,
            pause,
            malformed: false,
        }
    }
}

/// What the fake upstream was sent: each request's head and body.
pub type Seen = Arc<Mutex<Vec<String>>>;

/// A fake API on a free port of 127.0.0.1 answering requests with
/// `canned`, in order, on any connection; its URL, and what it was sent.
pub fn fake_upstream(canned: Vec<Canned>) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let queue = Arc::new(Mutex::new(canned.into_iter()));
    let seen: Seen = Arc::default();
    let seen_here = Arc::clone(&seen);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (queue, seen) = (Arc::clone(&queue), Arc::clone(&seen_here));
            thread::spawn(move || serve(stream, &queue, &seen));
        }
    });
    (url, seen)
}

fn serve(stream: TcpStream, queue: &Mutex<std::vec::IntoIter<Canned>>, seen: &Seen) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            head.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let length = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|n| n.trim().parse().unwrap())
            })
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        seen.lock()
            .unwrap()
            .push(format!("{head}{}", String::from_utf8_lossy(&body)));
        let Some(canned) = queue.lock().unwrap().next() else {
            return;
        };
        let head = format!(
            "HTTP/1.1 {} X\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\n\r\n",
            canned.status, canned.content_type
        );
        out.write_all(head.as_bytes()).unwrap();
        for (k, chunk) in canned.chunks.iter().enumerate() {
            if k > 0 {
                thread::sleep(canned.pause);
            }
            // The proxy may have let this response go: so may the fake.
            if write!(out, "{:x}\r\n{chunk}\r\n", chunk.len())
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
        }
        if canned.malformed {
            let _ = out.write_all(b"zz\r\nnot a chunk");
            return;
        }
        out.write_all(b"0\r\n\r\n").unwrap();
        out.flush().unwrap();
    }
}

/// Seed 001's two replies, as Chat Completions gives them.
fn seed_001_replies() -> Vec<Canned> {
    vec![
        Canned::json(serde_json::json!({
            "id": "c1", "object": "chat.completion", "model": "deepseek-chat",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": "",
                "tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": "get_today", "arguments": "{}"}}]}}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 10}
        })),
        Canned::json(serde_json::json!({
            "id": "c2", "object": "chat.completion", "model": "deepseek-chat",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant", "content": "Today is 2026-12-02."}}],
            "usage": {"prompt_tokens": 70, "completion_tokens": 8}
        })),
    ]
}

/// The same two replies streamed: the tool call in two pieces, the answer
/// in two, `pause` between events.
fn seed_001_streamed(pause: Duration) -> Vec<Canned> {
    let chunk = |delta: serde_json::Value, finish: serde_json::Value| {
        serde_json::json!({"id": "c", "object": "chat.completion.chunk", "model": "deepseek-chat",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    vec![
        Canned::events(
            &[
                chunk(
                    serde_json::json!({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_today", "arguments": ""}}]}),
                    serde_json::Value::Null,
                ),
                chunk(
                    serde_json::json!({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}),
                    "tool_calls".into(),
                ),
            ],
            pause,
        ),
        Canned::events(
            &[
                chunk(
                    serde_json::json!({"role": "assistant", "content": "Today is "}),
                    serde_json::Value::Null,
                ),
                chunk(serde_json::json!({"content": "2026-12-02."}), "stop".into()),
            ],
            pause,
        ),
    ]
}

/// Seed 001 in the Messages API: a `tool_use`, then the answer.
fn seed_001_messages(streamed: bool) -> Vec<Canned> {
    use serde_json::json;
    let message = |content: serde_json::Value, stop: &str| {
        json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
               "content": content, "stop_reason": stop, "stop_sequence": null,
               "usage": {"input_tokens": 40, "output_tokens": 9}})
    };
    let call = json!([{"type": "tool_use", "id": "toolu_1", "name": "get_today", "input": {}}]);
    let answer = json!([{"type": "text", "text": "Today is 2026-12-02."}]);
    if !streamed {
        return vec![
            Canned::json(message(call, "tool_use")),
            Canned::json(message(answer, "end_turn")),
        ];
    }
    let stream = |block: serde_json::Value, delta: serde_json::Value, stop: &str| {
        Canned::named_events(&[
            json!({"type": "message_start", "message": message(json!([]), "")}),
            json!({"type": "content_block_start", "index": 0, "content_block": block}),
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                   "usage": {"output_tokens": 9}}),
            json!({"type": "message_stop"}),
        ])
    };
    vec![
        stream(
            json!({"type": "tool_use", "id": "toolu_1", "name": "get_today", "input": {}}),
            json!({"type": "input_json_delta", "partial_json": "{}"}),
            "tool_use",
        ),
        stream(
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": "Today is 2026-12-02."}),
            "end_turn",
        ),
    ]
}

pub fn agent(name: &str) -> String {
    common::fixture(&format!("agents/{name}"))
}

pub fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("record-{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

/// `loopstep record --upstream URL -o OUT -- COMMAND…`: its output. The
/// SDKs want a key: each is given one, which must not be recorded.
fn record(upstream: &str, out: &Path, command: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args([
            "record",
            "--upstream",
            upstream,
            "-o",
            out.to_str().unwrap(),
            "--",
        ])
        .args(command)
        .env("OPENAI_API_KEY", "sk-test-0123456789abcdefghijklmnop")
        .env(
            "ANTHROPIC_API_KEY",
            "sk-ant-api03-test0123456789abcdefghijklmnop",
        )
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

/// Records `agent_file` (with `args`) against `canned`, and checks what
/// the issue asks: the agent's answer, two calls recorded and no key
/// among them, and a replay of 2 model calls, 1 tool call, the answer.
fn recorded_and_replayed(name: &str, canned: Vec<Canned>, agent_file: &str, args: &[&str]) {
    let (upstream, seen) = fake_upstream(canned);
    let out = scratch(name);
    let script = agent(agent_file);
    let mut command = vec!["python3", script.as_str()];
    command.extend(args);
    let done = record(&upstream, &out, &command);
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{name}: {said}");
    assert!(
        String::from_utf8_lossy(&done.stdout).contains("Today is 2026-12-02."),
        "{name}"
    );
    assert!(said.contains("recorded 2 model calls"), "{name}: {said}");
    // The key reached the upstream, and never the recording.
    let first = seen.lock().unwrap()[0].clone();
    assert!(
        first.contains("0123456789abcdefghijklmnop"),
        "{name}: {first}"
    );
    let recording = std::fs::read_to_string(&out).unwrap();
    assert_eq!(recording.lines().count(), 2, "{name}");
    for secret in [
        "0123456789abcdefghij",
        "uthorization",
        "x-api-key",
        "Bearer",
    ] {
        assert!(
            !recording.contains(secret),
            "{name}: {secret} in {recording}"
        );
    }
    let text = replayed(&out);
    assert!(
        text.contains("model calls: 2 · tool calls: 1 · outcome: answered"),
        "{name}: {text}"
    );
    assert!(
        text.contains("result: \"Today is 2026-12-02.\""),
        "{name}: {text}"
    );
}

/// The recording replayed: `run`'s text.
fn replayed(out: &Path) -> String {
    common::printed(&["run", out.to_str().unwrap()])
}

#[test]
fn a_stdlib_agent_s_run_is_recorded_and_replays_to_two_calls_one_tool_and_the_answer() {
    let agent = "get_today_stdlib.py";
    recorded_and_replayed("plain", seed_001_replies(), agent, &[]);
    let streamed = seed_001_streamed(Duration::ZERO);
    recorded_and_replayed("streamed", streamed, agent, &["stream"]);
}

#[test]
#[ignore = "needs the openai and anthropic Python packages, which .ci/run installs"]
fn the_official_sdks_runs_are_recorded_and_replay_the_same() {
    let openai = "get_today_openai_sdk.py";
    recorded_and_replayed("openai", seed_001_replies(), openai, &[]);
    let streamed = seed_001_streamed(Duration::ZERO);
    recorded_and_replayed("openai-streamed", streamed, openai, &["stream"]);
    // The SDK retries a 500 on its own: the recording holds the failed
    // attempt, which the replay notes and passes over.
    let mut retried = seed_001_replies();
    retried.insert(
        1,
        Canned {
            status: 500,
            ..Canned::json(
                serde_json::json!({"error": {"message": "overloaded", "type": "server_error"}}),
            )
        },
    );
    let (upstream, _) = fake_upstream(retried);
    let out = scratch("openai-retried");
    let script = agent(openai);
    let done = record(&upstream, &out, &["python3", &script]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    let text = replayed(&out);
    assert!(
        text.contains("model calls: 2 · tool calls: 1 · outcome: answered"),
        "{text}"
    );
    assert!(text.contains("HTTP 500: overloaded"), "{text}");
    let anthropic = "get_today_anthropic_sdk.py";
    recorded_and_replayed("anthropic", seed_001_messages(false), anthropic, &[]);
    recorded_and_replayed(
        "anthropic-streamed",
        seed_001_messages(true),
        anthropic,
        &["stream"],
    );
}

#[test]
fn a_streamed_chunk_reaches_the_agent_while_the_upstream_is_still_sending() {
    // The upstream waits 1.5 s between events; a proxy that held the
    // stream back would hand both over at once, at the end.
    let pause = Duration::from_millis(1500);
    let (upstream, _) = fake_upstream(seed_001_streamed(pause));
    let out = scratch("paced");
    let agent = agent("get_today_stdlib.py");
    let done = record(&upstream, &out, &["python3", &agent, "stream"]);
    assert!(done.status.success());
    let said = String::from_utf8_lossy(&done.stderr);
    let times: Vec<f64> = said
        .lines()
        .filter_map(|l| l.strip_prefix("chunk "))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(times.len(), 4, "{said}");
    // Within each response, the first event came well before the second.
    for pair in times.chunks(2) {
        assert!(pair[1] - pair[0] > 1.0, "{times:?}");
    }
}

#[test]
fn an_agent_killed_mid_run_leaves_a_valid_recording_of_what_it_finished() {
    let (upstream, _) = fake_upstream(seed_001_replies());
    let out = scratch("killed");
    let agent = agent("get_today_stdlib.py");
    let done = record(&upstream, &out, &["python3", &agent, "die-after-first"]);
    // Killed by a signal, SIGKILL (9): 128 + 9, as a shell reports it.
    assert_eq!(done.status.code(), Some(137));
    let text = replayed(&out);
    assert!(text.contains("model calls: 1 · tool calls: 1"), "{text}");
}

#[test]
fn an_upstream_failure_is_recorded_and_replays_as_a_failed_call() {
    let mut canned = seed_001_replies();
    canned[1] = Canned {
        status: 500,
        ..Canned::json(
            serde_json::json!({"error": {"message": "The server had an error", "type": "server_error"}}),
        )
    };
    let (upstream, _) = fake_upstream(canned);
    let out = scratch("failed");
    let agent = agent("get_today_stdlib.py");
    let done = record(&upstream, &out, &["python3", &agent]);
    // The agent died of the error: record ends with its code.
    assert_eq!(done.status.code(), Some(1));
    let recording = std::fs::read_to_string(&out).unwrap();
    assert_eq!(recording.lines().count(), 2);
    let text = replayed(&out);
    assert!(text.contains("HTTP 500: The server had an error"), "{text}");
    assert!(
        text.contains("model calls: 1 · tool calls: 1 · outcome: API call failed"),
        "{text}"
    );
}

#[test]
fn an_unreachable_upstream_a_missing_command_and_a_taken_port_are_told() {
    // Nothing listens on port 9 of loopback.
    let out = scratch("unreachable");
    let agent = agent("get_today_stdlib.py");
    let done = record("http://127.0.0.1:9", &out, &["python3", &agent]);
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(
        said.contains("could not reach http://127.0.0.1:9/v1/chat/completions"),
        "{said}"
    );
    assert_ne!(done.status.code(), Some(0));
    let out = scratch("missing");
    let done = record("http://127.0.0.1:9", &out, &["no-such-agent-anywhere"]);
    assert_eq!(done.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&done.stderr).contains("could not start no-such-agent-anywhere")
    );
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let out = scratch("taken");
    let done = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args([
            "record",
            "--listen",
            &address,
            "-o",
            out.to_str().unwrap(),
            "--",
            "true",
        ])
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&done.stderr).contains(&format!("could not listen on {address}"))
    );
    // Nothing was left behind by the refusals; never over a recording.
    assert!(!out.exists());
    std::fs::write(&out, "").unwrap();
    let done = record("http://127.0.0.1:9", &out, &["true"]);
    let said = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{said}");
    assert!(said.contains("exists; add --force"), "{said}");
}
