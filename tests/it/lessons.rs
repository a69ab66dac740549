//! Every built-in run under both checks, and every common mistake, with the
//! outcome, model calls and tool calls the lessons describe.

use crate::common;
use loopstep::engine::{
    CheckPolicy, Config, Event, Mistake, Outcome, RequestRule, SAFETY_CAP, StopCause, Trace,
};
use loopstep::transcript::{
    BUILTIN_NAMES, Evidence, Miss, Note, Transcript, Verification, builtin,
};

fn run(name: &str) -> Transcript {
    builtin(name).unwrap().unwrap()
}

fn replay(name: &str, check: CheckPolicy, mistake: Option<Mistake>) -> Trace {
    let t = run(name);
    t.replay(Config {
        check,
        mistake,
        ..t.default_config()
    })
}

/// (outcome label, result, model calls, tool calls)
type Expected = (&'static str, Option<&'static str>, usize, usize);

fn summary(trace: &Trace) -> (String, Option<String>, usize, usize) {
    (
        trace.outcome().unwrap().label().to_owned(),
        trace.result().map(str::to_owned),
        trace.model_calls(),
        trace.tool_calls(),
    )
}

fn assert_run(name: &str, check: CheckPolicy, expected: Expected) {
    let got = summary(&replay(name, check, None));
    let want = (
        expected.0.to_owned(),
        expected.1.map(str::to_owned),
        expected.2,
        expected.3,
    );
    assert_eq!(got, want, "{name} with the {check:?} check");
}

const ANSWER: &str = "answered";

#[test]
fn every_built_in_run_under_both_checks() {
    use CheckPolicy::{Lesson, Production};
    let same_under_both: [(&str, Expected); 16] = [
        ("aurora-run", (ANSWER, Some("1974"), 3, 2)),
        ("paris", (ANSWER, Some("Paris"), 1, 0)),
        ("aurora-run-max-turns-2", ("budget_exhausted", None, 2, 2)),
        ("search-miss", (ANSWER, Some("1974"), 4, 3)),
        (
            "parallel-tools",
            (
                ANSWER,
                Some("Henrik Dahl, born in 1951; Mara Voss was born in 1974."),
                2,
                2,
            ),
        ),
        ("always-search", ("budget_exhausted", None, 4, 4)),
        ("tool-failure", (ANSWER, Some("1974"), 4, 3)),
        ("tool-failure-raises", ("stopped", None, 1, 1)),
        ("tool-timeout", (ANSWER, Some("1974"), 4, 3)),
        ("streamed-reply", (ANSWER, Some("1974"), 3, 2)),
        // The retry is inside call #2: still 3 calls.
        ("retried-call", (ANSWER, Some("1974"), 3, 2)),
        // The summary left the novelist out: one search, then the answer.
        ("compacted-context", (ANSWER, Some("1951"), 2, 1)),
        ("malformed-request", (ANSWER, Some("1974"), 4, 4)),
        (
            "todays-date",
            (ANSWER, Some("Today is 8 October 2026."), 2, 1),
        ),
        (
            "answered-not-verified",
            (
                ANSWER,
                Some("Done: the summary is saved in notes.md."),
                2,
                1,
            ),
        ),
        // The harness's goal check pushes back once: 1 tool round + 1
        // push-back + 1 = 3 calls.
        (
            "not-done-yet",
            (ANSWER, Some("Saved the summary to notes.md."), 3, 1),
        ),
    ];
    for (name, expected) in same_under_both {
        assert_run(name, Production, expected);
        assert_run(name, Lesson, expected);
    }
    // The lesson's simple check takes every other stop reason for the answer.
    let diverging: [(&str, Expected, Expected); 4] = [
        (
            "max-tokens",
            ("stopped", None, 1, 0),
            (ANSWER, Some("I'll look the film up first and then"), 1, 0),
        ),
        (
            "refusal",
            ("stopped", None, 1, 0),
            (
                ANSWER,
                Some("I can't help with getting into someone else's home."),
                1,
                0,
            ),
        ),
        (
            "pending-tool-call",
            ("stopped", None, 1, 0),
            (ANSWER, Some("Let me look at the calendar."), 1, 0),
        ),
        (
            "pause-turn",
            (ANSWER, Some("1974"), 2, 0),
            (
                ANSWER,
                Some("I'll find who directed the film first, then when she was born."),
                1,
                0,
            ),
        ),
    ];
    for (name, production, lesson) in diverging {
        assert_run(name, Production, production);
        assert_run(name, Lesson, lesson);
    }
    assert_eq!(
        same_under_both.len() + diverging.len(),
        BUILTIN_NAMES.len(),
        "every built-in run is covered"
    );
}

