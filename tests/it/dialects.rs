//! Every run speaks its own API's dialect: in `run`'s text and JSON and on
//! every screen of the replay, an OpenAI run never uses Anthropic's names,
//! and the reverse.

use crate::common::{self, fixture};
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use loopstep::dialect::Dialect;
use loopstep::engine::{CheckPolicy, Config, Mistake, Trace};
use loopstep::narrate::Lang;
use loopstep::report;
use loopstep::transcript::{Localized, Source, open};
use loopstep::tui::{App, ScriptedEvents, Settings, run_app};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Words only the other APIs use, that a run of `dialect` must never show.
fn foreign_words(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::AnthropicMessages => &[
            "finish_reason",
            "tool_calls",
            "tool_call_id",
            "role: \"tool\"",
            "\"role\": \"tool\"",
            "function_call",
        ],
        Dialect::OpenaiChat => &[
            "user message",
            "stop_reason",
            "tool_use",
            "tool_result",
            "end_turn",
            "is_error",
            "function_call",
        ],
        Dialect::OpenaiResponses => &[
            "stop_reason",
            "tool_use",
            "tool_result",
            "end_turn",
            "is_error",
            "finish_reason",
            "tool_calls",
        ],
        Dialect::Gemini => &[
            "stop_reason",
            "stopReason",
            "tool_use",
            "tool_result",
            "toolUse",
            "end_turn",
            "is_error",
            "finish_reason",
            "tool_calls",
            "function_call",
        ],
        // Converse spells its stop reasons as Anthropic does.
        Dialect::BedrockConverse => &[
            "stop_reason",
            "finishReason",
            "tool_result",
            "tool_use_id",
            "is_error",
            "finish_reason",
            "tool_calls",
            "functionCall",
            "function_call",
        ],
    }
}

/// Every screen of the replay: each step, in summary and on the wire, at
/// the end with both checks; told in `told` where it is given.
fn screens(source: &Source, told: Option<Dialect>) -> Vec<String> {
    let mut shown = Vec::new();
    for (index, _) in source.runs.iter().enumerate() {
        for (check, lang) in [
            (CheckPolicy::Production, Lang::En),
            (CheckPolicy::Lesson, Lang::En),
            (CheckPolicy::Production, Lang::Zh),
        ] {
            let settings = Settings {
                check,
                lang,
                dialect: told,
                ..Settings::default()
            };
            let runs: Vec<Localized> = source.runs.iter().cloned().map(Localized::from).collect();
            let mut app = App::new(&runs, index, settings);
            let steps = app.trace().steps.len();
            for _ in 0..steps {
                for keys in [&[][..], &["w"][..], &["w", "e"][..], &["e", "Right"][..]] {
                    shown.push(draw(&mut app, keys));
                }
            }
        }
    }
    shown
}

fn draw(app: &mut App, keys: &[&str]) -> String {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let events = keys.iter().map(|k| {
        let code = match *k {
            "Right" => KeyCode::Right,
            other => KeyCode::Char(other.chars().next().unwrap()),
        };
        TermEvent::Key(KeyEvent::new(code, KeyModifiers::NONE))
    });
    run_app(&mut terminal, app, &mut ScriptedEvents(events)).unwrap();
    terminal.backend().to_string()
}

/// `run`'s text and JSON under both checks and every mistake; told in
/// `told` where it is given.
fn run_outputs(source: &Source, told: Option<Dialect>) -> Vec<String> {
    let mistakes = std::iter::once(None).chain(Mistake::ALL.map(Some));
    let setups: Vec<(CheckPolicy, Option<Mistake>)> = mistakes
        .map(|m| (CheckPolicy::Production, m))
        .chain([(CheckPolicy::Lesson, None)])
        .collect();
    setups
        .into_iter()
        .flat_map(|(check, mistake)| {
            let traces: Vec<Trace> = source
                .runs
                .iter()
                .map(|t| {
                    t.replay(Config {
                        check,
                        mistake,
                        dialect: told.unwrap_or(t.dialect()),
                        ..t.default_config()
                    })
                })
                .collect();
            [
                report::text(source, &traces, report::TextOptions::default()),
                report::text(
                    source,
                    &traces,
                    report::TextOptions {
                        lang: Lang::Zh,
                        ..Default::default()
                    },
                ),
                serde_json::to_string(&report::json(source, &traces, None)).unwrap(),
            ]
        })
        .collect()
}

