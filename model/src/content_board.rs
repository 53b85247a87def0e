//! A scoreboard for units that carry no identity of their own: packets too short to hold a source and a
//! sequence number (an SP2 packet's payload may be 0 bytes), or bodies whose bytes are random. Units are
//! known by their content (a key: the bytes as they must arrive, with the CRC verdict they must arrive
//! with) and by where each may arrive ([`Dest`]).
//!
//! Several units may share a key (two empty packets with different route sets). An arrival is then matched
//! to one of them, and the choice may have to change when a later arrival can only be one of those already
//! taken: the board keeps, per key, the units and the arrivals as a bipartite graph (an arrival may be a unit
//! of its key that was expected before it arrived and that allows where it arrived) and a matching that
//! covers every arrival, extended by an augmenting path at each arrival. An arrival that no matching can
//! cover is an error: misdelivered (no unit of its key allows where it arrived), unknown or duplicated. So
//! the board is exact — it accepts exactly the arrival sequences that some assignment of arrivals to units
//! explains — whatever the keys' collisions. A key whose units are all matched is forgotten: later arrivals
//! can only be units expected after it was matched (they arrive after those), so nothing is lost.
//!
//! Cost: per arrival, a depth-first search over the units of its key that allow its place; memory: the units
//! of a key from the first unmatched one's expectation on (a key seen continuously at saturation grows;
//! [`ContentBoard::held`] reports it).

use crate::scoreboard::Dest;
use std::collections::HashMap;
use std::hash::Hash;
use thiserror::Error;

/// An arrival no assignment explains.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContentError {
    #[error("arrived at {at}: no unit with this content was sent")]
    Unknown { at: usize },
    #[error("arrived at {at}: every unit with this content may arrive only elsewhere ({dests})")]
    Misdelivered { at: usize, dests: String },
    #[error("arrived at {at}: more units with this content arrived there than were sent for it")]
    Duplicated { at: usize },
}

#[derive(Debug, Clone)]
struct Class<T> {
    /// Expected units (in order of expectation) and the arrival each is matched to.
    units: Vec<(Dest, T, Option<usize>)>,
    /// Arrivals: where, and how many units of the key had been expected when it arrived.
    arrivals: Vec<(usize, usize)>,
    /// The unit each arrival is matched to.
    mate: Vec<usize>,
}

impl<T> Class<T> {
    /// Depth-first search for an augmenting path from arrival `a`.
    fn augment(&mut self, a: usize, seen: &mut [bool]) -> bool {
        let (at, avail) = self.arrivals[a];
        for u in 0..avail {
            if seen[u] || !self.units[u].0.allows(at) {
                continue;
            }
            seen[u] = true;
            let free = match self.units[u].2 {
                None => true,
                Some(b) => self.augment(b, seen),
            };
            if free {
                self.units[u].2 = Some(a);
                self.mate[a] = u;
                return true;
            }
        }
        false
    }
}

/// Expected units by content; see the module documentation.
#[derive(Debug, Clone)]
pub struct ContentBoard<K, T> {
    classes: HashMap<K, Class<T>>,
    outstanding: usize,
    held: usize,
}

impl<K, T> Default for ContentBoard<K, T> {
    fn default() -> Self {
        ContentBoard {
            classes: HashMap::new(),
            outstanding: 0,
            held: 0,
        }
    }
}

