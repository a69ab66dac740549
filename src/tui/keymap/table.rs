//! The screen's key table: every key, the action it asks for, and the
//! words the help and the footer give it, in both languages.

use crossterm::event::KeyCode;

use super::{Action, Binding, Key, ch, in_footer, key, one, pair};
use crate::narrate::Tr;

/// The words of the rows the compare screen's table shares with this one.
pub mod words {
    use crate::narrate::Tr;

    pub const TURN: Tr = Tr {
        en: "next / previous turn",
        zh: "下一轮 / 上一轮",
    };
    pub const THEME: Tr = Tr {
        en: "colours: dark / light / high contrast",
        zh: "配色：深色 / 浅色 / 高对比度",
    };
    pub const START_END: Tr = Tr {
        en: "start / end of the run",
        zh: "跳到开头 / 结尾",
    };
    pub const QUIT: Tr = Tr {
        en: "quit",
        zh: "退出",
    };
    pub const LANG: Tr = Tr {
        en: "中文 / English",
        zh: "中文 / English",
    };

    pub const HELP: Tr = Tr {
        en: "show or hide this help",
        zh: "显示或隐藏本帮助",
    };
    pub const FOOTER_TURN: Tr = Tr {
        en: "turn",
        zh: "轮",
    };
    pub const FOOTER_STEP: Tr = Tr {
        en: "step",
        zh: "步",
    };
    pub const FOOTER_QUIT: Tr = Tr {
        en: "quit",
        zh: "退出",
    };
    pub const FOOTER_LANG: Tr = Tr {
        en: "中文",
        zh: "English",
    };
    pub const FOOTER_HELP: Tr = Tr {
        en: "help",
        zh: "帮助",
    };
}

pub const CTRL_C: Key = Key {
    code: KeyCode::Char('c'),
    ctrl: true,
};

