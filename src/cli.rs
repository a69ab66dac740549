//! The command line: subcommands, flags, and what each exit code means.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::compare;
use crate::engine::{CheckPolicy, Config, MAX_TURNS, Mistake, Trace};
use crate::narrate::Lang;
use crate::prices::Prices;
use crate::redact;
use crate::report;
use crate::text::sanitize;
use crate::transcript::{
    BUILTIN_NAMES, DEFAULT_MAX_SIZE, Format as SourceFormat, LoadError, Localized, Opening, Source,
    Transcript, builtin_in, ensure_exists, nearest_names, open_both, open_in,
};
use crate::tui;
use crate::tui::handout::{self, Handout, ScreenSize};
use crate::tui::theme::Theme;

/// The run `loopstep` opens with no arguments: the multi-step lesson.
pub const DEFAULT_RUN: &str = "aurora-run";

const EXAMPLES: &str = "\
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

/// What every command shares: the language, how far a file may go, and
/// the price list, if one was given.
#[derive(Debug, Clone)]
pub struct Globals {
    pub lang: Lang,
    pub max_size: u64,
    pub prices: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// 中文
    Zh,
    /// English
    En,
}

impl Cli {
    /// The settings every command shares: the language asked for, else the
    /// environment's; the size limit asked for, else the default.
    pub fn globals(&self) -> Globals {
        let lang = match self.lang {
            Some(LangArg::Zh) => Lang::Zh,
            Some(LangArg::En) => Lang::En,
            None => Lang::from_env(|name| std::env::var(name).ok()),
        };
        Globals {
            lang,
            max_size: self.max_size.unwrap_or(DEFAULT_MAX_SIZE),
            prices: self.prices.clone(),
        }
    }
}

impl Globals {
    /// The price list, read; a list that is not one is bad input (exit 2).
    fn prices(&self) -> Result<Option<Prices>, Failure> {
        self.prices
            .as_deref()
            .map(Prices::load)
            .transpose()
            .map_err(|e| Failure::Refused(format!("{e:#}")))
    }

    fn opening(&self, from: Option<FromFormat>) -> Opening<'static> {
        Opening {
            from: from.map(FromFormat::format),
            max_size: self.max_size,
            progress: None,
        }
    }
}

/// `--max-size`: bytes, or a number with KiB, MiB or GiB (K, M, G too).
fn parse_size(text: &str) -> Result<u64, String> {
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
    Play {
        /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
        #[arg(default_value = DEFAULT_RUN)]
        run: String,
        #[command(flatten)]
        loop_flags: LoopFlags,
        /// Read the file as this format instead of recognising it.
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
        #[command(flatten)]
        screen_flags: ScreenFlags,
        #[command(flatten)]
        redact: RedactFlag,
    },
    /// Replay a run headless and print each step, ending with its result.
    Run {
        /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
        run: String,
        #[command(flatten)]
        loop_flags: LoopFlags,
        /// How to print the trace.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Read the file as this format instead of recognising it.
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
        #[command(flatten)]
        redact: RedactFlag,
    },
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
            loopstep compare paris paris --right-mistake drop-results    the correct loop against a mistake\n  \
            loopstep compare a.json b.json --format json                 where two recordings part, as JSON"
    )]
    Compare {
        /// The left run: a built-in run's name, or a transcript or recording's path.
        left: String,
        /// The right run: the same as the left, or another.
        right: String,
        #[command(flatten)]
        loop_flags: LoopFlags,
        #[command(flatten)]
        sides: SideFlags,
        /// Print instead of opening the screen: text, or JSON with the
        /// first divergence [default: the screen, or text when standard
        /// output is no terminal].
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Read the files as this format instead of recognising it.
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
        /// Colours: dark, light for a bright room, high-contrast for a
        /// projector (`t` cycles). NO_COLOR set in the environment draws
        /// without colour whatever the theme.
        #[arg(long, value_enum, default_value_t)]
        theme: Theme,
    },
    /// List the built-in runs.
    List,
    /// Write a run, step by step with the screen's captions, as a handout
    /// for students: Markdown, one self-contained HTML page, or an
    /// asciicast recording of the screen playing it.
    Export {
        /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
        run: String,
        #[command(flatten)]
        loop_flags: LoopFlags,
        /// Where to write it; `-` is standard output. Never the recording
        /// itself; an existing file only with --force.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// What to write [default: from OUT's extension: .html or .htm is
        /// html, .cast is cast, anything else (and `-`) markdown].
        #[arg(long, value_enum)]
        format: Option<HandoutFormat>,
        /// The recording's terminal, for the cast format [default: 80x24].
        #[arg(long, value_name = "COLSxROWS", value_parser = ScreenSize::parse)]
        size: Option<ScreenSize>,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
        /// Read the file as this format instead of recognising it.
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
        /// Keep API keys, tokens, passwords and private keys as recorded.
        /// Without it they are replaced by a marker of their kind
        /// ([redacted: openai key]), since handouts get shared.
        #[arg(long)]
        no_redact: bool,
    },
    /// Print a completion script for a shell, e.g.
    /// `loopstep completions bash > ~/.local/share/bash-completion/completions/loopstep`,
    /// `loopstep completions zsh > ~/.zfunc/_loopstep`,
    /// `loopstep completions fish > ~/.config/fish/completions/loopstep.fish`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Check a transcript or recording and report every problem found in it.
    Validate {
        /// The path of a transcript file (or a built-in run's name).
        path: String,
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
    },
    /// Turn a recording (conversation, exchange log, Claude Code session)
    /// into loopstep's own transcript format, to edit or share (with
    /// --redact before sharing).
    Import {
        /// The recording to read.
        file: String,
        /// Where to write the transcript [default: standard output]. Never
        /// the recording itself; an existing file only with --force.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Replace OUT if it exists.
        #[arg(long, requires = "output")]
        force: bool,
        #[arg(long, value_enum)]
        from: Option<FromFormat>,
        #[command(flatten)]
        redact: RedactFlag,
    },
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
}