fn assert_speaks(name: &str, dialect: Dialect) {
    let source = open(name, None).unwrap();
    for run in &source.runs {
        assert_eq!(run.dialect(), dialect, "{name}");
    }
    assert_only_words_of(name, dialect, &source, None);
}

/// A run told in `dialect`, whatever it was recorded in, uses only its words.
fn assert_told(name: &str, dialect: Dialect) {
    let source = open(name, None).unwrap();
    assert_only_words_of(name, dialect, &source, Some(dialect));
}

fn assert_only_words_of(name: &str, dialect: Dialect, source: &Source, told: Option<Dialect>) {
    let outputs = run_outputs(source, told)
        .into_iter()
        .chain(screens(source, told));
    for (n, output) in outputs.enumerate() {
        for word in foreign_words(dialect) {
            assert!(
                !output.contains(word),
                "{name} ({dialect:?}), output {n} says {word:?}:\n{output}"
            );
        }
    }
}

#[test]
fn built_in_runs_speak_their_own_dialect() {
    assert_speaks("todays-date", Dialect::OpenaiChat);
    assert_speaks("aurora-run", Dialect::AnthropicMessages);
    assert_speaks("parallel-tools", Dialect::AnthropicMessages);
}

#[test]
fn built_in_runs_told_in_gemini_or_bedrock_use_only_that_api_s_words() {
    for dialect in [Dialect::Gemini, Dialect::BedrockConverse] {
        for name in ["todays-date", "aurora-run", "parallel-tools"] {
            assert_told(name, dialect);
        }
    }
}

#[test]
fn built_in_runs_told_in_any_other_api_use_only_its_words() {
    for (name, dialect) in [
        ("aurora-run", Dialect::OpenaiChat),
        ("aurora-run", Dialect::OpenaiResponses),
        ("todays-date", Dialect::AnthropicMessages),
        ("parallel-tools", Dialect::OpenaiResponses),
    ] {
        assert_told(name, dialect);
    }
}

#[test]
fn imported_runs_speak_the_dialect_they_were_recorded_in() {
    assert_speaks(
        &fixture("real/deepseek-tool-calls-with-thinking.exchanges.json"),
        Dialect::OpenaiChat,
    );
    assert_speaks(&fixture("conversation-openai.json"), Dialect::OpenaiChat);
    assert_speaks(
        &fixture("real/anthropic-parallel-tool-calls.exchanges.json"),
        Dialect::AnthropicMessages,
    );
    assert_speaks(
        &fixture("exchanges-openai-responses.json"),
        Dialect::OpenaiResponses,
    );
    assert_speaks(&fixture("real/cassette-gemini-retry.yaml"), Dialect::Gemini);
    assert_speaks(
        &fixture("real/cassette-bedrock-two-rounds.yaml"),
        Dialect::BedrockConverse,
    );
}

#[test]
fn the_exit_that_is_no_answer_is_never_called_stop() {
    let source = open("todays-date", None).unwrap();
    let runs = [source.runs[0].clone().into()];
    let mut app = App::new(&runs, 0, Settings::default());
    let screen = draw(&mut app, &[]);
    assert!(screen.contains("other ▶ halt"), "{screen}");
    assert!(screen.contains("check ─ stop ─▶ answer"), "{screen}");
}

#[test]
fn a_responses_run_cut_short_says_status_incomplete_and_its_reason() {
    // The Response object's status is completed, failed, in_progress or
    // incomplete; an incomplete one says why in incomplete_details.reason
    // (https://platform.openai.com/docs/api-reference/responses/object).
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/exchanges-openai-responses.json"
    );
    let en = common::printed(&["run", log]);
    assert!(
        en.contains("status incomplete (incomplete_details.reason max_output_tokens) → halt"),
        "{en}"
    );
    assert!(!en.contains("status max_output_tokens"), "{en}");
    let zh = common::printed(&["--lang", "zh", "run", log]);
    assert!(
        zh.contains("状态 status 为 incomplete (incomplete_details.reason max_output_tokens)"),
        "{zh}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&common::printed(&["run", log, "--format", "json"])).unwrap();
    let steps: Vec<&serde_json::Value> = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|run| run["steps"].as_array().unwrap())
        .filter(|step| step["status"] == "incomplete")
        .collect();
    assert_eq!(steps.len(), 2, "the call and its check");
    for step in steps {
        assert_eq!(step["incomplete_details"]["reason"], "max_output_tokens");
    }
}

