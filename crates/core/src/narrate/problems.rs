//! What a check found wrong in a transcript or recording, in the
//! reader's language: each problem at its JSON path, and what a file that
//! is no recording holds instead.

use std::fmt;

use super::serde_zh::serde_zh;
use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::transcript::{BUILTIN_NAMES, FORMAT_VERSION, JsonKind, Problem, Seen, Why};

impl Say {
    /// One problem a check found, and where.
    pub(super) fn problem(self, problem: &Problem) -> String {
        let why = self.why(&problem.why);
        match (self.lang, problem.path.as_str()) {
            (Lang::En, "") => format!("at the top level: {why}"),
            (Lang::En, path) => format!("at `{path}`: {why}"),
            (Lang::Zh, "") => format!("在顶层：{why}"),
            (Lang::Zh, path) => format!("在 `{path}`：{why}"),
        }
    }

    /// What is wrong, said without where.
    pub fn why(self, why: &Why) -> String {
        match self.lang {
            Lang::En => why_en(why),
            Lang::Zh => self.why_zh(why),
        }
    }

    fn why_zh(self, why: &Why) -> String {
        match why {
            Why::Version { found } => {
                format!("不支持版本 {found}；这个 loopstep 读取版本 {FORMAT_VERSION}")
            }
            Why::Empty => "不能为空".into(),
            Why::NoReply => "没有任何回复：模型将无话可说".into(),
            Why::NoPage => "没有任何页面".into(),
            Why::MissingField { field } => format!("缺少必填字段 `{field}`"),
            Why::ToolDeclaredTwice { tool } => format!("工具 `{tool}` 被声明了两次"),
            Why::UndeclaredTool { name } => format!("`tools` 里没有声明名为 `{name}` 的工具"),
            Why::GoalToolUndeclared { tool } => {
                format!("`tools` 里没有声明名为 `{tool}` 的工具，目标永远无法达成")
            }
            Why::NoSuchCall { id } => format!("`replies` 里没有 id 为 `{id}` 的 tool_use"),
            Why::ForeignStopReason { reason, of, run } => {
                let own = foreign_own_word(reason, *of, *run)
                    .map_or("没有对应的说法".to_owned(), |w| {
                        format!("对应的是 `{w}`")
                    });
                format!(
                    "`{reason}` 是 {} 的停止原因，但这条记录用的是 {}，{own}",
                    of.words().api,
                    run.words().api
                )
            }
            Why::ResultInReply => "模型的回复不能包含 tool_result；结果来自工具".into(),
            Why::CallWithoutId => "tool_use 需要一个 id".into(),
            Why::CallIdReused { id, first } => format!("tool_use id `{id}` 已在 `{first}` 用过"),
            Why::Unanswerable { id, name } => format!(
                "tool_use `{id}` 调用 `{name}`，但它既没有录下的结果（可加在 `results.{id}` 下），\
                 也没有回放环境（可加在 `environment.{name}` 下）"
            ),
            Why::CallsCountFromOne => "调用从 1 开始编号".into(),
            Why::NoModelCall => "至少为 1：每条记录至少调用一次模型".into(),
            Why::NotAnObject { held } => {
                format!("运行记录是一个 JSON 对象，但这个文件里是{}", kind_zh(*held))
            }
            Why::NoSuchBase { base } => {
                format!("`{base}` 不是内置记录；可选：{}", BUILTIN_NAMES.join("、"))
            }
            Why::SharedHistoryMissing { shared, count } => {
                format!("指向共享历史 {shared}，但文件只有 {count} 段")
            }
            Why::NotPartOfHistory {
                from,
                to,
                shared,
                len,
            } => {
                format!("消息 {from} 到 {to} 不在共享历史 {shared} 之内（该共享历史只有 {len} 条）")
            }
            Why::NoSession => "文件夹按 Claude Code 项目打开，但里面没有会话（`*.jsonl`）".into(),
            Why::NoSessionRead { why } => {
                let why: Vec<String> = why.iter().map(|n| self.note_text(n)).collect();
                format!("这个文件夹里没有一个会话能读取：{}", why.join("；"))
            }
            Why::ArchiveUnreadable { error } => {
                format!("Inspect 的 .eval 日志是 zip 压缩包，但这个无法读取：{error}")
            }
            Why::MemberUnreadable { name, error } => {
                format!("压缩包里的 `{name}` 无法读取：{error}")
            }
            Why::MemberNotJson { name, error } => {
                format!("压缩包里的 `{name}` 不是 JSON：{error}")
            }
            Why::NoEvalHeader => "压缩包里没有 header.json：不是 Inspect 的 .eval 日志".into(),
            Why::TooFewLines => "它不足两行".into(),
            Why::NoRun { format, seen } => format!(
                "用 `--from {}` 读取（{}），其中没有模型回答过的提问；{}",
                format.flag(),
                self.format_name(*format),
                self.seen(seen)
            ),
            Why::Parser(words) => serde_zh(words),
            Why::Mistyped { message, at: None } => serde_zh(message),
            Why::Mistyped {
                message,
                at: Some((line, column)),
            } => format!("{}（第 {line} 行，第 {column} 列）", serde_zh(message)),
            Why::UnknownStopReason { reason, run } => format!(
                "`{reason}` 不是任何 API 的停止原因；{} 的停止原因是 {}",
                run.words().api,
                stop_words(*run)
            ),
        }
    }

