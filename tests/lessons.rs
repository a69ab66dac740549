//! Every built-in run under both checks, and every common mistake, with the
//! outcome, model calls and tool calls the lessons describe.

use loopstep::engine::{CheckPolicy, Config, Event, Mistake, Outcome, SAFETY_CAP, Trace};
use loopstep::transcript::{BUILTIN_NAMES, Transcript, Verification, builtin};

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
    let same_under_both: [(&str, Expected); 11] = [
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
    ];
    for (name, expected) in same_under_both {
        assert_run(name, Production, expected);
        assert_run(name, Lesson, expected);
    }
    // The lesson's simple check takes every other stop reason for the answer.
    let diverging: [(&str, Expected, Expected); 3] = [
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
            "pause-turn",
            (ANSWER, Some("1974"), 2, 0),
            (
                ANSWER,
                Some("Searching the film archive; this is taking a while."),
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
        Event::Dispatch { output, .. } if output.content == "No matching page found." && !output.is_error)));

    let parallel = production("parallel-tools");
    assert!(
        parallel.steps.iter().any(|s| s.event
            == Event::Append {
                results: 2,
                messages: 1
            }),
        "both results in one message"
    );

    let failure = production("tool-failure");
    assert!(failure.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { output, .. } if output.is_error && output.content.contains("503"))));
    let raised = production("tool-failure-raises");
    assert!(
        matches!(raised.outcome(), Some(Outcome::Stopped(r)) if r.contains("raised the error to its caller"))
    );

    let malformed = production("malformed-request");
    let errors: Vec<&str> = malformed
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Dispatch { output, .. } if output.is_error => Some(output.content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 2);
    assert!(errors[0].contains("Unknown tool `web_search`"));
    assert!(errors[1].contains("Could not parse"));

    let cut = production("max-tokens");
    assert!(matches!(cut.outcome(), Some(Outcome::Stopped(r)) if r.contains("not executed")));

    let date = production("todays-date");
    assert!(date.steps.iter().any(|s| matches!(&s.event,
        Event::Dispatch { name, output, .. } if name == "get_today" && output.content == "2026-10-08")));

    let t = run("answered-not-verified");
    let trace = t.replay(t.default_config());
    match t.verify(&trace) {
        Verification::NotVerified(misses) => {
            assert!(misses[0].contains("save_file") && misses[0].contains("Permission denied"))
        }
        other => panic!("expected not verified, got {other:?}"),
    }
    let aurora = run("aurora-run");
    assert_eq!(
        aurora.verify(&aurora.replay(aurora.default_config())),
        Verification::Verified
    );
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
        matches!(dropped.outcome(), Some(Outcome::Rejected(r)) if r.problem.contains("no tool_result"))
    );
    assert_eq!(dropped.model_calls(), 1, "the second call is refused");

    let forgot = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::ForgetRequest),
    );
    assert_eq!(rejected_ids(&forgot), ["toolu_01AuroraFilm"]);
    assert!(
        matches!(forgot.outcome(), Some(Outcome::Rejected(r)) if r.problem.contains("answer no tool_use"))
    );
}

#[test]
fn parallel_results_sent_one_by_one_are_rejected() {
    let split = replay(
        "parallel-tools",
        CheckPolicy::Production,
        Some(Mistake::SplitResults),
    );
    assert_eq!(rejected_ids(&split), ["toolu_p2"]);
    // With one tool per reply there is nothing to split, and nothing breaks.
    let single = replay(
        "aurora-run",
        CheckPolicy::Production,
        Some(Mistake::SplitResults),
    );
    assert_eq!(single.result(), Some("1974"));
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
fn without_a_budget_only_the_safety_cap_stops_a_model_that_keeps_asking() {
    let capped = replay(
        "always-search",
        CheckPolicy::Production,
        Some(Mistake::NoBudget),
    );
    assert_eq!(capped.model_calls(), SAFETY_CAP as usize);
    assert!(matches!(capped.outcome(), Some(Outcome::Stopped(r)) if r.contains("safety cap")));
    // Fresh ids each time: the API never sees a repeated tool_use id.
    assert!(!matches!(capped.outcome(), Some(Outcome::Rejected(_))));
}

#[test]
fn each_mistake_changes_the_outcome_of_the_run_that_shows_it() {
    let shows = [
        (Mistake::DropResults, "aurora-run"),
        (Mistake::ForgetRequest, "aurora-run"),
        (Mistake::SplitResults, "parallel-tools"),
        (Mistake::StopOnText, "aurora-run"),
        (Mistake::NoBudget, "always-search"),
    ];
    for (mistake, name) in shows {
        let correct = replay(name, CheckPolicy::Production, None);
        let mistaken = replay(name, CheckPolicy::Production, Some(mistake));
        assert_ne!(
            summary(&mistaken),
            summary(&correct),
            "{} should change {name}",
            mistake.name()
        );
    }
    assert_eq!(
        shows.map(|(m, _)| m),
        Mistake::ALL,
        "every mistake is shown"
    );
    assert_eq!(Mistake::cycle(None), Some(Mistake::DropResults));
    assert_eq!(
        Mistake::cycle(Some(Mistake::NoBudget)),
        None,
        "after the last mistake: the correct loop"
    );
}