#[test]
fn a_finish_reason_loopstep_does_not_know_is_named_with_the_ones_it_does() {
    // Seed 001 names DeepSeek's `aborted`; DeepSeek's API reference lists
    // stop, length, content_filter, tool_calls and
    // insufficient_system_resource
    // (https://api-docs.deepseek.com/api/create-chat-completion), the last
    // its own, not OpenAI's: said to be DeepSeek's, and nothing said of
    // what a reference documents.
    let exchange = serde_json::json!([{
        "request": {"model": "deepseek-chat", "messages": [{"role": "user", "content": "hi"}]},
        "response": {"model": "deepseek-chat", "choices": [{"index": 0, "finish_reason": "aborted",
            "message": {"role": "assistant", "content": "Hel"}}]}
    }]);
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("aborted.json");
    std::fs::write(&path, exchange.to_string()).unwrap();
    let path = path.to_str().unwrap();
    let en = common::printed(&["run", path]);
    assert!(
        en.contains(
            "a finish_reason loopstep does not know in OpenAI Chat Completions (it knows \
             tool_calls, stop, length, content_filter, DeepSeek's insufficient_system_resource), \
             handed to the caller rather than guessed at"
        ),
        "{en}"
    );
    let zh = common::printed(&["--lang", "zh", "run", path]);
    assert!(
        zh.contains("不认识这个结束原因 finish_reason（它认识的有 tool_calls、stop"),
        "{zh}"
    );
}

#[test]
fn a_request_body_sets_the_reply_s_token_limit_right_after_the_model() {
    // The Messages API requires max_tokens
    // (https://platform.claude.com/docs/en/api/messages/create).
    let question = [loopstep::engine::Message::user_text("q")];
    let messages = loopstep::vocab::Messages::of(&question);
    for (dialect, field) in [
        (Dialect::AnthropicMessages, "max_tokens"),
        (Dialect::OpenaiChat, "max_tokens"),
        (Dialect::OpenaiResponses, "max_output_tokens"),
    ] {
        let body = dialect.request(("m", Some(32)), Some("be brief"), &[], messages);
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(keys[..2], ["model", field], "{dialect:?}");
        assert_eq!(body[field], 32);
    }
    // Every built-in run says its limit; max-tokens the small one it hits.
    for name in loopstep::transcript::BUILTIN_NAMES {
        let run = loopstep::transcript::builtin(name).unwrap().unwrap();
        assert!(run.max_tokens.is_some(), "{name}");
    }
    let cut_off = loopstep::transcript::builtin("max-tokens")
        .unwrap()
        .unwrap();
    assert_eq!(cut_off.max_tokens, Some(32));
    // An exchange log keeps the limit its requests set: 4096 in this one.
    let log = fixture("real/anthropic-parallel-tool-calls.exchanges.json");
    let source = loopstep::transcript::open(&log, None).unwrap();
    assert_eq!(source.runs[0].max_tokens, Some(4096));
}

#[test]
fn chat_completions_sends_the_system_prompt_as_its_first_message_once() {
    // Chat Completions: the system prompt is one of `messages`
    // (https://platform.openai.com/docs/api-reference/chat/create); the
    // Messages API and Responses take it apart, as `system` and
    // `instructions`.
    let run = loopstep::transcript::builtin("todays-date")
        .unwrap()
        .unwrap();
    let system = run.system.clone().unwrap();
    let trace = run.replay(run.default_config());
    assert_eq!(trace.messages[0].text(), system);
    let body = Dialect::OpenaiChat.request(("m", None), Some(&system), &[], trace.messages.all());
    let roles: Vec<&str> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "assistant"]);
    // A conversation that does not open with it has it put first.
    let question = [loopstep::engine::Message::user_text("q")];
    let messages = loopstep::vocab::Messages::of(&question);
    let body = Dialect::OpenaiChat.request(("m", None), Some("be brief"), &[], messages);
    assert_eq!(
        body["messages"][0],
        serde_json::json!({"role": "system", "content": "be brief"})
    );
    // An Anthropic run keeps its system prompt out of messages.
    let aurora = loopstep::transcript::builtin("aurora-run")
        .unwrap()
        .unwrap();
    let trace = aurora.replay(aurora.default_config());
    assert_eq!(trace.messages[0].text(), aurora.question);
    // The start and the first call say so, in both languages.
    let say = |lang| loopstep::narrate::Say::new(lang, Dialect::OpenaiChat);
    assert!(say(Lang::En).caption_start(2, true).contains(
        "the system prompt, which Chat Completions sends as the first message, then the question"
    ));
    assert!(
        say(Lang::Zh)
            .caption_start(2, true)
            .contains("messages 里先是系统提示词")
    );
    assert!(
        say(Lang::En)
            .caption_first_call(true, false)
            .contains("the system prompt and the question")
    );
    assert!(
        say(Lang::Zh)
            .caption_first_call(true, false)
            .contains("现在是系统提示词和问题")
    );
}

