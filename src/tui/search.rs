//! `/`: finding a text anywhere in a run. The scan runs between frames, a
//! slice at a time like seeking the end, so a key is answered at once even
//! on a run of tens of thousands of steps; what it has found so far is
//! counted as it goes ("3 of 17+").

use crate::engine::{Query, TraceView};

/// A jump asked for that waits for the scan to find its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    /// The first match at or after this step: where Enter goes.
    From(usize),
    /// The first match after this step (`n`), the last before it (`N`).
    After(usize),
    Before(usize),
}

#[derive(Debug, Clone)]
pub struct Search {
    query: Query,
    /// Steps looked at so far, from the first.
    scanned: usize,
    /// The steps that match, in order.
    matches: Vec<usize>,
    /// Every step of the run has been looked at.
    done: bool,
    wanted: Option<Wanted>,
}

impl Search {
    /// A search for `query` that will go to its first match at or after `cursor`.
    pub fn new(query: Query, cursor: usize) -> Search {
        Search {
            query,
            scanned: 0,
            matches: Vec::new(),
            done: false,
            wanted: Some(Wanted::From(cursor)),
        }
    }

    pub fn query(&self) -> &Query {
        &self.query
    }

    /// The run changed (budget, check, mistake, language): scan it afresh.
    pub fn restart(&mut self) {
        *self = Search {
            wanted: None,
            ..Search::new(self.query.clone(), 0)
        };
    }

    /// Whether every step replayed so far has been looked at.
    pub fn caught_up(&self, replayed: usize) -> bool {
        self.scanned >= replayed
    }

    /// Whether steps remain to be looked at.
    pub fn scanning(&self) -> bool {
        !self.done
    }

    /// Looks at up to `most` of the steps replayed so far that are not
    /// looked at yet; `complete` says whether the replay has ended, so that
    /// the scan can finish.
    pub fn scan(&mut self, view: &TraceView, complete: bool, most: usize) {
        let end = view.steps.len().min(self.scanned + most);
        for index in self.scanned..end {
            if self.query.matches(view, index) {
                self.matches.push(index);
            }
        }
        self.scanned = end;
        self.done = complete && self.scanned == view.steps.len();
    }

    /// Drops a jump not made yet: the reader has gone elsewhere.
    pub fn forget_jump(&mut self) {
        self.wanted = None;
    }

    /// Asks for the next match after `cursor`, or the last before it.
    pub fn want(&mut self, forward: bool, cursor: usize) {
        self.wanted = Some(if forward {
            Wanted::After(cursor)
        } else {
            Wanted::Before(cursor)
        });
    }

    /// The step to go to, once the scan knows it. A search that reaches
    /// an end of the run goes on from the other end, as in vim and less.
    pub fn take_jump(&mut self) -> Option<usize> {
        let wanted = self.wanted?;
        let first_from = |step: usize| self.matches.partition_point(|&m| m < step);
        let found = match wanted {
            Wanted::From(step) => self.matches.get(first_from(step)).copied(),
            Wanted::After(step) => self.matches.get(first_from(step + 1)).copied(),
            // The matches before a step are all known once the scan is past it.
            Wanted::Before(step) if self.scanned >= step || self.done => {
                first_from(step).checked_sub(1).map(|i| self.matches[i])
            }
            Wanted::Before(_) => return None,
        };
        let target = match (found, wanted) {
            (Some(step), _) => Some(step),
            (None, _) if !self.done => return None,
            (None, Wanted::Before(_)) => self.matches.last().copied(),
            (None, _) => self.matches.first().copied(),
        };
        self.wanted = None;
        target
    }

    /// "which of how many": the cursor's place among the matches (`None`
    /// when it is on none), the matches found so far, and whether more may
    /// come.
    pub fn tally(&self, cursor: usize) -> (Option<usize>, usize, bool) {
        let place = self.matches.binary_search(&cursor).ok().map(|i| i + 1);
        (place, self.matches.len(), !self.done)
    }
}
