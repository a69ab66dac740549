//! The command line as clap reads it: the subcommands, their flags, and
//! the checks a flag's value must pass.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::commands;
use crate::dialect::Dialect;
use crate::engine::{MAX_TURNS, Mistake};
use crate::narrate::TurnsProblem;
use crate::transcript::Format as SourceFormat;
use crate::tui::theme::Theme;

/// The run `loopstep` opens with no arguments: the multi-step lesson.
pub const DEFAULT_RUN: &str = "aurora-run";

pub(super) const EXAMPLES: &str = "\
Examples:
  loopstep                              open the screen on the multi-step demo (aurora-run)
  loopstep paris --max-turns 1          open the screen on another run (play is implied)
  loopstep run aurora-run               print every step of the demo, headless
  loopstep run aurora-run --max-turns 2 the same run with a budget of two calls: result None
  loopstep run paris --format json      the one-shot run as JSON
  loopstep validate my-run.json         check a transcript you wrote
  loopstep run log.jsonl                replay a real recording (conversation, exchange log,
                                        Claude Code session), recognised automatically
  loopstep import log.jsonl -o run.json turn a recording into an editable transcript

Exit codes:
  0  the replay completed (an answer, None and every other outcome count)
  1  something outside the input failed (the terminal, writing output)
  2  bad input: a missing file, broken JSON, an invalid transcript or flag,
     or a refused request (import over an existing file without --force)";

#[derive(Debug, Parser)]
#[command(
    name = "loopstep",
    version,
    about = "Step through an LLM agent loop, one phase at a time.",
    long_about = "Step through an LLM agent loop, one phase at a time.\n\n\
        loopstep replays recorded agent runs through a real agent loop: call the model \
        with the whole `messages` list, check the stop reason, dispatch every requested \
        tool, append the results as one message, and call again — until the model \
        answers or the turn budget (max_turns) is spent and the loop returns None. \
        Replays are deterministic, free and offline.\n\n\
        With no command it opens the teaching screen on the multi-step run.",
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The language of the screen and the reports: zh (中文) or en
    /// [default: from LC_ALL, LC_MESSAGES, LANG; zh* is Chinese].
    #[arg(long, global = true, value_enum, value_name = "LANG")]
    pub lang: Option<LangArg>,
    /// The largest file to read, as bytes or with a unit: 500MiB, 2GiB.
    /// A larger file (or an endless stream) is refused [default: 1GiB].
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    pub max_size: Option<u64>,
    /// A price list, to tell what recorded calls cost: JSON of model names
    /// to dollars per million tokens, e.g. {"gpt-5": {"input": 1.25,
    /// "output": 10, "cache_read": 0.125}} (cache_read and cache_write
    /// default to the input price). None is built in: prices change.
    #[arg(long, global = true, value_name = "FILE")]
    pub prices: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// 中文
    Zh,
    /// English
    En,
}

impl LangArg {
    /// The language `--lang` asks for, else the environment's.
    pub fn chosen(asked: Option<LangArg>) -> crate::lang::Lang {
        use crate::lang::Lang;
        match asked {
            Some(LangArg::Zh) => Lang::Zh,
            Some(LangArg::En) => Lang::En,
            None => Lang::from_env(|name| std::env::var(name).ok()),
        }
    }
}

