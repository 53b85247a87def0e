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
//! Cost: per arrival, a scan of the unmatched units of its key (the oldest that allows its place is taken),
//! and only when none does a depth-first search over its matched ones. While every unit of a key allows one
//! place (a processor's packets), its matched units are retired (no search needs to move them) and its matched
//! prefix is dropped with its arrivals, so memory and time stay those of the units in flight; a key with
//! multi-place units (route sets) keeps its history until all its units have arrived ([`ContentBoard::held`]
//! reports it). (A key that gets its first multi-place unit after a prefix was dropped keeps the rest exact;
//! the dropped one-place history could only be needed by a search that reorders those old arrivals, which
//! would show as a reported duplicate, never as a missed error.)

use crate::scoreboard::Dest;
use std::collections::HashMap;
use std::hash::Hash;
use thiserror::Error;

/// An arrival no assignment explains.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContentError {
    /// No unit with this key is outstanding (none was expected, or all have arrived).
    #[error("arrived at {at}: no unit with this content was sent")]
    Unknown {
        /// Where it arrived (a processor or a port, as the units' [`Dest`]s read it).
        at: usize,
    },
    /// Units with this key are outstanding, but none of the key's units allows the place it arrived at.
    #[error("arrived at {at}: every unit with this content may arrive only elsewhere ({dests})")]
    Misdelivered {
        /// Where it arrived.
        at: usize,
        /// The destinations of the key's units, listed for the message.
        dests: String,
    },
    /// Some unit of this key allows the place, but no matching of arrivals to units can cover this arrival
    /// as well: more arrived there than were sent for it.
    #[error("arrived at {at}: more units with this content arrived there than were sent for it")]
    Duplicated {
        /// Where it arrived.
        at: usize,
    },
}

#[derive(Debug, Clone)]
struct Class<T> {
    /// Expected units (in order of expectation), the arrival each is matched to, and whether it is retired
    /// (matched and no longer needed by any search, below).
    units: Vec<(Dest, T, Option<usize>, bool)>,
    /// Arrivals: where, and how many units of the key had been expected when it arrived.
    arrivals: Vec<(usize, usize)>,
    /// The unit each arrival is matched to.
    mate: Vec<usize>,
    /// Units before this index are all matched.
    first_unmatched: usize,
    /// Retired units before `first_unmatched` (for compaction).
    retired: usize,
    /// A unit that allows more than one place was expected: nothing is retired from then on.
    mixed: bool,
}

/// Whether `d` allows exactly one place.
fn singleton(d: Dest) -> bool {
    match d {
        Dest::One(_) => true,
        Dest::Set(s) => s.count_ones() == 1,
    }
}

impl<T> Class<T> {
    /// Depth-first search for an augmenting path from arrival `a`. Retired units are skipped: while every
    /// unit of the key allows one place only, a matched unit never needs to move (an arrival at its place
    /// can take any unmatched unit for that place that the matched unit's arrival could take, being later).
    fn augment(&mut self, a: usize, seen: &mut [bool]) -> bool {
        let (at, avail) = self.arrivals[a];
        for u in 0..avail {
            if seen[u] || self.units[u].3 || !self.units[u].0.allows(at) {
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

    /// Matches arrival `a`: first to an unmatched unit that allows its place (the oldest), else by an
    /// augmenting path.
    fn place(&mut self, a: usize) -> bool {
        let (at, avail) = self.arrivals[a];
        let direct = (self.first_unmatched..avail)
            .find(|&u| self.units[u].2.is_none() && self.units[u].0.allows(at));
        let ok = match direct {
            Some(u) => {
                self.units[u].2 = Some(a);
                self.mate[a] = u;
                true
            }
            None => {
                let mut seen = vec![false; self.units.len()];
                self.augment(a, &mut seen)
            }
        };
        if ok {
            let u = self.mate[a];
            if !self.mixed {
                self.units[u].3 = true;
            }
            while self.first_unmatched < self.units.len()
                && self.units[self.first_unmatched].2.is_some()
            {
                self.retired += self.units[self.first_unmatched].3 as usize;
                self.first_unmatched += 1;
            }
        }
        ok
    }

    /// Drops the matched prefix when it is all retired (with the arrivals matched to it): memory stays the
    /// units in flight when every unit allows one place (a processor's packets), whatever the run's length.
    fn compact(&mut self) {
        let k = self.first_unmatched;
        if self.mixed || k < 64 || self.retired < k {
            return;
        }
        let dropped: Vec<bool> = self.mate.iter().map(|&u| u < k).collect();
        let mut new_index = vec![usize::MAX; self.arrivals.len()];
        let mut arrivals = Vec::new();
        let mut mate = Vec::new();
        for (a, &gone) in dropped.iter().enumerate() {
            if !gone {
                new_index[a] = arrivals.len();
                let (at, avail) = self.arrivals[a];
                arrivals.push((at, avail.saturating_sub(k)));
                mate.push(self.mate[a] - k);
            }
        }
        self.units.drain(..k);
        for u in self.units.iter_mut() {
            u.2 = u.2.map(|a| new_index[a]);
        }
        self.arrivals = arrivals;
        self.mate = mate;
        self.first_unmatched = 0;
        self.retired = 0;
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
    /// An empty board: nothing expected.
    pub fn new() -> Self {
        Self::default()
    }

    /// Expects a unit with content `key` at `dest`, with the caller's `data`.
    pub fn expect(&mut self, key: K, dest: Dest, data: T) {
        let c = self.classes.entry(key).or_insert_with(|| Class {
            units: Vec::new(),
            arrivals: Vec::new(),
            mate: Vec::new(),
            first_unmatched: 0,
            retired: 0,
            mixed: false,
        });
        if !singleton(dest) && !c.mixed {
            // From now on any matched unit may have to move: none is retired.
            c.mixed = true;
            for u in c.units.iter_mut() {
                u.3 = false;
            }
            c.retired = 0;
        }
        c.units.push((dest, data, None, false));
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
        if !c.place(a) {
            c.arrivals.pop();
            c.mate.pop();
            return Err(ContentError::Duplicated { at });
        }
        let data = c.units[c.mate[a]].1.clone();
        self.outstanding -= 1;
        if c.arrivals.len() == c.units.len() {
            self.held -= c.units.len();
            self.classes.remove(key);
        } else {
            let before = c.units.len();
            c.compact();
            self.held -= before - c.units.len();
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

    /// A long run of one-place units with one content (empty payloads to processors) at saturation: memory
    /// stays bounded and every arrival is matched at once.
    #[test]
    fn one_place_units_are_forgotten_as_they_arrive() {
        let mut b: ContentBoard<u8, u64> = ContentBoard::new();
        let mut in_flight = std::collections::VecDeque::new();
        for k in 0..200_000u64 {
            let dst = (k % 16) as usize;
            b.expect(0, Dest::One(dst), k);
            in_flight.push_back(dst);
            if in_flight.len() > 50 {
                let at = in_flight.pop_front().unwrap();
                assert!(b.arrive(&0, at).is_ok());
            }
            assert!(b.held() < 200, "{} held after {k}", b.held());
        }
        assert_eq!(b.outstanding(), 50);
    }
}