impl<K: Hash + Eq + Clone, T: Clone> ContentBoard<K, T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Expects a unit with content `key` at `dest`, with the caller's `data`.
    pub fn expect(&mut self, key: K, dest: Dest, data: T) {
        let c = self.classes.entry(key).or_insert_with(|| Class {
            units: Vec::new(),
            arrivals: Vec::new(),
            mate: Vec::new(),
        });
        c.units.push((dest, data, None));
        self.outstanding += 1;
        self.held += 1;
    }

    /// An arrival of content `key` at `at`: matched (the data of the unit it is matched to now; a later
    /// arrival may swap two units of the same content) or an error.
    pub fn arrive(&mut self, key: &K, at: usize) -> Result<T, ContentError> {
        let Some(c) = self.classes.get_mut(key) else {
            return Err(ContentError::Unknown { at });
        };
        if !c.units.iter().any(|u| u.0.allows(at)) {
            let dests: Vec<String> = c.units.iter().map(|u| format!("{:?}", u.0)).collect();
            return Err(ContentError::Misdelivered {
                at,
                dests: dests.join(", "),
            });
        }
        let a = c.arrivals.len();
        c.arrivals.push((at, c.units.len()));
        c.mate.push(usize::MAX);
        let mut seen = vec![false; c.units.len()];
        if !c.augment(a, &mut seen) {
            c.arrivals.pop();
            c.mate.pop();
            return Err(ContentError::Duplicated { at });
        }
        let data = c.units[c.mate[a]].1.clone();
        self.outstanding -= 1;
        if c.arrivals.len() == c.units.len() {
            self.held -= c.units.len();
            self.classes.remove(key);
        }
        Ok(data)
    }

    /// Units expected and not arrived.
    pub fn outstanding(&self) -> usize {
        self.outstanding
    }

    /// Units held in memory (expected units of keys with an unmatched unit).
    pub fn held(&self) -> usize {
        self.held
    }

    /// The data of the units not arrived (in no particular order of keys; by expectation within a key).
    pub fn unarrived(&self) -> Vec<&T> {
        self.classes
            .values()
            .flat_map(|c| c.units.iter().filter(|u| u.2.is_none()).map(|u| &u.1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ambiguous_choice_is_revised_by_a_later_arrival() {
        let mut b: ContentBoard<Vec<u8>, &str> = ContentBoard::new();
        b.expect(vec![], Dest::Set(0b0110), "x"); // ports 1, 2
        b.expect(vec![], Dest::Set(0b1100), "y"); // ports 2, 3
                                                  // Arrives at 2: either; the board takes x first.
        assert_eq!(b.arrive(&vec![], 2), Ok("x"));
        // Arrives at 1: only x may; the first arrival becomes y.
        assert_eq!(b.arrive(&vec![], 1), Ok("x"));
        assert_eq!(b.outstanding(), 0);
        assert_eq!(b.held(), 0);
    }

    #[test]
    fn misdelivered_duplicated_and_unknown_arrivals_are_errors() {
        let mut b: ContentBoard<Vec<u8>, u32> = ContentBoard::new();
        b.expect(vec![7], Dest::Set(0b0010), 1);
        b.expect(vec![7], Dest::Set(0b0010), 2);
        assert!(matches!(
            b.arrive(&vec![7], 3),
            Err(ContentError::Misdelivered { at: 3, .. })
        ));
        assert!(b.arrive(&vec![7], 1).is_ok());
        assert!(b.arrive(&vec![7], 1).is_ok());
        assert_eq!(b.arrive(&vec![7], 1), Err(ContentError::Unknown { at: 1 }));
        b.expect(vec![7], Dest::Set(0b0010), 3);
        b.expect(vec![7], Dest::Set(0b0100), 4);
        assert!(b.arrive(&vec![7], 1).is_ok());
        // A second arrival at 1: the only other unit may arrive only at 2.
        assert_eq!(
            b.arrive(&vec![7], 1),
            Err(ContentError::Duplicated { at: 1 })
        );
        assert_eq!(b.outstanding(), 1);
        assert_eq!(b.unarrived(), vec![&4]);
        assert_eq!(b.arrive(&vec![8], 1), Err(ContentError::Unknown { at: 1 }));
    }

    /// An arrival may only be a unit expected before it: a unit sent later cannot explain it.
    #[test]
    fn an_arrival_is_never_a_unit_expected_after_it() {
        let mut b: ContentBoard<u8, char> = ContentBoard::new();
        b.expect(0, Dest::Set(0b100), 'p'); // port 2 only: keeps the key open
        b.expect(0, Dest::Set(0b011), 'a'); // ports 0, 1
        assert_eq!(b.arrive(&0, 1), Ok('a'));
        b.expect(0, Dest::Set(0b010), 'b'); // port 1, sent after the arrival at 1
                                            // An arrival at 0 can only be `a`, taken by the arrival at 1, which cannot be `b`.
        assert_eq!(b.arrive(&0, 0), Err(ContentError::Duplicated { at: 0 }));
        assert_eq!(b.arrive(&0, 1), Ok('b'));
        assert_eq!(b.arrive(&0, 2), Ok('p'));
        assert_eq!(b.outstanding(), 0);
    }

    /// Random sets and arrival orders: every arrival sequence that is a permutation of valid deliveries is
    /// accepted, and one extra arrival is refused.
    #[test]
    fn random_valid_deliveries_are_accepted() {
        use rand::{seq::SliceRandom, Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..500 {
            let mut b: ContentBoard<u8, usize> = ContentBoard::new();
            let n = rng.gen_range(1..12);
            let mut deliveries = Vec::new();
            for k in 0..n {
                let set: u64 = rng.gen_range(1..16);
                b.expect(0, Dest::Set(set), k);
                let ports: Vec<usize> = (0..4).filter(|&p| set >> p & 1 == 1).collect();
                deliveries.push(*ports.choose(&mut rng).unwrap());
            }
            deliveries.shuffle(&mut rng);
            for &at in &deliveries {
                assert!(b.arrive(&0, at).is_ok());
            }
            assert_eq!(b.outstanding(), 0);
            assert!(b.arrive(&0, deliveries[0]).is_err());
        }
    }
}
