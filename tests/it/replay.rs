//! The lazy replay the screen uses: computed only as far as it is looked
//! at, its budget changed by cutting or continuing what is computed. Under
//! every budget it must be the replay a fresh run of the loop makes.

use std::num::NonZeroU32;

use loopstep::engine::{CheckPolicy, Config, Mistake, Trace, TraceView};
use loopstep::narrate::Lang;
use loopstep::narrate::LazyReplay;
use loopstep::transcript::{BUILTIN_NAMES, Transcript, builtin};

fn turns(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap()
}

/// Every way the screen can set up the loop, budget aside.
fn configs(t: &Transcript) -> Vec<Config> {
    let mut mistakes = vec![None];
    mistakes.extend(Mistake::ALL.iter().copied().map(Some));
    let mut configs = Vec::new();
    for check in [CheckPolicy::Lesson, CheckPolicy::Production] {
        for mistake in &mistakes {
            configs.push(Config {
                check,
                mistake: *mistake,
                ..t.default_config()
            });
        }
    }
    configs
}

fn to_the_end(replay: &mut LazyReplay) -> TraceView<'_> {
    while replay.advance() {}
    replay.view()
}

fn assert_same(lazy: TraceView<'_>, fresh: &Trace, what: &str) {
    assert_eq!(lazy.steps, fresh.steps.as_slice(), "{what}: steps");
    assert_eq!(lazy.messages, fresh.messages.all(), "{what}: messages");
    assert_eq!(
        lazy.mistake_shown, fresh.mistake_shown,
        "{what}: mistake shown"
    );
    assert_eq!(lazy.config, fresh.config, "{what}: config");
}

/// Budgets from 1 to a little past what the run needs.
fn budgets(t: &Transcript, config: Config) -> std::ops::RangeInclusive<u32> {
    let needed = t.replay(config).model_calls() as u32;
    1..=needed.max(t.max_turns.get().min(12)) + 2
}

#[test]
fn under_every_budget_the_lazy_replay_is_the_fresh_one() {
    for name in BUILTIN_NAMES {
        let t = std::sync::Arc::new(builtin(name).unwrap().unwrap());
        for base in configs(&t) {
            for n in budgets(&t, base) {
                let config = Config {
                    max_turns: turns(n),
                    ..base
                };
                let mut lazy = t.replay_lazily(config, Lang::En);
                let what = format!("{name} {config:?}");
                assert_same(to_the_end(&mut lazy), &t.replay(config), &what);
            }
        }
    }
}

#[test]
fn a_budget_changed_down_then_up_cuts_and_continues_the_same_replay() {
    for name in BUILTIN_NAMES {
        let t = std::sync::Arc::new(builtin(name).unwrap().unwrap());
        for base in configs(&t) {
            let range = budgets(&t, base);
            let (low, high) = (*range.start(), *range.end());
            let mut lazy = t.replay_lazily(
                Config {
                    max_turns: turns(high),
                    ..base
                },
                Lang::En,
            );
            // Down one at a time from the top, then up again, each budget
            // computed to its end before the next change.
            let down = (low..=high).rev();
            let up = low + 1..=high;
            for n in down.chain(up) {
                lazy.set_max_turns(turns(n));
                let config = Config {
                    max_turns: turns(n),
                    ..base
                };
                let what = format!("{name} changed to {config:?}");
                assert_same(to_the_end(&mut lazy), &t.replay(config), &what);
            }
        }
    }
}

#[test]
fn a_budget_raised_before_the_end_is_reached_replays_no_further_than_asked() {
    let t = std::sync::Arc::new(builtin("always-search").unwrap().unwrap());
    let config = Config {
        max_turns: turns(100_000),
        ..t.default_config()
    };
    let mut lazy = t.replay_lazily(config, Lang::En);
    assert!(lazy.reach(40));
    assert_eq!(lazy.steps().len(), 41, "one step at a time, as asked");
    assert!(!lazy.is_complete());
    lazy.set_max_turns(turns(3));
    assert!(lazy.is_complete(), "turn 3 was computed: the cut is known");
    let cut = Config {
        max_turns: turns(3),
        ..config
    };
    assert_same(lazy.view(), &t.replay(cut), "cut at 3");
    lazy.set_max_turns(turns(50_000));
    assert!(!lazy.is_complete());
    assert_eq!(lazy.steps().len(), 41, "raising uncovers, computes nothing");
}

#[test]
fn the_characters_of_each_prefix_are_counted_as_the_replay_grows() {
    let t = std::sync::Arc::new(builtin("aurora-run").unwrap().unwrap());
    let mut lazy = t.replay_lazily(t.default_config(), Lang::En);
    let view = to_the_end(&mut lazy);
    let counted: Vec<usize> = (0..=view.messages.len())
        .map(|n| view.messages.range(0..n).iter().map(|m| m.chars()).sum())
        .collect();
    let kept: Vec<usize> = (0..=view.messages.len())
        .map(|n| lazy.chars_of(n))
        .collect();
    assert_eq!(kept, counted);
}

#[test]
fn the_steps_that_go_wrong_are_counted_under_every_budget() {
    for name in BUILTIN_NAMES {
        let t = std::sync::Arc::new(builtin(name).unwrap().unwrap());
        for config in configs(&t) {
            // One replay whose budget goes down then up, as `-` and `+` move it.
            let mut lazy = t.replay_lazily(config, Lang::En);
            let budgets: Vec<u32> = budgets(&t, config)
                .rev()
                .chain(budgets(&t, config))
                .collect();
            for max_turns in budgets {
                let config = Config {
                    max_turns: turns(max_turns),
                    ..config
                };
                lazy.set_max_turns(config.max_turns);
                while lazy.advance() {}
                let fresh = t.replay(config);
                let wrong: Vec<usize> = (0..fresh.steps.len())
                    .filter(|&i| fresh.steps[i].event.goes_wrong())
                    .collect();
                let what = format!("{name} under {config:?}");
                assert_eq!(lazy.wrong_count(), wrong.len(), "{what}");
            }
        }
    }
}
