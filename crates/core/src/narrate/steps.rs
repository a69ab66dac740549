//! Steps, stops and rejections in words: the lines of `loopstep run` and
//! `validate`, and the explanations the screen shows.

use super::{Lang, Say, plural};
use crate::engine::{
    EndedBy, Ending, Event, Outcome, Policy, Rejection, RequestRule, Results, SaveReply, Step,
    StopCause, ToolFailure, ToolWords, Verdict,
};
use crate::text::one_line;

/// How long a tool input or output may get on one line of the text report.
const PREVIEW_CHARS: usize = 72;

impl Say {
    /// Why the loop halted, as a clause: "the reply was cut off ...".
    pub fn cause(self, cause: &StopCause) -> String {
        let w = self.w;
        let field = self.stop_field();
        let (tool_stop, request) = (w.tool_stop, w.tool_request);
        match (self.lang, cause) {
            (Lang::En, StopCause::ToolStopWithoutCalls) => format!(
                "{field} `{tool_stop}` asks for tools, but the reply holds no tool request ({request})"
            ),
            (Lang::En, StopCause::CallsWithoutToolStop) => format!(
                "the reply asks for a tool ({request}) but its {field} is not `{tool_stop}`: the \
                 request is left pending, so the loop neither runs it nor returns the reply as \
                 the answer"
            ),
            (Lang::En, StopCause::TruncatedCall) => format!(
                "the reply was cut off at the token limit inside a tool request ({request}), \
                 which may be incomplete, so it is not run"
            ),
            (Lang::En, StopCause::Truncated) => {
                "the reply was cut off at the token limit".to_owned()
            }
            (Lang::En, StopCause::ContextWindowExceeded) => {
                "the reply filled the model's context window and is cut short".to_owned()
            }
            (Lang::En, StopCause::Refusal) if w.refusal_in_reply => {
                "the model declined to answer, in the reply's `refusal`".to_owned()
            }
            // Claude's streaming classifiers, https://platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
            (Lang::En, StopCause::Refusal) => {
                "the API's safety classifiers stopped the reply, its text possibly cut short"
                    .to_owned()
            }
            (Lang::En, StopCause::ContentFilter) => {
                "the provider's content filter withheld the reply".to_owned()
            }
            (Lang::En, StopCause::OutOfCapacity) => {
                "the provider ran out of capacity before the reply was complete".to_owned()
            }
            (Lang::En, StopCause::MalformedCall) => format!(
                "the API stopped the reply at a tool request ({request}) the model wrote malformed, \
                 so there is nothing the loop can run"
            ),
            (Lang::En, StopCause::UnknownStopReason) => format!(
                "a {field} loopstep does not know in {} (it knows {}), handed to the caller \
                 rather than guessed at",
                w.api,
                self.known_stops()
            ),
            (Lang::En, StopCause::SafetyCap { calls }) => format!(
                "the loop has no max_turns, so only the engine's safety cap of {calls} calls \
                 stopped it; a model that keeps asking for tools would keep it running forever"
            ),
            (Lang::En, StopCause::ToolErrorRaised { name, error }) => format!(
                "`{}` failed and the harness raised the error to its caller instead of showing \
                 it to the model: {}",
                one_line(name, PREVIEW_CHARS),
                one_line(error, PREVIEW_CHARS * 2)
            ),
            (Lang::Zh, StopCause::ToolStopWithoutCalls) => {
                format!("{field} 为 {tool_stop}，表示要调用工具，但回复里没有工具请求（{request}）")
            }
            (Lang::Zh, StopCause::CallsWithoutToolStop) => format!(
                "回复里有工具请求（{request}），但{field} 不是 {tool_stop}：这个请求悬而未决，\
                 循环既不运行它，也不把回复当作回答返回"
            ),
            (Lang::Zh, StopCause::TruncatedCall) => format!(
                "回复在工具请求（{request}）中间被 token 上限截断，请求可能不完整，所以不运行"
            ),
            (Lang::Zh, StopCause::Truncated) => "回复被 token 上限截断".to_owned(),
            (Lang::Zh, StopCause::ContextWindowExceeded) => {
                "回复占满了模型的上下文窗口，被截断".to_owned()
            }
            (Lang::Zh, StopCause::Refusal) if w.refusal_in_reply => {
                "模型拒绝回答（写在回复的 refusal 里）".to_owned()
            }
            (Lang::Zh, StopCause::Refusal) => {
                "API 的安全分类器中止了回复，文字可能不完整".to_owned()
            }
            (Lang::Zh, StopCause::ContentFilter) => "服务商的内容过滤拦下了回复".to_owned(),
            (Lang::Zh, StopCause::OutOfCapacity) => "服务商在回复完成前资源不足".to_owned(),
            (Lang::Zh, StopCause::MalformedCall) => format!(
                "模型写出的工具请求（{request}）格式有误，API 在那里停止了回复，循环没有可运行的东西"
            ),
            (Lang::Zh, StopCause::UnknownStopReason) => format!(
                "loopstep 在 {} 里不认识这个{field}（它认识的有 {}），交给调用方处理，不去猜",
                w.api,
                self.known_stops()
            ),
            (Lang::Zh, StopCause::SafetyCap { calls }) => format!(
                "循环没有 max_turns，只有引擎 {calls} 次调用的安全上限让它停下；\
                 一个不停请求工具的模型会让它永远跑下去"
            ),
            (Lang::Zh, StopCause::ToolErrorRaised { name, error }) => format!(
                "{} 失败了，运行框架把错误抛给了调用方，而不是交给模型：{}",
                one_line(name, PREVIEW_CHARS),
                one_line(error, PREVIEW_CHARS * 2)
            ),
        }
    }

