//! The loop diagram's words: its nodes and edges, kept short, and the
//! turn log under it.

use super::{Lang, Say, plural};

impl Say {
    // The turn log under the diagram: one line per turn.
    pub fn turn_line(self, turn: u32, what: &str) -> String {
        format!("{turn:>2}  {what}")
    }

    pub fn turn_tools(self, stop_reason: &str, tools: usize) -> String {
        match self.lang {
            Lang::En => format!("{stop_reason} → {tools} tool{}", plural(tools)),
            Lang::Zh => format!("{stop_reason} → {tools} 个工具"),
        }
    }

    pub fn turn_continue(self, stop_reason: &str) -> String {
        match self.lang {
            Lang::En => format!("{stop_reason} → again"),
            Lang::Zh => format!("{stop_reason} → 再调用"),
        }
    }

    pub fn turn_not_done(self, stop_reason: &str) -> String {
        match self.lang {
            Lang::En => format!("{stop_reason} → not done yet"),
            Lang::Zh => format!("{stop_reason} → 还没完成"),
        }
    }

    pub fn turn_answer(self, stop_reason: &str) -> String {
        match self.lang {
            Lang::En => format!("{stop_reason} → answer"),
            Lang::Zh => format!("{stop_reason} → 回答"),
        }
    }

    pub fn turn_stop(self, stop_reason: &str) -> String {
        match self.lang {
            Lang::En => format!("{stop_reason} → halt"),
            Lang::Zh => format!("{stop_reason} → 中止"),
        }
    }

    pub fn turn_start(self) -> &'static str {
        self.pick("start", "开始")
    }

    pub fn turn_calling(self) -> &'static str {
        self.pick("calling…", "调用中…")
    }

    pub fn turn_budget(self) -> &'static str {
        self.pick("no turn left → None", "没有剩余轮次 → None")
    }

    // Diagram nodes and edge labels, kept short: the diagram is narrow.
    pub fn node_start(self) -> &'static str {
        self.pick("start", "开始")
    }

    pub fn node_call(self) -> &'static str {
        self.pick("call", "调用")
    }

    pub fn node_check(self) -> &'static str {
        self.pick("check", "检查")
    }

    pub fn node_dispatch(self) -> &'static str {
        self.pick("dispatch", "派发")
    }

    pub fn node_append(self) -> &'static str {
        self.pick("append", "追加")
    }

    pub fn node_answer(self) -> &'static str {
        self.pick("answer", "回答")
    }

    pub fn node_none(self) -> &'static str {
        "None"
    }

    /// The exit that is neither an answer nor None; not "stop", which
    /// OpenAI uses for a finished answer.
    pub fn node_halt(self) -> &'static str {
        self.pick("halt", "中止")
    }

    pub fn edge_budget(self) -> &'static str {
        self.pick(" ─ budget spent ▶ ", " ─ 预算耗尽 ▶ ")
    }

    pub fn edge_answer(self) -> String {
        format!(" ─ {} ─▶ ", self.w.answer_stop)
    }

    pub fn edge_tool(self) -> String {
        format!("   │ {}", self.w.tool_edge)
    }

    pub fn edge_other(self) -> &'static str {
        self.pick("  other ▶ ", "  其他 ▶ ")
    }
}
