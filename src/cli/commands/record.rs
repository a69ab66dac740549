//! `loopstep record`: run an agent through a recording proxy.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;

use crate::cli::failure::Failure;
use crate::cli::output::tell;
use crate::cli::settings::Globals;
use crate::dialect::Dialect;
use crate::narrate::Say;
use crate::record::{self, Family, Limits, Options, UpstreamError, Upstreams};
use crate::tui;
use crate::write_file::OutputFile;

#[derive(Debug, Args)]
pub struct Record {
    /// Where to write the recording [default:
    /// recording-<date>T<time>.exchanges.jsonl in this folder]. An existing
    /// file only with --force.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
    /// Where requests go instead of the real API of their family
    /// (api.openai.com, api.anthropic.com, generativelanguage.googleapis.com).
    /// `URL` takes every request, whatever its API: DeepSeek
    /// (https://api.deepseek.com), a gateway, a local server.
    /// `FAMILY=URL` takes one family's only (openai, anthropic, gemini,
    /// bedrock), and may be given once for each. Bedrock's requests need
    /// one: they are signed for the proxy's address, which AWS refuses.
    #[arg(long, value_name = "[FAMILY=]URL", value_parser = parse_upstream)]
    pub upstream: Vec<(Option<Family>, String)>,
    /// Listen here instead of a free port on 127.0.0.1. An address other
    /// machines can reach is taken with a warning; requests must still
    /// carry the recording's token, which only the agent is handed.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Close a connection that sends nothing for this long: no request,
    /// or no more of its headers or body.
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub idle_timeout: u64,
    /// Serve at most this many connections at once; at the cap, the one
    /// idle longest is closed [default: a quarter of the open-file limit,
    /// 16 to 512].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub connections: Option<u64>,
    /// Write bodies as they came, secrets and all (they are redacted by
    /// default, as `import --redact` does; headers are never written).
    #[arg(long)]
    pub no_redact: bool,
    /// Open the screen on the recording as it grows: each call appears as
    /// it is recorded. The agent's output and record's notes go to
    /// OUT.log meanwhile.
    #[arg(long)]
    pub play: bool,
    /// The agent to run, after `--`; without one, record until Ctrl-C.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

fn parse_upstream(text: &str) -> Result<(Option<Family>, String), String> {
    record::parse_upstream(text).map_err(|error| match error {
        UpstreamError::Family => format!(
            "`{text}` names no API family: write URL, or FAMILY=URL with openai, anthropic, \
             gemini or bedrock"
        ),
        UpstreamError::Url => format!(
            "`{text}` is no http:// or https:// URL with a host, such as https://api.deepseek.com"
        ),
    })
}

impl Record {
    /// Records; exits with COMMAND's exit code (128 + N when signal N
    /// ended it).
    pub(in crate::cli) fn execute(self, globals: &Globals) -> Result<ExitCode, Failure> {
        let out = self.output.unwrap_or_else(default_name);
        let say = Say::new(globals.lang, Dialect::default());
        let aside = self.play.then(|| {
            let mut name = out.clone().into_os_string();
            name.push(".log");
            PathBuf::from(name)
        });
        // The rules every written file keeps (never over a folder, an
        // existing file without --force, a dangling link), checked before
        // anything starts: the screen must never show an old recording as
        // this one. No recording is being read, so none can be written over.
        for file in std::iter::once(&out).chain(&aside) {
            OutputFile::check(Path::new(""), file, self.force)?;
        }
        let options = Options {
            out: out.clone(),
            force: self.force,
            upstreams: upstreams(self.upstream),
            listen: self.listen,
            redact: !self.no_redact,
            limits: Limits {
                max_size: globals.max_size,
                idle: Duration::from_secs(self.idle_timeout),
                connections: self
                    .connections
                    .map_or_else(record::default_cap, |n| n as usize),
            },
            command: self.command,
            aside: aside.clone(),
        };
        let recorded = match aside {
            None => record::record(options, say)?,
            Some(aside) => {
                // The recording goes on beside the screen, which follows it.
                let recording = std::thread::spawn(move || record::record(options, say));
                let settings = tui::Settings {
                    lang: globals.lang,
                    ..tui::Settings::default()
                };
                let screen = tui::follow(&out, settings, &|| !recording.is_finished());
                if !recording.is_finished() {
                    tell(&say.record_after_screen(&aside.display().to_string()));
                }
                let recorded = recording
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                screen?;
                recorded
            }
        };
        // Without a command, Ctrl-C ends a recording that went as it should.
        Ok(match recorded.exit {
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::SUCCESS,
        })
    }
}

/// The upstreams given, and then those the environment set.
fn upstreams(given: Vec<(Option<Family>, String)>) -> Upstreams {
    let mut upstreams = Upstreams::default();
    for (family, url) in given {
        match family {
            Some(family) => upstreams.set(family, url),
            None => upstreams.every = Some(url),
        }
    }
    record::with_environment(upstreams)
}

/// `recording-2026-12-02T04-10-59.exchanges.jsonl`, the time in UTC.
fn default_name() -> PathBuf {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (rest / 3600, rest % 3600 / 60, rest % 60);
    PathBuf::from(format!(
        "recording-{year:04}-{month:02}-{day:02}T{hour:02}-{minute:02}-{second:02}.exchanges.jsonl"
    ))
}

/// The date `days` after 1970-01-01, by Howard Hinnant's algorithm
/// (https://howardhinnant.github.io/date_algorithms.html#civil_from_days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_since_the_epoch_are_a_civil_date() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2026-12-02 is day 20,789.
        assert_eq!(civil_from_days(20_789), (2026, 12, 2));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
