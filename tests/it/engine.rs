//! The loop's behaviour, case by case, as the lessons describe it.

use crate::common;

use std::num::NonZeroU32;

use common::{asks, asks_with_stop, dispatched, says, search_doc, search_run};
use loopstep::dialect::Dialect;
use loopstep::engine::{
    Block, CheckPolicy, Config, Conversation, Event, Message, Outcome, Phase, ReplayTools, Reply,
    RequestRule, Role, Run, ScriptedModel, StopCause, Trace,
};
use loopstep::narrate::{Lang, Say};
use loopstep::transcript::{Transcript, builtin};
use serde_json::json;

fn turns(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap()
}

fn replay_builtin(name: &str, max_turns: Option<u32>) -> Trace {
    let t = builtin(name).unwrap().unwrap();
    let mut config = t.default_config();
    if let Some(n) = max_turns {
        config.max_turns = turns(n);
    }
    t.replay(config)
}

fn phases(trace: &Trace) -> Vec<(u32, &'static str)> {
    trace
        .steps
        .iter()
        .map(|s| (s.turn, s.event.phase().as_str()))
        .collect()
}

#[test]
fn aurora_run_answers_1974_after_two_searches_and_three_calls() {
    let trace = replay_builtin("aurora-run", None);
    assert_eq!(trace.result(), Some("1974"));
    assert_eq!(trace.model_calls(), 3);
    assert_eq!(trace.tool_calls(), 2);
    let queries: Vec<String> = dispatched(&trace)
        .into_iter()
        .map(|(name, input, _)| format!("{name} {}", input["query"]))
        .collect();
    assert_eq!(queries, ["search \"Aurora Run\"", "search \"Mara Voss\""]);
    assert_eq!(
        phases(&trace),
        [
            (0, "start"),
            (0, "call"),
            (0, "check"),
            (0, "dispatch"),
            (0, "append"),
            (1, "call"),
            (1, "check"),
            (1, "dispatch"),
            (1, "append"),
            (2, "call"),
            (2, "check"),
            (2, "answer"),
        ]
    );
}

#[test]
fn the_first_page_holds_the_distractor_and_the_second_the_answer() {
    let trace = replay_builtin("aurora-run", None);
    let outputs: Vec<&str> = dispatched(&trace)
        .into_iter()
        .map(|(_, _, output)| &*output.content)
        .collect();
    assert!(outputs[0].contains("1951") && outputs[0].contains("Mara Voss"));
    assert!(outputs[1].contains("1974") && outputs[1].contains("Norwegian film director"));
}

#[test]
fn every_call_resends_the_whole_growing_conversation() {
    let trace = replay_builtin("aurora-run", None);
    let sizes: Vec<(u32, usize, usize)> = trace
        .steps
        .iter()
        .filter_map(|s| match s.event {
            Event::Call { request, .. } => Some((request.number, request.messages, request.chars)),
            _ => None,
        })
        .collect();
    assert_eq!(
        sizes.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
        [(1, 1), (2, 3), (3, 5)]
    );
    assert!(sizes[0].2 < sizes[1].2 && sizes[1].2 < sizes[2].2);
}

#[test]
fn paris_answers_on_the_first_call_without_tools() {
    let trace = replay_builtin("paris", None);
    assert_eq!(trace.result(), Some("Paris"));
    assert_eq!((trace.model_calls(), trace.tool_calls()), (1, 0));
    assert_eq!(
        phases(&trace),
        [(0, "start"), (0, "call"), (0, "check"), (0, "answer")]
    );
}

#[test]
fn aurora_run_with_two_turns_returns_none_and_never_makes_the_third_call() {
    for trace in [
        replay_builtin("aurora-run-max-turns-2", None),
        replay_builtin("aurora-run", Some(2)),
    ] {
        assert_eq!(trace.outcome(), Some(Outcome::BudgetExhausted));
        assert_eq!(trace.result(), None);
        assert_eq!((trace.model_calls(), trace.tool_calls()), (2, 2));
        assert_eq!(
            trace.steps.last().unwrap().event,
            Event::BudgetExhausted { max_turns: 2 }
        );
        // Both results are in the conversation; the model never saw them all.
        assert_eq!(trace.messages.len(), 5);
    }
}

