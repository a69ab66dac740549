//! What a command refused to do and why, in the reader's language: an
//! output it will not write, flags that do not go together, a price list
//! it cannot use.

use std::fmt;

use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::prices::{MOST_DOLLARS, PriceError, PriceProblem};
use crate::transcript::{Untold, shown_path};

/// A request a command refuses (exit 2); `shown` is the path as given,
/// made safe to print.
#[derive(Debug)]
pub enum Refusal {
    CannotLook {
        shown: String,
        error: String,
    },
    Folder {
        shown: String,
    },
    PartOfRecording {
        shown: String,
    },
    DanglingLink {
        shown: String,
        target: String,
    },
    Exists {
        shown: String,
    },
    NotWritable {
        shown: String,
    },
    /// `--size` on an export that is no terminal recording.
    SizeWithoutCast {
        format: String,
    },
    NothingToCompare,
    /// `export --notes` of a run: only a lesson has notes.
    NotesWithoutLesson,
    /// `--run N` past the runs a file holds.
    NoSuchRun {
        asked: usize,
        runs: usize,
    },
    /// A cast of more steps than a recording holds.
    CastTooLong {
        most: u32,
        minutes: u64,
    },
    Prices(PriceError),
    /// `--dialect` for a run with a reply that API could not send.
    Untold {
        run: String,
        api: &'static str,
        why: Untold,
    },
}

impl Say {
    pub fn refusal(self, refusal: &Refusal) -> String {
        match self.lang {
            Lang::En => refusal_en(refusal),
            Lang::Zh => refusal_zh(refusal),
        }
    }
}

fn refusal_en(refusal: &Refusal) -> String {
    match refusal {
        Refusal::CannotLook { shown, error } => format!("could not look at {shown}: {error}"),
        Refusal::Folder { shown } => {
            format!("{shown} is a folder; give the name of a file to write")
        }
        Refusal::PartOfRecording { shown } => {
            format!("{shown} is part of the recording being read; write outside it")
        }
        Refusal::DanglingLink { shown, target } => format!(
            "{shown} is a symbolic link to {target}, which does not exist; add --force to create it"
        ),
        Refusal::Exists { shown } => format!("{shown} exists; add --force to replace it"),
        Refusal::NotWritable { shown } => format!(
            "{shown} is neither a file, a FIFO nor a character device; give the name of a file \
             to write"
        ),
        Refusal::SizeWithoutCast { format } => format!(
            "--size sets the recording's terminal, for the cast format (--format cast, or OUT \
             ending in .cast); this export is {format}"
        ),
        Refusal::NothingToCompare => "there is no run in it to compare".into(),
        Refusal::NotesWithoutLesson => {
            "--notes adds a lesson's notes for the teacher; this is a run, not a lesson (.toml)"
                .into()
        }
        Refusal::NoSuchRun { asked, runs: 1 } => {
            format!("--run {asked} asks for a run the file does not have: it holds one run")
        }
        Refusal::NoSuchRun { asked, runs } => format!(
            "--run {asked} asks for a run the file does not have: it holds {runs}, counted from 1"
        ),
        Refusal::CastTooLong { most, minutes } => format!(
            "the run has more than {most} steps, which would play for over {minutes} minutes: \
             record part of it with --max-turns"
        ),
        Refusal::Prices(error) => prices_en(error),
        Refusal::Untold { run, api, why } => format!(
            "{run} cannot be told in {api}: {}; try another --dialect",
            untold_en(api, why)
        ),
    }
}

/// Why a run cannot be told in `api`, in English.
pub(super) fn untold_en(api: &str, why: &Untold) -> String {
    match why {
        Untold::Stop(stop) => format!("it stops with {stop}, which {api} has no word for"),
        Untold::PendingCall(stop) => format!(
            "a reply asks for a tool under {stop}, an answer's stop, and in {api} the calls \
             alone make a reply a tool request"
        ),
        Untold::CutCall(tool) => format!(
            "its call to `{tool}` was cut off before its arguments were whole, and {api} sends \
             a call's arguments as a JSON object"
        ),
    }
}

/// Why a run cannot be told in `api`, in Chinese.
pub(super) fn untold_zh(api: &str, why: &Untold) -> String {
    match why {
        Untold::Stop(stop) => format!("它以 {stop} 结束，而 {api} 没有对应的说法"),
        Untold::PendingCall(stop) => format!(
            "有一条回复在 {stop}（回答用的停止原因）下请求工具，而在 {api} 里，只要带着调用，回复就是工具请求"
        ),
        Untold::CutCall(tool) => format!(
            "它对 {tool} 的调用在参数写完之前就被截断了，而 {api} 总是把调用参数作为 JSON 对象发送"
        ),
    }
}

