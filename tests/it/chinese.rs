//! loopstep in Chinese: the screen and `run` in the lessons' own terms, the
//! language switched live with `L`, and text of any width that fits.

use crate::common;

use std::sync::Arc;

use assert_cmd::Command;
use common::screen::{app_in, drive, rows, same_in_both};
use loopstep::engine::Event;
use loopstep::narrate::Lang;
use loopstep::transcript::{Transcript, builtin_in};
use loopstep::tui::{App, Settings};
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn screen_zh(run: &str, width: u16, height: u16, keys: &[&str]) -> String {
    let terminal = drive(&mut app_in(Lang::Zh, run), width, height, keys);
    terminal.backend().to_string()
}

fn snapshot_zh(name: &str, run: &str, keys: &[&str]) {
    for (w, h) in SIZES {
        insta::assert_snapshot!(format!("zh_{name}_{w}x{h}"), screen_zh(run, w, h, keys));
    }
}

#[test]
fn aurora_run_in_chinese_first_dispatch_and_final_frames() {
    snapshot_zh("aurora_first", "aurora-run", &[]);
    snapshot_zh(
        "aurora_dispatch",
        "aurora-run",
        &["Right", "Right", "Right"],
    );
    snapshot_zh("aurora_final", "aurora-run", &["End"]);
    let first = screen_zh("aurora-run", 80, 24, &[]);
    assert!(first.contains("Aurora Run 的导演出生于哪一年？"), "{first}");
    assert!(first.contains("开始"));
}

#[test]
fn aurora_run_at_max_turns_2_in_chinese() {
    snapshot_zh("aurora_max_turns_2_first", "aurora-run-max-turns-2", &[]);
    snapshot_zh(
        "aurora_max_turns_2_dispatch",
        "aurora-run-max-turns-2",
        &["Right", "Right", "Right"],
    );
    snapshot_zh(
        "aurora_max_turns_2_final",
        "aurora-run-max-turns-2",
        &["End"],
    );
    let end = screen_zh("aurora-run-max-turns-2", 80, 24, &["End"]);
    assert!(end.contains("预算耗尽"), "{end}");
    assert!(end.contains("None"));
}

#[test]
fn todays_date_in_chinese() {
    let end = screen_zh("todays-date", 80, 24, &["End"]);
    assert!(end.contains("今天是 2026 年 10 月 8 日。"), "{end}");
    insta::assert_snapshot!("zh_todays_date_final_80x24", end);
}

#[test]
fn l_switches_language_in_place() {
    let mut app = app_in(Lang::En, "aurora-run");
    drive(&mut app, 80, 24, &["Right", "Right", "Right"]);
    let (cursor, outcome) = (app.cursor(), app.trace().result().map(str::to_owned));
    let zh = drive(&mut app, 80, 24, &["L"]).backend().to_string();
    assert_eq!(app.cursor(), cursor, "the same step");
    assert!(zh.contains("派发"), "{zh}");
    assert!(zh.contains("Aurora Run 的导演出生于哪一年？"));
    drive(&mut app, 80, 24, &["End"]);
    assert_eq!(app.trace().result().map(str::to_owned), outcome);
    let en = drive(&mut app, 80, 24, &["L"]).backend().to_string();
    assert!(en.contains("In which year was the director"), "{en}");
    assert_eq!(app.trace().result(), Some("1974"));
}

