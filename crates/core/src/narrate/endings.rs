//! Captions of the steps that end a run or stand between its calls: the
//! goal check, the harness's push-backs, the answer, the budget, a halt,
//! an ending the log gives, compaction, a rejected request.

use super::{Lang, Say, plural};
use crate::engine::{EndedBy, Ending, PushBack, Rounds};
use crate::text::one_line;
use crate::transcript::Compaction;

impl Say {
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
