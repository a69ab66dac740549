//! `loopstep table`: one row per step of every run, for DuckDB, Spark or
//! a spreadsheet. The columns (docs/commands.md says what each holds):
//! file, run, turn, step, phase, stop_reason, tool, tool_error,
//! tokens_in, tokens_out, tokens_cached, started, seconds, outcome,
//! max_turns. Each run is replayed as a sweep replays it, as far as its
//! own ending whatever its budget (`max_turns` is the budget it was
//! recorded with), so that the curve can be computed from the table: a
//! run answers under N when its outcome is `answered` and its last turn
//! is below N.

use std::io::{self, Write};

use serde_json::{Value, json};

#[cfg(feature = "parquet")]
pub use parquet_file::ParquetRows;

use crate::engine::{Event, Trace};
use crate::transcript::Transcript;

/// The columns, in order.
pub const COLUMNS: [&str; 15] = [
    "file",
    "run",
    "turn",
    "step",
    "phase",
    "stop_reason",
    "tool",
    "tool_error",
    "tokens_in",
    "tokens_out",
    "tokens_cached",
    "started",
    "seconds",
    "outcome",
    "max_turns",
];

/// How rows are written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Csv,
    JsonLines,
}

#[cfg(feature = "parquet")]
mod parquet_file;

/// The rows of one replayed run: a row per step, its cells in the order
/// of [`COLUMNS`], `null` where a step has none.
/// Made as they are written, so a run of many steps is never held twice.
pub fn rows<'a>(
    file: &'a str,
    run: &'a Transcript,
    trace: &'a Trace,
) -> impl Iterator<Item = Vec<Value>> + 'a {
    let outcome = trace.outcome().map_or("unfinished", |o| o.label());
    trace.steps.iter().enumerate().map(move |(number, step)| {
        let (stop_reason, tool, tool_error, usage, time) = match &step.event {
            Event::Call {
                stop_reason,
                usage,
                time,
                ..
            } => (
                Some(stop_reason.as_str()),
                None,
                None,
                *usage,
                time.as_ref(),
            ),
            Event::Check { stop_reason, .. } => {
                (Some(stop_reason.as_str()), None, None, None, None)
            }
            Event::Dispatch { name, output, .. } => (
                None,
                Some(name.as_str()),
                Some(output.is_error),
                None,
                output.time.as_ref(),
            ),
            _ => (None, None, None, None, None),
        };
        vec![
            json!(file),
            json!(run.id),
            json!(step.turn),
            json!(number + 1),
            json!(step.event.phase().as_str()),
            json!(stop_reason),
            json!(tool),
            json!(tool_error),
            json!(usage.map(|u| u.all_input())),
            json!(usage.map(|u| u.output_tokens)),
            json!(usage.map(|u| u.cache_read_tokens)),
            json!(time.map(|t| t.started.as_str())),
            json!(time.map(|t| t.seconds())),
            json!(outcome),
            json!(run.max_turns.get()),
        ]
    })
}

/// Writes rows as CSV or JSON Lines.
pub fn write_rows(
    out: &mut impl Write,
    shape: Shape,
    rows: impl Iterator<Item = Vec<Value>>,
) -> io::Result<()> {
    for cells in rows {
        match shape {
            Shape::Csv => writeln!(out, "{}", csv_row(&cells))?,
            Shape::JsonLines => {
                let object: serde_json::Map<String, Value> =
                    COLUMNS.iter().map(|c| c.to_string()).zip(cells).collect();
                writeln!(out, "{}", Value::Object(object))?
            }
        }
    }
    Ok(())
}

/// The header row of a CSV table.
pub fn csv_header() -> String {
    COLUMNS.join(",")
}

/// Cells as RFC 4180 has them: quoted when they hold a comma, a quote or
/// a line break, quotes doubled; an absent value is an empty cell.
fn csv_row(cells: &[Value]) -> String {
    let cell = |value: &Value| -> String {
        let text = match value {
            Value::Null => return String::new(),
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        if text.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text
        }
    };
    cells.iter().map(cell).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_with_a_comma_or_a_quote_is_quoted() {
        let row = csv_row(&[
            json!("a,b"),
            json!("say \"hi\""),
            Value::Null,
            json!(3),
            json!(true),
        ]);
        assert_eq!(row, "\"a,b\",\"say \"\"hi\"\"\",,3,true");
    }
}