/// `--max-size`: bytes, or a number with KiB, MiB or GiB (K, M, G too).
pub(super) fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size: write bytes, or e.g. 500MiB or 2GiB"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1 << 10,
        "m" | "mib" | "mb" => 1 << 20,
        "g" | "gib" | "gb" => 1 << 30,
        other => return Err(format!("`{other}` is not a unit: use KiB, MiB or GiB")),
    };
    number
        .checked_mul(scale)
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("`{text}` is not a size loopstep can use"))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the teaching screen on a run (this is what `loopstep` alone does).
    Play(commands::Play),
    /// Replay a run headless and print each step, ending with its result.
    Run(commands::Run),
    /// Present a lesson: its scenes one after another, each a run under
    /// the lesson's settings, with its title card and remarks.
    #[command(
        after_help = "Keys: ] or PageDown the next scene, [ or PageUp the previous, r the \
            lesson's settings again; inside a scene, the run screen's keys (? lists them).\n\n\
            Examples:\n  \
            loopstep present lessons/seed-000.toml\n  \
            loopstep validate lessons/seed-000.toml   every run loads, every setting and step exists"
    )]
    Present(commands::Present),
    /// The teacher's notes on a second terminal: for the step a presenter
    /// is on (`present LESSON --publish-notes`), its notes and what comes
    /// next; it waits for the presenter and follows it from then on.
    #[cfg(unix)]
    Notes(commands::Notes),
    /// Two runs side by side, or one run under two settings, stepping
    /// together; marks the first step where they part (`v` goes there).
    #[command(
        long_about = "Two runs side by side, or one run under two settings, stepping together.\n\n\
            Both columns show the loop diagram, `messages`, the turn budget and the caption at \
            the same step number; a side whose run has ended stays on its last step. The row \
            under the title names the first step where the two replays differ, and `v` goes \
            there. The loop flags set both sides; --left-… and --right-… set one side only.\n\n\
            Keys: →/← step, n/p (]/[) turn, Home/End, v first divergence, L 中文, t theme, \
            ? help, q quit. With --format, or when standard output is no terminal, it prints \
            instead: text (a line a side, then the divergence) or JSON.",
        after_help = "Examples:\n  \
            loopstep compare aurora-run aurora-run --right-max-turns 2   the same run, a budget of 2 on the right\n  \
            loopstep compare aurora-run aurora-run --right-check lesson  the lesson's check against production's\n  \
            loopstep compare aurora-run aurora-run --right-mistake drop-results   the correct loop against a mistake\n  \
            loopstep compare a.json b.json --format json                 where two recordings part, as JSON"
    )]
    Compare(commands::Compare),
    /// List the built-in runs.
    List,
    /// Write a run, step by step with the screen's captions, as a handout
    /// for students: Markdown, one self-contained HTML page, or an
    /// asciicast recording of the screen playing it.
    Export(commands::Export),
    /// Print a completion script for a shell, e.g. (the folder made first)
    /// `mkdir -p ~/.local/share/bash-completion/completions && loopstep completions bash > ~/.local/share/bash-completion/completions/loopstep`,
    /// `mkdir -p ~/.zfunc && loopstep completions zsh > ~/.zfunc/_loopstep`,
    /// `mkdir -p ~/.config/fish/completions && loopstep completions fish > ~/.config/fish/completions/loopstep.fish`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Check a transcript or recording and report every problem found in it.
    Validate(commands::Validate),
    /// Turn a recording (conversation, exchange log, Claude Code session)
    /// into loopstep's own transcript format, to edit or share (with
    /// --redact before sharing).
    Import(commands::Import),
    /// How many turns an agent needs: every run in the files and folders
    /// given, replayed once, and for each max_turns how many answer, run
    /// out of budget (None), halt or end otherwise.
    #[command(after_help = "Examples:\n  \
            loopstep sweep runs/                       every run in a folder, the curve in the terminal\n  \
            loopstep sweep runs/ --max-turns 1..50     the budgets 1 to 50\n  \
            loopstep sweep runs/ --format json         for tools: every budget and every run's ending")]
    Sweep(commands::Sweep),
    /// One row per step of every run, as CSV, JSON Lines or Parquet (by
    /// OUT's extension), for DuckDB, Spark or a spreadsheet.
    Table(commands::Table),
    /// Run your own agent through a recording proxy and replay what it did:
    /// `loopstep record -- python agent.py`.
    #[cfg(feature = "record")]
    #[command(
        long_about = "Run your own agent through a recording proxy, then replay what it did.\n\n\
            record listens on 127.0.0.1 and starts COMMAND with OPENAI_BASE_URL, \
            ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL and AWS_ENDPOINT_URL_BEDROCK_RUNTIME \
            pointing at itself, so the official SDKs (and any client that reads them) send their \
            calls through it, unchanged. Each request goes on to the API its key belongs to \
            (OpenAI's, Anthropic's or Gemini's), or to --upstream (Bedrock's calls need \
            --upstream bedrock=URL); each response comes back byte \
            for byte, streams as they arrive. Every call is appended to OUT as it ends, as an \
            exchange log that loopstep replays like any recording. Keys never reach OUT: \
            headers are not written, and bodies are redacted unless --no-redact. The proxy \
            listens on loopback only. record ends with COMMAND's exit code; without COMMAND it \
            prints the URLs to use as base_url and records until Ctrl-C.",
        after_help = "Examples:\n  \
            loopstep record -- python agent.py                              OpenAI, Anthropic or Gemini, by the key it sends\n  \
            loopstep record -- python tests/fixtures/agents/get_today_openai_sdk.py   seed 001's loop, in this repository\n  \
            loopstep record --upstream https://api.deepseek.com -- uv run python chapters/01-agent-loop/code.py\n  \
            loopstep record -o mine.jsonl                                   record until Ctrl-C; point base_url at the URL it prints\n  \
            loopstep mine.jsonl                                             replay it"
    )]
    Record(commands::Record),
}

