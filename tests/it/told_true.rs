//! The lessons told true: no step contradicts the next, and the numbers
//! and names a class reads are the ones the run has.

use crate::common::printed;

/// The handout of a built-in run: every step's line and caption, as the
/// screen says them.
fn handout(run: &str, lang: &str) -> String {
    printed(&[
        "--lang", lang, "export", run, "-o", "-", "--format", "markdown",
    ])
}

#[test]
fn a_goal_check_on_a_tool_s_report_is_not_told_as_verification() {
    // not-done-yet: the harness lets the answer stand once `save_file`
    // reported success; nothing reads notes.md back. The goal check's
    // step and the answer's say the same thing the gauge does.
    let en = handout("not-done-yet", "en");
    assert!(!en.contains("verified by a check"), "{en}");
    assert!(!en.contains("only a goal check verifies"), "{en}");
    assert!(en.contains("on \\`save_file\\`'s report"), "{en}");
    let zh = handout("not-done-yet", "zh");
    assert!(!zh.contains("靠的是检查"), "{zh}");
    assert!(zh.contains("凭 save_file 报告的成功"), "{zh}");
    // A run with no goal check says what would verify it.
    let paris = handout("paris", "en");
    assert!(
        paris.contains("only a check of the work itself verifies it"),
        "{paris}"
    );
}

#[test]
fn the_harness_pushing_back_is_no_error() {
    // The push-back is the harness doing its job: the title counts no
    // error, and the JSON lists none.
    let json: serde_json::Value =
        serde_json::from_str(&printed(&["run", "not-done-yet", "--format", "json"])).unwrap();
    assert_eq!(json["errors"], serde_json::json!([]), "{json}");
}

#[test]
fn stopping_on_text_is_told_as_any_text_not_text_that_looks_done() {
    // aurora-run's first reply is "I need the film's director first…"
    // beside its tool request: nothing about it looks done.
    let en = printed(&[
        "export",
        "aurora-run",
        "-o",
        "-",
        "--format",
        "markdown",
        "--mistake",
        "stop-on-text",
    ]);
    assert!(en.contains("any text ends this loop"), "{en}");
    assert!(!en.contains("looks done"), "{en}");
}

#[test]
fn the_seeds_other_forms_of_the_loop_are_told_where_a_run_shows_the_contrast() {
    // Seed 001 ("Agent Loop 的其他实现", "Workflow 不是 Agent"), seed 002
    // ("循环次数增加本身并不证明质量提高") and seed 000 ("记录中的搜索工具只有
    // 四页资料"), each on the run where it can be seen.
    for (run, en, zh) in [
        (
            "parallel-tools",
            "Plan-and-Execute",
            "先计划再执行（Plan-and-Execute）",
        ),
        ("not-done-yet", "Reflection", "自我反思（Reflection）"),
        (
            "aurora-run",
            "A workflow, its steps fixed in code",
            "工作流（workflow）",
        ),
        ("aurora-run", "four encyclopedia pages", "只有四页百科资料"),
        (
            "always-search",
            "more rounds alone prove nothing about quality",
            "并不证明质量更好",
        ),
    ] {
        assert!(handout(run, "en").contains(en), "{run}: {en}");
        assert!(handout(run, "zh").contains(zh), "{run}: {zh}");
    }
}

/// Every value a field of a response may take, as each API's reference
/// lists it, and whether a call's arguments are an object or a string.
mod wire {
    use serde_json::Value;

    /// Messages API, `stop_reason`
    /// (https://platform.claude.com/docs/en/api/messages/create).
    pub const ANTHROPIC_STOPS: &[&str] = &[
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
    ];
    /// Chat Completions, `finish_reason`
    /// (https://platform.openai.com/docs/api-reference/chat/object), and
    /// DeepSeek's one more (https://api-docs.deepseek.com/api/create-chat-completion).
    pub const CHAT_STOPS: &[&str] = &[
        "stop",
        "length",
        "tool_calls",
        "content_filter",
        "function_call",
        "insufficient_system_resource",
    ];
    /// Responses, `status` and `incomplete_details.reason`
    /// (https://platform.openai.com/docs/api-reference/responses/object).
    pub const RESPONSES_STATUS: &[&str] = &["completed", "failed", "in_progress", "incomplete"];
    /// Gemini, `FinishReason`
    /// (https://ai.google.dev/api/generate-content#FinishReason).
    pub const GEMINI_STOPS: &[&str] = &[
        "STOP",
        "MAX_TOKENS",
        "SAFETY",
        "RECITATION",
        "LANGUAGE",
        "OTHER",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "MALFORMED_FUNCTION_CALL",
        "IMAGE_SAFETY",
        "UNEXPECTED_TOOL_CALL",
        "TOO_MANY_TOOL_CALLS",
    ];
    /// Converse, `stopReason`
    /// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
    pub const CONVERSE_STOPS: &[&str] = &[
        "end_turn",
        "tool_use",
        "max_tokens",
        "stop_sequence",
        "guardrail_intervened",
        "content_filtered",
        "malformed_model_output",
        "malformed_tool_use",
        "model_context_window_exceeded",
    ];

