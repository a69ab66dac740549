//! The words of `loopstep compare`: its two sides, where they part, and
//! its own keys; on the screen and in its text summary.

use super::{Lang, Say};
use crate::engine::{Event, Outcome};

/// Which of the two runs compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

impl Say {
    pub fn compare_title(self) -> &'static str {
        self.pick("compare", "对比")
    }

    pub fn side(self, side: Side) -> &'static str {
        match side {
            Side::Left => self.pick("left", "左侧"),
            Side::Right => self.pick("right", "右侧"),
        }
    }

    /// A step in a word or two: its phase, and for an exit what the loop
    /// returns ("budget_exhausted → None", "answer → \"1974\"").
    pub fn step_brief(self, event: &Event) -> String {
        let phase = self.phase(event.phase());
        match Outcome::of(event) {
            None => phase.to_owned(),
            exit => format!("{phase} → {}", self.returned(exit)),
        }
    }

    /// What the loop returned, in a word: the answer quoted, None, or how
    /// it ended without one.
    pub fn returned(self, outcome: Option<Outcome>) -> String {
        match outcome {
            Some(Outcome::Answered(text)) => self.outcome_answer(text),
            Some(Outcome::BudgetExhausted) => self.outcome_none().to_owned(),
            other => self.outcome_name(other).to_owned(),
        }
    }

    /// Where two runs part; a side's step is `None` where that side has
    /// ended before it.
    pub fn divergence(self, step: usize, left: Option<String>, right: Option<String>) -> String {
        let ended = self.pick("ended", "已结束");
        let (left, right) = (
            left.unwrap_or_else(|| ended.to_owned()),
            right.unwrap_or_else(|| ended.to_owned()),
        );
        // The same phase on both sides: what differs is in it.
        let within = match left == right {
            true => self.pick(
                " (the same phase, other contents)",
                "（阶段相同，内容不同）",
            ),
            false => "",
        };
        let (l, r) = (self.side(Side::Left), self.side(Side::Right));
        match self.lang {
            Lang::En => {
                format!("first divergence: step {step} — {l}: {left} · {r}: {right}{within}")
            }
            Lang::Zh => format!("第一处分歧：第 {step} 步 — {l}：{left} · {r}：{right}{within}"),
        }
    }

    pub fn no_divergence(self, steps: usize) -> String {
        match self.lang {
            Lang::En => format!("no divergence: both runs take the same {steps} steps"),
            Lang::Zh => format!("没有分歧：两边走过完全相同的 {steps} 步"),
        }
    }

    /// While the replays are still compared: how many steps are the same so far.
    pub fn divergence_looking(self, same: usize) -> String {
        match self.lang {
            Lang::En => format!("first divergence: looking… the first {same} steps are the same"),
            Lang::Zh => format!("第一处分歧：查找中……前 {same} 步相同"),
        }
    }

    /// After the divergence on the screen, while the cursor is elsewhere.
    pub fn divergence_key(self) -> &'static str {
        self.pick(" · v goes there", " · 按 v 跳到这里")
    }

    /// Beside the last step of a side whose run ended before the step both
    /// are on, where it stays.
    pub fn side_ended(self) -> &'static str {
        self.pick("ended here", "在此结束")
    }

    /// A side in the text summary: its run and settings, what it returned
    /// and how long it took.
    pub fn side_summary(
        self,
        side: Side,
        run: &str,
        result: &str,
        (steps, calls): (usize, usize),
    ) -> String {
        let side = self.side(side);
        match self.lang {
            Lang::En => format!(
                "{side:<5}  {run} → {result} · {steps} step{}, {calls} model call{}",
                super::plural(steps),
                super::plural(calls)
            ),
            Lang::Zh => format!("{side}  {run} → {result} · {steps} 步，{calls} 次模型调用"),
        }
    }
}
