//! What calls cost, from a price list the user gives (`--prices FILE`):
//! prices change too often to be built in. The file is JSON, a model name
//! to its prices in US dollars per million tokens:
//!
//! ```json
//! {
//!   "model-a": {"input": 15, "output": 75, "cache_read": 1.5, "cache_write": 18.75},
//!   "model-b": {"input": 1.25, "output": 10, "cache_read": 0.125}
//! }
//! ```
//!
//! `cache_read` and `cache_write` may be left out: the tokens are then
//! priced as input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::Usage;
use crate::transcript::{Unopenable, Unopened, open_input};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    input: f64,
    output: f64,
    #[serde(default)]
    cache_read: Option<f64>,
    #[serde(default)]
    cache_write: Option<f64>,
}

/// The dearest price taken, in dollars per million tokens: far above any
/// model's, and low enough that no count of tokens (a `u64`) makes a cost
/// too large for a number to hold.
pub const MOST_DOLLARS: f64 = 1e9;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Prices(BTreeMap<String, Price>);

impl Prices {
    /// Reads a price list, saying what is wrong and where when it is not
    /// one; a file past 1 MiB (an endless stream included) is refused, a
    /// regular file before it is read, and so is what is no file (a
    /// device such as `/dev/zero`), as any input is (`open_input`).
    pub fn load(path: &Path) -> Result<Prices, PriceError> {
        use std::io::Read;
        /// A list of every model there is fits in a few kilobytes.
        const MAX_SIZE: u64 = 1 << 20;
        let path = path.to_owned();
        let unreadable = |error| PriceError::Unreadable {
            path: path.clone(),
            error,
        };
        let too_large = || PriceError::TooLarge { path: path.clone() };
        let (file, metadata) = open_input(&path, false).map_err(|e| match e {
            Unopenable::Refused(why) => PriceError::Unopened {
                path: path.clone(),
                why,
            },
            Unopenable::Failed(error) => unreadable(error),
        })?;
        let size = if metadata.is_file() {
            metadata.len()
        } else {
            0
        };
        if size > MAX_SIZE {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        file.take(MAX_SIZE + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        if bytes.len() as u64 > MAX_SIZE {
            return Err(too_large());
        }
        let Ok(text) = String::from_utf8(bytes) else {
            return Err(PriceError::NotUtf8 { path });
        };
        Prices::parse(&text).map_err(|why| PriceError::Invalid { path, why })
    }

    pub fn parse(text: &str) -> Result<Prices, PriceProblem> {
        let prices: Prices =
            serde_json::from_str(text).map_err(|e| PriceProblem::Shape(e.to_string()))?;
        for (model, price) in &prices.0 {
            let all = [price.input, price.output]
                .into_iter()
                .chain(price.cache_read)
                .chain(price.cache_write);
            for value in all {
                if !(0.0..=MOST_DOLLARS).contains(&value) {
                    return Err(PriceProblem::NotDollars {
                        model: model.clone(),
                        value,
                    });
                }
            }
        }
        Ok(prices)
    }

    /// Whether the list has a price for `model`.
    pub fn knows(&self, model: &str) -> bool {
        self.0.contains_key(model)
    }

    /// What `usage` cost on `model`, in dollars; `None` when the list has
    /// no price for the model.
    pub fn cost(&self, model: &str, usage: &Usage) -> Option<f64> {
        let price = self.0.get(model)?;
        let per_token = |tokens: u64, dollars: f64| tokens as f64 * dollars / 1e6;
        Some(
            per_token(usage.input_tokens, price.input)
                + per_token(usage.output_tokens, price.output)
                + per_token(
                    usage.cache_read_tokens,
                    price.cache_read.unwrap_or(price.input),
                )
                + per_token(
                    usage.cache_write_tokens,
                    price.cache_write.unwrap_or(price.input),
                ),
        )
    }
}

/// Why a price list could not be used; narrate words it.
#[derive(Debug)]
pub enum PriceError {
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    TooLarge {
        path: PathBuf,
    },
    NotUtf8 {
        path: PathBuf,
    },
    Invalid {
        path: PathBuf,
        why: PriceProblem,
    },
    /// What cannot be read to an end: a device, a socket, a loop of links,
    /// a FIFO no program writes to.
    Unopened {
        path: PathBuf,
        why: Unopened,
    },
}

/// What is wrong inside a price list.
#[derive(Debug, Clone, PartialEq)]
pub enum PriceProblem {
    /// It is no JSON object of prices: serde's words.
    Shape(String),
    /// A price that is no number of dollars.
    NotDollars { model: String, value: f64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_adds_each_kind_of_token_at_its_price() {
        let prices =
            Prices::parse(r#"{"m": {"input": 3, "output": 15, "cache_read": 0.3}}"#).unwrap();
        let usage = Usage {
            input_tokens: 1_000_000,
            output_tokens: 100_000,
            cache_read_tokens: 2_000_000,
            cache_write_tokens: 1_000_000,
        };
        // 3 + 1.5 + 0.6, and the cache write at the input price, 3.
        let cost = prices.cost("m", &usage).unwrap();
        assert!((cost - 8.1).abs() < 1e-9, "{cost}");
        assert_eq!(prices.cost("other", &usage), None);
    }

    #[test]
    fn a_bad_list_says_what_is_wrong() {
        for bad in [
            "[]",
            r#"{"m": {"input": 1}}"#,
            r#"{"m": {"input": -1, "output": 1}}"#,
            r#"{"m": {"input": 1, "output": 1, "typo": 2}}"#,
        ] {
            let error = Prices::parse(bad).unwrap_err();
            let expected = match bad {
                r#"{"m": {"input": -1, "output": 1}}"# => PriceProblem::NotDollars {
                    model: "m".into(),
                    value: -1.0,
                },
                _ => PriceProblem::Shape(
                    serde_json::from_str::<Prices>(bad).unwrap_err().to_string(),
                ),
            };
            assert_eq!(error, expected, "{bad}");
        }
    }
}
