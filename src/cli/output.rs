//! Where a command's output goes: standard output, or a file written
//! without ever costing the user one.

use anyhow::Context;

use super::write_file::OutputFile;
use crate::narrate::{Say, Trouble};
use crate::text::sanitize;

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
    eprintln!("{}", say.wrote(&shown));
    Ok(())
}

/// Writes to standard output. A reader that went away (`| head`) is not an
/// error worth a message: the output was simply not wanted any more.
pub(super) fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.context(Trouble::WriteStdout),
    }
}

/// Writes a JSON report to standard output as it is serialized, so that a
/// large report is never held whole in memory; inert in a terminal.
pub(super) fn write_json(report: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::{BufWriter, ErrorKind, Write};
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = crate::text::write_inert_json(&mut out, report)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        result => result.context(Trouble::WriteJson),
    }
}