#[test]
fn the_edge_cases_show_what_they_promise() {
    let production = |name| replay(name, CheckPolicy::Production, None);

    let miss = production("search-miss");
    assert!(miss.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { output, .. } if &*output.content == "No matching page found." && !output.is_error)));

    let parallel = production("parallel-tools");
    assert!(
        parallel.steps.iter().any(|s| s.event
            == Event::Append {
                results: 2,
                appended: 1
            }),
        "both results in one message"
    );

    let failure = production("tool-failure");
    assert!(failure.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { output, .. } if output.is_error && output.content.contains("503"))));
    let raised = production("tool-failure-raises");
    assert!(
        matches!(raised.outcome(), Some(Outcome::Stopped(StopCause::ToolErrorRaised { name, .. })) if name == "search")
    );

    let malformed = production("malformed-request");
    let errors: Vec<&str> = malformed
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Dispatch { output, .. } if output.is_error => Some(&*output.content),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2);
    assert!(errors[0].contains("Unknown tool `web_search`"));
    assert!(errors[1].contains("Could not parse"));

    let cut = production("max-tokens");
    assert_eq!(
        cut.outcome(),
        Some(Outcome::Stopped(&StopCause::TruncatedCall))
    );

    // The API failed call #2 once (HTTP 529, overloaded_error: the
    // errors page, https://docs.claude.com/en/api/errors), and the SDK sent
    // it again (anthropic-sdk-python's README, "Retries": 5xx errors are
    // retried twice by default): a fact of that call, not a turn.
    let retried = run("retried-call");
    assert!(retried.notes.iter().any(|n| matches!(n,
        Note::Retried { call: 2, attempts: 1, went_through: true, error } if error.contains("529"))));
    let calls = |t: &Trace| {
        t.steps
            .iter()
            .filter(|s| matches!(s.event, Event::Call { .. }))
            .count()
    };
    assert_eq!(
        calls(&production("retried-call")),
        calls(&production("aurora-run"))
    );

    let date = production("todays-date");
    assert!(date.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { name, output, .. } if name == "get_today" && &*output.content == "2026-10-08")));

    let t = run("answered-not-verified");
    let trace = t.replay(t.default_config());
    match t.verify(trace.view()) {
        Verification::NotVerified(misses) => assert!(matches!(
            &misses[0],
            Miss::ToolError { name, error, .. } if name == "save_file" && error.contains("Permission denied")
        )),
        other => panic!("expected not verified, got {other:?}"),
    }
    // "verified" always names its evidence.
    let aurora = run("aurora-run");
    match aurora.verify(aurora.replay(aurora.default_config()).view()) {
        Verification::Verified(evidence) => assert_eq!(
            evidence,
            [Evidence::Answer("1974".into()), Evidence::ModelCalls(3)]
        ),
        other => panic!("expected verified, got {other:?}"),
    }
}

fn rejected_ids(trace: &Trace) -> Vec<String> {
    match trace.outcome() {
        Some(Outcome::Rejected(rejection)) => rejection.ids.clone(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn dropping_results_or_forgetting_the_request_is_rejected_with_the_ids() {
    let dropped = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::DropResults),
    );
    assert_eq!(rejected_ids(&dropped), ["toolu_01AuroraFilm"]);
    assert!(
        matches!(dropped.outcome(), Some(Outcome::Rejected(r)) if r.rule == RequestRule::UnansweredCalls)
    );
    assert_eq!(dropped.model_calls(), 1, "the second call is refused");

    let forgot = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::ForgetRequest),
    );
    assert_eq!(rejected_ids(&forgot), ["toolu_01AuroraFilm"]);
    assert!(
        matches!(forgot.outcome(), Some(Outcome::Rejected(r)) if r.rule == RequestRule::ResultsWithoutCall)
    );
}

