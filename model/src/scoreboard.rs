//! The scoreboard and the deadlock watchdog shared by the simulators: the packet network
//! (`crate::network::sim`), the SP2 systems of byte-level switches (`crate::sp2::system`) and the
//! flit-level wormhole simulator (`crate::wormhole::sim`, at the level of whole worms).
//!
//! [`Scoreboard`]: every unit a source sends is expected under the key (source, sequence number), with where
//! it may arrive ([`Dest`]: one processor, or a set of ports) and a caller's record (creation time, size, …);
//! an arrival must match an expected key that has not arrived yet ([`ScoreError::Unexpected`]: unknown or
//! duplicate) at a permitted place ([`ScoreError::Misdelivered`], [`ScoreError::OutsideSet`]);
//! [`Scoreboard::outstanding`] counts the units still under way, and a run ends with none (else they are
//! lost). A source issues its sequence numbers in increasing order (gaps allowed); arrivals may come in any
//! order. Memory: per source, one entry per sequence number between the oldest outstanding one and the
//! newest issued — the units in flight, not the run's length. The SP2 simulators add their payload and CRC
//! checks on top (`crate::sp2::scoreboard`).
//!
//! [`Watchdog`]: a network with units inside it that makes no progress (what counts as progress is the
//! simulator's: a delivery, a byte or a flit moving) for `limit` cycles is deadlocked — an error, never a
//! statistic.

use std::collections::VecDeque;
use thiserror::Error;

/// Where a unit may arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dest {
    /// At this processor.
    One(usize),
    /// At any port of this set (bit k = port k: an ASR route set at one switch).
    Set(u64),
}

impl Dest {
    /// Whether arriving at `at` (a processor for [`Dest::One`], a port for [`Dest::Set`]) is permitted. A
    /// set never allows a port at or above 64.
    pub fn allows(self, at: usize) -> bool {
        match self {
            Dest::One(d) => d == at,
            Dest::Set(s) => at < 64 && (s >> at) & 1 == 1,
        }
    }
}

/// A broken scoreboard invariant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoreError {
    /// An arrival whose key is not outstanding: never sent, or already arrived (a duplicate).
    #[error("unit {src}#{seq} arrived but was never sent or already arrived")]
    Unexpected {
        /// The source the arrival names.
        src: usize,
        /// The sequence number the arrival names.
        seq: u64,
    },
    /// A unit for one processor arrived at another.
    #[error("unit {src}#{seq} for {dst} arrived at {at}")]
    Misdelivered {
        /// The unit's source.
        src: usize,
        /// The unit's sequence number.
        seq: u64,
        /// The processor it was sent to.
        dst: usize,
        /// Where it arrived.
        at: usize,
    },
    /// A unit for a set of ports arrived at a port outside the set.
    #[error("unit {src}#{seq} for ports {set:#b} arrived at port {at}")]
    OutsideSet {
        /// The unit's source.
        src: usize,
        /// The unit's sequence number.
        seq: u64,
        /// The permitted ports (bit k = port k).
        set: u64,
        /// The port it arrived at.
        at: usize,
    },
    /// A source sent a sequence number not above every one it sent before.
    #[error("source {src}: sequence number {seq} issued out of order (the next may be {expected} or later)")]
    OutOfOrder {
        /// The source.
        src: usize,
        /// The sequence number it sent.
        seq: u64,
        /// The lowest sequence number it may send next.
        expected: u64,
    },
}

/// Expected units keyed by (source, sequence number); see the module documentation.
#[derive(Debug, Clone)]
pub struct Scoreboard<T> {
    /// Per source: sequence number of `pending[src][0]`, and the entries from there on (None: arrived).
    base: Vec<u64>,
    pending: Vec<VecDeque<Option<(Dest, T)>>>,
    outstanding: usize,
    arrived: u64,
    held: usize,
    peak: usize,
}

impl<T> Default for Scoreboard<T> {
    fn default() -> Self {
        Scoreboard::new(0)
    }
}

impl<T> Scoreboard<T> {
    /// A scoreboard for `sources` sources (more are added as they send).
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

