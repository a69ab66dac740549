//! What an import noticed, in words.

use std::fmt;

use super::{Lang, Say, plural};
use crate::dialect::Dialect;
use crate::vocab::{Note, Skip};

impl Say {
    pub fn note_text(self, note: &Note) -> String {
        match (self.lang, note) {
            (Lang::En, Note::ResultWithoutCall { id }) => {
                format!("a tool result for `{id}` answers no tool call of the reply before it")
            }
            (Lang::Zh, Note::ResultWithoutCall { id }) => {
                format!("{id} 的工具结果回应不了前一条回复里的任何工具请求")
            }
            (Lang::En, Note::ManyResults { id }) => {
                format!("tool call `{id}` has more than one result")
            }
            (Lang::Zh, Note::ManyResults { id }) => format!("工具调用 {id} 有不止一个工具结果"),
            (Lang::En, Note::ReusedCallId { id }) => format!(
                "tool call id `{id}` is used more than once: each use is answered with its own \
                 result, and the replay notes the request that breaks the API's rule"
            ),
            (Lang::Zh, Note::ReusedCallId { id }) => format!(
                "工具调用 id {id} 被用了不止一次：每次使用各配自己的结果，重放会在违反 API 规则的请求处注明"
            ),
            (Lang::En, Note::MissingResult { id }) => format!(
                "tool call `{id}` has no recorded result; the replay sends an error result in its place"
            ),
            (Lang::Zh, Note::MissingResult { id }) => {
                format!("工具调用 {id} 没有录下工具结果；重放用一个错误结果代替")
            }
            (Lang::En, Note::PairedByItemId { sent, call }) => format!(
                "the client sent tool call `{call}` back as `{sent}`; the call's item id pairs \
                 them, and the replay keeps the model's id"
            ),
            (Lang::Zh, Note::PairedByItemId { sent, call }) => format!(
                "客户端把工具调用 {call} 以 {sent} 的名义发回；调用项的 id 把两者对上，重放沿用模型给的 id"
            ),
            (Lang::En, Note::ExchangeIncomplete { number }) => {
                format!("exchange {number} has no request or no response; skipped")
            }
            (Lang::Zh, Note::ExchangeIncomplete { number }) => {
                format!("第 {number} 组请求/响应不完整（缺少请求或响应）；已跳过")
            }
            (Lang::En, Note::HistoryEdited { request, from }) => format!(
                "request #{request} does not repeat the history the earlier calls built, from \
                 messages[{from}] on: the client edited it; the replay keeps the loop's own history"
            ),
            (Lang::Zh, Note::HistoryEdited { request, from }) => format!(
                "第 {request} 次请求没有重复之前调用建立的历史（从 messages[{from}] 起）：\
                 客户端修改过它；重放保留循环自己的历史"
            ),
            (Lang::En, Note::ManyChoices { response, choices }) => {
                format!("response #{response} holds {choices} choices; the first is replayed")
            }
            (Lang::Zh, Note::ManyChoices { response, choices }) => {
                format!("第 {response} 个响应有 {choices} 个候选；重放第一个")
            }
            (Lang::En, Note::Unreadable { file, error }) => {
                format!("{file} could not be read and is left out: {error}")
            }
            (Lang::Zh, Note::Unreadable { file, error }) => {
                format!("{file} 读不了，已略去：{error}")
            }
            (Lang::En, Note::UnfinishedLastLine { line }) => {
                format!("line {line}, the last, is cut off (a log still being written?): left out")
            }
            (Lang::Zh, Note::UnfinishedLastLine { line }) => {
                format!("第 {line} 行（最后一行）不完整（日志还在写入？）：已略去")
            }
            (Lang::En, Note::CommandsFromText { commands, said }) => format!(
                "the agent's harness read the command of {commands} repl{} from its text, \
                 where the API's finish_reason was `{said}`: the replay shows each command as a \
                 tool call, its stop reason inferred",
                if *commands == 1 { "y" } else { "ies" }
            ),
            (Lang::Zh, Note::CommandsFromText { commands, said }) => format!(
                "智能体的运行框架从 {commands} 条回复的文本里读出命令，而 API 给的 finish_reason 是 {said}：\
                 重放把每条命令显示为工具调用，停止原因是推断出来的"
            ),
            (Lang::En, Note::CallsRunUnder { replies, said }) => format!(
                "{replies} repl{} asked for tools under finish_reason `{said}`, and the harness \
                 ran the calls all the same (the log holds their results): the replay infers \
                 `tool_calls` for them",
                if *replies == 1 { "y" } else { "ies" }
            ),
            (Lang::Zh, Note::CallsRunUnder { replies, said }) => format!(
                "有 {replies} 条回复在 finish_reason 为 {said} 时请求了工具，运行框架照样执行了这些调用\
                 （日志里有它们的结果）：重放为它们推断出 tool_calls"
            ),
            (
                Lang::En,
                Note::Retried {
                    call,
                    attempts,
                    error,
                    went_through,
                },
            ) => {
                let times = format!("{attempts} time{}", plural(*attempts));
                if *went_through {
                    format!(
                        "call #{call} failed {times} before it went through ({error}); the \
                         client retried it, as production loops do"
                    )
                } else {
                    format!(
                        "call #{call} failed; the client retried it {times} ({error}), then gave up"
                    )
                }
            }
            (
                Lang::Zh,
                Note::Retried {
                    call,
                    attempts,
                    error,
                    went_through,
                },
            ) => {
                if *went_through {
                    format!(
                        "第 {call} 次调用先失败了 {attempts} 次（{error}），客户端重试后才成功，\
                         生产循环就是这样做的"
                    )
                } else {
                    format!(
                        "第 {call} 次调用失败；客户端重试了 {attempts} 次（{error}），然后放弃了"
                    )
                }
            }
            (
                Lang::En,
                Note::Scored {
                    sample,
                    scorer,
                    value,
                },
            ) => format!("{sample} was scored `{value}` by `{scorer}`"),
            (
                Lang::Zh,
                Note::Scored {
                    sample,
                    scorer,
                    value,
                },
            ) => format!("{sample} 由 {scorer} 评为 {value}"),
            (Lang::En, Note::Skipped { what, count }) => format!(
                "skipped {} (seen {count} time{})",
                self.skip(what),
                plural(*count)
            ),
            (Lang::Zh, Note::Skipped { what, count }) => {
                format!("跳过了{}（共 {count} 处）", self.skip(what))
            }
            (Lang::En, Note::CallsNotRecorded) => "the log holds what the agent did, not its \
                 model calls nor its prompt: each round of tools that ran together is told as \
                 one call, and each message as a call of its own"
                .into(),
            (Lang::Zh, Note::CallsNotRecorded) => {
                "这份日志记下的是智能体做了什么，没有记下模型调用，\
                 也没有记下提示：一起运行的一轮工具算作一次调用，每条消息各算一次调用"
                    .into()
            }
            (Lang::En, Note::CallsNotKept { made, kept }) => format!(
                "the harness made {made} model calls; {kept} of them are in this file, and only \
                 those are replayed"
            ),
            (Lang::Zh, Note::CallsNotKept { made, kept }) => format!(
                "运行框架调用了 {made} 次模型；这个文件里只有其中 {kept} 次，重放的也只有这些"
            ),
            (Lang::En, Note::HarnessWordsByTemplate { count, harness }) => format!(
                "{count} message{} in the user's role open with {harness}'s own words, a \
                 template of its source: read as its push-back within the run, not as a \
                 person's prompt",
                plural(*count)
            ),
            (Lang::Zh, Note::HarnessWordsByTemplate { count, harness }) => format!(
                "有 {count} 条 user 角色的消息以 {harness} 源码里的固定模板开头：\
                 当作它在本次运行中的推回，而不是某个人的提示"
            ),
            (Lang::En, Note::HarnessWordsAfterRound { count }) => format!(
                "{count} message{} in the user's role came between a round of tool results \
                 and the next call, where the loop had not ended: read as the harness's words, \
                 not as a person's prompt",
                plural(*count)
            ),
            (Lang::Zh, Note::HarnessWordsAfterRound { count }) => format!(
                "有 {count} 条 user 角色的消息出现在一轮工具结果和下一次调用之间，\
                 那时循环还没有结束：当作运行框架的话，而不是某个人的提示"
            ),
            (Lang::En, Note::Conversations { count }) => format!(
                "the log holds {count} conversations, told apart by their system prompts and \
                 histories (a request goes on the conversation whose messages it holds): each \
                 is replayed as runs of its own"
            ),
            (Lang::Zh, Note::Conversations { count }) => format!(
                "这份日志里有 {count} 段对话，按系统提示和历史区分\
                 （一个请求接着的是它包含其消息的那段对话）：每段各自重放为自己的运行"
            ),
            (Lang::En, Note::WordsNotKept { count, harness }) => format!(
                "{harness} sent its own words back to the model {count} time{} without keeping \
                 them in its history (a reflection): each is shown by what set it off",
                plural(*count)
            ),
            (Lang::Zh, Note::WordsNotKept { count, harness }) => format!(
                "{harness} 有 {count} 次把自己的话发回给模型（反思），但没有记进历史：\
                 每次都按触发它的原因显示"
            ),
            (Lang::En, Note::HarnessOwnWork { edits, commands }) => format!(
                "aider calls no tools: it applied {edits} edit{} the replies wrote as text, and \
                 ran {commands} command{} the person gave it; none of them is a model call",
                plural(*edits),
                plural(*commands)
            ),
            (Lang::Zh, Note::HarnessOwnWork { edits, commands }) => format!(
                "aider 不调用工具：它自己应用了回复里以文字写出的 {edits} 处修改，\
                 执行了用户给它的 {commands} 条命令；这些都不是模型调用"
            ),
            (Lang::En, Note::FirstLineNotJson { line }) => format!(
                "line 1 is no JSON and was left out (what a program printed beside its \
                 events, most likely): {line}"
            ),
            (Lang::Zh, Note::FirstLineNotJson { line }) => {
                format!("第 1 行不是 JSON，已略过（多半是程序在事件旁边打印的内容）：{line}")
            }
            (_, Note::Text(text)) => text.clone(),
        }
    }

