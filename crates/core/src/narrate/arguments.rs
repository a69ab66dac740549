//! What is wrong with the command line, in either language: clap's own
//! errors, told again in Chinese from their facts, and the turn budget's.

use std::fmt;

use super::{Lang, Say};
use crate::engine::MAX_TURNS;

/// Why a `--max-turns` value is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnsProblem {
    NotANumber(String),
    BelowOne(i128),
    TooLarge(i128),
    /// A range of budgets whose first is the larger.
    GoesDown(String),
}

impl std::error::Error for TurnsProblem {}

/// clap prints this after "invalid value … for '--max-turns <N>': ".
impl fmt::Display for TurnsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Default::default()).turns_problem(self))
    }
}

/// A command-line error's facts, as clap's context gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentProblem {
    /// A value none of the flag's own.
    InvalidValue {
        arg: String,
        value: String,
        valid: Vec<String>,
    },
    /// A value the flag's parser refused, with loopstep's reason if known.
    Rejected {
        arg: String,
        value: String,
        why: Option<TurnsProblem>,
    },
    Unknown {
        arg: String,
        suggested: Vec<String>,
    },
    UnknownCommand {
        command: String,
        suggested: Vec<String>,
    },
    Missing {
        args: Vec<String>,
    },
}

impl Say {
    pub fn turns_problem(self, problem: &TurnsProblem) -> String {
        match (self.lang, problem) {
            (Lang::En, TurnsProblem::NotANumber(text)) => format!("`{text}` is not a whole number"),
            (Lang::En, TurnsProblem::BelowOne(n)) => {
                format!("must be at least 1 (the loop needs one model call), got {n}")
            }
            (Lang::En, TurnsProblem::TooLarge(n)) => {
                format!("{n} is too large: loopstep replays at most {MAX_TURNS} turns")
            }
            (Lang::En, TurnsProblem::GoesDown(text)) => {
                format!("`{text}` goes down: give the smaller budget first, as in 1..10")
            }
            (Lang::Zh, TurnsProblem::NotANumber(text)) => format!("“{text}”不是整数"),
            (Lang::Zh, TurnsProblem::GoesDown(text)) => {
                format!("“{text}”是递减的：先写较小的预算，例如 1..10")
            }
            (Lang::Zh, TurnsProblem::BelowOne(n)) => {
                format!("至少为 1（循环至少要调用一次模型），收到的是 {n}")
            }
            (Lang::Zh, TurnsProblem::TooLarge(n)) => {
                format!("{n} 太大了：loopstep 最多重放 {MAX_TURNS} 轮")
            }
        }
    }

    /// A command-line error as the Chinese reader gets it; English is
    /// clap's own rendering.
    pub fn argument_problem(self, problem: &ArgumentProblem) -> String {
        let quoted = |items: &[String]| {
            items
                .iter()
                .map(|i| format!("'{i}'"))
                .collect::<Vec<_>>()
                .join("、")
        };
        let hint = |suggested: &[String]| match suggested {
            [] => String::new(),
            some => format!("\n  提示：也许是 {}", quoted(some)),
        };
        let body = match problem {
            ArgumentProblem::InvalidValue { arg, value, valid } => {
                let valid = match valid.as_slice() {
                    [] => String::new(),
                    some => format!("\n  可选的值：{}", some.join("、")),
                };
                format!("{arg} 不接受值 '{value}'{valid}")
            }
            ArgumentProblem::Rejected { arg, value, why } => match why {
                Some(why) => format!("{arg} 的值 '{value}' 无效：{}", self.turns_problem(why)),
                None => format!("{arg} 的值 '{value}' 无效"),
            },
            ArgumentProblem::Unknown { arg, suggested } => {
                format!("不认识的参数 '{arg}'{}", hint(suggested))
            }
            ArgumentProblem::UnknownCommand { command, suggested } => {
                format!("不认识的子命令 '{command}'{}", hint(suggested))
            }
            ArgumentProblem::Missing { args } => format!("缺少必需的参数：{}", quoted(args)),
        };
        format!("错误：{body}\n\n更多信息请运行 '--help'。\n")
    }
}
