//! `loopstep record` tried as an attacker would, on loopback only: keys
//! that must go to their own company or nowhere, keys never written or
//! printed, finished calls never lost behind unfinished ones, limits on
//! bodies, time and connections, and requests from anyone but the agent.
//! The agent is `tests/fixtures/agents/probe.py` (Python's standard
//! library); the upstreams are fakes on free ports of 127.0.0.1.

use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use super::record::{Canned, Seen, agent, fake_upstream, scratch};

/// The fake upstream's answer to a Chat Completions call.
fn chat_reply() -> Canned {
    Canned::json(serde_json::json!({
        "id": "c", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "hello"}}]
    }))
}

/// `loopstep record ARGS -o OUT -- python3 probe.py MODE` with `env`; its
/// output, the agent's lines on standard output.
fn probe(mode: &str, out: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let script = agent("probe.py");
    let mut command = assert_cmd::Command::cargo_bin("loopstep").unwrap();
    command.arg("record").args(args).args([
        "-o",
        out.to_str().unwrap(),
        "--",
        "python3",
        &script,
        mode,
    ]);
    for name in [
        "OPENAI_BASE_URL",
        "ANTHROPIC_BASE_URL",
        "GOOGLE_GEMINI_BASE_URL",
        "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
    ] {
        command.env_remove(name);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command.timeout(Duration::from_secs(90)).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The agent's line for `name`: what came back.
fn answer<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no answer for {name} in {stdout}"))
}

fn seen(seen: &Seen) -> Vec<String> {
    seen.lock().unwrap().clone()
}

#[test]
fn record_sends_each_key_to_its_own_company_or_nowhere() {
    // OPENAI_BASE_URL is set and no --upstream: Gemini's key went to
    // OpenAI's upstream, and so did a Bedrock request signed with SigV4.
    let (openai, to_openai) = fake_upstream(vec![chat_reply()]);
    let gemini_reply = Canned::json(serde_json::json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]},
                        "finishReason": "STOP"}],
        "modelVersion": "gemini-2.5-flash"
    }));
    let (gemini, to_gemini) = fake_upstream(vec![gemini_reply.clone(), gemini_reply]);
    let out = scratch("families");
    let done = probe(
        "families",
        &out,
        &[],
        &[
            ("OPENAI_BASE_URL", &format!("{openai}/v1")),
            ("GOOGLE_GEMINI_BASE_URL", &gemini),
        ],
    );
    let (stdout, stderr) = (text(&done.stdout), text(&done.stderr));
    assert!(done.status.success(), "{stderr}");
    assert!(
        answer(&stdout, "gemini-header").starts_with("200"),
        "{stdout}"
    );
    assert!(
        answer(&stdout, "gemini-query").starts_with("200"),
        "{stdout}"
    );
    assert!(answer(&stdout, "chat").starts_with("200"), "{stdout}");
    // Bedrock's request is refused with a note that names --upstream.
    let bedrock = answer(&stdout, "bedrock");
    assert!(bedrock.starts_with("502") && bedrock.contains("--upstream bedrock=URL"));
    assert!(stderr.contains("--upstream bedrock=URL"), "{stderr}");
    // OpenAI's upstream got OpenAI's call only; Gemini's got both of its
    // own, at its own paths.
    let openai_saw = seen(&to_openai);
    assert_eq!(openai_saw.len(), 1, "{openai_saw:?}");
    assert!(openai_saw[0].starts_with("POST /v1/chat/completions "));
    for request in &openai_saw {
        assert!(
            !request.contains("AIza") && !request.contains("AWS4-"),
            "{request}"
        );
    }
    let gemini_saw = seen(&to_gemini);
    assert_eq!(gemini_saw.len(), 2, "{gemini_saw:?}");
    assert!(
        gemini_saw
            .iter()
            .all(|r| r.starts_with("POST /v1beta/models/gemini-2.5-flash:generateContent"))
    );
    // What was recorded holds neither key, in its bodies or its URLs.
    let recording = std::fs::read_to_string(&out).unwrap();
    assert_eq!(recording.lines().count(), 3, "{recording}");
    assert!(!recording.contains("AIzaSyA-0123456789"), "{recording}");
    assert!(recording.contains("key=redacted"), "{recording}");
}