/// `--redact`, for the commands that show or write a run as recorded
/// unless told otherwise.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RedactFlag {
    /// Replace API keys, tokens, passwords and private keys in every text
    /// with a marker of their kind ([redacted: openai key]): a best effort
    /// by pattern, not a guarantee.
    #[arg(long)]
    redact: bool,
}

/// `compare`'s flags for one side: each overrides the loop flag of the
/// same name on that side only.
#[derive(Debug, Default, Args)]
pub struct SideFlags {
    /// The left run's turn budget.
    #[arg(long, value_name = "N", value_parser = parse_max_turns)]
    left_max_turns: Option<NonZeroU32>,
    /// The right run's turn budget.
    #[arg(long, value_name = "N", value_parser = parse_max_turns)]
    right_max_turns: Option<NonZeroU32>,
    /// The left run's check.
    #[arg(long, value_enum, value_name = "CHECK")]
    left_check: Option<Check>,
    /// The right run's check.
    #[arg(long, value_enum, value_name = "CHECK")]
    right_check: Option<Check>,
    /// The left run's common mistake.
    #[arg(long, value_enum, value_name = "NAME")]
    left_mistake: Option<MistakeArg>,
    /// The right run's common mistake.
    #[arg(long, value_enum, value_name = "NAME")]
    right_mistake: Option<MistakeArg>,
}

