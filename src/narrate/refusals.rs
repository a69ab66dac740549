//! What a command refused to do and why, in the reader's language: an
//! output it will not write, flags that do not go together, a price list
//! it cannot use.

use std::fmt;

use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::prices::{PriceError, PriceProblem};

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
    Prices(PriceError),
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
        Refusal::Prices(error) => prices_en(error),
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
        Refusal::Prices(error) => prices_zh(error),
    }
}

const PRICE_SHAPE_EN: &str = "expected a JSON object of model names to {\"input\": …, \
                              \"output\": …} in dollars per million tokens";

fn prices_en(error: &PriceError) -> String {
    match error {
        PriceError::Unreadable { path, error } => {
            format!("could not read the price list {}: {error}", path.display())
        }
        PriceError::TooLarge { path } => {
            format!("{} is larger than 1 MiB: no price list is", path.display())
        }
        PriceError::NotUtf8 { path } => format!(
            "could not read the price list {}: it is not UTF-8 text",
            path.display()
        ),
        PriceError::Invalid { path, why } => {
            let why = match why {
                PriceProblem::Shape(words) => format!("{PRICE_SHAPE_EN}: {words}"),
                PriceProblem::NotDollars { model, value } => {
                    format!("the price of {model} must be a number of dollars, not {value}")
                }
            };
            format!("{} is not a price list: {why}", path.display())
        }
    }
}

fn prices_zh(error: &PriceError) -> String {
    match error {
        PriceError::Unreadable { path, error } => {
            format!("无法读取价格表 {}：{error}", path.display())
        }
        PriceError::TooLarge { path } => {
            format!("{} 超过 1 MiB：价格表不会这么大", path.display())
        }
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
                    format!("{model} 的价格必须是美元数，而不是 {value}")
                }
            };
            format!("{} 不是价格表：{why}", path.display())
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).refusal(self))
    }
}