fn refusal_zh(refusal: &Refusal) -> String {
    match refusal {
        Refusal::CannotLook { shown, error } => format!("无法查看 {shown}：{error}"),
        Refusal::Folder { shown } => format!("{shown} 是文件夹；请给出要写入的文件名"),
        Refusal::PartOfRecording { shown } => {
            format!("{shown} 属于正在读取的记录；请写到它之外")
        }
        Refusal::DanglingLink { shown, target } => {
            format!("{shown} 是指向 {target} 的符号链接，而目标不存在；加上 --force 才会创建它")
        }
        Refusal::Exists { shown } => format!("{shown} 已存在；加上 --force 才会替换它"),
        Refusal::NotWritable { shown } => {
            format!("{shown} 既不是文件，也不是 FIFO 或字符设备；请给出要写入的文件名")
        }
        Refusal::SizeWithoutCast { format } => format!(
            "--size 设定的是录像的终端尺寸，只用于 cast 格式（--format cast，或以 .cast 结尾的 \
             OUT）；这次导出的格式是 {format}"
        ),
        Refusal::NothingToCompare => "其中没有可以比较的记录".into(),
        Refusal::NotesWithoutLesson => {
            "--notes 用来加入课程里给老师的讲稿；这是一条运行记录，不是课程文件（.toml）".into()
        }
        Refusal::NoSuchRun { asked, runs } => {
            format!("--run {asked} 要的运行记录不存在：文件里共有 {runs} 条，从 1 开始数")
        }
        Refusal::CastTooLong { most, minutes } => format!(
            "这条记录超过 {most} 步，播放要超过 {minutes} 分钟：用 --max-turns 只录下其中一段"
        ),
        Refusal::Prices(error) => prices_zh(error),
        Refusal::Untold { run, api, why } => {
            format!(
                "{run} 无法用 {api} 来讲：{}；请换一个 --dialect",
                untold_zh(api, why)
            )
        }
    }
}

/// A number as a person reads it: a huge one in exponent form, not with
/// three hundred digits.
fn number(value: f64) -> String {
    match value.abs() >= 1e9 {
        true => format!("{value:e}"),
        false => value.to_string(),
    }
}

const PRICE_SHAPE_EN: &str = "expected a JSON object of model names to {\"input\": …, \
                              \"output\": …} in dollars per million tokens";

fn prices_en(error: &PriceError) -> String {
    match error {
        PriceError::Unreadable { path, error } => {
            format!("could not read the price list {}: {error}", path.display())
        }
        PriceError::TooLarge { path } => format!(
            "{} is larger than 1 MiB, far more than a price list needs (one for every model \
             is a few kilobytes), so it is not read",
            shown_path(path)
        ),
        PriceError::NotUtf8 { path } => format!(
            "could not read the price list {}: it is not UTF-8 text",
            path.display()
        ),
        PriceError::Invalid { path, why } => {
            let why = match why {
                PriceProblem::Shape(words) => format!("{PRICE_SHAPE_EN}: {words}"),
                PriceProblem::NotDollars { model, value } => {
                    format!(
                        "the price of {model} must be a number of dollars per million tokens, \
                         from 0 to {MOST_DOLLARS:e}, not {}",
                        number(*value)
                    )
                }
            };
            format!("{} is not a price list: {why}", path.display())
        }
        PriceError::Unopened { path, why } => {
            let why = Say::new(Lang::En, Dialect::default()).unopened(*why);
            format!("the price list {} {why}", shown_path(path))
        }
    }
}

fn prices_zh(error: &PriceError) -> String {
    match error {
        PriceError::Unreadable { path, error } => {
            format!("无法读取价格表 {}：{error}", path.display())
        }
        PriceError::TooLarge { path } => format!(
            "{} 超过 1 MiB，远超价格表所需（列出所有模型的价格也只有几 KB），所以不读取它",
            shown_path(path)
        ),
        PriceError::NotUtf8 { path } => {
            format!("无法读取价格表 {}：它不是 UTF-8 文本", path.display())
        }
        PriceError::Invalid { path, why } => {
            let why = match why {
                PriceProblem::Shape(words) => format!(
                    "应为一个 JSON 对象，键是模型名，值是 {{\"input\": …, \"output\": …}}，\
                     单位为每百万 token 的美元价格：{words}"
                ),
                PriceProblem::NotDollars { model, value } => {
                    format!(
                        "{model} 的价格必须是每百万 token 的美元数，在 0 到 {MOST_DOLLARS:e} 之间，而不是 {}",
                        number(*value)
                    )
                }
            };
            format!("{} 不是价格表：{why}", path.display())
        }
        PriceError::Unopened { path, why } => format!(
            "价格表 {} {}",
            shown_path(path),
            Say::new(Lang::Zh, Dialect::default()).unopened(*why)
        ),
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).refusal(self))
    }
}

