//! Why a file could not be loaded, in the reader's language: what is
//! wrong, in which file, and where. Only a parser's own words (serde's,
//! a zip reader's) stay as they were written.

use std::fmt;

use super::problems::seen_en;
use super::serde_zh::serde_zh;
use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::transcript::{Format, LoadError, Looks, Unopened, shown_path, size_words};

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