    /// What a rejected request broke, in the API's own terms.
    pub fn rejection(self, rejection: &Rejection) -> String {
        let at = rejection.message_index;
        let ids: Vec<String> = rejection.ids.iter().map(|id| one_line(id, 40)).collect();
        let ids = ids.join(", ");
        let (request, list) = (self.w.tool_request, self.w.list);
        let result = match self.lang {
            Lang::En => self.w.tool_result,
            Lang::Zh => self.told.tool_result_zh,
        };
        match (self.lang, rejection.rule) {
            (Lang::En, RequestRule::NoMessages) => "the request holds no message".to_owned(),
            (Lang::En, RequestRule::EmptyContent) => format!("{list}[{at}] has no content"),
            (Lang::En, RequestRule::ResultsNotFirst) => {
                format!("in {list}[{at}] text comes before a {result}; results must come first")
            }
            (Lang::En, RequestRule::UnansweredCalls) => {
                format!("the {request} in {list}[{at}] ({ids}) has no {result} right after it")
            }
            (Lang::En, RequestRule::ResultsWithoutCall) => format!(
                "the {result} in {list}[{at}] ({ids}) answers no {request} of the message before it"
            ),
            (Lang::En, RequestRule::AnsweredTwice) => {
                format!("{list}[{at}] answers the same call twice ({ids})")
            }
            (Lang::En, RequestRule::DuplicateCallIds) => {
                format!("{list}[{at}] reuses a tool-call id ({ids})")
            }
            (Lang::Zh, RequestRule::NoMessages) => "请求里没有任何消息".to_owned(),
            (Lang::Zh, RequestRule::EmptyContent) => format!("{list}[{at}] 没有内容"),
            (Lang::Zh, RequestRule::ResultsNotFirst) => {
                format!("{list}[{at}] 里文字排在 {result} 之前；工具结果必须排在最前")
            }
            (Lang::Zh, RequestRule::UnansweredCalls) => {
                format!("{list}[{at}] 里的 {request}（{ids}）后面没有紧跟 {result}")
            }
            (Lang::Zh, RequestRule::ResultsWithoutCall) => {
                format!("{list}[{at}] 里的 {result}（{ids}）回应不了前一条消息里的任何 {request}")
            }
            (Lang::Zh, RequestRule::AnsweredTwice) => {
                format!("{list}[{at}] 对同一个调用回应了两次（{ids}）")
            }
            (Lang::Zh, RequestRule::DuplicateCallIds) => {
                format!("{list}[{at}] 重复使用了工具调用 id（{ids}）")
            }
        }
    }

