//! loopstep's integration tests, one binary: each file a module, the
//! helpers they share in `common`. One binary links once, where one a
//! file linked thirty-three times.

mod common;

mod aider;
mod boundary_cases;
mod chinese;
mod classroom;
mod cli;
mod cline;
mod codex_exec;
mod compare;
mod conversations;
mod dialects;
mod engine;
mod every_reply;
mod examples;
mod find;
mod gemini_and_bedrock;
mod handout_cast;
mod handout_html;
mod handout_markdown;
mod import;
mod jumps;
mod layers;
mod lessons;
mod linear;
mod link;
mod loading;
mod long_runs;
mod notes;
mod odd_files;
mod openhands_logs;
mod present;
mod properties;
mod push_backs;
mod readme;
mod real_logs;
mod record;
mod record_safety;
mod redact;
mod replay;
mod retries;
mod robustness;
mod schema;
mod screen;
mod streams;
mod subagents;
mod sweep;
mod terminal;
mod themes;
mod timing;
mod told_true;
mod trajectories;
mod unbreakable;
mod usage;
