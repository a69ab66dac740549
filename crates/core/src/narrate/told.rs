//! How the lessons tell each API's own forms: the words around the wire's
//! names, which the dialects leave to narrate.

use crate::dialect::Dialect;
use crate::lang::Tr;

/// An API's forms, told in both languages.
#[derive(Debug)]
pub struct Told {
    /// What the lessons call the field the check reads, in Chinese:
    /// 停止原因, 结束原因, 状态.
    pub stop_field_zh: &'static str,
    /// How one turn's results travel back, as a noun phrase.
    pub results_message: Tr,
    /// How a result says it failed; `None` where nothing but its text
    /// does (Chat Completions, Responses).
    pub error_flag: Option<Tr>,
    /// A tool result, in Chinese: the API's name with a Chinese noun.
    pub tool_result_zh: &'static str,
    /// Where the API's reply says it asks for tools when its stop does
    /// not (Responses, Gemini): "the output holds function_call items".
    pub calls_in: Option<Tr>,
}

/// How `dialect`'s forms are told.
pub fn told(dialect: Dialect) -> &'static Told {
    match dialect {
        Dialect::AnthropicMessages => &Told {
            stop_field_zh: "停止原因",
            results_message: Tr {
                en: "one user message of tool_result blocks",
                zh: "一条由 tool_result 块组成的 user 消息",
            },
            error_flag: Some(Tr {
                en: "is_error",
                zh: "is_error",
            }),
            tool_result_zh: "tool_result 块",
            calls_in: None,
        },
        Dialect::OpenaiChat => &Told {
            stop_field_zh: "结束原因",
            results_message: Tr {
                en: "one role: \"tool\" message per call",
                zh: "每个调用各一条 role: \"tool\" 消息",
            },
            // No flag: the error is in the result's text.
            error_flag: None,
            tool_result_zh: "role: \"tool\" 消息",
            calls_in: None,
        },
        Dialect::OpenaiResponses => &Told {
            stop_field_zh: "状态",
            results_message: Tr {
                en: "one function_call_output item per call",
                zh: "每个调用各一个 function_call_output 项",
            },
            // No flag: the error is in the output's text.
            error_flag: None,
            tool_result_zh: "function_call_output 项",
            calls_in: Some(Tr {
                en: "the output holds function_call items",
                zh: "输出里有 function_call 项",
            }),
        },
        Dialect::Gemini => &Told {
            stop_field_zh: "结束原因",
            results_message: Tr {
                en: "one user content of functionResponse parts",
                zh: "一条由 functionResponse 部分组成的 user 内容",
            },
            error_flag: Some(Tr {
                en: "an error key in the response",
                zh: "response 里的 error 键",
            }),
            tool_result_zh: "functionResponse 部分",
            calls_in: Some(Tr {
                en: "the reply's parts hold functionCall parts",
                zh: "回复的部分（parts）里有 functionCall 部分",
            }),
        },
        Dialect::BedrockConverse => &Told {
            stop_field_zh: "停止原因",
            results_message: Tr {
                en: "one user message of toolResult blocks",
                zh: "一条由 toolResult 块组成的 user 消息",
            },
            error_flag: Some(Tr {
                en: "status: \"error\"",
                zh: "status: \"error\"",
            }),
            tool_result_zh: "toolResult 块",
            calls_in: None,
        },
    }
}