#[test]
fn results_appended_before_the_request_are_rejected_by_both_apis() {
    // In Chat Completions the system prompt is messages[0], the question 1.
    for (name, results_at) in [("aurora-run", 1), ("todays-date", 2)] {
        let wrong = replay(name, CheckPolicy::Production, Some(Mistake::WrongOrder));
        match wrong.outcome() {
            Some(Outcome::Rejected(r)) => {
                assert_eq!(r.rule, RequestRule::ResultsWithoutCall, "{name}");
                assert_eq!(
                    r.message_index, results_at,
                    "{name}: the results sit before the request"
                );
            }
            other => panic!("{name}: expected a rejection, got {other:?}"),
        }
        assert_eq!(wrong.model_calls(), 1, "{name}");
        assert!(wrong.mistake_shown);
    }
}

/// The Messages API reference: "Consecutive `user` or `assistant` turns in
/// your request will be combined into a single turn."
/// (https://platform.claude.com/docs/en/api/messages/create) So results
/// split over two user messages are accepted; the tool-use guide still marks
/// the form "❌ Wrong", as it "reduces parallel tool use".
#[test]
fn parallel_results_sent_one_by_one_are_combined_by_the_messages_api() {
    let split = replay(
        "parallel-tools",
        CheckPolicy::Production,
        Some(Mistake::SplitResults),
    );
    let correct = replay("parallel-tools", CheckPolicy::Production, None);
    assert_eq!(split.result(), correct.result(), "accepted, same answer");
    assert!(split.mistake_shown);
    assert_eq!(split.messages.len(), correct.messages.len() + 1);
    // With one tool per reply there is nothing to split.
    let single = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::SplitResults),
    );
    assert_eq!(single.result(), Some("1974"));
    assert!(!single.mistake_shown);
}

#[test]
fn an_openai_run_already_sends_one_result_message_per_call() {
    let correct = replay("todays-date", CheckPolicy::Production, None);
    let split = replay(
        "todays-date",
        CheckPolicy::Production,
        Some(Mistake::SplitResults),
    );
    assert_eq!(
        split,
        Trace {
            config: split.config,
            ..correct
        }
    );
    assert!(
        !split.mistake_shown,
        "nothing to show: it is the API's own form"
    );
}

#[test]
fn stopping_on_text_ends_early_with_a_tool_request_pending() {
    let early = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::StopOnText),
    );
    assert_eq!(early.model_calls(), 1);
    assert_eq!(early.tool_calls(), 0);
    assert_eq!(
        early.result(),
        Some("I need the film's director first, so I'll look the film up.")
    );
    assert!(
        early.messages[1].tool_calls().next().is_some(),
        "the request was pending"
    );
}

#[test]
fn steps_written_for_the_task_end_it_where_the_code_says_not_the_model() {
    // One round of tools, then the next reply is the answer: aurora-run's
    // second reply still asks for Mara Voss's page.
    let planned = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::HardCodedPlan),
    );
    assert_eq!((planned.model_calls(), planned.tool_calls()), (2, 1));
    assert!(
        planned
            .result()
            .unwrap()
            .starts_with("Mara Voss directed the film.")
    );
    assert!(
        planned.messages[3].tool_calls().any(|c| c.name == "search"),
        "the model still asked for a search"
    );
    // A run whose model needs one round fits the plan, by luck.
    let fits = replay(
        "todays-date",
        CheckPolicy::Production,
        Some(Mistake::HardCodedPlan),
    );
    assert!(!fits.mistake_shown);
}

#[test]
fn without_a_budget_only_the_safety_cap_stops_a_model_that_keeps_asking() {
    let capped = replay(
        "always-search",
        CheckPolicy::Production,
        Some(Mistake::NoBudget),
    );
    assert_eq!(capped.model_calls(), SAFETY_CAP as usize);
    assert_eq!(
        capped.outcome(),
        Some(Outcome::Stopped(&StopCause::SafetyCap {
            calls: SAFETY_CAP
        }))
    );
    // Fresh ids each time: the API never sees a repeated tool_use id.
    assert!(!matches!(capped.outcome(), Some(Outcome::Rejected(_))));
}

