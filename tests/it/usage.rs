//! Tokens and the prompt cache, per call, as the recordings report them;
//! what they cost with a price list; an estimate, marked, where there are none.

use crate::common;
use crate::common::fixture;

use assert_cmd::Command;
use common::screen::{drive, same_in_both};
use loopstep::engine::{Event, Usage};
use loopstep::narrate::Lang;
use loopstep::transcript::open;
use loopstep::tui::{App, Settings};

/// The recorded usage of each call of a fixture's first run.
fn usages(name: &str) -> Vec<Option<Usage>> {
    let source = open(&fixture(&format!("real/{name}")), None).unwrap();
    let run = &source.runs[0];
    run.replay(run.default_config())
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Call { usage, .. } => Some(*usage),
            _ => None,
        })
        .collect()
}

#[test]
fn cached_tokens_are_read_apart_from_the_rest_in_every_api() {
    // OpenAI Chat's shape (DeepSeek): 563 prompt tokens, 512 of them cached.
    let deepseek = usages("deepseek-tool-calls-with-thinking.exchanges.json");
    assert_eq!(
        deepseek[0],
        Some(Usage {
            input_tokens: 51,
            output_tokens: 116,
            cache_read_tokens: 512,
            cache_write_tokens: 0,
        })
    );
    // Anthropic's, through OpenHands' saved responses: the second call
    // reads the first's whole input back from the cache.
    let openhands = usages("openhands-rename.json");
    assert_eq!(openhands[0].unwrap().cache_read_tokens, 0);
    assert_eq!(openhands[1].unwrap().cache_read_tokens, 3471);
    assert_eq!(openhands[1].unwrap().all_input(), 3471 + 145);
}

#[test]
fn the_second_call_of_a_cached_run_says_the_history_came_from_the_cache() {
    let source = open(&fixture("real/openhands-rename.json"), None).unwrap();
    let runs = same_in_both(source.runs);
    let mut app = App::new(&runs, 0, Settings::default());
    drive(&mut app, 100, 30, &["}", "}"]);
    let text = drive(&mut app, 100, 30, &[]).backend().to_string();
    assert!(text.contains("read 3471 of its 3616"), "{text}");
    assert!(
        text.contains("recorded: 3616 tokens in (3471 cached), 111 out"),
        "{text}"
    );
    // The first call read nothing from the cache, and says nothing of it.
    drive(&mut app, 100, 30, &["{"]);
    let first = drive(&mut app, 100, 30, &[]).backend().to_string();
    assert!(!first.contains("from its prompt cache"), "{first}");
}

#[test]
fn without_usage_the_tokens_are_an_estimate_and_say_so() {
    let mut app = common::screen::app_in(Lang::En, "paris");
    let text = drive(&mut app, 80, 24, &["End", "x"]).backend().to_string();
    // paris records no usage: chars, and tokens marked as estimated.
    assert!(
        text.contains("chars ≈") && text.contains("tokens est."),
        "{text}"
    );
}

fn loopstep() -> Command {
    Command::cargo_bin("loopstep").unwrap()
}

#[test]
fn a_price_list_adds_what_the_calls_cost() {
    let prices = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("prices.json");
    std::fs::write(
        &prices,
        r#"{"claude-3-5-sonnet-20241022": {"input": 3, "output": 15, "cache_read": 0.3}}"#,
    )
    .unwrap();
    let prices = prices.to_str().unwrap();
    let rename = fixture("real/openhands-rename.json");
    let out = loopstep()
        .args(["run", &rename, "--prices", prices])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // 3949 × $3 + 358 × $15 + 10879 × $0.30, per million tokens.
    assert!(
        text.contains("recorded: 14828 tokens in (10879 cached), 358 out · $0.0205"),
        "{text}"
    );
    let out = loopstep()
        .args(["run", &rename, "--prices", prices, "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((json["cost_usd"].as_f64().unwrap() - 0.0204807).abs() < 1e-9);
    assert_eq!(json["recorded_usage"]["cache_read_tokens"], 10879);
    // No price for the model: no cost, the tokens still.
    let out = loopstep()
        .args(["run", "aurora-run", "--prices", prices])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("recorded: 1631 tokens in") && !text.contains('$'),
        "{text}"
    );
    let warning = String::from_utf8_lossy(&out.stderr);
    assert!(
        warning.contains("has no price for the model claude-opus-5-5"),
        "{warning}"
    );
    // A list that is not one: exit 2, saying where.
    let out = loopstep()
        .args(["run", "paris", "--prices", "Cargo.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Cargo.toml is not a price list"));
}
