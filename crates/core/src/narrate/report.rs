//! The lines of `loopstep run` and `loopstep validate` around the steps:
//! headers, totals, the closing summary.

use super::{Lang, Say, plural};
use crate::engine::{Budget, CheckPolicy, Mistake, Outcome, SAFETY_CAP};
use crate::transcript::{Format, Imported, Kind, Piece, Provenance};

impl Say {
    /// What a file turned out to be: "Claude Code session (JSON Lines)".
    pub fn kind(self, kind: Kind) -> String {
        match (self.lang, kind) {
            (Lang::En, Kind::Builtin) => "built-in run".to_owned(),
            (Lang::Zh, Kind::Builtin) => "内置记录".to_owned(),
            (_, Kind::File(format)) => self.format_name(format).to_owned(),
            (_, Kind::Calls(format, api)) => {
                let api = Say::new(self.lang, api).w.api;
                let comma = self.pick(", ", "，");
                format!("{}{comma}{api}", self.format_name(format))
            }
            (Lang::En, Kind::EvalArchive) => "Inspect AI eval log (.eval archive)".to_owned(),
            (Lang::Zh, Kind::EvalArchive) => "Inspect AI 评测日志（.eval 压缩包）".to_owned(),
            (Lang::En, Kind::Project { sessions }) => {
                format!(
                    "Claude Code project folder, {sessions} session{}",
                    plural(sessions)
                )
            }
            (Lang::Zh, Kind::Project { sessions }) => {
                format!("Claude Code 项目文件夹，{sessions} 个会话")
            }
        }
    }

