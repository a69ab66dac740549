//! The same step in two wire shapes: the Anthropic Messages API and OpenAI
//! Chat Completions. A class switching between them sees that `tool_use` /
//! `end_turn` and `tool_calls` / `stop` are one loop spelled twice.

use serde_json::{Map, Value, json};

use crate::engine::{Block, Message, Reply, Role, StopReason, ToolDef, Usage};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Anthropic,
    OpenAi,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Anthropic => "Anthropic Messages",
            Shape::OpenAi => "OpenAI Chat Completions",
        }
    }
}

/// A request body: what the client sends on one call.
pub fn request(
    shape: Shape,
    model: &str,
    system: Option<&str>,
    tools: &[ToolDef],
    messages: &[Message],
) -> Value {
    match shape {
        Shape::Anthropic => {
            let mut body = json!({ "model": model });
            if let Some(system) = system {
                body["system"] = json!(system);
            }
            if !tools.is_empty() {
                body["tools"] = json!(tools);
            }
            body["messages"] = messages_json(shape, messages);
            body
        }
        Shape::OpenAi => {
            let mut all = Vec::new();
            if let Some(system) = system {
                all.push(json!({ "role": "system", "content": system }));
            }
            if let Value::Array(rest) = messages_json(shape, messages) {
                all.extend(rest);
            }
            let mut body = json!({ "model": model, "messages": all });
            if !tools.is_empty() {
                let tools: Vec<Value> = tools
                    .iter()
                    .map(|t| {
                        json!({
                            "type": "function",
                            "function": {
                                "name": t.name,
                                "description": t.description,
                                "parameters": t.input_schema,
                            }
                        })
                    })
                    .collect();
                body["tools"] = json!(tools);
            }
            body
        }
    }
}

/// A response body for one reply.
pub fn response(shape: Shape, model: &str, reply: &Reply) -> Value {
    let message = Message {
        role: Role::Assistant,
        content: reply.content.clone(),
    };
    match shape {
        Shape::Anthropic => {
            // The stop reason goes first: it is what the check reads.
            let mut body = json!({
                "type": "message",
                "role": "assistant",
                "model": model,
                "stop_reason": anthropic_stop(&reply.stop_reason),
                "content": reply.content,
            });
            if let Some(usage) = reply.usage {
                body["usage"] = json!({
                    "input_tokens": usage.input_tokens,
                    "output_tokens": usage.output_tokens,
                });
            }
            body
        }
        Shape::OpenAi => {
            let mut body = json!({
                "object": "chat.completion",
                "model": model,
                "choices": [{
                    "index": 0,
                    "finish_reason": openai_finish(&reply.stop_reason),
                    "message": openai_messages(&message).remove(0),
                }],
            });
            if let Some(Usage {
                input_tokens,
                output_tokens,
            }) = reply.usage
            {
                body["usage"] = json!({
                    "prompt_tokens": input_tokens,
                    "completion_tokens": output_tokens,
                });
            }
            body
        }
    }
}

/// Messages as a JSON array in the given shape. One native message of tool
/// results becomes one OpenAI `tool` message per result.
pub fn messages_json(shape: Shape, messages: &[Message]) -> Value {
    match shape {
        Shape::Anthropic => json!(messages),
        Shape::OpenAi => Value::Array(messages.iter().flat_map(openai_messages).collect()),
    }
}

/// One tool call as the model asked for it.
pub fn tool_call(shape: Shape, id: &str, name: &str, input: &Value) -> Value {
    match shape {
        Shape::Anthropic => json!({ "type": "tool_use", "id": id, "name": name, "input": input }),
        Shape::OpenAi => openai_tool_call(id, name, input),
    }
}

fn openai_messages(message: &Message) -> Vec<Value> {
    let mut texts = Vec::new();
    let mut reasoning = Vec::new();
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for block in &message.content {
        match block {
            Block::Text { text } => texts.push(text.as_str()),
            Block::Thinking { thinking } => reasoning.push(thinking.as_str()),
            Block::ToolUse { id, name, input } => calls.push(openai_tool_call(id, name, input)),
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => {
                // Chat Completions has no error flag: the text has to say it.
                let content = if *is_error {
                    format!("Error: {content}")
                } else {
                    content.clone()
                };
                results.push(
                    json!({ "role": "tool", "tool_call_id": tool_use_id, "content": content }),
                );
            }
        }
    }
    if !results.is_empty() {
        return results;
    }
    let mut out = Map::new();
    out.insert("role".into(), json!(message.role.as_str()));
    out.insert(
        "content".into(),
        if texts.is_empty() {
            Value::Null
        } else {
            json!(texts.join("\n"))
        },
    );
    if !reasoning.is_empty() {
        // DeepSeek's field; plain OpenAI models keep reasoning to themselves.
        out.insert("reasoning_content".into(), json!(reasoning.join("\n")));
    }
    if !calls.is_empty() {
        out.insert("tool_calls".into(), Value::Array(calls));
    }
    vec![Value::Object(out)]
}