#[test]
fn record_writes_and_prints_no_key_and_its_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let gemini_reply = Canned::json(serde_json::json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]},
                        "finishReason": "STOP"}]
    }));
    for (name, args) in [("keys", &[][..]), ("keys-unredacted", &["--no-redact"][..])] {
        let models = Canned::json(serde_json::json!({"data": []}));
        let (upstream, _) = fake_upstream(vec![gemini_reply.clone(), models]);
        let out = scratch(name);
        let mut args = args.to_vec();
        args.extend(["--upstream", &upstream]);
        let done = probe("secrets", &out, &args, &[]);
        let stderr = text(&done.stderr);
        assert!(done.status.success(), "{stderr}");
        // The unrecorded GET's note names its path, not the key in it.
        assert!(stderr.contains("GET /v1/models?api_key="), "{stderr}");
        assert!(!stderr.contains("sk-proj-abcdefghij"), "{stderr}");
        let recording = std::fs::read_to_string(&out).unwrap();
        assert_eq!(recording.lines().count(), 1, "{name}: {recording}");
        // Gemini's URL key is a credential, like a header: never written.
        assert!(
            !recording.contains("AIzaSyA-0123456789"),
            "{name}: {recording}"
        );
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{name}");
    }
}

#[test]
fn a_finished_call_is_written_whatever_still_streams_beside_it() {
    // The first response streams for as long as anyone reads it; the
    // agent reads one event, keeps it open, makes a whole call, and exits.
    let endless = Canned::events(
        &vec![serde_json::json!({"choices": [{"index": 0, "delta": {"content": "."}}]}); 600],
        Duration::from_millis(100),
    );
    let (upstream, _) = fake_upstream(vec![endless, chat_reply()]);
    let out = scratch("abandoned");
    let done = probe("abandon", &out, &["--upstream", &upstream], &[]);
    let (stdout, stderr) = (text(&done.stdout), text(&done.stderr));
    assert!(done.status.success(), "{stderr}");
    assert!(answer(&stdout, "whole").starts_with("200"), "{stdout}");
    let recording = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<serde_json::Value> = recording
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Both calls are there: the whole one, and the stream, cut short.
    assert_eq!(lines.len(), 2, "{stderr}\n{recording}");
    let whole = lines.iter().find(|l| l["seq"] == 1).unwrap();
    assert!(whole.get("cancelled").is_none(), "{whole}");
    let cut = lines.iter().find(|l| l["seq"] == 0).unwrap();
    assert_eq!(cut["cancelled"], true, "{cut}");
    assert!(stderr.contains("recorded 2 model calls"), "{stderr}");
}

#[test]
fn bodies_time_and_connections_have_limits() {
    let (upstream, to_upstream) = fake_upstream(vec![chat_reply()]);
    let out = scratch("limits");
    let done = probe(
        "limits",
        &out,
        &[
            "--upstream",
            &upstream,
            "--max-size",
            "100KiB",
            "--connections",
            "4",
        ],
        &[],
    );
    let (stdout, stderr) = (text(&done.stdout), text(&done.stderr));
    assert!(done.status.success(), "{stderr}");
    // Over the limit: refused, never forwarded, and said.
    assert!(answer(&stdout, "large").starts_with("413"), "{stdout}");
    assert!(stderr.contains("larger than the size limit"), "{stderr}");
    // Twelve idle connections past a cap of four keep nobody waiting.
    assert!(answer(&stdout, "after-idle").starts_with("200"), "{stdout}");
    assert_eq!(seen(&to_upstream).len(), 1);
}