/// Flags that set up the loop, shared by the commands that replay.
#[derive(Debug, Default, Args)]
pub struct LoopFlags {
    /// The turn budget: how many model calls the loop may make [default: the run's own].
    #[arg(long, value_name = "N", value_parser = parse_max_turns)]
    pub max_turns: Option<NonZeroU32>,
    /// How the loop reads the stop reason: `lesson` treats everything but a tool
    /// request as the answer; `production` handles each stop reason on its own.
    #[arg(long, value_enum, default_value_t = Check::Production)]
    pub check: Check,
    /// Make the loop commit one of the lessons' common mistakes on purpose,
    /// to see what it breaks.
    #[arg(long, value_enum, value_name = "NAME")]
    pub mistake: Option<MistakeArg>,
    /// Tell the run in this API's words: its stop reasons, the JSON on the
    /// wire and the request rules; the replay is the same loop [default:
    /// the API it was recorded in].
    #[arg(long, value_enum, value_name = "API")]
    pub dialect: Option<DialectArg>,
}

/// The APIs a run can be told in, for `--dialect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// Anthropic's Messages API: stop_reason, tool_use / tool_result blocks.
    AnthropicMessages,
    /// OpenAI Chat Completions (and DeepSeek): finish_reason, tool_calls,
    /// role "tool" messages.
    OpenaiChat,
    /// OpenAI Responses: status, function_call / function_call_output items.
    OpenaiResponses,
    /// Google's Gemini API: finishReason, functionCall / functionResponse parts.
    Gemini,
    /// Amazon Bedrock's Converse API: stopReason, toolUse / toolResult blocks.
    BedrockConverse,
}

impl DialectArg {
    pub(super) fn dialect(self) -> Dialect {
        match self {
            DialectArg::AnthropicMessages => Dialect::AnthropicMessages,
            DialectArg::OpenaiChat => Dialect::OpenaiChat,
            DialectArg::OpenaiResponses => Dialect::OpenaiResponses,
            DialectArg::Gemini => Dialect::Gemini,
            DialectArg::BedrockConverse => Dialect::BedrockConverse,
        }
    }
}

/// `--redact`, for the commands that show or write a run as recorded
/// unless told otherwise.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RedactFlag {
    /// Replace API keys, tokens, passwords and private keys in every text
    /// with a marker of their kind ([redacted: openai key]): a best effort
    /// by pattern, not a guarantee.
    #[arg(long)]
    pub(super) redact: bool,
}

