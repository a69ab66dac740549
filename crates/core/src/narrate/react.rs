//! The ReAct lens: the same loop read as seed 001 names its parts. A reply's
//! words are the model's Thought and its tool request the Action, both the
//! model's, told at the call that brought them; the result the loop sends
//! back is the Observation, told at the dispatch; the answer is the Finish
//! (思考 / 行动 / 观察 / 完成). The lens names them beside the phases.

use super::Say;
use crate::engine::{Event, Message, Messages, Role, Step};
use crate::text::one_line;

/// How much of a thought, an input or an observation the lens shows.
const REACT_CHARS: usize = 120;

impl Say {
    /// What the ReAct pattern calls this step, with what it holds; `reply`
    /// is the model's reply the step's call brought back, where it was kept.
    pub fn react_line(self, step: &Step, reply: Option<&Message>) -> Option<String> {
        let label = |en: &'static str, zh: &'static str| self.pick(en, zh);
        match &step.event {
            // A reply that asks for no tool is the Finish, told at the answer.
            Event::Call { .. } => {
                let reply = reply.filter(|r| r.tool_calls().next().is_some())?;
                // The words beside the request; else the model's reasoning.
                let thought = match reply.text() {
                    text if !text.trim().is_empty() => text,
                    _ => reply.thinking(),
                };
                let thought = thought.trim();
                let actions: Vec<String> = reply
                    .tool_calls()
                    .map(|call| {
                        format!(
                            "{} {}",
                            one_line(call.name, 40),
                            one_line(&call.input.to_string(), REACT_CHARS / 2)
                        )
                    })
                    .collect();
                let action = format!("{}{}", label("Action: ", "行动："), actions.join("; "));
                Some(match thought {
                    "" => action,
                    thought => format!(
                        "{}{} · {action}",
                        label("Thought: ", "思考："),
                        one_line(thought, REACT_CHARS)
                    ),
                })
            }
            Event::Dispatch { name, output, .. } => Some(format!(
                "{}{} → {}",
                label("Observation: ", "观察："),
                one_line(name, 40),
                one_line(&output.content, REACT_CHARS)
            )),
            Event::Answer { text } => Some(format!(
                "{}{}",
                label("Finish: ", "完成："),
                one_line(text, REACT_CHARS)
            )),
            _ => None,
        }
    }
}

/// The model's reply a call step brought back, where the loop kept it:
/// the newest message the step's conversation holds.
pub fn reply_of<'m>(messages: Messages<'m>, step: &Step) -> Option<&'m Message> {
    let newest = messages.get(step.messages.checked_sub(1)?)?;
    (newest.role == Role::Assistant).then_some(newest)
}
