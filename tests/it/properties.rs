//! Invariants of the loop over generated transcripts.

use crate::common;

use std::num::NonZeroU32;

use common::{asks_with_stop, says, search_doc};
use loopstep::dialect::Dialect;
use loopstep::engine::{Block, Config, Event, Message, Outcome, Phase, Role, StopReason, Trace};
use loopstep::transcript::Transcript;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A reply: `None` for a text answer, or the number of tools it requests,
/// with what its stop reason means (no `pause_turn`, which costs a call
/// without a tool round and is tested on its own).
fn reply_strategy() -> impl Strategy<Value = (Option<usize>, StopReason)> {
    prop_oneof![
        4 => (1usize..=3).prop_map(|n| (Some(n), StopReason::ToolUse)),
        2 => Just((None, StopReason::EndTurn)),
        1 => (0usize..=2).prop_map(|n| (Some(n), StopReason::MaxTokens)),
        1 => Just((None, StopReason::ContentFilter)),
    ]
}

/// A run in one of the APIs, with its replies.
fn run_strategy() -> impl Strategy<Value = (Dialect, Vec<(Option<usize>, StopReason)>)> {
    (
        prop::sample::select(Dialect::ALL.to_vec()),
        prop::collection::vec(reply_strategy(), 1..12),
    )
}

fn build(dialect: Dialect, replies: &[(Option<usize>, StopReason)]) -> Vec<Value> {
    replies
        .iter()
        .enumerate()
        .map(|(r, (tools, reason))| {
            // A tool request and an answer are spelled as each API spells
            // them (Responses: `completed` for both, the items decide);
            // Anthropic has no content filter, its nearest stop is a refusal.
            let words = dialect.words();
            let stop = match reason {
                StopReason::ToolUse => words.tool_stop,
                StopReason::EndTurn => words.answer_stop,
                other => dialect
                    .spell(*other)
                    .or_else(|| dialect.spell(StopReason::Refusal))
                    .unwrap(),
            };
            match tools {
                None => says(&format!("answer {r}"), stop),
                Some(n) => {
                    let calls: Vec<(String, &str, Value)> = (0..*n)
                        .map(|k| {
                            // Some requests name a tool that does not exist.
                            let name = if (r + k) % 5 == 4 { "browse" } else { "search" };
                            (format!("call_{r}_{k}"), name, json!({"query": "Mara Voss"}))
                        })
                        .collect();
                    let borrowed: Vec<(&str, &str, Value)> = calls
                        .iter()
                        .map(|(id, name, input)| (id.as_str(), *name, input.clone()))
                        .collect();
                    asks_with_stop(stop, &borrowed)
                }
            }
        })
        .collect()
}

fn replay(
    (dialect, replies): &(Dialect, Vec<(Option<usize>, StopReason)>),
    max_turns: u32,
) -> Trace {
    let mut doc = search_doc(build(*dialect, replies), max_turns);
    doc["dialect"] = json!(dialect.id());
    let t = Transcript::parse(&doc.to_string(), "generated").expect("generated run is valid");
    t.replay(Config::new(NonZeroU32::new(max_turns).unwrap(), *dialect))
}

proptest! {
    #[test]
    fn calls_never_exceed_the_budget(
        run in run_strategy(),
        max_turns in 1u32..10,
    ) {
        let trace = replay(&run, max_turns);
        prop_assert!(trace.model_calls() <= max_turns as usize);
        if trace.outcome() == Some(Outcome::BudgetExhausted) {
            prop_assert_eq!(trace.model_calls(), max_turns as usize);
        }
    }

    #[test]
    fn an_answer_costs_one_call_more_than_the_tool_rounds(
        run in run_strategy(),
        max_turns in 1u32..10,
    ) {
        let trace = replay(&run, max_turns);
        if let Some(Outcome::Answered(_)) = trace.outcome() {
            let rounds = trace.steps.iter().filter(|s| s.event.phase() == Phase::Append).count();
            prop_assert_eq!(trace.model_calls(), rounds + 1);
            prop_assert_eq!(trace.rounds().total() + 1, trace.model_calls());
        }
    }

    #[test]
    fn every_executed_tool_request_gets_exactly_one_result(
        run in run_strategy(),
        max_turns in 1u32..10,
    ) {
        let trace = replay(&run, max_turns);
        prop_assert!(!matches!(trace.outcome(), Some(Outcome::Rejected(_))));
        let messages: Vec<Message> = trace.messages.all().iter().cloned().collect();
        for (i, message) in messages.iter().enumerate() {
            let asked: Vec<&str> = message.tool_calls().map(|c| c.id).collect();
            if message.role != Role::Assistant || asked.is_empty() || i + 1 == messages.len() {
                continue;
            }
            // The results follow at once: in one message, or one message each.
            let mut answered: Vec<&str> = messages[i + 1..]
                .iter()
                .take_while(|m| m.role == Role::User)
                .flat_map(|m| &m.content)
                .filter_map(|b| match b {
                    Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
                    _ => None,
                })
                .collect();
            answered.sort_unstable();
            let mut expected = asked.clone();
            expected.sort_unstable();
            prop_assert_eq!(answered, expected);
        }
        let dispatched = trace.steps.iter().filter(|s| matches!(s.event, Event::Dispatch { .. })).count();
        let results: usize = messages.iter().flat_map(|m| &m.content)
            .filter(|b| matches!(b, Block::ToolResult { .. })).count();
        prop_assert_eq!(dispatched, results);
        // Every request the loop sent was one the API accepts.
        for step in &trace.steps {
            if let Event::Call { request, .. } = step.event {
                prop_assert_eq!(run.0.check_request(&messages[..request.messages]), Ok(()));
            }
        }
    }

    #[test]
    fn the_same_input_gives_the_same_trace(
        run in run_strategy(),
        max_turns in 1u32..10,
    ) {
        let a = replay(&run, max_turns);
        let b = replay(&run, max_turns);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        prop_assert_eq!(a, b);
    }
}