    /// Source `src` sends unit `seq` (above every sequence number it issued before) to `dst`.
    pub fn expect(&mut self, src: usize, seq: u64, dst: Dest, record: T) -> Result<(), ScoreError> {
        if src >= self.base.len() {
            self.base.resize(src + 1, 0);
            self.pending.resize_with(src + 1, VecDeque::new);
        }
        let q = &mut self.pending[src];
        if q.is_empty() && seq >= self.base[src] {
            // Nothing held: the window starts at this unit.
            self.base[src] = seq;
        }
        let next = self.base[src] + q.len() as u64;
        if seq < next {
            return Err(ScoreError::OutOfOrder {
                src,
                seq,
                expected: next,
            });
        }
        for _ in next..seq {
            q.push_back(None);
            self.held += 1;
        }
        q.push_back(Some((dst, record)));
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
        if !dst.allows(at) {
            return Err(match dst {
                Dest::One(d) => ScoreError::Misdelivered {
                    src,
                    seq,
                    dst: d,
                    at,
                },
                Dest::Set(set) => ScoreError::OutsideSet { src, seq, set, at },
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

    /// Where (`src`, `seq`) may arrive, if it is outstanding.
    pub fn destination(&self, src: usize, seq: u64) -> Option<Dest> {
        let b = *self.base.get(src)?;
        let k = seq.checked_sub(b)?;
        self.pending[src].get(k as usize)?.as_ref().map(|(d, _)| *d)
    }

    /// The units sent and not arrived, as (source, sequence number), in order.
    pub fn outstanding_units(&self) -> Vec<(usize, u64)> {
        let mut v = Vec::with_capacity(self.outstanding);
        for (src, q) in self.pending.iter().enumerate() {
            for (k, e) in q.iter().enumerate() {
                if e.is_some() {
                    v.push((src, self.base[src] + k as u64));
                }
            }
        }
        v
    }

    /// The record of an outstanding unit.
    pub fn record(&self, src: usize, seq: u64) -> Option<&T> {
        let q = self.pending.get(src)?;
        let k = seq.checked_sub(self.base[src])?;
        q.get(k as usize)?.as_ref().map(|(_, r)| r)
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
    /// A watchdog that reports a deadlock after more than `limit` cycles without progress while busy; its
    /// last progress is at cycle 0.
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
            s.expect(0, k, Dest::One(1), 100 + k).unwrap();
        }
        assert!(matches!(
            s.expect(0, 3, Dest::One(1), 0),
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
        assert_eq!(s.destination(0, 4), Some(Dest::One(1)));
        for k in [0, 1, 3, 4] {
            s.arrive(0, k, 1).unwrap();
        }
        assert_eq!(s.outstanding(), 0);
        assert_eq!(s.held(), 0);
        assert_eq!(s.arrived(), 5);
        // A long run with a bounded number in flight holds a bounded number of entries.
        for k in 5..100_005u64 {
            s.expect(0, k, Dest::One(1), k).unwrap();
            if k >= 15 {
                s.arrive(0, k - 10, 1).unwrap();
            }
        }
        assert!(s.held() <= 11, "{}", s.held());
        assert_eq!(s.held(), s.pending.iter().map(|q| q.len()).sum::<usize>());
        assert!(s.peak() <= 11, "{}", s.peak());
        // Gaps, sets, and sources added as they send.
        let mut g: Scoreboard<()> = Scoreboard::default();
        g.expect(3, 7, Dest::Set(0b0110), ()).unwrap();
        g.expect(3, 9, Dest::One(2), ()).unwrap();
        assert!(matches!(
            g.arrive(3, 7, 3),
            Err(ScoreError::OutsideSet {
                set: 0b0110,
                at: 3,
                ..
            })
        ));
        assert_eq!(
            g.arrive(3, 8, 2),
            Err(ScoreError::Unexpected { src: 3, seq: 8 })
        );
        g.arrive(3, 7, 2).unwrap();
        g.arrive(3, 9, 2).unwrap();
        assert_eq!((g.outstanding(), g.held()), (0, 0));
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