#[test]
fn a_call_is_measured_against_the_model_s_context_window_where_it_is_known() {
    // Claude Opus 5.5: "1M tokens" in the comparison table of
    // https://platform.claude.com/docs/en/models/overview (read 2026-12-02).
    let json: serde_json::Value =
        serde_json::from_str(&common::printed(&["run", "aurora-run", "--format", "json"])).unwrap();
    let calls: Vec<&serde_json::Value> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["phase"] == "call")
        .collect();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c["context_window"] == 1_000_000));
    // DeepSeek's window is not in the table: nothing is claimed.
    let deepseek: serde_json::Value = serde_json::from_str(&common::printed(&[
        "run",
        "todays-date",
        "--format",
        "json",
    ]))
    .unwrap();
    assert!(deepseek["steps"][1].get("context_window").is_none());
    // The call's detail says it, recorded or estimated, in either language.
    for (lang, says) in [
        (
            Lang::En,
            "context window: 412 of 1M tokens (<0.1%), as recorded",
        ),
        (
            Lang::Zh,
            "上下文窗口：1M token 中用了 412 个（<0.1%，记录值）",
        ),
    ] {
        let mut app = common::screen::app_in(lang, "aurora-run");
        let screen = common::screen::drive(&mut app, 80, 24, &["Right"]);
        let text = common::screen::rows(screen.backend().buffer()).join("");
        let text: String = text.split_whitespace().collect();
        let says: String = says.split_whitespace().collect();
        assert!(text.contains(&says), "{lang:?}: {text}");
    }
    let say = loopstep::narrate::Say::new(Lang::En, Dialect::AnthropicMessages);
    assert_eq!(
        say.detail_window((13, false), 200_000),
        "context window: ≈13 of 200K tokens (<0.1%), estimated"
    );
    assert_eq!(
        say.detail_window((50_000, true), 200_000),
        "context window: 50000 of 200K tokens (25.0%), as recorded"
    );
}

#[test]
fn a_chat_run_with_a_history_counts_its_system_prompt_once() {
    // messages: system "SYS" (3), history "a" (1) and "bb" (2), question
    // "q" (1): four messages, seven characters.
    let run = serde_json::json!({
        "version": 1, "id": "h", "title": "h", "dialect": "openai-chat",
        "system": "SYS", "question": "q", "model": "m", "max_turns": 2,
        "history": [
            {"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "bb"}]}
        ],
        "replies": [{"content": [{"type": "text", "text": "ok"}], "stop_reason": "stop"}]
    });
    let run = loopstep::transcript::Transcript::parse(&run.to_string(), "h").unwrap();
    let runs = common::screen::same_in_both(vec![run]);
    let mut app = App::new(&runs, 0, Settings::default());
    let screen = common::screen::drive(&mut app, 100, 30, &[]);
    let text = common::screen::rows(screen.backend().buffer()).join("\n");
    assert!(text.contains("messages · 4 so far, 7 chars"), "{text}");
    // The first call sends what the run opened with, not just the question.
    let screen = common::screen::drive(&mut app, 100, 30, &["Right"]);
    let text = common::screen::rows(screen.backend().buffer()).join(" ");
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("the messages the run opened with, then the question"),
        "{text}"
    );
    // After the reply: five messages, nine characters.
    let screen = common::screen::drive(&mut app, 100, 30, &["End"]);
    let text = common::screen::rows(screen.backend().buffer()).join("\n");
    assert!(text.contains("messages · 5 so far, 9 chars"), "{text}");
}