impl SideFlags {
    /// The loop flags of each side: the shared ones, overridden where a
    /// side has its own.
    fn split(&self, shared: &LoopFlags) -> [LoopFlags; 2] {
        let side = |max_turns: Option<NonZeroU32>, check: Option<Check>, mistake| LoopFlags {
            max_turns: max_turns.or(shared.max_turns),
            check: check.unwrap_or(shared.check),
            mistake: Option::or(mistake, shared.mistake),
        };
        [
            side(self.left_max_turns, self.left_check, self.left_mistake),
            side(self.right_max_turns, self.right_check, self.right_mistake),
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
}

impl MistakeArg {
    fn mistake(self) -> Mistake {
        match self {
            MistakeArg::DropResults => Mistake::DropResults,
            MistakeArg::ForgetRequest => Mistake::ForgetRequest,
            MistakeArg::WrongOrder => Mistake::WrongOrder,
            MistakeArg::SplitResults => Mistake::SplitResults,
            MistakeArg::StopOnText => Mistake::StopOnText,
            MistakeArg::NoBudget => Mistake::NoBudget,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
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
    fn of_path(path: &Path) -> HandoutFormat {
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
    /// Request/response pairs (Anthropic, OpenAI Chat, OpenAI Responses).
    Exchanges,
    /// A Claude Code session file.
    ClaudeCode,
    /// A SWE-agent or mini-swe-agent trajectory.
    Trajectory,
    /// A Codex CLI session rollout.
    Codex,
    /// An OpenHands trajectory.
    #[value(name = "openhands")]
    OpenHands,
    /// An Inspect AI eval log (.json).
    Inspect,
    /// A VCR cassette in YAML (vcrpy, pytest-recording).
    Cassette,
    /// The server-sent events of one streamed response.
    Events,
}

impl FromFormat {
    fn format(self) -> SourceFormat {
        match self {
            FromFormat::Native => SourceFormat::Native,
            FromFormat::Conversation => SourceFormat::Conversation,
            FromFormat::Exchanges => SourceFormat::Exchanges,
            FromFormat::ClaudeCode => SourceFormat::ClaudeCode,
            FromFormat::Trajectory => SourceFormat::Trajectory,
            FromFormat::Codex => SourceFormat::Codex,
            FromFormat::OpenHands => SourceFormat::OpenHands,
            FromFormat::Inspect => SourceFormat::Inspect,
            FromFormat::Cassette => SourceFormat::Cassette,
            FromFormat::Events => SourceFormat::Events,
        }
    }
}

/// How the screen opens: for a class, as the teacher prepared it.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct ScreenFlags {
    /// Open playing the run by itself, a phase every 1.5 s (`a` pauses,
    /// `<` and `>` change the speed).
    #[arg(long)]
    autoplay: bool,
    /// Open on this step (1-based), as a teacher prepared it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    step: Option<u32>,
    /// Open in quiz mode: the class guesses each check before it shows.
    #[arg(long)]
    quiz: bool,
    /// Colours: dark, light for a bright room, high-contrast for a
    /// projector (`t` cycles). NO_COLOR set in the environment draws
    /// without colour whatever the theme.
    #[arg(long, value_enum, default_value_t)]
    theme: Theme,
    /// Leave the mouse to the terminal, to select text without holding
    /// Shift; the timeline then takes no clicks.
    #[arg(long)]
    no_mouse: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Check {
    Lesson,
    #[default]
    Production,
}

impl LoopFlags {
    pub fn config(&self, transcript: &Transcript) -> Config {
        Config {
            max_turns: self.max_turns.unwrap_or(transcript.max_turns),
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            ..transcript.default_config()
        }
    }

    fn policy(&self) -> CheckPolicy {
        match self.check {
            Check::Lesson => CheckPolicy::Lesson,
            Check::Production => CheckPolicy::Production,
        }
    }

    fn settings(&self, lang: Lang, screen: ScreenFlags) -> tui::Settings {
        tui::Settings {
            lang,
            autoplay: screen.autoplay,
            step: screen.step.map(|n| n as usize),
            quiz: screen.quiz,
            theme: screen.theme,
            mouse: !screen.no_mouse,
            max_turns: self.max_turns,
            check: self.policy(),
            mistake: self.mistake.map(MistakeArg::mistake),
            // https://no-color.org: present and not empty.
            monochrome: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            redacted: false,
        }
    }
}

/// `loopstep paris` and `loopstep --max-turns 2` mean `loopstep play …`:
/// a run name, a file or a loop flag where a command would be.
pub fn with_play_implied(mut args: Vec<OsString>) -> Vec<OsString> {
    // Global options (`--lang zh`, `--max-size 2GiB`) may come first; what
    // follows them decides.
    let mut at = 1;
    while let Some(arg) = args.get(at).and_then(|a| a.to_str()) {
        at += match arg {
            "--lang" | "--max-size" => 2,
            a if a.starts_with("--lang=") || a.starts_with("--max-size=") => 1,
            _ => break,
        };
    }
    let Some(first) = args.get(at).and_then(|a| a.to_str()) else {
        return args;
    };
    let flag = first.split('=').next().unwrap_or(first);
    let implies_play = if first.starts_with('-') {
        [
            "--max-turns",
            "--check",
            "--mistake",
            "--from",
            "--autoplay",
            "--step",
            "--quiz",
            "--theme",
            "--no-mouse",
            "--redact",
        ]
        .contains(&flag)
    } else {
        let mut command = <Cli as clap::CommandFactory>::command();
        command.build(); // adds `help`
        let commands: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        // A word that is no command is a run, unless it is a typo of a
        // command (clap then suggests the command); `play` says what a
        // misspelt run is nearest to.
        let mistyped_command = !nearest_names(first, &commands).is_empty()
            && nearest_names(first, &BUILTIN_NAMES).is_empty();
        !commands.contains(&first) && !mistyped_command
    };
    if implies_play {
        args.insert(at, "play".into());
    }
    args
}

/// The runs the screen can switch between, in both languages: the
/// built-ins, then the runs of the opened file if it is not one of them;
/// and the index of the one to open. With `redact`, secrets in them are
/// replaced as they load, so that nothing drawn or written holds one.
fn screen_runs(
    name_or_path: &str,
    how: &Opening,
    redact: bool,
) -> Result<(Vec<Localized>, usize), Failure> {
    let mut runs = Localized::builtins()?;
    let index = add_run(&mut runs, name_or_path, how)?;
    if redact {
        redact::runs(runs.iter_mut().flat_map(Localized::transcripts_mut));
    }
    Ok((runs, index))
}

/// A run or recording opened for `run` or `import`, its secrets replaced
/// with `--redact`.
fn open_redacted(
    name_or_path: &str,
    how: &Opening,
    lang: Lang,
    flag: RedactFlag,
) -> Result<Source, LoadError> {
    let mut source = open_in(name_or_path, how, lang)?;
    if flag.redact {
        redact::source(&mut source);
    }
    Ok(source)
}

/// The index of a built-in run in `runs`, or of the first run of a file,
/// added to them.
fn add_run(runs: &mut Vec<Localized>, name_or_path: &str, how: &Opening) -> Result<usize, Failure> {
    if let Some(index) = BUILTIN_NAMES.iter().position(|n| *n == name_or_path) {
        return Ok(index);
    }
    let index = runs.len();
    runs.extend(Localized::open(name_or_path, how)?);
    Ok(index)
}

/// The runs a compare screen opens: the built-ins, then the runs of each
/// file that is not one of them; and the index of each side's run (a
/// file's first).
fn compared_runs(
    [left, right]: [&str; 2],
    how: &Opening,
) -> Result<(Vec<Localized>, [usize; 2]), Failure> {
    let (mut runs, left_index) = screen_runs(left, how, false)?;
    let right_index = match right == left {
        true => left_index,
        false => add_run(&mut runs, right, how)?,
    };
    Ok((runs, [left_index, right_index]))
}

/// A side of `compare --format`: the first run of its source, replayed whole.
fn compared<'a>(
    source: &'a Source,
    flags: &LoopFlags,
    lang: Lang,
) -> Result<compare::Compared<'a>, Failure> {
    let transcript = source
        .runs
        .first()
        .ok_or_else(|| Failure::Refused("there is no run in it to compare".to_owned()))?;
    let trace = transcript.replay_in(flags.config(transcript), lang);
    Ok(compare::Compared { transcript, trace })
}

fn parse_max_turns(text: &str) -> Result<NonZeroU32, String> {
    let n: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number"))?;
    if n < 1 {
        return Err(format!(
            "must be at least 1 (the loop needs one model call), got {n}"
        ));
    }
    u32::try_from(n)
        .ok()
        .filter(|n| *n <= MAX_TURNS)
        .and_then(NonZeroU32::new)
        .ok_or_else(|| format!("{n} is too large: loopstep replays at most {MAX_TURNS} turns"))
}

/// Runs a command. Errors carry their exit code.
pub fn execute(command: Command, globals: Globals) -> Result<ExitCode, Failure> {
    let lang = globals.lang;
    // A price list given is read whatever the command: one that cannot be
    // read is bad input even where no cost is shown.
    let prices = globals.prices()?;
    match command {
        Command::Play {
            run,
            loop_flags,
            from,
            screen_flags,
            redact,
        } => {
            // A misspelt run fails here, before the screen takes the terminal.
            ensure_exists(&run)?;
            let how = globals.opening(from);
            let name = run.clone();
            let settings = tui::Settings {
                redacted: redact.redact,
                ..loop_flags.settings(lang, screen_flags)
            };
            tui::play(&run, (settings, prices), move |progress| {
                let how = Opening {
                    progress: Some(progress),
                    ..how
                };
                screen_runs(&name, &how, redact.redact)
            })??;
        }
        Command::Run {
            run,
            loop_flags,
            format,
            from,
            redact,
        } => {
            let source = open_redacted(&run, &globals.opening(from), lang, redact)?;
            let traces: Vec<Trace> = source
                .runs
                .iter()
                .map(|t| t.replay_in(loop_flags.config(t), lang))
                .collect();
            let prices = prices.as_ref();
            // A model the list does not name would just show no cost: say so.
            if let (Some(list), Some(path)) = (prices, &globals.prices) {
                let mut unpriced: Vec<&str> = source
                    .runs
                    .iter()
                    .map(|t| t.model.as_str())
                    .filter(|model| !list.knows(model))
                    .collect();
                unpriced.dedup();
                for model in unpriced {
                    eprintln!(
                        "loopstep: {} has no price for the model {}; its calls show no cost",
                        path.display(),
                        sanitize(model)
                    );
                }
            }
            match format {
                Format::Text => emit(&report::text(&source, &traces, (lang, prices)))?,
                Format::Json => write_json(&report::json(&source, &traces, prices))?,
            }
        }
        Command::Compare {
            left,
            right,
            loop_flags,
            sides,
            format,
            from,
            theme,
        } => {
            ensure_exists(&left)?;
            ensure_exists(&right)?;
            let [left_flags, right_flags] = sides.split(&loop_flags);
            let format = format.or_else(|| {
                let screen = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
                (!screen).then_some(Format::Text)
            });
            let how = globals.opening(from);
            let Some(format) = format else {
                let (runs, [left_index, right_index]) = compared_runs([&left, &right], &how)?;
                let screen = ScreenFlags {
                    theme,
                    ..ScreenFlags::default()
                };
                let settings = [
                    left_flags.settings(lang, screen),
                    right_flags.settings(lang, screen),
                ];
                tui::compare::play(
                    &runs,
                    [(left_index, settings[0]), (right_index, settings[1])],
                )?;
                return Ok(ExitCode::SUCCESS);
            };
            let (left_source, right_source) =
                (open_in(&left, &how, lang)?, open_in(&right, &how, lang)?);
            let (left, right) = (
                compared(&left_source, &left_flags, lang)?,
                compared(&right_source, &right_flags, lang)?,
            );
            match format {
                Format::Text => emit(&compare::text(&left, &right, lang))?,
                Format::Json => write_json(&compare::json(&left, &right))?,
            }
        }
        Command::Export {
            run,
            loop_flags,
            output,
            format,
            size,
            force,
            from,
            no_redact,
        } => {
            let format = format.unwrap_or_else(|| HandoutFormat::of_path(&output));
            if size.is_some() && format != HandoutFormat::Cast {
                return Err(Failure::Refused(format!(
                    "--size sets the recording's terminal, for the cast format (--format cast, \
                     or OUT ending in .cast); this export is {}",
                    format
                        .to_possible_value()
                        .map(|v| v.get_name().to_owned())
                        .unwrap_or_default()
                )));
            }
            let to_stdout = output.as_os_str() == "-";
            if !to_stdout {
                may_write(Path::new(&run), &output, force)?;
            }
            ensure_exists(&run)?;
            let (runs, index) = screen_runs(&run, &globals.opening(from), !no_redact)?;
            let settings = loop_flags.settings(lang, ScreenFlags::default());
            let mut app = tui::App::new(&runs, index, settings);
            let handout = match format {
                HandoutFormat::Markdown => handout::markdown(&Handout::of(&mut app)),
                HandoutFormat::Html => handout::html(&Handout::of(&mut app)),
                HandoutFormat::Cast => handout::cast(&mut app, size.unwrap_or_default())
                    .context("could not draw the recording")?,
            };
            if to_stdout {
                emit(&handout)?;
            } else {
                write_whole(&output, &handout)
                    .with_context(|| format!("could not write {}", output.display()))?;
                eprintln!("wrote {}", sanitize(&output.display().to_string()));
            }
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "loopstep", &mut script);
            emit(&String::from_utf8_lossy(&script))?;
        }
        Command::List => {
            let mut listing = String::new();
            for name in BUILTIN_NAMES {
                let transcript = builtin_in(name, lang).context("a built-in run is missing")??;
                listing.push_str(&format!("{name:<24} {}\n", transcript.description));
            }
            emit(&listing)?;
        }
        Command::Validate { path, from } => {
            // Read once (it may be a pipe); a transcript with texts in both
            // languages must hold in both.
            let (source, zh) = open_both(&path, &globals.opening(from))?;
            let source = match (lang, zh) {
                (Lang::Zh, Some(zh)) => Source { runs: zh, ..source },
                _ => source,
            };
            emit(&report::summary(&path, &source, lang))?;
        }
        Command::Import {
            file,
            output,
            force,
            from,
            redact,
        } => {
            // `-o -` is standard output, as for export.
            let output = output.filter(|out| out.as_os_str() != "-");
            if let Some(out) = &output {
                may_write(Path::new(&file), out, force)?;
            }
            let source = open_redacted(&file, &globals.opening(from), lang, redact)?;
            let native = crate::transcript::shared::native(&source.runs);
            match &output {
                Some(path) => {
                    let text = crate::text::inert_json(&native)
                        .context("could not turn the runs into JSON")?
                        + "\n";
                    write_whole(path, &text)
                        .with_context(|| format!("could not write {}", path.display()))?;
                    eprint!("{}", report::summary(&file, &source, lang));
                    eprintln!("wrote {}", sanitize(&path.display().to_string()));
                }
                None => write_json(&native)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses an output that is the input itself, or that exists without
/// `force`: an import is lossy, an export is no recording at all, and
/// neither must ever cost the user a recording.
fn may_write(input: &Path, output: &Path, force: bool) -> Result<(), Failure> {
    if !output.exists() {
        return Ok(());
    }
    if output.is_dir() {
        return Err(Failure::Refused(format!(
            "{} is a folder; give the name of a file to write",
            output.display()
        )));
    }
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same(input, output) {
        return Err(Failure::Refused(format!(
            "{} is the recording being read; write to another file",
            output.display()
        )));
    }
    if !force {
        return Err(Failure::Refused(format!(
            "{} exists; add --force to replace it",
            output.display()
        )));
    }
    Ok(())
}

/// Writes `text` to a file beside `path`, then renames it over `path`, so
/// that a failure leaves the old file whole and no half-written new one.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        // Nothing half-written stays behind; the write's own error is the one to report.
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Writes to standard output. A reader that went away (`| head`) is not an
/// error worth a message: the output was simply not wanted any more.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context("could not write to standard output"),
    }
}

/// Writes a JSON report to standard output as it is serialized, so that a
/// large report is never held whole in memory; inert in a terminal.
fn write_json(report: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::{BufWriter, ErrorKind, Write};
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = crate::text::write_inert_json(&mut out, report)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        result => result.context("could not write the JSON report"),
    }
}

/// A failed command: bad input or a refused request (exit 2), or anything
/// else (exit 1).
#[derive(Debug)]
pub enum Failure {
    BadInput(LoadError),
    /// What was asked would do harm (writing over a recording, say), or
    /// flags that do not go together.
    Refused(String),
    Other(anyhow::Error),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::BadInput(_) | Failure::Refused(_) => ExitCode::from(2),
            Failure::Other(_) => ExitCode::from(1),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BadInput(e) => write!(f, "{e}"),
            Failure::Refused(why) => write!(f, "{why}"),
            Failure::Other(e) => write!(f, "{e:#}"),
        }
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure::BadInput(e)
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn implied(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        with_play_implied(args)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn a_run_name_or_loop_flag_alone_means_play() {
        assert_eq!(
            implied(&["loopstep", "paris"]),
            ["loopstep", "play", "paris"]
        );
        assert_eq!(
            implied(&["loopstep", "--max-turns=2"]),
            ["loopstep", "play", "--max-turns=2"]
        );
        assert_eq!(
            implied(&["loopstep", "run", "paris"]),
            ["loopstep", "run", "paris"]
        );
        assert_eq!(implied(&["loopstep", "list"]), ["loopstep", "list"]);
        assert_eq!(implied(&["loopstep", "--help"]), ["loopstep", "--help"]);
        // A typo of a command: left for clap to explain (and suggest `list`).
        assert_eq!(implied(&["loopstep", "lst"]), ["loopstep", "lst"]);
        assert_eq!(implied(&["loopstep", "help"]), ["loopstep", "help"]);
        // Any other word is a run: `play` names the runs nearest to it.
        assert_eq!(
            implied(&["loopstep", "pariss"]),
            ["loopstep", "play", "pariss"]
        );
        assert_eq!(implied(&["loopstep"]), ["loopstep"]);
        assert_eq!(
            implied(&["loopstep", "--redact", "log.jsonl"]),
            ["loopstep", "play", "--redact", "log.jsonl"]
        );
        assert_eq!(
            implied(&["loopstep", "--lang", "zh", "paris"]),
            ["loopstep", "--lang", "zh", "play", "paris"]
        );
        assert_eq!(
            implied(&["loopstep", "--lang=en", "--max-turns", "2"]),
            ["loopstep", "--lang=en", "play", "--max-turns", "2"]
        );
        assert_eq!(
            implied(&["loopstep", "--max-size", "2GiB", "--lang", "zh", "paris"]),
            [
                "loopstep",
                "--max-size",
                "2GiB",
                "--lang",
                "zh",
                "play",
                "paris"
            ]
        );
    }
}
