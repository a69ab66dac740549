//! A run kept in both languages the screen can switch between.

use std::sync::Arc;

use super::{BUILTIN_NAMES, LoadError, Opening, Transcript, open_both};
use crate::lang::Lang;

/// A run in both languages; most runs read the same in both, and are kept
/// once. Cloned, it is shared, not copied: a screen holds its runs so.
#[derive(Debug, Clone, PartialEq)]
pub struct Localized {
    en: Arc<Transcript>,
    /// The Chinese texts, when they differ from the English.
    zh: Option<Arc<Transcript>>,
}

impl Localized {
    pub fn get(&self, lang: Lang) -> &Transcript {
        self.shared(lang)
    }

    /// The run in `lang`, to keep: a replay that holds it holds it alive.
    pub fn shared(&self, lang: Lang) -> &Arc<Transcript> {
        match (lang, &self.zh) {
            (Lang::Zh, Some(zh)) => zh,
            _ => &self.en,
        }
    }

    /// The run in each language it is kept in, to change in place (a copy
    /// of it, where it is shared).
    pub fn transcripts_mut(&mut self) -> impl Iterator<Item = &mut Transcript> {
        std::iter::once(&mut self.en)
            .chain(self.zh.as_mut())
            .map(Arc::make_mut)
    }

    /// Every run of a source, in both languages: a native file's texts in
    /// each, a recording the same in both; a file read once.
    pub fn open(name_or_path: &str, how: &Opening) -> Result<Vec<Localized>, LoadError> {
        let (mut en, mut zh) = open_both(name_or_path, how)?;
        // What the import noticed of the whole file (a call the harness
        // did not keep, lines left out) is said at each run's start, the
        // one place the screen shows notes.
        for run in en.runs.iter_mut().chain(zh.iter_mut().flatten()) {
            run.notes.extend(en.notes.iter().cloned());
        }
        let Some(zh) = zh else {
            return Ok(en.runs.into_iter().map(Localized::from).collect());
        };
        Ok(en
            .runs
            .into_iter()
            .zip(zh)
            .map(|(en, zh)| {
                let zh = (zh != en).then(|| Arc::new(zh));
                Localized {
                    en: Arc::new(en),
                    zh,
                }
            })
            .collect())
    }

    /// Every built-in run, in both languages, in the order of `BUILTIN_NAMES`.
    pub fn builtins() -> Result<Vec<Localized>, LoadError> {
        let mut runs = Vec::with_capacity(BUILTIN_NAMES.len());
        for name in BUILTIN_NAMES {
            runs.extend(Localized::open(name, &Opening::default())?);
        }
        Ok(runs)
    }
}

impl From<Transcript> for Localized {
    fn from(run: Transcript) -> Self {
        Localized {
            en: Arc::new(run),
            zh: None,
        }
    }
}