    /// Each (path, value) under `value` whose key is `key`.
    pub fn all<'v>(value: &'v Value, key: &str, out: &mut Vec<&'v Value>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    if k == key {
                        out.push(v);
                    }
                    all(v, key, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| all(v, key, out)),
            _ => {}
        }
    }
}

#[test]
fn every_built_in_run_told_in_every_api_sends_only_what_that_api_can() {
    use loopstep::dialect::Dialect;
    use loopstep::engine::{Config, Event, Reply};
    use loopstep::transcript::{BUILTIN_NAMES, builtin};
    for name in BUILTIN_NAMES {
        let run = builtin(name).unwrap().unwrap();
        for dialect in Dialect::ALL {
            if run.untold_in(dialect).is_some() {
                continue;
            }
            let trace = run.replay(Config {
                dialect,
                ..run.default_config()
            });
            for step in &trace.steps {
                let Event::Call { stop_reason, .. } = &step.event else {
                    continue;
                };
                let reply = Reply {
                    content: trace.messages[step.messages - 1].content.clone(),
                    stop_reason: stop_reason.clone(),
                    ..Reply::default()
                };
                let body = dialect.response(&run.model, &reply);
                let at = format!("{name} in {dialect:?}: {body}");
                let values = |key: &str| {
                    let mut out = Vec::new();
                    wire::all(&body, key, &mut out);
                    out
                };
                let one_of = |key: &str, allowed: &[&str]| {
                    for v in values(key) {
                        assert!(allowed.contains(&v.as_str().unwrap_or("")), "{key}: {at}");
                    }
                };
                match dialect {
                    Dialect::AnthropicMessages => {
                        one_of("stop_reason", wire::ANTHROPIC_STOPS);
                        // An object, or the partial JSON a tool streamed
                        // without buffering ends with (https://platform.
                        // claude.com/docs/en/agents-and-tools/tool-use/fine-grained-tool-streaming).
                        let input = values("input");
                        assert!(input.iter().all(|v| v.is_object() || v.is_string()), "{at}");
                    }
                    Dialect::OpenaiChat => {
                        one_of("finish_reason", wire::CHAT_STOPS);
                        assert!(values("arguments").iter().all(|v| v.is_string()), "{at}");
                        assert!(values("refusal").iter().all(|v| v.is_string()), "{at}");
                    }
                    Dialect::OpenaiResponses => {
                        one_of("status", wire::RESPONSES_STATUS);
                        assert!(values("arguments").iter().all(|v| v.is_string()), "{at}");
                    }
                    Dialect::Gemini => {
                        one_of("finishReason", wire::GEMINI_STOPS);
                        assert!(values("args").iter().all(|v| v.is_object()), "{at}");
                    }
                    Dialect::BedrockConverse => {
                        one_of("stopReason", wire::CONVERSE_STOPS);
                        assert!(values("input").iter().all(|v| v.is_object()), "{at}");
                    }
                }
            }
        }
    }
}

/// What `run RUN --dialect API` prints, or why it refuses.
fn told(run: &str, api: &str) -> (bool, String) {
    let out = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args(["run", run, "--dialect", api])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(if out.status.success() {
        &out.stdout
    } else {
        &out.stderr
    });
    (out.status.success(), text.into_owned())
}

#[test]
fn a_run_an_api_cannot_send_is_refused_with_the_reason_or_told_its_way() {
    // Chat and Responses say a refusal in the reply (`message.refusal`, a
    // `refusal` part) under the stop of an answer: the check still halts.
    for api in ["openai-chat", "openai-responses"] {
        let (ok, text) = told("refusal", api);
        assert!(ok, "{text}");
        assert!(text.contains("halt: the model declined to answer, in the reply's `refusal`"));
    }
    // Gemini and Converse have none, and never send a call's arguments cut
    // off; Responses and Gemini cannot leave a call pending under an
    // answer's stop.
    for (run, api, why) in [
        ("refusal", "gemini", "it stops with refusal"),
        ("max-tokens", "gemini", "its call to `search` was cut off"),
        (
            "malformed-request",
            "bedrock-converse",
            "its call to `search` was cut off",
        ),
        (
            "pending-tool-call",
            "openai-responses",
            "the calls alone make a reply a tool request",
        ),
        (
            "pending-tool-call",
            "gemini",
            "the calls alone make a reply a tool request",
        ),
    ] {
        let (ok, text) = told(run, api);
        assert!(!ok && text.contains(why), "{run} {api}: {text}");
    }
}

