//! What each common mistake does, in the caption of the step where it does
//! its damage.

use super::{Lang, Say};
use crate::engine::Mistake;

impl Say {
    pub fn mistake_dropped(self) -> String {
        let request = self.w.tool_request;
        match self.lang {
            Lang::En => format!(
                "Mistake: the loop ran the tools but dropped their results. The next request \
                 still holds the tool request ({request}) with nothing answering it, so the API \
                 will reject it."
            ),
            Lang::Zh => format!(
                "常见错误：循环运行了工具，却丢掉了工具结果。下一次请求里仍有工具请求（{request}）\
                 却没有任何回应，所以 API 会拒绝它。"
            ),
        }
    }

    pub fn mistake_forgot(self) -> String {
        let request = self.w.tool_request;
        match self.lang {
            Lang::En => format!(
                "Mistake: the loop did not save the model's reply into messages. The results it \
                 appends next answer a tool request ({request}) the API never sees, so it will \
                 reject them."
            ),
            Lang::Zh => format!(
                "常见错误：循环没有把模型的回复存进 messages。接下来追加的工具结果回应的是 API \
                 从没见过的工具请求（{request}），所以会被拒绝。"
            ),
        }
    }

    pub fn mistake_dropped_one(self) -> String {
        let request = self.w.tool_request;
        match self.lang {
            Lang::En => format!(
                "Mistake: the loop appended the results but lost one of them. The next request \
                 holds a tool request ({request}) whose id nothing answers, so the API will reject \
                 it and name that id."
            ),
            Lang::Zh => format!(
                "常见错误：循环追加了工具结果，却漏掉了其中一个。下一次请求里有一个工具请求（{request}）\
                 的 id 没有任何结果回应，所以 API 会拒绝它，并指出是哪个 id。"
            ),
        }
    }