    /// One step of `run`'s text output; `policy` says how the loop appends,
    /// `goal` whether the harness checks a goal before it returns, `next`
    /// the step after it (a check followed by a recorded push-back does not
    /// say the loop returns).
    pub fn step_line(self, policy: Policy, goal: bool, step: &Step, next: Option<&Step>) -> String {
        let pushed_back = next.is_some_and(|n| matches!(n.event, Event::PushedBack { .. }));
        let n = step.messages;
        let field = self.stop_field();
        let short = |t: &str| one_line(t, PREVIEW_CHARS);
        match (self.lang, &step.event) {
            (Lang::En, Event::Start) => {
                format!(
                    "messages holds {n} message{}; nothing is sent yet",
                    plural(n)
                )
            }
            (Lang::Zh, Event::Start) => format!("messages 里有 {n} 条消息；还没有发送任何内容"),
            (
                lang,
                Event::Call {
                    request,
                    stop_reason,
                    stop_reason_inferred,
                    tolerated,
                    ..
                },
            ) => {
                let (number, sent, chars) = (request.number, request.messages, request.chars);
                let stop = short(&self.stop_value(stop_reason));
                let noted = tolerated
                    .as_ref()
                    .map(|broken| format!(" — {}", self.tolerated(&self.rejection(broken))))
                    .unwrap_or_default();
                let line = match (lang, *stop_reason_inferred) {
                    (Lang::En, inferred) => format!(
                        "request #{number}: {sent} message{}, {chars} chars → reply with {field} \
                         {stop}{}",
                        plural(sent),
                        if inferred { " (inferred)" } else { "" }
                    ),
                    (Lang::Zh, false) => format!(
                        "第 {number} 次请求：{sent} 条消息，{chars} 字符 → 回复：{field} 为 {stop}"
                    ),
                    (Lang::Zh, true) => format!(
                        "第 {number} 次请求：{sent} 条消息，{chars} 字符 → 回复：{field} 为 {stop}（推断）"
                    ),
                };
                line + &noted
            }
            (
                lang,
                Event::Check {
                    stop_reason,
                    verdict,
                },
            ) => {
                let stop = short(&self.stop_value(stop_reason));
                let branch = match (lang, verdict) {
                    (Lang::En, Verdict::Dispatch) => "dispatch the tool requests".to_owned(),
                    (Lang::En, Verdict::Answer) if goal => {
                        "the model says it is done: check the goal".to_owned()
                    }
                    (Lang::Zh, Verdict::Answer) if goal => "模型说完成了：先检查目标".to_owned(),
                    (Lang::En, Verdict::Answer) if pushed_back => {
                        "the model says it is done: the harness reads the reply first".to_owned()
                    }
                    (Lang::Zh, Verdict::Answer) if pushed_back => {
                        "模型说完成了：运行框架先读这条回复".to_owned()
                    }
                    (Lang::En, Verdict::Answer) => "return the text as the answer".to_owned(),
                    (Lang::En, Verdict::Continue) => {
                        "paused: send the conversation back".to_owned()
                    }
                    (Lang::En, Verdict::Stop(why)) if pushed_back => format!(
                        "would halt ({}): the harness reads the reply first",
                        self.cause(why)
                    ),
                    (Lang::Zh, Verdict::Stop(why)) if pushed_back => {
                        format!("本会中止（{}）：运行框架先读这条回复", self.cause(why))
                    }
                    (Lang::En, Verdict::Stop(why)) => format!("halt: {}", self.cause(why)),
                    (Lang::Zh, Verdict::Dispatch) => "派发工具请求".to_owned(),
                    (Lang::Zh, Verdict::Answer) => "把文字作为回答返回".to_owned(),
                    (Lang::Zh, Verdict::Continue) => "暂停：把对话发回".to_owned(),
                    (Lang::Zh, Verdict::Stop(why)) => format!("中止：{}", self.cause(why)),
                };
                // Where a reply's calls, not its stop, say it asks for
                // tools (Responses, Gemini), the line names what decided.
                let (w, finished) = (self.w, stop_reason == self.w.tool_stop);
                let decided = match (lang, verdict) {
                    _ if !(w.calls_in_items && finished) => String::new(),
                    (Lang::En, Verdict::Dispatch) => format!(", with {}", w.tool_request),
                    (Lang::En, _) => format!(", no {}", w.tool_request),
                    (Lang::Zh, Verdict::Dispatch) => format!("，带 {}", w.tool_request),
                    (Lang::Zh, _) => format!("，没有 {}", w.tool_request),
                };
                match lang {
                    Lang::En => format!("{field} {stop}{decided} → {branch}"),
                    Lang::Zh => format!("{field} 为 {stop}{decided} → {branch}"),
                }
            }
            (
                lang,
                Event::Dispatch {
                    name,
                    input,
                    output,
                    ..
                },
            ) => {
                let (name, input) = (short(name), short(&input.to_string()));
                let content = short(&output.content);
                match (lang, output.is_error) {
                    (Lang::En, false) => format!("{name} {input} → \"{content}\""),
                    (Lang::En, true) => format!("{name} {input} → error \"{content}\""),
                    (Lang::Zh, false) => format!("{name} {input} → “{content}”"),
                    (Lang::Zh, true) => format!("{name} {input} → 出错“{content}”"),
                }
            }
            (lang, Event::Append { results, appended }) => {
                let r = *results;
                let form = self.told.results_message.get(lang);
                let split = *appended > 1 && self.w.results_together;
                match (lang, appended) {
                    (Lang::En, 0) => format!(
                        "{r} result{} dropped: nothing appended → {n} messages",
                        plural(r)
                    ),
                    (Lang::Zh, 0) => format!("丢弃了 {r} 个工具结果：什么也没追加 → {n} 条消息"),
                    (Lang::En, _) if policy.reply == SaveReply::AfterResults => format!(
                        "{r} result{}, then the model's own request after them → {n} messages",
                        plural(r)
                    ),
                    (Lang::Zh, _) if policy.reply == SaveReply::AfterResults => {
                        format!("{r} 个工具结果，后面才是模型自己的请求 → {n} 条消息")
                    }
                    (Lang::En, parts) if split => {
                        format!("{r} results as {parts} separate user messages → {n} messages")
                    }
                    (Lang::Zh, parts) if split => {
                        format!("{r} 个工具结果拆成 {parts} 条独立的 user 消息 → {n} 条消息")
                    }
                    (Lang::En, _) if policy.results == Results::DropOne => {
                        format!("{r} result{} as {form}, one lost → {n} messages", plural(r))
                    }
                    (Lang::Zh, _) if policy.results == Results::DropOne => {
                        format!("{r} 个工具结果，作为{form}，漏掉了一个 → {n} 条消息")
                    }
                    (Lang::En, _) => {
                        format!("{r} result{} as {form} → {n} messages", plural(r))
                    }
                    (Lang::Zh, _) => format!("{r} 个工具结果，作为{form} → {n} 条消息"),
                }
            }
            (Lang::En, Event::GoalCheck { tool, passed: true }) => format!(
                "goal check: `{}` has succeeded → the answer stands",
                one_line(tool, 40)
            ),
            (Lang::En, Event::GoalCheck { tool, .. }) => format!(
                "goal check: `{}` has not succeeded → the harness pushes back, not done yet → \
                 {n} messages",
                one_line(tool, 40)
            ),
            (Lang::Zh, Event::GoalCheck { tool, passed: true }) => {
                format!("目标检查：{} 已成功 → 回答成立", one_line(tool, 40))
            }
            (Lang::Zh, Event::GoalCheck { tool, .. }) => format!(
                "目标检查：{} 尚未成功 → 运行框架追加“还没完成” → {n} 条消息",
                one_line(tool, 40)
            ),
            (Lang::En, Event::Inserted { added, by: None }) => format!(
                "the client added {added} message{} no reply asked for → {n} messages",
                plural(*added)
            ),
            (Lang::Zh, Event::Inserted { added, by: None }) => {
                format!("客户端自行加入了 {added} 条消息 → {n} 条消息")
            }
            (Lang::En, Event::Inserted { by, .. }) => {
                format!(
                    "the harness adds {} → {n} messages",
                    self.push_back_name(*by)
                )
            }
            (Lang::Zh, Event::Inserted { by, .. }) => {
                format!("运行框架加入{} → {n} 条消息", self.push_back_name(*by))
            }
            (Lang::En, Event::PushedBack { by, .. }) => format!(
                "the harness pushes back with {} → {n} messages",
                self.push_back_name(*by)
            ),
            (Lang::Zh, Event::PushedBack { by, .. }) => {
                format!("运行框架推回：{} → {n} 条消息", self.push_back_name(*by))
            }
            (Lang::En, Event::Answer { text }) => {
                format!("\"{}\"", one_line(text, PREVIEW_CHARS * 4))
            }
            (Lang::Zh, Event::Answer { text }) => {
                format!("“{}”", one_line(text, PREVIEW_CHARS * 4))
            }
            (Lang::En, Event::BudgetExhausted { max_turns }) => format!(
                "all {max_turns} turn{} used without an answer: the loop returns None",
                plural(*max_turns as usize)
            ),
            (Lang::Zh, Event::BudgetExhausted { max_turns }) => {
                format!("{max_turns} 轮已用完，没有回答：循环返回 None")
            }
            (_, Event::Stopped(why)) => self.cause(why),
            (Lang::En, Event::RecordingEnded) => {
                "the recording has no reply for this call: the replay ends here".to_owned()
            }
            (Lang::Zh, Event::RecordingEnded) => {
                "记录里没有这次调用的回复：重放到此结束".to_owned()
            }
            (_, Event::Ended(ending)) => self.ended_line(ending),
            (Lang::En, Event::Rejected { rejection }) => {
                format!(
                    "the API rejected the request: {}",
                    self.rejection(rejection)
                )
            }
            (Lang::Zh, Event::Rejected { rejection }) => {
                format!("API 拒绝了这次请求：{}", self.rejection(rejection))
            }
        }
    }