#[test]
fn where_the_calls_decide_the_check_says_so() {
    // Gemini's STOP ends a tool request and an answer alike: the parts
    // decide, and the line and the lesson's caption say which.
    let run = printed(&["run", "aurora-run", "--dialect", "gemini"]);
    assert!(
        run.contains("finishReason STOP, with functionCall → dispatch"),
        "{run}"
    );
    assert!(
        run.contains("finishReason STOP, no functionCall → return"),
        "{run}"
    );
    let lesson = handout_with(
        &["--dialect", "openai-responses", "--check", "lesson"],
        "max-tokens",
    );
    assert!(
        lesson.contains("is not a finished reply holding function_call"),
        "{lesson}"
    );
    assert!(!lesson.contains("is not completed"), "{lesson}");
}

/// The handout of `run` with more flags.
fn handout_with(flags: &[&str], run: &str) -> String {
    let mut args = vec!["export", run, "-o", "-", "--format", "markdown"];
    args.extend_from_slice(flags);
    printed(&args)
}

#[test]
fn not_done_yet_is_listed_as_what_it_shows() {
    let en = printed(&["list"]);
    let line = en.lines().find(|l| l.starts_with("not-done-yet")).unwrap();
    assert!(!line.contains("verified answer"), "{line}");
    let zh = printed(&["--lang", "zh", "list"]);
    let line = zh.lines().find(|l| l.starts_with("not-done-yet")).unwrap();
    assert!(!line.contains("经过验证的回答"), "{line}");
}

#[test]
fn the_numbers_a_class_asks_about_add_up() {
    // The unknown tool and the unparseable call never ran: they are not
    // tools that ran, nor tools that failed.
    let malformed = handout("malformed-request", "en");
    assert!(
        malformed.contains("the loop cannot run web_search as asked"),
        "{malformed}"
    );
    assert!(!malformed.contains("web_search failed"), "{malformed}");
    assert!(!malformed.contains("tools ran in"), "{malformed}");
    // The budget ends the loop after turn 1 when max_turns = 2, in words.
    let spent = printed(&["run", "aurora-run-max-turns-2"]);
    assert!(spent.contains("turn 1   budget spent"), "{spent}");
    assert!(!spent.contains("turn 2"), "{spent}");
    // The estimate says it counts the messages only.
    let screen = crate::common::screen::drive(
        &mut crate::common::screen::app_in(loopstep::narrate::Lang::En, "aurora-run"),
        120,
        40,
        &["Right", "Right"],
    )
    .backend()
    .to_string();
    assert!(
        screen.contains("est.: messages only, no system prompt or tool schemas"),
        "{screen}"
    );
}

#[test]
fn a_built_in_run_imported_to_start_from_keeps_both_languages() {
    // The README's "start from one that works": the copy asks in Chinese
    // under --lang zh, as the original does.
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine.json");
    let mine = mine.to_str().unwrap();
    printed(&["import", "aurora-run", "-o", mine]);
    let copy = std::fs::read_to_string(mine).unwrap();
    let shipped = loopstep::transcript::builtin_text("aurora-run").unwrap();
    assert_eq!(
        copy.matches("\"zh\"").count(),
        shipped.matches("\"zh\"").count()
    );
    let zh = printed(&["--lang", "zh", "run", mine]);
    assert!(zh.contains("问题：Aurora Run 的导演出生于哪一年？"), "{zh}");
}

#[test]
fn a_real_gemini_run_measures_its_calls_against_the_window_google_gives() {
    // The model is gemini-3-flash-preview: 1,048,576 input tokens.
    let json: serde_json::Value = serde_json::from_str(&printed(&[
        "run",
        &crate::common::fixture("real/retries/pydantic-ai-gemini-empty.yaml"),
        "--format",
        "json",
    ]))
    .unwrap();
    let windows: Vec<&serde_json::Value> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.get("context_window"))
        .collect();
    assert_eq!(windows.len(), 3, "{json}");
    assert!(windows.iter().all(|w| *w == 1_048_576), "{windows:?}");
}

#[test]
fn every_built_in_run_stepped_to_its_end_in_both_languages() {
    // Every step's line and caption, in order (the handout is the screen's
    // words, walked whole), and the last screen at both sizes: what a class
    // reads, kept so that a caption that contradicts its neighbours shows
    // up in review.
    use crate::common::screen::{app_in, drive};
    use loopstep::narrate::Lang;
    use loopstep::transcript::BUILTIN_NAMES;
    for name in BUILTIN_NAMES {
        for (lang, code) in [(Lang::En, "en"), (Lang::Zh, "zh")] {
            insta::assert_snapshot!(format!("walk_{name}_{code}"), handout(name, code));
            for (width, height) in [(80, 24), (120, 40)] {
                let mut app = app_in(lang, name);
                // Step by step to the end, as a teacher presses →.
                let steps = app.trace().steps.len();
                let keys = vec!["Right"; steps];
                let end = drive(&mut app, width, height, &keys).backend().to_string();
                assert!(app.at_end(), "{name} {code}");
                if (lang, width) != (Lang::En, 80) {
                    insta::assert_snapshot!(format!("end_{name}_{code}_{width}x{height}"), end);
                }
            }
        }
    }
}
