//! A sweep written out: a table and a curve for the terminal, JSON and
//! CSV for tools.

use super::{Curve, Point, Swept};
use crate::narrate::Say;
use crate::text::sanitize;

/// Width of the longest bar of the curve.
const BAR: usize = 30;
/// Up to this many budgets, every one is a row; past it, only those where
/// a count changes.
const EVERY_ROW: usize = 40;

pub fn text(curve: &Curve, swept: &Swept, files: usize, say: Say) -> String {
    let mut out = String::new();
    let line = |out: &mut String, text: &str| {
        out.push_str(text);
        out.push('\n');
    };
    line(
        &mut out,
        &say.sweep_header(curve.runs, files, swept.unreadable.len()),
    );
    line(&mut out, &header(say));
    let mut skipped = 0;
    for (k, point) in curve.points.iter().enumerate() {
        let shown = curve.points.len() <= EVERY_ROW
            || k == 0
            || k + 1 == curve.points.len()
            || point.own > 0
            || counts(point) != counts(&curve.points[k - 1]);
        if !shown {
            skipped += 1;
            continue;
        }
        if skipped > 0 {
            line(
                &mut out,
                &format!("{:>9}  {}", "", say.sweep_skipped(skipped)),
            );
            skipped = 0;
        }
        let bar = bar(point.answered, curve.runs, BAR);
        let own = if point.own > 0 { " ◆" } else { "" };
        line(
            &mut out,
            &format!(
                "{:>9}  {:>8}  {:>6}  {:>6}  {:>6}  {bar}{own}",
                point.max_turns, point.answered, point.none, point.halted, point.ended
            ),
        );
    }
    line(&mut out, say.sweep_legend());
    let q = curve.answered_by;
    line(&mut out, &say.sweep_answered_by([q.p50, q.p90, q.p99]));
    if let (Some(calls), Some(rounds)) = (curve.model_calls, curve.tool_rounds) {
        let spread = |s: super::Spread| (s.min, s.median, s.max);
        line(&mut out, &say.sweep_spread(spread(calls), spread(rounds)));
    }
    if !swept.unreadable.is_empty() {
        line(&mut out, say.sweep_unreadable_title());
        // Each reason names its file.
        for file in &swept.unreadable {
            line(&mut out, &format!("  {}", sanitize(&file.reason)));
        }
    }
    out
}

/// The columns' names, right-aligned by display width (Chinese takes two
/// columns a character).
pub fn header(say: Say) -> String {
    let [budget, answered, none, halted, ended] = say.sweep_columns();
    let right = |text: &str, width: usize| {
        format!(
            "{}{text}",
            " ".repeat(width.saturating_sub(crate::text::width(text)))
        )
    };
    format!(
        "{}  {}  {}  {}  {}",
        right(budget, 9),
        right(answered, 8),
        right(none, 6),
        right(halted, 6),
        right(ended, 6)
    )
}

fn counts(point: &Point) -> [usize; 4] {
    [point.answered, point.none, point.halted, point.ended]
}

/// `part` of `whole` as a bar of eighths, at most `width` wide.
pub fn bar(part: usize, whole: usize, width: usize) -> String {
    if whole == 0 {
        return String::new();
    }
    let eighths = part * width * 8 / whole;
    let mut bar = "█".repeat(eighths / 8);
    let rest = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8];
    bar.push_str(rest);
    bar
}

/// The sweep for tools, serialized as it is written: no copy of the runs
/// is built first, so a corpus of many runs costs no more than its results.
#[derive(serde::Serialize)]
pub struct Json<'a> {
    runs: usize,
    files: usize,
    unreadable: &'a [super::Unreadable],
    budgets: &'a [Point],
    answered_by: super::Quantiles,
    model_calls: Option<super::Spread>,
    tool_rounds: Option<super::Spread>,
    per_run: &'a [super::RunEnd],
}

pub fn json<'a>(curve: &'a Curve, swept: &'a Swept, files: usize) -> Json<'a> {
    Json {
        runs: curve.runs,
        files,
        unreadable: &swept.unreadable,
        budgets: &curve.points,
        answered_by: curve.answered_by,
        model_calls: curve.model_calls,
        tool_rounds: curve.tool_rounds,
        per_run: &swept.runs,
    }
}

/// One row per budget.
pub fn csv(curve: &Curve) -> String {
    let mut out = String::from("max_turns,answered,none,halted,ended,own\n");
    for p in &curve.points {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            p.max_turns, p.answered, p.none, p.halted, p.ended, p.own
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::bar;

    #[test]
    fn a_bar_is_drawn_in_eighths() {
        assert_eq!(bar(0, 4, 30), "");
        assert_eq!(bar(4, 4, 30), "█".repeat(30));
        assert_eq!(bar(1, 16, 30), "█▉");
    }
}