    /// A kind of skipped part, as a noun phrase.
    fn skip(self, what: &Skip) -> String {
        match (self.lang, what) {
            (Lang::En, Skip::Lines(kind)) => format!("`{kind}` lines"),
            (Lang::Zh, Skip::Lines(kind)) => format!(" {kind} 行"),
            (Lang::En, Skip::LinesWithoutMessage(kind)) => {
                format!("`{kind}` lines without a message")
            }
            (Lang::Zh, Skip::LinesWithoutMessage(kind)) => format!("没有消息的 {kind} 行"),
            (Lang::En, Skip::ToolCallsNotFunctions) => "tool calls that are not functions".into(),
            (Lang::Zh, Skip::ToolCallsNotFunctions) => "不是函数的工具调用".into(),
            (Lang::En, Skip::Items(kind)) => format!("`{kind}` items"),
            (Lang::Zh, Skip::Items(kind)) => format!(" {kind} 项"),
            (Lang::En, Skip::UntypedItems) => "untyped items".into(),
            (Lang::Zh, Skip::UntypedItems) => "没有类型的项".into(),
            (Lang::En, Skip::MessagesNotObjects) => "messages that are not JSON objects".into(),
            (Lang::Zh, Skip::MessagesNotObjects) => "不是 JSON 对象的消息".into(),
            (Lang::En, Skip::Demonstrations) => "demonstration messages (examples shown to \
                the model before the task, not part of the run)"
                .to_owned(),
            (Lang::Zh, Skip::Demonstrations) => {
                "示范消息（任务前给模型看的例子，不属于这次运行）".to_owned()
            }
            (Lang::En, Skip::InteractionsNotModelCalls) => {
                "interactions that are no model call (no JSON request, no message sent, or no response body)".into()
            }
            (Lang::Zh, Skip::InteractionsNotModelCalls) => {
                "不是模型调用的交互（请求不是 JSON、没有发送消息，或响应没有正文）".into()
            }
            (Lang::En, Skip::Events(kind)) => format!("`{kind}` events"),
            (Lang::Zh, Skip::Events(kind)) => format!(" {kind} 事件"),
            (Lang::En, Skip::Role(role)) => format!("messages with role `{role}`"),
            (Lang::Zh, Skip::Role(role)) => format!("角色为 {role} 的消息"),
            (Lang::En, Skip::Blocks(kind)) => format!("`{kind}` blocks"),
            (Lang::Zh, Skip::Blocks(kind)) => format!(" {kind} 块"),
            (Lang::En, Skip::ResultParts(kind)) => format!("`{kind}` parts of results"),
            (Lang::Zh, Skip::ResultParts(kind)) => format!("工具结果里的 {kind} 部分"),
            (Lang::En, Skip::UntypedResultParts) => "untyped parts of results".into(),
            (Lang::Zh, Skip::UntypedResultParts) => "工具结果里没有类型的部分".into(),
            (Lang::En, Skip::Parts(kind)) => format!("`{kind}` parts"),
            (Lang::Zh, Skip::Parts(kind)) => format!(" {kind} 部分"),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let say = Say::new(Lang::En, Dialect::default());
        f.write_str(&say.note_text(self))
    }
}