    /// A format's name; in English, the one its errors use.
    pub fn format_name(self, format: Format) -> &'static str {
        match (self.lang, format) {
            (Lang::En, Format::Native) => "native transcript",
            (Lang::En, Format::Conversation) => "conversation (a messages list)",
            (Lang::En, Format::Exchanges) => "exchange log (request/response pairs)",
            (Lang::En, Format::ClaudeCode) => "Claude Code session (JSON Lines)",
            (Lang::En, Format::Trajectory) => "agent trajectory (SWE-agent, mini-swe-agent)",
            (Lang::En, Format::Codex) => "Codex CLI session rollout (JSON Lines)",
            (Lang::En, Format::CodexExec) => "Codex CLI `exec --json` events (JSON Lines)",
            (Lang::En, Format::GeminiCli) => "Gemini CLI chat session",
            (Lang::En, Format::OpenHands) => "OpenHands trajectory (an event list)",
            (Lang::En, Format::Inspect) => "Inspect AI eval log (.json or .eval)",
            (Lang::En, Format::Cassette) => "VCR cassette (YAML)",
            (Lang::En, Format::Events) => "stream of server-sent events (one response)",
            (Lang::En, Format::AiderChat) => "aider chat history (.aider.chat.history.md)",
            (Lang::En, Format::Cline) => {
                "Cline or Roo Code task (api_conversation_history.json, or a Cline 4 session)"
            }
            (Lang::En, Format::AiderLlm) => "aider LLM history (--llm-history-file)",
            (Lang::Zh, Format::Native) => "loopstep 记录文件",
            (Lang::Zh, Format::Conversation) => "对话（messages 列表）",
            (Lang::Zh, Format::Exchanges) => "调用日志（请求/响应对）",
            (Lang::Zh, Format::ClaudeCode) => "Claude Code 会话（JSON Lines）",
            (Lang::Zh, Format::Trajectory) => "智能体轨迹（SWE-agent、mini-swe-agent）",
            (Lang::Zh, Format::Codex) => "Codex CLI 会话记录（JSON Lines）",
            (Lang::Zh, Format::CodexExec) => "Codex CLI `exec --json` 事件（JSON Lines）",
            (Lang::Zh, Format::GeminiCli) => "Gemini CLI 聊天会话",
            (Lang::Zh, Format::OpenHands) => "OpenHands 轨迹（事件列表）",
            (Lang::Zh, Format::Inspect) => "Inspect AI 评测日志（.json 或 .eval）",
            (Lang::Zh, Format::Cassette) => "VCR 录制文件（YAML）",
            (Lang::Zh, Format::AiderChat) => "aider 聊天记录（.aider.chat.history.md）",
            (Lang::Zh, Format::Cline) => {
                "Cline 或 Roo Code 任务（api_conversation_history.json，或 Cline 4 会话）"
            }
            (Lang::Zh, Format::AiderLlm) => "aider 的 LLM 记录（--llm-history-file）",
            (Lang::Zh, Format::Events) => "服务器推送事件流（一个响应）",
        }
    }

    /// Where an imported run was cut from, and which of how many it is.
    pub fn imported(self, imported: &Imported) -> String {
        let from = self.provenance(&imported.origin);
        let (run, of) = (imported.run, imported.of);
        match self.lang {
            Lang::En => format!("Imported from {from}, run {run} of {of}."),
            Lang::Zh => format!("导入自{from}，第 {run} 条，共 {of} 条。"),
        }
    }

    fn provenance(self, origin: &Provenance) -> String {
        match (self.lang, origin) {
            (Lang::En, Provenance::Unknown) => "a recording".into(),
            (Lang::Zh, Provenance::Unknown) => "一份记录".into(),
            (Lang::En, Provenance::File { format, name }) => {
                format!("{} `{name}`", self.format_name(*format))
            }
            (Lang::Zh, Provenance::File { format, name }) => {
                format!("{} `{name}`", self.format_name(*format))
            }
            (Lang::En, Provenance::Sample { id, epoch, scoring }) => {
                let epoch = epoch
                    .as_ref()
                    .map_or(String::new(), |e| format!(", epoch {e}"));
                let scoring = if *scoring { "the scoring of " } else { "" };
                format!("{scoring}sample {id}{epoch} of an Inspect eval log")
            }
            (Lang::Zh, Provenance::Sample { id, epoch, scoring }) => {
                let epoch = epoch
                    .as_ref()
                    .map_or(String::new(), |e| format!("第 {e} 轮的"));
                let scoring = if *scoring { "的评分" } else { "" };
                format!("Inspect 评测日志中{epoch}样本 {id}{scoring}")
            }
            (Lang::En, Provenance::Part { part, of }) => {
                let of = self.provenance(of);
                match part {
                    Piece::Session(n) => format!("session {n} of {of}"),
                    Piece::Agent(n) => format!("agent {n} of {of}"),
                    Piece::Conversation(n) => format!("conversation {n} of {of}"),
                    Piece::Instance(id) => format!("instance {id} of {of}"),
                    Piece::SideChains => format!("the side chains of {of}"),
                    Piece::Progress(id) => format!("the progress lines of sub-agent {id} in {of}"),
                }
            }
            (Lang::Zh, Provenance::Part { part, of }) => {
                let of = self.provenance(of);
                match part {
                    Piece::Session(n) => format!("{of}的第 {n} 个会话"),
                    Piece::Agent(n) => format!("{of}的第 {n} 个智能体"),
                    Piece::Conversation(n) => format!("{of}的第 {n} 段对话"),
                    Piece::Instance(id) => format!("{of}的实例 {id}"),
                    Piece::SideChains => format!("{of}的旁支对话"),
                    Piece::Progress(id) => format!("{of}中子智能体 {id} 的进度行"),
                }
            }
        }
    }

    /// "aurora-run · Anthropic Messages · max_turns 10 · production check".
    pub fn run_header(
        self,
        id: &str,
        budget: Budget,
        max_turns: u32,
        check: CheckPolicy,
        mistake: Option<Mistake>,
    ) -> String {
        let settings = self.run_settings(budget, max_turns, check, mistake);
        format!("{id} · {} · {settings}", self.w.api)
    }

    /// How the loop is set up: "max_turns 2 · production check", and the
    /// mistake it makes, if any.
    pub fn run_settings(
        self,
        budget: Budget,
        max_turns: u32,
        check: CheckPolicy,
        mistake: Option<Mistake>,
    ) -> String {
        let check = self.check_label(check);
        let budget = match (self.lang, budget) {
            (_, Budget::MaxTurns) => format!("max_turns {max_turns}"),
            (Lang::En, Budget::SafetyCap) => format!("no max_turns (safety cap {SAFETY_CAP})"),
            (Lang::Zh, Budget::SafetyCap) => format!("没有 max_turns（安全上限 {SAFETY_CAP}）"),
        };
        let mistake = match (self.lang, mistake) {
            (_, None) => String::new(),
            (Lang::En, Some(m)) => format!(" · MISTAKE: {}", m.name()),
            (Lang::Zh, Some(m)) => format!(" · 常见错误：{}（{}）", self.mistake_name(m), m.name()),
        };
        format!("{budget} · {check}{mistake}")
    }

    pub fn question_line(self, question: &str) -> String {
        match self.lang {
            Lang::En => format!("question: {question}"),
            Lang::Zh => format!("问题：{question}"),
        }
    }

    pub fn note_line(self, note: &str) -> String {
        format!("{}{note}", self.note())
    }

    pub fn run_divider(self, n: usize, count: usize, title: &str) -> String {
        match self.lang {
            Lang::En => format!("── run {n} of {count}: {title} ──"),
            Lang::Zh => format!("── 第 {n} 条记录，共 {count} 条：{title} ──"),
        }
    }

    /// A price list without the model a run was recorded with.
    pub fn unpriced_model(self, shown: &str, model: &str) -> String {
        match self.lang {
            Lang::En => {
                format!(
                    "loopstep: {shown} has no price for the model {model}; its calls show no cost"
                )
            }
            Lang::Zh => format!("loopstep：{shown} 里没有模型 {model} 的价格；它的调用不显示费用"),
        }
    }

    pub fn turn_label(self, turn: u32) -> String {
        match self.lang {
            Lang::En => format!("turn {turn}"),
            Lang::Zh => format!("第 {turn} 轮"),
        }
    }

    /// The closing line: counts, how the run ended, and the goal check.
    pub fn run_summary(self, calls: usize, tools: usize, outcome: &str, goal: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "model calls: {calls} · tool calls: {tools} · outcome: {outcome} · goal check: {goal}"
            ),
            Lang::Zh => format!(
                "模型调用：{calls} · 工具调用：{tools} · 状态：{outcome} · 目标检查：{goal}"
            ),
        }
    }

    /// Every check passed; `checked`: one of them looked at the work
    /// itself, else only the tools' reports said it was done.
    pub fn goal_verified(self, evidence: &str, checked: bool) -> String {
        match (self.lang, checked) {
            (Lang::En, true) => format!("verified ({evidence})"),
            (Lang::En, false) => {
                format!("reported by the tools, the work itself unchecked ({evidence})")
            }
            (Lang::Zh, true) => format!("已验证（{evidence}）"),
            (Lang::Zh, false) => format!("仅有工具报告成功，产物本身未核实（{evidence}）"),
        }
    }

    pub fn goal_not_verified(self, misses: &str) -> String {
        match self.lang {
            Lang::En => format!("not verified ({misses})"),
            Lang::Zh => format!("未通过验证（{misses}）"),
        }
    }

    pub fn goal_not_checked(self) -> &'static str {
        self.pick("not checked", "未检查")
    }

    pub fn totals(self, runs: usize, calls: usize, tools: usize, answered: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "totals: {runs} runs · model calls: {calls} · tool calls: {tools} · answered: {answered}"
            ),
            Lang::Zh => format!(
                "合计：{runs} 条记录 · 模型调用：{calls} · 工具调用：{tools} · 已回答：{answered}"
            ),
        }
    }

    /// `validate`'s first line: the file is valid, in this format, with n runs.
    pub fn valid_file(self, path: &str, kind: Kind, runs: usize) -> String {
        let kind = self.kind(kind);
        match self.lang {
            Lang::En => format!("{path}: valid {kind}, {runs} run{}", plural(runs)),
            // A space before a name in Latin letters, as Chinese sets them.
            Lang::Zh if kind.starts_with(|c: char| c.is_ascii()) => {
                format!("{path}：有效的 {kind}，{runs} 条记录")
            }
            Lang::Zh => format!("{path}：有效的{kind}，{runs} 条记录"),
        }
    }

    /// How a run's replay, every request checked, ends: for `validate`.
    pub fn replays_to(self, outcome: Option<Outcome<'_>>) -> String {
        let end = match outcome {
            Some(Outcome::Answered(_)) => self.pick("an answer", "回答"),
            Some(Outcome::BudgetExhausted) => self.outcome_none(),
            Some(Outcome::Stopped(_)) => self.outcome_halted(),
            Some(Outcome::RecordingEnded) | None => self.outcome_recording_ended(),
            Some(Outcome::Rejected(_)) => self.outcome_rejected(),
            Some(Outcome::Ended(ending)) => &self.outcome_ended(ending),
        };
        match self.lang {
            Lang::En => format!("replays to {end}"),
            Lang::Zh => format!("重放结果：{end}"),
        }
    }

    /// One run in `validate`'s list: its replies, the tool calls they
    /// make, and the tools it declares, which are not the same count.
    pub fn valid_run(self, id: &str, counts: RunCounts, max_turns: u32, title: &str) -> String {
        let RunCounts {
            replies,
            tool_calls,
            declared,
        } = counts;
        match self.lang {
            Lang::En => format!(
                "{id}: {replies} repl{}, {tool_calls} tool call{}; {declared} tool{} declared; \
                 max_turns {max_turns} · {title}",
                if replies == 1 { "y" } else { "ies" },
                plural(tool_calls),
                plural(declared)
            ),
            Lang::Zh => format!(
                "{id}：{replies} 条回复，{tool_calls} 次工具调用；声明了 {declared} 个工具；\
                 max_turns {max_turns} · {title}"
            ),
        }
    }
}

/// What `validate` counts in a run.
#[derive(Debug, Clone, Copy)]
pub struct RunCounts {
    pub replies: usize,
    /// The tool requests the replies make.
    pub tool_calls: usize,
    /// The tools the run declares to the model.
    pub declared: usize,
}
