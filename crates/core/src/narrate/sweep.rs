//! What `loopstep sweep` says around its table and curve.

use super::Say;
use crate::lang::Lang;

impl Say {
    pub fn sweep_unreadable_folder(self, folder: &str, error: &str) -> String {
        match self.lang {
            Lang::En => format!("the folder {folder} could not be read: {error}"),
            Lang::Zh => format!("无法读取文件夹 {folder}：{error}"),
        }
    }

    /// "sweep: 16 runs in 14 files, 2 left out".
    pub fn sweep_header(self, runs: usize, files: usize, unreadable: usize) -> String {
        match (self.lang, unreadable) {
            (Lang::En, 0) => format!("sweep: {runs} run(s) in {files} file(s)"),
            (Lang::En, n) => {
                format!("sweep: {runs} run(s) in {files} file(s); {n} left out (below)")
            }
            (Lang::Zh, 0) => format!("扫描：{files} 个文件中的 {runs} 次运行"),
            (Lang::Zh, n) => {
                format!("扫描：{files} 个文件中的 {runs} 次运行；{n} 个文件未能读取（见下）")
            }
        }
    }

    /// The table's columns: the budget, then how the runs end under it.
    pub fn sweep_columns(self) -> [&'static str; 5] {
        match self.lang {
            Lang::En => ["max_turns", "answered", "None", "halted", "ended"],
            Lang::Zh => ["max_turns", "回答", "None", "中止", "结束"],
        }
    }

    /// Under the chart: what its marks mean.
    pub fn sweep_legend(self) -> &'static str {
        self.pick(
            "bar: runs answered under that max_turns · ◆ a budget runs were recorded with · \
             ended: the recording, the agent, the user or the API ended it",
            "条形：该 max_turns 下回答了的运行数 · ◆ 有运行以此预算录制 · 结束：记录、智能体、用户或 API 让它结束",
        )
    }

    /// Rows of the table left out where nothing changed.
    pub fn sweep_skipped(self, rows: usize) -> String {
        match self.lang {
            Lang::En => format!("… {rows} budget(s) alike …"),
            Lang::Zh => format!("……{rows} 个预算结果相同……"),
        }
    }

    /// The budgets by which shares of the answering runs have answered.
    pub fn sweep_answered_by(self, quantiles: [Option<u32>; 3]) -> String {
        let at = |q: Option<u32>| q.map_or_else(|| "-".to_owned(), |n| n.to_string());
        let [p50, p90, p99] = quantiles.map(at);
        match self.lang {
            Lang::En => format!(
                "of the runs that answer at all, 50 % have answered by max_turns {p50}, 90 % by \
                 {p90}, 99 % by {p99}"
            ),
            Lang::Zh => format!(
                "在最终会回答的运行中，max_turns 为 {p50} 时已有 50 % 回答，{p90} 时 90 %，{p99} 时 99 %"
            ),
        }
    }

    /// The spread of model calls and tool rounds per run.
    pub fn sweep_spread(self, calls: (u32, u32, u32), rounds: (u32, u32, u32)) -> String {
        match self.lang {
            Lang::En => format!(
                "model calls per run: {} to {}, median {} · tool rounds: {} to {}, median {}",
                calls.0, calls.2, calls.1, rounds.0, rounds.2, rounds.1
            ),
            Lang::Zh => format!(
                "每次运行的模型调用：{} 到 {}，中位数 {} · 工具轮次：{} 到 {}，中位数 {}",
                calls.0, calls.2, calls.1, rounds.0, rounds.2, rounds.1
            ),
        }
    }

    pub fn sweep_unreadable_title(self) -> &'static str {
        self.pick("left out:", "未能读取：")
    }

    /// `table`: a file left out, and why (the reason names the file).
    pub fn table_left_out(self, reason: &str) -> String {
        match self.lang {
            Lang::En => format!("loopstep table: left out: {reason}"),
            Lang::Zh => format!("loopstep table：已跳过：{reason}"),
        }
    }

    /// The curve screen's title.
    pub fn sweep_view_title(self, runs: usize) -> String {
        match self.lang {
            Lang::En => {
                format!(" sweep · {runs} run(s) · a row per max_turns, its bar the runs answered")
            }
            Lang::Zh => format!(" 扫描 · {runs} 次运行 · 每行一个 max_turns，条形为回答了的运行"),
        }
    }

    pub fn sweep_view_keys(self) -> String {
        self.pick(
            " ↑/↓ k/j budget · Enter the runs it cuts · q quit",
            " ↑/↓ k/j 预算 · Enter 看它截断的运行 · q 退出",
        )
        .to_owned()
    }

    /// The runs a budget cuts: those that return `None` under it.
    pub fn sweep_view_cuts(self, runs: usize, max_turns: u32) -> String {
        match self.lang {
            Lang::En => {
                format!(" max_turns {max_turns} cuts {runs} run(s): each returns None under it")
            }
            Lang::Zh => format!(" max_turns 为 {max_turns} 时截断 {runs} 次运行：它们都返回 None"),
        }
    }

    pub fn sweep_view_run_keys(self, max_turns: u32) -> String {
        match self.lang {
            Lang::En => {
                format!(" ↑/↓ run · Enter opens it under max_turns {max_turns} · Esc back · q quit")
            }
            Lang::Zh => {
                format!(" ↑/↓ 选运行 · Enter 在 max_turns {max_turns} 下打开 · Esc 返回 · q 退出")
            }
        }
    }

    /// A run in the list: what it needs, how it ends (by its label:
    /// `answered`, `halted`, …), its name and file.
    pub fn sweep_view_run(self, needs: Option<u32>, ending: &str, run: &str, file: &str) -> String {
        let ending = self.sweep_ending(ending);
        match (self.lang, needs) {
            (Lang::En, Some(n)) => format!("needs {n:>3} · {ending} · {run} · {file}"),
            (Lang::En, None) => format!("never ends · {run} · {file}"),
            (Lang::Zh, Some(n)) => format!("需要 {n:>3} · {ending} · {run} · {file}"),
            (Lang::Zh, None) => format!("永不结束 · {run} · {file}"),
        }
    }

    fn sweep_ending(self, label: &str) -> &'static str {
        match label {
            "answered" => self.pick("answers", "回答"),
            "halted" => self.pick("halts", "中止"),
            "recording_ended" => self.pick("the recording ends", "记录结束"),
            "ended" => self.pick("ended by its log", "按日志结束"),
            _ => self.pick("never ends", "永不结束"),
        }
    }
}
