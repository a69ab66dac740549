//! What `loopstep record` says on standard error as it works.

use super::Say;
use crate::lang::Lang;

impl Say {
    /// The proxy is up and the agent starts with its base URLs set.
    pub fn record_started(self, url: &str, out: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: proxy on {url}, recording to {out}\n  \
                 OPENAI_BASE_URL={url}/v1  ANTHROPIC_BASE_URL={url}"
            ),
            Lang::Zh => format!(
                "loopstep record：代理在 {url}，记录写入 {out}\n  \
                 OPENAI_BASE_URL={url}/v1  ANTHROPIC_BASE_URL={url}"
            ),
        }
    }

    /// No command: what to point an agent at, and how to stop.
    pub fn record_waiting(self) -> &'static str {
        self.pick(
            "  set your client's base_url to one of these (OpenAI's with /v1), run your agent, \
             then press Ctrl-C here to stop recording",
            "  把客户端的 base_url 设为其中之一（OpenAI 的要带 /v1），运行智能体，然后在这里按 Ctrl-C 停止记录",
        )
    }

    pub fn record_unrecorded(self, method: &str, path: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: passed {method} {path} through, not recorded (no model call it \
                 can read)"
            ),
            Lang::Zh => format!(
                "loopstep record：{method} {path} 已原样转发，未记录（不是能读懂的模型调用）"
            ),
        }
    }

    pub fn record_upstream_failed(self, target: &str, error: &str) -> String {
        match self.lang {
            Lang::En => {
                format!("loopstep record: could not reach {target}: {error}; the agent got a 502")
            }
            Lang::Zh => format!("loopstep record：无法连到 {target}：{error}；智能体收到了 502"),
        }
    }

    pub fn record_write_failed(self, error: &str) -> String {
        match self.lang {
            Lang::En => format!("loopstep record: could not write the recording: {error}"),
            Lang::Zh => format!("loopstep record：无法写入记录：{error}"),
        }
    }

    /// The end: how many calls, and how to replay them.
    pub fn record_done(self, calls: usize, out: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: recorded {calls} model call(s) to {out}; replay it with \
                 `loopstep {out}`"
            ),
            Lang::Zh => format!(
                "loopstep record：已把 {calls} 次模型调用记录到 {out}；用 `loopstep {out}` 回放"
            ),
        }
    }

    /// `--play`, before the first call is in.
    pub fn record_waiting_for_call(self, out: &str) -> String {
        match self.lang {
            Lang::En => format!("{out}: recording, waiting for the first call"),
            Lang::Zh => format!("{out}：正在记录，等待第一次调用"),
        }
    }

    /// `--play`: the screen closed while the agent still runs.
    pub fn record_after_screen(self, aside: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: still recording until the agent ends (Ctrl-C ends it); its \
                 output is in {aside}"
            ),
            Lang::Zh => format!(
                "loopstep record：智能体结束前仍在记录（按 Ctrl-C 结束它）；它的输出在 {aside}"
            ),
        }
    }
}