    /// What a file held, as a refusal tells it.
    pub fn seen(self, seen: &Seen) -> String {
        match self.lang {
            Lang::En => seen_en(seen),
            Lang::Zh => seen_zh(seen),
        }
    }
}

/// The run's own word for a stop reason another API spells `reason`.
fn foreign_own_word(reason: &str, of: Dialect, run: Dialect) -> Option<&'static str> {
    run.spell(of.stop_reason(reason))
}

/// An API's stop reasons, each in backticks.
fn stop_words(dialect: Dialect) -> String {
    let words: Vec<String> = dialect
        .stops()
        .iter()
        .map(|(word, _)| format!("`{word}`"))
        .collect();
    words.join(", ")
}

fn why_en(why: &Why) -> String {
    match why {
        Why::Version { found } => format!(
            "version {found} is not supported; this loopstep reads version {FORMAT_VERSION}"
        ),
        Why::Empty => "must not be empty".into(),
        Why::NoReply => "holds no reply: the model would have nothing to say".into(),
        Why::NoPage => "holds no page".into(),
        Why::MissingField { field } => format!("the required field `{field}` is missing"),
        Why::ToolDeclaredTwice { tool } => format!("tool `{tool}` is declared twice"),
        Why::UndeclaredTool { name } => format!("no tool named `{name}` is declared in `tools`"),
        Why::GoalToolUndeclared { tool } => {
            format!("no tool named `{tool}` is declared in `tools`, so the goal could never be met")
        }
        Why::NoSuchCall { id } => format!("no tool_use in `replies` has the id `{id}`"),
        Why::ForeignStopReason { reason, of, run } => {
            let own = foreign_own_word(reason, *of, *run)
                .map_or("has no word for it".to_owned(), |w| {
                    format!("calls it `{w}`")
                });
            format!(
                "`{reason}` is a stop reason of {}, but this run speaks {}, which {own}",
                of.words().api,
                run.words().api
            )
        }
        Why::ResultInReply => {
            "a model reply cannot hold a tool_result; results come from the tools".into()
        }
        Why::CallWithoutId => "a tool_use needs an id".into(),
        Why::CallIdReused { id, first } => {
            format!("tool_use id `{id}` is already used at `{first}`")
        }
        Why::Unanswerable { id, name } => format!(
            "tool_use `{id}` calls `{name}`, which has no recorded result \
             (add one under `results.{id}`) and no replay environment \
             (add one under `environment.{name}`)"
        ),
        Why::CallsCountFromOne => "calls are numbered from 1".into(),
        Why::NoModelCall => "must be at least 1: every run calls the model once".into(),
        Why::NotAnObject { held } => format!(
            "a transcript is a JSON object, but this file holds {}",
            kind_en(*held)
        ),
        Why::NoSuchBase { base } => format!(
            "`{base}` is not a built-in run; choose one of: {}",
            BUILTIN_NAMES.join(", ")
        ),
        Why::SharedHistoryMissing { shared, count } => {
            format!("names shared history {shared}, but the file has {count}")
        }
        Why::NotPartOfHistory {
            from,
            to,
            shared,
            len,
        } => format!(
            "messages {from} to {to} are not a part of shared history {shared}, which holds {len}"
        ),
        Why::NoSession => "a folder opens as a Claude Code project, but this one holds no \
                           session (`*.jsonl`)"
            .into(),
        Why::NoSessionRead { why } => {
            let why: Vec<String> = why.iter().map(ToString::to_string).collect();
            format!(
                "no session of this folder could be read: {}",
                why.join("; ")
            )
        }
        Why::ArchiveUnreadable { error } => {
            format!("an Inspect .eval log is a zip archive, but this one is not readable: {error}")
        }
        Why::MemberUnreadable { name, error } => {
            format!("`{name}` in the archive cannot be read: {error}")
        }
        Why::MemberNotJson { name, error } => {
            format!("`{name}` in the archive is not JSON: {error}")
        }
        Why::NoEvalHeader => "the archive holds no header.json: not an Inspect .eval log".into(),
        Why::TooFewLines => "it holds fewer than two lines".into(),
        Why::NoRun { format, seen } => format!(
            "read as {} (`--from {}`), it holds no prompt that the model answered; {}",
            Say::new(Lang::En, Dialect::default()).format_name(*format),
            format.flag(),
            seen_en(seen)
        ),
        Why::Parser(words) => words.clone(),
        Why::Mistyped { message, at: None } => message.clone(),
        Why::Mistyped {
            message,
            at: Some((line, column)),
        } => format!("{message} (line {line}, column {column})"),
        Why::UnknownStopReason { reason, run } => format!(
            "`{reason}` is no API's stop reason; {} stops with {}",
            run.words().api,
            stop_words(*run)
        ),
    }
}

