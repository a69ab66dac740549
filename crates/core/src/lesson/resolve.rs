//! A lesson checked against the runs it names: every run loads, every
//! setting is one loopstep knows, every step named is one the run has
//! under the scene's settings. Every problem is listed, not just the first.

use std::num::NonZeroU32;
use std::path::{Component, Path};

use super::file::{AtStep, Lesson, Scene, Text};
use super::steps::{StepName, find_step};
use crate::dialect::Dialect;
use crate::engine::{CheckPolicy, Config, MAX_TURNS, Mistake};
use crate::lang::Lang;
use crate::transcript::{BUILTIN_NAMES, LoadError, Localized, Opening};

/// A lesson ready to present: each scene's runs and settings.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub title: Text,
    pub scenes: Vec<ResolvedScene>,
}

/// A scene's run and what the lesson sets for it.
#[derive(Debug, Clone)]
pub struct ResolvedScene {
    /// Where the scene's run came from, as the lesson names it.
    pub run: String,
    pub runs: Vec<Localized>,
    /// Which of `runs` the scene shows.
    pub index: usize,
    pub card: Option<Text>,
    pub max_turns: Option<NonZeroU32>,
    pub check: Option<CheckPolicy>,
    pub mistake: Option<Mistake>,
    pub dialect: Option<Dialect>,
    pub lang: Option<Lang>,
    /// The step it opens on (0-based).
    pub open_at: Option<usize>,
    /// Plays by itself at this speed.
    pub autoplay: Option<f64>,
    /// Words for the class and for the teacher, by step (0-based).
    pub remarks: Vec<(usize, Text)>,
    pub notes: Vec<(usize, Text)>,
}

/// What is wrong with a lesson, at its scene (from 1; 0 is the lesson).
#[derive(Debug)]
pub struct Problem {
    pub scene: usize,
    pub why: Why,
}

#[derive(Debug)]
pub enum Why {
    NoScene,
    /// The run's path leads out of the lesson's folder (or is absolute).
    OutsideFolder(String),
    Run(LoadError),
    /// The file holds fewer runs than `which` asks for.
    NoSuchRun {
        which: usize,
        runs: usize,
    },
    MaxTurns(u32),
    Check(String),
    Mistake(String),
    Dialect(String),
    Lang(String),
    Pace(f64),
    /// A step the run does not have under the scene's settings; `of` says
    /// what named it (`open_at`, `remarks`, `notes`).
    NoSuchStep {
        of: &'static str,
        step: StepName,
        steps: usize,
    },
}

/// The speeds the screen plays at.
pub const PACES: [f64; 4] = [0.5, 1.0, 2.0, 4.0];

/// Checks `lesson`, whose file is in `folder`: the lesson ready to
/// present, or every problem found.
pub fn resolve(lesson: &Lesson, folder: &Path) -> Result<Resolved, Vec<Problem>> {
    let mut problems = Vec::new();
    if lesson.scenes.is_empty() {
        problems.push(Problem {
            scene: 0,
            why: Why::NoScene,
        });
    }
    let mut scenes = Vec::new();
    for (n, scene) in lesson.scenes.iter().enumerate() {
        let mut found = Vec::new();
        if let Some(resolved) = resolve_scene(scene, folder, &mut found) {
            scenes.push(resolved);
        }
        problems.extend(found.into_iter().map(|why| Problem { scene: n + 1, why }));
    }
    match problems.is_empty() {
        true => Ok(Resolved {
            title: lesson.title.clone(),
            scenes,
        }),
        false => Err(problems),
    }
}

fn resolve_scene(scene: &Scene, folder: &Path, problems: &mut Vec<Why>) -> Option<ResolvedScene> {
    let max_turns = scene.max_turns.and_then(|n| {
        let valid = (1..=MAX_TURNS).contains(&n);
        if !valid {
            problems.push(Why::MaxTurns(n));
        }
        valid.then(|| NonZeroU32::new(n)).flatten()
    });
    let check = named(&scene.check, problems, Why::Check, CheckPolicy::named);
    let mistake = named(&scene.mistake, problems, Why::Mistake, Mistake::named);
    let dialect = named(&scene.dialect, problems, Why::Dialect, Dialect::of_id);
    let lang = named(&scene.lang, problems, Why::Lang, Lang::of_code);
    if let Some(pace) = scene.autoplay.filter(|p| !PACES.contains(p)) {
        problems.push(Why::Pace(pace));
    }
    let (runs, index) = open_run(scene, folder, problems)?;
    // The steps the run has under the scene's settings: what its steps'
    // names are resolved against.
    let transcript = runs[index].get(Lang::En);
    let steps = transcript
        .replay(scene_config(
            transcript,
            (max_turns, dialect, check, mistake),
        ))
        .steps;
    let mut at = |of: &'static str, step: &StepName| {
        let found = find_step(&steps, step);
        if found.is_none() {
            problems.push(Why::NoSuchStep {
                of,
                step: step.clone(),
                steps: steps.len(),
            });
        }
        found
    };
    let open_at = scene.open_at.as_ref().and_then(|step| at("open_at", step));
    let mut placed = |of: &'static str, words: &[AtStep]| -> Vec<(usize, Text)> {
        words
            .iter()
            .filter_map(|w| at(of, &w.at).map(|step| (step, w.text.clone())))
            .collect()
    };
    let remarks = placed("remarks", &scene.remarks);
    let notes = placed("notes", &scene.notes);
    Some(ResolvedScene {
        run: scene.run.clone(),
        runs,
        index,
        card: scene.card.clone(),
        max_turns,
        check,
        mistake,
        dialect,
        lang,
        open_at,
        autoplay: scene.autoplay,
        remarks,
        notes,
    })
}

