//! `loopstep record -- COMMAND`: a recording proxy between any agent and
//! its API. It listens on loopback, starts COMMAND with `OPENAI_BASE_URL`
//! and `ANTHROPIC_BASE_URL` pointing at itself (the path each SDK expects:
//! OpenAI's base includes `/v1`, Anthropic's does not), forwards every
//! request to the real API (or `--upstream`), hands each response back as
//! it arrives, and appends every call to an exchange log that loopstep
//! replays like any recording. COMMAND's exit code is record's.

mod admit;
mod connections;
mod log;
mod proxy;
mod route;

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use std::io::Write;

use anyhow::Context;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

pub use admit::{Admitted, Door, Refusal, admit};
pub use connections::default_cap;
pub use proxy::Limits;
pub use route::{Family, UpstreamError, Upstreams, parse_upstream, without_credentials};

// The core's modules, by the names the proxy's files use for them.
use loopstep_core::{narrate, redact, text};

use crate::narrate::{Say, Trouble};
use connections::{Busy, Connections};
use log::Log;
use proxy::{Happened, Proxy};

/// What `record` was asked for.
pub struct Options {
    pub out: PathBuf,
    pub force: bool,
    /// Where requests go, a family each or all of them, instead of the
    /// real API of their family.
    pub upstreams: Upstreams,
    /// Where to listen; a free port on 127.0.0.1 when not given.
    pub listen: Option<SocketAddr>,
    pub redact: bool,
    pub limits: Limits,
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
const LAST_RESPONSES: Duration = Duration::from_secs(10);

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
            // Standard error closed (`2>&-`, a pipe gone) is no reason either.
            None => drop(writeln!(std::io::stderr().lock(), "{text}")),
        }
    }
}

/// Adds to the upstreams given the base URLs the environment already set
/// for each family (a DeepSeek key must not go to OpenAI), before record
/// replaces them for the agent.
pub fn with_environment(mut upstreams: Upstreams) -> Upstreams {
    for family in Family::ALL {
        if let Ok(url) = std::env::var(family.base_url_variable())
            && route::is_upstream(&url)
        {
            upstreams.set_from_env(family, url);
        }
    }
    upstreams
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
    let door = Door::new(local).context(Trouble::StartProxy)?;
    let url = door.url();
    // Ctrl-C goes to the agent too, in the same process group: it is the
    // agent's to end on, and the recording waits for it. Taken from here
    // on, before the agent starts.
    let mut interrupts = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
        .context(Trouble::StartProxy)?;
    let mut command = options.command.split_first().map(|(program, args)| {
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        for family in Family::ALL {
            command.env(
                family.base_url_variable(),
                format!("{url}{}", family.base_path()),
            );
        }
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
    let tell = move |told: Happened| told_notes.say(&worded(say, told));
    let proxy = Arc::new(Proxy::new(
        options.upstreams,
        door,
        Arc::clone(&log),
        options.limits,
        say,
        Box::new(tell),
    ));
    let mut pending = proxy.pending.subscribe();
    let accepting = tokio::spawn(accept(listener, Arc::clone(&proxy)));
    notes.say(&say.record_started(&url, &shown));
    if !local.ip().is_loopback() {
        notes.say(&say.record_open_beyond_loopback(&local.to_string()));
    }
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
    // Responses still streaming are written when they end, for as long as
    // they take up to a bound, or until another Ctrl-C; then as they are.
    tokio::select! {
        _ = tokio::time::timeout(LAST_RESPONSES, pending.wait_for(|n| *n == 0)) => {}
        _ = interrupts.recv() => {}
    }
    proxy.stopping.send_replace(true);
    let _ = tokio::time::timeout(Duration::from_secs(2), pending.wait_for(|n| *n == 0)).await;
    accepting.abort();
    notes.say(&say.record_done(log.written(), log.unfinished(), &shown));
    Ok(Recorded {
        calls: log.written(),
        exit,
    })
}

/// A note of the proxy's in words. Paths come from whoever sent the
/// request: made safe for a terminal and redacted, as any text from
/// outside.
fn worded(say: Say, told: Happened) -> String {
    let safe = |text: &str| crate::text::sanitize(&crate::redact::redact(text));
    match told {
        Happened::Unrecorded { method, path } => {
            say.record_unrecorded(&safe(&method), &safe(&path))
        }
        Happened::Refused { method, path, why } => {
            say.record_refused(&safe(&method), &safe(&path), reason(say, why))
        }
        Happened::TooLarge { path, limit } => say.record_too_large(&safe(&path), limit),
        Happened::UpstreamFailed { target, error } => {
            say.record_upstream_failed(&safe(&target), &safe(&error))
        }
        Happened::WriteFailed { error } => say.record_write_failed(&error),
    }
}

/// Why a request went no further than the proxy, in words: for the notes,
/// and for the error the agent's SDK shows.
fn reason(say: Say, why: Refusal) -> &'static str {
    match why {
        Refusal::Host => say.record_refused_host(),
        Refusal::Token => say.record_refused_token(),
        Refusal::NoFamily => say.record_refused_family(),
        Refusal::NoUpstream(_) => say.record_refused_bedrock(),
    }
}

/// The agent's exit code, or 128 + the signal that ended it.
fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|signal| 128 + signal))
        .unwrap_or(1)
}

/// Takes connections until aborted, each served on its own task, at most
/// the cap at once; connections idle for the timeout are closed.
async fn accept(listener: TcpListener, proxy: Arc<Proxy>) {
    let limits = proxy.limits;
    let connections = Arc::new(Connections::new(limits.connections));
    let mut sweep = tokio::time::interval((limits.idle / 4).max(Duration::from_millis(100)));
    loop {
        let taken = tokio::select! {
            _ = sweep.tick() => {
                connections.close_idle(limits.idle);
                continue;
            }
            taken = async {
                connections.room().await;
                listener.accept().await
            } => taken,
        };
        let stream = match taken {
            Ok((stream, _)) => stream,
            // Out of descriptors (EMFILE, ENFILE) or a connection gone
            // before it was taken: waiting lets connections close, where
            // trying again at once would spin (as tokio's `accept` docs
            // warn).
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let (id, connection) = connections.add();
        let (proxy, connections) = (Arc::clone(&proxy), Arc::clone(&connections));
        tokio::spawn(async move {
            let for_requests = Arc::clone(&connection);
            let service = service_fn(move |request| {
                let busy = Busy::new(&for_requests);
                Arc::clone(&proxy).handle(busy, request)
            });
            let serving = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.idle)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(serving);
            // A connection the agent drops ends here; nothing to report.
            tokio::select! {
                _ = serving.as_mut() => {}
                _ = connection.close.notified() => {
                    serving.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(limits.idle, serving).await;
                }
            }
            connections.remove(id);
        });
    }
}
