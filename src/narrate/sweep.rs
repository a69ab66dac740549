//! What `loopstep sweep` says around its table and curve.

use super::Say;
use crate::lang::Lang;

impl Say {
    pub fn sweep_unreadable_folder(self, error: &str) -> String {
        match self.lang {
            Lang::En => format!("the folder could not be read: {error}"),
            Lang::Zh => format!("无法读取这个文件夹：{error}"),
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

    /// `table`: a file that could not be read, left out.
    pub fn table_left_out(self, file: &str) -> String {
        match self.lang {
            Lang::En => format!("loopstep table: left out {file}: it could not be read as a run"),
            Lang::Zh => format!("loopstep table：跳过了 {file}：无法作为运行读取"),
        }
    }
}
