//! Every word loopstep shows, on the screen and in `run`, in English and
//! Chinese. [`Say`] pairs a language with the run's API dialect ([`Words`]),
//! so each run speaks its own API's names in the reader's language. Each
//! sentence is a whole template per language with named parts, never glued
//! from fragments; text from a transcript is sanitised by the caller before
//! it arrives here.
//!
//! The Chinese follows the lessons' own terms: 开始 · 调用 · 检查 · 派发 ·
//! 追加, 回答, 预算耗尽 → 返回 None, 第 N 轮, 轮次上限, 停止原因 /
//! 结束原因, 工具请求, 工具结果, 错误结果, 干扰值, 本课简化检查, 生产循环,
//! 常见错误; API names (`messages`, `stop_reason`, `max_turns`, `None`, …)
//! stay as they are.

mod arguments;
mod captions;
mod compare;
mod detail;
mod diagram;
mod endings;
mod errors;
mod gauge;
mod lesson;
mod mistakes;
mod notes;
mod present;
mod problems;
mod react;
mod recording;
mod refusals;
pub mod replay;
mod report;
mod screen;
mod serde_zh;
mod steps;
mod sweep;
mod told;

pub use told::Told;

pub use arguments::{ArgumentProblem, TurnsProblem};
pub use captions::Failed;
pub use compare::Side;
pub use react::reply_of;
pub use refusals::{Refusal, Trouble};
pub use replay::LazyReplay;
pub use report::RunCounts;
pub use screen::GaugeState;

pub use crate::lang::{Lang, Tr};

use crate::dialect::{DEEPSEEK_STOP, Dialect, Words};

/// Words for one (language, dialect) pair.
#[derive(Debug, Clone, Copy)]
pub struct Say {
    pub lang: Lang,
    /// The API's own names.
    pub w: &'static Words,
    /// How the lessons tell its forms.
    pub told: &'static Told,
    dialect: Dialect,
}

impl Say {
    pub fn new(lang: Lang, dialect: Dialect) -> Self {
        Say {
            lang,
            w: dialect.words(),
            told: told::told(dialect),
            dialect,
        }
    }

    /// Every stop loopstep knows in its API, as the API spells them, in
    /// the reader's list: Chat Completions' with the one DeepSeek adds,
    /// said to be DeepSeek's.
    fn known_stops(self) -> String {
        let names: Vec<String> = self
            .dialect
            .stops()
            .iter()
            .map(|(name, _)| match (self.lang, *name) {
                (Lang::En, DEEPSEEK_STOP) => format!("DeepSeek's {name}"),
                (Lang::Zh, DEEPSEEK_STOP) => format!("DeepSeek 的 {name}"),
                _ => (*name).to_owned(),
            })
            .collect();
        names.join(self.pick(", ", "、"))
    }

    /// A recorded stop as the run's API shows it: Responses' status
    /// `incomplete` with its reason, any other API's stop reason as it is.
    fn stop_value(self, raw: &str) -> String {
        self.dialect.wire_stop(raw).into_owned()
    }

    /// One of two fixed texts, by language.
    fn pick(self, en: &'static str, zh: &'static str) -> &'static str {
        Tr { en, zh }.get(self.lang)
    }

    /// The field the check reads, as the reader's language names it:
    /// `stop_reason`, or 停止原因 stop_reason.
    fn stop_field(self) -> String {
        match self.lang {
            Lang::En => self.w.stop_field.to_owned(),
            Lang::Zh => format!("{} {}", self.told.stop_field_zh, self.w.stop_field),
        }
    }
}

/// The English plural ending; Chinese needs none.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locale_picks_the_language_in_the_posix_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Lang::from_env(env(&[("LANG", "zh_CN.UTF-8")])), Lang::Zh);
        assert_eq!(
            Lang::from_env(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "zh_CN.UTF-8")])),
            Lang::En
        );
        assert_eq!(
            Lang::from_env(env(&[
                ("LC_ALL", ""),
                ("LC_MESSAGES", "zh_TW"),
                ("LANG", "C")
            ])),
            Lang::Zh
        );
        assert_eq!(Lang::from_env(env(&[])), Lang::En);
        assert_eq!(Lang::from_env(env(&[("LANG", "C.UTF-8")])), Lang::En);
    }
}