    /// `cut_off`: the reply hit the token limit inside its tool request.
    pub fn mistake_dispatched_first(self, stop_reason: &str, cut_off: bool) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let (field, tool) = (self.stop_field(), self.w.tool_stop);
        match (self.lang, cut_off) {
            (Lang::En, true) => format!(
                "Mistake: the loop runs the tools before reading {field} {stop_reason}. The reply \
                 was cut off, so the tool request it runs is half-written; the production check \
                 halts here instead."
            ),
            (Lang::En, false) => format!(
                "Mistake: the loop runs the tools before reading {field} {stop_reason}, which is \
                 not {tool}: the request was left pending, not meant to run; the production check \
                 halts here instead."
            ),
            (Lang::Zh, true) => format!(
                "常见错误：循环先运行工具，再去读{field}（{stop_reason}）。这条回复被截断了，\
                 它运行的是写到一半的工具请求；生产循环会在这里中止。"
            ),
            (Lang::Zh, false) => format!(
                "常见错误：循环先运行工具，再去读{field}（{stop_reason}，不是 {tool}）。\
                 这个工具请求是悬而未决的，本不该运行；生产循环会在这里中止。"
            ),
        }
    }

    pub fn mistake_wrong_order(self) -> &'static str {
        self.pick(
            "Mistake: the results went into messages before the model's own request. They \
             answer a call that comes after them, so the API will reject the next request.",
            "常见错误：工具结果被放在了模型自己的请求之前。它们回应的是排在后面的调用，\
             所以 API 会拒绝下一次请求。",
        )
    }

    /// Split results, under an API that combines consecutive user turns.
    /// (https://platform.claude.com/docs/en/api/messages/create; the tool-use
    /// guide's "Parallel tool calls not working" shows this very form.)
    pub fn mistake_split(self) -> &'static str {
        self.pick(
            "Mistake: each result went into a user message of its own. The Messages API combines \
             consecutive user turns, so it accepts this; but its docs warn that separate result \
             messages teach the model to make fewer parallel calls.",
            "常见错误：每个工具结果各占一条 user 消息。Messages API 会把相邻的 user 消息合并成一条，\
             所以仍会接受；但它的文档提醒，这样分开发送会让模型减少并行调用。",
        )
    }

    pub fn mistake_stopped_on_text(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match self.lang {
            Lang::En => format!(
                "Mistake: the reply has text, and any text ends this loop: it stopped without \
                 reading {field} {stop_reason}. The tool request is left pending; the \"answer\" \
                 is a half-finished thought."
            ),
            Lang::Zh => format!(
                "常见错误：回复里有文字，而这个循环见到任何文字就停：它没去读{field}（{stop_reason}）。\
                 工具请求被晾在一边；这个“回答”只是想到一半的话。"
            ),
        }
    }

    /// Seed 000's "hard-coding the task's reasoning into the loop": the
    /// plan the code holds says the task is done, the model does not.
    pub fn mistake_plan_done(self, stop_reason: &str) -> String {
        let stop_reason = self.stop_value(stop_reason);
        let field = self.stop_field();
        match self.lang {
            Lang::En => format!(
                "Mistake: the loop follows steps written into it for the task (one round of \
                 tools, then the answer), so it returns this reply without reading {field} \
                 {stop_reason}: the model still asks for a tool. The code decided the task was \
                 done, not the model; any question that needs a second lookup breaks it."
            ),
            Lang::Zh => format!(
                "常见错误：循环照着为这个任务写死的步骤走（先执行一轮工具，然后回答），\
                 所以没去读{field}（{stop_reason}）就把这条回复当作回答返回，而模型还在请求工具。\
                 认定任务完成的是代码，不是模型；任何需要第二次查询的问题都会让它出错。"
            ),
        }
    }

    /// The mistake never changed what the loop did: say why, instead of
    /// letting the run end "verified" as if the mistake were harmless.
    pub fn mistake_not_shown(self, mistake: Mistake) -> String {
        let name = self.mistake_name(mistake);
        let (api, form) = (self.w.api, self.told.results_message.get(self.lang));
        match (self.lang, mistake) {
            (
                Lang::En,
                Mistake::DropResults
                | Mistake::ForgetRequest
                | Mistake::WrongOrder
                | Mistake::DropOneResult,
            ) => {
                format!(
                    "This run cannot show the mistake {name}: no reply of this run asks for a \
                     tool, so there is nothing for it to get wrong."
                )
            }
            (Lang::En, Mistake::SplitResults) if !self.w.results_together => format!(
                "This run cannot show the mistake {name}: {api} already sends {form}, so \
                 splitting the results changes nothing."
            ),
            (Lang::En, Mistake::SplitResults) => format!(
                "This run cannot show the mistake {name}: no reply of this run asks for more than \
                 one tool, so there is nothing to split."
            ),
            (Lang::En, Mistake::StopOnText) => format!(
                "This run cannot show the mistake {name}: no reply of this run has text beside a \
                 tool request, so reading the text first changes nothing."
            ),
            (Lang::En, Mistake::NoBudget) => format!(
                "This run cannot show the mistake {name}: the run ends within its max_turns, so \
                 the missing budget is never needed."
            ),
            (Lang::En, Mistake::DispatchBeforeCheck) => format!(
                "This run cannot show the mistake {name}: every tool request in it comes with \
                 the tool stop reason, and a final answer asks for none, so running the tools \
                 before the check changes nothing here. It breaks on a reply cut off inside a \
                 tool request (try max-tokens)."
            ),
            (Lang::En, Mistake::HardCodedPlan) => format!(
                "This run cannot show the mistake {name}: the model never asks for tools after \
                 one round, so the steps written for the task happen to fit it. A run that needs \
                 two rounds breaks it (try aurora-run)."
            ),
            (
                Lang::Zh,
                Mistake::DropResults
                | Mistake::ForgetRequest
                | Mistake::WrongOrder
                | Mistake::DropOneResult,
            ) => {
                format!(
                    "这次运行无法演示常见错误“{name}”：没有任何回复提出工具请求，所以无从出错。"
                )
            }
            (Lang::Zh, Mistake::SplitResults) if !self.w.results_together => format!(
                "这次运行无法演示常见错误“{name}”：{api} 本来就按{form}发送，拆开也不会有任何变化。"
            ),
            (Lang::Zh, Mistake::SplitResults) => format!(
                "这次运行无法演示常见错误“{name}”：没有任何回复同时请求多个工具，没有可拆的。"
            ),
            (Lang::Zh, Mistake::StopOnText) => format!(
                "这次运行无法演示常见错误“{name}”：没有任何回复在工具请求旁边带文字，先看文字也不改变什么。"
            ),
            (Lang::Zh, Mistake::NoBudget) => format!(
                "这次运行无法演示常见错误“{name}”：运行在 max_turns 之内就结束了，缺了轮次上限也无妨。"
            ),
            (Lang::Zh, Mistake::DispatchBeforeCheck) => format!(
                "这次运行无法演示常见错误“{name}”：这里每个工具请求都伴随着表示调用工具的停止原因，最终回答又不请求工具，\
                 先派发再检查没有改变什么。它会在工具请求写到一半被截断的回复上出错（试试 max-tokens）。"
            ),
            (Lang::Zh, Mistake::HardCodedPlan) => format!(
                "这次运行无法演示常见错误“{name}”：模型在一轮工具之后就不再请求工具，写死的步骤恰好合用。\
                 需要两轮工具的运行会让它出错（试试 aurora-run）。"
            ),
        }
    }

    pub fn mistake_past_budget(self, call: u32, max_turns: u32) -> String {
        match self.lang {
            Lang::En => format!(
                "Mistake: no max_turns. Call #{call} is past the budget of {max_turns} this run \
                 was recorded with; nothing but the engine's safety cap will stop a model that \
                 keeps asking."
            ),
            Lang::Zh => format!(
                "常见错误：没有 max_turns。第 {call} 次调用已经超过这次运行录制时的预算 {max_turns}；\
                 对一个不停请求工具的模型，只有引擎的安全上限能让它停下。"
            ),
        }
    }
}
