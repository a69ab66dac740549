//! `loopstep record -- COMMAND`: a recording proxy between any agent and
//! its API. It listens on loopback, starts COMMAND with `OPENAI_BASE_URL`
//! and `ANTHROPIC_BASE_URL` pointing at itself (the path each SDK expects:
//! OpenAI's base includes `/v1`, Anthropic's does not), forwards every
//! request to the real API (or `--upstream`), hands each response back as
//! it arrives, and appends every call to an exchange log that loopstep
//! replays like any recording. COMMAND's exit code is record's.

mod log;
mod proxy;
mod route;

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use std::io::Write;

use anyhow::Context;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

pub use route::is_upstream;

use crate::narrate::{Say, Trouble};
use log::Log;
use proxy::{Proxy, Told};

/// What `record` was asked for.
pub struct Options {
    pub out: PathBuf,
    pub force: bool,
    /// Where every request goes, instead of the real API for its path.
    pub upstream: Option<String>,
    /// Where to listen; a free port on 127.0.0.1 when not given.
    pub listen: Option<SocketAddr>,
    pub redact: bool,
    /// The agent to run; with none, record until Ctrl-C.
    pub command: Vec<OsString>,
    /// Where the agent's output and record's own notes go instead of the
    /// terminal, while a screen has it (`--play`).
    pub aside: Option<PathBuf>,
}

/// How a recording ended: the calls it holds, and the agent's exit code
/// (none without a command); an agent a signal ended exits 128 + its
/// number, as a shell reports it.
pub struct Recorded {
    pub calls: usize,
    pub exit: Option<i32>,
}

/// How long the recording waits, once the agent is gone, for responses
/// still streaming to end.
const LAST_RESPONSES: std::time::Duration = std::time::Duration::from_secs(10);

/// Records until COMMAND exits, or without one until Ctrl-C.
pub fn record(options: Options, say: Say) -> anyhow::Result<Recorded> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context(Trouble::StartProxy)?;
    runtime.block_on(serve(options, say))
}

/// Where record's notes go: standard error, or the file set aside.
#[derive(Clone)]
struct Notes(Option<Arc<std::sync::Mutex<std::fs::File>>>);

impl Notes {
    fn say(&self, text: &str) {
        match &self.0 {
            Some(file) => {
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                // A note that cannot be written is no reason to stop recording.
                let _ = writeln!(file, "{text}");
            }
            None => eprintln!("{text}"),
        }
    }
}

/// Where a request goes when `--upstream` is not given: a base URL the
/// environment already set for that family (a DeepSeek key must not go to
/// OpenAI), else the real API.
fn upstreams(given: Option<String>) -> route::Upstreams {
    let from_env = |name| {
        std::env::var(name)
            .ok()
            .filter(|url| route::is_upstream(url))
    };
    route::Upstreams {
        given,
        openai: from_env("OPENAI_BASE_URL"),
        anthropic: from_env("ANTHROPIC_BASE_URL"),
    }
}

async fn serve(options: Options, say: Say) -> anyhow::Result<Recorded> {
    // Listen first: a taken port leaves no file behind.
    let address = options
        .listen
        .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 0)));
    let listener = TcpListener::bind(address).await.context(Trouble::Listen {
        address: address.to_string(),
    })?;
    let local = listener.local_addr().context(Trouble::StartProxy)?;
    let url = format!("http://{local}");
    // Ctrl-C goes to the agent too, in the same process group: it is the
    // agent's to end on, and the recording waits for it. Taken from here
    // on, before the agent starts.
    let mut interrupts = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
        .context(Trouble::StartProxy)?;
    let mut command = options.command.split_first().map(|(program, args)| {
        let mut command = tokio::process::Command::new(program);
        command
            .args(args)
            .env("OPENAI_BASE_URL", format!("{url}/v1"))
            .env("ANTHROPIC_BASE_URL", &url);
        (program.to_string_lossy().into_owned(), command)
    });
    let shown = options.out.display().to_string();
    let log = Log::create(&options.out, options.force)
        .context(Trouble::CreateRecording {
            shown: shown.clone(),
        })?
        .redacting(options.redact);
    let log = Arc::new(log);
    let aside = match &options.aside {
        Some(path) => Some(Log::create_file(path, options.force).context(
            Trouble::CreateRecording {
                shown: path.display().to_string(),
            },
        )?),
        None => None,
    };
    if let (Some(file), Some((_, command))) = (&aside, &mut command) {
        // The screen has the terminal: the agent's output goes aside.
        let (out, err) = (file.try_clone(), file.try_clone());
        command
            .stdin(std::process::Stdio::null())
            .stdout(out.context(Trouble::StartProxy)?)
            .stderr(err.context(Trouble::StartProxy)?);
    }
    let notes = Notes(aside.map(|file| Arc::new(std::sync::Mutex::new(file))));
    let told_notes = notes.clone();
    let tell = move |told: Told| {
        told_notes.say(&match told {
            Told::Unrecorded { method, path } => say.record_unrecorded(&method, &path),
            Told::UpstreamFailed { target, error } => say.record_upstream_failed(&target, &error),
            Told::WriteFailed { error } => say.record_write_failed(&error),
        });
    };
    let proxy = Arc::new(Proxy::new(
        upstreams(options.upstream.clone()),
        Arc::clone(&log),
        Box::new(tell),
    ));
    let mut pending = proxy.pending.subscribe();
    let accepting = tokio::spawn(accept(listener, Arc::clone(&proxy)));
    notes.say(&say.record_started(&url, &shown));
    let exit = match command {
        Some((shown_command, mut command)) => {
            let mut child = command.spawn().context(Trouble::StartCommand {
                command: shown_command,
            })?;
            let status = loop {
                tokio::select! {
                    status = child.wait() => break status.context(Trouble::StartProxy)?,
                    _ = interrupts.recv() => {}
                }
            };
            Some(exit_code(status))
        }
        None => {
            notes.say(say.record_waiting());
            interrupts.recv().await;
            None
        }
    };
    // Responses still streaming are written before the recording closes,
    // for as long as they take up to a bound, or until another Ctrl-C.
    tokio::select! {
        _ = tokio::time::timeout(LAST_RESPONSES, pending.wait_for(|n| *n == 0)) => {}
        _ = interrupts.recv() => {}
    }
    accepting.abort();
    notes.say(&say.record_done(log.written(), &shown));
    Ok(Recorded {
        calls: log.written(),
        exit,
    })
}

/// The agent's exit code, or 128 + the signal that ended it.
fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|signal| 128 + signal))
        .unwrap_or(1)
}

/// Takes connections until aborted, each served on its own task.
async fn accept(listener: TcpListener, proxy: Arc<Proxy>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let proxy = Arc::clone(&proxy);
        tokio::spawn(async move {
            let service = service_fn(move |request| Arc::clone(&proxy).handle(request));
            // A connection the agent drops ends here; nothing to report.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
