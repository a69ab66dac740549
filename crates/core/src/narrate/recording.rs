//! What `loopstep record` says on standard error as it works.

use super::Say;
use crate::lang::Lang;

impl Say {
    /// The proxy is up and the agent starts with its base URLs set, the
    /// recording's token in each.
    pub fn record_started(self, url: &str, out: &str) -> String {
        let variables = format!(
            "OPENAI_BASE_URL={url}/v1\n  ANTHROPIC_BASE_URL={url}\n  \
             GOOGLE_GEMINI_BASE_URL={url}\n  AWS_ENDPOINT_URL_BEDROCK_RUNTIME={url}"
        );
        match self.lang {
            Lang::En => {
                format!("loopstep record: proxy on {url}, recording to {out}\n  {variables}")
            }
            Lang::Zh => format!("loopstep record：代理在 {url}，记录写入 {out}\n  {variables}"),
        }
    }

    /// `--listen` named an address other machines can reach.
    pub fn record_open_beyond_loopback(self, address: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: warning: listening on {address}, which other machines may \
                 reach; only requests with this recording's token are taken"
            ),
            Lang::Zh => format!(
                "loopstep record：警告：正在监听 {address}，其他机器也可能连得到；只接受带本次记录令牌的请求"
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

    /// A request that went no further than the proxy, and why.
    pub fn record_refused(self, method: &str, path: &str, why: &str) -> String {
        match self.lang {
            Lang::En => format!("loopstep record: refused {method} {path}: {why}"),
            Lang::Zh => format!("loopstep record：拒绝了 {method} {path}：{why}"),
        }
    }

    pub fn record_refused_host(self) -> &'static str {
        self.pick(
            "it was sent to another name than the proxy's address, not recorded",
            "它发往的主机名不是代理的地址，未记录",
        )
    }

    pub fn record_refused_token(self) -> &'static str {
        self.pick(
            "it does not use the base URL handed to the agent (another program's request?), not \
             forwarded",
            "它没有用交给智能体的 base URL（可能是别的程序发的），未转发",
        )
    }

    pub fn record_refused_family(self) -> &'static str {
        self.pick(
            "no API that record knows has this path, not forwarded",
            "record 认识的 API 都没有这个路径，未转发",
        )
    }

    pub fn record_refused_bedrock(self) -> &'static str {
        self.pick(
            "Bedrock's SDKs sign each request for the address it goes to, so it cannot go on to \
             AWS; give --upstream bedrock=URL, a gateway that takes them",
            "Bedrock 的 SDK 按请求发往的地址签名，所以无法转给 AWS；请用 --upstream bedrock=URL 指定一个接受它们的网关",
        )
    }

    /// A body over `--max-size`.
    pub fn record_too_large(self, path: &str, limit: u64) -> String {
        match self.lang {
            Lang::En => format!(
                "loopstep record: {path}: a body larger than the size limit ({limit} bytes, \
                 --max-size): a request is refused, a response passed on but not recorded"
            ),
            Lang::Zh => format!(
                "loopstep record：{path}：内容超过大小上限（{limit} 字节，--max-size）：请求被拒绝，响应照常转发但不记录"
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

    /// The end: how many calls, how many of them were cut short by the
    /// stop, and how to replay them.
    pub fn record_done(self, calls: usize, unfinished: usize, out: &str) -> String {
        let calls_en = if calls == 1 {
            "1 model call".to_owned()
        } else {
            format!("{calls} model calls")
        };
        match (self.lang, unfinished) {
            (Lang::En, 0) => format!(
                "loopstep record: recorded {calls_en} to {out}; replay it with `loopstep {out}`"
            ),
            (Lang::En, n) => format!(
                "loopstep record: recorded {calls_en} to {out}; {n} of them {was} still streaming \
                 when record stopped and {is} kept as cancelled; replay it with `loopstep {out}`",
                was = if n == 1 { "was" } else { "were" },
                is = if n == 1 { "is" } else { "are" },
            ),
            (Lang::Zh, 0) => format!(
                "loopstep record：已把 {calls} 次模型调用记录到 {out}；用 `loopstep {out}` 回放"
            ),
            (Lang::Zh, n) => format!(
                "loopstep record：已把 {calls} 次模型调用记录到 {out}，其中 {n} 次在停止记录时仍在传输，记为已取消；用 `loopstep {out}` 回放"
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
