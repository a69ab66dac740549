//! The one place output meets its policy: every command writes through
//! `cli`'s writers, which end a broken pipe quietly with exit 0, and every
//! word here goes through them too, so that no `| head` and no closed
//! standard error ever panics.

use std::process::ExitCode;

use clap::Parser;
use loopstep::cli::{
    Cli, Command, DEFAULT_RUN, Play, execute, lang_of_args, render_argument_error, say_err,
    say_out, tell, with_play_implied,
};
use loopstep::text::sanitize;

fn main() -> ExitCode {
    let args = with_play_implied(std::env::args_os().collect());
    let lang = lang_of_args(&args);
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        // clap echoes what it was given; what reaches the terminal is neutralised.
        Err(error) => {
            let text = sanitize(&render_argument_error(&error, lang));
            if error.use_stderr() {
                say_err(&text);
            } else {
                say_out(&text);
            }
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    let globals = cli.globals();
    let lang = globals.lang;
    let command = cli
        .command
        .unwrap_or_else(|| Command::Play(Play::on(DEFAULT_RUN)));
    match execute(command, globals) {
        Ok(code) => code,
        Err(failure) => {
            tell(&format!("loopstep: {}", sanitize(&failure.message(lang))));
            failure.exit_code()
        }
    }
}