#[test]
fn three_turns_are_enough_for_aurora_run() {
    assert_eq!(replay_builtin("aurora-run", Some(3)).result(), Some("1974"));
    assert_eq!(replay_builtin("aurora-run", Some(1)).model_calls(), 1);
}

#[test]
fn a_model_that_always_searches_is_stopped_by_the_budget() {
    let replies = (0..20)
        .map(|i| asks(&[(&format!("t{i}"), "search", json!({"query": "Aurora Run"}))]))
        .collect::<Vec<_>>();
    for max_turns in [1, 4, 7] {
        let t = search_run(replies.clone(), max_turns);
        let trace = t.replay(t.default_config());
        assert_eq!(trace.outcome(), Some(Outcome::BudgetExhausted));
        assert_eq!(trace.model_calls(), max_turns as usize);
        assert_eq!(trace.tool_calls(), max_turns as usize);
    }
}

#[test]
fn parallel_requests_share_a_call_and_their_results_one_message() {
    let t = search_run(
        vec![
            asks(&[("a", "search", json!({"query": "Aurora Run"}))]),
            asks(&[
                ("b", "search", json!({"query": "Mara Voss"})),
                ("c", "search", json!({"query": "Aurora Run"})),
            ]),
            says("1974", "end_turn"),
        ],
        10,
    );
    let trace = t.replay(t.default_config());
    assert_eq!(trace.result(), Some("1974"));
    assert_eq!((trace.model_calls(), trace.tool_calls()), (3, 3));
    let turn1: Vec<&str> = phases(&trace)
        .into_iter()
        .filter(|(turn, _)| *turn == 1)
        .map(|(_, p)| p)
        .collect();
    assert_eq!(turn1, ["call", "check", "dispatch", "dispatch", "append"]);
    let appended = &trace.messages[4];
    assert_eq!(appended.role, Role::User);
    let ids: Vec<&str> = appended
        .content
        .iter()
        .map(|b| match b {
            Block::ToolResult { tool_use_id, .. } => tool_use_id.as_str(),
            other => panic!("unexpected block {other:?}"),
        })
        .collect();
    assert_eq!(ids, ["b", "c"]);
    let append = trace
        .steps
        .iter()
        .find(|s| matches!(s.event, Event::Append { .. }) && s.turn == 1)
        .unwrap();
    assert_eq!(
        append.event,
        Event::Append {
            results: 2,
            appended: 1
        }
    );
    // The step carries the conversation's length after the append.
    assert_eq!(append.messages, 5);
}

#[test]
fn a_search_miss_flows_back_like_a_hit() {
    let t = search_run(
        vec![
            asks(&[("a", "search", json!({"query": "Aurora Run (film)"}))]),
            asks(&[("b", "search", json!({"query": "Aurora Run"}))]),
            says("Mara Voss", "end_turn"),
        ],
        10,
    );
    let trace = t.replay(t.default_config());
    let outputs: Vec<_> = dispatched(&trace).into_iter().map(|d| d.2).collect();
    assert_eq!(&*outputs[0].content, "No matching page found.");
    assert!(!outputs[0].is_error);
    assert!(outputs[1].content.contains("Mara Voss"));
    assert_eq!(trace.result(), Some("Mara Voss"));
}

#[test]
fn an_unknown_tool_and_broken_input_get_error_results_the_model_can_read() {
    let t = search_run(
        vec![
            asks(&[
                ("a", "browse", json!({"url": "x"})),
                ("b", "search", json!("{\"query\": \"Aur")),
            ]),
            asks(&[("c", "search", json!({"query": "Aurora Run"}))]),
            says("done", "end_turn"),
        ],
        10,
    );
    let trace = t.replay(t.default_config());
    let results = &trace.messages[2].content;
    match (&results[0], &results[1]) {
        (
            Block::ToolResult {
                content: unknown,
                is_error: true,
                ..
            },
            Block::ToolResult {
                content: broken,
                is_error: true,
                ..
            },
        ) => {
            assert!(unknown.contains("Unknown tool `browse`"), "{unknown}");
            assert!(broken.contains("Could not parse"), "{broken}");
        }
        other => panic!("expected two error results, got {other:?}"),
    }
    assert_eq!(trace.result(), Some("done"));
}