/// The loop's settings for a scene's run: the lesson's, else the run's own.
fn scene_config(
    transcript: &crate::transcript::Transcript,
    (max_turns, dialect, check, mistake): (
        Option<NonZeroU32>,
        Option<Dialect>,
        Option<CheckPolicy>,
        Option<Mistake>,
    ),
) -> Config {
    Config {
        max_turns: max_turns.unwrap_or(transcript.max_turns),
        dialect: dialect.unwrap_or(transcript.dialect()),
        check: check.unwrap_or_default(),
        mistake,
        ..transcript.default_config()
    }
}

/// The steps of a scene's run under the scene's own settings, which the
/// lesson's step names are read against.
pub fn scene_steps(scene: &ResolvedScene) -> Vec<crate::engine::Step> {
    let transcript = scene.runs[scene.index].get(Lang::En);
    let settings = (scene.max_turns, scene.dialect, scene.check, scene.mistake);
    transcript.replay(scene_config(transcript, settings)).steps
}

/// A setting given by name: what it names, or a problem.
fn named<T>(
    given: &Option<String>,
    problems: &mut Vec<Why>,
    why: impl FnOnce(String) -> Why,
    look_up: impl FnOnce(&str) -> Option<T>,
) -> Option<T> {
    let name = given.as_deref()?;
    let found = look_up(name);
    if found.is_none() {
        problems.push(why(name.to_owned()));
    }
    found
}

/// The scene's runs, and which of them it shows: a built-in run by name,
/// else a file inside the lesson's folder.
fn open_run(
    scene: &Scene,
    folder: &Path,
    problems: &mut Vec<Why>,
) -> Option<(Vec<Localized>, usize)> {
    let name = scene.run.as_str();
    let target = if BUILTIN_NAMES.contains(&name) {
        name.to_owned()
    } else {
        let relative = Path::new(name);
        let inside = relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        // Nor through a symbolic link: where the path leads must be in
        // the folder too (a path that leads nowhere fails as it loads).
        let leads_inside = match (folder.canonicalize(), folder.join(relative).canonicalize()) {
            (Ok(folder), Ok(target)) => target.starts_with(folder),
            _ => true,
        };
        if !inside || !leads_inside {
            problems.push(Why::OutsideFolder(name.to_owned()));
            return None;
        }
        folder.join(relative).to_string_lossy().into_owned()
    };
    let runs = match Localized::open(&target, &Opening::default()) {
        Ok(runs) => runs,
        Err(error) => {
            problems.push(Why::Run(error));
            return None;
        }
    };
    let which = scene.which.unwrap_or(1);
    if which == 0 || which > runs.len() {
        problems.push(Why::NoSuchRun {
            which,
            runs: runs.len(),
        });
        return None;
    }
    Some((runs, which - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::file::parse;

    fn checked(text: &str) -> Result<Resolved, Vec<Problem>> {
        resolve(&parse(text).unwrap(), Path::new("."))
    }

    #[test]
    fn a_scene_s_settings_and_steps_are_resolved_against_its_run() {
        let lesson = checked(
            r#"
title = "t"
[[scene]]
run = "aurora-run"
max_turns = 2
mistake = "drop-results"
open_at = "turn 0 append"
notes = [{ at = "turn 0 call", text = "n" }, { at = 3, text = "m" }]
"#,
        )
        .unwrap();
        let scene = &lesson.scenes[0];
        assert_eq!(scene.max_turns.map(|n| n.get()), Some(2));
        assert_eq!(scene.mistake, Some(Mistake::DropResults));
        // start, call, check, dispatch, append: the append is step 5.
        assert_eq!(scene.open_at, Some(4));
        assert_eq!(
            scene.notes.iter().map(|(at, _)| *at).collect::<Vec<_>>(),
            [1, 2]
        );
    }

    #[test]
    fn every_problem_is_listed_with_its_scene() {
        let problems = checked(
            r#"
title = "t"
[[scene]]
run = "paris"
max_turns = 0
check = "strict"
mistake = "forget-everything"
dialect = "cobol"
lang = "fr"
autoplay = 3.0
open_at = "turn 4 dispatch"
[[scene]]
run = "../secrets.json"
[[scene]]
run = "no-such-run"
[[scene]]
run = "aurora-run"
which = 2
"#,
        )
        .unwrap_err();
        let summary: Vec<(usize, String)> = problems
            .iter()
            .map(|p| {
                (
                    p.scene,
                    format!("{:?}", p.why)
                        .split([' ', '('])
                        .next()
                        .unwrap()
                        .to_owned(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (1, "MaxTurns".into()),
                (1, "Check".into()),
                (1, "Mistake".into()),
                (1, "Dialect".into()),
                (1, "Lang".into()),
                (1, "Pace".into()),
                (1, "NoSuchStep".into()),
                (2, "OutsideFolder".into()),
                (3, "Run".into()),
                (4, "NoSuchRun".into()),
            ]
        );
    }

    #[test]
    fn a_lesson_without_a_scene_is_refused() {
        let problems = checked("title = \"t\"\n").unwrap_err();
        assert!(matches!(problems[0].why, Why::NoScene));
    }
}
