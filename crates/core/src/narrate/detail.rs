//! The detail pane's words: what a step sent, received, ran or appended,
//! the wire view's labels, and the goal check with its evidence.

use super::{Lang, Say, plural};
use crate::engine::{PushBack, Timing, Usage};
use crate::transcript::{Evidence, Miss};

impl Say {
    pub fn note(self) -> &'static str {
        self.pick("note: ", "注：")
    }

    pub fn remark(self) -> &'static str {
        self.pick("remark: ", "讲解：")
    }

    /// A teacher's notes in a lesson's handout.
    pub fn notes_label(self) -> &'static str {
        self.pick("notes: ", "讲稿：")
    }

    /// The detail pane's title when it holds more than it shows; in a
    /// lesson, where PgUp and PgDn change scenes, the other keys.
    pub fn more_below(self, in_lesson: bool) -> &'static str {
        match in_lesson {
            false => self.pick(" · PgUp/PgDn scroll", " · PgUp/PgDn 滚动"),
            true => self.pick(" · K/J scroll", " · K/J 滚动"),
        }
    }

    pub fn folded_note(self, hidden_lines: usize) -> String {
        match (self.lang, hidden_lines) {
            (Lang::En, 0) => "… folded · e unfolds".to_owned(),
            (Lang::En, n) => format!("… {n} more line{} folded · e unfolds", plural(n)),
            (Lang::Zh, 0) => "… 已折叠 · 按 e 展开".to_owned(),
            (Lang::Zh, n) => format!("… 另有 {n} 行已折叠 · 按 e 展开"),
        }
    }

    pub fn wire_title(self) -> String {
        match self.lang {
            Lang::En => format!(" · {} wire (w)", self.w.api),
            Lang::Zh => format!(" · {} 原始 JSON (w)", self.w.api),
        }
    }

    pub fn wire_request(self, number: u32) -> String {
        match self.lang {
            Lang::En => format!("request #{number}, the body the client sends:"),
            Lang::Zh => format!("第 {number} 次请求，客户端发送的请求体："),
        }
    }

    pub fn wire_response(self) -> String {
        match self.lang {
            Lang::En => "response, with the stop reason the check reads:".to_owned(),
            Lang::Zh => format!("响应，检查读取其中的{}：", self.told.stop_field_zh),
        }
    }

    pub fn wire_tool_call(self) -> &'static str {
        self.pick(
            "the tool call, as the model asked for it:",
            "模型发出的工具请求：",
        )
    }

    pub fn wire_tool_result(self) -> &'static str {
        self.pick(
            "its result, as the next request carries it:",
            "它的工具结果，随下一次请求发送：",
        )
    }

    pub fn wire_appended(self) -> &'static str {
        self.pick("appended to messages:", "追加到 messages：")
    }

    pub fn wire_inserted(self, by_harness: bool) -> &'static str {
        if by_harness {
            self.pick("added by the harness:", "运行框架加入：")
        } else {
            self.pick("added by the client on its own:", "客户端自行加入：")
        }
    }

    pub fn wire_nothing(self) -> &'static str {
        self.pick(
            "Nothing crosses the wire at this step: the loop returns to its caller.",
            "这一步没有收发任何数据：循环返回给调用方。",
        )
    }

    pub fn wire_start(self) -> &'static str {
        self.pick(
            "Nothing has crossed the wire yet; the first request will carry:",
            "尚未收发任何数据；第一次请求将携带：",
        )
    }

    pub fn wire_earlier(self, count: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "… {count} earlier message{}, resent in full (e shows them) …",
                plural(count)
            ),
            Lang::Zh => format!("… 之前的 {count} 条消息，完整重发（按 e 显示）…"),
        }
    }

    pub fn wire_tools(self, count: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "… {count} tool definition{} (e shows them) …",
                plural(count)
            ),
            Lang::Zh => format!("… {count} 个工具定义（按 e 显示）…"),
        }
    }

    pub fn shortened(self, kept: &str, total_chars: usize) -> String {
        match self.lang {
            Lang::En => format!("{kept}… ({total_chars} chars; e unfolds)"),
            Lang::Zh => format!("{kept}…（共 {total_chars} 字符；按 e 展开）"),
        }
    }

    pub fn detail_start(self, messages: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "turn 0: messages holds {messages} message{}, nothing is sent yet",
                plural(messages)
            ),
            Lang::Zh => format!("第 0 轮：messages 里有 {messages} 条消息，还没有发送任何内容"),
        }
    }

    pub fn detail_earlier(self, count: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "… {count} earlier message{}: the history the run opens with (the messages \
                 panel lists them)",
                plural(count)
            ),
            Lang::Zh => format!("… 之前的 {count} 条消息：本次运行开头的历史（消息面板里都列着）"),
        }
    }

    /// A request's head: every message goes, every time; only the first
    /// request has nothing before it to send again.
    pub fn detail_request(self, number: u32, messages: usize, chars: usize) -> String {
        let (again, again_zh) = match number {
            1 => ("sent", "发送"),
            _ => ("resent", "重发"),
        };
        match self.lang {
            Lang::En => format!(
                "request #{number}: all {messages} message{} ({chars} chars), {again} in full",
                plural(messages)
            ),
            Lang::Zh => {
                format!("第 {number} 次请求：{again_zh} {messages} 条消息（{chars} 字符）")
            }
        }
    }

    /// What a request takes of the model's context window (`window`
    /// tokens): `tokens` as recorded, or estimated from its characters.
    pub fn detail_window(self, (tokens, recorded): (u64, bool), window: u64) -> String {
        let share = match tokens as f64 * 100.0 / window as f64 {
            s if s < 0.1 => "<0.1%".to_owned(),
            s => format!("{s:.1}%"),
        };
        let window = match window {
            w if w % 1_000_000 == 0 => format!("{}M", w / 1_000_000),
            w if w % 1_000 == 0 => format!("{}K", w / 1_000),
            w => w.to_string(),
        };
        match (self.lang, recorded) {
            (Lang::En, true) => {
                format!("context window: {tokens} of {window} tokens ({share}), as recorded")
            }
            (Lang::En, false) => {
                format!("context window: ≈{tokens} of {window} tokens ({share}), estimated")
            }
            (Lang::Zh, true) => {
                format!("上下文窗口：{window} token 中用了 {tokens} 个（{share}，记录值）")
            }
            (Lang::Zh, false) => {
                format!("上下文窗口：{window} token 中约用了 {tokens} 个（{share}，估算）")
            }
        }
    }

    /// A reply the recording received streamed.
    pub fn detail_streamed(self) -> &'static str {
        self.pick(
            "streamed: the reply arrived piece by piece as server-sent events; the loop checks \
             it only once it is whole",
            "流式返回：回复以服务器推送事件（SSE）一段段到达；循环要等它完整了才检查",
        )
    }

    /// While the quiz asks what the loop does with the reply.
    pub fn detail_reply_hidden(self) -> &'static str {
        self.pick(
            "reply: hidden until the class answers",
            "回复：先藏起来，等全班回答后再显示",
        )
    }

    pub fn detail_reply(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        match self.lang {
            Lang::En => format!("reply: {} {stop_reason}", self.stop_field()),
            Lang::Zh => format!("回复：{} 为 {stop_reason}", self.stop_field()),
        }
    }

    pub fn inferred(self) -> String {
        match self.lang {
            Lang::En => format!(
                " (inferred: the recording carries no {})",
                self.w.stop_field
            ),
            Lang::Zh => format!("（推断：记录中没有 {}）", self.w.stop_field),
        }
    }

    /// A tool call that started a sub-agent, whose run is open too.
    pub fn detail_subagent(self, title: &str) -> String {
        match self.lang {
            Lang::En => format!("▸ started a sub-agent, the run “{title}” · Enter opens it"),
            Lang::Zh => format!("▸ 启动了子智能体（运行“{title}”）· 按 Enter 打开"),
        }
    }

    /// A call's recorded tokens, the cache's part named, and what they
    /// cost when a price list has the model.
    pub fn detail_usage(self, usage: &Usage, cost: Option<f64>) -> String {
        format!("{}{}", self.usage_words(usage), self.cost_words(cost))
    }

    /// Recorded tokens: in (of which from and to the cache), out.
    pub fn usage_words(self, usage: &Usage) -> String {
        let (input, output) = (usage.all_input(), usage.output_tokens);
        let (read, written) = (usage.cache_read_tokens, usage.cache_write_tokens);
        let cache = match (self.lang, read, written) {
            (_, 0, 0) => String::new(),
            (Lang::En, read, 0) => format!(" ({read} cached)"),
            (Lang::En, read, written) => format!(" ({read} cached, {written} to the cache)"),
            (Lang::Zh, read, 0) => format!("（其中 {read} 读自缓存）"),
            (Lang::Zh, read, written) => format!("（其中 {read} 读自缓存，{written} 写入缓存）"),
        };
        match self.lang {
            Lang::En => format!("recorded: {input} tokens in{cache}, {output} out"),
            Lang::Zh => format!("记录的 token：输入 {input}{cache}，输出 {output}"),
        }
    }

    /// A recorded time, "started 12:00:03 · took 4.2 s" on the recording's
    /// own clock, marked when it took long, with the pause before it when
    /// that was long: where a run spent its time.
    pub fn detail_time(self, time: &Timing, pause: Option<u64>) -> String {
        let (clock, took) = (time.started.clock(), self.duration(time.millis));
        let mut words = match self.lang {
            Lang::En => format!("started {clock} · took {took}"),
            Lang::Zh => format!("开始于 {clock} · 用时 {took}"),
        };
        if time.is_long() {
            words.push_str(self.pick(" (long)", "（较长）"));
        }
        if let Some(pause) = pause {
            let pause = self.duration(pause);
            words.push_str(&match self.lang {
                Lang::En => format!(" · after a {pause} pause"),
                Lang::Zh => format!(" · 此前停顿 {pause}"),
            });
        }
        words
    }

    /// Said of a tool that started `early` milliseconds before the reply
    /// that asked for it had finished arriving.
    pub fn detail_while_streaming(self, early: u64) -> String {
        let early = self.duration(early);
        match self.lang {
            Lang::En => format!(
                " · began {early} before its reply finished: the client ran it while the \
                 response was still streaming"
            ),
            Lang::Zh => {
                format!(" · 在回复结束前 {early} 就开始了：客户端在响应仍在流式传输时就运行了它")
            }
        }
    }

    /// Said of a tool that took long: the production concern the lessons
    /// name, that max_turns counts model calls and bounds no tool's time.
    pub fn detail_long_tool(self) -> &'static str {
        self.pick(
            " · max_turns counts model calls, not time: only the harness's own timeout for each \
             tool stops one that hangs",
            " · max_turns 只限制模型调用次数，不限制时间：只有运行框架给每个工具设的超时\
             才能停下卡住的工具",
        )
    }

    /// " · took 4.2 s", for a `run` line: how long a recorded step took.
    pub fn took(self, time: &Timing) -> String {
        let took = self.duration(time.millis);
        match self.lang {
            Lang::En => format!(" · took {took}"),
            Lang::Zh => format!(" · 用时 {took}"),
        }
    }

    /// "4.2 s", "2 min 5 s": tenths of a second while they matter.
    pub fn duration(self, millis: u64) -> String {
        let (seconds, minutes) = (millis as f64 / 1000.0, millis / 60_000);
        let rest = millis / 1000 % 60;
        match (self.lang, minutes) {
            (Lang::En, 0) => format!("{seconds:.1} s"),
            (Lang::En, _) => format!("{minutes} min {rest} s"),
            (Lang::Zh, 0) => format!("{seconds:.1} 秒"),
            (Lang::Zh, _) => format!("{minutes} 分 {rest} 秒"),
        }
    }

    /// " · $0.0123" when there is a cost to tell.
    pub fn cost_words(self, cost: Option<f64>) -> String {
        cost.map_or(String::new(), |dollars| format!(" · ${dollars:.4}"))
    }

    pub fn detail_pushed_back(self, by: Option<PushBack>) -> String {
        let name = self.push_back_name(by);
        match self.lang {
            Lang::En => format!("the harness sent {name} back → call again"),
            Lang::Zh => format!("运行框架发回{name} → 再次调用"),
        }
    }

    pub fn detail_inserted(self, count: usize, by: Option<PushBack>) -> String {
        if by.is_some() {
            let name = self.push_back_name(by);
            return match self.lang {
                Lang::En => format!("the harness added {name} before the next call"),
                Lang::Zh => format!("运行框架在下一次调用前加入了{name}"),
            };
        }
        match self.lang {
            Lang::En => format!(
                "the client added {count} message{} that no model reply asked for",
                plural(count)
            ),
            Lang::Zh => format!("客户端加入了 {count} 条没有任何模型回复请求过的消息"),
        }
    }

    pub fn detail_check(self, stop_reason: &str, branch: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        match self.lang {
            Lang::En => format!("{} {stop_reason} → {branch}", self.stop_field()),
            Lang::Zh => format!("{} 为 {stop_reason} → {branch}", self.stop_field()),
        }
    }

    pub fn branch_dispatch(self) -> &'static str {
        self.pick("dispatch every tool request", "派发每一个工具请求")
    }

    pub fn branch_answer(self) -> &'static str {
        self.pick("return the text", "返回文本")
    }

    /// A reply the recorded harness then sent back.
    pub fn branch_read_first(self) -> &'static str {
        self.pick("a reply the harness reads first", "一条运行框架先读的回复")
    }

    pub fn branch_continue(self) -> &'static str {
        self.pick("send the conversation back as it is", "把对话原样发回")
    }

    pub fn branch_stop(self) -> &'static str {
        self.pick("halt without an answer", "中止，没有回答")
    }

    pub fn detail_tool(self, name: &str, id: &str) -> String {
        match self.lang {
            Lang::En => format!("tool {name}   id {id}"),
            Lang::Zh => format!("工具 {name}   id {id}"),
        }
    }

    pub fn detail_input(self) -> &'static str {
        self.pick("input: ", "输入：")
    }

    pub fn detail_result(self) -> &'static str {
        self.pick("result: ", "工具结果：")
    }

    pub fn detail_error(self) -> &'static str {
        self.pick("error result: ", "错误结果：")
    }

    pub fn detail_append(self, results: usize, index: usize) -> String {
        let form = self.told.results_message.get(self.lang);
        match self.lang {
            Lang::En => format!(
                "messages[{index}] ← {results} result{} as {form}",
                plural(results)
            ),
            Lang::Zh => format!("messages[{index}] ← {results} 个工具结果，作为{form}"),
        }
    }

    pub fn detail_wrong_order(self, index: usize) -> String {
        match self.lang {
            Lang::En => {
                format!("messages[{index}] ← the results first, then the model's own request")
            }
            Lang::Zh => format!("messages[{index}] ← 先追加工具结果，再追加模型自己的请求"),
        }
    }

    pub fn detail_dropped(self, results: usize) -> String {
        match self.lang {
            Lang::En => format!(
                "{results} result{} dropped: nothing was appended to messages",
                plural(results)
            ),
            Lang::Zh => format!("丢弃了 {results} 个工具结果：messages 里什么也没追加"),
        }
    }

    pub fn detail_split(self, results: usize, messages: usize) -> String {
        match self.lang {
            Lang::En => format!("{results} results appended as {messages} separate user messages"),
            Lang::Zh => format!("{results} 个工具结果被拆成 {messages} 条独立的 user 消息追加"),
        }
    }

    pub fn detail_return(self) -> &'static str {
        self.pick("return ", "返回 ")
    }

    /// `tools`: the tool calls asked for, and how many of them ran.
    pub fn detail_totals(self, calls: usize, (asked, ran): (usize, usize)) -> String {
        match (self.lang, asked == ran) {
            (Lang::En, true) => format!(
                "the loop ends after {calls} model call{} and {asked} tool call{}",
                plural(calls),
                plural(asked)
            ),
            (Lang::En, false) => format!(
                "the loop ends after {calls} model call{} and {asked} tool request{}, {ran} of \
                 them run",
                plural(calls),
                plural(asked)
            ),
            (Lang::Zh, true) => format!("循环在 {calls} 次模型调用、{asked} 次工具调用后结束"),
            (Lang::Zh, false) => format!(
                "循环在 {calls} 次模型调用、{asked} 次工具请求（其中 {ran} 次实际运行）后结束"
            ),
        }
    }

    pub fn detail_no_turn_left(self, next_call: usize, max_turns: u32) -> String {
        match self.lang {
            Lang::En => format!("no turn left for call #{next_call}: max_turns = {max_turns}"),
            Lang::Zh => format!("已没有轮次留给第 {next_call} 次调用（max_turns = {max_turns}）"),
        }
    }

    pub fn detail_none_means(self) -> &'static str {
        self.pick(
            "The facts may already be in messages, but the model never got the call that would \
             use them. A caller must treat None as \"no answer within budget\", never as an answer.",
            "答案所需的资料可能已经在 messages 里，但循环不再调用模型，模型没有机会用上它们。\
             调用方必须把 None 当作“预算内没有回答”，绝不能当作回答。",
        )
    }

    /// Every check passed; `checked`: one of them looked at the work itself.
    pub fn detail_goal_verified(self, evidence: &[Evidence], checked: bool) -> String {
        let evidence = self.evidence_list(evidence);
        match (self.lang, checked) {
            (Lang::En, true) => format!("goal check: verified, {evidence}"),
            // The caveat first: a pane too short for the evidence still shows it.
            (Lang::En, false) => format!(
                "goal check: the work itself was not checked; the tools reported success \
                 ({evidence})"
            ),
            (Lang::Zh, true) => format!("目标检查：已验证，{evidence}"),
            (Lang::Zh, false) => {
                format!("目标检查：产物本身没有核实，只有工具报告成功（{evidence}）")
            }
        }
    }

    pub fn detail_goal_missed(self, misses: &[Miss]) -> String {
        match self.lang {
            Lang::En => format!("goal check failed: {}", self.miss_list(misses)),
            Lang::Zh => format!("目标检查未通过：{}", self.miss_list(misses)),
        }
    }

    /// How an answer fell short, every way.
    pub fn miss_list(self, misses: &[Miss]) -> String {
        let one = |m: &Miss| match (self.lang, m) {
            (Lang::En, Miss::Answer { expected, got }) => {
                format!("expected the answer {expected:?}, got {got:?}")
            }
            (Lang::En, Miss::ModelCalls { expected, took }) => {
                format!(
                    "expected {expected} model call{}, took {took}",
                    super::plural(*expected)
                )
            }
            (Lang::En, Miss::ToolError { name, id, error }) => {
                format!("tool `{name}` ({id}) reported an error: {error}")
            }
            (Lang::En, Miss::NoToolRan) => {
                "no tool ran, so nothing shows that the work was done".to_owned()
            }
            (Lang::Zh, Miss::Answer { expected, got }) => {
                format!("预期回答“{expected}”，实际是“{got}”")
            }
            (Lang::Zh, Miss::ModelCalls { expected, took }) => {
                format!("预期模型调用 {expected} 次，实际 {took} 次")
            }
            (Lang::Zh, Miss::ToolError { name, id, error }) => {
                format!("工具 {name}（{id}）报错：{error}")
            }
            (Lang::Zh, Miss::NoToolRan) => "没有运行任何工具，没有证据表明工作已经完成".to_owned(),
        };
        let sep = self.pick("; ", "；");
        misses.iter().map(one).collect::<Vec<_>>().join(sep)
    }

    pub fn detail_goal_check(self, tool: &str, passed: bool) -> String {
        match (self.lang, passed) {
            (Lang::En, true) => format!("goal check: `{tool}` has succeeded → return the answer"),
            (Lang::En, false) => {
                format!("goal check: `{tool}` has not succeeded → push back and call again")
            }
            (Lang::Zh, true) => format!("目标检查：{tool} 已成功 → 返回回答"),
            (Lang::Zh, false) => format!("目标检查：{tool} 尚未成功 → 追加“还没完成”，再次调用"),
        }
    }

    /// The checks a verified answer passed, in full: "verified" never stands alone.
    pub fn evidence_list(self, evidence: &[Evidence]) -> String {
        let one = |e: &Evidence| match (self.lang, e) {
            (Lang::En, Evidence::Answer(a)) => format!("the answer matched the expected {a:?}"),
            (Lang::En, Evidence::ModelCalls(n)) => {
                format!("{n} model call{}, as expected", plural(*n))
            }
            (Lang::En, Evidence::NoToolErrors) => "no tool reported an error".to_owned(),
            (Lang::En, Evidence::GoalCheck(tool)) => {
                format!("the harness's goal check saw `{tool}` succeed")
            }
            (Lang::Zh, Evidence::Answer(a)) => format!("回答与预期的“{a}”一致"),
            (Lang::Zh, Evidence::ModelCalls(n)) => format!("模型调用 {n} 次，与预期一致"),
            (Lang::Zh, Evidence::NoToolErrors) => "没有工具报错".to_owned(),
            (Lang::Zh, Evidence::GoalCheck(tool)) => {
                format!("运行框架的目标检查确认 {tool} 已成功")
            }
        };
        let sep = self.pick("; ", "；");
        evidence.iter().map(one).collect::<Vec<_>>().join(sep)
    }

    /// The same, in a few words for the outcome line: "verified: answer, calls".
    pub fn verified_short(self, evidence: &[Evidence], checked: bool) -> String {
        let one = |e: &Evidence| match e {
            Evidence::Answer(_) => self.pick("answer", "回答"),
            Evidence::ModelCalls(_) => self.pick("calls", "调用数"),
            Evidence::NoToolErrors => self.pick("no errors", "无报错"),
            Evidence::GoalCheck(_) => self.pick("goal", "目标"),
        };
        let names: Vec<&str> = evidence.iter().map(one).collect();
        match (self.lang, checked) {
            (Lang::En, true) => format!("verified: {}", names.join(", ")),
            (Lang::En, false) => format!("tools reported: {}", names.join(", ")),
            (Lang::Zh, true) => format!("已验证：{}", names.join("、")),
            (Lang::Zh, false) => format!("工具报告：{}", names.join("、")),
        }
    }
}