pub const BINDINGS: &[Binding] = &[
    in_footer(
        pair(
            &[key(KeyCode::Right), ch('l'), ch(' ')],
            Action::Next,
            &[key(KeyCode::Left), ch('h'), key(KeyCode::Backspace)],
            Action::Prev,
            Tr {
                en: "next / previous phase",
                zh: "下一步 / 上一步",
            },
        ),
        words::FOOTER_STEP,
    ),
    in_footer(
        pair(
            &[ch('n')],
            Action::NextMatch,
            &[ch('N')],
            Action::PrevMatch,
            Tr {
                en: "next / previous match (after /), else turn",
                zh: "下一个 / 上一个匹配（/ 之后），否则换轮",
            },
        ),
        words::FOOTER_TURN,
    ),
    pair(
        &[ch(']')],
        Action::NextTurn,
        &[ch('['), ch('p')],
        Action::PrevTurn,
        words::TURN,
    ),
    pair(
        &[ch('g'), key(KeyCode::Home)],
        Action::Start,
        &[ch('G'), key(KeyCode::End)],
        Action::End,
        words::START_END,
    ),
    in_footer(
        pair(
            &[ch('+'), ch('=')],
            Action::MoreTurns,
            &[ch('-'), ch('_')],
            Action::FewerTurns,
            Tr {
                en: "max_turns up / down, replays at once",
                zh: "max_turns 加 / 减，立即重放",
            },
        ),
        Tr {
            en: "max_turns",
            zh: "max_turns",
        },
    ),
    one(
        &[ch('r')],
        Action::ResetTurns,
        Tr {
            en: "max_turns back to the run's own",
            zh: "max_turns 恢复为本次运行的设定",
        },
    ),
    in_footer(
        pair(
            &[key(KeyCode::Tab)],
            Action::NextRun,
            &[key(KeyCode::BackTab)],
            Action::PrevRun,
            Tr {
                en: "next / previous run",
                zh: "下一条 / 上一条记录",
            },
        ),
        Tr {
            en: "run",
            zh: "记录",
        },
    ),
    // The title bar names the check in force; the help has the key.
    one(
        &[ch('c')],
        Action::ToggleCheck,
        Tr {
            en: "switch the check: lesson / production",
            zh: "切换检查：本课简化检查 / 生产循环",
        },
    ),
    in_footer(
        pair(
            &[ch('m')],
            Action::NextMistake,
            &[ch('M')],
            Action::CorrectLoop,
            Tr {
                en: "next common mistake / the correct loop",
                zh: "下一个常见错误 / 改回正确的循环",
            },
        ),
        Tr {
            en: "mistake",
            zh: "常见错误",
        },
    ),
    pair(
        &[key(KeyCode::Up), ch('k')],
        Action::ScrollUp,
        &[key(KeyCode::Down), ch('j')],
        Action::ScrollDown,
        Tr {
            en: "scroll messages",
            zh: "滚动 messages",
        },
    ),
    pair(
        &[key(KeyCode::PageUp), ch('K')],
        Action::DetailUp,
        &[key(KeyCode::PageDown), ch('J')],
        Action::DetailDown,
        Tr {
            en: "scroll the detail pane",
            zh: "滚动详情面板",
        },
    ),
    one(
        &[ch(':')],
        Action::GoToStep,
        Tr {
            en: "go to step: type its number, then Enter",
            zh: "跳到第几步：输入步数，再按 Enter",
        },
    ),
    one(
        &[ch('/')],
        Action::Search,
        Tr {
            en: "find a text in the run: type it, then Enter",
            zh: "在运行中查找文字：输入后按 Enter",
        },
    ),
    pair(
        &[ch('}')],
        Action::NextCall,
        &[ch('{')],
        Action::PrevCall,
        Tr {
            en: "next / previous model call",
            zh: "下一次 / 上一次模型调用",
        },
    ),
    pair(
        &[ch('d')],
        Action::NextTool,
        &[ch('D')],
        Action::PrevTool,
        Tr {
            en: "next / previous tool call",
            zh: "下一次 / 上一次工具调用",
        },
    ),
    pair(
        &[ch('u')],
        Action::NextPrompt,
        &[ch('U')],
        Action::PrevPrompt,
        Tr {
            en: "next / previous user prompt",
            zh: "下一条 / 上一条用户提示",
        },
    ),
    one(
        &[ch('!')],
        Action::NextWrong,
        Tr {
            en: "next error: a failed tool, a broken rule, an end that is no answer",
            zh: "下一处出错：工具失败、违反规则、不是回答的结束",
        },
    ),
    one(
        &[ch('y')],
        Action::CopyLink,
        Tr {
            en: "copy the command that reopens this frame",
            zh: "复制重新打开这一帧的命令",
        },
    ),
    one(
        &[key(KeyCode::Enter)],
        Action::Open,
        Tr {
            en: "open the sub-agent a tool call started (Esc comes back); else next",
            zh: "打开工具调用启动的子代理（Esc 返回）；否则下一步",
        },
    ),
    one(
        &[ch('a')],
        Action::ToggleAutoplay,
        Tr {
            en: "play by itself / pause",
            zh: "自动播放 / 暂停",
        },
    ),
    pair(
        &[ch('>')],
        Action::Faster,
        &[ch('<')],
        Action::Slower,
        Tr {
            en: "autoplay faster / slower (0.5× to 4×)",
            zh: "自动播放加快 / 减慢（0.5× 到 4×）",
        },
    ),
    // One row, so that the help still fits 24 rows: both are about the
    // JSON an API sends.
    pair(
        &[ch('w')],
        Action::ToggleWire,
        &[ch('A')],
        Action::RetellNext,
        Tr {
            en: "detail: summary / wire JSON; A: next API",
            zh: "详情：摘要 / 实际收发的 JSON；A：换一个 API",
        },
    ),
    // One row, so that the help still fits 24 rows.
    pair(
        &[ch('e')],
        Action::ToggleExpand,
        &[ch('R')],
        Action::ToggleReact,
        Tr {
            en: "unfold long texts / ReAct lens (Thought, Action…)",
            zh: "展开长文本 / ReAct 视角（思考、行动…）",
        },
    ),
    one(
        &[ch('x')],
        Action::ToggleGrowth,
        Tr {
            en: "what each call sends: show / hide",
            zh: "每次调用发送多少：显示 / 隐藏",
        },
    ),
    one(
        &[ch('Q')],
        Action::ToggleQuiz,
        Tr {
            en: "quiz: guess each check before it shows",
            zh: "测验：每次检查揭晓前先猜",
        },
    ),
    in_footer(
        one(&[ch('L')], Action::ToggleLang, words::LANG),
        words::FOOTER_LANG,
    ),
    one(&[ch('t')], Action::CycleTheme, words::THEME),
    in_footer(
        one(&[ch('?')], Action::ToggleHelp, words::HELP),
        words::FOOTER_HELP,
    ),
    in_footer(
        one(
            &[ch('q'), key(KeyCode::Esc), CTRL_C],
            Action::Quit,
            words::QUIT,
        ),
        words::QUIT,
    ),
];
