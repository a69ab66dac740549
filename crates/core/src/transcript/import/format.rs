//! The formats loopstep reads: their names on the command line, and their
//! English names where an import says what it read.

/// The file formats loopstep reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// loopstep's own transcript (or a JSON array of them).
    Native,
    /// A `messages` list, Anthropic or OpenAI shaped.
    Conversation,
    /// `{"request", "response"}` pairs, as a JSON array or JSON Lines.
    Exchanges,
    /// A Claude Code session file (JSON Lines).
    ClaudeCode,
    /// An agent's trajectory: SWE-agent `.traj`, mini-swe-agent `.traj.json`.
    Trajectory,
    /// A Codex CLI session rollout (JSON Lines of Responses items).
    Codex,
    /// What `codex exec --json` prints: JSON Lines of thread, turn and
    /// item events.
    CodexExec,
    /// A Gemini CLI chat session (`.json`, or JSON Lines since 2026).
    GeminiCli,
    /// An OpenHands trajectory (a JSON array of events).
    OpenHands,
    /// An Inspect AI eval log (`.json`), one run per sample.
    Inspect,
    /// A VCR cassette (YAML, as vcrpy and pytest-recording write it).
    Cassette,
    /// The server-sent events of one streamed response, bare.
    Events,
    /// aider's chat history, `.aider.chat.history.md` (Markdown).
    AiderChat,
    /// A Cline or Roo Code task's `api_conversation_history.json`.
    Cline,
    /// aider's LLM history (`--llm-history-file`).
    AiderLlm,
}

impl Format {
    /// The name `--from` gives it.
    pub fn flag(self) -> &'static str {
        match self {
            Format::Native => "native",
            Format::Conversation => "conversation",
            Format::Exchanges => "exchanges",
            Format::ClaudeCode => "claude-code",
            Format::Trajectory => "trajectory",
            Format::Codex => "codex",
            Format::CodexExec => "codex-exec",
            Format::GeminiCli => "gemini-cli",
            Format::OpenHands => "openhands",
            Format::Inspect => "inspect",
            Format::Cassette => "cassette",
            Format::Events => "events",
            Format::AiderChat => "aider",
            Format::Cline => "cline",
            Format::AiderLlm => "aider-llm",
        }
    }

    /// Keys a file of this format has at its top level, or in its first
    /// item or line: what a file in no known shape is compared with.
    pub(super) fn marks(self) -> &'static [&'static str] {
        match self {
            Format::Native => &["version", "id", "title", "question", "replies", "base"],
            Format::Conversation => &["messages", "role", "content", "system", "tools"],
            Format::Exchanges => &["request", "response"],
            Format::ClaudeCode => &["sessionId", "message", "isSidechain", "parentUuid", "uuid"],
            Format::Trajectory => &["history", "trajectory", "info", "trajectory_format"],
            Format::Codex => &["payload", "timestamp", "type"],
            Format::CodexExec => &["thread_id", "item", "usage", "type"],
            Format::GeminiCli => &["sessionId", "projectHash", "messages", "toolCalls"],
            Format::OpenHands => &["source", "action", "observation", "tool_call_metadata"],
            Format::Inspect => &["eval", "samples", "plan", "results", "stats"],
            Format::Cassette => &["interactions"],
            Format::Events => &["event", "data"],
            // Markdown, with no keys: never the closest JSON.
            Format::AiderChat => &[],
            Format::Cline => &["role", "content", "ts", "modelInfo", "sessionId"],
            Format::AiderLlm => &[],
        }
    }

    pub const ALL: [Format; 15] = [
        Format::Native,
        Format::Conversation,
        Format::Exchanges,
        Format::ClaudeCode,
        Format::Trajectory,
        Format::Codex,
        Format::CodexExec,
        Format::GeminiCli,
        Format::OpenHands,
        Format::Inspect,
        Format::Cassette,
        Format::Events,
        Format::AiderChat,
        Format::Cline,
        Format::AiderLlm,
    ];
}