fn kind_en(kind: JsonKind) -> &'static str {
    match kind {
        JsonKind::Null => "null",
        JsonKind::Bool => "a boolean",
        JsonKind::Number => "a number",
        JsonKind::String => "a string",
        JsonKind::Array => "an array",
        JsonKind::Object => "an object",
    }
}

fn kind_zh(kind: JsonKind) -> &'static str {
    match kind {
        JsonKind::Null => " null",
        JsonKind::Bool => "一个布尔值",
        JsonKind::Number => "一个数字",
        JsonKind::String => "一个字符串",
        JsonKind::Array => "一个数组",
        JsonKind::Object => "一个对象",
    }
}

fn keys_en(keys: &[String]) -> String {
    match keys {
        [] => "no keys".to_owned(),
        keys => {
            let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!("keys {}", names.join(", "))
        }
    }
}

fn keys_zh(keys: &[String]) -> String {
    match keys {
        [] => "没有键".to_owned(),
        keys => {
            let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!("键为 {}", names.join("、"))
        }
    }
}

pub(super) fn seen_en(seen: &Seen) -> String {
    let top = match seen {
        Seen::Interactions { count } => {
            let verb = if *count == 1 { "is" } else { "are" };
            return format!("{count} of its interactions {verb} a model call");
        }
        Seen::Events => return "its events add up to no response of a known API".into(),
        Seen::NoModelCall => return "it records no model call".into(),
        Seen::Object { keys } => format!("an object with {}", keys_en(keys)),
        Seen::EmptyArray => "an empty array".into(),
        Seen::Objects { count, keys } => format!(
            "an array of {count} item{}, the first an object with {}",
            if *count == 1 { "" } else { "s" },
            keys_en(keys)
        ),
        Seen::ArrayOf(kind) => format!("an array whose first item is {}", kind_en(*kind)),
        Seen::Scalar(kind) => kind_en(*kind).to_owned(),
        Seen::Lines { count, keys } => format!(
            "{count} JSON lines, the first an object with {}",
            keys_en(keys)
        ),
    };
    format!("its top level is {top}")
}

fn seen_zh(seen: &Seen) -> String {
    let top = match seen {
        Seen::Interactions { count } => {
            return format!("它的交互中有 {count} 个是模型调用");
        }
        Seen::Events => return "它的事件拼不出任何已知 API 的响应".into(),
        Seen::NoModelCall => return "它没有记下任何模型调用".into(),
        Seen::Object { keys } => format!("一个对象，{}", keys_zh(keys)),
        Seen::EmptyArray => "一个空数组".into(),
        Seen::Objects { count, keys } => {
            format!("一个含 {count} 项的数组，第一项是对象，{}", keys_zh(keys))
        }
        Seen::ArrayOf(kind) => format!("一个数组，第一项是{}", kind_zh(*kind)),
        Seen::Scalar(kind) => kind_zh(*kind).to_owned(),
        Seen::Lines { count, keys } => {
            return format!("它是 {count} 行 JSON，第一行是对象，{}", keys_zh(keys));
        }
    };
    format!("它的顶层是{top}")
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&why_en(self))
    }
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&seen_en(self))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).problem(self))
    }
}