    /// The step line of a run its harness ended.
    pub fn ended_line(self, ending: &Ending) -> String {
        let status = self.ending_status(ending);
        match (self.lang, ending.by, &ending.call) {
            (Lang::En, EndedBy::Agent, Some(_)) => format!(
                "the agent called its own finish (`{status}`): the harness ends the run there, \
                 without running it"
            ),
            (Lang::Zh, EndedBy::Agent, Some(_)) => {
                format!(
                    "智能体调用了自己的结束动作（{status}）：运行框架就此结束这次运行，不去执行它"
                )
            }
            (Lang::En, EndedBy::Agent, None) => format!(
                "the agent's harness ended the run (its log says `{status}`): no further call"
            ),
            (Lang::Zh, EndedBy::Agent, None) => {
                format!("智能体的运行框架结束了运行（日志记为 {status}）：不再调用模型")
            }
            (Lang::En, EndedBy::User, _) => {
                "the user interrupted the turn: the recording stops here".to_owned()
            }
            (Lang::Zh, EndedBy::User, _) => "用户中断了这一轮：录制到此为止".to_owned(),
            (Lang::En, EndedBy::Api, _) => {
                format!("the API failed the call and the client gave up: {status}")
            }
            (Lang::Zh, EndedBy::Api, _) => format!("API 调用失败，客户端放弃了：{status}"),
        }
    }