#[test]
fn aurora_run_told_in_each_api_ends_in_1974_after_three_calls_in_that_api_s_words() {
    // Each API's stop field and its tool stop, as the check names them.
    for (api, en, zh) in [
        (
            "gemini",
            "finishReason STOP, with functionCall → dispatch",
            "结束原因 finishReason 为 STOP",
        ),
        (
            "bedrock-converse",
            "stopReason tool_use → dispatch",
            "停止原因 stopReason 为 tool_use",
        ),
        (
            "openai-chat",
            "finish_reason tool_calls → dispatch",
            "结束原因 finish_reason 为 tool_calls",
        ),
        (
            "openai-responses",
            "status completed, with function_call → dispatch",
            "状态 status 为 completed",
        ),
    ] {
        let text = common::printed(&["run", "aurora-run", "--dialect", api]);
        assert!(text.contains(en), "{api}: {text}");
        assert!(
            text.contains("model calls: 3 · tool calls: 2 · outcome: answered"),
            "{api}"
        );
        assert!(text.ends_with("result: \"1974\"\n"), "{api}: {text}");
        let chinese = common::printed(&["--lang", "zh", "run", "aurora-run", "--dialect", api]);
        assert!(chinese.contains(zh), "{api}: {chinese}");
        assert!(chinese.contains("模型调用：3"), "{api}: {chinese}");
        assert!(chinese.contains("1974"), "{api}");
        let json: serde_json::Value = serde_json::from_str(&common::printed(&[
            "run",
            "aurora-run",
            "--dialect",
            api,
            "--format",
            "json",
        ]))
        .unwrap();
        assert_eq!(json["dialect"], api);
        assert_eq!(json["result"], "1974");
    }
}

#[test]
fn a_run_an_api_has_no_word_for_is_refused_in_it_and_the_mistakes_answer_in_its_rules() {
    let refused = assert_cmd::Command::cargo_bin("loopstep")
        .unwrap()
        .args(["run", "pause-turn", "--dialect", "openai-chat"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains(
            "pause-turn cannot be told in OpenAI Chat Completions: it stops with pause_turn"
        ),
        "{said}"
    );
    // A dropped result, in Gemini and in Converse: the next turn answers
    // no call, and the API refuses the request with its rule.
    for (api, rule) in [
        ("gemini", "has no functionResponse right after it"),
        ("bedrock-converse", "has no toolResult right after it"),
    ] {
        let text = common::printed(&[
            "run",
            "parallel-tools",
            "--dialect",
            api,
            "--mistake",
            "drop-one-result",
        ]);
        assert!(text.contains(rule), "{api}: {text}");
        // Results split over messages: Anthropic merges consecutive user
        // turns, these two APIs read each message on its own.
        let split = common::printed(&[
            "run",
            "parallel-tools",
            "--dialect",
            api,
            "--mistake",
            "split-results",
        ]);
        assert!(split.contains(rule), "{api}: {split}");
    }
    // The same run in two APIs, side by side.
    let compared = common::printed(&[
        "compare",
        "aurora-run",
        "aurora-run",
        "--right-dialect",
        "gemini",
        "--format",
        "text",
    ]);
    assert!(
        compared.contains("left   aurora-run · Anthropic Messages · max_turns 10"),
        "{compared}"
    );
    assert!(
        compared.contains("right  aurora-run · Gemini · max_turns 10"),
        "{compared}"
    );
}

#[test]
fn a_is_the_next_api_on_the_same_step_and_a_run_told_in_one_stays_told_in_it() {
    use common::screen::{builtins, drive, rows};
    let index = loopstep::transcript::BUILTIN_NAMES
        .iter()
        .position(|n| *n == "todays-date")
        .unwrap();
    let mut app = App::new(builtins(), index, Settings::default());
    // A Chat run leads with its system prompt; told in Responses (A), it
    // does not; back on Chat it does again: the step stays the same.
    let shown = |app: &mut App, keys: &[&str]| {
        let screen = drive(app, 100, 30, keys);
        rows(screen.backend().buffer()).join("\n")
    };
    let chat = shown(&mut app, &["Right", "Right", "Right"]);
    assert!(chat.contains("step 4/"), "{chat}");
    let told = shown(&mut app, &["A"]);
    assert!(told.contains("step 4/"), "{told}");
    assert!(told.contains("OpenAI Responses"), "{told}");
    assert_eq!(app.config().dialect, Dialect::OpenaiResponses);
    // Tab: the next run is told in the same API where it can be.
    shown(&mut app, &["Tab"]);
    assert_eq!(app.config().dialect, Dialect::OpenaiResponses);
    // Round the five, back to its own, each on the way once.
    let mut seen = vec![app.config().dialect];
    while app.config().dialect != app.transcript().dialect() {
        shown(&mut app, &["A"]);
        assert!(!seen.contains(&app.config().dialect), "{seen:?}");
        seen.push(app.config().dialect);
    }
}
