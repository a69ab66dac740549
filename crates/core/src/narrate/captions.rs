//! Captions: what the current step does and why, in a sentence or two.

use super::{Lang, Say};
use crate::dialect::Dialect;

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
}