    /// The outcome as `run` names it: answered, budget spent, halted, ...
    pub fn outcome_name(self, outcome: Option<Outcome>) -> &'static str {
        match outcome {
            None => self.pick("unfinished", "未完成"),
            Some(Outcome::Answered(_)) => self.pick("answered", "已回答"),
            Some(Outcome::BudgetExhausted) => self.pick("budget spent", "预算耗尽"),
            Some(Outcome::Stopped(_)) => self.pick("halted", "中止"),
            Some(Outcome::RecordingEnded) => self.pick("recording ended", "记录结束"),
            Some(Outcome::Ended(Ending {
                by: EndedBy::Agent, ..
            })) => self.pick("agent finished", "智能体自行结束"),
            Some(Outcome::Ended(Ending {
                by: EndedBy::User, ..
            })) => self.pick("interrupted", "用户中断"),
            Some(Outcome::Ended(Ending {
                by: EndedBy::Api, ..
            })) => self.pick("API call failed", "API 调用失败"),
            Some(Outcome::Rejected(_)) => self.pick("rejected", "被拒绝"),
        }
    }

    /// The loop's return value, whole: the answer, `None` when the budget
    /// was spent, and for every other end a plain statement that there is none.
    pub fn result_line(self, outcome: Option<Outcome>) -> String {
        let label = self.pick("result", "结果");
        let what = match (self.lang, outcome) {
            (_, Some(Outcome::Answered(text))) => format!("\"{}\"", one_line(text, usize::MAX)),
            (_, Some(Outcome::BudgetExhausted)) => "None".to_owned(),
            (Lang::En, Some(Outcome::Stopped(_))) => "no answer, the loop halted".to_owned(),
            (Lang::En, Some(Outcome::RecordingEnded)) => {
                "no answer, the recording ended before the loop did".to_owned()
            }
            (Lang::En, Some(Outcome::Rejected(_))) => {
                "no answer, the API rejected the request".to_owned()
            }
            (Lang::En, Some(Outcome::Ended(ending))) => match ending.by {
                EndedBy::Agent => format!(
                    "no answer returned, the agent's harness ended the run (`{}`)",
                    self.ending_status(ending)
                ),
                EndedBy::User => "no answer, the user interrupted the turn".to_owned(),
                EndedBy::Api => "no answer, the API failed the call".to_owned(),
            },
            (Lang::Zh, Some(Outcome::Ended(ending))) => match ending.by {
                EndedBy::Agent => {
                    format!(
                        "循环没有返回回答，智能体的运行框架结束了运行（{}）",
                        self.ending_status(ending)
                    )
                }
                EndedBy::User => "没有回答，用户中断了这一轮".to_owned(),
                EndedBy::Api => "没有回答，API 调用失败".to_owned(),
            },
            (Lang::En, None) => "none yet, the run is unfinished".to_owned(),
            (Lang::Zh, Some(Outcome::Stopped(_))) => "没有回答，循环中止".to_owned(),
            (Lang::Zh, Some(Outcome::RecordingEnded)) => {
                "没有回答，记录在循环结束前就结束了".to_owned()
            }
            (Lang::Zh, Some(Outcome::Rejected(_))) => "没有回答，API 拒绝了请求".to_owned(),
            (Lang::Zh, None) => "暂无，运行未完成".to_owned(),
        };
        match self.lang {
            Lang::En => format!("{label}: {what}"),
            Lang::Zh => format!("{label}：{what}"),
        }
    }
}