/// What a command could not do with the system (the terminal, a file);
/// carried as the context of the error that says why.
#[derive(Debug)]
pub enum Trouble {
    /// The screen was asked for where there is no terminal; `what` is the
    /// run, for the `run` command that prints it instead.
    NeedsTerminal {
        what: String,
    },
    ReadTerminal,
    WriteTerminal,
    SetUpTerminal,
    Mouse,
    Write {
        shown: String,
    },
    WriteStdout,
    WriteJson,
    DrawRecording,
    /// `record`: the recording could not be created.
    CreateRecording {
        shown: String,
    },
    /// `record`: nothing could listen at this address.
    Listen {
        address: String,
    },
    /// `record`: the agent's command could not start.
    StartCommand {
        command: String,
    },
    /// `record`: the proxy's runtime could not start.
    StartProxy,
    /// `present --publish-notes`: the notes' socket could not be opened.
    PublishNotes {
        shown: String,
    },
}

impl Say {
    pub fn trouble(self, trouble: &Trouble) -> String {
        match (self.lang, trouble) {
            (Lang::En, Trouble::NeedsTerminal { what }) => format!(
                "the screen needs an interactive terminal; for plain text output use \
                 `loopstep run {what}`"
            ),
            (Lang::Zh, Trouble::NeedsTerminal { what }) => {
                format!("屏幕界面需要交互式终端；要输出纯文本，请用 `loopstep run {what}`")
            }
            (Lang::En, Trouble::ReadTerminal) => "could not read from the terminal".into(),
            (Lang::Zh, Trouble::ReadTerminal) => "无法从终端读取".into(),
            (Lang::En, Trouble::WriteTerminal) => "could not write to the terminal".into(),
            (Lang::Zh, Trouble::WriteTerminal) => "无法写入终端".into(),
            (Lang::En, Trouble::SetUpTerminal) => "could not set up the terminal".into(),
            (Lang::Zh, Trouble::SetUpTerminal) => "无法设置终端".into(),
            (Lang::En, Trouble::Mouse) => "could not turn on the mouse".into(),
            (Lang::Zh, Trouble::Mouse) => "无法启用鼠标".into(),
            (Lang::En, Trouble::Write { shown }) => format!("could not write {shown}"),
            (Lang::Zh, Trouble::Write { shown }) => format!("无法写入 {shown}"),
            (Lang::En, Trouble::WriteStdout) => "could not write to standard output".into(),
            (Lang::Zh, Trouble::WriteStdout) => "无法写入标准输出".into(),
            (Lang::En, Trouble::WriteJson) => "could not write the JSON report".into(),
            (Lang::Zh, Trouble::WriteJson) => "无法写出 JSON 报告".into(),
            (Lang::En, Trouble::DrawRecording) => "could not draw the recording".into(),
            (Lang::Zh, Trouble::DrawRecording) => "无法绘制录像".into(),
            (Lang::En, Trouble::CreateRecording { shown }) => {
                format!("could not create the recording {shown}")
            }
            (Lang::Zh, Trouble::CreateRecording { shown }) => format!("无法创建记录文件 {shown}"),
            (Lang::En, Trouble::Listen { address }) => format!(
                "could not listen on {address} (is the port in use? leave out --listen for a free one)"
            ),
            (Lang::Zh, Trouble::Listen { address }) => {
                format!(
                    "无法在 {address} 上监听（端口被占用了？不加 --listen 会自动选一个空闲端口）"
                )
            }
            (Lang::En, Trouble::StartCommand { command }) => format!("could not start {command}"),
            (Lang::Zh, Trouble::StartCommand { command }) => format!("无法启动 {command}"),
            (Lang::En, Trouble::StartProxy) => "could not start the proxy".into(),
            (Lang::Zh, Trouble::StartProxy) => "无法启动代理".into(),
            (Lang::En, Trouble::PublishNotes { shown }) => {
                format!("could not publish the notes on {shown}")
            }
            (Lang::Zh, Trouble::PublishNotes { shown }) => format!("无法在 {shown} 上发布讲稿"),
        }
    }

    /// A file written, as `import` and `export` tell it on standard error.
    pub fn wrote(self, shown: &str) -> String {
        match self.lang {
            Lang::En => format!("wrote {shown}"),
            Lang::Zh => format!("已写入 {shown}"),
        }
    }

    /// An error with the system, its cause after it, as the chain of
    /// `error` says.
    pub fn failed(self, error: &anyhow::Error) -> String {
        let Some(trouble) = error.downcast_ref::<Trouble>() else {
            return format!("{error:#}");
        };
        let separator = if self.lang == Lang::Zh { "：" } else { ": " };
        std::iter::once(self.trouble(trouble))
            .chain(error.chain().skip(1).map(ToString::to_string))
            .collect::<Vec<_>>()
            .join(separator)
    }
}

impl fmt::Display for Trouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).trouble(self))
    }
}