/// `compare`'s flags for one side: each overrides the loop flag of the
/// same name on that side only.
#[derive(Debug, Default, Args)]
pub struct SideFlags {
    /// The left run's turn budget.
    #[arg(long, value_name = "N", value_parser = parse_max_turns)]
    pub(super) left_max_turns: Option<NonZeroU32>,
    /// The right run's turn budget.
    #[arg(long, value_name = "N", value_parser = parse_max_turns)]
    pub(super) right_max_turns: Option<NonZeroU32>,
    /// The left run's check.
    #[arg(long, value_enum, value_name = "CHECK")]
    pub(super) left_check: Option<Check>,
    /// The right run's check.
    #[arg(long, value_enum, value_name = "CHECK")]
    pub(super) right_check: Option<Check>,
    /// The left run's common mistake.
    #[arg(long, value_enum, value_name = "NAME")]
    pub(super) left_mistake: Option<MistakeArg>,
    /// The right run's common mistake.
    #[arg(long, value_enum, value_name = "NAME")]
    pub(super) right_mistake: Option<MistakeArg>,
    /// The API the left run is told in.
    #[arg(long, value_enum, value_name = "API")]
    pub(super) left_dialect: Option<DialectArg>,
    /// The API the right run is told in: the same run in two APIs.
    #[arg(long, value_enum, value_name = "API")]
    pub(super) right_dialect: Option<DialectArg>,
}

impl SideFlags {
    /// The loop flags of each side: the shared ones, overridden where a
    /// side has its own.
    pub(super) fn split(&self, shared: &LoopFlags) -> [LoopFlags; 2] {
        let side =
            |max_turns: Option<NonZeroU32>, check: Option<Check>, mistake, dialect| LoopFlags {
                max_turns: max_turns.or(shared.max_turns),
                check: check.unwrap_or(shared.check),
                mistake: Option::or(mistake, shared.mistake),
                dialect: Option::or(dialect, shared.dialect),
            };
        [
            side(
                self.left_max_turns,
                self.left_check,
                self.left_mistake,
                self.left_dialect,
            ),
            side(
                self.right_max_turns,
                self.right_check,
                self.right_mistake,
                self.right_dialect,
            ),
        ]
    }
}

/// The common mistakes, for `--mistake`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MistakeArg {
    /// Run the tools but never append their results.
    DropResults,
    /// Do not save the model's own tool request into messages.
    ForgetRequest,
    /// Append the tool results before the model's own request.
    WrongOrder,
    /// Send parallel results as separate messages.
    SplitResults,
    /// Stop when the reply has text, without reading the stop reason.
    StopOnText,
    /// No max_turns: only the engine's safety cap stops the loop.
    NoBudget,
    /// Append the tool results but lose one of them.
    DropOneResult,
    /// Run the tools a reply asks for before reading its stop reason.
    DispatchBeforeCheck,
    /// Follow a plan written for the task (one round of tools, then answer)
    /// instead of the model's stop reason.
    HardCodedPlan,
}

