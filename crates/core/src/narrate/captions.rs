//! Captions: what the current step does and why, in a sentence or two.

use super::{Lang, Say, plural};
use crate::dialect::Dialect;
use crate::engine::{EndedBy, Ending, PushBack, Rounds};
use crate::text::one_line;
use crate::transcript::Compaction;

/// Whether a dispatched tool failed, and what the harness did about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    No,
    /// The error went back to the model as a result.
    Reported,
    /// The harness could not run the call (no such tool, unreadable
    /// input): its error went back as a result.
    NotRun,
    /// The harness raised it to its caller.
    Raised,
}

impl Say {
    /// The start; `led` when the system prompt opens `messages`, as Chat
    /// Completions sends it.
    pub fn caption_start(self, messages: usize, led: bool) -> String {
        match (self.lang, messages, led) {
            (Lang::En, 2, true) => "Start, turn 0: messages holds the system prompt, which \
                 Chat Completions sends as the first message, then the question; nothing has \
                 been sent yet. Each turn will call the model, check its reply, and maybe \
                 dispatch tools and append results."
                .to_owned(),
            (Lang::Zh, 2, true) => "开始，第 0 轮：messages 里先是系统提示词（Chat Completions \
                 把它作为第一条消息发送），然后是问题，还没有发送任何内容。\
                 之后每一轮都会调用模型、检查回复，需要时派发工具并追加工具结果。"
                .to_owned(),
            (Lang::En, 1, _) => "Start, turn 0: messages holds just the question and nothing has \
                 been sent yet. Each turn will call the model, check its reply, and maybe \
                 dispatch tools and append results."
                .to_owned(),
            (Lang::En, n, _) => format!(
                "Start, turn 0: messages holds {n} messages, the question last, and nothing has \
                 been sent yet. Each turn will call the model, check its reply, and maybe \
                 dispatch tools and append results."
            ),
            (Lang::Zh, 1, _) => "开始，第 0 轮：messages 里只有问题，还没有发送任何内容。\
                 之后每一轮都会调用模型、检查回复，需要时派发工具并追加工具结果。"
                .to_owned(),
            (Lang::Zh, n, _) => format!(
                "开始，第 0 轮：messages 里有 {n} 条消息，问题在最后，还没有发送任何内容。\
                 之后每一轮都会调用模型、检查回复，需要时派发工具并追加工具结果。"
            ),
        }
    }

