//! Why a file could not be loaded, in the reader's language: what is
//! wrong, in which file, and where. Only a parser's own words (serde's,
//! a zip reader's) stay as they were written.

use crate::engine::MAX_TURNS;
use std::fmt;

use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::transcript::{
    BUILTIN_NAMES, FORMAT_VERSION, Format, JsonKind, LoadError, Looks, Problem, Seen, Unopened,
    Why, shown_path, size_words,
};

impl Say {
    pub fn load_error(self, error: &LoadError) -> String {
        if self.lang == Lang::En {
            return self.load_error_en(error);
        }
        match error {
            LoadError::Read { path, source } => {
                format!("无法读取 {}：{source}", shown_path(path))
            }
            LoadError::TooLarge { path, max_size } => format!(
                "{} 超过了 loopstep 读取的上限 {}；用 --max-size 可以调高",
                shown_path(path),
                size_words(*max_size)
            ),
            LoadError::NotUtf8 { path, offset } => format!(
                "{} 不是 UTF-8 文本：偏移 {offset} 处的字节无法解码",
                shown_path(path)
            ),
            LoadError::Syntax {
                origin,
                message,
                line,
                column,
            } => format!(
                "{origin} 不是有效的 JSON：{}（第 {line} 行，第 {column} 列）",
                serde_zh(message)
            ),
            LoadError::YamlSyntax {
                origin,
                message,
                line,
                column,
            } => format!("{origin} 不是有效的 YAML：{message}（第 {line} 行，第 {column} 列）"),
            LoadError::Shape {
                origin,
                path,
                message,
                line,
                column,
            } => format!(
                "{origin}，第 {line} 行第 {column} 列，`{path}` 处：{}",
                serde_zh(message)
            ),
            LoadError::Invalid { origin, problems } => format!(
                "{origin} 不是有效的运行记录（{} 个问题）：\n{}",
                problems.len(),
                problems
                    .iter()
                    .map(|p| format!("  - {}", self.problem(p)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            LoadError::NotRecognized {
                origin,
                seen,
                closest,
            } => {
                let tried: Vec<&str> = Format::ALL.iter().map(|f| self.format_name(*f)).collect();
                let tried = tried.join("、");
                let near: Vec<String> = closest
                    .iter()
                    .map(|(format, keys)| {
                        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                        format!(
                            "{}（共有 {}；`--from {}` 可按它读取）",
                            self.format_name(*format),
                            keys.join("、"),
                            format.flag()
                        )
                    })
                    .collect();
                let near = match near.is_empty() {
                    true => String::new(),
                    false => format!("；最接近的是 {}", near.join("，其次是 ")),
                };
                let seen = self.seen(seen);
                format!("{origin} 不属于 loopstep 能读的任何格式（{tried}）；{seen}{near}")
            }
            LoadError::NotFound {
                name,
                builtins,
                nearest,
            } => {
                let guess = match nearest.as_slice() {
                    [] => String::new(),
                    names => {
                        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                        format!("你是不是想打开 {}？", names.join(" 或 "))
                    }
                };
                format!(
                    "`{name}` 既不是内置记录，也不是文件。{guess}内置记录：{builtins}。\
                     要打开文件，请给出它的路径（例如 ./my-run.json）。"
                )
            }
            LoadError::Unopened { path, why } => {
                format!("{} {}", shown_path(path), self.unopened(*why))
            }
            LoadError::NoRoom { path, size } => format!(
                "{} 声称有 {}，超过了这台电脑能为读取它留出的内存",
                shown_path(path),
                size_words(*size)
            ),
            LoadError::Utf16 { path } => format!(
                "{} 是 UTF-16 文本（开头是 UTF-16 的字节顺序标记），而 loopstep 读取 UTF-8：\
                 可以用 `iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8` 转换",
                shown_path(path)
            ),
            LoadError::NotJson {
                origin,
                line,
                column,
                looks,
            } => format!(
                "{origin} 不是运行记录：它的内容不是 JSON（从第 {line} 行第 {column} 列起就不是 \
                 JSON 了）；看起来是{}",
                looks_zh(*looks)
            ),
        }
    }

    fn load_error_en(self, error: &LoadError) -> String {
        match error {
            LoadError::Read { path, source } => {
                format!("cannot read {}: {source}", shown_path(path))
            }
            LoadError::TooLarge { path, max_size } => format!(
                "{} is larger than {}, the most loopstep reads; --max-size raises the limit",
                shown_path(path),
                size_words(*max_size)
            ),
            LoadError::NotUtf8 { path, offset } => format!(
                "{} is not UTF-8 text: the byte at offset {offset} does not decode",
                shown_path(path)
            ),
            LoadError::Syntax {
                origin,
                message,
                line,
                column,
            } => format!("{origin} is not valid JSON: {message} (line {line}, column {column})"),
            LoadError::YamlSyntax {
                origin,
                message,
                line,
                column,
            } => format!("{origin} is not valid YAML: {message} (line {line}, column {column})"),
            LoadError::Shape {
                origin,
                path,
                message,
                line,
                column,
            } => format!("{origin}, line {line}, column {column}, at `{path}`: {message}"),
            LoadError::Invalid { origin, problems } => format!(
                "{origin} is not a valid transcript ({} problem{}):\n{}",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                problems
                    .iter()
                    .map(|p| format!("  - {}", self.problem(p)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            LoadError::NotRecognized {
                origin,
                seen,
                closest,
            } => {
                let tried: Vec<&str> = Format::ALL.iter().map(|f| self.format_name(*f)).collect();
                let near: Vec<String> = closest
                    .iter()
                    .map(|(format, keys)| {
                        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                        format!(
                            "{} (shares {}; `--from {}` reads it as one)",
                            self.format_name(*format),
                            keys.join(", "),
                            format.flag()
                        )
                    })
                    .collect();
                let near = match near.is_empty() {
                    true => String::new(),
                    false => format!("; it comes closest to {}", near.join(", then ")),
                };
                format!(
                    "{origin} is in none of the formats loopstep reads ({}); {}{near}",
                    tried.join(", "),
                    seen_en(seen)
                )
            }
            LoadError::NotFound {
                name,
                builtins,
                nearest,
            } => {
                let guess = match nearest.as_slice() {
                    [] => String::new(),
                    [one] => format!(" Did you mean `{one}`?"),
                    [many @ .., last] => {
                        let many: Vec<String> = many.iter().map(|n| format!("`{n}`")).collect();
                        format!(" Did you mean {} or `{last}`?", many.join(", "))
                    }
                };
                format!(
                    "`{name}` is neither a built-in run nor a file.{guess} Built-in runs: \
                     {builtins}. To open a file, give its path (for example ./my-run.json)."
                )
            }
            LoadError::Unopened { path, why } => {
                format!("{} {}", shown_path(path), self.unopened(*why))
            }
            LoadError::NoRoom { path, size } => format!(
                "{} says it holds {}, more than this computer can set aside in memory to read it",
                shown_path(path),
                size_words(*size)
            ),
            LoadError::Utf16 { path } => format!(
                "{} is UTF-16 text (it opens with UTF-16's byte-order mark), but loopstep reads \
                 UTF-8: convert it with `iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8`",
                shown_path(path)
            ),
            LoadError::NotJson {
                origin,
                line,
                column,
                looks,
            } => format!(
                "{origin} is not a recording: its text is not JSON (it stops being JSON at line \
                 {line}, column {column}); it looks like {}",
                looks_en(*looks)
            ),
        }
    }

    /// Why a path is not opened, said of it (the path goes before).
    pub fn unopened(self, why: Unopened) -> String {
        let words = match (self.lang, why) {
            (Lang::En, Unopened::Fifo) => {
                "is a FIFO, not a regular file: among many files only regular ones are read, \
                 as a FIFO can keep its reader waiting for ever"
            }
            (Lang::En, Unopened::FifoWithoutWriter) => {
                "is a FIFO with nothing to read and no program writing to it: start the program \
                 that writes to it first (reading it now would wait for one)"
            }
            (Lang::En, Unopened::Device) => {
                "is a device, not a file: loopstep reads from a file or a pipe (a device such as \
                 /dev/zero never ends)"
            }
            (Lang::En, Unopened::Socket) => {
                "is a socket, not a file: loopstep reads from a file or a pipe"
            }
            (Lang::En, Unopened::LinkLoop) => {
                "is a loop of symbolic links: following them leads back to where they start, \
                 never to a file"
            }
            (Lang::Zh, Unopened::Fifo) => {
                "是 FIFO，不是普通文件：在众多文件中只读取普通文件，因为 FIFO \
                               可能让读取它的程序永远等下去"
            }
            (Lang::Zh, Unopened::FifoWithoutWriter) => {
                "是 FIFO，既没有内容可读，也没有程序在向它写入：\
                                            请先启动写入它的程序（现在读取就得等它出现）"
            }
            (Lang::Zh, Unopened::Device) => {
                "是设备，不是文件：loopstep 从文件或管道读取\
                                 （像 /dev/zero 这样的设备永远读不完）"
            }
            (Lang::Zh, Unopened::Socket) => "是套接字，不是文件：loopstep 从文件或管道读取",
            (Lang::Zh, Unopened::LinkLoop) => {
                "是一个符号链接的环：顺着链接走只会回到起点，到不了任何文件"
            }
        };
        words.to_owned()
    }

    /// One problem a check found, and where.
    fn problem(self, problem: &Problem) -> String {
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

/// What a text that is no JSON looks like, in Chinese.
fn looks_zh(looks: Looks) -> &'static str {
    match looks {
        Looks::Markdown => " Markdown（开头是标题或 front matter）",
        Looks::Script => "脚本（开头是 #!）",
        Looks::Markup => " HTML 或 XML（开头是 <）",
        Looks::Log => "日志（第一行以日期、时间或日志级别开头）",
        Looks::Text => "普通文本",
    }
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

fn seen_en(seen: &Seen) -> String {
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

fn looks_en(looks: Looks) -> &'static str {
    match looks {
        Looks::Markdown => "Markdown (it opens with a heading or front matter)",
        Looks::Script => "a script (it opens with #!)",
        Looks::Markup => "HTML or XML (it opens with <)",
        Looks::Log => "a log (its first line opens with a date, a time or a level)",
        Looks::Text => "plain text",
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).load_error(self))
    }
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

/// serde_json's fixed words in Chinese: its syntax errors whole, its data
/// errors by their opening (serde_json's `ErrorCode` and serde's
/// `de::Error` messages), and loopstep's hint for a file cut short; any
/// other message as serde wrote it.
fn serde_zh(message: &str) -> String {
    const CUT_SHORT: &str = " (is the file cut short?)";
    let (message, cut) = match message.strip_suffix(CUT_SHORT) {
        Some(message) => (message, "（文件是不是被截断了？）"),
        None => (message, ""),
    };
    const WHOLE: &[(&str, &str)] = &[
        ("EOF while parsing a list", "列表还没结束，文件就结束了"),
        ("EOF while parsing an object", "对象还没结束，文件就结束了"),
        ("EOF while parsing a string", "字符串还没结束，文件就结束了"),
        ("EOF while parsing a value", "还没读到值，文件就结束了"),
        ("expected `:`", "这里应为 `:`"),
        ("expected `,` or `]`", "这里应为 `,` 或 `]`"),
        ("expected `,` or `}`", "这里应为 `,` 或 `}`"),
        ("expected ident", "这里应为 true、false 或 null"),
        ("expected value", "这里应为一个值"),
        ("expected `\"`", "这里应为 `\"`"),
        ("invalid escape", "无效的转义"),
        ("invalid number", "无效的数字"),
        ("number out of range", "数字超出范围"),
        ("invalid unicode code point", "无效的 Unicode 码位"),
        ("key must be a string", "键必须是字符串"),
        ("trailing comma", "多了一个结尾逗号"),
        ("trailing characters", "值后面还有多余的字符"),
        ("recursion limit exceeded", "嵌套太深"),
    ];
    const OPENING: &[(&str, &str)] = &[
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            "字符串里有控制字符（\\u0000-\\u001F）",
        ),
        ("invalid type: ", "类型不对："),
        ("missing field ", "缺少字段 "),
        ("unknown field ", "未知字段 "),
        ("unknown variant ", "未知取值 "),
        ("duplicate field ", "字段重复 "),
        ("invalid value: ", "值无效："),
        ("invalid length ", "长度不对 "),
    ];
    // loopstep's own check of a budget in a file (transcript/mod.rs).
    if let Some((_, got)) = message
        .strip_prefix("max_turns must be a whole number from 1")
        .and_then(|rest| rest.rsplit_once(", got "))
    {
        return format!(
            "max_turns 必须是 1（循环至少要调用一次模型）到 {MAX_TURNS}（loopstep 最多重放的轮数）\
             之间的整数，收到的是 {got}"
        );
    }
    let told = WHOLE
        .iter()
        .find(|(en, _)| *en == message)
        .map(|(_, zh)| (*zh).to_owned())
        .or_else(|| {
            OPENING.iter().find_map(|(en, zh)| {
                let rest = message.strip_prefix(en)?;
                Some(format!("{zh}{}", serde_kinds_zh(rest)))
            })
        })
        .unwrap_or_else(|| message.to_owned());
    format!("{told}{cut}")
}

/// serde's names of JSON kinds in a data error, in Chinese (serde's
/// `de::Unexpected` and the `expected …` its derives write).
fn serde_kinds_zh(rest: &str) -> String {
    const KINDS: &[(&str, &str)] = &[
        (", expected ", "，应为 "),
        ("a sequence", "数组"),
        ("a map", "对象"),
        ("a string", "字符串"),
        ("a boolean", "布尔值"),
        ("unsigned integer", "非负整数"),
        ("integer", "整数"),
        ("floating point", "小数"),
        ("boolean", "布尔值"),
        ("string", "字符串"),
        ("sequence", "数组"),
        ("map", "对象"),
        ("one of", "以下之一："),
    ];
    KINDS
        .iter()
        .fold(rest.to_owned(), |text, (en, zh)| text.replace(en, zh))
}
