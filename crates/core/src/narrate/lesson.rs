//! What is wrong with a lesson file, in the reader's language.

use super::{Lang, Say};
use crate::dialect::Dialect;
use crate::engine::{MAX_TURNS, Mistake};
use crate::lesson::{Failed, PACES, Problem, ReadError, Resolved, Why};
use crate::transcript::shown_path;

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&Say::new(Lang::En, Dialect::default()).lesson_failed(self))
    }
}

impl Say {
    /// Why a lesson cannot be presented, every problem on a line of its own.
    pub fn lesson_failed(self, failed: &Failed) -> String {
        match failed {
            Failed::Read(error) => self.lesson_read_error(error),
            Failed::Problems { path, problems } => {
                let head = match self.lang {
                    Lang::En => format!(
                        "{} is not ready to present ({} problem{}):",
                        shown_path(path),
                        problems.len(),
                        if problems.len() == 1 { "" } else { "s" }
                    ),
                    Lang::Zh => format!(
                        "{} 还不能用来上课（{} 个问题）：",
                        shown_path(path),
                        problems.len()
                    ),
                };
                let lines = problems
                    .iter()
                    .map(|p| format!("  - {}", self.lesson_problem(p)));
                std::iter::once(head)
                    .chain(lines)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        }
    }

    /// A lesson that checked out: its title and scenes, for `validate`.
    pub fn lesson_ready(self, path: &str, lesson: &Resolved) -> String {
        let title = crate::text::one_line(lesson.title.get(self.lang), 80);
        let path = crate::text::escaped(path);
        let n = lesson.scenes.len();
        match self.lang {
            Lang::En => format!(
                "{path}: a lesson, \"{title}\", {n} scene{}: every run loads, every setting \
                 and step exists",
                if n == 1 { "" } else { "s" }
            ),
            Lang::Zh => {
                format!("{path}：课程“{title}”，共 {n} 幕：每条记录都能打开，每个设置和步骤都存在")
            }
        }
    }

    pub fn lesson_read_error(self, error: &ReadError) -> String {
        match (self.lang, error) {
            (Lang::En, ReadError::Read { path, source }) => {
                format!("cannot read the lesson {}: {source}", shown_path(path))
            }
            (Lang::Zh, ReadError::Read { path, source }) => {
                format!("无法读取课程文件 {}：{source}", shown_path(path))
            }
            (Lang::En, ReadError::TooLarge { path }) => format!(
                "{} is larger than 1 MiB, far more than a lesson needs, so it is not read",
                shown_path(path)
            ),
            (Lang::Zh, ReadError::TooLarge { path }) => format!(
                "{} 超过 1 MiB，远超一份课程文件所需，因此不读取",
                shown_path(path)
            ),
            (
                Lang::En,
                ReadError::Toml {
                    path,
                    message,
                    line,
                    column,
                },
            ) => format!(
                "{} is not a lesson (line {line}, column {column}): {}",
                shown_path(path),
                crate::text::one_line(message, 300)
            ),
            (
                Lang::Zh,
                ReadError::Toml {
                    path,
                    message,
                    line,
                    column,
                },
            ) => format!(
                "{} 不是课程文件（第 {line} 行第 {column} 列）：{}",
                shown_path(path),
                crate::text::one_line(message, 300)
            ),
        }
    }

    /// A problem of a lesson, at its scene.
    pub fn lesson_problem(self, problem: &Problem) -> String {
        let why = self.lesson_why(&problem.why);
        match (self.lang, problem.scene) {
            (Lang::En, 0) => why,
            (Lang::Zh, 0) => why,
            (Lang::En, n) => format!("scene {n}: {why}"),
            (Lang::Zh, n) => format!("第 {n} 幕：{why}"),
        }
    }

    fn lesson_why(self, why: &Why) -> String {
        let mistakes = || Mistake::ALL.map(Mistake::name).join(", ");
        let dialects = || Dialect::ALL.map(Dialect::id).join(", ");
        let paces = || PACES.map(|p| p.to_string()).join(", ");
        match (self.lang, why) {
            (Lang::En, Why::NoScene) => {
                "the lesson has no scene: add a [[scene]] with a run".into()
            }
            (Lang::Zh, Why::NoScene) => "课程里没有任何一幕：请加一个带 run 的 [[scene]]".into(),
            (Lang::En, Why::OutsideFolder(path)) => format!(
                "`{}` leads out of the lesson's folder: a lesson opens built-in runs and files \
                 beside it only",
                crate::text::escaped(path)
            ),
            (Lang::Zh, Why::OutsideFolder(path)) => format!(
                "`{}` 指向课程文件夹之外：课程只能打开内置记录和它旁边的文件",
                crate::text::escaped(path)
            ),
            (_, Why::Run(error)) => self.load_error(error),
            (Lang::En, Why::NoSuchRun { which, runs }) => {
                format!("`which = {which}`, but the file holds {runs} run(s)")
            }
            (Lang::Zh, Why::NoSuchRun { which, runs }) => {
                format!("which = {which}，但这个文件只有 {runs} 条运行记录")
            }
            (Lang::En, Why::MaxTurns(n)) => {
                format!("max_turns = {n}: it must be from 1 to {MAX_TURNS}")
            }
            (Lang::Zh, Why::MaxTurns(n)) => {
                format!("max_turns = {n}：必须在 1 到 {MAX_TURNS} 之间")
            }
            (Lang::En, Why::Check(name)) => {
                format!("check = \"{name}\": it is `lesson` or `production`")
            }
            (Lang::Zh, Why::Check(name)) => {
                format!("check = \"{name}\"：只能是 lesson 或 production")
            }
            (Lang::En, Why::Mistake(name)) => {
                format!(
                    "mistake = \"{name}\" is no common mistake; they are {}",
                    mistakes()
                )
            }
            (Lang::Zh, Why::Mistake(name)) => {
                format!(
                    "mistake = \"{name}\" 不是已有的常见错误；可用的有 {}",
                    mistakes()
                )
            }
            (Lang::En, Why::Dialect(name)) => {
                format!(
                    "dialect = \"{name}\" is no API loopstep speaks; they are {}",
                    dialects()
                )
            }
            (Lang::Zh, Why::Dialect(name)) => {
                format!(
                    "dialect = \"{name}\" 不是 loopstep 支持的 API；可用的有 {}",
                    dialects()
                )
            }
            (Lang::En, Why::Lang(name)) => format!("lang = \"{name}\": it is `en` or `zh`"),
            (Lang::Zh, Why::Lang(name)) => format!("lang = \"{name}\"：只能是 en 或 zh"),
            (Lang::En, Why::Pace(pace)) => {
                format!("autoplay = {pace}: the speeds are {}", paces())
            }
            (Lang::Zh, Why::Pace(pace)) => format!("autoplay = {pace}：可用的速度有 {}", paces()),
            (Lang::En, Why::NoSuchStep { of, step, steps }) => format!(
                "{of} names step `{step}`, which the run does not have under the scene's \
                 settings (it has {steps} steps)"
            ),
            (Lang::Zh, Why::NoSuchStep { of, step, steps }) => {
                format!("{of} 指向的步骤 `{step}` 在这一幕的设置下并不存在（共 {steps} 步）")
            }
        }
    }
}
