//! `loopstep run`: a run replayed headless, a line a step, or as JSON.

use clap::Args;

use crate::cli::arguments::*;
use crate::cli::failure::Failure;
use crate::cli::output::*;
use crate::cli::runs::*;
use crate::cli::settings::Globals;
use crate::engine::Trace;
use crate::prices::Prices;
use crate::report;
use crate::text::sanitize;
use crate::transcript::shown_path;

#[derive(Debug, Args)]
pub struct Run {
    /// A built-in run (see `loopstep list`), or the path of a transcript or recording.
    pub run: String,
    #[command(flatten)]
    pub loop_flags: LoopFlags,
    /// How to print the trace.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Read the file as this format instead of recognising it.
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    /// Name each step as a pattern names it too: `react` prints each
    /// step's Thought, Action, Observation or Finish under its line.
    #[arg(long, value_enum)]
    pub lens: Option<Lens>,
    #[command(flatten)]
    pub redact: RedactFlag,
}

impl Run {
    pub(in crate::cli) fn execute(
        self,
        globals: &Globals,
        prices: Option<Prices>,
    ) -> Result<(), Failure> {
        let lang = globals.lang;
        let Run {
            run,
            loop_flags,
            format,
            from,
            lens,
            redact,
        } = self;
        let source = open_redacted(&run, &globals.opening(from), lang, redact)?;
        let traces: Vec<Trace> = source
            .runs
            .iter()
            .map(|t| Ok(t.replay_in(loop_flags.config(t)?, lang)))
            .collect::<Result<_, Failure>>()?;
        let prices = prices.as_ref();
        let say = crate::narrate::Say::new(lang, crate::dialect::Dialect::default());
        // A model the list does not name would just show no cost: say so.
        if let (Some(list), Some(path)) = (prices, &globals.prices) {
            let mut unpriced: Vec<&str> = source
                .runs
                .iter()
                .map(|t| t.model.as_str())
                .filter(|model| !list.knows(model))
                .collect();
            unpriced.dedup();
            for model in unpriced {
                tell(&say.unpriced_model(&shown_path(path), &sanitize(model)));
            }
        }
        match format {
            ReportFormat::Text => {
                let options = report::TextOptions {
                    lang,
                    prices,
                    react: lens == Some(Lens::React),
                };
                emit(&report::text(&source, &traces, options))?
            }
            ReportFormat::Json => write_json(&report::json(&source, &traces, prices))?,
        }
        Ok(())
    }
}
