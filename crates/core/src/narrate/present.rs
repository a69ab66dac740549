//! The words of a lesson presented: its scenes, the teacher's notes screen,
//! and a note written from the screen.

use super::{Lang, Say};
use crate::engine::Phase;

impl Say {
    // The teacher's notes screen.
    pub fn notes_title(self, lesson: &str, (scene, of): (usize, usize), seconds: u64) -> String {
        let (minutes, seconds) = (seconds / 60, seconds % 60);
        match self.lang {
            Lang::En => format!(
                " notes · {lesson} · scene {}/{of} · {minutes}:{seconds:02} elapsed",
                scene + 1
            ),
            Lang::Zh => format!(
                " 讲稿 · {lesson} · 第 {}/{of} 幕 · 已用时 {minutes}:{seconds:02}",
                scene + 1
            ),
        }
    }

    pub fn notes_title_waiting(self, lesson: &str) -> String {
        match self.lang {
            Lang::En => format!(" notes · {lesson}"),
            Lang::Zh => format!(" 讲稿 · {lesson}"),
        }
    }

    pub fn notes_waiting(self) -> &'static str {
        self.pick(
            "Waiting for the presenter: loopstep present LESSON --publish-notes, in another \
             terminal. The notes follow it as soon as it starts, and again after a restart.",
            "正在等待主讲：请在另一个终端运行 loopstep present LESSON --publish-notes。\
             它一启动讲稿就会跟上，重启后也会重新跟上。",
        )
    }

    pub fn notes_on_card(self) -> &'static str {
        self.pick(
            "The class reads the scene's title card:",
            "学生正在看这一幕的标题卡：",
        )
    }

    pub fn notes_now(self, step: usize) -> String {
        match self.lang {
            Lang::En => format!("Now, step {}: your notes", step + 1),
            Lang::Zh => format!("现在是第 {} 步：讲稿", step + 1),
        }
    }

    pub fn notes_none(self) -> &'static str {
        self.pick("(no note for this step)", "（这一步没有讲稿）")
    }

    pub fn notes_next(self, step: usize, turn: u32, phase: Phase) -> String {
        let phase = self.phase(phase);
        match self.lang {
            Lang::En => format!("Next, step {} · turn {turn} · {phase}:", step + 1),
            Lang::Zh => format!("下一步：第 {} 步 · 第 {turn} 轮 · {phase}：", step + 1),
        }
    }

    pub fn notes_last(self) -> &'static str {
        self.pick("This is the scene's last step.", "这是这一幕的最后一步。")
    }

    pub fn notes_keys(self) -> &'static str {
        self.pick(" q quit", " q 退出")
    }

    /// The prompt for a note written from the present screen.
    pub fn note_prompt(self, typed: &str) -> String {
        match self.lang {
            Lang::En => {
                format!(" note at this step: {typed}▏ Enter saves it to the lesson · Esc drops it")
            }
            Lang::Zh => format!(" 这一步的讲稿：{typed}▏ 回车存入课程文件 · Esc 放弃"),
        }
    }

    pub fn note_saved(self, at: &str, file: &str) -> String {
        match self.lang {
            Lang::En => format!(" note saved at `{at}` in {file}"),
            Lang::Zh => format!(" 讲稿已存入 {file}（{at}）"),
        }
    }

    pub fn note_off_lesson(self) -> String {
        self.pick(
            " not saved: the lesson's own settings do not reach this step (r brings them back)",
            " 没有保存：按课程为这一幕设定的设置走不到这一步（按 r 恢复设置）",
        )
        .to_owned()
    }

    pub fn note_not_written(self, file: &str, error: &str) -> String {
        match self.lang {
            Lang::En => format!(" the note could not be written to {file}: {error}"),
            Lang::Zh => format!(" 讲稿没能写入 {file}：{error}"),
        }
    }

    pub fn note_not_saved(self, file: &str) -> String {
        match self.lang {
            Lang::En => format!(" the note could not be saved: {file} no longer reads as a lesson"),
            Lang::Zh => format!(" 讲稿没能保存：{file} 已不能作为课程文件读取"),
        }
    }

    /// Which scene of a lesson is on screen: "scene 3/7".
    pub fn scene_position(self, index: usize, count: usize) -> String {
        match self.lang {
            Lang::En => format!("scene {}/{count}", index + 1),
            Lang::Zh => format!("第 {}/{count} 幕", index + 1),
        }
    }
}