#[test]
fn each_mistake_shows_itself_on_the_run_made_for_it() {
    let shows = [
        (Mistake::DropResults, "aurora-run"),
        (Mistake::ForgetRequest, "aurora-run"),
        (Mistake::WrongOrder, "aurora-run"),
        (Mistake::SplitResults, "parallel-tools"),
        (Mistake::StopOnText, "aurora-run"),
        (Mistake::NoBudget, "always-search"),
        (Mistake::DropOneResult, "parallel-tools"),
        (Mistake::DispatchBeforeCheck, "max-tokens"),
        (Mistake::HardCodedPlan, "aurora-run"),
    ];
    for (mistake, name) in shows {
        let mistaken = replay(name, CheckPolicy::Production, Some(mistake));
        assert!(mistaken.mistake_shown, "{} on {name}", mistake.name());
        // Every mistake but the one the API forgives changes how the run ends.
        if mistake != Mistake::SplitResults {
            let correct = replay(name, CheckPolicy::Production, None);
            assert_ne!(summary(&mistaken), summary(&correct), "{}", mistake.name());
        }
        // Paris asks for no tool: no mistake can show there.
        let paris = replay("paris", CheckPolicy::Production, Some(mistake));
        assert!(!paris.mistake_shown, "{} on paris", mistake.name());
    }
    assert_eq!(
        shows.map(|(m, _)| m),
        Mistake::ALL,
        "every mistake is shown"
    );
    assert_eq!(Mistake::cycle(None), Some(Mistake::DropResults));
    assert_eq!(
        Mistake::cycle(Some(Mistake::HardCodedPlan)),
        None,
        "after the last mistake: the correct loop"
    );
}

#[test]
fn one_lost_result_is_rejected_with_its_id_and_a_cut_off_call_runs_when_dispatch_comes_first() {
    // parallel-tools asks for two searches in one reply (toolu_p1, toolu_p2):
    // losing the last result leaves toolu_p2 unanswered.
    let lost = replay(
        "parallel-tools",
        CheckPolicy::Production,
        Some(Mistake::DropOneResult),
    );
    assert_eq!(rejected_ids(&lost), ["toolu_p2"]);
    // max-tokens is cut off inside its tool request: dispatching before the
    // check runs the half-written call, which the production check halts on.
    let first = replay(
        "max-tokens",
        CheckPolicy::Production,
        Some(Mistake::DispatchBeforeCheck),
    );
    let ran = first
        .steps
        .iter()
        .any(|s| matches!(&s.event, Event::Dispatch { output, .. } if output.is_error));
    assert!(ran, "the cut-off call ran and failed to parse");
    let correct = replay("max-tokens", CheckPolicy::Production, None);
    assert_eq!(correct.tool_calls(), 0);
    // On a final answer nothing breaks: aurora-run ends as it should.
    let fine = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::DispatchBeforeCheck),
    );
    assert!(!fine.mistake_shown);
    assert_eq!(fine.result(), Some("1974"));
}

#[test]
fn no_tool_is_no_evidence_for_a_goal_that_needs_tools() {
    let t = run("answered-not-verified");
    let early = t.replay(Config {
        mistake: Some(Mistake::StopOnText),
        ..t.default_config()
    });
    assert_eq!(early.tool_calls(), 0);
    assert_eq!(
        t.verify(early.view()),
        Verification::NotVerified(vec![Miss::NoToolRan])
    );
}

#[test]
fn the_aurora_run_s_point_reaches_every_handout_in_both_languages() {
    // The remark at call #2: 1951 is the novelist's year, a distractor.
    for (lang, distractor) in [("en", "a distractor"), ("zh", "干扰值")] {
        let lang_flag = ["--lang", lang];
        let text = common::printed(&[&lang_flag[..], &["run", "aurora-run"]].concat());
        let json =
            common::printed(&[&lang_flag[..], &["run", "aurora-run", "--format", "json"]].concat());
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let remark = json["remarks"][0]["text"].as_str().unwrap().to_owned();
        assert_eq!(json["remarks"][0]["call"], 2);
        for format in ["md", "html"] {
            let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("aurora-{lang}.{format}"));
            let out = out.to_str().unwrap();
            common::printed(
                &[
                    &lang_flag[..],
                    &["export", "aurora-run", "-o", out, "--force"],
                ]
                .concat(),
            );
            let handout = std::fs::read_to_string(out).unwrap();
            assert!(
                handout.contains("1951") && handout.contains(distractor),
                "{lang} {format}"
            );
        }
        for words in [&text, &remark] {
            assert!(
                words.contains("1951") && words.contains(distractor),
                "{lang}: {words}"
            );
        }
    }
}

