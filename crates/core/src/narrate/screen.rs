//! The screen's fixed words: titles, the diagram, the turn log, the keys,
//! the gauge and the outcome.

use super::refusals::{untold_en, untold_zh};
use super::{Lang, Say, plural};
use crate::dialect::Dialect;
use crate::engine::{Block, CheckPolicy, Mistake, Phase, RequestSize, Usage};
use crate::transcript::Untold;

/// Where the turn budget stands, for the gauge's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaugeState {
    Left,
    /// The current turn is the last one the budget allows.
    LastTurn,
    /// The loop ran out of turns and returned None.
    Spent,
    /// The loop has no budget (a mistake): only the safety cap counts.
    NoBudget,
}

impl Say {
    pub fn app_name(self) -> &'static str {
        "loopstep"
    }

    /// "question: ", or "问题：" with the full-width colon Chinese uses.
    pub fn label(self, name: &str) -> String {
        match self.lang {
            Lang::En => format!("{name}: "),
            Lang::Zh => format!("{name}："),
        }
    }

    pub fn question(self) -> &'static str {
        self.pick("question", "问题")
    }

    pub fn model(self) -> &'static str {
        self.pick("model", "模型")
    }

    pub fn loop_title(self) -> &'static str {
        self.pick("the loop", "循环")
    }

    /// Before the timeline's marks.
    pub fn timeline_label(self) -> &'static str {
        self.pick("steps", "步骤")
    }

    /// The conversation's list as the API names it: `messages`, Gemini's
    /// `contents`.
    pub fn messages_title(self) -> &'static str {
        self.w.list
    }

    pub fn kind_thinking(self) -> &'static str {
        self.pick("thinking", "思考")
    }

    /// The API's own refusal field (OpenAI's `refusal`).
    pub fn kind_refusal(self) -> &'static str {
        self.pick("refusal", "拒绝")
    }

    /// What a tool request is called: the API's word for one the loop
    /// dispatches, or a tool its servers ran themselves.
    pub fn kind_tool_request(self, block: &Block) -> &'static str {
        match block {
            Block::ServerToolUse { .. } => self.pick("server tool", "服务端工具"),
            _ => self.w.tool_request,
        }
    }

    /// What a server tool's result is called: its type on the wire.
    pub fn kind_server_result(self) -> &'static str {
        self.pick("server result", "服务端结果")
    }

    pub fn empty_message(self) -> &'static str {
        self.pick("(empty)", "（空）")
    }

    pub fn turns_so_far(self) -> &'static str {
        self.pick("turns so far", "已进行的轮次")
    }

    /// A phase as the lessons name it.
    pub fn phase(self, phase: Phase) -> &'static str {
        match (self.lang, phase) {
            // Words, not the JSON's snake_case ids.
            (Lang::En, Phase::GoalCheck) => "goal check",
            (Lang::En, Phase::PushedBack) => "pushed back",
            (Lang::En, Phase::BudgetExhausted) => "budget spent",
            (Lang::En, Phase::RecordingEnded) => "recording ended",
            (Lang::En, phase) => phase.as_str(),
            (Lang::Zh, Phase::Start) => "开始",
            (Lang::Zh, Phase::Call) => "调用",
            (Lang::Zh, Phase::Check) => "检查",
            (Lang::Zh, Phase::Dispatch) => "派发",
            (Lang::Zh, Phase::Append) => "追加",
            (Lang::Zh, Phase::GoalCheck) => "目标检查",
            (Lang::Zh, Phase::Inserted) => "插入",
            (Lang::Zh, Phase::PushedBack) => "推回",
            (Lang::Zh, Phase::Answer) => "回答",
            (Lang::Zh, Phase::BudgetExhausted) => "预算耗尽",
            (Lang::Zh, Phase::Stopped) => "中止",
            (Lang::Zh, Phase::RecordingEnded) => "记录结束",
            (Lang::Zh, Phase::Ended) => "结束",
            (Lang::Zh, Phase::Rejected) => "被拒绝",
        }
    }

    // The help overlay and the footer.
    pub fn help_title(self) -> &'static str {
        self.pick("keys", "按键")
    }

    pub fn help_close(self) -> &'static str {
        self.pick("? or Esc closes", "? 或 Esc 关闭")
    }

    /// The question, asked before the check (or the budget's end) shows.
    pub fn quiz_question(self) -> String {
        let (answer, tool) = (self.w.answer_stop, self.w.tool_stop);
        match self.lang {
            Lang::En => format!(
                "Quiz: what happens next? 1 dispatch the tools ({tool}) · 2 return the answer \
                 ({answer}) · 3 no turn left: None · 4 another stop. Press 1–4."
            ),
            Lang::Zh => format!(
                "测验：接下来会怎样？1 派发工具（{tool}）· 2 返回回答（{answer}）· \
                 3 没有剩余轮次：返回 None · 4 因其他原因中止。按 1–4 作答。"
            ),
        }
    }

    /// The footer in quiz mode: the score, and how the last guess went.
    pub fn quiz_status(self, right: u32, asked: u32, last: Option<bool>) -> String {
        let verdict = match (self.lang, last) {
            (_, None) => "",
            (Lang::En, Some(true)) => " · right",
            (Lang::En, Some(false)) => " · wrong",
            (Lang::Zh, Some(true)) => " · 答对了",
            (Lang::Zh, Some(false)) => " · 答错了",
        };
        match self.lang {
            Lang::En => format!("quiz {right}/{asked}{verdict} · Q ends"),
            Lang::Zh => format!("测验 {right}/{asked}{verdict} · Q 结束"),
        }
    }

    /// At the foot of a help too tall for the screen: where it is and how
    /// to see the rest.
    pub fn help_scroll(self, scroll: usize, hidden: usize) -> &'static str {
        match (self.lang, scroll < hidden, scroll > 0) {
            (Lang::En, true, false) => "↓ j more",
            (Lang::En, true, true) => "↑ k  ↓ j more",
            (Lang::En, false, _) => "↑ k back",
            (Lang::Zh, true, false) => "↓ j 更多",
            (Lang::Zh, true, true) => "↑ k  ↓ j 更多",
            (Lang::Zh, false, _) => "↑ k 返回",
        }
    }

    /// In the title bar: how many steps go wrong (`more`: the run is not
    /// replayed to its end yet), and the key that goes to them.
    pub fn wrong_count(self, count: usize, more: bool) -> String {
        let more = if more { "+" } else { "" };
        match self.lang {
            Lang::En => format!("{count}{more} error{} (!)", plural(count)),
            Lang::Zh => format!("{count}{more} 处出错（!）"),
        }
    }

    /// The footer after `y`: the command, and how to reach the run from
    /// where it opens when that is not its first.
    /// The APIs `A` passed over, each with why it cannot tell the run.
    pub fn retell_skipped(self, skipped: &[(Dialect, Untold)]) -> String {
        let each: Vec<String> = skipped
            .iter()
            .map(|(api, why)| {
                let api = api.words().api;
                match self.lang {
                    Lang::En => format!("{api}: {}", untold_en(api, why)),
                    Lang::Zh => format!("{api}：{}", untold_zh(api, why)),
                }
            })
            .collect();
        match self.lang {
            Lang::En => format!("A skipped {}", each.join("; ")),
            Lang::Zh => format!("A 跳过了 {}", each.join("；")),
        }
    }

    pub fn link_copied(self, command: &str, tabs: usize) -> String {
        let then = match (self.lang, tabs) {
            (_, 0) => String::new(),
            (Lang::En, n) => format!(", then Tab ×{n}"),
            (Lang::Zh, n) => format!("，再按 Tab ×{n}"),
        };
        match self.lang {
            // OSC 52: copied where the terminal allows it, which no
            // terminal tells; the help and docs/screen.md say so.
            Lang::En => format!("{command}{then} · copied (OSC 52)"),
            Lang::Zh => format!("{command}{then} · 已复制（OSC 52）"),
        }
    }

    /// The title bar in a sub-agent: the runs it was opened from, then it.
    pub fn breadcrumb(self, titles: &[String]) -> String {
        let path = titles.join(" › ");
        match self.lang {
            Lang::En => format!("Esc ← {path}"),
            Lang::Zh => format!("Esc 返回 ← {path}"),
        }
    }

    /// The growth panel's title; `beside` when it shares the row with the
    /// step's detail rather than taking its place.
    pub fn growth_title(self, beside: bool) -> &'static str {
        match beside {
            true => self.pick(
                "what each call sends · x hides",
                "每次调用发送多少 · x 隐藏",
            ),
            false => self.pick("what each call sends · x back", "每次调用发送多少 · x 返回"),
        }
    }

    /// The newest request, and the total every call so far has sent, a
    /// line each. Where the recording has usage, the total is its tokens
    /// (and their cost, with a price list); else tokens are estimated by
    /// OpenAI's rule of thumb for English, about 4 characters a token
    /// (https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them),
    /// and say so, and that the estimate counts the messages only: the
    /// system prompt and the tools' schemas, which recorded tokens count,
    /// are not in it.
    pub fn growth_summary(
        self,
        request: &RequestSize,
        recorded: Option<(Usage, Option<f64>)>,
    ) -> [String; 3] {
        let RequestSize {
            number,
            messages,
            chars,
            sent_so_far: total,
        } = *request;
        let estimate = |chars: usize| match self.lang {
            Lang::En => format!("{chars} chars ≈{} tokens est.", chars.div_ceil(4)),
            Lang::Zh => format!("{chars} 字符 ≈ {} token（估算）", chars.div_ceil(4)),
        };
        let so_far = match recorded {
            Some((usage, cost)) => self.usage_words(&usage) + &self.cost_words(cost),
            None => estimate(total),
        };
        match self.lang {
            Lang::En => [
                format!(
                    "call #{number}: {messages} message{}, {}",
                    plural(messages),
                    estimate(chars)
                ),
                format!("{number} call{} so far: {so_far}", plural(number as usize)),
                "est.: messages only, no system prompt or tool schemas".to_owned(),
            ],
            Lang::Zh => [
                format!("第 {number} 次调用：{messages} 条消息，{}", estimate(chars)),
                format!("至今 {number} 次调用 · {so_far}"),
                "估算只算消息，不含系统提示词和工具定义".to_owned(),
            ],
        }
    }

    pub fn growth_nothing_sent(self) -> &'static str {
        self.pick("no call yet: nothing sent", "还没有调用：尚未发送任何内容")
    }

    /// The footer while a step number is typed.
    pub fn go_to_prompt(self, typed: &str) -> String {
        match self.lang {
            Lang::En => format!(":{typed}▏ go to step · Enter jumps · Esc cancels"),
            Lang::Zh => format!(":{typed}▏ 跳到第几步 · Enter 跳转 · Esc 取消"),
        }
    }

    pub fn search_prompt(self, typed: &str) -> String {
        match self.lang {
            Lang::En => format!("/{typed}▏ find · Enter goes to the first match · Esc cancels"),
            Lang::Zh => format!("/{typed}▏ 查找 · Enter 跳到第一个匹配 · Esc 取消"),
        }
    }

    /// The footer while a search is in force: which match the cursor is on
    /// of how many (`more`: the scan is still going), and the keys.
    pub fn search_status(
        self,
        query: &str,
        (place, count, more): (Option<usize>, usize, bool),
    ) -> String {
        let more = if more { "+" } else { "" };
        let place = place.map_or("–".to_owned(), |n| n.to_string());
        match (self.lang, count) {
            (Lang::En, 0) if more.is_empty() => format!("/{query}: no match · Esc clears"),
            (Lang::Zh, 0) if more.is_empty() => format!("/{query}：没有匹配 · Esc 清除"),
            (Lang::En, _) => {
                format!("/{query}: {place} of {count}{more} · n/N next/previous · Esc clears")
            }
            (Lang::Zh, _) => {
                format!(
                    "/{query}：第 {place} 个，共 {count}{more} 个 · n/N 下一个/上一个 · Esc 清除"
                )
            }
        }
    }

    /// The footer while the run plays by itself.
    pub fn autoplay_status(self, speed: &str) -> String {
        match self.lang {
            Lang::En => format!("▶ playing {speed}× · a pauses"),
            Lang::Zh => format!("▶ 自动播放 {speed}× · a 暂停"),
        }
    }

    /// What the keys do in the HTML handout, after the keys themselves.
    pub fn handout_keys(self) -> &'static str {
        self.pick(
            "step through the run; a step's heading links to it",
            "逐步查看；每一步的标题是指向它的链接",
        )
    }

    /// A handout's title when it holds several runs: the first's, and how
    /// many there are.
    pub fn first_of_runs(self, first: &str, runs: usize) -> String {
        match self.lang {
            Lang::En => format!("{first} (and {} more runs)", runs - 1),
            Lang::Zh => format!("{first}（另有 {} 条运行记录）", runs - 1),
        }
    }

    /// Which runs of a file a handout holds, said on standard error:
    /// `(from, to)` counted from 1, of `of`.
    pub fn exported_runs(self, (from, to): (usize, usize), of: usize) -> String {
        match (self.lang, from == to) {
            (Lang::En, true) => format!("the handout holds run {from} of {of}"),
            (Lang::En, false) => format!("the handout holds runs {from} to {to} of {of}"),
            (Lang::Zh, true) => format!("讲义包含第 {from} 条运行记录（共 {of} 条）"),
            (Lang::Zh, false) => format!("讲义包含第 {from} 到 {to} 条运行记录（共 {of} 条）"),
        }
    }

    pub fn too_small(self, width: u16, height: u16, min_width: u16, min_height: u16) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep needs a terminal of at least {min_width}×{min_height}; this one is \
                 {width}×{height}. Enlarge the window or make the font smaller. q quits."
            ),
            Lang::Zh => format!(
                "loopstep 需要至少 {min_width}×{min_height} 的终端，当前为 {width}×{height}。\
                 请放大窗口或缩小字体。按 q 退出。"
            ),
        }
    }

    // The title bar.
    /// Which run of how many; `loading` while more of the file's runs
    /// are still being read.
    pub fn run_position(self, index: usize, count: usize, loading: bool) -> String {
        match (self.lang, loading) {
            (Lang::En, false) => format!("run {}/{count}", index + 1),
            (Lang::En, true) => format!("run {}/{count}, more loading", index + 1),
            (Lang::Zh, false) => format!("记录 {}/{count}", index + 1),
            (Lang::Zh, true) => format!("记录 {}/{count}，其余仍在加载", index + 1),
        }
    }

    /// The keys under a scene's title card.
    pub fn present_card_keys(self) -> &'static str {
        self.pick(
            " →/Space/Enter open the run  ] PgDn next scene  [ PgUp previous  q quit",
            " →/空格/回车 打开这一幕  ] PgDn 下一幕  [ PgUp 上一幕  q 退出",
        )
    }

    /// The word in large letters: short, as the loop's code would name it, or
    /// as the lessons say it in Chinese. `None` is Python's, in either.
    pub fn banner_word(self, phase: Phase) -> &'static str {
        match (self.lang, phase) {
            (_, Phase::BudgetExhausted) => "None",
            (Lang::En, Phase::Start) => "start",
            (Lang::En, Phase::Call) => "call",
            (Lang::En, Phase::Check) => "check",
            (Lang::En, Phase::Dispatch) => "dispatch",
            (Lang::En, Phase::Append) => "append",
            (Lang::En, Phase::GoalCheck) => "goal",
            (Lang::En, Phase::Inserted) => "insert",
            (Lang::En, Phase::PushedBack) => "push back",
            (Lang::En, Phase::Answer) => "answer",
            (Lang::En, Phase::Stopped) => "stop",
            (Lang::En, Phase::RecordingEnded | Phase::Ended) => "end",
            (Lang::En, Phase::Rejected) => "reject",
            (Lang::Zh, Phase::Start) => "开始",
            (Lang::Zh, Phase::Call) => "调用",
            (Lang::Zh, Phase::Check) => "检查",
            (Lang::Zh, Phase::Dispatch) => "派发",
            (Lang::Zh, Phase::Append) => "追加",
            (Lang::Zh, Phase::GoalCheck) => "目标",
            (Lang::Zh, Phase::Inserted) => "插入",
            (Lang::Zh, Phase::PushedBack) => "推回",
            (Lang::Zh, Phase::Answer) => "回答",
            (Lang::Zh, Phase::Stopped) => "中止",
            (Lang::Zh, Phase::RecordingEnded | Phase::Ended) => "结束",
            (Lang::Zh, Phase::Rejected) => "被拒",
        }
    }

    pub fn check_label(self, policy: CheckPolicy) -> &'static str {
        match policy {
            CheckPolicy::Lesson => self.pick("lesson check", "本课简化检查"),
            CheckPolicy::Production => self.pick("production check", "生产循环检查"),
        }
    }

    /// A common mistake as the reader's language names it; the flag name
    /// in English, which is also what `--mistake` takes.
    pub fn mistake_name(self, mistake: Mistake) -> &'static str {
        match (self.lang, mistake) {
            (Lang::En, m) => m.name(),
            (Lang::Zh, Mistake::DropResults) => "丢弃工具结果",
            (Lang::Zh, Mistake::ForgetRequest) => "忘记保存工具请求",
            (Lang::Zh, Mistake::WrongOrder) => "追加顺序颠倒",
            (Lang::Zh, Mistake::SplitResults) => "工具结果分开追加",
            (Lang::Zh, Mistake::StopOnText) => "看到文字就停",
            (Lang::Zh, Mistake::NoBudget) => "没有轮次上限",
            (Lang::Zh, Mistake::DropOneResult) => "漏掉一个工具结果",
            (Lang::Zh, Mistake::DispatchBeforeCheck) => "先派发后检查",
            (Lang::Zh, Mistake::HardCodedPlan) => "把任务步骤写死在循环里",
        }
    }

    pub fn mistake_banner(self, name: &str) -> String {
        match self.lang {
            Lang::En => format!(" MISTAKE: {name} · M fixes "),
            Lang::Zh => format!(" 常见错误：{name} · 按 M 改正 "),
        }
    }

    // The messages panel's title.
    pub fn messages_sent(self, number: u32, count: usize, chars: usize) -> String {
        match self.lang {
            Lang::En => {
                format!("call #{number} sent all {count} ({chars} chars) · reply → #{count}")
            }
            Lang::Zh => {
                format!("第 {number} 次调用发送全部 {count} 条（{chars} 字符）· 回复 → #{count}")
            }
        }
    }

    pub fn messages_held(self, count: usize, chars: usize) -> String {
        match self.lang {
            Lang::En => format!("{count} so far, {chars} chars"),
            Lang::Zh => format!("目前 {count} 条，{chars} 字符"),
        }
    }

    /// `count` steps are known; a `+` after it says more are still to replay.
    pub fn step_title(
        self,
        index: usize,
        (count, complete): (usize, bool),
        turn: u32,
        phase: Phase,
    ) -> String {
        let phase = self.phase(phase);
        let more = if complete { "" } else { "+" };
        match self.lang {
            Lang::En => format!("step {}/{count}{more} · turn {turn} · {phase}", index + 1),
            Lang::Zh => format!("第 {}/{count}{more} 步 · 第 {turn} 轮 · {phase}", index + 1),
        }
    }

    pub fn loading_title(self, what: &str) -> String {
        match self.lang {
            Lang::En => format!("opening {what}"),
            Lang::Zh => format!("正在打开 {what}"),
        }
    }

    /// `size` is 0 when it is not known beforehand.
    pub fn loading_read(self, read: u64, size: u64) -> String {
        let mb = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1e6);
        match (self.lang, size) {
            (Lang::En, 0) => format!("reading: {} so far", mb(read)),
            (Lang::Zh, 0) => format!("读取中：已读 {}", mb(read)),
            (Lang::En, _) => format!("reading: {} of {}", mb(read), mb(size)),
            (Lang::Zh, _) => format!("读取中：{} / {}", mb(read), mb(size)),
        }
    }

    pub fn loading_parse(self) -> &'static str {
        self.pick("parsing and importing", "解析并导入中")
    }

    pub fn loading_keys(self) -> &'static str {
        self.pick(
            "q quits · other keys act once the run is open",
            "q 退出 · 其他按键要等打开后才起作用",
        )
    }
}