impl MistakeArg {
    pub(super) fn mistake(self) -> Mistake {
        match self {
            MistakeArg::DropResults => Mistake::DropResults,
            MistakeArg::ForgetRequest => Mistake::ForgetRequest,
            MistakeArg::WrongOrder => Mistake::WrongOrder,
            MistakeArg::SplitResults => Mistake::SplitResults,
            MistakeArg::StopOnText => Mistake::StopOnText,
            MistakeArg::NoBudget => Mistake::NoBudget,
            MistakeArg::DropOneResult => Mistake::DropOneResult,
            MistakeArg::DispatchBeforeCheck => Mistake::DispatchBeforeCheck,
            MistakeArg::HardCodedPlan => Mistake::HardCodedPlan,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HandoutFormat {
    /// A Markdown text: each step's heading, line and caption.
    Markdown,
    /// One HTML page that needs no network: the loop diagram at each step,
    /// ←/→ or j/k step through it.
    Html,
    /// An asciicast v2 recording of the screen playing the run by itself,
    /// a step every 1.5 s, for the asciinema player.
    Cast,
}

impl HandoutFormat {
    /// The format OUT's extension names; Markdown for any other, and for
    /// standard output.
    pub(super) fn of_path(path: &Path) -> HandoutFormat {
        let extension = path.extension().and_then(|e| e.to_str());
        match extension.map(str::to_ascii_lowercase).as_deref() {
            Some("html" | "htm") => HandoutFormat::Html,
            Some("cast") => HandoutFormat::Cast,
            _ => HandoutFormat::Markdown,
        }
    }
}

/// The recording formats, for `--from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromFormat {
    /// loopstep's own transcript.
    Native,
    /// A messages list (Anthropic or OpenAI shape).
    Conversation,
    /// Request/response pairs (Anthropic, OpenAI Chat and Responses,
    /// Gemini, Bedrock Converse).
    Exchanges,
    /// A Claude Code session file.
    ClaudeCode,
    /// A SWE-agent or mini-swe-agent trajectory.
    Trajectory,
    /// A Codex CLI session rollout.
    Codex,
    /// What `codex exec --json` prints.
    CodexExec,
    /// A Gemini CLI chat session (.json or .jsonl).
    GeminiCli,
    /// An OpenHands trajectory.
    #[value(name = "openhands")]
    OpenHands,
    /// An Inspect AI eval log (.json).
    Inspect,
    /// A VCR cassette in YAML (vcrpy, pytest-recording).
    Cassette,
    /// The server-sent events of one streamed response.
    Events,
    /// aider's chat history (.aider.chat.history.md).
    Aider,
    /// A Cline or Roo Code task (its folder, or api_conversation_history.json),
    /// or a Cline 4 session (its folder, or <sessionId>.messages.json).
    Cline,
    /// aider's LLM history (--llm-history-file).
    AiderLlm,
}

impl FromFormat {
    pub(super) fn format(self) -> SourceFormat {
        match self {
            FromFormat::Native => SourceFormat::Native,
            FromFormat::Conversation => SourceFormat::Conversation,
            FromFormat::Exchanges => SourceFormat::Exchanges,
            FromFormat::ClaudeCode => SourceFormat::ClaudeCode,
            FromFormat::Trajectory => SourceFormat::Trajectory,
            FromFormat::Codex => SourceFormat::Codex,
            FromFormat::CodexExec => SourceFormat::CodexExec,
            FromFormat::GeminiCli => SourceFormat::GeminiCli,
            FromFormat::OpenHands => SourceFormat::OpenHands,
            FromFormat::Inspect => SourceFormat::Inspect,
            FromFormat::Cassette => SourceFormat::Cassette,
            FromFormat::Events => SourceFormat::Events,
            FromFormat::Aider => SourceFormat::AiderChat,
            FromFormat::Cline => SourceFormat::Cline,
            FromFormat::AiderLlm => SourceFormat::AiderLlm,
        }
    }
}

/// How the screen opens: for a class, as the teacher prepared it.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct ScreenFlags {
    /// Open playing the run by itself, a phase every 1.5 s (`a` pauses,
    /// `<` and `>` change the speed).
    #[arg(long)]
    pub(super) autoplay: bool,
    /// Open on this step (1-based), as a teacher prepared it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) step: Option<u32>,
    /// Open in quiz mode: the class guesses each check before it shows.
    #[arg(long)]
    pub(super) quiz: bool,
    /// Open with a lens on: `react` names each step's Thought, Action,
    /// Observation or Finish (`R` toggles it).
    #[arg(long, value_enum)]
    pub(super) lens: Option<Lens>,
    /// Colours: dark, light for a bright room, high-contrast for a
    /// projector (`t` cycles). NO_COLOR set in the environment draws
    /// without colour whatever the theme.
    #[arg(long, value_enum, default_value_t)]
    pub(super) theme: Theme,
    /// Leave the mouse to the terminal, to select text without holding
    /// Shift; the timeline then takes no clicks.
    #[arg(long)]
    pub(super) no_mouse: bool,
}

/// Another way to read the same steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lens {
    /// ReAct's Thought / Action / Observation / Finish.
    React,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Check {
    Lesson,
    #[default]
    Production,
}

pub(super) fn parse_max_turns(text: &str) -> Result<NonZeroU32, TurnsProblem> {
    let n: i128 = text
        .trim()
        .parse()
        .map_err(|_| TurnsProblem::NotANumber(text.to_owned()))?;
    if n < 1 {
        return Err(TurnsProblem::BelowOne(n));
    }
    u32::try_from(n)
        .ok()
        .filter(|n| *n <= MAX_TURNS)
        .and_then(NonZeroU32::new)
        .ok_or(TurnsProblem::TooLarge(n))
}
