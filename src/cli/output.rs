//! Where a command's output goes: standard output, or a file written
//! without ever costing the user one.

use anyhow::Context;

use crate::narrate::{Say, Trouble};
use crate::text::sanitize;
use crate::write_file::OutputFile;

/// Writes `output` whole with what `fill` writes, and says so.
pub(super) fn write_file(
    say: Say,
    output: &OutputFile,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let shown = sanitize(&output.named().display().to_string());
    output.write(fill).with_context(|| Trouble::Write {
        shown: shown.clone(),
    })?;
    tell(&say.wrote(&shown));
    Ok(())
}

/// A line on standard error, for the person at the terminal: never a
/// panic where standard error is a pipe that was closed.
pub fn tell(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Text on standard output that nothing else follows (clap's help): a
/// reader that went away is no error, and none is left to report.
pub fn say_out(text: &str) {
    let _ = emit(text);
}

/// The same on standard error, as it is: the text ends its own lines.
pub fn say_err(text: &str) {
    use std::io::Write;
    let _ = write!(std::io::stderr().lock(), "{text}");
}

/// Writes to standard output what `fill` writes. A reader that went away
/// (`| head`) is not an error worth a message: the output was simply not
/// wanted any more.
pub(super) fn to_stdout(
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    stdout_with(Trouble::WriteStdout, fill)
}

fn stdout_with(
    trouble: Trouble,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match fill(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context(trouble),
    }
}

/// Writes `text` to standard output (see [`to_stdout`]).
pub(super) fn emit(text: &str) -> anyhow::Result<()> {
    to_stdout(|out| out.write_all(text.as_bytes()))
}

/// Writes a JSON report to standard output as it is serialized, so that a
/// large report is never held whole in memory; inert in a terminal.
pub(super) fn write_json(report: &impl serde::Serialize) -> anyhow::Result<()> {
    stdout_with(Trouble::WriteJson, |out| {
        crate::text::write_inert_json(&mut *out, report).map_err(std::io::Error::from)?;
        writeln!(out)
    })
}
