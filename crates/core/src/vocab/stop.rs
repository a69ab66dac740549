//! Why a model stopped, in the loop's own terms.

/// Why a model stopped, whatever the API calls it; each dialect maps its
/// own spellings onto these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The model asks for tools.
    ToolUse,
    /// A finished answer.
    EndTurn,
    /// OpenAI Responses' `completed`: the reply asks for tools when its
    /// output holds `function_call` items, and answers when it does not.
    Completed,
    /// The reply hit the output token limit.
    MaxTokens,
    StopSequence,
    Refusal,
    /// The server paused a long turn; sending it back lets the model go on.
    PauseTurn,
    ContentFilter,
    /// The reply filled the model's context window.
    ContextWindowExceeded,
    /// DeepSeek: the service ran out of capacity mid-reply.
    InsufficientSystemResource,
    /// The API stopped the reply because the model's tool request was
    /// malformed (Gemini's `MALFORMED_FUNCTION_CALL`, Converse's
    /// `malformed_tool_use`).
    MalformedCall,
    /// A word this API does not use; shown verbatim.
    Unknown,
}