fn openai_tool_call(id: &str, name: &str, input: &Value) -> Value {
    let arguments = match input {
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    };
    json!({ "id": id, "type": "function", "function": { "name": name, "arguments": arguments } })
}

fn anthropic_stop(raw: &str) -> Value {
    let spelled = match StopReason::parse(raw) {
        StopReason::ToolUse => "tool_use",
        StopReason::EndTurn => "end_turn",
        StopReason::MaxTokens => "max_tokens",
        StopReason::StopSequence => "stop_sequence",
        StopReason::Refusal => "refusal",
        StopReason::PauseTurn => "pause_turn",
        // No Anthropic equivalent: keep the recorded word.
        StopReason::ContentFilter
        | StopReason::InsufficientSystemResource
        | StopReason::Unknown => raw,
    };
    json!(spelled)
}

fn openai_finish(raw: &str) -> Value {
    let spelled = match StopReason::parse(raw) {
        StopReason::ToolUse => "tool_calls",
        StopReason::EndTurn | StopReason::StopSequence => "stop",
        StopReason::MaxTokens => "length",
        StopReason::ContentFilter => "content_filter",
        StopReason::InsufficientSystemResource => "insufficient_system_resource",
        // Chat Completions has no pause; a refusal arrives as a normal stop.
        StopReason::PauseTurn => return Value::Null,
        StopReason::Refusal => "stop",
        StopReason::Unknown => raw,
    };
    json!(spelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(stop: &str) -> Reply {
        Reply {
            content: vec![
                Block::Thinking {
                    thinking: "look it up".into(),
                },
                Block::Text {
                    text: "Searching.".into(),
                },
                Block::ToolUse {
                    id: "t1".into(),
                    name: "search".into(),
                    input: json!({"query": "Mara Voss"}),
                },
            ],
            stop_reason: stop.into(),
            stop_reason_inferred: false,
            usage: Some(Usage {
                input_tokens: 10,
                output_tokens: 5,
            }),
        }
    }

    #[test]
    fn one_reply_in_both_shapes() {
        let anthropic = response(Shape::Anthropic, "m", &reply("tool_use"));
        assert_eq!(anthropic["stop_reason"], "tool_use");
        assert_eq!(anthropic["content"][2]["type"], "tool_use");
        assert_eq!(anthropic["usage"]["output_tokens"], 5);

        let openai = response(Shape::OpenAi, "m", &reply("tool_use"));
        let choice = &openai["choices"][0];
        assert_eq!(choice["finish_reason"], "tool_calls");
        assert_eq!(choice["message"]["content"], "Searching.");
        assert_eq!(choice["message"]["reasoning_content"], "look it up");
        let call = &choice["message"]["tool_calls"][0];
        assert_eq!(call["function"]["arguments"], "{\"query\":\"Mara Voss\"}");
        assert_eq!(openai["usage"]["prompt_tokens"], 10);
    }

    #[test]
    fn stop_reasons_translate_both_ways() {
        for (anthropic, openai) in [
            ("end_turn", "stop"),
            ("max_tokens", "length"),
            ("tool_use", "tool_calls"),
        ] {
            assert_eq!(openai_finish(anthropic), json!(openai));
            assert_eq!(anthropic_stop(openai), json!(anthropic));
        }
        assert_eq!(openai_finish("pause_turn"), Value::Null);
        assert_eq!(anthropic_stop("content_filter"), json!("content_filter"));
    }

    #[test]
    fn a_results_message_becomes_one_tool_message_each() {
        let results = Message {
            role: Role::User,
            content: vec![
                Block::ToolResult {
                    tool_use_id: "a".into(),
                    content: "page".into(),
                    is_error: false,
                },
                Block::ToolResult {
                    tool_use_id: "b".into(),
                    content: "timeout".into(),
                    is_error: true,
                },
            ],
        };
        let openai = messages_json(Shape::OpenAi, std::slice::from_ref(&results));
        assert_eq!(openai.as_array().unwrap().len(), 2);
        assert_eq!(openai[0]["role"], "tool");
        assert_eq!(openai[1]["content"], "Error: timeout");
        let anthropic = messages_json(Shape::Anthropic, &[results]);
        assert_eq!(anthropic.as_array().unwrap().len(), 1);
        assert_eq!(anthropic[0]["content"][1]["is_error"], true);

        let body = request(
            Shape::OpenAi,
            "m",
            Some("be brief"),
            &[],
            &[Message::user_text("q")],
        );
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "q");
    }
}