#[test]
fn a_tool_request_cut_off_by_max_tokens_is_not_executed() {
    for stop in ["max_tokens", "length"] {
        let t = search_run(vec![asks_with_stop(stop, &[common_search("a")])], 10);
        let trace = t.replay(t.default_config());
        assert_eq!(trace.tool_calls(), 0, "{stop}");
        match trace.outcome() {
            Some(Outcome::Stopped(cause)) => assert_eq!(*cause, StopCause::TruncatedCall),
            other => panic!("{stop}: {other:?}"),
        }
    }
}

fn common_search(id: &str) -> (&str, &'static str, serde_json::Value) {
    (id, "search", json!({"query": "Aurora Run"}))
}

#[test]
fn each_other_stop_reason_ends_the_run_its_own_way() {
    let run = |dialect: Dialect, reply| {
        let mut t = search_run(vec![reply], 10);
        t.dialect = Some(dialect);
        t.replay(t.default_config())
    };
    use Dialect::{AnthropicMessages as A, OpenaiChat as O};
    assert_eq!(run(O, says("Paris", "stop")).result(), Some("Paris"));
    assert_eq!(
        run(A, says("Paris", "stop_sequence")).result(),
        Some("Paris")
    );
    for (dialect, stop, cause) in [
        (A, "refusal", StopCause::Refusal),
        (
            A,
            "model_context_window_exceeded",
            StopCause::ContextWindowExceeded,
        ),
        (O, "content_filter", StopCause::ContentFilter),
        (O, "insufficient_system_resource", StopCause::OutOfCapacity),
        (A, "brand_new", StopCause::UnknownStopReason),
        // Another API's word is not this API's stop reason.
        (A, "stop", StopCause::UnknownStopReason),
        (O, "end_turn", StopCause::UnknownStopReason),
    ] {
        // A word no API has is refused in a written transcript, but a
        // recording may carry one (a newer API's): set it past validation.
        let mut t = search_run(vec![says("partial", "end_turn")], 10);
        t.dialect = Some(dialect);
        t.replies[0].stop_reason = stop.into();
        let trace = t.replay(t.default_config());
        assert_eq!(trace.outcome(), Some(Outcome::Stopped(&cause)), "{stop}");
        assert_eq!(trace.result(), None);
    }
}

#[test]
fn a_reply_with_tool_calls_is_never_the_answer_under_the_production_check() {
    for (dialect, stop) in [
        (Dialect::AnthropicMessages, "end_turn"),
        (Dialect::OpenaiChat, "stop"),
        // In Responses a completed reply with calls asks for them; a filtered
        // one with calls still holds a pending request.
        (Dialect::OpenaiResponses, "content_filter"),
    ] {
        let mut t = search_run(vec![asks_with_stop(stop, &[common_search("a")])], 10);
        t.dialect = Some(dialect);
        let production = t.replay(t.default_config());
        assert_eq!(
            production.outcome(),
            Some(Outcome::Stopped(&StopCause::CallsWithoutToolStop)),
            "{dialect:?}"
        );
        assert_eq!(production.tool_calls(), 0, "its tools never run");
        let lesson = t.replay(Config {
            check: CheckPolicy::Lesson,
            ..t.default_config()
        });
        assert_eq!(lesson.result(), Some(""), "the lesson's check answers");
    }
}

#[test]
fn pause_turn_sends_the_conversation_back_and_costs_a_turn() {
    let t = search_run(
        vec![says("Working", "pause_turn"), says("1974", "end_turn")],
        10,
    );
    let trace = t.replay(t.default_config());
    assert_eq!(trace.result(), Some("1974"));
    assert_eq!(trace.model_calls(), 2);
    assert_eq!(
        phases(&trace),
        [
            (0, "start"),
            (0, "call"),
            (0, "check"),
            (1, "call"),
            (1, "check"),
            (1, "answer")
        ]
    );
    let mut one = t.default_config();
    one.max_turns = turns(1);
    assert_eq!(t.replay(one).outcome(), Some(Outcome::BudgetExhausted));
}