    /// The first call; `led` as for [`Say::caption_start`], `history` when
    /// earlier messages come before the question.
    pub fn caption_first_call(self, led: bool, history: bool) -> &'static str {
        match (led, history) {
            (_, true) => self.pick(
                "Call: the loop sends the model the conversation so far: the messages the run \
                 opened with, then the question. The reply is saved into messages before \
                 anything else happens.",
                "调用：循环把目前的对话发给模型：先是这次运行开头已有的消息，然后是问题。\
                 回复会先存进 messages，然后才做别的事。",
            ),
            (false, false) => self.pick(
                "Call: the loop sends the model the conversation so far, which is just the \
                 question. The reply is saved into messages before anything else happens.",
                "调用：循环把目前的对话发给模型，现在只有问题本身。\
                 回复会先存进 messages，然后才做别的事。",
            ),
            (true, false) => self.pick(
                "Call: the loop sends the model the conversation so far: the system prompt and \
                 the question. The reply is saved into messages before anything else happens.",
                "调用：循环把目前的对话发给模型，现在是系统提示词和问题。\
                 回复会先存进 messages，然后才做别的事。",
            ),
        }
    }

    /// Said after a call's caption when the API read part of its input
    /// from the prompt cache: resending is what lets the cache work.
    pub fn caption_cache_read(self, read: u64, all: u64) -> String {
        match self.lang {
            Lang::En => format!(
                " The recording shows the API read {read} of its {all} input tokens from its \
                 prompt cache: the history it had already seen was resent whole, but not worked \
                 through again, and is billed at the cache's lower price."
            ),
            Lang::Zh => format!(
                "记录显示，API 从提示缓存读取了这次 {all} 个输入 token 中的 {read} 个：\
                 之前见过的历史照样整段重发，但不再重新处理，并按较低的缓存价格计费。"
            ),
        }
    }

    /// A call after the first: the whole list goes again, every time. Even
    /// where the API keeps the conversation on its side, the model reads all
    /// of it at every call.
    pub fn caption_call(self, number: u32, messages: usize) -> String {
        let api = self.w.api;
        match (self.lang, self.w.keeps_state) {
            (Lang::En, true) => format!(
                "Call #{number}: {api} can keep the conversation on its side \
                 (previous_response_id), but this loop, like the lesson's, resends all \
                 {messages} messages; kept on the server or not, the model reads the whole \
                 conversation at every call. The reply joins the list."
            ),
            (Lang::En, false) => format!(
                "Call #{number}: the {api} API keeps no memory between calls, so the loop resends \
                 all {messages} messages (an API that keeps the conversation on its side, such as \
                 OpenAI Responses with previous_response_id, still has the model read all of it \
                 at every call). The reply joins the list."
            ),
            (Lang::Zh, true) => format!(
                "第 {number} 次调用：{api} 可以在服务端保存对话（previous_response_id），\
                 但这个循环和本课一样，重新发送全部 {messages} 条消息；\
                 不论对话是否保存在服务端，模型每次调用都要把它从头读一遍。回复追加到 messages。"
            ),
            (Lang::Zh, false) => format!(
                "第 {number} 次调用：{api} API 在两次调用之间不保存任何状态，\
                 所以循环重新发送全部 {messages} 条消息（即使像 OpenAI Responses 那样\
                 用 previous_response_id 在服务端保存对话，模型每次调用仍要把它从头读一遍）。\
                 回复追加到 messages。"
            ),
        }
    }

    pub fn caption_check_dispatch(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        let calls_in = self.told.calls_in.map(|t| t.get(self.lang));
        match (self.lang, calls_in) {
            (Lang::En, Some(calls_in)) => format!(
                "Check: {field} is {stop_reason} and {calls_in}, so the model is asking for \
                 tools. The loop reads the response; it never guesses from the text."
            ),
            (Lang::Zh, Some(calls_in)) => format!(
                "检查：{field} 为 {stop_reason}，{calls_in}，说明模型在提出工具请求。\
                 循环只看响应本身，从不根据文字去猜。"
            ),
            (Lang::En, None) => format!(
                "Check: {field} is {stop_reason}, so the model is asking for tools. The loop \
                 reads this field; it never guesses from the reply's text."
            ),
            (Lang::Zh, None) => format!(
                "检查：{field} 为 {stop_reason}，说明模型在提出工具请求。\
                 循环只看这个字段，从不根据回复的文字去猜。"
            ),
        }
    }

    /// `goal`: the harness checks a goal before the loop may return.
    pub fn caption_check_answer(self, stop_reason: &str, goal: bool) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match (self.lang, goal) {
            (Lang::En, true) => format!(
                "Check: {field} is {stop_reason}, so the model says it has answered. Before the \
                 loop returns, the harness checks the goal."
            ),
            (Lang::Zh, true) => format!(
                "检查：{field} 为 {stop_reason}，模型说它已经回答。循环返回之前，运行框架先检查目标。"
            ),
            (Lang::En, false) => format!(
                "Check: {field} is {stop_reason}, so the model has answered. The loop leaves \
                 with the reply's text."
            ),
            (Lang::Zh, false) => format!(
                "检查：{field} 为 {stop_reason}，说明模型已经回答。循环带着回复的文字退出。"
            ),
        }
    }

    /// The check reads an answer, and the recorded harness then sends the
    /// model back: the caption must not say the loop leaves.
    pub fn caption_check_answer_pushed_back(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match self.lang {
            Lang::En => format!(
                "Check: {field} is {stop_reason}, so the model says it has answered. The loop \
                 would leave with the reply's text, but this harness reads the reply first."
            ),
            Lang::Zh => format!(
                "检查：{field} 为 {stop_reason}，模型说它已经回答。循环本会带着回复的文字退出，\
                 但这个运行框架先读了这条回复。"
            ),
        }
    }

    pub fn caption_check_continue(self, stop_reason: &str) -> String {
        let field = self.stop_field();
        match self.lang {
            Lang::En => format!(
                "Check: {field} {stop_reason} means the server paused a long turn of its own tools. The \
                 loop sends the conversation back unchanged, the reply's server tool blocks \
                 included, so the model can go on; that costs a turn."
            ),
            Lang::Zh => format!(
                "检查：{field} 为 {stop_reason}，表示服务端执行自己的工具耗时较长，把这一轮暂停了。\
                 循环把对话原样发回（连同回复里的服务端工具块），让模型继续；这会消耗一轮。"
            ),
        }
    }

    /// A stop reason the production check halts on; `read_first` when the
    /// recorded harness then sent the model back instead.
    pub fn caption_check_stop(self, stop_reason: &str, why: &str, read_first: bool) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match (self.lang, read_first) {
            (Lang::En, false) => format!(
                "Check: {field} {stop_reason} is neither a clean tool request nor a finished \
                 answer, so the production check halts: {why}. Press c to see what the lesson's \
                 check does."
            ),
            (Lang::En, true) => format!(
                "Check: {field} {stop_reason} is neither a clean tool request nor a finished \
                 answer: the production check would halt ({why}), but this harness reads the \
                 reply first."
            ),
            (Lang::Zh, false) => format!(
                "检查：{field} 为 {stop_reason}，既不是正常的工具请求，也不是完成的回答，\
                 所以生产循环中止：{why}。按 c 看本课简化检查会怎么做。"
            ),
            (Lang::Zh, true) => format!(
                "检查：{field} 为 {stop_reason}，既不是正常的工具请求，也不是完成的回答：\
                 生产循环本会中止（{why}），但这个运行框架先读了这条回复。"
            ),
        }
    }

    /// A finished-answer stop reason, but the API's refusal field is set.
    pub fn caption_check_refusal_field(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match self.lang {
            Lang::En => format!(
                "Check: {field} is {stop_reason}, as for an answer, but the reply's refusal \
                 field is set: the model declined, so the production check halts. Press c to \
                 see the lesson's check return the empty text instead."
            ),
            Lang::Zh => format!(
                "检查：{field} 为 {stop_reason}，和回答时一样，但回复的 refusal 字段有内容：\
                 模型拒绝了，所以生产循环中止。按 c 看本课简化检查改为返回空文本。"
            ),
        }
    }

    pub fn caption_check_lesson_answer(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let (field, tool) = (self.stop_field(), self.w.tool_stop);
        let request = self.w.tool_request;
        // Where the calls decide (Responses, Gemini), `tool` ends an
        // answer too: what the lesson's check dispatches is a finished
        // reply that holds calls.
        let mut caption = match (self.lang, self.w.calls_in_items) {
            (Lang::En, false) => format!(
                "Check: {field} {stop_reason} is not {tool}, and the lesson's simple check returns \
                 every reply that is not a tool request as the answer. Press c for the production \
                 check."
            ),
            (Lang::En, true) => format!(
                "Check: {field} {stop_reason} is not a finished reply holding {request}, and the \
                 lesson's simple check returns every reply that is not a tool request as the \
                 answer. Press c for the production check."
            ),
            (Lang::Zh, false) => format!(
                "检查：{field} 为 {stop_reason}，不是 {tool}；本课简化检查把所有不是工具请求的回复\
                 都当作回答返回。按 c 切换到生产循环。"
            ),
            (Lang::Zh, true) => format!(
                "检查：{field} 为 {stop_reason}，不是带着 {request} 的完整回复；本课简化检查把所有\
                 不是工具请求的回复都当作回答返回。按 c 切换到生产循环。"
            ),
        };
        // The simple rule is the Messages lesson's (seed 000); the Chat
        // Completions lesson's own loop (seed 001) already reads
        // finish_reason, as the production check does.
        if self.dialect == Dialect::OpenaiChat {
            caption.push_str(self.pick(
                " This rule is the Messages lesson's; the Chat Completions lesson's own loop \
                 already reads finish_reason, as the production check does.",
                "这条规则来自 Messages API 那一课；Chat Completions 那一课自己的循环已经检查 \
                 finish_reason，和生产循环一样。",
            ));
        }
        caption
    }

    /// What a dispatch did: `raised` when this harness hands a failure to
    /// its caller instead of the model.
    pub fn caption_dispatch(self, name: &str, which: (usize, usize), failed: Failed) -> String {
        let flag = self.told.error_flag.map(|flag| flag.get(self.lang));
        let api = self.w.api;
        let (nth, of) = which;
        let head = match (self.lang, of > 1) {
            (Lang::En, true) => format!("Dispatch {nth} of {of}"),
            (Lang::En, false) => "Dispatch".to_owned(),
            (Lang::Zh, true) => format!("派发（第 {nth} 个，共 {of} 个）"),
            (Lang::Zh, false) => "派发".to_owned(),
        };
        match (self.lang, failed) {
            (Lang::En, Failed::No) => format!(
                "{head}: the loop, not the model, runs {name}. Whatever it returns, found or not, \
                 success or error, travels back the same way."
            ),
            (Lang::En, Failed::Reported) => match flag {
                Some(flag) => format!(
                    "{head}: {name} failed. The error goes back as a result (flagged by {flag}), \
                     so the model can read it and decide what to do next."
                ),
                None => format!(
                    "{head}: {name} failed. The error goes back in the result's text ({api} has \
                     no error flag), so the model can read it and decide what to do next."
                ),
            },
            (Lang::En, Failed::NotRun) => format!(
                "{head}: the loop cannot run {name} as asked, so no tool runs; the harness's \
                 own error goes back as a result, and the model can correct itself."
            ),
            (Lang::En, Failed::Raised) => format!(
                "{head}: {name} failed, and this harness raises tool errors to its caller \
                 instead of showing them to the model: the run ends here."
            ),
            (Lang::Zh, Failed::No) => format!(
                "{head}：由循环而不是模型来运行 {name}。无论返回什么，查到没查到、成功还是出错，\
                 都走同一条路发回。"
            ),
            (Lang::Zh, Failed::Reported) => match flag {
                Some(flag) => format!(
                    "{head}：{name} 失败了。错误作为错误结果发回（用 {flag} 标明），模型读到后决定下一步怎么做。"
                ),
                None => format!(
                    "{head}：{name} 失败了。错误写在结果文本里发回（{api} 没有错误标志），\
                     模型读到后决定下一步怎么做。"
                ),
            },
            (Lang::Zh, Failed::NotRun) => format!(
                "{head}：循环无法按请求运行 {name}，所以没有工具运行；运行框架自己的错误作为结果发回，\
                 模型能据此自行纠正。"
            ),
            (Lang::Zh, Failed::Raised) => format!(
                "{head}：{name} 失败了，这个运行框架把工具错误抛给调用方，而不是交给模型：运行到此结束。"
            ),
        }
    }

    /// `turns_left` is false when the budget is spent, so no call follows.
    pub fn caption_append(self, results: usize, turns_left: bool, max_turns: u32) -> String {
        let form = self.told.results_message.get(self.lang);
        let id = self.w.result_id;
        match self.lang {
            Lang::En => {
                let what = match results {
                    1 => format!("the result goes back as {form}"),
                    2 => format!("both results go back together, as {form}"),
                    n => format!("all {n} results go back together, as {form}"),
                };
                let next = if turns_left {
                    "Then the loop turns again.".to_owned()
                } else {
                    format!("The loop would turn again, but max_turns = {max_turns} is spent.")
                };
                format!("Append: {what}, each tagged with the {id} of the call it answers. {next}")
            }
            Lang::Zh => {
                let what = match results {
                    1 => format!("工具结果以{form}的形式发回"),
                    n => format!("全部 {n} 个工具结果一起以{form}的形式发回"),
                };
                let next = if turns_left {
                    "然后循环进入下一轮。".to_owned()
                } else {
                    format!("循环本该进入下一轮，但 max_turns = {max_turns} 的预算已经用完。")
                };
                format!("追加：{what}，每个结果都带着对应调用的 {id}。{next}")
            }
        }
    }

    pub fn caption_goal_met(self, tool: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "Goal check: the model says it is done, and the harness looks for its evidence: \
                 `{tool}` reported success in this run. The answer stands on that report, not on \
                 the model's word alone; the harness does not look at the work itself."
            ),
            Lang::Zh => format!(
                "目标检查：模型说完成了，运行框架去找证据：这次运行中 {tool} 报告了成功。\
                 回答凭这份报告成立，不只凭模型的一句话；运行框架并不去看工作本身。"
            ),
        }
    }

    pub fn caption_goal_missed(self, tool: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "Goal check: the model says it is done, but `{tool}` has not succeeded in this \
                 run. The harness appends \"not done yet\" and the loop goes on; that costs a turn."
            ),
            Lang::Zh => format!(
                "目标检查：模型说完成了，但这次运行中 {tool} 还没有成功。\
                 运行框架追加“还没完成”，循环继续；这会消耗一轮。"
            ),
        }
    }

    /// What a harness's own words were for, as a caption names them.
    pub fn push_back_name(self, by: Option<PushBack>) -> &'static str {
        match (self.lang, by) {
            (Lang::En, Some(PushBack::FormatError)) => "a format error",
            (Lang::En, Some(PushBack::Nudge)) => "a nudge to go on",
            (Lang::En, Some(PushBack::GoalCheck)) => "its goal check's \"not done\"",
            (Lang::En, Some(PushBack::Handoff)) => "another agent's work as context",
            (Lang::En, None) => "words of its own",
            (Lang::Zh, Some(PushBack::FormatError)) => "格式错误提示",
            (Lang::Zh, Some(PushBack::Nudge)) => "让它继续的提示",
            (Lang::Zh, Some(PushBack::GoalCheck)) => "目标检查的“还没完成”",
            (Lang::Zh, Some(PushBack::Handoff)) => "另一个智能体的工作（作为上下文）",
            (Lang::Zh, None) => "它自己的话",
        }
    }

    pub fn caption_pushed_back(self, by: Option<PushBack>, count: usize) -> String {
        let name = self.push_back_name(by);
        match self.lang {
            Lang::En => format!(
                "The recorded harness did not take that reply as the end: it sent {name} \
                 back ({count} message{}) and called the model again. As with seed 001's \
                 \"not done yet\", the same loop goes on, and that costs a turn.",
                plural(count)
            ),
            Lang::Zh => format!(
                "记录里的运行框架没有把这条回复当作结束：它把{name}发回给模型\
                 （{count} 条消息），再次调用。和种子 001 的“还没完成”一样，还是同一个循环，\
                 这会消耗一轮。"
            ),
        }
    }

    pub fn caption_inserted(self, count: usize, by: Option<PushBack>) -> String {
        if by.is_some() {
            let name = self.push_back_name(by);
            return match self.lang {
                Lang::En => format!(
                    "The recorded harness added {name} to the history ({count} message{}) \
                     before the next call: the same loop goes on, and the model sees it on \
                     that call.",
                    plural(count)
                ),
                Lang::Zh => format!(
                    "记录里的运行框架在下一次调用前往历史里加了{name}（{count} 条消息）：\
                     还是同一个循环，模型会在那次调用时看到它。"
                ),
            };
        }
        match self.lang {
            Lang::En => format!(
                "The recorded client added {count} message{} to the history on its own, such as \
                 a tool call it made itself. The replay shows them: the model sees them on the \
                 next call.",
                plural(count)
            ),
            Lang::Zh => format!(
                "记录里的客户端自行往历史里加了 {count} 条消息，比如它自己发起的工具调用。\
                 重放把它们显示出来：模型会在下一次调用时看到。"
            ),
        }
    }

    /// The loop's return; `goal` is the tool whose reported success the
    /// harness's goal check let the answer stand on, if one did.
    pub fn caption_answer(
        self,
        text: &str,
        (calls, rounds, tools): (usize, Rounds, usize),
        goal: Option<&str>,
    ) -> String {
        let tool_rounds = rounds.tools;
        match self.lang {
            Lang::En => {
                let paused = match rounds.paused {
                    0 => String::new(),
                    n => format!(" + {n} paused turn{}", plural(n)),
                };
                let pushed = match rounds.pushed_back {
                    0 => String::new(),
                    n => format!(" + {n} push-back{}", plural(n)),
                };
                let parallel = if tools > tool_rounds {
                    format!(
                        " {tools} tools ran in {tool_rounds} round{}: parallel requests share a call.",
                        plural(tool_rounds)
                    )
                } else {
                    String::new()
                };
                let checked = match goal {
                    Some(tool) => format!(
                        "The harness's goal check let it stand on `{tool}`'s report of success; \
                         nothing looked at the work itself."
                    ),
                    None => "An answer is the model's word; only a check of the work itself \
                             verifies it."
                        .to_owned(),
                };
                format!(
                    "The loop returns \"{text}\": {tool_rounds} tool round{}{paused}{pushed} + 1 = \
                     {calls} model call{}.{parallel} {checked}",
                    plural(tool_rounds),
                    plural(calls)
                )
            }
            Lang::Zh => {
                let paused = match rounds.paused {
                    0 => String::new(),
                    n => format!(" + {n} 次暂停"),
                };
                let pushed = match rounds.pushed_back {
                    0 => String::new(),
                    n => format!(" + {n} 次“还没完成”"),
                };
                let parallel = if tools > tool_rounds {
                    format!("{tools} 个工具在 {tool_rounds} 轮里运行：并行的请求共用一次调用。")
                } else {
                    String::new()
                };
                let checked = match goal {
                    Some(tool) => {
                        format!(
                            "运行框架的目标检查凭 {tool} 报告的成功放行了它；没有谁检查工作本身。"
                        )
                    }
                    None => "回答只是模型的说法，只有检查工作本身才能验证它。".to_owned(),
                };
                format!(
                    "循环返回“{text}”：{tool_rounds} 轮工具调用{paused}{pushed} + 1 = {calls} 次模型调用。\
                     {parallel}{checked}"
                )
            }
        }
    }

    /// The lesson's check took a reply for the answer that the production
    /// check would not: it would halt, or (a pause) send the conversation
    /// back so that the model carries on.
    pub fn caption_lesson_returned(self, stop_reason: &str, text: &str, continues: bool) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match (self.lang, continues) {
            (Lang::En, false) => format!(
                "The lesson's check returned this {field} {stop_reason} reply as if it were the \
                 answer: \"{text}\". Press c: the production check halts here instead and says why."
            ),
            (Lang::En, true) => format!(
                "The lesson's check returned this {field} {stop_reason} reply as if it were the \
                 answer: \"{text}\". Press c: the production check sends the conversation back \
                 as it is instead, and the model carries on where it paused."
            ),
            (Lang::Zh, false) => format!(
                "本课简化检查把这条{field} 为 {stop_reason} 的回复当成了回答：“{text}”。\
                 按 c 切换到生产循环：它会在这里中止，并说明原因。"
            ),
            (Lang::Zh, true) => format!(
                "本课简化检查把这条{field} 为 {stop_reason} 的回复当成了回答：“{text}”。\
                 按 c 切换到生产循环：它会把对话原样发回，模型从暂停处接着做下去。"
            ),
        }
    }

    pub fn caption_budget(self, max_turns: u32) -> String {
        match self.lang {
            Lang::En => format!(
                "max_turns = {max_turns} is spent: the loop returns None, which is not an answer. \
                 Elsewhere the OpenAI Agents SDK raises MaxTurnsExceeded, LangGraph raises \
                 GraphRecursionError, and the Anthropic SDK's tool runner stops at max_iterations \
                 without an error."
            ),
            Lang::Zh => format!(
                "已达到轮次上限 max_turns = {max_turns}，预算耗尽：循环返回 None，这不是回答。\
                 在别的框架里，OpenAI Agents SDK 抛出 MaxTurnsExceeded，LangGraph 抛出 \
                 GraphRecursionError，Anthropic SDK 的工具运行器（tool runner）在 max_iterations \
                 处停下而不报错。"
            ),
        }
    }

    pub fn caption_stopped(self, reason: &str) -> String {
        let reason = reason.trim_end_matches(['.', '。']);
        match self.lang {
            Lang::En => format!("The loop halts without an answer: {reason}."),
            Lang::Zh => format!("循环中止，没有回答：{reason}。"),
        }
    }

    /// A run that opens after the client compacted the conversation.
    pub fn compacted(self, compaction: &Compaction) -> String {
        let replaced = compaction.replaced;
        // What the log says of it; its words made safe to print and short.
        let tokens = compaction
            .tokens_before
            .map(|before| (before, compaction.tokens_after));
        // Claude Code's compact_boundary says `auto` or `manual`; other
        // words are shown as the log has them, made safe and short.
        let trigger = compaction.trigger.as_deref().map(|t| match (t, self.lang) {
            ("auto", Lang::En) => "set off automatically".to_owned(),
            ("auto", Lang::Zh) => "自动触发".to_owned(),
            ("manual", Lang::En) => "asked for by the user".to_owned(),
            ("manual", Lang::Zh) => "用户手动触发".to_owned(),
            (other, _) => one_line(other, 20),
        });
        match self.lang {
            Lang::En => {
                let held = tokens.map(|(before, after)| match after {
                    Some(after) => format!("the context held {before} tokens, {after} after"),
                    None => format!("the context held {before} tokens"),
                });
                let how = aside(held.into_iter().chain(trigger), (" (", "; ", ")"));
                let what = if replaced == 0 {
                    "the conversation".to_owned()
                } else {
                    format!("the {replaced} message{} before it", plural(replaced))
                };
                format!(
                    "Compacted before this run: the client replaced {what} with a summary{how}. \
                     The model sees the summary, not what it stands for."
                )
            }
            Lang::Zh => {
                let held = tokens.map(|(before, after)| match after {
                    Some(after) => format!("上下文原有 {before} 个 token，之后 {after} 个"),
                    None => format!("上下文原有 {before} 个 token"),
                });
                let how = aside(held.into_iter().chain(trigger), ("（", "；", "）"));
                let what = if replaced == 0 {
                    "之前的对话".to_owned()
                } else {
                    format!("之前的 {replaced} 条消息")
                };
                format!(
                    "这次运行之前做过压缩：客户端把{what}换成了一段摘要{how}。\
                     模型看到的是摘要，而不是它所代表的内容。"
                )
            }
        }
    }

    /// A run its harness ended: the agent's own finish, or the user.
    pub fn caption_ended(self, ending: &Ending) -> String {
        let status = self.ending_status(ending);
        match (self.lang, ending.by) {
            (Lang::En, EndedBy::Agent) => format!(
                "The agent's harness ended the run (its log says `{status}`): the agent's own \
                 way to finish, not a stop reason. Neither an answer the loop returns nor None."
            ),
            (Lang::Zh, EndedBy::Agent) => format!(
                "智能体的运行框架结束了这次运行（日志记为 {status}）：这是智能体自己的收尾方式，\
                 不是停止原因。这既不是循环返回的回答，也不是 None。"
            ),
            (Lang::En, EndedBy::User) => {
                "The user interrupted this turn, so the run ends here without an answer.".to_owned()
            }
            (Lang::Zh, EndedBy::User) => "用户中断了这一轮，运行到此结束，没有回答。".to_owned(),
            (Lang::En, EndedBy::Api) => format!(
                "The API failed this call and the client gave up (`{status}`): there is no \
                 reply to check, so the run ends without an answer. Production loops retry, \
                 then stop."
            ),
            (Lang::Zh, EndedBy::Api) => format!(
                "API 调用失败，客户端放弃了（{status}）：没有回复可检查，运行到此结束，没有回答。\
                 生产循环会先重试，再停止。"
            ),
        }
    }

    pub fn caption_recording_ended(self) -> &'static str {
        self.pick(
            "The recording holds no further reply, so the replay ends here. That is neither an \
             answer nor None.",
            "记录里没有更多回复，重放到此结束。这既不是回答，也不是 None。",
        )
    }

    /// A recorded request that breaks a rule, which the API took all the same.
    pub fn tolerated(self, rejection: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "This recorded request breaks a rule of the {} API: {rejection}. The recording \
                 shows the API answered it, so the replay notes the break and goes on.",
                self.w.api
            ),
            Lang::Zh => format!(
                "记录里的这次请求违反了 {} API 的一条规则：{rejection}。记录表明 API 仍然作答了，\
                 所以重放记下这一点并继续。",
                self.w.api
            ),
        }
    }

    pub fn caption_rejected(self, rejection: &str) -> String {
        match self.lang {
            Lang::En => format!("The {} API rejected the request: {rejection}", self.w.api),
            Lang::Zh => format!("{} API 拒绝了这次请求：{rejection}", self.w.api),
        }
    }
}

/// Words said in passing, in brackets: " (a; b)" or "（a；b）"; nothing
/// when there are none.
fn aside(
    parts: impl Iterator<Item = String>,
    (open, between, close): (&str, &str, &str),
) -> String {
    let parts: Vec<String> = parts.collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("{open}{}{close}", parts.join(between))
    }
}