#[test]
fn run_prints_the_whole_run_in_chinese() {
    let out = Command::cargo_bin("loopstep")
        .unwrap()
        .args(["run", "aurora-run", "--lang", "zh"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("问题：Aurora Run 的导演出生于哪一年？"),
        "{text}"
    );
    for phase in ["开始", "调用", "检查", "派发", "追加", "回答"] {
        assert!(text.contains(phase), "{phase} in {text}");
    }
    assert!(text.ends_with("结果：\"1974\"\n"), "{text}");

    let none = Command::cargo_bin("loopstep")
        .unwrap()
        .args(["run", "aurora-run", "--lang", "zh", "--max-turns", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(none.stdout).unwrap();
    assert!(text.contains("预算耗尽"), "{text}");
    assert!(text.ends_with("结果：None\n"), "{text}");
}

/// The harness answers a tool call it cannot run in the class's language,
/// so the error the model reads on screen is as readable as the rest.
#[test]
fn tool_failures_are_told_in_the_runs_language() {
    let errors = |lang: Lang| -> Vec<Arc<str>> {
        let t = builtin_in("malformed-request", lang).unwrap().unwrap();
        t.replay_in(t.default_config(), lang)
            .steps
            .into_iter()
            .filter_map(|s| match s.event {
                Event::Dispatch { output, .. } if output.is_error => Some(output.content),
                _ => None,
            })
            .collect()
    };
    let en = errors(Lang::En);
    let zh = errors(Lang::Zh);
    assert_eq!(en.len(), 2);
    assert_eq!(zh.len(), 2);
    assert!(en[0].starts_with("Unknown tool `web_search`"), "{en:?}");
    assert!(zh[0].starts_with("没有名为 web_search 的工具。"), "{zh:?}");
    assert!(zh[1].starts_with("无法把工具输入解析为 JSON"), "{zh:?}");

    let miss = builtin_in("search-miss", Lang::Zh).unwrap().unwrap();
    let trace = miss.replay_in(miss.default_config(), Lang::Zh);
    assert!(trace.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { output, .. } if &*output.content == "没有找到匹配的页面。")));
}

#[test]
fn the_environment_picks_the_language() {
    let run = |var: &str, value: &str| {
        let out = Command::cargo_bin("loopstep")
            .unwrap()
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .env(var, value)
            .args(["run", "paris"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(run("LANG", "zh_CN.UTF-8").contains("问题：法国的首都是哪里？"));
    assert!(run("LANG", "en_US.UTF-8").contains("question: What is the capital of France?"));
    assert!(run("LC_ALL", "zh_TW.UTF-8").contains("结果：\"巴黎\""));
}

/// Text that mixes every kind of width: ASCII, CJK, full-width forms,
/// combining marks and emoji sequences (flags, ZWJ families, skin tones).
fn mixed_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "Aurora Run ",
        "导演",
        "出生于哪一年？",
        "ＡＢＣ１２３",
        "e\u{301}",
        "ñ",
        "🇳🇴",
        "👨\u{200d}👩\u{200d}👧",
        "👍🏽",
        "🎉",
        " ",
        "\n",
        "\t",
        "—",
        "…",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|p| p.concat())
}

fn run_with(question: &str, answer: &str, title: &str) -> Transcript {
    let doc = serde_json::json!({
        "version": 1, "id": "mixed", "title": title, "question": format!("Q {question}"),
        "model": "m", "max_turns": 3, "tools": [{"name": "search"}],
        "replies": [
            {"content": [
                {"type": "text", "text": answer},
                {"type": "tool_use", "id": format!("call_{}", answer.len()), "name": "search", "input": {"query": question}}
            ], "stop_reason": "tool_use"},
            {"content": [{"type": "text", "text": answer}], "stop_reason": "end_turn"}
        ],
        "results": {format!("call_{}", answer.len()): {"content": answer}}
    });
    Transcript::parse(&doc.to_string(), "mixed").unwrap()
}

/// Every row of the buffer, read as the terminal shows it, fits the width.
fn rows_fit(buffer: &Buffer) -> Result<(), String> {
    for (y, row) in rows(buffer).iter().enumerate() {
        if row.width() > buffer.area.width as usize {
            return Err(format!("row {y} is {} wide: {row:?}", row.width()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn text_of_any_width_fits_every_panel(
        question in mixed_text(),
        answer in mixed_text(),
        title in mixed_text(),
        lang in prop::sample::select(vec![Lang::En, Lang::Zh]),
        (width, height) in prop::sample::select(vec![(80u16, 24u16), (97, 31), (120, 40)]),
        steps in 0usize..8,
    ) {
        let settings = Settings { lang, ..Settings::default() };
        let runs = same_in_both(vec![run_with(&question, &answer, &title)]);
        let mut app = App::new(&runs, 0, settings);
        let keys = vec!["Right"; steps];
        for extra in [&[][..], &["w"][..], &["e"][..], &["?"][..]] {
            let keys: Vec<&str> = keys.iter().copied().chain(extra.iter().copied()).collect();
            let terminal = drive(&mut app, width, height, &keys);
            let buffer = terminal.backend().buffer();
            prop_assert_eq!(buffer.area.width, width);
            prop_assert_eq!(buffer.content().len(), width as usize * height as usize);
            rows_fit(buffer).map_err(TestCaseError::fail)?;
            if extra == ["?"] {
                drive(&mut app, width, height, &["?"]);
            }
        }
    }
}

#[test]
fn validate_names_what_it_read_in_chinese_and_json_stays_english() {
    let fixture = |name: &str| format!("{}/tests/fixtures/real/{name}", env!("CARGO_MANIFEST_DIR"));
    let session = fixture("claude-code-interleaved.jsonl");
    let calls = fixture("deepseek-tool-calls-with-thinking.exchanges.json");
    for (args, expected) in [
        (vec!["validate", "paris"], "paris：有效的内置记录，1 条记录"),
        (
            vec!["validate", &session],
            "有效的 Claude Code 会话（JSON Lines），",
        ),
        (
            vec!["validate", &calls],
            "有效的调用日志（请求/响应对），OpenAI Chat Completions，",
        ),
        (
            vec!["validate", &fixture("")],
            "有效的 Claude Code 项目文件夹，",
        ),
    ] {
        let out = common::printed(&[&["--lang", "zh"][..], &args].concat());
        assert!(
            out.lines().next().unwrap().contains(expected),
            "{expected} in {out}"
        );
    }
    // A file of several runs says its format in the JSON, in English.
    let project = fixture("");
    let json = common::printed(&["--lang", "zh", "run", &project, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let format = json["format"].as_str().unwrap();
    assert!(
        format.starts_with("Claude Code project folder, "),
        "{format}"
    );
}

#[test]
fn load_errors_and_refusals_speak_chinese_under_lang_zh() {
    let cut = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cut-zh.json");
    std::fs::write(&cut, "{\"version\": 1").unwrap();
    let cut = cut.to_str().unwrap();
    let unknown = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unknown-zh.json");
    std::fs::write(&unknown, r#"{"history": [], "model": "m"}"#).unwrap();
    let unknown = unknown.to_str().unwrap().to_owned();
    let invalid = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("invalid-zh.json");
    let run = r#"{"version": 2, "id": " ", "title": "t", "question": "q", "model": "m",
        "max_turns": 3, "tools": [{"name": "a"}, {"name": "a"}],
        "replies": [{"stop_reason": "end_turn", "content": []}],
        "results": {"zz": {"content": "r"}}}"#;
    std::fs::write(&invalid, run).unwrap();
    let invalid = invalid.to_str().unwrap().to_owned();
    let lines = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lines-zh.jsonl");
    std::fs::write(&lines, "{\"a\": 1}\n{\"b\": 2}\n").unwrap();
    let lines = lines.to_str().unwrap().to_owned();
    for (args, expected) in [
        (
            vec!["validate", &invalid],
            vec![
                "不是有效的运行记录（4 个问题）",
                "在 `version`：不支持版本 2；这个 loopstep 读取版本 1",
                "在 `id`：不能为空",
                "在 `tools[1].name`：工具 `a` 被声明了两次",
                "在 `results.zz`：`replies` 里没有 id 为 `zz` 的 tool_use",
            ],
        ),
        (
            vec!["validate", "--from", "claude-code", &lines],
            vec![
                "在顶层：用 `--from claude-code` 读取（Claude Code 会话（JSON Lines）），\
                 其中没有模型回答过的提问；它是 2 行 JSON，第一行是对象，键为 `a`",
            ],
        ),
        (
            vec!["validate", "parris"],
            vec!["既不是内置记录，也不是文件", "你是不是想打开 `paris`？"],
        ),
        (
            vec!["validate", cut],
            vec!["不是有效的 JSON", "（第 1 行，第 13 列）"],
        ),
        (
            vec!["export", "paris", "-o", cut],
            vec!["cut-zh.json 已存在；加上 --force 才会替换它"],
        ),
        (
            vec!["--prices", cut, "list"],
            vec!["cut-zh.json 不是价格表：应为一个 JSON 对象"],
        ),
        (
            vec!["--max-size", "4", "run", cut],
            vec!["超过了 loopstep 读取的上限"],
        ),
        (
            vec!["validate", &unknown],
            vec![
                "不属于 loopstep 能读的任何格式（loopstep 记录文件、对话（messages 列表）",
                "最接近的是 智能体轨迹（SWE-agent、mini-swe-agent）（共有 `history`",
            ],
        ),
    ] {
        let out = Command::cargo_bin("loopstep")
            .unwrap()
            .args([&["--lang", "zh"][..], &args].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        for words in expected {
            assert!(err.contains(words), "{words} in {err}");
        }
    }
    // What the system would not do (exit 1) says so too, its cause after it.
    for (args, expected) in [
        (
            vec!["play", "paris"],
            "屏幕界面需要交互式终端；要输出纯文本，请用 `loopstep run paris`",
        ),
        (
            vec!["export", "paris", "-o", "/dev/full", "--format", "markdown"],
            "无法写入 /dev/full：",
        ),
    ] {
        let out = Command::cargo_bin("loopstep")
            .unwrap()
            .args([&["--lang", "zh"][..], &args].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expected), "{expected} in {err}");
    }
    // English stays as it was.
    let out = Command::cargo_bin("loopstep")
        .unwrap()
        .args(["--lang", "en", "validate", "parris"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("is neither a built-in run nor a file. Did you mean `paris`?"),
        "{err}"
    );
}

#[test]
fn the_first_request_is_sent_and_later_ones_resent_in_either_language() {
    use loopstep::dialect::Dialect;
    use loopstep::narrate::Say;
    let say = |lang| Say::new(lang, Dialect::AnthropicMessages);
    assert_eq!(
        say(Lang::En).detail_request(1, 1, 30),
        "request #1: all 1 message (30 chars), sent in full"
    );
    assert_eq!(
        say(Lang::En).detail_request(2, 3, 120),
        "request #2: all 3 messages (120 chars), resent in full"
    );
    assert_eq!(
        say(Lang::Zh).detail_request(1, 1, 30),
        "第 1 次请求：发送 1 条消息（30 字符）"
    );
    assert_eq!(
        say(Lang::Zh).detail_request(2, 3, 120),
        "第 2 次请求：重发 3 条消息（120 字符）"
    );
}

#[test]
fn a_call_s_caption_says_the_model_reads_the_whole_conversation_every_time() {
    use loopstep::dialect::Dialect;
    use loopstep::narrate::Say;
    for (dialect, en, zh) in [
        (
            Dialect::AnthropicMessages,
            "still has the model read all of it at every call",
            "模型每次调用仍要把它从头读一遍",
        ),
        (
            Dialect::OpenaiResponses,
            "the model reads the whole conversation at every call",
            "不论对话是否保存在服务端，模型每次调用都要把它从头读一遍",
        ),
    ] {
        let caption = Say::new(Lang::En, dialect).caption_call(2, 3);
        assert!(
            caption.contains("resends all 3 messages") && caption.contains(en),
            "{caption}"
        );
        let caption = Say::new(Lang::Zh, dialect).caption_call(2, 3);
        assert!(
            caption.contains("重新发送全部 3 条消息") && caption.contains(zh),
            "{caption}"
        );
    }
}

#[test]
fn under_the_lesson_check_the_caption_says_what_the_production_check_does_instead() {
    // A pause is sent back and carried on; a cut-off reply halts.
    for (run, lang, says) in [
        (
            "pause-turn",
            Lang::En,
            "sends the conversation back as it is instead",
        ),
        (
            "pause-turn",
            Lang::Zh,
            "按 c 切换到生产循环：它会把对话原样发回，模型从暂停处接着做下去",
        ),
        (
            "max-tokens",
            Lang::En,
            "the production check halts here instead",
        ),
        (
            "max-tokens",
            Lang::Zh,
            "按 c 切换到生产循环：它会在这里中止",
        ),
    ] {
        let mut app = common::screen::app_in(lang, run);
        let terminal = common::screen::drive(&mut app, 120, 40, &["c", "End"]);
        let screen = common::screen::rows(terminal.backend().buffer()).join("");
        let screen: String = screen.split_whitespace().collect();
        let says: String = says.split_whitespace().collect();
        assert!(screen.contains(&says), "{run} {lang:?}: {says} in {screen}");
    }
}

#[test]
fn on_an_openai_run_the_lesson_check_says_whose_rule_it_is() {
    // Seed 001's own loop reads finish_reason; the simple rule is seed 000's.
    for (run, lang, says, whose) in [
        (
            "pending-tool-call",
            Lang::En,
            "This rule is the Messages lesson's",
            true,
        ),
        (
            "pending-tool-call",
            Lang::Zh,
            "这条规则来自 Messages API 那一课",
            true,
        ),
        (
            "pause-turn",
            Lang::En,
            "This rule is the Messages lesson's",
            false,
        ),
    ] {
        let mut app = common::screen::app_in(lang, run);
        let screen = common::screen::drive(&mut app, 100, 30, &["c", "Right", "Right"]);
        let text = common::screen::rows(screen.backend().buffer()).join(" ");
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(text.contains(says), whose, "{run} {lang:?}: {text}");
    }
}

#[test]
fn the_chinese_banner_leaves_the_loop_pane_room_for_every_turn() {
    // At 120×40 the eight-row glyphs would leave the turns so far one
    // row: the banner waits for a taller screen, as tall as it needs.
    let end = |height| {
        drive(&mut app_in(Lang::Zh, "aurora-run"), 120, height, &["End"])
            .backend()
            .to_string()
    };
    let at_40 = end(40);
    for turn in [" 0  tool_use", " 1  tool_use", " 2  end_turn"] {
        assert!(at_40.contains(turn), "{turn}: {at_40}");
    }
    assert!(!at_40.contains("▄▄▄▄▄▄▄▄▄▄▄▄"), "{at_40}");
    let at_46 = end(46);
    assert!(at_46.contains("▄▄▄▄▄▄▄▄▄▄▄▄"), "{at_46}");
    assert!(at_46.contains(" 2  end_turn"), "{at_46}");
}

#[test]
fn the_chinese_classroom_reads_without_a_stumble() {
    let run = |args: &[&str]| {
        let mut all = vec!["--lang", "zh", "run"];
        all.extend_from_slice(args);
        common::printed(&all)
    };
    // 结果 is the value returned; anything else is a 状态.
    let halted = run(&["refusal"]);
    assert!(halted.contains("状态：中止"), "{halted}");
    assert!(!halted.contains("结果：中止"), "{halted}");
    // Chat Completions has no error flag: the error is in the text.
    let failed = run(&["tool-failure", "--dialect", "openai-chat"]);
    assert!(!failed.contains("用 结果文本 标明"), "{failed}");
    // The turn column stays apart from the phase at any width; the cap
    // ends the loop after its hundredth turn, turn 99.
    let capped = run(&["always-search", "--mistake", "no-budget"]);
    assert!(capped.contains("第 99 轮  中止"), "{capped}");
    let budget = run(&["aurora-run-max-turns-2"]);
    assert!(budget.contains("2 轮已用完"), "{budget}");
    // The gauge names the seed's 轮次上限; the budget caption says it is reached.
    let screen = drive(
        &mut app_in(Lang::Zh, "aurora-run-max-turns-2"),
        100,
        30,
        &["End"],
    )
    .backend()
    .to_string();
    assert!(screen.contains("轮次上限 max_turns 2"), "{screen}");
    assert!(screen.contains("已达到轮次上限 max_turns = 2"), "{screen}");
}

#[test]
fn a_command_line_error_is_told_in_chinese_under_lang_zh() {
    let refused = |args: &[&str]| {
        let out = Command::cargo_bin("loopstep")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let zero = refused(&["--lang", "zh", "run", "aurora-run", "--max-turns", "0"]);
    assert!(
        zero.contains("--max-turns <N> 的值 '0' 无效：至少为 1"),
        "{zero}"
    );
    let mistake = refused(&["run", "aurora-run", "--mistake", "nope", "--lang=zh"]);
    assert!(
        mistake.contains("--mistake <NAME> 不接受值 'nope'"),
        "{mistake}"
    );
    assert!(mistake.contains("可选的值：drop-results、"), "{mistake}");
    // English stays clap's own.
    let en = refused(&["--lang", "en", "run", "aurora-run", "--max-turns", "0"]);
    assert!(
        en.contains("must be at least 1 (the loop needs one model call), got 0"),
        "{en}"
    );
}

#[test]
fn a_file_s_json_faults_are_told_in_chinese_under_lang_zh() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::cargo_bin("loopstep")
            .unwrap()
            .args([
                "--lang",
                "zh",
                "run",
                path.to_str().unwrap(),
                "--from",
                "native",
            ])
            .output()
            .unwrap();
        String::from_utf8(out.stderr).unwrap()
    };
    let cut = refused("cut.json", r#"{"version": 1, "id": "#);
    assert!(
        cut.contains("还没读到值，文件就结束了（文件是不是被截断了？）"),
        "{cut}"
    );
    let typed = refused("typed.json", r#"{"version": 1, "id": "x", "title": 3}"#);
    assert!(typed.contains("类型不对：整数 `3`"), "{typed}");
    assert!(!typed.contains("invalid type"), "{typed}");
}