#[test]
fn a_tool_s_success_report_is_not_verification_of_the_work() {
    // not-done-yet saves a file: the model's "Saved" and the save tool's
    // success are all the run has; the answer to aurora-run is the work.
    for (run, label, words) in [
        (
            "not-done-yet",
            "tool_reported",
            "reported by the tools, the work itself unchecked",
        ),
        ("aurora-run", "verified", "goal check: verified"),
    ] {
        let json = common::printed(&["run", run, "--format", "json"]);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["goal_check"], label, "{run}");
        assert!(common::printed(&["run", run]).contains(words), "{run}");
    }
    let zh = common::printed(&["--lang", "zh", "run", "not-done-yet"]);
    assert!(zh.contains("仅有工具报告成功，产物本身未核实"), "{zh}");
}

#[test]
fn the_react_lens_names_every_step_as_thought_action_observation_or_finish() {
    // Seed 001's ReAct words: every run has all four. The Action is the
    // model's, told with its Thought at the call; the Observation is the
    // result the loop sends back.
    for (lang, words) in [
        (
            "en",
            [
                "Thought: I need the film",
                "so I'll look the film up. · Action: search {",
                "Observation: search → Mara Voss",
                "Finish: 1974",
            ],
        ),
        (
            "zh",
            [
                "思考：",
                " · 行动：search {",
                "观察：search → ",
                "完成：1974",
            ],
        ),
    ] {
        let text = common::printed(&["--lang", lang, "run", "aurora-run", "--lens", "react"]);
        for word in words {
            assert!(text.contains(word), "{lang}: {word} in {text}");
        }
        let plain = common::printed(&["--lang", lang, "run", "aurora-run"]);
        assert!(!plain.contains(words[0]), "the lens is off by default");
        for format in ["md", "html"] {
            let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("react-{lang}.{format}"));
            let out = out.to_str().unwrap();
            common::printed(&[
                "--lang",
                lang,
                "export",
                "aurora-run",
                "--lens",
                "react",
                "-o",
                out,
                "--force",
            ]);
            let handout = std::fs::read_to_string(out).unwrap();
            assert!(
                handout.contains(words[0]) && handout.contains(words[3]),
                "{lang} {format}"
            );
        }
    }
    // On the screen, R turns it on and off.
    let mut app = common::screen::app_in(loopstep::narrate::Lang::En, "aurora-run");
    let on = common::screen::drive(&mut app, 100, 30, &["R", "Right"]);
    let on = common::screen::rows(on.backend().buffer()).join("\n");
    assert!(
        on.contains("Thought: I need the film's director first"),
        "{on}"
    );
    let off = common::screen::drive(&mut app, 100, 30, &["R"]);
    let off = common::screen::rows(off.backend().buffer()).join("\n");
    assert!(!off.contains("Thought:"), "{off}");
}

#[test]
fn dispatching_before_the_check_is_told_as_a_cut_off_or_a_pending_request() {
    for (run, says) in [
        ("max-tokens", "The reply was cut off"),
        ("pending-tool-call", "the request was left pending"),
    ] {
        let mut app = common::screen::app_in(loopstep::narrate::Lang::En, run);
        let keys = ["m", "m", "m", "m", "m", "m", "m", "m", "Right", "Right"];
        let screen = common::screen::drive(&mut app, 100, 30, &keys);
        let text = common::screen::rows(screen.backend().buffer()).join(" ");
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("MISTAKE: dispatch-before-check"),
            "{run}: {text}"
        );
        assert!(text.contains(says), "{run}: {says} in {text}");
    }
}
