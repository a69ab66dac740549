//! Where an imported run was cut from, as data: narrate words it in the
//! reader's language (`Imported from exchange log `x.json`, run 1 of 3.`),
//! and a transcript file keeps it as the fact it is, tagged by its kind.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Format;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Provenance {
    /// Not said (a recording built in a test).
    #[default]
    Unknown,
    /// A file of this format, by the name it was opened by.
    File { format: Format, name: String },
    /// A part of another origin.
    Part { part: Piece, of: Box<Provenance> },
    /// A sample of an Inspect eval log, or the scoring after it.
    Sample {
        id: String,
        epoch: Option<String>,
        scoring: bool,
    },
}

/// What part of a recording a run came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    /// The n-th session of an aider history.
    Session(usize),
    /// The n-th agent of a conversation (a second system prompt).
    Agent(usize),
    /// The n-th conversation of an exchange log.
    Conversation(usize),
    /// An evaluation instance, by its id.
    Instance(String),
    /// A Claude Code session's side chains.
    SideChains,
    /// The progress lines of a sub-agent, by its id.
    Progress(String),
}

impl Provenance {
    /// Piece `part` of this origin.
    pub fn part(&self, part: Piece) -> Provenance {
        Provenance::Part {
            part,
            of: Box::new(self.clone()),
        }
    }
}

/// Which of how many runs cut from its origin a run is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Imported {
    pub origin: Provenance,
    /// From 1.
    pub run: usize,
    pub of: usize,
}

/// A format is written by the name `--from` gives it.
impl Serialize for Format {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.flag())
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Format::ALL
            .into_iter()
            .find(|f| f.flag() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!("`{name}` is no format loopstep reads"))
            })
    }
}
