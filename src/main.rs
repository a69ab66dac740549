use std::process::ExitCode;

use clap::Parser;
use loopstep::cli::{Cli, execute};
use loopstep::text::sanitize;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        // The teaching screen arrives with the TUI; until then, teach the CLI.
        let _ = <Cli as clap::CommandFactory>::command().print_help();
        return ExitCode::SUCCESS;
    };
    match execute(command) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("loopstep: {}", sanitize(&failure.to_string()));
            failure.exit_code()
        }
    }
}
