//! aider's LLM history, the file `--llm-history-file` names (Aider-AI/aider,
//! aider/io.py `log_llm_history`, aider/utils.py `format_messages`): each
//! model call as `TO LLM <time>` and the messages it sent, each after a
//! `-------` line, every line of a message led by its role in capitals
//! (`SYSTEM `, `USER `, `ASSISTANT `); then `LLM RESPONSE <time>` and the
//! reply's lines, led by `ASSISTANT `. It is an exchange log in all but
//! its shape: told as one (OpenAI Chat Completions, as aider's LiteLLM
//! speaks), it is read as one. Stop reasons are not kept.

use serde_json::{Value, json};

const REQUEST: &str = "TO LLM ";
const RESPONSE: &str = "LLM RESPONSE ";

/// Whether the text is an LLM history: its first line that is not blank
/// opens a request.
pub fn looks_like(text: &str) -> bool {
    text.lines()
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| line.starts_with(REQUEST))
}

/// The history as an exchange log of OpenAI Chat Completions bodies; a
/// request whose response never came (aider stopped) has none.
pub fn exchanges(text: &str) -> Value {
    let mut exchanges = Vec::new();
    let mut messages: Vec<(String, Vec<&str>)> = Vec::new();
    let mut reply: Option<Vec<&str>> = None;
    let mut close = |messages: &mut Vec<(String, Vec<&str>)>, reply: &mut Option<Vec<&str>>| {
        if messages.is_empty() {
            return;
        }
        let sent: Vec<Value> = std::mem::take(messages)
            .into_iter()
            .map(|(role, lines)| json!({"role": role, "content": lines.join("\n")}))
            .collect();
        let mut exchange = json!({"request": {"messages": sent}});
        if let Some(lines) = reply.take() {
            exchange["response"] = json!({"choices": [{"index": 0,
                "message": {"role": "assistant", "content": lines.join("\n")}}]});
        }
        exchanges.push(exchange);
    };
    for line in text.lines() {
        if line.starts_with(REQUEST) {
            close(&mut messages, &mut reply);
        } else if line.starts_with(RESPONSE) {
            reply = Some(Vec::new());
        } else if line == "-------" && reply.is_none() {
            messages.push((String::new(), Vec::new()));
        } else if let Some((role, said)) = role_line(line) {
            match (&mut reply, messages.last_mut()) {
                (Some(reply), _) => reply.push(said),
                (None, Some((name, lines))) => {
                    if name.is_empty() {
                        *name = role.to_ascii_lowercase();
                    }
                    lines.push(said);
                }
                (None, None) => {}
            }
        }
    }
    close(&mut messages, &mut reply);
    Value::Array(exchanges)
}

/// A line of a message: its role and its words (an empty line is the
/// role and a space).
fn role_line(line: &str) -> Option<(&str, &str)> {
    ["SYSTEM", "USER", "ASSISTANT"].iter().find_map(|role| {
        let rest = line.strip_prefix(role)?;
        let said = rest
            .strip_prefix(' ')
            .or_else(|| rest.is_empty().then_some(""))?;
        Some((*role, said))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_its_messages_and_the_reply_that_came() {
        let text = "TO LLM 2025-01-31T11:21:36\n-------\nSYSTEM Be brief.\nSYSTEM \n-------\n\
                    USER hi\nLLM RESPONSE 2025-01-31T11:21:41\nASSISTANT Hello.\nASSISTANT Bye.\n";
        let log = exchanges(text);
        assert_eq!(
            log[0]["request"]["messages"],
            json!([{"role": "system", "content": "Be brief.\n"}, {"role": "user", "content": "hi"}])
        );
        assert_eq!(
            log[0]["response"]["choices"][0]["message"]["content"],
            "Hello.\nBye."
        );
    }
}