/// What the harness tells the model when a search finds nothing or a tool
/// call cannot run: words the model reads, so in the class's language.
impl ToolWords for Say {
    fn no_match(&self) -> String {
        self.pick("No matching page found.", "没有找到匹配的页面。")
            .to_owned()
    }

    fn failure(&self, failure: &ToolFailure) -> String {
        match (self.lang, failure) {
            (Lang::En, ToolFailure::UnknownTool { name, available }) if available.is_empty() => {
                format!("Unknown tool `{name}`. No tools are available.")
            }
            (Lang::En, ToolFailure::UnknownTool { name, available }) => format!(
                "Unknown tool `{name}`. Available tools: {}.",
                available.join(", ")
            ),
            (Lang::En, ToolFailure::UnparsableInput { error, raw }) => {
                format!("Could not parse the tool input as JSON ({error}): {raw}")
            }
            (Lang::En, ToolFailure::InputNotObject { got }) => {
                format!("Tool input must be a JSON object, got: {got}")
            }
            (Lang::En, ToolFailure::MissingQuery) => {
                "The search tool needs a string field `query`.".to_owned()
            }
            (Lang::En, ToolFailure::NoReplay { id, name }) => format!(
                "No result was recorded for tool call `{id}` and `{name}` has no replay environment."
            ),
            (Lang::Zh, ToolFailure::UnknownTool { name, available }) if available.is_empty() => {
                format!("没有名为 {name} 的工具。没有可用工具。")
            }
            (Lang::Zh, ToolFailure::UnknownTool { name, available }) => {
                format!(
                    "没有名为 {name} 的工具。可用工具：{}。",
                    available.join("、")
                )
            }
            (Lang::Zh, ToolFailure::UnparsableInput { error, raw }) => {
                format!("无法把工具输入解析为 JSON（{error}）：{raw}")
            }
            (Lang::Zh, ToolFailure::InputNotObject { got }) => {
                format!("工具输入必须是 JSON 对象，收到的是：{got}")
            }
            (Lang::Zh, ToolFailure::MissingQuery) => "search 工具需要字符串字段 query。".to_owned(),
            (Lang::Zh, ToolFailure::NoReplay { id, name }) => {
                format!("工具调用 {id} 没有录下工具结果，{name} 也没有可重放的环境。")
            }
        }
    }
}
