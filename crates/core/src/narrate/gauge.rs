//! The words under the loop: the turn-budget gauge and the run's outcome
//! beside it.

use super::screen::GaugeState;
use super::{Lang, Say};
use crate::engine::{EndedBy, Ending};
use crate::text::one_line;

impl Say {
    /// The gauge while the replay runs toward the end of a long run.
    pub fn seeking(self, made: u32, most: u32) -> String {
        match self.lang {
            Lang::En => {
                format!("replaying to the end: turn {made} of at most {most} · Esc stops")
            }
            Lang::Zh => format!("正在重放到结尾：第 {made} 轮，最多 {most} 轮 · Esc 停止"),
        }
    }

    // The turn-budget gauge.
    pub fn gauge_left(self, used: usize, max: u32) -> String {
        let left = max as usize - used.min(max as usize);
        match self.lang {
            Lang::En => format!("model calls {used} / max_turns {max} · {left} left"),
            Lang::Zh => format!("模型调用 {used} / 轮次上限 max_turns {max} · 剩余 {left} 轮"),
        }
    }

    pub fn gauge_last(self, used: usize, max: u32) -> String {
        match self.lang {
            Lang::En => format!("model calls {used} / max_turns {max} · last turn"),
            Lang::Zh => format!("模型调用 {used} / 轮次上限 max_turns {max} · 最后一轮"),
        }
    }

    pub fn gauge_spent(self, used: usize, max: u32) -> String {
        match self.lang {
            Lang::En => {
                format!("model calls {used} / max_turns {max} · spent → None, not an answer")
            }
            Lang::Zh => {
                format!("模型调用 {used} / 轮次上限 max_turns {max} · 预算耗尽 → None，不是回答")
            }
        }
    }

    /// The gauge of a loop without a budget: the engine's cap is all that stops it.
    pub fn gauge_no_budget(self, used: usize, cap: u32) -> String {
        match self.lang {
            Lang::En => format!("model calls {used} · no max_turns · safety cap {cap}"),
            Lang::Zh => format!("模型调用 {used} · 没有轮次上限 max_turns · 安全上限 {cap}"),
        }
    }

    /// The gauge's label where the long one does not fit.
    pub fn gauge_short(self, used: usize, max: u32, state: GaugeState) -> String {
        let left = max as usize - used.min(max as usize);
        match (self.lang, state) {
            (Lang::En, GaugeState::Left) => format!("{used}/{max} · {left} left"),
            (Lang::Zh, GaugeState::Left) => format!("{used}/{max} · 剩 {left} 轮"),
            (Lang::En, GaugeState::LastTurn) => format!("{used}/{max} · last turn"),
            (Lang::Zh, GaugeState::LastTurn) => format!("{used}/{max} · 最后一轮"),
            (_, GaugeState::Spent) => format!("{used}/{max} · None"),
            (Lang::En, GaugeState::NoBudget) => format!("{used} calls · cap {max}"),
            (Lang::Zh, GaugeState::NoBudget) => format!("{used} 次 · 上限 {max}"),
        }
    }

    // The outcome beside the gauge.
    pub fn outcome(self) -> &'static str {
        self.pick("outcome", "结果")
    }

    /// The label of any outcome but an answer: "状态：进行中",
    /// "状态：中止" in Chinese, keeping 结果 for the value returned.
    pub fn status(self) -> &'static str {
        self.pick("outcome", "状态")
    }

    pub fn outcome_pending(self) -> &'static str {
        self.pick("running", "进行中")
    }

    pub fn outcome_answer(self, text: &str) -> String {
        format!("\"{text}\"")
    }

    pub fn outcome_none(self) -> &'static str {
        "None"
    }

    pub fn outcome_stopped(self, stop_reason: &str) -> String {
        match self.lang {
            Lang::En => format!("halted ({} {stop_reason})", self.w.stop_field),
            Lang::Zh => format!("中止（{} {stop_reason}）", self.w.stop_field),
        }
    }

    pub fn outcome_halted(self) -> &'static str {
        self.pick("halted", "中止")
    }

    pub fn outcome_recording_ended(self) -> &'static str {
        self.pick("recording ended", "记录结束")
    }

    /// The status a log gave its ending, as a line safe to print: the
    /// log's words, control characters and escape sequences taken out,
    /// long ones cut short.
    pub fn ending_status(self, ending: &Ending) -> String {
        one_line(&ending.status, 80)
    }

    /// The outcome of a run its harness ended, short.
    pub fn outcome_ended(self, ending: &Ending) -> String {
        match (self.lang, ending.by) {
            (Lang::En, EndedBy::Agent) => {
                format!("agent finished ({})", self.ending_status(ending))
            }
            (Lang::Zh, EndedBy::Agent) => {
                format!("智能体自行结束（{}）", self.ending_status(ending))
            }
            (_, EndedBy::User) => self.pick("interrupted by the user", "用户中断").to_owned(),
            (_, EndedBy::Api) => self.pick("API call failed", "API 调用失败").to_owned(),
        }
    }

    pub fn outcome_rejected(self) -> &'static str {
        self.pick("rejected by the API", "被 API 拒绝")
    }

    pub fn mistake_not_shown_label(self) -> &'static str {
        self.pick("mistake not shown", "常见错误未体现")
    }

    pub fn not_verified(self) -> &'static str {
        self.pick("NOT verified", "未通过验证")
    }

    // The first frame, while the file loads.
}
