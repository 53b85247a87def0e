//! The scoreboard and the deadlock watchdog shared by the simulators: the packet network
//! (`crate::network::sim`), the SP2 systems of byte-level switches (`crate::sp2::system`) and the
//! flit-level wormhole simulator (`crate::wormhole::sim`, at the level of whole worms).
//!
//! [`Scoreboard`]: every unit a source sends is expected under the key (source, sequence number), with its
//! destination and a caller's record (creation time, size, …); an arrival must match an expected key that has
//! not arrived yet ([`ScoreError::Unexpected`]: unknown or duplicate) at the expected destination
//! ([`ScoreError::Misdelivered`]); [`Scoreboard::outstanding`] counts the units still under way, and a run
//! ends with none (else they are lost). Sequence numbers of a source must be issued in increasing order
//! (0, 1, 2, …); arrivals may come in any order. Memory: per source, one entry per sequence number between
//! the oldest outstanding one and the newest issued — the units in flight, not the run's length.
//!
//! [`Watchdog`]: a network with units inside it that makes no progress (what counts as progress is the
//! simulator's: a delivery, a byte or a flit moving) for `limit` cycles is deadlocked — an error, never a
//! statistic.

use std::collections::VecDeque;
use thiserror::Error;

/// A broken scoreboard invariant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoreError {
    #[error("unit {src}#{seq} arrived but was never sent or already arrived")]
    Unexpected { src: usize, seq: u64 },
    #[error("unit {src}#{seq} for {dst} arrived at {at}")]
    Misdelivered {
        src: usize,
        seq: u64,
        dst: usize,
        at: usize,
    },
    #[error("source {src}: sequence number {seq} issued out of order (expected {expected})")]
    OutOfOrder { src: usize, seq: u64, expected: u64 },
}

/// Expected units keyed by (source, sequence number); see the module documentation.
#[derive(Debug, Clone)]
pub struct Scoreboard<T> {
    /// Per source: sequence number of `pending[src][0]`, and the entries from there on (None: arrived).
    base: Vec<u64>,
    pending: Vec<VecDeque<Option<(u32, T)>>>,
    outstanding: usize,
    arrived: u64,
    held: usize,
    peak: usize,
}

impl<T> Scoreboard<T> {
    pub fn new(sources: usize) -> Self {
        Scoreboard {
            base: vec![0; sources],
            pending: (0..sources).map(|_| VecDeque::new()).collect(),
            outstanding: 0,
            arrived: 0,
            held: 0,
            peak: 0,
        }
    }

    /// Source `src` sends unit `seq` (the next of its sequence numbers) to `dst`.
    pub fn expect(
        &mut self,
        src: usize,
        seq: u64,
        dst: usize,
        record: T,
    ) -> Result<(), ScoreError> {
        let next = self.base[src] + self.pending[src].len() as u64;
        if seq != next {
            return Err(ScoreError::OutOfOrder {
                src,
                seq,
                expected: next,
            });
        }
        self.pending[src].push_back(Some((dst as u32, record)));
        self.outstanding += 1;
        self.held += 1;
        self.peak = self.peak.max(self.held);
        Ok(())
    }

    /// Unit (`src`, `seq`) arrived at `at`: returns its record.
    pub fn arrive(&mut self, src: usize, seq: u64, at: usize) -> Result<T, ScoreError> {
        let unexpected = ScoreError::Unexpected { src, seq };
        let (Some(q), Some(&b)) = (self.pending.get_mut(src), self.base.get(src)) else {
            return Err(unexpected);
        };
        if seq < b || seq - b >= q.len() as u64 {
            return Err(unexpected);
        }
        let k = (seq - b) as usize;
        let Some((dst, _)) = q[k] else {
            return Err(unexpected);
        };
        if dst as usize != at {
            return Err(ScoreError::Misdelivered {
                src,
                seq,
                dst: dst as usize,
                at,
            });
        }
        let (_, rec) = q[k].take().expect("checked above");
        while let Some(None) = q.front() {
            q.pop_front();
            self.base[src] += 1;
            self.held -= 1;
        }
        self.outstanding -= 1;
        self.arrived += 1;
        Ok(rec)
    }