#[test]
fn the_lesson_check_returns_whatever_is_not_a_tool_request() {
    let t = search_run(
        vec![asks_with_stop("max_tokens", &[common_search("a")])],
        10,
    );
    let lesson = Config {
        check: CheckPolicy::Lesson,
        ..Config::new(turns(10), Dialect::AnthropicMessages)
    };
    let trace = t.replay(lesson);
    assert_eq!(trace.outcome(), Some(Outcome::Answered("")));
    assert_eq!(trace.tool_calls(), 0);
}

#[test]
fn a_recording_that_runs_out_ends_as_recording_ended() {
    let t = search_run(vec![asks(&[common_search("a")])], 10);
    let trace = t.replay(t.default_config());
    assert_eq!(trace.outcome(), Some(Outcome::RecordingEnded));
    assert_eq!(trace.result(), None);
    assert_eq!(trace.model_calls(), 1);
}

#[test]
fn the_scripted_model_rejects_a_request_that_breaks_the_api_rules() {
    // Two replies reuse one id; the second request then carries it twice.
    let reply = |id: &str| Reply {
        content: vec![Block::ToolUse {
            id: id.into(),
            name: "search".into(),
            input: json!({"query": "x"}),
        }],
        stop_reason: "tool_use".into(),
        ..Reply::default()
    };
    let replies = [reply("same"), reply("same")];
    let t = search_run(vec![says("unused", "end_turn")], 10);
    let words = Box::new(Say::new(Lang::En, Dialect::AnthropicMessages));
    let source = loopstep::engine::ToolsOf {
        definitions: &t.tools,
        environment: &t.environment,
        recorded: &t.results,
    };
    let tools = ReplayTools::new(source, words);
    let trace = Run::new(
        ScriptedModel::new(&replies[..], Dialect::AnthropicMessages),
        tools,
        Conversation::new(Default::default(), Message::user_text("q")),
        t.default_config(),
    )
    .into_trace();
    match trace.outcome() {
        Some(Outcome::Rejected(rejection)) => {
            assert_eq!(rejection.ids, ["same"]);
            assert_eq!(rejection.rule, RequestRule::DuplicateCallIds);
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    assert_eq!(trace.model_calls(), 2);
}

#[test]
fn every_run_opens_on_the_start_step_with_only_the_question() {
    for name in loopstep::transcript::BUILTIN_NAMES {
        let trace = replay_builtin(name, None);
        let first = &trace.steps[0];
        assert_eq!((first.turn, &first.event), (0, &Event::Start), "{name}");
        // Chat Completions sends the system prompt as messages[0].
        let run = loopstep::transcript::builtin(name).unwrap().unwrap();
        let lead = usize::from(run.system.is_some() && run.dialect() == Dialect::OpenaiChat);
        // A run that goes on from earlier turns (a compacted chat's
        // summary) opens with them too.
        let earlier = run.history.len();
        assert_eq!(
            first.messages,
            lead + earlier + 1,
            "{name}: only the question"
        );
        if lead == 1 {
            assert_eq!(trace.messages[0].role, loopstep::vocab::Role::System);
            assert_eq!(trace.messages[0].text(), run.system.unwrap());
        }
    }
}

#[test]
fn replays_are_identical_and_steps_point_into_one_conversation() {
    let a = replay_builtin("aurora-run", None);
    let b = replay_builtin("aurora-run", None);
    assert_eq!(a, b);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    let mut previous = 1;
    for (i, step) in a.steps.iter().enumerate() {
        assert!(step.messages >= previous, "messages only grow");
        previous = step.messages;
        assert!(
            step.messages <= a.messages.len(),
            "step {i} points into the conversation"
        );
    }
    assert!(a.steps.last().unwrap().event.phase().is_exit());
    assert_eq!(
        a.steps.iter().filter(|s| s.event.phase().is_exit()).count(),
        1
    );
    assert!(!Phase::Append.is_exit());
}

#[test]
fn each_call_carries_what_every_call_so_far_has_sent() {
    for name in loopstep::transcript::BUILTIN_NAMES {
        let trace = replay_builtin(name, None);
        let mut sent = 0;
        for step in &trace.steps {
            if let Event::Call { request, .. } = &step.event {
                sent += request.chars;
                assert_eq!(request.sent_so_far, sent, "{name}, call {}", request.number);
            }
        }
    }
    // aurora-run resends its history: the three calls send more than the
    // conversation holds.
    let trace = replay_builtin("aurora-run", None);
    let last = trace
        .steps
        .iter()
        .rev()
        .find_map(|s| match &s.event {
            Event::Call { request, .. } => Some(*request),
            _ => None,
        })
        .unwrap();
    assert_eq!(last.number, 3);
    assert!(last.sent_so_far > last.chars, "{last:?}");
}

#[test]
fn an_agent_s_own_ending_replaces_the_end_of_the_recording_and_its_finish_call_never_runs() {
    let replies = || {
        vec![
            asks(&[("t1", "search", json!({"query": "Aurora Run"}))]),
            asks(&[
                ("t2", "search", json!({"query": "Mara Voss"})),
                ("t3", "finish", json!({"message": "1974"})),
            ]),
        ]
    };
    let ended = |ending: serde_json::Value, max_turns: u32| {
        let mut doc = search_doc(replies(), max_turns);
        doc["tools"] = json!([{"name": "search"}, {"name": "finish"}]);
        doc["ending"] = ending;
        let run = Transcript::parse(&doc.to_string(), "test").unwrap();
        run.replay(run.default_config())
    };
    // The harness takes `finish` as the end: `search` still runs, `finish`
    // does not, and nothing goes back to the model.
    let finish = json!({"by": "agent", "status": "finish", "call": "t3"});
    let trace = ended(finish.clone(), 10);
    assert_eq!((trace.model_calls(), trace.tool_calls()), (2, 2));
    assert_eq!(trace.outcome().unwrap().label(), "agent_finished");
    assert!(
        !dispatched(&trace)
            .iter()
            .any(|(name, _, _)| *name == "finish"),
        "the finish call is not dispatched"
    );
    // A lower budget is the same replay cut short: None comes first.
    assert_eq!(ended(finish, 1).outcome(), Some(Outcome::BudgetExhausted));
    // Without a call, the ending is where the recording stops.
    let mut doc = search_doc(replies()[..1].to_vec(), 10);
    doc["ending"] = json!({"by": "user", "status": "[Request interrupted by user]"});
    let run = Transcript::parse(&doc.to_string(), "test").unwrap();
    let interrupted = run.replay(run.default_config());
    assert_eq!(interrupted.model_calls(), 1);
    assert_eq!(interrupted.outcome().unwrap().label(), "interrupted");
}

#[test]
fn an_ending_must_name_a_call_the_replies_make() {
    let mut doc = search_doc(vec![says("1974", "end_turn")], 10);
    doc["ending"] = json!({"by": "agent", "status": "finish", "call": "nope"});
    let error = Transcript::parse(&doc.to_string(), "test").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("at `ending.call`: no tool_use in `replies` has the id `nope`"),
        "{error}"
    );
}

#[test]
fn the_finish_call_ends_the_run_only_in_the_last_reply_even_when_its_id_was_used_before() {
    // A recording that used the finish call's id for an earlier call too
    // (recorded, so the reuse is evidence, not an error).
    let mut doc = search_doc(
        vec![
            asks(&[("t1", "search", json!({"query": "Aurora Run"}))]),
            asks(&[("t1", "finish", json!({"message": "1974"}))]),
        ],
        10,
    );
    doc["tools"] = json!([{"name": "search"}, {"name": "finish"}]);
    doc["recorded"] = json!(true);
    doc["ending"] = json!({"by": "agent", "status": "finish", "call": "t1"});
    let run = Transcript::parse(&doc.to_string(), "test").unwrap();
    let trace = run.replay(run.default_config());
    assert_eq!((trace.model_calls(), trace.tool_calls()), (2, 1));
    assert_eq!(trace.outcome().unwrap().label(), "agent_finished");
}

#[test]
fn an_ending_s_status_is_printed_without_its_control_characters() {
    let ending = loopstep::engine::Ending {
        by: loopstep::engine::EndedBy::Agent,
        status: "exit_cost\u{1b}[2J\u{1b}]0;pwned\u{7}".to_owned(),
        call: None,
    };
    let say = Say::new(Lang::En, Dialect::default());
    let line = say.ending_status(&ending);
    assert!(!line.chars().any(char::is_control), "{line:?}");
    assert!(line.starts_with("exit_cost"));
}