#[test]
fn a_connection_that_sends_nothing_is_closed_after_the_idle_timeout() {
    use std::io::Read;
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let out = scratch("idle");
    let mut record = std::process::Command::new(assert_cmd::cargo::cargo_bin("loopstep"))
        .args(["record", "--listen", &address, "--idle-timeout", "1"])
        .args(["-o", out.to_str().unwrap(), "--", "sleep", "20"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let mut connection = loop {
        match std::net::TcpStream::connect(&address) {
            Ok(connection) => break connection,
            Err(_) if started.elapsed() < Duration::from_secs(20) => {
                std::thread::sleep(Duration::from_millis(50))
            }
            Err(error) => panic!("record never listened: {error}"),
        }
    };
    connection
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let opened = std::time::Instant::now();
    let mut byte = [0u8; 1];
    let read = connection.read(&mut byte);
    let _ = record.kill();
    let _ = record.wait();
    // Closed by the proxy (end of stream), well before our own bound.
    assert!(matches!(read, Ok(0)), "{read:?}");
    assert!(opened.elapsed() < Duration::from_secs(10));
}

#[test]
fn only_the_agent_s_own_requests_are_forwarded_and_recorded() {
    let (upstream, to_upstream) = fake_upstream(vec![chat_reply()]);
    let out = scratch("outsiders");
    let port = TcpListener::bind("0.0.0.0:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let everywhere = format!("0.0.0.0:{port}");
    let done = probe(
        "outsiders",
        &out,
        &["--upstream", &upstream, "--listen", &everywhere],
        &[],
    );
    let (stdout, stderr) = (text(&done.stdout), text(&done.stderr));
    assert!(done.status.success(), "{stderr}");
    // Listening beyond loopback is said; the agent is handed loopback.
    assert!(stderr.contains("warning: listening on 0.0.0.0"), "{stderr}");
    assert!(
        stderr.contains(&format!("http://127.0.0.1:{port}/")),
        "{stderr}"
    );
    assert!(answer(&stdout, "no-token").contains(" 403 "), "{stdout}");
    assert!(
        answer(&stdout, "foreign-host").contains(" 421 "),
        "{stdout}"
    );
    assert!(answer(&stdout, "options").contains(" 200 "), "{stdout}");
    assert!(
        answer(&stdout, "connection-named").contains(" 200 "),
        "{stdout}"
    );
    // Only the agent's own call reached the upstream, without the header
    // its Connection named; only it was recorded.
    let saw = seen(&to_upstream);
    assert_eq!(saw.len(), 1, "{saw:?}");
    assert!(!saw[0].to_ascii_lowercase().contains("x-hop"), "{}", saw[0]);
    let recording = std::fs::read_to_string(&out).unwrap();
    assert_eq!(recording.lines().count(), 1, "{recording}");
}

#[test]
fn a_response_the_upstream_breaks_off_is_still_recorded() {
    let (upstream, _) = fake_upstream(vec![chat_reply().broken_off()]);
    let out = scratch("malformed");
    let done = probe("malformed", &out, &["--upstream", &upstream], &[]);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let recording = std::fs::read_to_string(&out).unwrap();
    let line: serde_json::Value = serde_json::from_str(recording.lines().next().unwrap()).unwrap();
    assert!(line["error"].is_string(), "{line}");
}

#[test]
fn a_key_the_upstream_streams_over_several_events_is_not_recorded() {
    let chunk = |content: &str, finish: serde_json::Value| {
        serde_json::json!({"id": "c", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": finish}]})
    };
    let split = Canned::events(
        &[
            chunk("Your key is sk-proj-abcdefghij", serde_json::Value::Null),
            chunk("klmnopqrstuvwxyz0123", serde_json::Value::Null),
            chunk("456789ABCD, keep it safe.", "stop".into()),
        ],
        Duration::ZERO,
    );
    let (upstream, _) = fake_upstream(vec![split]);
    let out = scratch("split-key");
    let script = agent("get_today_stdlib.py");
    let done = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args([
            "record",
            "--upstream",
            &upstream,
            "-o",
            out.to_str().unwrap(),
        ])
        .args(["--", "python3", &script, "stream"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    // The agent got the key whole: only the recording is redacted.
    assert!(text(&done.stdout).contains("sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"));
    let recording = std::fs::read_to_string(&out).unwrap();
    for piece in ["abcdefghij", "klmnopqrstuvwxyz0123", "456789ABCD"] {
        assert!(!recording.contains(piece), "{piece} in {recording}");
    }
    let replayed = crate::common::printed(&["run", out.to_str().unwrap()]);
    assert!(!replayed.contains("abcdefghij"), "{replayed}");
    assert!(replayed.contains("keep it safe."), "{replayed}");
}