    /// The destination expected for (`src`, `seq`), if it is outstanding.
    pub fn destination(&self, src: usize, seq: u64) -> Option<usize> {
        let b = *self.base.get(src)?;
        let k = seq.checked_sub(b)?;
        self.pending[src]
            .get(k as usize)?
            .as_ref()
            .map(|(d, _)| *d as usize)
    }

    /// Units sent and not arrived.
    pub fn outstanding(&self) -> usize {
        self.outstanding
    }

    /// Units arrived so far.
    pub fn arrived(&self) -> u64 {
        self.arrived
    }

    /// Entries held (outstanding units and arrived ones behind an older outstanding one): the memory used.
    pub fn held(&self) -> usize {
        self.held
    }

    /// The largest [`Scoreboard::held`] so far.
    pub fn peak(&self) -> usize {
        self.peak
    }
}

/// The deadlock watchdog (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Watchdog {
    limit: u64,
    last: u64,
}

impl Watchdog {
    pub fn new(limit: u64) -> Self {
        Watchdog { limit, last: 0 }
    }

    /// The window in cycles.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Called once per cycle: `progress` = something moved or was delivered this cycle, `busy` = units are
    /// inside the network. Returns the idle cycles when they exceed the limit (a deadlock).
    #[inline]
    pub fn tick(&mut self, now: u64, progress: bool, busy: bool) -> Option<u64> {
        if progress || !busy {
            self.last = now;
            None
        } else if now - self.last > self.limit {
            Some(now - self.last)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoreboard_catches_every_fault_and_stays_small() {
        let mut s: Scoreboard<u64> = Scoreboard::new(2);
        for k in 0..5 {
            s.expect(0, k, 1, 100 + k).unwrap();
        }
        assert!(matches!(
            s.expect(0, 7, 1, 0),
            Err(ScoreError::OutOfOrder { expected: 5, .. })
        ));
        assert_eq!(s.outstanding(), 5);
        assert_eq!(s.arrive(0, 2, 1), Ok(102)); // out of order is fine
        assert_eq!(
            s.arrive(0, 2, 1),
            Err(ScoreError::Unexpected { src: 0, seq: 2 })
        );
        assert!(matches!(
            s.arrive(0, 3, 0),
            Err(ScoreError::Misdelivered { dst: 1, at: 0, .. })
        ));
        assert_eq!(
            s.arrive(1, 0, 1),
            Err(ScoreError::Unexpected { src: 1, seq: 0 })
        );
        assert_eq!(
            s.arrive(5, 0, 1),
            Err(ScoreError::Unexpected { src: 5, seq: 0 })
        );
        assert_eq!(s.destination(0, 4), Some(1));
        for k in [0, 1, 3, 4] {
            s.arrive(0, k, 1).unwrap();
        }
        assert_eq!(s.outstanding(), 0);
        assert_eq!(s.held(), 0);
        assert_eq!(s.arrived(), 5);
        // A long run with a bounded number in flight holds a bounded number of entries.
        for k in 5..100_005u64 {
            s.expect(0, k, 1, k).unwrap();
            if k >= 15 {
                s.arrive(0, k - 10, 1).unwrap();
            }
        }
        assert!(s.held() <= 11, "{}", s.held());
        assert_eq!(s.held(), s.pending.iter().map(|q| q.len()).sum::<usize>());
        assert!(s.peak() <= 11, "{}", s.peak());
    }

    #[test]
    fn watchdog_fires_only_when_busy_and_stuck() {
        let mut w = Watchdog::new(10);
        for t in 0..100 {
            assert_eq!(w.tick(t, false, false), None);
        }
        assert_eq!(w.tick(100, true, true), None);
        for t in 101..=110 {
            assert_eq!(w.tick(t, false, true), None);
        }
        assert_eq!(w.tick(111, false, true), Some(11));
    }
}
