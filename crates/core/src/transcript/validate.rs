//! Checks a parsed transcript can be replayed, collecting every problem.

use std::collections::{BTreeMap, BTreeSet};

use crate::dialect::Dialect;
use crate::engine::{Block, StopReason, ToolEnv};

use super::{FORMAT_VERSION, Problem, Transcript, Why};

pub(super) fn problems(t: &Transcript) -> Vec<Problem> {
    let mut found = Vec::new();
    let mut problem = |path: String, why: Why| found.push(Problem::new(path, why));

    if t.version != FORMAT_VERSION {
        problem("version".into(), Why::Version { found: t.version });
    }
    for (field, value) in [
        ("id", &t.id),
        ("question", &t.question),
        ("model", &t.model),
    ] {
        if value.trim().is_empty() {
            problem(field.into(), Why::Empty);
        }
    }
    if t.replies.is_empty() {
        problem("replies".into(), Why::NoReply);
    }

    let mut tool_names = BTreeSet::new();
    for (i, tool) in t.tools.iter().enumerate() {
        if !tool_names.insert(tool.name.as_str()) {
            problem(
                format!("tools[{i}].name"),
                Why::ToolDeclaredTwice {
                    tool: tool.name.clone(),
                },
            );
        }
    }
    for (name, env) in &t.environment {
        if !tool_names.contains(name.as_str()) {
            problem(
                format!("environment.{name}"),
                Why::UndeclaredTool { name: name.clone() },
            );
        }
        if let ToolEnv::Search { pages } = env
            && pages.is_empty()
        {
            problem(format!("environment.{name}.pages"), Why::NoPage);
        }
    }

    if let Some(goal) = &t.goal
        && !tool_names.contains(goal.tool_succeeded.as_str())
    {
        problem(
            "goal.tool_succeeded".into(),
            Why::GoalToolUndeclared {
                tool: goal.tool_succeeded.clone(),
            },
        );
    }
    if let Some(call) = t.ending.as_ref().and_then(|e| e.call.as_deref())
        && !t
            .replies
            .iter()
            .any(|r| r.tool_calls().any(|c| c.id == call))
    {
        problem("ending.call".into(), Why::NoSuchCall { id: call.into() });
    }
    let dialect = t.dialect();
    let mut ids: BTreeMap<&str, String> = BTreeMap::new();
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for (r, reply) in t.replies.iter().enumerate() {
        // Another API's word for a stop reason is a slip a course author
        // makes easily, and the replay would read it as unknown.
        let other = Dialect::ALL
            .into_iter()
            .find(|d| !dialect.knows_stop(&reply.stop_reason) && d.knows_stop(&reply.stop_reason));
        if let Some(other) = other {
            problem(
                format!("replies[{r}].stop_reason"),
                Why::ForeignStopReason {
                    reason: reply.stop_reason.clone(),
                    of: other,
                    run: dialect,
                },
            );
        }
        if reply.stop_reason.trim().is_empty() {
            problem(format!("replies[{r}].stop_reason"), Why::Empty);
        } else if !t.recorded
            && Dialect::ALL
                .iter()
                .all(|d| !d.knows_stop(&reply.stop_reason))
        {
            // A recording's unknown word is evidence of a newer API, told
            // as it came; an author's is a slip.
            problem(
                format!("replies[{r}].stop_reason"),
                Why::UnknownStopReason {
                    reason: reply.stop_reason.clone(),
                    run: dialect,
                },
            );
        }
        let asks_for_tools = dialect.stop_reason(&reply.stop_reason) == StopReason::ToolUse;
        for (b, block) in reply.content.iter().enumerate() {
            let at = format!("replies[{r}].content[{b}]");
            match block {
                Block::ToolResult { .. } => problem(at, Why::ResultInReply),
                Block::ToolUse { id, name, .. } => {
                    if id.trim().is_empty() {
                        problem(format!("{at}.id"), Why::CallWithoutId);
                    } else if let Some(first) = ids.insert(id, at.clone())
                        // A recording used it twice: that is evidence, kept.
                        && !t.recorded
                    {
                        problem(
                            format!("{at}.id"),
                            Why::CallIdReused {
                                id: id.clone(),
                                first,
                            },
                        );
                    }
                    // A reused id's n-th use needs the n-th recorded result.
                    let nth = uses.entry(id.as_str()).or_default();
                    let recorded = t.results.get(id).is_some_and(|r| r.of_use(*nth).is_some());
                    *nth += 1;
                    let answerable = recorded
                        || t.environment.contains_key(name)
                        // The call the agent ended with never runs.
                        || t.ending.as_ref().and_then(|e| e.call.as_ref()) == Some(id)
                        // An undeclared tool is answered with an error result.
                        || !tool_names.contains(name.as_str());
                    if asks_for_tools && !answerable {
                        problem(
                            at,
                            Why::Unanswerable {
                                id: id.clone(),
                                name: name.clone(),
                            },
                        );
                    }
                }
                Block::Text { .. }
                | Block::Thinking { .. }
                | Block::Refusal { .. }
                | Block::ServerToolUse { .. }
                | Block::ServerToolResult { .. } => {}
            }
        }
    }
    for id in t.results.keys() {
        if !ids.contains_key(id.as_str()) {
            problem(format!("results.{id}"), Why::NoSuchCall { id: id.clone() });
        }
    }
    for (i, insertion) in t.inserted.iter().enumerate() {
        if insertion.before_call == 0 {
            problem(format!("inserted[{i}].before_call"), Why::CallsCountFromOne);
        }
    }
    if let Some(expect) = &t.expect
        && expect.model_calls == Some(0)
    {
        problem("expect.model_calls".into(), Why::NoModelCall);
    }
    found
}
