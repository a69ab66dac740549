//! The two languages loopstep speaks, and a text in both: the bottom of
//! the layers, so that any module can hold words as data (a dialect's
//! names, the key table) without reaching up into [`crate::narrate`],
//! where the sentences are made.

/// The language loopstep speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The language a locale name asks for: `zh*` is Chinese, anything
    /// else English.
    pub fn of_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The language of the environment: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| get(name).filter(|v| !v.is_empty()))
            .map_or(Lang::En, |locale| Lang::of_locale(&locale))
    }

    /// The language's code in a document: HTML's `lang`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language a code names (`en`, `zh`), if it names one.
    pub fn of_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// The other language, for the screen's `L`.
    pub fn toggled(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

/// A text in both languages, for tables that hold words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tr {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Tr {
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}
