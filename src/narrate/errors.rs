//! Why a file could not be loaded, in the reader's language: what is
//! wrong, in which file, and where. The details a parser or a check gave
//! (serde's words, a problem's message) stay as they were written.

use super::{Lang, Say};
use crate::transcript::{Format, LoadError, Problem, size_words};

impl Say {
    pub fn load_error(self, error: &LoadError) -> String {
        if self.lang == Lang::En {
            return error.to_string();
        }
        match error {
            LoadError::Read { path, source } => {
                format!("无法读取 {}：{source}", path.display())
            }
            LoadError::TooLarge { path, max_size } => format!(
                "{} 超过了 loopstep 读取的上限 {}；用 --max-size 可以调高",
                path.display(),
                size_words(*max_size)
            ),
            LoadError::NotUtf8 { path, offset } => format!(
                "{} 不是 UTF-8 文本：偏移 {offset} 处的字节无法解码",
                path.display()
            ),
            LoadError::Syntax {
                origin,
                message,
                line,
                column,
            } => format!("{origin} 不是有效的 JSON：{message}（第 {line} 行，第 {column} 列）"),
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
            } => format!("{origin}，第 {line} 行第 {column} 列，`{path}` 处：{message}"),
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
                format!(
                    "{origin} 不属于 loopstep 能读的任何格式（{tried}）；它的顶层是 {seen}{near}"
                )
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
        }
    }

    /// One problem a check found, and where.
    fn problem(self, problem: &Problem) -> String {
        match problem.path.as_str() {
            "" => format!("在顶层：{}", problem.message),
            path => format!("在 `{path}`：{}", problem.message),
        }
    }
}
